"""The read loop of a site-text reader with a compiled pass: a file's hands read from its
bytes by a room's numba kernel, the hands it does not read by the room's Python fast path and
line parser, the chunks exactly those of `columns.read_columns`.

`read_compiled` takes a file only when its bytes are plain: at most `MAX_BYTES` (the file is
held whole: memory stays that of a chunk), UTF-8 without a BOM, not UTF-16, no line over the
line limit and no hand over the hand limit, and its first non-blank line a hand's header (no
text outside hands); any other file returns None and is read by `read_columns` as before
(`plain_text_bytes` and `read_compiled_text` also give a room UTF-16 files and files with
byte-order marks, as the UTF-8 text `sitetext` reads them as). The
room gives a `CompiledRoom`: which lines start a hand (`is_header`) and the rows of the hands
its kernel reads (`rows`: a table of the schema and each row's line, with which hands it
read). Each hand it did not read is cut from the file's text as `sitetext.split_blocks` cuts
it and goes to the room's fast path and line parser, in file order; a chunk's table is the
kernel's rows and the others' rows in hand order (one take), its lines and rejections those
`read_columns` gives.
"""

from __future__ import annotations

import codecs
import importlib
import os
import stat
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from audit.importers.base import Chunk, read_limits
from audit.importers.columns import EventColumns, FastMap
from audit.importers.sitetext import _PER_LINE_COST, ChunkWriter, raw_text, utf16_encoding
from audit.importers.textkernel import ipc_pack, line_count
from audit.schema import events_schema

_SCHEMA = events_schema()
MAX_BYTES = 8 << 20  # a larger file is streamed by read_columns
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class Lines:
    """A file's bytes cut into lines: data[begin[i]:] is line i; data[lo[i]:hi[i]] its text
    stripped; odd[i]: its ends may hold a Unicode space (never read by a kernel)."""

    data: np.ndarray
    begin: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    odd: np.ndarray


@dataclass(frozen=True, slots=True)
class KernelRows:
    """The rows of the hands a kernel read: `table` (the events schema), `lines` (each row's
    line), `ok[h]` (hand h read), `row0[h]:row0[h + 1]` (its rows)."""

    table: pa.Table
    lines: np.ndarray
    ok: np.ndarray
    row0: np.ndarray


@dataclass(frozen=True, slots=True)
class CompiledRoom:
    """A room's compiled pass: `is_header(lines)` -> bool per line; `rows(lines, first,
    last, prefix)` -> `KernelRows` of the hands at lines first[h]:last[h]."""

    is_header: Callable[[Lines], np.ndarray]
    rows: Callable[[Lines, np.ndarray, np.ndarray, str], KernelRows]


def plain_bytes(path: Path) -> bytes | None:
    """The file's bytes when a compiled pass may read it whole (see the module docstring)."""
    raw = _head_bytes(path)
    return None if raw is None else plain_of(raw)


def _head_bytes(path: Path) -> bytes | None:
    """The file's first `MAX_BYTES` + 1 bytes, or None when it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _read_head(fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_head(fd: int) -> bytes:
    """`os.read(fd, MAX_BYTES + 1)` without a buffer of that size for a small regular file
    (tens of µs a file): its size asked first, a regular file gives all it holds up to the size
    asked; the rest read when it grew since."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
        return os.read(fd, MAX_BYTES + 1)
    head = os.read(fd, st.st_size + 1)
    if len(head) <= st.st_size:
        return head
    return head + os.read(fd, MAX_BYTES + 1 - len(head))


def plain_of(raw: bytes) -> bytes | None:
    """`raw` (a file's first `MAX_BYTES` + 1 bytes) when `plain_bytes` takes it, else None."""
    if utf16_encoding(raw[:512]):
        return None
    return _plain_utf8(raw)


def _plain_utf8(raw: bytes) -> bytes | None:
    """`plain_of` of `raw` known not to be UTF-16."""
    if len(raw) > MAX_BYTES or _BOM in raw:
        return None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return raw


