"""The compiled (numba) high-hand lookup shared by the replay kernel and the simulator's engine.

`dense_high` is `audit.poker.evaluate.tables.high_strength_many`'s lookup for one hand of 5, 6 or 7
cards: the dense strength index from the rank-key sum, raised by the flush table where five
cards share a suit. audit/replay/fast/kernel.py maps the index to a strength, and
audit/simulate/compiled/kernel.py compares indexes directly (a higher index is a better hand).

Only the two kernels import this module, through audit/compiled.py's loader: where numba
cannot load, the import fails with theirs and their callers take the reference path. numba's
on-disk cache of a kernel function does not notice edits to a function it calls from another
module, so after changing `dense_high` clear the `__pycache__` entries of both kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def dense_high(cards: np.ndarray, n: int, table5: np.ndarray, table6: np.ndarray,
               table7: np.ndarray, flush_suit: np.ndarray, by_mask: np.ndarray,
               card_value: np.ndarray) -> int:
    """Dense high-hand index of cards[:n] (n = 5, 6 or 7; cards 0..51, rank * 4 + suit), from
    the tables of audit/poker/evaluate/tables.py: the non-flush table for n cards, `flush_suit` of
    the packed suit counts, `by_mask` of a suit's rank bits, `card_value` per card."""
    value = np.int64(0)
    for i in range(n):
        value += card_value[cards[i]]
    key = value & ((1 << 23) - 1)  # the rank-key sum (evaluate_tables._KEY_MASK)
    dense: int
    if n == 7:
        dense = table7[key]
    elif n == 6:
        dense = table6[key]
    else:
        dense = table5[key]
    suit = flush_suit[value >> 23]  # the suit holding five or more cards, else -1
    if suit >= 0:
        mask = 0
        for i in range(n):
            if cards[i] & 3 == suit:
                mask |= 1 << (cards[i] >> 2)
        f = by_mask[mask]
        if f > dense:
            dense = f
    return dense


# The same lookup for a caller that wants it inlined into its own compiled code (numba IR
# inlining): a call passes eight arrays, which in the replay kernel's showdown loop costs
# about as much as the lookup. Not cached on its own: an inlined function is compiled only
# as part of its callers.
dense_high_inline = njit(nogil=True, inline="always")(dense_high.py_func)


# --------------------------------------------------------------------------- low hands
# audit/poker/evaluate/high.py's ace-to-five low (razz, stud high-low's 8-or-better low),
# compiled for the replay kernel's stud showdowns: the same strengths, value for value
# (tests/poker/test_evaluate_kernel.py compares them on every razz board and random hands).

LOW_BASE = 1 << 23  # high.py _LOW_BASE: low strength = LOW_BASE - badness
NO_LOW = -1  # no qualifying low (the Python evaluator's None)


@njit(cache=True, nogil=True)
def _a5_badness(cards: np.ndarray, pick: np.ndarray) -> int:
    """high.py _a5_badness of the five cards cards[pick[0..4]]: the groups of equal ace-low
    ranks, biggest group first (then the higher rank), as category and 4-bit rank digits."""
    counts = np.zeros(13, np.int64)
    for i in range(5):
        counts[((cards[pick[i]] >> 2) + 1) % 13] += 1
    value = 0
    n_groups = 0
    top = 0
    pairs = 0
    for size in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == size:
                value = (value << 4) | r
                n_groups += 1
                if n_groups == 1:
                    top = size
                if size == 2:
                    pairs += 1
    for _ in range(n_groups, 5):
        value <<= 4
    if top == 1:
        category = 0
    elif top == 2:
        category = 1 if pairs == 1 else 2
    elif top == 3:
        category = 4 if pairs else 3
    else:
        category = 5
    return (category << 20) | value


@njit(cache=True, nogil=True)
def low_a5(cards: np.ndarray, n: int, qualifier: int) -> int:
    """high.py low_a5_strength of cards[:n] (5..7 known cards): the best ace-to-five low,
    higher is better; `qualifier` 8 for eight-or-better (NO_LOW when none), 0 for none."""
    mask = 0
    for i in range(n):
        mask |= 1 << (((cards[i] >> 2) + 1) % 13)
    bits = 0
    m = mask
    while m:
        m &= m - 1
        bits += 1
    if bits >= 5:
        best = 0
        taken = 0
        for r in range(13):
            if mask >> r & 1:
                best |= 1 << r
                taken += 1
                if taken == 5:
                    break
        if qualifier and best >> qualifier:
            return NO_LOW
        value = 0
        for r in range(12, -1, -1):
            if best >> r & 1:
                value = (value << 4) | r
        return LOW_BASE - value
    if qualifier:
        return NO_LOW
    pick = np.empty(5, np.int64)
    worst = 1 << 30
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        pick[0] = a
                        pick[1] = b
                        pick[2] = c
                        pick[3] = d
                        pick[4] = e
                        v = _a5_badness(cards, pick)
                        if v < worst:
                            worst = v
    return LOW_BASE - worst


