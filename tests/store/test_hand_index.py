"""The hand-id index (audit/store/hand_index.py, issue 24): each batch's sorted 64-bit hashes
of its hand ids, committed with the batch, loaded once per Store and extended by the batches
committed since. A lookup opens only the event files of batches whose index holds a hash
asked for, and confirms the id there: a collision never names a hand the store does not
hold. A store written before the index, or with an index damaged, is looked up from its
events (in memory, nothing written). verify checks each index against its batch's hands."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import audit.store.dataset as dataset
from audit.errors import StoreError
from audit.ingest.pipeline import ingest
from audit.sql.query import query
from audit.store import hand_index
from audit.store.dataset import BatchWriter, Store
from audit.store.hand_index import HandIndex
from tests.support.eventrows import hand_rows, many_hands, quarantined, write_jsonl, write_parquet


def _ingested(store: Store, tmp_path: Path, name: str, rows: list, workers: int = 1):
    return ingest([write_parquet(tmp_path / f"{name}.parquet", rows)], store, workers=workers)


def _stored_ids(store: Store) -> list[str]:
    return sorted(r["hand_id"] for r in
                  query(store, "SELECT hand_id FROM hands_started").to_pylist())


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The event files a lookup opens (Parquet files read by the store's lookups)."""
    seen: list[str] = []
    real = dataset.pq.ParquetFile

    def counting(path, *args, **kwargs):
        seen.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(dataset.pq, "ParquetFile", counting)
    return seen


@pytest.fixture
def five(store: Store, tmp_path: Path) -> Store:
    """Five batches of 20 hands: a0..a19, ..., e0..e19, each with its index."""
    for prefix in "abcde":
        assert _ingested(store, tmp_path, prefix, many_hands(prefix, 20)).hands == 20
    assert all("hand_index" in r for r in store.records())
    return store


def test_each_batch_commits_the_sorted_hashes_of_its_hand_ids(five: Store):
    for record in five.records():
        entry = record["hand_index"]
        data = (five.root / hand_index.index_rel(record["batch_id"])).read_bytes()
        hashes = hand_index.read_index(data)
        prefix = record["files"][0]["path"].split("/")[-1]  # any file of the batch
        assert prefix
        assert entry["hashes"] == len(hashes) == record["hands"] == 20
        assert entry["hash"] == hand_index.HASH
        assert list(hashes) == sorted(hashes)
    first = five.records()[0]
    want = np.unique(hand_index.hash_ids([f"a{i}" for i in range(20)]))
    got = hand_index.read_index(
        (five.root / hand_index.index_rel(first["batch_id"])).read_bytes())
    assert list(got) == list(want)
    assert five.verify().ok


def test_a_lookup_of_new_ids_opens_no_event_file(five: Store, opened: list[str]):
    assert five.find_hands(pa.array([f"z{i}" for i in range(50)])) == set()
    assert opened == []


def test_a_lookup_opens_only_the_batches_holding_a_stored_id(five: Store, opened: list[str]):
    assert five.find_hands(pa.array(["c3", "c7", "zz", "e19"])) == {"c3", "c7", "e19"}
    files = {f["path"].split("/")[-1] for r in five.records()[2::2] for f in r["files"]}
    assert set(opened) == files and len(opened) == 2


def test_the_index_is_loaded_once_and_extended_by_each_commit(five: Store, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch):
    loaded: list[int] = []
    real = Store._batch_hashes

    def counted(self, record, records):
        loaded.append(records.index(record))
        return real(self, record, records)

    monkeypatch.setattr(Store, "_batch_hashes", counted)
    store = Store(five.root)  # another process's
    assert store.find_hands(pa.array(["a1"])) == {"a1"}
    assert loaded == [0, 1, 2, 3, 4]
    assert store.find_hands(pa.array(["b1"])) == {"b1"}
    assert loaded == [0, 1, 2, 3, 4]  # nothing read again
    ingest([write_parquet(tmp_path / "f.parquet", many_hands("f", 3))], store)
    ingest([write_parquet(tmp_path / "g.parquet", many_hands("g", 3))], store)
    assert loaded == [0, 1, 2, 3, 4, 5]  # g's lookup added f's batch, committed since
    assert store.find_hands(pa.array(["f2", "g0", "a0", "q"])) == {"f2", "g0", "a0"}
    assert loaded == [0, 1, 2, 3, 4, 5, 6]


