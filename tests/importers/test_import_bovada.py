"""Bovada / Bodog / Ignition's grammar as their real files write it (issue 22): each fixture in
fixtures/sites/bovada-*.txt is an excerpt copied as it is from ../shared/data/fpdb-dev/bovada
(the file named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import detect_format
from audit.importers.base import Rejected
from audit.importers.bovada import BovadaImporter
from tests.importers.sitecheck import (
    SITES,
    findings,
    mutated,
    never_crashes_never_loses_a_hand,
    read,
    round_trip,
    rows_of,
)

FIXTURES = sorted(p.name for p in SITES.glob("bovada-*.txt"))


def _read(name: str | Path) -> tuple[dict[str, list[dict[str, Any]]], list[Rejected]]:
    hands, rejected, _ = read(BovadaImporter(), name if isinstance(name, Path) else SITES / name)
    return hands, rejected


def _findings(tmp_path: Path, *names: str, profile: str = "bovada") -> list[tuple]:
    return findings(tmp_path, *names, profile=profile)


@pytest.mark.parametrize("name", FIXTURES)
def test_every_fixture_is_recognised_as_bovada(name: str) -> None:
    assert detect_format(SITES / name) == "bovada"


def test_anonymous_zone_poker_hands_keep_the_seat_labels_and_are_marked(tmp_path: Path) -> None:
    # cash/Flop/NLHE-6max-USD - $0.10-$0.25 - 202104.ZonePoker.txt: `Big Blind  [ME] : ...`
    hands, rejected = _read("bovada-zone-poker.txt")
    assert rejected == [] and list(hands) == ["bov:4101241030", "bov:4101241126"]
    first = hands["bov:4101241030"]
    started = first[0]
    assert started["table_id"] == "zone:1708"
    assert "players=anonymous" in started["detail"].split(";")
    assert started["game"]["button_seat"] == 3 and started["game"]["big_blind"] == 25
    seats = [(r["seat"], r["player"], r["amount"]) for r in first if r["kind"] == "seat"]
    assert seats[4] == (5, "Big Blind [ME]", 2500)
    # every player's cards are written: the hole deals are known
    assert [r["cards"] for r in first if r["kind"] == "deal"][:2] == ["4s Qh", "5c 8c"]
    # `Raises $0.65 to $0.75`: raise to 75 (65 added); the return and the result
    assert ("raise", 4, 65, 75, None, None) in rows_of(first, "raise")
    assert rows_of(first, "award") == [("award", 4, 50, None, None, "uncalled"),
                                     ("award", 4, 50, None, None, "main")]
    # no summary total: the rake is not logged
    assert "rake=implicit" in started["detail"]
    assert _findings(tmp_path, "bovada-zone-poker.txt") == []


def test_older_files_without_street_lines_start_each_street_when_the_round_is_over(
        tmp_path: Path) -> None:
    # cash/Flop/PLO-USD-5-10-201204.new.format.txt, hand 2601407767: no `*** FLOP ***`, no
    # `Card dealt to table`; the board only in the summary (`Board [Jc 5s Jd 6s ]`)
    hands, rejected = _read("bovada-old-format-no-streets.txt")
    assert rejected == []
    rows = hands["bov:2601407767"]
    boards = [(r["cards"]) for r in rows if r["kind"] == "deal" and r["detail"] == "board"]
    assert boards == ["Jc 5s Jd", "6s"]
    kinds = [r["kind"] for r in rows]
    # the flop comes once the big blind calls preflop, before the first check
    flop = next(k for k, r in enumerate(rows) if r["detail"] == "board")
    assert kinds[flop - 1] == "call" and kinds[flop + 1] == "check"
    turn = next(k for k, r in enumerate(rows) if r["cards"] == "6s")
    assert kinds[flop + 1:turn] == ["check"] * 5 and kinds[turn + 1] == "bet"
    # `Raises $35` (the older grammar): raise to 35
    assert ("raise", 5, 3500, 3500, None, None) in rows_of(rows, "raise")
    assert rows[-1]["detail"] == "total_pot=17500"
    assert _findings(tmp_path, "bovada-old-format-no-streets.txt") == []


def test_tournament_player_ids_become_seats_in_list_order() -> None:
    # tour/Flop/NLHE-9max-USD-MTT - $25-$2.50 - 202104.Ignititon.MVS.txt: `Seat 65: UTG+2`,
    # `Seat 146: UTG+3`, ...; `Set dealer [5]` is the 5th listed, `Dealer`
    hands, rejected = _read("bovada-ignition-mvs-tourney.txt")
    assert rejected == []
    rows = hands["bov:4300979169"]
    game = rows[0]["game"]
    assert (game["tournament"], game["currency"], game["small_blind"], game["big_blind"],
            game["ante"], game["button_seat"], game["level"]) == (
        True, "CHIPS", 75, 150, 15, 5, 7)
    assert rows[0]["table_id"] == "M-20210422003411 18"
    assert "seats=numbered in list order" in rows[0]["source"]
    assert [r["seat"] for r in rows if r["kind"] == "seat"] == list(range(1, 10))
    assert ("raise", 5, 10580, 11030, None, "all_in") in rows_of(rows, "raise")
    # the clock says UTC
    assert str(rows[0]["ts"]) == "2021-04-22 01:42:48+00:00"


def test_a_line_the_log_repeats_is_a_note_not_a_second_action(tmp_path: Path) -> None:
    # tour/Flop/NLHE-9max-USD-MTT - $9.000 Guaranteed (DS) - $20-$2 - 201408.corrupted.lines.txt,
    # hand 3031666821: `Small Blind : Ante/Small blind 125` four times, `Hand Result 1575` three
    hands, rejected = _read("bovada-repeated-lines.txt")
    assert rejected == []
    rows = hands["bov:3031666821"]
    assert [r["amount"] for r in rows if r["kind"] == "post" and r["detail"] == "small_blind"
            ] == [125]
    assert [r["amount"] for r in rows if r["kind"] == "award"] == [750, 1575]
    notes = [r["detail"] for r in rows if r["kind"] == "annotation"
             and (r["detail"] or "").startswith("repeated_line")]
    assert len(notes) == 5
    assert _findings(tmp_path, "bovada-repeated-lines.txt") == []


def test_stud_without_street_lines_reads_each_players_cards_per_street(tmp_path: Path) -> None:
    # cash/Stud/7-Stud-USD-2.00-4.00-201205.txt (Bodog): `Card dealt to a spot [7h 8c Jc]`,
    # then one card a street; `Bring_in chip $0.02`; `D bets $0.10` (a double bet)
    hands, rejected = _read("bovada-stud-no-streets.txt")
    assert rejected == [] and len(hands) == 2
    rows = hands["bov:2604291510"]
    game = rows[0]["game"]
    assert (game["variant"], game["structure"], game["ante"], game["bring_in"]) == (
        "stud", "fixed_limit", 1, 2)
    deals = [(r["seat"], r["cards"], r["detail"]) for r in rows if r["kind"] == "deal"]
    assert deals[:2] == [(1, "7h 8c", "down"), (1, "Jc", "up")]
    assert (3, "Kh", "up") in deals
    assert _findings(tmp_path, "bovada-stud-no-streets.txt") == []


def test_stud_hilo_with_street_lines(tmp_path: Path) -> None:
    # cash/Stud/7-StudHL-USD-RING-$5-$10,$1.25Ante-201404.txt: `Seat+5 [ME]: $200 in chips`
    hands, rejected = _read("bovada-stud-hilo-streets.txt")
    assert rejected == []
    rows = hands["bov:2844383701"]
    game = rows[0]["game"]
    assert (game["variant"], game["small_bet"], game["big_bet"], game["bring_in"]) == (
        "stud_hilo", 500, 1000, 250)
    assert [r["player"] for r in rows if r["kind"] == "seat"][4] == "Seat+5 [ME]"
    assert ("complete", 8, 500, 500, None, None) in rows_of(rows, "complete")
    assert _findings(tmp_path, "bovada-stud-hilo-streets.txt") == []


def test_all_in_on_the_big_blind_is_a_post_and_heads_up_a_call_of_it_is_enough(
        tmp_path: Path) -> None:
    # tour/Flop/NLHE-9max-USD - $10-$0.60 - 201212.all.in.blind.antes.txt: `Big Blind :
    # All-in 237` before the hole cards, `Dealer [ME] : Call 37`
    hands, rejected = _read("bovada-allin-blind-headsup.txt")
    assert rejected == []
    rows = hands["bov:2701691320"]
    assert ("post", 7, 237, 237, None, "big_blind") in rows_of(rows, "post")
    assert rows[0]["game"]["big_blind"] == 400
    assert _findings(tmp_path, "bovada-allin-blind-headsup.txt") == []


def test_a_piece_of_a_hand_after_a_summary_is_text_outside_any_hand() -> None:
    # cash/Flop/NLHE-USD-5-10-201511.concatenated.partial.txt: a hand's summary runs into the
    # seat lines of another hand whose header is lost
    hands, rejected = _read("bovada-concatenated-partial.txt")
    assert list(hands) == ["bov:3178646516"]
    assert len(rejected) == 1 and rejected[0].hand_id is None and rejected[0].line == 37
    assert "text outside any hand" in rejected[0].reason


def test_fixed_limit_half_bet_all_in_stands_for_the_full_bet_at_bovada(tmp_path: Path) -> None:
    # cash/Flop/LHE-USD-8-16-201204.old.format.txt, hand 2596795140: all in for $8.50 on the
    # $16 turn, the next raise to $32 (profile bovada: allin.limit_full_level)
    assert _findings(tmp_path, "bovada-lhe-half-bet-allin.txt") == []
    book = _findings(tmp_path / "m", "bovada-lhe-half-bet-allin.txt", profile="montana")
    assert ("bov:2596795140", "BET-LIMIT-FIXED", "violation") in book


def test_a_walk_pays_the_unreturned_big_blind_inside_the_result(tmp_path: Path) -> None:
    # cash/Flop/LHE-USD-8-16-201204.old.format.txt, hand 2596780411: no `Return uncalled`,
    # `Hand result $12`, `Total Pot($12) | Rake ($0)`
    hands, _ = _read("bovada-lhe-walk.txt")
    rows = hands["bov:2596780411"]
    assert "refunds=implicit" in rows[0]["detail"]
    assert rows[-1]["detail"] == "total_pot=1200"
    assert _findings(tmp_path, "bovada-lhe-walk.txt") == []


def test_nobody_on_the_button_puts_it_on_the_empty_seat_before_the_small_blind(
        tmp_path: Path) -> None:
    # cash/Flop/LHE-USD-8-16-201204.old.format.txt, hand 2596779389: no `Dealer`, small blind
    # in seat 5
    hands, _ = _read("bovada-lhe-walk-dead-button.txt")
    rows = hands["bov:2596779389"]
    assert rows[0]["game"]["button_seat"] == 4
    assert _findings(tmp_path, "bovada-lhe-walk-dead-button.txt") == []


def test_posts_dead_chip_is_the_big_blind_live_and_the_small_blind_dead(
        tmp_path: Path) -> None:
    # cash/Flop/NLHE-USD-0.10-0.25-201209.RING...post.both.txt, hand 2629955907: no small
    # blind posted, `UTG+2 : Posts dead chip $0.35`
    hands, _ = _read("bovada-post-dead-chip.txt")
    rows = hands["bov:2629955907"]
    assert rows[0]["game"]["small_blind"] == 10
    assert [(r["amount"], r["detail"]) for r in rows if r["kind"] == "post"] == [
        (25, "big_blind"), (25, "new_player"), (10, "dead")]
    assert _findings(tmp_path, "bovada-post-dead-chip.txt") == []


@pytest.mark.parametrize("name", FIXTURES)
def test_round_trip_through_phh_and_ohh_gives_the_same_events(name: str,
                                                             tmp_path: Path) -> None:
    hands, _ = _read(name)
    through_ohh, through_phh = round_trip(hands, tmp_path)
    assert through_phh == len(hands)
    if not any(r["game"]["variant"] in ("stud", "stud_hilo", "razz")
               for h in hands.values() for r in h[:1]):
        assert through_ohh == len(hands)


# --- fuzz: mutated real hands never crash the reader, never lose a hand -------------------

_HEADER = re.compile(r"^(?:Bovada|Bodog(?:\.com|\.eu| UK| Canada|88)?|Ignition(?: Casino)?)"
                     r" Hand #\d+")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=mutated([SITES / n for n in FIXTURES]))
def test_fuzz_never_crashes_never_loses_a_hand(data: bytes, tmp_path_factory: Any) -> None:
    never_crashes_never_loses_a_hand(BovadaImporter(), data,
                                     tmp_path_factory.mktemp("fuzz") / "mutated.txt", _HEADER,
                                     strip=False, exact=True)
