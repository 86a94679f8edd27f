"""The rules the auditor does NOT check yet, named one by one.

They are catalogued from RULEBOOK.md (id, category, citation) so a later check can cite them,
but no check emits them, so they are not registered, and the report's methodology lists each
as not checked. Implementing one means moving it out of this list, registering it, and adding
its fixture file under fixtures/rules/ (test_rules_fixtures.py then requires both hands), or,
when other ids' checks already decide it, naming them in audit/rules/coverage.py with a proof
under fixtures/rules/within/ (tests/rules/test_rule_coverage.py). The report prints each one's
reason (audit/rule_coverage.NOT_CHECKED), one phrase such as "no hand log records deck changes".
"""

from __future__ import annotations

import pytest

from audit.report.methodology import unchecked_rules, why_unchecked
from audit.rules.catalog import CATALOG
from audit.rules.coverage import NOT_CHECKED as REASONS
from audit.rules.ids import (
    ANTE_DRAW_ANYTIME,
    BET_NL_MAX_BUYIN,
    BET_PL_ROUND,
    BLIND_ALLIN_MAKEUP,
    BLIND_CHOP,
    BLIND_DEAD_PART,
    BLIND_DEAL_OFF,
    BLIND_LOWBALL_PASSED,
    BLIND_NEW_GAME,
    BLIND_NEW_PLAYER,
    BLIND_NEW_PLAYER_WINDOW,
    BLIND_SEAT_CHANGE,
    BLIND_SHORT_STRUCTURE,
    BLIND_SINGLE_LOWBALL,
    BOARD_FLOP_BURN_ERR,
    BOARD_FLOP_REDEAL,
    BOARD_RIVER_PREMATURE,
    BOARD_TURN_PREMATURE,
    BURN_ERROR,
    BUTTON_CORRECTION,
    BUTTON_START,
    DEAD_CLOCK,
    DEAD_FORWARD_MUCK,
    DEAD_MUCK_RETRIEVE,
    DEAD_THROWN_INTO_HAND,
    DEAL_BOXED_CARD,
    DEAL_DECK_CHANGE,
    DEAL_EXPOSED_GENERAL,
    DEAL_EXTRA_CARD,
    DEAL_FOREIGN_BACK,
    DEAL_JOKER_STRAY,
    DEAL_MISSING_CARDS,
    DEAL_ORDER,
    DEAL_SHUFFLE_CUT,
    DEAL_STUB_FOULED,
    DECK_SIZE,
    DRAW_ASKED_COUNT,
    HOLDEM_EXPOSED_HOLECARD,
    HOUSE_AWAY,
    HOUSE_BUYIN_MIN,
    HOUSE_NO_PUSHING_BETS,
    HOUSE_ONE_PLAYER_ONE_HAND,
    HOUSE_RATHOLE,
    HOUSE_SEPARATED_PLAYERS,
    HOUSE_STAKES_CHANGE,
    JACKS_ALLIN_OPEN,
    JACKS_PASSED_OUT,
    KILL_GAME_TYPE,
    META_DEAL_START,
    META_RECONSTRUCT,
    META_RULING_WINDOW,
    META_TDA_DEFERRAL,
    MISDEAL_COND_A,
    MISDEAL_COND_B,
    MISDEAL_COND_C,
    MISDEAL_COND_D,
    MISDEAL_COND_E,
    MISDEAL_COND_F,
    MISDEAL_COND_G,
    MISDEAL_COND_H,
    MISDEAL_COND_I,
    MISDEAL_COND_J,
    MISDEAL_CUTOFF,
    MISDEAL_DRAW_SHORT,
    PATTERN_BOT_RTA,
    PATTERN_DELIBERATE_OOT,
    PATTERN_FREEROLL,
    PATTERN_MISCALL,
    PATTERN_MULTI_ACCOUNT,
    PATTERN_STALLING,
    PATTERN_TABLE_TALK,
    POST_FOR_OTHER,
    POT_DEAL_TWICE,
    POT_ODDCHIP_UNIT,
    POT_SIDEPOT_ORDER,
    SHOW_ALL_CARDS,
    SHOW_KILL_LOSERS,
    SHOW_ONE_SHOW_ALL,
    SHOW_ORDER,
    SHOW_PLAY_BOARD,
    SHOW_REQUEST,
    STUD_ABSENT,
    STUD_UPCARDS_FOLD,
    TOURN_ABSENT,
    TOURN_ALLIN_FACEUP,
    TOURN_BALANCE,
    TOURN_BUST_ORDER,
    TOURN_BUTTON_START,
    TOURN_CHIP_RACE,
    TOURN_DEAD_BUTTON,
    TOURN_HIDDEN_CHIPS,
    TOURN_LEVEL_CHANGE,
    TOURN_NEW_PLAYER,
    TOURN_NO_SHOW_DURING_DEAL,
    TOURN_REBUY_DECLARED,
    TOURN_SEAT_LOCK,
    TOURN_SHORT_BLIND,
)
from audit.rules.registry import RULES

