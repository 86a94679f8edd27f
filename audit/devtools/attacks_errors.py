"""Attacks on error handling: a pooled audit or ingest killed by SIGKILL (no worker,
forkserver or resource tracker may outlive it), malformed inclusion proofs and hostile
command-line input (one line, the right exit code, never a traceback)."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

import audit
from audit.cli.main import main
from audit.devtools.attacks import Attack
from audit.devtools.faults import hands_table
from audit.ingest.pipeline import ingest
from audit.run.runner import finished_runs
from audit.store.dataset import Store
from audit.store.proof import build_proof

SUITE = "errors"


# ----------------------------------------------------------------- killing a pooled audit


def _proc_stat(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name (state first), None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _in_session(session: int) -> set[tuple[int, str]]:
    """(pid, start time) of every living process of a session: the audit (started as a
    session leader) and everything it started, however deep and whoever its parent is now
    (a worker the forkserver forked just before it died is reparented, not gone). The start
    time tells a process from a later one that reuses its pid."""
    found: set[tuple[int, str]] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == session:
            continue
        fields = _proc_stat(int(entry.name))
        if fields is not None and fields[0] != "Z" and int(fields[3]) == session:
            found.add((int(entry.name), fields[19]))
    return found


def _parts_written(store: Store) -> int:
    """Part files the running audit has written into its runs/.<id>.tmp directory."""
    if not store.runs_dir.is_dir():
        return 0
    return len(list(store.runs_dir.glob(".*.tmp/hands/part-*")))


@dataclass(frozen=True, slots=True, kw_only=True)
class KillMoment:
    """When to kill the audit: once it has this many descendant processes (with N workers,
    2 + N is the resource tracker, the forkserver and the workers), has had its workers up
    for `busy_for` seconds, and has written this many part files."""

    processes: int
    busy_for: float = 0.0
    parts: int = 0


KILL_MOMENTS: dict[str, KillMoment] = {
    "pool starting": KillMoment(processes=1),
    "workers up": KillMoment(processes=4),
    "workers busy 0.3 s": KillMoment(processes=4, busy_for=0.3),
    "workers busy 1 s": KillMoment(processes=4, busy_for=1.0),
    "first part written": KillMoment(processes=4, parts=1),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class KillTrial:
    """One SIGKILL of `poker-audit audit --workers N`: how many processes it had started
    and which still ran `grace` seconds after it."""

    moment: str
    landed: bool  # the audit was still running when it was killed
    seen: int
    orphans: tuple[int, ...]
    runs_before: int
    runs_after: int
    leftovers: tuple[str, ...]  # runs/ entries other than finished runs after recovery


@dataclass(frozen=True, slots=True)
class _Killed:
    landed: bool  # the command was still running when the moment came and it was killed
    seen: int  # processes it had started
    orphans: tuple[int, ...]  # still running `grace` seconds after the kill (then killed)


def _kill_at(command: list[str], moment: Callable[[int, float | None], bool], *,
             workers: int, grace: float, timeout: float) -> _Killed:
    """Run `poker-audit COMMAND` in a session of its own and SIGKILL it once `moment(processes
    alive in the session, seconds since its N workers came up or None)` holds, then wait up to
    `grace` seconds for every process of that session to be gone. Any that is not is killed
    (by its pid) and reported as an orphan."""
    package_root = str(Path(audit.__file__).resolve().parents[1])
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [package_root,
                                                       os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "audit.cli", *command],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True)
    seen: set[tuple[int, str]] = set()
    deadline = time.monotonic() + timeout
    workers_up: float | None = None
    landed = False
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            living = _in_session(proc.pid)
            seen |= living
            if workers_up is None and len(living) >= 2 + workers:
                workers_up = time.monotonic()
            if moment(len(living), None if workers_up is None
                      else time.monotonic() - workers_up):
                landed = proc.poll() is None
                break
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    gone_by = time.monotonic() + grace
    while _in_session(proc.pid) and time.monotonic() < gone_by:
        time.sleep(0.05)
    left = _in_session(proc.pid)
    seen |= left
    orphans = tuple(sorted(pid for pid, _ in left))
    for pid in orphans:  # leave the machine clean; each is a process this trial started
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return _Killed(landed, len(seen), orphans)


def kill_pooled_audit(store: Store, moment: str, *, workers: int = 2, grace: float = 3.0,
                      timeout: float = 300.0) -> KillTrial:
    """Start `poker-audit audit --workers N` on `store` in a session of its own, SIGKILL it
    at `moment` (a key of KILL_MOMENTS), then wait up to `grace` seconds for every process
    of that session to be gone. Any that is not is killed (by its pid) and reported as an
    orphan."""
    runs_before = len(finished_runs(store))
    when = KILL_MOMENTS[moment]

    def now(processes: int, busy: float | None) -> bool:
        return (processes >= when.processes and (busy or 0.0) >= when.busy_for
                and _parts_written(store) >= when.parts)

    killed = _kill_at(["audit", "--store", str(store.root), "--workers", str(workers)], now,
                      workers=workers, grace=grace, timeout=timeout)
    reopened = Store(store.root)
    reopened.ensure_recovered()  # what the next reader or audit does first
    finished = {r["run_id"] for r in finished_runs(reopened)}
    leftovers = tuple(sorted(p.name for p in reopened.runs_dir.iterdir()
                             if p.name not in finished)) if reopened.runs_dir.is_dir() else ()
    return KillTrial(moment=moment, landed=killed.landed, seen=killed.seen,
                     orphans=killed.orphans, runs_before=runs_before,
                     runs_after=len(finished), leftovers=leftovers)


@dataclass(frozen=True, slots=True, kw_only=True)
class IngestKillTrial:
    """One SIGKILL of `poker-audit ingest --workers N`, once its workers were busy."""

    landed: bool  # the ingest was still running, its workers up, when it was killed
    seen: int  # processes it had started
    orphans: tuple[int, ...]  # still running `grace` seconds after the kill (then killed)


def kill_pooled_ingest(inputs: list[Path], store_root: Path, *, workers: int = 2,
                       busy_for: float = 0.3, grace: float = 3.0,
                       timeout: float = 300.0) -> IngestKillTrial:
    """Start `poker-audit ingest --workers N` of `inputs` into `store_root` in a session of
    its own, SIGKILL it once its resource tracker, forkserver and N workers have run for
    `busy_for` seconds, then wait up to `grace` seconds for every process of that session to
    be gone. Any that is not is killed (by its pid) and reported as an orphan."""
    killed = _kill_at(["ingest", "--store", str(store_root), "--workers", str(workers),
                       *map(str, inputs)],
                      lambda _, busy: busy is not None and busy >= busy_for,
                      workers=workers, grace=grace, timeout=timeout)
    return IngestKillTrial(landed=killed.landed, seen=killed.seen, orphans=killed.orphans)


def build_busy_store(root: Path, *, files: int = 6, hands: int = 500) -> Store:
    """A store whose pooled audit keeps two workers busy for seconds: `files` event files of
    `hands` hold'em hands, a third of them with a wrong award (replayed the slow way)."""
    import pyarrow.parquet as pq

    root.mkdir(parents=True, exist_ok=True)
    sources = []
    for i in range(files):
        source = root / f"in{i}.parquet"
        pq.write_table(hands_table(f"k{i}h", hands), source)
        sources.append(source)
    store = Store(root / "store")
    ingest(sources, store)
    return store


