"""Merge's compiled pass never changes an import.

The compiled pass (merge_kernel, numba; merge_compiled) reads the hold'em, Omaha, stud and
draw hands of a plain file straight from its bytes and leaves every hand it does not fully
understand to the Python fast path and the XML reader, the single source of truth (held to
each other by test_import_merge_fast.py). On the real fpdb-dev files, the fixtures, odd
layouts and encodings, descriptions and text between hands and randomly corrupted files, the
chunks it gives equal those of the Python paths alone, value for value and chunk by chunk, at
several chunk sizes (events with their sources, schema, row lines, quarantine). Its pieces
read as the XML reader's do: the hands' first lines, amounts, cards. And it does read the
common hands itself: it cannot quietly hand everything back.
"""

from __future__ import annotations

import codecs
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import merge, merge_compiled
from audit.importers.sitetext import SiteHandError
from tests.importers.compiled_pass import chunk_values, count_own_kernel_hands
from tests.importers.sitecheck import SITES, mutated
from tests.importers.test_import_merge_fast import _CHATS, _PAID, PLAIN
from tests.importers.test_site_fast_paths import _corpus, assert_chunks_equal

FIXTURES = sorted(SITES.glob("merge-*.txt"))
CASES = FIXTURES + [p for p in _corpus("merge") if p.stat().st_size]
HORSE = SITES / "merge-horse-razz-balance.txt"


def assert_compiled_same(path: Path, chunk_hands: int = 5000) -> list[Any]:
    chunks = list(merge.MergeImporter(chunk_hands).read(path))
    for chunk in chunks:
        chunk.table.validate(full=True)
    values = chunk_values(chunks)
    assert_chunks_equal(values, chunk_values(
        merge.MergeImporter(chunk_hands, compiled=False).read(path)))
    return values


@pytest.fixture
def kernel_hands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(hands the kernel read, hands it was given) of each file read through it."""
    return count_own_kernel_hands(monkeypatch, merge_compiled, ok_at=2)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
@pytest.mark.parametrize("chunk_hands", [5000, 2, 1])
def test_every_real_and_fixture_file_reads_as_the_python_paths_read_it(
        path: Path, chunk_hands: int) -> None:
    assert_compiled_same(path, chunk_hands)


def test_the_kernel_reads_the_common_hands_of_the_corpus_itself(
        kernel_hands: list[tuple[int, int]]) -> None:
    if not _corpus("merge"):
        pytest.skip("fpdb-dev corpus not present")
    for path in _corpus("merge"):
        list(merge.MergeImporter().read(path))
    read, given = map(sum, zip(*kernel_hands, strict=True))
    # today 103 of 105: a cancelled game and a player acting from no seat line are the
    # Python paths'
    assert given >= 100 and read >= 101, (read, given)


def test_the_fixtures_common_hands_are_read_by_the_kernel(
        kernel_hands: list[tuple[int, int]]) -> None:
    # raise-to and chips-added raises, the balance logged after the posts, razz with an
    # all-in before the last street, HORSE (hold'em, Omaha, razz, stud), triple draws
    for name in ("merge-raise-to.txt", "merge-raise-added.txt",
                 "merge-balance-after-posts.txt", "merge-razz-allin.txt",
                 "merge-horse-razz-balance.txt", "merge-27-triple-draw.txt",
                 "merge-a5-triple-draw.txt"):
        list(merge.MergeImporter().read(SITES / name))
    assert [read == given > 0 for read, given in kernel_hands] == [True] * 7, kernel_hands


def test_without_the_compiled_pass_nothing_reaches_the_kernel(
        kernel_hands: list[tuple[int, int]]) -> None:
    list(merge.MergeImporter(compiled=False).read(PLAIN))
    list(merge.MergeImporter(fast=False).read(PLAIN))
    assert kernel_hands == []


def _two_games() -> str:
    """The hold'em fixture, then the HORSE fixture (its own description first)."""
    return PLAIN.read_text(encoding="utf-8") + "\n" + HORSE.read_text(encoding="utf-8")


@pytest.mark.parametrize("layout", [
    "crlf", "bom", "utf16", "latin1", "junk-between", "junk-after", "xml-line", "blank-lines",
    "description-between", "no-end", "end-with-more", "nbsp", "indented-game", "game-nbsp",
    "tab-game", "cr-in-line", "two-ends"])