def read_compiled(path: Path, room: CompiledRoom, lines_of: Callable[[np.ndarray], Any], *,
                  fmt: str, chunk_hands: int, fast: FastMap, map_hand: Any,
                  hand_id_of: Any) -> Iterator[Chunk] | None:
    """The chunks of `path` (a generator), or None when the file is not for a compiled pass."""
    raw = plain_bytes(path)
    if raw is None:
        return None
    return read_compiled_text(raw, path, room, lines_of, fmt=fmt, chunk_hands=chunk_hands,
                              fast=fast, map_hand=map_hand, hand_id_of=hand_id_of)


def read_room(path: Path, module: str, *, fmt: str, chunk_hands: int, fast: FastMap,
              map_hand: Any, hand_id_of: Any, min_bytes: int = 0,
              text_of: Callable[[Path], bytes | None] | None = None
              ) -> Iterator[Chunk] | None:
    """The chunks of a room's compiled pass over `path` (`module`: the room's glue, with its
    KERNEL, TEXT and ROOM), or None: a file under `min_bytes`, not plain (`plain_bytes`; or
    the room's own `text_of`, the text the pass reads or None), or no numba here (the
    kernel's failure said once)."""
    room = _ROOMS.get(module)
    if room is None:
        room = _ROOMS[module] = importlib.import_module(module)
    kernel, text = room.KERNEL.get(), room.TEXT.get()
    if kernel is None or text is None:
        return None
    if text_of is not None:
        raw = text_of(path)
    else:
        raw = _head_bytes(path)  # its size read with it: no stat of its own
        raw = None if raw is None or len(raw) < min_bytes else plain_of(raw)
    if raw is None:
        return None
    from audit.compiled import compile_failures

    try:
        return read_compiled_text(raw, path, room.ROOM, text.lines_of, fmt=fmt,
                                  chunk_hands=chunk_hands, fast=fast, map_hand=map_hand,
                                  hand_id_of=hand_id_of)
    except compile_failures() as exc:
        room.KERNEL.failed(exc)
        return None


_ROOMS: dict[str, Any] = {}  # a room's glue module by name, imported once


def plain_text_bytes(path: Path) -> bytes | None:
    """`plain_bytes`, or the text of a UTF-16 file or a UTF-8 file with byte-order marks (at
    most `MAX_BYTES`) as the UTF-8 bytes `sitetext` reads it as: UTF-16 decoded as
    `_Utf16AsUtf8` decodes it (a stray odd last byte dropped, a broken surrogate U+FFFD), the
    marks that start a line dropped as `_decode_piece` drops them (a file with another mark,
    or with marks and longer than the line limit, is not plain); else None."""
    raw = _head_bytes(path)
    if raw is None or len(raw) > MAX_BYTES:
        return None
    encoding = utf16_encoding(raw[:512])
    if encoding is None:
        plain = _plain_utf8(raw)
        if plain is not None or _BOM not in raw:
            return plain
        out = raw
    else:
        try:
            out = codecs.getincrementaldecoder(encoding)(errors="replace").decode(raw).encode(
                "utf-8")
        except UnicodeError:
            return None
    if _BOM in out:  # `sitetext` drops byte-order marks that start a line
        if len(out) > read_limits().line_bytes:
            return None  # a line's length as the limit counts it: its marks included
        out = _line_boms_dropped(out)
        if out is None:
            return None
    try:
        out.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return out


def _line_boms_dropped(text: bytes) -> bytes | None:
    """`text` without the byte-order marks that start a line, or None when another is left
    or when its last line is marks alone with no newline after them: the line parser reads
    that as an empty last line, which text without the marks cannot hold."""
    last = text[text.rfind(b"\n") + 1:]
    if last and not last.replace(_BOM, b""):
        return None
    while text.startswith(_BOM):
        text = text[len(_BOM):]
    mark = b"\n" + _BOM
    while mark in text:
        text = text.replace(mark, b"\n")
    return None if _BOM in text else text


