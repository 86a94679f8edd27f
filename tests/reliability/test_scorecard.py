"""The reliability scorecard (issue 11): every tamper case is detected, and
`poker-audit bench --reliability` prints the table and flags anything short of perfect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import audit.devtools.reliability as reliability
from audit.cli.main import main
from audit.devtools.reliability import PROOF_TAMPERS, TAMPERS, flagged, format_scorecard, run_tamper


def test_every_tamper_case_is_detected(tmp_path: Path):
    results = run_tamper(tmp_path)
    assert len(results) == len(TAMPERS) + 2 + len(PROOF_TAMPERS)
    missed = [r["case"] for r in results if not r["detected"]]
    assert not missed
    by = {r["case"]: r["by"] for r in results}
    # recomputing file hashes and the chain does not hide an edit: the Merkle roots differ
    assert by["event edited, file hash and chain recomputed"] == ["merkle"]
    assert by["hand inserted, file hash and chain recomputed"] == ["merkle"]
    # a consistent rewrite of everything needs a head published before it
    assert by["everything rewritten consistently (files, roots, chain)"] == ["published head"]


def _result(**changes: object) -> dict:
    result = {
        "faults": {"injected": 200, "survived": 200, "failures": []},
        "tamper": {"cases": 31, "detected": 31, "missed": []},
        "hostile": {"tried": 91, "handled": 91, "failures": []},
        "hands_lost": 0,
    }
    for key, value in changes.items():
        section, _, field = key.partition("__")
        if field:
            result[section][field] = value  # type: ignore[index]
        else:
            result[section] = value
    return result


def test_scorecard_table_and_flags():
    table = format_scorecard(_result())
    assert "| faults injected" in table and "| 200 | 200 |" in table
    assert "| hands lost | | 0 |" in table
    assert not flagged(_result())
    assert flagged(_result(hands_lost=1))
    assert flagged(_result(faults__survived=199))
    assert flagged(_result(tamper__detected=30))
    assert flagged(_result(hostile__handled=90))


@pytest.mark.parametrize(("result", "code"), [(_result(), 0), (_result(hands_lost=2), 1)])
def test_cli_bench_reliability_prints_the_scorecard(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, result: dict, code: int):
    calls = []

    def measured(*, quick: bool, echo) -> dict:  # the suites are tested on their own
        calls.append(quick)
        return result

    monkeypatch.setattr(reliability, "scorecard", measured)
    out = tmp_path / "rel.json"
    run = CliRunner().invoke(main, ["bench", "--reliability", "--quick", "--out", str(out)])
    assert run.exit_code == code, run.output
    assert calls == [True]
    assert "| tamper cases" in run.stderr
    assert json.loads(out.read_text())["hands_lost"] == result["hands_lost"]


def test_attack_suites_are_summarised_and_a_case_that_did_not_hold_is_flagged():
    from audit.devtools.attacks import SUITES, Attack
    from audit.devtools.reliability import attack_summary

    attacks = [Attack(suite="example", case="COPY TO a store file", held=True),
               Attack(suite="example", case="EXPLAIN ANALYZE COPY", held=False, detail="wrote x")]
    assert "example" not in SUITES  # an unregistered suite is labelled by its name
    summary = attack_summary(attacks)
    assert summary == {"example": {"tried": 2, "held": 1,
                               "missed": ["EXPLAIN ANALYZE COPY: wrote x"]}}
    assert not flagged(_result(attacks={"example": {"tried": 2, "held": 2, "missed": []}}))
    result = _result(attacks=summary)
    assert flagged(result)
    table = format_scorecard(result)
    assert "| attacks: example | 2 | 1 |" in table
    assert "attack not held (example): EXPLAIN ANALYZE COPY: wrote x" in table


def test_run_attacks_runs_each_registered_suite_in_its_own_folder(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    import sys
    import types

    from audit.devtools import attacks as attacks_module

    seen = []
    fake = types.ModuleType("audit.devtools.attacks_fake")
    fake.attacks = lambda folder: seen.append(folder) or [
        attacks_module.Attack(suite="fake", case="one", held=True)]
    monkeypatch.setitem(sys.modules, "audit.devtools.attacks_fake", fake)
    monkeypatch.setitem(attacks_module.SUITES, "fake", "a fake suite")
    results = attacks_module.run_attacks(tmp_path, suites=("fake",))
    assert [r.case for r in results] == ["one"]
    assert seen == [tmp_path / "fake"] and seen[0].is_dir()
