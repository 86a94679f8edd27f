"""Bovada's compiled pass (numba, cached): the common button-game hands of a file read straight
from its bytes into event rows, check for check as the Python fast path (`bovada_fast._map`)
reads them.

`scan` cuts each line of a hand: a player's line (`LABEL : REST`) or another line, what kind
of line it is when its first words say so (`Card dealt to a spot [`, `Set dealer`,
`Showdown`, street and layout lines, ...), else its template: the text without the amounts
at its end (` AMT` or ` AMT to AMT`, `AMT` as `bovada._AMT`), hashed. The glue
(`bovada_compiled`) reads each distinct template once in Python with the line parser's own
`_action` (checking that it finds the amounts where `scan` found them) and gives `hands` the
opcode of each.

`hands` reads a hand only when every line is one it knows, as the fast path reads it:
seats (renumbered in list order as the parser does when the numbers are player ids)
with labels as stored (no doubled spaces), a `Dealer`
seat, the blinds, antes, posts, the hole cards, folds, checks, calls, bets, raises, all-ins
(forced ones before the hole cards too), street lines, uncalled returns, results, shows,
mucks, `Does not show`, the room's notes, and a summary of `Total Pot`, `Board` and seat
lines. Anything else (stud, five- or six-card Omaha, a repeated line, a street the log does
not write, a dead chip, a line with a non-ASCII byte or leading space, a label the seats do
not name, an amount the reader would not read, ...) leaves the hand to the fast path and the
line parser (`ok` False), which stay the single source of truth.

Row columns (`ROW_FIELDS`): hand, kind (`KINDS`), seat (-1 null), player span, amount and
total (`NULL` null), cards span (lo -1 null), detail (`DETAILS`; -1 null), line (1-based).
Per hand (`HAND_FIELDS`): the button, the ante, the total pot (`NULL`: none), the game's
small and big blind, whether the game writes the fixed-limit bets, the started detail
(`D_STARTED` + 0..3: refunds implicit 1, rake implicit 2), whether chips are dollars,
whether the seats are numbered in list order (the written numbers are player ids), whether
a line the log repeats was read as a note (`D_REPEATED`: its text follows the detail),
whether the button is the empty seat before the small blind (no `Dealer` seat), whether the
small blind is assumed half the big blind (none posted, no level).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.pokerstars.kernel import _at, _b, _digit, _is
from audit.importers.textkernel import prefix_index

NULL = np.iinfo(np.int64).min
MAX_SEATS = 10

ROW_FIELDS = ("hand", "kind", "seat", "player_lo", "player_hi", "amount", "total", "cards_lo",
              "cards_hi", "detail", "line")
HAND_FIELDS = ("button", "ante", "pot", "sb", "bb", "fixed", "started", "dollars",
               "renumbered", "repeated", "button_note", "sb_assumed")
KINDS = ("hand_started", "seat", "post", "fold", "check", "call", "bet", "raise", "deal",
         "show", "muck", "annotation", "award", "rake", "hand_ended")
(K_STARTED, K_SEAT, K_POST, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_DEAL, K_SHOW, K_MUCK,
 K_NOTE, K_AWARD, K_RAKE, K_ENDED) = range(len(KINDS))
NOTES = ("leaves", "enters", "sits_out", "returned", "table_change", "stands_up", "sits_down",
         "adds_chips", "ranking")
DETAILS = ("players=anonymous", "players=anonymous;refunds=implicit",
           "players=anonymous;rake=implicit", "players=anonymous;refunds=implicit;rake=implicit",
           "sitting_out", "small_blind", "big_blind", "ante", "new_player", "hole", "board",
           "all_in", "uncalled", "main", "side-1", "rake", "does_not_show", "total_pot",
           "repeated_line: ", "shows_folded_hand", *NOTES)
(D_STARTED, _D1, _D2, _D3, D_SITTING_OUT, D_SB, D_BB, D_ANTE, D_NEW_PLAYER, D_HOLE, D_BOARD,
 D_ALL_IN, D_UNCALLED, D_MAIN, D_SIDE, D_RAKE, D_NO_SHOW, D_TOTAL, D_REPEATED,
 D_SHOWS_FOLDED) = range(20)
D_NOTES = 20

# line kinds (`scan`)
(L_BLANK, L_PLAYER, L_OTHER, L_DEALT, L_SET_DEALER, L_SHOW, L_MUCK, L_NO_SHOW, L_REFUSED,
 L_HOLE, L_SUMMARY, L_STREET, L_TABLE_CARD, L_SKIP, L_SUMMARYISH, L_FOLD_SHOW) = range(16)
# opcodes of a template (the glue's `_template_code`)
(OP_BAD, OP_FOLD, OP_CHECK, OP_POST, OP_NOTE, OP_CALL, OP_BET, OP_RAISE, OP_ALLIN, OP_UNCALLED,
 OP_RESULT, OP_SIDE) = range(12)
# post kinds (arg of OP_POST): the details
# blind scan codes (`bovada_fast._map`'s `scanning`)
S_NONE, S_SB, S_BB, S_BB_ALLIN, S_STOP = range(5)

_SEP = _b(" : ")
_SPOT = _b("Card dealt to a spot [")
_SET_DEALER = _b("Set dealer")
_SHOWDOWN, _MUCKS, _NO_SHOW = _b("Showdown"), _b("Mucks"), _b("Does not show")
_FOLDS_AND, _DRAW, _PRIZE = _b("Folds & "), _b("Draw for dealer"), _b("Prize ")
_HOLE = _b("*** HOLE CARDS ***")
_SUMMARY = _b("*** SUMMARY ***")
_STARS = _b("*** ")
_FLOP, _TURN, _RIVER = _b("*** FLOP ***"), _b("*** TURN ***"), _b("*** RIVER ***")
_TABLE_CARD = _b("Card dealt to table [")
_TABLE_CARD_WORDS = _b("Card dealt to table")
_SEATING, _PLAYER_INFO, _TABLE_INFO = _b("Seating Info:"), _b("Player Info:"), _b("Table Info:")
_SEAT = _b("Seat")
_SEAT_SP = _b("Seat ")
_TOTAL = _b("Total Pot(")
_RAKE = _b(") | Rake (")
_BOARD = _b("Board [")
_IN_CHIPS = _b(" in chips)")
_ME = _b(" [ME]")
_NOTHING = _b("")
_TO = _b(" to ")
_DEALER = _b("Dealer")
_SMALL_BLIND = _b("Small Blind")
_BIG_BLIND = _b("Big Blind")


# a line's kind from its first words, the first match in order: after a player's ` : `, and on
# a line without one (a street's `*** ` after the exact `*** HOLE CARDS ***` and summary lines;
# `Table Info:` holds stakes the fast path may read: its hand)
_PLAYER_LINES = (_SPOT, _SET_DEALER, _SHOWDOWN, _MUCKS, _NO_SHOW, _FOLDS_AND, _DRAW, _PRIZE)
_PLAYER_LINE_KINDS = (L_DEALT, L_SET_DEALER, L_SHOW, L_MUCK, L_NO_SHOW, L_FOLD_SHOW, L_REFUSED,
                      L_REFUSED)
_OTHER_LINES = (_STARS, _TABLE_CARD, _TABLE_INFO, _SEATING, _PLAYER_INFO, _SET_DEALER, _TOTAL,
                _BOARD)
_OTHER_LINE_KINDS = (L_STREET, L_TABLE_CARD, L_REFUSED, L_SKIP, L_SKIP, L_SKIP, L_SUMMARYISH,
                     L_SUMMARYISH)

_ROOM_NAMES = tuple(_b(name) for name in (
    "Bovada", "Bodog", "Bodog.com", "Bodog.eu", "Bodog UK", "Bodog Canada", "Bodog88",
    "Ignition", "Ignition Casino"))
_HAND_NO = _b(" Hand #")


@njit(cache=True, nogil=True)
def header_lines(data, begin, hi, out):
    """Whether each line may start a hand (`bovada._HEADER_LINE`: a room's name at its start,
    ` Hand #`, a digit): 1 yes (an ASCII digit), 2 when a byte that is not ASCII follows
    ` Hand #` (a digit of another script: the line's text decides), 0 no."""
    for i in range(len(begin)):
        a, e = begin[i], hi[i]
        out[i] = 0
        if e - a < 13 or not (data[a] == 66 or data[a] == 73):  # B, I
            continue
        for name in _ROOM_NAMES:
            q = a + len(name)
            if _at(data, a, e, name) and _at(data, q, e, _HAND_NO) and q + len(_HAND_NO) < e:
                c = data[q + len(_HAND_NO)]
                if _digit(c):
                    out[i] = 1
                    break
                if c >= 128:
                    out[i] = 2


@njit(cache=True, nogil=True)
def _amount_char(c):
    return _digit(c) or c == 44 or c == 46


@njit(cache=True, nogil=True)
def _token_back(data, r0, end):
    """The amount token (`\\$?[0-9][0-9,.]*`) ending at `end`, preceded by a space after r0:
    its start ($ included), or -1."""
    q = end
    while q > r0 and _amount_char(data[q - 1]):
        q -= 1
    if q == end or not _digit(data[q]):
        return -1
    if q > r0 and data[q - 1] == 36:
        q -= 1
    if q - 1 < r0 or data[q - 1] != 32:
        return -1
    return q


@njit(cache=True, nogil=True)
def scan(data, begin, lo, hi, first, last, kind, sep, tend, x0, x1, y0, y1, hsh):
    """Each line of each hand after its header: kind (`L_*`), the ` : ` of a player's line
    (-1 none), the end of its template (`tend`; it starts at sep + 3 or at the line's start),
    its amounts' spans (x, y; -1 none) and the template's hash (0 when it has none)."""
    for h in range(len(first)):
        for i in range(first[h] + 1, last[h]):
            a, e = begin[i], hi[i]
            sep[i] = -1
            tend[i] = -1
            x0[i] = x1[i] = y0[i] = y1[i] = -1
            hsh[i] = 0
            if lo[i] == e:
                kind[i] = L_BLANK
                continue
            s = -1
            if data[a] != 42:  # `*`
                for q in range(a, e - 2):
                    if data[q] == 32 and data[q + 1] == 58 and data[q + 2] == 32:
                        s = q
                        break
            sep[i] = s
            if s >= 0:
                r0 = s + 3
                j = prefix_index(data, r0, e, _PLAYER_LINES)
                if j >= 0:
                    kind[i] = _PLAYER_LINE_KINDS[j]
                    continue
                kind[i] = L_PLAYER
                seed = np.uint64(1469598103934665603)
            else:
                r0 = a
                if _is(data, a, e, _HOLE):
                    kind[i] = L_HOLE
                    continue
                if _is(data, a, e, _SUMMARY):
                    kind[i] = L_SUMMARY
                    continue
                j = prefix_index(data, a, e, _OTHER_LINES)
                if j >= 0:
                    kind[i] = _OTHER_LINE_KINDS[j]
                    continue
                if _at(data, a, e, _SEAT) and a + 5 < e and (
                        data[a + 4] == 32 or data[a + 4] == 43) and _digit(data[a + 5]):
                    kind[i] = L_SUMMARYISH  # a note line (`Seat sit down`) is not
                    continue
                kind[i] = L_OTHER
                seed = np.uint64(1099511628211)
            te = e
            b0 = _token_back(data, r0, e)
            if b0 >= 0:
                te = b0 - 1
                x0[i], x1[i] = b0, e
                if te - 3 >= r0 and _at(data, te - 3, e, _TO):
                    a0 = _token_back(data, r0, te - 3)
                    if a0 >= 0:
                        y0[i], y1[i] = b0, e
                        x0[i], x1[i] = a0, te - 3
                        te = a0 - 1
            tend[i] = te
            v = seed
            for q in range(r0, te):
                v = (v ^ np.uint64(data[q])) * np.uint64(1099511628211)
            v = (v ^ np.uint64(te - r0)) * np.uint64(1099511628211)
            hsh[i] = np.int64(v)


@njit(cache=True, nogil=True)
def _money(data, a, b, mpu):
    """(ok, minor units) of an amount token data[a:b] as `bovada._Money` reads it: `$`
    dropped, commas dropped, at most one point, no finer than the unit, at most 15 digits."""
    if a < b and data[a] == 36:
        a += 1
    if a >= b or not _digit(data[a]):
        return False, 0
    whole = 0
    frac = 0
    scale = 0
    digits = 0
    point = False
    for q in range(a, b):
        c = data[q]
        if c == 44:
            continue
        if c == 46:
            if point:
                return False, 0
            point = True
            continue
        if not _digit(c):
            return False, 0
        d = c - 48
        if point:
            if scale < 2:
                frac = frac * 10 + d
                scale += 1
            elif d != 0:
                return False, 0
        else:
            whole = whole * 10 + d
            digits += 1
            if digits > 15:
                return False, 0
    if digits == 0:
        return False, 0
    if mpu == 1:
        if frac != 0:
            return False, 0
        return True, whole
    while scale < 2:
        frac *= 10
        scale += 1
    return True, whole * 100 + frac


@njit(cache=True, nogil=True)
def _rank(c):
    return 50 <= c <= 57 or c == 84 or c == 74 or c == 81 or c == 75 or c == 65


@njit(cache=True, nogil=True)
def _suit(c):
    return c == 99 or c == 100 or c == 104 or c == 115


@njit(cache=True, nogil=True)
def _cards(data, a, b):
    """`[Xx Yy ...]` at data[a:b] written as stored (`bovada._cards`: single spaces, valid
    cards): (inner start, inner end, card count), or (-1, -1, 0)."""
    if b - a < 4 or data[a] != 91 or data[b - 1] != 93:
        return -1, -1, 0
    p = a + 1
    e = b - 1
    n = 0
    while True:
        if p + 2 > e or not _rank(data[p]) or not _suit(data[p + 1]):
            return -1, -1, 0
        n += 1
        p += 2
        if p == e:
            return a + 1, e, n
        if data[p] != 32:
            return -1, -1, 0
        p += 1


@njit(cache=True, nogil=True)
def _label_is(data, a, b, lo, hi, more):
    """Whether data[a:b] with its runs of spaces collapsed and its ends stripped (as
    `bovada._label` stores a label with only spaces) is data[lo:hi], then `more` (a suffix:
    ` [ME]`, or none when empty)."""
    while a < b and data[a] == 32:
        a += 1
    while b > a and data[b - 1] == 32:
        b -= 1
    q = lo
    p = a
    while p < b:
        c = data[p]
        if c == 32:
            while data[p + 1] == 32:
                p += 1
        if q >= hi:
            break
        if data[q] != c:
            return False
        q += 1
        p += 1
    if q != hi:
        return False
    for k in range(len(more)):
        if p >= b:
            return False
        c = data[p]
        if c == 32:
            while data[p + 1] == 32:
                p += 1
        if c != more[k]:
            return False
        p += 1
    return p == b


@njit(cache=True, nogil=True)
def _base_is(data, lo, hi, word):
    """The label data[lo:hi] up to its first ` [` is `word`."""
    e = lo
    while e < hi and not (data[e] == 32 and e + 1 < hi and data[e + 1] == 91):
        e += 1
    return _is(data, lo, e, word)


@njit(cache=True, nogil=True)
def _put(rows, r, h, kind, seat, plo, phi, amount, total, clo, chi, detail, line):
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
    rows[10, r] = line


@njit(cache=True, nogil=True)
def hands(data, begin, lo, hi, odd, first, last, kind, sep, tend, x0, x1, y0, y1, cls,
          c_op, c_arg, c_flags, c_tlo, c_thi, use, params, unknown, rows, per, ok, row0):
    """Read each hand (lines first[h]:last[h]; `use[h]`: its header was read; params[:, h]:
    variant (0 hold'em, 1 Omaha), whether the level names the blinds, the level's small and
    big blind in cents and in chips, fixed limit) into rows (ROW_FIELDS), per (HAND_FIELDS),
    ok and row0; the row count. cls[i]: line i's template class (c_op, c_arg, c_flags: plays
    1, never twice 2, ante 4, blind scan code << 3; c_tlo:c_thi its template); unknown:
    the spans of `?? ??` and `?? ?? ?? ??`."""
    n_hands = len(first)
    body = np.empty((11, 0), np.int64)
    awards = np.empty((11, 0), np.int64)
    ints = np.empty((12, MAX_SEATS), np.int64)  # per seat: see `_hand`
    flags = np.empty((5, MAX_SEATS), np.bool_)
    board = np.empty(8, np.int64)
    r = 0
    for h in range(n_hands):
        row0[h] = r
        ok[h] = False
        if not use[h]:
            continue
        need_rows = 3 * (last[h] - first[h]) + 3 * MAX_SEATS + 8
        if rows.shape[1] - r < need_rows:
            continue
        if body.shape[1] < need_rows:
            body = np.empty((11, need_rows), np.int64)
            awards = np.empty((11, need_rows), np.int64)
        got = _hand(data, begin, lo, hi, odd, first[h], last[h], kind, sep, tend, x0, x1, y0,
                    y1, cls, c_op, c_arg, c_flags, c_tlo, c_thi, params[:, h], unknown, rows,
                    r, h, per, body, awards, ints, flags, board)
        if got > r:
            ok[h] = True
            r = got
    row0[n_hands] = r
    return r


@njit(cache=True, nogil=True)
def _template_is(data, i, sep, tend, begin, cls, c_tlo, c_thi):
    """Line i's template is its class's (the hash's collisions told apart)."""
    r0 = sep[i] + 3 if sep[i] >= 0 else begin[i]
    c = cls[i]
    if c < 0:
        return False
    a, b = c_tlo[c], c_thi[c]
    if tend[i] - r0 != b - a:
        return False
    for k in range(b - a):
        if data[r0 + k] != data[a + k]:
            return False
    return True


@njit(cache=True, nogil=True)
def _hand(data, begin, lo, hi, odd, i0, i1, kind, sep, tend, x0, x1, y0, y1, cls, c_op,
          c_arg, c_flags, c_tlo, c_thi, prm, unknown, rows, r, h, per, body, awards, ints,
          seat_flags, board):
    """One hand's rows from row r on: the row count after them, or -1 when the hand is not
    read here (body, awards, ints, seat_flags, board: room to work in, filled here)."""
    omaha = prm[0] == 1
    n_hole = 4 if omaha else 2
    # every line: ASCII, no leading space, not odd
    last_line = i0 + 1
    for i in range(i0, i1):
        if odd[i]:
            return -1
        if lo[i] == hi[i]:
            continue
        if lo[i] != begin[i]:
            return -1
        for q in range(begin[i], hi[i]):
            if data[q] >= 128:
                return -1
        last_line = i + 1
    # --- seats ------------------------------------------------------------------------------
    ints[:] = 0
    seat_flags[:] = False
    name_lo, name_hi, seat_no, seat_line, left, stack0, rnd, put, dealt_lo, dealt_hi, \
        dealt_line, dealt_n = ints
    dealt_lo[:] = -1
    in_rnd, plays, folded, anted = seat_flags[0], seat_flags[1], seat_flags[2], seat_flags[3]
    # board[j]: where board card j's text starts (2 bytes)
    n = 0
    dollars = False
    rising = True
    i = i0 + 1
    while i < i1:
        a, e = begin[i], hi[i]
        if lo[i] == e:
            i += 1
            continue
        if not _at(data, a, e, _SEAT_SP):
            break
        p = a + 5
        s = 0
        q = p
        while q < e and _digit(data[q]):
            s = s * 10 + data[q] - 48
            q += 1
            if q - p > 9:
                return -1
        if q == p or q + 2 > e or data[q] != 58 or data[q + 1] != 32:
            return -1  # a `Seat` line the parser reads otherwise (or refuses)
        if e - q < len(_IN_CHIPS) + 6 or not _at(data, e - len(_IN_CHIPS), e, _IN_CHIPS):
            return -1
        t = e - len(_IN_CHIPS)
        m = t
        while m > q and _amount_char(data[m - 1]):
            m -= 1
        if m == t or not _digit(data[m]):
            return -1
        dollar = data[m - 1] == 36
        if dollar:
            m -= 1
        if data[m - 1] != 40 or data[m - 2] != 32:
            return -1
        nl, ne = q + 2, m - 2
        if ne <= nl:
            return -1
        # the label as stored: no doubled, leading or trailing space
        for k in range(nl, ne):
            if data[k] < 32 or data[k] == 127 or (data[k] == 32 and (
                    k == nl or k == ne - 1 or data[k + 1] == 32)):
                return -1
        if n == 0:
            dollars = dollar
        good, stack = _money(data, m, t, 100 if dollars else 1)
        if not good or n >= MAX_SEATS:
            return -1
        if n > 0 and s <= seat_no[n - 1]:
            rising = False
        for k in range(n):
            if _is(data, name_lo[k], name_hi[k], data[nl:ne]):
                return -1
        name_lo[n], name_hi[n], seat_no[n], seat_line[n] = nl, ne, s, i + 1
        left[n] = stack
        stack0[n] = stack
        n += 1
        i += 1
    if n == 0:
        return -1
    renumbered = not (rising and seat_no[n - 1] <= 10)
    for k in range(n):
        if renumbered:
            seat_no[k] = k + 1  # the log lists player ids: seats in list order
        elif seat_no[k] < 1:
            return -1
    mpu = 100 if dollars else 1
    table_sb = table_bb = NULL
    if prm[1]:
        if dollars:
            if prm[6] == 0:
                return -1
            table_sb, table_bb = prm[2], prm[3]
        else:
            if prm[7] == 0:
                return -1
            table_sb, table_bb = prm[4], prm[5]
        if table_bb == 0:
            table_sb = table_bb = NULL
    dealer = -1
    for k in range(n):
        if _base_is(data, name_lo[k], name_hi[k], _DEALER):
            dealer = k
            break
    has_sb_label = False
    for k in range(n):
        if _base_is(data, name_lo[k], name_hi[k], _SMALL_BLIND):
            has_sb_label = True
    # --- the body -----------------------------------------------------------------------------
    b = 0  # body rows
    n_award = 0
    side_first = -1  # which pot came first: 0 main, 1 side
    section = 0
    scanning = True
    posted_sb = posted_bb = NULL
    holes_at = -1
    holes_line = 0
    need_base = 0
    need = -1  # -1: not known yet
    tracking = False
    antes = False
    ante = 0
    allin_before_antes = False
    streets = False
    shown = False
    out = -1  # who sits out (a bitmask), as first needed; -1 not yet
    n_board = 0
    total_pot = NULL
    rake_seen = False
    rake = 0
    rake_line = 0
    uncalled = False
    has_summary = False
    prev = -1
    repeated = False
    dealer_k = -1
    body_at = i
    for i in range(body_at, i1):
        a, e = begin[i], hi[i]
        lk = kind[i]
        if lk == L_BLANK:
            continue
        line = i + 1
        if section == 2:
            if lk == L_SUMMARYISH and _at(data, a, e, _SEAT):
                # `Seat[ +]N( [ME])?:` passes; a seat line of another hand does not
                p = a + 4
                if p >= e or not (data[p] == 32 or data[p] == 43):
                    return -1
                p += 1
                q = p
                while q < e and _digit(data[q]):
                    q += 1
                if q == p:
                    return -1
                if _at(data, q, e, _ME):
                    q += 5
                if q >= e or data[q] != 58:
                    return -1
                for k in range(a, e - 7):
                    if data[k] == 105 and data[k + 1] == 110 and data[k + 2] == 32 and \
                            data[k + 3] == 99:  # `in c`(hips): maybe a seat line
                        return -1
                continue
            if sep[i] >= 0:
                return -1
            if lk == L_SUMMARYISH and _at(data, a, e, _TOTAL):
                if total_pot != NULL:
                    return -1
                p = a + len(_TOTAL)
                q = p
                while q < e and (_amount_char(data[q]) or data[q] == 36):
                    q += 1
                good, total_pot = _money(data, p, q, mpu)
                if not good or q >= e:
                    return -1
                if q == e - 1 and data[q] == 41:
                    continue
                if not _at(data, q, e, _RAKE) or data[e - 1] != 41:
                    return -1
                good, rake = _money(data, q + len(_RAKE), e - 1, mpu)
                if not good:
                    return -1
                rake_seen = True
                rake_line = line
                continue
            if lk == L_SUMMARYISH and _at(data, a, e, _BOARD):
                # the board as dealt, its cards as stored (spaces as written)
                p = a + 6
                if data[e - 1] != 93:
                    return -1
                q = p + 1
                count = 0
                while True:
                    while q < e - 1 and data[q] == 32:
                        q += 1
                    if q >= e - 1:
                        break
                    if q + 2 > e - 1 or not _rank(data[q]) or not _suit(data[q + 1]) or \
                            (q + 2 < e - 1 and data[q + 2] != 32):
                        return -1
                    if count >= n_board or data[q] != data[board[count]] or \
                            data[q + 1] != data[board[count] + 1]:
                        return -1
                    count += 1
                    q += 2
                if count != n_board and count != 0:
                    return -1
                if count == 0 and n_board != 0:
                    return -1
                continue
            return -1
        s_at = sep[i]
        if s_at < 0:
            if lk == L_SUMMARY:
                section = 2
                has_summary = True
                continue
            if lk == L_HOLE:
                if section == 0:
                    holes_at = b
                    holes_line = line
                    need_base = 0
                    for k in range(n):
                        if left[k] > 0:
                            need_base |= 1 << k
                    tracking = not streets
                section = 1
                continue
            if lk == L_STREET or lk == L_TABLE_CARD:
                if lk == L_STREET:
                    if _at(data, a, e, _FLOP):
                        p = a + len(_FLOP)
                    elif _at(data, a, e, _TURN):
                        p = a + len(_TURN)
                    elif _at(data, a, e, _RIVER):
                        p = a + len(_RIVER)
                    else:
                        return -1
                    # ` [..]` once or twice: the last is the new cards
                    if p == e:
                        return -1
                    if data[p] != 32 or data[p + 1] != 91:
                        return -1
                    q = p + 2
                    while q < e and data[q] != 93:
                        q += 1
                    if q >= e:
                        return -1
                    c0, c1 = p + 1, q + 1
                    if c1 < e:
                        if c1 + 2 > e or data[c1] != 32 or data[c1 + 1] != 91:
                            return -1
                        q = c1 + 2
                        while q < e and data[q] != 93:
                            q += 1
                        if q != e - 1:
                            return -1
                        c0, c1 = c1 + 1, e
                else:
                    c0, c1 = a + len(_TABLE_CARD) - 1, e
                clo, chi, count = _cards(data, c0, c1)
                if clo < 0 or n_board + count > 8:
                    return -1
                for k in range(n):
                    rnd[k] = 0
                    in_rnd[k] = False
                _put(body, b, h, K_DEAL, -1, -1, -1, NULL, NULL, clo, chi, D_BOARD, line)
                b += 1
                for k in range(count):
                    board[n_board] = clo + 3 * k
                    n_board += 1
                section = 1
                tracking = False
                streets = True
                continue
            if lk == L_SKIP:
                continue
            if lk != L_OTHER or not _template_is(data, i, sep, tend, begin, cls, c_tlo,
                                                  c_thi):
                return -1  # a summary's line in the play: not a note either
            c = cls[i]
            if c_op[c] != OP_NOTE:
                return -1
            _put(body, b, h, K_NOTE, -1, -1, -1, NULL, NULL, -1, -1, D_NOTES + c_arg[c], line)
            b += 1
            continue
        # a player's line: who
        k = -1
        for j in range(n):
            if _label_is(data, a, s_at, name_lo[j], name_hi[j], _NOTHING):
                k = j
                break
        if k < 0:
            for j in range(n):  # `X` for the seat `X [ME]`
                if name_hi[j] - name_lo[j] > 5 and _is(data, name_hi[j] - 5, name_hi[j], _ME):
                    if _label_is(data, a, s_at, name_lo[j], name_hi[j] - 5, _NOTHING):
                        k = j
                        break
        if k < 0:
            for j in range(n):  # `X [ME]` for the seat `X`
                if _label_is(data, a, s_at, name_lo[j], name_hi[j], _ME):
                    k = j
                    break
        if k < 0:
            return -1
        nlo, nhi = name_lo[k], name_hi[k]
        s = seat_no[k]
        twice = False
        flags = 0
        if lk == L_PLAYER:
            if not _template_is(data, i, sep, tend, begin, cls, c_tlo, c_thi):
                return -1
            flags = c_flags[cls[i]]
            twice = (flags & 2) != 0
        elif lk == L_REFUSED:
            return -1
        if twice and prev >= 0 and _is(data, begin[prev], hi[prev], data[a:e]):
            # the same chips moved twice in a row by one player: the log repeats the line
            if _at(data, a, e, _FLOP) or _at(data, a, e, _TURN) or _at(data, a, e, _RIVER) \
                    or _at(data, a, e, _TABLE_CARD_WORDS):
                return -1
            _put(body, b, h, K_NOTE, -1, -1, -1, NULL, NULL, -1, -1, D_REPEATED, line)
            b += 1
            repeated = True
            continue
        prev = i
        # the blinds as posted, up to the first card or action
        if scanning:
            if lk == L_DEALT or lk == L_FOLD_SHOW:  # `Card dealt`, `Fold`
                scanning = False
            elif lk == L_PLAYER:
                code = flags >> 3
                if code != S_NONE:
                    last0, last1 = (y0[i], y1[i]) if y0[i] >= 0 else (x0[i], x1[i])
                    if code == S_SB:
                        if posted_sb == NULL:
                            if last0 < 0:
                                return -1
                            good, posted_sb = _money(data, last0, last1, mpu)
                            if not good:
                                return -1
                    elif code == S_BB or (code == S_BB_ALLIN and _at(data, nlo, nhi,
                                                                       _BIG_BLIND)):
                        if posted_bb == NULL:
                            if last0 < 0:
                                return -1
                            good, posted_bb = _money(data, last0, last1, mpu)
                            if not good:
                                return -1
                    elif code == S_STOP:
                        scanning = False
        if lk == L_DEALT:
            if shown:
                return -1
            if dealt_lo[k] < 0:
                clo, chi, count = _cards(data, s_at + 3 + len(_SPOT) - 1, e)
                if clo < 0:
                    return -1
                dealt_lo[k], dealt_hi[k], dealt_line[k], dealt_n[k] = clo, chi, line, count
            continue
        if lk == L_SET_DEALER:
            # `[k]` at its end read as the fast path reads it; else the parser's
            q = e
            while q > s_at and data[q - 1] != 91:
                q -= 1
            if q > s_at + 3:
                if data[e - 1] != 93 or q == e - 1 or e - 1 - q > 9:
                    return -1
                dealer_k = 0
                for j in range(q, e - 1):
                    if not _digit(data[j]):
                        return -1
                    dealer_k = dealer_k * 10 + data[j] - 48
            continue
        if lk == L_FOLD_SHOW:
            plays[k] = True
            if not folded[k]:
                folded[k] = True
                _put(body, b, h, K_FOLD, s, nlo, nhi, NULL, NULL, -1, -1, -1, line)
                b += 1
            _put(body, b, h, K_NOTE, s, nlo, nhi, NULL, NULL, -1, -1, D_SHOWS_FOLDED, line)
            b += 1
            continue
        if lk == L_SHOW or lk == L_MUCK or lk == L_NO_SHOW:
            plays[k] = True
            shown = True
            if out < 0:
                out = 0
                for j in range(n):
                    if dealt_lo[j] < 0 and not plays[j]:
                        out |= 1 << j
            clo, chi = -1, -1
            if holes_at >= 0 and not (out >> k) & 1:
                if dealt_lo[k] >= 0:
                    clo, chi = dealt_lo[k], dealt_hi[k]
                else:
                    clo, chi = unknown[0, 1 if omaha else 0], unknown[1, 1 if omaha else 0]
            if lk == L_SHOW:
                if clo < 0:
                    clo, chi = unknown[0, 0], unknown[1, 0]
                _put(body, b, h, K_SHOW, s, nlo, nhi, NULL, NULL, clo, chi, -1, line)
            elif lk == L_MUCK:
                _put(body, b, h, K_MUCK, s, nlo, nhi, NULL, NULL, clo, chi, -1, line)
            else:
                n_out = 0
                n_folded = 0
                for j in range(n):
                    n_out += (out >> j) & 1
                    n_folded += folded[j]
                if n - n_out - n_folded <= 1:
                    _put(body, b, h, K_NOTE, s, nlo, nhi, NULL, NULL, -1, -1, D_NO_SHOW, line)
                else:
                    _put(body, b, h, K_MUCK, s, nlo, nhi, NULL, NULL, clo, chi, -1, line)
            b += 1
            continue
        c = cls[i]
        op = c_op[c]
        if flags & 1:
            plays[k] = True
        if flags & 4:
            antes = True
        if op == OP_BAD:
            return -1
        acting = tracking and (op == OP_FOLD or op == OP_CHECK or op == OP_CALL or
                               op == OP_BET or op == OP_RAISE or op == OP_ALLIN)
        if acting:
            if need < 0:
                if out < 0:
                    out = 0
                    for j in range(n):
                        if dealt_lo[j] < 0 and not plays[j]:
                            out |= 1 << j
                need = need_base & ~out
            if need == 0 and n_board < 5:
                return -1  # a street the log does not write: the parser's
        b_before = b
        xa, xb = x0[i], x1[i]
        if op == OP_FOLD:
            folded[k] = True
            _put(body, b, h, K_FOLD, s, nlo, nhi, NULL, NULL, -1, -1, -1, line)
            b += 1
            if need >= 0:
                need &= ~(1 << k)
            continue
        if op == OP_CHECK:
            _put(body, b, h, K_CHECK, s, nlo, nhi, NULL, NULL, -1, -1, -1, line)
            b += 1
            if need >= 0:
                need &= ~(1 << k)
            continue
        if op == OP_NOTE:
            _put(body, b, h, K_NOTE, s, nlo, nhi, NULL, NULL, -1, -1, D_NOTES + c_arg[c], line)
            b += 1
            continue
        if xa < 0:
            return -1
        good, amt = _money(data, xa, xb, mpu)
        if not good:
            return -1
        if op == OP_POST:
            post = c_arg[c]
            if post == D_ANTE:
                anted[k] = True
                if ante == 0:
                    ante = amt
                left[k] -= amt
                put[k] += amt
                _put(body, b, h, K_POST, s, nlo, nhi, amt, NULL, -1, -1, D_ANTE, line)
            else:
                left[k] -= amt
                rnd[k] += amt
                in_rnd[k] = True
                put[k] += amt
                _put(body, b, h, K_POST, s, nlo, nhi, amt, rnd[k], -1, -1, post, line)
            b += 1
            continue
        if op == OP_CALL or op == OP_BET:
            stack = left[k]
            left[k] = stack - amt
            rnd[k] += amt
            in_rnd[k] = True
            put[k] += amt
            _put(body, b, h, K_CALL if op == OP_CALL else K_BET, s, nlo, nhi, amt, rnd[k], -1,
                 -1, D_ALL_IN if amt > 0 and amt == stack else -1, line)
            b += 1
        elif op == OP_RAISE:
            to = amt
            if y0[i] >= 0:
                good, to = _money(data, y0[i], y1[i], mpu)
                if not good:
                    return -1
            added = to - rnd[k]
            if added < 0:
                return -1
            stack = left[k]
            left[k] = stack - added
            rnd[k] = to
            in_rnd[k] = True
            put[k] += added
            _put(body, b, h, K_RAISE, s, nlo, nhi, added, to, -1, -1,
                 D_ALL_IN if added > 0 and added == stack else -1, line)
            b += 1
        elif op == OP_ALLIN and section == 0:
            if not antes:
                allin_before_antes = True
            if antes and not anted[k]:
                left[k] -= amt
                put[k] += amt
                _put(body, b, h, K_POST, s, nlo, nhi, amt, NULL, -1, -1, D_ANTE, line)
            else:
                if _base_is(data, nlo, nhi, _SMALL_BLIND):
                    post = D_SB
                elif _base_is(data, nlo, nhi, _BIG_BLIND):
                    post = D_BB
                elif _base_is(data, nlo, nhi, _DEALER) and not has_sb_label:
                    post = D_SB
                else:
                    post = D_NEW_PLAYER
                left[k] -= amt
                rnd[k] += amt
                in_rnd[k] = True
                put[k] += amt
                _put(body, b, h, K_POST, s, nlo, nhi, amt, rnd[k], -1, -1, post, line)
            b += 1
        elif op == OP_ALLIN:
            stack, before = left[k], rnd[k]
            if y0[i] >= 0 or c_arg[c] == 1:
                if y0[i] >= 0:
                    good, to = _money(data, y0[i], y1[i], mpu)
                    if not good:
                        return -1
                elif amt == before + stack or amt != stack:
                    to = amt
                else:
                    to = before + amt
                added = to - before
                if added < 0:
                    return -1
                all_in = added == stack
            else:
                added = amt
                all_in = amt == stack
            top = 0
            for j in range(n):
                if in_rnd[j] and rnd[j] > top:
                    top = rnd[j]
            verb = K_BET if top == 0 else (K_CALL if before + added <= top else K_RAISE)
            left[k] = stack - added
            rnd[k] = before + added
            in_rnd[k] = True
            put[k] += added
            _put(body, b, h, verb, s, nlo, nhi, added, rnd[k], -1, -1,
                 D_ALL_IN if all_in or (added > 0 and added == stack) else -1, line)
            b += 1
        elif op == OP_UNCALLED or op == OP_RESULT or op == OP_SIDE:
            pot = 1 if op == OP_SIDE else 0
            if side_first < 0:
                side_first = pot
            if op == OP_UNCALLED:
                uncalled = True
            _put(awards, n_award, h, K_AWARD, s, nlo, nhi, amt, pot, -1, -1,
                 D_UNCALLED if op == OP_UNCALLED else (D_SIDE if pot else D_MAIN), line)
            n_award += 1
        else:
            return -1
        if acting and b > b_before:
            v = body[1, b - 1]
            if v == K_BET or v == K_RAISE:
                need = 0
                for j in range(n):
                    if not (out >> j) & 1 and not folded[j] and left[j] > 0 and j != k:
                        need |= 1 << j
            elif v != K_POST:
                need &= ~(1 << k)
            if left[k] == 0:
                need &= ~(1 << k)
    if not has_summary:
        return -1
    # --- what the parser knew before the play, checked ---------------------------------------
    sitting = 0
    for k in range(n):
        if dealt_lo[k] < 0 and not plays[k]:
            sitting |= 1 << k
    if out >= 0 and out != sitting:
        return -1
    if allin_before_antes and antes:
        return -1
    if omaha:
        first_dealt = -1
        at = 1 << 62
        for k in range(n):
            if dealt_lo[k] >= 0 and dealt_line[k] < at:
                at = dealt_line[k]
                first_dealt = k
        if first_dealt >= 0 and (dealt_n[first_dealt] == 5 or dealt_n[first_dealt] == 6):
            return -1  # five- or six-card Omaha: the fast path's
    button_note = False
    if dealer >= 0:
        button = seat_no[dealer]
    elif has_sb_label:
        button = -1
        for k in range(n):
            if _base_is(data, name_lo[k], name_hi[k], _SMALL_BLIND):
                button = seat_no[k] - 1
                break
        button_note = True
    elif dealer_k >= 0 and (not renumbered or dealer_k <= n) and dealer_k < 128:
        button = dealer_k
    else:
        return -1
    sb, bb = table_sb, table_bb
    sb_assumed = False
    if bb == NULL:
        bb = posted_bb
        sb = posted_sb
        if bb == NULL:
            return -1
        if sb == NULL:  # no dead chips here: half the big blind, the source says so
            sb = bb // 2
            sb_assumed = True
    if prm[8]:
        per[3, h] = posted_sb if posted_sb != NULL else sb
    else:
        per[3, h] = sb
    per[4, h] = bb
    per[5, h] = prm[8]
    # --- the rows: started, seats, the body with the hole cards, awards, rake, end -------------
    start = r
    detail = D_STARTED
    if not uncalled:
        top = second = 0
        count = 0
        for k in range(n):  # the seats that put chips in (a post of 0 too)
            if put[k] > 0 or _put_any(body, b, seat_no[k]):
                count += 1
                if put[k] > top:
                    second = top
                    top = put[k]
                elif put[k] > second:
                    second = put[k]
        if count > 1 and top > second:
            detail += 1
    if not rake_seen:
        detail += 2
    _put(rows, r, h, K_STARTED, -1, -1, -1, NULL, NULL, -1, -1, detail, i0 + 1)
    r += 1
    for k in range(n):
        _put(rows, r, h, K_SEAT, seat_no[k], name_lo[k], name_hi[k], stack0[k], NULL, -1, -1,
             D_SITTING_OUT if (sitting >> k) & 1 else -1, seat_line[k])
        r += 1
    for j in range(b + 1):
        if j == holes_at:
            for k in range(n):  # seats are in rising order
                if (sitting >> k) & 1:
                    continue
                if dealt_lo[k] >= 0:
                    _put(rows, r, h, K_DEAL, seat_no[k], name_lo[k], name_hi[k], NULL, NULL,
                         dealt_lo[k], dealt_hi[k], D_HOLE, dealt_line[k])
                else:
                    u = 1 if n_hole == 4 else 0
                    _put(rows, r, h, K_DEAL, seat_no[k], name_lo[k], name_hi[k], NULL, NULL,
                         unknown[0, u], unknown[1, u], D_HOLE, holes_line)
                r += 1
        if j < b:
            for f in range(11):
                rows[f, r] = body[f, j]
            r += 1
    for pot in (side_first, 1 - side_first):
        for j in range(n_award):
            if awards[6, j] == pot:
                for f in range(11):
                    rows[f, r] = awards[f, j]
                rows[6, r] = NULL
                r += 1
    if rake_seen and rake != 0:
        _put(rows, r, h, K_RAKE, -1, -1, -1, rake, NULL, -1, -1, D_RAKE, rake_line)
        r += 1
    _put(rows, r, h, K_ENDED, -1, -1, -1, NULL, NULL, -1, -1,
         D_TOTAL if total_pot != NULL else -1, last_line)
    r += 1
    per[0, h] = button
    per[1, h] = ante
    per[2, h] = total_pot
    per[6, h] = detail
    per[7, h] = dollars
    per[8, h] = renumbered
    per[9, h] = repeated
    per[10, h] = button_note
    per[11, h] = sb_assumed
    if r <= start:
        return -1
    return r


@njit(cache=True, nogil=True)
def _put_any(body, b, seat):
    """Whether the body holds a post, call, bet or raise of `seat` (an amount of 0 too)."""
    for j in range(b):
        if body[2, j] == seat and (body[1, j] == K_POST or body[1, j] == K_CALL or
                                   body[1, j] == K_BET or body[1, j] == K_RAISE):
            return True
    return False
