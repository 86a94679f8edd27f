"""The append-only event store: Parquet files, a hash-chained manifest, locking and verify.

Layout (ARCHITECTURE.md):

    STORE/manifest.jsonl                        one JSON record per committed batch
    STORE/events/date=YYYY-MM-DD/<batch>.parquet
    STORE/quarantine/<batch>/rejected.jsonl     rejected input with file, line and reason
    STORE/index/<batch>.hid                     the batch's hand-id index: sorted 64-bit hashes
                                                of its hand ids (audit/store/hand_index.py)
    STORE/runs/<run_id>/...                     audit runs (written by audit.run.runner), each
                                                committed by a run record in the manifest
                                                (audit/store/runs.py)
    STORE/staging/<batch>/...                   a batch being written (never read)

An audit writes its run into `runs/.<run_id>.tmp` while holding an flock on
`runs/.<run_id>.lock` (Store.claim_run); opening the store removes the tmp directory of an
audit that died, never one whose lock is held.

A batch is committed in three steps. Its files (event files, quarantine, hand-id index) are
written into `staging/<batch>/` (temp file, fsync, rename); then one manifest record is
appended and fsynced — the commit point; then the files are renamed into place. A crash
before the commit leaves only a staging directory, which the next writer deletes; a crash
after it leaves a committed batch still in staging, which the next writer rolls forward
under the lock. Readers only ever see committed batches, write nothing and take no lock: a
committed batch still in staging is read from there (Store.committed_path), so a read-only
store reads the same. Which manifest bytes are committed (a torn last line is not; a whole
last record missing its newline is) is decided by one function, read_manifest, for readers,
verify and the append path alike.

Each record also carries a Merkle root over the batch's hands (audit.store.merkle; leaves computed
from the tables in memory as the batch is written, by a compiled writer beside the Parquet
encoding), so one hand's inclusion can be proven with a few hashes
(audit.store.proof). Records are chained as sha256(prev_hash + content digest) ("chain": 2), so a
proof links a record to the chain head with one 32-byte digest per later record; records
written before that ("chain" absent) hash their whole canonical JSON and still verify.

A writer may hand over string columns as Arrow dictionary arrays (the fast simulator does,
CODED_COLUMNS): Parquet then writes their entries and indices without hashing each row's
string, and the file is read back exactly as if the table had held plain strings
(event_parquet_writer).
"""

from __future__ import annotations

import base64
import bisect
import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import StoreError
from audit.quarantine import Rejected
from audit.schema import SCHEMA_VERSION_KEY, check_file_version, events_schema, schema_version
from audit.store import hand_index, merkle
from audit.store.chain import (
    _CHUNK,
    CHAIN_VERSION,
    GENESIS,
    MANIFEST,
    RUN_LOCK_SUFFIX,
    RUN_TMP_SUFFIX,
    VerifyProblem,
    _fsync_dir,
    _fsync_file,
    read_manifest,
    record_hash,
    sha256_file,
)
from audit.store.runs import verify_runs

# How event files are encoded (the logical data is the events schema either way): zstd;
# Parquet dictionaries for the string columns and the small integers that repeat (not for
# the game struct's fields, set on one row per hand: a dictionary there costs time and
# bytes); min/max statistics on hand_id only, the one column the store prunes row groups by
# (find_hands); big write batches. A simulated 100k hands: about a fifth less CPU to encode
# than the defaults, and a smaller file (audit/devtools/fast_bench.py engine_stages).
# The game struct's fields are snappy, not zstd: they are mostly the nesting levels of rows
# where the struct is null, which zstd spends more CPU on for little (a simulated 100k
# hands: ~8% less CPU to encode the file, 1.5 MB more). ts is delta-encoded (a hand's
# events are a second apart): less CPU than plain + zstd, and the column is a quarter of
# the size (3.6 MB less per 100k hands), so files end ~13% smaller than all-zstd plain.
_GAME_LEAVES = [f"game.{f.name}" for f in events_schema().field("game").type]
EVENT_FILE_OPTIONS: dict[str, Any] = {
    "compression": {**{f.name: "zstd" for f in events_schema() if f.name != "game"},
                    **dict.fromkeys(_GAME_LEAVES, "snappy")},
    "column_encoding": {"ts": "DELTA_BINARY_PACKED"},
    # not table_id and amount: plain + zstd encodes them for less CPU (and amount smaller)
    "use_dictionary": ["hand_id", "kind", "player", "cards", "detail", "source", "seat",
                       "total"],
    "write_statistics": ["hand_id"],
    "write_batch_size": 1 << 20,
    "data_page_size": 8 << 20,
    # pages end at data_page_size, not every 20,000 rows (Parquet's default): each page
    # costs a compressor call and a level-encoder flush per column, 32 columns with the
    # game's fields (a simulated 100k hands: ~4% less CPU to encode, files ~6% smaller)
    "max_rows_per_page": 1 << 20,
}


# The string columns a writer may hand over as Arrow dictionary arrays (the simulator does):
# from a dictionary array Parquet writes the entries once and the indices as they are,
# instead of hashing every row's string back into a dictionary (or, for table_id, encoding
# every row's string plain: a coded table_id is dictionary-encoded, which then costs less).
# The file holds the same Parquet columns either way, and its footer the same Arrow schema
# (plain strings, see _EventFileWriter), so every reader sees the same data.
CODED_COLUMNS = tuple(f.name for f in events_schema() if pa.types.is_string(f.type))


def default_store_path() -> Path:
    """`$POKER_AUDIT_STORE`, else `./audit-store`."""
    return Path(os.environ.get("POKER_AUDIT_STORE") or "audit-store")


def new_batch_id(now: datetime) -> str:
    """Sortable and unique: UTC time to the microsecond plus random bits."""
    return now.strftime("%Y%m%dT%H%M%S%fZ") + "-" + uuid.uuid4().hex[:8]


VERIFY_THREADS = 2  # files hashed and batches' Merkle roots recomputed at once by verify


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    """An input file of a batch, identified by the hash of its bytes."""

    path: str
    sha256: str
    read_as: str = ""  # the format the ingest was asked for (`auto` or a name), when known


@dataclass(slots=True, kw_only=True)
class PendingBatch:
    """What one ingest adds: event tables per date partition, rejected input, its sources."""

    tables: dict[str, list[pa.Table]] = field(default_factory=dict)
    rejected: list[Rejected] = field(default_factory=list)
    sources: list[SourceFile] = field(default_factory=list)

    def add(self, partition: str, table: pa.Table) -> None:
        self.tables.setdefault(partition, []).append(table)

    @property
    def hands(self) -> int:
        return sum(_hand_count(t) for ts in self.tables.values() for t in ts)


