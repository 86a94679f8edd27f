"""One hand's event columns as plain Python lists, sliced cheaply out of an Arrow table."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_COLUMNS = ("hand_id", "seq", "ts", "table_id", "kind", "seat", "player", "amount", "total",
            "cards", "detail", "game")


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEvents:
    """The events of ONE hand, column by column (index i of every list is event i)."""

    hand_id: str
    seq: Sequence[int]
    ts: Sequence[Any]
    table_id: Sequence[str | None]
    kind: Sequence[str]
    seat: Sequence[int | None]
    player: Sequence[str | None]
    amount: Sequence[int | None]
    total: Sequence[int | None]
    cards: Sequence[str | None]
    detail: Sequence[str | None]
    game: dict[str, Any]

    def __len__(self) -> int:
        return len(self.kind)


def hand_from_rows(rows: Sequence[dict[str, Any]]) -> HandEvents:
    """A HandEvents from event row dicts of one hand (tests and the text fixture format)."""
    cols: dict[str, list[Any]] = {c: [r.get(c) for r in rows] for c in _COLUMNS}
    return _build(cols, 0, len(rows))


def _build(cols: dict[str, list[Any]], lo: int, hi: int) -> HandEvents:
    game: dict[str, Any] = {}
    kinds = cols["kind"][lo:hi]
    games = cols["game"]
    for i in range(lo, hi):
        g = games[i]
        if g is not None:
            game = g
            break
    return HandEvents(
        hand_id=cols["hand_id"][lo],
        seq=cols["seq"][lo:hi],
        ts=cols["ts"][lo:hi],
        table_id=cols["table_id"][lo:hi],
        kind=kinds,
        seat=cols["seat"][lo:hi],
        player=cols["player"][lo:hi],
        amount=cols["amount"][lo:hi],
        total=cols["total"][lo:hi],
        cards=cols["cards"][lo:hi],
        detail=cols["detail"][lo:hi],
        game=game,
    )


def hands_from_table(table: pa.Table) -> Iterator[HandEvents]:
    """Every hand of an event table, in table order (hands are contiguous, sorted by seq).

    The table is converted to Python once; each hand is a slice of those lists.
    """
    if table.num_rows == 0:
        return
    present = [c for c in _COLUMNS if c in table.column_names and c != "ts"]
    cols: dict[str, list[Any]] = table.select(present).to_pydict()
    if "ts" in table.column_names:
        cols["ts"] = timestamps(table.column("ts"))
    n = table.num_rows
    for c in _COLUMNS:
        if c not in cols:
            cols[c] = [None] * n
    ids = cols["hand_id"]
    lo = 0
    current = ids[0]
    for i in range(1, n):
        hid = ids[i]
        if hid != current:
            yield _build(cols, lo, i)
            lo = i
            current = hid
    yield _build(cols, lo, n)


_MICROS = {"s": 1_000_000, "ms": 1_000, "us": 1}


def timestamps(column: pa.ChunkedArray | pa.Array) -> list[Any]:
    """`column.to_pylist()` for a UTC timestamp column, the same datetimes made once per
    distinct instant (pyarrow makes a zone-aware datetime per row, the reference replay's
    dearest step on a store's events); any other column, or a value out of datetime's
    range, as pyarrow converts it."""
    type_ = column.type
    if not (pa.types.is_timestamp(type_) and type_.tz == "UTC" and type_.unit in _MICROS):
        return column.to_pylist()
    valid = pc.is_valid(column)
    first = pc.index(valid, True).as_py()
    if first < 0:  # every value null (or none at all)
        return column.to_pylist()
    # the zone object pyarrow gives its datetimes, so the values are the very same
    zone = column[first].as_py().tzinfo
    epoch = datetime(1970, 1, 1, tzinfo=zone)
    ticks = pc.fill_null(column.cast(pa.int64()), 0).to_numpy()
    instants, which = np.unique(ticks, return_inverse=True)
    step = _MICROS[type_.unit]
    try:
        made = [epoch + timedelta(microseconds=int(t) * step) for t in instants.tolist()]
    except OverflowError:
        return column.to_pylist()
    out: list[Any] = [made[i] for i in which.tolist()]
    if column.null_count:
        for i in np.flatnonzero(~valid.to_numpy(zero_copy_only=False)).tolist():
            out[i] = None
    return out
