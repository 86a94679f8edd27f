"""Bovada import, fast path: the common hand shapes mapped straight to event columns.

`bovada._map_bovada` (the line parser) is the single source of truth; this module reads the
hands it fully understands the same way, value for value, without a dict per event: each
event is a row tuple (kind, seat, player, amount, total, cards, detail, line), a hand's
columns that repeat (hand id, table, seq, source) are filled once per hand, and each chunk is
one Arrow table built from the column lists. A player's line is classified once per distinct
text (a file repeats the same few: `Folds`, `Calls $0.25`, ...) into an opcode with its
amounts in minor units.

It takes button games (hold'em, Omaha hi and hi/lo, with or without street lines) made only
of lines it knows: seats, `Table Info`, blinds, antes, posts, hole cards, folds, checks,
calls, bets, raises, all-ins, boards, uncalled returns, results, shows and mucks, the room's
notes, the summary's pot, rake, board and seat lines. Any other hand (stud, an unknown or odd
line, a repeated line, a seat the parser would refuse, a hand followed by text that is not
its own, anything that raises) is the line parser's, which then reads or quarantines it; so
the chunks, events, sources, row lines and rejections are those of the line parser alone
(tests/importers/test_import_bovada_fast.py checks it on the real files, the fixtures and
fuzzed hands).

Per-file costs are kept low for the room's small files (3-40 hands): a chunk under
`_SMALL_CHUNK_ROWS` rows builds its game, source and per-hand columns from Python lists (an
Arrow compute call costs 30-100 µs whatever its size), a bigger one with Arrow's `take` and
numpy; the hand headers of a piece of lines are found at once (`HEADER_LINES`).
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from audit.importers.base import Chunk
from audit.importers.bovada import (
    _ACT,
    _BLIND_OF,
    _FOLDS,
    _HEADER,
    _HEADER_LINE,
    _NEVER_TWICE,
    _NOTES,
    _POSTS,
    _SEAT,
    _SEAT_PLUS,
    _STREET,
    _STUD,
    _SUMMARY_SEAT,
    _SUMMARY_TOTAL,
    _TEXT,
    _action,
    _cards,
    _first_words,
    _hand_id,
    _label,
    _local_time,
    _map_bovada,
    _Money,
    _outside,
    _table_and_game,
    seat_lines,
)
from audit.importers.sitetext import (
    HOLE_COUNT,
    ChunkWriter,
    SiteHand,
    local_to_utc,
    raw_text,
    split_blocks,
)
from audit.schema import events_schema

# opcodes of a player's line (the text after `LABEL : `)
_DEALT, _SETDEALER, _SHOW, _MUCK, _NOSHOW, _FOLDSHOW, _WNOTE = range(7)
_FOLD, _CHECK, _POST, _NOTE, _CALL, _BET, _RAISE, _ALLIN = range(7, 15)
_UNCALLED, _RESULT, _SIDE, _BAD = range(15, 19)
_ACTION_OPS = frozenset({_FOLD, _CHECK, _CALL, _BET, _RAISE, _ALLIN})  # bovada._ACTIONS
_NOT_PLAYS = ("Leave", "Enter", "Seat ", "Sit", "Re-join", "Table ", "Stand", "Draw for",
              "Set dealer", "Ranking", "Prize")
_SHOWISH = ("Showdown", "Mucks", "Does not show", "Folds & ", "Draw for dealer", "Prize ")
_PUT_IN = frozenset({"post", "call", "bet", "raise", "complete"})
_STREET_LINES = ("*** FLOP", "*** TURN", "*** RIVER", "Card dealt to table")
_SKIPPED = ("Seating Info:", "Player Info:", "Table Info:", "Set dealer")
_STOP_BLINDS = ("Fold", "Call", "Raise", "Bet")

# a line's classification: (opcode, a, b, c, counts as play, must not repeat, an ante)
_Cls = tuple[int, Any, Any, Any, bool, bool, bool]
_CLASSES: dict[bool, dict[str, _Cls]] = {True: {}, False: {}}
_MONEY = {True: _Money(True), False: _Money(False)}
_NOTE_LINES: dict[str, str | None] = {}
_CARD_TEXT: dict[str, str] = {}  # `[4s Qh]` -> `4s Qh` (`_cards`; a file repeats them)
_LABELS: dict[str, str] = {}  # a label as written -> as stored (`_label`)
_SEAT_LINES: dict[str, tuple[int, str, str, str]] = {}  # a seat line read (`_seat_line`)


def _cards_of(text: str) -> str:
    got = _CARD_TEXT.get(text)
    if got is None:
        got = _cards(text, "")
        if len(_CARD_TEXT) >= 8192:
            _CARD_TEXT.clear()
        _CARD_TEXT[text] = got
    return got
  # a line outside the play -> its note (None: unknown)


_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MICRO = dt.timedelta(microseconds=1)
_HOURS: dict[tuple[str, str | None], tuple[int, str]] = {}


def _utc_micros(stamp: str, zone: str | None) -> tuple[int, str]:
    """A header's clock (`_HEADER`'s stamp and zone) as UTC microseconds since the epoch and
    the source note, as `_map_bovada` reads it: `local_to_utc` of the hour (memoised: a
    file's hands share their hours) plus the minutes and seconds (the zones' offsets change
    on the hour, here 2:00 local, since 1970; an earlier year, a clock out of range or not
    ASCII raises, and the parser reads the hand)."""
    minute, second = int(stamp[-5:-3]), int(stamp[-2:])
    if minute > 59 or second > 59 or not stamp.isascii():
        raise ValueError(stamp)
    key = (stamp[:-6], zone)
    got = _HOURS.get(key)
    if got is None:
        local = _local_time(stamp[:-6] + ":00:00")
        if local.year < 1970:
            raise ValueError(stamp)
        if zone:
            utc, note = local_to_utc(local, zone)
        else:
            utc, _ = local_to_utc(local, "ET")
            note = ";ts=Eastern time (no zone written)"
        if len(_HOURS) >= 4096:
            _HOURS.clear()
        got = _HOURS[key] = ((utc - _EPOCH) // _MICRO, note)
    return got[0] + (minute * 60 + second) * 1_000_000, got[1]


# a summary line: one to pass, a piece of another hand, the board, not a summary line, or
# the total pot's (total, rake) texts
_PASS, _PIECE, _BOARD, _ODD = "pass", "piece", "board", "odd"
_SUMMARY_LINES: dict[str, Any] = {}


def _summary_line(text: str) -> Any:
    """What a line after `*** SUMMARY ***` is, as `_map_bovada` reads it."""
    if (text.startswith("Seat") and (_SEAT.match(text) or _SEAT_PLUS.match(text))) or \
            " : " in text:
        return _PIECE  # a piece of another hand, its header lost
    if (tp := _SUMMARY_TOTAL.match(text)):
        code: Any = (tp.group(1), tp.group(2))
    elif text.startswith("Board ["):
        return _BOARD
    elif _SUMMARY_SEAT.match(text) or not text.strip():
        code = _PASS
    else:
        code = _ODD
    if len(_SUMMARY_LINES) >= 4096:
        _SUMMARY_LINES.clear()
    _SUMMARY_LINES[text] = code
    return code


def _classify(rest: str, dollars: bool) -> _Cls:
    """What a player's line does, read as `_map_bovada` reads it; `_BAD` for a line whose
    reading could fail (the parser then reads the hand)."""
    plays = not rest.startswith(_NOT_PLAYS)
    twice = rest.startswith(_NEVER_TWICE)
    ante = rest.startswith("Ante chip")
    if rest.startswith("Card dealt to a spot ["):
        return (_DEALT, rest[21:], None, None, False, twice, False)
    if rest.startswith("Set dealer"):
        sd = rest.rfind("[")
        k = None
        if sd >= 0:
            try:
                k = int(rest[sd + 1:].rstrip("]"))
            except ValueError:
                return (_BAD, None, None, None, plays, twice, ante)
        return (_SETDEALER, k, None, None, plays, twice, ante)
    if rest.startswith(_SHOWISH):
        if rest.startswith("Showdown"):
            op = _SHOW
        elif rest.startswith("Mucks"):
            op = _MUCK
        elif rest.startswith("Does not show"):
            op = _NOSHOW
        elif rest.startswith("Folds & "):
            op = _FOLDSHOW
        else:
            return (_WNOTE, _first_words(rest), None, None, plays, twice, ante)
        return (op, None, None, None, plays, twice, ante)
    act = _action(rest)
    if act is None:
        return (_BAD, None, None, None, plays, twice, ante)
    v, paren, x, y = act
    if v in _FOLDS:
        return (_FOLD, None, None, None, plays, twice, ante)
    if v == "checks" or v == "check":
        return (_CHECK, None, None, None, plays, twice, ante)
    money = _MONEY[dollars]
    try:
        if v in _POSTS:
            if x is None:
                return (_BAD, None, None, None, plays, twice, ante)
            return (_POST, _POSTS[v], money(x, 0), None, plays, twice, ante)
        if v in _NOTES:
            return (_NOTE, _NOTES[v], None, None, plays, twice, ante)
        if x is None:
            return (_BAD, None, None, None, plays, twice, ante)
        if v == "call" or v == "calls":
            return (_CALL, money(x, 0), None, None, plays, twice, ante)
        if v in ("bets", "d bets", "double bets", "bets chip info"):
            return (_BET, money(x, 0), None, None, plays, twice, ante)
        if v == "raises" or v == "raise":
            return (_RAISE, money(y if y is not None else x, 0), None, None, plays, twice, ante)
        if v == "all-in":
            return (_ALLIN, money(x, 0), money(y, 0) if y is not None else None,
                    bool(paren and paren.startswith("raise")), plays, twice, ante)
        if v.startswith("return uncalled"):
            return (_UNCALLED, money(x, 0), None, None, plays, twice, ante)
        if v == "hand result":
            return (_RESULT, money(x, 0), None, None, plays, twice, ante)
        if v.startswith("hand result-side pot"):
            return (_SIDE, money(x, 0), None, None, plays, twice, ante)
    except Exception:  # noqa: BLE001 - an amount the parser refuses: its hand
        return (_BAD, None, None, None, plays, twice, ante)
    return (_BAD, None, None, None, plays, twice, ante)


def _seat_line(text: str) -> tuple[int, str, str, str] | None:
    """(seat, label as stored, `$` or "", amount) of a `Seat N: LABEL ($x in chips)` line
    (`_SEAT`), None when it is not one."""
    got = _SEAT_LINES.get(text)
    if got is not None:
        return got
    s = _SEAT.match(text)
    if s is None:
        return None
    number, written, dollar, amount = s.groups()
    label = _LABELS.get(written)
    if label is None:
        label = _stored_label(written)
    got = (int(number), label, dollar, amount)
    if len(_SEAT_LINES) >= 4096:
        _SEAT_LINES.clear()
    _SEAT_LINES[text] = got
    return got


def _stored_label(written: str) -> str:
    """`_label(written)`, memoised."""
    label = _label(written)
    if len(_LABELS) >= 4096:
        _LABELS.clear()
    _LABELS[written] = label
    return label


def _note_line(text: str) -> str | None:
    """The note of a line outside the play (`Enter(Auto)`, `Table enter user`), None when
    it is none."""
    got = _NOTE_LINES.get(text, "")
    if got != "":
        return got
    a = _ACT.match(text)
    note = _NOTES.get(a.group(1).strip().lower()) if a else None
    if len(_NOTE_LINES) >= 4096:
        _NOTE_LINES.clear()
    _NOTE_LINES[text] = note
    return note


# A fast hand: (hand id, table id, ts, game, started source, started detail, rows), rows as
# (kind, seat, player, amount, total, cards, detail, line) in the hand's final order.
FastHand = tuple[str, Any, Any, dict[str, Any], str, str, list[tuple[Any, ...]]]


def map_fast(block: list[tuple[int, str]], file_name: str) -> FastHand | None:
    """The hand of `block` as `_map_bovada` maps it, or None when it is the parser's."""
    try:
        return _map(block, file_name)
    except Exception:  # noqa: BLE001 - anything odd: the parser reads (or refuses) the hand
        return None