def _row_groups_holding(metadata: pq.FileMetaData, ordered: list[str]) -> list[int]:
    """The row groups whose hand_id min/max statistics admit one of the `ordered` (sorted)
    ids; a row group without usable statistics is always read. Parquet orders strings by
    their UTF-8 bytes, which is the code point order Python compares by."""
    column = next((j for j in range(metadata.num_columns)
                   if metadata.row_group(0).column(j).path_in_schema == "hand_id"), None)
    if column is None:
        return list(range(metadata.num_row_groups))
    groups = []
    for i in range(metadata.num_row_groups):
        stats = metadata.row_group(i).column(column).statistics
        try:
            low, high = (stats.min, stats.max) if stats is not None and stats.has_min_max \
                else (None, None)
        except (UnicodeDecodeError, ValueError):  # not a whole string: read the group
            low = high = None
        if not isinstance(low, str) or not isinstance(high, str):
            groups.append(i)
            continue
        k = bisect.bisect_left(ordered, low)
        if k < len(ordered) and ordered[k] <= high:
            groups.append(i)
    return groups


def _index_entries(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's hand-id index file entry with its path (named by the batch id, so the
    record holds what two stores of the same hands share), as a list: none before the index,
    or for a batch without hands."""
    entry = record.get("hand_index")
    batch = record.get("batch_id")
    if not isinstance(entry, dict) or not isinstance(batch, str):
        return []
    return [{**entry, "path": hand_index.index_rel(batch)}]


def _used_values(chunk: pa.Array) -> pa.Array:
    """The distinct values of a hand_id chunk read as a Parquet dictionary (one entry per
    hand, not per event): only the entries some row uses, since a writer may hand over a
    dictionary holding more (CODED_COLUMNS)."""
    if isinstance(chunk, pa.DictionaryArray):
        return chunk.dictionary.take(pa.compute.unique(chunk.indices.drop_null()))
    return pa.compute.unique(chunk)


def _hand_count(table: pa.Table) -> int:
    if table.num_rows == 0:
        return 0
    seq = table.column("seq")
    return int(pa.compute.sum(pa.compute.equal(seq, 0)).as_py() or 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifyReport:
    batches: int
    files: int
    hands: int
    rows: int
    head: str
    problems: tuple[VerifyProblem, ...]
    # audit runs written before runs were committed to the chain: readable, not protected
    unprotected: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


class Store:
    """An event store directory. Writers serialise on a file lock; readers need no lock."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._index: hand_index.HandIndex | None = None  # loaded by the first lookup
        # the committed manifest bytes last parsed for the lookups, and their records
        self._parsed: tuple[bytes, list[dict[str, Any]]] = (b"", [])

    # ----------------------------------------------------------------- paths and reading
    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    @property
    def events_dir(self) -> Path:
        return self.root / "events"

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    def exists(self) -> bool:
        return self.manifest_path.exists()

    def records(self) -> list[dict[str, Any]]:
        """Committed manifest records in order (see read_manifest: a torn last line, from a
        crash mid-append, is not a committed record and is ignored; any other unreadable line
        is a StoreError naming it)."""
        if not self.manifest_path.exists():
            return []
        return read_manifest(self.manifest_path.read_bytes(), self.manifest_path).records

    def ensure_recovered(self) -> None:
        """Before reading. A reader writes nothing and takes no lock: a committed batch a
        crashed writer left in staging is read from there (event_files, file_path) until the
        next writer publishes it under the lock (recover), so a read-only store, or one an
        ingest holds locked, reads the same. What it still does, when it can: drop the
        unfinished output of killed audits (never an error)."""
        with contextlib.suppress(OSError):
            self.remove_abandoned_runs()

    def recover_if_needed(self) -> None:
        """For a writer about to start: publish (or drop) what a crashed writer left in
        staging, under the lock, even if this writer then commits nothing (an ingest of files
        already stored). Readers never do this (ensure_recovered)."""
        if (self.root / "staging").exists():
            with self.locked():
                pass  # locked() recovers

    def event_files(self, records: Sequence[dict[str, Any]] | None = None) -> list[Path]:
        """Committed event files (of `records`, default all), in commit order, where they are
        now: in place, or in staging when a crashed writer committed them but did not publish
        them (see committed_path)."""
        records = self.records() if records is None else records
        paths = []
        for rel in [f["path"] for r in records for f in r.get("files", [])]:
            path = self.committed_path(rel, records)
            problem = _parquet_tail_problem(path)
            if problem == "is missing":  # a writer published it from staging in between
                path = self.committed_path(rel, records)
                problem = _parquet_tail_problem(path)
            if problem:
                raise StoreError(f"{path}: committed event file {problem}; run "
                                 f"`poker-audit verify --store {self.root}`")
            paths.append(path)
        return paths

    def quarantine_files(self) -> list[Path]:
        """The rejected-input files of committed batches, where they are now (as event_files);
        a file that is gone (verify names it) is left out."""
        records = self.records()
        paths = [self.committed_path(q["path"], records)
                 for r in records for q in r.get("quarantine", [])]
        return [p for p in paths if p.exists()]

    def head(self) -> str:
        records = self._parsed_records()  # each commit asks: only new lines are parsed
        head: str = records[-1]["hash"] if records else GENESIS
        return head

    def read_events(self) -> pa.Table:
        """Every committed event as one table (small stores, tests, demo)."""
        self.ensure_recovered()
        files = self.event_files()
        if not files:
            return events_schema().empty_table()
        tables = [read_event_file(p) for p in files]
        return pa.concat_tables(tables)

    def find_hands(self, hand_ids: pa.Array) -> set[str]:
        """Which of `hand_ids` the store already holds. The ids are looked up in the hand-id
        index (audit/store/hand_index.py: loaded once per Store, then only the batches
        committed since are added), and each id whose hash it holds is confirmed against the
        hand_id column of that batch's files, reading only the row groups whose hand_id
        range (Parquet statistics) can hold it: the cost follows the ids asked for and the
        hands added since the last lookup, not the files stored."""
        wanted = pa.compute.unique(pa.chunked_array([hand_ids], pa.string()).combine_chunks()
                                   .drop_null())
        if len(wanted) == 0:
            return set()
        records = self._parsed_records()
        found: set[str] = set()
        for number, ids in self._candidates(wanted.to_pylist(), records).items():
            candidates = pa.array(ids, pa.string())
            for rel in [f["path"] for f in records[number].get("files", [])]:
                path = self.committed_path(rel, records)
                source = pq.ParquetFile(path, read_dictionary=["hand_id"])
                groups = _row_groups_holding(source.metadata, ids)
                if not groups:
                    continue
                column = source.read_row_groups(groups, columns=["hand_id"]).column("hand_id")
                for chunk in column.chunks:
                    found.update(candidates.filter(pa.compute.is_in(
                        candidates, value_set=_used_values(chunk))).to_pylist())
        return found

    def read_hands(self, hand_ids: Sequence[str]) -> pa.Table:
        """The stored events of `hand_ids` (those the store holds), in file order: only the
        files of the batches whose index holds one of their hashes are opened (find_hands),
        and of those only the row groups whose hand_id range can hold one, so memory and
        time follow the hands asked for, not the store."""
        ordered = sorted(set(hand_ids))
        tables = []
        if ordered:
            records = self._parsed_records()
            for number, ids in sorted(self._candidates(ordered, records).items()):
                wanted = pa.array(ids, pa.string())
                for rel in [f["path"] for f in records[number].get("files", [])]:
                    source = pq.ParquetFile(self.committed_path(rel, records))
                    groups = _row_groups_holding(source.metadata, ids)
                    if not groups:
                        continue
                    table = source.read_row_groups(groups).cast(events_schema())
                    table = table.filter(pa.compute.is_in(table.column("hand_id"),
                                                          value_set=wanted))
                    if table.num_rows:
                        tables.append(table)
        return pa.concat_tables(tables) if tables else events_schema().empty_table()

    def _parsed_records(self) -> list[dict[str, Any]]:
        """The committed records, for this Store's own lookups and head (never handed to a
        caller, who might change them): the manifest is read whole, but only the lines appended
        since the last lookup are parsed, when the bytes parsed then (ending in a newline)
        are still its start: read_manifest's rule applies to the new lines as to the whole;
        anything else, a rewrite or damage, is parsed again whole (damage: its StoreError)."""
        raw = self.manifest_path.read_bytes() if self.manifest_path.exists() else b""
        done, records = self._parsed
        if done.endswith(b"\n") and raw.startswith(done):
            with contextlib.suppress(StoreError):  # raised again below, with its line
                new = read_manifest(raw[len(done):], self.manifest_path)
                records = records + new.records
                self._parsed = (raw[:len(done) + new.committed_bytes], records)
                return records
        contents = read_manifest(raw, self.manifest_path)
        self._parsed = (raw[:contents.committed_bytes], contents.records)
        return contents.records

    def _candidates(self, ids: list[str], records: Sequence[dict[str, Any]]
                    ) -> dict[int, list[str]]:
        """Record number -> the `ids` whose hash that batch's index holds (sorted): where
        each may be stored; not confirmed."""
        index = self._hand_index(records)
        at, where = index.candidates(hand_index.hash_ids(ids))
        out: dict[int, list[str]] = {}
        for i, number in zip(at.tolist(), where.tolist(), strict=True):
            out.setdefault(number, []).append(ids[i])
        return {number: sorted(set(found)) for number, found in out.items()}

    def _hand_index(self, records: Sequence[dict[str, Any]]) -> hand_index.HandIndex:
        """The hand-id index of `records`: the one this Store loaded, with the batches
        committed since added; loaded afresh when the manifest no longer starts with the
        records it covers (another store at this path)."""
        index = self._index
        if index is None or index.covered > len(records) or (
                index.covered and records[index.covered - 1].get("hash") != index.head):
            index = self._index = hand_index.HandIndex()
        for number in range(index.covered, len(records)):
            record = records[number]
            if record.get("files"):
                index.add(self._batch_hashes(record, records), number)
            index.covered, index.head = number + 1, str(record.get("hash", ""))
        return index

    def _batch_hashes(self, record: dict[str, Any], records: Sequence[dict[str, Any]]
                      ) -> np.ndarray:
        """A committed batch's hand-id hashes, sorted: its index file when the record lists
        one whose bytes match; else (a batch from before the index, or an index damaged or
        gone, which verify names) hashed from the hand_id column of its event files, in
        memory, once per Store: nothing is written for it."""
        for entry in _index_entries(record):
            if entry.get("hash") != hand_index.HASH:
                continue
            try:
                data = self._read_committed(str(entry["path"]), records, Path.read_bytes)
                if hashlib.sha256(data).hexdigest() == entry.get("sha256"):
                    return hand_index.read_index(data)
            except (OSError, KeyError, ValueError):
                pass
        return self._hashes_from_events(record, records)

    def _hashes_from_events(self, record: dict[str, Any],
                            records: Sequence[dict[str, Any]] | None) -> np.ndarray:
        """The sorted, distinct hashes of the hand ids in a committed batch's event files,
        read from their hand_id column alone (_used_values)."""
        ids: set[str] = set()
        for rel in [f["path"] for f in record.get("files", [])]:
            column = self._read_committed(rel, records, lambda path: pq.ParquetFile(
                path, read_dictionary=["hand_id"]).read(columns=["hand_id"])).column("hand_id")
            for chunk in column.chunks:
                ids.update(_used_values(chunk).drop_null().to_pylist())
        return np.unique(hand_index.hash_ids(sorted(ids)))

    def changed_event_files(self) -> list[Path]:
        """Committed event files whose bytes differ from the manifest's sha256 (or that are
        gone): what to name when a read of the store fails without saying which file (DuckDB's
        "Out of buffer"). Hashes every event file; verify checks the rest."""
        records = self.records()
        changed = []
        for f in [f for r in records for f in r.get("files", [])]:
            path = self.committed_path(f["path"], records)
            try:
                same = sha256_file(path) == f["sha256"]
            except OSError:
                same = False
            if not same:
                changed.append(path)
        return changed

    def source_hashes(self) -> set[str]:
        return {s["sha256"] for r in self.records() for s in r.get("sources", [])}

    # ----------------------------------------------------------------- writing
    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Exclusive writer lock (blocks until the other writer commits)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with (self.root / ".lock").open("a+b") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                self.recover()
                yield
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)

    def recover(self) -> None:
        """Finish or undo a batch a crashed writer left in staging, and drop the output of
        killed audits. Call with the lock held."""
        with contextlib.suppress(OSError):
            self.remove_abandoned_runs()
        staging = self.root / "staging"
        if not staging.exists():
            return
        committed = {r["batch_id"]: r for r in self.records() if "batch_id" in r}
        for batch_dir in sorted(staging.iterdir()):
            record = committed.get(batch_dir.name)
            if record is None:
                shutil.rmtree(batch_dir)  # never committed: as if it never happened
                # and its index, should one have got into place (no writer puts it there
                # before the commit point; a restored backup might)
                (self.root / hand_index.index_rel(batch_dir.name)).unlink(missing_ok=True)
            else:
                self._publish(batch_dir, record)
        with contextlib.suppress(OSError):
            staging.rmdir()

    # ----------------------------------------------------------------- audit runs in progress
    def claim_run(self, run_id: str) -> RunClaim:
        """Mark an audit run as in progress before its `runs/.<id>.tmp` directory exists:
        the returned claim holds an flock on `runs/.<id>.lock` until released (or until the
        process dies, when the kernel drops it), so recovery never removes a live run's
        output."""
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        lock = (self.runs_dir / f".{run_id}{RUN_LOCK_SUFFIX}").open("a+b")
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        return RunClaim(lock=lock, tmp=self.runs_dir / f".{run_id}{RUN_TMP_SUFFIX}")

    def remove_abandoned_runs(self) -> list[str]:
        """Delete `runs/.<id>.tmp` directories whose audit is gone (its run lock is free:
        it was killed, or it was written before runs took a lock); a directory whose lock
        another process holds is a running audit and stays. Returns the run ids removed."""
        if not self.runs_dir.is_dir():
            return []
        removed = []
        for tmp in sorted(self.runs_dir.glob(f".*{RUN_TMP_SUFFIX}")):
            run_id = tmp.name[1:-len(RUN_TMP_SUFFIX)]
            lock_path = self.runs_dir / f".{run_id}{RUN_LOCK_SUFFIX}"
            with lock_path.open("a+b") as lock:
                try:
                    fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a live audit holds it
                # Ours now: the audit that made this directory can no longer publish it.
                if tmp.is_dir() and self._run_committed(run_id):
                    os.replace(tmp, self.runs_dir / run_id)  # died after its commit point
                elif tmp.is_dir():
                    shutil.rmtree(tmp)
                    removed.append(run_id)
                lock_path.unlink(missing_ok=True)
        return removed

    def _run_committed(self, run_id: str) -> bool:
        """Whether a run record of the chain names `run_id` (audit/store/runs.py)."""
        try:
            return any(r.get("kind") == "run" and r.get("run_id") == run_id
                       for r in self.records())
        except StoreError:
            return False  # an unreadable manifest commits nothing; verify names it

    def _publish(self, batch_dir: Path, record: dict[str, Any]) -> None:
        paths = [f["path"] for f in record.get("files", [])]
        paths += [q["path"] for q in record.get("quarantine", [])]
        paths += [e["path"] for e in _index_entries(record)]
        for rel in paths:
            staged = batch_dir / rel
            final = self.root / rel
            if staged.exists():
                final.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staged, final)
                _fsync_dir(final.parent)
        shutil.rmtree(batch_dir, ignore_errors=True)

    def commit(
        self, batch: PendingBatch, *, now: datetime | None = None, _crash_at: str | None = None
    ) -> dict[str, Any] | None:
        """Append a batch atomically under the writer lock; returns its manifest record."""
        with self.locked():
            return self.commit_locked(batch, now=now, _crash_at=_crash_at)

    def commit_locked(
        self, batch: PendingBatch, *, now: datetime | None = None, _crash_at: str | None = None
    ) -> dict[str, Any] | None:
        """Append an in-memory batch atomically; the caller holds `locked()`. None when empty."""
        if not batch.tables and not batch.rejected and not batch.sources:
            return None
        writer = self.batch_writer(now=now)
        try:
            for partition in sorted(batch.tables):
                for table in batch.tables[partition]:
                    writer.write(partition, table)
            writer.reject(batch.rejected)
            writer.sources.extend(batch.sources)
            return writer.commit(_crash_at=_crash_at)
        except BaseException:
            writer.abort()
            raise

    def batch_writer(
        self, *, now: datetime | None = None, batch_id: str | None = None
    ) -> BatchWriter:
        """A streaming writer for one batch; the caller holds `locked()` until commit/abort.
        `batch_id` (default: time plus random bits) lets a deterministic writer, such as the
        simulator, produce byte-identical stores from the same seed."""
        return BatchWriter(self, now or datetime.now(UTC), batch_id)

    def _append_record(self, record: dict[str, Any]) -> None:
        """Append one record line and make it durable: the commit point. What is already
        there is read by read_manifest, the rule readers and verify use: a torn last line is
        cut off first, and a last record missing its newline gets it before the new line."""
        line = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        path = self.manifest_path
        existing = path.read_bytes() if path.exists() else b""
        contents = read_manifest(existing, path)
        prefix = b"\n" if contents.needs_newline else b""
        if contents.committed_bytes < len(existing):
            # A torn line from a crashed append (or NULs after the last record): cut it off
            # so the chain stays parseable. Only bytes that were never committed go.
            with path.open("r+b") as f:
                f.truncate(contents.committed_bytes)
                f.flush()
                os.fsync(f.fileno())
            existing = existing[: contents.committed_bytes]
        try:
            with path.open("ab") as f:
                f.write(prefix + line.encode() + b"\n")
                f.flush()
                os.fsync(f.fileno())
            _fsync_dir(self.root)
        except BaseException:
            # Not known to be durable (disk full, I/O error): take the line back so the
            # failed command committed nothing. Should that fail too, the record may stand;
            # the staged batch is kept either way and recovery publishes or drops it.
            with contextlib.suppress(OSError), path.open("r+b") as f:
                f.truncate(len(existing))
                os.fsync(f.fileno())
            raise

    # ----------------------------------------------------------------- verify
    def verify(self, head: str | None = None) -> VerifyReport:
        """Recompute every file hash and the hash chain; name each modified, missing or
        unlisted file and each broken manifest record. With `head` (a chain head published
        earlier), also fail when no record of the chain has that hash: the store was rolled
        back past it (its newest records and their files deleted, which leaves nothing
        inside the store to contradict) or is another store.

        Verify reads the committed view a reader reads, and may run while a writer works:
        a committed batch still in staging is checked there, files of an uncommitted batch
        (in staging) are not looked at, and a file that appears in place while verify runs
        is unlisted only if no record committed by the end of the scan lists it."""
        problems: list[VerifyProblem] = []
        try:
            records = self.records()
            readable = True
        except StoreError as exc:
            problems.append(VerifyProblem(kind="manifest", path=MANIFEST, detail=str(exc)))
            records = []
            readable = False  # nothing is known to be listed: no file is called unlisted
        listed: dict[str, str] = {}
        indexes = 0  # hand-id index files: listed and checked, not counted as files
        damaged: set[str] = set()
        prev = GENESIS
        hands = rows = 0
        for number, record in enumerate(records, start=1):
            where = f"{MANIFEST} record {number} (batch {record.get('batch_id', '?')})"
            if record.get("hash") != record_hash(record):
                problems.append(
                    VerifyProblem(kind="manifest", path=where, detail="record was edited")
                )
            if record.get("prev_hash") != prev:
                problems.append(
                    VerifyProblem(
                        kind="chain",
                        path=where,
                        detail="prev_hash does not match the previous record: a record was "
                        "removed, reordered or inserted",
                    )
                )
            prev = record.get("hash", "")
            for f in [*record.get("files", []), *record.get("quarantine", [])]:
                listed[f["path"]] = f["sha256"]
            for entry in _index_entries(record):
                listed[str(entry["path"])] = str(entry.get("sha256"))
                indexes += 1
            hands += int(record.get("hands", 0))
            rows += int(record.get("rows", 0))
        # files hashed, then batches' Merkle roots recomputed, VERIFY_THREADS at a time
        # (hashing, Parquet and the compiled leaf writer release the GIL); the problems are
        # named in the same order as one at a time, and at most VERIFY_THREADS batches are
        # in memory at once
        def actual_digest(rel: str) -> str | None:
            try:
                return str(self._read_committed(rel, records, sha256_file))
            except FileNotFoundError:
                return None

        with ThreadPoolExecutor(max_workers=VERIFY_THREADS,
                                thread_name_prefix="verify") as pool:
            expected = sorted(listed.items())
            for (rel, digest), actual in zip(
                    expected, pool.map(actual_digest, [rel for rel, _ in expected]),
                    strict=True):
                if actual is None:
                    problems.append(VerifyProblem(kind="missing", path=rel,
                                                  detail="file is gone"))
                    damaged.add(rel)
                elif actual != digest:
                    problems.append(VerifyProblem(kind="modified", path=rel,
                                                  detail="sha256 differs from manifest"))
                    damaged.add(rel)
            merkle.load_leaf_writer()  # loaded once, before the threads use it
            for found in pool.map(lambda nr: self._verify_merkle(nr[0], nr[1], damaged),
                                  enumerate(records, start=1)):
                problems += found
        problems += self._unlisted(listed) if readable else []
        # audit runs committed to the chain (audit/store/runs.py): files, hashes, extra files
        run_problems, unprotected = verify_runs(self, records)
        problems += run_problems
        if head is not None and head not in {GENESIS, *(r["hash"] for r in records)}:
            problems.append(VerifyProblem(
                kind="head", path=MANIFEST,
                detail=f"the published head {head} is not in the chain: the store was rolled "
                "back (newest records and their files removed) or is not the store that "
                "published it"))
        return VerifyReport(
            batches=sum(1 for r in records if "batch_id" in r),
            files=len(listed) - indexes,
            hands=hands,
            rows=rows,
            head=prev if records else GENESIS,
            problems=tuple(problems),
            unprotected=unprotected,
        )

    def _unlisted(self, listed: dict[str, str]) -> list[VerifyProblem]:
        """Files under events/ and quarantine/ that no committed record lists. A batch that
        commits while verify runs publishes its files after its record is durable, so the
        manifest read again after the scan lists every file of such a batch."""
        found = []
        # not index/: a hand-id index no committed record names is never read (a rollback
        # of the newest batches leaves theirs: only a published head exposes a rollback)
        for sub in ("events", "quarantine"):
            base = self.root / sub
            if not base.exists():
                continue
            for path in sorted(base.rglob("*")):
                if path.is_file():
                    rel = path.relative_to(self.root).as_posix()
                    if rel not in listed:
                        found.append(rel)
        if found:
            # a manifest unreadable now (it read before): keep what the scan found
            with contextlib.suppress(StoreError):
                later = {f["path"] for r in self.records()
                         for f in [*r.get("files", []), *r.get("quarantine", [])]}
                found = [rel for rel in found if rel not in later]
        return [VerifyProblem(kind="unlisted", path=rel, detail="file is not in the manifest")
                for rel in found]

    def _read_committed(self, rel: str, records: Sequence[dict[str, Any]] | None,
                        read: Any) -> Any:
        """`read(path)` of a committed file where it is now (committed_path); once more if a
        writer published it from staging in between (FileNotFoundError when it is gone)."""
        try:
            return read(self.committed_path(rel, records))
        except FileNotFoundError:
            return read(self.committed_path(rel, records))

    def _verify_merkle(
        self, number: int, record: dict[str, Any], damaged: set[str]
    ) -> list[VerifyProblem]:
        """Recompute a batch's Merkle root from its event files (those whose bytes still
        match the manifest; a modified or missing file is already named), and check that its
        hand-id index holds exactly the hashes of its hands."""
        claimed = record.get("merkle")
        index = _index_entries(record)
        if claimed is None and not index:
            return []  # written before Merkle roots; its file hashes and chain still verify
        where = f"{MANIFEST} record {number} (batch {record.get('batch_id', '?')})"
        files = record.get("files", [])
        if any(f["path"] in damaged for f in files):
            return []
        problems = []
        if claimed is not None:
            try:
                leaves = self.batch_leaves(record)
            except (OSError, StoreError, ValueError, pa.ArrowException) as exc:
                return [VerifyProblem(kind="merkle", path=where,
                                      detail=f"cannot recompute the Merkle root: {exc}")]
            root = merkle.merkle_root(leaves).hex()
            if root != claimed.get("root") or len(leaves) != claimed.get("hands"):
                # the hands are not those committed: the index is checked against hands
                # the root vouches for, so this one problem names the batch
                return [VerifyProblem(
                    kind="merkle", path=where,
                    detail="Merkle root over the batch's hands differs from the manifest")]
        for entry in index:
            if str(entry["path"]) in damaged:
                continue  # its bytes are already named
            try:
                problem = self._index_problem(entry, record)
            except (OSError, StoreError, ValueError, pa.ArrowException) as exc:
                problem = f"cannot read the batch's hand ids: {exc}"
            if problem:
                problems.append(VerifyProblem(kind="index", path=str(entry["path"]),
                                              detail=problem))
        return problems

    def _index_problem(self, entry: dict[str, Any], record: dict[str, Any]) -> str:
        """Why a batch's hand-id index file does not hold exactly the hashes of the batch's
        hands ("" when it does)."""
        if entry.get("hash") != hand_index.HASH:
            return f"hand-id index of an unknown hash {entry.get('hash')!r}"
        try:
            data = self._read_committed(str(entry["path"]), None, Path.read_bytes)
            stored = hand_index.read_index(data)
        except FileNotFoundError:
            return "hand-id index file is gone"
        except ValueError as exc:
            return f"hand-id index file is not an index ({exc})"
        expected = self._hashes_from_events(record, None)
        if len(stored) != len(expected) or not bool(np.all(stored == expected)):
            return "hand-id index does not hold exactly the hashes of the batch's hands"
        return ""

    def file_path(self, rel: str) -> Path:
        """A committed file: in place, or still in staging after a crash (read-only copy)."""
        return self.committed_path(rel)

    def committed_path(self, rel: str,
                       records: Sequence[dict[str, Any]] | None = None) -> Path:
        """Where a file of a committed record is now, without writing anything: in place, or
        in `staging/<batch>/` when its writer crashed after the commit point (the next writer
        publishes it, under the lock). Publishing only ever moves a file from staging into
        place, so looking in place, then in staging, then in place again finds a file that
        moves meanwhile. A file that is nowhere is returned in place (verify names it).
        `records`: the committed records, read from the manifest when not given."""
        path = self.root / rel
        if path.exists():
            return path
        staged = self._staged_copy(rel, self.records() if records is None else records)
        if staged is not None:
            return staged
        return path

    def batch_leaves(self, record: dict[str, Any]) -> list[bytes]:
        """The Merkle leaves of a committed batch: every hand of its files, in file order."""
        leaves: list[bytes] = []
        for f in record.get("files", []):
            table = self._read_committed(f["path"], None, read_event_file)
            leaves += merkle.hand_leaves(table)
        return leaves

    def _staged_copy(self, rel: str, records: Sequence[dict[str, Any]]) -> Path | None:
        """A committed file a crashed writer left in staging (rolled forward on next open)."""
        staging = self.root / "staging"
        if not staging.is_dir():
            return None
        for record in reversed(records):
            if not isinstance(record.get("batch_id"), str):
                continue
            candidate: Path = staging / record["batch_id"] / rel
            if candidate.exists():
                return candidate
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunClaim:
    """An audit run in progress: its output directory and the lock that keeps recovery away
    from it (see Store.claim_run)."""

    lock: Any
    tmp: Path

    def release(self) -> None:
        """After the run was published (or its directory removed): drop the lock file. If the
        directory is still there (a failure between writing and publishing) the lock file
        stays with it and recovery removes both."""
        if not self.tmp.exists():
            Path(self.lock.name).unlink(missing_ok=True)
        self.lock.close()


