"""The compiled replay's layout: the integer codes of the event columns (kinds, details,
flags), the per-hand game and profile-settings columns, the variant codes and the tables of
the stud and draw games, and the rows of the per-seat and per-hand state arrays. Shared by
every module of audit/replay/fast and by table.py, which decodes the events into these codes.
"""

from __future__ import annotations

import numpy as np

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
