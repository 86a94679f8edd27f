"""Simulation speed of the Python and the compiled engine in one run (`poker-audit bench`):
the same clean NLHE cash command on each, hands/s by the wall clock and per CPU second (all
threads: the engine, Arrow, Parquet and the store's hashing), and how each engine's hands
play (audit/simulate/compiled/stats.py) side by side."""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from audit.simulate.compiled import simulator as fast
from audit.simulate.compiled.simulator import ready
from audit.simulate.compiled.stats import play_stats
from audit.simulate.play.sim import simulate
from audit.simulate.world import EPOCH_US
from audit.store import merkle
from audit.store.dataset import Store, event_parquet_writer

TARGET_HANDS_PER_SECOND = 50_000


def bench_engines(*, python_hands: int = 20_000, fast_hands: int = 200_000, seed: int = 0,
                  tables: int = 16, stats: bool = True, repeats: int = 2) -> dict[str, Any]:
    """Simulate NLHE cash hands with each engine into a temporary store and time it.

    The fast engine runs `repeats` times, the best reported: a process's first run also pays
    for growing its heap (a fresh 200k-hand run: ~0.35 s more system time in page faults, the
    same user time), which a long simulation pays once; `first_run_hands_per_cpu_second`
    keeps the first run's figure."""
    t0 = time.perf_counter()
    kernel = ready()  # compiled, or loaded from numba's cache: not part of the rate
    if kernel is not None:
        _load_leaf_writer(kernel)  # the same for the store's compiled Merkle leaf writer
    out: dict[str, Any] = {"kernel_ready_seconds": round(time.perf_counter() - t0, 2),
                           "target_hands_per_second": TARGET_HANDS_PER_SECOND,
                           "tables": tables, "seed": seed}
    runs = [("python", python_hands)]
    if kernel is not None:
        runs.append(("fast", fast_hands))
    for engine, hands in runs:
        first = None
        for _ in range(max(1, repeats) if engine == "fast" else 1):
            with tempfile.TemporaryDirectory(prefix="poker-audit-bench-sim-") as tmp:
                root = Path(tmp) / "sim"
                w0, c0 = time.perf_counter(), time.process_time()
                s = simulate(root, hands=hands, seed=seed, tables=tables, engine=engine)
                wall, cpu = time.perf_counter() - w0, time.process_time() - c0
                row: dict[str, Any] = {
                    "hands": hands, "events": s.events, "seconds": round(wall, 2),
                    "cpu_seconds": round(cpu, 2), "hands_per_second": round(hands / wall),
                    "hands_per_cpu_second": round(hands / cpu)}
                first = row["hands_per_cpu_second"] if first is None else first
                if engine in out and out[engine]["cpu_seconds"] <= row["cpu_seconds"]:
                    continue
                if stats:
                    row["play"] = play_stats(Store(root).read_events())
                out[engine] = row
        if engine == "fast":
            out[engine]["runs"] = max(1, repeats)
            out[engine]["first_run_hands_per_cpu_second"] = first
    if "fast" in out:
        out["stages"] = engine_stages(hands=fast_hands // 2, seed=seed, tables=tables)
        out["speedup_wall"] = round(out["fast"]["hands_per_second"]
                                    / out["python"]["hands_per_second"], 1)
        out["speedup_cpu"] = round(out["fast"]["hands_per_cpu_second"]
                                   / out["python"]["hands_per_cpu_second"], 1)
    return out


def _load_leaf_writer(fk: Any) -> None:
    """Load the compiled Merkle leaf writer (numba's cache, ~0.2 CPU-s once per process) on
    a few hands, so the rates measure hands rather than a one-off load."""
    leaf_writer = merkle._kernel()
    if leaf_writer is None:
        return
    setup = fast._tables_setup(0, 1, fk)
    seats = np.full((1, fk.MAX_SEATS), -1, dtype=np.int64)
    E = np.empty((fk.N_E, 8 * 40 + fk.EVENT_RESERVE), dtype=np.int64)
    per_hand = np.empty((4, 8), dtype=np.int64)
    done, n_ev = fk.play_hands(8, 0, setup["T"], seats, np.zeros_like(seats),
                               np.zeros_like(seats), np.zeros(len(setup["names"]), np.int64),
                               setup["styles"], setup["rng"], E, *per_hand, *fast._lookups())

    for _, table in fast._Static(setup, fk, 0).tables(E[:, :n_ev], per_hand[:, :done], 0,
                                                       EPOCH_US):
        merkle.compiled_leaves(table, leaf_writer)

def engine_stages(*, hands: int = 100_000, seed: int = 0, tables: int = 16) -> dict[str, Any]:
    """Where a fast-engine hand's CPU time goes, in hands per CPU second of each stage: the
    kernel, the Arrow columns, and the two things the store does to every table it is given
    (zstd Parquet encoding, the Merkle leaves of its hands), all in memory, one thread."""
    fk = ready()
    if fk is None:
        return {}
    setup = fast._tables_setup(seed, tables, fk)
    players = np.full((tables, fk.MAX_SEATS), -1, dtype=np.int64)
    stacks = np.zeros((tables, fk.MAX_SEATS), dtype=np.int64)
    out = np.zeros((tables, fk.MAX_SEATS), dtype=np.int64)
    seated = np.zeros(len(setup["names"]), dtype=np.int64)
    lookups = fast._lookups()
    static = fast._Static(setup, fk, seed)

    cpu = {"kernel": 0.0, "arrow": 0.0, "parquet": 0.0, "merkle": 0.0}
    played = 0
    while played < hands:
        want = min(fast._chunk_hands(50_000), hands - played)  # as simulate() chunks
        E = np.empty((fk.N_E, want * 40 + fk.EVENT_RESERVE), dtype=np.int64)
        per_hand = np.empty((4, want), dtype=np.int64)
        c0 = time.process_time()
        done, n_ev = fk.play_hands(want, played, setup["T"], players, stacks, out, seated,
                                   setup["styles"], setup["rng"], E, *per_hand, *lookups)
        c1 = time.process_time()
        parts = static.tables(E[:, :n_ev], per_hand[:, :done], played, EPOCH_US)
        c2 = time.process_time()
        for _, table in parts:  # as the store's batch writer encodes them
            writer = event_parquet_writer(io.BytesIO(), table.schema)
            writer.write_table(table)
            writer.close()
        c3 = time.process_time()
        for _, table in parts:
            merkle.hand_leaves(table)
        c4 = time.process_time()
        for k, v in zip(cpu, (c1 - c0, c2 - c1, c3 - c2, c4 - c3), strict=True):
            cpu[k] += v
        played += done
    rates = {k: round(played / v) if v else 0 for k, v in cpu.items()}
    rates["engine"] = round(played / (cpu["kernel"] + cpu["arrow"]))
    rates["all"] = round(played / sum(cpu.values()))
    return {"hands": played, "hands_per_cpu_second": rates}


def format_engines(b: dict[str, Any]) -> list[str]:
    """Lines for the bench report."""
    lines = []
    for engine in ("python", "fast"):
        if engine in b:
            r = b[engine]
            lines.append(f"simulation NLHE cash, {engine} engine: {r['hands_per_second']:,} "
                         f"hands/s wall, {r['hands_per_cpu_second']:,} hands per CPU second "
                         f"({r['hands']:,} hands, store written"
                         + (f"; best of {r['runs']}, the process's first run "
                            f"{r['first_run_hands_per_cpu_second']:,}" if "runs" in r else "")
                         + f"; target {b['target_hands_per_second']:,})")
    if "fast" not in b:
        lines.append("simulation: the compiled engine is unavailable (numba)")
        return lines
    lines.append(f"simulation speedup fast/python: {b['speedup_wall']}x wall, "
                 f"{b['speedup_cpu']}x per CPU second")
    if "stages" in b:
        r = b["stages"]["hands_per_cpu_second"]
        lines.append(f"simulation fast engine by stage (hands per CPU second): kernel "
                     f"{r['kernel']:,}, Arrow columns {r['arrow']:,} (engine {r['engine']:,}); "
                     f"store: zstd Parquet {r['parquet']:,}, Merkle leaves {r['merkle']:,}; "
                     f"all on one core {r['all']:,}")
    if "play" in b["python"]:
        py, fa = b["python"]["play"], b["fast"]["play"]
        lines.append("simulation play (python | fast): " + ", ".join(
            f"{k} {py[k]} | {fa[k]}" for k in py if k != "hands"))
    return lines
