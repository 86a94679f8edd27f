"""Concurrent writers serialise on the store lock: every batch commits, the chain holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet


@pytest.mark.slow
def test_two_processes_ingesting_different_batches_both_commit(store: Store, tmp_path: Path):
    sources = []
    for name in ("left", "right"):
        folder = tmp_path / name
        folder.mkdir()
        for f in range(3):
            write_parquet(folder / f"{f}.parquet", many_hands(f"{name}{f}-", 200))
        sources.append(folder)
    procs = [
        subprocess.Popen([sys.executable, "-m", "audit.cli", "ingest", str(src),
                          "--store", str(store.root)], stderr=subprocess.PIPE)
        for src in sources
    ]
    for p in procs:
        _, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr.decode()
    assert len(store.records()) == 6
    assert store.verify().ok
    n = query(store, "SELECT count(DISTINCT hand_id) AS n FROM events").to_pylist()[0]["n"]
    assert n == 2 * 3 * 200


@pytest.mark.slow
def test_concurrent_ingest_of_the_same_file_stores_it_once(store: Store, tmp_path: Path):
    src = write_parquet(tmp_path / "same.parquet", many_hands("s", 300))
    procs = [
        subprocess.Popen([sys.executable, "-m", "audit.cli", "ingest", str(src),
                          "--store", str(store.root)], stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    for p in procs:
        p.communicate(timeout=300)
        assert p.returncode == 0
    assert len(store.records()) == 1
    assert store.verify().ok
