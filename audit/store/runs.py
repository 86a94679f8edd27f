"""Audit runs committed to the store's hash chain, and checked before anyone reads them.

An audit writes its run into `runs/.<run_id>.tmp` (Store.claim_run), then commits it like a
batch: every file of the run (run.json and each output part) is fsynced and hashed into a run
record, appended to manifest.jsonl under the writer lock (the commit point), and only then is
the directory renamed to `runs/<run_id>`. A run record carries the run's metadata (run.json's
content), so which runs exist and which one is "latest" (the last run record) are decided by
the chain, never by directory names:

    {"kind": "run", "run_id": ..., "run": {run.json}, "outputs": [{"path": "run.json",
     "sha256": ..., "bytes": ...}, {"path": "findings/part-0000000.parquet", ...}, ...],
     "chain": 2, "prev_hash": ..., "hash": ...}

Files a later command adds to a committed run (`poker-audit collusion`: collusion.parquet and
the pair aggregates it keeps) are committed the same way, by a "run_files" record naming the
run; a later record of the same file replaces the earlier one. Batch records never carry a
"kind"; run records carry no batch_id, files or hands, so the event readers skip them.

A crash before the commit point leaves `runs/.<id>.tmp`, which recovery removes (no run is
visible); a crash after it leaves a committed run still in its tmp directory, which recovery
renames into place (readers find it there meanwhile).

Before a run's files are read (`findings`, `report`, `collusion`, the SQL views) the run is
checked: each committed file present with its hash, no other file in the run's directory. A
run that fails is refused with one line naming it (RunCheckError); `verify` names each
problem, and any directory under runs/ that no run record names.

Stores written before runs were committed (no run record at all) still read: their runs are
found by directory name as before and reported as unprotected (`verify` lists them; readers
say so). Once a store has a committed run, a run directory no record names is never read, and
`verify` reports it (an old run of such a store can be moved out of the store, or audited
again).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from audit.errors import RunCheckError
from audit.store.chain import (
    CHAIN_VERSION,
    MANIFEST,
    RUN_LOCK_SUFFIX,
    RUN_TMP_SUFFIX,
    VerifyProblem,
    _fsync_dir,
    _fsync_file,
    record_hash,
    sha256_file,
)

if TYPE_CHECKING:  # runs take the Store they work on; the Store's verify calls verify_runs
    from audit.store.dataset import Store

RUN_KIND = "run"
RUN_FILES_KIND = "run_files"

__all__ = ["RunCheckError", "check_run", "commit_run", "commit_run_files", "committed_runs",
           "require_intact", "run_dirs", "run_path", "run_unprotected", "verify_runs",
           "visible_runs"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CommittedRun:
    """A run as the chain records it: its metadata and the sha256 of each of its files
    (paths relative to the run's directory)."""

    run_id: str
    meta: dict[str, Any]
    files: dict[str, str]
    # the record's own hash does not match its content: its metadata or file list cannot be
    # trusted, so the run fails its check (verify also reports the record)
    edited: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class VisibleRun:
    """A run readers may use: committed (checked before reading), or a legacy run of a store
    that has no committed run (unprotected)."""

    run_id: str
    meta: dict[str, Any]
    committed: bool


def committed_runs(records: Sequence[dict[str, Any]]) -> dict[str, CommittedRun]:
    """Every run the chain commits, in commit order (dicts keep insertion order)."""
    runs: dict[str, CommittedRun] = {}
    for record in records:
        kind = record.get("kind")
        run_id = str(record.get("run_id"))
        outputs = {str(f["path"]): str(f["sha256"]) for f in record.get("outputs", [])}
        if kind not in (RUN_KIND, RUN_FILES_KIND):
            continue
        edited = record_hash(record) != record.get("hash")
        if kind == RUN_KIND:
            # the run id readers key on is the record's, whatever the embedded run.json says
            meta = {**dict(record.get("run") or {}), "run_id": run_id}
            runs[run_id] = CommittedRun(run_id=run_id, meta=meta, files=outputs, edited=edited)
        elif kind == RUN_FILES_KIND and run_id in runs:
            runs[run_id].files.update(outputs)
            if edited:
                runs[run_id] = replace(runs[run_id], edited=True)
    return runs


def run_path(store: Store, run_id: str) -> Path:
    """Where a run's files are: `runs/<id>`, or still `runs/.<id>.tmp` when the audit died
    between its commit point and the rename (recovery renames it; a read-only copy keeps
    it)."""
    final = store.runs_dir / run_id
    tmp = store.runs_dir / f".{run_id}{RUN_TMP_SUFFIX}"
    if not final.exists() and tmp.is_dir():
        return tmp
    return final


def _is_scratch(name: str) -> bool:
    """A file written whole under a temporary name and renamed (collusion outputs): a crash
    can leave one; no reader ever reads it."""
    return name.startswith(".") and name.endswith(".tmp")


# Runs found intact in this process, by what the check read: the run record's hashes and each
# file's inode, size, mtime and ctime (a write, rename or replace changes the ctime, which no
# user can set back). One command checks the same run several times (each SQL view, each
# output); it hashes the files once.
_INTACT: set[tuple[Any, ...]] = set()


def _fingerprint(base: Path, run: CommittedRun) -> tuple[Any, ...]:
    stats = []
    for path in sorted(base.rglob("*")):
        st = path.lstat()
        stats.append((path.relative_to(base).as_posix(), st.st_ino, st.st_size,
                      st.st_mtime_ns, st.st_ctime_ns))
    return (str(base.resolve()), tuple(sorted(run.files.items())), tuple(stats))


def check_run(store: Store, run: CommittedRun, *, cached: bool = True) -> list[VerifyProblem]:
    """Each committed file of the run present with its hash, and no other file beside them.
    `cached`: a run this process found intact, and whose files have not changed since, is
    not hashed again (verify always hashes)."""
    base = run_path(store, run.run_id)
    where = f"runs/{run.run_id}"
    if run.edited:
        return [VerifyProblem(kind="manifest", path=MANIFEST,
                              detail=f"the record of audit run {run.run_id} was edited")]
    if not base.is_dir():
        return [VerifyProblem(kind="missing", path=where,
                              detail="committed audit run directory is gone")]
    fingerprint = _fingerprint(base, run)
    if cached and fingerprint in _INTACT:
        return []
    problems = []
    for rel, digest in sorted(run.files.items()):
        path = base / rel
        if not path.is_file():
            problems.append(VerifyProblem(kind="missing", path=f"{where}/{rel}",
                                          detail="file of a committed audit run is gone"))
        elif sha256_file(path) != digest:
            problems.append(VerifyProblem(kind="modified", path=f"{where}/{rel}",
                                          detail="sha256 differs from the run record"))
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base).as_posix()
        if (path.is_file() or path.is_symlink()) and rel not in run.files \
                and not _is_scratch(path.name):
            problems.append(VerifyProblem(kind="unlisted", path=f"{where}/{rel}",
                                          detail="file is not in the run record"))
    if not problems:
        _INTACT.add(fingerprint)
    return problems


