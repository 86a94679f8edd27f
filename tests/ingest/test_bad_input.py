"""Bad input gets a clear error and loses nothing: every input hand is stored or quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, many_hands, quarantined, write_jsonl, write_parquet


def stored_ids(store: Store) -> set[str]:
    return {r["hand_id"] for r in query(store, "SELECT hand_id FROM hands_started").to_pylist()}


def ingest_cli(store: Store, *paths: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["ingest", *map(str, paths), "--store", str(store.root)])
    return result.exit_code, result.output


def assert_nothing_lost(store: Store, input_ids: set[str]) -> None:
    q_ids = {q["hand_id"] for q in quarantined(store)}
    assert stored_ids(store) | q_ids >= input_ids
    assert not (stored_ids(store) & q_ids)


def test_gap_in_seq_quarantines_that_hand_only(store: Store, tmp_path: Path):
    rows = many_hands("g", 3)
    rows = [r for r in rows if not (r["hand_id"] == "g1" and r["seq"] == 4)]
    code, out = ingest_cli(store, write_jsonl(tmp_path / "gap.jsonl", rows))
    assert code == 1
    assert stored_ids(store) == {"g0", "g2"}
    [item] = quarantined(store)
    assert item["hand_id"] == "g1"
    assert item["line"] == 16  # the hand's first line in the file
    assert "seq must run 0..13 without gaps" in item["reason"]
    assert "1 quarantined" in out
    assert_nothing_lost(store, {"g0", "g1", "g2"})


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda rows: rows[1].update(kind="teleport"), "unknown kind 'teleport'"),
        (lambda rows: rows.pop(0) and [r.update(seq=r["seq"] - 1) for r in rows],
         "expected exactly one hand_started, found 0"),
        (lambda rows: rows.pop(), "the last event is 'award', not hand_ended"),
        (lambda rows: rows[9].update(amount=-300), "negative amount -300"),
        (lambda rows: rows[6].update(cards="A♠ Kd"), "are not in the form"),
        (lambda rows: rows[0]["game"].update(variant="canasta"), "unknown variant 'canasta'"),
        (lambda rows: rows[0]["game"].pop("big_blind"), "no big_blind"),
        (lambda rows: rows[3].update(seq=2), "seq repeats"),
    ],
)
def test_structurally_broken_hand_is_quarantined_with_reason(mutate, reason, store, tmp_path):
    bad = hand_rows("bad")
    mutate(bad)
    rows = hand_rows("ok1") + bad + hand_rows("ok2")
    summary = ingest([write_jsonl(tmp_path / "in.jsonl", rows)], store)
    assert (summary.hands, summary.quarantined, summary.exit_code) == (2, 1, 1)
    [item] = quarantined(store)
    assert item["hand_id"] == "bad" and reason in item["reason"]
    assert item["raw"]  # the rejected rows are kept, not lost


def test_wrong_column_types_reject_the_hand_with_the_row(store: Store, tmp_path: Path):
    rows = hand_rows("a") + hand_rows("b")
    rows[9]["amount"] = "three hundred"
    rows[15 + 9]["amount"] = 2.5  # fractional minor units
    summary = ingest([write_jsonl(tmp_path / "types.jsonl", rows)], store)
    assert summary.hands == 0 and summary.quarantined == 2
    reasons = {q["hand_id"]: q["reason"] for q in quarantined(store)}
    assert reasons["a"] == "line 10: amount must be an integer, got 'three hundred'"
    assert reasons["b"] == "line 25: amount must be an integer number of minor units, got 2.5"


def test_wrong_column_types_in_parquet(store: Store, tmp_path: Path):
    rows = hand_rows("p")
    table = pa.table({
        "hand_id": [r["hand_id"] for r in rows],
        "seq": [r["seq"] for r in rows],
        "kind": [r["kind"] for r in rows],
        "amount": [str(r.get("amount")) if r.get("amount") is not None else "x" for r in rows],
    })
    pq.write_table(table, tmp_path / "types.parquet")
    summary = ingest([tmp_path / "types.parquet"], store)
    assert summary.quarantined == 1 and summary.hands == 0
    assert "row 1: amount must be an integer, got 'x'" in quarantined(store)[0]["reason"]


def test_truncated_parquet_is_a_clear_error_and_quarantined_whole(store, tmp_path):
    src = write_parquet(tmp_path / "cut.parquet", many_hands("c", 3))
    src.write_bytes(src.read_bytes()[:-100])
    code, out = ingest_cli(store, src)
    assert code == 2
    assert "not a readable Parquet file" in out
    assert "Traceback" not in out
    [item] = quarantined(store)
    assert item["source"] == str(src) and item["raw"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\xff\x13garbage\x01" * 50, "cannot tell the format"),
    ],
)
def test_empty_and_garbage_files_exit_2_with_a_clear_message(content, message, store, tmp_path):
    src = tmp_path / "junk.bin"
    src.write_bytes(content)
    code, out = ingest_cli(store, src)
    assert code == 2 and message in out and "Traceback" not in out


def test_empty_file_is_skipped_with_one_line(store, tmp_path):
    """A site writes an empty file for a session without a hand (GGPoker
    PLO5-6max-USD-0.1-0.25-202104.straddle.walk.txt): skipped, said so, not quarantined."""
    src = tmp_path / "empty.txt"
    src.write_bytes(b"")
    code, out = ingest_cli(store, src)
    assert code == 0 and "skipped, the file is empty: no hand in it" in out
    assert "Traceback" not in out and quarantined(store) == []


def test_zero_hand_file_is_clean(store: Store, tmp_path: Path):
    src = tmp_path / "none.csv"
    src.write_text("hand_id,seq,kind\n")
    code, out = ingest_cli(store, src)
    assert code == 0 and "0 hands" in out


def test_missing_required_column_names_it(store: Store, tmp_path: Path):
    src = tmp_path / "nokind.csv"
    src.write_text("hand_id,seq\nh,0\n")
    result = CliRunner().invoke(
        main, ["ingest", str(src), "--store", str(store.root), "--format", "events"])
    assert result.exit_code == 2 and "missing required column(s) kind" in result.output


def test_csv_ingest_with_game_as_json(store: Store, tmp_path: Path):
    import csv

    rows = hand_rows("csv1")
    with (tmp_path / "h.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["hand_id", "seq", "ts", "kind", "seat", "player",
                                          "amount", "total", "cards", "detail", "game"])
        w.writeheader()
        for r in rows:
            out = {k: r.get(k) for k in w.fieldnames}
            out["game"] = json.dumps(r["game"]) if r.get("game") else ""
            w.writerow(out)
    summary = ingest([tmp_path / "h.csv"], store)
    assert (summary.hands, summary.quarantined) == (1, 0)
    got = query(store, "SELECT big_blind, button_seat FROM hands_started").to_pylist()
    assert got == [{"big_blind": 100, "button_seat": 1}]


def test_not_json_line_is_quarantined_and_its_hand_too(store: Store, tmp_path: Path):
    rows = hand_rows("j1") + hand_rows("j2")
    src = tmp_path / "mixed.jsonl"
    lines = [json.dumps(r, default=str) for r in rows]
    lines[20] = "{this is not json"
    src.write_text("\n".join(lines) + "\n")
    summary = ingest([src], store)
    assert summary.hands == 1
    reasons = [(q["hand_id"], q["line"]) for q in quarantined(store)]
    assert (None, 21) in reasons and ("j2", 16) in reasons


def test_nonexistent_path_is_a_usage_error(store: Store, tmp_path: Path):
    code, out = ingest_cli(store, tmp_path / "nope.parquet")
    assert code == 2 and "no such file or directory" in out


def test_documentation_in_a_directory_is_skipped_and_said(store: Store, tmp_path: Path):
    folder = tmp_path / "day"
    folder.mkdir()
    write_jsonl(folder / "hands.jsonl", many_hands("d", 2))
    (folder / "README.md").write_text("# hands of the day\n")
    code, out = ingest_cli(store, folder)
    assert code == 0
    assert "README.md: skipped, documentation found in a directory" in out
    named = ingest_cli(store, folder / "README.md")  # named explicitly: read, and refused
    assert named[0] == 2 and "cannot tell the format" in named[1]


def test_a_hand_history_without_a_hand_is_quarantined_whole(store: Store, tmp_path: Path):
    src = tmp_path / "cut.phhs"
    src.write_text("# a hand history cut before its first hand\n\n")
    result = CliRunner().invoke(main, ["ingest", str(src), "--format", "phh",
                                       "--store", str(store.root)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "no hand in the file" in result.output
    assert [q["source"] for q in quarantined(store)] == [str(src)]
