"""Soft play on the streets a multiway pot left two players in (PATTERN-SOFTPLAY, issue 25).

"Always checking through whenever heads-up against one particular opponent": the projections'
heads-up pots are those only two players entered preflop. A team that lets a multiway pot go
heads-up and then checks it through with each other plays its soft play where the hand-level
test does not look. The events tell the streets apart: on how many streets only the two were
left (both with chips) in a pot three or more saw the flop of, and how often either bet or
raised there, against each one's betting on such streets against other players.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import scorecard
from audit.collusion import streets as S
from audit.collusion.findings import run_frames
from audit.collusion.leads import (
    FEATURES,
    combine,
    pair_scores,
    partners_of,
    score_pairs,
    totals_of,
)
from audit.rules.ids import PATTERN_SOFTPLAY
from audit.run.runner import audit_store
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store
from tests.collusion.frames import events, seated_pairs

# three see the flop; bob folds to carol's flop bet; alice and carol alone from the turn: both
# check the turn, alice bets the river, carol calls
MULTIWAY = events("h1", [
    ("post", "alice", "small_blind"), ("post", "bob", "big_blind"),
    ("call", "carol", None), ("call", "alice", None), ("check", "bob", None),
    ("board", None, None),
    ("check", "alice", None), ("check", "bob", None), ("bet", "carol", None),
    ("call", "alice", None), ("fold", "bob", None),
    ("board", None, None),
    ("check", "alice", None), ("check", "carol", None),
    ("board", None, None),
    ("bet", "alice", None), ("call", "carol", None),
])
# only two see the flop: a heads-up pot of the projections (softplay), no street of this kind
HEADS_UP = events("h2", [
    ("post", "alice", "small_blind"), ("post", "bob", "big_blind"), ("fold", "carol", None),
    ("call", "alice", None), ("check", "bob", None),
    ("board", None, None), ("bet", "alice", None), ("call", "bob", None),
    ("board", None, None), ("check", "alice", None), ("check", "bob", None),
])


def test_the_streets_two_are_left_in_a_multiway_pot_are_heads_up_spots() -> None:
    spots = S.hu_spots(MULTIWAY.lazy()).collect().sort("street", "player")
    assert spots.select("player", "street", "aggr").rows() == [
        ("alice", 2, False), ("carol", 2, False), ("alice", 3, True), ("carol", 3, False)]
    assert S.hu_spots(HEADS_UP.lazy()).collect().height == 0
    got = S.street_counts(pl.concat([MULTIWAY, HEADS_UP]).lazy())
    assert got.pairs.select("player_a", "player_b", "hus_n", "hus_ka", "hus_kb").rows() == [
        ("alice", "carol", 2, 1, 0)]
    assert got.players.sort("player").select("player", "hus_h", "hus_c").rows() == [
        ("alice", 2, 1), ("bob", 0, 0), ("carol", 2, 0)]


STREETS = 40  # streets each pair of a table was left alone on
TEAM = ("t07s2", "t07s5")


def _scored(columns: list[str], team_rate: float | None, streets: bool = True) -> pl.DataFrame:
    """30 tables of 6 players who never move; on the streets two of them were left
    alone each bets or raises at his own rate, 0.2 to 0.6; the team at `team_rate` against
    each other (None: no team). `streets`: the street counts read (else none in the table)."""
    table = seated_pairs(columns, seed=3, team=TEAM, team_rate=team_rate, spots=STREETS,
                         counts=("hus_n", "hus_ka", "hus_kb"), zero=S.PAIR_COLUMNS)
    sides = [table.select(player=f"player_{x}", hus_h="hus_n", hus_c=f"hus_k{x}")
             for x in ("a", "b")]
    rates = (pl.concat(sides).group_by("player").agg(pl.col("hus_h", "hus_c").sum())
             .with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
             .with_columns([pl.lit(0).alias(c) for c in S.PLAYER_COLUMNS
                            if c not in ("hus_h", "hus_c")]))
    if not streets:
        table = table.drop(*S.PAIR_COLUMNS)
        rates = rates.drop(*S.PLAYER_COLUMNS)
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = totals_of(table)
    return combine(score_pairs(tested, totals, rates, partners=partners_of(table, totals)))


def test_a_team_checking_through_once_alone_is_a_soft_play_lead(columns: list[str]) -> None:
    # before this test the team was read on its (no) heads-up pots only: no lead
    leads = _scored(columns, 0.02).filter(pl.col("q_value") <= 0.05)
    assert leads.select("player_a", "player_b", "top").rows() == [(*TEAM, "softplay_streets")]
    assert {f.name: f.rule_id for f in FEATURES}["softplay_streets"] == PATTERN_SOFTPLAY


def test_honest_players_left_alone_bet_as_they_do_against_others(columns: list[str]) -> None:
    assert _scored(columns, None).filter(pl.col("q_value") <= 0.05).height == 0


def test_without_the_events_read_the_streets_are_not_tested(columns: list[str]) -> None:
    scored = _scored(columns, 0.02, streets=False)
    assert scored["softplay_streets_p"].is_nan().all()
    assert scored.filter(pl.col("q_value") <= 0.05).height == 0


@pytest.mark.slow  # simulates and audits a small store
def test_the_scorecard_judges_the_pairs_with_the_events_streets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the scorecard scored the pairs without the per-street counts, so it judged a detector
    # without checkdown_bets and softplay_streets beside the leads that had them
    root = tmp_path / "pop"
    simulate(root, hands=2000, seed=3, tables=4, players=40, colluders=4, family="rulebook",
             colluding_share=1.0)
    store = Store(root)
    audit_store(store)
    seen: list[S.StreetCounts | None] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("streets"))
        return pair_scores(*args, **kwargs)

    monkeypatch.setattr(scorecard, "pair_scores", spy)
    card = scorecard.collusion_scorecard(root, min_hands=50)
    assert card["teams"] and len(seen) == 1 and seen[0] is not None
    want = S.file_counts(store.event_files(), run_frames(store, "latest")[1])
    assert seen[0].pairs.equals(want.pairs) and seen[0].players.equals(want.players)
    assert seen[0].pairs["hus_n"].sum() > 0  # streets two were left on were counted
