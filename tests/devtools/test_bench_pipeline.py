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
from audit.devtools.bench_pipeline import (
    STAGES,
    _against,
    bench_pipeline,
    capacity,
    format_pipeline,
)

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
    # three copies of the room, each with its own planted teams: the collusion line counts them
    collusion = result["stages"]["collusion"]
    assert collusion["teams_planted"] == 3 * result["room"]["colluder_teams"]
    table = format_pipeline(result)
    assert "simulated 1,000 hands" in table and "(projected)" in table
    assert f"found {collusion['teams_found']} of {collusion['teams_planted']}" in table


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
                                                 "heaviest_audit_stage",
                                                 "wall_ratio_audit_pipeline",
                                                 "memory_ratio_audit_pipeline"}
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


# ---------------------------------------------------------------- the copy: a bigger room
def _room(tmp_path: Path, hands: int) -> Path:
    from dataclasses import asdict

    from audit.devtools.bench_pipeline import ROOM, _simulate

    _simulate({"out": str(tmp_path / "room"), "hands": hands, "room": asdict(ROOM)})
    return tmp_path / "room"


def _copied(room: Path, feed: Path, hands: int, base: int) -> dict:
    from audit.devtools.bench_pipeline import _copy, _event_files

    return _copy({"files": [str(p) for p in _event_files(room)], "feed": str(feed),
                  "hands": hands, "base_hands": base,
                  "planted": str(room / "colluders.parquet")})


def test_each_copy_is_new_players_at_new_tables(tmp_path: Path) -> None:
    """A copy of the room is another room: its own hands, players and tables, so a pair's
    history is one room's however many copies; nothing else in a row names a player or a
    table (the copy would leave it pointing at the original's)."""
    import polars as pl

    from audit.devtools.bench_pipeline import _event_files
    from audit.devtools.bench_scale import RENAMED

    room = _room(tmp_path, 400)
    copy = _copied(room, tmp_path / "feed", 1_000, 400)
    original = pl.concat([pl.read_parquet(p) for p in _event_files(room)])
    copied = pl.concat([pl.read_parquet(p) for p in copy["files"]])
    assert copied["hand_id"].n_unique() == 1_000
    names = {c: set(original[c].drop_nulls().to_list()) for c in RENAMED}
    for k, hands in ((0, 400), (1, 400), (2, 200)):
        mine = copied.filter(pl.col("hand_id").str.ends_with(f"~{k}"))
        assert mine["hand_id"].n_unique() == hands
        for c in ("player", "table_id"):
            got = set(mine[c].drop_nulls().to_list())
            assert all(x.endswith(f"~{k}") for x in got), c
            assert {x.removesuffix(f"~{k}") for x in got} <= names[c], c
        # the board's deal and the rake name no player, in the copy neither
        assert mine["player"].null_count() == original.head(mine.height)["player"].null_count()
    assert copied["player"].n_unique() > 2 * original["player"].n_unique()
    ids = names["player"] | names["table_id"]
    for c, dtype in original.schema.items():
        if c in RENAMED or dtype != pl.String:
            continue
        values = set(original[c].drop_nulls().to_list())
        assert not {v for v in values if any(i in v for i in ids)}, c
    teams = pl.read_parquet(copy["planted"])
    planted = pl.read_parquet(room / "colluders.parquet")
    assert teams.height == 3 * planted.height and teams["team_id"].n_unique() == teams.height
    for k in range(3):
        mine = teams.filter(pl.col("table_id").str.ends_with(f"~{k}"))
        assert mine["players"].to_list() == [[f"{p}~{k}" for p in team]
                                              for team in planted["players"].to_list()]


