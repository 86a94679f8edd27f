"""Audit runs: replay every stored hand under a profile, write findings and projections under a
run id, and find them again."""

from __future__ import annotations

import contextlib
import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit import __version__
from audit.errors import AuditInputError
from audit.replay.fast.table import KERNEL, kernel_compile_pending
from audit.rules.profiles import AUTO_PROFILE
from audit.rules.registry import Severity
from audit.run.judges import judge, run_label
from audit.run.money import PLAY_CHIPS, money_unit, unit_order
from audit.schema import arrow_schema, check_file_version, findings_schema
from audit.store.dataset import GENESIS, Store, new_batch_id, published_path, read_event_file
from audit.store.run_layout import COLLUSION_FINDINGS, OUTPUTS, output_files, part_path
from audit.store.runs import (
    RunCheckError,
    commit_run,
    require_intact,
    run_file,
    run_path,
    visible_runs,
)
from audit.workers import worker_pool as guarded_pool


def finished_runs(store: Store) -> list[dict[str, Any]]:
    """The metadata (run.json) of every finished run, oldest first: the runs the chain
    commits, in commit order (audit/store/runs.py); in a store written before runs were
    committed, its runs by directory name."""
    return [r.meta for r in visible_runs(store)]


def resolve_run(store: Store, run: str = "latest") -> str | None:
    """The run id for `latest` (the run the chain committed last) or an id; None when the
    store has no finished run yet."""
    runs = finished_runs(store)
    if run == "latest":
        return runs[-1]["run_id"] if runs else None
    ids = [r["run_id"] for r in runs]
    if run not in ids:
        known = ", ".join(ids[-5:]) or "none yet"
        raise AuditInputError(f"no finished audit run {run!r} in {store.root} (latest: {known})")
    return run


def run_dir(store: Store, run_id: str) -> Path:
    return run_path(store, run_id)


def run_chain(store: Store, run_id: str) -> list[str]:
    """The run and the runs it builds on, oldest first: an incremental run (`audit --since`)
    covers only the batches committed after its base run, so together they cover the store
    as of the newest one."""
    by_id = {r["run_id"]: r for r in finished_runs(store)}
    chain = []
    current: str | None = run_id
    while current is not None and current in by_id and current not in chain:
        chain.append(current)
        current = by_id[current].get("since")
    return chain[::-1]


def checked_run_chain(store: Store, run_id: str) -> list[str]:
    """run_chain, with every committed member checked against its run record (a run that
    fails raises RunCheckError)."""
    members = run_chain(store, run_id)
    require_intact(store, members)
    return members


def read_findings(store: Store, run: str = "latest", rule: str | None = None) -> pa.Table:
    """Findings of one run (with the runs an incremental run builds on), optionally of one
    rule id; empty (with the schema) when none. Only committed runs that pass their check are
    read (audit/store/runs.py). With them the run's collusion findings (`poker-audit
    collusion`: its leads, hand_id NULL, and the single-hand pattern notes; of the runs it
    builds on only their notes, since the run's own leads cover their hands too)."""
    store.ensure_recovered()  # a run committed just before a crash is renamed into place
    run_id = resolve_run(store, run)
    if run_id is None:
        return findings_schema().empty_table()
    tables = []
    for member in checked_run_chain(store, run_id):
        for path in output_files(run_dir(store, member), "findings"):
            table = _read_output(path)
            check_file_version(table.schema.metadata, "findings", str(path))
            tables.append(table.cast(findings_schema()))
        collusion = run_file(store, member, COLLUSION_FINDINGS)
        if collusion is not None:
            table = _read_output(collusion)
            check_file_version(table.schema.metadata, "findings", str(collusion))
            if member != run_id:  # an earlier run's leads are superseded by this run's
                table = table.filter(pc.is_valid(table.column("hand_id")))
            tables.append(table.cast(findings_schema()))
    if not tables:
        return findings_schema().empty_table()
    table = pa.concat_tables(tables)
    if rule:
        table = table.filter(pc.equal(table.column("rule_id"), rule))
    return table


