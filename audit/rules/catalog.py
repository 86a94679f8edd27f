"""The rule catalogue for button games: every rule a per-hand replay of hold'em and Omaha can cite.

Covers hold'em, Omaha (4 and 5 cards) and Omaha high-low 8 or better, at fixed, pot and no limit,
cash and tournament. Ids, statements and citations come from ../shared/RULEBOOK.md (§4.2–§4.10,
§4.14, §4.15, §5); only rules checkable from one hand's event log (levels F and P) are here.
Stud, draw, lowball, kill pots, session-level (S) and cross-hand (X) rules belong to other modules.

Importing this module registers the rules; the `audit.rules` package imports it, so the registry
is always complete. Citations keep the RULEBOOK seed keys and section/rule numbers verbatim.
"""

from __future__ import annotations

from audit.rules.registry import Category, Rule, Severity, register

# Our own ids, not in RULEBOOK.md. RULEBOOK §2 only says that rules needing missing fields are
# "not evaluable", and ARCHITECTURE.md requires such cases to be data_quality findings, never a
# false violation; no RULEBOOK id covers money conservation across a whole hand either.
DQ_UNVERIFIABLE_AWARD = "DQ-UNVERIFIABLE-AWARD"
DQ_INCONSISTENT_LOG = "DQ-INCONSISTENT-LOG"
POT_CONSERVATION = "POT-CONSERVATION"
# RULEBOOK states the ante only for stud and draw (ANTE-STUD, ANTE-DRAW); a hold'em or Omaha
# ante (incl. the big-blind ante) is a structure parameter of the hand header (RULEBOOK §2).
ANTE_AMOUNT = "ANTE-AMOUNT"
OWN_RULE_IDS: tuple[str, ...] = (DQ_UNVERIFIABLE_AWARD, DQ_INCONSISTENT_LOG, POT_CONSERVATION,
                                 ANTE_AMOUNT)

# Every checkable button-game rule of RULEBOOK.md, implemented or not. Only the ids some check
# can emit are registered (see REPLAY_RULE_IDS at the end); the rest is the catalogue of what a
# later check will cite, and of what is not yet checked (the report's methodology section).
CATALOG: dict[str, Rule] = {}


def _rule(rule_id: str, category: Category, severity: Severity, citation: str, text: str) -> None:
    if rule_id in CATALOG:
        raise ValueError(f"rule id {rule_id} catalogued twice")
    CATALOG[rule_id] = Rule(
        id=rule_id, category=category, severity=severity, citation=citation, text=text
    )


ILLEGAL_BET = Category.ILLEGAL_BET
WRONG_AWARD = Category.WRONG_AWARD
STRING_BET = Category.STRING_BET
PROCEDURE = Category.PROCEDURE
IRREGULARITY = Category.IRREGULARITY
DATA_QUALITY = Category.DATA_QUALITY
INFO, WARNING, VIOLATION, CRITICAL = (
    Severity.INFO,
    Severity.WARNING,
    Severity.VIOLATION,
    Severity.CRITICAL,
)

# --- §4.2 Deck, dealing and card integrity -------------------------------------------------------

_rule(
    "DECK-SIZE", IRREGULARITY, WARNING,
    '000 Gl. DECK, §10 A5 r.1, §11 Joker r.1; 001 §2.2 DECK, 3.2.8.5.2.1; '
    '002 §11.2 "joker is used", §12.3 "alerted"',
    "Hold'em and Omaha are dealt from a 52-card deck; a joker is in play only where the game "
    "posts or announces it.",
)
_rule(
    "DEAL-ORDER", PROCEDURE, WARNING,
    "000 §3 intro, §2 Ties r.2; 001 3.5.1, 3.1.9.2",
    "Cards are dealt clockwise in proper sequence, starting with the first seat left of the "
    "button; the button receives the last card of each pass.",
)
_rule(
    "DEAL-DUPLICATE-CARD", IRREGULARITY, CRITICAL,
    "000 §2 Irreg r.4–5; 001 3.1.6.4–5",
    "If two cards of the same rank and suit appear, all action is void and every player gets "
    "back the chips he wagered.",
)
_rule(
    "DEAL-FOREIGN-BACK", IRREGULARITY, VIOLATION,
    "000 §2 Irreg r.3; 001 3.1.6.3",
    "A card with a different-coloured back found during the hand voids all action and the chips "
    "go back; found in the stub, all action stands.",
)
_rule(
    "DEAL-MISSING-CARDS", IRREGULARITY, WARNING,
    "000 §2 Irreg r.10; 001 3.1.6.10",
    "Cards missing from the deck do not invalidate the hand; a hand voided only because the deck "
    "was short should have been played out.",
)
_rule(
    "DEAL-BOXED-CARD", IRREGULARITY, WARNING,
    "000 §2 Irreg r.7; 001 3.1.6.7",
    "A card found face up in the deck is treated as a scrap of paper and replaced by the next "
    "card; two or more boxed cards are a misdeal.",
)
_rule(
    "DEAL-JOKER-STRAY", IRREGULARITY, WARNING,
    "000 §2 Irreg r.8–9, DH r.1(e); 001 3.1.6.8–9, 3.1.5.1.5",
    "In a game without the joker, a joker is replaced like a boxed card; a player who acts "
    "holding one as a hole card without saying so has a dead hand.",
)
_rule(
    "DEAL-EXTRA-CARD", IRREGULARITY, WARNING,
    '000 §2 Irreg r.11, §4 r.2, §2 Misdeals r.2(d); 001 3.1.6.11, 3.2.1.5.5, 3.1.4.1.4; '
    '003 (3)Misdeals r.1(d); 002 §11.1 "(c) Two or more extra"',
    "One extra card dealt before the first betting round goes back as the next burn card; two "
    "or more extra cards in the starting hands are a misdeal.",
)
_rule(
    "DEAL-PREMATURE", IRREGULARITY, WARNING,
    "000 §2 Irreg r.15, §4 r.5; 001 3.1.6.15",
    "A card dealt before the betting on the current round is complete does not play, even if "
    "everyone still to act folds.",
)
_rule(
    "DEAL-EXPOSED-GENERAL", IRREGULARITY, WARNING,
    '000 §2 Irreg r.12–13, §7 r.11, §10 r.8; 001 3.1.6.12–13, 3.2.3.5.11, 3.2.8.5.1.8; '
    '002 §11.1 "never has an option"',
    "A card flashed by the dealer is exposed (one flashed by a player plays); a player never "
    "chooses to take or reject a card the dealer exposed.",
)
_rule(
    "DEAL-STUB-FOULED", IRREGULARITY, WARNING,
    "000 §2 Irreg r.17",
    "A fouled deck stub does not void the hand: the deal is played out with the deck "
    "reconstituted as fairly as possible.",
)
_rule(
    "DEAL-SHUFFLE-CUT", PROCEDURE, WARNING,
    "003 (3)Shuffle and Cut r.1–4",
    "The deck is riffled at least 4 times and the cut leaves at least 4 cards in each part "
    "(checkable only when shuffle and cut are logged).",
)

# --- §4.3 Misdeals -------------------------------------------------------------------------------

_rule(
    "MISDEAL-CUTOFF", IRREGULARITY, WARNING,
    '000 §2 Misdeals r.1–2; 001 3.1.4.1, 3.1.4.2; 003 (3)Misdeals r.1–2; '
    '002 §11.1 "before two players"',
    "A misdeal may be declared only before two players after the blinds have acted; after that "
    "the hand is played out and no money goes back for a fouled hand.",
)
# MISDEAL-COND-* is one RULEBOOK line with a table of sub-ids -a … -j; each gets its own id so a
# finding names the exact condition. Citations are the shared sources narrowed to the item.
_MISDEAL_CONDITIONS = (
    ("a", "the first or second card of the hand was dealt face up or exposed by dealer error"),
    ("b", "two or more cards were exposed by the dealer"),
    ("c", "two or more boxed cards were found"),
    ("d", "two or more extra cards were dealt in the starting hands"),
    ("e", "a player was dealt the wrong number of cards (the top card may still go to a player "
          "if that is his proper sequence)"),
    ("f", "a card was dealt out of proper sequence (an exposed card may be replaced by the "
          "burn card)"),
    ("g", "the button was out of position"),
    ("h", "the first card was dealt to the wrong position"),
    ("i", "cards were dealt to an empty seat or to a player not entitled to a hand"),
    ("j", "a player entitled to a hand (present, or having posted a blind or ante) was dealt out"),
)
for _number, (_letter, _condition) in enumerate(_MISDEAL_CONDITIONS, start=1):
    _rule(
        f"MISDEAL-COND-{_letter}", IRREGULARITY, WARNING,
        f"000 §2 Misdeals r.2({_letter}); 001 3.1.4.1.{_number}; 003 (3)Misdeals r.1({_letter})",
        f"Misdeal if {_condition}, provided it is noticed before two players have acted.",
    )

# --- §4.4 Burn cards and board -------------------------------------------------------------------

_rule(
    "BURN-EACH-ROUND", PROCEDURE, WARNING,
    '001 3.2.1.3.3, .5, .7, 3.2.2.3.3, .5, .7; 000 Gl. BURNCARD, §7 r.14–15; 001 3.2.3.5.14–15; '
    '000 §10 r.11(a), §11 r.7(a); 001 3.2.8.5.1.12.1, 3.2.10.5.6.1; '
    '002 §11.1 and §12.1 "including the burncard"',
    "Exactly one card is burned before the flop, before the turn and before the river.",
)
_rule(
    "BURN-ERROR", PROCEDURE, WARNING,
    "000 §2 Irreg r.16, §4 r.6",
    "A missed or double burn is corrected before anyone acts on that board card, and later cards "
    "must be the ones that would have come without the error.",
)
_rule(
    "BOARD-FLOP-BURN-ERR", PROCEDURE, WARNING,
    "000 §4 r.4",
    "A flop dealt with no burn or two burns is fixed with the proper burn and flop if no board "
    "card was exposed; otherwise the deck is reshuffled.",
)
_rule(
    "BOARD-FLOP-EXTRA", IRREGULARITY, WARNING,
    "000 §4 r.3; 001 3.2.1.5.2",
    "A flop with too many cards is always redealt, even when the extra card can be identified.",
)
_rule(
    "BOARD-FLOP-REDEAL", PROCEDURE, WARNING,
    "000 §4 r.7, §14 #4; 001 3.2.1.5.3, App II #2; 002 §16.0 #2",
    "A redealt flop is mixed back into the stub, the original burn stays, and the new flop is "
    "dealt after a shuffle and cut without a burn (profile: board.redeal_burn).",
)
_rule(
    "BOARD-TURN-PREMATURE", IRREGULARITY, WARNING,
    "000 §4 r.8, §14 #4; 001 3.2.1.5.4, App II #2; 002 §16.0 #2",
    "A turn card exposed before the flop betting ends is set aside; the would-be river becomes "
    "the turn, and the river is dealt from the reshuffled stub without a burn.",
)
_rule(
    "BOARD-RIVER-PREMATURE", IRREGULARITY, WARNING,
    "000 §4 r.8; 001 3.2.1.5.4; 002 §16.0 #2",
    "A river turned too early is reshuffled into the stub and dealt again the same way, "
    "without a burn.",
)
_rule(
    "HOLDEM-EXPOSED-HOLECARD", IRREGULARITY, WARNING,
    "000 §4 r.1, §5 r.1; 001 3.2.1.5.1, 3.2.2.5.1.1",
    "An exposed first hole card (profile: misdeal.holdem_exposed) or more than one exposed hole "
    "card is a misdeal; any other exposed hole card is replaced and becomes the burn card.",
)

# --- §4.5 Dead hands -----------------------------------------------------------------------------

_rule(
    "DEAD-FOLD", PROCEDURE, WARNING,
    "000 §2 DH r.1(a); 001 3.1.5.1.1; 003 (3)Dead Hands r.1(a)",
    "A player who folds, or announces a fold, while facing a bet has a dead hand and may not "
    "act again in the hand.",
)
_rule(
    "DEAD-FORWARD-MUCK", PROCEDURE, WARNING,
    "000 §2 DH r.1(b); 001 3.1.5.1.2; 003 (3)Dead Hands r.1(b)",
    "Throwing a hand away in a forward motion that makes a player behind act kills it, even when "
    "not facing a bet.",
)
_rule(
    "DEAD-CARD-COUNT", IRREGULARITY, WARNING,
    "000 §2 DH r.1(d), §14 #2; 001 3.1.5.1.4, App II #4; 003 (3)Dead Hands r.1(d); 002 §16.0 #4",
    "A hand with the wrong number of cards for the game (two in hold'em, four or five in Omaha) "
    "is dead.",
)
_rule(
    "DEAD-CLOCK", PROCEDURE, WARNING,
    '000 §2 DH r.1(f), §13 NL r.16; 001 3.1.5.1.6, 3.4.2.13; 002 §14.1 "clock"',
    "A big-bet player put on the clock has one minute to act, with a 10-second warning; if "
    "time runs out his hand is dead.",
)
_rule(
    "DEAD-MUCK-RETRIEVE", PROCEDURE, WARNING,
    "000 §2 DH r.2; 001 3.1.5.2",
    "Cards in the muck may be ruled dead; retrieving a clearly identifiable mucked hand is a "
    "management decision and is flagged for review.",
)
_rule(
    "DEAD-THROWN-INTO-HAND", IRREGULARITY, WARNING,
    "000 §2 DH r.3; 001 3.1.5.3",
    "Cards thrown into another player's hand are dead.",
)

