"""Merkle trees over hands: one leaf per hand, one root per committed batch.

A leaf is the SHA-256 of a hand's canonical bytes; the tree is RFC 6962's (leaves hashed
with a 0x00 prefix, inner nodes with 0x01, an odd node promoted unchanged to the next level),
so a proof that one hand is in a batch is one sibling hash per level, and no two different
trees or hands share a root.

Canonical bytes of a hand (version `LEAF_ENCODING`), built column by column so ingest can
compute every leaf of a table with vectorised Arrow kernels (per-row Python would cost
seconds per million events):

    hand_id  row_count ";"  then, per column of the events schema after hand_id, the
    hand's values of that column in row order

A value is `~` when null, `<decimal>;` for an integer (timestamps as microseconds since
the epoch), `<byte length>:<utf-8 bytes>` for a string, and `{` followed by every field
for a non-null `game` struct. Every value is self-delimiting and the row count is given,
so the encoding is injective: two different hands never share canonical bytes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from audit.compiled import CompiledModule, compile_failures
from audit.schema import events_schema

LEAF_ENCODING = "hand-events-v1"
TREE = "rfc6962-sha256"
_NULL = "~"


def _value(arr: pa.Array, dtype: pa.DataType) -> pa.Array:
    """One self-delimiting value per row (null where null): game fields only."""
    if pa.types.is_string(dtype):
        return pc.binary_join_element_wise(
            pc.cast(pc.binary_length(arr), pa.string()), ":", arr, ""
        )
    return pc.binary_join_element_wise(_digits(arr, dtype), ";", "")


def _digits(arr: pa.Array, dtype: pa.DataType) -> pa.Array:
    if pa.types.is_timestamp(dtype):
        arr = pc.cast(arr, pa.int64())
    return pc.cast(arr, pa.string())


def _struct_per_hand(arr: pa.Array, dtype: pa.StructType, starts: np.ndarray,
                     offsets: pa.Array) -> pa.Array:
    """Per hand, each non-null struct row as `<row in hand>@{` plus its fields. Only the few
    non-null rows (a game config sits on hand_started alone) are encoded."""
    rows = pc.indices_nonzero(pc.is_valid(arr)).to_numpy().astype(np.int64)
    hand = np.searchsorted(starts, rows, side="right") - 1
    present = arr.take(pa.array(rows))
    fields = [pc.fill_null(_value(pc.struct_field(present, [i]), f.type), _NULL)
              for i, f in enumerate(dtype)]
    position = pc.cast(pa.array(rows - starts[hand] if len(rows) else rows), pa.string())
    body = pc.binary_join_element_wise(position, "@{", *fields, "")
    per_hand = np.bincount(hand, minlength=len(offsets) - 1) if len(rows) else np.zeros(
        len(offsets) - 1, np.int64)
    bounds = pa.array(np.concatenate([[0], np.cumsum(per_hand)]).astype(np.int32))
    return _per_hand(body, bounds, "")


def _per_hand(values: pa.Array, offsets: pa.Array, separator: str) -> pa.Array:
    """Join each hand's run of values (rows offsets[i]..offsets[i+1]) with a separator."""
    return pc.binary_join(pa.ListArray.from_arrays(offsets, values), separator)


def _column(arr: pa.Array, dtype: pa.DataType, offsets: pa.Array) -> list[pa.Array]:
    """A column's per-hand text. Integers: `v;v;...|` (`~` for null). Strings: their byte
    lengths `n;n;...|` (`~` for null), then the bytes back to back."""
    if pa.types.is_string(dtype):
        lengths = pc.fill_null(pc.cast(pc.binary_length(arr), pa.string()), _NULL)
        return [_per_hand(lengths, offsets, ";"), pa.scalar("|"),
                _per_hand(pc.fill_null(arr, ""), offsets, "")]
    return [_per_hand(pc.fill_null(_digits(arr, dtype), _NULL), offsets, ";"), pa.scalar("|")]


def events_table(table: pa.Table, coded: Sequence[str] = ()) -> pa.Table:
    """`table` cast to the events schema, except that the string columns named in `coded`
    which it holds as one dictionary array (no null entry; a null row is a null index) stay
    dictionary arrays: the same values, not expanded into a string per row."""
    schema = events_schema()
    fields = []
    for f in schema:
        if f.name in coded and _is_coded(table, f):
            f = pa.field(f.name, table.schema.field(f.name).type, f.nullable, f.metadata)
        fields.append(f)
    return table.cast(pa.schema(fields, metadata=schema.metadata))


