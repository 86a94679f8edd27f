"""The `poker-audit` command line: a thin click layer over the audit library.

Data goes to stdout, progress and messages to stderr. Exit codes: 0 clean; 1 completed but
flagged (quarantined input, failed verification, findings at or above --fail-on); 2 usage
error or unreadable input.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from audit import __version__
from audit.cli.common import (
    CONTEXT_SETTINGS,
    InputProblem,
    err,
    format_option,
    open_store,
    store_option,
    user_errors,
)
from audit.cli.output import render
from audit.privacy import PSEUDONYMIZE_HELP
from audit.store.outfile import write_output


def _is_sha256_hex(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)


# errors that more space or other permissions cure (the rest point at verify)
_RESOURCE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES,
                              errno.EPERM, errno.EFBIG, errno.EMFILE, errno.ENFILE})


class AuditGroup(click.Group):
    """Turns an operating-system error no command anticipated (disk full, read-only file
    system, permission denied) into a clear message and exit code 2 instead of a traceback.
    Store writes are atomic, so whatever the command had not committed is simply not there."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            where = f" ({exc.filename})" if exc.filename else ""
            if exc.strerror is None:  # e.g. Arrow's, whose text spans lines
                exc.strerror = " ".join(str(exc).split())[:300]
            if exc.errno in _RESOURCE_ERRNOS:
                raise InputProblem(
                    f"{exc.strerror or exc}{where}: the command stopped and committed nothing "
                    f"partial; {next_step_for(exc)}, then run it again"
                ) from None
            # not space or permissions: a file the store lists is gone or unreadable, or
            # the input is; verify names every damaged store file
            raise InputProblem(
                f"{exc.strerror or exc}{where}: the command stopped and committed nothing "
                f"partial; {next_step_for(exc)}; if the file belongs to the store, run "
                "`poker-audit verify`"
            ) from None


def next_step_for(exc: OSError) -> str:
    """What to do about an operating-system error: the advice that fits its cause."""
    import errno

    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free disk space"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "fix permissions or choose a writable location"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG):
        return "check the path"
    if exc.errno == errno.EFBIG:
        return "free disk space or raise the file size limit"
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return "raise the open-file limit (ulimit -n)"
    return "fix the cause"


@click.group(cls=AuditGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="poker-audit")
def main() -> None:
    """Audit poker hand histories: store hands as append-only events, replay them under the
    rulebook, and report what went wrong."""


@main.command()
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
    from audit.importers.base import MIB, ReadLimits
    from audit.ingest.pipeline import expand_paths
    from audit.ingest.pipeline import ingest as run_ingest

    target = open_store(store, must_exist=False)
    limits = ReadLimits(line_bytes=max_line_mb * MIB, hand_bytes=max_hand_mb * MIB)
    with user_errors():
        files = expand_paths(list(paths))
        if sys.stderr.isatty() and len(files) > 1:
            with click.progressbar(length=len(files), label="ingesting", file=sys.stderr) as bar:
                summary = run_ingest(paths, target, fmt=fmt, progress=bar.update,
                                     limits=limits)
        else:
            summary = run_ingest(paths, target, fmt=fmt, limits=limits)
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


@main.command()
@store_option
@click.option("--head", default=None, metavar="HASH",
              help="A chain head published earlier (verify prints it): fail if the chain "
              "does not hold it, as after a rollback.")
def verify(store: Path | None, head: str | None) -> None:
    """Check the store's integrity: every file hash and the manifest hash chain.

    Names each modified, missing or unlisted file. Exit code 1 on any problem. Publish the
    chain head it prints (somewhere the store's owner cannot rewrite): removing the newest
    batches, record and files, leaves nothing inside the store to contradict, and only
    `--head` with a head published before exposes it.

    \b
    Example:
        poker-audit verify --store ./audit-store
        poker-audit verify --store ./audit-store --head 2b05decf...
    """
    if head is not None and not _is_sha256_hex(head):
        raise InputProblem(f"--head {head!r} is not a chain head (64 hex digits); use the "
                           "head a `poker-audit verify` printed")
    target = open_store(store)
    report = target.verify(head=head.lower() if head else None)
    for p in report.problems:
        click.echo(f"{p.kind.upper()}: {p.path}: {p.detail}")
    for run_id in report.unprotected:  # not a problem: nothing protected them to check
        click.echo(f"UNPROTECTED: runs/{run_id}: audit run written before runs were committed "
                   "to the chain; verify cannot check it (run `poker-audit audit` to make a "
                   "protected run)")
    status = "OK" if report.ok else f"FAILED ({len(report.problems)} problem(s))"
    click.echo(
        f"{status}: {report.batches} batches, {report.files} files, {report.hands} hands, "
        f"{report.rows} events; chain head {report.head}"
    )
    if report.ok and head:
        err(f"the chain holds the published head {head.lower()}")
    elif report.ok:
        err(f"publish the chain head where the store's owner cannot change it; later "
            f"`poker-audit verify --head {report.head}` fails if the store was rolled back")
    sys.exit(0 if report.ok else 1)


