"""A big blind all in for less than the blind leaves the blind's level above his chips; when
every other player still in is all in, nobody can match more than the largest all-in, so a
call of it is all there is to do (the rest would come straight back as an uncalled bet), and a
player who already covers it has no action left. With a live player still to act the caller
owes the full level.

Real hands: Bovada heads-up, bov:2701691320 (fpdb-dev bovada/tour/Flop/
NLHE-9max-USD - $10-$0.60 - 201212.all.in.blind.antes.txt): `Big Blind : All-in 237` (blinds
200/400) / `Dealer [ME] : Call 37`; and Ignition bov:4294608266 (Monthly Milly Satellite
file): the big blind all in for 1,015 of 6,000, everyone folds to the small blind's 3,000, and
the board is dealt without his action.
"""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import CHIP_SHORT_CALL, DEAL_PREMATURE
from audit.rules.profiles import load_profile

HEADS_UP = """
hand fx:short-bb-headsup holdem no_limit sb=200 bb=400 ante=40 button=8 tournament
seat 7 bigblind 277
seat 8 dealer 13223
post 7 ante 40
post 8 ante 40
post 8 small_blind 200
post 7 big_blind 237        # all in: 237 is all he has left
deal 7 hole 4d Js
deal 8 hole As 6c
call 8 37                   # the only other player: nobody could call more
deal board 8s Qd Qs
deal board 6d
deal board Ah
show 7 4d Js
show 8 As 6c
award 8 554 main
"""

THREE_HANDED = HEADS_UP.replace("seat 8 dealer 13223", "seat 8 dealer 13223\nseat 9 utg 5000"
                                ).replace("post 8 ante 40", "post 8 ante 40\npost 9 ante 40"
                                ).replace("deal 8 hole As 6c", "deal 8 hole As 6c\n"
                                          "deal 9 hole 2c 3c\ncall 9 400").replace(
    "call 8 37                   # the only other player: nobody could call more",
    "call 8 37").replace("award 8 554 main", "award 8 994 main")

NOBODY_LEFT = """
hand fx:short-bb-nobody-left holdem no_limit sb=3000 bb=6000 ante=600 button=3 tournament
seat 1 sb 28025
seat 2 bb 1615
seat 3 dealer 5476
post 1 ante 600
post 2 ante 600
post 3 ante 600
post 1 small_blind 3000
post 2 big_blind 1015       # all in
deal 1 hole Ts 3h
deal 2 hole Ac 8d
deal 3 hole 5h 2c
fold 3
award 1 1985 uncalled
deal board 6s 4h 5c
deal board 6d
deal board As
show 1 Ts 3h
show 2 Ac 8d
award 2 3830 main
"""


def _rule_ids(text: str) -> set[str]:
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {f.rule_id for f in result.findings}


def test_calling_a_short_all_in_big_blind_heads_up_is_all_there_is_to_do() -> None:
    found = _rule_ids(HEADS_UP)
    assert CHIP_SHORT_CALL not in found
    assert DEAL_PREMATURE not in found


def test_with_a_player_still_to_act_the_caller_owes_the_full_blind() -> None:
    assert CHIP_SHORT_CALL in _rule_ids(THREE_HANDED)


def test_a_player_who_covers_the_only_all_in_has_no_action_left() -> None:
    assert DEAL_PREMATURE not in _rule_ids(NOBODY_LEFT)
