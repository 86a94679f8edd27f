"""What every importer yields: chunks of event rows and the input it had to reject."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

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
