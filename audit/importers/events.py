"""Native event files (Parquet, JSON Lines, CSV) read into the event schema.

Only types are handled here: a value that does not fit its column (text in `amount`, a
fractional amount, an unknown column) rejects its hand with the row and the reason. The rules
of a well-formed hand are checked by audit.ingest.validate; the rules of poker by the replay.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.importers.base import (
    Chunk,
    Overlong,
    Rejected,
    bounded_lines,
    not_utf8,
    over_line_limit,
)
from audit.schema import events_schema

REQUIRED_COLUMNS = ("hand_id", "seq", "kind")
_PARQUET_MAGIC = b"PAR1"


class RowTypeError(ValueError):
    """A value that does not fit its column."""


# the key a reader sets on a row holding bytes that are not UTF-8 (its hand is quarantined)
NOT_UTF8 = "\x00not_utf8"


def _csv_lines(f: Any, overlong: list[tuple[int, Overlong]]) -> Iterator[str]:
    """The file's lines as text for the csv module, at most the line limit each: an over-long
    line is set aside in `overlong` (quarantined by the reader) and read as an empty line,
    which the csv reader skips with its line count kept."""
    for number, raw in enumerate(bounded_lines(f), start=1):
        if isinstance(raw, Overlong):
            overlong.append((number, raw))
            yield "\n"
            continue
        text = raw.decode("utf-8", errors="surrogateescape")
        yield text.lstrip("\ufeff") if number == 1 else text


def _overlong_rows(overlong: list[tuple[int, Overlong]], path: Path) -> Iterator[Rejected]:
    for number, line in overlong:
        yield Rejected(source=str(path), line=number, hand_id=None,
                       reason=over_line_limit(number, line.size), raw=line.text())
    overlong.clear()


def _to_int(value: Any, column: str, *, lo: int, hi: int) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise RowTypeError(f"{column} must be an integer, got {value!r}")
    if isinstance(value, int):
        number = value
    else:
        try:
            exact = Decimal(str(value).strip())
        except InvalidOperation:
            raise RowTypeError(f"{column} must be an integer, got {value!r}") from None
        if not exact.is_finite() or exact != exact.to_integral_value():
            raise RowTypeError(
                f"{column} must be an integer number of minor units, got {value!r}"
            )
        number = int(exact)
    if not lo <= number <= hi:
        raise RowTypeError(f"{column} {number} is out of range")
    return number


def _to_str(value: Any, column: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise RowTypeError(f"{column} must be text, got {type(value).__name__}")


def _to_bool(value: Any, column: str) -> bool | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise RowTypeError(f"{column} must be true or false, got {value!r}")


def _to_ts(value: Any, column: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise RowTypeError(f"{column} must be an ISO-8601 timestamp, got {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


_INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}


def _convert(value: Any, dtype: pa.DataType, column: str) -> Any:
    if pa.types.is_integer(dtype):
        lo, hi = _INT_RANGES[str(dtype)]
        return _to_int(value, column, lo=lo, hi=hi)
    if pa.types.is_string(dtype):
        return _to_str(value, column)
    if pa.types.is_boolean(dtype):
        return _to_bool(value, column)
    if pa.types.is_timestamp(dtype):
        return _to_ts(value, column)
    if pa.types.is_struct(dtype):
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                raise RowTypeError(f"{column} must be a JSON object") from None
        if not isinstance(value, dict):
            raise RowTypeError(f"{column} must be an object")
        names = {f.name for f in dtype}
        unknown = sorted(set(value) - names)
        if unknown:
            raise RowTypeError(f"{column} has unknown field(s) {', '.join(unknown)}")
        return {f.name: _convert(value.get(f.name), f.type, f"{column}.{f.name}") for f in dtype}
    raise RowTypeError(f"{column}: unsupported type {dtype}")


def rows_to_chunk(rows: list[tuple[int, dict[str, Any]]], source: str, unit: str) -> Chunk:
    """Python rows (line number, dict) -> a typed event table; rows that don't fit are
    reported by line and their hands rejected whole."""
    schema = events_schema()
    names = set(schema.names)
    good: list[dict[str, Any]] = []
    lines: list[int] = []
    bad: dict[str, tuple[int, str]] = {}
    raw_by_hand: dict[str, list[str]] = {}
    orphans: list[Rejected] = []
    for line, row in rows:
        hand_id = row.get("hand_id")
        key = hand_id if isinstance(hand_id, str) and hand_id else None
        try:
            if NOT_UTF8 in row:
                raise RowTypeError(f"{row.pop(NOT_UTF8)}: bytes that do not decode are not "
                                   "replaced (two different names would read as one); "
                                   "re-export the file as UTF-8")
            unknown = sorted(set(row) - names)
            if unknown:
                raise RowTypeError(f"unknown column(s) {', '.join(unknown)}")
            typed = {f.name: _convert(row.get(f.name), f.type, f.name) for f in schema}
        except RowTypeError as exc:
            if key is None:
                orphans.append(
                    Rejected(source=source, line=line, hand_id=None, reason=f"{unit} {line}: {exc}",
                             raw=json.dumps(row, default=str))
                )
            else:
                bad.setdefault(key, (line, f"{unit} {line}: {exc}"))
                raw_by_hand.setdefault(key, []).append(json.dumps(row, default=str))
            continue
        if key is not None:
            raw_by_hand.setdefault(key, []).append(json.dumps(row, default=str))
        good.append(typed)
        lines.append(line)
    keep = [i for i, r in enumerate(good) if r["hand_id"] not in bad]
    rejected = orphans + [
        Rejected(source=source, line=line, hand_id=h, reason=reason,
                 raw="\n".join(raw_by_hand.get(h, [])))
        for h, (line, reason) in bad.items()
    ]
    table = pa.Table.from_pylist([good[i] for i in keep], schema=schema)
    return Chunk(table=table, rejected=rejected, lines=[lines[i] for i in keep])


class NativeEventsImporter:
    """poker-audit's own event files: Parquet, JSON Lines or CSV with the event columns."""

    name = "events"

    def sniff(self, head: bytes, path: Path) -> bool:
        if head.startswith(_PARQUET_MAGIC):
            return True
        text = head.lstrip(b"\xef\xbb\xbf").lstrip()
        if text.startswith(b"{") and b'"kind"' in head and b'"hand_id"' in head:
            return True
        first = text.split(b"\n", 1)[0]
        return b"hand_id" in first and b"kind" in first and b"seq" in first

    def read(self, path: Path) -> Iterator[Chunk]:
        with path.open("rb") as f:
            head = f.read(4)
        if head == _PARQUET_MAGIC:
            yield from self._read_parquet(path)
        elif path.suffix.lower() == ".csv" or not _looks_like_json(path):
            yield from self._read_csv(path)
        else:
            yield from self._read_jsonl(path)

    def _read_parquet(self, path: Path) -> Iterator[Chunk]:
        try:
            source = pq.ParquetFile(path)
            names = source.schema_arrow.names
        except (pa.ArrowInvalid, OSError) as exc:
            raise AuditInputError(
                f"{path}: not a readable Parquet file ({exc}); re-export it or check the copy"
            ) from None
        _check_columns(names, path)
        offset = 0
        carry: pa.Table | None = None
        try:
            for batch in source.iter_batches(batch_size=CHUNK_ROWS):
                table = pa.Table.from_batches([batch])
                if carry is not None:
                    table = pa.concat_tables([carry, table])
                table, carry = _split_last_hand(table)
                if table.num_rows:
                    yield _typed_chunk(table, offset, str(path))
                    offset += table.num_rows
        except (pa.ArrowInvalid, OSError) as exc:
            raise AuditInputError(
                f"{path}: not a readable Parquet file ({exc}); re-export it or check the copy"
            ) from None
        if carry is not None and carry.num_rows:
            yield _typed_chunk(carry, offset, str(path))

    def _read_jsonl(self, path: Path) -> Iterator[Chunk]:
        def rows() -> Iterator[tuple[int, dict[str, Any]] | Rejected]:
            with path.open("rb") as f:
                for number, raw in enumerate(bounded_lines(f), start=1):
                    if isinstance(raw, Overlong):
                        yield Rejected(source=str(path), line=number, hand_id=None,
                                       reason=over_line_limit(number, raw.size),
                                       raw=raw.text())
                        continue
                    # undecodable bytes are kept as surrogate escapes, never replaced by
                    # U+FFFD (two different byte names would read as one player): the row
                    # is parsed for its hand id, and its hand quarantined whole
                    text = raw.decode("utf-8", errors="surrogateescape").strip()
                    if number == 1:
                        text = text.lstrip("\ufeff")
                    if not text:
                        continue
                    try:
                        row = json.loads(text)
                        if not isinstance(row, dict):
                            raise ValueError("not an object")
                    except (ValueError, RecursionError) as exc:  # deep nesting: Recursion
                        exc = exc if isinstance(exc, ValueError) else ValueError(
                            "nested too deeply")
                        yield Rejected(source=str(path), line=number, hand_id=None,
                                       reason=f"line {number}: not a JSON object ({exc})",
                                       raw=text)
                        continue
                    if not_utf8(text):
                        row[NOT_UTF8] = "not UTF-8 text"
                    yield number, row

        yield from _hand_aligned(rows(), str(path))

    def _read_csv(self, path: Path) -> Iterator[Chunk]:
        with path.open("rb") as f:
            overlong: list[tuple[int, Overlong]] = []
            reader = csv.DictReader(_csv_lines(f, overlong))
            try:
                names = reader.fieldnames
            except csv.Error as exc:
                raise AuditInputError(f"{path}: the CSV header line is unreadable ({exc}); "
                                      "the first line must name the event columns") from None
            if not names:
                return
            _check_columns(reader.fieldnames, path)

            def rows() -> Iterator[tuple[int, dict[str, Any]] | Rejected]:
                failed_at = -1
                while True:
                    try:
                        row = next(reader)
                    except StopIteration:
                        yield from _overlong_rows(overlong, path)
                        return
                    except csv.Error as exc:  # an oversized field, a stray quote, ...
                        line = reader.line_num
                        yield Rejected(source=str(path), line=line, hand_id=None,
                                       reason=f"line {line}: unreadable CSV record ({exc})")
                        if line == failed_at:  # the reader cannot move past it
                            return
                        failed_at = line
                        continue
                    yield from _overlong_rows(overlong, path)
                    clean = {k: (v if v != "" else None) for k, v in row.items() if k is not None}
                    if None in row:
                        clean["__extra__"] = row[None]  # too many fields on the line: rejected
                    if any(not_utf8(v) for v in clean.values() if isinstance(v, str)):
                        clean[NOT_UTF8] = "not UTF-8 text"
                    yield reader.line_num, clean

            yield from _hand_aligned(rows(), str(path))


