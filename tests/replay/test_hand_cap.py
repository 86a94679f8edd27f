"""A capped table (profile parameter `stakes.hand_cap`, set per hand by
`game.house_overrides`): no player puts more than the cap into one hand, so a player who
reaches it is all in for the hand while his chips behind stay his. The book knows no cap:
montana keeps 0 (table stakes alone).

Real hand: Full Tilt `$5/$10 - $400 Pot Limit Omaha Hi`, ftp:24378450480 (fpdb-dev
ftp/cash/Flop/PLO-6max-USD-5.00-10.00-201010.CAP.txt): `Player0 bets $295, and is capped`,
`Player2 calls $295, and is capped`, then the turn and river come with no more betting.
"""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import DEAL_PREMATURE
from audit.rules.profiles import load_profile

CAPPED_PLO = """
hand fx:capped-plo omaha pot_limit sb=500 bb=1000 button=5 currency=USD mpu=100 \
house='{"stakes.hand_cap": 40000}'
seat 1 hero 40000
seat 2 p0 284870
seat 4 p1 179610
seat 5 p2 70500
seat 6 p3 97750
post 6 small_blind 500
post 1 big_blind 1000
deal 1 hole 9h 2h 5d Tc
deal 2 hole ?? ?? ?? ??
deal 4 hole ?? ?? ?? ??
deal 5 hole ?? ?? ?? ??
deal 6 hole ?? ?? ?? ??
raise 2 to 2250
call 4 2250
raise 5 to 10500
call 6 10000
fold 1
call 2 8250
call 4 8250
deal board Td 6c Qs
check 6
bet 2 29500                # his 105 + 295 = the $400 cap: capped
fold 4
call 5 29500               # capped too
fold 6
show 2 Jc Qd Ks 8h
show 5 3s Ad 6d Ah
deal board 2d              # no betting left: both are capped
deal board 2c
award 5 101700 main
rake 300
"""


def _rule_ids(text: str) -> set[str]:
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {f.rule_id for f in result.findings if f.severity != "info"}


def test_players_at_the_cap_are_all_in_for_the_hand() -> None:
    assert _rule_ids(CAPPED_PLO) == set()


def test_without_the_cap_the_board_comes_while_a_player_with_chips_still_has_to_act() -> None:
    assert DEAL_PREMATURE in _rule_ids(CAPPED_PLO.replace(
        """ house='{"stakes.hand_cap": 40000}'""", ""))


def test_montana_has_no_cap() -> None:
    assert load_profile("montana")["stakes.hand_cap"] == 0
