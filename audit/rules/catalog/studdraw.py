"""The catalogue, stud and draw families (RULEBOOK §4.7, §4.8, §4.11, §4.12, §4.14): the
rules audit/replay/family/ checks, the ids it can emit (registered here) and the rules decided
within them.
"""

from __future__ import annotations

from audit.rules.catalog.base import (
    ILLEGAL_BET,
    IRREGULARITY,
    PROCEDURE,
    VIOLATION,
    WARNING,
    WRONG_AWARD,
    register_catalogued,
    rule,
)

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "ORDER_STUD_FIRST", "ORDER_STUD_LATER", "ORDER_RAZZ", "ORDER_STUDHL", "ORDER_5STUD",
    "BET_LIMIT_STUD_STREETS", "BET_STUD_OPENPAIR", "BET_LIMIT_DRAW_DOUBLE", "BET_LIMIT_5STUD",
    "BET_CAP_TWOROUND", "STUD_BRINGIN_LOWCARD", "STUD_BRINGIN_OPTIONS", "STUD_BRINGIN_AMOUNT",
    "STUD_PREMATURE", "STUD_CARD_COUNT", "RAZZ_NO_OPENPAIR", "STUDHL_NO_OPENPAIR",
    "POT_ODDCHIP_STUD", "DRAW_FIVE_CARD_HAND", "A5_CHECKRAISE", "A5_SEVENS_RULE", "DRAW_MAX_FOUR",
    "STUD_SHORT_DECK", "STUD_EXPOSED_START", "STUD_7TH_UP", "JACKS_OPENERS", "DRAW_EXPOSED_ON_DRAW",
    "DRAWHI_EXPOSED_PREDRAW", "A5_EXPOSED_LIMIT", "D27_EXPOSED", "BBLOW_EXPOSED",
    "ORDER_MISSISSIPPI", "BET_LIMIT_MISSISSIPPI", "BET_HALFPOT", "ORDER_STUD_COMMON",
    "ORDER_STUD_7TH_UP", "KILL_SIZE", "KILL_VOLUNTARY_LOWBALL", "ORDER_KILL", "KILL_ONE_PER_DEAL",
    "ORDER_STUD_ALLIN_STARTER", "STUD_BRINGIN_ALLIN", "ANTE_STUD", "ANTE_DRAW",
    "DRAWHI_ALLIN_ANTES", "ORDER_DRAW_AFTER", "STUD_WRONG_LOWCARD", "MISS_STRUCTURE",
    "FIVESTUD_STRUCTURE", "LOWBALL_OPEN", "ORDER_DRAW_PHASE", "DRAW_SHORT_PREDRAW",
    "JACKS_SPLIT_OPENERS", "JACKS_FALSE_OPENER", "JACKS_POT_PLAYS", "STUD_BURN_ERROR",
    "LOWBALL_MISCALL", "LOWBALL_PAIR_CALL", "STUD_COMPLETE", "STUD_BOARD_BEATEN_CALL",
    "JACKS_NO_REFUND", "ORDER_LOWBALL", "DRAWHI_OPEN",
]

# --- Stud and draw families (RULEBOOK §4.7, §4.8, §4.11, §4.12, §4.14) ----------------------------
# Checked by audit/replay/family/ (with betting.py for sizes and caps). Statements and
# citations are RULEBOOK's, copied verbatim.