def _read_output(path: Path) -> pa.Table:
    """One output part; an unreadable one (a legacy run cannot be checked first) is one line
    naming the file."""
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise RunCheckError(f"{path}: audit run output is unreadable ({exc}); run "
                            "`poker-audit verify`") from None


# ---------------------------------------------------------------------------- audit runs


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSummary:
    """What an audit run found, for the CLI summary and the exit code."""

    run_id: str
    profile: str
    hands: int
    findings: int
    by_rule: tuple[tuple[str, str, str, int], ...]  # (rule_id, category, severity, count)
    by_category: tuple[tuple[str, int], ...]
    by_severity: tuple[tuple[str, int], ...]
    rake: int  # chips the house collected (logged or implied by pot - awards)
    rake_hands: int
    worst: str | None  # highest severity found
    fast_hands: int = 0  # proven clean by the compiled fast path (the rest: reference replay)
    by_profile: tuple[tuple[str, int], ...] = ()  # hands judged by each profile (label)
    # (money unit, hands, rake, hands with rake) per currency, tournament chips apart
    # (audit/run/money.py): `rake` above adds them all and is no amount of money
    money: tuple[tuple[str, int, int, int], ...] = ()

    def flagged(self, fail_on: str) -> bool:
        """True when a finding is at or above `fail_on`."""
        return self.worst is not None and Severity(self.worst).level >= Severity(fail_on).level


@dataclass(frozen=True, slots=True, kw_only=True)
class PartJob:
    """One event file to audit into the run's part files number `index` (picklable for
    worker processes)."""

    index: int
    path: Path
    out: Path  # the run's directory while it is written
    run_id: str
    profile: str
    overlays: tuple[str, ...]
    sha256: str | None = None  # the manifest's: a file that differs is refused, named


@dataclass(frozen=True, slots=True, kw_only=True)
class PartStats:
    """What a part contributes to the run summary (small: it crosses process boundaries)."""

    hands: int
    findings: int
    rules: Counter[tuple[str, str, str]]
    rake: int
    rake_hands: int
    fast_hands: int = 0  # proven clean by the compiled fast path
    profiles: Counter[str] = field(default_factory=Counter)  # hands judged by each profile
    # per money unit (audit/run/money.py): hands, rake, hands with rake
    unit_hands: Counter[str] = field(default_factory=Counter)
    unit_rake: Counter[str] = field(default_factory=Counter)
    unit_rake_hands: Counter[str] = field(default_factory=Counter)


def audit_part(job: PartJob) -> PartStats:
    """Audit one file and write its findings and projections as the run's part files."""
    try:
        events = read_event_file(job.path, job.sha256)
    except FileNotFoundError:  # published from staging since the run listed it
        moved = published_path(job.path)
        if moved is None:
            raise
        events = read_event_file(moved, job.sha256)
    result = judge(events, job.profile, job.overlays, job.run_id)
    findings = result.findings
    tables = {
        "findings": findings.cast(findings_schema()),
        "hands": result.hands.cast(arrow_schema("hands")),
        "hand_players": result.players.cast(arrow_schema("hand_players")),
    }
    for name, table in tables.items():
        if table.num_rows:  # a file without findings writes no findings part
            pq.write_table(table, part_path(job.out, name, job.index), compression="zstd")
    rake = result.hands.column("rake")
    unit_hands, unit_rake, unit_rake_hands = _rake_by_unit(events, result.hands)
    counts = findings.group_by(["rule_id", "category", "severity"]).aggregate(
        [("rule_id", "count")]).to_pylist()
    return PartStats(
        hands=result.hands.num_rows,
        findings=findings.num_rows,
        rules=Counter({(r["rule_id"], r["category"], r["severity"]): r["rule_id_count"]
                       for r in counts}),
        rake=int(pc.sum(rake).as_py() or 0),
        rake_hands=int(pc.sum(pc.not_equal(rake, 0)).as_py() or 0),
        fast_hands=result.fast_hands,
        profiles=Counter(dict(zip(*_value_counts(result.hands.column("profile")),
                                  strict=True))),
        unit_hands=unit_hands,
        unit_rake=unit_rake,
        unit_rake_hands=unit_rake_hands,
    )


