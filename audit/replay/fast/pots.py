"""The pots in the compiled replay (audit/replay/pots.py): built from what each player put in
(build_pots), and each split among its winners (split): clockwise from the button, or by card
for stud's odd chips (POT-ODDCHIP-STUD)."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import (
    S_CONTRIB,
    S_DEAD,
    S_EXPECTED,
    S_FOLDED,
    S_IN,
    S_LIVE_C,
    S_REFUND,
)


@njit(cache=True)
def _split(amount, winners, n_win, order, n_order, S):
    """pots.split: equal shares clockwise from the button, one odd chip each to the first
    winners; False when a winner is not in the seating order."""
    q_share = amount // n_win
    r_odd = amount - q_share * n_win
    given = 0
    for ix in range(n_order):
        s = order[ix]
        for w in range(n_win):
            if winners[w] == s:
                S[S_EXPECTED, s] += q_share + (1 if given < r_odd else 0)
                given += 1
                break
    return given == n_win


@njit(cache=True)
def _oddchip_sort(winners, n, S, row):
    """audit/poker/stud.py oddchip_order: the winners by their S[row] key, smallest first."""
    for a in range(1, n):
        w = winners[a]
        b = a - 1
        while b >= 0 and S[row, winners[b]] > S[row, w]:
            winners[b + 1] = winners[b]
            b -= 1
        winners[b + 1] = w


@njit(cache=True)
def _split_listed(amount, winners, n, S):
    """pots.split: equal shares, one odd chip each to the first winners as listed."""
    q = amount // n
    r = amount - q * n
    for i in range(n):
        S[S_EXPECTED, winners[i]] += q + (1 if i < r else 0)


@njit(cache=True, inline="always")
def _build_pots(S, size, pot_amount, pot_level):
    """audit/replay/pots.py build_pots, antes dead money in the main pot: the pots' amounts in
    pot_amount and their levels in pot_level (eligible: not folded, live contribution at least
    the level); (0, the number of pots), or (36, 0) for a player all in on the ante alone (the
    reference builds that main pot). The uncalled part of the top bet goes in S_REFUND."""
    top = 0
    second = 0
    top_seat = 0
    dead_total = 0
    for s in range(1, size):
        if not S[S_IN, s]:
            continue
        dead_total += S[S_DEAD, s]
        c = S[S_CONTRIB, s] - S[S_DEAD, s]
        if c > top:
            second = top
            top = c
            top_seat = s
        elif c > second:
            second = c
    for s in range(size):
        S[S_LIVE_C, s] = S[S_CONTRIB, s] - S[S_DEAD, s]
        if S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] <= 0 and S[S_DEAD, s] > 0:
            return 36, 0  # all-in on the ante alone: the reference builds that main pot
    if top_seat and top > second:
        S[S_REFUND, top_seat] = top - second
        S[S_LIVE_C, top_seat] -= top - second
    # distinct live levels, ascending
    n_levels = 0
    for s in range(1, size):
        if S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] > 0:
            c = S[S_LIVE_C, s]
            dup = False
            for q in range(n_levels):
                if pot_level[q] == c:
                    dup = True
            if not dup:
                pot_level[n_levels] = c
                n_levels += 1
    pot_level[:n_levels].sort()
    n_pots = 0
    prev = 0
    for q in range(n_levels):
        level = pot_level[q]
        amt = 0
        for s in range(1, size):
            if not S[S_IN, s]:
                continue
            x = S[S_LIVE_C, s]
            if x > prev:
                amt += (x if x < level else level) - prev
        if amt:
            pot_amount[n_pots] = amt
            pot_level[n_pots] = level  # eligible: not folded and live contribution >= level
            n_pots += 1
        prev = level
    rest = 0
    for s in range(1, size):
        if S[S_IN, s] and S[S_LIVE_C, s] > prev:
            rest += S[S_LIVE_C, s] - prev
    if n_pots == 0 and (rest or dead_total):
        pot_amount[0] = 0
        pot_level[0] = 0  # everyone not folded
        n_pots = 1
    if rest:
        pot_amount[n_pots - 1] += rest
    if dead_total:
        pot_amount[0] += dead_total
    return 0, n_pots
