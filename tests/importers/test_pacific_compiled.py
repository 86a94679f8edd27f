"""888poker's compiled pass never changes an import.

The compiled pass reads the common hands straight from a file's bytes (pacific_kernel, numba)
and leaves every hand it does not fully understand to the Python fast path and the line
parser, the single source of truth. On the real fpdb-dev files, the fixtures, odd encodings
and randomly corrupted hands, the chunks it gives equal those of the line parser alone, value
for value and chunk by chunk, at several chunk sizes (events with their sources, schema, row
lines, quarantine). Its pieces read as the line parser's do: hand headers, amounts, cards.
And it does read the common hands itself: it cannot quietly hand everything back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import pacific, pacific_compiled
from audit.importers.sitetext import SiteHandError, read_site_text, site_money
from tests.importers.compiled_pass import chunk_values, count_kernel_hands
from tests.importers.sitecheck import SITES, mutated
from tests.importers.test_site_fast_paths import _corpus, assert_chunks_equal

FIXTURES = sorted(SITES.glob("888-*.txt"))
CASES = FIXTURES + [p for p in _corpus("pacific") if p.stat().st_size]


def _line_parser(path: Path, chunk_hands: int) -> list[Any]:
    reader = pacific.PacificImporter(chunk_hands)
    return chunk_values(read_site_text(path, fmt="pacific", header=reader.header(),
                                  chunk_hands=chunk_hands, map_hand=pacific._map_888,
                                  hand_id_of=pacific._hand_id_of))


def assert_compiled_same(path: Path, chunk_hands: int = 5000) -> None:
    chunks = list(pacific.PacificImporter(chunk_hands).read(path))
    for chunk in chunks:
        chunk.table.validate(full=True)
    assert_chunks_equal(chunk_values(chunks), _line_parser(path, chunk_hands))


@pytest.fixture
def kernel_hands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(hands the kernel read, hands it was given) of each file read through it."""
    return count_kernel_hands(monkeypatch, pacific_compiled)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
@pytest.mark.parametrize("chunk_hands", [5000, 2, 1])
def test_every_real_and_fixture_file_reads_as_the_line_parser_reads_it(
        path: Path, chunk_hands: int) -> None:
    assert_compiled_same(path, chunk_hands)


def test_the_kernel_reads_the_common_hands_of_the_corpus_itself(
        kernel_hands: list[tuple[int, int]]) -> None:
    if not _corpus("pacific"):
        pytest.skip("fpdb-dev corpus not present")
    for path in _corpus("pacific"):
        list(pacific.PacificImporter().read(path))
    read, given = map(sum, zip(*kernel_hands, strict=True))
    # today 75 of 75 (cp1252 and Latin-1 files too: read as the reader decodes them)
    assert given >= 70 and read >= 0.9 * given, (read, given)


def test_the_fixtures_plain_hands_are_read_by_the_kernel(
        kernel_hands: list[tuple[int, int]]) -> None:
    # a dead blind, fixed limit, a tournament's dead button, no pot awarded, an observed hand
    # (no `Dealing down cards` line; Latin-1), dot and space digit groups with the symbol
    # after, Swedish cards, Spanish suits (cp1252)
    for name in ("888-dead-blind.txt", "888-fixed-limit.txt", "888-mtt-dead-button.txt",
                 "888-no-pot-awarded.txt", "888-observed.txt", "888-ro-dot-groups.txt",
                 "888-space-groups-no-date.txt", "888-swedish-cards.txt",
                 "888-spanish-suits-cp1252.txt"):
        list(pacific.PacificImporter().read(SITES / name))
    assert [read == given > 0 for read, given in kernel_hands] == [True] * 9, kernel_hands


def test_without_the_compiled_pass_nothing_reaches_the_kernel(
        kernel_hands: list[tuple[int, int]]) -> None:
    list(pacific.PacificImporter(compiled=False).read(SITES / "888-fixed-limit.txt"))
    assert kernel_hands == []


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp1252", "utf-16", "crlf", "junk",
                                      "nbsp", "nbsp-later", "not-utf8-header", "blank-head",
                                      "indented-header"])
def test_encodings_line_ends_and_text_outside_hands(tmp_path: Path, encoding: str) -> None:
    text = (SITES / "888-fixed-limit.txt").read_text(encoding="utf-8")
    text = text + "\n\n" + text.replace("Hero", "Hérö")
    path = tmp_path / "x.txt"
    if encoding == "crlf":
        path.write_bytes(text.replace("\n", " \r\n").encode())
    elif encoding == "junk":
        path.write_bytes(("junk line\n\n" + text + "\n\ntrailing").encode())
    elif encoding == "nbsp":  # a Unicode space str.strip() removes, the kernel never reads
        path.write_bytes(text.replace("\n", "\u00a0\n", 3).encode())
    elif encoding == "nbsp-later":  # after the first hand's header: still one file's hands
        path.write_bytes(text.replace("*****\n", "*****\u00a0\n", 1).encode())
    elif encoding == "not-utf8-header":  # a cp1252 byte ends a room line of the second hand
        path.write_bytes(text.encode().replace(b" *****\n", b" *****\x80\n").replace(
            b" *****\x80\n", b" *****\n", 1))
    elif encoding == "blank-head":
        path.write_bytes(("\n \n" + text).encode())
    elif encoding == "indented-header":  # no header at a line's start: one hand, not two
        path.write_bytes(text.replace("\n#Game No", "\n #Game No").encode())
    else:
        path.write_bytes(text.encode(encoding))
    assert_compiled_same(path)
    assert_compiled_same(path, chunk_hands=1)


