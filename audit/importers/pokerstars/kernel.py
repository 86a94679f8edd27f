"""The PokerStars fast path's compiled passes over the lines of a piece (numba, cached).

`body_lines` reads each line between the seats and the summary once, byte by byte, and
returns columns: where the first ': ' is, what the text after it is as an action (simple,
show, or a money verb with its amounts), what the whole line is as a line of no seated
player (dealt, hole, board, uncalled return, ...), where its cards are and the amount of an
uncalled return; `other_lines` reads the few lines left (collections, site messages). Before
this, the same answers took some sixty polars string passes (splits, strips, regex
extractions, replaces, casts) and five joins over the same lines.

`hand_lines` reads the seat lines the same way, and `summary_lines` the summary's seat lines,
mucked cards and total pot; `seats_of` finds the seat of a name in its hand byte for byte.
Each check is the exact equivalent of the polars regex or string test it replaced (the
pattern is written at the check; CL is a card list, `[2-9TJQKA][cdhs]( [2-9TJQKA][cdhs])*`);
a line these checks do not accept makes the hand the line parser's there, as before. Amounts
follow `pokerstars_game.money` through the `_MONEY` pattern the fast path used: an optional
'$', '€' or '£', a digit, digits and commas, an optional '.' with one or two digits; a
whole part of more than 15 digits, or cents at a one-unit currency, is not ok.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the text after 'NAME: ' (after ' and is all-in' is taken off), as an action
ACT_NONE = 0  # no action this path reads (a seated player's line with it is the parser's)
ACT_FOLD, ACT_CHECK, ACT_MUCKS, ACT_NO_SHOW, ACT_SITS_OUT, ACT_IS_SITTING_OUT = 1, 2, 3, 4, 5, 6
ACT_SHOW = 7  # 'shows [CARDS]' (optionally ' (...)'), cards at x0:x1
# money verbs ('calls', 'bets', 'raises', 'posts small blind', 'posts big blind', 'posts the
# ante', 'posts straddle'), their amounts ok
ACT_CALLS, ACT_BETS, ACT_RAISES, ACT_SB, ACT_BB, ACT_ANTE, ACT_STRADDLE = 10, 11, 12, 13, 14, 15, 16

# the whole line, in the order of the parser's checks for a line of no seated player (a
# collection, told apart by the seat of its name, comes after AWAY and before UNCALLED)
LINE_OTHER = 0
LINE_DEALT = 1  # 'Dealt to ...': ok when 'Dealt to NAME [CARDS]' (name y0:y1, cards x0:x1)
LINE_HOLE = 2  # '*** HOLE CARDS ***' or '*** DEALING HANDS ***'
LINE_QUIET = 3  # '*** SHOW DOWN ***', '*** FIRST SHOW DOWN ***', '*** PRE-FLOP ***'
LINE_BOARD = 4  # '*** FLOP|TURN|RIVER *** [': ok when the board pattern holds (cards x0:x1)
LINE_STAR = 5  # any other '*** ' line
LINE_AWAY = 6  # 'NAME: sits out' / 'NAME: is sitting out' with a name
LINE_UNCALLED = 7  # 'Uncalled bet (AMOUNT) returned to NAME' (name u0:u1; ok: the amount's)

# pots of a collection ('... collected AMOUNT from POT')
POT_NONE, POT_MAIN, POT_SIDE_ONE, POT_SIDE_N = 0, 1, 2, 3  # side pot-N: N at n0:n1

# site messages among the lines left (the checks of `rare` in the parser's order): who is at
# w0:w1; which text (the fixed line's, the note suffix's, the marker's) at `which`
NOTE_BAD, NOTE_FIXED, NOTE_SAID, NOTE_JOINS, NOTE_SUFFIX, NOTE_MARKER = 0, 1, 2, 3, 4, 5


def _b(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8).copy()


_COLON = _b(": ")
_ALL_IN = _b(" and is all-in")
_FOLDS, _CHECKS, _MUCKS = _b("folds"), _b("checks"), _b("mucks hand")
_NO_SHOW, _SITS_OUT, _IS_SITTING_OUT = _b("doesn't show hand"), _b("sits out"), _b("is sitting out")
_SHOWS = _b("shows [")
_V_CALLS, _V_BETS, _V_RAISES = _b("calls "), _b("bets "), _b("raises ")
_V_SB, _V_BB, _V_ANTE = _b("posts small blind "), _b("posts big blind "), _b("posts the ante ")
_V_STRADDLE = _b("posts straddle ")
_TO = _b(" to ")
_DEALT_TO = _b("Dealt to ")
_OPEN = _b(" [")
_HOLE_CARDS, _DEALING = _b("*** HOLE CARDS ***"), _b("*** DEALING HANDS ***")
_SHOW_DOWN, _FIRST_SHOW_DOWN = _b("*** SHOW DOWN ***"), _b("*** FIRST SHOW DOWN ***")
_PRE_FLOP = _b("*** PRE-FLOP ***")
_FLOP, _TURN, _RIVER = _b("*** FLOP *** ["), _b("*** TURN *** ["), _b("*** RIVER *** [")
_STARS = _b("*** ")
_UNCALLED_BET, _RETURNED_TO = _b("Uncalled bet ("), _b(") returned to ")
_COLLECTED, _FROM = _b(" collected "), _b(" from ")
_POT, _MAIN_POT, _SIDE_POT = _b("pot"), _b("main pot"), _b("side pot")
_SAID = _b(' said, "')
_SEAT, _IN_CHIPS, _SUMMARY = _b("Seat "), _b(" in chips)"), _b("*** SUMMARY ***")
_PAREN = _b(" (")
_SITTING_OUT_TAIL, _OUT_OF_HAND = _b(" is sitting out"), _b(" out of hand")
_DEALT_TO_NAME, _STARS_NAME = _b("Dealt to "), _b("*** ")

# the tail of a seat line
TAIL_NONE, TAIL_SITTING_OUT, TAIL_OUT_OF_HAND = 0, 1, 2

# summary lines: a seat's, the total pot's, one read as nothing, anything else (the parser's)
SUMMARY_OTHER, SUMMARY_SEAT, SUMMARY_TOTAL, SUMMARY_QUIET = 0, 1, 2, 3
_TOTAL_POT, _RAKE = _b("Total pot "), _b(" | Rake ")
_BOARD_AT, _FIRST_BOARD, _SECOND_BOARD = _b("Board ["), _b("FIRST Board ["), _b("SECOND Board [")
_RUN_TWICE = _b("Hand was run twice")
_MUCKED = _b(" mucked [")


@njit(cache=True, nogil=True)
def _at(data, p, end, lit):
    """data[p:end] starts with `lit`."""
    n = len(lit)
    if p < 0 or p + n > end:
        return False
    for k in range(n):
        if data[p + k] != lit[k]:
            return False
    return True


@njit(cache=True, nogil=True)
def _is(data, p, end, lit):
    """data[p:end] is `lit`."""
    return end - p == len(lit) and _at(data, p, end, lit)


@njit(cache=True, nogil=True)
def _find(data, p, end, lit):
    """The first place at or after p where `lit` starts within data[:end], or -1."""
    n = len(lit)
    first = lit[0]
    for q in range(p, end - n + 1):
        if data[q] == first:
            ok = True
            for k in range(1, n):
                if data[q + k] != lit[k]:
                    ok = False
                    break
            if ok:
                return q
    return -1


@njit(cache=True, nogil=True)
def _digit(c):
    return 48 <= c <= 57


@njit(cache=True, nogil=True)
def _amount(data, p, end, mpu):
    """The amount at data[p:...] (`_MONEY` without its anchors): (position after it, or -1
    when none starts there; minor units; ok)."""
    if p < end and data[p] == 36:  # $
        p += 1
    elif p + 2 < end and data[p] == 0xE2 and data[p + 1] == 0x82 and data[p + 2] == 0xAC:  # €
        p += 3
    elif p + 1 < end and data[p] == 0xC2 and data[p + 1] == 0xA3:  # £
        p += 2
    if p >= end or not _digit(data[p]):
        return -1, 0, False
    whole = 0
    digits = 0
    while p < end and (_digit(data[p]) or data[p] == 44):
        if data[p] != 44:
            if digits < 18:
                whole = whole * 10 + (data[p] - 48)
            digits += 1
        p += 1
    frac = 0
    if p + 1 < end and data[p] == 46 and _digit(data[p + 1]):
        frac = (data[p + 1] - 48) * 10
        p += 2
        if p < end and _digit(data[p]):
            frac += data[p] - 48
            p += 1
    ok = digits <= 15 and (mpu == 100 or frac == 0)
    value = whole * mpu + (frac if mpu == 100 else 0) if ok else 0
    return p, value, ok


@njit(cache=True, nogil=True)
def _money(data, p, end, mpu):
    """`_MONEY` over all of data[p:end]: (matched, minor units, ok)."""
    q, value, ok = _amount(data, p, end, mpu)
    if q != end:
        return False, 0, False
    return True, value, ok


@njit(cache=True, nogil=True)
def _card(data, p, end):
    """A card ('[2-9TJQKA][cdhs]') at data[p:p + 2]."""
    if p + 2 > end:
        return False
    r, s = data[p], data[p + 1]
    rank = (50 <= r <= 57) or r == 84 or r == 74 or r == 81 or r == 75 or r == 65
    return rank and (s == 99 or s == 100 or s == 104 or s == 115)


@njit(cache=True, nogil=True)
def _cards(data, p, end):
    """The end of the card list ('C( C)*', `_CL`) at data[p:...], or -1."""
    if not _card(data, p, end):
        return -1
    p += 2
    while p < end and data[p] == 32 and _card(data, p + 1, end):
        p += 3
    return p


@njit(cache=True, nogil=True)
def _board(data, p, end):
    """`(?:\\[CL\\] )*\\[(CL)\\]$` at data[p:end]: the last card list's span, or (-1, -1)."""
    while True:
        if p >= end or data[p] != 91:  # [
            return -1, -1
        q = _cards(data, p + 1, end)
        if q < 0 or q >= end or data[q] != 93:  # ]
            return -1, -1
        if q + 1 == end:
            return p + 1, q
        if data[q + 1] != 32:
            return -1, -1
        p = q + 2