ORDER_STUD_FIRST = rule(
    'ORDER-STUD-FIRST', PROCEDURE, WARNING,
    '000 §7 r.2; 001 3.2.3.5.1; 004 ST/Play; 000 Gl. LOWCARD',
    'Seven-card stud, 3rd street: the lowest upcard by suit makes the forced bet (ace counts '
    'high; suit order c<d<h<s, so 2♣ is the lowest possible); action then goes clockwise.',
)
ORDER_STUD_LATER = rule(
    'ORDER-STUD-LATER', PROCEDURE, WARNING,
    '000 §7 r.2; 001 3.2.3.5.1; 004 ST/Play',
    'From 4th street on, the highest hand showing acts first and may check (no more forced '
    'bets). A tie is broken by position: of the tied players, the one who received cards '
    'first (first clockwise from the dealer) acts first.',
)
ORDER_RAZZ = rule(
    'ORDER-RAZZ', PROCEDURE, WARNING,
    '000 §8 intro, r.2; 001 3.2.6.1, 3.2.6.5.2; 002 §9.0, §9.1 "highest card by suit"; 004 RZ',
    'Razz: the highest upcard by suit brings in (aces low, so K♠ is the highest and A♣ the '
    'lowest). Later rounds: the lowest hand showing acts first; a tie goes to the first tied '
    'player clockwise from the dealer.',
)
ORDER_STUDHL = rule(
    'ORDER-STUDHL', PROCEDURE, WARNING,
    '000 §9 r.4; 001 3.2.7.1, 3.2.7.5.4; 002 §10.0, §10.1 "low card by suit"',
    'Stud high-low: the lowest card by suit brings in, ace counting high for this purpose. '
    'Later rounds: the highest hand showing acts first; a tie goes to the first tied player '
    'clockwise from the dealer (P37).',
)
ORDER_5STUD = rule(
    'ORDER-5STUD', PROCEDURE, WARNING,
    '001 3.2.4.5.1',
    'Five-card stud follows the seven-card stud order rules (lowcard forced bet, then high hand).',
)
BET_LIMIT_STUD_STREETS = rule(
    'BET-LIMIT-STUD-STREETS', ILLEGAL_BET, VIOLATION,
    '000 §7 intro, §8 r.3, §9 r.6; 001 3.2.3.1, 3.2.6.5.3, 3.2.7.5.7; 002 §9.1 "Fixed-limit '
    'games", §10.0, §10.1 "Fixed-limit games"; 004 ST/Intro, ST/Play',
    'Stud, razz and stud H-L: the small bet on 3rd and 4th street, the big bet on 5th, 6th '
    'and 7th.',
)
BET_STUD_OPENPAIR = rule(
    'BET-STUD-OPENPAIR', ILLEGAL_BET, VIOLATION,
    '000 §7 intro, r.7; 001 3.2.3.1, 3.2.3.5.4; 004 ST/Play',
    'Seven-card stud high only: if any player shows an open pair on 4th street, any player '
    'may bet either the lower or the upper limit. Example, $5–$10: with a $5 bet, others may '
    'call $5, raise $5 or raise $10; once a $10 bet or raise is made, all further raises that'
    ' round are $10. If the high hand checks, the next players have the same options. Not in '
    'razz or stud H-L (RAZZ-NO-OPENPAIR, STUDHL-NO-OPENPAIR).',
)
BET_LIMIT_DRAW_DOUBLE = rule(
    'BET-LIMIT-DRAW-DOUBLE', ILLEGAL_BET, VIOLATION,
    '000 §11 intro, §10 intro; 001 3.2.9.1, 3.2.10.1, 3.2.8.1; 002 §12.0, §11.0',
    'Draw high and jacks: the limit after the draw is twice the limit before it. Lowball: '
    '"usually" double after the draw (Northern California is an exception → '
    'profile.lowball_post_draw_multiplier).',
)
BET_LIMIT_5STUD = rule(
    'BET-LIMIT-5STUD', ILLEGAL_BET, VIOLATION,
    '001 3.2.4.1',
    'Five-card stud at fixed limit uses the same bet size on every round.',
)
BET_CAP_TWOROUND = rule(
    'BET-CAP-TWOROUND', ILLEGAL_BET, VIOLATION,
    '000 §2 B&R r.4(b), §10 r.2, §11 r.1, §14 #6; 001 3.1.7.3.2, 3.2.8.5.1.2, 3.2.10.5.1, App'
    ' II #6; 002 §11.1, §12.1, §16.0 #6; 003 Intro',
    'Fixed limit with 2 betting rounds (lowball, draw high, jacks): at most a bet plus 4 '
    'raises in multihanded pots (private games: 3; CA overlay: 6).',
)
STUD_BRINGIN_LOWCARD = rule(
    'STUD-BRINGIN-LOWCARD', PROCEDURE, WARNING,
    '000 §7 r.2, Gl. LOWCARD, FORCED BET; 001 3.2.3.5.1, §2.2 LOWCARD; 004 ST/Play',
    'The 3rd-street forced bet (bring-in) is made by the lowest upcard, ranked by rank (ace '
    'high) and then by suit (♣ < ♦ < ♥ < ♠). Razz and stud H-L use their own rules '
    '(ORDER-RAZZ, ORDER-STUDHL).',
)
STUD_BRINGIN_OPTIONS = rule(
    'STUD-BRINGIN-OPTIONS', ILLEGAL_BET, VIOLATION,
    '000 §7 r.3; 001 3.2.3.5.2; 004 ST/Play',
    'The bring-in player may post the bring-in or open for a full small bet. 004: he may not '
    'check or fold (P24).',
)
STUD_BRINGIN_AMOUNT = rule(
    'STUD-BRINGIN-AMOUNT', ILLEGAL_BET, VIOLATION,
    '004 ST/Play; 000 §7 r.6; 001 3.2.3.5.3',
    'The bring-in is a structure parameter: typically more than the ante and less than the '
    'small bet (004). Example: $5 in $15–$30 stud. Mississippi amounts are in '
    'BET-LIMIT-MISSISSIPPI.',
)
STUD_PREMATURE = rule(
    'STUD-PREMATURE', IRREGULARITY, WARNING,
    '000 §7 r.14; 001 3.2.3.5.14',
    "Cards dealt before the round's betting ends are removed from play. After the betting, "
    'one more card per still-active player is also removed, so players get the cards they '
    'would have had; then the dealer burns and play resumes. Removed cards are set aside in '
    'case the deck runs short. If the premature card is the final down card and it was seen '
    'or mixed in, the player keeps it and may not bet or raise on 6th street.',
)
STUD_CARD_COUNT = rule(
    'STUD-CARD-COUNT', IRREGULARITY, VIOLATION,
    '000 §7 r.18, §14 #2; 001 3.2.3.5.18, App II #4; 002 §16.0 #4',
    'A stud hand with more than 7 cards is dead. A hand with fewer than 7 at the showdown is '
    'dead, except that a hand missing only its 7th card may be ruled live (flag it for the '
    'floor).',
)
RAZZ_NO_OPENPAIR = rule(
    'RAZZ-NO-OPENPAIR', ILLEGAL_BET, VIOLATION,
    '000 §8 intro, r.3; 001 3.2.6.1, 3.2.6.5.3; 002 §9.0, §9.1 "open pair"',
    'Razz: an open pair does not change the limit (lower limit on 3rd and 4th streets, upper '
    'after).',
)
STUDHL_NO_OPENPAIR = rule(
    'STUDHL-NO-OPENPAIR', ILLEGAL_BET, VIOLATION,
    '000 §9 r.6; 001 3.2.7.1, 3.2.7.5.7; 002 §10.0, §10.1 "open pair on fourth"',
    'Stud H-L: an open pair on 4th street does not change the limit.',
)
POT_ODDCHIP_STUD = rule(
    'POT-ODDCHIP-STUD', WRONG_AWARD, VIOLATION,
    '000 §2 Ties r.5(b); 001 3.1.9.5.2',
    'Stud high games: to the tied player holding the highest card by suit. Stud low games: to'
    " the one holding the lowest card by suit. All of each player's cards count, not just his"
    ' five.',
)
DRAW_FIVE_CARD_HAND = rule(
    'DRAW-FIVE-CARD-HAND', IRREGULARITY, VIOLATION,
    '000 §10 r.12, §11 r.5; 001 3.2.8.5.1.11, 3.2.10.5.4; 002 §11.1 "Five cards constitute", '
    '§12.1 "Five cards constitute"',
    'Five cards make a playing hand. More or fewer than five after the draw is a fouled '
    '(dead) hand.',
)
A5_CHECKRAISE = rule(
    'A5-CHECKRAISE', ILLEGAL_BET, VIOLATION,
    '000 §10 A5 r.2; 001 3.2.8.5.2.2; 002 §11.2 "check-raise is not"',
    'Limit ace-to-five lowball: check-raise is not allowed unless players were told otherwise.',
)

