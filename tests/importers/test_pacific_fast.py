"""888poker's fast path reads exactly what its line parser reads.

`PacificImporter.read` maps the common hands straight into event columns (`_fast_888`) and
leaves every other hand to the line parser (`_map_888`). The rule it stands for is the line
parser alone (`read_site_text` with `_map_888`, as the reader read before): on the real files
of the corpus, the fixtures, hypothesis-mutated fixtures and a hand whose amount does not fit
64 bits, both give the same chunks (same boundaries, events with their sources, row lines,
rejections), chunked as shipped and two hands a chunk. The fast path must also carry the
corpus: a fast path that gives every hand up would pass the rest and speed nothing up.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import columns, pacific
from audit.importers.columns import EventColumns
from audit.importers.pacific import PacificImporter
from audit.importers.sitetext import read_site_text
from audit.schema import events_schema, events_table
from tests.importers.sitecheck import SITES, mutated

FIXTURES = sorted(SITES.glob("888-*.txt"))


def _corpus() -> Path | None:
    named = os.environ.get("POKER_AUDIT_FPDB_DEV")
    if named:
        return Path(named) / "pacific" if Path(named).is_dir() else None
    for parent in Path(__file__).resolve().parents:
        found = parent / "shared" / "data" / "fpdb-dev" / "pacific"
        if found.is_dir():
            return found
    return None


CORPUS = _corpus()
CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS else []


def _as_line_parser(path: Path, chunk_hands: int) -> list[Any]:
    reader = PacificImporter(chunk_hands)
    return list(read_site_text(path, fmt="pacific", header=reader.header(),
                               chunk_hands=chunk_hands, map_hand=pacific._map_888,
                               hand_id_of=pacific._hand_id_of))


def _flat(chunks: list[Any]) -> list[Any]:
    out = []
    for chunk in chunks:
        assert chunk.table.schema.equals(events_schema(), check_metadata=True)
        out.append((chunk.table.to_pylist(), list(chunk.lines),
                    [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in chunk.rejected]))
    return out


def assert_reads_as_the_line_parser(path: Path) -> None:
    for chunk_hands in (5000, 2):
        fast = list(PacificImporter(chunk_hands).read(path))
        assert _flat(fast) == _flat(_as_line_parser(path, chunk_hands)), (path, chunk_hands)


@pytest.mark.parametrize("path", FIXTURES + CORPUS_FILES, ids=lambda p: p.name)
def test_every_real_file_and_fixture_reads_as_the_line_parser_reads_it(path: Path) -> None:
    assert_reads_as_the_line_parser(path)


@pytest.mark.skipif(CORPUS is None, reason="the fpdb-dev corpus is not beside the checkout")
def test_the_fast_path_reads_nearly_every_corpus_hand() -> None:
    taken: list[bool] = []

    def counted(block: list[tuple[int, str]], name: str, cols: EventColumns) -> bool:
        done = pacific._fast_888(block, name, cols)
        taken.append(done)
        return done

    for path in CORPUS_FILES:
        list(columns.read_columns(path, header=pacific._Header(), chunk_hands=5000,
                                  fast=counted, map_hand=pacific._map_888,
                                  hand_id_of=pacific._hand_id_of))
    assert len(taken) >= 75
    assert sum(taken) >= 0.95 * len(taken)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(data=mutated(FIXTURES))
def test_mutated_hands_read_as_the_line_parser_reads_them(data: bytes,
                                                           tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "888-mutated.txt"
    path.write_bytes(data)
    assert_reads_as_the_line_parser(path)


def test_an_amount_past_64_bits_quarantines_its_hand_as_before(tmp_path: Path) -> None:
    text = (SITES / "888-fixed-limit.txt").read_text(encoding="utf-8")
    seat = next(line for line in text.splitlines() if line.startswith("Seat ") and ": " in line)
    huge = seat[:seat.index("(")] + "( $99999999999999999.99 )"
    path = tmp_path / "888-huge.txt"
    path.write_text(text + "\n\n" + text.replace(seat, huge), encoding="utf-8")
    assert_reads_as_the_line_parser(path)
    (chunk,) = PacificImporter().read(path)
    assert [r.reason for r in chunk.rejected] and "64 bits" in chunk.rejected[0].reason


def test_event_columns_make_the_table_events_table_makes() -> None:
    for path in FIXTURES + CORPUS_FILES:
        for chunk in _as_line_parser(path, 2):
            rows = chunk.table.to_pylist()
            cols = EventColumns()
            cols.add_rows(rows, chunk.lines)
            table = cols.table()
            assert table.schema.equals(events_schema(), check_metadata=True)
            assert table.equals(events_table(rows)), path
            assert cols.lines == chunk.lines