def _is_coded(table: pa.Table, field: pa.Field) -> bool:
    if field.name not in table.schema.names:
        return False
    type_ = table.schema.field(field.name).type
    if not pa.types.is_dictionary(type_) or type_.value_type != field.type:
        return False
    column = table.column(field.name)
    return column.num_chunks <= 1 and all(c.dictionary.null_count == 0 for c in column.chunks)


def hand_starts(table: pa.Table) -> np.ndarray:
    """Row index of each hand's first event (hands are contiguous; seq 0 starts one)."""
    seq = table.column("seq").combine_chunks()
    starts: np.ndarray = pc.indices_nonzero(pc.equal(seq, 0)).to_numpy().astype(np.int64)
    return starts


def canonical_hands(table: pa.Table) -> tuple[list[str], pa.Array]:
    """(hand ids, canonical bytes of each hand) for a table of whole, contiguous hands."""
    table = table.cast(events_schema()).combine_chunks()
    starts = hand_starts(table)
    if table.num_rows and (len(starts) == 0 or starts[0] != 0):
        raise ValueError("events do not start with a hand's seq 0")
    bounds = np.append(starts, table.num_rows)
    offsets = pa.array(bounds.astype(np.int32), pa.int32())
    ids = table.column("hand_id").take(pa.array(starts)).combine_chunks()
    counts = pc.cast(pa.array(np.diff(bounds)), pa.string())
    parts: list[pa.Array | pa.Scalar] = [_value(ids, pa.string()), counts, pa.scalar(";")]
    for field in events_schema():
        if field.name == "hand_id":
            continue
        column = table.column(field.name)
        arr = column.chunk(0) if column.num_chunks else pa.array([], field.type)
        if isinstance(field.type, pa.StructType):
            parts += [_struct_per_hand(arr, field.type, starts, offsets), pa.scalar("|")]
        else:
            parts += _column(arr, field.type, offsets)
    return ids.to_pylist(), pc.binary_join_element_wise(*parts, "")


SLICE_BYTES = 256 << 20  # canonical text is built with 32-bit offsets: stay far below 2 GiB
SLICE_ROWS = 1 << 21  # the compiled writer's buffer is sized for the worst case per row
REFERENCE_ENV = "POKER_AUDIT_MERKLE_REFERENCE"  # =1: leaves from the Arrow reference only
# Below this many rows the Arrow reference takes milliseconds: a small ingest does not pay
# for importing numba (about half a second) or loading the compiled writer.
KERNEL_MIN_ROWS = 20_000


