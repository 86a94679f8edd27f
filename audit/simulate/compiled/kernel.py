"""The compiled NLHE table simulator (numba): whole no-limit hold'em cash tables played hand
after hand, every event written straight into preallocated integer columns.

It plays what the Python engine (audit/simulate/play/engine.py, audit/simulate/play/table.py,
audit/simulate/play/agents.py) plays for a clean NLHE cash table: players arriving, leaving,
sitting out (a returner waits for the big blind), busting and rebuying; stacks carried; the button
moving to the next dealt-in seat; blinds (the button posts the small blind heads-up); the four
agent styles deciding from hand strength (the precomputed preflop table, and postflop the
lookup-table evaluator of audit/poker/evaluate/tables.py); showdowns, main and side pots, uncalled
bets returned, odd chips clockwise from the button, rake (5%, capped at 3 big blinds, no flop no
drop). The betting bookkeeping (last full raise, full-raise counter, reopening, turn order) mirrors
engine.Hand so that every action the agents choose is legal as the replay judges it; a clean hand
audits with no findings.

Not here (those runs take the Python engine, audit/simulate/play/sim.py decides): other games and
structures, antes, straddles, tournaments, injected violations and colluders.

Randomness is one splitmix64 stream (table_state.py) in `rng`, seeded from the simulation seed, so
a seed gives the same hands on every machine. Output columns (one row per event, the
hand_started row included) use codes: `kind` indexes KINDS, `detail` DETAILS (0 = null),
`cards` the card-string dictionary (0 = null, PAIR0 and TRIPLE0 below), `player` the pool
(0 = null, else pool index + 1), seat -1 and MISSING amounts are nulls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.poker.evaluate.kernel import dense_high as _dense
from audit.simulate.compiled.table_state import (  # noqa: F401 - the table layout is part of this API
    MAX_SEATS,
    N_T,
    POOL_PER_TABLE,
    T_BB,
    T_BUTTON,
    T_BUYIN,
    T_CLOCK,
    T_HANDS,
    T_N,
    T_RAKED,
    T_SB,
    maintain,
    randrange,
    uniform,
)

MISSING = np.iinfo(np.int64).min

KINDS = ("hand_started", "seat", "post", "deal", "burn", "fold", "check", "call", "bet",
         "raise", "show", "award", "rake", "hand_ended")
K_STARTED, K_SEAT, K_POST, K_DEAL, K_BURN, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_SHOW, \
    K_AWARD, K_RAKE, K_ENDED = range(len(KINDS))
MAX_POTS = 10
DETAILS = (None, "small_blind", "big_blind", "hole", "board", "all_in", "uncalled",
           "sitting_out", "rake", "main", *[f"side-{k}" for k in range(1, MAX_POTS)])
D_NULL, D_SB, D_BB, D_HOLE, D_BOARD, D_ALL_IN, D_UNCALLED, D_SITTING_OUT, D_RAKE, \
    D_MAIN = range(10)  # side-k is D_MAIN + k

# card-string dictionary: 0 null, 1 + c one card, PAIR0 + a*52 + b two, TRIPLE0 + ... three
PAIR0 = 53
TRIPLE0 = PAIR0 + 52 * 52
N_CARD_STRINGS = TRIPLE0 + 52 * 52 * 52

# agent styles as in agents.STYLES: (play threshold, aggression, bluff)
STYLE_PLAY = np.array([0.58, 0.55, 0.38, 0.35])
STYLE_AGGR = np.array([0.25, 0.65, 0.20, 0.60])
STYLE_BLUFF = np.array([0.03, 0.08, 0.04, 0.15])

EVENT_RESERVE = 1200  # buffer rows a hand may need at most (checked: overflow is an error)
RAKE_PERCENT = 5

# event columns (E[column, event]: each column contiguous)
E_KIND, E_SEAT, E_AMOUNT, E_TOTAL, E_CARDS, E_DETAIL, E_PLAYER = range(7)
N_E = 7
# seat state rows
S_IN, S_FOLDED, S_STACK, S_START, S_BET, S_CONTRIB, S_ACTED, S_ACTED_LEVEL, S_ACTED_FR, \
    S_POS, S_LIVE, S_WON, S_STRENGTH = range(13)
N_S = 13
# hand scalars
H_CUR, H_LAST_RAISE, H_FR, H_STREET, H_ALIVE, H_POT, H_TO_ACT, H_LAST_AGGR, H_AGGR_STREET, \
    H_BB, H_BUTTON, H_NORDER, H_NEV, H_OVERFLOW = range(14)
N_H = 14

# --------------------------------------------------------------------------- event rows
@njit(cache=True, nogil=True)
def _emit(H, E, players, kind, seat, amount, total, cards, detail):
    k = H[H_NEV]
    if k >= E.shape[1]:
        H[H_OVERFLOW] = 1
        return
    E[E_KIND, k] = kind
    E[E_SEAT, k] = seat
    E[E_AMOUNT, k] = amount
    E[E_TOTAL, k] = total
    E[E_CARDS, k] = cards
    E[E_DETAIL, k] = detail
    E[E_PLAYER, k] = players[seat] + 1 if seat > 0 and players[seat] >= 0 else 0
    H[H_NEV] = k + 1


# --------------------------------------------------------------------------- turn order
@njit(cache=True, nogil=True)
def _next_to_act(S, H, order, after):
    """engine.Hand.next_to_act: the next seat clockwise after `after` owing an action."""
    n = H[H_NORDER]
    start = S[S_POS, after] + 1  # `after` is always dealt in here (button, blinds, actors)
    cur = H[H_CUR]
    for k in range(n):
        s = order[(start + k) % n]
        if S[S_FOLDED, s] == 0 and S[S_STACK, s] > 0 and (
                S[S_ACTED, s] == 0 or S[S_BET, s] < cur):
            if S[S_BET, s] >= cur:  # owes nothing: still to act unless alone with chips
                for i in range(n):
                    x = order[i]
                    if x != s and S[S_FOLDED, x] == 0 and S[S_STACK, x] > 0:
                        return s
                return 0
            return s
    return 0


@njit(cache=True, nogil=True)
def _new_round(S, H, order, street):
    H[H_STREET] = street
    H[H_CUR] = 0
    for i in range(H[H_NORDER]):
        s = order[i]
        S[S_BET, s] = 0
        S[S_ACTED, s] = 0
    H[H_LAST_RAISE] = H[H_BB]
    H[H_FR] = 0
    H[H_AGGR_STREET] = 0
    H[H_TO_ACT] = 0 if H[H_ALIVE] <= 1 else _next_to_act(S, H, order, H[H_BUTTON])


@njit(cache=True, nogil=True)
def _reopened(S, H, s):
    if S[S_ACTED, s] == 0 or H[H_CUR] == 0:
        return True
    if H[H_FR] > S[S_ACTED_FR, s]:
        return True
    return H[H_CUR] - S[S_ACTED_LEVEL, s] >= H[H_LAST_RAISE]


@njit(cache=True, nogil=True)
def _raise_range(S, H, s):
    """(min, max) legal no-limit raise-to, (0, 0) when seat s may not raise."""
    cur = H[H_CUR]
    allin = S[S_BET, s] + S[S_STACK, s]
    if allin <= cur or not _reopened(S, H, s):
        return 0, 0
    lo = cur + H[H_LAST_RAISE]
    if lo > allin:
        return allin, allin  # a short all-in only
    return lo, allin


@njit(cache=True, nogil=True)
def _chips(S, H, s, add):
    S[S_STACK, s] -= add
    S[S_CONTRIB, s] += add
    H[H_POT] += add
    b = S[S_BET, s] + add
    S[S_BET, s] = b
    if b > H[H_CUR]:
        H[H_CUR] = b


@njit(cache=True, nogil=True)
def _acted(S, H, order, s):
    S[S_ACTED, s] = 1
    S[S_ACTED_LEVEL, s] = H[H_CUR]
    S[S_ACTED_FR, s] = H[H_FR]
    H[H_TO_ACT] = _next_to_act(S, H, order, s)


# --------------------------------------------------------------------------- hand strength
@njit(cache=True, nogil=True)
def _strength(H, hole, board, s, vcache, pair_score, nf5, nf6, nf7, flush_suit, by_mask,
              card_value, dense_value, work):
    """0..1 hand value of seat s on this street (cached in vcache until the next card)."""
    v = vcache[s]
    if v >= 0:
        return v
    if H[H_STREET] == 0:
        v = pair_score[hole[s, 0] * 52 + hole[s, 1]]
    else:
        n = 4 + H[H_STREET]  # flop 5 cards, turn 6, river 7
        work[0] = hole[s, 0]
        work[1] = hole[s, 1]
        for i in range(n - 2):
            work[2 + i] = board[i]
        v = dense_value[_dense(work, n, nf5, nf6, nf7, flush_suit, by_mask, card_value)]
    vcache[s] = v
    return v


@njit(cache=True, nogil=True)
def _size(S, H, s, lo, hi, rng):
    """agents._size: about half to a full pot; preflop opens of 2-4 big blinds; rare shoves."""
    if lo >= hi:
        return lo
    bb = H[H_BB]
    cur = H[H_CUR]
    want = cur + np.int64(H[H_POT] * (0.45 + uniform(rng) * 0.6))
    if H[H_STREET] == 0 and cur <= bb * 2:
        want = cur + bb * (1 + randrange(rng, 3))
    if uniform(rng) < 0.03:
        want = hi
    if want < lo:
        want = lo
    if want > hi:
        want = hi
    allin = S[S_BET, s] + S[S_STACK, s]
    if allin - want < bb * 2 and hi == allin:
        want = allin
    return want


# --------------------------------------------------------------------------- one hand
@njit(cache=True, nogil=True)
def _play_hand(t, T, players_all, stacks, out, pool_style, rng, S, H, order, hole, board,
               deck, work, pots, eligible, E, vcache, pair_score, nf5, nf6, nf7, flush_suit,
               by_mask, card_value, dense_value):
    n = T[t, T_N]
    players = players_all[t]
    bb = T[t, T_BB]
    button = T[t, T_BUTTON]
    for r in range(N_S):
        for s in range(MAX_SEATS):
            S[r, s] = 0
    H[H_BB] = bb
    H[H_BUTTON] = button
    H[H_POT] = 0
    H[H_LAST_AGGR] = 0
    _emit(H, E, players, K_STARTED, -1, MISSING, MISSING, 0, D_NULL)
    for s in range(1, n + 1):
        if players[s] < 0:
            continue
        if out[t, s]:
            _emit(H, E, players, K_SEAT, s, stacks[t, s], MISSING, 0, D_SITTING_OUT)
        else:
            _emit(H, E, players, K_SEAT, s, stacks[t, s], MISSING, 0, D_NULL)
            S[S_IN, s] = 1
            S[S_STACK, s] = stacks[t, s]
            S[S_START, s] = stacks[t, s]
    # order: dealt-in seats clockwise from the button (the button last)
    m = 0
    for s in range(button + 1, n + 1):
        if S[S_IN, s]:
            order[m] = s
            m += 1
    for s in range(1, button + 1):
        if S[S_IN, s]:
            order[m] = s
            m += 1
    for s in range(MAX_SEATS):
        S[S_POS, s] = -1
    for i in range(m):
        S[S_POS, order[i]] = i
    H[H_NORDER] = m
    H[H_ALIVE] = m
    vcache[:] = -1.0
    _new_round(S, H, order, 0)
    if m == 2:  # heads-up: the button posts the small blind
        sbs, bbs = order[1], order[0]
    else:
        sbs, bbs = order[0], order[1]
    for k in range(2):
        s = sbs if k == 0 else bbs
        amount = T[t, T_SB] if k == 0 else bb
        add = min(amount, S[S_STACK, s])
        _chips(S, H, s, add)
        _emit(H, E, players, K_POST, s, add, S[S_BET, s], 0, D_SB if k == 0 else D_BB)
    H[H_TO_ACT] = _next_to_act(S, H, order, bbs)
    # deal: a partial Fisher-Yates shuffle draws exactly the cards the hand can use
    for i in range(52):
        deck[i] = i
    need = 2 * m + 8
    for i in range(need):
        j = i + randrange(rng, 52 - i)
        c = deck[j]
        deck[j] = deck[i]
        deck[i] = c
    top = 0
    for i in range(m):
        s = order[i]
        hole[s, 0] = deck[top]
        hole[s, 1] = deck[top + 1]
        top += 2
        _emit(H, E, players, K_DEAL, s, MISSING, MISSING,
              PAIR0 + hole[s, 0] * 52 + hole[s, 1], D_HOLE)
    nboard = 0
    while True:
        while H[H_TO_ACT]:
            s = H[H_TO_ACT]
            style = pool_style[players[s]]
            _decide_and_act(S, H, order, hole, board, s, style, rng, players, E, vcache, pair_score,
                            nf5, nf6, nf7, flush_suit, by_mask, card_value, dense_value, work)
            if H[H_OVERFLOW]:
                return
        if H[H_ALIVE] <= 1 or H[H_STREET] == 3:
            break
        _emit(H, E, players, K_BURN, -1, MISSING, MISSING, 0, D_NULL)
        top += 1
        if nboard == 0:
            board[0], board[1], board[2] = deck[top], deck[top + 1], deck[top + 2]
            code = TRIPLE0 + (board[0] * 52 + board[1]) * 52 + board[2]
            top += 3
            nboard = 3
        else:
            board[nboard] = deck[top]
            code = 1 + deck[top]
            top += 1
            nboard += 1
        _emit(H, E, players, K_DEAL, -1, MISSING, MISSING, code, D_BOARD)
        vcache[:] = -1.0
        _new_round(S, H, order, H[H_STREET] + 1)
    _settle(t, T, S, H, order, hole, board, work, pots, eligible, players, E, nf7,
            flush_suit, by_mask, card_value, nf5, nf6)
    _emit(H, E, players, K_ENDED, -1, MISSING, MISSING, 0, D_NULL)
    for i in range(m):  # stacks carried: start - put in + won
        s = order[i]
        left = S[S_START, s] - S[S_CONTRIB, s] + S[S_WON, s]
        stacks[t, s] = left if left > 0 else 0


@njit(cache=True, nogil=True)
def _decide_and_act(S, H, order, hole, board, s, style, rng, players, E, vcache, pair_score, nf5,
                    nf6, nf7, flush_suit, by_mask, card_value, dense_value, work):
    """agents.decide, then the engine's fold/check/call/raise_to for its decision."""
    play = STYLE_PLAY[style]
    aggr = STYLE_AGGR[style]
    bluff = STYLE_BLUFF[style]
    v = _strength(H, hole, board, s, vcache, pair_score, nf5, nf6, nf7, flush_suit, by_mask,
                  card_value, dense_value, work) + (uniform(rng) - 0.5) * 0.16
    cur = H[H_CUR]
    owed = cur - S[S_BET, s]
    r = uniform(rng)
    action = 0  # 0 fold, 1 check, 2 call, 3 raise
    to = 0
    if H[H_STREET] == 0:
        facing_raise = cur > H[H_BB]
        if owed > 0 and (v < play or (facing_raise and v < play + 0.1)) and not r < bluff:
            action = 0
        else:
            lo, hi = _raise_range(S, H, s)
            if lo and ((v > play + 0.08 and r < aggr + 0.3) or r < bluff):
                action = 3
                to = _size(S, H, s, lo, hi, rng)
            else:
                action = 2 if owed > 0 else 1
    else:
        lo, hi = _raise_range(S, H, s)
        if owed == 0:
            if lo and ((v > 0.44 and r < aggr + 0.2) or r < bluff + 0.15 * aggr):
                action = 3
                to = _size(S, H, s, lo, hi, rng)
            else:
                action = 1
        else:
            odds = owed / (H[H_POT] + owed)
            if lo and v > 0.7 and r < aggr:
                action = 3
                to = _size(S, H, s, lo, hi, rng)
            elif v > 0.36 + odds * 0.9 or r < bluff * 0.3:
                action = 2
            else:
                action = 0
    if action == 0:
        S[S_FOLDED, s] = 1
        H[H_ALIVE] -= 1
        S[S_ACTED, s] = 1
        _emit(H, E, players, K_FOLD, s, MISSING, MISSING, 0, D_NULL)
        H[H_TO_ACT] = 0 if H[H_ALIVE] <= 1 else _next_to_act(S, H, order, s)
    elif action == 1:
        _emit(H, E, players, K_CHECK, s, MISSING, MISSING, 0, D_NULL)
        _acted(S, H, order, s)
    elif action == 2:
        stack = S[S_STACK, s]
        add = owed if owed < stack else stack
        _chips(S, H, s, add)
        _emit(H, E, players, K_CALL, s, add, S[S_BET, s], 0,
              D_ALL_IN if S[S_STACK, s] == 0 else D_NULL)
        _acted(S, H, order, s)
    else:
        add = to - S[S_BET, s]
        all_in = add == S[S_STACK, s]
        if to - cur >= H[H_LAST_RAISE]:
            H[H_LAST_RAISE] = to - cur
            H[H_FR] += 1
        _chips(S, H, s, add)
        _emit(H, E, players, K_BET if cur == 0 else K_RAISE, s, add, to, 0,
              D_ALL_IN if all_in else D_NULL)
        H[H_LAST_AGGR] = s
        H[H_AGGR_STREET] += 1
        _acted(S, H, order, s)