def _map(block: list[tuple[int, str]], file_name: str) -> FastHand | None:  # noqa: C901
    number, header = block[0]
    m = _HEADER.match(header)
    if m is None:
        return None
    _, hand_no, rest, stamp, zone = m.groups()
    info = _table_and_game(rest)
    if isinstance(info, str):
        return None
    variant: str = info["variant"]
    if variant in _STUD:
        return None
    structure: str = info["structure"]
    ts, note = _utc_micros(stamp, zone)
    source = f"bovada:{file_name}:{number}{note}"
    if info["speed"]:
        source += (f";structure={structure} (the header names only the speed "
                   f"{info['speed']!r})")
    # --- seats (as the parser reads them) ----------------------------------------------------
    i, seats, stakes = seat_lines(block, _seat_line)
    if not seats:
        return None
    dollars = seats[0][3] == "$"
    money = _MONEY[dollars]
    seat_of: dict[str, int] = {}
    rising = True
    last = -1
    bare: dict[str, str] = {}
    for _, listed_no, label, _, _ in seats:
        if listed_no <= last:
            rising = False
        last = listed_no
        seat_of[label] = listed_no
        if label.endswith(" [ME]"):
            bare[label[:-5]] = label
    renumbered = not (rising and last <= 10)
    if renumbered:
        source += ";seats=numbered in list order (the log lists player ids)"
        for k, (_, _, label, _, _) in enumerate(seats, start=1):
            seat_of[label] = k
    if len(seat_of) != len(seats):
        return None  # a label listed twice: the parser says so
    # blinds: the level's, the table's stakes, else the posted ones
    table_sb = table_bb = None
    if info["level"]:
        table_sb, table_bb = money(info["level"][1], number), money(info["level"][2], number)
        if table_bb == 0:
            table_sb = table_bb = None
    elif stakes:
        table_sb, table_bb = money(stakes[0], number), money(stakes[1], number)
    # --- one pass over the body ---------------------------------------------------------------
    # What the parser knows before the play (who is dealt in, who sits out, the blinds, whether
    # the log writes streets) is used here as it is known so far, and checked at the end.
    left: dict[int, int] = {}
    stacks = money.known
    for n, _, label, _, amount in seats:
        seat = seat_of[label]
        stack = stacks.get(amount)
        if stack is None:
            stack = money(amount, n)
        if seat in left or not 1 <= seat <= 127:
            return None
        left[seat] = stack
    first_stacks = dict(left)
    known_as: dict[str, str] = {}
    classes = _CLASSES[dollars]
    if len(classes) >= 8192:
        classes.clear()
    rows: list[tuple[Any, ...]] = [()] * (1 + len(seats))  # hand_started and seats come last
    append = rows.append
    dealt: dict[str, tuple[int, str]] = {}  # a player's first `Card dealt to a spot`
    plays: set[str] = set()
    out: set[int] | None = None  # who sits out, as known when first needed
    prev = ""
    section = 0  # 0 before the hole cards, 1 the play, 2 the summary
    scanning = True  # the blinds: the posts before the first card or action
    posted_sb = posted_bb = None
    dead_chips: list[int] = []
    holes_at = holes_line = None
    need: set[int] | None = None
    need_base: list[int] | None = None
    tracking = False  # no street line yet: the parser's implicit streets may apply
    antes = False  # an `Ante chip` line so far
    antes_posted: set[str] = set()
    ante = 0
    allin_before_antes = False
    streets = False  # a street line so far
    repeated = False
    play_notes: list[str] = []  # notes on the play, in order
    # streets the log does not write, dealt from the summary's board once it is read:
    # (row, board index, cards, line, note index)
    pending: list[tuple[int, int, int, int, int]] = []
    inserted = False
    shown = False
    dealer_k = None
    board: list[str] = []
    total_pot = None
    rake_row = None
    pots: dict[str, list[tuple[Any, ...]]] = {}
    rnd: dict[int, int] = {}
    folded: set[int] = set()
    uncalled = False
    has_summary = False
    positions = None
    for n, text in block[i:]:
        if section == 2:
            if inserted and text.startswith(_STREET_LINES):
                return None  # a street line in the summary: the parser deals no street
            code = _SUMMARY_LINES.get(text)
            if code is None:
                code = _summary_line(text)
            if code is _PASS:
                continue
            if code is _PIECE or code is _ODD:
                return None
            if code is _BOARD:
                if pending and text[6:].strip("[] "):
                    _deal_pending(pending, _cards_of(text[6:]).split(" "), rows, board,
                                  play_notes)
                    pending = []
                stated = _cards_of(text[6:]).split(" ") if text[6:].strip("[] ") else []
                if stated[:len(board)] != board:
                    return None
                while len(stated) > len(board):
                    more = stated[len(board):3] if len(board) < 3 else stated[len(board):
                                                                              len(board) + 1]
                    rnd = {}
                    append(("deal", None, None, None, None, " ".join(more), "board", n))
                    board.extend(more)
                continue
            if total_pot is not None:
                return None  # a second total: not a summary line
            total_pot = money(code[0], n)
            if code[1] is not None:
                r = money(code[1], n)
                if r:
                    rake_row = ("rake", None, None, r, None, None, "rake", n)
                rake_row = rake_row or ()
            continue
        p, sep, rest = text.partition(" : ")
        if not sep or p.startswith("*"):
            if text == "*** SUMMARY ***":
                section = 2
                has_summary = True
                continue
            if text == "*** HOLE CARDS ***":
                if section == 0:
                    holes_at, holes_line = len(rows), n
                    need_base = [x for x in left if left[x] > 0]
                    tracking = not streets
                section = 1
                continue
            if text.startswith("*** "):
                st = _STREET.match(text)
                if st is None:
                    return None
                cards = st.group(3) or st.group(2)
                if cards is None:
                    return None
                new = _cards_of(cards)
                rnd = {}
                append(("deal", None, None, None, None, new, "board", n))
                board.extend(new.split(" "))
                section = 1
                tracking = False
                streets = True
                if inserted:
                    return None  # the log writes streets after all: no street was implicit
                continue
            if text.startswith("Card dealt to table ["):
                new = _cards_of(text[20:])
                rnd = {}
                append(("deal", None, None, None, None, new, "board", n))
                board.extend(new.split(" "))
                tracking = False
                streets = True
                if inserted:
                    return None  # the log writes streets after all: no street was implicit
                continue
            if text.startswith(_SKIPPED):
                continue
            note_of = _note_line(text)
            if note_of is None:
                return None
            append(("annotation", None, None, None, None, None, note_of, n))
            continue
        # a player's line
        name = known_as.get(p)
        if name is None:
            lab = _LABELS.get(p)
            if lab is None:
                lab = _stored_label(p)
            if lab in seat_of:
                name = lab
            elif lab in bare:
                name = bare[lab]
            elif lab.endswith(" [ME]") and lab[:-5] in seat_of:
                name = lab[:-5]
            else:
                return None
            known_as[p] = name
        c = classes.get(rest)
        if c is None:
            c = classes[rest] = _classify(rest, dollars)
        if text == prev and c[5]:
            # the same chips moved twice in a row by one player: the log repeats the line
            if text.startswith(_STREET_LINES):
                return None
            append(("annotation", None, None, None, None, None, f"repeated_line: {text}", n))
            if not repeated:
                repeated = True
                play_notes.append(";repeated=lines the log repeats are notes")
            continue
        prev = text
        op = c[0]
        if scanning:
            if rest.startswith("Posts dead chip "):
                dead_chips.append(money(rest.rsplit(" ", 1)[1], n))
            if rest.startswith(("Small Blind ", "Small blind ", "Ante/Small")):
                if posted_sb is None:
                    posted_sb = money(rest.rsplit(" ", 1)[1], n)
            elif rest.startswith(("Big blind", "Big Blind")):
                if posted_bb is None:
                    posted_bb = money(rest.rsplit(" ", 1)[1], n)
            elif rest.startswith("All-in ") and posted_bb is None and name.startswith(
                    "Big Blind"):
                posted_bb = money(rest.rsplit(" ", 1)[1], n)
            elif rest.startswith("Card dealt") or rest.startswith(_STOP_BLINDS):
                scanning = False
        if op == _DEALT:
            if shown:
                return None  # cards dealt after a show: the parser's
            if name not in dealt:
                dealt[name] = (n, c[1])
            continue
        if c[4]:
            plays.add(name)
        if c[6]:
            antes = True
        if op == _SETDEALER:
            if c[1] is not None:
                dealer_k = c[1]
            continue
        seat = seat_of[name]
        if op <= _WNOTE:
            if op == _WNOTE:
                append(("annotation", seat, name, None, None, None, c[1], n))
                continue
            if op == _FOLDSHOW:
                if seat not in folded:
                    folded.add(seat)
                    append(("fold", seat, name, None, None, None, None, n))
                append(("annotation", seat, name, None, None, None, "shows_folded_hand", n))
                continue
            shown = True
            if out is None:
                out = {seat_of[x] for x in seat_of if x not in dealt and x not in plays}
            cards = None
            if holes_at is not None and seat not in out:
                got = dealt.get(name)
                cards = _cards_of(got[1]) if got is not None else None
                if cards is None:
                    cards = " ".join(["??"] * HOLE_COUNT.get(_variant(variant, dealt), 2))
            if op == _SHOW:
                append(("show", seat, name, None, None, cards or "?? ??", None, n))
            elif op == _MUCK:
                append(("muck", seat, name, None, None, cards, None, n))
            elif len(seat_of) - len(out) - len(folded) <= 1:
                append(("annotation", seat, name, None, None, None, "does_not_show", n))
            else:
                append(("muck", seat, name, None, None, cards, None, n))
            continue
        if op == _BAD:
            return None
        acting = tracking and op in _ACTION_OPS
        if acting:
            if need is None:
                if out is None:
                    out = {seat_of[x] for x in seat_of if x not in dealt and x not in plays}
                need = {x for x in need_base or () if x not in out}
            if not need and len(board) < 5:  # the round is over: the next street's cards
                k3 = 3 if not board else 1
                inserted = True
                pending.append((len(rows), len(board), k3, n, len(play_notes)))
                play_notes.append("")
                rnd = {}
                append(())
                board.extend([""] * k3)
                need = {x for x in left if x not in out and x not in folded and left[x] > 0}
            rows_before = len(rows)
        if op == _FOLD:
            folded.add(seat)
            append(("fold", seat, name, None, None, None, None, n))
            if need is not None:
                need.discard(seat)
            continue
        if op == _CHECK:
            append(("check", seat, name, None, None, None, None, n))
            if need is not None:
                need.discard(seat)
            continue
        if op == _POST:
            kind, amt = c[1], c[2]
            if kind == "ante":
                antes_posted.add(name)
                if not ante:
                    ante = amt
                left[seat] -= amt
                append(("post", seat, name, amt, None, None, "ante", n))
            elif kind == "dead_chip":
                big = table_bb if table_bb is not None else posted_bb
                if big is None:
                    return None  # the big blind is not known yet
                live = min(amt, big or amt)
                left[seat] -= live
                total = rnd[seat] = rnd.get(seat, 0) + live
                append(("post", seat, name, live, total, None, "new_player", n))
                if amt > live:
                    left[seat] -= amt - live
                    append(("post", seat, name, amt - live, None, None, "dead", n))
            elif kind == "bring_in":
                return None
            else:
                left[seat] -= amt
                total = rnd[seat] = rnd.get(seat, 0) + amt
                append(("post", seat, name, amt, total, None, kind, n))
            continue
        if op == _NOTE:
            append(("annotation", seat, name, None, None, None, c[1], n))
            continue
        if op == _CALL or op == _BET:
            added = c[1]
            stack = left[seat]
            left[seat] = stack - added
            total = rnd[seat] = rnd.get(seat, 0) + added
            append(("call" if op == _CALL else "bet", seat, name, added, total, None,
                    "all_in" if added > 0 and added == stack else None, n))
        elif op == _RAISE:
            to = c[1]
            before = rnd.get(seat, 0)
            added = to - before
            if added < 0:
                return None
            stack = left[seat]
            left[seat] = stack - added
            rnd[seat] = to
            append(("raise", seat, name, added, to, None,
                    "all_in" if added > 0 and added == stack else None, n))
        elif op == _ALLIN and section == 0:
            # all in on a forced bet: the ante, the blind of his position
            amt = c[1]
            if not antes:
                allin_before_antes = True
            if antes and name not in antes_posted:
                left[seat] -= amt
                append(("post", seat, name, amt, None, None, "ante", n))
            else:
                if positions is None:
                    positions = {x.split(" [")[0] for x in seat_of}
                kind = _BLIND_OF.get(name.split(" [")[0])
                if kind is None or (kind == "dealer" and "Small Blind" in positions):
                    kind = "new_player"
                elif kind == "dealer":
                    kind = "small_blind"
                left[seat] -= amt
                total = rnd[seat] = rnd.get(seat, 0) + amt
                append(("post", seat, name, amt, total, None, kind, n))
        elif op == _ALLIN:
            stack, before = left[seat], rnd.get(seat, 0)
            amt = c[1]
            if c[2] is not None or c[3]:
                to = c[2] if c[2] is not None else (amt if amt == before + stack
                                                    or amt != stack else before + amt)
                added = to - before
                if added < 0:
                    return None
                all_in = added == stack
            else:
                added = amt
                all_in = amt == stack
            top = max(rnd.values(), default=0)
            kind = "bet" if top == 0 else ("call" if before + added <= top else "raise")
            left[seat] = stack - added
            total = rnd[seat] = before + added
            append((kind, seat, name, added, total, None,
                    "all_in" if all_in or (added > 0 and added == stack) else None, n))
        elif op == _UNCALLED:
            uncalled = True
            pot = pots.get("main")
            if pot is None:
                pot = pots["main"] = []
            pot.append(("award", seat, name, c[1], None, None, "uncalled", n))
        elif op == _RESULT:
            pot = pots.get("main")
            if pot is None:
                pot = pots["main"] = []
            pot.append(("award", seat, name, c[1], None, None, "main", n))
        elif op == _SIDE:
            pot = pots.get("side-1")
            if pot is None:
                pot = pots["side-1"] = []
            pot.append(("award", seat, name, c[1], None, None, "side-1", n))
        else:
            return None
        if acting and len(rows) > rows_before:
            assert need is not None and out is not None
            kind = rows[-1][0]
            if kind in ("bet", "raise", "complete"):
                need = {x for x in left if x not in out and x not in folded
                        and left[x] > 0 and x != seat}
            elif kind != "post":
                need.discard(seat)
            if left[seat] == 0:
                need.discard(seat)
    if not has_summary:
        return None
    if pending:  # the summary names no board
        _deal_pending(pending, [], rows, board, play_notes)
    # --- what the parser knew before the play, checked ----------------------------------------
    sitting_out = {seat_of[x] for x in seat_of if x not in dealt and x not in plays}
    if out is not None and out != sitting_out:
        return None
    if allin_before_antes and antes:
        return None
    variant = _variant(variant, dealt)
    game: dict[str, Any] = {
        "variant": variant, "structure": structure,
        "currency": "USD" if dollars else "CHIPS", "minor_per_unit": money.mpu,
        "tournament": info["tournament"], "ante": ante, "seat_count": None,
    }
    if info["level"]:
        game["level"] = info["level"][0]
    sb, bb = table_sb, table_bb
    big = bb if bb is not None else posted_bb
    dead_sb = next((d - big for d in dead_chips if big and big < d < 2 * big), None)
    if bb is None:
        bb = posted_bb
        sb = posted_sb
        if bb is None:
            return None
        if sb is None and dead_sb is not None:
            sb = dead_sb
        if sb is None:
            sb = bb // 2
            source += ";small_blind=assumed half the big blind (none posted)"
    if structure == "fixed_limit":
        game.update(small_bet=bb, big_bet=2 * bb, big_blind=bb,
                    small_blind=posted_sb if posted_sb is not None else sb)
    else:
        game.update(small_blind=sb, big_blind=bb)
    for j, (n, _, label, _, _) in enumerate(seats, start=1):
        seat = seat_of[label]
        is_out = seat in sitting_out
        rows[j] = ("seat", seat, label, first_stacks[seat], None, None,
                   "sitting_out" if is_out else None, n)
    if holes_at is not None:
        unknown = " ".join(["??"] * HOLE_COUNT.get(variant, 2))
        deals = []
        for seat, label in sorted((s, x) for x, s in seat_of.items()):
            if seat in sitting_out:
                continue
            got = dealt.get(label)
            deals.append(("deal", seat, label, None, None, unknown, "hole", holes_line)
                         if got is None else
                         ("deal", seat, label, None, None, _cards_of(got[1]), "hole", got[0]))
        rows[holes_at:holes_at] = deals
    source += "".join(play_notes)
    detail = "players=anonymous"
    if not uncalled:
        put: dict[int, int] = {}
        for r in rows:
            if r and r[0] in _PUT_IN:
                put[r[1]] = put.get(r[1], 0) + (r[3] or 0)
        top_put = sorted(put.values(), reverse=True)
        if len(top_put) > 1 and top_put[0] > top_put[1]:
            detail += ";refunds=implicit"
    if rake_row is None:
        detail += ";rake=implicit"
    if positions is None:
        positions = {x.split(" [")[0] for x in seat_of}
    dealer = next((s for x, s in seat_of.items() if x.split(" [")[0] == "Dealer"), None)
    if dealer is None and "Small Blind" in positions:
        dealer = next(s for x, s in seat_of.items() if x.split(" [")[0] == "Small Blind") - 1
        source += ";button=the empty seat before the small blind"
    if dealer is None and dealer_k is not None:
        dealer = dealer_k if not renumbered or dealer_k <= len(seats) else None
    if dealer is None:
        return None
    game["button_seat"] = dealer
    for paid in pots.values():
        rows.extend(paid)
    if rake_row:
        rows.append(rake_row)
    rows.append(("hand_ended", None, None, None, None, None,
                 f"total_pot={total_pot}" if total_pot is not None else None, block[-1][0]))
    rows[0] = ("hand_started", None, None, None, None, None, detail, number)
    return (f"bov:{hand_no}", info["table"], ts, game, source, detail, rows)


