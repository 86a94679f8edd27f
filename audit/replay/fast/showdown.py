"""The showdown in the compiled replay (audit/replay/showdown.py settle): each pot to its best
hand, by the game's strength (high, Omaha high and its eight-or-better low, stud, draw), split
clockwise from the button, or by card for stud's odd chips; a pot the log cannot decide goes
back (reason codes 20-22)."""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.replay.fast.draw import _draw_strength
from audit.replay.fast.layout import (
    JOKER,
    MAX_SEATS,
    S_EXPECTED,
    S_FOLDED,
    S_HOLE_N,
    S_IN,
    S_LIVE_C,
    S_LOW,
    S_MUCKED,
    S_ODD_HIGH,
    S_ODD_LOW,
    S_SHOWN,
    S_SHOWN_N,
    S_STRENGTH,
    V_HOLDEM,
)
from audit.replay.fast.pots import (
    _oddchip_sort,
    _split,
    _split_listed,
)
from audit.replay.fast.strength import (
    _omaha_low8,
    _omaha_strength,
    _strength,
)
from audit.replay.fast.stud import _stud_strength


@njit(cache=True, inline="always")
def _settle_pots(n_pots, pot_amount, pot_level, S, order, n_order, size, board, nb, hole, shown,
                 hole_n, variant, stud, draw, hilo, unrecorded, seven, winners, table5, table6,
                 table7, flush_suit, by_mask, strengths, card_value):
    """Each pot of _build_pots to its winners, their shares added to S_EXPECTED; 0, or the
    reason the hand goes back."""
    for p in range(n_pots):
        amt = pot_amount[p]
        level = pot_level[p]
        n_elig = 0
        n_cont = 0
        last_elig = 0
        last_cont = 0
        for s in range(1, size):
            if S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] >= level:
                n_elig += 1
                last_elig = s
                if not S[S_MUCKED, s]:
                    n_cont += 1
                    last_cont = s
        if n_elig == 1:
            S[S_EXPECTED, last_elig] += amt
            continue
        if n_cont == 1:
            S[S_EXPECTED, last_cont] += amt
            continue
        if n_cont == 0 or (nb != 5 and not (stud or draw)):
            if unrecorded:
                continue  # the pot is unverifiable; the hand's one finding says why
            return 20  # DQ-UNVERIFIABLE-AWARD
        best = -1
        n_win = 0
        best_low = -1
        n_low = 0
        unverified = False
        for s in range(1, size):
            if not (S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] >= level
                    and not S[S_MUCKED, s]):
                continue
            v = S[S_STRENGTH, s]
            if v < 0:
                # cards_of: the shown cards when all known, else the hole cards
                use_shown = False
                if S[S_SHOWN, s]:
                    use_shown = True
                    for j in range(S[S_SHOWN_N, s]):
                        if shown[s, j] < 0:
                            use_shown = False
                cn = S[S_SHOWN_N, s] if use_shown else S[S_HOLE_N, s]
                if cn != hole_n and not (stud and 5 <= cn <= 7):
                    unverified = True
                    break
                if draw and S[S_HOLE_N, s] != hole_n:  # a fouled hand (hooks.py _dead)
                    unverified = True
                    break
                jokers = 0
                for j in range(cn):
                    c = shown[s, j] if use_shown else hole[s, j]
                    if c < 0:
                        unverified = True
                    if c == JOKER:
                        jokers += 1
                    seven[j] = c
                if jokers > 1:  # hooks.py hand_cards: two jokers cannot be ranked
                    unverified = True
                if unverified:
                    break
                if draw:
                    v = _draw_strength(variant, seven, table5, table6, table7, flush_suit,
                                       by_mask, strengths, card_value)
                elif stud:
                    v = _stud_strength(variant, seven, cn, S, s, table5, table6, table7,
                                       flush_suit, by_mask, strengths, card_value)
                elif variant == V_HOLDEM:
                    seven[2] = board[0]
                    seven[3] = board[1]
                    seven[4] = board[2]
                    seven[5] = board[3]
                    seven[6] = board[4]
                    for a in range(7):  # the evaluator refuses a card twice
                        for b in range(a + 1, 7):
                            if seven[a] == seven[b]:
                                return 21
                    v = _strength(seven, 7, table5, table6, table7, flush_suit, by_mask,
                                  strengths, card_value)
                else:
                    hc = np.empty(cn, np.int64)
                    for j in range(cn):
                        hc[j] = seven[j]
                        for q in range(5):
                            if hc[j] == board[q]:
                                return 21
                    v = _omaha_strength(hc, cn, board, table5, table6, table7, flush_suit,
                                        by_mask, strengths, card_value)
                    if hilo:
                        S[S_LOW, s] = _omaha_low8(hc, cn, board)
                S[S_STRENGTH, s] = v
            if v > best:
                best = v
                n_win = 0
            if v == best:
                winners[n_win] = s
                n_win += 1
            lo = S[S_LOW, s]
            if lo >= 0:
                if lo > best_low:
                    best_low = lo
                    n_low = 0
                if lo == best_low:
                    winners[MAX_SEATS + n_low] = s
                    n_low += 1
        if unverified:
            if unrecorded:
                continue
            return 20
        # clockwise from the button; one odd chip each to the first winners; a qualifying
        # low takes half, the odd chip of the whole pot staying with the high half
        if stud:  # the odd chips by card (POT-ODDCHIP-STUD)
            _oddchip_sort(winners[:MAX_SEATS], n_win, S, S_ODD_HIGH)
            low_half = amt // 2 if n_low else 0
            _split_listed(amt - low_half, winners[:MAX_SEATS], n_win, S)
            if n_low:
                _oddchip_sort(winners[MAX_SEATS:], n_low, S, S_ODD_LOW)
                _split_listed(low_half, winners[MAX_SEATS:], n_low, S)
            ok = True
        elif n_low:
            low_half = amt // 2
            ok = _split(amt - low_half, winners[:MAX_SEATS], n_win, order, n_order, S)
            ok = ok and _split(low_half, winners[MAX_SEATS:], n_low, order, n_order, S)
        else:
            ok = _split(amt, winners[:MAX_SEATS], n_win, order, n_order, S)
        if not ok:
            return 22  # a winner outside the seating order
    return 0
