"""Small builders of well-formed event rows for store and ingest tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.schema import events_table


def hand_rows(hand_id: str, *, ts: str | None = "2026-11-01T10:00:00+00:00",
              table_id: str = "t1") -> list[dict[str, Any]]:
    """A complete three-player hand: blinds, a raise, two folds, the pot pushed."""
    rows: list[dict[str, Any]] = [
        {"kind": "hand_started", "ts": ts, "game": {
            "variant": "holdem", "structure": "no_limit", "small_blind": 50, "big_blind": 100,
            "button_seat": 1, "seat_count": 6, "currency": "USD", "minor_per_unit": 100}},
        {"kind": "seat", "seat": 1, "player": "ann", "amount": 10000},
        {"kind": "seat", "seat": 2, "player": "bob", "amount": 10000},
        {"kind": "seat", "seat": 3, "player": "cat", "amount": 10000},
        {"kind": "post", "seat": 2, "player": "bob", "detail": "small_blind", "amount": 50,
         "total": 50},
        {"kind": "post", "seat": 3, "player": "cat", "detail": "big_blind", "amount": 100,
         "total": 100},
        {"kind": "deal", "seat": 1, "detail": "hole", "cards": "As Kd"},
        {"kind": "deal", "seat": 2, "detail": "hole", "cards": "?? ??"},
        {"kind": "deal", "seat": 3, "detail": "hole", "cards": "?? ??"},
        {"kind": "raise", "seat": 1, "player": "ann", "amount": 300, "total": 300},
        {"kind": "fold", "seat": 2, "player": "bob"},
        {"kind": "fold", "seat": 3, "player": "cat"},
        {"kind": "award", "seat": 1, "player": "ann", "amount": 200, "detail": "uncalled"},
        {"kind": "award", "seat": 1, "player": "ann", "amount": 250, "detail": "main"},
        {"kind": "hand_ended"},
    ]
    for seq, row in enumerate(rows):
        row.update(hand_id=hand_id, seq=seq, table_id=table_id)
        if row["kind"] != "hand_started":
            row.pop("ts", None)
    if ts is not None:
        from datetime import datetime

        rows[0]["ts"] = datetime.fromisoformat(ts)
    return rows


def many_hands(prefix: str, n: int, **kwargs: Any) -> list[dict[str, Any]]:
    return [r for i in range(n) for r in hand_rows(f"{prefix}{i}", **kwargs)]


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    pq.write_table(events_table(rows), path)
    return path


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, default=str) + "\n" for r in rows), encoding="utf-8")
    return path


def raw_table(rows: list[dict[str, Any]]) -> pa.Table:
    return events_table(rows)


def quarantined(store: Any) -> list[dict[str, Any]]:
    """Every quarantined item the store's committed batches record."""
    items: list[dict[str, Any]] = []
    for rec in store.records():
        for q in rec["quarantine"]:
            items += [json.loads(x) for x in (store.root / q["path"]).read_text().splitlines()]
    return items
