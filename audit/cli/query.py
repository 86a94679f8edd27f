"""Reading the store with SQL: `query` (read-only DuckDB over the views) and `export` (stored
hands as OHH or PHH)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    err,
    format_option,
    open_store,
    store_option,
    user_errors,
)
from audit.cli.output import OutputFormat, render
from audit.export import export_each
from audit.privacy import PSEUDONYMIZE_HELP
from audit.sql.query import copy_query, stream_query
from audit.sql.query import query as run_query
from audit.sql.roster import pseudonymize_store_table
from audit.store.outfile import replacing, write_output


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("sql")
@store_option
@format_option
@click.option(
    "-p", "--param", "params", nargs=2, multiple=True, metavar="NAME VALUE",
    help="Bind a named parameter ($NAME in the SQL). Repeatable.",
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the rows (csv, json or jsonl) to this file instead of stdout.")
def query(sql: str, store: Path | None, fmt: str, params: tuple[tuple[str, str], ...],
          out: Path | None) -> None:
    """Run a read-only SQL query over the store's DuckDB views.

    Views: events, hands_started, findings, latest_findings, runs, hands, hand_players.
    Use - to read the SQL from stdin. Parameters are bound, never formatted into the SQL.
    csv, json (one array) and jsonl (one object per line) are written by DuckDB as the rows
    come, for any number of rows; table is for reading in a terminal.

    \b
    Example:
        poker-audit query "SELECT variant, count(*) FROM hands_started GROUP BY 1"
        poker-audit query "SELECT * FROM events WHERE hand_id = \\$h" -p h ps:123 --format json
        poker-audit query "SELECT * FROM events" --format jsonl --out events.jsonl
    """
    if sql == "-":
        sql = sys.stdin.read()
    target = open_store(store)
    bound = dict(params) if params else None
    if fmt == OutputFormat.TABLE:
        if out is not None:
            raise InputProblem("--out writes csv, json or jsonl: add --format csv (or json, "
                               "jsonl), or leave out --out to see a table")
        with user_errors():
            table = run_query(target, sql, bound)
        click.echo(render(table, fmt), nl=False)
        return
    with user_errors():
        if out is not None:
            with replacing(target, out) as tmp:
                copy_query(target, sql, bound, fmt, tmp)
            err(f"wrote {out}")
            return
        sys.stdout.flush()
        stdout = sys.stdout.buffer
        try:
            stream_query(target, sql, bound, fmt, stdout)
            stdout.flush()
        except BrokenPipeError:  # the reader stopped (| head): not an error
            sys.stderr.close()  # nothing more to say; keep Python quiet at exit


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("hand_ids", nargs=-1, required=True)
@store_option
@click.option("--format", "fmt", type=click.Choice(["ohh", "phh"]), required=True,
              help="Open Hand History (one JSON object per line) or PHH (.phhs).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")
@click.option("--pseudonymize", is_flag=True,
              help=PSEUDONYMIZE_HELP + " Each event's source (file and line) is left out.")
def export(hand_ids: tuple[str, ...], store: Path | None, fmt: str, out: Path | None,
           pseudonymize: bool) -> None:
    """Export stored hands for interchange with other tools, in OHH or PHH.

    A hand the format cannot hold (a game it has no code for, a deal it cannot record) is
    skipped with a line on stderr saying why; the rest are written and the exit code is 1.

    \b
    Example:
        poker-audit export ps:35824123646 ps:35824138453 --format ohh > hands.ohh
        poker-audit export phh:pokerstars:61364517354 --format phh --out hand.phhs
    """
    target = open_store(store)
    with user_errors():
        table = run_query(
            target,
            "SELECT * FROM events WHERE list_contains($ids, hand_id) "
            "ORDER BY list_position($ids, hand_id), seq",
            {"ids": list(hand_ids)},
        )
        found = set(table.column("hand_id").to_pylist())
        missing = [h for h in hand_ids if h not in found]
        if missing:
            raise InputProblem(f"not in {target.root}: {', '.join(map(repr, missing))}; list "
                               'hand ids with "poker-audit query \\"SELECT hand_id FROM '
                               'hands_started\\""')
        if pseudonymize:
            table = pseudonymize_store_table(target, table)
        done = export_each(table, fmt)
    for skip in done.skipped:
        err(f"skipped {skip.hand_id}: {skip.reason}")
    if out:
        with user_errors():
            write_output(target, out, done.text)
        err(f"{done.written} hand(s) written to {out}")
    else:
        click.echo(done.text, nl=False)
    if done.skipped:
        err(f"{len(done.skipped)} hand(s) skipped: {fmt.upper()} cannot hold them (above); "
            f"{done.written} written")
        sys.exit(1)
