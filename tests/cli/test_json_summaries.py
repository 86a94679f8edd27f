"""`verify --format json` and `audit --format json`: the summary as one JSON document on
stdout, notes and progress on stderr, the same exit codes as the text (issue 23), for a
nightly job that reads the result instead of scraping lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.demo import DEMO_DATA
from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.rules.ids import POT_SPLIT_BY_CARDS
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("json") / "store"
    run("ingest", str(DEMO_DATA / "sample-events.jsonl"), "--store", str(store))
    return store


def test_audit_json_is_the_summary_and_keeps_exit_1_on_a_violation(demo_store: Path):
    result = run("audit", "--store", str(demo_store), "--format", "json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)  # stdout is the document alone
    assert doc["hands"] > 0 and doc["findings"] > 0
    assert doc["flagged"] is True and doc["fail_on"] == "violation"
    assert doc["worst"] == "violation"
    rule = next(r for r in doc["by_rule"] if r["rule_id"] == POT_SPLIT_BY_CARDS)
    assert (rule["category"], rule["severity"]) == ("wrong_award", "violation")
    assert rule["count"] >= 1
    severities = {s["severity"]: s["count"] for s in doc["by_severity"]}
    assert severities["violation"] >= rule["count"]
    assert sum(severities.values()) == doc["findings"]
    assert sum(p["count"] for p in doc["by_profile"]) == doc["hands"]
    runs = json.loads(run("runs", "--store", str(demo_store), "--format", "json").stdout)
    assert runs[0]["run_id"] == doc["run_id"]


def test_audit_json_exit_0_when_fail_on_is_above_the_worst(demo_store: Path):
    result = run("audit", "--store", str(demo_store), "--format", "json", "--fail-on",
                 "critical")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["flagged"] is False and doc["worst"] == "violation"


def test_verify_json_on_an_intact_store(store: Store, tmp_path: Path):
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("v", 3))], store)
    result = run("verify", "--store", str(store.root), "--format", "json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["ok"] is True and doc["problems"] == []
    assert (doc["batches"], doc["files"], doc["hands"], doc["rows"]) == (1, 1, 3, 45)
    assert doc["head"] == store.head() and doc["published_head"] is None
    assert "publish the chain head" in result.stderr  # the note stays off stdout
    again = run("verify", "--store", str(store.root), "--format", "json", "--head",
                store.head())
    assert again.exit_code == 0 and json.loads(again.stdout)["published_head"] == store.head()


def test_verify_json_names_each_problem_and_exits_1(store: Store, tmp_path: Path):
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("v", 3))], store)
    (event_file,) = store.event_files()
    data = bytearray(event_file.read_bytes())
    data[100] ^= 0x01
    event_file.write_bytes(bytes(data))
    result = run("verify", "--store", str(store.root), "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["ok"] is False
    rel = event_file.relative_to(store.root).as_posix()
    assert {"kind": "modified", "path": rel, "detail": "sha256 differs from manifest"} in \
        doc["problems"]


def test_an_unknown_output_format_is_a_usage_error(store: Store):
    assert run("verify", "--store", str(store.root), "--format", "xml").exit_code == 2
    assert run("audit", "--store", str(store.root), "--format", "xml").exit_code == 2
