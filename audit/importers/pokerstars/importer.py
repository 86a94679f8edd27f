"""The PokerStars importer: sniffs a PokerStars header, then streams a file in chunks of whole
hands, through the vectorised fast path (fast.py) for the hand shapes it knows and the line
parser (reader.py) for every other hand."""

from __future__ import annotations

import os
import tempfile
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
        if any(marker in head for marker in _SNIFF):
            return True
        return b"\x00" in head[:64] and any(  # UTF-16 text
            marker.decode().encode(code) in head for marker in _SNIFF
            for code in ("utf-16-le", "utf-16-be"))

    def read(self, path: Path, *, stats: dict[str, int] | None = None) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each.

        The vectorised fast path (fast.py) reads the hand shapes it knows and hands every other
        hand to the line parser (reader.py); the chunks are the same either way
        (POKER_AUDIT_REFERENCE_IMPORT=1 reads every hand with the line parser). `stats`, when
        given, counts the `hands` read and the `fast` ones (the benchmark reports the share)."""
        builder = _ChunkBuilder(path, self.chunk_hands)
        copy = _utf8_copy(path)  # a UTF-16 file is read from a UTF-8 copy (same lines)
        try:
            yield from self._read(copy or path, builder, stats)
        finally:
            if copy is not None:
                copy.unlink(missing_ok=True)

    def _read(self, path: Path, builder: _ChunkBuilder, stats: dict[str, int] | None
              ) -> Iterator[Chunk]:
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


def _utf8_copy(path: Path) -> Path | None:
    """A UTF-8 copy (a temporary file) of a UTF-16 file, None for any other: UTF-16 is told by
    its byte-order mark, or without one by NUL bytes in every other place of the first line.
    A stray odd byte at the end is dropped; undecodable units become U+FFFD."""
    with path.open("rb") as f:
        head = f.read(256)
    if head[:2] == b"\xff\xfe":
        code = "utf-16-le"
    elif head[:2] == b"\xfe\xff":
        code = "utf-16-be"
    elif len(head) >= 16 and head[1:16:2] == bytes(8) and head[0] != 0:
        code = "utf-16-le"
    elif len(head) >= 16 and head[0:16:2] == bytes(8) and head[1] != 0:
        code = "utf-16-be"
    else:
        return None
    data = path.read_bytes()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        data = data[2:]
    if len(data) % 2:
        data = data[:-1]
    text = data.decode(code, errors="replace")
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as out:
        out.write(text.encode("utf-8"))
    return Path(out.name)


REFERENCE_IMPORT_ENV = "POKER_AUDIT_REFERENCE_IMPORT"


def reference_import_only() -> bool:
    return os.environ.get(REFERENCE_IMPORT_ENV, "") not in ("", "0")


IMPORTER = PokerStarsImporter()
