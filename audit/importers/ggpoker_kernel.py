"""The GGPoker compiled pass (numba, cached): a file's hands read straight from its bytes into
event columns, check for check as the Python fast path (`ggpoker._fast_hand`) reads them.

`headers` reads each hand's first line (`Poker Hand #ID: STAKES - yyyy/mm/dd hh:mm:ss`): the
id, the stakes text (read once per text in Python by the line parser's `_read_header`) and the
clock as microseconds since 1970. `hands` reads every hand whose stakes were read, line by
line: the table line, the seat lines, `Dealt to` lines, posts, actions, shows and mucks, the
plain streets (`*** FLOP|TURN|RIVER ***`), `*** HOLE CARDS ***`, `*** SHOWDOWN ***`,
uncalled returns, collections, and the summary's total pot, fees and seat/board lines. A hand
holding anything else (a note, run it twice, a name with a space or a colon, an amount or
cards written otherwise than plainly, a bomb pot, more than `MAX_SEATS` seats, ...) is not
read (`ok` False): the Python fast path and the line parser read it. Its rows are then not
kept (the row count goes back). A tournament hand whose blinds are not its header's is read:
`noted` says so and gives the blinds as posted (the first row's source notes them).

Row columns: hand (index), kind (`KINDS`), seat (-1: null), player and cards spans (lo -1:
null), amount and total (`NULL` when null), detail (`DETAILS`; -1 null; `D_TOTAL`: the hand's
`total_pot=...`), line (1-based). Per hand: ok, the first row, the table name span, the
button, the seat count (-1: none), the game's ante, small and big blind as the hand leaves
them, the total pot, the small and big blind as posted (`NULL`: none) and whether they are
noted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.pokerstars.kernel import _at, _b, _card, _digit, _find, _is
from audit.importers.textkernel import plain_amount, prefix_index, same

NULL = np.iinfo(np.int64).min
MAX_SEATS = 16
MAX_AWARDS = 64
MAX_FEES = 8

ROW_FIELDS = ("hand", "kind", "seat", "player_lo", "player_hi", "amount", "total", "cards_lo",
              "cards_hi", "detail", "line")
HAND_FIELDS = ("table_lo", "table_hi", "button", "seat_count", "ante", "small_blind",
               "big_blind", "total_pot", "posted_small_blind", "posted_big_blind", "noted")
KINDS = ("hand_started", "seat", "post", "fold", "check", "call", "bet", "raise", "deal",
         "show", "muck", "award", "rake", "hand_ended")
(K_STARTED, K_SEAT, K_POST, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_DEAL, K_SHOW, K_MUCK,
 K_AWARD, K_RAKE, K_ENDED) = range(len(KINDS))
DETAILS = ("sitting_out", "ante", "small_blind", "big_blind", "missed_big", "new_player",
           "dead", "button_blind", "straddle", "all_in", "hole", "board", "main", "uncalled",
           "rake", "jackpot", "fee")
(D_SITTING_OUT, D_ANTE, D_SB, D_BB, D_MISSED_BIG, D_NEW_PLAYER, D_DEAD, D_BUTTON_BLIND,
 D_STRADDLE, D_ALL_IN, D_HOLE, D_BOARD, D_MAIN, D_UNCALLED, D_RAKE, D_JACKPOT,
 D_FEE) = range(len(DETAILS))
D_TOTAL = len(DETAILS)

_HEAD = _b("Poker Hand #")
_TABLE, _SEAT_WORD = _b("Table '"), _b("Seat #")
_IS_BUTTON, _MAX = _b(" is the button"), _b("-max ")
_SEAT = _b("Seat ")
_IN_CHIPS = _b(" in chips)")
_SITTING_OUT, _OUT_OF_HAND = _b(" is sitting out"), _b(" out of hand")
_DEALT_TO = _b("Dealt to ")
_COLON = _b(": ")
_ALL_IN = _b(" and is all-in")
_FOLDS, _CHECKS, _CALLS, _BETS, _RAISES = (_b("folds"), _b("checks"), _b("calls "), _b("bets "),
                                          _b("raises "))
_TO = _b(" to ")
_P_ANTE, _P_SB, _P_BB = _b("posts the ante "), _b("posts small blind "), _b("posts big blind ")
_P_MISSED, _P_DEAD = _b("posts missed blind "), _b("posts dead blind ")
_P_BUTTON, _P_STRADDLE, _STRADDLE = (_b("posts button blind "), _b("posts straddle "),
                                     _b("straddle "))
# a post's words and the detail of its row (a missed blind posted is dead money)
_POSTS = (_P_ANTE, _P_SB, _P_BB, _P_MISSED, _P_DEAD, _P_BUTTON, _P_STRADDLE, _STRADDLE)
_POST_DETAILS = (D_ANTE, D_SB, D_BB, D_DEAD, D_DEAD, D_BUTTON_BLIND, D_STRADDLE, D_STRADDLE)
_SHOWS, _MUCKS, _MUCKS_HAND = _b("shows ["), _b("mucks"), _b("mucks hand")
_HOLE = _b("*** HOLE CARDS ***")
_FLOP, _TURN, _RIVER = _b("*** FLOP *** ["), _b("*** TURN *** ["), _b("*** RIVER *** [")
_SHOWDOWN, _SHOW_DOWN = _b("*** SHOWDOWN ***"), _b("*** SHOW DOWN ***")
_SUMMARY = _b("*** SUMMARY ***")
_UNCALLED, _RETURNED = _b("Uncalled bet ("), _b(") returned to ")
_COLLECTED, _FROM = _b(" collected "), _b(" from ")
_THE, _MAIN, _SIDE, _POT = _b("the "), _b("main "), _b("side "), _b("pot")
_TOTAL_POT, _BAR = _b("Total pot "), _b(" | ")
_BOARD = _b("Board [")
_RAKE_WORD, _JACKPOT_WORD = _b("rake"), _b("jackpot")


@njit(cache=True, nogil=True)
def is_header(data, lo, hi):
    """`^Poker Hand #[A-Za-z]*\\d+: ` at data[lo:hi]: the id's end (before ': '), or -1."""
    if not _at(data, lo, hi, _HEAD):
        return -1
    p = lo + len(_HEAD)
    while p < hi and (65 <= data[p] <= 90 or 97 <= data[p] <= 122):
        p += 1
    q = p
    while q < hi and _digit(data[q]):
        q += 1
    if q == p or not _at(data, q, hi, _COLON):
        return -1
    return q


