"""A run keeps its pair aggregates (aggregate.save_partial, issue 24: under 2 GB a stage).
The three kinds concatenated into one frame before writing were a copy of the pair table
beside it (5,000,000 hands: 1.9M pairs, ~600 MB), right after the aggregation; the pages it
left raised every later phase of the collusion stage, and were the stage's peak as the
pipeline runs it (2,161 MB). Written kind by kind into one Parquet writer, what is read back
is the same partial, kind for kind, column for column."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from audit.collusion import aggregate as A
from audit.collusion import features as F
from tests.collusion.frames import counted_pair_table
from tests.collusion.memory_growth import measured

_MEASURE = r"""
import json, os, tempfile
# Arrow's own pool keeps freed pages (mimalloc); the system's hands large ones back at once
os.environ["ARROW_DEFAULT_MEMORY_POOL"] = "system"
from pathlib import Path
from audit.collusion import aggregate as A
from tests.collusion.test_collusion_partial_memory import partial_of

part = partial_of(100_000, 5_000)
size = part.table.estimated_size()
with tempfile.TemporaryDirectory() as d:
    print(json.dumps({"save_partial": growth(
        lambda: A.save_partial(Path(d) / "partial.parquet", part, "1d"))}))
"""


def partial_of(pairs: int, players: int) -> A.Partial:
    """A run's aggregates: `pairs` pairs among `players` players, each player seated at a few
    tables, and his rates."""
    table = counted_pair_table(pairs, players)
    names = pl.concat([table["player_a"], table["player_b"]]).unique().sort()
    cells = pl.DataFrame({"player": names}).join(
        pl.DataFrame({"table": [f"t{t}" for t in range(3)]}), how="cross").with_columns(
        bucket=pl.int_range(pl.len()).cast(pl.Int64) % 24)
    rates = pl.DataFrame({"player": names}).with_columns(
        (pl.int_range(pl.len()) % (7 + i)).cast(pl.UInt32).alias(c)
        for i, c in enumerate(F.RATE_COLUMNS))
    return A.Partial(table=table, cells=cells, rates=rates)


def test_saving_a_run_s_aggregates_holds_no_copy_of_the_pair_table() -> None:
    # the three kinds concatenated, then turned into Arrow and written as one row group each:
    # 2.40 to 2.44 times the pair table held at once (100,000 pairs of 5,000 players); kind by
    # kind, in row groups of 20,000 rows: 0.58
    assert measured(_MEASURE)["save_partial"] < 1.2


def test_a_saved_partial_reads_back_kind_for_kind(tmp_path) -> None:
    part = partial_of(3_000, 300)
    kept = tmp_path / "partial.parquet"
    A.save_partial(kept, part, "1d")
    back = A.load_partial(kept, "1d")
    assert back is not None
    for kind in ("table", "cells", "rates"):
        want = getattr(part, kind)
        assert_frame_equal(getattr(back, kind).select(want.columns), want)
    assert A.load_partial(kept, "1h") is None  # another seating bucket's partial is not reused


@pytest.mark.parametrize("empty", ["table", "cells", "rates"])
def test_a_partial_with_an_empty_kind_reads_back(tmp_path, empty: str) -> None:
    part = partial_of(500, 60)
    part = A.Partial(**{k: getattr(part, k).clear() if k == empty else getattr(part, k)
                        for k in ("table", "cells", "rates")})
    kept = tmp_path / "partial.parquet"
    A.save_partial(kept, part, "1d")
    back = A.load_partial(kept, "1d")
    assert back is not None
    assert getattr(back, empty).height == 0
    for kind in ("table", "cells", "rates"):
        want = getattr(part, kind)
        assert_frame_equal(getattr(back, kind).select(want.columns), want)
