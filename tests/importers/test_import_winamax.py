"""Winamax's grammar as its real files write it (issue 22): each fixture in
fixtures/sites/wmx-*.txt is copied as it is from ../shared/data/fpdb-dev/winamax (the file
named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import detect_format
from audit.importers.sitetext import header_time
from audit.importers.winamax import WinamaxImporter, _header_time
from tests.importers.sitecheck import (
    MUTATIONS,
    SITES,
    kinds,
    mutate,
    never_loses_a_hand,
    read,
    warnings,
)

FIXTURES = sorted(p.name for p in SITES.glob("wmx-*.txt"))


@pytest.mark.parametrize("name", FIXTURES)
def test_every_fixture_is_recognised_and_imported_whole(name: str) -> None:
    assert detect_format(SITES / name) == "winamax"
    hands, rejected, _ = read(WinamaxImporter(), SITES / name)
    assert rejected == [] and hands
    for rows in hands.values():
        assert rows[0]["kind"] == "hand_started" and rows[-1]["kind"] == "hand_ended"
        assert all(r["hand_id"].startswith("wmx:") for r in rows)
        assert all(r["source"].startswith(f"winamax:{name}:") for r in rows)


def test_raise_among_the_blinds_is_a_post_of_both_blinds(tmp_path: Path) -> None:
    # cash/Flop/PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt: `Player3 raises 1€ to 3€` in
    # *** ANTE/BLINDS ***, then `Player3 posts small blind 1€`: 4€ in, the big blind live
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-ante-raise.txt")
    rows = hands["wmx:6417287-1303-1406683540"]
    assert kinds(rows, "post") == [(5, 200, None, "new_player"), (5, 200, None, "dead"),
                                   (3, 200, None, "big_blind")]
    assert "raises .. to .." in rows[6]["source"]
    # the river bet nobody called is in the 16.35€ collection: split off as returned
    assert kinds(rows, "award") == [(4, 935, None, "main"), (4, 700, None, "uncalled")]
    assert rows[-1]["detail"] == "total_pot=1000"  # 16.35 + 0.65 rake - 7 returned
    # the source's own irregularity (4€ where both blinds cost 3€) stays visible, reviewed in
    # tests/corpus/allowlist/winamax.toml
    assert warnings(tmp_path, "wmx-ante-raise.txt") == [
        ("wmx:6417287-1303-1406683540", "BLIND-MISSED"),
        ("wmx:6417287-1322-1406684365", "BLIND-MISSED")]


def test_negative_raise_is_the_chips_added_all_in(tmp_path: Path) -> None:
    # cash/Stud/7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt: after the bring-in of
    # 10€ and a raise to 25€, `Player0 raises -6.10€ to 18.90€`: his last 18.90€, all in
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-stud-negative-raise.txt")
    rows = hands["wmx:9250793-1578-1479092164"]
    raise_ = next(r for r in rows if r["kind"] == "raise" and r["seat"] == 2)
    assert (raise_["amount"], raise_["total"], raise_["detail"]) == (1890, 2890, "all_in")
    assert "the raise is negative" in raise_["source"]
    assert kinds(rows, "call") == [(3, 390, None, None)]
    # stud: 3rd street two down and one up; `X` unknown, filled from the seven shown cards
    assert kinds(rows, "deal")[:2] == [(2, None, "4d Ac", "down"), (2, None, "8h", "up")]
    assert kinds(rows, "deal")[-2:] == [(2, None, "Ts", "down"), (3, None, "9s", "down")]
    assert rows[-1]["detail"] == "total_pot=7280"
    assert warnings(tmp_path, "wmx-stud-negative-raise.txt") == []


def test_hilo_collections_play_money_and_rake() -> None:
    # cash/Flop/PLO8-2max-play-0.05-0.10-201610.export.txt: `collected 0.47 from pot (HI)`
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-plo8-play-hilo.txt")
    rows = hands["wmx:8976324-443-1476102647"]
    game = rows[0]["game"]
    assert (game["variant"], game["structure"], game["currency"], game["minor_per_unit"],
            game["small_blind"], game["big_blind"]) == ("omaha_hilo", "pot_limit", "CHIPS",
                                                        100, 5, 10)
    assert kinds(rows, "award") == [(2, 47, None, "main/high"), (1, 46, None, "main/low")]
    assert kinds(rows, "rake") == [(None, 7, None, "rake")]
    assert len(kinds(rows, "show")) == 2  # each hand shown twice (HI and LO): one show
    assert rows[-1]["detail"] == "total_pot=100"


def test_thousands_and_the_uncalled_bet_in_the_collection() -> None:
    # tour/Flop/NLHE-EUR-STT-FullHist.txt, 2nd hand: `Total pot 1.32k | No rake`, the river
    # bet of 660 uncalled inside `Player5 collected 1320 from pot`
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-thousands.txt")
    rows = hands["wmx:7959970263859201-2-1288801071"]
    assert rows[0]["game"]["currency"] == "CHIPS" and rows[0]["game"]["minor_per_unit"] == 1
    assert kinds(rows, "award") == [(9, 660, None, "main"), (9, 660, None, "uncalled")]
    assert rows[-1]["detail"] == "total_pot=660"


def test_side_pot_of_one_player_is_his_returned_bet(tmp_path: Path) -> None:
    # cash/Flop/5-Card-PLO8-6max-EUR-1.00-2.00-201611.txt: `Hero collected 84€ from side pot
    # 1` is his bet beyond the 24€ all-in call: a returned bet
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-5card-side-pot.txt")
    rows = hands["wmx:9247976-232-1478874498"]
    assert rows[0]["game"]["variant"] == "omaha5_hilo"
    assert kinds(rows, "award") == [(1, 15450, None, "main"), (2, 8400, None, "uncalled")]
    assert rows[-1]["detail"] == "total_pot=15600"
    assert warnings(tmp_path, "wmx-5card-side-pot.txt") == []


def test_triple_draw_discards_without_cards(tmp_path: Path) -> None:
    # cash/Draw/Triple Draw 2-7-FL-6max-play-0.50-1.00-201610.export.txt
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-triple-draw.txt")
    rows = hands["wmx:9160772-2-1476189756"]
    game = rows[0]["game"]
    assert (game["variant"], game["small_bet"], game["big_bet"], game["small_blind"],
            game["big_blind"]) == ("lowball_27_triple", 50, 100, 25, 50)
    assert kinds(rows, "post", "new_player") == [(1, 50, None, "new_player"),
                                                 (2, 50, None, "new_player"),
                                                 (3, 50, None, "new_player")]
    assert kinds(rows, "draw")[:2] == [(5, 2, "?? ??", None), (6, 2, "?? ??", None)]
    assert len([r for r in rows if r["kind"] == "stand_pat"]) == 3  # `discard 0 card`
    assert len(kinds(rows, "deal", "draw")) == len(kinds(rows, "draw"))
    assert warnings(tmp_path, "wmx-triple-draw.txt") == []


def test_stud_without_any_card_lines(tmp_path: Path) -> None:
    # cash/Stud/7-Stud-6max-play-0.5-0.10-201606.export.txt: `Seat #0 is the button`, no
    # `Dealt to` line at all: every street deals `??`, the shown cards fill them in
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-stud-no-cards.txt")
    rows = hands["wmx:8835086-564-1465760198"]
    game = rows[0]["game"]
    assert (game["ante"], game["small_bet"], game["big_bet"], game["bring_in"]) == (1, 5, 10, 2)
    assert game["button_seat"] is None
    deals = kinds(rows, "deal")
    assert deals[:2] == [(2, None, "8h Ac", "down"), (2, None, "7d", "up")]
    assert (3, None, "?? ??", "down") in deals  # Player1 folded on 5th: never shown
    assert warnings(tmp_path, "wmx-stud-no-cards.txt") == []


def test_cp1252_bounty_seats_and_three_stakes() -> None:
    # tour/Flop/NLHE-MTT-EUR-22.5-22.5-5-202208.bounty.ticket.txt: cp1252 `€`, `(18694, 9€
    # bounty)`, stakes `(140/600/1200)` = ante / small / big blind
    raw = (SITES / "wmx-bounty-cp1252.txt").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-bounty-cp1252.txt")
    rows = hands["wmx:2357799155578961958-128-1653325811"]
    game = rows[0]["game"]
    assert (game["ante"], game["small_blind"], game["big_blind"], game["level"]) == (
        140, 600, 1200, 11)
    assert kinds(rows, "seat")[0] == (1, 18694, None, None)
    assert "buyin=18€ + 2€" in rows[0]["source"]


def test_table_line_without_colon_and_street_with_colon() -> None:
    # cash/Flop/PLO-5max-EUR-2-4-202104.no.colon.txt: `Table 'Nagoya' ...`, `*** FLOP ***: [..]`
    hands, _, _ = read(WinamaxImporter(), SITES / "wmx-no-colon.txt")
    rows = hands["wmx:15917912-457-1618228092"]
    assert rows[0]["table_id"] == "Nagoya"
    assert kinds(rows, "deal", "board") == [(None, None, "3h Td 6d", "board"),
                                            (None, None, "Jc", "board")]


def test_tie_odd_chips_are_the_rooms_own_rule(tmp_path: Path) -> None:
    # tour/Flop/NLHE-EUR-0.92-STT-201207.no.cur.txt: a three-way tie of 260 paid 87/87/86,
    # the 86 to the first seat left of the button: the winamax profile names it
    assert warnings(tmp_path, "wmx-tie-odd-chips.txt") == []
    assert warnings(tmp_path / "m", "wmx-tie-odd-chips.txt", profile="montana") == [
        ("wmx:119419173368496129-1-1343577528", "POT-ODDCHIP-BUTTON")] * 2


def test_sniff_ignores_other_rooms() -> None:
    importer = WinamaxImporter()
    assert not importer.sniff(b"PokerStars Hand #1: Hold'em No Limit ($1/$2)\n", Path("x"))
    assert not importer.sniff(b"Winamax Poker is great\n", Path("winamax.txt"))
    assert importer.sniff((SITES / "wmx-no-colon.txt").read_bytes(), Path("x.dat"))


_HEADER = re.compile(r"^\ufeff?Winamax Poker - ")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FIXTURES),
       ops=MUTATIONS)
def test_fuzz_never_crashes_never_loses_a_hand(name: str, ops: list, tmp_path: Path) -> None:
    path = tmp_path / "mutated.txt"
    path.write_bytes(mutate((SITES / name).read_bytes(), ops))
    never_loses_a_hand(WinamaxImporter(), path, _HEADER)


def test_status_lines_are_notes(tmp_path: Path) -> None:
    # the grammar beyond the corpus: someone joining, a seated player's status line
    text = (SITES / "wmx-no-colon.txt").read_text(encoding="utf-8").replace(
        "*** PRE-FLOP ***\n", "*** PRE-FLOP ***\nNewGuy joins the table at seat #6\n"
        "Player2 will be back soon\n")
    path = tmp_path / "status.txt"
    path.write_text(text, encoding="utf-8")
    hands, rejected, _ = read(WinamaxImporter(), path)
    assert rejected == []
    notes = [(r["player"], r["detail"]) for r in hands["wmx:15917912-457-1618228092"]
             if r["kind"] == "annotation"]
    assert notes == [("NewGuy", "note: joins the table at seat #6"),
                     ("Player2", "note: will be back soon")]


_FIELD = st.sampled_from(["0", "00", "1", "01", "09", "12", "13", "23", "24", "29", "30", "31",
                          "32", "59", "60", "61", "99", "٣", "١٢", "１２"])


@settings(max_examples=400, deadline=None)
@given(year=st.sampled_from(["2020", "2024", "1900", "0000", "0001", "9999", "٢٠٢٠"]),
       month=_FIELD, day=_FIELD, hour=_FIELD, minute=_FIELD, second=_FIELD,
       zone=st.sampled_from(["CET", "CEST", "UTC", "ET", "AEDT", "XYZ"]))
def test_header_times_are_read_as_strptime_reads_them(year: str, month: str, day: str,
                                                      hour: str, minute: str, second: str,
                                                      zone: str) -> None:
    # the reader reads the header's date field by field; it accepts and refuses exactly the
    # dates `strptime` does (February 30th, hour 24, second 60, digits of other scripts)
    def outcome(read: Callable[[str, str, int, str], object]) -> object:
        try:
            return read(f"{year}/{month}/{day} {hour}:{minute}:{second}", zone, 7, "hdr")
        except Exception as exc:  # noqa: BLE001 - the refusal itself is compared
            return type(exc).__name__, str(exc)

    assert outcome(_header_time) == outcome(header_time)


def test_six_card_omaha_deals_six_unknown_cards_to_the_others(tmp_path: Path) -> None:
    # a 6 Card Omaha hand whose other players' cards are never shown: each is dealt six
    # unknown cards (the hand used to be quarantined, "holds '?? ??', not 6 cards")
    text = (SITES / "wmx-5card-side-pot.txt").read_text(encoding="utf-8")
    text = text.replace("5 Card Omaha Hi/Lo", "6 Card Omaha Hi/Lo").replace(
        "[3h Ah Jc Ts 9s]", "[3h Ah Jc Ts 9s 2d]")
    text = "\n".join(line for line in text.split("\n") if " shows [" not in line)
    path = tmp_path / "omaha6.txt"
    path.write_text(text, encoding="utf-8")
    for fast in (True, False):
        hands, rejected, _ = read(WinamaxImporter(fast=fast), path)
        assert rejected == []
        rows = hands["wmx:9247976-232-1478874498"]
        assert [(r["player"], r["cards"]) for r in rows if r["detail"] == "hole"] == [
            ("Player0", "?? ?? ?? ?? ?? ??"), ("Hero", "3h Ah Jc Ts 9s 2d")]
