"""Winning Poker Network's compiled pass never changes an import.

The compiled pass reads the older format's common hands straight from a file's text
(winning_kernel, numba; UTF-16 files as the UTF-8 text the reader decodes them to) and leaves
every hand it does not fully understand to the Python fast path and the line parser, the
single source of truth. On the real fpdb-dev files, the fixtures, odd encodings and layouts and
randomly corrupted hands, the chunks it gives equal those of the line parser alone, value for
value and chunk by chunk, at several chunk sizes (events with their sources, schema, row
lines, quarantine). And it does read the common hands itself: it cannot quietly hand
everything back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import compiledtext, winning, winning_compiled, winning_new
from audit.importers.compiledtext import plain_text_bytes
from audit.importers.sitetext import iter_lines
from tests.importers.compiled_pass import chunk_values, count_kernel_hands
from tests.importers.sitecheck import mutated_lines
from tests.importers.test_site_fast_paths import _corpus, assert_chunks_equal

FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "sites").glob("wpn-*"))
CASES = FIXTURES + _corpus("winning")
# the older format's hold'em and Omaha files of the corpus with no unnamed player
OLD_FORMAT = [p for p in _corpus("winning") if "Stud" not in p.name
              and "unknown.player" not in p.name.lower()
              and p.read_bytes()[:40].replace(b"\x00", b"").lstrip(b"\xff\xfe").startswith(
                  b"Game started at: ")]


def _chunks(path: Path, chunk_hands: int, **options: Any) -> list[Any]:
    return chunk_values(winning.WinningImporter(chunk_hands, **options).read(path))


def assert_compiled_same(path: Path, chunk_hands: int = 5000) -> None:
    assert_chunks_equal(_chunks(path, chunk_hands, compiled_min_hands=0),
                        _chunks(path, chunk_hands, fast=False))


@pytest.fixture
def kernel_hands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(hands the kernel read, hands it was given) of each file read through it."""
    return count_kernel_hands(monkeypatch, winning_compiled)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("chunk_hands", [5000, 2, 1])
def test_every_real_and_fixture_file_reads_as_the_line_parser_reads_it(
        path: Path, chunk_hands: int) -> None:
    assert_compiled_same(path, chunk_hands)


def test_the_kernel_reads_the_common_hands_of_the_corpus_itself(
        kernel_hands: list[tuple[int, int]]) -> None:
    if not _corpus("winning"):
        pytest.skip("fpdb-dev corpus not present")
    for path in _corpus("winning"):
        list(winning.WinningImporter(compiled_min_hands=0).read(path))
    read, given = map(sum, zip(*kernel_hands, strict=True))
    # today 59 of the corpus's 66 hands, of 65 given: the newer format's four (split by the
    # compiled pass, read by the fast path) and a hand whose unnamed player the log does not
    # seat are not the kernel's; one cut short by its file's end is the line parser's
    assert given >= 65 and read >= 59, (read, given)


def test_the_newer_format_hands_of_the_corpus_are_read_by_the_fast_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    newer = [p for p in _corpus("winning") if p not in OLD_FORMAT and b"Hand #" in
             p.read_bytes()[:200]]
    if not newer:
        pytest.skip("fpdb-dev corpus not present")
    taken: list[bool] = []
    real = winning_new.fast_new

    def counted(block: list[tuple[int, str]], name: str, cols: Any) -> bool:
        taken.append(real(block, name, cols))
        return taken[-1]

    monkeypatch.setattr(winning_new, "fast_new", counted)
    for path in newer:
        list(winning.WinningImporter().read(path))
    assert len(taken) == len(newer) >= 4 and all(taken), taken


def test_the_fixtures_plain_hands_are_read_by_the_kernel(
        kernel_hands: list[tuple[int, int]]) -> None:
    # fixed limit from UTF-16, six plus hold'em, the disconnection protection, a tournament
    # whose game line names no table (a summary line for someone not seated), stud hi-lo (its
    # second hand cut short by the file's end: the line parser's, quarantined)
    for name in ("wpn-lhe-utf16.txt", "wpn-six-plus.txt", "wpn-disconnected-allin.txt",
                 "wpn-no-table-tourney.txt", "wpn-stud-hilo-cut.txt"):
        list(winning.WinningImporter(compiled_min_hands=0).read(FIXTURES[0].parent / name))
    assert kernel_hands == [(1, 1), (1, 1), (1, 1), (1, 1), (1, 2)]


