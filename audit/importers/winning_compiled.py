"""Winning Poker Network's compiled pass (`winning_kernel`) turned into event columns: each
hand's first two lines (`Game started at:`, `Game ID:`) read in Python by the line parser's
own patterns (`_STARTED`, `_GAME_ID`, `header_time`, the money of the stakes), the rest of the
hand by the kernel, and the kernel's rows made into one Arrow table per file (integer columns
from numpy, strings from byte spans, the per-hand columns taken from one entry per hand).
`compiledtext.read_compiled_text` does the rest (the hands the kernel does not read, the
chunks); UTF-16 files are read as the UTF-8 text `sitetext` reads them as.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, IpcLayout, KernelRows, Lines
from audit.importers.sitetext import HOLE_COUNT, SiteHandError, header_time
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.winning_kernel",
                        "the compiled Winning Poker Network reader",
                        "Winning Poker Network files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_INT64 = 1 << 63
_MEMO = 1024
_NOTE = ";ts=local time read as UTC (the log names no time zone)"
_NO_TABLE = ";tournament=the game line names no table: read as tournament chips"
_FIXED = ";structure=fixed limit (the big blind is the lower stake)"
_KERNEL_GAMES = frozenset({"holdem", "holdem_6plus", "omaha", "omaha_hilo", "omaha5",
                           "omaha5_hilo", "stud", "stud_hilo", "razz"})
_STUD = frozenset({"stud", "stud_hilo", "razz"})
_BRING_IN = ";bring_in=not posted, assumed half the small bet"
# `Game ID:` line after the id -> (variant, table id, tournament, mpu, low, high) or None
_GAME_LINES: dict[str, tuple[Any, ...] | None] = {}
_CLOCKS: dict[str, int] = {}  # header clock text -> its UTC time (µs since 1970)
_DAYS: dict[str, int] = {}  # a header's date text -> its midnight UTC (µs since 1970)
_CLOCK = re.compile(r"([0-9][0-9]?):([0-9][0-9]?):([0-9][0-9]?)")
_GAME_TEXTS: dict[tuple[Any, ...], tuple[str, tuple[int, ...]]] = {}  # `_game_texts`
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_GAME_ID_LINE = b"Game ID: "
_MICRO = dt.timedelta(microseconds=1)


def _is_header(lines: Lines) -> np.ndarray:
    from audit.importers.winning import _HEADER_LINE

    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(lines.begin), np.int8)
    if k.header_lines(lines.data, lines.begin, lines.hi, lines.odd, out):
        # a line ending in a Unicode space, a digit past ASCII: as the reader
        raw = lines.data.tobytes()
        ends = np.append(lines.begin[1:] - 1, len(raw))
        for i in np.flatnonzero(out < 0).tolist():
            text = raw[lines.begin[i]:ends[i]].decode("utf-8").rstrip()
            out[i] = _HEADER_LINE.match(text) is not None
    return out > 0


def _game_line(rest: str, number: int) -> tuple[Any, ...] | None:
    """What the `Game ID:` line says beside the id, as `_fast_old` reads it; None when the
    kernel does not read such hands (stud, a game it does not know, stakes that do not
    fit)."""
    from audit.importers.winning import _AMOUNTS, _GAME_ID, _old_game

    g = _GAME_ID.match("Game ID: 0 " + rest)
    if g is None:
        return None
    variant, desc, tournament, mpu = _old_game(g)
    if variant not in _KERNEL_GAMES:
        return None
    money = _AMOUNTS.of(mpu)
    try:
        low, high = money(g.group("a"), number), money(g.group("b"), number)
    except SiteHandError:
        return None
    if not (-_INT64 <= low < _INT64 and -_INT64 <= high < _INT64):
        return None
    return variant, desc, tournament, mpu, low, high


def _micros(stamp: str, number: int, header: str) -> int | None:
    """The header clock `stamp` (`yyyy/m/d h:m:s`, read as UTC) in µs since 1970 as
    `header_time` reads it, or None where it is not a time: remembered by clock text (a file
    read again), else by date: a file's hands have clocks of their own but share a few dates,
    each read once (by `header_time`), the time of day added to its midnight when it is
    ASCII digits in range (what `header_time` reads with `datetime`: no leap second)."""
    micros = _CLOCKS.get(stamp)
    if micros is not None:
        return micros
    day, _, clock = stamp.partition(" ")
    secs = _seconds(clock)
    midnight = _DAYS.get(day)
    if midnight is not None and secs is not None:
        micros = midnight + secs * 1_000_000
    else:
        try:
            when, _ = header_time(stamp, "UTC", number, header)
        except SiteHandError:
            return None
        micros = (when - _EPOCH) // _MICRO
        if secs is not None and day.isascii():
            if len(_DAYS) >= _MEMO:
                _DAYS.clear()
            _DAYS[day] = micros - secs * 1_000_000
    if len(_CLOCKS) >= _MEMO:
        _CLOCKS.clear()
    _CLOCKS[stamp] = micros
    return micros


def _seconds(clock: str) -> int | None:
    """`h:m:s` in ASCII digits as seconds into the day, None when it is not or is out of
    range."""
    t = _CLOCK.fullmatch(clock)
    if t is None:
        return None
    hour, minute, second = int(t.group(1)), int(t.group(2)), int(t.group(3))
    if hour > 23 or minute > 59 or second > 59:
        return None
    return (hour * 60 + minute) * 60 + second


def _heads(raw: bytes, lines: Lines, first: np.ndarray, last: np.ndarray
           ) -> tuple[list[Any], np.ndarray]:
    """Each hand's header reading (hand id, clock, game line reading) or None, and the line
    after its `Game ID:` line. None too for a hand with an unnamed player but no seated
    player it never names: the kernel would leave it to the fast path."""
    from audit.importers.winning import _STARTED, _UNNAMED, unseated_unnamed

    n = len(first)
    out: list[Any] = [None] * n
    body = np.zeros(n, np.int64)
    begin, lo, hi = lines.begin, lines.lo, lines.hi
    unnamed = _UNNAMED[0] in raw or _UNNAMED[1] in raw
    for h, (i0, stop) in enumerate(zip(first.tolist(), last.tolist(), strict=True)):
        if unnamed and unseated_unnamed(raw[begin[i0]:begin[stop] if stop < len(begin)
                                            else len(raw)]):
            continue
        i1 = i0 + 1  # the hand's first line but blank ones after its header (most often next)
        while i1 < stop and lo[i1] >= hi[i1]:
            i1 += 1
        if i1 >= stop:
            continue
        header = raw[begin[i0]:hi[i0]].decode("utf-8")
        game_line = raw[begin[i1]:hi[i1]].decode("utf-8")
        if not game_line.startswith("Game ID: "):
            continue
        ident, _, rest = game_line[9:].partition(" ")
        if not ident.isascii() or not ident.isdigit():
            continue
        read = _GAME_LINES.get(rest, False)
        if read is False:
            read = _game_line(rest, i1 + 1)
            if len(_GAME_LINES) >= _MEMO:
                _GAME_LINES.clear()
            _GAME_LINES[rest] = read
        if read is None:
            continue
        st = _STARTED.match(header)
        if st is None:
            continue
        ts = _micros(st.group(1), i0 + 1, header)
        if ts is None:
            continue
        out[h] = (f"wpn:{ident}", ts, read)
        body[h] = i1 + 1
    return out, body


def _rows(lines: Lines, first: np.ndarray, last: np.ndarray, prefix: str) -> KernelRows:
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    raw = lines.data.tobytes()
    n = len(first)
    # a hand the kernel reads has a `Game ID: ` line: a file of the newer format alone has
    # none, its hands are not looked at one by one
    if _GAME_ID_LINE not in raw:
        return _no_rows(n)
    heads, body = _heads(raw, lines, first, last)
    if not any(heads):  # no hand for the kernel (the newer format's): no call, no buffers
        return _no_rows(n)
    # per hand: whether the kernel reads it, its minor units per unit and hole cards (filled
    # as lists, made arrays at once: no numpy item set a hand)
    use = np.array([head is not None for head in heads], np.bool_)
    mpus, counts = [1] * n, [2] * n
    for h, head in enumerate(heads):
        if head is not None:
            variant, _, _, mpus[h], _, _ = head[2]
            counts[h] = 0 if variant in _STUD else HOLE_COUNT.get(variant, 2)
    mpu, count = np.array((mpus, counts), np.int64)
    size = len(raw)
    n_lines = len(lines.begin)  # at least the hands' lines
    rows = np.empty((11, 2 * n_lines + 24 * n + 64), np.int64)
    cbuf = np.empty(2 * size + 16 * 16 * n + 64, np.uint8)
    per = np.zeros((10, n), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    used = np.zeros(1, np.int64)
    count_rows = k.hands(lines.data, lines.begin, lines.lo, lines.hi, lines.odd, first, body,
                         last, use, mpu, count, size, rows, cbuf, per, ok, row0, used)
    if not count_rows:
        return KernelRows(_empty_table(), np.empty(0, np.int64), ok, row0)
    return KernelRows(_table(k, t, lines.data, cbuf[:int(used[0])], rows[:, :count_rows],
                             heads, per, ok, row0, prefix), rows[10, :count_rows].copy(), ok,
                      row0)


def _no_rows(n: int) -> KernelRows:
    """The kernel's reading of `n` hands none of which it reads."""
    return KernelRows(_empty_table(), np.empty(0, np.int64), np.zeros(n, np.bool_),
                      np.zeros(n + 1, np.int64))


