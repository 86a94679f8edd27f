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