def _deal_pending(pending: list[tuple[int, int, int, int, int]], summary_board: list[str],
                  rows: list[tuple[Any, ...]], board: list[str], notes: list[str]) -> None:
    """The streets the log does not write, dealt from the summary's board (`??` when it names
    none, `source` says so)."""
    for at, start, k, line, note in pending:
        more = summary_board[start:start + k]
        if len(more) < k:
            more = ["??"] * k
            notes[note] = ";board=not logged"
        rows[at] = ("deal", None, None, None, None, " ".join(more), "board", line)
        board[start:start + k] = more


def _variant(variant: str, dealt: dict[str, tuple[int, str]]) -> str:
    """Omaha dealt five or six cards is omaha5 / omaha6 (by the first player dealt)."""
    if variant in ("omaha", "omaha_hilo") and dealt:
        count = len(_cards_of(next(iter(dealt.values()))[1]).split())
        if count in (5, 6):
            return f"omaha{count}" + ("_hilo" if variant == "omaha_hilo" else "")
    return variant


class _FastHandRows:
    """A fast hand as the parser's rows (dicts), for `ChunkWriter`'s quarantine of hands whose
    values do not fit the schema."""

    def __init__(self, hand: FastHand, file_name: str) -> None:
        hand_id, table_id, ts, game, source, _, rows = hand
        self.hand_id = hand_id
        self.lines = [r[7] for r in rows]
        prefix = f"bovada:{file_name}:"
        self.rows = []
        for seq, r in enumerate(rows):
            row: dict[str, Any] = {
                "hand_id": hand_id, "seq": seq, "table_id": table_id, "kind": r[0],
                "source": source if seq == 0 else f"{prefix}{r[7]}"}
            for key, value in zip(_FIELDS, r[1:7], strict=True):
                if value is not None:
                    row[key] = value
            if seq == 0:
                row["ts"] = _EPOCH + ts * _MICRO
                row["game"] = game
            self.rows.append(row)


