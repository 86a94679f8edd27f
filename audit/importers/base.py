"""What every importer yields: chunks of event rows and the input it had to reject."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa


@dataclass(frozen=True, slots=True, kw_only=True)
class Rejected:
    """One hand (or unreadable piece of input) that goes to quarantine, never silently lost."""

    source: str
    line: int | None
    hand_id: str | None
    reason: str
    raw: str = ""


@dataclass(slots=True, kw_only=True)
class Chunk:
    """Part of one source file: whole hands as an event table, plus rejected input.

    `lines` maps each row of `table` to its line (or row number) in the source, for the
    structural validator's error messages; empty when unknown.
    """

    table: pa.Table
    rejected: list[Rejected] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


class Importer(Protocol):
    """A source format: `sniff` recognises content, `read` streams chunks of whole hands."""

    name: str

    def sniff(self, head: bytes, path: Path) -> bool: ...

    def read(self, path: Path) -> Iterator[Chunk]: ...


# a hand kept for its chunk: (event rows, source line of each row, the hand's line, hand id,
# raw text); enough to quarantine it alone if its values do not fit the event schema
KeptHand = tuple[list[dict[str, Any]], list[int], int, "str | None", str]
SCHEMA_ERRORS = (pa.ArrowException, OverflowError, ValueError, TypeError)


def chunk_or_quarantine(kept: list[KeptHand], rejected: list[Rejected], path: Path) -> Chunk:
    """The chunk of these hands; a hand whose values do not fit the event schema (an amount
    past 64 bits, ...) is quarantined with its line instead of failing the whole file."""
    from audit.schema import events_table

    rows = [r for hand in kept for r in hand[0]]
    lines = [n for hand in kept for n in hand[1]]
    try:
        return Chunk(table=events_table(rows), rejected=rejected, lines=lines)
    except SCHEMA_ERRORS:
        pass
    rows, lines = [], []
    for hand_rows, row_lines, line, hand_id, raw in kept:
        try:
            events_table(hand_rows)
        except SCHEMA_ERRORS as exc:
            rejected.append(Rejected(source=str(path), line=line, hand_id=hand_id, raw=raw,
                                     reason=f"a value does not fit the event schema ({exc}); "
                                            "amounts must be within 64 bits"))
            continue
        rows.extend(hand_rows)
        lines.extend(row_lines)
    return Chunk(table=events_table(rows), rejected=rejected, lines=lines)
