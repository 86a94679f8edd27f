"""Overlapping leads re-checked on the tests that read the events (issue 25).

Two leads sharing a player are each judged again without the hands the other's third player
entered, on the test that made it a lead (leads.resolve_overlaps). The re-check's tables are
built from the projections' hand rows, which carry no street counts: a lead read from the events
(`checkdown_bets`, `softplay_streets`, audit/collusion/streets.py) cannot be judged again there.
Such a re-check is undecided: the overlap explains neither lead away, where it read p = 1
(could never stand) and any overlapping lead that stood explained the other away."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import streets as S
from audit.collusion.synthetic import generate

STREETS = 60  # streets behind a third player's all-in the dumper and the stranger shared


@pytest.fixture(scope="module")
def population() -> tuple[pl.DataFrame, pl.DataFrame, tuple[str, str], str]:
    """A chip-dump team at a fixed table and the stranger who sits with it every hand."""
    hands, hp, planted = generate(seed=3, players=60, days=8, teams={"chip_dump": 1},
                                  companions=1)
    (_, dumper, receiver), = planted
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    mates = agg.table.filter(((pl.col("player_a") == dumper) | (pl.col("player_b") == dumper))
                             & (pl.col("hands") >= 100))
    stranger, = {x for pair in mates.select("player_a", "player_b").rows() for x in pair} \
        - {dumper, receiver}
    return hands, hp, (dumper, receiver), stranger


def _checkdown_streets(hp: pl.DataFrame, pair: tuple[str, str]) -> S.StreetCounts:
    """Street counts in which `pair` never bet on the STREETS streets they shared behind a third
    player's all-in, where every player bets 40% of his such streets with others and in his
    reference spots."""
    players = hp["player"].unique().sort()
    a, b = sorted(pair)
    own = pl.DataFrame({"player": players}).with_columns(
        cdx_h=pl.lit(100, pl.Int64), cdx_c=pl.lit(40, pl.Int64), cdx_rn=pl.lit(200, pl.Int64),
        cdx_rk=pl.lit(80, pl.Int64), hus_h=pl.lit(0, pl.Int64), hus_c=pl.lit(0, pl.Int64))
    own = own.with_columns(cdx_h=pl.when(pl.col("player").is_in(pair))
                           .then(pl.col("cdx_h") + STREETS).otherwise(pl.col("cdx_h")))
    pairs = pl.DataFrame({"player_a": [a], "player_b": [b], "cdx_n": [STREETS], "cdx_ka": [0],
                          "cdx_kb": [0], "hus_n": [0], "hus_ka": [0], "hus_kb": [0]},
                         schema={"player_a": pl.String, "player_b": pl.String,
                                 **dict.fromkeys(S.PAIR_COLUMNS, pl.Int64)})
    return S.StreetCounts(pairs=pairs, players=own.select("player", *S.PLAYER_COLUMNS))


def test_a_lead_read_from_the_streets_is_not_explained_away_by_an_overlapping_lead(
        population: tuple[pl.DataFrame, pl.DataFrame, tuple[str, str], str]) -> None:
    # the dumper also checks it down with the stranger behind all-ins: a lead read from the
    # events only. Its re-check without the receiver's hands cannot read the streets; the chip
    # dump's re-check without the stranger's hands stands. Before: the check-down lead read
    # p = 1 there and the chip dump explained it away
    hands, hp, team, stranger = population
    checkdown = tuple(sorted((team[0], stranger)))
    agg = L.with_streets(A.aggregate(A.chunks(hp.lazy(), hands.lazy())),
                         _checkdown_streets(hp, checkdown))
    cells = agg.cells.lazy()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    measured: dict[str, float] = {}
    first = L._score(agg.table, agg.table, 100, agg.rates, cells, tables,
                     pool=L._Pool(measured=measured))
    leads = first.filter(pl.col("q_value") <= 0.05).sort("p_value")
    assert dict(leads.select(pl.concat_list("player_a", "player_b").list.join("-"), "top")
                .rows()) == {"-".join(sorted(team)): "chip_dump",
                             "-".join(checkdown): "checkdown_bets"}
    rows = A.HandRows(hp.lazy(), hands.lazy())
    kept = L.resolve_overlaps(leads, rows, agg.table, 100, agg.rates, cells, tables,
                              lone=L._Pool(lone=True, spread=tuple(sorted(measured.items()))))
    # neither explains the other: both kept, one team of three (lead_teams)
    assert sorted(kept.select("player_a", "player_b").rows()) == sorted([tuple(sorted(team)),
                                                                          checkdown])


def test_a_recheck_that_cannot_read_the_streets_is_undecided(
        population: tuple[pl.DataFrame, pl.DataFrame, tuple[str, str], str]) -> None:
    # undecided (NaN), not p = 1; the projections' tests are judged as before
    hands, hp, team, stranger = population
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    cells = agg.cells.lazy()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    rows = A.HandRows(hp.lazy(), hands.lazy())
    pair = tuple(sorted(team))
    got = L._without(rows, [pair, pair, pair], [stranger] * 3, agg.table,
                     L.totals_of(agg.table), 100, agg.rates, cells, tables,
                     tests=[("checkdown_bets", 10), ("softplay_streets", 10), ("chip_dump", 10)])
    assert np.isnan(got[0]) and np.isnan(got[1])
    assert got[2] < 1e-5  # the chip dump stands without the stranger's hands
