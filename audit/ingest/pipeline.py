"""Ingest: source files -> importer -> structural validation -> one committed batch per file.

Nothing is lost: every input hand ends up either in the store or in quarantine with its file,
line and reason. Identical source bytes whose batch stored a hand are skipped (and said so); a
file that stored none (every hand quarantined, say under a wrong --format) is read again when
given again, and `retry_quarantined` reads again the files whose hands were quarantined. A hand
already in the store with the same events (overlapping exports: only the `source` column, the
file and line it came from, may differ) is counted as already stored, never duplicated; one
whose id is stored with other events is quarantined.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.importers import detect_format, get_importer
from audit.importers.base import ReadLimits, Rejected, capped, using_limits
from audit.ingest.readahead import read_ahead
from audit.ingest.validate import validate_events
from audit.schema import events_schema
from audit.store.dataset import (
    BatchWriter,
    PendingBatch,
    SourceFile,
    StagedBatch,
    Store,
    sha256_file,
)
from audit.store.merkle import canonical_hands


@dataclass(slots=True, kw_only=True)
class FileResult:
    """What happened to one input file."""

    path: str
    format: str = ""
    hands: int = 0
    rows: int = 0
    quarantined: int = 0
    already_stored: int = 0  # hands the store holds with the same events: not stored again
    skipped: str = ""  # why the file was skipped (already ingested)
    still_quarantined: bool = False  # skipped: the same bytes, read the same way, stored nothing
    error: str = ""  # the file could not be read at all
    refused: str = ""  # why the file was not opened (a symlink out of the input tree)
    hint: str = ""  # a file that stored nothing under --format X reads as another format
    batch_id: str = ""
    reasons: list[str] = field(default_factory=list)  # "file:line hand: reason", quarantined


@dataclass(slots=True, kw_only=True)
class IngestSummary:
    files: list[FileResult] = field(default_factory=list)

    @property
    def hands(self) -> int:
        return sum(f.hands for f in self.files)

    @property
    def rows(self) -> int:
        return sum(f.rows for f in self.files)

    @property
    def quarantined(self) -> int:
        return sum(f.quarantined for f in self.files)

    @property
    def already_stored(self) -> int:
        return sum(f.already_stored for f in self.files)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.files if f.error)

    @property
    def refused(self) -> int:
        return sum(1 for f in self.files if f.refused)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 when anything was quarantined or refused, 2 when a file could not be
        read."""
        if self.errors:
            return 2
        still = any(f.still_quarantined for f in self.files)
        return 1 if self.quarantined or self.refused or still else 0


def expand_paths(paths: Sequence[Path]) -> list[Path]:
    """Files given directly, plus the files inside given directories (sorted, hidden skipped);
    with the ones `ingest` refuses (special files, symlinks out of their directory), which it
    names and counts."""
    return [path for path, _ in _inputs(paths)]


def _inputs(paths: Sequence[Path]) -> list[tuple[Path, str]]:
    """(path, why it is refused or "") for every input. A directory is walked without
    following symlinks out of it: a symlink inside the tree to a file inside the tree is read,
    one pointing outside is refused (an attacker's link to /etc/passwd must not end up in
    quarantine). A path given directly is the user's choice and read wherever it points."""
    out: list[tuple[Path, str]] = []
    for p in paths:
        if p.is_dir():
            out.extend(_walk(p))
        elif p.exists() or p.is_symlink():
            out.append((p, ""))
        else:
            raise AuditInputError(f"{p}: no such file or directory")
    return out


def _walk(root: Path) -> list[tuple[Path, str]]:
    top = root.resolve()
    found: list[tuple[Path, str]] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in [*files, *dirs]:
            path = Path(folder) / name
            if name.startswith("."):
                continue
            if path.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(top):
                    found.append((path, f"a symlink to {target}, outside {root}; not followed "
                                        "(copy the file into the directory to ingest it)"))
                elif target.is_file():
                    found.append((path, ""))
                # a link to a folder inside the tree: its files are read where they are
            elif name in files:
                found.append((path, ""))
    return sorted(found)


