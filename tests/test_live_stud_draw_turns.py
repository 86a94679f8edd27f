"""Declarations in a stud or draw round before its first logged action: the replay learns whose
turn it was only at that action, so they are placed then (in turn, or out of turn under the
TURN-OOT-* rules), never taken as in-turn declarations by default."""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand

THIRD = """hand fx:stud-turns stud fixed_limit ante=1 bring_in=2 small_bet=5 big_bet=10
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 ante 1
post 2 ante 1
post 3 ante 1
deal 1 down As Kd
deal 1 up 9c
deal 2 down Qs Qd
deal 2 up 2d
deal 3 down 7h 7s
deal 3 up Jh
post 2 bring_in 2
call 3 2
call 1 2
check 2
deal 1 up 9d
deal 2 up 3c
deal 3 up 4h
"""


def _found(body: str) -> list[tuple[str, int | None]]:
    [(rows, _)] = parse_text(THIRD + body)
    return [(f.rule_id, f.seat) for f in replay_hand(hand_from_rows(rows)).findings
            if f.severity != "info"]


def test_an_out_of_turn_fold_before_the_rounds_first_action_is_not_binding_after_a_bet():
    body = ("declare 3 fold\nbet 1 5\nraise 2 to 10\nraise 3 to 15\nfold 1\nfold 2\n"
            "award 3 39\n")
    assert _found(body) == []


def test_an_out_of_turn_check_before_the_rounds_first_action_then_a_bet_is_turn_oot_check():
    body = ("declare 3 check\ncheck 1\ncheck 2\nbet 3 5\nfold 1\nfold 2\naward 3 14\n")
    assert ("TURN-OOT-CHECK", 3) in _found(body)


def test_the_first_actors_own_declaration_is_in_turn_and_binds():
    body = "declare 1 check\nbet 1 5\nfold 2\nfold 3\naward 1 14\n"
    assert ("VERBAL-BINDING", 1) in _found(body)
    assert _found("declare 1 bet 5\nbet 1 5\nfold 2\nfold 3\naward 1 14\n") == []
