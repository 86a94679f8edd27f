"""Rendering Arrow tables for the terminal: an aligned text table (numbers right-aligned; cut
cells, or fitted to the terminal with one long column wrapped), CSV, JSON or JSON Lines. (`query`
writes csv, json and jsonl with DuckDB's own writer instead: audit.sql.query.stream_query.)"""

from __future__ import annotations

import csv
import io
import json
import shutil
import textwrap
from datetime import date, datetime, time
from decimal import Decimal
from enum import StrEnum, unique
from typing import Any

import pyarrow as pa


@unique
class OutputFormat(StrEnum):
    """How a command prints rows."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    JSONL = "jsonl"


def blob_text(value: bytes) -> str:
    """A BLOB as DuckDB prints it: printable ASCII kept, every other byte as \\xHH."""
    return "".join(chr(b) if 0x20 <= b < 0x7F and b != 0x5C else f"\\x{b:02X}" for b in value)


def _plain(value: Any) -> Any:
    """`value` as JSON-ready data: containers recursed into at any depth (a BLOB or a time
    inside a list), bytes as DuckDB's blob text, any other non-JSON type as its str()."""
    if isinstance(value, bytes | bytearray | memoryview):
        return blob_text(bytes(value))
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict | list | tuple):
        return json.dumps(_plain(value), separators=(",", ":"))
    return str(_plain(value))


def _is_number(dtype: pa.DataType) -> bool:
    """A column the table right-aligns (integers, floats, decimals)."""
    return bool(pa.types.is_integer(dtype) or pa.types.is_floating(dtype)
                or pa.types.is_decimal(dtype))


def render(table: pa.Table, fmt: OutputFormat | str, *, max_width: int = 60) -> str:
    """The rows of a table as text in the requested format (JSON: a list of objects)."""
    rows = table.to_pylist()
    fmt = OutputFormat(fmt)
    if fmt is OutputFormat.JSON:
        return json.dumps([_plain(r) for r in rows], indent=2, ensure_ascii=False) + "\n"
    if fmt is OutputFormat.JSONL:
        return "".join(json.dumps(_plain(r), ensure_ascii=False) + "\n" for r in rows)
    if fmt is OutputFormat.CSV:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(table.column_names)
        writer.writerows([[_cell(r[c]) for c in table.column_names] for r in rows])
        return buf.getvalue()
    names = table.column_names
    cells = [[_cell(r[c]) for c in names] for r in rows]
    cells = [[c if len(c) <= max_width else c[: max_width - 1] + "…" for c in row] for row in cells]
    widths = [max([len(n), *(len(row[i]) for row in cells)]) for i, n in enumerate(names)]
    numeric = [_is_number(table.schema.field(i).type) for i in range(len(names))]

    def line(row: list[str]) -> str:
        return "  ".join(c.rjust(w) if right else c.ljust(w)
                         for c, w, right in zip(row, widths, numeric, strict=True)).rstrip()

    lines = [line(names), "  ".join("-" * w for w in widths)]
    lines += [line(row) for row in cells]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines) + "\n"


def terminal_width(default: int = 100) -> int:
    """Columns of the terminal stdout shows in ($COLUMNS first; `default` when not a terminal,
    e.g. piped to a file)."""
    return shutil.get_terminal_size((default, 24)).columns


def render_fitted(table: pa.Table, width: int, wrap: str, *, min_wrap: int = 40) -> str:
    """An aligned text table that fits `width` columns, nothing cut off: every column but `wrap`
    keeps its whole values, and `wrap` (a long text such as a finding's message) takes the rest
    of the line and continues on following lines under itself, broken at spaces. When that would
    leave `wrap` fewer than `min_wrap` columns, `wrap` is printed under each row instead,
    indented, across the whole width."""
    names = table.column_names
    rows = [[_cell(r[c]) for c in names] for r in table.to_pylist()]
    k = names.index(wrap)
    widths = [max([len(n), *(len(row[i]) for row in rows)]) for i, n in enumerate(names)]
    fixed = sum(w for i, w in enumerate(widths) if i != k) + 2 * (len(names) - 1)
    below = width - fixed < min_wrap
    if below:
        widths[k] = 0
    else:
        widths[k] = max(1, min(widths[k], width - fixed))

    def line(cells: list[str]) -> str:
        if below:
            cells, ws = cells[:k] + cells[k + 1:], widths[:k] + widths[k + 1:]
        else:
            ws = widths
        return "  ".join(c.ljust(w) for c, w in zip(cells, ws, strict=True)).rstrip()

    dashes = ["-" * w for w in widths]
    out = [line(list(names)), line(dashes)]
    for row in rows:
        if below:
            out.append(line(row))
            out += ["    " + p for p in textwrap.wrap(row[k], max(20, width - 4),
                                                     break_on_hyphens=False)]
            continue
        pieces = textwrap.wrap(row[k], widths[k], break_on_hyphens=False) or [""]
        out.append(line([*row[:k], pieces[0], *row[k + 1:]]))
        out += [line(["" for _ in names[:k]] + [p] + ["" for _ in names[k + 1:]])
                for p in pieces[1:]]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out) + "\n"
