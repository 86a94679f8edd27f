"""The compiled replay (numba): proves a hand clean or hands it back.

`replay_batch` walks every hand of an event table with the same rules as the reference replay
(audit/replay/hand.py and the modules it calls) for the common case: hold'em and Omaha high
at fixed, pot and no limit, blinds, hole and board cards, showdowns, awards and rake; at
fixed limit seven-card stud, stud high-low, razz, five-card stud and Mississippi stud (antes,
the bring-in, first to act by the upcards, the open pair, the rounds by card count); and at
any limit the draw games, 2-7 single and triple draw, ace-to-five (the joker, the sevens rule
and check-raise handed back), badugi, draw high, and jacks or better (openers, the opener
first after the draw), dealt with blinds or, draw high and jacks, with antes (the draws, hand
sizes, the lowball opening), as the stud/draw hooks (audit/replay/family/hooks.py) replay
them: one betting, pot and award model for all (big-bet stud goes back). It never writes a
finding. Wherever the reference replay would flag something, or the hand holds anything this
kernel does not model (antes, straddles, dead blinds, run it twice, hi-lo, live-table
events, unknown cards a pot depends on, ...), it stops and marks the hand for the reference
replay instead. A hand it marks clean therefore has no findings, and its
projection rows equal the reference replay's (tests/replay/test_replay_fast.py holds both to that).

Inputs are integer columns decoded once per table (audit/replay/fast/table.py); outputs are
columns. Status codes say why a hand was handed back (the `why_*` numbers below), which is
what the fast-path coverage figures in `poker-audit bench` count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.poker.evaluate.kernel import badugi, dense_high_inline, low_27, low_a5

MISSING = np.iinfo(np.int64).min  # a null amount/total/seat in the integer columns

# event kinds (audit/replay/fast/table.py maps the `kind` strings to these codes)
KINDS = ("hand_started", "seat", "post", "deal", "burn", "fold", "check", "call", "bet",
         "raise", "show", "muck", "award", "rake", "hand_ended", "annotation", "complete",
         "draw", "stand_pat")
K_HAND_STARTED, K_SEAT, K_POST, K_DEAL, K_BURN, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, \
    K_SHOW, K_MUCK, K_AWARD, K_RAKE, K_HAND_ENDED, K_ANNOTATION, K_COMPLETE, K_DRAW, \
    K_STAND_PAT = range(len(KINDS))

# details the kernel tells apart (all others: -1; null: -2)
DETAILS = ("small_blind", "big_blind", "hole", "board", "uncalled", "sitting_out", "ante",
           "straddle", "new_player", "missed_big", "dead", "missed_small", "bring_in", "up",
           "down", "draw")
D_SMALL_BLIND, D_BIG_BLIND, D_HOLE, D_BOARD, D_UNCALLED, D_SITTING_OUT, D_ANTE, \
    D_STRADDLE, D_NEW_PLAYER, D_MISSED_BIG, D_DEAD, D_MISSED_SMALL, D_BRING_IN, D_UP, \
    D_DOWN, D_DRAW = range(len(DETAILS))
D_OTHER, D_NULL = -1, -2

# per-event flags decoded from `detail` text
F_REFUNDS_IMPLICIT, F_RAKE_IMPLICIT, F_UNRECORDED = 1, 2, 4

# per-hand game columns (one row per hand)
G_VARIANT, G_STRUCTURE, G_BB, G_SB, G_SMALL_BET, G_BIG_BET, G_MIN_BET, G_BUTTON, \
    G_TOURNAMENT, G_SETTINGS, G_SUPPORTED, G_ANTE, G_BRING_IN = range(13)
N_GAME = 13
V_HOLDEM, V_OMAHA, V_OMAHA5, V_OMAHA_HILO, V_OMAHA5_HILO, V_OMAHA6, V_OMAHA6_HILO, \
    V_STUD, V_STUD_HILO, V_RAZZ, V_STUD5, V_MISSISSIPPI, V_27_TRIPLE, V_27_SINGLE, \
    V_BADUGI, V_DRAW_HIGH, V_LOWBALL_A5, V_JACKS, V_A5_TRIPLE = range(19)
V_FIRST_STUD = V_STUD  # V_STUD..V_MISSISSIPPI: stud games
V_FIRST_DRAW = V_27_TRIPLE  # from here on: draw games (audit/poker/variants.py)
HOLE_CARDS = (2, 4, 5, 4, 5, 6, 6, 7, 7, 7, 5, 7, 5, 5, 4, 5, 5, 5, 5)  # by variant code
# draw games by variant code - V_FIRST_DRAW: draws, first round at the big bet, lowball
# (LOWBALL-OPEN); the single-draw games' two-round cap comes with their settings row
# (audit/replay/fast/table.py)
DRAWS = (3, 1, 3, 1, 1, 1, 3)
DRAW_BIG_FROM = (2, 1, 2, 1, 1, 1, 2)
DRAW_LOWBALL = (1, 1, 0, 0, 1, 0, 1)
# seven-card stud (audit/poker/variants.py): how the n-th card of a hand is dealt, 1 = up
# stud games by variant code - V_FIRST_STUD (audit/poker/variants.py): how the n-th card of
# a hand is dealt (1 = up), the cards each holds on the first street, the first round at the
# big bet (five-card stud: none)
STUD_UP = ((0, 0, 1, 1, 1, 1, 0), (0, 0, 1, 1, 1, 1, 0), (0, 0, 1, 1, 1, 1, 0),
           (0, 1, 1, 1, 1, 0, 0), (0, 0, 1, 1, 1, 1, 1))
STUD_FIRST = (3, 3, 3, 2, 3)
STUD_BIG_FROM = (2, 2, 2, 99, 2)
# VariantSpec.counts: the cards each holds in each betting round (then 99: no such round),
# the street a hand of n cards is on (hooks.py deal(): the first round whose count covers
# n; -1 before the first), the upcards on each street, and the last street
STUD_COUNTS = ((3, 4, 5, 6, 7), (3, 4, 5, 6, 7), (3, 4, 5, 6, 7), (2, 3, 4, 5, 99),
               (3, 5, 6, 7, 99))
STUD_STREET_OF = ((-1, -1, -1, 0, 1, 2, 3, 4, 4), (-1, -1, -1, 0, 1, 2, 3, 4, 4),
                  (-1, -1, -1, 0, 1, 2, 3, 4, 4), (-1, -1, 0, 1, 2, 3, 3, 3, 3),
                  (-1, -1, -1, 0, 1, 1, 2, 3, 3))
STUD_UPS = ((1, 2, 3, 4, 4), (1, 2, 3, 4, 4), (1, 2, 3, 4, 4), (1, 2, 3, 4, 4),
            (1, 3, 4, 5, 5))
STUD_LAST = (4, 4, 4, 3, 3)
FL, PL, NL = 0, 1, 2

# profile settings columns (one row per Settings a hand can use: G_SETTINGS is the row)
P_CAP_MULTI, P_CAP_HEADSUP, P_CAP_HEADSUP_TOURN, P_FOLD_UNCAPS, P_ALLIN_AGGREGATE, \
    P_NL_REOPEN_AGGREGATE, P_PL_SB_AS_BB, P_PL_SB_AS_BB_TOURN, P_RAKE_ALLOWED, \
    P_RAKE_PERCENT, P_RAKE_CAP, P_RAKE_IMPLIED_MAX, P_STRADDLE_BIGBET, P_STRADDLE_LIMIT, \
    P_STRADDLE_NEW_BRING_IN, P_ALLIN_FULL_LEVEL, P_ALLIN_HALF_LEVEL, \
    P_MIN_OPEN_2BB = range(18)
N_SETTINGS = 18

# per-seat state rows
S_IN, S_FOLDED, S_ACTED, S_START, S_STACK, S_BET, S_CONTRIB, S_ACTED_LEVEL, S_ACTED_FR, \
    S_VPIP, S_PFR, S_AGGR, S_CALLS, S_FOLDED_STREET, S_ALLIN_STREET, S_FACED_FROM, \
    S_MUCKED, S_SHOWN, S_SHOWN_N, S_HOLE_N, S_SEAT_EVENT, S_ACTUAL, S_EXPECTED, S_REFUND, \
    S_STRENGTH, S_LIVE_C, S_DEAD, S_ANTES, S_LOW, S_INCLUDED, S_ODD_HIGH, \
    S_ODD_LOW, S_DREW, S_DRAWN, S_GOT, S_SERVED, S_CHECKED, S_CHECKED_AFTER = range(38)
N_SEAT_ROWS = 38
MAX_SEATS = 24  # seat numbers 1..23; a bigger table goes to the reference replay
MAX_CARDS = 8
JOKER = 52  # audit/poker/cards.py; the deck's duplicate check (dealing.py Deck) skips it

# hand scalars
H_STREET, H_CUR_BET, H_LAST_RAISE, H_FR_COUNT, H_BETS, H_CAPPED, H_AGGRESSOR, H_ANCHOR, \
    H_TO_ACT, H_SB_SEAT, H_BB_SEAT, H_N_ACTIONS, H_BET_WAS_SHORT, H_STRUCTURE, H_MIN_BET, \
    H_BUTTON, H_SIZE, H_N_ORDER, H_BB, H_SB, H_SMALL_BET, H_BIG_BET, H_TOURNAMENT, \
    H_SETTINGS, H_RAKE, H_REFUNDS_ALL, H_ANTE, H_STRADDLE_SEAT, H_POT_NET, H_STUD, \
    H_BIG_FROM, H_PENDING, H_BRING_SEAT, H_BRING_DONE, H_OPEN_PAIR, H_BIG_SEEN, H_BURN_MARK, \
    H_BAD_BURN, H_ANTES_CHECKED, H_DEALT, H_FAMILY, H_CAP_MULTI, H_PHASE, H_IN_DRAW, \
    H_DRAW_POS, H_OPENED, H_FIRST_ACTION, H_HOLE_CARDS, H_OPENER, H_OPENER_FIRST = range(50)
N_SCALARS = 50

BOARD_AFTER = (0, 3, 4, 5)
POSITION_NAMES = ("", "BTN", "SB", "BB", "CO", "HJ", "LJ", "UTG")  # then 8+i = UTG+i
CLEAN = 0
CLEAN_UNRECORDED = -1  # clean but for DQ-UNVERIFIABLE-AWARD: the log records no winnings
CLEAN_IMPLIED_RAKE = -2  # clean but for DQ-UNVERIFIABLE-AWARD: an unlogged collection over
                         # rake.implied_max_percent of the pot (awards.py)
UNKNOWN_STACK = 1 << 62  # audit/replay/hand.py: a stack not logged is never short

# --------------------------------------------------------------------------- turn order


@njit(cache=True, inline="always")
def _remaining(S, order, n_order):
    c = 0
    for i in range(n_order):
        if S[S_FOLDED, order[i]] == 0:
            c += 1
    return c


@njit(cache=True, inline="always")
def _with_chips(S, order, n_order):
    c = 0
    for i in range(n_order):
        s = order[i]
        if S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0:
            c += 1
    return c


@njit(cache=True, inline="always")
def _next_to_act(S, H, order, after):
    """HandState.next_to_act: first seat clockwise after `after` owing an action (0 = none)."""
    n = H[H_N_ORDER]
    if n == 0:
        return 0
    start = -1
    for i in range(n):
        if order[i] == after:
            start = i + 1
            break
    if start < 0:
        b = H[H_BUTTON]
        size = H[H_SIZE] + 1
        d = (after - b - 1 + 4 * size) % size
        start = 0
        for i in range(n):
            if (order[i] - b - 1 + 4 * size) % size > d:
                start = i
                break
    cur = H[H_CUR_BET]
    can_act = 0
    for i in range(n):
        s = order[i]
        if S[S_IN, s] and S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0:
            can_act += 1
    for k in range(n):
        s = order[(start + k) % n]
        if S[S_IN, s] and S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0 and (
                S[S_ACTED, s] == 0 or S[S_BET, s] < cur):
            if can_act == 1 and (S[S_BET, s] >= cur
                                 or S[S_BET, s] >= _top_other_bet(S, order, n, s)):
                return 0
            return s
    return 0


@njit(cache=True)
def _top_other_bet(S, order, n, seat):
    """HandState.top_other_bet: the most any other player in the hand has in this round."""
    top = 0
    for i in range(n):
        s = order[i]
        if s != seat and S[S_IN, s] and S[S_FOLDED, s] == 0 and S[S_BET, s] > top:
            top = S[S_BET, s]
    return top


@njit(cache=True, inline="always")
def _new_round(S, H, order, street):
    H[H_STREET] = street
    H[H_CUR_BET] = 0
    for i in range(H[H_N_ORDER]):
        s = order[i]
        S[S_BET, s] = 0
        S[S_ACTED, s] = 0
    H[H_LAST_RAISE] = 0 if H[H_STRUCTURE] == FL else H[H_MIN_BET]
    H[H_FR_COUNT] = 0
    H[H_BETS] = 0
    H[H_CAPPED] = 0
    H[H_BET_WAS_SHORT] = 0
    H[H_AGGRESSOR] = 0
    H[H_ANCHOR] = H[H_BUTTON]
    if _remaining(S, order, H[H_N_ORDER]) <= 1:
        H[H_TO_ACT] = 0
    else:
        H[H_TO_ACT] = _next_to_act(S, H, order, H[H_BUTTON])


@njit(cache=True)
def _start(S, H, order):
    """HandState.seat_order, then the preflop round."""
    b = H[H_BUTTON]
    n = 0
    for s in range(b + 1, H[H_SIZE]):
        if S[S_IN, s]:
            order[n] = s
            n += 1
    for s in range(1, min(b + 1, H[H_SIZE])):
        if S[S_IN, s]:
            order[n] = s
            n += 1
    H[H_N_ORDER] = n
    _new_round(S, H, order, 0)
    if H[H_STUD]:  # hooks.py start(): who acts waits for the cards
        H[H_TO_ACT] = 0
        H[H_PENDING] = 1


@njit(cache=True, inline="always")
def _index_in(order, n, seat):
    for i in range(n):
        if order[i] == seat:
            return i
    return -1


# --------------------------------------------------------------------------- cards


@njit(cache=True, inline="always")
def _parse_cards(data, lo, hi, out, joker):
    """Cards of one text into `out`; returns the count, -1 for text the reference replay
    must handle itself (malformed text, too many cards, and the joker unless `joker`: the
    games that play it, as JOKER = 52)."""
    n = 0
    i = lo
    while i < hi:
        ch = data[i]
        if ch == 32 or ch == 44 or (9 <= ch <= 13):
            i += 1
            continue
        j = i
        while j < hi and not (data[j] == 32 or data[j] == 44 or (9 <= data[j] <= 13)):
            j += 1
        if (j - i) % 2:
            return -1
        for k in range(i, j, 2):
            a = data[k]
            b = data[k + 1]
            if a == 63 and b == 63:  # ??
                card = -1
            elif joker and (a == 88 or a == 120) and (b == 106 or b == 74):  # Xj
                card = JOKER
            else:
                if 97 <= a <= 122:
                    a -= 32
                r = -1
                if 50 <= a <= 57:
                    r = a - 50
                elif a == 84:
                    r = 8
                elif a == 74:
                    r = 9
                elif a == 81:
                    r = 10
                elif a == 75:
                    r = 11
                elif a == 65:
                    r = 12
                if 65 <= b <= 90:
                    b += 32
                su = -1
                if b == 99:
                    su = 0
                elif b == 100:
                    su = 1
                elif b == 104:
                    su = 2
                elif b == 115:
                    su = 3
                if r < 0 or su < 0:
                    return -1
                card = r * 4 + su
            if n >= out.shape[0]:
                return -1
            out[n] = card
            n += 1
        i = j
    return n


@njit(cache=True, inline="always")
def _strength(cards, n, table5, table6, table7, flush_suit, by_mask, strengths, card_value):
    """High strength of n (5..7) known cards: the lookup tables of audit/poker/evaluate/tables.py
    (inlined, as is the lookup: each call would pass the eight tables)."""
    return strengths[dense_high_inline(cards, n, table5, table6, table7, flush_suit, by_mask,
                                       card_value)]


@njit(cache=True)
def _omaha_strength(hole, hn, board, table5, table6, table7, flush_suit, by_mask, strengths,
                    card_value):
    best = -1
    five = np.empty(5, np.int64)
    for a in range(hn):
        for b in range(a + 1, hn):
            for x in range(5):
                for y in range(x + 1, 5):
                    for z in range(y + 1, 5):
                        five[0] = hole[a]
                        five[1] = hole[b]
                        five[2] = board[x]
                        five[3] = board[y]
                        five[4] = board[z]
                        v = _strength(five, 5, table5, table6, table7, flush_suit, by_mask,
                                      strengths, card_value)
                        if v > best:
                            best = v
    return best


@njit(cache=True)
def _low_bit(card):
    return 1 << (((card >> 2) + 1) % 13)  # ace-low rank bit: ace = bit 0


@njit(cache=True)
def _bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True)
def _omaha_low8(hole, hn, board):
    """evaluate.omaha_low8_strength as an order: higher is better, -1 = no qualifying low.
    Five distinct ranks compare by their highest card first, which is the bitmask order."""
    best = 1 << 14
    for a in range(hn):
        for b in range(a + 1, hn):
            hm = _low_bit(hole[a]) | _low_bit(hole[b])
            if _bits(hm) != 2 or hm >= 1 << 8:
                continue
            for x in range(5):
                for y in range(x + 1, 5):
                    for z in range(y + 1, 5):
                        bm = _low_bit(board[x]) | _low_bit(board[y]) | _low_bit(board[z])
                        if _bits(bm) != 3 or bm >= 1 << 8 or hm & bm:
                            continue
                        if hm | bm < best:
                            best = hm | bm
    if best == 1 << 14:
        return -1
    return (1 << 14) - best


@njit(cache=True)
def _split(amount, winners, n_win, order, n_order, S):
    """pots.split: equal shares clockwise from the button, one odd chip each to the first
    winners; False when a winner is not in the seating order."""
    q_share = amount // n_win
    r_odd = amount - q_share * n_win
    given = 0
    for ix in range(n_order):
        s = order[ix]
        for w in range(n_win):
            if winners[w] == s:
                S[S_EXPECTED, s] += q_share + (1 if given < r_odd else 0)
                given += 1
                break
    return given == n_win


@njit(cache=True)
def _write_cards(cards, n, buf, pos):
    for i in range(n):
        if i:
            buf[pos] = 32
            pos += 1
        c = cards[i]
        if c < 0:
            buf[pos] = 63
            buf[pos + 1] = 63
        elif c == JOKER:
            buf[pos] = 88
            buf[pos + 1] = 106
        else:
            buf[pos] = (50, 51, 52, 53, 54, 55, 56, 57, 84, 74, 81, 75, 65)[c >> 2]
            buf[pos + 1] = (99, 100, 104, 115)[c & 3]
        pos += 2
    return pos


@njit(cache=True, inline="always")
def _give(i, s, n, parsed, hole, seen, S):
    """Cards dealt to seat s (event i) join his hand: 0, or 12 (more cards than the kernel
    holds), 9 (DEAL-DUPLICATE-CARD: a card seen before)."""
    hn = S[S_HOLE_N, s]
    if hn + n > MAX_CARDS:
        return 12
    for j in range(n):
        c = parsed[j]
        hole[s, hn + j] = c
        if 0 <= c < JOKER:
            if seen[c] >= 0:
                return 9
            seen[c] = i
    S[S_HOLE_N, s] = hn + n
    return 0


# --------------------------------------------------------------------------- stud
# Seven-card stud, stud high-low and razz, as audit/replay/family/hooks.py replays them for
# the common case: antes, the bring-in by the lowest (razz: highest) upcard, first to act by
# the best board, the open pair on 4th street, fixed-limit streets. Anything else goes back.


@njit(cache=True)
def _ace_low(card):
    """audit/poker/stud.py _ace_low: rank with the ace lowest, then suit."""
    return (((card >> 2) + 1) % 13) * 4 + (card & 3)


@njit(cache=True)
def _board_key(cards, lo, hi, low):
    """audit/poker/stud.py board_key of cards[lo:hi] as one integer, larger is better, for
    boards of the same size (the shape then fixes how many ranks follow): high, by quads,
    trips, two pair, pair, then the ranks, biggest group first; low (razz), the reverse."""
    counts = np.zeros(13, np.int64)
    for i in range(lo, hi):
        r = ((cards[i] >> 2) + 1) % 13 if low else cards[i] >> 2
        counts[r] += 1
    top = 0
    pairs = 0
    ranks = 0
    for size in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == size:
                if top == 0:
                    top = size
                if size == 2:
                    pairs += 1
                ranks = (ranks << 4) | (15 - r if low else r)
    if top == 4:
        shape = 4
    elif top == 3:
        shape = 3
    elif pairs >= 2:
        shape = 2
    elif pairs == 1:
        shape = 1
    else:
        shape = 0
    if low:
        shape = 4 - shape
    elif top == 4:  # five upcards (Mississippi): a full house between trips and quads
        shape = 5
    elif top == 3 and pairs:
        shape = 4
    return (shape << 24) | ranks


@njit(cache=True)
def _stud_deal(i, d, s, n, parsed, hole, seen, S, H, order, burns, variant, hole_n):
    """hooks.py deal() for a card dealt to a seat; 0, or the reason the hand goes back."""
    if d != D_UP and d != D_DOWN and d != D_HOLE and d != D_NULL:
        return 80  # a common card or another deal
    if s == MISSING or not (0 < s < H[H_SIZE]) or not S[S_IN, s]:
        return 11
    hn = S[S_HOLE_N, s]
    faces = STUD_UP[variant - V_FIRST_STUD]
    if hn + n > hole_n:
        return 12  # STUD-CARD-COUNT
    for j in range(n):
        up = faces[hn + j]
        if (d == D_UP) != (up == 1):
            return 81  # STUD-EXPOSED-START, STUD-7TH-UP and the like
        if up and parsed[j] < 0:
            return 82  # an upcard the log does not show
    why = _give(i, s, n, parsed, hole, seen, S)
    if why:
        return why
    H[H_DEALT] += n
    if H[H_DEALT] > 52:
        return 83  # STUD-SHORT-DECK
    k = STUD_STREET_OF[variant - V_FIRST_STUD][hn + n]
    if k > H[H_STREET]:
        if k != H[H_STREET] + 1:
            return 84
        # hooks.py _next_street
        if H[H_TO_ACT] and _remaining(S, order, H[H_N_ORDER]) > 1 and not H[H_PENDING]:
            return 7  # STUD-PREMATURE
        if burns - H[H_BURN_MARK] != 1:
            H[H_BAD_BURN] = 1
        H[H_BURN_MARK] = burns
        _new_round(S, H, order, k)
        H[H_TO_ACT] = 0
        H[H_PENDING] = 1
        H[H_OPEN_PAIR] = 0
        H[H_BIG_SEEN] = 0
        H[H_BIG_FROM] = STUD_BIG_FROM[variant - V_FIRST_STUD]
    return 0


@njit(cache=True)
def _stud_first(variant, hole, S, H, order):
    """The seat still in with the best claim to act first, ties to the first clockwise: on
    the first street the bring-in card (audit/poker/stud.py bring_in_seat: the lowest upcard,
    razz the highest, aces low), later the best board (first_by_board)."""
    first = STUD_FIRST[variant - V_FIRST_STUD]
    razz = variant == V_RAZZ
    street = H[H_STREET]
    n_up = STUD_UPS[variant - V_FIRST_STUD][street]
    b = 0
    best = 0
    for i in range(H[H_N_ORDER]):
        s = order[i]
        if S[S_FOLDED, s]:
            continue
        if street == 0:
            c = hole[s, first - 1]
            key = _ace_low(c) if razz else 100 - c
        else:
            key = _board_key(hole[s], first - 1, first - 1 + n_up, razz)
        if b == 0 or key > best:
            b = s
            best = key
    return b


@njit(cache=True)
def _stud_resolve(variant, hole, S, H, order):
    """hooks.py _resolve: who brings in, or who starts a later street, once its cards are out."""
    H[H_PENDING] = 0
    n = H[H_N_ORDER]
    street = H[H_STREET]
    for i in range(n):
        s = order[i]
        if not S[S_FOLDED, s] and S[S_HOLE_N, s] != STUD_COUNTS[variant - V_FIRST_STUD][street]:
            return 85  # a player still in without this street's cards
    if street == 0:
        b = _stud_first(variant, hole, S, H, order)
        H[H_BRING_SEAT] = b
        if b == 0 or S[S_STACK, b] == 0:
            return 86  # the lowcard is all in for his ante
        H[H_TO_ACT] = b
        return 0
    if _next_to_act(S, H, order, 0) == 0:
        H[H_TO_ACT] = 0
        return 0
    b = _stud_first(variant, hole, S, H, order)
    if S[S_STACK, b] > 0:
        H[H_TO_ACT] = b
    else:  # ORDER-STUD-ALLIN-STARTER: the next player still able to act starts
        H[H_TO_ACT] = _next_to_act(S, H, order, b)
    if street == 1 and variant == V_STUD:
        for i in range(n):
            s = order[i]
            if not S[S_FOLDED, s] and hole[s, 2] >> 2 == hole[s, 3] >> 2:
                H[H_OPEN_PAIR] = 1  # BET-STUD-OPENPAIR: either limit may be bet
    return 0


@njit(cache=True)
def _stud_antes(S, H, order):
    """hooks.py _antes_due, once the betting starts: every player has anted (an ante game)."""
    if H[H_ANTES_CHECKED]:
        return 0
    H[H_ANTES_CHECKED] = 1
    if H[H_ANTE] > 0:
        for i in range(H[H_N_ORDER]):
            if S[S_ANTES, order[i]] != 1:
                return 35
    return 0


@njit(cache=True)
def _stud_before(k, s, amount, total, variant, hole, S, H, order):
    """hooks.py before_action for the common case; 0, or the reason the hand goes back."""
    why = _stud_antes(S, H, order)
    if why:
        return why
    if H[H_PENDING]:
        why = _stud_resolve(variant, hole, S, H, order)
        if why:
            return why
    if s == MISSING or not (0 < s < H[H_SIZE]):
        return 40
    if H[H_STREET] == 0 and not H[H_BRING_DONE] and s == H[H_BRING_SEAT]:
        H[H_BRING_DONE] = 1
        if k == K_FOLD or k == K_CHECK:
            return 87  # STUD-BRINGIN-OPTIONS
    if H[H_OPEN_PAIR] and (k == K_BET or k == K_RAISE or k == K_COMPLETE):
        if total != MISSING:
            new_total = total
        else:
            new_total = S[S_BET, s] + (0 if amount == MISSING else amount)
        if H[H_BIG_SEEN] or new_total - H[H_LAST_RAISE] == H[H_BIG_BET]:
            H[H_BIG_FROM] = H[H_STREET]  # the big bet from now on this round
            H[H_BIG_SEEN] = 1
        else:
            H[H_BIG_FROM] = 2
    return 0


@njit(cache=True)
def _stud_bring_in(s, amount, bring_in, variant, hole, S, H, order):
    """hooks.py post() of the bring-in: due from the lowcard, the structure's amount."""
    why = _stud_antes(S, H, order)
    if why:
        return why
    if s == MISSING or not (0 < s < H[H_SIZE]) or not S[S_IN, s]:
        return 31
    if H[H_PENDING]:
        why = _stud_resolve(variant, hole, S, H, order)
        if why:
            return why
    if H[H_STREET] != 0 or H[H_BRING_DONE] or s != H[H_BRING_SEAT]:
        return 88  # a bring-in by the wrong seat, or a second one
    add = 0 if amount == MISSING else amount
    stack = S[S_STACK, s]
    if add >= stack:
        return 89  # over his stack, or all in for it (STUD-BRINGIN-ALLIN)
    if bring_in and add != bring_in and add != H[H_SMALL_BET]:
        return 90  # STUD-BRINGIN-AMOUNT
    S[S_STACK, s] = stack - add
    S[S_CONTRIB, s] += add
    S[S_BET, s] += add
    if S[S_BET, s] > H[H_CUR_BET]:
        H[H_CUR_BET] = S[S_BET, s]
    S[S_ACTED, s] = 1
    S[S_ACTED_LEVEL, s] = H[H_CUR_BET]
    S[S_ACTED_FR, s] = H[H_FR_COUNT]
    H[H_N_ACTIONS] += 1
    H[H_LAST_RAISE] = 0
    H[H_BETS] = 0
    H[H_BRING_DONE] = 1
    H[H_TO_ACT] = _next_to_act(S, H, order, s)
    return 0