@cache
def _empty_table() -> pa.Table:
    """The events schema's empty table, made once (~55 µs a call; a table is immutable)."""
    return _SCHEMA.empty_table()


class _Extras:
    """The texts the string columns take beside the file's bytes (appended after them, the
    constant ones first: `_constant`, from `base`): each `put` gives its span in the joined
    buffer."""

    def __init__(self, size: int) -> None:
        self.base = size
        self.size = size + len(_constant()[0])
        self.out = bytearray()
        self.spans: dict[str, tuple[int, int]] = {}

    def put(self, text: str) -> tuple[int, int]:
        span = self.spans.get(text)
        if span is None:
            lo = self.size + len(self.out)
            self.out += text.encode()
            span = self.spans[text] = (lo, self.size + len(self.out))
        return span


@cache
def _constant() -> tuple[np.ndarray, dict[str, Any]]:
    """The texts every file's columns take (kinds, details, `total_pot=`, `note: `) and
    their spans from the start of the block."""
    from audit.importers.winning_kernel import DETAILS, KINDS

    out = bytearray()

    def put(text: str) -> tuple[int, int]:
        lo = len(out)
        out.extend(text.encode())
        return lo, len(out)

    spans = {"kinds": np.array([put(v) for v in KINDS], np.int64).T.copy(),
             "details": np.array([put(v) for v in DETAILS], np.int64).T.copy(),
             "total": put("total_pot="), "note": put("note: ")}
    return np.frombuffer(bytes(out), np.uint8), spans


