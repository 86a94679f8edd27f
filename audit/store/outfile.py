"""Output files of `report --out`, `export --out`, `prove --out` and `sql-init`: never inside the
store, and never left half-written.

An output path that resolves (symlinks followed) into the store is refused: `--out
STORE/manifest.jsonl` overwrote the hash chain with exit 0. A file is written beside its
destination as `.<name>.tmp` and renamed over it, so a reader never sees half a file and a
hard link to a store file is replaced, not written through; on any failure (a full disk) the
temporary file is removed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from audit.errors import AuditError
from audit.store.dataset import Store


class OutputPathError(AuditError):
    """An output path that would write into the store."""


def check_output_path(store: Store, out: Path | str) -> Path:
    """`out`, refused (OutputPathError) when it is the store or lies inside it once both are
    resolved (a symlink to a store file counts as that file)."""
    out = Path(out)
    root = store.root.resolve()
    target = out.resolve()
    if target == root or root in target.parents:
        raise OutputPathError(
            f"refusing to write {out}: it is inside the store {store.root} (which only "
            "poker-audit ingest and audit change); give an output path outside the store"
        )
    return out


def temporary_name(out: Path) -> Path:
    """Where `out` is written before it is renamed into place."""
    return out.with_name(f".{out.name}.tmp")


@contextlib.contextmanager
def replacing(store: Store, out: Path | str) -> Iterator[Path]:
    """Yield a temporary path beside `out` to write; on success rename it over `out`, on any
    failure remove it (and DuckDB's `.wal` beside it) and re-raise."""
    out = check_output_path(store, out)
    tmp = temporary_name(out)
    leftovers = (tmp, tmp.with_name(tmp.name + ".wal"))
    for path in leftovers:
        path.unlink(missing_ok=True)
    try:
        yield tmp
        os.replace(tmp, out)
    except BaseException:
        for path in leftovers:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        raise


def write_output(store: Store, out: Path | str, text: str) -> Path:
    """Write `text` (UTF-8) to `out` outside the store, whole or not at all."""
    with replacing(store, out) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(out)