def _kill_attacks(workdir: Path) -> list[Attack]:
    store = build_busy_store(workdir / "killed")
    results = []
    for moment in ("workers up", "workers busy 0.3 s"):
        trial = kill_pooled_audit(store, moment)
        held = (trial.landed and not trial.orphans and not trial.leftovers
                and trial.runs_after in (trial.runs_before, trial.runs_before + 1))
        results.append(Attack(
            suite=SUITE, case=f"SIGKILL of audit --workers 2 at {moment}", held=held,
            detail=(f"{trial.seen} child processes, {len(trial.orphans)} left running, "
                    f"leftovers {list(trial.leftovers)}"
                    + ("" if trial.landed else "; the audit finished before the kill"))))
    return results


def attacks(workdir: Path) -> list[Attack]:
    """Every case of this suite, on stores built under `workdir`."""
    return (_kill_attacks(workdir) + _proof_attacks(workdir / "proofs")
            + _cli_attacks(workdir / "cli"))


# ------------------------------------------------------------------ malformed proofs

# Values of every JSON type, for putting where another type belongs.
WRONG_VALUES: dict[str, object] = {
    "null": None, "true": True, "zero": 0, "negative": -1, "2**64": 2**64, "1e40": 10**40,
    "1.5": 1.5, "string": "x", "empty string": "", "empty list": [], "list": [1, "a"],
    "empty object": {}, "object": {"a": 1},
}
# Read by nobody when checking (how many records the chain had): any integer passes.
INFORMATIONAL = (("chain", "records"),)


