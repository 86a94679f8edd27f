"""The compiled step from the NLHE kernel's event codes (kernel.py) to Arrow buffers
(numba): each event column of the chosen hands written in one pass over their rows, the
string columns as indices into the entries of the kernel's small dictionaries a table uses
(hand ids, table names, kinds, details, card strings, player names: Arrow dictionary arrays,
which the store writes without hashing or copying each row's string), validity as Arrow
bitmaps. simulator.py wraps the buffers as Arrow arrays without another copy. Before this, the
same columns took numpy fancy indexing, Arrow takes and mask conversions, each a pass of its
own (about a fifth of a simulated hand's CPU time).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def row_layout(hands, hand_first, hand_size):
    """For the chosen hands (indices into the chunk, in order): each output row's source
    row, source hand and position among the chosen hands, and each chosen hand's first
    output row."""
    n = 0
    for h in hands:
        n += hand_size[h]
    row_src = np.empty(n, dtype=np.int64)
    row_hand = np.empty(n, dtype=np.int64)
    row_local = np.empty(n, dtype=np.int32)  # the hand_id column's dictionary indices
    first = np.empty(len(hands), dtype=np.int64)
    r = 0
    for k in range(len(hands)):
        h = hands[k]
        first[k] = r
        a = hand_first[h]
        for i in range(hand_size[h]):
            row_src[r] = a + i
            row_hand[r] = h
            row_local[r] = k
            r += 1
    return row_src, row_hand, row_local, first


@njit(cache=True, nogil=True)
def seq_ts(row_src, row_hand, hand_first, hand_clock, epoch_us):
    """seq (int32: the row's place in its hand) and ts (one second per event from the
    hand's clock, microseconds since the Unix epoch)."""
    n = len(row_src)
    seq = np.empty(n, dtype=np.int32)
    ts = np.empty(n, dtype=np.int64)
    for r in range(n):
        h = row_hand[r]
        s = row_src[r] - hand_first[h]
        seq[r] = s
        ts[r] = epoch_us + hand_clock[h] + s * 1_000_000
    return seq, ts


@njit(cache=True, nogil=True)
def ints(values, rows, null_below, null_equal, out):
    """out[r] = values[rows[r]] (cast to out's type); the row is null when the value is
    below `null_below` or equal to `null_equal`. Returns (validity bitmap, null count)."""
    n = len(rows)
    bits = np.zeros((n + 7) // 8, dtype=np.uint8)
    nulls = 0
    for r in range(n):
        v = values[rows[r]]
        if v < null_below or v == null_equal:
            out[r] = 0
            nulls += 1
        else:
            out[r] = v
            bits[r >> 3] |= np.uint8(1 << (r & 7))
    return bits, nulls


@njit(cache=True, nogil=True)
def dictionary_indices(codes, rows, dvalid, remap):
    """Row r holds dictionary entry codes[rows[r]], as an index into the entries the rows
    use, numbered in the order of their first use (the order Parquet's dictionary encoder
    numbers a column's values in, so the file is the one the strings would give): (int32
    indices, validity bitmap, null count, the used entries' codes in that order). `remap`
    (int32, one per entry) is -1 everywhere on entry and is left so."""
    n = len(rows)
    indices = np.empty(n, dtype=np.int32)
    bits = np.zeros((n + 7) // 8, dtype=np.uint8)
    used = np.empty(min(n, len(dvalid)), dtype=np.int64)
    k = 0
    nulls = 0
    for r in range(n):
        c = codes[rows[r]]
        if dvalid[c]:
            e = remap[c]
            if e < 0:
                e = k
                remap[c] = k
                used[k] = c
                k += 1
            indices[r] = e
            bits[r >> 3] |= np.uint8(1 << (r & 7))
        else:
            indices[r] = 0
            nulls += 1
    for i in range(k):
        remap[used[i]] = -1
    return indices, bits, nulls, used[:k]


@njit(cache=True, nogil=True)
def scatter(values, first, n, out):
    """out (n rows, zero) with values[k] at row first[k]: a per-hand game field on the
    hand's first row (the struct is null on the others, so their values are never read)."""
    for k in range(len(first)):
        out[first[k]] = values[k]
    return out


@njit(cache=True, nogil=True)
def first_rows_bitmap(first, n):
    """The validity bitmap set on each hand's first row only, and the null count."""
    bits = np.zeros((n + 7) // 8, dtype=np.uint8)
    for k in range(len(first)):
        r = first[k]
        bits[r >> 3] |= np.uint8(1 << (r & 7))
    return bits, n - len(first)
