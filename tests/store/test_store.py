"""The append-only store: round trip, dedupe, verify and tamper evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.ingest.pipeline import ingest
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import (
    hand_rows,
    many_hands,
    quarantined,
    raw_table,
    write_jsonl,
    write_parquet,
)


def test_round_trip_events_store_duckdb_identical_rows_and_types(store: Store, tmp_path):
    rows = many_hands("rt", 5)
    src = write_parquet(tmp_path / "in.parquet", rows)
    summary = ingest([src], store)
    assert (summary.hands, summary.quarantined) == (5, 0)
    expected = raw_table(rows)
    got = query(store, "SELECT * FROM events ORDER BY hand_id, seq")
    # DuckDB names the UTC zone "Etc/UTC"; the instants and every other type are identical.
    assert got.schema.field("ts").type.tz in ("UTC", "Etc/UTC")
    assert got.cast(expected.schema).equals(expected)
    assert [f.type for f in got.schema if f.name != "ts"] == [
        f.type for f in expected.schema if f.name != "ts"]
    stored = store.read_events()
    assert stored.schema.remove_metadata() == expected.schema.remove_metadata()


def test_store_writes_one_file_per_date_partition(store: Store, tmp_path):
    rows = hand_rows("d1", ts="2026-11-01T23:59:00+00:00") + hand_rows(
        "d2", ts="2026-11-02T00:01:00+00:00") + hand_rows("d3", ts=None)
    ingest([write_jsonl(tmp_path / "in.jsonl", rows)], store)
    parts = sorted(p.parent.name for p in store.event_files())
    assert parts == ["date=2026-11-01", "date=2026-11-02", "date=undated"]


def test_reingesting_identical_bytes_is_a_noop_that_says_so(store: Store, tmp_path):
    src = write_parquet(tmp_path / "in.parquet", many_hands("x", 3))
    first = ingest([src], store)
    second = ingest([src], store)
    assert first.hands == 3
    assert second.files[0].skipped == "identical bytes already ingested"
    assert len(store.records()) == 1
    assert second.exit_code == 0


def test_hand_id_already_in_store_is_quarantined_not_duplicated(store: Store, tmp_path):
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("h", 2))], store)
    rows = many_hands("h", 3, table_id="t9")  # h0, h1 again (other events) plus the new h2
    summary = ingest([write_jsonl(tmp_path / "b.jsonl", rows)], store)
    assert (summary.hands, summary.quarantined) == (1, 2)
    assert summary.exit_code == 1
    ids = query(store, "SELECT hand_id, count(*) AS n FROM hands_started GROUP BY 1").to_pylist()
    assert sorted((r["hand_id"], r["n"]) for r in ids) == [("h0", 1), ("h1", 1), ("h2", 1)]
    reasons = quarantined(store)
    assert {r["hand_id"] for r in reasons} == {"h0", "h1"}
    assert all("already in the store" in r["reason"] for r in reasons)


def test_manifest_records_are_hash_chained(store: Store, tmp_path):
    for i in range(3):
        ingest([write_parquet(tmp_path / f"{i}.parquet", many_hands(f"b{i}-", 2))], store)
    records = store.records()
    assert len(records) == 3  # one record per batch: the chain below has two links to check
    assert len({rec["hash"] for rec in records}) == 3
    assert records[0]["prev_hash"] == "0" * 64
    for prev, rec in zip(records, records[1:], strict=False):
        assert rec["prev_hash"] == prev["hash"]
    for rec in records:
        assert {"batch_id", "created_at", "files", "sources", "hash", "prev_hash"} <= set(rec)
        for f in rec["files"]:
            assert {"path", "sha256", "rows", "hands"} <= set(f)
    assert store.verify().ok



@pytest.fixture
def filled(store: Store, tmp_path) -> Store:
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("a", 3))], store)
    ingest([write_parquet(tmp_path / "b.parquet", many_hands("b", 3))], store)
    assert store.verify().ok
    return store


def _problems(store: Store) -> list[tuple[str, str]]:
    return [(p.kind, p.path) for p in store.verify().problems]


def test_tamper_flipped_byte_is_named(filled: Store):
    path = filled.event_files()[0]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    rel = path.relative_to(filled.root).as_posix()
    assert _problems(filled) == [("modified", rel)]


def test_tamper_deleted_file_is_named(filled: Store):
    path = filled.event_files()[1]
    path.unlink()
    assert _problems(filled) == [("missing", path.relative_to(filled.root).as_posix())]


def test_tamper_added_file_is_named(filled: Store):
    extra = filled.root / "events" / "date=2026-11-01" / "sneaky.parquet"
    pq.write_table(pq.read_table(filled.event_files()[0]), extra)
    assert _problems(filled) == [("unlisted", "events/date=2026-11-01/sneaky.parquet")]


def test_tamper_edited_manifest_line_is_named(filled: Store):
    lines = filled.manifest_path.read_text().splitlines()
    rec = json.loads(lines[0])
    rec["hands"] = 999
    lines[0] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    filled.manifest_path.write_text("\n".join(lines) + "\n")
    kinds = _problems(filled)
    assert ("manifest", f"manifest.jsonl record 1 (batch {rec['batch_id']})") in kinds


def test_tamper_removed_manifest_record_breaks_the_chain(filled: Store):
    lines = filled.manifest_path.read_text().splitlines()
    filled.manifest_path.write_text(lines[1] + "\n")
    kinds = {k for k, _ in _problems(filled)}
    assert "chain" in kinds and "unlisted" in kinds


def test_tamper_reordered_manifest_records_break_the_chain(filled: Store):
    lines = filled.manifest_path.read_text().splitlines()
    filled.manifest_path.write_text("\n".join(reversed(lines)) + "\n")
    assert {k for k, _ in _problems(filled)} == {"chain"}


def test_store_contract_empty_store_reads_empty(store: Store):
    assert store.records() == []
    assert store.read_events().num_rows == 0
    assert store.verify().ok
    assert query(store, "SELECT count(*) AS n FROM events").to_pylist() == [{"n": 0}]


def test_query_refuses_writes_and_outside_files(filled: Store, tmp_path: Path):
    from audit.errors import QueryError

    with pytest.raises(QueryError, match="only SELECT"):
        query(filled, f"COPY (SELECT 1) TO '{filled.root}/x.csv'")
    with pytest.raises(QueryError):
        query(filled, "SELECT * FROM read_csv('/etc/passwd')")
    with pytest.raises(QueryError, match="exactly one"):
        query(filled, "SELECT 1; SELECT 2")
    assert not (filled.root / "x.csv").exists()


def test_query_binds_parameters(filled: Store):
    rows = query(filled, "SELECT count(*) AS n FROM events WHERE hand_id = $h", {"h": "a1"})
    assert rows.to_pylist() == [{"n": 15}]
    injected = query(filled, "SELECT count(*) AS n FROM events WHERE hand_id = $h",
                     {"h": "a1' OR '1'='1"})
    assert injected.to_pylist() == [{"n": 0}]


@pytest.mark.parametrize("suffix", ["parquet", "jsonl", "csv"])
def test_native_files_stream_in_hand_aligned_chunks(suffix, store: Store, tmp_path, monkeypatch):
    """Files are read in chunks (bounded memory); a hand cut by a chunk edge stays whole."""
    import csv

    import audit.importers.events as native

    monkeypatch.setattr(native, "CHUNK_ROWS", 7)  # smaller than one hand (15 events)
    rows = many_hands("s", 9)
    src = tmp_path / f"in.{suffix}"
    if suffix == "parquet":
        pq.write_table(raw_table(rows), src, row_group_size=4)
    elif suffix == "jsonl":
        write_jsonl(src, rows)
    else:
        with src.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["hand_id", "seq", "ts", "table_id", "kind", "seat",
                                              "player", "amount", "total", "cards", "detail",
                                              "game"])
            w.writeheader()
            for r in rows:
                w.writerow({**{k: r.get(k) for k in w.fieldnames},
                            "game": json.dumps(r["game"]) if r.get("game") else ""})
    chunks = list(native.NativeEventsImporter().read(src))
    assert len(chunks) > 1
    summary = ingest([src], store)
    assert (summary.hands, summary.quarantined) == (9, 0)
    got = query(store, "SELECT hand_id, seq, kind, amount FROM events ORDER BY hand_id, seq")
    assert got.to_pylist() == [
        {k: r.get(k) for k in ("hand_id", "seq", "kind", "amount")} for r in rows]
