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
from audit.sql.sqlinit import sql_init


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
def sql_init_command(path: Path, store: Path | None) -> None:
    """Write a DuckDB database file holding the store's views (events, hands, findings, ...).

    Open it with DuckDB's CLI, DBeaver or any DuckDB client. The views read the store's files
    by absolute path as they are now: run sql-init again after ingest or audit.

    \b
    Example:
        poker-audit sql-init audit.duckdb --store ./audit-store
        duckdb -readonly audit.duckdb "SELECT rule_id, count(*) FROM latest_findings GROUP BY 1"
    """
    s = open_store(store)
    try:
        sql_init(s, path)
    except (AuditError, OSError) as exc:
        problem = InputProblem(str(exc))
        problem.exit_code = getattr(exc, "exit_code", problem.exit_code)  # tampered run: 1
        raise problem from None
    click.echo(f"wrote {path}: views over {s.root.resolve()}", err=True)