@njit(cache=True, nogil=True)
def body_lines(data, begin, length, mpu):
    """Per line (bytes data[begin:begin + length], the line without its end whitespace; mpu
    the hand's minor units per unit), the columns described in the module docstring."""
    n = len(begin)
    colon = np.full(n, -1, dtype=np.int32)
    act = np.zeros(n, dtype=np.int8)
    all_in = np.zeros(n, dtype=np.bool_)
    amt = np.zeros(n, dtype=np.int64)
    to = np.zeros(n, dtype=np.int64)
    line = np.zeros(n, dtype=np.int8)
    valid = np.zeros(n, dtype=np.bool_)
    x0 = np.full(n, -1, dtype=np.int32)
    x1 = np.full(n, -1, dtype=np.int32)
    y0 = np.full(n, -1, dtype=np.int32)
    y1 = np.full(n, -1, dtype=np.int32)
    u0 = np.full(n, -1, dtype=np.int32)
    u1 = np.full(n, -1, dtype=np.int32)
    back = np.zeros(n, dtype=np.int64)
    for r in range(n):
        a = begin[r]
        end = a + length[r]
        unit = mpu[r]
        c = _find(data, a, end, _COLON)
        colon[r] = c - a if c >= 0 else -1
        # (each text compared only after its first byte matched: far cheaper per line)
        if c >= 0:
            p = c + 2
            e = end
            if (e - p >= len(_ALL_IN) and data[e - 1] == 110  # n
                    and _at(data, e - len(_ALL_IN), e, _ALL_IN)):
                all_in[r] = True
                e -= len(_ALL_IN)
            code = ACT_NONE
            first = data[p] if p < e else 0
            verb = ACT_NONE
            skip = 0
            if first == 102:  # f
                if _is(data, p, e, _FOLDS):
                    code = ACT_FOLD
            elif first == 99:  # c
                if _is(data, p, e, _CHECKS):
                    code = ACT_CHECK
                elif _at(data, p, e, _V_CALLS):
                    verb, skip = ACT_CALLS, len(_V_CALLS)
            elif first == 109:  # m
                if _is(data, p, e, _MUCKS):
                    code = ACT_MUCKS
            elif first == 100:  # d
                if _is(data, p, e, _NO_SHOW):
                    code = ACT_NO_SHOW
            elif first == 105:  # i
                if _is(data, p, e, _IS_SITTING_OUT):
                    code = ACT_IS_SITTING_OUT
            elif first == 98:  # b
                if _at(data, p, e, _V_BETS):
                    verb, skip = ACT_BETS, len(_V_BETS)
            elif first == 114:  # r
                if _at(data, p, e, _V_RAISES):
                    verb, skip = ACT_RAISES, len(_V_RAISES)
            elif first == 112:  # p
                if _at(data, p, e, _V_SB):
                    verb, skip = ACT_SB, len(_V_SB)
                elif _at(data, p, e, _V_BB):
                    verb, skip = ACT_BB, len(_V_BB)
                elif _at(data, p, e, _V_ANTE):
                    verb, skip = ACT_ANTE, len(_V_ANTE)
                elif _at(data, p, e, _V_STRADDLE):
                    verb, skip = ACT_STRADDLE, len(_V_STRADDLE)
            elif first == 115:  # s
                if _is(data, p, e, _SITS_OUT):
                    code = ACT_SITS_OUT
                elif _at(data, p, e, _SHOWS):
                    # _SHOW: shows \[(CL)\](?: \(.*\))?$
                    q = _cards(data, p + len(_SHOWS), e)
                    if q >= 0 and q < e and data[q] == 93:
                        tail = q + 1
                        if tail == e or (e - tail >= 3 and data[tail] == 32
                                         and data[tail + 1] == 40 and data[e - 1] == 41):
                            code = ACT_SHOW
                            x0[r] = p + len(_SHOWS) - a
                            x1[r] = q - a
            if verb != ACT_NONE:
                # _MONEY_ACT: VERB AMOUNT( to AMOUNT)?$, the amounts ok, 'to' with raises only
                q, value, ok = _amount(data, p + skip, e, unit)
                if q == e:
                    if ok and verb != ACT_RAISES:
                        code = verb
                        amt[r] = value
                elif q >= 0 and q < e and data[q] == 32 and _at(data, q, e, _TO):
                    matched, total, total_ok = _money(data, q + len(_TO), e, unit)
                    if matched and ok and total_ok and verb == ACT_RAISES:
                        code = verb
                        amt[r] = value
                        to[r] = total
            act[r] = code
        # the whole line as one of no seated player
        kind = LINE_OTHER
        first = data[a] if a < end else 0
        if first == 68 and _at(data, a, end, _DEALT_TO):  # D
            kind = LINE_DEALT
            # _DEALT: Dealt to (NAME.*?) \[(CL)\]$, NAME also up to the first ' ['
            q = _find(data, a, end, _OPEN)
            if q >= a + len(_DEALT_TO):
                k = _cards(data, q + 2, end)
                if k >= 0 and k + 1 == end and data[k] == 93:
                    valid[r] = True
                    y0[r] = len(_DEALT_TO)
                    y1[r] = q - a
                    x0[r] = q + 2 - a
                    x1[r] = k - a
        elif first == 42:  # *
            if _is(data, a, end, _HOLE_CARDS) or _is(data, a, end, _DEALING):
                kind = LINE_HOLE
            elif (_is(data, a, end, _SHOW_DOWN) or _is(data, a, end, _FIRST_SHOW_DOWN)
                  or _is(data, a, end, _PRE_FLOP)):
                kind = LINE_QUIET
            elif (_at(data, a, end, _FLOP) or _at(data, a, end, _TURN)
                  or _at(data, a, end, _RIVER)):
                kind = LINE_BOARD
                # _BOARD: from the first '[' (the last byte of the prefix)
                k0, k1 = _board(data, a + (len(_RIVER) if data[a + 4] == 82 else len(_FLOP)) - 1,
                                end)
                if k0 >= 0:
                    valid[r] = True
                    x0[r] = k0 - a
                    x1[r] = k1 - a
            elif _at(data, a, end, _STARS):
                kind = LINE_STAR
        if kind == LINE_OTHER and c > a and c + 2 < end and (
                (data[c + 2] == 115 and _is(data, c + 2, end, _SITS_OUT))
                or (data[c + 2] == 105 and _is(data, c + 2, end, _IS_SITTING_OUT))):
            kind = LINE_AWAY
        elif kind == LINE_OTHER and first == 85 and _at(data, a, end, _UNCALLED_BET):  # U
            q = _find(data, a + len(_UNCALLED_BET), end, _RETURNED_TO)
            if q >= 0:
                kind = LINE_UNCALLED
                # _UNCALLED: Uncalled bet \((.*?)\) returned to (.*)$, the amount by _MONEY
                matched, value, ok = _money(data, a + len(_UNCALLED_BET), q, unit)
                valid[r] = matched and ok
                back[r] = value
                u0[r] = q + len(_RETURNED_TO) - a
                u1[r] = end - a
        line[r] = kind
    return colon, act, all_in, amt, to, line, valid, x0, x1, y0, y1, u0, u1, back


