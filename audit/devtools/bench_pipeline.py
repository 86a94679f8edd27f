"""`poker-audit bench --pipeline N`: a room's day end to end, stage by stage.

A simulated mixed-game room (`ROOM`: every game, cash and tournament tables, a realistic
share of injected violations and a few colluding teams) deals N hands; then the audit
pipeline a room runs on its day: ingest the room's event files into a new store, verify the
store, audit it with 2 worker processes, rank collusion leads, write the HTML report. Each
stage runs in a fresh interpreter (as `bench --scale` runs its audits) and is measured there:

- wall time of the stage (its imports included, as a command pays them);
- CPU-seconds of its process tree: the stage process (every thread) plus each descendant
  (the audit's forkserver and workers), sampled from /proc, a descendant counted by its last
  sample (so a worker's last fraction of a sampling interval is missed: a lower bound);
- peak memory of its process tree, the proportional set size as `bench --scale` samples it.

Simulating is itself the slowest stage (the Python simulator plays every action), so with
`simulate_at_most` below N only that many hands are simulated, and measured; the room's
event files are then copied under fresh hand, player and table ids (`~<copy>` suffix) until
they hold N hands: more rooms side by side, each pair's history as long as one simulated room's
(the copy is timed apart and is no stage), and the table says so, with the planted teams of
every copy the collusion stage found. Figures for the whole day then scale the simulator's
measured cost per hand to N, marked as projected.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from audit.devtools.bench_scale import _first_hands, _pss, process_tree, renamed_copy
from audit.errors import AuditInputError

STAGES = ("simulate", "ingest", "verify", "audit", "collusion", "report")
AUDIT_WORKERS = 2
INGEST_WORKERS = 2  # files read and encoded at once (audit/ingest/parallel.py)
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True, slots=True)
class Room:
    """The simulated room: what a mid-size online room deals in a day, scaled to N hands."""

    variant: str = "all"  # every game the simulator deals: button, stud and draw
    structure: str = "mixed"  # no limit, pot limit, fixed limit (stud and draw: fixed)
    tournament_share: float = 0.2  # one table in five is a tournament table
    violations: float = 0.005  # one hand in 200 carries an injected, labelled violation
    hands_per_table: int = 1_000  # a table deals ~40 hands an hour: about a day's
    teams_per_table: float = 0.02  # one colluding pair per 50 tables (at least 2 pairs)
    hands_per_file: int = 10_000  # the room's export: one event file per 10,000 hands
    seed: int = 0

    def tables(self, hands: int) -> int:
        return max(8, min(500, hands // self.hands_per_table))

    def colluder_teams(self, hands: int) -> int:
        return max(2, round(self.tables(hands) * self.teams_per_table))


ROOM = Room()


def bench_pipeline(hands: int, work: Path, *, simulate_at_most: int | None = None,
                   room: Room = ROOM, echo: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the room's day of `hands` hands under `work`, each stage in a fresh process; the
    per-stage figures, the whole's hands/s and the capacity model they imply."""
    if hands < 1:
        raise AuditInputError("--pipeline needs at least one hand")
    simulated = min(hands, simulate_at_most or hands)
    room_dir, store_dir = work / "room", work / "store"
    report_file = work / "report.html"
    out: dict[str, Any] = {
        "hands": hands, "simulated_hands": simulated,
        "room": {**asdict(room), "tables": room.tables(simulated),
                 "colluder_teams": room.colluder_teams(simulated)},
        "audit_workers": AUDIT_WORKERS, "ingest_workers": INGEST_WORKERS,
        "cpus": os.cpu_count(), "load_average": _load(),
        "stages": {},
    }
    stages: dict[str, dict[str, Any]] = out["stages"]
    stages["simulate"] = _stage("simulate", {"out": str(room_dir), "hands": simulated,
                                             "room": asdict(room)}, echo)
    feed: list[str] = [str(p) for p in _event_files(room_dir)]
    planted = room_dir / "colluders.parquet"
    if simulated < hands:
        copy = _stage("copy", {"files": feed, "feed": str(work / "feed"), "hands": hands,
                               "base_hands": simulated, "planted": str(planted)}, echo,
                      label="(copy, no stage)")
        out["feed_copy"] = copy
        feed = copy.pop("files")
        planted = Path(copy.pop("planted"))
    stages["ingest"] = _stage("ingest", {"files": feed, "store": str(store_dir)}, echo)
    stages["verify"] = _stage("verify", {"store": str(store_dir)}, echo)
    stages["audit"] = _stage("audit", {"store": str(store_dir)}, echo)
    run_id = stages["audit"].pop("run_id")
    stages["collusion"] = _stage("collusion", {"store": str(store_dir), "run": run_id,
                                               "planted": str(planted)}, echo)
    stages["report"] = _stage("report", {"store": str(store_dir), "run": run_id,
                                         "out": str(report_file)}, echo)
    out["whole"] = _whole(stages, hands, simulated)
    out["capacity"] = capacity(stages, hands, simulated)
    out["load_average_after"] = _load()
    return out