def verify_runs(store: Store, records: Sequence[dict[str, Any]]
                ) -> tuple[list[VerifyProblem], tuple[str, ...]]:
    """(problems, unprotected legacy run ids) of the store's runs, for Store.verify."""
    runs = committed_runs(records)
    problems: list[VerifyProblem] = []
    for number, record in enumerate(records, start=1):
        if record.get("kind") == RUN_FILES_KIND and str(record.get("run_id")) not in runs:
            problems.append(VerifyProblem(
                kind="run", path=f"manifest.jsonl record {number}",
                detail=f"adds files to run {record.get('run_id')!r}, which no earlier run "
                "record commits"))
    for run in runs.values():
        problems += check_run(store, run, cached=False)
    unprotected = []
    if store.runs_dir.is_dir():
        for entry in sorted(store.runs_dir.iterdir()):
            name = entry.name
            if name.startswith("."):
                # a run in progress or abandoned (.<id>.tmp and its .lock: Store.claim_run and
                # remove_abandoned_runs), or a committed one not yet renamed (checked above)
                if name.endswith((RUN_TMP_SUFFIX, RUN_LOCK_SUFFIX)):
                    continue
            elif name in runs:
                continue
            if not runs and entry.is_dir() and (entry / "run.json").exists():
                unprotected.append(name)
                continue
            problems.append(VerifyProblem(
                kind="unlisted", path=f"runs/{name}",
                detail="not an audit run the chain commits (no run record in manifest.jsonl "
                "names it); a forged or leftover run: move it out of the store"))
    return problems, tuple(unprotected)


# ---------------------------------------------------------------------------- reading


