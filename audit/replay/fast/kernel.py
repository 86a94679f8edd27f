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

Inputs are integer columns decoded once per table (audit/replay/fast/table.py, in the codes of
layout.py); outputs are columns. Status codes say why a hand was handed back (the numbers each
module returns), which is what the fast-path coverage figures in `poker-audit bench` count.

This module is the hand loop (`replay_batch`, `_replay_one`): each event to its handler, the
end-of-hand checks, then the pots, the showdown and the award check, then the projection rows.
The rest are concepts of their own: turns.py (turn order), forced.py (blinds, antes,
straddles), betting.py (actions), cards.py (card text, dealing), pots.py, showdown.py (with
strength.py) and awards.py (the end of the hand), stud.py, draw.py and jokers.py (the stud and
draw games); layout.py holds the codes and state rows, decode.py reads the Arrow columns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.replay.fast.awards import _check_awards
from audit.replay.fast.betting import _act
from audit.replay.fast.cards import _give, _parse_cards, _write_cards
from audit.replay.fast.decode import (
    TEXT_SLOTS,
    int_column,
    null_with_bytes,
    source_flags,
    string_codes,
    text_slot,
    winners_text,
)
from audit.replay.fast.draw import (
    _draw,
    _draw_before,
    _draw_deal,
    _draw_sizes,
    _sevens_back,
)
from audit.replay.fast.forced import _post
from audit.replay.fast.layout import (
    BOARD_AFTER,
    CLEAN,
    D_ANTE,
    D_BOARD,
    D_BRING_IN,
    D_HOLE,
    D_NULL,
    D_SITTING_OUT,
    D_UNCALLED,
    DETAILS,
    DRAW_BIG_FROM,
    F_RAKE_IMPLICIT,
    F_REFUNDS_IMPLICIT,
    F_UNRECORDED,
    FL,
    G_ANTE,
    G_BB,
    G_BIG_BET,
    G_BRING_IN,
    G_BUTTON,
    G_MIN_BET,
    G_SB,
    G_SETTINGS,
    G_SMALL_BET,
    G_STRUCTURE,
    G_SUPPORTED,
    G_TOURNAMENT,
    G_VARIANT,
    H_ANTE,
    H_BB,
    H_BIG_BET,
    H_BIG_FROM,
    H_BUTTON,
    H_CAP_MULTI,
    H_DRAW_POS,
    H_FAMILY,
    H_HOLE_CARDS,
    H_LAST_RAISE,
    H_MIN_BET,
    H_N_ORDER,
    H_POT_NET,
    H_RAKE,
    H_REFUNDS_ALL,
    H_SB,
    H_SETTINGS,
    H_SIZE,
    H_SMALL_BET,
    H_STREET,
    H_STRUCTURE,
    H_STUD,
    H_TO_ACT,
    H_TOURNAMENT,
    HOLE_CARDS,
    K_ANNOTATION,
    K_AWARD,
    K_BURN,
    K_COMPLETE,
    K_DEAL,
    K_DRAW,
    K_FOLD,
    K_HAND_ENDED,
    K_HAND_STARTED,
    K_MUCK,
    K_POST,
    K_RAISE,
    K_RAKE,
    K_SEAT,
    K_SHOW,
    K_STAND_PAT,
    KINDS,
    MAX_CARDS,
    MAX_SEATS,
    MISSING,
    N_GAME,
    N_SCALARS,
    N_SEAT_ROWS,
    N_SETTINGS,
    P_ALLIN_AGGREGATE,
    P_ALLIN_FULL_LEVEL,
    P_ALLIN_HALF_LEVEL,
    P_CAP_HEADSUP,
    P_CAP_HEADSUP_TOURN,
    P_CAP_MULTI,
    P_FOLD_UNCAPS,
    P_MIN_OPEN_2BB,
    P_NL_REOPEN_AGGREGATE,
    P_PL_SB_AS_BB,
    P_PL_SB_AS_BB_TOURN,
    P_RAKE_ALLOWED,
    P_RAKE_CAP,
    P_RAKE_IMPLIED_MAX,
    P_RAKE_PERCENT,
    P_STRADDLE_BIGBET,
    P_STRADDLE_LIMIT,
    P_STRADDLE_NEW_BRING_IN,
    POSITION_NAMES,
    S_ACTUAL,
    S_AGGR,
    S_ALLIN_STREET,
    S_ANTES,
    S_CALLS,
    S_CONTRIB,
    S_FACED_FROM,
    S_FOLDED_STREET,
    S_HOLE_N,
    S_IN,
    S_INCLUDED,
    S_LOW,
    S_MUCKED,
    S_PFR,
    S_REFUND,
    S_SEAT_EVENT,
    S_SHOWN,
    S_SHOWN_N,
    S_STACK,
    S_START,
    S_STRENGTH,
    S_VPIP,
    STUD_BIG_FROM,
    UNKNOWN_STACK,
    V_27_SINGLE,
    V_27_TRIPLE,
    V_A5_TRIPLE,
    V_BADUGI,
    V_DRAW_HIGH,
    V_FIRST_DRAW,
    V_FIRST_STUD,
    V_JACKS,
    V_LOWBALL_A5,
    V_OMAHA5_HILO,
    V_OMAHA6_HILO,
    V_OMAHA_HILO,
    V_RAZZ,
)
from audit.replay.fast.pots import _build_pots
from audit.replay.fast.showdown import _settle_pots
from audit.replay.fast.stud import (
    _stud_before,
    _stud_bring_in,
    _stud_deal,
    _stud_finish,
    _stud_show,
)
from audit.replay.fast.turns import _index_in, _new_round, _remaining, _start

