"""What `poker-audit collusion` records is what a run's readers get (issue 23): after an
incremental audit (`audit --since`) the new run's leads replace the earlier run's, never add to
them, in `findings` and in `collusion_story`; until collusion runs for the new run, the story
says it was not computed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from audit.collusion import LEAD_SCHEMA, collusion_story, write_collusion_findings
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store

DEMO = Path(__file__).resolve().parents[2] / "audit" / "demo_data"


def lead(run_id: str, a: str, b: str) -> dict[str, Any]:
    """A lead as collusion_leads() returns it (the demo's pairs share too few hands for the
    tests to name one)."""
    return {"rank": 1, "run_id": run_id, "player_a": a, "player_b": b, "player": a,
            "counterparty": b, "pattern": "PATTERN-SOFTPLAY", "score": 9.0, "p_value": 1e-9,
            "q_value": 1e-8, "hands": 120, "delta": None,
            "features": '{"softplay": {"n": 50, "observed": 0, "expected": 9.0, "p": 1e-9}}',
            "evidence_hand_ids": ["h1", "h2", "h3"],
            "message": f"Lead, not a verdict: {a} and {b}", "team": [a, b]}


def leads_of(table: pa.Table) -> list[tuple[str, str]]:
    return [(r["player"], r["counterparty"]) for r in table.to_pylist()
            if r["category"] == "collusion" and r["hand_id"] is None]


@pytest.mark.slow
def test_an_incremental_runs_leads_replace_the_earlier_runs(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    ingest([DEMO / "sample-events.jsonl"], store)
    first = audit_store(store).run_id
    write_collusion_findings(store, first, pa.Table.from_pylist(
        [lead(first, "ann", "bob")], schema=LEAD_SCHEMA))
    assert leads_of(read_findings(store, first)) == [("ann", "bob")]
    assert collusion_story(store, first).pairs == [("ann", "bob")]

    ingest([DEMO / "handhq-ps-50nl-excerpt.phhs"], store)
    second = audit_store(store, since="latest").run_id
    story = collusion_story(store, second)
    assert not story.computed and story.pairs == []
    assert leads_of(read_findings(store, second)) == []  # the first run's leads are not its

    write_collusion_findings(store, second, pa.Table.from_pylist(
        [lead(second, "cat", "dan")], schema=LEAD_SCHEMA))
    assert leads_of(read_findings(store, second)) == [("cat", "dan")]
    story = collusion_story(store, second)
    assert story.computed and story.pairs == [("cat", "dan")]
    assert leads_of(read_findings(store, first)) == [("ann", "bob")]  # the record kept
