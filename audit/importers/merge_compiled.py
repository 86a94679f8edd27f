"""Merge's compiled pass (`merge_kernel`) and its read loop: a file's hands found from its
bytes, each hand's game line read in Python by the fast path's own patterns and the XML
reader's own functions (`_params`: variant, structure, money, table, stakes), the hands read
by the kernel straight into one Arrow table per file, every other hand by the fast path
(`merge_fast`) and the XML reader (`merge._map_text`), which alone quarantines, in file
order, chunk by chunk as `merge.MergeImporter.read` gives them.

A file is read here only when its bytes are plain (`compiledtext.plain_bytes`: UTF-8 without
a byte-order mark, not UTF-16, at most `compiledtext.MAX_BYTES`), no line or hand can be over
the read limits, no line's ends may hold a Unicode space, and every line outside a hand is
blank, an `<?xml` line or a description (text outside hands is quarantined: the Python
reader's); any other file is read by `MergeImporter.read`'s Python loop, as before.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Iterator
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule, compile_failures
from audit.importers import merge as m
from audit.importers import merge_fast as mf
from audit.importers.base import Chunk, read_limits
from audit.importers.columns import EventColumns
from audit.importers.compiledtext import IpcLayout, interleaved, plain_bytes
from audit.importers.sitetext import _PER_LINE_COST, HOLE_COUNT, ChunkWriter
from audit.importers.textkernel import line_count

KERNEL = CompiledModule("audit.importers.merge_kernel", "the compiled Merge reader",
                        "Merge files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_MEMO = 1024
_CARD_ROOM = 200  # `merge_kernel.CARD_ROOM`
_NO_LINES = np.empty(0, np.int64)


class _Pool(threading.local):
    """Scratch arrays kept from file to file (per thread): a fresh array of a large file's
    size costs more in page faults than the kernel's work (~0.4 ms for 1,600 rows)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}


_POOL = _Pool()
_POOL_BYTES = 16 << 20


def _scratch(name: str, size: int, dtype: Any) -> np.ndarray:
    """`size` elements of the pool's array `name` (grown as needed; not zeroed); an array
    over `_POOL_BYTES` is the caller's own (a large file's memory is not kept)."""
    if size * np.dtype(dtype).itemsize > _POOL_BYTES:
        return np.empty(size, dtype)
    have = _POOL.arrays.get(name)
    if have is None or len(have) < size:
        have = _POOL.arrays[name] = np.empty(max(size, 4096), dtype)
    return have[:size]


def read_file(path: Path, chunk_hands: int) -> Iterator[Chunk] | None:
    """The chunks of `path` (a generator), or None when the file is not for the compiled
    pass (see the module's docstring) or numba cannot run here (said once)."""
    kernel, text = KERNEL.get(), TEXT.get()
    if kernel is None or text is None:
        return None
    raw = plain_bytes(path)
    if raw is None:
        return None
    try:
        return _read(raw, path, chunk_hands, kernel, text)
    except compile_failures() as exc:
        KERNEL.failed(exc)
        return None


def _read(raw: bytes, path: Path, chunk_hands: int, k: Any, t: Any
          ) -> Iterator[Chunk] | None:
    limits = read_limits()
    n = line_count(raw)
    if len(raw) + _PER_LINE_COST * n > min(limits.hand_bytes, limits.line_bytes):
        return None  # a line or a hand may be over a limit: the Python loop's
    # the file's bytes, room for the texts its columns take, for the cards the kernel writes
    prefix = f"merge:{path.name}:".encode()
    room = 3 * len(raw) + 80 * n + 64  # hand and table ids (each under 3 game lines), names
    full = _scratch("full", len(raw) + room + len(_constant()[0]) + len(prefix)
                    + _CARD_ROOM * 7 * n + 64, np.uint8)
    full[:len(raw)] = np.frombuffer(raw, np.uint8)
    data = full[:len(raw)]
    begin, lo, hi = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    odd = np.empty(n, np.bool_)
    t.lines_of(data, begin, lo, hi, odd)
    kind = np.empty(n, np.int8)
    end_of = np.empty(n, np.int64)
    if k.layout(data, begin, lo, hi, odd, kind, end_of) < 0:
        return None
    first = np.flatnonzero(kind == 1)
    ends = end_of[first]
    # the description each hand is read with (the last one before it)
    descs: list[dict[str, str]] = []
    desc: dict[str, str] = {}
    outside = np.flatnonzero(kind == 3).tolist()
    o = 0
    for g in [*first.tolist(), n]:
        while o < len(outside) and outside[o] < g:
            s = raw[lo[outside[o]]:hi[outside[o]]].decode("utf-8")
            o += 1
            if s.startswith("<?xml"):
                continue
            d = m._DESC.search(s)
            if d is None or not s.startswith("<description"):
                return None  # text outside any hand: quarantined by the Python loop
            desc = dict(m._ATTR.findall(d.group(1)))
        descs.append(desc)
    descs.pop()
    rows = _rows(raw, full, room, begin, lo, hi, first, ends, descs, prefix, k, t)
    return _chunks(raw, begin, first, ends, descs, rows, path, chunk_hands)


