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
from audit.rules.registry import RULES

# by the ids RULEBOOK.md prints (a renamed or re-numbered id fails here, not silently)
NOT_CHECKED = (
    "ANTE-DRAW-ANYTIME", "BET-NL-MAX-BUYIN", "BET-PL-ROUND", "BLIND-ALLIN-MAKEUP", "BLIND-CHOP",
    "BLIND-DEAD-PART", "BLIND-DEAL-OFF", "BLIND-LOWBALL-PASSED", "BLIND-NEW-GAME",
    "BLIND-NEW-PLAYER", "BLIND-NEW-PLAYER-WINDOW", "BLIND-SEAT-CHANGE", "BLIND-SHORT-STRUCTURE",
    "BLIND-SINGLE-LOWBALL", "BOARD-FLOP-BURN-ERR", "BOARD-FLOP-REDEAL", "BOARD-RIVER-PREMATURE",
    "BOARD-TURN-PREMATURE", "BURN-ERROR", "BUTTON-CORRECTION", "BUTTON-START", "DEAD-CLOCK",
    "DEAD-FORWARD-MUCK", "DEAD-MUCK-RETRIEVE", "DEAD-THROWN-INTO-HAND", "DEAL-BOXED-CARD",
    "DEAL-DECK-CHANGE", "DEAL-EXPOSED-GENERAL", "DEAL-EXTRA-CARD", "DEAL-FOREIGN-BACK",
    "DEAL-JOKER-STRAY", "DEAL-MISSING-CARDS", "DEAL-ORDER", "DEAL-SHUFFLE-CUT", "DEAL-STUB-FOULED",
    "DECK-SIZE", "DRAW-ASKED-COUNT", "HOLDEM-EXPOSED-HOLECARD", "HOUSE-AWAY", "HOUSE-BUYIN-MIN",
    "HOUSE-NO-PUSHING-BETS", "HOUSE-ONE-PLAYER-ONE-HAND", "HOUSE-RATHOLE",
    "HOUSE-SEPARATED-PLAYERS", "HOUSE-STAKES-CHANGE", "JACKS-ALLIN-OPEN", "JACKS-PASSED-OUT",
    "KILL-GAME-TYPE", "META-DEAL-START", "META-RECONSTRUCT", "META-RULING-WINDOW",
    "META-TDA-DEFERRAL", "MISDEAL-COND-a", "MISDEAL-COND-b", "MISDEAL-COND-c", "MISDEAL-COND-d",
    "MISDEAL-COND-e", "MISDEAL-COND-f", "MISDEAL-COND-g", "MISDEAL-COND-h", "MISDEAL-COND-i",
    "MISDEAL-COND-j", "MISDEAL-CUTOFF", "MISDEAL-DRAW-SHORT", "PATTERN-BOT-RTA",
    "PATTERN-DELIBERATE-OOT", "PATTERN-FREEROLL", "PATTERN-MISCALL", "PATTERN-MULTI-ACCOUNT",
    "PATTERN-STALLING", "PATTERN-TABLE-TALK", "POST-FOR-OTHER", "POT-DEAL-TWICE",
    "POT-ODDCHIP-UNIT", "POT-SIDEPOT-ORDER", "SHOW-ALL-CARDS", "SHOW-KILL-LOSERS",
    "SHOW-ONE-SHOW-ALL", "SHOW-ORDER", "SHOW-PLAY-BOARD", "SHOW-REQUEST", "STUD-ABSENT",
    "STUD-UPCARDS-FOLD", "TOURN-ABSENT", "TOURN-ALLIN-FACEUP", "TOURN-BALANCE", "TOURN-BUST-ORDER",
    "TOURN-BUTTON-START", "TOURN-CHIP-RACE", "TOURN-DEAD-BUTTON", "TOURN-HIDDEN-CHIPS",
    "TOURN-LEVEL-CHANGE", "TOURN-NEW-PLAYER", "TOURN-NO-SHOW-DURING-DEAL", "TOURN-REBUY-DECLARED",
    "TOURN-SEAT-LOCK", "TOURN-SHORT-BLIND",
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
