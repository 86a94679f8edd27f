"""The catalogue, button games (RULEBOOK §4.14): showdown, pot building and awards.
"""

from __future__ import annotations

from audit.rules.catalog.base import CRITICAL, PROCEDURE, VIOLATION, WARNING, WRONG_AWARD, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "SHOW_ALL_CARDS", "SHOW_CARDS_SPEAK", "SHOW_ORDER", "SHOW_KILL_LOSERS", "SHOW_REQUEST",
    "SHOW_ONE_SHOW_ALL", "SHOW_PLAY_BOARD", "POT_SIDEPOT_BUILD", "POT_SIDEPOT_ORDER",
    "POT_SIDEPOT_SEPARATE", "POT_FOLD_FORFEIT", "POT_TIE_SPLIT", "POT_ODDCHIP_UNIT",
    "POT_ODDCHIP_MAX1", "POT_ODDCHIP_BUTTON", "POT_ODDCHIP_HILO", "POT_HILO_SPLIT",
    "POT_SPLIT_BY_CARDS", "POT_DEAL_TWICE", "POT_CONSERVATION",
]

# --- §4.14 Showdown, pot building and awards -----------------------------------------------------

SHOW_ALL_CARDS = rule(
    "SHOW-ALL-CARDS", WRONG_AWARD, VIOLATION,
    "000 §2 SD r.1, §5 intro; 001 3.1.8.1, 3.2.2.1",
    "To win any part of a pot a player must show all his cards face up (Omaha: all hole cards).",
)
SHOW_CARDS_SPEAK = rule(
    "SHOW-CARDS-SPEAK", WRONG_AWARD, VIOLATION,
    '000 §2 SD r.2, Gl. CARDS SPEAK; 001 3.1.8.2, §2.2 CARDS SPEAK; 002 §11.1 "Cards speak"',
    "Cards speak: the pot goes to the best hand shown, whatever anyone said about it.",
)
SHOW_ORDER = rule(
    "SHOW-ORDER", PROCEDURE, WARNING,
    '000 §2 SD r.8; 001 3.1.8.7, 3.2.1.3.9 (and the same "bettor showing first" line in each '
    "game's betting-round list)",
    "At showdown the last player to bet or raise on the final round shows first; if everyone "
    "checked, the first player to act shows first.",
)
SHOW_KILL_LOSERS = rule(
    "SHOW-KILL-LOSERS", PROCEDURE, WARNING,
    "000 §2 SD r.4, r.8; 001 3.1.8.4",
    "The dealer kills every losing hand before pushing the pot; a player may muck instead of "
    "showing after the betting.",
)
SHOW_REQUEST = rule(
    "SHOW-REQUEST", PROCEDURE, WARNING,
    "000 §2 SD r.5; 001 3.1.8.5",
    "A player dealt in may ask to see a hand eligible for the showdown (USPA: a called hand); "
    "a folded hand shown at a non-winner's request is dead (profile: showdown.right_to_see).",
)
SHOW_ONE_SHOW_ALL = rule(
    "SHOW-ONE-SHOW-ALL", PROCEDURE, WARNING,
    "000 §2 SD r.6; 001 3.1.8.6",
    "Cards shown to one player must be shown to the whole table.",
)
SHOW_PLAY_BOARD = rule(
    "SHOW-PLAY-BOARD", WRONG_AWARD, VIOLATION,
    "000 §4 r.9, §5 r.1; 001 3.2.1.5.6, 3.2.2.5.1.1",
    "A hold'em player playing the board must say so before discarding, or he loses his claim to "
    "the pot; in Omaha the board cannot be played.",
)
POT_SIDEPOT_BUILD = rule(
    "POT-SIDEPOT-BUILD", WRONG_AWARD, VIOLATION,
    "004 HE/SidePots; 000 Gl. SIDE POT; 001 §2.2 SIDE POT",
    "The main pot holds only what every player matched; anything beyond an all-in player's stake "
    "goes to side pots he cannot win.",
)
POT_SIDEPOT_ORDER = rule(
    "POT-SIDEPOT-ORDER", WRONG_AWARD, WARNING,  # the order alone moves no money between players
    "000 §2 SD r.7; 004 HE/SidePots",
    "Side pots are settled before the main pot, the most recently created first; the main pot "
    "comes last (profile: sidepot.order).",
)
POT_SIDEPOT_SEPARATE = rule(
    "POT-SIDEPOT-SEPARATE", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.5(d); 001 3.1.9.5.4",
    "The main pot and each side pot are split as separate pots; high-low halves and odd chips are "
    "worked out per pot.",
)
POT_FOLD_FORFEIT = rule(
    "POT-FOLD-FORFEIT", WRONG_AWARD, VIOLATION,
    "004 HE/SidePots; 000 Gl. FOLD; 001 §2.2 FOLD",
    "A player who folds before the showdown gives up every pot, the main pot included.",
)
POT_TIE_SPLIT = rule(
    "POT-TIE-SPLIT", WRONG_AWARD, VIOLATION,
    "004 HE/Play; 000 §2 Ties r.5, §9 r.8; 001 3.1.9.5, 3.2.7.5.9",
    "Tied best hands share the pot equally, as evenly as the chips allow.",
)
POT_ODDCHIP_UNIT = rule(
    "POT-ODDCHIP-UNIT", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.3; 001 3.1.9.3",
    "Before a split, an odd chip is broken down to the smallest unit used in the game.",
)
POT_ODDCHIP_MAX1 = rule(
    "POT-ODDCHIP-MAX1", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.4; 001 3.1.9.4",
    "No player may receive more than one odd chip from a split.",
)
POT_ODDCHIP_BUTTON = rule(
    "POT-ODDCHIP-BUTTON", WRONG_AWARD, VIOLATION,
    "000 §2 Ties r.5(a); 001 3.1.9.5.1",
    "In button games the odd chip goes to the first tied hand clockwise from the button "
    "(profile: oddchip.button).",
)
POT_ODDCHIP_HILO = rule(
    "POT-ODDCHIP-HILO", WRONG_AWARD, VIOLATION,
    '000 §2 Ties r.5(c), §9 r.8–9; 001 3.1.9.5.3, 3.2.7.5.9–10; 002 §10.1 "odd chip"; '
    "004 OM/Hi-Lo, ST/Hi-Lo",
    "When a high-low pot splits between high and low, the odd chip goes to the high half; ties "
    "inside a half share as in that half's game (profile: oddchip.hilo).",
)
POT_HILO_SPLIT = rule(
    "POT-HILO-SPLIT", WRONG_AWARD, VIOLATION,
    '000 §6 r.2, §9 intro; 001 3.2.2.5.2.2, 3.2.7.5.2; 002 §10.1 "no qualifying"; '
    "004 OM/Hi-Lo, ST/Hi-Lo",
    "A high-low pot is split between the best high hand and the best qualifying low; with no "
    "qualifying low the best high hand takes it all.",
)
POT_SPLIT_BY_CARDS = rule(
    "POT-SPLIT-BY-CARDS", WRONG_AWARD, VIOLATION,
    '000 §9 r.7; 001 3.2.7.5.8, App III §3 r.14; 002 §10.1 "Splitting pots"; '
    "003 (2)Procedures r.13",
    "Pots are split only by the cards, never by agreement; an award that differs from the "
    "evaluated result is a violation.",
)
POT_DEAL_TWICE = rule(
    "POT-DEAL-TWICE", WRONG_AWARD, VIOLATION,
    '000 §13 NL r.17, Gl. DEAL TWICE, INSURANCE; 001 3.4.2.14, App III §3 r.15, §2.2 DEAL TWICE; '
    '002 §14.1 "deal twice"; 003 (2)Procedures r.14',
    "In big-bet games with an all-in and no betting left, the players may deal twice: the pot is "
    "divided into equal parts, each awarded on its own runout.",
)
POT_CONSERVATION = rule(
    "POT-CONSERVATION", WRONG_AWARD, CRITICAL,
    # Our own id: chips are neither created nor destroyed in a hand. No seed says it in one
    # sentence; it follows from the pot rules (POT-SIDEPOT-BUILD) and table stakes.
    "(derived) 004 HE/SidePots; 000 Gl. SIDE POT, TABLE STAKES; 001 §2.2 SIDE POT, TABLE STAKES",
    "Everything put into the pot must come back out as awards, refunds or rake: money pushed "
    "must equal money collected, or chips were created or lost.",
)
