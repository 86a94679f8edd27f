"""PATTERN-CHECKDOWN-ALLIN around a short stack, preflop (issue 25): a check-down team "checks
behind a third player's all-in, gangs up on shoves and follows short stacks into pots".

A player who faces a third player's preflop raise, the raiser short (under
streets.SHORT_STACK_BB big blinds) or all-in, calls or raises it (continues) or folds. Per
direction of a pair (A's spots with B still in), his continues against what his own continue
rate expects there: his rate at the same starting-hand strength in his spots without B in
(counted from the events: `cdf_na`, `cdf_ka`, `cdf_ea`, and B's `_b`). Upper tail per
direction; the pair's p Fisher's combination of the directions tested (leads.checkdown_follow).
The tables are built by hand: the counting is audit/collusion/streets.py's."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion import streets as S
from audit.collusion.stats import binom_sf
from audit.collusion.synthetic import generate
from tests.collusion.frames import seated_pairs

FOLLOW = ("cdf_na", "cdf_ka", "cdf_ea", "cdf_nb", "cdf_kb", "cdf_eb")
TEAM = ("t03s1", "t03s2")
NEIGHBOUR = ("t03s1", "t03s3")


def _with_follow(table: pl.DataFrame, seed: int,
                 planted: dict[tuple[str, str], tuple[int, int, float, int, int, float]]
                 ) -> pl.DataFrame:
    """`table` with the follow counts: per direction 10 to 40 spots, each player continuing at
    his own rate (0.2 to 0.5, the rate his spots without the other in show: expected = spots ×
    rate); `planted`: a pair's counts (na, ka, ea, nb, kb, eb) as given."""
    rng = np.random.default_rng(seed)
    players = sorted(set(table["player_a"]) | set(table["player_b"]))
    own = {p: float(rng.uniform(0.2, 0.5)) for p in players}
    rows = []
    for a, b in table.select("player_a", "player_b").rows():
        na, nb = (int(x) for x in rng.integers(10, 41, 2))
        rows.append(planted.get((a, b), (na, int(rng.binomial(na, own[a])), na * own[a],
                                         nb, int(rng.binomial(nb, own[b])), nb * own[b])))
    made = pl.DataFrame(rows, schema=list(FOLLOW), orient="row")
    return table.hstack(made.with_columns(pl.col("cdf_na", "cdf_ka", "cdf_nb", "cdf_kb")
                                          .cast(pl.UInt32), pl.col("cdf_ea", "cdf_eb")
                                          .cast(pl.Float64)))


def _scored(table: pl.DataFrame, pool: L._Pool = L.WHOLE) -> pl.DataFrame:
    """The pairs of a pair table scored alone (no players' rates, no seating, no explaining
    away), as leads.combine ranks them."""
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = L.totals_of(table)
    return L.combine(L.score_pairs(tested, totals, rates, pool,
                                   partners=L.partners_of(table, totals)))


@pytest.fixture(scope="module")
def table(columns: list[str]) -> pl.DataFrame:
    """30 tables of 6 players who never move; at table 3 the team: t03s1 called or raised a
    short stack's raise with t03s2 in 22 of 30 times where his own play without t03s2 in
    expected 7.5; t03s2 with t03s1 in as his own rate says. t03s1 with his neighbour t03s3 in
    continued 9 of 30 where 9.2 were expected."""
    base = seated_pairs(columns, seed=11, team=TEAM, team_rate=None, spots=0,
                        counts=("hu_n", "soft_ka", "soft_kb"))
    return _with_follow(base, seed=11, planted={TEAM: (30, 22, 7.5, 25, 8, 8.1),
                                                NEIGHBOUR: (30, 9, 9.2, 28, 10, 10.4)})


def test_a_player_who_follows_short_stacks_beside_his_partner_is_a_lead(
        table: pl.DataFrame) -> None:
    scored = _scored(table)
    leads = scored.filter(pl.col("q_value") <= 0.05)
    assert leads.select("player_a", "player_b", "top").rows() == [(*TEAM, "checkdown_follow")]
    team = leads.row(0, named=True)
    assert (team["checkdown_follow_n"], team["checkdown_follow_k"]) == (55, 30)
    assert team["checkdown_follow_e"] == pytest.approx(15.6)
    assert team["checkdown_follow_p"] < 1e-5


def test_a_tablemate_who_continues_as_his_own_play_says_is_no_lead(table: pl.DataFrame) -> None:
    scored = _scored(table)
    mate = scored.filter((pl.col("player_a") == NEIGHBOUR[0])
                         & (pl.col("player_b") == NEIGHBOUR[1])).row(0, named=True)
    assert mate["checkdown_follow_k"] == 19
    assert mate["checkdown_follow_e"] == pytest.approx(19.6)
    assert mate["checkdown_follow_p"] > 0.3
    assert mate["q_value"] > 0.05


