"""The whipsaw test (PATTERN-WHIPSAW, issue 25): two partners raising around a third player, judged
against how often each of them whipsaws with the other players he met.

A table of twelve who always sit together: six loose-aggressive players who raise in many multiway
hands but seldom both in the same one, six tight ones. Two of the loose-aggressive players are a
team that raises around a third player in 40 more hands than two such honest players do. The
former baseline multiplied the pair's own raising rates in its multiway hands (the team's extra
raising included) by the population's share of double raises that catch a third player: it
expected more whipsaws of two loose-aggressive players than the team played, and read the team
as honest (p 0.3). Measured against the table, the team stands out and no honest pair does."""

from __future__ import annotations

from itertools import combinations

import polars as pl

from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion.stats import binom_sf
from tests.collusion.frames import HANDS, HP

_HP, _HANDS = HP, HANDS

N = 3000  # multiway hands each pair played together
LOOSE, TIGHT = 0.40, 0.10  # share of multiway hands a player bets or raises in
TOGETHER = 0.5  # two loose-aggressive players raise in the same hand half as often as by chance
WHIPSAW = {LOOSE: 0.12, TIGHT: 0.04}  # honest whipsaws of A and B: N · w(A) · w(B)
TEAM = ("p00", "p01")
EXTRA = 40  # the team's whipsaws beyond two honest loose-aggressive players'


def _table() -> pl.DataFrame:
    schema = F.pair_table(F.pair_hands(F.player_hands(
        pl.LazyFrame(schema=_HP), pl.LazyFrame(schema=_HANDS)))).collect_schema()
    players = [f"p{i:02d}" for i in range(12)]
    raise_rate = {p: LOOSE if i < 6 else TIGHT for i, p in enumerate(players)}
    rows = []
    for a, b in combinations(players, 2):
        ua, ub = raise_rate[a], raise_rate[b]
        both = N * ua * ub * (TOGETHER if ua == ub == LOOSE else 1.0)
        extra = EXTRA if (a, b) == TEAM else 0
        row = {c: 0 for c in schema.names()}
        row |= {"player_a": a, "player_b": b, "hands": N, "ws_n": N,
                "ws_ga": round(N * ua) + extra, "ws_gb": round(N * ub) + extra,
                "ws_both": round(both) + extra,
                "ws_k": round(N * WHIPSAW[ua] * WHIPSAW[ub]) + extra}
        rows.append(row)
    return pl.DataFrame(rows, schema=schema).with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))


def _whipsaw_p() -> dict[tuple[str, str], float]:
    table = _table()
    rates = pl.DataFrame({"player": sorted(set(table["player_a"]) | set(table["player_b"]))}
                         ).with_columns(*[pl.lit(0, dtype=pl.UInt32).alias(c)
                                          for c in F.RATE_COLUMNS])
    scored = L.score_pairs(table, L.totals_of(table), rates)
    return dict(zip(scored.select("player_a", "player_b").rows(),
                    scored["whipsaw_p"].to_list(), strict=True))


def test_a_whipsawing_team_of_loose_aggressive_players_stands_out_against_its_table() -> None:
    p = _whipsaw_p()
    assert p[TEAM] < 1e-5
    honest = [v for pair, v in p.items() if pair != TEAM]
    assert min(honest) > 0.01  # no honest pair of the table stands out, loose or tight


def test_the_whipsaw_factors_reproduce_the_honest_pairs_of_the_table() -> None:
    table = _table()
    fit = L.fitted_factors(table)
    t = dict(zip(fit["player"], fit["ws_t"], strict=True))
    assert set(t) == {f"p{i:02d}" for i in range(12)}
    # two loose-aggressive players' double raises catch a third player less often than two
    # tight players' (who raise together only with strong hands, into callers)
    assert max(t[f"p{i:02d}"] for i in range(2, 6)) < min(t[f"p{i:02d}"] for i in range(6, 12))
    team = (pl.col("player_a") == TEAM[0]) & (pl.col("player_b") == TEAM[1])
    for row in table.filter(~team).iter_rows(named=True):
        expected = row["ws_ga"] * row["ws_gb"] / row["ws_n"] * t[row["player_a"]] * t[
            row["player_b"]]
        assert abs(expected - row["ws_k"]) <= 0.15 * row["ws_k"] + 1


