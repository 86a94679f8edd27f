"""Heads-up aggression depends on whom a player faces (PATTERN-SOFTPLAY, issue 25).

A passive player checks to his opponent, who bets; an aggressive one bets first and leaves
his opponent a call or a raise. So a loose-aggressive regular bets far more often in his
heads-up pots against a passive player than against another regular. On the rulebook
population of issue 25 the regulars who never left a passive team's table were measured
against "everyone else" (mostly that team) and read as soft-playing each other, and each of
them with a team member as betting into each other. Soft play is judged against what each
player's aggression and the other's as an opponent predict (an actor × opponent model over all
pairs); a team that checks its pots down against each other is still far below it.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.collusion import features as F
from audit.collusion.leads import combine, partners_of, score_pairs, totals_of

TEAM = ("t00s0", "t00s1")
REGULARS = ("t00s2", "t00s3", "t00s4", "t00s5", "t00s6", "t00s7", "t00s8")
POTS = 400  # heads-up pots of each pair of a table against each other
FACED = 200  # bets each player of a pair faced from the other


def _table(columns: list[str], team_rate: float | None) -> pl.DataFrame:
    """20 tables of 9 players who never move. In a heads-up pot against opponent y, player x
    bets or raises at his own rate (0.3 to 0.6) times y's effect as an opponent: 1 but at
    table 0, where two passive players (who draw bets: 1.4) sit beside seven aggressive
    regulars (who draw few: 0.7); the two passive ones at `team_rate` against each other (None: as
    against anyone, and folding to each other's bets 10% of the time where everyone folds 60%:
    partners, left out of everyone else's baselines, `partners_of`)."""
    rng = np.random.default_rng(11)
    players = [f"t{t:02d}s{i}" for t in range(20) for i in range(9)]
    own = {p: float(rng.uniform(0.3, 0.6)) for p in players}
    opp = dict.fromkeys(players, 1.0)
    opp |= dict.fromkeys(TEAM, 1.4) | dict.fromkeys(REGULARS, 0.7)
    own |= dict.fromkeys(TEAM, 0.3) | dict.fromkeys(REGULARS, 0.6)
    rows = []
    for t in range(20):
        for i in range(9):
            for j in range(i + 1, 9):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                ra, rb = own[a] * opp[b], own[b] * opp[a]
                if (a, b) == TEAM and team_rate is not None:
                    ra = rb = team_rate
                fold = 0.1 if (a, b) == TEAM and team_rate is not None else 0.6
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                            | {"hands": 6000, "hu_n": POTS,
                               "soft_ka": int(rng.binomial(POTS, ra)),
                               "soft_kb": int(rng.binomial(POTS, rb)),
                               "fa_n": FACED, "fa_k": int(rng.binomial(FACED, fold)),
                               "fb_n": FACED, "fb_k": int(rng.binomial(FACED, fold))})
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"])


def _leads(table: pl.DataFrame) -> list[tuple[str, str, str]]:
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = totals_of(table)
    scored = combine(score_pairs(tested, totals, rates, partners=partners_of(table, totals)))
    return scored.filter(pl.col("q_value") <= 0.05).select(
        "player_a", "player_b", "top").rows()


def test_regulars_beside_passive_players_bet_into_each_other_as_regulars_do(
        columns: list[str]) -> None:
    # each regular bets in 84% of his pots against the two passive players and 42% against
    # the other regulars: against his rate over everyone else, every pair of regulars read as
    # soft play, and every regular with a passive player as betting into each other
    assert _leads(_table(columns, None)) == []


def test_a_pair_that_checks_down_against_each_other_is_still_soft_play(
        columns: list[str]) -> None:
    leads = _leads(_table(columns, 0.05))
    assert (*TEAM, "softplay") in leads
    assert [x for x in leads if x[:2] != TEAM] == []
