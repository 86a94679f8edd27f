"""The catalogue, the remaining RULEBOOK ids: catalogued so the report can name every id,
none registered (audit/rules/coverage.py gives each its status).
"""

from __future__ import annotations

from audit.rules.catalog.base import (
    COLLUSION,
    ILLEGAL_BET,
    INFO,
    IRREGULARITY,
    PROCEDURE,
    VIOLATION,
    WARNING,
    WRONG_AWARD,
    rule,
)

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "META_RULING_WINDOW", "META_RECONSTRUCT", "META_DEAL_START", "META_TDA_DEFERRAL",
    "DEAL_DECK_CHANGE", "MISDEAL_DRAW_SHORT", "BUTTON_CORRECTION", "BLIND_NEW_PLAYER",
    "BLIND_NEW_PLAYER_WINDOW", "BLIND_ALLIN_MAKEUP", "BLIND_NEW_GAME", "BLIND_SEAT_CHANGE",
    "BLIND_DEAL_OFF", "BLIND_SINGLE_LOWBALL", "BLIND_LOWBALL_PASSED", "ANTE_DRAW_ANYTIME",
    "BET_CHECKRAISE", "BET_NL_MAX_BUYIN", "STUD_FOLD_NO_WAGER", "STUD_UPCARDS_FOLD",
    "STUD_ALLIN_HOLECARD_UP", "STUD_ABSENT", "DRAW_ASKED_COUNT", "DRAWHI_CHECKRAISE",
    "D27_CHECKRAISE", "BBLOW_NO_SEVENS", "JACKS_PASSED_OUT", "JACKS_ALLIN_OPEN", "KILL_UNAWARE",
    "KILL_GAME_TYPE", "TOURN_DEAD_BUTTON", "TOURN_NEW_PLAYER", "TOURN_STUD_MISDEAL",
    "TOURN_BUST_ORDER", "TOURN_CHIP_RACE", "TOURN_BALANCE", "TOURN_SEAT_LOCK",
    "TOURN_REBUY_DECLARED", "TOURN_HIDDEN_CHIPS", "HOUSE_BUYIN_MIN", "HOUSE_RATHOLE", "HOUSE_AWAY",
    "HOUSE_STAKES_CHANGE", "HOUSE_ONE_PLAYER_ONE_HAND", "HOUSE_NO_PUSHING_BETS",
    "HOUSE_SEPARATED_PLAYERS", "PATTERN_DELIBERATE_OOT", "PATTERN_MULTI_ACCOUNT", "PATTERN_BOT_RTA",
    "PATTERN_STALLING", "PATTERN_TABLE_TALK", "PATTERN_MISCALL", "PATTERN_FREEROLL",
    "PATTERN_SITOUT_OK", "EVAL_SUIT_ORDER", "EVAL_LOW_A5", "EVAL_LOW_27", "EVAL_JOKER_HIGH",
    "EVAL_BOARD",
]

