"""Attacks on ingest with hostile input and special files (issue 19, items 5, 8 and 12).

Each case builds its input under `workdir`, runs the real ingest (the library, or the CLI in
a subprocess where the attack could hang: a FIFO, /dev/zero, a huge line), and holds when
nothing is lost (every hand stored or quarantined), the outcome is said in one line, and it
finishes in bounded time and memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import audit
from audit.devtools.attacks import Attack
from audit.importers.base import MIB, RAW_EXCERPT_CHARS, REASON_CHARS, ReadLimits
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store

SUITE = "ingest"
TIMEOUT_S = 120  # a refused special file answers in about a second (the CLI's start-up)
_PHH_HAND = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'p2 cbr 4', 'p1 f']
"""


def attacks(workdir: Path) -> list[Attack]:
    cases: list[tuple[str, Callable[[Path], tuple[bool, str]]]] = [
        ("phh-deep-toml-nesting", _deep_toml),
        ("ohh-unclosed-object-20000-lines", _ohh_unclosed),
        ("fifo-as-input", _fifo),
        ("dev-zero-as-input", _dev_zero),
        ("fifo-inside-a-directory", _fifo_in_directory),
        ("pokerstars-100mb-single-line", _huge_line),
        ("phh-hand-over-the-hand-limit", _phh_over_hand_limit),
        ("events-jsonl-not-utf8-names", _jsonl_not_utf8),
        ("symlink-out-of-the-input-tree", _symlink_out),
    ]
    results = []
    for name, case in cases:
        folder = workdir / name
        folder.mkdir(parents=True, exist_ok=True)
        try:
            held, detail = case(folder)
        except Exception as exc:  # noqa: BLE001 - an attack that crashes the tool did not hold
            held, detail = False, f"{type(exc).__name__}: {exc}"
        results.append(Attack(suite=SUITE, case=name, held=held, detail=detail))
    return results


def _cli(*args: str) -> tuple[subprocess.CompletedProcess[str] | None, float]:
    """The CLI in a subprocess (this process's audit package), None when it timed out."""
    env = {**os.environ, "PYTHONPATH": str(Path(audit.__file__).resolve().parents[1])}
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", "from audit.cli.main import main; main()",
                               *args], capture_output=True, text=True, timeout=TIMEOUT_S,
                              env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - started
    return done, time.monotonic() - started


def _rejected(store: Path) -> list[dict]:
    return [json.loads(line) for f in sorted(store.rglob("rejected.jsonl"))
            for line in f.read_text(encoding="utf-8").splitlines()]


def _verified(store: Store) -> bool:
    return not store.verify().problems


def _deep_toml(folder: Path) -> tuple[bool, str]:
    src = folder / "in"
    src.mkdir()
    (src / "a-deep.phh").write_text("variant = 'NT'\nactions = " + "[" * 5000 + "]" * 5000)
    (src / "b-good.phh").write_text(_PHH_HAND)
    store = Store(folder / "store")
    summary = ingest([src], store)
    deep, good = summary.files
    held = (deep.quarantined == 1 and good.hands == 1 and summary.exit_code == 1
            and _verified(store))
    return held, f"deep file quarantined {deep.quarantined}, next file {good.hands} hand(s)"


def _ohh_unclosed(folder: Path) -> tuple[bool, str]:
    src = folder / "unclosed.ohh"
    src.write_text('{"ohh": {"game_number": "1", "players": [\n'
                   + '{"seat": 1, "name": "a"},\n' * 20_000)
    started = time.process_time()
    summary = ingest([src], Store(folder / "store"))
    seconds = time.process_time() - started
    held = summary.quarantined == 1 and seconds < 20  # was 66 s (quadratic)
    return held, f"{seconds:.2f} CPU-s, quarantined {summary.quarantined}"


def _refused(done: subprocess.CompletedProcess[str] | None, seconds: float, target: Path,
             code: int) -> tuple[bool, str]:
    if done is None:
        return False, f"still running after {seconds:.0f} s"
    lines = [x for x in done.stderr.splitlines() if f"{target}:" in x]
    held = (done.returncode == code and len(lines) == 1 and "not a regular file" in lines[0]
            and "Traceback" not in done.stderr)
    return held, f"exit {done.returncode} in {seconds:.1f} s: {lines[:1]}"


def _fifo(folder: Path) -> tuple[bool, str]:
    fifo = folder / "hands.txt"
    os.mkfifo(fifo)
    done, seconds = _cli("ingest", str(fifo), "--store", str(folder / "store"))
    return _refused(done, seconds, fifo, 2)


def _dev_zero(folder: Path) -> tuple[bool, str]:
    zero = Path("/dev/zero")
    if not zero.exists():
        return True, "no /dev/zero on this system"
    done, seconds = _cli("ingest", str(zero), "--store", str(folder / "store"))
    return _refused(done, seconds, zero, 2)


def _fifo_in_directory(folder: Path) -> tuple[bool, str]:
    src = folder / "in"
    src.mkdir()
    os.mkfifo(src / "a.fifo")
    (src / "b.phh").write_text(_PHH_HAND)
    done, seconds = _cli("ingest", str(src), "--store", str(folder / "store"))
    held, detail = _refused(done, seconds, src / "a.fifo", 2)
    stored = done is not None and "b.phh: 1 hands" in done.stderr
    return held and stored, detail + ("; the next file stored" if stored else "")


