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
from itertools import accumulate
from typing import Any

import numpy as np

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, IpcLayout, KernelRows, Lines
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.winamax_kernel", "the compiled Winamax reader",
                        "Winamax files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_EMPTY = _SCHEMA.empty_table()  # a file whose hands the kernel does not read (~0.1 ms to make)
_NO_LINES = np.empty(0, np.int64)
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
    const, spans = _constant()
    more = bytearray(const)
    base = len(data)
    spans = spans + base  # one numpy call (two np.append cost more than the rest of the glue)
    spans[0, -1] = base + len(more)
    more += prefix.encode()
    spans[1, -1] = base + len(more)
    c_lo, c_hi = spans
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
    # (in Python: np.cumsum costs a few µs on ten numbers)
    starts = np.array(list(accumulate(offsets[:, -1].tolist(), initial=0)), np.int64)
    message, at, out = _LAYOUT.message(count, int(starts[-1]))
    t.text_fill(full, lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets, out, starts)
    masks = np.concatenate([lo1 >= 0, valid])
    table = _LAYOUT.table(message, at, count, out, i64, i32, i8, masks,
                          i8[3:4].astype(np.bool_), offsets, starts)
    return KernelRows(table, rows[12, :count].copy(), ok, row0)


# per schema field in depth-first order (`compiledtext.IpcLayout`): the masks are the ten
# string columns' -- hand_id, table_id, kind, player, cards, detail, source, variant,
# structure, currency -- then `winamax_kernel.VALID`'s; the one boolean row the tournament
# flags
_LAYOUT = IpcLayout((
    ("s", None, 0), ("i32", None, 0), ("i64", 10, 0), ("s", 1, 1), ("s", None, 2),
    ("i8", 11, 0), ("s", 3, 3), ("i64", 12, 1), ("i64", 13, 2), ("s", 4, 4), ("s", 5, 5),
    ("g", 10), ("s", 7, 7), ("s", 8, 8), ("i64", 10, 3), ("i64", 10, 4), ("i64", 14, 5),
    ("i64", 14, 6), ("i64", 10, 7), ("i64", -1, 0), ("i64", 15, 8), ("i64", -1, 0),
    ("i8", 10, 1), ("i8", 10, 2), ("s", 9, 9), ("i64", 10, 9), ("b", 10, 0),
    ("i32", 16, 1), ("b", -1, -1), ("s", -1, 10), ("s", -1, 10), ("s", None, 6)),
    i64=10, i32=2, i8=4, masks=17, bools=1, texts=10)


@cache
def _constant() -> tuple[bytes, np.ndarray]:
    """The texts every file's columns take (`winamax_kernel.CONSTANTS`) and their spans from
    the end of the file's bytes: starts, ends (one row each), and a last column left for the
    file's prefix (written after them)."""
    from audit.importers.winamax_kernel import CONSTANTS

    out = bytearray(b"\n")
    lo, hi = [], []
    for text in CONSTANTS:
        lo.append(len(out))
        out.extend(text.encode())
        hi.append(len(out))
    return bytes(out), np.array([[*lo, 0], [*hi, 0]], np.int64)


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
