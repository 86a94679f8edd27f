"""The string columns of the compiled passes (`textkernel.text_sizes` / `text_fill`): each row
is its first span, its second span, its number's decimal digits and its third span, written
after one another; a row whose first span is absent is null (empty)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.importers.pacific_compiled import TEXT

NONE = np.iinfo(np.int64).min


def _expected(data: bytes, lo1, hi1, lo2, hi2, num, lo3, hi3) -> list[list[bytes]]:
    """The rulebook: what each cell of each column holds."""
    columns = []
    for c in range(lo1.shape[0]):
        cells = []
        for i in range(lo1.shape[1]):
            if lo1[c, i] < 0:
                cells.append(b"")
                continue
            cell = data[lo1[c, i]:hi1[c, i]]
            if lo2[c, i] >= 0:
                cell += data[lo2[c, i]:hi2[c, i]]
            if num[c, i] != NONE:
                cell += str(int(num[c, i])).encode()
            if lo3[c, i] >= 0:
                cell += data[lo3[c, i]:hi3[c, i]]
            cells.append(cell)
        columns.append(cells)
    return columns


def _written(data: bytes, spec: tuple[np.ndarray, ...], dtype: type) -> list[list[bytes]]:
    t = TEXT.get()
    if t is None:
        pytest.skip("numba is not available here")
    lo1, hi1, lo2, hi2, num, lo3, hi3 = (a.astype(dtype) for a in spec)
    none = NONE if dtype is np.int64 else -1
    num = np.where(spec[4] == NONE, none, num).astype(dtype)
    columns, rows = lo1.shape
    offsets = np.empty((columns, rows + 1), np.int32)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, none, offsets)
    starts = np.zeros(columns + 1, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    out = np.full(int(starts[-1]) + 8, 0xEE, np.uint8)  # a byte written past a cell shows
    buffer = np.frombuffer(bytearray(data), np.uint8)
    t.text_fill(buffer, lo1, hi1, lo2, hi2, num, lo3, hi3, none, offsets, out, starts)
    assert (out[int(starts[-1]):] == 0xEE).all()
    text = out.tobytes()
    return [[text[starts[c] + offsets[c, i]:starts[c] + offsets[c, i + 1]]
             for i in range(rows)] for c in range(columns)]


@st.composite
def _specs(draw: st.DrawFn) -> tuple[bytes, tuple[np.ndarray, ...]]:
    data = draw(st.binary(min_size=1, max_size=64))
    columns, rows = draw(st.integers(1, 4)), draw(st.integers(0, 12))
    size = (columns, rows)

    def spans(absent: bool) -> tuple[np.ndarray, np.ndarray]:
        lo = np.empty(size, np.int64)
        hi = np.empty(size, np.int64)
        for c in range(columns):
            for i in range(rows):
                a = draw(st.integers(-1 if absent else 0, len(data)))
                lo[c, i] = a
                hi[c, i] = draw(st.integers(max(a, 0), len(data)))
        return lo, hi

    lo1, hi1 = spans(True)
    lo2, hi2 = spans(True)
    lo3, hi3 = spans(True)
    num = np.array(draw(st.lists(st.one_of(st.just(NONE), st.integers(-10**12, 10**12)),
                                 min_size=columns * rows, max_size=columns * rows)),
                   np.int64).reshape(size)
    return data, (lo1, hi1, lo2, hi2, num, lo3, hi3)


@settings(max_examples=150, deadline=None)
@given(_specs())
def test_each_cell_is_its_spans_and_number_written_one_after_another(spec) -> None:
    data, arrays = spec
    assert _written(data, arrays, np.int64) == _expected(data, *arrays)


def test_cells_of_int32_specs_long_spans_and_spans_anywhere_in_the_bytes() -> None:
    """As a kernel calls it (int32 specs, `none` -1): spans at the start, the end and across
    the whole of the bytes, numbers of one digit to fifteen, negative ones."""
    data = bytes(range(256)) * 3
    lo1 = np.array([[0, 700, 5, -1, 767]])
    hi1 = np.array([[768, 768, 5, 3, 768]])
    lo2 = np.array([[-1, 0, 10, 0, 0]])
    hi2 = np.array([[0, 300, 11, 0, 768]])
    num = np.array([[NONE, 7, -123456789012345, 5, 0]])
    lo3 = np.array([[3, -1, 0, -1, 766]])
    hi3 = np.array([[9, 0, 1, 0, 768]])
    arrays = (lo1, hi1, lo2, hi2, num, lo3, hi3)
    assert _written(data, arrays, np.int64) == _expected(data, *arrays)
    small = tuple(a if a is num else a.astype(np.int32) for a in arrays)
    num32 = np.array([[NONE, 7, -123456789, 5, 0]])
    assert _written(data, (*small[:4], num32, *small[5:]), np.int32) == \
        _expected(data, *small[:4], num32, *small[5:])


def _b(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8).copy()


_VERBS = (_b("posts small blind "), _b("posts "), _b("calls "))


@pytest.mark.parametrize(("line", "start", "end", "index"), [
    ("Hero: posts small blind 5", 6, None, 0),   # the first of the table that matches wins,
    ("Hero: posts big blind 10", 6, None, 1),    # not the longest: the table's order is the rule
    ("Hero: calls 10", 6, None, 2),
    ("Hero: raises 10 to 20", 6, None, -1),
    ("Hero: calls 10", 6, 11, -1),               # a prefix must end before the line does
    ("Hero: calls 10", 0, None, -1),
])
def test_a_line_names_the_first_prefix_of_the_table_it_starts_with(
        line: str, start: int, end: int | None, index: int) -> None:
    from audit.importers.textkernel import prefix_index

    data = np.frombuffer(line.encode(), dtype=np.uint8)
    assert prefix_index(data, start, len(line) if end is None else end, _VERBS) == index
