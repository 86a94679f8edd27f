"""PATTERN-CHECKDOWN-ALLIN, the range model (audit/collusion/ranges.py): each player's own range
of continues and checks, learned from his play without the partner, and a pair's continues and
checks beside each other weighed against it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import ranges as R
from audit.collusion import streets as S
from audit.collusion.stats import bh_qvalues
from audit.collusion.synthetic import generate

KEYS = 40  # strength keys, the population continuing more often with a higher key


def _curve_rate(threshold: float, u: np.ndarray) -> np.ndarray:
    return 0.05 + 0.95 / (1 + np.exp(-(u - threshold) / 0.04))


def population(seed: int, team: tuple[str, str] | None = None, share: float = 0.4,
               bystander: str | None = None, hands: int = 6000, players: int = 12,
               names: list[str] | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A population of `players` whose continue rate is a step at their own threshold over the
    strength order (key / KEYS): non-target spots (`base`) and, per hand of four players, a
    target spot for each of them (continuing a little wider than at base). The `team`, both
    dealt in, continues with any hand in `share` of those hands; a `bystander` sits at every
    hand the team plays together; `names`: the players' (p00, p01, ... when None)."""
    rng = np.random.default_rng(seed)
    names = names or [f"p{i:02d}" for i in range(players)]
    players = len(names)
    threshold = dict(zip(names, rng.uniform(0.35, 0.8, players), strict=True))
    base_rows = []
    for p in names:
        key = rng.integers(0, KEYS, 800)
        y = rng.random(800) < _curve_rate(threshold[p], key / KEYS)
        for k in range(KEYS):
            base_rows.append(("follow", p, k, int((key == k).sum()), int(y[key == k].sum())))
    base = pl.DataFrame(base_rows, schema=R.BASE_SCHEMA, orient="row")
    spot_rows = []
    for h in range(hands):
        seated = list(rng.choice(players, 4, replace=False))
        table = [names[i] for i in seated]
        if team and bystander and team[0] in table and team[1] in table and (
                bystander not in table):
            table[next(i for i, p in enumerate(table) if p not in team)] = bystander
        colluding = bool(team and set(team) <= set(table) and rng.random() < share)
        for p in table:
            key = int(rng.integers(0, KEYS))
            rate = _curve_rate(threshold[p] - 0.05, np.array([key / KEYS]))[0]
            y = bool(rng.random() < rate) or (colluding and p in (team or ()))
            others = [q for q in table if q != p]
            spot_rows.append((f"h{h:05d}", "follow", p, key, y, others, others))
    spots = pl.DataFrame(spot_rows, schema=R.SPOT_SCHEMA, orient="row")
    return spots, base


def test_a_players_curve_is_learned_from_his_spots() -> None:
    u = np.linspace(0.0125, 0.9875, 40)
    n = np.full(40, 200)
    k = np.round(n * (0.1 + 0.9 / (1 + np.exp(-(u - 0.6) / 0.02)))).astype(int)
    curve = R.fit_curve(u, n, k)
    assert curve.threshold == pytest.approx(0.6, abs=0.02)
    assert curve.floor == pytest.approx(0.1, abs=0.03)
    assert curve.rate(np.array([0.2]))[0] < 0.15 < 0.95 < curve.rate(np.array([0.9]))[0]


def test_the_strength_order_ranks_keys_by_the_populations_rate() -> None:
    base = pl.DataFrame([("follow", "a", 7, 10, 9), ("follow", "b", 7, 10, 9),
                         ("follow", "a", 3, 10, 1), ("follow", "a", 5, 20, 10)],
                        schema=R.BASE_SCHEMA, orient="row")
    order = R.strength_order(base).sort("u")
    assert order["key"].to_list() == [3, 5, 7]
    # each key at the middle of its share of the 50 spots
    assert order["u"].to_list() == pytest.approx([5 / 50, 20 / 50, 40 / 50])


