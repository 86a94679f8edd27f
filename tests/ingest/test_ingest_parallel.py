"""Parallel ingest (issue 24): files read and encoded in worker processes, committed in input
order. The store is the one a single worker writes: the same batches in the same order, the
same event files byte for byte, the same quarantine, the same summary and exit code; only
batch ids and creation times differ (they differ between any two ingests). A file a worker
cannot read is quarantined whole and loses nothing of the others; a failure of the store
itself commits no later file and leaves no staged batch behind."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import shutil
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import audit.ingest.parallel as parallel
from audit.cli.demo import DEMO_DATA
from audit.cli.ingest import default_workers
from audit.cli.main import main
from audit.devtools.attacks_errors import kill_pooled_ingest
from audit.devtools.faults import hands_table
from audit.importers.base import ReadLimits
from audit.ingest.pipeline import ingest
from audit.store.dataset import BatchWriter, Store
from tests.support.eventrows import hand_rows, many_hands, write_jsonl, write_parquet


def _room(root: Path) -> Path:
    """A directory of what a room's export holds, good and bad, in one listing order."""
    root.mkdir()
    first = write_parquet(root / "a1.parquet", many_hands("a", 6))
    shutil.copyfile(first, root / "a2-twin.parquet")  # identical bytes, same ingest
    write_jsonl(root / "b.jsonl", [*hand_rows("b0"), *hand_rows("b1"), *hand_rows("b0"),
                                   *hand_rows("b2", ts="2026-11-03T09:00:00+00:00")])
    (root / "c-broken.parquet").write_bytes(b"PAR1" + b"\x00" * 64)  # no Parquet inside
    (root / "d-empty.jsonl").write_bytes(b"")
    # overlaps a1: a1 the same hand (already stored), a2 another under its id (quarantined)
    write_jsonl(root / "e-overlap.jsonl", [*hand_rows("a1"), *hand_rows("a2", table_id="t9"),
                                           *hand_rows("n0")])
    shutil.copyfile(DEMO_DATA / "handhq-ps-50nl-excerpt.phhs", root / "f.phhs")
    (root / "README.md").write_text("hand histories of the day\n")
    write_parquet(root / "g.parquet", many_hands("g", 5))
    return root


