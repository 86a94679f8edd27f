"""Event tables handed to the store with dictionary-array string columns (the fast simulator
does: audit/simulate/compiled/simulator.py) are the same events as the plain-string tables:
every reader
(the store, pyarrow, polars, DuckDB) gets the same types and values back, the Merkle leaves
and roots are the same, find_hands and the duplicate check see the same ids, and a file may
mix both kinds of table."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from audit.schema import events_schema
from audit.simulate.compiled import simulator as fast
from audit.simulate.world import EPOCH_US
from audit.store import merkle
from audit.store.dataset import CODED_COLUMNS, EVENT_FILE_OPTIONS, Store

needs_kernel = pytest.mark.skipif(fast.ready() is None, reason="numba kernel unavailable")
NOW = datetime(2026, 3, 2, tzinfo=UTC)


def _simulated(hands: int, seed: int = 5, tables: int = 4) -> list[tuple[str, pa.Table]]:
    """The fast simulator's tables for `hands` hands (dictionary string columns)."""
    fk = fast.ready()
    setup = fast._tables_setup(seed, tables, fk)
    seats = np.full((tables, fk.MAX_SEATS), -1, dtype=np.int64)
    E = np.empty((fk.N_E, hands * 40 + fk.EVENT_RESERVE), dtype=np.int64)
    per_hand = np.empty((4, hands), dtype=np.int64)
    done, n_ev = fk.play_hands(hands, 0, setup["T"], seats, np.zeros_like(seats),
                               np.zeros_like(seats), np.zeros(len(setup["names"]), np.int64),
                               setup["styles"], setup["rng"], E, *per_hand, *fast._lookups())
    assert done == hands
    return fast._Static(setup, fk, seed).tables(E[:, :n_ev], per_hand[:, :done], 0, EPOCH_US)


def _plain(table: pa.Table) -> pa.Table:
    return table.cast(events_schema())


def _write(root: Path, parts: list[tuple[str, pa.Table]]) -> dict:
    store = Store(root)
    with store.locked():
        writer = store.batch_writer(now=NOW, batch_id="b1")
        for partition, table in parts:
            writer.write(partition, table)
        record = writer.commit()
    assert record is not None
    return record


@needs_kernel
def test_simulated_tables_hold_dictionary_columns() -> None:
    """What the rest of this file relies on: the simulator's string columns are coded."""
    (_, table), *_ = _simulated(300)
    coded = [f.name for f in table.schema if pa.types.is_dictionary(f.type)]
    assert coded == list(fast.CODED_COLUMNS) == ["hand_id", "table_id", "kind", "player",
                                                 "cards", "detail"]
    assert set(coded) <= set(CODED_COLUMNS)  # all of them kept coded by the store
    assert table.column("cards").null_count > 0  # null rows are null indices


@needs_kernel
def test_coded_store_reads_back_as_the_plain_one(tmp_path: Path) -> None:
    parts = _simulated(3000)
    coded_record = _write(tmp_path / "coded", parts)
    plain_record = _write(tmp_path / "plain", [(p, _plain(t)) for p, t in parts])
    assert coded_record["merkle"] == plain_record["merkle"]
    assert [f["rows"] for f in coded_record["files"]] == [f["rows"] for f in plain_record["files"]]

    coded, plain = Store(tmp_path / "coded"), Store(tmp_path / "plain")
    a, b = coded.read_events(), plain.read_events()
    assert a.schema.equals(events_schema(), check_metadata=True)
    assert a.schema.equals(b.schema, check_metadata=True) and a.equals(b)
    assert a.num_rows == sum(t.num_rows for _, t in parts)
    assert coded.verify().ok

    for f_coded, f_plain in zip(coded.event_files(), plain.event_files(), strict=True):
        ta, tb = pq.read_table(f_coded), pq.read_table(f_plain)
        assert ta.schema.equals(tb.schema, check_metadata=True) and ta.equals(tb)
        ma, mb = pq.ParquetFile(f_coded).metadata, pq.ParquetFile(f_plain).metadata
        assert ma.metadata == mb.metadata  # the footer's key-value pairs (order: below)
        assert b"ARROW:schema" in ma.metadata
        assert ma.schema.equals(mb.schema)  # the Parquet schema
        stats = ma.row_group(0).column(0).statistics
        assert ma.row_group(0).column(0).path_in_schema == "hand_id"
        ids = tb.column("hand_id")
        assert (stats.min, stats.max) == (pc.min(ids).as_py(), pc.max(ids).as_py())