def _load() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def _event_files(root: Path) -> list[Path]:
    # here, not at the top: spawned stage processes re-import this module
    from audit.store.dataset import Store

    return sorted(Store(root).event_files())


def _per_hand(stage: dict[str, Any], key: str) -> float:
    return float(stage[key]) / max(1, int(stage["hands"]))


def _whole(stages: dict[str, dict[str, Any]], hands: int, simulated: int) -> dict[str, Any]:
    """The whole day: wall and CPU summed over the stages, the simulator's scaled to `hands`
    when it simulated fewer (then `projected`); and the audit pipeline alone (ingest to
    report: what a room runs on hands it already dealt), which is all measured."""
    audit_stages = [s for name, s in stages.items() if name != "simulate"]
    sim = stages["simulate"]
    scale = hands / max(1, simulated)
    wall = sum(s["wall_seconds"] for s in audit_stages)
    cpu = sum(s["cpu_seconds"] for s in audit_stages)
    whole_wall = wall + sim["wall_seconds"] * scale
    whole_cpu = cpu + sim["cpu_seconds"] * scale
    peak = max(s["peak_rss_bytes"] for s in stages.values())
    return {
        "wall_seconds": round(whole_wall, 1), "cpu_seconds": round(whole_cpu, 1),
        "hands_per_second": round(hands / whole_wall, 1),
        "projected": simulated < hands,
        "peak_rss_bytes": peak,
        "audit_pipeline": {"stages": [n for n in stages if n != "simulate"],
                           "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                           "hands_per_second": round(hands / wall, 1)},
    }


TARGET = {"hands": 5_000_000, "seconds": 600, "cores": 2, "peak_bytes": 2 * 1024 ** 3}


def capacity(stages: dict[str, dict[str, Any]], hands: int, simulated: int
             ) -> dict[str, Any]:
    """Hands per core-hour of each stage; cores a room dealing a million or a billion hands
    a day needs for the audit pipeline; and how far the day is from the target (5M hands end
    to end in 10 minutes on 2 cores, at most 2 GB): the CPU it would take against the
    core-seconds 2 cores give in 10 minutes, both with and without the simulator."""
    per_core_hour = {name: round(3_600 / max(_per_hand(s, "cpu_seconds"), 1e-9))
                     for name, s in stages.items()}
    audit_cpu_per_hand = sum(_per_hand(s, "cpu_seconds") for n, s in stages.items()
                             if n != "simulate")
    sim_cpu_per_hand = _per_hand(stages["simulate"], "cpu_seconds")
    budget = TARGET["seconds"] * TARGET["cores"]
    need_whole = TARGET["hands"] * (audit_cpu_per_hand + sim_cpu_per_hand)
    need_audit = TARGET["hands"] * audit_cpu_per_hand
    heaviest = max((n for n in stages if n != "simulate"),
                   key=lambda n: stages[n]["cpu_seconds"])
    audit_wall_per_hand = sum(_per_hand(s, "wall_seconds") for n, s in stages.items()
                              if n != "simulate")
    audit_peak = max(s["peak_rss_bytes"] for n, s in stages.items() if n != "simulate")
    biggest = max((n for n in stages if n != "simulate"),
                  key=lambda n: stages[n]["peak_rss_bytes"])
    return {
        "hands_per_core_hour": per_core_hour,
        "audit_pipeline_hands_per_core_hour": round(3_600 / max(audit_cpu_per_hand, 1e-9)),
        "cores_for_1m_hands_a_day": round(1e6 * audit_cpu_per_hand / 86_400, 2),
        "cores_for_100m_hands_a_day": round(1e8 * audit_cpu_per_hand / 86_400, 1),
        "cores_for_1b_hands_a_day": round(1e9 * audit_cpu_per_hand / 86_400, 1),
        "target": {
            **TARGET,
            "cpu_seconds_needed_with_simulate": round(need_whole),
            "cpu_seconds_needed_audit_pipeline": round(need_audit),
            "core_seconds_available": budget,
            "times_over_with_simulate": round(need_whole / budget, 1),
            "times_over_audit_pipeline": round(need_audit / budget, 1),
            "heaviest_audit_stage": heaviest,
            "simulate_share_of_cpu": round(sim_cpu_per_hand
                                           / (sim_cpu_per_hand + audit_cpu_per_hand), 2),
            "peak_rss_bytes_measured": max(s["peak_rss_bytes"] for s in stages.values()),
            # what the target itself says: the target's hands in its seconds of wall time
            # (this run's wall per hand, ingest to report) and within its memory
            "wall_ratio_audit_pipeline": round(TARGET["hands"] * audit_wall_per_hand
                                               / TARGET["seconds"], 2),
            "cpu_ratio_audit_pipeline": round(need_audit / budget, 2),
            "memory_ratio_audit_pipeline": round(audit_peak / TARGET["peak_bytes"], 2),
            "biggest_audit_stage": biggest,
        },
    }


# ---------------------------------------------------------------- one stage, measured
def _stage(name: str, args: dict[str, Any], echo: Callable[[str], None],
           label: str = "") -> dict[str, Any]:
    """Stage `name` in a new interpreter; its figures, or a clean error naming it."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_measured_stage, args=(name, args, send))
    child.start()
    send.close()
    try:
        result: dict[str, Any] = receive.recv()
    except EOFError:
        result = {"error": "the process died without a result"}
    child.join()
    if "error" in result:
        raise AuditInputError(f"bench --pipeline, stage {name}: {result['error']}")
    echo(f"  {name:<9} {label}{result['hands']:>12,} hands {result['wall_seconds']:>9.1f} s "
         f"wall {result['cpu_seconds']:>9.1f} CPU-s {result['peak_rss_bytes'] / 1e6:>8,.0f} MB")
    return result


class TreeUsage:
    """Peak memory (PSS) and CPU ticks of this process's descendants, sampled in a thread
    (this process's own CPU is read exactly at the end: `time.process_time`)."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peak = 0
        self.ticks: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeUsage:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.interval)

    def _sample(self) -> None:
        me = os.getpid()
        total = 0
        for pid, rss, ticks in process_tree(me):
            total += _pss(pid, rss)
            if pid != me:
                self.ticks[pid] = max(self.ticks.get(pid, 0), ticks)
        self.peak = max(self.peak, total)

    @property
    def descendants_cpu(self) -> float:
        return sum(self.ticks.values()) / TICKS


def _measured_stage(name: str, args: dict[str, Any], send: Any) -> None:
    try:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        with TreeUsage() as usage:
            result = _RUNNERS[name](args)
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0 + usage.descendants_cpu
        result.update(wall_seconds=round(wall, 2), cpu_seconds=round(cpu, 2),
                      peak_rss_bytes=usage.peak, pid=os.getpid())
        if "count" in result:  # hands counted after the clock stopped (no stage's work)
            result["hands"] = result.pop("count")()
        send.send(result)
    except Exception as exc:  # reported by the parent as a clean error
        send.send({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        send.close()


# ---------------------------------------------------------------- the stages
# Imports inside each: the stage pays its own imports, as the command would.
def _simulate(args: dict[str, Any]) -> dict[str, Any]:
    from audit.simulate import simulate

    room = Room(**args["room"])
    hands = args["hands"]
    s = simulate(args["out"], hands=hands, seed=room.seed, variant=room.variant,
                 structure=room.structure, tables=room.tables(hands),
                 violations=room.violations, colluders=room.colluder_teams(hands),
                 tournament_share=room.tournament_share, hands_per_file=room.hands_per_file)
    return {"hands": s.hands, "events": s.events, "injected_hands": s.injected_hands,
            "colluder_teams": s.colluder_teams, "engine": s.engine}


def _copy(args: dict[str, Any]) -> dict[str, Any]:
    """The room's event files copied until they hold `hands` hands, copy k renamed as
    `renamed_copy` does, so N hands are N / simulated rooms side by side. The planted teams
    are renamed alike (`colluders.parquet` of the feed)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    feed = Path(args["feed"])
    feed.mkdir(parents=True, exist_ok=True)
    tables = [pq.read_table(f) for f in args["files"]]
    hands, base = args["hands"], args["base_hands"]
    files: list[str] = []
    copies = -(-hands // base)
    for k in range(copies):
        left = hands - k * base
        for i, table in enumerate(tables):
            if left <= 0:
                break
            table = _first_hands(table, left)
            left -= len(pc.unique(table.column("hand_id")))
            path = feed / f"copy{k:05d}-{i:04d}.parquet"
            pq.write_table(renamed_copy(table, k), path)
            files.append(str(path))
    planted = None
    if args.get("planted"):
        planted = str(feed / "colluders.parquet")
        _copy_teams(Path(args["planted"]), Path(planted), copies)
    return {"hands": hands, "files": files, "planted": planted}


def _copy_teams(source: Path, out: Path, copies: int) -> None:
    """The planted teams of `copies` copies of a room: copy k's members and tables renamed as
    `_copy` renames them, team ids numbered on."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    teams = pq.read_table(source).to_pylist()
    step = 1 + max((t["team_id"] for t in teams), default=-1)
    rows = [{**t, "team_id": k * step + t["team_id"],
             "players": [f"{p}~{k}" for p in t["players"]],
             "table_id": None if t.get("table_id") is None else f"{t['table_id']}~{k}"}
            for k in range(copies) for t in teams]
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(source)), out)


def _ingest(args: dict[str, Any]) -> dict[str, Any]:
    from audit.ingest.pipeline import ingest
    from audit.store.dataset import Store

    s = ingest([Path(f) for f in args["files"]], Store(Path(args["store"])), fmt="events",
               workers=INGEST_WORKERS)
    if s.errors or s.quarantined or s.refused:
        raise AuditInputError(f"{s.quarantined} hand(s) quarantined, {s.errors} file(s) "
                              f"unreadable, {s.refused} refused")
    return {"hands": s.hands, "rows": s.rows, "files": len(s.files)}


def _verify(args: dict[str, Any]) -> dict[str, Any]:
    from audit.store.dataset import Store

    report = Store(Path(args["store"])).verify()
    if not report.ok:
        raise AuditInputError(f"the store failed verify: {report.problems[0]}")
    return {"hands": report.hands, "files": report.files, "batches": report.batches}


def _audit(args: dict[str, Any]) -> dict[str, Any]:
    from audit.run.runner import audit_store
    from audit.store.dataset import Store

    summary = audit_store(Store(Path(args["store"])), workers=AUDIT_WORKERS, processes=True)
    return {"hands": summary.hands, "findings": summary.findings, "run_id": summary.run_id}


def _collusion(args: dict[str, Any]) -> dict[str, Any]:
    from audit.collusion.findings import record_collusion
    from audit.store.dataset import Store

    store = Store(Path(args["store"]))
    story = record_collusion(store, args["run"])

    def count() -> int:  # the hands the analytics read: those of the run's hand_players
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        from audit.run.runner import run_dir
        from audit.store.run_layout import output_files

        ids = [pq.read_table(f, columns=["hand_id"]).column("hand_id").combine_chunks()
               for f in output_files(run_dir(store, args["run"]), "hand_players")]
        return int(pc.count_distinct(pa.chunked_array(ids, pa.string())).as_py())

    return {"count": count, "leads": story.leads.num_rows, "notes": story.notes.num_rows,
            **planted_found(Path(args["planted"]), story.leads.select(["player_a", "player_b"])
                            .to_pylist())}


def planted_found(planted: Path, leads: list[dict[str, str]]) -> dict[str, int]:
    """The room's planted teams (`colluders.parquet`) and how many of them a lead names (both
    players of the lead in the team: the recall), and the leads that name no team (false)."""
    import pyarrow.parquet as pq

    teams = [set(t["players"]) for t in pq.read_table(planted, columns=["players"]).to_pylist()]
    true = [any({r["player_a"], r["player_b"]} <= t for t in teams) for r in leads]
    found = sum(any({r["player_a"], r["player_b"]} <= t for r in leads) for t in teams)
    return {"teams_planted": len(teams), "teams_found": found,
            "false_leads": true.count(False)}


def _report(args: dict[str, Any]) -> dict[str, Any]:
    from audit.report.build import build_report
    from audit.store.dataset import Store
    from audit.store.outfile import check_output_path, write_output

    store = Store(Path(args["store"]))
    out = Path(args["out"])
    check_output_path(store, out)  # as write_report does, keeping the data it was built from
    data: dict[str, Any] = {}
    html = build_report(store, args["run"], collected=data)
    write_output(store, out, html)
    if not data["store"]["verify_ok"]:
        raise AuditInputError("the report found the store failed its integrity check")
    return {"hands": int(data["hands"]["hands"]), "bytes": out.stat().st_size}


_RUNNERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "simulate": _simulate, "copy": _copy, "ingest": _ingest, "verify": _verify,
    "audit": _audit, "collusion": _collusion, "report": _report,
}