# --- §4.6 Button, blinds, forced bets ------------------------------------------------------------

_rule(
    "BUTTON-START", PROCEDURE, WARNING,
    '003 (2)Seating r.1; 001 App III §4 r.6, 3.3.2.22; 000 §2 Ties r.2; '
    '002 §15.0 "dealing for the high card"',
    "In a new game the button goes to the highest card drawn, ties broken by suit.",
)
_rule(
    "BLIND-POSITIONS", PROCEDURE, WARNING,
    "000 §3 intro; 001 3.5.1; 004 HE/Blinds",
    "The small blind is posted by the first player clockwise from the button and the big blind by "
    "the second, before anyone sees a card.",
)
_rule(
    "BLIND-HEADSUP", PROCEDURE, WARNING,
    '000 §3 r.3; 001 3.5.2 (printed "3.4.2.3"), 3.3.2.25; 002 §15.0 "heads-up play"',
    "Heads-up with two blinds, the small blind is on the button (profile: blinds.headsup).",
)
_rule(
    "BLIND-BB-IS-BET", ILLEGAL_BET, VIOLATION,
    "000 §3 r.8; 001 3.5.2.8; 004 HE/Blinds",
    "The big blind is the opening bet of the first round: matching it is a call and increasing "
    "it is a raise, for caps and minimum raises.",
)
_rule(
    "BLIND-OPTION", PROCEDURE, WARNING,
    "000 §3 r.9, Gl. LIVE BLIND, OPTION; 001 3.5.2.2, 3.5.2.8, §2.2 LIVE BLIND; 004 HE/Blinds",
    "A live blind may raise at his first turn if nobody has raised, and the big blind may check "
    "an unraised pot; a dead blind has no option.",
)
_rule(
    "BLIND-DEAD-PART", PROCEDURE, WARNING,
    "000 §3 intro, Gl. DEAD MONEY, DEAD COLLECTION BLIND; 001 3.5.1, §2.2 DEAD COLLECTION BLIND",
    "Dead blind money goes to the middle and does not count toward the poster's call.",
)
_rule(
    "BLIND-SHORT-STRUCTURE", ILLEGAL_BET, VIOLATION,
    "000 §3 r.1, §13 NL r.2",
    "A blind posted short for lack of chips does not lower the minimum bring-in or the raise "
    "sizes for anyone else.",
)
_rule(
    "BLIND-MISSED", PROCEDURE, WARNING,
    "000 §3 r.10, Gl. MISSED BLIND; 001 3.5.2.9",
    "A player making up missed blinds posts them all: the part up to the minimum opening bet is "
    "live, the rest is dead, and he keeps the option to raise.",
)
_rule(
    "BLIND-MISSED-UNPOSTED", PROCEDURE, WARNING,
    "000 §3 r.11; 001 3.5.2.10",
    "A player who owes a missed blind, is dealt in without posting and looks at his cards before "
    "posting or acting has a dead hand; if he acts and puts chips in before the error is found, "
    "the hand is live and he must post on the next deal.",
)
_rule(
    "BLIND-CHOP", WRONG_AWARD, VIOLATION,
    "003 (2)Procedures r.13; 001 App III §3 r.14; 000 Gl. SPLITTING BLINDS; "
    "001 §2.2 SPLITTING BLINDS",
    "When everyone folds to the blinds, they may take their blinds back in non-tournament button "
    "games only (profile: blinds.chop_allowed); no other pot is split by agreement.",
)
_rule(
    "POST-FOR-OTHER", PROCEDURE, WARNING,
    "003 (2)Procedures r.12; 001 App III §3 r.13",
    "Nobody may post an ante or blind for another player.",
)

# --- §4.7 Action order ---------------------------------------------------------------------------

_rule(
    "ORDER-BUTTON-FIRST", PROCEDURE, WARNING,
    '000 §3 intro; 001 3.5.1; 004 HE/Blinds; 000 §13 NL r.15; 001 3.4.2.12; 002 §14.1 "straddle"',
    "Before the flop, action starts left of the big blind (or of the straddle, who then acts "
    "last) and goes clockwise to the small blind and then the big blind.",
)
_rule(
    "ORDER-BUTTON-LATER", PROCEDURE, WARNING,
    "000 §3 intro; 001 3.5.1; 004 HE/Blinds",
    "After the flop, the first active player left of the button acts first and the button acts "
    "last.",
)
_rule(
    "ORDER-HEADSUP", PROCEDURE, WARNING,
    # RULEBOOK marks this derived (no citation of its own); these are the sources of the two
    # rules it is derived from, BLIND-HEADSUP and ORDER-BUTTON-FIRST/-LATER.
    '(derived) 000 §3 r.3, §3 intro; 001 3.5.2 (printed "3.4.2.3"), 3.3.2.25, 3.5.1; '
    '002 §15.0 "heads-up play"',
    "Heads-up, the small blind on the button acts first before the flop and the big blind acts "
    "first on every later round.",
)

# --- §4.8 Fixed-limit betting and raising --------------------------------------------------------

_rule(
    "BET-LIMIT-FIXED", ILLEGAL_BET, VIOLATION,
    "004 HE/Betting; 000 Gl. FIXED LIMIT; 001 §2.2 FIXED LIMIT",
    "At fixed limit every bet and raise is exactly the round's limit, unless the player is "
    "all-in for less.",
)
_rule(
    "BET-LIMIT-HOLDEM-STREETS", ILLEGAL_BET, VIOLATION,
    "004 HE/Betting, HE/Blinds; 000 §5 intro; 001 3.2.2.1",
    "Limit hold'em and Omaha bet the small bet (= big blind) before the flop and on the flop, "
    "and the big bet (= twice the big blind) on the turn and river.",
)
_rule(
    "BET-MIN-SIZE", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.6; 001 3.1.7.6; 002 §14.1 "All raises must"; 000 Gl. CHECK-RAISE',
    "Any wager that is not all-in must be at least the size of the previous bet or raise on "
    "that round.",
)
_rule(
    "BET-UNDERSIZE-FIX", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.16; 001 3.1.7.16",
    "A bet or call that is too small must be brought up to the proper size if noticed before the "
    "round ends; nobody who already acted may turn a call into a raise because of it.",
)
_rule(
    "BET-CAP-MULTIROUND", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.4(a); 001 3.1.7.3.1; 003 Intro; 004 HE/Betting",
    "Limit games with three or more betting rounds allow at most a bet and three raises per "
    "round while three or more players not all-in are in the pot (profile: cap.multi_round).",
)
_rule(
    "BET-CAP-HEADSUP", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.5; 001 3.1.7.4; 004 HE/Betting; 001 3.2.5.5.1.2 ("except in head-to-head pots")',
    "Raising is unlimited heads-up, provided the pot became heads-up before the cap was reached "
    "(profile: cap.headsup).",
)
_rule(
    "BET-CAP-NO-UNCAP", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.5; 001 3.1.7.4",
    "Once a round is capped, a later fold that leaves two players does not reopen the raising.",
)
_rule(
    "BET-CAP-TOURNAMENT", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.5",
    "In limit tournaments the raise cap applies even heads-up until the event is down to two "
    "players (profile: cap.headsup_tournament).",
)
_rule(
    "BET-CAP-COUNT", ILLEGAL_BET, VIOLATION,
    # RULEBOOK marks the counting conventions derived; these are the sources of the rules they
    # restate (BLIND-BB-IS-BET, BET-ALLIN-HALFBET, STRADDLE-BIGBET).
    "(derived) 000 §3 r.8, §2 B&R r.7, §13 NL r.15; 001 3.5.2.8, 3.1.7.5",
    "For the raise cap the big blind counts as the bet, an all-in of half a bet or more counts "
    "as a raise, a smaller all-in does not, and a straddle is not a raise.",
)
_rule(
    "BET-ALLIN-HALFBET", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.7; 001 3.1.7.5; 002 §14.1 "half-the-size"; 000 Gl. COMPLETE THE BET',
    "At limit, an all-in of less than half a bet does not reopen the betting for players who "
    "already acted; half a bet or more counts as a full bet or raise.",
)
_rule(
    "BET-ALLIN-AGGREGATE", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.7, §13 NL r.4; 001 3.4.2.3 (example); 002 §14.1 (example)",
    "Several all-ins each too small to be a raise reopen the betting for a player once together "
    "they amount to a legal raise (profile: allin.limit, nl.reopen).",
)

# --- §4.9 No-limit, pot-limit, straddles ---------------------------------------------------------

_rule(
    "BET-NL-UNLIMITED", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.3, §13 intro, §13 NL r.1; 001 3.1.7.2, 3.4.1, 3.4.2.1; 002 §14.0, '
    '§14.1 "number of raises"',
    "No-limit and pot-limit allow any number of raises; the only other limits are table stakes "
    "and, at pot limit, the pot size.",
)
_rule(
    "BET-NL-MIN-BET", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.2; 001 3.4.2.2; 002 §14.1 "All bets must"; 004 HE/Betting',
    "Every big-bet wager must be at least the minimum bring-in (the big blind unless the house "
    "set another), the same on every round, unless the player is all-in (profile: nl.min_bet).",
)
_rule(
    "BET-NL-MIN-RAISE", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.3; 001 3.4.2.3; 002 §14.1 "All raises must"; 004 HE/Betting',
    "Every big-bet raise that is not all-in must be at least as large as the previous bet or "
    "raise on the round; the minimum goes back to the bring-in on the next round.",
)
_rule(
    "BET-NL-SHORT-BB", ILLEGAL_BET, VIOLATION,
    "000 §13 NL r.2, §3 r.1",
    "If the big blind posted short, players entering preflop must still put in the full minimum "
    "bet and a preflop raise must be to at least twice the full big blind.",
)
_rule(
    "BET-NL-SUBMIN-ALLIN", ILLEGAL_BET, VIOLATION,
    "000 §13 NL r.2",
    "Facing an all-in smaller than the minimum bet, a player may call just that amount, but a "
    "raise must add at least the full minimum bet.",
)
_rule(
    "BET-NL-NO-REOPEN", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.3–4; 001 3.4.2.3; 002 §14.1 "All raises must"',
    "A player who already acted and then faces only an incomplete all-in raise may call or fold "
    "but may not re-raise.",
)
_rule(
    "BET-NL-NO-COMPLETE", ILLEGAL_BET, VIOLATION,
    "000 §13 NL r.5",
    "Completing a short all-in to a full bet exists only at limit; in big-bet games it is a "
    "raise and must meet the minimum raise.",
)
_rule(
    "BET-NL-UNDERMIN-FIX", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.11; 001 3.4.2.10; 002 §14.1 "less than the legal minimum"',
    "A big-bet wager below the legal minimum by a player with more chips must be brought up to "
    "the minimum, and no further.",
)
_rule(
    "BET-NL-DENOM", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.13; 001 3.4.2.11; 002 §14.1 "same denomination"',
    "Where the house requires it, big-bet wagers are made in chips of at least the minimum "
    "bring-in denomination; smaller chips play only in quantity.",
)
_rule(
    "BET-PL-MAX", ILLEGAL_BET, VIOLATION,
    '000 §13 intro, PL intro; 001 3.4.3.4; 002 §14.2 "maximum amount"; 004 HE/Betting',
    "At pot limit the largest raise is the pot after the raiser's call: the maximum total is the "
    "current bet plus the whole pot including all bets and the call.",
)
_rule(
    "BET-PL-CORRECT", ILLEGAL_BET, VIOLATION,
    '000 §13 PL r.1–3; 001 3.4.3.1–3; 002 §14.2 "exceeds the pot"',
    "A pot-limit wager above the pot is cut to the maximum and the surplus returned, as long as "
    "not everyone has acted on it; heads-up too.",
)
_rule(
    "BET-PL-ROUND", ILLEGAL_BET, VIOLATION,
    '000 §13 PL r.4; 001 3.4.3.5; 002 §14.2 "round off"',
    "The structure may round the pot up to the next unit when computing the maximum "
    "(profile: pl.round_unit).",
)
_rule(
    "BET-PL-SB-AS-BB", ILLEGAL_BET, VIOLATION,
    '000 §13 PL r.5; 001 3.4.3.6; 002 §14.2 "little blind"',
    "Pot-limit hold'em and Omaha may count the small blind as a full big blind until the big "
    "blind has acted (open up to 4 big blinds); strict pot limit allows 3.5 "
    "(profile: pl.sb_as_bb, pl.sb_as_bb_tournament).",
)
_rule(
    "STRADDLE-BIGBET", PROCEDURE, WARNING,
    '000 §13 NL r.15, Gl. STRADDLE; 001 3.4.2.12, §2.2 STRADDLE; 002 §14.1 "straddle"',
    "Big-bet cash games allow one live straddle, posted by the player just left of the big "
    "blind for exactly twice the big blind; it acts last preflop and may raise.",
)
_rule(
    "STRADDLE-LIMIT", PROCEDURE, WARNING,
    "000 §3 r.17; 001 3.5.2.15",
    "At limit a live straddle is not allowed except in specified games (profile: "
    "straddle.limit).",
)
_rule(
    "STRADDLE-TOURN", PROCEDURE, WARNING,
    '000 §13 NL r.15; 001 3.4.2.12; 002 §14.1 "non-tournament"',
    "No straddle is allowed in tournaments.",
)

