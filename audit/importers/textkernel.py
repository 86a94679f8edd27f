"""Room-independent compiled (numba, cached) pieces of the site-text readers' compiled passes:
a file's bytes cut into lines as `sitetext` cuts them, a strict amount, name spans compared,
and string columns written from byte spans and numbers.

A compiled pass reads a hand only when every check here holds; the rest is the Python fast
path's and the line parser's (the single source of truth). The byte primitives of the
PokerStars kernel (`_at`, `_is`, `_find`, `_card`, `_cards`) are used as they are.

Arrays go in filled by the caller and come back written (a numba function that returns arrays
costs microseconds per array to box).

* `lines_of(data, ...)`: each line's first byte and its end after an ASCII right strip (what
  `str.rstrip()` removes that is ASCII: space, \\t, \\r, \\x0b, \\x0c, \\x1c-\\x1f), its start
  after an ASCII left strip, and whether the line is odd: its last byte kept is not ASCII (it
  may end in a Unicode space `str.rstrip()` would remove) or its first kept byte may start one
  (0xC2, 0xE1, 0xE2, 0xE3: U+0085, U+00A0, U+1680, U+2000-U+205F, U+3000) — a hand holding an
  odd line is never read by a compiled pass.
* `plain_amount(data, p, end, mpu)`: an amount written `[$]?D{1,3}(,DDD)*(.D{1,2})?` or
  `[$]?D+(.D{1,2})?` (at most 15 digits in all) that `sitetext.parse_amount` reads as that very
  number (a comma always groups thousands there; cents only when the unit has them: a chip
  amount with a point is not read here).
* `prefix_index(data, p, end, prefixes)`: which of a tuple of byte strings a line's text starts
  with (the first in the tuple's order), so a kernel names a line's kind from a table of
  (prefix, kind) rather than a chain of tests.
* `text_sizes` / `text_fill`: string columns (Arrow offsets and bytes), each row a span, an
  optional second span and optional decimal digits (a source `room:file:LINE`, a detail
  `total_pot=N`), all the columns of a table in one pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.pokerstars.kernel import _at, _digit


@njit(cache=True, nogil=True)
def _space(c):
    """An ASCII byte `str.strip()` removes."""
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


def line_count(raw: bytes) -> int:
    """The number of lines `lines_of` cuts `raw` into (a last line without an end counts)."""
    return raw.count(b"\n") + (1 if raw and not raw.endswith(b"\n") else 0)


@njit(cache=True, nogil=True)
def lines_of(data, begin, lo, hi, odd):
    """Fill (begin, lo, hi, odd) of each line of `data` (split at b'\\n', `line_count`
    lines): the line starts at begin; its text stripped on both sides is data[lo:hi]."""
    size = len(data)
    p = 0
    for i in range(len(begin)):
        q = p
        while q < size and data[q] != 10:
            q += 1
        e = q
        while e > p and _space(data[e - 1]):
            e -= 1
        s = p
        while s < e and _space(data[s]):
            s += 1
        begin[i] = p
        lo[i] = s
        hi[i] = e
        odd[i] = e > s and (data[e - 1] >= 128 or data[s] in (0xC2, 0xE1, 0xE2, 0xE3))
        p = q + 1


@njit(cache=True, nogil=True)
def plain_amount(data, p, end, mpu):
    """(position after the amount at data[p:...] or -1 when none is read there, minor units):
    see the module's docstring for the forms read."""
    if p < end and data[p] == 36:  # $
        p += 1
    start = p
    digits = 0
    whole = 0
    while p < end and _digit(data[p]):
        whole = whole * 10 + (data[p] - 48)
        digits += 1
        p += 1
    lead = digits
    if lead == 0:
        return -1, 0
    if p < end and data[p] == 44:  # thousands groups: the first group of 1-3 digits
        if lead > 3 or (lead > 1 and data[start] == 48):
            return -1, 0
        while p < end and data[p] == 44:
            for k in range(1, 4):
                if p + k >= end or not _digit(data[p + k]):
                    return -1, 0
                whole = whole * 10 + (data[p + k] - 48)
            digits += 3
            p += 4
        if p < end and _digit(data[p]):
            return -1, 0
    if digits > 15:
        return -1, 0
    frac = 0
    if p < end and data[p] == 46:  # .
        if mpu != 100 or p + 1 >= end or not _digit(data[p + 1]):
            return -1, 0
        frac = (data[p + 1] - 48) * 10
        p += 2
        if p < end and _digit(data[p]):
            frac += data[p] - 48
            p += 1
        if p < end and (_digit(data[p]) or data[p] == 46 or data[p] == 44):
            return -1, 0
    elif p < end and data[p] == 44:
        return -1, 0
    return p, whole * mpu + frac


