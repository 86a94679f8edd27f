"""Test helpers: read a whole file through an importer, and group event rows by hand."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from audit.importers.base import Chunk, Importer, Rejected


def read_all(
    importer: Importer, path: Path, check: Callable[[Chunk], None] | None = None
) -> tuple[list[dict[str, Any]], list[int], list[Rejected]]:
    """Every row, its source line, and every rejected hand of a file (`check` sees each chunk)."""
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    rejected: list[Rejected] = []
    for chunk in importer.read(path):
        assert isinstance(chunk, Chunk)
        if check is not None:
            check(chunk)
        rows += chunk.table.to_pylist()
        lines += chunk.lines
        rejected += chunk.rejected
    return rows, lines, rejected


def by_hand(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Rows grouped by hand id, in file order."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        out[row["hand_id"]].append(row)
    return out
