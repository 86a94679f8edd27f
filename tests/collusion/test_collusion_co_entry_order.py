"""Co-entry is judged in the order the two acted (issue 25).

A maniac's raises cut the entries of whoever acts after him preflop, not of those who act
before him. A regular seated right after him acts after him in most of the hands they share,
while the maniac's usual co-entry with everyone else mixes the hands he acted first and those
he acted second: judged against that mix, the regular read as entering seldom with the maniac,
as a card sharer does. Each player's usual co-entry is taken in the same order as the pair's
(order_fit). Hole-card sharing cuts co-entry whatever the order: such a pair is
still a lead.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from tests.collusion.frames import co_entries, table_leads

TABLES, SEATS = 40, 6
TEAM = ("t03s2", "t03s3")


def _table(columns: list[str], hands: int, team_odds: float | None) -> pl.DataFrame:
    """TABLES tables of SEATS players who never move, each pair together `hands` hands; seat 0
    is a maniac. A player d seats after another acts after him preflop in (SEATS - d) / SEATS
    of their hands (the button goes round). When the maniac acts first, the other enters
    together with him at 0.6 times the odds of independent entry; otherwise every pair enters
    independently. With `team_odds`, TEAM (two players of table 3 beside each other, neither
    the maniac) enters together at those odds whoever acts first."""
    rng = np.random.default_rng(5)
    rows = []
    for t in range(TABLES):
        for i in range(SEATS):
            for j in range(i + 1, SEATS):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                odds = (0.6, 1.0) if i == 0 else (1.0, 1.0)
                if (a, b) == TEAM and team_odds is not None:
                    odds = (team_odds, team_odds)
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                            | {"hands": hands}
                            | co_entries(rng, hands, odds, first=(SEATS - (j - i)) / SEATS))
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"])


@pytest.mark.parametrize("hands", [12_000, 30_000])
def test_a_regular_seated_right_after_a_maniac_is_no_lead(columns: list[str],
                                                          hands: int) -> None:
    # before: every maniac and his left-hand neighbour were a co_entry lead (53 of the 40
    # such pairs and others at 12,000 hands, 75 at 30,000)
    assert table_leads(_table(columns, hands, None)) == []


def test_a_pair_that_seldom_enters_together_in_either_order_is_still_a_lead(
        columns: list[str]) -> None:
    leads = table_leads(_table(columns, 12_000, 0.6))
    assert leads == [(*TEAM, "co_entry")]


def test_the_pair_hands_know_who_acted_first_preflop() -> None:
    # UTG, ..., CO, BTN, SB, BB; heads-up the button (small blind) acts first
    order = ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO", "BTN", "SB", "BB"]
    keys = pl.DataFrame({"position": order, "seat": [9, 8, 7, 6, 5, 4, 3, 2, 1]}).select(
        F.preflop_order(pl.col("position"), pl.col("seat")).alias("k"))["k"].to_list()
    assert keys == sorted(keys)
    # without a position, by seat
    unknown = pl.DataFrame({"position": [None, None, "BB"], "seat": [2, 1, 5]},
                           schema={"position": pl.String, "seat": pl.Int8}).select(
        F.preflop_order(pl.col("position"), pl.col("seat")).alias("k"))["k"].to_list()
    assert unknown[1] < unknown[0] and unknown[2] < unknown[1]
