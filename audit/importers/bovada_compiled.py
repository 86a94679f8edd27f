"""Bovada's compiled pass (`bovada_kernel`) as a reader of whole files: the file's bytes cut
into lines, its hands found (`bovada._HEADER_LINE`), each header read once in Python by the
line parser's own functions (`_HEADER`, `_table_and_game`, `bovada_fast._utc_micros`), each
distinct line template once (`_template_code`, by the parser's `_action`), the kernel's rows
made into one Arrow table per file (integer columns from numpy, strings from byte spans).
Every hand the kernel does not read goes, in file order, to the Python fast path and the line
parser exactly as `bovada_fast.read_bovada` gives it to them; a chunk's table is the kernel's
rows and theirs in hand order (one take), its lines and rejections theirs.

`read_compiled` takes a file only when its text is plain (`compiledtext.plain_text_bytes`:
at most `MAX_BYTES`, UTF-8, UTF-16 or with byte-order marks), no line and no hand over the
read limits, and its first non-blank line a hand's header; else it returns None and
`read_bovada` reads the file as before. The read loop is this module's own, not
`compiledtext.read_compiled`'s: the line parser here also says where text that is no part of
a hand starts (`_map_bovada` returns it), quarantined apart as `read_bovada` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule
from audit.importers.base import Chunk, read_limits
from audit.importers.compiledtext import bitmap, bools, fixed, plain_text_bytes
from audit.importers.sitetext import _PER_LINE_COST, raw_text
from audit.importers.textkernel import line_count
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.bovada_kernel", "the compiled Bovada reader",
                        "Bovada files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_GAME = _SCHEMA.field("game").type
_TS = _SCHEMA.field("ts").type
_STRING = pa.string()
_MEMO = 4096
_INT32 = 1 << 31
_NOT_PLAYS = ("Leave", "Enter", "Seat ", "Sit", "Re-join", "Table ", "Stand", "Draw for",
              "Set dealer", "Ranking", "Prize")
# (is a player's line, template) -> (op, arg, flags) (`bovada_kernel`'s)
_CODES: dict[tuple[bool, bytes], tuple[int, int, int]] = {}


def _template_code(player: bool, rest: str, x: str | None, y: str | None
                   ) -> tuple[int, int, int]:
    """What a line of this template does, as `bovada_fast._classify` (a player's line, `rest`
    the text after `LABEL : `) or `_note_line` (another line) reads it: (opcode, its
    argument, flags: plays 1, never twice 2, ante 4, blind scan code << 3); OP_BAD when the
    parser's `_action` does not find the amounts `scan` found (x, y)."""
    from audit.importers import bovada as bv
    from audit.importers import bovada_kernel as k

    act = bv._action(rest)
    if act is None or act[2] != x or act[3] != y:
        return k.OP_BAD, 0, 0
    v, paren, _, _ = act
    if not player:
        note = bv._NOTES.get(v)
        return (k.OP_NOTE, k.NOTES.index(note), 0) if note is not None else (k.OP_BAD, 0, 0)
    flags = (not rest.startswith(_NOT_PLAYS)) | (rest.startswith(bv._NEVER_TWICE) << 1) | \
        (rest.startswith("Ante chip") << 2)
    if rest.startswith(("Small Blind ", "Small blind ", "Ante/Small")):
        scan = k.S_SB
    elif rest.startswith(("Big blind", "Big Blind")):
        scan = k.S_BB
    elif rest.startswith("All-in "):
        scan = k.S_BB_ALLIN
    elif rest.startswith("Card dealt") or rest.startswith(("Fold", "Call", "Raise", "Bet")):
        scan = k.S_STOP
    else:
        scan = k.S_NONE
    if rest.startswith("Posts dead chip "):
        return k.OP_BAD, 0, 0
    flags |= scan << 3
    if v in bv._FOLDS:
        return k.OP_FOLD, 0, flags
    if v in ("checks", "check"):
        return k.OP_CHECK, 0, flags
    if v in bv._POSTS:
        kind = {"small_blind": k.D_SB, "big_blind": k.D_BB, "ante": k.D_ANTE,
                "new_player": k.D_NEW_PLAYER}.get(bv._POSTS[v])
        if x is None or kind is None:
            return k.OP_BAD, 0, flags
        return k.OP_POST, kind, flags
    if v in bv._NOTES:
        return k.OP_NOTE, k.NOTES.index(bv._NOTES[v]), flags
    if x is None:
        return k.OP_BAD, 0, flags
    if v in ("call", "calls"):
        return k.OP_CALL, 0, flags
    if v in ("bets", "d bets", "double bets", "bets chip info"):
        return k.OP_BET, 0, flags
    if v in ("raises", "raise"):
        return k.OP_RAISE, 0, flags
    if v == "all-in":
        return k.OP_ALLIN, int(bool(paren and paren.startswith("raise"))), flags
    if v.startswith("return uncalled"):
        return k.OP_UNCALLED, 0, flags
    if v == "hand result":
        return k.OP_RESULT, 0, flags
    if v.startswith("hand result-side pot"):
        return k.OP_SIDE, 0, flags
    return k.OP_BAD, 0, flags


