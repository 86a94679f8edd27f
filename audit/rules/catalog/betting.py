"""The catalogue, button games (RULEBOOK §4.8–§4.10): fixed-limit betting and raising,
no limit, pot limit and straddles, chips, verbal declarations, string bets and out-of-turn
action.
"""

from __future__ import annotations

from audit.rules.catalog.base import ILLEGAL_BET, PROCEDURE, STRING_BET, VIOLATION, WARNING, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "BET_LIMIT_FIXED", "BET_LIMIT_HOLDEM_STREETS", "BET_MIN_SIZE", "BET_UNDERSIZE_FIX",
    "BET_CAP_MULTIROUND", "BET_CAP_HEADSUP", "BET_CAP_NO_UNCAP", "BET_CAP_TOURNAMENT",
    "BET_CAP_COUNT", "BET_ALLIN_HALFBET", "BET_ALLIN_AGGREGATE", "BET_NL_UNLIMITED",
    "BET_NL_MIN_BET", "BET_NL_MIN_RAISE", "BET_NL_SHORT_BB", "BET_NL_SUBMIN_ALLIN",
    "BET_NL_NO_REOPEN", "BET_NL_NO_COMPLETE", "BET_NL_UNDERMIN_FIX", "BET_NL_DENOM", "BET_PL_MAX",
    "BET_PL_CORRECT", "BET_PL_ROUND", "BET_PL_SB_AS_BB", "STRADDLE_BIGBET", "STRADDLE_LIMIT",
    "STRADDLE_TOURN", "VERBAL_BINDING", "VERBAL_BIGBET_DISCREPANCY", "CHIP_RELEASE_BINDING",
    "CHIP_SHORT_CALL", "CHIP_GROSS_MISUNDERSTANDING", "CHIP_SINGLE_OVERSIZE_CALL",
    "CHIP_SINGLE_CHIP_BET", "CHIP_FULL_PLUS_HALF", "STRING_RAISE", "STRING_BIGBET_MULTIMOVE",
    "CHIP_FORWARD_MOTION", "CHIP_MIN_UNIT", "CHIP_RAP", "TURN_OOT_CHECK", "TURN_OOT_CALL",
    "TURN_OOT_BINDING", "TURN_RIGHT_TO_ACT",
]

# --- §4.8 Fixed-limit betting and raising --------------------------------------------------------

BET_LIMIT_FIXED = rule(
    "BET-LIMIT-FIXED", ILLEGAL_BET, VIOLATION,
    "004 HE/Betting; 000 Gl. FIXED LIMIT; 001 §2.2 FIXED LIMIT",
    "At fixed limit every bet and raise is exactly the round's limit, unless the player is "
    "all-in for less.",
)
BET_LIMIT_HOLDEM_STREETS = rule(
    "BET-LIMIT-HOLDEM-STREETS", ILLEGAL_BET, VIOLATION,
    "004 HE/Betting, HE/Blinds; 000 §5 intro; 001 3.2.2.1",
    "Limit hold'em and Omaha bet the small bet (= big blind) before the flop and on the flop, "
    "and the big bet (= twice the big blind) on the turn and river.",
)
BET_MIN_SIZE = rule(
    "BET-MIN-SIZE", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.6; 001 3.1.7.6; 002 §14.1 "All raises must"; 000 Gl. CHECK-RAISE',
    "Any wager that is not all-in must be at least the size of the previous bet or raise on "
    "that round.",
)
BET_UNDERSIZE_FIX = rule(
    "BET-UNDERSIZE-FIX", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.16; 001 3.1.7.16",
    "A bet or call that is too small must be brought up to the proper size if noticed before the "
    "round ends; nobody who already acted may turn a call into a raise because of it.",
)
BET_CAP_MULTIROUND = rule(
    "BET-CAP-MULTIROUND", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.4(a); 001 3.1.7.3.1; 003 Intro; 004 HE/Betting",
    "Limit games with three or more betting rounds allow at most a bet and three raises per "
    "round while three or more players not all-in are in the pot (profile: cap.multi_round).",
)
BET_CAP_HEADSUP = rule(
    "BET-CAP-HEADSUP", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.5; 001 3.1.7.4; 004 HE/Betting; 001 3.2.5.5.1.2 ("except in head-to-head pots")',
    "Raising is unlimited heads-up, provided the pot became heads-up before the cap was reached "
    "(profile: cap.headsup).",
)
BET_CAP_NO_UNCAP = rule(
    "BET-CAP-NO-UNCAP", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.5; 001 3.1.7.4",
    "Once a round is capped, a later fold that leaves two players does not reopen the raising.",
)
BET_CAP_TOURNAMENT = rule(
    "BET-CAP-TOURNAMENT", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.5",
    "In limit tournaments the raise cap applies even heads-up until the event is down to two "
    "players (profile: cap.headsup_tournament).",
)
BET_CAP_COUNT = rule(
    "BET-CAP-COUNT", ILLEGAL_BET, VIOLATION,
    # RULEBOOK marks the counting conventions derived; these are the sources of the rules they
    # restate (BLIND-BB-IS-BET, BET-ALLIN-HALFBET, STRADDLE-BIGBET).
    "(derived) 000 §3 r.8, §2 B&R r.7, §13 NL r.15; 001 3.5.2.8, 3.1.7.5",
    "For the raise cap the big blind counts as the bet, an all-in of half a bet or more counts "
    "as a raise, a smaller all-in does not, and a straddle is not a raise.",
)
BET_ALLIN_HALFBET = rule(
    "BET-ALLIN-HALFBET", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.7; 001 3.1.7.5; 002 §14.1 "half-the-size"; 000 Gl. COMPLETE THE BET',
    "At limit, an all-in of less than half a bet does not reopen the betting for players who "
    "already acted; half a bet or more counts as a full bet or raise.",
)
BET_ALLIN_AGGREGATE = rule(
    "BET-ALLIN-AGGREGATE", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.7, §13 NL r.4; 001 3.4.2.3 (example); 002 §14.1 (example)",
    "Several all-ins each too small to be a raise reopen the betting for a player once together "
    "they amount to a legal raise (profile: allin.limit, nl.reopen).",
)

