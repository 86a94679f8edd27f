"""Stud games in the compiled replay: seven-card stud, stud high-low, razz, five-card stud and
Mississippi stud at fixed limit, as audit/replay/family/hooks.py replays them for the common
case: antes, the bring-in by the lowest (razz: highest) upcard, first to act by the best board,
the open pair on 4th street, the streets by card count. Anything else goes back (the reason
codes 80-92 and the shared ones)."""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.poker.evaluate.kernel import low_a5
from audit.replay.fast.cards import _give
from audit.replay.fast.layout import (
    D_DOWN,
    D_HOLE,
    D_NULL,
    D_UP,
    H_ANTE,
    H_ANTES_CHECKED,
    H_BAD_BURN,
    H_BETS,
    H_BIG_BET,
    H_BIG_FROM,
    H_BIG_SEEN,
    H_BRING_DONE,
    H_BRING_SEAT,
    H_BURN_MARK,
    H_CUR_BET,
    H_DEALT,
    H_FR_COUNT,
    H_LAST_RAISE,
    H_N_ACTIONS,
    H_N_ORDER,
    H_OPEN_PAIR,
    H_PENDING,
    H_SIZE,
    H_SMALL_BET,
    H_STREET,
    H_TO_ACT,
    JOKER,
    K_BET,
    K_CHECK,
    K_COMPLETE,
    K_FOLD,
    K_RAISE,
    MISSING,
    S_ACTED,
    S_ACTED_FR,
    S_ACTED_LEVEL,
    S_ANTES,
    S_BET,
    S_CONTRIB,
    S_FOLDED,
    S_HOLE_N,
    S_IN,
    S_LOW,
    S_ODD_HIGH,
    S_ODD_LOW,
    S_SHOWN,
    S_SHOWN_N,
    S_STACK,
    STUD_BIG_FROM,
    STUD_COUNTS,
    STUD_FIRST,
    STUD_LAST,
    STUD_STREET_OF,
    STUD_UP,
    STUD_UPS,
    V_FIRST_STUD,
    V_RAZZ,
    V_STUD,
    V_STUD_HILO,
)
from audit.replay.fast.strength import _strength
from audit.replay.fast.turns import _new_round, _next_to_act, _remaining


@njit(cache=True)
def _ace_low(card):
    """audit/poker/stud.py _ace_low: rank with the ace lowest, then suit."""
    return (((card >> 2) + 1) % 13) * 4 + (card & 3)


@njit(cache=True)
def _board_key(cards, lo, hi, low):
    """audit/poker/stud.py board_key of cards[lo:hi] as one integer, larger is better, for
    boards of the same size (the shape then fixes how many ranks follow): high, by quads,
    trips, two pair, pair, then the ranks, biggest group first; low (razz), the reverse."""
    counts = np.zeros(13, np.int64)
    for i in range(lo, hi):
        r = ((cards[i] >> 2) + 1) % 13 if low else cards[i] >> 2
        counts[r] += 1
    top = 0
    pairs = 0
    ranks = 0
    for size in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == size:
                if top == 0:
                    top = size
                if size == 2:
                    pairs += 1
                ranks = (ranks << 4) | (15 - r if low else r)
    if top == 4:
        shape = 4
    elif top == 3:
        shape = 3
    elif pairs >= 2:
        shape = 2
    elif pairs == 1:
        shape = 1
    else:
        shape = 0
    if low:
        shape = 4 - shape
    elif top == 4:  # five upcards (Mississippi): a full house between trips and quads
        shape = 5
    elif top == 3 and pairs:
        shape = 4
    return (shape << 24) | ranks


@njit(cache=True)
def _stud_deal(i, d, s, n, parsed, hole, seen, S, H, order, burns, variant, hole_n):
    """hooks.py deal() for a card dealt to a seat; 0, or the reason the hand goes back."""
    if d != D_UP and d != D_DOWN and d != D_HOLE and d != D_NULL:
        return 80  # a common card or another deal
    if s == MISSING or not (0 < s < H[H_SIZE]) or not S[S_IN, s]:
        return 11
    hn = S[S_HOLE_N, s]
    faces = STUD_UP[variant - V_FIRST_STUD]
    if hn + n > hole_n:
        return 12  # STUD-CARD-COUNT
    for j in range(n):
        up = faces[hn + j]
        if (d == D_UP) != (up == 1):
            return 81  # STUD-EXPOSED-START, STUD-7TH-UP and the like
        if up and parsed[j] < 0:
            return 82  # an upcard the log does not show
    why = _give(i, s, n, parsed, hole, seen, S)
    if why:
        return why
    H[H_DEALT] += n
    if H[H_DEALT] > 52:
        return 83  # STUD-SHORT-DECK
    k = STUD_STREET_OF[variant - V_FIRST_STUD][hn + n]
    if k > H[H_STREET]:
        if k != H[H_STREET] + 1:
            return 84
        # hooks.py _next_street
        if H[H_TO_ACT] and _remaining(S, order, H[H_N_ORDER]) > 1 and not H[H_PENDING]:
            return 7  # STUD-PREMATURE
        if burns - H[H_BURN_MARK] != 1:
            H[H_BAD_BURN] = 1
        H[H_BURN_MARK] = burns
        _new_round(S, H, order, k)
        H[H_TO_ACT] = 0
        H[H_PENDING] = 1
        H[H_OPEN_PAIR] = 0
        H[H_BIG_SEEN] = 0
        H[H_BIG_FROM] = STUD_BIG_FROM[variant - V_FIRST_STUD]
    return 0


