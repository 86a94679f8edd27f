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

_NO_CUT = 1 << 16  # a table cell width no label reaches


@click.command("runs", context_settings=CONTEXT_SETTINGS)
@store_option
@format_option
def runs_command(store: Path | None, fmt: str) -> None:
    """List the audit runs: id, time, profile, hands and findings, newest first.

    The first row is the run `--run latest` reads. The table shows the profile last and in
    full (an auto run's label names the profile of every room). `since` names the run an
    incremental run (`audit --since`) builds on; `protected` is false for a run written
    before runs were committed to the hash chain.

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
    if fmt == "table":  # the profile label (an auto run's names every room's) in full, last
        order = [c for c in table.column_names if c != "profile"] + ["profile"]
        click.echo(render(table.select(order), fmt, max_width=_NO_CUT), nl=False)
    else:
        click.echo(render(table, fmt), nl=False)

