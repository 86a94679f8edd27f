"""Hostile input that used to crash, hang or bloat ingest (issue 19, items 5, 8 and 12): one
file's reading never stops the ingest, every reader is bounded in time and memory, special
files and symlinks out of the input tree are refused, quarantine keeps capped excerpts, and
bytes that are not UTF-8 are quarantined, never replaced."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import audit.importers.ohh as ohh
from audit.importers.base import RAW_EXCERPT_CHARS, REASON_CHARS, ReadLimits
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SUBPROCESS_TIMEOUT_S = 120  # generous: the refusals take well under a second


def _cli(*args: str, timeout: float = SUBPROCESS_TIMEOUT_S) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "from audit.cli.main import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


def _quarantine(store: Path) -> list[dict]:
    return [json.loads(line) for f in sorted(store.rglob("rejected.jsonl"))
            for line in f.read_text(encoding="utf-8").splitlines()]


def _verified(store: Store) -> None:
    report = store.verify()
    assert not report.problems, report.problems


# --- item 5: one file's reading never stops the ingest ----------------------------------


def test_deeply_nested_toml_quarantines_its_hand_and_the_next_file_is_read(tmp_path: Path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a-deep.phh").write_text(
        "variant = 'NT'\nactions = " + "[" * 5000 + "]" * 5000 + "\n")
    (folder / "b-good.phh").write_bytes((FIXTURES / "phh/single-hand.phh").read_bytes())
    store = Store(tmp_path / "store")
    summary = ingest([folder], store)
    deep, good = summary.files
    assert deep.quarantined == 1 and deep.hands == 0 and "nested too deeply" in deep.reasons[0]
    assert good.hands == 1 and good.quarantined == 0
    assert summary.exit_code == 1
    rejected = _quarantine(tmp_path / "store")
    assert [r["line"] for r in rejected] == [1] and rejected[0]["source"].endswith("a-deep.phh")
    _verified(store)


def test_any_exception_in_a_reader_quarantines_the_file_and_ingest_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An importer defect nobody foresaw (here: an error raised after the first chunk) puts the
    whole file in quarantine with the exception named; nothing of it is half-stored."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.ohh").write_bytes((FIXTURES / "ohh/hands.ohh").read_bytes())
    (folder / "b.phh").write_bytes((FIXTURES / "phh/single-hand.phh").read_bytes())
    real = ohh.OhhImporter.read

    def broken(self, path):
        yield from real(self, path)
        raise ZeroDivisionError("a defect in the reader")

    monkeypatch.setattr(ohh.OhhImporter, "read", broken)
    store = Store(tmp_path / "store")
    summary = ingest([folder], store)
    bad, good = summary.files
    assert bad.hands == 0 and bad.quarantined == 1 and not bad.error
    assert "ZeroDivisionError: a defect in the reader" in bad.reasons[0]
    assert good.hands == 1
    assert summary.exit_code == 1
    (whole,) = _quarantine(tmp_path / "store")
    assert whole["source"].endswith("a.ohh") and whole["line"] is None
    assert whole["raw"].startswith('{"ohh"')
    _verified(store)


# --- item 8: bounded readers -------------------------------------------------------------


def _unclosed_ohh(path: Path, lines: int) -> None:
    path.write_text('{"ohh": {"game_number": "1", "players": [\n'
                    + '{"seat": 1, "name": "a"},\n' * lines)


def _characters_parsed(path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    parsed = [0]
    real = ohh._loads

    def counting(text: str):
        parsed[0] += len(text)
        return real(text)

    monkeypatch.setattr(ohh, "_loads", counting)
    chunks = list(ohh.IMPORTER.read(path))
    assert sum(len(c.rejected) for c in chunks) == 1  # the unclosed object, quarantined
    return parsed[0]


def test_an_unclosed_ohh_object_is_read_in_linear_time(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    """The work is counted (characters handed to the JSON parser), not timed: re-parsing the
    held text at every line made it quadratic (66 s for 20,000 lines)."""
    small, large = tmp_path / "small.ohh", tmp_path / "large.ohh"
    _unclosed_ohh(small, 1000)
    _unclosed_ohh(large, 4000)
    work_small = _characters_parsed(small, monkeypatch)
    work_large = _characters_parsed(large, monkeypatch)
    assert work_large <= 2 * large.stat().st_size
    assert work_large / work_small < 6  # 4x the input: ~4x the work (quadratic: ~16x)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
@pytest.mark.slow
def test_special_files_are_refused_without_being_opened(tmp_path: Path, special: str):
    if special == "fifo":
        target = tmp_path / "hands.fifo"
        os.mkfifo(target)
    else:
        target = Path(special)
        if not target.exists():
            pytest.skip("no /dev/zero here")
    started = time.monotonic()
    done = _cli("ingest", str(target), "--store", str(tmp_path / "store"))
    assert time.monotonic() - started < SUBPROCESS_TIMEOUT_S
    assert done.returncode == 2
    (line,) = [x for x in done.stderr.splitlines() if str(target) in x and "error" in x]
    assert "not a regular file" in line
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_special_file_inside_a_directory_is_refused_and_the_rest_read(tmp_path: Path):
    folder = tmp_path / "in"
    folder.mkdir()
    os.mkfifo(folder / "a.fifo")
    (folder / "b.phh").write_bytes((FIXTURES / "phh/single-hand.phh").read_bytes())
    done = _cli("ingest", str(folder), "--store", str(tmp_path / "store"))
    assert done.returncode == 2, done.stderr
    assert "a.fifo: a FIFO, not a regular file" in done.stderr
    assert "b.phh: 1 hands" in done.stderr


_MEMORY_PROBE = """
import json, sys, tracemalloc
from pathlib import Path
from audit.importers.base import MIB, ReadLimits
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows
tracemalloc.start()
summary = ingest([Path(sys.argv[1])], Store(Path(sys.argv[2])),
                 limits=ReadLimits(line_bytes=MIB, hand_bytes=4 * MIB))
