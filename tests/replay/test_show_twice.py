"""A player who shows twice: the second show restates the first, it deals no card again.

Real hand: Full Tilt Razz heads-up sit & go, ftp:31349767778 (fpdb-dev
ftp/tour/Stud/Razz-USD-HUSNG-200-201211.all.in.ante.txt): the short stack is all in on the
ante, both hands are turned up on 3rd street (`Player0 shows [9d 9s 2c]`) and shown again
whole after 7th street (`Player0 shows [9d 9s 2c Ks Td Jh 2s]`).
"""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import DEAL_DUPLICATE_CARD, DQ_INCONSISTENT_LOG
from audit.rules.profiles import load_profile

RAZZ_ALL_IN_ON_THE_ANTE = """
hand fx:razz-shown-twice razz fixed_limit small_bet=40 big_bet=80 ante=7 bring_in=20 tournament
seat 1 hero 994
seat 2 villain 6
post 1 ante 7
post 2 ante 6
award 1 1 uncalled
deal 1 down 6c 7c
deal 1 up 7d
deal 2 down ?? ??
deal 2 up 2c
show 1 6c 7c 7d
show 2 9d 9s 2c            # the face-down cards turned up on 3rd street
deal 1 up 7s
deal 2 up Ks
deal 1 up 3s
deal 2 up Td
deal 1 up Jd
deal 2 up Jh
deal 1 down Jc
deal 2 down 2s
show 1 6c 7c 7d 7s 3s Jd Jc
show 2 9d 9s 2c Ks Td Jh 2s   # the whole hand again: no card is dealt twice
award 2 12 main
"""


def _rule_ids(text: str) -> set[str]:
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {f.rule_id for f in result.findings}


def test_a_hand_shown_on_third_street_and_again_at_the_end_is_no_duplicate_card() -> None:
    ids = _rule_ids(RAZZ_ALL_IN_ON_THE_ANTE)
    assert DEAL_DUPLICATE_CARD not in ids
    # showing the face-down cards the log did not name is consistent with the deal
    assert DQ_INCONSISTENT_LOG not in ids
    assert ids == set()


def test_a_second_show_with_a_new_card_still_repeats_a_dealt_card() -> None:
    # the hero's 7s is his own up card: the villain showing it is a card dealt twice
    text = RAZZ_ALL_IN_ON_THE_ANTE.replace("show 2 9d 9s 2c Ks Td Jh 2s",
                                           "show 2 9d 9s 2c Ks Td Jh 7s").replace(
        "deal 2 down 2s", "deal 2 down ??")
    assert DEAL_DUPLICATE_CARD in _rule_ids(text)
