"""Decoding helpers of the compiled replay (used by table.py): Arrow string columns read straight
from their buffers (offsets, bytes and the validity bitmap; an empty bitmap = no nulls), one
pass each, no Python object per row, and the winners text of the projections written back."""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.replay.fast.layout import K_HAND_ENDED, K_HAND_STARTED


@njit(cache=True)
def _is_valid(bitmap, bit):
    return bitmap.shape[0] == 0 or (bitmap[bit >> 3] >> (bit & 7)) & 1 == 1


@njit(cache=True)
def _same_bytes(data, lo, hi, other, olo, ohi):
    if hi - lo != ohi - olo:
        return False
    for j in range(hi - lo):
        if data[lo + j] != other[olo + j]:
            return False
    return True

TEXT_SLOTS = 1024  # string_codes' hash table of candidates


@njit(cache=True)
def text_slot(data, lo, hi):
    """Hash of a non-empty text: its length, first and last byte."""
    return ((hi - lo) * 97 + data[lo] * 31 + data[hi - 1] * 7) % TEXT_SLOTS


@njit(cache=True)
def string_codes(offsets, data, bitmap, bit_offset, cand_off, cand_data, slots, blank):
    """Per row: the index of the row's text in the candidates, -1 for any other text and
    `blank` for a null or empty one. `slots` holds the candidate of each text_slot hash (-1:
    none), so that each row is compared with that one candidate; empty when two candidates'
    hashes collide (then each row is compared with every candidate)."""
    n = offsets.shape[0] - 1
    out = np.empty(n, np.int64)
    n_cand = cand_off.shape[0] - 1
    for i in range(n):
        lo = offsets[i]
        hi = offsets[i + 1]
        if hi == lo or not _is_valid(bitmap, bit_offset + i):
            out[i] = blank
            continue
        out[i] = -1
        if slots.shape[0]:
            c = slots[text_slot(data, lo, hi)]
            if c >= 0 and _same_bytes(data, lo, hi, cand_data, cand_off[c], cand_off[c + 1]):
                out[i] = c
            continue
        for c in range(n_cand):
            if _same_bytes(data, lo, hi, cand_data, cand_off[c], cand_off[c + 1]):
                out[i] = c
                break
    return out


@njit(cache=True)
def source_flags(kind, offsets, data, bitmap, bit_offset, needle_off, needle_data,
                 needle_bit):
    """F_* flags of the hand_started and hand_ended rows whose detail contains a needle."""
    n = kind.shape[0]
    flags = np.zeros(n, np.int64)
    for i in range(n):
        if kind[i] != K_HAND_STARTED and kind[i] != K_HAND_ENDED:
            continue
        if not _is_valid(bitmap, bit_offset + i):
            continue
        lo = offsets[i]
        hi = offsets[i + 1]
        for c in range(needle_bit.shape[0]):
            nlo = needle_off[c]
            m = needle_off[c + 1] - nlo
            for start in range(lo, hi - m + 1):
                if _same_bytes(data, start, start + m, needle_data, nlo, nlo + m):
                    flags[i] |= needle_bit[c]
                    break
    return flags


@njit(cache=True)
def int_column(values, bitmap, bit_offset, missing):
    """An integer column as int64, its nulls as `missing`."""
    n = values.shape[0]
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = values[i] if _is_valid(bitmap, bit_offset + i) else missing
    return out


@njit(cache=True)
def null_with_bytes(offsets, bitmap, bit_offset):
    """Whether a null row of a text column still spans bytes (then it is not read as '')."""
    for i in range(offsets.shape[0] - 1):
        if offsets[i + 1] != offsets[i] and not _is_valid(bitmap, bit_offset + i):
            return True
    return False


@njit(cache=True)
def _decimal_size(v):
    n = 1 if v >= 0 else 2
    v = abs(v)
    while v >= 10:
        v //= 10
        n += 1
    return n


@njit(cache=True)
def _write_decimal(v, buf, pos):
    if v < 0:
        buf[pos] = 45
        pos += 1
        v = -v
    end = pos + _decimal_size(v)
    i = end
    while True:
        i -= 1
        buf[i] = 48 + v % 10
        v //= 10
        if v == 0:
            break
    return end


@njit(cache=True)
def winners_text(row_start, seats, won, offsets, data, bitmap, bit_offset):
    """'seat:player,...' of the rows that won chips, per hand (a null player as ''), as
    offsets, bytes and validity (no winner: null). `offsets`..: the rows' player column."""
    n_hands = row_start.shape[0] - 1
    out_off = np.empty(n_hands + 1, np.int64)
    valid = np.zeros(n_hands, np.bool_)
    end = 0
    for h in range(n_hands):
        out_off[h] = end
        for r in range(row_start[h], row_start[h + 1]):
            if won[r] <= 0:
                continue
            if valid[h]:
                end += 1
            valid[h] = True
            end += _decimal_size(seats[r]) + 1
            if _is_valid(bitmap, bit_offset + r):
                end += offsets[r + 1] - offsets[r]
    out_off[n_hands] = end
    buf = np.empty(end, np.uint8)
    for h in range(n_hands):
        pos = out_off[h]
        for r in range(row_start[h], row_start[h + 1]):
            if won[r] <= 0:
                continue
            if pos > out_off[h]:
                buf[pos] = 44
                pos += 1
            pos = _write_decimal(seats[r], buf, pos)
            buf[pos] = 58
            pos += 1
            if _is_valid(bitmap, bit_offset + r):
                for j in range(offsets[r], offsets[r + 1]):
                    buf[pos] = data[j]
                    pos += 1
    return out_off, buf, valid
