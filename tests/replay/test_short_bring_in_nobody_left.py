"""STUD-BRINGIN-ALLIN (000 §7 r.4): a lowcard all in for less than the bring-in makes that
wager, and everyone else still comes in for at least the normal amount — unless nobody else
could match more: then the extra would come straight back as an uncalled bet, and calling
the short wager is all there is to do.

Real hand: Full Tilt Razz heads-up sit & go ftp:28333847000 (fpdb-dev
ftp/tour/Stud/Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt): `Villain brings in for
9, and is all in` / `Hero calls 9`.
"""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import STUD_BRINGIN_ALLIN
from audit.rules.profiles import load_profile

HEADS_UP = """
hand fx:razz-short-bring-in razz fixed_limit small_bet=80 big_bet=160 ante=15 bring_in=25 tournament
seat 1 villain 24
seat 2 hero 976
post 1 ante 15
post 2 ante 15
deal 1 down ?? ??
deal 1 up Kc
deal 2 down 5d 6s
deal 2 up 2s
post 1 bring_in 9          # all in: 9 is all he has left
call 2 9                   # the only other player: nobody could call more
show 1 As 7c Kc
show 2 5d 6s 2s
deal 1 up Js
deal 2 up Td
deal 1 up 4s
deal 2 up Jh
deal 1 up 7d
deal 2 up 2h
deal 1 down Tc
deal 2 down Qc
show 1 As 7c Kc Js 4s 7d Tc
show 2 5d 6s 2s Td Jh 2h Qc
award 2 48 main
"""

THREE_HANDED = HEADS_UP.replace("seat 2 hero 976", "seat 2 hero 976\nseat 3 third 500").replace(
    "post 2 ante 15", "post 2 ante 15\npost 3 ante 15").replace(
    "deal 2 up 2s", "deal 2 up 2s\ndeal 3 down ?? ??\ndeal 3 up Qd").replace(
    "call 2 9                   # the only other player: nobody could call more",
    "call 2 9\nfold 3").replace("award 2 48 main", "award 2 63 main")


def _rule_ids(text: str) -> set[str]:
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {f.rule_id for f in result.findings}


def test_calling_a_short_all_in_bring_in_heads_up_is_all_there_is_to_do() -> None:
    assert STUD_BRINGIN_ALLIN not in _rule_ids(HEADS_UP)


def test_with_a_player_still_to_act_the_caller_comes_in_for_the_normal_amount() -> None:
    assert STUD_BRINGIN_ALLIN in _rule_ids(THREE_HANDED)
