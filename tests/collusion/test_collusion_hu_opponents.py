"""Heads-up aggression depends on whom a player faces (PATTERN-SOFTPLAY, issue 25).

A passive player checks to his opponent, who bets; an aggressive one bets first and leaves
his opponent a call or a raise. So a loose-aggressive regular bets far more often in his
heads-up pots against a passive player than against another regular. On the rulebook
population of issue 25 the regulars who never left a passive team's table were measured
against "everyone else" (mostly that team) and read as soft-playing each other, and each of
them with a team member as betting into each other. Soft play is judged against what each
player's aggression and the other's as an opponent predict (an actor × opponent model over all
pairs); a team that checks its pots down against each other is still far below it.

A pair far off that model's first fit leaves it, and the model is fitted again without it
(leads.HEADS_UP, fits.fit): a soft-playing team that still folds to each other's bets as
anyone does is no partner pair (leads.partners_of), and in the fit its own pots against each
other pulled both players' factors down, so that their pots with everyone else read as
betting into each other.

The rate is only as well known as the factors it is made of: two players who play almost only
each other have none of their own, and are judged over that uncertainty
(leads._tail_over_baseline), not as if the population's rate were theirs.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion.leads import partners_of, score_pairs, totals_of
from tests.collusion.frames import table_leads

TEAM = ("t00s0", "t00s1")
REGULARS = ("t00s2", "t00s3", "t00s4", "t00s5", "t00s6", "t00s7", "t00s8")
POTS = 400  # heads-up pots of each pair of a table against each other
FACED = 200  # bets each player of a pair faced from the other


def _table(columns: list[str], team_rate: float | None, *, partners: bool = True,
           team_pots: int = POTS, passive: bool = True) -> pl.DataFrame:
    """20 tables of 9 players who never move. In a heads-up pot against opponent y, player x
    bets or raises at his own rate (0.3 to 0.6) times y's effect as an opponent: 1 but at
    table 0 (`passive`), where two passive players (who draw bets: 1.4) sit beside seven
    aggressive regulars (who draw few: 0.7). The two of TEAM bet at `team_rate` against each
    other (None: as against anyone) in `team_pots` pots; with `partners` they fold to each
    other's bets 10% of the time where everyone folds 60% (partners, left out of everyone
    else's baselines, `partners_of`), else 60% as everyone."""
    rng = np.random.default_rng(11)
    team = np.random.default_rng(12)  # the team's own draws: everyone else's stay the same
    players = [f"t{t:02d}s{i}" for t in range(20) for i in range(9)]
    own = {p: float(rng.uniform(0.3, 0.6)) for p in players}
    opp = dict.fromkeys(players, 1.0)
    if passive:
        opp |= dict.fromkeys(TEAM, 1.4) | dict.fromkeys(REGULARS, 0.7)
        own |= dict.fromkeys(TEAM, 0.3) | dict.fromkeys(REGULARS, 0.6)
    rows = []
    for t in range(20):
        for i in range(9):
            for j in range(i + 1, 9):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                ra, rb = own[a] * opp[b], own[b] * opp[a]
                pots, fold, draw = POTS, 0.6, rng
                if (a, b) == TEAM and team_rate is not None:
                    ra = rb = team_rate
                    pots, fold, draw = team_pots, 0.1 if partners else 0.6, team
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                            | {"hands": 6000, "hu_n": pots,
                               "soft_ka": int(draw.binomial(pots, ra)),
                               "soft_kb": int(draw.binomial(pots, rb)),
                               "fa_n": FACED, "fa_k": int(draw.binomial(FACED, fold)),
                               "fb_n": FACED, "fb_k": int(draw.binomial(FACED, fold))})
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"])


def test_regulars_beside_passive_players_bet_into_each_other_as_regulars_do(
        columns: list[str]) -> None:
    # each regular bets in 84% of his pots against the two passive players and 42% against
    # the other regulars: against his rate over everyone else, every pair of regulars read as
    # soft play, and every regular with a passive player as betting into each other
    assert table_leads(_table(columns, None)) == []


def test_a_pair_that_checks_down_against_each_other_is_still_soft_play(
        columns: list[str]) -> None:
    leads = table_leads(_table(columns, 0.05))
    assert (*TEAM, "softplay") in leads
    assert [x for x in leads if x[:2] != TEAM] == []


def test_a_soft_pair_that_folds_to_each_other_as_anyone_is_soft_play_and_bends_no_one(
        columns: list[str]) -> None:
    # two players of ordinary style (0.3 to 0.6) who bet in 5% of their 3,000 heads-up pots
    # against each other and fold to each other's bets as often as anyone: no partners
    table = _table(columns, 0.05, partners=False, team_pots=3000, passive=False)
    totals = totals_of(table)
    assert partners_of(table, totals) is None
    leads = table_leads(table)
    assert (*TEAM, "softplay") in leads
    # judged against the fit it is not in: nothing of its own taken out of its factors
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    row = score_pairs(table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0)), totals,
                      rates).filter((pl.col("player_a") == TEAM[0])
                                    & (pl.col("player_b") == TEAM[1])).row(0, named=True)
    f, g = ({p: totals.filter(pl.col("player") == p)[c].item() for p in TEAM}
            for c in ("sp_f", "sp_g"))
    assert row["softplay_e"] == pytest.approx(
        3000 * (f[TEAM[0]] * g[TEAM[1]] + f[TEAM[1]] * g[TEAM[0]]), rel=1e-3)
    # in one fit their 3,000 pots set each one's factor: about half his rate against the
    # others, whose pots with him then read as betting into each other (hu_aggression)
    assert [x for x in leads if x[:2] != TEAM] == []
    # fitted without the pair far off the first fit: each one's factors are those of the
    # table without the pair's pots, the pair's own bets in nobody's baseline
    without = totals_of(table.filter(~(pl.col("player_a").is_in(TEAM)
                                       & pl.col("player_b").is_in(TEAM))))
    for p in TEAM:
        for factor in ("sp_f", "sp_g"):
            got, want = (t.filter(pl.col("player") == p)[factor].item()
                         for t in (totals, without))
            assert got == pytest.approx(want, rel=1e-9)


def test_two_players_who_play_only_each_other_heads_up_are_no_lead(columns: list[str]) -> None:
    # a heads-up match: two players who bet in 65% of their 300 pots against each other (the
    # table's players 30% to 60%) and have played 4 heads-up pots with anyone else. Neither
    # has a rate of his own; at the population's as if it were known, they read as betting
    # into each other (the real hands of ../shared/data: a hero and his heads-up opponent)
    rng = np.random.default_rng(5)
    table = _table(columns, None, passive=False)
    extra = [("hu0", "hu1", 300)] + [(p, "t01s0", 2) for p in ("hu0", "hu1")]
    rows = pl.DataFrame([{"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                         | {"hands": 300, "hu_n": pots,
                            "soft_ka": int(rng.binomial(pots, 0.65)),
                            "soft_kb": int(rng.binomial(pots, 0.65)),
                            "fa_n": FACED, "fa_k": int(rng.binomial(FACED, 0.6)),
                            "fb_n": FACED, "fb_k": int(rng.binomial(FACED, 0.6))}
                         for a, b, pots in extra]).select(table.columns).cast(table.schema)
    assert table_leads(pl.concat([table, rows])) == []