# --- §4.10 Chips, verbal declarations, string bets, out of turn ----------------------------------

_rule(
    "VERBAL-BINDING", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.9; 001 3.1.7.8",
    "A verbal declaration made in turn binds the player and overrides different chip action "
    "(profile: verbal).",
)
_rule(
    "VERBAL-BIGBET-DISCREPANCY", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.7–8; 001 3.4.2.4–5; 002 §14.1 "not binding", "discrepancy"',
    "In big-bet games, when the spoken amount and the chips differ, the bet is corrected to the "
    "spoken amount.",
)
_rule(
    "CHIP-RELEASE-BINDING", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.13; 001 3.1.7.12",
    "Chips released into the pot to bet or call bind the player, who must make the amount "
    "correct, unless he did not know of a raise and nobody has acted since.",
)
_rule(
    "CHIP-SHORT-CALL", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.9; 001 3.4.2.6; 002 §14.1 "short due to a counting"',
    "A call that is short because of a counting error must be made up, even if the bettor has "
    "already shown a better hand.",
)
_rule(
    "CHIP-GROSS-MISUNDERSTANDING", ILLEGAL_BET, WARNING,
    '000 §13 NL r.12; 001 3.4.2.7; 002 §14.1 "eighty percent"',
    "A big-bet call of less than 80% of the amount owed may be a gross misunderstanding the "
    "floor can release; it is flagged for review, not ruled.",
)
_rule(
    "CHIP-SINGLE-OVERSIZE-CALL", ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.15, §13 NL r.10; 001 3.1.7.15, 3.4.2.9; 002 §14.1 "single chip"',
    "A single oversized chip put in without comment while facing a bet is a call, not a raise.",
)
_rule(
    "CHIP-SINGLE-CHIP-BET", ILLEGAL_BET, VIOLATION,
    '000 §13 NL r.10, PL r.6; 001 3.4.2.9, 3.4.3.7; 002 §14.1 "single chip", '
    '§14.2 "larger than the pot"',
    "In big-bet games a single chip put in without comment when not facing a bet is a bet of its "
    "full value; at pot limit one larger than the pot is a pot-size bet (profile: pl.big_chip).",
)
_rule(
    "CHIP-FULL-PLUS-HALF", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.14; 001 3.1.7.14",
    "At limit, putting in a full bet plus half a bet or more in several chips announces a raise, "
    "and the raise must be completed.",
)
_rule(
    "STRING-RAISE", STRING_BET, VIOLATION,
    "000 §2 B&R r.14, Gl. STRING RAISE; 001 3.1.7.14, §2.2 STRING RAISE",
    "A raise made in more than one motion without first announcing it (going back to the stack "
    "for more) is a string raise and is not allowed.",
)
_rule(
    "STRING-BIGBET-MULTIMOVE", STRING_BET, VIOLATION,
    '000 §13 NL r.6; 001 3.4.2.8; 002 §14.1 "says raise"',
    "In big-bet cash games a player who said \"raise\" may use several motions; in tournaments "
    "he must state the amount or use one motion (profile: nl.multimotion).",
)
_rule(
    "CHIP-FORWARD-MOTION", ILLEGAL_BET, WARNING,
    "000 §2 B&R r.8; 001 3.1.7.13",
    "At limit, a forward motion with chips that makes another player act may oblige the player "
    "to complete the action; flagged for the floor.",
)
_rule(
    "CHIP-MIN-UNIT", ILLEGAL_BET, VIOLATION,
    "000 §2 B&R r.1; 001 3.1.7.7",
    "Every amount must be a multiple of the smallest chip that plays (the smallest used in "
    "antes, blinds or rake); an all-in player puts in all his chips that play.",
)
_rule(
    "CHIP-RAP", PROCEDURE, WARNING,
    '000 §2 B&R r.10, §10 r.14, §11 r.10; 001 3.1.7.9, 3.2.8.5.1.14, 3.2.10.5.9; '
    '002 §11.1 "Rapping", §12.1 "Rapping", "pat hand by rapping"',
    "Rapping the table is a check.",
)
_rule(
    "TURN-OOT-CHECK", PROCEDURE, WARNING,
    "000 §2 B&R r.11; 001 3.1.7.10",
    "A player who checks out of turn may not bet or raise at his next turn.",
)
_rule(
    "TURN-OOT-CALL", PROCEDURE, WARNING,
    "000 §2 B&R r.11",
    "A player who calls out of turn may not turn it into a raise at his next turn.",
)
_rule(
    "TURN-OOT-BINDING", PROCEDURE, WARNING,
    "000 §2 B&R r.11; 001 3.1.7.10",
    "An out-of-turn action binds unless the action reaching the player changes (Montana: by a "
    "bet or raise; USPA: by a bet, call or raise) (profile: oot).",
)
_rule(
    "TURN-RIGHT-TO-ACT", PROCEDURE, WARNING,
    '000 §2 B&R r.12; 001 3.1.7.11, 3.3.2.11; 002 §15.0 "stop the action"',
    "A player who lets three or more players act behind him without calling time may lose his "
    "right to act, but never while a player in front of him has yet to act.",
)

# --- §4.14 Showdown, pot building and awards -----------------------------------------------------

_rule(
    "SHOW-ALL-CARDS", WRONG_AWARD, VIOLATION,
    "000 §2 SD r.1, §5 intro; 001 3.1.8.1, 3.2.2.1",
    "To win any part of a pot a player must show all his cards face up (Omaha: all hole cards).",
)
_rule(
    "SHOW-CARDS-SPEAK", WRONG_AWARD, VIOLATION,
    '000 §2 SD r.2, Gl. CARDS SPEAK; 001 3.1.8.2, §2.2 CARDS SPEAK; 002 §11.1 "Cards speak"',
    "Cards speak: the pot goes to the best hand shown, whatever anyone said about it.",
)
_rule(
    "SHOW-ORDER", PROCEDURE, WARNING,
    '000 §2 SD r.8; 001 3.1.8.7, 3.2.1.3.9 (and the same "bettor showing first" line in each '
    "game's betting-round list)",
    "At showdown the last player to bet or raise on the final round shows first; if everyone "
    "checked, the first player to act shows first.",
)
_rule(
    "SHOW-KILL-LOSERS", PROCEDURE, WARNING,
    "000 §2 SD r.4, r.8; 001 3.1.8.4",
    "The dealer kills every losing hand before pushing the pot; a player may muck instead of "
    "showing after the betting.",
)
_rule(
    "SHOW-REQUEST", PROCEDURE, WARNING,
    "000 §2 SD r.5; 001 3.1.8.5",
    "A player dealt in may ask to see a hand eligible for the showdown (USPA: a called hand); "
    "a folded hand shown at a non-winner's request is dead (profile: showdown.right_to_see).",
)
_rule(
    "SHOW-ONE-SHOW-ALL", PROCEDURE, WARNING,
    "000 §2 SD r.6; 001 3.1.8.6",
    "Cards shown to one player must be shown to the whole table.",
)
_rule(
    "SHOW-PLAY-BOARD", WRONG_AWARD, VIOLATION,
    "000 §4 r.9, §5 r.1; 001 3.2.1.5.6, 3.2.2.5.1.1",
    "A hold'em player playing the board must say so before discarding, or he loses his claim to "
    "the pot; in Omaha the board cannot be played.",
)
_rule(
    "POT-SIDEPOT-BUILD", WRONG_AWARD, VIOLATION,
    "004 HE/SidePots; 000 Gl. SIDE POT; 001 §2.2 SIDE POT",
    "The main pot holds only what every player matched; anything beyond an all-in player's stake "
    "goes to side pots he cannot win.",
)
_rule(
    "POT-SIDEPOT-ORDER", WRONG_AWARD, WARNING,  # the order alone moves no money between players
    "000 §2 SD r.7; 004 HE/SidePots",
    "Side pots are settled before the main pot, the most recently created first; the main pot "
    "comes last (profile: sidepot.order).",
)
_rule(
    "POT-SIDEPOT-SEPARATE", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.5(d); 001 3.1.9.5.4",
    "The main pot and each side pot are split as separate pots; high-low halves and odd chips are "
    "worked out per pot.",
)
_rule(
    "POT-FOLD-FORFEIT", WRONG_AWARD, VIOLATION,
    "004 HE/SidePots; 000 Gl. FOLD; 001 §2.2 FOLD",
    "A player who folds before the showdown gives up every pot, the main pot included.",
)
_rule(
    "POT-TIE-SPLIT", WRONG_AWARD, VIOLATION,
    "004 HE/Play; 000 §2 Ties r.5, §9 r.8; 001 3.1.9.5, 3.2.7.5.9",
    "Tied best hands share the pot equally, as evenly as the chips allow.",
)
_rule(
    "POT-ODDCHIP-UNIT", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.3; 001 3.1.9.3",
    "Before a split, an odd chip is broken down to the smallest unit used in the game.",
)
_rule(
    "POT-ODDCHIP-MAX1", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.4; 001 3.1.9.4",
    "No player may receive more than one odd chip from a split.",
)
_rule(
    "POT-ODDCHIP-BUTTON", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.5(a); 001 3.1.9.5.1",
    "In button games the odd chip goes to the first tied hand clockwise from the button "
    "(profile: oddchip.button).",
)
_rule(
    "POT-ODDCHIP-HILO", WRONG_AWARD, VIOLATION,
    '000 §2 Ties r.5(c), §9 r.8–9; 001 3.1.9.5.3, 3.2.7.5.9–10; 002 §10.1 "odd chip"; '
    "004 OM/Hi-Lo, ST/Hi-Lo",
    "When a high-low pot splits between high and low, the odd chip goes to the high half; ties "
    "inside a half share as in that half's game (profile: oddchip.hilo).",
)
_rule(
    "POT-HILO-SPLIT", WRONG_AWARD, VIOLATION,
    '000 §6 r.2, §9 intro; 001 3.2.2.5.2.2, 3.2.7.5.2; 002 §10.1 "no qualifying"; '
    "004 OM/Hi-Lo, ST/Hi-Lo",
    "A high-low pot is split between the best high hand and the best qualifying low; with no "
    "qualifying low the best high hand takes it all.",
)
_rule(
    "POT-SPLIT-BY-CARDS", WRONG_AWARD, VIOLATION,
    '000 §9 r.7; 001 3.2.7.5.8, App III §3 r.14; 002 §10.1 "Splitting pots"; '
    "003 (2)Procedures r.13",
    "Pots are split only by the cards, never by agreement; an award that differs from the "
    "evaluated result is a violation.",
)
_rule(
    "POT-DEAL-TWICE", WRONG_AWARD, VIOLATION,
    '000 §13 NL r.17, Gl. DEAL TWICE, INSURANCE; 001 3.4.2.14, App III §3 r.15, §2.2 DEAL TWICE; '
    '002 §14.1 "deal twice"; 003 (2)Procedures r.14',
    "In big-bet games with an all-in and no betting left, the players may deal twice: the pot is "
    "divided into equal parts, each awarded on its own runout.",
)
_rule(
    POT_CONSERVATION, WRONG_AWARD, CRITICAL,
    # Our own id: chips are neither created nor destroyed in a hand. No seed says it in one
    # sentence; it follows from the pot rules (POT-SIDEPOT-BUILD) and table stakes.
    "(derived) 004 HE/SidePots; 000 Gl. SIDE POT, TABLE STAKES; 001 §2.2 SIDE POT, TABLE STAKES",
    "Everything put into the pot must come back out as awards, refunds or rake: money pushed "
    "must equal money collected, or chips were created or lost.",
)

# --- §4.15 Tournament-only rules (TOURNAMENT overlay) --------------------------------------------

_rule(
    "TOURN-BUTTON-START", PROCEDURE, WARNING,
    '002 §15.0 "dealing for the high card"; 001 3.3.2.22',
    "A tournament's starting button is decided by dealing for the high card, suits breaking ties.",
)
_rule(
    "TOURN-HEADSUP-SB", PROCEDURE, WARNING,
    "002 §15.0; 001 3.3.2.25",
    "In tournament play heads-up with two blinds, the small blind is on the button.",
)
_rule(
    "TOURN-SHORT-BLIND", PROCEDURE, WARNING,
    '002 §15.0 "lacks sufficient chips"; 001 3.3.2.17',
    "A tournament player short of a full blind plays for what he has (side pots form) and does "
    "not make up the short blind if he wins.",
)
_rule(
    "TOURN-ABSENT", PROCEDURE, WARNING,
    '002 §15.0 "always dealt", "not present", §16.0 #10; 001 3.3.2.4, 3.3.2.10, 3.3.2.12, '
    "App II #10; 000 §7 r.8",
    "Absent tournament players are dealt in and their blinds posted; a player not at the table "
    "when his turn comes has a dead hand.",
)
_rule(
    "TOURN-ALLIN-FACEUP", PROCEDURE, WARNING,
    '002 §15.0 "turned faceup"; 001 3.3.2.28',
    "In a tournament, once a player is all-in and the betting is complete, every hand is turned "
    "face up.",
)
_rule(
    "TOURN-NO-SHOW-DURING-DEAL", PROCEDURE, WARNING,
    '002 §15.0 "may not show any cards"; 001 3.3.2.19',
    "No tournament player may show cards during a deal unless only two players remain in the "
    "event.",
)
_rule(
    "TOURN-LEVEL-CHANGE", PROCEDURE, WARNING,
    '002 §15.0 "new limits apply"; 001 3.3.2.7–8; 004 HE/Betting, HE/Blinds',
    "New tournament limits and blinds take effect on the next deal after the level signal, "
    "never in the middle of a hand.",
)

