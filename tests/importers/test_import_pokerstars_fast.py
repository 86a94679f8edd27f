"""The vectorised PokerStars reader (audit/importers/pokerstars/fast.py) never changes an import.

For every source of PokerStars text we have -- the real fpdb samples, the hand-written
fixtures, a long file of real hands, the hostile-input documents and thousands of randomly
corrupted files -- the chunks from the fast path equal, value for value and chunk by chunk,
those of the line parser alone: the same events (sources included), the same row lines and the
same quarantine (file, line, hand id, reason, raw text). The fast path may hand a hand to the
parser; it may never read one differently.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.devtools.bench import write_stars_file
from audit.devtools.hostile import hostile_documents, seeds
from audit.importers.pokerstars.fast import read_fast
from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.importers.pokerstars.reader import _ChunkBuilder

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "pokerstars"
SAMPLES = ROOT.parent / "shared" / "data" / "fpdb-sample"
STARS = sorted(SAMPLES.glob("stars-*.txt")) + sorted(FIXTURES.glob("*.txt"))
needs_samples = pytest.mark.skipif(not SAMPLES.exists(), reason="fpdb sample not present")


def _chunks(path: Path, *, fast: bool, chunk_hands: int = 5000) -> list[Any]:
    out = []
    for chunk in PokerStarsImporter(chunk_hands, fast=fast).read(path):
        out.append((chunk.table.to_pylist(), chunk.lines,
                    [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in chunk.rejected]))
    return out


def assert_same(path: Path, *, chunk_hands: int = 5000, min_fast: float = 0.0) -> None:
    reference = _chunks(path, fast=False, chunk_hands=chunk_hands)
    stats: dict[str, int] = {}
    fast = [(c.table.to_pylist(), c.lines,
             [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in c.rejected])
            for c in read_fast(path, _ChunkBuilder(path, chunk_hands), stats, min_bytes=0)]
    assert len(fast) == len(reference)
    for got, want in zip(fast, reference, strict=True):
        assert got[2] == want[2]
        assert got[1] == want[1]
        bad = [(g, w) for g, w in zip(got[0], want[0], strict=True) if g != w]
        assert not bad, bad[:2]
        assert len(got[0]) == len(want[0])
    assert stats["fast"] >= min_fast * stats["hands"], stats
    assert "failed_pieces" not in stats, stats  # the fast path never failed, only handed back


@needs_samples
@pytest.mark.parametrize("path", STARS, ids=lambda p: p.name)
def test_real_and_fixture_files_read_the_same(path: Path) -> None:
    assert_same(path)
    assert_same(path, chunk_hands=2)


@needs_samples
@pytest.mark.parametrize("name", ["stars-nlhe-6max-0.05-0.10.txt",
                                  "stars-mtt-nlhe-knockout.txt", "stars-plo-sidepots.txt"])
def test_common_hold_em_and_omaha_hands_take_the_fast_path(name: str) -> None:
    assert_same(SAMPLES / name, min_fast=0.95)


@pytest.mark.slow
def test_a_long_file_of_real_hands_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    write_stars_file(path, 3000)
    assert_same(path, chunk_hands=1000, min_fast=0.99)


def test_a_small_file_is_the_parser_s_and_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    write_stars_file(path, 200)
    stats: dict[str, int] = {}
    got = [(c.table.to_pylist(), c.lines) for c in read_fast(path, _ChunkBuilder(path, 5000),
                                                             stats)]
    assert stats == {"hands": 200, "fast": 0}
    assert got == [(rows, lines) for rows, lines, _ in _chunks(path, fast=False)]


def test_repeated_hand_ids_are_quarantined_the_same(tmp_path: Path) -> None:
    # a hand id seen before in the same chunk is quarantined; in the next chunk it is not
    hand = (FIXTURES / "nlhe-two-hands.txt").read_bytes()
    path = tmp_path / "dup.txt"
    path.write_bytes(hand * 3)
    for chunk_hands in (1, 2, 3, 5000):
        assert_same(path, chunk_hands=chunk_hands)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp1252", "latin-1", "crlf", "junk"])
def test_encodings_boms_line_ends_and_text_outside_hands(tmp_path: Path, encoding: str) -> None:
    text = (FIXTURES / "nlhe-two-hands.txt").read_text(encoding="utf-8").replace(
        "Hero", "Hérö")
    path = tmp_path / "x.txt"
    if encoding == "crlf":
        path.write_bytes(text.replace("\n", " \r\n").encode())
    elif encoding == "junk":
        cut = text.index("PokerStars", 10)
        path.write_bytes(("junk line\n\n" + text[:cut] + "more junk\r\n \t\n" + text[cut:]
                          + "\n\ntrailing").encode())
    else:
        path.write_bytes(text.encode(encoding))
    assert_same(path)


@pytest.mark.slow
def test_hostile_documents_read_the_same(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    for number, (mutation, data) in enumerate(
            hostile_documents("pokerstars", seeds()["pokerstars"], rng, 2)):
        if len(data) > 5_000_000:
            continue
        path = tmp_path / f"{number}.txt"
        path.write_bytes(data)
        try:
            assert_same(path, chunk_hands=3)
        except AssertionError as exc:
            raise AssertionError(f"hostile mutation {mutation}: {exc}") from None


_FUZZ_SOURCE = [FIXTURES / "nlhe-two-hands.txt", FIXTURES / "omaha6-showdown.txt"] + (
    [SAMPLES / "stars-mtt-nlhe-knockout.txt", SAMPLES / "stars-plo-sidepots.txt"]
    if SAMPLES.exists() else [])


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    path = draw(st.sampled_from(_FUZZ_SOURCE))
    lines = path.read_bytes().split(b"\n")
    if len(lines) > 120:  # a few hands of a long sample
        start = draw(st.integers(0, len(lines) - 120))
        lines = lines[start : start + 120]
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(["delete", "duplicate", "truncate", "swap", "garbage",
                                   "word"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "swap":
            lines[i] = re.sub(rb"\d+(?:\.\d+)?", lambda m: m.group(0)[::-1], lines[i])
        elif op == "word":  # a word the fast path has a rule for, in an odd place
            word = draw(st.sampled_from([
                b": ", b" collected ", b" and is all-in", b"Dealt to ", b"*** ", b" [",
                b" said, \"", b"\"", b" joins the table at seat #", b" has timed out",
                b" wins the ", b"Seat 3: ", b" in chips)", b"$", b",", b".", b" ", b"\xc2\xa0",
                b"\x1c", b"Uncalled bet (", b") returned to ", b" mucked [", b"Total pot ",
                b" | Rake ", b"Main pot ", b"Side pot-1 ", b"*** SUMMARY ***",
                b"*** HOLE CARDS ***", b" out of hand", b" is sitting out", b"sits out"]))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + word + lines[i][pos:]
        else:
            junk = draw(st.binary(min_size=1, max_size=12))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_fuzzed_files_read_the_same(tmp_path_factory: pytest.TempPathFactory,
                                    data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_same(path, chunk_hands=2)


def test_a_failing_fast_path_leaves_the_hands_to_the_parser(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from audit.importers.pokerstars import fast as pokerstars_fast

    def broken(*args: object) -> None:
        raise RuntimeError("simulated defect")

    monkeypatch.setattr(pokerstars_fast, "_read_piece", broken)
    monkeypatch.setattr(pokerstars_fast, "_warned", [])
    monkeypatch.setattr(pokerstars_fast, "FAST_MIN_BYTES", 0)
    path = FIXTURES / "nlhe-two-hands.txt"
    with pytest.warns(RuntimeWarning, match="simulated defect"):
        got = _chunks(path, fast=True)
    assert got == _chunks(path, fast=False)


# lines in the forms the compiled body reader (audit/importers/pokerstars/kernel.py) tells apart,
# and odd forms next to them ('N' is a seated player's name, 'U' a name not seated, 'P' the seated
# name less its last character: names are looked up byte for byte)
_BODY_LINES = [
    "N: calls $1,000.5", "N: calls €2.25", "N: calls £2", "N: calls 2.255", "N: calls $2 to $3",
    "N: raises $2", "N: raises $0.02 to $0.35", "N: raises $1 to $0.5", "N: bets 1234567890123456",
    "N: bets $0.", "N: bets $.5", "N: bets $,5", "N: bets $5,", "N: calls $0.10 and is all-in",
    "N: folds and is all-in", "N: posts small blind $0.05",
    "N: posts big blind $0.10 and is all-in", "N: posts the ante $0.01",
    "N: posts straddle $0.20", "N: shows [Ah Kd] (a pair)",
    "N: shows [Ah Kd] ()", "N: shows [Ah Kd] (", "N: shows [Ah Kd]x", "N: shows [Ah  Kd]",
    "N: shows []", "N: mucks hand", "N: doesn't show hand", "N: sits out", "N: is sitting out",
    "N:  folds", "N: foldsx", "U: folds", "U: sits out", "U: is sitting out",
    "N collected $1 from pot", "N collected $1 from main pot", "N collected $1 from side pot",
    "N collected $1 from side pot-2", "N collected $1 from side pot-0",
    "N collected $1 from side pot-12x", "N collected 1 2 from pot", "N collected  from pot",
    "N collected $1.234 from pot", "U collected $1 from pot", "Uncalled bet ($1) returned to N",
    "Uncalled bet ($1.5) returned to U", "Uncalled bet () returned to N",
    "Uncalled bet ($1) returned to ) returned to N", "Dealt to N [Ah Kd]",
    "Dealt to N [Ah Kd] [2c]", "Dealt to N  [Ah Kd]", "Dealt to [Ah] [Kd]",
    "*** FLOP *** [Ah Kd 2c]", "*** TURN *** [Ah Kd 2c] [3d]", "*** RIVER *** [Ah Kd 2c 3d] [4s]",
    "*** RIVER *** [Ah Kd 2c 3d]  [4s]", "*** FLOP *** [Ah Kd 2c", "*** TURN *** [Ah Kd 2c] [3d] x",
    "*** FOO ***", "*** PRE-FLOP ***", "*** SHOW DOWN ***", 'N said, "hello"', 'U said, "x"',
    'N said, "', 'N said, ""', 'N said, "a" said, "b"', "N has timed out",
    "N has timed out while disconnected", "N has timed out has timed out", "N is connected",
    "N leaves the table", "U has returned", "N will be allowed to play after the button",
    "U joins the table at seat #3", "N wins the $5 bounty", "N finished the tournament in 3rd",
    "N wins the tournament", "N cashed out the hand for $3", "No low hand qualified",
    "Betting is capped", "Pair on board - a double bet is allowed", "gibberish line",
    "P: folds", "P collected $1 from pot", "Dealt to P [Ah Kd]", "Uncalled bet ($1) returned to P",
    "P has timed out",
]
# seat lines, each in place of a hand's first seat line (its seat and name are '#' and '@')
_SEAT_LINES = [
    "Seat #: @ ($1 in chips) is sitting out", "Seat #: @ ($1 in chips) out of hand (moved)",
    "Seat #: @ ($1,000.25 in chips)", "Seat #: @ (1 in chips)", "Seat 0#: @ ($1 in chips)",
    "Seat 1#0: @ ($1 in chips)", "Seat #: @: B ($1 in chips)", "Seat #: Dealt to @ ($1 in chips)",
    "Seat #: *** @ ($1 in chips)", "Seat #: @ ($1.2.3 in chips)", "Seat #: @ ($1.234 in chips)",
    "Seat #: @ ($1 in chips) in chips)", "Seat #: @ ($1 in chips)  is sitting out",
    "Seat #: @($1 in chips)", "Seat #:  ($1 in chips)", "Seat #: @ ($ in chips)",
    "Seat #: @ ($1 in chips) is sitting", "Seat #: @ (x) ($1 in chips)", "Seat #: @  ($1 in chips)",
    "Seat #: @ ($1 in chips)x", "Seat #: @ (€1 in chips)", "Seat #: @ (,5 in chips)",
]


def _sample_edited(tmp_path: Path, count: int, edit: Callable[[int, list[str]], None]) -> Path:
    """A file of `count` sample hands (`write_stars_file`), the lines of hand k edited in
    place by `edit(k, lines)`."""
    source = tmp_path / "source.txt"
    write_stars_file(source, count)
    hands = [hand for hand in source.read_text(encoding="utf-8").split("\n\n\n")
             if hand.strip()]
    out = []
    for k, hand in enumerate(hands):
        lines = hand.split("\n")
        edit(k, lines)
        out.append("\n".join(lines))
    path = tmp_path / "edited.txt"
    path.write_text("\n\n\n".join(out), encoding="utf-8")
    return path


def _first_seat(lines: list[str]) -> tuple[str, str]:
    """The number and name of a hand's first seat line."""
    seat, name = re.match(r"Seat (\d+): (.+?) \(", lines[2]).groups()  # type: ignore[union-attr]
    return seat, name


