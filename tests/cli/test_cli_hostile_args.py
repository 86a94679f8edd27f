"""Hostile arguments to the commands (issue 19 item 11, the CLI sweep): odd hand ids, NaN
shares, files that are no PHH for bench, impossible output paths, hostile house overrides in
stored hands. Each is one clear line with the right exit code, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.devtools.attacks_errors import (
    HOSTILE_HOUSE_OVERRIDES,
    _error_line,
    _special_files,
    run_cli,
    small_proof,
)
from audit.devtools.faults import hands_table
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store


@pytest.fixture(scope="module")
def proved(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return small_proof(tmp_path_factory.mktemp("proved"))[0]


@pytest.mark.parametrize("command", [["prove"], ["export", "--format", "ohh"], ["replay"]])
def test_a_hand_id_with_a_newline_is_named_on_one_line(proved: Store, command: list[str]):
    outcome = run_cli([command[0], "p0h1\nforged: OK", "--store", str(proved.root),
                       *command[1:]])
    assert outcome.one_line(2), outcome
    assert "'p0h1\\nforged: OK'" in outcome.lines[0]


@pytest.mark.parametrize("args", [
    ["simulate", "--hands", "5", "--out", "OUT", "--collusion-strength", "nan"],
    ["simulate", "--hands", "5", "--out", "OUT", "--tournament-share", "nan"],
    ["collusion", "--store", "STORE", "--fdr", "nan"],
])
def test_nan_is_not_a_share(proved: Store, tmp_path: Path, args: list[str]):
    args = [str(tmp_path / "sim") if a == "OUT" else str(proved.root) if a == "STORE" else a
            for a in args]
    outcome = run_cli(args)
    assert _error_line(outcome, args[-2], "nan"), outcome
    assert not (tmp_path / "sim").exists()


def test_an_impossible_output_path_is_not_blamed_on_disk_space():
    outcome = run_cli(["simulate", "--hands", "5", "--out", "/proc/poker-audit/sim"])
    assert _error_line(outcome, "/proc/poker-audit", "check the path"), outcome
    assert "disk space" not in outcome.lines[-1]


@pytest.mark.parametrize("kind", ["a FIFO", "/dev/zero", "a binary file", "an empty file",
                                  "JSON"])
def test_bench_phh_of_a_file_that_is_no_phh_names_it(tmp_path: Path, kind: str):
    path = _special_files(tmp_path)[kind]
    outcome = run_cli(["bench", "--quick", "--phh", str(path)])
    assert _error_line(outcome, str(path)), outcome


@pytest.mark.parametrize("name", sorted(HOSTILE_HOUSE_OVERRIDES))
def test_hostile_house_overrides_in_a_stored_hand_do_not_stop_the_audit(tmp_path: Path,
                                                                       name: str):
    table = hands_table("h", 3)
    games = [None if g is None else {**g, "house_overrides": HOSTILE_HOUSE_OVERRIDES[name]}
             for g in table.column("game").to_pylist()]
    table = table.set_column(table.schema.get_field_index("game"), "game",
                             pa.array(games, table.schema.field("game").type))
    pq.write_table(table, tmp_path / "in.parquet")
    store = Store(tmp_path / "store")
    ingest([tmp_path / "in.parquet"], store)
    outcome = run_cli(["audit", "--store", str(store.root)])
    assert not outcome.crashed and outcome.exit_code == 1, outcome  # hand h0's short award
    assert any("3 hands" in line for line in outcome.lines)


def test_demo_into_an_existing_store_is_refused_and_adds_nothing(proved: Store):
    before = proved.records()
    outcome = run_cli(["demo", "--store", str(proved.root)])
    assert outcome.one_line(2) and str(proved.root) in outcome.lines[0], outcome
    assert proved.records() == before  # the sample hands did not join its evidence
