"""End to end on the simulator (issue 8): simulate colluding teams of every style, audit the
store, rank the collusion leads, and score them against colluders.parquet. The strong styles
(soft play, chip dumping, whipsaw) are always found, no honest pair is ever a lead, and an
honest population yields no lead at all."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli.collusion import collusion_command
from audit.collusion.scorecard import collusion_scorecard, format_collusion_scorecard
from audit.rules.ids import PATTERN_CHIP_DUMP, PATTERN_SOFTPLAY, PATTERN_WHIPSAW
from audit.run.runner import audit_store
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

pytestmark = pytest.mark.slow  # every test simulates and audits a whole store

HANDS, TABLES = 15_000, 6  # 2,500 hands per team table: about 20 s to simulate and audit


@pytest.fixture(scope="module")
def colluding_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("collusion") / "sim"
    simulate(root, hands=HANDS, seed=2, tables=TABLES, colluders=5)
    audit_store(Store(root))
    return root


def test_planted_teams_are_found_without_false_leads(colluding_store: Path) -> None:
    card = collusion_scorecard(colluding_store, min_hands=100, fdr=0.05)
    styles = card["styles"]
    assert set(styles) == {"soft_play", "chip_dump", "whipsaw", "check_down", "card_share"}
    for style in ("soft_play", "chip_dump", "whipsaw"):
        assert styles[style]["found"] == styles[style]["teams"] == 1, format_collusion_scorecard(
            card)
    assert card["recall"] >= 0.6, format_collusion_scorecard(card)
    assert card["false_leads"] == 0 and card["precision"] == 1.0, format_collusion_scorecard(card)
    # every planted pair outranks (almost) every honest pair
    for style, row in styles.items():
        assert row["auc"] is not None and row["auc"] >= 0.9, (style, row)


def test_cli_names_the_teams_with_evidence(colluding_store: Path) -> None:
    result = CliRunner().invoke(collusion_command, ["--store", str(colluding_store),
                                                    "--format", "json"])
    assert result.exit_code == 0, result.output
    leads = json.loads(result.stdout)
    teams = {frozenset(t["players"]): t["style"]
             for t in pq.read_table(colluding_store / "colluders.parquet").to_pylist()}
    assert leads and all(frozenset((x["player_a"], x["player_b"])) in teams for x in leads)
    by_style = {teams[frozenset((x["player_a"], x["player_b"]))]: x for x in leads}
    assert by_style["soft_play"]["pattern"] == PATTERN_SOFTPLAY
    assert by_style["chip_dump"]["pattern"] == PATTERN_CHIP_DUMP
    assert by_style["whipsaw"]["pattern"] == PATTERN_WHIPSAW
    dump = by_style["chip_dump"]
    assert dump["delta"] > 0 and dump["evidence_hand_ids"]
    for lead in leads:
        assert "not a verdict" in lead["message"] and len(lead["evidence_hand_ids"]) >= 3


def test_honest_population_yields_no_lead(tmp_path: Path) -> None:
    root = tmp_path / "honest"
    simulate(root, hands=HANDS, seed=2, tables=TABLES)
    audit_store(Store(root))
    result = CliRunner().invoke(collusion_command, ["--store", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "0 lead(s)" in result.stderr
    assert json.loads(result.stdout) == []


def test_cli_scorecard_against_the_simulator_labels(colluding_store: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(collusion_command, ["--store", str(colluding_store),
                                                    "--scorecard", "--format", "csv"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[1].split()[0] == "style" and any(x.startswith("chip_dump ") for x in lines)
    assert "0 false" in result.stderr
    (tmp_path / "manifest.jsonl").write_text("", encoding="utf-8")
    missing = CliRunner().invoke(collusion_command, ["--store", str(tmp_path), "--scorecard"])
    assert missing.exit_code == 2 and "no audit run" in missing.output


def test_teams_of_three_are_each_named_whole_in_one_lead(tmp_path: Path) -> None:
    # every pair of a trio that always sits together stays a lead, and the lead pairs that
    # share players are reported as one lead naming all three (the strong styles)
    root = tmp_path / "trios"
    simulate(root, hands=HANDS, seed=2, tables=TABLES, colluders=5, colluder_team_size=3)
    audit_store(Store(root))
    card = collusion_scorecard(root, min_hands=100, fdr=0.05)
    strong = ("soft_play", "chip_dump", "card_share")
    for style in strong:
        row = card["styles"][style]
        assert row["whole"] == row["found"] == row["teams"] == 1, format_collusion_scorecard(card)
    result = CliRunner().invoke(collusion_command, ["--store", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    leads = json.loads(result.stdout)
    teams = {t["style"]: sorted(t["players"])
             for t in pq.read_table(root / "colluders.parquet").to_pylist()}
    named = [x for x in leads if len(x["team"]) > 2]
    # the strong styles' trios named whole, and every trio named is a planted one (a weaker
    # style's trio may be named whole too: since the q-values are weighted by the hands
    # together, issue 25, the whipsaw trio is)
    assert {tuple(teams[s]) for s in strong} <= {tuple(x["team"]) for x in named}
    assert all(x["team"] in teams.values() for x in named), named
    for lead in named:
        assert f"team of 3: {', '.join(lead['team'])}" in lead["message"]
    # one row per team: no two leads name two of its members (a weaker style's trio may be
    # found by one of its pairs only, as the check-down trio is here: one row, not whole)
    for members in teams.values():
        rows = [x for x in leads if {x["player_a"], x["player_b"]} <= set(members)]
        assert len(rows) <= 1, rows
        assert all(set(x["team"]) <= set(members) for x in rows), rows
