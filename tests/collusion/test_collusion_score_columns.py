"""The scoring reads each pair's columns and its two players' totals one column at a time
(leads._PairTotals, issue 24: under 2 GB a stage): the tested pairs joined with every total
(some 270 columns) and all of it turned into float arrays at once, the partners' totals
joined once more beside it, were the scoring's peak at 5,000,000 hands (+480 MB over 56,000
tested pairs, and a 102 MB join). The columns are those of the join, value for value: a
partner pair's players with their totals over all pairs, every other pair's without the
partner pairs, a partner pair that shares a player with another with its own."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import leads as L
from tests.collusion.frames import counted_pair_table
from tests.collusion.memory_growth import measured

KEYS = ["player_a", "player_b"]

_MEASURE = r"""
import json
import polars as pl
from audit.collusion import features as F, leads as L
from tests.collusion.frames import counted_pair_table

t = counted_pair_table(100_000, 5_000)
# partner pairs: their first player never folds to the other's bets
t = t.with_columns(pl.when(pl.int_range(pl.len()) < 30).then(0).otherwise(pl.col(c)).alias(c)
                   for c in ("fa_k", "fa1_k", "fa2_k"))
rates = pl.DataFrame({"player": pl.concat([t["player_a"], t["player_b"]]).unique()})
rates = rates.with_columns(pl.lit(0).alias(c) for c in F.RATE_COLUMNS)
totals = L.totals_of(t)
partners = L.partners_of(t, totals)
tested = t.head(40_000).with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
size = tested.estimated_size()
print(json.dumps({
    "partners": 0 if partners is None else partners.pairs.height,
    "score_pairs": growth(lambda: L.score_pairs(tested, totals, rates, partners=partners)),
    "player_index": growth(lambda: L._player_index(t)),
}))
"""


@pytest.fixture(scope="module")
def growth() -> dict[str, float]:
    """The scoring's most memory held at once, as a share of the tested pairs' table."""
    return measured(_MEASURE)


def test_the_scoring_holds_no_float_copy_of_the_pairs_with_their_totals(
        growth: dict[str, float]) -> None:
    # the tested pairs joined with both players' totals, all in floats, and the partners'
    # totals joined beside them: 30.5 times the tested pairs' table (40,000 pairs of 5,000
    # players); 2.7 to 3.8 times a column at a time, most of it the tests' own arrays
    assert growth["partners"] > 1
    assert growth["score_pairs"] < 8.0


def test_the_players_index_builds_no_join_of_the_names(growth: dict[str, float]) -> None:
    # (of the fitted models, leads._player_index) both name columns joined with the sorted
    # names: 0.60 to 0.72 of the tested pairs' table (a table of 100,000 pairs); a binary
    # search of each name among the sorted ones: 0.07 to 0.20
    assert growth["player_index"] < 0.4


def test_the_players_index_is_each_name_s_place_among_the_sorted_names() -> None:
    table = counted_pair_table(2_000, 150)
    names, idx = L._player_index(table)
    both = np.concatenate([table["player_a"].to_numpy(), table["player_b"].to_numpy()])
    want, inverse = np.unique(both.astype(str), return_inverse=True)
    assert names.name == "player" and names.to_list() == want.tolist()
    assert np.array_equal(idx, inverse)


def _joined(table: pl.DataFrame, totals: pl.DataFrame, rates: pl.DataFrame,
            partners: L.Partners | None) -> dict[str, np.ndarray]:
    """The columns as the scoring made them before: the table joined with every total, in
    floats, a partner pair's kept, every other pair's from the totals without the partners,
    and those of a partner pair that shares a player its own."""
    t = L._with_totals(table, totals, rates)
    g = {c: t[c].to_numpy().astype(float) for c in t.columns if t[c].dtype.is_numeric()}
    if partners is None:
        return g
    mine = t.select(KEYS).join(partners.pairs.with_columns(_partner=pl.lit(True)), on=KEYS,
                               how="left", maintain_order="left")["_partner"].fill_null(False)
    other = t.select(KEYS).join(L._with_totals(table.select(KEYS), partners.totals, rates),
                                on=KEYS, how="left", maintain_order="left")
    for c in g:
        if c.endswith(("__a", "__b")) and c in other.columns:
            g[c] = np.where(mine.to_numpy(), g[c],
                            other[c].fill_null(0).to_numpy().astype(float))
    if partners.own is not None and partners.own.height:
        want = t.select(KEYS).with_row_index("_i").with_columns(pl.col("_i").cast(pl.Int64)).join(
            partners.own.select(player_a="pair_a", player_b="pair_b").unique(), on=KEYS)
        keyed = partners.own.join(want.rename({"player_a": "pair_a", "player_b": "pair_b"}),
                                  on=["pair_a", "pair_b"]).drop("pair_a", "pair_b")
        rows = L._with_totals(want, keyed, rates, on="_i")
        for c in g:
            if c.endswith(("__a", "__b")) and c in rows.columns:
                g[c][rows["_i"].to_numpy()] = rows[c].fill_null(0).to_numpy().astype(float)
    return g


def test_the_columns_are_those_of_the_pairs_joined_with_their_totals() -> None:
    table = counted_pair_table(3_000, 300)
    # partner pairs, some sharing a player (their own totals), one of players in no other pair
    table = table.with_columns(
        pl.when(pl.int_range(pl.len()) < 25).then(0).otherwise(pl.col(c)).alias(c)
        for c in ("fa_k", "fa1_k", "fa2_k"))
    lone = table.head(1).with_columns(player_a=pl.lit("q0"), player_b=pl.lit("q1"))
    table = pl.concat([table, lone])
    players = pl.concat([table["player_a"], table["player_b"]]).unique().sort()
    # the rates of all but a few players (theirs filled with 0)
    rates = pl.DataFrame({"player": players.head(players.len() - 7)}).with_columns(
        pl.int_range(pl.len()).cast(pl.UInt32).alias(c) for c in F.RATE_COLUMNS)
    totals = L.totals_of(table)
    partners = L.partners_of(table, totals)
    assert partners is not None and partners.own is not None and partners.own.height
    # the tested pairs: most of the table, in another order, the partner pairs among them, and
    # a pair of players the totals do not know (NaN, as the join's nulls)
    tested = pl.concat([table.sample(fraction=0.8, seed=5),
                        table.head(1).with_columns(player_a=pl.lit("x0"), player_b=pl.lit("x1"))])
    for given in (None, partners):
        want = _joined(tested, totals, rates, given)
        got = L._PairTotals(tested, totals, rates, given)
        assert list(got) == list(want)
        for c in want:
            assert np.array_equal(got[c], want[c], equal_nan=True), c
        with pytest.raises(KeyError):
            got["player_a"]