_FIELDS = ("seat", "player", "amount", "total", "cards", "detail")
_ROW_FIELDS = tuple(itemgetter(k) for k in range(8))  # a row tuple's fields
_ROW_KEYS = frozenset({"hand_id", "seq", "table_id", "kind", "source", "ts", "game", *_FIELDS})


class _ColumnWriter(ChunkWriter):
    """`ChunkWriter` whose chunk table is built column by column from the hands' row tuples
    (fast hands as mapped, the parser's hands converted); the same chunks, lines and
    rejections."""

    def __init__(self, chunk_hands: int, source: str, file_name: str) -> None:
        super().__init__(chunk_hands, source)
        self.file_name = file_name
        self.prefix = f"bovada:{file_name}:"
        self.hand_rows: list[tuple[Any, ...]] = []
        self.heads: list[tuple[str, Any, Any, Any, str, int]] = []
        self.pieces: list[Any] = []  # per hand: (FastHand, block) or (SiteHand, raw)
        self.odd = False  # a parser hand whose rows the columns cannot carry
        self.row_lines: list[int] = []  # the line of each row of the last table built

    def add_fast(self, hand: FastHand, block: list[tuple[int, str]]) -> None:
        hand_id, table_id, ts, game, source, _, rows = hand
        self.hand_rows.extend(rows)
        self.heads.append((hand_id, table_id, ts, game, source, len(rows)))
        self.pieces.append((hand, block))
        self.hands += 1

    def add(self, hand: SiteHand, raw: str = "") -> None:
        rows = hand.rows
        self.pieces.append((hand, raw))
        self.hands += 1
        if not rows or self.odd:
            self.odd = True
            return
        head = rows[0]
        prefix = self.prefix
        for seq, (r, line) in enumerate(zip(rows, hand.lines, strict=True)):
            if r.keys() - _ROW_KEYS or r["hand_id"] != hand.hand_id or r["seq"] != seq or \
                    r["table_id"] != head["table_id"] or (seq and (
                        r.get("ts") is not None or r.get("game") is not None
                        or r["source"] != f"{prefix}{line}")):
                self.odd = True
                return
        self.hand_rows.extend(
            (r["kind"], r.get("seat"), r.get("player"), r.get("amount"), r.get("total"),
             r.get("cards"), r.get("detail"), line)
            for r, line in zip(rows, hand.lines, strict=True))
        when = head.get("ts")
        if when is not None:
            try:
                when = (when - _EPOCH) // _MICRO
            except TypeError:  # not a UTC time
                self.odd = True
                return
        self.heads.append((hand.hand_id, head["table_id"], when, head.get("game"),
                           head["source"], len(rows)))

    @property
    def pending(self) -> bool:
        return bool(self.pieces or self.rejected)

    def take(self) -> Chunk:
        table = None
        if not self.odd:
            try:
                table = self._columns()
            except (pa.ArrowException, OverflowError, ValueError, TypeError):
                table = None
        if table is None:  # the parser's way: rows as dicts, unfit hands quarantined
            self.rows, self.lines, self.kept = [], [], []
            for hand, extra in self.pieces:
                if isinstance(hand, SiteHand):
                    self.rows.extend(hand.rows)
                    self.lines.extend(hand.lines)
                    self.kept.append((hand, extra))
                else:
                    as_rows = _FastHandRows(hand, self.file_name)
                    self.rows.extend(as_rows.rows)
                    self.lines.extend(as_rows.lines)
                    self.kept.append((as_rows, raw_text(extra)))  # type: ignore[arg-type]
            chunk = super().take()
        else:
            chunk = Chunk(table=table, rejected=self.rejected, lines=self.row_lines)
            self.rows, self.lines, self.rejected, self.kept, self.hands = [], [], [], [], 0
        self.hand_rows, self.heads, self.pieces, self.odd = [], [], [], False
        return chunk

    def _columns(self) -> pa.Table:
        schema = events_schema()
        rows = self.hand_rows
        size = len(rows)
        heads = self.heads
        ts: list[Any] = [None] * size
        game_of: list[Any] = []
        counts: list[int] = []
        starts: list[int] = []
        at = 0
        for _, _, when, game, _, count in heads:
            ts[at] = when
            game_of.append(game)
            starts.append(at)
            counts.append(count)
            at += count
        kinds, seats, players, amounts, totals, cards, details, lines = (
            list(map(get, rows)) for get in _ROW_FIELDS)
        self.row_lines = lines
        arrays = _hand_columns(heads, counts, starts, size)  # hand_id, seq
        arrays.append(pa.array(ts, type=schema.field("ts").type))
        arrays.append(_per_hand([head[1] for head in heads], counts, size))  # table_id
        arrays += [pa.array(col, type=schema.field(k).type) for k, col in enumerate(
            (kinds, seats, players, amounts, totals, cards, details), start=4)]
        arrays.append(_game_column(game_of, starts, size, schema.field("game").type))
        arrays.append(_source_column(self.prefix, lines, starts, [head[4] for head in heads]))
        return pa.Table.from_arrays(arrays, schema=schema)


