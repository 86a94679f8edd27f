"""The catalogue, conduct and collusion patterns (RULEBOOK §4.17): the leads
audit/collusion can emit (registered here).
"""

from __future__ import annotations

from audit.rules.catalog.base import COLLUSION, WARNING, register_catalogued, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "PATTERN_COLLUSION", "PATTERN_SOFTPLAY", "PATTERN_CHECKDOWN_ALLIN", "PATTERN_WHIPSAW",
    "PATTERN_CHIP_DUMP",
]

# --- §4.17 Conduct and collusion patterns (cross-hand, level X: leads with evidence) ------------
# Catalogued after BUTTON_GAME_RULE_IDS: these are not per-hand replay rules. audit/collusion
# emits them as `collusion` findings of severity warning (a lead, never a verdict).

PATTERN_COLLUSION = rule(
    "PATTERN-COLLUSION", COLLUSION, WARNING,
    "000 §1 Conduct Code; 001 1.3.1.2.1, 1.4; 003 (1)Conduct Code; 004 §1 Conduct Code, "
    "§2 Dupe Accounts",
    "Collusion and cheating are banned; signals are shared seating history, joint raising that "
    "traps third players, unusual folds to each other and profit flowing between the same "
    "accounts.",
)
PATTERN_SOFTPLAY = rule(
    "PATTERN-SOFTPLAY", COLLUSION, WARNING,
    "000 §1 Etiquette, Gl. SOFTPLAY; 004 §1 Etiquette",
    "Soft play, not betting good hands and not bluffing against one particular opponent when "
    "heads-up, is a form of collusion.",
)
PATTERN_CHECKDOWN_ALLIN = rule(
    "PATTERN-CHECKDOWN-ALLIN", COLLUSION, WARNING,
    "000 §1 Etiquette; 001 1.3.2.3; 003 (1)Etiquette; 004 §1 Etiquette",
    "Agreeing to check a hand down when a third player is all-in is improper.",
)
PATTERN_WHIPSAW = rule(
    "PATTERN-WHIPSAW", COLLUSION, WARNING,
    "000 §14 #6; 001 App II #6; 002 §16.0 #6",
    "Two players repeatedly re-raising each other while a third player is caught calling in "
    "between is the collusion that raise caps exist to limit.",
)
PATTERN_CHIP_DUMP = rule(
    "PATTERN-CHIP-DUMP", COLLUSION, WARNING,
    "004 §2 Dupe Accounts",
    "Chip dumping, deliberately losing chips to a partner, is banned.",
)

# The ids audit/collusion can emit (cross-hand leads and the per-hand check-down pattern).
COLLUSION_RULE_IDS: tuple[str, ...] = (
    PATTERN_COLLUSION, PATTERN_SOFTPLAY, PATTERN_CHECKDOWN_ALLIN, PATTERN_WHIPSAW,
    PATTERN_CHIP_DUMP,
)

register_catalogued(COLLUSION_RULE_IDS)
