"""Winamax's stud and draw hands on the Python fast path never change an import.

The fast path (`winamax._fast_hand`) reads 7-card stud (antes, the bring-in, a completion,
each street's `Dealt to` lines, the `??` cards filled from the seven shown, a negative raise)
and the draw games (`discard N cards`, `stands pat`, the hero's new cards) as the line parser
reads them; any line it does not follow exactly is left to the line parser, the single source
of truth. On the real stud and draw files, their fixtures and one-line changes to them, the
chunks equal those of the line parser alone, through the Python fast path and through the
compiled pass, at several chunk sizes. And it does read them itself: it cannot quietly hand
them all back.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import winamax
from tests.importers.compiled_pass import chunk_values
from tests.importers.test_site_fast_paths import FIXTURES, _corpus, assert_chunks_equal

SITES = FIXTURES["winamax"][0].parent
STUD = SITES / "wmx-stud-negative-raise.txt"
STUD_NO_CARDS = SITES / "wmx-stud-no-cards.txt"
DRAW = SITES / "wmx-triple-draw.txt"
CASES = [STUD, STUD_NO_CARDS, DRAW] + [
    p for p in _corpus("winamax") if p.parent.name in ("Stud", "Draw")]


def _chunks(path: Path, chunk_hands: int, **options: Any) -> list[Any]:
    return chunk_values(winamax.WinamaxImporter(chunk_hands, **options).read(path))


def assert_read_as_the_line_parser(path: Path, chunk_hands: int = 5000) -> None:
    want = _chunks(path, chunk_hands, fast=False)
    assert_chunks_equal(_chunks(path, chunk_hands, compiled=False), want)
    assert_chunks_equal(_chunks(path, chunk_hands, compiled_min_bytes=0), want)


@pytest.fixture
def fast_hands(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The hand id of each hand the fast path read from now on (None: left to the line
    parser)."""
    seen: list[str | None] = []
    real = winamax._fast_winamax

    def counting(block: list[tuple[int, str]], file_name: str) -> Any:
        hand = real(block, file_name)
        seen.append(None if hand is None else hand.hand_id)
        return hand

    monkeypatch.setattr(winamax, "_fast_winamax", counting)
    return seen


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
@pytest.mark.parametrize("chunk_hands", [5000, 1])
def test_real_stud_and_draw_files_read_as_the_line_parser_reads_them(
        path: Path, chunk_hands: int) -> None:
    assert_read_as_the_line_parser(path, chunk_hands)


def test_the_fast_path_reads_every_stud_and_draw_hand_of_the_fixtures_and_corpus(
        fast_hands: list[str | None]) -> None:
    for path in CASES:
        list(winamax.WinamaxImporter().read(path))
    assert len(fast_hands) == len(CASES) and None not in fast_hands, fast_hands
    assert {"wmx:9250793-1578-1479092164", "wmx:8835086-564-1465760198",
            "wmx:9160772-2-1476189756"} <= set(fast_hands)


def test_stud_and_draw_stay_off_the_compiled_pass(fast_hands: list[str | None]) -> None:
    # the kernel reads flop games only: these hands reach the Python fast path
    for path in (STUD, STUD_NO_CARDS, DRAW):
        list(winamax.WinamaxImporter(compiled_min_bytes=0).read(path))
    assert fast_hands == ["wmx:9250793-1578-1479092164", "wmx:8835086-564-1465760198",
                          "wmx:9160772-2-1476189756"]


