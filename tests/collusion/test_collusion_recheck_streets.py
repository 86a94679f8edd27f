"""Overlapping leads re-checked on the tests that read the events (issue 25).

Two leads sharing a player are each judged again without the hands the other's third player
entered, on the test that made it a lead (leads.resolve_overlaps). The re-check's tables are
built from the projections' hand rows, which carry no street counts: a lead read from the events
(`checkdown_bets`, `softplay_streets`, audit/collusion/streets.py) read p = 1 there, could never
stand, and any overlapping lead that stood explained it away. Now it is judged on the streets of
the hands kept (the events' counts per hand), and undecided (the overlap explains neither lead)
where those per-hand counts were not kept."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import streets as S
from audit.collusion.synthetic import generate

Population = tuple[pl.DataFrame, pl.DataFrame, tuple[str, str], str]


@pytest.fixture(scope="module")
def population() -> Population:
    """A chip-dump team (dumper, receiver) at a fixed table and the stranger who sits with it
    every hand."""
    hands, hp, planted = generate(seed=3, players=60, days=8, teams={"chip_dump": 1},
                                  companions=1)
    (_, dumper, receiver), = planted
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    mates = agg.table.filter(((pl.col("player_a") == dumper) | (pl.col("player_b") == dumper))
                             & (pl.col("hands") >= 100))
    stranger, = {x for pair in mates.select("player_a", "player_b").rows() for x in pair} \
        - {dumper, receiver}
    return hands, hp, (dumper, receiver), stranger


def _checkdown(hp: pl.DataFrame, pair: tuple[str, str], absent: str, entered: bool
               ) -> S.StreetCounts:
    """The events' street counts of a population where `pair` checked it down on the turn and
    river of 30 of its hands behind a third player's all-in (60 streets, no bet), hands that
    `absent` entered (`entered`) or not, and every player bets 40% of his 100 other streets
    behind all-ins and of his 200 reference spots, and each pair that shared 100 hands 40% of
    20 streets behind all-ins (the check-down test's baseline is a fit over the pairs'
    streets, leads.DIRECTED)."""
    a, b = pair
    shared = (hp.filter(pl.col("player").is_in(pair)).group_by("hand_id").len()
              .filter(pl.col("len") == 2).select("hand_id"))
    theirs = hp.filter((pl.col("player") == absent) & pl.col("vpip")).select("hand_id")
    picked = shared.join(theirs, on="hand_id", how="semi" if entered else "anti")
    ids = picked["hand_id"].sort().head(30).to_list()
    assert len(ids) == 30
    rows = [(h, p, st, True, False) for h in ids for p in (a, b) for st in (2, 3)]
    for p in hp["player"].unique().sort().to_list():
        rows += [(f"solo:{p}:{i}", p, 1, i < 100, i % 5 < 2) for i in range(300)]
    seats = hp.select("hand_id", "player")
    met = (seats.join(seats, on="hand_id").filter(pl.col("player") < pl.col("player_right"))
           .group_by("player", "player_right").len().filter(pl.col("len") >= 100).sort("player",
                                                                                     "player_right"))
    for p, q, _ in met.rows():
        rows += [(f"met:{p}:{q}:{i}", x, 1, True, i % 5 < 2) for i in range(20) for x in (p, q)]
    spots = pl.DataFrame(rows, schema={"hand_id": pl.String, "player": pl.String,
                                       "street": pl.Int8, "behind": pl.Boolean,
                                       "aggr": pl.Boolean}, orient="row")
    return S.counts(spots)


def _overlap(hands: pl.DataFrame, hp: pl.DataFrame, streets: S.StreetCounts
             ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(the first pass's leads, those resolve_overlaps keeps)."""
    agg = L.with_streets(A.aggregate(A.chunks(hp.lazy(), hands.lazy())), streets)
    cells = agg.cells.lazy()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    measured: dict[str, float] = {}
    first = L._score(agg.table, agg.table, 100, agg.rates, cells, tables,
                     pool=L._Pool(measured=measured))
    leads = first.filter(pl.col("q_value") <= 0.05).sort("p_value")
    rows = A.HandRows(hp.lazy(), hands.lazy())
    kept = L.resolve_overlaps(leads, rows, agg.table, 100, agg.rates, cells, tables,
                              lone=L._Pool(lone=True, spread=tuple(sorted(measured.items()))),
                              street_hands=streets.hands)
    return leads, kept


