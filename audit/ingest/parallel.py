"""Parallel ingest: the files of one ingest read, checked and encoded in worker processes, and
committed in input order by the parent.

What a worker does for one file is what one-worker ingest does before its commit: hash the
bytes, name the format, stream the chunks through validation and the within-file dedup into
the batch's staging directory (Parquet encoding and Merkle leaves: most of ingest's CPU). It
hands back the staged batch (BatchWriter.detach: counts, leaves, digests; the file's hand ids
and quarantine reasons), never the events. The parent takes each file's outcome in input
order and does the rest exactly as one worker would at that point of the ingest: looks again
whether identical bytes were ingested meanwhile (an earlier file of this ingest may be their
twin: its staged batch is then dropped), takes out the hands the store already holds (earlier
files of this ingest included, since they are committed by then), commits, or quarantines
the file whole when the worker could not read it. So the store gets the same batches in the
same order with the same files, quarantine and summary as one worker; only batch ids and
creation times differ (they always do between two ingests; a batch takes its id when it is
committed, so ids sort in commit order as one worker's do).

The parent holds the store's writer lock from the first file to the last: workers write
into staging under it, and another writer's recovery would otherwise delete a staged batch
not yet committed. A concurrent ingest therefore waits for the whole parallel ingest rather
than file by file; readers take no lock and are not held up. At most `2 * workers` files are
staged ahead of the commit (disk, not memory; each worker holds a few chunks). If the parent
fails (the store's own failure, a worker that died), no later batch is committed, and the
staged ones are removed under the lock before the error goes out.

On a first run after install (numba's cache empty or stale for a reader the input needs), one
worker first stages alone the largest file of each such format, compiling that reader's
passes into the cache once, before the pool starts (`_stage_compiling_files_alone`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from audit.compiled import CompiledModule
from audit.errors import AuditInputError
from audit.importers import COMPILED_PASSES, compiled_passes, detect_format
from audit.importers.base import ReadLimits, using_limits
from audit.ingest.pipeline import (
    FileResult,
    IngestSummary,
    StagedFile,
    _add_hint,
    _already_ingested,
    _described,
    _FileBatch,
    _FileProgress,
    _hash_input,
    _ingest_one,
    _open_input,
    _Opened,
    _ReadFailure,
    _screened,
    _unreadable,
)
from audit.store.dataset import BatchWriter, Store, new_batch_id
from audit.workers import worker_pool


@dataclass(frozen=True, slots=True, kw_only=True)
class _Job:
    path: str
    store: str
    fmt: str
    retry_quarantined: bool
    limits: ReadLimits
    batch_id: str  # the staging directory's name; the batch is renamed when committed
    now: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class _Outcome:
    """What a worker made of one file. `opened` is None when the worker found it skipped
    (looked at the store as the worker saw it: the parent looks again) or could not hash
    it."""

    format: str = ""
    opened: _Opened | None = None
    digest: str = ""
    error: str = ""  # an AuditInputError's message: the file says what is wrong with it
    failure: str = ""  # the reader failed on the file: the exception described
    staged: StagedFile | None = None


def _stage(job: _Job) -> _Outcome:
    """In a worker: one file read into a staged batch (see the module's docstring)."""
    path, store = Path(job.path), Store(job.store)
    result = FileResult(path=job.path)
    digest = ""
    batch: _FileBatch | None = None
    with using_limits(job.limits):
        try:
            digest = _hash_input(path)
            opened = _open_input(path, store, job.fmt, result, job.retry_quarantined, digest)
            if opened is None:
                return _Outcome(format=result.format, digest=digest)
            batch = _FileBatch(store.batch_writer(now=job.now, batch_id=job.batch_id))
            batch.stage(path, opened, None)
            return _Outcome(format=result.format, opened=opened, digest=digest,
                            staged=batch.detach())
        except AuditInputError as exc:
            outcome = _Outcome(format=result.format, digest=digest, error=str(exc))
        except _ReadFailure as failure:
            outcome = _Outcome(format=result.format, digest=digest,
                               failure=_described(failure.__cause__))
        except BaseException:
            if batch is not None:
                batch.writer.abort()
            raise
    if batch is not None:
        batch.writer.abort()
    return outcome


def ingest_in_workers(inputs: Sequence[tuple[Path, str]], explicit: set[Path], store: Store,
                      *, fmt: str, progress: Callable[[int], None] | None,
                      limits: ReadLimits, retry_quarantined: bool, workers: int,
                      summary: IngestSummary) -> None:
    """Ingest `inputs` (path, refusal) with `workers` processes into `summary`'s files."""
    # each worker keeps Arrow to its own thread (plus the read-ahead and the Merkle hasher
    # ingest runs anyway) and dies with this process however it dies (audit/workers.py);
    # preloaded, the imports are paid once, not per worker

    def job(path: Path) -> _Job:
        now = datetime.now(UTC)  # renamed at its commit (_FileBatch.resume)
        return _Job(path=str(path), store=str(store.root), fmt=fmt,
                    retry_quarantined=retry_quarantined, limits=limits,
                    batch_id=new_batch_id(now), now=now)

    pending: deque[tuple[Path, str, FileResult, Future[_Outcome] | None]] = deque()
    with store.locked():
        try:
            ahead = _stage_compiling_files_alone(inputs, explicit, fmt, job)
            with worker_pool(workers, "audit.ingest.parallel") as pool:
                try:
                    for number, (path, refusal) in enumerate(inputs):
                        result = FileResult(path=str(path))
                        summary.files.append(result)
                        future = None
                        if not _screened(path, path in explicit, refusal, result):
                            future = ahead.pop(number, None) or pool.submit(_stage, job(path))
                        pending.append((path, refusal, result, future))
                        while len(pending) > 2 * workers or (pending and pending[0][3] is None):
                            _settle(*pending.popleft(), store, fmt, retry_quarantined, limits,
                                    explicit, progress)
                    while pending:
                        _settle(*pending.popleft(), store, fmt, retry_quarantined, limits,
                                explicit, progress)
                except BaseException:
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
        except BaseException:
            store.recover()  # still locked: every staged batch not committed goes
            raise


def _stage_compiling_files_alone(inputs: Sequence[tuple[Path, str]], explicit: set[Path],
                                 fmt: str, job: Callable[[Path], _Job]
                                 ) -> dict[int, Future[_Outcome]]:
    """A first run after install: N workers would each compile the same site readers'
    compiled passes at once (minutes of CPU and most of a GB apiece) and race on numba's
    cache files. So while a reader's passes are not in the cache, one worker stages alone the
    largest file of each such format (the one most likely to run every pass), compiling
    them into the cache, and exits; the pool's workers then load them from there (seconds).
    The staged files are committed in input order as any other (input number -> outcome).
    A warm ingest opens no such pool and names no file's format here."""
    cold = _formats_to_compile()
    if not cold:
        return {}
    largest: dict[str, tuple[int, int]] = {}  # format -> (size, input number)
    for number, (path, refusal) in enumerate(inputs):
        if _screened(path, path in explicit, refusal, FileResult(path=str(path))):
            continue
        try:
            name = detect_format(path) if fmt == "auto" else fmt
            size = path.stat().st_size
        except (AuditInputError, OSError):
            continue  # the worker says what is wrong with it, in its turn
        if name in cold and size > largest.get(name, (-1, 0))[0]:
            largest[name] = (size, number)
    if not largest:
        return {}
    cold[min(largest, key=lambda name: largest[name][1])].announce_compile()
    with worker_pool(1, "audit.ingest.parallel") as pool:
        return {number: pool.submit(_stage, job(inputs[number][0]))
                for _, number in sorted(largest.values(), key=lambda t: t[1])}


def _formats_to_compile() -> dict[str, CompiledModule]:
    """Format -> a compiled pass of its reader that the first process to run it compiles."""
    cold: dict[str, CompiledModule] = {}
    for name in COMPILED_PASSES:
        pending = [p for p in compiled_passes(name) if p.compile_pending()]
        if pending:
            cold[name] = pending[0]
    return cold


def _settle(path: Path, refusal: str, result: FileResult, future: Future[_Outcome] | None,
            store: Store, fmt: str, retry_quarantined: bool, limits: ReadLimits,
            explicit: set[Path], progress: Callable[[int], None] | None) -> None:
    """The parent's part of one file, in input order, under the lock."""
    if future is not None:
        _settle_outcome(path, result, future.result(), store, fmt, retry_quarantined,
                        limits, explicit)
    if progress and not refusal:  # as one worker counts: every input it looks at
        _FileProgress(path, progress).finish()


def _settle_outcome(path: Path, result: FileResult, outcome: _Outcome, store: Store,
                    fmt: str, retry_quarantined: bool, limits: ReadLimits,
                    explicit: set[Path]) -> None:
    result.format = outcome.format
    skipped, still = ("", False)
    if outcome.digest:  # as one worker would see the store now, with the earlier files in
        skipped, still = _already_ingested(store, outcome.digest, retry_quarantined, fmt)
    if skipped:
        result.skipped, result.still_quarantined, result.format = skipped, still, ""
        if outcome.staged is not None:
            BatchWriter.resume(store, outcome.staged.batch).abort()
    elif outcome.error or outcome.failure:
        _unreadable(path, store, fmt, result, error=outcome.error, failure=outcome.failure,
                    locked=True)
        _add_hint(path, fmt, result)
    elif outcome.staged is None or outcome.opened is None:
        # the worker saw it skipped (or empty) in the store as it was then: decided again
        # here, as one worker would now (rare: twins of one ingest, or --retry-quarantined)
        result.format = ""
        with using_limits(limits):
            _ingest_one(path, path in explicit, "", store, fmt, result, retry_quarantined,
                        locked=True)
    else:
        batch = _FileBatch.resume(store, outcome.staged)
        try:
            batch.commit(store, path, outcome.opened, fmt, result)
        except AuditInputError as exc:
            batch.writer.abort()
            _unreadable(path, store, fmt, result, error=str(exc), locked=True)
        except BaseException:
            batch.writer.abort()
            raise
        _add_hint(path, fmt, result)
