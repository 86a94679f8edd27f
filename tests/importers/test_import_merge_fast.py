"""Merge's fast path and read loop change no import.

The fast path (`merge_fast`) reads the common hands (button games and stud) from their lines
straight into event rows and hands every other hand back to the XML reader (`merge._map_text`),
the single source of truth. The read loop finds the hands' first lines a piece of lines at a
time (`merge._GameLines.starts`) and makes each chunk's table by one Arrow conversion of its
rows as tuples (`columns.EventColumns`). On the real fpdb-dev files, the fixtures, odd layouts
and encodings and randomly corrupted files, the chunks equal those of the XML reader alone
with each row's dict converted (`events_table`, as `ChunkWriter.take` does), value for value
and chunk by chunk, at chunk sizes 5000, 2 and 1 (events with their sources, schema, row
lines, quarantine); a hand whose value does not fit the schema is quarantined as before. And
the fast path does read the common hands itself: it cannot quietly hand everything back.
(The compiled pass is left out here: tests/importers/test_merge_compiled.py holds it to the
fast path.)
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import merge, merge_fast
from audit.importers.columns import EventColumns
from audit.importers.sitetext import split_blocks
from audit.schema import events_schema, events_table
from tests.importers.compiled_pass import chunk_values
from tests.importers.sitecheck import SITES, mutated
from tests.importers.test_site_fast_paths import _corpus, assert_chunks_equal

FIXTURES = sorted(SITES.glob("merge-*.txt"))
CASES = FIXTURES + [p for p in _corpus("merge") if p.stat().st_size]
PLAIN = SITES / "merge-raise-to.txt"
_SCHEMA = events_schema()


def _reference(path: Path, chunk_hands: int) -> list[Any]:
    """The chunks of the XML reader alone, each row's dict converted (`events_table`)."""
    real = merge._table

    def dicts(cols: EventColumns) -> pa.Table:
        return events_table([dict(zip(_SCHEMA.names, row[:13], strict=True))
                             for row in cols.rows])

    merge._table = dicts
    try:
        return chunk_values(merge.MergeImporter(chunk_hands, fast=False).read(path))
    finally:
        merge._table = real


def assert_same(path: Path, chunk_hands: int = 5000) -> list[Any]:
    chunks = list(merge.MergeImporter(chunk_hands, compiled=False).read(path))
    for chunk in chunks:
        chunk.table.validate(full=True)
    values = chunk_values(chunks)
    assert_chunks_equal(values, _reference(path, chunk_hands))
    return values


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
@pytest.mark.parametrize("chunk_hands", [5000, 2, 1])
def test_every_real_and_fixture_file_reads_as_before(path: Path, chunk_hands: int) -> None:
    assert_same(path, chunk_hands)


def _rows(values: list[Any]) -> list[dict[str, Any]]:
    """The event rows of chunk values, the source (it names the file) left out."""
    return [{k: v for k, v in row.items() if k != "source"}
            for _, rows, _, _ in values for row in rows]


@pytest.mark.parametrize("layout", ["crlf", "bom", "utf16-stray-byte", "utf16-be", "spaces"])
def test_odd_layouts_read_as_before_and_as_the_plain_file(tmp_path: Path, layout: str) -> None:
    data = PLAIN.read_bytes()
    text = data.decode("utf-8")
    odd = {"crlf": data.replace(b"\n", b"\r\n"),
           "bom": codecs.BOM_UTF8 + data,
           "utf16-stray-byte": text.encode("utf-16") + b"\x00",
           "utf16-be": codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
           "spaces": data.replace(b"\t", b"    ")}[layout]
    path = tmp_path / layout / PLAIN.name
    path.parent.mkdir()
    path.write_bytes(odd)
    for size in (5000, 1):
        values = assert_same(path, size)
        assert _rows(values) == _rows(_reference(PLAIN, size))
        assert [r for _, _, _, rejected in values for r in rejected] == []


def test_a_cp1252_name_reads_as_before(tmp_path: Path) -> None:
    path = tmp_path / "cp1252.txt"
    path.write_bytes(PLAIN.read_bytes().replace(b'nickname="', b'nickname="Jos\xe9', 1))
    values = assert_same(path, 1)
    assert any(row["player"] and row["player"].startswith("Jos\u00e9")
               for _, rows, _, _ in values for row in rows)


