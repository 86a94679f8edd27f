"""Merge's compiled pass (numba): the hands of a file read straight from its bytes into event
rows, as the Python paths read them (`merge_fast` where it reads a hand, the XML reader
`merge._map_game` where it does not: the draws).

`layout` finds a file's hands as the XML reader's loop cuts them: a `<game` line starts one
(`merge._GAME_LINE`), its body ends on the first line holding `</game>`, the lines after it up
to the next hand are outside any hand (a description there is the next hands' game). `hands`
reads every hand whose game line the glue read (`merge_compiled._params`: variant, stakes,
money, table) line by line, each line one of the element layouts `merge_fast._LINE` reads, in
the room's attribute order (and a draw's `<event type="DRAW" .. text="N"/>`): the players and
their seats, the rounds of button games, stud and draw games (blinds, betting rounds, stud
streets, draws, showdown, the end), forced bets, folds, checks, calls, bets, raises,
completes, all-ins, shows, mucks, draws, notes and chat lines, cards, winners. A hand holding
anything else (a cancelled game, an event without a player, an amount written otherwise than
`$1,234.56`, a character outside ASCII where a value is read, a second big blind, a seat listed
twice, a player acting from no seat line, a description naming other blinds than the hand
posts, ...) is not read (`ok` False): the Python fast path and the XML reader read it.

Amounts are read in hundredths first: a hand whose chips write no fraction is in whole chips,
its amounts divided by 100 once its money is known (`merge_fast._map`'s `fractions`). Cards
are written as `merge._cards` writes them into the card area of `data` (from `card_at` on).
Row columns (`ROW_FIELDS`): hand (index), kind (`KINDS`), seat (-1: null), player span (lo -1:
null; -2: `seat N`), amount and total (`NULL`: null), cards span (lo -1: null), detail (a
constant, a span, a number and a constant: `said: ...`, `side-2/high`), line, the hand's notes
(`NOTES` bits, hand_started only) and the award's pot (for `SiteHand.settle_awards_last`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.importers.pokerstars.kernel import _at, _b, _digit, _is

NULL = np.iinfo(np.int64).min
BAD = NULL + 1  # a stakes amount finer than the cent (the glue's)
MAX_SEAT = 127
MAX_DIGITS = 15  # an amount's digits read (well inside int64 in hundredths)
CARD_ROOM = 200  # the card area's bytes per cards written (at most 64 cards, 3 bytes each)
MAX_STAMP = 4_000_000_000_000  # ms: `fromtimestamp(ms / 1000)` exact to the microsecond below

KINDS = ("hand_started", "seat", "post", "fold", "check", "call", "bet", "raise", "complete",
         "deal", "show", "muck", "award", "annotation", "hand_ended", "stand_pat", "draw")
(K_STARTED, K_SEAT, K_POST, K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_COMPLETE, K_DEAL,
 K_SHOW, K_MUCK, K_AWARD, K_NOTE, K_ENDED, K_STAND_PAT, K_DRAW) = range(len(KINDS))
_D0 = len(KINDS)
DETAILS = ("rake=implicit", "sitting_out", "small_blind", "big_blind", "ante", "bring_in",
           "hole", "board", "all_in", "uncalled", "main", "said: ", "side-", "/high", "/low",
           "disconnected", "reconnected", "player_out", "sits_out", "timed_out", "seat ",
           "down", "up", "draw", "said")
(D_RAKE, D_SITTING_OUT, D_SB, D_BB, D_ANTE, D_BRING_IN, D_HOLE, D_BOARD, D_ALL_IN,
 D_UNCALLED, D_MAIN, D_SAID, D_SIDE, D_HIGH, D_LOW, D_NOTE0, _D1, _D2, _D3, _D4,
 D_SEAT, D_DOWN, D_UP, D_DRAW, D_SAID_DRAW) = range(_D0, _D0 + len(DETAILS))
# the hand_started source's notes, one bit each, in the order the reader writes them
NOTES = (";ts=starttime read as UTC (no zone)",
         ";seats=numbered from 0 in the log, shifted to 1..",
         ";raise=chips added (this client's RAISE amounts)",
         ";stacks=balance plus the forced bets (logged after them)",
         ";blinds=as posted (the stakes name none)",
         ";limits=from the betting (the stakes name none)")
N_TS, N_SEATS, N_RAISE, N_STACKS, N_BLINDS, N_LIMITS = (1 << k for k in range(len(NOTES)))
C_NOTES = _D0 + len(DETAILS)  # constants C_NOTES + bits: the notes of those bits
C_PREFIX = C_NOTES + (1 << len(NOTES))  # the file's `merge:<name>:` (the glue's)

ROW_FIELDS = ("hand", "kind", "seat", "pl_lo", "pl_hi", "amount", "total", "cards_lo",
              "cards_hi", "d_lo1", "d_lo2", "d_hi2", "d_num", "d_lo3", "line", "notes", "pot",
              "notes_lo", "notes_hi")
N_ROW = len(ROW_FIELDS)
# per hand (`hands`' `per`; NULL: null): clock (µs), mpu, small blind, big blind, small
# bet, big bet, ante, button seat, bring-in, minimum bet
PER_FIELDS = ("micros", "mpu", "sb", "bb", "small_bet", "big_bet", "ante", "button",
              "bring_in", "min_bet")
# the glue's params per hand (`P`)
PARAM_FIELDS = ("chips", "fraction", "fixed", "stakes_kind", "s_a", "s_b", "s_ante", "own",
                "holes", "seat_count", "tournament", "stud", "start_micros", "start_note")
S_NONE, S_PAREN, S_LIMIT, S_BLINDS = range(4)

# element types, rounds, cards
EVENTS = ("SMALL_BLIND", "BIG_BLIND", "ANTE", "BRING_IN", "FOLD", "CHECK", "CALL", "BET",
          "RAISE", "COMPLETE", "ALL_IN", "SHOW", "MUCK", "DISCONNECTED", "RECONNECTED",
          "PLAYER_OUT", "SITTING_OUT", "TIMEOUT", "CHAT", "DRAW")
(E_SB, E_BB, E_ANTE, E_BRING_IN, E_FOLD, E_CHECK, E_CALL, E_BET, E_RAISE, E_COMPLETE,
 E_ALL_IN, E_SHOW, E_MUCK, E_NOTE0, _E1, _E2, _E3, E_NOTE4, E_CHAT, E_DRAW) = range(len(EVENTS))
ROUNDS = ("BLINDS", "PREFLOP", "POSTFLOP", "POSTTURN", "POSTRIVER", "SHOWDOWN", "END_OF_GAME",
          "END_OF_FOLDED_GAME", "BRING_IN", "THIRD_STREET", "FOURTH_STREET", "FIFTH_STREET",
          "SIXTH_STREET", "SEVENTH_STREET", "PRE_FIRST_DRAW", "POST_FIRST_DRAW",
          "POST_SECOND_DRAW", "POST_THIRD_DRAW", "FIRST_DRAW", "SECOND_DRAW", "THIRD_DRAW")
R_SEVENTH, R_PRE_DRAW, R_DRAW = 13, 14, 18
R_BRING_IN = 8


@njit(cache=True, nogil=True)
def _street(rid):
    """A stud street round's number of cards (`merge._STUD_STREETS`), else 0."""
    if rid == R_BRING_IN:
        return 3
    return rid - 6 if R_BRING_IN < rid <= R_SEVENTH else 0


@njit(cache=True, nogil=True)
def _new_round(rid):
    """A round whose bets start afresh (`merge._semantics`): the betting rounds but the
    first, and the draws."""
    return 2 <= rid <= 4 or 10 <= rid <= R_SEVENTH or rid > R_PRE_DRAW


@njit(cache=True, nogil=True)
def _betting(rid):
    """`merge._BETTING` or `merge._DRAW_ROUNDS` (the rounds the hole cards are dealt in)."""
    return 1 <= rid <= 4 or rid >= 9
CARDS = ("HOLE", "COMMUNITY", "SHOWN", "MUCKED", "DRAW_DRAWN_CARDS")
C_HOLE, C_COMMUNITY, C_SHOWN, C_MUCKED, C_DRAWN = range(len(CARDS))


