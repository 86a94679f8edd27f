"""The correction spends its error budget where evidence can be (issue 25, first-pass power).

Most pairs of a population share a few hundred hands; a team sits together for thousands. Each
pair's evidence can only be as strong as the hands it played together, so the pairs' q-values
are Benjamini–Hochberg weighted by those hands (leads.pair_qvalues): a weak team that played
6,000 hands together is a lead among 3,000 brief pairs where, unweighted, it was not, and on a
population without teams the chance of any lead stays within the FDR.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.collusion.leads import FEATURES, combine, pair_qvalues
from audit.collusion.stats import bh_qvalues, weighted_bh_qvalues

BRIEF, TOGETHER = 2900, 90  # pairs that shared 100-400 hands / 6,000 (table-mates, regulars)


def _hands(rng: np.random.Generator) -> np.ndarray:
    return np.concatenate([rng.integers(100, 400, BRIEF), np.full(TOGETHER, 6000)])


def _population(rng: np.random.Generator, team_p: float | None) -> pl.DataFrame:
    """Scored pairs: every feature's p uniform (honest), and a team that played 6,000 hands
    together whose soft play reads `team_p` (None: no team)."""
    hands = _hands(rng)
    if team_p is not None:
        hands = np.append(hands, 6000)
    cols = {f"{f.name}_p": rng.uniform(size=hands.size) for f in FEATURES}
    if team_p is not None:
        cols["softplay_p"][-1] = team_p
    return pl.DataFrame({"player_a": [f"a{i}" for i in range(hands.size)],
                         "player_b": [f"b{i}" for i in range(hands.size)],
                         "hands": hands, **cols})


def test_a_weak_team_that_sat_together_for_thousands_of_hands_is_a_lead() -> None:
    scored = combine(_population(np.random.default_rng(1), team_p=3e-6))
    team = scored.row(scored.height - 1, named=True)
    # its one test, Bonferroni over every test it was judged on (all but seating, which is
    # evidence only): fourteen, p 4.2e-5
    judged = len(FEATURES) - 1
    assert team["top"] == "softplay" and abs(team["p_value"] - judged * 3e-6) < 1e-12
    # among 2,991 pairs, unweighted, it fell short of the FDR
    assert bh_qvalues(scored["p_value"].to_numpy())[-1] > 0.05
    assert team["q_value"] <= 0.05
    # and the strongest lead
    assert scored.sort("q_value", "p_value")["player_a"][0] == team["player_a"]


def test_on_populations_without_teams_a_lead_is_as_rare_as_the_fdr_allows() -> None:
    rng = np.random.default_rng(2)
    runs, with_lead = 1000, 0
    for _ in range(runs):
        scored = combine(_population(rng, team_p=None))
        with_lead += int((scored["q_value"] <= 0.05).any())
    # with no team every lead is false: the chance of any is at most the FDR (0.05), and it is
    # about that (47 in 1,000 runs, with ten features or eleven), so the count of runs with a
    # lead is within three standard deviations of 5% (300 runs against 5% flat read 11 with ten
    # features and 17 with eleven: the same rate, the random stream shifted by a column)
    assert with_lead <= 0.05 * runs + 3 * np.sqrt(runs * 0.05 * 0.95)


def test_weights_move_the_budget_and_equal_weights_are_plain_benjamini_hochberg() -> None:
    p = np.array([0.001, 0.02, 0.03, 0.5, np.nan])
    assert np.allclose(weighted_bh_qvalues(p, np.full(5, 7.0)), bh_qvalues(p), equal_nan=True)
    # the same p-value weighs more in a pair that played more hands together
    q = pair_qvalues(np.array([0.01, 0.01, 0.5, 0.5]), np.array([6000, 100, 100, 100]))
    assert q[0] < q[1]
    assert np.isnan(pair_qvalues(np.array([np.nan, 0.1]), np.array([10, 10]))[0])