# A chunk this small builds its game and source columns from Python lists (an Arrow compute
# call costs ~30-100 µs whatever its size); a bigger one with Arrow's vectorised kernels.
_SMALL_CHUNK_ROWS = 512


def _per_hand(values: list[Any], counts: list[int], size: int) -> pa.Array:
    """A string column holding each hand's value on each of its `counts` rows."""
    if size <= _SMALL_CHUNK_ROWS:
        out: list[Any] = []
        for value, count in zip(values, counts, strict=True):
            out += [value] * count
        return pa.array(out, type=pa.string())
    index = np.repeat(np.arange(len(values), dtype=np.int32), counts)
    return pa.array(values, type=pa.string()).take(pa.array(index))


def _hand_columns(heads: list[Any], counts: list[int], starts: list[int], size: int
                  ) -> list[pa.Array]:
    """The `hand_id` and `seq` columns of a chunk's hands (`heads`, `counts` rows each, the
    first at `starts`)."""
    hand_ids = _per_hand([head[0] for head in heads], counts, size)
    if size <= _SMALL_CHUNK_ROWS:
        seqs: list[int] = []
        for count in counts:
            seqs += range(count)
        return [hand_ids, pa.array(seqs, type=pa.int32())]
    first = np.repeat(np.asarray(starts, dtype=np.int32), counts)
    return [hand_ids, pa.array(np.arange(size, dtype=np.int32) - first)]


