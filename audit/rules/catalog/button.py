"""The button-game ids the per-hand replay (audit/replay) can emit, and their registration.

Covers hold'em, Omaha (4 and 5 cards) and Omaha high-low 8 or better, at fixed, pot and no limit,
cash and tournament: the rules of the modules deal, blinds, betting, showdown, tournament,
evaluation and own (RULEBOOK §4.2–§4.10, §4.14, §4.15, §5). Only rules checkable from one hand's
event log (levels F and P) are there; BUTTON_GAME_RULE_IDS is all of them, REPLAY_RULE_IDS the
ones some check can emit (registered here).
"""

from __future__ import annotations

from audit.rules.catalog.base import CATALOG, register_catalogued

BUTTON_GAME_RULE_IDS: tuple[str, ...] = tuple(CATALOG)

# The ids the button-game replay (audit/replay) can emit; each has a fixture under
# fixtures/rules/<ID>.txt. Registering a rule means some check can emit it.
REPLAY_RULE_IDS: tuple[str, ...] = (
    # action order and out-of-turn actions
    "ORDER-BUTTON-FIRST", "ORDER-BUTTON-LATER", "ORDER-HEADSUP",
    "TURN-OOT-CHECK", "TURN-OOT-CALL", "TURN-OOT-BINDING",
    # big-bet sizing
    "BET-NL-MIN-BET", "BET-NL-MIN-RAISE", "BET-NL-NO-REOPEN", "BET-NL-NO-COMPLETE",
    "BET-NL-SUBMIN-ALLIN", "BET-PL-MAX", "BET-PL-SB-AS-BB",
    # fixed limit
    "BET-LIMIT-FIXED", "BET-LIMIT-HOLDEM-STREETS", "BET-CAP-MULTIROUND", "BET-CAP-NO-UNCAP",
    "BET-CAP-TOURNAMENT", "BET-ALLIN-HALFBET",
    # chips
    "CHIP-SHORT-CALL", "HOUSE-TABLE-STAKES",
    # forced bets
    "BLIND-POSITIONS", "BLIND-HEADSUP", "STRADDLE-BIGBET", "STRADDLE-LIMIT", "STRADDLE-TOURN",
    "BLIND-MISSED", "ANTE-AMOUNT",
    # dealing
    "DEAL-DUPLICATE-CARD", "DEAL-PREMATURE", "BOARD-FLOP-EXTRA", "BURN-EACH-ROUND",
    "DEAD-CARD-COUNT",
    # pots and awards
    "POT-SPLIT-BY-CARDS", "POT-FOLD-FORFEIT", "POT-SIDEPOT-BUILD", "POT-TIE-SPLIT",
    "POT-ODDCHIP-BUTTON", "POT-ODDCHIP-HILO", "POT-HILO-SPLIT", "HOUSE-RAKE",
    # data quality
    "DQ-INCONSISTENT-LOG", "DQ-UNVERIFIABLE-AWARD",
)

register_catalogued(REPLAY_RULE_IDS)