def test_layouts_encodings_and_text_between_hands(tmp_path: Path, layout: str) -> None:
    text = _two_games()
    first_end = text.index("</game>") + len("</game>")
    data = {
        "crlf": text.replace("\n", "\r\n").encode(),
        "bom": codecs.BOM_UTF8 + text.encode(),
        "utf16": text.encode("utf-16"),
        "latin1": text.replace('nickname="', 'nickname="Jos\u00e9', 1).encode("latin-1"),
        "junk-between": (text[:first_end] + "\njunk between\n" + text[first_end:]).encode(),
        "junk-after": (text + "\ntrailing junk").encode(),
        "xml-line": ('<?xml version="1.0"?>\n' + text).encode(),
        "blank-lines": ("\n \n" + text.replace("</game>", "</game>\n\n\t\n")).encode(),
        # the second hold'em hand read with the stud description (it says its own game)
        "description-between": (text[:first_end] + '\n<description type="Razz" '
                                'stakes="Limit $0.25/$0.50"/>\n' + text[:first_end]).encode(),
        "no-end": text.replace("</game>", "", 1).encode(),
        "end-with-more": text.replace("</game>", "</game> <x/>", 1).encode(),
        "nbsp": text.replace("</round>", "</round>\u00a0", 1).encode(),
        "indented-game": text.replace("\n<game", "\n  <game").encode(),
        "game-nbsp": text.replace("<game id", "<game\u00a0id", 1).encode(),
        "tab-game": text.replace("<game id", "<game\tid", 1).encode(),
        "cr-in-line": text.replace("</round>", "</round>\r", 2).encode(),
        "two-ends": text.replace("</game>", "</game></game>", 1).encode(),
    }[layout]
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    for size in (5000, 2, 1):
        assert_compiled_same(path, size)


@pytest.mark.parametrize("chat", sorted(_CHATS))
def test_a_chat_line_reads_as_the_python_paths_read_it(tmp_path: Path, chat: str) -> None:
    hand = PLAIN.read_text(encoding="utf-8")
    line = f"\t\t{_CHATS[chat]}\n"
    text = hand.replace('\t\t<event sequence="1"', line + '\t\t<event sequence="1"', 1)
    path = tmp_path / "chat.txt"
    path.write_text(text, encoding="utf-8")
    assert_compiled_same(path)