# --- The remaining RULEBOOK ids ----------------------------------------------------------------
# Catalogued so the report can name every RULEBOOK id: meta and profile notes, session (S) and
# cross-hand (X) rules no check covers yet, the permissions the replay honours, and a few per-hand
# (F/P) rules. None is registered here; audit/rules/coverage.py gives each its status (decided
# within other ids, a permission honoured, or not checked and why).
META_RULING_WINDOW = rule(
    'META-RULING-WINDOW', PROCEDURE, INFO,  # [S]
    '003 (2)Decision-Making r.4; 004 §2 House Policies (5th bullet); 001 App III §2 r.5',
    'A pot ruling may be requested only until the next deal starts (first riffle of the shuffle; '
    'online, the start of the next hand) or until the game ends or moves table. After that the '
    'result stands, and an auditor finding is informational only.',
)
META_RECONSTRUCT = rule(
    'META-RECONSTRUCT', WRONG_AWARD, INFO,  # [F]
    '003 (2)Decision-Making r.5–6; 001 App III §2 r.6–7; 004 §2 House Policies (6th bullet, "check'
    ' the logs")',
    'If a pot was wrongly awarded and the request came in time, the betting may be reconstructed '
    "and the correct amounts transferred. This is the remedy the replay validator's output "
    'supports. Play may go on with the pot impounded while logs are checked.',
)
META_DEAL_START = rule(
    'META-DEAL-START', PROCEDURE, INFO,  # [F]
    '000 Gl. DEAL; 001 §2.2 DEAL, 3.3.2.8; 002 §15.0 "new limits apply"; 003 (2)Decision-Making '
    'r.4',
    'A deal runs from the shuffle (first riffle) until the pot is awarded. Tournament level '
    'changes take effect at the next deal after the signal.',
)
META_TDA_DEFERRAL = rule(
    'META-TDA-DEFERRAL', PROCEDURE, INFO,  # [—]
    '000 Preface',
    'In the Montana profile, tournament rules are those of the current TDA, which is not among the'
    ' seeds. The TOURNAMENT overlay for Montana uses only the tournament parentheticals inside '
    '000.',
)
DEAL_DECK_CHANGE = rule(
    'DEAL-DECK-CHANGE', PROCEDURE, WARNING,  # [S]
    '003 (2)Procedures r.18; 001 App III §3 r.21, 3.3.2.21; 002 §15.0 "deck is not changed"',
    'A new deck must be used for at least one full round before it is changed (USPA: a new setup '
    'for at least one hour), unless it is damaged. In tournaments decks change with the dealer, '
    'never on request.',
)
MISDEAL_DRAW_SHORT = rule(
    'MISDEAL-DRAW-SHORT', IRREGULARITY, WARNING,  # [F]
    '000 §11 r.5; 001 3.2.10.5.4; 002 §12.1 "Five cards constitute"',
    'Draw high: a player other than the button with fewer than 5 cards before any action → '
    'misdeal. After action he draws to five; the button may receive its 5th card even after '
    'action.',
)
BUTTON_CORRECTION = rule(
    'BUTTON-CORRECTION', PROCEDURE, WARNING,  # [S]
    '000 §2 Irreg r.1; 001 3.1.6.1',
    'If the button was wrong on the previous hand, the button and blinds are corrected on the new '
    'hand so that every player gets one chance at each position in the round.',
)
BLIND_NEW_PLAYER = rule(
    'BLIND-NEW-PLAYER', PROCEDURE, WARNING,  # [S]
    '000 §3 r.4–6; 001 3.5.2.4–6; 002 §11.1 "new player"; 000 §10 r.3; 001 3.2.8.5.1.3',
    'A new player either waits for the BB or posts an amount equal to the BB and is dealt in at '
    'once. In lowball he must post 2×BB (a kill) or wait. Someone playing over is a new player. A '
    'new player who lets the button pass once is not treated as having missed blinds and posts '
    'only the BB.',
)
BLIND_NEW_PLAYER_WINDOW = rule(
    'BLIND-NEW-PLAYER-WINDOW', PROCEDURE, WARNING,  # [S]
    '000 §3 r.7, §14 #5; 001 3.5.2.7, App II #3; 002 §16.0 #3',
    'A new player may not be dealt in between the BB and the button, and blinds may not be made up'
    ' there: he waits until the button passes. All three explanation texts say allowing it would '
    'be better, so this should be a profile toggle (default: prohibit).',
)
BLIND_ALLIN_MAKEUP = rule(
    'BLIND-ALLIN-MAKEUP', PROCEDURE, WARNING,  # [S]
    '000 §3 r.12; 001 3.5.2.11',
    'A player who went all-in, lost and missed blinds must make them up before rebuying; he is not'
    ' a new player.',
)
BLIND_NEW_GAME = rule(
    'BLIND-NEW-GAME', PROCEDURE, WARNING,  # [S]
    '000 §3 r.13; 001 3.5.2.12',
    'In a newly started game: (a) anyone who drew for the button is active and owes any blinds he '
    'misses; (b) a new player need not post until the button has gone round once, unless a blind '
    'has already passed his seat; (c) seat changes carry no penalty unless a blind has passed the '
    'new seat.',
)
BLIND_SEAT_CHANGE = rule(
    'BLIND-SEAT-CHANGE', PROCEDURE, WARNING,  # [S]
    '000 §3 r.14–15, §10 r.7; 001 3.5.2.13, 3.2.8.5.1.7',
    'In multi-blind games a player who changes seats is dealt in at the first hand in the same '
    'position relative to the BB (e.g. moving two positions further away means waiting two hands).'
    ' Moving closer to the BB carries no penalty. He may instead post a BB if he has not missed a '
    'blind. Lowball: kill the pot, wait for the same relative position, or wait for the BB.',
)
BLIND_DEAL_OFF = rule(
    'BLIND-DEAL-OFF', PROCEDURE, WARNING,  # [S]
    '000 §3 r.16; 001 3.5.2.14',
    'A player who "deals off" (plays the button, then moves seat) may let the blinds pass his new '
    'seat once and re-enter behind the button without posting.',
)
BLIND_SINGLE_LOWBALL = rule(
    'BLIND-SINGLE-LOWBALL', PROCEDURE, WARNING,  # [F/S]
    '000 §10 r.4–6; 001 3.2.8.5.1.4–6; 002 §11.1 "single-blind"',
    'In single-blind (lowball) games, half a blind or more counts as a full blind. A player with '
    'less than half a blind may be dealt in, but the next player must then take the blind; if the '
    'short player wins or rebuys, he must take the blind next deal or sit out until due for the '
    'BB. A player who fails to take the blind may only be dealt in on the blind.',
)
BLIND_LOWBALL_PASSED = rule(
    'BLIND-LOWBALL-PASSED', PROCEDURE, WARNING,  # [S]
    '000 §10 r.7; 001 3.2.8.5.1.7; 002 §11.1 "multiple-blind"',
    "Multi-blind lowball: if the BB passes a player's seat (for any reason), he waits for the BB "
    'or kills the pot. This does not apply to a player who took all his blinds and then changed '
    'seats; he re-enters when his position entitles him (the button may pass him once without '
    'penalty).',
)
ANTE_DRAW_ANYTIME = rule(
    'ANTE-DRAW-ANYTIME', PROCEDURE, WARNING,  # [S]
    '000 §11 r.11–12, §2 Irreg r.6; 001 3.2.10.5.10–11, 3.1.6.6; 002 §12.1 "change your seat", '
    '"pay the ante"',
    'In draw, a player may pay the ante (single or multiple) at any time and get a hand, unless '
    'the pot holds money forfeited in a hand he was not in. He may not change seats between hands '
    'while multiple antes or forfeited money are in the pot. Generally, when the pot holds money '
    'forfeited on the previous deal, only players dealt into that deal get a hand.',
)
BET_CHECKRAISE = rule(
    'BET-CHECKRAISE', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §2 B&R r.2; 001 3.1.7.1',
    'Check-raise is allowed in all games except certain lowball forms (`A5-CHECKRAISE`).',
)
BET_NL_MAX_BUYIN = rule(
    'BET-NL-MAX-BUYIN', PROCEDURE, WARNING,  # [S]
    '000 §13 NL r.14',
    'The house may set a maximum buy-in for big-bet games.',
)
STUD_FOLD_NO_WAGER = rule(
    'STUD-FOLD-NO-WAGER', PROCEDURE, WARNING,  # [F]
    '000 §7 r.9; 001 3.2.3.5.7',
    'A hand folded when no wager is pending keeps receiving cards (the seat stays in the deal '
    'order) until a bet kills it. Deal-order checks must still count that seat.',
)
STUD_UPCARDS_FOLD = rule(
    'STUD-UPCARDS-FOLD', PROCEDURE, WARNING,  # [P]
    '000 §7 r.10, §2 DH r.1(c); 001 3.2.3.5.10, 3.1.5.1.3; 003 (3)Dead Hands r.1(c)',
    'Facing a bet, picking up the upcards, turning them face down, or mixing them with the down '
    'cards is a fold. After the betting is over it means nothing.',
)
STUD_ALLIN_HOLECARD_UP = rule(
    'STUD-ALLIN-HOLECARD-UP', IRREGULARITY, WARNING,  # [F]
    '000 §7 r.16; 001 3.2.3.5.16',
    "An all-in player's hole cards should be dealt face down. If his final hole card is dealt up, "
    'he keeps it and the others get their normal card.',
)
STUD_ABSENT = rule(
    'STUD-ABSENT', PROCEDURE, WARNING,  # [F]
    '000 §7 r.8; 001 3.2.3.5.6',
    'An absent player forfeits his ante and any forced bet; his hand is killed when the betting '
    'reaches his seat (tournament variants: P26).',
)
DRAW_ASKED_COUNT = rule(
    'DRAW-ASKED-COUNT', PROCEDURE, WARNING,  # [P]
    '000 §10 r.13, §11 r.9; 001 3.2.8.5.1.13, 3.2.10.5.7; 002 §11.1 and §12.1 "how many cards"',
    'Until there is action after the draw, a player (and the dealer) must say how many cards he '
    'drew if an active player asks; after that, the dealer may not answer.',
)
DRAWHI_CHECKRAISE = rule(
    'DRAWHI-CHECKRAISE', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §11 r.2; 001 3.2.10.5.2; 002 §12.1 "Check-raise is permitted"',
    'Draw high: check-raise is allowed before and after the draw.',
)
D27_CHECKRAISE = rule(
    'D27-CHECKRAISE', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §10 D27 r.3–4; 001 3.2.8.5.3.3; 002 §11.3 "Check-raise is allowed"',
    'Deuce-to-seven: check-raise is allowed on any hand after the draw, and a seven or better need'
    ' not bet (no sevens rule).',
)
BBLOW_NO_SEVENS = rule(
    'BBLOW-NO-SEVENS', ILLEGAL_BET, VIOLATION,  # [F]
    '000 §10 BBL r.1, r.4–5; 001 3.2.8.5.4.1, .4–.5; 002 §11.4',
    'NL/PL lowball: any hand may be checked after the draw without penalty (no sevens rule), and '
    'check-raise is allowed. The NL/PL betting rules apply.',
)
JACKS_PASSED_OUT = rule(
    'JACKS-PASSED-OUT', PROCEDURE, WARNING,  # [S]
    '001 3.2.9.5.1, 3.2.9.3.3; 002 §12.2 "three consecutive"',
    "If nobody opens, the button moves on and everyone antes again, until the game's limit of "
    'antes is reached (most games: three consecutive deals).',
)
JACKS_ALLIN_OPEN = rule(
    'JACKS-ALLIN-OPEN', PROCEDURE, WARNING,  # [S]
    '001 3.2.9.5.3, 3.2.9.5.5; 002 §12.2 "all in for just the ante", "legally declared"',
    'A player all-in for the ante (or part of it) may open if he holds openers. If he opens '
    'falsely, he loses his ante money and may not play again until someone else has legally opened'
    ' and won a pot, even if he rebuys. A player who declares the pot open must prove openers to '
    'win.',
)
KILL_UNAWARE = rule(
    'KILL-UNAWARE', ILLEGAL_BET, VIOLATION,  # [F/P]
    '000 §12 r.9; 001 3.6.2.9; 002 §13.1 "unaware that the pot"',
    'A player who put in too little because he did not know the pot was killed must make up the '
    'amount if it is a required kill with the kill button face up; otherwise he may withdraw and '
    'reconsider.',
)
KILL_GAME_TYPE = rule(
    'KILL-GAME-TYPE', PROCEDURE, INFO,  # [S]
    '000 §12 r.13; 001 3.6.2.13; 002 §13.1 "Broken game"',
    'A game with a required kill counts as a different game type when deciding broken-game status.',
)
TOURN_DEAD_BUTTON = rule(
    'TOURN-DEAD-BUTTON', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "remains in position"; 001 3.3.2.23',
    'The button stays where it is until the right blinds have been posted; every player posts '
    'every blind each round, so the button may sit in front of the same player for two hands.',
)
TOURN_NEW_PLAYER = rule(
    'TOURN-NEW-PLAYER', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "New players"; 001 3.3.2.24',
    'New players are dealt in at once, unless they sit in the SB or button seat, in which case '
    'they wait for the button to pass.',
)
TOURN_STUD_MISDEAL = rule(
    'TOURN-STUD-MISDEAL', IRREGULARITY, VIOLATION,  # [F]
    '002 §15.0 "At stud"; 001 3.3.2.26, 3.2.3.5.5; 000 §7 r.1',
    'Stud: a down card dealt face up on the initial deal → misdeal.',
)
TOURN_BUST_ORDER = rule(
    'TOURN-BUST-ORDER', WRONG_AWARD, VIOLATION,  # [F]
    '002 §15.0 "go broke"; 001 3.3.2.29',
    'Players eliminated on the same hand are placed in order of their stacks at the start of that '
    'hand, the larger stack finishing higher.',
)
TOURN_CHIP_RACE = rule(
    'TOURN-CHIP-RACE', PROCEDURE, WARNING,  # [P]
    '002 §15.0 "odd chips"; 001 3.3.2.9',
    'Colouring up: chips of the smallest denomination that are enough for a new chip are changed '
    'up directly. For the odd ones, each player gets one card per odd chip, dealt clockwise from '
    'seat 1, each player receiving all his cards before the next. Highest card by suit exchanges '
    'first, then the next, until all are gone. The last odd lot gets a new chip if its holder has '
    'at least half the needed quantity, otherwise nothing.',
)
TOURN_BALANCE = rule(
    'TOURN-BALANCE', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "reasonably balanced", "redraw"; 001 3.3.2.13–15',
    'Table sizes are kept within 2 players when there are more than 6 tables, and within 1 when '
    'there are 6 or fewer. Tables break in a preset order. Seats are redrawn at 3, 2 and 1 tables '
    'remaining (the 3-table redraw is optional if the event started with 4–5 tables).',
)
TOURN_SEAT_LOCK = rule(
    'TOURN-SEAT-LOCK', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "change of seat"; 001 3.3.2.2–3',
    'Seats are drawn at random or assigned; no seat change once play starts, except by the '
    'director.',
)
TOURN_REBUY_DECLARED = rule(
    'TOURN-REBUY-DECLARED', PROCEDURE, WARNING,  # [S]
    '002 §15.0 "intent to rebuy"; 001 3.3.2.27',
    'A player who announces a rebuy before the cards are dealt is playing behind and must make it.',
)
TOURN_HIDDEN_CHIPS = rule(
    'TOURN-HIDDEN-CHIPS', PROCEDURE, WARNING,  # [P]
    '002 §15.0 "hidden"; 001 3.3.2.16',
    'A player who went all-in, lost, and then finds hidden chips is eliminated if the opponent '
    'could have covered them. Before the next deal the director may award them to the winner; '
    'after it they are removed.',
)
HOUSE_BUYIN_MIN = rule(
    'HOUSE-BUYIN-MIN', PROCEDURE, WARNING,  # [S]
    '000 §2 Buy-In r.1–3; 001 3.1.3.1–3; 003 (3)Buy-In r.1–2',
    'Full buy-in: at limit ≥10× the maximum bet; at big-bet ≥40× the minimum bring-in (003). Only '
    'one short buy-in is allowed (per game, or per session in 003). A player forced over from a '
    'broken or must-move game of the same limit may keep playing a short stack; a player switching'
    ' voluntarily needs a proper buy-in (P29).',
)
HOUSE_RATHOLE = rule(
    'HOUSE-RATHOLE', PROCEDURE, WARNING,  # [S]
    '003 (2)Procedures r.5; 001 App III §3 r.5; 004 §2 Procedures',
    'A player who cashes out and returns to the same game within the window must buy in for at '
    'least the amount he took off the table (P30).',
)
HOUSE_AWAY = rule(
    'HOUSE-AWAY', PROCEDURE, INFO,  # [S]
    '003 (2)Procedures r.17; 001 App III §3 r.19',
    'Chips may be picked up after an absence of more than 15 min (003) or 30 min (001); frequent '
    'absences may also lead to removal.',
)
HOUSE_STAKES_CHANGE = rule(
    'HOUSE-STAKES-CHANGE', PROCEDURE, INFO,  # [S]
    '003 (2)Procedures r.1; 001 App III §3 r.16',
    'The agreed game or limit is not changed if more than one player objects (USPA: two or more; '
    'raising the limit needs host approval).',
)
HOUSE_ONE_PLAYER_ONE_HAND = rule(
    'HOUSE-ONE-PLAYER-ONE-HAND', COLLUSION, WARNING,  # [X]
    '003 (2)Procedures r.8–10; 001 App III §3 r.8–9, r.11; 004 §2 Procedures, §2 Dupe Accounts',
    "One person per hand; nobody plays another player's chips; online, one account per person. "
    'Playing over is allowed only with permission.',
)
HOUSE_NO_PUSHING_BETS = rule(
    'HOUSE-NO-PUSHING-BETS', COLLUSION, WARNING,  # [X]
    '003 (2)Procedures r.11; 001 App III §3 r.12; 000 Gl. PUSHING BETS, POTTING OUT',
    'Pushing or saving bets and "potting out" are not allowed.',
)
HOUSE_SEPARATED_PLAYERS = rule(
    'HOUSE-SEPARATED-PLAYERS', PROCEDURE, WARNING,  # [S]
    '004 §2 Seating; 001 App III §4 r.5',
    'The house may forbid two given players (spouses, relatives, partners) from sitting in the '
    'same game. The auditor can check seatings against an association list.',
)
PATTERN_DELIBERATE_OOT = rule(
    'PATTERN-DELIBERATE-OOT', COLLUSION, WARNING,  # [X]
    '000 §1 Etiquette, §2 B&R r.11; 001 1.3.2.1, 3.1.7.10; 003 (1)Etiquette',
    "Deliberately acting out of turn is improper. Detect: a player's out-of-turn rate, and out-of-"
    'turn actions that benefit a frequent partner.',
)
PATTERN_MULTI_ACCOUNT = rule(
    'PATTERN-MULTI-ACCOUNT', COLLUSION, WARNING,  # [X]
    '004 §2 Dupe Accounts',
    'Duplicate accounts are banned. Detect: correlated identities (device/IP), never sitting '
    'together, tells reused across accounts.',
)
PATTERN_BOT_RTA = rule(
    'PATTERN-BOT-RTA', COLLUSION, WARNING,  # [X, partial]
    '004 §2 Prohibited Tools',
    'Banned online: bots, real-time advice tools, and services that feed hole-card data to others.'
    ' Signals: decision-time regularity, superhuman consistency, play as if with knowledge of '
    "others' hole cards.",
)
PATTERN_STALLING = rule(
    'PATTERN-STALLING', COLLUSION, WARNING,  # [X, partial]
    '000 §1 Etiquette; 001 1.3.2.6; 003 (1)Etiquette; 004 §1 Etiquette',
    'Needlessly stalling the game is improper. Per-player decision-time outliers can be measured; '
    '"needless" is a judgment.',
)
PATTERN_TABLE_TALK = rule(
    'PATTERN-TABLE-TALK', COLLUSION, WARNING,  # [P]
    '000 §1 Etiquette; 001 1.3.2.5, 1.3.2.9, App III §3 r.27; 003 (1)Etiquette, (2)Procedures '
    'r.23; 004 §1 Etiquette, §2 Procedures',
    'Needs chat or voice logs. Forbidden: revealing a live hand in a multiway pot before the '
    'betting ends; revealing a folded hand during the deal (000, 004); statements that could '
    'unfairly influence play; speaking a non-English or foreign language during a deal (004 allows'
    ' it if the whole table shares the language).',
)
PATTERN_MISCALL = rule(
    'PATTERN-MISCALL', COLLUSION, WARNING,  # [P]
    '000 §2 SD r.2; 001 3.1.8.2',
    'Deliberately miscalling a hand to make an opponent discard a winner.',
)
PATTERN_FREEROLL = rule(
    'PATTERN-FREEROLL', COLLUSION, WARNING,  # [P]
    '000 §2 Irreg r.5; 001 3.1.6.5',
    'A player who knows the deck is defective must say so; betting aggressively instead (a '
    '"freeroll") may cost him the refund. Detect: a raise by a player who was dealt a duplicated '
    'card.',
)
PATTERN_SITOUT_OK = rule(
    'PATTERN-SITOUT-OK', PROCEDURE, INFO,  # [—]
    '004 §1 Sitting Out',
    'Sitting out (folding every hand while still paying blinds and antes) is legal in 004. Do not '
    'flag it.',
)
# §5 evaluators the stud and draw games use; checked within the award and order rules
EVAL_SUIT_ORDER = rule(
    "EVAL-SUIT-ORDER", PROCEDURE, WARNING,
    '000 §2 Ties r.1–2; 001 3.1.9.1–2; 004 ST/Play, RZ; 003 (2)Seating r.1; 002 §15.0 "highest '
    'card by suit"',
    "Suits rank spades, hearts, diamonds, clubs, and only for card-level ties: the stud "
    "bring-in, odd chips in stud, drawing for the button or a seat, table moves and the chip "
    "race; never for a pot tie.",
)
EVAL_LOW_A5 = rule(
    "EVAL-LOW-A5", WRONG_AWARD, VIOLATION,
    "000 §10 A5 intro & r.1, §8 intro, Gl. JOKER; 001 3.2.8.5.2, 3.2.8.5.2.1, 3.2.6.1–2, "
    "§2.2 JOKER; 002 §9.0, §9.1, §11.2; 004 RZ",
    "Ace-to-five low: the ace is the lowest card, straights and flushes do not count, unpaired "
    "hands beat paired ones and the highest card is compared first; the joker is the lowest "
    "rank not already in the hand.",
)
EVAL_LOW_27 = rule(
    "EVAL-LOW-27", WRONG_AWARD, VIOLATION,
    "000 §10 D27 intro & r.1, Gl. KANSAS CITY LOWBALL; 001 3.2.8.5.3, 3.2.8.5.3.1, §2.2 KANSAS "
    "CITY LOWBALL; 002 §11.3",
    "Deuce-to-seven low: the worst conventional high hand wins; aces are high only and "
    "straights and flushes count against the hand, so 5-4-3-2-A is ace high.",
)
EVAL_JOKER_HIGH = rule(
    "EVAL-JOKER-HIGH", WRONG_AWARD, VIOLATION,
    "000 §11 Joker r.1–4, Gl. JOKER; 001 §2.2 JOKER, 3.2.9.5.10; 002 §12.3, §12.2 \"retain "
    "openers\"",
    "In draw high the joker plays only as an ace or to complete a straight, flush or straight "
    "flush; five aces is the best hand.",
)
EVAL_BOARD = rule(
    "EVAL-BOARD", PROCEDURE, WARNING,
    "(derived) 000 §7 r.12; 001 3.2.3.5.12",
    "Stud action order ranks the upcards showing by pairs, trips and quads, then high cards; "
    "possible straights and flushes are ignored, razz ranks them low, ties go by position.",
)