@njit(cache=True)
def _stud_show(i, s, n, parsed, hole, shown, seen, S):
    """hooks.py show(): the shown cards (all known) replace what was shown before; every
    known hole card is among them."""
    hn = S[S_HOLE_N, s]
    for j in range(n):
        if parsed[j] < 0:
            return 91
    for q in range(hn):
        c = hole[s, q]
        if c < 0:
            continue
        found = False
        for j in range(n):
            if parsed[j] == c:
                found = True
        if not found:
            return 15  # shown cards that differ from the logged ones
    for j in range(n):
        c = parsed[j]
        before = False
        for q in range(hn):
            if hole[s, q] == c:
                before = True
        for q in range(S[S_SHOWN_N, s]):
            if shown[s, q] == c:
                before = True
        if not before and c != JOKER:
            if seen[c] >= 0:
                return 9
            seen[c] = i
    for j in range(n):
        shown[s, j] = parsed[j]
    S[S_SHOWN_N, s] = n
    S[S_SHOWN, s] = 1
    return 0


@njit(cache=True)
def _stud_finish(S, H, order, burns, variant, hole_n):
    """hooks.py finish(): card counts and burns."""
    n = H[H_N_ORDER]
    rem = _remaining(S, order, n)
    for i in range(n):
        s = order[i]
        c = S[S_HOLE_N, s]
        if (c and c < hole_n and not S[S_FOLDED, s]
                and H[H_STREET] == STUD_LAST[variant - V_FIRST_STUD] and rem > 1):
            return 92  # STUD-CARD-COUNT: short at the showdown
    if burns and H[H_BAD_BURN]:
        return 19  # STUD-BURN-ERROR
    return 0


