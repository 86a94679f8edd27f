"""A big room's pair aggregates are built chunk by chunk of whole hands (issue 24: under 2 GB a
stage). Each chunk reads its own rows, cut from the store once, and not the whole store through
a filter of the hand hash (at 5,000,000 hands, 12 chunks each read all 28M player rows again,
and reading them was most of a chunk's peak); its pair-hand rows are summed as they stream, never
held whole. The sums are those of the chunks read through the filter: counts exactly, the float
sums up to rounding (the same terms added in another order)."""

from __future__ import annotations

import tempfile
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion.synthetic import generate


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A synthetic room's projections in Parquet files, as a run keeps them."""
    hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1, "chip_dump": 1})
    d = tmp_path_factory.mktemp("run")
    hp.write_parquet(d / "hand_players.parquet")
    hands.write_parquet(d / "hands.parquet")
    return d / "hand_players.parquet", d / "hands.parquet"


def _filtered(hp: pl.LazyFrame, hands: pl.LazyFrame, k: int) -> list[A.Chunk]:
    """The chunks as they were read before: the whole store through a filter of the hash."""
    return [(hp.filter(A.piece_of(k) == i), hands.filter(A.piece_of(k) == i)) for i in range(k)]


def test_each_chunk_reads_its_own_rows_not_the_store(stored: tuple[Path, Path]) -> None:
    hp_file, hands_file = stored
    hp, hands = pl.scan_parquet(hp_file), pl.scan_parquet(hands_file)
    total = hp.select(pl.len()).collect().item()
    parts = A.chunks(hp, hands, total // 5)
    assert len(parts) >= 5
    seen = 0
    for i, ((chunk_hp, chunk_hands), (want_hp, want_hands)) in enumerate(
            zip(parts, _filtered(hp, hands, len(parts)), strict=True)):
        # the chunk's plan reads files of its own, not the store's
        for frame in (chunk_hp, chunk_hands):
            plan = frame.explain()
            assert str(hp_file) not in plan and str(hands_file) not in plan, (i, plan)
        got = chunk_hp.collect()
        # and those files hold its hands' rows, every one of them and no other
        assert got.sort("hand_id", "seat").equals(
            want_hp.select(F.HAND_PLAYER_COLUMNS).collect().sort("hand_id", "seat"))
        assert chunk_hands.collect().sort("hand_id").equals(
            F.hand_columns(want_hands).collect().sort("hand_id"))
        seen += got.height
    assert seen == total


def test_the_chunks_files_are_removed_with_them(stored: tuple[Path, Path], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    hp, hands = (pl.scan_parquet(f) for f in stored)
    parts = A.chunks(hp, hands, hp.select(pl.len()).collect().item() // 2)
    assert list(tmp_path.iterdir()) == []  # cut when first read
    assert parts[0][0].collect().height > 0
    assert len(list(tmp_path.glob("poker-audit-chunks-*/hand_players/_piece=*"))) == len(parts)
    parts.close()  # type: ignore[union-attr]
    assert list(tmp_path.iterdir()) == []


def test_aggregates_of_the_cut_chunks_equal_those_read_through_the_filter(
        stored: tuple[Path, Path]) -> None:
    hp, hands = (pl.scan_parquet(f) for f in stored)
    rows = hp.select(pl.len()).collect().item() // 4
    got = A.aggregate(A.chunks(hp, hands, rows))
    want = A.aggregate(_filtered(hp, hands, len(A.chunks(hp, hands, rows))))
    assert got.table.schema == want.table.schema
    assert got.table.height == want.table.height > 100
    for c, dtype in got.table.schema.items():
        if dtype.is_float():
            np.testing.assert_allclose(got.table[c].to_numpy(), want.table[c].to_numpy(),
                                       rtol=1e-12, atol=1e-9, err_msg=c)
        else:
            assert got.table[c].equals(want.table[c]), c
    assert got.cells.sort(pl.all()).equals(want.cells.sort(pl.all()))
    assert got.rates.sort("player").equals(want.rates.sort("player"))


def _pairs(rng: np.random.Generator, n: int) -> pl.DataFrame:
    ids = np.sort(rng.choice(np.arange(300_000), n, replace=False))
    return pl.DataFrame({"player_a": [f"a{x:07d}" for x in ids],
                         "player_b": [f"b{x:07d}" for x in ids],
                         **{f"c{j}": pl.Series(rng.integers(0, 100, n), dtype=pl.UInt32)
                            for j in range(40)}})


def test_the_running_total_is_summed_in_place_of_itself_not_beside_it() -> None:
    # the running total of a big room is most of the aggregation's memory (1.9M pairs, 526 MB
    # at 5,000,000 hands): each chunk's sums take the place of the total's columns one by one,
    # never a second total beside the first (numpy's arrays, which the sums are made in, are
    # traced by tracemalloc)
    rng = np.random.default_rng(1)
    one = pl.DataFrame({"player": ["x"], "table": ["t"], "bucket": [1]})
    parts = [A.Partial(table=_pairs(rng, 200_000), cells=one,
                       rates=pl.DataFrame({"player": ["x"], "multi_n": [1]})) for _ in range(4)]
    want = A._added([p.table for p in parts]).sort(A.KEYS)

    def arriving() -> Iterator[A.Partial]:
        while parts:  # each partial held by the sum only, as chunks arrive
            yield parts.pop(0)

    tracemalloc.start()
    try:
        got = A.combine(arriving())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got.table.equals(want)
    column = 4 * got.table.height  # bytes of one UInt32 column of the total
    assert peak < 45 * column  # 40 count columns and a few more (before: 80 and more)
