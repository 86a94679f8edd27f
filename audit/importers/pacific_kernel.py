"""The 888poker compiled pass (numba, cached): a file's hands read straight from its bytes into
event columns, check for check as the Python fast path (`pacific._fast_888`) reads them.

`header_lines` tells the hands' first lines as `pacific._Header` does (a `#Game No : N` line,
or a room line `***** <room> Hand History for Game N *****` not right after one); a file with a
line it cannot tell for sure (an odd line, a candidate header line holding a non-ASCII byte)
is given no header at all, and `compiledtext.read_compiled` leaves it to the Python reader.
`heads` finds each hand's stakes line (its clock cut off: `key`) and table line, read once per
text in Python by the line parser's own regular expressions. `hands` reads every hand whose
stakes and table were read, line by line: the game number (`#Game No` and the room line), the
clock, the button and player count lines, the seats, posts of blinds, antes and dead blinds,
the deal, `Dealt to` lines, folds, checks, calls, bets, raises, streets, shows, mucks, `did
not show his hand`, collections, the summary and the `(Hi: ..)` layout lines. A hand holding
anything else (a note, an all-in line, a name with a space or a character a name line cannot
start with, an amount with a currency code or a tab, a card-like `7p` next to a non-ASCII
character, cards that do not read, more than `MAX_SEATS` seats, ...) is not read (`ok`
False): the Python fast path and the line parser read it, and its rows are not kept.

Cards are written as the reader writes them (`Kn` -> `J`, `10` -> `T`, suits lowered, Spanish
suits read as such) into the
card area of `data` (from `card_at` on). Row columns: hand (index), kind (`KINDS`), seat (-1:
null), player and cards spans (lo -1: null), amount and total (`NULL`: null), detail
(`DETAILS`, -1 null), line (1-based). Per hand (`HAND_FIELDS`): the game number's span, the
button, the seat count (-1: none), the game's ante, the clock (microseconds since 1970 UTC;
`NULL`: none), whether no one collected a pot that was put in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.ggpoker_kernel import _days, _seat_of, _two
from audit.importers.ggpoker_kernel import _row as _gg_row
from audit.importers.pokerstars.kernel import _at, _b, _digit, _is
from audit.importers.textkernel import _space, prefix_index, same, text_fill, text_sizes

NULL = np.iinfo(np.int64).min
MAX_SEATS = 16

ROW_FIELDS = ("hand", "kind", "seat", "player_lo", "player_hi", "amount", "total", "cards_lo",
              "cards_hi", "detail", "line")
HAND_FIELDS = ("no_lo", "no_hi", "button", "seat_count", "ante", "micros", "absent")
KINDS = ("hand_started", "seat", "post", "fold", "check", "call", "bet", "raise", "deal",
         "show", "muck", "award", "hand_ended")
(K_STARTED, K_SEAT, K_POST, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_DEAL, K_SHOW, K_MUCK,
 K_AWARD, K_ENDED) = range(len(KINDS))
DETAILS = ("refunds=implicit;rake=implicit", "sitting_out", "ante", "small_blind", "big_blind",
           "new_player", "dead", "all_in", "hole", "board", "main", "winnings=absent")
(D_STARTED, D_SITTING_OUT, D_ANTE, D_SB, D_BB, D_NEW_PLAYER, D_DEAD, D_ALL_IN, D_HOLE, D_BOARD,
 D_MAIN, D_ABSENT) = range(len(DETAILS))

_GAME_NO = _b("#Game No")
_STARS = _b("*****")
_HISTORY = _b(" Hand History For Game ")  # `F` or `f`
_DATE_LEAD = _b(" - ***")
_SEAT = _b("Seat ")
_IS_BUTTON = _b(" is the button")
_PLAYERS = _b("Total number of players")
_DEALT_TO = _b("Dealt to ")
_DOWN = _b("** Dealing down cards **")
_DEALING = _b("** Dealing ")
_FLOP, _TURN, _RIVER = _b("flop"), _b("turn"), _b("river")
_STREET_END = _b(" ** [")
_SUMMARY = _b("** Summary **")
_FOLDS, _CHECKS, _NO_SHOW = _b("folds"), _b("checks"), _b("did not show his hand")
_CALLS, _BETS, _RAISES = _b("calls"), _b("bets"), _b("raises")
_P_SB, _P_BB, _P_ANTE, _P_DEAD = (_b("posts small blind"), _b("posts big blind"),
                                  _b("posts ante"), _b("posts dead blind"))
_POSTS = _b("posts ")
_SHOWS, _MUCKS, _COLLECTED = _b("shows"), _b("mucks"), _b("collected")
# a player's verb and the kind of its row (a post: 100 + its detail)
_VERBS = (_CALLS, _BETS, _RAISES, _P_SB, _P_BB, _P_ANTE, _P_DEAD, _SHOWS, _MUCKS, _COLLECTED)
_VERB_CODES = (K_CALL, K_BET, K_RAISE, D_SB + 100, D_BB + 100, D_ANTE + 100, D_DEAD + 100, K_SHOW,
               K_MUCK, K_AWARD)
_HI, _LO, _HIGH, _LOW = _b("(Hi: "), _b("(Lo: "), _b("(High: "), _b("(Low: ")
_PLUS = _b(" + ")


@njit(cache=True, nogil=True)
def _ascii(data, p, end):
    for k in range(p, end):
        if data[k] >= 128:
            return False
    return True


@njit(cache=True, nogil=True)
def _game_no(data, p, end):
    """`^#Game No ?: ?(\\d+)\\s*$` at data[p:end] (stripped, ASCII): the number's start, or
    -1."""
    if not _at(data, p, end, _GAME_NO):
        return -1
    q = p + len(_GAME_NO)
    if q < end and data[q] == 32:
        q += 1
    if q >= end or data[q] != 58:
        return -1
    q += 1
    if q < end and data[q] == 32:
        q += 1
    d = q
    while q < end and _digit(data[q]):
        q += 1
    if q == d or q != end:
        return -1
    return d


@njit(cache=True, nogil=True)
def _room(data, p, end):
    """`^\\*{5} ?[^*]*?\\S Hand History [Ff]or Game (\\d+) ?\\*{5}$` at data[p:end] (ASCII,
    right-stripped): the number's start (it ends at `_room_end`), or -1."""
    if end - p < 2 * len(_STARS) + len(_HISTORY) + 2 or not _at(data, p, end, _STARS):
        return -1
    if not _at(data, end - len(_STARS), end, _STARS):
        return -1
    q = _room_end(data, end)
    d = q
    while d > p and _digit(data[d - 1]):
        d -= 1
    if d == q:
        return -1
    k = d - len(_HISTORY)
    if k <= p + len(_STARS):
        return -1
    for j in range(len(_HISTORY)):
        c = data[k + j]
        if c != _HISTORY[j] and not (j == 14 and c == 102):  # `for`
            return -1
    if _space(data[k - 1]):
        return -1
    for j in range(p + len(_STARS), k):
        if data[j] == 42:
            return -1
    return d