_STUD_CHANGES: list[tuple[str, str]] = [
    ("Player0 raises -6.10€ to 18.90€", "Player0 raises -6.10€ to 17.90€"),
    ("Player0 raises -6.10€ to 18.90€", "Player0 raises 8.90€ to 18.90€"),
    ("Player0 raises -6.10€ to 18.90€", "Player0 calls 15€"),
    ("Player0 brings in 10€", "Player0 bring-in 10€"),
    ("Player0 brings in 10€", "Player0 brings in 10€ and is all-in"),
    ("Player0 brings in 10€\n", ""),
    ("Player1 raises 25€ to 25€", "Player1 raises 10€ to 20€"),
    ("Player1 raises 25€ to 25€", "Player1 raises 40€ to 50€"),
    ("Player1 raises 25€ to 25€", "Player1 completes 25€"),
    ("Player1 raises 25€ to 25€", "Player1 raises 25€ to 25€ and is all-in"),
    ("Hero folds", "Hero calls 10€"),
    ("Hero folds", "Hero: hello"),
    ("Hero folds", "Hero is sitting out"),
    ("*** 4th STREET ***", "*** 5th STREET ***"),
    ("*** 4th STREET ***", "*** FOURTH ***"),
    ("*** 3rd STREET ***", "*** PRE-FLOP ***"),
    ("*** 6th STREET ***", "*** FLOP *** [2c 3c 4c]"),
    ("Dealt to Player1 [X X Kc] [6d]", "Dealt to Player1 [X X Kc] [6d 7d]"),
    ("Dealt to Player1 [X X Kc] [6d]", "Dealt to Player1 [X X Kc] [X]"),
    ("Dealt to Player1 [X X Kc] [6d]\n", ""),
    ("Dealt to Player1 [X X Kc] [6d]", "Dealt to Nobody [X X Kc] [6d]"),
    ("Dealt to Player1 [X X Kc] [6d]", "Dealt to Player1 [X X Kc] [6z]"),
    ("Dealt to Hero [Kd 3s 9h]", "Dealt to Hero [Kd 3s]"),
    ("Dealt to Hero [Kd 3s 9h]\n", ""),
    ("Player1 calls 3.90€", "Player1 calls 3.90€\nDealt to Hero [Kd 3s 9h]"),
    ("Player1 shows [Jh 6h Kc 6d 7d 2d 9s] (One pair : 6)",
     "Player1 shows [Jh 6h Kc 6d 7d 2d] (One pair : 6)"),
    ("Player1 shows [Jh 6h Kc 6d 7d 2d 9s] (One pair : 6)", "Player1 mucks"),
    ("Player0 collected 70.30€ from pot\n", ""),
    ("Player0 collected 70.30€ from pot", "Player0 collected 90.30€ from pot"),
    ("*** SHOW DOWN ***\n", ""),
    ("Player0 posts ante 5€", "Player0 posts ante 5€ and is all-in"),
    ("Player0 posts ante 5€", "Player0 posts small blind 5€"),
    ("7-Card Stud fixed limit", "7-Card Stud no limit"),
    ("7-Card Stud fixed limit", "Razz fixed limit"),
    ("7-Card Stud fixed limit", "7stud8 fixed limit"),
    ("(5€/25€/50€)", "(25€/50€)"),
    ("6-max (real money)", "6-max (real money) Seat #3 is the button"),
    ("Seat 5: Hero (802.07€)", "Seat 5: Hero Two (802.07€)"),
]
# the hero's five cards dealt (a line the export does not hold)
_HERO_DEALT = ("Hero posts big blind 0.50\n",
               "Hero posts big blind 0.50\nDealt to Hero [2c 3d 4h 5s 7c]\n")
_DRAW_CHANGES: list[tuple[str, str] | tuple[tuple[str, str], tuple[str, str]]] = [
    ("Player0 discard 2 cards", "Player0 discards 2 cards [2c 3c]"),
    ("Player0 discard 2 cards", "Player0 discard 2 cards [2c]"),
    ("Player0 discard 2 cards", "Player0 stands pat"),
    ("Player0 discard 2 cards", "Player0 discard 0 card"),
    ("Player0 discard 2 cards", "Player0 discard 99 cards"),
    (_HERO_DEALT, ("Hero discard 2 cards\nPlayer4 discard 4",
                   "Hero discard 2 cards\nDealt to Hero [2c 3d 4h] [5s 8c]\nPlayer4 discard 4")),
    (_HERO_DEALT, ("Hero discard 2 cards\nPlayer4 discard 4",
                   "Hero discard 2 cards\nDealt to Hero [2c 3d 4h 5s] [8c]\nPlayer4 discard 4")),
    (_HERO_DEALT, ("Hero discard 2 cards\nPlayer4 discard 4",
                   "Hero discard 2 cards\nDealt to Hero [2c 3d 4h 8c 9c]\nPlayer4 discard 4")),
    (_HERO_DEALT, ("Player4 discard 4 cards\n",
                   "Player4 discard 4 cards\nDealt to Hero [2c 3d 4h] [5s 8c]\n")),
    (_HERO_DEALT, ("Player4 discard 2 cards\n",
                   "Player4 discard 2 cards\nDealt to Hero [2c 3d 4h] [5s 8c]\n")),
    (_HERO_DEALT, ("Player4 discard 2 cards\n",
                   "Player4 discard 2 cards\nDealt to Hero [2c 3d 4h] [5s 8c]\nHero checks\n")),
    ("Hero posts big blind 0.50\n", "Hero posts big blind 0.50\nDealt to Hero [2c 3d 4h 5s 7c]\n"),
    ("Hero posts big blind 0.50\n", "Hero posts big blind 0.50\nDealt to Hero [2c 3d 4h]\n"),
    ("*** FIRST-DRAW ***\n", ""),
    ("*** SECOND-BET ***", "*** SECOND-DRAW ***"),
    ("*** SECOND-BET ***", "*** 4th STREET ***"),
    ("Player2 raises 0.50 to 1", "Player2 raises 0.50 to 1 and is all-in"),
    ("Player2 raises 0.50 to 1", "Player2 brings in 1"),
    ("Player4 checks", "Player4 raises 0.50 to 1"),
    ("Lowball27 fixed limit", "2-7 Single Draw fixed limit"),
    ("Lowball27 fixed limit", "5 Card Draw pot limit"),
    ("Seat #4 is the button", "Seat #0 is the button"),
    ("Player4 shows [3s 2c 5s Ks 8c] (High card : King)", "Player4 mucks"),
    ("Player4 shows [3s 2c 5s Ks 8c] (High card : King)", "Player4 mucks [3s 2c 5s Ks 8c]"),
    ("Player2 collected 12.15 from pot", "Player2 collected 13.15 from pot"),
    ("Player0 posts small blind 0.25", "Player0 posts small blind 0.25 out of position"),
]


