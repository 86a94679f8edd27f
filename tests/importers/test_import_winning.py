"""Winning Poker Network's two grammars as its real files write them (issue 22): each fixture
in fixtures/sites/wpn-*.txt is copied as it is from ../shared/data/fpdb-dev/winning (the file
named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import detect_format
from audit.importers.sitetext import utf16_encoding
from audit.importers.winning import WinningImporter
from audit.rules.profiles import load_profile
from tests.importers.sitecheck import (
    MUTATIONS,
    SITES,
    kinds,
    mutate,
    never_loses_a_hand,
    read,
    warnings,
)

FIXTURES = sorted(p.name for p in SITES.glob("wpn-*.txt"))


@pytest.mark.parametrize("name", FIXTURES)
def test_every_fixture_is_recognised_and_read(name: str, tmp_path: Path) -> None:
    assert detect_format(SITES / name) == "winning"
    hands, rejected, _ = read(WinningImporter(), SITES / name)
    assert hands
    assert [r.reason for r in rejected if "cut short" not in r.reason] == []
    for rows in hands.values():
        assert rows[0]["kind"] == "hand_started" and rows[-1]["kind"] == "hand_ended"
        assert all(r["hand_id"].startswith("wpn:") for r in rows)
        assert all(r["source"].startswith(f"winning:{name}:") for r in rows)
    assert warnings(tmp_path, name) == []


def test_utf16_with_stray_byte_and_structure_from_the_big_blind() -> None:
    # cash/Flop/LHE-2max-USD-2.00-4.00-201608.HH00000000 G0.txt: UTF-16 with a BOM, an odd
    # last byte; `Game ID: 693968595 2/4 Airavata 2 (Hold'em)` names no structure: the big
    # blind of 2 is the lower stake, so 2/4 is a fixed-limit game
    raw = (SITES / "wpn-lhe-utf16.txt").read_bytes()
    assert utf16_encoding(raw) == "utf-16" and len(raw) % 2 == 1
    hands, _, _ = read(WinningImporter(), SITES / "wpn-lhe-utf16.txt")
    rows = hands["wpn:693968595"]
    game = rows[0]["game"]
    assert (game["structure"], game["small_bet"], game["big_bet"], game["small_blind"],
            game["big_blind"], game["currency"]) == ("fixed_limit", 200, 400, 100, 200, "USD")
    assert "structure=fixed limit" in rows[0]["source"]
    # `raises (3)`: chips added (the small blind's 1 + 3 = 4, two bets)
    assert kinds(rows, "raise") == [(2, 300, None, None)]
    assert kinds(rows, "rake") == [(None, 15, None, "rake")]
    assert kinds(rows, "award") == [(2, 200, None, "uncalled"), (2, 785, None, "main")]
    assert rows[-1]["detail"] == "total_pot=800"  # `Pot: 7.85. Rake 0.15`


def test_disconnection_protection_keeps_him_in_for_what_he_put_in(tmp_path: Path) -> None:
    # cash/Flop/PLO8-6max-USD-40-80-201610.disconnected.allin...: `Player Player0 is
    # disconnected and ALL IN.`, `Player Player0 allin` with 937 behind; he wins the high half
    hands, _, _ = read(WinningImporter(), SITES / "wpn-disconnected-allin.txt")
    rows = hands["wpn:741631166"]
    assert kinds(rows, "annotation") == [(2, None, None, "all_in_protection")]
    assert kinds(rows, "rake") == [(None, 276, None, "rake"), (None, 24, None, "jackpot")]
    assert rows[-1]["detail"] == "total_pot=48000"  # `Pot: 477. Rake 2.76. JP fee 0.24`
    assert load_profile("winning")["allin.disconnect_protection"] is True
    assert load_profile("montana")["allin.disconnect_protection"] is False
    assert warnings(tmp_path, "wpn-disconnected-allin.txt") == []
    # by the book a player who does not act facing a bet holds up the hand
    assert ("wpn:741631166", "DEAL-PREMATURE") in warnings(
        tmp_path / "m", "wpn-disconnected-allin.txt", profile="montana")


def test_unnamed_player_is_the_seat_the_hand_never_names() -> None:
    # cash/Flop/NLHE-9max-USD-1.00-2.00-201612.Unknown.Player.Acts...: `Player  has big blind
    # (2)` with an empty name; Player7 (seat 4, listed last) is never named; Player2 sits out
    hands, _, _ = read(WinningImporter(), SITES / "wpn-unnamed-player.txt")
    rows = hands["wpn:665312038"]
    assert kinds(rows, "post", "big_blind") == [(4, 200, None, "big_blind")]
    assert "the unnamed player is 'Player7'" in rows[0]["source"]
    assert (3, 10000, None, "sitting_out") in kinds(rows, "seat")
    assert kinds(rows, "rake") == [(None, 171, None, "rake"), (None, 24, None, "jackpot")]
    second = hands["wpn:665307190"]
    assert kinds(second, "award", "uncalled") == [(5, 1018, None, "uncalled")]


def test_unnamed_player_without_a_seat_sits_on_the_button() -> None:
    # tour/Other/NLHE-NA-0-0 HH00000000 T1-G0-201601.unknown.player.acts.txt: two seats
    # listed, a third player with no name antes and goes all in for 1480; the summary omits
    # him, his collection is the pot less the others'
    hands, _, _ = read(WinningImporter(), SITES / "wpn-unnamed-unseated.txt")
    rows = hands["wpn:547441485"]
    assert rows[0]["game"]["tournament"] is True and rows[0]["game"]["currency"] == "CHIPS"
    assert kinds(rows, "seat")[-1] == (1, 1500, None, None)
    assert "the button seat" in rows[3]["source"]
    assert kinds(rows, "award") == [(2, 1280, None, "uncalled"), (1, 3220, None, "main")]


def test_six_plus_with_small_and_big_blind(tmp_path: Path) -> None:
    # cash/Flop/6+Holdem-6-max-USD-0.02-0.05-201902...: `(Six Plus Hold'em)` dealt with a
    # small and a big blind, no antes: no button blind
    hands, _, _ = read(WinningImporter(), SITES / "wpn-six-plus.txt")
    rows = hands["wpn:1377529121"]
    assert rows[0]["game"]["variant"] == "holdem_6plus"
    assert kinds(rows, "post") == [(6, 2, None, "small_blind"), (1, 5, None, "big_blind")]
    assert warnings(tmp_path, "wpn-six-plus.txt") == []


def test_stud_streets_are_named_one_early_and_a_cut_hand_is_quarantined() -> None:
    # cash/Stud/7-Stud-HL-8max-USD-1.00-2.00-201608...: three cards before `*** Third street
    # ***`, which deals the fourth; the file ends inside its second hand
    hands, rejected, _ = read(WinningImporter(), SITES / "wpn-stud-hilo-cut.txt")
    rows = hands["wpn:693975843"]
    game = rows[0]["game"]
    assert (game["variant"], game["structure"], game["ante"], game["bring_in"],
            game["small_bet"]) == ("stud_hilo", "fixed_limit", 15, 40, 100)
    deals = [d for d in kinds(rows, "deal") if d[0] == 5]
    assert deals == [(5, None, "6h Td", "down"), (5, None, "2c", "up"), (5, None, "As", "up"),
                     (5, None, "7d", "up"), (5, None, "4d", "up"), (5, None, "9s", "down")]
    assert [r.reason for r in rejected] == [
        "line 101: the hand ends without its summary (the file is cut short)"]


def test_newer_format_walk_and_tournament() -> None:
    # cash/Flop/NLO8-6max-USD-3-6-202104.walk.txt: no `Uncalled bet` line, `Total pot $9.00`
    # and `won $9.00` hold the big blind's unmatched 3
    hands, _, _ = read(WinningImporter(), SITES / "wpn-new-walk.txt")
    rows = hands["wpn:779388412"]
    assert (rows[0]["game"]["variant"], rows[0]["game"]["structure"]) == ("omaha_hilo",
                                                                        "no_limit")
    assert kinds(rows, "award") == [(2, 600, None, "main"), (2, 300, None, "uncalled")]
    assert rows[-1]["detail"] == "total_pot=600"
    # tour/Other/NLHE-8max-NA-0-0-202207.GTD.txt: `Game Hand #...`, `Level 10
    # (3000.00/6000.00)`, running `Main pot` lines
    hands, _, _ = read(WinningImporter(), SITES / "wpn-new-tourney.txt")
    rows = hands["wpn:1296393662"]
    game = rows[0]["game"]
    assert (game["small_blind"], game["big_blind"], game["ante"], game["level"],
            game["currency"]) == (3000, 6000, 900, 10, "CHIPS")
    assert rows[0]["table_id"] == "27099516 99"
    assert kinds(rows, "award") == [(5, 30954, None, "uncalled"), (5, 46200, None, "main")]


def test_sitting_out_and_unseated_summary_line() -> None:
    # tour/Other/NLHE-NA-0-0 HH20190118 T9360380-G0-201901.txt: leadlando is dealt nothing;
    # the summary lists bagunga1, who is not seated and put nothing in
    hands, _, _ = read(WinningImporter(), SITES / "wpn-no-table-tourney.txt")
    rows = hands["wpn:1356882665"]
    assert (2, 1500, None, "sitting_out") in kinds(rows, "seat")
    assert rows[0]["game"]["tournament"] is True
    assert any(r["kind"] == "annotation" and "bagunga1" in r["detail"] for r in rows)


def test_sniff_ignores_other_rooms() -> None:
    importer = WinningImporter()
    assert not importer.sniff(b"PokerStars Hand #1: Hold'em No Limit ($1/$2)\n", Path("x"))
    assert not importer.sniff(b"Bovada Hand #1 TBL#2 HOLDEMZonePoker No Limit - 2019\n",
                              Path("x"))
    assert not importer.sniff(b"Game started at: noon\n", Path("x"))
    assert importer.sniff(b"Game started at: 2016/8/2 10:53:49\r\n", Path("x"))


_HEADER = re.compile(r"^\ufeff?(?:Game started at: |(?:Game )?Hand #\d+ - )")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from([n for n in FIXTURES if "utf16" not in n]),
       ops=MUTATIONS)
def test_fuzz_never_crashes_never_loses_a_hand(name: str, ops: list, tmp_path: Path) -> None:
    path = tmp_path / "mutated.txt"
    path.write_bytes(mutate((SITES / name).read_bytes(), ops))
    never_loses_a_hand(WinningImporter(), path, _HEADER)


def test_status_lines_are_notes(tmp_path: Path) -> None:
    # the grammar beyond the corpus, both formats: a seated player's status line, someone
    # joining the table
    text = (SITES / "wpn-new-cash.txt").read_text(encoding="utf-8").replace(
        "*** HOLE CARDS ***\n", "*** HOLE CARDS ***\nNewGuy joins the table at seat #7\n"
        "Player4 has returned\n")
    path = tmp_path / "new.txt"
    path.write_text(text, encoding="utf-8")
    hands, rejected, _ = read(WinningImporter(), path)
    assert rejected == []
    assert [(r["player"], r["detail"]) for r in hands["wpn:68217077"]
            if r["kind"] == "annotation"] == [("NewGuy", "note: joins the table at seat #7"),
                                              ("Player4", "note: has returned")]
    old = (SITES / "wpn-six-plus.txt").read_text(encoding="utf-8").replace(
        "Player primo4 folds\n", "Player primo4 folds\nPlayer primo4 is waiting\n", 1)
    path = tmp_path / "old.txt"
    path.write_text(old, encoding="utf-8")
    hands, rejected, _ = read(WinningImporter(), path)
    assert rejected == []
    assert [(r["player"], r["detail"]) for r in hands["wpn:1377529121"]
            if r["kind"] == "annotation"] == [("primo4", "note: is waiting")]
