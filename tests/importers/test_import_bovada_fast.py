"""The Bovada fast path (audit/importers/bovada_fast.py) never changes an import.

For every Bovada text we have -- the real fpdb-dev files, the hand-written fixtures and
randomly corrupted hands -- the chunks read with the fast path equal, value for value and
chunk by chunk, those of the line parser alone: the same events (sources included), the same
row lines and the same quarantine (file, line, hand id, reason, raw text). The fast path may
hand a hand to the parser; it may never read one differently.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.devtools.hostile import hostile_documents, seeds
from audit.importers import bovada_fast
from audit.importers.bovada import _HEADER_LINE, BovadaImporter
from audit.importers.sitetext import line_pieces

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "sites").glob("bovada-*.txt"))
CORPUS = ROOT.parent / "shared" / "data" / "fpdb-dev" / "bovada"
if not CORPUS.exists():  # a worktree beside the checkout
    CORPUS = Path("/work/shared/data/fpdb-dev/bovada")
REAL = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS.exists() else []
needs_corpus = pytest.mark.skipif(not REAL, reason="fpdb-dev corpus not present")


def _chunks(path: Path, *, fast: bool, chunk_hands: int = 5000) -> list[Any]:
    out = []
    for chunk in BovadaImporter(chunk_hands, fast=fast, compiled=False).read(path):
        out.append((chunk.table, chunk.lines,
                    [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in chunk.rejected]))
    return out


def assert_same(path: Path, *, chunk_hands: int = 5000) -> dict[str, int]:
    """The fast read of `path` equals the parser's; how many hands the fast path took."""
    want = _chunks(path, fast=False, chunk_hands=chunk_hands)
    stats = {"hands": 0, "fast": 0}
    real_map = bovada_fast.map_fast

    def counting(block: list[tuple[int, str]], file_name: str) -> Any:
        got = real_map(block, file_name)
        stats["hands"] += 1
        stats["fast"] += got is not None
        return got

    bovada_fast.map_fast = counting  # type: ignore[assignment]
    try:
        got = _chunks(path, fast=True, chunk_hands=chunk_hands)
    finally:
        bovada_fast.map_fast = real_map  # type: ignore[assignment]
    assert len(got) == len(want)
    for (g_table, g_lines, g_rej), (w_table, w_lines, w_rej) in zip(got, want, strict=True):
        assert g_rej == w_rej
        assert g_lines == w_lines
        g_rows, w_rows = g_table.to_pylist(), w_table.to_pylist()
        bad = [(g, w) for g, w in zip(g_rows, w_rows, strict=True) if g != w]
        assert not bad, bad[:2]
        assert len(g_rows) == len(w_rows)
        assert g_table.equals(w_table, check_metadata=True)
    return stats


@needs_corpus
@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_every_real_file_reads_the_same(path: Path) -> None:
    assert_same(path)
    assert_same(path, chunk_hands=2)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_every_fixture_reads_the_same(path: Path) -> None:
    assert_same(path)
    assert_same(path, chunk_hands=1)


@needs_corpus
def test_the_button_games_take_the_fast_path() -> None:
    # stud, a hand cut short and a hand whose first ante comes after an all-in are the
    # parser's; every other real hold'em and Omaha hand of the folder is read fast
    hands = fast = 0
    for path in REAL:
        stats = assert_same(path)
        hands += stats["hands"]
        fast += stats["fast"]
    assert hands == 1117
    assert fast >= 1060, (fast, hands)


def test_a_value_past_64_bits_is_quarantined_as_the_parser_does(tmp_path: Path) -> None:
    text = (ROOT / "fixtures" / "sites" / "bovada-zone-poker.txt").read_text(encoding="utf-8")
    path = tmp_path / "huge.txt"
    path.write_text(text.replace("($25 in chips)", "($99999999999999999999 in chips)", 1),
                    encoding="utf-8")
    assert "99999999999999999999" in path.read_text(encoding="utf-8")
    stats = assert_same(path)
    assert stats["fast"] == stats["hands"] == 2
    [(_, _, rejected)] = _chunks(path, fast=True)
    assert [r[3] for r in rejected][0].startswith("a value does not fit the event schema")


