"""Chunks of event rows built at a small fixed cost, for readers of many small files.

A fast path reads a hand straight into rows of values (`FastHand`: no dict per event); the
`ColumnChunkWriter` collects those hands and the line parser's (`SiteHand`) in file order and
builds each chunk's table with one conversion (`tuples_table`): `events_table(rows)`
(`pa.Table.from_pylist`) converts each of the 13 event columns with its own `pa.array` call,
whose fixed cost dominates a file of a hand or two. The values, their conversion and the
errors are those of `pa.array(column, type=field.type)`, which is what `pa.Table.from_pylist`
does per column: the table equals `events_table` of the same rows, with the same schema; a
chunk with a value that does not fit is checked hand by hand as `ChunkWriter` does.
`read_columns` is `sitetext.read_site_text` with a fast path and this writer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from audit.importers.base import Chunk
from audit.importers.sitetext import ChunkWriter, SiteHand, raw_text, split_blocks
from audit.schema import events_schema

_SCHEMA = events_schema()
_NAMES = tuple(_SCHEMA.names)
_ROW = pa.struct(list(_SCHEMA))


def tuples_table(rows: list[tuple[Any, ...]]) -> pa.Table:
    """An events table of rows given as tuples of the event columns in the schema's order:
    one conversion (`pa.array` of the rows as a struct of the columns, each value converted
    as `pa.array(column, type=field.type)` converts it), so a chunk of a few rows costs
    little; equal to `events_table` of the same rows as dicts."""
    batch = pa.RecordBatch.from_struct_array(pa.array(rows, _ROW))
    return pa.Table.from_batches([batch], schema=_SCHEMA)


class FastHand:
    """A hand read by a fast path, as rows of values (no dict per event): each row is
    (kind, seat, player, amount, total, cards, detail, line, note); the source of a row is
    `source + str(line) + note`; ts and game ride on the first row (hand_started)."""

    __slots__ = ("game", "hand_id", "rows", "source", "table_id", "ts")

    def __init__(self, hand_id: str, table_id: str | None, ts: Any, game: dict[str, Any],
                 rows: list[tuple[Any, ...]], source: str) -> None:
        self.hand_id = hand_id
        self.table_id = table_id
        self.ts = ts
        self.game = game
        self.rows = rows
        self.source = source

    @property
    def lines(self) -> list[int]:
        return [row[7] for row in self.rows]

    def dict_rows(self) -> list[dict[str, Any]]:
        """The rows as `SiteHand.rows` holds them (the values a dict row would carry)."""
        out = []
        for seq, (kind, seat, player, amount, total, cards, detail, line, note) in enumerate(
                self.rows):
            out.append({"hand_id": self.hand_id, "seq": seq, "table_id": self.table_id,
                        "kind": kind, "source": f"{self.source}{line}{note}", "seat": seat,
                        "player": player, "amount": amount, "total": total, "cards": cards,
                        "detail": detail, "ts": self.ts if seq == 0 else None,
                        "game": self.game if seq == 0 else None})
        return out


class ColumnChunkWriter(ChunkWriter):
    """`ChunkWriter` whose chunk is built from row tuples at a small fixed cost
    (`tuples_table`): hands come as a `SiteHand` (the line parser's rows) or a `FastHand`;
    the chunks, their row lines and the rejections are those `ChunkWriter` gives for the same
    hands (a chunk whose values do not fit the schema falls back to `ChunkWriter`'s
    hand-by-hand check, on the dict rows)."""

    def __init__(self, chunk_hands: int, source: str = "") -> None:
        super().__init__(chunk_hands, source)
        self.tuples: list[tuple[Any, ...]] = []
        self.kept_any: list[tuple[Any, str]] = []

    def add(self, hand: SiteHand, raw: str = "") -> None:
        get = dict.get
        self.tuples += [tuple([get(row, name) for name in _NAMES]) for row in hand.rows]
        self.lines.extend(hand.lines)
        self.kept_any.append((hand, raw))
        self.hands += 1

    def add_fast(self, hand: FastHand, raw: str = "") -> None:
        hand_id, table_id, source = hand.hand_id, hand.table_id, hand.source
        tuples = [(hand_id, seq, None, table_id, kind, seat, player, amount, total, cards,
                   detail, None, f"{source}{line}{note}")
                  for seq, (kind, seat, player, amount, total, cards, detail, line, note)
                  in enumerate(hand.rows)]
        first = tuples[0]
        tuples[0] = first[:2] + (hand.ts,) + first[3:11] + (hand.game, first[12])
        self.tuples += tuples
        self.lines += [row[7] for row in hand.rows]
        self.kept_any.append((hand, raw))
        self.hands += 1

    def take(self) -> Chunk:
        try:
            table = tuples_table(self.tuples)
        except (pa.ArrowException, OverflowError, ValueError, TypeError):
            self.kept = [(hand if isinstance(hand, SiteHand) else _AsSiteHand(hand), raw)
                         for hand, raw in self.kept_any]
            table = self._without_unfit_hands()
        chunk = Chunk(table=table, rejected=self.rejected, lines=self.lines)
        self.rows, self.lines, self.rejected, self.kept, self.hands = [], [], [], [], 0
        self.tuples, self.kept_any = [], []
        return chunk

    @property
    def pending(self) -> bool:
        return bool(self.tuples or self.rejected)


class _AsSiteHand(SiteHand):
    """A `FastHand` seen as the `SiteHand` the line parser builds (rows, lines, hand_id)."""

    def __init__(self, hand: FastHand) -> None:  # noqa: D107 - only what the check reads
        self.hand_id = hand.hand_id
        self.rows = hand.dict_rows()
        self.lines = hand.lines


def read_columns(path: Path, *, header: Any, chunk_hands: int, map_hand: Any, hand_id_of: Any,
                 fast_map: Any = None, skip: Any = None) -> Iterator[Chunk]:
    """`sitetext.read_site_text` with the chunk built column-wise, and a fast path:
    `fast_map(block, file name)` gives a `FastHand`, or None to leave the hand to
    `map_hand` (the line parser, which alone quarantines)."""
    out = ColumnChunkWriter(chunk_hands, str(path))
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
        fast = fast_map(block, name) if fast_map is not None else None
        if fast is not None:
            out.add_fast(fast, raw_text(block))
        else:
            hand = out.map_or_reject(block, hand_id_of(block[0][1]), map_hand, block, name)
            if hand is None:
                continue
            out.add(hand, raw_text(block))
        if out.full:
            yield out.take()
    if out.pending:
        yield out.take()
