"""Live-table rulings beyond the fixture files: profile differences (RULEBOOK §3 P10, P14, P15,
P16), the house remedy for string raises, out-of-turn declarations (TURN-OOT-*), and the data
quality of a physical layer that contradicts itself."""

from __future__ import annotations

import json

import pytest

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.replay.live.rulings import STRING_REMEDIES, LiveRules
from audit.replay.live.words import Said, parse_declaration, parse_motion
from audit.rules.ids import (
    BET_NL_MIN_BET,
    BET_NL_UNDERMIN_FIX,
    CHIP_FORWARD_MOTION,
    CHIP_FULL_PLUS_HALF,
    CHIP_GROSS_MISUNDERSTANDING,
    CHIP_RAP,
    CHIP_RELEASE_BINDING,
    CHIP_SHORT_CALL,
    CHIP_SINGLE_CHIP_BET,
    CHIP_SINGLE_OVERSIZE_CALL,
    DQ_INCONSISTENT_LOG,
    DRAW_CHANGE_COUNT,
    STRING_RAISE,
    TURN_OOT_BINDING,
    TURN_OOT_CALL,
    TURN_OOT_CHECK,
    TURN_RIGHT_TO_ACT,
    VERBAL_BIGBET_DISCREPANCY,
    VERBAL_BINDING,
)
from audit.rules.profiles import available_profiles, load_profile

HEAD = {
    "nl": "holdem no_limit sb=50 bb=100 button=3",
    "pl": "holdem pot_limit sb=50 bb=100 button=3",
    "fl": "holdem fixed_limit sb=50 bb=100 small_bet=100 big_bet=200 button=3",
}
PRELUDE = """seat 1 alice 10000
seat 2 bob 10000
seat 3 carol 10000
post 1 small_blind 50
post 2 big_blind 100
deal 1 hole As Ks
deal 2 hole Qd Qc
deal 3 hole 8h 4c
"""


def findings(structure: str, body: str, profile: str = "montana", opts: str = ""):
    text = f"hand fx:live {HEAD[structure]} {opts}\n{PRELUDE}{body}"
    [(rows, _)] = parse_text(text)
    game = rows[0]["game"]
    prof = load_profile(profile, ["tournament"] if game.get("tournament") else [])
    result = replay_hand(hand_from_rows(rows), prof)
    return [(f.rule_id, f.seat, f.severity) for f in result.findings]


def ids(structure: str, body: str, profile: str = "montana", opts: str = "") -> set[str]:
    return {r for r, _, _ in findings(structure, body, profile, opts)}


# --- vocabulary --------------------------------------------------------------------------------

@pytest.mark.parametrize(("words", "said", "amount", "to"), [
    ("call", Said.CALL, None, True), ("Fold", Said.FOLD, None, True),
    ("check", Said.CHECK, None, True), ("pass", Said.CHECK, None, True),
    ("rap", Said.RAP, None, True), ("knock", Said.RAP, None, True),
    ("raise", Said.RAISE, None, True), ("raise 200", Said.RAISE, 200, False),
    ("raise to 1,200", Said.RAISE, 1200, True), ("make it 600", Said.RAISE, 600, True),
    ("bet 300", Said.BET, 300, True), ("300", Said.BET, 300, True),
    ("all in", Said.ALL_IN, None, True), ("all-in", Said.ALL_IN, None, True),
    ("pot", Said.POT, None, True), ("raise the pot", Said.POT, None, True),
    ("time", Said.TIME, None, True), ("pair", Said.OTHER, None, True),
    ("8-low", Said.OTHER, None, True), ("playing the board", Said.OTHER, None, True),
    ("check the board", Said.OTHER, None, True), ("", Said.OTHER, None, True),
])
def test_declarations_are_read_into_betting_actions(words, said, amount, to):
    d = parse_declaration(words)
    assert (d.said, d.amount) == (said, amount)
    if amount is not None:
        assert d.to is to


@pytest.mark.parametrize(("amount", "detail", "chips", "released"), [
    (500, "1x500", 1, True), (225, "2x100+1x25", 3, True), (225, "2x100 1x25", 3, True),
    (100, "1x100 held", 1, False), (300, None, None, True), (None, "3x100", 3, True),
])
def test_chip_motions_are_read(amount, detail, chips, released):
    m = parse_motion(amount, detail)
    assert m is not None and (m.chips, m.released) == (chips, released)