def test_a_hand_the_fast_path_refuses_is_the_parser_s(tmp_path: Path) -> None:
    text = (ROOT / "fixtures" / "sites" / "bovada-zone-poker.txt").read_text(encoding="utf-8")
    path = tmp_path / "odd.txt"
    path.write_text(text.replace(" : Folds\n", " : Sings a song\n", 1), encoding="utf-8")
    stats = assert_same(path)
    assert stats == {"hands": 2, "fast": 1}
    rejected = [r for _, _, rej in _chunks(path, fast=True) for r in rej]
    assert len(rejected) == 1 and "unknown line" in rejected[0][3]


# the old files write no street lines: a street starts when the betting round is over, its
# cards from the summary's board -- here the summary names none (`??`); found by fuzzing
_NO_BOARD_NAMED = """\
Bovada Hand #2629955907 TBL#1902693 HOLDEM No Limit - 2012-09-02 13:52:49
Seat 1: UTG+1 ($22.23 in chips)
Seat 2: UTG+2 ($15.74 in chips)
Seat 3: Dealer ($37.88 in chips)
Seat 5: Big Blind ($25.02 in chips)
Seat 6: UTG [ME] ($45.89 in chips)
Dealer : Set dealer/Bring in spot [3]
Big Blind : Big blind/Bring in $52.0
UTG+2 : Posts dead chip $0.35
*** HOLE CARDS ***
UTG+1 : Card dealt to a spot [Ac 7h]
UTG+2 : Card dealt to a spot [6c 3s]
Dealer : Card dealt to a spot [7c 3d]
Big Blind : Card dealt to a spot [4c Jh]
UTG  [ME] : Card dealt to a spot [9d 8s]
UTG  [ME] : Folds
UTG+1 : Raises $0.75 to $0.75
UTG+2 : Folds
Dealer : Folds
Big Blind : Folds
UTG+1 : Return uncalled portion of bet $0.50
UTG+1 : Does not show [Ac 7h] (High Card)
UTG+1 : Hand result $0.85
Dealer : Seat sit out
*** SUMMARY ***
Total Pot($0.85) | Rake ($0)
Seat+1: UTG+1 $0.85 [Does not show]
Seat+2: UTG+2 Folded before the FLOP
Seat+3: Dealer Folded before the FLOP
Seat+5: Big Blind Folded before the FLOP
Seat+6: UTG Folded before the FLOP
"""


def test_a_street_the_log_omits_with_no_board_in_the_summary_reads_the_same(
        tmp_path: Path) -> None:
    path = tmp_path / "no-board.txt"
    path.write_text(_NO_BOARD_NAMED, encoding="utf-8")
    assert assert_same(path) == {"hands": 1, "fast": 1}
    [(table, _, _)] = _chunks(path, fast=True)
    rows = table.to_pylist()
    assert [r["cards"] for r in rows if r["detail"] == "board"] == ["?? ?? ??"]
    assert [r["player"] for r in rows if r["detail"] == "hole"] == [
        "UTG+1", "UTG+2", "Dealer", "Big Blind", "UTG [ME]"]


