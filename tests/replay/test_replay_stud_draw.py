"""Stud and draw replay behaviour beyond the per-rule fixtures: completion is not a raise,
the open-pair option, the common card, heads-up uncapped, profile caps for two-round games."""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import (
    A5_SEVENS_RULE,
    BET_CAP_MULTIROUND,
    BET_CAP_TWOROUND,
    BET_LIMIT_FIXED,
    JACKS_OPENERS,
    KILL_SIZE,
    KILL_VOLUNTARY_LOWBALL,
    ORDER_BUTTON_LATER,
    ORDER_KILL,
    POT_SPLIT_BY_CARDS,
    RAZZ_NO_OPENPAIR,
    STUD_SHORT_DECK,
)
from audit.rules.profiles import load_profile

HEAD = """hand fx:t {variant} fixed_limit ante=1 bring_in=2 small_bet=5 big_bet=10
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
seat 4 dave 1000
post 1 ante 1
post 2 ante 1
post 3 ante 1
post 4 ante 1
deal 1 down As Kd
deal 1 up 9c
deal 2 down Qs Qd
deal 2 up 2d
deal 3 down 7h 7s
deal 3 up Jh
deal 4 down 3c 4c
deal 4 up Ts
"""


def _ids(text, profile=None):
    (rows, _), = parse_text(text)
    result = replay_hand(hand_from_rows(rows), profile)
    return [f.rule_id for f in result.findings if f.severity != "info"]


def test_stud_completion_is_not_a_raise():
    # STUD-COMPLETE (000 §7 r.6): bring-in 2, completed to 5, then three raises are legal
    body = "post 2 bring_in 2\ncomplete 3 to 5\nraise 4 to 10\nraise 1 to 15\nraise 2 to 20\n"
    assert _ids(HEAD.format(variant="stud") + body + "fold 3\nfold 4\nfold 1\naward 2 54\n") == []
    # ... and a fourth raise with four players in breaks the cap
    over = body + "raise 3 to 25\n"
    assert BET_CAP_MULTIROUND in _ids(HEAD.format(variant="stud") + over)


def test_stud_open_pair_allows_the_big_bet_and_small_bet_then_big_raise():
    fourth = ("post 2 bring_in 2\ncall 3 2\ncall 4 2\ncall 1 2\n"
              "deal 1 up 9d\ndeal 2 up 5c\ndeal 3 up Kh\ndeal 4 up 6d\n")
    small_then_big = "bet 1 5\nraise 2 to 15\nfold 3\nfold 4\nfold 1\naward 2 32\n"
    assert _ids(HEAD.format(variant="stud") + fourth + small_then_big) == []
    # razz has no open-pair option: the same big raise is a violation there
    razz = fourth.replace("post 2 bring_in 2\ncall 3 2\ncall 4 2\ncall 1 2",
                          "post 3 bring_in 2\ncall 4 2\ncall 1 2\ncall 2 2")
    got = _ids(HEAD.format(variant="razz") + razz + "bet 2 5\nraise 3 to 15\n")
    assert RAZZ_NO_OPENPAIR in got


def test_stud_heads_up_is_uncapped_in_cash_games():
    body = ("post 2 bring_in 2\nfold 3\nfold 4\ncomplete 1 to 5\nraise 2 to 10\n"
            "raise 1 to 15\nraise 2 to 20\nraise 1 to 25\ncall 2 5\n")
    assert _ids(HEAD.format(variant="stud") + body) == []


def test_stud_common_card_counts_for_everyone():
    text = HEAD.format(variant="stud") + """post 2 bring_in 2
fold 3
fold 4
call 1 2
deal 1 up 8h
deal 2 up 5c
check 1
check 2
deal 1 up 2c
deal 2 up 9h
check 1
check 2
deal 1 up 5d
deal 2 up 8c
check 1
check 2
deal board 6c
check 1
check 2
show 1 As Kd 9c 8h 2c 5d
show 2 Qs Qd 2d 5c 9h 8c
award 2 8
"""
    # the common card plays in both hands (seat 2's queens win), but with 36 cards left for
    # two players the deck did not run short: the common card itself is flagged
    assert _ids(text) == [STUD_SHORT_DECK]


DRAW = """hand fx:t draw_high fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=3
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole 2c 3d 4h 9s Kc
deal 2 hole 2d 3h 5s 7c Qd
deal 3 hole Ah Ad Kd 8c 8d
raise 3 to 20
raise 1 to 30
raise 2 to 40
raise 3 to 50
"""