@pytest.mark.parametrize(("amount", "detail"), [(500, "2x100"), (500, "five"), (100, "0x100"),
                                                (None, None)])
def test_unreadable_or_inconsistent_motions_are_refused(amount, detail):
    assert parse_motion(amount, detail) is None


def test_a_motion_whose_denominations_do_not_add_up_is_data_quality_not_a_ruling():
    got = findings("nl", "chips 3 500 2x100\nraise 3 to 500\nfold 1\nfold 2\naward 3 650\n")
    assert (DQ_INCONSISTENT_LOG, 3, "info") in got
    assert all(sev == "info" for _, _, sev in got)


def test_physical_events_without_a_logged_action_are_data_quality():
    got = findings("nl", "declare 3 call\nchips 3 100 1x100\ndeal board 2d 7d 9h\nfold 1\n"
                   "fold 2\naward 3 250\n")
    assert (DQ_INCONSISTENT_LOG, 3, "info") in got
    assert not {r for r, _, _ in got} & {VERBAL_BINDING, CHIP_RELEASE_BINDING}


def test_a_physical_event_for_a_seat_not_in_the_hand_is_data_quality():
    got = findings("nl", "chips 7 100 1x100\ncall 3 100\nfold 1\nfold 2\naward 3 250\n")
    assert [r for r in got if r[0] == DQ_INCONSISTENT_LOG]


# --- profile parameters --------------------------------------------------------------------------

def test_every_profile_sets_live_parameters_from_their_closed_vocabularies():
    for name in set(available_profiles()) - {"tournament", "ca-lowball"}:
        for overlays in ([], ["tournament"]):
            rules = LiveRules.from_values(dict(load_profile(name, overlays).params))
            assert rules.string_remedy in STRING_REMEDIES
            assert rules.players_behind >= 1
            assert 0 < rules.misunderstanding_percent <= 100
            assert rules.verbal in {"binds_overrides", "must_take", "bigbet_corrected"}


OVERSIZE_FACING_AT_PL = ("call 3 100\ncall 1 50\ncheck 2\ndeal board 2d 7d 9h\nbet 1 100\n"
                         "chips 2 1000 1x1000\nraise 2 to 600\nfold 3\nfold 1\naward 2 1000\n")


def test_pl_big_chip_facing_a_bet_is_a_call_in_montana_and_a_pot_raise_in_uspa():
    # P14: Montana "a pot-size bet unless facing a bet"; USPA 3.4.3.7 without the exception.
    assert CHIP_SINGLE_OVERSIZE_CALL in ids("pl", OVERSIZE_FACING_AT_PL, "montana")
    assert not ids("pl", OVERSIZE_FACING_AT_PL, "uspa-2004") & {
        CHIP_SINGLE_OVERSIZE_CALL, CHIP_SINGLE_CHIP_BET}
    logged_call = OVERSIZE_FACING_AT_PL.replace("raise 2 to 600", "call 2 100").replace(
        "award 2 1000", "award 2 500")
    assert CHIP_SINGLE_CHIP_BET in ids("pl", logged_call, "uspa-2004")
    assert not ids("pl", logged_call, "montana") & {CHIP_SINGLE_CHIP_BET,
                                                     CHIP_SINGLE_OVERSIZE_CALL}


CHECK_SAID_BET_MADE = ("call 3 100\ncall 1 50\ncheck 2\ndeal board 2d 7d 9h\ndeclare 1 check\n"
                       "chips 1 100 1x100\nbet 1 100\nfold 2\nfold 3\naward 1 400\n")


def test_rr_fragment_rules_on_verbal_statements_only_at_big_bet():
    # P16: the fragment (002) states the verbal correction for big-bet games only.
    assert VERBAL_BINDING in ids("fl", CHECK_SAID_BET_MADE, "montana")
    assert VERBAL_BINDING in ids("fl", CHECK_SAID_BET_MADE, "uspa-2004")
    assert VERBAL_BINDING not in ids("fl", CHECK_SAID_BET_MADE, "rr-fragment")
    assert VERBAL_BINDING in ids("nl", CHECK_SAID_BET_MADE, "rr-fragment")


STRING_WITH_LEGAL_FIRST_MOTION = ("chips 3 200 2x100\nchips 3 200 2x100\nraise 3 to 400\n"
                                  "fold 1\nfold 2\naward 3 550\n")


