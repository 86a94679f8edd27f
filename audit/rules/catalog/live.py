"""The catalogue, live tables (RULEBOOK §4.10): the physical layer (declarations, chips)
audit/replay/live/ rules on, and its ids (registered here).
"""

from __future__ import annotations

from audit.rules.catalog.base import PROCEDURE, WARNING, register_catalogued, rule

# --- §4.10 Live tables: the physical layer (declare, chips) ---------------------------------------
rule(
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
    "VERBAL-BINDING", "VERBAL-BIGBET-DISCREPANCY",
    "CHIP-RELEASE-BINDING", "CHIP-GROSS-MISUNDERSTANDING", "CHIP-SINGLE-OVERSIZE-CALL",
    "CHIP-SINGLE-CHIP-BET", "CHIP-FULL-PLUS-HALF", "CHIP-FORWARD-MOTION",
    "STRING-RAISE", "STRING-BIGBET-MULTIMOVE", "TURN-RIGHT-TO-ACT", "BET-NL-UNDERMIN-FIX",
    "CHIP-RAP",
    # chips that play and wagers brought up to size: only a live table's log shows them (the
    # stated words, the chip denominations); online rooms take any amount in minor units
    "BET-UNDERSIZE-FIX", "CHIP-MIN-UNIT", "BET-NL-DENOM",
    # draw games: the number of cards a player said he draws ("pat", "draw two")
    "DRAW-CHANGE-COUNT",
)

register_catalogued(LIVE_RULE_IDS)
