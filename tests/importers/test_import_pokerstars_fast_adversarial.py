"""Hands built to break the compiled PokerStars fast path (audit/importers/pokerstars/kernel.py),
read the same.

Each case here is a hand reduced from a differential search (mutated real hands: odd names,
amounts, line ends, extra lines) where the fast path and the line parser once disagreed, or a
shape next to one; the fast path must read it value for value as the parser does, or hand it
to the parser. A seeded sweep of such mutations closes the file.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from audit.importers.pokerstars.fast import read_fast
from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.importers.pokerstars.reader import _ChunkBuilder

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars"
HAND = (FIXTURES / "nlhe-two-hands.txt").read_text(encoding="utf-8").split("\n\n\n")[0]


def _read(path: Path, *, fast: bool, stats: dict[str, int]) -> list[Any]:
    chunks = (read_fast(path, _ChunkBuilder(path, 1), stats, min_bytes=0) if fast
              else PokerStarsImporter(1, fast=False).read(path))
    return [(c.table.to_pylist(), c.lines,
             [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in c.rejected])
            for c in chunks]


def assert_same(path: Path, data: bytes) -> dict[str, int]:
    """The fast path's chunks of `data` (chunks of one hand) equal the parser's; its stats."""
    path.write_bytes(data)
    stats: dict[str, int] = {}
    got = _read(path, fast=True, stats=stats)
    assert "failed_pieces" not in stats, stats
    assert got == _read(path, fast=False, stats={})
    return stats


def _with_lines(added: list[str], before: str = "Gles65: folds") -> str:
    lines = HAND.split("\n")
    at = lines.index(before)
    return "\n".join(lines[:at] + added + lines[at:])


@pytest.mark.parametrize("line", [
    "Gles65: calls $999,999,999,999,999", "Gles65: bets $999999999999999",
    "Gles65: posts big blind $999999999999999"])
def test_money_lines_adding_up_past_64_bits_are_the_parser_s(tmp_path: Path, line: str) -> None:
    # each amount fits 64 bits, a hundred of them do not: the parser quarantines the hand
    # (its round total does not fit the schema); the fast path's int64 sums once wrapped and
    # read it as a hand
    stats = assert_same(tmp_path / "big.txt", _with_lines([line] * 100).encode())
    assert stats == {"hands": 1, "fast": 0}
    rejected = _read(tmp_path / "big.txt", fast=False, stats={})[0][2]
    assert "64 bits" in rejected[0][3]


def test_money_lines_just_inside_64_bits_stay_fast(tmp_path: Path) -> None:
    stats = assert_same(tmp_path / "fits.txt",
                        _with_lines(["Gles65: calls $999,999,999,999,999"] * 3).encode())
    assert stats == {"hands": 1, "fast": 1}


def _giant_then_two(filler: list[str], tail: list[str], at: str = "Gles65: folds") -> bytes:
    """A hand with `filler` lines and then `tail` before its line `at`, then the same hand
    twice more under new ids (a piece holds whole hands up to the last header it read, so
    the giant hand and the next one share a piece)."""
    lines = HAND.split("\n")
    k = lines.index(at)
    giant = "\n".join(lines[:k] + filler + tail + lines[k:])
    again = [HAND.replace("#35824118297", f"#3582411829{d}") for d in (8, 9)]
    return "\n\n\n".join([giant, *again]).encode() + b"\n"


@pytest.mark.slow
def test_a_hand_of_a_million_lines_leaves_the_next_hand_s_streets_alone(tmp_path: Path) -> None:
    # the giant hand's flop sits at its line 2**20 + 10: with 20 bits for the line in the
    # street keys it counted as a board at line 10 of the next hand, between the small blind
    # (line 6) and that player's raise (line 13), whose chips put in came out 0.30, not 0.25
    k = HAND.split("\n").index("Gles65: folds")
    data = _giant_then_two(["x"] * ((1 << 20) + 10 - k), ["*** FLOP *** [Ah Kd Qs]"])
    stats = assert_same(tmp_path / "giant.txt", data)
    assert stats == {"hands": 3, "fast": 2}  # the giant hand (unreadable lines): the parser's


@pytest.mark.slow
def test_a_readable_hand_of_a_million_lines_is_the_parser_s(tmp_path: Path) -> None:
    # rows are put in order by keys with 20 bits for the line in the hand: the rows of a
    # fast hand past its line 2**20 sorted after the next hand's
    data = _giant_then_two(["Gles65: checks"] * ((1 << 20) + 50), [])
    stats = assert_same(tmp_path / "giant.txt", data)
    assert stats == {"hands": 3, "fast": 2}


@pytest.mark.parametrize(("parts", "fast"), [(2047, 1), (6200, 0)])
def test_a_total_line_of_thousands_of_fees_reads_the_same(tmp_path: Path, parts: int,
                                                          fast: int) -> None:
    # rows are ordered by keys with 12 bits for their place in the line (sub + 2048): from
    # some 6,000 '| Rake' parts on, the rake rows sorted out of order
    total = "Total pot $0.20 | Rake $0"
    line = total + "".join(f" | Rake ${k % 10}" for k in range(parts - 1))
    stats = assert_same(tmp_path / "fees.txt", HAND.replace(total, line).encode())
    assert stats == {"hands": 1, "fast": fast}


@pytest.mark.parametrize(("date", "fast"), [("9999/12/31 23:30:00 ET", 1),
                                            ("9999/12/31 18:59:59 ET", 2),
                                            ("9999/12/31 23:30:00 AEST", 2)])
def test_a_time_at_the_end_of_datetime_s_range_reads_the_same(tmp_path: Path, date: str,
                                                              fast: int) -> None:
    # an ET hour of 9999/12/31 from 19:00 on is past datetime's range in UTC: the fast
    # path's OverflowError failed the whole piece (every hand in it left to the parser, and
    # a warning) where only that hand is the parser's
    odd = HAND.replace("2009/11/25 6:21:05 ET", date)
    other = HAND.replace("#35824118297", "#35824118298")
    stats = assert_same(tmp_path / "late.txt", f"{odd}\n\n\n{other}\n".encode())
    assert stats == {"hands": 2, "fast": fast}


@pytest.mark.parametrize("header", [
    "PokerStars Game #35824118297:  Hold'em No Limit ($99999999999999999999/$100000000000000000000"
    " USD) - 2009/11/25 6:21:05 ET",
    "PokerStars Game #35824118297:  Hold'em No Limit ($92233720368547758.07/$92233720368547758.08"
    " USD) - 2009/11/25 6:21:05 ET",
    "PokerStars Game #35824118297: Tournament #297808375, $1.00+$0.25+$0.15 USD Hold'em No Limit"
    " - Level I (99999999999999999999/99999999999999999999) - 2009/11/25 6:21:05 ET"])
def test_stakes_past_64_bits_make_only_their_hand_the_parser_s(tmp_path: Path,
                                                               header: str) -> None:
    # the stakes went into an Int64 frame of games: a ComputeError failed the whole piece
    odd = "\n".join([header, *HAND.split("\n")[1:]])
    other = HAND.replace("#35824118297", "#35824118298")
    stats = assert_same(tmp_path / "stakes.txt", f"{odd}\n\n\n{other}\n".encode())
    assert stats == {"hands": 2, "fast": 1}


# the sweep: names, amounts and lines a byte-level reader may get wrong
_NAMES = ["é", "Hérö", "中文玩家", "😀x", "a: b", "x collected y", 'q said, "z', "Seat 3", "[br]",
          "x and is all-in", "tr ", "Hero2", "hero", "HERO", "ero", "a (b", "a)b", "Dealt to x",
          "*** x", "x: folds", "Uncalled bet (", "n\tt", "a\xa0b", "x is sitting out",
          "x has timed out", "x wins the ", "x  y", "A", "$5", "x mucked [Ah]", "x from pot"]
_AMOUNTS = ["$1,000", "€2.25", "£2", "$.5", "$0.5", "$999999999999999", "$1000000000000000",
            "$1,0", "$,1", "$1.", "$1.234", "1", "$0", "$00.10", "$1 000", "$١", "$01"]
_LINE_ENDS = ["\r", "\t", " ", "\xa0", "\u3000", "\x1c", "\x85", "\u2028", "\x0b", "\x00"]
_EXTRA = ["", "Seat 9: Ghost mucked [Ah Kd]", "Seat 1: {n} mucked [Xx Yy]", "{n}: shows [Ah]",
          "Dealt to {n} [Ah Kd Qs]", "{n} collected $0 from pot", "{n}: raises $2 to $1",
          "Uncalled bet ($0) returned to {n}", '{n} said, "hi: "', "*** HOLE CARDS ***",
          "*** FLOP *** [Ah Kd Qs]", "\ufeffx", "{n}: sits out", "{n} collected $1 from side pot-1",
          "Board [Ah Kd Qs]", "Total pot $1 | Rake $0", "{n} has timed out", "{n}: mucks hand"]


def _mutated(rng: random.Random, hand: str) -> str:
    for _ in range(rng.randint(1, 2)):
        names = re.findall(r"^Seat \d+: (.+?) \(\$?[\d.,]+ in chips\)", hand, re.M)
        lines = hand.split("\n")
        k = rng.randrange(2, len(lines))
        op = rng.choice(["name", "name", "near", "amount", "end", "extra", "move"])
        if op in ("name", "near") and names:
            old = rng.choice(names)
            new = rng.choice(_NAMES) if op == "name" else rng.choice(
                [old[:-1] or "x", old + "x", old.swapcase(), old + " ", rng.choice(names)])
            hand = re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", lambda _, new=new: new, hand)
            continue
        if op == "amount":
            found = list(re.finditer(r"[$€£]?\d[\d,]*(?:\.\d+)?", lines[k]))
            if found:
                m = rng.choice(found)
                lines[k] = lines[k][: m.start()] + rng.choice(_AMOUNTS) + lines[k][m.end() :]
        elif op == "end":
            lines[k] += rng.choice(_LINE_ENDS)
        elif op == "extra":
            lines.insert(k, rng.choice(_EXTRA).replace("{n}", rng.choice(names or ["x"])))
        else:
            lines.insert(rng.randrange(2, len(lines)), lines.pop(k))
        hand = "\n".join(lines)
    return hand


@pytest.mark.slow
def test_a_seeded_sweep_of_mutated_hands_reads_the_same(tmp_path: Path) -> None:
    hands = [hand.strip("\n") for path in (FIXTURES / "nlhe-two-hands.txt",
                                            FIXTURES / "omaha6-showdown.txt",
                                            FIXTURES / "6plus-holdem.txt")
             for hand in path.read_text(encoding="utf-8").split("\n\n\n") if hand.strip()]
    rng = random.Random(20261126)
    fast = total = 0
    for batch in range(6):
        mutated = [_mutated(rng, rng.choice(hands)) for _ in range(100)]
        try:
            stats = assert_same(tmp_path / f"{batch}.txt", "\n\n\n".join(mutated).encode())
        except AssertionError:  # name the hand that differs
            for number, hand in enumerate(mutated):
                assert_same(tmp_path / f"{batch}-{number}.txt", hand.encode())
            raise
        fast, total = fast + stats["fast"], total + stats["hands"]
    assert total == 600
    assert fast >= 90, fast  # the sweep reaches the fast path (108 of 600), not only the parser
