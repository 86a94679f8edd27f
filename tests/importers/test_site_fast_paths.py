"""The fast paths of the GGPoker and Winamax readers never change an import.

Each reader reads its common hands straight into event columns and leaves every other hand to
its line parser, the single source of truth. For every source of the room's text we have --
the real fpdb-dev files, the hand-written fixtures, the hostile-input documents and randomly
corrupted hands -- the chunks read with the fast path equal, value for value and chunk by
chunk, those of the line parser alone: the same events (sources included, the same schema),
the same row lines and the same quarantine (file, line, hand id, reason, raw text).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.devtools.hostile import hostile_documents, seeds
from audit.importers import ggpoker, winamax

ROOT = Path(__file__).resolve().parents[2]
SITES = ROOT / "fixtures" / "sites"
CORPUS = ROOT.parent / "shared" / "data" / "fpdb-dev"
needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason="fpdb-dev corpus not present")

READERS: dict[str, Any] = {"ggpoker": ggpoker.GGPokerImporter,
                           "winamax": winamax.WinamaxImporter}
FIXTURES = {"ggpoker": sorted(SITES.glob("gg-*.txt")),
            "winamax": sorted(SITES.glob("wmx-*.txt"))}


def _chunks(fmt: str, path: Path, *, fast: bool, chunk_hands: int) -> list[Any]:
    return [(c.table.schema, c.table.to_pylist(), c.lines,
             [(r.source, r.line, r.hand_id, r.reason, r.raw) for r in c.rejected])
            for c in READERS[fmt](chunk_hands, fast=fast).read(path)]


def assert_same(fmt: str, path: Path, *, chunk_hands: int = 5000) -> None:
    want = _chunks(fmt, path, fast=False, chunk_hands=chunk_hands)
    got = _chunks(fmt, path, fast=True, chunk_hands=chunk_hands)
    assert_chunks_equal(got, want)


def assert_chunks_equal(got: list[Any], want: list[Any]) -> None:
    """Chunks as `_chunks` lists them: the same schema, rejections, lines and rows."""
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g[0].equals(w[0], check_metadata=True)
        assert g[3] == w[3]
        assert g[2] == w[2]
        bad = [(a, b) for a, b in zip(g[1], w[1], strict=True) if a != b]
        assert not bad, bad[:2]
        assert len(g[1]) == len(w[1])


def _corpus(site: str) -> list[Path]:
    return sorted(p for p in (CORPUS / site).rglob("*") if p.is_file()
                  and p.name != "README.md") if CORPUS.exists() else []


CASES = [(fmt, p) for fmt in READERS for p in FIXTURES[fmt] + _corpus(fmt)]


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=lambda x: getattr(x, "name", x))
def test_real_and_fixture_files_read_the_same(fmt: str, path: Path) -> None:
    assert_same(fmt, path)
    assert_same(fmt, path, chunk_hands=2)


@needs_corpus
@pytest.mark.parametrize(("fmt", "least"), [("ggpoker", 0.95), ("winamax", 0.95)])
def test_the_common_hands_of_the_corpus_take_the_fast_path(fmt: str, least: float,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    module = {"ggpoker": ggpoker, "winamax": winamax}[fmt]
    name = {"ggpoker": "_fast_gg", "winamax": "_fast_winamax"}[fmt]
    real = getattr(module, name)
    taken: list[bool] = []

    def counting(block: list[tuple[int, str]], file_name: str) -> Any:
        hand = real(block, file_name)
        taken.append(hand is not None)
        return hand

    monkeypatch.setattr(module, name, counting)
    for path in _corpus(fmt):  # the Python fast path's share: the compiled pass off
        list(READERS[fmt](compiled=False).read(path))
    assert taken and sum(taken) >= least * len(taken), (sum(taken), len(taken))


def test_a_gg_hand_the_fast_path_does_not_know_goes_to_the_line_parser(tmp_path: Path
                                                                       ) -> None:
    # a line no rule knows: the line parser quarantines the hand, naming the line
    text = (SITES / "gg-plo-rit-missed-blind.txt").read_text(encoding="utf-8")
    path = tmp_path / "odd.txt"
    path.write_text(text.replace("*** HOLE CARDS ***", "*** HOLE CARDS ***\nHero: dances",
                                 1), encoding="utf-8")
    chunks = list(ggpoker.GGPokerImporter().read(path))
    assert [r.reason for c in chunks for r in c.rejected] == [
        "line 14: unknown line: 'Hero: dances'"]
    assert_same("ggpoker", path)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp1252", "utf-16", "crlf", "junk"])
@pytest.mark.parametrize("fmt", list(READERS))
def test_encodings_boms_line_ends_and_text_outside_hands(tmp_path: Path, fmt: str,
                                                         encoding: str) -> None:
    text = FIXTURES[fmt][0].read_text(encoding="utf-8").replace("Hero", "Hérö")
    path = tmp_path / "x.txt"
    if encoding == "crlf":
        path.write_bytes(text.replace("\n", " \r\n").encode())
    elif encoding == "junk":
        path.write_bytes(("junk line\n\n" + text + "\n\ntrailing").encode())
    else:
        path.write_bytes(text.encode(encoding))
    assert_same(fmt, path)
    assert_same(fmt, path, chunk_hands=1)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", list(READERS))
def test_hostile_documents_read_the_same(tmp_path: Path, fmt: str) -> None:
    rng = random.Random(20261129)
    for number, (mutation, data) in enumerate(hostile_documents(fmt, seeds()[fmt], rng, 2)):
        if len(data) > 5_000_000:
            continue
        path = tmp_path / f"{number}.txt"
        path.write_bytes(data)
        try:
            assert_same(fmt, path, chunk_hands=3)
        except AssertionError as exc:
            raise AssertionError(f"hostile mutation {mutation}: {exc}") from None


_WORDS = {
    "ggpoker": [b": ", b" collected ", b" and is all-in", b"Dealt to ", b"*** ", b" [", b"]",
                b"Seat 3: ", b" in chips)", b"$", b",", b".", b" ", b"\xc2\xa0", b"\x1c",
                b"Uncalled bet (", b") returned to ", b"Total pot ", b" | Rake ",
                b" | Jackpot ", b"*** SUMMARY ***", b"*** HOLE CARDS ***", b"*** FLOP *** ",
                b"*** SECOND ", b"*** FIRST SHOWDOWN ***", b" out of hand", b" is sitting out",
                b"posts big blind ", b"posts small blind ", b"posts the ante ", b"straddle ",
                b"posts missed blind ", b"raises ", b" to ", b"calls ", b"bets ", b"folds",
                b"checks", b"mucks", b"shows [", b"Hero", b"Poker Hand #RC1: ", b"Level3",
                b"Tournament #1, "],
    "winamax": [b" collected ", b" and is all-in", b"Dealt to ", b"*** ", b" [", b"]",
                b"\xe2\x82\xac",
                b"Seat 3: ", b"(", b")", b",", b".", b" ", b"\xc2\xa0", b"k", b"-",
                b"Total pot ", b" | Rake ", b" | No rake", b"Main pot ", b"Side pot 1 ",
                b"*** SUMMARY ***", b"*** PRE-FLOP ***", b"*** ANTE/BLINDS ***",
                b"*** FLOP *** ", b"*** SHOW DOWN ***", b" out of position",
                b"posts big blind ", b"posts small blind ", b"posts ante ", b"posts straddle ",
                b"raises ", b" to ", b"calls ", b"bets ", b"folds", b"checks", b"completes ",
                b"mucks", b"shows [", b"Hero", b" won ", b"from side pot 2", b" (HI)",
                b"is sitting out", b"has left the table", b"Table: ", b" Seat #2 is the button",
                b"Tournament \"T\" buyIn: 1\xe2\x82\xac level: 3", b" CET", b"Omaha "],
}


def _fuzz_sources() -> list[tuple[str, Path]]:
    out = [(fmt, p) for fmt in READERS for p in FIXTURES[fmt]]
    return out + [(fmt, p) for fmt in READERS for p in _corpus(fmt) if p.stat().st_size]


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    fmt, path = draw(st.sampled_from(_fuzz_sources()))
    lines = path.read_bytes().split(b"\n")
    if len(lines) > 120:  # a few hands of a long file
        start = draw(st.integers(0, len(lines) - 120))
        lines = lines[start : start + 120]
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(["delete", "duplicate", "truncate", "swap", "garbage",
                                   "word", "digits"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "swap":
            lines[i] = re.sub(rb"\d+(?:\.\d+)?", lambda m: m.group(0)[::-1], lines[i])
        elif op == "digits":  # amounts, seats and dates out of range or finer than a cent
            big = draw(st.sampled_from([b"0", b"99999999999999999999", b"0.001", b"128",
                                        b"1,000.5", b"13"]))
            lines[i] = re.sub(rb"\d+", big.replace(b"\\", b""), lines[i], count=1)
        elif op == "word":  # a word a rule looks for, in an odd place
            word = draw(st.sampled_from(_WORDS[fmt]))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + word + lines[i][pos:]
        else:
            junk = draw(st.binary(min_size=1, max_size=12))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
        if not lines:
            lines = [b""]
    return fmt, b"\n".join(lines)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_mutated())
def test_fuzzed_files_read_the_same(tmp_path_factory: pytest.TempPathFactory,
                                    case: tuple[str, bytes]) -> None:
    fmt, data = case
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    assert_same(fmt, path, chunk_hands=2)


def test_the_fast_paths_remember_only_short_texts(tmp_path: Path) -> None:
    # the memos of lines read keep short texts only: a file of long lines cannot fill memory
    long_name = "x" * 5000
    gg = (SITES / "gg-plo-rit-missed-blind.txt").read_text(encoding="utf-8").replace(
        "e0cf801d", long_name)
    wmx = (SITES / "wmx-no-colon.txt").read_text(encoding="utf-8").replace("Player1", long_name)
    for fmt, text in (("ggpoker", gg), ("winamax", wmx)):
        path = tmp_path / f"{fmt}.txt"
        path.write_text(text, encoding="utf-8")
        assert_same(fmt, path)
    remembered = [text for memo in (*ggpoker._TOKENS.values(), ggpoker._DEALT_LINES,
                                    ggpoker._LAYOUT_LINES, ggpoker._STAKES,
                                    *winamax._TOKENS.values()) for text in memo]
    assert remembered and max(map(len, remembered)) <= 256