f = summary.files[0]
print(json.dumps({"peak": tracemalloc.get_traced_memory()[1], "hands": f.hands,
                  "quarantined": f.quarantined, "exit": summary.exit_code}))
"""


@pytest.mark.parametrize("where", ["outside", "inside"])
@pytest.mark.slow
def test_a_huge_single_line_costs_bounded_memory_and_a_short_quarantine(tmp_path: Path,
                                                                        where: str):
    """A 40 MB line (outside any hand, or inside one) with a 1 MiB line and 4 MiB hand limit:
    the hands around it are stored, it is quarantined with a short reason and a capped raw
    excerpt, and the reader's memory follows the limits, not the line."""
    sample = (FIXTURES / "pokerstars/nlhe-two-hands.txt").read_bytes()
    second = sample.replace(b"#358241", b"#958241")
    line = b"x" * (40 << 20) + b"\n"
    if where == "outside":
        data = sample + b"\n\n" + line + b"\n\n" + second
    else:  # the long line inside the first hand, after its header
        head, rest = sample.split(b"\n", 1)
        data = head + b"\n" + line + rest + b"\n\n" + second
    source = tmp_path / "huge.txt"
    source.write_bytes(data)
    probe = tmp_path / "probe.py"
    probe.write_text(_MEMORY_PROBE)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(probe), str(source), str(tmp_path / "store")],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["peak"] < 120 * (1 << 20), result  # the line is 40 MiB; held text x4 ~ 160
    stored = 4 if where == "outside" else 3
    assert (result["hands"], result["quarantined"], result["exit"]) == (stored, 1, 1)
    (rejected,) = _quarantine(tmp_path / "store")
    assert "over the limit" in rejected["reason"] and "--max-" in rejected["reason"]
    assert len(rejected["reason"]) <= REASON_CHARS + 100
    assert len(rejected["raw"]) <= RAW_EXCERPT_CHARS + 300
    quarantine_bytes = sum(f.stat().st_size for f in (tmp_path / "store").rglob("rejected.jsonl"))
    assert quarantine_bytes < 2 * RAW_EXCERPT_CHARS


def _jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(r, default=str) + "\n" for r in rows)


def test_the_default_line_limit_quarantines_an_over_long_jsonl_line(tmp_path: Path):
    long = hand_rows("h2")
    long[1]["player"] = "x" * (5 << 20)  # a 5 MB name, past the 4 MiB default
    source = tmp_path / "events.jsonl"
    source.write_text(_jsonl(hand_rows("h1")) + _jsonl(long))
    summary = ingest([source], Store(tmp_path / "store"))
    assert (summary.hands, summary.exit_code) == (1, 1)
    rejected = _quarantine(tmp_path / "store")
    over = [r for r in rejected if "over the limit" in r["reason"]]
    assert len(over) == 1 and over[0]["line"] == 17 and "line 17 is 5,242,9" in over[0]["reason"]
    assert all(len(r["raw"]) < 10_000 for r in rejected)
    assert {r["hand_id"] for r in rejected} <= {None, "h2"}  # the rest of h2: quarantined too