NOT_CHECKED = (
    ANTE_DRAW_ANYTIME, BET_NL_MAX_BUYIN, BET_PL_ROUND, BLIND_ALLIN_MAKEUP,
    BLIND_CHOP, BLIND_DEAD_PART, BLIND_DEAL_OFF, BLIND_LOWBALL_PASSED, BLIND_NEW_GAME,
    BLIND_NEW_PLAYER, BLIND_NEW_PLAYER_WINDOW, BLIND_SEAT_CHANGE, BLIND_SHORT_STRUCTURE,
    BLIND_SINGLE_LOWBALL, BOARD_FLOP_BURN_ERR, BOARD_FLOP_REDEAL, BOARD_RIVER_PREMATURE,
    BOARD_TURN_PREMATURE, BURN_ERROR, BUTTON_CORRECTION, BUTTON_START, DEAD_CLOCK,
    DEAD_FORWARD_MUCK, DEAD_MUCK_RETRIEVE, DEAD_THROWN_INTO_HAND, DEAL_BOXED_CARD,
    DEAL_DECK_CHANGE, DEAL_EXPOSED_GENERAL, DEAL_EXTRA_CARD, DEAL_FOREIGN_BACK,
    DEAL_JOKER_STRAY, DEAL_MISSING_CARDS, DEAL_ORDER, DEAL_SHUFFLE_CUT, DEAL_STUB_FOULED,
    DECK_SIZE, DRAW_ASKED_COUNT, HOLDEM_EXPOSED_HOLECARD, HOUSE_AWAY, HOUSE_BUYIN_MIN,
    HOUSE_NO_PUSHING_BETS, HOUSE_ONE_PLAYER_ONE_HAND, HOUSE_RATHOLE,
    HOUSE_SEPARATED_PLAYERS, HOUSE_STAKES_CHANGE, JACKS_ALLIN_OPEN, JACKS_PASSED_OUT,
    KILL_GAME_TYPE, META_DEAL_START, META_RECONSTRUCT, META_RULING_WINDOW,
    META_TDA_DEFERRAL, MISDEAL_COND_A, MISDEAL_COND_B, MISDEAL_COND_C, MISDEAL_COND_D,
    MISDEAL_COND_E, MISDEAL_COND_F, MISDEAL_COND_G, MISDEAL_COND_H, MISDEAL_COND_I,
    MISDEAL_COND_J, MISDEAL_CUTOFF, MISDEAL_DRAW_SHORT, PATTERN_BOT_RTA,
    PATTERN_DELIBERATE_OOT, PATTERN_FREEROLL, PATTERN_MISCALL, PATTERN_MULTI_ACCOUNT,
    PATTERN_STALLING, PATTERN_TABLE_TALK, POST_FOR_OTHER, POT_DEAL_TWICE,
    POT_ODDCHIP_UNIT, POT_SIDEPOT_ORDER, SHOW_ALL_CARDS, SHOW_KILL_LOSERS,
    SHOW_ONE_SHOW_ALL, SHOW_ORDER, SHOW_PLAY_BOARD, SHOW_REQUEST, STUD_ABSENT,
    STUD_UPCARDS_FOLD, TOURN_ABSENT, TOURN_ALLIN_FACEUP, TOURN_BALANCE, TOURN_BUST_ORDER,
    TOURN_BUTTON_START, TOURN_CHIP_RACE, TOURN_DEAD_BUTTON, TOURN_HIDDEN_CHIPS,
    TOURN_LEVEL_CHANGE, TOURN_NEW_PLAYER, TOURN_NO_SHOW_DURING_DEAL, TOURN_REBUY_DECLARED,
    TOURN_SEAT_LOCK, TOURN_SHORT_BLIND,
)


def test_the_unchecked_rules_are_exactly_these():
    assert sorted(r.id for r in unchecked_rules()) == sorted(NOT_CHECKED)


@pytest.mark.parametrize("rule_id", NOT_CHECKED)
def test_an_unchecked_rule_is_catalogued_but_never_registered(rule_id):
    assert rule_id in CATALOG and CATALOG[rule_id].citation.strip()
    assert rule_id not in RULES, f"{rule_id} is registered: remove it from NOT_CHECKED"


def test_every_unchecked_rule_has_one_reason_and_nothing_else_has_one():
    assert sorted(REASONS) == sorted(NOT_CHECKED)


@pytest.mark.parametrize("rule_id", NOT_CHECKED)
def test_the_reason_is_one_short_phrase(rule_id):
    reason = why_unchecked(rule_id)
    assert reason.strip() == reason and reason[0].islower() and not reason.endswith(".")
    assert len(reason) <= 90 and "\n" not in reason