# --- §4.9 No-limit, pot-limit, straddles ---------------------------------------------------------

BET_NL_UNLIMITED = rule(
    "BET-NL-UNLIMITED", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.3, §13 intro, §13 NL r.1; 001 3.1.7.2, 3.4.1, 3.4.2.1; 002 §14.0, '
    '§14.1 "number of raises"',
    "No-limit and pot-limit allow any number of raises; the only other limits are table stakes "
    "and, at pot limit, the pot size.",
)
BET_NL_MIN_BET = rule(
    "BET-NL-MIN-BET", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.2; 001 3.4.2.2; 002 §14.1 "All bets must"; 004 HE/Betting',
    "Every big-bet wager must be at least the minimum bring-in (the big blind unless the house "
    "set another), the same on every round, unless the player is all-in (profile: nl.min_bet).",
)
BET_NL_MIN_RAISE = rule(
    "BET-NL-MIN-RAISE", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.3; 001 3.4.2.3; 002 §14.1 "All raises must"; 004 HE/Betting',
    "Every big-bet raise that is not all-in must be at least as large as the previous bet or "
    "raise on the round; the minimum goes back to the bring-in on the next round.",
)
BET_NL_SHORT_BB = rule(
    "BET-NL-SHORT-BB", ILLEGAL_BET, VIOLATION,
    "000 §13 NL r.2, §3 r.1",
    "If the big blind posted short, players entering preflop must still put in the full minimum "
    "bet and a preflop raise must be to at least twice the full big blind.",
)
BET_NL_SUBMIN_ALLIN = rule(
    "BET-NL-SUBMIN-ALLIN", ILLEGAL_BET, VIOLATION,
    "000 §13 NL r.2",
    "Facing an all-in smaller than the minimum bet, a player may call just that amount, but a "
    "raise must add at least the full minimum bet.",
)
BET_NL_NO_REOPEN = rule(
    "BET-NL-NO-REOPEN", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.3–4; 001 3.4.2.3; 002 §14.1 "All raises must"',
    "A player who already acted and then faces only an incomplete all-in raise may call or fold "
    "but may not re-raise.",
)
BET_NL_NO_COMPLETE = rule(
    "BET-NL-NO-COMPLETE", ILLEGAL_BET, VIOLATION,
    "000 §13 NL r.5",
    "Completing a short all-in to a full bet exists only at limit; in big-bet games it is a "
    "raise and must meet the minimum raise.",
)
BET_NL_UNDERMIN_FIX = rule(
    "BET-NL-UNDERMIN-FIX", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.11; 001 3.4.2.10; 002 §14.1 "less than the legal minimum"',
    "A big-bet wager below the legal minimum by a player with more chips must be brought up to "
    "the minimum, and no further.",
)
BET_NL_DENOM = rule(
    "BET-NL-DENOM", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.13; 001 3.4.2.11; 002 §14.1 "same denomination"',
    "Where the house requires it, big-bet wagers are made in chips of at least the minimum "
    "bring-in denomination; smaller chips play only in quantity.",
)
BET_PL_MAX = rule(
    "BET-PL-MAX", ILLEGAL_BET, VIOLATION,
    '000 §13 intro, PL intro; 001 3.4.3.4; 002 §14.2 "maximum amount"; 004 HE/Betting',
    "At pot limit the largest raise is the pot after the raiser's call: the maximum total is the "
    "current bet plus the whole pot including all bets and the call.",
)
BET_PL_CORRECT = rule(
    "BET-PL-CORRECT", ILLEGAL_BET, VIOLATION,
    '000 §13 PL r.1–3; 001 3.4.3.1–3; 002 §14.2 "exceeds the pot"',
    "A pot-limit wager above the pot is cut to the maximum and the surplus returned, as long as "
    "not everyone has acted on it; heads-up too.",
)
BET_PL_ROUND = rule(
    "BET-PL-ROUND", ILLEGAL_BET, VIOLATION,
    '000 §13 PL r.4; 001 3.4.3.5; 002 §14.2 "round off"',
    "The structure may round the pot up to the next unit when computing the maximum "
    "(profile: pl.round_unit).",
)
BET_PL_SB_AS_BB = rule(
    "BET-PL-SB-AS-BB", ILLEGAL_BET, VIOLATION,
    '000 §13 PL r.5; 001 3.4.3.6; 002 §14.2 "little blind"',
    "Pot-limit hold'em and Omaha may count the small blind as a full big blind until the big "
    "blind has acted (open up to 4 big blinds); strict pot limit allows 3.5 "
    "(profile: pl.sb_as_bb, pl.sb_as_bb_tournament).",
)
STRADDLE_BIGBET = rule(
    "STRADDLE-BIGBET", PROCEDURE, WARNING,
    '000 §13 NL r.15, Gl. STRADDLE; 001 3.4.2.12, §2.2 STRADDLE; 002 §14.1 "straddle"',
    "Big-bet cash games allow one live straddle, posted by the player just left of the big "
    "blind for exactly twice the big blind; it acts last preflop and may raise.",
)
STRADDLE_LIMIT = rule(
    "STRADDLE-LIMIT", PROCEDURE, WARNING,
    "000 §3 r.17; 001 3.5.2.15",
    "At limit a live straddle is not allowed except in specified games (profile: "
    "straddle.limit).",
)
STRADDLE_TOURN = rule(
    "STRADDLE-TOURN", PROCEDURE, WARNING,
    '000 §13 NL r.15; 001 3.4.2.12; 002 §14.1 "non-tournament"',
    "No straddle is allowed in tournaments.",
)