@pytest.mark.parametrize("line", [
    "#Game No : 12", "#Game No: 12", "#Game No :12", "#Game No:12", "#Game No  : 12",
    "#Game No : ", "#Game No : 12x", " #Game No : 12",
    "***** 888poker Hand History for Game 12 *****", "***** 888poker Hand History For Game 12*****",
    "*****Cassava Hand History for Game 12 *****", "***** Hand History for Game 12 *****",
    "***** 888.ro Hand History for Game 12  *****", "***** 888 Hand History for Game 12 ******",
    "***** a*b Hand History for Game 12 *****", "*****  Hand History for Game 12 *****",
    "***** x  Hand History for Game 12 *****", "***** 888poker Hand History for Game *****",
    "** Dealing down cards **", "", "Seat 1 is the button"])
def test_a_hand_starts_where_the_line_parser_starts_it(line: str) -> None:
    # each line alone, after a `#Game No` line, and after a blank line after one
    k = pacific_compiled.KERNEL.get()
    assert k is not None
    for before in ([], ["#Game No : 12"], ["#Game No : 12", "  "], ["x"]):
        lines = [*before, line]
        raw = ("\n".join(lines) + "\n").encode()
        data = np.frombuffer(bytearray(raw), dtype=np.uint8)
        n = len(lines)
        begin, lo, hi = (np.empty(n, np.int64) for _ in range(3))
        odd = np.empty(n, np.bool_)
        text = pacific_compiled.TEXT.get()
        assert text is not None
        text.lines_of(data, begin, lo, hi, odd)
        out = np.empty(n, np.bool_)
        assert k.header_lines(data, begin, lo, hi, odd, out) == 0
        header = pacific._Header()
        assert out.tolist() == [header.match(t) for t in lines], lines


AMOUNTS = ["$0.02", "$1,855", "1,855", "$1,855.25", "15 788,50 $", "1.183.764 $", "25 000",
           "222,75$", "5$", "$ 5", "5 $ ", "€15", "15 €", "£3.5", "0", "05", "1,5", "1,00",
           "1.2.3", "1,2345", "1,,5", ",5", "5,", "5$5", "5USD", "$$5$", "1\u00a0000",
           "1\u202f000,5", "999999999999999", "9999999999999999", "0.001", "1.000.5", "",
           "$", "12 ,5", "1e5", "-5", "+5", "1\t000"]


@pytest.mark.parametrize("text", AMOUNTS)
@pytest.mark.parametrize("mpu", [1, 100])
def test_an_amount_is_read_as_the_line_parser_reads_it(text: str, mpu: int) -> None:
    from audit.importers import pacific_kernel

    raw = text.encode()
    data = np.frombuffer(bytearray(raw), dtype=np.uint8)
    good, value = pacific_kernel._amount(data, 0, len(data), mpu)
    try:
        want: int | None = site_money(text, mpu, 1, pacific.amount_888)
    except SiteHandError:
        want = None
    if good:  # an amount the kernel reads is the line parser's, value for value
        assert value == want
    else:  # left to the Python paths: a currency code, a tab, more than 15 digits
        assert want is None or text in ("5USD", "1\t000") or abs(want) >= 10 ** 15


@pytest.mark.parametrize("text", [
    " Ah, 2s ", "Ah,2s", "Tc, Knh, 9h, 9c", "Ec, Knd, 4c, Kh", "Dd", "10h, 1s", "ah, KH",
    " ", "Ahh", "Xh", "A", "Kn", "kn", "Ah 2s", "Ah,, 2s", "Ah\t2s", "Åh", "7p, 8t, Kc, 2d",
    "10P, AT"])
@pytest.mark.parametrize("spanish", [False, True])
def test_cards_are_written_as_the_line_parser_writes_them(text: str, spanish: bool) -> None:
    from audit.importers import pacific_kernel

    raw = text.encode()
    data = np.frombuffer(bytearray(raw + bytes(len(raw) + 8)), dtype=np.uint8)
    end = pacific_kernel._cards(data, 0, len(raw), len(raw), spanish)
    try:
        want: str | None = pacific.cards_888(text, "cards", spanish)
    except SiteHandError:
        want = None
    if end >= 0:
        assert bytes(data[len(raw):end]).decode() == want
    else:
        assert want is None or "\t" in text


@pytest.mark.parametrize("line", [
    "Dealt to Hero [ 7p, 8t ]", "Dealt to Hero [ 7s, 8c ]", "x [10t]", "x [A7p]", "x [7p_]",
    "x [7pt]", "x [ 7p", "x ] 7p", "x [ ] 7p", "[Kp,", "[é 7p]", "[ 7p ] [ 2c ]", "7p [2]",
    "x [a_7p]", "x [7P]", "[ 5\u00a0000 $ ]", "[15 €]", "[ é7p ]", "[7pé]", "[€7p]"])
def test_spanish_suits_are_told_as_the_line_parser_tells_them(line: str) -> None:
    from audit.importers import pacific_kernel

    data = np.frombuffer(bytearray(line.encode()), dtype=np.uint8)
    got = pacific_kernel._spanish(data, 0, len(data))
    if got >= 0:
        assert bool(got) == bool(pacific._SPANISH.search(line))
    else:  # not told: a non-ASCII character next to `7p`
        assert line in ("[é 7p]", "[ é7p ]", "[7pé]", "[€7p]")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(data=mutated(CASES))
def test_fuzzed_files_read_as_the_line_parser_reads_them(
        tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_compiled_same(path, chunk_hands=2)
