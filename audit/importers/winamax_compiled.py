"""Winamax's compiled pass (`winamax_kernel`) turned into event columns: what each header's
kind, game, stakes, zone and table money say read once per text by the fast path's own
`winamax._fast_head`, the kernel's rows made into one Arrow table per file (the columns'
spans and numbers written by the kernel, strings from byte spans, a few calls a column).
`compiledtext.read_compiled` does the rest (the hands the kernel does not read, the chunks).

A file of the corpus holds one hand or a few: the work per file is kept to a handful of
compiled calls and one Arrow array per column.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, KernelRows, Lines
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.winamax_kernel", "the compiled Winamax reader",
                        "Winamax files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_EMPTY = _SCHEMA.empty_table()  # a file whose hands the kernel does not read (~0.1 ms to make)
_NO_LINES = np.empty(0, np.int64)
_GAME = _SCHEMA.field("game").type
_TS = _SCHEMA.field("ts").type
_STRING = pa.string()
_INT64_TYPE = pa.int64()
_MEMO = 1024
_INT64 = 1 << 63
# header text (kind, game to stakes, zone, table money) -> the numbers `columns` takes
_KEYS: dict[tuple[bytes, bytes, bytes, int], tuple[Any, ...]] = {}


def _is_header(lines: Lines) -> np.ndarray:
    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(lines.begin), np.bool_)
    k.header_lines(lines.data, lines.begin, lines.hi, out)
    return out


def _params(raw: bytes, lines: Lines, i: int, t: int, head: list[int]) -> tuple[Any, ...] | None:
    """What the header at line i and the table line t say as `_fast_head` reads them:
    (note, variant, structure, currency, mpu, tournament, level, low, high, fixed, hole
    cards, clock offset in µs, stakes ante); None when it does not read them, when the
    kernel's spans are not the reader's own, or when a value does not fit the schema."""
    import datetime as dt

    from audit.importers.sitetext import HOLE_COUNT, NAMED_ZONES
    from audit.importers.winamax import _HEADER, _HOLES, _fast_head

    begin = int(lines.begin[i])
    header = raw[begin:int(lines.hi[i])].decode("utf-8")
    table = raw[int(lines.lo[t]):int(lines.hi[t])].decode("utf-8")
    try:
        read = _fast_head(i + 1, header, table)
    except Exception:  # noqa: BLE001 - the fast path and the line parser read this hand
        return None
    m = _HEADER.match(header)
    game = read.game
    (id_lo, id_hi, kind_lo, kind_hi, game_lo, game_hi, zone_lo, zone_hi, clock, t_lo, t_hi,
     seats, _play, button) = head
    if m is None or m.group("kind") != raw[kind_lo:kind_hi].decode() or \
            m.group("id") != raw[id_lo:id_hi].decode() or \
            m.start("game") != len(raw[begin:game_lo].decode()) or \
            m.end("stakes") + 1 != len(raw[begin:game_hi].decode()) or \
            m.group("zone") != raw[zone_lo:zone_hi].decode() or \
            m.group("zone").upper() in NAMED_ZONES or \
            read.table_id != raw[t_lo:t_hi].decode() or game["seat_count"] != seats or \
            game["button_seat"] != button:
        return None
    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    offset = (read.ts - epoch) // dt.timedelta(microseconds=1) - clock
    variant = read.variant
    low, high = (game["small_bet"], game["big_bet"]) if read.fixed else (
        game["small_blind"], game["big_blind"])
    level = game["level"]
    if HOLE_COUNT.get(variant, 2) != _HOLES[variant] or \
            not all(-_INT64 <= v < _INT64 for v in (low, high, game["ante"], offset)) or \
            (level is not None and not -(1 << 31) <= level < (1 << 31)):
        return None
    return (read.note, variant, game["structure"], game["currency"], read.mpu,
            game["tournament"], level, low, high, read.fixed, _HOLES[variant], offset,
            game["ante"])


def _rows(lines: Lines, first: np.ndarray, last: np.ndarray, prefix: str) -> KernelRows:
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    data = lines.data
    n = len(first)
    head = np.empty((14, n), np.int64)
    table = np.zeros(n, np.int64)
    read = np.empty(n, np.bool_)
    k.headers(data, lines.begin, lines.lo, lines.hi, first, last, head, table, read)
    use = np.zeros(n, np.bool_)
    params = np.zeros((6, n), np.int64)
    key_of = np.zeros(n, np.int64)
    found: dict[tuple[Any, ...], int] = {}
    if read.any():
        raw = data.tobytes()
        heads = head.T.tolist()
        for h in np.flatnonzero(read).tolist():
            kh = heads[h]
            key = (raw[kh[2]:kh[3]], raw[kh[4]:kh[5]], raw[kh[6]:kh[7]], kh[12])
            p = _KEYS.get(key)
            if p is None:
                p = _params(raw, lines, int(first[h]), int(table[h]), kh)
                if p is None:
                    continue  # not remembered: this header's clock or id may be the reason
                if len(_KEYS) >= _MEMO:
                    _KEYS.clear()
                _KEYS[key] = p
            use[h] = True
            key_of[h] = found.setdefault(p, len(found))
            params[:, h] = (p[4], p[9], p[10], p[7], p[12], p[7] if p[9] else p[8])
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    if not found:
        return KernelRows(_EMPTY, _NO_LINES, ok, row0)
    const, c_lo, c_hi = _constant()
    more = bytearray(const)
    base = len(data)
    pre = base + len(more)
    more += prefix.encode()
    c_lo = np.append(c_lo + base, pre)
    c_hi = np.append(c_hi + base, base + len(more))
    keys = np.zeros((16, len(found)), np.int64)
    for p, j in found.items():
        for c, text in enumerate(p[:4]):
            keys[2 * c, j] = base + len(more)
            more += text.encode()
            keys[2 * c + 1, j] = base + len(more)
        keys[8:16, j] = (p[4], p[5], k.NULL if p[6] is None else p[6], p[10], p[7], p[8],
                         p[9], p[11])
    full = np.concatenate([data, np.frombuffer(more, dtype=np.uint8)])
    cap = 2 * int((last - first).sum()) + (k.MAX_SEATS + 8) * n + 64
    rows = np.empty((14, cap), np.int64)
    per = np.zeros((4, n), np.int64)
    count = k.hands(full, lines.lo, lines.hi, lines.odd, lines.begin, first, last, table, use,
                    params, c_lo[k.C_UNKNOWN], rows, per, ok, row0)
    if not count:
        return KernelRows(_EMPTY, _NO_LINES, ok, row0)
    spec = np.empty((7, 10, count), np.int64)
    i64 = np.empty((10, count), np.int64)
    i32 = np.empty((2, count), np.int32)
    i8 = np.empty((4, count), np.int8)
    valid = np.empty((7, count), np.bool_)
    k.columns(rows, count, row0, head, per, key_of, keys, c_lo, c_hi, spec, i64, i32, i8,
              valid)
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    offsets = np.empty((10, count + 1), np.int32)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets)
    starts = np.zeros(11, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    size = int(starts[-1])
    message = _message(count, size)
    out = message[1] if message is not None else np.empty(size, np.uint8)
    t.text_fill(full, lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets, out, starts)
    if message is not None:
        table = _message_table(message, k, count, lo1, offsets, starts, size, i64, i32, i8,
                               valid)
    else:
        table = _table(count, lo1 >= 0, offsets, out, starts, i64, i32, i8, valid)
    return KernelRows(table, rows[12, :count].copy(), ok, row0)


def _table(count: int, texts: np.ndarray, offsets: np.ndarray, out: np.ndarray,
           starts: np.ndarray, i64: np.ndarray, i32: np.ndarray, i8: np.ndarray,
           valid: np.ndarray) -> pa.Table:
    """The events table of the columns `winamax_kernel.columns` wrote."""
    width = (count + 7) // 8
    bits = pa.py_buffer(np.packbits(np.concatenate([texts, valid]), axis=1,
                                    bitorder="little"))
    masks = [bits.slice(c * width, width) for c in range(17)]
    full = [not row.all() for row in np.concatenate([texts, valid])]
    text_off, text_out = pa.py_buffer(offsets), pa.py_buffer(out)
    size = 4 * (count + 1)
    edges = starts.tolist()

    def mask(c: int) -> pa.Buffer | None:
        return masks[c] if full[c] else None

    text = [pa.Array.from_buffers(_STRING, count, [
        mask(c), text_off.slice(c * size, size),
        text_out.slice(edges[c], edges[c + 1] - edges[c])]) for c in range(10)]
    b64, b32, b8 = pa.py_buffer(i64), pa.py_buffer(i32), pa.py_buffer(i8)
    w64, w32, w8 = 8 * count, 4 * count, count
    first, seat, amount, total, fixed, straddle, level = (mask(10 + c) for c in range(7))
    head = masks[10]

    def long(c: int, m: pa.Buffer | None, kind: pa.DataType = _INT64_TYPE) -> pa.Array:
        return pa.Array.from_buffers(kind, count, [m, b64.slice(c * w64, w64)])

    def small(c: int, m: pa.Buffer | None) -> pa.Array:
        return pa.Array.from_buffers(pa.int8(), count, [m, b8.slice(c * w8, w8)])

    nulls = _nulls(count)
    tournament = pa.Array.from_buffers(pa.bool_(), count, [head, pa.py_buffer(
        np.packbits(i8[3], bitorder="little"))])
    game = pa.Array.from_buffers(_GAME, count, [head], children=[
        text[7], text[8], long(3, head), long(4, head), long(5, fixed), long(6, fixed),
        long(7, head), nulls[0], long(8, straddle), nulls[0], small(1, head), small(2, head),
        text[9], long(9, head), tournament,
        pa.Array.from_buffers(pa.int32(), count, [level, b32.slice(w32, w32)]),
        nulls[1], nulls[2], nulls[2]])
    columns = [
        text[0], pa.Array.from_buffers(pa.int32(), count, [None, b32.slice(0, w32)]),
        long(0, head, _TS), text[1], text[2], small(0, seat), text[3], long(1, amount),
        long(2, total), text[4], text[5], game, text[6]]
    return pa.Table.from_arrays(columns, schema=_SCHEMA)


# --- the table as one Arrow IPC message -------------------------------------------------
# Building ~35 arrays one `from_buffers` call at a time costs ~170 µs a file; the same
# columns laid out in one buffer and read as a record batch message cost ~20 µs. The
# message's metadata is the one pyarrow writes for this schema (`_Ipc`: taken from a batch it
# serialises, the places of the row count, body length, field nodes and buffers found by
# reading its flatbuffer); only those numbers are written per file.

# per schema field in depth-first order: its kind, its validity and its data row: ("s",
# mask, offsets row) string, ("i64" | "i32" | "i8" | "b", mask, row) fixed width, ("g", mask)
# the game struct; a mask is a row of the validity matrix (the ten string columns' --
# hand_id, table_id, kind, player, cards, detail, source, variant, structure, currency --,
# then `winamax_kernel.VALID`'s), None: no nulls, -1: all null
_FIELDS: tuple[tuple[Any, ...], ...] = (
    ("s", None, 0), ("i32", None, 0), ("i64", 10, 0), ("s", 1, 1), ("s", None, 2),
    ("i8", 11, 0), ("s", 3, 3), ("i64", 12, 1), ("i64", 13, 2), ("s", 4, 4), ("s", 5, 5),
    ("g", 10), ("s", 7, 7), ("s", 8, 8), ("i64", 10, 3), ("i64", 10, 4), ("i64", 14, 5),
    ("i64", 14, 6), ("i64", 10, 7), ("i64", -1, 0), ("i64", 15, 8), ("i64", -1, 0),
    ("i8", 10, 1), ("i8", 10, 2), ("s", 9, 9), ("i64", 10, 9), ("b", 10, 17),
    ("i32", 16, 1), ("b", -1, 18), ("s", -1, 10), ("s", -1, 10), ("s", None, 6))


class _Ipc:
    """The template message of the events schema and where its numbers are."""

    def __init__(self) -> None:
        import struct

        sample = pa.Table.from_pylist([{"hand_id": "x", "seq": 0, "kind": "k"}] * 3,
                                      schema=_SCHEMA).to_batches()[0]
        message = sample.serialize().to_pybytes()
        if message[:4] != b"\xff\xff\xff\xff":
            raise ValueError("not an IPC message with a continuation marker")
        size = int.from_bytes(message[4:8], "little")
        meta = message[8:8 + size]

        def u32(p: int) -> int:
            return int(struct.unpack_from("<I", meta, p)[0])

        def field(table: int, i: int) -> int:
            vt = table - int(struct.unpack_from("<i", meta, table)[0])
            if 4 + 2 * i >= struct.unpack_from("<H", meta, vt)[0]:
                raise ValueError("field absent")
            off = int(struct.unpack_from("<H", meta, vt + 4 + 2 * i)[0])
            if not off:
                raise ValueError("field absent")
            return table + off

        message_table = u32(0)
        header = field(message_table, 2)
        batch = header + u32(header)
        self.body_length = 8 + field(message_table, 3)
        self.length = 8 + field(batch, 0)
        nodes = field(batch, 1) + u32(field(batch, 1))
        buffers = field(batch, 2) + u32(field(batch, 2))
        self.nodes, self.n_nodes = 8 + nodes + 4, u32(nodes)
        self.buffers, self.n_buffers = 8 + buffers + 4, u32(buffers)
        self.size = 8 + size
        self.array = np.frombuffer(message[:8 + size], np.uint8).copy()
        from audit.importers.winamax_kernel import (
            F_BOOL,
            F_I8,
            F_I32,
            F_I64,
            F_STRING,
            F_STRUCT,
            NO_NULLS,
        )

        kinds = {"s": F_STRING, "i64": F_I64, "i32": F_I32, "i8": F_I8, "b": F_BOOL,
                 "g": F_STRUCT}
        self.fields = np.array([(kinds[f[0]], NO_NULLS if f[1] is None else f[1],
                                 f[2] if len(f) > 2 else 0) for f in _FIELDS], np.int64)
        want_buffers = sum(3 if f[0] == "s" else 1 if f[0] == "g" else 2 for f in _FIELDS)
        if (self.n_nodes, self.n_buffers) != (len(_FIELDS), want_buffers) or \
                self.nodes % 8 or self.buffers % 8 or self.length % 8 or \
                self.body_length % 8 or self.size % 8 or \
                struct.unpack_from("<q", message, self.length)[0] != 3 or \
                struct.unpack_from("<q", message, self.body_length)[0] != len(message) - \
                self.size:
            raise ValueError("the template message is not laid out as expected")


@cache
def _ipc() -> _Ipc | None:
    try:
        return _Ipc()
    except (ValueError, IndexError, pa.ArrowException):
        return None


def _message(count: int, size: int) -> tuple[np.ndarray, np.ndarray, list[int]] | None:
    """The message of a table of `count` rows and `size` bytes of strings, its template
    header written: (message, its string region, the regions' starts); None when the
    template is not known."""
    ipc = _ipc()
    if ipc is None:
        return None
    c8 = (count + 7) // 8 * 8
    width = ((count + 7) // 8 + 7) // 8 * 8
    co = (count + 2) // 2 * 2
    # int64 rows, int32 rows, int8 rows, bit rows (masks, tournament flags, zeros), offset
    # rows (the string columns', zeros), the strings
    at = [ipc.size]
    for part in (80 * count, 8 * c8, 4 * c8, 19 * width, 44 * co, (size + 7) // 8 * 8):
        at.append(at[-1] + part)
    message = np.zeros(at[-1], np.uint8)
    message[:ipc.size] = ipc.array
    return message, message[at[5]:at[5] + size], at


def _message_table(message: tuple[np.ndarray, np.ndarray, list[int]], k: Any, count: int,
                   lo1: np.ndarray, offsets: np.ndarray, starts: np.ndarray, size: int,
                   i64: np.ndarray, i32: np.ndarray, i8: np.ndarray, valid: np.ndarray
                   ) -> pa.Table:
    """`_table`'s table read from one IPC message (`_message`, its strings written)."""
    ipc = _ipc()
    assert ipc is not None
    data, _, at = message
    c8 = (count + 7) // 8 * 8
    width = ((count + 7) // 8 + 7) // 8 * 8
    co = (count + 2) // 2 * 2
    data[at[0]:at[1]].view(np.int64)[:] = i64.reshape(-1)
    data[at[1]:at[2]].view(np.int32).reshape(2, c8)[:, :count] = i32
    data[at[2]:at[3]].view(np.int8).reshape(4, c8)[:, :count] = i8
    head = ipc.size
    body = np.array(at[:6], np.int64) - head
    k.pack(count, lo1, valid, i8[3], offsets, starts, ipc.fields, body, c8, width, co, size,
           data[at[3]:at[4]].reshape(19, width), data[at[4]:at[5]].view(np.int32).reshape(
               11, co), data[ipc.nodes:ipc.nodes + 16 * len(_FIELDS)].view(np.int64).reshape(
               -1, 2), data[ipc.buffers:ipc.buffers + 16 * ipc.n_buffers].view(
               np.int64).reshape(-1, 2))
    data[ipc.length:ipc.length + 8].view(np.int64)[0] = count
    data[ipc.body_length:ipc.body_length + 8].view(np.int64)[0] = len(data) - head
    batch = pa.ipc.read_record_batch(pa.py_buffer(data), _SCHEMA)
    return pa.Table.from_batches([batch])


_NULLS: dict[int, tuple[pa.Array, pa.Array, pa.Array]] = {}


def _nulls(count: int) -> tuple[pa.Array, pa.Array, pa.Array]:
    """All-null int64, bool and string arrays of `count` rows (the game fields Winamax never
    sets), kept for the row counts seen."""
    got = _NULLS.get(count)
    if got is None:
        if len(_NULLS) >= _MEMO:
            _NULLS.clear()
        got = _NULLS[count] = (pa.nulls(count, pa.int64()), pa.nulls(count, pa.bool_()),
                               pa.nulls(count, pa.string()))
    return got


@cache
def _constant() -> tuple[bytes, np.ndarray, np.ndarray]:
    """The texts every file's columns take (`winamax_kernel.CONSTANTS`) and their spans from
    the end of the file's bytes."""
    from audit.importers.winamax_kernel import CONSTANTS

    out = bytearray(b"\n")
    lo, hi = [], []
    for text in CONSTANTS:
        lo.append(len(out))
        out.extend(text.encode())
        hi.append(len(out))
    return bytes(out), np.array(lo, np.int64), np.array(hi, np.int64)


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
