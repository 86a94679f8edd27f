"""`poker-audit ingest`: files in through an importer, hands stored or quarantined."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    err,
    open_store,
    progress_bar,
    store_option,
    user_errors,
)
from audit.importers.base import MIB, ReadLimits
from audit.ingest.pipeline import ingest as run_ingest
from audit.ingest.pipeline import input_bytes


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@store_option
@click.option(
    "--format",
    "fmt",
    default="auto",
    show_default=True,
    help="Input format: auto (by content), events (Parquet/JSONL/CSV), phh.",
)
@click.option("--max-line-mb", type=click.IntRange(min=1), default=4, show_default=True,
              help="Longest line read, in MiB; a longer one is quarantined with its size.")
@click.option("--max-hand-mb", type=click.IntRange(min=1), default=32, show_default=True,
              help="Largest hand read, in MiB; a larger one is quarantined with its size.")
def ingest(paths: tuple[Path, ...], store: Path | None, fmt: str, max_line_mb: int,
           max_hand_mb: int) -> None:
    """Append hands from files or directories to the store.

    Every hand is either stored or quarantined with its file, line and reason. Identical
    files already ingested are skipped. Special files (FIFOs, devices, sockets) are not read,
    nor symlinks in a directory that point out of it. Exit code 1 when anything was
    quarantined or refused, 2 when a file could not be read.

    \b
    Example:
        poker-audit ingest hands/*.parquet --store ./audit-store
        poker-audit ingest phh/ --format phh
    """
    target = open_store(store, must_exist=False)
    limits = ReadLimits(line_bytes=max_line_mb * MIB, hand_bytes=max_hand_mb * MIB)
    with user_errors():
        # the bar counts bytes read, inside a large file too (not files)
        with progress_bar(input_bytes(paths), "ingesting") as advance:
            summary = run_ingest(paths, target, fmt=fmt, progress=advance, limits=limits)
    for f in summary.files:
        if f.error:
            err(f"error: {f.error}" + (" (file quarantined whole)" if f.quarantined else ""))
        elif f.refused:
            err(f"{f.path}: refused, {f.refused}")
        elif f.skipped:
            err(f"{f.path}: skipped, {f.skipped}")
        else:
            err(f"{f.path}: {f.hands} hands ({f.rows} events) stored, "
                f"{f.quarantined} quarantined [{f.format}]")
    refused = f", {summary.refused} refused" if summary.refused else ""
    err(f"total: {summary.hands} hands stored, {summary.quarantined} quarantined, "
        f"{summary.errors} unreadable file(s){refused}; store {target.root}")
    reasons = [r for f in summary.files for r in f.reasons]
    for reason in reasons[:20]:
        err(f"quarantined: {reason}")
    if len(reasons) > 20:
        err(f"... and {len(reasons) - 20} more; every reason is in {target.root}/quarantine/")
    sys.exit(summary.exit_code)
