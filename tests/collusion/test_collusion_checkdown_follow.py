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

from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import collusion_leads
from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion import streets as S
from audit.collusion.stats import binom_sf
from audit.collusion.synthetic import generate
from audit.store.dataset import Store
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


Population = tuple[pl.DataFrame, pl.DataFrame, tuple[str, str], str]


@pytest.fixture(scope="module")
def population() -> Population:
    """A check-down team (its projections' play honest: only the follow counts carry it) at a
    fixed table and the honest stranger who sits with it every hand."""
    hands, hp, planted = generate(seed=3, players=60, days=8, teams={"checkdown": 1},
                                  strength=0.0, companions=1)
    (_, a, b), = planted
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    # (the stranger: the one who sat with the team every hand, as the partner did)
    together = (agg.table.filter((pl.col("player_a") == a) | (pl.col("player_b") == a))
                .sort("hands", descending=True).head(2))
    stranger, = {x for pair in together.select("player_a", "player_b").rows() for x in pair} \
        - {a, b}
    assert together["hands"].n_unique() == 1  # as many hands with the stranger as together
    return hands, hp, (a, b), stranger


def _follow_hands(hp: pl.DataFrame, follower: str, partner: str, stranger: str,
                  seed: int = 5) -> S.StreetCounts:
    """The events' counts per hand of a population where every player met a short stack's
    raise in 3% of his hands with each other player in, continuing at his own rate (0.2
    to 0.5, expected at that rate); and `follower` continued 27 times in 30 hands his
    `partner` entered and `stranger` did not, where 9 were expected, with both in: his follow
    spots with the stranger in are his spots with his partner in."""
    rng = np.random.default_rng(seed)
    own = {p: float(rng.uniform(0.2, 0.5)) for p in hp["player"].unique().sort().to_list()}
    seats = hp.select("hand_id", "player", "vpip")
    pairs = (seats.join(seats, on="hand_id", suffix="_b")
             .filter(pl.col("player") < pl.col("player_b"))
             .select("hand_id", player_a="player", player_b="player_b").sort("hand_id",
                                                                             "player_a",
                                                                             "player_b"))
    ra = pairs["player_a"].replace_strict(own, return_dtype=pl.Float64).to_numpy()
    rb = pairs["player_b"].replace_strict(own, return_dtype=pl.Float64).to_numpy()
    na, nb = rng.random(pairs.height) < 0.03, rng.random(pairs.height) < 0.03
    follow = {"cdf_na": na, "cdf_ka": na & (rng.random(pairs.height) < ra), "cdf_ea": na * ra,
              "cdf_nb": nb, "cdf_kb": nb & (rng.random(pairs.height) < rb), "cdf_eb": nb * rb}
    hands = pairs.with_columns(**{c: pl.Series(v) for c, v in follow.items()})
    entered = seats.filter(pl.col("player") == partner, pl.col("vpip")).select("hand_id")
    out = seats.filter(pl.col("player") == stranger, pl.col("vpip")).select("hand_id")
    ids = (entered.join(out, on="hand_id", how="anti")["hand_id"].sort().head(30)
           .to_list())
    assert len(ids) == 30
    spots = pl.DataFrame({"hand_id": ids, "_k": [i >= 3 for i in range(30)]})
    for other in (partner, stranger):
        x, y = sorted((follower, other))
        side = "a" if x == follower else "b"
        mine = (pl.col("hand_id").is_in(ids) & (pl.col("player_a") == x)
                & (pl.col("player_b") == y))
        hands = hands.join(spots, on="hand_id", how="left").with_columns(
            pl.when(mine).then(True).otherwise(pl.col(f"cdf_n{side}")).alias(f"cdf_n{side}"),
            pl.when(mine).then(pl.col("_k")).otherwise(pl.col(f"cdf_k{side}"))
            .alias(f"cdf_k{side}"),
            pl.when(mine).then(0.3).otherwise(pl.col(f"cdf_e{side}")).alias(f"cdf_e{side}"),
        ).drop("_k")
    hands = hands.with_columns(pl.col("cdf_na", "cdf_ka", "cdf_nb", "cdf_kb").cast(pl.UInt32),
                               *(pl.lit(0, pl.UInt32).alias(c) for c in S.PAIR_COLUMNS))
    hands = hands.select("hand_id", "player_a", "player_b", *S.PAIR_COLUMNS, *FOLLOW)
    summed = hands.group_by("player_a", "player_b").agg(pl.col(*S.PAIR_COLUMNS, *FOLLOW).sum())
    return S.StreetCounts(pairs=summed, players=S.empty().players, hands=hands)


def _pairs(frame: pl.DataFrame) -> list[tuple[str, str]]:
    return sorted(frame.select("player_a", "player_b").rows())