# a game line's attributes that differ from hand to hand (their values checked as
# `merge_fast._LINE` checks them: a value it refuses is left in the line, which it then refuses)
_VARYING = re.compile(r'(?:(?<= id=")|(?<= data=")|(?<= starttime="))'
                      r'[^"<&\x00-\x1f\ufffe\uffff]*(?=")')
_VARIES = re.compile(r' (id|starttime|data)="([^"]*)"')
_STAMP = re.compile(r"[0-9]{14}")
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
# (game line without the values of `_VARYING`, desc items) -> `_params`
_PARAMS: dict[tuple[Any, ...], tuple[Any, ...] | None] = {}


def _params(line: str, desc: dict[str, str]) -> tuple[Any, ...] | None:
    """What a hand's game line (`line`, right-stripped, the values of `_VARYING` empty) says
    as `merge_fast._map` reads it: (variant, structure, currency, tournament, numbers for the
    kernel (`merge_kernel.PARAM_FIELDS` but the start's), the note should the description's
    blinds not be the hand's); None when the kernel is not to read the hand."""
    from audit.importers.merge_kernel import BAD, NULL, S_BLINDS, S_LIMIT, S_NONE, S_PAREN

    found = mf._LINE.fullmatch(line)
    head = found.group(20) if found is not None else None
    if not head:
        return None
    ga = dict(mf._ATTR.findall(head))
    if len(ga) != head.count("=") or "id" not in ga:
        return None
    try:
        variant = m._variant(m._E("game", ga, 0), desc)
    except m.SiteHandError:
        return None
    stud = variant in m._STUD
    stakes, structure, tournament, chips = mf.game_terms(ga, desc, stud)
    if structure is None:
        return None
    fraction = any(m._FRACTION.search(v) for key, v in ga.items()
                   if key in ("amount", "balance"))
    seats = int(ga["seats"]) if ga.get("seats", "").isdigit() else -1
    count = HOLE_COUNT.get(variant, 2)
    try:
        count = int(ga.get("numholecards", count))
    except ValueError:
        pass
    if seats > 127 or not 1 <= count <= 8:
        return None
    kind, values = S_NONE, [NULL, NULL, NULL]
    if (s := m._PAREN.search(stakes)):
        kind, values = S_PAREN, [_hundredths(s.group(1)), _hundredths(s.group(2)),
                                 _hundredths(s.group(3)) if stud and s.group(3) else NULL]
    elif (s := m._LIMIT_STAKES.search(stakes)):
        kind, values = S_LIMIT, [_hundredths(s.group(1)), _hundredths(s.group(2)), NULL]
    elif (s := m._BLINDS.search(stakes)):
        ante = m._ANTE.search(stakes)
        kind, values = S_BLINDS, [_hundredths(s.group(1)), _hundredths(s.group(2)),
                                  _hundredths(ante.group(1)) if ante else NULL]
    if any(v != BAD and v != NULL and not -(1 << 62) < v < (1 << 62) for v in values):
        return None
    # the note when the description names other blinds than a hand posts (`merge._stakes`)
    described = None if ga.get("stakes") or kind not in (S_PAREN, S_BLINDS) or (
        kind == S_PAREN and stud) else f";blinds=as posted (the description says {stakes!r})"
    return (variant, structure, "CHIPS" if chips else "USD", tournament,
            [int(chips), int(bool(fraction)), int(structure == "fixed_limit"), kind, *values,
             int(bool(ga.get("stakes"))), count, seats, int(tournament), int(stud)], described)