_HEADS: dict[str, tuple[Any, ...] | None] = {}


def _head(text: str) -> tuple[Any, ...] | None:
    """What a header says beside its hand number and clock, as the fast path reads it:
    (hand number, table id, variant, structure, tournament, level or None, the level's
    blinds in cents and in chips (None: not read so), ts, the source's notes: the clock's, the
    structure's when the header names only a speed); None when the kernel does not read the
    hand (stud, a header or clock the fast path refuses, a level that does not fit)."""
    from audit.importers import bovada as bv
    from audit.importers.bovada_fast import _utc_micros

    m = bv._HEADER.match(text)
    if m is None:
        return None
    _, hand_no, rest, stamp, zone = m.groups()
    info = bv._table_and_game(rest)
    if isinstance(info, str) or info["variant"] not in (
            "holdem", "omaha", "omaha_hilo"):
        return None
    try:
        ts, note = _utc_micros(stamp, zone)
    except Exception:  # noqa: BLE001 - the fast path gives such a hand up
        return None
    if info["speed"]:
        note += (f";structure={info['structure']} (the header names only the speed "
                 f"{info['speed']!r})")
    level = info["level"]
    blinds: list[Any] = [None, None]
    if level is not None:
        if not -_INT32 <= level[0] < _INT32:
            return None
        for j, dollars in enumerate((True, False)):
            try:
                money = bv._Money(dollars)
                blinds[j] = (money(level[1], 0), money(level[2], 0))
            except Exception:  # noqa: BLE001 - the fast path gives such a hand up
                blinds[j] = None
            else:
                if not all(-(1 << 63) <= v < 1 << 63 for v in blinds[j]):
                    blinds[j] = None
    return (hand_no, info["table"], info["variant"], info["structure"], info["tournament"],
            level[0] if level else None, blinds[0], blinds[1], ts, note)


def _header(text: str) -> tuple[Any, ...] | None:
    got = _HEADS.get(text, False)
    if got is False:
        got = _head(text)
        if len(_HEADS) >= _MEMO:
            _HEADS.clear()
        _HEADS[text] = got
    return got  # type: ignore[return-value]


