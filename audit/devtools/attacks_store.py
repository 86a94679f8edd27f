"""Attacks on the store's read and append paths (issue 19 items 4, 7, 9, 11 and 12): a
manifest whose last newline is missing or whose last line is torn at every byte length,
verify while a batch commits, a read-only store holding a crash leftover, damaged event
files and manifest bytes, and a rollback only a published head exposes.

Each case builds a small store under `workdir` (a few batches of synthetic hands) and drives
the CLI through click's CliRunner, as a user would."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import random
import shutil
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import audit.store.dataset as store_module
from audit.cli.main import main
from audit.devtools.attacks import Attack
from audit.devtools.faults import hands_table
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.store.dataset import Store, record_hash

SUITE = "store"
FLIP_POSITIONS = 30  # seeded manifest byte flips tried per command
FLIP_COMMANDS = ("verify", "ingest", "query", "findings", "report")


def build_store(root: Path, batches: int = 2, hands: int = 4) -> Any:
    """A store of `batches` ingested files of synthetic hands (t<i>h<n>) under root/store."""
    import pyarrow.parquet as pq

    root.mkdir(parents=True, exist_ok=True)
    store = Store(root / "store")
    for i in range(batches):
        src = root / f"in{i}.parquet"
        pq.write_table(hands_table(f"t{i}h", hands), src)
        ingest([src], store)
    return store


def source_file(root: Path, prefix: str, hands: int = 3) -> Path:
    """A new input file of synthetic hands (ids prefix0..)."""
    import pyarrow.parquet as pq

    root.mkdir(parents=True, exist_ok=True)
    path = root / f"{prefix}.parquet"
    pq.write_table(hands_table(prefix, hands), path)
    return path


def leave_committed_in_staging(store: Any, src: Path) -> None:
    """Ingest `src` as a writer killed right after its commit point would: the manifest
    record is durable, its files are still in staging/ (recovery has not run)."""
    with mock.patch.object(Store, "_publish", lambda self, batch_dir, record: None):
        ingest([src], store)


def run_cli(args: list[str]) -> Any:
    from click.testing import CliRunner

    return CliRunner().invoke(main, args, catch_exceptions=True)


def one_line_error(result: Any) -> bool:
    """The command failed as a user error should: exit 1 or 2, no traceback, one line."""
    text = (result.output or "").strip()
    return (result.exit_code in (1, 2) and not _crashed(result)
            and len(text.splitlines()) == 1)


def _crashed(result: Any) -> bool:
    """An exception escaped the command (CliRunner caught it) or a traceback was printed."""
    exc = result.exception
    escaped = exc is not None and not isinstance(exc, SystemExit)
    return escaped or "Traceback" in (result.output or "")


# ----------------------------------------------------------------------------- read-only
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


@contextlib.contextmanager
def read_only_store(root: Path) -> Iterator[list[str]]:
    """Make `root` read-only for this process as a read-only mount would: its files and
    directories lose their write bits (chmod), and, since chmod does not stop root, every
    Python-level write under it (open for writing, os.open with write flags, mkdir, rename,
    replace, unlink, rmdir, rmtree, truncate) raises EROFS. Yields the writes attempted."""
    base = Path(root).resolve()
    attempts: list[str] = []

    def inside(path: Any) -> bool:
        if isinstance(path, int):
            return False
        try:
            resolved = Path(os.fsdecode(path)).absolute()
        except (TypeError, ValueError):
            return False
        return resolved == base or base in resolved.parents

    def refuse(path: Any) -> None:
        attempts.append(os.fsdecode(path))
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fsdecode(path))

    real_open, real_os_open = io.open, os.open

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax+") and inside(file):
            refuse(file)
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
        if flags & _WRITE_FLAGS and inside(path):
            refuse(path)
        return real_os_open(path, flags, *args, **kwargs)

    def guard(real: Callable[..., Any], arg: int = 0) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if any(inside(a) for a in args[: arg + 1]):
                refuse(args[0])
            return real(*args, **kwargs)
        return guarded

    real_rmtree = shutil.rmtree

    def guarded_rmtree(path: Any, ignore_errors: bool = False, *args: Any, **kw: Any) -> None:
        if inside(path):
            if ignore_errors:
                attempts.append(os.fsdecode(path))
                return
            refuse(path)
        real_rmtree(path, ignore_errors, *args, **kw)

    modes = {p: p.stat().st_mode for p in [base, *base.rglob("*")]}
    patches = [
        mock.patch("builtins.open", guarded_open), mock.patch("io.open", guarded_open),
        mock.patch("os.open", guarded_os_open), mock.patch("shutil.rmtree", guarded_rmtree),
        mock.patch("os.replace", guard(os.replace, 1)),
        mock.patch("os.rename", guard(os.rename, 1)),
        *(mock.patch(f"os.{name}", guard(getattr(os, name)))
          for name in ("unlink", "remove", "rmdir", "mkdir", "truncate")),
    ]
    try:
        for path, mode in modes.items():
            path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        with contextlib.ExitStack() as stack:
            for patch in patches:
                stack.enter_context(patch)
            yield attempts
    finally:
        for path, mode in modes.items():
            with contextlib.suppress(OSError):
                path.chmod(mode)


# ----------------------------------------------------------------------------- cases
def _case(name: str, check: Callable[[], tuple[bool, str]]) -> Attack:
    try:
        held, detail = check()
    except Exception as exc:  # an attack that crashes the tool did not hold
        held, detail = False, f"{type(exc).__name__}: {exc}"
    return Attack(suite=SUITE, case=name, held=held, detail=detail)


def _hands(store: Any) -> int:
    return sum(int(r.get("hands", 0)) for r in store.records())


def missing_final_newline(workdir: Path) -> tuple[bool, str]:
    """Item 4: verify and the next ingest agree that a last record without its newline is
    committed: nothing is cut, the chain stays whole."""
    store = build_store(workdir, batches=2)
    before = _hands(store)
    raw = store.manifest_path.read_bytes()
    store.manifest_path.write_bytes(raw.rstrip(b"\n"))
    seen = run_cli(["verify", "--store", str(store.root)])
    added = run_cli(["ingest", str(source_file(workdir, "n")), "--store", str(store.root)])
    after = store.verify()
    held = (seen.exit_code == 0 and f"{before} hands" in seen.output
            and added.exit_code == 0 and after.ok and after.hands == before + 3
            and after.batches == 3)
    return held, f"verify {seen.exit_code}, ingest {added.exit_code}, hands {before} -> " \
                 f"{after.hands}, {len(after.problems)} problem(s)"


def torn_last_line_every_length(workdir: Path) -> tuple[bool, str]:
    """Item 4: the last record line cut at every byte length (0 .. whole, then with its
    newline): readers and the append path agree, a whole record is kept and a prefix is
    cut, and the chain the next append builds is whole."""
    store = build_store(workdir, batches=2)
    raw = store.manifest_path.read_bytes()
    first, last = raw.rstrip(b"\n").rsplit(b"\n", 1)
    first += b"\n"
    wrong = []
    no_fsync = mock.patch.object(os, "fsync", lambda fd: None)  # the rule, not durability
    no_fsync.start()
    try:
        _append_every_length(store, first, last, wrong)
    finally:
        no_fsync.stop()
    store.manifest_path.write_bytes(raw)
    # the two lengths that matter end to end: one byte short (torn) and no newline (whole)
    for cut, expect in ((len(last) - 1, 1), (len(last), 2)):
        copy = workdir / f"cut{cut}"
        shutil.copytree(store.root, copy)
        (copy / "manifest.jsonl").write_bytes(first + last[:cut])
        result = run_cli(["ingest", str(source_file(workdir, f"c{cut}h")), "--store", str(copy)])
        report = Store(copy).verify()
        # a torn record's files are published already here (a real torn append leaves
        # them in staging): only the whole record's case must verify clean
        if result.exit_code != 0 or len(Store(copy).records()) != expect + 1 or (
                expect == 2 and not report.ok):
            wrong.append(f"ingest after {cut} bytes: exit {result.exit_code}, "
                         f"{len(Store(copy).records())} records, ok {report.ok}")
    return not wrong, f"{len(last) + 2} lengths; " + ("; ".join(wrong[:3]) or "all agree")


def _append_every_length(store: Any, first: bytes, last: bytes, wrong: list[str]) -> None:
    """The manifest `first` + each prefix of `last` (then `last` with its newline): the
    records read, then one append; what disagrees goes to `wrong`."""
    for cut in range(len(last) + 2):
        store.manifest_path.write_bytes(first + last[:cut] + (b"\n" if cut > len(last) else b""))
        whole = cut >= len(last)
        records = store.records()
        if len(records) != (2 if whole else 1):
            wrong.append(f"{cut}: read {len(records)} records")
            continue
        record = {"batch_id": f"probe{cut}", "files": [], "chain": 2,
                  "prev_hash": records[-1]["hash"]}
        record["hash"] = record_hash(record)
        store._append_record(record)
        after = store.records()
        chained = all(b["prev_hash"] == a["hash"] for a, b in zip(after, after[1:], strict=False))
        if len(after) != len(records) + 1 or not chained:
            wrong.append(f"{cut}: append left {len(after)} records, chain whole {chained}")


def verify_while_a_batch_commits(workdir: Path) -> tuple[bool, str]:
    """Item 7: a batch commits and publishes while verify hashes files (after verify read
    the manifest, before it scanned events/): no false UNLISTED file."""
    store = build_store(workdir, batches=2)
    src = source_file(workdir, "late")
    real = store_module.sha256_file
    fired: list[bool] = []

    def hash_then_commit(path: Path) -> str:
        if not fired:
            fired.append(True)
            ingest([src], store)  # a concurrent ingest finishing right now
        return real(path)

    with mock.patch.object(store_module, "sha256_file", hash_then_commit):
        report = store.verify()
    kinds = sorted({p.kind for p in report.problems})
    return bool(fired) and report.ok, f"batch committed mid-verify: {kinds or 'OK'}"


def verify_with_a_writer_staging(workdir: Path) -> tuple[bool, str]:
    """Item 7: verify while a batch writer has files open in staging (uncommitted) and a
    committed batch is still in staging: neither is unlisted or missing."""
    store = build_store(workdir, batches=1)
    leave_committed_in_staging(store, source_file(workdir, "leftover"))
    writer = store.batch_writer()  # as an ingest's: its event file is open in staging
    try:
        writer.write("2026-11-02", hands_table("inflight", 3))
        report = store.verify()
        seen = run_cli(["verify", "--store", str(store.root)])
    finally:
        writer.abort()
    return report.ok and seen.exit_code == 0 and report.hands == 4 + 3, \
        f"verify {seen.exit_code}: {seen.output.strip().splitlines()[-1][:80]}"


READ_COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "query": lambda s, out: ["query", "SELECT count(*) AS n FROM hands_started", "--store",
                             str(s), "--format", "csv"],
    "findings": lambda s, out: ["findings", "--store", str(s)],
    "report": lambda s, out: ["report", "--store", str(s), "--out", str(out / "r.html")],
    "export": lambda s, out: ["export", "left1", "--format", "ohh", "--store", str(s)],
    "replay": lambda s, out: ["replay", "left1", "--store", str(s)],
    "verify": lambda s, out: ["verify", "--store", str(s)],
}


def read_only_leftover(workdir: Path) -> list[Attack]:
    """Item 9: a read-only store holding a committed batch still in staging: every reader
    sees it (its hands are there) and writes nothing."""
    store = build_store(workdir, batches=1)
    audit_store(store)
    leave_committed_in_staging(store, source_file(workdir, "left"))
    out = workdir / "out"
    out.mkdir()
    results = []
    for name, args in READ_COMMANDS.items():
        with read_only_store(store.root) as attempts:
            result = run_cli(args(store.root, out))
        text = result.output or ""
        saw = {"query": "\n7\n" in text, "export": "left1" in text,
               "replay": "left1" in text or "hand_started" in text,
               "verify": "7 hands" in text}.get(name, True)
        held = result.exit_code in (0, 1) and not _crashed(result) and saw and not attempts
        results.append(Attack(
            suite=SUITE, case=f"read-only store with a committed batch in staging: {name}",
            held=held, detail=f"exit {result.exit_code}, writes tried {len(attempts)}, "
            f"{text.strip().splitlines()[-1][:100] if text.strip() else ''}"))
    return results


def damaged_event_file(workdir: Path) -> list[Attack]:
    """Item 11: an event file truncated or deleted: query, report, audit and replay say so
    in one line naming the file and pointing at verify (not at disk space or permissions);
    and one whose pages are zeroed stops the audit the same way."""
    base = build_store(workdir / "base", batches=2)
    audit_store(base)
    results = []
    for damage in ("truncated", "deleted"):
        root = workdir / damage
        shutil.copytree(base.root, root)
        victim = sorted((root / "events").rglob("*.parquet"))[0]
        if damage == "deleted":
            victim.unlink()
        else:
            victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
        for command, args in (("query", ["query", "SELECT count(*) FROM events"]),
                              ("report", ["report", "--out", str(workdir / "r.html")]),
                              ("audit", ["audit"]), ("replay", ["replay", "t0h1"])):
            result = run_cli([*args, "--store", str(root)])
            text = result.output or ""
            held = (one_line_error(result) and victim.name in text and "verify" in text
                    and "disk space" not in text)
            results.append(Attack(suite=SUITE, case=f"{damage} event file: {command}",
                                  held=held, detail=f"exit {result.exit_code}: {text[:160]}"))
    # pages zeroed, footer whole: only reading the pages finds it (the audit does)
    root = workdir / "zeroed"
    shutil.copytree(base.root, root)
    victim = sorted((root / "events").rglob("*.parquet"))[0]
    data = bytearray(victim.read_bytes())
    data[4:60] = bytes(56)
    victim.write_bytes(bytes(data))
    result = run_cli(["audit", "--store", str(root)])
    text = result.output or ""
    results.append(Attack(suite=SUITE, case="event file zeroed inside: audit",
                          held=one_line_error(result) and victim.name in text
                          and "verify" in text, detail=f"exit {result.exit_code}: {text[:160]}"))
    return results


def manifest_byte_flips(workdir: Path, positions: int = FLIP_POSITIONS) -> list[Attack]:
    """Item 11: one byte of manifest.jsonl replaced, at `positions` seeded places: verify
    flags it (exit 1); ingest, query, findings and report either still work (the flip did
    not touch what they read) or stop with one line naming the manifest and pointing at
    verify; never a traceback."""
    base = build_store(workdir / "base", batches=2)
    audit_store(base)
    raw = base.manifest_path.read_bytes()
    rng = random.Random(19)
    spots = sorted(rng.sample(range(len(raw)), positions))
    failures: dict[str, list[str]] = {c: [] for c in FLIP_COMMANDS}
    for n, spot in enumerate(spots):
        root = workdir / f"flip{n}"
        shutil.copytree(base.root, root)
        flipped = bytearray(raw)
        flipped[spot] = (flipped[spot] + rng.randrange(1, 256)) % 256
        (root / "manifest.jsonl").write_bytes(bytes(flipped))
        for command in FLIP_COMMANDS:
            args = {"verify": ["verify"], "query": ["query", "SELECT count(*) FROM events"],
                    "findings": ["findings"], "report": ["report", "--out",
                                                         str(workdir / "r.html")],
                    "ingest": ["ingest", str(source_file(workdir, f"f{n}h", 2))]}[command]
            result = run_cli([*args, "--store", str(root)])
            text = result.output or ""
            if command == "verify":
                ok = result.exit_code == 1 and not _crashed(result)
            else:
                ok = (result.exit_code == 0 and not _crashed(result)) or (
                    one_line_error(result) and "verify" in text and "disk space" not in text)
            if not ok:
                failures[command].append(f"byte {spot}: exit {result.exit_code} {text[:80]!r}")
        shutil.rmtree(root, ignore_errors=True)
    return [Attack(suite=SUITE, case=f"manifest byte flips ({positions} positions): {command}",
                   held=not failures[command],
                   detail="; ".join(failures[command][:2]) or f"{positions} flips handled")
            for command in FLIP_COMMANDS]


def rollback_needs_published_head(workdir: Path) -> list[Attack]:
    """Item 12: the newest batch removed whole (record and files): verify alone cannot
    tell, verify --head with the head published before fails with one line."""
    store = build_store(workdir, batches=3)
    published = store.head()
    records = store.manifest_path.read_bytes().rstrip(b"\n").split(b"\n")
    for item in [*store.records()[-1]["files"], *store.records()[-1].get("quarantine", [])]:
        (store.root / item["path"]).unlink()
    store.manifest_path.write_bytes(b"\n".join(records[:-1]) + b"\n")
    plain = run_cli(["verify", "--store", str(store.root)])
    headed = run_cli(["verify", "--store", str(store.root), "--head", published])
    lines = [line for line in (headed.output or "").splitlines() if line.startswith("HEAD:")]
    earlier = run_cli(["verify", "--store", str(store.root), "--head", store.head()])
    bad = run_cli(["verify", "--store", str(store.root), "--head", "beef"])
    return [
        Attack(suite=SUITE, case="rollback of the newest batch: verify --head PUBLISHED",
               held=headed.exit_code == 1 and len(lines) == 1 and not _crashed(headed),
               detail=f"plain verify exit {plain.exit_code} (nothing inside contradicts); "
               f"--head exit {headed.exit_code}: {lines[0][:90] if lines else ''}"),
        Attack(suite=SUITE, case="verify --head of a head the chain holds passes",
               held=earlier.exit_code == 0, detail=f"exit {earlier.exit_code}"),
        Attack(suite=SUITE, case="verify --head that is not a hash: usage error",
               held=bad.exit_code == 2 and one_line_error(bad), detail=f"exit {bad.exit_code}"),
    ]


def attacks(workdir: Path) -> list[Attack]:
    """Every case of this suite, each on stores of its own under `workdir`."""
    results = [
        _case("manifest without its final newline: verify and ingest agree, nothing lost",
              lambda: missing_final_newline(workdir / "newline")),
        _case("last manifest line torn at every byte length: readers and append agree",
              lambda: torn_last_line_every_length(workdir / "torn")),
        _case("verify while a batch commits: no false UNLISTED",
              lambda: verify_while_a_batch_commits(workdir / "race")),
        _case("verify with staged files (in flight and committed): OK",
              lambda: verify_with_a_writer_staging(workdir / "staging")),
    ]
    for name, suite in (("read-only leftover", read_only_leftover),
                        ("damaged event file", damaged_event_file),
                        ("manifest byte flips", manifest_byte_flips),
                        ("rollback", rollback_needs_published_head)):
        try:
            results += suite(workdir / name.replace(" ", "-"))
        except Exception as exc:
            results.append(Attack(suite=SUITE, case=name, held=False,
                                  detail=f"{type(exc).__name__}: {exc}"))
    return results
