"""The reference replay reads each event's time as pyarrow would convert it: the same
zone-aware datetimes, made once per distinct instant instead of once per row."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from audit.replay.events import hands_from_table, timestamps
from audit.schema import events_schema


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_event_times_are_the_datetimes_pyarrow_makes(unit):
    rng = random.Random(unit)
    per_second = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}[unit]
    whole = 1_000 if unit == "ns" else 1  # datetime holds microseconds
    values = [rng.choice([None, 0, rng.randint(-10**9, 10**9) * per_second // 7 // whole
                          * whole]) for _ in range(400)]
    column = pa.chunked_array([pa.array(values[:150], pa.timestamp(unit, tz="UTC")),
                               pa.array(values[150:], pa.timestamp(unit, tz="UTC"))])
    made, expected = timestamps(column), column.to_pylist()
    assert made == expected
    assert [d.tzinfo if d else None for d in made] == [d.tzinfo if d else None
                                                       for d in expected]


def test_times_without_a_value_or_beyond_the_calendar_are_converted_as_pyarrow_does():
    utc = pa.timestamp("us", tz="UTC")
    assert timestamps(pa.array([None, None], utc)) == [None, None]
    assert timestamps(pa.chunked_array([], utc)) == []
    last = pa.array([253_402_300_799_999_999], utc)  # 9999-12-31 23:59:59.999999
    assert timestamps(last) == last.to_pylist()
    naive = pa.array([0, None], pa.timestamp("us"))  # no zone: pyarrow's own conversion
    assert timestamps(naive) == naive.to_pylist()


def test_a_hands_events_carry_the_same_times_as_the_table():
    schema = events_schema()
    rows = [{"hand_id": f"h{h}", "seq": s, "ts": 1_772_409_600_000_000 + h * 60_000_000 + s,
             "kind": "hand_started" if s == 0 else "fold"} for h in range(3) for s in range(4)]
    table = pa.Table.from_pylist(rows, schema=schema)
    hands = list(hands_from_table(table))
    assert [list(h.ts) for h in hands] == [
        table.column("ts").to_pylist()[h * 4:(h + 1) * 4] for h in range(3)]
