"""Duplicate hands at ingest: the file's ids are looked up in the store once (Store.find_hands,
a scan of the hand_id column that skips row groups by their id range) instead of a set of
every stored hand. A hand the store holds with the same events (overlapping exports) is counted
as already stored; one stored with other events, or repeated within the file, is
quarantined."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.ingest.pipeline import ingest
from audit.sql.query import query
from audit.store.dataset import Store, _row_groups_holding
from tests.support.eventrows import (
    hand_rows,
    many_hands,
    quarantined,
    raw_table,
    write_jsonl,
    write_parquet,
)


def _stored_counts(store: Store) -> dict[str, int]:
    rows = query(store, "SELECT hand_id, count(*) AS n FROM hands_started GROUP BY 1")
    return {r["hand_id"]: r["n"] for r in rows.to_pylist()}


@pytest.fixture
def batches(store: Store, tmp_path: Path) -> Store:
    """Three committed batches: a0..a3, b0..b3, c0..c3."""
    for prefix in "abc":
        summary = ingest([write_parquet(tmp_path / f"{prefix}.parquet",
                                        many_hands(prefix, 4))], store)
        assert (summary.hands, summary.quarantined) == (4, 0)
    assert len(store.records()) == 3
    return store


def test_find_hands_names_exactly_the_stored_ids_across_batches(batches: Store):
    asked = pa.array(["a0", "b3", "c1", "a9", "zz", "b", None], pa.string())
    assert batches.find_hands(asked) == {"a0", "b3", "c1"}
    assert batches.find_hands(pa.array(["b2"])) == {"b2"}  # fewer asked than a file holds
    assert batches.find_hands(pa.array([], pa.string())) == set()
    assert Store(batches.root.parent / "empty").find_hands(pa.array(["a0"])) == set()


def test_overlapping_export_counts_its_stored_hands_as_already_stored(batches: Store,
                                                                       tmp_path: Path):
    """Two exports that overlap: the hands in both are the same hands, stored once, counted
    apart from quarantine, and the ingest is clean (issue 23, bug 1)."""
    rows = [*hand_rows("a1"), *hand_rows("n0"), *hand_rows("c3"), *hand_rows("n1")]
    summary = ingest([write_jsonl(tmp_path / "overlap.jsonl", rows)], batches)
    assert (summary.hands, summary.already_stored, summary.quarantined) == (2, 2, 0)
    assert summary.files[0].already_stored == 2
    assert summary.exit_code == 0
    counts = _stored_counts(batches)
    assert counts["a1"] == counts["c3"] == counts["n0"] == counts["n1"] == 1
    assert len(counts) == 14
    assert quarantined(batches) == []  # quarantine holds only rejected hands
    record = batches.records()[-1]
    assert (record["hands"], record["merkle"]["hands"], record["quarantined"]) == (2, 2, 0)
    assert batches.verify().ok


def test_a_file_whose_every_hand_is_stored_commits_nothing_and_is_read_again(batches: Store,
                                                                            tmp_path: Path):
    src = write_jsonl(tmp_path / "same.jsonl", many_hands("b", 4))
    records = len(batches.records())
    for _ in range(2):  # nothing of it recorded: read again, and again already stored
        summary = ingest([src], batches)
        assert (summary.hands, summary.already_stored, summary.quarantined) == (0, 4, 0)
        assert summary.exit_code == 0 and not summary.files[0].skipped
    assert len(batches.records()) == records
    assert batches.verify().ok


def test_hand_repeated_from_several_batches_is_quarantined_once_each(batches: Store,
                                                                     tmp_path: Path):
    """A stored hand id carrying other events (here another table) is no copy of the
    stored hand: quarantined, never stored over it."""
    rows = [*hand_rows("a1", table_id="t9"), *hand_rows("n0"), *hand_rows("c3", table_id="t9"),
            *hand_rows("n1")]
    summary = ingest([write_jsonl(tmp_path / "again.jsonl", rows)], batches)
    assert (summary.hands, summary.quarantined, summary.already_stored) == (2, 2, 0)
    assert summary.exit_code == 1
    counts = _stored_counts(batches)
    assert counts["a1"] == counts["c3"] == counts["n0"] == counts["n1"] == 1
    assert len(counts) == 14
    repeated = [r for r in quarantined(batches) if r["hand_id"] in ("a1", "c3")]
    assert sorted(r["hand_id"] for r in repeated) == ["a1", "c3"]
    assert all("already in the store" in r["reason"] for r in repeated)
    assert all(len(r["raw"].splitlines()) == 15 for r in repeated)  # every row of the hand
    record = batches.records()[-1]
    assert (record["hands"], record["merkle"]["hands"], record["quarantined"]) == (2, 2, 2)
    assert batches.verify().ok  # the staged file rewritten without them still proves


def test_a_file_whose_every_hand_is_stored_commits_only_its_quarantine(batches: Store,
                                                                        tmp_path: Path):
    rows = [*hand_rows("b0", ts="2026-11-01T10:00:00+00:00", table_id="t9"),
            *hand_rows("b1", ts="2026-11-02T10:00:00+00:00", table_id="t9"),
            *hand_rows("m0", ts="2026-11-02T11:00:00+00:00")]
    summary = ingest([write_jsonl(tmp_path / "mixed.jsonl", rows)], batches)
    assert (summary.hands, summary.quarantined) == (1, 2)
    record = batches.records()[-1]
    # the 2026-11-01 partition held only a stored hand: its staged file is gone
    assert [f["path"].split("/")[1] for f in record["files"]] == ["date=2026-11-02"]
    assert batches.verify().ok

    summary = ingest([write_jsonl(tmp_path / "all.jsonl", many_hands("c", 4, table_id="t9"))],
                     batches)
    assert (summary.hands, summary.quarantined) == (0, 4)
    record = batches.records()[-1]
    assert record["files"] == [] and record["quarantined"] == 4
    assert all(n == 1 for n in _stored_counts(batches).values())
    assert batches.verify().ok


def test_hand_repeated_within_one_file_across_chunks_is_quarantined(store: Store,
                                                                    tmp_path: Path,
                                                                    monkeypatch):
    import audit.importers.events as native

    monkeypatch.setattr(native, "CHUNK_ROWS", 10)  # one hand (15 rows) per chunk
    rows = [*hand_rows("w0"), *hand_rows("w1"), *hand_rows("w0"), *hand_rows("w2")]
    src = write_jsonl(tmp_path / "twice.jsonl", rows)
    assert len(list(native.NativeEventsImporter().read(src))) > 2
    summary = ingest([src], store)
    assert (summary.hands, summary.quarantined) == (3, 1)
    assert _stored_counts(store) == {"w0": 1, "w1": 1, "w2": 1}
    (item,) = quarantined(store)
    assert item["hand_id"] == "w0" and "earlier in this file" in item["reason"]
    assert store.verify().ok


def test_hand_repeated_within_one_file_and_stored_keeps_neither_copy(batches: Store,
                                                                   tmp_path: Path,
                                                                   monkeypatch):
    import audit.importers.events as native

    monkeypatch.setattr(native, "CHUNK_ROWS", 10)
    rows = [*hand_rows("a2", table_id="t9"), *hand_rows("q0"), *hand_rows("a2", table_id="t9")]
    summary = ingest([write_jsonl(tmp_path / "both.jsonl", rows)], batches)
    assert (summary.hands, summary.quarantined) == (1, 2)
    assert _stored_counts(batches)["a2"] == 1
    reasons = [r["reason"] for r in quarantined(batches) if r["hand_id"] == "a2"]
    assert len(reasons) == 2
    assert {"already in the store" in r for r in reasons} == {True, False}
    assert {"earlier in this file" in r for r in reasons} == {True, False}
    assert batches.verify().ok


def test_row_groups_are_skipped_only_when_their_id_range_cannot_hold_an_id(tmp_path: Path):
    rows = many_hands("r", 6)  # r0..r5, 15 rows each
    path = tmp_path / "groups.parquet"
    pq.write_table(raw_table(rows), path, row_group_size=30)  # r0-r1 | r2-r3 | r4-r5
    metadata = pq.ParquetFile(path).metadata
    assert metadata.num_row_groups == 3
    assert _row_groups_holding(metadata, ["r3"]) == [1]
    assert _row_groups_holding(metadata, ["r1", "r4"]) == [0, 2]
    # inside a group's range but not in it: the group is read (and the id is not found)
    assert _row_groups_holding(metadata, ["r0x"]) == [0]
    assert _row_groups_holding(metadata, ["a", "s"]) == []
    no_stats = tmp_path / "nostats.parquet"
    pq.write_table(raw_table(rows), no_stats, row_group_size=30, write_statistics=False)
    assert _row_groups_holding(pq.ParquetFile(no_stats).metadata, ["zz"]) == [0, 1, 2]


def test_find_hands_reads_past_skipped_row_groups(store: Store, tmp_path: Path, monkeypatch):
    import audit.importers.events as native

    monkeypatch.setattr(native, "CHUNK_ROWS", 30)  # one row group per two hands
    ingest([write_parquet(tmp_path / "g.parquet", many_hands("g", 8))], store)
    (event_file,) = store.event_files()
    assert pq.ParquetFile(event_file).metadata.num_row_groups > 1
    assert store.find_hands(pa.array(["g5", "g7", "g55"])) == {"g5", "g7"}


@pytest.mark.slow
def test_concurrent_ingests_sharing_hands_store_each_hand_once(store: Store, tmp_path: Path):
    """Two processes ingest files that share half their hands: whichever commits second
    finds the shared ones in the store (the lookup runs under the writer lock) and counts
    them as already stored."""
    left = write_parquet(tmp_path / "left.parquet", many_hands("s", 200))
    right = write_parquet(tmp_path / "right.parquet",
                          [*many_hands("s", 100), *many_hands("t", 100)])
    procs = [subprocess.Popen([sys.executable, "-m", "audit.cli", "ingest", str(src),
                               "--store", str(store.root)], stderr=subprocess.PIPE)
             for src in (left, right)]
    codes = []
    for p in procs:
        _, stderr = p.communicate(timeout=300)
        codes.append(p.returncode)
        assert p.returncode in (0, 1), stderr.decode()
    counts = _stored_counts(store)
    assert len(counts) == 300 and set(counts.values()) == {1}
    assert quarantined(store) == []
    assert codes == [0, 0]
    assert store.verify().ok


def test_a_stored_hand_is_the_same_hand_when_only_its_provenance_differs():
    from audit.ingest.pipeline import identical_hands

    stored = raw_table([*hand_rows("p0"), *hand_rows("p1"), *hand_rows("p2")])
    again = [*hand_rows("p2"), *hand_rows("p0"), *hand_rows("p1")]  # another order
    for row in again:
        row["source"] = "pokerstars:export-2.txt:17"  # another file and line
    again[1]["amount"] = 9999  # p2: a seat's stack differs
    again[15]["game"] = {**again[15]["game"], "big_blind": 200}  # p0: the game differs
    assert identical_hands(raw_table(again), stored) == {"p1"}
    assert identical_hands(stored, stored) == {"p0", "p1", "p2"}