def _legacy_runs(store: Store) -> list[VisibleRun]:
    """Runs of a store written before runs were committed: every `runs/<id>/run.json`, by
    directory name (run ids sort by time)."""
    if not store.runs_dir.is_dir():
        return []
    runs = []
    for d in sorted(store.runs_dir.iterdir()):
        meta_path = d / "run.json"
        if d.name.startswith(".") or not meta_path.is_file():
            continue
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            run_id = meta["run_id"]
        except (ValueError, TypeError, KeyError) as exc:
            raise RunCheckError(
                f"{meta_path}: audit run metadata is unreadable ({type(exc).__name__}); "
                f"run `poker-audit verify --store {store.root}`") from None
        runs.append(VisibleRun(run_id=str(run_id), meta=meta, committed=False))
    return runs


def visible_runs(store: Store) -> list[VisibleRun]:
    """The runs readers may use, oldest first: the committed runs in chain order, or, in a
    store without any, its legacy (unprotected) runs."""
    runs = committed_runs(store.records())
    if runs:
        return [VisibleRun(run_id=r.run_id, meta=r.meta, committed=True)
                for r in runs.values()]
    return _legacy_runs(store)


def require_intact(store: Store, run_ids: Sequence[str]) -> None:
    """Raise RunCheckError, naming the run and its first problem, unless every committed run
    of `run_ids` passes its check (legacy runs cannot be checked)."""
    runs = committed_runs(store.records())
    for run_id in run_ids:
        run = runs.get(run_id)
        if run is None:
            continue
        problems = check_run(store, run)
        if problems:
            first = problems[0]
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise RunCheckError(
                f"audit run {run_id} in {store.root} fails its check: {first.path}: "
                f"{first.detail}{more}; run `poker-audit verify --store {store.root}`")


def run_dirs(store: Store) -> list[Path]:
    """The directories of every visible run, each committed one checked first."""
    runs = visible_runs(store)
    require_intact(store, [r.run_id for r in runs if r.committed])
    return [run_path(store, r.run_id) for r in runs]


def run_file(store: Store, run_id: str, rel: str) -> Path | None:
    """A file of a run (e.g. collusion.parquet) when the run has it: for a committed run only
    if a record commits it."""
    runs = committed_runs(store.records())
    if runs:
        run = runs.get(run_id)
        return run_path(store, run_id) / rel if run is not None and rel in run.files else None
    path = store.runs_dir / run_id / rel
    return path if path.is_file() else None


def run_unprotected(store: Store, run_id: str) -> bool:
    """A legacy run: written before runs were committed, so nothing can check it."""
    return any(r.run_id == run_id and not r.committed for r in visible_runs(store))


def latest_run_id(store: Store) -> str | None:
    runs = visible_runs(store)
    return runs[-1].run_id if runs else None


# ---------------------------------------------------------------------------- writing


def _outputs(base: Path, paths: Sequence[Path]) -> list[dict[str, Any]]:
    outputs = []
    for path in sorted(paths):
        _fsync_file(path)
        outputs.append({"path": path.relative_to(base).as_posix(), "sha256": sha256_file(path),
                        "bytes": path.stat().st_size})
    return outputs


def _append(store: Store, record: dict[str, Any]) -> dict[str, Any]:
    """Chain a run record onto the head and append it; the caller holds `store.locked()`."""
    record = {**record, "chain": CHAIN_VERSION, "prev_hash": store.head()}
    record["hash"] = record_hash(record)
    store._append_record(record)
    return record


def commit_run(store: Store, run_id: str, tmp: Path, meta: dict[str, Any],
               *, _crash_at: str | None = None) -> dict[str, Any]:
    """Commit the run written in `tmp` (its claim held) and rename it to `runs/<run_id>`.
    `_crash_at` ("committed") is a test hook: the process dies after the commit point."""
    files = [p for p in tmp.rglob("*") if p.is_file()]
    outputs = _outputs(tmp, files)
    for d in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
        _fsync_dir(d)
    with store.locked():
        record = _append(store, {"kind": RUN_KIND, "run_id": run_id, "run": meta,
                                 "outputs": outputs})
        if _crash_at == "committed":
            os._exit(137)
        os.replace(tmp, store.runs_dir / run_id)  # visible whole, and only once committed
        _fsync_dir(store.runs_dir)
    return record


def commit_run_files(store: Store, run_id: str, paths: Sequence[Path]) -> None:
    """Commit files a later command wrote into a committed run's directory (a "run_files"
    record); nothing to do for a legacy run, which the chain does not protect."""
    if run_id not in committed_runs(store.records()):
        return
    base = run_path(store, run_id)
    outputs = _outputs(base, paths)
    with store.locked():
        _append(store, {"kind": RUN_FILES_KIND, "run_id": run_id, "outputs": outputs})