@njit(cache=True, nogil=True)
def _room_end(data, end):
    q = end - len(_STARS)
    if data[q - 1] == 32:
        q -= 1
    return q


@njit(cache=True, nogil=True)
def header_lines(data, begin, lo, hi, odd, out):
    """Fill out[i]: line i starts a hand, as `pacific._Header.match` tells it line by line
    (the line as read: its left spaces kept); the number of lines it cannot tell (then every
    out[i] is False)."""
    after = False
    for i in range(len(begin)):
        out[i] = False
    for i in range(len(begin)):
        b, e = begin[i], hi[i]
        if odd[i] or (_at(data, b, e, _GAME_NO) or _at(data, b, e, _STARS)) and \
                not _ascii(data, b, e):
            for j in range(len(begin)):
                out[j] = False
            return 1
        if _at(data, b, e, _GAME_NO):
            if _game_no(data, b, e) >= 0:
                out[i] = True
                after = True
                continue
            after = False
        elif lo[i] == e:
            continue
        elif _at(data, b, e, _STARS):
            if not after and _room(data, b, e) >= 0:
                out[i] = True
            after = False
        else:
            after = False
    return 0


@njit(cache=True, nogil=True)
def _next(lo, hi, i, i1):
    """The first non-blank line at or after i (i1 when none)."""
    while i < i1 and lo[i] == hi[i]:
        i += 1
    return i


@njit(cache=True, nogil=True)
def _date(data, lo, e):
    """` dd mm yyyy hh:mm:ss` ending data[lo:e], after ` - ***`: (its start or -1,
    microseconds since 1970 UTC or `NULL` when it is not a valid date)."""
    p = e - 20
    if p - len(_DATE_LEAD) < lo or not _at(data, p - len(_DATE_LEAD), e, _DATE_LEAD):
        return -1, NULL
    if data[p] != 32 or data[p + 3] != 32 or data[p + 6] != 32 or data[p + 11] != 32 or \
            data[p + 14] != 58 or data[p + 17] != 58:
        return -1, NULL
    d, mo = _two(data, p + 1), _two(data, p + 4)
    y1, y2 = _two(data, p + 7), _two(data, p + 9)
    hh, mi, ss = _two(data, p + 12), _two(data, p + 15), _two(data, p + 18)
    if min(d, mo, y1, y2, hh, mi, ss) < 0:
        return -1, NULL
    y = y1 * 100 + y2
    if y < 1 or not 1 <= mo <= 12 or d < 1 or hh > 23 or mi > 59 or ss > 59:
        return p, NULL
    dim = 31
    if mo == 2:
        dim = 29 if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else 28
    elif mo in (4, 6, 9, 11):
        dim = 30
    if d > dim:
        return p, NULL
    return p, (((_days(y, mo, d) * 24 + hh) * 60 + mi) * 60 + ss) * 1000000


@njit(cache=True, nogil=True)
def heads(data, lo, hi, first, last, out):
    """Fill out[:, h] of each hand: (stakes key lo, hi, table line lo, hi, clock state, clock)
    -- the stakes line with its clock cut off; state 1: a valid clock (microseconds since 1970
    UTC), 0: none, -1: a clock that is no date (lo -1: the hand has no such lines; it is the
    Python paths')."""
    for h in range(len(first)):
        out[0, h] = -1
        i0, i1 = first[h], last[h]
        i = _next(lo, hi, i0, i1)
        if i < i1 and _game_no(data, lo[i], hi[i]) >= 0:
            i = _next(lo, hi, i + 1, i1)
        if i >= i1:
            continue
        i = _next(lo, hi, i + 1, i1)  # the room line (read by `hands`)
        if i >= i1:
            continue
        j = _next(lo, hi, i + 1, i1)
        if j >= i1:
            continue
        a, e = lo[i], hi[i]
        cut, micros = _date(data, a, e)
        out[0, h] = a
        out[1, h] = cut if cut >= 0 else e
        out[2, h] = lo[j]
        out[3, h] = hi[j]
        out[4, h] = 0 if cut < 0 else (1 if micros != NULL else -1)
        out[5, h] = micros