@needs_kernel
def test_polars_and_duckdb_read_strings(tmp_path: Path) -> None:
    polars = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    parts = _simulated(800)
    _write(tmp_path / "coded", parts)
    _write(tmp_path / "plain", [(p, _plain(t)) for p, t in parts])
    (f_coded,), (f_plain,) = Store(tmp_path / "coded").event_files(), \
        Store(tmp_path / "plain").event_files()
    pa_, pb = polars.read_parquet(f_coded), polars.read_parquet(f_plain)
    assert pa_.schema == pb.schema and pa_.schema["hand_id"] == polars.String
    assert pa_.equals(pb)
    con = duckdb.connect()
    da = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{f_coded}')").fetchall()
    db = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{f_plain}')").fetchall()
    assert da == db and ("kind", "VARCHAR") in [(r[0], r[1]) for r in da]
    query = "SELECT hand_id, seq, kind, player, cards, detail FROM read_parquet('{}') ORDER BY 1, 2"
    assert con.execute(query.format(f_coded)).fetchall() == \
        con.execute(query.format(f_plain)).fetchall()


@needs_kernel
def test_leaves_of_coded_tables_are_the_plain_leaves() -> None:
    kernel = merkle._kernel()
    if kernel is None:
        pytest.skip("compiled leaf writer unavailable")
    for _, table in _simulated(1200):
        plain = _plain(table)
        want = merkle.reference_leaves(plain)
        assert merkle.compiled_leaves(table, kernel) == want
        assert merkle.compiled_leaves(plain, kernel) == want
        assert merkle.reference_leaves(table) == want
        starts = merkle.hand_starts(table)  # a slice: arrays with an offset
        part = table.slice(int(starts[3]), int(starts[-2] - starts[3]))
        assert part.column("kind").chunk(0).offset > 0
        assert merkle.compiled_leaves(part, kernel) == want[3:-2]


def _small_table() -> pa.Table:
    """Two hands with null and non-null strings in every coded column."""
    rows = {
        "hand_id": ["h1", "h1", "h1", "h2", "h2"], "seq": [0, 1, 2, 0, 1],
        "ts": [1, 2, 3, 4, 5], "table_id": ["t", "t", "t", "t", "t"],
        "kind": ["hand_started", "deal", "fold", "hand_started", "check"],
        "seat": [None, 1, 2, None, 3], "player": [None, "ann", "bob", None, "ann"],
        "amount": [None, None, None, None, None], "total": [None, 5, None, None, None],
        "cards": [None, "Ah Kd", None, None, None], "detail": [None, "hole", None, None, ""],
        "source": [None, None, None, None, None], "game": [None] * 5,
    }
    return pa.Table.from_pydict(rows, schema=events_schema())


def _dictionary_coded(table: pa.Table, names: tuple[str, ...]) -> pa.Table:
    columns = [pc.dictionary_encode(table.column(f.name)) if f.name in names
               else table.column(f.name) for f in table.schema]
    return pa.table(columns, names=table.schema.names)


