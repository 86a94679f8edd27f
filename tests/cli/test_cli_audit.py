"""The audit, replay and bench commands (ARCHITECTURE.md CLI contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.demo import DEMO_DATA
from audit.cli.main import main
from audit.rules.ids import POT_SPLIT_BY_CARDS


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("cli") / "store"
    result = run("ingest", str(DEMO_DATA / "sample-events.jsonl"),
                 str(DEMO_DATA / "handhq-ps-50nl-excerpt.phhs"), "--store", str(store))
    assert result.exit_code == 1  # demo:4 is quarantined on purpose
    return store


def test_audit_summarises_and_exits_1_on_a_violation(demo_store: Path):
    result = run("audit", "--store", str(demo_store))
    assert result.exit_code == 1, result.output
    assert "(profile auto): 123 hands" in result.output
    # no hand came from a room with house rules of its own: Robert's Rules judged them all
    assert "judged by: montana@1 123 hands" in result.output
    assert "violation wrong_award   POT-SPLIT-BY-CARDS" in result.output
    assert "house collection (rake" in result.output


def test_audit_fail_on_critical_exits_0_when_worst_is_a_violation(demo_store: Path):
    result = run("audit", "--store", str(demo_store), "--fail-on", "critical")
    assert result.exit_code == 0, result.output
    # the same violation is found and reported: exit 0 comes from --fail-on alone
    assert "violation wrong_award   POT-SPLIT-BY-CARDS" in result.output


def test_audit_with_an_unknown_profile_is_a_usage_error(demo_store: Path):
    result = run("audit", "--store", str(demo_store), "--profile", "vegas")
    assert result.exit_code == 2 and "vegas" in result.output and "montana" in result.output
    assert "Traceback" not in result.output


def test_audit_records_the_profile_and_store_head(demo_store: Path):
    run("audit", "--store", str(demo_store), "--profile", "uspa-2004")
    runs = json.loads(run("query", "SELECT * FROM runs ORDER BY run_id", "--store",
                          str(demo_store), "--format", "json").output)
    assert runs[-1]["profile"] == "uspa-2004@1"
    manifest = (demo_store / "manifest.jsonl").read_text().splitlines()
    # the run audited the head before it; its own run record (audit/store/runs.py) follows
    assert runs[-1]["store_head"] == json.loads(manifest[-2])["hash"]
    assert json.loads(manifest[-1])["run_id"] == runs[-1]["run_id"]
    assert runs[-1]["hands"] == 123


def test_findings_of_the_latest_run_filter_by_rule(demo_store: Path):
    run("audit", "--store", str(demo_store))
    rows = json.loads(run("findings", "--store", str(demo_store), "--rule", POT_SPLIT_BY_CARDS,
                          "--format", "json").output)
    assert {(r["hand_id"], r["seat"], r["delta"]) for r in rows} == {
        ("demo:3", 2, 700), ("demo:3", 1, -700)}
    assert all(r["citation"].startswith("POT-SPLIT-BY-CARDS: ") for r in rows)


def test_replay_shows_the_timeline_with_findings_inline(demo_store: Path):
    result = run("replay", "demo:3", "--store", str(demo_store))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("hand demo:3  table demo-t1  holdem no_limit  blinds 50/100")
    award = next(i for i, line in enumerate(lines) if "award seat 2 (bob) main amount 700" in line)
    assert "!! VIOLATION POT-SPLIT-BY-CARDS: seat 2 (bob) was paid 7.00" in "\n".join(lines[award:])
    assert lines[-1].startswith("pot 700  rake 0")


def test_replay_unknown_hand_is_a_usage_error(demo_store: Path):
    result = run("replay", "nope:1", "--store", str(demo_store))
    assert result.exit_code == 2 and "hand 'nope:1' is not in" in result.output


@pytest.mark.pokerkit
@pytest.mark.slow
def test_bench_quick_reports_ratios_against_pokerkit(tmp_path: Path):
    pytest.importorskip("pokerkit")
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(main, ["bench", "--quick", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    for section in ("replay", "evaluator"):
        assert data[section]["ratio"] > 1
    assert set(data["replay_stud_draw"]) == {"F7S", "F7S/8", "FR", "F2L3D", "FB", "N2L1D"}
    for game in data["replay_stud_draw"].values():  # the same hands on both sides
        assert game["hands"] > 0 and game["ours_hands_per_second"] > 0
        assert game["pokerkit_hands_per_second"] > 0
    assert data["ingest"]["ratio_to_floor"] > 0


@pytest.mark.parametrize("fmt", ["ohh", "phh"])
@pytest.mark.slow
def test_export_round_trips_through_ingest(fmt: str, demo_store: Path, tmp_path: Path):
    hand_id = "phh:pokerstars:61364517354"
    out = tmp_path / f"hand.{fmt if fmt == 'ohh' else 'phhs'}"
    result = run("export", hand_id, "--store", str(demo_store), "--format", fmt,
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    again = tmp_path / "again"
    assert run("ingest", str(out), "--store", str(again)).exit_code == 0
    sql = ("SELECT seq, kind, seat, player, amount, total, cards, detail FROM events "
           "WHERE hand_id = $h ORDER BY seq")
    before = run("query", sql, "--store", str(demo_store), "-p", "h", hand_id, "--format", "json")
    after = run("query", sql, "--store", str(again), "-p", "h", hand_id, "--format", "json")
    assert json.loads(after.output) == json.loads(before.output)


def test_export_of_an_unknown_hand_is_a_usage_error(demo_store: Path):
    result = run("export", "nope:1", "--store", str(demo_store), "--format", "ohh")
    assert result.exit_code == 2 and "nope:1" in result.output


@pytest.mark.slow
def test_replay_shows_what_the_audit_found_across_the_tables_hands(tmp_path: Path):
    """BUTTON-MOVE needs the table's previous deal, so a replay of the hand alone cannot give
    it; the timeline shows it from the latest audit run, below the hand's own findings."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from audit.importers.text import parse_text
    from audit.schema import arrow_schema

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "BUTTON-MOVE.txt"
    rows = [row for hand, _ in parse_text(fixture.read_text(encoding="utf-8"), str(fixture))
            for row in hand]
    pq.write_table(pa.Table.from_pylist(rows, schema=arrow_schema("events")),
                   tmp_path / "deals.parquet")
    store = str(tmp_path / "store")
    assert run("ingest", str(tmp_path / "deals.parquet"), "--store", store).exit_code == 0
    before = run("replay", "fx:BUTTON-MOVE.3-fail", "--store", store)
    assert before.exit_code == 0 and "across hands" not in before.output  # no audit yet
    run("audit", "--store", store)
    failing = run("replay", "fx:BUTTON-MOVE.3-fail", "--store", store)
    assert failing.exit_code == 0, failing.output
    across = failing.output.split("across hands (audit run ", 1)[1]
    assert "!! WARNING BUTTON-MOVE: " in across or "!! VIOLATION BUTTON-MOVE: " in across
    legal = run("replay", "fx:BUTTON-MOVE.4-pass", "--store", store)
    assert "across hands" not in legal.output