def test_the_string_raise_remedy_is_a_house_setting():
    assert STRING_RAISE in ids("nl", STRING_WITH_LEGAL_FIRST_MOTION)
    house = "house=" + json.dumps(json.dumps({"string.remedy": "first_motion"}))
    got = findings("nl", STRING_WITH_LEGAL_FIRST_MOTION, opts=house)
    assert [r for r in got if r[0] == STRING_RAISE]  # first motion: a raise to 200, not 400
    first_only = STRING_WITH_LEGAL_FIRST_MOTION.replace("raise 3 to 400", "raise 3 to 200")
    assert STRING_RAISE not in ids("nl", first_only, opts=house)
    assert STRING_RAISE in ids("nl", first_only)  # montana: only a call stands


def test_limit_verbal_raise_is_the_rounds_raise_whatever_the_chips():
    body = "declare 3 raise\nchips 3 150 3x50\ncall 3 100\nfold 1\nfold 2\naward 3 250\n"
    got = findings("fl", body)
    assert (VERBAL_BINDING, 3, "violation") in got


def test_pot_declared_at_pot_limit_binds_the_pot_size():
    body = ("call 3 100\ncall 1 50\ncheck 2\ndeal board 2d 7d 9h\ndeclare 1 pot\n"
            "chips 1 200 2x100\nbet 1 200\nfold 2\nfold 3\naward 1 500\n")
    got = findings("pl", body)
    assert (VERBAL_BIGBET_DISCREPANCY, 1, "violation") in got or \
        (VERBAL_BINDING, 1, "violation") in got
    assert not ids("pl", body.replace("bet 1 200", "bet 1 300").replace("award 1 500",
                                                                          "award 1 600"))


def test_all_in_declared_binds_every_chip():
    body = "declare 3 all in\nchips 3 1000 1x1000\nraise 3 to 1000\nfold 1\nfold 2\naward 3 1150\n"
    assert VERBAL_BIGBET_DISCREPANCY not in ids("nl", body)
    assert VERBAL_BINDING in ids("nl", body)
    assert not ids("nl", body.replace("raise 3 to 1000", "raise 3 to 10000")
                   .replace("award 3 1150", "award 3 10150"))


# --- out of turn and the right to act ------------------------------------------------------------

FLOP = "call 3 100\ncall 1 50\ncheck 2\ndeal board 2d 7d 9h\n"


def test_declared_check_out_of_turn_then_a_bet_is_turn_oot_check():
    body = FLOP + "declare 2 check\ncheck 1\nbet 2 100\nfold 3\nfold 1\naward 2 400\n"
    assert (TURN_OOT_CHECK, 2, "warning") in findings("nl", body)
    legal = FLOP + "declare 2 check\ncheck 1\ncheck 2\ncheck 3\ndeal board Jc\ncheck 1\n" \
        "check 2\ncheck 3\ndeal board 3s\ncheck 1\ncheck 2\ncheck 3\nshow 1 As Ks\n" \
        "show 2 Qd Qc\nshow 3 8h 4c\naward 2 300\n"
    assert not ids("nl", legal) & {TURN_OOT_CHECK, TURN_OOT_BINDING}


def test_declared_call_out_of_turn_then_a_raise_is_turn_oot_call():
    body = FLOP + "bet 1 100\ndeclare 3 call\ncall 2 100\nraise 3 to 400\nfold 1\nfold 2\n" \
        "award 3 900\n"
    assert (TURN_OOT_CALL, 3, "warning") in findings("nl", body)


OOT_FOLD_THEN_CALL_AFTER_A_CALL = (FLOP + "bet 1 100\ndeclare 3 fold\ncall 2 100\ncall 3 100\n"
                                   "deal board Jc\ncheck 1\ncheck 2\ncheck 3\ndeal board 3s\n"
                                   "check 1\ncheck 2\ncheck 3\nshow 1 As Ks\nshow 2 Qd Qc\n"
                                   "show 3 8h 4c\naward 2 600\n")


def test_out_of_turn_declaration_binds_after_an_intervening_call_in_montana_not_in_uspa():
    # P15: Montana — binding unless a bet or raise intervenes; USPA — a call also frees him.
    assert TURN_OOT_BINDING in ids("nl", OOT_FOLD_THEN_CALL_AFTER_A_CALL, "montana")
    assert TURN_OOT_BINDING not in ids("nl", OOT_FOLD_THEN_CALL_AFTER_A_CALL, "uspa-2004")
    assert TURN_OOT_BINDING not in ids("nl", OOT_FOLD_THEN_CALL_AFTER_A_CALL, "private")
    raised = OOT_FOLD_THEN_CALL_AFTER_A_CALL.replace("call 2 100\ncall 3 100",
                                                     "raise 2 to 300\ncall 3 300\ncall 1 200")
    assert TURN_OOT_BINDING not in ids("nl", raised.replace("award 2 600", "award 2 1200"))