def _rake_by_unit(events: pa.Table, hands: pa.Table
                  ) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Hands, rake and hands with rake per money unit (a currency, tournament chips apart):
    the unit of each hand is on its hand_started event (audit/run/money.py; worked out once
    per distinct currency and tournament flag, the hands counted per unit at once)."""
    started = events.filter(pc.equal(events.column("kind"), "hand_started"))
    game = started.column("game")
    fields = {f.name for f in game.type} if pa.types.is_struct(game.type) else set()

    def field_of(name: str, type_: pa.DataType) -> pa.Array | pa.ChunkedArray:
        if name not in fields:
            return pa.nulls(started.num_rows, type_)
        return pc.struct_field(game, name).cast(type_)

    frame = pl.from_arrow(pa.table({
        "hand_id": started.column("hand_id").cast(pa.string()),
        "currency": field_of("currency", pa.string()),
        "tournament": field_of("tournament", pa.bool_())}))
    assert isinstance(frame, pl.DataFrame)
    combos = frame.select("currency", "tournament").unique()
    combos = combos.with_columns(pl.Series("unit", [
        money_unit(c, t) for c, t in combos.iter_rows()], dtype=pl.String))
    # the unit of a hand id is that of its last hand_started row
    unit = frame.unique("hand_id", keep="last").join(
        combos, on=["currency", "tournament"], how="left", nulls_equal=True).select(
        "hand_id", "unit")
    projected = pl.from_arrow(pa.table({"hand_id": hands.column("hand_id").cast(pa.string()),
                                        "rake": hands.column("rake").cast(pa.int64())}))
    assert isinstance(projected, pl.DataFrame)
    per_unit = projected.join(unit, on="hand_id", how="left", nulls_equal=True).group_by(
        pl.col("unit").fill_null(PLAY_CHIPS)).agg(
        pl.len().alias("hands"), pl.col("rake").fill_null(0).sum().alias("rake"),
        (pl.col("rake").fill_null(0) != 0).sum().alias("raked"))
    n: Counter[str] = Counter()
    rake: Counter[str] = Counter()
    raked: Counter[str] = Counter()
    for u, count, total, with_rake in per_unit.iter_rows():
        n[u] += count
        rake[u] += total
        raked[u] += with_rake
    return n, rake, raked


def _value_counts(column: pa.ChunkedArray) -> tuple[list[str], list[int]]:
    counts = pc.value_counts(column).to_pylist() if len(column) else []
    return [c["values"] or "-" for c in counts], [c["counts"] for c in counts]


def _run_parts(jobs: list[PartJob], workers: int,
               progress: Callable[[int], None] | None,
               scheduler: str | None = None, processes: bool = False) -> list[PartStats]:
    """Audit every job; `progress` is called with each finished part, in file order."""
    if scheduler:
        return _run_parts_on_dask(jobs, scheduler, progress)
    if not processes and (workers <= 1 or len(jobs) <= 1):
        results = []
        for job in jobs:
            results.append(audit_part(job))
            if progress:
                progress(1)
        return results
    results: list[PartStats] = []
    if kernel_compile_pending():
        # a first run after install: N workers would each compile the replay kernel at once
        # (minutes, about 2 GB apiece). One worker audits the first part alone, compiling it
        # into numba's cache, and exits; the pool's workers then load it from there (seconds)
        KERNEL.announce_compile()
        with worker_pool(1) as pool:
            results.append(pool.submit(audit_part, jobs[0]).result())
        if progress:
            progress(1)
        jobs = jobs[1:]
    if not jobs:
        return results
    with worker_pool(workers) as pool:
        for stats in pool.map(audit_part, jobs):  # in file order, whatever finishes first
            results.append(stats)
            if progress:
                progress(1)
        return results


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """The audit's N worker processes (audit/workers.py), the forkserver preloading this
    module: the replay's imports are paid once, not per worker."""
    with guarded_pool(workers, "audit.run.runner") as pool:
        yield pool