def test_a_value_past_64_bits_quarantines_its_hand_as_before(tmp_path: Path) -> None:
    # two hands: the second's first call is 10^20 dollars (no int64 holds its cents)
    hand = PLAIN.read_text(encoding="utf-8")
    big = re.sub(r'type="CALL"([^/]*)amount="[0-9.]+"', r'type="CALL"\1amount="1' + "0" * 20
                 + '"', hand, count=1)
    assert big != hand
    path = tmp_path / "big.txt"
    path.write_text(hand + big.replace('<game id="', '<game id="9', 1), encoding="utf-8")
    for size in (5000, 2, 1):
        values = assert_same(path, size)
        rejected = [r for _, _, _, rej in values for r in rej]
        assert [r[3][:39] for r in rejected] == ["a value does not fit the event schema ("]
        started = [row["hand_id"] for _, rows, _, _ in values for row in rows
                   if row["kind"] == "hand_started"]
        assert len(started) == 1 and rejected[0][2] != started[0]


# chat lines as the room writes them (by a name, with or without the clock) and as it might:
# by a seated player's number, by a number no seat line lists, by seat 0, a number with a
# leading zero or in other digits, escaped or empty text, a chat line's clock the hand's first
_CHATS = {
    "name": '<event sequence="3" type="CHAT" timestamp="1376855914000" player="Raygers1690" '
            'text="hi grl "/>',
    "no clock": '<event sequence="3" type="CHAT" player="Raygers1690" text="gl" />',
    "seated": '<event sequence="3" type="CHAT" timestamp="1376855914000" player="4" '
              'text="ty"/>',
    "unseated": '<event sequence="3" type="CHAT" timestamp="1376855914000" player="6" '
                'text="hey"/>',
    "seat 0": '<event sequence="3" type="CHAT" player="0" text="hi"/>',
    "leading zero": '<event sequence="3" type="CHAT" player="04" text="hi"/>',
    "other digits": '<event sequence="3" type="CHAT" player="\u0664" text="hi"/>',
    "escaped": '<event sequence="3" type="CHAT" player="Raygers1690" text="a &amp; b"/>',
    "empty": '<event sequence="3" type="CHAT" player="" text=""/>',
    "no text": '<event sequence="3" type="CHAT" player="Raygers1690"/>',
}
_CHAT_READ_FAST = {"name", "no clock", "seated", "empty"}


@pytest.mark.parametrize("chat", sorted(_CHATS))
def test_a_chat_line_reads_as_before(tmp_path: Path, chat: str,
                                     fast_hands: list[bool]) -> None:
    hand = PLAIN.read_text(encoding="utf-8")
    # one said first in the blinds (its clock the hand's first), one in the flop round
    line = f"\t\t{_CHATS[chat]}\n"
    text = hand.replace('\t\t<event sequence="1"', line + '\t\t<event sequence="1"', 1)
    text = text.replace('\t\t<cards type="COMMUNITY" cards="Ks,Tc,3c" hand=""/>',
                        '\t\t<cards type="COMMUNITY" cards="Ks,Tc,3c" hand=""/>\n' + line[:-1], 1)
    assert text.count("CHAT") == 2
    path = tmp_path / "chat.txt"
    path.write_text(text, encoding="utf-8")
    for size in (5000, 1):
        values = assert_same(path, size)
        said = [row for _, rows, _, _ in values for row in rows
                if (row["detail"] or "").startswith("said: ")]
        assert len(said) == 2 or chat in ("unseated", "leading zero", "other digits")
    assert fast_hands == [chat in _CHAT_READ_FAST] * 2, fast_hands


_WIN = '\t\t<winner amount="{a}" uncalled="{u}" potnumber="{n}" player="{p}" hand="" pottype="n"/>'
# the awards come after the play grouped by pot, wherever the log pays them: an uncalled bet
# paid back in the preflop round, pots paid out of order (a side pot, the main, the side)
_PAID = {
    "preflop": ('\t</round>\n\t<round id="POSTFLOP"',
                _WIN.format(a="2.00", u="true", n="0", p="4")
                + '\n\t</round>\n\t<round id="POSTFLOP"'),
    "pots": (_WIN.format(a="165.84", u="false", n="1", p="2"),
             "\n".join([_WIN.format(a="10.00", u="false", n="2", p="4"),
                        _WIN.format(a="155.84", u="false", n="1", p="2"),
                        _WIN.format(a="1.00", u="false", n="2", p="2")])),
}


