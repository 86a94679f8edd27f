"""The store cut into pieces once per collusion run, not twice (issue 24). A run whose aggregates
are made now (not loaded) cuts its hands into pieces to aggregate them (`aggregate.Split`);
explaining away and the evidence read the lead players' hands from pieces of the same hands
(`aggregate.HandRows`), and cut the store again into the same pieces: at 5,000,000 hands a
second pass of 15-17 CPU-s and its buffers. The first cut is kept for them, and the leads are
those of a run that cuts for itself (its aggregates loaded)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest

from audit.collusion import aggregate as A
from audit.collusion import findings as CF
from audit.collusion import leads as L
from audit.collusion.synthetic import generate
from audit.run.runner import audit_store, resolve_run
from audit.simulate import simulate
from audit.store.dataset import Store


def test_pair_scores_cuts_the_hands_once_for_the_aggregates_and_the_lead_players(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # aggregated here (no kept aggregates): the pieces of the lead players' hands are the chunks
    hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1})
    made: list[int] = []
    cut = A.Split._cut

    def cutting(self: A.Split) -> Path:
        if self._dir is None:
            made.append(self.k)
        return cut(self)

    monkeypatch.setattr(A.Split, "_cut", cutting)
    chunked = L.leads_from_frames(hp, hands, min_hands=50, rows_per_chunk=hp.height // 3 + 1)
    assert made == [6]  # three chunks' rows, the lead players' hands in pieces of half a chunk
    whole = L.leads_from_frames(hp, hands, min_hands=50, rows_per_chunk=hp.height + 1)
    # (one chunk, of more than half a chunk's rows: aggregated whole, the lead players' hands
    # alone cut, in two pieces)
    assert made == [6, 2]
    assert whole.num_rows >= 1
    assert leads(chunked) == leads(whole)
    for got, want in zip(chunked.to_pylist(), whole.to_pylist(), strict=True):
        assert got["p_value"] == pytest.approx(want["p_value"], rel=1e-9, abs=1e-300)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Hold'em at four tables, four colluding pairs always acting as a team: leads to explain
    away and evidence to find."""
    root = tmp_path_factory.mktemp("collusion-one-cut") / "store"
    simulate(root, hands=3_000, seed=7, tables=4, colluders=4, collusion_strength=1.0)
    store = Store(root)
    audit_store(store)
    return store


@pytest.mark.slow  # a simulated store of 3,000 hands, audited
def test_a_run_aggregated_now_cuts_its_hands_once_and_names_the_same_leads(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    run = str(resolve_run(store))
    chunks, cut = A.chunks, A.Split._cut
    made: list[int] = []

    def small(hand_players: pl.LazyFrame, hands: pl.LazyFrame,
              rows_per_chunk: int = A.AGGREGATE_ROWS) -> list[A.Chunk] | A.Split:
        # a store of several chunks: its rows in four aggregating (in two for the scoring's
        # `rows_per_chunk`, the lead players' hands in twice as many pieces), as 5,000,000
        # hands are in 24 (12)
        rows = hand_players.select("hand_id").collect().height
        return chunks(hand_players, hands, rows * rows_per_chunk // (4 * A.AGGREGATE_ROWS) + 1)

    def cutting(self: A.Split) -> Path:
        if self._dir is None:
            made.append(self.k)
        return cut(self)

    monkeypatch.setattr(A, "chunks", small)
    monkeypatch.setattr(A.Split, "_cut", cutting)
    partial = Path(store.root) / "runs" / run / A.PARTIAL_FILE
    assert not partial.exists()  # the run's aggregates are made now
    computed = CF.collusion_leads(store, run)
    assert partial.exists()
    assert made == [4]  # one cut, for the aggregates and the lead players' hands
    assert computed.num_rows >= 2  # leads were explained away and given evidence

    made.clear()
    loaded = CF.collusion_leads(store, run)  # the aggregates read back: the hands cut for the rest
    assert made == [4]
    assert leads(loaded) == leads(computed)
    for got, want in zip(loaded.to_pylist(), computed.to_pylist(), strict=True):
        # (polars sums in parallel: floats equal up to rounding from one run to the next)
        assert got["p_value"] == pytest.approx(want["p_value"], rel=1e-9, abs=1e-300)
        assert got["q_value"] == pytest.approx(want["q_value"], rel=1e-9, abs=1e-300)


def leads(table: pa.Table) -> list[tuple[object, ...]]:
    return [(r["player_a"], r["player_b"], r["hands"], tuple(r["evidence_hand_ids"]))
            for r in table.to_pylist()]
