"""Irish (variant `irish`): four hole cards as in Omaha; after the flop betting each player
still in discards two (a `draw` event with amount 0) and the hand plays on as hold'em with
the two he kept.

Real hand: Full Tilt `$2/$4 - No Limit Irish`, ftp:32447075821 (fpdb-dev
ftp/cash/Flop/NL-Irish-6max-USD-2.00-4.00-201304.txt): `*** DISCARD ROUND ***`,
`Player0 discards`, `Hero discards [9h 9c]`, then the turn and river.
"""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import DEAD_CARD_COUNT, DQ_INCONSISTENT_LOG, POT_SPLIT_BY_CARDS
from audit.rules.profiles import load_profile

REAL = """
hand fx:irish-real irish no_limit sb=200 bb=400 button=4 currency=USD mpu=100
seat 3 p0 68820
seat 4 hero 55610
post 4 small_blind 200
post 3 big_blind 400
deal 3 hole ?? ?? ?? ??
deal 4 hole 9h 9c Ts Kc
raise 4 to 1200
raise 3 to 4800
call 4 3600
deal board Qh 7c Jd
check 3
bet 4 5200
call 3 5200
draw 3 ?? ?? amount=0      # Player0 discards
draw 4 9h 9c amount=0      # Hero discards [9h 9c]
deal board 6d
check 3
check 4
deal board 3c
bet 3 6200
fold 4
award 3 6200 uncalled
award 3 19950 main
rake 50
"""

SHOWDOWN = """
hand fx:irish-showdown irish no_limit sb=200 bb=400 button=1 currency=USD mpu=100
seat 1 alice 50000
seat 2 bob 50000
seat 3 carol 50000
post 2 small_blind 200
post 3 big_blind 400
deal 1 hole Ks Kd Qs Qd
deal 2 hole As 2s Jc Jh
deal 3 hole 4c 4d 5h 8s
call 1 400
call 2 200
fold 3                     # folded before the discard: his four cards are his whole hand
deal board Qh 7c Jd
check 2
check 1
draw 2 Jc Jh amount=0      # throws away the jacks that would make trips
draw 1 Qs Qd amount=0
deal board 6d
check 2
check 1
deal board 3c
check 2
check 1
show 2 As 2s
show 1 Ks Kd
award 1 1200 main          # kings beat ace high: only the two kept cards play
"""


def _rule_ids(text: str) -> set[str]:
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {f.rule_id for f in result.findings}


def test_the_real_irish_hand_replays_clean() -> None:
    assert _rule_ids(REAL) == set()


def test_the_two_kept_cards_decide_the_pot_as_in_holdem() -> None:
    assert _rule_ids(SHOWDOWN) == set()
    # paying the discarded jacks' trips is wrong: they are out of the hand
    assert POT_SPLIT_BY_CARDS in _rule_ids(SHOWDOWN.replace("award 1 1200 main",
                                                            "award 2 1200 main"))


def test_a_player_who_folds_before_the_discard_holds_four_cards() -> None:
    assert DEAD_CARD_COUNT not in _rule_ids(SHOWDOWN)


def test_a_discard_of_one_card_is_no_irish_discard() -> None:
    ids = _rule_ids(SHOWDOWN.replace("draw 1 Qs Qd amount=0", "draw 1 Qs amount=0").replace(
        "show 1 Ks Kd", "show 1 Ks Kd Qd"))
    assert DQ_INCONSISTENT_LOG in ids  # the log breaks the game's own shape
    assert POT_SPLIT_BY_CARDS not in ids  # three kept cards decide nothing
