"""The site-text readers read a file a piece at a time and never read it differently.

`sitetext.iter_lines` / `split_blocks` decode and split about a MiB of whole lines at once
instead of line by line. What a reader sees must stay exactly what the per-line reading gave:
the same line numbers, the same text (UTF-8, cp1252 for bytes that are not UTF-8, UTF-16, a
byte-order mark and trailing space stripped), the same excerpt and reason for a line over the
line limit, the same hand blocks, excerpts and reasons for a hand over the hand limit. The
per-line reading is kept below as the rule (`bounded_lines` + `decode_line`, one line at a
time) and compared on the real files of the corpus, the fixtures, and random bytes with tiny
limits and tiny pieces.

The hand builder's shortcuts (a header clock read without strptime, a line's player found as
its first word, the awards settled in one pass) are checked against the rule they stand for.

The Bovada and Winning readers are checked against golden digests of what they make of every
file of their corpus folders (events with their sources, row lines, rejections), chunked as
shipped and two hands a chunk. A change that is meant to change an import regenerates them:

    PYTHONPATH=$PWD python tests/importers/test_sitetext_reading.py --regenerate

and says in its commit why the events changed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import itertools
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import sitetext
from audit.importers.base import (
    Overlong,
    ReadLimits,
    bounded_lines,
    over_line_limit,
    read_limits,
    using_limits,
)
from audit.importers.bovada import _HEADER as _BOVADA_HEADER
from audit.importers.bovada import BovadaImporter, _local_time
from audit.importers.fulltilt import _FRAMING
from audit.importers.partypoker import _Split
from audit.importers.winning import WinningImporter

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "data" / "fpdb-dev"
SITES = ROOT / "fixtures" / "sites"
GOLDEN = Path(__file__).parent / "golden" / "bovada_winning_events.json"
TEXT_FOLDERS = ("bovada", "winning", "ggpoker", "winamax", "pacific", "ftp", "partypoker")
needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="fpdb-dev corpus not present")


def _corpus_files(*folders: str) -> list[Path]:
    return [p for folder in folders for p in sorted((CORPUS / folder).rglob("*"))
            if p.is_file() and p.name != "README.md"]


# --- the rule: one line at a time ---------------------------------------------------------

def lines_one_by_one(path: Path) -> Iterator[tuple[int, str]]:
    """The per-line reading: each line read within the line limit, then decoded alone."""
    with path.open("rb") as raw_file:
        encoding = sitetext.utf16_encoding(raw_file.read(512))
        raw_file.seek(0)
        f: Any = raw_file
        if encoding:
            f = io.BufferedReader(sitetext._Utf16AsUtf8(raw_file, encoding))
        for number, raw in enumerate(bounded_lines(f), start=1):
            if isinstance(raw, Overlong):
                line = sitetext.UnreadLine(raw.text())
                line.reason = over_line_limit(number, raw.size)
                yield number, line
                continue
            yield number, sitetext.decode_line(raw)


def blocks_one_by_one(path: Path, is_header: Any, skip: Any = None
                      ) -> Iterator[tuple[bool, list[tuple[int, str]], str]]:
    """The per-line block split: a block at each header, an excerpt past the hand limit."""
    limit = read_limits().hand_bytes
    block: list[tuple[int, str]] = []
    is_hand, size, unread = False, 0, ""
    for number, text in lines_one_by_one(path):
        if skip is not None and skip.match(text):
            continue
        if is_header.match(text):
            if block:
                yield is_hand, block, unread or sitetext._too_big(block, size, limit)
            block, size, unread, is_hand = [], 0, "", True
        if isinstance(text, sitetext.UnreadLine):
            unread = unread or text.reason
        size += len(text) + sitetext._PER_LINE_COST
        if size <= limit:
            block.append((number, text))
    if block:
        yield is_hand, block, unread or sitetext._too_big(block, size, limit)


def _seen(lines: Any) -> list[tuple[int, str, str]]:
    """Lines with what tells an unread one (its reason)."""
    return [(n, str(t), getattr(t, "reason", "")) for n, t in lines]


def _seen_blocks(blocks: Any) -> list[tuple[bool, list[tuple[int, str, str]], str]]:
    return [(is_hand, _seen(block), unread) for is_hand, block, unread in blocks]


# --- real files and fixtures --------------------------------------------------------------

@needs_corpus
@pytest.mark.parametrize("folder", TEXT_FOLDERS)
def test_every_real_file_reads_line_for_line_as_one_line_at_a_time(folder: str) -> None:
    for path in _corpus_files(folder):
        assert _seen(sitetext.iter_lines(path)) == _seen(lines_one_by_one(path)), path


def test_every_site_fixture_reads_line_for_line_as_one_line_at_a_time() -> None:
    for path in sorted(SITES.iterdir()):
        assert _seen(sitetext.iter_lines(path)) == _seen(lines_one_by_one(path)), path


@needs_corpus
def test_the_hands_of_a_real_file_split_as_one_line_at_a_time_with_small_limits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # small pieces cut lines and hands anywhere; small limits make excerpts of long hands
    monkeypatch.setattr(sitetext, "_PIECE_BYTES", 333)
    header = re.compile(r"^(?:Bovada|Bodog|Ignition)\S* Hand #")
    for path in _corpus_files("bovada")[:6]:
        for hand_bytes in (200, 2000, 32 << 20):
            with using_limits(ReadLimits(line_bytes=90, hand_bytes=hand_bytes)):
                assert _seen_blocks(sitetext.split_blocks(path, header)) == \
                    _seen_blocks(blocks_one_by_one(path, header)), (path, hand_bytes)


# --- random bytes -------------------------------------------------------------------------

_PIECES = [b"a", b"\n", b"\r\n", b"\r", b" ", b"\x0b", b"\x00", b"\xe2", b"\x82", b"\xac",
           b"\xe2\x82\xac", b"\xff", b"\xfe", b"\xef\xbb\xbf", b"\xc2\x85", b"\xe2\x80\xa8",
           b"x framing\n", b"Hand #1 starts\n", b"#Game No : 7\n", b"Game #8 starts.\n",
           b"Seat 1: someone ($5 in chips)\n", "caf\u00e9 \u20ac1,50\n".encode("cp1252")]
_HEADER = re.compile(r"^(?:Hand #\d|Game #\d)")
_SKIP = re.compile(r"^x")


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join),
       utf16=st.sampled_from([None, "utf-16", "utf-16-le"]),
       piece=st.sampled_from([1, 2, 5, 64, 1 << 20]),
       line_bytes=st.sampled_from([1, 3, 8, 40, 1 << 20]),
       hand_bytes=st.sampled_from([1, 70, 150, 1 << 20]),
       splitter=st.sampled_from(["regex", "regex+skip", "party", "party+framing"]))
def test_random_bytes_read_and_split_as_one_line_at_a_time(
        tmp_path_factory: pytest.TempPathFactory, data: bytes, utf16: str | None, piece: int,
        line_bytes: int, hand_bytes: int, splitter: str) -> None:
    if utf16:  # text written as UTF-16 (the stray bytes decoded as they come)
        data = data.decode("utf-8", errors="replace").encode(utf16) + data[:1]
    path = tmp_path_factory.mktemp("bytes") / "hands.txt"
    path.write_bytes(data)

    def split(reader: Any) -> Any:
        header: Any = _HEADER if splitter.startswith("regex") else _Split()  # _Split keeps state
        skip = _SKIP if splitter == "regex+skip" else _FRAMING if "framing" in splitter else None
        return _seen_blocks(reader(path, header, skip))

    old_piece = sitetext._PIECE_BYTES
    sitetext._PIECE_BYTES = piece
    try:
        with using_limits(ReadLimits(line_bytes=line_bytes, hand_bytes=hand_bytes)):
            assert _seen(sitetext.iter_lines(path)) == _seen(lines_one_by_one(path))
            assert split(sitetext.split_blocks) == split(blocks_one_by_one)
    finally:
        sitetext._PIECE_BYTES = old_piece


def test_a_line_over_the_limit_is_skipped_to_its_end_and_the_next_line_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sitetext, "_PIECE_BYTES", 4)
    path = tmp_path / "long.txt"
    path.write_bytes(b"ok\n" + b"y" * 50 + b"\nnext\nlast")
    with using_limits(ReadLimits(line_bytes=10)):
        lines = _seen(sitetext.iter_lines(path))
    assert lines[0] == (1, "ok", "")
    assert lines[1][:2] == (2, "yyyyyyyyyyy... [40 more bytes of this line not read]")
    assert lines[1][2].startswith("line 2 is 51 bytes, over the limit of 10 bytes")
    assert lines[2:] == [(3, "next", ""), (4, "last", "")]


# --- the hand builder's shortcuts, against the rule they stand for -------------------------

_CLOCK_FIELDS = ["0", "00", "1", "01", "07", "9", "12", "13", "23", "24", "29", "30", "31", "32",
                 "59", "60", "61", "99", "007", "\u0661"]


def _strptime(stamp: str, fmt: str) -> dt.datetime | str:
    try:
        return dt.datetime.strptime(stamp, fmt)
    except ValueError:
        return "invalid"


def _or_invalid(read: Any, stamp: str) -> dt.datetime | str:
    try:
        return read(stamp)  # type: ignore[no-any-return]
    except ValueError:
        return "invalid"


def test_a_header_clock_reads_as_strptime_reads_it() -> None:
    # every field value strptime treats apart: one or two digits, out of range, leap seconds,
    # three digits, another script's digits
    for year in ("2016", "0000", "201"):
        for month, day, hour, minute, second in itertools.product(
                _CLOCK_FIELDS, _CLOCK_FIELDS, ["0", "9", "23", "24"], ["5", "59", "60"],
                ["0", "60", "61"]):
            stamp = f"{year}/{month}/{day} {hour}:{minute}:{second}"
            assert _or_invalid(sitetext._site_clock, stamp) == \
                _strptime(stamp, "%Y/%m/%d %H:%M:%S"), stamp
            dashed = f"{year}-{month}-{day} {hour}:{minute}:{second}"
            if _BOVADA_HEADER.match(f"Bovada Hand #1: TBL#2 HOLDEM No Limit - {dashed}"):
                assert _or_invalid(_local_time, dashed) == \
                    _strptime(dashed, "%Y-%m-%d %H:%M:%S"), dashed


def _longest_name_first(names: list[str], text: str) -> tuple[str, str] | None:
    for name in sorted(names, key=len, reverse=True):
        if text.startswith(name) and (len(text) == len(name) or text[len(name)] in " :"):
            return name, text[len(name):].lstrip(" ")
    return None


_NAME_BITS = st.sampled_from(["a", "b", "ab", " ", ":", "x y", "\u00e9", "\t", "1"])


@settings(max_examples=500, deadline=None)
@given(names=st.lists(st.lists(_NAME_BITS, max_size=3).map("".join), max_size=5, unique=True),
       text=st.lists(_NAME_BITS, max_size=8).map("".join))
def test_a_line_names_the_longest_seated_name_it_starts_with(names: list[str], text: str
                                                              ) -> None:
    h = sitetext.SiteHand(fmt="f", file_name="x.txt", hand_id="h", table_id=None)
    for seat, name in enumerate(names, start=1):
        h.add_seat(seat, seat, name, 100, False)
    assert h.split_name(text) == _longest_name_first(names, text)


@settings(max_examples=500, deadline=None)
@given(rows=st.lists(st.tuples(
    st.sampled_from(["award", "rake", "hand_ended", "bet", "deal"]),
    st.sampled_from([None, "main", "side-1", "side-2", "side1/high@2", "uncalled"])),
    max_size=12))
def test_awards_settle_after_the_play_pot_by_pot_then_the_rake_then_the_end(
        rows: list[tuple[str, str | None]]) -> None:
    h = sitetext.SiteHand(fmt="f", file_name="x.txt", hand_id="h", table_id=None)
    for line, (kind, detail) in enumerate(rows, start=1):
        h.emit(line, kind, detail=detail)
    before = list(h.rows)
    order: list[str] = []
    for r in before:
        if r["kind"] == "award" and sitetext.pot_of(r["detail"]) not in order:
            order.append(sitetext.pot_of(r["detail"]))

    def rank(r: dict[str, Any]) -> tuple[int, int]:  # the order a stable sort gives
        return ((2, 0) if r["kind"] == "hand_ended" else (1, 1 + len(order))
                if r["kind"] == "rake" else (1, order.index(sitetext.pot_of(r["detail"])))
                if r["kind"] == "award" else (0, 0))

    want = sorted(before, key=rank)
    h.settle_awards_last()
    assert [r["source"] for r in h.rows] == [r["source"] for r in want]
    assert h.lines == [int(r["source"].rsplit(":", 1)[1]) for r in want]
    assert [r["seq"] for r in h.rows] == list(range(len(rows)))


# --- the readers' events, golden ----------------------------------------------------------

def _digest(importer: Any, path: Path) -> str:
    chunks = []
    for chunk in importer.read(path):
        chunks.append({
            "rows": chunk.table.to_pylist(), "lines": chunk.lines,
            "rejected": [(Path(r.source).name, r.line, r.hand_id, r.reason, r.raw)
                         for r in chunk.rejected]})
    text = json.dumps(chunks, default=str, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def _digests() -> dict[str, str]:
    out = {}
    for folder, make in (("bovada", BovadaImporter), ("winning", WinningImporter)):
        for path in _corpus_files(folder):
            rel = path.relative_to(CORPUS).as_posix()
            out[rel] = _digest(make(), path)
            out[f"{rel} (2 hands a chunk)"] = _digest(make(2), path)
    return out


@needs_corpus
@pytest.mark.slow
def test_bovada_and_winning_read_every_corpus_file_as_the_golden_digests_say() -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = _digests()
    assert sorted(got) == sorted(want)
    changed = [name for name in want if got[name] != want[name]]
    assert not changed, changed


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(_digests(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