def read_compiled_text(raw: bytes, path: Path, room: CompiledRoom,
                       lines_of: Callable[[np.ndarray], Any], *, fmt: str, chunk_hands: int,
                       fast: FastMap, map_hand: Any, hand_id_of: Any
                       ) -> Iterator[Chunk] | None:
    """`read_compiled` of the file `path` whose text is `raw` (`plain_bytes` or
    `plain_text_bytes` of it)."""
    # writeable: numba types a read-only array by its slow path (tens of µs a call)
    data = np.frombuffer(bytearray(raw), dtype=np.uint8)
    n = line_count(raw)
    begin, lo, hi = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    odd = np.empty(n, np.bool_)
    lines_of(data, begin, lo, hi, odd)
    lines = Lines(data, begin, lo, hi, odd)
    limits = read_limits()
    if len(raw) > limits.line_bytes:  # a line may be over the limit
        ends = np.append(begin[1:] - 1, len(data)) if len(begin) else begin
        if len(begin) and int((ends - begin).max()) > limits.line_bytes:
            return None
    heads = room.is_header(lines).nonzero()[0]
    if not len(heads) or heads[0] and (lo[:heads[0]] != hi[:heads[0]]).any():
        return None
    first = heads
    last = np.empty_like(heads)
    last[:-1] = heads[1:]
    last[-1] = n
    # a hand's size as split_blocks counts it (characters <= bytes): over the limit, not here
    if len(raw) + _PER_LINE_COST * n > limits.hand_bytes:
        ends = np.append(begin[1:] - 1, len(data))
        sizes = np.add.reduceat(ends - begin + _PER_LINE_COST, first)
        if int(sizes.max()) > limits.hand_bytes:
            return None
    prefix = f"{fmt}:{path.name}:"
    try:
        prefix.encode("utf-8")
    except UnicodeEncodeError:
        return None
    kernel = room.rows(lines, first, last, prefix)
    return _chunks(raw, lines, first, last, kernel, path, chunk_hands=chunk_hands, fast=fast,
                   map_hand=map_hand, hand_id_of=hand_id_of)


def _block(raw: bytes, lines: Lines, i0: int, i1: int) -> list[tuple[int, str]]:
    """Lines i0:i1 as `split_blocks` gives them: (number, text right-stripped)."""
    end = int(lines.begin[i1]) if i1 < len(lines.begin) else len(raw)
    text = raw[int(lines.begin[i0]):end].decode("utf-8")
    parts = text.split("\n")
    if text.endswith("\n"):
        parts.pop()
    return [(i0 + 1 + k, t.rstrip()) for k, t in enumerate(parts)]


def _chunks(raw: bytes, lines: Lines, first: np.ndarray, last: np.ndarray, kernel: KernelRows,
            path: Path, *, chunk_hands: int, fast: FastMap, map_hand: Any, hand_id_of: Any
            ) -> Iterator[Chunk]:
    out = ChunkWriter(chunk_hands, str(path))
    name = path.name
    ok = kernel.ok.tolist()
    row0 = kernel.row0
    cols = EventColumns()
    kept: list[int | list[tuple[int, str]]] = []  # a hand the kernel read, or its block
    # the chunk's rows: kernel rows k0:k1 and (position, size) of the others' rows
    k0 = k1 = int(row0[0]) if len(row0) else 0
    spans: list[tuple[str, int, int]] = []
    h = 0
    n_hands = len(ok)
    while h < n_hands:
        if ok[h]:  # a run of hands the kernel read, up to the chunk's end
            end = h + 1
            room = chunk_hands - len(kept)
            while end < n_hands and ok[end] and end - h < room:
                end += 1
            a, b = int(row0[h]), int(row0[end])
            if spans and spans[-1][0] == "k":
                spans[-1] = ("k", spans[-1][1], b)
            else:
                spans.append(("k", a, b))
            k1 = b
            kept.extend(range(h, end))
            h = end
        else:
            block = _block(raw, lines, int(first[h]), int(last[h]))
            h += 1
            size = len(cols)
            try:
                read = fast(block, name, cols)
            except Exception:  # noqa: BLE001 - the line parser decides what a hand is
                read = False
            if not read:
                cols.truncate(size)
                hand = out.map_or_reject(block, hand_id_of(block[0][1]), map_hand, block, name)
                if hand is None:
                    continue
                cols.add_rows(hand.rows, hand.lines)
            spans.append(("p", size, len(cols)))
            kept.append(block)
        if len(kept) >= chunk_hands:
            yield _take(raw, lines, first, last, out, kernel, cols, kept, spans, (k0, k1),
                        map_hand, hand_id_of, name)
            cols, kept, spans = EventColumns(), [], []
            k0 = k1
    if kept or out.rejected:
        yield _take(raw, lines, first, last, out, kernel, cols, kept, spans, (k0, k1),
                    map_hand, hand_id_of, name)