@njit(cache=True)
def _stud_strength(variant, cards, n, S, s, table5, table6, table7, flush_suit, by_mask,
                   strengths, card_value):
    """game_strength of a stud hand of n (5..7) known cards, its 8-or-better low in
    S[S_LOW, s], and its odd-chip keys (audit/poker/stud.py oddchip_order): in high games
    the highest card by suit first, in low games the lowest, aces low."""
    top = -1
    low = 99
    for j in range(n):
        if cards[j] > top:
            top = cards[j]
        a = _ace_low(cards[j])
        if a < low:
            low = a
    S[S_ODD_HIGH, s] = low if variant == V_RAZZ else -top
    S[S_ODD_LOW, s] = low
    if variant == V_RAZZ:
        return low_a5(cards, n, 0)
    if variant == V_STUD_HILO:
        S[S_LOW, s] = low_a5(cards, n, 8)
    return _strength(cards, n, table5, table6, table7, flush_suit, by_mask, strengths,
                     card_value)


@njit(cache=True)
def _oddchip_sort(winners, n, S, row):
    """audit/poker/stud.py oddchip_order: the winners by their S[row] key, smallest first."""
    for a in range(1, n):
        w = winners[a]
        b = a - 1
        while b >= 0 and S[row, winners[b]] > S[row, w]:
            winners[b + 1] = winners[b]
            b -= 1
        winners[b + 1] = w


@njit(cache=True)
def _split_listed(amount, winners, n, S):
    """pots.split: equal shares, one odd chip each to the first winners as listed."""
    q = amount // n
    r = amount - q * n
    for i in range(n):
        S[S_EXPECTED, winners[i]] += q + (1 if i < r else 0)


# --------------------------------------------------------------------------- draw
# 2-7 single and triple draw, badugi and draw high dealt with blinds, as hooks.py replays
# them for the common case: the draws in order, hand sizes, the lowball opening, the
# two-round cap of the single-draw games. Anything else goes back.


@njit(cache=True)
def _named_class(variant):
    """projections.py: a hand class is named in the high games only."""
    return not (variant == V_RAZZ or variant == V_27_TRIPLE or variant == V_27_SINGLE
                or variant == V_BADUGI or variant == V_LOWBALL_A5 or variant == V_A5_TRIPLE)


@njit(cache=True)
def _draw_strength(variant, cards, table5, table6, table7, flush_suit, by_mask, strengths,
                   card_value):
    """game_strength of a draw hand (all cards known, the game's hand size)."""
    if variant == V_BADUGI:
        return badugi(cards)
    if variant == V_LOWBALL_A5 or variant == V_A5_TRIPLE:
        # low.py strength("lowa5"): razz_strength; jokers.py game_strength: the joker plays
        # as the lowest rank missing from the hand (two jokers cannot be ranked: the caller)
        for j in range(5):
            if cards[j] == JOKER:
                cards[j] = _joker_low(cards, 5)
        return low_a5(cards, 5, 0)
    if variant == V_DRAW_HIGH or variant == V_JACKS:
        if _holds(cards, 5, JOKER):
            return _joker_high(cards[:5], table5, table6, table7, flush_suit, by_mask,
                               strengths, card_value)
        return _strength(cards, 5, table5, table6, table7, flush_suit, by_mask, strengths,
                         card_value)
    return low_27(cards)


@njit(cache=True)
def _draw_deal(i, d, s, n, parsed, hole, seen, S, H):
    """hooks.py deal() in a draw game: the hand before the first draw, or a draw's cards."""
    if s == MISSING or not (0 < s < H[H_SIZE]) or not S[S_IN, s]:
        return 11
    if d == D_DRAW:
        if not H[H_IN_DRAW] or not S[S_DREW, s]:
            return 110  # draw cards outside a draw, or before his discards
        if n > 4 or S[S_GOT, s] + n > 4:
            return 111  # DRAW-MAX-FOUR (or a house dealing five at once)
        S[S_GOT, s] += n
        S[S_DRAWN, s] -= n
    elif d != D_HOLE and d != D_NULL:
        return 112  # cards dealt face up, a replacement, a board
    elif H[H_PHASE] or H[H_IN_DRAW] or H[H_FIRST_ACTION]:
        return 113  # a hand completed after the betting began (DRAW-SHORT-PREDRAW)
    # a card seen before goes back (the reference lets a discard return after a reshuffle)
    return _give(i, s, n, parsed, hole, seen, S)


@njit(cache=True)
def _draw_sizes(hole_n, S, H, order):
    """hooks.py _check_hand_sizes: every hand still in holds the game's hand size."""
    for ix in range(H[H_N_ORDER]):
        s = order[ix]
        if not S[S_FOLDED, s] and S[S_HOLE_N, s] and S[S_HOLE_N, s] != hole_n:
            return 95  # DRAW-FIVE-CARD-HAND
    return 0