def test_a_lookup_sees_the_batches_another_writer_committed(five: Store, tmp_path: Path):
    reader = Store(five.root)
    assert reader.find_hands(pa.array(["a1", "w1"])) == {"a1"}
    other = Store(five.root)  # another process's writer
    _ingested(other, tmp_path, "w", many_hands("w", 3))
    assert reader.find_hands(pa.array(["a1", "w1"])) == {"a1", "w1"}
    assert reader.read_hands(["w2"]).column("hand_id").unique().to_pylist() == ["w2"]


def test_a_damaged_manifest_line_stops_the_lookup_as_it_stops_every_reader(five: Store):
    assert five.find_hands(pa.array(["a1"])) == {"a1"}
    five.manifest_path.write_bytes(five.manifest_path.read_bytes() + b"{not json}\n")
    with pytest.raises(StoreError, match="manifest.jsonl:6"):
        five.find_hands(pa.array(["a1"]))


def test_a_store_replaced_under_the_same_path_is_loaded_afresh(five: Store, tmp_path: Path):
    assert five.find_hands(pa.array(["a1"])) == {"a1"}
    other = Store(tmp_path / "other")
    _ingested(other, tmp_path, "o", many_hands("o", 3))
    five.manifest_path.write_bytes(other.manifest_path.read_bytes())
    for rel in ["events", "index"]:
        (five.root / rel).rename(tmp_path / f"old-{rel}")
        (other.root / rel).rename(five.root / rel)
    assert five.find_hands(pa.array(["a1", "o1"])) == {"o1"}


@pytest.mark.parametrize("workers", [1, 2])
def test_twin_ids_across_files_and_batches(store: Store, tmp_path: Path, workers: int):
    """A hand in an earlier batch and again in a later file of the same ingest: stored once
    when its events are the same, quarantined when they differ; across files of one ingest
    (committed in order) as across ingests."""
    _ingested(store, tmp_path, "old", many_hands("h", 4))
    room = tmp_path / "room"
    room.mkdir()
    write_parquet(room / "1.parquet", [*hand_rows("h1"), *hand_rows("n0"), *hand_rows("n1")])
    write_jsonl(room / "2.jsonl", [*hand_rows("n0"), *hand_rows("h2", table_id="t9"),
                                   *hand_rows("n2")])
    write_jsonl(room / "3.jsonl", [*hand_rows("n1", table_id="t9"), *hand_rows("n3")])
    summary = ingest([room], store, workers=workers)
    assert [(f.hands, f.already_stored, f.quarantined) for f in summary.files] == [
        (2, 1, 0), (1, 1, 1), (1, 0, 1)]
    assert _stored_ids(store) == ["h0", "h1", "h2", "h3", "n0", "n1", "n2", "n3"]
    assert sorted(q["hand_id"] for q in quarantined(store)) == ["h2", "n1"]
    assert store.verify().ok


