"""The corpus measure (audit/devtools/corpus.py, `poker-audit bench --corpus`): hands are counted
at each site's hand header whatever the file's encoding, quarantine reasons fall into groups, and
the reviewed allowlist of true irregularities is refused when an entry is incomplete, names a
hand its file does not hold, or no longer matches a finding."""

from __future__ import annotations

import codecs
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.devtools import corpus
from audit.devtools.corpus import (
    Allowed,
    CorpusError,
    Finding,
    count_hands,
    cut_short_from,
    decode,
    hand_starts,
    load_allowlist,
    normalise_reason,
    site_files,
    stale,
    unexplained,
)

FPDB_DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-dev"

STARS_HAND = (
    "PokerStars Hand #101: Hold'em No Limit ($0.01/$0.02 USD) - 2011/01/01 10:00:00 ET\n"
    "Table 'Alpha' 6-max Seat #1 is the button\n"
    "Seat 1: Player1 ($2 in chips)\n"
    "*** SUMMARY ***\n"
    "\n"
)


# --- counting hands at the headers ---------------------------------------------------------

def _summed(table: pa.Table) -> int:
    """The bench's hand count as it was first written: the compared column summed."""
    return int(pc.sum(pc.equal(table.column("kind"), "hand_started")).as_py() or 0)


def test_the_bench_counts_the_hand_started_rows_of_every_chunk(tmp_path: Path) -> None:
    # its cheaper count counts what the summed comparison counts: every chunk of every
    # reader of the corpus, a table of several record batches, an empty one, and a kind
    # that only starts with the word
    from audit.importers import IMPORTERS

    tables = []
    for site in ("winamax", "winning", "ggpoker", "pacific"):
        for path in site_files(FPDB_DEV / site)[:6]:
            tables += [chunk.table for chunk in IMPORTERS[site].read(path)]
    (tmp_path / "h.txt").write_text(STARS_HAND * 3)
    tables += [chunk.table for chunk in IMPORTERS["pokerstars"].read(tmp_path / "h.txt")]
    assert sum(_summed(t) for t in tables) > 3
    several = pa.concat_tables([*tables[:3], tables[0].slice(0, 0)])
    assert several.column("kind").num_chunks > 1
    one = tables[0]
    odd = one.set_column(4, "kind", pa.array(
        ["hand_started_x"] + one.column("kind").to_pylist()[1:]))
    assert hand_starts(odd) == hand_starts(one) - 1
    for table in (*tables, several, tables[0].slice(0, 0), odd):
        assert hand_starts(table) == _summed(table)

def test_a_header_counts_only_where_it_starts_a_line(tmp_path: Path) -> None:
    text = (STARS_HAND
            + "PokerStars Game #102: Razz Limit ($0.04/$0.08 USD) - 2011/01/01 10:01:00 ET\n\n"
            + "PokerStars Home Game Hand #103: {Room} Tournament #1\n\n"
            + "Run It Once Poker Hand #104:  Hold'em No Limit (€0.05/€0.10)\n\n"
            + "Player25: PokerStars Hand #105 is what he typed in the chat\n"
            + "Player3 said, \"PokerStars Hand #106: nice\"\n")
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    assert count_hands(path, "stars") == 4


@pytest.mark.parametrize("encode", [
    pytest.param(lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), id="utf-8 with BOM"),
    pytest.param(lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le") + b"\n", id="utf-16 stray"),
    pytest.param(lambda t: t.encode("utf-16-be"), id="utf-16-be without BOM"),
    pytest.param(lambda t: t.replace("Player1", "Jos\xe9").encode("cp1252"), id="cp1252"),
    pytest.param(lambda t: t.encode("utf-8").replace(b"\n\n", b"\n\x00\n"), id="NUL bytes"),
])
def test_hands_are_counted_in_every_encoding_the_sites_write(tmp_path: Path, encode) -> None:
    path = tmp_path / "hands.txt"
    path.write_bytes(encode(STARS_HAND * 3))
    assert count_hands(path, "stars") == 3
    assert "\x00" not in decode(path.read_bytes())


def test_each_site_has_its_own_header(tmp_path: Path) -> None:
    files = {
        "ftp": "FullTiltPoker Game #1: Table T\n\nFull Tilt Poker Game #2: Table T\n",
        "partypoker": "#Game No : 5\n***** Hand History for Game 5 *****\n"
                      "***** Hand History For Game 6abc *****\n",
        "ipoker": '<session><game gamecode="1"></game><game gamecode="2"></game></session>',
        "merge": '<game id="1-1"></game>\n<game id="1-2"></game>\n',
        "winning": "Game started at: 2016/8/1 1:00:00\nGame Hand #7 - Tournament #1\n"
                   "Hand #8 - Holdem(No Limit) - $0.01/$0.02\n",
        "bovada": "Bovada Hand #1 TBL#2\n\nIgnition Hand #3 Zone\n\nBodog.com Hand #4\n",
        "pacific": "#Game No : 1\n***** 888poker Hand History for Game 1 *****\n",
    }
    for site, text in files.items():
        path = tmp_path / f"{site}.txt"
        path.write_text(text, encoding="utf-8")
        assert count_hands(path, site) == (3 if site in ("winning", "bovada") else
                                           1 if site == "pacific" else 2), site