def test_raising_the_limits_reads_the_long_line(tmp_path: Path):
    rows = hand_rows("h1")
    rows[1]["player"] = "x" * (2 << 20)
    source = tmp_path / "events.jsonl"
    source.write_text(_jsonl(rows))
    tight = ingest([source], Store(tmp_path / "tight"), limits=ReadLimits(line_bytes=1 << 20))
    assert tight.hands == 0 and tight.quarantined >= 1
    roomy = ingest([source], Store(tmp_path / "roomy"), limits=ReadLimits(line_bytes=3 << 20))
    assert (roomy.hands, roomy.quarantined) == (1, 0)


def test_quarantine_caps_a_long_reason_and_raw_excerpt(tmp_path: Path):
    """A PokerStars hand with a 600 KB unknown line: the parser's reason quotes the line; the
    quarantine keeps REASON_CHARS of it and RAW_EXCERPT_CHARS of the hand, and says so."""
    sample = (FIXTURES / "pokerstars/nlhe-two-hands.txt").read_text()
    head, rest = sample.split("\n", 1)
    source = tmp_path / "long.txt"
    source.write_text(head + "\nSeat 9: " + "z" * 600_000 + "\n" + rest)
    summary = ingest([source], Store(tmp_path / "store"))
    assert (summary.hands, summary.quarantined) == (1, 1)
    (rejected,) = _quarantine(tmp_path / "store")
    assert len(rejected["reason"]) < REASON_CHARS + 100 and "reason cut" in rejected["reason"]
    assert len(rejected["raw"]) < RAW_EXCERPT_CHARS + 300 and "excerpt cut" in rejected["raw"]


def test_an_over_large_phh_hand_is_quarantined_unread(tmp_path: Path):
    sample = (FIXTURES / "phh/single-hand.phh").read_text()
    source = tmp_path / "big.phhs"
    filler = "# padding\n" * 300_000  # 3 MB of comment lines in the first hand
    source.write_text(f"[1]\n{sample}{filler}\n[2]\n{sample}")
    summary = ingest([source], Store(tmp_path / "store"),
                     limits=ReadLimits(hand_bytes=1 << 20))
    assert (summary.hands, summary.quarantined) == (1, 1)
    (rejected,) = _quarantine(tmp_path / "store")
    assert rejected["line"] == 1 and "over the limit" in rejected["reason"]


# --- item 12: not UTF-8, symlinks out of the tree ----------------------------------------


def _events_with_names(names: list[bytes]) -> bytes:
    """One complete hand per name, the first player renamed to it (bytes as given)."""
    out = []
    for k, name in enumerate(names):
        out += [json.dumps(r, default=str).encode().replace(b'"ann"', b'"' + name + b'"')
                for r in hand_rows(f"h{k}")]
    return b"\n".join(out) + b"\n"


def test_jsonl_bytes_that_are_not_utf8_quarantine_their_hand(tmp_path: Path):
    """Two different byte names (p\\xff, p\\xfe) were both read as 'p\\ufffd': one player."""
    source = tmp_path / "events.jsonl"
    source.write_bytes(_events_with_names([b"p\xff", b"p\xfe", b"plain"]))
    store = Store(tmp_path / "store")
    summary = ingest([source], store)
    assert (summary.hands, summary.quarantined, summary.exit_code) == (1, 2, 1)
    rejected = _quarantine(tmp_path / "store")
    assert sorted(r["hand_id"] for r in rejected) == ["h0", "h1"]
    assert sorted(r["line"] for r in rejected) == [2, 17]  # first bad line of each
    assert all("not UTF-8" in r["reason"] for r in rejected)
    raws = {r["hand_id"]: r["raw"] for r in rejected}  # the two bytes stay two (escaped)
    assert "dcff" in raws["h0"] and "dcfe" in raws["h1"] and "\ufffd" not in raws["h0"]
    _verified(store)