A5_SEVENS_RULE = rule(
    'A5-SEVENS-RULE', PROCEDURE, WARNING,
    '000 §10 A5 r.4; 001 3.2.8.5.2.4; 002 §11.2 "sevens rule"',
    'Limit A-5 lowball, on by default. After the draw, a player who checks a seven-low or '
    'better: if it is the best hand, all post-draw action is void and he wins only the pot as '
    'it stood before the draw; if it is beaten, he loses the pot and any calls he made. '
    'Exception: facing an all-in post-draw bet of less than half a bet, a seven or better may '
    'just call and win it; an overcaller who loses gets that bet back. A seven or better that '
    'completes to a full bet has met its obligation.',
)
DRAW_MAX_FOUR = rule(
    'DRAW-MAX-FOUR', PROCEDURE, WARNING,
    '000 §10 r.10, §11 r.6, §14 #9; 001 3.2.8.5.1.10, 3.2.10.5.5, App II #9; 002 §11.1 "draw '
    'up to four", §12.1 "draw up to four", §16.0 #9',
    'At most four consecutive cards are dealt to one player on the draw. A 5-card draw gets '
    'four at once and the fifth after everyone else has drawn; if he is the last to draw, '
    'four, then a burn, then the fifth.',
)
STUD_SHORT_DECK = rule(
    'STUD-SHORT-DECK', PROCEDURE, WARNING,
    '000 §7 r.15, Gl. COMMON CARD; 001 3.2.3.5.15, §2.2 COMMON CARD; 004 ST/Intro, ST/Play',
    'If the deck will not cover every remaining player: deal all but the last card; mix that '
    'card with the burns (and any removed cards); scramble, cut, burn and continue (no burn if '
    'there are fewer cards than players still needing one). If there still are not enough '
    'fresh cards, the dealer announces a common card: burn, then one card face up in the '
    'centre that plays in every hand. The high hand including it acts first. Max 8 players '
    'per stud table; 8×7 = 56 > 52 (004).',
)
STUD_EXPOSED_START = rule(
    'STUD-EXPOSED-START', IRREGULARITY, VIOLATION,
    '000 §7 r.1; 001 3.2.3.5.5, 3.3.2.26; 002 §15.0 "At stud"',
    "Cash game: if a player's 1st or 2nd hole card is turned up by the dealer, his 3rd card is "
    'dealt down. If both hole cards are dealt up, his hand is dead and his ante is returned. If '
    'the first up-dealt card would have been the lowcard, action starts with the next player to '
    'the left, who may fold, bring in, or complete. Tournament: any down card dealt up on the '
    'initial deal is a misdeal (P25).',
)
STUD_7TH_UP = rule(
    'STUD-7TH-UP', IRREGULARITY, WARNING,
    '000 §7 r.17(a)–(b); 001 3.2.3.5.17.1–.2',
    'Seventh card dealt face up to a player. With more than 2 players, the rest get theirs face '
    'down, and the exposed player may declare all-in before the betting. This is a "freeze": he '
    'puts in no more, and the others bet into a side pot although he still has chips; do not '
    "flag that side pot as invalid. With 2 players: if the first player's card is up, the "
    "second's is also dealt up and betting is normal; if only the second player's is up, that "
    'player may declare all-in.',
)
JACKS_OPENERS = rule(
    'JACKS-OPENERS', ILLEGAL_BET, VIOLATION,
    '001 3.2.9.2, 3.2.9.3.3, 3.2.9.5.1, 3.2.9.5.8; 002 §12.2 "pair of jacks", "retain the '
    'opening hand"; 000 Gl. OPENERS',
    'Jacks or better: opening requires a pair of jacks or better. The opener must prove it, and '
    'any player may ask that the opening hand be kept and shown after the winner is decided.',
)
DRAW_EXPOSED_ON_DRAW = rule(
    'DRAW-EXPOSED-ON-DRAW', PROCEDURE, WARNING,
    '000 §10 r.9, §11 r.8; 001 3.2.8.5.1.9, 3.2.10.5.8; 002 §11.1 "On the draw", §12.1 "On '
    'the draw"',
    'A card exposed during the draw may not be taken. The draw is completed to everyone in '
    'order, then the exposed card is replaced.',
)
DRAWHI_EXPOSED_PREDRAW = rule(
    'DRAWHI-EXPOSED-PREDRAW', PROCEDURE, WARNING,
    '000 §11 r.4; 001 3.2.10.5.3; 002 §12.1 "exposed by the dealer before"',
    'Draw high: a card exposed by the dealer before the draw must be kept.',
)
A5_EXPOSED_LIMIT = rule(
    'A5-EXPOSED-LIMIT', PROCEDURE, WARNING,
    '000 §10 A5 r.3, §14 #8; 001 3.2.8.5.2.3, App II #8; 002 §11.2 "seven or under", §16.0 #8',
    'Limit A-5, before the draw: an exposed card of 7 or lower must be taken. One higher than 7 '
    'is replaced after the deal is complete, and that first exposed card becomes the burn card. '
    '(The explanations prefer the no-limit rule, under which a 6 or 7 is not taken.)',
)
D27_EXPOSED = rule(
    'D27-EXPOSED', PROCEDURE, WARNING,
    '000 §10 D27 r.2; 001 3.2.8.5.3.2; 002 §11.3 "7, 5, 4, 3"',
    'Deuce-to-seven, before the draw: an exposed 7, 5, 4, 3 or 2 must be taken; any other card, '
    'including a 6, is replaced.',
)
BBLOW_EXPOSED = rule(
    'BBLOW-EXPOSED', PROCEDURE, WARNING,
    '000 §10 BBL r.2–3; 001 3.2.8.5.4.2–3; 002 §11.4 "(a)", "(b)", "After the draw, any"',
    'NL/PL lowball, before the draw: A-5 takes an exposed A, 2, 3, 4 or 5 and replaces anything '
    'else; 2-7 takes a 2, 3, 4, 5 or 7 and replaces anything else, including a 6. After the draw '
    'any exposed card is replaced.',
)
ORDER_MISSISSIPPI = rule(
    'ORDER-MISSISSIPPI', PROCEDURE, WARNING,
    '001 3.2.5.3.1–4, 3.2.5.5.1.1–2',
    'Mississippi stud: at limit, the lowcard brings in; at big-bet, the high card must bet or '
    'fold on round 1. Later rounds: the highest hand showing bets first (or checks, at '
    'big-bet).',
)
BET_LIMIT_MISSISSIPPI = rule(
    'BET-LIMIT-MISSISSIPPI', ILLEGAL_BET, VIOLATION,
    '001 3.2.5.5.1.2, .1.2.1, .1.2.2',
    'Mississippi stud at limit: ante, compulsory bring-in from the lowcard, and bets that '
    'typically double on the last two rounds. Low-ante example: ante 1, bring-in 2, bet 10 on '
    'rounds 1–2 and 20 on rounds 3–4. High-ante example: ante 4, bring-in 5, bet 10 on rounds '
    '1–2 and 20 on rounds 3–4.',
)
BET_HALFPOT = rule(
    'BET-HALFPOT', ILLEGAL_BET, VIOLATION,
    '001 3.2.5.5.1.1',
    'Half-pot (Mississippi stud): the maximum bet is half the pot. The opening bet is at the '
    "opener's discretion, usually as small as one ante and up to half the total antes (pot limit: "
    'the total antes; NL: any amount). (derived) A raise counts the pot after the call, as at '
    'pot limit, and goes to at most the current bet plus half of it.',
)
ORDER_STUD_COMMON = rule(
    'ORDER-STUD-COMMON', PROCEDURE, WARNING,
    '000 §7 r.15; 001 3.2.3.5.15',
    'When a common card is used on the last round (STUD-SHORT-DECK), the player who is high '
    'with the common card starts that round.',
)
ORDER_STUD_7TH_UP = rule(
    'ORDER-STUD-7TH-UP', PROCEDURE, WARNING,
    '000 §7 r.17; 001 3.2.3.5.17',
    "If the dealer turns anyone's last card face up, the hand that is high on board using all "
    'upcards starts the action.',
)
KILL_SIZE = rule(
    'KILL-SIZE', ILLEGAL_BET, VIOLATION,
    '000 §12 intro, r.7, Gl. KILL; 001 3.6.1, 3.6.2.7, §2.2 KILL; 002 §13.0, §13.1 "part of '
    'the pot"',
    'A full kill is an overblind of 2×BB and doubles the betting limits. A half kill is 1.5×BB '
    'and raises the limits by 1.5×. Kill blinds are live and part of the pot.',
)
KILL_VOLUNTARY_LOWBALL = rule(
    'KILL-VOLUNTARY-LOWBALL', PROCEDURE, WARNING,
    '000 §12 r.10; 001 3.6.2.10; 002 §13.1 "optional rule"',
    'Optional lowball rule: players may look at their first two cards and then decide to kill, '
    'but not once any player has a third card. A voluntary killer needs ≥4× the kill blind in '
    'his stack (BB 2, kill 4 → ≥16 chips) and acts last on the first round.',
)
ORDER_KILL = rule(
    'ORDER-KILL', PROCEDURE, WARNING,
    '000 §12 r.2, r.10; 001 3.6.2.2, 3.6.2.10; 002 §13.1 "proper turn", "act last"',
    'A required killer acts in normal turn (after the player on his right), not last. Under '
    'the optional lowball voluntary-kill rule the killer acts last on the first round.',
)
KILL_ONE_PER_DEAL = rule(
    'KILL-ONE-PER-DEAL', PROCEDURE, VIOLATION,
    '000 §12 r.11; 001 3.6.2.11; 002 §13.1 "Only one kill"',
    'At most one kill per deal.',
)

