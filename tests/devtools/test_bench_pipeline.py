"""`poker-audit bench --pipeline N`: a room's day goes through every stage (simulate, ingest,
verify, audit, collusion, report), each in its own process, every stage counts the same hands,
and each stage's wall time, CPU-seconds and peak memory are in the table and the JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.main import main as cli
from audit.devtools.bench_pipeline import STAGES, bench_pipeline, format_pipeline

MB = 1_000_000


def _check_stages(result: dict, hands: int, simulated: int) -> None:
    stages = result["stages"]
    assert list(stages) == list(STAGES)  # every stage ran, in the pipeline's order
    assert stages["simulate"]["hands"] == simulated
    for name in STAGES[1:]:
        assert stages[name]["hands"] == hands, name  # no hand lost or added on the way
    for name, stage in stages.items():
        assert stage["cpu_seconds"] > 0, name
        assert stage["wall_seconds"] > 0, name
        assert stage["peak_rss_bytes"] > 20 * MB, name  # at least an interpreter's own
        assert stage["pid"] != os.getpid(), name  # measured in a fresh process
    assert len({s["pid"] for s in stages.values()}) == len(STAGES)
    # the audit ran 2 workers: its process tree's memory holds more than one interpreter
    assert stages["audit"]["peak_rss_bytes"] > stages["verify"]["peak_rss_bytes"]


@pytest.mark.slow
def test_a_rooms_day_goes_through_every_stage(tmp_path: Path) -> None:
    result = bench_pipeline(3_000, tmp_path, echo=lambda _: None)
    _check_stages(result, 3_000, 3_000)
    assert result["simulated_hands"] == 3_000 and "feed_copy" not in result
    assert result["stages"]["simulate"]["injected_hands"] > 0  # a room with violations
    assert result["stages"]["simulate"]["colluder_teams"] == result["room"]["colluder_teams"] >= 2
    assert result["stages"]["audit"]["findings"] > 0  # the injected violations were found
    assert (tmp_path / "report.html").stat().st_size == result["stages"]["report"]["bytes"]
    whole = result["whole"]
    assert not whole["projected"]
    stages = result["stages"].values()
    assert whole["wall_seconds"] == pytest.approx(sum(s["wall_seconds"] for s in stages),
                                                  abs=0.2)
    assert whole["hands_per_second"] == pytest.approx(3_000 / whole["wall_seconds"], rel=0.01)
    capacity = result["capacity"]
    audit = result["stages"]["audit"]
    assert capacity["hands_per_core_hour"]["audit"] == round(
        3_600 * audit["hands"] / audit["cpu_seconds"])
    table = format_pipeline(result)
    for name in STAGES:
        assert f"\n{name} " in table
    assert "projected" not in table


@pytest.mark.slow
def test_a_day_bigger_than_what_is_simulated_is_copied_and_says_so(tmp_path: Path) -> None:
    result = bench_pipeline(2_500, tmp_path, simulate_at_most=1_000, echo=lambda _: None)
    _check_stages(result, 2_500, 1_000)
    assert result["feed_copy"]["hands"] == 2_500
    assert result["whole"]["projected"]
    # the simulator's cost is what it did on 1,000 hands, scaled to the day's 2,500
    sim = result["stages"]["simulate"]
    rest = sum(s["cpu_seconds"] for n, s in result["stages"].items() if n != "simulate")
    assert result["whole"]["cpu_seconds"] == pytest.approx(rest + sim["cpu_seconds"] * 2.5,
                                                           abs=0.2)
    table = format_pipeline(result)
    assert "simulated 1,000 hands" in table and "(projected)" in table


@pytest.mark.slow
def test_the_command_prints_the_table_and_writes_the_json(tmp_path: Path) -> None:
    out = tmp_path / "pipeline.json"
    run = CliRunner().invoke(cli, ["bench", "--pipeline", "1500", "--work", str(tmp_path),
                                   "--out", str(out)])
    assert run.exit_code == 0, run.output
    result = json.loads(out.read_text())
    _check_stages(result, 1_500, 1_500)
    assert set(result) >= {"hands", "simulated_hands", "room", "stages", "whole", "capacity",
                           "audit_workers", "load_average"}
    assert set(result["capacity"]["target"]) >= {"times_over_with_simulate",
                                                 "times_over_audit_pipeline",
                                                 "heaviest_audit_stage"}
    assert "hands/core-h" in run.output  # the table, on stderr
    assert [p.name for p in tmp_path.iterdir()] == ["pipeline.json"]


def test_simulate_at_most_alone_is_a_one_line_usage_error() -> None:
    run = CliRunner().invoke(cli, ["bench", "--simulate-at-most", "10"])
    assert run.exit_code == 2
    assert "--simulate-at-most goes with --pipeline" in run.output
    assert "Traceback" not in run.output


def test_no_hands_is_refused(tmp_path: Path) -> None:
    from audit.errors import AuditInputError

    with pytest.raises(AuditInputError, match="at least one hand"):
        bench_pipeline(0, tmp_path, echo=lambda _: None)