def _exact_tail(r: list[list[float]], y: list[list[bool]]) -> float:
    """P(T >= t) by enumerating every outcome of every hand (r, y: per hand its spots)."""
    def value(rates: list[float], acted: tuple[bool, ...]) -> float:
        s = sum(-np.log(x) for x, a in zip(rates, acted, strict=True) if a)
        return float(R.hand_value(np.array([s]))[0])
    t = sum(value(rh, tuple(yh)) for rh, yh in zip(r, y, strict=True))
    total = 0.0
    for outcome in itertools.product(*[itertools.product([False, True], repeat=len(rh))
                                       for rh in r]):
        prob = np.prod([np.prod([x if a else 1 - x for x, a in zip(rh, oh, strict=True)])
                        for rh, oh in zip(r, outcome, strict=True)])
        if sum(value(rh, oh) for rh, oh in zip(r, outcome, strict=True)) >= t - 1e-12:
            total += prob
    return float(total)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_saddlepoint_tail_matches_the_exact_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    r = [list(rng.uniform(0.05, 0.9, rng.integers(1, 3))) for _ in range(9)]
    y = [[bool(rng.random() < 0.6) for _ in rh] for rh in r]
    rows = pl.DataFrame({
        "group": [0] * sum(map(len, r)),
        "hand_id": [f"h{i}" for i, rh in enumerate(r) for _ in rh],
        "slot": [0] * sum(map(len, r)), "y": [a for yh in y for a in yh],
        "r": [x for rh in r for x in rh], "shift_var": [0.0] * sum(map(len, r))})
    got = R._group_evidence(rows)["cdr_p"].item()
    exact = _exact_tail(r, y)
    if exact < 0.5:
        assert got == pytest.approx(exact, rel=0.5)
    else:
        assert got >= 0.3


def test_a_continue_no_honest_player_makes_reads_as_rare() -> None:
    rows = pl.DataFrame({"group": [0] * 6, "hand_id": [f"h{i}" for i in range(6)],
                         "slot": [0] * 6, "y": [True] * 6, "r": [0.05] * 6,
                         "shift_var": [0.0] * 6})
    got = R._group_evidence(rows)["cdr_p"].item()
    assert got == pytest.approx(0.05**6, rel=0.3)
    # the fit's uncertainty widens it: the rates might be higher than fitted
    wider = R._group_evidence(rows.with_columns(shift_var=pl.lit(0.3)))["cdr_p"].item()
    assert got < wider < 1e-4


def test_PATTERN_CHECKDOWN_ALLIN_a_team_following_each_other_is_found() -> None:
    spots, base = population(seed=5, team=("p01", "p02"), share=0.4)
    evidence = R.pair_evidence(spots, base).sort("cdr_p")
    top = evidence.row(0, named=True)
    assert (top["player_a"], top["player_b"]) == ("p01", "p02")
    assert bh_qvalues(evidence["cdr_p"].to_numpy()).min() < 0.01
    assert top["cdr_t"] > top["cdr_e"]


def test_PATTERN_CHECKDOWN_ALLIN_honest_players_are_no_lead() -> None:
    spots, base = population(seed=6)
    evidence = R.pair_evidence(spots, base)
    assert evidence.height == 66  # every pair of the 12 tested
    q = bh_qvalues(evidence["cdr_p"].to_numpy())
    assert q.min() > 0.2
    # p-values of honest pairs are not piled up near zero
    assert (evidence["cdr_p"] < 0.05).sum() <= 8


def test_a_stranger_at_the_teams_table_is_judged_without_the_partners_hands() -> None:
    spots, base = population(seed=7, team=("p01", "p02"), share=0.6, bystander="p03")
    evidence = R.pair_evidence(spots, base).sort("cdr_p")
    pairs = dict(zip(evidence.select("player_a", "player_b").rows(), evidence["cdr_p"],
                     strict=True))
    assert pairs[("p01", "p02")] < 1e-6
    # present at every hand the team colludes in, the stranger alone is no lead
    assert pairs[("p01", "p03")] > 1e-3
    assert pairs[("p02", "p03")] > 1e-3


def test_no_spots_no_pairs() -> None:
    empty = R.pair_evidence(pl.DataFrame(schema=R.SPOT_SCHEMA),
                            pl.DataFrame(schema=R.BASE_SCHEMA))
    assert empty.height == 0
    assert dict(empty.schema) == R.PAIR_SCHEMA