@njit(cache=True)
def _end_draw(hole_n, S, H, order):
    """hooks.py _end_draw: the draw is over, the next betting round begins."""
    H[H_IN_DRAW] = 0
    why = _draw_sizes(hole_n, S, H, order)
    if why:
        return why
    if H[H_TO_ACT] and _remaining(S, order, H[H_N_ORDER]) > 1:
        return 7  # DEAL-PREMATURE
    _new_round(S, H, order, H[H_PHASE])
    o = H[H_OPENER]
    if o and H[H_TO_ACT] and H[H_OPENER_FIRST]:
        # ORDER-DRAW-AFTER: the opener acts first, or the next player if he cannot
        if S[S_IN, o] and not S[S_FOLDED, o] and S[S_STACK, o] > 0:
            H[H_TO_ACT] = o
        else:
            H[H_TO_ACT] = _next_to_act(S, H, order, o)
    H[H_DRAW_POS] = -1
    for ix in range(H[H_N_ORDER]):
        S[S_SERVED, order[ix]] = 0
    return 0


@njit(cache=True)
def _remove_card(hole, s, S, q):
    """Take the card at index q out of seat s's hand, keeping the others' order."""
    hn = S[S_HOLE_N, s]
    for j in range(q, hn - 1):
        hole[s, j] = hole[s, j + 1]
    S[S_HOLE_N, s] = hn - 1


@njit(cache=True)
def _find(hole, s, S, c):
    for q in range(S[S_HOLE_N, s]):
        if hole[s, q] == c:
            return q
    return -1


@njit(cache=True)
def _draw(k, s, amount, n_disc, parsed, hole, variant, S, H, order):
    """hooks.py draw(): a `draw` (discards) or `stand_pat` event."""
    if H[H_IN_DRAW] and s != MISSING and 0 < s < H[H_SIZE] and S[S_DREW, s]:
        why = _end_draw(H[H_HOLE_CARDS], S, H, order)  # he draws again: the next draw,
        if why:                                          # with no betting between
            return why
    if not H[H_IN_DRAW]:
        if H[H_TO_ACT] and _remaining(S, order, H[H_N_ORDER]) > 1:
            return 7  # DEAL-PREMATURE: the draw before the betting was complete
        if H[H_PHASE] == 0:
            # hooks.py _opener_first: after the draw the opener acts first at jacks, and at
            # draw high dealt with an ante and no blinds; any other deal with no big blind
            # goes back
            H[H_OPENER_FIRST] = variant == V_JACKS or (
                variant == V_DRAW_HIGH and not H[H_BB_SEAT] and not H[H_SB_SEAT])
            if not H[H_BB_SEAT] and not H[H_OPENER_FIRST]:
                return 115
        H[H_PHASE] += 1
        H[H_IN_DRAW] = 1
        for ix in range(H[H_N_ORDER]):
            S[S_DREW, order[ix]] = 0
            S[S_GOT, order[ix]] = 0
        if H[H_PHASE] > DRAWS[variant - V_FIRST_DRAW]:
            return 116  # more draws than the game has
    if s == MISSING or not (0 < s < H[H_SIZE]) or not S[S_IN, s] or S[S_FOLDED, s]:
        return 117
    # draw_rules.py check_draw_order: served clockwise from the button
    if H[H_BUTTON] and not S[S_SERVED, s]:
        i = _index_in(order, H[H_N_ORDER], s)
        if i >= 0:
            S[S_SERVED, s] = 1
            if i < H[H_DRAW_POS]:
                return 118  # ORDER-DRAW-PHASE
            if i > H[H_DRAW_POS]:
                H[H_DRAW_POS] = i
    S[S_DREW, s] = 1
    if k == K_STAND_PAT:
        S[S_DRAWN, s] = 0
        return 0
    n = amount if amount != MISSING else n_disc
    for j in range(min(n, n_disc)):
        c = parsed[j]
        q = _find(hole, s, S, c) if c >= 0 else -1
        if q < 0:
            q = _find(hole, s, S, -1)
            if q < 0:
                if c >= 0:
                    return 119  # discards a card he does not hold
                continue
        _remove_card(hole, s, S, q)
    for _ in range(n - n_disc):
        q = _find(hole, s, S, -1)
        if q >= 0:
            _remove_card(hole, s, S, q)
        elif S[S_HOLE_N, s]:
            S[S_HOLE_N, s] -= 1
            for j in range(S[S_HOLE_N, s]):
                hole[s, j] = -1  # which card went is unknown
    S[S_DRAWN, s] = n
    return 0


@njit(cache=True)
def _opens(s, amount, total, variant, hole, S, H):
    """hooks.py before_action, the first bet or raise before the draw: at the ante games
    (draw high, jacks; ANTE-DRAW) at fixed limit an opening of two bets (DRAWHI-OPEN) or an
    all-in opening short of the bet (DRAWHI-ALLIN-ANTES) goes back; at jacks the opener's
    five cards must be known, without the joker, and hold openers (JACKS-OPENERS; unknown
    cards: JACKS-SPLIT-OPENERS is judged at the end), else the hand goes back."""
    if variant != V_JACKS and variant != V_DRAW_HIGH:
        return 0
    if H[H_STRUCTURE] == FL and H[H_CUR_BET] == 0:
        add = amount if amount != MISSING else (total - S[S_BET, s] if total != MISSING
                                                else MISSING)
        if add != MISSING:
            if S[S_BET, s] + add == 2 * H[H_SMALL_BET] and not H[H_BB_SEAT]:
                return 124
            if 0 < add == S[S_STACK, s] and S[S_BET, s] + add < H[H_SMALL_BET]:
                return 125
    if variant == V_JACKS and not _openers(hole[s], S[S_HOLE_N, s]):
        return 126
    return 0


@njit(cache=True)
def _openers(cards, n):
    """jokers.py has_openers, the joker (one) playing as an ace or as the card completing a
    straight or flush: False also for cards not all known."""
    if n != 5:
        return False
    jokers = 0
    five = np.empty(5, np.int64)
    for j in range(5):
        five[j] = cards[j]
        if cards[j] < 0:
            return False
        if cards[j] == JOKER:
            jokers += 1
            at = j
    if jokers == 0:
        return _has_openers(five, 5)
    if jokers > 1:
        return False
    no_ace = True
    for c in range(JOKER):
        if _holds(cards, 5, c):
            continue
        five[at] = c
        if c >> 2 == 12:
            no_ace = False
            if _has_openers(five, 5):
                return True
        elif _straight_or_flush(five):
            return True
    return no_ace  # four aces and the joker: five aces


@njit(cache=True, inline="always")
def _holds(cards, n, c):
    for j in range(n):
        if cards[j] == c:
            return True
    return False


@njit(cache=True)
def _straight_or_flush(five):
    suits = 0
    mask = 0
    for j in range(5):
        suits |= 1 << (five[j] & 3)
        mask |= 1 << (five[j] >> 2)
    if suits & (suits - 1) == 0:
        return True
    if _bits(mask) != 5:
        return False
    low = 0
    while not mask >> low & 1:
        low += 1
    return mask >> low == 0b11111 or mask == 0b1000000001111


@njit(cache=True)
def _joker_high(cards, table5, table6, table7, flush_suit, by_mask, strengths, card_value):
    """jokers.py game_strength("high") of five known cards holding one joker: the best of
    the joker as any ace not held, or as any card making a straight or flush; five aces when
    every ace is held."""
    at = 0
    for j in range(5):
        if cards[j] == JOKER:
            at = j
    best = 0
    no_ace = True
    five = cards.copy()
    for c in range(JOKER):
        if _holds(cards, 5, c):
            continue
        five[at] = c
        v = _strength(five, 5, table5, table6, table7, flush_suit, by_mask, strengths,
                      card_value)
        cat = v >> 20
        if c >> 2 == 12:
            no_ace = False
        if c >> 2 == 12 or cat == 4 or cat == 5 or cat == 8:  # STRAIGHT, FLUSH, S. FLUSH
            if v > best:
                best = v
    if no_ace:
        return (8 << 20) | 0xFFFFF  # FIVE_ACES
    return best


@njit(cache=True)
def _has_openers(cards, n):
    """jokers.py has_openers for five known cards without the joker (anything else: False):
    a pair of jacks or better, two pair, trips, a straight, a flush or better."""
    if n != 5:
        return False
    counts = np.zeros(13, np.int64)
    suits = 0
    for j in range(5):
        c = cards[j]
        if c < 0 or c >= JOKER:
            return False
        counts[c >> 2] += 1
        suits |= 1 << (c & 3)
    pairs = 0
    high_pair = False
    mask = 0
    for r in range(13):
        if counts[r]:
            mask |= 1 << r
        if counts[r] >= 3:
            return True
        if counts[r] == 2:
            pairs += 1
            if r >= 9:  # jacks (2 = 0 .. A = 12)
                high_pair = True
    if pairs >= 2 or high_pair:
        return True
    if suits & (suits - 1) == 0:
        return True  # a flush
    if pairs == 0:
        low = 0
        while not mask >> low & 1:
            low += 1
        if mask >> low == 0b11111 or mask == 0b1000000001111:  # a straight, or the wheel
            return True
    return False


@njit(cache=True)
def _draw_before(k, s, amount, total, variant, hole, hole_n, S, H, order, P):
    """hooks.py before_action in a draw game; 0, or the reason the hand goes back."""
    H[H_FIRST_ACTION] = 1
    if H[H_IN_DRAW]:
        why = _end_draw(hole_n, S, H, order)
        if why:
            return why
    if s == MISSING or not (0 < s < H[H_SIZE]):
        return 40
    if H[H_STREET] == 0 and not H[H_OPENER] and (k == K_BET or k == K_RAISE):
        why = _opens(s, amount, total, variant, hole, S, H)
        if why:
            return why
        H[H_OPENER] = s
    if H[H_STREET] == 0 and DRAW_LOWBALL[variant - V_FIRST_DRAW] and not H[H_OPENED]:
        if k == K_BET or k == K_RAISE or k == K_COMPLETE:
            H[H_OPENED] = 1
        elif k == K_CHECK and H[H_CUR_BET] == 0:
            return 120  # LOWBALL-OPEN: a check before the draw
        elif k == K_CALL and P[P_MIN_OPEN_2BB]:
            return 121  # LOWBALL-OPEN where the minimum open is twice the blind
    if variant == V_LOWBALL_A5 and H[H_STRUCTURE] == FL:
        # hooks.py: a check after the draw may bring the sevens rule (A5-SEVENS-RULE, judged
        # at the end); a check then a raise in one round is A5-CHECKRAISE unless the house
        # allows it: both go back
        if k == K_CHECK:
            S[S_CHECKED, s] = H[H_STREET] + 1
            if H[H_STREET] >= 1:
                S[S_CHECKED_AFTER, s] = 1
        elif k == K_RAISE and S[S_CHECKED, s] == H[H_STREET] + 1:
            return 122
    return 0


@njit(cache=True)
def _joker_low(cards, n):
    """jokers.py joker_low: a card of the lowest ace-low rank missing from the other cards
    (the rank alone decides an ace-to-five low)."""
    mask = 0
    for j in range(n):
        if 0 <= cards[j] < JOKER:
            mask |= 1 << (((cards[j] >> 2) + 1) % 13)
    low = 0
    while mask >> low & 1:
        low += 1
    return ((low - 1) % 13) * 4


@njit(cache=True)
def _seven_or_better(cards, n):
    """jokers.py seven_or_better: five known cards of different ranks, none above seven,
    aces low (the joker filling the lowest gap)."""
    if n != 5:
        return False
    mask = 0
    jokers = 0
    for j in range(n):
        if cards[j] < 0:
            return False
        if cards[j] == JOKER:
            jokers += 1
        else:
            mask |= 1 << (((cards[j] >> 2) + 1) % 13)
    if jokers > 1:
        return True  # not rankable; the reference decides (the caller goes back)
    if jokers:
        mask |= 1 << ((_joker_low(cards, n) >> 2) + 1) % 13
    return mask < (1 << 7) and _bits(mask) == 5


