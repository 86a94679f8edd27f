"""The catalogue, button games (RULEBOOK §4.2–§4.5): deck, dealing and card integrity,
misdeals, burn cards and the board, dead hands.
"""

from __future__ import annotations

from audit.rules.catalog.base import CRITICAL, IRREGULARITY, PROCEDURE, VIOLATION, WARNING, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "DECK_SIZE", "DEAL_ORDER", "DEAL_DUPLICATE_CARD", "DEAL_FOREIGN_BACK", "DEAL_MISSING_CARDS",
    "DEAL_BOXED_CARD", "DEAL_JOKER_STRAY", "DEAL_EXTRA_CARD", "DEAL_PREMATURE",
    "DEAL_EXPOSED_GENERAL", "DEAL_STUB_FOULED", "DEAL_SHUFFLE_CUT", "MISDEAL_CUTOFF",
    "MISDEAL_COND_A", "MISDEAL_COND_B", "MISDEAL_COND_C", "MISDEAL_COND_D", "MISDEAL_COND_E",
    "MISDEAL_COND_F", "MISDEAL_COND_G", "MISDEAL_COND_H", "MISDEAL_COND_I", "MISDEAL_COND_J",
    "BURN_EACH_ROUND", "BURN_ERROR", "BOARD_FLOP_BURN_ERR", "BOARD_FLOP_EXTRA", "BOARD_FLOP_REDEAL",
    "BOARD_TURN_PREMATURE", "BOARD_RIVER_PREMATURE", "HOLDEM_EXPOSED_HOLECARD", "DEAD_FOLD",
    "DEAD_FORWARD_MUCK", "DEAD_CARD_COUNT", "DEAD_CLOCK", "DEAD_MUCK_RETRIEVE",
    "DEAD_THROWN_INTO_HAND",
]

# --- §4.2 Deck, dealing and card integrity -------------------------------------------------------

DECK_SIZE = rule(
    "DECK-SIZE", IRREGULARITY, WARNING,
    '000 Gl. DECK, §10 A5 r.1, §11 Joker r.1; 001 §2.2 DECK, 3.2.8.5.2.1; '
    '002 §11.2 "joker is used", §12.3 "alerted"',
    "Hold'em and Omaha are dealt from a 52-card deck; a joker is in play only where the game "
    "posts or announces it.",
)
DEAL_ORDER = rule(
    "DEAL-ORDER", PROCEDURE, WARNING,
    "000 §3 intro, §2 Ties r.2; 001 3.5.1, 3.1.9.2",
    "Cards are dealt clockwise in proper sequence, starting with the first seat left of the "
    "button; the button receives the last card of each pass.",
)
DEAL_DUPLICATE_CARD = rule(
    "DEAL-DUPLICATE-CARD", IRREGULARITY, CRITICAL,
    "000 §2 Irreg r.4–5; 001 3.1.6.4–5",
    "If two cards of the same rank and suit appear, all action is void and every player gets "
    "back the chips he wagered.",
)
DEAL_FOREIGN_BACK = rule(
    "DEAL-FOREIGN-BACK", IRREGULARITY, VIOLATION,
    "000 §2 Irreg r.3; 001 3.1.6.3",
    "A card with a different-coloured back found during the hand voids all action and the chips "
    "go back; found in the stub, all action stands.",
)
DEAL_MISSING_CARDS = rule(
    "DEAL-MISSING-CARDS", IRREGULARITY, WARNING,
    "000 §2 Irreg r.10; 001 3.1.6.10",
    "Cards missing from the deck do not invalidate the hand; a hand voided only because the deck "
    "was short should have been played out.",
)
DEAL_BOXED_CARD = rule(
    "DEAL-BOXED-CARD", IRREGULARITY, WARNING,
    "000 §2 Irreg r.7; 001 3.1.6.7",
    "A card found face up in the deck is treated as a scrap of paper and replaced by the next "
    "card; two or more boxed cards are a misdeal.",
)
DEAL_JOKER_STRAY = rule(
    "DEAL-JOKER-STRAY", IRREGULARITY, WARNING,
    "000 §2 Irreg r.8–9, DH r.1(e); 001 3.1.6.8–9, 3.1.5.1.5",
    "In a game without the joker, a joker is replaced like a boxed card; a player who acts "
    "holding one as a hole card without saying so has a dead hand.",
)
DEAL_EXTRA_CARD = rule(
    "DEAL-EXTRA-CARD", IRREGULARITY, WARNING,
    '000 §2 Irreg r.11, §4 r.2, §2 Misdeals r.2(d); 001 3.1.6.11, 3.2.1.5.5, 3.1.4.1.4; '
    '003 (3)Misdeals r.1(d); 002 §11.1 "(c) Two or more extra"',
    "One extra card dealt before the first betting round goes back as the next burn card; two "
    "or more extra cards in the starting hands are a misdeal.",
)
DEAL_PREMATURE = rule(
    "DEAL-PREMATURE", IRREGULARITY, WARNING,
    "000 §2 Irreg r.15, §4 r.5; 001 3.1.6.15",
    "A card dealt before the betting on the current round is complete does not play, even if "
    "everyone still to act folds.",
)
DEAL_EXPOSED_GENERAL = rule(
    "DEAL-EXPOSED-GENERAL", IRREGULARITY, WARNING,
    '000 §2 Irreg r.12–13, §7 r.11, §10 r.8; 001 3.1.6.12–13, 3.2.3.5.11, 3.2.8.5.1.8; '
    '002 §11.1 "never has an option"',
    "A card flashed by the dealer is exposed (one flashed by a player plays); a player never "
    "chooses to take or reject a card the dealer exposed.",
)
DEAL_STUB_FOULED = rule(
    "DEAL-STUB-FOULED", IRREGULARITY, WARNING,
    "000 §2 Irreg r.17",
    "A fouled deck stub does not void the hand: the deal is played out with the deck "
    "reconstituted as fairly as possible.",
)
DEAL_SHUFFLE_CUT = rule(
    "DEAL-SHUFFLE-CUT", PROCEDURE, WARNING,
    "003 (3)Shuffle and Cut r.1–4",
    "The deck is riffled at least 4 times and the cut leaves at least 4 cards in each part "
    "(checkable only when shuffle and cut are logged).",
)

