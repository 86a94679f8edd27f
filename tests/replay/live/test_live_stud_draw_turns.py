"""Declarations in a stud or draw round before its first logged action: the replay learns whose
turn it was only at that action, so they are placed then (in turn, or out of turn under the
TURN-OOT-* rules), never taken as in-turn declarations by default."""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import CHIP_RAP, TURN_OOT_BINDING, TURN_OOT_CHECK, VERBAL_BINDING

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
    # with no bet before his turn the action did not change: the declared fold binds
    body = "declare 3 fold\ncheck 1\ncheck 2\nbet 3 5\nfold 1\nfold 2\naward 3 14\n"
    assert _found(body) == [(TURN_OOT_BINDING, 3)]


def test_an_out_of_turn_check_before_the_rounds_first_action_then_a_bet_is_turn_oot_check():
    body = ("declare 3 check\ncheck 1\ncheck 2\nbet 3 5\nfold 1\nfold 2\naward 3 14\n")
    assert (TURN_OOT_CHECK, 3) in _found(body)


def test_the_first_actors_own_declaration_is_in_turn_and_binds():
    body = "declare 1 check\nbet 1 5\nfold 2\nfold 3\naward 1 14\n"
    assert (VERBAL_BINDING, 1) in _found(body)
    assert _found("declare 1 bet 5\nbet 1 5\nfold 2\nfold 3\naward 1 14\n") == []


def test_draw_change_count_words_are_read_as_counts():
    from audit.replay.live.words import Said, parse_declaration

    assert parse_declaration("stand pat").said is Said.PAT
    assert parse_declaration("pat").amount == 0
    for words, n in (("draw two", 2), ("Draw 3", 3), ("one card", 1), ("take four", 4)):
        d = parse_declaration(words)
        assert (d.said, d.amount) == (Said.DRAW, n), words
    assert parse_declaration("draw").said is Said.OTHER  # no count: nothing to hold him to
    assert parse_declaration("2").said is Said.BET  # a bare number stays a bet


DRAW_HEAD = """hand fx:draw-turns draw_high fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=3
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole 2c 3d 4h 9s Kc
deal 2 hole 2d 3h 5s 7c Qd
deal 3 hole Ah Ad Kd 8c 8d
fold 3
call 1 5
"""


def test_chip_rap_is_a_check_in_the_betting_and_pat_at_the_draw():
    after_draw = ("draw 1 9s Kc\ndeal 1 draw 6d 7h\ndraw 2 Qd\ndeal 2 draw 6c\n"
                  "declare 1 rap\nbet 1 20\nfold 2\naward 1 40\n")
    [(rows, _)] = parse_text(DRAW_HEAD + "check 2\n" + after_draw)
    got = [(f.rule_id, f.seat) for f in replay_hand(hand_from_rows(rows)).findings
           if f.severity != "info"]
    assert got == [(CHIP_RAP, 1)]  # everyone had drawn: the rap was a check, then he bet