@main.command()
@click.argument("hand_id")
@store_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the proof here instead of stdout.")
def prove(hand_id: str, store: Path | None, out: Path | None) -> None:
    """Print an inclusion proof that a hand's events are in a committed batch.

    The proof carries the hand's events, their Merkle leaf, the audit path to the batch
    root, the batch's manifest record and a digest per later record up to the chain head;
    anyone can check it with verify-proof. Its size goes to stderr.

    \b
    Example:
        poker-audit prove ps:35824123646 --out proof.json
        poker-audit verify-proof proof.json --head <published chain head>
    """
    from audit.store.proof import build_proof, dumps, proof_size

    target = open_store(store)
    with user_errors():
        proof = build_proof(target, hand_id)
    text = dumps(proof) + "\n"
    size = proof_size(proof)
    if out:
        with user_errors():
            write_output(target, out, text)
        err(f"proof written to {out}")
    else:
        click.echo(text, nl=False)
    err(f"proof of {hand_id}: {size['hashes']} hashes, {size['bytes_without_events']:,} bytes "
        f"without the hand's events ({size['bytes']:,} with them); chain head "
        f"{proof['chain']['head']}")


@main.command("verify-proof")
@click.argument("proof_file", type=click.Path(allow_dash=True, path_type=Path))
@click.option("--store", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also check the proof's head and batch against this store's manifest.")
@click.option("--head", default=None, metavar="HASH",
              help="A chain head you trust (published elsewhere); the proof must end in it.")
def verify_proof(proof_file: Path, store: Path | None, head: str | None) -> None:
    """Check an inclusion proof made by prove, using only what the proof carries.

    Recomputes the hand's leaf from its events, the batch root from the audit path, the
    manifest record's hash and the chain up to the head. With --head or --store, the head
    must also be one you trust or this store committed. Exit code 1 when a check fails, 2
    when the file cannot be read or is not shaped like a proof.

    \b
    Example:
        poker-audit verify-proof proof.json --head 2b05decf...
        poker-audit verify-proof proof.json --store ./audit-store
    """
    from audit.store.proof import check_proof
    from audit.store.proof_format import MAX_PROOF_BYTES, parse_proof, printable, read_proof

    with user_errors():
        if str(proof_file) == "-":
            proof = parse_proof(sys.stdin.buffer.read(MAX_PROOF_BYTES + 1), "stdin")
        else:
            proof = read_proof(proof_file)
        target = open_store(store) if store else None
        check = check_proof(proof, store=target, head=head)
    if not check.ok:  # every failed step, on one line
        click.echo(printable(f"FAILED: {'; '.join(check.problems)}"))
    else:
        anchor = ("; it is the head you trust" if head else
                  f"; {target.root} committed it" if target else
                  "; compare that head with one published by the store's owner (--head)")
        click.echo(printable(f"OK: hand {check.hand_id} is in batch {check.batch_id} under "
                             f"chain head {check.head} ({check.hashes} hashes){anchor}"))
    sys.exit(0 if check.ok else 1)


@main.command()
@click.argument("sql")
@store_option
@format_option
@click.option(
    "-p", "--param", "params", nargs=2, multiple=True, metavar="NAME VALUE",
    help="Bind a named parameter ($NAME in the SQL). Repeatable.",
)
def query(sql: str, store: Path | None, fmt: str, params: tuple[tuple[str, str], ...]) -> None:
    """Run a read-only SQL query over the store's DuckDB views.

    Views: events, hands_started, findings, latest_findings, runs, hands, hand_players.
    Use - to read the SQL from stdin. Parameters are bound, never formatted into the SQL.

    \b
    Example:
        poker-audit query "SELECT variant, count(*) FROM hands_started GROUP BY 1"
        poker-audit query "SELECT * FROM events WHERE hand_id = \\$h" -p h ps:123 --format json
    """
    from audit.sql.query import query as run_query

    if sql == "-":
        sql = sys.stdin.read()
    target = open_store(store)
    with user_errors():
        table = run_query(target, sql, dict(params) if params else None)
    click.echo(render(table, fmt), nl=False)


@main.command()
@store_option
@click.option("--run", "run", default="latest", show_default=True, help="Run id or latest.")
@click.option("--rule", default=None, help="Only findings of this rule id.")
@format_option
@click.option("--pseudonymize", is_flag=True, help=PSEUDONYMIZE_HELP)
def findings(store: Path | None, run: str, rule: str | None, fmt: str,
             pseudonymize: bool) -> None:
    """Print the findings of an audit run.

    \b
    Example:
        poker-audit findings --rule BET-NL-MIN-RAISE --format csv
        POKER_AUDIT_PSEUDONYM_KEY=... poker-audit findings --pseudonymize --format csv
    """
    from audit.run.runner import read_findings, resolve_run
    from audit.store.runs import run_unprotected

    target = open_store(store)
    with user_errors():
        table = read_findings(target, run, rule)
        if pseudonymize:
            from audit.sql.roster import pseudonymize_store_table

            table = pseudonymize_store_table(target, table)
        run_id = resolve_run(target, run)
        if run_id is None:
            err("no audit run yet: findings appear after 'poker-audit audit'")
        elif run_unprotected(target, run_id):
            err(f"note: audit run {run_id} was written before runs were committed to the "
                "chain, so it is not protected; run `poker-audit audit` to make a protected run")
    click.echo(render(table, fmt), nl=False)


SEVERITIES = ["info", "warning", "violation", "critical"]


def profile_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--profile", default="montana", show_default=True,
        help="Rule profile (schemas/profiles): montana, uspa-2004, private, rr-fragment, "
        "rrv11-online; add overlays with +, e.g. montana+ca-lowball.",
    )(f)