@pytest.mark.slow
def test_hostile_documents_read_the_same(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    for number, (mutation, data) in enumerate(
            hostile_documents("bovada", seeds()["bovada"], rng, 2)):
        path = tmp_path / f"{number}.txt"
        path.write_bytes(data)
        try:
            assert_same(path, chunk_hands=3)
        except AssertionError as exc:
            raise AssertionError(f"hostile mutation {mutation}: {exc}") from None


_FUZZ_SOURCE = FIXTURES + ([p for p in REAL if p.stat().st_size < 8000] if REAL else [])
_WORDS = [b" : ", b"*** ", b" [", b"]", b"$", b",", b".", b" ", b"\xc2\xa0", b"[ME]", b"  ",
          b"Seat 3: ", b" in chips)", b"Folds", b"Calls $1", b"All-in ", b"All-in(raise) ",
          b" to $", b"Raises $2 to $4", b"Bets $1", b"Checks", b"Does not show ", b"Showdown ",
          b"Mucks ", b"Hand result ", b"Hand result-Side pot ", b"Return uncalled portion of ",
          b"Posts dead chip ", b"Posts chip ", b"Ante chip ", b"Big blind ", b"Small Blind ",
          b"Card dealt to a spot ", b"Card dealt to table ", b"*** FLOP *** ", b"*** TURN *** ",
          b"*** HOLE CARDS ***", b"*** SUMMARY ***", b"Total Pot(", b" | Rake (", b"Board [",
          b"Set dealer [", b"Dealer", b"Big Blind", b"Small Blind", b"UTG", b"Leave(Auto)",
          b"Table enter user", b"Seat+", b"Level 3 (10/20)", b"(timeout)", b"10c", b"??",
          b"Folds & shows ", b"Draw for dealer ", b"Prize Cash ", b"Ranking 3", b"D bets $2",
          b"Bring_in chip $1", b"Table Info: Stakes: $1-$2", b"Tournament #7 ", b"TBL#9 ",
          b"Seat sit out", b"Re-join", b"Enter(Auto)", b" EDT", b" 2021-03-14 02:30:00",
          b"Bovada Hand #1: ", b"OMAHA HiLo ", b"7CARD ", b"Fixed Limit ", b"Turbo-"]


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    path = draw(st.sampled_from(_FUZZ_SOURCE))
    lines = path.read_bytes().split(b"\n")
    for _ in range(draw(st.integers(1, 5))):
        if not lines:
            lines = [b""]
        op = draw(st.sampled_from(["delete", "duplicate", "truncate", "swap", "garbage",
                                   "word", "move"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "swap":
            lines[i] = re.sub(rb"\d+(?:\.\d+)?", lambda m: m.group(0)[::-1], lines[i])
        elif op == "move":
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
        elif op == "word":  # a word the fast path has a rule for, in an odd place
            word = draw(st.sampled_from(_WORDS))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + word + lines[i][pos:]
        else:
            junk = draw(st.binary(min_size=1, max_size=12))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
    return b"\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_fuzzed_hands_read_the_same(tmp_path_factory: pytest.TempPathFactory,
                                    data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_same(path, chunk_hands=2)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_many_fuzzed_hands_read_the_same(tmp_path_factory: pytest.TempPathFactory,
                                         data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_same(path, chunk_hands=2)


def _headers_line_by_line(piece: list[tuple[int, str]]) -> list[int]:
    return [k for k, (_, text) in enumerate(piece) if _HEADER_LINE.match(text)]


@needs_corpus
def test_a_file_s_hands_start_at_the_same_lines_found_a_piece_at_once() -> None:
    # the hands of a file start where the header pattern matches, line by line; the fast
    # reader finds them a piece at once and must find exactly those lines
    found = 0
    for path in [*REAL, *FIXTURES]:
        for piece in line_pieces(path):
            want = _headers_line_by_line(piece)
            assert bovada_fast.HEADER_LINES.starts(piece) == want, path.name
            found += len(want)
    assert found >= 1117


_HEADER_BITS = ["Bovada", "Bodog", "Bodog.com", "Ignition", "Ignition Casino", "Bodog UK",
                " Hand #", "Hand #", " Hand #12", "\ufeff", " ", "#", "7", "x", ": ", "\u00e9"]


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from(_HEADER_BITS), max_size=6).map("".join),
                      max_size=12))
def test_headers_found_a_piece_at_once_are_those_found_line_by_line(lines: list[str]) -> None:
    piece = list(enumerate(lines, start=1))
    assert bovada_fast.HEADER_LINES.starts(piece) == _headers_line_by_line(piece)


@pytest.mark.parametrize("path", [*FIXTURES[:3], *(p for p in REAL if p.stat().st_size > 50000)],
                         ids=lambda p: p.name)
def test_a_chunk_s_columns_are_the_same_built_from_lists_or_vectorised(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a small chunk builds its game, source and per-hand columns from Python lists, a big
    # one with Arrow and numpy: the tables are the same either way
    monkeypatch.setattr(bovada_fast, "_SMALL_CHUNK_ROWS", 1 << 30)
    as_lists = _chunks(path, fast=True, chunk_hands=50)
    monkeypatch.setattr(bovada_fast, "_SMALL_CHUNK_ROWS", 0)
    vectorised = _chunks(path, fast=True, chunk_hands=50)
    assert len(as_lists) == len(vectorised) >= 1
    for (a_table, a_lines, a_rej), (v_table, v_lines, v_rej) in zip(as_lists, vectorised,
                                                                      strict=True):
        assert a_table.num_rows > 0
        assert a_table.equals(v_table, check_metadata=True)
        assert a_table.to_pylist() == v_table.to_pylist()
        assert (a_lines, a_rej) == (v_lines, v_rej)
