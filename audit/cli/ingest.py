"""`poker-audit ingest`: files in through an importer, hands stored or quarantined."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    err,
    open_store,
    progress_bar,
    store_option,
    user_errors,
)
from audit.importers import IMPORTERS
from audit.importers.base import MIB, ReadLimits
from audit.ingest.pipeline import ingest as run_ingest
from audit.ingest.pipeline import input_bytes


def default_workers() -> int:
    """The cores this process may run on: what a large ingest is expected to use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


class FormatChoice(click.Choice):
    """The registered input formats, in any case (PokerStars is pokerstars); an unknown one is
    a one-line error naming them, before anything touches the store."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            raise InputProblem(f"--format {value!r} is not a format; use one of: "
                               f"{', '.join(self.choices)}") from None


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@store_option
@click.option(
    "--format",
    "fmt",
    type=FormatChoice(["auto", *sorted(IMPORTERS)], case_sensitive=False),
    default="auto",
    show_default=True,
    help="Input format: auto (by content), events (Parquet/JSONL/CSV), phh, ohh or a room's "
    "hand histories.",
)
@click.option("--retry-quarantined", is_flag=True,
              help="Read again files already ingested whose hands were quarantined (after an "
              "importer fix); their stored hands count as already stored.")
@click.option("--max-line-mb", type=click.IntRange(min=1), default=4, show_default=True,
              help="Longest line read, in MiB; a longer one is quarantined with its size.")
@click.option("--max-hand-mb", type=click.IntRange(min=1), default=32, show_default=True,
              help="Largest hand read, in MiB; a larger one is quarantined with its size.")
@click.option("--workers", type=click.IntRange(min=1), default=default_workers(),
              show_default="the machine's cores",
              help="Files read and encoded at once, in worker processes; the store, summary "
              "and exit code are the same as with 1 (progress then moves file by file).")
def ingest(paths: tuple[Path, ...], store: Path | None, fmt: str, retry_quarantined: bool,
           max_line_mb: int, max_hand_mb: int, workers: int) -> None:
    """Append hands from files or directories to the store.

    Every hand is either stored or quarantined with its file, line and reason; a hand the
    store holds already (the same events, from an overlapping export) is counted as already
    stored. Identical files already ingested are skipped, unless none of their hands was
    stored (a wrong --format): those are read again. Special files (FIFOs, devices,
    sockets) are not read, nor symlinks in a directory that point out of it. Exit code 1
    when anything was quarantined or refused, 2 when a file could not be read.

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
            summary = run_ingest(paths, target, fmt=fmt, progress=advance, limits=limits,
                                 retry_quarantined=retry_quarantined, workers=workers)
    for f in summary.files:
        if f.error:
            err(f"error: {f.error}" + (" (file quarantined whole)" if f.quarantined else ""))
        elif f.refused:
            err(f"{f.path}: refused, {f.refused}")
        elif f.skipped:
            err(f"{f.path}: skipped, {f.skipped}")
        else:
            already = f", {f.already_stored} already stored" if f.already_stored else ""
            err(f"{f.path}: {f.hands} hands ({f.rows} events) stored{already}, "
                f"{f.quarantined} quarantined [{f.format}]")
        if f.hint:
            err(f"{f.path}: {f.hint}")
    refused = f", {summary.refused} refused" if summary.refused else ""
    still = sum(1 for f in summary.files if f.still_quarantined)
    still_text = f", {still} file(s) skipped still only in quarantine" if still else ""
    err(f"total: {summary.hands} hands stored, {summary.quarantined} quarantined, "
        f"{summary.errors} unreadable file(s){refused}{still_text}; store {target.root}")
    if summary.already_stored:
        err(f"already stored: {summary.already_stored} hands the store holds with the same "
            "events (overlapping exports); not stored again, not quarantined")
    reasons = [r for f in summary.files for r in f.reasons]
    for reason in reasons[:20]:
        err(f"quarantined: {reason}")
    if len(reasons) > 20:
        err(f"... and {len(reasons) - 20} more; every reason is in {target.root}/quarantine/")
    sys.exit(summary.exit_code)