class _HashingFile:
    """A file written once, front to back, that hashes its bytes as they go out: commit
    records the sha256 without reading the file back. pyarrow writes into it through a
    1 MB Arrow buffer (a handful of Python calls per table, not one per Parquet page)."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("wb")
        self._digest = hashlib.sha256()
        self.closed = False
        self.sha256 = ""  # set by close: the hash of every byte written

    def write(self, data: Any) -> int:
        self._digest.update(data)
        return self._file.write(data)

    def tell(self) -> int:
        return self._file.tell()

    def flush(self) -> None:
        self._file.flush()

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            self._file.close()
            self.sha256 = self._digest.hexdigest()
            self.closed = True


class _EventFileWriter:
    """A staged event file: a ParquetWriter over a _HashingFile. Same bytes as writing the
    path directly (the encoder and its options are the same); `close` leaves the file's
    sha256 in `sha256`.

    `schema`: see event_parquet_writer."""

    def __init__(self, path: Path, schema: pa.Schema | None = None) -> None:
        self.schema = schema or events_schema()
        self._file = _HashingFile(path)
        self._stream = pa.BufferedOutputStream(pa.PythonFile(self._file, mode="w"), _CHUNK)
        self._parquet = event_parquet_writer(self._stream, self.schema)

    def write_table(self, table: pa.Table) -> None:
        self._parquet.write_table(table)

    def close(self) -> None:
        """Write the footer, flush the buffer, close the file (closing the Arrow stream
        closes the file under it)."""
        self._parquet.close()
        self._stream.close()
        self._file.close()

    @property
    def sha256(self) -> str:
        return self._file.sha256


def event_parquet_writer(sink: Any, schema: pa.Schema | None = None) -> pq.ParquetWriter:
    """A Parquet writer of event tables with the store's encoding (EVENT_FILE_OPTIONS).

    `schema` is the events schema (the default), or the same with some CODED_COLUMNS as
    dictionary arrays (merkle.events_table). Parquet would store those dictionary types in
    the footer's Arrow schema, and readers would get dictionary columns back, so the footer
    is written by hand instead: the key-value metadata a plain writer stores, in the same
    order (the events schema's metadata, then the serialised plain schema). The file reads
    back as the plain events schema in pyarrow, polars and DuckDB, and a table coded in the
    order Parquet numbers its dictionary entries gives the very bytes of the plain table
    (tests/store/test_store_coded.py). A coded column is dictionary-encoded even where a plain one
    is not (table_id): from the indices that costs less than encoding every row's string."""
    schema = schema or events_schema()
    coded = [f.name for f in schema if pa.types.is_dictionary(f.type)]
    if not coded:
        return pq.ParquetWriter(sink, schema, **EVENT_FILE_OPTIONS)
    dictionary = EVENT_FILE_OPTIONS["use_dictionary"]
    options = {**EVENT_FILE_OPTIONS,
               "use_dictionary": dictionary + [c for c in coded if c not in dictionary]}
    writer = pq.ParquetWriter(sink, schema, store_schema=False, **options)
    writer.add_key_value_metadata(_plain_footer_metadata())
    return writer


def _plain_footer_metadata() -> dict[bytes, bytes]:
    """The key-value metadata pyarrow writes for the events schema (store_schema): the
    schema's own metadata, then "ARROW:schema", the base64 of the serialised schema."""
    schema = events_schema()
    arrow = base64.b64encode(schema.serialize().to_pybytes())
    return {**(schema.metadata or {}), b"ARROW:schema": arrow}


@dataclass(frozen=True, slots=True, kw_only=True)
class StagedBatch:
    """A batch written to staging and closed, not committed (BatchWriter.detach): what its
    commit needs besides the files, small enough to send between processes (32 bytes of
    Merkle leaf per hand)."""

    batch_id: str
    now: datetime
    counts: dict[str, tuple[int, int]]  # partition -> (rows, hands)
    leaves: dict[str, bytes]  # partition -> its hands' 32-byte leaves, in file order
    hashes: dict[str, bytes]  # partition -> its hands' 8-byte id hashes (hand_index)
    digests: dict[str, str]  # partition -> sha256 of its closed event file
    rejected: int  # lines in the staged quarantine file


def _renamed(store: Store, staged: StagedBatch, now: datetime) -> StagedBatch:
    """`staged` under a new batch id of time `now`: its staging directory and the files
    named by the id renamed (not committed, so recovery would drop either name)."""
    batch_id = new_batch_id(now)
    old_dir = store.root / "staging" / staged.batch_id
    new_dir = store.root / "staging" / batch_id
    if old_dir.exists():
        os.replace(old_dir, new_dir)
        for partition in staged.counts:
            folder = new_dir / "events" / f"date={partition}"
            os.replace(folder / f"{staged.batch_id}.parquet", folder / f"{batch_id}.parquet")
        quarantine = new_dir / "quarantine" / staged.batch_id
        if quarantine.exists():
            os.replace(quarantine, new_dir / "quarantine" / batch_id)
    return StagedBatch(batch_id=batch_id, now=now, counts=staged.counts,
                       leaves=staged.leaves, hashes=staged.hashes, digests=staged.digests,
                       rejected=staged.rejected)


class BatchWriter:
    """Streams one batch into staging: event tables appended per date partition, rejected
    input appended to the quarantine file; `commit` appends the manifest record (the commit
    point) and publishes. Memory is bounded by the table being written, not the batch."""

    def __init__(self, store: Store, now: datetime, batch_id: str | None = None) -> None:
        self.store = store
        self.now = now
        self.batch_id = batch_id or new_batch_id(now)
        self.staging = store.root / "staging" / self.batch_id
        self.sources: list[SourceFile] = []
        self._writers: dict[str, _EventFileWriter] = {}
        # partition -> sha256 of its closed event file, hashed as it was written
        self._digests: dict[str, str] = {}
        self._counts: dict[str, list[int]] = {}  # partition -> [rows, hands]
        self._leaves: dict[str, bytearray] = {}  # partition -> 32-byte Merkle leaves
        self._hashes: dict[str, bytearray] = {}  # partition -> its hands' 8-byte id hashes
        self._quarantine: Any = None
        self._rejected = 0
        self._commit_attempted = False
        self._sealed = False  # drop_hands closed the event files: no write may follow
        self._pool: ThreadPoolExecutor | None = None

    def _staged(self, rel: str) -> Path:
        path = self.staging / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def _event_rel(self, partition: str) -> str:
        return f"events/date={partition}/{self.batch_id}.parquet"

    def write(self, partition: str, table: pa.Table) -> None:
        if table.num_rows == 0:
            return
        if self._sealed:
            raise RuntimeError(f"batch {self.batch_id}: write after drop_hands")
        table = merkle.events_table(table, CODED_COLUMNS)
        writer = self._writers.get(partition)
        if writer is None:
            path = self._staged(self._event_rel(partition))
            writer = _EventFileWriter(path, table.schema)
            self._writers[partition] = writer
            self._counts[partition] = [0, 0]
            self._leaves[partition] = bytearray()
            self._hashes[partition] = bytearray()
        elif not table.schema.equals(writer.schema):
            table = table.cast(writer.schema)  # one file, one schema: plain or coded strings
        # The leaves are hashed on a second thread while Parquet encodes the same table: the
        # compiled leaf writer and Parquet both release the GIL, so on two cores the roots
        # cost little time (bench/bench_ingest.py --reference-leaves measures it).
        leaves = self._hasher().submit(merkle.hand_leaves, table)
        writer.write_table(table)
        self._hashes[partition] += hand_index.table_hashes(table)
        self._leaves[partition] += b"".join(leaves.result())
        counts = self._counts[partition]
        counts[0] += table.num_rows
        counts[1] += _hand_count(table)

    def drop_hands(self, hand_ids: pa.Array) -> pa.Table:
        """Take whole hands back out of the staged event files and return their rows, for
        quarantine: the rare hand found to be a duplicate only after its chunk was written
        (ingest looks the file's ids up in the store once, at the end). Only the partition
        files holding one are rewritten, with their Merkle leaves and counts; no write may
        follow."""
        self._sealed = True
        self._close_event_files()
        removed = []
        for partition in sorted(self._counts):
            path = self.staging / self._event_rel(partition)
            table = pq.read_table(path).cast(events_schema())
            mask = pa.compute.is_in(table.column("hand_id"), value_set=hand_ids)
            if not pa.compute.any(mask).as_py():
                continue
            removed.append(table.filter(mask))
            kept = table.filter(pa.compute.invert(mask))
            if kept.num_rows == 0:
                path.unlink()
                del self._counts[partition], self._leaves[partition], self._digests[partition]
                del self._hashes[partition]
                continue
            rewritten = _EventFileWriter(path)
            try:
                rewritten.write_table(kept)
            finally:
                rewritten.close()
            self._digests[partition] = rewritten.sha256
            self._leaves[partition] = bytearray(b"".join(merkle.hand_leaves(kept)))
            self._hashes[partition] = bytearray(hand_index.table_hashes(kept))
            self._counts[partition] = [kept.num_rows, _hand_count(kept)]
        return pa.concat_tables(removed) if removed else events_schema().empty_table()

    def reject(self, items: Sequence[Rejected]) -> None:
        if not items:
            return
        if self._quarantine is None:
            rel = f"quarantine/{self.batch_id}/rejected.jsonl"
            # appended: a resumed batch (BatchWriter.resume) adds to what its stager wrote
            self._quarantine = self._staged(rel).open("a", encoding="utf-8")
        for r in items:
            self._quarantine.write(json.dumps(
                {"source": r.source, "line": r.line, "hand_id": r.hand_id, "reason": r.reason,
                 "raw": r.raw},
                ensure_ascii=False,
            ) + "\n")
        self._rejected += len(items)

    @property
    def hands(self) -> int:
        return sum(c[1] for c in self._counts.values())

    def detach(self) -> StagedBatch:
        """Close the staged files and hand the batch over (to another process: a parallel
        ingest stages files in workers and commits them in order). Only `resume`'s writer
        goes on with it: drop_hands, reject, commit or abort; no write."""
        self._close()
        self._quarantine = None
        self._sealed = True
        return StagedBatch(batch_id=self.batch_id, now=self.now,
                           counts={p: (c[0], c[1]) for p, c in self._counts.items()},
                           leaves={p: bytes(b) for p, b in self._leaves.items()},
                           hashes={p: bytes(b) for p, b in self._hashes.items()},
                           digests=dict(self._digests), rejected=self._rejected)

    @classmethod
    def resume(cls, store: Store, staged: StagedBatch, *, now: datetime | None = None
               ) -> BatchWriter:
        """The writer of a batch `detach` handed over, in staging as it was left; the
        caller holds `locked()` (the stager wrote under it too) until commit or abort.
        With `now`, the batch takes a new id of that time (its staged files renamed), so
        batch ids sort in commit order whichever batch was staged first."""
        if now is not None:
            staged = _renamed(store, staged, now)
        writer = cls(store, staged.now, staged.batch_id)
        writer._counts = {p: [rows, hands] for p, (rows, hands) in staged.counts.items()}
        writer._leaves = {p: bytearray(b) for p, b in staged.leaves.items()}
        writer._hashes = {p: bytearray(b) for p, b in staged.hashes.items()}
        writer._digests = dict(staged.digests)
        writer._rejected = staged.rejected
        writer._sealed = True
        return writer

    def _write_index(self) -> dict[str, Any]:
        """The batch's hand-id index file, staged and fsynced with its event files (see
        audit/store/hand_index.py); its manifest entry."""
        rel = hand_index.index_rel(self.batch_id)
        data = hand_index.index_bytes(b"".join(self._hashes[p] for p in sorted(self._counts)))
        path = self._staged(rel)
        with path.open("wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        return {"sha256": hashlib.sha256(data).hexdigest(), "hash": hand_index.HASH,
                "hashes": len(data) // 8}

    def _hasher(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="merkle")
        return self._pool

    def _close_event_files(self) -> None:
        for partition, writer in self._writers.items():
            writer.close()
            self._digests[partition] = writer.sha256
        self._writers.clear()

    def _close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._close_event_files()
        if self._quarantine is not None:
            self._quarantine.close()

    def abort(self) -> None:
        """Forget everything staged, unless the manifest append was reached: then the
        manifest decides, and recovery publishes the staged files or drops them."""
        with contextlib.suppress(Exception):
            self._close()
        if not self._commit_attempted:
            shutil.rmtree(self.staging, ignore_errors=True)

    def commit(self, *, _crash_at: str | None = None) -> dict[str, Any] | None:
        """Fsync the staged files, append the manifest record, publish. `_crash_at` is a test
        hook: "staged" or "committed" kills the process at that point."""
        self._close()
        if not self._counts and not self._rejected and not self.sources:
            self.abort()
            return None
        files = []
        leaves = bytearray()  # every partition's 32-byte leaves, end to end
        for partition in sorted(self._counts):
            rel = self._event_rel(partition)
            staged = self.staging / rel
            _fsync_file(staged)
            rows, hands = self._counts[partition]
            leaves += self._leaves[partition]
            files.append({"path": rel, "sha256": self._digests[partition],
                          "bytes": staged.stat().st_size, "rows": rows, "hands": hands})
        index = None
        if files:
            index = self._write_index()
        quarantine = []
        if self._rejected:
            rel = f"quarantine/{self.batch_id}/rejected.jsonl"
            _fsync_file(self.staging / rel)
            quarantine.append({"path": rel, "sha256": sha256_file(self.staging / rel),
                               "items": self._rejected})
        if self.staging.exists():
            for d in [self.staging, *self.staging.rglob("*")]:
                if d.is_dir():
                    _fsync_dir(d)
        if _crash_at == "staged":
            os._exit(137)
        store = self.store
        record: dict[str, Any] = {
            "batch_id": self.batch_id,
            "created_at": self.now.isoformat(),
            "schema_version": schema_version("events"),
            "files": files,
            "quarantine": quarantine,
            "sources": [{"path": s.path, "sha256": s.sha256,
                         **({"read_as": s.read_as} if s.read_as else {})}
                        for s in self.sources],
            "hands": sum(f["hands"] for f in files),
            "rows": sum(f["rows"] for f in files),
            "quarantined": self._rejected,
            "merkle": {"tree": merkle.TREE, "leaf": merkle.LEAF_ENCODING,
                       "hands": len(leaves) // 32,
                       "root": merkle.merkle_root_packed(leaves).hex()},
            **({"hand_index": index} if index else {}),
            "chain": CHAIN_VERSION,
            "prev_hash": store.head(),
        }
        record["hash"] = record_hash(record)
        self._commit_attempted = True  # from here the manifest decides, not this writer
        store._append_record(record)
        if _crash_at == "committed":
            os._exit(137)
        if self.staging.exists():
            store._publish(self.staging, record)
        with contextlib.suppress(OSError):
            (store.root / "staging").rmdir()
        return record


def write_event_file(table: pa.Table, path: Path) -> None:
    """Write events as Parquet with the schema version in the metadata; temp, fsync, rename."""
    table = table.cast(events_schema())
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    with tmp.open("rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _parquet_tail_problem(path: Path) -> str | None:
    """Why a Parquet file cannot be whole (gone, or cut short: no footer), or None. Reads
    the last 8 bytes only; damage inside the file is verify's (sha256) to find."""
    try:
        with path.open("rb") as f:
            size = f.seek(0, os.SEEK_END)
            if size < 12:
                return "is cut short (no Parquet footer)"
            f.seek(size - 8)
            tail = f.read(8)
    except FileNotFoundError:
        return "is missing"
    if tail[4:] != b"PAR1" or int.from_bytes(tail[:4], "little") > size - 12:
        return "is cut short or damaged (no Parquet footer)"
    return None


def published_path(path: Path) -> Path | None:
    """Where a file read from a store's `staging/<batch>/<rel>` is published to (`<rel>` in
    place), or None when `path` is not in staging. A reader that takes no lock may find a
    committed file gone from staging because a writer just published it (publishing only ever
    moves a file from staging into place)."""
    parts = path.parts
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] == "staging":
            return Path(*parts[:i], *parts[i + 2:])
    return None


def read_event_file(path: Path, sha256: str | None = None) -> pa.Table:
    """Read an event file written by any schema version up to this one. A file that is gone
    raises FileNotFoundError (a committed one may have moved out of staging meanwhile: see
    Store.committed_path); one that does not read as Parquet, a StoreError naming it. With
    `sha256` (the manifest's), bytes that differ are a StoreError naming the file: a flipped
    byte can also decode into wrong values without any read error."""
    if sha256 is not None and sha256_file(path) != sha256:
        raise StoreError(f"{path}: committed event file differs from what the store committed "
                         "(sha256 differs from the manifest); run `poker-audit verify`")
    try:
        table = pq.read_table(path)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:
            raise  # the system's (disk, permissions): the CLI says so
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path)) from None
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise StoreError(f"{path}: event file does not read as Parquet ({reason}); run "
                         "`poker-audit verify`") from None
    check_file_version(table.schema.metadata, "events", str(path))
    # Upcasts for older versions go here; version 1 is current.
    return table.replace_schema_metadata(events_schema().metadata)


__all__ = [
    "SCHEMA_VERSION_KEY",
    "PendingBatch",
    "SourceFile",
    "StagedBatch",
    "Store",
    "VerifyProblem",
    "VerifyReport",
    "default_store_path",
    "read_event_file",
    "sha256_file",
    "write_event_file",
]
