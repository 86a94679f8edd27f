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