@pytest.mark.parametrize("paid", sorted(_PAID))
def test_awards_paid_out_of_place_read_as_before(tmp_path: Path, paid: str,
                                                 fast_hands: list[bool]) -> None:
    old, new = _PAID[paid]
    hand = PLAIN.read_text(encoding="utf-8")
    assert hand.count(old) == 1
    path = tmp_path / "paid.txt"
    path.write_text(hand.replace(old, new), encoding="utf-8")
    for size in (5000, 1):
        values = assert_same(path, size)
        kinds = [row["kind"] for _, rows, _, _ in values for row in rows]
        assert kinds[-2] == "award" and "award" not in kinds[:kinds.index("award")] + [
            k for k in kinds[kinds.index("award"):-1] if k != "award"]
        assert [row["seq"] for _, rows, _, _ in values for row in rows] == list(
            range(len(kinds)))
    assert fast_hands == [True, True], fast_hands


_HEADERS = ["<game id=\"1-1\" starttime=\"20110908010704\">", "\ufeff<game id=\"x\">",
            "  \t<game>", "<game\tid=\"2\"", "<games>", "<gamer id=\"3\">", "x <game id=\"4\">",
            "</game>", "<!-- <game id=\"5\"> -->", "", "\t<round id=\"PREFLOP\">"]


def test_the_hands_first_lines_are_those_the_header_matches() -> None:
    piece = list(enumerate(_HEADERS, start=1))
    assert merge._GameLines.starts(piece) == [
        k for k, (_, text) in enumerate(piece) if merge._GAME_LINE.match(text)] == [0, 1, 2, 3]


@pytest.mark.parametrize("path", CASES[:3] + CASES[-3:], ids=lambda p: p.name)
def test_the_blocks_are_those_of_the_line_by_line_header(path: Path) -> None:
    assert list(split_blocks(path, merge._GAME_LINES)) == list(
        split_blocks(path, merge._GAME_LINE))


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(data=mutated(CASES))
def test_fuzzed_files_read_as_before(tmp_path_factory: pytest.TempPathFactory,
                                     data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_same(path, chunk_hands=2)


@pytest.fixture
def fast_hands(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the fast path read each hand it was given (the list fills as files are
    read)."""
    seen: list[bool] = []
    real = merge_fast.fast_hand

    def spy(*args: Any) -> Any:
        rows = real(*args)
        seen.append(rows is not None)
        return rows

    monkeypatch.setattr(merge_fast, "fast_hand", spy)
    return seen


def test_the_fast_path_reads_the_common_hands_of_the_corpus_itself(
        fast_hands: list[bool]) -> None:
    if not _corpus("merge"):
        pytest.skip("fpdb-dev corpus not present")
    for path in _corpus("merge"):
        list(merge.MergeImporter(compiled=False).read(path))
    # today 99 of 105: the draw games (a cancelled one among them) and a player acting from
    # no seat line are the XML reader's
    assert len(fast_hands) >= 100 and sum(fast_hands) >= 97, (sum(fast_hands), len(fast_hands))


def test_the_fixtures_common_hands_are_read_by_the_fast_path(fast_hands: list[bool]) -> None:
    # newer clients' raise-to totals, older clients' chips added, balances logged after the
    # forced bets (hold'em; razz in a HORSE tournament), a razz all-in shown before seventh
    # street
    for name in ("merge-raise-to.txt", "merge-raise-added.txt",
                 "merge-balance-after-posts.txt", "merge-horse-razz-balance.txt",
                 "merge-razz-allin.txt"):
        list(merge.MergeImporter(compiled=False).read(SITES / name))
    assert fast_hands == [True] * 5, fast_hands


@pytest.mark.parametrize("name", ["merge-player-not-in-preamble.txt", "merge-a5-triple-draw.txt",
                                  "merge-27-triple-draw.txt", "merge-cancelled.txt"])
def test_what_the_fast_path_does_not_read_is_the_xml_readers(
        fast_hands: list[bool], name: str) -> None:
    # a player acting from no seat line, draw games, a cancelled hand
    list(merge.MergeImporter(compiled=False).read(SITES / name))
    assert fast_hands and not any(fast_hands)