@njit(cache=True)
def _sevens_back(hole, shown, S, H, order):
    """hooks.py settle(): a seven-low or better checked after the draw (A5-SEVENS-RULE) may
    change the award; any such hand still in goes back, whatever the pot."""
    for ix in range(H[H_N_ORDER]):
        s = order[ix]
        if S[S_CHECKED_AFTER, s] and not S[S_FOLDED, s] and (
                _seven_or_better(hole[s], S[S_HOLE_N, s])
                or (S[S_SHOWN, s] and _seven_or_better(shown[s], S[S_SHOWN_N, s]))):
            return 123
    return 0


# --------------------------------------------------------------------------- the replay


N_WORK = 10  # scratch rows of replay_batch, _work() views
WORK_WIDTH = max(N_SCALARS, MAX_CARDS, 52, 2 * MAX_SEATS)  # the widest view (seen: 52)


@njit(cache=True, inline="always")
def _work(W):
    """The 1-d scratch arrays, as views of one block."""
    return (W[0, :N_SCALARS], W[1, :MAX_SEATS], W[2, :MAX_CARDS], W[3, :MAX_CARDS], W[4, :52],
            W[5, :4], W[6, :MAX_SEATS], W[7, :MAX_SEATS], W[8, :7], W[9, :2 * MAX_SEATS])


@njit(cache=True)
def replay_batch(starts, kind, seat, amount, total, detail, flags, cards_data, cards_off,
                 game, settings, table5, table6, table7, flush_suit, by_mask, strengths,
                 card_value,
                 # outputs, hands
                 status, pot_out, rake_out, players_out, showdown_out, board_off, board_buf,
                 row_start, pot_net_out,
                 # outputs, player rows
                 r_seat, r_event, r_position, r_start, r_invested, r_won, r_vpip, r_pfr,
                 r_aggr, r_calls, r_folded, r_allin, r_showed, r_strength, r_faced_event,
                 hole_off, hole_valid, hole_buf):
    """Replay every hand; status[h] = 0 when proven clean, else the reason it goes back."""
    n_hands = starts.shape[0] - 1
    S = np.zeros((N_SEAT_ROWS, MAX_SEATS), np.int64)
    W = np.zeros((N_WORK, WORK_WIDTH), np.int64)
    C = np.zeros((2, MAX_SEATS, MAX_CARDS), np.int64)
    H, order, board, parsed, seen, street_burns, pot_amount, pot_level, seven, winners = \
        _work(W)
    hole = C[0]
    shown = C[1]
    row = 0
    bpos = 0
    hpos = 0
    for hix in range(n_hands):
        lo = starts[hix]
        hi = starts[hix + 1]
        row_start[hix] = row
        board_off[hix] = bpos
        if game[hix, G_SUPPORTED] == 0:  # as _replay_one says, without the call
            status[hix] = 1
            board_off[hix + 1] = bpos
            continue
        st = _replay_one(lo, hi, kind, seat, amount, total, detail, flags, cards_data,
                         cards_off, game[hix], settings, table5, table6, table7, flush_suit,
                         by_mask, strengths, card_value, S, W, C)
        status[hix] = st
        if st > CLEAN:
            board_off[hix + 1] = bpos
            continue
        # ---- projections (audit/replay/projections.py)
        n_order = H[H_N_ORDER]
        size = H[H_SIZE]
        pot = 0
        for s in range(size):
            pot += S[S_CONTRIB, s]
        pot_out[hix] = pot
        players = 0
        for s in range(1, size):
            if S[S_IN, s]:
                players += 1
        players_out[hix] = players
        showdown = _remaining(S, order, n_order) >= 2
        showdown_out[hix] = showdown
        nb = board[MAX_CARDS - 1]  # board count is kept in the last slot
        bpos = _write_cards(board, nb, board_buf, bpos)
        board_off[hix + 1] = bpos
        refunds_in_awards = H[H_REFUNDS_ALL] == 1
        rake_out[hix] = H[H_RAKE]
        pot_net_out[hix] = H[H_POT_NET]
        for s in range(1, size):
            if not S[S_IN, s]:
                continue
            r_seat[row] = s
            r_event[row] = S[S_SEAT_EVENT, s]
            pos = 0
            if n_order == 2:
                pos = 1 if s == H[H_BUTTON] else 3
            elif n_order > 2:
                i = _index_in(order, n_order, s)
                if i == n_order - 1:
                    pos = 1
                elif i == 0:
                    pos = 2
                elif i == 1:
                    pos = 3
                else:
                    m = n_order - 3
                    k = i - 2
                    back = m - 1 - k
                    if back < 3 and m - back > 1:
                        pos = 4 + back
                    else:
                        pos = 7 if k == 0 else 7 + k
            r_position[row] = pos
            r_start[row] = S[S_START, s]  # UNKNOWN_STACK: null
            refund = S[S_REFUND, s]
            r_invested[row] = S[S_CONTRIB, s] - refund
            # a return the source folded into the award is not a win either
            r_won[row] = S[S_ACTUAL, s] - (refund if refunds_in_awards else S[S_INCLUDED, s])
            r_vpip[row] = S[S_VPIP, s]
            r_pfr[row] = S[S_PFR, s]
            r_aggr[row] = S[S_AGGR, s]
            r_calls[row] = S[S_CALLS, s]
            r_folded[row] = S[S_FOLDED_STREET, s]
            r_allin[row] = S[S_ALLIN_STREET, s]
            r_showed[row] = S[S_SHOWN, s]
            # a hand class is named for the high games only (razz has none)
            r_strength[row] = (S[S_STRENGTH, s] if showdown and _named_class(game[hix, G_VARIANT])
                               else -1)
            f = S[S_FACED_FROM, s]
            r_faced_event[row] = S[S_SEAT_EVENT, f] if f > 0 else -1
            hole_off[row] = hpos
            cards = shown[s] if S[S_SHOWN, s] else hole[s]
            nc = S[S_SHOWN_N, s] if S[S_SHOWN, s] else S[S_HOLE_N, s]
            known = False
            for j in range(nc):
                if cards[j] >= 0:
                    known = True
            hole_valid[row] = known
            if known:
                hpos = _write_cards(cards, nc, hole_buf, hpos)
            row += 1
    row_start[n_hands] = row
    hole_off[row] = hpos
    return row