def _take(raw: bytes, lines: Lines, first: np.ndarray, last: np.ndarray, out: ChunkWriter,
          kernel: KernelRows, cols: EventColumns, kept: list[Any],
          spans: list[tuple[str, int, int]], krows: tuple[int, int], map_hand: Any,
          hand_id_of: Any, name: str) -> Chunk:
    k0, k1 = krows
    try:
        other = cols.table() if len(cols) else None
    except (pa.ArrowException, OverflowError, ValueError, TypeError):
        # as columns._take: the chunk's hands mapped by the line parser, the unfit quarantined
        for item in kept:
            block = item if isinstance(item, list) else _block(
                raw, lines, int(first[item]), int(last[item]))
            hand = out.map_or_reject(block, hand_id_of(block[0][1]), map_hand, block, name)
            if hand is not None:
                out.add(hand, raw_text(block))
        return out.take()
    return interleaved(out, kernel.table, kernel.lines, (k0, k1), other, cols.lines, spans)


def interleaved(out: ChunkWriter, table: pa.Table | None, lines: np.ndarray,
                krows: tuple[int, int], other: pa.Table | None, other_lines: list[int],
                spans: list[tuple[str, int, int]]) -> Chunk:
    """A chunk of the kernel's rows k0:k1 of `table` (their source lines `lines`) and the
    Python paths' rows `other` (`other_lines`) in file order: `spans` lists runs of rows,
    ("k", a, b) the kernel's a:b, else the other's a:b; the writer's rejected hands go with
    it."""
    k0, k1 = krows
    if k1 <= k0 or table is None:
        mine = None
    elif k0 == 0 and k1 == table.num_rows:
        mine = table  # the kernel read every hand of a one-chunk file: no slice
    else:
        mine = table.slice(k0, k1 - k0)
    if other is None:
        chunk_table = mine if mine is not None else _SCHEMA.empty_table()
        row_lines = lines[k0:k1].tolist() if mine is not None else []
    elif mine is None:
        chunk_table = other
        row_lines = other_lines
    else:
        n_mine = k1 - k0
        order = np.concatenate([np.arange(a - k0, b - k0) if kind == "k" else
                                np.arange(n_mine + a, n_mine + b) for kind, a, b in spans])
        chunk_table = pa.concat_tables([mine, other]).take(order)
        row_lines = np.concatenate([lines[k0:k1],
                                    np.asarray(other_lines, dtype=np.int64)])[order].tolist()
    chunk = Chunk(table=chunk_table, rejected=out.rejected, lines=row_lines)
    out.rejected = []
    return chunk


def bitmap(valid: np.ndarray | None) -> pa.Buffer | None:
    if valid is None or valid.all():
        return None
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def fixed(values: np.ndarray, valid: np.ndarray | None, kind: pa.DataType) -> pa.Array:
    """`values` (already of `kind`'s width) as `kind`, null where not `valid` (Bovada's glue
    builds its arrays one by one: its table is not one IPC message yet)."""
    return pa.Array.from_buffers(kind, len(values), [bitmap(valid), pa.py_buffer(values)])


