"""The compiled leaf writer copies a hand's strings in one run when no null row holds bytes;
Arrow lets a null string slot hold bytes, and then the writer must go row by row and skip
them, as the Arrow reference does."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from audit.schema import events_schema, events_table
from audit.store import merkle
from tests.support.eventrows import many_hands


def _with_bytes_under_nulls(arr: pa.Array) -> pa.Array:
    """The same strings and nulls, every null slot now covering the bytes "junk"."""
    values = arr.to_pylist()
    data = b"".join(b"junk" if v is None else v.encode() for v in values)
    lengths = [4 if v is None else len(v.encode()) for v in values]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    valid = np.array([v is not None for v in values])
    return pa.Array.from_buffers(pa.string(), len(values), [
        pa.py_buffer(np.packbits(valid, bitorder="little")), pa.py_buffer(offsets),
        pa.py_buffer(data)], null_count=int((~valid).sum()))


def test_bytes_under_null_strings_leave_the_leaves_unchanged() -> None:
    kernel = merkle._kernel()
    assert kernel is not None, "the compiled leaf writer should build here"
    table = events_table(many_hands("h", 30)).cast(events_schema()).combine_chunks()
    assert table.column("player").null_count and table.column("cards").null_count
    expected = merkle.reference_leaves(table)
    assert merkle.compiled_leaves(table, kernel) == expected
    for name in ("player", "cards", "detail"):
        i = table.schema.get_field_index(name)
        column = _with_bytes_under_nulls(table.column(name).chunk(0))
        assert column.buffers()[2].size > len(b"".join(
            s.encode() for s in column.to_pylist() if s is not None))  # junk is there
        table = table.set_column(i, table.schema.field(i), column)
    assert merkle.reference_leaves(table) == expected
    assert merkle.compiled_leaves(table, kernel) == expected
