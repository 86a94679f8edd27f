"""Honest tables that are not like the population are no collusion (issue 25, false leads).

A group of loose-aggressive regulars sits at one table for thousands of hands. At their table
everyone joins pots a lot, folds a lot to bets, and their raises cut whoever acts after them
out of the pot. Each of them shows it against everyone at the table, and each baseline is
measured there: a pair of regulars must be judged against their own table, not against the
population, or the table's style is counted twice and two honest regulars read as card
sharers or partners who fold to each other.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl

from audit.collusion import features as F
from audit.collusion.leads import combine, score_pairs, totals_of
from tests.collusion.frames import co_entries

TABLES, SEATS, HANDS = 40, 6, 3000  # tables of regulars: every pair together 3,000 hands
LOOSE = 0  # the table whose style differs from the population's


def _population(columns: list[str], fill: Callable[[np.random.Generator, int, int, int],
                                                   dict[str, float]]) -> pl.DataFrame:
    """A pair table of TABLES tables of SEATS players who never move: every pair of a table
    together HANDS hands; `fill(rng, table, i, j)` gives the pair's counts of interest, all
    others 0 (features not tested)."""
    rng = np.random.default_rng(5)
    rows = []
    for t in range(TABLES):
        for i in range(SEATS):
            for j in range(i + 1, SEATS):
                row = dict.fromkeys(columns, 0.0) | {"hands": HANDS}
                row |= fill(rng, t, i, j)
                rows.append({"player_a": f"t{t:02d}s{i}", "player_b": f"t{t:02d}s{j}"} | row)
    frame = pl.DataFrame(rows)
    return frame.with_columns(pl.col("hands").cast(pl.UInt32),
                              *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"
                                and c not in ("flow", "flow_sq", "flow_w", "flow_dw", "flow_w2",
                                              "flow_chips")])


def _scored(table: pl.DataFrame) -> pl.DataFrame:
    totals = totals_of(table)  # each player's totals and fitted factors
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    return combine(score_pairs(tested, totals, rates))


def _loose(scored: pl.DataFrame) -> pl.DataFrame:
    return scored.filter(pl.col("player_a").str.starts_with(f"t{LOOSE:02d}"))


def test_a_loose_table_is_not_card_sharing(columns: list[str]) -> None:
    # at one table the weaker of two hands plays along 55% of the time, whoever holds it (40%
    # at the others): each regular joins others' better hands that often, and is joined that
    # often
    def fill(rng: np.random.Generator, t: int, i: int, j: int) -> dict[str, float]:
        rate = 0.55 if t == LOOSE else 0.4
        na, nb = rng.binomial(HANDS, 0.12, 2)
        return {"cs0_na": na, "cs0_nb": nb, "cs0_ka": rng.binomial(na, rate),
                "cs0_kb": rng.binomial(nb, rate)}

    scored = _scored(_population(columns, fill))
    loose = _loose(scored)
    # observed and expected agree: the table's looseness is counted once
    ratio = loose["card_share_k"] / loose["card_share_e"]
    assert ((ratio > 0.9) & (ratio < 1.1)).all(), loose.select("card_share_k", "card_share_e")
    assert scored.filter(pl.col("q_value") <= 0.05).height == 0


def test_a_table_that_folds_to_bets_is_not_folding_to_a_partner(columns: list[str]) -> None:
    # at one table 85% of bets win the pot at once, whoever bets into whom (60% elsewhere)
    def fill(rng: np.random.Generator, t: int, i: int, j: int) -> dict[str, float]:
        rate = 0.85 if t == LOOSE else 0.6
        fa, fb = rng.binomial(HANDS, 0.08, 2)
        return {"fa_n": fa, "fb_n": fb, "fa_k": rng.binomial(fa, rate),
                "fb_k": rng.binomial(fb, rate)}

    scored = _scored(_population(columns, fill))
    loose = _loose(scored)
    ratio = loose["fold_to_partner_k"] / loose["fold_to_partner_e"]
    assert ((ratio > 0.9) & (ratio < 1.1)).all(), loose.select("fold_to_partner_k",
                                                               "fold_to_partner_e")
    assert scored.filter(pl.col("q_value") <= 0.05).height == 0


def _co_entry(rng: np.random.Generator, odds: float) -> dict[str, float]:
    """Entries of a pair over HANDS hands, half of them with A acting first, each entering
    30%, together at `odds` times the odds of independent entry whoever acts first."""
    return co_entries(rng, HANDS, (odds, odds))


def test_two_aggressive_regulars_cutting_each_others_entries_are_not_a_lead(
        columns: list[str]) -> None:
    # two loose-aggressive regulars (seats 0 and 1 of every table): their raises cut the
    # entries of whoever acts after them, so with anyone a pair with one of them enters
    # together at odds 0.8 times independent entry, and the two of them, each cutting the
    # other's, at 0.8 · 0.8
    def fill(rng: np.random.Generator, t: int, i: int, j: int) -> dict[str, float]:
        return _co_entry(rng, 0.8 ** ((i < 2) + (j < 2)))

    scored = _scored(_population(columns, fill))
    regulars = scored.filter(pl.col("player_a").str.ends_with("s0")
                             & pl.col("player_b").str.ends_with("s1"))
    assert (regulars["co_entry_k"] < regulars["co_entry_e"] * 0.9).all()
    assert scored.filter(pl.col("q_value") <= 0.05).height == 0

    # a team that splits the pots shows it with each other only, and stands out
    def team(rng: np.random.Generator, t: int, i: int, j: int) -> dict[str, float]:
        return _co_entry(rng, 0.5 if (t, i, j) == (3, 2, 3) else 0.8 ** ((i < 2) + (j < 2)))

    leads = _scored(_population(columns, team)).filter(pl.col("q_value") <= 0.05)
    assert leads.select("player_a", "player_b", "top").rows() == [("t03s2", "t03s3",
                                                                  "co_entry")]
