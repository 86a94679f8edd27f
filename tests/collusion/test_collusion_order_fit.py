"""Co-entry in preflop order as an additive fit over all pairs (order_fit, issue 25).

Each player's effect on co-entry acting first and acting second is measured against the very
players he met, each of them measured in turn: a maniac whose raises cut the entries of
everyone after him is measured whole, not half (his usual weighted by each partner's weight
picked up about half of it), and a team far off the fit leaves it and does not bend its
players' effects.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from audit.collusion import order_fit as OF


def _rows(players: int) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.array([(i, j) for i in range(players) for j in range(players) if i != j]).T
    return x, y


def test_each_player_measured_against_the_players_he_met() -> None:
    rng = np.random.default_rng(3)
    m = 24
    f = rng.normal(0, 0.1, m)
    s = rng.normal(0, 0.1, m)
    f[0] = -0.5  # a maniac: everyone acting after him enters seldom with him
    x, y = _rows(m)
    var = np.full(len(x), 0.002)
    lor = -0.05 + f[x] + s[y]
    hands = np.full(len(x), 6000.0)
    got = OF.fit(x, y, lor, OF.weight(lor, var, hands, OF.FIT_TAU2),
                 hands >= OF.LONG_HANDS, m)
    fitted = got["ce_mu"][0] + got["ce_f"][x] + got["ce_s"][y]
    assert np.max(np.abs(fitted - lor)) < 0.01
    assert abs(got["ce_f"][0] - got["ce_f"][1:].mean() - (f[0] - f[1:].mean())) < 0.01


def test_a_team_far_off_the_fit_leaves_it() -> None:
    m = 12
    x, y = _rows(m)
    var = np.full(len(x), 0.002)
    lor = np.full(len(x), -0.05)
    team = ((x == 0) & (y == 1)) | ((x == 1) & (y == 0))
    lor[team] = -0.9  # a team that shares its hole cards seldom contests a pot together
    hands = np.full(len(x), 6000.0)
    got = OF.fit(x, y, lor, OF.weight(lor, var, hands, OF.FIT_TAU2),
                 hands >= OF.LONG_HANDS, m)
    # the team's orders are out of the fit: its players' effects are those of everyone else
    assert np.max(np.abs(got["ce_f"])) < 0.005 and np.max(np.abs(got["ce_s"])) < 0.005
    w, _, _ = OF.own_terms({c: got[c][x] for c in got}, {c: got[c][y] for c in got}, lor, var,
                           np.full(len(x), 6000.0))
    assert np.all(w[team] == 0) and np.all(w[~team] > 0)



def _population(tau2: float, long: Any, team: Any = None, m: int = 60, seed: int = 7,
                shift: float = -0.9
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """`m` players who all met, each order of each pair its players' effects give or take a normal
    of variance `tau2` (the orders' random effect) and its sampling noise; the pairs where
    `long(x, y)` sat together LONG_HANDS hands or more (6,000 a pair, 3,000 an order), the rest
    800. The pairs where `team(x, y)` are a team (log odds ratio `shift` off in both orders:
    one that seldom enters together). Rows, long rows, hands, players."""
    rng = np.random.default_rng(seed)
    x, y = _rows(m)
    longs = long(x, y)
    hands = np.where(longs, 3000.0, 400.0)
    var = 8.0 / hands  # about the sampling variance of a co-entry log odds ratio
    f, s = rng.normal(0, 0.1, m), rng.normal(0, 0.1, m)
    lor = (-0.05 + f[x] + s[y] + rng.normal(0, np.sqrt(tau2), len(x))
           + rng.normal(0, np.sqrt(var)))
    if team is not None:
        lor[team(x, y)] += shift
    w = OF.weight(lor, var, hands, OF.FIT_TAU2)
    return x, y, lor, w, longs, m


def _regulars(x: Any, y: Any) -> Any:
    """The first 20 players sat together all day."""
    return (x < 20) & (y < 20)


def test_the_orders_random_effect_is_measured_on_the_runs_own_long_pairs() -> None:
    # before: 0.004 whatever the room (a constant measured on our simulator's populations)
    got = {tau2: OF.fit(*_population(tau2, _regulars)[:5], 60)["ce_tau2"][0]
           for tau2 in (0.002, 0.004, 0.008)}
    for tau2, measured in got.items():
        assert 0.6 * tau2 < measured < 1.5 * tau2
    # a room whose pairs vary twice as much gets a larger τ²₀
    assert got[0.002] < got[0.004] < got[0.008]


def _teams(x: Any, y: Any) -> Any:
    """Players 12 to 14, 15 to 17, ..., 99 to 101: 30 teams of three."""
    return (x >= 12) & (y >= 12) & ((x - 12) // 3 == (y - 12) // 3)


def test_a_run_whose_long_pairs_are_mostly_teams_does_not_inflate_it() -> None:
    # 12 regulars sat together all day (66 pairs), and 30 teams of three (90 pairs): the
    # teams are far off the fit and leave it (over all the long orders the median is a
    # team's: τ² several times larger)
    def long(x: Any, y: Any) -> Any:
        return ((x < 12) & (y < 12)) | _teams(x, y)

    x, y, lor, w, longs, m = _population(0.004, long, _teams, m=102)
    assert np.sum(_teams(x, y)) > np.sum(longs & ~_teams(x, y))
    measured = OF.fit(x, y, lor, w, longs, m)["ce_tau2"][0]
    assert 0.5 * 0.004 < measured < 1.6 * 0.004


def test_a_run_whose_long_pairs_are_all_teams_keeps_the_start_value() -> None:
    # as the bench store's: its only long pairs are its planted teams, who enter together
    # 4.5 standard deviations more than the fit says (not far enough to leave it); read as
    # honest long pairs, τ² 0.1 or more
    x, y, lor, w, longs, m = _population(0.004, _teams, _teams, m=102,
                                         shift=4.5 * np.sqrt(8 / 3000 + OF.FIT_TAU2))
    assert OF.fit(x, y, lor, w, longs, m)["ce_tau2"][0] == OF.FIT_TAU2


def test_too_few_long_pairs_keep_the_start_value_and_a_carried_one_is_used() -> None:
    def long(x: Any, y: Any) -> Any:
        return (x < 3) & (y < 3)  # 6 long orders: too few to measure on

    x, y, lor, w, longs, m = _population(0.008, long)
    assert np.sum(longs) < OF.MIN_LONG
    assert OF.fit(x, y, lor, w.copy(), longs, m)["ce_tau2"][0] == OF.FIT_TAU2
    # a re-check fits with the first pass's τ²₀: the weights 1/(variance + τ²₀)
    got = OF.fit(x, y, lor, w, longs, m, tau2=0.01)
    assert got["ce_tau2"][0] == 0.01
    var = 8.0 / np.where(longs, 3000.0, 400.0)
    assert np.isclose(got["ce_wf"].sum(), np.sum(np.where(w > 0, 1.0 / (var + 0.01), 0.0)))


def _twelve_regulars_and_teams(x: Any, y: Any) -> Any:
    return ((x < 12) & (y < 12)) | _teams(x, y)


@pytest.mark.parametrize("room", ["regulars", "teams"])
def test_the_measure_is_the_same_whatever_its_start(room: str) -> None:
    # τ²₀ is the τ² whose reading is itself, not a reading of a reading from where the weights
    # started: read again on its last reading it swung round that point (a clean 60,000-hand
    # store between 0 and 0.0056), and the mean of two readings moved with the start
    x, y, lor, _, longs, m = (_population(0.004, _regulars) if room == "regulars" else
                              _population(0.004, _twelve_regulars_and_teams, _teams, m=102))
    var = 8.0 / np.where(longs, 3000.0, 400.0)
    hands = np.where(longs, 3000.0, 400.0)
    got = [OF.measure(x, y, lor, OF.weight(lor, var, hands, start), longs, m, start=start)[0]
           for start in (0.001, 0.002, 0.004, 0.01, 0.02)]
    assert np.allclose(got, got[0], rtol=1e-6, atol=0)
    assert 0.5 * 0.004 < got[0] < 1.6 * 0.004
