"""The compiled writer of hands' canonical bytes (numba): the same bytes as the Arrow
reference in audit.store.merkle.canonical_hands, in one pass over the columns, so ingest can
compute Merkle leaves for about a tenth of the CPU the chain of Arrow string kernels costs.

Columns come in as plain numpy arrays (audit.store.merkle builds them): integers as int64 with a
validity array, strings as absolute offsets into one shared byte buffer with a validity
array (a dictionary column: its entries' offsets, and each row's entry in `scodes`), and
the `game` struct only for its non-null rows. Each hand's bytes start with the RFC 6962
leaf prefix 0x00, so a leaf is the SHA-256 of one slice of the output.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

INT, STRING, STRUCT = 0, 1, 2  # kinds of a top-level column
F_INT, F_STRING, F_BOOL = 0, 1, 2  # kinds of a struct field

_TILDE, _SEMI, _COLON, _BAR, _AT, _BRACE, _MINUS = 126, 59, 58, 124, 64, 123, 45
_TRUE = np.frombuffer(b"true;", dtype=np.uint8)
_FALSE = np.frombuffer(b"false;", dtype=np.uint8)


# "00" "01" ... "99": the decimal text is written two digits per division
_PAIRS = np.frombuffer("".join(f"{i:02d}" for i in range(100)).encode(), dtype=np.uint8)


@njit(cache=True)
def _put_int(out: np.ndarray, pos: int, value: int) -> int:
    """The decimal text of an int64 (int64's minimum too) at `pos`; returns the end."""
    if 0 <= value < 10:  # most values: seats, positions in a hand, short lengths
        out[pos] = np.uint8(48 + value)
        return pos + 1
    if value < 0:
        out[pos] = _MINUS
        pos += 1
        magnitude = np.uint64(-(value + 1)) + np.uint64(1)
    else:
        magnitude = np.uint64(value)
    n = 1
    bound = np.uint64(10)
    while n < 20 and magnitude >= bound:
        n += 1
        bound *= np.uint64(10)
    i = pos + n
    while magnitude >= np.uint64(100):
        q = magnitude // np.uint64(100)
        k = 2 * (magnitude - q * np.uint64(100))
        i -= 2
        out[i] = _PAIRS[k]
        out[i + 1] = _PAIRS[k + 1]
        magnitude = q
    if magnitude >= np.uint64(10):
        k = 2 * magnitude
        out[i - 2] = _PAIRS[k]
        out[i - 1] = _PAIRS[k + 1]
    else:
        out[i - 1] = np.uint8(np.uint64(48) + magnitude)
    return pos + n


@njit(cache=True)
def _put_bytes(out: np.ndarray, pos: int, data: np.ndarray, start: int, stop: int) -> int:
    for i in range(start, stop):
        out[pos] = data[i]
        pos += 1
    return pos


@njit(cache=True, nogil=True)  # runs beside Parquet encoding on ingest's hashing thread
def _encode(bounds: np.ndarray, kinds: np.ndarray, index: np.ndarray, ints: np.ndarray,
            ivalid: np.ndarray, soffsets: np.ndarray, svalid: np.ndarray, data: np.ndarray,
            scodes: np.ndarray, coded: np.ndarray, contiguous: np.ndarray, srows: np.ndarray,
            fkinds: np.ndarray, findex: np.ndarray, fints: np.ndarray, fvalid: np.ndarray,
            foffsets: np.ndarray, true_bytes: np.ndarray, false_bytes: np.ndarray,
            out: np.ndarray, hand_offsets: np.ndarray) -> int:
    """Write every hand's canonical bytes into `out` (large enough: see encode); returns
    the length written."""
    pos = 0
    s = 0  # next non-null struct row
    for h in range(len(bounds) - 1):
        a, b = bounds[h], bounds[h + 1]
        hand_offsets[h] = pos
        out[pos] = 0  # RFC 6962 leaf prefix
        pos += 1
        # hand id: "<bytes>:<id>", then "<rows>;"
        e = scodes[0, a] if coded[0] else a
        start, stop = soffsets[0, e], soffsets[0, e + 1]
        pos = _put_int(out, pos, stop - start)
        out[pos] = _COLON
        pos = _put_bytes(out, pos + 1, data, start, stop)
        pos = _put_int(out, pos, b - a)
        out[pos] = _SEMI
        pos += 1
        for c in range(len(kinds)):
            k, j = kinds[c], index[c]
            if k == INT:
                for r in range(a, b):
                    if r > a:
                        out[pos] = _SEMI
                        pos += 1
                    if ivalid[j, r]:
                        pos = _put_int(out, pos, ints[j, r])
                    else:
                        out[pos] = _TILDE
                        pos += 1
                out[pos] = _BAR
                pos += 1
            elif k == STRING:
                for r in range(a, b):
                    if r > a:
                        out[pos] = _SEMI
                        pos += 1
                    if svalid[j, r]:
                        e = scodes[j, r] if coded[j] else r
                        pos = _put_int(out, pos, soffsets[j, e + 1] - soffsets[j, e])
                    else:
                        out[pos] = _TILDE
                        pos += 1
                out[pos] = _BAR
                pos += 1
                if coded[j]:  # each row's entry of the column's dictionary
                    for r in range(a, b):
                        if svalid[j, r]:
                            e = scodes[j, r]
                            pos = _put_bytes(out, pos, data, soffsets[j, e],
                                             soffsets[j, e + 1])
                elif contiguous[j]:  # the hand's bytes are one run of the buffer: one copy
                    start, stop = soffsets[j, a], soffsets[j, b]
                    out[pos:pos + stop - start] = data[start:stop]
                    pos += stop - start
                else:
                    for r in range(a, b):
                        if svalid[j, r]:
                            pos = _put_bytes(out, pos, data, soffsets[j, r],
                                             soffsets[j, r + 1])
            else:  # the game struct: "<row in hand>@{" and every field, per non-null row
                while s < len(srows) and srows[s] < b:
                    pos = _put_int(out, pos, srows[s] - a)
                    out[pos] = _AT
                    out[pos + 1] = _BRACE
                    pos += 2
                    for f in range(len(fkinds)):
                        fk, fj = fkinds[f], findex[f]
                        if not fvalid[f, s]:
                            out[pos] = _TILDE
                            pos += 1
                        elif fk == F_STRING:
                            start, stop = foffsets[fj, s], foffsets[fj, s + 1]
                            pos = _put_int(out, pos, stop - start)
                            out[pos] = _COLON
                            pos = _put_bytes(out, pos + 1, data, start, stop)
                        elif fk == F_BOOL:
                            word = true_bytes if fints[fj, s] else false_bytes
                            pos = _put_bytes(out, pos, word, 0, len(word))
                        else:
                            pos = _put_int(out, pos, fints[fj, s])
                            out[pos] = _SEMI
                            pos += 1
                    s += 1
                out[pos] = _BAR
                pos += 1
    hand_offsets[len(bounds) - 1] = pos
    return pos


@njit(cache=True, nogil=True)
def _null_rows_empty(soffsets: np.ndarray, svalid: np.ndarray, coded: np.ndarray) -> np.ndarray:
    """Per string column, 1 when no null row holds bytes (Arrow writers leave them empty,
    but need not): then a hand's strings are exactly the bytes between its first and last
    offsets, written with one copy instead of row by row. Never a dictionary column."""
    result = np.ones(len(soffsets), dtype=np.uint8)
    for j in range(len(soffsets)):
        if coded[j]:
            result[j] = 0
            continue
        for r in range(svalid.shape[1]):
            if not svalid[j, r] and soffsets[j, r + 1] != soffsets[j, r]:
                result[j] = 0
                break
    return result


SCRATCH_BYTES = 128 << 20  # the largest output buffer a thread keeps between calls
_scratch_by_thread = threading.local()


def _scratch(size: int) -> np.ndarray:
    """An uninitialised byte buffer of at least `size`: this thread's, reused call after
    call (a fresh one costs a page fault and a zeroed page per 4 KB written, about a tenth
    of the encoding), or a new one when larger than SCRATCH_BYTES."""
    if size > SCRATCH_BYTES:
        return np.empty(size, dtype=np.uint8)
    buffer = getattr(_scratch_by_thread, "buffer", None)
    if buffer is None or len(buffer) < size:
        buffer = np.empty(size, dtype=np.uint8)
        _scratch_by_thread.buffer = buffer
    return buffer


MAX_INT = 21  # "-9223372036854775808" and a separator
MAX_LENGTH = 11  # a string's byte length (< 2**31) and a separator


def encode(bounds: np.ndarray, kinds: np.ndarray, index: np.ndarray, ints: np.ndarray,
           ivalid: np.ndarray, soffsets: np.ndarray, svalid: np.ndarray, data: np.ndarray,
           scodes: np.ndarray, coded: np.ndarray, coded_bytes: int, srows: np.ndarray,
           fkinds: np.ndarray, findex: np.ndarray, fints: np.ndarray, fvalid: np.ndarray,
           foffsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(bytes, hand offsets): hand h's leaf input is bytes[offsets[h]:offsets[h + 1]].
    One pass into a buffer sized for the longest text every value could have. The bytes
    may be this thread's scratch buffer: valid until its next call to encode."""
    hands, rows, structs = len(bounds) - 1, ints.shape[1], len(srows)
    bound = (hands * (1 + MAX_LENGTH + MAX_INT + len(kinds))  # prefix, id length, rows, "|"
             + rows * (len(ints) * MAX_INT + len(soffsets) * MAX_LENGTH)
             + structs * (MAX_INT + 2 + len(fkinds) * MAX_INT)
             + len(data) * 2  # top-level and struct strings (a hand id is written twice)
             + coded_bytes)  # what the dictionary columns' rows expand to
    out = _scratch(bound)
    hand_offsets = np.zeros(len(bounds), dtype=np.int64)
    contiguous = _null_rows_empty(soffsets, svalid, coded)
    size = _encode(bounds, kinds, index, ints, ivalid, soffsets, svalid, data, scodes, coded,
                   contiguous, srows, fkinds,
                   findex, fints, fvalid, foffsets, _TRUE, _FALSE, out, hand_offsets)
    return out[:size], hand_offsets
