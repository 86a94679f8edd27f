"""What the compiled-pass tests of every room share: a reader's chunks as comparable values,
and a count of the hands a room's kernel read against the hands it was given."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

import pytest

from audit.importers.base import Chunk
from audit.importers.compiledtext import CompiledRoom, KernelRows


def chunk_values(chunks: Iterable[Chunk]) -> list[Any]:
    """Each chunk as values: schema, rows, row lines and its rejected hands."""
    return [(c.table.schema, c.table.to_pylist(), c.lines,
             [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in c.rejected])
            for c in chunks]


def count_kernel_hands(monkeypatch: pytest.MonkeyPatch, room_module: ModuleType
                       ) -> list[tuple[int, int]]:
    """(hands the kernel read, hands it was given) of each file the room's `ROOM` reads from
    now on (the list fills as files are read)."""
    seen: list[tuple[int, int]] = []
    real = room_module.ROOM

    def rows(lines: Any, first: Any, last: Any, prefix: str) -> KernelRows:
        out = real.rows(lines, first, last, prefix)
        seen.append((int(out.ok.sum()), len(out.ok)))
        return out

    monkeypatch.setattr(room_module, "ROOM", CompiledRoom(real.is_header, rows))
    return seen


def count_own_kernel_hands(monkeypatch: pytest.MonkeyPatch, glue: ModuleType, ok_at: int
                           ) -> list[tuple[int, int]]:
    """As `count_kernel_hands`, for a room whose glue has its own read loop: its `_rows`
    returns a tuple whose item `ok_at` holds, per hand given, whether the kernel read it."""
    seen: list[tuple[int, int]] = []
    real = glue._rows

    def rows(*args: Any) -> Any:
        out = real(*args)
        seen.append((int(out[ok_at].sum()), len(out[ok_at])))
        return out

    monkeypatch.setattr(glue, "_rows", rows)
    return seen
