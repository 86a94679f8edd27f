"""Merge Gaming Network's XML as its real files write it (issue 22): each fixture in
fixtures/sites/merge-*.txt is an excerpt copied as it is from ../shared/data/fpdb-dev/merge (the
file named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import detect_format
from audit.importers.base import Rejected
from audit.importers.merge import MergeImporter
from tests.importers.sitecheck import (
    SITES,
    findings,
    mutated,
    never_crashes_never_loses_a_hand,
    read,
    round_trip,
    rows_of,
)

FIXTURES = sorted(p.name for p in SITES.glob("merge-*.txt"))


def _read(name: str | Path) -> tuple[dict[str, list[dict[str, Any]]], list[Rejected]]:
    hands, rejected, _ = read(MergeImporter(), name if isinstance(name, Path) else SITES / name)
    return hands, rejected


def _findings(tmp_path: Path, *names: str, profile: str = "merge") -> list[tuple]:
    return [f for f in findings(tmp_path, *names, profile=profile) if f[2] != "info"]


@pytest.mark.parametrize("name", FIXTURES)
def test_every_fixture_is_recognised_as_merge(name: str) -> None:
    assert detect_format(SITES / name) == "merge"


def test_newer_clients_write_the_raise_to_total(tmp_path: Path) -> None:
    # cash/Flop/NLHE-6max-USD-1.00-2.00-201308.weird.all.in.line.txt: `RAISE 19.50` by the big
    # blind (2.00 in) then `CALL 61.42` to the 80.92 all-in; an `ALL_IN` without an amount
    hands, rejected = _read("merge-raise-to.txt")
    assert rejected == []
    rows = hands["merge:71748131-1802"]
    game = rows[0]["game"]
    assert (game["variant"], game["structure"], game["small_blind"], game["big_blind"],
            game["button_seat"], game["currency"]) == ("holdem", "no_limit", 100, 200, 4, "USD")
    assert ("raise", 2, 1750, 1950, None, None) in rows_of(rows, "raise")
    assert ("call", 2, 6142, 8092, None, None) in rows_of(rows, "call")
    assert "rake=implicit" in rows[0]["detail"]
    # the time is the first event's epoch timestamp (UTC)
    assert str(rows[0]["ts"]).startswith("2013-08-18 19:58:34")
    assert [r["kind"] for r in rows][-2:] == ["award", "hand_ended"]
    assert _findings(tmp_path, "merge-raise-to.txt") == []


def test_older_clients_write_the_chips_added(tmp_path: Path) -> None:
    # cash/Flop/NLHE-USD-1.00-2.00-201009.addCallandRaise.format.txt: the small blind (1.00 in)
    # `RAISE 5.00` and wins 8.00 (5 + 1 + the 2.00 big blind): 5 chips added
    hands, rejected = _read("merge-raise-added.txt")
    assert rejected == []
    rows = hands["merge:27626183-2"]
    assert ("raise", 4, 500, 600, None, None) in rows_of(rows, "raise")
    assert "raise=chips added" in rows[0]["source"]
    # seats numbered from 0 are shifted
    assert [r["seat"] for r in rows if r["kind"] == "seat"] == [1, 4]
    assert _findings(tmp_path, "merge-raise-added.txt") == []


def test_balances_logged_after_the_forced_bets(tmp_path: Path) -> None:
    # tour/Flop/NLHE-USD-STT-201202.exported.txt, game 50104125-26: the big blind's balance
    # 1125.00 after his 100.00 blind, `ALL_IN 1125.00`, each of two tied players paid 1225.00
    hands, rejected = _read("merge-balance-after-posts.txt")
    assert rejected == []
    rows = hands["merge:50104125-26"]
    assert [r["amount"] for r in rows if r["kind"] == "seat"] == [1775, 1225]
    assert rows[0]["game"]["tournament"] and rows[0]["game"]["currency"] == "CHIPS"
    assert _findings(tmp_path, "merge-balance-after-posts.txt") == []
    # a player who acts after putting in his whole logged balance: the same reading
    # (tour/Mixed/HORSE-Tournament-Freeroll.201107.xml, game 36487050-14, razz)
    hands, _ = _read("merge-horse-razz-balance.txt")
    rows = hands["merge:36487050-14"]
    assert rows[0]["game"]["variant"] == "razz"
    assert [r["amount"] for r in rows if r["kind"] == "seat"][0] == 10
    assert _findings(tmp_path / "h", "merge-horse-razz-balance.txt") == []


def test_a_player_missing_from_the_seat_list_is_seated_with_his_stack_unknown(
        tmp_path: Path) -> None:
    # cash/Flop/NLHE-6max-USD-0.10-0.25-201208.player.not.in.preamble.txt: the big blind is
    # posted by player 5, who has no <player> line
    hands, rejected = _read("merge-player-not-in-preamble.txt")
    assert rejected == []
    rows = hands["merge:59766765-529"]
    seated = [(r["seat"], r["player"], r["amount"]) for r in rows if r["kind"] == "seat"]
    assert seated[-1] == (6, "seat 6", None)
    assert rows_of(rows, "award") == [("award", 3, 60, None, None, "main"),
                                     ("award", 3, 60, None, None, "uncalled")]
    assert _findings(tmp_path, "merge-player-not-in-preamble.txt") == []


def test_stud_all_in_showdown_is_shown_once_every_card_is_dealt(tmp_path: Path) -> None:
    # cash/Stud/Razz-USD-0.50-1.00-201111.allIn.txt: SHOW on 4th street, the last cards after
    hands, rejected = _read("merge-razz-allin.txt")
    assert rejected == []
    rows = hands["merge:43618199-14"]
    shows = [(r["seat"], r["cards"]) for r in rows if r["kind"] == "show"]
    assert shows == [(3, "As 7h Kc 4c Jh Qc 8s"), (5, "2h 8d 6c 2c 3d Kd 9d")]
    kinds = [r["kind"] for r in rows]
    assert kinds.index("show") > max(k for k, r in enumerate(rows) if r["kind"] == "deal")
    assert _findings(tmp_path, "merge-razz-allin.txt") == []


def test_triple_draw_discards_and_the_heros_new_cards(tmp_path: Path) -> None:
    # cash/Draw/3-Draw-PL-USD-0.05-0.10-201102.Sample.all.streets.txt: `DRAW text="2"`
    hands, rejected = _read("merge-27-triple-draw.txt")
    assert rejected == []
    rows = hands["merge:31691047-4"]
    assert rows[0]["game"]["variant"] == "lowball_27_triple"
    draws = [(r["kind"], r["seat"], r["amount"], r["cards"]) for r in rows
             if r["kind"] in ("draw", "stand_pat")]
    assert draws[:2] == [("draw", 3, 2, "?? ??"), ("stand_pat", 1, None, None)]
    assert _findings(tmp_path, "merge-27-triple-draw.txt") == []


def test_ace_to_five_triple_draw_is_read_and_audits_clean(tmp_path: Path) -> None:
    # cash/Draw/A5-3-Draw-Limit-USD-0.50-1-201105.Sample.txt: gametype 63, `A-5 Lowball`, three
    # draws (before: quarantined, "the replay knows A-5 lowball with one draw")
    hands, rejected = _read("merge-a5-triple-draw.txt")
    assert rejected == []
    rows = hands["merge:33997611-33"]
    assert (rows[0]["game"]["variant"], rows[0]["game"]["structure"]) == (
        "lowball_a5_triple", "fixed_limit")
    assert [(r["seat"], r["amount"]) for r in rows if r["kind"] == "draw"] == [
        (3, 1), (1, 2), (3, 1), (1, 1), (1, 1)]
    assert _findings(tmp_path, "merge-a5-triple-draw.txt") == []


def test_a_cancelled_game_is_imported_and_marked() -> None:
    # cash/Draw/3-Draw-PL-USD-0.05-0.10-201102.Cancelled.hand.txt: GAME_CANCELLED
    hands, rejected = _read("merge-cancelled.txt")
    assert rejected == []
    assert "cancelled=true" in hands["merge:31691047-143"][0]["detail"].split(";")


@pytest.mark.parametrize("fast", [True, False])
def test_a_description_names_the_game_of_the_hands_after_it(tmp_path: Path, fast: bool) -> None:
    # NLHE-USD-STT-201202.exported.txt: a heads-up tournament hand ("Holdem Tournament",
    # "No Limit"), then a cash table's description ("Holdem", "No Limit ($0.25/$0.50)") and
    # its hand. The description after a hand is not that hand's: the tournament hand stays a
    # tournament's (chips), the cash hand is in dollars.
    text = (SITES / "merge-raise-to.txt").read_text(encoding="utf-8")
    first, hand = text.split("\n", 1)
    assert first == '<description type="Holdem" stakes="No Limit ($1/$2)"/>'
    path = tmp_path / "two.txt"
    path.write_text('<description type="Holdem Tournament" stakes="No Limit"/>\n' + hand
                    + '<description type="Omaha" stakes="Pot Limit ($0.25/$0.50)"/>\n'
                    + hand.replace('id="71748131-1802"', 'id="71748131-1803"'),
                    encoding="utf-8")
    hands, rejected, _ = read(MergeImporter(fast=fast), path)
    assert rejected == []
    games = {h: rows[0]["game"] for h, rows in hands.items()}
    tour, cash = games["merge:71748131-1802"], games["merge:71748131-1803"]
    assert (tour["tournament"], tour["currency"], tour["structure"]) == (True, "CHIPS",
                                                                         "no_limit")
    assert (cash["tournament"], cash["currency"], cash["structure"]) == (False, "USD",
                                                                         "pot_limit")


def test_xml_that_is_not_well_formed_quarantines_that_hand_only(tmp_path: Path) -> None:
    text = (SITES / "merge-raise-added.txt").read_text()
    broken = text.replace("</round>", "</rounds>", 1)
    path = tmp_path / "broken.txt"
    path.write_text(broken + text.split("\n", 1)[1])
    hands, rejected = _read(path)
    assert len(hands) == 1 and len(rejected) == 1
    assert "not well-formed XML" in rejected[0].reason and rejected[0].line == 2


def test_doctype_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "entity.txt"
    path.write_text('<game id="1-1" starttime="20100907170630">\n<!DOCTYPE x [<!ENTITY a "b">]>'
                    "\n</game>\n")
    hands, rejected = _read(path)
    assert hands == {} and "DOCTYPE" in rejected[0].reason


@pytest.mark.parametrize("name", FIXTURES)
def test_round_trip_through_phh_and_ohh_gives_the_same_events(name: str,
                                                             tmp_path: Path) -> None:
    hands, _ = _read(name)
    through_ohh, through_phh = round_trip(hands, tmp_path)
    button_games = [h for h, rows in hands.items()
                    if rows[0]["game"]["variant"] in ("holdem", "omaha", "omaha_hilo")]
    assert through_ohh >= len(button_games)


# --- fuzz: mutated real hands never crash the reader, never lose a hand -------------------

_HEADER = re.compile(r"^\s*<game[\s>]")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=mutated([SITES / n for n in FIXTURES]))
def test_fuzz_never_crashes_never_loses_a_hand(data: bytes, tmp_path_factory: Any) -> None:
    never_crashes_never_loses_a_hand(MergeImporter(), data,
                                     tmp_path_factory.mktemp("fuzz") / "mutated.txt", _HEADER,
                                     strip=False, exact=True)
