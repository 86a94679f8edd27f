"""Click commands `report` and `sql-init`, loaded by the `poker-audit` group (audit.cli.main) when
one of them runs.

Imports audit.cli.common, never audit.cli.main, so the group can import this module at any point.
"""

from __future__ import annotations

from pathlib import Path

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    open_store,
    store_option,
    user_errors,
)
from audit.errors import AuditError
from audit.privacy import PSEUDONYMIZE_HELP
from audit.sql.sqlinit import write_database, write_sql_script


@click.command("report", context_settings=CONTEXT_SETTINGS)
@store_option
@click.option("--run", default="latest", show_default=True, help="Audit run id, or latest.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="HTML file to write.")
@click.option("--pseudonymize", is_flag=True,
              help=PSEUDONYMIZE_HELP + " Quarantine reasons and dealer ids become keyed reason- "
              "and dealer- pseudonyms (counts kept); the store path is shown as it is.")
def report_command(store: Path | None, run: str, out: Path, pseudonymize: bool) -> None:
    """Write a self-contained HTML compliance report of an audit run.

    \b
    Example:
        poker-audit report --store ./audit-store --out report.html
        POKER_AUDIT_PSEUDONYM_KEY=... poker-audit report --out report.html --pseudonymize
    """
    # start-up time: the report's charting library costs a second, and sql-init needs none of it
    from audit.report.build import write_report

    s = open_store(store)
    with user_errors():  # a tampered run: exit 1
        write_report(s, out, run, pseudonymize=pseudonymize)
    done = " (player, hand and table ids pseudonymized)" if pseudonymize else ""
    click.echo(f"wrote {out}{done}", err=True)


@click.command("sql-init", context_settings=CONTEXT_SETTINGS)
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@store_option
@click.option("--script", is_flag=True,
              help="Write PATH as a SQL script of the views instead, for a DuckDB client "
              "too old to open a database file of this DuckDB (duckdb -init PATH).")
@click.option("--force", is_flag=True,
              help="Replace PATH whole even if it is not a file sql-init wrote.")
def sql_init_command(path: Path, store: Path | None, script: bool, force: bool) -> None:
    """Write a DuckDB database file holding the store's views (events, hands, findings, ...).

    Open it with DuckDB's CLI, DBeaver or any DuckDB client. The views find the store's
    batches and runs as they are committed, so the file keeps up with ingest and audit.
    Run sql-init again on the same file to refresh the views after an upgrade: tables you
    added stay. Any other existing file is left alone unless --force.

    \b
    Example:
        poker-audit sql-init audit.duckdb --store ./audit-store
        duckdb -readonly audit.duckdb "SELECT rule_id, count(*) FROM latest_findings GROUP BY 1"
        poker-audit sql-init --script views.sql && duckdb -init views.sql
    """
    s = open_store(store)
    try:
        if script:
            write_sql_script(s, path, force=force)
        else:
            result = write_database(s, path, force=force)
    except (AuditError, OSError) as exc:
        problem = InputProblem(str(exc) if isinstance(exc, AuditError) else
                               f"could not write {path}: {exc.strerror or exc}")
        problem.exit_code = getattr(exc, "exit_code", problem.exit_code)  # tampered run: 1
        raise problem from None
    root = s.root.resolve()
    if script:
        click.echo(f"wrote {path}: a SQL script of the views over {root} (duckdb -init {path})",
                   err=True)
        return
    did = "refreshed the views in" if result.refreshed else "wrote"
    click.echo(f"{did} {path}: views over {root}, for DuckDB {result.opens_with} or newer "
               f"(an older client cannot open it: use sql-init --script)", err=True)