def _pairs(frame: pl.DataFrame) -> list[tuple[str, str]]:
    return sorted(frame.select("player_a", "player_b").rows())


def test_a_lead_read_from_the_streets_is_judged_on_the_streets_of_the_hands_kept(
        population: Population) -> None:
    # the dumper also checks it down with the stranger behind all-ins, in hands the receiver
    # stayed out of: a lead read from the events only. Without the receiver's hands its
    # streets are all still there, and it stands, as the chip dump does without the stranger's:
    # both kept, one team of three. Before: the check-down lead read p = 1 on its re-check
    # and the chip dump explained it away
    hands, hp, team, stranger = population
    checkdown = tuple(sorted((team[0], stranger)))
    leads, kept = _overlap(hands, hp, _checkdown(hp, checkdown, team[1], entered=False))
    assert dict(leads.select(pl.concat_list("player_a", "player_b").list.join("-"), "top")
                .rows()) == {"-".join(sorted(team)): "chip_dump",
                             "-".join(checkdown): "checkdown_bets"}
    assert _pairs(kept) == sorted([tuple(sorted(team)), checkdown])


def test_a_lead_whose_streets_were_all_in_the_partners_hands_is_explained_away(
        population: Population) -> None:
    # the same check-downs, all in hands the receiver entered: without them the stranger and
    # the dumper shared no street behind an all-in, and the chip dump explains the lead away
    hands, hp, team, stranger = population
    checkdown = tuple(sorted((team[0], stranger)))
    leads, kept = _overlap(hands, hp, _checkdown(hp, checkdown, team[1], entered=True))
    assert _pairs(leads) == sorted([tuple(sorted(team)), checkdown])
    assert _pairs(kept) == [tuple(sorted(team))]


def test_without_the_streets_per_hand_the_recheck_is_undecided(population: Population) -> None:
    # street counts without their per-hand rows: the lead cannot be judged again, so the
    # overlap explains neither lead (both kept), not the check-down lead away
    hands, hp, team, stranger = population
    checkdown = tuple(sorted((team[0], stranger)))
    counted = _checkdown(hp, checkdown, team[1], entered=True)
    _, kept = _overlap(hands, hp, S.StreetCounts(pairs=counted.pairs, players=counted.players))
    assert _pairs(kept) == sorted([tuple(sorted(team)), checkdown])


def test_a_recheck_that_cannot_read_the_streets_is_undecided(population: Population) -> None:
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


def test_the_street_counts_per_hand_add_up_to_the_pairs() -> None:
    spots = pl.DataFrame(
        [("h1", "alice", 2, True, False), ("h1", "bob", 2, True, True),
         ("h1", "alice", 3, True, False), ("h1", "bob", 3, True, False),
         ("h2", "alice", 2, True, True), ("h2", "bob", 2, True, False),
         ("h2", "carol", 2, True, False)],
        schema={"hand_id": pl.String, "player": pl.String, "street": pl.Int8,
                "behind": pl.Boolean, "aggr": pl.Boolean}, orient="row")
    got = S.counts(spots)
    assert got.hands is not None
    assert got.hands.select("hand_id", "player_a", "player_b", "cdx_n", "cdx_ka",
                            "cdx_kb").rows() == [
        ("h1", "alice", "bob", 2, 0, 1), ("h2", "alice", "bob", 1, 1, 0),
        ("h2", "alice", "carol", 1, 1, 0), ("h2", "bob", "carol", 1, 0, 0)]
    summed = got.hands.group_by("player_a", "player_b").agg(pl.col(*S.PAIR_COLUMNS).sum())
    assert summed.sort("player_a", "player_b").equals(
        got.pairs.select("player_a", "player_b", *S.PAIR_COLUMNS).sort("player_a", "player_b"))
    both = S.combine([got, got])
    assert both.hands is not None and both.hands.height == 2 * got.hands.height