@njit(cache=True, nogil=True)
def _plain_name(data, p, end):
    """The end of a one-word name at data[p:end] (`[^\\s:*()\\[\\]#]+`, no byte that may
    start a Unicode space), up to a space or the end."""
    q = p
    while q < end:
        c = data[q]
        if c == 32:
            break
        if _space(c) or c == 58 or c == 42 or c == 40 or c == 41 or c == 91 or c == 93 or \
                c == 35 or c == 0xC2 or c == 0xE1 or c == 0xE2 or c == 0xE3 or c == 0x85 or \
                c == 0xA0:
            return -1
        q += 1
    return q


@njit(cache=True, nogil=True)
def _gap(data, p, end):
    """The length of a space `amount_888` removes at data[p:] (a space, a no-break space,
    U+202F, U+2009), or 0."""
    c = data[p]
    if c == 32:
        return 1
    if c == 0xC2 and p + 1 < end and data[p + 1] == 0xA0:
        return 2
    if c == 0xE2 and p + 2 < end and data[p + 1] == 0x80 and data[p + 2] in (0xAF, 0x89):
        return 3
    return 0


@njit(cache=True, nogil=True)
def _symbol(data, p, end):
    """The length of a currency symbol (`$`, `€`, `£`) at data[p:], or 0."""
    c = data[p]
    if c == 36:
        return 1
    if c == 0xC2 and p + 1 < end and data[p + 1] == 0xA3:
        return 2
    if c == 0xE2 and p + 2 < end and data[p + 1] == 0x82 and data[p + 2] == 0xAC:
        return 3
    return 0


@njit(cache=True, nogil=True)
def _amount(data, p, end, mpu):
    """An amount in data[p:end] as `pacific.amount_888` and `site_money` read it: (ok, minor
    units). Spaces are left out, symbols taken off both ends; then digits with `.` or `,`
    between them: a last separator followed by one or two digits is the decimal point, any
    other groups digits. Not ok: anything else (a currency code, other spaces), more than 15
    digits, an amount finer than the unit."""
    a = p
    while a < end:  # spaces and symbols in any order before the digits
        k = _gap(data, a, end)
        if k == 0:
            k = _symbol(data, a, end)
        if k == 0:
            break
        a += k
    digits = 0
    value = 0
    after = -1  # digits after the last separator (-1: none yet)
    last_sep = False
    q = a
    while q < end:
        c = data[q]
        if _digit(c):
            value = value * 10 + c - 48
            digits += 1
            if after >= 0:
                after += 1
            last_sep = False
            q += 1
            continue
        if c == 46 or c == 44:
            if digits == 0 or last_sep:
                return False, 0
            after = 0
            last_sep = True
            q += 1
            continue
        k = _gap(data, q, end)
        if k:
            q += k
            continue
        break
    if digits == 0 or last_sep or digits > 15:
        return False, 0
    while q < end:  # only spaces and symbols after the digits
        k = _gap(data, q, end)
        if k == 0:
            k = _symbol(data, q, end)
        if k == 0:
            return False, 0
        q += k
    if after == 1 or after == 2:
        scale = 10 if after == 1 else 100
        whole, cents = value // scale, value % scale
        if mpu == 100:
            return True, whole * 100 + (cents * 10 if after == 1 else cents)
        if cents:
            return False, 0
        return True, whole * mpu
    return True, value * mpu


@njit(cache=True, nogil=True)
def _rank(data, p, n):
    """The rank letter of a card's rank text data[p:p + n] as `cards_888` reads it, or 0."""
    c = data[p]
    if n == 1:
        if 50 <= c <= 57 or c == 84 or c == 74 or c == 81 or c == 75 or c == 65:
            return c
        if c == 116 or c == 106 or c == 113 or c == 107 or c == 97:  # t j q k a
            return c - 32
        if c == 68:  # D: dam
            return 81
        if c == 69 or c == 49:  # E: ess, 1
            return 65
        return 0
    if n == 2:
        if c == 49 and data[p + 1] == 48:  # 10
            return 84
        if c == 75 and data[p + 1] == 110:  # Kn: knekt
            return 74
    return 0


@njit(cache=True, nogil=True)
def _cards(data, p, end, out_at, spanish):
    """The cards of data[p:end] (tokens split at spaces and commas) written at data[out_at:]
    as `cards_888` writes them (`spanish`: the suits p, t, d, c are s, c, d, h): their end
    there, or -1 (a token that is no card, no card)."""
    w = out_at
    q = p
    while True:
        while q < end and (data[q] == 32 or data[q] == 44):
            q += 1
        if q >= end:
            break
        t = q
        while q < end and data[q] != 32 and data[q] != 44:
            q += 1
        n = q - t
        if n < 2 or n > 3:
            return -1
        s = data[q - 1]
        if 65 <= s <= 90:
            s += 32
        if spanish:
            if s == 112:  # picas
                s = 115
            elif s == 116:  # tréboles
                s = 99
            elif s == 99:  # corazones
                s = 104
        if not (s == 99 or s == 100 or s == 104 or s == 115):
            return -1
        r = _rank(data, t, n - 1)
        if r == 0:
            return -1
        if w > out_at:
            data[w] = 32
            w += 1
        data[w] = r
        data[w + 1] = s
        w += 2
    if w == out_at:
        return -1
    return w


@njit(cache=True, nogil=True)
def _word(c):
    """An ASCII byte `\\w` matches."""
    return 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95


