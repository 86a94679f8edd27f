"""The report's cost does not follow the number of rules it shows (issue 24, item 3): the worst
hands of every rule come from one query and the events of the hands it shows from another, with
the very rows and timelines the per-rule query and the per-hand read give."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from audit.report import build
from audit.report import queries as q
from audit.report.build import collect
from audit.report.timeline import load_hand
from audit.run.runner import audit_store, resolve_run
from audit.simulate import simulate
from audit.sql.query import connect
from audit.store.dataset import Store
from tests.report.test_report import add_collusion_findings

pytestmark = pytest.mark.slow  # a simulated mixed-game store, audited: ~20 CPU-s


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Every game the simulator deals, one hand in ten with an injected violation (many rules
    with findings), audited, with collusion leads (findings without a hand)."""
    root = tmp_path_factory.mktemp("report-cost") / "store"
    simulate(root, hands=1_500, seed=3, variant="all", structure="mixed", violations=0.1,
             tables=6)
    store = Store(root)
    audit_store(store)
    add_collusion_findings(store)
    return store


def test_the_worst_hands_of_every_rule_are_those_of_the_per_rule_query(store: Store) -> None:
    run = resolve_run(store)
    con = connect(store)
    try:
        rules = [r["rule_id"] for r in q.rows(con, q.BY_RULE, {"run": run})]
        assert len(rules) >= 10
        for limit in (1, 3, 50):
            together: dict[str, list[dict[str, Any]]] = {}
            for row in q.rows(con, q.WORST_HANDS_BY_RULE, {"run": run, "limit": limit}):
                together.setdefault(row.pop("rule_id"), []).append(row)
            for rule in rules:
                alone = q.rows(con, q.WORST_HANDS, {"run": run, "rule": rule, "limit": limit})
                assert together.get(rule, []) == alone, (rule, limit)
    finally:
        con.close()
    # the collusion leads (no hand) are among the worst of their rule, as one group
    assert any(w["hand_id"] is None for r in collect(store)["by_rule"] for w in r["worst"])


def test_the_report_reads_its_queries_and_hands_once_whatever_the_rules(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """One connection, a fixed set of queries (not one per rule) and one read of the shown
    hands' events (not one query, and connection, per hand); the timelines are those of the
    hand read alone."""
    queries: list[str] = []
    loaded: list[Any] = []
    rows = q.rows

    def counted_rows(con: Any, sql: str, params: dict[str, Any] | None = None) -> Any:
        queries.append(sql)
        return rows(con, sql, params)

    def counted_load(store: Store, hand_id: str) -> Any:
        loaded.append(hand_id)
        return load_hand(store, hand_id)

    monkeypatch.setattr(q, "rows", counted_rows)
    monkeypatch.setattr(build, "load_hand", counted_load)
    data = collect(store)
    shown = [w for r in data["by_rule"] for w in r["worst"]]
    assert len(data["by_rule"]) >= 10
    assert len(queries) <= 25 < len(data["by_rule"]) + len(shown)
    # only a hand the store does not hold (a lead's, with no hand) is looked up alone, to say so
    assert loaded == [w["hand_id"] for w in shown if w["hand_id"] is None]
    monkeypatch.undo()
    profile = str(data["run"]["profile"])
    for w in shown:
        assert w["timeline"] == build._timeline(store, w["hand_id"], profile), w["hand_id"]
    assert any("timeline unavailable" in w["timeline"] for w in shown)
    assert sum("timeline unavailable" not in w["timeline"] for w in shown) >= 10


def test_the_report_html_is_the_same_as_built_hand_by_hand(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole HTML with the shown hands read together equals the HTML with each read
    alone (the way the report read them before)."""
    now = datetime(2026, 11, 29, tzinfo=UTC)
    together = build.build_report(store, now=now)
    monkeypatch.setattr(build, "_stored_hands", lambda con, ids: {})
    alone = build.build_report(store, now=now)
    assert together == alone