# --- §4.16 per-hand house rules (F level; the profiles' rake.* params need a rule to cite) -------

_rule(
    "HOUSE-TABLE-STAKES", ILLEGAL_BET, VIOLATION,
    "003 (2)Procedures r.4, (3)Buy-In r.3; 001 App III §3 r.5–6, 3.1.3.2, §2.2 TABLE STAKES; "
    "000 §2 Buy-In r.2, Gl. TABLE STAKES, PLAY BEHIND",
    "Only the chips in front of a player when the deal starts play in that hand; a stack that "
    "grows mid-hand, or a wager larger than the stack, breaks table stakes.",
)
_rule(
    "HOUSE-RAKE", WRONG_AWARD, VIOLATION,
    "000 §2 B&R r.1, §3 intro, Gl. COLLECTION, COLLECTION DROP, DEAD COLLECTION BLIND, "
    "TIME COLLECTION; 001 3.1.7.7, 3.5.2.2, App III §3 r.2, §2.2 COLLECTION…; 003 Intro",
    "Rake must follow the house's posted percentage and cap (profile: rake.percent, rake.cap); "
    "private games may take no rake at all (profile: rake.allowed).",
)

# --- §5 Hand evaluation --------------------------------------------------------------------------

_rule(
    "EVAL-HIGH", WRONG_AWARD, VIOLATION,
    "001 3.1.1.1–10; 004 HE/Ranks; 000 Gl. FLUSH, FULL HOUSE, STRAIGHT, STRAIGHT FLUSH; "
    "000 Gl. KICKER; 001 §2.2 KICKER; 000 §2 Ties r.1; 001 3.1.9.1",
    "High hands rank straight flush, quads, full house, flush, straight, trips, two pair, pair, "
    "high card, with kickers breaking ties; suits never break a tie for a pot.",
)
_rule(
    "EVAL-LOW-8", WRONG_AWARD, VIOLATION,
    "000 §6 r.2–3, §9 intro, r.2–5; 001 3.2.2.5.2.1–2, 3.2.7.1, 3.2.7.5.2–6; 002 §10.0, §10.1; "
    "004 OM/Hi-Lo, ST/Hi-Lo",
    "A qualifying low is five cards of different ranks, all 8 or lower (ace low), ranked "
    "ace-to-five; straights and flushes do not hurt it.",
)
_rule(
    "EVAL-SELECT", WRONG_AWARD, VIOLATION,
    "004 HE/Play, OM/Omaha, OM/Omaha-5, OM/5Hi-Lo; 000 §4 intro, §5 intro & r.1, §6 intro, "
    "§7 intro; 001 3.2.1.4, 3.2.2.2, 3.2.2.4, 3.2.3.4, 3.2.4.4, 3.2.5.4, 3.2.7.4; 000 §10 r.12; "
    "001 3.2.8.5.1.11",
    "Hold'em plays the best five of the seven cards; Omaha must use exactly two hole cards and "
    "three board cards, for high and for low alike.",
)

# --- Data quality: our own ids (see OWN_RULE_IDS above) ------------------------------------------

_rule(
    DQ_UNVERIFIABLE_AWARD, DATA_QUALITY, INFO,
    # Our own id. RULEBOOK §2: rules whose inputs are missing are reported as "not evaluable".
    "(derived) RULEBOOK §2 \"not evaluable\"; 000 §2 SD r.1; 001 3.1.8.1",
    "The award cannot be verified because cards needed to evaluate the hands were not shown or "
    "not logged; nothing is known to be wrong.",
)
_rule(
    DQ_INCONSISTENT_LOG, DATA_QUALITY, INFO,
    # Our own id: the log contradicts itself, so the replay cannot tell what happened at the table.
    "(derived) RULEBOOK §2 assumed log vocabulary",
    "The hand's log contradicts itself (chips moved do not match the declared action, or an "
    "amount is impossible), so the affected checks could not be made.",
)

# --- Forced-bet structure: our own id (see OWN_RULE_IDS above) -----------------------------------

_rule(
    ANTE_AMOUNT, PROCEDURE, WARNING,
    # Our own id: the game's ante (per player, or one big-blind ante for the table) is in the
    # hand header; a player all-in for less plays for what he has (TOURN-SHORT-BLIND).
    "(derived) RULEBOOK §2 hand header stakes (ante); 000 §4 intro; 000 Gl. ANTE; "
    "004 §1 Sitting Out (P38); 002 §15.0 \"lacks sufficient chips\"",
    "Every player dealt into a game with an ante posts exactly the game's ante (with a "
    "big-blind ante, the big blind posts it for the table); only a player all-in for less "
    "posts less.",
)

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

for _id in REPLAY_RULE_IDS:
    _spec = CATALOG[_id]
    register(_id, category=_spec.category, severity=_spec.severity, citation=_spec.citation,
             text=_spec.text)


# --- Stud and draw families (RULEBOOK §4.7, §4.8, §4.11, §4.12, §4.14) ----------------------------
# Checked by audit/replay/family/ (with betting.py for sizes and caps). Statements and
# citations are RULEBOOK's, copied verbatim.

_rule(
    'ORDER-STUD-FIRST', PROCEDURE, WARNING,
    '000 §7 r.2; 001 3.2.3.5.1; 004 ST/Play; 000 Gl. LOWCARD',
    'Seven-card stud, 3rd street: the lowest upcard by suit makes the forced bet (ace counts '
    'high; suit order c<d<h<s, so 2♣ is the lowest possible); action then goes clockwise.',
)
_rule(
    'ORDER-STUD-LATER', PROCEDURE, WARNING,
    '000 §7 r.2; 001 3.2.3.5.1; 004 ST/Play',
    'From 4th street on, the highest hand showing acts first and may check (no more forced '
    'bets). A tie is broken by position: of the tied players, the one who received cards '
    'first (first clockwise from the dealer) acts first.',
)
_rule(
    'ORDER-RAZZ', PROCEDURE, WARNING,
    '000 §8 intro, r.2; 001 3.2.6.1, 3.2.6.5.2; 002 §9.0, §9.1 "highest card by suit"; 004 RZ',
    'Razz: the highest upcard by suit brings in (aces low, so K♠ is the highest and A♣ the '
    'lowest). Later rounds: the lowest hand showing acts first; a tie goes to the first tied '
    'player clockwise from the dealer.',
)
_rule(
    'ORDER-STUDHL', PROCEDURE, WARNING,
    '000 §9 r.4; 001 3.2.7.1, 3.2.7.5.4; 002 §10.0, §10.1 "low card by suit"',
    'Stud high-low: the lowest card by suit brings in, ace counting high for this purpose. '
    'Later rounds: the highest hand showing acts first; a tie goes to the first tied player '
    'clockwise from the dealer (P37).',
)
_rule(
    'ORDER-5STUD', PROCEDURE, WARNING,
    '001 3.2.4.5.1',
    'Five-card stud follows the seven-card stud order rules (lowcard forced bet, then high hand).',
)
_rule(
    'BET-LIMIT-STUD-STREETS', ILLEGAL_BET, VIOLATION,
    '000 §7 intro, §8 r.3, §9 r.6; 001 3.2.3.1, 3.2.6.5.3, 3.2.7.5.7; 002 §9.1 "Fixed-limit '
    'games", §10.0, §10.1 "Fixed-limit games"; 004 ST/Intro, ST/Play',
    'Stud, razz and stud H-L: the small bet on 3rd and 4th street, the big bet on 5th, 6th '
    'and 7th.',
)
_rule(
    'BET-STUD-OPENPAIR', ILLEGAL_BET, VIOLATION,
    '000 §7 intro, r.7; 001 3.2.3.1, 3.2.3.5.4; 004 ST/Play',
    'Seven-card stud high only: if any player shows an open pair on 4th street, any player '
    'may bet either the lower or the upper limit. Example, $5–$10: with a $5 bet, others may '
    'call $5, raise $5 or raise $10; once a $10 bet or raise is made, all further raises that'
    ' round are $10. If the high hand checks, the next players have the same options. Not in '
    'razz or stud H-L (RAZZ-NO-OPENPAIR, STUDHL-NO-OPENPAIR).',
)
_rule(
    'BET-LIMIT-DRAW-DOUBLE', ILLEGAL_BET, VIOLATION,
    '000 §11 intro, §10 intro; 001 3.2.9.1, 3.2.10.1, 3.2.8.1; 002 §12.0, §11.0',
    'Draw high and jacks: the limit after the draw is twice the limit before it. Lowball: '
    '"usually" double after the draw (Northern California is an exception → '
    'profile.lowball_post_draw_multiplier).',
)
_rule(
    'BET-LIMIT-5STUD', ILLEGAL_BET, VIOLATION,
    '001 3.2.4.1',
    'Five-card stud at fixed limit uses the same bet size on every round.',
)
_rule(
    'BET-CAP-TWOROUND', ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.4(b), §10 r.2, §11 r.1, §14 #6; 001 3.1.7.3.2, 3.2.8.5.1.2, 3.2.10.5.1, App'
    ' II #6; 002 §11.1, §12.1, §16.0 #6; 003 Intro',
    'Fixed limit with 2 betting rounds (lowball, draw high, jacks): at most a bet plus 4 '
    'raises in multihanded pots (private games: 3; CA overlay: 6).',
)
_rule(
    'STUD-BRINGIN-LOWCARD', PROCEDURE, WARNING,
    '000 §7 r.2, Gl. LOWCARD, FORCED BET; 001 3.2.3.5.1, §2.2 LOWCARD; 004 ST/Play',
    'The 3rd-street forced bet (bring-in) is made by the lowest upcard, ranked by rank (ace '
    'high) and then by suit (♣ < ♦ < ♥ < ♠). Razz and stud H-L use their own rules '
    '(ORDER-RAZZ, ORDER-STUDHL).',
)
_rule(
    'STUD-BRINGIN-OPTIONS', ILLEGAL_BET, VIOLATION,
    '000 §7 r.3; 001 3.2.3.5.2; 004 ST/Play',
    'The bring-in player may post the bring-in or open for a full small bet. 004: he may not '
    'check or fold (P24).',
)
_rule(
    'STUD-BRINGIN-AMOUNT', ILLEGAL_BET, VIOLATION,
    '004 ST/Play; 000 §7 r.6; 001 3.2.3.5.3',
    'The bring-in is a structure parameter: typically more than the ante and less than the '
    'small bet (004). Example: $5 in $15–$30 stud. Mississippi amounts are in '
    'BET-LIMIT-MISSISSIPPI.',
)
_rule(
    'STUD-PREMATURE', IRREGULARITY, WARNING,
    '000 §7 r.14; 001 3.2.3.5.14',
    "Cards dealt before the round's betting ends are removed from play. After the betting, "
    'one more card per still-active player is also removed, so players get the cards they '
    'would have had; then the dealer burns and play resumes. Removed cards are set aside in '
    'case the deck runs short. If the premature card is the final down card and it was seen '
    'or mixed in, the player keeps it and may not bet or raise on 6th street.',
)
_rule(
    'STUD-CARD-COUNT', IRREGULARITY, VIOLATION,
    '000 §7 r.18, §14 #2; 001 3.2.3.5.18, App II #4; 002 §16.0 #4',
    'A stud hand with more than 7 cards is dead. A hand with fewer than 7 at the showdown is '
    'dead, except that a hand missing only its 7th card may be ruled live (flag it for the '
    'floor).',
)
_rule(
    'RAZZ-NO-OPENPAIR', ILLEGAL_BET, VIOLATION,
    '000 §8 intro, r.3; 001 3.2.6.1, 3.2.6.5.3; 002 §9.0, §9.1 "open pair"',
    'Razz: an open pair does not change the limit (lower limit on 3rd and 4th streets, upper '
    'after).',
)
_rule(
    'STUDHL-NO-OPENPAIR', ILLEGAL_BET, VIOLATION,
    '000 §9 r.6; 001 3.2.7.1, 3.2.7.5.7; 002 §10.0, §10.1 "open pair on fourth"',
    'Stud H-L: an open pair on 4th street does not change the limit.',
)
_rule(
    'POT-ODDCHIP-STUD', WRONG_AWARD, VIOLATION,
    '000 §2 Ties r.5(b); 001 3.1.9.5.2',
    'Stud high games: to the tied player holding the highest card by suit. Stud low games: to'
    " the one holding the lowest card by suit. All of each player's cards count, not just his"
    ' five.',
)
_rule(
    'DRAW-FIVE-CARD-HAND', IRREGULARITY, VIOLATION,
    '000 §10 r.12, §11 r.5; 001 3.2.8.5.1.11, 3.2.10.5.4; 002 §11.1 "Five cards constitute", '
    '§12.1 "Five cards constitute"',
    'Five cards make a playing hand. More or fewer than five after the draw is a fouled '
    '(dead) hand.',
)
_rule(
    'A5-CHECKRAISE', ILLEGAL_BET, VIOLATION,
    '000 §10 A5 r.2; 001 3.2.8.5.2.2; 002 §11.2 "check-raise is not"',
    'Limit ace-to-five lowball: check-raise is not allowed unless players were told otherwise.',
)

