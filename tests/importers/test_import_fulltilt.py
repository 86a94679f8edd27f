"""Full Tilt Poker's grammar as its real files write it (issue 21): each fixture in
fixtures/sites/ftp-*.txt is an excerpt copied as it is from ../shared/data/fpdb-dev/ftp (the
file named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from audit.importers import detect_format
from audit.importers.fulltilt import FullTiltImporter
from audit.importers.sitetext import sniff_text, utf16_encoding
from tests.importers.sitecheck import SITES, kinds, read, warnings


def _read(name: str) -> tuple[dict[str, list[dict[str, Any]]], list[Any]]:
    hands, rejected, _ = read(FullTiltImporter(), SITES / name, validate=False)
    return hands, rejected


def _warnings(tmp_path: Path, *names: str, profile: str = "fulltilt") -> list[tuple]:
    return warnings(tmp_path, *names, profile=profile)


def test_utf16_file_with_a_stray_last_byte_is_sniffed_and_read() -> None:
    # cash/Draw/3-Draw-Limit-USD-0.10-0.20-201011.txt: UTF-16 LE with a BOM, an odd byte count
    raw = (SITES / "ftp-utf16-triple-draw.txt").read_bytes()
    assert len(raw) % 2 == 1 and utf16_encoding(raw) == "utf-16"
    assert sniff_text(raw).startswith("Full Tilt Poker Game #25325440000")
    assert detect_format(SITES / "ftp-utf16-triple-draw.txt") == "fulltilt"
    hands, rejected = _read("ftp-utf16-triple-draw.txt")
    assert rejected == [] and list(hands) == ["ftp:25325440000"]


def test_utf16_without_a_bom_is_recognised() -> None:
    text = "Full Tilt Poker Game #1: Table T - $1/$2 - No Limit Hold'em - 1:00:00 ET - 2010/01/01\n"
    assert utf16_encoding(text.encode("utf-16-le")) == "utf-16-le"
    assert utf16_encoding(text.encode("utf-16-be")) == "utf-16-be"
    assert utf16_encoding(text.encode("utf-8")) is None
    assert utf16_encoding(b"Game #1\n\x00\n\x00#Game No : 1\n") is None  # stray NULs in UTF-8


def test_triple_draw_discards_then_unseen_replacements() -> None:
    # `*** FIRST DRAW *** (Pot: $0.45)`, `Player1 discards 1 card`, `Player1 is dealt 1 card`;
    # Player2, Player4 and Player5 sit out, which only the summary says
    hands, _ = _read("ftp-utf16-triple-draw.txt")
    rows = hands["ftp:25325440000"]
    game = rows[0]["game"]
    assert (game["variant"], game["structure"], game["small_bet"], game["big_bet"],
            game["small_blind"], game["big_blind"]) == (
        "lowball_27_triple", "fixed_limit", 10, 20, 5, 10)
    assert [r["seat"] for r in rows if r["kind"] == "seat" and r["detail"] == "sitting_out"
            ] == [2, 4, 5]
    assert kinds(rows, "draw") == [(1, 1, "??", None), (3, 2, "?? ??", None),
                                    (3, 1, "??", None)]
    assert kinds(rows, "deal", "draw") == [(1, None, "??", "draw"), (3, None, "?? ??", "draw"),
                                           (3, None, "??", "draw")]
    assert len([r for r in rows if r["kind"] == "stand_pat"]) == 3
    assert rows[-1]["detail"] == "total_pot=105"  # `Total pot $1.05 | Rake $0.05`
    assert kinds(rows, "rake") == [(None, 5, None, "rake")]


def test_a_hand_called_off_before_the_deal_is_imported_as_cancelled() -> None:
    # cash/Draw/3-Draw-Limit-USD-10-20-201101.Dead.hand.txt: the small blind posts, the other
    # player sits out, `Total pot $0`; heads-up, so the small blind's seat is the button
    hands, rejected = _read("ftp-utf16-called-off.txt")
    assert rejected == []
    rows = hands["ftp:26884156000"]
    assert "cancelled=true" in rows[0]["detail"]
    assert rows[0]["game"]["button_seat"] == 1 and rows[0]["game"]["seat_count"] == 2
    assert rows[-1]["detail"] == "total_pot=0"


def test_capped_table_gives_the_cap_to_the_replay(tmp_path: Path) -> None:
    # cash/Flop/PLO-6max-USD-5.00-10.00-201010.CAP.txt: `$5/$10 - $400 Pot Limit Omaha Hi`,
    # `Player0 bets $295, and is capped`
    hands, _ = _read("ftp-capped-plo.txt")
    rows = hands["ftp:24378450480"]
    assert rows[0]["game"]["house_overrides"] == '{"stakes.hand_cap": 40000}'
    assert [r["detail"] for r in rows if r["kind"] == "bet"] == [None]  # capped is not all in
    assert _warnings(tmp_path, "ftp-capped-plo.txt") == []


def test_run_it_twice_boards_and_pots() -> None:
    # cash/Flop/PLO-6max-USD-2.00-4.00-201211.RIT.side.pot.txt
    hands, _ = _read("ftp-run-it-twice-side-pot.txt")
    rows = hands["ftp:31318697695"]
    assert kinds(rows, "deal", "board") == [(None, None, "2c As Jh", "board"),
                                            (None, None, "9h", "board"),
                                            (None, None, "Kh", "board")]
    assert kinds(rows, "deal", "board@run2") == [(None, None, "Th", "board@run2"),
                                                 (None, None, "5d", "board@run2")]
    assert kinds(rows, "award") == [(2, 5600, None, "uncalled"), (2, 7635, None, "side-1"),
                                    (2, 7760, None, "main"), (1, 7760, None, "main@run2")]
    assert rows[-1]["detail"] == "total_pot=23455;pots=main:15820,side-1:7635"


def test_razz_all_in_on_the_ante_shown_on_third_street(tmp_path: Path) -> None:
    # tour/Stud/Razz-USD-HUSNG-200-201211.all.in.ante.txt: `*** 3RD STREET *** (Total Pot:
    # 12, 2 Players, 1 All-In)`, `Hero is high with [7d]`, both hands shown on 3rd street
    hands, rejected = _read("ftp-razz-all-in-ante.txt")
    assert rejected == []
    rows = hands["ftp:31349767778"]
    assert rows[0]["table_id"] == "243603038 1" and rows[0]["game"]["tournament"]
    assert [r["cards"] for r in rows if r["kind"] == "show" and r["seat"] == 2] == [
        "9d 9s 2c", "9d 9s 2c Ks Td Jh 2s"]
    assert _warnings(tmp_path, "ftp-razz-all-in-ante.txt") == []


def test_tournament_match_headers_summary_awards_and_the_summary_board(tmp_path: Path) -> None:
    # tour/Flop/NLHE-6max-Matrix-USD-26-201211.match{1,4}.txt: `$26 Super Turbo Matrix
    # (244669447), Match 1 - 20/40 - ...` with the ET time in brackets
    hands, rejected = _read("ftp-matrix-tourney.txt")
    start = hands["ftp:31493020221"][0]
    assert start["table_id"] == "244669447 Match 1"
    assert str(start["ts"]) == "2012-11-23 07:24:50+00:00"  # 02:24:50 ET
    # everyone folds to the big blind: the summary alone says `collected (40)`
    assert kinds(hands["ftp:31493020221"], "award") == [(5, 20, None, "uncalled"),
                                                        (5, 40, None, "main")]
    # the same with no `Uncalled bet` line: the walk's return is implicit
    walk = hands["ftp:31493033197"]
    assert walk[0]["detail"] == "refunds=implicit"
    assert kinds(walk, "award") == [(1, 60, None, "main")]
    # the body stops at the turn; the summary's board names the river
    assert kinds(hands["ftp:31493022176"], "deal", "board")[-1] == (None, None, "2c", "board")
    # a hand logged as its summary alone is quarantined with the reason
    assert [(r.hand_id, "summary-only hand" in r.reason) for r in rejected] == [
        ("ftp:31493008842", True)]
    assert _warnings(tmp_path, "ftp-matrix-tourney.txt") == []


def test_observed_hand_without_seat_lines_takes_the_summary_seats() -> None:
    # cash/Flop/NLHE-6max-USD-25-50.200610.Observed.No.player.stacks.txt
    hands, rejected = _read("ftp-observed-no-stacks.txt")
    assert rejected == []
    rows = hands["ftp:1083884910"]
    assert [(r["seat"], r["player"], r["amount"]) for r in rows if r["kind"] == "seat"] == [
        (3, "cinidy lynn", None), (4, "durrrr", None)]
    assert "stacks=not logged" in rows[0]["source"]


@pytest.mark.parametrize("name", ["ftp-hm2-archive.txt", "ftp-archive-separators.txt"])
def test_archive_framing_is_not_a_hand(name: str) -> None:
    # cash/Flop/NLHE-6max-USD-0.50-1.00-200605.HM2.archive.txt (`BEGIN`, `FullTiltPoker Game`,
    # `Duration 41s`) and ...200902.archive.missing.first.line.txt (a UTF-8 BOM and
    # `******************** # 2 *******************` between hands)
    hands, rejected = _read(name)
    assert rejected == [] and hands
    assert detect_format(SITES / name) == "fulltilt"


def test_irish_discards_after_the_flop(tmp_path: Path) -> None:
    # cash/Flop/NL-Irish-6max-USD-2.00-4.00-201304.txt: `*** DISCARD ROUND ***`,
    # `Player0 discards`, `Hero discards [9h 9c]`
    hands, rejected = _read("ftp-irish.txt")
    assert rejected == []
    rows = hands["ftp:32447075821"]
    assert rows[0]["game"]["variant"] == "irish"
    assert kinds(rows, "deal", "hole") == [(3, None, "?? ?? ?? ??", "hole"),
                                           (4, None, "9h 9c Ts Kc", "hole")]
    assert kinds(rows, "draw") == [(3, 0, "?? ??", None), (4, 0, "9h 9c", None)]
    assert _warnings(tmp_path, "ftp-irish.txt") == []


def test_ace_to_five_triple_draw_is_its_own_game(tmp_path: Path) -> None:
    # `Limit A-5 Triple Draw` (before: quarantined as unsupported): the triple draw's grammar,
    # dealt as lowball_a5_triple, the game whose book A-5 rules (one draw) do not apply
    raw = (SITES / "ftp-utf16-triple-draw.txt").read_bytes()[:-1].decode("utf-16")  # stray byte
    path = tmp_path / "a5.txt"
    path.write_text(raw.replace("Limit 2-7 Triple Draw", "Limit A-5 Triple Draw"),
                    encoding="utf-16")
    hands, rejected, _ = read(FullTiltImporter(), path, validate=True)
    assert rejected == [] and list(hands) == ["ftp:25325440000"]
    rows = hands["ftp:25325440000"]
    assert (rows[0]["game"]["variant"], rows[0]["game"]["structure"]) == (
        "lowball_a5_triple", "fixed_limit")
    assert len([r for r in rows if r["kind"] == "draw"]) == 3


def test_unsupported_game_and_unstated_stakes_name_the_reason(tmp_path: Path) -> None:
    a5 = ("Full Tilt Poker Game #32447075821: Table Armonia (6 max) - $2/$4 - Limit Lowball "
          "- 00:56:40 ET - 2013/04/07\nSeat 3: Player0 ($688.20)\n*** SUMMARY ***\n")
    flipout = ("Full Tilt Poker Game #34541726731: $300 Flipout (272237051), Table 1 - NL "
               "Hold'em - 2B/2B Ante 2B - 04:46:00 ET - 2014/08/07\nSeat 1: Player0 (3,000)\n")
    path = tmp_path / "x.txt"
    path.write_text(a5 + flipout)
    reasons = [r.reason for c in FullTiltImporter().read(path) for r in c.rejected]
    assert "unsupported Full Tilt game (a lowball game the header does not name)" in reasons[0]
    assert "stakes '2B/2B Ante 2B' state no amounts" in reasons[1]


def test_table_notes_about_seated_players_are_annotations(tmp_path: Path) -> None:
    text = (SITES / "ftp-razz-all-in-ante.txt").read_text().replace(
        "*** SUMMARY ***", "Player0 finished the tournament in 2nd place\n"
        "Player0 has left the table\n*** SUMMARY ***")
    path = tmp_path / "notes.txt"
    path.write_text(text)
    rows = [r for c in FullTiltImporter().read(path) for r in c.table.to_pylist()]
    assert [(r["player"], r["detail"]) for r in rows if r["kind"] == "annotation"] == [
        ("Player0", "finished"), ("Player0", "table_change")]
