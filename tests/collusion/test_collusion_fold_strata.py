"""Folding to a partner is judged against what honest play explains (issue 25, false leads).

A chip-dump receiver enters every cheap pot with junk when his team colludes, so he folds more
to everyone's bets; and his dumper's bets he raises, never folds to. An aggressive stranger at
their table raises preflop a lot, so most of the bets the receiver faces from him come before
the receiver has entered (a fold there is a fold of a hand he never played), where most bets
from the others come after he entered. Judged with one fold rate against everyone (his partner
included), the receiver's folds to the stranger read as folding to a partner (p 1e-17 on the
rulebook population). Judged entry stratum by entry stratum (features.ENTRY: not entered,
entered calling, raised preflop), and without the bettor he almost never folds to, they are
his own. A team whose member folds to his partner beyond that, in every stratum, stays a lead.
(A partner, for the baselines, is a bettor a player almost never folds to: leads.partners_of.)

Likewise for entering together (co-entry): a dumper who follows his receiver into the pot
does not set the receiver's usual co-entry.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion.leads import combine, partners_of, score_pairs, totals_of

TABLES, SEATS = 30, 6
RECEIVER, DUMPER, STRANGER = "t00s0", "t00s1", "t00s2"  # the stranger raises preflop a lot
AGGRESSIVE = {"t00s2", "t00s3"}  # the aggressive raisers at the receiver's table
FACED = 400  # bets each player faces from each other player at his table
HONEST = (0.99, 0.60, 0.50)  # fold rates by entry stratum: not entered, calling, raising
JUNK = (0.99, 0.72, 0.58)  # the receiver's: he entered with junk
TO_PARTNER = (0.99, 0.10, 0.10)  # the receiver to his dumper: he raises the dumper's bets


def _composition(bettor: str) -> tuple[float, float, float]:
    """How the bets of `bettor` find their folders: an aggressive preflop raiser's mostly
    before they entered."""
    return (0.60, 0.28, 0.12) if bettor in AGGRESSIVE else (0.25, 0.55, 0.20)


Rates = Callable[[str, str], tuple[float, float, float]]


def _folds(rng: np.random.Generator, folder: str, bettor: str, rates: Rates, bets: int = FACED
           ) -> tuple[list[int], list[int]]:
    faced = rng.multinomial(bets, _composition(bettor))
    return [int(n) for n in faced], [int(rng.binomial(n, r))
                                     for n, r in zip(faced, rates(folder, bettor), strict=True)]


def _table(columns: list[str], rates: Rates, co_entry: Callable[[str, str], float] | None = None,
           faced: Callable[[str], int] = lambda table: FACED) -> pl.DataFrame:
    """TABLES tables of SEATS players who never move, every pair together 6,000 hands; the
    folds to each other's bets per entry stratum from `rates(folder, bettor)` (`faced(table)`
    bets each faces from each other at the table); entries at 40% each, together at odds
    `co_entry(a, b)` times independent entry."""
    rng = np.random.default_rng(11)
    rows = []
    for t in range(TABLES):
        for i in range(SEATS):
            for j in range(i + 1, SEATS):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                row = dict.fromkeys(columns, 0.0) | {"hands": 6000}
                for x, folder, bettor in (("a", a, b), ("b", b, a)):
                    n, k = _folds(rng, folder, bettor, rates, faced(f"t{t:02d}"))
                    row |= {f"f{x}_n": sum(n), f"f{x}_k": sum(k)}
                    row |= {f"f{x}{s}_{y}": v[s] for s in (1, 2) for y, v in (("n", n),
                                                                               ("k", k))}
                if co_entry is not None:
                    row |= _entries(rng, co_entry(a, b))
                rows.append({"player_a": a, "player_b": b} | row)
    frame = pl.DataFrame(rows)
    floats = ("flow", "flow_sq", "flow_w", "flow_dw", "flow_w2", "flow_chips")
    return frame.with_columns(pl.col("hands").cast(pl.UInt32),
                              *[pl.col(c).cast(pl.Int64) for c in columns
                                if c != "hands" and c not in floats])


def _entries(rng: np.random.Generator, odds: float) -> dict[str, float]:
    hands = 6000
    va, vb = rng.binomial(hands, 0.4, 2)
    a, b, c = odds - 1, -(odds * (va + vb) + hands - va - vb), odds * va * vb
    both = c / -b if abs(a) < 1e-9 else (-b - np.sqrt(b * b - 4 * a * c)) / (2 * a)
    return {"va": va, "vb": vb, "vboth": int(round(both + rng.normal(0, np.sqrt(both) / 2)))}


def _scored(table: pl.DataFrame) -> pl.DataFrame:
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = totals_of(table)
    return combine(score_pairs(tested, totals, rates, partners=partners_of(table, totals)))


def _receiver(folder: str, bettor: str) -> tuple[float, float, float]:
    if folder == RECEIVER:
        return TO_PARTNER if bettor == DUMPER else JUNK
    return HONEST


def _pair(scored: pl.DataFrame, a: str, b: str) -> dict:
    return scored.filter((pl.col("player_a") == a) & (pl.col("player_b") == b)).row(0, named=True)


def test_a_junk_players_folds_to_an_aggressive_stranger_are_not_folding_to_a_partner(
        columns: list[str]) -> None:
    scored = _scored(_table(columns, _receiver))
    pair = _pair(scored, RECEIVER, STRANGER)
    # his folds to the stranger are what his own folds, stratum by stratum, predict
    assert 0.95 < pair["fold_to_partner_k"] / pair["fold_to_partner_e"] < 1.05
    assert pair["fold_to_partner_p"] > 0.01
    assert scored.filter(pl.col("q_value") <= 0.05).height == 0


def test_a_real_fold_to_partner_team_stays_a_lead(columns: list[str]) -> None:
    # at the receiver's table, one honest player folds to his partner's bets beyond his own
    # rate in every stratum (he gives way to him): found, beside the junk player's table
    team = ("t05s1", "t05s4")

    def rates(folder: str, bettor: str) -> tuple[float, float, float]:
        if (folder, bettor) == team:
            return (0.999, 0.75, 0.65)
        return _receiver(folder, bettor)

    leads = _scored(_table(columns, rates)).filter(pl.col("q_value") <= 0.05)
    assert leads.select("player_a", "player_b", "top").rows() == [(*team, "fold_to_partner")]


def test_the_bettor_a_player_almost_never_folds_to_is_his_partner_for_the_baselines(
        columns: list[str]) -> None:
    table = _table(columns, _receiver)
    partners = partners_of(table, totals_of(table))
    assert partners is not None
    # the receiver and his dumper, and nobody else
    assert partners.pairs.rows() == [(RECEIVER, DUMPER)]
    # the players' totals without them: the receiver's folds are those to the others
    totals = {r["player"]: r for r in partners.totals.to_dicts()}
    others = table.filter(((pl.col("player_a") == RECEIVER) | (pl.col("player_b") == RECEIVER))
                          & (pl.col("player_b") != DUMPER))
    folds = sum(r["fa_k"] if r["player_a"] == RECEIVER else r["fb_k"] for r in others.to_dicts())
    assert totals[RECEIVER]["f_k"] == folds


def test_regulars_a_little_off_their_own_rates_over_a_long_history_are_no_partners(
        columns: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # one table of regulars sits together for months: 16,000 bets faced from each other. One
    # of them folds to one regular 4% less often than to the others (his model's misfit, no
    # team: a chip-dump receiver folds to his dumper a fifth to two fifths less), some 6
    # standard deviations below his rates at that length. The receiver, 400 bets, stays his
    # dumper's partner.
    misfit = ("t07s2", "t07s3")

    def rates(folder: str, bettor: str) -> tuple[float, float, float]:
        r = _receiver(folder, bettor)
        if (folder, bettor) == misfit:
            return (r[0] * 0.96, r[1] * 0.96, r[2] * 0.96)
        return r

    table = _table(columns, rates, faced=lambda t: 16_000 if t == "t07" else FACED)
    partners = partners_of(table, totals_of(table))
    assert partners is not None and partners.pairs.rows() == [(RECEIVER, DUMPER)]
    # significance alone made the misfit a partner (PARTNER_P only, as before)
    monkeypatch.setattr(L, "PARTNER_FOLD_SHARE", 1.0)
    alone = partners_of(table, totals_of(table))
    assert alone is not None and misfit in alone.pairs.rows()


def test_a_dumper_following_his_receiver_in_does_not_set_the_receivers_usual_co_entry(
        columns: list[str]) -> None:
    # the dumper follows the receiver into the pot (odds 5 of entering together); the two
    # aggressive raisers cut everyone's entries (odds 0.8 with anyone, 0.64 with each other)
    def odds(a: str, b: str) -> float:
        pair = {a, b}
        return 5.0 if pair == {RECEIVER, DUMPER} else 0.8 ** len(pair & AGGRESSIVE)

    scored = _scored(_table(columns, lambda folder, bettor: HONEST, odds))
    leads = scored.filter(pl.col("q_value") <= 0.05)
    # the dumper and his receiver, entering together far beyond chance, are not a card-sharing
    # lead (co-entry looks for partners who seldom enter together), nor is anyone else
    assert leads.height == 0, leads.select("player_a", "player_b", "top", "p_value")
    assert _pair(scored, RECEIVER, STRANGER)["co_entry_p"] > 0.01


def test_a_dumpers_play_with_a_stranger_is_judged_without_his_receiver(
        columns: list[str]) -> None:
    # the dumper folds to the stranger's bets far less often than to others' too (a partner
    # pair for the baselines, like the receiver's), and bets into his receiver in every
    # heads-up pot (1,000 of them; against everyone else half the time). The dumper and the
    # stranger, judged against the dumper's heads-up aggression with his receiver counted in,
    # read as soft play.
    def rates(folder: str, bettor: str) -> tuple[float, float, float]:
        if (folder, bettor) == (DUMPER, STRANGER):
            return TO_PARTNER
        return _receiver(folder, bettor)

    rng = np.random.default_rng(3)
    table = _table(columns, rates)
    hu = []
    for a, b in table.select("player_a", "player_b").rows():
        n = 1000 if {a, b} == {RECEIVER, DUMPER} else 300
        rate = 0.93 if {a, b} == {RECEIVER, DUMPER} else 0.5
        hu.append({"hu_n": n, "soft_ka": int(rng.binomial(n, rate)),
                   "soft_kb": int(rng.binomial(n, rate))})
    table = table.with_columns(pl.DataFrame(hu).cast(pl.Int64))
    partners = partners_of(table, totals_of(table))
    assert partners is not None and (DUMPER, STRANGER) in partners.pairs.rows()
    scored = _scored(table)
    pair = _pair(scored, DUMPER, STRANGER)
    assert 0.9 < pair["softplay_k"] / pair["softplay_e"] < 1.1
    leads = scored.filter(pl.col("q_value") <= 0.05)
    assert leads.select("player_a", "player_b").rows() == [(RECEIVER, DUMPER)] or \
        leads.height == 0, leads.select("player_a", "player_b", "top")
