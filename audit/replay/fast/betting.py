"""Betting in the compiled replay (audit/replay/betting.py act() on the in-turn path): folds,
checks, calls, bets and raises at fixed, pot and no limit, the preflop opening, the raise cap
and reopening; an action the reference would flag sends the hand back (reason codes 35, 40-74)."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import (
    FL,
    H_AGGRESSOR,
    H_ANCHOR,
    H_ANTE,
    H_BB,
    H_BB_SEAT,
    H_BET_WAS_SHORT,
    H_BETS,
    H_BIG_BET,
    H_BIG_FROM,
    H_BUTTON,
    H_CAP_MULTI,
    H_CAPPED,
    H_CUR_BET,
    H_FAMILY,
    H_FR_COUNT,
    H_LAST_RAISE,
    H_N_ACTIONS,
    H_N_ORDER,
    H_SB,
    H_SB_SEAT,
    H_SIZE,
    H_SMALL_BET,
    H_STRADDLE_SEAT,
    H_STREET,
    H_STRUCTURE,
    H_STUD,
    H_TO_ACT,
    H_TOURNAMENT,
    K_CALL,
    K_CHECK,
    K_FOLD,
    MISSING,
    NL,
    P_ALLIN_AGGREGATE,
    P_ALLIN_FULL_LEVEL,
    P_ALLIN_HALF_LEVEL,
    P_CAP_HEADSUP,
    P_CAP_HEADSUP_TOURN,
    P_FOLD_UNCAPS,
    P_NL_REOPEN_AGGREGATE,
    P_PL_SB_AS_BB,
    P_PL_SB_AS_BB_TOURN,
    S_ACTED,
    S_ACTED_FR,
    S_ACTED_LEVEL,
    S_AGGR,
    S_ALLIN_STREET,
    S_ANTES,
    S_BET,
    S_CALLS,
    S_CONTRIB,
    S_FACED_FROM,
    S_FOLDED,
    S_FOLDED_STREET,
    S_IN,
    S_PFR,
    S_STACK,
    S_VPIP,
)
from audit.replay.fast.turns import _index_in, _next_to_act, _remaining, _with_chips


@njit(cache=True)
def _open_preflop(S, H, order):
    bb = H[H_BB]
    if bb <= 0 or H[H_CUR_BET] >= bb or H[H_STRADDLE_SEAT]:
        return
    n = H[H_N_ORDER]
    due = H[H_BB_SEAT]
    if not due:
        if n == 2:
            for i in range(n):
                if order[i] != H[H_BUTTON]:
                    due = order[i]
                    break
        else:
            i = _index_in(order, n, H[H_SB_SEAT]) if H[H_SB_SEAT] else -1
            if i >= 0:
                due = order[(i + 1) % n]
            elif n > 1:
                due = order[1]
        if not due or S[S_BET, due] or not S[S_CONTRIB, due]:
            return
    if S[S_STACK, due] != 0:
        return
    H[H_CUR_BET] = bb
    H[H_ANCHOR] = due
    H[H_TO_ACT] = _next_to_act(S, H, order, due)


@njit(cache=True)
def _act(k, s, amount, total, S, H, order, P):
    """audit/replay/betting.py act() and _apply() on the in-turn path."""
    size = H[H_SIZE]
    if s == MISSING or not (0 < s < size) or not S[S_IN, s]:
        return 40
    if S[S_FOLDED, s]:
        return 41
    stack = S[S_STACK, s]
    if stack == 0:
        if k == K_FOLD:
            if S[S_CONTRIB, s]:
                return 42
        else:
            if k == K_CHECK or amount == MISSING or amount == 0:
                return 0  # an all-in player 'checking' through
            return 43
    street = H[H_STREET]
    if street == 0 and H[H_N_ACTIONS] == 0 and not H[H_STUD]:
        if H[H_ANTE] > 0:  # forced.py check_antes: every player has anted by now
            for i in range(H[H_N_ORDER]):
                if S[S_ANTES, order[i]] != 1:
                    return 35
        _open_preflop(S, H, order)
    n = H[H_N_ORDER]
    exp = H[H_TO_ACT]
    if exp != s:
        if exp == 0:
            if _remaining(S, order, n) <= 1:
                return 44
            if (k == K_CHECK or k == K_FOLD) and H[H_CUR_BET] == S[S_BET, s]:
                return 0  # a harmless check or fold after the round closed: ignored
            return 45
        return 46  # out of turn
    cur = H[H_CUR_BET]
    bet_s = S[S_BET, s]
    owed = cur - bet_s
    if k == K_FOLD:
        S[S_FOLDED, s] = 1
        S[S_FOLDED_STREET, s] = street
        if owed > 0 and H[H_AGGRESSOR]:
            S[S_FACED_FROM, s] = H[H_AGGRESSOR]
        S[S_ACTED, s] = 1
        H[H_N_ACTIONS] += 1
        if _remaining(S, order, n) <= 1:
            H[H_TO_ACT] = 0
        else:
            H[H_TO_ACT] = _next_to_act(S, H, order, s)
        return 0
    if amount != MISSING:
        add = amount
        if total != MISSING and total != bet_s + amount and k != K_CHECK:
            return 47  # DQ: amount vs total
    elif total != MISSING:
        add = total - bet_s
    elif k == K_CALL:
        add = owed if owed < stack else stack
    else:
        add = 0
    if add < 0:
        add = 0
    if add > stack:
        return 48  # HOUSE-TABLE-STAKES
    new_total = bet_s + add
    all_in = add == stack and add > 0
    if k == K_CHECK:
        if owed > 0:
            return 49
        add = 0
        new_total = bet_s
    elif k == K_CALL or new_total <= cur:
        if k != K_CALL and not all_in:
            return 50
        if owed <= 0:
            if add > 0:
                return 51
        elif add < owed and not all_in:
            return 52  # CHIP-SHORT-CALL
        elif add > owed:
            return 53
        if add > 0:
            S[S_CALLS, s] += 1
            if street == 0:
                S[S_VPIP, s] = 1
        if owed > 0 and H[H_AGGRESSOR]:
            S[S_FACED_FROM, s] = H[H_AGGRESSOR]
    else:
        why = _raise(k, s, cur, owed, new_total, all_in, S, H, order, P)
        if why:
            return why
    if add:
        S[S_STACK, s] = stack - add
        S[S_CONTRIB, s] += add
        S[S_BET, s] = new_total
        if new_total > H[H_CUR_BET]:
            H[H_CUR_BET] = new_total
        if stack == add:
            S[S_ALLIN_STREET, s] = street
    S[S_ACTED, s] = 1
    S[S_ACTED_LEVEL, s] = H[H_CUR_BET]
    S[S_ACTED_FR, s] = H[H_FR_COUNT]
    H[H_N_ACTIONS] += 1
    H[H_TO_ACT] = _next_to_act(S, H, order, s)
    return 0


@njit(cache=True)
def _raise(k, s, cur, owed, new_total, all_in, S, H, order, P):
    increment = new_total - cur
    opening = cur == 0
    if owed > 0 and H[H_AGGRESSOR]:
        S[S_FACED_FROM, s] = H[H_AGGRESSOR]
    if H[H_STREET] == 0:
        S[S_VPIP, s] = 1
        S[S_PFR, s] = 1
    S[S_AGGR, s] += 1
    if H[H_STRUCTURE] == FL:
        why = _raise_fixed(s, cur, new_total, all_in, S, H, order, P)
        H[H_AGGRESSOR] = s
        return why
    if S[S_ACTED, s] and not opening:
        reopened = H[H_FR_COUNT] > S[S_ACTED_FR, s] or (
            P[P_NL_REOPEN_AGGREGATE] and cur - S[S_ACTED_LEVEL, s] >= H[H_LAST_RAISE])
        if not reopened:
            return 60  # BET-NL-NO-REOPEN
    if not all_in and increment < H[H_LAST_RAISE]:
        return 61  # BET-NL-MIN-BET / MIN-RAISE / SUBMIN-ALLIN
    if H[H_STRUCTURE] != NL:
        pot = 0
        for q in range(H[H_SIZE]):
            pot += S[S_CONTRIB, q]
        mx = cur + pot + owed
        alt = mx
        bb_seat = H[H_BB_SEAT]
        if H[H_STREET] == 0 and bb_seat and not S[S_ACTED, bb_seat] and H[H_SB_SEAT]:
            extra = H[H_BB] - H[H_SB]
            alt = mx + (extra if extra > 0 else 0)
        if new_total > mx:
            allowed_alt = P[P_PL_SB_AS_BB_TOURN] if H[H_TOURNAMENT] else P[P_PL_SB_AS_BB]
            if not (new_total <= alt and allowed_alt):
                return 62  # BET-PL-MAX / BET-PL-SB-AS-BB
    if increment >= H[H_LAST_RAISE]:
        H[H_LAST_RAISE] = increment
        H[H_FR_COUNT] += 1
        H[H_BET_WAS_SHORT] = 0
    elif opening:
        H[H_BET_WAS_SHORT] = 1
    H[H_AGGRESSOR] = s
    return 0


@njit(cache=True)
def _raise_fixed(s, cur, new_total, all_in, S, H, order, P):
    street = H[H_STREET]
    size = H[H_SMALL_BET] if street < H[H_BIG_FROM] else H[H_BIG_BET]
    expected = H[H_LAST_RAISE] + size
    if new_total != expected and not (all_in and new_total < expected):
        return 70  # BET-LIMIT-FIXED
    if S[S_ACTED, s] and cur > 0:
        reopened = H[H_FR_COUNT] > S[S_ACTED_FR, s] or (
            P[P_ALLIN_AGGREGATE] and cur - S[S_ACTED_LEVEL, s] >= size)
        if not reopened:
            return 71  # BET-ALLIN-HALFBET
    increment = new_total - cur
    # a stud completion (bring-in to a full bet) counts as the bet, not as a raise
    counts = (increment >= size or (H[H_FAMILY] and new_total - H[H_LAST_RAISE] >= size)
              or (all_in and 2 * (new_total - H[H_LAST_RAISE]) >= size))
    n = H[H_N_ORDER]
    if counts and cur > 0 and H[H_BETS] >= 1 + H[H_CAP_MULTI]:
        live = _with_chips(S, order, n)
        if live >= 3:
            return 72
        if H[H_CAPPED] and not P[P_FOLD_UNCAPS]:
            return 73
        if live <= 2 and not H[H_TOURNAMENT] and P[P_CAP_HEADSUP]:
            pass
        elif live <= 2 and H[H_TOURNAMENT] and P[P_CAP_HEADSUP_TOURN]:
            pass
        else:
            return 74
    if counts:
        short = all_in and new_total < expected
        if not short or (P[P_ALLIN_HALF_LEVEL] and not P[P_ALLIN_FULL_LEVEL]):
            H[H_LAST_RAISE] = new_total
        elif P[P_ALLIN_FULL_LEVEL]:
            H[H_LAST_RAISE] = expected  # iPoker: the raise goes on the full bet
        # PokerStars (full_bet_levels): a short all-in makes no new level
        H[H_BETS] += 1
        H[H_FR_COUNT] += 1
        if H[H_BETS] >= 1 + H[H_CAP_MULTI] and _with_chips(S, order, n) >= 3:
            H[H_CAPPED] = 1
    return 0
