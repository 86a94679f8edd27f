"""The seventh-street freeze (STUD-7TH-UP, 000 §7 r.17): a player whose last card was dealt
face up declares all-in and puts in no more; the others' side pot is legal. And boards of
different sizes (a seventh card dealt up) compare by category, then by rank."""

from __future__ import annotations

from pathlib import Path

from audit.importers.text import parse_text
from audit.poker.cards import parse_cards
from audit.poker.stud import board_key, first_by_board
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import ORDER_STUD_7TH_UP, POT_SPLIT_BY_CARDS

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "STUD-7TH-UP.txt"


def _freeze_rows():
    hands = parse_text(FIXTURE.read_text(encoding="utf-8"))
    return next(rows for rows, _ in hands if rows[0]["hand_id"].endswith("pass-freeze"))


def _replay(rows):
    return replay_hand(hand_from_rows(rows))


def test_freeze_side_pot_is_legal_and_the_frozen_player_keeps_his_chips():
    result = _replay(_freeze_rows())
    assert [f.rule_id for f in result.findings if f.severity != "info"] == []
    alice = result.players[0]
    # in for the ante and the bring-in call only; wins the main pot, keeps the rest
    assert (alice["invested"], alice["won"], alice["all_in_street"]) == (3, 9, None)


def test_a_declaration_by_a_player_whose_last_card_is_down_is_no_freeze():
    rows = _freeze_rows()
    for r in rows:
        if r["kind"] == "declare":
            r["seat"] = 2  # Bob's seventh card is face down: no freeze, he must act
    ids = {f.rule_id for f in _replay(rows).findings if f.severity != "info"}
    # Alice is no longer frozen: she still had to act on seventh street, and the award that
    # was right under the freeze (her main pot only) is wrong now
    assert {ORDER_STUD_7TH_UP, POT_SPLIT_BY_CARDS} <= ids


def test_boards_of_different_sizes_compare_by_category_then_rank():
    five = parse_cards("9c 8h 2c 5d 6c")  # a seventh card dealt up: nine high
    four = parse_cards("Jh 3s 4d Td")  # jack high
    assert board_key(four, False) > board_key(five, False)
    paired = parse_cards("9c 8h 2c 5d 9d")  # a pair of nines beats any unpaired board
    assert board_key(paired, False) > board_key(four, False)
    assert first_by_board({1: list(five), 3: list(four)}, [1, 2, 3], False) == 3
