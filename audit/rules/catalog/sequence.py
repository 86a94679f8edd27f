"""The catalogue, rules across hands (level S): one table's deals in order
(audit/sequence/table.py, RULEBOOK §4.6) and required kill pots (audit/sequence/kill.py,
RULEBOOK §4.13), registered here.
"""

from __future__ import annotations

from audit.rules.catalog.base import PROCEDURE, VIOLATION, WARNING, register_catalogued
from audit.rules.catalog.blinds import BLIND_MISSED_UNPOSTED
from audit.rules.registry import Severity, register

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "BUTTON_MOVE", "KILL_TRIGGER", "KILL_LEG2", "KILL_SCOOP_5X", "KILL_BUTTON_NEUTRAL",
    "KILL_SPLIT_LEG", "KILL_LEG_PERSIST", "KILL_MUST_POST", "KILL_NEW_PLAYER",
]

# --- §4.6 across hands: one table's deals in order (level S) -------------------------------------
# Checked by audit/sequence/table.py, a pure function over the hands of a table, not by the
# per-hand replay; session-level ids stay outside CATALOG (the F/P button-game catalogue). Their
# fixtures/rules/<ID>.txt hold one table's deals in order.
# Registered below, not catalogued:
BUTTON_MOVE = "BUTTON-MOVE"
KILL_TRIGGER = "KILL-TRIGGER"
KILL_LEG2 = "KILL-LEG2"
KILL_SCOOP_5X = "KILL-SCOOP-5X"
KILL_BUTTON_NEUTRAL = "KILL-BUTTON-NEUTRAL"
KILL_SPLIT_LEG = "KILL-SPLIT-LEG"
KILL_LEG_PERSIST = "KILL-LEG-PERSIST"
KILL_MUST_POST = "KILL-MUST-POST"
KILL_NEW_PLAYER = "KILL-NEW-PLAYER"

TABLE_SEQUENCE_RULE_IDS: tuple[str, ...] = (
    BUTTON_MOVE, BLIND_MISSED_UNPOSTED,
    # required kill pots (audit/sequence/kill.py), registered below
    KILL_TRIGGER, KILL_LEG2, KILL_SCOOP_5X, KILL_BUTTON_NEUTRAL, KILL_SPLIT_LEG,
    KILL_LEG_PERSIST, KILL_MUST_POST, KILL_NEW_PLAYER,
)

register_catalogued((BLIND_MISSED_UNPOSTED,))

register(
    BUTTON_MOVE, category=PROCEDURE, severity=WARNING,
    citation="000 §3 intro, §3 r.2, §14 #1; 001 3.5.1, 3.5.2.1, App II #1; 002 §16.0 #1; "
             "004 HE/Blinds",
    text="The button moves one seat clockwise after each deal (P17). Moving button: it always "
         "advances to the next player and the blinds adjust. Dead button: the big blind is "
         "posted by the player due for it and the small blind and button are placed to match, "
         "even in front of an empty seat. Each round every player gets one chance at the button.",
)

# --- §4.13 across hands: required kill pots (level S) ---------------------------------------------
# Checked by audit/sequence/kill.py along the same proven consecutive deals, in games the
# house designates as kill games (`kill.required`). KILL-GAME-TYPE (a kill game is another game
# type for broken-game status) concerns game lists and transfers, which no hand log records: it
# stays unchecked. KILL-UNAWARE is a per-hand (F/P) rule, not one of these.
_KILL_SEQUENCE_RULES: tuple[tuple[str, Severity, str, str], ...] = (
    (KILL_TRIGGER, VIOLATION, "000 §12 intro; 001 3.6.1; 002 §13.0",
     "Required kill. Non-split games: winning two pots in a row (the kill button marks the last "
     "winner and stays with him until the next hand ends). High-low games: scooping a pot above "
     "a set size. The next hand is then a kill pot."),
    (KILL_LEG2, WARNING, '000 §12 r.3; 001 3.6.2.3; 002 §13.1 "second \"leg\""',
     "The first leg has no pot-size requirement. The second leg qualifies only if the player won "
     "at least one full bet of the game's limit, not counting any part of the blind structure."),
    (KILL_SCOOP_5X, WARNING, '000 §12 r.8; 001 3.6.2.8; 002 §13.1 "five times"',
     "Split-pot games with a kill provision: a scoop forces a kill on the next hand only if the "
     "pot was at least 5x the game's upper limit."),
    (KILL_BUTTON_NEUTRAL, WARNING, '000 §12 r.1; 001 3.6.2.1; 002 §13.1 "neutral"',
     "The kill button belongs to no one on the first hand of a new game, when the last winner "
     "has left, or when the last pot was split between players who did not hold it."),
    (KILL_SPLIT_LEG, VIOLATION, '000 §12 r.4; 001 3.6.2.4; 002 §13.1 "splits the next pot"',
     "A player with a leg up who splits the next pot keeps the leg. If the splitter was the "
     "killer on the previous hand, he must kill again."),
    (KILL_LEG_PERSIST, VIOLATION, '000 §12 r.5; 001 3.6.2.5; 002 §13.1 "leaves the table"',
     "A leg survives leaving the table and returning."),
    (KILL_MUST_POST, VIOLATION,
     '000 §12 r.6–7; 001 3.6.2.6–7; 002 §13.1 "required to post", "kill it again"',
     "A required kill must be posted on that very hand, even by a player who wants to quit or "
     "be dealt out; until it is posted he may not play in any game. A killer who wins again "
     "kills again, for the same amount."),
    (KILL_NEW_PLAYER, WARNING, '000 §12 r.12; 001 3.6.2.12; 002 §13.1 "new player is not '
     'entitled"',
     "A new player may not play in a killed pot unless he agrees to kill the next pot."),
)

for _id, _severity, _citation, _text in _KILL_SEQUENCE_RULES:
    register(_id, category=PROCEDURE, severity=_severity, citation=_citation, text=_text)