@cache
def _kernel_names() -> tuple[Any, ...]:
    """`winning_kernel`'s row names, imported once (the module is numba's)."""
    from audit.importers.winning_kernel import INT8S, INTS, NULL, VALID

    return INT8S, INTS, NULL, VALID


_NO_SPAN = (-1, -1)


def _table(k: Any, t: Any, text: np.ndarray, cards: np.ndarray, rows: np.ndarray,
           heads: list[Any], per: np.ndarray, ok: np.ndarray, row0: np.ndarray, prefix: str
           ) -> pa.Table:
    """The Arrow table of the kernel's rows (`text`: the file's bytes)."""
    INT8S, INTS, NULL, VALID = _kernel_names()  # noqa: N806 - the kernel's constants

    count = rows.shape[1]
    n = len(heads)
    extras = _Extras(len(text) + len(cards))
    put = extras.put
    # per hand: the spans of hand_id, table_id, the source note, variant, structure, currency
    # (lo -1: null), and the game's numbers (`_NUMBERS`), gathered for the hands read and
    # made columns at once (`_spread` over all hands when the kernel left some)
    button, bb, sb, straddle, ante, _, _, bring_in, unnamed_lo, unnamed_hi = per.tolist()
    read = np.flatnonzero(ok).tolist()
    hand_rows: list[tuple[int, ...]] = []  # a hand's spans, then its numbers
    hand_known: list[tuple[bool, ...]] = []
    # the spans a hand takes but its id's, by its game line's reading, structure and late
    # notes: the same for most hands of a file (one `put` a hand, not six)
    game_spans: dict[tuple[Any, ...], tuple[int, ...]] = {}
    for h in read:
        hand_id, micros, game = heads[h]
        variant, desc, tournament, mpu, low, high = game
        late = ""  # the notes `_Old.map` adds once the hand is read, in its order
        if unnamed_lo[h] >= 0:
            name = text[unnamed_lo[h]:unnamed_hi[h]].tobytes().decode()
            late = (f";player=the unnamed player is {name!r}, the one seated player the hand "
                    "never names")
        stud = variant in _STUD
        fixed_limit = stud or (bb[h] != NULL and bb[h] == low and high == 2 * low)
        posted_bring_in = bring_in[h] != NULL
        if stud:
            blinds = (0, 0, low, high)
            if not posted_bring_in:
                bring_in[h] = low // 2
                late += _BRING_IN
        elif fixed_limit:
            blinds = (sb[h] if sb[h] != NULL else low // 2, low, low, high)
        else:
            blinds = (low, high, 0, 0)
        key = (game, fixed_limit, late)
        spans = game_spans.get(key)
        if spans is None:
            joined, within = _game_texts(key)
            where = put(joined)[0]
            spans = game_spans[key] = tuple(v + where if v >= 0 else v for v in within)
        hand_rows.append((*put(hand_id), *spans, micros, *blinds, ante[h], straddle[h],
                          button[h], mpu, tournament, bring_in[h]))
        hand_known.append((True, not stud, not stud, fixed_limit, fixed_limit, True,
                           straddle[h] != NULL, not stud, True, True, stud or posted_bring_in))
    # by field, hand after hand (C order, as the kernel is compiled for): the hands' tuples
    # as rows, transposed and copied (a third of the cost of zipping them first); the spans
    # and the numbers are the rows of one array
    both = np.ascontiguousarray(np.array(hand_rows, np.int64).reshape(
        len(read), 12 + len(_NUMBERS)).T)
    spans, numbers = both[:12], both[12:]
    known = np.ascontiguousarray(np.array(hand_known, np.bool_).reshape(
        len(read), len(_NUMBERS)).T)
    if len(read) < n:  # the hands not read: no spans, no numbers
        spans, numbers, known = _spread(read, n, spans, numbers, known)
    const, const_spans = _constant()
    base = extras.base
    total, note_lead = const_spans["total"], const_spans["note"]
    fixed_spans = np.array([*put(prefix), total[0] + base, total[1] + base,
                            note_lead[0] + base, note_lead[1] + base], np.int64)
    kinds, details = const_spans["kinds"] + base, const_spans["details"] + base
    data = np.concatenate((text, cards, const, np.frombuffer(extras.out, np.uint8)))
    spec = np.empty((7, 10, count), np.int64)
    ints = np.zeros((len(INTS), count), np.int64)
    int8s = np.zeros((len(INT8S), count), np.int8)
    seq = np.empty(count, np.int32)
    valid = np.empty((len(VALID), count), np.bool_)
    offsets = np.empty((10, count + 1), np.int32)
    starts = np.empty(11, np.int64)
    k.sized_columns(rows, count, row0, ok, spans, numbers, known, kinds, details, fixed_spans,
                    per[5], spec, ints, int8s, seq, valid, offsets, starts)
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    message, at, out = _LAYOUT.message(count, int(starts[-1]))
    t.text_fill(data, lo1, hi1, lo2, hi2, num, lo3, hi3, NULL, offsets, out, starts)
    return _LAYOUT.table(message, at, count, out, ints, seq.reshape(1, count), int8s,
                         valid[:24], valid[24:], offsets, starts)


def _game_texts(key: tuple[Any, ...]) -> tuple[str, tuple[int, ...]]:
    """The texts a hand's game line's reading, structure and late notes (`key`) give its
    table_id (none: spans -1), source note, variant, structure and currency, joined, and
    their byte spans in the joined text: one `put` a file for them (remembered across files)."""
    got = _GAME_TEXTS.get(key)
    if got is None:
        if len(_GAME_TEXTS) >= _MEMO:
            _GAME_TEXTS.clear()
        got = _GAME_TEXTS[key] = _join(_game_spans(*key))
    return got


def _game_spans(game: tuple[Any, ...], fixed_limit: bool, late: str) -> tuple[str | None, ...]:
    """The texts of a hand's table_id (None: none), source note, variant, structure and
    currency, its game line read as `game`."""
    variant, desc, tournament, _, _, _ = game
    note = _NOTE if desc else _NOTE + _NO_TABLE
    if variant in _STUD:
        structure = "fixed_limit"
    elif fixed_limit:
        structure = "fixed_limit"
        note += _FIXED
    else:
        structure = "pot_limit" if variant.startswith("omaha") else "no_limit"
        note += _HIGHER[structure]
    return (desc or None, note + late, variant, structure, "CHIPS" if tournament else "USD")


def _join(texts: tuple[str | None, ...]) -> tuple[str, tuple[int, ...]]:
    """`texts` joined and each one's byte span in the join (-1, -1: None)."""
    spans: list[int] = []
    size = 0
    for text in texts:
        if text is None:
            spans += _NO_SPAN
            continue
        width = len(text.encode())
        spans += (size, size + width)
        size += width
    return "".join(text for text in texts if text is not None), tuple(spans)


def _spread(read: list[int], n: int, spans: np.ndarray, numbers: np.ndarray,
            known: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The per-hand columns of the hands `read` as columns of all `n` hands (spans -1, numbers
    0 and not known for the others)."""
    all_spans = np.full((12, n), -1, np.int64)
    all_numbers = np.zeros((len(_NUMBERS), n), np.int64)
    all_known = np.zeros((len(_NUMBERS), n), np.bool_)
    if read:
        all_spans[:, read], all_numbers[:, read], all_known[:, read] = spans, numbers, known
    return all_spans, all_numbers, all_known


_HIGHER = {s: f";structure={s.replace('_', ' ')} (the big blind is the higher stake)"
           for s in ("pot_limit", "no_limit")}


# the game's numbers by hand, on its first row: the clock (µs since 1970), the blinds, the bets
# (fixed limit), ante, straddle, button seat, minor units per unit, tournament
_NUMBERS = ("micros", "small_blind", "big_blind", "small_bet", "big_bet", "ante", "straddle",
            "button", "mpu", "tournament", "bring_in")


# per schema field in depth-first order (`compiledtext.IpcLayout`): the masks are
# `winning_kernel.VALID`'s but its last (the tournament flags: the one boolean row), the int64
# rows `INTS`, the int8 rows `INT8S`, the int32 row the seq
_LAYOUT = IpcLayout((
    ("s", 0, 0), ("i32", None, 0), ("i64", 10, 0), ("s", 1, 1), ("s", 2, 2), ("i8", 21, 0),
    ("s", 3, 3), ("i64", 11, 1), ("i64", 12, 2), ("s", 4, 4), ("s", 5, 5), ("g", 23),
    ("s", 7, 7), ("s", 8, 8), ("i64", 13, 3), ("i64", 14, 4), ("i64", 15, 5), ("i64", 16, 6),
    ("i64", 17, 7), ("i64", 20, 10), ("i64", 18, 8), ("i64", -1, 0), ("i8", 22, 1),
    ("i8", -1, 0), ("s", 9, 9), ("i64", 19, 9), ("b", 23, 0), ("i32", -1, 0), ("b", -1, -1),
    ("s", -1, 10), ("s", -1, 10), ("s", 6, 6)),
    i64=11, i32=1, i8=2, masks=24, bools=1, texts=10)


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