# --- §4.10 Chips, verbal declarations, string bets, out of turn ----------------------------------

VERBAL_BINDING = rule(
    "VERBAL-BINDING", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.9; 001 3.1.7.8",
    "A verbal declaration made in turn binds the player and overrides different chip action "
    "(profile: verbal).",
)
VERBAL_BIGBET_DISCREPANCY = rule(
    "VERBAL-BIGBET-DISCREPANCY", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.7–8; 001 3.4.2.4–5; 002 §14.1 "not binding", "discrepancy"',
    "In big-bet games, when the spoken amount and the chips differ, the bet is corrected to the "
    "spoken amount.",
)
CHIP_RELEASE_BINDING = rule(
    "CHIP-RELEASE-BINDING", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.13; 001 3.1.7.12",
    "Chips released into the pot to bet or call bind the player, who must make the amount "
    "correct, unless he did not know of a raise and nobody has acted since.",
)
CHIP_SHORT_CALL = rule(
    "CHIP-SHORT-CALL", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.9; 001 3.4.2.6; 002 §14.1 "short due to a counting"',
    "A call that is short because of a counting error must be made up, even if the bettor has "
    "already shown a better hand.",
)
CHIP_GROSS_MISUNDERSTANDING = rule(
    "CHIP-GROSS-MISUNDERSTANDING", ILLEGAL_BET, WARNING,
    '000 §13 NL r.12; 001 3.4.2.7; 002 §14.1 "eighty percent"',
    "A big-bet call of less than 80% of the amount owed may be a gross misunderstanding the "
    "floor can release; it is flagged for review, not ruled.",
)
CHIP_SINGLE_OVERSIZE_CALL = rule(
    "CHIP-SINGLE-OVERSIZE-CALL", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.15, §13 NL r.10; 001 3.1.7.15, 3.4.2.9; 002 §14.1 "single chip"',
    "A single oversized chip put in without comment while facing a bet is a call, not a raise.",
)
CHIP_SINGLE_CHIP_BET = rule(
    "CHIP-SINGLE-CHIP-BET", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.10, PL r.6; 001 3.4.2.9, 3.4.3.7; 002 §14.1 "single chip", '
    '§14.2 "larger than the pot"',
    "In big-bet games a single chip put in without comment when not facing a bet is a bet of its "
    "full value; at pot limit one larger than the pot is a pot-size bet (profile: pl.big_chip).",
)
CHIP_FULL_PLUS_HALF = rule(
    "CHIP-FULL-PLUS-HALF", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.14; 001 3.1.7.14",
    "At limit, putting in a full bet plus half a bet or more in several chips announces a raise, "
    "and the raise must be completed.",
)
STRING_RAISE = rule(
    "STRING-RAISE", STRING_BET, VIOLATION,
    "000 §2 B&R r.14, Gl. STRING RAISE; 001 3.1.7.14, §2.2 STRING RAISE",
    "A raise made in more than one motion without first announcing it (going back to the stack "
    "for more) is a string raise and is not allowed.",
)
STRING_BIGBET_MULTIMOVE = rule(
    "STRING-BIGBET-MULTIMOVE", STRING_BET, VIOLATION,
    '000 §13 NL r.6; 001 3.4.2.8; 002 §14.1 "says raise"',
    "In big-bet cash games a player who said \"raise\" may use several motions; in tournaments "
    "he must state the amount or use one motion (profile: nl.multimotion).",
)
CHIP_FORWARD_MOTION = rule(
    "CHIP-FORWARD-MOTION", ILLEGAL_BET, WARNING,
    "000 §2 B&R r.8; 001 3.1.7.13",
    "At limit, a forward motion with chips that makes another player act may oblige the player "
    "to complete the action; flagged for the floor.",
)
CHIP_MIN_UNIT = rule(
    "CHIP-MIN-UNIT", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.1; 001 3.1.7.7",
    "Every amount must be a multiple of the smallest chip that plays (the smallest used in "
    "antes, blinds or rake); an all-in player puts in all his chips that play.",
)
CHIP_RAP = rule(
    "CHIP-RAP", PROCEDURE, WARNING,
    '000 §2 B&R r.10, §10 r.14, §11 r.10; 001 3.1.7.9, 3.2.8.5.1.14, 3.2.10.5.9; '
    '002 §11.1 "Rapping", §12.1 "Rapping", "pat hand by rapping"',
    "Rapping the table is a check.",
)
TURN_OOT_CHECK = rule(
    "TURN-OOT-CHECK", PROCEDURE, WARNING,
    "000 §2 B&R r.11; 001 3.1.7.10",
    "A player who checks out of turn may not bet or raise at his next turn.",
)
TURN_OOT_CALL = rule(
    "TURN-OOT-CALL", PROCEDURE, WARNING,
    "000 §2 B&R r.11",
    "A player who calls out of turn may not turn it into a raise at his next turn.",
)
TURN_OOT_BINDING = rule(
    "TURN-OOT-BINDING", PROCEDURE, WARNING,
    "000 §2 B&R r.11; 001 3.1.7.10",
    "An out-of-turn action binds unless the action reaching the player changes (Montana: by a "
    "bet or raise; USPA: by a bet, call or raise) (profile: oot).",
)
TURN_RIGHT_TO_ACT = rule(
    "TURN-RIGHT-TO-ACT", PROCEDURE, WARNING,
    '000 §2 B&R r.12; 001 3.1.7.11, 3.3.2.11; 002 §15.0 "stop the action"',
    "A player who lets three or more players act behind him without calling time may lose his "
    "right to act, but never while a player in front of him has yet to act.",
)