@njit(cache=True, nogil=True)
def _spanish(data, a, e):
    """Whether line data[a:e] holds a Spanish suit as the reader's `_SPANISH` finds it
    (`\\[[^\\]\\n]*\\b(?:[2-9TJQKA]|10)[pt]\\b`): 1 yes, 0 no, -1 not told here (a
    non-ASCII character next to a rank and a `p` or `t` inside brackets)."""
    inside = False
    for i in range(a, e):
        c = data[i]
        if c == 91:
            inside = True
            continue
        if c == 93:
            inside = False
            continue
        if not inside:
            continue
        q = i + 1
        if c == 49 and q < e and data[q] == 48:  # 10
            q += 1
        elif not (50 <= c <= 57 or c == 84 or c == 74 or c == 81 or c == 75 or c == 65):
            continue
        if q >= e or not (data[q] == 112 or data[q] == 116):
            continue
        before, after = data[i - 1], data[q + 1] if q + 1 < e else 32
        if before >= 128 or after >= 128:
            return -1  # next to a character `\\w` may match
        if not _word(before) and not _word(after):
            return 1
    return 0


@njit(cache=True, nogil=True)
def _bracket(data, p, e):
    """`verb [x]` after the verb at p: ` [` then no `]` but the last byte: x's span, or
    (-1, -1)."""
    if p + 2 > e or data[p] != 32 or data[p + 1] != 91 or data[e - 1] != 93:
        return -1, -1
    for k in range(p + 2, e - 1):
        if data[k] == 93:
            return -1, -1
    return p + 2, e - 1


@njit(cache=True, nogil=True)
def _row(rows, r, h, kind, seat, plo, phi, amount, total, clo, chi, detail, line):
    """Row r (`ROW_FIELDS`) of rows[:, r]."""
    _gg_row(r, h, kind, seat, plo, phi, amount, total, clo, chi, detail, line, rows[0], rows[1],
            rows[2], rows[3], rows[4], rows[5], rows[6], rows[7], rows[8], rows[9], rows[10])


@njit(cache=True, nogil=True)
def hands(data, lo, hi, odd, first, last, use, params, unknown_at, card_at, rows, per, ok,
          row0):
    """Read each hand (lines first[h]:last[h]; `use[h]`: its stakes and table were read;
    params[:, h]: mpu, fixed limit, hole cards) into rows[:, r] (ROW_FIELDS) and per[:, h]
    (HAND_FIELDS), ok[h] and row0; the row count (the card area's end in per[0, n])."""
    n_hands = len(first)
    name_lo = np.empty(MAX_SEATS, np.int64)
    name_hi = np.empty(MAX_SEATS, np.int64)
    seat_no = np.empty(MAX_SEATS, np.int64)
    left = np.empty(MAX_SEATS, np.int64)
    rnd = np.empty(MAX_SEATS, np.int64)
    heard = np.empty(MAX_SEATS, np.bool_)
    seat_row = np.empty(MAX_SEATS, np.int64)
    known = np.empty((3, MAX_SEATS), np.int64)
    hole = np.empty((2, MAX_SEATS), np.int64)
    r = 0
    w = card_at
    for h in range(n_hands):
        row0[h] = r
        ok[h] = False
        if not use[h]:
            continue
        got, w2 = _hand(data, lo, hi, odd, first[h], last[h], params[0, h], params[1, h],
                        params[2, h], unknown_at, w, rows, r, h, per, name_lo, name_hi,
                        seat_no, left, rnd, heard, seat_row, known, hole)
        if got > r:
            ok[h] = True
            r = got
            w = w2
    row0[n_hands] = r
    return r, w


