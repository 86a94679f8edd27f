"""Audit runs: parallel workers give the same findings, a run appears whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.cli.demo import DEMO_DATA
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store, finished_runs, run_dir
from audit.store.dataset import Store
from audit.store.run_layout import OUTPUTS, output_files


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    store = Store(tmp_path_factory.mktemp("runs") / "store")
    ingest([DEMO_DATA / "sample-events.jsonl"], store)
    phh = (DEMO_DATA / "handhq-ps-50nl-excerpt.phhs").read_text()
    folder = tmp_path_factory.mktemp("phh")
    # Several files, so there is work to share between processes.
    hands = phh.split("\n\n")
    for i in range(4):
        (folder / f"part{i}.phhs").write_text("\n\n".join(hands[i * 30:(i + 1) * 30]) + "\n")
    ingest([folder], store)
    assert len(store.event_files()) >= 5
    return store


def _content(store: Store, run_id: str, name: str):
    parts = output_files(run_dir(store, run_id), name)
    return [pq.read_table(part).drop_columns(["run_id"]).to_pylist() for part in parts]


@pytest.mark.slow
def test_two_workers_give_the_same_findings_and_projections_as_one(store: Store):
    one = audit_store(store, workers=1)
    two = audit_store(store, workers=2)
    assert one.hands == two.hands == 123
    assert one.by_rule == two.by_rule
    for name in ("findings", "hands", "hand_players"):
        assert _content(store, one.run_id, name) == _content(store, two.run_id, name)


def test_a_failed_run_leaves_no_visible_run(store: Store, monkeypatch):
    import audit.run.judges as run

    before = [r["run_id"] for r in finished_runs(store)]

    replay = run.replay_table_fast
    calls = []

    def boom(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # parts of earlier files are written by then
            raise RuntimeError("disk full")
        return replay(*args, **kwargs)

    monkeypatch.setattr(run, "replay_table_fast", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        audit_store(store)
    assert len(calls) == 3  # the failure struck after earlier files' parts were written
    assert [r["run_id"] for r in finished_runs(store)] == before
    assert not [p for p in Path(store.runs_dir).iterdir() if p.name.startswith(".")]


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_findings_as_the_local_run(store: Store):
    distributed = pytest.importorskip("distributed")
    local = audit_store(store, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = audit_store(store, scheduler=cluster.scheduler_address)
    assert remote.by_rule == local.by_rule and remote.hands == local.hands
    for name in ("findings", "hands", "hand_players"):
        assert _content(store, remote.run_id, name) == _content(store, local.run_id, name)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_a_clear_error(store: Store):
    pytest.importorskip("distributed")
    from audit.errors import AuditInputError

    with pytest.raises(AuditInputError, match="cannot reach the Dask scheduler"):
        audit_store(store, scheduler="tcp://127.0.0.1:9")


@pytest.mark.slow
def test_each_event_file_writes_its_own_part_of_each_projection(store: Store):
    run_id = audit_store(store).run_id
    parts = output_files(run_dir(store, run_id), "hands")
    assert [p.name for p in parts] == [f"part-{i:07d}.parquet"
                                       for i in range(len(store.event_files()))]
    assert sum(pq.ParquetFile(p).metadata.num_rows for p in parts) == 123
    assert not [p for p in run_dir(store, run_id).iterdir() if p.suffix == ".parquet"]


@pytest.mark.slow
def test_a_run_written_before_parts_existed_still_reads(store: Store, tmp_path: Path):
    """Runs of earlier versions hold each output as one file; readers take both layouts."""
    import shutil

    import pyarrow as pa

    from audit.run.runner import read_findings
    from audit.sql.query import query

    root = tmp_path / "store"
    shutil.copytree(store.root, root)
    old = Store(root)
    run_id = audit_store(old).run_id
    expected = {name: query(old, f"SELECT count(*) AS n FROM {name} WHERE run_id = ?",
                            [run_id]).column("n")[0].as_py() for name in OUTPUTS}
    for name in OUTPUTS:
        parts = output_files(run_dir(old, run_id), name)
        pq.write_table(pa.concat_tables(pq.read_table(p) for p in parts),
                       run_dir(old, run_id) / f"{name}.parquet")
        shutil.rmtree(run_dir(old, run_id) / name)
    # such a run was never committed to the chain either (audit/store/runs.py)
    lines = old.manifest_path.read_text().splitlines(keepends=True)
    old.manifest_path.write_text("".join(line for line in lines if '"kind":"run"' not in line))
    assert read_findings(old, run_id).num_rows == expected["findings"] > 0
    for name in OUTPUTS:
        assert query(old, f"SELECT count(*) AS n FROM {name} WHERE run_id = ?",
                     [run_id]).column("n")[0].as_py() == expected[name]


def test_a_run_that_fails_writing_run_json_leaves_nothing_behind(store: Store, monkeypatch):
    import errno

    import audit.run.runner as run

    before = [r["run_id"] for r in finished_runs(store)]

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(run.json, "dumps", disk_full)
    with pytest.raises(OSError, match="No space left on device"):
        audit_store(store)
    monkeypatch.undo()  # the disk has space again: the store is read as any reader would
    assert [r["run_id"] for r in finished_runs(store)] == before
    assert not [p for p in Path(store.runs_dir).iterdir() if p.name.endswith(".tmp")]


PROBE = """
from audit.run.runner import worker_pool


def threads(_):
    import polars as pl
    import pyarrow as pa
    return pl.thread_pool_size(), pa.cpu_count(), pa.io_thread_count()


if __name__ == "__main__":
    with worker_pool(2) as pool:
        print(sorted(set(pool.map(threads, range(4)))))
"""


@pytest.mark.slow
def test_each_worker_process_keeps_arrow_and_polars_to_one_thread(tmp_path: Path):
    # in a fresh interpreter: the forkserver (one per process) must start from worker_pool
    import subprocess
    import sys

    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300, check=True)
    assert out.stdout.strip() == "[(1, 1, 1)]"


def test_an_event_file_published_from_staging_after_the_run_listed_it_is_still_read(
        store: Store, tmp_path: Path):
    # A reader takes no lock: the run lists a committed batch still in staging (its writer
    # crashed after the commit point), and the next writer publishes it before the run reads
    # it. The file is then where publishing puts it, never gone.
    from audit.run.runner import PartJob, audit_part
    from audit.store.dataset import published_path

    record = next(r for r in store.records() if r.get("files"))
    rel = record["files"][0]["path"]
    listed = store.root / "staging" / record["batch_id"] / rel  # gone: published since
    assert not listed.exists() and published_path(listed) == store.root / rel
    out = tmp_path / "run"
    for name in OUTPUTS:
        (out / name).mkdir(parents=True)
    stats = audit_part(PartJob(index=0, path=listed, out=out, run_id="r", profile="montana",
                               overlays=()))
    assert stats.hands == record["files"][0]["hands"]
    assert published_path(store.root / rel) is None