_rule(
    'A5-SEVENS-RULE', PROCEDURE, WARNING,
    '000 §10 A5 r.4; 001 3.2.8.5.2.4; 002 §11.2 "sevens rule"',
    'Limit A-5 lowball, on by default. After the draw, a player who checks a seven-low or '
    'better: if it is the best hand, all post-draw action is void and he wins only the pot as '
    'it stood before the draw; if it is beaten, he loses the pot and any calls he made. '
    'Exception: facing an all-in post-draw bet of less than half a bet, a seven or better may '
    'just call and win it; an overcaller who loses gets that bet back. A seven or better that '
    'completes to a full bet has met its obligation.',
)
_rule(
    'DRAW-MAX-FOUR', PROCEDURE, WARNING,
    '000 §10 r.10, §11 r.6, §14 #9; 001 3.2.8.5.1.10, 3.2.10.5.5, App II #9; 002 §11.1 "draw '
    'up to four", §12.1 "draw up to four", §16.0 #9',
    'At most four consecutive cards are dealt to one player on the draw. A 5-card draw gets '
    'four at once and the fifth after everyone else has drawn; if he is the last to draw, '
    'four, then a burn, then the fifth.',
)
_rule(
    'STUD-SHORT-DECK', PROCEDURE, WARNING,
    '000 §7 r.15, Gl. COMMON CARD; 001 3.2.3.5.15, §2.2 COMMON CARD; 004 ST/Intro, ST/Play',
    'If the deck will not cover every remaining player: deal all but the last card; mix that '
    'card with the burns (and any removed cards); scramble, cut, burn and continue (no burn if '
    'there are fewer cards than players still needing one). If there still are not enough '
    'fresh cards, the dealer announces a common card: burn, then one card face up in the '
    'centre that plays in every hand. The high hand including it acts first. Max 8 players '
    'per stud table; 8×7 = 56 > 52 (004).',
)
_rule(
    'STUD-EXPOSED-START', IRREGULARITY, VIOLATION,
    '000 §7 r.1; 001 3.2.3.5.5, 3.3.2.26; 002 §15.0 "At stud"',
    "Cash game: if a player's 1st or 2nd hole card is turned up by the dealer, his 3rd card is "
    'dealt down. If both hole cards are dealt up, his hand is dead and his ante is returned. If '
    'the first up-dealt card would have been the lowcard, action starts with the next player to '
    'the left, who may fold, bring in, or complete. Tournament: any down card dealt up on the '
    'initial deal is a misdeal (P25).',
)
_rule(
    'STUD-7TH-UP', IRREGULARITY, WARNING,
    '000 §7 r.17(a)–(b); 001 3.2.3.5.17.1–.2',
    'Seventh card dealt face up to a player. With more than 2 players, the rest get theirs face '
    'down, and the exposed player may declare all-in before the betting. This is a "freeze": he '
    'puts in no more, and the others bet into a side pot although he still has chips; do not '
    "flag that side pot as invalid. With 2 players: if the first player's card is up, the "
    "second's is also dealt up and betting is normal; if only the second player's is up, that "
    'player may declare all-in.',
)
_rule(
    'JACKS-OPENERS', ILLEGAL_BET, VIOLATION,
    '001 3.2.9.2, 3.2.9.3.3, 3.2.9.5.1, 3.2.9.5.8; 002 §12.2 "pair of jacks", "retain the '
    'opening hand"; 000 Gl. OPENERS',
    'Jacks or better: opening requires a pair of jacks or better. The opener must prove it, and '
    'any player may ask that the opening hand be kept and shown after the winner is decided.',
)
_rule(
    'DRAW-EXPOSED-ON-DRAW', PROCEDURE, WARNING,
    '000 §10 r.9, §11 r.8; 001 3.2.8.5.1.9, 3.2.10.5.8; 002 §11.1 "On the draw", §12.1 "On '
    'the draw"',
    'A card exposed during the draw may not be taken. The draw is completed to everyone in '
    'order, then the exposed card is replaced.',
)
_rule(
    'DRAWHI-EXPOSED-PREDRAW', PROCEDURE, WARNING,
    '000 §11 r.4; 001 3.2.10.5.3; 002 §12.1 "exposed by the dealer before"',
    'Draw high: a card exposed by the dealer before the draw must be kept.',
)
_rule(
    'A5-EXPOSED-LIMIT', PROCEDURE, WARNING,
    '000 §10 A5 r.3, §14 #8; 001 3.2.8.5.2.3, App II #8; 002 §11.2 "seven or under", §16.0 #8',
    'Limit A-5, before the draw: an exposed card of 7 or lower must be taken. One higher than 7 '
    'is replaced after the deal is complete, and that first exposed card becomes the burn card. '
    '(The explanations prefer the no-limit rule, under which a 6 or 7 is not taken.)',
)
_rule(
    'D27-EXPOSED', PROCEDURE, WARNING,
    '000 §10 D27 r.2; 001 3.2.8.5.3.2; 002 §11.3 "7, 5, 4, 3"',
    'Deuce-to-seven, before the draw: an exposed 7, 5, 4, 3 or 2 must be taken; any other card, '
    'including a 6, is replaced.',
)
_rule(
    'BBLOW-EXPOSED', PROCEDURE, WARNING,
    '000 §10 BBL r.2–3; 001 3.2.8.5.4.2–3; 002 §11.4 "(a)", "(b)", "After the draw, any"',
    'NL/PL lowball, before the draw: A-5 takes an exposed A, 2, 3, 4 or 5 and replaces anything '
    'else; 2-7 takes a 2, 3, 4, 5 or 7 and replaces anything else, including a 6. After the draw '
    'any exposed card is replaced.',
)
_rule(
    'ORDER-MISSISSIPPI', PROCEDURE, WARNING,
    '001 3.2.5.3.1–4, 3.2.5.5.1.1–2',
    'Mississippi stud: at limit, the lowcard brings in; at big-bet, the high card must bet or '
    'fold on round 1. Later rounds: the highest hand showing bets first (or checks, at '
    'big-bet).',
)
_rule(
    'BET-LIMIT-MISSISSIPPI', ILLEGAL_BET, VIOLATION,
    '001 3.2.5.5.1.2, .1.2.1, .1.2.2',
    'Mississippi stud at limit: ante, compulsory bring-in from the lowcard, and bets that '
    'typically double on the last two rounds. Low-ante example: ante 1, bring-in 2, bet 10 on '
    'rounds 1–2 and 20 on rounds 3–4. High-ante example: ante 4, bring-in 5, bet 10 on rounds '
    '1–2 and 20 on rounds 3–4.',
)
_rule(
    'BET-HALFPOT', ILLEGAL_BET, VIOLATION,
    '001 3.2.5.5.1.1',
    'Half-pot (Mississippi stud): the maximum bet is half the pot. The opening bet is at the '
    "opener's discretion, usually as small as one ante and up to half the total antes (pot limit: "
    'the total antes; NL: any amount). (derived) A raise counts the pot after the call, as at '
    'pot limit, and goes to at most the current bet plus half of it.',
)
_rule(
    'ORDER-STUD-COMMON', PROCEDURE, WARNING,
    '000 §7 r.15; 001 3.2.3.5.15',
    'When a common card is used on the last round (STUD-SHORT-DECK), the player who is high '
    'with the common card starts that round.',
)
_rule(
    'ORDER-STUD-7TH-UP', PROCEDURE, WARNING,
    '000 §7 r.17; 001 3.2.3.5.17',
    "If the dealer turns anyone's last card face up, the hand that is high on board using all "
    'upcards starts the action.',
)
_rule(
    'KILL-SIZE', ILLEGAL_BET, VIOLATION,
    '000 §12 intro, r.7, Gl. KILL; 001 3.6.1, 3.6.2.7, §2.2 KILL; 002 §13.0, §13.1 "part of '
    'the pot"',
    'A full kill is an overblind of 2×BB and doubles the betting limits. A half kill is 1.5×BB '
    'and raises the limits by 1.5×. Kill blinds are live and part of the pot.',
)
_rule(
    'KILL-VOLUNTARY-LOWBALL', PROCEDURE, WARNING,
    '000 §12 r.10; 001 3.6.2.10; 002 §13.1 "optional rule"',
    'Optional lowball rule: players may look at their first two cards and then decide to kill, '
    'but not once any player has a third card. A voluntary killer needs ≥4× the kill blind in '
    'his stack (BB 2, kill 4 → ≥16 chips) and acts last on the first round.',
)
_rule(
    'ORDER-KILL', PROCEDURE, WARNING,
    '000 §12 r.2, r.10; 001 3.6.2.2, 3.6.2.10; 002 §13.1 "proper turn", "act last"',
    'A required killer acts in normal turn (after the player on his right), not last. Under '
    'the optional lowball voluntary-kill rule the killer acts last on the first round.',
)
_rule(
    'KILL-ONE-PER-DEAL', PROCEDURE, VIOLATION,
    '000 §12 r.11; 001 3.6.2.11; 002 §13.1 "Only one kill"',
    'At most one kill per deal.',
)