def _game_column(games: list[Any], starts: list[int], size: int, game_type: pa.DataType
                 ) -> pa.Array:
    """The `game` column: each hand's game on its first row (`starts`), null elsewhere."""
    if size <= _SMALL_CHUNK_ROWS:
        full: list[Any] = [None] * size
        for at, game in zip(starts, games, strict=True):
            full[at] = game
        return pa.array(full, type=game_type)
    index: list[int | None] = [None] * size
    for k, at in enumerate(starts):
        index[at] = k
    return pa.array(games, type=game_type).take(pa.array(index, type=pa.int32()))


def _source_column(prefix: str, lines: Any, starts: list[int], heads: list[str]) -> pa.Array:
    """Each row's source `bovada:FILE:LINE`, the hands' first rows' (`starts`) with their notes
    (`heads`)."""
    if len(lines) <= _SMALL_CHUNK_ROWS:
        sources = [prefix + str(n) for n in lines]
        for at, head in zip(starts, heads, strict=True):
            sources[at] = head
        return pa.array(sources, type=pa.string())
    mask = np.zeros(len(lines), dtype=bool)
    mask[starts] = True
    return pc.replace_with_mask(
        pc.binary_join_element_wise(prefix, pc.cast(pa.array(lines, pa.int64()), pa.string()),
                                    ""),
        pa.array(mask), pa.array(heads, pa.string()))


