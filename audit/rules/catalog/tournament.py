"""The catalogue, button games (RULEBOOK §4.15–§4.16): tournament-only rules (the
TOURNAMENT overlay) and the per-hand house rules the profiles' rake parameters cite.
"""

from __future__ import annotations

from audit.rules.catalog.base import ILLEGAL_BET, PROCEDURE, VIOLATION, WARNING, WRONG_AWARD, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "TOURN_BUTTON_START", "TOURN_HEADSUP_SB", "TOURN_SHORT_BLIND", "TOURN_ABSENT",
    "TOURN_ALLIN_FACEUP", "TOURN_NO_SHOW_DURING_DEAL", "TOURN_LEVEL_CHANGE", "HOUSE_TABLE_STAKES",
    "HOUSE_RAKE",
]

# --- §4.15 Tournament-only rules (TOURNAMENT overlay) --------------------------------------------

TOURN_BUTTON_START = rule(
    "TOURN-BUTTON-START", PROCEDURE, WARNING,
    '002 §15.0 "dealing for the high card"; 001 3.3.2.22',
    "A tournament's starting button is decided by dealing for the high card, suits breaking ties.",
)
TOURN_HEADSUP_SB = rule(
    "TOURN-HEADSUP-SB", PROCEDURE, WARNING,
    "002 §15.0; 001 3.3.2.25",
    "In tournament play heads-up with two blinds, the small blind is on the button.",
)
TOURN_SHORT_BLIND = rule(
    "TOURN-SHORT-BLIND", PROCEDURE, WARNING,
    '002 §15.0 "lacks sufficient chips"; 001 3.3.2.17',
    "A tournament player short of a full blind plays for what he has (side pots form) and does "
    "not make up the short blind if he wins.",
)
TOURN_ABSENT = rule(
    "TOURN-ABSENT", PROCEDURE, WARNING,
    '002 §15.0 "always dealt", "not present", §16.0 #10; 001 3.3.2.4, 3.3.2.10, 3.3.2.12, '
    "App II #10; 000 §7 r.8",
    "Absent tournament players are dealt in and their blinds posted; a player not at the table "
    "when his turn comes has a dead hand.",
)
TOURN_ALLIN_FACEUP = rule(
    "TOURN-ALLIN-FACEUP", PROCEDURE, WARNING,
    '002 §15.0 "turned faceup"; 001 3.3.2.28',
    "In a tournament, once a player is all-in and the betting is complete, every hand is turned "
    "face up.",
)
TOURN_NO_SHOW_DURING_DEAL = rule(
    "TOURN-NO-SHOW-DURING-DEAL", PROCEDURE, WARNING,
    '002 §15.0 "may not show any cards"; 001 3.3.2.19',
    "No tournament player may show cards during a deal unless only two players remain in the "
    "event.",
)
TOURN_LEVEL_CHANGE = rule(
    "TOURN-LEVEL-CHANGE", PROCEDURE, WARNING,
    '002 §15.0 "new limits apply"; 001 3.3.2.7–8; 004 HE/Betting, HE/Blinds',
    "New tournament limits and blinds take effect on the next deal after the level signal, "
    "never in the middle of a hand.",
)

# --- §4.16 per-hand house rules (F level; the profiles' rake.* params need a rule to cite) -------

HOUSE_TABLE_STAKES = rule(
    "HOUSE-TABLE-STAKES", ILLEGAL_BET, VIOLATION,
    "003 (2)Procedures r.4, (3)Buy-In r.3; 001 App III §3 r.5–6, 3.1.3.2, §2.2 TABLE STAKES; "
    "000 §2 Buy-In r.2, Gl. TABLE STAKES, PLAY BEHIND",
    "Only the chips in front of a player when the deal starts play in that hand; a stack that "
    "grows mid-hand, or a wager larger than the stack, breaks table stakes.",
)
HOUSE_RAKE = rule(
    "HOUSE-RAKE", WRONG_AWARD, VIOLATION,
    "000 §2 B&R r.1, §3 intro, Gl. COLLECTION, COLLECTION DROP, DEAD COLLECTION BLIND, "
    "TIME COLLECTION; 001 3.1.7.7, 3.5.2.2, App III §3 r.2, §2.2 COLLECTION…; 003 Intro",
    "Rake must follow the house's posted percentage and cap (profile: rake.percent, rake.cap); "
    "private games may take no rake at all (profile: rake.allowed).",
)