def test_PATTERN_CHECKDOWN_ALLIN_the_range_test_scores_the_pairs_it_could_test() -> None:
    hands, hp, _ = generate(seed=7, players=12, days=1)
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    names = sorted(set(agg.table["player_a"]) | set(agg.table["player_b"]))
    team = (names[1], names[2])
    spots, base = population(seed=5, team=team, names=names)
    counted = S.empty()
    streets = S.StreetCounts(pairs=counted.pairs, players=counted.players,
                             range_spots=spots, range_base=base)
    table = L.with_streets(agg, streets).table
    assert all(c in table.columns for c in L.RANGE_COLUMNS)
    g = {c: table[c].to_numpy().astype(float) for c in L.RANGE_COLUMNS}
    scored = table.select("player_a", "player_b").hstack(
        pl.DataFrame(L._checkdown_range(g, table.height)))
    row = scored.filter((pl.col("player_a") == team[0]) & (pl.col("player_b") == team[1]))
    assert row["checkdown_range_p"].item() < 1e-6
    assert row["checkdown_range_t"].item() > row["checkdown_range_e"].item()
    # every pair of the table met at some target spots here: all tested, the others weakly
    others = scored.filter((pl.col("player_a") != team[0]) | (pl.col("player_b") != team[1]))
    assert others["checkdown_range_p"].is_not_nan().all()
    assert others["checkdown_range_p"].min() > 1e-4


def test_without_the_range_spots_the_range_test_is_not_made() -> None:
    hands, hp, _ = generate(seed=7, players=12, days=1)
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    counted = S.empty()
    table = L.with_streets(agg, S.StreetCounts(pairs=counted.pairs,
                                               players=counted.players)).table
    assert not any(c in table.columns for c in L.RANGE_COLUMNS)
    out = L._checkdown_range({}, table.height)
    assert np.isnan(out["checkdown_range_p"]).all() and out["checkdown_range_p"].size == (
        table.height)


def test_a_pair_with_too_few_spots_is_not_judged() -> None:
    g = {"cdr_n": np.array([4.0, 5.0]), "cdr_k": np.array([4.0, 5.0]),
         "cdr_t": np.array([9.0, 9.0]), "cdr_e": np.array([1.0, 1.0]),
         "cdr_p": np.array([1e-5, 1e-5])}
    p = L._checkdown_range(g, 2)["checkdown_range_p"]
    assert np.isnan(p[0]) and p[1] == 1e-5


def test_a_player_seen_at_few_spots_is_judged_near_the_population_not_at_his_few() -> None:
    # 18 spots facing a raise, none continued: alone they read as a player who never
    # continues, and his four continues beside one tablemate as p 1e-9 (a room of 100,000
    # hands); the population's play, CURVE_PRIOR spots of it, keeps his range near everyone's
    spots, base = population(seed=8)
    sparse = pl.DataFrame([("follow", "rare", k, 1 if k < 18 else 0, 0) for k in range(KEYS)],
                          schema=R.BASE_SCHEMA, orient="row")
    rng = np.random.default_rng(8)
    mine = [(f"r{h:03d}", "follow", "rare", int(rng.integers(0, KEYS)), h < 4,
             ["p01", "p02"], ["p01", "p02"]) for h in range(13)]
    spots = pl.concat([spots, pl.DataFrame(mine, schema=R.SPOT_SCHEMA, orient="row")])
    evidence = R.pair_evidence(spots, pl.concat([base, sparse]))
    rare = evidence.filter(pl.col("player_a") == "p01", pl.col("player_b") == "rare")
    assert rare["cdr_n"].item() == 13 and rare["cdr_k"].item() == 4
    assert rare["cdr_p"].item() > 1e-3


class _Seated:
    """The `A.HandRows` the range test's re-checks read (`player_hands`): every player with a
    spot in a hand sat in it, and entered it voluntarily when `entered`."""

    def __init__(self, spots: pl.DataFrame, entered: bool = True) -> None:
        self.rows = (spots.select("hand_id", "player").unique()
                     .with_columns(vpip=pl.lit(entered)))

    def player_hands(self, players: list[str], *, others: bool = False
                     ) -> Iterator[pl.DataFrame]:
        yield self.rows.filter(pl.col("player").is_in(list(players)))


