"""Audit runs: where a run's findings and projections live, and how to find them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.schema import check_file_version, findings_schema
from audit.store import Store


def finished_runs(store: Store) -> list[dict[str, Any]]:
    """run.json of every finished run, oldest first (run ids sort by time)."""
    if not store.runs_dir.exists():
        return []
    runs = []
    for d in sorted(store.runs_dir.iterdir()):
        meta = d / "run.json"
        if meta.exists():
            runs.append(json.loads(meta.read_text(encoding="utf-8")))
    return runs


def resolve_run(store: Store, run: str = "latest") -> str | None:
    """The run id for `latest` or an id; None when the store has no finished run yet."""
    runs = finished_runs(store)
    if run == "latest":
        return runs[-1]["run_id"] if runs else None
    ids = {r["run_id"] for r in runs}
    if run not in ids:
        known = ", ".join(sorted(ids)[-5:]) or "none yet"
        raise AuditInputError(f"no finished audit run {run!r} in {store.root} (latest: {known})")
    return run


def run_dir(store: Store, run_id: str) -> Path:
    return store.runs_dir / run_id


def read_findings(store: Store, run: str = "latest", rule: str | None = None) -> pa.Table:
    """Findings of one run, optionally of one rule id; empty (with the schema) when none."""
    run_id = resolve_run(store, run)
    if run_id is None:
        return findings_schema().empty_table()
    path = run_dir(store, run_id) / "findings.parquet"
    if not path.exists():
        return findings_schema().empty_table()
    table = pq.read_table(path)
    check_file_version(table.schema.metadata, "findings", str(path))
    if rule:
        table = table.filter(pc.equal(table.column("rule_id"), rule))
    return table
