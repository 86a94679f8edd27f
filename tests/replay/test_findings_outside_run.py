"""Findings of a replay made outside an audit run (a notebook calling the replay with no run
id) say so in their schema: run_id is nullable there, so the table can be written to Parquet
and read back; inside a run the column stays declared not-null and holds the run's id."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from audit.importers.text import parse_text
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import ANTE_AMOUNT
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import events_table, findings_schema

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "ANTE-AMOUNT.txt"
SETTINGS = Settings(load_profile("montana"))


def _events() -> pa.Table:
    text = FIXTURE.read_text(encoding="utf-8")
    return events_table([r for hand, _ in parse_text(text, str(FIXTURE)) for r in hand])


def _round_trip(table: pa.Table) -> pa.Table:
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return pq.read_table(io.BytesIO(sink.getvalue()))


def test_findings_of_no_run_have_a_nullable_run_id_and_write_to_parquet() -> None:
    findings = replay_table_fast(_events(), SETTINGS, SETTINGS).findings
    assert ANTE_AMOUNT in findings.column("rule_id").to_pylist()
    assert findings.column("run_id").null_count == findings.num_rows
    assert findings.schema.field("run_id").nullable
    assert not findings_schema().field("run_id").nullable
    back = _round_trip(findings)
    assert back.equals(findings)


def test_findings_of_a_run_keep_the_declared_schema_and_the_run_id() -> None:
    findings = replay_table_fast(_events(), SETTINGS, SETTINGS, "run-1").findings
    assert findings.num_rows > 0
    assert findings.schema == findings_schema()
    assert set(findings.column("run_id").to_pylist()) == {"run-1"}
    assert _round_trip(findings).column("run_id").to_pylist() == ["run-1"] * findings.num_rows
