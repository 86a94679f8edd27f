"""Hostile input for every importer: a valid sample of each format, mutated the ways an attacker
or a broken exporter would (huge lines, deep nesting, 10^6 seats, negative and astronomic
amounts, NaN/inf, invalid UTF-8, path-like hand ids, zip-bomb-like repetition, truncation,
byte flips), each ingested into a scratch store under a time and memory bound.

An input is handled when ingest returns (no exception escapes), within the time bound, writes
nothing outside the store, leaves a store that verifies, and accounts for the file: hands
stored, or quarantined with a reason. Used by tests/reliability/test_hostile_importers.py and
`poker-audit bench --reliability`.
"""

from __future__ import annotations

import random
import re
import resource
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from audit.ingest.pipeline import ingest
from audit.store.dataset import Store

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT_S = 30.0
MEMORY_LIMIT_MB = 2048

_IPOKER = b"""<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="1">
 <general>
  <mode>real</mode>
  <gametype>Holdem NL $0.50/$1</gametype>
  <tablename>T, 1</tablename>
  <currency>USD</currency>
  <nickname>ann</nickname>
 </general>
 <game gamecode="7">
  <general>
   <startdate>2026-11-01 10:00:00</startdate>
   <players>
    <player seat="1" name="ann" chips="$100" dealer="1" win="$1.50" bet="$0.50"/>
    <player seat="2" name="bob" chips="$100" dealer="0" win="$0" bet="$1"/>
   </players>
  </general>
  <round no="0">
   <action no="1" player="ann" type="1" sum="$0.50"/>
   <action no="2" player="bob" type="2" sum="$1"/>
  </round>
  <round no="1">
   <cards type="Pocket" player="ann">SA HK</cards>
   <action no="3" player="ann" type="0" sum="$0"/>
  </round>
 </game>
</session>
"""


def seeds() -> dict[str, bytes]:
    """A valid sample of every importer's format (from the checkout's fixtures)."""
    fixtures = ROOT / "fixtures"
    files = {
        "events": ROOT / "audit" / "demo_data" / "sample-events.jsonl",
        "phh": fixtures / "phh" / "single-hand.phh",
        "pokerstars": fixtures / "pokerstars" / "nlhe-two-hands.txt",
        "fulltilt": fixtures / "sites" / "ftp-sidepot-uncalled.txt",
        "partypoker": fixtures / "sites" / "party-mtt-nlhe.txt",
        "ggpoker": fixtures / "sites" / "gg-plo-rit-missed-blind.txt",
        "pacific": fixtures / "sites" / "888-dead-blind.txt",
        "winamax": fixtures / "sites" / "wmx-5card-side-pot.txt",
        "winning": fixtures / "sites" / "wpn-disconnected-allin.txt",
        "bovada": fixtures / "sites" / "bovada-zone-poker.txt",
        "merge": fixtures / "sites" / "merge-raise-to.txt",
        "ohh": fixtures / "ohh" / "hands.ohh",
    }
    out = {name: path.read_bytes() for name, path in files.items() if path.exists()}
    out["ipoker"] = _IPOKER
    return out


# ---------------------------------------------------------------------------- mutations


def _numbers(data: bytes, replacement: Callable[[re.Match[bytes]], bytes]) -> bytes:
    return re.sub(rb"(?<![\w.])\d+(?:\.\d+)?(?![\w])", replacement, data)