def split_profile(profile: str) -> tuple[str, list[str]]:
    name, *overlays = profile.split("+")
    return name, overlays


@main.command()
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
def audit(store: Path | None, profile: str, fail_on: str, workers: int,
          scheduler: str | None, since: str | None) -> None:
    """Replay every stored hand under a rule profile and record the findings as a run.

    Writes runs/<run_id>/findings/, hands/, hand_players/ (a part file per event file) and
    run.json, and prints a summary by severity, category and rule id.

    \b
    Example:
        poker-audit audit --store ./audit-store --profile montana --fail-on violation
        poker-audit audit --workers 2
        poker-audit audit --scheduler tcp://scheduler.example:8786
        poker-audit audit --since latest      # only what was ingested since the last run
        poker-audit findings --rule BET-NL-MIN-RAISE
    """
    from audit.run.runner import audit_store
    from audit.run.summary import format_summary

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
    click.echo(format_summary(summary))
    sys.exit(1 if summary.flagged(fail_on) else 0)


@main.command()
@click.argument("hand_id")
@store_option
@profile_option
def replay(hand_id: str, store: Path | None, profile: str) -> None:
    """Show one hand's timeline: each event with the pot and stacks after it, findings inline.

    Below it, what the latest audit run found over this hand and the table's other hands
    (button movement, missed blinds, kills) and the collusion leads that cite it.

    \b
    Example:
        poker-audit replay phh:pokerstars:61364517354
    """
    from audit.report.timeline import recorded_across_hands, render_timeline, replay_stored_hand

    target = open_store(store)
    name, overlays = split_profile(profile)
    with user_errors():
        if overlays:
            raise InputProblem("replay takes a profile name without overlays")
        hand, result = replay_stored_hand(target, hand_id, name)
        across = recorded_across_hands(target, hand_id)
    click.echo(render_timeline(hand, result, across), nl=False)


