"""One hand's event columns as plain Python lists, sliced cheaply out of an Arrow table."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

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
    present = [c for c in _COLUMNS if c in table.column_names]
    cols: dict[str, list[Any]] = table.select(present).to_pydict()
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