def _pair(x: str, y: str) -> tuple[str, str]:
    a, b = sorted((x, y))
    return a, b


def test_an_honest_tablemate_whose_follow_spots_were_the_partners_is_explained_away(
        population: Population) -> None:
    # the follower's 27 continues in 30 spots had his partner and the stranger in: the first
    # pass reads both pairs as following short stacks together. Without the hands the partner
    # entered the stranger's pair has no such spot left (explained away by the team), without
    # those the stranger entered the team's are all still there (it stands)
    hands, hp, (a, b), stranger = population
    streets = _follow_hands(hp, a, b, stranger)
    team, mate = _pair(a, b), _pair(a, stranger)
    first, _ = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=100, streets=streets)
    leads = first.filter(pl.col("q_value") <= 0.05)
    assert dict(leads.select(pl.concat_list("player_a", "player_b").list.join("-"), "top")
                .rows()) == {"-".join(team): "checkdown_follow",
                             "-".join(mate): "checkdown_follow"}
    # (before: judged again on the hands the team did not enter with its follow counts over
    # all its hands, the stranger's pair kept its lead after the overlap had explained it)
    scored, _ = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=100, fdr=0.05,
                              streets=streets)
    assert _pairs(scored.filter(pl.col("q_value") <= 0.05)) == [team]
    # the lead: the team alone (not a team of three with the stranger)
    got = L.leads_from_frames(hp, hands, min_hands=100, streets=streets).to_pylist()
    assert [(r["player_a"], r["player_b"], r["pattern"], r["team"]) for r in got] == [
        (*team, "PATTERN-CHECKDOWN-ALLIN", list(team))]
    lead = got[0]
    assert "following a short stack into the pot beside the partner" in lead["message"]
    assert f"{a} called or raised" in lead["message"]
    assert f"with {b} still in" in lead["message"]
    # its evidence: hands in which one of the two followed a short stack's raise with the
    # other in (then three of each other test below p 0.01: seating, a fixed table's)
    assert streets.hands is not None
    followed = streets.hands.filter(
        (pl.col("player_a") == team[0]) & (pl.col("player_b") == team[1])
        & ((pl.col("cdf_ka") > 0) | (pl.col("cdf_kb") > 0)))["hand_id"].to_list()
    assert len(followed) >= L.EVIDENCE
    assert set(lead["evidence_hand_ids"][:L.EVIDENCE]) <= set(followed)


def test_aggregates_that_carry_the_counts_are_explained_away_on_the_counts_per_hand(
        population: Population) -> None:
    # a run's leads (findings.collusion_leads) join the counts to the aggregates they keep and
    # hand the counts over for their counts per hand: joined once, and the re-checks read them
    # (before: not handed over, the re-check of every lead read from the events was undecided
    # on a store, and no such lead was explained away)
    hands, hp, (a, b), stranger = population
    streets = _follow_hands(hp, a, b, stranger)
    agg = L.with_streets(A.aggregate(A.chunks(hp.lazy(), hands.lazy())), streets)
    scored, _ = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=100, fdr=0.05, agg=agg,
                              streets=streets)
    assert _pairs(scored.filter(pl.col("q_value") <= 0.05)) == [_pair(a, b)]