def test_a_folder_of_another_name_counts_each_header_once(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text(STARS_HAND + '<game gamecode="9">\nWinamax Poker - CashGame\n', "utf-8")
    assert count_hands(path, "elsewhere") == 3


def test_a_file_that_ends_inside_its_last_hand_says_where_that_hand_starts(
        tmp_path: Path) -> None:
    whole = tmp_path / "whole.txt"
    whole.write_text(STARS_HAND * 2)
    cut = tmp_path / "cut.txt"
    cut.write_text(STARS_HAND * 2 + "\n".join(STARS_HAND.splitlines()[:3]) + "\n")
    summary_only_earlier = tmp_path / "earlier.txt"  # a summary of an earlier hand is not its
    summary_only_earlier.write_text(STARS_HAND + STARS_HAND.split("*** SUMMARY")[0])
    assert cut_short_from(whole, "stars") is None
    assert cut_short_from(cut, "stars") == 11  # the third hand's header line
    assert cut_short_from(summary_only_earlier, "stars") == 6
    assert cut_short_from(cut, "partypoker") is None  # no end marker known: never counted


def test_a_hand_the_file_ends_inside_is_counted_apart_and_quarantined(tmp_path: Path) -> None:
    # whole hands, then a hand the file ends inside of (on the flop, before its summary)
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars"
    cut = "\n".join((fixtures / "bad-truncated.txt").read_text().splitlines()[:30])
    root = tmp_path / "corpus"
    (root / "stars").mkdir(parents=True)
    (root / "stars" / "cut.txt").write_text(
        (fixtures / "omaha6-showdown.txt").read_text() + "\n\n" + cut + "\n")
    result = corpus.measure_site(root, "stars", work=tmp_path)
    assert (result.hands, result.imported, result.quarantined) == (2, 1, 1)
    assert (result.cut_short, result.cut_short_files, result.whole) == (1, 1, 1)
    assert result.imported_pct == 100.0


def test_site_files_leave_out_hidden_files_and_readmes(tmp_path: Path) -> None:
    (tmp_path / "cash" / "Flop").mkdir(parents=True)
    (tmp_path / "cash" / "Flop" / "a.txt").write_text(STARS_HAND)
    (tmp_path / "README.md").write_text("# notes")
    (tmp_path / ".hidden").write_text(STARS_HAND)
    assert site_files(tmp_path) == [tmp_path / "cash" / "Flop" / "a.txt"]


def test_quarantine_reasons_group_by_cause() -> None:
    one = normalise_reason(
        "/c/stars/a.txt: date '20:15:49 (ET)' is not like 'Y/M/D H:M:S ET' (line 12: "
        "\"PokerStars Game #1: Tournament #2, $0.50+$0.05 Hold'em No Limit - Level XIX\")",
        "/c/stars/a.txt")
    two = normalise_reason(
        "/c/stars/b.txt: date '09:01:00 (ET)' is not like 'Y/M/D H:M:S ET' (line 7: "
        "\"PokerStars Game #9: Tournament #4, $1+$0.10 Hold'em No Limit - Level III (10/20)\")",
        "/c/stars/b.txt")
    assert one == two == ("<file>: date 'N:N:N (ET)' is not like 'Y/M/D H:M:S ET' "
                          "(line N: \"...\")")
    # a short quoted line is the cause itself: it stays
    assert normalise_reason("line 60: unknown line: '*** FIRST DRAW *** (Total Pot: 40)'") == (
        "line N: unknown line: '*** FIRST DRAW *** (Total Pot: N)'")


# --- the allowlist -------------------------------------------------------------------------

ENTRY = """
[[finding]]
file = "stars/cash/hands.txt"
hand = "ps:101"
rule_id = "POT-TIE-SPLIT"
why = "the hand shows a tie paid to one player"
"""


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    (tmp_path / "stars" / "cash").mkdir(parents=True)
    (tmp_path / "stars" / "cash" / "hands.txt").write_text(STARS_HAND)
    return tmp_path


def test_an_allowlist_entry_names_its_file_hand_rule_and_why(small_corpus: Path) -> None:
    path = small_corpus / "stars.toml"
    path.write_text("# reviewed\n" + ENTRY)
    assert load_allowlist(path, small_corpus) == [Allowed(
        file="stars/cash/hands.txt", hand="ps:101", rule_id="POT-TIE-SPLIT",
        why="the hand shows a tie paid to one player")]
    path.write_text("# nothing reviewed yet\n")
    assert load_allowlist(path, small_corpus) == []


@pytest.mark.parametrize(("change", "complaint"), [
    (lambda e: e.replace('why = "the hand shows a tie paid to one player"\n', ""), "missing"),
    (lambda e: e.replace('why = "the hand shows a tie paid to one player"', 'why = ""'),
     "missing"),
    (lambda e: e + 'note = "extra"\n', "unknown"),
    (lambda e: e.replace("ps:101", "ps:999"), "does not appear"),
    (lambda e: e.replace("stars/cash/hands.txt", "stars/cash/gone.txt"), "not a file"),
    (lambda e: e.replace("[[finding]]", "[finding]"), "array of tables"),
    (lambda e: e + "[other]\n", "unknown top-level"),
    (lambda e: e + "[[finding\n", "not a readable allowlist"),
])
def test_an_incomplete_or_wrong_allowlist_entry_is_refused(small_corpus: Path, change,
                                                           complaint: str) -> None:
    path = small_corpus / "stars.toml"
    path.write_text(change(ENTRY))
    with pytest.raises(CorpusError, match=complaint):
        load_allowlist(path, small_corpus)


def test_the_allowlist_explains_its_findings_and_a_stale_entry_shows() -> None:
    allowed = [Allowed(file="stars/a.txt", hand="ps:1", rule_id="POT-TIE-SPLIT", why="w")]
    listed = Finding(file="stars/a.txt", hand="ps:1", rule_id="POT-TIE-SPLIT",
                     severity="violation", message="m")
    other_rule = Finding(file="stars/a.txt", hand="ps:1", rule_id="CHIP-SHORT-CALL",
                         severity="warning", message="m")
    other_file = Finding(file="stars/b.txt", hand="ps:1", rule_id="POT-TIE-SPLIT",
                         severity="violation", message="m")
    assert unexplained([listed, other_rule, other_file], allowed) == [other_rule, other_file]
    assert stale(allowed, [listed]) == []
    assert stale(allowed, [other_rule]) == allowed


# --- poker-audit bench --corpus --------------------------------------------------------------

SMALL_FILES = {  # a hand each that imports today
    "stars": "cash/Flop/6-Card-PLO-6max-USD-0.25-0.50-202004.txt",
    "ipoker": "cash/Flop/PLO-EUR-0.50-1.00-202009.no.uncalled.xml",
}


def test_bench_corpus_prints_a_table_per_site_and_json(tmp_path: Path) -> None:
    if not FPDB_DEV.exists():
        pytest.skip("../shared/data/fpdb-dev is not beside the checkout")
    root = tmp_path / "corpus"
    for site, rel in SMALL_FILES.items():
        target = root / site / rel
        target.parent.mkdir(parents=True)
        shutil.copyfile(FPDB_DEV / site / rel, target)
    (root / "stars" / "notes.txt").write_text("not a hand history\n")
    (root / "README.md").write_text("# a corpus\n")

    result = CliRunner().invoke(main, ["bench", "--corpus", str(root)])

    assert result.exit_code == 0, result.output
    table = result.stderr.splitlines()
    assert any(line.startswith("site ") and "imported" in line for line in table)
    rows = {line.split()[0]: line.split()[1:5] for line in table
            if line.split() and line.split()[0] in ("stars", "ipoker", "total")}
    # files, hands (headers), imported, % imported
    assert rows == {"ipoker": ["1", "1", "1", "100.0"], "stars": ["2", "1", "1", "100.0"],
                    "total": ["3", "2", "2", "100.0"]}
    out = json.loads(result.stdout)
    assert [s["site"] for s in out["sites"]] == ["ipoker", "stars"]
    stars = out["sites"][1]
    assert stars["unrecognised_files"] == ["stars/notes.txt"]
    assert (stars["files"], stars["hands"], stars["imported"]) == (2, 1, 1)
    assert set(stars["findings"]) == {"info", "warning", "violation", "critical"}
    assert stars["ingest_cpu_s"] > 0 and stars["hands_per_cpu_s"] > 0
    assert stars["read_hands"] >= stars["imported"] and stars["read_hands_per_cpu_s"] > 0
    assert out["total"]["imported"] == 2


def test_bench_corpus_without_the_corpus_names_the_path(tmp_path: Path, monkeypatch) -> None:
    missing = tmp_path / "shared" / "data" / "fpdb-dev"
    monkeypatch.setattr(corpus, "DEFAULT_CORPUS", missing)
    result = CliRunner().invoke(main, ["bench", "--corpus"])
    assert result.exit_code != 0
    assert str(missing) in result.output and "DIR" in result.output
    result = CliRunner().invoke(main, ["bench", "--quick", "--corpus", str(missing)])
    assert result.exit_code != 0 and str(missing) in result.output