@main.command()
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

    \b
    Example:
        poker-audit export ps:35824123646 ps:35824138453 --format ohh > hands.ohh
        poker-audit export phh:pokerstars:61364517354 --format phh --out hand.phhs
    """
    from audit.export import export_hands
    from audit.sql.query import query as run_query

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
            from audit.sql.roster import pseudonymize_store_table

            table = pseudonymize_store_table(target, table)
        text = export_hands(table, fmt)
    if out:
        with user_errors():
            write_output(target, out, text)
        err(f"{len(hand_ids)} hand(s) written to {out}")
    else:
        click.echo(text, nl=False)


@main.command()
@click.option(
    "--phh", "phh_files", multiple=True, type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
    help="Real hands (PHH) to replay; default: the embedded HandHQ excerpt. Repeatable.",
)
@click.option("--quick", is_flag=True, help="Small inputs: a first look in seconds.")
@click.option("--accuracy", is_flag=True,
              help="Instead: simulate hands with labelled violations, audit them, and print "
              "precision and recall per rule id.")
@click.option("--reliability", is_flag=True,
              help="Instead: inject faults, tamper with a store and feed every importer hostile "
              "input; print faults survived, tampering detected, inputs handled, hands lost.")
@click.option("--scale", type=click.IntRange(min=1), default=None, metavar="HANDS",
              help="Instead: build a store of HANDS simulated hands, audit it end to end with 1 "
              "and 2 workers (time, hands/s, peak RSS) and print the capacity model.")
@click.option("--work", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where --scale builds its store (default: a temporary directory).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the JSON result here.")
def bench(phh_files: tuple[Path, ...], quick: bool, accuracy: bool, reliability: bool,
          scale: int | None, work: Path | None, out: Path | None) -> None:
    """Measure throughput side by side with PokerKit on the same hands, as ratios.

    Replay (hands/s) against PokerKit's HandHistory replay, the 7-card evaluator against
    PokerKit's, and native ingest against the raw Parquet read + write floor. The JSON
    result goes to stdout (and --out); the readable summary to stderr.

    \b
    Example:
        poker-audit bench --phh ../shared/data/handhq/ps-50nl-1231.phhs --out bench.json
        poker-audit bench --accuracy
        poker-audit bench --reliability --quick
        poker-audit bench --scale 10000000 --work /data/scale
    """
    import importlib
    import json

    # devtools is the top layer: the CLI names it by string and never imports it at load time
    def devtool(name: str) -> Any:
        return importlib.import_module(f"audit.devtools.{name}")

    flagged = False
    with user_errors():
        if reliability:
            scorecard = devtool("reliability")
            result = scorecard.scorecard(quick=quick, echo=err)
            err(scorecard.format_scorecard(result))
            flagged = scorecard.flagged(result)
        elif scale:
            import tempfile

            if work is not None:
                work.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=work) as tmp:
                result = devtool("bench_scale").bench_scale(scale, Path(tmp), echo=err)
        elif accuracy:
            from audit.simulate.scorecard import bench_accuracy, format_scorecard

            result = bench_accuracy(hands=1_000 if quick else 5_000)
            err(format_scorecard(result))
        else:
            result = devtool("bench").run_bench(list(phh_files), quick=quick, echo=err)
    text = json.dumps(result, indent=2, default=str)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
    click.echo(text)
    if flagged:
        sys.exit(1)


@main.command()
@click.option(
    "--store", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Keep the demo store here instead of a temporary directory.",
)
def demo(store: Path | None) -> None:
    """Run the main job end to end on hands shipped with poker-audit.

    \b
    Example:
        poker-audit demo
    """
    from audit.cli.demo import run_demo

    with user_errors():
        code = run_demo(click.echo, store)
    sys.exit(code)


def _register_commands() -> None:
    """Commands whose code lives beside its library (simulate, collusion, report, sql-init)."""
    from audit.cli.collusion import collusion_command
    from audit.cli.report import report_command, sql_init_command
    from audit.cli.simulate import simulate_command

    main.add_command(simulate_command)
    main.add_command(collusion_command)
    main.add_command(report_command)
    main.add_command(sql_init_command)
    # Each command carries `-h` itself: click caches a command's help option the first time it
    # runs, and a command run on its own (a test, a notebook) would otherwise cache `--help`
    # alone and answer `poker-audit CMD -h` with a usage error ever after.
    for command in main.commands.values():
        command.context_settings = {**CONTEXT_SETTINGS, **command.context_settings}


_register_commands()


if __name__ == "__main__":  # pragma: no cover
    main()
