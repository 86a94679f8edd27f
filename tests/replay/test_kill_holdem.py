"""A kill blind in a button game (limit hold'em kill pots) raises the limits for the deal, as
in the draw games (audit/replay/kill.py): betting at the killed limits is legal, betting at
the normal limits is not."""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import BET_LIMIT_FIXED
from audit.rules.profiles import load_profile

HAND = """
hand fx:kill-holdem.{name} holdem fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=4
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
seat 4 dave 1000
post 1 small_blind 5
post 2 big_blind 10
post 4 kill 20
deal 1 hole 2c 3d
deal 2 hole 4h 9s
deal 3 hole Ah Ad
deal 4 hole Kc Kd
call 3 20
raise 4 to {raise_to}
fold 1
fold 2
call 3 {call}
deal board 7c 8d 2h
bet 3 20
call 4 20
deal board 5s
bet 3 40
call 4 40
deal board Jc
check 3
check 4
show 3 Ah Ad
show 4 Kc Kd
award 3 {pot}
"""


def _replay(raise_to: int) -> set[tuple[str, int | None]]:
    call = raise_to - 20
    pot = 5 + 10 + 2 * raise_to + 2 * 20 + 2 * 40
    text = HAND.format(name=raise_to, raise_to=raise_to, call=call, pot=pot)
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {(f.rule_id, f.seat) for f in result.findings}


def test_a_full_kill_doubles_the_limits_of_the_deal() -> None:
    assert _replay(40) == set()


def test_a_raise_at_the_unkilled_limit_is_the_wrong_size() -> None:
    assert (BET_LIMIT_FIXED, 4) in _replay(30)