@njit(cache=True, nogil=True)
def _settle(t, T, S, H, order, hole, board, work, pots, eligible, players, E, nf7,
            flush_suit, by_mask, card_value, nf5, nf6):
    """engine.settle + table.play_hand's settlement rows: the uncalled bet back, shows, rake,
    one award per seat per pot (odd chips clockwise from the button)."""
    m = H[H_NORDER]
    top, best, second = 0, -1, 0
    for i in range(m):
        s = order[i]
        v = S[S_CONTRIB, s]
        S[S_LIVE, s] = v
        if v > best:
            if top:
                second = best
            top, best = s, v
        elif v > second:
            second = v
    refund = 0
    if S[S_LIVE, top] > second:
        refund = S[S_LIVE, top] - second
        S[S_LIVE, top] = second
    n_cont = 0
    for i in range(m):
        if S[S_FOLDED, order[i]] == 0:
            n_cont += 1
    raked = T[t, T_RAKED] and H[H_STREET] >= 1
    cap = 3 * H[H_BB]
    n_pots = 0
    if n_cont == 1:
        pot_total = -refund
        for i in range(m):
            pot_total += S[S_CONTRIB, order[i]]
        rake = min(pot_total * RAKE_PERCENT // 100, cap) if raked else 0
        pots[0] = pot_total - rake
        for i in range(m):
            eligible[0, order[i]] = 1 - S[S_FOLDED, order[i]]
        n_pots = 1
    else:
        prev = 0
        while True:  # pot levels: the distinct live amounts of the contenders, ascending
            level = -1
            for i in range(m):
                s = order[i]
                v = S[S_LIVE, s]
                if S[S_FOLDED, s] == 0 and v > prev and (level < 0 or v < level):
                    level = v
            if level < 0:
                break
            amount = 0
            for i in range(m):
                v = S[S_LIVE, order[i]]
                if v > prev:
                    amount += (v if v < level else level) - prev
            if amount:
                pots[n_pots] = amount
                for i in range(m):
                    s = order[i]
                    eligible[n_pots, s] = 1 if S[S_FOLDED, s] == 0 and S[S_LIVE, s] >= level \
                        else 0
                n_pots += 1
            prev = level
        rest = 0
        for i in range(m):
            v = S[S_LIVE, order[i]]
            if v > prev:
                rest += v - prev
        if n_pots == 0 and rest:
            pots[0] = 0
            for i in range(m):
                eligible[0, order[i]] = 1 - S[S_FOLDED, order[i]]
            n_pots = 1
        if rest:
            pots[n_pots - 1] += rest
        pot_total = 0
        for k in range(n_pots):
            pot_total += pots[k]
        rake = 0
        if raked:
            rake = pot_total * RAKE_PERCENT // 100
            if rake > cap:
                rake = cap
        left = rake
        for k in range(n_pots - 1, -1, -1):
            take = left if left < pots[k] else pots[k]
            pots[k] -= take
            left -= take
        for i in range(m):  # the showdown: every contender's best five of seven
            s = order[i]
            if S[S_FOLDED, s] == 0:
                work[0] = hole[s, 0]
                work[1] = hole[s, 1]
                for j in range(5):
                    work[2 + j] = board[j]
                S[S_STRENGTH, s] = _dense(work, 7, nf5, nf6, nf7, flush_suit, by_mask,
                                          card_value)
    if refund:
        S[S_WON, top] += refund
        _emit(H, E, players, K_AWARD, top, refund, MISSING, 0, D_UNCALLED)
    if n_cont > 1:
        for i in range(m):
            s = order[i]
            if S[S_FOLDED, s] == 0:
                _emit(H, E, players, K_SHOW, s, MISSING, MISSING,
                      PAIR0 + hole[s, 0] * 52 + hole[s, 1], D_NULL)
    if rake:
        _emit(H, E, players, K_RAKE, -1, rake, MISSING, 0, D_RAKE)
    for k in range(n_pots):
        best_v = -1
        n_win = 0
        for i in range(m):
            s = order[i]
            if eligible[k, s]:
                v = S[S_STRENGTH, s] if n_cont > 1 else 0
                if v > best_v:
                    best_v, n_win = v, 0
                if v == best_v:
                    n_win += 1
        q, extra = pots[k] // n_win, pots[k] % n_win
        w = 0
        for i in range(m):  # clockwise from the button: the odd chips go first
            s = order[i]
            v = S[S_STRENGTH, s] if n_cont > 1 else 0
            if eligible[k, s] and v == best_v:
                a = q + (1 if w < extra else 0)
                w += 1
                if a:
                    S[S_WON, s] += a
                    _emit(H, E, players, K_AWARD, s, a, MISSING, 0, D_MAIN + k)
        for s in range(MAX_SEATS):
            eligible[k, s] = 0


# --------------------------------------------------------------------------- the batch
@njit(cache=True, nogil=True)
def play_hands(n_hands, hand0, T, players, stacks, out, pool_seated, pool_style, rng,
               E, hand_table, hand_button, hand_clock, hand_first, pair_score, nf5, nf6, nf7,
               flush_suit, by_mask, card_value, dense_value):
    """Play up to `n_hands` hands, hand `hand0 + i` at table `(hand0 + i) % len(T)`; stop
    early when the event buffer has less than EVENT_RESERVE rows left. Returns the hands
    played; H_NEV rows of the event columns are filled (overflow: returns -1)."""
    n_tables = T.shape[0]
    S = np.zeros((N_S, MAX_SEATS), dtype=np.int64)
    H = np.zeros(N_H, dtype=np.int64)
    order = np.zeros(MAX_SEATS, dtype=np.int64)
    hole = np.zeros((MAX_SEATS, 2), dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    work = np.zeros(7, dtype=np.int64)
    pots = np.zeros(MAX_POTS, dtype=np.int64)
    eligible = np.zeros((MAX_POTS, MAX_SEATS), dtype=np.int64)
    active = np.zeros(MAX_SEATS, dtype=np.int64)
    was_out = np.zeros(MAX_SEATS, dtype=np.int64)
    free = np.zeros(MAX_SEATS, dtype=np.int64)
    cap = E.shape[1]
    vcache = np.zeros(MAX_SEATS, dtype=np.float64)
    done = 0
    for i in range(n_hands):
        if cap - H[H_NEV] < EVENT_RESERVE:
            break
        t = (hand0 + i) % n_tables
        maintain(t, T, players, stacks, out, pool_seated, rng, active, was_out, free)
        hand_table[i] = t
        hand_button[i] = T[t, T_BUTTON]
        hand_clock[i] = T[t, T_CLOCK]
        hand_first[i] = H[H_NEV]
        T[t, T_CLOCK] += 45_000_000 + randrange(rng, 120) * 1_000_000
        _play_hand(t, T, players, stacks, out, pool_style, rng, S, H, order, hole, board,
                   deck, work, pots, eligible, E, vcache, pair_score, nf5, nf6, nf7, flush_suit,
                   by_mask, card_value, dense_value)
        if H[H_OVERFLOW]:
            return -1, H[H_NEV]
        done += 1
    return done, H[H_NEV]