def _hand_of(line: str, tournament: bool) -> tuple[str, str, int, int] | None:
    """(hand id, table id, the game's start in µs or NULL, whether read as UTC) of a game
    line `_params` read (`merge_fast._map`, `merge._ts`); None: no id."""
    va = dict(_VARIES.findall(line))
    gid = va.get("id")
    if not gid or any("=" in v for v in va.values()):
        return None  # (`=` in a value: the fast path counts it as an attribute's)
    data = mf._DATA_FIELDS.split(va.get("data", ""))
    table = gid.split("-")[0]
    if tournament:
        table_id = f"{data[2] if len(data) > 2 else '?'} {table}"
    else:
        table_id = data[1] if len(data) > 1 and data[1] else table
    start = va.get("starttime", "")
    if _STAMP.fullmatch(start):  # `%Y%m%d%H%M%S` as strptime reads 14 digits
        try:
            t = dt.datetime(int(start[:4]), int(start[4:6]), int(start[6:8]), int(start[8:10]),
                            int(start[10:12]), int(start[12:]), tzinfo=dt.UTC)
            return f"merge:{gid}", table_id, (t - _EPOCH) // _MICRO, 1
        except ValueError:
            pass
    # (another layout: read by the Python path, should no event have a clock)
    return f"merge:{gid}", table_id, _NULL, 0


_MICRO = dt.timedelta(microseconds=1)
_NULL = np.iinfo(np.int64).min  # `merge_kernel.NULL`


def _hundredths(text: str) -> int:
    """`merge._Money(100)` of a stakes amount, or `merge_kernel.BAD` (finer than the cent)."""
    from audit.importers.merge_kernel import BAD

    value = Decimal(text.replace(",", "")) * 100
    return int(value) if value == value.to_integral_value() else BAD