@pytest.mark.parametrize("paid", sorted(_PAID))
def test_awards_paid_out_of_place_read_as_the_python_paths_read_them(
        tmp_path: Path, paid: str, kernel_hands: list[tuple[int, int]]) -> None:
    old, new = _PAID[paid]
    path = tmp_path / "paid.txt"
    path.write_text(PLAIN.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert_compiled_same(path)
    assert kernel_hands == [(1, 1)]


def test_a_large_file_reads_as_the_python_paths_read_it(
        tmp_path: Path, kernel_hands: list[tuple[int, int]]) -> None:
    # 200 hands in one file (its card area over the scratch size kept: the file's own)
    path = tmp_path / "large.txt"
    path.write_text((_two_games() + "\n") * 100, encoding="utf-8")
    values = assert_compiled_same(path, 150)
    assert len(values) == 2 and kernel_hands == [(200, 200)]


# one line of the hold'em fixture changed: each a hand the kernel reads or hands back
_EDITS = {
    "no clock": (r' timestamp="[0-9]+"', ""),
    "other start": (r'starttime="[0-9]+"', 'starttime="2011/09/08 01:07:04 +0200"'),
    "play money": (r'realmoney="true"', 'realmoney="false"'),
    "equals in data": (r'data="', 'data="a=b|'),
    "chips fraction": (r'realmoney="true"', 'realmoney="false" amount="1.5"'),
    "seat zero": (r'seat="1"', 'seat="0"'),
    "seat twice": (r'seat="2"', 'seat="1"'),
    "no nickname": (r'nickname="[^"]*"', 'nickname=""'),
    "seat name": (r'nickname="[^"]*"', 'nickname="seat 9"'),
    "sitting out": (r'dealtin="true"', 'dealtin="false"'),
    "entity": (r'nickname="', 'nickname="a&amp;'),
    "euro": (r'amount="([0-9])', r'amount="€\1'),
    "comma": (r'amount="([0-9])', r'amount="1,\1'),
    "finer": (r'amount="([0-9.]+)"', r'amount="\g<1>1"'),
    "odd cards": (r'cards="[^"]*"', 'cards="10h,null,?,xx, As "'),
    "bad card": (r'cards="[^"]*"', 'cards="Zz"'),
    "description stakes": (r'stakes="[^"]*"', 'stakes="Pot Limit"'),
    "no stakes": (r' stakes="[^"]*"', ""),
    "limit": (r'stakes="[^"]*"', 'stakes="Limit $0.50/$1"'),
    "ante": (r'stakes="[^"]*"', 'stakes="No Limit Blinds $0.25/$0.50 Ante $0.05"'),
    "described blinds": (r'stakes="No Limit \(\$1/\$2\)"', 'stakes="No Limit ($2/$4)"'),
    "no structure": (r'type="Holdem" stakes="[^"]*"', 'type="Razz" stakes="($1/$2)"'),
    "holes": (r'numholecards="[0-9]+"', 'numholecards="4"'),
    "seats": (r'realmoney=', 'seats="6" realmoney='),
    "dealer": (r'dealer="[0-9]+"', 'dealer="-1"'),
    "unknown event": (r'type="FOLD"', 'type="STAND_UP"'),
    "note": (r'type="FOLD"', 'type="DISCONNECTED"'),
    "all-in": (r'type="CALL"', 'type="ALL_IN"'),
    "all-in no amount": (r'type="CALL"([^/]*) amount="[^"]*"', r'type="ALL_IN"\1'),
    "second big blind": (r'type="CHECK"', 'type="BIG_BLIND" amount="0.50"'),
    "unseated": (r'player="2"', 'player="9"'),
    "stray round": (r'round id="POSTFLOP"', 'round id="FIRST_DRAW"'),
}


@pytest.mark.parametrize("edit", sorted(_EDITS))
@pytest.mark.parametrize("count", [1, 0])
def test_a_changed_hand_reads_as_the_python_paths_read_it(tmp_path: Path, edit: str,
                                                          count: int) -> None:
    pattern, repl = _EDITS[edit]
    text = PLAIN.read_text(encoding="utf-8")
    changed = re.sub(pattern, repl, text, count=count)
    assert changed != text
    path = tmp_path / "edit.txt"
    path.write_text(text + "\n" + changed, encoding="utf-8")
    assert_compiled_same(path)
    assert_compiled_same(path, 1)


DRAW = SITES / "merge-27-triple-draw.txt"
_FIRST_DRAW = '<event sequence="9" type="DRAW" timestamp="1297907815265" player="0" text="0"/>'
_DRAWN = '<cards type="DRAW_DRAWN_CARDS" cards="9c,6s,8s,7h,4s" player="0" hand="9-8-7-6-4"/>'
# one draw of the triple-draw fixture changed (the hero's first: he stands pat)
_DRAW_EDITS = {
    "two known": (_FIRST_DRAW.replace('text="0"', 'text="2"'),
                  _DRAWN.replace("8s,7h", "2d,3h")),
    "count off": (_FIRST_DRAW.replace('text="0"', 'text="1"'),
                  _DRAWN.replace("8s,7h", "2d,3h")),
    "unknown now": (_FIRST_DRAW.replace('text="0"', 'text="2"'),
                    _DRAWN.replace("8s,7h", "??,3h")),
    "no cards after": (_FIRST_DRAW.replace('text="0"', 'text="2"'), ""),
    "many": (_FIRST_DRAW.replace('text="0"', 'text="99"'), _DRAWN),
    "not digits": (_FIRST_DRAW.replace('text="0"', 'text="x"'), _DRAWN),
    "no text": (_FIRST_DRAW.replace(' text="0"', ""), _DRAWN),
    "amount": (_FIRST_DRAW.replace(' text="0"', ' amount="1"'), _DRAWN),
    "fold": (_FIRST_DRAW.replace('type="DRAW"', 'type="FOLD"').replace(' text="0"', ""),
             _DRAWN),
    "check": (_FIRST_DRAW.replace('type="DRAW"', 'type="CHECK"').replace(' text="0"', ""),
              _DRAWN),
    "note": (_FIRST_DRAW.replace('type="DRAW"', 'type="TIMEOUT"').replace(' text="0"', ""),
             _DRAWN),
    "chat": (_FIRST_DRAW.replace('type="DRAW"', 'type="CHAT"').replace('text="0"', 'text="gl"'),
             _DRAWN),
    "unseated": (_FIRST_DRAW.replace('player="0"', 'player="7"'), _DRAWN),
    "bad card": (_FIRST_DRAW, _DRAWN.replace("8s", "8x")),
}


@pytest.mark.parametrize("edit", sorted(_DRAW_EDITS))
def test_a_changed_draw_reads_as_the_xml_reader_reads_it(tmp_path: Path, edit: str) -> None:
    text = DRAW.read_text(encoding="utf-8")
    event, drawn = _DRAW_EDITS[edit]
    changed = text.replace(_FIRST_DRAW, event, 1).replace(_DRAWN, drawn, 1)
    assert changed != text or edit == "bad card"
    path = tmp_path / "draw.txt"
    path.write_text(text + "\n" + changed, encoding="utf-8")
    assert_compiled_same(path)
    assert_compiled_same(path, 1)


_GAME_LINES = ["<game id=\"1\">", "<game>", "\t<game id=\"2\">", "<game\tid=\"2\">",
               "<games>", "<gamer id=\"3\">", "x <game id=\"4\">", "</game>", "",
               "<game id=\"5\"></game>", "\t<round id=\"PREFLOP\">", "<game"]


def test_the_hands_first_lines_and_ends_are_the_read_loops() -> None:
    k = merge_compiled.KERNEL.get()
    text = merge_compiled.TEXT.get()
    assert k is not None and text is not None
    raw = ("\n".join(_GAME_LINES) + "\n").encode()
    data = np.frombuffer(bytearray(raw), dtype=np.uint8)
    n = len(_GAME_LINES)
    begin, lo, hi = (np.empty(n, np.int64) for _ in range(3))
    odd = np.empty(n, np.bool_)
    text.lines_of(data, begin, lo, hi, odd)
    kind = np.empty(n, np.int8)
    end_of = np.empty(n, np.int64)
    assert k.layout(data, begin, lo, hi, odd, kind, end_of) == 5
    assert [i for i in range(n) if kind[i] == 1] == [
        i for i, t in enumerate(_GAME_LINES) if merge._GAME_LINE.match(t)]
    # a body ends on the first line holding `</game>` (the game line itself, or none)
    assert [int(end_of[i]) for i in range(n) if kind[i] == 1] == [-1, -1, -1, 7, 9]


AMOUNTS = ["0.25", "$0.25", "1,000", "$1,000.50", "1.5", "1.05", "1.005", "1.050", "1.0",
           "1.", ".5", "", "$", "€5", "-5", "+5", "1e5", " 5", "5 ", "1,,0", ",5",
           "999999999999999", "9999999999999999", "0", "00", "1.2.3"]


@pytest.mark.parametrize("text", AMOUNTS)
def test_an_amount_is_read_as_the_xml_reader_reads_it(text: str) -> None:
    from audit.importers import merge_kernel

    data = np.frombuffer(bytearray(text.encode()), dtype=np.uint8)
    value, fraction, good = merge_kernel._amount(data, 0, len(data))
    try:
        want: int | None = merge._Money(100)._read(text, 1)
    except SiteHandError:
        want = None
    if good:  # an amount the kernel reads is the reader's, value for value
        assert value == want
        assert fraction == bool(merge._FRACTION.search(text))
    else:  # left to the Python paths: a sign, a space, an exponent, another currency
        assert want is None or not re.fullmatch(r"\$?[0-9,]*[0-9][0-9,]*(\.[0-9]+)?", text) \
            or Decimal(text.lstrip("$").replace(",", "")) >= 10 ** 15


@pytest.mark.parametrize("text", [
    "Ah,2s", " Ah , 2s ", "10h,Td", "ah,KH", "null,?,??,X,xx", "", " ", ",", "Ah,,2s", "Ahh",
    "Zz", "1h", "10", "A", "Åh", "Ah 2s", "Xh"])
def test_cards_are_read_as_the_xml_reader_reads_them(text: str) -> None:
    from audit.importers import merge_kernel

    data = np.frombuffer(bytearray(text.encode()), dtype=np.uint8)
    out = np.empty((64, 2), np.uint8)
    n = merge_kernel._parse_cards(data, 0, len(data), out)
    try:
        want: list[str] | None = merge._cards(text, "x")
    except SiteHandError:
        want = None
    if n >= 0:
        assert [bytes(out[k]).decode() for k in range(n)] == want
    else:
        assert want is None or "Å" in text


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(data=mutated(CASES))
def test_fuzzed_files_read_as_the_python_paths_read_them(
        tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_compiled_same(path, chunk_hands=2)
