"""Integer keys for the hands of an event table: the cross-hand checks group, join and sort
hands by these, not by their string ids.

A hand's key is the rank of its id among the table's distinct ids (dense, in the ids' byte
order), so keys are equal exactly when ids are and sort as the ids do: a check keyed on them
finds, pairs and orders the same hands as one keyed on the ids. Rows of a hand are contiguous
(an event file's unit is the hand), so the ids are ranked once per hand, not once per row.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def hand_keys(events: pa.Table) -> pa.Array:
    """Each row's hand key (int64; null where the hand id is null)."""
    ids = events.column("hand_id")
    ids = ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids
    n = len(ids)
    if n == 0:
        return pa.array([], pa.int64())
    if ids.null_count:  # not in the schema: rank every row (nulls rank last, masked below)
        starts = np.arange(n + 1, dtype=np.int64)
    else:
        differs = pc.not_equal(ids.slice(1), ids.slice(0, n - 1))
        change = np.flatnonzero(differs.to_numpy(zero_copy_only=False)) + 1
        starts = np.concatenate(([0], change, [n])).astype(np.int64)
    first = ids.take(pa.array(starts[:-1]))
    rank = pc.rank(first, sort_keys="ascending", tiebreaker="dense").to_numpy()
    keys = np.repeat(rank.astype(np.int64) - 1, np.diff(starts))
    if ids.null_count:
        return pa.array(keys, pa.int64(), mask=ids.is_null().to_numpy(zero_copy_only=False))
    return pa.array(keys, pa.int64())
