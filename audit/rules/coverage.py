"""How the report accounts for every RULEBOOK.md id no check emits under its own name.

Each RULEBOOK id has exactly one status (`coverages`, tests/test_rule_catalog.py): checked (a
registered id), decided within other ids, a permission the replay honours, not checked (with the
reason the report prints), or a cross-reference line that only points at other ids.

Decided within: RULEBOOK.md states some rules twice over: a counting convention (the big blind
is the bet), a permission with a limit (raising is unlimited heads-up, unless the pot was capped
first), or the ranking behind an award (Omaha uses exactly two hole cards). Breaking such a rule
always shows up as the enforcing rule's finding: a capped raise, a short raise, a wrong award.
So these ids are checked, and the report says by which ids, instead of listing them as not
checked. fixtures/rules/within/<ID>.txt proves each claim with a hand that breaks the rule
(the enforcing id's finding expected) and a nearby legal hand (no finding);
tests/test_rule_coverage.py replays them.

Permissions (check-raise outside limit ace-to-five lowball, an all-in player's seventh card
dealt up) are never flagged; fixtures/rules/permitted/<ID>.txt proves it with legal hands and,
where the permission bounds a ban, a nearby hand that the ban flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from audit.rules.registry import RULES


@dataclass(frozen=True, slots=True)
class EnforcedWithin:
    """A catalogued rule id decided by the checks of other, registered ids."""

    rule_id: str
    enforced_by: tuple[str, ...]
    how: str  # what the enforcing checks do that makes the rule hold


_ENTRIES = (
    EnforcedWithin("BET-CAP-HEADSUP", ("BET-CAP-MULTIROUND", "BET-CAP-NO-UNCAP"),
                   "the cap binds only while three or more players with chips contest the "
                   "pot; a pot capped before it became heads-up stays capped"),
    EnforcedWithin("BET-CAP-COUNT", ("BET-CAP-MULTIROUND",),
                   "the cap counts the big blind as the bet, an all-in of half a bet or more "
                   "as a raise and a smaller all-in as none"),
    EnforcedWithin("BET-ALLIN-AGGREGATE", ("BET-NL-NO-REOPEN",),
                   "short all-ins reopen the betting for a player who already acted only once "
                   "together they make a full raise (profile nl.reopen)"),
    EnforcedWithin("BLIND-BB-IS-BET", ("BET-CAP-MULTIROUND", "BET-NL-MIN-RAISE"),
                   "preflop the big blind is the bet for the raise cap and the minimum raise"),
    EnforcedWithin("BET-MIN-SIZE", ("BET-NL-MIN-BET", "BET-NL-MIN-RAISE", "BET-LIMIT-FIXED"),
                   "a bet below the minimum, a raise below the last bet or raise, and a "
                   "fixed-limit wager of the wrong size are each flagged"),
    EnforcedWithin("BET-NL-SHORT-BB", ("BET-NL-MIN-RAISE",),
                   "after a short big blind the minimum raise is still to twice the full blind"),
    EnforcedWithin("BLIND-OPTION", ("DEAL-PREMATURE",),
                   "an unraised pot's big blind must act before the flop; his check ends the "
                   "round"),
    EnforcedWithin("BET-PL-CORRECT", ("BET-PL-MAX",),
                   "an overbet that stands in the log was not cut to the pot"),
    EnforcedWithin("BET-NL-UNLIMITED", ("BET-PL-MAX", "HOUSE-TABLE-STAKES"),
                   "big-bet rounds have no raise cap; only the pot (pot limit) and the "
                   "player's table stake limit a wager"),
    EnforcedWithin("DEAD-FOLD", ("POT-FOLD-FORFEIT",),
                   "a folded hand is dead: any award to it is flagged"),
    EnforcedWithin("SHOW-CARDS-SPEAK", ("POT-SPLIT-BY-CARDS",),
                   "awards are judged on the cards shown, never on what a player declared"),
    EnforcedWithin("EVAL-HIGH", ("POT-SPLIT-BY-CARDS", "POT-TIE-SPLIT"),
                   "the award is compared with the winner by category and kickers"),
    EnforcedWithin("EVAL-SELECT", ("POT-SPLIT-BY-CARDS",),
                   "hands are evaluated as the game selects them: best five of seven in "
                   "hold'em, exactly two hole and three board cards in Omaha"),
    EnforcedWithin("EVAL-LOW-8", ("POT-SPLIT-BY-CARDS", "POT-HILO-SPLIT"),
                   "a low qualifies only with five different ranks of 8 or lower; without "
                   "one the high hand scoops"),
    EnforcedWithin("POT-CONSERVATION", ("POT-SPLIT-BY-CARDS", "POT-FOLD-FORFEIT"),
                   "every seat's award is compared with what the pot owes it, so chips paid "
                   "beyond the pot are an overpayment to a named seat"),
    EnforcedWithin("POT-ODDCHIP-MAX1", ("POT-ODDCHIP-BUTTON",),
                   "a split's odd chips go one each to the tied players from the button's "
                   "left"),
    EnforcedWithin("POT-SIDEPOT-SEPARATE", ("POT-SIDEPOT-BUILD",),
                   "the main pot and each side pot are settled separately"),
    EnforcedWithin("STUD-COMPLETE", ("BET-CAP-MULTIROUND", "BET-LIMIT-FIXED",
                                     "BET-LIMIT-STUD-STREETS"),
                   "the completion counts as the bet, so a bet and the full raises follow it; "
                   "it goes to exactly a full bet"),
    EnforcedWithin("STUD-BOARD-BEATEN-CALL", ("POT-SPLIT-BY-CARDS",),
                   "a call already beaten on board stays in the pot: refunding it is a wrong "
                   "award"),
    EnforcedWithin("JACKS-NO-REFUND", ("POT-SPLIT-BY-CARDS",),
                   "a call of the opener that cannot beat openers stays in the pot"),
    EnforcedWithin("ORDER-LOWBALL", ("ORDER-BUTTON-FIRST", "ORDER-BUTTON-LATER",
                                     "ORDER-HEADSUP", "ORDER-KILL"),
                   "the draw games without an opener keep the button games' order"),
    EnforcedWithin("DRAWHI-OPEN", ("BET-LIMIT-FIXED", "BET-CAP-TWOROUND"),
                   "an opening is the minimum or two bets (the bet and a raise for the cap)"),
    EnforcedWithin("TOURN-HEADSUP-SB", ("BLIND-HEADSUP",),
                   "heads-up the button posts the small blind, in tournaments too"),
    EnforcedWithin("TOURN-STUD-MISDEAL", ("STUD-EXPOSED-START",),
                   "in a stud tournament a hole card dealt face up on the first street is a "
                   "misdeal, so playing the hand on is flagged"),
    EnforcedWithin("EVAL-LOW-A5", ("POT-SPLIT-BY-CARDS",),
                   "razz and ace-to-five lowball awards are compared with the winner by the "
                   "ace-to-five order, the ace lowest and the joker the lowest missing rank"),
    EnforcedWithin("EVAL-LOW-27", ("POT-SPLIT-BY-CARDS",),
                   "deuce-to-seven awards are compared with the winner with aces high and "
                   "straights and flushes against the hand"),
    EnforcedWithin("EVAL-JOKER-HIGH", ("POT-SPLIT-BY-CARDS",),
                   "draw-high awards play the joker as an ace or to complete a straight or flush"),
    EnforcedWithin("EVAL-SUIT-ORDER", ("STUD-BRINGIN-LOWCARD",),
                   "equal lowcards bring in by suit, clubs lowest"),
    EnforcedWithin("EVAL-BOARD", ("ORDER-STUD-LATER",),
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
    Permission("BET-CHECKRAISE", ("A5-CHECKRAISE",),
               "check-raising draws no finding; only fixed-limit ace-to-five lowball bans it"),
    Permission("DRAWHI-CHECKRAISE", ("A5-CHECKRAISE",),
               "the check-raise ban is scoped to fixed-limit ace-to-five lowball, so draw high "
               "may check-raise before and after the draw"),
    Permission("D27-CHECKRAISE", ("A5-CHECKRAISE", "A5-SEVENS-RULE"),
               "the check-raise ban and the sevens rule are scoped to fixed-limit ace-to-five "
               "lowball, so deuce-to-seven has neither"),
    Permission("BBLOW-NO-SEVENS", ("A5-CHECKRAISE", "A5-SEVENS-RULE"),
               "the check-raise ban and the sevens rule are scoped to fixed limit, so big-bet "
               "lowball has neither"),
    Permission("STUD-ALLIN-HOLECARD-UP", ("STUD-7TH-UP",),
               "an all-in player's last card dealt face up is no STUD-7TH-UP irregularity: he "
               "keeps it and the others get their normal card"),
    Permission("STUD-FOLD-NO-WAGER", (),
               "a hand folded with no wager pending may go on being dealt cards: its seat stays "
               "in the deal order and the replay takes those cards without a finding"),
    Permission("KILL-UNAWARE", ("CHIP-RELEASE-BINDING",),
               "in a voluntary kill a call of the big blind put in and taken back draws no "
               "finding (he may not have known of the kill); in a required kill it binds only "
               "with the kill button face up, which no log records, so it draws a data-quality "
               "note (DQ-INCONSISTENT-LOG), not a violation; any other amount released binds"),
    Permission("PATTERN-SITOUT-OK", (),
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
    "BET-PL-ROUND": "no profile rounds the pot limit yet (pl.round_unit)",
    "BLIND-CHOP": "a chop is logged as an ordinary award; the agreement is not in the log",
    "BLIND-DEAD-PART": "dead blind money is not marked apart from the live blind in logs",
    "BLIND-SHORT-STRUCTURE": "check not built",
    "BOARD-FLOP-BURN-ERR": _DEALER, "BOARD-FLOP-REDEAL": _DEALER,
    "BOARD-RIVER-PREMATURE": _DEALER, "BOARD-TURN-PREMATURE": _DEALER, "BURN-ERROR": _DEALER,
    "BUTTON-START": "no log records the draw for the button",
    "DEAD-CLOCK": "no log records the clock being called",
    "DEAD-FORWARD-MUCK": _PHYSICAL, "DEAD-MUCK-RETRIEVE": _PHYSICAL,
    "DEAD-THROWN-INTO-HAND": _PHYSICAL,
    "DEAL-BOXED-CARD": _DEALER, "DEAL-EXPOSED-GENERAL": _DEALER, "DEAL-EXTRA-CARD": _DEALER,
    "DEAL-FOREIGN-BACK": _DEALER, "DEAL-JOKER-STRAY": _DEALER, "DEAL-MISSING-CARDS": _DEALER,
    "DEAL-STUB-FOULED": _DEALER,
    "DEAL-ORDER": "logs record who got which cards, not the order they came off the deck",
    "DEAL-SHUFFLE-CUT": "no log records the shuffle and cut",
    "DECK-SIZE": "the deck is not checked beyond duplicate cards (DEAL-DUPLICATE-CARD)",
    "HOLDEM-EXPOSED-HOLECARD": _DEALER,
    **{f"MISDEAL-COND-{c}": _DEALER for c in "abcdefghij"},
    "MISDEAL-CUTOFF": _DEALER,
    "MISDEAL-DRAW-SHORT": "draw-high short deals not built (lowball's DRAW-SHORT-PREDRAW is)",
    "POST-FOR-OTHER": "logs name the seat that posts, not whose money it is",
    "POT-DEAL-TWICE": "the agreement is not logged; each board's award is judged by "
                      "POT-SPLIT-BY-CARDS",
    "POT-ODDCHIP-UNIT": "the smallest chip in play is not in online logs",
    "POT-SIDEPOT-ORDER": "logs give the awards, not the order the pots were pushed",
    "SHOW-ALL-CARDS": "logs often omit unshown cards; such an award is DQ-UNVERIFIABLE-AWARD",
    "SHOW-KILL-LOSERS": _PHYSICAL, "SHOW-ONE-SHOW-ALL": _TALK,
    "SHOW-ORDER": "logs give the shown hands, not the order they were tabled",
    "SHOW-PLAY-BOARD": _TALK, "SHOW-REQUEST": _TALK,
    "TOURN-ABSENT": "no log marks a player absent from the table",
    "TOURN-ALLIN-FACEUP": "logs record hands shown at showdown, not when they were turned up",
    "TOURN-BUTTON-START": "no log records the draw for the button",
    "TOURN-LEVEL-CHANGE": "needs the tournament's level clock",
    "TOURN-NO-SHOW-DURING-DEAL": _PHYSICAL,
    "TOURN-SHORT-BLIND": "check not built",
    "STUD-UPCARDS-FOLD": _PHYSICAL, "STUD-ABSENT": "no log marks a player absent from the table",
    "DRAW-ASKED-COUNT": _TALK,
    "TOURN-BUST-ORDER": "needs the tournament's finishing places",
    "TOURN-CHIP-RACE": "no hand log records colour-ups",
    "TOURN-HIDDEN-CHIPS": "needs the director's rulings",
    # meta and profile notes
    "META-RULING-WINDOW": "concerns when a ruling may be requested; no log records requests",
    "META-RECONSTRUCT": "the remedy for a wrong award; the award findings are its input",
    "META-DEAL-START": "a definition: the replay takes each logged hand as one deal",
    "META-TDA-DEFERRAL": "a profile note on which tournament rules apply",
    # across hands (S) and beyond one table (X)
    "DEAL-DECK-CHANGE": "no hand log records deck changes",
    "BUTTON-CORRECTION": "no hand log marks a button correction",
    "BLIND-NEW-PLAYER": _SEATING, "BLIND-NEW-PLAYER-WINDOW": _SEATING,
    "BLIND-ALLIN-MAKEUP": _SEATING, "BLIND-NEW-GAME": _SEATING, "BLIND-SEAT-CHANGE": _SEATING,
    "BLIND-DEAL-OFF": _SEATING, "BLIND-LOWBALL-PASSED": _SEATING,
    "BLIND-SINGLE-LOWBALL": "single-blind lowball across hands not built",
    "ANTE-DRAW-ANYTIME": "forfeited money carried between draw deals is not logged",
    "BET-NL-MAX-BUYIN": "buy-ins are not logged and no profile sets a maximum",
    "JACKS-PASSED-OUT": "passed-out jacks deals across hands not built",
    "JACKS-ALLIN-OPEN": "the ban after a false opening spans hands and is not built",
    "KILL-GAME-TYPE": "no hand log records game lists or broken games",
    "TOURN-DEAD-BUTTON": "tournament button across hands not built",
    "TOURN-NEW-PLAYER": _SEATING, "TOURN-BALANCE": "no hand log records table balancing",
    "TOURN-SEAT-LOCK": "no hand log records seat draws or changes",
    "TOURN-REBUY-DECLARED": _TALK,
    "HOUSE-BUYIN-MIN": "buy-ins are not logged", "HOUSE-RATHOLE": "cash-outs are not logged",
    "HOUSE-AWAY": "no log records time away from the table",
    "HOUSE-STAKES-CHANGE": "no log records objections to a stakes change",
    "HOUSE-ONE-PLAYER-ONE-HAND": "needs account and device records",
    "HOUSE-NO-PUSHING-BETS": _X, "HOUSE-SEPARATED-PLAYERS": "needs the house's association list",
    "PATTERN-DELIBERATE-OOT": _X, "PATTERN-MULTI-ACCOUNT": "needs account and device records",
    "PATTERN-BOT-RTA": "needs decision-time logs", "PATTERN-STALLING": "needs decision-time logs",
    "PATTERN-TABLE-TALK": _TALK, "PATTERN-MISCALL": _TALK, "PATTERN-FREEROLL": _X,
}

# RULEBOOK lines that only point at other ids ("see X", "X → Y"): the same rules, their status.
RULEBOOK_ALIASES: dict[str, tuple[str, ...]] = {
    "ANTE-JACKS-REANTE": ("JACKS-PASSED-OUT",),
    "MISDEAL-STUD-TOURN": ("TOURN-STUD-MISDEAL",),
    "POT-RECONSTRUCT": ("META-RECONSTRUCT",),
    "TOURN-CAP-HEADSUP": ("BET-CAP-TOURNAMENT",),
    "TOURN-NO-STRADDLE": ("STRADDLE-TOURN",),
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
