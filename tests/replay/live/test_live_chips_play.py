"""The live ids of RULEBOOK §4.8-§4.10 about chips that play and wagers brought up to size:
BET-UNDERSIZE-FIX (limit), CHIP-MIN-UNIT and BET-NL-DENOM (house settings chip.min_unit,
chip.whole_units, nl.wager_denom), and the house's one-motion rule for STRING-BIGBET-MULTIMOVE.
Hands without a physical layer (online logs) never get them, whatever the amounts."""

from __future__ import annotations

import json

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import (
    BET_LIMIT_FIXED,
    BET_NL_DENOM,
    BET_UNDERSIZE_FIX,
    CHIP_MIN_UNIT,
    STRING_BIGBET_MULTIMOVE,
    VERBAL_BINDING,
)
from audit.rules.profiles import load_profile

PRELUDE = """seat 1 alice 100000
seat 2 bob 100000
seat 3 carol 100000
post 1 small_blind {sb}
post 2 big_blind {bb}
deal 1 hole As Ks
deal 2 hole Qd Qc
deal 3 hole 8h 4c
"""
FL_FLOP = """call 3 100
call 1 50
check 2
deal board 2d 7d 9h
"""


def findings(head: str, body: str, house: dict | None = None, *, sb: int = 50, bb: int = 100,
             online: bool = False) -> list[tuple[str, int | None, str]]:
    opts = f" house='{json.dumps(house)}'" if house else ""
    [(rows, _)] = parse_text(f"hand fx:chips {head}{opts}\n{PRELUDE.format(sb=sb, bb=bb)}{body}")
    if online:  # what an online log of the same hand holds
        rows = [dict(r) for r in rows if r["kind"] not in ("declare", "chips")]
        for seq, r in enumerate(rows):
            r["seq"] = seq
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return [(f.rule_id, f.seat, f.severity) for f in result.findings if f.severity != "info"]


FL = "holdem fixed_limit sb=50 bb=100 small_bet=100 big_bet=200 button=3"
NL = "holdem no_limit sb=50 bb=100 button=3"
NL_DOLLARS = "holdem no_limit sb=100 bb=200 button=3 currency=USD mpu=100"


# --- BET-UNDERSIZE-FIX ---------------------------------------------------------------------------

def test_bet_undersize_fix_chips_short_of_the_bet_then_a_check():
    got = findings(FL, FL_FLOP + "chips 1 50 1x50\ncheck 1\n")
    assert got == [(BET_UNDERSIZE_FIX, 1, "violation")]


def test_bet_undersize_fix_said_a_bet_under_the_limit_then_checked():
    assert (BET_UNDERSIZE_FIX, 1, "violation") in findings(FL, FL_FLOP + "declare 1 bet 50\n"
                                                                 "check 1\n")


def test_bet_undersize_fix_brought_up_to_the_full_bet_is_legal():
    assert findings(FL, FL_FLOP + "chips 1 50 1x50\nbet 1 100\nfold 2\nfold 3\n"
                    "award 1 400\n") == []


def test_bet_undersize_fix_a_short_bet_left_standing_is_bet_limit_fixed_not_twice():
    got = {r for r, _, _ in findings(FL, FL_FLOP + "chips 1 50 1x50\nbet 1 50\nfold 2\nfold 3\n"
                                     "award 1 350\n")}
    assert BET_LIMIT_FIXED in got and BET_UNDERSIZE_FIX not in got


def test_bet_undersize_fix_not_on_a_full_bet_in_chips():
    assert findings(FL, FL_FLOP + "chips 1 100 1x100\nbet 1 100\nfold 2\nfold 3\n"
                    "award 1 400\n") == []


# --- CHIP-MIN-UNIT -----------------------------------------------------------------------------

RAISE_650 = "declare 3 raise to 650\nraise 3 to 650\nfold 1\nfold 2\naward 3 950\n"


def test_chip_min_unit_a_fraction_of_a_dollar_does_not_play_where_the_house_says_whole():
    got = findings(NL_DOLLARS, RAISE_650, {"chip.whole_units": True}, sb=100, bb=200)
    assert got == [(CHIP_MIN_UNIT, 3, "violation")]


def test_chip_min_unit_cents_play_unless_the_house_says_betting_is_in_whole_units():
    assert findings(NL_DOLLARS, RAISE_650, sb=100, bb=200) == []


def test_chip_min_unit_whole_units_do_not_apply_to_cent_stakes():
    body = "declare 3 raise to 325\nraise 3 to 325\nfold 1\nfold 2\naward 3 475\n"
    assert findings("holdem no_limit sb=50 bb=100 button=3 currency=USD mpu=100", body,
                    {"chip.whole_units": True}) == []