def bools(values: np.ndarray, valid: np.ndarray | None) -> pa.Array:
    """`values` as booleans, null where not `valid`."""
    return pa.Array.from_buffers(pa.bool_(), len(values), [
        bitmap(valid), pa.py_buffer(np.packbits(values, bitorder="little"))])


# --- a kernel's columns as one Arrow IPC message ---------------------------------------------
# Building ~35 arrays one `from_buffers` call at a time costs ~100-170 µs a file; the same
# columns laid out in one buffer and read as a record batch message cost ~20 µs. The
# message's metadata is the one pyarrow writes for the events schema (`_template`: taken from
# a batch it serialises, the places of the row count, body length, field nodes and buffers
# found by reading its flatbuffer); only those numbers are written per file.


@dataclass(frozen=True, slots=True)
class _Template:
    """The events schema's message metadata (`array`, its 8-byte prefix with it) and the
    places of its numbers: row count, body length, field nodes and buffers (their counts)."""

    array: np.ndarray
    length: int
    body_length: int
    nodes: int
    n_nodes: int
    buffers: int
    n_buffers: int


def _make_template() -> _Template:
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
    nodes = field(batch, 1) + u32(field(batch, 1))
    buffers = field(batch, 2) + u32(field(batch, 2))
    out = _Template(array=np.frombuffer(message[:8 + size], np.uint8).copy(),
                    length=8 + field(batch, 0), body_length=8 + field(message_table, 3),
                    nodes=8 + nodes + 4, n_nodes=u32(nodes), buffers=8 + buffers + 4,
                    n_buffers=u32(buffers))
    if out.nodes % 8 or out.buffers % 8 or out.length % 8 or out.body_length % 8 or \
            (8 + size) % 8 or struct.unpack_from("<q", message, out.length)[0] != 3 or \
            struct.unpack_from("<q", message, out.body_length)[0] != len(message) - 8 - size:
        raise ValueError("the template message is not laid out as expected")
    return out


_TEMPLATE: list[_Template | None] = []


def _template() -> _Template | None:
    """The events schema's template message, or None when pyarrow lays it out otherwise."""
    if not _TEMPLATE:
        try:
            _TEMPLATE.append(_make_template())
        except (ValueError, IndexError, struct.error, pa.ArrowException):
            _TEMPLATE.append(None)
    return _TEMPLATE[0]


# the kinds of `IpcLayout.fields` (as `textkernel`'s)
_KINDS = {"s": 0, "i64": 1, "i32": 2, "i8": 3, "b": 4, "g": 5}
_NO_NULLS, _ALL_NULL = -2, -1
_TYPES = {"i64": pa.int64(), "i32": pa.int32(), "i8": pa.int8(), "b": pa.bool_()}


