"""The award check of the compiled replay (audit/replay/awards.py settle_hand): what each
player was paid against what the pots owe him, the returned bets, the rake (logged, or
implied by an unlogged collection) against the house's schedule (reason codes 23-25)."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import (
    CLEAN,
    CLEAN_IMPLIED_RAKE,
    CLEAN_UNRECORDED,
    H_POT_NET,
    H_RAKE,
    H_REFUNDS_ALL,
    P_RAKE_ALLOWED,
    P_RAKE_CAP,
    P_RAKE_IMPLIED_MAX,
    P_RAKE_PERCENT,
    S_ACTUAL,
    S_CONTRIB,
    S_EXPECTED,
    S_IN,
    S_INCLUDED,
    S_REFUND,
)


@njit(cache=True, inline="always")
def _check_awards(S, H, P, size, unrecorded, refunds_implicit, uncalled_logged, rake_implicit,
                  rake_logged):
    """CLEAN, or clean but for DQ-UNVERIFIABLE-AWARD (CLEAN_UNRECORDED, CLEAN_IMPLIED_RAKE),
    else the reason the hand goes back; the pot, rake and refunds the projection needs in H."""
    refunds_all = not refunds_implicit or uncalled_logged
    if unrecorded:
        H[H_REFUNDS_ALL] = 1 if refunds_all else 0
        H[H_RAKE] = 0
        return CLEAN_UNRECORDED
    if refunds_all:
        for s in range(1, size):
            if S[S_IN, s]:
                S[S_EXPECTED, s] += S[S_REFUND, s]
    included = 0
    if refunds_implicit and not uncalled_logged:
        for s in range(1, size):
            if not S[S_IN, s]:
                continue
            r = S[S_REFUND, s]
            extra = S[S_ACTUAL, s] - S[S_EXPECTED, s]
            if r and (extra == r or (rake_implicit and 0 < extra < r)):
                S[S_EXPECTED, s] += r
                S[S_INCLUDED, s] = r
                included += r
    pot = 0
    refunds = 0
    paid = 0
    for s in range(size):
        pot += S[S_CONTRIB, s]
        refunds += S[S_REFUND, s]
        paid += S[S_ACTUAL, s]
    pot -= refunds
    paid -= included if (refunds_implicit and not uncalled_logged) else refunds
    n_pos = 0
    shortfall = 0
    for s in range(1, size):
        if S[S_IN, s]:
            dd = S[S_ACTUAL, s] - S[S_EXPECTED, s]
        else:
            dd = S[S_ACTUAL, s]
        if dd > 0:
            n_pos += 1
        elif dd < 0:
            shortfall -= dd
    rake = rake_logged
    H[H_POT_NET] = pot
    H[H_REFUNDS_ALL] = 1 if refunds_all else 0
    if rake_implicit:
        rake = pot - paid
        if rake < 0:
            rake = 0
        if rake * 100 > pot * P[P_RAKE_IMPLIED_MAX]:
            # more than an unlogged collection is taken to be (awards.py): with the house's
            # schedule in the profile it is judged as rake, else it is a data-quality note
            if n_pos or shortfall != rake:
                return 23
            H[H_RAKE] = rake
            if P[P_RAKE_PERCENT] or P[P_RAKE_CAP] or not P[P_RAKE_ALLOWED]:
                if not P[P_RAKE_ALLOWED]:
                    return 24
                mx = pot * P[P_RAKE_PERCENT] // 100 if P[P_RAKE_PERCENT] else P[P_RAKE_CAP]
                if P[P_RAKE_CAP] and mx > P[P_RAKE_CAP]:
                    mx = P[P_RAKE_CAP]
                if rake > mx:
                    return 24
                return CLEAN
            return CLEAN_IMPLIED_RAKE
    explained = rake and n_pos == 0 and (rake_implicit or shortfall == rake)
    if explained or (rake and rake_logged):
        if not P[P_RAKE_ALLOWED]:
            return 24  # HOUSE-RAKE
        if P[P_RAKE_PERCENT] or P[P_RAKE_CAP]:  # awards.py _check_rake: a rate, a cap or both
            mx = pot * P[P_RAKE_PERCENT] // 100 if P[P_RAKE_PERCENT] else P[P_RAKE_CAP]
            if P[P_RAKE_CAP] and mx > P[P_RAKE_CAP]:
                mx = P[P_RAKE_CAP]
            if rake > mx:
                return 24
    if not explained and (n_pos or shortfall):
        return 25  # a wrong award (or one the odd-chip exception might excuse)
    # results the projection needs
    H[H_REFUNDS_ALL] = 1 if refunds_all else 0
    H[H_RAKE] = rake
    return CLEAN