def _contents(store: Store) -> list[dict[str, Any]]:
    """Every manifest record without what differs between any two ingests (batch id,
    creation time and the chain hashes over them), with the bytes of its files."""
    out = []
    for record in store.records():
        record = dict(record)
        batch = record.pop("batch_id")
        for key in ("created_at", "hash", "prev_hash"):
            record.pop(key)
        for f in [*record["files"], *record["quarantine"]]:
            data = (store.root / f["path"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == f["sha256"]
            f["path"] = f["path"].replace(batch, "<batch>")
            f["bytes_read"] = data
        out.append(record)
    return out


def _summary(summary: Any) -> tuple[list[dict[str, Any]], int]:
    files = [{k: v for k, v in dataclasses.asdict(f).items() if k != "batch_id"}
             for f in summary.files]
    return files, summary.exit_code


def test_two_workers_write_the_store_one_worker_writes(tmp_path: Path):
    room = _room(tmp_path / "room")
    one, two = Store(tmp_path / "one"), Store(tmp_path / "two")
    serial = ingest([room], one, workers=1)
    both = ingest([room], two, workers=2)
    assert _summary(both) == _summary(serial)
    assert _contents(two) == _contents(one)
    by_name = {Path(f.path).name: f for f in both.files}
    # what the room's files come to (the same as one worker, as above)
    assert by_name["a2-twin.parquet"].skipped == "identical bytes already ingested"
    assert by_name["b.jsonl"].quarantined == 1  # b0 again, later in the file
    assert by_name["c-broken.parquet"].error and by_name["c-broken.parquet"].quarantined == 1
    assert by_name["d-empty.jsonl"].skipped.startswith("the file is empty")
    assert (by_name["e-overlap.jsonl"].already_stored, by_name["e-overlap.jsonl"].quarantined,
            by_name["e-overlap.jsonl"].hands) == (1, 1, 1)
    assert by_name["README.md"].skipped.startswith("documentation")
    assert by_name["g.parquet"].hands == 5 and by_name["f.phhs"].hands > 0
    assert both.exit_code == 2  # a file could not be read
    assert two.verify().ok
    assert not (two.root / "staging").exists()
    # batch ids sort in commit order, as one worker's do
    ids = [r["batch_id"] for r in two.records()]
    assert ids == sorted(ids)


def test_ingesting_the_same_files_again_skips_them_as_one_worker_does(tmp_path: Path):
    room = _room(tmp_path / "room")
    one, two = Store(tmp_path / "one"), Store(tmp_path / "two")
    ingest([room], one, workers=1)
    ingest([room], two, workers=2)
    again_one = ingest([room], one, workers=1)
    again_two = ingest([room], two, workers=2)
    assert _summary(again_two) == _summary(again_one)
    assert _contents(two) == _contents(one)
    assert again_two.hands == 0 and not (two.root / "staging").exists()


def test_a_hand_in_two_files_of_one_ingest_is_stored_once(tmp_path: Path):
    """The second file's lookup sees the first file's hands: committed before it."""
    first = write_jsonl(tmp_path / "x.jsonl", [*hand_rows("h0"), *hand_rows("h1")])
    second = write_jsonl(tmp_path / "y.jsonl", [*hand_rows("h1"), *hand_rows("h2")])
    third = write_jsonl(tmp_path / "z.jsonl", [*hand_rows("h2", table_id="t9")])
    store = Store(tmp_path / "store")
    summary = ingest([first, second, third], store, workers=2)
    assert [(f.hands, f.already_stored, f.quarantined) for f in summary.files] == [
        (2, 0, 0), (1, 1, 0), (0, 0, 1)]
    assert store.verify().ok


@contextlib.contextmanager
def _in_process_pool(workers: int, preload: str) -> Iterator[ThreadPoolExecutor]:
    """The workers as threads of the test process, so a monkeypatched reader or store is
    what they run (without the workers' Arrow thread setting, which is this process's)."""
    with ThreadPoolExecutor(workers) as pool:
        yield pool


def test_a_reader_that_fails_in_a_worker_quarantines_its_file_as_one_worker_does(
        tmp_path: Path, monkeypatch):
    import audit.importers.events as native

    good = [write_parquet(tmp_path / f"{p}.parquet", many_hands(p, 3)) for p in "pq"]
    bad = write_jsonl(tmp_path / "bad.jsonl", many_hands("r", 3))
    real_read = native.NativeEventsImporter.read

    def read(self: Any, path: Path):
        if path.name == "bad.jsonl":
            raise RecursionError("maximum recursion depth exceeded")
        yield from real_read(self, path)

    monkeypatch.setattr(native.NativeEventsImporter, "read", read)
    one = ingest([good[0], bad, good[1]], Store(tmp_path / "one"), workers=1)
    monkeypatch.setattr(parallel, "worker_pool", _in_process_pool)
    two_store = Store(tmp_path / "two")
    two = ingest([good[0], bad, good[1]], two_store, workers=2)
    assert _summary(two) == _summary(one)
    assert "reader failed on this file (RecursionError" in two.files[1].reasons[0]
    assert [f.hands for f in two.files] == [3, 0, 3]  # nothing of the others lost
    assert two_store.verify().ok and not (two_store.root / "staging").exists()


def test_a_store_failure_commits_no_later_file_and_leaves_nothing_staged(tmp_path: Path,
                                                                        monkeypatch):
    files = [write_parquet(tmp_path / f"{p}.parquet", many_hands(p, 3)) for p in "uvwxyz"]
    store = Store(tmp_path / "store")
    real_commit = BatchWriter.commit
    commits = []

    def commit(self: BatchWriter, **kwargs: Any):
        if len(commits) == 2:
            raise OSError(28, "No space left on device")
        commits.append(self.batch_id)
        return real_commit(self, **kwargs)

    monkeypatch.setattr(BatchWriter, "commit", commit)
    monkeypatch.setattr(parallel, "worker_pool", _in_process_pool)
    with pytest.raises(OSError, match="No space left"):
        ingest(files, store, workers=2)
    assert [r["batch_id"] for r in store.records()] == commits
    assert store.verify().ok
    assert not (store.root / "staging").exists()  # the files staged ahead are gone


def test_a_worker_stages_under_the_id_and_time_the_parent_gave(tmp_path: Path):
    source = write_parquet(tmp_path / "k.parquet", many_hands("k", 2))
    store = Store(tmp_path / "store")
    job = parallel._Job(path=str(source), store=str(store.root), fmt="auto",
                        retry_quarantined=False, limits=ReadLimits(),
                        batch_id="20261129T000000000000Z-feedbeef",
                        now=parallel.datetime(2026, 11, 29, tzinfo=parallel.UTC))
    outcome = parallel._stage(job)
    assert outcome.staged is not None and outcome.staged.batch.batch_id == job.batch_id
    assert outcome.staged.seen == ["k0", "k1"] and outcome.staged.rows == 30
    staged = store.root / "staging" / job.batch_id
    (event_file,) = staged.rglob("*.parquet")
    assert pq.read_table(event_file).num_rows == 30
    assert store.records() == []  # staged, not committed: the parent commits
    # not committed, so the next writer drops it
    with store.locked():
        pass
    assert not staged.exists()


def test_the_command_uses_every_core_by_default_and_says_the_same(tmp_path: Path):
    room = _room(tmp_path / "room")
    assert default_workers() == len(os.sched_getaffinity(0))
    said = []
    for workers in ("1", "2"):
        store = tmp_path / f"store{workers}"
        result = CliRunner().invoke(main, ["ingest", str(room), "--store", str(store),
                                           "--workers", workers])
        assert result.exit_code == 2
        said.append(result.output.replace(str(store), "<store>"))
    assert said[0] == said[1]
    assert "f.phhs" in said[1] and "c-broken.parquet" in said[1]



@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="walks /proc to find the ingest's processes")
def test_sigkill_of_a_pooled_ingest_leaves_no_process_behind(tmp_path: Path):
    # like a killed audit (tests/run/test_audit_workers_killed.py): no worker, forkserver or
    # resource tracker outlives the ingest. 12 files of 2,000 hands keep both workers busy
    # for seconds, so the kill lands while they encode
    inputs = []
    for i in range(12):
        inputs.append(tmp_path / f"in{i}.parquet")
        pq.write_table(hands_table(f"k{i}h", 2_000), inputs[-1])
    trial = kill_pooled_ingest(inputs, tmp_path / "store")
    assert trial.landed, "the ingest finished before it was killed"
    assert trial.seen >= 4  # the tracker, the forkserver and both workers were running
    assert trial.orphans == (), "still running 3 s after the kill"
