"""Winning Poker Network's compiled pass (`winning_kernel`) turned into event columns: each
hand's first two lines (`Game started at:`, `Game ID:`) read in Python by the line parser's
own patterns (`_STARTED`, `_GAME_ID`, `header_time`, the money of the stakes), the rest of the
hand by the kernel, and the kernel's rows made into one Arrow table per file (integer columns
from numpy, strings from byte spans, the per-hand columns taken from one entry per hand).
`compiledtext.read_compiled_text` does the rest (the hands the kernel does not read, the
chunks); UTF-16 files are read as the UTF-8 text `sitetext` reads them as.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, KernelRows, Lines, fixed
from audit.importers.sitetext import HOLE_COUNT, SiteHandError, header_time
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.winning_kernel",
                        "the compiled Winning Poker Network reader",
                        "Winning Poker Network files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_GAME = _SCHEMA.field("game").type
_TS = _SCHEMA.field("ts").type
_STRING = pa.string()
_INT64 = 1 << 63
_MEMO = 1024
_NOTE = ";ts=local time read as UTC (the log names no time zone)"
_NO_TABLE = ";tournament=the game line names no table: read as tournament chips"
_FIXED = ";structure=fixed limit (the big blind is the lower stake)"
_KERNEL_GAMES = frozenset({"holdem", "holdem_6plus", "omaha", "omaha_hilo", "omaha5",
                           "omaha5_hilo"})
# `Game ID:` line after the id -> (variant, table id, tournament, mpu, low, high) or None
_GAME_LINES: dict[str, tuple[Any, ...] | None] = {}
_CLOCKS: dict[str, Any] = {}  # header clock text -> its UTC time


def _is_header(lines: Lines) -> np.ndarray:
    from audit.importers.winning import _HEADER_LINE

    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(lines.begin), np.bool_)
    k.header_lines(lines.data, lines.begin, lines.hi, out)
    odd = np.flatnonzero(lines.odd)
    if len(odd):  # a line ending in a Unicode space: told by the reader's own pattern
        raw = lines.data.tobytes()
        ends = np.append(lines.begin[1:] - 1, len(raw))
        for i in odd.tolist():
            text = raw[lines.begin[i]:ends[i]].decode("utf-8").rstrip()
            out[i] = _HEADER_LINE.match(text) is not None
    return out


def _game_line(rest: str, number: int) -> tuple[Any, ...] | None:
    """What the `Game ID:` line says beside the id, as `_fast_old` reads it; None when the
    kernel does not read such hands (stud, a game it does not know, stakes that do not
    fit)."""
    from audit.importers.winning import _AMOUNTS, _GAME_ID, _OLD_GAMES, _TABLE_NUMBER

    g = _GAME_ID.match("Game ID: 0 " + rest)
    if g is None:
        return None
    variant = _OLD_GAMES.get(" ".join(g.group("game").lower().split()))
    if variant not in _KERNEL_GAMES:
        return None
    desc = g.group("desc").strip()
    tournament = not desc or _TABLE_NUMBER.search(desc) is not None
    mpu = 1 if tournament else 100
    money = _AMOUNTS.of(mpu)
    try:
        low, high = money(g.group("a"), number), money(g.group("b"), number)
    except SiteHandError:
        return None
    if not (-_INT64 <= low < _INT64 and -_INT64 <= high < _INT64):
        return None
    return variant, desc, tournament, mpu, low, high


def _heads(raw: bytes, lines: Lines, first: np.ndarray, last: np.ndarray
           ) -> tuple[list[Any], np.ndarray]:
    """Each hand's header reading (hand id, clock, game line reading) or None, and the line
    after its `Game ID:` line."""
    from audit.importers.winning import _STARTED

    n = len(first)
    out: list[Any] = [None] * n
    body = np.zeros(n, np.int64)
    nonblank = np.flatnonzero(lines.lo < lines.hi)
    at = np.searchsorted(nonblank, first, side="right")
    begin, hi = lines.begin, lines.hi
    for h in range(n):
        if at[h] >= len(nonblank):
            continue
        i0, i1 = int(first[h]), int(nonblank[at[h]])
        if i1 >= last[h]:
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
        stamp = st.group(1)
        ts = _CLOCKS.get(stamp)
        if ts is None:
            try:
                ts, _ = header_time(stamp, "UTC", i0 + 1, header)
            except SiteHandError:
                continue
            if len(_CLOCKS) >= _MEMO:
                _CLOCKS.clear()
            _CLOCKS[stamp] = ts
        out[h] = (f"wpn:{ident}", ts, read)
        body[h] = i1 + 1
    return out, body


def _rows(lines: Lines, first: np.ndarray, last: np.ndarray, prefix: str) -> KernelRows:
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    raw = lines.data.tobytes()
    n = len(first)
    heads, body = _heads(raw, lines, first, last)
    use = np.array([x is not None for x in heads], np.bool_)
    mpu = np.ones(n, np.int64)
    count = np.full(n, 2, np.int64)
    for h in np.flatnonzero(use).tolist():
        variant, _, _, unit, _, _ = heads[h][2]
        mpu[h] = unit
        count[h] = HOLE_COUNT.get(variant, 2)
    size = len(raw)
    n_lines = int((last - first).sum())
    rows = np.empty((11, 2 * n_lines + 24 * n + 64), np.int64)
    cbuf = np.empty(2 * size + 16 * 16 * n + 64, np.uint8)
    per = np.zeros((7, n), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    used = np.zeros(1, np.int64)
    count_rows = k.hands(lines.data, lines.begin, lines.lo, lines.hi, lines.odd, first, body,
                         last, use, mpu, count, size, rows, cbuf, per, ok, row0, used)
    if not count_rows:
        return KernelRows(_SCHEMA.empty_table(), np.empty(0, np.int64), ok, row0)
    return KernelRows(_table(k, t, raw, cbuf[:int(used[0])], rows[:, :count_rows], heads, per,
                             ok, row0, prefix), rows[10, :count_rows].copy(), ok, row0)


def _table(k: Any, t: Any, raw: bytes, cards: np.ndarray, rows: np.ndarray, heads: list[Any],
           per: np.ndarray, ok: np.ndarray, row0: np.ndarray, prefix: str) -> pa.Table:
    """The Arrow table of the kernel's rows."""
    from audit.importers.winning_kernel import D_TOTAL, DETAILS, KINDS, NULL

    count = rows.shape[1]
    r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail, r_line = \
        rows
    n = len(heads)
    hand_ids: list[str] = [""] * n
    tables: list[str | None] = [None] * n
    times: list[Any] = [None] * n
    games: list[dict[str, Any] | None] = [None] * n
    totals: list[str] = [""] * n
    extra = bytearray(prefix.encode())
    size = len(raw) + len(cards)
    note_lo = np.full(n, -1, np.int64)
    note_hi = np.full(n, -1, np.int64)
    button, bb, sb, straddle, ante, pot = (per[f].tolist() for f in range(6))
    for h in np.flatnonzero(ok).tolist():
        hand_id, ts, (variant, desc, tournament, mpu, low, high) = heads[h]
        hand_ids[h], tables[h], times[h] = hand_id, desc or None, ts
        note = _NOTE if desc else _NOTE + _NO_TABLE
        game: dict[str, Any] = {
            "variant": variant, "currency": "CHIPS" if tournament else "USD",
            "minor_per_unit": mpu, "tournament": tournament, "ante": ante[h],
            "button_seat": button[h]}
        if bb[h] != NULL and bb[h] == low and high == 2 * low:
            game.update(structure="fixed_limit", small_bet=low, big_bet=high, big_blind=low,
                        small_blind=sb[h] if sb[h] != NULL else low // 2)
            note += _FIXED
        else:
            structure = "pot_limit" if variant.startswith("omaha") else "no_limit"
            game.update(structure=structure, small_blind=low, big_blind=high)
            note += (f";structure={structure.replace('_', ' ')} (the big blind is the higher "
                     "stake)")
        if straddle[h] != NULL:
            game["straddle"] = straddle[h]
        games[h] = game
        totals[h] = f"total_pot={pot[h]}"
        note_lo[h] = size + len(extra)
        extra += note.encode()
        note_hi[h] = size + len(extra)
    data = np.frombuffer(bytearray(raw) + cards.tobytes() + extra, dtype=np.uint8)
    first_row = np.zeros(count, np.bool_)
    first_row[row0[np.flatnonzero(ok)]] = True
    # the string columns player, cards, source: (lo1, hi1, lo2, hi2, num, lo3, hi3) of each
    spec = np.full((7, 3, count), -1, np.int64)
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    num[:2] = NULL
    lo1[0], hi1[0] = r_plo, r_phi
    lo1[1], hi1[1] = r_clo, r_chi
    lo1[2], hi1[2], num[2] = size, size + len(prefix.encode()), r_line
    lo3[2][first_row] = note_lo[r_hand[first_row]]
    hi3[2][first_row] = note_hi[r_hand[first_row]]
    offsets = np.empty((3, count + 1), np.int32)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, NULL, offsets)
    starts = np.zeros(4, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    out = np.empty(int(starts[-1]), np.uint8)
    t.text_fill(data, lo1, hi1, lo2, hi2, num, lo3, hi3, NULL, offsets, out, starts)
    valid = lo1 >= 0
    out_buf = pa.py_buffer(out)
    edges = starts.tolist()
    text = [pa.Array.from_buffers(_STRING, count, [
        pa.py_buffer(np.packbits(valid[c], bitorder="little")),
        pa.py_buffer(offsets[c].copy()), out_buf.slice(edges[c], edges[c + 1] - edges[c])])
        for c in range(3)]
    hand_index = pa.array(r_hand)
    head_index = pa.array(r_hand, mask=~first_row)
    details = r_detail.copy()
    total = details == D_TOTAL
    details[total] = len(DETAILS) + r_hand[total]
    columns = [
        pa.array(hand_ids, _STRING).take(hand_index),
        fixed((np.arange(count) - row0[r_hand]).astype(np.int32), None, pa.int32()),
        pa.array(times, _TS).take(head_index),
        pa.array(tables, _STRING).take(hand_index),
        pa.array(KINDS, _STRING).take(pa.array(r_kind)),
        fixed(r_seat.astype(np.int8), r_seat >= 0, pa.int8()),
        text[0],
        fixed(r_amount.copy(), r_amount != NULL, pa.int64()),
        fixed(r_total.copy(), r_total != NULL, pa.int64()),
        text[1],
        pa.array([*DETAILS, *totals], _STRING).take(pa.array(details, mask=details < 0)),
        pa.array(games, _GAME).take(head_index),
        text[2],
    ]
    return pa.Table.from_arrays(columns, schema=_SCHEMA)


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
