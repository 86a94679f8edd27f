"""The Winamax compiled pass (numba, cached): a file's flop-game hands read straight from its
bytes into event rows, check for check as the Python fast path (`winamax._fast_hand`) reads
them.

`headers` reads each hand's first line (`Winamax Poker - KIND - HandId: #ID - GAME STRUCTURE
(STAKES) - yyyy/m/d h:mm:ss ZONE`: the spans of the kind, the id, the game-to-stakes text and
the zone, the clock as microseconds of wall time) and its table line (`Table[:] 'NAME' N-max
(real|play) money) Seat #B is the button`). What the kind, game, stakes, zone and money say is
read once per text in Python by the fast path's own `_fast_head`. `hands` reads every hand
whose header was read, line by line: the seat lines (`Seat N: NAME (STACK[€][, X bounty])`),
`Dealt to`, posts (small and big blind, ante, straddle, `out of position`), folds, checks,
calls, bets, raises (among the blinds: the blinds posted as a raise, as `_Hand._post_both`
reads them), shows, mucks, collections, the plain streets
(`*** PRE-FLOP ***`, `*** FLOP *** [..]`, ...), `*** SHOW DOWN ***` and the summary (`Total pot
X | Rake Y` / `| No rake`, the seat lines' `won X`, `Board: [..]`). A hand holding anything
else (a note, a chat line, an amount written otherwise than plainly -- `-6`, `1.325k`, a
space before the euro sign --, cards written otherwise than `Ah Kd`, a line with a leading
space or a Unicode space, pot parts in the total, ...) is not read (`ok` False): the Python
fast path and the line parser read it.

Row columns (`ROW_FIELDS`): hand (index), kind (`KINDS`), seat (-1: null), player and cards
spans (lo -1: null), amount and total (`NULL`: null), detail (`DETAILS`, -1 null), its number
(`NULL`: none: `side-N`, `total_pot=N`), its half (-1 none, `HALVES`), line (1-based), note
(-1 none, `N_ALL_IN`, `N_HEAD`: the header's note, `N_RAISE_POST` / `N_RAISE_DEAD`: the
blinds posted as a raise). Per hand (`HAND_FIELDS`): the ante, small
blind and straddle as the hand leaves them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.ggpoker_kernel import _days
from audit.importers.pokerstars.kernel import _at, _b, _cards, _digit, _find, _is
from audit.importers.textkernel import plain_amount, prefix_index, same

NULL = np.iinfo(np.int64).min
MAX_SEATS = 16
MAX_MONEY = 64
MAX_WON = 32

ROW_FIELDS = ("hand", "kind", "seat", "player_lo", "player_hi", "amount", "total", "cards_lo",
              "cards_hi", "detail", "number", "half", "line", "note")
HEAD_FIELDS = ("id_lo", "id_hi", "kind_lo", "kind_hi", "game_lo", "game_hi", "zone_lo",
               "zone_hi", "clock", "table_lo", "table_hi", "seat_count", "play", "button")
HAND_FIELDS = ("ante", "small_blind", "straddle", "total_pot")
KINDS = ("hand_started", "seat", "post", "fold", "check", "call", "bet", "raise", "deal",
         "show", "muck", "award", "rake", "hand_ended")
(K_STARTED, K_SEAT, K_POST, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_DEAL, K_SHOW, K_MUCK,
 K_AWARD, K_RAKE, K_ENDED) = range(len(KINDS))
DETAILS = ("sitting_out", "small_blind", "big_blind", "new_player", "dead", "ante", "straddle",
           "all_in", "hole", "board", "main", "uncalled", "rake", "side-", "total_pot=")
(D_SITTING_OUT, D_SB, D_BB, D_NEW_PLAYER, D_DEAD, D_ANTE, D_STRADDLE, D_ALL_IN, D_HOLE,
 D_BOARD, D_MAIN, D_UNCALLED, D_RAKE, D_SIDE, D_TOTAL) = range(len(DETAILS))
HALVES = ("/high", "/low")
N_ALL_IN, N_HEAD, N_RAISE_POST, N_RAISE_DEAD = 0, 1, 2, 3

_HEAD = _b("Winamax Poker - ")
_HAND_ID = _b(" - HandId: #")
_DASH = _b(" - ")
_COLON = _b(": ")
_TABLE, _TABLE_COLON = _b("Table '"), _b("Table: '")
_IS_BUTTON, _SEAT_NO, _MAX = _b(" is the button"), _b(" Seat #"), _b("-max (")
_REAL, _PLAY = _b("real money)"), _b("play money)")
_SEAT = _b("Seat ")
_BOUNTY = _b(" bounty)")
_EURO = _b("\u20ac")
_DEALT_TO = _b("Dealt to ")
_SUMMARY, _BLINDS = _b("*** SUMMARY ***"), _b("*** ANTE/BLINDS ***")
_PRE_FLOP, _SHOW_DOWN = _b("*** PRE-FLOP ***"), _b("*** SHOW DOWN ***")
_FLOP, _TURN, _RIVER = _b("*** FLOP ***"), _b("*** TURN ***"), _b("*** RIVER ***")
_P_SB, _P_BB = _b("posts small blind "), _b("posts big blind ")
_P_ANTE, _P_STRADDLE = _b("posts ante "), _b("posts straddle ")
_POSTS, _POST_DETAILS = (_P_SB, _P_BB, _P_ANTE, _P_STRADDLE), (D_SB, D_BB, D_ANTE, D_STRADDLE)
_OOP, _ALL_IN = _b(" out of position"), _b(" and is all-in")
_FOLDS, _CHECKS = _b("folds"), _b("checks")
_CALLS, _BETS, _RAISES, _TO = _b("calls "), _b("bets "), _b("raises "), _b(" to ")
_SHOWS = _b("shows [")
_MUCKS, _DOESNT = _b("mucks"), _b("doesn't show")
_HAND_WORD, _CARDS_WORD = _b(" hand"), _b(" cards")
_COLLECTED, _FROM = _b("collected "), _b(" from ")
_POT, _MAIN_POT, _SIDE_POT = _b("pot"), _b("main pot"), _b("side pot")
_TOTAL_POT, _RAKE, _NO_RAKE = _b("Total pot "), _b(" | Rake "), _b(" | No rake")
_WON = _b(" won ")
_BOARD = _b("Board: [")
_HI, _LO, _HIGH, _LOW = _b("HI"), _b("LO"), _b("high"), _b("low")
_HI_L, _LO_L = _b("hi"), _b("lo")


@njit(cache=True, nogil=True)
def header_lines(data, begin, hi, out):
    """Fill out[i]: whether line i starts a hand (`winamax._HEADER_LINE`, the line as read)."""
    for i in range(len(begin)):
        out[i] = _at(data, begin[i], hi[i], _HEAD)


@njit(cache=True, nogil=True)
def _space_at(data, p, end):
    """A Unicode space `str.strip()` removes starts at data[p:end] (U+0085, U+00A0, U+1680,
    U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000)."""
    if p + 1 < end and data[p] == 0xC2:
        return data[p + 1] == 0x85 or data[p + 1] == 0xA0
    if p + 2 >= end:
        return False
    a, b, c = data[p], data[p + 1], data[p + 2]
    if a == 0xE1:
        return b == 0x9A and c == 0x80
    if a == 0xE2 and b == 0x80:
        return c <= 0x8A or c == 0xA8 or c == 0xA9 or c == 0xAF
    if a == 0xE2 and b == 0x81:
        return c == 0x9F
    return a == 0xE3 and b == 0x80 and c == 0x80


@njit(cache=True, nogil=True)
def _space_before(data, p, end):
    """A Unicode space ends data[p:end] (the line's end, as `str.rstrip()` sees it)."""
    return (end - 2 >= p and _space_at(data, end - 2, end)) or \
        (end - 3 >= p and _space_at(data, end - 3, end))


@njit(cache=True, nogil=True)
def _run(data, p, end):
    """The end of the run of ASCII digits at data[p:end]."""
    while p < end and _digit(data[p]):
        p += 1
    return p


@njit(cache=True, nogil=True)
def _number(data, p, q):
    x = 0
    for k in range(p, q):
        x = x * 10 + data[k] - 48
    return x


@njit(cache=True, nogil=True)
def _back(data, q, lo):
    """The start of the run of ASCII digits ending at q (not before lo)."""
    p = q
    while p > lo and _digit(data[p - 1]):
        p -= 1
    return p


@njit(cache=True, nogil=True)
def _clock(data, a, e, out, h):
    """The header's end ` - yyyy/m/d h:mm:ss ZONE` read from the end of data[a:e] into
    out[6:9, h] (zone span, wall clock in microseconds); the start of ` - ` before the date,
    or -1."""
    z = e
    while z > a and (65 <= data[z - 1] <= 90 or 97 <= data[z - 1] <= 122):
        z -= 1
    if z == e or z - 1 <= a or data[z - 1] != 32:
        return -1
    q = z - 1  # after the seconds
    if q - 6 <= a or data[q - 3] != 58 or data[q - 6] != 58:
        return -1
    for k in (q - 1, q - 2, q - 4, q - 5):
        if not _digit(data[k]):
            return -1
    ss = _number(data, q - 2, q)
    mi = _number(data, q - 5, q - 3)
    p = _back(data, q - 6, a)
    if not 1 <= q - 6 - p <= 2 or p - 1 <= a or data[p - 1] != 32:
        return -1
    hh = _number(data, p, q - 6)
    q = p - 1
    p = _back(data, q, a)
    if not 1 <= q - p <= 2 or p - 1 <= a or data[p - 1] != 47:
        return -1
    d = _number(data, p, q)
    q = p - 1
    p = _back(data, q, a)
    if not 1 <= q - p <= 2 or p - 1 <= a or data[p - 1] != 47:
        return -1
    mo = _number(data, p, q)
    q = p - 1
    p = _back(data, q, a)
    if q - p != 4 or p - 3 < a or not _at(data, p - 3, e, _DASH):
        return -1
    y = _number(data, p, q)
    if y < 1900 or y > 9000 or not 1 <= mo <= 12 or d < 1 or hh > 23 or mi > 59 or ss > 59:
        return -1
    month = _days(y, mo, 1)
    if d > (_days(y + 1, 1, 1) if mo == 12 else _days(y, mo + 1, 1)) - month:
        return -1
    out[6, h] = z
    out[7, h] = e
    out[8, h] = ((((month + d - 1) * 24 + hh) * 60 + mi) * 60 + ss) * 1000000
    return p - 3


@njit(cache=True, nogil=True)
def _table(data, a, e, out, h):
    """`Table[:] 'NAME' N-max (real|play) money) Seat #B is the button` at data[a:e] into
    out[9:14, h]; whether it was read."""
    if _at(data, a, e, _TABLE_COLON):
        name = a + len(_TABLE_COLON)
    elif _at(data, a, e, _TABLE):
        name = a + len(_TABLE)
    else:
        return False
    q = e - len(_IS_BUTTON)
    if q <= name or not _is(data, q, e, _IS_BUTTON):
        return False
    p = _back(data, q, name)
    if not 1 <= q - p <= 3:
        return False
    button = _number(data, p, q)
    q = p - len(_SEAT_NO)
    if q < name or not _at(data, q, e, _SEAT_NO):
        return False
    if q - len(_REAL) >= name and _at(data, q - len(_REAL), e, _REAL):
        play = 0
    elif q - len(_PLAY) >= name and _at(data, q - len(_PLAY), e, _PLAY):
        play = 1
    else:
        return False
    q -= len(_REAL) + len(_MAX)
    if q < name or not _at(data, q, e, _MAX):
        return False
    p = _back(data, q, name)
    if not 1 <= q - p <= 3 or p - 2 < name or data[p - 1] != 32 or data[p - 2] != 39:
        return False
    seats = _number(data, p, q)
    if not 1 <= button <= 127 or seats > 127:
        return False
    out[9, h] = name
    out[10, h] = p - 2
    out[11, h] = seats
    out[12, h] = play
    out[13, h] = button
    return True


@njit(cache=True, nogil=True)
def headers(data, begin, lo, hi, first, last, out, table, ok):
    """Fill, of each hand (lines first[h]:last[h]), out[:, h] (`HEAD_FIELDS`), table[h] (its
    table line) and ok[h]: the header and table line read plainly (see the module's
    docstring)."""
    for h in range(len(first)):
        ok[h] = False
        i = first[h]
        a, e = begin[i], hi[i]
        p = a + len(_HEAD)
        c = _find(data, p, e, _HAND_ID)
        if c < 0:
            continue
        out[2, h] = p
        out[3, h] = c
        p = c + len(_HAND_ID)
        if p >= e or not _digit(data[p]):
            continue
        q = p
        while q < e and (_digit(data[q]) or data[q] == 45):
            q += 1
        if not _at(data, q, e, _DASH):
            continue
        out[0, h] = p
        out[1, h] = q
        g = q + len(_DASH)
        d = _clock(data, g, e, out, h)
        if d <= g or data[d - 1] != 41:
            continue
        out[4, h] = g
        out[5, h] = d
        t = i + 1
        while t < last[h] and lo[t] == hi[t]:
            t += 1
        if t == last[h] or lo[t] != begin[t] or not _table(data, lo[t], hi[t], out, h):
            continue
        table[h] = t
        ok[h] = True


@njit(cache=True, nogil=True)
def _money(data, p, end, mpu):
    """An amount as the reader's `_AMT` and `_amount` read it, written plainly: ASCII digits
    (`textkernel.plain_amount`, no sign), an optional `k` (thousands: `1.32k`, at most two
    decimals) and an optional euro sign right after: (position after it or -1, minor
    units)."""
    if p >= end or not _digit(data[p]):
        return -1, 0
    q = p
    while q < end and (_digit(data[q]) or data[q] == 44 or data[q] == 46):
        q += 1
    if data[q - 1] == 44:  # `1,000, 5€ bounty`: the comma is not the amount's
        q -= 1
    if q < end and data[q] == 107:  # `1.32k`: thousands
        r, value = plain_amount(data, p, q, 100)
        if r != q or value >= 10 ** 13:
            return -1, 0
        value *= 10 * mpu
        q += 1
    else:
        r, value = plain_amount(data, p, q, mpu)
        if r != q:
            return -1, 0
    if _at(data, q, end, _EURO):
        q += len(_EURO)
    return q, value


@njit(cache=True, nogil=True)
def _groups(data, p, end):
    """`(?:\\[[^\\]]*\\] ?)+$` at data[p:end]: the start of the last group's text, or -1."""
    if p >= end or data[p] != 91:
        return -1
    while True:
        start = p + 1
        q = start
        while q < end and data[q] != 93:
            q += 1
        if q >= end:
            return -1
        q += 1
        if q == end:
            return start
        if data[q] == 32:
            q += 1
        if q >= end or data[q] != 91:
            return -1
        p = q


@njit(cache=True, nogil=True)
def _plain_cards(data, p, end):
    """`C( C)*` running exactly to `end`."""
    return _cards(data, p, end) == end


@njit(cache=True, nogil=True)
def _seated(data, a, e, name_lo, name_hi, n):
    """The seat index of the longest seated name data[a:e] starts with, followed by its end,
    a space or a colon (`fasttext.split_seated`), or -1."""
    best = -1
    size = -1
    for k in range(n):
        w = name_hi[k] - name_lo[k]
        if w > size and a + w <= e and same(data, name_lo[k], name_hi[k], a, a + w) and \
                (a + w == e or data[a + w] == 32 or data[a + w] == 58):
            best = k
            size = w
    return best


@njit(cache=True, nogil=True)
def _dealt(data, a, e, name_lo, name_hi, n):
    """`Dealt to NAME [C C ..]` (`winamax._DEALT`, its name the shortest that is followed by
    bracket groups) at data[a:e]: (seat index or -1 when not a seated name so dealt, the
    cards' start, their end)."""
    p = a + len(_DEALT_TO)
    for s in range(p + 1, e):
        if data[s] == 32 and _groups(data, s + 1, e) >= 0:
            k = -1
            for j in range(n):
                if same(data, name_lo[j], name_hi[j], p, s):
                    k = j
            if k < 0 or data[e - 1] != 93 or not _plain_cards(data, s + 2, e - 1):
                return -1, 0, 0
            return k, s + 2, e - 1
    return -1, 0, 0


@njit(cache=True, nogil=True)
def hands(data, lo, hi, odd, begin, first, last, table, use, params, unknown_at, rows, per,
          ok, row0):
    """Read each hand (lines first[h]:last[h], its table line table[h]; `use[h]`: its header
    was read; params[:, h]: mpu, fixed limit, hole cards, low stake, stakes ante, big blind) into
    rows[:, r] (`ROW_FIELDS`) and per[:, h] (`HAND_FIELDS`), ok[h] and row0; the number of
    rows."""
    n_hands = len(first)
    name_lo = np.empty(MAX_SEATS, np.int64)
    name_hi = np.empty(MAX_SEATS, np.int64)
    seat_no = np.empty(MAX_SEATS, np.int64)
    seat_row = np.empty(MAX_SEATS, np.int64)
    left = np.empty(MAX_SEATS, np.int64)
    rnd = np.empty(MAX_SEATS, np.int64)
    when = np.empty(MAX_SEATS, np.int64)
    last_rnd = np.empty(MAX_SEATS, np.int64)
    last_when = np.empty(MAX_SEATS, np.int64)
    named = np.empty(MAX_SEATS, np.bool_)
    shown = np.empty(MAX_SEATS, np.bool_)
    known_lo = np.empty(MAX_SEATS, np.int64)
    known_hi = np.empty(MAX_SEATS, np.int64)
    known_line = np.empty(MAX_SEATS, np.int64)
    money = np.empty((7, MAX_MONEY), np.int64)
    won = np.empty((3, MAX_WON), np.int64)
    pend = np.empty((3, MAX_SEATS), np.int64)
    r = 0
    for h in range(n_hands):
        row0[h] = r
        ok[h] = False
        if not use[h]:
            continue
        good = _hand(data, lo, hi, odd, begin, first[h], last[h], table[h], params[:, h],
                     unknown_at, rows, r, h, per, name_lo, name_hi, seat_no, seat_row, left,
                     rnd, when, last_rnd, last_when, named, shown, known_lo, known_hi,
                     known_line, money, won, pend)
        if good > r:
            ok[h] = True
            r = good
    row0[n_hands] = r
    return r


@njit(cache=True, nogil=True)
def _row(rows, r, h, kind, seat, plo, phi, amount, total, clo, chi, detail, line, note):
    rows[0, r] = h
    rows[1, r] = kind
    rows[2, r] = seat
    rows[3, r] = plo
    rows[4, r] = phi
    rows[5, r] = amount
    rows[6, r] = total
    rows[7, r] = clo
    rows[8, r] = chi
    rows[9, r] = detail
    rows[10, r] = NULL
    rows[11, r] = -1
    rows[12, r] = line
    rows[13, r] = note
    return r + 1


@njit(cache=True, nogil=True)
def _hand(data, lo, hi, odd, begin, i0, i1, tl, params, unknown_at, rows, r, h, per, name_lo,
          name_hi, seat_no, seat_row, left, rnd, when, last_rnd, last_when, named, shown,
          known_lo, known_hi, known_line, money, won, pend):
    """One hand's rows from row r on: the row count after them, or -1 (not read here)."""
    mpu, fixed, holes, low, ante, bb = (params[0], params[1], params[2], params[3],
                                        params[4], params[5])
    for i in range(i0, i1):
        if odd[i] and (_space_at(data, lo[i], hi[i]) or _space_before(data, lo[i], hi[i])):
            return -1
        if lo[i] < hi[i] and lo[i] != begin[i]:
            return -1
    if rows.shape[1] - r < 2 * (i1 - i0) + MAX_SEATS + 8:
        return -1
    start = r
    r = _row(rows, r, h, K_STARTED, -1, -1, -1, NULL, NULL, -1, -1, -1, i0 + 1, N_HEAD)
    # the seat lines
    n = 0
    i = tl + 1
    while i < i1:
        a, e = lo[i], hi[i]
        if a == e:
            i += 1
            continue
        if not _at(data, a, e, _SEAT):
            break
        p = a + len(_SEAT)
        q = _run(data, p, e)
        if not 1 <= q - p <= 3 or not _at(data, q, e, _COLON) or q + 2 >= e:
            return -1
        s = _number(data, p, q)
        nl = q + 2
        stack = -1
        c = nl + 1
        while c + 2 < e:
            if data[c] == 32 and data[c + 1] == 40:
                x = data[c + 2]
                if _digit(x) or x == 45:
                    t, stack = _money(data, c + 2, e, mpu)
                    if t < 0:
                        return -1
                    if t + 1 == e and data[t] == 41:
                        break
                    if t + 2 < e and data[t] == 44 and data[t + 1] == 32 and \
                            e - len(_BOUNTY) >= t + 2 and _is(data, e - len(_BOUNTY), e,
                                                               _BOUNTY):
                        for k in range(t + 2, e - len(_BOUNTY)):
                            if data[k] == 40 or data[k] == 41:
                                return -1
                        break
                    return -1
            c += 1
        if c + 2 >= e or not 1 <= s <= 127 or n >= MAX_SEATS:
            return -1
        for k in range(n):
            if seat_no[k] == s or same(data, name_lo[k], name_hi[k], nl, c):
                return -1
        name_lo[n] = nl
        name_hi[n] = c
        seat_no[n] = s
        seat_row[n] = r
        left[n] = stack
        rnd[n] = 0
        when[n] = -1
        last_when[n] = -1
        named[n] = False
        shown[n] = False
        known_lo[n] = -1
        r = _row(rows, r, h, K_SEAT, s, nl, c, stack, NULL, -1, -1, -1, i + 1, -1)
        n += 1
        i += 1
    if n == 0:
        return -1
    body = i
    # who the hand names before the summary, and the hole cards dealt to whom
    for i in range(body, i1):
        a, e = lo[i], hi[i]
        if a == e:
            continue
        if _is(data, a, e, _SUMMARY):
            break
        if _at(data, a, e, _DEALT_TO):
            k, clo, chi = _dealt(data, a, e, name_lo, name_hi, n)
            if k < 0:
                return -1
            named[k] = True
            if known_lo[k] < 0:
                known_lo[k] = clo
                known_hi[k] = chi
                known_line[k] = i + 1
            continue
        k = _seated(data, a, e, name_lo, name_hi, n)
        if k >= 0:
            named[k] = True
    for k in range(n):
        if not named[k]:
            rows[9, seat_row[k]] = D_SITTING_OUT
    section = 0  # pre, play, showdown, summary
    dealt = False
    n_money = 0
    total_pot = NULL
    rake = 0
    collected = False
    n_won = 0
    last = i0 + 1
    clock = 0  # the order players enter a round
    first_sb = NULL
    straddle = NULL
    n_pend = 0
    for i in range(body, i1):
        a, e = lo[i], hi[i]
        if a == e:
            continue
        last = i + 1
        if section == 3:
            if _at(data, a, e, _TOTAL_POT):
                if total_pot != NULL:
                    return -1
                p, total_pot = _money(data, a + len(_TOTAL_POT), e, mpu)
                if p < 0:
                    return -1
                if _is(data, p, e, _NO_RAKE):
                    continue
                if not _at(data, p, e, _RAKE):
                    return -1
                p, rake = _money(data, p + len(_RAKE), e, mpu)
                if p != e:
                    return -1
                if rake:
                    if n_money >= MAX_MONEY:
                        return -1
                    _put(money, n_money, K_RAKE, -1, rake, D_RAKE, NULL, -1, i + 1)
                    n_money += 1
                continue
            if _at(data, a, e, _SEAT):
                p = a + len(_SEAT)
                q = _run(data, p, e)
                if not 1 <= q - p <= 4 or not _at(data, q, e, _COLON):
                    return -1
                s = _number(data, p, q)
                k = -1
                for j in range(n):
                    if seat_no[j] == s:
                        k = j
                if k < 0:
                    continue
                w = _find(data, q, e, _WON)
                while w >= 0:
                    x = w + len(_WON)
                    if x < e and (_digit(data[x]) or data[x] == 45):
                        t, value = _money(data, x, e, mpu)
                        if t < 0 or (t < e and data[t] != 32):
                            return -1
                        if n_won >= MAX_WON:
                            return -1
                        won[0, n_won] = k
                        won[1, n_won] = value
                        won[2, n_won] = i + 1
                        n_won += 1
                        break
                    w = _find(data, w + 1, e, _WON)
                continue
            if _at(data, a, e, _BOARD):
                continue
            return -1
        if data[a] == 42:  # *
            if _is(data, a, e, _SUMMARY):
                section = 3
                continue
            if _is(data, a, e, _BLINDS):
                continue
            street = _is(data, a, e, _PRE_FLOP) or _is(data, a, e, _SHOW_DOWN)
            board = -1
            if not street:
                if _at(data, a, e, _FLOP):
                    p = a + len(_FLOP)
                elif _at(data, a, e, _TURN):
                    p = a + len(_TURN)
                elif _at(data, a, e, _RIVER):
                    p = a + len(_RIVER)
                else:
                    return -1
                if p < e and data[p] == 58:
                    p += 1
                if p >= e or data[p] != 32:
                    return -1
                board = _groups(data, p + 1, e)
                if board < 0 or data[e - 1] != 93 or not _plain_cards(data, board, e - 1):
                    return -1
            flush = data[a + 4] == 80 and board < 0  # PRE-FLOP
            r, clock = _start(rows, r, h, i + 1, flush, dealt, pend, n_pend if flush else 0,
                              bb, n, seat_no, named, name_lo, name_hi, left, rnd, when, clock,
                              known_lo, known_hi, known_line, unknown_at, holes)
            if r < 0:
                return -1
            n_pend = 0 if flush else n_pend
            dealt = True
            if board >= 0:
                if clock:  # the round's totals kept for the uncalled bet
                    for k in range(n):
                        last_rnd[k] = rnd[k]
                        last_when[k] = when[k]
                        rnd[k] = 0
                        when[k] = -1
                    clock = 0
                r = _row(rows, r, h, K_DEAL, -1, -1, -1, NULL, NULL, board, e - 1, D_BOARD,
                         i + 1, -1)
                section = 1
            else:
                section = 1 if data[a + 4] == 80 else 2  # PRE-FLOP / SHOW DOWN
            continue
        if _at(data, a, e, _DEALT_TO):
            continue  # a seated player's cards (read above)
        k = _seated(data, a, e, name_lo, name_hi, n)
        if k < 0:
            return -1
        p = a + name_hi[k] - name_lo[k]
        while p < e and data[p] == 32:
            p += 1
        s = seat_no[k]
        # posts
        verb = -1
        j = prefix_index(data, p, e, _POSTS)
        if j >= 0:
            verb, q = _POST_DETAILS[j], p + len(_POSTS[j])
        if verb >= 0:
            q, amt = _money(data, q, e, mpu)
            if q < 0:
                return -1
            oop = _at(data, q, e, _OOP)
            if oop:
                q += len(_OOP)
            all_in = _is(data, q, e, _ALL_IN)
            if q != e and not all_in:
                return -1
            live = True
            detail = verb
            if verb == D_SB and n_pend:
                j = -1
                for w in range(n_pend):
                    if pend[0, w] == k:
                        j = w
                if j >= 0:  # the small blind of a player who posted as a raise
                    if all_in:
                        return -1
                    r, clock = _post_both(rows, r, h, pend, n_pend, j, amt, bb, seat_no,
                                          name_lo, name_hi, left, rnd, when, clock)
                    for w in range(j, n_pend - 1):
                        pend[:, w] = pend[:, w + 1]
                    n_pend -= 1
                    continue
            if verb == D_SB:
                if oop:
                    detail = D_DEAD
                    live = False
                elif first_sb == NULL:
                    first_sb = amt
            elif verb == D_BB:
                if oop:
                    detail = D_NEW_PLAYER
            elif verb == D_ANTE:
                live = False
                if ante == 0:
                    ante = amt
            else:
                straddle = amt
            left[k] -= amt
            total = NULL
            if live:
                if when[k] < 0:
                    when[k] = clock
                    clock += 1
                total = rnd[k] + amt
                rnd[k] = total
            r = _row(rows, r, h, K_POST, s, name_lo[k], name_hi[k], amt, total, -1, -1,
                     detail, i + 1, N_ALL_IN if all_in else -1)
            continue
        # actions
        kind = -1
        x = 0
        all_in = False
        if _is(data, p, e, _FOLDS):
            kind = K_FOLD
        elif _is(data, p, e, _CHECKS):
            kind = K_CHECK
        elif _at(data, p, e, _CALLS) or _at(data, p, e, _BETS):
            kind = K_CALL if data[p] == 99 else K_BET
            q, x = _money(data, p + (len(_CALLS) if kind == K_CALL else len(_BETS)), e, mpu)
            if q < 0:
                return -1
            all_in = _is(data, q, e, _ALL_IN)
            if q != e and not all_in:
                return -1
        elif _at(data, p, e, _RAISES):
            kind = K_RAISE
            q, _ = _money(data, p + len(_RAISES), e, mpu)
            if q < 0 or not _at(data, q, e, _TO):
                return -1
            q, x = _money(data, q + len(_TO), e, mpu)
            if q < 0:
                return -1
            all_in = _is(data, q, e, _ALL_IN)
            if q != e and not all_in:
                return -1
            if section == 0:  # blinds posted as a raise (`_Hand._post_both`): kept
                at = n_pend
                for j in range(n_pend):
                    if pend[0, j] == k:
                        at = j
                if at == n_pend:
                    n_pend += 1
                pend[0, at] = k
                pend[1, at] = i + 1
                pend[2, at] = x
                continue
        if kind >= 0:
            r, clock = _start(rows, r, h, i + 1, True, dealt, pend, n_pend, bb, n, seat_no,
                              named, name_lo, name_hi, left, rnd, when, clock, known_lo,
                              known_hi, known_line, unknown_at, holes)
            if r < 0:
                return -1
            n_pend = 0
            dealt = True
            if kind == K_FOLD or kind == K_CHECK:
                r = _row(rows, r, h, kind, s, name_lo[k], name_hi[k], NULL, NULL, -1, -1, -1,
                         i + 1, -1)
                continue
            before = rnd[k]
            added = x - before if kind == K_RAISE else x
            if added < 0:
                return -1
            stack = left[k]
            left[k] = stack - added
            if when[k] < 0:
                when[k] = clock
                clock += 1
            rnd[k] = before + added
            r = _row(rows, r, h, kind, s, name_lo[k], name_hi[k], added, before + added, -1,
                     -1, D_ALL_IN if all_in or (added > 0 and added == stack) else -1, i + 1,
                     -1)
            continue
        if _at(data, p, e, _SHOWS):
            q = p + len(_SHOWS)
            c = q
            while c < e and data[c] != 93:
                c += 1
            if c >= e or not _plain_cards(data, q, c) or not (
                    c + 1 == e or (c + 3 < e and data[c + 1] == 32 and data[c + 2] == 40 and
                                   data[e - 1] == 41)):
                return -1
            if not shown[k]:
                shown[k] = True
                r = _row(rows, r, h, K_SHOW, s, name_lo[k], name_hi[k], NULL, NULL, q, c, -1,
                         i + 1, -1)
            continue
        if _at(data, p, e, _MUCKS) or _at(data, p, e, _DOESNT):
            q = p + (len(_MUCKS) if data[p] == 109 else len(_DOESNT))
            if _at(data, q, e, _HAND_WORD):
                q += len(_HAND_WORD)
            elif _at(data, q, e, _CARDS_WORD):
                q += len(_CARDS_WORD)
            clo, chi = -1, -1
            if q < e:
                if e - q < 4 or data[q] != 32 or data[q + 1] != 91 or data[e - 1] != 93 or \
                        not _plain_cards(data, q + 2, e - 1):
                    return -1
                clo, chi = q + 2, e - 1
            elif dealt and named[k] and known_lo[k] >= 0:
                clo, chi = known_lo[k], known_hi[k]
            r = _row(rows, r, h, K_MUCK, s, name_lo[k], name_hi[k], NULL, NULL, clo, chi, -1,
                     i + 1, -1)
            continue
        if _at(data, p, e, _COLLECTED):
            q, amt = _money(data, p + len(_COLLECTED), e, mpu)
            if q < 0 or not _at(data, q, e, _FROM):
                return -1
            q += len(_FROM)
            side = 0
            if _at(data, q, e, _MAIN_POT):
                q += len(_MAIN_POT)
            elif _at(data, q, e, _SIDE_POT):
                q += len(_SIDE_POT)
                side = 1
                if q < e and data[q] == 32 and q + 1 < e and _digit(data[q + 1]):
                    t = _run(data, q + 1, e)
                    if data[q + 1] == 48 or t - q - 1 > 6:
                        return -1
                    side = _number(data, q + 1, t)
                    q = t
            elif _at(data, q, e, _POT):
                q += len(_POT)
            else:
                return -1
            half = -1
            if q < e:
                if e - q < 4 or data[q] != 32 or data[q + 1] != 40 or data[e - 1] != 41:
                    return -1
                w0, w1 = q + 2, e - 1
                if _is(data, w0, w1, _HI) or _is(data, w0, w1, _HI_L) or \
                        _is(data, w0, w1, _HIGH):
                    half = 0
                elif _is(data, w0, w1, _LO) or _is(data, w0, w1, _LO_L) or \
                        _is(data, w0, w1, _LOW):
                    half = 1
                else:
                    return -1
            if n_money >= MAX_MONEY - MAX_WON - 2:
                return -1
            _put(money, n_money, K_AWARD, k, amt, D_SIDE if side else D_MAIN,
                 side if side else NULL, half, i + 1)
            n_money += 1
            collected = True
            continue
        return -1
    if section != 3 or total_pot == NULL:
        return -1
    if not collected:  # the summary's winners
        for w in range(n_won):
            _put(money, n_money, K_AWARD, won[0, w], won[1, w], D_MAIN, NULL, -1, won[2, w])
            n_money += 1
    # the uncalled bet: the top contributor's excess over the next (last round with money)
    if clock == 0:
        for k in range(n):
            rnd[k] = last_rnd[k]
            when[k] = last_when[k]
    top = -1
    for k in range(n):
        if when[k] >= 0 and (top < 0 or rnd[k] > rnd[top] or
                             (rnd[k] == rnd[top] and when[k] < when[top])):
            top = k
    refund = 0
    if top >= 0:
        second = 0
        for k in range(n):
            if k != top and when[k] >= 0 and rnd[k] > second:
                second = rnd[k]
        refund = rnd[top] - second
        if refund > 0:
            held = 0
            for w in range(n_money):
                if money[0, w] == K_AWARD and money[1, w] == top:
                    held += money[2, w]
            if held < refund:
                return -1
            owed = refund
            for w in range(n_money):
                if money[0, w] == K_AWARD and money[1, w] == top:
                    take = min(owed, money[2, w])
                    money[2, w] -= take
                    owed -= take
            _put(money, n_money, K_AWARD, top, refund, D_UNCALLED, NULL, -1, last)
            n_money += 1
            for w in range(n_money):  # an award emptied by the refund is not kept
                if money[0, w] == K_AWARD and money[2, w] == 0:
                    money[5, w] = -2
        else:
            refund = 0
    # the money last: pot by pot in the order the pots first appear, the rake after
    for _pot in range(n_money + 1):
        number = -1
        for w in range(n_money):
            if money[0, w] == K_AWARD and money[5, w] != -2:
                number = 0 if money[3, w] != D_SIDE else money[4, w]
                break
        if number < 0:
            break
        for w in range(n_money):
            if money[0, w] != K_AWARD or money[5, w] == -2:
                continue
            if (0 if money[3, w] != D_SIDE else money[4, w]) != number:
                continue
            half = money[5, w]
            money[5, w] = -2  # written
            k = money[1, w]
            r = _row(rows, r, h, K_AWARD, seat_no[k], name_lo[k], name_hi[k], money[2, w],
                     NULL, -1, -1, money[3, w], money[6, w], -1)
            rows[10, r - 1] = money[4, w]
            rows[11, r - 1] = half
    for w in range(n_money):
        if money[0, w] == K_RAKE:
            r = _row(rows, r, h, K_RAKE, -1, -1, -1, money[2, w], NULL, -1, -1, D_RAKE,
                     money[6, w], -1)
    if fixed:
        per[1, h] = first_sb if first_sb != NULL else low // 2
    else:
        per[1, h] = low
    r = _row(rows, r, h, K_ENDED, -1, -1, -1, NULL, NULL, -1, -1, D_TOTAL, last, -1)
    rows[10, r - 1] = total_pot + rake - refund
    per[0, h] = ante
    per[2, h] = straddle
    per[3, h] = total_pot + rake - refund
    if r <= start:
        return -1
    return r


@njit(cache=True, nogil=True)
def _start(rows, r, h, line, flush, dealt, pend, n_pend, bb, n, seat_no, named, name_lo,
           name_hi, left, rnd, when, clock, known_lo, known_hi, known_line, unknown_at, holes):
    """Before an action or a street: the blinds posted as a raise (`flush`: the n_pend
    pending, `_post_both`), then the hole cards unless `dealt` (`_deal`): (row count or -1,
    the round's clock)."""
    if flush:
        r, clock = _post_both(rows, r, h, pend, n_pend, -1, 0, bb, seat_no, name_lo, name_hi,
                              left, rnd, when, clock)
    if not dealt:
        r = _deal(rows, r, h, line, n, seat_no, named, name_lo, name_hi, known_lo, known_hi,
                  known_line, unknown_at, holes)
    return r, clock


@njit(cache=True, nogil=True)
def _post_both(rows, r, h, pend, n_pend, only, small, bb, seat_no, name_lo, name_hi, left,
               rnd, when, clock):
    """`_Hand._post_both`: the posts of the players who posted the blinds as `raises x to y`
    (pend[:, j]: seat index, line, y; all of them, or only pend[:, only] with its small blind
    `small`): a live post (new_player) of the table's big blind when a small blind follows
    and y + small is more, of y + small otherwise, the rest dead: (row count, the
    round's clock) after them."""
    for j in range(n_pend):
        if only >= 0 and j != only:
            continue
        k, line = pend[0, j], pend[1, j]
        total = pend[2, j] + small
        live = bb if small and 0 < bb < total else total
        left[k] -= live
        if when[k] < 0:
            when[k] = clock
            clock += 1
        rnd[k] += live
        r = _row(rows, r, h, K_POST, seat_no[k], name_lo[k], name_hi[k], live, rnd[k], -1,
                 -1, D_NEW_PLAYER, line, N_RAISE_POST)
        if total > live:
            left[k] -= total - live
            r = _row(rows, r, h, K_POST, seat_no[k], name_lo[k], name_hi[k], total - live,
                     NULL, -1, -1, D_DEAD, line, N_RAISE_DEAD)
    return r, clock


@njit(cache=True, nogil=True)
def _put(money, w, kind, k, amount, detail, number, half, line):
    """Money entry w: (kind, seat index, amount, detail, its number, half, line)."""
    money[0, w] = kind
    money[1, w] = k
    money[2, w] = amount
    money[3, w] = detail
    money[4, w] = number
    money[5, w] = half
    money[6, w] = line


@njit(cache=True, nogil=True)
def _deal(rows, r, h, line, n, seat_no, named, name_lo, name_hi, known_lo, known_hi,
          known_line, unknown_at, holes):
    """The hole cards of each seat dealt in, in seat order (`??` each when not known)."""
    done = 0
    prev = -1
    while done < n:
        k = -1
        for j in range(n):
            if seat_no[j] > prev and (k < 0 or seat_no[j] < seat_no[k]):
                k = j
        prev = seat_no[k]
        done += 1
        if not named[k]:
            continue
        if known_lo[k] >= 0:
            if (known_hi[k] - known_lo[k] + 1) != 3 * holes:
                return -1
            r = _row(rows, r, h, K_DEAL, seat_no[k], name_lo[k], name_hi[k], NULL, NULL,
                     known_lo[k], known_hi[k], D_HOLE, known_line[k], -1)
        else:
            r = _row(rows, r, h, K_DEAL, seat_no[k], name_lo[k], name_hi[k], NULL, NULL,
                     unknown_at, unknown_at + 3 * holes - 1, D_HOLE, line, -1)
    return r


# the constant texts a file's columns take (`winamax_compiled`): their index in c_lo/c_hi
C_DETAIL = len(KINDS)
C_HALF = C_DETAIL + len(DETAILS)
C_ALL_IN = C_HALF + len(HALVES)
C_WMX = C_ALL_IN + 1
C_UNKNOWN = C_WMX + 1
C_RAISE_POST = C_UNKNOWN + 1
C_RAISE_DEAD = C_RAISE_POST + 1
C_PREFIX = C_RAISE_DEAD + 1
CONSTANTS = (*KINDS, *DETAILS, *HALVES, ";all_in", "wmx:", "?? ?? ?? ?? ?? ??",
             ";post=written as `raises .. to ..` among the blinds",
             ";post=written as `raises .. to ..` and a small blind")
# the integer columns `columns` writes: int64, int32, int8 rows and their validity
I64 = ("ts", "amount", "total", "small_blind", "big_blind", "small_bet", "big_bet", "ante",
       "straddle", "minor_per_unit")
I32 = ("seq", "level")
I8 = ("seat", "button_seat", "seat_count", "tournament")
VALID = ("first", "seat", "amount", "total", "fixed", "straddle", "level")


@njit(cache=True, nogil=True)
def columns(rows, count, row0, head, per, key_of, keys, c_lo, c_hi, spec, i64, i32, i8,
            valid):
    """The columns of rows[:, :count]: spec[0:7, c, i] the (lo1, hi1, lo2, hi2, num, lo3,
    hi3) of string column c (`textkernel.text_sizes`: hand_id, table_id, kind, player,
    cards, detail, source, variant, structure, currency) and the integer columns (`I64`,
    `I32`, `I8`, `VALID`). keys[:, j]: of header text j, its note, variant, structure and
    currency spans, mpu, tournament, level (`NULL`: none), low and high stakes, fixed."""
    lo1, hi1, lo2, hi2, num, lo3, hi3 = (spec[0], spec[1], spec[2], spec[3], spec[4],
                                         spec[5], spec[6])
    for i in range(count):
        h = rows[0, i]
        j = key_of[h]
        first = i == row0[h]
        for c in range(10):
            lo1[c, i] = -1
            lo2[c, i] = -1
            num[c, i] = NULL
            lo3[c, i] = -1
            hi1[c, i] = 0
            hi2[c, i] = 0
            hi3[c, i] = 0
        lo1[0, i], hi1[0, i] = c_lo[C_WMX], c_hi[C_WMX]
        lo2[0, i], hi2[0, i] = head[0, h], head[1, h]
        lo1[1, i], hi1[1, i] = head[9, h], head[10, h]
        kind = rows[1, i]
        lo1[2, i], hi1[2, i] = c_lo[kind], c_hi[kind]
        lo1[3, i], hi1[3, i] = rows[3, i], rows[4, i]
        lo1[4, i], hi1[4, i] = rows[7, i], rows[8, i]
        d = rows[9, i]
        if d >= 0:
            lo1[5, i], hi1[5, i] = c_lo[C_DETAIL + d], c_hi[C_DETAIL + d]
            num[5, i] = rows[10, i]
            half = rows[11, i]
            if half >= 0:
                lo3[5, i], hi3[5, i] = c_lo[C_HALF + half], c_hi[C_HALF + half]
        lo1[6, i], hi1[6, i] = c_lo[C_PREFIX], c_hi[C_PREFIX]
        num[6, i] = rows[12, i]
        note = rows[13, i]
        if note == N_ALL_IN:
            lo3[6, i], hi3[6, i] = c_lo[C_ALL_IN], c_hi[C_ALL_IN]
        elif note == N_HEAD:
            lo3[6, i], hi3[6, i] = keys[0, j], keys[1, j]
        elif note == N_RAISE_POST:
            lo3[6, i], hi3[6, i] = c_lo[C_RAISE_POST], c_hi[C_RAISE_POST]
        elif note == N_RAISE_DEAD:
            lo3[6, i], hi3[6, i] = c_lo[C_RAISE_DEAD], c_hi[C_RAISE_DEAD]
        if first:
            for c in range(3):
                lo1[7 + c, i], hi1[7 + c, i] = keys[2 + 2 * c, j], keys[3 + 2 * c, j]
        seat = rows[2, i]
        fixed = keys[14, j] != 0
        i64[0, i] = head[8, h] + keys[15, j]
        i64[1, i] = rows[5, i]
        i64[2, i] = rows[6, i]
        i64[3, i] = per[1, h]
        i64[4, i] = keys[12, j] if fixed else keys[13, j]
        i64[5, i] = keys[12, j]
        i64[6, i] = keys[13, j]
        i64[7, i] = per[0, h]
        i64[8, i] = per[2, h]
        i64[9, i] = keys[8, j]
        i32[0, i] = i - row0[h]
        i32[1, i] = keys[10, j] if keys[10, j] != NULL else 0
        i8[0, i] = seat if seat >= 0 else 0
        i8[1, i] = head[13, h]
        i8[2, i] = head[11, h]
        i8[3, i] = keys[9, j]
        valid[0, i] = first
        valid[1, i] = seat >= 0
        valid[2, i] = rows[5, i] != NULL
        valid[3, i] = rows[6, i] != NULL
        valid[4, i] = first and fixed
        valid[5, i] = first and per[2, h] != NULL
        valid[6, i] = first and keys[10, j] != NULL
