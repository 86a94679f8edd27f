"""The lead players' hands that explaining away, the overlap re-check and the evidence go back
to (aggregate.HandRows) are built in pieces of half the hands of an aggregation chunk: built
beside the pair table, a piece's rows were the collusion stage's peak at 5,000,000 hands
(issue 24: 1.88 GB in chunk-sized pieces, 1.73 GB in half-sized ones). The leads are the
same whatever the pieces."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion.leads import pair_scores
from audit.collusion.synthetic import generate


@pytest.mark.slow
def test_the_lead_players_hands_are_built_in_pieces_of_half_a_chunk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hands, hp, _ = generate(seed=11, teams={"card_share": 2})
    per_chunk = hp.height // 3 + 1  # three chunks
    made: list[int] = []
    init = A.HandRows.__init__

    def counted(self: A.HandRows, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self.pieces)

    monkeypatch.setattr(A.HandRows, "__init__", counted)
    scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05,
                            rows_per_chunk=per_chunk)
    assert len(A.chunks(hp.lazy(), hands.lazy(), per_chunk)) == 3
    assert made == [6]
    whole, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05)
    assert made == [6, 1]  # (one chunk: the rows in one piece, as before)
    keys = ["player_a", "player_b"]
    leads = [s.filter(pl.col("q_value") <= 0.05).sort(keys).select(keys) for s in (scored, whole)]
    assert leads[0].height > 0 and leads[0].equals(leads[1])