def test_two_round_cap_follows_the_profile():
    # bet + 4 raises (Montana) allow the next raise to 60; private games stop at bet + 3
    fifth = "raise 1 to 60\nfold 2\nfold 3\naward 1 150\n"
    assert BET_CAP_TWOROUND in _ids(DRAW + fifth, load_profile("montana"))
    assert BET_CAP_TWOROUND in _ids(DRAW.replace("raise 3 to 50\n", "") +
                                      "raise 3 to 50\n", load_profile("private"))
    assert BET_CAP_TWOROUND not in _ids(DRAW + fifth, load_profile("montana", ["ca-lowball"]))


KILLED = """hand fx:t lowball_27_single fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=4
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
seat 4 dave 1000
post 1 small_blind 5
post 2 big_blind 10
post 4 kill {kill}
deal 1 hole 2c 3d 4h 9s Kc
deal 2 hole 2d 3h 5s 7c Qd
deal 3 hole Ah Ad Kd 8c 8d
deal 4 hole 2s 4s 6h 8h 9c
call 3 {kill}
raise 4 to {raise_to}
fold 1
fold 2
fold 3
award 4 {won}
"""


def test_kill_size_half_kill_raises_the_limits_by_half():
    # KILL-SIZE (000 §12 intro): a half kill of 15 at 10/20 makes the game 15/30
    assert _ids(KILLED.format(kill=15, raise_to=30, won=60)) == []
    assert BET_LIMIT_FIXED in _ids(KILLED.format(kill=15, raise_to=40, won=70))
    # a full kill doubles them: 20/40
    assert _ids(KILLED.format(kill=20, raise_to=40, won=75)) == []
    assert BET_LIMIT_FIXED in _ids(KILLED.format(kill=20, raise_to=30, won=65))


def test_kill_percentages_follow_the_profile():
    # a house whose full kill is 3 x the big blind (house override) accepts a kill of 30
    text = KILLED.format(kill=30, raise_to=60, won=105)
    assert KILL_SIZE in _ids(text)
    (rows, _), = parse_text(text)
    rows[0]["game"]["house_overrides"] = '{"kill.full_percent": 300}'
    result = replay_hand(hand_from_rows(rows))
    assert [f.rule_id for f in result.findings if f.severity != "info"] == []


SEVENS = """hand fx:t lowball_a5 fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=3
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole 2c 3d 4h 9s Kc
deal 2 hole 2d 3h 5s 7c Qd
deal 3 hole Ah Ad Kd 8c 8d
call 3 10
call 1 5
check 2
draw 1 9s Kc
deal 1 draw {draw1}
draw 2 Qd
deal 2 draw 6c
stand_pat 3
check 1
bet 2 20
fold 3
call 1 20
show 1 2c 3d 4h {draw1}
show 2 2d 3h 5s 7c 6c
{awards}
"""


def test_a5_sevens_rule_full_pot_paid_is_a_wrong_award_and_the_profile_can_switch_it_off():
    full = SEVENS.format(draw1="6d 7h", awards="award 1 70")
    got = _ids(full)
    assert A5_SEVENS_RULE in got and len(got) > 1  # plus the wrong award to alice and bob
    (rows, _), = parse_text(full)
    rows[0]["game"]["house_overrides"] = '{"a5.sevens_rule": false}'
    assert [f.rule_id for f in replay_hand(hand_from_rows(rows)).findings
            if f.severity != "info"] == []
    # a checked eight-low is not a seven: the full pot is hers
    assert _ids(SEVENS.format(draw1="6d 8h", awards="award 2 70")) == []


def test_a5_joker_is_the_lowest_missing_rank():
    # A-2-3-5-joker is 5-4-3-2-A, the best hand: it beats bob's 7-6-5-3-2 (RULEBOOK §5.3)
    text = SEVENS.format(draw1="5d Xj", awards="award 1 50\naward 2 20")
    assert _ids(text.replace("deal 1 hole 2c 3d 4h", "deal 1 hole Ac 2h 3s").replace(
        "show 1 2c 3d 4h", "show 1 Ac 2h 3s")) == [A5_SEVENS_RULE]


