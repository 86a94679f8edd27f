"""Turn order in the compiled replay (audit/replay/state.py HandState): the seating order from
the button, who is still in, who acts next, and a new betting round."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import (
    FL,
    H_AGGRESSOR,
    H_ANCHOR,
    H_BET_WAS_SHORT,
    H_BETS,
    H_BUTTON,
    H_CAPPED,
    H_CUR_BET,
    H_FR_COUNT,
    H_LAST_RAISE,
    H_MIN_BET,
    H_N_ORDER,
    H_PENDING,
    H_SIZE,
    H_STREET,
    H_STRUCTURE,
    H_STUD,
    H_TO_ACT,
    S_ACTED,
    S_BET,
    S_FOLDED,
    S_IN,
    S_STACK,
)


@njit(cache=True, inline="always")
def _remaining(S, order, n_order):
    c = 0
    for i in range(n_order):
        if S[S_FOLDED, order[i]] == 0:
            c += 1
    return c


@njit(cache=True, inline="always")
def _with_chips(S, order, n_order):
    c = 0
    for i in range(n_order):
        s = order[i]
        if S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0:
            c += 1
    return c


@njit(cache=True, inline="always")
def _next_to_act(S, H, order, after):
    """HandState.next_to_act: first seat clockwise after `after` owing an action (0 = none)."""
    n = H[H_N_ORDER]
    if n == 0:
        return 0
    start = -1
    for i in range(n):
        if order[i] == after:
            start = i + 1
            break
    if start < 0:
        b = H[H_BUTTON]
        size = H[H_SIZE] + 1
        d = (after - b - 1 + 4 * size) % size
        start = 0
        for i in range(n):
            if (order[i] - b - 1 + 4 * size) % size > d:
                start = i
                break
    cur = H[H_CUR_BET]
    can_act = 0
    for i in range(n):
        s = order[i]
        if S[S_IN, s] and S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0:
            can_act += 1
    for k in range(n):
        s = order[(start + k) % n]
        if S[S_IN, s] and S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0 and (
                S[S_ACTED, s] == 0 or S[S_BET, s] < cur):
            if can_act == 1 and (S[S_BET, s] >= cur
                                 or S[S_BET, s] >= _top_other_bet(S, order, n, s)):
                return 0
            return s
    return 0


@njit(cache=True)
def _top_other_bet(S, order, n, seat):
    """HandState.top_other_bet: the most any other player in the hand has in this round."""
    top = 0
    for i in range(n):
        s = order[i]
        if s != seat and S[S_IN, s] and S[S_FOLDED, s] == 0 and S[S_BET, s] > top:
            top = S[S_BET, s]
    return top


@njit(cache=True, inline="always")
def _new_round(S, H, order, street):
    H[H_STREET] = street
    H[H_CUR_BET] = 0
    for i in range(H[H_N_ORDER]):
        s = order[i]
        S[S_BET, s] = 0
        S[S_ACTED, s] = 0
    H[H_LAST_RAISE] = 0 if H[H_STRUCTURE] == FL else H[H_MIN_BET]
    H[H_FR_COUNT] = 0
    H[H_BETS] = 0
    H[H_CAPPED] = 0
    H[H_BET_WAS_SHORT] = 0
    H[H_AGGRESSOR] = 0
    H[H_ANCHOR] = H[H_BUTTON]
    if _remaining(S, order, H[H_N_ORDER]) <= 1:
        H[H_TO_ACT] = 0
    else:
        H[H_TO_ACT] = _next_to_act(S, H, order, H[H_BUTTON])


@njit(cache=True)
def _start(S, H, order):
    """HandState.seat_order, then the preflop round."""
    b = H[H_BUTTON]
    n = 0
    for s in range(b + 1, H[H_SIZE]):
        if S[S_IN, s]:
            order[n] = s
            n += 1
    for s in range(1, min(b + 1, H[H_SIZE])):
        if S[S_IN, s]:
            order[n] = s
            n += 1
    H[H_N_ORDER] = n
    _new_round(S, H, order, 0)
    if H[H_STUD]:  # hooks.py start(): who acts waits for the cards
        H[H_TO_ACT] = 0
        H[H_PENDING] = 1


@njit(cache=True, inline="always")
def _index_in(order, n, seat):
    for i in range(n):
        if order[i] == seat:
            return i
    return -1
