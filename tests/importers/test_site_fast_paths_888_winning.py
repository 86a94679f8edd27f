"""The 888poker and Winning readers' fast paths read exactly what their line parsers read.

`PacificImporter.read` and `WinningImporter.read` map the common hands straight into event
columns (`pacific._fast_888`, `winning._fast_winning`) and leave every other hand to the line
parser (`_map_888`, `_map_winning`). The rule they stand for is the line parser alone
(`read_site_text` with the line parser, as the readers read before): on the real files of the
corpus, the fixtures, hypothesis-mutated fixtures and a hand whose amount does not fit 64
bits, both give the same chunks (same boundaries, events with their sources, row lines,
rejections), chunked as shipped and two hands a chunk. Each fast path must also carry its
share of the corpus: a fast path that gives every hand up would pass the rest and speed
nothing up. The hand headers a reader finds a piece at a time (`starts`) are the ones its
line-by-line matcher finds.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import columns, pacific, winning
from audit.importers.columns import EventColumns
from audit.importers.sitetext import SiteTextImporter, read_site_text, split_blocks
from audit.schema import events_schema, events_table
from tests.importers.sitecheck import SITES, mutated_lines


@dataclass(frozen=True)
class Site:
    folder: str
    make: Callable[[int], SiteTextImporter]
    fast: columns.FastMap
    line_parser: Callable[..., Any]
    fixtures: list[Path]
    fast_share: float  # of the corpus hands, at least


SITE = {
    "pacific": Site("pacific", pacific.PacificImporter, pacific._fast_888, pacific._map_888,
                    sorted(SITES.glob("888-*.txt")), 0.95),
    # both formats (today 64 of the Winning corpus's 66 hands are the fast path's: the older
    # format's 60, the newer format's 4)
    "winning": Site("winning", winning.WinningImporter, winning._fast_winning,
                    winning._map_winning, sorted(SITES.glob("wpn-*.txt")), 0.95),
}


def _corpus() -> Path | None:
    named = os.environ.get("POKER_AUDIT_FPDB_DEV")
    if named:
        return Path(named) if Path(named).is_dir() else None
    for parent in Path(__file__).resolve().parents:
        found = parent / "shared" / "data" / "fpdb-dev"
        if found.is_dir():
            return found
    return None


CORPUS = _corpus()


def _corpus_files(site: str) -> list[Path]:
    return sorted(p for p in (CORPUS / site).rglob("*") if p.is_file()) if CORPUS else []


def _as_line_parser(site: str, path: Path, chunk_hands: int) -> list[Any]:
    reader = SITE[site].make(chunk_hands)
    return list(read_site_text(path, fmt=site, header=reader.header(),
                               chunk_hands=chunk_hands, map_hand=SITE[site].line_parser,
                               hand_id_of=reader.hand_id_of))


def _flat(chunks: list[Any]) -> list[Any]:
    out = []
    for chunk in chunks:
        assert chunk.table.schema.equals(events_schema(), check_metadata=True)
        out.append((chunk.table.to_pylist(), list(chunk.lines),
                    [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in chunk.rejected]))
    return out


def assert_reads_as_the_line_parser(site: str, path: Path) -> None:
    for chunk_hands in (5000, 2):
        fast = list(SITE[site].make(chunk_hands).read(path))
        assert _flat(fast) == _flat(_as_line_parser(site, path, chunk_hands)), (path,
                                                                               chunk_hands)


INPUTS = [(site, p) for site in SITE for p in SITE[site].fixtures + _corpus_files(site)]


@pytest.mark.parametrize(("site", "path"), INPUTS, ids=[f"{s}:{p.name}" for s, p in INPUTS])
def test_every_real_file_and_fixture_reads_as_the_line_parser_reads_it(site: str,
                                                                       path: Path) -> None:
    assert_reads_as_the_line_parser(site, path)


@pytest.mark.skipif(CORPUS is None, reason="the fpdb-dev corpus is not beside the checkout")
@pytest.mark.parametrize("site", sorted(SITE))
def test_the_fast_path_reads_its_share_of_the_corpus(site: str) -> None:
    taken: list[bool] = []
    fast = SITE[site].fast

    def counted(block: list[tuple[int, str]], name: str, cols: EventColumns) -> bool:
        done = fast(block, name, cols)
        taken.append(done)
        return done

    for path in _corpus_files(site):
        reader = SITE[site].make(5000)
        list(columns.read_columns(path, header=reader.header(), chunk_hands=5000,
                                  fast=counted, map_hand=SITE[site].line_parser,
                                  hand_id_of=reader.hand_id_of))
    assert len(taken) >= 60
    assert sum(taken) >= SITE[site].fast_share * len(taken)


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    site = draw(st.sampled_from(sorted(SITE)))
    path = draw(st.sampled_from(SITE[site].fixtures))
    return site, draw(mutated_lines(path.read_bytes()))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(case=_mutated())
def test_mutated_hands_read_as_the_line_parser_reads_them(case: tuple[str, bytes],
                                                           tmp_path_factory: Any) -> None:
    site, data = case
    path = tmp_path_factory.mktemp("fuzz") / f"{site}-mutated.txt"
    path.write_bytes(data)
    assert_reads_as_the_line_parser(site, path)
    if site == "pacific":  # the headers of a piece at once: those of the line-by-line matcher
        by_line = _LineByLine(pacific._Header())
        assert list(split_blocks(path, pacific._Header())) == list(split_blocks(path, by_line))


class _LineByLine:
    """A header matcher without `starts`: `split_blocks` asks it line by line."""

    def __init__(self, header: Any) -> None:
        self.match = header.match


@pytest.mark.parametrize("site", sorted(SITE))
def test_an_amount_past_64_bits_quarantines_its_hand_as_before(site: str,
                                                               tmp_path: Path) -> None:
    fixture = {"pacific": "888-fixed-limit.txt", "winning": "wpn-six-plus.txt"}[site]
    text = (SITES / fixture).read_text(encoding="utf-8")
    seat = next(line for line in text.splitlines() if line.startswith("Seat ") and ": " in line)
    huge = seat[:seat.index("(")] + {"pacific": "( $99999999999999999.99 )",
                                     "winning": "(99999999999999999.99)."}[site]
    path = tmp_path / f"{site}-huge.txt"
    path.write_text(text + "\n\n" + text.replace(seat, huge), encoding="utf-8")
    assert_reads_as_the_line_parser(site, path)
    (chunk,) = SITE[site].make(5000).read(path)
    assert [r.reason for r in chunk.rejected] and "64 bits" in chunk.rejected[0].reason


@pytest.mark.parametrize("site", sorted(SITE))
def test_the_headers_of_a_piece_are_those_matched_line_by_line(site: str) -> None:
    for path in SITE[site].fixtures + _corpus_files(site):
        header = SITE[site].make(5000).header()
        by_line = _LineByLine(SITE[site].make(5000).header())
        assert list(split_blocks(path, header)) == list(split_blocks(path, by_line)), path


def test_event_columns_make_the_table_events_table_makes() -> None:
    for site, path in INPUTS:
        for chunk in _as_line_parser(site, path, 2):
            rows = chunk.table.to_pylist()
            cols = EventColumns()
            cols.add_rows(rows, chunk.lines)
            table = cols.table()
            assert table.schema.equals(events_schema(), check_metadata=True)
            assert table.equals(events_table(rows)), path
            assert cols.lines == chunk.lines


def test_a_call_of_the_whole_stack_is_all_in_on_the_fast_path(tmp_path: Path) -> None:
    # wpn-six-plus.txt: ChazDazzle posts the big blind (0.05) and calls 0.17: with 0.22 seated
    # the call spends his stack, which the line parser marks all-in
    text = (SITES / "wpn-six-plus.txt").read_text(encoding="utf-8")
    path = tmp_path / "wpn-stack-called-off.txt"
    path.write_text(text.replace("Seat 1: ChazDazzle (2).", "Seat 1: ChazDazzle (0.22)."),
                    encoding="utf-8")
    cols = EventColumns()
    (_, block, _), *_ = split_blocks(path, winning.IMPORTER.header())
    assert winning._fast_winning(block, path.name, cols)
    assert_reads_as_the_line_parser("winning", path)
    (chunk,) = winning.WinningImporter().read(path)
    calls = [r for r in chunk.table.to_pylist() if r["player"] == "ChazDazzle"
             and r["kind"] == "call"]
    assert [(r["amount"], r["detail"]) for r in calls] == [(17, "all_in")]


_UNNAMED = SITES / "wpn-unnamed-player.txt"  # Player7 is never named: `Player  has big blind`
_UNSEATED = SITES / "wpn-unnamed-unseated.txt"  # a third player, not listed, antes, goes all in


@pytest.mark.parametrize(("fixture", "change", "fast"), [
    (_UNNAMED, (), [True, True]),
    # his only line before the summary but the blind says he sits out: he still plays
    (_UNNAMED, ("Player  folds\n", "Player  sitting out\n"), [True, True]),
    # the summary leaves him out where he collects: he takes what the pot leaves
    (_UNNAMED, ("*Player  mucks (does not show cards). Bets: 10.22. Collects: 20.37. Wins: "
                "10.15.\n", ""), [True, True]),
    # a further space after the gap: the line parser reads a verb that starts with it
    (_UNNAMED, ("Player  folds\n", "Player   folds\n"), [False, True]),
    # an uncalled bet returned to no one, with a space after `to`
    (_UNNAMED, ("returned to\n", "returned to \n"), [True, True]),
    # a second seated player never named (beside Player3 in the second hand): the unnamed
    # player is seated apart, on the first free seat (the button's is taken), stack unknown
    (_UNNAMED, ("Seat 5: Player3 (50.28).\n", "Seat 5: Player3 (50.28).\nSeat 1: Player8 "
                "(5).\n"), [True, True]),
    # not seated: the button's seat, his stack his chips when he went all in, the pot less
    # everyone else's collections his
    (_UNSEATED, (), [True]),
    # the button's seat taken: the first free one
    (_UNSEATED, ("Seat 2: Player0 (7004).\n", "Seat 1: Player9 (5).\nSeat 2: Player0 "
                 "(7004).\n"), [True]),
    # every seat but one taken: that one; all ten taken: no seat for him (the line parser's
    # to quarantine)
    (_UNSEATED, ("Seat 2: Player0 (7004).\n", "Seat 2: Player0 (7004).\n" + "".join(
        f"Seat {q}: P{q} (1).\n" for q in (1, 4, 5, 6, 7, 8, 9))), [True]),
    (_UNSEATED, ("Seat 2: Player0 (7004).\n", "Seat 2: Player0 (7004).\n" + "".join(
        f"Seat {q}: P{q} (1).\n" for q in (1, 4, 5, 6, 7, 8, 9, 10))), [False]),
    # a player seated as `(unnamed)` already and another never named: the line parser's
    (_UNSEATED, ("Seat 2: Player0 (7004).\n", "Seat 2: Player0 (7004).\nSeat 4: (unnamed) "
                 "(1).\nSeat 5: P5 (1).\n"), [False]),
    # no all-in: his stack is unknown
    (_UNSEATED, ("Player  allin (1480)\n", "Player  calls (1480)\n"), [True]),
])
def test_an_unnamed_player_is_read_on_the_fast_path_as_the_line_parser_seats_him(
        fixture: Path, change: tuple[str, str], fast: list[bool], tmp_path: Path) -> None:
    text = fixture.read_text(encoding="utf-8")
    if change:
        assert change[0] in text
        text = text.replace(change[0], change[1], 1)
    path = tmp_path / "wpn-unnamed.txt"
    path.write_text(text, encoding="utf-8")
    taken = [winning._fast_winning(block, path.name, EventColumns())
             for _, block, _ in split_blocks(path, winning.IMPORTER.header())]
    assert taken == fast
    assert_reads_as_the_line_parser("winning", path)


def _gives_up(block: list[tuple[int, str]], name: str, cols: EventColumns) -> bool:
    cols.rows.append(("half", 0, None, "seat", 1, "x", 1, None, None, None, "x", 1))
    return False


def _breaks(block: list[tuple[int, str]], name: str, cols: EventColumns) -> bool:
    cols.rows.append(("half", 0, None, "seat", 1, "x", 1, None, None, None, "x", 1))
    raise ValueError("a fast path that breaks midway")


@pytest.mark.parametrize("fast", [_gives_up, _breaks])
@pytest.mark.parametrize("site", sorted(SITE))
def test_a_hand_the_fast_path_gives_up_midway_is_the_line_parsers_alone(
        site: str, fast: columns.FastMap) -> None:
    for path in SITE[site].fixtures:
        for chunk_hands in (5000, 2):
            reader = SITE[site].make(chunk_hands)
            got = list(columns.read_columns(path, header=reader.header(),
                                            chunk_hands=chunk_hands, fast=fast,
                                            map_hand=SITE[site].line_parser,
                                            hand_id_of=reader.hand_id_of))
            assert _flat(got) == _flat(_as_line_parser(site, path, chunk_hands)), path