_PS_HAND = """PokerStars Hand #{n}:  Hold'em No Limit ($0.01/$0.02 USD) - 2020/01/01 12:00:00 ET
Table 'Attack' 6-max Seat #1 is the button
Seat 1: alice ($2 in chips)
Seat 2: bob ($2 in chips)
alice: posts small blind $0.01
bob: posts big blind $0.02
*** HOLE CARDS ***
alice: folds
Uncalled bet ($0.01) returned to bob
bob collected $0.02 from pot
bob: doesn't show hand
*** SUMMARY ***
Total pot $0.02 | Rake $0
Seat 1: alice (button) (small blind) folded before Flop
Seat 2: bob (big blind) collected ($0.02)

"""

# The probe's own peak is VmHWM (the high-water mark of this process's memory since its exec),
# not getrusage's ru_maxrss: Linux carries the peak of the process that forked it across the
# exec into ru_maxrss, so a probe started from a 3 GB pytest would report 3 GB.
_MEMORY_PROBE = """
import json, sys
from pathlib import Path
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store
summary = ingest([Path(sys.argv[1])], Store(Path(sys.argv[2])))
f = summary.files[0]
status = Path("/proc/self/status").read_text().splitlines()
peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(json.dumps({"rss_kb": peak_kb, "hands": f.hands, "quarantined": f.quarantined}))
"""


def _huge_line(folder: Path) -> tuple[bool, str]:
    """A 100 MB line between two hands, default limits (a 200 MB line cost 3.8 GB and made a
    419 MB rejected.jsonl): the hands stored, the line quarantined short, RSS bounded."""
    src = folder / "huge.txt"
    with src.open("wb") as f:
        f.write(_PS_HAND.format(n=1001).encode())
        block = b"x" * MIB
        for _ in range(100):
            f.write(block)
        f.write(b"\n\n" + _PS_HAND.format(n=1002).encode())
    probe = folder / "probe.py"
    probe.write_text(_MEMORY_PROBE)
    env = {**os.environ, "PYTHONPATH": str(Path(audit.__file__).resolve().parents[1])}
    store = folder / "store"
    try:
        done = subprocess.run([sys.executable, str(probe), str(src), str(store)], env=env,
                              capture_output=True, text=True, timeout=4 * TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, "did not finish in time"
    finally:
        src.unlink()  # 100 MB: not kept
    if done.returncode:
        return False, done.stderr.strip().splitlines()[-1:]
    result = json.loads(done.stdout)
    rejected = _rejected(store)
    quarantine = sum(f.stat().st_size for f in store.rglob("rejected.jsonl"))
    rss_mb = result["rss_kb"] / 1024
    held = (result["hands"] == 2 and result["quarantined"] == 1 and rss_mb < 1500
            and quarantine < 2 * RAW_EXCERPT_CHARS
            and all(len(r["reason"]) <= REASON_CHARS + 100 for r in rejected))
    return held, (f"{result['hands']} hands stored, {result['quarantined']} quarantined, peak "
                  f"RSS {rss_mb:.0f} MB, rejected.jsonl {quarantine:,} bytes")


def _phh_over_hand_limit(folder: Path) -> tuple[bool, str]:
    src = folder / "big.phhs"
    src.write_text(f"[1]\n{_PHH_HAND}" + "# padding\n" * 200_000 + f"\n[2]\n{_PHH_HAND}")
    summary = ingest([src], Store(folder / "store"), limits=ReadLimits(hand_bytes=MIB))
    (rejected,) = _rejected(folder / "store") or [{"reason": "", "raw": ""}]
    held = (summary.hands, summary.quarantined) == (1, 1) and "over the limit" in \
        rejected["reason"] and len(rejected["raw"]) <= RAW_EXCERPT_CHARS + 300
    return held, f"{summary.hands} stored, {summary.quarantined} quarantined"


def _jsonl_not_utf8(folder: Path) -> tuple[bool, str]:
    """Two hands whose players differ only by an invalid byte (\\xff, \\xfe): replaced by
    U+FFFD they read as one player."""
    rows = []
    for k, name in enumerate((b"p\xff", b"p\xfe")):
        hand = [{"kind": "hand_started", "game": {"variant": "holdem", "structure": "no_limit",
                                                  "small_blind": 1, "big_blind": 2}},
                {"kind": "seat", "seat": 1, "player": "NAME", "amount": 100},
                {"kind": "seat", "seat": 2, "player": "other", "amount": 100},
                {"kind": "hand_ended"}]
        for seq, row in enumerate(hand):
            row.update(hand_id=f"h{k}", seq=seq)
            rows.append(json.dumps(row).encode().replace(b"NAME", name))
    src = folder / "events.jsonl"
    src.write_bytes(b"\n".join(rows) + b"\n")
    summary = ingest([src], Store(folder / "store"))
    reasons = [r["reason"] for r in _rejected(folder / "store")]
    held = summary.hands == 0 and summary.quarantined == 2 and all(
        "not UTF-8" in r for r in reasons)
    return held, f"{summary.hands} stored, {summary.quarantined} quarantined"


def _symlink_out(folder: Path) -> tuple[bool, str]:
    secret = folder / "outside" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:ATTACK-SECRET:0:0:root:/root:/bin/bash\n")
    src = folder / "in"
    src.mkdir()
    (src / "passwd.txt").symlink_to(secret)
    (src / "b.phh").write_text(_PHH_HAND)
    store = Store(folder / "store")
    summary = ingest([src], store)
    leaked = any(b"ATTACK-SECRET" in f.read_bytes() for f in (folder / "store").rglob("*")
                 if f.is_file())
    held = (summary.refused == 1 and summary.hands == 1 and not leaked
            and summary.exit_code == 1)
    return held, f"refused {summary.refused}, stored {summary.hands}, leaked {leaked}"
