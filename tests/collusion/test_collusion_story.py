"""One collusion story (issue 23, bug 3): a lead is a player pair the statistical tests name,
ranked by q-value, and `poker-audit collusion`, `poker-audit findings`, the report's "Collusion
leads" and notebook 02 show the same leads in the same order; single hands that show a pattern
(a check-down behind a third player's all-in) are notes, listed apart, never ranked as leads.

The store: four planted teams (soft play, chip dumping, whipsaw, check-down) at four tables; the
check-down team leaves a trail of single-hand notes, one of them of severity warning."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import html5lib
import pytest
from click.testing import CliRunner, Result

from audit.cli.main import main
from audit.report import build_report
from audit.run.runner import audit_store
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

pytestmark = pytest.mark.slow  # simulates and audits a store (about 15 s)


def run(*args: Any) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("story") / "sim"
    simulate(root, hands=6000, seed=2, tables=4, colluders=4)
    audit_store(Store(root))
    recorded = run("collusion", "--store", root)
    assert recorded.exit_code == 0, recorded.output
    return Store(root)


@pytest.fixture(scope="module")
def leads(store: Store) -> list[dict[str, Any]]:
    """The leads as `poker-audit collusion --format json` prints them."""
    result = run("collusion", "--store", store.root, "--format", "json")
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def pair(row: dict[str, Any]) -> frozenset[str]:
    return frozenset((row["player"], row["counterparty"]))


def findings(store: Store, *args: str) -> list[dict[str, Any]]:
    result = run("findings", "--store", store.root, "--format", "json", *args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def test_a_lead_is_a_tested_pair_ranked_by_q_value_with_its_hands(leads: list[dict[str, Any]],
                                                                  store: Store) -> None:
    assert [r["rank"] for r in leads] == list(range(1, len(leads) + 1))
    assert len(leads) >= 3
    assert [r["q_value"] for r in leads] == sorted(r["q_value"] for r in leads)
    for lead in leads:
        assert lead["q_value"] <= 0.05 and lead["hands"] >= 100  # hands the pair played together
        assert lead["evidence_hand_ids"] and "not a verdict" in lead["message"]


def test_findings_holds_the_leads_and_the_single_hand_notes(
    leads: list[dict[str, Any]], store: Store
) -> None:
    softplay = [r for r in leads if r["pattern"] == "PATTERN-SOFTPLAY"]
    assert softplay
    by_rule = findings(store, "--rule", "PATTERN-SOFTPLAY")
    assert [pair(r) for r in by_rule] == [pair(r) for r in softplay]  # was 0 rows
    rows = findings(store, "--category", "collusion")
    run_wide = [r for r in rows if r["hand_id"] is None]
    notes = [r for r in rows if r["hand_id"] is not None]
    assert [pair(r) for r in run_wide] == [pair(r) for r in leads]  # the leads, ranked
    assert {r["rule_id"] for r in notes} == {"PATTERN-CHECKDOWN-ALLIN"} and len(notes) >= 5


def test_collusion_command_lists_the_notes_apart_from_the_leads(
    leads: list[dict[str, Any]], store: Store
) -> None:
    result = run("collusion", "--store", store.root)
    assert result.exit_code == 0, result.output
    text = result.stdout
    head, _, tail = text.partition("Single-hand pattern notes")
    assert tail, text
    assert "PATTERN-CHECKDOWN-ALLIN" in tail
    lines = [line.split() for line in head.splitlines()[2:] if line.lstrip()[:1].isdigit()]
    assert [(int(x[0]), x[1], x[2]) for x in lines] == [
        (r["rank"], r["player"], r["counterparty"]) for r in leads]


def test_report_collusion_section_shows_the_same_leads_and_lists_the_notes_apart(
    leads: list[dict[str, Any]], store: Store
) -> None:
    doc = html5lib.parse(build_report(store), namespaceHTMLElements=False)
    section = next(e for e in doc.iter("section") if e.get("id") == "collusion")
    table = next(e for e in section.iter("table"))
    rows = [[("".join(td.itertext())).strip() for td in tr.iter("td")]
            for tr in table.iter("tr") if tr.find("td") is not None]
    assert [(int(r[0]), r[1], r[2]) for r in rows] == [
        (r["rank"], r["player"], r["counterparty"]) for r in leads]
    assert [int(r[5].replace(",", "")) for r in rows] == [r["hands"] for r in leads]
    assert all(int(r[5].replace(",", "")) > 0 for r in rows)  # never "hands 0" for a lead
    text = "".join(section.itertext())
    assert "Single-hand pattern notes" in text
    notes = [r for r in findings(store, "--category", "collusion") if r["hand_id"] is not None]
    note_table = list(section.iter("table"))[1]
    assert [("".join(tr.find("td").itertext())) for tr in note_table.iter("tr")
            if tr.find("td") is not None] == [n["hand_id"] for n in notes]
    assert any(e.get("data-chart") == "pair-network" for e in section.iter())


@pytest.mark.notebooks
def test_notebook_02_investigates_the_top_lead(leads: list[dict[str, Any]], store: Store,
                                               tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("POKER_AUDIT_STORE", str(store.root))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.delenv("PAIR", raising=False)
    path = Path(__file__).resolve().parents[2] / "notebooks" / "02_pair_investigation.ipynb"
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}
                            ).execute(env=dict(os.environ))
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.outputs)
    a, b = sorted((leads[0]["player"], leads[0]["counterparty"]))
    assert f"investigating {a} and {b}" in text
    assert leads[0]["message"] in text