def _words(names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    data = "".join(names).encode()
    at = np.zeros(len(names) + 1, np.int64)
    at[1:] = np.cumsum([len(n) for n in names])
    return np.frombuffer(data, np.uint8).copy(), at


_EV_W, _EV_AT = _words(EVENTS)
_RD_W, _RD_AT = _words(ROUNDS)
_CD_W, _CD_AT = _words(CARDS)
_GAME = _b("<game")
_END_GAME = _b("</game>")
_EVENT_SEQ = _b('<event sequence="')
_TYPE = _b(' type="')
_TIMESTAMP = _b(' timestamp="')
_PLAYER = _b(' player="')
_AMOUNT = _b(' amount="')
_TEXT = _b(' text="')
_CARDS_TYPE = _b('<cards type="')
_CARDS = _b(' cards="')
_HAND = _b(' hand="')
_WINNER = _b('<winner amount="')
_UNCALLED = _b(' uncalled="')
_POTNUMBER = _b(' potnumber="')
_POTTYPE = _b(' pottype="')
_PLAYER_SEAT = _b('<player seat="')
_NICKNAME = _b(' nickname="')
_BALANCE = _b(' balance="')
_DEALTIN = _b(' dealtin="')
_ROUND = _b('<round id="')
_SEQUENCE = _b(' sequence="')
_PLAYERS = _b('<players dealer="')
_END_ROUND = _b("</round>")
_END_PLAYERS = _b("</players>")
_TRUE, _FALSE = _b("true"), _b("false")
_RANKS = _b("23456789TJQKA")
_SEAT_NAME = _b("seat ")


@njit(cache=True, nogil=True)
def _space(c):
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


@njit(cache=True, nogil=True)
def _find(data, p, end, lit):
    n = len(lit)
    for q in range(p, end - n + 1):
        if _at(data, q, end, lit):
            return q
    return -1


@njit(cache=True, nogil=True)
def layout(data, begin, lo, hi, odd, kind, end_of):
    """Per line (`kind`): 1 a hand's first line, 2 in a hand's body, 3 outside any hand and
    not blank, 0 blank outside; -1 when a line cannot be told for sure here (a Unicode space
    at its ends): the file is then the Python reader's. `end_of[i]` of a first line: its
    body's last line (-1: no `</game>` before the next hand). Returns the number of hands."""
    n = len(begin)
    hands = 0
    current = -1  # the first line of the hand whose body runs, or -1
    for i in range(n):
        if odd[i]:
            return -1
        a, b = lo[i], hi[i]
        if _at(data, a, b, _GAME) and b > a + 5 and data[a + 5] >= 128:
            return -1  # (a Unicode space there would start a hand)
        if _at(data, a, b, _GAME) and b > a + 5 and (_space(data[a + 5]) or data[a + 5] == 62):
            kind[i] = 1
            end_of[i] = -1
            hands += 1
            current = i
            if _find(data, a, b, _END_GAME) >= 0:
                end_of[i] = i
                current = -1
        elif current >= 0:
            kind[i] = 2
            if _find(data, a, b, _END_GAME) >= 0:
                end_of[current] = i
                current = -1
        else:
            kind[i] = 3 if b > a else 0
    return hands


@njit(cache=True, nogil=True)
def _value(data, q, end, high):
    """The end of an attribute value starting at q (its closing quote), or -1 when a
    character `merge_fast._V` refuses comes first (`high`: bytes outside ASCII allowed,
    but U+FFFE and U+FFFF)."""
    while q < end:
        c = data[q]
        if c == 34:
            return q
        if c < 32 or c == 60 or c == 38:
            return -1
        if c >= 128:
            if not high:
                return -1
            if c == 0xEF and q + 2 < end and data[q + 1] == 0xBF and data[q + 2] >= 0xBE:
                return -1
        q += 1
    return -1


@njit(cache=True, nogil=True)
def _attr(data, q, end, lit, high):
    """` name="value"` at q: (value's start, its end), or (-1, -1)."""
    if not _at(data, q, end, lit):
        return -1, -1
    v = q + len(lit)
    e = _value(data, v, end, high)
    if e < 0:
        return -1, -1
    return v, e


@njit(cache=True, nogil=True)
def _past_hand(data, q, end):
    """Past an optional ` hand="..."` attribute at q."""
    y0, y1 = _attr(data, q, end, _HAND, True)
    return y1 + 1 if y0 >= 0 else q


@njit(cache=True, nogil=True)
def _close(data, q, end, slash):
    """`[ \\t]?/>` (or `[ \\t]?>`) ends the line at q."""
    if q < end and (data[q] == 32 or data[q] == 9):
        q += 1
    if slash:
        return end - q == 2 and data[q] == 47 and data[q + 1] == 62
    return end - q == 1 and data[q] == 62


@njit(cache=True, nogil=True)
def _number(data, a, b):
    """`0|[1-9][0-9]*` (at most 4 digits) at data[a:b] as a number, or -1."""
    if b <= a or b - a > 4 or (data[a] == 48 and b - a > 1):
        return -1
    v = 0
    for k in range(a, b):
        if not _digit(data[k]):
            return -1
        v = v * 10 + data[k] - 48
    return v


@njit(cache=True, nogil=True)
def _digits(data, a, b):
    """`[0-9]+` at data[a:b]."""
    if b <= a:
        return False
    for k in range(a, b):
        if not _digit(data[k]):
            return False
    return True


@njit(cache=True, nogil=True)
def _word(data, a, b, words, at):
    """The index of data[a:b] among the words, or -1."""
    for w in range(len(at) - 1):
        if at[w + 1] - at[w] == b - a:
            same = True
            for k in range(b - a):
                if data[a + k] != words[at[w] + k]:
                    same = False
                    break
            if same:
                return w
    return -1


@njit(cache=True, nogil=True)
def _upper(data, a, b):
    """data[a:b] is `[A-Z_]+`."""
    if b <= a:
        return False
    for k in range(a, b):
        c = data[k]
        if not (65 <= c <= 90 or c == 95):
            return False
    return True


@njit(cache=True, nogil=True)
def _amount(data, a, b):
    """`merge._Money` of data[a:b] in hundredths: (value, has a fraction, read); read only
    `$?[0-9,]*[0-9][0-9,]*(.[0-9]+)?` (commas anywhere in the whole part, no sign, no space,
    no other currency) with at most two fraction digits that are not zero."""
    p = a
    if p < b and data[p] == 36:
        p += 1
    whole = 0
    digits = 0
    while p < b and (_digit(data[p]) or data[p] == 44):
        if data[p] != 44:
            whole = whole * 10 + data[p] - 48
            digits += 1
            if digits > MAX_DIGITS:
                return 0, False, False
        p += 1
    if digits == 0:
        return 0, False, False
    frac = 0
    fraction = False
    if p < b and data[p] == 46:
        p += 1
        if p >= b:
            return 0, False, False
        k = 0
        while p < b and _digit(data[p]):
            d = data[p] - 48
            if d:
                fraction = True
                if k >= 2:
                    return 0, False, False  # finer than the cent
            if k < 2:
                frac = frac * 10 + d
            k += 1
            p += 1
        if k == 1:
            frac *= 10
    if p != b:
        return 0, False, False
    return whole * 100 + frac, fraction, True


@njit(cache=True, nogil=True)
def _parse_cards(data, a, b, out):
    """`merge._cards` of data[a:b] into out (two bytes a card, `??` unknown): the number of
    cards, or -1 when a token is not a card (or holds a byte outside ASCII)."""
    tokens = 1
    for k in range(a, b):
        if data[k] == 44:
            tokens += 1
    n = 0
    s = a
    while s <= b:
        e = s
        while e < b and data[e] != 44:
            e += 1
        x, y = s, e
        while x < y and data[x] == 32:
            x += 1
        while y > x and data[y - 1] == 32:
            y -= 1
        if y > x or tokens > 1:
            if n >= out.shape[0]:
                return -1
            ln = y - x
            for k in range(x, y):
                if data[k] >= 128:
                    return -1
            if ln == 0 or (ln == 4 and data[x] == 110 and data[x + 1] == 117 and
                           data[x + 2] == 108 and data[x + 3] == 108) or \
                    (ln == 1 and (data[x] == 63 or data[x] == 88)) or \
                    (ln == 2 and ((data[x] == 63 and data[x + 1] == 63) or
                                  (data[x] == 120 and data[x + 1] == 120))):
                out[n, 0] = 63
                out[n, 1] = 63
            else:
                if ln == 3 and data[x] == 49 and data[x + 1] == 48:
                    r, su = 84, data[x + 2]
                elif ln == 2:
                    r, su = data[x], data[x + 1]
                else:
                    return -1
                if 97 <= r <= 122:
                    r -= 32
                if 65 <= su <= 90:
                    su += 32
                good = False
                for k in range(len(_RANKS)):
                    if _RANKS[k] == r:
                        good = True
                if not good or not (su == 99 or su == 100 or su == 104 or su == 115):
                    return -1
                out[n, 0] = r
                out[n, 1] = su
            n += 1
        s = e + 1
    return n


@njit(cache=True, nogil=True)
def _write_cards(cards, k0, k1, full, at):
    """Cards k0:k1 written at full[at:] joined by spaces: the position after them."""
    for k in range(k0, k1):
        if k > k0:
            full[at] = 32
            at += 1
        full[at] = cards[k, 0]
        full[at + 1] = cards[k, 1]
        at += 2
    return at


@njit(cache=True, nogil=True)
def _same_name(data, a_lo, a_hi, a_seat, b_lo, b_hi, b_seat):
    """Two players' names equal (a span, or `seat N` where lo == -2)."""
    if a_lo == -2 and b_lo == -2:
        return a_seat == b_seat
    if a_lo == -2:
        return _same_name(data, b_lo, b_hi, b_seat, a_lo, a_hi, a_seat)
    if b_lo == -2:  # `seat N`
        if a_hi - a_lo < 6 or not _at(data, a_lo, a_hi, _SEAT_NAME):
            return False
        v = _number(data, a_lo + 5, a_hi)
        return v == b_seat
    if a_hi - a_lo != b_hi - b_lo:
        return False
    for k in range(a_hi - a_lo):
        if data[a_lo + k] != data[b_lo + k]:
            return False
    return True


@njit(cache=True, nogil=True)
def _lead(data, begin, lo):
    """Only spaces and tabs before the line's text (`merge_fast._LINE`'s `^[ \\t]*`)."""
    for k in range(begin, lo):
        if data[k] != 32 and data[k] != 9:
            return False
    return True


@njit(cache=True, nogil=True)
def _row(rows, r, hand, kind, seat, pl_lo, pl_hi, amount, total, line):
    rows[0, r] = hand
    rows[1, r] = kind
    rows[2, r] = seat
    rows[3, r] = pl_lo
    rows[4, r] = pl_hi
    rows[5, r] = amount
    rows[6, r] = total
    rows[7, r] = -1
    rows[8, r] = -1
    rows[9, r] = -1
    rows[10, r] = -1
    rows[11, r] = -1
    rows[12, r] = NULL
    rows[13, r] = -1
    rows[14, r] = line
    rows[15, r] = -1
    rows[16, r] = -1
    rows[17, r] = -1
    rows[18, r] = -1


# the items of a hand (`it`'s rows): type (0 event, 1 cards, 2 winner, 3 chat), code, player
# (-1 none), amount (hundredths, NULL none), line, lo, hi (cards, chat text), round, and for
# winners uncalled, pot, pottype (0, 1 h, 2 l); for chat lines the player's span
_IT = 13


@njit(cache=True, nogil=True)
def hands(full, begin, lo, hi, first, end_of, use, P, S, c_lo, c_hi, card_at, rows, per,
          ok, row0):
    """The rows of the hands `use` marks (see the module's docstring); returns their count.
    full: the file's bytes, then the glue's texts, then room for the cards."""
    n = len(first)
    longest = 1
    for h in range(n):
        if use[h] and end_of[h] >= 0:
            longest = max(longest, end_of[h] - first[h] + 1)
    it = np.empty((_IT, longest), np.int64)
    rd = np.empty((4, longest), np.int64)  # round: code, line, first item, end item
    pl = np.empty((6, longest), np.int64)  # player: number, nick lo, hi, balance, out, line
    seat_idx = np.empty(MAX_SEAT + 2, np.int64)
    cards = np.empty((64, 2), np.uint8)
    board = np.empty((64, 2), np.uint8)
    holes_lo = np.empty(MAX_SEAT + 2, np.int64)
    holes_hi = np.empty(MAX_SEAT + 2, np.int64)
    put = np.empty((2, MAX_SEAT + 2), np.int64)
    posted = np.empty((2, MAX_SEAT + 2), np.int64)
    rt = np.empty(MAX_SEAT + 2, np.int64)
    left = np.empty(MAX_SEAT + 2, np.int64)
    bets = np.empty(MAX_SEAT + 2, np.int64)
    acting = np.empty(MAX_SEAT + 2, np.bool_)
    order = np.empty(rows.shape[1], np.int64)
    tmp = np.empty((N_ROW, 1), np.int64)
    r = 0
    at = card_at
    row0[0] = 0
    for h in range(n):
        ok[h] = False
        row0[h + 1] = r
        if not use[h] or end_of[h] < 0:
            continue
        r1, at1 = _hand(full, begin, lo, hi, first[h], end_of[h], h, P[:, h], S[:, h],
                        rows, r, at, per[:, h], it, rd, pl, seat_idx, cards, board,
                        holes_lo, holes_hi, put, posted, rt, left, bets, acting, order, tmp,
                        c_lo, c_hi)
        if r1 >= 0:
            ok[h] = True
            r, at = r1, at1
            row0[h + 1] = r
    return r


@njit(cache=True, nogil=True)
def _hand(full, begin, lo, hi, g, e, h, par, spans, rows, r0, at, per, it, rd, pl,
          seat_idx, cards, board, holes_lo, holes_hi, put, posted, rt, left, bets, acting,
          order, tmp, c_lo, c_hi):
    """One hand's rows from rows[:, r0] on, its cards from full[at] on: (rows end, cards
    end), or (-1, -1) when the hand is not read here."""
    data = full
    # --- the lines: players, rounds, items --------------------------------------------
    for i in range(g, e + 1):
        if not _lead(data, begin[i], lo[i]):
            return -1, -1
    if not _is(data, lo[e], hi[e], _END_GAME):
        return -1, -1
    i = g + 1
    a, b = lo[i], hi[i]
    if not _at(data, a, b, _PLAYERS):
        return -1, -1
    v0 = a + len(_PLAYERS)
    v1 = _value(data, v0, b, False)
    if v1 < 0 or not _close(data, v1 + 1, b, False):
        return -1, -1
    neg = v1 > v0 and data[v0] == 45
    dealer = _number(data, v0 + 1 if neg else v0, v1)
    if dealer < 0:
        return -1, -1
    if neg:
        dealer = -dealer
    fraction = par[1] != 0
    n_pl = 0
    i += 1
    for s in range(MAX_SEAT + 2):
        seat_idx[s] = -1
        acting[s] = False
        holes_lo[s] = -1
    while i < e and _at(data, lo[i], hi[i], _PLAYER_SEAT):
        a, b = lo[i], hi[i]
        v0 = a + len(_PLAYER_SEAT)
        v1 = _value(data, v0, b, False)
        if v1 < 0:
            return -1, -1
        num = _number(data, v0, v1)
        n0, n1 = _attr(data, v1 + 1, b, _NICKNAME, True)
        if num < 0 or num > MAX_SEAT or n0 < 0:
            return -1, -1
        b0, b1 = _attr(data, n1 + 1, b, _BALANCE, False)
        if b0 < 0:
            return -1, -1
        d0, d1 = _attr(data, b1 + 1, b, _DEALTIN, False)
        if d0 < 0 or not _close(data, d1 + 1, b, True):
            return -1, -1
        if _is(data, d0, d1, _TRUE):
            out = 0
        elif _is(data, d0, d1, _FALSE):
            out = 1
        else:
            return -1, -1
        bal, fr, good = _amount(data, b0, b1)
        if not good or seat_idx[num] >= 0:
            return -1, -1  # (a seat listed twice: the reader's)
        fraction = fraction or fr
        seat_idx[num] = n_pl
        pl[0, n_pl] = num
        pl[1, n_pl] = n0
        pl[2, n_pl] = n1
        pl[3, n_pl] = bal
        pl[4, n_pl] = out
        pl[5, n_pl] = i + 1
        n_pl += 1
        i += 1
    if i >= e or not _is(data, lo[i], hi[i], _END_PLAYERS):
        return -1, -1
    i += 1
    n_rd = 0
    n_it = 0
    stamp = NULL
    while i < e:
        a, b = lo[i], hi[i]
        if not _at(data, a, b, _ROUND):
            return -1, -1
        v0 = a + len(_ROUND)
        v1 = _value(data, v0, b, False)
        if v1 < 0:
            return -1, -1
        code = _word(data, v0, v1, _RD_W, _RD_AT)
        s0, s1 = _attr(data, v1 + 1, b, _SEQUENCE, False)
        if code < 0 or s0 < 0 or not _digits(data, s0, s1) or not _close(data, s1 + 1, b, False):
            return -1, -1
        rd[0, n_rd] = code
        rd[1, n_rd] = i + 1
        rd[2, n_rd] = n_it
        i += 1
        while i < e and not _is(data, lo[i], hi[i], _END_ROUND):
            a, b = lo[i], hi[i]
            it[7, n_it] = n_rd
            it[4, n_it] = i + 1
            it[2, n_it] = -1
            it[3, n_it] = NULL
            if _at(data, a, b, _EVENT_SEQ):
                q = _value(data, a + len(_EVENT_SEQ), b, False)
                if q < 0 or not _digits(data, a + len(_EVENT_SEQ), q):
                    return -1, -1
                t0, t1 = _attr(data, q + 1, b, _TYPE, False)
                if t0 < 0:
                    return -1, -1
                code = _word(data, t0, t1, _EV_W, _EV_AT)
                if code < 0:
                    return -1, -1
                q = t1 + 1
                x0, x1 = _attr(data, q, b, _TIMESTAMP, False)
                if x0 >= 0:
                    if not _digits(data, x0, x1) or x1 - x0 > MAX_DIGITS:
                        return -1, -1
                    if stamp == NULL:
                        stamp = 0
                        for k in range(x0, x1):
                            stamp = stamp * 10 + data[k] - 48
                        if stamp > MAX_STAMP:
                            return -1, -1
                    q = x1 + 1
                it[0, n_it] = 0
                it[1, n_it] = code
                if code == E_CHAT:
                    it[0, n_it] = 3
                    p0, p1 = _attr(data, q, b, _PLAYER, True)
                    if p0 < 0:
                        return -1, -1
                    y0, y1 = _attr(data, p1 + 1, b, _TEXT, True)
                    if y0 < 0 or not _close(data, y1 + 1, b, True):
                        return -1, -1
                    it[5, n_it] = y0
                    it[6, n_it] = y1
                    it[11, n_it] = p0
                    it[12, n_it] = p1
                    digits = p1 > p0
                    for k in range(p0, p1):
                        if data[k] >= 128:
                            return -1, -1  # (a digit outside ASCII: the reader's)
                        if not _digit(data[k]):
                            digits = False
                    if digits:
                        num = _number(data, p0, p1)
                        if num < 0 or num > MAX_SEAT:
                            return -1, -1
                        it[2, n_it] = num
                        acting[num] = True
                else:
                    p0, p1 = _attr(data, q, b, _PLAYER, False)
                    if p0 >= 0:
                        num = _number(data, p0, p1)
                        if num < 0 or num > MAX_SEAT:
                            return -1, -1
                        it[2, n_it] = num
                        acting[num] = True
                        q = p1 + 1
                    m0, m1 = _attr(data, q, b, _AMOUNT, False)
                    if m0 >= 0:
                        amt, fr, good = _amount(data, m0, m1)
                        if not good or p0 < 0:
                            return -1, -1
                        fraction = fraction or fr
                        it[3, n_it] = amt
                        q = m1 + 1
                    if code == E_DRAW:  # the cards thrown: `text`, digits
                        y0, y1 = _attr(data, q, b, _TEXT, False)
                        if y0 < 0 or m0 >= 0 or not _digits(data, y0, y1) or y1 - y0 > 2:
                            return -1, -1
                        it[8, n_it] = 0
                        for k in range(y0, y1):
                            it[8, n_it] = it[8, n_it] * 10 + data[k] - 48
                        q = y1 + 1
                    if not _close(data, q, b, True):
                        return -1, -1
            elif _at(data, a, b, _CARDS_TYPE):
                t0 = a + len(_CARDS_TYPE)
                t1 = _value(data, t0, b, False)
                if t1 < 0:
                    return -1, -1
                code = _word(data, t0, t1, _CD_W, _CD_AT)
                x0, x1 = _attr(data, t1 + 1, b, _CARDS, False)
                if code < 0 or x0 < 0:
                    return -1, -1
                q = x1 + 1
                p0, p1 = _attr(data, q, b, _PLAYER, False)
                if p0 >= 0:
                    neg = p1 > p0 and data[p0] == 45
                    num = _number(data, p0 + 1 if neg else p0, p1)
                    if num < 0:
                        return -1, -1
                    it[2, n_it] = -2 if neg or num > MAX_SEAT else num  # (-2: no one seated)
                    q = p1 + 1
                q = _past_hand(data, q, b)
                if not _close(data, q, b, True):
                    return -1, -1
                it[0, n_it] = 1
                it[1, n_it] = code
                it[5, n_it] = x0
                it[6, n_it] = x1
            elif _at(data, a, b, _WINNER):
                m0 = a + len(_WINNER)
                m1 = _value(data, m0, b, False)
                if m1 < 0:
                    return -1, -1
                amt, fr, good = _amount(data, m0, m1)
                u0, u1 = _attr(data, m1 + 1, b, _UNCALLED, False)
                if not good or u0 < 0:
                    return -1, -1
                fraction = fraction or fr
                if _is(data, u0, u1, _TRUE):
                    unc = 1
                elif _is(data, u0, u1, _FALSE):
                    unc = 0
                else:
                    return -1, -1
                o0, o1 = _attr(data, u1 + 1, b, _POTNUMBER, False)
                if o0 < 0:
                    return -1, -1
                pot = _number(data, o0, o1)
                p0, p1 = _attr(data, o1 + 1, b, _PLAYER, False)
                if pot < 0 or p0 < 0:
                    return -1, -1
                num = _number(data, p0, p1)
                if num < 0 or num > MAX_SEAT:
                    return -1, -1
                q = p1 + 1
                q = _past_hand(data, q, b)
                k0, k1 = _attr(data, q, b, _POTTYPE, False)
                if k0 < 0:
                    return -1, -1
                for k in range(k0, k1):
                    if not 97 <= data[k] <= 122:
                        return -1, -1
                q = k1 + 1
                q = _past_hand(data, q, b)
                if not _close(data, q, b, True):
                    return -1, -1
                it[0, n_it] = 2
                it[1, n_it] = 0
                it[2, n_it] = num
                it[3, n_it] = amt
                it[8, n_it] = unc
                it[9, n_it] = pot
                it[10, n_it] = 0
                if k1 == k0 + 1 and data[k0] == 104:  # h
                    it[10, n_it] = 1
                elif k1 == k0 + 1 and data[k0] == 108:  # l
                    it[10, n_it] = 2
                acting[num] = True
            else:
                return -1, -1
            n_it += 1
            i += 1
        if i >= e:
            return -1, -1
        rd[3, n_rd] = n_it
        n_rd += 1
        i += 1
    notes = 0
    if stamp != NULL:
        micros = stamp * 1000
    else:  # no event's clock: the game's start (`merge._ts`, the glue's)
        micros = par[12]
        if micros == NULL:
            return -1, -1
        if par[13]:
            notes |= N_TS
    # --- the money ------------------------------------------------------------------------
    chips = par[0] != 0
    mpu = 100 if not chips or fraction else 1
    div = 1 if mpu == 100 else 100
    if div != 1:
        for k in range(n_pl):
            pl[3, k] //= div
        for k in range(n_it):
            if it[3, k] != NULL:
                it[3, k] //= div
    stakes = np.empty(3, np.int64)
    for k in range(3):
        v = par[4 + k]
        if v == BAD or (v != NULL and v % div):
            return -1, -1
        stakes[k] = v if v == NULL else v // div
    # every player acting is seated; seats shift from 0
    shift = 0
    for s in range(MAX_SEAT + 1):
        if acting[s] and seat_idx[s] < 0:
            return -1, -1
    for k in range(n_pl):
        if pl[0, k] == 0:
            shift = 1
    for k in range(n_pl):
        seat = pl[0, k] + shift
        if seat < 1 or seat > MAX_SEAT:
            return -1, -1
        for j in range(k):
            if _same_name(data, pl[1, k] if pl[2, k] > pl[1, k] else -2, pl[2, k],
                          seat, pl[1, j] if pl[2, j] > pl[1, j] else -2, pl[2, j],
                          pl[0, j] + shift):
                return -1, -1
    # --- the raise reading (`merge._reading`) ------------------------------------------
    won = 0
    raises = False
    for k in range(n_it):
        if it[0, k] == 2:
            won += it[3, k]
        elif it[0, k] == 0 and it[3, k] != NULL and (it[1, k] == E_RAISE or it[1, k] == E_COMPLETE):
            raises = True
    n_read = 2 if raises else 1
    best = 0
    best_miss = 0
    best_rake = 0
    for reading in range(n_read):
        to = reading == 0
        for s in range(MAX_SEAT + 1):
            put[reading, s] = 0
            posted[reading, s] = 0
            rt[s] = 0
        miss = 0
        for x in range(n_rd):
            if _new_round(rd[0, x]):
                for s in range(MAX_SEAT + 1):
                    rt[s] = 0
            for k in range(rd[2, x], rd[3, x]):
                if it[0, k] != 0 or it[3, k] == NULL:
                    continue
                t = it[1, k]
                p = it[2, k]
                amt = it[3, k]
                if (t == E_RAISE or t == E_COMPLETE) and to:
                    add = max(0, amt - rt[p])
                else:
                    add = amt
                if t == E_CALL:
                    top = 0
                    for s in range(MAX_SEAT + 1):
                        top = max(top, rt[s])
                    if add != top - rt[p]:
                        miss += 1
                if t == E_SB or t == E_BB or t == E_ANTE or t == E_BRING_IN:
                    posted[reading, p] += amt
                if t != E_ANTE:
                    rt[p] += add
                put[reading, p] += add
        total = 0
        for s in range(MAX_SEAT + 1):
            total += put[reading, s]
        rake = total - won
        if reading == 0:
            best, best_miss, best_rake = 0, miss, rake
        else:
            # fewest miscalls among the readings whose rake is not negative (or all)
            fits0 = best_rake >= 0
            fits1 = rake >= 0
            if fits1 and not fits0:
                best, best_miss, best_rake = 1, miss, rake
            elif fits1 == fits0 and (miss < best_miss or (miss == best_miss and
                                                          rake < best_rake)):
                best, best_miss, best_rake = 1, miss, rake
    raise_to = best == 0
    if shift:
        notes |= N_SEATS
    if not raise_to:
        notes |= N_RAISE
    # --- the stacks: balance plus the forced bets? (`merge._acts_past_balance`) -----------
    after = False
    for k in range(n_pl):
        if put[best, pl[0, k]] > pl[3, k]:
            after = True
    if not after:
        for s in range(MAX_SEAT + 1):
            bets[s] = 0  # (the running put)
            rt[s] = 0
        for x in range(n_rd):
            if after:
                break
            if _new_round(rd[0, x]):
                for s in range(MAX_SEAT + 1):
                    rt[s] = 0
            for k in range(rd[2, x], rd[3, x]):
                if it[0, k] != 0:
                    continue
                t = it[1, k]
                p = it[2, k]
                if E_FOLD <= t <= E_ALL_IN and p >= 0 and seat_idx[p] >= 0:
                    bal = pl[3, seat_idx[p]]
                    if bets[p] >= bal and bal > 0:
                        after = True
                        break
                if it[3, k] == NULL:
                    continue
                amt = it[3, k]
                add = max(0, amt - rt[p]) if (t == E_RAISE or t == E_COMPLETE) and raise_to \
                    else amt
                if t != E_ANTE:
                    rt[p] += add
                bets[p] += add
    if after:
        notes |= N_STACKS
        for k in range(n_pl):
            pl[3, k] += posted[best, pl[0, k]]
    # --- the stakes (`merge._stakes`) --------------------------------------------------
    stud = par[11] != 0
    p_sb = p_bb = p_ante = p_bring = NULL
    for k in range(n_it):
        if it[0, k] == 0 and it[3, k] != NULL:
            t = it[1, k]
            if t == E_SB and p_sb == NULL:
                p_sb = it[3, k]
            elif t == E_BB and p_bb == NULL:
                p_bb = it[3, k]
            elif t == E_ANTE and p_ante == NULL:
                p_ante = it[3, k]
            elif t == E_BRING_IN and p_bring == NULL:
                p_bring = it[3, k]
    kind = par[3]
    sb = bb = small_bet = big_bet = bring = min_bet = NULL
    ante = 0
    if kind == S_PAREN and stud:
        ante, bring, min_bet = stakes[0], stakes[1], stakes[2]
    elif kind == S_PAREN or kind == S_BLINDS:
        sb, bb = stakes[0], stakes[1]
        if kind == S_BLINDS and stakes[2] != NULL:
            ante = stakes[2]
    elif kind == S_LIMIT:
        small_bet, big_bet = stakes[0], stakes[1]
    described = False  # the description names other blinds than the hand posts
    if bb != NULL and par[7] == 0 and p_bb != NULL and p_bb != 0 and p_bb != bb and \
            p_sb != sb:
        if spans[10] < 0:
            return -1, -1
        sb, bb = p_sb, p_bb
        described = True
    if p_ante != NULL and p_ante != 0 and ante == 0:
        ante = p_ante
    if stud:
        if par[2]:  # fixed limit
            if small_bet != NULL:
                pass
            elif sb != NULL:
                small_bet, big_bet = sb, bb
            else:
                small_bet, big_bet = _stud_limits(it, rd, n_rd)
                notes |= N_LIMITS
                if described:
                    return -1, -1  # (two stakes notes: the reader's)
        if bring == NULL:
            if p_bring != NULL and p_bring != 0:
                bring = p_bring
            else:
                bring = (small_bet if small_bet != NULL else 0) // 2
        sb = bb = NULL
    elif small_bet != NULL:
        bb = p_bb if p_bb != NULL and p_bb != 0 else small_bet
        sb = p_sb if p_sb != NULL and p_sb != 0 else bb // 2
    else:
        if bb == NULL:
            sb, bb = p_sb, p_bb
            if bb == NULL:
                return -1, -1
            notes |= N_BLINDS
        if par[2]:
            small_bet, big_bet = bb, 2 * bb
            sb = p_sb if p_sb != NULL and p_sb != 0 else bb // 2
        elif sb == NULL:
            sb = bb // 2
    button = NULL
    if not stud:
        button = dealer + shift
        if button < -128 or button > 127:
            return -1, -1
    per[0] = micros
    per[1] = mpu
    per[2] = sb
    per[3] = bb
    per[4] = small_bet
    per[5] = big_bet
    per[6] = ante
    per[7] = button
    per[8] = bring
    per[9] = min_bet
    # --- the rows ----------------------------------------------------------------------------
    if r0 + 2 * n_pl + 2 * n_it + 80 > rows.shape[1] or \
            at + CARD_ROOM * (3 * n_it + n_pl + 4) + (spans[11] - spans[10]) + 512 > len(full):
        return -1, -1
    r = r0
    _row(rows, r, h, K_STARTED, -1, -1, -1, NULL, NULL, g + 1)
    rows[9, r] = D_RAKE
    rows[15, r] = notes
    if described:  # the notes, then `;blinds=as posted (the description says ..)`
        rows[17, r] = at
        for k in range(c_lo[C_NOTES + notes], c_hi[C_NOTES + notes]):
            full[at] = full[k]
            at += 1
        for k in range(spans[10], spans[11]):
            full[at] = full[k]
            at += 1
        rows[18, r] = at
    r += 1
    for s in range(MAX_SEAT + 2):
        left[s] = 0
    for k in range(n_pl):
        seat = pl[0, k] + shift
        left[seat] = pl[3, k]
        nl = pl[1, k] if pl[2, k] > pl[1, k] else -2
        _row(rows, r, h, K_SEAT, seat, nl, pl[2, k], pl[3, k], NULL, pl[5, k])
        if pl[4, k]:
            rows[9, r] = D_SITTING_OUT
        r += 1
    # hole cards: each seated player's first HOLE cards (every HOLE element of a seated
    # player is read: the reader reads them all)
    count = par[8]
    now_n = np.full(MAX_SEAT + 2, -1, np.int64)  # a draw game: each player's hand now (-1:
    now_cards = np.empty((MAX_SEAT + 2, 64, 2), np.uint8)  # none known)
    for k in range(n_it):
        if it[0, k] == 1 and it[1, k] == C_HOLE and it[2, k] >= 0 and seat_idx[it[2, k]] >= 0:
            nc = _parse_cards(data, it[5, k], it[6, k], cards)
            if nc < 0:
                return -1, -1
            p = it[2, k]
            if holes_lo[p] < 0:
                holes_lo[p] = at
                at = _write_cards(cards, 0, min(nc, count), full, at)
                holes_hi[p] = at
                now_n[p] = nc
                now_cards[p, :nc] = cards[:nc]
    dealt = stud  # (stud deals by street, never the button games' hole cards)
    street = 0
    stud_n = np.zeros(MAX_SEAT + 2, np.int64)  # the stud cards dealt each player so far
    stud_cards = np.empty((MAX_SEAT + 2, 8, 2), np.uint8)
    pend = np.empty((4, n_it + 1), np.int64)  # shows before the last street: line, type,
    n_pend = 0  # player, cards item
    n_board = 0
    bb_posted = False
    last = g + 1
    for s in range(MAX_SEAT + 2):
        bets[s] = 0
    held_lo = np.empty(MAX_SEAT + 2, np.int64)  # the hole cards dealt by seat (span)
    held_hi = np.empty(MAX_SEAT + 2, np.int64)
    for s in range(MAX_SEAT + 2):
        held_lo[s] = -1
    awards = 0
    unknown_at = -1
    for x in range(n_rd):
        rid = rd[0, x]
        i0, i1 = rd[2, x], rd[3, x]
        last = it[4, i1 - 1] if i1 > i0 else rd[1, x]
        if n_pend and _street(rid) == 0:  # the shows of an all-in before the last street
            for q in range(n_pend):
                p = pend[2, q]
                j = seat_idx[p]
                nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
                _row(rows, r, h, K_SHOW if pend[1, q] == E_SHOW else K_MUCK, p + shift, nl,
                     pl[2, j], NULL, NULL, pend[0, q])
                known = stud_n[p] > 0
                for c in range(stud_n[p]):
                    if stud_cards[p, c, 0] == 63 and stud_cards[p, c, 1] == 63:
                        known = False
                if known:
                    rows[7, r] = at
                    at = _write_cards(stud_cards[p], 0, stud_n[p], full, at)
                    rows[8, r] = at
                elif pend[3, q] >= 0:
                    y = pend[3, q]
                    nc = _parse_cards(data, it[5, y], it[6, y], cards)
                    if nc < 0:
                        return -1, -1
                    rows[7, r] = at
                    at = _write_cards(cards, 0, nc, full, at)
                    rows[8, r] = at
                r += 1
            n_pend = 0
        if not dealt and _betting(rid):
            unknown_at = at
            for k in range(count):
                if k:
                    full[at] = 32
                    at += 1
                full[at] = 63
                full[at + 1] = 63
                at += 2
            for seat in range(1, MAX_SEAT + 1):
                k = seat_idx[seat - shift] if seat - shift <= MAX_SEAT else -1
                if k < 0 or pl[4, k]:
                    continue
                p = pl[0, k]
                nl = pl[1, k] if pl[2, k] > pl[1, k] else -2
                _row(rows, r, h, K_DEAL, seat, nl, pl[2, k], NULL, NULL, rd[1, x])
                if holes_lo[p] >= 0 and holes_hi[p] > holes_lo[p]:
                    rows[7, r], rows[8, r] = holes_lo[p], holes_hi[p]
                else:
                    rows[7, r], rows[8, r] = unknown_at, at
                held_lo[seat], held_hi[seat] = rows[7, r], rows[8, r]
                rows[9, r] = D_HOLE
                r += 1
            dealt = True
        if _new_round(rid):
            for s in range(MAX_SEAT + 2):
                bets[s] = 0
        number = _street(rid)
        if stud and number > street:  # the street's cards (`merge._stud_deals`)
            street = number
            for k in range(i0, i1):
                if it[0, k] != 1 or (it[1, k] != C_DRAWN and it[1, k] != C_HOLE):
                    continue
                p = it[2, k]
                if p < 0 or seat_idx[p] < 0:
                    return -1, -1
                nc = _parse_cards(data, it[5, k], it[6, k], cards)
                if nc < 0:
                    return -1, -1
                while nc < number:
                    cards[nc, 0] = 63
                    cards[nc, 1] = 63
                    nc += 1
                have = stud_n[p]
                new = max(0, number - have)
                for c in range(number):
                    stud_cards[p, c, 0] = cards[c, 0]
                    stud_cards[p, c, 1] = cards[c, 1]
                stud_n[p] = number
                j = seat_idx[p]
                nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
                if number == 3:
                    if new != 3:
                        return -1, -1
                    _row(rows, r, h, K_DEAL, p + shift, nl, pl[2, j], NULL, NULL, it[4, k])
                    rows[7, r] = at
                    at = _write_cards(cards, 0, 2, full, at)
                    rows[8, r] = at
                    rows[9, r] = D_DOWN
                    r += 1
                    _row(rows, r, h, K_DEAL, p + shift, nl, pl[2, j], NULL, NULL, it[4, k])
                    rows[7, r] = at
                    at = _write_cards(cards, 2, 3, full, at)
                    rows[8, r] = at
                    rows[9, r] = D_UP
                    r += 1
                elif new == 1:
                    _row(rows, r, h, K_DEAL, p + shift, nl, pl[2, j], NULL, NULL, it[4, k])
                    rows[7, r] = at
                    at = _write_cards(cards, have, have + 1, full, at)
                    rows[8, r] = at
                    rows[9, r] = D_DOWN if number == 7 else D_UP
                    r += 1
                elif new:
                    return -1, -1
        for k in range(i0, i1):  # the board first
            if it[0, k] != 1 or it[1, k] != C_COMMUNITY:
                continue
            nc = _parse_cards(data, it[5, k], it[6, k], cards)
            if nc < 0 or nc < n_board:
                return -1, -1
            for c in range(n_board):
                if cards[c, 0] != board[c, 0] or cards[c, 1] != board[c, 1]:
                    return -1, -1
            while nc > n_board:
                step = 3 if n_board == 0 else 1
                for s in range(MAX_SEAT + 2):
                    bets[s] = 0
                top = min(nc, n_board + step)
                _row(rows, r, h, K_DEAL, -1, -1, -1, NULL, NULL, it[4, k])
                rows[7, r] = at
                at = _write_cards(cards, n_board, top, full, at)
                rows[8, r] = at
                rows[9, r] = D_BOARD
                r += 1
                for c in range(n_board, top):
                    board[c, 0] = cards[c, 0]
                    board[c, 1] = cards[c, 1]
                n_board = top
        if rid >= R_DRAW:  # a draw (`merge._draw_round`)
            last = rd[1, x]
            r, at = _draw_round(data, full, it, i0, i1, rows, r, at, h, seat_idx, pl, shift,
                                now_n, now_cards, cards)
            if r < 0:
                return -1, -1
            continue
        for k in range(i0, i1):
            kind_it = it[0, k]
            p = it[2, k]
            line = it[4, k]
            if kind_it == 3:  # a chat line
                if p >= 0:
                    j = seat_idx[p]
                    seat = p + shift
                    nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
                    _row(rows, r, h, K_NOTE, seat, nl, pl[2, j], NULL, NULL, line)
                else:
                    _row(rows, r, h, K_NOTE, -1, -1, -1, NULL, NULL, line)
                rows[9, r] = D_SAID
                rows[10, r] = it[5, k]
                rows[11, r] = it[6, k]
                r += 1
                continue
            if kind_it == 2:  # a winner
                j = seat_idx[p]
                seat = p + shift
                nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
                _row(rows, r, h, K_AWARD, seat, nl, pl[2, j], it[3, k], NULL, line)
                pot = it[9, k]
                if it[8, k]:
                    rows[9, r] = D_UNCALLED
                    rows[16, r] = 0
                else:
                    if pot <= 1:
                        rows[9, r] = D_MAIN
                        rows[16, r] = 0
                    else:
                        rows[9, r] = D_SIDE
                        rows[12, r] = pot - 1
                        rows[16, r] = pot - 1
                    if it[10, k] == 1:
                        rows[13, r] = D_HIGH
                    elif it[10, k] == 2:
                        rows[13, r] = D_LOW
                awards += 1
                r += 1
                continue
            if kind_it == 1:  # cards: shown or mucked without their event
                t = it[1, k]
                if t != C_SHOWN and t != C_MUCKED:
                    continue
                want = E_SHOW if t == C_SHOWN else E_MUCK
                found = False
                for y in range(i0, i1):
                    if it[0, y] == 0 and it[1, y] == want and p >= 0 and it[2, y] == p:
                        found = True
                if found:
                    continue
                if p < 0 or seat_idx[p] < 0:
                    return -1, -1
                j = seat_idx[p]
                nc = _parse_cards(data, it[5, k], it[6, k], cards)
                if nc < 0:
                    return -1, -1
                nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
                _row(rows, r, h, K_SHOW if t == C_SHOWN else K_MUCK, p + shift, nl, pl[2, j],
                     NULL, NULL, line)
                rows[7, r] = at
                at = _write_cards(cards, 0, nc, full, at)
                rows[8, r] = at
                r += 1
                continue
            t = it[1, k]
            amount = it[3, k]
            if t >= E_NOTE0 and t <= E_NOTE4:
                if p >= 0:
                    j = seat_idx[p]
                    nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
                    _row(rows, r, h, K_NOTE, p + shift, nl, pl[2, j], NULL, NULL, line)
                else:
                    _row(rows, r, h, K_NOTE, -1, -1, -1, NULL, NULL, line)
                rows[9, r] = D_NOTE0 + t - E_NOTE0
                r += 1
                continue
            if p < 0 or t == E_DRAW:
                return -1, -1
            j = seat_idx[p]
            seat = p + shift
            nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
            if t == E_FOLD or t == E_CHECK:
                _row(rows, r, h, K_FOLD if t == E_FOLD else K_CHECK, seat, nl, pl[2, j], NULL,
                     NULL, line)
                r += 1
            elif t <= E_BRING_IN:  # a forced bet
                if amount == NULL:
                    return -1, -1
                if t == E_BB:
                    if bb_posted:
                        return -1, -1  # a second big blind: a player coming in
                    bb_posted = True
                left[seat] -= amount
                total = NULL
                if t != E_ANTE:
                    bets[seat] += amount
                    total = bets[seat]
                _row(rows, r, h, K_POST, seat, nl, pl[2, j], amount, total, line)
                rows[9, r] = (D_SB, D_BB, D_ANTE, D_BRING_IN)[t]
                r += 1
            elif t == E_SHOW or t == E_MUCK:
                c = -1  # the round's last SHOWN or MUCKED cards of the player
                for y in range(i0, i1):
                    if it[0, y] == 1 and (it[1, y] == C_SHOWN or it[1, y] == C_MUCKED) and \
                            it[2, y] == p:
                        c = y
                later = False
                for y in range(x + 1, n_rd):
                    if _street(rd[0, y]) > 0:
                        later = True
                if stud and street < 7 and later:  # shown once every card is dealt
                    pend[0, n_pend] = line
                    pend[1, n_pend] = t
                    pend[2, n_pend] = p
                    pend[3, n_pend] = c
                    n_pend += 1
                    continue
                _row(rows, r, h, K_SHOW if t == E_SHOW else K_MUCK, seat, nl, pl[2, j], NULL,
                     NULL, line)
                if c >= 0 and (t == E_MUCK or it[1, c] == C_SHOWN):
                    nc = _parse_cards(data, it[5, c], it[6, c], cards)
                    if nc < 0:
                        return -1, -1
                    if t == E_MUCK or nc > 0:
                        rows[7, r] = at
                        at = _write_cards(cards, 0, nc, full, at)
                        rows[8, r] = at
                if t == E_SHOW and rows[7, r] < 0:
                    if held_lo[seat] >= 0 and held_hi[seat] > held_lo[seat]:
                        rows[7, r], rows[8, r] = held_lo[seat], held_hi[seat]
                    else:
                        rows[7, r] = at
                        for c in range(2):
                            if c:
                                full[at] = 32
                                at += 1
                            full[at] = 63
                            full[at + 1] = 63
                            at += 2
                        rows[8, r] = at
                r += 1
            elif t == E_ALL_IN and amount == NULL:
                _row(rows, r, h, K_NOTE, seat, nl, pl[2, j], NULL, NULL, line)
                rows[9, r] = D_ALL_IN
                r += 1
            else:
                if amount == NULL:
                    return -1, -1
                before = bets[seat]
                if (t == E_RAISE or t == E_COMPLETE) and raise_to:
                    added = amount - before
                    if added < 0:
                        return -1, -1
                else:
                    added = amount
                if t == E_ALL_IN:
                    top = 0
                    for s in range(MAX_SEAT + 2):
                        top = max(top, bets[s])
                    act = K_BET if top == 0 else (K_CALL if before + added <= top else K_RAISE)
                else:
                    act = (K_CALL, K_BET, K_RAISE, K_COMPLETE)[t - E_CALL]
                stack = left[seat]
                left[seat] = stack - added
                bets[seat] = before + added
                _row(rows, r, h, act, seat, nl, pl[2, j], added, before + added, line)
                if t == E_ALL_IN or (added > 0 and added == stack):
                    rows[9, r] = D_ALL_IN
                r += 1
    _row(rows, r, h, K_ENDED, -1, -1, -1, NULL, NULL, last)
    r += 1
    _settle(rows, r0, r, awards, order, tmp)
    return r, at


@njit(cache=True, nogil=True)
def _draw_round(data, full, it, i0, i1, rows, r, at, h, seat_idx, pl, shift, now_n, now_cards,
                cards):
    """A draw round's rows (`merge._draw_round`): each DRAW a `draw` of the cards thrown and
    a `deal` of the ones drawn (known when the player's hand before and after are), a stand
    pat, folds, notes and chat; (rows end, cards end), or (-1, -1): not read here."""
    after = np.full(MAX_SEAT + 2, -1, np.int64)  # each player's DRAW_DRAWN_CARDS item
    for k in range(i0, i1):
        if it[0, k] == 1 and it[1, k] == C_DRAWN:
            if _parse_cards(data, it[5, k], it[6, k], cards) < 0:
                return -1, -1
            if it[2, k] >= 0:
                after[it[2, k]] = k
    thrown = np.empty((64, 2), np.uint8)
    got = np.empty((64, 2), np.uint8)
    for k in range(i0, i1):
        kind_it = it[0, k]
        if kind_it == 1 or kind_it == 2:
            continue
        t = it[1, k]
        p = it[2, k]
        line = it[4, k]
        seated = p >= 0 and seat_idx[p] >= 0
        j = seat_idx[p] if seated else -1
        nl = -1
        if seated:
            nl = pl[1, j] if pl[2, j] > pl[1, j] else -2
        if kind_it == 3 or E_NOTE0 <= t <= E_NOTE4:
            if seated:
                _row(rows, r, h, K_NOTE, p + shift, nl, pl[2, j], NULL, NULL, line)
            else:
                _row(rows, r, h, K_NOTE, -1, -1, -1, NULL, NULL, line)
            rows[9, r] = D_SAID_DRAW if kind_it == 3 else D_NOTE0 + t - E_NOTE0
            r += 1
            continue
        if not seated or (t != E_FOLD and t != E_DRAW):
            return -1, -1
        if t == E_FOLD:
            _row(rows, r, h, K_FOLD, p + shift, nl, pl[2, j], NULL, NULL, line)
            r += 1
            continue
        n = it[8, k]
        if n > 64:
            return -1, -1
        if n == 0:
            _row(rows, r, h, K_STAND_PAT, p + shift, nl, pl[2, j], NULL, NULL, line)
            r += 1
            continue
        n_thrown = n_got = -1
        y = after[p]
        if now_n[p] >= 0 and y >= 0:
            nc = _parse_cards(data, it[5, y], it[6, y], cards)
            known = True
            for c in range(nc):
                if cards[c, 0] == 63 and cards[c, 1] == 63:
                    known = False
            if known:
                n_thrown = 0
                for c in range(now_n[p]):  # the cards before not in the hand now
                    inside = False
                    for d in range(nc):
                        if cards[d, 0] == now_cards[p, c, 0] and cards[d, 1] == now_cards[p, c, 1]:
                            inside = True
                    if not inside:
                        thrown[n_thrown] = now_cards[p, c]
                        n_thrown += 1
                n_got = 0
                for d in range(nc):  # the cards now not in the hand before
                    inside = False
                    for c in range(now_n[p]):
                        if cards[d, 0] == now_cards[p, c, 0] and cards[d, 1] == now_cards[p, c, 1]:
                            inside = True
                    if not inside:
                        got[n_got] = cards[d]
                        n_got += 1
                if n_thrown != n or n_got != n:
                    n_thrown = n_got = -1
                now_n[p] = nc
                now_cards[p, :nc] = cards[:nc]
        if n_thrown < 0:
            for c in range(n):
                thrown[c, 0] = 63
                thrown[c, 1] = 63
                got[c, 0] = 63
                got[c, 1] = 63
        _row(rows, r, h, K_DRAW, p + shift, nl, pl[2, j], n, NULL, line)
        rows[7, r] = at
        at = _write_cards(thrown, 0, n, full, at)
        rows[8, r] = at
        r += 1
        _row(rows, r, h, K_DEAL, p + shift, nl, pl[2, j], NULL, NULL, line)
        rows[7, r] = at
        at = _write_cards(got, 0, n, full, at)
        rows[8, r] = at
        rows[9, r] = D_DRAW
        r += 1
    return r, at


@njit(cache=True, nogil=True)
def _stud_limits(it, rd, n_rd):
    """`merge._stud_limits`: the small bet (the first third-street completion or fourth-street
    bet) and the big bet (the first bet from fifth street on) of the betting."""
    small = big = NULL
    for x in range(n_rd):
        street = _street(rd[0, x])
        for k in range(rd[2, x], rd[3, x]):
            if it[0, k] != 0 or it[3, k] == NULL:
                continue
            t = it[1, k]
            if street == 3 and t == E_COMPLETE and small == NULL:
                small = it[3, k]
            elif street == 4 and t == E_BET and small == NULL:
                small = it[3, k]
            elif street >= 5 and t == E_BET and big == NULL:
                big = it[3, k]
    if small == NULL and big != NULL:
        small = big // 2
    if small == NULL:
        small = 0
    return small, big if big != NULL else 2 * small


@njit(cache=True, nogil=True)
def _settle(rows, r0, r1, awards, order, tmp):
    """`SiteHand.settle_awards_last` (`merge_fast._settled`): the awards after the play,
    grouped by pot, the hand's end last."""
    tail = r1 - 1 - awards
    grouped = True
    for k in range(tail, r1 - 1):
        if rows[1, k] != K_AWARD:
            grouped = False
            break
        if k > tail and rows[16, k] != rows[16, k - 1]:
            for y in range(tail, k):
                if rows[16, y] == rows[16, k]:
                    grouped = False
    if grouped:
        return
    n = 0
    for k in range(r0, r1 - 1):
        if rows[1, k] != K_AWARD:
            order[n] = k
            n += 1
    for k in range(r0 + 1, r1 - 1):
        if rows[1, k] != K_AWARD:
            continue
        first = True
        for y in range(r0 + 1, k):
            if rows[1, y] == K_AWARD and rows[16, y] == rows[16, k]:
                first = False
                break
        if not first:
            continue
        for y in range(k, r1 - 1):
            if rows[1, y] == K_AWARD and rows[16, y] == rows[16, k]:
                order[n] = y
                n += 1
    order[n] = r1 - 1
    n += 1
    saved = np.empty((N_ROW, n), np.int64)
    for k in range(n):
        for f in range(N_ROW):
            saved[f, k] = rows[f, order[k]]
    for k in range(n):
        for f in range(N_ROW):
            rows[f, r0 + k] = saved[f, k]


@njit(cache=True, nogil=True)
def columns(rows, count, row0, per, P, S, c_lo, c_hi, spec, i64, i32, i8, valid):
    """The columns of `count` rows: spec[:, c] (lo1, hi1, lo2, hi2, num, lo3, hi3) of the ten
    string columns (hand_id, table_id, kind, player, cards, detail, source, variant,
    structure, currency; `textkernel.text_sizes`), i64 (ts, amount, total, small blind, big
    blind, small bet, big bet, ante, mpu, bring-in, minimum bet), i32 (seq), i8 (seat,
    button, seat count, tournament) and the validity rows (hand_started, seat, amount,
    total, small blind, big blind, small bet, big bet, bring-in, minimum bet, button, seat
    count)."""
    for f in range(7):
        for c in range(10):
            for i in range(count):
                spec[f, c, i] = -1
    for c in range(10):
        for i in range(count):
            spec[4, c, i] = NULL
    for i in range(count):
        h = rows[0, i]
        kind = rows[1, i]
        started = kind == K_STARTED
        spec[0, 0, i], spec[1, 0, i] = S[0, h], S[1, h]
        spec[0, 1, i], spec[1, 1, i] = S[2, h], S[3, h]
        spec[0, 2, i], spec[1, 2, i] = c_lo[kind], c_hi[kind]
        if rows[3, i] == -2:
            spec[0, 3, i], spec[1, 3, i] = c_lo[D_SEAT], c_hi[D_SEAT]
            spec[4, 3, i] = rows[2, i]
        elif rows[3, i] >= 0:
            spec[0, 3, i], spec[1, 3, i] = rows[3, i], rows[4, i]
        if rows[7, i] >= 0:
            spec[0, 4, i], spec[1, 4, i] = rows[7, i], rows[8, i]
        d = rows[9, i]
        if d >= 0:
            spec[0, 5, i], spec[1, 5, i] = c_lo[d], c_hi[d]
            if rows[10, i] >= 0:
                spec[2, 5, i], spec[3, 5, i] = rows[10, i], rows[11, i]
            spec[4, 5, i] = rows[12, i]
            if rows[13, i] >= 0:
                spec[5, 5, i], spec[6, 5, i] = c_lo[rows[13, i]], c_hi[rows[13, i]]
        spec[0, 6, i], spec[1, 6, i] = c_lo[C_PREFIX], c_hi[C_PREFIX]
        spec[4, 6, i] = rows[14, i]
        if started and rows[17, i] >= 0:
            spec[5, 6, i], spec[6, 6, i] = rows[17, i], rows[18, i]
        elif started and rows[15, i] > 0:
            spec[5, 6, i], spec[6, 6, i] = c_lo[C_NOTES + rows[15, i]], c_hi[C_NOTES + rows[15, i]]
        valid[0, i] = started
        valid[1, i] = rows[2, i] >= 0
        valid[2, i] = rows[5, i] != NULL
        valid[3, i] = rows[6, i] != NULL
        i32[0, i] = i - row0[h]
        i8[0, i] = rows[2, i] if rows[2, i] >= 0 else 0
        i64[1, i] = rows[5, i] if rows[5, i] != NULL else 0
        i64[2, i] = rows[6, i] if rows[6, i] != NULL else 0
        if started:
            for c in range(3):
                spec[0, 7 + c, i], spec[1, 7 + c, i] = S[4 + 2 * c, h], S[5 + 2 * c, h]
            i64[0, i] = per[0, h]
            i64[7, i] = per[6, h]
            i64[8, i] = per[1, h]
            for f, v in ((3, 2), (4, 3), (5, 4), (6, 5), (9, 8), (10, 9)):
                x = per[v, h]
                valid[f + 1 if f < 7 else f - 1, i] = x != NULL
                i64[f, i] = x if x != NULL else 0
            valid[10, i] = per[7, h] != NULL
            i8[1, i] = per[7, h] if per[7, h] != NULL else 0
            valid[11, i] = P[9, h] >= 0
            i8[2, i] = P[9, h] if P[9, h] >= 0 else 0
            i8[3, i] = P[10, h]
        else:
            for f in (0, 3, 4, 5, 6, 7, 8, 9, 10):
                i64[f, i] = 0
            for f in range(4, 12):
                valid[f, i] = False
            i8[1, i] = 0
            i8[2, i] = 0
            i8[3, i] = 0