def test_the_collusion_line_counts_planted_teams_found_and_false_leads(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from audit.devtools.bench_pipeline import planted_found

    path = tmp_path / "colluders.parquet"
    pq.write_table(pa.table({"team_id": [0, 1, 2],
                             "players": [["a", "b"], ["c", "d", "e"], ["f", "g"]]}), path)
    leads = [{"player_a": "a", "player_b": "b"}, {"player_a": "d", "player_b": "e"},
             {"player_a": "c", "player_b": "e"}, {"player_a": "b", "player_b": "c"}]
    # the team of three is found once however many of its pairs lead; b-c spans two teams
    assert planted_found(path, leads) == {"teams_planted": 3, "teams_found": 2,
                                          "false_leads": 1}
    assert planted_found(path, []) == {"teams_planted": 3, "teams_found": 0, "false_leads": 0}


@pytest.mark.slow
def test_two_copies_lead_to_the_rooms_leads_twice(tmp_path: Path) -> None:
    """Copied rooms are judged as rooms side by side: the leads of two copies are those of
    one, once per copy under its names, with the same p- and q-values (the same players copied
    made every pair's history twice as long, and its leads others)."""
    import polars as pl

    from audit.collusion.findings import collusion_leads
    from audit.devtools.bench_pipeline import _audit, _collusion, _ingest
    from audit.store.dataset import Store

    room = _room(tmp_path, 3_000)
    leads = {}
    for copies in (1, 2):
        copy = _copied(room, tmp_path / f"feed{copies}", 3_000 * copies, 3_000)
        store = tmp_path / f"store{copies}"
        _ingest({"files": copy["files"], "store": str(store)})
        run = _audit({"store": str(store)})["run_id"]
        got = _collusion({"store": str(store), "run": run, "planted": copy["planted"]})
        assert got["teams_planted"] == 2 * copies
        assert got["teams_found"] >= copies  # the room's soft players, in every copy
        leads[copies] = pl.from_arrow(collusion_leads(Store(store), run)).select(
            "player_a", "player_b", "pattern", "p_value", "q_value", "hands")
    one = leads[1]
    assert one.height > 0
    twice = pl.concat([one.with_columns(pl.col(c).str.replace(r"~0$", f"~{k}")
                                        for c in ("player_a", "player_b")) for k in (0, 1)])
    keys = ["player_a", "player_b"]
    got, want = leads[2].sort(keys), twice.sort(keys)
    assert got.drop("p_value", "q_value").to_dicts() == want.drop("p_value", "q_value").to_dicts()
    for c in ("p_value", "q_value"):  # summed in another order: the last bits may differ
        assert got[c].to_list() == pytest.approx(want[c].to_list(), rel=1e-9), c


def test_the_target_is_judged_on_wall_time_cpu_and_memory() -> None:
    # 1,000 hands: ingest to report 0.1 ms of wall and 0.2 ms of CPU a hand, 1.5 GiB at most;
    # the target's 5M hands would take 500 s wall (of 600), 1,000 CPU-s (of 1,200), 0.75 of
    # its 2 GiB; the simulator's 0.3 ms a hand puts the whole day over
    gib = 2 ** 30
    stage = {"hands": 1_000, "wall_seconds": 0.02, "cpu_seconds": 0.04,
             "peak_rss_bytes": gib // 4}
    stages = {name: dict(stage) for name in ("ingest", "verify", "audit", "collusion",
                                               "report")}
    stages["collusion"]["peak_rss_bytes"] = 3 * gib // 2
    stages["simulate"] = {**stage, "cpu_seconds": 0.3, "peak_rss_bytes": 3 * gib}
    target = capacity(stages, 1_000, 1_000)["target"]
    assert target["wall_ratio_audit_pipeline"] == pytest.approx(500 / 600, abs=0.01)
    assert target["cpu_ratio_audit_pipeline"] == pytest.approx(1_000 / 1_200, abs=0.01)
    assert target["memory_ratio_audit_pipeline"] == 0.75  # the simulator's 3 GiB is no stage
    assert target["biggest_audit_stage"] == "collusion"
    assert target["times_over_with_simulate"] > 1
    assert _against(0.83) == "0.83x (within)"
    assert _against(1.84) == "1.84x (over)"