def test_a_logged_out_of_turn_action_is_not_ruled_twice():
    body = FLOP + "declare 2 check\ncheck 2\nbet 1 100\nraise 2 to 300\nfold 3\nfold 1\n" \
        "award 2 700\n"
    got = [r for r in findings("nl", body) if r[0] == TURN_OOT_CHECK]
    assert len(got) == 1


# --- stud: the bring-in and its completion -------------------------------------------------------

STUD = """hand fx:live-stud stud fixed_limit ante=1 bring_in=2 small_bet=5 big_bet=10
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
post 2 bring_in 2
declare 3 complete
chips 3 5 1x5
complete 3 to 5
chips 4 10 2x5
raise 4 to 10
fold 1
declare 2 fold
fold 2
declare 3 call
chips 3 5 1x5
call 3 5
deal 3 up 8d
deal 4 up 8s
chips 3 5 1x5
bet 3 5
fold 4
award 3 31
"""


def _stud(text):
    [(rows, _)] = parse_text(text)
    return {f.rule_id for f in replay_hand(hand_from_rows(rows), load_profile()).findings}


def test_stud_completion_said_with_one_chip_stands():
    assert _stud(STUD) == set()


def test_stud_silent_single_chip_over_the_bring_in_is_a_call():
    assert CHIP_SINGLE_OVERSIZE_CALL in _stud(STUD.replace("declare 3 complete\n", ""))


# --- no false violations ---------------------------------------------------------------------

CAPPED = """hand fx:live-capped holdem fixed_limit sb=50 bb=100 small_bet=100 big_bet=200 button=3
seat 1 alice 10000
seat 2 bob 10000
seat 3 carol 10000
post 1 small_blind 50
post 2 big_blind 100
deal 1 hole As Ks
deal 2 hole Qd Qc
deal 3 hole 8h 4c
raise 3 to 200
raise 1 to 300
raise 2 to 400
declare 3 raise
chips 3 300 3x100
call 3 400
call 1 100
deal board 2d 7d 9h
check 1
check 2
check 3
deal board Jc
check 1
check 2
check 3
deal board 3s
check 1
check 2
check 3
show 1 As Ks
show 2 Qd Qc
show 3 8h 4c
award 2 1200
"""


def test_a_raise_declared_in_a_capped_round_binds_only_a_call():
    [(rows, _)] = parse_text(CAPPED)
    got = {f.rule_id for f in replay_hand(hand_from_rows(rows), load_profile()).findings}
    assert not got & {VERBAL_BINDING, CHIP_FULL_PLUS_HALF, STRING_RAISE}, got


def test_a_big_blind_tossing_one_chip_on_his_option_is_not_ruled():
    body = "call 3 100\ncall 1 50\nchips 2 500 1x500\ncheck 2\ndeal board 2d 7d 9h\n" \
        "check 1\ncheck 2\ncheck 3\ndeal board Jc\ncheck 1\ncheck 2\ncheck 3\ndeal board 3s\n" \
        "check 1\ncheck 2\ncheck 3\nshow 1 As Ks\nshow 2 Qd Qc\nshow 3 8h 4c\naward 2 300\n"
    for structure in ("nl", "pl"):
        assert not ids(structure, body) & {CHIP_SINGLE_CHIP_BET, CHIP_RELEASE_BINDING}


RAISED = FLOP + "bet 1 100\nraise 2 to 400\n"


def test_big_bet_unaware_of_the_raise_take_back_is_no_finding():
    # He put in the 100 of the bet before the raise to 400, then took it back and folded.
    body = RAISED + "chips 3 100 1x100\nfold 3\nfold 1\naward 2 800\n"
    assert not ids("nl", body) & {CHIP_RELEASE_BINDING, CHIP_GROSS_MISUNDERSTANDING}
    # The rulebook's example: the same 100 with "call", held to the full call: review it.
    held = RAISED + "declare 3 call\nchips 3 100 1x100\ncall 3 400\nfold 1\n" \
        "deal board Jc\ncheck 2\ncheck 3\ndeal board 3s\ncheck 2\ncheck 3\n" \
        "show 2 Qd Qc\nshow 3 8h 4c\naward 2 1200\n"
    assert (CHIP_GROSS_MISUNDERSTANDING, 3, "warning") in findings("nl", held)


