"""Benchmark (not a test): native Parquet ingest of synthetic events next to the raw pyarrow
read_table + write_table floor, repeated; reports each repeat's ratio and the median.

    python bench/bench_ingest.py [--events N] [--repeats R] [--profile] [--reference-leaves]

Each repeat times the floor and the ingest back to back on the same file (in alternating
order, so a load change on the shared machine biases neither side), and the ratio is taken
within the repeat, for wall-clock time and for CPU time (all threads; steadier than wall
time while other processes share the cores). `--profile` prints where one ingest spends
its time (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from audit import merkle
from audit.bench import synthetic_events
from audit.ingest import ingest
from audit.store import Store


def _floor(src: Path, out: Path) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    pq.write_table(pq.read_table(src), out, compression="zstd")
    return time.perf_counter() - start, time.process_time() - cpu


def _ingest(src: Path, store: Path) -> tuple[float, float, int]:
    start, cpu = time.perf_counter(), time.process_time()
    summary = ingest([src], Store(store))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    if summary.quarantined or summary.rows == 0:
        raise AssertionError(f"bench ingest lost rows: {summary}")
    return elapsed, cpu, summary.rows


def measure(n_events: int, repeats: int, *, reference_leaves: bool = False) -> dict[str, object]:
    """With `reference_leaves`, every other repeat builds the Merkle leaves with the Arrow
    reference instead of the compiled writer, and both medians are reported (A/B in one
    run, on the same load)."""
    return measure_modes(n_events, repeats) if reference_leaves else _measure(n_events, repeats)


def measure_modes(n_events: int, repeats: int) -> dict[str, object]:
    out: dict[str, object] = {}
    runs: dict[str, list[dict[str, object]]] = {"compiled": [], "reference": []}
    for i in range(2 * repeats):
        mode = "reference" if i % 2 else "compiled"
        os.environ[merkle.REFERENCE_ENV] = "1" if mode == "reference" else ""
        runs[mode].append(_measure(n_events, 1))
    os.environ.pop(merkle.REFERENCE_ENV, None)
    for mode, results in runs.items():
        out[mode] = {
            "ratio_median": round(statistics.median(r["ratio_median"] for r in results), 2),
            "cpu_ratio_median": round(statistics.median(r["cpu_ratio_median"]
                                                        for r in results), 2),
            "ratios": [r["ratio_median"] for r in results],
            "cpu_ratios": [r["cpu_ratio_median"] for r in results],
        }
    return out


def _measure(n_events: int, repeats: int) -> dict[str, object]:
    table = synthetic_events(n_events)
    ratios, cpu_ratios, floors, ingests = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="poker-audit-bench-") as tmp:
        src = Path(tmp) / "events.parquet"
        pq.write_table(table, src, compression="zstd")
        _ingest(src, Path(tmp) / "warm")  # imports, caches, compiled kernels
        for i in range(repeats):
            if i % 2:
                seconds, cpu, rows = _ingest(src, Path(tmp) / f"s{i}")
                floor, floor_cpu = _floor(src, Path(tmp) / f"copy{i}.parquet")
            else:
                floor, floor_cpu = _floor(src, Path(tmp) / f"copy{i}.parquet")
                seconds, cpu, rows = _ingest(src, Path(tmp) / f"s{i}")
            if rows != table.num_rows:
                raise AssertionError(f"ingested {rows} of {table.num_rows} rows")
            floors.append(floor)
            ingests.append(seconds)
            ratios.append(seconds / floor)
            cpu_ratios.append(cpu / floor_cpu)
    return {
        "events": table.num_rows,
        "repeats": repeats,
        "ratio_median": round(statistics.median(ratios), 2),
        "ratio_min": round(min(ratios), 2),
        "ratio_max": round(max(ratios), 2),
        "ratios": [round(r, 2) for r in ratios],
        "cpu_ratio_median": round(statistics.median(cpu_ratios), 2),
        "cpu_ratios": [round(r, 2) for r in cpu_ratios],
        "ingest_seconds_median": round(statistics.median(ingests), 3),
        "floor_seconds_median": round(statistics.median(floors), 3),
        "events_per_second_median": round(table.num_rows / statistics.median(ingests)),
        "target_ratio": 3.0,
    }


def profile(n_events: int, top: int = 25) -> None:
    table = synthetic_events(n_events)
    with tempfile.TemporaryDirectory(prefix="poker-audit-bench-") as tmp:
        src = Path(tmp) / "events.parquet"
        pq.write_table(table, src, compression="zstd")
        _ingest(src, Path(tmp) / "warm")
        profiler = cProfile.Profile()
        profiler.enable()
        _ingest(src, Path(tmp) / "profiled")
        profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--reference-leaves", action="store_true",
                        help="A/B: alternate repeats with the Arrow reference leaf builder")
    args = parser.parse_args()
    if args.profile:
        profile(args.events)
    else:
        print(json.dumps(measure(args.events, args.repeats,
                                 reference_leaves=args.reference_leaves), indent=2))
