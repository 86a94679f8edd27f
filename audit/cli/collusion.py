"""The `poker-audit collusion` click command (loaded by audit/cli/main.py when it runs)."""

from __future__ import annotations

from pathlib import Path

import click
import pyarrow as pa

from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    Share,
    format_option,
    open_store,
    store_option,
    user_errors,
)
from audit.cli.output import OutputFormat, render
from audit.collusion.findings import collusion_leads, write_collusion_findings
from audit.collusion.scorecard import collusion_scorecard, format_collusion_scorecard
from audit.privacy import PSEUDONYMIZE_HELP, pseudonym_key
from audit.run.runner import resolve_run
from audit.sql.roster import pseudonymize_store_table

_TABLE_COLUMNS = ("rank", "player", "counterparty", "pattern", "score", "q_value", "hands")


@click.command("collusion", context_settings=CONTEXT_SETTINGS)
@store_option
@click.option("--run", "run", default="latest", show_default=True, help="Run id or latest.")
@click.option("--min-hands", type=click.IntRange(min=1), default=100, show_default=True,
              help="Test only pairs that shared at least this many hands.")
@click.option("--fdr", type=Share(0.0, 1.0, min_open=True), default=0.05,
              show_default=True, help="Benjamini–Hochberg false discovery rate for leads.")
@format_option
@click.option("--scorecard", is_flag=True,
              help="Simulated store: also score the leads against its colluders.parquet "
                   "(per style recall and AUC, precision, false leads) on stderr.")
@click.option("--pseudonymize", is_flag=True,
              help=PSEUDONYMIZE_HELP + " The findings recorded in the store keep the ids.")
def collusion_command(store: Path | None, run: str, min_hands: int, fdr: float,
                      fmt: str, scorecard: bool, pseudonymize: bool) -> None:
    """Rank collusion leads (soft play, chip dumping, whipsaw, check-downs) for an audit run
    and record them as collusion findings: suspicions with evidence, never verdicts.

    \b
    Example:
        poker-audit collusion --min-hands 200 --fdr 0.01
        poker-audit collusion --run 20260101T000000000000Z-1a2b3c4d --format json
        poker-audit collusion --store sim-store --scorecard
        POKER_AUDIT_PSEUDONYM_KEY=... poker-audit collusion --pseudonymize --format csv
    """
    target = open_store(store)
    with user_errors():
        if pseudonymize:
            pseudonym_key()  # no key: a usage error before any work or write
        run_id = resolve_run(target, run)
        if run_id is None:
            raise InputProblem(f'no audit run yet: run "poker-audit audit --store '
                               f'{target.root}" first')
        leads = collusion_leads(target, run_id, min_hands=min_hands, fdr=fdr)
        written = write_collusion_findings(target, run_id, leads)
        if scorecard:
            if not (target.root / "colluders.parquet").exists():
                raise InputProblem(f"--scorecard needs a simulated store: {target.root} has no "
                                   "colluders.parquet (make one with poker-audit simulate "
                                   "--colluders K)")
            card = collusion_scorecard(target.root, run=run_id, min_hands=min_hands, fdr=fdr)
        if pseudonymize:
            leads = pseudonymize_store_table(target, leads)
    click.echo(f"run {run_id}: {leads.num_rows} lead(s) at FDR {fdr:g} (pairs with >= "
               f"{min_hands} hands together); {written.num_rows} collusion finding(s) written",
               err=True)
    if scorecard:
        click.echo(format_collusion_scorecard(card), err=True)
    if OutputFormat(fmt) is OutputFormat.TABLE:
        shown = leads.select(list(_TABLE_COLUMNS))
        evidence = [", ".join(h[:3]) for h in leads.column("evidence_hand_ids").to_pylist()]
        shown = shown.append_column("evidence", pa.array(evidence, pa.string()))
        click.echo(render(shown, fmt), nl=False)
    else:
        click.echo(render(leads, fmt), nl=False)