CHUNK_ROWS = 65_536
# rows of one hand held past a full chunk before it is cut anyway (as for Parquet): a "hand"
# this long is not one, and holding it would let one hand take all memory; its parts fail
# validation and are quarantined
_LONGEST_HAND_ROWS = 100_000


def _split_last_hand(table: pa.Table) -> tuple[pa.Table, pa.Table | None]:
    """Hold back the rows of the table's last hand: it may continue in the next batch."""
    ids = table.column("hand_id")
    last = ids[-1]
    if not last.is_valid:
        return table, None
    same = pc.equal(ids, last)
    # Rows of the last hand at the end of the table (contiguous tail).
    keep = table.num_rows
    while keep > 0 and same[keep - 1].as_py():
        keep -= 1
        if table.num_rows - keep > 100_000:  # a "hand" this long is not a hand: stop holding
            return table, None
    if keep == 0:
        return table.slice(0, 0), table
    return table.slice(0, keep), table.slice(keep)


def _typed_chunk(table: pa.Table, offset: int, source: str) -> Chunk:
    target = events_schema()
    try:
        columns = [
            table.column(f.name).cast(f.type) if f.name in table.schema.names
            else pa.nulls(table.num_rows, f.type)
            for f in target
        ]
        typed = pa.Table.from_arrays(columns, schema=target)
        _reject_fractional_money(table)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, RowTypeError):
        # Some values don't fit: fall back to row-by-row conversion to find them.
        rows = [(offset + i + 1, r) for i, r in enumerate(table.to_pylist())]
        return rows_to_chunk(rows, source, "row")
    return Chunk(table=typed, lines=list(range(offset + 1, offset + typed.num_rows + 1)))


