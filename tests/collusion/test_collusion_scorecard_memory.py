"""The collusion scorecard in bounded memory on a dense population (session 24): 200,000 hands
of 120 players at 10 tables, where every player shares ~20,000 hands with each tablemate, took
`collusion --scorecard` to 2.4-2.8 GB, more than the whole 5,000,000-hand pipeline (1.69 GB).
Its ranking built the pair-hand rows of every tested pair, a piece at a time, to cut them down
to their evidence (`leads.evidence_rows`), and threw them away: the scorecard reads the scores
only. It asks for no evidence now, and gets the same scores."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from polars.testing import assert_series_equal

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import scorecard
from audit.collusion.synthetic import generate
from audit.store.dataset import Store


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of pair-hand rows each `A.pair_rows` call made, as the ranking calls it."""
    made: list[int] = []
    pair_rows = A.pair_rows

    def spy(*args: Any, **kwargs: Any) -> pl.DataFrame:
        got = pair_rows(*args, **kwargs)
        made.append(got.height)
        return got

    monkeypatch.setattr(A, "pair_rows", spy)
    return made


def test_scores_without_evidence_build_no_pair_hand_rows_and_are_the_same_scores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1, "chip_dump": 1})
    with_rows, pairs = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05,
                                     rows_per_chunk=hp.height // 3 + 1)
    assert pairs.height > 0  # (every tested pair's evidence rows: what the scorecard threw away)
    made = _spied(monkeypatch)
    scored, none = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05,
                                 rows_per_chunk=hp.height // 3 + 1, evidence=False)
    assert made == [] and none.height == 0
    # the same pairs, tests and leads; p and q the same but for their last bits (two rankings
    # of the same hands differ there already: polars' joins sum floats in no fixed order)
    keys = ["player_a", "player_b", "hands", "top", "n_features"]
    assert scored.select(keys).equals(with_rows.select(keys))
    for column in ("p_value", "q_value"):
        assert_series_equal(scored[column], with_rows[column], check_exact=False, rel_tol=1e-12,
                            abs_tol=0)
    assert scored.filter(pl.col("q_value") <= 0.05).height > 0  # (leads among them)


@pytest.mark.slow  # a simulated store of 3,000 hands, audited (`audited_team_store`)
def test_the_scorecard_builds_no_pair_hand_rows(
        audited_team_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _spied(monkeypatch)
    card = scorecard.collusion_scorecard(audited_team_store.root, min_hands=50)
    assert card["teams"] and card["pairs_tested"] > 0
    assert made == []  # (every tested pair's rows before: 2.7 GB at 200,000 dense hands)