# ---------------------------------------------------------------- the table
def format_pipeline(result: dict[str, Any]) -> str:
    """The per-stage table, the whole day and the capacity model, for a terminal."""
    n, sim = result["hands"], result["simulated_hands"]
    lines = [f"pipeline: a room's day of {n:,} hands ({result['room']['variant']} games, "
             f"{result['room']['tournament_share']:.0%} tournament tables, "
             f"{result['room']['violations']:.1%} hands with a violation, "
             f"{result['room']['colluder_teams']} colluding pairs); ingest with "
             f"{result.get('ingest_workers', 1)} workers, audit with "
             f"{result['audit_workers']}; {result['cpus']} CPUs, load "
             f"{result['load_average']} before, {result['load_average_after']} after",
             f"{'stage':<10}{'hands':>12}{'wall s':>10}{'CPU s':>10}{'peak MB':>9}"
             f"{'hands/s':>10}{'hands/core-h':>14}"]
    per_core_hour = result["capacity"]["hands_per_core_hour"]
    for name, s in result["stages"].items():
        lines.append(f"{name:<10}{s['hands']:>12,}{s['wall_seconds']:>10.1f}"
                     f"{s['cpu_seconds']:>10.1f}{s['peak_rss_bytes'] / 1e6:>9,.0f}"
                     f"{s['hands'] / max(s['wall_seconds'], 1e-9):>10,.0f}"
                     f"{per_core_hour[name]:>14,}")
    col = result["stages"]["collusion"]
    if "teams_planted" in col:
        lines.append(f"collusion: {col['leads']} leads; planted teams found "
                     f"{col['teams_found']} of {col['teams_planted']}, false leads "
                     f"{col['false_leads']}")
    if sim < n:
        copy = result["feed_copy"]
        lines.append(f"(simulated {sim:,} hands, measured above; copied to {n:,} under fresh "
                     f"hand, player and table ids in {copy['wall_seconds']:.0f} s, no stage: "
                     "a bigger room; the whole day scales the simulator's cost per hand to N)")
    w = result["whole"]
    a = w["audit_pipeline"]
    lines.append(f"whole day{' (projected)' if w['projected'] else ''}: "
                 f"{w['wall_seconds']:,.0f} s wall, {w['cpu_seconds']:,.0f} CPU-s, "
                 f"{w['hands_per_second']:,.0f} hands/s, peak {w['peak_rss_bytes'] / 1e9:.2f} GB")
    lines.append(f"audit pipeline (ingest to report): {a['wall_seconds']:,.0f} s wall, "
                 f"{a['cpu_seconds']:,.0f} CPU-s, {a['hands_per_second']:,.0f} hands/s")
    c = result["capacity"]
    t = c["target"]
    lines.append(f"capacity: {c['audit_pipeline_hands_per_core_hour']:,} hands per core-hour "
                 f"(ingest to report); cores for 1M / 100M / 1B hands a day: "
                 f"{c['cores_for_1m_hands_a_day']} / {c['cores_for_100m_hands_a_day']} / "
                 f"{c['cores_for_1b_hands_a_day']}")
    lines.append(f"target {t['hands']:,} hands in {t['seconds']} s on {t['cores']} cores in "
                 f"{t['peak_bytes'] / 2 ** 30:.0f} GiB, ingest to report: wall "
                 f"{_against(t['wall_ratio_audit_pipeline'])}, CPU "
                 f"{_against(t['cpu_ratio_audit_pipeline'])} (heaviest stage "
                 f"{t['heaviest_audit_stage']}), peak memory "
                 f"{_against(t['memory_ratio_audit_pipeline'])} (biggest stage "
                 f"{t['biggest_audit_stage']}); with the simulator CPU "
                 f"{_against(t['times_over_with_simulate'])} "
                 f"({t['simulate_share_of_cpu']:.0%} of the CPU)")
    return "\n".join(lines)


def _against(ratio: float) -> str:
    """A measure over its budget as the target reads it: `0.87x (within)`, `1.84x (over)`."""
    return f"{ratio}x ({'within' if ratio <= 1 else 'over'})"
