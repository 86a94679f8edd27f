"""`poker-audit demo`: the main job end to end on hands shipped inside the package."""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import click
import pyarrow.compute as pc

from audit.cli.common import CONTEXT_SETTINGS, user_errors
from audit.cli.output import render
from audit.errors import AuditInputError
from audit.ingest.pipeline import ingest
from audit.report.build import write_report
from audit.report.timeline import render_timeline, replay_stored_hand
from audit.run.runner import audit_store, read_findings
from audit.run.summary import format_summary
from audit.simulate.scorecard import bench_accuracy, format_scorecard
from audit.sql.query import query
from audit.store.dataset import Store

DEMO_DATA = Path(__file__).resolve().parents[1] / "demo_data"  # audit/demo_data


DEMO_SUFFIXES = (".phhs", ".phh", ".jsonl", ".parquet", ".csv")


def demo_inputs() -> list[Path]:
    return sorted(p for p in DEMO_DATA.iterdir() if p.suffix in DEMO_SUFFIXES)


def run_demo(echo: Callable[[str], None], store_dir: Path | None = None) -> int:
    """Build a store from the embedded hands, verify it, query it; returns an exit code.
    `store_dir` must not hold a store already: the sample hands would join its evidence."""
    if store_dir is not None and Store(store_dir).exists():
        raise AuditInputError(f"{store_dir} already holds an event store; the demo would add "
                              "its sample hands to it: give a new directory for --store")
    with tempfile.TemporaryDirectory(prefix="poker-audit-demo-") as tmp:
        store = Store(store_dir or Path(tmp) / "store")
        echo(f"poker-audit demo: store at {store.root}\n")
        echo("1. Ingest the embedded sample hands")
        summary = ingest(demo_inputs(), store)
        for f in summary.files:
            echo(f"   {Path(f.path).name}: {f.hands} hands, {f.rows} events, "
                 f"{f.quarantined} quarantined ({f.format})")
        for item in _quarantine_reasons(store):
            echo(f"   quarantined: {item}")
        echo("\n2. Verify the store (file hashes and the manifest hash chain)")
        report = store.verify()
        echo(f"   {report.batches} batches, {report.files} files, {report.hands} hands: "
             + ("OK" if report.ok else f"{len(report.problems)} PROBLEMS"))
        echo(f"   chain head {report.head[:16]}…")
        echo("\n3. Ask DuckDB: hands and tables per game and stakes")
        echo(_indent(render(query(store, """
            SELECT variant, structure, small_blind, big_blind, currency,
                   count(*) AS hands, count(DISTINCT table_id) AS tables
            FROM hands_started GROUP BY ALL ORDER BY hands DESC"""), "table")))
        echo("4. Ask DuckDB: the five players who put the most chips in (minor units)")
        echo(_indent(render(query(store, """
            SELECT player, count(DISTINCT hand_id) AS hands, sum(amount) AS put_in
            FROM events WHERE kind IN ('post', 'call', 'bet', 'raise', 'complete')
            GROUP BY player ORDER BY put_in DESC LIMIT 5"""), "table")))
        echo("5. Audit: replay every hand under its room's house rules (these hands name no room "
             "with house rules of its own: Robert's Rules, the montana profile)")
        run = audit_store(store)
        echo(_indent(format_summary(run)))
        echo("\n6. The findings at warning or above (poker-audit findings)")
        findings = read_findings(store)
        rows = findings.to_pylist()
        serious = [r for r in rows if r["severity"] != "info"]
        table = findings.filter(pc.not_equal(findings.column("severity"), "info")).select(
            ["hand_id", "seq", "rule_id", "severity", "seat", "delta", "message"])
        echo(_indent(render(table, "table", max_width=110)))
        info = len(rows) - len(serious)
        echo(f"   ... and {info} info findings (data quality: e.g. awards the log cannot "
             "verify because the cards were never shown)\n")
        if serious:
            first = serious[0]["hand_id"]
            echo(f"7. The first flagged hand, as an investigator sees it "
                 f"(poker-audit replay {first})")
            hand, result = replay_stored_hand(store, first)
            echo(_indent(render_timeline(hand, result)))
        # Kept beside a store the user asked to keep (never inside it: only ingest and audit
        # write there); else in the working directory.
        report_path = (store_dir.resolve().with_name(f"{store_dir.resolve().name}-report.html")
                       if store_dir
                       else Path.cwd() / "poker-audit-demo-report.html")
        write_report(store, report_path)
        echo(f"8. The compliance report for a regulator (poker-audit report): {report_path}\n")
        echo("9. How often is the auditor right? Simulate 2,000 hands with labelled, injected "
             "violations, audit them, and score the findings (poker-audit bench --accuracy)")
        card = bench_accuracy(hands=2_000, violations=0.05, seed=1)
        echo(_indent(format_scorecard(card)))
        return 0 if report.ok else 1


def _quarantine_reasons(store: Store) -> list[str]:
    out = []
    for record in store.records():
        for q in record.get("quarantine", []):
            for line in (store.root / q["path"]).read_text(encoding="utf-8").splitlines():
                item = json.loads(line)
                out.append(f"{Path(item['source']).name}:{item['line']} hand "
                           f"{item['hand_id']}: {item['reason']}")
    return out


def _indent(text: str) -> str:
    return "\n".join("   " + line for line in text.splitlines()) + "\n"


@click.command(context_settings=CONTEXT_SETTINGS)
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
    with user_errors():
        code = run_demo(click.echo, store)
    sys.exit(code)