def _paths(node: object, prefix: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """Every key and list position in a parsed proof, depth first."""
    if prefix:
        yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for number, value in enumerate(node):
            yield from _paths(value, (*prefix, number))


def _at(node: object, path: tuple[object, ...]) -> object:
    for key in path:
        node = node[key]  # type: ignore[index]
    return node


@dataclass(frozen=True, slots=True, kw_only=True)
class ProofMutation:
    """A real proof with one thing broken; `may_pass` when what changed is not checked."""

    case: str
    text: str
    may_pass: bool = False


def proof_mutations(proof: dict[str, object]) -> Iterator[ProofMutation]:
    """Every key of `proof` dropped and every value replaced by each wrong type (no-ops
    skipped: a null dropped from an event, a value replaced by itself), then nesting past
    any limit, huge numbers and text that is not Unicode."""
    for path in _paths(proof):
        original = _at(proof, path)
        parent = _at(proof, path[:-1])
        where = ".".join(map(str, path))
        may_pass = path in INFORMATIONAL
        if not (original is None and isinstance(parent, dict) and path[0] == "events"):
            mutated = copy.deepcopy(proof)
            container = _at(mutated, path[:-1])
            del container[path[-1]]  # type: ignore[attr-defined]
            yield ProofMutation(case=f"{where} dropped", text=json.dumps(mutated),
                                may_pass=may_pass)
        for name, value in WRONG_VALUES.items():
            if value == original and type(value) is type(original):
                continue
            mutated = copy.deepcopy(proof)
            _at(mutated, path[:-1])[path[-1]] = copy.deepcopy(value)  # type: ignore[index]
            yield ProofMutation(case=f"{where} = {name}", text=json.dumps(mutated),
                                may_pass=may_pass and type(value) is int)
    text = json.dumps(proof)
    yield ProofMutation(case="100,000 nested lists", text="[" * 100_000 + "]" * 100_000)
    for depth in (40, 900, 5_000):
        nested = json.dumps({**proof, "record": {**proof["record"], "x": "@"}})  # type: ignore[dict-item]
        yield ProofMutation(case=f"{depth} nested lists in the record",
                            text=nested.replace('"@"', "[" * depth + "]" * depth))
    yield ProofMutation(case="a 5,000-digit index",
                        text=text.replace('"index": ', '"index": ' + "9" * 5_000 + ", \"x\": "))
    yield ProofMutation(case="a 1e999 index",
                        text=text.replace('"index": ', '"index": 1e999, "x": '))
    yield ProofMutation(case="NaN as the batch size",
                        text=text.replace('"size": ', '"size": NaN, "x": '))
    yield ProofMutation(case="a lone surrogate in the hand id",
                        text=text.replace('"hand_id": "', '"hand_id": "\\ud800', 1))
    yield ProofMutation(case="a newline in the hand id",
                        text=text.replace('"hand_id": "', '"hand_id": "\\n', ))
    yield ProofMutation(case="truncated", text=text[: len(text) // 2])
    yield ProofMutation(case="a JSON list", text="[]")
    yield ProofMutation(case="a JSON string", text='"proof"')


# ------------------------------------------------------------------ one line, never a traceback


@dataclass(frozen=True, slots=True, kw_only=True)
class CliOutcome:
    """What a command printed and returned; `clean` when it answered in one line (or its
    normal output), with an exit code and no traceback."""

    exit_code: int
    lines: tuple[str, ...]
    crashed: str  # the exception's type when the command raised one (a traceback)

    def one_line(self, *codes: int) -> bool:
        return not self.crashed and self.exit_code in codes and len(self.lines) == 1 \
            and "Traceback" not in self.lines[0]


def run_cli(args: list[str], stdin: bytes | None = None) -> CliOutcome:
    from click.testing import CliRunner

    result = CliRunner().invoke(main, args, input=stdin)
    crashed = "" if result.exception is None or isinstance(result.exception, SystemExit) \
        else type(result.exception).__name__
    lines = tuple(line for line in result.output.splitlines() if line.strip())
    return CliOutcome(exit_code=result.exit_code, lines=lines, crashed=crashed)


def proof_outcome(mutation: ProofMutation, path: Path) -> tuple[bool, str]:
    """(held, detail) of `poker-audit verify-proof` on a mutated proof: one line, exit 1
    (a check failed) or 2 (not readable as a proof), or 0 where nothing checked changed."""
    path.write_text(mutation.text, encoding="utf-8", errors="surrogatepass")
    outcome = run_cli(["verify-proof", str(path)])
    codes = (0, 1, 2) if mutation.may_pass else (1, 2)
    held = outcome.one_line(*codes)
    detail = outcome.crashed or f"exit {outcome.exit_code}, {len(outcome.lines)} line(s)"
    return held, detail


def small_proof(workdir: Path) -> tuple[Store, dict[str, object]]:
    """A store of two batches and the proof of a hand in the first (so the chain carries
    a later record)."""
    import pyarrow.parquet as pq

    workdir.mkdir(parents=True, exist_ok=True)
    store = Store(workdir / "store")
    for i in range(2):
        source = workdir / f"p{i}.parquet"
        pq.write_table(hands_table(f"p{i}h", 3), source)
        ingest([source], store)
    return store, json.loads(json.dumps(build_proof(store, "p0h1")))


def _proof_attacks(workdir: Path, every: int = 25) -> list[Attack]:
    """Every `every`-th mutation of a real proof and every special one (nesting, numbers,
    text), through verify-proof."""
    _, proof = small_proof(workdir)
    mutations = list(proof_mutations(proof))
    specials = [m for m in mutations if " = " not in m.case and " dropped" not in m.case]
    chosen = mutations[::every] + [m for m in specials if m not in mutations[::every]]
    results = []
    for mutation in chosen:
        held, detail = proof_outcome(mutation, workdir / "mutated.json")
        results.append(Attack(suite=SUITE, case=f"verify-proof: {mutation.case}", held=held,
                              detail=detail))
    return results


def _error_line(outcome: CliOutcome, *needles: str) -> bool:
    """A refusal as it should be: exit 2, no traceback, one `Error:` line (click's usage
    lines above it aside) that names each of `needles`."""
    errors = [line for line in outcome.lines if line.startswith("Error:")]
    return (not outcome.crashed and outcome.exit_code == 2 and len(errors) == 1
            and not any("Traceback" in line for line in outcome.lines)
            and all(n in errors[0] for n in needles))


HOSTILE_HOUSE_OVERRIDES = {
    "NaN": '{"rake.cap": NaN}', "2**100": f'{{"rake.cap": {2**100}}}',
    "a string for an integer": '{"rake.cap": "x"}', "a list": "[1]", "not JSON": "{",
}


def _special_files(workdir: Path) -> dict[str, Path]:
    """A directory, a FIFO (opening it waits for a writer forever), a device, a binary file,
    an empty file and a JSON file that is no PHH."""
    files = {"a directory": workdir / "adir", "a FIFO": workdir / "fifo",
             "/dev/zero": Path("/dev/zero"), "a binary file": workdir / "binary",
             "an empty file": workdir / "empty", "JSON": workdir / "data.json"}
    files["a directory"].mkdir(exist_ok=True)
    if not files["a FIFO"].exists():
        os.mkfifo(files["a FIFO"])
    files["a binary file"].write_bytes(bytes(range(256)) * 4)
    files["an empty file"].write_bytes(b"")
    files["JSON"].write_text('{"hands": [1, 2, 3]}\n')
    return files


def cli_sweep(workdir: Path) -> list[tuple[str, bool, str]]:
    """(case, held, what happened) for hostile arguments to the commands no other suite
    covers: odd hand ids, NaN shares, special and non-PHH files for bench and verify-proof,
    an impossible output path, hostile house overrides in stored hands, a demo aimed at a
    real store."""
    import pyarrow.parquet as pq

    workdir.mkdir(parents=True, exist_ok=True)
    store, proof = small_proof(workdir / "proof")
    root = str(store.root)
    results: list[tuple[str, bool, str]] = []

    def record(case: str, outcome: CliOutcome, held: bool) -> None:
        shown = outcome.crashed or (outcome.lines[-1][:100] if outcome.lines else "no output")
        results.append((case, held, f"exit {outcome.exit_code}: {shown}"))

    before = store.records()
    outcome = run_cli(["demo", "--store", root])
    record("demo into an existing store", outcome,
           outcome.one_line(2) and store.records() == before)
    odd = "p0h1\nforged: OK"
    outcome = run_cli(["prove", odd, "--store", root])
    record("prove of a hand id with a newline", outcome, outcome.one_line(2))
    outcome = run_cli(["export", odd, "--store", root, "--format", "ohh"])
    record("export of a hand id with a newline", outcome, outcome.one_line(2))
    outcome = run_cli(["replay", odd, "--store", root])
    record("replay of a hand id with a newline", outcome, outcome.one_line(2))
    for option in ("--violations", "--collusion-strength", "--tournament-share",
                   "--kill-tables"):
        outcome = run_cli(["simulate", "--hands", "5", "--out", str(workdir / "sim"), option,
                           "nan"])
        record(f"simulate {option} nan", outcome, _error_line(outcome, option))
    outcome = run_cli(["collusion", "--store", root, "--fdr", "nan"])
    record("collusion --fdr nan", outcome, _error_line(outcome, "--fdr"))
    outcome = run_cli(["simulate", "--hands", "5", "--out", "/proc/poker-audit/sim"])
    record("simulate --out where no directory can be made", outcome,
           _error_line(outcome, "check the path") and "disk space" not in outcome.lines[-1])
    for kind, path in _special_files(workdir).items():
        outcome = run_cli(["verify-proof", str(path)])
        record(f"verify-proof of {kind}", outcome, _error_line(outcome, str(path)))
        if kind != "a directory":  # click refuses a directory itself (usage error)
            outcome = run_cli(["bench", "--quick", "--phh", str(path)])
            record(f"bench --phh {kind}", outcome, _error_line(outcome, str(path)))
    outcome = run_cli(["verify-proof", "-"], stdin=b"\xff\xfe binary on stdin")
    record("verify-proof of binary stdin", outcome, _error_line(outcome, "stdin"))
    for name, overrides in HOSTILE_HOUSE_OVERRIDES.items():
        hostile = Store(workdir / f"house-{len(results)}")
        table = hands_table("h", 2)
        games = table.column("game").to_pylist()
        for game in games:
            if game is not None:
                game["house_overrides"] = overrides
        table = table.set_column(table.schema.get_field_index("game"), "game",
                                 pa.array(games, table.schema.field("game").type))
        source = workdir / f"house-{len(results)}.parquet"
        pq.write_table(table, source)
        ingest([source], hostile)
        outcome = run_cli(["audit", "--store", str(hostile.root)])
        record(f"audit of a hand whose house overrides are {name}", outcome,
               not outcome.crashed and outcome.exit_code in (0, 1))
    return results


def _cli_attacks(workdir: Path) -> list[Attack]:
    return [Attack(suite=SUITE, case=case, held=held, detail=detail)
            for case, held, detail in cli_sweep(workdir)]
