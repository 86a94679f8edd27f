"""The catalogue, button games (RULEBOOK §4.6–§4.7): the button, blinds and other forced
bets, and the order of action.
"""

from __future__ import annotations

from audit.rules.catalog.base import ILLEGAL_BET, PROCEDURE, VIOLATION, WARNING, WRONG_AWARD, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "BUTTON_START", "BLIND_POSITIONS", "BLIND_HEADSUP", "BLIND_BB_IS_BET", "BLIND_OPTION",
    "BLIND_DEAD_PART", "BLIND_SHORT_STRUCTURE", "BLIND_MISSED", "BLIND_MISSED_UNPOSTED",
    "BLIND_CHOP", "POST_FOR_OTHER", "ORDER_BUTTON_FIRST", "ORDER_BUTTON_LATER", "ORDER_HEADSUP",
]

# --- §4.6 Button, blinds, forced bets ------------------------------------------------------------

BUTTON_START = rule(
    "BUTTON-START", PROCEDURE, WARNING,
    '003 (2)Seating r.1; 001 App III §4 r.6, 3.3.2.22; 000 §2 Ties r.2; '
    '002 §15.0 "dealing for the high card"',
    "In a new game the button goes to the highest card drawn, ties broken by suit.",
)
BLIND_POSITIONS = rule(
    "BLIND-POSITIONS", PROCEDURE, WARNING,
    "000 §3 intro; 001 3.5.1; 004 HE/Blinds",
    "The small blind is posted by the first player clockwise from the button and the big blind by "
    "the second, before anyone sees a card.",
)
BLIND_HEADSUP = rule(
    "BLIND-HEADSUP", PROCEDURE, WARNING,
    '000 §3 r.3; 001 3.5.2 (printed "3.4.2.3"), 3.3.2.25; 002 §15.0 "heads-up play"',
    "Heads-up with two blinds, the small blind is on the button (profile: blinds.headsup).",
)
BLIND_BB_IS_BET = rule(
    "BLIND-BB-IS-BET", ILLEGAL_BET, VIOLATION,
    "000 §3 r.8; 001 3.5.2.8; 004 HE/Blinds",
    "The big blind is the opening bet of the first round: matching it is a call and increasing "
    "it is a raise, for caps and minimum raises.",
)
BLIND_OPTION = rule(
    "BLIND-OPTION", PROCEDURE, WARNING,
    "000 §3 r.9, Gl. LIVE BLIND, OPTION; 001 3.5.2.2, 3.5.2.8, §2.2 LIVE BLIND; 004 HE/Blinds",
    "A live blind may raise at his first turn if nobody has raised, and the big blind may check "
    "an unraised pot; a dead blind has no option.",
)
BLIND_DEAD_PART = rule(
    "BLIND-DEAD-PART", PROCEDURE, WARNING,
    "000 §3 intro, Gl. DEAD MONEY, DEAD COLLECTION BLIND; 001 3.5.1, §2.2 DEAD COLLECTION BLIND",
    "Dead blind money goes to the middle and does not count toward the poster's call.",
)
BLIND_SHORT_STRUCTURE = rule(
    "BLIND-SHORT-STRUCTURE", ILLEGAL_BET, VIOLATION,
    "000 §3 r.1, §13 NL r.2",
    "A blind posted short for lack of chips does not lower the minimum bring-in or the raise "
    "sizes for anyone else.",
)
BLIND_MISSED = rule(
    "BLIND-MISSED", PROCEDURE, WARNING,
    "000 §3 r.10, Gl. MISSED BLIND; 001 3.5.2.9",
    "A player making up missed blinds posts them all: the part up to the minimum opening bet is "
    "live, the rest is dead, and he keeps the option to raise.",
)
BLIND_MISSED_UNPOSTED = rule(
    "BLIND-MISSED-UNPOSTED", PROCEDURE, WARNING,
    "000 §3 r.11; 001 3.5.2.10",
    "A player who owes a missed blind, is dealt in without posting and looks at his cards before "
    "posting or acting has a dead hand; if he acts and puts chips in before the error is found, "
    "the hand is live and he must post on the next deal.",
)
BLIND_CHOP = rule(
    "BLIND-CHOP", WRONG_AWARD, VIOLATION,
    "003 (2)Procedures r.13; 001 App III §3 r.14; 000 Gl. SPLITTING BLINDS; "
    "001 §2.2 SPLITTING BLINDS",
    "When everyone folds to the blinds, they may take their blinds back in non-tournament button "
    "games only (profile: blinds.chop_allowed); no other pot is split by agreement.",
)
POST_FOR_OTHER = rule(
    "POST-FOR-OTHER", PROCEDURE, WARNING,
    "003 (2)Procedures r.12; 001 App III §3 r.13",
    "Nobody may post an ante or blind for another player.",
)

# --- §4.7 Action order ---------------------------------------------------------------------------

ORDER_BUTTON_FIRST = rule(
    "ORDER-BUTTON-FIRST", PROCEDURE, WARNING,
    '000 §3 intro; 001 3.5.1; 004 HE/Blinds; 000 §13 NL r.15; 001 3.4.2.12; 002 §14.1 "straddle"',
    "Before the flop, action starts left of the big blind (or of the straddle, who then acts "
    "last) and goes clockwise to the small blind and then the big blind.",
)
ORDER_BUTTON_LATER = rule(
    "ORDER-BUTTON-LATER", PROCEDURE, WARNING,
    "000 §3 intro; 001 3.5.1; 004 HE/Blinds",
    "After the flop, the first active player left of the button acts first and the button acts "
    "last.",
)
ORDER_HEADSUP = rule(
    "ORDER-HEADSUP", PROCEDURE, WARNING,
    # RULEBOOK marks this derived (no citation of its own); these are the sources of the two
    # rules it is derived from, BLIND-HEADSUP and ORDER-BUTTON-FIRST/-LATER.
    '(derived) 000 §3 r.3, §3 intro; 001 3.5.2 (printed "3.4.2.3"), 3.3.2.25, 3.5.1; '
    '002 §15.0 "heads-up play"',
    "Heads-up, the small blind on the button acts first before the flop and the big blind acts "
    "first on every later round.",
)