@njit(cache=True, nogil=True)
def _count(data, a, end, lit):
    """How many times `lit` occurs in data[a:end], counted without overlaps."""
    count = 0
    q = _find(data, a, end, lit)
    while q >= 0:
        count += 1
        q = _find(data, q + len(lit), end, lit)
    return count


@njit(cache=True, nogil=True)
def other_lines(data, begin, length, mpu, joins, fixed_bytes, fixed_off, note_bytes,
                note_off, marker_bytes, marker_off):
    """Per line of no seated player that is no dealt, hole, board or star line and not
    away: whether it is a collection ('NAME collected AMOUNT from POT', `_COLLECTED`: where
    ' collected ' is, the pot, the amount and whether it is ok), and what site message it
    is if not (the NOTE_* codes: who at w0:w1, the text `which`, said words at x0:x1). The
    fixed lines, note suffixes and markers are texts k of (bytes, offsets)."""
    n = len(begin)
    collected = np.full(n, -1, dtype=np.int32)
    pot = np.zeros(n, dtype=np.int8)
    won = np.zeros(n, dtype=np.int64)
    won_ok = np.zeros(n, dtype=np.bool_)
    n0 = np.full(n, -1, dtype=np.int32)
    n1 = np.full(n, -1, dtype=np.int32)
    note = np.zeros(n, dtype=np.int8)
    which = np.zeros(n, dtype=np.int8)
    w0 = np.full(n, -1, dtype=np.int32)
    w1 = np.full(n, -1, dtype=np.int32)
    x0 = np.full(n, -1, dtype=np.int32)
    x1 = np.full(n, -1, dtype=np.int32)
    for r in range(n):
        a = begin[r]
        end = a + length[r]
        k = _find(data, a, end, _COLLECTED)
        if k >= 0:
            collected[r] = k - a
            p = k + len(_COLLECTED)
            sp = p
            while sp < end and data[sp] != 32:
                sp += 1
            if sp > p and _at(data, sp, end, _FROM):
                t = sp + len(_FROM)
                code = POT_NONE
                if _is(data, t, end, _POT) or _is(data, t, end, _MAIN_POT):
                    code = POT_MAIN
                elif _is(data, t, end, _SIDE_POT):
                    code = POT_SIDE_ONE
                elif (_at(data, t, end, _SIDE_POT) and t + len(_SIDE_POT) + 1 < end
                      and data[t + len(_SIDE_POT)] == 45
                      and 49 <= data[t + len(_SIDE_POT) + 1] <= 57):
                    code = POT_SIDE_N
                    for z in range(t + len(_SIDE_POT) + 2, end):
                        if not _digit(data[z]):
                            code = POT_NONE
                            break
                    if code == POT_SIDE_N:
                        n0[r] = t + len(_SIDE_POT) + 1 - a
                        n1[r] = end - a
                if code != POT_NONE:
                    matched, value, ok = _money(data, p, sp, mpu[r])
                    pot[r] = code
                    won[r] = value
                    won_ok[r] = matched and ok
        # the site message, if it is one (-1: none of the checks so far holds)
        kind = -1
        for f in range(len(fixed_off) - 1):
            if _is(data, a, end, fixed_bytes[fixed_off[f]:fixed_off[f + 1]]):
                kind = NOTE_FIXED
                which[r] = f
                break
        if kind < 0 and end > a and data[end - 1] == 34 and _find(data, a, end, _SAID) >= 0:
            # _SAID: (NAME.+?) said, "(WORDS.*)"$ (no match: the parser's)
            kind = NOTE_BAD
            q = _find(data, a + 1, end, _SAID)
            if q >= 0 and q + len(_SAID) <= end - 1:
                kind = NOTE_SAID
                w0[r] = 0
                w1[r] = q - a
                x0[r] = q + len(_SAID) - a
                x1[r] = end - 1 - a
        if kind < 0:
            q = _find(data, a, end, joins)
            if q >= 0:
                kind = NOTE_JOINS
                w0[r] = 0
                w1[r] = q - a
        if kind < 0:
            # the first suffix the line ends with; all those it ends with occur once in all
            count = 0
            for f in range(len(note_off) - 1):
                suffix = note_bytes[note_off[f]:note_off[f + 1]]
                if end - a >= len(suffix) and _at(data, end - len(suffix), end, suffix):
                    if kind < 0:
                        kind = NOTE_SUFFIX
                        which[r] = f
                        w0[r] = 0
                        w1[r] = end - len(suffix) - a
                    count += _count(data, a, end, suffix)
            if kind == NOTE_SUFFIX and count != 1:
                kind = NOTE_BAD
        if kind < 0:
            for f in range(len(marker_off) - 1):
                q = _find(data, a, end, marker_bytes[marker_off[f]:marker_off[f + 1]])
                if q >= 0:
                    kind = NOTE_MARKER
                    which[r] = f
                    w0[r] = 0
                    w1[r] = q - a
                    break
        if kind < 0:
            kind = NOTE_BAD
        note[r] = kind
    return collected, pot, won, won_ok, n0, n1, note, which, w0, w1, x0, x1