def test_csv_bytes_that_are_not_utf8_quarantine_their_hand(tmp_path: Path):
    columns = ["hand_id", "seq", "kind", "seat", "player", "amount", "total", "detail",
               "cards", "table_id", "game"]
    text = io.StringIO()
    writer = csv.DictWriter(text, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for k, name in enumerate(["NAME0", "plain"]):
        for r in hand_rows(f"h{k}", ts=None):
            r["game"] = json.dumps(r["game"]) if "game" in r else None
            writer.writerow({**r, "player": name if r.get("player") == "ann" else
                             r.get("player")})
    source = tmp_path / "events.csv"
    source.write_bytes(text.getvalue().encode().replace(b"NAME0", b"p\xff"))
    summary = ingest([source], Store(tmp_path / "store"))
    assert (summary.hands, summary.quarantined) == (1, 1)
    (rejected,) = _quarantine(tmp_path / "store")
    assert rejected["hand_id"] == "h0" and "not UTF-8" in rejected["reason"]


@pytest.mark.slow
def test_a_symlink_out_of_the_input_tree_is_refused_and_counted(tmp_path: Path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("root:SECRET-HASH:0:0\n")
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "passwd.txt").symlink_to(secret)
    (folder / "sub" / "outside-dir").symlink_to(secret.parent, target_is_directory=True)
    (folder / "hand.phh").write_bytes((FIXTURES / "phh/single-hand.phh").read_bytes())
    (folder / "sub" / "same-hand.phh").symlink_to(folder / "hand.phh")  # inside: may be read
    done = _cli("ingest", str(folder), "--store", str(tmp_path / "store"))
    assert done.returncode == 1, done.stderr
    refused = [x for x in done.stderr.splitlines() if ": refused, a symlink" in x]
    assert len(refused) == 2 and all("not followed" in x for x in refused)
    assert "2 refused" in done.stderr
    assert "1 hands" in done.stderr  # hand.phh; the inside link is the same bytes: skipped
    assert "same-hand.phh: skipped, identical bytes" in done.stderr
    for f in (tmp_path / "store").rglob("*"):
        if f.is_file():
            assert b"SECRET-HASH" not in f.read_bytes(), f


def test_one_endless_native_hand_is_cut_not_held_whole(monkeypatch: pytest.MonkeyPatch):
    """A JSONL/CSV 'hand' of endless rows is cut after a chunk plus the longest hand (as for
    Parquet) instead of being held whole; every row still comes out."""
    import audit.importers.events as events

    monkeypatch.setattr(events, "CHUNK_ROWS", 5)
    monkeypatch.setattr(events, "_LONGEST_HAND_ROWS", 10)
    rows = ((i + 1, {"hand_id": "h", "seq": i, "kind": "annotation"}) for i in range(100))
    chunks = list(events._hand_aligned(rows, "endless.jsonl"))
    assert max(c.table.num_rows for c in chunks) <= 15
    assert sum(c.table.num_rows for c in chunks) == 100


@pytest.mark.parametrize("fmt", ["events", "phh", "pokerstars", "fulltilt", "partypoker",
                                 "ohh", "ipoker"])
def test_every_reader_quarantines_a_line_over_the_limit_and_keeps_the_hands(tmp_path: Path,
                                                                            fmt: str):
    """Each format's sample with a 3 MB line beside it, read with a 1 MiB line limit: the
    sample's hands are stored as without the line, the line is quarantined with its size."""
    from audit.devtools.hostile import seeds

    sample = seeds()[fmt]
    alone = tmp_path / f"alone.{fmt}"
    alone.write_bytes(sample)
    limits = ReadLimits(line_bytes=1 << 20)
    expected = ingest([alone], Store(tmp_path / "alone"), fmt=fmt, limits=limits).hands
    assert expected > 0
    hostile = tmp_path / f"hostile.{fmt}"
    line = b"x" * (3 << 20) + b"\n"
    if fmt in ("fulltilt", "partypoker"):  # a hand runs to the next header: the line first
        data = line + sample
    elif fmt == "phh":  # a table of its own before the hand's
        data = b"[0]\n" + line + b"[1]\n" + sample
    else:
        data = sample.rstrip(b"\n") + b"\n\n" + line
    hostile.write_bytes(data)
    summary = ingest([hostile], Store(tmp_path / "store"), fmt=fmt, limits=limits)
    assert summary.hands == expected and summary.exit_code == 1
    rejected = _quarantine(tmp_path / "store")
    assert any("over the limit" in r["reason"] for r in rejected), rejected
    assert all(len(r["raw"]) < RAW_EXCERPT_CHARS + 300 for r in rejected)
