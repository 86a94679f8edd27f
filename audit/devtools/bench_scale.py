"""`poker-audit bench --scale N`: end-to-end audit time, throughput and peak memory of a store
of N simulated hands, with 1 and 2 workers, and the capacity model they imply.

The store is built from one simulated base store (every button-game variant and structure,
cash and tournament) copied until it holds N hands, each copy a room of its own (fresh hand,
player and table names: `renamed_copy`), so building a 10M-hand store costs a copy, not 10M
simulated hands. Each audit runs in a fresh
interpreter; its peak memory is the largest sum of the proportional set sizes of that
process and every process it started (the forkserver and its workers), sampled while the
audit runs, so no audit is charged for memory an earlier one left behind.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.store.dataset import Store
from audit.store.run_layout import output_files


def build_scaled_store(root: Path, hands: int, *, base_hands: int = 20_000, seed: int = 0,
                       echo: Callable[[str], None] = print) -> Store:
    """A store of `hands` hands: a simulated base store, then copies of its event files, each
    a room of its own (`renamed_copy`), one committed batch per copy."""
    # here, not at the top: spawned children (measured audit, ceiling pool) re-import this module
    from audit.simulate import simulate

    if hands < 1:
        raise AuditInputError("--scale needs at least one hand")
    base_root = root / "base"
    base_hands = min(base_hands, hands)
    simulate(base_root, hands=base_hands, seed=seed, variant="mixed", structure="mixed",
             tables=max(4, base_hands // 2_000), tournament_share=0.2)
    base = Store(base_root)
    files = [(f.parent.name.removeprefix("date="), pq.read_table(f))
             for f in sorted(base.event_files())]
    store = Store(root / "store")
    copies = -(-hands // base_hands)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for k in range(copies):
        left = hands - k * base_hands
        with store.locked():
            writer = store.batch_writer(now=start + timedelta(seconds=k),
                                        batch_id=f"scale-{k:06d}")
            written = 0
            for partition, table in files:
                if written >= left:
                    break
                table = _first_hands(table, left - written)
                written += len(pc.unique(table.column("hand_id")))
                writer.write(partition, renamed_copy(table, k))
            writer.commit()
        if (k + 1) % 50 == 0:
            echo(f"  store: {min(hands, (k + 1) * base_hands):,} of {hands:,} hands")
    return store


# The columns of an event row that name a player or a table: a copy renames them, so that each
# copy is more players at more tables, not the same players playing longer (the room's `detail`
# fields name seats, pot labels and flags, never a player or a table: tests check it).
RENAMED = ("hand_id", "player", "table_id")


def renamed_copy(table: pa.Table, k: int) -> pa.Table:
    """Copy k of an event table: every hand, player and table renamed with the suffix `~k`
    (`RENAMED`; a null player, the board's deal or the rake, stays null). Copies of one room
    are then rooms side by side, as a room's day is: each pair of players has one room's
    history, not copies times it (the same players copied make honest pairs' model misfit
    significant, and the collusion analytics would be measured on histories no room has)."""
    suffix = pa.array([f"~{k}"] * table.num_rows, pa.string())
    for name in RENAMED:
        at = table.schema.get_field_index(name)
        table = table.set_column(at, table.schema.field(name), pc.binary_join_element_wise(
            table.column(name), suffix, ""))
    return table


def _first_hands(table: pa.Table, n: int) -> pa.Table:
    """The rows of the first `n` hands of an event table (hands are contiguous)."""
    ids = table.column("hand_id")
    codes = pc.dictionary_encode(ids.combine_chunks()).indices.to_numpy(zero_copy_only=False)
    if not len(codes):
        return table
    import numpy as np

    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    if n >= len(starts):
        return table
    return table.slice(0, int(starts[n]))


def _hand_player_rows(store: Store, run_id: str) -> int:
    # here, not at the top: spawned children (measured audit, ceiling pool) re-import this module
    from audit.run.runner import run_dir

    return sum(pq.ParquetFile(f).metadata.num_rows
               for f in output_files(run_dir(store, run_id), "hand_players"))


class TreeMemory:
    """Peak memory (PSS) of this process plus all its descendants, sampled in a thread."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _tree_rss(os.getpid()))

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _tree_rss(os.getpid()))
            self._stop.wait(self.interval)


def _tree_rss(root_pid: int) -> int:
    """Bytes of memory `root_pid` and its descendants use: the proportional set size (shared
    pages, e.g. a forkserver's preloaded modules in its workers, counted once in total),
    or the resident set where the kernel does not report it (Linux /proc; 0 elsewhere)."""
    return sum(_pss(pid, rss) for pid, rss, _cpu in process_tree(root_pid))


def process_tree(root_pid: int) -> list[tuple[int, int, int]]:
    """`root_pid` and its living descendants (Linux /proc; empty elsewhere), each as (pid,
    resident bytes, CPU clock ticks it used itself: user + system, its children not
    included)."""
    children: dict[int, list[int]] = {}
    stats: dict[int, tuple[int, int]] = {}
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(stat[1]), []).append(pid)  # field 4: ppid
        # field 24: rss pages; fields 14, 15: utime, stime in clock ticks
        stats[pid] = (int(stat[21]) * page, int(stat[11]) + int(stat[12]))
    tree = []
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        rss, cpu = stats.get(pid, (0, 0))
        tree.append((pid, rss, cpu))
        todo.extend(children.get(pid, ()))
    return tree