@njit(cache=True, nogil=True)
def _hand(data, lo, hi, odd, i0, i1, mpu, fixed, n_hole, unknown_at, w, rows, r, h, per,
          name_lo, name_hi, seat_no, left, rnd, heard, seat_row, known, hole):
    """One hand's rows from row r on (cards written from w on): (row count after them, card
    area end), or (-1, w) when the hand is not read here."""
    for i in range(i0, i1):
        if odd[i]:
            return -1, w
    if rows.shape[1] - r < 2 * (i1 - i0) + MAX_SEATS + 4:
        return -1, w
    number = i0 + 1
    i = _next(lo, hi, i0, i1)
    no = _game_no(data, lo[i], hi[i])
    no_end = hi[i]
    if no >= 0:
        i = _next(lo, hi, i + 1, i1)
        if i >= i1:
            return -1, w
    if not _ascii(data, lo[i], hi[i]):
        return -1, w
    d = _room(data, lo[i], hi[i])
    if d < 0:
        return -1, w
    d_end = _room_end(data, hi[i])
    if no >= 0:
        if not same(data, no, no_end, d, d_end):
            return -1, w
    else:
        no, no_end = d, d_end
    i = _next(lo, hi, i + 1, i1)  # the stakes line
    i = _next(lo, hi, i + 1, i1)  # the table line (both read by `heads`)
    i = _next(lo, hi, i + 1, i1)
    button = -1
    seats = -1
    while i < i1:
        a, e = lo[i], hi[i]
        if _at(data, a, e, _SEAT) and _is(data, e - len(_IS_BUTTON), e, _IS_BUTTON):
            p, q = a + len(_SEAT), e - len(_IS_BUTTON)
            if q <= p or q - p > 3:
                return -1, w
            button = 0
            for k in range(p, q):
                if not _digit(data[k]):
                    return -1, w
                button = button * 10 + data[k] - 48
            if button > 127:
                return -1, w
        elif _at(data, a, e, _PLAYERS):
            p = a + len(_PLAYERS)
            if p < e and data[p] == 32:
                p += 1
            if p >= e or data[p] != 58:
                return -1, w
            p += 1
            if p < e and data[p] == 32:
                p += 1
            q = p
            while q < e and _digit(data[q]):
                q += 1
            if q == p:
                return -1, w
            if q < e:
                if data[q] == 32:
                    q += 1
                if q >= e or data[q] != 47:
                    return -1, w
                q += 1
                if q < e and data[q] == 32:
                    q += 1
                p = q
                while q < e and _digit(data[q]):
                    q += 1
                if q == p or q != e or q - p > 3:
                    return -1, w
                if seats < 0 and per[3, h] < 0:
                    count = 0
                    for k in range(p, q):
                        count = count * 10 + data[k] - 48
                    if count > 127:
                        return -1, w
                    seats = count
        else:
            break
        i = _next(lo, hi, i + 1, i1)
    # started: its row first, the seats after it
    start = r
    _row(rows, r, h, K_STARTED, -1, -1, -1, NULL, NULL, -1, -1, D_STARTED, number)
    r += 1
    n = 0
    while i < i1:
        a, e = lo[i], hi[i]
        if not _at(data, a, e, _SEAT):
            break
        p = a + len(_SEAT)
        s = 0
        q = p
        while q < e and _digit(data[q]):
            s = s * 10 + data[q] - 48
            q += 1
        if q == p or q - p > 3 or q + 2 > e or data[q] != 58 or data[q + 1] != 32:
            break  # not a seat line: the body's (where it is not read)
        nl = q + 2
        ne = _plain_name(data, nl, e)
        if ne <= nl or ne + 2 > e or data[ne + 1] != 40 or data[e - 1] != 41:
            return -1, w
        if ne - nl == 5 and data[nl] == 68 and data[nl + 1] == 101 and data[nl + 2] == 97 \
                and data[nl + 3] == 108 and data[nl + 4] == 116:  # `Dealt`
            return -1, w
        good, stack = _amount(data, ne + 2, e - 1, mpu)
        if not good or not 1 <= s <= 127 or n >= MAX_SEATS:
            return -1, w
        for k in range(n):
            if seat_no[k] == s or same(data, name_lo[k], name_hi[k], nl, ne):
                return -1, w
        name_lo[n] = nl
        name_hi[n] = ne
        seat_no[n] = s
        left[n] = stack
        rnd[n] = 0
        heard[n] = False
        known[0, n] = -1
        hole[0, n] = -1
        seat_row[n] = r
        _row(rows, r, h, K_SEAT, s, nl, ne, stack, NULL, -1, -1, -1, i + 1)
        r += 1
        n += 1
        i = _next(lo, hi, i + 1, i1)
    if n == 0 or button < 0:
        return -1, w
    body = i
    spanish = False
    for i in range(body, i1):
        got = _spanish(data, lo[i], hi[i])
        if got < 0:
            return -1, w
        if got:
            spanish = True
            break
    # who is heard (a line starts with the name, or `Dealt to NAME`), the cards dealt
    for i in range(body, i1):
        a, e = lo[i], hi[i]
        if a == e:
            continue
        if _at(data, a, e, _DEALT_TO):
            p = a + len(_DEALT_TO)
            c = p
            while c + 1 < e and not (data[c] == 32 and data[c + 1] == 91):
                c += 1
            if c + 1 >= e:
                c = e
            k = _seat_of(data, name_lo, name_hi, n, p, c)
            if k >= 0:
                heard[k] = True
            if c < e and data[e - 1] == 93:  # `Dealt to NAME [CARDS]`
                if k < 0:
                    return -1, w
                end = _cards(data, c + 2, e - 1, w, spanish)
                if end < 0:
                    return -1, w
                known[0, k] = w
                known[1, k] = end
                known[2, k] = i + 1
                w = end
            continue
        q = a
        while q < e and data[q] != 32 and data[q] != 58:
            q += 1
        k = _seat_of(data, name_lo, name_hi, n, a, q)
        if k >= 0:
            heard[k] = True
    for k in range(n):
        if not heard[k]:
            rows[9, seat_row[k]] = D_SITTING_OUT
    section = 0  # pre, play, summary
    dealt = False
    big_posted = False
    ended = False
    awards = 0
    put = 0
    ante = 0
    last = number
    for i in range(body, i1):
        a, e = lo[i], hi[i]
        if a == e:
            continue
        last = i + 1
        q = a
        while q < e and data[q] != 32:
            q += 1
        k = _seat_of(data, name_lo, name_hi, n, a, q)
        if k < 0:
            if _is(data, a, e, _DOWN):
                if section != 0:
                    return -1, w
                r = _deal(rows, r, h, n, seat_no, name_lo, name_hi, heard, known, hole,
                          unknown_at, n_hole, i + 1)
                dealt = True
                section = 1
            elif _at(data, a, e, _DEALT_TO):
                if data[e - 1] != 93:
                    return -1, w
                p = a + len(_DEALT_TO)
                c = p
                while c + 1 < e and not (data[c] == 32 and data[c + 1] == 91):
                    c += 1
                if c + 1 >= e or c == p:
                    return -1, w
            elif _at(data, a, e, _DEALING):
                p = a + len(_DEALING)
                if _at(data, p, e, _FLOP) or _at(data, p, e, _TURN):
                    p += 4
                elif _at(data, p, e, _RIVER):
                    p += 5
                else:
                    return -1, w
                if not _at(data, p, e, _STREET_END) or data[e - 1] != 93:
                    return -1, w
                if section == 0:
                    r = _deal(rows, r, h, n, seat_no, name_lo, name_hi, heard, known, hole,
                              unknown_at, n_hole, i + 1)
                    dealt = True
                section = 1
                for j in range(n):
                    rnd[j] = 0
                end = _cards(data, p + len(_STREET_END), e - 1, w, spanish)
                if end < 0:
                    return -1, w
                _row(rows, r, h, K_DEAL, -1, -1, -1, NULL, NULL, w, end, D_BOARD, i + 1)
                r += 1
                w = end
            elif _is(data, a, e, _SUMMARY):
                section = 2
                ended = True
            elif _at(data, a, e, _HI) or _at(data, a, e, _LO) or _at(data, a, e, _HIGH) or \
                    _at(data, a, e, _LOW):
                if data[e - 1] != 41:
                    return -1, w
                for j in range(a + 1, e - 1):
                    if data[j] == 41:
                        return -1, w
            else:
                return -1, w
            continue
        s = seat_no[k]
        p = q + 1  # the rest after `NAME `
        if q >= e:
            return -1, w
        if _is(data, p, e, _FOLDS) or _is(data, p, e, _CHECKS):
            if section == 2:
                return -1, w
            if not dealt:
                r = _deal(rows, r, h, n, seat_no, name_lo, name_hi, heard, known, hole,
                          unknown_at, n_hole, i + 1)
                dealt = True
                section = 1
            _row(rows, r, h, K_FOLD if data[p] == 102 else K_CHECK, s, name_lo[k],
                 name_hi[k], NULL, NULL, -1, -1, -1, i + 1)
            r += 1
            continue
        if _is(data, p, e, _NO_SHOW):
            clo, chi = -1, -1
            if hole[0, k] >= 0 and hole[0, k] != unknown_at:  # known cards only
                clo, chi = hole[0, k], hole[1, k]
            _row(rows, r, h, K_MUCK, s, name_lo[k], name_hi[k], NULL, NULL, clo, chi, -1,
                 i + 1)
            r += 1
            continue
        j = prefix_index(data, p, e, _VERBS)
        if j < 0:
            return -1, w
        verb, v = _VERB_CODES[j], p + len(_VERBS[j])
        x0, x1 = _bracket(data, v, e)
        if x0 < 0:
            return -1, w
        if verb == K_CALL or verb == K_BET or verb == K_RAISE:
            if section == 2:
                return -1, w
            good, added = _amount(data, x0, x1, mpu)
            if not good:
                return -1, w
            if not dealt:
                r = _deal(rows, r, h, n, seat_no, name_lo, name_hi, heard, known, hole,
                          unknown_at, n_hole, i + 1)
                dealt = True
                section = 1
            stack = left[k]
            left[k] = stack - added
            total = rnd[k] + added
            rnd[k] = total
            put += added
            _row(rows, r, h, verb, s, name_lo[k], name_hi[k], added, total, -1, -1,
                 D_ALL_IN if added > 0 and added == stack else -1, i + 1)
            r += 1
            continue
        if verb >= 100:
            if section != 0:
                return -1, w
            if verb == D_DEAD + 100:
                c = x0
                while c + 3 <= x1 and not _at(data, c, x1, _PLUS):
                    c += 1
                if c + 3 > x1 or c == x0:
                    return -1, w
                good, dead = _amount(data, x0, c, mpu)
                good2, live = _amount(data, c + 3, x1, mpu)
                if not good or not good2 or data[c - 1] == 32 or c + 3 >= x1 or \
                        data[c + 3] == 32:
                    return -1, w
                if dead:
                    left[k] -= dead
                    put += dead
                    _row(rows, r, h, K_POST, s, name_lo[k], name_hi[k], dead, NULL, -1, -1,
                         D_DEAD, i + 1)
                    r += 1
                if live:
                    left[k] -= live
                    put += live
                    total = rnd[k] + live
                    rnd[k] = total
                    _row(rows, r, h, K_POST, s, name_lo[k], name_hi[k], live, total, -1, -1,
                         D_NEW_PLAYER, i + 1)
                    r += 1
                continue
            if v != x0 - 2:
                return -1, w
            good, amt = _amount(data, x0, x1, mpu)
            if not good:
                return -1, w
            left[k] -= amt
            put += amt
            if verb == D_ANTE + 100:
                if amt > ante:
                    ante = amt
                _row(rows, r, h, K_POST, s, name_lo[k], name_hi[k], amt, NULL, -1, -1, D_ANTE,
                     i + 1)
                r += 1
                continue
            detail = verb - 100
            if detail == D_BB:
                if big_posted:
                    detail = D_NEW_PLAYER
                big_posted = True
            total = rnd[k] + amt
            rnd[k] = total
            _row(rows, r, h, K_POST, s, name_lo[k], name_hi[k], amt, total, -1, -1, detail,
                 i + 1)
            r += 1
            continue
        if v != x0 - 2:
            return -1, w
        if verb == K_SHOW or verb == K_MUCK:
            end = _cards(data, x0, x1, w, spanish)
            if end < 0:
                return -1, w
            _row(rows, r, h, verb, s, name_lo[k], name_hi[k], NULL, NULL, w, end, -1, i + 1)
            r += 1
            w = end
            continue
        good, value = _amount(data, x0, x1, mpu)
        if not good:
            return -1, w
        _row(rows, r, h, K_AWARD, s, name_lo[k], name_hi[k], value, NULL, -1, -1, D_MAIN,
             i + 1)
        r += 1
        awards += 1
    if not ended:
        return -1, w
    absent = awards == 0 and put != 0
    _row(rows, r, h, K_ENDED, -1, -1, -1, NULL, NULL, -1, -1, D_ABSENT if absent else -1, last)
    r += 1
    if r <= start:
        return -1, w
    per[0, h] = no
    per[1, h] = no_end
    per[2, h] = button
    if seats >= 0:
        per[3, h] = seats
    per[4, h] = ante
    per[6, h] = absent
    return r, w


