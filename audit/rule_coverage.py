"""Catalogued rules that no check emits under their own id because another rule's check already
decides them.

RULEBOOK.md states some rules twice over: a counting convention (the big blind is the bet),
a permission with a limit (raising is unlimited heads-up, unless the pot was capped first), or
the ranking behind an award (Omaha uses exactly two hole cards). Breaking such a rule always
shows up as the enforcing rule's finding: a capped raise, a short raise, a wrong award. So
these ids are checked, and the report says by which ids, instead of listing them as not
checked. fixtures/rules/within/<ID>.txt proves each claim with a hand that breaks the rule
(the enforcing id's finding expected) and a nearby legal hand (no finding);
tests/test_rule_coverage.py replays them.
"""

from __future__ import annotations

from dataclasses import dataclass


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
)

ENFORCED_WITHIN: dict[str, EnforcedWithin] = {e.rule_id: e for e in _ENTRIES}
