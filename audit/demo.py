"""`poker-audit demo`: the main job end to end on hands shipped inside the package."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from audit.ingest import ingest
from audit.output import render
from audit.sql import query
from audit.store import Store

DEMO_DATA = Path(__file__).resolve().parent / "demo_data"


def demo_inputs() -> list[Path]:
    return sorted(p for p in DEMO_DATA.iterdir() if p.is_file() and not p.name.startswith("."))


def run_demo(echo: Callable[[str], None], store_dir: Path | None = None) -> int:
    """Build a store from the embedded hands, verify it, query it; returns an exit code."""
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
        echo("\n3. Ask DuckDB: hands per table and stakes")
        echo(_indent(render(query(store, """
            SELECT table_id, variant, structure, small_blind, big_blind, count(*) AS hands
            FROM hands_started GROUP BY ALL ORDER BY table_id"""), "table")))
        echo("4. Ask DuckDB: chips put in per player (minor units)")
        echo(_indent(render(query(store, """
            SELECT player, count(DISTINCT hand_id) AS hands, sum(amount) AS put_in
            FROM events WHERE kind IN ('post', 'call', 'bet', 'raise', 'complete')
            GROUP BY player ORDER BY put_in DESC"""), "table")))
        return 0 if report.ok else 1


def _quarantine_reasons(store: Store) -> list[str]:
    import json

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
