"""Crash safety: a writer killed at any point leaves the store verifiable, with no partial
batch visible, and the next ingest completes the work."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from audit.ingest.pipeline import ingest
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet

CRASH_AT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from audit.store.dataset import PendingBatch, SourceFile, Store, sha256_file
    from audit.importers.events import NativeEventsImporter
    from audit.ingest.validate import validate_events

    store, src, point = Store(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    batch = PendingBatch(sources=[SourceFile(path=str(src), sha256=sha256_file(src))])
    for chunk in NativeEventsImporter().read(src):
        checked = validate_events(chunk.table, chunk.lines, str(src))
        batch.add("2026-11-01", checked.table)
    store.commit(batch, _crash_at=point)
    """
)


def _visible_hands(store: Store) -> set[str]:
    rows = query(store, "SELECT hand_id FROM hands_started").to_pylist()
    ids = [r["hand_id"] for r in rows]
    assert len(ids) == len(set(ids)), "a hand is visible twice"
    return set(ids)


def _assert_consistent(store: Store) -> None:
    report = store.verify()
    assert report.ok, report.problems
    committed = sum(r["hands"] for r in store.records())
    assert len(_visible_hands(store)) == committed  # no partial batch, nothing uncommitted


@pytest.mark.parametrize("point", ["staged", "committed"])
@pytest.mark.slow
def test_sigkill_between_data_write_and_manifest_append(point, store: Store, tmp_path: Path):
    src = write_parquet(tmp_path / "a.parquet", many_hands("k", 20))
    proc = subprocess.run([sys.executable, "-c", CRASH_AT, str(store.root), str(src), point])
    assert proc.returncode == 137
    if point == "staged":
        assert store.records() == []  # killed before the commit point: nothing happened
    else:
        assert len(store.records()) == 1  # killed after it: the batch exists, rolled forward
    _assert_consistent(store)
    again = ingest([src], store)
    expected_hands = 0 if point == "committed" else 20
    assert again.hands == expected_hands
    assert _visible_hands(store) == {f"k{i}" for i in range(20)}
    assert not (store.root / "staging").exists()


def _write_trial(folder: Path, prefix: str) -> set[str]:
    """Four files of 100 hands each; the hand ids written."""
    folder.mkdir()
    ids: set[str] = set()
    for f in range(4):
        write_parquet(folder / f"f{f}.parquet", many_hands(f"{prefix}f{f}h", 100))
        ids |= {f"{prefix}f{f}h{i}" for i in range(100)}
    return ids


def _ingest_command(folder: Path, store_root: Path) -> list[str]:
    return [sys.executable, "-m", "audit.cli", "ingest", str(folder), "--store", str(store_root)]


@pytest.mark.slow
def test_sigkill_at_random_points_store_always_verifies(store: Store, tmp_path: Path):
    rng = random.Random(20261122)
    trials = 50
    # how long one whole ingest of a trial's files takes here (start-up included), so that the
    # kills land within it on a fast machine and a slow one alike
    _write_trial(tmp_path / "timed", "timed")
    start = time.perf_counter()
    subprocess.run(_ingest_command(tmp_path / "timed", tmp_path / "timed-store"), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    whole = time.perf_counter() - start
    expected: set[str] = set()
    killed_mid_run = 0
    for trial in range(trials):
        folder = tmp_path / f"trial{trial}"
        expected |= _write_trial(folder, f"t{trial}")
        proc = subprocess.Popen(_ingest_command(folder, store.root),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.1, 0.9) * whole)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed_mid_run += 1
        proc.wait()
        _assert_consistent(store)
        done = ingest([folder], store)  # rerunning completes the work
        assert done.quarantined == 0
        assert _visible_hands(store) == expected
        _assert_consistent(store)
    assert killed_mid_run >= trials // 2, "the kills should mostly land mid-run"


def test_torn_manifest_line_is_not_a_commit(store: Store, tmp_path: Path):
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("a", 2))], store)
    with store.manifest_path.open("ab") as f:
        f.write(b'{"batch_id": "half-writ')  # a crash in the middle of an append
    assert len(store.records()) == 1
    ingest([write_parquet(tmp_path / "b.parquet", many_hands("b", 2))], store)
    assert len(store.records()) == 2
    _assert_consistent(store)


def test_disk_full_at_the_manifest_append_commits_nothing_and_loses_nothing(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import audit.store.dataset as store_module

    ingest([write_parquet(tmp_path / "a.parquet", many_hands("a", 2))], store)
    real = store_module._fsync_dir

    def full(path: Path) -> None:
        if path == store.root:  # the fsync that makes the manifest append durable
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path)

    monkeypatch.setattr(store_module, "_fsync_dir", full)
    src = write_parquet(tmp_path / "b.parquet", many_hands("b", 3))
    with pytest.raises(OSError, match="No space left"):
        ingest([src], store)
    monkeypatch.undo()
    assert len(store.records()) == 1  # the append was taken back: nothing committed
    _assert_consistent(store)  # readers do not see the staged, uncommitted batch
    assert ingest([src], store).hands == 3
    assert not (store.root / "staging").exists()  # the writer's recovery dropped it
    assert _visible_hands(store) == {"a0", "a1", "b0", "b1", "b2"}