class _Text:
    """The texts the columns take beside the file's bytes, appended after them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.out = bytearray(b"\n")
        self.known: dict[str, tuple[int, int]] = {}

    def put(self, text: str) -> tuple[int, int]:
        got = self.known.get(text)
        if got is None:
            lo = self.size + len(self.out)
            self.out += text.encode()
            got = self.known[text] = (lo, self.size + len(self.out))
        return got


def _lines(raw: bytes) -> tuple[np.ndarray, ...] | None:
    t = TEXT.get()
    assert t is not None
    data = np.frombuffer(bytearray(raw), dtype=np.uint8)
    n = line_count(raw)
    begin, lo, hi = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    odd = np.empty(n, np.bool_)
    t.lines_of(data, begin, lo, hi, odd)
    limits = read_limits()
    ends = np.append(begin[1:] - 1, len(data)) if n else begin
    if len(raw) > limits.line_bytes and n and int((ends - begin).max()) > limits.line_bytes:
        return None
    return data, begin, lo, hi, odd, ends


def _header_lines(raw: bytes, data: np.ndarray, begin: np.ndarray, hi: np.ndarray
                  ) -> np.ndarray:
    """The lines `bovada._HEADER_LINE` matches (the kernel's `header_lines`; a line it
    cannot tell alone, a digit of another script after ` Hand #`, by the pattern itself)."""
    from audit.importers.bovada import _HEADER_LINE as header

    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(begin), np.int64)
    k.header_lines(data, begin, hi, out)
    for i in np.flatnonzero(out == 2).tolist():
        out[i] = bool(header.match(raw[begin[i]:hi[i]].decode("utf-8")))
    return np.flatnonzero(out == 1)


def read_compiled(path: Path, chunk_hands: int) -> Iterator[Chunk] | None:
    """The chunks of `path` (a generator), or None when the compiled pass leaves the file to
    `read_bovada` (see the module docstring) or numba is not here."""
    from audit.compiled import compile_failures

    if KERNEL.get() is None or TEXT.get() is None:
        return None
    raw = plain_text_bytes(path)
    if raw is None:
        return None
    try:
        prefix = f"bovada:{path.name}:"
        prefix.encode("utf-8")
    except UnicodeEncodeError:
        return None
    try:
        cut = _lines(raw)
        if cut is None:
            return None
        data, begin, lo, hi, odd, ends = cut
        n = len(begin)
        heads = _header_lines(raw, data, begin, hi)
        if not len(heads):
            return None
        if heads[0] and (lo[:heads[0]] != hi[:heads[0]]).any():
            return None  # text before the first hand: `read_bovada` quarantines it
        first = heads
        last = np.empty_like(heads)
        last[:-1] = heads[1:]
        last[-1] = n
        limits = read_limits()
        if len(raw) + _PER_LINE_COST * n > limits.hand_bytes:
            sizes = np.add.reduceat(ends - begin + _PER_LINE_COST, first)
            if int(sizes.max()) > limits.hand_bytes:
                return None
        rows, ok, row0 = _rows(raw, data, begin, lo, hi, odd, first, last, prefix)
    except compile_failures() as exc:
        KERNEL.failed(exc)
        return None
    return _chunks(raw, begin, first, last, rows, ok, row0, path, chunk_hands)


def _rows(raw: bytes, data: np.ndarray, begin: np.ndarray, lo: np.ndarray, hi: np.ndarray,
          odd: np.ndarray, first: np.ndarray, last: np.ndarray, prefix: str
          ) -> tuple[tuple[pa.Table, np.ndarray], np.ndarray, np.ndarray]:
    """The kernel's rows of the hands it reads: ((table, each row's line), ok, row0)."""
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    n_lines = len(begin)
    n = len(first)
    kind = np.full(n_lines, -1, np.int64)
    sep, tend, x0, x1, y0, y1, hsh = (np.empty(n_lines, np.int64) for _ in range(7))
    k.scan(data, begin, lo, hi, first, last, kind, sep, tend, x0, x1, y0, y1, hsh)
    # each distinct template read once
    at = np.flatnonzero((kind == k.L_PLAYER) | (kind == k.L_OTHER))
    cls = np.full(n_lines, -1, np.int64)
    uniq, where, inverse = np.unique(hsh[at], return_index=True, return_inverse=True)
    cls[at] = inverse
    m = len(uniq)
    c_op, c_arg, c_flags = np.zeros(m, np.int64), np.zeros(m, np.int64), np.zeros(m, np.int64)
    c_tlo, c_thi = np.zeros(m, np.int64), np.zeros(m, np.int64)
    for c, i in enumerate(at[where].tolist()):
        player = bool(sep[i] >= 0)
        r0 = int(sep[i]) + 3 if player else int(begin[i])
        te = int(tend[i])
        c_tlo[c], c_thi[c] = r0, te
        template = raw[r0:te]
        code = _CODES.get((player, template))
        if code is None:
            x = raw[x0[i]:x1[i]].decode() if x0[i] >= 0 else None
            y = raw[y0[i]:y1[i]].decode() if y0[i] >= 0 else None
            try:
                code = _template_code(player, raw[r0:hi[i]].decode(), x, y)
            except UnicodeDecodeError:
                code = (k.OP_BAD, 0, 0)
            if len(_CODES) >= _MEMO:
                _CODES.clear()
            _CODES[(player, template)] = code
        c_op[c], c_arg[c], c_flags[c] = code
    # each header once
    use = np.zeros(n, np.bool_)
    params = np.zeros((9, n), np.int64)
    info: list[Any] = [None] * n
    starts, stops = begin[first].tolist(), hi[first].tolist()
    for h in range(n):
        try:
            got = _header(raw[starts[h]:stops[h]].decode())
        except UnicodeDecodeError:
            got = None
        if got is None:
            continue
        info[h] = got
        use[h] = True
        params[0, h] = got[2] != "holdem"
        params[8, h] = got[3] == "fixed_limit"
        if got[5] is not None:
            params[1, h] = 1
            for j, blinds in ((0, got[6]), (1, got[7])):
                if blinds is not None:
                    params[2 + 2 * j, h], params[3 + 2 * j, h] = blinds
                    params[6 + j, h] = 1
    extra = _Text(len(raw))
    const = _constant(extra)
    unknown = np.array([const["unknown2"], const["unknown4"]], np.int64).T.copy()
    size = 3 * int((last - first).sum()) + 40 * n + 64
    rows = np.empty((11, size), np.int64)
    per = np.zeros((12, n), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    count = k.hands(data, begin, lo, hi, odd, first, last, kind, sep, tend, x0, x1, y0, y1,
                    cls, c_op, c_arg, c_flags, c_tlo, c_thi, use, params, unknown, rows, per,
                    ok, row0)
    if not count:
        return (_SCHEMA.empty_table(), np.empty(0, np.int64)), ok, row0
    table = _table(k, t, data, begin, hi, rows[:, :count], per, ok, row0, info, extra, const,
                   prefix)
    return table, ok, row0


def _constant(extra: _Text) -> dict[str, Any]:
    from audit.importers import bovada_kernel as k

    at: dict[str, Any] = {"unknown2": extra.put("?? ??"), "unknown4": extra.put("?? ?? ?? ??")}
    spans = [extra.put(v) for v in k.KINDS]
    at["kind"] = np.array(spans, np.int64).T.copy()
    texts = [("total_pot=" if j == k.D_TOTAL else v) for j, v in enumerate(k.DETAILS)]
    at["detail"] = np.array([extra.put(v) for v in texts], np.int64).T.copy()
    return at


def _table(k: Any, t: Any, data: np.ndarray, begin: np.ndarray, hi: np.ndarray,
           rows: np.ndarray, per: np.ndarray,
           ok: np.ndarray, row0: np.ndarray, info: list[Any], extra: _Text,
           const: dict[str, Any], prefix: str) -> tuple[pa.Table, np.ndarray]:
    """The kernel's rows as a table of the events schema, and each row's line."""
    count = rows.shape[1]
    null = k.NULL
    r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail, r_line = \
        rows
    read = np.flatnonzero(ok)
    n = len(ok)
    # per hand: its texts' spans
    span = np.full((12, n), -1, np.int64)  # id, table, variant, structure, currency, note
    level = np.full(n, null, np.int64)
    ts = np.zeros(n, np.int64)
    tour = np.zeros(n, np.bool_)
    pre = extra.put(prefix)
    for h in read.tolist():
        hand_no, table, variant, structure, tournament, lv, _, _, when, note = info[h]
        span[0:2, h] = extra.put(f"bov:{hand_no}")
        if table is not None:
            span[2:4, h] = extra.put(table)
        span[4:6, h] = extra.put(variant)
        span[6:8, h] = extra.put(structure)
        span[8:10, h] = extra.put("USD" if per[7, h] else "CHIPS")
        if per[8, h]:
            note += ";seats=numbered in list order (the log lists player ids)"
        if per[11, h]:
            note += ";small_blind=assumed half the big blind (none posted)"
        if per[9, h]:
            note += ";repeated=lines the log repeats are notes"
        if per[10, h]:
            note += ";button=the empty seat before the small blind"
        if note:
            span[10:12, h] = extra.put(note)
        if lv is not None:
            level[h] = lv
        ts[h] = when
        tour[h] = tournament
    full = np.concatenate([data, np.frombuffer(bytes(extra.out), dtype=np.uint8)])
    first_row = np.zeros(count, np.bool_)
    first_row[row0[read]] = True
    spec = np.empty((7, 10, count), np.int64)
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    lo2[:], lo3[:], num[:] = -1, -1, null
    lo1[0], hi1[0] = span[0, r_hand], span[1, r_hand]
    lo1[1], hi1[1] = span[2, r_hand], span[3, r_hand]
    lo1[2], hi1[2] = const["kind"][0, r_kind], const["kind"][1, r_kind]
    lo1[3], hi1[3] = r_plo, r_phi
    lo1[4], hi1[4] = r_clo, r_chi
    has = r_detail >= 0
    codes = np.where(has, r_detail, 0)
    lo1[5] = np.where(has, const["detail"][0, codes], -1)
    hi1[5] = const["detail"][1, codes]
    total = r_detail == k.D_TOTAL
    num[5][total] = per[2, r_hand[total]]
    repeated = np.flatnonzero(r_detail == k.D_REPEATED)
    if len(repeated):  # the repeated line's text after its detail's
        at = r_line[repeated] - 1
        lo2[5][repeated], hi2[5][repeated] = begin[at], hi[at]
    lo1[6], hi1[6], num[6] = pre[0], pre[1], r_line
    lo3[6] = np.where(first_row, span[10, r_hand], -1)
    hi3[6] = span[11, r_hand]
    for c, j in ((7, 4), (8, 6), (9, 8)):
        lo1[c] = np.where(first_row, span[j, r_hand], -1)
        hi1[c] = span[j + 1, r_hand]
    offsets = np.empty((10, count + 1), np.int32)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, null, offsets)
    starts = np.zeros(11, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    out = np.empty(int(starts[-1]), np.uint8)
    t.text_fill(full, lo1, hi1, lo2, hi2, num, lo3, hi3, null, offsets, out, starts)
    valid = lo1 >= 0
    nulls = (~valid.all(axis=1)).tolist()
    bits = np.packbits(valid, axis=1, bitorder="little")
    width = bits.shape[1]
    bits_buf, off_buf, out_buf = pa.py_buffer(bits), pa.py_buffer(offsets), pa.py_buffer(out)
    size = 4 * (count + 1)
    edges = starts.tolist()
    text = [pa.Array.from_buffers(_STRING, count, [
        bits_buf.slice(c * width, width) if nulls[c] else None, off_buf.slice(c * size, size),
        out_buf.slice(edges[c], edges[c + 1] - edges[c])]) for c in range(10)]
    heads = bitmap(first_row)

    def head(values: np.ndarray, kind: pa.DataType) -> pa.Array:
        return pa.Array.from_buffers(kind, count, [heads, pa.py_buffer(values)])

    fixed_limit = per[5, r_hand].astype(np.bool_)
    bb = per[4, r_hand]
    game = pa.Array.from_buffers(_GAME, count, [heads], children=[
        text[7], text[8], head(per[3, r_hand], pa.int64()), head(bb, pa.int64()),
        fixed(bb.copy(), first_row & fixed_limit, pa.int64()),
        fixed(2 * bb, first_row & fixed_limit, pa.int64()),
        head(per[1, r_hand], pa.int64()),
        pa.nulls(count, pa.int64()), pa.nulls(count, pa.int64()), pa.nulls(count, pa.int64()),
        head(per[0, r_hand].astype(np.int8), pa.int8()),
        pa.nulls(count, pa.int8()),
        text[9],
        head(np.where(per[7, r_hand] != 0, 100, 1).astype(np.int64), pa.int64()),
        bools(tour[r_hand], first_row),
        fixed(level[r_hand].astype(np.int32), first_row & (level[r_hand] != null), pa.int32()),
        pa.nulls(count, pa.bool_()), pa.nulls(count, pa.string()), pa.nulls(count, pa.string()),
    ])
    columns = [
        text[0],
        fixed((np.arange(count) - row0[r_hand]).astype(np.int32), None, pa.int32()),
        head(ts[r_hand], _TS),
        text[1], text[2],
        fixed(r_seat.astype(np.int8), r_seat >= 0, pa.int8()),
        text[3],
        fixed(r_amount.copy(), r_amount != null, pa.int64()),
        fixed(r_total.copy(), r_total != null, pa.int64()),
        text[4], text[5], game, text[6],
    ]
    return pa.Table.from_arrays(columns, schema=_SCHEMA), r_line.copy()


@cache
def _reader() -> tuple[Any, ...]:
    from audit.importers import bovada as bv
    from audit.importers import bovada_fast as bf

    return bf._ColumnWriter, bf.map_fast, bv._map_bovada, bv._hand_id, bv._outside


def _chunks(raw: bytes, begin: np.ndarray, first: np.ndarray, last: np.ndarray,
            kernel: tuple[pa.Table, np.ndarray], ok: np.ndarray, row0: np.ndarray,
            path: Path, chunk_hands: int) -> Iterator[Chunk]:
    """`read_bovada`'s chunks: the kernel's hands as read, every other one as it reads it."""
    writer_of, map_fast, map_bovada, hand_id, outside = _reader()
    src, name = str(path), path.name
    table, lines = kernel
    okl = ok.tolist()
    starts = row0.tolist()
    writer = writer_of(chunk_hands, src, name)
    pieces: list[tuple[bool, Any]] = []  # (kernel's, hand index or the hand's id)
    count = 0
    for h in range(len(okl)):
        if okl[h]:
            pieces.append((True, h))
            count += 1
        else:
            block = _block(raw, begin, int(first[h]), int(last[h]))
            if block:
                got = map_fast(block, name)
                if got is not None:
                    writer.add_fast(got, block)
                    pieces.append((False, got[0]))
                    count += 1
                else:
                    mapped = writer.map_or_reject(block, hand_id(block[0][1]), map_bovada,
                                                  block, name)
                    if mapped is not None:
                        hand, end = mapped
                        writer.add(hand, raw_text(block if end is None else block[:end]))
                        pieces.append((False, hand.hand_id))
                        count += 1
                        if end is not None:
                            writer.rejected.append(outside(src, block[end:]))
        if count >= chunk_hands:
            yield _take(table, lines, starts, writer, pieces)
            pieces, count = [], 0
    if pieces or writer.pending:
        yield _take(table, lines, starts, writer, pieces)


def _block(raw: bytes, begin: np.ndarray, i0: int, i1: int) -> list[tuple[int, str]]:
    """Lines i0:i1 as `read_bovada` gives them to the parser: (number, text right-stripped),
    blank lines left out."""
    end = int(begin[i1]) if i1 < len(begin) else len(raw)
    parts = raw[int(begin[i0]):end].decode("utf-8").split("\n")
    return [(i0 + 1 + k, t) for k, t in enumerate(map(str.rstrip, parts)) if t]


def _take(table: pa.Table, lines: np.ndarray, starts: list[int], writer: Any,
          pieces: list[tuple[bool, Any]]) -> Chunk:
    other = writer.take() if writer.pending else None
    if other is None or not other.table.num_rows:
        spans = [(starts[h], starts[h + 1]) for mine_, h in pieces if mine_]
        if not spans:
            return Chunk(table=_SCHEMA.empty_table(),
                         rejected=other.rejected if other else [], lines=[])
        a, b = spans[0][0], spans[-1][1]
        mine = table if a == 0 and b == table.num_rows else table.slice(a, b - a)
        return Chunk(table=mine, rejected=other.rejected if other else [],
                     lines=lines[a:b].tolist())
    # the Python hands' rows: each hand from its first row (seq 0), matched by id in order;
    # the chunk's table the runs of both in hand order (slices: no copy)
    py = other.table
    seq = py.column("seq").to_numpy()
    ids = py.column("hand_id").to_pylist()
    heads = np.flatnonzero(seq == 0).tolist()
    ends = heads[1:] + [len(seq)]
    runs = iter(zip(heads, ends, strict=True))
    spans: list[tuple[bool, int, int]] = []  # (kernel's, first row, end)
    nxt = next(runs, None)
    for mine_, what in pieces:
        if mine_:
            a, b = starts[what], starts[what + 1]
        elif nxt is not None and ids[nxt[0]] == what:
            a, b = nxt
            nxt = next(runs, None)
        else:
            continue  # quarantined when the chunk was built
        if spans and spans[-1][0] == mine_ and spans[-1][2] == a:
            spans[-1] = (mine_, spans[-1][1], b)
        else:
            spans.append((mine_, a, b))
    parts = [(table if mine_ else py).slice(a, b - a) for mine_, a, b in spans]
    py_lines = other.lines
    row_lines: list[int] = []
    for mine_, a, b in spans:
        row_lines += lines[a:b].tolist() if mine_ else py_lines[a:b]
    both = pa.concat_tables(parts) if parts else _SCHEMA.empty_table()
    return Chunk(table=both, rejected=other.rejected, lines=row_lines)
