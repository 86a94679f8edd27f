"""Stud logs that show only the hero's cards (PartyPoker): the upcards that decide who brings
in and who starts each street are unknown, so the log's order is followed and the hand says,
once, as data quality, that the order could not be checked; with the upcards known the order
is still enforced."""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import DQ_UNVERIFIABLE_AWARD, ORDER_STUD_LATER, STUD_BRINGIN_LOWCARD

HEAD = """hand fx:t stud fixed_limit ante=1 bring_in=2 small_bet=5 big_bet=10
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 ante 1
post 2 ante 1
post 3 ante 1
deal 1 down As Kd
deal 1 up {up1}
deal 2 down ?? ??
deal 2 up {up2}
deal 3 down ?? ??
deal 3 up {up3}
"""
# carol brings in, alice completes, bob folds, carol calls; on 4th street alice bets and
# carol folds
PLAY = """post 3 bring_in 2
complete 1 to 5
fold 2
call 3 3
deal 1 up {up4}
deal 3 up {up5}
bet 1 5
fold 3
"""


def _findings(up: tuple[str, ...]) -> list[tuple[str, str]]:
    text = HEAD.format(up1=up[0], up2=up[1], up3=up[2]) + PLAY.format(up4=up[3], up5=up[4])
    (rows, _), = parse_text(text + "award 1 13\naward 1 5 uncalled\n")
    return [(f.rule_id, f.severity) for f in replay_hand(hand_from_rows(rows)).findings]


def test_unknown_upcards_follow_the_log_order_with_one_data_quality_note() -> None:
    assert _findings(("9c", "??", "??", "Kh", "??")) == [(DQ_UNVERIFIABLE_AWARD, "info")]


def test_known_upcards_still_decide_the_bring_in_and_who_starts() -> None:
    # bob's 2d is the low card, not carol's; on 4th street carol's pair of jacks starts
    found = _findings(("9c", "2d", "Jh", "Kh", "Jd"))
    assert (STUD_BRINGIN_LOWCARD, "warning") in found
    assert (ORDER_STUD_LATER, "warning") in found
    assert all(rule != DQ_UNVERIFIABLE_AWARD for rule, _ in found)