def _pss(pid: int, fallback: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
            for line in fh:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return fallback


def bench_scale(hands: int, work: Path, *, workers: tuple[int, ...] = (1, 2),
                collusion: bool = True, echo: Callable[[str], None] = print
                ) -> dict[str, Any]:
    """Build a `hands`-hand store under `work`, audit it with each worker count, and derive
    the capacity model (hands per core-second, cores for a billion hands a day).

    Each worker count runs as worker processes of one thread each (the per-core figure a
    cluster plans with); one worker also runs in-process, as `poker-audit audit` runs it,
    where Arrow and polars may use a second core. Each audit runs in a fresh interpreter."""
    started = time.perf_counter()
    store = build_scaled_store(work, hands, echo=echo)
    build_s = time.perf_counter() - started
    files = len(store.event_files())
    size = sum(p.stat().st_size for p in store.event_files())
    out: dict[str, Any] = {"hands": hands, "event_files": files, "store_bytes": size,
                           "build_seconds": round(build_s, 1), "runs": {}}
    echo(f"  store: {hands:,} hands in {files} files, {size / 1e9:.2f} GB, built in "
         f"{build_s:.0f} s")
    plans = [(str(n), n, True) for n in workers]
    if 1 in workers:
        plans.insert(0, ("in-process", 1, False))
    for key, n, processes in plans:
        run = _audit_in_fresh_process(store.root, n, processes)
        seconds, peak = run["seconds"], run["peak_rss_bytes"]
        rate = run["hands"] / seconds
        out["runs"][key] = {"seconds": round(seconds, 1), "hands_per_second": round(rate),
                            "peak_rss_bytes": peak, "findings": run["findings"]}
        how = "in-process" if key == "in-process" else f"{n} worker process(es)"
        echo(f"  audit, {how}: {seconds:.1f} s, {rate:,.0f} hands/s, peak memory "
             f"{peak / 1e9:.2f} GB (PSS of the process tree)")
    if collusion:
        out["collusion"] = _collusion(store, run["run_id"], echo)
    runs = out["runs"]
    if "1" in runs and "2" in runs:
        out["scaling_2_workers"] = round(runs["2"]["hands_per_second"]
                                         / runs["1"]["hands_per_second"], 2)
        out["machine_ceiling_2_processes"] = machine_ceiling(2)
        echo(f"  scaling with 2 workers: {out['scaling_2_workers']:.2f}x; this machine's "
             f"ceiling for 2 CPU-bound processes: {out['machine_ceiling_2_processes']:.2f}x")
    if "in-process" in runs and "2" in runs:
        out["speedup_2_workers_vs_in_process"] = round(
            runs["2"]["hands_per_second"] / runs["in-process"]["hands_per_second"], 2)
    per_core = max(r["hands_per_second"] / int(n) for n, r in runs.items() if n.isdigit())
    day = 1_000_000_000
    out["capacity"] = {
        "hands_per_core_second": round(per_core),
        "cores_for_1b_hands_per_day": round(day / (per_core * 86_400), 1),
        "cores_for_1b_hands_in_4h": round(day / (per_core * 4 * 3_600), 1),
    }
    return out


def _audit_in_fresh_process(root: Path, workers: int, processes: bool) -> dict[str, Any]:
    """One measured audit in a new interpreter: the peak is that process tree's own, not
    inflated by what an earlier audit (or building the store) left in this process's heap."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_measured_audit, args=(str(root), workers, processes, send))
    child.start()
    send.close()
    try:
        result = receive.recv()
    except EOFError:
        result = {"error": "the audit process died without a result"}
    child.join()
    if "error" in result:
        raise AuditInputError(f"bench --scale: {result['error']}")
    return result


def _measured_audit(root: str, workers: int, processes: bool, send: Any) -> None:
    # here, not at the top: spawned children (measured audit, ceiling pool) re-import this module
    from audit.run.runner import audit_store

    try:
        with TreeMemory() as memory:
            started = time.perf_counter()
            summary = audit_store(Store(Path(root)), workers=workers, processes=processes)
            seconds = time.perf_counter() - started
        send.send({"seconds": seconds, "peak_rss_bytes": memory.peak, "hands": summary.hands,
                   "pid": os.getpid(),
                   "findings": summary.findings, "run_id": summary.run_id})
    except Exception as exc:  # reported by the parent as a clean error
        send.send({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        send.close()


def _spin(iterations: int) -> float:
    """A CPU-bound loop with no memory traffic; returns its own wall time."""
    t0 = time.perf_counter()
    x = 0
    for i in range(iterations):
        x = (x * 31 + i) & 0xFFFF
    return time.perf_counter() - t0


def machine_ceiling(processes: int, iterations: int = 10_000_000) -> float:
    """How many times more work `processes` CPU-bound processes do than one in the same
    time on this machine (2.0 on two free cores; less when the cores are shared, e.g.
    hyperthreads or a busy host): the bound an audit's scaling is measured against."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        alone = min(pool.map(_spin, [iterations])[0] for _ in range(2))
        together = max(pool.map(_spin, [iterations] * processes))
    return round(processes * alone / together, 2)


def _collusion(store: Store, run_id: str, echo: Callable[[str], None]) -> dict[str, Any]:
    # here, not at the top: spawned children (measured audit, ceiling pool) re-import this module
    from audit.collusion import collusion_leads

    t0 = time.process_time()
    leads = collusion_leads(store, run_id)
    collusion_cpu = time.process_time() - t0
    rows = _hand_player_rows(store, run_id)
    result = {"hand_players_rows": rows, "cpu_seconds": round(collusion_cpu, 1),
              "cpu_seconds_per_million_rows": round(collusion_cpu * 1e6 / max(1, rows), 2),
              "leads": leads.num_rows}
    echo(f"  collusion analytics: {rows:,} hand_players rows in {collusion_cpu:.1f} CPU-s "
         f"({result['cpu_seconds_per_million_rows']} s per million rows)")
    return result
