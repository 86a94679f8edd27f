"""Draw games in the compiled replay: 2-7 single and triple draw, ace-to-five, badugi, draw high
and jacks or better, as audit/replay/family/hooks.py replays them for the common case: the
draws in order, hand sizes, the lowball opening, the openers at jacks, the sevens rule and
check-raise of ace-to-five handed back. Anything else goes back (reason codes 95, 110-126
and the shared ones)."""

from __future__ import annotations

from numba import njit

from audit.poker.evaluate.kernel import badugi, low_27, low_a5
from audit.replay.fast.cards import _give
from audit.replay.fast.jokers import _holds, _joker_high, _joker_low, _openers, _seven_or_better
from audit.replay.fast.layout import (
    D_DRAW,
    D_HOLE,
    D_NULL,
    DRAW_LOWBALL,
    DRAWS,
    FL,
    H_BB_SEAT,
    H_BUTTON,
    H_CUR_BET,
    H_DRAW_POS,
    H_FIRST_ACTION,
    H_HOLE_CARDS,
    H_IN_DRAW,
    H_N_ORDER,
    H_OPENED,
    H_OPENER,
    H_OPENER_FIRST,
    H_PHASE,
    H_SB_SEAT,
    H_SIZE,
    H_SMALL_BET,
    H_STREET,
    H_STRUCTURE,
    H_TO_ACT,
    JOKER,
    K_BET,
    K_CALL,
    K_CHECK,
    K_COMPLETE,
    K_RAISE,
    K_STAND_PAT,
    MISSING,
    P_MIN_OPEN_2BB,
    S_BET,
    S_CHECKED,
    S_CHECKED_AFTER,
    S_DRAWN,
    S_DREW,
    S_FOLDED,
    S_GOT,
    S_HOLE_N,
    S_IN,
    S_SERVED,
    S_SHOWN,
    S_SHOWN_N,
    S_STACK,
    V_A5_TRIPLE,
    V_BADUGI,
    V_DRAW_HIGH,
    V_FIRST_DRAW,
    V_JACKS,
    V_LOWBALL_A5,
)
from audit.replay.fast.strength import _strength
from audit.replay.fast.turns import _index_in, _new_round, _next_to_act, _remaining


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