@njit(cache=True, nogil=True)
def _deal(rows, r, h, n, seat_no, name_lo, name_hi, heard, known, hole, unknown_at, n_hole,
          line):
    """The hole cards of each seat dealt in, in seat order: the cards shown to the log's
    owner (`Dealt to`), `??` for the others."""
    done = -1
    for _ in range(n):
        k = -1
        for j in range(n):
            if seat_no[j] > done and (k < 0 or seat_no[j] < seat_no[k]):
                k = j
        done = seat_no[k]
        if not heard[k]:
            continue
        if known[0, k] >= 0:
            clo, chi, at = known[0, k], known[1, k], known[2, k]
        else:
            clo, chi, at = unknown_at, unknown_at + 3 * n_hole - 1, line
        hole[0, k] = clo
        hole[1, k] = chi
        _row(rows, r, h, K_DEAL, done, name_lo[k], name_hi[k], NULL, NULL, clo, chi, D_HOLE,
             at)
        r += 1
    return r


@njit(cache=True, nogil=True)
def columns(data, rows, count, row0, ok, per, hand_key, key_text, params, const, prefix_lo,
            prefix_hi, micros, valid, numbers, small):
    """The event columns of the rows: the string columns' specs (`textkernel.text_sizes`:
    hand_id, table_id, kind, player, cards, detail, source, variant, structure, currency),
    each column's validity (valid: the ten string columns, then seat, ts, amount, total, the
    game, small/big bet, seat count, dead button), numbers[:, r] (seq, ts, amount, total,
    small blind, big blind, small bet, big bet, ante, mpu) and small[:, r] (seat, button, seat
    count, tournament, dead button). const: the spans of `888:`, the kinds, the details and
    the note of a hand no one collected in; key_text[:, k]: the spans of stakes k's table id,
    variant, structure and currency; params[:, k]: mpu, tournament, fixed limit, small and big
    blind."""
    spec = np.full((7, 10, count), -1, np.int32)  # -1: no span, no number
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    n_kinds = len(KINDS)
    note = 1 + n_kinds + len(DETAILS)
    for h in range(len(ok)):
        if not ok[h]:
            continue
        key = hand_key[h]
        head = row0[h]
        fixed = params[2, key] != 0
        tour = params[1, key] != 0
        for r in range(head, row0[h + 1]):
            kind = rows[1, r]
            lo1[0, r], hi1[0, r] = const[0, 0], const[1, 0]
            lo2[0, r], hi2[0, r] = per[0, h], per[1, h]
            lo1[1, r], hi1[1, r] = key_text[0, key], key_text[1, key]
            lo1[2, r], hi1[2, r] = const[0, 1 + kind], const[1, 1 + kind]
            lo1[3, r], hi1[3, r] = rows[3, r], rows[4, r]
            lo1[4, r], hi1[4, r] = rows[7, r], rows[8, r]
            d = rows[9, r]
            if d >= 0:
                lo1[5, r], hi1[5, r] = const[0, 1 + n_kinds + d], const[1, 1 + n_kinds + d]
            lo1[6, r], hi1[6, r] = prefix_lo, prefix_hi
            num[6, r] = rows[10, r]
            first = r == head
            if first:
                for c in range(3):
                    lo1[7 + c, r], hi1[7 + c, r] = key_text[2 + 2 * c, key], \
                        key_text[3 + 2 * c, key]
                if per[6, h]:
                    lo3[6, r], hi3[6, r] = const[0, note], const[1, note]
            for c in range(10):
                valid[c, r] = lo1[c, r] >= 0
            numbers[0, r] = r - head
            seat = rows[2, r]
            small[0, r] = seat if seat >= 0 else 0
            valid[10, r] = seat >= 0
            numbers[2, r] = rows[5, r]
            valid[12, r] = rows[5, r] != NULL
            numbers[3, r] = rows[6, r]
            valid[13, r] = rows[6, r] != NULL
            valid[11, r] = first and micros[h] != NULL
            numbers[1, r] = micros[h] if first else 0
            valid[14, r] = first
            valid[15, r] = first and fixed
            valid[16, r] = first and per[3, h] >= 0
            valid[17, r] = first and tour
            numbers[4, r] = params[3, key]
            numbers[5, r] = params[4, key]
            numbers[6, r] = params[4, key]
            numbers[7, r] = 2 * params[4, key]
            numbers[8, r] = per[4, h]
            numbers[9, r] = params[0, key]
            small[1, r] = per[2, h]
            small[2, r] = per[3, h] if per[3, h] >= 0 else 0
            small[3, r] = tour
            small[4, r] = tour
    return spec


