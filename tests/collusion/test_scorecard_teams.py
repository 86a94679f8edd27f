"""The collusion scorecard names every planted team, found or not, with its rank and q-value,
and counts false leads per 100,000 hands (issue 25)."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from audit.cli.collusion import collusion_command
from audit.collusion.scorecard import (
    colluding_play,
    format_collusion_scorecard,
    score_against_labels,
)
from audit.run.runner import audit_store
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

NAN = math.nan


def _scored() -> pl.DataFrame:
    rows = [  # player_a, player_b, hands, p, q, strongest test
        ("a", "b", 900, 1e-12, 1e-10, "softplay"),  # team 0: found, rank 1
        ("h", "i", 800, 1e-4, 0.01, "co_entry"),  # two honest players: a false lead, rank 2
        ("c", "d", 700, 0.01, 0.2, "whipsaw"),  # team 1 (three players): not found, rank 3
        ("c", "e", 700, 0.5, 1.0, "whipsaw"),
        ("d", "e", 700, 0.9, 1.0, "card_share"),
        ("f", "g", 40, NAN, NAN, None),  # team 2: too few hands together, never tested
    ]
    return pl.DataFrame(rows, schema=["player_a", "player_b", "hands", "p_value", "q_value",
                                      "top"], orient="row")


def _planted() -> pl.DataFrame:
    rows = [("a", "b", "soft_play", 0.4, 0), ("c", "d", "team_of_three", 0.4, 1),
            ("c", "e", "team_of_three", 0.4, 1), ("d", "e", "team_of_three", 0.4, 1),
            ("f", "g", "whipsaw", 0.4, 2)]
    return pl.DataFrame(rows, schema={"player_a": pl.String, "player_b": pl.String,
                                      "style": pl.String, "strength": pl.Float64,
                                      "team_id": pl.Int64}, orient="row")


def test_every_planted_team_has_its_rank_and_q_value_found_or_not() -> None:
    card = score_against_labels(_scored(), _planted(), fdr=0.05, players=9, hands=50_000)
    teams = {t["team_id"]: t for t in card["teams"]}
    assert teams[0] == {"team_id": 0, "style": "soft_play", "members": ["a", "b"], "hands": 900,
                        "rank": 1, "q_value": 1e-10, "p_value": 1e-12, "top": "softplay",
                        "found": True}
    # the team of three: its best pair, not found at the FDR, ranked below the false lead
    assert teams[1]["members"] == ["c", "d", "e"]
    assert (teams[1]["rank"], teams[1]["q_value"], teams[1]["found"]) == (3, 0.2, False)
    # a team that never reached min_hands together is listed, without a rank
    assert teams[2]["rank"] is None and teams[2]["q_value"] is None and teams[2]["hands"] == 40
    assert not teams[2]["found"]


def test_false_leads_are_counted_per_100000_hands() -> None:
    card = score_against_labels(_scored(), _planted(), fdr=0.05, players=9, hands=50_000)
    assert card["false_leads"] == card["false_leads_honest"] == 1
    assert card["false_leads_per_100k_hands"] == 2.0
    assert card["styles"]["soft_play"]["recall"] == 1.0
    assert card["styles"]["team_of_three"]["recall"] == 0.0
    text = format_collusion_scorecard(card)
    assert "2.00 per 100,000 hands (50,000 hands)" in text
    lines = text.splitlines()
    start = lines.index("planted teams (rank: the best pair among all tested pairs, by q-value)")
    assert lines[start + 2].split()[:6] == ["0", "soft_play", "yes", "1", "1e-10", "1e-12"]
    assert lines[start + 3].split()[:5] == ["1", "team_of_three", "no", "3", "0.2"]
    assert lines[start + 4].split()[:4] == ["2", "whipsaw", "no", "-"]


def test_what_each_teams_collusion_changed_is_printed_beside_its_rank(tmp_path: Path) -> None:
    # the simulator's ledger: per hand a team colluded in, its decisions and those changed
    pl.DataFrame({"hand_id": ["h1", "h2", "h3", "h4"], "team_id": [0, 0, 0, 1],
                  "decisions": [3, 2, 0, 1], "changed": [2, 0, 0, 1]},
                 schema={"hand_id": pl.String, "team_id": pl.Int32, "decisions": pl.Int32,
                         "changed": pl.Int32}).write_parquet(tmp_path / "colluding_hands.parquet")
    played = colluding_play(tmp_path)
    assert played is not None
    card = score_against_labels(_scored(), _planted(), fdr=0.05, players=9, hands=50_000,
                                played=played)
    teams = {t["team_id"]: t for t in card["teams"]}
    assert {k: teams[0][k] for k in ("colluded", "changed", "changed_hands")} == {
        "colluded": 3, "changed": 2, "changed_hands": 1}
    assert (teams[1]["changed"], teams[1]["changed_hands"]) == (1, 1)
    # a team that never colluded in a hand has nothing in the ledger: it changed nothing
    assert (teams[2]["colluded"], teams[2]["changed"]) == (0, 0)
    lines = format_collusion_scorecard(card).splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("planted teams"))
    assert "changed: its decisions that collusion changed" in lines[start]
    assert lines[start + 1].split()[7:9] == ["colluded", "changed"]
    assert lines[start + 2].split()[7:11] == ["3", "2", "in", "1"]


def test_a_store_without_the_ledger_prints_no_changed_column(tmp_path: Path) -> None:
    assert colluding_play(tmp_path) is None  # the simulator's own family writes no ledger
    pl.DataFrame({"hand_id": ["h1"], "team_id": [0]}).write_parquet(
        tmp_path / "colluding_hands.parquet")  # simulated before the ledger
    assert colluding_play(tmp_path) is None
    card = score_against_labels(_scored(), _planted(), fdr=0.05, players=9, hands=50_000)
    assert "changed" not in card["teams"][0]
    assert "colluded" not in format_collusion_scorecard(card)


@pytest.mark.slow  # simulates and audits a small store: about 10 s
def test_cli_scorecard_lists_every_planted_team_of_a_rulebook_population(
        tmp_path: Path) -> None:
    root = tmp_path / "sim"
    simulate(root, hands=3_000, seed=1, tables=10, players=120, colluders=11,
             family="rulebook", colluding_share=0.8)
    audit_store(Store(root))
    result = CliRunner().invoke(collusion_command, ["--store", str(root), "--scorecard",
                                                    "--format", "csv"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("planted teams"))
    rows = lines[start + 2:start + 13]
    assert [int(r.split()[0]) for r in rows] == list(range(11))
    assert rows[10].split()[1] == "team_of_three" and rows[10].count("p1_") == 3
    assert all(r.split()[3].isdigit() for r in rows)  # every team tested: 300 hands together
    # and what its collusion changed: every team colluded in some of those hands
    assert all(int(r.split()[7]) > 0 and r.split()[9] == "in" for r in rows)
    assert "per 100,000 hands (3,000 hands)" in result.stderr


def test_a_false_lead_naming_a_colluder_and_an_outsider_is_told_apart() -> None:
    extra = pl.DataFrame([("b", "h", 800, 1e-3, 0.04, "co_entry")],
                         schema=_scored().schema, orient="row")
    card = score_against_labels(pl.concat([_scored(), extra]), _planted(), fdr=0.05, players=9,
                                hands=50_000)
    assert (card["false_leads"], card["false_leads_honest"]) == (2, 1)
    assert "2 false, 1 of them between players of no team" in format_collusion_scorecard(card)
