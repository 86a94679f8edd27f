"""Attack suites for the reliability scorecard: what an adversary tried, and whether it held.

Each suite is a module `audit.devtools.attacks_<topic>` with a function
`attacks(workdir) -> list[Attack]` that runs its cases on stores it builds under `workdir` and
reports each one. `run_attacks`
runs every suite listed in SUITES; `poker-audit bench --reliability` prints one row per suite
and names every case that did not hold.
"""

from __future__ import annotations

import importlib
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# topic -> what its cases attack (the scorecard's row label). Modules are named attacks_<topic>.
SUITES: dict[str, str] = {
    "sql": "SQL writes via query, output paths into the store, BLOBs, odd paths, disk full",
    "store": "store read view and manifest: torn lines, verify mid-commit, read-only, damage",
    "privacy": "real names and quasi-identifiers in --pseudonymize outputs",
    "runs": "audit runs tampered with (runs/: parts, run.json, forged runs)",
    "ingest": "hostile input and special files given to ingest",
    "errors": "killed pooled audits, malformed proofs, hostile CLI arguments",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Attack:
    """One attack tried: `held` is True when the tool refused, detected or survived it."""

    suite: str
    case: str
    held: bool
    detail: str = ""


def run_attacks(workdir: Path | None = None, *, suites: tuple[str, ...] = (),
                echo: Callable[[str], None] = lambda _: None) -> list[Attack]:
    """Every case of every suite (or of `suites`), each suite in a fresh folder of its own."""
    tmp = Path(tempfile.mkdtemp(prefix="poker-audit-attacks-")) if workdir is None else workdir
    results: list[Attack] = []
    try:
        for topic in suites or tuple(SUITES):
            echo(f"attacks: {SUITES[topic]} ...")
            module = importlib.import_module(f"audit.devtools.attacks_{topic}")
            folder = tmp / topic
            folder.mkdir(parents=True, exist_ok=True)
            results.extend(module.attacks(folder))
    finally:
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return results
