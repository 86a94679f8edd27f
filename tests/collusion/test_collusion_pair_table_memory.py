"""The collusion stage of a big room holds its pair table (1.9M pairs at 5,000,000 hands) and
little more (issue 24: under 2 GB a stage). The players' totals, the fitted models and the
partner search go over every pair, and what they make per pair on the way is what they cost:
the arrays they hold at once are a few per pair, not one per column of the table."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import streets as S
from tests.collusion.frames import counted_pair_table


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    """A pair table of 20,000 pairs among 3,000 players (frames.counted_pair_table)."""
    return counted_pair_table(20_000, 3_000)


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
    # pair (210 bytes a pair with the fit; 480 MB at 5,000,000 hands). The factors themselves
    # are per player, FIT_SCHEMA's columns (here 3,000 players among 20,000 pairs: 86 bytes a
    # pair; 3 to 5 over the 1.9M pairs of 5,000,000 hands): what is left is the pairs' own
    players = L.fitted_factors(table).height
    factors = players * (len(L.FIT_SCHEMA) - 1) * 8 / table.height
    assert _bytes_per_pair(table, lambda: L.fitted_factors(table)) - factors < 120


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
    # counts of streets, kept as the table's own counts are (4 bytes a pair each, not 8)
    assert all(got.table.schema[c] == pl.UInt32 for c in S.PAIR_COLUMNS)
    none = dict.fromkeys(S.PAIR_COLUMNS, 0)
    assert got.table.to_dicts() == [
        {"player_a": "c", "player_b": "d", "hands": 5} | none,
        {"player_a": "a", "player_b": "c", "hands": 7} | none,
        {"player_a": "a", "player_b": "b", "hands": 9} | pair_counts]
    assert got.rates.sort("player").to_dicts() == [
        {"player": "a", "multi_n": 3} | player_counts,
        {"player": "c", "multi_n": 1} | dict.fromkeys(S.PLAYER_COLUMNS, 0)]
