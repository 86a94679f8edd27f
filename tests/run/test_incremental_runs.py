"""Incremental audits (`audit --since RUN`): a run covers only the batches committed after
its base run, and the two read as one — in Python, in SQL and in the report — with exactly
what a full audit of the whole store finds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.demo import DEMO_DATA
from audit.cli.main import main
from audit.errors import AuditInputError
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store, finished_runs, read_findings, run_chain
from audit.sql.query import connect
from audit.store.dataset import Store


def _split_phh(folder: Path) -> list[Path]:
    hands = (DEMO_DATA / "handhq-ps-50nl-excerpt.phhs").read_text().split("\n\n")
    paths = []
    for i in range(3):
        path = folder / f"day{i}.phhs"
        path.write_text("\n\n".join(hands[i * 40:(i + 1) * 40]) + "\n")
        paths.append(path)
    return paths


def _key(table) -> Counter:
    return Counter((r["hand_id"], r["rule_id"], r["seq"], r["seat"], r["message"])
                   for r in table.to_pylist())


@pytest.mark.slow
def test_incremental_runs_read_as_one_full_run(tmp_path: Path) -> None:
    days = _split_phh(tmp_path)
    store = Store(tmp_path / "store")
    ingest([DEMO_DATA / "sample-events.jsonl", days[0]], store)
    first = audit_store(store)
    ingest([days[1]], store)
    second = audit_store(store, since="latest")
    ingest([days[2]], store)
    third = audit_store(store, since=second.run_id)
    assert second.hands == third.hands == 40  # only the new day's hands were replayed
    runs = {r["run_id"]: r for r in finished_runs(store)}
    assert runs[first.run_id]["since"] is None and runs[first.run_id]["first_batch"] == 0
    assert runs[third.run_id]["since"] == second.run_id
    assert run_chain(store, third.run_id) == [first.run_id, second.run_id, third.run_id]
    full = audit_store(store)  # the same store audited in one go
    assert full.hands == first.hands + second.hands + third.hands
    assert _key(read_findings(store, third.run_id)) == _key(read_findings(store, full.run_id))
    con = connect(store)
    latest = con.execute("SELECT count(*) FROM latest_hands").fetchone()[0]
    assert latest == full.hands  # the full run is now the latest
    members = con.execute("SELECT member FROM run_members WHERE run_id = ? ORDER BY member",
                          [third.run_id]).fetchall()
    assert [m[0] for m in members] == [first.run_id, second.run_id, third.run_id]
    chained = con.execute(
        "SELECT count(*) FROM hands WHERE run_id IN "
        "(SELECT member FROM run_members WHERE run_id = ?)", [third.run_id]).fetchone()[0]
    assert chained == full.hands


def test_nothing_new_to_audit_gives_an_empty_incremental_run(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    ingest([DEMO_DATA / "sample-events.jsonl"], store)
    base = audit_store(store)
    again = audit_store(store, since=base.run_id)
    assert again.hands == 0 and again.findings == 0
    assert _key(read_findings(store, again.run_id)) == _key(read_findings(store, base.run_id))


def test_since_needs_a_finished_run_under_the_same_profile(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    ingest([DEMO_DATA / "sample-events.jsonl"], store)
    with pytest.raises(AuditInputError, match="no finished audit run"):
        audit_store(store, since="latest")
    audit_store(store, profile="montana")
    with pytest.raises(AuditInputError, match="same profile"):
        audit_store(store, profile="uspa-2004", since="latest")


def test_audit_since_on_the_command_line(tmp_path: Path) -> None:
    days = _split_phh(tmp_path)
    root = tmp_path / "store"
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", str(days[0]), "--store", str(root)]).exit_code == 0
    assert runner.invoke(main, ["audit", "--store", str(root)]).exit_code == 0
    assert runner.invoke(main, ["ingest", str(days[1]), "--store", str(root)]).exit_code == 0
    result = runner.invoke(main, ["audit", "--store", str(root), "--since", "latest"])
    assert result.exit_code == 0, result.output
    assert "40 hands" in result.output.replace(",", "")
    assert "40 hands proven clean by the compiled fast path, 0 judged by the reference " \
        "replay" in result.output
    bad = runner.invoke(main, ["audit", "--store", str(root), "--since", "nope"])
    assert bad.exit_code == 2 and "no finished audit run 'nope'" in bad.output
