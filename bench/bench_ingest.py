"""Benchmark (not a test): native Parquet ingest of 1,000,000 synthetic events next to the
raw pyarrow read_table + write_table floor (see audit.bench).

    python bench/bench_ingest.py [EVENTS]
"""

from __future__ import annotations

import json
import sys

from audit.bench import bench_ingest

if __name__ == "__main__":
    print(json.dumps(bench_ingest(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000),
                     indent=2))
