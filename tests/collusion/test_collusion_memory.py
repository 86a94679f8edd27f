"""`poker-audit collusion` in memory that does not grow with the run (issue 24, item 3): the
single-hand pattern notes (PATTERN-CHECKDOWN-ALLIN) are found one part of the run (one event
file's hands) at a time, and they are the notes the whole run's rows give at once."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from audit.collusion import findings as CF
from audit.collusion.findings import (
    _own_frames,
    checkdown_findings,
    collusion_story,
    record_collusion,
    run_parts,
)
from audit.run.runner import audit_store, resolve_run
from audit.simulate import simulate
from audit.store.dataset import Store

pytestmark = pytest.mark.slow  # a simulated store of 6,000 hands, audited: ~15 CPU-s


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Every game, four colluding pairs always acting as a team, in files of 1,000 hands
    (split further by date): several parts per run."""
    root = tmp_path_factory.mktemp("collusion-memory") / "store"
    simulate(root, hands=6_000, seed=5, variant="all", structure="mixed", tables=4,
             colluders=4, collusion_strength=1.0, hands_per_file=1_000)
    store = Store(root)
    audit_store(store)
    return store


def test_pattern_notes_found_part_by_part_are_those_of_the_whole_run(store: Store) -> None:
    run = str(resolve_run(store))
    whole = checkdown_findings(*_own_frames(store, run))
    assert len(whole) >= 10
    by_part = CF.checkdown_findings_by_part(run_parts(store, run))
    assert by_part == whole
    # and what `poker-audit collusion` records: the notes, in the same order
    record_collusion(store, run)
    notes = collusion_story(store, run).notes
    assert sorted(notes.column("hand_id").to_pylist()) == [f.hand_id for f in whole]


def test_pattern_notes_hold_one_part_of_the_run_at_a_time(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pair rows are built from one part's hands at a time, never from the whole run's:
    memory follows the largest event file, not the number of hands audited."""
    run = str(resolve_run(store))
    seen: list[int] = []
    rows = CF._checkdown_rows

    def counted(hand_players: pl.LazyFrame, hands: pl.LazyFrame) -> Any:
        seen.append(hand_players.select(pl.col("hand_id").n_unique()).collect().item())
        return rows(hand_players, hands)

    monkeypatch.setattr(CF, "_checkdown_rows", counted)
    record_collusion(store, run)
    total = _own_frames(store, run)[0].select(pl.col("hand_id").n_unique()).collect().item()
    assert len(seen) == len(list(run_parts(store, run))) >= 6
    assert sum(seen) == total
    assert max(seen) <= 1_000 < total


def test_a_part_without_its_hands_file_reads_as_the_whole_run_does(
        store: Store) -> None:
    """A part whose hands file is missing joins no hand (as in the whole run's join)."""
    run = str(resolve_run(store))
    parts = list(run_parts(store, run))
    hp, _ = parts[0]
    empty = pl.LazyFrame(schema=parts[0][1].collect_schema())
    assert CF.checkdown_findings_by_part([(hp, empty)]) == checkdown_findings(hp, empty)