# what table.py and the tests read from the kernel module: its entry points and codes
__all__ = [
    "DETAILS", "D_NULL", "F_RAKE_IMPLICIT", "F_REFUNDS_IMPLICIT", "F_UNRECORDED", "G_ANTE", "G_BB",
    "G_BIG_BET", "G_BRING_IN", "G_BUTTON", "G_MIN_BET", "G_SB", "G_SETTINGS", "G_SMALL_BET",
    "G_STRUCTURE", "G_SUPPORTED", "G_TOURNAMENT", "G_VARIANT", "KINDS", "K_ANNOTATION",
    "K_HAND_ENDED", "MAX_SEATS", "MISSING", "N_GAME", "N_SETTINGS", "POSITION_NAMES",
    "P_ALLIN_AGGREGATE", "P_ALLIN_FULL_LEVEL", "P_ALLIN_HALF_LEVEL", "P_CAP_HEADSUP",
    "P_CAP_HEADSUP_TOURN", "P_CAP_MULTI", "P_FOLD_UNCAPS", "P_MIN_OPEN_2BB",
    "P_NL_REOPEN_AGGREGATE", "P_PL_SB_AS_BB", "P_PL_SB_AS_BB_TOURN", "P_RAKE_ALLOWED",
    "P_RAKE_CAP", "P_RAKE_IMPLIED_MAX", "P_RAKE_PERCENT", "P_STRADDLE_BIGBET", "P_STRADDLE_LIMIT",
    "P_STRADDLE_NEW_BRING_IN", "TEXT_SLOTS", "V_FIRST_DRAW", "V_FIRST_STUD", "int_column",
    "null_with_bytes", "replay_batch", "source_flags", "string_codes", "text_slot", "winners_text",
]


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
    why, n_pots = _build_pots(S, size, pot_amount, pot_level)
    if why:
        return why
    why = _settle_pots(n_pots, pot_amount, pot_level, S, order, n_order, size, board, nb, hole,
                       shown, hole_n, variant, stud, draw, hilo, unrecorded, seven, winners,
                       table5, table6, table7, flush_suit, by_mask, strengths, card_value)
    if why:
        return why
    return _check_awards(S, H, P, size, unrecorded, refunds_implicit, uncalled_logged,
                         rake_implicit, rake_logged)


@njit(cache=True)
def _named_class(variant):
    """projections.py: a hand class is named in the high games only."""
    return not (variant == V_RAZZ or variant == V_27_TRIPLE or variant == V_27_SINGLE
                or variant == V_BADUGI or variant == V_LOWBALL_A5 or variant == V_A5_TRIPLE)
