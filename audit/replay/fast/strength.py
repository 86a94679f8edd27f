"""Hand strength at the showdown in the compiled replay: the high hand by the lookup tables of
audit/poker/evaluate/tables.py (inlined), Omaha's best two-plus-three high and its
eight-or-better low."""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.poker.evaluate.kernel import dense_high_inline


@njit(cache=True, inline="always")
def _strength(cards, n, table5, table6, table7, flush_suit, by_mask, strengths, card_value):
    """High strength of n (5..7) known cards: the lookup tables of audit/poker/evaluate/tables.py
    (inlined, as is the lookup: each call would pass the eight tables)."""
    return strengths[dense_high_inline(cards, n, table5, table6, table7, flush_suit, by_mask,
                                       card_value)]


@njit(cache=True)
def _omaha_strength(hole, hn, board, table5, table6, table7, flush_suit, by_mask, strengths,
                    card_value):
    best = -1
    five = np.empty(5, np.int64)
    for a in range(hn):
        for b in range(a + 1, hn):
            for x in range(5):
                for y in range(x + 1, 5):
                    for z in range(y + 1, 5):
                        five[0] = hole[a]
                        five[1] = hole[b]
                        five[2] = board[x]
                        five[3] = board[y]
                        five[4] = board[z]
                        v = _strength(five, 5, table5, table6, table7, flush_suit, by_mask,
                                      strengths, card_value)
                        if v > best:
                            best = v
    return best


@njit(cache=True)
def _low_bit(card):
    return 1 << (((card >> 2) + 1) % 13)  # ace-low rank bit: ace = bit 0


@njit(cache=True)
def _bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True)
def _omaha_low8(hole, hn, board):
    """evaluate.omaha_low8_strength as an order: higher is better, -1 = no qualifying low.
    Five distinct ranks compare by their highest card first, which is the bitmask order."""
    best = 1 << 14
    for a in range(hn):
        for b in range(a + 1, hn):
            hm = _low_bit(hole[a]) | _low_bit(hole[b])
            if _bits(hm) != 2 or hm >= 1 << 8:
                continue
            for x in range(5):
                for y in range(x + 1, 5):
                    for z in range(y + 1, 5):
                        bm = _low_bit(board[x]) | _low_bit(board[y]) | _low_bit(board[z])
                        if _bits(bm) != 3 or bm >= 1 << 8 or hm & bm:
                            continue
                        if hm | bm < best:
                            best = hm | bm
    if best == 1 << 14:
        return -1
    return (1 << 14) - best