@njit(cache=True, inline="always")
def _replay_one(lo, hi, kind, seat, amount, total, detail, flags, cards_data, cards_off, g,
                settings, table5, table6, table7, flush_suit, by_mask, strengths, card_value,
                S, W, C):
    # the scratch arrays come as two blocks: each array argument costs every call
    H, order, board, parsed, seen, street_burns, pot_amount, pot_level, seven, winners = \
        _work(W)
    hole = C[0]
    shown = C[1]
    if g[G_SUPPORTED] == 0:
        return 1
    S[:, :] = 0
    H[:] = 0
    seen[:] = -1
    street_burns[:] = 0
    board[:] = 0
    P = settings[g[G_SETTINGS]]
    H[H_STRUCTURE] = g[G_STRUCTURE]
    H[H_MIN_BET] = g[G_MIN_BET]
    H[H_BUTTON] = g[G_BUTTON]
    H[H_BB] = g[G_BB]
    H[H_SB] = g[G_SB]
    H[H_SMALL_BET] = g[G_SMALL_BET]
    H[H_BIG_BET] = g[G_BIG_BET]
    H[H_TOURNAMENT] = g[G_TOURNAMENT]
    H[H_SETTINGS] = g[G_SETTINGS]
    H[H_LAST_RAISE] = g[G_MIN_BET]
    H[H_ANTE] = g[G_ANTE]
    variant = g[G_VARIANT]
    stud = V_FIRST_STUD <= variant < V_FIRST_DRAW
    draw = variant >= V_FIRST_DRAW
    H[H_STUD] = 1 if stud else 0
    H[H_FAMILY] = 1 if stud or draw else 0  # audit/replay/family/hooks.py replays it
    H[H_CAP_MULTI] = P[P_CAP_MULTI]
    H[H_BIG_FROM] = 2
    if stud:
        H[H_BIG_FROM] = STUD_BIG_FROM[variant - V_FIRST_STUD]
    if draw:
        H[H_BIG_FROM] = DRAW_BIG_FROM[variant - V_FIRST_DRAW]
        H[H_DRAW_POS] = -1
    hole_n = HOLE_CARDS[variant]
    H[H_HOLE_CARDS] = hole_n
    # jokers.py JOKER_GAMES: ace-to-five and the high draw games play a joker (a high hand
    # holding it goes back at the showdown)
    joker = (variant == V_LOWBALL_A5 or variant == V_A5_TRIPLE or variant == V_DRAW_HIGH
             or variant == V_JACKS)
    hilo = variant == V_OMAHA_HILO or variant == V_OMAHA5_HILO or variant == V_OMAHA6_HILO
    # seats first: the table size is the highest seat (or the button)
    max_seat = 0
    for i in range(lo, hi):
        if kind[i] == K_SEAT:
            s = seat[i]
            if s != MISSING and s > max_seat:
                max_seat = s
    size = max(max_seat, H[H_BUTTON], 1) + 1
    if size > MAX_SEATS:
        return 2
    H[H_SIZE] = size
    started = False
    refunds_implicit = False
    rake_implicit = False
    uncalled_logged = False
    unrecorded = False
    rake_logged = 0
    burns = 0
    n_board_deals = 0
    nb = 0
    for s in range(size):
        S[S_FOLDED_STREET, s] = -1
        S[S_ALLIN_STREET, s] = -1
        S[S_STRENGTH, s] = -1
        S[S_LOW, s] = -1
    for i in range(lo, hi):
        k = kind[i]
        s = seat[i]
        if (k >= K_FOLD and k <= K_RAISE) or (k == K_COMPLETE and (stud or draw)):
            if not started:
                _start(S, H, order)
                started = True
            if stud:
                why = _stud_before(k, s, amount[i], total[i], variant, hole, S, H, order)
                if why:
                    return why
            elif draw:
                why = _draw_before(k, s, amount[i], total[i], variant, hole, hole_n, S, H,
                                   order, P)
                if why:
                    return why
            why = _act(k, s, amount[i], total[i], S, H, order, P)
            if why:
                return why
        elif k == K_POST:
            if not started:
                _start(S, H, order)
                started = True
            if stud and detail[i] == D_BRING_IN:
                why = _stud_bring_in(s, amount[i], g[G_BRING_IN], variant, hole, S, H, order)
            elif stud and detail[i] != D_ANTE:
                return 30  # blinds, kills, ... in a stud game: the reference judges them
            else:
                why = _post(detail[i], s, amount[i], S, H, order, P)
            if why:
                return why
        elif k == K_DEAL:
            if not started:
                _start(S, H, order)
                started = True
            d = detail[i]
            n = 0
            if cards_off[i + 1] > cards_off[i]:
                n = _parse_cards(cards_data, cards_off[i], cards_off[i + 1], parsed, joker)
                if n < 0:
                    return 3
            if stud:
                why = _stud_deal(i, d, s, n, parsed, hole, seen, S, H, order, burns, variant,
                                 hole_n)
                if why:
                    return why
                continue
            if draw:
                why = _draw_deal(i, d, s, n, parsed, hole, seen, S, H)
                if why:
                    return why
                continue
            for j in range(n):
                if parsed[j] == -1 and d != D_HOLE and not (d == D_NULL and s != MISSING):
                    return 4  # an unknown board card
            if d == D_BOARD or (s == MISSING and d != D_HOLE):
                if d != D_BOARD and d != D_NULL:
                    return 5  # board@runN and other deals
                n_board_deals += 1
                street = H[H_STREET]
                if street >= 3:
                    return 6
                if H[H_TO_ACT] and _remaining(S, order, H[H_N_ORDER]) > 1:
                    return 7  # DEAL-PREMATURE
                if n != BOARD_AFTER[street + 1] - BOARD_AFTER[street]:
                    return 8
                for j in range(n):
                    c = parsed[j]
                    if seen[c] >= 0:
                        return 9  # DEAL-DUPLICATE-CARD
                    seen[c] = i
                    board[nb] = c
                    nb += 1
                _new_round(S, H, order, street + 1)
            else:
                if d != D_HOLE and d != D_NULL:
                    return 10
                if s == MISSING or not (0 < s < size) or not S[S_IN, s]:
                    return 11
                why = _give(i, s, n, parsed, hole, seen, S)
                if why:
                    return why
        elif k == K_SEAT:
            if started:
                return 13
            if s != MISSING and 0 < s < size and detail[i] != D_SITTING_OUT:
                stack = UNKNOWN_STACK if amount[i] == MISSING else amount[i]
                S[S_IN, s] = 1
                S[S_SEAT_EVENT, s] = i
                S[S_START, s] = stack
                S[S_STACK, s] = stack
        elif k == K_AWARD:
            a = amount[i]
            if a == MISSING:
                a = 0
            if s != MISSING and 0 < s < size:
                S[S_ACTUAL, s] += a
            if detail[i] == D_UNCALLED:
                uncalled_logged = True
        elif k == K_SHOW or k == K_MUCK:
            if not started:
                _start(S, H, order)
                started = True
            if s == MISSING or not (0 < s < size) or not S[S_IN, s]:
                continue
            n = 0
            if cards_off[i + 1] > cards_off[i]:
                n = _parse_cards(cards_data, cards_off[i], cards_off[i + 1], parsed, joker)
                if n < 0:
                    return 3
            if k == K_MUCK:
                S[S_MUCKED, s] = 1
                continue
            if stud or draw:
                why = _stud_show(i, s, n, parsed, hole, shown, seen, S)
                if why:
                    return why
                continue
            hn = S[S_HOLE_N, s]
            known_hole = False
            for j in range(hn):
                if hole[s, j] >= 0:
                    known_hole = True
            for j in range(n):
                c = parsed[j]
                if c < 0:
                    continue
                dup_hole = False
                for q in range(hn):
                    if hole[s, q] == c:
                        dup_hole = True
                for q in range(S[S_SHOWN_N, s]):  # shown before (each showdown of a
                    if shown[s, q] == c:          # run-it-twice shows the hand)
                        dup_hole = True
                if dup_hole:
                    continue
                if known_hole:
                    return 15  # shown cards differ from the logged hole cards
                if seen[c] >= 0:
                    return 9
                seen[c] = i
            m = S[S_SHOWN_N, s]
            if m == 0:
                for j in range(n):
                    shown[s, j] = parsed[j]
                m = n
            else:  # shown again: the cards not shown before are added (HandState.shown)
                for j in range(n):
                    again = False
                    for q in range(m):
                        if shown[s, q] == parsed[j]:
                            again = True
                    if not again:
                        if m >= shown.shape[1]:
                            return 3
                        shown[s, m] = parsed[j]
                        m += 1
            S[S_SHOWN_N, s] = m
            S[S_SHOWN, s] = 1
        elif k == K_HAND_ENDED:
            if flags[i] & F_UNRECORDED:
                unrecorded = True
        elif k == K_BURN:
            burns += 1
            if H[H_STREET] + 1 <= 3:
                street_burns[H[H_STREET] + 1] += 1
        elif k == K_RAKE:
            if amount[i] != MISSING:
                rake_logged += amount[i]
        elif k == K_HAND_STARTED:
            if detail[i] != D_NULL:
                refunds_implicit = (flags[i] & F_REFUNDS_IMPLICIT) != 0
                rake_implicit = (flags[i] & F_RAKE_IMPLICIT) != 0
        elif k == K_ANNOTATION:
            pass
        elif (k == K_DRAW or k == K_STAND_PAT) and draw:
            if not started:
                _start(S, H, order)
                started = True
            n = 0
            if k == K_DRAW and cards_off[i + 1] > cards_off[i]:
                n = _parse_cards(cards_data, cards_off[i], cards_off[i + 1], parsed, joker)
                if n < 0:
                    return 3
            why = _draw(k, s, amount[i], n, parsed, hole, variant, S, H, order)
            if why:
                return why
        else:
            return 17  # draw, stand_pat, declare, chips, complete, ...
    if not started:
        _start(S, H, order)
    n_order = H[H_N_ORDER]
    if n_order < 2:
        return 26
    if stud:
        why = _stud_finish(S, H, order, burns, variant, hole_n)
        if why:
            return why
        burns = 0  # judged
    if draw:
        # hooks.py finish(): the hand sizes after the last draw; a hand of the wrong size
        # before any draw is dead at the showdown (hooks.py _dead): both go back
        why = _draw_sizes(hole_n, S, H, order)
        if why:
            return why
        if variant == V_LOWBALL_A5 and H[H_STRUCTURE] == FL:
            why = _sevens_back(hole, shown, S, H, order)
            if why:
                return why
        burns = 0  # the draw games judge no burns
    # check_counts
    for ix in range(n_order):
        s = order[ix]
        got = S[S_HOLE_N, s]
        if got and got != hole_n and not (stud or draw):
            return 18  # DEAD-CARD-COUNT
    if burns:
        for kk in range(1, n_board_deals + 1):
            if kk <= 3 and street_burns[kk] != 1:
                return 19  # BURN-EACH-ROUND
    if H[H_ANTE] > 0:  # an ante game: every player antes once (else the reference judges)
        for ix in range(n_order):
            if S[S_ANTES, order[ix]] != 1:
                return 35
    board[MAX_CARDS - 1] = nb
    # ---- pots (audit/replay/pots.py build_pots; antes are dead money in the main pot)
    top = 0
    second = 0
    top_seat = 0
    dead_total = 0
    for s in range(1, size):
        if not S[S_IN, s]:
            continue
        dead_total += S[S_DEAD, s]
        c = S[S_CONTRIB, s] - S[S_DEAD, s]
        if c > top:
            second = top
            top = c
            top_seat = s
        elif c > second:
            second = c
    for s in range(size):
        S[S_LIVE_C, s] = S[S_CONTRIB, s] - S[S_DEAD, s]
        if S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] <= 0 and S[S_DEAD, s] > 0:
            return 36  # all-in on the ante alone: the reference builds that main pot
    if top_seat and top > second:
        S[S_REFUND, top_seat] = top - second
        S[S_LIVE_C, top_seat] -= top - second
    # distinct live levels, ascending
    n_levels = 0
    for s in range(1, size):
        if S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] > 0:
            c = S[S_LIVE_C, s]
            dup = False
            for q in range(n_levels):
                if pot_level[q] == c:
                    dup = True
            if not dup:
                pot_level[n_levels] = c
                n_levels += 1
    pot_level[:n_levels].sort()
    n_pots = 0
    prev = 0
    for q in range(n_levels):
        level = pot_level[q]
        amt = 0
        for s in range(1, size):
            if not S[S_IN, s]:
                continue
            x = S[S_LIVE_C, s]
            if x > prev:
                amt += (x if x < level else level) - prev
        if amt:
            pot_amount[n_pots] = amt
            pot_level[n_pots] = level  # eligible: not folded and live contribution >= level
            n_pots += 1
        prev = level
    rest = 0
    for s in range(1, size):
        if S[S_IN, s] and S[S_LIVE_C, s] > prev:
            rest += S[S_LIVE_C, s] - prev
    if n_pots == 0 and (rest or dead_total):
        pot_amount[0] = 0
        pot_level[0] = 0  # everyone not folded
        n_pots = 1
    if rest:
        pot_amount[n_pots - 1] += rest
    if dead_total:
        pot_amount[0] += dead_total
    # ---- each pot to its best hand (audit/replay/showdown.py settle)
    for p in range(n_pots):
        amt = pot_amount[p]
        level = pot_level[p]
        n_elig = 0
        n_cont = 0
        last_elig = 0
        last_cont = 0
        for s in range(1, size):
            if S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] >= level:
                n_elig += 1
                last_elig = s
                if not S[S_MUCKED, s]:
                    n_cont += 1
                    last_cont = s
        if n_elig == 1:
            S[S_EXPECTED, last_elig] += amt
            continue
        if n_cont == 1:
            S[S_EXPECTED, last_cont] += amt
            continue
        if n_cont == 0 or (nb != 5 and not (stud or draw)):
            if unrecorded:
                continue  # the pot is unverifiable; the hand's one finding says why
            return 20  # DQ-UNVERIFIABLE-AWARD
        best = -1
        n_win = 0
        best_low = -1
        n_low = 0
        unverified = False
        for s in range(1, size):
            if not (S[S_IN, s] and not S[S_FOLDED, s] and S[S_LIVE_C, s] >= level
                    and not S[S_MUCKED, s]):
                continue
            v = S[S_STRENGTH, s]
            if v < 0:
                # cards_of: the shown cards when all known, else the hole cards
                use_shown = False
                if S[S_SHOWN, s]:
                    use_shown = True
                    for j in range(S[S_SHOWN_N, s]):
                        if shown[s, j] < 0:
                            use_shown = False
                cn = S[S_SHOWN_N, s] if use_shown else S[S_HOLE_N, s]
                if cn != hole_n and not (stud and 5 <= cn <= 7):
                    unverified = True
                    break
                if draw and S[S_HOLE_N, s] != hole_n:  # a fouled hand (hooks.py _dead)
                    unverified = True
                    break
                jokers = 0
                for j in range(cn):
                    c = shown[s, j] if use_shown else hole[s, j]
                    if c < 0:
                        unverified = True
                    if c == JOKER:
                        jokers += 1
                    seven[j] = c
                if jokers > 1:  # hooks.py hand_cards: two jokers cannot be ranked
                    unverified = True
                if unverified:
                    break
                if draw:
                    v = _draw_strength(variant, seven, table5, table6, table7, flush_suit,
                                       by_mask, strengths, card_value)
                elif stud:
                    v = _stud_strength(variant, seven, cn, S, s, table5, table6, table7,
                                       flush_suit, by_mask, strengths, card_value)
                elif variant == V_HOLDEM:
                    seven[2] = board[0]
                    seven[3] = board[1]
                    seven[4] = board[2]
                    seven[5] = board[3]
                    seven[6] = board[4]
                    for a in range(7):  # the evaluator refuses a card twice
                        for b in range(a + 1, 7):
                            if seven[a] == seven[b]:
                                return 21
                    v = _strength(seven, 7, table5, table6, table7, flush_suit, by_mask,
                                  strengths, card_value)
                else:
                    hc = np.empty(cn, np.int64)
                    for j in range(cn):
                        hc[j] = seven[j]
                        for q in range(5):
                            if hc[j] == board[q]:
                                return 21
                    v = _omaha_strength(hc, cn, board, table5, table6, table7, flush_suit,
                                        by_mask, strengths, card_value)
                    if hilo:
                        S[S_LOW, s] = _omaha_low8(hc, cn, board)
                S[S_STRENGTH, s] = v
            if v > best:
                best = v
                n_win = 0
            if v == best:
                winners[n_win] = s
                n_win += 1
            lo = S[S_LOW, s]
            if lo >= 0:
                if lo > best_low:
                    best_low = lo
                    n_low = 0
                if lo == best_low:
                    winners[MAX_SEATS + n_low] = s
                    n_low += 1
        if unverified:
            if unrecorded:
                continue
            return 20
        # clockwise from the button; one odd chip each to the first winners; a qualifying
        # low takes half, the odd chip of the whole pot staying with the high half
        if stud:  # the odd chips by card (POT-ODDCHIP-STUD)
            _oddchip_sort(winners[:MAX_SEATS], n_win, S, S_ODD_HIGH)
            low_half = amt // 2 if n_low else 0
            _split_listed(amt - low_half, winners[:MAX_SEATS], n_win, S)
            if n_low:
                _oddchip_sort(winners[MAX_SEATS:], n_low, S, S_ODD_LOW)
                _split_listed(low_half, winners[MAX_SEATS:], n_low, S)
            ok = True
        elif n_low:
            low_half = amt // 2
            ok = _split(amt - low_half, winners[:MAX_SEATS], n_win, order, n_order, S)
            ok = ok and _split(low_half, winners[MAX_SEATS:], n_low, order, n_order, S)
        else:
            ok = _split(amt, winners[:MAX_SEATS], n_win, order, n_order, S)
        if not ok:
            return 22  # a winner outside the seating order
    # ---- compare with what was paid (audit/replay/awards.py settle_hand)
    refunds_all = not refunds_implicit or uncalled_logged
    if unrecorded:
        H[H_REFUNDS_ALL] = 1 if refunds_all else 0
        H[H_RAKE] = 0
        return CLEAN_UNRECORDED
    if refunds_all:
        for s in range(1, size):
            if S[S_IN, s]:
                S[S_EXPECTED, s] += S[S_REFUND, s]
    included = 0
    if refunds_implicit and not uncalled_logged:
        for s in range(1, size):
            if not S[S_IN, s]:
                continue
            r = S[S_REFUND, s]
            extra = S[S_ACTUAL, s] - S[S_EXPECTED, s]
            if r and (extra == r or (rake_implicit and 0 < extra < r)):
                S[S_EXPECTED, s] += r
                S[S_INCLUDED, s] = r
                included += r
    pot = 0
    refunds = 0
    paid = 0
    for s in range(size):
        pot += S[S_CONTRIB, s]
        refunds += S[S_REFUND, s]
        paid += S[S_ACTUAL, s]
    pot -= refunds
    paid -= included if (refunds_implicit and not uncalled_logged) else refunds
    n_pos = 0
    shortfall = 0
    for s in range(1, size):
        if S[S_IN, s]:
            dd = S[S_ACTUAL, s] - S[S_EXPECTED, s]
        else:
            dd = S[S_ACTUAL, s]
        if dd > 0:
            n_pos += 1
        elif dd < 0:
            shortfall -= dd
    rake = rake_logged
    H[H_POT_NET] = pot
    H[H_REFUNDS_ALL] = 1 if refunds_all else 0
    if rake_implicit:
        rake = pot - paid
        if rake < 0:
            rake = 0
        if rake * 100 > pot * P[P_RAKE_IMPLIED_MAX]:
            # more than an unlogged collection is taken to be (awards.py): with the house's
            # schedule in the profile it is judged as rake, else it is a data-quality note
            if n_pos or shortfall != rake:
                return 23
            H[H_RAKE] = rake
            if P[P_RAKE_PERCENT] or P[P_RAKE_CAP] or not P[P_RAKE_ALLOWED]:
                if not P[P_RAKE_ALLOWED]:
                    return 24
                mx = pot * P[P_RAKE_PERCENT] // 100 if P[P_RAKE_PERCENT] else P[P_RAKE_CAP]
                if P[P_RAKE_CAP] and mx > P[P_RAKE_CAP]:
                    mx = P[P_RAKE_CAP]
                if rake > mx:
                    return 24
                return CLEAN
            return CLEAN_IMPLIED_RAKE
    explained = rake and n_pos == 0 and (rake_implicit or shortfall == rake)
    if explained or (rake and rake_logged):
        if not P[P_RAKE_ALLOWED]:
            return 24  # HOUSE-RAKE
        if P[P_RAKE_PERCENT] or P[P_RAKE_CAP]:  # awards.py _check_rake: a rate, a cap or both
            mx = pot * P[P_RAKE_PERCENT] // 100 if P[P_RAKE_PERCENT] else P[P_RAKE_CAP]
            if P[P_RAKE_CAP] and mx > P[P_RAKE_CAP]:
                mx = P[P_RAKE_CAP]
            if rake > mx:
                return 24
    if not explained and (n_pos or shortfall):
        return 25  # a wrong award (or one the odd-chip exception might excuse)
    # results the projection needs
    H[H_REFUNDS_ALL] = 1 if refunds_all else 0
    H[H_RAKE] = rake
    return CLEAN


