"""Fault injection: ingest, audit and report killed at random points, out of disk space, on a
read-only file system, or started over corrupted partial files, and what must hold after each.

A trial runs one CLI command in a child process (forked from a forkserver that has already
imported poker-audit, so a trial costs milliseconds, not an interpreter start) with an I/O tap
installed: the tap counts every write-side call (open for writing, mkdir, rename, fsync,
Parquet writes, deletes) and at the trial's seeded point kills the process (`os._exit`, as
abrupt as SIGKILL: no cleanup, no flush), or makes that call and every later one fail with
ENOSPC or EROFS. The parent then checks the invariants:

- the store verifies (file hashes, chain, Merkle roots) and recovery loses nothing committed;
- nothing partial is visible: no hand twice or uncommitted, every run listed is whole, the
  report file is absent or complete;
- a command that failed said so clearly (exit code 2, no traceback);
- rerunning the command without the fault completes with the same results.

Used by tests/reliability/test_fault_injection.py and `poker-audit bench --reliability`.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from audit.devtools.bench import synthetic_events
from audit.devtools.faulttap import KILLED, _child
from audit.errors import AuditError
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store, resolve_run
from audit.sql.query import query
from audit.store.dataset import Store

FAULTS = ("kill", "enospc", "readonly", "corrupt", "concurrent")
COMMANDS = ("ingest", "audit", "report")
_PRELOAD = ["audit.cli.main", "audit.cli.ingest", "audit.cli.run", "audit.cli.report",
            "audit.ingest.pipeline", "audit.run.runner", "audit.report.build",
            "audit.sql.query", "audit.devtools.faults_warmup"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Trial:
    """One injected fault and what happened."""

    number: int
    command: str
    fault: str
    point: int
    exit_code: int | None
    message: str
    problems: tuple[str, ...]

    @property
    def survived(self) -> bool:
        return not self.problems


@dataclass(slots=True, kw_only=True)
class FaultReport:
    trials: list[Trial] = field(default_factory=list)
    hands_lost: int = 0

    @property
    def injected(self) -> int:
        return len(self.trials)

    @property
    def survived(self) -> int:
        return sum(t.survived for t in self.trials)

    def by(self, key: str) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for t in self.trials:
            done, ok = out.get(getattr(t, key), (0, 0))
            out[getattr(t, key)] = (done + 1, ok + t.survived)
        return out


# ---------------------------------------------------------------------------- trials


class FaultRunner:
    """Seeded trials against three stores (one per command) in a scratch directory."""

    def __init__(self, workdir: Path, *, seed: int = 20261122, hands_per_file: int = 6,
                 timeout: float = 120.0) -> None:
        self.work = workdir
        self.rng = random.Random(seed)
        self.hands_per_file = hands_per_file
        self.timeout = timeout
        self.ctx = multiprocessing.get_context("forkserver")
        self.ctx.set_forkserver_preload(_PRELOAD)
        self.report = FaultReport()
        self.expected: set[str] = set()
        self.files = 0
        self.calls: dict[str, int] = {}
        self.seconds: dict[str, float] = {}
        self.generation = 0
        self.fast = False
        self._baseline: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------- set-up
    @property
    def ingest_store(self) -> Path:
        return self.work / f"ingest-store-{self.generation}"

    def _fresh_ingest_store(self) -> None:
        """Start a new ingest store (verify time grows with the store; trials should not)."""
        self.generation += 1
        self.expected = set()

    @property
    def audit_store(self) -> Path:
        return self.work / "audit-store"

    @property
    def report_out(self) -> Path:
        return self.work / "out" / "report.html"

    def _new_file(self) -> Path:
        """A fresh input file of whole hands (every third with a short-paid pot)."""
        self.files += 1
        path = self.work / "in" / f"f{self.files:04d}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        table = hands_table(f"f{self.files}h", self.hands_per_file)
        import pyarrow.parquet as pq

        pq.write_table(table, path)
        return path

    def prepare(self) -> None:
        """The audit and report stores: a few files ingested and audited once."""
        for _ in range(2):
            ingest([self._new_file()], Store(self.audit_store))
        audit_store(Store(self.audit_store))
        self._baseline = _findings(Store(self.audit_store))
        self.report_out.parent.mkdir(parents=True, exist_ok=True)
        self._spawn(["--version"], "count", 0)  # start the forkserver before timing anything
        for command in COMMANDS:
            self.calls[command] = self._count_calls(command)

    def _args(self, command: str, src: Path | None = None) -> list[str]:
        if command == "ingest":
            return ["ingest", str(src), "--store", str(self.ingest_store)]
        if command == "audit":
            return ["audit", "--store", str(self.audit_store), "--fail-on", "critical"]
        return ["report", "--store", str(self.audit_store), "--out", str(self.report_out)]

    def _count_calls(self, command: str) -> int:
        """How many write-side calls a fault-free run makes (the range of kill points). The
        run is timed twice and the faster time kept as the range of timed kills: a first run
        on a busy machine (or with cold caches) can take several times as long as the trials
        will, and kills timed from it would mostly land after the command ended."""
        seconds = []
        for _ in range(2):
            scratch = self.work / "count-store"
            if command == "ingest":
                args = ["ingest", str(self._new_file()), "--store", str(scratch)]
            else:
                args = self._args(command)
            start = time.perf_counter()
            outcome = self._spawn(args, "count", 0)
            seconds.append(time.perf_counter() - start)
            shutil.rmtree(scratch, ignore_errors=True)
            if outcome is None or outcome["exit_code"] not in (0, 1) or outcome.get(
                    "traceback"):
                raise RuntimeError(f"fault-free {command} failed: {outcome}")
        self.seconds[command] = min(seconds)
        return int(outcome["calls"])

    def _spawn(self, args: list[str], fault: str, point: int, *,
               kill_after: float | None = None, name: str = "result") -> dict[str, Any] | None:
        """Run the command in a child; its result, or None when the child was killed (by
        the tap, or by SIGKILL from here after `kill_after` seconds)."""
        child = self._start(args, fault, point, name)
        if kill_after is not None:
            child.join(kill_after)
            if child.is_alive():
                # the child may finish between the check and the kill
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGKILL)  # type: ignore[arg-type]
        return self._finish(child, name)

    def _start(self, args: list[str], fault: str, point: int, name: str) -> Any:
        result = self.work / f"{name}.json"
        result.unlink(missing_ok=True)
        child = self.ctx.Process(target=_child,
                                 args=(args, fault, point, str(result), str(self.work)))
        child.start()
        return child

    def _finish(self, child: Any, name: str) -> dict[str, Any] | None:
        result = self.work / f"{name}.json"
        child.join(self.timeout)
        if child.is_alive():
            child.kill()
            child.join()
            return {"exit_code": None, "output": "", "traceback": "hung", "calls": 0}
        if child.exitcode in (KILLED, -signal.SIGKILL):
            return None
        if not result.exists():
            return {"exit_code": child.exitcode, "output": "", "calls": 0,
                    "traceback": f"child died with exit code {child.exitcode}"}
        return dict(json.loads(result.read_text()))

    # ------------------------------------------------------------- one trial
    def run(self, trials: int, *, fast: bool = False) -> FaultReport:
        """`trials` seeded trials (see `plan`), fault points at random. `fast` skips the
        second store check after a successful rerun (the next trial's check covers it)."""
        self.fast = fast
        self.prepare()
        for number, (command, fault) in enumerate(plan(trials, fast=fast), start=1):
            if command == "ingest" and number % 30 == 1:
                self._fresh_ingest_store()
            if fault == "concurrent":
                self.report.trials.append(self.concurrent_trial(number))
            else:
                self.report.trials.append(self.trial(number, command, fault))

        final = [p for c, root in (("ingest", self.ingest_store), ("audit", self.audit_store))
                 if Store(root).exists() for p in self._check_store(c, Store(root))]
        if final:  # only ever added on failure, so a clean run has exactly `trials` trials
            self.report.trials.append(Trial(number=trials + 1, command="all", fault="none",
                                            point=0, exit_code=None, message="final check",
                                            problems=tuple(final)))
        return self.report

    def trial(self, number: int, command: str, fault: str) -> Trial:
        store = Store(self.ingest_store if command == "ingest" else self.audit_store)
        src = self._new_file() if command == "ingest" else None
        point = self.rng.randint(1, max(1, self.calls[command]))
        args = self._args(command, src)
        if fault == "corrupt":
            self._corrupt(command, store)
            outcome = self._spawn(args, "count", 0)
        elif fault == "kill" and number % 2:
            # a SIGKILL at a random moment (also inside computation, not only at I/O calls)
            point = 0
            delay = self.rng.uniform(0.0, self.seconds[command] * 1.1)
            outcome = self._spawn(args, "count", 0, kill_after=delay)
        else:
            outcome = self._spawn(args, fault, point)
        problems = self._expect_outcome(fault, outcome)
        problems += self._check_store(command, store)
        if outcome is not None and outcome["exit_code"] in (0, 1) and not problems:
            # the command completed despite the fault (or with leftovers only): that run is
            # the rerun
            if command == "ingest":
                self.expected |= set(_hand_ids(src))  # type: ignore[arg-type]
            elif command == "audit" and self._findings_differ(store):
                problems.append("the findings differ from the fault-free run's")
        else:
            problems += self._rerun(command, store, src)
            if not self.fast or problems:
                problems += self._check_store(command, store)
        code = None if outcome is None else outcome["exit_code"]
        message = "killed" if outcome is None else _last_line(outcome.get("output", ""))
        return Trial(number=number, command=command, fault=fault, point=point, exit_code=code,
                     message=message, problems=tuple(problems))

    def concurrent_trial(self, number: int) -> Trial:
        """Two ingests and an audit of the same store at once: all commit, and the audit's
        findings are those of the chain head it recorded."""
        store = Store(self.ingest_store)
        sources = [self._new_file(), self._new_file()]
        children = [self._start(self._args("ingest", src), "count", 0, f"ingest{i}")
                    for i, src in enumerate(sources)]
        audit_args = ["audit", "--store", str(store.root), "--fail-on", "critical"]
        children.append(self._start(audit_args, "count", 0, "audit"))
        outcomes = [self._finish(c, n) for c, n in zip(children, ["ingest0", "ingest1", "audit"],
                                                        strict=True)]
        problems = []
        for outcome in outcomes:
            if outcome is None or outcome["exit_code"] not in (0, 1) or outcome["traceback"]:
                problems.append(f"a concurrent command failed: {outcome}")
        for src in sources:
            self.expected |= set(_hand_ids(src))
        problems += self._check_store("ingest", store)
        try:
            run = resolve_run(store, "latest")
            meta = json.loads((store.runs_dir / run / "run.json").read_text()) if run else {}
            at_head = store.records()
            heads = [r["hash"] for r in at_head]
            if meta.get("store_head") not in heads:
                problems.append("the audit recorded a chain head the store never committed")
            else:
                upto = at_head[: heads.index(meta["store_head"]) + 1]
                if meta.get("hands") != sum(int(r.get("hands", 0)) for r in upto):
                    problems.append("the audit's hand count is not that of its chain head")
        except Exception as exc:  # noqa: BLE001
            problems.append(f"cannot read the concurrent audit back: {exc}")
        return Trial(number=number, command="ingest+audit", fault="concurrent", point=0,
                     exit_code=max((o or {}).get("exit_code") or 0 for o in outcomes),
                     message="3 commands at once", problems=tuple(problems))

    def _findings_differ(self, store: Any) -> bool:
        try:
            return _findings(store) != self._baseline
        except Exception:  # noqa: BLE001 - unreadable findings differ
            return True

    def _expect_outcome(self, fault: str, outcome: dict[str, Any] | None) -> list[str]:
        if fault == "kill":
            return []  # killed (None) or the point was past the last call: either is fine
        if outcome is None:
            return ["the command died without being killed"]
        if outcome.get("traceback"):
            return [f"unhandled error: {outcome['traceback']}"]
        if fault == "corrupt":
            ok = outcome["exit_code"] in (0, 1)
            return [] if ok else [f"corrupt leftovers made the command fail: {outcome}"]
        if outcome["exit_code"] in (0, 1):
            return []  # the fault point came after the last write
        text = outcome.get("output", "")
        cause = "No space left" if fault == "enospc" else "Read-only"
        if outcome["exit_code"] != 2 or cause not in text or "Traceback" in text:
            return [f"unclear failure: exit {outcome['exit_code']}: {text[-300:]!r}"]
        return []

    def _corrupt(self, command: str, store: Any) -> None:
        """Leftovers of crashed writers: a partial staged batch, a torn manifest line, a
        half-written audit run, a half-written report."""
        junk = os.urandom(self.rng.randint(1, 4096))
        if command == "ingest":
            staged = store.root / "staging" / "20260101T000000000000Z-deadbeef" / "events"
            staged.mkdir(parents=True, exist_ok=True)
            (staged / "part.parquet").write_bytes(b"PAR1" + junk)
            with store.manifest_path.open("ab") as f:
                f.write(b'{"batch_id": "torn", "files": [')
        elif command == "audit":
            tmp = store.runs_dir / ".20260101T000000000000Z-deadbeef.tmp" / "findings"
            tmp.mkdir(parents=True, exist_ok=True)
            (tmp / "part-0000000.parquet").write_bytes(b"PAR1" + junk)
        else:
            self.report_out.with_name(f".{self.report_out.name}.tmp").write_bytes(junk)

    # ------------------------------------------------------------- invariants
    def _check_store(self, command: str, store: Any) -> list[str]:
        problems: list[str] = []
        try:
            with store.locked():  # recovery: roll forward or undo what a crash left
                pass
            report = store.verify()
        except (AuditError, OSError) as exc:
            return [f"store unusable after the fault: {exc}"]
        problems += [f"verify: {p.kind} {p.path}: {p.detail}" for p in report.problems]
        if (store.root / "staging").exists():
            problems.append("staging left behind after recovery")
        if store.runs_dir.exists() and any(store.runs_dir.glob(".*.tmp")):
            problems.append("a killed audit's runs/.<id>.tmp left behind after recovery")
        try:
            if command == "ingest":
                problems += self._check_hands(store)
            elif command == "audit":
                problems += _check_runs(store)
            else:
                problems += self._check_report()
        except Exception as exc:  # noqa: BLE001 - any failure to read back is a finding here
            problems.append(f"cannot read the store back: {type(exc).__name__}: {exc}")
        return problems

    def _check_hands(self, store: Any) -> list[str]:
        ids = [r["hand_id"] for r in query(store, "SELECT hand_id FROM hands_started")
               .to_pylist()]
        committed = sum(int(r.get("hands", 0)) for r in store.records())
        problems = []
        if len(ids) != len(set(ids)):
            problems.append("a hand is visible twice")
        if len(ids) != committed:
            problems.append(f"{len(ids)} hands visible, {committed} committed")
        lost = self.expected - set(ids)
        if lost:
            self.report.hands_lost += len(lost)
            problems.append(f"{len(lost)} committed hands lost")
        return problems

    def _check_report(self) -> list[str]:
        out = self.report_out
        if not out.exists():
            return []
        text = out.read_text(encoding="utf-8", errors="replace")
        if not text.rstrip().endswith("</html>"):
            return [f"{out.name} is visible but incomplete ({len(text)} bytes)"]
        return []

    def _rerun(self, command: str, store: Any, src: Path | None) -> list[str]:
        """Without the fault the command completes, with the same results."""
        try:
            return self._rerun_checked(command, store, src)
        except Exception as exc:  # noqa: BLE001 - any failure to read back is a finding here
            return [f"cannot check the rerun: {type(exc).__name__}: {exc}"]

    def _rerun_checked(self, command: str, store: Any, src: Path | None) -> list[str]:
        outcome = self._spawn(self._args(command, src), "count", 0)
        if outcome is None or outcome["exit_code"] not in (0, 1) or outcome.get("traceback"):
            return [f"rerun failed: {outcome}"]
        if command == "ingest":
            self.expected |= set(_hand_ids(src))  # type: ignore[arg-type]
        elif command == "audit":
            if self._findings_differ(store):
                return ["the rerun's findings differ from the fault-free run's"]
        elif not self.report_out.exists():
            return ["the rerun wrote no report"]
        return []


# ---------------------------------------------------------------------------- helpers


def plan(trials: int, *, fast: bool = False) -> list[tuple[str, str]]:
    """Which command gets which fault, in order. A report costs seconds (charts) where an
    ingest or audit of a few hands costs a fraction of one, so report gets one trial in
    eight (one in sixteen when `fast`, which also favours ingest, the cheapest); every tenth
    (twentieth) trial runs two ingests and an audit at once."""
    out = []
    cycle = (["ingest", "audit", "ingest"] * 5 + ["report"] if fast
             else ["ingest", "audit"] * 3 + ["ingest", "report"])
    faults = ["kill", "kill", "enospc", "readonly", "corrupt"]
    concurrent_every = 20 if fast else 10
    counts: dict[str, int] = {}
    for i in range(trials):
        if i % concurrent_every == concurrent_every - 1:
            out.append(("ingest", "concurrent"))
            continue
        command = cycle[i % len(cycle)]
        n = counts.get(command, 0)
        counts[command] = n + 1
        out.append((command, faults[n % len(faults)]))
    return out


def hands_table(prefix: str, hands: int) -> Any:
    """`hands` complete hold'em hands with ids prefix0..; every third one's main pot is
    pushed 10 short (a wrong award, so audits have findings to compare)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    table = synthetic_events(15 * hands)
    per_hand = table.num_rows // hands
    numbers = pa.array(np.repeat(np.arange(hands), per_hand)).cast(pa.string())
    table = table.set_column(0, "hand_id", pc.binary_join_element_wise(prefix, numbers, ""))
    amounts = pc.fill_null(table.column("amount"), 0).to_numpy().copy()
    for h in range(0, hands, 3):
        amounts[h * per_hand + 13] -= 10
    mask = pc.is_null(table.column("amount"))
    fixed = pc.if_else(mask, pa.scalar(None, pa.int64()), pa.array(amounts.astype("int64")))
    return table.set_column(table.schema.get_field_index("amount"), "amount", fixed)


def _hand_ids(path: Path) -> list[str]:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    t = pq.read_table(path, columns=["hand_id", "seq"])
    return list(t.column("hand_id").filter(pc.equal(t.column("seq"), 0)).to_pylist())


def _findings(store: Any) -> list[dict[str, Any]]:
    rows = query(store, "SELECT * EXCLUDE (run_id) FROM latest_findings").to_pylist()
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))


def _check_runs(store: Any) -> list[str]:
    problems = []
    if not store.runs_dir.exists():
        return []
    for run in sorted(store.runs_dir.iterdir()):
        if run.name.startswith("."):
            continue
        if not (run / "run.json").exists() or not all(
                (run / f"{name}.parquet").is_file() or (run / name).is_dir()
                for name in ("findings", "hands", "hand_players")):
            problems.append(f"run {run.name} is visible but incomplete")
    return problems


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def run_fault_injection(trials: int, *, seed: int = 20261122, fast: bool = False,
                        workdir: Path | None = None) -> FaultReport:
    """Run seeded fault trials in a scratch directory (deleted afterwards unless given)."""
    if workdir is not None:
        return FaultRunner(workdir, seed=seed).run(trials, fast=fast)
    with tempfile.TemporaryDirectory(prefix="poker-audit-faults-") as tmp:
        return FaultRunner(Path(tmp), seed=seed).run(trials, fast=fast)
