"""Full Tilt, PartyPoker and iPoker importers: real fpdb samples, fixtures, bad input, fuzzing."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.errors import AuditInputError
from audit.importers import IMPORTERS, detect_format
from audit.importers.base import Chunk, Rejected
from audit.importers.fulltilt import FullTiltImporter
from audit.importers.ipoker import IPokerImporter
from audit.importers.partypoker import PartyPokerImporter
from audit.importers.sitetext import decode_line
from audit.ingest.validate import validate_events
from tests.importers.sitecheck import loses_no_hand, mutated_lines
from tests.support.importing import by_hand, read_all

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "data" / "fpdb-sample"
SITES = ROOT / "fixtures" / "sites"
PUT_IN = ("post", "call", "bet", "raise", "complete")
FORMATS = {"ftp": "fulltilt", "party": "partypoker", "ipoker": "ipoker"}

# file -> (imported hands, quarantined entries, reason fragment of each quarantined entry)
EXPECTED: dict[str, tuple[int, int, list[str]]] = {
    "ftp-nlhe-6max.txt": (1, 0, []),
    "ftp-lo8-observed.txt": (1, 0, []),
    "party-nlhe-6max.txt": (1, 0, []),
    "party-lo8.txt": (1, 0, []),
    # the sample is cut off inside its only <game> (no </game>, no </session>)
    "ipoker-lhe.xml": (0, 1, ["no element found (file truncated?); this <game> is incomplete"]),
    # both games are complete; the file lacks only its closing </session>: reported, no loss
    "ipoker-5card-plo.xml": (2, 1, ["no element found (file truncated?); no hand is lost"]),
}

needs_samples = pytest.mark.skipif(not SAMPLES.exists(), reason="../shared samples missing")


def _importer(path: Path) -> Any:
    return IMPORTERS[FORMATS[path.name.split("-")[0]]]


def _validated(path: Path) -> Callable[[Chunk], None]:
    def check(chunk: Chunk) -> None:
        checked = validate_events(chunk.table, chunk.lines, str(path), "line")
        assert checked.rejected == [], [r.reason for r in checked.rejected]
        assert len(chunk.lines) == chunk.table.num_rows

    return check


def _read(importer: Any, path: Path) -> tuple[list[dict[str, Any]], list[int], list[Rejected]]:
    return read_all(importer, path, _validated(path))


_hands = by_hand


def _compact(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["kind"], r["seat"], r["amount"], r["total"], r["cards"], r["detail"])
            for r in rows]


# --- the real samples ----------------------------------------------------------------------


@needs_samples
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_counts_and_structure(name: str) -> None:
    path = SAMPLES / name
    rows, lines, rejected = _read(_importer(path), path)
    imported, quarantined, reasons = EXPECTED[name]
    assert len(_hands(rows)) == imported
    assert len(rejected) == quarantined
    for r, fragment in zip(rejected, reasons, strict=True):
        assert fragment in r.reason and r.line and r.raw
    for row, line in zip(rows, lines, strict=True):
        fmt = FORMATS[name.split("-")[0]]
        assert row["source"].startswith(f"{fmt}:{name}:{line}")


@needs_samples
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_detected_by_content(name: str, tmp_path: Path) -> None:
    copy = tmp_path / "renamed.dat"
    copy.write_bytes((SAMPLES / name).read_bytes())
    assert detect_format(copy) == FORMATS[name.split("-")[0]]


@needs_samples
def test_ftp_observed_omaha_hilo_events() -> None:
    rows, _, _ = _read(FullTiltImporter(), SAMPLES / "ftp-lo8-observed.txt")
    start = rows[0]
    assert start["hand_id"] == "ftp:1088791321" and start["table_id"] == "Vero"
    assert str(start["ts"]) == "2006-10-11 04:03:34+00:00"  # 0:03:34 ET (EDT) in UTC
    game = start["game"]
    assert (game["variant"], game["structure"], game["small_bet"], game["big_bet"],
            game["small_blind"], game["big_blind"], game["button_seat"], game["currency"],
            game["minor_per_unit"], game["seat_count"]) == (
        "omaha_hilo", "fixed_limit", 20000, 40000, 10000, 20000, 3, "USD", 100, 6)
    seats = [r for r in rows if r["kind"] == "seat"]
    assert (seats[3]["player"], seats[3]["detail"]) == ("Mike Matusow", "sitting_out")
    assert seats[4]["amount"] == 433950  # $4,339.50
    holes = [r for r in rows if r["kind"] == "deal" and r["detail"] == "hole"]
    assert len(holes) == 5 and {r["cards"] for r in holes} == {"?? ?? ?? ??"}  # no hero
    assert _compact(rows[-5:]) == [
        ("show", 2, None, None, "7d 2c Ks Ad", None),
        ("award", 1, 204850, None, None, "main/high"),
        ("award", 2, 204850, None, None, "main/low"),
        ("rake", None, 300, None, None, "rake"),
        ("hand_ended", None, None, None, None, "total_pot=410000"),  # `Total pot $4,100`
    ]
    said = [r for r in rows if r["kind"] == "annotation"]
    assert said[0]["detail"] == "said: mark karr HAHAHAHAAHA" and said[0]["seat"] is None


@needs_samples
def test_party_raises_are_chips_added() -> None:
    rows, _, _ = _read(PartyPokerImporter(), SAMPLES / "party-lo8.txt")
    assert rows[0]["hand_id"] == "party:11354414824"
    assert rows[0]["detail"] == "refunds=implicit;rake=implicit"
    assert str(rows[0]["ts"]) == "2012-01-26 23:13:53+00:00"  # 18:13:53 EST
    bets = [(r["kind"], r["seat"], r["amount"], r["total"]) for r in rows
            if r["kind"] in ("raise", "call")][:4]
    assert bets == [("raise", 9, 3000, 4000), ("raise", 10, 4000, 6000),
                    ("raise", 9, 4000, 8000), ("call", 10, 2000, 8000)]
    rows, _, _ = _read(PartyPokerImporter(), SAMPLES / "party-nlhe-6max.txt")
    assert rows[0]["game"]["small_blind"] == 2 and rows[0]["game"]["big_blind"] == 4
    assert [r["detail"] for r in rows if r["kind"] == "annotation"] == ["forward_fold"]
    assert _compact([r for r in rows if r["kind"] in ("muck", "award")]) == [
        ("muck", 3, None, None, "5c 4h", None), ("award", 5, 33, None, None, "main")]


@needs_samples
def test_ipoker_five_card_omaha_events() -> None:
    rows, _, _ = _read(IPokerImporter(), SAMPLES / "ipoker-5card-plo.xml")
    hand = _hands(rows)["ipoker:3422554305"]
    start = hand[0]
    assert start["game"]["variant"] == "omaha5" and start["game"]["currency"] == "EUR"
    assert "read from the hole-card count" in start["source"]
    assert "read as UTC" in start["source"]
    assert _compact([r for r in hand if r["kind"] in ("raise", "call", "bet", "award")]) == [
        ("raise", 1, 1000, 1200, None, None), ("call", 5, 800, 1200, None, None),
        ("bet", 1, 2400, 2400, None, None), ("award", 1, 2350, None, None, "main")]
    assert hand[-1]["detail"] == "invested=1:3600,5:1200"  # the players' own bet totals


def _put_in(hand: list[dict[str, Any]]) -> dict[int, int]:
    out: dict[int, int] = defaultdict(int)
    for r in hand:
        if r["kind"] in PUT_IN:
            out[r["seat"]] += r["amount"]
    return out


@needs_samples
# ipoker-lhe.xml imports no hand (its only <game> is cut off): nothing to balance there
@pytest.mark.parametrize("name", sorted(n for n, (hands, _, _) in EXPECTED.items() if hands))
def test_chips_balance(name: str) -> None:
    """Explicit sources: awards (incl. uncalled) + rake == chips put in.  Implicit ones
    (refunds / rake not logged): awards never exceed what was put in, and iPoker's own
    per-player totals equal what the events put in."""
    path = SAMPLES / name
    rows, _, _ = _read(_importer(path), path)
    hands = _hands(rows)
    assert hands, name
    for hand in hands.values():
        put_in = sum(_put_in(hand).values())
        paid = sum(r["amount"] for r in hand if r["kind"] in ("award", "rake"))
        if "implicit" in (hand[0]["detail"] or ""):
            assert 0 < paid <= put_in
        else:
            assert paid == put_in
        if name.startswith("ipoker"):
            stated = dict(x.split(":") for x in hand[-1]["detail"][9:].split(","))
            assert {int(k): int(v) for k, v in stated.items()} == dict(_put_in(hand))


def test_ftp_fixture_side_pot_uncalled_and_chat() -> None:
    rows, _, rejected = _read(FullTiltImporter(), SITES / "ftp-sidepot-uncalled.txt")
    assert rejected == []
    hands = _hands(rows)
    first, second = hands["ftp:20000000001"], hands["ftp:20000000002"]
    assert _compact([r for r in first if r["kind"] in ("raise", "call", "award", "rake")]) == [
        ("raise", 4, 800, 800, None, None), ("raise", 1, 4900, 5000, None, "all_in"),
        ("call", 2, 4800, 5000, None, None), ("raise", 4, 11200, 12000, None, "all_in"),
        ("call", 2, 7000, 12000, None, None), ("award", 4, 13900, None, None, "side-1"),
        ("award", 1, 14900, None, None, "main"), ("rake", None, 200, None, None, "rake")]
    assert _compact([r for r in second if r["kind"] in ("award", "annotation")]) == [
        ("annotation", 2, None, None, None, "said: nh"),
        ("award", 1, 400, None, None, "uncalled"), ("award", 1, 500, None, None, "main")]
    for hand in hands.values():
        paid = sum(r["amount"] for r in hand if r["kind"] in ("award", "rake"))
        assert paid == sum(_put_in(hand).values())


# --- bad input -----------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _fixture_text() -> str:
    return (SITES / "ftp-sidepot-uncalled.txt").read_text()


def test_ftp_unknown_line_quarantines_only_that_hand(tmp_path: Path) -> None:
    text = _fixture_text().replace("Bob calls $70\n", "Bob calls $70\nBob juggles the chips\n")
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "x.txt", text.encode()))
    assert list(_hands(rows)) == ["ftp:20000000002"]
    (r,) = rejected
    assert (r.line, r.hand_id) == (1, "ftp:20000000001")
    assert r.reason == "line 15: unknown line: 'Bob juggles the chips'"
    assert "Bob juggles the chips" in r.raw


def test_ftp_truncated_hand_and_garbage(tmp_path: Path) -> None:
    text = _fixture_text()
    cut = text[: text.index("*** SUMMARY ***", text.index("20000000002"))]
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "t.txt", cut.encode()))
    assert list(_hands(rows)) == ["ftp:20000000001"]
    assert "without '*** SUMMARY ***' (truncated?)" in rejected[0].reason
    garbage = b"\x00\xff\xfe garbage\n" + text.encode().replace(b"Cat folds", b"Cat \x81\x00 folds")
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "g.txt", garbage))
    assert list(_hands(rows)) == ["ftp:20000000001"]
    assert [r.hand_id for r in rejected] == [None, "ftp:20000000002"]
    assert "text outside any hand" in rejected[0].reason


FTP_STUD = """\
Full Tilt Poker Game #30000000001: Table Stud Fixture (8 max) - $0.10/$0.20 - \
Limit 7 Card Stud - 21:11:41 ET - 2009/02/23
Seat 1: Ann ($5)
Seat 2: Bob ($5)
Seat 3: Cy ($5)
Ann antes $0.02
Bob antes $0.02
Cy antes $0.02
*** 3RD STREET ***
Dealt to Ann [Ah Kd 2c]
Dealt to Bob [9s]
Dealt to Cy [Qh]
Ann completes it to $0.10
Bob calls $0.10
Cy folds
*** 4TH STREET ***
Dealt to Ann [Ah Kd 2c] [7d]
Dealt to Bob [9s] [9h]
Bob bets $0.20
Ann calls $0.20
*** 5TH STREET ***
Dealt to Ann [Ah Kd 2c 7d] [3s]
Dealt to Bob [9s 9h] [Tc]
Bob checks
Ann checks
*** 6TH STREET ***
Dealt to Ann [Ah Kd 2c 7d 3s] [4c]
Dealt to Bob [9s 9h Tc] [Jd]
Bob checks
Ann checks
*** 7TH STREET ***
Dealt to Ann [Ah Kd 2c 7d 3s 4c] [5h]
Bob checks
Ann bets $0.20
Bob folds
Uncalled bet of $0.20 returned to Ann
Ann wins the pot ($0.66)
*** SUMMARY ***
Total pot $0.66 | Rake $0
Seat 1: Ann won ($0.66)
"""


def test_ftp_stud_deal_bring_in_assumed_and_hidden_seventh_card(tmp_path: Path) -> None:
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "s.txt", FTP_STUD.encode()))
    assert rejected == []
    game = rows[0]["game"]
    assert (game["variant"], game["small_bet"], game["big_bet"], game["ante"],
            game["bring_in"], game["button_seat"], game["big_blind"]) == (
        "stud", 10, 20, 2, 5, None, None)
    assert rows[0]["source"].endswith(";bring_in=assumed half the small bet")
    deals = [(r["seat"], r["detail"], r["cards"]) for r in rows if r["kind"] == "deal"]
    assert deals[:6] == [(1, "down", "Ah Kd"), (1, "up", "2c"), (2, "down", "?? ??"),
                         (2, "up", "9s"), (3, "down", "?? ??"), (3, "up", "Qh")]
    # 7th street: Ann's card is shown to her, Bob's is dealt face down and unseen
    assert deals[-2:] == [(1, "down", "5h"), (2, "down", "??")]
    assert [(r["kind"], r["amount"], r["total"]) for r in rows
            if r["kind"] in ("complete", "call") and r["seat"] == 1] == [
        ("complete", 10, 10), ("call", 20, 20)]


@pytest.mark.parametrize(("change", "reason"), [
    (("*** 5TH STREET ***", "*** 6TH STREET ***"), "stud street out of order"),
    (("*** 4TH STREET ***", "*** FLOP *** [2c 3d 4h]"), "not a stud street"),
    (("Dealt to Bob [9s]\n", "Dealt to Bob [9s]\nDealt to Bob [8s]\n"), "a second deal"),
    (("Limit 7 Card Stud", "Limit Lowball"), "unsupported Full Tilt game (a lowball"),
])
def test_ftp_stud_bad_hands_are_quarantined(tmp_path: Path, change: tuple[str, str],
                                            reason: str) -> None:
    text = FTP_STUD.replace(*change, 1)
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "s.txt", text.encode()))
    assert rows == []
    assert [(r.hand_id, reason in r.reason) for r in rejected] == [("ftp:30000000001", True)]


FTP_DRAW = """\
Full Tilt Poker Game #30000000002: Table Draw Fixture (6 max) - $0.10/$0.20 - \
Limit 5 Card Draw - 21:15:00 ET - 2009/02/23
Seat 1: Ann ($5)
Seat 2: Bob ($5)
Seat 3: Cy ($5)
Bob posts the small blind of $0.05
Cy posts the big blind of $0.10
The button is in seat #1
*** HOLE CARDS ***
Dealt to Ann [Ah Kd 2c 7d 3s]
Ann calls $0.10
Bob calls $0.05
Cy checks
*** DRAW ***
Bob discards 2 cards
Cy stands pat
Ann discards 3 cards [2c 7d 3s]
Dealt to Ann [Ah Kd] [As Kh Qc]
Bob checks
Cy bets $0.20
Ann calls $0.20
Bob folds
*** SHOW DOWN ***
Cy shows [9h 9d 4c 4d 2s] two pair, Nines and Fours
Ann shows [Ah Kd As Kh Qc] two pair, Aces and Kings
Ann wins the pot ($0.70)
*** SUMMARY ***
Total pot $0.70 | Rake $0
Seat 1: Ann (button) showed [Ah Kd As Kh Qc] and won ($0.70)
"""


def test_ftp_draw_discards_replacements_and_stand_pat(tmp_path: Path) -> None:
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "d.txt", FTP_DRAW.encode()))
    assert rejected == []
    assert rows[0]["game"]["variant"] == "draw_high"
    assert [(r["seat"], r["kind"], r["cards"]) for r in rows if r["kind"] == "deal"] == [
        (1, "deal", "Ah Kd 2c 7d 3s"), (2, "deal", "?? ?? ?? ?? ??"),
        (3, "deal", "?? ?? ?? ?? ??"), (2, "deal", "?? ??"), (1, "deal", "As Kh Qc")]
    assert [(r["seat"], r["kind"], r["amount"], r["cards"]) for r in rows
            if r["kind"] in ("draw", "stand_pat")] == [
        (2, "draw", 2, "?? ??"), (3, "stand_pat", None, None), (1, "draw", 3, "2c 7d 3s")]


@pytest.mark.parametrize(("change", "reason"), [
    (("Ann discards 3 cards [2c 7d 3s]", "Ann discards 2 cards [2c 7d 3s]"),
     "do not match their count"),
    (("Dealt to Ann [Ah Kd] [As Kh Qc]", "Dealt to Cy [9h 9d 4c 4d] [2s]"),
     "did not discard"),
    (("Dealt to Ann [Ah Kd] [As Kh Qc]", "Dealt to Ann [Ah Kd] [As Kh]"), "as many cards"),
])
def test_ftp_bad_draw_hands_are_quarantined(tmp_path: Path, change: tuple[str, str],
                                            reason: str) -> None:
    text = FTP_DRAW.replace(*change, 1)
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "d.txt", text.encode()))
    assert rows == []
    assert [(r.hand_id, reason in r.reason) for r in rejected] == [("ftp:30000000002", True)]


def test_party_tournament_blinds_antes_level_and_chips(tmp_path: Path) -> None:
    from audit.ingest.pipeline import ingest
    from audit.run.runner import audit_store, read_findings
    from audit.store.dataset import Store

    rows, _, rejected = _read(PartyPokerImporter(), SITES / "party-mtt-nlhe.txt")
    assert rejected == []
    hands = _hands(rows)
    assert list(hands) == ["party:20000000001", "party:20000000002"]
    first = hands["party:20000000001"][0]
    game = {k: v for k, v in first["game"].items() if v is not None}
    assert game == {"variant": "holdem", "structure": "no_limit", "small_blind": 50,
                    "big_blind": 100, "ante": 10, "button_seat": 2, "seat_count": 9,
                    "currency": "CHIPS", "minor_per_unit": 1, "tournament": True, "level": 3}
    assert first["detail"] == "refunds=implicit"  # a tournament pays no rake
    second = hands["party:20000000002"]
    assert [(r["seat"], r["amount"], r["detail"]) for r in second if r["kind"] == "award"] == [
        (1, 2160, "main"), (2, 1000, "side-1")]
    assert [(r["kind"], r["amount"], r["total"], r["detail"]) for r in second
            if r["seat"] == 1 and r["kind"] in PUT_IN] == [
        ("post", 10, None, "ante"), ("post", 100, 100, "big_blind"),
        ("raise", 590, 690, "all_in")]
    store = Store(tmp_path / "store")
    summary = ingest([SITES / "party-mtt-nlhe.txt"], store)
    assert (summary.hands, summary.quarantined) == (2, 0)
    audit_store(store)
    assert [(r["hand_id"], r["rule_id"], r["message"]) for r in read_findings(store).to_pylist()
            if r["severity"] != "info"] == []


def test_party_fixed_limit_tournament_bets_the_big_blind_and_twice_it(tmp_path: Path) -> None:
    # `FL ... Blinds-Antes(50/100 -10)`: the blinds; the small bet is the big blind
    text = (SITES / "party-mtt-nlhe.txt").read_text().replace("NL Texas", "FL Texas", 1)
    rows, _, rejected = _read(PartyPokerImporter(), _write(tmp_path, "p.txt", text.encode()))
    assert rejected == []
    game = _hands(rows)["party:20000000001"][0]["game"]
    assert (game["structure"], game["small_blind"], game["big_blind"], game["small_bet"],
            game["big_bet"], game["ante"]) == ("fixed_limit", 50, 100, 100, 200, 10)


def test_amount_past_64_bits_quarantines_that_hand_only(tmp_path: Path) -> None:
    # An amount no int64 holds used to fail the whole file with a traceback.
    text = re.sub(r"^(Seat 1: \S+ )\(\$[0-9.,]+\)", r"\1($99999999999999999999)",
                  _fixture_text(), count=1, flags=re.M)
    rows, _, rejected = _read(FullTiltImporter(), _write(tmp_path, "x.txt", text.encode()))
    assert list(_hands(rows)) == ["ftp:20000000002"]
    assert [(r.line, r.hand_id, "does not fit the event schema" in r.reason, bool(r.raw))
            for r in rejected] == [(1, "ftp:20000000001", True, True)]


def test_party_unknown_line(tmp_path: Path) -> None:
    if not SAMPLES.exists():
        pytest.skip("samples missing")
    text = (SAMPLES / "party-lo8.txt").read_text().replace("Player0 checks\n",
                                                           "Player0 dances\n", 1)
    rows, _, rejected = _read(PartyPokerImporter(), _write(tmp_path, "p.txt", text.encode()))
    assert rows == [] and rejected[0].hand_id == "party:11354414824"
    assert rejected[0].reason == "line 20: unknown line: 'Player0 dances'"


_IPOKER_GAME = """ <game gamecode="{code}">
  <general>
   <startdate>2019-05-26 20:10:33</startdate>
   <players>
    <player win="€4" chips="€301,49" bet="€4" seat="1" dealer="0" name="Player0"/>
    <player win="€0" chips="€160" bet="€2" seat="5" dealer="1" name="Hero"/>
   </players>
  </general>
  <round no="0">
   <action cards="" no="1" player="Hero" type="1" sum="€2"/>
   <action cards="" no="2" player="Player0" type="2" sum="€4"/>
  </round>
  <round no="1">
   <cards player="Player0" type="Pocket">X X X X</cards>
   <cards player="Hero" type="Pocket">S2 DK C3 D7</cards>
   <action cards="" no="3" player="Hero" type="{fold}" sum="€0"/>
  </round>
 </game>