def _run_parts_on_dask(jobs: list[PartJob], scheduler: str,
                       progress: Callable[[int], None] | None) -> list[PartStats]:
    """The same per-file function on a Dask distributed cluster. Workers must see the store
    at the same path (a shared filesystem); results come back in file order."""
    try:
        from distributed import Client
    except ImportError:
        raise AuditInputError(
            "--scheduler needs Dask distributed: pip install 'poker-audit[dask]'"
        ) from None
    try:
        client = Client(scheduler, timeout="10s")
    except OSError as exc:
        raise AuditInputError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        futures = client.map(audit_part, jobs, pure=False)
        results = []
        for future in futures:  # in file order
            results.append(future.result())
            if progress:
                progress(1)
        return results
    finally:
        client.close()


def audit_store(
    store: Store,
    *,
    profile: str = AUTO_PROFILE,
    overlays: Sequence[str] = (),
    workers: int = 1,
    processes: bool = False,
    scheduler: str | None = None,
    now: datetime | None = None,
    progress: Callable[[int], None] | None = None,
    since: str | None = None,
    _crash_at: str | None = None,
) -> RunSummary:
    """Replay every committed hand; write findings and projections under a new run id.

    Event files are independent units of work: with `workers` > 1 they are replayed in
    parallel processes, or with `scheduler` ("tcp://host:port") on a Dask cluster. Each
    file's findings and projections are its own part files (audit/store/run_layout.py), so they
    are identical for any number of workers and nothing is merged after the workers.

    `processes` runs even a single worker in a worker process (one thread), as each of N
    workers runs: `poker-audit bench --scale` measures scaling that way.

    With `since` (a run id or "latest") the run is incremental: it replays only the batches
    committed after that run, under the same profile, and records the run it builds on;
    `read_findings` and the `latest_*` SQL views read the two as one.
    """
    store.ensure_recovered()
    now = now or datetime.now(UTC)
    label = run_label(profile, tuple(overlays))  # also: an unknown profile fails here, early
    records = store.records()
    batches = batch_records(records)
    base_id, first = _incremental_base(store, since, label, records)
    files = store.event_files(batches[first:])  # in place, or committed but still staged
    run_id = new_batch_id(now)
    claim = store.claim_run(run_id)  # recovery removes runs/.<id>.tmp only once this is free
    tmp = claim.tmp
    try:
        for name in OUTPUTS:
            (tmp / name).mkdir(parents=True)
        digests = [f["sha256"] for r in batches[first:] for f in r.get("files", [])]
        jobs = [PartJob(index=i, path=path, out=tmp, run_id=run_id, profile=profile,
                        overlays=tuple(overlays), sha256=digest)
                for i, (path, digest) in enumerate(zip(files, digests, strict=True))]
        stats = _run_parts(jobs, workers, progress, scheduler, processes)
        summary = _summarise(run_id, label, stats)
        meta = {
            "run_id": run_id,
            "created_at": now.isoformat(),
            "profile": label,
            "engine_version": __version__,
            "store_head": records[-1]["hash"] if records else GENESIS,
            "batches": len(batches),
            "hands": summary.hands,
            "findings": summary.findings,
            "since": base_id,
            "first_batch": first,
        }
        (tmp / "run.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        # the commit point: the run's files hashed into a run record on the chain; then the
        # run becomes visible whole, or not at all (audit/store/runs.py)
        commit_run(store, run_id, tmp, meta, _crash_at=_crash_at)
    except BaseException:
        if not store._run_committed(run_id):  # a committed run is recovery's to rename
            shutil.rmtree(tmp, ignore_errors=True)  # e.g. the disk filled writing run.json
        raise
    finally:
        claim.release()
    return summary


def _incremental_base(store: Store, since: str | None, profile: str,
                      records: list[dict[str, Any]]) -> tuple[str | None, int]:
    """(base run id, first batch to audit) for `audit --since`; (None, 0) for a full run."""
    if since is None:
        return None, 0
    base_id = resolve_run(store, since)
    if base_id is None:
        raise AuditInputError(f"--since {since}: {store.root} has no finished audit run to "
                              "continue from; run a full audit first")
    require_intact(store, run_chain(store, base_id))  # never build on a damaged run
    base = next(r for r in finished_runs(store) if r["run_id"] == base_id)
    if base["profile"] != profile:
        raise AuditInputError(f"--since {base_id}: that run used profile {base['profile']}, "
                              f"this one {profile}; an incremental run must use the same "
                              "profile (run a full audit to change it)")
    first = int(base["batches"])
    later = batches_after(records, str(base["store_head"]))
    if later is None or first != len(batch_records(records)) - later:
        raise AuditInputError(f"--since {base_id}: the store no longer has the batches that "
                              "run audited (its manifest head is not in the chain); run a "
                              "full audit")
    return base_id, first


def batch_records(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The batch records of the chain (run records, audit/store/runs.py, carry a "kind")."""
    return [r for r in records if "kind" not in r]


def batches_after(records: Sequence[dict[str, Any]], head: str) -> int | None:
    """How many batches the chain committed after the record `head` (0 for the genesis of an
    empty store); None when no record has that hash (the chain was rewritten)."""
    if head == GENESIS:
        return len(batch_records(records))
    for number, record in enumerate(records):
        if record.get("hash") == head:
            return len(batch_records(records[number + 1:]))
    return None


def _summarise(run_id: str, profile: str, stats: Sequence[PartStats]) -> RunSummary:
    rules: Counter[tuple[str, str, str]] = Counter()
    for part in stats:
        rules.update(part.rules)
    by_category: Counter[str] = Counter()
    by_severity: Counter[str] = Counter()
    for (_, category, severity), n in rules.items():
        by_category[category] += n
        by_severity[severity] += n
    worst = max((Severity(s) for s in by_severity), key=lambda s: s.level, default=None)
    return RunSummary(
        run_id=run_id,
        profile=profile,
        hands=sum(p.hands for p in stats),
        findings=sum(p.findings for p in stats),
        by_rule=tuple(sorted(((r, c, s, n) for (r, c, s), n in rules.items()),
                             key=lambda x: (-Severity(x[2]).level, -x[3], x[0]))),
        by_category=tuple(sorted(by_category.items(), key=lambda x: (-x[1], x[0]))),
        by_severity=tuple(sorted(by_severity.items(), key=lambda x: -Severity(x[0]).level)),
        rake=sum(p.rake for p in stats),
        rake_hands=sum(p.rake_hands for p in stats),
        worst=str(worst) if worst else None,
        fast_hands=sum(p.fast_hands for p in stats),
        by_profile=tuple(sorted(sum((p.profiles for p in stats), Counter()).items(),
                                key=lambda x: (-x[1], x[0]))),
        money=_money(stats),
    )


def _money(stats: Sequence[PartStats]) -> tuple[tuple[str, int, int, int], ...]:
    hands: Counter[str] = Counter()
    rake: Counter[str] = Counter()
    raked: Counter[str] = Counter()
    for part in stats:
        hands.update(part.unit_hands)
        rake.update(part.unit_rake)
        raked.update(part.unit_rake_hands)
    return tuple((u, hands[u], rake[u], raked[u]) for u in sorted(hands, key=unit_order))
