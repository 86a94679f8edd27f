"""The `poker-audit collusion` click command (loaded by audit/cli/main.py when it runs)."""

from __future__ import annotations

from pathlib import Path

import click

from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    Share,
    format_option,
    open_store,
    store_option,
    user_errors,
)
from audit.cli.output import OutputFormat, render, render_fitted, terminal_width
from audit.collusion.findings import NOTE_COLUMNS, lead_summary, record_collusion
from audit.collusion.scorecard import collusion_scorecard, format_collusion_scorecard
from audit.privacy import PSEUDONYMIZE_HELP, pseudonym_key
from audit.run.runner import resolve_run
from audit.sql.roster import pseudonymize_store_table

NOTES_SHOWN = 20  # single-hand pattern notes listed under the leads (all: `findings`)


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
                   "(per style recall and AUC, precision, false leads per 1,000 players and "
                   "per 100,000 hands, the rank and q-value of every planted team) on stderr.")
@click.option("--pseudonymize", is_flag=True,
              help=PSEUDONYMIZE_HELP + " The findings recorded in the store keep the ids.")
def collusion_command(store: Path | None, run: str, min_hands: int, fdr: float,
                      fmt: str, scorecard: bool, pseudonymize: bool) -> None:
    """Rank collusion leads (soft play, chip dumping, whipsaw, check-downs) for an audit run
    and record them as collusion findings: suspicions with evidence, never verdicts.

    A lead is a player pair the tests name at the false discovery rate, ranked by q-value;
    `hands` is the number of hands the pair played together. Single hands that show a pattern
    (a check-down behind a third player's all-in) are listed apart as notes, never as leads.
    The report's "Collusion leads" section and the notebooks show the same leads and notes.

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
        story = record_collusion(target, run_id, min_hands=min_hands, fdr=fdr)
        if scorecard:
            if not (target.root / "colluders.parquet").exists():
                raise InputProblem(f"--scorecard needs a simulated store: {target.root} has no "
                                   "colluders.parquet (make one with poker-audit simulate "
                                   "--colluders K)")
            card = collusion_scorecard(target.root, run=run_id, min_hands=min_hands, fdr=fdr)
        leads, notes = story.leads, story.notes
        if pseudonymize:
            leads = pseudonymize_store_table(target, leads)
            notes = pseudonymize_store_table(target, notes)
    click.echo(f"run {run_id}: {leads.num_rows} lead(s) at FDR {fdr:g} (pairs with >= "
               f"{min_hands} hands together), ranked by q-value; {notes.num_rows} single-hand "
               "pattern note(s), listed apart; both recorded as findings of the run "
               "(poker-audit findings --category collusion)", err=True)
    if scorecard:
        click.echo(format_collusion_scorecard(card), err=True)
    if OutputFormat(fmt) is not OutputFormat.TABLE:
        click.echo(render(leads, fmt), nl=False)
        return
    click.echo(render(lead_summary(leads), fmt, max_width=terminal_width()), nl=False)
    if notes.num_rows:
        shown = notes.select(list(NOTE_COLUMNS)).slice(0, NOTES_SHOWN)
        click.echo("\nSingle-hand pattern notes (one hand each: not leads)")
        click.echo(render_fitted(shown, terminal_width(), "message"), nl=False)
        if notes.num_rows > NOTES_SHOWN:
            click.echo(f"{notes.num_rows - NOTES_SHOWN} more: poker-audit findings "
                       "--category collusion")
