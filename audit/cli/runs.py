"""`poker-audit runs`: the store's audit runs, newest first."""

from __future__ import annotations

from pathlib import Path

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    err,
    format_option,
    open_store,
    store_option,
    user_errors,
)
from audit.cli.output import render
from audit.run.listing import list_runs


@click.command("runs", context_settings=CONTEXT_SETTINGS)
@store_option
@format_option
def runs_command(store: Path | None, fmt: str) -> None:
    """List the audit runs: id, time, profile, hands and findings, newest first.

    The first row is the run `--run latest` reads. `since` names the run an incremental run
    (`audit --since`) builds on; `protected` is false for a run written before runs were
    committed to the hash chain.

    \b
    Example:
        poker-audit runs --store ./audit-store
        poker-audit findings --run 20261129T021106434493Z-841c949b
    """
    target = open_store(store)
    with user_errors():
        table = list_runs(target)
    if not table.num_rows:
        err("no audit run yet: runs appear after 'poker-audit audit'")
    click.echo(render(table, fmt), nl=False)