def _hand_aligned(
    rows: Iterator[tuple[int, dict[str, Any]] | Rejected], source: str
) -> Iterator[Chunk]:
    """Group python rows into chunks of about CHUNK_ROWS rows, cut only between hands."""
    pending: list[tuple[int, dict[str, Any]]] = []
    unreadable: list[Rejected] = []
    for item in rows:
        if isinstance(item, Rejected):
            unreadable.append(item)
            continue
        if len(pending) >= CHUNK_ROWS and (
                item[1].get("hand_id") != pending[-1][1].get("hand_id")
                or len(pending) >= CHUNK_ROWS + _LONGEST_HAND_ROWS):  # not a hand: cut it
            chunk = rows_to_chunk(pending, source, "line")
            chunk.rejected[:0] = unreadable
            yield chunk
            pending, unreadable = [], []
        pending.append(item)
    if pending or unreadable:
        chunk = rows_to_chunk(pending, source, "line")
        chunk.rejected[:0] = unreadable
        yield chunk


def _looks_like_json(path: Path) -> bool:
    with path.open("rb") as f:
        head = f.read(4096).lstrip(b"\xef\xbb\xbf").lstrip()
    return head.startswith(b"{")


def _check_columns(names: list[str], path: Path) -> None:
    missing = [c for c in REQUIRED_COLUMNS if c not in names]
    if missing:
        raise AuditInputError(
            f"{path}: missing required column(s) {', '.join(missing)}; an event file needs at "
            f"least {', '.join(REQUIRED_COLUMNS)} (see schemas/events.json)"
        )
    unknown = sorted(set(names) - set(events_schema().names))
    if unknown:
        raise AuditInputError(
            f"{path}: unknown column(s) {', '.join(unknown)}; the event columns are "
            f"{', '.join(events_schema().names)} (see schemas/events.json)"
        )


def _reject_fractional_money(table: pa.Table) -> None:
    """A float money column is only accepted when every value is a whole number of units."""
    for name in ("amount", "total"):
        if name in table.schema.names and pa.types.is_floating(table.schema.field(name).type):
            col = table.column(name)
            if pc.all(pc.equal(col, pc.floor(col))).as_py() not in (True, None):
                raise RowTypeError(name)
