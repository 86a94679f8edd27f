"""Verify hashes files and recomputes batches' Merkle roots on two threads: it names the same
problems in the same order as one thread does, and holds at most two batches at once."""

from __future__ import annotations

import threading
import time

import pyarrow.parquet as pq
import pytest

import audit.store.dataset as dataset
from audit.simulate import simulate
from audit.store.dataset import Store


@pytest.fixture()
def store(tmp_path) -> Store:
    # one batch per file: six batches to share between the threads
    return simulate(tmp_path / "room", hands=600, seed=5, variant="all", tables=3,
                    violations=0.05, hands_per_file=100) and Store(tmp_path / "room")


def _damage(store: Store) -> None:
    """A file whose bytes changed, one that is gone, one rewritten with a hand fewer (its
    bytes differ too), and a file nobody listed."""
    files = sorted(store.event_files())
    assert len(files) >= 5
    files[0].write_bytes(files[0].read_bytes()[:-3] + b"xyz")
    files[2].unlink()
    table = pq.read_table(files[3])
    pq.write_table(table.slice(0, table.num_rows - 5), files[3])
    (files[4].parent / "stray.parquet").write_bytes(b"PAR1")


def _problems(store: Store) -> list[tuple[str, str, str]]:
    return [(p.kind, p.path, p.detail) for p in store.verify().problems]


def test_two_threads_name_the_same_problems_in_the_same_order_as_one(store, monkeypatch):
    assert store.verify().ok
    _damage(store)
    two = _problems(store)
    monkeypatch.setattr(dataset, "VERIFY_THREADS", 1)
    one = _problems(store)
    assert {kind for kind, _, _ in two} == {"modified", "missing", "unlisted"}
    assert two == one


def test_verify_recomputes_at_most_two_batches_at_once(store, monkeypatch):
    leaves = Store.batch_leaves
    busy, most = [0], [0]
    lock = threading.Lock()

    def counted(self, record):
        with lock:
            busy[0] += 1
            most[0] = max(most[0], busy[0])
        try:
            time.sleep(0.05)  # the others get the chance to start theirs
            return leaves(self, record)
        finally:
            with lock:
                busy[0] -= 1

    monkeypatch.setattr(Store, "batch_leaves", counted)
    report = store.verify()
    assert report.ok and report.batches >= 5
    assert most[0] == dataset.VERIFY_THREADS == 2
