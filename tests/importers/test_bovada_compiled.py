"""Bovada's compiled pass never changes an import.

The compiled pass reads the common button-game hands straight from a file's bytes
(bovada_kernel, numba) and leaves every hand it does not fully understand to the Python fast
path and the line parser, the single source of truth. On the real fpdb-dev files, the
fixtures, odd encodings and layouts and randomly corrupted hands, the chunks it gives equal
those of the line parser alone, value for value and chunk by chunk, at several chunk sizes
(events with their sources, schema, row lines, quarantine). And it does read the common hands
itself: it cannot quietly hand everything back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import bovada_compiled
from audit.importers.bovada import BovadaImporter
from tests.importers.compiled_pass import chunk_values, count_own_kernel_hands
from tests.importers.test_import_bovada_fast import FIXTURES, REAL, _mutated
from tests.importers.test_site_fast_paths import assert_chunks_equal

CASES = FIXTURES + [p for p in REAL if p.stat().st_size]
SITES = FIXTURES[0].parent


def _chunks(path: Path, chunk_hands: int, **options: Any) -> list[Any]:
    return chunk_values(BovadaImporter(chunk_hands, **options).read(path))


def assert_compiled_same(path: Path, chunk_hands: int = 5000) -> None:
    assert_chunks_equal(_chunks(path, chunk_hands), _chunks(path, chunk_hands, fast=False))


@pytest.fixture
def kernel_hands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(hands the kernel read, hands it was given) of each file read through it."""
    return count_own_kernel_hands(monkeypatch, bovada_compiled, ok_at=1)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
@pytest.mark.parametrize("chunk_hands", [5000, 2, 1])
def test_every_real_and_fixture_file_reads_as_the_line_parser_reads_it(
        path: Path, chunk_hands: int) -> None:
    assert_compiled_same(path, chunk_hands)


def test_the_kernel_reads_the_common_hands_of_the_corpus_itself(
        kernel_hands: list[tuple[int, int]]) -> None:
    if not REAL:
        pytest.skip("fpdb-dev corpus not present")
    for path in REAL:
        list(BovadaImporter().read(path))
    read, given = map(sum, zip(*kernel_hands, strict=True))
    # today 1,032 of 1,117: stud (45), streets the old logs do not write, dead chips, ...
    # are the Python fast path's and the line parser's
    assert given == 1117 and read >= 1030, (read, given)


@pytest.mark.parametrize(("name", "words"), [
    ("NLHE-9max-USD-MTT - $9.000 Guaranteed (DS) - $20-$2 - 201408.corrupted.lines.txt",
     "repeated_line: "),
    ("NLHE-6max-USD - $0.10-$0.25 - 202104.ZonePoker.txt", "shows_folded_hand"),
    ("LHE-USD-8-16-201204.old.format.txt", ";button=the empty seat before the small blind"),
    ("LHE-USD-8-16-201204.old.format.txt", "sits_down"),
    ("LHE-USD-8-16-201204.old.format.txt", ";small_blind=assumed half the big blind"),
    ("NLHE-9max-USD-MTT - Monthly Milly - $1.000.000 Guaranteed - TT$500-$35 - 202106.txt",
     ";seats=numbered in list order"),
])
def test_the_kernel_itself_reads_the_room_s_odd_lines(
        kernel_hands: list[tuple[int, int]], name: str, words: str) -> None:
    # a line the log repeats is a note, `Folds & shows` a fold and a note, no `Dealer` seat
    # puts the button before the small blind, `Seat sit down` is a note, a small blind no
    # one posted is half the big blind, seat numbers that are player ids are renumbered:
    # the kernel reads such hands as the parser does
    [path] = [p for p in REAL if p.name == name] or [None]
    if path is None:
        pytest.skip("fpdb-dev corpus not present")
    chunks = list(BovadaImporter().read(path))
    [(read, given)] = kernel_hands
    assert read >= 0.9 * given
    texts = [v for c in chunks for col in ("detail", "source")
             for v in c.table.column(col).to_pylist() if v]
    assert any(words in v for v in texts)
    assert_compiled_same(path)


def test_the_fixtures_plain_hands_are_read_by_the_kernel(
        kernel_hands: list[tuple[int, int]]) -> None:
    # fixed limit all in for half a bet, a walk, Zone Poker
    for name in ("bovada-lhe-half-bet-allin.txt", "bovada-lhe-walk.txt",
                 "bovada-zone-poker.txt"):
        list(BovadaImporter().read(SITES / name))
    assert kernel_hands == [(1, 1), (1, 1), (2, 2)]


def test_a_file_the_compiled_pass_leaves_is_read_as_before(
        kernel_hands: list[tuple[int, int]], tmp_path: Path) -> None:
    text = (SITES / "bovada-zone-poker.txt").read_text(encoding="utf-8")
    path = tmp_path / "junk-first.txt"
    path.write_text("junk line\n" + text, encoding="utf-8")
    assert_compiled_same(path)
    assert kernel_hands == []  # text before the first hand: read_bovada quarantines it


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp1252", "utf-16", "crlf", "junk",
                                      "nbsp", "blank-head", "bom-lines", "tabs", "me-spaces"])
def test_encodings_line_ends_and_layouts(tmp_path: Path, encoding: str) -> None:
    text = (SITES / "bovada-zone-poker.txt").read_text(encoding="utf-8")
    path = tmp_path / "x.txt"
    if encoding == "crlf":
        path.write_bytes(text.replace("\n", " \r\n").encode())
    elif encoding == "junk":
        path.write_bytes((text + "\n\ntrailing junk\n").encode())
    elif encoding == "nbsp":  # a Unicode space str.strip() removes, the kernel never reads
        path.write_bytes(text.replace("\n", "\u00a0\n", 3).encode())
    elif encoding == "blank-head":
        path.write_bytes(("\n \n" + text).encode())
    elif encoding == "bom-lines":
        path.write_bytes(("\ufeff" + text.replace("\nBovada", "\n\ufeffBovada")).encode())
    elif encoding == "tabs":
        path.write_bytes(text.replace(" : ", "\t: ", 2).replace("Seat 1:", "Seat\t1:").encode())
    elif encoding == "me-spaces":
        path.write_bytes(text.replace(" [ME] :", "  [ME] :").replace(" : Folds", "  : Folds")
                         .encode())
    else:
        path.write_bytes(text.encode(encoding))
    assert_compiled_same(path)
    assert_compiled_same(path, chunk_hands=1)


@pytest.mark.parametrize("text", ["0", "5", "05", "1,000", "1,2", "$0.02", "$1.5", "$1.50",
                                  "$1,855.25", "1.", "1.500", "1.505", "1.2.3", "$", "12,",
                                  "0.001", "999999999999999", "9999999999999999", ",5",
                                  "$$5", "1,,0"])
@pytest.mark.parametrize("mpu", [1, 100])
def test_an_amount_is_read_as_the_line_parser_reads_it(text: str, mpu: int) -> None:
    from audit.importers import bovada_kernel
    from audit.importers.bovada import _Money

    data = np.frombuffer(bytearray(text.encode()), dtype=np.uint8)
    good, value = bovada_kernel._money(data, 0, len(data), mpu)
    if good:  # a text the kernel reads is the parser's value; what it refuses, the parser's
        assert _Money(mpu == 100)(text, 1) == value


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_fuzzed_files_read_as_the_line_parser_reads_them(
        tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_compiled_same(path, chunk_hands=2)
