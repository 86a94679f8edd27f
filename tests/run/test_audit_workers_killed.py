"""A pooled audit killed by SIGKILL takes its workers, forkserver and resource tracker with it
(issue 19 item 6), at whatever moment it dies, and leaves nothing uncommitted visible."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from audit.devtools.attacks_errors import KILL_MOMENTS, build_busy_store, kill_pooled_audit
from audit.run.runner import finished_runs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="walks /proc to find the audit's processes")


@pytest.mark.slow
def test_sigkill_of_a_pooled_audit_leaves_no_process_behind(tmp_path: Path):
    # 24,000 hands: their parts take the workers most of a second after their first-call
    # warm-up, so even the last moment lands before the run commits
    store = build_busy_store(tmp_path / "busy", files=12, hands=2_000)
    hands = sum(r["hands"] for r in store.records())
    for moment in KILL_MOMENTS:  # five kills, from the pool's start to its first output
        trial = kill_pooled_audit(store, moment)
        assert trial.landed, f"{moment}: the audit finished before it was killed"
        # the tracker (and at later moments the forkserver and both workers) were running
        assert trial.seen >= KILL_MOMENTS[moment].processes, moment
        assert trial.orphans == (), f"{moment}: still running 3 s after the kill"
        assert trial.leftovers == (), f"{moment}: the killed run's files stayed"
        new = trial.runs_after - trial.runs_before
        assert new == 0 or (new == 1 and finished_runs(store)[-1]["hands"] == hands), moment
    assert store.verify().ok