@pytest.mark.slow  # a simulated store of 3,000 hands, audited (`audited_team_store`)
def test_a_runs_leads_hand_the_counts_per_hand_to_the_overlap_recheck(
        audited_team_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store = audited_team_store
    seen: list[S.HandCounts | pl.DataFrame | None] = []
    explain = L.explain_away

    def spy(*args: Any, street_hands: S.HandCounts | pl.DataFrame | None = None,
            **kw: Any) -> pl.DataFrame:
        seen.append(street_hands)
        return explain(*args, street_hands=street_hands, **kw)

    monkeypatch.setattr(L, "explain_away", spy)
    collusion_leads(store)
    assert len(seen) == 1 and seen[0] is not None
    assert seen[0].height > 0  # (streets behind all-ins counted per hand)


def _streets_behind_all_ins(hp: pl.DataFrame, player: str, partner: str, stranger: str,
                            seed: int = 5) -> tuple[S.StreetCounts, list[str]]:
    """The events' counts per hand of a population where every pair had chips behind a third
    player's all-in on one street of 3% of its hands, each betting there at his own rate (0.3
    to 0.5); and in 30 hands `partner` entered and `stranger` did not (their ids, the second
    element), all three had chips behind an all-in on two streets, on which `player` and
    `partner` never bet (a check-down) and `stranger` bet at his own rate: `player`'s streets
    with the stranger are his streets beside his partner."""
    rng = np.random.default_rng(seed)
    own = {p: float(rng.uniform(0.3, 0.5)) for p in hp["player"].unique().sort().to_list()}
    seats = hp.select("hand_id", "player", "vpip")
    pairs = (seats.join(seats, on="hand_id", suffix="_b")
             .filter(pl.col("player") < pl.col("player_b"))
             .select("hand_id", player_a="player", player_b="player_b")
             .sort("hand_id", "player_a", "player_b"))
    ra = pairs["player_a"].replace_strict(own, return_dtype=pl.Float64).to_numpy()
    rb = pairs["player_b"].replace_strict(own, return_dtype=pl.Float64).to_numpy()
    n = rng.random(pairs.height) < 0.03
    hands = pairs.with_columns(cdx_n=pl.Series(n), cdx_ka=pl.Series(n & (rng.random(n.size) < ra)),
                               cdx_kb=pl.Series(n & (rng.random(n.size) < rb)))
    entered = seats.filter(pl.col("player") == partner, pl.col("vpip")).select("hand_id")
    out = seats.filter(pl.col("player") == stranger, pl.col("vpip")).select("hand_id")
    ids = (entered.join(out, on="hand_id", how="anti")["hand_id"].sort().head(30)
           .to_list())
    assert len(ids) == 30
    bets = {x: int(b) for x, b in zip(ids, rng.binomial(2, own[stranger], 30), strict=True)}
    theirs = pl.col("hand_id").replace_strict(bets, default=0, return_dtype=pl.Int64)
    for x, y in (sorted((player, partner)), sorted((player, stranger))):
        mine = (pl.col("hand_id").is_in(ids) & (pl.col("player_a") == x)
                & (pl.col("player_b") == y))
        hands = hands.with_columns(
            pl.when(mine).then(2).otherwise(pl.col("cdx_n")).alias("cdx_n"),
            *(pl.when(mine).then(theirs if side == stranger else 0)
              .otherwise(pl.col(f"cdx_k{ab}")).alias(f"cdx_k{ab}")
              for side, ab in ((x, "a"), (y, "b"))))
    hands = hands.with_columns(
        pl.col("cdx_n", "cdx_ka", "cdx_kb").cast(pl.UInt32),
        *(pl.lit(0, pl.UInt32).alias(c) for c in S.PAIR_COLUMNS if not c.startswith("cdx")),
        *(pl.lit(0, pl.UInt32).alias(c) for c in S.FOLLOW_COUNTS),
        *(pl.lit(0.0).alias(c) for c in S.FOLLOW_EXPECTED))
    hands = hands.select("hand_id", "player_a", "player_b", *S.PAIR_COLUMNS, *FOLLOW)
    summed = hands.group_by("player_a", "player_b").agg(pl.col(*S.PAIR_COLUMNS, *FOLLOW).sum())
    return S.StreetCounts(pairs=summed, players=S.empty().players, hands=hands), ids


def test_the_street_counts_of_the_hands_a_lead_entered_are_set_aside_as_its_other_counts(
        population: Population) -> None:
    # explaining away judges the other pairs on the hands no lead player entered: the street
    # counts of the events (checkdown_bets, softplay_streets, whipsaw streets) are set aside
    # with the projections' counts and the follow counts of those hands (before: only the
    # follow counts were, and the check-down's streets a stranger shared with the team,
    # without a bet from the team's player, stayed in the stranger's pair)
    hands, hp, (a, b), stranger = population
    streets, ids = _streets_behind_all_ins(hp, a, b, stranger)
    assert streets.hands is not None
    rows = A.HandRows(hp.lazy(), hands.lazy())
    team, mate = _pair(a, b), _pair(a, stranger)
    skip = pl.DataFrame([team], schema=["player_a", "player_b"], orient="row")
    lost = L._spoiled(rows, pl.Series([a, b]), skip, S.hand_counts(streets.hands))
    for pair in (mate, _pair(b, stranger)):
        mine = streets.hands.filter(pl.col("player_a") == pair[0], pl.col("player_b") == pair[1])
        other = ({a, b} - set(pair)).pop()
        entered = hp.filter(pl.col("player") == other, pl.col("vpip"))["hand_id"]
        want = mine.filter(pl.col("hand_id").is_in(entered.implode())).select(
            pl.col(*S.PAIR_COLUMNS).sum()).row(0)
        got = lost.filter(pl.col("player_a") == pair[0], pl.col("player_b") == pair[1]).select(
            S.PAIR_COLUMNS).row(0)
        assert got == want
    # the check-down's 60 streets the stranger shared with the team: in hands the partner entered
    assert lost.filter(pl.col("player_a") == mate[0], pl.col("player_b") == mate[1]
                       )["cdx_n"].item() >= 60
    rows.close()