@njit(cache=True, nogil=True)
def prefix_index(data, p, end, prefixes):
    """The index of the first of `prefixes` (byte arrays) that data[p:end] starts with, or -1."""
    for j in range(len(prefixes)):
        if _at(data, p, end, prefixes[j]):
            return j
    return -1


@njit(cache=True, nogil=True)
def same(data, a0, a1, b0, b1):
    """data[a0:a1] == data[b0:b1]."""
    if a1 - a0 != b1 - b0:
        return False
    for k in range(a1 - a0):
        if data[a0 + k] != data[b0 + k]:
            return False
    return True


@njit(cache=True, nogil=True)
def text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, none, offsets):
    """The offsets (int32, per column from 0) of the string columns `text_fill` writes: row i
    of column c is data[lo1:hi1] + data[lo2:hi2] + the decimal digits of num + data[lo3:hi3]
    (a span left out where its lo < 0, the digits where num == none; null -- empty -- where
    lo1 < 0)."""
    for c in range(lo1.shape[0]):
        total = 0
        offsets[c, 0] = 0
        for i in range(lo1.shape[1]):
            if lo1[c, i] >= 0:
                total += hi1[c, i] - lo1[c, i]
                if lo2[c, i] >= 0:
                    total += hi2[c, i] - lo2[c, i]
                x = num[c, i]
                if x != none:
                    if x < 0:
                        total += 1
                        x = -x
                    total += 1
                    while x >= 10:
                        x //= 10
                        total += 1
                if lo3[c, i] >= 0:
                    total += hi3[c, i] - lo3[c, i]
            offsets[c, i + 1] = total


@njit(cache=True, nogil=True)
def _copy(out, at, data, a, b):
    """data[a:b] written at out[at:]; the position after it. Unsigned indices: numba checks
    no negative index then, and the loop compiles to a plain copy."""
    shift = np.uint64(at) - np.uint64(a)
    for k in range(np.uint64(a), np.uint64(b)):
        out[k + shift] = data[k]
    return at + (b - a)


@njit(cache=True, nogil=True)
def text_fill(data, lo1, hi1, lo2, hi2, num, lo3, hi3, none, offsets, out, starts):
    """Write the string columns `text_sizes` measured; column c at out[starts[c]:]."""
    for c in range(lo1.shape[0]):
        base = starts[c]
        for i in range(lo1.shape[1]):
            a = lo1[c, i]
            if a < 0:
                continue
            at = _copy(out, base + offsets[c, i], data, a, hi1[c, i])
            a = lo2[c, i]
            if a >= 0:
                at = _copy(out, at, data, a, hi2[c, i])
            x = num[c, i]
            if x != none:
                if x < 0:
                    out[at] = 45
                    at += 1
                    x = -x
                digits = 1
                y = x
                while y >= 10:
                    y //= 10
                    digits += 1
                p = at + digits - 1
                while True:
                    out[p] = 48 + x % 10
                    x //= 10
                    p -= 1
                    if x == 0:
                        break
                at += digits
            a = lo3[c, i]
            if a >= 0:
                _copy(out, at, data, a, hi3[c, i])


# the kinds of the schema's leaf and struct fields in an Arrow IPC record batch message
# (`compiledtext.IpcLayout`), and the masks of a field with no nulls or only nulls
F_STRING, F_I64, F_I32, F_I8, F_BOOL, F_STRUCT = range(6)
NO_NULLS, ALL_NULL = -2, -1


