"""What every importer yields: chunks of event rows and the input it had to reject."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import pyarrow as pa

# the quarantine record lives in a leaf module (the store writes it); re-exported here
from audit.quarantine import Rejected as Rejected
from audit.schema import events_table


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


# --- bounds on what one line and one hand may cost ----------------------------------------

MIB = 1 << 20
# A real hand history line is under a kilobyte and a hand a few kilobytes (a long tournament
# hand with chat well under 1 MiB): these defaults leave a wide margin and still bound what a
# hostile file can cost (memory follows the limit, never the file). Raise them with
# `poker-audit ingest --max-line-mb / --max-hand-mb`.
DEFAULT_MAX_LINE_BYTES = 4 * MIB
DEFAULT_MAX_HAND_BYTES = 32 * MIB
# What quarantine keeps of an input it rejects: the raw text of a hand up to RAW_EXCERPT_CHARS
# characters (a real hand is a few thousand) and a reason up to REASON_CHARS characters. The
# whole input stays in the source file, named with its line and sha256 in the batch.
RAW_EXCERPT_CHARS = 256 * 1024
REASON_CHARS = 1000
_HEAD_BYTES = 4096  # bytes of an over-long line kept for its excerpt


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The most one line and one hand of an input file may hold, in bytes."""

    line_bytes: int = DEFAULT_MAX_LINE_BYTES
    hand_bytes: int = DEFAULT_MAX_HAND_BYTES


DEFAULT_LIMITS = ReadLimits()
_LIMITS: ContextVar[ReadLimits] = ContextVar("poker_audit_read_limits", default=DEFAULT_LIMITS)


def read_limits() -> ReadLimits:
    """The limits in force for the reader running now (set by `using_limits`)."""
    return _LIMITS.get()


@contextmanager
def using_limits(limits: ReadLimits) -> Iterator[None]:
    """Readers run inside this block (and the generators it drives) use `limits`."""
    token = _LIMITS.set(limits)
    try:
        yield
    finally:
        _LIMITS.reset(token)


def over_line_limit(line: int, size: int) -> str:
    limit = read_limits().line_bytes
    return (f"line {line} is {size:,} bytes, over the limit of {limit:,} bytes for one line; "
            "not read (raise the limit with `poker-audit ingest --max-line-mb` if the line "
            "is real)")


def over_hand_limit(line: int, size: int) -> str:
    limit = read_limits().hand_bytes
    return (f"the input from line {line} runs {size:,} bytes without a hand boundary, over the "
            f"limit of {limit:,} bytes for one hand; not read (raise the limit with "
            "`poker-audit ingest --max-hand-mb` if the hand is real)")


def over_text_limit(line: int, size: int) -> str:
    limit = read_limits().hand_bytes
    return (f"{size:,} bytes of text outside any hand from line {line}, over the limit of "
            f"{limit:,} bytes for one hand; not read (raise the limit with `poker-audit "
            "ingest --max-hand-mb` if it holds a real hand)")


@dataclass(frozen=True, slots=True)
class Overlong:
    """A line longer than the line limit: its size and first bytes (the rest was skipped)."""

    size: int
    head: bytes

    def text(self) -> str:
        return self.head.decode("utf-8", errors="backslashreplace") + \
            f"... [{self.size - len(self.head):,} more bytes of this line not read]"


def bounded_lines(f: BinaryIO, limit: int | None = None) -> Iterator[bytes | Overlong]:
    """The lines of a binary file (line end kept), each at most `limit` bytes (default: the
    line limit in force) besides its line end; a longer line is skipped in 1 MiB steps and
    given as an `Overlong`, so memory stays bounded by the limit whatever the file holds."""
    limit = read_limits().line_bytes if limit is None else limit
    while True:
        raw = f.readline(limit + 1)
        if not raw:
            return
        if len(raw) <= limit or raw.endswith(b"\n"):
            yield raw
            continue
        head, size = raw[:_HEAD_BYTES], len(raw)
        del raw
        while True:
            more = f.readline(MIB)
            size += len(more)
            if not more or more.endswith(b"\n"):
                break
        yield Overlong(size, head)


def not_utf8(text: str) -> bool:
    """Whether `text` (decoded with errors="surrogateescape") kept bytes that are not UTF-8."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _printable(text: str) -> str:
    """Text that can be written as UTF-8: bytes kept undecoded (surrogate escapes) are shown
    as \\xNN, never silently replaced."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def capped(r: Rejected) -> Rejected:
    """The rejection as quarantine keeps it: reason at most REASON_CHARS characters, raw at
    most RAW_EXCERPT_CHARS (each cut says how much more there was), all writable as UTF-8."""
    reason, raw = _printable(r.reason), _printable(r.raw)
    if len(reason) > REASON_CHARS:
        reason = reason[:REASON_CHARS] + f"... [reason cut: {len(reason) - REASON_CHARS:,} " \
            "more characters]"
    if len(raw) > RAW_EXCERPT_CHARS:
        raw = raw[:RAW_EXCERPT_CHARS] + f"\n... [excerpt cut at {RAW_EXCERPT_CHARS:,} " \
            f"characters: {len(raw) - RAW_EXCERPT_CHARS:,} more; the whole input is in " \
            f"{r.source} from line {r.line if r.line is not None else 1}]"
    hand_id = None if r.hand_id is None else _printable(r.hand_id)
    if hand_id is not None and len(hand_id) > REASON_CHARS:
        hand_id = hand_id[:REASON_CHARS] + "..."
    if (reason, raw, hand_id) == (r.reason, r.raw, r.hand_id):
        return r
    return Rejected(source=_printable(r.source), line=r.line, hand_id=hand_id, reason=reason,
                    raw=raw)
