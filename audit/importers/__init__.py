"""Importers: one module per source format, each turning input into event tables.

`IMPORTERS` maps a format name to its importer; `detect_format` picks one by content (the
first 64 KiB), never by file name.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from audit.errors import AuditInputError
from audit.importers.base import Importer
from audit.importers.events import NativeEventsImporter

# Site and interchange formats, in sniffing order (module paths under audit.importers). Each
# module defines `IMPORTER`.
FORMAT_MODULES = ("phh", "pokerstars.importer", "fulltilt", "partypoker", "pacific", "ggpoker",
                  "ipoker", "bovada", "merge", "winamax", "winning", "ohh")


def _registry() -> dict[str, Importer]:
    importers: dict[str, Importer] = {"events": NativeEventsImporter()}
    for name in FORMAT_MODULES:
        try:
            module = importlib.import_module(f"audit.importers.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"audit.importers.{name}":
                raise
            continue  # a format not built yet
        importer: Importer = module.IMPORTER
        importers[importer.name] = importer
    return importers


IMPORTERS: dict[str, Importer] = _registry()


def get_importer(name: str) -> Importer:
    try:
        return IMPORTERS[name]
    except KeyError:
        raise AuditInputError(
            f"unknown format {name!r}; use one of: auto, {', '.join(sorted(IMPORTERS))}"
        ) from None


def detect_format(path: Path) -> str:
    """The format of a file, judged by its content."""
    with path.open("rb") as f:
        head = f.read(64 * 1024)
    for name, importer in IMPORTERS.items():
        if importer.sniff(head, path):
            return name
    raise AuditInputError(
        f"{path}: cannot tell the format from its content; pass --format "
        f"({', '.join(sorted(IMPORTERS))})"
    )