def _special(path: Path) -> str:
    """What kind of special file `path` is (FIFO, device, socket), or "" for a regular file.
    Judged by stat alone: opening a FIFO blocks, and a device like /dev/zero never ends."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return f"cannot be examined ({exc.strerror})"
    if stat.S_ISREG(mode):
        return ""
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return kind
    return "not a regular file"


def _date_partitions(table: pa.Table) -> dict[str, pa.Table]:
    """Split whole hands by the UTC date of their hand_started (undated when no ts)."""
    if table.num_rows == 0:
        return {}
    starts = table.select(["hand_id", "ts"]).filter(pc.equal(table.column("seq"), 0))
    days = pc.cast(starts.column("ts"), pa.date32())  # only distinct days get a name
    distinct = pc.unique(days).to_pylist()
    named = sorted((day.isoformat() if day is not None else "undated", day) for day in distinct)
    if len(named) == 1:
        return {named[0][0]: table}
    out = {}
    for name, day in named:
        mask = pc.is_null(days) if day is None else pc.equal(days, pa.scalar(day, pa.date32()))
        ids = starts.column("hand_id").filter(mask)
        out[name] = table.filter(pc.is_in(table.column("hand_id"), value_set=ids.combine_chunks()))
    return out


def _in_store(hand_id: str) -> str:
    return (f"hand {hand_id} is already in the store with other events; a hand is stored "
            "once (append a correction as an annotation event instead)")


# provenance: the file and line a row was read from, which overlapping exports do not share
_PROVENANCE = "source"


def _content(table: pa.Table) -> dict[str, bytes]:
    """Each hand's canonical bytes (the Merkle leaf's encoding: every column, row by row)
    with its provenance blanked."""
    if table.num_rows == 0:
        return {}
    table = table.cast(events_schema())
    table = table.set_column(table.schema.get_field_index(_PROVENANCE), _PROVENANCE,
                             pa.nulls(table.num_rows, pa.string()))
    ids, canonical = canonical_hands(table.sort_by([("hand_id", "ascending"),
                                                    ("seq", "ascending")]))
    return dict(zip(ids, canonical.to_pylist(), strict=True))


def identical_hands(new: pa.Table, stored: pa.Table) -> set[str]:
    """The hands of `new` that `stored` holds with the same events: every column but the
    provenance equal, row for row."""
    have = _content(stored)
    return {h for h, content in _content(new).items() if have.get(h) == content}


def _earlier_in_file(hand_id: str) -> str:
    return (f"hand {hand_id} appears earlier in this file; a hand is stored once (append a "
            "correction as an annotation event instead)")


def _quarantined_hands(
    rows: pa.Table, source: str, reason: Callable[[str], str]
) -> list[Rejected]:
    """One rejection per hand of `rows`, carrying all its rows (grouped in one pass)."""
    by_hand: dict[str, list[str]] = {}
    for row in rows.to_pylist():
        by_hand.setdefault(row["hand_id"], []).append(str(row))
    return [Rejected(source=source, line=None, hand_id=hand_id, reason=reason(hand_id),
                     raw="\n".join(raw)) for hand_id, raw in by_hand.items()]


def _drop_repeated_hands(
    table: pa.Table, seen: set[str], source: str
) -> tuple[pa.Table, list[Rejected]]:
    """Quarantine hands whose id came earlier in this file, then remember the ids kept.
    `seen` holds only this file's ids: the store is looked up once, after the file
    (Store.find_hands, in the store's hand-id index: 12 bytes per stored hand, loaded once
    per ingest), never as a set of the store's ids."""
    if table.num_rows == 0:
        return table, []
    ids = table.column("hand_id")
    # a validated hand has exactly one seq 0 row: its id, once
    hands = ids.filter(pc.equal(table.column("seq"), 0)).to_pylist()
    repeated = [h for h in hands if h in seen]
    rejected: list[Rejected] = []
    if repeated:
        mask = pc.is_in(ids, value_set=pa.array(repeated, pa.string()))
        rejected = _quarantined_hands(table.filter(mask), source, _earlier_in_file)
        table = table.filter(pc.invert(mask))
    seen.update(hands)  # a repeated id is in already
    return table, rejected


