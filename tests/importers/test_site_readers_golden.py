"""Speeding up the GGPoker, 888poker and Winamax readers never changes what they read.

Every real file of their corpus folders (../shared/data/fpdb-dev/{ggpoker,pacific,winamax}),
every fixture of theirs (fixtures/sites/{gg,888,wmx}-*.txt) and a fixed set of corrupted copies
of those fixtures (lines dropped, doubled, swapped, cut, digits and words changed: the same
every run) is read in chunks of 5,000 hands and of 2 hands, and the whole result -- every
event of every chunk with its `source`, the line of each row, every rejection with its line,
hand id, reason and raw text -- is reduced to a SHA-256 digest. The digests recorded in
golden/site_readers.json were taken from the readers before they were made faster; a reader
that reads one byte differently fails here, naming the file.

When a reader is meant to read differently (a bug fixed, a feature added), regenerate the
digests and review the change with the reader's own tests:

    POKER_AUDIT_UPDATE_GOLDEN=1 python -m pytest -p no:cacheprovider \\
        tests/importers/test_site_readers_golden.py

(the corpus entries are rewritten only when the corpus folder is found beside the checkout or
one of its parents; the fixture and corrupted entries always are).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from audit.importers.ggpoker import GGPokerImporter
from audit.importers.pacific import PacificImporter
from audit.importers.winamax import WinamaxImporter
from audit.schema import events_schema

ROOT = Path(__file__).resolve().parents[2]
SITES = ROOT / "fixtures" / "sites"
GOLDEN = Path(__file__).resolve().parent / "golden" / "site_readers.json"
READERS: dict[str, Any] = {"ggpoker": GGPokerImporter, "pacific": PacificImporter,
                           "winamax": WinamaxImporter}
PREFIX = {"ggpoker": "gg-", "pacific": "888-", "winamax": "wmx-"}
CORRUPTED_PER_SITE = 80
UPDATE = os.environ.get("POKER_AUDIT_UPDATE_GOLDEN") == "1"


def _corpus() -> Path | None:
    """../shared/data/fpdb-dev beside the checkout (or beside one of its parents: a git
    worktree lives one level down), or the folder POKER_AUDIT_FPDB_DEV names."""
    named = os.environ.get("POKER_AUDIT_FPDB_DEV")
    if named:
        return Path(named) if Path(named).is_dir() else None
    for parent in ROOT.parents:
        found = parent / "shared" / "data" / "fpdb-dev"
        if found.is_dir():
            return found
    return None


CORPUS = _corpus()


def digest(site: str, path: Path, chunk_hands: int) -> str:
    """SHA-256 of everything the reader yields for `path` (the file's own path written as
    `<file>`, so the digest does not depend on where the checkout is)."""
    h = hashlib.sha256()
    where = str(path)

    def put(value: Any) -> None:
        text = json.dumps(value, default=str, sort_keys=True, ensure_ascii=False)
        h.update(text.replace(where, "<file>").encode("utf-8", "surrogatepass"))
        h.update(b"\n")

    for chunk in READERS[site](chunk_hands).read(path):
        assert chunk.table.schema.equals(events_schema(), check_metadata=True)
        put(chunk.table.to_pylist())
        put(chunk.lines)
        put([[r.source, r.line, r.hand_id, r.reason, r.raw] for r in chunk.rejected])
    return h.hexdigest()


def _corrupt(data: bytes, rng: random.Random) -> bytes:
    """A copy of a hand-history file broken the ways a bad export or a hand editor breaks
    one: lines dropped, doubled, swapped, cut short, cut off, digits and words changed."""
    words = ["folds", "checks", "calls 5", "raises 10 to 20", ": ", "[Ah Kd]", "$", "€", "1,5",
             "*** SUMMARY ***", "*** FLOP *** [2c 3d 4h]", " and is all-in", "Seat 3: ", "0",
             "-", "\ufeff", "é", " ", "collected", "posts big blind 2", "Dealt to ",
             "** Summary **", "shows", "mucks", "10", "k", "(", ")", "Total pot 5 | Rake 0",
             "Uncalled bet (3) returned to ", " out of position", "1.32k", "Kn",
             "#Game No : 5", "Poker Hand #RC1: ", "Winamax Poker - "]
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        op, i = rng.randrange(9), rng.randrange(len(lines))
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and lines[i]:
            b = bytearray(lines[i])
            b[rng.randrange(len(b))] = rng.choice(b"0123456789 ,.:[]()$-#kX\xe9\xc3")
            lines[i] = bytes(b)
        elif op == 4:
            lines = lines[: rng.randrange(len(lines) + 1)] or [b""]
        elif op == 5 and lines[i]:
            s = lines[i].decode("utf-8", "replace")
            at = rng.randrange(len(s) + 1)
            lines[i] = (s[:at] + rng.choice(words) + s[at:]).encode()
        elif op == 6 and lines[i]:
            at = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:at] + lines[i][rng.randrange(at, len(lines[i]) + 1):]
        elif op == 7:
            s = lines[i].decode("utf-8", "replace")
            lines[i] = "".join(rng.choice("0123456789") if c.isdigit() and rng.random() < 0.3
                               else c for c in s).encode()
        else:
            lines[i] = lines[i].replace(b" ", b"  ", 1)
    return b"\n".join(lines)


def _fixtures(site: str) -> list[Path]:
    return sorted(SITES.glob(PREFIX[site] + "*.txt"))


def _corrupted(site: str, folder: Path) -> list[tuple[str, Path]]:
    sources = _fixtures(site)
    out = []
    for k in range(CORRUPTED_PER_SITE):
        rng = random.Random(f"{site}-{k}")
        path = folder / f"{site}-{k:03d}.txt"
        path.write_bytes(_corrupt(rng.choice(sources).read_bytes(), rng))
        out.append((f"corrupted/{site}/{k:03d}", path))
    return out


def _inputs(site: str, tmp: Path) -> list[tuple[str, Path]]:
    """(key in the golden file, path) of every input of one reader."""
    out = [(f"fixtures/{p.name}", p) for p in _fixtures(site)]
    if CORPUS is not None:
        folder = CORPUS / site
        out += [(f"fpdb-dev/{p.relative_to(CORPUS).as_posix()}", p)
                for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "README.md"]
    return out + _corrupted(site, tmp)


def _digests(site: str, tmp: Path) -> dict[str, str]:
    return {f"{key} @{n}": digest(site, path, n)
            for key, path in _inputs(site, tmp) for n in (5000, 2)}


@pytest.mark.parametrize("site", sorted(READERS))
def test_every_file_reads_as_the_recorded_events_and_rejections(site: str,
                                                                tmp_path: Path) -> None:
    got = _digests(site, tmp_path)
    recorded: dict[str, dict[str, str]] = json.loads(GOLDEN.read_text(encoding="utf-8")) \
        if GOLDEN.exists() else {}
    if UPDATE:
        kept = {k: v for k, v in recorded.get(site, {}).items()
                if CORPUS is None and k.startswith("fpdb-dev/")}
        recorded[site] = dict(sorted({**kept, **got}.items()))
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
    want = recorded[site]
    checked = {k: v for k, v in want.items() if k in got}
    assert checked.keys() == {k for k in got}, "inputs without a recorded digest: " \
        f"{sorted(set(got) - set(checked))[:5]} (regenerate, see the module docstring)"
    changed = sorted(k for k in checked if got[k] != want[k])
    assert not changed, f"{site}: read differently from the recorded digests: {changed[:10]}"
    corpus_keys = [k for k in want if k.startswith("fpdb-dev/")]
    if CORPUS is not None:
        assert all(k in got for k in corpus_keys), "a recorded corpus file is missing"
