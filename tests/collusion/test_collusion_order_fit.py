"""Co-entry in preflop order as an additive fit over all pairs (order_fit, issue 25).

Each player's effect on co-entry acting first and acting second is measured against the very
players he met, each of them measured in turn: a maniac whose raises cut the entries of
everyone after him is measured whole, not half (his usual weighted by each partner's weight
picked up about half of it), and a team far off the fit leaves it and does not bend its
players' effects.
"""

from __future__ import annotations

import numpy as np

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
    got = OF.fit(x, y, lor, OF.weight(lor, var, np.full(len(x), 6000.0)), m)
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
    got = OF.fit(x, y, lor, OF.weight(lor, var, np.full(len(x), 6000.0)), m)
    # the team's orders are out of the fit: its players' effects are those of everyone else
    assert np.max(np.abs(got["ce_f"])) < 0.005 and np.max(np.abs(got["ce_s"])) < 0.005
    w, _, _ = OF.own_terms({c: got[c][x] for c in got}, {c: got[c][y] for c in got}, lor, var,
                           np.full(len(x), 6000.0))
    assert np.all(w[team] == 0) and np.all(w[~team] > 0)
