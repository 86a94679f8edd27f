"""`poker-audit runs`: which audit runs the store holds (id, time, profile, hands, findings),
newest first, so an analyst can pick the run to read without `ls runs/` (issue 23)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.main import COMMANDS, main
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_jsonl


def _runs(store: Store, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["runs", "--store", str(store.root), *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def audited(store: Store, tmp_path: Path) -> tuple[Store, list[str]]:
    """Two full runs over 3 hands, then an incremental one over 2 more; their ids."""
    ingest([write_jsonl(tmp_path / "a.jsonl", many_hands("a", 3))], store)
    first = audit_store(store, profile="montana").run_id
    second = audit_store(store).run_id
    ingest([write_jsonl(tmp_path / "b.jsonl", many_hands("b", 2))], store)
    third = audit_store(store, since="latest").run_id
    return store, [first, second, third]


def test_runs_lists_every_run_newest_first_as_json(audited: tuple[Store, list[str]]):
    store, (first, second, third) = audited
    code, out, _ = _runs(store, "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [r["run_id"] for r in rows] == [third, second, first]
    assert [r["hands"] for r in rows] == [2, 3, 3]
    assert [r["findings"] for r in rows] == [0, 0, 0]
    assert rows[2]["profile"].startswith("montana@")
    assert rows[1]["profile"].startswith("auto(")
    assert [r["since"] for r in rows] == [second, None, None]
    assert all(r["protected"] for r in rows)
    assert all(r["created_at"].startswith("20") for r in rows)


def test_runs_table_and_csv_carry_the_same_runs(audited: tuple[Store, list[str]]):
    store, ids = audited
    code, out, _ = _runs(store)
    assert code == 0
    header, rule, *body, count = out.splitlines()
    assert header.split() == ["run_id", "created_at", "hands", "findings", "since",
                              "protected", "profile"]
    assert [line.split()[0] for line in body] == ids[::-1]
    # the auto run's long label is shown whole (it was cut at 60 characters with '…')
    auto_label = json.loads(_runs(store, "--format", "json")[1])[1]["profile"]
    assert len(auto_label) > 60 and body[1].endswith(auto_label) and "…" not in out
    assert count == "(3 rows)"
    code, out, _ = _runs(store, "--format", "csv")
    assert [r["run_id"] for r in csv.DictReader(io.StringIO(out))] == ids[::-1]


def test_a_store_without_runs_says_so_on_stderr(store: Store, tmp_path: Path):
    ingest([write_jsonl(tmp_path / "a.jsonl", many_hands("a", 1))], store)
    code, out, note = _runs(store, "--format", "json")
    assert code == 0 and json.loads(out) == []
    assert "no audit run yet" in note


def test_runs_is_a_listed_command(store: Store):
    assert COMMANDS["runs"] == "audit.cli.runs:runs_command"
    assert "runs" in CliRunner().invoke(main, ["--help"]).output
    code, _, note = _runs(store)
    assert code == 2 and "no store at" in note
