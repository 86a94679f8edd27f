"""The rules the auditor does NOT check yet, named one by one.

They are catalogued from RULEBOOK.md (id, category, citation) so a later check can cite them,
but no check emits them, so they are not registered, and the report's methodology lists each
as not checked. Implementing one means moving it out of this list, registering it, and adding
its fixture file under fixtures/rules/ (test_rules_fixtures.py then requires both hands), or,
when other ids' checks already decide it, naming them in audit/rule_coverage.py with a proof
under fixtures/rules/within/ (tests/test_rule_coverage.py).
"""

from __future__ import annotations

import pytest

from audit.report.methodology import unchecked_rules
from audit.rule_catalog import CATALOG
from audit.rules import RULES

NOT_CHECKED = (
    "BET-PL-ROUND", "BLIND-CHOP",
    "BLIND-DEAD-PART", "BLIND-SHORT-STRUCTURE", "BOARD-FLOP-BURN-ERR", "BOARD-FLOP-REDEAL",
    "BOARD-RIVER-PREMATURE", "BOARD-TURN-PREMATURE", "BURN-ERROR", "BUTTON-START",
    "DEAD-CLOCK", "DEAD-FORWARD-MUCK", "DEAD-MUCK-RETRIEVE", "DEAD-THROWN-INTO-HAND",
    "DEAL-BOXED-CARD", "DEAL-EXPOSED-GENERAL", "DEAL-EXTRA-CARD", "DEAL-FOREIGN-BACK",
    "DEAL-JOKER-STRAY", "DEAL-MISSING-CARDS", "DEAL-ORDER", "DEAL-SHUFFLE-CUT", "DEAL-STUB-FOULED",
    "DECK-SIZE", "HOLDEM-EXPOSED-HOLECARD", "MISDEAL-COND-a", "MISDEAL-COND-b", "MISDEAL-COND-c",
    "MISDEAL-COND-d", "MISDEAL-COND-e", "MISDEAL-COND-f", "MISDEAL-COND-g", "MISDEAL-COND-h",
    "MISDEAL-COND-i", "MISDEAL-COND-j", "MISDEAL-CUTOFF", "POST-FOR-OTHER", "POT-DEAL-TWICE",
    "POT-ODDCHIP-UNIT", "POT-SIDEPOT-ORDER", "SHOW-ALL-CARDS",
    "SHOW-KILL-LOSERS", "SHOW-ONE-SHOW-ALL", "SHOW-ORDER", "SHOW-PLAY-BOARD", "SHOW-REQUEST",
    "TOURN-ABSENT", "TOURN-ALLIN-FACEUP", "TOURN-BUTTON-START", "TOURN-LEVEL-CHANGE",
    "TOURN-NO-SHOW-DURING-DEAL", "TOURN-SHORT-BLIND",
)


def test_the_unchecked_rules_are_exactly_these():
    assert sorted(r.id for r in unchecked_rules()) == sorted(NOT_CHECKED)


@pytest.mark.parametrize("rule_id", NOT_CHECKED)
def test_an_unchecked_rule_is_catalogued_but_never_registered(rule_id):
    assert rule_id in CATALOG and CATALOG[rule_id].citation.strip()
    assert rule_id not in RULES, f"{rule_id} is registered: remove it from NOT_CHECKED"
