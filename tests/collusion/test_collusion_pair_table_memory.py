"""The collusion stage of a big room holds its pair table (1.9M pairs at 5,000,000 hands) and
little more (issue 24: under 2 GB a stage). The players' totals, the fitted models and the
partner search go over every pair, and what they make per pair on the way is what they cost:
the arrays they hold at once are a few per pair, not one per column of the table."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import streets as S
from audit.collusion.synthetic import generate


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    """A pair table of 20,000 pairs among 3,000 players, with the columns of features.pair_table
    and counts as they go (folds no more than the bets faced, and so on)."""
    hands, hp, _ = generate(seed=7, players=12, days=1)
    columns = A.aggregate(A.chunks(hp.lazy(), hands.lazy())).table.schema
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3_000, 60_000), rng.integers(0, 3_000, 60_000)
    pairs = pl.DataFrame({"player_a": [f"p{x:05d}" for x in np.minimum(a, b)],
                          "player_b": [f"p{x:05d}" for x in np.maximum(a, b) + 1]})
    pairs = pairs.unique(maintain_order=True).head(20_000)
    n = pairs.height
    hands_together = rng.integers(20, 2_000, n)
    made = {}
    for c, dtype in columns.items():
        if c in ("player_a", "player_b"):
            continue
        if dtype.is_float():
            made[c] = pl.Series(c, rng.normal(0, 50, n))
        else:  # a count of some of the pair's hands
            made[c] = pl.Series(c, rng.binomial(hands_together, 0.2), dtype=dtype)
    for x in ("a", "b"):  # folds among the bets faced, stratum by stratum, at one rate
        faced = [rng.binomial(hands_together, 0.1) for _ in range(3)]
        folds = [rng.binomial(f, 0.6) for f in faced]
        for s, col in ((0, ""), (1, "1"), (2, "2")):
            made[f"f{x}{col}_n"] = pl.Series(faced[s] + (faced[1] + faced[2] if s == 0 else 0),
                                             dtype=columns[f"f{x}{col}_n"])
            made[f"f{x}{col}_k"] = pl.Series(folds[s] + (folds[1] + folds[2] if s == 0 else 0),
                                             dtype=columns[f"f{x}{col}_k"])
    made["hands"] = pl.Series("hands", hands_together, dtype=columns["hands"])
    return pairs.with_columns(**made).select(list(columns))


def _bytes_per_pair(table: pl.DataFrame, run: Callable[[], Any]) -> float:
    """The most array memory (numpy's, which tracemalloc sees) held at once while `run` ran,
    per pair of `table`."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak / table.height


def test_the_fitted_models_index_players_without_a_string_per_pair(table: pl.DataFrame) -> None:
    # numpy's np.unique over both player columns made a Python string of every name of every
    # pair (210 bytes a pair with the fit; 480 MB at 5,000,000 hands)
    assert _bytes_per_pair(table, lambda: L.fitted_factors(table)) < 150


def test_the_partner_search_holds_one_folders_side_at_a_time(table: pl.DataFrame) -> None:
    # both sides' fold counts joined with every total and all made floats at once: 440 bytes a
    # pair (1.7 GB over the pair table at 5,000,000 hands)
    totals = L.totals_of(table)
    assert _bytes_per_pair(table, lambda: L.partners_of(table, totals)) < 330


def test_street_counts_are_set_beside_the_pair_tables_rows_in_their_order() -> None:
    # lined up by the keys, not joined whole (a second copy of the table): every pair keeps its
    # row, the pairs without street counts count zero
    table = pl.DataFrame({"player_a": ["c", "a", "a"], "player_b": ["d", "c", "b"],
                          "hands": [5, 7, 9]})
    pair_counts = dict(zip(S.PAIR_COLUMNS, range(4, 4 + len(S.PAIR_COLUMNS)), strict=True))
    player_counts = dict(zip(S.PLAYER_COLUMNS, range(1, 1 + len(S.PLAYER_COLUMNS)),
                             strict=True))
    streets = S.StreetCounts(
        pairs=pl.DataFrame({"player_a": ["a"], "player_b": ["b"]} | {
            c: [v] for c, v in pair_counts.items()}),
        players=pl.DataFrame({"player": ["a"]} | {c: [v] for c, v in player_counts.items()}))
    rates = pl.DataFrame({"player": ["a", "c"], "multi_n": [3, 1]})
    got = L.with_streets(A.Partial(table=table, cells=pl.DataFrame(), rates=rates), streets)
    none = dict.fromkeys(S.PAIR_COLUMNS, 0)
    assert got.table.to_dicts() == [
        {"player_a": "c", "player_b": "d", "hands": 5} | none,
        {"player_a": "a", "player_b": "c", "hands": 7} | none,
        {"player_a": "a", "player_b": "b", "hands": 9} | pair_counts]
    assert got.rates.sort("player").to_dicts() == [
        {"player": "a", "multi_n": 3} | player_counts,
        {"player": "c", "multi_n": 1} | dict.fromkeys(S.PLAYER_COLUMNS, 0)]
