"""The first audit after install compiles the replay kernel once, in one process.

numba compiles the kernel on its first call and caches it on disk. Started cold, N workers
would each compile it at the same time (minutes of CPU and about 2 GB apiece, session 24's 5M
pipeline: 894 s and 4.2 GB against 1.2 GB warm). So while the cache is empty one worker
audits the first part alone, writing the cache, and exits; the pool's N workers then load the
compiled code from the cache. A warm audit starts its pool at once, as before."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import audit.compiled as compiled
import audit.run.runner as runner
from audit.cli.demo import DEMO_DATA
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(tmp_path_factory.mktemp("first-compile") / "store")
    folder = tmp_path_factory.mktemp("phh")
    hands = (DEMO_DATA / "handhq-ps-50nl-excerpt.phhs").read_text().split("\n\n")
    for i in range(3):
        (folder / f"part{i}.phhs").write_text("\n\n".join(hands[i * 30:(i + 1) * 30]) + "\n")
    ingest([folder], store)
    assert len(store.event_files()) == 3
    return store


class _RecordedPool:
    """A worker pool that notes which parts (by index) it was given, and its size."""

    def __init__(self, pool: Any, workers: int, log: list[tuple[int, list[int]]]) -> None:
        self.pool, self.workers, self.log = pool, workers, log

    def submit(self, fn: Any, job: runner.PartJob) -> Any:
        self.log.append((self.workers, [job.index]))
        return self.pool.submit(fn, job)

    def map(self, fn: Any, jobs: Any) -> Any:
        jobs = list(jobs)
        self.log.append((self.workers, [job.index for job in jobs]))
        return self.pool.map(fn, jobs)


def _audit_recording_pools(store: Store, monkeypatch: pytest.MonkeyPatch, *, cold: bool
                           ) -> tuple[runner.RunSummary, list[tuple[int, list[int]]], int]:
    log: list[tuple[int, list[int]]] = []
    announced: list[int] = []
    real_pool = runner.worker_pool

    @contextlib.contextmanager
    def recording(workers: int) -> Iterator[_RecordedPool]:
        with real_pool(workers) as pool:
            yield _RecordedPool(pool, workers, log)

    monkeypatch.setattr(runner, "worker_pool", recording)
    monkeypatch.setattr(runner, "kernel_compile_pending", lambda: cold)
    monkeypatch.setattr(runner.KERNEL, "announce_compile", lambda: announced.append(1))
    return runner.audit_store(store, workers=2), log, len(announced)


@pytest.mark.slow
def test_cold_one_worker_audits_the_first_part_alone_before_the_pool_starts(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    summary, pools, announced = _audit_recording_pools(store, monkeypatch, cold=True)
    # the pool of one has closed (its worker joined) before the pool of two is opened
    assert pools == [(1, [0]), (2, [1, 2])]
    assert announced == 1  # the one line, said by the audit itself (workers say nothing)
    monkeypatch.undo()
    serial = runner.audit_store(store, workers=1)
    assert (summary.hands, summary.by_rule) == (serial.hands, serial.by_rule)
    assert summary.hands == 90


@pytest.mark.slow
def test_warm_the_pool_takes_every_part_at_once(store: Store,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    summary, pools, announced = _audit_recording_pools(store, monkeypatch, cold=False)
    assert pools == [(2, [0, 1, 2])]
    assert announced == 0
    assert summary.hands == 90


TOY_KERNEL = """
from numba import njit


@njit(cache=True)
def plus_one(x):
    return x + 1
"""


@pytest.mark.slow
def test_a_compile_is_pending_until_numbas_cache_holds_the_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba")
    package = tmp_path / "toy_first"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(TOY_KERNEL)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    toy = compiled.CompiledModule("toy_first.kernel", "the toy", "slower")
    assert toy.compile_pending()
    # compiled and cached by another process, as by the worker that audits the first part
    subprocess.run([sys.executable, "-c", "import toy_first.kernel as k; k.plus_one(1)"],
                   cwd=tmp_path, check=True, timeout=300)
    assert not toy.compile_pending()
    (package / "kernel.py").write_text(TOY_KERNEL + "\n# an edit\n")
    assert toy.compile_pending()  # the cache of the old source is stale: dropped, pending


def test_without_numba_nothing_is_pending(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "_numba_installed", lambda: False)
    assert not compiled.CompiledModule("audit.replay.fast.kernel", "the replay",
                                       "slower").compile_pending()
