"""888poker / Pacific / Cassava's grammar as its real files write it (issue 22): each fixture in
fixtures/sites/888-*.txt is an excerpt copied as it is from ../shared/data/fpdb-dev/pacific
(the file named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import detect_format
from audit.importers.pacific import _GAME_NO, PacificImporter, amount_888, cards_888
from audit.importers.partypoker import IMPORTER as PARTY
from tests.importers.sitecheck import (
    SITES,
    findings,
    mutated,
    never_crashes_never_loses_a_hand,
    ohh_round_trip,
    phh_round_trip,
    read,
)

PACIFIC = sorted(SITES.glob("888-*.txt"))


def _read(name: str) -> tuple[dict[str, list[dict[str, Any]]], list[Any]]:
    hands, rejected, _ = read(PacificImporter(), SITES / name)
    return hands, rejected


def _rows(rows: list[dict[str, Any]], kind: str) -> list[tuple]:
    return [(r["seat"], r["amount"], r["cards"], r["detail"]) for r in rows if r["kind"] == kind]


def test_888_files_are_pacific_and_partypoker_files_are_not() -> None:
    party = sorted(SITES.glob("party-*.txt"))
    for path in PACIFIC:
        assert detect_format(path) == "pacific", path.name
        assert not PARTY.sniff(path.read_bytes()[:65536], path), path.name
    for path in party:
        assert not PacificImporter().sniff(path.read_bytes()[:65536], path), path.name


@pytest.mark.parametrize(("text", "value"), [
    ("$1,855", "1855"), ("15\u00a0788,50 $", "15788.50"), ("1.183.764 $", "1183764"),
    ("8.000 $", "8000"), ("25 000", "25000"), ("$0.50", "0.50"), ("0,09 €", "0.09"),
    ("2 250 $", "2250"), ("$12,667.75", "12667.75"), ("$1", "1"),
])
def test_amounts_in_every_grouping(text: str, value: str) -> None:
    assert amount_888(text) == Decimal(value)


def test_swedish_cards() -> None:
    # cash/Flop/PLO-6max-USD-25-50-201604.Swedish.txt: `Kn` knekt, `D` dam, `E` ess
    assert cards_888("[ Ec, Knd, 4c, Kh ]".strip("[]"), "x") == "Ac Jd 4c Kh"
    hands, rejected = _read("888-swedish-cards.txt")
    assert rejected == [] and list(hands) == ["888:873818904", "888:873819368"]
    rows = hands["888:873818904"]
    assert _rows(rows, "muck") == [(4, None, "Ac Jd 4c Kh", None)]
    assert rows[0]["game"]["variant"] == "omaha" and rows[0]["game"]["currency"] == "USD"
    # `raises [125 $]` adds 125 to the 25 small blind
    raises = [(r["seat"], r["amount"], r["total"]) for r in rows if r["kind"] == "raise"]
    assert raises == [(4, 12500, 15000), (9, 40000, 45000)]


def test_spanish_suits_and_cp1252_euro_tournament_chips() -> None:
    # tour/Flop/NLHE-6max-SNG-0.10-201206.hands.txt: `[ 7p, 8t ]`, `15 €/30 €` in cp1252
    hands, rejected = _read("888-spanish-suits-cp1252.txt")
    assert rejected == []
    rows = hands["888:414180466"]
    assert _rows(rows, "deal")[0][2] is not None
    hero = [r["cards"] for r in rows if r["kind"] == "deal" and r["player"] == "Hero"]
    assert hero == ["7s 8c"]
    assert [r["cards"] for r in rows if r["detail"] == "board"][0] == "Kd 2s 5d"
    game = rows[0]["game"]
    assert (game["currency"], game["minor_per_unit"], game["big_blind"], game["tournament"],
            game["dead_button"]) == ("CHIPS", 1, 30, True, True)


def test_space_groups_and_a_header_without_a_date() -> None:
    # tour/Flop/NLHE-10max-Free-202004.space.delimiter.txt: `25 000/50 000 Blinds ... - ***`
    hands, rejected = _read("888-space-groups-no-date.txt")
    assert rejected == []
    rows = hands["888:1140410638"]
    assert rows[0]["ts"] is None and rows[0]["game"]["big_blind"] == 50000
    assert rows[0]["table_id"] == "154648012"
    assert _rows(rows, "award") == [(1, 741370, None, "main")]


def test_dot_groups_of_888_ro() -> None:
    hands, _ = _read("888-ro-dot-groups.txt")
    rows = hands["888:896313800"]
    assert rows[0]["game"]["small_blind"] == 8000 and rows[0]["game"]["ante"] == 2000
    assert _rows(rows, "award") == [(4, 1183764, None, "main")]


def test_observed_hand_deals_unseen_holes_at_the_first_action() -> None:
    # cash/Flop/PLO-6max-USD-25-50-201503.observed.hand.txt: no `Dealing down cards` line
    hands, rejected = _read("888-observed.txt")
    assert rejected == []
    rows = hands["888:526119469"]
    holes = [(r["seat"], r["cards"]) for r in rows if r["detail"] == "hole"]
    assert holes == [(2, "?? ?? ?? ??"), (7, "?? ?? ?? ??")]
    first = next(i for i, r in enumerate(rows) if r["detail"] == "hole")
    assert rows[first - 1]["kind"] == "post" and rows[first + 2]["kind"] == "raise"


def test_dead_blind_is_dead_money_and_its_live_part_posted() -> None:
    # cash/Flop/888-PLO-USD-25-50-201508.secondsb.txt: `posts dead blind [$25 + $0]`
    hands, _ = _read("888-dead-blind.txt")
    rows = hands["888:385494443"]
    assert [(r["seat"], r["amount"], r["detail"]) for r in rows if r["kind"] == "post"] == [
        (4, 2500, "small_blind"), (6, 5000, "big_blind"), (1, 2500, "dead")]
    assert rows[0]["detail"] == "refunds=implicit;rake=implicit"


def test_no_pot_awarded_is_marked_absent(tmp_path: Path) -> None:
    # tour/Flop/PLO8-USD-STT-10-1-201308.no.pot.awarded.txt: nobody `collected`
    hands, _ = _read("888-no-pot-awarded.txt")
    rows = hands["888:424764397"]
    assert rows[0]["game"]["variant"] == "omaha_hilo"
    assert rows[-1]["detail"] == "winnings=absent" and _rows(rows, "award") == []
    assert [f for f in findings(tmp_path, "888-no-pot-awarded.txt") if f[2] != "info"] == []


def test_fixed_limit_bets_and_raises_add_chips() -> None:
    hands, _ = _read("888-fixed-limit.txt")
    game = hands["888:311162661"][0]["game"]
    assert (game["structure"], game["small_bet"], game["big_bet"], game["small_blind"]) == (
        "fixed_limit", 2, 4, 1)


def test_tournament_dead_button_clean(tmp_path: Path) -> None:
    # tour/Flop/NLHE-PM-MTT-10-20120221.txt hand 143941885: snowcat420, moved in at seat 2
    # between the button and the blinds, posts nothing; the last big blind posts the small
    assert [f for f in findings(tmp_path, "888-mtt-dead-button.txt", "888-fixed-limit.txt",
                                 "888-swedish-cards.txt", "888-observed.txt",
                                 "888-dead-blind.txt", "888-ro-dot-groups.txt")
            if f[2] != "info"] == []


def test_a_file_without_game_no_lines_splits_at_the_room_line(tmp_path: Path) -> None:
    text = (SITES / "888-swedish-cards.txt").read_text()
    path = tmp_path / "x.txt"
    path.write_text("\n".join(t for t in text.splitlines() if not t.startswith("#Game No")))
    hands, rejected, _ = read(PacificImporter(), path)
    assert rejected == [] and list(hands) == ["888:873818904", "888:873819368"]


@pytest.mark.parametrize("path", PACIFIC, ids=lambda p: p.name)
def test_round_trip_through_ohh_and_phh(path: Path, tmp_path: Path) -> None:
    hands, _, _ = read(PacificImporter(), path)
    assert ohh_round_trip(hands, tmp_path) == len(hands)
    phh_round_trip(hands, tmp_path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(data=mutated(PACIFIC))
def test_fuzz_never_crashes_never_loses_a_hand(data: bytes, tmp_path: Path) -> None:
    never_crashes_never_loses_a_hand(PacificImporter(), data, tmp_path / "mutated.txt",
                                     _GAME_NO)


def test_a_seated_player_no_line_names_is_sitting_out(tmp_path: Path) -> None:
    text = (SITES / "888-fixed-limit.txt").read_text().replace(
        "Seat 4: wanagu22", "Seat 3: idle ( $5 )\nSeat 4: wanagu22")
    path = tmp_path / "idle.txt"
    path.write_text(text)
    hands, rejected, _ = read(PacificImporter(), path)
    rows = hands["888:311162661"]
    assert rejected == [] and _rows(rows, "seat")[1] == (3, 500, None, "sitting_out")
    assert all(r["seat"] != 3 for r in rows if r["kind"] == "deal")


def test_a_show_after_a_hand_not_shown(tmp_path: Path) -> None:
    # `did not show his hand` before another player's `shows [..]` (the summary's order)
    text = (SITES / "888-fixed-limit.txt").read_text().replace(
        "** Summary **\n", "** Summary **\npokergallo did not show his hand\n")
    path = tmp_path / "order.txt"
    path.write_text(text)
    hands, rejected, _ = read(PacificImporter(), path)
    rows = hands["888:311162661"]
    assert rejected == [] and len(_rows(rows, "show")) == 2 and len(_rows(rows, "muck")) == 2