# --------------------------------------------------------------------------- draw lows
# high.py's deuce-to-seven low and low.py's badugi, compiled for the draw showdowns of the
# replay kernel: the same strengths (tests/poker/test_evaluate_kernel.py).

HIGH_BASE = 1 << 24  # high.py _HIGH_BASE: 2-7 strength = HIGH_BASE - high strength (no wheel)


@njit(cache=True, nogil=True)
def _encode(category: int, ranks: np.ndarray, n: int) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < n else 0)
    return value


@njit(cache=True, nogil=True)
def high5_no_wheel(cards: np.ndarray) -> int:
    """high.py _high(cards, wheel=False) of five known cards: aces high only."""
    counts = np.zeros(13, np.int64)
    suit_mask = np.zeros(4, np.int64)
    for i in range(5):
        counts[cards[i] >> 2] += 1
        suit_mask[cards[i] & 3] |= 1 << (cards[i] >> 2)
    ranks = np.zeros(5, np.int64)
    n = 0
    mask = 0
    for r in range(12, -1, -1):
        if counts[r]:
            ranks[n] = r
            n += 1
            mask |= 1 << r
    flush = False
    for s in range(4):
        if suit_mask[s] != 0 and suit_mask[s] == mask and n == 5:
            flush = True
    top = -1
    for t in range(12, 3, -1):
        window = 0b11111 << (t - 4)
        if mask & window == window:
            top = t
            break
    out = np.zeros(5, np.int64)
    if flush:  # five cards of one suit: a straight flush or a flush beats any other shape
        if top >= 0:
            out[0] = top
            return _encode(8, out, 1)
        return _encode(5, ranks, 5)
    big = 0
    second = 0
    for r in range(13):
        if counts[r] > big:
            big = counts[r]
    pairs = 0
    for r in range(13):
        if counts[r] >= 2:
            pairs += 1
    if big == 4:
        k = 0
        for r in range(12, -1, -1):
            if counts[r] == 4:
                out[0] = r
        for r in range(12, -1, -1):
            if counts[r] and r != out[0] and k == 0:
                out[1] = r
                k = 1
        return _encode(7, out, 2)
    if big == 3 and pairs >= 2:
        for r in range(12, -1, -1):
            if counts[r] == 3:
                out[0] = r
            elif counts[r] == 2:
                second = r
        out[1] = second
        return _encode(6, out, 2)
    if top >= 0:
        out[0] = top
        return _encode(4, out, 1)
    # trips, two pair, one pair, high card: the groups first (higher first), then kickers
    k = 0
    for size in range(3, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == size:
                out[k] = r
                k += 1
    if big == 3:
        return _encode(3, out, 3)
    if pairs == 2:
        return _encode(2, out, 3)
    if pairs == 1:
        return _encode(1, out, 4)
    return _encode(0, out, 5)


@njit(cache=True, nogil=True)
def low_27(cards: np.ndarray) -> int:
    """high.py low_27_strength of five known cards: the worst high hand is the best low."""
    return HIGH_BASE - high5_no_wheel(cards)


@njit(cache=True, nogil=True)
def badugi(cards: np.ndarray) -> int:
    """low.py badugi_strength of four known cards: the largest set of distinct ranks and
    suits, then the lower highest card (aces low), and so on."""
    best = 0
    for k in range(4, 0, -1):
        for sub in range(1, 16):
            size = 0
            ranks = 0
            suits = 0
            ok = True
            for i in range(4):
                if sub >> i & 1:
                    size += 1
                    r = ((cards[i] >> 2) + 1) % 13
                    su = cards[i] & 3
                    if ranks >> r & 1 or suits >> su & 1:
                        ok = False
                    ranks |= 1 << r
                    suits |= 1 << su
            if size != k or not ok:
                continue
            code = 0
            i = 0
            for r in range(12, -1, -1):
                if ranks >> r & 1:
                    code |= r << (4 * (3 - i))
                    i += 1
            v = (k << 16) | (0xFFFF - code)
            if v > best:
                best = v
        if best:
            return best
    return best
