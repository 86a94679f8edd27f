"""Audit runs: `audit` (replay every stored hand under a profile), `findings` (what a run found)
and `replay` (one hand's timeline)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from audit.cli.output import OutputFormat, render, render_fitted, terminal_width
from audit.privacy import PSEUDONYMIZE_HELP
from audit.report.timeline import hand_timeline
from audit.rules.profiles import is_profile_file
from audit.rules.registry import Category, Severity
from audit.run.runner import audit_store, read_findings, resolve_run
from audit.run.selection import FindingSelection, check_rule_id, select_findings
from audit.run.summary import format_summary
from audit.run.summary_doc import summary_document
from audit.sql.hand_ids import resolve_hand_id
from audit.sql.roster import pseudonymize_store_table
from audit.store.runs import run_unprotected

SEVERITIES = ["info", "warning", "violation", "critical"]


def profile_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--profile", default="auto", show_default=True,
        help="Rule profile (schemas/profiles): auto judges each hand by its room's house "
        "rules (pokerstars, fulltilt, partypoker, ipoker, ggpoker, winamax, pacific, winning, "
        "bovada, merge) and by montana where we have none; or one profile for every hand: "
        "montana, uspa-2004, private, rr-fragment, rrv11-online, or a room's, or your own "
        "profile file (house.toml); add overlays with +, e.g. montana+ca-lowball.",
    )(f)


def split_profile(profile: str) -> tuple[str, list[str]]:
    """(base profile, overlays) of a --profile value `NAME[+OVERLAY...]`; NAME may be a
    profile file (`house.toml`), read by its absolute path (worker processes read it too); a
    file whose path holds '+' is taken whole (the longest prefix that is a file)."""
    parts = profile.split("+")
    name, overlays = parts[0], parts[1:]
    for end in range(len(parts), 1, -1):
        candidate = "+".join(parts[:end])
        if is_profile_file(candidate) and Path(candidate).expanduser().is_file():
            name, overlays = candidate, parts[end:]
            break
    if not name:
        raise InputProblem(
            f"--profile {profile}: an overlay only changes a base profile; name the base "
            f"first, e.g. --profile montana+{overlays[0] if overlays else 'tournament'}")
    if any(not o for o in overlays):
        raise InputProblem(f"--profile {profile}: nothing between '+' signs or after the "
                           "last one; write NAME+OVERLAY, e.g. montana+tournament")
    if is_profile_file(name):
        name = str(Path(name).expanduser().resolve())
    return name, overlays


@click.command(context_settings=CONTEXT_SETTINGS)
@store_option
@profile_option
@click.option(
    "--fail-on", type=click.Choice(SEVERITIES), default="violation", show_default=True,
    help="Exit 1 when a finding is at or above this severity.",
)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Replay event files in this many processes (same findings for any N).")
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Run on a Dask distributed cluster, e.g. tcp://10.0.0.5:8786 (needs the "
              "dask extra; workers must see the store at the same path).")
@click.option("--since", default=None, metavar="RUN",
              help="Incremental: audit only the batches committed after this run (a run id or "
              "latest); findings of the two read as one.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="The summary as text, or as one JSON document on stdout (progress and "
              "notes stay on stderr); the exit code is the same.")
def audit(store: Path | None, profile: str, fail_on: str, workers: int,
          scheduler: str | None, since: str | None, fmt: str) -> None:
    """Replay every stored hand under a rule profile and record the findings as a run.

    Writes runs/<run_id>/findings/, hands/, hand_players/ (a part file per event file) and
    run.json, and prints a summary by severity, category and rule id.

    \b
    Example:
        poker-audit audit --store ./audit-store --profile montana --fail-on violation
        poker-audit audit --workers 2
        poker-audit audit --scheduler tcp://scheduler.example:8786
        poker-audit audit --since latest      # only what was ingested since the last run
        poker-audit audit --format json > run-summary.json
        poker-audit findings --rule BET-NL-MIN-RAISE
    """
    target = open_store(store)
    name, overlays = split_profile(profile)
    with user_errors():
        files = len(target.event_files())
        if sys.stderr.isatty() and files > 1:
            with click.progressbar(length=files, label="auditing", file=sys.stderr) as bar:
                summary = audit_store(target, profile=name, overlays=overlays,
                                      workers=workers, scheduler=scheduler,
                                      progress=bar.update, since=since)
        else:
            summary = audit_store(target, profile=name, overlays=overlays, workers=workers,
                                  scheduler=scheduler, since=since)
    if fmt == "json":
        click.echo(json.dumps(summary_document(summary, fail_on), indent=2))
    else:
        click.echo(format_summary(summary))
    sys.exit(1 if summary.flagged(fail_on) else 0)


# What `findings` shows in a terminal (fitted to its width, the message wrapped); --wide and
# --format csv|json show every column of schemas/findings.json.
FINDING_COLUMNS = ("hand_id", "seq", "rule_id", "severity", "player", "counterparty", "delta",
                   "message")


@click.command(context_settings=CONTEXT_SETTINGS)
@store_option
@click.option("--run", "run", default="latest", show_default=True, help="Run id or latest.")
@click.option("--rule", default=None,
              help="Only findings of this rule id (an unknown id: an error naming the closest).")
@click.option("--severity", type=click.Choice(SEVERITIES), default=None,
              help="Only findings at least this severe (warning: warning, violation, critical).")
@click.option("--category", type=click.Choice([c.value for c in Category]), default=None,
              help="Only findings of this category.")
@click.option("--hand", "hand", default=None, metavar="HAND_ID",
              help="Only the findings of this hand (e.g. ps:47656382023).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Show the first N findings (worst first, then by hand).")
@click.option("--wide", is_flag=True,
              help="Table: every column, each finding on one line, nothing cut or wrapped "
                   "(default: the columns that matter, fitted to the terminal, the message "
                   "wrapped).")
@format_option
@click.option("--pseudonymize", is_flag=True, help=PSEUDONYMIZE_HELP)
def findings(store: Path | None, run: str, rule: str | None, severity: str | None,
             category: str | None, hand: str | None, limit: int | None, wide: bool, fmt: str,
             pseudonymize: bool) -> None:
    """Print the findings of an audit run, worst first (critical, violation, warning, info),
    then by hand. A run's collusion leads (no hand) and single-hand pattern notes are among
    them once `poker-audit collusion` has run.

    \b
    Example:
        poker-audit findings --severity violation --limit 20
        poker-audit findings --category collusion
        poker-audit findings --hand ps:47656382023
        poker-audit findings --rule BET-NL-MIN-RAISE --format csv
        POKER_AUDIT_PSEUDONYM_KEY=... poker-audit findings --pseudonymize --format csv
    """
    target = open_store(store)
    with user_errors():
        table = read_findings(target, run)
        if rule is not None:
            check_rule_id(rule, table.column("rule_id").to_pylist())
        table = select_findings(table, FindingSelection(
            rule=rule, severity=Severity(severity) if severity else None,
            category=Category(category) if category else None, hand=hand, limit=limit))
        if pseudonymize:
            table = pseudonymize_store_table(target, table)
        run_id = resolve_run(target, run)
        if run_id is None:
            err("no audit run yet: findings appear after 'poker-audit audit'")
        elif run_unprotected(target, run_id):
            err(f"note: audit run {run_id} was written before runs were committed to the "
                "chain, so it is not protected; run `poker-audit audit` to make a protected run")
    if OutputFormat(fmt) is not OutputFormat.TABLE:
        click.echo(render(table, fmt), nl=False)
    elif wide:
        click.echo(render(table, fmt, max_width=sys.maxsize), nl=False)
    else:
        shown = table.select(list(FINDING_COLUMNS))
        click.echo(render_fitted(shown, terminal_width(), "message"), nl=False)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("hand_id")
@store_option
@profile_option
def replay(hand_id: str, store: Path | None, profile: str) -> None:
    """Show one hand's timeline: each event with the pot and stacks after it, findings inline.

    HAND_ID is a stored hand id or the room's own hand number (47656382023 for
    ps:47656382023); a number several rooms share is an error listing the matching ids.
    Below the timeline, what the latest audit run found over this hand and the table's other
    hands (button movement, missed blinds, kills) and the collusion leads that cite it.

    \b
    Example:
        poker-audit replay phh:pokerstars:61364517354
        poker-audit replay 47656382023
    """
    target = open_store(store)
    name, overlays = split_profile(profile)
    with user_errors():
        if overlays:
            raise InputProblem("replay takes a profile name without overlays")
        text = hand_timeline(target, resolve_hand_id(target, hand_id), name)
    click.echo(text, nl=False)