@njit(cache=True)
def _stud_first(variant, hole, S, H, order):
    """The seat still in with the best claim to act first, ties to the first clockwise: on
    the first street the bring-in card (audit/poker/stud.py bring_in_seat: the lowest upcard,
    razz the highest, aces low), later the best board (first_by_board)."""
    first = STUD_FIRST[variant - V_FIRST_STUD]
    razz = variant == V_RAZZ
    street = H[H_STREET]
    n_up = STUD_UPS[variant - V_FIRST_STUD][street]
    b = 0
    best = 0
    for i in range(H[H_N_ORDER]):
        s = order[i]
        if S[S_FOLDED, s]:
            continue
        if street == 0:
            c = hole[s, first - 1]
            key = _ace_low(c) if razz else 100 - c
        else:
            key = _board_key(hole[s], first - 1, first - 1 + n_up, razz)
        if b == 0 or key > best:
            b = s
            best = key
    return b


@njit(cache=True)
def _stud_resolve(variant, hole, S, H, order):
    """hooks.py _resolve: who brings in, or who starts a later street, once its cards are out."""
    H[H_PENDING] = 0
    n = H[H_N_ORDER]
    street = H[H_STREET]
    for i in range(n):
        s = order[i]
        if not S[S_FOLDED, s] and S[S_HOLE_N, s] != STUD_COUNTS[variant - V_FIRST_STUD][street]:
            return 85  # a player still in without this street's cards
    if street == 0:
        b = _stud_first(variant, hole, S, H, order)
        H[H_BRING_SEAT] = b
        if b == 0 or S[S_STACK, b] == 0:
            return 86  # the lowcard is all in for his ante
        H[H_TO_ACT] = b
        return 0
    if _next_to_act(S, H, order, 0) == 0:
        H[H_TO_ACT] = 0
        return 0
    b = _stud_first(variant, hole, S, H, order)
    if S[S_STACK, b] > 0:
        H[H_TO_ACT] = b
    else:  # ORDER-STUD-ALLIN-STARTER: the next player still able to act starts
        H[H_TO_ACT] = _next_to_act(S, H, order, b)
    if street == 1 and variant == V_STUD:
        for i in range(n):
            s = order[i]
            if not S[S_FOLDED, s] and hole[s, 2] >> 2 == hole[s, 3] >> 2:
                H[H_OPEN_PAIR] = 1  # BET-STUD-OPENPAIR: either limit may be bet
    return 0


@njit(cache=True)
def _stud_antes(S, H, order):
    """hooks.py _antes_due, once the betting starts: every player has anted (an ante game)."""
    if H[H_ANTES_CHECKED]:
        return 0
    H[H_ANTES_CHECKED] = 1
    if H[H_ANTE] > 0:
        for i in range(H[H_N_ORDER]):
            if S[S_ANTES, order[i]] != 1:
                return 35
    return 0


@njit(cache=True)
def _stud_before(k, s, amount, total, variant, hole, S, H, order):
    """hooks.py before_action for the common case; 0, or the reason the hand goes back."""
    why = _stud_antes(S, H, order)
    if why:
        return why
    if H[H_PENDING]:
        why = _stud_resolve(variant, hole, S, H, order)
        if why:
            return why
    if s == MISSING or not (0 < s < H[H_SIZE]):
        return 40
    if H[H_STREET] == 0 and not H[H_BRING_DONE] and s == H[H_BRING_SEAT]:
        H[H_BRING_DONE] = 1
        if k == K_FOLD or k == K_CHECK:
            return 87  # STUD-BRINGIN-OPTIONS
    if H[H_OPEN_PAIR] and (k == K_BET or k == K_RAISE or k == K_COMPLETE):
        if total != MISSING:
            new_total = total
        else:
            new_total = S[S_BET, s] + (0 if amount == MISSING else amount)
        if H[H_BIG_SEEN] or new_total - H[H_LAST_RAISE] == H[H_BIG_BET]:
            H[H_BIG_FROM] = H[H_STREET]  # the big bet from now on this round
            H[H_BIG_SEEN] = 1
        else:
            H[H_BIG_FROM] = 2
    return 0