@pytest.fixture(scope="module")
def team_beside_a_stranger() -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """A team p01-p02 continuing together, the stranger p03 at every hand they play together:
    the spots, the model's evidence and its rows (`ranges.evidence_and_rows`)."""
    spots, base = population(seed=7, team=("p01", "p02"), share=0.6, bystander="p03")
    return (spots, *R.evidence_and_rows(spots, base))


def test_the_range_tests_overlap_recheck_leaves_out_the_hands_the_absent_player_entered(
        team_beside_a_stranger: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]) -> None:
    spots, evidence, rows = team_beside_a_stranger
    team_p = evidence.filter(pl.col("player_a") == "p01", pl.col("player_b") == "p02")["cdr_p"]
    stranger = rows.filter(pl.col("player_a") == "p01", pl.col("player_b") == "p03")
    # on all their hands, the stranger's spots beside p01 carry the team's play
    assert R._group_evidence(stranger.select("hand_id", "slot", "y", "r", "shift_var")
                             .with_columns(group=pl.lit(0, pl.Int64)))["cdr_p"].item() < 1e-9
    team_without_p04, team_without_p03, stranger_without_p02 = L._range_without(
        _Seated(spots), rows, [("p01", "p02"), ("p01", "p02"), ("p01", "p03")],
        ["p04", "p03", "p02"])
    # a player away from the team's hands takes nothing from it
    assert team_without_p04 < 1e-100
    # the stranger at every hand the team plays together takes all its spots with him
    assert team_without_p03 == 1.0
    # and without the partner's hands the stranger shows nothing
    assert stranger_without_p02 > 0.5
    # a player who sat but never entered voluntarily leaves every hand in
    assert L._range_without(_Seated(spots, entered=False), rows, [("p01", "p02")],
                            ["p03"]) == [team_p.item()]
    assert L._range_without(_Seated(spots), None, [("p01", "p02")], ["p04"]) == [1.0]


def test_explaining_away_judges_the_range_test_again_without_the_leads_hands(
        team_beside_a_stranger: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]) -> None:
    spots, evidence, rows = team_beside_a_stranger
    keys = ["player_a", "player_b"]
    # the range p of every pair as on all its hands, the stranger's spilled-over one strong
    table = evidence.select(*keys, "cdr_p").with_columns(
        cdr_p=pl.when((pl.col("player_a") == "p01") & (pl.col("player_b") == "p03"))
        .then(1e-12).otherwise("cdr_p"))
    table = pl.concat([table, pl.DataFrame({"player_a": ["p98"], "player_b": ["p99"],
                                            "cdr_p": [0.01]})])
    # (`_cleaned`'s table: a pair the leads' hands changed is in it twice, kept the second time)
    table = pl.concat([table, table.filter(pl.col("player_b") == "p03")], rechunk=False)
    cleaned = L._range_cleaned(table, rows, _Seated(spots), pl.Series(["p01", "p02"]))
    p = dict(zip(cleaned.select(keys).rows(), cleaned["cdr_p"], strict=True))
    before = dict(zip(table.select(keys).rows(), table["cdr_p"], strict=True))
    assert cleaned.filter(pl.col("player_a") == "p01", pl.col("player_b") == "p03")[
        "cdr_p"].min() > 0.5
    assert cleaned.height == table.height
    # the lead's own hands stay in its own pair
    assert p[("p01", "p02")] == before[("p01", "p02")]
    # the stranger beside the lead loses the hands the lead's players entered, and his evidence
    assert p[("p01", "p03")] > 0.5
    # a pair the model did not test keeps its p
    assert p[("p98", "p99")] == 0.01
    # the table cleaned is the scoring's, its columns shared: left as it was
    assert before[("p01", "p03")] == 1e-12
    # no leads, no model rows or no range test: nothing to clean
    assert L._range_cleaned(table, rows, _Seated(spots), pl.Series([], dtype=pl.String)).equals(
        table)
    assert L._range_cleaned(table, None, _Seated(spots), pl.Series(["p01"])).equals(table)
    assert L._range_cleaned(table.drop("cdr_p").with_columns(x=pl.lit(1)), rows, _Seated(spots),
                            pl.Series(["p01"])).columns == keys + ["x"]
