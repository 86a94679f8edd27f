"""The PokerStars importer: sniffs a PokerStars header, then streams a file in chunks of whole
hands, through the vectorised fast path (fast.py) for the hand shapes it knows and the line
parser (reader.py) for every other hand."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from audit.importers.base import Chunk
from audit.importers.pokerstars.reader import (
    _SNIFF,
    CHUNK_HANDS,
    Unread,
    _blocks_in,
    _ChunkBuilder,
    _pieces,
    file_head,
)

__all__ = ["IMPORTER", "REFERENCE_IMPORT_ENV", "PokerStarsImporter", "reference_import_only"]


class PokerStarsImporter:
    """PokerStars hand history text: recognised by content, streamed in chunks of whole hands."""

    name = "pokerstars"

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True) -> None:
        self.chunk_hands = chunk_hands
        self.fast = fast

    def sniff(self, head: bytes, path: Path) -> bool:
        """A `PokerStars Hand|Game|Zoom Hand|Home Game #` header in the first bytes, or the
        header of another room writing PokerStars text (`PokerMaster Hand #`, `Run It Once
        Poker Hand #`, `Full Tilt Hand #`)."""
        del path
        return any(marker in head for marker in _SNIFF)

    def read(self, path: Path, *, stats: dict[str, int] | None = None) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each.

        The vectorised fast path (fast.py) reads the hand shapes it knows and hands every other
        hand to the line parser (reader.py); the chunks are the same either way
        (POKER_AUDIT_REFERENCE_IMPORT=1 reads every hand with the line parser). `stats`, when
        given, counts the `hands` read and the `fast` ones (the benchmark reports the share)."""
        builder = _ChunkBuilder(path, self.chunk_hands)
        if self.fast and not reference_import_only():
            # here, not at the top: the fast path (numpy, polars, a compiled kernel) loads only
            # when a PokerStars file is read, not whenever the importer registry is imported
            from audit.importers.pokerstars.fast import read_fast

            yield from read_fast(path, builder, stats)
            return
        counts = {} if stats is None else stats
        counts.setdefault("hands", 0)
        counts.setdefault("fast", 0)
        head = file_head(path)
        for piece, line, first in _pieces(path, head):
            if isinstance(piece, Unread):
                builder.unread(piece)
                continue
            for is_hand, start, block in _blocks_in(piece, line, first, head):
                counts["hands"] += is_hand
                builder.feed(is_hand, start, block)
                if builder.full:
                    yield builder.take()
        if builder.pending:
            yield builder.take()


REFERENCE_IMPORT_ENV = "POKER_AUDIT_REFERENCE_IMPORT"


def reference_import_only() -> bool:
    return os.environ.get(REFERENCE_IMPORT_ENV, "") not in ("", "0")


IMPORTER = PokerStarsImporter()