# --- §4.3 Misdeals -------------------------------------------------------------------------------

MISDEAL_CUTOFF = rule(
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
    rule(
        f"MISDEAL-COND-{_letter}", IRREGULARITY, WARNING,
        f"000 §2 Misdeals r.2({_letter}); 001 3.1.4.1.{_number}; 003 (3)Misdeals r.1({_letter})",
        f"Misdeal if {_condition}, provided it is noticed before two players have acted.",
    )
# The ids the loop above catalogues:
MISDEAL_COND_A = "MISDEAL-COND-a"
MISDEAL_COND_B = "MISDEAL-COND-b"
MISDEAL_COND_C = "MISDEAL-COND-c"
MISDEAL_COND_D = "MISDEAL-COND-d"
MISDEAL_COND_E = "MISDEAL-COND-e"
MISDEAL_COND_F = "MISDEAL-COND-f"
MISDEAL_COND_G = "MISDEAL-COND-g"
MISDEAL_COND_H = "MISDEAL-COND-h"
MISDEAL_COND_I = "MISDEAL-COND-i"
MISDEAL_COND_J = "MISDEAL-COND-j"

# --- §4.4 Burn cards and board -------------------------------------------------------------------

BURN_EACH_ROUND = rule(
    "BURN-EACH-ROUND", PROCEDURE, WARNING,
    '001 3.2.1.3.3, .5, .7, 3.2.2.3.3, .5, .7; 000 Gl. BURNCARD, §7 r.14–15; 001 3.2.3.5.14–15; '
    '000 §10 r.11(a), §11 r.7(a); 001 3.2.8.5.1.12.1, 3.2.10.5.6.1; '
    '002 §11.1 and §12.1 "including the burncard"',
    "Exactly one card is burned before the flop, before the turn and before the river.",
)
BURN_ERROR = rule(
    "BURN-ERROR", PROCEDURE, WARNING,
    "000 §2 Irreg r.16, §4 r.6",
    "A missed or double burn is corrected before anyone acts on that board card, and later cards "
    "must be the ones that would have come without the error.",
)
BOARD_FLOP_BURN_ERR = rule(
    "BOARD-FLOP-BURN-ERR", PROCEDURE, WARNING,
    "000 §4 r.4",
    "A flop dealt with no burn or two burns is fixed with the proper burn and flop if no board "
    "card was exposed; otherwise the deck is reshuffled.",
)
BOARD_FLOP_EXTRA = rule(
    "BOARD-FLOP-EXTRA", IRREGULARITY, WARNING,
    "000 §4 r.3; 001 3.2.1.5.2",
    "A flop with too many cards is always redealt, even when the extra card can be identified.",
)
BOARD_FLOP_REDEAL = rule(
    "BOARD-FLOP-REDEAL", PROCEDURE, WARNING,
    "000 §4 r.7, §14 #4; 001 3.2.1.5.3, App II #2; 002 §16.0 #2",
    "A redealt flop is mixed back into the stub, the original burn stays, and the new flop is "
    "dealt after a shuffle and cut without a burn (profile: board.redeal_burn).",
)
BOARD_TURN_PREMATURE = rule(
    "BOARD-TURN-PREMATURE", IRREGULARITY, WARNING,
    "000 §4 r.8, §14 #4; 001 3.2.1.5.4, App II #2; 002 §16.0 #2",
    "A turn card exposed before the flop betting ends is set aside; the would-be river becomes "
    "the turn, and the river is dealt from the reshuffled stub without a burn.",
)
BOARD_RIVER_PREMATURE = rule(
    "BOARD-RIVER-PREMATURE", IRREGULARITY, WARNING,
    "000 §4 r.8; 001 3.2.1.5.4; 002 §16.0 #2",
    "A river turned too early is reshuffled into the stub and dealt again the same way, "
    "without a burn.",
)
HOLDEM_EXPOSED_HOLECARD = rule(
    "HOLDEM-EXPOSED-HOLECARD", IRREGULARITY, WARNING,
    "000 §4 r.1, §5 r.1; 001 3.2.1.5.1, 3.2.2.5.1.1",
    "An exposed first hole card (profile: misdeal.holdem_exposed) or more than one exposed hole "
    "card is a misdeal; any other exposed hole card is replaced and becomes the burn card.",
)

# --- §4.5 Dead hands -----------------------------------------------------------------------------

DEAD_FOLD = rule(
    "DEAD-FOLD", PROCEDURE, WARNING,
    "000 §2 DH r.1(a); 001 3.1.5.1.1; 003 (3)Dead Hands r.1(a)",
    "A player who folds, or announces a fold, while facing a bet has a dead hand and may not "
    "act again in the hand.",
)
DEAD_FORWARD_MUCK = rule(
    "DEAD-FORWARD-MUCK", PROCEDURE, WARNING,
    "000 §2 DH r.1(b); 001 3.1.5.1.2; 003 (3)Dead Hands r.1(b)",
    "Throwing a hand away in a forward motion that makes a player behind act kills it, even when "
    "not facing a bet.",
)
DEAD_CARD_COUNT = rule(
    "DEAD-CARD-COUNT", IRREGULARITY, WARNING,
    "000 §2 DH r.1(d), §14 #2; 001 3.1.5.1.4, App II #4; 003 (3)Dead Hands r.1(d); 002 §16.0 #4",
    "A hand with the wrong number of cards for the game (two in hold'em, four or five in Omaha) "
    "is dead.",
)
DEAD_CLOCK = rule(
    "DEAD-CLOCK", PROCEDURE, WARNING,
    '000 §2 DH r.1(f), §13 NL r.16; 001 3.1.5.1.6, 3.4.2.13; 002 §14.1 "clock"',
    "A big-bet player put on the clock has one minute to act, with a 10-second warning; if "
    "time runs out his hand is dead.",
)
DEAD_MUCK_RETRIEVE = rule(
    "DEAD-MUCK-RETRIEVE", PROCEDURE, WARNING,
    "000 §2 DH r.2; 001 3.1.5.2",
    "Cards in the muck may be ruled dead; retrieving a clearly identifiable mucked hand is a "
    "management decision and is flagged for review.",
)
DEAD_THROWN_INTO_HAND = rule(
    "DEAD-THROWN-INTO-HAND", IRREGULARITY, WARNING,
    "000 §2 DH r.3; 001 3.1.5.3",
    "Cards thrown into another player's hand are dead.",
)