class IpcLayout:
    """How a room's kernel columns make the events table: per schema field in depth-first
    order (`fields`) its kind, its validity and its data row: ("s", mask, offsets row) a
    string, ("i64" | "i32" | "i8", mask, row) fixed width, ("b", mask, bools row) a boolean,
    ("g", mask) the game struct; a mask is a row of the file's `masks` (None: no nulls, -1:
    all null; a row -1: none). The columns come as int64 rows, int32 rows, int8 rows, masks,
    boolean rows and the string columns' offsets and bytes (`text_sizes` / `text_fill`):
    `message` lays out a message of a file's sizes (its strings written in place by
    `text_fill`), `table` reads it as the table."""

    def __init__(self, fields: tuple[tuple[Any, ...], ...], *, i64: int, i32: int, i8: int,
                 masks: int, bools: int, texts: int) -> None:
        self.spec = fields
        self.rows = (i64, i32, i8, masks, bools, texts)
        self.fields = np.array([(_KINDS[f[0]], _NO_NULLS if f[1] is None else f[1],
                                 f[2] if len(f) > 2 else 0) for f in fields], np.int64)
        self.n_buffers = sum(3 if f[0] == "s" else 1 if f[0] == "g" else 2 for f in fields)
        template = _template()
        if template is not None and (template.n_nodes, template.n_buffers) != (
                len(fields), self.n_buffers):
            raise ValueError("the layout's fields are not the events schema's")
        # where `ipc_pack` writes the row count, the body length, the nodes, the buffers
        self.places = np.array([0] * 5 if template is None else [
            template.length, template.body_length, template.nodes, template.buffers,
            self.n_buffers], np.int64)

    def message(self, count: int, size: int) -> tuple[np.ndarray, list[int], np.ndarray]:
        """A zeroed message of `count` rows and `size` bytes of strings, its template
        metadata written (empty when there is no template), the regions' starts (int64,
        int32, int8, bits, offsets, strings, end) and where `text_fill` writes the strings
        (the string region, or a buffer of their own when there is no template)."""
        template = _template()
        if template is None:
            return np.empty(0, np.uint8), [0] * 7, np.empty(size, np.uint8)
        i64, i32, i8, masks, bools, texts = self.rows
        c8 = (count + 7) // 8 * 8
        width = ((count + 7) // 8 + 7) // 8 * 8
        co = (count + 2) // 2 * 2
        at = [len(template.array)]
        for part in (8 * i64 * count, 4 * i32 * c8, i8 * c8, (masks + bools + 1) * width,
                     4 * (texts + 1) * co, (size + 7) // 8 * 8):
            at.append(at[-1] + part)
        message = np.zeros(at[-1], np.uint8)
        message[:at[0]] = template.array
        return message, at, message[at[5]:at[5] + size]

    def table(self, message: np.ndarray, at: list[int], count: int, strings: np.ndarray,
              i64: np.ndarray, i32: np.ndarray, i8: np.ndarray, masks: np.ndarray,
              bools: np.ndarray, offsets: np.ndarray, starts: np.ndarray) -> pa.Table:
        """The table of a file's columns (`message`, `at` and `strings` from `message`, the
        strings written)."""
        template = _template()
        if template is None:
            return self._arrays(count, strings, i64, i32, i8, masks, bools, offsets, starts)
        ipc_pack(message, self.places, np.array(at, np.int64), count, i64, i32, i8, masks,
                 bools, offsets, starts, self.fields, len(strings))
        batch = pa.ipc.read_record_batch(pa.py_buffer(message), _SCHEMA)
        return pa.Table.from_batches([batch])

    def _arrays(self, count: int, strings: np.ndarray, i64: np.ndarray, i32: np.ndarray,
                i8: np.ndarray, masks: np.ndarray, bools: np.ndarray, offsets: np.ndarray,
                starts: np.ndarray) -> pa.Table:
        """`table` built array by array (pyarrow's message laid out otherwise)."""
        text_out = pa.py_buffer(strings)
        edges = starts.tolist()

        def mask(m: int | None) -> pa.Buffer | None:
            if m is None:
                return None
            if m == _ALL_NULL:
                return bitmap(np.zeros(count, np.bool_))
            return bitmap(masks[m])

        spec = iter(self.spec)

        def build(kind: pa.DataType) -> pa.Array:
            f = next(spec)
            valid = mask(f[1])
            if f[0] == "g":
                children = [build(t.type) for t in kind]
                return pa.Array.from_buffers(kind, count, [valid], children=children)
            if f[0] == "s":
                if f[1] == _ALL_NULL:
                    return pa.nulls(count, kind)
                c = f[2]
                return pa.Array.from_buffers(kind, count, [
                    valid, pa.py_buffer(offsets[c].copy()),
                    text_out.slice(edges[c], edges[c + 1] - edges[c])])
            if f[1] == _ALL_NULL:
                return pa.nulls(count, kind)
            if f[0] == "b":
                return pa.Array.from_buffers(kind, count, [valid, pa.py_buffer(
                    np.packbits(bools[f[2]], bitorder="little"))])
            rows = {"i64": i64, "i32": i32, "i8": i8}[f[0]]
            return pa.Array.from_buffers(kind, count, [valid, pa.py_buffer(
                np.ascontiguousarray(rows[f[2]]))])

        columns = [build(field.type) for field in _SCHEMA]
        return pa.Table.from_arrays(columns, schema=_SCHEMA)
