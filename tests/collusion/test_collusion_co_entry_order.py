"""Co-entry is judged in the order the two acted (issue 25).

A maniac's raises cut the entries of whoever acts after him preflop, not of those who act
before him. A regular seated right after him acts after him in most of the hands they share,
while the maniac's usual co-entry with everyone else mixes the hands he acted first and those
he acted second: judged against that mix, the regular read as entering seldom with the maniac,
as a card sharer does. Each player's usual co-entry is taken in the same order as the pair's
(order_fit). Hole-card sharing cuts co-entry whatever the order: such a pair is
still a lead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion import order_fit as OF
from audit.collusion.synthetic import generate
from tests.collusion.frames import co_entries, table_leads

TABLES, SEATS = 40, 6
TEAM = ("t03s2", "t03s3")


def _table(columns: list[str], hands: int, team_odds: float | None, tau2: float = 0.0
           ) -> pl.DataFrame:
    """TABLES tables of SEATS players who never move, each pair together `hands` hands; seat 0
    is a maniac. A player d seats after another acts after him preflop in (SEATS - d) / SEATS
    of their hands (the button goes round). When the maniac acts first, the other enters
    together with him at 0.6 times the odds of independent entry; otherwise every pair enters
    independently. With `team_odds`, TEAM (two players of table 3 beside each other, neither
    the maniac) enters together at those odds whoever acts first. With `tau2`, each order's
    odds of each pair are those times a log-normal of variance `tau2` (the pairs vary)."""
    rng = np.random.default_rng(5)
    rows = []
    for t in range(TABLES):
        for i in range(SEATS):
            for j in range(i + 1, SEATS):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                odds = (0.6, 1.0) if i == 0 else (1.0, 1.0)
                if (a, b) == TEAM and team_odds is not None:
                    odds = (team_odds, team_odds)
                if tau2:
                    odds = (odds[0] * np.exp(rng.normal(0, np.sqrt(tau2))),
                            odds[1] * np.exp(rng.normal(0, np.sqrt(tau2))))
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                            | {"hands": hands}
                            | co_entries(rng, hands, odds, first=(SEATS - (j - i)) / SEATS))
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"])


@pytest.mark.parametrize("hands", [12_000, 30_000])
def test_a_regular_seated_right_after_a_maniac_is_no_lead(columns: list[str],
                                                          hands: int) -> None:
    # before: every maniac and his left-hand neighbour were a co_entry lead (53 of the 40
    # such pairs and others at 12,000 hands, 75 at 30,000)
    assert table_leads(_table(columns, hands, None)) == []


def test_a_room_whose_pairs_vary_twice_as_much_gets_a_larger_fit_tau2_and_no_false_lead(
        columns: list[str]) -> None:
    # each order of each pair its usual odds times a log-normal of variance 0.016, or 0.032:
    # the co-entry fit's τ²₀ is measured on the room's own long pairs (before: 0.004 in any
    # room); the table's entries vary less than binomial counts, so it reads below the odds'
    fitted = {}
    for tau2 in (0.016, 0.032):
        room = _table(columns, 12_000, None, tau2=tau2)
        fitted[tau2] = L.totals_of(room)["ce_tau2"][0]
        assert table_leads(room) == []
    assert fitted[0.032] > 2 * fitted[0.016] > 0.01
    # the pair that seldom enters together in either order is still the one lead
    assert table_leads(_table(columns, 12_000, 0.6, tau2=0.032)) == [(*TEAM, "co_entry")]


def test_a_pair_that_seldom_enters_together_in_either_order_is_still_a_lead(
        columns: list[str]) -> None:
    leads = table_leads(_table(columns, 12_000, 0.6))
    assert leads == [(*TEAM, "co_entry")]


def test_the_pair_hands_know_who_acted_first_preflop() -> None:
    # UTG, ..., CO, BTN, SB, BB; heads-up the button (small blind) acts first
    order = ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO", "BTN", "SB", "BB"]
    keys = pl.DataFrame({"position": order, "seat": [9, 8, 7, 6, 5, 4, 3, 2, 1]}).select(
        F.preflop_order(pl.col("position"), pl.col("seat")).alias("k"))["k"].to_list()
    assert keys == sorted(keys)
    # without a position, by seat
    unknown = pl.DataFrame({"position": [None, None, "BB"], "seat": [2, 1, 5]},
                           schema={"position": pl.String, "seat": pl.Int8}).select(
        F.preflop_order(pl.col("position"), pl.col("seat")).alias("k"))["k"].to_list()
    assert unknown[1] < unknown[0] and unknown[2] < unknown[1]


def test_the_re_checks_fit_with_the_first_passs_fit_tau2(columns: list[str]) -> None:
    # the first pass over all the pairs keeps the τ²₀ its fit measured (as ρ and τ²), and a
    # re-check, which fits part of the pairs, weighs its fit with it (leads._Pool)
    room = _table(columns, 12_000, None, tau2=0.032)
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)}).with_columns(
        [pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    totals = L.totals_of(room)
    measured: dict[str, float] = {}
    L.score_pairs(room.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0)), totals, rates,
                  pool=L._Pool(measured=measured))
    first = measured[L.FIT_TAU2_KEY]
    assert first == totals["ce_tau2"][0] > 0.01
    lone = L._Pool(lone=True, spread=tuple(sorted(measured.items())))
    part = room.filter(pl.col("player_a").str.starts_with("t0"))  # 10 tables of 40
    assert L.totals_of(part, fit_tau2=lone.known(L.FIT_TAU2_KEY))["ce_tau2"][0] == first
    assert L.totals_of(part)["ce_tau2"][0] != first  # (measured on the part, it differs)
    # the partners' fit (the totals without the partner pairs) is weighted as the whole one
    assert L.fit_tau2_of(totals) == first


def test_explaining_away_re_scores_with_the_first_passs_fit_tau2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the order fit's τ²₀ is measured once a run, by the first pass over all the pairs:
    # explaining away's re-scores (the pairs without the leads' hands) are weighted with it,
    # as the re-checks are, or a lead's q moves with a τ²₀ measured again on another table
    # (before: measured again, 0.018 on the re-score where the first pass read 0)
    hands, hp, _ = generate(seed=7, players=30, days=10,
                                teams={"chip_dump": 2, "whipsaw": 1})
    monkeypatch.setattr(OF, "LONG_HANDS", 150)  # (long pairs in a small room: τ²₀ is read)
    given: list[float | None] = []
    measured: list[float] = []
    longs: list[int] = []
    fit = OF.fit

    def spy(x: Any, y: Any, lor: Any, w: Any, long: Any, players: int,
            tau2: float | None = None) -> dict[str, Any]:
        longs.append(int(np.count_nonzero(long)))
        out = fit(x, y, lor, w, long, players, tau2)
        given.append(tau2)
        measured.append(float(out["ce_tau2"][0]))
        return out

    monkeypatch.setattr(OF, "fit", spy)
    scored, _ = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05)
    assert scored.filter(pl.col("q_value") <= 0.05).height > 0  # (leads to explain away)
    assert len(given) >= 2 and longs[0] >= OF.MIN_LONG
    assert given[0] is None  # the first pass measures it ...
    assert given[1:] == [measured[0]] * (len(given) - 1)  # ... every later fit is given it