def ingest(
    paths: Sequence[Path | str],
    store: Store,
    *,
    fmt: str = "auto",
    progress: Callable[[int], None] | None = None,
    limits: ReadLimits | None = None,
    retry_quarantined: bool = False,
    workers: int = 1,
) -> IngestSummary:
    """Ingest files into the store; one committed batch per file. `limits` bounds what one
    line and one hand may hold (default: `ReadLimits()`); past them the input is quarantined
    with its size, never read whole. `fmt` is checked before the store is touched (an unknown
    one is an AuditInputError). `retry_quarantined` reads again files already ingested whose
    hands were quarantined (after an importer fix): their stored hands come out as already
    stored, the others are read again. `progress(n)`: n more bytes of the input are read (of
    `input_bytes(paths)`), reported chunk by chunk inside a file, not only file by file.

    `workers` above 1 reads, checks and encodes that many files at once, in worker processes
    (audit/ingest/parallel.py), and commits them in input order: the same store, summary and
    exit code as one worker (only batch ids and times differ); progress then moves file by
    file."""
    if fmt != "auto":
        get_importer(fmt)  # an unknown format touches no store and quarantines no file
    summary = IngestSummary()
    store.recover_if_needed()  # the next writer finishes a crashed one's committed batch
    given = [Path(p) for p in paths]
    explicit = {p for p in given if not p.is_dir()}
    inputs = _inputs(given)
    limits = limits or ReadLimits()
    if workers > 1 and sum(1 for _, refusal in inputs if not refusal) > 1:
        from audit.ingest.parallel import ingest_in_workers  # imports this module

        ingest_in_workers(inputs, explicit, store, fmt=fmt, progress=progress, limits=limits,
                          retry_quarantined=retry_quarantined, workers=workers,
                          summary=summary)
        return summary
    with using_limits(limits):
        for path, refusal in inputs:
            result = FileResult(path=str(path))
            summary.files.append(result)
            read = _FileProgress(path, progress) if progress and not refusal else None
            _ingest_one(path, path in explicit, refusal, store, fmt, result,
                        retry_quarantined, read)
            if read:
                read.finish()
    return summary


def input_bytes(paths: Sequence[Path | str]) -> int:
    """The bytes `ingest` reads from these paths (regular files only): its progress total."""
    return sum(_regular_size(path) for path, refusal in _inputs([Path(p) for p in paths])
               if not refusal)


def _regular_size(path: Path) -> int:
    try:
        info = path.stat()
    except OSError:
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


