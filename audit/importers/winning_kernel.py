"""The Winning Poker Network compiled pass (numba, cached): the older format's hands read
straight from a file's bytes into event columns, check for check as the Python fast path
(`winning._fast_old`) reads them.

`header_lines` tells the lines that start a hand (`winning._HEADER_LINE`). Each hand's first
two lines (`Game started at: ...`, `Game ID: ...`) are read in Python by the line parser's own
patterns (`winning_compiled`); `hands` reads the rest of every hand whose two lines were read:
the button and seat lines (one-word names), the posts, `received card` lines (the deal), the
actions, notes, uncalled returns, the plain streets (`*** FLOP|TURN|RIVER ***`), and the
summary's pot, board, results and `Game ended at:`; an unnamed player (`Player  has ...`)
when he is the one seated player the hand never names, as the line parser reads him. A hand
holding anything else (an unnamed player the log does not seat or whom the summary leaves
out of the pot, an unseated player, a name with a colon or a byte outside printable ASCII, a status
line the grammar does not list, an amount or cards written otherwise than plainly, a line out
of place, more than `MAX_SEATS` seats, ...) is not read (`ok` False): the Python fast path and
the line parser read it. Its rows are then not kept (the row count goes back).

Row columns: hand (index), kind (`KINDS`), seat (-1: null), player and cards spans (lo -1:
null; cards are written canonically into `cbuf`, spans offset by `base`), amount and total
(`NULL` when null), detail (`DETAILS`; -1 null; `D_TOTAL`: the hand's `total_pot=...`), line
(1-based). Per hand (`HAND_FIELDS`): the button, the big blind as first posted (`NULL`: none,
the structure is inferred from it), the small blind as first posted, the straddle, the ante,
the total pot, the last line, the bring-in, the unnamed player's name span (-1: none).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.pokerstars.kernel import _at, _b, _digit, _find, _is
from audit.importers.textkernel import plain_amount, same, text_sizes

NULL = np.iinfo(np.int64).min
MAX_SEATS = 16
MAX_AWARDS = 64

ROW_FIELDS = ("hand", "kind", "seat", "player_lo", "player_hi", "amount", "total", "cards_lo",
              "cards_hi", "detail", "line")
HAND_FIELDS = ("button", "big_blind_posted", "small_blind_posted", "straddle", "ante",
               "total_pot", "last_line", "bring_in", "unnamed_lo", "unnamed_hi")
KINDS = ("hand_started", "seat", "post", "deal", "fold", "check", "call", "bet", "raise",
         "award", "rake", "annotation", "show", "muck", "hand_ended")
(K_STARTED, K_SEAT, K_POST, K_DEAL, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_AWARD, K_RAKE,
 K_NOTE, K_SHOW, K_MUCK, K_ENDED) = range(len(KINDS))
DETAILS = ("small_blind", "big_blind", "dead", "new_player", "straddle", "ante", "hole",
           "board", "uncalled", "main", "all_in", "sitting_out", "rake", "jackpot",
           "all_in_protection", "sits_out", "timed_out", "disconnected", "reconnected",
           "table_change", "waits_for_big_blind", "bring_in", "down", "up")
(D_SB, D_BB, D_DEAD, D_NEW_PLAYER, D_STRADDLE, D_ANTE, D_HOLE, D_BOARD, D_UNCALLED, D_MAIN,
 D_ALL_IN, D_SITTING_OUT, D_RAKE, D_JACKPOT, D_PROTECTION, D_SITS_OUT, D_TIMED_OUT,
 D_DISCONNECTED, D_RECONNECTED, D_TABLE_CHANGE, D_WAITS, D_BRING_IN, D_DOWN,
 D_UP) = range(len(DETAILS))
D_TOTAL = len(DETAILS)
D_NOTE = D_TOTAL + 1  # `note: ` and the line (its span as the row's cards span, not its cards)

_STARTED = _b("Game started at: ")
_HAND = _b("Hand #")
_GAME_HAND = _b("Game Hand #")
_DASH = _b(" - ")
_SEAT = _b("Seat ")
_IS_BUTTON = _b(" is the button")
_PLAYER = _b("Player ")
_STAR_PLAYER = _b("*Player ")
_UNCALLED = _b("Uncalled bet")
_UNCALLED_OPEN = _b("Uncalled bet (")
_RETURNED = _b(") returned to ")
_RETURNED_END = _b(") returned to")  # to no one: the unnamed player (the line right-stripped)
_RETURNED_SP = _b(" returned to ")
_SUMMARY = _b("------ Summary ------")
_STARS = _b("*** ")
_FLOP, _TURN, _RIVER = _b("*** FLOP ***"), _b("*** TURN ***"), _b("*** RIVER ***")
_POT = _b("Pot: ")
_RAKE = _b("Rake ")
_JP_FEE = _b("JP fee ")
_BOARD = _b("Board: [")
_ENDED = _b("Game ended at: ")
_BETS = _b("Bets: ")
_COLLECTS = _b(". Collects: ")
_WINS, _LOSES = _b(". Wins: "), _b(". Loses: ")
_SHOWS = _b("shows: ")
_MUCK_SHOW = _b("mucks (does not show: [")
_NOT_SHOWN = _b("does not show cards")
_MUCK_NOT_SHOWN = _b("mucks (does not show cards)")
_BIG_BLIND_AT = _b("has big blind (")
_RECEIVED_CARD = _b("received card: [")
_RECEIVED_A_CARD = _b("received a card.")
_FOLDS, _CHECKS = _b("folds"), _b("checks")
_CALLS, _BETS_A, _RAISES, _ALLIN_A = _b("calls ("), _b("bets ("), _b("raises ("), _b("allin (")
_HAS_SB, _POSTS_SB = _b("has small blind ("), _b("posts small blind (")
_HAS_BB, _POSTS_BB = _b("has big blind ("), _b("posts big blind (")
_HAS_DEAD = _b("has dead blind (")
_HAS_STRADDLE, _POSTS_STRADDLE, _STRADDLE = _b("has straddle ("), _b("posts straddle ("), \
    _b("straddle (")
_POSTS_ANTE, _ANTE = _b("posts ante ("), _b("ante (")
_BRING_IN = _b("bring in (")
_STUD_STREETS = (_b("*** Third street ***"), _b("*** Fourth street ***"),
                 _b("*** Fifth street ***"), _b("*** Sixth street ***"),
                 _b("*** Seventh street ***"))
_PROTECTED = _b("is disconnected and ALL IN.")
_ALLIN = _b("allin")
_MUCKS_CARDS = _b("mucks cards")
_SHOWS_CARDS = _b("shows cards")
_SHOWS_SP = _b("shows ")
_SITTING_OUT = _b("sitting out")
_TIMED_OUT, _DISCONNECTED = _b("is timed out"), _b("is disconnected")
_CONNECTED, _RECONNECTED = _b("is connected"), _b("is reconnected")
_JOINED, _LEFT = _b("joined the table"), _b("left the table")
_HAS_JOINED, _HAS_LEFT = _b("has joined the table"), _b("has left the table")
_WAIT, _WAITS = _b("wait for big blind"), _b("waits for big blind")
_DOT_SPACE, _OPEN, _CLOSE = _b(". "), _b("["), _b("]")
_RANKS = _b("23456789TJQKA")


@njit(cache=True, nogil=True)
def is_header(data, b, hi):
    """Whether the line at data[b:hi] (right-stripped) starts a hand (`_HEADER_LINE`): 1
    yes, 0 no, -1 to be told in Python (a byte past ASCII where `\\d` may read a digit)."""
    if _at(data, b, hi, _STARTED):
        return 1 if hi > b + len(_STARTED) else 0
    p = b
    if _at(data, p, hi, _GAME_HAND):
        p += len(_GAME_HAND)
    elif _at(data, p, hi, _HAND):
        p += len(_HAND)
    else:
        return 0
    q = p
    while q < hi and _digit(data[q]):
        q += 1
    if q < hi and data[q] >= 128:
        return -1
    return 1 if q > p and _at(data, q, hi, _DASH) else 0


@njit(cache=True, nogil=True)
def header_lines(data, begin, hi, odd, out):
    """Fill out[i]: whether line i starts a hand (1, 0; -1: to be told in Python, as odd
    lines are); the number of lines to be told in Python (most often none: no array of
    them made)."""
    unsure = 0
    for i in range(len(begin)):
        out[i] = -1 if odd[i] else is_header(data, begin[i], hi[i])
        if out[i] < 0:
            unsure += 1
    return unsure


@njit(cache=True, nogil=True)
def _num(data, p, end, mpu):
    """data[p:end] is `_NUM` (`[0-9][0-9,.]*`) read whole as a plain amount: (ok, minor)."""
    if p >= end or not _digit(data[p]):
        return False, 0
    for q in range(p, end):
        c = data[q]
        if not (_digit(c) or c == 44 or c == 46):
            return False, 0
    q, value = plain_amount(data, p, end, mpu)
    return q == end, value


@njit(cache=True, nogil=True)
def _token(data, p, end):
    """The end of the run of `[0-9,.]` at p (p itself when data[p] is not a digit)."""
    if p >= end or not _digit(data[p]):
        return p
    while p < end and (_digit(data[p]) or data[p] == 44 or data[p] == 46):
        p += 1
    return p


@njit(cache=True, nogil=True)
def _paren_amount(data, p, end, mpu):
    """data[p:end] is `NUM)` (the text after an opening parenthesis): (ok, minor)."""
    if end - p < 2 or data[end - 1] != 41:
        return False, 0
    return _num(data, p, end - 1, mpu)


@njit(cache=True, nogil=True)
def _put_cards(data, p, end, cbuf, at):
    """The cards of data[p:end] (`site_cards`: separated by spaces or commas; `?`, `??`, `X`,
    `XX` unknown; `10x` is `Tx`; rank and suit case folded) written canonically at cbuf[at:]:
    the end written, or -1 when a card is not plain (or there is none)."""
    start = at
    q = p
    while q < end:
        c = data[q]
        if c == 32 or c == 44:
            q += 1
            continue
        e = q
        while e < end and data[e] != 32 and data[e] != 44:
            e += 1
        n = e - q
        if at > start:
            cbuf[at] = 32
            at += 1
        if (n == 1 and (data[q] == 63 or data[q] == 88)) or (
                n == 2 and ((data[q] == 63 and data[q + 1] == 63)
                            or (data[q] == 88 and data[q + 1] == 88))):
            cbuf[at] = 63
            cbuf[at + 1] = 63
            at += 2
            q = e
            continue
        if n == 3 and data[q] == 49 and data[q + 1] == 48:
            r, s = 84, data[q + 2]
        elif n == 2:
            r, s = data[q], data[q + 1]
            if 97 <= r <= 122:
                r -= 32
        else:
            return -1
        if 65 <= s <= 90:
            s += 32
        if not (s == 99 or s == 100 or s == 104 or s == 115):
            return -1
        known = False
        for k in range(len(_RANKS)):
            if _RANKS[k] == r:
                known = True
        if not known:
            return -1
        cbuf[at] = r
        cbuf[at + 1] = s
        at += 2
        q = e
    return at if at > start else -1


@njit(cache=True, nogil=True)
def _plain_name(data, p, end):
    """The end of a one-word name at data[p:...] (printable ASCII, no colon; at a space or
    the end), or -1."""
    q = p
    while q < end and data[q] != 32:
        c = data[q]
        if c < 33 or c > 126 or c == 58:
            return -1
        q += 1
    return q if q > p else -1


@njit(cache=True, nogil=True)
def _seat_index(data, p, q, s_lo, s_hi, ns):
    for k in range(ns):
        if same(data, p, q, s_lo[k], s_hi[k]):
            return k
    return -1


@njit(cache=True, nogil=True)
def _player(data, s, e, s_lo, s_hi, ns):
    """A `Player NAME VERB` line: (seat index or -1, verb start); -1 also for a name the fast
    path would split otherwise (a colon) or that is not seated."""
    p = s + len(_PLAYER)
    q = _plain_name(data, p, e)
    if q < 0:
        return -1, e
    k = _seat_index(data, p, q, s_lo, s_hi, ns)
    while q < e and data[q] == 32:
        q += 1
    return k, q


@njit(cache=True, nogil=True)
def _named_seat(data, s, e, s_lo, s_hi, ns):
    """The seat index of the name a line names as `_Old._unknown_player` reads names: the
    first word (up to a colon) after `*Player ` or `Player `, or after the last ` returned
    to ` of an `Uncalled bet` line (none when there is none: the line's first word is
    `Uncalled`, which may be a player's name); -1: none seated."""
    if _at(data, s, e, _STAR_PLAYER):
        p = s + len(_STAR_PLAYER)
    elif _at(data, s, e, _PLAYER):
        p = s + len(_PLAYER)
    elif _at(data, s, e, _UNCALLED):
        p = -1
        for q in range(e - len(_RETURNED_SP), s - 1, -1):
            if _at(data, q, e, _RETURNED_SP):
                p = q + len(_RETURNED_SP)
                break
        if p < 0:
            return -1
    else:
        return -1
    q = p
    while q < e and data[q] != 32 and data[q] != 58:
        q += 1
    return _seat_index(data, p, q, s_lo, s_hi, ns) if q > p else -1


@njit(cache=True, nogil=True)
def _dot(data, p, e, lit):
    """data[p:e] is `lit` with an optional final `.`."""
    return _is(data, p, e, lit) or (e - p == len(lit) + 1 and data[e - 1] == 46
                                   and _at(data, p, e, lit))


@njit(cache=True, nogil=True)
def _post(data, v, e):
    """The post `_OLD_POST` names at data[v:e] (0 small blind, 1 big blind, 2 dead blind, 3
    straddle, 4 ante, 5 bring in; -1 none) and where its amount starts."""
    if _at(data, v, e, _HAS_SB):
        return 0, v + len(_HAS_SB)
    if _at(data, v, e, _POSTS_SB):
        return 0, v + len(_POSTS_SB)
    if _at(data, v, e, _HAS_BB):
        return 1, v + len(_HAS_BB)
    if _at(data, v, e, _POSTS_BB):
        return 1, v + len(_POSTS_BB)
    if _at(data, v, e, _HAS_DEAD):
        return 2, v + len(_HAS_DEAD)
    if _at(data, v, e, _HAS_STRADDLE):
        return 3, v + len(_HAS_STRADDLE)
    if _at(data, v, e, _POSTS_STRADDLE):
        return 3, v + len(_POSTS_STRADDLE)
    if _at(data, v, e, _STRADDLE):
        return 3, v + len(_STRADDLE)
    if _at(data, v, e, _POSTS_ANTE):
        return 4, v + len(_POSTS_ANTE)
    if _at(data, v, e, _ANTE):
        return 4, v + len(_ANTE)
    if _at(data, v, e, _BRING_IN):
        return 5, v + len(_BRING_IN)
    return -1, e


@njit(cache=True, nogil=True)
def _note(data, v, e):
    """The note `_OLD_NOTES` makes of data[v:e] (a detail), or -1."""
    if _is(data, v, e, _SITTING_OUT):
        return D_SITS_OUT
    if _dot(data, v, e, _TIMED_OUT):
        return D_TIMED_OUT
    if _dot(data, v, e, _DISCONNECTED):
        return D_DISCONNECTED
    if _dot(data, v, e, _CONNECTED) or _dot(data, v, e, _RECONNECTED):
        return D_RECONNECTED
    if _dot(data, v, e, _JOINED) or _dot(data, v, e, _LEFT) or \
            _dot(data, v, e, _HAS_JOINED) or _dot(data, v, e, _HAS_LEFT):
        return D_TABLE_CHANGE
    if _dot(data, v, e, _WAIT) or _dot(data, v, e, _WAITS):
        return D_WAITS
    return -1


@njit(cache=True, nogil=True)
def _stud_street(data, s, e):
    """`*** Third|Fourth|Fifth|Sixth|Seventh street ***` at data[s:e] (`_OLD_STUD`, in the
    case WPN writes it)."""
    for k in range(len(_STUD_STREETS)):
        if _is(data, s, e, _STUD_STREETS[k]):
            return True
    return False


@njit(cache=True, nogil=True)
def _pot(data, p, e, mpu):
    """`_POT` at data[p:e] after `Pot: `: (ok, pot, rake or NULL, jackpot or NULL)."""
    out = np.full(3, NULL, np.int64)
    part = 0
    while True:
        t = _token(data, p, e)
        if t == p:
            return False, out
        if data[t - 1] == 46 and t - 1 > p:
            t -= 1
        ok, value = _num(data, p, t, mpu)
        if not ok:
            return False, out
        out[part] = value
        p = t
        if p < e and data[p] == 46:
            p += 1
        while p < e and (data[p] == 32 or 9 <= data[p] <= 13 or 28 <= data[p] <= 31):
            p += 1
        if p == e:
            return True, out
        if part == 0 and _at(data, p, e, _RAKE):
            part = 1
            p += len(_RAKE)
        elif part < 2 and _at(data, p, e, _JP_FEE):
            part = 2
            p += len(_JP_FEE)
        else:
            return False, out


@njit(cache=True, nogil=True)
def _result(data, s, e, mpu):
    """A summary result line `[*]Player REST[.][ ]Bets: B. Collects: C. Wins|Loses: W.`:
    (rest end or -1, collected, whether B is a plain zero)."""
    p = s + (len(_STAR_PLAYER) if data[s] == 42 else len(_PLAYER))
    k = _find(data, p, e, _BETS)
    if k < 0:
        return -1, 0, False
    b0 = k + len(_BETS)
    c = _find(data, b0, e, _COLLECTS)
    if c < 0 or _token(data, b0, e) < c or _token(data, b0, e) == b0:
        return -1, 0, False
    c0 = c + len(_COLLECTS)
    d = _find(data, c0, e, _DOT_SPACE)
    if d <= c0 or _token(data, c0, e) < d:
        return -1, 0, False
    if _at(data, d, e, _WINS):
        w0 = d + len(_WINS)
    elif _at(data, d, e, _LOSES):
        w0 = d + len(_LOSES)
    else:
        return -1, 0, False
    ok, collected = _num(data, c0, d, mpu)
    if not ok or data[e - 1] != 46 or e - 1 <= w0 or _token(data, w0, e) != e:
        return -1, 0, False
    plain, bets = _num(data, b0, c, mpu)
    if k > p and data[k - 1] == 32:
        k -= 1
    if k > p and data[k - 1] == 46:
        k -= 1
    return k, collected, plain and bets == 0


@njit(cache=True, nogil=True)
def _bb_posted(data, s, e, mpu):
    """`_BIG_BLIND_LINES` on one line: (-1 no, 0 yes but its amount is not plain, 1 yes;
    amount)."""
    if e - s < 2 or data[e - 1] != 41 or not _at(data, s, e, _PLAYER):
        return -1, 0
    q = e - 1
    while q > s and (_digit(data[q - 1]) or data[q - 1] == 44 or data[q - 1] == 46):
        q -= 1
    if q == e - 1 or not _digit(data[q]):
        return -1, 0
    a = q - len(_BIG_BLIND_AT)
    if a < s + len(_PLAYER) or not _at(data, a, e, _BIG_BLIND_AT):
        return -1, 0
    ok, value = _num(data, q, e - 1, mpu)
    return (1 if ok else 0), value


@njit(cache=True, nogil=True)
def hands(data, begin, lo, hi, odd, first, body, last, use, mpu, count, base, rows, cbuf,
          per, ok, row0, used):
    """Read each hand h with use[h] (its header at line first[h], its seat lines from
    body[h], its lines up to last[h]; amounts in units of mpu[h]; count[h] hole cards) into
    `rows` (`ROW_FIELDS` by row) and `per` (`HAND_FIELDS` by hand); ok[h]: read;
    row0[h]:row0[h + 1] its rows; used[0]: the bytes of `cbuf` written. Returns the rows."""
    r_hand, r_kind, r_seat, r_plo, r_phi, r_amount = rows[0], rows[1], rows[2], rows[3], \
        rows[4], rows[5]
    r_total, r_clo, r_chi, r_detail, r_line = rows[6], rows[7], rows[8], rows[9], rows[10]
    s_lo = np.empty(MAX_SEATS, np.int64)
    s_hi = np.empty(MAX_SEATS, np.int64)
    s_no = np.empty(MAX_SEATS, np.int64)
    s_line = np.empty(MAX_SEATS, np.int64)
    stack = np.empty(MAX_SEATS, np.int64)
    left = np.empty(MAX_SEATS, np.int64)
    rnd = np.empty(MAX_SEATS, np.int64)
    playing = np.empty(MAX_SEATS, np.bool_)
    named = np.empty(MAX_SEATS, np.bool_)
    protected = np.empty(MAX_SEATS, np.bool_)
    got = np.empty(MAX_SEATS, np.int64)  # cards received
    got_line = np.empty(MAX_SEATS, np.int64)
    got_card = np.empty((MAX_SEATS, 8, 2), np.uint8)
    got_at = np.empty((MAX_SEATS, 8), np.int64)  # each card's line
    got_order = np.empty(MAX_SEATS, np.int64)  # the players by their first card
    hole_ok = np.empty(MAX_SEATS, np.bool_)  # its hole cards are all known
    hole_lo = np.empty(MAX_SEATS, np.int64)
    hole_hi = np.empty(MAX_SEATS, np.int64)
    muck_row = np.empty(MAX_SEATS, np.int64)
    order = np.empty(MAX_SEATS, np.int64)
    a_seat = np.empty(MAX_AWARDS, np.int64)
    a_amount = np.empty(MAX_AWARDS, np.int64)
    a_line = np.empty(MAX_AWARDS, np.int64)
    a_detail = np.empty(MAX_AWARDS, np.int64)
    f_amount = np.empty(4, np.int64)
    f_line = np.empty(4, np.int64)
    f_detail = np.empty(4, np.int64)
    r = 0
    cpos = 0
    for h in range(len(first)):
        row0[h] = r
        ok[h] = False
        if not use[h]:
            continue
        unit = mpu[h]
        r_start, c_start = r, cpos
        good = True
        for i in range(first[h], last[h]):
            if odd[i] or (lo[i] < hi[i] and lo[i] != begin[i]):
                good = False
                break
        if not good:
            continue
        # the button and seat lines
        i = body[h]
        end = last[h]
        button = -1
        ns = 0
        while i < end and good:
            s, e = lo[i], hi[i]
            if s == e:
                i += 1
                continue
            if not _at(data, s, e, _SEAT):
                break
            p = s + len(_SEAT)
            q = p
            while q < e and _digit(data[q]):
                q += 1
            if q == p or q - p > 3:
                good = False
                break
            no = 0
            for k in range(p, q):
                no = no * 10 + data[k] - 48
            if _is(data, q, e, _IS_BUTTON):
                button = no
            elif q + 2 < e and data[q] == 58 and data[q + 1] == 32:
                n0 = q + 2
                n1 = _plain_name(data, n0, e)
                if n1 < 0 or ns == MAX_SEATS or not 1 <= no <= 127 or n1 + 2 >= e or \
                        data[n1] != 32 or data[n1 + 1] != 40:
                    good = False
                    break
                close = e - 1 if data[e - 1] == 46 else e
                fine, amount = _paren_amount(data, n1 + 2, close, unit)
                if not fine or _seat_index(data, n0, n1, s_lo, s_hi, ns) >= 0:
                    good = False
                    break
                for k in range(ns):
                    if s_no[k] == no:
                        good = False
                if not good:
                    break
                s_lo[ns], s_hi[ns], s_no[ns], s_line[ns], stack[ns] = n0, n1, no, i + 1, amount
                ns += 1
            else:
                break
            i += 1
        stud = count[h] == 0
        if not good or ns == 0 or (not stud and not 1 <= button <= 127):
            continue
        rest = i
        # what the fast path looks at before the play: the summary, an unnamed player, the
        # big blind as first posted, who plays
        summary = False
        bb = NULL
        unnamed = False  # a line of the player the log leaves unnamed (`Player  has ...`)
        for k in range(ns):
            playing[k] = False
        for i in range(rest, end):
            s, e = lo[i], hi[i]
            if s == e:
                continue
            nameless = False
            if _at(data, s, e, _PLAYER) or _at(data, s, e, _STAR_PLAYER):
                p = s + (len(_STAR_PLAYER) if data[s] == 42 else len(_PLAYER))
                if p < e and data[p] == 32:
                    if p + 1 >= e or data[p + 1] == 32:
                        good = False  # a further space: the line parser keeps it
                        break
                    unnamed = nameless = True
            if bb == NULL:
                kind, value = _bb_posted(data, s, e, unit)
                if kind == 0:
                    good = False
                    break
                if kind == 1:
                    bb = value
            if summary:
                continue
            if _is(data, s, e, _SUMMARY):
                summary = True
            elif nameless:
                continue  # he plays: see below
            elif data[s] == 80 and _at(data, s, e, _PLAYER):
                k, v = _player(data, s, e, s_lo, s_hi, ns)
                if k < 0:
                    good = False  # an unseated name (or one split at a colon)
                    break
                if not _is(data, v, e, _SITTING_OUT):
                    playing[k] = True
            elif _at(data, s, e, _UNCALLED):
                if not _at(data, s, e, _UNCALLED_OPEN):
                    good = False
                    break
                p = s + len(_UNCALLED_OPEN)
                if p < e and data[p] == 36:
                    p += 1
                t = _token(data, p, e)
                if t > p and _is(data, t, e, _RETURNED_END):
                    unnamed = True  # returned to no one
                    continue
                if t == p or not _at(data, t, e, _RETURNED):
                    good = False
                    break
                w = t + len(_RETURNED)
                k = -1
                if _plain_name(data, w, e) == e:
                    k = _seat_index(data, w, e, s_lo, s_hi, ns)
                if k < 0:
                    good = False
                    break
                playing[k] = True
        if not good or not summary:
            continue
        # the unnamed player: the one seated player no line names (`winning._named_unnamed`;
        # a player the log does not seat is the fast path's)
        uk = -1
        if unnamed:
            for k in range(ns):
                named[k] = False
            for i in range(rest, end):
                if lo[i] < hi[i]:
                    k = _named_seat(data, lo[i], hi[i], s_lo, s_hi, ns)
                    if k >= 0:
                        named[k] = True
            for k in range(ns):
                if not named[k]:
                    uk = k if uk == -1 else -2
            if uk < 0:
                continue
            playing[uk] = True
        # the rows: the hand, its seats
        r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_amount[r], r_total[r] = \
            h, K_STARTED, -1, -1, NULL, NULL
        r_clo[r], r_detail[r], r_line[r] = -1, -1, first[h] + 1
        r += 1
        for k in range(ns):
            order[k] = k
            left[k] = stack[k]
            rnd[k] = 0
            protected[k] = False
            got[k] = 0
            hole_ok[k] = False
            hole_lo[k] = -1
            muck_row[k] = -1
            r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_phi[r] = h, K_SEAT, s_no[k], s_lo[k], \
                s_hi[k]
            r_amount[r], r_total[r], r_clo[r], r_line[r] = stack[k], NULL, -1, s_line[k]
            r_detail[r] = -1 if playing[k] else D_SITTING_OUT
            r += 1
        for a in range(1, ns):  # the seats by number (the deal's order)
            b = a
            while b > 0 and s_no[order[b - 1]] > s_no[order[b]]:
                order[b - 1], order[b] = order[b], order[b - 1]
                b -= 1
        n_awards = 0
        n_fees = 0
        received = False
        dealt = False
        big_posted = False
        sb = NULL
        bring_in = NULL
        stud_street = 3
        n_got = 0
        straddle = NULL
        ante = 0
        section = 0  # 0 play, 1 summary, 2 ended
        pot = NULL
        last_line = first[h] + 1
        for i in range(rest, end):
            s, e = lo[i], hi[i]
            if s == e:
                continue
            n = i + 1
            last_line = n
            if section == 1:
                if _at(data, s, e, _POT):
                    fine, fees = _pot(data, s + len(_POT), e, unit)
                    if not fine or pot != NULL:
                        good = False
                        break
                    pot = fees[0]
                    for f in range(1, 3):
                        if fees[f] != NULL:
                            pot += fees[f]
                            if fees[f]:
                                f_amount[n_fees], f_line[n_fees] = fees[f], n
                                f_detail[n_fees] = D_RAKE if f == 1 else D_JACKPOT
                                n_fees += 1
                    continue
                if _at(data, s, e, _BOARD):
                    continue
                if _at(data, s, e, _ENDED):
                    section = 2
                    continue
                if not (_at(data, s, e, _PLAYER) or _at(data, s, e, _STAR_PLAYER)):
                    good = False
                    break
                for q in range(s, e):
                    if data[q] < 32 or data[q] > 126:
                        good = False
                if not good:
                    break
                k_end, collected, no_bets = _result(data, s, e, unit)
                if k_end < 0:
                    good = False
                    break
                p = s + (len(_STAR_PLAYER) if data[s] == 42 else len(_PLAYER))
                if uk >= 0 and p < k_end and data[p] == 32:
                    k, q = uk, p + 1
                else:
                    q = _plain_name(data, p, k_end)
                    if q < 0:
                        good = False
                        break
                    k = _seat_index(data, p, q, s_lo, s_hi, ns)
                if k < 0:  # someone not seated who put nothing in: the line as a note
                    if collected or not no_bets:
                        good = False
                        break
                    r_hand[r], r_kind[r], r_seat[r], r_plo[r] = h, K_NOTE, -1, -1
                    r_amount[r], r_total[r], r_clo[r], r_chi[r] = NULL, NULL, s, e
                    r_detail[r], r_line[r] = D_NOTE, n
                    r += 1
                    continue
                while q < k_end and data[q] == 32:
                    q += 1
                we = k_end  # what.rstrip(".").strip()
                while we > q and data[we - 1] == 46:
                    we -= 1
                while we > q and data[we - 1] == 32:
                    we -= 1
                if _is(data, q, we, _NOT_SHOWN) or _is(data, q, we, _MUCK_NOT_SHOWN):
                    pass
                elif _at(data, q, we, _SHOWS):
                    o = _find(data, q + len(_SHOWS), we, _OPEN)
                    c = -1 if o < 0 else _find(data, o + 1, we, _CLOSE)
                    at = -1 if c < 0 else _put_cards(data, o + 1, c, cbuf, cpos)
                    if at < 0:
                        good = False
                        break
                    r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_phi[r] = h, K_SHOW, s_no[k], \
                        s_lo[k], s_hi[k]
                    r_amount[r], r_total[r], r_clo[r], r_chi[r] = NULL, NULL, base + cpos, \
                        base + at
                    r_detail[r], r_line[r] = -1, n
                    r += 1
                    cpos = at
                elif _at(data, q, we, _MUCK_SHOW) and we - q > len(_MUCK_SHOW) + 1 and \
                        data[we - 1] == 41 and data[we - 2] == 93:
                    o = q + len(_MUCK_SHOW)
                    if _find(data, o, we, _CLOSE) != we - 2:
                        good = False
                        break
                    at = _put_cards(data, o, we - 2, cbuf, cpos)
                    if at < 0:
                        good = False
                        break
                    if muck_row[k] >= 0:
                        r_clo[muck_row[k]], r_chi[muck_row[k]] = base + cpos, base + at
                    else:
                        r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_phi[r] = h, K_MUCK, \
                            s_no[k], s_lo[k], s_hi[k]
                        r_amount[r], r_total[r], r_clo[r], r_chi[r] = NULL, NULL, base + cpos, \
                            base + at
                        r_detail[r], r_line[r] = -1, n
                        r += 1
                    cpos = at
                else:
                    good = False
                    break
                if collected:
                    if n_awards == MAX_AWARDS:
                        good = False
                        break
                    a_seat[n_awards], a_amount[n_awards], a_line[n_awards] = k, collected, n
                    a_detail[n_awards] = D_MAIN
                    n_awards += 1
                continue
            if section == 2:
                good = False
                break
            player = _at(data, s, e, _PLAYER)
            k, v = -1, e
            if player:
                if uk >= 0 and data[s + len(_PLAYER)] == 32:
                    k, v = uk, s + len(_PLAYER) + 1
                else:
                    k, v = _player(data, s, e, s_lo, s_hi, ns)
                if k < 0:
                    good = False
                    break
                if _is(data, v, e, _RECEIVED_A_CARD) or _at(data, v, e, _RECEIVED_CARD):
                    if got[k] == 8 or (dealt and not stud):
                        good = False
                        break
                    if got[k] == 0:
                        got_line[k] = n
                        got_order[n_got] = k
                        n_got += 1
                    got_at[k, got[k]] = n
                    if data[v + 9] == 97:  # a card.
                        got_card[k, got[k], 0], got_card[k, got[k], 1] = 63, 63
                    else:
                        c0 = v + len(_RECEIVED_CARD)
                        if e - c0 < 3 or data[e - 1] != 93:
                            good = False
                            break
                        for q in range(c0, e - 1):
                            if data[q] == 93 or data[q] == 32 or data[q] == 44:
                                good = False
                        at = -1 if not good else _put_cards(data, c0, e - 1, cbuf, cpos)
                        if at != cpos + 2:
                            good = False
                            break
                        got_card[k, got[k], 0], got_card[k, got[k], 1] = cbuf[cpos], \
                            cbuf[cpos + 1]
                    got[k] += 1
                    received = True
                    continue
            elif not (_is(data, s, e, _SUMMARY) or _at(data, s, e, _UNCALLED) or
                      _at(data, s, e, _STARS)):
                good = False
                break
            if received and stud:  # a stud street: each player's cards as received
                for o in range(n_got):
                    k2 = got_order[o]
                    if got[k2] != (3 if stud_street == 3 else 1):
                        good = False
                        break
                    for j in range(got[k2]):
                        if j != 1:  # the two down cards of third street are one row
                            r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_phi[r] = h, K_DEAL, \
                                s_no[k2], s_lo[k2], s_hi[k2]
                            r_amount[r], r_total[r], r_clo[r], r_line[r] = NULL, NULL, \
                                base + cpos, got_at[k2, j]
                            r_detail[r] = D_DOWN if j == 0 and (
                                stud_street == 3 or stud_street == 7) else D_UP
                        else:
                            cbuf[cpos] = 32
                            cpos += 1
                        cbuf[cpos], cbuf[cpos + 1] = got_card[k2, j, 0], got_card[k2, j, 1]
                        cpos += 2
                        if j != 0 or stud_street != 3:
                            r_chi[r] = base + cpos
                            r += 1
                    got[k2] = 0
                if not good:
                    break
                n_got = 0
                dealt = True
                received = False
            elif received:  # the deal: every seat dealt in, unknown cards where none came
                if dealt:
                    good = False
                    break
                for k2 in range(ns):
                    if got[k2] and got[k2] != count[h]:
                        good = False
                if not good:
                    break
                for o in range(ns):
                    k2 = order[o]
                    if not playing[k2]:
                        continue
                    c0 = cpos
                    known = True
                    for j in range(count[h]):
                        if j:
                            cbuf[cpos] = 32
                            cpos += 1
                        if got[k2]:
                            cbuf[cpos], cbuf[cpos + 1] = got_card[k2, j, 0], got_card[k2, j, 1]
                            known = known and got_card[k2, j, 0] != 63
                        else:
                            cbuf[cpos], cbuf[cpos + 1] = 63, 63
                            known = False
                        cpos += 2
                    hole_lo[k2], hole_hi[k2], hole_ok[k2] = base + c0, base + cpos, known
                    r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_phi[r] = h, K_DEAL, \
                        s_no[k2], s_lo[k2], s_hi[k2]
                    r_amount[r], r_total[r], r_clo[r], r_chi[r] = NULL, NULL, base + c0, \
                        base + cpos
                    r_detail[r], r_line[r] = D_HOLE, got_line[k2] if got[k2] else n
                    r += 1
                dealt = True
                received = False
            if not player:
                if _is(data, s, e, _SUMMARY):
                    section = 1
                    continue
                if _at(data, s, e, _UNCALLED):  # read before the play: a seated name
                    p = s + len(_UNCALLED_OPEN)
                    if data[p] == 36:
                        p += 1
                    t = _token(data, p, e)
                    fine, amount = _num(data, p, t, unit)
                    if not fine:
                        good = False
                        break
                    if _is(data, t, e, _RETURNED_END):
                        k = uk
                    else:
                        k = _seat_index(data, t + len(_RETURNED), e, s_lo, s_hi, ns)
                    if k < 0 or n_awards == MAX_AWARDS:
                        good = False
                        break
                    a_seat[n_awards], a_amount[n_awards], a_line[n_awards] = k, amount, n
                    a_detail[n_awards] = D_UNCALLED
                    n_awards += 1
                    continue
                if _at(data, s, e, _FLOP) or _at(data, s, e, _TURN) or _at(data, s, e, _RIVER):
                    p = s + (len(_RIVER) if data[s + 4] == 82 else len(_FLOP))
                    if p < e and data[p] == 58:
                        p += 1
                    if p >= e or data[p] != 32:
                        good = False
                        break
                    p += 1
                    g0 = g1 = -1
                    while p < e:  # `(?:\[[^\]]*\] ?)+`
                        if data[p] != 91:
                            good = False
                            break
                        c = _find(data, p + 1, e, _CLOSE)
                        if c < 0:
                            good = False
                            break
                        g0, g1 = p + 1, c
                        p = c + 1
                        if p < e and data[p] == 32:
                            p += 1
                    if not good or g0 < 0:
                        good = False
                        break
                    for q in range(g0, g1):
                        if data[q] == 91:
                            good = False
                    at = -1 if not good else _put_cards(data, g0, g1, cbuf, cpos)
                    if at < 0:
                        good = False
                        break
                    for k2 in range(ns):
                        rnd[k2] = 0
                    r_hand[r], r_kind[r], r_seat[r], r_plo[r] = h, K_DEAL, -1, -1
                    r_amount[r], r_total[r], r_clo[r], r_chi[r] = NULL, NULL, base + cpos, \
                        base + at
                    r_detail[r], r_line[r] = D_BOARD, n
                    r += 1
                    cpos = at
                    continue
                if stud and _stud_street(data, s, e):
                    stud_street += 1
                    for k2 in range(ns):
                        rnd[k2] = 0
                    continue
                good = False
                break
            # a seated player's line
            seat = s_no[k]
            r_hand[r], r_seat[r], r_plo[r], r_phi[r] = h, seat, s_lo[k], s_hi[k]
            r_amount[r], r_total[r], r_clo[r], r_detail[r], r_line[r] = NULL, NULL, -1, -1, n
            if _is(data, v, e, _FOLDS) or _is(data, v, e, _CHECKS):
                r_kind[r] = K_FOLD if data[v] == 102 else K_CHECK
                r += 1
                continue
            act = -1
            if _at(data, v, e, _CALLS):
                act, p = 0, v + len(_CALLS)
            elif _at(data, v, e, _BETS_A):
                act, p = 1, v + len(_BETS_A)
            elif _at(data, v, e, _RAISES):
                act, p = 2, v + len(_RAISES)
            elif _at(data, v, e, _ALLIN_A):
                act, p = 3, v + len(_ALLIN_A)
            if act >= 0:
                fine, added = _paren_amount(data, p, e, unit)
                if not fine:
                    good = False
                    break
                before = rnd[k]
                all_in = act == 3
                if act == 3:
                    top = 0
                    for k2 in range(ns):
                        top = max(top, rnd[k2])
                    kind = K_BET if top == 0 else (K_CALL if before + added <= top else
                                                   K_RAISE)
                else:
                    kind = (K_CALL, K_BET, K_RAISE)[act]
                had = left[k]
                left[k] = had - added
                rnd[k] = before + added
                r_kind[r], r_amount[r], r_total[r] = kind, added, before + added
                if all_in or (added > 0 and added == had):
                    r_detail[r] = D_ALL_IN
                r += 1
                continue
            post, p = _post(data, v, e)
            if post >= 0:
                fine, amount = _paren_amount(data, p, e, unit)
                if not fine:
                    good = False
                    break
                live = True
                if post == 0:
                    detail = D_SB if sb == NULL else D_DEAD
                    live = sb == NULL
                    if sb == NULL:
                        sb = amount
                elif post == 1:
                    detail = D_NEW_PLAYER if big_posted else D_BB
                    big_posted = True
                elif post == 2:
                    detail, live = D_DEAD, False
                elif post == 3:
                    straddle = amount
                    detail = D_STRADDLE
                elif post == 5:
                    if bring_in == NULL:
                        bring_in = amount
                    detail = D_BRING_IN
                else:
                    if ante == 0:
                        ante = amount
                    detail, live = D_ANTE, False
                left[k] -= amount
                r_kind[r], r_amount[r], r_detail[r] = K_POST, amount, detail
                if live:
                    rnd[k] += amount
                    r_total[r] = rnd[k]
                r += 1
                continue
            if _is(data, v, e, _PROTECTED):
                protected[k] = True
                continue
            if _is(data, v, e, _ALLIN) and protected[k]:
                r_kind[r], r_detail[r] = K_NOTE, D_PROTECTION
                r += 1
                continue
            if _is(data, v, e, _MUCKS_CARDS):
                r_kind[r] = K_MUCK
                if hole_ok[k]:
                    r_clo[r], r_chi[r] = hole_lo[k], hole_hi[k]
                muck_row[k] = r
                r += 1
                continue
            if _is(data, v, e, _SHOWS_CARDS) or _at(data, v, e, _SHOWS_SP):
                continue
            label = _note(data, v, e)
            if label < 0:
                good = False
                break
            r_kind[r], r_detail[r] = K_NOTE, label
            r += 1
        if good and section == 2 and pot != NULL and uk >= 0:
            # the summary leaves out the unnamed player: the line parser gives him what the
            # pot leaves (the fast path's hand)
            paid = 0
            collects = False
            for a in range(n_awards):
                if a_detail[a] == D_MAIN:
                    paid += a_amount[a]
                    collects = collects or a_seat[a] == uk
            for f in range(n_fees):
                paid += f_amount[f]
            if not collects and pot - paid > 0:
                good = False
        if not good or section != 2 or pot == NULL:
            r, cpos = r_start, c_start
            continue
        # money last: the awards as logged (returns, then collections), the rake, the jackpot
        for a in range(n_awards):
            k = a_seat[a]
            r_hand[r], r_kind[r], r_seat[r], r_plo[r], r_phi[r] = h, K_AWARD, s_no[k], \
                s_lo[k], s_hi[k]
            r_amount[r], r_total[r], r_clo[r], r_detail[r], r_line[r] = a_amount[a], NULL, \
                -1, a_detail[a], a_line[a]
            r += 1
        for want in (D_RAKE, D_JACKPOT):
            for f in range(n_fees):
                if f_detail[f] == want:
                    r_hand[r], r_kind[r], r_seat[r], r_plo[r] = h, K_RAKE, -1, -1
                    r_amount[r], r_total[r], r_clo[r], r_detail[r], r_line[r] = f_amount[f], \
                        NULL, -1, want, f_line[f]
                    r += 1
        r_hand[r], r_kind[r], r_seat[r], r_plo[r] = h, K_ENDED, -1, -1
        r_amount[r], r_total[r], r_clo[r], r_detail[r], r_line[r] = NULL, NULL, -1, D_TOTAL, \
            last_line
        r += 1
        per[0, h], per[1, h], per[2, h], per[3, h], per[4, h] = button, bb, sb, straddle, ante
        per[5, h], per[6, h], per[7, h] = pot, last_line, bring_in
        per[8, h], per[9, h] = (s_lo[uk], s_hi[uk]) if uk >= 0 else (-1, -1)
        ok[h] = True
    row0[len(first)] = r
    used[0] = cpos
    return r


@njit(cache=True, nogil=True)
def sized_columns(rows, count, row0, ok, spans, numbers, known, kinds, details, fixed_spans,
                  pot, spec, ints, int8s, seq, valid, offsets, starts):
    """`columns`, then the string columns' offsets (`textkernel.text_sizes`) and each one's
    start in the joined strings (starts[c]; starts[-1] their size): one call, not three
    steps."""
    columns(rows, count, row0, ok, spans, numbers, known, kinds, details, fixed_spans, pot,
            spec, ints, int8s, seq, valid)
    text_sizes(spec[0], spec[1], spec[2], spec[3], spec[4], spec[5], spec[6], NULL, offsets)
    starts[0] = 0
    last = offsets.shape[1] - 1
    for c in range(offsets.shape[0]):
        starts[c + 1] = starts[c] + offsets[c, last]
    return ok


# the per-row columns `columns` fills: int64 values, their validity (after the string
# columns' ten rows), int8 values
INTS = ("ts", "amount", "total", "small_blind", "big_blind", "small_bet", "big_bet", "ante",
        "straddle", "mpu", "bring_in")
INT8S = ("seat", "button")
VALID = (*(f"text{c}" for c in range(10)), *INTS, "seat", "button", "game", "tournament")


@njit(cache=True, nogil=True)
def columns(rows, count, row0, ok, spans, numbers, known, kinds, details, fixed_spans, pot,
            spec, ints, int8s, seq, valid):
    """The columns of rows[:, :count] (`ROW_FIELDS`): string specs for `textkernel.text_fill`
    (hand_id, table_id, kind, player, cards, detail, source, variant, structure, currency:
    (lo1, hi1, lo2, hi2, num, lo3, hi3) each), `INTS`, `INT8S`, seq and `VALID` rows; the
    hand's columns (spans[:, h]: hand_id, table_id, note, variant, structure, currency; numbers
    and known[:, h]: ts, small_blind, big_blind, small_bet, big_bet, ante, straddle, button,
    mpu, tournament, bring_in) on its first row; fixed_spans: the source prefix, `total_pot=` and
    `note: `."""
    for i in range(count):
        h = rows[0, i]
        head = i == row0[h]
        for c in range(10):
            spec[0, c, i] = -1
            spec[2, c, i] = -1
            spec[4, c, i] = NULL
            spec[5, c, i] = -1
        spec[0, 0, i], spec[1, 0, i] = spans[0, h], spans[1, h]
        spec[0, 1, i], spec[1, 1, i] = spans[2, h], spans[3, h]
        kind = rows[1, i]
        spec[0, 2, i], spec[1, 2, i] = kinds[0, kind], kinds[1, kind]
        spec[0, 3, i], spec[1, 3, i] = rows[3, i], rows[4, i]
        detail = rows[9, i]
        if detail == D_NOTE:
            spec[0, 5, i], spec[1, 5, i] = fixed_spans[4], fixed_spans[5]
            spec[2, 5, i], spec[3, 5, i] = rows[7, i], rows[8, i]
        else:
            spec[0, 4, i], spec[1, 4, i] = rows[7, i], rows[8, i]
        if detail == D_TOTAL:
            spec[0, 5, i], spec[1, 5, i], spec[4, 5, i] = fixed_spans[2], fixed_spans[3], pot[h]
        elif 0 <= detail < D_TOTAL:
            spec[0, 5, i], spec[1, 5, i] = details[0, detail], details[1, detail]
        spec[0, 6, i], spec[1, 6, i], spec[4, 6, i] = fixed_spans[0], fixed_spans[1], rows[10, i]
        if head:
            spec[5, 6, i], spec[6, 6, i] = spans[4, h], spans[5, h]
            for c in range(3):
                spec[0, 7 + c, i], spec[1, 7 + c, i] = spans[6 + 2 * c, h], spans[7 + 2 * c, h]
        for c in range(10):
            valid[c, i] = spec[0, c, i] >= 0
        seq[i] = i - row0[h]
        ints[1, i], ints[2, i] = rows[5, i], rows[6, i]
        valid[11, i], valid[12, i] = rows[5, i] != NULL, rows[6, i] != NULL
        int8s[0, i] = rows[2, i]
        valid[21, i] = rows[2, i] >= 0
        for f, at in ((0, 0), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7), (6, 8), (8, 9),
                      (10, 10)):
            ints[at, i] = numbers[f, h]
            valid[10 + at, i] = head and known[f, h]
        int8s[1, i] = numbers[7, h]
        valid[22, i] = head and known[7, h]
        valid[23, i] = head
        valid[24, i] = head and numbers[9, h] != 0
    return ok