"""


def _ipoker(*games: str, prolog: str = "") -> bytes:
    head = ('<?xml version="1.0" encoding="utf-8"?>\n' + prolog +
            "<session sessioncode=\"1\">\n <general>\n  <mode>real</mode>\n"
            "  <gametype>Omaha PL €2/€4</gametype>\n  <tablename>T, 1</tablename>\n"
            "  <currency>EUR</currency>\n  <nickname>Hero</nickname>\n </general>\n")
    return (head + "".join(games) + "</session>\n").encode()


def test_ipoker_unknown_action_type_and_malformed_xml(tmp_path: Path) -> None:
    good, odd = _IPOKER_GAME.format(code=1, fold=0), _IPOKER_GAME.format(code=2, fold=99)
    rows, _, rejected = _read(IPokerImporter(),
                              _write(tmp_path, "a.xml", _ipoker(
                                  good, odd, _IPOKER_GAME.format(code=3, fold=0))))
    assert list(_hands(rows)) == ["ipoker:1", "ipoker:3"]
    assert [r.hand_id for r in rejected] == ["ipoker:2"]
    assert "unknown iPoker action type '99'" in rejected[0].reason
    broken = good.replace("</round>\n </game>", "</rund>\n </game>")
    third = _IPOKER_GAME.format(code=3, fold=0)
    rows, _, rejected = _read(
        IPokerImporter(),
        _write(tmp_path, "b.xml", _ipoker(_IPOKER_GAME.format(code=9, fold=0), broken, third)))
    assert list(_hands(rows)) == ["ipoker:9"]
    assert [r.hand_id for r in rejected] == ["ipoker:1", "ipoker:3"]
    assert "line 44, column 4: mismatched tag" in rejected[0].reason and rejected[0].line == 28
    assert "cannot be parsed" in rejected[1].reason


@pytest.mark.parametrize("prolog", [
    '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n',
    '<!DOCTYPE session SYSTEM "http://example.com/evil.dtd">\n',
])
def test_ipoker_refuses_doctype_and_entities(tmp_path: Path, prolog: str) -> None:
    path = _write(tmp_path, "bomb.xml",
                  _ipoker(_IPOKER_GAME.format(code=1, fold=0), prolog=prolog))
    with pytest.raises(AuditInputError, match="DOCTYPE"):
        list(IPokerImporter().read(path))


# --- fuzzing -------------------------------------------------------------------------------

_FTP_HEAD = re.compile(r"^Full Tilt Poker Game #\d+: ")
_PARTY_PREAMBLE = re.compile(r"^(?:Game #\d+ starts\.?|#Game No ?: ?\d+)$")
_PARTY_HH = re.compile(r"^\*{5} ?Hand History [Ff]or Game \w+ ?\*{5}$")
_XML_GAME = re.compile(r"<game\b[^>]*gamecode=")


def _header_lines(fmt: str, data: bytes) -> set[int]:
    out: set[int] = set()
    after_start = False
    run_start = 0
    for n, raw in enumerate(data.split(b"\n"), start=1):
        # decoded as the readers decode a line (bytes that are not UTF-8 read as cp1252), so
        # a stray byte that is whitespace there (\xa0) is whitespace here too
        text = decode_line(raw).lstrip("\ufeff").rstrip()
        if fmt == "fulltilt" and _FTP_HEAD.match(text):
            out.add(n)
        elif fmt == "partypoker":
            # a hand: a run of preamble / header lines (blank lines between) holding the
            # `Hand History` line; it starts at the run's first line
            party = " ".join(text.replace("\x00", " ").split())
            if _PARTY_PREAMBLE.match(party) or _PARTY_HH.match(party):
                if not after_start:
                    run_start = n
                after_start = True
                if _PARTY_HH.match(party):
                    out.add(run_start)
            elif party:
                after_start = False
        elif fmt == "ipoker" and _XML_GAME.search(text):
            out.add(n)
    return out


_SOURCES = [("fulltilt", SITES / "ftp-sidepot-uncalled.txt"),
            ("partypoker", SITES / "party-mtt-nlhe.txt")] + (
    [(FORMATS[p.name.split("-")[0]], p) for p in sorted(SAMPLES.glob("*"))
     if p.name.split("-")[0] in FORMATS] if SAMPLES.exists() else [])


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    fmt, path = draw(st.sampled_from(_SOURCES))
    return fmt, draw(mutated_lines(path.read_bytes()))


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_mutated())
def test_fuzz_never_crashes_never_loses_a_hand(case: tuple[str, bytes], tmp_path_factory: Any
                                               ) -> None:
    fmt, data = case
    path = tmp_path_factory.mktemp("fuzz") / "mutated.dat"
    path.write_bytes(data)
    loses_no_hand(IMPORTERS[fmt], path, lambda: _header_lines(fmt, data), exact=True,
                  seq=False)