def test_body_lines_in_odd_forms_read_the_same(tmp_path: Path) -> None:
    rng = random.Random(5)

    def edit(number: int, lines: list[str]) -> None:
        name = next(line.split(": ", 1)[1].split(" (", 1)[0] for line in lines
                    if line.startswith("Seat "))
        body = [k for k, line in enumerate(lines[2:], 2) if not line.startswith("Seat ")]
        added = re.sub(r"\bU\b", "Nobody Here", re.sub(
            r"\bN\b", lambda _, name=name: name, re.sub(
                r"\bP\b", lambda _, name=name: name[:-1], _BODY_LINES[number // 2])))
        k = rng.choice(body)
        if number % 2:
            lines[k] = added  # in place of a line
        else:
            lines.insert(k, added)

    assert_same(_sample_edited(tmp_path, 2 * len(_BODY_LINES), edit), min_fast=0.2)


# summary lines, each after a hand's '*** SUMMARY ***' (a total line in place of the hand's;
# the first seat's number and name are '#' and '@')
_SUMMARY_LINES = [
    "Seat #: @ mucked [Ah Kd]", "Seat #: @ mucked []", "Seat #: @ mucked [Ah Kd",
    "Seat #: @ mucked [Ah Kd] mucked [2c 3c]", "Seat #: @ (button) mucked [Ah Kd]",
    "Seat #: @ mucked [Ah  Kd]", "Seat #: @x folded before Flop", "Seat 0#: @ folded",
    "Seat #: folded", "Seat #:@ folded", "Total pot $1 | Rake $0", "Total pot $1.5 | Rake $0.05",
    "Total pot $1 | Rake $0 ", "Total pot $1 Main pot $1. | Rake $0", "Total pot 1,000 | Rake 0",
    "Total pot $1  | Rake $0", "Total pot $1 | Rake", "Total pot | Rake $0", "Board [Ah Kd 2c]",
    "Board [Ah", "FIRST Board [Ah Kd 2c]", "Hand was run twice", "garbage",
    "Seat #: @ showed [Ah Kd] and won ($1)",
]


def test_summary_lines_in_odd_forms_read_the_same(tmp_path: Path) -> None:
    def edit(k: int, lines: list[str]) -> None:
        seat, name = _first_seat(lines)
        added = _SUMMARY_LINES[k].replace("#", seat).replace("@", name)
        at = lines.index("*** SUMMARY ***") + 1
        if added.startswith("Total pot "):
            lines[at] = added
        else:
            lines.insert(at + 1, added)

    assert_same(_sample_edited(tmp_path, len(_SUMMARY_LINES), edit), min_fast=0.15)


def test_seat_lines_in_odd_forms_read_the_same(tmp_path: Path) -> None:
    def edit(k: int, lines: list[str]) -> None:
        seat, name = _first_seat(lines)
        lines[2] = _SEAT_LINES[k].replace("#", seat).replace("@", name)

    # the first four are read fast
    assert_same(_sample_edited(tmp_path, len(_SEAT_LINES), edit), min_fast=0.15)


@pytest.mark.slow
def test_kernels_numba_cannot_build_leave_every_piece_to_the_parser(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    import numba.core.errors

    from audit.importers.pokerstars import fast as pokerstars_fast

    path = tmp_path / "two-pieces.txt"
    write_stars_file(path, 6000)  # two 4 MB pieces
    calls: list[int] = []

    def unbuildable(*args: object) -> None:  # as _read_piece: nothing without the kernels
        calls.append(1)
        if pokerstars_fast.KERNEL.get() is None:
            return None
        raise numba.core.errors.TypingError("simulated typing failure")

    monkeypatch.setattr(pokerstars_fast, "_read_piece", unbuildable)
    monkeypatch.setattr(pokerstars_fast.KERNEL, "state", {})
    stats: dict[str, int] = {}
    got = [(c.table.to_pylist(), c.lines)
           for c in read_fast(path, _ChunkBuilder(path, 5000), stats, min_bytes=0)]
    assert stats == {"hands": 6000, "fast": 0}  # no failed piece: the kernels are off
    assert len(calls) >= 2
    assert "simulated typing failure" in capsys.readouterr().err
    assert pokerstars_fast.KERNEL.state["module"] is None
    assert got == [(rows, lines) for rows, lines, _ in _chunks(path, fast=False)]


@pytest.mark.parametrize("name", ["rio-splash-the-pot.txt", "rio-splash-the-pot-side-pot.txt"])
def test_money_the_room_adds_reads_the_same(tmp_path: Path, name: str) -> None:
    # Run It Once's Splash the Pot (`pot_added`), and the same hand under a PokerStars header
    # and table line: the fast path hands it to the parser, which reads the room's money
    real = FIXTURES / "real" / name
    assert_same(real)
    text = real.read_text(encoding="utf-8").replace("Run It Once Poker Hand #", "PokerStars Hand #")
    path = tmp_path / name
    path.write_text(text.replace("Table ID '", "Table '"), encoding="utf-8")
    assert_same(path)
    rows = [r for c in _chunks(path, fast=True) for r in c[0]]
    assert [r["amount"] for r in rows if r["kind"] == "pot_added"] == [
        50 if name == "rio-splash-the-pot.txt" else 500]


def test_split_hold_em_is_the_parser_s_and_reads_the_same() -> None:
    # two boards (FIRST FLOP / SECOND FLOP ...): the fast path reads only the games it knows
    # (FAST_VARIANTS) and hands this one to the line parser whole
    real = FIXTURES / "real" / "split-holdem.txt"
    assert_same(real)
    stats: dict[str, int] = {}
    list(read_fast(real, _ChunkBuilder(real, 5000), stats, min_bytes=0))
    assert stats == {"hands": 1, "fast": 0}