_rule(
    'ORDER-STUD-ALLIN-STARTER', PROCEDURE, WARNING,
    '000 §7 r.4, §9 r.4; 001 3.2.3.5.8',
    'If the lowcard is all-in for the ante, or whoever should start a round is all-in, action '
    'starts with the next active player to his left (stud H-L: play on as if the all-in high '
    'hand had checked). USPA: the player to the lowcard\'s left may fold, bring in, or '
    'complete.',
)
_rule(
    'STUD-BRINGIN-ALLIN', ILLEGAL_BET, VIOLATION,
    '000 §7 r.4; 001 3.2.3.5.8',
    'A lowcard who can cover only part of the bring-in makes that wager, but everyone else '
    'must still come in for at least the normal amount. If the lowcard is all-in for the ante, '
    'see ORDER-STUD-ALLIN-STARTER.',
)
_rule(
    'ANTE-STUD', PROCEDURE, WARNING,
    '001 3.2.3.3.1, 3.2.4.3.1, 3.2.6.3.1, 3.2.7.3.1, 3.2.5.3.1; 004 ST/Intro; 000 Gl. ANTE',
    'In stud every dealt-in player antes before the deal, in cash games too.',
)
_rule(
    'ANTE-DRAW', PROCEDURE, WARNING,
    '000 §11 intro; 001 3.2.9.1, 3.2.10.1; 002 §12.0',
    'Draw high and jacks-or-better are played with a button and an ante.',
)
# Judged: a caller of an all-in opener short of the bet puts in the full bet. Not judged: the
# share of a player with only a full ante after a passed deal, since a hand's events are one
# deal and no event carries the antes of a passed deal into the next (nor who matched them).
_rule(
    'DRAWHI-ALLIN-ANTES', ILLEGAL_BET, VIOLATION,
    '000 §11 r.13–14; 001 3.2.10.5.12–13; 002 §12.1 "playing for just"',
    'If an all-in player playing only for the antes opens, every caller must still put in the '
    'full opening bet. A player with only a full ante may play for the antes; if nobody opens '
    'and another ante goes in, he plays for the part he matched without adding money.',
)
_rule(
    'ORDER-DRAW-AFTER', PROCEDURE, WARNING,
    '000 §11 intro; 001 3.2.9.1, 3.2.10.1; 002 §12.0',
    'Draw high and jacks: the opener acts first after the draw, or the next active player '
    'clockwise if the opener folded.',
)
_rule(
    'STUD-WRONG-LOWCARD', PROCEDURE, WARNING,
    '000 §7 r.5; 001 3.2.3.5.9',
    'If the wrong player is named low and bets: if the next player has not yet acted, the '
    'action moves to the true lowcard, who must bet, and the wrong player takes his wager '
    'back. If the next player has acted, the wager stands, play continues, and the true '
    'lowcard owes nothing.',
)
_rule(
    'MISS-STRUCTURE', IRREGULARITY, WARNING,
    '001 3.2.5.2–3.2.5.4',
    'Mississippi stud: ante; 2 down + 1 up, round 1; two more upcards each, round 2; a 4th '
    'upcard, round 3; a 5th upcard, round 4; showdown (7 cards: 2 down, 5 up). Best 5 of 7.',
)
_rule(
    'FIVESTUD-STRUCTURE', IRREGULARITY, WARNING,
    '001 3.2.4.1–3.2.4.5.1',
    'Five-card stud: ante; 1 down + 1 up, round 1; then one upcard at a time with a round '
    'after each (4 rounds in all); best five. Otherwise the seven-card stud rules apply.',
)
_rule(
    'LOWBALL-OPEN', ILLEGAL_BET, VIOLATION,
    '000 §10 intro; 001 3.2.8.1, 3.2.8.3.3; 002 §11.0',
    'Lowball first round: players must open with a bet or fold (no checking, apart from the '
    "blind's option). Depending on the structure, the BB may simply be called, or the minimum "
    'open is 2×BB (profile.lowball_min_open ∈ {BB, 2BB}).',
)
_rule(
    'ORDER-DRAW-PHASE', PROCEDURE, WARNING,
    '000 §10 r.9, §11 r.8; 001 3.2.8.5.1.9, 3.2.10.5.8; 002 §11.1 "On the draw"',
    'Draw requests are served to each player in order (derived: clockwise from the first '
    'active player left of the button). An exposed draw card is replaced only after everyone '
    'has drawn (DRAW-EXPOSED-ON-DRAW).',
)
_rule(
    'DRAW-SHORT-PREDRAW', IRREGULARITY, WARNING,
    '000 §10 r.12; 001 3.2.8.5.1.11; 002 §11.1 "Five cards constitute"',
    'Lowball: a player short of five cards before the draw gets the missing cards only if the '
    'first player to act has not acted (unless that action came before the deal was '
    'complete); the dealer position may still get its missing 5th card after action. '
    'Otherwise he draws up to five. Draw high: see MISDEAL-DRAW-SHORT.',
)
_rule(
    'JACKS-SPLIT-OPENERS', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.9–10; 002 §12.2 "split openers", "not splitting"; 000 Gl. SPLITTING OPENERS',
    'A player may split his openers, but must say so and put his discards under a chip for the '
    'dealer to expose after the hand. If his final hand plus discards could not have held '
    'openers, he loses the pot. Keeping the openers is not splitting (e.g. A♠-Joker-K♠-Q♠-T♣ '
    'throwing the T♣ keeps A-Joker = two aces).',
)
# Judged from the cards logged when the opener opened and from what the house paid (awards,
# returned bets); who may declare the pot open and when the false openers were shown are not
# in the event schema, nor are chips carried to the next deal (audit/replay/family/jacks.py).
_rule(
    'JACKS-FALSE-OPENER', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.2; 002 §12.2 "false openers"',
    "False openers shown before the draw: the opener's hand is dead and his opening bet stays "
    'in the pot; his other bets may be withdrawn if the pre-draw action is not complete. Any '
    'other active player who did not pass openers may declare the pot open. If nobody does, '
    "all bets except the opener's first bet are returned; that bet and the antes stay for the "
    'next deal, which is open only to the players in this hand (after anteing again).',
)
_rule(
    'JACKS-POT-PLAYS', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.4, 3.2.9.5.6; 002 §12.2 "In all cases", "may not withdraw"',
    'The pot plays even if the opener shows or declares a foul, provided there was a raise, or '
    'two or more players called the opening bet, or all pre-draw action was complete. Once '
    'pre-draw action is complete, the opener may not withdraw any bet.',
)
_rule(
    'STUD-BURN-ERROR', IRREGULARITY, WARNING,
    '000 §7 r.13; 001 3.2.3.5.13',
    'A double burn or a missed burn is corrected so cards reach their proper positions. On the '
    'final down card, a card mixed with the hole cards or looked at must be kept.',
)
_rule(
    'LOWBALL-MISCALL', WRONG_AWARD, VIOLATION,
    '000 §10 r.15; 001 3.2.8.5.1.15; 002 §11.1 "Cards speak"',
    'Cards speak, but a player may not claim a better hand than he holds: a player who calls '
    '"8" must show an 8-low or better; a wrong second card (e.g. calling 8-6 with 8-7) carries '
    "no penalty. A miscall that makes another player foul his hand makes the miscaller's hand "
    'dead; in a multiway pot a miscalled hand is dead and the best remaining hand wins. If both '
    'hands stay intact, the best hand wins.',
)
_rule(
    'LOWBALL-PAIR-CALL', WRONG_AWARD, VIOLATION,
    '000 §10 r.16; 001 3.2.8.5.1.16; 002 §11.1 "announce \"pair\""',
    'A player who spreads a hand containing a pair must say "pair", or risk losing the pot if '
    'that makes another player foul; if the hands stay intact, the best hand wins.',
)

# The stud/draw ids the replay can emit; each has a fixture under fixtures/rules/<ID>.txt.
STUD_DRAW_RULE_IDS: tuple[str, ...] = (
    # stud: bring-in and action order
    "STUD-BRINGIN-LOWCARD", "STUD-BRINGIN-OPTIONS", "STUD-BRINGIN-AMOUNT",
    "ORDER-STUD-FIRST", "ORDER-STUD-LATER", "ORDER-RAZZ", "ORDER-STUDHL", "ORDER-5STUD",
    # stud: limits by street and the open pair
    "BET-LIMIT-STUD-STREETS", "BET-STUD-OPENPAIR", "RAZZ-NO-OPENPAIR", "STUDHL-NO-OPENPAIR",
    "BET-LIMIT-5STUD",
    # stud: cards and odd chips
    "STUD-PREMATURE", "STUD-CARD-COUNT", "POT-ODDCHIP-STUD",
    # draw games
    "BET-LIMIT-DRAW-DOUBLE", "BET-CAP-TWOROUND", "DRAW-FIVE-CARD-HAND", "A5-CHECKRAISE",
    # kill pots (per hand; who must kill is table state across hands)
    "KILL-SIZE", "KILL-ONE-PER-DEAL", "KILL-VOLUNTARY-LOWBALL", "ORDER-KILL",
    # lowball rules
    "A5-SEVENS-RULE",
    # the draw
    "DRAW-MAX-FOUR",
    # stud cards dealt the wrong way, and the common card
    "STUD-SHORT-DECK", "STUD-EXPOSED-START", "STUD-7TH-UP", "ORDER-STUD-COMMON",
    "ORDER-STUD-7TH-UP",
    # jacks or better
    "JACKS-OPENERS",
    # cards the dealer exposes in the draw games
    "DRAW-EXPOSED-ON-DRAW", "DRAWHI-EXPOSED-PREDRAW", "A5-EXPOSED-LIMIT", "D27-EXPOSED",
    "BBLOW-EXPOSED",
    # Mississippi stud (limit), and its half-pot maximum (structure half_pot)
    "ORDER-MISSISSIPPI", "BET-LIMIT-MISSISSIPPI", "MISS-STRUCTURE", "BET-HALFPOT",
    # five-card stud
    "FIVESTUD-STRUCTURE",
    # all-in forced wagers and all-in starters
    "ORDER-STUD-ALLIN-STARTER", "STUD-BRINGIN-ALLIN", "STUD-WRONG-LOWCARD",
    # antes in the ante games (audit/replay/family/stud_antes.py)
    "ANTE-STUD", "ANTE-DRAW",
    # draw high and jacks: an all-in opener playing for the antes
    "DRAWHI-ALLIN-ANTES",
    # draw high and jacks: the opener acts first after the draw
    "ORDER-DRAW-AFTER",
    # lowball: open with a bet or fold before the draw
    "LOWBALL-OPEN",
    # the draw is served in order
    "ORDER-DRAW-PHASE",
    # lowball: a hand short before the draw
    "DRAW-SHORT-PREDRAW",
    # jacks or better: split openers judged from the final hand and the discards
    "JACKS-SPLIT-OPENERS",
    # jacks or better: a false opener's dead hand, and the pot that plays in spite of it
    "JACKS-FALSE-OPENER", "JACKS-POT-PLAYS",
    # stud: a missed or double burn (where burns are logged)
    "STUD-BURN-ERROR",
    # lowball: a hand called better than it is at the showdown (`declare` events)
    "LOWBALL-MISCALL", "LOWBALL-PAIR-CALL",
)

# Stud/draw rules decided within the checks of registered ids: catalogued here, not
# registered twice; audit/rules/coverage.py names the deciding ids and
# fixtures/rules/within/<ID>.txt proves each (tests/test_rule_coverage.py).
_rule(
    'STUD-COMPLETE', ILLEGAL_BET, VIOLATION,
    '000 §7 r.6, Gl. COMPLETE THE BET; 001 3.2.3.5.3, §2.2 COMPLETE THE BET',
    'Raising the bring-in to a full bet is a completion, not a raise. After it, the full raise '
    'count is still available (e.g. $15–$30 with a $5 bring-in: completed to $15, then up to 3 '
    'raises under a three-raise cap).',
)
_rule(
    'STUD-BOARD-BEATEN-CALL', WRONG_AWARD, VIOLATION,
    '000 §7 r.19; 001 3.2.3.5.19',
    "Calling when already beaten by the opponent's upcards gets no refund. Do not \"correct\" "
    'such a call.',
)
_rule(
    'JACKS-NO-REFUND', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.11; 002 §12.2 "cannot beat openers"',
    'A player who calls the opener after the draw and cannot beat openers gets no refund.',
)
_rule(
    'ORDER-LOWBALL', PROCEDURE, WARNING,
    '000 §3 intro, §10 r.1; 001 3.5.1, 3.2.8.5.1.1',
    '(derived) Lowball uses button-game order: first round from the left of the blinds (killer '
    'per ORDER-KILL), after the draw from the first active player left of the button.',
)
_rule(
    'DRAWHI-OPEN', ILLEGAL_BET, VIOLATION,
    '000 §11 intro; 001 3.2.10.1, 3.2.9.1; 002 §12.0',
    'Draw high: in turn, a player may check, open for the minimum, or open with a raise. Some '
    'games let a player open on any hand; others require jacks or better (JACKS-*).',
)
# Permissions no log can break; the bans they lift are scoped so they hold by construction
# (audit/rule_coverage.PERMISSIONS; fixtures/rules/permitted/ and tests/test_stud_within.py show
# the permitted play drawing no finding):
#   DRAWHI-CHECKRAISE, D27-CHECKRAISE, BBLOW-NO-SEVENS: A5-CHECKRAISE and A5-SEVENS-RULE apply
#   to fixed-limit ace-to-five lowball only.
#   STUD-ALLIN-HOLECARD-UP: an all-in player's seventh card dealt face up is never a
#   STUD-7TH-UP finding (he keeps it; the others get their normal card).
#   STUD-FOLD-NO-WAGER: a hand folded with no wager pending may go on being dealt cards; its
#   seat stays in the deal order and the replay takes those cards without a finding.

for _id in STUD_DRAW_RULE_IDS:
    _spec = CATALOG[_id]
    register(_id, category=_spec.category, severity=_spec.severity, citation=_spec.citation,
             text=_spec.text)

# --- §4.17 Conduct and collusion patterns (cross-hand, level X: leads with evidence) ------------
# Catalogued after BUTTON_GAME_RULE_IDS: these are not per-hand replay rules. audit/collusion
# emits them as `collusion` findings of severity warning (a lead, never a verdict).

COLLUSION = Category.COLLUSION
_rule(
    "PATTERN-COLLUSION", COLLUSION, WARNING,
    "000 §1 Conduct Code; 001 1.3.1.2.1, 1.4; 003 (1)Conduct Code; 004 §1 Conduct Code, "
    "§2 Dupe Accounts",
    "Collusion and cheating are banned; signals are shared seating history, joint raising that "
    "traps third players, unusual folds to each other and profit flowing between the same "
    "accounts.",
)
_rule(
    "PATTERN-SOFTPLAY", COLLUSION, WARNING,
    "000 §1 Etiquette, Gl. SOFTPLAY; 004 §1 Etiquette",
    "Soft play, not betting good hands and not bluffing against one particular opponent when "
    "heads-up, is a form of collusion.",
)
_rule(
    "PATTERN-CHECKDOWN-ALLIN", COLLUSION, WARNING,
    "000 §1 Etiquette; 001 1.3.2.3; 003 (1)Etiquette; 004 §1 Etiquette",
    "Agreeing to check a hand down when a third player is all-in is improper.",
)
_rule(
    "PATTERN-WHIPSAW", COLLUSION, WARNING,
    "000 §14 #6; 001 App II #6; 002 §16.0 #6",
    "Two players repeatedly re-raising each other while a third player is caught calling in "
    "between is the collusion that raise caps exist to limit.",
)
_rule(
    "PATTERN-CHIP-DUMP", COLLUSION, WARNING,
    "004 §2 Dupe Accounts",
    "Chip dumping, deliberately losing chips to a partner, is banned.",
)

# The ids audit/collusion can emit (cross-hand leads and the per-hand check-down pattern).
COLLUSION_RULE_IDS: tuple[str, ...] = (
    "PATTERN-COLLUSION", "PATTERN-SOFTPLAY", "PATTERN-CHECKDOWN-ALLIN", "PATTERN-WHIPSAW",
    "PATTERN-CHIP-DUMP",
)

for _id in COLLUSION_RULE_IDS:
    _spec = CATALOG[_id]
    register(_id, category=_spec.category, severity=_spec.severity, citation=_spec.citation,
             text=_spec.text)