DRAW_HIGH_JOKER = """hand fx:t draw_high fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=2
seat 1 alice 1000
seat 2 bob 1000
post 2 small_blind 5
post 1 big_blind 10
deal 1 hole As Ah Ad Ac Xj
deal 2 hole Ks Qs Js Ts 9s
call 2 5
check 1
stand_pat 1
stand_pat 2
check 1
check 2
show 1 As Ah Ad Ac Xj
show 2 Ks Qs Js Ts 9s
award {winner} 20
"""


def test_draw_high_joker_five_aces_beat_a_straight_flush():
    # RULEBOOK §5.6: four aces and the joker are five aces, the best possible hand
    assert _ids(DRAW_HIGH_JOKER.format(winner=1)) == []
    assert POT_SPLIT_BY_CARDS in _ids(DRAW_HIGH_JOKER.format(winner=2))


def _fixture_hand(rule_id, label):
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / f"{rule_id}.txt"
    hands = parse_text(path.read_text(encoding="utf-8"))
    return next(rows for rows, _ in hands if rows[0]["hand_id"].endswith(label))


def _findings(rows):
    return [f.rule_id for f in replay_hand(hand_from_rows(rows)).findings if f.severity != "info"]


def test_opener_acts_first_after_the_draw_in_ante_games_not_with_blinds():
    rows = _fixture_hand(JACKS_OPENERS, ".pass-opener-acts-first")
    assert _findings(rows) == []
    # the same hand as draw high, dealt with a button and an ante: action after the draw starts
    # with the opener too (ORDER-DRAW-AFTER, 000 §11 intro)
    rows[0]["game"]["variant"] = "draw_high"
    assert _findings(rows) == []
    # draw high dealt with blinds (as online sites deal it) keeps the button order after the
    # draw, so Bob betting before Alice is out of turn
    blinds = """hand fx:t draw_high fixed_limit sb=5 bb=10 small_bet=10 big_bet=20 button=3
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole Tc Td 2h 5s 9c
deal 2 hole Qs Qh 2d 8s 7s
deal 3 hole 3h 4h 6c 8d Kc
fold 3
call 1 5
raise 2 to 20
call 1 10
draw 1 2h 5s 9c
deal 1 draw Th 3c 4d
draw 2 2d 8s 7s
deal 2 draw Ah Ad Kd
bet 2 20
"""
    assert ORDER_BUTTON_LATER in _ids(blinds)
    assert ORDER_BUTTON_LATER not in _ids(blinds.replace("bet 2 20", "check 1\nbet 2 20"))


def test_jacks_joker_with_an_ace_is_a_pair_of_aces_for_openers():
    rows = _fixture_hand(JACKS_OPENERS, ".fail")
    deal = next(r for r in rows if r["kind"] == "deal" and r["seat"] == 1)
    deal["cards"] = "As Xj 2h 5s 9c"  # RULEBOOK §5.6: the joker plays as an ace
    assert JACKS_OPENERS not in _findings(rows)
    deal["cards"] = "Ks Xj 2h 5s 9c"  # the joker is no wild card: ace-king high, no openers
    assert JACKS_OPENERS in _findings(rows)
    deal["cards"] = "Ts Xj Js Qs 9c"  # ...but it completes a straight, which opens
    assert JACKS_OPENERS not in _findings(rows)


def test_voluntary_killer_acts_last_a_required_killer_in_turn():
    # ORDER-KILL (000 §12 r.2, r.10): Dave, left of the killer Carol, opens the betting only
    # when Carol's kill is voluntary; under a required kill Carol (left of the big blind) is first
    rows = _fixture_hand(KILL_VOLUNTARY_LOWBALL, ".pass")
    assert _findings(rows) == []
    post = next(r for r in rows if r.get("detail") == "kill_voluntary")
    post["detail"] = "kill"
    assert ORDER_KILL in _findings(rows)


def test_a_discarded_joker_is_a_card_thrown_away_not_a_crash():
    # alice draws away the joker she was dealt (a 53-card lowball deck): she throws it like
    # any card; it is no deck card that could come back after a reshuffle of the discards
    text = (SEVENS.format(draw1="6d 8h", awards="award 2 70")
            .replace("deal 1 hole 2c 3d 4h 9s Kc", "deal 1 hole 2c 3d 4h 9s Xj")
            .replace("draw 1 9s Kc", "draw 1 9s Xj"))
    assert _ids(text) == []