@njit(cache=True, nogil=True)
def ipc_pack(message, places, at, count, i64, i32, i8, masks, bools, offsets, starts, fields,
             out_len):
    """A table's IPC message (`compiledtext.IpcLayout`) written but for its strings (already
    at at[5]) and its metadata's other bytes (the template's): the regions at at[0:6] (int64
    rows, int32 rows, int8 rows, bits, offsets; the body starts at at[0]) -- bits[m] the
    validity of masks[m], bits[M + r] the values of bools[r] (M masks; the row after them
    stays zero: the all-null fields'), the string offsets into the one string region (the
    row after the columns' stays zero) --, and at places (row count, body length, field
    nodes, buffers) the numbers: per field (fields[f]: kind, mask or `NO_NULLS` /
    `ALL_NULL`, data row) its node (rows, nulls) and buffers (offset, length). `message`
    comes zeroed past its metadata."""
    c8 = (count + 7) // 8 * 8
    width = ((count + 7) // 8 + 7) // 8 * 8
    co = (count + 2) // 2 * 2
    head = at[0]
    v64 = message[at[0]:at[1]].view(np.int64)
    for r in range(i64.shape[0]):
        for i in range(count):
            v64[r * count + i] = i64[r, i]
    v32 = message[at[1]:at[2]].view(np.int32)
    for r in range(i32.shape[0]):
        for i in range(count):
            v32[r * c8 + i] = i32[r, i]
    v8 = message[at[2]:at[3]].view(np.int8)
    for r in range(i8.shape[0]):
        for i in range(count):
            v8[r * c8 + i] = i8[r, i]
    bits = at[3]
    n_masks = masks.shape[0]
    nulls = np.zeros(n_masks, np.int64)
    for m in range(n_masks):
        for i in range(count):
            if masks[m, i]:
                message[bits + m * width + (i >> 3)] |= 1 << (i & 7)
            else:
                nulls[m] += 1
    for r in range(bools.shape[0]):
        for i in range(count):
            if bools[r, i]:
                message[bits + (n_masks + r) * width + (i >> 3)] |= 1 << (i & 7)
    zero = n_masks + bools.shape[0]
    off = message[at[4]:at[5]].view(np.int32)
    for c in range(offsets.shape[0]):
        for i in range(count + 1):
            off[c * co + i] = offsets[c, i] + starts[c]
    message[places[0]:places[0] + 8].view(np.int64)[0] = count
    message[places[1]:places[1] + 8].view(np.int64)[0] = len(message) - head
    nodes = message[places[2]:places[2] + 16 * fields.shape[0]].view(np.int64)
    buffers = message[places[3]:places[3] + 16 * places[4]].view(np.int64)
    b = 0
    for f in range(fields.shape[0]):
        kind, mask, row = fields[f, 0], fields[f, 1], fields[f, 2]
        nodes[2 * f] = count
        buffers[2 * b] = 0
        buffers[2 * b + 1] = 0
        if mask == NO_NULLS:
            nodes[2 * f + 1] = 0
        elif mask == ALL_NULL:
            nodes[2 * f + 1] = count
            buffers[2 * b] = bits - head + zero * width
            buffers[2 * b + 1] = width
        else:
            nodes[2 * f + 1] = nulls[mask]
            if nulls[mask]:
                buffers[2 * b] = bits - head + mask * width
                buffers[2 * b + 1] = width
        b += 1
        if kind == F_STRING:
            buffers[2 * b] = at[4] - head + row * 4 * co
            buffers[2 * b + 1] = 4 * (count + 1)
            buffers[2 * b + 2] = at[5] - head
            buffers[2 * b + 3] = out_len
            b += 2
        elif kind != F_STRUCT:
            if kind == F_I64:
                start, size = at[0], 8 * count
            elif kind == F_I32:
                start, size = at[1], 4 * c8
            elif kind == F_I8:
                start, size = at[2], c8
            else:
                start, size = at[3], width
                row = row + n_masks if row >= 0 else zero
            buffers[2 * b] = start - head + row * size
            buffers[2 * b + 1] = size
            b += 1
    return b
