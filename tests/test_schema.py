"""The schemas in schemas/ are the single source of truth, and money is never a float."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from audit.schema import (
    SCHEMA_VERSION_KEY,
    arrow_schema,
    event_kinds,
    events_schema,
    money_columns,
    schemas_dir,
)
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, write_parquet


def _all_types(doc_columns):
    for column in doc_columns:
        yield column["type"]
        yield from _all_types(column.get("fields", []))


def test_no_float_column_in_any_schema():
    paths = sorted(schemas_dir().glob("*.json"))
    assert "events.json" in {p.name for p in paths}
    for path in paths:
        doc = json.loads(path.read_text())
        types = list(_all_types(doc.get("columns", [])))
        assert not [t for t in types if "float" in t or "double" in t or "decimal" in t], path


def test_money_columns_are_int64():
    schema = events_schema()
    assert money_columns("events") == ["amount", "total"]
    for name in money_columns("events"):
        assert schema.field(name).type == pa.int64()
    game = schema.field("game").type
    for name in ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "bring_in"):
        assert game.field(name).type == pa.int64()


def test_event_kinds_are_the_architecture_closed_set():
    assert event_kinds() == {
        "hand_started", "seat", "post", "deal", "burn", "declare", "chips", "fold", "check",
        "call", "bet", "raise", "complete", "draw", "stand_pat", "show", "muck", "award",
        "rake", "hand_ended", "annotation",
        # session 26: money the room itself puts in the pot (Run It Once's Splash the Pot)
        "pot_added",
    }


def test_schema_version_is_in_every_written_file(store: Store, tmp_path):
    from audit.ingest.pipeline import ingest

    ingest([write_parquet(tmp_path / "h.parquet", hand_rows("h1"))], store)
    for path in store.event_files():
        meta = pq.read_schema(path).metadata
        assert meta[SCHEMA_VERSION_KEY] == b"1"
    assert all(r["schema_version"] == 1 for r in store.records())


def test_findings_schema_columns_match_architecture():
    assert arrow_schema("findings").names == [
        "run_id", "hand_id", "seq", "rule_id", "category", "severity", "seat", "player",
        "counterparty", "expected", "actual", "delta", "message", "citation",
    ]