@njit(cache=True, nogil=True)
def hand_lines(data, begin, length, mpu):
    """Per line of a hand: whether it looks like a seat line ('Seat ' ... ' in chips)'),
    whether it is '*** SUMMARY ***', and read as a seat line: the seat (-1 unless the line
    has the shape `^Seat [1-9][0-9]?: [^()]+ \\(\\$?[0-9.,]+ in chips\\)(?: (?:is sitting
    out|out of hand.*))?$`), the name at n0:n1, the stack, the tail (TAIL_*) and whether all
    of it is ok (the stack by `_MONEY`, ' in chips)' once, a name without ': ' that does not
    start like a dealt or a star line); and whether the line holds 'Uncalled bet ('."""
    n = len(begin)
    seat_like = np.zeros(n, dtype=np.bool_)
    summary = np.zeros(n, dtype=np.bool_)
    seat = np.full(n, -1, dtype=np.int64)
    n0 = np.full(n, -1, dtype=np.int32)
    n1 = np.full(n, -1, dtype=np.int32)
    stack = np.zeros(n, dtype=np.int64)
    tail = np.zeros(n, dtype=np.int8)
    good = np.zeros(n, dtype=np.bool_)
    uncalled = np.zeros(n, dtype=np.bool_)
    for r in range(n):
        a = begin[r]
        end = a + length[r]
        if a >= end:
            continue
        uncalled[r] = _find(data, a, end, _UNCALLED_BET) >= 0
        if data[a] == 42:  # *
            summary[r] = _is(data, a, end, _SUMMARY)
            continue
        if data[a] != 83 or not _at(data, a, end, _SEAT):  # S
            continue
        chips = _find(data, a + len(_SEAT), end, _IN_CHIPS)
        if chips < 0:
            continue
        seat_like[r] = True
        # the shape: Seat N: NAME (STACK in chips)TAIL
        p = a + len(_SEAT)
        if p >= end or not 49 <= data[p] <= 57:
            continue
        number = data[p] - 48
        p += 1
        if p < end and _digit(data[p]):
            number = number * 10 + data[p] - 48
            p += 1
        if not (p + 1 < end and data[p] == 58 and data[p + 1] == 32):
            continue
        name = p + 2
        # NAME: no parentheses, up to ' (' (its first '(')
        q = name
        while q < end and data[q] != 40 and data[q] != 41:
            q += 1
        if q >= end or data[q] != 40 or q - 1 <= name or data[q - 1] != 32:
            continue
        # '(' STACK ' in chips)': $?[0-9.,]+
        k = q + 1
        if k < end and data[k] == 36:
            k += 1
        digits = k
        while k < end and (_digit(data[k]) or data[k] == 46 or data[k] == 44):
            k += 1
        if k == digits or k != chips:
            continue
        rest = chips + len(_IN_CHIPS)
        code = TAIL_NONE
        if rest == end:
            code = TAIL_NONE
        elif _is(data, rest, end, _SITTING_OUT_TAIL):
            code = TAIL_SITTING_OUT
        elif _at(data, rest, end, _OUT_OF_HAND):
            code = TAIL_OUT_OF_HAND
        else:
            continue
        seat[r] = number
        tail[r] = code
        n0[r] = name - a
        n1[r] = q - 1 - a
        matched, value, ok = _money(data, q + 1, chips, mpu[r])
        stack[r] = value
        good[r] = (matched and ok and _find(data, chips + 1, end, _IN_CHIPS) < 0
                   and _find(data, name, q - 1, _COLON) < 0
                   and not _at(data, name, q - 1, _DEALT_TO_NAME)
                   and not _at(data, name, q - 1, _STARS_NAME))
    return seat_like, summary, seat, n0, n1, stack, tail, good, uncalled