# the events schema's Arrow nodes in IPC order (the game's fields inside it): the type (0
# string, 1 int64 or timestamp, 2 int32, 3 int8, 4 bool, 5 struct), where the values are
# (`columns`: a string column, a row of numbers or of small; -1: none, all null) and the
# validity row (`columns`' valid; 18: all valid, 19: all null)
_NODE_TYPE = np.array([0, 2, 1, 0, 0, 3, 0, 1, 1, 0, 0, 5, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3,
                       0, 1, 4, 2, 4, 0, 0, 0], np.int64)
_NODE_SRC = np.array([0, 0, 1, 1, 2, 0, 3, 2, 3, 4, 5, -1, 7, 8, 4, 5, 6, 7, 8, -1, -1, -1, 1,
                      2, 9, 9, 3, -1, 4, -1, -1, 6], np.int64)
_NODE_VALID = np.array([0, 18, 11, 1, 2, 10, 3, 12, 13, 4, 5, 14, 7, 8, 14, 14, 15, 15, 14,
                        19, 19, 19, 14, 16, 9, 14, 14, 19, 17, 19, 19, 6], np.int64)


@njit(cache=True, nogil=True)
def _put(out, p, x, n):
    """x written little-endian in n bytes at out[p:]."""
    for k in range(n):
        out[p + k] = (x >> (8 * k)) & 255