# Raises around the third player (leads.WHIPSAW_RAISES). Of the multiway hands both of a pair
# bet or raised in, honest pairs bet or raise both after the preflop round in a share set by
# each one's style (a raise and a re-raise before the flop, after which one bets and the other
# calls or folds, is the common double raise); a whipsaw team does it in most of them, its
# bets and raises around the third player. Its whipsaws that catch a caller (`ws_k`) can be
# no more than two honest players' when the third player folds to its raises, and a team whose
# table emptied has few multiway hands to show them in.
POST = {LOOSE: 0.6, TIGHT: 0.3}  # honest pairs: ws_post = ws_both · POST(A) · POST(B)
TEAM_POST = 0.75  # the team's share of its double raises with both raising after the flop


def _raise_table(team_hands: int) -> pl.DataFrame:
    """`_table` without the team's extra whipsaws (its `ws_k` two honest loose-aggressive
    players'), the hands both raised after the preflop round added; the team played
    `team_hands` multiway hands together (their table emptied: heads-up from then on)."""
    rows = []
    for row in _table().iter_rows(named=True):
        a, b = row["player_a"], row["player_b"]
        ua, ub = (LOOSE if int(p[1:]) < 6 else TIGHT for p in (a, b))
        n = team_hands if (a, b) == TEAM else N
        both = round(n * ua * ub * (TOGETHER if ua == ub == LOOSE else 1.0))
        row |= {"hands": N, "ws_n": n, "ws_ga": round(n * ua), "ws_gb": round(n * ub),
                "ws_both": both, "ws_k": round(n * WHIPSAW[ua] * WHIPSAW[ub]),
                "ws_post": round(both * (TEAM_POST if (a, b) == TEAM else POST[ua] * POST[ub]))}
        rows.append(row)
    return pl.DataFrame(rows, schema=_table().schema)


def _scored(table: pl.DataFrame) -> pl.DataFrame:
    rates = pl.DataFrame({"player": sorted(set(table["player_a"]) | set(table["player_b"]))}
                         ).with_columns(*[pl.lit(0, dtype=pl.UInt32).alias(c)
                                          for c in F.RATE_COLUMNS])
    return L.score_pairs(table, L.totals_of(table), rates)


def test_a_team_raising_around_third_players_in_few_multiway_hands_is_a_lead() -> None:
    # 600 multiway hands together, 48 double raises, 36 of them both raising after the flop
    # where two honest loose-aggressive players raise both after the flop in 36% of them (17)
    scored = _scored(_raise_table(600))
    p = dict(zip(scored.select("player_a", "player_b").rows(), scored["whipsaw_p"].to_list(),
                 strict=True))
    assert p[TEAM] < 1e-5
    # read as raises around a third player, and told so
    team = scored.filter((pl.col("player_a") == TEAM[0]) & (pl.col("player_b") == TEAM[1]))
    assert team["whipsaw_raises"].to_list() == [1.0]
    assert team["whipsaw_k"].to_list() == [36.0] and team["whipsaw_n"].to_list() == [48.0]
    assert "after the preflop round in 36 of the 48" in L._describe("whipsaw", team.row(
        0, named=True))


def test_two_aggressive_honest_players_at_a_loose_table_are_no_lead() -> None:
    # honest loose-aggressive pairs raise both after the flop in 36% of their double raises,
    # the table's pairs in 22% on average: each pair is judged against its players' own share
    # with the others they met, not the table's
    table = _raise_table(N).filter((pl.col("player_a") != TEAM[0])
                                   | (pl.col("player_b") != TEAM[1]))
    assert _scored(table)["whipsaw_p"].min() > 0.01
    # (against the table's share they would be far off)
    loose = table.filter((pl.col("player_a") < "p06") & (pl.col("player_b") < "p06"))
    share = table["ws_post"].sum() / table["ws_both"].sum()
    p = binom_sf(loose["ws_post"].to_numpy() - 1.0, loose["ws_both"].to_numpy() * 1.0, share)
    assert loose.height == 14 and max(p) < 1e-3
