"""poker-audit: an event-sourced poker hand history auditor.

The library API: what a notebook or an integrator needs, importable from `audit` itself. Every
name loads its module on first use, so `import audit` stays cheap.

Open, fill and check a store
    Store               an event store directory (`Store(path)`; `.verify()` checks it)
    ingest_files        read hand history files into a store, quarantining bad hands
    build_proof         the inclusion proof of one stored hand (`poker-audit prove`)
    check_proof         check an inclusion proof (`poker-audit verify-proof`)
Audit and read the findings
    audit_store         replay every stored hand under a rule profile, record a run
    load_profile        a rule profile (`montana`, overlays with `+`), available_profiles
    finished_runs       every finished audit run; resolve_run: `latest` -> run id
    read_findings       the findings of a run, as an Arrow table
    collusion_leads     compute the ranked collusion leads of a run, with their evidence hands
    collusion_story     the leads and single-hand pattern notes `poker-audit collusion` recorded
Ask SQL (read-only DuckDB over the views of schemas/views.sql)
    query               one statement, parameters bound, an Arrow table back
    connect             a DuckDB connection holding the views
    report_queries      the report's KPI queries (module: constants taking `$run`, `rows()`)
One hand
    replay_hand         replay one hand's events (hand_from_rows, hands_from_table build them)
    replay_stored_hand  load a stored hand and replay it, traced for its timeline
    render_timeline     a replayed hand as text: every event, pot, stacks, findings inline
    hand_timeline       what `poker-audit replay HAND_ID` prints
Report and simulate
    build_report        the HTML compliance report of a run; write_report writes it to a file
    simulate_hands      simulate hands with labelled violations and colluders into a new store
Errors
    AuditError          every error poker-audit reports to a user; AuditInputError bad input

`ingest_files` and `simulate_hands` are `audit.ingest.pipeline.ingest` and
`audit.simulate.simulate`: `audit.ingest` and `audit.simulate` name the packages.

Example (a store made with `poker-audit ingest` and `poker-audit audit`, or as below):

    import audit

    store = audit.Store("audit-store")
    audit.ingest_files(["hands/day-1.jsonl"], store)
    run = audit.audit_store(store, profile="montana")
    findings = audit.read_findings(store, run.run_id)
    audit.query(store, "SELECT rule_id, count(*) AS n FROM latest_findings GROUP BY 1")
    print(audit.hand_timeline(store, findings["hand_id"][0].as_py()))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> (module, attribute); attribute None: the module itself
_API: dict[str, tuple[str, str | None]] = {
    "Store": ("audit.store.dataset", "Store"),
    "ingest_files": ("audit.ingest.pipeline", "ingest"),
    "build_proof": ("audit.store.proof", "build_proof"),
    "check_proof": ("audit.store.proof", "check_proof"),
    "audit_store": ("audit.run.runner", "audit_store"),
    "load_profile": ("audit.rules.profiles", "load_profile"),
    "available_profiles": ("audit.rules.profiles", "available_profiles"),
    "finished_runs": ("audit.run.runner", "finished_runs"),
    "resolve_run": ("audit.run.runner", "resolve_run"),
    "read_findings": ("audit.run.runner", "read_findings"),
    "collusion_leads": ("audit.collusion.findings", "collusion_leads"),
    "collusion_story": ("audit.collusion.findings", "collusion_story"),
    "query": ("audit.sql.query", "query"),
    "connect": ("audit.sql.query", "connect"),
    "report_queries": ("audit.report.queries", None),
    "replay_hand": ("audit.replay.hand", "replay_hand"),
    "hand_from_rows": ("audit.replay.events", "hand_from_rows"),
    "hands_from_table": ("audit.replay.events", "hands_from_table"),
    "replay_stored_hand": ("audit.report.timeline", "replay_stored_hand"),
    "render_timeline": ("audit.report.timeline", "render_timeline"),
    "hand_timeline": ("audit.report.timeline", "hand_timeline"),
    "build_report": ("audit.report.build", "build_report"),
    "write_report": ("audit.report.build", "write_report"),
    "simulate_hands": ("audit.simulate.play.sim", "simulate"),
    "AuditError": ("audit.errors", "AuditError"),
    "AuditInputError": ("audit.errors", "AuditInputError"),
}

__all__ = [
    "Store", "ingest_files", "build_proof", "check_proof",
    "audit_store", "load_profile", "available_profiles", "finished_runs", "resolve_run",
    "read_findings", "collusion_leads", "collusion_story",
    "query", "connect", "report_queries",
    "replay_hand", "hand_from_rows", "hands_from_table", "replay_stored_hand", "render_timeline",
    "hand_timeline",
    "build_report", "write_report", "simulate_hands",
    "AuditError", "AuditInputError",
]

if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ loads them
    from audit.collusion.findings import collusion_leads, collusion_story
    from audit.errors import AuditError, AuditInputError
    from audit.ingest.pipeline import ingest as ingest_files
    from audit.replay.events import hand_from_rows, hands_from_table
    from audit.replay.hand import replay_hand
    from audit.report import queries as report_queries
    from audit.report.build import build_report, write_report
    from audit.report.timeline import hand_timeline, render_timeline, replay_stored_hand
    from audit.rules.profiles import available_profiles, load_profile
    from audit.run.runner import audit_store, finished_runs, read_findings, resolve_run
    from audit.simulate.play.sim import simulate as simulate_hands
    from audit.sql.query import connect, query
    from audit.store.dataset import Store
    from audit.store.proof import build_proof, check_proof


def __getattr__(name: str) -> Any:
    """Load an API name's module the first time the name is used, then keep the name here."""
    try:
        module, attribute = _API[name]
    except KeyError:
        raise AttributeError(f"module 'audit' has no attribute {name!r}") from None
    loaded = importlib.import_module(module)
    value = loaded if attribute is None else getattr(loaded, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