@njit(cache=True, nogil=True)
def seats_of(data, begin, lo, hi, hand, first, count, name_begin, name_lo, name_hi, seat):
    """The seat of the name at data[begin + lo:begin + hi] (lo < 0: none) in its hand, or -1:
    the names of hand h are k = first[h] .. first[h] + count[h] - 1, at data[name_begin[k] +
    name_lo[k]:name_begin[k] + name_hi[k]] (name_lo < 0: no name), seated at seat[k]."""
    n = len(begin)
    out = np.full(n, -1, dtype=np.int64)
    for r in range(n):
        if lo[r] < 0:
            continue
        a = begin[r] + lo[r]
        size = hi[r] - lo[r]
        h = hand[r]
        for k in range(first[h], first[h] + count[h]):
            if name_lo[k] < 0 or name_hi[k] - name_lo[k] != size:
                continue
            b = name_begin[k] + name_lo[k]
            same = True
            for z in range(size):
                if data[a + z] != data[b + z]:
                    same = False
                    break
            if same:
                out[r] = seat[k]
                break
    return out


@njit(cache=True, nogil=True)
def summary_lines(data, begin, length, mpu, hand, first, count, name_begin, name_lo, name_hi,
                  seat):
    """Per summary line (the names of hand h as for `seats_of`): its kind (SUMMARY_*); for a
    seat line, the seat ('Seat N: ', -1 if none), whether the text after ': ' starts with that
    seat's name (`seated`), and cards it mucked (' mucked [CARDS]' at its first ' mucked [':
    muck 1 with the cards at x0:x1, 2 when they are no card list, 0 when there are none); for
    the total line, the pot and rake of 'Total pot POT | Rake RAKE' and whether both are
    amounts that are ok (`simple`: else the parser's reader reads the line)."""
    n = len(begin)
    kind = np.zeros(n, dtype=np.int8)
    seat_of = np.full(n, -1, dtype=np.int64)
    seated = np.zeros(n, dtype=np.bool_)
    muck = np.zeros(n, dtype=np.int8)
    x0 = np.full(n, -1, dtype=np.int32)
    x1 = np.full(n, -1, dtype=np.int32)
    pot = np.zeros(n, dtype=np.int64)
    rake = np.zeros(n, dtype=np.int64)
    simple = np.zeros(n, dtype=np.bool_)
    for r in range(n):
        a = begin[r]
        end = a + length[r]
        first_byte = data[a] if a < end else 0
        if first_byte == 83 and _at(data, a, end, _SEAT):  # S
            kind[r] = SUMMARY_SEAT
            p = a + len(_SEAT)
            if p < end and 49 <= data[p] <= 57:
                number = data[p] - 48
                p += 1
                if p < end and _digit(data[p]):
                    number = number * 10 + data[p] - 48
                    p += 1
                if p + 1 < end + 1 and _at(data, p, end, _COLON):
                    seat_of[r] = number
                    rest = p + 2
                    h = hand[r]
                    for k in range(first[h], first[h] + count[h]):
                        if seat[k] != number:
                            continue
                        if name_lo[k] >= 0:
                            size = name_hi[k] - name_lo[k]
                            b = name_begin[k] + name_lo[k]
                            same = rest + size <= end
                            z = 0
                            while same and z < size:
                                same = data[rest + z] == data[b + z]
                                z += 1
                            seated[r] = same
                        break
            m = _find(data, a, end, _MUCKED)
            if m >= 0:
                # ^.*? mucked (\[[^\]]*\]), the cards a card list
                c0 = m + len(_MUCKED)
                c1 = c0
                while c1 < end and data[c1] != 93:
                    c1 += 1
                muck[r] = 2
                if c1 < end and (c0 == c1 or _cards(data, c0, c1) == c1):
                    if c1 > c0:
                        muck[r] = 1
                        x0[r] = c0 - a
                        x1[r] = c1 - a
        elif first_byte == 84 and _at(data, a, end, _TOTAL_POT):  # T
            kind[r] = SUMMARY_TOTAL
            # ^Total pot ([^ |]+) \| Rake ([^ |]+)$
            p = a + len(_TOTAL_POT)
            q = p
            while q < end and data[q] != 32 and data[q] != 124:
                q += 1
            if q > p and _at(data, q, end, _RAKE):
                k = q + len(_RAKE)
                z = k
                while z < end and data[z] != 32 and data[z] != 124:
                    z += 1
                if z == end and end > k:
                    matched, value, ok = _money(data, p, q, mpu[r])
                    matched2, value2, ok2 = _money(data, k, end, mpu[r])
                    if matched and ok and matched2 and ok2:
                        simple[r] = True
                        pot[r] = value
                        rake[r] = value2
        elif (_at(data, a, end, _BOARD_AT) or _at(data, a, end, _FIRST_BOARD)
              or _at(data, a, end, _SECOND_BOARD) or _is(data, a, end, _RUN_TWICE)
              or _is(data, a, end, _SUMMARY)):
            kind[r] = SUMMARY_QUIET
    return kind, seat_of, seated, muck, x0, x1, pot, rake, simple


@njit(cache=True, nogil=True)
def spans(data, begin, lo, hi):
    """The texts data[begin + lo:begin + hi] (null where lo < 0) as Arrow string buffers:
    (int32 offsets, bytes, validity bitmap, null count)."""
    n = len(begin)
    offsets = np.zeros(n + 1, dtype=np.int32)
    total = 0
    nulls = 0
    for r in range(n):
        if lo[r] >= 0:
            total += hi[r] - lo[r]
        else:
            nulls += 1
        offsets[r + 1] = total
    out = np.empty(total, dtype=np.uint8)
    bits = np.zeros((n + 7) // 8, dtype=np.uint8)
    w = 0
    for r in range(n):
        if lo[r] >= 0:
            bits[r >> 3] |= np.uint8(1 << (r & 7))
            a = begin[r] + lo[r]
            for k in range(hi[r] - lo[r]):
                out[w + k] = data[a + k]
            w += hi[r] - lo[r]
    return offsets, out, bits, nulls