# --- §4.10 Live tables: the physical layer (declare, chips) ---------------------------------------
_rule(
    "DRAW-CHANGE-COUNT", PROCEDURE, WARNING,
    '000 §10 r.11, §11 r.7; 001 3.2.8.5.1.12, 3.2.10.5.6; 002 §11.1 "change the number", '
    '§12.1 "change the number"',
    "A player may change how many cards he draws only if no card has been dealt for his "
    "request and no player has acted (bet or stated a draw) on the basis of it.",
)
# Checked by audit/replay/live/tracker.py only in hands that carry `declare` or `chips`
# events, so online logs never get them. TURN-OOT-* and CHIP-SHORT-CALL are registered with the
# replay above; the live layer also rules on out-of-turn declarations under those ids.
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

for _id in LIVE_RULE_IDS:
    _spec = CATALOG[_id]
    register(_id, category=_spec.category, severity=_spec.severity, citation=_spec.citation,
             text=_spec.text)

# --- §4.6 across hands: one table's deals in order (level S) -------------------------------------
# Checked by audit/sequence/table.py, a pure function over the hands of a table, not by the
# per-hand replay; session-level ids stay outside CATALOG (the F/P button-game catalogue). Their
# fixtures/rules/<ID>.txt hold one table's deals in order.
TABLE_SEQUENCE_RULE_IDS: tuple[str, ...] = (
    "BUTTON-MOVE", "BLIND-MISSED-UNPOSTED",
    # required kill pots (audit/sequence/kill.py), registered at the end of this file
    "KILL-TRIGGER", "KILL-LEG2", "KILL-SCOOP-5X", "KILL-BUTTON-NEUTRAL", "KILL-SPLIT-LEG",
    "KILL-LEG-PERSIST", "KILL-MUST-POST", "KILL-NEW-PLAYER",
)

_spec = CATALOG["BLIND-MISSED-UNPOSTED"]
register(_spec.id, category=_spec.category, severity=_spec.severity, citation=_spec.citation,
         text=_spec.text)

register(
    "BUTTON-MOVE", category=PROCEDURE, severity=WARNING,
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
    ("KILL-TRIGGER", VIOLATION, "000 §12 intro; 001 3.6.1; 002 §13.0",
     "Required kill. Non-split games: winning two pots in a row (the kill button marks the last "
     "winner and stays with him until the next hand ends). High-low games: scooping a pot above "
     "a set size. The next hand is then a kill pot."),
    ("KILL-LEG2", WARNING, '000 §12 r.3; 001 3.6.2.3; 002 §13.1 "second \"leg\""',
     "The first leg has no pot-size requirement. The second leg qualifies only if the player won "
     "at least one full bet of the game's limit, not counting any part of the blind structure."),
    ("KILL-SCOOP-5X", WARNING, '000 §12 r.8; 001 3.6.2.8; 002 §13.1 "five times"',
     "Split-pot games with a kill provision: a scoop forces a kill on the next hand only if the "
     "pot was at least 5x the game's upper limit."),
    ("KILL-BUTTON-NEUTRAL", WARNING, '000 §12 r.1; 001 3.6.2.1; 002 §13.1 "neutral"',
     "The kill button belongs to no one on the first hand of a new game, when the last winner "
     "has left, or when the last pot was split between players who did not hold it."),
    ("KILL-SPLIT-LEG", VIOLATION, '000 §12 r.4; 001 3.6.2.4; 002 §13.1 "splits the next pot"',
     "A player with a leg up who splits the next pot keeps the leg. If the splitter was the "
     "killer on the previous hand, he must kill again."),
    ("KILL-LEG-PERSIST", VIOLATION, '000 §12 r.5; 001 3.6.2.5; 002 §13.1 "leaves the table"',
     "A leg survives leaving the table and returning."),
    ("KILL-MUST-POST", VIOLATION,
     '000 §12 r.6–7; 001 3.6.2.6–7; 002 §13.1 "required to post", "kill it again"',
     "A required kill must be posted on that very hand, even by a player who wants to quit or "
     "be dealt out; until it is posted he may not play in any game. A killer who wins again "
     "kills again, for the same amount."),
    ("KILL-NEW-PLAYER", WARNING, '000 §12 r.12; 001 3.6.2.12; 002 §13.1 "new player is not '
     'entitled"',
     "A new player may not play in a killed pot unless he agrees to kill the next pot."),
)

for _id, _severity, _citation, _text in _KILL_SEQUENCE_RULES:
    register(_id, category=PROCEDURE, severity=_severity, citation=_citation, text=_text)

