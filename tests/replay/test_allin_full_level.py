"""Fixed limit, an all-in of half a bet or more (P7, RULEBOOK BET-ALLIN-HALFBET): by the book a
full raise goes on top of the all-in ($0.20 round, $0.13 all-in -> raise to $0.33). Under
`allin.limit_full_level` (the iPoker profile) the all-in stands for the full bet and a raise
goes on top of that ($0.40), as in the real iPoker game 2855501026 this hand follows."""

from __future__ import annotations

import pyarrow as pa
import pytest

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import BET_LIMIT_FIXED
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import arrow_schema

HAND = """
hand fx:allin-full-level.{raise_to} holdem fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=1
seat 1 ann 1000
seat 2 bob 1000
seat 3 cat 23
post 2 small_blind 5
post 3 big_blind 10
deal 1 hole 2c 3d
deal 2 hole 4h 9s
deal 3 hole Ah Ad
call 1 10
call 2 5
check 3
deal board 7c 8d 2h
check 2
check 3
check 1
deal board 5s
check 2
check 3
check 1
deal board Jc
check 2
bet 3 13 all_in
raise 1 to {raise_to}
fold 2
show 3 Ah Ad
muck 1
award 3 56
award 1 {back}
"""


def _rows(raise_to: int) -> list[dict]:
    (rows, _), = parse_text(HAND.format(raise_to=raise_to, back=raise_to - 13))
    return rows


@pytest.mark.parametrize(("profile", "legal", "illegal"),
                         [("montana", 33, 40), ("ipoker", 40, 33)])
def test_a_raise_over_a_half_bet_all_in(profile: str, legal: int, illegal: int) -> None:
    for raise_to, wrong in ((legal, False), (illegal, True)):
        rows = _rows(raise_to)
        found = {f.rule_id for f in replay_hand(hand_from_rows(rows),
                                                load_profile(profile)).findings}
        assert (BET_LIMIT_FIXED in found) is wrong, (profile, raise_to, found)
        # the compiled replay judges it the same way: it keeps the legal hand and hands the
        # wrong-size raise back to the reference replay (which reports it)
        settings = Settings(load_profile(profile))
        table = pa.Table.from_pylist(rows, schema=arrow_schema("events"))
        fast = replay_table_fast(table, settings, settings, run_id="r")
        assert (BET_LIMIT_FIXED in set(fast.findings.column("rule_id").to_pylist())) is wrong
        assert fast.fast_hands == (0 if wrong else 1)


def test_montana_keeps_the_book() -> None:
    assert load_profile("montana")["allin.limit_full_level"] is False
    assert load_profile("ipoker")["allin.limit_full_level"] is True
