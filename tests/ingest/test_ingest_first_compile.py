"""The first parallel ingest after install compiles each site reader's passes once, in one
process.

numba compiles a reader's kernels on their first call and caches them on disk. Started cold,
N workers would each compile the same kernels at the same time (session 27: 8 files of four
sites with two workers, 155 of 206 cache entries compiled and written by both workers, each
at about 0.75 GB) and race on the cache's index files. So while a reader's passes are not in
the cache, one worker stages the largest file of each such format alone, writing the cache,
and exits; the pool's workers then load the passes from the cache. The store is the one a
single worker writes, whichever files went first. A warm ingest starts its pool at once."""

from __future__ import annotations

import contextlib
import importlib
import shutil
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import audit.compiled as compiled
import audit.ingest.parallel as parallel
from audit.importers import COMPILED_PASSES, compiled_passes
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store
from tests.ingest.test_ingest_parallel import _contents, _summary
from tests.support.eventrows import many_hands, write_parquet

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "renames"


def _mixed_export(root: Path) -> list[Path]:
    """Files of two sites with compiled readers (GGPoker twice, the larger second), one of a
    site without (Full Tilt) and native events, in one input order."""
    root.mkdir()
    files = [write_parquet(root / "a.parquet", many_hands("a", 3))]
    for name in ("gg-mtt-level.txt", "ftp-mtt-ante.txt", "gg-short-deck.txt",
                 "winamax-stt.txt"):
        files.append(Path(shutil.copyfile(FIXTURES / name, root / name)))
    files.append(write_parquet(root / "z.parquet", many_hands("z", 2)))
    return files


class _RecordedPool:
    """A worker pool that notes which files it was given, and its size."""

    def __init__(self, pool: ThreadPoolExecutor, workers: int,
                 log: list[tuple[int, list[str]]]) -> None:
        self.pool, self.workers, self.log = pool, workers, log
        log.append((workers, []))

    def submit(self, fn: Any, job: parallel._Job) -> Future[Any]:
        self.log[-1][1].append(Path(job.path).name)
        return self.pool.submit(fn, job)

    def shutdown(self, **kwargs: Any) -> None:
        self.pool.shutdown(**kwargs)


def _ingest_recording_pools(files: list[Path], store: Store, monkeypatch: pytest.MonkeyPatch,
                            *, cold: set[str]) -> tuple[Any, list[tuple[int, list[str]]]]:
    log: list[tuple[int, list[str]]] = []

    @contextlib.contextmanager
    def recording(workers: int, preload: str) -> Iterator[_RecordedPool]:
        # the workers as threads of this process (the real pool's processes would not see
        # the monkeypatched cache state)
        with ThreadPoolExecutor(workers) as pool:
            yield _RecordedPool(pool, workers, log)

    monkeypatch.setattr(parallel, "worker_pool", recording)
    monkeypatch.setattr(compiled.CompiledModule, "compile_pending",
                        lambda self: any(self.name.endswith(f"{site}_kernel") for site in cold))
    return ingest(files, store, workers=2), log


def test_cold_one_worker_stages_the_largest_file_of_each_cold_reader_before_the_pool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _mixed_export(tmp_path / "export")
    serial = ingest(files, Store(tmp_path / "one"), workers=1)
    store = Store(tmp_path / "two")
    summary, pools = _ingest_recording_pools(files, store, monkeypatch,
                                             cold={"ggpoker", "winamax"})
    # the pool of one has closed (its worker joined) before the pool of two opened; the
    # Full Tilt file and the events have no compiled pass, GG's smaller file waits its turn
    assert pools == [(1, ["gg-short-deck.txt", "winamax-stt.txt"]),
                     (2, ["a.parquet", "gg-mtt-level.txt", "ftp-mtt-ante.txt", "z.parquet"])]
    monkeypatch.undo()
    assert _summary(summary) == _summary(serial)
    assert _contents(store) == _contents(Store(tmp_path / "one"))
    assert store.verify().ok and not (store.root / "staging").exists()


def test_warm_the_pool_takes_every_file_at_once(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    files = _mixed_export(tmp_path / "export")
    summary, pools = _ingest_recording_pools(files, Store(tmp_path / "store"), monkeypatch,
                                             cold=set())
    assert pools == [(2, [path.name for path in files])]
    assert summary.hands == sum(f.hands for f in summary.files) > 0


def test_a_reader_whose_passes_are_cached_is_not_staged_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _mixed_export(tmp_path / "export")
    _, pools = _ingest_recording_pools(files, Store(tmp_path / "store"), monkeypatch,
                                       cold={"winamax", "pacific"})  # no 888 file here
    assert pools[0] == (1, ["winamax-stt.txt"])


def test_each_format_names_the_compiled_passes_its_reader_runs() -> None:
    # the parent names them without importing them (nor numba); each reader's own
    # CompiledModules are the truth
    readers = {"pokerstars": "pokerstars.fast", "ggpoker": "ggpoker_compiled",
               "winamax": "winamax_compiled", "pacific": "pacific_compiled",
               "bovada": "bovada_compiled", "merge": "merge_compiled",
               "winning": "winning_compiled"}
    assert set(COMPILED_PASSES) == set(readers)
    for fmt, module in readers.items():
        own = vars(importlib.import_module(f"audit.importers.{module}")).values()
        assert sorted(p.name for p in compiled_passes(fmt)) == sorted(
            v.name for v in own if isinstance(v, compiled.CompiledModule)), fmt
    assert compiled_passes("fulltilt") == [] and compiled_passes("events") == []
