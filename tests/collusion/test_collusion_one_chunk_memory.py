"""The lead players' hands in pieces in a store of one chunk too (session 24): 200,000 hands of
120 players at 10 tables, where every player shares ~20,000 hands with each tablemate, are one
chunk (1.8M player rows of ROWS_PER_CHUNK's 2M), and the ranking kept its lead players' hands
(aggregate.HandRows) in one piece in memory: the lead players sit in nearly every hand of such
a dense population, and explaining away built the pair-hand rows of all of them at once
(`A.spoiled_table`), `collusion`'s peak at 1.0 GB. They are kept as in a store of many chunks
now, in pieces of at most half a chunk's rows, spilled, and the ranking is the same."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from polars.testing import assert_series_equal

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion.synthetic import generate


def _kept(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """(pieces, spilled) of each `A.HandRows` the ranking makes."""
    made: list[tuple[int, bool]] = []
    init = A.HandRows.__init__

    def spy(self: A.HandRows, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append((self.pieces, self.spill))

    monkeypatch.setattr(A.HandRows, "__init__", spy)
    return made


def test_one_chunk_of_more_than_half_a_chunks_rows_is_kept_in_pieces_with_the_same_leads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1, "chip_dump": 1})
    one_chunk = hp.height + 1  # (every row in one chunk, more than half of it)
    whole, _ = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05,
                             rows_per_chunk=one_chunk, evidence=False)
    made = _kept(monkeypatch)
    scored, pairs = L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05,
                                  rows_per_chunk=hp.height + 1)
    assert made == [(2, True)]  # (one piece in memory before)
    # the same pairs, tests and leads; p and q the same but for their last bits (two rankings
    # of the same hands differ there already: polars' joins sum floats in no fixed order)
    keys = ["player_a", "player_b", "hands", "top", "n_features"]
    assert scored.select(keys).equals(whole.select(keys))
    for column in ("p_value", "q_value"):
        assert_series_equal(scored[column], whole[column], check_exact=False, rel_tol=1e-12,
                            abs_tol=0)
    assert scored.filter(pl.col("q_value") <= 0.05).height > 0 and pairs.height > 0


def test_a_chunk_of_half_a_chunks_rows_or_fewer_stays_one_piece_in_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (a small store's rows are few: no cut into files for them)
    hands, hp, _ = generate(seed=5, players=40, days=1, teams={"softplay": 1})
    made = _kept(monkeypatch)
    L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05, rows_per_chunk=2 * hp.height)
    assert made == [(1, False)]