def hand_leaves(table: pa.Table) -> list[bytes]:
    """The Merkle leaf of every hand in the table, in row order (a large table is split at a
    hand boundary and done in halves). The compiled writer (audit.store.merkle_kernel) makes the
    canonical bytes where it can be built; the Arrow reference makes the same bytes."""
    if table.num_rows == 0:
        return []
    if table.nbytes > SLICE_BYTES or table.num_rows > SLICE_ROWS:
        starts = hand_starts(table)
        if len(starts) > 1:
            middle = int(starts[len(starts) // 2])
            return hand_leaves(table.slice(0, middle)) + hand_leaves(table.slice(middle))
    kernel = _kernel() if table.num_rows >= KERNEL_MIN_ROWS else None
    if kernel is not None:
        try:
            return compiled_leaves(table, kernel)
        except compile_failures() as exc:
            _LEAF_WRITER.failed(exc)
    return reference_leaves(table)


def reference_leaves(table: pa.Table) -> list[bytes]:
    """The leaves from canonical bytes built with Arrow string kernels (the definition)."""
    _, joined = canonical_hands(table)
    offsets = np.frombuffer(joined.buffers()[1], dtype=np.int32)[
        joined.offset: joined.offset + len(joined) + 1].tolist()
    data = memoryview(joined.buffers()[2]) if joined.buffers()[2] is not None else memoryview(b"")
    sha = hashlib.sha256
    return [sha(b"\x00" + data[a:b]).digest() for a, b in zip(offsets, offsets[1:], strict=False)]


# ---------------------------------------------------------------------------- compiled leaves

_LEAF_WRITER = CompiledModule("audit.store.merkle_kernel", "the compiled Merkle leaf writer",
                              "leaves come from the Arrow reference (same hashes, slower)")


def _kernel() -> Any:
    """audit.store.merkle_kernel, or None when numba cannot build it here (or REFERENCE_ENV is
    set); audit.compiled loads it once and warns once."""
    if os.environ.get(REFERENCE_ENV, "") not in ("", "0"):
        return None
    return _LEAF_WRITER.get()


def load_leaf_writer() -> None:
    """Load the compiled leaf writer now (threads that hash leaves then share it loaded)."""
    _kernel()


class _Strings:
    """String columns as absolute offsets into one shared byte buffer."""

    def __init__(self) -> None:
        self.chunks: list[np.ndarray] = []
        self.size = 0

    def add(self, arr: pa.Array, offsets: np.ndarray | None = None) -> np.ndarray:
        """The int64 offsets of a string array's n + 1 boundaries (written into `offsets`
        when given), its bytes appended to the shared buffer."""
        buffers = arr.buffers()
        own = np.frombuffer(buffers[1], dtype=np.int32)[arr.offset:arr.offset + len(arr) + 1]
        if offsets is None:
            offsets = np.empty(len(own), dtype=np.int64)
        first = int(own[0]) if len(own) else 0
        last = int(own[-1]) if len(own) else 0
        if buffers[2] is not None and last > first:
            self.chunks.append(np.frombuffer(buffers[2], dtype=np.uint8)[first:last])
        np.add(own, self.size - first, out=offsets, casting="unsafe")
        self.size += last - first
        return offsets

    def data(self) -> np.ndarray:
        return np.concatenate(self.chunks) if self.chunks else np.zeros(0, dtype=np.uint8)


def _valid(arr: pa.Array, out: np.ndarray | None = None) -> np.ndarray:
    """1 where the array holds a value, 0 where null (uint8), from its validity bitmap."""
    if out is None:
        out = np.empty(len(arr), dtype=np.uint8)
    bitmap = arr.buffers()[0]
    if arr.null_count == 0 or bitmap is None:
        out[:] = 1
    else:
        bits = np.unpackbits(np.frombuffer(bitmap, dtype=np.uint8), bitorder="little")
        out[:] = bits[arr.offset:arr.offset + len(arr)]
    return out


def _int64(arr: pa.Array, dtype: pa.DataType, out: np.ndarray | None = None) -> np.ndarray:
    """The values as int64, read from the value buffer: a null row's value is whatever the
    buffer holds there (the leaf writer reads a value only where the row is valid)."""
    if out is None:
        out = np.empty(len(arr), dtype=np.int64)
    data = arr.buffers()[1]
    if pa.types.is_boolean(dtype):
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        out[:] = bits[arr.offset:arr.offset + len(arr)]
    elif data is None or not len(arr):
        out[:] = 0
    else:
        width = dtype.bit_width // 8
        out[:] = np.frombuffer(data, dtype=np.dtype(f"<i{width}"))[arr.offset:
                                                                  arr.offset + len(arr)]
    return out


def compiled_leaves(table: pa.Table, kernel: Any) -> list[bytes]:
    """The leaves from canonical bytes written by the compiled kernel (same bytes as
    canonical_hands). Columns go to the kernel as numpy arrays filled straight from the
    Arrow buffers (one pass per column, no per-column temporaries stacked afterwards)."""
    schema = events_schema()
    string_names = [f.name for f in schema if pa.types.is_string(f.type)]
    table = events_table(table, string_names).combine_chunks()
    starts = hand_starts(table)
    if len(starts) == 0 or starts[0] != 0:
        raise ValueError("events do not start with a hand's seq 0")
    n = table.num_rows
    bounds = np.append(starts, n).astype(np.int64)
    n_str = len(string_names)
    n_int = sum(not pa.types.is_string(f.type) and not isinstance(f.type, pa.StructType)
                for f in schema)
    ints, ivalid = np.empty((n_int, n), np.int64), np.empty((n_int, n), np.uint8)
    soffsets, svalid = np.empty((n_str, n + 1), np.int64), np.empty((n_str, n), np.uint8)
    # a dictionary column: soffsets holds its entries' bounds, scodes each row's entry (an
    # entry is below n: int32, as Arrow's and Parquet's indices usually are, so no widening)
    scodes, coded = np.empty((n_str, n), np.int32), np.zeros(n_str, np.uint8)
    coded_bytes = 0  # the most bytes the coded columns' rows can expand to
    strings = _Strings()
    kinds: list[int] = []
    index: list[int] = []
    srows = np.zeros(0, dtype=np.int64)
    fkinds: list[int] = []
    findex: list[int] = []
    fints: list[np.ndarray] = []
    fvalid: list[np.ndarray] = []
    foffsets: list[np.ndarray] = []
    i_int = i_str = 0
    for field in schema:
        column = table.column(field.name)
        arr = column.chunk(0) if column.num_chunks else pa.array([], field.type)
        if pa.types.is_dictionary(arr.type) and len(arr.dictionary) > n:
            arr = arr.cast(field.type)  # more entries than rows: the rows' strings instead
        if pa.types.is_dictionary(arr.type):
            entries = arr.dictionary
            bounds_ = strings.add(entries, soffsets[i_str, :len(entries) + 1])
            _int64(arr.indices, arr.indices.type, scodes[i_str])  # into int32: fits
            _valid(arr, svalid[i_str])
            coded[i_str] = 1
            if len(entries):
                coded_bytes += n * int(np.diff(bounds_).max())
            if field.name != "hand_id":
                kinds.append(kernel.STRING)
                index.append(i_str)
            i_str += 1
        elif pa.types.is_string(field.type):
            strings.add(arr, soffsets[i_str])
            _valid(arr, svalid[i_str])
            if field.name != "hand_id":  # the id opens the hand; it is string column 0
                kinds.append(kernel.STRING)
                index.append(i_str)
            i_str += 1
        elif isinstance(field.type, pa.StructType):
            kinds.append(kernel.STRUCT)
            index.append(0)
            srows = pc.indices_nonzero(pc.is_valid(arr)).to_numpy().astype(np.int64)
            present = arr.take(pa.array(srows))
            for i, child in enumerate(field.type):
                values = pc.struct_field(present, [i])
                fvalid.append(_valid(values))
                if pa.types.is_string(child.type):
                    fkinds.append(kernel.F_STRING)
                    findex.append(len(foffsets))
                    foffsets.append(strings.add(values))
                else:
                    fkinds.append(kernel.F_BOOL if pa.types.is_boolean(child.type)
                                  else kernel.F_INT)
                    findex.append(len(fints))
                    fints.append(_int64(values, child.type))
        else:
            kinds.append(kernel.INT)
            index.append(i_int)
            _int64(arr, field.type, ints[i_int])
            _valid(arr, ivalid[i_int])
            i_int += 1
    m = len(srows)
    out, offsets = kernel.encode(
        bounds, np.array(kinds, np.int64), np.array(index, np.int64), ints, ivalid,
        soffsets, svalid, strings.data(), scodes, coded, coded_bytes, srows,
        np.array(fkinds, np.int64),
        np.array(findex, np.int64), _stack(fints, m, np.int64), _stack(fvalid, m, np.uint8),
        _stack(foffsets, m + 1, np.int64))
    data = memoryview(out)
    sha = hashlib.sha256
    bounds_list = offsets.tolist()
    return [sha(data[a:b]).digest() for a, b in zip(bounds_list, bounds_list[1:], strict=False)]


def _stack(rows: list[np.ndarray], width: int, dtype: Any) -> np.ndarray:
    return np.vstack(rows) if rows else np.zeros((0, width), dtype=dtype)


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """RFC 6962 Merkle tree hash of the leaves (the empty tree hashes the empty string)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = list(leaves)
    sha, inner = hashlib.sha256, b"\x01"  # node_hash inlined: a root costs n - 1 hashes
    while len(level) > 1:
        nxt = [sha(inner + level[i] + level[i + 1]).digest()
               for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])  # promoted unchanged: no duplicate-leaf ambiguity
        level = nxt
    return level[0]


def merkle_root_packed(packed: bytes | bytearray) -> bytes:
    """merkle_root of 32-byte leaves laid end to end (a batch writer keeps them so): the
    first level hashes pairs straight out of the buffer, no leaf list is made."""
    count = len(packed) // 32
    if count < 2:
        return merkle_root([bytes(packed)] if count else [])
    sha, inner, pairs = hashlib.sha256, b"\x01", count // 2
    with memoryview(packed) as view:
        level = [sha(inner + view[i:i + 64]).digest() for i in range(0, 64 * pairs, 64)]
        if count % 2:
            level.append(bytes(view[64 * pairs:32 * count]))
    return merkle_root(level)


def audit_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """The sibling hashes from leaf `index` up to the root (promoted levels have none)."""
    if not 0 <= index < len(leaves):
        raise IndexError(f"leaf {index} of {len(leaves)}")
    path: list[bytes] = []
    level = list(leaves)
    while len(level) > 1:
        sibling = index ^ 1
        if sibling < len(level):
            path.append(level[sibling])
        nxt = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
        index //= 2
    return path


def root_from_path(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes:
    """Recompute the root from a leaf, its index, the tree size and its audit path; raises
    ValueError when the path has the wrong length for that position."""
    if not 0 <= index < size:
        raise ValueError(f"leaf index {index} is outside a tree of {size} leaves")
    node, width, used = leaf, size, 0
    while width > 1:
        sibling = index ^ 1
        if sibling < width:
            if used >= len(path):
                raise ValueError("audit path is too short")
            other = path[used]
            used += 1
            node = node_hash(other, node) if index % 2 else node_hash(node, other)
        index //= 2
        width = (width + 1) // 2
    if used != len(path):
        raise ValueError("audit path is too long")
    return node
