"""Forced bets in the compiled replay (audit/replay/forced.py post()): blinds, antes, a straddle,
made-up and dead blinds; the kinds the reference judges (bring-in, kill, ...) go back (reason
codes 30-38)."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import (
    D_ANTE,
    D_BIG_BLIND,
    D_DEAD,
    D_MISSED_BIG,
    D_MISSED_SMALL,
    D_NEW_PLAYER,
    D_NULL,
    D_SMALL_BLIND,
    D_STRADDLE,
    FL,
    H_ANCHOR,
    H_ANTE,
    H_BB,
    H_BB_SEAT,
    H_BETS,
    H_BUTTON,
    H_CUR_BET,
    H_LAST_RAISE,
    H_MIN_BET,
    H_N_ORDER,
    H_SB,
    H_SB_SEAT,
    H_SIZE,
    H_STRADDLE_SEAT,
    H_STRUCTURE,
    H_TO_ACT,
    H_TOURNAMENT,
    MISSING,
    P_STRADDLE_BIGBET,
    P_STRADDLE_LIMIT,
    P_STRADDLE_NEW_BRING_IN,
    S_ALLIN_STREET,
    S_ANTES,
    S_BET,
    S_CONTRIB,
    S_DEAD,
    S_IN,
    S_STACK,
)
from audit.replay.fast.turns import _index_in, _next_to_act


@njit(cache=True)
def _post(d, s, amount, S, H, order, P):
    """audit/replay/forced.py post(): blinds, antes, a straddle, made-up and dead blinds."""
    if not (d == D_SMALL_BLIND or d == D_BIG_BLIND or d == D_ANTE or d == D_STRADDLE
            or d == D_NEW_PLAYER or d == D_MISSED_BIG or d == D_DEAD or d == D_MISSED_SMALL
            or d == D_NULL):
        return 30  # kinds the reference replay judges (bring-in, kill, ...)
    size = H[H_SIZE]
    if s == MISSING or not (0 < s < size) or not S[S_IN, s]:
        return 31
    add = 0 if amount == MISSING else amount
    stack = S[S_STACK, s]
    if add > stack:
        return 32  # HOUSE-TABLE-STAKES
    n = H[H_N_ORDER]
    headsup = n == 2
    button = H[H_BUTTON]
    live = add
    if d == D_NEW_PLAYER or d == D_MISSED_BIG:
        # BLIND-MISSED: a full big blind, or all-in for less; the excess over it is dead
        if H[H_BB] and add < H[H_BB] and add < stack:
            return 38
        live = add if add < H[H_BB] else H[H_BB]
    elif d == D_DEAD or d == D_MISSED_SMALL or d == D_NULL:
        # BLIND-MISSED: the missed small blind goes in dead, exactly, or all-in for less
        sb = H[H_SB]
        if sb and add != sb and (add < stack or add > sb):
            return 38
        live = 0
    elif d == D_ANTE:
        # forced.py _check_amount: the game's ante, or all-in for less (ANTE-AMOUNT)
        if S[S_ANTES, s] or H[H_ANTE] <= 0 or not (
                add == H[H_ANTE] or (add == stack and add < H[H_ANTE])):
            return 34  # a second, unexpected or odd-sized ante
        S[S_ANTES, s] = 1
        live = 0
    elif d == D_STRADDLE:
        why = _straddle(s, add, stack, S, H, order, P)
        if why:
            return why
    elif d == D_SMALL_BLIND:
        expected = button if headsup else (order[0] if n else 0)
        if expected and s != expected:
            return 33  # BLIND-POSITIONS / BLIND-HEADSUP
        H[H_SB_SEAT] = s
    else:
        if headsup:
            expected = 0
            for i in range(n):
                if order[i] != button:
                    expected = order[i]
                    break
        else:
            expected = order[1] if n > 1 else 0
            sb = H[H_SB_SEAT]
            if sb:
                i = _index_in(order, n, sb)
                if i >= 0:
                    expected = order[(i + 1) % n]
        no_small = (not headsup and H[H_SB_SEAT] == 0
                    and ((n > 0 and order[0] == s) or (n > 1 and order[1] == s)))
        if expected and s != expected and not no_small:
            return 33
        H[H_BB_SEAT] = s
        H[H_ANCHOR] = s
        if H[H_STRUCTURE] == FL and H[H_BB] > H[H_LAST_RAISE]:
            H[H_LAST_RAISE] = H[H_BB]
        H[H_BETS] = 1
    S[S_STACK, s] = stack - add
    S[S_CONTRIB, s] += add
    if add > live:
        S[S_DEAD, s] += add - live
    if live:
        S[S_BET, s] += live
        if S[S_BET, s] > H[H_CUR_BET]:
            H[H_CUR_BET] = S[S_BET, s]
    if add and add == stack:
        S[S_ALLIN_STREET, s] = 0
    H[H_TO_ACT] = _next_to_act(S, H, order, H[H_ANCHOR]) if H[H_ANCHOR] else 0
    return 0


@njit(cache=True)
def _straddle(s, add, stack, S, H, order, P):
    """forced.py _straddle: one straddle, cash only, left of the big blind, twice the blind."""
    if H[H_STRADDLE_SEAT] or H[H_TOURNAMENT]:
        return 37
    if H[H_STRUCTURE] == FL and not P[P_STRADDLE_LIMIT]:
        return 37
    if H[H_STRUCTURE] != FL and not P[P_STRADDLE_BIGBET]:
        return 37
    n = H[H_N_ORDER]
    i = _index_in(order, n, H[H_BB_SEAT])
    expected = order[(i + 1) % n] if i >= 0 else 0
    if expected and s != expected:
        return 37
    if not expected and add != 2 * H[H_BB] and add < stack:
        return 37
    if expected and add != 2 * H[H_BB] and add < stack:
        return 37
    H[H_STRADDLE_SEAT] = s
    H[H_ANCHOR] = s
    if H[H_STRUCTURE] != FL:
        H[H_LAST_RAISE] = add if P[P_STRADDLE_NEW_BRING_IN] else add - H[H_BB]
        if H[H_LAST_RAISE] < H[H_MIN_BET]:
            H[H_LAST_RAISE] = H[H_MIN_BET]
    else:
        H[H_LAST_RAISE] = add
    return 0
