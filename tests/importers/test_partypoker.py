"""PartyPoker text, both formats, read from real hands (fixtures/sites/party-*.txt, each copied
from the fpdb regression files): every hand imports, the reader states what the log leaves
implicit, and the hands audit with no finding at warning or above under the room's profile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from audit.importers import detect_format
from audit.importers.partypoker import PartyPokerImporter
from audit.ingest.pipeline import ingest
from audit.ingest.validate import validate_events
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store
from tests.support.importing import by_hand, read_all

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
FILES = sorted(SITES.glob("party-*.txt"))


def _hand(name: str) -> list[dict[str, Any]]:
    path = SITES / name
    rows, lines, rejected = read_all(PartyPokerImporter(), path)
    assert rejected == []
    hands = by_hand(rows)
    assert len(hands) == 1
    return next(iter(hands.values()))


def _kinds(rows: list[dict[str, Any]], *kinds: str) -> list[tuple[Any, ...]]:
    return [(r["kind"], r["player"], r["amount"], r["detail"]) for r in rows if r["kind"] in kinds]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_fixture_is_recognised_and_imports_whole(path: Path) -> None:
    assert detect_format(path) == "partypoker"  # NUL bytes before the lines included

    def valid(chunk: Any) -> None:
        assert validate_events(chunk.table, chunk.lines, str(path), "line").rejected == []

    rows, _, rejected = read_all(PartyPokerImporter(), path, valid)
    assert [r.reason for r in rejected] == []
    assert by_hand(rows)


def test_the_hands_audit_clean_under_the_partypoker_profile(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    summary = ingest(FILES, store)
    assert (summary.quarantined, summary.errors) == (0, 0)
    audit_store(store, profile="partypoker")
    bad = [(r["hand_id"], r["rule_id"], r["message"]) for r in read_findings(store).to_pylist()
           if r["severity"] != "info"]
    assert bad == []


def test_preamble_lines_and_the_next_hands_start_are_one_hand() -> None:
    # `Game #8503894896 starts.` / `#Game No` / `Hand History for Game 8504122543`: one hand,
    # named by its Hand History number; the trailing `Game #N starts.` of a cut file is none
    rows = _hand("party-level-change-silent-blinds.txt")
    assert rows[0]["hand_id"] == "party:8504122543"
    rows = _hand("party-joins-and-posts-bb.txt")
    assert rows[0]["hand_id"] == "party:13290328324"


def test_tournament_level_inside_the_hand_wins_and_unlogged_blinds_go_by_position() -> None:
    rows = _hand("party-level-change-silent-blinds.txt")
    game = rows[0]["game"]
    # header: Level 3 Blinds(50/100); in the hand: Level 4 Blinds(100/200); won 800 = 500+100+200
    assert (game["level"], game["small_blind"], game["big_blind"]) == (4, 100, 200)
    assert _kinds(rows, "post") == [("post", "Player9", 100, "small_blind"),
                                    ("post", "Player8", 200, "big_blind")]
    assert "blinds=not logged" in rows[0]["source"]


def test_glued_lines_comma_decimals_and_weekday_without_space() -> None:
    rows = _hand("party-mac-glued-lines.txt")
    assert rows[0]["ts"].isoformat().startswith("2012-12-09T07:34:49")  # ICT is UTC+7
    assert _kinds(rows, "award") == [("award", "Player3", 2737, "main"),
                                     ("award", "Player4", 2736, "main")]


def test_a_player_missing_from_the_seat_list_sits_in_the_free_seat_his_turn_shows() -> None:
    rows = _hand("party-unseated-big-blind.txt")
    seat = [r for r in rows if r["kind"] == "seat" and r["player"] == "Player4"]
    assert [(r["seat"], r["amount"]) for r in seat] == [(2, None)]  # stack unknown
    assert "seat inferred" in seat[0]["source"]


def test_a_new_player_with_no_chips_in_the_seat_list_plays_with_an_unknown_stack() -> None:
    rows = _hand("party-new-player-zero-stack.txt")
    assert [(r["seat"], r["amount"]) for r in rows
            if r["kind"] == "seat" and r["player"] == "Player8"] == [(2, None)]
    assert ("post", "Player8", 2, "new_player") in _kinds(rows, "post")


def test_converted_hands_number_the_button_from_zero_and_drop_a_post_of_both_blinds() -> None:
    rows = _hand("party-converted-silent-post-both.txt")
    assert rows[0]["game"]["button_seat"] == 4  # `Seat 3 is the button`
    assert _kinds(rows, "post")[2:] == [("post", "Player2", 10, "new_player"),
                                        ("post", "Player2", 5, "dead")]


def test_newer_format_summary_gives_pots_rake_and_collections() -> None:
    rows = _hand("party-newer-partial-names.txt")
    # `Main Pot: $7.13 Rake: $0.37`; `Hero Name` is the seat list's `Hero`
    assert rows[-1]["detail"] == "total_pot=750;pots=main:713"
    assert _kinds(rows, "rake", "award") == [("rake", None, 37, "rake"),
                                              ("award", "Hero", 357, "main"),
                                              ("award", "Player2", 356, "main")]
    assert [(r["player"], r["detail"]) for r in rows if r["kind"] == "seat"][0] == (
        "Player0", "sitting_out")
    assert ("raise", "Hero", 300, None) in _kinds(rows, "raise")


def test_a_cash_out_is_paid_by_the_house_not_from_the_pot() -> None:
    rows = _hand("party-newer-cash-out.txt")
    assert _kinds(rows, "award", "rake") == [("rake", None, 200, "rake"),
                                              ("award", "Hero", 3850, "main"),
                                              ("award", "Hero", 297, "uncalled")]
    assert any(r["kind"] == "annotation" and r["player"] == "Player2"
               and r["detail"].startswith("cash_out: Player2 Cashed out") for r in rows)
    assert rows[0]["detail"] is None  # the returned bet is split off: refunds are explicit


def test_an_all_in_the_summary_confirms_takes_the_chip_the_bet_line_leaves_out() -> None:
    rows = _hand("party-newer-mtt-allin-chip-short.txt")
    raise5 = next(r for r in rows if r["kind"] == "raise" and r["player"] == "Player5")
    assert (raise5["amount"], raise5["total"], raise5["detail"]) == (
        11302167, 11302167, "all_in")
    assert rows[-1]["detail"] == "total_pot=39423920;pots=main:35656500,side-1:3767420"


def test_short_deck_antes_and_the_button_blind() -> None:
    rows = _hand("party-short-deck.txt")
    game = rows[0]["game"]
    assert (game["variant"], game["ante"], game["big_blind"]) == ("holdem_6plus", 100, 100)
    assert _kinds(rows, "post")[-1] == ("post", "Player5", 100, "button_blind")


def test_stud_hi_lo_deals_every_street_and_pays_the_low_half() -> None:
    rows = _hand("party-stud-hilo-lo-pot.txt")
    assert rows[0]["game"]["variant"] == "stud_hilo"
    deals = [(r["player"], r["cards"], r["detail"]) for r in rows if r["kind"] == "deal"]
    # the hero's cards from `Dealt to`, Player1's from the seven he shows (in the order dealt)
    assert deals[:4] == [("Player0", "Ah 4h", "down"), ("Player0", "4d", "up"),
                         ("Player1", "Qc 3d", "down"), ("Player1", "Ac", "up")]
    assert deals[-2:] == [("Player0", "8s", "down"), ("Player1", "Jc", "down")]
    assert len(deals) == 2 * 2 + 2 * 4
    assert _kinds(rows, "award") == [("award", "Player0", 9050, "main/high"),
                                     ("award", "Player1", 9050, "main/low")]


def test_stud_cards_nobody_shows_stay_unknown() -> None:
    rows = _hand("party-stud-mtt-double-bets.txt")
    third = {r["player"]: r["cards"] for r in rows if r["kind"] == "deal" and r["detail"] == "up"
             and r["seq"] < 40}
    assert (third["Hero"], third["Player2"], third["Player4"]) == ("3h", "??", "2h")


def test_stud_tournament_double_bet_on_an_open_pair_and_the_bring_in() -> None:
    rows = _hand("party-stud-mtt-double-bets.txt")
    game = rows[0]["game"]
    assert (game["small_bet"], game["big_bet"], game["ante"], game["bring_in"]) == (
        60, 120, 10, 20)
    assert ("bet", "Player4", 120, None) in _kinds(rows, "bet")


def test_action_lines_naming_other_players_than_the_seat_list_are_matched_in_turn() -> None:
    # seated Player5 (button) and Player3 never act; holdem_AA and playclever99 act in their
    # turns, unseated and without posting
    rows = _hand("party-renamed-players.txt")
    assert "holdem_AA is Player5,playclever99 is Player3" in rows[0]["source"]
    assert _kinds(rows, "fold") == [("fold", "Player5", None, None),
                                    ("fold", "Player3", None, None)]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_hand_saved_as_utf16_is_recognised_and_read(tmp_path: Path, encoding: str) -> None:
    text = (SITES / "party-stud-hilo-lo-pot.txt").read_text()
    path = tmp_path / "h.txt"
    path.write_bytes(text.encode(encoding))
    assert detect_format(path) == "partypoker"
    rows, _, rejected = read_all(PartyPokerImporter(), path)
    assert rejected == [] and rows[0]["hand_id"] == "party:11480841734"


def test_a_status_line_without_chips_is_a_note_a_new_money_line_quarantines(
        tmp_path: Path) -> None:
    text = (SITES / "party-unseated-big-blind.txt").read_text()
    noted = text.replace("Player1 folds\n", "Player1 folds\nPlayer1 has returned to the table\n")
    rows, _, rejected = read_all(PartyPokerImporter(), _write(tmp_path, "a.txt", noted))
    assert rejected == []
    assert ("annotation", "Player1", None, "note: has returned to the table") in _kinds(
        rows, "annotation")
    money = text.replace("Player1 folds\n", "Player1 straddles [$0,50 USD]\n")
    rows, _, rejected = read_all(PartyPokerImporter(), _write(tmp_path, "b.txt", money))
    assert rows == [] and "unknown line: 'Player1 straddles" in rejected[0].reason


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_an_observer_chatting_is_a_note(tmp_path: Path) -> None:
    text = (SITES / "party-unseated-big-blind.txt").read_text()
    chat = text.replace("Hero folds\n", "Hero folds\nrailbird77: nice hand\n")
    rows, _, rejected = read_all(PartyPokerImporter(), _write(tmp_path, "c.txt", chat))
    assert rejected == []
    assert ("annotation", "railbird77", None, "said: nice hand") in _kinds(rows, "annotation")