@njit(cache=True, nogil=True)
def header_lines(data, begin, hi, out):
    """Fill out[i]: whether line i is a hand's first line, as the reader's `_HEADER` tells it
    (the line as read: its left spaces kept)."""
    for i in range(len(begin)):
        out[i] = is_header(data, begin[i], hi[i]) >= 0


@njit(cache=True, nogil=True)
def _two(data, p):
    if _digit(data[p]) and _digit(data[p + 1]):
        return (data[p] - 48) * 10 + data[p + 1] - 48
    return -1


@njit(cache=True, nogil=True)
def _days(y, m, d):
    """Days from 1970-01-01 to the date (proleptic Gregorian)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


@njit(cache=True, nogil=True)
def headers(data, begin, hi, first, out, ok):
    """Fill, of each hand's first line (`first`: line indices), out[:, h] = (id lo, id hi,
    stakes lo, stakes hi, microseconds since 1970 UTC) and ok[h]: the line ends in a plain
    valid clock ` - yyyy/mm/dd h[h]:mm:ss` (no zone) after the stakes."""
    id_lo, id_hi, st_lo, st_hi, micros = out[0], out[1], out[2], out[3], out[4]
    for h in range(len(first)):
        ok[h] = False
        i = first[h]
        b, e = begin[i], hi[i]
        q = is_header(data, b, e)
        id_lo[h] = b + len(_HEAD)
        id_hi[h] = q
        st_lo[h] = st_hi[h] = q
        p = q + 2
        while p < e and (data[p] == 32 or 9 <= data[p] <= 13 or 28 <= data[p] <= 31):
            p += 1
        if p < e and data[p] in (0xC2, 0xE1, 0xE2, 0xE3):
            continue
        if e - p < 21 or data[e - 3] != 58 or data[e - 6] != 58:
            continue
        ss, mi = _two(data, e - 2), _two(data, e - 5)
        if _digit(data[e - 8]):
            hh = _two(data, e - 8)
            sp = e - 9
        elif _digit(data[e - 7]):
            hh = data[e - 7] - 48
            sp = e - 8
        else:
            continue
        if sp - 13 < p or data[sp] != 32:
            continue
        d0 = sp - 10  # yyyy/mm/dd
        if data[d0 + 4] != 47 or data[d0 + 7] != 47:
            continue
        y1, y2 = _two(data, d0), _two(data, d0 + 2)
        mo, d = _two(data, d0 + 5), _two(data, d0 + 8)
        if min(y1, y2, mo, d, hh, mi, ss) < 0:
            continue
        if data[d0 - 3] != 32 or data[d0 - 2] != 45 or data[d0 - 1] != 32:
            continue
        y = y1 * 100 + y2
        if y < 1 or not 1 <= mo <= 12 or d < 1 or hh > 23 or mi > 59 or ss > 59:
            continue
        leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
        dim = 31
        if mo == 2:
            dim = 29 if leap else 28
        elif mo in (4, 6, 9, 11):
            dim = 30
        if d > dim:
            continue
        st_lo[h] = p
        st_hi[h] = d0 - 3
        micros[h] = ((_days(y, mo, d) * 24 + hh) * 60 + mi) * 60 + ss
        micros[h] *= 1000000
        ok[h] = True


@njit(cache=True, nogil=True)
def _cards_in(data, p, end):
    """A bracketed card list `[C( C)*]` at data[p:...] written plainly: the end of its cards
    (before ']'), or -1."""
    if p >= end or data[p] != 91:
        return -1
    q = p + 1
    if not _card(data, q, end):
        return -1
    q += 2
    while q < end and data[q] == 32:
        if not _card(data, q + 1, end):
            return -1
        q += 3
    if q >= end or data[q] != 93:
        return -1
    return q


@njit(cache=True, nogil=True)
def _no_close(data, p, end):
    """data[p:end] holds no ']'."""
    for k in range(p, end):
        if data[k] == 93:
            return False
    return True


@njit(cache=True, nogil=True)
def _seat_of(data, name_lo, name_hi, n_seats, a, b):
    """The index of the seated name data[a:b], or -1."""
    for k in range(n_seats):
        if same(data, name_lo[k], name_hi[k], a, b):
            return k
    return -1


@njit(cache=True, nogil=True)
def _money_to_end(data, p, end, mpu):
    """A plain amount that runs to `end`, then an optional ' and is all-in': (value, all in,
    ok)."""
    q, value = plain_amount(data, p, end, mpu)
    if q < 0:
        return 0, False, False
    if q == end:
        return value, False, True
    if _is(data, q, end, _ALL_IN):
        return value, True, True
    return 0, False, False


@njit(cache=True, nogil=True)
def _upper_is(data, p, end, lit):
    """data[p:end], lowered (ASCII letters), is `lit`."""
    if end - p != len(lit):
        return False
    for k in range(end - p):
        c = data[p + k]
        if 65 <= c <= 90:
            c += 32
        if c != lit[k]:
            return False
    return True


@njit(cache=True, nogil=True)
def hands(data, lo, hi, odd, first, last, use, params, unknown_at, rows, per, ok, row0):
    """Read each hand (lines first[h]:last[h]; `use[h]`: its header was read; params[:, h]:
    mpu, short deck, fixed limit, tournament, hole cards, small and big blind, ante) into
    rows[:, r] (ROW_FIELDS) and per[:, h] (HAND_FIELDS), ok[h] and row0 (see the module's
    docstring); the number of rows."""
    n_hands = len(first)
    cap = rows.shape[1]
    mpu_of, short_of, fixed_of, tour_of, hole_of = (params[0], params[1], params[2], params[3],
                                                    params[4])
    sb_of, bb_of, ante_of = params[5], params[6], params[7]
    (r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail,
     r_line) = (rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7],
                rows[8], rows[9], rows[10])
    (t_lo, t_hi, button, max_seats, g_ante, g_sb, g_bb, pot) = (
        per[0], per[1], per[2], per[3], per[4], per[5], per[6], per[7])
    p_sb, p_bb, noted = per[8], per[9], per[10]
    name_lo = np.empty(MAX_SEATS, np.int64)
    name_hi = np.empty(MAX_SEATS, np.int64)
    seat_no = np.empty(MAX_SEATS, np.int64)
    left = np.empty(MAX_SEATS, np.int64)
    rnd = np.empty(MAX_SEATS, np.int64)
    out = np.empty(MAX_SEATS, np.bool_)
    dealt = np.empty(MAX_SEATS, np.bool_)
    active = np.empty(MAX_SEATS, np.bool_)
    missed = np.empty(MAX_SEATS, np.bool_)
    seat_row = np.empty(MAX_SEATS, np.int64)
    order = np.empty(MAX_SEATS, np.int64)
    known_lo = np.empty(MAX_SEATS, np.int64)
    known_hi = np.empty(MAX_SEATS, np.int64)
    known_line = np.empty(MAX_SEATS, np.int64)
    aw_line = np.empty(MAX_AWARDS, np.int64)
    aw_seat = np.empty(MAX_AWARDS, np.int64)
    aw_amount = np.empty(MAX_AWARDS, np.int64)
    aw_detail = np.empty(MAX_AWARDS, np.int16)
    fee_line = np.empty(MAX_FEES, np.int64)
    fee_amount = np.empty(MAX_FEES, np.int64)
    fee_kind = np.empty(MAX_FEES, np.int16)
    r = 0
    for h in range(n_hands):
        row0[h] = r
        ok[h] = False
        if not use[h]:
            continue
        start = r
        good = _hand(data, lo, hi, odd, first[h], last[h], mpu_of[h], short_of[h],
                     fixed_of[h], tour_of[h], hole_of[h], sb_of[h], bb_of[h], ante_of[h],
                     unknown_at, cap, h, r, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount,
                     r_total, r_clo, r_chi, r_detail, r_line, t_lo, t_hi, button, max_seats,
                     g_ante, g_sb, g_bb, pot, p_sb, p_bb, noted, name_lo, name_hi, seat_no,
                     left, rnd, out, dealt, active, missed, seat_row, order, known_lo,
                     known_hi, known_line,
                     aw_line, aw_seat, aw_amount, aw_detail, fee_line, fee_amount, fee_kind)
        if good > start:
            ok[h] = True
            r = good
        else:
            r = start
    row0[n_hands] = r
    return r


@njit(cache=True, nogil=True)
def _hand(data, lo, hi, odd, i0, i1, mpu, short, fixed, tour, hole, sb, bb, ante, unknown_at,
          cap, h, r, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi,
          r_detail, r_line, t_lo, t_hi, button, max_seats, g_ante, g_sb, g_bb, pot, p_sb, p_bb,
          noted, name_lo, name_hi, seat_no, left, rnd, out, dealt, active, missed, seat_row,
          order, known_lo,
          known_hi, known_line, aw_line, aw_seat, aw_amount, aw_detail, fee_line, fee_amount,
          fee_kind):
    """One hand's rows from row r on: the row count after them, or -1 (not read here)."""
    for i in range(i0, i1):
        if odd[i]:
            return -1
    if cap - r < 2 * (i1 - i0) + MAX_FEES + MAX_SEATS + 4:
        return -1
    # the body: the non-blank lines after the header
    i = i0 + 1
    while i < i1 and lo[i] == hi[i]:
        i += 1
    if i >= i1:
        return -1
    # Table 'NAME' [N-max ]Seat #B is the button
    a, e = lo[i], hi[i]
    if not _at(data, a, e, _TABLE):
        return -1
    q = e - len(_IS_BUTTON)
    if q <= a or not _is(data, q, e, _IS_BUTTON):
        return -1
    p = q
    while p > a and _digit(data[p - 1]):
        p -= 1
    if p == q or q - p > 3:
        return -1
    b_seat = 0
    for k in range(p, q):
        b_seat = b_seat * 10 + data[k] - 48
    p -= len(_SEAT_WORD)
    if p < a or not _at(data, p, e, _SEAT_WORD):
        return -1
    n_max = -1
    if p - 5 >= a and _at(data, p - 5, e, _MAX):
        m = p - 5
        while m > a and _digit(data[m - 1]):
            m -= 1
        if m < p - 5 and p - 5 - m <= 3 and m - 2 >= a + len(_TABLE) and \
                data[m - 1] == 32 and data[m - 2] == 39:
            n_max = 0
            for k in range(m, p - 5):
                n_max = n_max * 10 + data[k] - 48
            p = m
    if p - 2 < a + len(_TABLE) or data[p - 1] != 32 or data[p - 2] != 39:
        return -1
    if b_seat > 127 or n_max > 127:
        return -1
    t_lo[h] = a + len(_TABLE)
    t_hi[h] = p - 2
    button[h] = b_seat
    max_seats[h] = n_max
    number = i0 + 1
    r_hand[r] = h
    r_kind[r] = K_STARTED
    r_seat[r] = -1
    r_plo[r] = -1
    r_amount[r] = NULL
    r_total[r] = NULL
    r_clo[r] = -1
    r_detail[r] = -1
    r_line[r] = number
    r += 1
    game_ante, game_sb, game_bb = ante, sb, bb
    if fixed:
        game_bb = sb
        game_sb = sb // 2
    # the seat lines
    n = 0
    i += 1
    while i < i1:
        a, e = lo[i], hi[i]
        if a == e:
            i += 1
            continue
        if not _at(data, a, e, _SEAT):
            break
        p = a + len(_SEAT)
        s = 0
        d = 0
        while p < e and _digit(data[p]):
            s = s * 10 + data[p] - 48
            d += 1
            p += 1
        if d == 0 or d > 3 or not _at(data, p, e, _COLON):
            return -1
        p += 2
        nl = p
        while p < e and data[p] != 32 and data[p] != 58:
            p += 1
        if p == nl or p + 2 > e or data[p] != 32 or data[p + 1] != 40:
            return -1
        q, stack = plain_amount(data, p + 2, e, mpu)
        if q < 0 or not _at(data, q, e, _IN_CHIPS):
            return -1
        q += len(_IN_CHIPS)
        sitting = False
        if q != e:
            if _is(data, q, e, _SITTING_OUT) or _is(data, q, e, _OUT_OF_HAND):
                sitting = True
            else:
                return -1
        if not 1 <= s <= 127 or n >= MAX_SEATS:
            return -1
        for k in range(n):
            if seat_no[k] == s or same(data, name_lo[k], name_hi[k], nl, p):
                return -1
        name_lo[n] = nl
        name_hi[n] = p
        seat_no[n] = s
        left[n] = stack
        rnd[n] = 0
        out[n] = sitting
        dealt[n] = False
        active[n] = False
        missed[n] = False
        known_lo[n] = -1
        seat_row[n] = r
        r_hand[r] = h
        r_kind[r] = K_SEAT
        r_seat[r] = s
        r_plo[r] = nl
        r_phi[r] = p
        r_amount[r] = stack
        r_total[r] = NULL
        r_clo[r] = -1
        r_detail[r] = D_SITTING_OUT if sitting else -1
        r_line[r] = i + 1
        r += 1
        n += 1
        i += 1
    if n == 0:
        return -1
    body = i
    # who is dealt in, who has a line
    n_dealt = 0
    for i in range(body, i1):
        a, e = lo[i], hi[i]
        if a == e:
            continue
        if _at(data, a, e, _DEALT_TO):
            p = a + len(_DEALT_TO)
            c = _find(data, p, e, _OPEN_B)
            cards_lo = -1
            cards_hi = -1
            if c >= 0:
                if data[e - 1] == 93 and _no_close(data, c + 2, e - 1):
                    name_end = c
                    if e - 1 > c + 2:
                        cards_lo = c + 2
                        cards_hi = _cards_in(data, c + 1, e)
                        if cards_hi != e - 1:
                            return -1
                else:
                    name_end = e  # a name holding ' [': never a seated one
            else:
                name_end = e
            k = _seat_of(data, name_lo, name_hi, n, p, name_end)
            if k >= 0:
                if not dealt[k]:
                    n_dealt += 1
                dealt[k] = True
                if cards_lo >= 0:
                    known_lo[k] = cards_lo
                    known_hi[k] = cards_hi
                    known_line[k] = i + 1
                continue
        c = _find(data, a, e, _COLON)
        k = _seat_of(data, name_lo, name_hi, n, a, c if c >= 0 else e)
        if k >= 0:
            active[k] = True
    if 0 < n_dealt < n:
        for k in range(n):
            if not dealt[k] and not active[k] and not out[k]:
                out[k] = True
                r_detail[seat_row[k]] = D_SITTING_OUT
    section = 0
    n_awards = 0
    n_fees = 0
    total_pot = NULL
    last = number
    forced = False
    bb_seat = -1
    posted_bb = NULL
    posted_sb = NULL
    for i in range(body, i1):
        a, e = lo[i], hi[i]
        if a == e:
            continue
        last = i + 1
        if section == 3:
            if _at(data, a, e, _TOTAL_POT):
                q, value = plain_amount(data, a + len(_TOTAL_POT), e, mpu)
                if q < 0:
                    return -1
                total_pot = value
                while q < e:
                    if not _at(data, q, e, _BAR):
                        return -1
                    w = q + 3
                    p = w
                    while p < e and (65 <= data[p] <= 90 or 97 <= data[p] <= 122):
                        p += 1
                    if p == w or p >= e or data[p] != 32:
                        return -1
                    q, value = plain_amount(data, p + 1, e, mpu)
                    if q < 0 or (q < e and data[q] != 32):
                        return -1
                    if value:
                        if n_fees >= MAX_FEES:
                            return -1
                        fee_line[n_fees] = i + 1
                        fee_amount[n_fees] = value
                        if _upper_is(data, w, p, _RAKE_WORD):
                            fee_kind[n_fees] = D_RAKE
                        elif _upper_is(data, w, p, _JACKPOT_WORD):
                            fee_kind[n_fees] = D_JACKPOT
                        else:
                            fee_kind[n_fees] = D_FEE
                        n_fees += 1
                continue
            if _at(data, a, e, _SEAT):
                p = a + len(_SEAT)
                q = p
                while q < e and _digit(data[q]):
                    q += 1
                if q > p and _at(data, q, e, _COLON):
                    continue
                return -1
            if _at(data, a, e, _BOARD) and data[e - 1] == 93 and \
                    _no_close(data, a + len(_BOARD), e - 1):
                continue
            return -1
        c = _find(data, a, e, _COLON)
        k = _seat_of(data, name_lo, name_hi, n, a, c) if c >= 0 else -1
        if k >= 0:
            p = c + 2
            s = seat_no[k]
            kind = -1
            if _is(data, p, e, _FOLDS):
                kind = K_FOLD
            elif _is(data, p, e, _CHECKS):
                kind = K_CHECK
            if kind >= 0:
                if section == 0:
                    return -1
                _row(r, h, kind, s, name_lo[k], name_hi[k], NULL, NULL, -1, -1, -1, i + 1,
                     r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi,
                     r_detail, r_line)
                r += 1
                forced = True
                continue
            x = NULL
            all_in = False
            if _at(data, p, e, _CALLS) or _at(data, p, e, _BETS):
                kind = K_CALL if data[p] == 99 else K_BET
                x, all_in, good = _money_to_end(
                    data, p + (len(_CALLS) if kind == K_CALL else len(_BETS)), e, mpu)
                if not good:
                    return -1
            elif _at(data, p, e, _RAISES):
                kind = K_RAISE
                q, _ = plain_amount(data, p + len(_RAISES), e, mpu)
                if q < 0 or not _at(data, q, e, _TO):
                    return -1
                x, all_in, good = _money_to_end(data, q + len(_TO), e, mpu)
                if not good:
                    return -1
            if kind >= 0:
                if section == 0:
                    return -1
                before = rnd[k]
                if kind == K_RAISE:
                    added = x - before
                    if added < 0:
                        return -1
                else:
                    added = x
                stack = left[k]
                left[k] = stack - added
                total = before + added
                rnd[k] = total
                _row(r, h, kind, s, name_lo[k], name_hi[k], added, total, -1, -1,
                     D_ALL_IN if all_in or (added > 0 and added == stack) else -1, i + 1,
                     r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi,
                     r_detail, r_line)
                r += 1
                forced = True
                continue
            verb = -1
            j = prefix_index(data, p, e, _POSTS)
            if j >= 0:
                verb, p = _POST_DETAILS[j], p + len(_POSTS[j])
            if verb >= 0:
                amt, all_in, good = _money_to_end(data, p, e, mpu)
                if not good or section != 0:
                    return -1
                if verb == D_ANTE:
                    if not short and amt > game_ante:
                        game_ante = amt
                    left[k] -= amt
                    _row(r, h, K_POST, s, name_lo[k], name_hi[k], amt, NULL, -1, -1, D_ANTE,
                         i + 1, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total,
                         r_clo, r_chi, r_detail, r_line)
                    r += 1
                    continue
                if verb == D_DEAD:
                    missed[k] = True
                    left[k] -= amt
                    _row(r, h, K_POST, s, name_lo[k], name_hi[k], amt, NULL, -1, -1, D_DEAD,
                         i + 1, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total,
                         r_clo, r_chi, r_detail, r_line)
                    r += 1
                    continue
                detail = verb
                if verb == D_SB:
                    if short:
                        return -1
                    if posted_sb == NULL and amt < left[k]:
                        posted_sb = amt
                        if fixed:
                            game_sb = amt
                elif verb == D_BB:
                    if short:
                        return -1
                    if bb_seat < 0:
                        bb_seat = s
                    else:
                        detail = D_MISSED_BIG if missed[k] else D_NEW_PLAYER
                elif verb == D_STRADDLE:
                    if amt < rnd[k]:
                        return -1
                    amt -= rnd[k]
                left[k] -= amt
                total = rnd[k] + amt
                rnd[k] = total
                _row(r, h, K_POST, s, name_lo[k], name_hi[k], amt, total, -1, -1, detail,
                     i + 1, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo,
                     r_chi, r_detail, r_line)
                r += 1
                if detail == D_SB or detail == D_BB or detail == D_BUTTON_BLIND or \
                        detail == D_STRADDLE:
                    forced = True
                if detail == D_BB and left[k] > 0:
                    posted_bb = amt
                continue
            if _at(data, p, e, _SHOWS):
                q = _cards_in(data, p + len(_SHOWS) - 1, e)
                if q < 0 or not (q + 1 == e or (q + 3 <= e and data[q + 1] == 32 and
                                                data[q + 2] == 40 and data[e - 1] == 41)):
                    return -1
                _row(r, h, K_SHOW, s, name_lo[k], name_hi[k], NULL, NULL, p + len(_SHOWS), q,
                     -1, i + 1, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total,
                     r_clo, r_chi, r_detail, r_line)
                r += 1
                continue
            if _is(data, p, e, _MUCKS) or _is(data, p, e, _MUCKS_HAND):
                _row(r, h, K_MUCK, s, name_lo[k], name_hi[k], NULL, NULL, -1, -1, -1, i + 1,
                     r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi,
                     r_detail, r_line)
                r += 1
                continue
            return -1
        # a line of no seated player
        if _at(data, a, e, _DEALT_TO):
            continue
        if _is(data, a, e, _HOLE):
            if section != 0:
                return -1
            # the seats in number order
            for j in range(n):
                order[j] = j
            for j in range(1, n):
                m = order[j]
                q = j
                while q > 0 and seat_no[order[q - 1]] > seat_no[m]:
                    order[q] = order[q - 1]
                    q -= 1
                order[q] = m
            for j in range(n):
                k = order[j]
                s = seat_no[k]
                if not out[k]:
                    if known_lo[k] >= 0:
                        clo, chi, at = known_lo[k], known_hi[k], known_line[k]
                    else:
                        clo, chi, at = unknown_at, unknown_at + 3 * hole - 1, i + 1
                    _row(r, h, K_DEAL, s, name_lo[k], name_hi[k], NULL, NULL, clo, chi,
                         D_HOLE, at, r_hand, r_kind, r_seat, r_plo, r_phi, r_amount,
                         r_total, r_clo, r_chi, r_detail, r_line)
                    r += 1
            section = 1
            continue
        street = -1
        if _at(data, a, e, _FLOP):
            street, p = 0, a + len(_FLOP) - 1
        elif _at(data, a, e, _TURN):
            street, p = 1, a + len(_TURN) - 1
        elif _at(data, a, e, _RIVER):
            street, p = 2, a + len(_RIVER) - 1
        if street >= 0:
            q = _cards_in(data, p, e)
            if q < 0:
                return -1
            if q + 1 != e:
                p = q + 2
                if data[q + 1] != 32:
                    return -1
                q = _cards_in(data, p, e)
                if q < 0 or q + 1 != e:
                    return -1
            if street == 0 and not forced:
                live = 0
                for k in range(n):
                    if left[k] > 0 and not out[k]:
                        live += 1
                if live >= 2:
                    return -1  # a bomb pot: the line parser says so
            for k in range(n):
                rnd[k] = 0
            _row(r, h, K_DEAL, -1, -1, -1, NULL, NULL, p + 1, q, D_BOARD, i + 1, r_hand,
                 r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail,
                 r_line)
            r += 1
            section = 1
            continue
        if _is(data, a, e, _SHOWDOWN) or _is(data, a, e, _SHOW_DOWN):
            section = 2
            continue
        if _is(data, a, e, _SUMMARY):
            section = 3
            continue
        if _at(data, a, e, _UNCALLED):
            q, value = plain_amount(data, a + len(_UNCALLED), e, mpu)
            if q < 0 or not _at(data, q, e, _RETURNED):
                return -1
            k = _seat_of(data, name_lo, name_hi, n, q + len(_RETURNED), e)
            if k < 0 or n_awards >= MAX_AWARDS:
                return -1
            aw_line[n_awards] = i + 1
            aw_seat[n_awards] = k
            aw_amount[n_awards] = value
            aw_detail[n_awards] = D_UNCALLED
            n_awards += 1
            continue
        c = _find(data, a, e, _COLLECTED)
        if c > a:
            k = _seat_of(data, name_lo, name_hi, n, a, c)
            q, value = plain_amount(data, c + len(_COLLECTED), e, mpu)
            if k < 0 or q < 0 or not _at(data, q, e, _FROM) or n_awards >= MAX_AWARDS:
                return -1
            q += len(_FROM)
            if _at(data, q, e, _THE):
                q += len(_THE)
            if _at(data, q, e, _MAIN) or _at(data, q, e, _SIDE):
                q += 5
            if not _at(data, q, e, _POT):
                return -1
            q += len(_POT)
            dash = q < e and data[q] == 45
            if dash:
                q += 1
            d = q
            while q < e and _digit(data[q]):
                q += 1
            if q != e or (dash and q == d):
                return -1
            aw_line[n_awards] = i + 1
            aw_seat[n_awards] = k
            aw_amount[n_awards] = value
            aw_detail[n_awards] = D_MAIN
            n_awards += 1
            continue
        return -1
    if section != 3 or total_pot == NULL:
        return -1
    noted[h] = not short and posted_bb != NULL and posted_bb != bb and tour
    if noted[h]:  # the blinds as posted (the hand's first row notes them)
        game_bb = posted_bb
        if posted_sb != NULL:
            game_sb = posted_sb
    p_sb[h] = posted_sb
    p_bb[h] = posted_bb
    for w in range(n_awards):
        k = aw_seat[w]
        _row(r, h, K_AWARD, seat_no[k], name_lo[k], name_hi[k], aw_amount[w], NULL, -1, -1,
             aw_detail[w], aw_line[w], r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total,
             r_clo, r_chi, r_detail, r_line)
        r += 1
    for w in range(n_fees):
        _row(r, h, K_RAKE, -1, -1, -1, fee_amount[w], NULL, -1, -1, fee_kind[w], fee_line[w],
             r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail,
             r_line)
        r += 1
    _row(r, h, K_ENDED, -1, -1, -1, NULL, NULL, -1, -1, D_TOTAL, last, r_hand, r_kind, r_seat,
         r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail, r_line)
    r += 1
    g_ante[h] = game_ante
    g_sb[h] = game_sb
    g_bb[h] = game_bb
    pot[h] = total_pot
    return r


_OPEN_B = _b(" [")


@njit(cache=True, nogil=True)
def _row(r, h, kind, seat, plo, phi, amount, total, clo, chi, detail, line, r_hand, r_kind,
         r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail, r_line):
    r_hand[r] = h
    r_kind[r] = kind
    r_seat[r] = seat
    r_plo[r] = plo
    r_phi[r] = phi
    r_amount[r] = amount
    r_total[r] = total
    r_clo[r] = clo
    r_chi[r] = chi
    r_detail[r] = detail
    r_line[r] = line
