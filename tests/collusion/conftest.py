"""Fixtures the collusion tests share."""

import pytest

from audit.collusion import aggregate as A
from audit.collusion.synthetic import generate


@pytest.fixture(scope="session")
def columns() -> list[str]:
    """The pair table's count columns (as features.pair_table makes them)."""
    hands, hp, _ = generate(seed=7, players=12, days=1)
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    return [c for c in agg.table.columns if c not in ("player_a", "player_b")]