def _rows(raw: bytes, full: np.ndarray, room: int, begin: np.ndarray, lo: np.ndarray,
          hi: np.ndarray, first: np.ndarray, ends: np.ndarray, descs: list[dict[str, str]],
          prefix: bytes, k: Any, t: Any
          ) -> tuple[pa.Table | None, np.ndarray, np.ndarray, np.ndarray]:
    """(the kernel's table or None, each row's line, which hands it read, their rows);
    `full`: the file's bytes, then `room` bytes for the hands' texts, then the constant
    texts, the prefix and the card area."""
    n = len(first)
    use = np.zeros(n, np.bool_)
    par = np.zeros((14, n), np.int64)
    at: dict[str, tuple[int, int]] = {}  # a text's span in the blob
    blob = bytearray()
    spans = np.full((12, n), -1, np.int64)
    base = len(raw)
    begin_l, hi_l, ends_l = begin.tolist(), hi.tolist(), ends.tolist()
    last_desc: dict[str, str] | None = None
    desc_key: tuple[Any, ...] = ()
    sub = _VARYING.sub
    used = lines = 0
    for h, g in enumerate(first.tolist()):
        if ends_l[h] < 0:
            continue
        line = raw[begin_l[g]:hi_l[g]].decode("utf-8")
        desc = descs[h]
        if desc is not last_desc:
            last_desc, desc_key = desc, tuple(desc.items())
        key = (sub("", line), desc_key)
        p = _PARAMS.get(key)
        if p is None:
            if key in _PARAMS:
                continue
            p = _params(key[0], desc)
            if len(_PARAMS) >= _MEMO:
                _PARAMS.clear()
            _PARAMS[key] = p
            if p is None:
                continue
        hand = _hand_of(line, p[3])
        if hand is None:
            continue
        use[h] = True
        used += 1
        lines += ends_l[h] - g + 1
        par[:12, h] = p[4]
        par[12, h] = hand[2]
        par[13, h] = hand[3]
        for c, text in enumerate((hand[0], hand[1], p[0], p[1], p[2], p[5])):
            if text is None:
                continue
            where = at.get(text)
            if where is None:
                encoded = text.encode()
                where = at[text] = (base + len(blob), base + len(blob) + len(encoded))
                blob += encoded
            spans[2 * c, h], spans[2 * c + 1, h] = where
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    if not used or len(blob) > room:
        return None, _NO_LINES, ok, row0
    const, c_lo, c_hi = _constant()
    at = base + room
    c_lo = c_lo + at  # (its last: the prefix)
    c_hi = c_hi + at
    c_lo[-1] = at + len(const)
    c_hi[-1] = c_lo[-1] + len(prefix)
    card_at = int(c_hi[-1])
    full[base:base + len(blob)] = np.frombuffer(blob, np.uint8)
    full[at:card_at] = np.frombuffer(const + prefix, np.uint8)
    cap = 3 * lines + 80 * used + 16
    rows = _scratch("rows", k.N_ROW * cap, np.int64).reshape(k.N_ROW, cap)
    per = np.zeros((10, n), np.int64)
    count = k.hands(full, begin, lo, hi, first, ends, use, par, spans, c_lo, c_hi, card_at,
                    rows, per, ok, row0)
    if not count:
        return None, _NO_LINES, ok, row0
    spec = _scratch("spec", 70 * count, np.int64).reshape(7, 10, count)
    i64 = _scratch("i64", 11 * count, np.int64).reshape(11, count)
    i32 = _scratch("i32", count, np.int32).reshape(1, count)
    i8 = _scratch("i8", 4 * count, np.int8).reshape(4, count)
    masks = _scratch("masks", 22 * count, np.bool_).reshape(22, count)
    valid = masks[10:]
    k.columns(rows, count, row0, per, par, spans, c_lo, c_hi, spec, i64, i32, i8, valid)
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    offsets = _scratch("offsets", 10 * (count + 1), np.int32).reshape(10, count + 1)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets)
    starts = np.zeros(11, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    message, where, out = _LAYOUT.message(count, int(starts[-1]))
    t.text_fill(full, lo1, hi1, lo2, hi2, num, lo3, hi3, k.NULL, offsets, out, starts)
    np.greater_equal(lo1, 0, out=masks[:10])
    table = _LAYOUT.table(message, where, count, out, i64, i32, i8, masks,
                          i8[3:4].astype(np.bool_), offsets, starts)
    return table, rows[14, :count].copy(), ok, row0


# per schema field in depth-first order (`compiledtext.IpcLayout`): the masks are the ten
# string columns' -- hand_id, table_id, kind, player, cards, detail, source, variant,
# structure, currency -- then `merge_kernel.columns`' validity rows (hand_started, seat,
# amount, total, the game's small blind, big blind, small bet, big bet, bring-in, minimum
# bet, button, seat count); the one boolean row the tournament flags
_LAYOUT = IpcLayout((
    ("s", None, 0), ("i32", None, 0), ("i64", 10, 0), ("s", 1, 1), ("s", None, 2),
    ("i8", 11, 0), ("s", 3, 3), ("i64", 12, 1), ("i64", 13, 2), ("s", 4, 4), ("s", 5, 5),
    ("g", 10), ("s", 7, 7), ("s", 8, 8), ("i64", 14, 3), ("i64", 15, 4), ("i64", 16, 5),
    ("i64", 17, 6), ("i64", 10, 7), ("i64", 18, 9), ("i64", -1, 0), ("i64", 19, 10),
    ("i8", 20, 1), ("i8", 21, 2), ("s", 9, 9), ("i64", 10, 8), ("b", 10, 0),
    ("i32", -1, 0), ("b", -1, -1), ("s", -1, 10), ("s", -1, 10), ("s", None, 6)),
    i64=11, i32=1, i8=4, masks=22, bools=1, texts=10)


@cache
def _constant() -> tuple[bytes, np.ndarray, np.ndarray]:
    """The texts every file's columns take (`merge_kernel`'s kinds, details and notes) and
    their spans from their start, a last one left for the file's prefix
    (`merge_kernel.C_PREFIX`)."""
    from audit.importers.merge_kernel import DETAILS, KINDS, NOTES

    out = bytearray()
    lo, hi = [], []
    notes = ["".join(note for b, note in enumerate(NOTES) if bits >> b & 1)
             for bits in range(1 << len(NOTES))]
    for text in (*KINDS, *DETAILS, *notes):
        lo.append(len(out))
        out.extend(text.encode())
        hi.append(len(out))
    lo.append(0)  # (the file's prefix: `_rows`')
    hi.append(0)
    return bytes(out), np.array(lo, np.int64), np.array(hi, np.int64)


def _body(raw: bytes, begin: np.ndarray, i0: int, i1: int) -> list[tuple[int, str]]:
    """Lines i0:i1 as `split_blocks` gives them: (number, text right-stripped)."""
    end = int(begin[i1]) if i1 < len(begin) else len(raw)
    text = raw[int(begin[i0]):end].decode("utf-8")
    parts = text.split("\n")
    if text.endswith("\n"):
        parts.pop()
    return [(i0 + 1 + k, t.rstrip()) for k, t in enumerate(parts)]


def _chunks(raw: bytes, begin: np.ndarray, first: np.ndarray, ends: np.ndarray,
            descs: list[dict[str, str]],
            kernel: tuple[pa.Table | None, np.ndarray, np.ndarray, np.ndarray], path: Path,
            chunk_hands: int) -> Iterator[Chunk]:
    fast_rows = mf.fast_rows

    table, row_lines, ok_arr, row0 = kernel
    ok = ok_arr.tolist()
    out = ChunkWriter(chunk_hands, str(path))
    name = path.name
    n = len(ok)
    firsts = first.tolist()
    stops = [*firsts[1:], len(begin)]
    # a hand's body: to its `</game>` line, or its whole block when it has none
    bodies = [(g, e + 1 if e >= 0 else stop) for g, e, stop in zip(firsts, ends.tolist(), stops,
                                                                    strict=True)]
    cols = EventColumns()
    kept: list[int] = []
    k0 = k1 = 0
    spans: list[tuple[str, int, int]] = []
    for h in range(n):
        if ok[h]:
            a, b = int(row0[h]), int(row0[h + 1])
            if not kept:
                k0 = k1 = a
            if spans and spans[-1][0] == "k":
                spans[-1] = ("k", spans[-1][1], b)
            else:
                spans.append(("k", a, b))
            k1 = b
            kept.append(h)
        else:
            if not kept:
                k0 = k1 = int(row0[h])
            body = _body(raw, begin, *bodies[h])
            text = "\n".join([t for _, t in body])
            desc = descs[h]
            size = len(cols)
            rows = fast_rows(text, body[0][0], desc, name)
            if rows is not None:
                cols.rows += rows
            else:
                hand = out.map_or_reject(body, m._hand_id(body[0][1]), m._map_text, text,
                                         body[0][0], desc, name)
                if hand is None:
                    continue
                cols.add_rows(hand.rows, hand.lines)
            spans.append(("p", size, len(cols)))
            kept.append(h)
        if len(kept) >= chunk_hands:
            yield _take(raw, begin, bodies, descs, out, (table, row_lines), cols, kept, spans,
                        (k0, k1), name)
            cols, kept, spans = EventColumns(), [], []
    if kept or out.rejected:
        yield _take(raw, begin, bodies, descs, out, (table, row_lines), cols, kept, spans,
                    (k0, k1), name)


def _take(raw: bytes, begin: np.ndarray, bodies: list[tuple[int, int]],
          descs: list[dict[str, str]], out: ChunkWriter,
          kernel: tuple[pa.Table | None, np.ndarray], cols: EventColumns, kept: list[int],
          spans: list[tuple[str, int, int]], krows: tuple[int, int], name: str) -> Chunk:
    """The chunk of the kernel's rows k0:k1 and `cols` in hand order (`merge._take`: when a
    value of `cols` does not fit the schema, every hand of the chunk read by the XML
    reader)."""
    table, row_lines = kernel
    k0, k1 = krows
    try:
        other = cols.table() if len(cols) else None
    except (pa.ArrowException, OverflowError, ValueError, TypeError):
        for h in kept:
            body = _body(raw, begin, *bodies[h])
            text = "\n".join([t for _, t in body])
            hand = out.map_or_reject(body, m._hand_id(body[0][1]), m._map_text, text,
                                     body[0][0], descs[h], name)
            if hand is not None:
                out.add(hand, text + "\n")
        return out.take()
    return interleaved(out, table, row_lines, (k0, k1), other, cols.lines, spans)