class _HeaderLines:
    """What tells a hand's first line (`_HEADER_LINE`), for `split_blocks`: `starts(piece)`
    finds the headers of a piece of lines at once, the same lines as `match` line by line --
    a header holds ` Hand #`, so only the lines where `str.find` meets it (a C scan of the
    piece joined) are matched."""

    match = _HEADER_LINE.match

    @staticmethod
    def starts(piece: list[tuple[int, str]]) -> list[int]:
        texts = list(map(_TEXT, piece))
        joined = "\n".join(texts)
        find = joined.find
        hit = find(" Hand #")
        if hit < 0:
            return []
        ends = list(accumulate([len(t) + 1 for t in texts]))  # where each next line starts
        match = _HEADER_LINE.match
        out = []
        while hit >= 0:
            k = bisect_right(ends, hit)
            if match(texts[k]):
                out.append(k)
            hit = find(" Hand #", ends[k])
        return out


HEADER_LINES = _HeaderLines()


def read_bovada(path: Path, chunk_hands: int, *, fast: bool = True) -> Iterator[Chunk]:
    """The chunks of `path`: each hand by the fast path when it takes it, else by the line
    parser (`fast=False`: the parser alone)."""
    src = str(path)
    file_name = path.name
    out = _ColumnWriter(chunk_hands, src, file_name)
    for is_hand, block, unread in split_blocks(path, HEADER_LINES):
        block = list(filter(_TEXT, block))  # blank lines left out
        if not block:
            continue
        if unread:
            out.reject(block, unread, _hand_id(block[0][1]) if is_hand else None)
            continue
        if not is_hand:
            out.rejected.append(_outside(src, block))
            continue
        got = map_fast(block, file_name) if fast else None
        if got is not None:
            out.add_fast(got, block)
        else:
            mapped = out.map_or_reject(block, _hand_id(block[0][1]), _map_bovada, block,
                                       file_name)
            if mapped is None:
                continue
            hand, end = mapped
            out.add(hand, raw_text(block if end is None else block[:end]))
            if end is not None:
                out.rejected.append(_outside(src, block[end:]))
        if out.full:
            yield out.take()
    if out.pending:
        yield out.take()