ORDER_STUD_ALLIN_STARTER = rule(
    'ORDER-STUD-ALLIN-STARTER', PROCEDURE, WARNING,
    '000 §7 r.4, §9 r.4; 001 3.2.3.5.8',
    'If the lowcard is all-in for the ante, or whoever should start a round is all-in, action '
    'starts with the next active player to his left (stud H-L: play on as if the all-in high '
    'hand had checked). USPA: the player to the lowcard\'s left may fold, bring in, or '
    'complete.',
)
STUD_BRINGIN_ALLIN = rule(
    'STUD-BRINGIN-ALLIN', ILLEGAL_BET, VIOLATION,
    '000 §7 r.4; 001 3.2.3.5.8',
    'A lowcard who can cover only part of the bring-in makes that wager, but everyone else '
    'must still come in for at least the normal amount. If the lowcard is all-in for the ante, '
    'see ORDER-STUD-ALLIN-STARTER.',
)
ANTE_STUD = rule(
    'ANTE-STUD', PROCEDURE, WARNING,
    '001 3.2.3.3.1, 3.2.4.3.1, 3.2.6.3.1, 3.2.7.3.1, 3.2.5.3.1; 004 ST/Intro; 000 Gl. ANTE',
    'In stud every dealt-in player antes before the deal, in cash games too.',
)
ANTE_DRAW = rule(
    'ANTE-DRAW', PROCEDURE, WARNING,
    '000 §11 intro; 001 3.2.9.1, 3.2.10.1; 002 §12.0',
    'Draw high and jacks-or-better are played with a button and an ante.',
)
# Judged: a caller of an all-in opener short of the bet puts in the full bet. Not judged: the
# share of a player with only a full ante after a passed deal, since a hand's events are one
# deal and no event carries the antes of a passed deal into the next (nor who matched them).
DRAWHI_ALLIN_ANTES = rule(
    'DRAWHI-ALLIN-ANTES', ILLEGAL_BET, VIOLATION,
    '000 §11 r.13–14; 001 3.2.10.5.12–13; 002 §12.1 "playing for just"',
    'If an all-in player playing only for the antes opens, every caller must still put in the '
    'full opening bet. A player with only a full ante may play for the antes; if nobody opens '
    'and another ante goes in, he plays for the part he matched without adding money.',
)
ORDER_DRAW_AFTER = rule(
    'ORDER-DRAW-AFTER', PROCEDURE, WARNING,
    '000 §11 intro; 001 3.2.9.1, 3.2.10.1; 002 §12.0',
    'Draw high and jacks: the opener acts first after the draw, or the next active player '
    'clockwise if the opener folded.',
)
STUD_WRONG_LOWCARD = rule(
    'STUD-WRONG-LOWCARD', PROCEDURE, WARNING,
    '000 §7 r.5; 001 3.2.3.5.9',
    'If the wrong player is named low and bets: if the next player has not yet acted, the '
    'action moves to the true lowcard, who must bet, and the wrong player takes his wager '
    'back. If the next player has acted, the wager stands, play continues, and the true '
    'lowcard owes nothing.',
)
MISS_STRUCTURE = rule(
    'MISS-STRUCTURE', IRREGULARITY, WARNING,
    '001 3.2.5.2–3.2.5.4',
    'Mississippi stud: ante; 2 down + 1 up, round 1; two more upcards each, round 2; a 4th '
    'upcard, round 3; a 5th upcard, round 4; showdown (7 cards: 2 down, 5 up). Best 5 of 7.',
)
FIVESTUD_STRUCTURE = rule(
    'FIVESTUD-STRUCTURE', IRREGULARITY, WARNING,
    '001 3.2.4.1–3.2.4.5.1',
    'Five-card stud: ante; 1 down + 1 up, round 1; then one upcard at a time with a round '
    'after each (4 rounds in all); best five. Otherwise the seven-card stud rules apply.',
)
LOWBALL_OPEN = rule(
    'LOWBALL-OPEN', ILLEGAL_BET, VIOLATION,
    '000 §10 intro; 001 3.2.8.1, 3.2.8.3.3; 002 §11.0',
    'Lowball first round: players must open with a bet or fold (no checking, apart from the '
    "blind's option). Depending on the structure, the BB may simply be called, or the minimum "
    'open is 2×BB (profile.lowball_min_open ∈ {BB, 2BB}).',
)
ORDER_DRAW_PHASE = rule(
    'ORDER-DRAW-PHASE', PROCEDURE, WARNING,
    '000 §10 r.9, §11 r.8; 001 3.2.8.5.1.9, 3.2.10.5.8; 002 §11.1 "On the draw"',
    'Draw requests are served to each player in order (derived: clockwise from the first '
    'active player left of the button). An exposed draw card is replaced only after everyone '
    'has drawn (DRAW-EXPOSED-ON-DRAW).',
)
DRAW_SHORT_PREDRAW = rule(
    'DRAW-SHORT-PREDRAW', IRREGULARITY, WARNING,
    '000 §10 r.12; 001 3.2.8.5.1.11; 002 §11.1 "Five cards constitute"',
    'Lowball: a player short of five cards before the draw gets the missing cards only if the '
    'first player to act has not acted (unless that action came before the deal was '
    'complete); the dealer position may still get its missing 5th card after action. '
    'Otherwise he draws up to five. Draw high: see MISDEAL-DRAW-SHORT.',
)
JACKS_SPLIT_OPENERS = rule(
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
JACKS_FALSE_OPENER = rule(
    'JACKS-FALSE-OPENER', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.2; 002 §12.2 "false openers"',
    "False openers shown before the draw: the opener's hand is dead and his opening bet stays "
    'in the pot; his other bets may be withdrawn if the pre-draw action is not complete. Any '
    'other active player who did not pass openers may declare the pot open. If nobody does, '
    "all bets except the opener's first bet are returned; that bet and the antes stay for the "
    'next deal, which is open only to the players in this hand (after anteing again).',
)
JACKS_POT_PLAYS = rule(
    'JACKS-POT-PLAYS', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.4, 3.2.9.5.6; 002 §12.2 "In all cases", "may not withdraw"',
    'The pot plays even if the opener shows or declares a foul, provided there was a raise, or '
    'two or more players called the opening bet, or all pre-draw action was complete. Once '
    'pre-draw action is complete, the opener may not withdraw any bet.',
)
STUD_BURN_ERROR = rule(
    'STUD-BURN-ERROR', IRREGULARITY, WARNING,
    '000 §7 r.13; 001 3.2.3.5.13',
    'A double burn or a missed burn is corrected so cards reach their proper positions. On the '
    'final down card, a card mixed with the hole cards or looked at must be kept.',
)
LOWBALL_MISCALL = rule(
    'LOWBALL-MISCALL', WRONG_AWARD, VIOLATION,
    '000 §10 r.15; 001 3.2.8.5.1.15; 002 §11.1 "Cards speak"',
    'Cards speak, but a player may not claim a better hand than he holds: a player who calls '
    '"8" must show an 8-low or better; a wrong second card (e.g. calling 8-6 with 8-7) carries '
    "no penalty. A miscall that makes another player foul his hand makes the miscaller's hand "
    'dead; in a multiway pot a miscalled hand is dead and the best remaining hand wins. If both '
    'hands stay intact, the best hand wins.',
)
LOWBALL_PAIR_CALL = rule(
    'LOWBALL-PAIR-CALL', WRONG_AWARD, VIOLATION,
    '000 §10 r.16; 001 3.2.8.5.1.16; 002 §11.1 "announce \"pair\""',
    'A player who spreads a hand containing a pair must say "pair", or risk losing the pot if '
    'that makes another player foul; if the hands stay intact, the best hand wins.',
)

# The stud/draw ids the replay can emit; each has a fixture under fixtures/rules/<ID>.txt.
STUD_DRAW_RULE_IDS: tuple[str, ...] = (
    # stud: bring-in and action order
    STUD_BRINGIN_LOWCARD, STUD_BRINGIN_OPTIONS, STUD_BRINGIN_AMOUNT,
    ORDER_STUD_FIRST, ORDER_STUD_LATER, ORDER_RAZZ, ORDER_STUDHL, ORDER_5STUD,
    # stud: limits by street and the open pair
    BET_LIMIT_STUD_STREETS, BET_STUD_OPENPAIR, RAZZ_NO_OPENPAIR, STUDHL_NO_OPENPAIR,
    BET_LIMIT_5STUD,
    # stud: cards and odd chips
    STUD_PREMATURE, STUD_CARD_COUNT, POT_ODDCHIP_STUD,
    # draw games
    BET_LIMIT_DRAW_DOUBLE, BET_CAP_TWOROUND, DRAW_FIVE_CARD_HAND, A5_CHECKRAISE,
    # kill pots (per hand; who must kill is table state across hands)
    KILL_SIZE, KILL_ONE_PER_DEAL, KILL_VOLUNTARY_LOWBALL, ORDER_KILL,
    # lowball rules
    A5_SEVENS_RULE,
    # the draw
    DRAW_MAX_FOUR,
    # stud cards dealt the wrong way, and the common card
    STUD_SHORT_DECK, STUD_EXPOSED_START, STUD_7TH_UP, ORDER_STUD_COMMON,
    ORDER_STUD_7TH_UP,
    # jacks or better
    JACKS_OPENERS,
    # cards the dealer exposes in the draw games
    DRAW_EXPOSED_ON_DRAW, DRAWHI_EXPOSED_PREDRAW, A5_EXPOSED_LIMIT, D27_EXPOSED,
    BBLOW_EXPOSED,
    # Mississippi stud (limit), and its half-pot maximum (structure half_pot)
    ORDER_MISSISSIPPI, BET_LIMIT_MISSISSIPPI, MISS_STRUCTURE, BET_HALFPOT,
    # five-card stud
    FIVESTUD_STRUCTURE,
    # all-in forced wagers and all-in starters
    ORDER_STUD_ALLIN_STARTER, STUD_BRINGIN_ALLIN, STUD_WRONG_LOWCARD,
    # antes in the ante games (audit/replay/family/stud_antes.py)
    ANTE_STUD, ANTE_DRAW,
    # draw high and jacks: an all-in opener playing for the antes
    DRAWHI_ALLIN_ANTES,
    # draw high and jacks: the opener acts first after the draw
    ORDER_DRAW_AFTER,
    # lowball: open with a bet or fold before the draw
    LOWBALL_OPEN,
    # the draw is served in order
    ORDER_DRAW_PHASE,
    # lowball: a hand short before the draw
    DRAW_SHORT_PREDRAW,
    # jacks or better: split openers judged from the final hand and the discards
    JACKS_SPLIT_OPENERS,
    # jacks or better: a false opener's dead hand, and the pot that plays in spite of it
    JACKS_FALSE_OPENER, JACKS_POT_PLAYS,
    # stud: a missed or double burn (where burns are logged)
    STUD_BURN_ERROR,
    # lowball: a hand called better than it is at the showdown (`declare` events)
    LOWBALL_MISCALL, LOWBALL_PAIR_CALL,
)

# Stud/draw rules decided within the checks of registered ids: catalogued here, not
# registered twice; audit/rules/coverage.py names the deciding ids and
# fixtures/rules/within/<ID>.txt proves each (tests/rules/test_rule_coverage.py).
STUD_COMPLETE = rule(
    'STUD-COMPLETE', ILLEGAL_BET, VIOLATION,
    '000 §7 r.6, Gl. COMPLETE THE BET; 001 3.2.3.5.3, §2.2 COMPLETE THE BET',
    'Raising the bring-in to a full bet is a completion, not a raise. After it, the full raise '
    'count is still available (e.g. $15–$30 with a $5 bring-in: completed to $15, then up to 3 '
    'raises under a three-raise cap).',
)
STUD_BOARD_BEATEN_CALL = rule(
    'STUD-BOARD-BEATEN-CALL', WRONG_AWARD, VIOLATION,
    '000 §7 r.19; 001 3.2.3.5.19',
    "Calling when already beaten by the opponent's upcards gets no refund. Do not \"correct\" "
    'such a call.',
)
JACKS_NO_REFUND = rule(
    'JACKS-NO-REFUND', WRONG_AWARD, VIOLATION,
    '001 3.2.9.5.11; 002 §12.2 "cannot beat openers"',
    'A player who calls the opener after the draw and cannot beat openers gets no refund.',
)
ORDER_LOWBALL = rule(
    'ORDER-LOWBALL', PROCEDURE, WARNING,
    '000 §3 intro, §10 r.1; 001 3.5.1, 3.2.8.5.1.1',
    '(derived) Lowball uses button-game order: first round from the left of the blinds (killer '
    'per ORDER-KILL), after the draw from the first active player left of the button.',
)
DRAWHI_OPEN = rule(
    'DRAWHI-OPEN', ILLEGAL_BET, VIOLATION,
    '000 §11 intro; 001 3.2.10.1, 3.2.9.1; 002 §12.0',
    'Draw high: in turn, a player may check, open for the minimum, or open with a raise. Some '
    'games let a player open on any hand; others require jacks or better (JACKS-*).',
)
# Permissions no log can break; the bans they lift are scoped so they hold by construction
# (audit.rules.coverage.PERMISSIONS; fixtures/rules/permitted/ and tests/replay/test_stud_within.py
# show the permitted play drawing no finding):
#   DRAWHI-CHECKRAISE, D27-CHECKRAISE, BBLOW-NO-SEVENS: A5-CHECKRAISE and A5-SEVENS-RULE apply
#   to fixed-limit ace-to-five lowball only.
#   STUD-ALLIN-HOLECARD-UP: an all-in player's seventh card dealt face up is never a
#   STUD-7TH-UP finding (he keeps it; the others get their normal card).
#   STUD-FOLD-NO-WAGER: a hand folded with no wager pending may go on being dealt cards; its
#   seat stays in the deal order and the replay takes those cards without a finding.

register_catalogued(STUD_DRAW_RULE_IDS)
