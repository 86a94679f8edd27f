"""`poker-audit findings` (issue 23): an analyst narrows a run's findings by severity (at least),
category, hand and count, reads them worst first then by hand, sees every message whole in a
terminal of any width (wrapped, or one line each with --wide), and a mistyped --rule is a one-line
error naming the closest rule ids."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from audit.cli.demo import demo_inputs
from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.store.dataset import Store

LEVEL = {"info": 0, "warning": 1, "violation": 2, "critical": 3}


def run(*args: Any, columns: int = 100) -> Result:
    return CliRunner(env={"COLUMNS": str(columns)}).invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo hands audited: 103 data-quality notes (info) and 2 wrong awards (violation)."""
    s = Store(tmp_path_factory.mktemp("findings") / "store")
    ingest(demo_inputs(), s)
    audit_store(s, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return s.root


def rows(store: Path, *args: Any) -> list[dict[str, Any]]:
    result = run("findings", "--store", store, "--format", "json", *args)
    assert result.exit_code == 0, result.output
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def test_default_order_is_worst_first_then_by_hand(store: Path) -> None:
    found = rows(store)
    assert len(found) == 105
    keys = [(-LEVEL[r["severity"]], r["hand_id"] or "", r["seq"] if r["seq"] is not None else -1)
            for r in found]
    assert keys == sorted(keys)
    assert found[0]["severity"] == "violation"  # the wrong awards come before the notes


def test_severity_is_a_floor(store: Path) -> None:
    assert {r["severity"] for r in rows(store, "--severity", "warning")} == {"violation"}
    assert len(rows(store, "--severity", "info")) == 105
    assert rows(store, "--severity", "critical") == []
    bad = run("findings", "--store", store, "--severity", "severe")
    assert bad.exit_code == 2 and "'severe' is not one of" in bad.output


def test_category_hand_and_limit(store: Path) -> None:
    awards = rows(store, "--category", "wrong_award")
    assert len(awards) == 2 and {r["category"] for r in awards} == {"wrong_award"}
    hand = awards[0]["hand_id"]
    assert {r["hand_id"] for r in rows(store, "--hand", hand)} == {hand}
    assert rows(store, "--limit", "3") == rows(store)[:3]
    assert rows(store, "--category", "data_quality", "--limit", "1") == [
        r for r in rows(store) if r["category"] == "data_quality"][:1]


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_the_table_fits_the_terminal_and_cuts_no_message(store: Path, columns: int) -> None:
    result = run("findings", "--store", store, "--category", "wrong_award", columns=columns)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert "…" not in result.stdout
    words = " ".join(result.stdout.split())
    for r in rows(store, "--category", "wrong_award"):
        assert len(r["message"]) > 60
        assert " ".join(r["message"].split()) in words  # the whole message, wrapped


def test_wide_prints_each_finding_whole_on_one_line(store: Path) -> None:
    result = run("findings", "--store", store, "--category", "wrong_award", "--wide", columns=80)
    assert result.exit_code == 0, result.output
    found = rows(store, "--category", "wrong_award")
    body = result.stdout.splitlines()[2:-1]
    assert len(body) == len(found)
    for line, r in zip(body, found, strict=True):
        assert r["message"] in line and r["run_id"] in line and r["citation"] in line


def test_an_unknown_rule_id_names_the_closest(store: Path) -> None:
    result = run("findings", "--store", store, "--rule", "POT-SPLIT-BY-CARD")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        result.output.strip()]  # one line, no traceback
    assert "unknown rule id 'POT-SPLIT-BY-CARD'" in result.output
    assert "POT-SPLIT-BY-CARDS" in result.output
    lower = run("findings", "--store", store, "--rule", "pattern-softplay")
    assert lower.exit_code == 2 and "PATTERN-SOFTPLAY" in lower.output
    known = run("findings", "--store", store, "--rule", "POT-SPLIT-BY-CARDS", "--format", "json")
    assert known.exit_code == 0 and json.loads(known.stdout)
