"""Winning Poker Network's newer format (`Hand #N - ...`): its fast path never changes an
import.

`winning_new.fast_new` reads the newer format's common hands straight into event rows and
gives every other hand back to the line parser (`winning._New`), the single source of truth.
Each case below is a fixture hand changed in one way the room writes (or one way a log goes
wrong): the reader gives the chunks the line parser alone gives, value for value (events with
their sources, row lines, quarantine), and the fast path reads the hand itself when it should
(and not when it should not).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers import winning
from audit.importers.columns import EventColumns
from audit.importers.sitetext import split_blocks, uncalled_split
from tests.importers.test_site_fast_paths_888_winning import assert_reads_as_the_line_parser
from tests.importers.test_winning_compiled import assert_compiled_same

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
CASH, TOURNEY, WALK = (SITES / f"wpn-new-{name}.txt" for name in ("cash", "tourney", "walk"))


def _taken(path: Path) -> list[bool]:
    """Whether the fast path (either format's) read each hand of `path` itself."""
    return [winning._fast_winning(block, path.name, EventColumns())
            for is_hand, block, _ in split_blocks(path, winning.IMPORTER.header()) if is_hand]


CASES = [
    # as written: a fold to a raise (its uncalled bet logged), a tournament with antes and
    # running pots, a walk (no uncalled-bet line: split off the collection)
    (CASH, (), True),
    (TOURNEY, (), True),
    (WALK, (), True),
    # the collection logged in the body (the summary's `won` is not a second award)
    (CASH, ("Player3 does not show\n", "Player3 collected $0.25 from pot\n"), True),
    (CASH, ("Player3 does not show\n", "Player3 collected $0.25 from main pot\n"), True),
    # a showdown: shows and mucks, cards known and not
    (CASH, ("Player3 does not show\n", "Player3 shows [Ah Kd] (a pair)\nHero mucks\n"), True),
    (CASH, ("Player3 does not show\n", "Player3 mucks [Ah Kd]\n"), True),
    # rake, jackpot and pots in the total line
    (CASH, ("Total pot $0.25\n", "Total pot $0.25 | Rake $0.02 | JP Fee $0.01\n"), True),
    (CASH, ("Total pot $0.25\n", "Total pot $0.25 | Main pot $0.20 | Side pot-1 $0.05\n"),
     True),
    # fixed limit; euros; a straddle, a dead blind, both blinds at once, a second small blind
    (CASH, ("Holdem(No Limit)", "Holdem(Fixed Limit)"), True),
    (CASH, ("$0.05/$0.10", "€0.05/€0.10"), True),
    (CASH, ("Hero posts the big blind $0.10\n", "Hero posts the big blind $0.10\nPlayer2 "
            "posts straddle $0.20\n"), True),
    (CASH, ("Hero posts the big blind $0.10\n", "Hero posts the big blind $0.10\nPlayer2 "
            "posts dead blind $0.05\nPlayer4 posts small & big blinds $0.15\n"), True),
    (CASH, ("Hero posts the big blind $0.10\n", "Hero posts the big blind $0.10\nPlayer2 "
            "posts the small blind $0.05\nPlayer4 posts the big blind $0.10\n"), True),
    # an all-in, a call of the whole stack, a raise to less than already in
    (CASH, ("Player3 raises $0.22 to $0.22\n", "Player3 raises $13.82 to $13.82 and is "
            "all-in\n"), True),
    (CASH, ("Player3 raises $0.22 to $0.22\n", "Player3 bets $13.82\n"), True),
    (CASH, ("Player3 raises $0.22 to $0.22\n", "Player3 raises $0.22\n"), False),
    (CASH, ("Hero folds\n", "Hero raises $0.05 to $0.05\n"), False),
    # notes, chat, a status line, someone not seated joining, sitting out
    (CASH, ("Player4 folds\n", "Player4 is disconnected\nPlayer4: gl all\nPlayer4 has "
            "returned\nBob joins the table\nPlayer4 folds\n"), True),
    (CASH, ("Seat 6: Player4 ($13.59)\n", "Seat 6: Player4 ($13.59) is sitting out\n"), True),
    # a name with a space (the line parser's longest-name reading), a line it does not know,
    # an action before the hole cards, a second hole-cards line, a second total line
    (CASH, ("Player3", "Player 3"), False),
    (CASH, ("Player2 folds\n", "Player2 wiggles\n"), False),
    (CASH, ("*** HOLE CARDS ***\n", "Player2 folds\n*** HOLE CARDS ***\n"), False),
    (CASH, ("Player2 folds\n", "Player2 folds\n*** HOLE CARDS ***\n"), False),
    (CASH, ("Total pot $0.25\n", "Total pot $0.25\nTotal pot $0.25\n"), False),
    # a hand cut short (no summary), a player not seated acting, an uncalled bet to no one
    (CASH, ("*** SUMMARY ***\n", "Player3 shows [Ah Kd]\n"), False),
    (CASH, ("Player2 folds\n", "Ghost folds\n"), False),
    (CASH, ("returned to Player3\n", "returned to Ghost\n"), False),
    # the walk's collection holds less than the uncalled part: the return stays implicit
    (WALK, ("won $9.00", "won $1.00"), True),
    # a board, streets (the walk split on the last round chips went in)
    (TOURNEY, ("Uncalled bet (30954.00) returned to Hero\n", ""), True),
]


@pytest.mark.parametrize(("fixture", "change", "fast"), CASES)
def test_a_newer_format_hand_reads_as_the_line_parser_reads_it(
        fixture: Path, change: tuple[str, str], fast: bool, tmp_path: Path) -> None:
    text = fixture.read_text(encoding="utf-8")
    if change:
        assert change[0] in text
        text = text.replace(change[0], change[1])
    path = tmp_path / fixture.name
    path.write_text(text, encoding="utf-8")
    assert _taken(path) == [fast]
    assert_reads_as_the_line_parser("winning", path)
    for chunk_hands in (5000, 1):
        assert_compiled_same(path, chunk_hands)


def test_two_hands_of_each_format_in_one_file_read_as_the_line_parser_reads_them(
        tmp_path: Path) -> None:
    old = (SITES / "wpn-six-plus.txt").read_text(encoding="utf-8")
    text = CASH.read_text(encoding="utf-8") + "\n" + old + "\n" + WALK.read_text(
        encoding="utf-8") + "\n" + old
    path = tmp_path / "mixed.txt"
    path.write_text(text, encoding="utf-8")
    assert _taken(path) == [True, True, True, True]
    for chunk_hands in (5000, 2, 1):
        assert_compiled_same(path, chunk_hands)


@pytest.mark.parametrize("layout", ["utf-8-sig", "utf-16", "utf-16-le", "odd-utf16", "crlf",
                                    "boms", "junk", "nbsp", "repeated-odd-utf16"])
def test_the_newer_format_in_odd_encodings_and_layouts(tmp_path: Path, layout: str) -> None:
    text = "\n".join(p.read_text(encoding="utf-8").rstrip("\n") for p in (CASH, TOURNEY, WALK))
    text += "\n"
    path = tmp_path / "x.txt"
    if layout == "odd-utf16":  # a stray odd last byte
        path.write_bytes(text.encode("utf-16") + b"\x00")
    elif layout == "repeated-odd-utf16":
        path.write_bytes((text.encode("utf-16") + b"\x00") * 2)
    elif layout == "crlf":
        path.write_bytes(text.replace("\n", " \r\n").encode())
    elif layout == "boms":
        path.write_bytes(text.replace("\nHand #", "\n\ufeffHand #").encode("utf-8-sig"))
    elif layout == "junk":
        path.write_bytes(("junk line\n\n" + text + "\n\ntrailing").encode())
    elif layout == "nbsp":
        path.write_bytes(text.replace("\n", "\u00a0\n", 20).encode())
    else:
        path.write_bytes(text.encode(layout))
    for chunk_hands in (5000, 2, 1):
        assert_compiled_same(path, chunk_hands)


def test_the_uncalled_part_of_the_last_bet_comes_off_the_bettors_awards_first_to_last() -> None:
    # seat 2 put 500 in the last round, seat 5 matched 200: 300 was never called. Seat 2's
    # awards (main 250, side 100) give it back in their order; seat 5's award is not touched.
    split = uncalled_split({2: 500, 5: 200}, [(2, 250), (5, 40), (2, 100)])
    assert split is not None
    assert (split.seat, split.refund, split.amounts, split.first) == (2, 300, (0, 40, 50), 0)


def test_a_called_bet_leaves_no_uncalled_part_and_a_short_collection_keeps_it_implicit() -> None:
    called = uncalled_split({2: 200, 5: 200}, [(2, 400)])
    assert called is not None and called.refund == 0 and called.amounts == (400,)
    nothing_in = uncalled_split({}, [(2, 400)])
    assert nothing_in is not None and nothing_in.refund == 0
    # a walk: the big blind's 10 uncalled, but his collection holds 6 -> None (implicit)
    assert uncalled_split({3: 10}, [(3, 6)]) is None
    # the awards of another seat never pay the bettor's refund
    assert uncalled_split({3: 10}, [(4, 100), (3, 6)]) is None