def test_chip_min_unit_small_chips_do_not_play_even_in_quantity():
    body = "chips 3 600 5x100+4x25\nraise 3 to 600\nfold 1\nfold 2\naward 3 900\n"
    got = findings(NL_DOLLARS, body, {"chip.min_unit": 100}, sb=100, bb=200)
    assert got == [(CHIP_MIN_UNIT, 3, "violation")]
    body = "chips 3 600 6x100\nraise 3 to 600\nfold 1\nfold 2\naward 3 900\n"
    assert findings(NL_DOLLARS, body, {"chip.min_unit": 100}, sb=100, bb=200) == []


def test_chip_min_unit_an_all_in_for_an_odd_amount_is_not_flagged():
    body = ("chips 3 333 3x100+1x33\nraise 3 to 333 detail=all_in\nfold 1\nfold 2\n"
            "award 3 633\n")
    text = body  # carol has only 333 left: she is all in with every chip
    head = "holdem no_limit sb=100 bb=200 button=3"
    opts = " house='{\"chip.min_unit\": 100}'"
    prelude = PRELUDE.format(sb=100, bb=200).replace("seat 3 carol 100000", "seat 3 carol 333")
    [(rows, _)] = parse_text(f"hand fx:chips {head}{opts}\n{prelude}{text}")
    got = {f.rule_id for f in replay_hand(hand_from_rows(rows)).findings}
    assert CHIP_MIN_UNIT in got  # the 33 chip itself does not play
    body2 = "chips 3 333\nraise 3 to 333 detail=all_in\nfold 1\nfold 2\naward 3 633\n"
    [(rows, _)] = parse_text(f"hand fx:chips {head}{opts}\n{prelude}{body2}")
    assert CHIP_MIN_UNIT not in {f.rule_id for f in replay_hand(hand_from_rows(rows)).findings}


def test_chip_min_unit_never_on_an_online_log():
    house = {"chip.whole_units": True, "chip.min_unit": 100}
    # the live log of this hand is flagged; its online log (no chips, no declarations) is not
    live = findings(NL_DOLLARS, RAISE_650, house, sb=100, bb=200)
    assert (CHIP_MIN_UNIT, 3, "violation") in live
    got = findings(NL_DOLLARS, RAISE_650, house, sb=100, bb=200, online=True)
    assert got == []


# --- BET-NL-DENOM ------------------------------------------------------------------------------

DENOM = {"nl.wager_denom": 100}
RAISE_375 = "chips 3 375 3x100+3x25\nraise 3 to 375\nfold 1\nfold 2\naward 3 500\n"


def test_bet_nl_denom_smaller_chips_not_in_quantity_do_not_play():
    assert findings("holdem no_limit sb=25 bb=100 button=3", RAISE_375, DENOM, sb=25) == [
        (BET_NL_DENOM, 3, "violation")]


def test_bet_nl_denom_in_quantity_they_play():
    body = "chips 3 400 3x100+4x25\nraise 3 to 400\nfold 1\nfold 2\naward 3 525\n"
    assert findings("holdem no_limit sb=25 bb=100 button=3", body, DENOM, sb=25) == []


def test_bet_nl_denom_only_where_the_house_requires_it_and_only_at_big_bet():
    assert findings("holdem no_limit sb=25 bb=100 button=3", RAISE_375, sb=25) == []
    assert findings("holdem no_limit sb=25 bb=100 button=3", RAISE_375, DENOM, sb=25,
                    online=True) == []


def test_bet_nl_denom_unknown_denominations_are_not_ruled():
    body = "chips 3 375\nraise 3 to 375\nfold 1\nfold 2\naward 3 500\n"
    assert findings("holdem no_limit sb=25 bb=100 button=3", body, DENOM, sb=25) == []


# --- STRING-BIGBET-MULTIMOVE under a one-motion house --------------------------------------------

MULTI = "declare 3 raise\nchips 3 200\nchips 3 300\nraise 3 to 500\nfold 1\nfold 2\naward 3 650\n"


def test_string_bigbet_multimove_single_motion_house_holds_cash_games_to_one_motion():
    got = findings(NL, MULTI, {"nl.multimotion": "single_motion"})
    assert got == [(STRING_BIGBET_MULTIMOVE, 3, "violation")]
    assert findings(NL, MULTI) == []  # Montana cash game: several motions after "raise"


# --- "pot" said at no limit (house nl.pot_word) ---------------------------------------------------

POT_BODY = "call 3 100\ncall 1 50\ncheck 2\ndeal board 2d 7d 9h\ndeclare 1 pot\nbet 1 100\n" \
    "fold 2\nfold 3\naward 1 400\n"


def test_verbal_binding_pot_at_no_limit_is_a_raise_of_any_size_unless_the_house_says_pot_size():
    assert findings(NL, POT_BODY) == []  # the seeds do not size "pot" at no limit
    got = findings(NL, POT_BODY, {"nl.pot_word": "pot_size"})
    assert got == [(VERBAL_BINDING, 1, "violation")]  # the pot was 300: a bet of 300
    assert findings(NL, POT_BODY.replace("bet 1 100", "bet 1 300").replace("award 1 400",
                                                                          "award 1 600"),
                    {"nl.pot_word": "pot_size"}) == []
