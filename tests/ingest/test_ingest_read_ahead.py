"""Ingest reads the next chunk on a second thread while it writes the current one: the same
chunks in the same order, the reader's failures where they happened, a bounded number of
chunks in memory, and the very store that reading one chunk after the other writes."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import audit.importers.events as events_importer
import audit.ingest.pipeline as pipeline
from audit.cli.demo import DEMO_DATA
from audit.errors import AuditInputError
from audit.importers.base import ReadLimits, read_limits, using_limits
from audit.ingest.readahead import read_ahead
from audit.simulate import simulate
from audit.store.dataset import Store


def test_every_chunk_comes_out_once_in_the_order_it_was_read():
    assert list(read_ahead(iter(range(1_000)), depth=2)) == list(range(1_000))


def test_a_reader_failure_reaches_the_writer_after_the_chunks_before_it():
    def reader():
        yield "chunk 1"
        yield "chunk 2"
        raise AuditInputError("part.parquet: not a readable Parquet file")

    got = []
    with pytest.raises(AuditInputError, match="not a readable Parquet file"):
        for chunk in read_ahead(reader()):
            got.append(chunk)
    assert got == ["chunk 1", "chunk 2"]


def test_a_writer_that_stops_early_stops_the_reader_and_closes_its_file():
    closed = threading.Event()

    def endless_reader():
        try:
            n = 0
            while True:
                n += 1
                yield n
        finally:
            closed.set()  # the reader's file is closed

    before = threading.active_count()
    chunks = read_ahead(endless_reader())
    assert [next(chunks) for _ in range(3)] == [1, 2, 3]
    chunks.close()  # the writer failed: the batch is aborted
    assert closed.is_set()
    assert threading.active_count() == before


def test_the_reader_runs_at_most_depth_chunks_ahead_of_the_writer():
    read = []

    def reader():
        for n in range(100):
            read.append(n)
            yield n

    chunks = read_ahead(reader(), depth=2)
    assert next(chunks) == 0
    deadline = time.monotonic() + 10
    while len(read) < 4 and time.monotonic() < deadline:  # 2 waiting, 1 in hand
        time.sleep(0.01)
    time.sleep(0.2)  # room to run further, if it could
    # the chunk handed over, 2 waiting, and the one held until there is room
    assert len(read) == 4
    chunks.close()


def test_the_reader_thread_keeps_the_read_limits_in_force():
    limits = ReadLimits(line_bytes=123, hand_bytes=4_567)

    def reader():
        yield read_limits()

    with using_limits(limits):
        assert list(read_ahead(reader())) == [limits]


def _store_contents(store: Store) -> list[tuple]:
    """What the store holds, without the batch ids and times that differ between two
    ingests: each batch's files (date, bytes' digest, rows, hands), Merkle root and
    quarantined count, in chain order; and the quarantine files' reasons."""
    out = []
    for record in store.records():
        files = tuple((f["path"].split("/")[1], f["sha256"], f["rows"], f["hands"])
                      for f in record["files"])
        reasons = tuple(json.loads(line)["reason"] for q in record["quarantine"]
                        for line in (store.root / q["path"]).read_text().splitlines())
        out.append((files, record["merkle"]["root"], record["quarantined"], reasons))
    return out


@pytest.mark.slow
def test_ingest_writes_the_same_store_with_and_without_read_ahead(tmp_path, monkeypatch):
    room = tmp_path / "room"
    simulate(room, hands=1_500, seed=3, variant="all", structure="mixed", tables=6,
             violations=0.05, colluders=1, tournament_share=0.3, hands_per_file=500)
    inputs = [*sorted(Store(room).event_files()), DEMO_DATA / "sample-events.jsonl",
              DEMO_DATA / "handhq-ps-50nl-excerpt.phhs"]
    # a file repeated under another name: its hands are already stored (the lookup after
    # the file), and chunks small enough that every file is read in several
    repeat = tmp_path / "again.parquet"
    pq.write_table(pq.read_table(inputs[0]), repeat, compression="snappy")
    monkeypatch.setattr(events_importer, "CHUNK_ROWS", 2_000)
    ahead = Store(tmp_path / "ahead")
    pipeline.ingest([*inputs, repeat], ahead)
    monkeypatch.setattr(pipeline, "read_ahead", lambda chunks: chunks)  # one after the other
    serial = Store(tmp_path / "serial")
    pipeline.ingest([*inputs, repeat], serial)
    assert len(_store_contents(ahead)) >= 5
    assert _store_contents(ahead) == _store_contents(serial)
    assert ahead.verify().ok


def test_a_broken_file_is_quarantined_whole_with_read_ahead(tmp_path: Path):
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1" + b"\x00" * 64)  # the magic, then nothing Parquet can read
    store = Store(tmp_path / "store")
    summary = pipeline.ingest([broken], store, fmt="events")
    assert summary.errors == 1
    assert "not a readable Parquet file" in summary.files[0].error
    assert summary.files[0].quarantined == 1