def test_any_dictionary_coded_table_writes_the_same_file(tmp_path: Path) -> None:
    """A table coded by Arrow (entries in order of first use, as Parquet numbers them) in
    the columns Parquet dictionary-encodes anyway gives the plain table's file byte for
    byte: footer, dictionaries, indices and statistics."""
    plain = _small_table()
    names = tuple(c for c in CODED_COLUMNS if c in EVENT_FILE_OPTIONS["use_dictionary"])
    assert "hand_id" in names and "table_id" not in names
    _write(tmp_path / "plain", [("2026-03-02", plain)])
    _write(tmp_path / "coded", [("2026-03-02", _dictionary_coded(plain, names))])
    (a,), (b,) = Store(tmp_path / "plain").event_files(), Store(tmp_path / "coded").event_files()
    assert a.read_bytes() == b.read_bytes()
    buf = io.BytesIO()
    pq.write_table(plain, buf, **EVENT_FILE_OPTIONS)  # the store adds nothing of its own
    assert buf.getvalue() == a.read_bytes()


def test_plain_and_coded_tables_mix_in_one_file(tmp_path: Path) -> None:
    plain = _small_table()
    later = plain.set_column(0, "hand_id", pa.array(["h3"] * 3 + ["h4"] * 2))
    coded_later = _dictionary_coded(later, ("hand_id", "kind", "player"))
    for order in ([plain, coded_later], [coded_later, plain]):
        root = tmp_path / str(len(list(tmp_path.iterdir())))
        record = _write(root, [("2026-03-02", t) for t in order])
        events = Store(root).read_events()
        expected = pa.concat_tables([_plain(t) for t in order])
        assert events.schema.equals(events_schema(), check_metadata=True)
        assert events.equals(expected)
        assert record["merkle"]["root"] == merkle.merkle_root(
            merkle.reference_leaves(expected)).hex()
        assert Store(root).verify().ok
        assert Store(root).find_hands(pa.array(["h2", "h4", "h9"])) == {"h2", "h4"}


def test_dictionary_columns_kept_only_without_null_entries() -> None:
    """A string column stays a dictionary array of the same values unless its dictionary
    holds a null entry (then it is decoded); other columns are cast to the events schema."""
    plain = _small_table()
    table = _dictionary_coded(plain, ("hand_id", "table_id", "kind"))
    with_null_entry = pa.DictionaryArray.from_arrays(pa.array([1, 0, 0, 1, 2], pa.int32()),
                                                     pa.array(["ann", None, "bob"]))
    table = table.set_column(table.schema.get_field_index("player"), "player", with_null_entry)
    seq = table.schema.get_field_index("seq")
    table = table.set_column(seq, "seq", table.column("seq").cast(pa.int64()))
    out = merkle.events_table(table, CODED_COLUMNS)
    kept = [f.name for f in out.schema if pa.types.is_dictionary(f.type)]
    assert kept == ["hand_id", "table_id", "kind"]
    assert out.schema.field("seq").type == events_schema().field("seq").type
    assert out.cast(events_schema()).column("kind").equals(plain.column("kind"))
    assert out.column("player").type == pa.string()
    assert out.column("player").to_pylist() == [None, "ann", "ann", None, "bob"]
    assert merkle.events_table(table, ("kind",)).schema.field("hand_id").type == pa.string()


def test_compiled_leaves_of_small_coded_tables() -> None:
    """Null rows, empty strings, a dictionary with more entries than rows and one with a
    null entry: the compiled writer's leaves are the reference's."""
    kernel = merkle._kernel()
    if kernel is None:
        pytest.skip("compiled leaf writer unavailable")
    plain = _small_table()
    want = merkle.reference_leaves(plain)
    coded = _dictionary_coded(plain, ("hand_id", "kind", "player", "cards", "detail",
                                      "source", "table_id"))
    assert merkle.compiled_leaves(coded, kernel) == want
    big = pa.DictionaryArray.from_arrays(pa.array([5, 5, 5, 6, 6], pa.int32()),
                                         pa.array([f"x{i}" for i in range(9)]))
    with_big = plain.set_column(0, "hand_id", big)
    assert merkle.compiled_leaves(with_big, kernel) == merkle.reference_leaves(
        _plain(with_big))
    assert len(want) == 2
