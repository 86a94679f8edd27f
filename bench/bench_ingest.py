"""Benchmark (not a test): native Parquet ingest of 1,000,000 synthetic events, next to the
physical floor (pyarrow.parquet read_table + write_table of the same data).

    python bench/bench_ingest.py [--events N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit.ingest import ingest  # noqa: E402
from audit.schema import events_table  # noqa: E402
from audit.store import Store  # noqa: E402
from tests.eventrows import hand_rows  # noqa: E402


def synthetic_events(n_events: int) -> pa.Table:
    """n_events rows of complete hands (15 events each), columnar, distinct hand ids."""
    template = events_table(hand_rows("template"))
    per_hand = template.num_rows
    hands = n_events // per_hand
    idx = np.tile(np.arange(per_hand), hands)
    table = template.take(pa.array(idx))
    hand_no = pa.array(np.repeat(np.arange(hands), per_hand)).cast(pa.string())
    hand_ids = pc.binary_join_element_wise("bench:", hand_no, "")
    return table.set_column(0, "hand_id", hand_ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--json", action="store_true", help="print only the JSON result")
    args = parser.parse_args()
    table = synthetic_events(args.events)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "events.parquet"
        pq.write_table(table, src, compression="zstd")

        t0 = time.perf_counter()
        raw = pq.read_table(src)
        pq.write_table(raw, Path(tmp) / "copy.parquet", compression="zstd")
        floor = time.perf_counter() - t0

        store = Store(Path(tmp) / "store")
        t0 = time.perf_counter()
        summary = ingest([src], store)
        elapsed = time.perf_counter() - t0
        assert summary.quarantined == 0 and summary.rows == table.num_rows

    result = {
        "events": table.num_rows,
        "hands": summary.hands,
        "ingest_seconds": round(elapsed, 3),
        "events_per_second": round(table.num_rows / elapsed),
        "hands_per_second": round(summary.hands / elapsed),
        "floor_seconds_read_write": round(floor, 3),
        "ratio_to_floor": round(elapsed / floor, 2),
        "target_ratio": 3.0,
    }
    if not args.json:
        print(f"native Parquet ingest: {result['events']:,} events / {result['hands']:,} hands "
              f"in {elapsed:.2f} s = {result['events_per_second']:,} events/s, "
              f"{result['hands_per_second']:,} hands/s", file=sys.stderr)
        print(f"floor (read_table + write_table): {floor:.2f} s; ingest is "
              f"{result['ratio_to_floor']}x the floor (target <= 3x)", file=sys.stderr)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
