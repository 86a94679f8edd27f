"""Fixtures the collusion tests share."""

import pytest

from audit.collusion import aggregate as A
from audit.collusion.synthetic import generate
from audit.run.runner import audit_store
from audit.simulate import simulate
from audit.store.dataset import Store


@pytest.fixture(scope="session")
def columns() -> list[str]:
    """The pair table's count columns (as features.pair_table makes them)."""
    hands, hp, _ = generate(seed=7, players=12, days=1)
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    return [c for c in agg.table.columns if c not in ("player_a", "player_b")]


@pytest.fixture(scope="session")
def audited_team_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A simulated store of 3,000 hands on 4 tables with 4 colluding teams at full strength,
    audited: for the tests that watch what a run's ranking is handed. A ranking keeps the run's
    aggregates in it (findings.run_partial), which what they watch does not depend on (the test
    of a run aggregated now has a store of its own)."""
    root = tmp_path_factory.mktemp("teams") / "store"
    simulate(root, hands=3_000, seed=7, tables=4, colluders=4, collusion_strength=1.0)
    store = Store(root)
    audit_store(store)
    return store
