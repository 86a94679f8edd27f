"""Benchmark (not a test): native Parquet ingest of synthetic events next to the raw pyarrow
read_table + write_table floor, repeated; reports each repeat's ratio and the median.

    python bench/bench_ingest.py [--events N] [--repeats R] [--profile] [--reference-leaves]
    python bench/bench_ingest.py --scale-store STORE [--hands 50000]

Each repeat times the floor and the ingest back to back on the same file (in alternating
order, so a load change on the shared machine biases neither side), and the ratio is taken
within the repeat, for wall-clock time and for CPU time (all threads; steadier than wall
time while other processes share the cores). `--profile` prints where one ingest spends
its time (cProfile).

`--scale-store STORE` measures how ingest cost grows with the store: one file of `--hands`
fresh hands (STORE's first hands under new ids) ingested into an empty store and into a copy of
STORE (STORE itself is never written), each in a fresh process, reporting wall and CPU
seconds and the process's peak RSS. `audit.devtools.bench_scale.build_scaled_store` builds a STORE.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.devtools.bench import synthetic_events
from audit.ingest.pipeline import ingest
from audit.store import merkle
from audit.store.dataset import Store


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
    ratios, cpu_ratios, floors, ingests, floor_cpus, ingest_cpus = [], [], [], [], [], []
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
            floor_cpus.append(floor_cpu)
            ingest_cpus.append(cpu)
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
        # the parts of the CPU ratio: on a shared machine the floor's own CPU time moves
        # (page faults of its one large table), so both are shown
        "ingest_cpu_seconds": [round(c, 3) for c in ingest_cpus],
        "floor_cpu_seconds": [round(c, 3) for c in floor_cpus],
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


def fresh_hands_file(store: Path, out: Path, hands: int) -> Path:
    """A native Parquet file of the first `hands` hands of `store` under new hand ids (so
    none is a duplicate of a stored hand)."""
    from audit.devtools.bench_scale import _first_hands

    parts, written = [], 0
    for path in Store(store).event_files():
        if written >= hands:
            break
        part = _first_hands(pq.read_table(path), hands - written)
        written += len(pc.unique(part.column("hand_id")))
        ids = pc.binary_join_element_wise(part.column("hand_id"),
                                          pa.array(["~fresh"] * part.num_rows), "")
        parts.append(part.set_column(part.schema.get_field_index("hand_id"), "hand_id", ids))
    if written < hands:
        raise AssertionError(f"{store} holds only {written} hands")
    pq.write_table(pa.concat_tables(parts), out, compression="zstd")
    return out


_CHILD = """
import json, resource, sys, time
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store
start, cpu = time.perf_counter(), time.process_time()
summary = ingest([sys.argv[1]], Store(sys.argv[2]))
print(json.dumps({"seconds": round(time.perf_counter() - start, 2),
                  "cpu_seconds": round(time.process_time() - cpu, 2),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                  "hands": summary.hands, "quarantined": summary.quarantined}))
"""


def measure_scale(store: Path, hands: int, repeats: int) -> dict[str, object]:
    """Ingest of one `hands`-hand file into an empty store and into a copy of `store`."""
    existing = sum(int(r.get("hands", 0)) for r in Store(store).records())
    out: dict[str, object] = {"file_hands": hands, "store_hands": existing}
    with tempfile.TemporaryDirectory(prefix="ingest_scale_", dir="/tmp") as tmp:
        src = fresh_hands_file(store, Path(tmp) / "fresh.parquet", hands)
        runs: dict[str, list[dict[str, object]]] = {"empty": [], "scaled": []}
        for i in range(repeats):
            for mode in ("empty", "scaled"):
                target = Path(tmp) / f"{mode}{i}"
                if mode == "scaled":
                    shutil.copytree(store, target)
                done = subprocess.run([sys.executable, "-c", _CHILD, str(src), str(target)],
                                      check=True, capture_output=True, text=True)
                result = json.loads(done.stdout.strip().splitlines()[-1])
                if result["hands"] != hands or result["quarantined"]:
                    raise AssertionError(f"{mode}: ingested {result}")
                runs[mode].append(result)
                shutil.rmtree(target)
        for mode, results in runs.items():
            out[mode] = {key: statistics.median(r[key] for r in results)  # type: ignore[misc]
                         for key in ("seconds", "cpu_seconds", "peak_rss_mb")}
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--reference-leaves", action="store_true",
                        help="A/B: alternate repeats with the Arrow reference leaf builder")
    parser.add_argument("--scale-store", type=Path,
                        help="ingest a fresh file into an empty store and a copy of this one")
    parser.add_argument("--hands", type=int, default=50_000)
    args = parser.parse_args()
    if args.scale_store:
        print(json.dumps(measure_scale(args.scale_store, args.hands, args.repeats), indent=2))
    elif args.profile:
        profile(args.events)
    else:
        print(json.dumps(measure(args.events, args.repeats,
                                 reference_leaves=args.reference_leaves), indent=2))