def _mutations(fmt: str, rng: random.Random) -> dict[str, Callable[[bytes], bytes]]:
    nest_open, nest_close = (b"<a>", b"</a>") if fmt == "ipoker" else (b"[", b"]")
    return {
        "huge line": lambda d: d + b"A" * (2 << 20) + b"\n",
        "deep nesting": lambda d: nest_open * 200_000 + nest_close * 200_000 + b"\n" + d,
        "million seats": lambda d: re.sub(rb"(?i)(seat\D{0,4})\d+", rb"\g<1>1000000", d),
        "negative amounts": lambda d: _numbers(d, lambda m: b"-" + m.group(0)),
        "astronomic amounts": lambda d: _numbers(d, lambda m: m.group(0) + b"0" * 30),
        "nan and inf": lambda d: _numbers(d, lambda m: rng.choice([b"NaN", b"inf", b"-inf",
                                                                   b"1e309"])),
        "invalid utf-8": lambda d: _splice(d, rng, b"\xff\xfe\xc3\x28\xa0\xa1\xed\xa0\x80"),
        "path-like hand ids": lambda d: re.sub(
            rb"(?i)(hand[ _]?(?:id)?\D{0,6}|\bgamecode=\"|#)(\w+)", rb"\g<1>../../x\2", d),
        "zip-bomb-like repetition": lambda d: d * max(1, (1 << 20) // max(1, len(d))),
        "truncated": lambda d: d[: rng.randrange(1, max(2, len(d)))],
        "byte flips": lambda d: _flip(d, rng),
        "nul bytes": lambda d: _splice(d, rng, b"\x00" * 64),
        "bom and blank": lambda d: b"\xef\xbb\xbf\n\n   \n" + d,
    }


def _splice(data: bytes, rng: random.Random, insert: bytes) -> bytes:
    at = rng.randrange(0, max(1, len(data)))
    return data[:at] + insert + data[at:]


def _flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(max(1, len(out) // 200)):
        i = rng.randrange(len(out))
        out[i] = rng.randrange(256)
    return bytes(out)


def hostile_documents(fmt: str, seed: bytes, rng: random.Random,
                      rounds: int = 1) -> Iterator[tuple[str, bytes]]:
    """(mutation name, bytes) for one format; `rounds` > 1 repeats the random mutations."""
    for round_ in range(rounds):
        for name, mutate in _mutations(fmt, rng).items():
            if round_ and name in ("huge line", "deep nesting", "zip-bomb-like repetition"):
                continue  # deterministic and expensive: once is enough
            yield name, mutate(seed)


# ---------------------------------------------------------------------------- running


@dataclass(frozen=True, slots=True, kw_only=True)
class HostileCase:
    fmt: str
    mutation: str
    handled: bool
    seconds: float
    hands: int
    quarantined: int
    already_stored: int  # hands an earlier case stored with the same events
    skipped: bool
    problem: str


@dataclass(slots=True, kw_only=True)
class HostileReport:
    cases: list[HostileCase] = field(default_factory=list)
    peak_rss_mb: float = 0.0

    @property
    def tried(self) -> int:
        return len(self.cases)

    @property
    def handled(self) -> int:
        return sum(c.handled for c in self.cases)


def _outside(work: Path) -> set[str]:
    """Files under the scratch directory that are neither inputs nor in the store."""
    return {p.relative_to(work).as_posix() for p in work.rglob("*")
            if p.is_file() and p.relative_to(work).parts[0] not in ("in", "store")}


def run_case(work: Path, fmt: str, mutation: str, data: bytes, number: int) -> HostileCase:
    src = work / "in" / f"{number:04d}-{fmt}.input"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_bytes(data)
    store = Store(work / "store")
    before = _outside(work)
    start = time.perf_counter()
    problem = ""
    hands = quarantined = already = 0
    skipped = False
    try:
        summary = ingest([src], store, fmt=fmt)
        hands, quarantined = summary.hands, summary.quarantined
        already = summary.already_stored
        result = summary.files[0]
        skipped = bool(result.skipped)  # the same bytes as an earlier case
        # a hand an earlier case stored with the same events is "already stored" (an
        # overlapping export), accounted for like a stored one
        if not (result.hands or result.quarantined or result.already_stored or result.skipped):
            problem = "the file was neither stored nor quarantined"
        elif result.quarantined and not all(r.strip() for r in result.reasons):
            problem = "a quarantined hand has no reason"
    except Exception as exc:  # noqa: BLE001 - the point is that nothing escapes
        problem = f"ingest raised {type(exc).__name__}: {str(exc)[:200]}"
    seconds = time.perf_counter() - start
    if not problem and seconds > TIME_LIMIT_S:
        problem = f"took {seconds:.1f}s (limit {TIME_LIMIT_S:.0f}s)"
    if not problem and _outside(work) != before:
        problem = f"wrote outside the store: {sorted(_outside(work) - before)[:3]}"
    if not problem and not store.verify().ok:
        problem = "the store no longer verifies"
    src.unlink()
    return HostileCase(fmt=fmt, mutation=mutation, handled=not problem, seconds=seconds,
                       hands=hands, quarantined=quarantined, already_stored=already,
                       skipped=skipped, problem=problem)


def run_hostile(*, rounds: int = 1, seed: int = 20261122, formats: tuple[str, ...] = (),
                workdir: Path | None = None) -> HostileReport:
    """Every mutation of every format's sample through ingest, into one scratch store."""
    rng = random.Random(seed)
    report = HostileReport()
    tmp = Path(tempfile.mkdtemp(prefix="poker-audit-hostile-")) if workdir is None else workdir
    try:
        number = 0
        for fmt, sample in seeds().items():
            if formats and fmt not in formats:
                continue
            for mutation, data in hostile_documents(fmt, sample, rng, rounds):
                number += 1
                report.cases.append(run_case(tmp, fmt, mutation, data, number))
    finally:
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report.peak_rss_mb = round(peak_kb / 1024, 1)
    return report
