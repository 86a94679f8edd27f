"""888poker's compiled pass (`pacific_kernel`) turned into event columns: the stakes and table
lines of each hand read once per text by the line parser's own regular expressions
(`_params`, as `pacific._fast_888` reads them), the kernel's rows made into one Arrow table
per file (numbers and string columns written by the kernel, one Arrow array per column).
`compiledtext.read_compiled` does the rest (the hands the kernel does not read, the chunks).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, KernelRows, Lines
from audit.importers.sitetext import CURRENCY_SYMBOLS, HOLE_COUNT
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.pacific_kernel", "the compiled 888poker reader",
                        "888poker files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_GAME = _SCHEMA.field("game").type
_TS = _SCHEMA.field("ts").type
_STRING, _INT64, _INT32, _INT8, _BOOL = pa.string(), pa.int64(), pa.int32(), pa.int8(), pa.bool_()
_MEMO = 1024
_LIMIT = 1 << 63
# (stakes text, table text, dated) -> (variant, structure, currency, mpu, tournament, small
# blind, big blind, seat count or -1, table id, fixed limit) or None
_PARAMS: dict[tuple[bytes, bytes, bool], tuple[Any, ...] | None] = {}


def _params(stakes: bytes, table: bytes, full: bytes) -> tuple[Any, ...] | None:
    """What a hand's stakes line (its clock cut off; `full`: as written) and table line say,
    as `_fast_888` reads them; None when it would not read them or a value does not fit the
    schema (those hands go to the Python fast path and the line parser)."""
    from audit.importers import pacific as p

    s = p._STAKES.match(stakes.decode("utf-8"))
    tb = p._TABLE.match(table.decode("utf-8"))
    if s is None or tb is None or s.group("y") is not None:
        return None
    if full != stakes:  # the clock cut off: the rest reads as the line with it
        f = p._STAKES.match(full.decode("utf-8"))
        if f is None or f.group("y") is None or \
                f.group("sb", "bb", "game") != s.group("sb", "bb", "game"):
            return None
    tournament = tb.group("tid") is not None
    money_kind = tb.group("money").lower()
    low = s.group("game").strip().lower().removesuffix(" jackpot table").strip()
    structure = variant = None
    for lw in p._SORTED_LIMITS:
        if low.startswith(lw + " "):
            structure, variant = p._LIMITS[lw], p._GAMES.get(low[len(lw) + 1:].strip())
            break
    if structure is None or variant is None:
        return None
    symbol = p._symbol(s.group("sb") + s.group("bb"))
    if tournament:
        currency, mpu = "CHIPS", 1
    elif "practice" in money_kind or "play" in money_kind:
        currency, mpu = "CHIPS", 100
    else:
        currency = CURRENCY_SYMBOLS.get(symbol, "USD" if not symbol else symbol)
        mpu = 100
        if not symbol:
            currency = "CHIPS"
    money = p._AMOUNTS.of(mpu)
    try:
        sb, bb = money(s.group("sb"), 0), money(s.group("bb"), 0)
    except Exception:  # noqa: BLE001 - the fast path gives such a hand up
        return None
    if tournament:
        table_id = f"{tb.group('tid')} {tb.group('tno') or ''}".strip()
    else:
        table_id = tb.group("name")
    seats = int(tb.group("max")) if tb.group("max") else -1
    if not all(-_LIMIT <= v < _LIMIT for v in (sb, bb, 2 * bb)) or seats > 127:
        return None
    return (variant, structure, currency, mpu, tournament, sb, bb, seats, table_id,
            structure == "fixed_limit")


def _is_header(lines: Lines) -> np.ndarray:
    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(lines.begin), np.bool_)
    k.header_lines(lines.data, lines.begin, lines.lo, lines.hi, lines.odd, out)
    return out


@cache
def _constant() -> tuple[bytes, dict[str, Any]]:
    """The texts every file's columns take (`888:`, the kinds, the details, the note of a hand
    no one collected in, the unknown hole cards), as offsets from the end of its bytes."""
    from audit.importers.pacific_kernel import DETAILS, KINDS

    out = bytearray(b"\n")
    spans = []
    for text in ("888:", *KINDS, *DETAILS, ";winnings=no 'collected' line"):
        spans.append((len(out), len(out) + len(text.encode())))
        out += text.encode()
    unknown = len(out)
    out += b"?? ?? ?? ?? ?? ?? ?? ??"
    return bytes(out), {"const": np.array(spans, np.int64).T.copy(), "unknown": unknown}


def _nulls(count: int) -> list[pa.Array]:
    """The game's fields the 888 log never fills: bring-in, straddle, minimum bet, level,
    profile, house overrides."""
    return [pa.nulls(count, _INT64), pa.nulls(count, _INT64), pa.nulls(count, _INT64),
            pa.nulls(count, _INT32), pa.nulls(count, _STRING), pa.nulls(count, _STRING)]


def _rows(lines: Lines, first: np.ndarray, last: np.ndarray, prefix: str) -> KernelRows:
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    data = lines.data
    raw = data.tobytes()
    n = len(first)
    head = np.empty((6, n), np.int64)
    k.heads(data, lines.lo, lines.hi, first, last, head)
    use = np.zeros(n, np.bool_)
    values = np.zeros((3, n), np.int64)  # mpu, fixed limit, hole cards
    per = np.zeros((7, n), np.int64)
    hand_key = np.zeros(n, np.int64)
    keys: dict[tuple[Any, ...], int] = {}
    found: list[tuple[Any, ...]] = []
    st_lo, st_hi, tb_lo, tb_hi, state = head[:5].tolist()
    for h in np.flatnonzero((head[0] >= 0) & (head[4] >= 0)).tolist():
        key = (raw[st_lo[h]:st_hi[h]], raw[tb_lo[h]:tb_hi[h]], state[h])
        p = _PARAMS.get(key, False)
        if p is False:
            full = raw[st_lo[h]:st_hi[h] + 20] if state[h] else key[0]
            p = _params(key[0], key[1], full)
            if len(_PARAMS) >= _MEMO:
                _PARAMS.clear()
            _PARAMS[key] = p
        if p is None:
            continue
        index = keys.get(p)
        if index is None:
            index = keys[p] = len(found)
            found.append(p)
        use[h] = True
        hand_key[h] = index
        values[0, h] = p[3]
        values[1, h] = p[9]
        values[2, h] = HOLE_COUNT.get(p[0], 2)
        per[3, h] = p[7]
    const, at = _constant()
    size = len(raw)
    extra = bytearray(const)
    key_text = np.zeros((8, max(len(found), 1)), np.int64)
    params = np.zeros((5, max(len(found), 1)), np.int64)
    for index, p in enumerate(found):
        for c, text in enumerate((p[8], p[0], p[1], p[2])):
            key_text[2 * c, index] = size + len(extra)
            extra += text.encode()
            key_text[2 * c + 1, index] = size + len(extra)
        params[:, index] = (p[3], p[4], p[9], p[5], p[6])
    prefix_lo = size + len(extra)
    extra += prefix.encode()
    prefix_hi = size + len(extra)
    card_at = size + len(extra)
    buffer = np.empty(card_at + size + 16, np.uint8)  # the card area: cards are never longer
    buffer[:size] = data
    buffer[size:card_at] = np.frombuffer(bytes(extra), np.uint8)
    rows = np.empty((11, 2 * int((last - first).sum()) + 24 * n + 64), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    count, _ = k.hands(buffer, lines.lo, lines.hi, lines.odd, first, last, use, values,
                       size + at["unknown"], card_at, rows, per, ok, row0)
    if not count:
        return KernelRows(_SCHEMA.empty_table(), np.empty(0, np.int64), ok, row0)
    const_at = at["const"] + size
    valid = np.empty((18, count), np.bool_)
    numbers = np.empty((10, count), np.int64)
    small = np.empty((5, count), np.int8)
    spec = k.columns(buffer, rows, count, row0, ok, per, hand_key, key_text, params, const_at,
                     prefix_lo, prefix_hi, head[5], valid, numbers, small)
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    offsets = np.empty((10, count + 1), np.int32)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets)
    starts = np.zeros(11, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    out = np.empty(int(starts[-1]), np.uint8)
    t.text_fill(buffer, lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets, out, starts)
    every = valid.all(axis=1).tolist()
    bits = np.packbits(valid, axis=1, bitorder="little")
    width = bits.shape[1]
    bits_buf, off_buf, out_buf = pa.py_buffer(bits), pa.py_buffer(offsets), pa.py_buffer(out)
    num_buf, small_buf = pa.py_buffer(numbers), pa.py_buffer(small)
    flags = pa.py_buffer(np.packbits(small[3].astype(np.bool_), bitorder="little"))

    def mask(c: int) -> pa.Buffer | None:
        return None if every[c] else bits_buf.slice(c * width, width)

    size_off = 4 * (count + 1)
    edges = starts.tolist()
    text = [pa.Array.from_buffers(_STRING, count, [
        mask(c), off_buf.slice(c * size_off, size_off),
        out_buf.slice(edges[c], edges[c + 1] - edges[c])]) for c in range(10)]

    def wide(row: int, kind: pa.DataType, c: int) -> pa.Array:
        return pa.Array.from_buffers(kind, count, [mask(c), num_buf.slice(8 * count * row,
                                                                          8 * count)])

    def byte(row: int, c: int) -> pa.Array:
        return pa.Array.from_buffers(_INT8, count, [mask(c), small_buf.slice(count * row,
                                                                            count)])

    seq = pa.py_buffer(numbers[0].astype(np.int32))
    bring_in, straddle, min_bet, level, profile, house = _nulls(count)
    game = pa.Array.from_buffers(_GAME, count, [mask(14)], children=[
        text[7], text[8], wide(4, _INT64, 14), wide(5, _INT64, 14), wide(6, _INT64, 15),
        wide(7, _INT64, 15), wide(8, _INT64, 14), bring_in, straddle, min_bet,
        byte(1, 14), byte(2, 16), text[9], wide(9, _INT64, 14),
        pa.Array.from_buffers(_BOOL, count, [mask(14), flags]), level,
        pa.Array.from_buffers(_BOOL, count, [mask(17), flags]), profile, house])
    columns = [
        text[0], pa.Array.from_buffers(_INT32, count, [None, seq]),
        pa.Array.from_buffers(_TS, count, [mask(11), num_buf.slice(8 * count, 8 * count)]),
        text[1], text[2], byte(0, 10), text[3], wide(2, _INT64, 12), wide(3, _INT64, 13),
        text[4], text[5], game, text[6]]
    return KernelRows(pa.Table.from_arrays(columns, schema=_SCHEMA), rows[10, :count].copy(),
                      ok, row0)


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