class _FileProgress:
    """How far into one file the reading is, in bytes, told to `report` as chunks arrive: a
    chunk's last line (or Parquet row) of the file's lines (rows), counted once up front."""

    def __init__(self, path: Path, report: Callable[[int], None]) -> None:
        self.path = path
        self.size = _regular_size(path)
        self.report = report
        self.done = 0
        self.total: int | None = None

    def chunk(self, lines: Sequence[int], unit: str) -> None:
        if len(lines) == 0 or not self.size:
            return
        if self.total is None:
            self.total = _count_units(self.path, unit)
        self._to(self.size * min(int(max(lines)), self.total) // max(self.total, 1))

    def finish(self) -> None:
        self._to(self.size)

    def _to(self, at: int) -> None:
        if at > self.done:
            self.report(at - self.done)
            self.done = at


def _count_units(path: Path, unit: str) -> int:
    """Lines of a text file (read in blocks, never whole) or rows of a Parquet file."""
    if unit == "row":
        return int(pq.ParquetFile(path).metadata.num_rows)
    lines = 0
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            lines += block.count(b"\n")
    return lines + 1


def _ingest_one(path: Path, explicit: bool, refusal: str, store: Store, fmt: str,
                result: FileResult, retry_quarantined: bool = False,
                read: _FileProgress | None = None, *, locked: bool = False) -> None:
    """One input: refused, skipped, stored, or quarantined whole; never an exception out of
    the file's reading (the next file is read whatever this one holds). `locked`: the
    caller holds the store's lock already (a parallel ingest holds it throughout)."""
    if _screened(path, explicit, refusal, result):
        return
    try:
        opened = _open_input(path, store, fmt, result, retry_quarantined)
        if opened is not None:
            with contextlib.nullcontext() if locked else store.locked():
                _ingest_locked(path, store, fmt, result, retry_quarantined, read, opened)
    except AuditInputError as exc:
        _unreadable(path, store, fmt, result, error=str(exc), locked=locked)
    except _ReadFailure as failure:
        _unreadable(path, store, fmt, result, failure=_described(failure.__cause__),
                    locked=locked)
    _add_hint(path, fmt, result)


def _screened(path: Path, explicit: bool, refusal: str, result: FileResult) -> bool:
    """Whether the input is settled without opening it: refused, a special file, or
    documentation found in a directory (said in `result`)."""
    if refusal:
        result.refused = refusal
        return True
    kind = _special(path)
    if kind:
        # never opened: a FIFO blocks in open(), a device like /dev/zero never ends
        result.error = (f"{path}: {kind}, not a regular file; not read (copy the hand "
                        "histories into a regular file and ingest that)")
        return True
    if not explicit and _is_documentation(path):
        result.skipped = "documentation found in a directory, not a hand history"
        return True
    return False


def _described(exc: BaseException | None) -> str:
    return f"{type(exc).__name__}: {exc}"


def _unreadable(path: Path, store: Store, fmt: str, result: FileResult, *, error: str = "",
                failure: str = "", locked: bool = False) -> None:
    """A file that says what is wrong with it (`error`, an AuditInputError's message), or
    whose reader failed on it (`failure`, the exception described): quarantined whole."""
    if error:
        result.error = error
        _quarantine_whole(path, store, result, error, fmt, locked=locked)
    else:
        # an importer defect or a hostile input it did not foresee (RecursionError,
        # MemoryError, ...): the file is quarantined whole with the reason, and ingest goes on
        _quarantine_whole(path, store, result,
                          f"{path}: the {result.format or 'input'} reader failed on this file "
                          f"({failure}); the file is quarantined whole, nothing of it was "
                          "stored", fmt, locked=locked)


def _add_hint(path: Path, fmt: str, result: FileResult) -> None:
    if fmt != "auto" and result.quarantined and not result.hands and not result.already_stored:
        result.hint = _format_hint(path, fmt)


def _format_hint(path: Path, fmt: str) -> str:
    """For a file that stored nothing under `fmt`: the format its content looks like, when
    another ("" when none, or the same)."""
    try:
        detected = detect_format(path)
    except (AuditInputError, OSError):
        return ""
    if detected == fmt:
        return ""
    return (f"its content reads as {detected}, not {fmt}; nothing of it was stored, so it "
            f"is read again when given again (--format {detected}, or leave --format out)")


def _quarantine_whole(path: Path, store: Store, result: FileResult, reason: str,
                      read_as: str, *, locked: bool = False) -> None:
    """The file itself is unreadable: quarantine it whole so nothing is lost."""
    result.reasons = [reason if reason.startswith(f"{path}:") else f"{path}: {reason}"]
    try:
        raw, digest = _safe_text(path), sha256_file(path)
    except OSError as exc:  # not readable at all: nothing of it can be stored or lost
        result.error = f"{path}: cannot be read ({exc.strerror or exc}); check its permissions"
        return
    commit = store.commit_locked if locked else store.commit
    commit(
        PendingBatch(
            rejected=[capped(Rejected(source=str(path), line=None, hand_id=None,
                                      reason=reason, raw=raw))],
            sources=[SourceFile(path=str(path), sha256=digest, read_as=read_as)],
        )
    )
    result.quarantined = 1


class _ReadFailure(Exception):
    """An unexpected exception while reading one file (its cause), as opposed to the store's
    own failures, which stop the ingest."""


_DOC_SUFFIXES = frozenset({".md", ".rst", ".pdf", ".html", ".htm", ".png", ".jpg", ".svg"})


def _is_documentation(path: Path) -> bool:
    """READMEs and the like that sit beside hand histories in a directory (named on the
    command line, such a file is still read, and fails loudly if it is no hand history)."""
    stem = path.name.upper()
    return path.suffix.lower() in _DOC_SUFFIXES or stem.startswith(("README", "LICENSE"))


def _safe_text(path: Path, limit: int = 1 << 20) -> str:
    with path.open("rb") as f:  # never the whole file: it may be any size
        data = f.read(limit)
    return data.decode("utf-8", errors="backslashreplace")


MAX_REASONS = 50  # reasons kept for the summary; every one is in the quarantine file


def _reason(r: Rejected) -> str:
    return f"{r.source}:{r.line if r.line is not None else '-'} hand {r.hand_id or '?'}: {r.reason}"


def _read_checked(importer: Any, path: Path, unit: str) -> Iterator[tuple[Any, Any]]:
    """Each chunk of the file with its structural check; any exception of the reading (not
    an AuditInputError, which says what is wrong with the file) becomes a _ReadFailure."""
    chunks = iter(importer.read(path))
    while True:
        try:
            chunk = next(chunks)
            checked = validate_events(chunk.table, chunk.lines, str(path), unit)
        except StopIteration:
            return
        except AuditInputError:
            raise
        except Exception as exc:  # noqa: BLE001 - one file's input never stops the ingest
            raise _ReadFailure() from exc
        yield chunk, checked


def _already_ingested(store: Store, digest: str, retry_quarantined: bool,
                      read_as: str = "") -> tuple[str, bool]:
    """(why a file with these bytes is not read again, "" when it is read; whether its hands
    are still only in quarantine). Skipped: a batch of the same bytes stored hands (unless
    `retry_quarantined` and it quarantined some), or one asked to read them the same way
    (`read_as`) stored nothing and quarantined them (reading again would only repeat the
    quarantine records; another --format, or `retry_quarantined` after a fix, reads them)."""
    stored = quarantined = same_request_failed = False
    for record in store.records():
        sources = [s for s in record.get("sources", []) if s.get("sha256") == digest]
        if sources:
            stored = stored or record.get("hands", 0) > 0
            quarantined = quarantined or record.get("quarantined", 0) > 0
            same_request_failed = same_request_failed or (
                bool(read_as) and record.get("hands", 0) == 0
                and record.get("quarantined", 0) > 0
                and any(s.get("read_as") == read_as for s in sources))
    if retry_quarantined and quarantined:
        return "", False
    if stored:
        return "identical bytes already ingested", False
    if same_request_failed:
        how = "by content" if read_as == "auto" else f"as {read_as}"
        return (f"identical bytes already read {how} and quarantined, nothing of them stored "
                "(SELECT * FROM quarantine in `poker-audit query` says why); another "
                "--format, or --retry-quarantined after a fix, reads them again"), True
    return "", False


@dataclass(frozen=True, slots=True)
class _Opened:
    """An input about to be read: its bytes' hash, the format it is read as, and whether
    progress counts its lines or (Parquet) rows."""

    digest: str
    name: str
    unit: str


def _hash_input(path: Path) -> str:
    try:
        return sha256_file(path)
    except OSError as exc:
        raise AuditInputError(f"{path}: cannot be read ({exc.strerror or exc}); check its "
                              "permissions") from None


def _open_input(path: Path, store: Store, fmt: str, result: FileResult,
                retry_quarantined: bool, digest: str | None = None) -> _Opened | None:
    """Hash the file (unless `digest` is its hash) and name its format; None when it is
    skipped (said in `result`): identical bytes already ingested, or empty. A file that
    cannot be read is an AuditInputError."""
    digest = digest or _hash_input(path)
    try:
        result.skipped, result.still_quarantined = _already_ingested(
            store, digest, retry_quarantined, fmt)
        if result.skipped:
            return None
        if path.stat().st_size == 0:  # a site's log of a session without a hand
            result.skipped = "the file is empty: no hand in it"
            return None
        name = detect_format(path) if fmt == "auto" else fmt
        result.format = name
        get_importer(name)
        with path.open("rb") as f:
            unit = "row" if f.read(4) == b"PAR1" else "line"
    except OSError as exc:
        raise AuditInputError(f"{path}: cannot be read ({exc.strerror or exc}); check its "
                              "permissions") from None
    return _Opened(digest=digest, name=name, unit=unit)


def _ingest_locked(path: Path, store: Store, fmt: str, result: FileResult,
                   retry_quarantined: bool, read: _FileProgress | None,
                   opened: _Opened) -> None:
    """One file -> one batch, streamed, under the store's lock: see _FileBatch."""
    # a concurrent ingest of the same bytes won
    result.skipped, result.still_quarantined = _already_ingested(
        store, opened.digest, retry_quarantined, fmt)
    if result.skipped:
        return
    batch = _FileBatch(store.batch_writer())
    try:
        batch.stage(path, opened, read)
        batch.commit(store, path, opened, fmt, result)
    except BaseException:
        batch.writer.abort()
        raise


@dataclass(frozen=True, slots=True, kw_only=True)
class StagedFile:
    """A file's batch staged and not committed (by a worker of a parallel ingest): what
    committing it needs."""

    batch: StagedBatch
    seen: list[str]  # the file's hand ids
    reasons: list[str]
    rows: int
    rejected: int


class _FileBatch:
    """One file's batch: `stage` streams its chunks into staging (each chunk validated,
    deduplicated within the file and written as it arrives, so memory is bounded by a chunk
    plus the file's hand ids, never the file's events or the store's hands); `commit` takes
    out the hands the store already holds and commits. The two may run in different
    processes (detach / resume), the caller holding the store's lock throughout."""

    def __init__(self, writer: BatchWriter, staged: StagedFile | None = None) -> None:
        self.writer = writer
        self.seen: set[str] = set(staged.seen) if staged else set()  # this file's hand ids
        self.reasons: list[str] = list(staged.reasons) if staged else []
        self.rows = staged.rows if staged else 0
        self.rejected = staged.rejected if staged else 0

    @classmethod
    def resume(cls, store: Store, staged: StagedFile) -> _FileBatch:
        """Committed now: the batch takes the id of this time (ids sort in commit order)."""
        return cls(BatchWriter.resume(store, staged.batch, now=datetime.now(UTC)), staged)

    def detach(self) -> StagedFile:
        return StagedFile(batch=self.writer.detach(), seen=sorted(self.seen),
                          reasons=self.reasons, rows=self.rows, rejected=self.rejected)

    def quarantine(self, found: list[Rejected]) -> None:
        found = [capped(r) for r in found]
        self.writer.reject(found)
        self.rejected += len(found)
        self.reasons.extend(_reason(r) for r in found[: max(0, MAX_REASONS - len(self.reasons))])

    def stage(self, path: Path, opened: _Opened, read: _FileProgress | None) -> None:
        importer = get_importer(opened.name)
        # the next chunk is read and checked on a second thread while this one is
        # written (audit/ingest/readahead.py): the same chunks, in the same order
        with contextlib.closing(read_ahead(_read_checked(importer, path, opened.unit))) as chunks:
            for chunk, checked in chunks:
                if read:
                    read.chunk(chunk.lines, opened.unit)
                table, repeats = _drop_repeated_hands(checked.table, self.seen, str(path))
                self.quarantine([*chunk.rejected, *checked.rejected, *repeats])
                self.rows += table.num_rows
                for date, part in _date_partitions(table).items():
                    self.writer.write(date, part)

    def commit(self, store: Store, path: Path, opened: _Opened, fmt: str,
               result: FileResult) -> None:
        # Hands already in the store: one lookup of the whole file's ids after it is
        # written, in the store's hand-id index (its cost follows the file's ids, not the
        # files stored; a duplicate is rare: its hands are taken back out of staging). The
        # same hand from an overlapping export is already stored; another hand under a
        # stored id is quarantined.
        already = 0
        stored = store.find_hands(pa.array(list(self.seen), pa.string()))
        if stored:
            dropped = self.writer.drop_hands(pa.array(sorted(stored), pa.string()))
            self.rows -= dropped.num_rows
            same = identical_hands(dropped, store.read_hands(sorted(stored)))
            already = len(same)
            differing = dropped.filter(pc.invert(pc.is_in(
                dropped.column("hand_id"), value_set=pa.array(sorted(same), pa.string()))))
            self.quarantine(_quarantined_hands(differing, str(path), _in_store))
        if not self.rows and not self.rejected and not already and opened.name != "events":
            # A hand history that yields no hand (e.g. a PHH file holding only a
            # comment) was cut short or is not one: the caller quarantines the whole
            # file. A native event table with a header and no rows is an empty export.
            raise AuditInputError(f"{path}: no hand in the file (read as {opened.name})")
        if self.rows or self.rejected:  # a file all of whose hands are stored commits nothing
            self.writer.sources.append(SourceFile(path=str(path), sha256=opened.digest,
                                                  read_as=fmt))
        record = self.writer.commit()
        result.reasons = self.reasons
        result.already_stored = already
        if record:
            result.batch_id = record["batch_id"]
            result.hands = record["hands"]
            result.rows = record["rows"]
            result.quarantined = record["quarantined"]
