"""The CLI contract: commands, output formats and exit codes (ARCHITECTURE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def filled(store: Store, tmp_path: Path) -> Store:
    src = write_parquet(tmp_path / "a.parquet", many_hands("c", 2))
    assert run("ingest", str(src), "--store", str(store.root)).exit_code == 0
    return store


def test_every_command_has_help_with_an_example():
    for name, command in main.commands.items():
        result = run(name, "-h")
        assert result.exit_code == 0, name
        assert "Example:" in (command.help or ""), name


def test_verify_clean_store_exits_0(filled: Store):
    result = run("verify", "--store", str(filled.root))
    assert result.exit_code == 0
    assert result.output.startswith("OK: 1 batches, 1 files, 2 hands, 30 events; chain head ")


def test_verify_tampered_store_exits_1_and_names_the_file(filled: Store):
    path = filled.event_files()[0]
    path.write_bytes(path.read_bytes() + b"x")
    result = run("verify", "--store", str(filled.root))
    assert result.exit_code == 1
    rel = path.relative_to(filled.root).as_posix()
    assert f"MODIFIED: {rel}: sha256 differs from manifest" in result.output


def test_verify_without_store_is_a_usage_error(tmp_path: Path):
    result = run("verify", "--store", str(tmp_path / "nothing"))
    assert result.exit_code == 2
    assert "no store at" in result.output and "poker-audit ingest" in result.output


def test_store_defaults_to_environment_variable(filled: Store, monkeypatch):
    named = run("verify", "--store", str(filled.root))
    monkeypatch.setenv("POKER_AUDIT_STORE", str(filled.root))
    from_env = run("verify")
    assert from_env.exit_code == 0 and named.exit_code == 0
    assert from_env.output == named.output  # the same store: its head and counts


def test_query_formats(filled: Store):
    sql = "SELECT hand_id, big_blind FROM hands_started ORDER BY hand_id"
    as_json = run("query", sql, "--store", str(filled.root), "--format", "json")
    assert json.loads(as_json.output) == [
        {"hand_id": "c0", "big_blind": 100}, {"hand_id": "c1", "big_blind": 100}]
    as_csv = run("query", sql, "--store", str(filled.root), "--format", "csv")
    assert as_csv.output == "hand_id,big_blind\nc0,100\nc1,100\n"
    as_table = run("query", sql, "--store", str(filled.root))
    assert as_table.output.splitlines() == [
        "hand_id  big_blind", "-------  ---------", "c0             100",  # numbers right
        "c1             100", "(2 rows)"]


def test_query_params_and_stdin(filled: Store):
    result = run("query", "-", "--store", str(filled.root), "--format", "csv",
                 "-p", "h", "c1", input="SELECT count(*) AS n FROM events WHERE hand_id = $h")
    assert result.exit_code == 0 and result.output == "n\n15\n"


def test_query_refusal_is_exit_2_without_traceback(filled: Store):
    result = run("query", "DELETE FROM events", "--store", str(filled.root))
    assert result.exit_code == 2
    assert "only SELECT queries are allowed" in result.output
    assert "Traceback" not in result.output


def test_findings_before_any_audit_is_empty_but_real(filled: Store):
    result = run("findings", "--store", str(filled.root), "--format", "json")
    assert result.exit_code == 0
    assert "[]" in result.output
    unknown = run("findings", "--store", str(filled.root), "--run", "nope")
    assert unknown.exit_code == 2 and "no finished audit run 'nope'" in unknown.output


@pytest.mark.slow
def test_demo_runs_end_to_end(tmp_path: Path):
    result = run("demo", "--store", str(tmp_path / "demo"))
    assert result.exit_code == 0, result.output
    assert "hands" in result.output and ": OK" in result.output
    assert "quarantined: sample-events.jsonl:69 hand demo:4" in result.output
    assert (tmp_path / "demo-report.html").exists()  # beside the store, never inside it
    assert "100.0%  100.0%" in result.output  # the accuracy scorecard


def test_h_still_works_after_a_command_ran_on_its_own():
    # click caches a command's help option when it first runs: a command invoked directly
    # (not through `main`) must not lose `-h` for every later `poker-audit CMD -h`
    for name, command in main.commands.items():
        CliRunner().invoke(command, ["--help"])
        result = run(name, "-h")
        assert result.exit_code == 0, (name, result.output)
