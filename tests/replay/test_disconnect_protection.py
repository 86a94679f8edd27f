"""A room's disconnection protection (profile `allin.disconnect_protection`, WPN): a player who
disconnects facing a bet stays in the hand for what he has put in, as if all in, his chips
behind out of play (the real WPN game 741631166: `Player Player0 is disconnected and ALL IN.`
with 937 behind, and he wins the high half of the main pot). By the book (montana) he simply
failed to act and the hand went on without him. And a short-deck game dealt with a small and a
big blind (WPN's Six Plus Hold'em, game 1377529121) has no button blind."""

from __future__ import annotations

import pyarrow as pa
import pytest

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.replay.fast.table import replay_table_fast
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import arrow_schema

HAND = """
hand fx:disconnect-protection holdem no_limit sb=5 bb=10 button=3
seat 1 ann 1000
seat 2 bob 1000
seat 3 cat 1000
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole As Ad
deal 2 hole Ks Kd
deal 3 hole 2c 3d
call 3 10
call 1 5
check 2
deal board 7c 8d 9h
check 1
bet 2 20
call 3 20
annotation all_in_protection
deal board Jd
check 2
check 3
deal board 4s
check 2
check 3
show 1 As Ad
show 2 Ks Kd
muck 3
award 1 30 main
award 2 40 side-1
"""


def _rows() -> list[dict]:
    (rows, _), = parse_text(HAND)
    for row in rows:
        if row["kind"] == "annotation":
            row.update(seat=1, player="ann")
    return rows


@pytest.mark.parametrize(("profile", "clean"), [("winning", True), ("montana", False)])
def test_a_disconnected_player_kept_in_for_what_he_put_in(profile: str, clean: bool) -> None:
    rows = _rows()
    found = [f.rule_id for f in replay_hand(hand_from_rows(rows), load_profile(profile)).findings
             if f.severity != "info"]
    assert (found == []) is clean, found
    settings = Settings(load_profile(profile))
    table = pa.Table.from_pylist(rows, schema=arrow_schema("events"))
    fast = replay_table_fast(table, settings, settings, run_id="r")
    # the compiled replay never judges such a hand: it goes back to the reference replay
    assert fast.fast_hands == 0


SHORT = """
hand fx:six-plus-blinds holdem_6plus no_limit sb=2 bb=5 button=3
seat 1 ann 200
seat 2 bob 200
seat 3 cat 200
post 1 small_blind 2
post 2 big_blind 5
deal 1 hole As Ad
deal 2 hole Ks Kd
deal 3 hole 6c 7d
fold 3
call 1 3
check 2
deal board 9c Td 6h
check 1
check 2
deal board Qs
check 1
check 2
deal board 7s
check 1
check 2
show 1 As Ad
show 2 Ks Kd
award 1 10 main
"""


def test_short_deck_with_a_small_and_a_big_blind_has_no_button_blind() -> None:
    (rows, _), = parse_text(SHORT)
    found = [f.rule_id for f in replay_hand(hand_from_rows(rows), load_profile("montana")
                                            ).findings if f.severity != "info"]
    assert found == []