def test_a_store_from_before_the_index_is_looked_up_from_its_events(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as m:
        m.setattr(BatchWriter, "_write_index", lambda self: None)  # a writer before the index
        _ingested(store, tmp_path, "a", many_hands("a", 5))
        _ingested(store, tmp_path, "b", many_hands("b", 5))
    assert not any("hand_index" in r for r in store.records())
    assert not (store.root / "index").exists()
    assert store.verify().ok
    # a fresh process (Store) finds the stored hands from the events, writes nothing
    fresh = Store(store.root)
    assert fresh.find_hands(pa.array(["a4", "b0", "c0"])) == {"a4", "b0"}
    assert not (store.root / "index").exists()
    summary = ingest([write_jsonl(tmp_path / "c.jsonl", [
        *hand_rows("a1"), *hand_rows("b2", table_id="t9"), *hand_rows("c0")])], Store(store.root))
    f = summary.files[0]
    assert (f.hands, f.already_stored, f.quarantined) == (1, 1, 1)
    records = store.records()
    assert "hand_index" in records[-1] and "hand_index" not in records[0]  # mixed store
    assert store.verify().ok
    assert Store(store.root).find_hands(pa.array(["a0", "c0", "x"])) == {"a0", "c0"}


def test_collisions_are_confirmed_against_the_events(store: Store, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch):
    """With a hash of 3 values every id collides with stored ones: only the ids the events
    hold are named, and ingest stores the new hands."""
    weak = lambda ids: np.array([len(i) % 3 for i in ids], np.uint64)  # noqa: E731
    monkeypatch.setattr(hand_index, "hash_ids", weak)
    _ingested(store, tmp_path, "a", many_hands("a", 12))
    assert len(hand_index.read_index(
        (store.root / hand_index.index_rel(store.records()[0]["batch_id"])).read_bytes())) == 2
    assert store.find_hands(pa.array(["a3", "b3", "a11", "b11", "ccc"])) == {"a3", "a11"}
    summary = ingest([write_jsonl(tmp_path / "b.jsonl", [
        *hand_rows("a3"), *hand_rows("b3"), *hand_rows("b11"), *hand_rows("a11", table_id="t9")
    ])], store)
    f = summary.files[0]
    assert (f.hands, f.already_stored, f.quarantined) == (2, 1, 1)
    assert store.verify().ok
    assert store.read_hands(["b3", "zz"]).column("hand_id").unique().to_pylist() == ["b3"]


CRASH = textwrap.dedent(
    """
    import sys
    from audit.importers.events import NativeEventsImporter
    from audit.ingest.validate import validate_events
    from audit.store.dataset import PendingBatch, Store

    from pathlib import Path
    store, src, point = Store(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    batch = PendingBatch()
    for chunk in NativeEventsImporter().read(src):
        batch.add("2026-11-01", validate_events(chunk.table, chunk.lines, str(src)).table)
    store.commit(batch, _crash_at=point)
    """
)


@pytest.mark.parametrize("point", ["staged", "committed"])
def test_a_crash_between_writing_and_committing(point: str, five: Store, tmp_path: Path):
    """Killed before the commit point, the index written in staging is dropped with the
    batch and its hands are not found; killed after it, a reader finds them through the
    index still in staging, and the next writer publishes it."""
    src = write_parquet(tmp_path / "k.parquet", many_hands("k", 6))
    proc = subprocess.run([sys.executable, "-c", CRASH, str(five.root), str(src), point],
                          check=False)
    assert proc.returncode == 137
    staged = list((five.root / "staging").rglob("*.hid"))
    assert len(staged) == 1
    reader = Store(five.root)
    assert reader.verify().ok
    found = reader.find_hands(pa.array(["k0", "k5", "a0"]))
    assert found == ({"k0", "k5", "a0"} if point == "committed" else {"a0"})
    five.recover_if_needed()
    assert not (five.root / "staging").exists()
    published = (five.root / hand_index.index_rel(staged[0].stem)).exists()
    assert published == (point == "committed")
    assert five.verify().ok
    assert Store(five.root).find_hands(pa.array(["k0", "a0"])) == found - {"k5"}


def test_verify_names_an_index_edited_or_not_matching_its_hands(
        five: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    record = five.records()[1]
    path = five.root / hand_index.index_rel(record["batch_id"])
    data = path.read_bytes()
    path.write_bytes(data[8:])  # a hash dropped
    problems = five.verify().problems
    assert [(p.kind, p.path) for p in problems] == [("modified", str(path.relative_to(
        five.root)))]
    # a damaged index is not trusted: the lookup falls back to the batch's events
    assert Store(five.root).find_hands(pa.array([f"b{i}" for i in range(20)])) == {
        f"b{i}" for i in range(20)}
    path.write_bytes(data)
    assert five.verify().ok
    # an index whose bytes match its record but not its batch's hands (a writer's defect)
    real = hand_index.index_bytes
    with monkeypatch.context() as m:
        m.setattr(hand_index, "index_bytes", lambda packed: real(packed)[8:])
        _ingested(five, tmp_path, "f", many_hands("f", 3))
    problems = five.verify().problems
    assert [p.kind for p in problems] == ["index"]
    assert "exactly the hashes" in problems[0].detail


def test_an_index_of_a_rolled_back_batch_is_never_read(five: Store):
    """Removing the newest record leaves its index file behind: no record names it, so no
    lookup reads it (and verify, which cannot see a rollback without --head, stays quiet)."""
    last = five.records()[-1]
    for f in last["files"]:
        (five.root / f["path"]).unlink()
    lines = five.manifest_path.read_bytes().splitlines(keepends=True)
    five.manifest_path.write_bytes(b"".join(lines[:-1]))
    assert (five.root / hand_index.index_rel(last["batch_id"])).exists()
    assert Store(five.root).find_hands(pa.array(["e0", "d0"])) == {"d0"}
    assert five.verify().ok


def test_hand_index_levels_find_every_record_of_a_hash():
    index = HandIndex()
    batches = [np.array(sorted(set(np.random.default_rng(s).integers(0, 50, 20))), np.uint64)
               for s in range(9)]
    for number, hashes in enumerate(batches):
        index.add(hashes, number)
    assert len(index) == sum(len(b) for b in batches)
    asked = np.arange(0, 60, dtype=np.uint64)
    at, where = index.candidates(asked)
    got = sorted(zip(asked[at].tolist(), where.tolist(), strict=True))
    want = sorted((int(h), n) for n, b in enumerate(batches) for h in b.tolist())
    assert got == want
    assert len(index._levels) <= 4  # merged down: a level per doubling, not per batch