@njit(cache=True, nogil=True)
def message(data, rows, count, row0, ok, per, hand_key, key_text, params, const, prefix_lo,
            prefix_hi, micros, template, spots):
    """The rows as one Arrow IPC record batch message of the events schema: `template` (a
    message's metadata of that schema) with this batch's length, nodes and buffers written at
    `spots` (length, body length, nodes, buffers), then the body (`columns`' values)."""
    valid = np.empty((20, count), np.bool_)
    numbers = np.empty((10, count), np.int64)
    small = np.empty((5, count), np.int8)
    spec = columns(data, rows, count, row0, ok, per, hand_key, key_text, params, const,
                   prefix_lo, prefix_hi, micros, valid, numbers, small)
    for r in range(count):
        valid[18, r] = True
        valid[19, r] = False
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    offsets = np.empty((10, count + 1), np.int32)
    text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, -1, offsets)
    n_nodes = len(_NODE_TYPE)
    nulls = np.zeros(n_nodes, np.int64)
    bufs = np.zeros((2, 75), np.int64)
    where = np.zeros((3, n_nodes), np.int64)  # each node's first buffer index
    starts = np.zeros(10, np.int64)
    pos = 0
    b = 0
    bitmap = (count + 7) // 8
    goods = np.zeros(len(valid), np.int64)
    for v in range(len(valid)):
        for r in range(count):
            goods[v] += valid[v, r]
    for j in range(n_nodes):
        kind, src, vr = _NODE_TYPE[j], _NODE_SRC[j], _NODE_VALID[j]
        nulls[j] = count - goods[vr]
        where[0, j] = b
        sizes = np.zeros(3, np.int64)
        sizes[0] = bitmap if nulls[j] else 0
        n_buf = 2
        if kind == 0:
            sizes[1] = 4 * (count + 1)
            sizes[2] = offsets[src, count] if src >= 0 else 0
            n_buf = 3
        elif kind == 1:
            sizes[1] = 8 * count
        elif kind == 2:
            sizes[1] = 4 * count
        elif kind == 3:
            sizes[1] = count
        elif kind == 4:
            sizes[1] = bitmap
        else:
            n_buf = 1
        for m in range(n_buf):
            bufs[0, b] = pos
            bufs[1, b] = sizes[m]
            if kind == 0 and m == 2 and src >= 0:
                starts[src] = len(template) + pos
            pos += (sizes[m] + 7) // 8 * 8
            b += 1
    out = np.zeros(len(template) + pos, np.uint8)
    out[:len(template)] = template
    _put(out, spots[0], count, 8)
    _put(out, spots[1], pos, 8)
    for j in range(n_nodes):
        _put(out, spots[2] + 16 * j, count, 8)
        _put(out, spots[2] + 16 * j + 8, nulls[j], 8)
    for m in range(b):
        _put(out, spots[3] + 16 * m, bufs[0, m], 8)
        _put(out, spots[3] + 16 * m + 8, bufs[1, m], 8)
    text_fill(data, lo1, hi1, lo2, hi2, num, lo3, hi3, -1, offsets, out, starts)
    base = len(template)
    for j in range(n_nodes):
        kind, src, vr = _NODE_TYPE[j], _NODE_SRC[j], _NODE_VALID[j]
        m = where[0, j]
        if nulls[j]:
            p = base + bufs[0, m]
            for r in range(count):
                if valid[vr, r]:
                    out[p + (r >> 3)] |= 1 << (r & 7)
        p = base + bufs[0, m + 1] if kind != 5 else 0
        if kind == 0:
            if src >= 0:
                out[p:p + 4 * (count + 1)].view(np.int32)[:] = offsets[src]
        elif kind == 1:
            if src >= 0:
                out[p:p + 8 * count].view(np.int64)[:] = numbers[src]
        elif kind == 2:
            if src >= 0:
                v = out[p:p + 4 * count].view(np.int32)
                for r in range(count):
                    v[r] = numbers[src, r]
        elif kind == 3:
            for r in range(count):
                out[p + r] = small[src, r]
        elif kind == 4:
            for r in range(count):
                if small[src, r]:
                    out[p + (r >> 3)] |= 1 << (r & 7)
    return out


@njit(cache=True, nogil=True)
def read(data, lo, hi, odd, first, last, use, hand_key, key_text, params, const, prefix_lo,
         prefix_hi, head, unknown_at, card_at, template, spots):
    """`hands` and `message` in one call: (the IPC message, each row's line, ok, row0).
    params[:, k] of stakes k (hand_key[h]: the hand's): mpu, tournament, fixed limit, small
    and big blind, hole cards, seat count (-1: none); head: `heads`' output."""
    n = len(first)
    values = np.zeros((3, n), np.int64)
    per = np.zeros((7, n), np.int64)
    for h in range(n):
        key = hand_key[h]
        values[0, h] = params[0, key]
        values[1, h] = params[2, key]
        values[2, h] = params[5, key]
        per[3, h] = params[6, key]
    lines = 0
    for h in range(n):
        lines += last[h] - first[h]
    rows = np.empty((11, 2 * lines + 24 * n + 64), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    count, _ = hands(data, lo, hi, odd, first, last, use, values, unknown_at, card_at, rows,
                     per, ok, row0)
    if count == 0:
        return np.zeros(0, np.uint8), np.zeros(0, np.int64), ok, row0
    msg = message(data, rows, count, row0, ok, per, hand_key, key_text, params, const,
                  prefix_lo, prefix_hi, head[5], template, spots)
    return msg, rows[10, :count].copy(), ok, row0