def test_a_short_call_is_ruled_once_and_a_made_up_one_not_at_all():
    short = RAISED + "declare 3 call\nchips 3 350 3x100+1x50\ncall 3 350\nfold 1\n" \
        "deal board Jc\ncheck 2\ncheck 3\ndeal board 3s\ncheck 2\ncheck 3\n" \
        "show 2 Qd Qc\nshow 3 8h 4c\naward 2 1150\n"
    from audit.rules.catalog import LIVE_RULE_IDS

    chip_rules = set(LIVE_RULE_IDS) | {CHIP_SHORT_CALL}
    got = [r for r in findings("nl", short) if r[0] in chip_rules]
    assert got == [(CHIP_SHORT_CALL, 3, "violation")]  # the logged layer's, not twice
    made_up = short.replace("call 3 350", "call 3 400").replace("award 2 1150", "award 2 1200")
    assert not [r for r in findings("nl", made_up) if r[2] != "info"]


def test_judgement_rulings_are_warnings_and_the_unambiguous_ones_violations():
    from audit.rules.catalog import LIVE_RULE_IDS
    from audit.rules.registry import RULES

    review = {CHIP_GROSS_MISUNDERSTANDING, CHIP_FORWARD_MOTION, TURN_RIGHT_TO_ACT,
              CHIP_RAP, DRAW_CHANGE_COUNT}
    for rule_id in LIVE_RULE_IDS:
        assert RULES[rule_id].severity == ("warning" if rule_id in review else "violation")


@pytest.mark.parametrize("physical", ["declare 1 \"bet 60\"\nchips 1 60 1x50+2x5",
                                      "chips 1 50 1x50", "declare 1 \"bet 60\""])
def test_a_wager_under_the_minimum_is_brought_up_to_it_and_no_further(physical):
    head = FLOP + physical + "\n"
    brought_up = head + "bet 1 100\nfold 2\nfold 3\naward 1 400\n"
    assert not ids("nl", brought_up)
    too_far = head + "bet 1 200\nfold 2\nfold 3\naward 1 500\n"
    assert BET_NL_UNDERMIN_FIX in ids("nl", too_far)
    left_short = head.replace("60", "50") + "bet 1 50\nfold 2\nfold 3\naward 1 350\n"
    got = ids("nl", left_short)
    assert BET_NL_MIN_BET in got and BET_NL_UNDERMIN_FIX not in got


def test_derive_is_a_pure_function_of_situation_words_and_chips():
    from audit.replay.live.rulings import Situation, derive
    from audit.replay.live.words import Motion
    from audit.replay.state import FL, NL

    nl = Situation(cur=100, mine=0, stack=5000, pot=150, structure=NL, size=0, limit_to=0,
                   min_raise=100)
    rules = LiveRules()
    two = [Motion(amount=100), Motion(amount=200)]
    assert derive(nl, None, two, rules).action == "call"
    assert derive(nl, parse_declaration("raise"), two, rules).total == 300
    assert derive(nl, parse_declaration("call"), [Motion(amount=300)], rules).action == "call"
    assert derive(nl, None, [Motion(amount=500, chips=1)], rules).rule == \
        CHIP_SINGLE_OVERSIZE_CALL
    fl = Situation(cur=100, mine=0, stack=5000, pot=150, structure=FL, size=100, limit_to=200,
                   min_raise=100)
    plus_half = derive(fl, None, [Motion(amount=150, chips=3)], rules)
    assert (plus_half.action, plus_half.rule) == ("raise", CHIP_FULL_PLUS_HALF)
    assert derive(fl, None, [], rules) is None  # nothing physical: nothing to rule


def test_limit_all_in_for_less_than_half_a_bet_over_the_call_stands():
    from audit.replay.live.rulings import Situation, derive
    from audit.replay.live.words import Motion
    from audit.replay.state import FL

    short_stack = Situation(cur=4400, mine=4200, stack=280, pot=9000, structure=FL, size=200,
                            limit_to=4600, min_raise=200)
    b = derive(short_stack, None, [Motion(amount=280)], LiveRules())
    assert (b.action, b.rule) == ("raise", "")  # all his chips: the all-in raise stands
