"""Simulation speed of the Python and the compiled engine in one run (`poker-audit bench`):
the same clean NLHE cash command on each, hands/s by the wall clock and per CPU second (all
threads: the engine, Arrow, Parquet and the store's hashing), and how each engine's hands
play (audit/simulate/fast_stats.py) side by side."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from audit.simulate.fast import ready
from audit.simulate.fast_stats import play_stats
from audit.simulate.sim import simulate
from audit.store import Store

TARGET_HANDS_PER_SECOND = 50_000


def bench_engines(*, python_hands: int = 20_000, fast_hands: int = 200_000, seed: int = 0,
                  tables: int = 16, stats: bool = True) -> dict[str, Any]:
    """Simulate NLHE cash hands with each engine into a temporary store and time it."""
    t0 = time.perf_counter()
    kernel = ready()  # compiled, or loaded from numba's cache: not part of the rate
    out: dict[str, Any] = {"kernel_ready_seconds": round(time.perf_counter() - t0, 2),
                           "target_hands_per_second": TARGET_HANDS_PER_SECOND,
                           "tables": tables, "seed": seed}
    runs = [("python", python_hands)]
    if kernel is not None:
        runs.append(("fast", fast_hands))
    for engine, hands in runs:
        with tempfile.TemporaryDirectory(prefix="poker-audit-bench-sim-") as tmp:
            root = Path(tmp) / "sim"
            w0, c0 = time.perf_counter(), time.process_time()
            s = simulate(root, hands=hands, seed=seed, tables=tables, engine=engine)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            row: dict[str, Any] = {
                "hands": hands, "events": s.events, "seconds": round(wall, 2),
                "cpu_seconds": round(cpu, 2), "hands_per_second": round(hands / wall),
                "hands_per_cpu_second": round(hands / cpu)}
            if stats:
                row["play"] = play_stats(Store(root).read_events())
            out[engine] = row
    if "fast" in out:
        out["speedup_wall"] = round(out["fast"]["hands_per_second"]
                                    / out["python"]["hands_per_second"], 1)
        out["speedup_cpu"] = round(out["fast"]["hands_per_cpu_second"]
                                   / out["python"]["hands_per_cpu_second"], 1)
    return out


def format_engines(b: dict[str, Any]) -> list[str]:
    """Lines for the bench report."""
    lines = []
    for engine in ("python", "fast"):
        if engine in b:
            r = b[engine]
            lines.append(f"simulation NLHE cash, {engine} engine: {r['hands_per_second']:,} "
                         f"hands/s wall, {r['hands_per_cpu_second']:,} hands per CPU second "
                         f"({r['hands']:,} hands, store written; target "
                         f"{b['target_hands_per_second']:,})")
    if "fast" not in b:
        lines.append("simulation: the compiled engine is unavailable (numba)")
        return lines
    lines.append(f"simulation speedup fast/python: {b['speedup_wall']}x wall, "
                 f"{b['speedup_cpu']}x per CPU second")
    if "play" in b["python"]:
        py, fa = b["python"]["play"], b["fast"]["play"]
        lines.append("simulation play (python | fast): " + ", ".join(
            f"{k} {py[k]} | {fa[k]}" for k in py if k != "hands"))
    return lines
