"""How the report accounts for every RULEBOOK.md id no check emits under its own name.

Each RULEBOOK id has exactly one status (`coverages`, tests/rules/test_rule_catalog.py): checked (a
registered id), decided within other ids, a permission the replay honours, not checked (with the
reason the report prints), or a cross-reference line that only points at other ids.

Decided within: RULEBOOK.md states some rules twice over: a counting convention (the big blind
is the bet), a permission with a limit (raising is unlimited heads-up, unless the pot was capped
first), or the ranking behind an award (Omaha uses exactly two hole cards). Breaking such a rule
always shows up as the enforcing rule's finding: a capped raise, a short raise, a wrong award.
So these ids are checked, and the report says by which ids, instead of listing them as not
checked. fixtures/rules/within/<ID>.txt proves each claim with a hand that breaks the rule
(the enforcing id's finding expected) and a nearby legal hand (no finding);
tests/rules/test_rule_coverage.py replays them.

Permissions (check-raise outside limit ace-to-five lowball, an all-in player's seventh card
dealt up) are never flagged; fixtures/rules/permitted/<ID>.txt proves it with legal hands and,
where the permission bounds a ban, a nearby hand that the ban flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from audit.rules.ids import (
    A5_CHECKRAISE,
    A5_SEVENS_RULE,
    ANTE_DRAW_ANYTIME,
    BBLOW_NO_SEVENS,
    BET_ALLIN_AGGREGATE,
    BET_CAP_COUNT,
    BET_CAP_HEADSUP,
    BET_CAP_MULTIROUND,
    BET_CAP_NO_UNCAP,
    BET_CAP_TOURNAMENT,
    BET_CAP_TWOROUND,
    BET_CHECKRAISE,
    BET_LIMIT_FIXED,
    BET_LIMIT_STUD_STREETS,
    BET_MIN_SIZE,
    BET_NL_MAX_BUYIN,
    BET_NL_MIN_BET,
    BET_NL_MIN_RAISE,
    BET_NL_NO_REOPEN,
    BET_NL_SHORT_BB,
    BET_NL_UNLIMITED,
    BET_PL_CORRECT,
    BET_PL_MAX,
    BET_PL_ROUND,
    BLIND_ALLIN_MAKEUP,
    BLIND_BB_IS_BET,
    BLIND_CHOP,
    BLIND_DEAD_PART,
    BLIND_DEAL_OFF,
    BLIND_HEADSUP,
    BLIND_LOWBALL_PASSED,
    BLIND_NEW_GAME,
    BLIND_NEW_PLAYER,
    BLIND_NEW_PLAYER_WINDOW,
    BLIND_OPTION,
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
    CHIP_RELEASE_BINDING,
    D27_CHECKRAISE,
    DEAD_CLOCK,
    DEAD_FOLD,
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
    DEAL_PREMATURE,
    DEAL_SHUFFLE_CUT,
    DEAL_STUB_FOULED,
    DECK_SIZE,
    DRAW_ASKED_COUNT,
    DRAWHI_CHECKRAISE,
    DRAWHI_OPEN,
    EVAL_BOARD,
    EVAL_HIGH,
    EVAL_JOKER_HIGH,
    EVAL_LOW_8,
    EVAL_LOW_27,
    EVAL_LOW_A5,
    EVAL_SELECT,
    EVAL_SUIT_ORDER,
    HOLDEM_EXPOSED_HOLECARD,
    HOUSE_AWAY,
    HOUSE_BUYIN_MIN,
    HOUSE_NO_PUSHING_BETS,
    HOUSE_ONE_PLAYER_ONE_HAND,
    HOUSE_RATHOLE,
    HOUSE_SEPARATED_PLAYERS,
    HOUSE_STAKES_CHANGE,
    HOUSE_TABLE_STAKES,
    JACKS_ALLIN_OPEN,
    JACKS_NO_REFUND,
    JACKS_PASSED_OUT,
    KILL_GAME_TYPE,
    KILL_UNAWARE,
    META_DEAL_START,
    META_RECONSTRUCT,
    META_RULING_WINDOW,
    META_TDA_DEFERRAL,
    MISDEAL_CUTOFF,
    MISDEAL_DRAW_SHORT,
    ORDER_BUTTON_FIRST,
    ORDER_BUTTON_LATER,
    ORDER_HEADSUP,
    ORDER_KILL,
    ORDER_LOWBALL,
    ORDER_STUD_LATER,
    PATTERN_BOT_RTA,
    PATTERN_DELIBERATE_OOT,
    PATTERN_FREEROLL,
    PATTERN_MISCALL,
    PATTERN_MULTI_ACCOUNT,
    PATTERN_SITOUT_OK,
    PATTERN_STALLING,
    PATTERN_TABLE_TALK,
    POST_FOR_OTHER,
    POT_CONSERVATION,
    POT_DEAL_TWICE,
    POT_FOLD_FORFEIT,
    POT_HILO_SPLIT,
    POT_ODDCHIP_BUTTON,
    POT_ODDCHIP_MAX1,
    POT_ODDCHIP_UNIT,
    POT_SIDEPOT_BUILD,
    POT_SIDEPOT_ORDER,
    POT_SIDEPOT_SEPARATE,
    POT_SPLIT_BY_CARDS,
    POT_TIE_SPLIT,
    SHOW_ALL_CARDS,
    SHOW_CARDS_SPEAK,
    SHOW_KILL_LOSERS,
    SHOW_ONE_SHOW_ALL,
    SHOW_ORDER,
    SHOW_PLAY_BOARD,
    SHOW_REQUEST,
    STRADDLE_TOURN,
    STUD_7TH_UP,
    STUD_ABSENT,
    STUD_ALLIN_HOLECARD_UP,
    STUD_BOARD_BEATEN_CALL,
    STUD_BRINGIN_LOWCARD,
    STUD_COMPLETE,
    STUD_EXPOSED_START,
    STUD_FOLD_NO_WAGER,
    STUD_UPCARDS_FOLD,
    TOURN_ABSENT,
    TOURN_ALLIN_FACEUP,
    TOURN_BALANCE,
    TOURN_BUST_ORDER,
    TOURN_BUTTON_START,
    TOURN_CHIP_RACE,
    TOURN_DEAD_BUTTON,
    TOURN_HEADSUP_SB,
    TOURN_HIDDEN_CHIPS,
    TOURN_LEVEL_CHANGE,
    TOURN_NEW_PLAYER,
    TOURN_NO_SHOW_DURING_DEAL,
    TOURN_REBUY_DECLARED,
    TOURN_SEAT_LOCK,
    TOURN_SHORT_BLIND,
    TOURN_STUD_MISDEAL,
)
from audit.rules.registry import RULES


@dataclass(frozen=True, slots=True)
class EnforcedWithin:
    """A catalogued rule id decided by the checks of other, registered ids."""

    rule_id: str
    enforced_by: tuple[str, ...]
    how: str  # what the enforcing checks do that makes the rule hold


_ENTRIES = (
    EnforcedWithin(BET_CAP_HEADSUP, (BET_CAP_MULTIROUND, BET_CAP_NO_UNCAP),
                   "the cap binds only while three or more players with chips contest the "
                   "pot; a pot capped before it became heads-up stays capped"),
    EnforcedWithin(BET_CAP_COUNT, (BET_CAP_MULTIROUND,),
                   "the cap counts the big blind as the bet, an all-in of half a bet or more "
                   "as a raise and a smaller all-in as none"),
    EnforcedWithin(BET_ALLIN_AGGREGATE, (BET_NL_NO_REOPEN,),
                   "short all-ins reopen the betting for a player who already acted only once "
                   "together they make a full raise (profile nl.reopen)"),
    EnforcedWithin(BLIND_BB_IS_BET, (BET_CAP_MULTIROUND, BET_NL_MIN_RAISE),
                   "preflop the big blind is the bet for the raise cap and the minimum raise"),
    EnforcedWithin(BET_MIN_SIZE, (BET_NL_MIN_BET, BET_NL_MIN_RAISE, BET_LIMIT_FIXED),
                   "a bet below the minimum, a raise below the last bet or raise, and a "
                   "fixed-limit wager of the wrong size are each flagged"),
    EnforcedWithin(BET_NL_SHORT_BB, (BET_NL_MIN_RAISE,),
                   "after a short big blind the minimum raise is still to twice the full blind"),
    EnforcedWithin(BLIND_OPTION, (DEAL_PREMATURE,),
                   "an unraised pot's big blind must act before the flop; his check ends the "
                   "round"),
    EnforcedWithin(BET_PL_CORRECT, (BET_PL_MAX,),
                   "an overbet that stands in the log was not cut to the pot"),
    EnforcedWithin(BET_NL_UNLIMITED, (BET_PL_MAX, HOUSE_TABLE_STAKES),
                   "big-bet rounds have no raise cap; only the pot (pot limit) and the "
                   "player's table stake limit a wager"),
    EnforcedWithin(DEAD_FOLD, (POT_FOLD_FORFEIT,),
                   "a folded hand is dead: any award to it is flagged"),
    EnforcedWithin(SHOW_CARDS_SPEAK, (POT_SPLIT_BY_CARDS,),
                   "awards are judged on the cards shown, never on what a player declared"),
    EnforcedWithin(EVAL_HIGH, (POT_SPLIT_BY_CARDS, POT_TIE_SPLIT),
                   "the award is compared with the winner by category and kickers"),
    EnforcedWithin(EVAL_SELECT, (POT_SPLIT_BY_CARDS,),
                   "hands are evaluated as the game selects them: best five of seven in "
                   "hold'em, exactly two hole and three board cards in Omaha"),
    EnforcedWithin(EVAL_LOW_8, (POT_SPLIT_BY_CARDS, POT_HILO_SPLIT),
                   "a low qualifies only with five different ranks of 8 or lower; without "
                   "one the high hand scoops"),
    EnforcedWithin(POT_CONSERVATION, (POT_SPLIT_BY_CARDS, POT_FOLD_FORFEIT),
                   "every seat's award is compared with what the pot owes it, so chips paid "
                   "beyond the pot are an overpayment to a named seat"),
    EnforcedWithin(POT_ODDCHIP_MAX1, (POT_ODDCHIP_BUTTON,),
                   "a split's odd chips go one each to the tied players from the button's "
                   "left"),
    EnforcedWithin(POT_SIDEPOT_SEPARATE, (POT_SIDEPOT_BUILD,),
                   "the main pot and each side pot are settled separately"),
    EnforcedWithin(STUD_COMPLETE, (BET_CAP_MULTIROUND, BET_LIMIT_FIXED,
                                     BET_LIMIT_STUD_STREETS),
                   "the completion counts as the bet, so a bet and the full raises follow it; "
                   "it goes to exactly a full bet"),
    EnforcedWithin(STUD_BOARD_BEATEN_CALL, (POT_SPLIT_BY_CARDS,),
                   "a call already beaten on board stays in the pot: refunding it is a wrong "
                   "award"),
    EnforcedWithin(JACKS_NO_REFUND, (POT_SPLIT_BY_CARDS,),
                   "a call of the opener that cannot beat openers stays in the pot"),
    EnforcedWithin(ORDER_LOWBALL, (ORDER_BUTTON_FIRST, ORDER_BUTTON_LATER,
                                     ORDER_HEADSUP, ORDER_KILL),
                   "the draw games without an opener keep the button games' order"),
    EnforcedWithin(DRAWHI_OPEN, (BET_LIMIT_FIXED, BET_CAP_TWOROUND),
                   "an opening is the minimum or two bets (the bet and a raise for the cap)"),
    EnforcedWithin(TOURN_HEADSUP_SB, (BLIND_HEADSUP,),
                   "heads-up the button posts the small blind, in tournaments too"),
    EnforcedWithin(TOURN_STUD_MISDEAL, (STUD_EXPOSED_START,),
                   "in a stud tournament a hole card dealt face up on the first street is a "
                   "misdeal, so playing the hand on is flagged"),
    EnforcedWithin(EVAL_LOW_A5, (POT_SPLIT_BY_CARDS,),
                   "razz and ace-to-five lowball awards are compared with the winner by the "
                   "ace-to-five order, the ace lowest and the joker the lowest missing rank"),
    EnforcedWithin(EVAL_LOW_27, (POT_SPLIT_BY_CARDS,),
                   "deuce-to-seven awards are compared with the winner with aces high and "
                   "straights and flushes against the hand"),
    EnforcedWithin(EVAL_JOKER_HIGH, (POT_SPLIT_BY_CARDS,),
                   "draw-high awards play the joker as an ace or to complete a straight or flush"),
    EnforcedWithin(EVAL_SUIT_ORDER, (STUD_BRINGIN_LOWCARD,),
                   "equal lowcards bring in by suit, clubs lowest"),
    EnforcedWithin(EVAL_BOARD, (ORDER_STUD_LATER,),
                   "the first to act after third street is the best board showing, pairs "
                   "before high cards"),
)

ENFORCED_WITHIN: dict[str, EnforcedWithin] = {e.rule_id: e for e in _ENTRIES}


@dataclass(frozen=True, slots=True)
class Permission:
    """A catalogued rule that permits play: the replay must never flag it.

    fixtures/rules/permitted/<ID>.txt proves it with legal hands that draw no finding and, where
    the permission bounds a ban (`bounds`), a nearby hand where the ban applies and is flagged.
    """

    rule_id: str
    bounds: tuple[str, ...]  # registered ids whose ban stops where this permission starts
    how: str  # why the replay never flags the permitted play


_PERMISSIONS = (
    Permission(BET_CHECKRAISE, (A5_CHECKRAISE,),
               "check-raising draws no finding; only fixed-limit ace-to-five lowball bans it"),
    Permission(DRAWHI_CHECKRAISE, (A5_CHECKRAISE,),
               "the check-raise ban is scoped to fixed-limit ace-to-five lowball, so draw high "
               "may check-raise before and after the draw"),
    Permission(D27_CHECKRAISE, (A5_CHECKRAISE, A5_SEVENS_RULE),
               "the check-raise ban and the sevens rule are scoped to fixed-limit ace-to-five "
               "lowball, so deuce-to-seven has neither"),
    Permission(BBLOW_NO_SEVENS, (A5_CHECKRAISE, A5_SEVENS_RULE),
               "the check-raise ban and the sevens rule are scoped to fixed limit, so big-bet "
               "lowball has neither"),
    Permission(STUD_ALLIN_HOLECARD_UP, (STUD_7TH_UP,),
               "an all-in player's last card dealt face up is no STUD-7TH-UP irregularity: he "
               "keeps it and the others get their normal card"),
    Permission(STUD_FOLD_NO_WAGER, (),
               "a hand folded with no wager pending may go on being dealt cards: its seat stays "
               "in the deal order and the replay takes those cards without a finding"),
    Permission(KILL_UNAWARE, (CHIP_RELEASE_BINDING,),
               "in a voluntary kill a call of the big blind put in and taken back draws no "
               "finding (he may not have known of the kill); in a required kill it binds only "
               "with the kill button face up, which no log records, so it draws a data-quality "
               "note (DQ-INCONSISTENT-LOG), not a violation; any other amount released binds"),
    Permission(PATTERN_SITOUT_OK, (),
               "no check flags a player who posts his blinds and antes and folds every hand"),
)

PERMISSIONS: dict[str, Permission] = {p.rule_id: p for p in _PERMISSIONS}

_DEALER = "needs dealer-entered irregularities (exposed, boxed or extra cards, redeals)"
_SEATING = "no hand log records seat arrivals, moves and waits"
_X = "cross-hand statistical pattern not built"
_TALK = "needs table-talk or chat records"
_PHYSICAL = "a physical action no action log records"

# Catalogued rules no check emits or decides, each with the one reason the report prints.
NOT_CHECKED: dict[str, str] = {
    # per hand (F/P), button games
    BET_PL_ROUND: "no profile rounds the pot limit yet (pl.round_unit)",
    BLIND_CHOP: "a chop is logged as an ordinary award; the agreement is not in the log",
    BLIND_DEAD_PART: "dead blind money is not marked apart from the live blind in logs",
    BLIND_SHORT_STRUCTURE: "check not built",
    BOARD_FLOP_BURN_ERR: _DEALER, BOARD_FLOP_REDEAL: _DEALER,
    BOARD_RIVER_PREMATURE: _DEALER, BOARD_TURN_PREMATURE: _DEALER, BURN_ERROR: _DEALER,
    BUTTON_START: "no log records the draw for the button",
    DEAD_CLOCK: "no log records the clock being called",
    DEAD_FORWARD_MUCK: _PHYSICAL, DEAD_MUCK_RETRIEVE: _PHYSICAL,
    DEAD_THROWN_INTO_HAND: _PHYSICAL,
    DEAL_BOXED_CARD: _DEALER, DEAL_EXPOSED_GENERAL: _DEALER, DEAL_EXTRA_CARD: _DEALER,
    DEAL_FOREIGN_BACK: _DEALER, DEAL_JOKER_STRAY: _DEALER, DEAL_MISSING_CARDS: _DEALER,
    DEAL_STUB_FOULED: _DEALER,
    DEAL_ORDER: "logs record who got which cards, not the order they came off the deck",
    DEAL_SHUFFLE_CUT: "no log records the shuffle and cut",
    DECK_SIZE: "the deck is not checked beyond duplicate cards (DEAL-DUPLICATE-CARD)",
    HOLDEM_EXPOSED_HOLECARD: _DEALER,
    **{f"MISDEAL-COND-{c}": _DEALER for c in "abcdefghij"},
    MISDEAL_CUTOFF: _DEALER,
    MISDEAL_DRAW_SHORT: "draw-high short deals not built (lowball's DRAW-SHORT-PREDRAW is)",
    POST_FOR_OTHER: "logs name the seat that posts, not whose money it is",
    POT_DEAL_TWICE: "the agreement is not logged; each board's award is judged by "
                      "POT-SPLIT-BY-CARDS",
    POT_ODDCHIP_UNIT: "the smallest chip in play is not in online logs",
    POT_SIDEPOT_ORDER: "logs give the awards, not the order the pots were pushed",
    SHOW_ALL_CARDS: "logs often omit unshown cards; such an award is DQ-UNVERIFIABLE-AWARD",
    SHOW_KILL_LOSERS: _PHYSICAL, SHOW_ONE_SHOW_ALL: _TALK,
    SHOW_ORDER: "logs give the shown hands, not the order they were tabled",
    SHOW_PLAY_BOARD: _TALK, SHOW_REQUEST: _TALK,
    TOURN_ABSENT: "no log marks a player absent from the table",
    TOURN_ALLIN_FACEUP: "logs record hands shown at showdown, not when they were turned up",
    TOURN_BUTTON_START: "no log records the draw for the button",
    TOURN_LEVEL_CHANGE: "needs the tournament's level clock",
    TOURN_NO_SHOW_DURING_DEAL: _PHYSICAL,
    TOURN_SHORT_BLIND: "check not built",
    STUD_UPCARDS_FOLD: _PHYSICAL, STUD_ABSENT: "no log marks a player absent from the table",
    DRAW_ASKED_COUNT: _TALK,
    TOURN_BUST_ORDER: "needs the tournament's finishing places",
    TOURN_CHIP_RACE: "no hand log records colour-ups",
    TOURN_HIDDEN_CHIPS: "needs the director's rulings",
    # meta and profile notes
    META_RULING_WINDOW: "concerns when a ruling may be requested; no log records requests",
    META_RECONSTRUCT: "the remedy for a wrong award; the award findings are its input",
    META_DEAL_START: "a definition: the replay takes each logged hand as one deal",
    META_TDA_DEFERRAL: "a profile note on which tournament rules apply",
    # across hands (S) and beyond one table (X)
    DEAL_DECK_CHANGE: "no hand log records deck changes",
    BUTTON_CORRECTION: "no hand log marks a button correction",
    BLIND_NEW_PLAYER: _SEATING, BLIND_NEW_PLAYER_WINDOW: _SEATING,
    BLIND_ALLIN_MAKEUP: _SEATING, BLIND_NEW_GAME: _SEATING, BLIND_SEAT_CHANGE: _SEATING,
    BLIND_DEAL_OFF: _SEATING, BLIND_LOWBALL_PASSED: _SEATING,
    BLIND_SINGLE_LOWBALL: "single-blind lowball across hands not built",
    ANTE_DRAW_ANYTIME: "forfeited money carried between draw deals is not logged",
    BET_NL_MAX_BUYIN: "buy-ins are not logged and no profile sets a maximum",
    JACKS_PASSED_OUT: "passed-out jacks deals across hands not built",
    JACKS_ALLIN_OPEN: "the ban after a false opening spans hands and is not built",
    KILL_GAME_TYPE: "no hand log records game lists or broken games",
    TOURN_DEAD_BUTTON: "tournament button across hands not built",
    TOURN_NEW_PLAYER: _SEATING, TOURN_BALANCE: "no hand log records table balancing",
    TOURN_SEAT_LOCK: "no hand log records seat draws or changes",
    TOURN_REBUY_DECLARED: _TALK,
    HOUSE_BUYIN_MIN: "buy-ins are not logged", HOUSE_RATHOLE: "cash-outs are not logged",
    HOUSE_AWAY: "no log records time away from the table",
    HOUSE_STAKES_CHANGE: "no log records objections to a stakes change",
    HOUSE_ONE_PLAYER_ONE_HAND: "needs account and device records",
    HOUSE_NO_PUSHING_BETS: _X, HOUSE_SEPARATED_PLAYERS: "needs the house's association list",
    PATTERN_DELIBERATE_OOT: _X, PATTERN_MULTI_ACCOUNT: "needs account and device records",
    PATTERN_BOT_RTA: "needs decision-time logs", PATTERN_STALLING: "needs decision-time logs",
    PATTERN_TABLE_TALK: _TALK, PATTERN_MISCALL: _TALK, PATTERN_FREEROLL: _X,
}

# RULEBOOK lines that only point at other ids ("see X", "X → Y"): the same rules, their status.
RULEBOOK_ALIASES: dict[str, tuple[str, ...]] = {
    "ANTE-JACKS-REANTE": (JACKS_PASSED_OUT,),
    "MISDEAL-STUD-TOURN": (TOURN_STUD_MISDEAL,),
    "POT-RECONSTRUCT": (META_RECONSTRUCT,),
    "TOURN-CAP-HEADSUP": (BET_CAP_TOURNAMENT,),
    "TOURN-NO-STRADDLE": (STRADDLE_TOURN,),
    # the heading of the misdeal conditions -a … -j, each catalogued on its own
    "MISDEAL-COND-*": tuple(f"MISDEAL-COND-{c}" for c in "abcdefghij"),
}


class Coverage(StrEnum):
    """How the report accounts for a RULEBOOK id."""

    CHECKED = "checked"  # a registered check emits it
    WITHIN = "within"  # other registered ids' checks decide it (ENFORCED_WITHIN)
    PERMITTED = "permitted"  # a permission the replay honours (PERMISSIONS)
    NOT_CHECKED = "not_checked"  # catalogued, with the reason (NOT_CHECKED)
    ALIAS = "alias"  # a RULEBOOK cross-reference to other ids (RULEBOOK_ALIASES)


def coverages(rule_id: str) -> list[Coverage]:
    """Every status `rule_id` has; the tests require exactly one for each RULEBOOK id."""
    found = [(Coverage.CHECKED, rule_id in RULES and not RULES[rule_id].retired),
             (Coverage.WITHIN, rule_id in ENFORCED_WITHIN),
             (Coverage.PERMITTED, rule_id in PERMISSIONS),
             (Coverage.NOT_CHECKED, rule_id in NOT_CHECKED),
             (Coverage.ALIAS, rule_id in RULEBOOK_ALIASES)]
    return [c for c, has in found if has]
