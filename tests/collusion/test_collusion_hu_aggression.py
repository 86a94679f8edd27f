"""Betting into each other heads-up far more than against others (PATTERN-CHIP-DUMP, issue 25).

A chip dumper bets the pot into his receiver whatever he holds, the receiver raises, the dumper
folds: most of their pots are small, so few of those folds come after a heavy investment, and
the chips that flow are lost in the noise of the pot sizes. What stands out is how they bet:
in their heads-up pots against each other they bet and raise far more often than each of them
does heads-up against anyone else. Honest players bet into each other as they bet into others,
an aggressive one more than a passive one.
"""

from __future__ import annotations

import polars as pl

from audit.collusion import features as F
from audit.collusion.leads import FEATURES, combine, partners_of, score_pairs, totals_of
from audit.rules.ids import PATTERN_CHIP_DUMP
from tests.collusion.frames import seated_pairs

HU = 60  # heads-up pots each pair of a table played against each other
TEAM = ("t03s1", "t03s4")


def _table(columns: list[str], team_rate: float | None, hu: int = HU) -> pl.DataFrame:
    """30 tables of 6 players who never move; in each heads-up pot a player bets or raises
    (beyond one preflop raise) at his own rate, 0.2 to 0.6; the team's two at `team_rate`
    against each other (None: no team), as they play everyone else otherwise."""
    return seated_pairs(columns, seed=5, team=TEAM, team_rate=team_rate, spots=hu,
                        counts=("hu_n", "soft_ka", "soft_kb"))


def _leads(table: pl.DataFrame) -> pl.DataFrame:
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = totals_of(table)
    scored = combine(score_pairs(tested, totals, rates, partners=partners_of(table, totals)))
    return scored.filter(pl.col("q_value") <= 0.05)


def test_a_pair_betting_into_each_other_far_more_than_into_others_is_a_chip_dump_lead(
        columns: list[str]) -> None:
    # the dumper bets every pot, the receiver raises him: 95% against each other, 20-60%
    # against everyone else (before this test, only the lower tail, soft play, was read: no
    # lead)
    leads = _leads(_table(columns, 0.95))
    assert leads.select("player_a", "player_b", "top").rows() == [(*TEAM, "hu_aggression")]
    assert {f.name: f.rule_id for f in FEATURES}["hu_aggression"] == PATTERN_CHIP_DUMP


def test_honest_players_bet_into_each_other_as_into_others(columns: list[str]) -> None:
    # aggressive and passive players side by side, every pair 60 heads-up pots: no lead
    assert _leads(_table(columns, None)).height == 0
    # and a soft-playing pair is still read on the lower tail, not this one
    soft = _leads(_table(columns, 0.0))
    assert (*TEAM, "softplay") in soft.select("player_a", "player_b", "top").rows()
    assert "hu_aggression" not in soft["top"].to_list()
