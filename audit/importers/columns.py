"""Event rows kept as columns, the Arrow table they make, and the read loop of a site-text
reader with a fast path: the fast paths of the small-file site readers (888poker, Winning)
append each event's values to column lists instead of building a dict per event, and a
chunk's table is built with a handful of Arrow conversions (strings together, integers
together) instead of one per column and one per game field.

`read_columns` is `sitetext.read_site_text` with a fast path tried first on every hand: a hand
the fast path does not fully understand (it returns False, or raises) is mapped by the
reader's line parser, the single source of truth, exactly as before; the chunks, their
boundaries, their rejections and row lines are the ones `read_site_text` yields.

`EventColumns.table()` is exactly `events_table(rows)` of the same rows (same schema with its
metadata, same values; a game dict's missing keys are nulls, its unknown keys ignored). A
value that does not fit the schema raises as `events_table` does, and the chunk is then made
as `ChunkWriter.take` makes it (the unfit hands quarantined). A chunk's hands are kept (their
lines) until the chunk is yielded, as `ChunkWriter` keeps their raw text: memory follows the
chunk, never the file. tests/importers/test_site_fast_paths.py checks all of this."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from audit.importers.base import Chunk
from audit.importers.sitetext import ChunkWriter, raw_text, split_blocks
from audit.schema import events_schema

_SCHEMA = events_schema()
_GAME_TYPE = _SCHEMA.field("game").type
_TOP = ("hand_id", "seq", "ts", "table_id", "kind", "seat", "player", "amount", "total",
        "cards", "detail", "game", "source")
if tuple(_SCHEMA.names) != _TOP:  # EventColumns.table() places the columns in this order
    raise RuntimeError(f"the events schema's columns changed: {_SCHEMA.names}")
_STRING, _I64, _I32, _I8 = pa.string(), pa.int64(), pa.int32(), pa.int8()
_TS = _SCHEMA.field("ts").type


class EventColumns:
    """A chunk's events as row tuples (hand_id, seq, table_id, kind, seat, player, amount,
    total, cards, detail, source, line), and the `ts` and `game` of the rows that have them
    (by row number), turned into columns when the chunk's table is made."""

    __slots__ = ("games", "rows", "times")

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.times: dict[int, dt.datetime] = {}
        self.games: dict[int, dict[str, Any]] = {}

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def lines(self) -> list[int]:
        return [r[11] for r in self.rows]

    def add_rows(self, rows: list[dict[str, Any]], lines: list[int]) -> None:
        """A hand's event dicts (as `SiteHand.rows`, missing keys null) and their lines."""
        out = self.rows
        for r, line in zip(rows, lines, strict=True):
            get = r.get
            if (ts := get("ts")) is not None:
                self.times[len(out)] = ts
            if (game := get("game")) is not None:
                self.games[len(out)] = game
            out.append((get("hand_id"), get("seq"), get("table_id"), get("kind"), get("seat"),
                        get("player"), get("amount"), get("total"), get("cards"),
                        get("detail"), get("source"), line))

    def truncate(self, size: int) -> None:
        """Drop the rows from `size` on (a hand given up)."""
        del self.rows[size:]
        for sparse in (self.times, self.games):
            for row in [k for k in sparse if k >= size]:
                del sparse[row]

    def table(self) -> pa.Table:
        """The rows as `events_table` makes them."""
        n = len(self.rows)
        if not n:
            return _SCHEMA.empty_table()
        (hand_id, seq, table_id, kind, seat, player, amount, total, cards, detail, source,
         _) = zip(*self.rows, strict=True)
        strings: list[Any] = [*hand_id, *table_id, *kind, *player, *cards, *detail, *source]
        s = pa.array(strings, type=_STRING)
        i = pa.array([*amount, *total], type=_I64)
        i8 = pa.array(seat, type=_I8)
        i32 = pa.array(seq, type=_I32)
        game = _game_column(n, self.games)
        if self.times:
            stamps: list[Any] = [None] * n
            for row, ts in self.times.items():
                stamps[row] = ts
            times = pa.array(stamps, type=_TS)
        else:
            times = pa.nulls(n, _TS)
        return pa.Table.from_batches([pa.RecordBatch.from_arrays(
            [s.slice(0, n), i32, times, s.slice(n, n), s.slice(2 * n, n),
             i8, s.slice(3 * n, n), i.slice(0, n), i.slice(n, n),
             s.slice(4 * n, n), s.slice(5 * n, n), game, s.slice(6 * n, n)],
            schema=_SCHEMA)])


def _game_column(n: int, games: dict[int, dict[str, Any]]) -> pa.Array:
    """The `game` struct column of `n` rows with `games` at their rows, null elsewhere (one
    conversion, as `events_table` converts it)."""
    column: list[Any] = [None] * n
    for row, game in games.items():
        column[row] = game
    return pa.array(column, type=_GAME_TYPE)


# a fast path: (hand lines, file name, columns) -> whether it added the whole hand
FastMap = Callable[[list[tuple[int, str]], str, EventColumns], bool]


def read_columns(path: Path, *, header: Any, chunk_hands: int, fast: FastMap, map_hand: Any,
                 hand_id_of: Any, skip: Any = None) -> Iterator[Chunk]:
    """`read_site_text(path, ...)` with `fast` tried first on each hand."""
    out = ChunkWriter(chunk_hands, str(path))
    cols = EventColumns()
    kept: list[list[tuple[int, str]]] = []  # the chunk's hands, should the table need rows
    name = path.name
    for is_hand, block, unread in split_blocks(path, header, skip):
        first = next(((n, t) for n, t in block if t.strip()), None)
        if first is None:  # blank lines only
            continue
        if unread:
            out.reject(block, unread, hand_id_of(block[0][1]) if is_hand else None)
            continue
        if not is_hand:
            out.reject_outside(block, *first)
            continue
        size = len(cols)
        try:
            done = fast(block, name, cols)
        except Exception:  # noqa: BLE001 - the line parser decides what a hand is
            done = False
        if not done:
            cols.truncate(size)
            hand = out.map_or_reject(block, hand_id_of(block[0][1]), map_hand, block, name)
            if hand is None:
                continue
            cols.add_rows(hand.rows, hand.lines)
        kept.append(block)
        if len(kept) >= chunk_hands:
            yield _take(out, cols, kept, map_hand, hand_id_of, name)
            cols, kept = EventColumns(), []
    if kept or out.rejected:
        yield _take(out, cols, kept, map_hand, hand_id_of, name)


def _take(out: ChunkWriter, cols: EventColumns, kept: list[list[tuple[int, str]]],
          map_hand: Any, hand_id_of: Any, name: str) -> Chunk:
    """The chunk of `cols` and the rejections so far; when a value does not fit the schema,
    the chunk `ChunkWriter.take` makes of the same hands mapped by the line parser (the
    unfit hands quarantined after the others)."""
    try:
        table = cols.table()
    except (pa.ArrowException, OverflowError, ValueError, TypeError):
        for block in kept:
            hand = out.map_or_reject(block, hand_id_of(block[0][1]), map_hand, block, name)
            if hand is not None:
                out.add(hand, raw_text(block))
        return out.take()
    chunk = Chunk(table=table, rejected=out.rejected, lines=cols.lines)
    out.rejected = []
    return chunk