# --- The remaining RULEBOOK ids ----------------------------------------------------------------
# Catalogued so the report can name every RULEBOOK id: meta and profile notes, session (S) and
# cross-hand (X) rules no check covers yet, the permissions the replay honours, and a few per-hand
# (F/P) rules. None is registered here; audit/rules/coverage.py gives each its status (decided
# within other ids, a permission honoured, or not checked and why).
_rule(
    'META-RULING-WINDOW', PROCEDURE, INFO,  # [S]
    '003 (2)Decision-Making r.4; 004 §2 House Policies (5th bullet); 001 App III §2 r.5',
    'A pot ruling may be requested only until the next deal starts (first riffle of the shuffle; '
    'online, the start of the next hand) or until the game ends or moves table. After that the '
    'result stands, and an auditor finding is informational only.',
)
_rule(
    'META-RECONSTRUCT', WRONG_AWARD, INFO,  # [F]
    '003 (2)Decision-Making r.5–6; 001 App III §2 r.6–7; 004 §2 House Policies (6th bullet, "check'
    ' the logs")',
    'If a pot was wrongly awarded and the request came in time, the betting may be reconstructed '
    "and the correct amounts transferred. This is the remedy the replay validator's output "
    'supports. Play may go on with the pot impounded while logs are checked.',
)
_rule(
    'META-DEAL-START', PROCEDURE, INFO,  # [F]
    '000 Gl. DEAL; 001 §2.2 DEAL, 3.3.2.8; 002 §15.0 "new limits apply"; 003 (2)Decision-Making '
    'r.4',
    'A deal runs from the shuffle (first riffle) until the pot is awarded. Tournament level '
    'changes take effect at the next deal after the signal.',
)
_rule(
    'META-TDA-DEFERRAL', PROCEDURE, INFO,  # [—]
    '000 Preface',
    'In the Montana profile, tournament rules are those of the current TDA, which is not among the'
    ' seeds. The TOURNAMENT overlay for Montana uses only the tournament parentheticals inside '
    '000.',
)
_rule(
    'DEAL-DECK-CHANGE', PROCEDURE, WARNING,  # [S]
    '003 (2)Procedures r.18; 001 App III §3 r.21, 3.3.2.21; 002 §15.0 "deck is not changed"',
    'A new deck must be used for at least one full round before it is changed (USPA: a new setup '
    'for at least one hour), unless it is damaged. In tournaments decks change with the dealer, '
    'never on request.',
)
_rule(
    'MISDEAL-DRAW-SHORT', IRREGULARITY, WARNING,  # [F]
    '000 §11 r.5; 001 3.2.10.5.4; 002 §12.1 "Five cards constitute"',
    'Draw high: a player other than the button with fewer than 5 cards before any action → '
    'misdeal. After action he draws to five; the button may receive its 5th card even after '
    'action.',
)
_rule(
    'BUTTON-CORRECTION', PROCEDURE, WARNING,  # [S]
    '000 §2 Irreg r.1; 001 3.1.6.1',
    'If the button was wrong on the previous hand, the button and blinds are corrected on the new '
    'hand so that every player gets one chance at each position in the round.',
)
_rule(
    'BLIND-NEW-PLAYER', PROCEDURE, WARNING,  # [S]
    '000 §3 r.4–6; 001 3.5.2.4–6; 002 §11.1 "new player"; 000 §10 r.3; 001 3.2.8.5.1.3',
    'A new player either waits for the BB or posts an amount equal to the BB and is dealt in at '
    'once. In lowball he must post 2×BB (a kill) or wait. Someone playing over is a new player. A '
    'new player who lets the button pass once is not treated as having missed blinds and posts '
    'only the BB.',
)
_rule(
    'BLIND-NEW-PLAYER-WINDOW', PROCEDURE, WARNING,  # [S]
    '000 §3 r.7, §14 #5; 001 3.5.2.7, App II #3; 002 §16.0 #3',
    'A new player may not be dealt in between the BB and the button, and blinds may not be made up'
    ' there: he waits until the button passes. All three explanation texts say allowing it would '
    'be better, so this should be a profile toggle (default: prohibit).',
)
_rule(
    'BLIND-ALLIN-MAKEUP', PROCEDURE, WARNING,  # [S]
    '000 §3 r.12; 001 3.5.2.11',
    'A player who went all-in, lost and missed blinds must make them up before rebuying; he is not'
    ' a new player.',
)
_rule(
    'BLIND-NEW-GAME', PROCEDURE, WARNING,  # [S]
    '000 §3 r.13; 001 3.5.2.12',
    'In a newly started game: (a) anyone who drew for the button is active and owes any blinds he '
    'misses; (b) a new player need not post until the button has gone round once, unless a blind '
    'has already passed his seat; (c) seat changes carry no penalty unless a blind has passed the '
    'new seat.',
)
_rule(
    'BLIND-SEAT-CHANGE', PROCEDURE, WARNING,  # [S]
    '000 §3 r.14–15, §10 r.7; 001 3.5.2.13, 3.2.8.5.1.7',
    'In multi-blind games a player who changes seats is dealt in at the first hand in the same '
    'position relative to the BB (e.g. moving two positions further away means waiting two hands).'
    ' Moving closer to the BB carries no penalty. He may instead post a BB if he has not missed a '
    'blind. Lowball: kill the pot, wait for the same relative position, or wait for the BB.',
)
_rule(
    'BLIND-DEAL-OFF', PROCEDURE, WARNING,  # [S]
    '000 §3 r.16; 001 3.5.2.14',
    'A player who "deals off" (plays the button, then moves seat) may let the blinds pass his new '
    'seat once and re-enter behind the button without posting.',
)
_rule(
    'BLIND-SINGLE-LOWBALL', PROCEDURE, WARNING,  # [F/S]
    '000 §10 r.4–6; 001 3.2.8.5.1.4–6; 002 §11.1 "single-blind"',
    'In single-blind (lowball) games, half a blind or more counts as a full blind. A player with '
    'less than half a blind may be dealt in, but the next player must then take the blind; if the '
    'short player wins or rebuys, he must take the blind next deal or sit out until due for the '
    'BB. A player who fails to take the blind may only be dealt in on the blind.',
)
_rule(
    'BLIND-LOWBALL-PASSED', PROCEDURE, WARNING,  # [S]
    '000 §10 r.7; 001 3.2.8.5.1.7; 002 §11.1 "multiple-blind"',
    "Multi-blind lowball: if the BB passes a player's seat (for any reason), he waits for the BB "
    'or kills the pot. This does not apply to a player who took all his blinds and then changed '
    'seats; he re-enters when his position entitles him (the button may pass him once without '
    'penalty).',
)
_rule(
    'ANTE-DRAW-ANYTIME', PROCEDURE, WARNING,  # [S]
    '000 §11 r.11–12, §2 Irreg r.6; 001 3.2.10.5.10–11, 3.1.6.6; 002 §12.1 "change your seat", '
    '"pay the ante"',
    'In draw, a player may pay the ante (single or multiple) at any time and get a hand, unless '
    'the pot holds money forfeited in a hand he was not in. He may not change seats between hands '
    'while multiple antes or forfeited money are in the pot. Generally, when the pot holds money '
    'forfeited on the previous deal, only players dealt into that deal get a hand.',
)
_rule(
    'BET-CHECKRAISE', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §2 B&R r.2; 001 3.1.7.1',
    'Check-raise is allowed in all games except certain lowball forms (`A5-CHECKRAISE`).',
)
_rule(
    'BET-NL-MAX-BUYIN', PROCEDURE, WARNING,  # [S]
    '000 §13 NL r.14',
    'The house may set a maximum buy-in for big-bet games.',
)
_rule(
    'STUD-FOLD-NO-WAGER', PROCEDURE, WARNING,  # [F]
    '000 §7 r.9; 001 3.2.3.5.7',
    'A hand folded when no wager is pending keeps receiving cards (the seat stays in the deal '
    'order) until a bet kills it. Deal-order checks must still count that seat.',
)
_rule(
    'STUD-UPCARDS-FOLD', PROCEDURE, WARNING,  # [P]
    '000 §7 r.10, §2 DH r.1(c); 001 3.2.3.5.10, 3.1.5.1.3; 003 (3)Dead Hands r.1(c)',
    'Facing a bet, picking up the upcards, turning them face down, or mixing them with the down '
    'cards is a fold. After the betting is over it means nothing.',
)
_rule(
    'STUD-ALLIN-HOLECARD-UP', IRREGULARITY, WARNING,  # [F]
    '000 §7 r.16; 001 3.2.3.5.16',
    "An all-in player's hole cards should be dealt face down. If his final hole card is dealt up, "
    'he keeps it and the others get their normal card.',
)
_rule(
    'STUD-ABSENT', PROCEDURE, WARNING,  # [F]
    '000 §7 r.8; 001 3.2.3.5.6',
    'An absent player forfeits his ante and any forced bet; his hand is killed when the betting '
    'reaches his seat (tournament variants: P26).',
)
_rule(
    'DRAW-ASKED-COUNT', PROCEDURE, WARNING,  # [P]
    '000 §10 r.13, §11 r.9; 001 3.2.8.5.1.13, 3.2.10.5.7; 002 §11.1 and §12.1 "how many cards"',
    'Until there is action after the draw, a player (and the dealer) must say how many cards he '
    'drew if an active player asks; after that, the dealer may not answer.',
)
_rule(
    'DRAWHI-CHECKRAISE', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §11 r.2; 001 3.2.10.5.2; 002 §12.1 "Check-raise is permitted"',
    'Draw high: check-raise is allowed before and after the draw.',
)
_rule(
    'D27-CHECKRAISE', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §10 D27 r.3–4; 001 3.2.8.5.3.3; 002 §11.3 "Check-raise is allowed"',
    'Deuce-to-seven: check-raise is allowed on any hand after the draw, and a seven or better need'
    ' not bet (no sevens rule).',
)
_rule(
    'BBLOW-NO-SEVENS', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §10 BBL r.1, r.4–5; 001 3.2.8.5.4.1, .4–.5; 002 §11.4',
    'NL/PL lowball: any hand may be checked after the draw without penalty (no sevens rule), and '
    'check-raise is allowed. The NL/PL betting rules apply.',
)
_rule(
    'JACKS-PASSED-OUT', PROCEDURE, WARNING,  # [S]
    '001 3.2.9.5.1, 3.2.9.3.3; 002 §12.2 "three consecutive"',
    "If nobody opens, the button moves on and everyone antes again, until the game's limit of "
    'antes is reached (most games: three consecutive deals).',
)
_rule(
    'JACKS-ALLIN-OPEN', PROCEDURE, WARNING,  # [S]
    '001 3.2.9.5.3, 3.2.9.5.5; 002 §12.2 "all in for just the ante", "legally declared"',
    'A player all-in for the ante (or part of it) may open if he holds openers. If he opens '
    'falsely, he loses his ante money and may not play again until someone else has legally opened'
    ' and won a pot, even if he rebuys. A player who declares the pot open must prove openers to '
    'win.',
)
_rule(
    'KILL-UNAWARE', ILLEGAL_BET, VIOLATION,  # [F/P]
    '000 §12 r.9; 001 3.6.2.9; 002 §13.1 "unaware that the pot"',
    'A player who put in too little because he did not know the pot was killed must make up the '
    'amount if it is a required kill with the kill button face up; otherwise he may withdraw and '
    'reconsider.',
)
_rule(
    'KILL-GAME-TYPE', PROCEDURE, INFO,  # [S]
    '000 §12 r.13; 001 3.6.2.13; 002 §13.1 "Broken game"',
    'A game with a required kill counts as a different game type when deciding broken-game status.',
)
_rule(
    'TOURN-DEAD-BUTTON', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "remains in position"; 001 3.3.2.23',
    'The button stays where it is until the right blinds have been posted; every player posts '
    'every blind each round, so the button may sit in front of the same player for two hands.',
)
_rule(
    'TOURN-NEW-PLAYER', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "New players"; 001 3.3.2.24',
    'New players are dealt in at once, unless they sit in the SB or button seat, in which case '
    'they wait for the button to pass.',
)
_rule(
    'TOURN-STUD-MISDEAL', IRREGULARITY, VIOLATION,  # [F]
    '002 §15.0 "At stud"; 001 3.3.2.26, 3.2.3.5.5; 000 §7 r.1',
    'Stud: a down card dealt face up on the initial deal → misdeal.',
)
_rule(
    'TOURN-BUST-ORDER', WRONG_AWARD, VIOLATION,  # [F]
    '002 §15.0 "go broke"; 001 3.3.2.29',
    'Players eliminated on the same hand are placed in order of their stacks at the start of that '
    'hand, the larger stack finishing higher.',
)
_rule(
    'TOURN-CHIP-RACE', PROCEDURE, WARNING,  # [P]
    '002 §15.0 "odd chips"; 001 3.3.2.9',
    'Colouring up: chips of the smallest denomination that are enough for a new chip are changed '
    'up directly. For the odd ones, each player gets one card per odd chip, dealt clockwise from '
    'seat 1, each player receiving all his cards before the next. Highest card by suit exchanges '
    'first, then the next, until all are gone. The last odd lot gets a new chip if its holder has '
    'at least half the needed quantity, otherwise nothing.',
)
_rule(
    'TOURN-BALANCE', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "reasonably balanced", "redraw"; 001 3.3.2.13–15',
    'Table sizes are kept within 2 players when there are more than 6 tables, and within 1 when '
    'there are 6 or fewer. Tables break in a preset order. Seats are redrawn at 3, 2 and 1 tables '
    'remaining (the 3-table redraw is optional if the event started with 4–5 tables).',
)
_rule(
    'TOURN-SEAT-LOCK', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "change of seat"; 001 3.3.2.2–3',
    'Seats are drawn at random or assigned; no seat change once play starts, except by the '
    'director.',
)
_rule(
    'TOURN-REBUY-DECLARED', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "intent to rebuy"; 001 3.3.2.27',
    'A player who announces a rebuy before the cards are dealt is playing behind and must make it.',
)
_rule(
    'TOURN-HIDDEN-CHIPS', PROCEDURE, WARNING,  # [P]
    '002 §15.0 "hidden"; 001 3.3.2.16',
    'A player who went all-in, lost, and then finds hidden chips is eliminated if the opponent '
    'could have covered them. Before the next deal the director may award them to the winner; '
    'after it they are removed.',
)
_rule(
    'HOUSE-BUYIN-MIN', PROCEDURE, WARNING,  # [S]
    '000 §2 Buy-In r.1–3; 001 3.1.3.1–3; 003 (3)Buy-In r.1–2',
    'Full buy-in: at limit ≥10× the maximum bet; at big-bet ≥40× the minimum bring-in (003). Only '
    'one short buy-in is allowed (per game, or per session in 003). A player forced over from a '
    'broken or must-move game of the same limit may keep playing a short stack; a player switching'
    ' voluntarily needs a proper buy-in (P29).',
)
_rule(
    'HOUSE-RATHOLE', PROCEDURE, WARNING,  # [S]
    '003 (2)Procedures r.5; 001 App III §3 r.5; 004 §2 Procedures',
    'A player who cashes out and returns to the same game within the window must buy in for at '
    'least the amount he took off the table (P30).',
)
_rule(
    'HOUSE-AWAY', PROCEDURE, INFO,  # [S]
    '003 (2)Procedures r.17; 001 App III §3 r.19',
    'Chips may be picked up after an absence of more than 15 min (003) or 30 min (001); frequent '
    'absences may also lead to removal.',
)
_rule(
    'HOUSE-STAKES-CHANGE', PROCEDURE, INFO,  # [S]
    '003 (2)Procedures r.1; 001 App III §3 r.16',
    'The agreed game or limit is not changed if more than one player objects (USPA: two or more; '
    'raising the limit needs host approval).',
)
_rule(
    'HOUSE-ONE-PLAYER-ONE-HAND', COLLUSION, WARNING,  # [X]
    '003 (2)Procedures r.8–10; 001 App III §3 r.8–9, r.11; 004 §2 Procedures, §2 Dupe Accounts',
    "One person per hand; nobody plays another player's chips; online, one account per person. "
    'Playing over is allowed only with permission.',
)
_rule(
    'HOUSE-NO-PUSHING-BETS', COLLUSION, WARNING,  # [X]
    '003 (2)Procedures r.11; 001 App III §3 r.12; 000 Gl. PUSHING BETS, POTTING OUT',
    'Pushing or saving bets and "potting out" are not allowed.',
)
_rule(
    'HOUSE-SEPARATED-PLAYERS', PROCEDURE, WARNING,  # [S]
    '004 §2 Seating; 001 App III §4 r.5',
    'The house may forbid two given players (spouses, relatives, partners) from sitting in the '
    'same game. The auditor can check seatings against an association list.',
)
_rule(
    'PATTERN-DELIBERATE-OOT', COLLUSION, WARNING,  # [X]
    '000 §1 Etiquette, §2 B&R r.11; 001 1.3.2.1, 3.1.7.10; 003 (1)Etiquette',
    "Deliberately acting out of turn is improper. Detect: a player's out-of-turn rate, and out-of-"
    'turn actions that benefit a frequent partner.',
)
_rule(
    'PATTERN-MULTI-ACCOUNT', COLLUSION, WARNING,  # [X]
    '004 §2 Dupe Accounts',
    'Duplicate accounts are banned. Detect: correlated identities (device/IP), never sitting '
    'together, tells reused across accounts.',
)
_rule(
    'PATTERN-BOT-RTA', COLLUSION, WARNING,  # [X, partial]
    '004 §2 Prohibited Tools',
    'Banned online: bots, real-time advice tools, and services that feed hole-card data to others.'
    ' Signals: decision-time regularity, superhuman consistency, play as if with knowledge of '
    "others' hole cards.",
)
_rule(
    'PATTERN-STALLING', COLLUSION, WARNING,  # [X, partial]
    '000 §1 Etiquette; 001 1.3.2.6; 003 (1)Etiquette; 004 §1 Etiquette',
    'Needlessly stalling the game is improper. Per-player decision-time outliers can be measured; '
    '"needless" is a judgment.',
)
_rule(
    'PATTERN-TABLE-TALK', COLLUSION, WARNING,  # [P]
    '000 §1 Etiquette; 001 1.3.2.5, 1.3.2.9, App III §3 r.27; 003 (1)Etiquette, (2)Procedures '
    'r.23; 004 §1 Etiquette, §2 Procedures',
    'Needs chat or voice logs. Forbidden: revealing a live hand in a multiway pot before the '
    'betting ends; revealing a folded hand during the deal (000, 004); statements that could '
    'unfairly influence play; speaking a non-English or foreign language during a deal (004 allows'
    ' it if the whole table shares the language).',
)
_rule(
    'PATTERN-MISCALL', COLLUSION, WARNING,  # [P]
    '000 §2 SD r.2; 001 3.1.8.2',
    'Deliberately miscalling a hand to make an opponent discard a winner.',
)
_rule(
    'PATTERN-FREEROLL', COLLUSION, WARNING,  # [P]
    '000 §2 Irreg r.5; 001 3.1.6.5',
    'A player who knows the deck is defective must say so; betting aggressively instead (a '
    '"freeroll") may cost him the refund. Detect: a raise by a player who was dealt a duplicated '
    'card.',
)
_rule(
    'PATTERN-SITOUT-OK', PROCEDURE, INFO,  # [—]
    '004 §1 Sitting Out',
    'Sitting out (folding every hand while still paying blinds and antes) is legal in 004. Do not '
    'flag it.',
)
# §5 evaluators the stud and draw games use; checked within the award and order rules
_rule(
    "EVAL-SUIT-ORDER", PROCEDURE, WARNING,
    '000 §2 Ties r.1–2; 001 3.1.9.1–2; 004 ST/Play, RZ; 003 (2)Seating r.1; 002 §15.0 "highest '
    'card by suit"',
    "Suits rank spades, hearts, diamonds, clubs, and only for card-level ties: the stud "
    "bring-in, odd chips in stud, drawing for the button or a seat, table moves and the chip "
    "race; never for a pot tie.",
)
_rule(
    "EVAL-LOW-A5", WRONG_AWARD, VIOLATION,
    "000 §10 A5 intro & r.1, §8 intro, Gl. JOKER; 001 3.2.8.5.2, 3.2.8.5.2.1, 3.2.6.1–2, "
    "§2.2 JOKER; 002 §9.0, §9.1, §11.2; 004 RZ",
    "Ace-to-five low: the ace is the lowest card, straights and flushes do not count, unpaired "
    "hands beat paired ones and the highest card is compared first; the joker is the lowest "
    "rank not already in the hand.",
)
_rule(
    "EVAL-LOW-27", WRONG_AWARD, VIOLATION,
    "000 §10 D27 intro & r.1, Gl. KANSAS CITY LOWBALL; 001 3.2.8.5.3, 3.2.8.5.3.1, §2.2 KANSAS "
    "CITY LOWBALL; 002 §11.3",
    "Deuce-to-seven low: the worst conventional high hand wins; aces are high only and "
    "straights and flushes count against the hand, so 5-4-3-2-A is ace high.",
)
_rule(
    "EVAL-JOKER-HIGH", WRONG_AWARD, VIOLATION,
    "000 §11 Joker r.1–4, Gl. JOKER; 001 §2.2 JOKER, 3.2.9.5.10; 002 §12.3, §12.2 \"retain "
    "openers\"",
    "In draw high the joker plays only as an ace or to complete a straight, flush or straight "
    "flush; five aces is the best hand.",
)
_rule(
    "EVAL-BOARD", PROCEDURE, WARNING,
    "(derived) 000 §7 r.12; 001 3.2.3.5.12",
    "Stud action order ranks the upcards showing by pairs, trips and quads, then high cards; "
    "possible straights and flushes are ignored, razz ranks them low, ties go by position.",
)