def _steps(change: Any) -> list[tuple[str, str]]:
    return list(change) if isinstance(change[0], tuple) else [change]


@pytest.mark.parametrize(("path", "steps"),
                         [(STUD, _steps(c)) for c in _STUD_CHANGES]
                         + [(DRAW, _steps(c)) for c in _DRAW_CHANGES])
def test_changed_stud_and_draw_lines_read_as_the_line_parser_reads_them(
        tmp_path: Path, path: Path, steps: list[tuple[str, str]]) -> None:
    text = changed_text = path.read_text(encoding="utf-8")
    for old, new in steps:
        assert old in changed_text
        changed_text = changed_text.replace(old, new, 1)
    changed = tmp_path / "x.txt"
    changed.write_text(changed_text + "\n" + text, encoding="utf-8")
    assert_read_as_the_line_parser(changed)
    assert_read_as_the_line_parser(changed, chunk_hands=1)


def test_a_play_money_stud_hand_without_cards_is_dealt_from_the_showdown(
        fast_hands: list[str | None]) -> None:
    # no `Dealt to` line at all: each street's cards are the ones shown, in the order dealt;
    # the player who folds on 5th street (he shows nothing) is dealt `??` up to that street's
    # card, and nothing after it
    chunks = list(winamax.WinamaxImporter(compiled=False).read(STUD_NO_CARDS))
    assert fast_hands == ["wmx:8835086-564-1465760198"]
    rows = chunks[0].table.to_pylist()
    deals = [(r["player"], r["detail"], r["cards"]) for r in rows if r["kind"] == "deal"]
    assert deals[:6] == [("Player0", "down", "8h Ac"), ("Player0", "up", "7d"),
                         ("Player1", "down", "?? ??"), ("Player1", "up", "??"),
                         ("Player2", "down", "4h Kd"), ("Player2", "up", "5h")]
    assert deals[-2:] == [("Player0", "down", "6s"), ("Player2", "down", "2d")]
    assert [r["player"] for r in rows if r["kind"] == "deal" and r["detail"] == "up"].count(
        "Player1") == 3


_WORDS = [b"brings in ", b"bring-in ", b"completes ", b"raises -", b" to ", b"calls ",
          b"Dealt to ", b"Dealt to Hero ", b" [X]", b"[X X ", b"X ", b"] [", b"*** ",
          b"*** 3rd STREET ***", b"*** 5th STREET ***", b"*** THIRD ***",
          b"*** FIRST-DRAW ***", b"*** SECOND-BET ***", b"discard ", b" cards", b" card",
          b"stands pat", b" [2c 3c]", b"shows [", b"mucks", b"folds", b"posts ante ",
          b" and is all-in", b"\xe2\x82\xac", b"-", b".", b" ", b"Seat #2 is the button",
          b"Razz", b"7stud8", b"Lowball27", b"5 Card Draw", b"Player0 ", b"Hero "]


@st.composite
def _changed(draw: st.DrawFn) -> bytes:
    lines = draw(st.sampled_from(CASES)).read_bytes().split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "word", "truncate",
                                   "digits"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":  # two lines change places
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "digits":
            big = draw(st.sampled_from([b"0", b"99999999999999999999", b"0.001", b"7", b"3"]))
            lines[i] = re.sub(rb"\d+", big, lines[i], count=1)
        else:
            word = draw(st.sampled_from(_WORDS))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + word + lines[i][pos:]
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_changed())
def test_fuzzed_stud_and_draw_hands_read_as_the_line_parser_reads_them(
        tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_read_as_the_line_parser(path, chunk_hands=2)


def test_no_hand_of_the_corpus_or_the_fixtures_is_left_to_the_line_parser(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the compiled pass reads the flop games, the fast path the rest (stud, draw, a cp1252
    # file): the line parser, slowest, is left the hands neither follows -- none of these
    parsed: list[str] = []
    real = winamax._map_winamax

    def counting(block: list[tuple[int, str]], file_name: str) -> Any:
        parsed.append(f"{file_name}: {block[0][1][:60]}")
        return real(block, file_name)

    monkeypatch.setattr(winamax, "_map_winamax", counting)
    paths = FIXTURES["winamax"] + _corpus("winamax")
    hands = sum(chunk.table.column("kind").to_pylist().count("hand_started")
                for path in paths for chunk in winamax.WinamaxImporter().read(path))
    assert hands >= len(paths) and parsed == []