@njit(cache=True)
def _stud_bring_in(s, amount, bring_in, variant, hole, S, H, order):
    """hooks.py post() of the bring-in: due from the lowcard, the structure's amount."""
    why = _stud_antes(S, H, order)
    if why:
        return why
    if s == MISSING or not (0 < s < H[H_SIZE]) or not S[S_IN, s]:
        return 31
    if H[H_PENDING]:
        why = _stud_resolve(variant, hole, S, H, order)
        if why:
            return why
    if H[H_STREET] != 0 or H[H_BRING_DONE] or s != H[H_BRING_SEAT]:
        return 88  # a bring-in by the wrong seat, or a second one
    add = 0 if amount == MISSING else amount
    stack = S[S_STACK, s]
    if add >= stack:
        return 89  # over his stack, or all in for it (STUD-BRINGIN-ALLIN)
    if bring_in and add != bring_in and add != H[H_SMALL_BET]:
        return 90  # STUD-BRINGIN-AMOUNT
    S[S_STACK, s] = stack - add
    S[S_CONTRIB, s] += add
    S[S_BET, s] += add
    if S[S_BET, s] > H[H_CUR_BET]:
        H[H_CUR_BET] = S[S_BET, s]
    S[S_ACTED, s] = 1
    S[S_ACTED_LEVEL, s] = H[H_CUR_BET]
    S[S_ACTED_FR, s] = H[H_FR_COUNT]
    H[H_N_ACTIONS] += 1
    H[H_LAST_RAISE] = 0
    H[H_BETS] = 0
    H[H_BRING_DONE] = 1
    H[H_TO_ACT] = _next_to_act(S, H, order, s)
    return 0


@njit(cache=True)
def _stud_show(i, s, n, parsed, hole, shown, seen, S):
    """hooks.py show(): the shown cards (all known) replace what was shown before; every
    known hole card is among them."""
    hn = S[S_HOLE_N, s]
    for j in range(n):
        if parsed[j] < 0:
            return 91
    for q in range(hn):
        c = hole[s, q]
        if c < 0:
            continue
        found = False
        for j in range(n):
            if parsed[j] == c:
                found = True
        if not found:
            return 15  # shown cards that differ from the logged ones
    for j in range(n):
        c = parsed[j]
        before = False
        for q in range(hn):
            if hole[s, q] == c:
                before = True
        for q in range(S[S_SHOWN_N, s]):
            if shown[s, q] == c:
                before = True
        if not before and c != JOKER:
            if seen[c] >= 0:
                return 9
            seen[c] = i
    for j in range(n):
        shown[s, j] = parsed[j]
    S[S_SHOWN_N, s] = n
    S[S_SHOWN, s] = 1
    return 0


@njit(cache=True)
def _stud_finish(S, H, order, burns, variant, hole_n):
    """hooks.py finish(): card counts and burns."""
    n = H[H_N_ORDER]
    rem = _remaining(S, order, n)
    for i in range(n):
        s = order[i]
        c = S[S_HOLE_N, s]
        if (c and c < hole_n and not S[S_FOLDED, s]
                and H[H_STREET] == STUD_LAST[variant - V_FIRST_STUD] and rem > 1):
            return 92  # STUD-CARD-COUNT: short at the showdown
    if burns and H[H_BAD_BURN]:
        return 19  # STUD-BURN-ERROR
    return 0


@njit(cache=True)
def _stud_strength(variant, cards, n, S, s, table5, table6, table7, flush_suit, by_mask,
                   strengths, card_value):
    """game_strength of a stud hand of n (5..7) known cards, its 8-or-better low in
    S[S_LOW, s], and its odd-chip keys (audit/poker/stud.py oddchip_order): in high games
    the highest card by suit first, in low games the lowest, aces low."""
    top = -1
    low = 99
    for j in range(n):
        if cards[j] > top:
            top = cards[j]
        a = _ace_low(cards[j])
        if a < low:
            low = a
    S[S_ODD_HIGH, s] = low if variant == V_RAZZ else -top
    S[S_ODD_LOW, s] = low
    if variant == V_RAZZ:
        return low_a5(cards, n, 0)
    if variant == V_STUD_HILO:
        S[S_LOW, s] = low_a5(cards, n, 8)
    return _strength(cards, n, table5, table6, table7, flush_suit, by_mask, strengths,
                     card_value)