def test_each_direction_is_judged_on_its_own_and_the_pair_on_both() -> None:
    # judged alone (no population: binomial at the mean rate e/n), a direction of fewer than
    # 5 spots untested: the pair's p is the tested direction's; both tested, Fisher's
    # combination (chi-square, 4 df); neither: untested
    g = {"cdf_na": np.array([20.0, 20.0, 4.0]), "cdf_ka": np.array([12.0, 12.0, 4.0]),
         "cdf_ea": np.array([6.0, 6.0, 1.0]), "cdf_nb": np.array([15.0, 3.0, 4.0]),
         "cdf_kb": np.array([9.0, 3.0, 4.0]), "cdf_eb": np.array([4.5, 0.3, 1.0])}
    got = L._checkdown_follow(g, 3, L.LONE)
    pa = binom_sf(np.array([12.0]), np.array([20.0]), np.array([0.3]))[0]
    pb = binom_sf(np.array([9.0]), np.array([15.0]), np.array([0.3]))[0]
    both = pa * pb * (1 - np.log(pa * pb))
    assert got["checkdown_follow_p"][0] == pytest.approx(both, rel=1e-9)
    assert both < min(pa, pb)  # two directions that follow are stronger evidence than one
    assert got["checkdown_follow_p"][1] == pytest.approx(pa, rel=1e-9)
    assert np.isnan(got["checkdown_follow_p"][2])
    assert list(got["checkdown_follow_n"]) == [35, 23, 8]
    assert list(got["checkdown_follow_k"]) == [21, 15, 8]
    assert list(got["checkdown_follow_e"]) == pytest.approx([10.5, 6.3, 2.0])


def test_one_direction_that_follows_is_evidence_without_the_other(table: pl.DataFrame) -> None:
    # the team's other member plays his own game (8 of 25 where 8.1): the follower alone
    # makes the lead
    team = _scored(table).filter((pl.col("player_a") == TEAM[0])
                                 & (pl.col("player_b") == TEAM[1])).row(0, named=True)
    assert team["checkdown_follow_ka"] == 22 and team["checkdown_follow_kb"] == 8
    assert team["checkdown_follow_p"] < 1e-5


def test_without_the_follow_counts_the_test_is_not_made(table: pl.DataFrame) -> None:
    # a pair table without the events' follow counts (a store read without its events): the
    # test untested, and not counted in any pair's Bonferroni; with them, counted
    without = _scored(table.drop(FOLLOW))
    assert without["checkdown_follow_p"].is_nan().all()
    assert without.filter(pl.col("q_value") <= 0.05).height == 0
    with_ = _scored(table)
    added = with_.join(without, on=["player_a", "player_b"], suffix="_0").select(
        pl.col("n_features") - pl.col("n_features_0"))
    assert added.to_series().to_list() == [1] * table.height


def test_the_expected_continues_stay_floats_in_the_pair_table() -> None:
    # the expected continues are sums of rates: cast to counts with the pair table's own
    # columns they lost up to one continue a pair (0.9 where 1.9 are expected)
    hands, hp, _ = generate(seed=7, players=12, days=1)
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    a, b = agg.table.select("player_a", "player_b").row(0)
    counted = S.empty()
    pairs = pl.DataFrame({"player_a": [a], "player_b": [b]}).with_columns(
        *(pl.lit(0, pl.UInt32).alias(c) for c in S.PAIR_COLUMNS),
        cdf_na=pl.lit(18, pl.Int64), cdf_ka=pl.lit(10, pl.Int64), cdf_nb=pl.lit(6, pl.Int64),
        cdf_kb=pl.lit(1, pl.Int64), cdf_ea=pl.lit(1.9), cdf_eb=pl.lit(2.45))
    joined = L.with_streets(agg, S.StreetCounts(pairs=pairs, players=counted.players)).table
    assert joined.schema["cdf_ea"] == pl.Float64 and joined.schema["cdf_eb"] == pl.Float64
    assert joined.schema["cdf_na"] == pl.UInt32 and joined.schema["cdf_kb"] == pl.UInt32
    row = joined.filter((pl.col("player_a") == a) & (pl.col("player_b") == b)).row(0, named=True)
    assert (row["cdf_na"], row["cdf_ka"], row["cdf_ea"], row["cdf_eb"]) == (18, 10, 1.9, 2.45)
    # every other pair: no spot counted, nothing expected
    rest = joined.filter((pl.col("player_a") != a) | (pl.col("player_b") != b))
    assert rest.select(pl.col(*FOLLOW).sum()).row(0) == (0,) * 6