_NEWER = [FIXTURES[0].parent / name for name in ("wpn-new-cash.txt", "wpn-new-tourney.txt",
                                                  "wpn-new-walk.txt")]


def test_a_file_of_the_newer_format_is_split_by_it_but_read_by_the_fast_path(
        kernel_hands: list[tuple[int, int]]) -> None:
    for path in _NEWER:
        list(winning.WinningImporter().read(path))
    assert kernel_hands == [(0, 1), (0, 1), (0, 1)]


@pytest.mark.parametrize("path", _NEWER, ids=lambda p: p.name)
def test_a_file_of_the_newer_format_is_read_from_disk_once(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # its text read once and split by the compiled pass, never read again by the line reader
    # (a failed compiled attempt used to read it twice)
    reads: list[Path] = []
    real = compiledtext.plain_text_bytes

    def counted(p: Path) -> bytes | None:
        reads.append(p)
        return real(p)

    def line_reader(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read again by the line reader")

    monkeypatch.setattr(compiledtext, "plain_text_bytes", counted)
    monkeypatch.setattr(winning, "read_columns", line_reader)
    (chunk,) = winning.WinningImporter().read(path)
    assert reads == [path]
    assert chunk.table.num_rows > 0 and not chunk.rejected


_UNNAMED = FIXTURES[0].parent / "wpn-unnamed-player.txt"  # Player7 is never named
_UNSEATED = FIXTURES[0].parent / "wpn-unnamed-unseated.txt"  # a third player, not listed


def test_a_file_of_one_hand_is_read_by_it(tmp_path: Path,
                                        kernel_hands: list[tuple[int, int]]) -> None:
    # one hand: the compiled pass costs less than the fast path
    one = FIXTURES[0].parent / "wpn-six-plus.txt"
    list(winning.WinningImporter().read(one))
    assert kernel_hands == [(1, 1)]
    two = tmp_path / "two.txt"
    two.write_bytes(one.read_bytes() * 2)
    list(winning.WinningImporter().read(two))
    assert kernel_hands == [(1, 1), (2, 2)]


def test_a_hand_with_an_unnamed_player_it_cannot_seat_is_not_given_to_it(
        kernel_hands: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    # an unnamed player the log does not seat: the kernel would leave his hand to the fast
    # path, so it is not given it, but the file is read once, by the compiled pass (a file of
    # a few such hands used to go to the line reader, its text read twice); one who is the
    # one seated player never named is the kernel's
    def line_reader(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read again by the line reader")

    monkeypatch.setattr(winning, "read_columns", line_reader)
    (chunk,) = winning.WinningImporter().read(_UNSEATED)
    assert chunk.table.num_rows > 0 and not chunk.rejected
    list(winning.WinningImporter().read(_UNNAMED))
    assert kernel_hands == [(0, 1), (2, 2)]


@pytest.mark.parametrize(("fixture", "change", "read"), [
    (_UNNAMED, (), 2),
    # his only line before the summary but the blind says he sits out: he still plays
    (_UNNAMED, ("Player  folds\n", "Player  sitting out\n"), 2),
    # fixed limit: the structure's note before his
    (_UNNAMED, ("Game ID: 665312038 1/2 ", "Game ID: 665312038 2/4 "), 2),
    # the summary leaves him out where he collects: the line parser gives him what the pot
    # leaves (the fast path's hand)
    (_UNNAMED, ("*Player  mucks (does not show cards). Bets: 10.22. Collects: 20.37. Wins: "
                "10.15.\n", ""), 1),
    # ... and where he collects nothing: nothing left for him
    (_UNNAMED, ("Player  does not show cards.Bets: 2. Collects: 0. Loses: 2.\n", ""), 2),
    # a further space after the gap: the line parser reads a verb that starts with it
    (_UNNAMED, ("Player  folds\n", "Player   folds\n"), 1),
    (_UNNAMED, ("*Player  mucks", "*Player   mucks"), 1),
    # an uncalled bet returned to a named player, to no one, to a player named `Uncalled`
    (_UNNAMED, ("returned to\n", "returned to Player3\n"), 1),
    (_UNNAMED, ("returned to Player3\n", "returned to\n"), 2),
    (_UNNAMED, ("Seat 4: Player7 (203.19).\nPlayer", "Seat 4: Uncalled (203.19).\nPlayer"), 2),
    # a second seated player never named (beside Player3 in the second hand), or none: the
    # line parser seats the unnamed player apart (the fast path's hand)
    (_UNNAMED, ("Seat 5: Player3 (50.28).\n", "Seat 5: Player3 (50.28).\nSeat 1: Player8 "
                "(5).\n"), 1),
    (_UNNAMED, ("Player Player2 sitting out\n", "Player Player2 sitting out\nPlayer Player7 "
                "sitting out\n"), 1),
    # named at a colon: `Player7:` names him
    (_UNNAMED, ("Player Player2 sitting out\n", "Player Player2 sitting out\nPlayer "
                "Player7: hi\n"), 1),
    (_UNSEATED, (), 0),
])
def test_an_unnamed_player_who_is_the_one_seated_player_never_named_is_read_by_it(
        fixture: Path, change: tuple[str, str], read: int, tmp_path: Path,
        kernel_hands: list[tuple[int, int]]) -> None:
    text = "\n".join(t for _, t in iter_lines(fixture)) + "\n"
    if change:
        assert change[0] in text
        text = text.replace(change[0], change[1], 1)
    path = tmp_path / "wpn-unnamed.txt"
    path.write_text(text, encoding="utf-8")
    for chunk_hands in (5000, 1):
        assert_compiled_same(path, chunk_hands)
    assert kernel_hands[0][0] == read


def test_an_unnamed_stud_player_is_noted_before_the_bring_in_assumed(
        tmp_path: Path, kernel_hands: list[tuple[int, int]]) -> None:
    # the stud hi-lo fixture's first hand without its bring-in and with ChazDazzle left
    # unnamed: his note, then the bring-in's, as `_Old.map` adds them
    fixture = FIXTURES[0].parent / "wpn-stud-hilo-cut.txt"
    text = "\n".join(t for _, t in iter_lines(fixture)
                     if t != "Player ChazDazzle bring in (0.40)") + "\n"
    text = text.replace("Player ChazDazzle ", "Player  ").replace("returned to ChazDazzle",
                                                                 "returned to")
    path = tmp_path / "wpn-stud-unnamed.txt"
    path.write_text(text, encoding="utf-8")
    assert_compiled_same(path)
    assert kernel_hands == [(1, 2)]
    (chunk,) = winning.WinningImporter().read(path)
    source = chunk.table.column("source")[0].as_py()
    assert source.endswith(";player=the unnamed player is 'ChazDazzle', the one seated player "
                           "the hand never names;bring_in=not posted, assumed half the small "
                           "bet")


@pytest.mark.parametrize("path", [p for p in FIXTURES if "stud" in p.name or "lhe" in p.name]
                         + OLD_FORMAT[:3], ids=lambda p: p.name)
def test_without_the_ipc_template_the_columns_are_built_array_by_array(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the table is read as one IPC message laid out as pyarrow lays out this schema; should
    # that layout not be the one expected, the arrays are built one by one: the same chunks
    assert compiledtext._template() is not None
    monkeypatch.setattr(compiledtext, "_template", lambda: None)
    assert_compiled_same(path)
    assert_compiled_same(path, chunk_hands=2)


def _omaha_text() -> str:
    if not OLD_FORMAT:
        pytest.skip("fpdb-dev corpus not present")
    path = next(p for p in OLD_FORMAT if "PLO8-6max-USD-0.10" in p.name)
    return "\n".join(text for _, text in iter_lines(path)) + "\n"


@pytest.mark.parametrize("layout", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be",
                                    "crlf", "junk", "nbsp", "blank-head", "boms", "mid-bom",
                                    "repeated-utf16", "repeated-odd-utf16", "accents"])
def test_encodings_line_ends_and_text_outside_hands(tmp_path: Path, layout: str) -> None:
    text = _omaha_text()
    path = tmp_path / "x.txt"
    if layout == "crlf":
        path.write_bytes(text.replace("\n", " \r\n").encode())
    elif layout == "junk":
        path.write_bytes(("junk line\n\n" + text + "\n\ntrailing").encode())
    elif layout == "nbsp":  # a Unicode space str.strip() removes, the kernel never reads
        path.write_bytes(text.replace("\n", "\u00a0\n", 40).encode())
    elif layout == "blank-head":
        path.write_bytes(("\n \n" + text).encode())
    elif layout == "boms":  # marks that start a line: dropped as the reader drops them
        path.write_bytes(text.replace("\nGame started", "\n\ufeff\ufeffGame started")
                         .encode("utf-8-sig"))
    elif layout == "mid-bom":
        path.write_bytes(text.replace("Bets:", "\ufeffBets:", 1).encode("utf-8-sig"))
    elif layout.startswith("repeated"):  # a UTF-16 file written three times over
        once = text.encode("utf-16") + (b"\x00" if layout == "repeated-odd-utf16" else b"")
        path.write_bytes(once * 3)
    elif layout == "accents":
        path.write_bytes(text.replace("ramair7", "ramaïr7").replace("Elepaio", "Élépaio")
                         .encode())
    else:
        path.write_bytes(text.encode(layout))
    for chunk_hands in (5000, 2, 1):
        assert_compiled_same(path, chunk_hands)


def test_a_last_line_of_a_byte_order_mark_alone_is_the_line_parsers_empty_line(
        tmp_path: Path) -> None:
    # found by the fuzz: the compiled pass dropped the mark and with it the file's last
    # line, so a cut-short hand was quarantined without the empty line the parser keeps
    path = tmp_path / "x.txt"
    path.write_bytes(b"Game started at: 2016/8/2 11:13:51\n\nGame ID: 693976187 1/2 (PRR) "
                     b"La Llorona - 3 (Seven Cards Stud HiLow)\n\nSeat 2: Diamonds4ever "
                     b"(18.05).\n\nSeat 8: KickAzzJohnny (26.41).\n\xef\xbb\xbf")
    for chunk_hands in (5000, 2, 1):
        assert_compiled_same(path, chunk_hands)
    assert plain_text_bytes(path) is None
    path.write_bytes(path.read_bytes() + b"\n")  # an empty line either way: read compiled
    assert plain_text_bytes(path) is not None
    assert_compiled_same(path)


def test_a_utf16_file_is_read_as_the_text_the_reader_decodes(tmp_path: Path) -> None:
    text = _omaha_text()
    path = tmp_path / "x.txt"
    path.write_bytes(text.encode("utf-16") + b"\x00")  # a stray odd last byte
    raw = plain_text_bytes(path)
    assert raw is not None
    assert raw.decode("utf-8").split("\n")[:-1] == [t for _, t in iter_lines(path)]


_WORDS = [b"Player ", b"Player  ", b"*Player ", b" (", b")", b"(1,000)", b"(0.001)", b".",
          b",", b" ", b"\xc2\xa0", b"\t", b":", b"[10h]", b"[Xx]", b"[?]", b" [", b"]",
          b"received card: [Ah]", b"received a card.", b"has big blind (0.25)",
          b"has small blind (0.10)", b"posts ante (5)", b"has straddle (0.50)",
          b"has dead blind (0.25)", b"bring in (1)", b"allin (3)", b"calls (0.25)",
          b"raises (1)", b"bets (2)", b"folds", b"checks", b"mucks cards", b"sitting out",
          b"is disconnected and ALL IN.", b"is timed out.", b"has joined the table",
          b"Uncalled bet (0.25) returned to ", b"*** FLOP ***: [2c 3d 4h]",
          b"*** TURN ***: [2c 3d 4h] [5s]", b"*** Third street ***", b"------ Summary ------",
          b"Pot: 0.57. Rake 0.03. JP fee 0.01", b"Board: [2c]", b"Game ended at: x",
          b" Bets: 0. Collects: 0. Loses: 0.", b" Bets: 1. Collects: 2. Wins: 1.",
          b"shows: Pair [Ah Ad]", b"mucks (does not show: [Ah Kd])", b"does not show cards",
          b"Seat 9: ghost (10).", b"Seat 1 is the button", b"Game started at: 2016/8/2 1:2:3",
          b"Game ID: 1 0.10/0.25 T (Omaha HiLow)", b", Table 2", b"\xef\xbb\xbf", b"\x00",
          b"*** Fourth street ***", b"*** fifth Street ***", b"bring in (0.50)", b"(Razz)",
          # the newer format's
          b"Hand #1 - Holdem(No Limit) - $0.05/$0.10 - 2019/06/28 02:38:17 UTC",
          b"T 6-max Seat #1 is the button", b"Seat 7: Ghost ($5.00)", b" is sitting out",
          b"posts the small blind $0.05", b"posts the big blind $0.10", b"posts ante 900.00",
          b"posts small & big blinds $0.15", b"posts straddle $0.20", b"*** HOLE CARDS ***",
          b"Dealt to Hero [Ah Kd]", b"raises $0.22 to $0.32", b"calls $0.10", b"bets $1",
          b" and is all-in", b"folds", b"checks", b"does not show", b"mucks [Ah Kd]",
          b"shows [Ah Kd] (a pair)", b"collected $0.25 from pot", b"collected $1 from side pot-2",
          b"Main pot 7200.00", b"*** FLOP *** [6h 4c 6s]", b"*** SHOW DOWN ***",
          b"Uncalled bet ($0.12) returned to ", b"*** SUMMARY ***", b"Total pot $0.25",
          b" | Rake $0.01", b" | JP Fee $0.01", b" | Side pot-1 $0.05", b"Board [6h 4c 6s]",
          b" won $0.25", b"Seat 5: Player3 did not show and won $0.25", b": gl",
          b"Bob joins the table", b"Level 10 (3000.00/6000.00)", b"Fixed Limit"]


def _sources() -> list[Path]:
    stud = [p for p in _corpus("winning") if "Stud" in p.name]
    newer = [p for p in _corpus("winning") if p not in OLD_FORMAT and b"Hand #" in
             p.read_bytes()[:200]]
    return [p for p in FIXTURES if p.name.startswith(("wpn-lhe", "wpn-six", "wpn-disc",
                                                      "wpn-no-table", "wpn-stud",
                                                      "wpn-unnamed", "wpn-new"))] + \
        list({p.name: p for p in OLD_FORMAT + newer}.values()) + stud[:2]


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[bytes, str]:
    path = draw(st.sampled_from(_sources()))
    text = "\n".join(t for _, t in iter_lines(path)) + "\n"
    data = draw(mutated_lines(text.encode()))
    for _ in range(draw(st.integers(0, 3))):  # a word the kernel looks for, in an odd place
        word = draw(st.sampled_from(_WORDS))
        at = draw(st.integers(0, len(data)))
        data = data[:at] + word + data[at:]
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16"]))
    if encoding == "utf-16":
        data = data.decode("utf-8", errors="replace").encode("utf-16")
    return data, encoding


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(case=_mutated())
def test_mutated_hands_read_as_the_line_parser_reads_them(
        tmp_path_factory: pytest.TempPathFactory, case: tuple[bytes, str]) -> None:
    data, _ = case
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_compiled_same(path, chunk_hands=2)


@pytest.mark.parametrize("line", ["Hand #\u0661 - x", "Game Hand #12\u0663 - y",
                                  "Hand #1 -\u00a0", "Game started at: \u00a0"])
def test_a_header_the_kernel_cannot_tell_is_told_by_the_readers_pattern(
        tmp_path: Path, line: str) -> None:
    # `\d` reads Arabic-Indic digits, `str.rstrip` a no-break space: where a hand starts is
    # the reader's pattern's call, never the kernel's guess
    text = _omaha_text()
    path = tmp_path / "x.txt"
    path.write_bytes((text + line + "\n" + text).encode())
    for chunk_hands in (5000, 1):
        assert_compiled_same(path, chunk_hands)


@pytest.mark.parametrize(("clock", "read"), [
    ("8:37:3", True), ("23:59:59", True), ("0:0:0", True), ("08:07:05", True),
    ("24:0:0", False), ("8:60:2", False), ("8:37:60", False), ("8:37:\u0662", False),
    ("8:37", False)])
def test_a_hands_clock_on_a_date_already_read_is_the_time_the_line_parser_reads(
        tmp_path: Path, clock: str, read: bool, kernel_hands: list[tuple[int, int]]) -> None:
    # the kernel's glue reads a date once and adds each hand's time of day to its midnight:
    # the second hand's time (in range or not, ASCII digits or not) reads as the line parser
    # reads it; a clock that is no time (or not ASCII) leaves the hand to the Python readers
    one = (FIXTURES[0].parent / "wpn-six-plus.txt").read_text(encoding="utf-8")
    assert one.startswith("Game started at: 2019/2/16 8:37:2\n")
    path = tmp_path / "two.txt"
    path.write_text(one + one.replace("2019/2/16 8:37:2", f"2019/2/16 {clock}", 1),
                    encoding="utf-8")
    for chunk_hands in (5000, 1):
        assert_compiled_same(path, chunk_hands)
    list(winning.WinningImporter().read(path))
    assert kernel_hands[-1] == ((2, 2) if read else (1, 2))
