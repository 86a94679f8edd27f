"""Importers: one module per source format, each turning input into event tables.

`IMPORTERS` maps a format name to its importer; `detect_format` picks one by content (the
first 64 KiB), never by file name.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from audit.compiled import CompiledModule
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


# format -> the compiled (numba) modules its reader may run: the site's kernel and the shared
# site-text kernel (tests/importers/test_compiled_passes.py holds this to the CompiledModules
# of each reader). Named, not imported: a parent that only hands files to worker processes
# never loads numba.
_TEXT_KERNEL = "audit.importers.textkernel"
COMPILED_PASSES: dict[str, tuple[str, ...]] = {
    "pokerstars": ("audit.importers.pokerstars.kernel",),
    "ggpoker": ("audit.importers.ggpoker_kernel", _TEXT_KERNEL),
    "winamax": ("audit.importers.winamax_kernel", _TEXT_KERNEL),
    "pacific": ("audit.importers.pacific_kernel", _TEXT_KERNEL),
    "bovada": ("audit.importers.bovada_kernel", _TEXT_KERNEL),
    "merge": ("audit.importers.merge_kernel", _TEXT_KERNEL),
    "winning": ("audit.importers.winning_kernel", _TEXT_KERNEL),
}


def compiled_passes(fmt: str) -> list[CompiledModule]:
    """The compiled passes a reader of format `fmt` may run (none for a format without), to
    ask whether a first run will compile them (`CompiledModule.compile_pending`)."""
    return [CompiledModule(name, f"the compiled {fmt} reader", "")
            for name in COMPILED_PASSES.get(fmt, ())]
