"""Event rows kept as columns, the Arrow table they make, and the read loop of a site-text
reader with a fast path: the fast paths of the small-file site readers (888poker, Winning)
append each event as a tuple of its values instead of building a dict per event, and a
chunk's table is built by one Arrow conversion of the tuples (a struct array whose fields are
the columns) instead of a conversion of each dict; the GGPoker and Winamax fast paths read a
hand whole into a `FastHand` first (`whole_hands`).

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

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from audit.importers.base import Chunk
from audit.importers.sitetext import ChunkWriter, raw_text, split_blocks
from audit.schema import events_schema

_SCHEMA = events_schema()
_TOP = ("hand_id", "seq", "ts", "table_id", "kind", "seat", "player", "amount", "total",
        "cards", "detail", "game", "source")
if tuple(_SCHEMA.names) != _TOP:  # EventColumns.table() places the columns in this order
    raise RuntimeError(f"the events schema's columns changed: {_SCHEMA.names}")
# a row: the schema's columns, then its source line
_ROW_TYPE = pa.struct([*_SCHEMA, pa.field("line", pa.int64())])
_COLUMNS = list(range(len(_TOP)))


class EventColumns:
    """A chunk's events as row tuples in the schema's column order with each row's source
    line last (hand_id, seq, ts, table_id, kind, seat, player, amount, total, cards, detail,
    game, source, line), turned into the chunk's table by one Arrow conversion."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def lines(self) -> list[int]:
        return [r[13] for r in self.rows]

    def add_rows(self, rows: list[dict[str, Any]], lines: list[int]) -> None:
        """A hand's event dicts (as `SiteHand.rows`, missing keys null) and their lines."""
        out = self.rows
        for r, line in zip(rows, lines, strict=True):
            get = r.get
            out.append((get("hand_id"), get("seq"), get("ts"), get("table_id"), get("kind"),
                        get("seat"), get("player"), get("amount"), get("total"), get("cards"),
                        get("detail"), get("game"), get("source"), line))

    def truncate(self, size: int) -> None:
        """Drop the rows from `size` on (a hand given up)."""
        del self.rows[size:]

    def table(self) -> pa.Table:
        """The rows as `events_table` makes them."""
        if not self.rows:
            return _SCHEMA.empty_table()
        packed = pa.RecordBatch.from_struct_array(pa.array(self.rows, type=_ROW_TYPE))
        return pa.Table.from_batches([packed.select(_COLUMNS)]).replace_schema_metadata(
            _SCHEMA.metadata)


# a fast path: (hand lines, file name, columns) -> whether it added the whole hand
FastMap = Callable[[list[tuple[int, str]], str, EventColumns], bool]


class FastHand:
    """A hand a fast path read whole before giving it (GGPoker, Winamax), as rows of values:
    each row is (kind, seat, player, amount, total, cards, detail, line, note); the source of
    a row is `source + str(line) + note`; ts and game ride on the first row (hand_started)."""

    __slots__ = ("game", "hand_id", "rows", "source", "table_id", "ts")

    def __init__(self, hand_id: str, table_id: str | None, ts: Any, game: dict[str, Any],
                 rows: list[tuple[Any, ...]], source: str) -> None:
        self.hand_id = hand_id
        self.table_id = table_id
        self.ts = ts
        self.game = game
        self.rows = rows
        self.source = source

    def add_to(self, cols: EventColumns) -> None:
        hand_id, table_id, source = self.hand_id, self.table_id, self.source
        first = len(cols.rows)
        cols.rows += [(hand_id, seq, None, table_id, kind, seat, player, amount, total, cards,
                       detail, None, f"{source}{line}{note}", line)
                      for seq, (kind, seat, player, amount, total, cards, detail, line, note)
                      in enumerate(self.rows)]
        if len(cols.rows) > first:
            row = cols.rows[first]
            cols.rows[first] = row[:2] + (self.ts,) + row[3:11] + (self.game,) + row[12:]


def whole_hands(fast_map: Callable[[list[tuple[int, str]], str], FastHand | None] | None
                ) -> FastMap:
    """A `FastMap` of a fast path that gives a whole `FastHand` or None (the line parser's
    hand); None: every hand to the line parser."""
    def fast(block: list[tuple[int, str]], name: str, cols: EventColumns) -> bool:
        hand = fast_map(block, name) if fast_map is not None else None
        if hand is None:
            return False
        hand.add_to(cols)
        return True
    return fast


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
