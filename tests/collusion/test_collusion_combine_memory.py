"""Adding a chunk's pair table into the running total, and sorting the total at the end, hold
the total and little more (issue 24: under 2 GB a stage; at 5,000,000 hands the running total
is 1.9M pairs, 526 MB). Each pair of the chunk is found in the total by a number made of its
two players' places among the names, not by a join on the names (a copy of both tables' keys
and a hash table over the total's: the aggregation's peak, 2.26 GB RSS); the total's counts are
kept as narrow as their sums while it runs (UInt16 where no sum passes 65,535); and the total
is sorted column by column at the end, not as a sorted copy of the table beside it (once per
run and again for the chain of runs: 1.90 GB RSS). The sums are those of the group-by over
both tables, in the partials' column types."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from tests.collusion.frames import counted_pair_table
from tests.collusion.memory_growth import measured

KEYS = ["player_a", "player_b"]

# Each step run on a running total of 200,000 pairs in a process of its own, its resident
# memory sampled every 2 ms; jemalloc (polars') told to hand freed pages back at once, so that
# the growth is what the step held, not what the allocator kept.
_MEASURE = r"""
import gc, io, json, os, threading, time
import polars as pl
from audit.collusion import aggregate as A
from tests.collusion.frames import counted_pair_table

KEYS = ["player_a", "player_b"]
t = counted_pair_table(200_000, 10_000)
part = pl.concat([counted_pair_table(100_000, 10_000, seed=4),
                  t.sample(100_000, seed=1)]).unique(KEYS, keep="first", maintain_order=True)
size = t.estimated_size()
one = pl.DataFrame({"player": ["x"], "table": ["t"], "bucket": [1]})
rates = pl.DataFrame({"player": ["x"], "multi_n": [1]})

buf = io.BytesIO()
t.write_parquet(buf)


def fresh():  # the total in buffers of its own (a clone shares t's, which would hold them)
    buf.seek(0)
    return pl.read_parquet(buf)


held = [fresh().get_columns()]  # the total held by the list alone, as combine hands it over
add = growth(lambda: A._add_into(held.pop(), part))
held = [A.Partial(table=fresh(), cells=one, rates=rates),
        A.Partial(table=part, cells=one, rates=rates)]
comb = growth(lambda: A.combine(held.pop(0) for _ in range(2)))
print(json.dumps({"add": add, "combine": comb}))
"""


@pytest.fixture(scope="module")
def growth() -> dict[str, float]:
    """Each step's most memory held at once, as a share of the total's size."""
    return measured(_MEASURE)


def test_adding_a_chunk_holds_its_sums_and_no_join_of_the_names(
        growth: dict[str, float]) -> None:
    # the join on the names and the sums in the partials' types: 0.96 of the total's size (now
    # 0.55: the sums, most of them UInt16, and the new pairs)
    assert growth["add"] < 0.75


def test_the_total_is_sorted_column_by_column_not_beside_itself(
        growth: dict[str, float]) -> None:
    # the add, then a sorted copy of the total beside it, twice: 3.73 of the total's size (now
    # 0.76)
    assert growth["combine"] < 1.2


def _tables(seed: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    t = counted_pair_table(3_000, 300, seed=seed)
    part = pl.concat([counted_pair_table(2_000, 300, seed=seed + 1),
                      t.sample(1_500, seed=seed)]).unique(KEYS, keep="first",
                                                          maintain_order=True)
    return t, part


def test_the_sums_are_those_of_the_group_by_in_the_partials_types() -> None:
    t, part = _tables(5)
    want = A._added([t, part])
    assert A._add(t, part).equals(want)  # the same rows in the same order
    narrow = A._add_into(t.get_columns(), part, narrow=True)
    assert narrow.columns == want.columns
    for c in want.columns:
        if want[c].dtype == pl.UInt32:  # counts of fewer than 65,536 hands
            assert narrow[c].dtype == pl.UInt16, c
        assert narrow[c].equals(want[c], check_dtypes=False), c
    one = pl.DataFrame({"player": ["x"], "table": ["t"], "bucket": [1]})
    rates = pl.DataFrame({"player": ["x"], "multi_n": [1]})
    got = A.combine(A.Partial(table=x, cells=one, rates=rates) for x in (t, part, t)).table
    want = A._added([t, part, t]).sort(KEYS)
    assert got.schema == want.schema
    for c in want.columns:  # float sums: the same terms, added in another grouping
        if want[c].dtype.is_float():
            assert np.allclose(got[c].to_numpy(), want[c].to_numpy(), rtol=1e-12, atol=1e-9), c
        else:
            assert got[c].equals(want[c]), c


def test_a_count_past_the_narrow_type_is_widened_before_it_is_summed() -> None:
    t, part = _tables(8)
    # a total kept in UInt16 whose largest count and the chunk's do not fit in it together
    t = t.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(60_000)
                       .otherwise(pl.col("hands")).alias("hands"))
    part = pl.concat([t.head(1), part]).unique(KEYS, keep="first", maintain_order=True)
    part = part.with_columns(pl.lit(9_000, pl.UInt32).alias("hands"))  # row 0: t's first pair
    held = A._add_into(t.get_columns(), part.head(0).vstack(t.head(0)), narrow=True)
    assert held["hands"].dtype == pl.UInt16
    got = A._add_into(held.get_columns(), part, narrow=True)
    assert got["hands"].dtype == pl.UInt32
    assert got["hands"].max() == 69_000
    want = A._added([t, part])
    assert got.cast(want.schema).equals(want)