def test_a_failure_after_the_commit_point_keeps_the_batch_for_recovery(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Regression: abort() used to delete staging even after the manifest append, so a
    failed publish (disk full, read-only remount) lost a committed batch."""
    import audit.store.dataset as store_module

    def read_only(src: object, dst: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dst))

    monkeypatch.setattr(store_module.os, "replace", read_only)
    src = write_parquet(tmp_path / "a.parquet", many_hands("c", 4))
    with pytest.raises(OSError, match="Read-only"):
        ingest([src], store)
    monkeypatch.undo()
    assert len(store.records()) == 1  # committed before the failure
    _assert_consistent(store)  # recovery published it
    assert _visible_hands(store) == {f"c{i}" for i in range(4)}
    assert ingest([src], store).files[0].skipped == "identical bytes already ingested"


def test_cli_disk_full_is_a_clear_error_not_a_traceback(store: Store, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    from click.testing import CliRunner

    import audit.store.dataset as store_module
    from audit.cli.main import main

    def full(path: Path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(store_module, "_fsync_file", full)
    src = write_parquet(tmp_path / "a.parquet", many_hands("d", 2))
    result = CliRunner().invoke(main, ["ingest", str(src), "--store", str(store.root)])
    assert result.exit_code == 2
    assert "No space left on device" in result.output and "Traceback" not in result.output
    monkeypatch.undo()
    assert store.records() == []
    _assert_consistent(store)


# A real audit whose workers wait for a go-file: the test can look at (or kill) it while its
# runs/.<id>.tmp directory exists, without racing a timer.
PAUSED_AUDIT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import audit.run.runner as run
    from audit.store.dataset import Store

    go = Path(sys.argv[2])
    real = run._run_parts

    def paused(jobs, *args, **kwargs):
        while not go.exists():
            time.sleep(0.02)
        return real(jobs, *args, **kwargs)

    run._run_parts = paused
    print(run.audit_store(Store(sys.argv[1])).run_id, flush=True)
    """
)


def _start_paused_audit(store: Store, tmp_path: Path) -> tuple[subprocess.Popen, Path, Path]:
    go = tmp_path / "go"
    proc = subprocess.Popen([sys.executable, "-c", PAUSED_AUDIT, str(store.root), str(go)],
                            stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = list(store.runs_dir.glob(".*.tmp")) if store.runs_dir.exists() else []
        if found:
            return proc, found[0], go
        assert proc.poll() is None, "the audit ended before it made its tmp directory"
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("the audit never made its runs/.<id>.tmp directory")


@pytest.mark.slow
def test_a_killed_audits_tmp_dir_is_removed_on_the_next_open(store: Store, tmp_path: Path):
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("r", 5))], store)
    proc, tmp, _ = _start_paused_audit(store, tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert tmp.is_dir()  # SIGKILL runs no cleanup
    Store(store.root).ensure_recovered()  # what every reader and the next audit do first
    assert not tmp.exists()
    assert list(store.runs_dir.iterdir()) == []  # its lock file went with it
    _assert_consistent(store)


@pytest.mark.slow
def test_a_running_audits_tmp_dir_survives_recovery(store: Store, tmp_path: Path):
    from audit.run.runner import audit_store, finished_runs

    ingest([write_parquet(tmp_path / "a.parquet", many_hands("r", 5))], store)
    proc, tmp, go = _start_paused_audit(store, tmp_path)
    try:
        other = Store(store.root)
        other.ensure_recovered()
        with other.locked():  # an ingest's recovery too
            pass
        assert other.remove_abandoned_runs() == []
        assert tmp.is_dir(), "recovery removed a live audit's output"
        concurrent = audit_store(other)  # a second audit beside it, recovering first
        assert tmp.is_dir()
        go.touch()
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    runs = {r["run_id"]: r for r in finished_runs(store)}
    assert set(runs) == {out.strip(), concurrent.run_id}
    assert runs[out.strip()]["findings"] == runs[concurrent.run_id]["findings"]
    assert sorted(p.name for p in store.runs_dir.iterdir()) == sorted(runs)  # no tmp, no lock


def test_a_tmp_dir_from_before_run_locks_is_removed(store: Store, tmp_path: Path):
    """An audit killed before runs took a lock left a tmp directory with no lock file."""
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("r", 2))], store)
    tmp = store.runs_dir / ".20260101T000000000000Z-deadbeef.tmp" / "findings"
    tmp.mkdir(parents=True)
    (tmp / "part-0000000.parquet").write_bytes(b"PAR1 half")
    assert store.remove_abandoned_runs() == ["20260101T000000000000Z-deadbeef"]
    assert list(store.runs_dir.iterdir()) == []
