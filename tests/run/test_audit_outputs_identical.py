"""An audit's outputs do not depend on how it was computed: on a fixed mixed-game store (every
game, injected violations, colluders), the run written by 2 worker processes on the compiled
fast path is byte for byte the run one process writes replaying every hand with the
reference replay: each findings and projection part, run.json, and the run record the chain
commits. Speed work on the audit (decoding, scheduling, workers) keeps this test green."""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

import audit.run.runner as runner
from audit.replay.fast.table import DISABLE_ENV
from audit.simulate import simulate
from audit.store.dataset import Store

RUN_ID = "20260301T000000000000Z-00000000"
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _run_bytes(store: Store, run_id: str) -> dict[str, str]:
    """Every file of the run, by its path in the run, as the sha256 of its bytes."""
    base = runner.run_dir(store, run_id)
    return {p.relative_to(base).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(base.rglob("*")) if p.is_file()}


def _run_record(store: Store, run_id: str) -> dict:
    return next(r for r in store.records() if r.get("run_id") == run_id)


@pytest.mark.slow
def test_two_workers_on_the_fast_path_write_the_reference_replays_run_byte_for_byte(
        tmp_path: Path, monkeypatch):
    room = tmp_path / "room"
    simulate(room, hands=3_000, seed=11, variant="all", structure="mixed", tables=6,
             violations=0.02, colluders=1, tournament_share=0.3, hands_per_file=1_000)
    copy = tmp_path / "copy"
    shutil.copytree(room, copy)
    # the run id is the one thing a run draws at random: the same for both runs
    monkeypatch.setattr(runner, "new_batch_id", lambda now: RUN_ID)

    fast = runner.audit_store(Store(room), workers=2, processes=True, now=NOW)
    monkeypatch.setenv(DISABLE_ENV, "1")  # this process only: every hand takes the reference
    reference = runner.audit_store(Store(copy), workers=1, now=NOW)

    assert fast.fast_hands > fast.hands // 2  # the compiled path did prove most hands
    assert reference.fast_hands == 0
    assert fast.findings == reference.findings > 0
    fast_files = _run_bytes(Store(room), RUN_ID)
    assert {"run.json", "hands/part-0000000.parquet"} <= set(fast_files)
    assert fast_files == _run_bytes(Store(copy), RUN_ID)
    assert _run_record(Store(room), RUN_ID) == _run_record(Store(copy), RUN_ID)