@njit(cache=True)
def _post(d, s, amount, S, H, order, P):
    """audit/replay/forced.py post(): blinds, antes, a straddle, made-up and dead blinds."""
    if not (d == D_SMALL_BLIND or d == D_BIG_BLIND or d == D_ANTE or d == D_STRADDLE
            or d == D_NEW_PLAYER or d == D_MISSED_BIG or d == D_DEAD or d == D_MISSED_SMALL
            or d == D_NULL):
        return 30  # kinds the reference replay judges (bring-in, kill, ...)
    size = H[H_SIZE]
    if s == MISSING or not (0 < s < size) or not S[S_IN, s]:
        return 31
    add = 0 if amount == MISSING else amount
    stack = S[S_STACK, s]
    if add > stack:
        return 32  # HOUSE-TABLE-STAKES
    n = H[H_N_ORDER]
    headsup = n == 2
    button = H[H_BUTTON]
    live = add
    if d == D_NEW_PLAYER or d == D_MISSED_BIG:
        # BLIND-MISSED: a full big blind, or all-in for less; the excess over it is dead
        if H[H_BB] and add < H[H_BB] and add < stack:
            return 38
        live = add if add < H[H_BB] else H[H_BB]
    elif d == D_DEAD or d == D_MISSED_SMALL or d == D_NULL:
        # BLIND-MISSED: the missed small blind goes in dead, exactly, or all-in for less
        sb = H[H_SB]
        if sb and add != sb and (add < stack or add > sb):
            return 38
        live = 0
    elif d == D_ANTE:
        # forced.py _check_amount: the game's ante, or all-in for less (ANTE-AMOUNT)
        if S[S_ANTES, s] or H[H_ANTE] <= 0 or not (
                add == H[H_ANTE] or (add == stack and add < H[H_ANTE])):
            return 34  # a second, unexpected or odd-sized ante
        S[S_ANTES, s] = 1
        live = 0
    elif d == D_STRADDLE:
        why = _straddle(s, add, stack, S, H, order, P)
        if why:
            return why
    elif d == D_SMALL_BLIND:
        expected = button if headsup else (order[0] if n else 0)
        if expected and s != expected:
            return 33  # BLIND-POSITIONS / BLIND-HEADSUP
        H[H_SB_SEAT] = s
    else:
        if headsup:
            expected = 0
            for i in range(n):
                if order[i] != button:
                    expected = order[i]
                    break
        else:
            expected = order[1] if n > 1 else 0
            sb = H[H_SB_SEAT]
            if sb:
                i = _index_in(order, n, sb)
                if i >= 0:
                    expected = order[(i + 1) % n]
        no_small = (not headsup and H[H_SB_SEAT] == 0
                    and ((n > 0 and order[0] == s) or (n > 1 and order[1] == s)))
        if expected and s != expected and not no_small:
            return 33
        H[H_BB_SEAT] = s
        H[H_ANCHOR] = s
        if H[H_STRUCTURE] == FL and H[H_BB] > H[H_LAST_RAISE]:
            H[H_LAST_RAISE] = H[H_BB]
        H[H_BETS] = 1
    S[S_STACK, s] = stack - add
    S[S_CONTRIB, s] += add
    if add > live:
        S[S_DEAD, s] += add - live
    if live:
        S[S_BET, s] += live
        if S[S_BET, s] > H[H_CUR_BET]:
            H[H_CUR_BET] = S[S_BET, s]
    if add and add == stack:
        S[S_ALLIN_STREET, s] = 0
    H[H_TO_ACT] = _next_to_act(S, H, order, H[H_ANCHOR]) if H[H_ANCHOR] else 0
    return 0


@njit(cache=True)
def _straddle(s, add, stack, S, H, order, P):
    """forced.py _straddle: one straddle, cash only, left of the big blind, twice the blind."""
    if H[H_STRADDLE_SEAT] or H[H_TOURNAMENT]:
        return 37
    if H[H_STRUCTURE] == FL and not P[P_STRADDLE_LIMIT]:
        return 37
    if H[H_STRUCTURE] != FL and not P[P_STRADDLE_BIGBET]:
        return 37
    n = H[H_N_ORDER]
    i = _index_in(order, n, H[H_BB_SEAT])
    expected = order[(i + 1) % n] if i >= 0 else 0
    if expected and s != expected:
        return 37
    if not expected and add != 2 * H[H_BB] and add < stack:
        return 37
    if expected and add != 2 * H[H_BB] and add < stack:
        return 37
    H[H_STRADDLE_SEAT] = s
    H[H_ANCHOR] = s
    if H[H_STRUCTURE] != FL:
        H[H_LAST_RAISE] = add if P[P_STRADDLE_NEW_BRING_IN] else add - H[H_BB]
        if H[H_LAST_RAISE] < H[H_MIN_BET]:
            H[H_LAST_RAISE] = H[H_MIN_BET]
    else:
        H[H_LAST_RAISE] = add
    return 0


@njit(cache=True)
def _open_preflop(S, H, order):
    bb = H[H_BB]
    if bb <= 0 or H[H_CUR_BET] >= bb or H[H_STRADDLE_SEAT]:
        return
    n = H[H_N_ORDER]
    due = H[H_BB_SEAT]
    if not due:
        if n == 2:
            for i in range(n):
                if order[i] != H[H_BUTTON]:
                    due = order[i]
                    break
        else:
            i = _index_in(order, n, H[H_SB_SEAT]) if H[H_SB_SEAT] else -1
            if i >= 0:
                due = order[(i + 1) % n]
            elif n > 1:
                due = order[1]
        if not due or S[S_BET, due] or not S[S_CONTRIB, due]:
            return
    if S[S_STACK, due] != 0:
        return
    H[H_CUR_BET] = bb
    H[H_ANCHOR] = due
    H[H_TO_ACT] = _next_to_act(S, H, order, due)


