"""The catalogue, live tables (RULEBOOK §4.10): the physical layer (declarations, chips)
audit/replay/live/ rules on, and its ids (registered here).
"""

from __future__ import annotations

from audit.rules.catalog.base import PROCEDURE, WARNING, register_catalogued, rule
from audit.rules.catalog.betting import (
    BET_NL_DENOM,
    BET_NL_UNDERMIN_FIX,
    BET_UNDERSIZE_FIX,
    CHIP_FORWARD_MOTION,
    CHIP_FULL_PLUS_HALF,
    CHIP_GROSS_MISUNDERSTANDING,
    CHIP_MIN_UNIT,
    CHIP_RAP,
    CHIP_RELEASE_BINDING,
    CHIP_SINGLE_CHIP_BET,
    CHIP_SINGLE_OVERSIZE_CALL,
    STRING_BIGBET_MULTIMOVE,
    STRING_RAISE,
    TURN_RIGHT_TO_ACT,
    VERBAL_BIGBET_DISCREPANCY,
    VERBAL_BINDING,
)

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "DRAW_CHANGE_COUNT",
]

# --- §4.10 Live tables: the physical layer (declare, chips) ---------------------------------------
DRAW_CHANGE_COUNT = rule(
    "DRAW-CHANGE-COUNT", PROCEDURE, WARNING,
    '000 §10 r.11, §11 r.7; 001 3.2.8.5.1.12, 3.2.10.5.6; 002 §11.1 "change the number", '
    '§12.1 "change the number"',
    "A player may change how many cards he draws only if no card has been dealt for his "
    "request and no player has acted (bet or stated a draw) on the basis of it.",
)
# Checked by audit/replay/live/tracker.py only in hands that carry `declare` or `chips`
# events, so online logs never get them. TURN-OOT-* and CHIP-SHORT-CALL are registered with the
# button-game replay (button.py); the live layer also rules on out-of-turn declarations under
# those ids.
LIVE_RULE_IDS: tuple[str, ...] = (
    VERBAL_BINDING, VERBAL_BIGBET_DISCREPANCY,
    CHIP_RELEASE_BINDING, CHIP_GROSS_MISUNDERSTANDING, CHIP_SINGLE_OVERSIZE_CALL,
    CHIP_SINGLE_CHIP_BET, CHIP_FULL_PLUS_HALF, CHIP_FORWARD_MOTION,
    STRING_RAISE, STRING_BIGBET_MULTIMOVE, TURN_RIGHT_TO_ACT, BET_NL_UNDERMIN_FIX,
    CHIP_RAP,
    # chips that play and wagers brought up to size: only a live table's log shows them (the
    # stated words, the chip denominations); online rooms take any amount in minor units
    BET_UNDERSIZE_FIX, CHIP_MIN_UNIT, BET_NL_DENOM,
    # draw games: the number of cards a player said he draws ("pat", "draw two")
    DRAW_CHANGE_COUNT,
)

register_catalogued(LIVE_RULE_IDS)