@njit(cache=True)
def _act(k, s, amount, total, S, H, order, P):
    """audit/replay/betting.py act() and _apply() on the in-turn path."""
    size = H[H_SIZE]
    if s == MISSING or not (0 < s < size) or not S[S_IN, s]:
        return 40
    if S[S_FOLDED, s]:
        return 41
    stack = S[S_STACK, s]
    if stack == 0:
        if k == K_FOLD:
            if S[S_CONTRIB, s]:
                return 42
        else:
            if k == K_CHECK or amount == MISSING or amount == 0:
                return 0  # an all-in player 'checking' through
            return 43
    street = H[H_STREET]
    if street == 0 and H[H_N_ACTIONS] == 0 and not H[H_STUD]:
        if H[H_ANTE] > 0:  # forced.py check_antes: every player has anted by now
            for i in range(H[H_N_ORDER]):
                if S[S_ANTES, order[i]] != 1:
                    return 35
        _open_preflop(S, H, order)
    n = H[H_N_ORDER]
    exp = H[H_TO_ACT]
    if exp != s:
        if exp == 0:
            if _remaining(S, order, n) <= 1:
                return 44
            if (k == K_CHECK or k == K_FOLD) and H[H_CUR_BET] == S[S_BET, s]:
                return 0  # a harmless check or fold after the round closed: ignored
            return 45
        return 46  # out of turn
    cur = H[H_CUR_BET]
    bet_s = S[S_BET, s]
    owed = cur - bet_s
    if k == K_FOLD:
        S[S_FOLDED, s] = 1
        S[S_FOLDED_STREET, s] = street
        if owed > 0 and H[H_AGGRESSOR]:
            S[S_FACED_FROM, s] = H[H_AGGRESSOR]
        S[S_ACTED, s] = 1
        H[H_N_ACTIONS] += 1
        if _remaining(S, order, n) <= 1:
            H[H_TO_ACT] = 0
        else:
            H[H_TO_ACT] = _next_to_act(S, H, order, s)
        return 0
    if amount != MISSING:
        add = amount
        if total != MISSING and total != bet_s + amount and k != K_CHECK:
            return 47  # DQ: amount vs total
    elif total != MISSING:
        add = total - bet_s
    elif k == K_CALL:
        add = owed if owed < stack else stack
    else:
        add = 0
    if add < 0:
        add = 0
    if add > stack:
        return 48  # HOUSE-TABLE-STAKES
    new_total = bet_s + add
    all_in = add == stack and add > 0
    if k == K_CHECK:
        if owed > 0:
            return 49
        add = 0
        new_total = bet_s
    elif k == K_CALL or new_total <= cur:
        if k != K_CALL and not all_in:
            return 50
        if owed <= 0:
            if add > 0:
                return 51
        elif add < owed and not all_in:
            return 52  # CHIP-SHORT-CALL
        elif add > owed:
            return 53
        if add > 0:
            S[S_CALLS, s] += 1
            if street == 0:
                S[S_VPIP, s] = 1
        if owed > 0 and H[H_AGGRESSOR]:
            S[S_FACED_FROM, s] = H[H_AGGRESSOR]
    else:
        why = _raise(k, s, cur, owed, new_total, all_in, S, H, order, P)
        if why:
            return why
    if add:
        S[S_STACK, s] = stack - add
        S[S_CONTRIB, s] += add
        S[S_BET, s] = new_total
        if new_total > H[H_CUR_BET]:
            H[H_CUR_BET] = new_total
        if stack == add:
            S[S_ALLIN_STREET, s] = street
    S[S_ACTED, s] = 1
    S[S_ACTED_LEVEL, s] = H[H_CUR_BET]
    S[S_ACTED_FR, s] = H[H_FR_COUNT]
    H[H_N_ACTIONS] += 1
    H[H_TO_ACT] = _next_to_act(S, H, order, s)
    return 0


@njit(cache=True)
def _raise(k, s, cur, owed, new_total, all_in, S, H, order, P):
    increment = new_total - cur
    opening = cur == 0
    if owed > 0 and H[H_AGGRESSOR]:
        S[S_FACED_FROM, s] = H[H_AGGRESSOR]
    if H[H_STREET] == 0:
        S[S_VPIP, s] = 1
        S[S_PFR, s] = 1
    S[S_AGGR, s] += 1
    if H[H_STRUCTURE] == FL:
        why = _raise_fixed(s, cur, new_total, all_in, S, H, order, P)
        H[H_AGGRESSOR] = s
        return why
    if S[S_ACTED, s] and not opening:
        reopened = H[H_FR_COUNT] > S[S_ACTED_FR, s] or (
            P[P_NL_REOPEN_AGGREGATE] and cur - S[S_ACTED_LEVEL, s] >= H[H_LAST_RAISE])
        if not reopened:
            return 60  # BET-NL-NO-REOPEN
    if not all_in and increment < H[H_LAST_RAISE]:
        return 61  # BET-NL-MIN-BET / MIN-RAISE / SUBMIN-ALLIN
    if H[H_STRUCTURE] != NL:
        pot = 0
        for q in range(H[H_SIZE]):
            pot += S[S_CONTRIB, q]
        mx = cur + pot + owed
        alt = mx
        bb_seat = H[H_BB_SEAT]
        if H[H_STREET] == 0 and bb_seat and not S[S_ACTED, bb_seat] and H[H_SB_SEAT]:
            extra = H[H_BB] - H[H_SB]
            alt = mx + (extra if extra > 0 else 0)
        if new_total > mx:
            allowed_alt = P[P_PL_SB_AS_BB_TOURN] if H[H_TOURNAMENT] else P[P_PL_SB_AS_BB]
            if not (new_total <= alt and allowed_alt):
                return 62  # BET-PL-MAX / BET-PL-SB-AS-BB
    if increment >= H[H_LAST_RAISE]:
        H[H_LAST_RAISE] = increment
        H[H_FR_COUNT] += 1
        H[H_BET_WAS_SHORT] = 0
    elif opening:
        H[H_BET_WAS_SHORT] = 1
    H[H_AGGRESSOR] = s
    return 0


@njit(cache=True)
def _raise_fixed(s, cur, new_total, all_in, S, H, order, P):
    street = H[H_STREET]
    size = H[H_SMALL_BET] if street < H[H_BIG_FROM] else H[H_BIG_BET]
    expected = H[H_LAST_RAISE] + size
    if new_total != expected and not (all_in and new_total < expected):
        return 70  # BET-LIMIT-FIXED
    if S[S_ACTED, s] and cur > 0:
        reopened = H[H_FR_COUNT] > S[S_ACTED_FR, s] or (
            P[P_ALLIN_AGGREGATE] and cur - S[S_ACTED_LEVEL, s] >= size)
        if not reopened:
            return 71  # BET-ALLIN-HALFBET
    increment = new_total - cur
    # a stud completion (bring-in to a full bet) counts as the bet, not as a raise
    counts = (increment >= size or (H[H_FAMILY] and new_total - H[H_LAST_RAISE] >= size)
              or (all_in and 2 * (new_total - H[H_LAST_RAISE]) >= size))
    n = H[H_N_ORDER]
    if counts and cur > 0 and H[H_BETS] >= 1 + H[H_CAP_MULTI]:
        live = _with_chips(S, order, n)
        if live >= 3:
            return 72
        if H[H_CAPPED] and not P[P_FOLD_UNCAPS]:
            return 73
        if live <= 2 and not H[H_TOURNAMENT] and P[P_CAP_HEADSUP]:
            pass
        elif live <= 2 and H[H_TOURNAMENT] and P[P_CAP_HEADSUP_TOURN]:
            pass
        else:
            return 74
    if counts:
        short = all_in and new_total < expected
        if not short or (P[P_ALLIN_HALF_LEVEL] and not P[P_ALLIN_FULL_LEVEL]):
            H[H_LAST_RAISE] = new_total
        elif P[P_ALLIN_FULL_LEVEL]:
            H[H_LAST_RAISE] = expected  # iPoker: the raise goes on the full bet
        # PokerStars (full_bet_levels): a short all-in makes no new level
        H[H_BETS] += 1
        H[H_FR_COUNT] += 1
        if H[H_BETS] >= 1 + H[H_CAP_MULTI] and _with_chips(S, order, n) >= 3:
            H[H_CAPPED] = 1
    return 0


# --------------------------------------------------------------------------- decoding
# Arrow string columns are read straight from their buffers (offsets, bytes and the
# validity bitmap; an empty bitmap = no nulls), one pass each, no Python object per row.


@njit(cache=True)
def _is_valid(bitmap, bit):
    return bitmap.shape[0] == 0 or (bitmap[bit >> 3] >> (bit & 7)) & 1 == 1


@njit(cache=True)
def _same_bytes(data, lo, hi, other, olo, ohi):
    if hi - lo != ohi - olo:
        return False
    for j in range(hi - lo):
        if data[lo + j] != other[olo + j]:
            return False
    return True


TEXT_SLOTS = 1024  # string_codes' hash table of candidates


@njit(cache=True)
def text_slot(data, lo, hi):
    """Hash of a non-empty text: its length, first and last byte."""
    return ((hi - lo) * 97 + data[lo] * 31 + data[hi - 1] * 7) % TEXT_SLOTS


@njit(cache=True)
def string_codes(offsets, data, bitmap, bit_offset, cand_off, cand_data, slots, blank):
    """Per row: the index of the row's text in the candidates, -1 for any other text and
    `blank` for a null or empty one. `slots` holds the candidate of each text_slot hash (-1:
    none), so that each row is compared with that one candidate; empty when two candidates'
    hashes collide (then each row is compared with every candidate)."""
    n = offsets.shape[0] - 1
    out = np.empty(n, np.int64)
    n_cand = cand_off.shape[0] - 1
    for i in range(n):
        lo = offsets[i]
        hi = offsets[i + 1]
        if hi == lo or not _is_valid(bitmap, bit_offset + i):
            out[i] = blank
            continue
        out[i] = -1
        if slots.shape[0]:
            c = slots[text_slot(data, lo, hi)]
            if c >= 0 and _same_bytes(data, lo, hi, cand_data, cand_off[c], cand_off[c + 1]):
                out[i] = c
            continue
        for c in range(n_cand):
            if _same_bytes(data, lo, hi, cand_data, cand_off[c], cand_off[c + 1]):
                out[i] = c
                break
    return out


@njit(cache=True)
def source_flags(kind, offsets, data, bitmap, bit_offset, needle_off, needle_data,
                 needle_bit):
    """F_* flags of the hand_started and hand_ended rows whose detail contains a needle."""
    n = kind.shape[0]
    flags = np.zeros(n, np.int64)
    for i in range(n):
        if kind[i] != K_HAND_STARTED and kind[i] != K_HAND_ENDED:
            continue
        if not _is_valid(bitmap, bit_offset + i):
            continue
        lo = offsets[i]
        hi = offsets[i + 1]
        for c in range(needle_bit.shape[0]):
            nlo = needle_off[c]
            m = needle_off[c + 1] - nlo
            for start in range(lo, hi - m + 1):
                if _same_bytes(data, start, start + m, needle_data, nlo, nlo + m):
                    flags[i] |= needle_bit[c]
                    break
    return flags


@njit(cache=True)
def int_column(values, bitmap, bit_offset, missing):
    """An integer column as int64, its nulls as `missing`."""
    n = values.shape[0]
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = values[i] if _is_valid(bitmap, bit_offset + i) else missing
    return out


@njit(cache=True)
def null_with_bytes(offsets, bitmap, bit_offset):
    """Whether a null row of a text column still spans bytes (then it is not read as '')."""
    for i in range(offsets.shape[0] - 1):
        if offsets[i + 1] != offsets[i] and not _is_valid(bitmap, bit_offset + i):
            return True
    return False


@njit(cache=True)
def _decimal_size(v):
    n = 1 if v >= 0 else 2
    v = abs(v)
    while v >= 10:
        v //= 10
        n += 1
    return n


@njit(cache=True)
def _write_decimal(v, buf, pos):
    if v < 0:
        buf[pos] = 45
        pos += 1
        v = -v
    end = pos + _decimal_size(v)
    i = end
    while True:
        i -= 1
        buf[i] = 48 + v % 10
        v //= 10
        if v == 0:
            break
    return end


@njit(cache=True)
def winners_text(row_start, seats, won, offsets, data, bitmap, bit_offset):
    """'seat:player,...' of the rows that won chips, per hand (a null player as ''), as
    offsets, bytes and validity (no winner: null). `offsets`..: the rows' player column."""
    n_hands = row_start.shape[0] - 1
    out_off = np.empty(n_hands + 1, np.int64)
    valid = np.zeros(n_hands, np.bool_)
    end = 0
    for h in range(n_hands):
        out_off[h] = end
        for r in range(row_start[h], row_start[h + 1]):
            if won[r] <= 0:
                continue
            if valid[h]:
                end += 1
            valid[h] = True
            end += _decimal_size(seats[r]) + 1
            if _is_valid(bitmap, bit_offset + r):
                end += offsets[r + 1] - offsets[r]
    out_off[n_hands] = end
    buf = np.empty(end, np.uint8)
    for h in range(n_hands):
        pos = out_off[h]
        for r in range(row_start[h], row_start[h + 1]):
            if won[r] <= 0:
                continue
            if pos > out_off[h]:
                buf[pos] = 44
                pos += 1
            pos = _write_decimal(seats[r], buf, pos)
            buf[pos] = 58
            pos += 1
            if _is_valid(bitmap, bit_offset + r):
                for j in range(offsets[r], offsets[r + 1]):
                    buf[pos] = data[j]
                    pos += 1
    return out_off, buf, valid
