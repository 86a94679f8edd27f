"""GGPoker's compiled pass (`ggpoker_kernel`) turned into event columns: the stakes text of
each header read once by the line parser's `_read_header`, the kernel's rows made into one
Arrow table per file (one IPC message, `compiledtext.IpcLayout`: integer columns from numpy,
strings from byte spans, the hand columns taken from one entry per hand).
`compiledtext.read_room` does the rest (the hands the kernel does not read, the chunks).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, IpcLayout, KernelRows, Lines
from audit.importers.sitetext import HOLE_COUNT, SiteHandError
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.ggpoker_kernel", "the compiled GGPoker reader",
                        "GGPoker files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_STAKES_MEMO = 1024
# stakes text -> (tournament, level, variant, structure, currency, mpu, sb, bb, ante) or None
_STAKES: dict[bytes, tuple[Any, ...] | None] = {}
_INT64 = 1 << 63


def _params(key: bytes, number: int, header: str) -> tuple[Any, ...] | None:
    """What a header with stakes text `key` says beside its id and clock, as `_read_header`
    reads it; None when it raises or its values do not fit the schema (those hands go to the
    Python fast path and line parser)."""
    from audit.importers.ggpoker import _CLOCK, _HEADER, _read_header

    known = _STAKES.get(key, False)
    if known is not False:
        return known  # type: ignore[return-value]
    try:
        read = _read_header(number, header)
    except SiteHandError:
        return None  # the clock of this header may be the reason: not remembered
    m = _HEADER.match(header)
    rest = header[m.end():].strip() if m else ""
    c = _CLOCK.search(rest)
    value: tuple[Any, ...] | None = tuple(read[2:])
    tournament, level, *_, sb, bb, ante = read[2:]
    if c is None or rest[:c.start()].encode() != key or \
            not all(-_INT64 <= v < _INT64 for v in (sb, bb, ante)) or \
            (level is not None and not -(1 << 31) <= level < (1 << 31)):
        value = None
    if len(_STAKES) >= _STAKES_MEMO:
        _STAKES.clear()
    _STAKES[key] = value
    return value


def _is_header(lines: Lines) -> np.ndarray:
    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(lines.begin), np.bool_)
    k.header_lines(lines.data, lines.begin, lines.hi, out)
    return out


def _rows(lines: Lines, first: np.ndarray, last: np.ndarray, prefix: str) -> KernelRows:
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    raw = lines.data.tobytes()
    n = len(first)
    head = np.empty((5, n), np.int64)
    clock_ok = np.empty(n, np.bool_)
    k.headers(lines.data, lines.begin, lines.hi, first, head, clock_ok)
    id_lo, id_hi, st_lo, st_hi, micros = head
    params: list[tuple[Any, ...] | None] = [None] * n
    use = np.zeros(n, np.bool_)
    # mpu, short deck, fixed limit, tournament, hole cards, small blind, big blind, ante
    values = np.zeros((8, n), np.int64)
    for h in np.flatnonzero(clock_ok).tolist():
        key = raw[st_lo[h]:st_hi[h]]
        p = _STAKES.get(key, False)
        if p is False:
            i = int(first[h])
            p = _params(key, i + 1, raw[lines.begin[i]:lines.hi[i]].decode("utf-8"))
        if p is not None:
            params[h] = p
            use[h] = True
            values[:, h] = _VALUES[p]
    extras, at = _extras(len(raw), params, use, prefix)
    data = np.frombuffer(bytearray(raw + extras), dtype=np.uint8)  # writeable: see compiledtext
    rows = np.empty((11, 2 * int((last - first).sum()) + 32 * n + 64), np.int64)
    per = np.zeros((11, n), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    count = k.hands(data, lines.lo, lines.hi, lines.odd, first, last, use, values,
                    at["unknown"], rows, per, ok, row0)
    if not count:
        return KernelRows(_SCHEMA.empty_table(), np.empty(0, np.int64), ok, row0)
    rows = rows[:, :count]
    r_hand, r_kind, r_seat, r_plo, r_phi, r_amount, r_total, r_clo, r_chi, r_detail, r_line = \
        rows
    t_lo, t_hi, button, max_seats, g_ante, g_sb, g_bb, pot, p_sb, p_bb, noted = per
    null = k.NULL
    note_lo = np.full(count, -1, np.int64)
    note_hi = note_lo
    if noted.any():  # the first row's source notes the blinds as posted, as `_fast_hand` does
        data, note_lo, note_hi = _notes(data, noted, p_sb, p_bb, values, row0, count, null)
    key = at["key"][r_hand]
    first_row = np.zeros(count, np.bool_)
    first_row[row0[np.flatnonzero(ok)]] = True
    codes = r_detail
    # the string columns: hand_id, table_id, kind, player, cards, detail, source, and the
    # game's variant, structure and currency: (lo1, hi1, lo2, hi2, num, lo3, hi3) of each
    spec = np.empty((7, 10, count), np.int64)  # what is not set below is never read
    lo1, hi1, lo2, hi2, num, lo3, hi3 = spec
    lo1[5], lo1[7:], lo2[2:], lo3[:6], lo3[7:], num[:6], num[7:] = -1, -1, -1, -1, -1, null, null
    lo1[0], hi1[0], lo2[0], hi2[0] = at["gg"], at["gg"] + 3, id_lo[r_hand], id_hi[r_hand]
    lo1[1], hi1[1] = at["table_lo"][key], at["table_hi"][key]
    lo2[1], hi2[1] = t_lo[r_hand], t_hi[r_hand]
    lo1[2], hi1[2] = at["kind_lo"][r_kind], at["kind_hi"][r_kind]
    lo1[3], hi1[3] = r_plo, r_phi
    lo1[4], hi1[4] = r_clo, r_chi
    detail = codes >= 0
    lo1[5][detail] = at["detail_lo"][codes[detail]]
    hi1[5] = at["detail_hi"][codes]
    total = codes == k.D_TOTAL
    num[5][total] = pot[r_hand[total]]
    lo1[6], hi1[6], num[6], lo3[6], hi3[6] = at["prefix"], at["prefix_end"], r_line, note_lo, \
        note_hi
    for c, field in ((7, "variant"), (8, "structure"), (9, "currency")):
        lo1[c][first_row] = at[field + "_lo"][key[first_row]]
        hi1[c] = at[field + "_hi"][key]
    offsets = np.empty((10, count + 1), np.int32)
    t.text_sizes(lo1, hi1, lo2, hi2, num, lo3, hi3, null, offsets)
    starts = np.zeros(11, np.int64)
    np.cumsum(offsets[:, -1], out=starts[1:])
    message, at_, out = _LAYOUT.message(count, int(starts[-1]))
    t.text_fill(data, lo1, hi1, lo2, hi2, num, lo3, hi3, null, offsets, out, starts)
    fixed_limit = at["fixed"][key]
    level = at["level"][key]
    seats = max_seats[r_hand]
    i64 = np.stack([micros[r_hand], r_amount, r_total, g_sb[r_hand], g_bb[r_hand],
                    values[5][r_hand], values[6][r_hand], g_ante[r_hand], values[0][r_hand]])
    i32 = np.stack([np.arange(count) - row0[r_hand], level]).astype(np.int32)
    i8 = np.stack([r_seat, button[r_hand], seats]).astype(np.int8)
    masks = np.concatenate([lo1 >= 0, np.stack([
        first_row, r_seat >= 0, r_amount != null, r_total != null, first_row & fixed_limit,
        first_row & (seats >= 0), first_row & (level != null)])])
    table = _LAYOUT.table(message, at_, count, out, i64, i32, i8, masks,
                          values[3][r_hand].astype(np.bool_).reshape(1, count), offsets,
                          starts)
    return KernelRows(table, r_line.copy(), ok, row0)


class _Values(dict):  # type: ignore[type-arg]
    """The kernel's numbers of a header's stakes (`_params`), worked out once."""

    def __missing__(self, p: tuple[Any, ...]) -> list[int]:
        tournament, _level, variant, structure, _currency, mpu, sb, bb, ante = p
        value = [mpu, variant == "holdem_short", structure == "fixed_limit",
                 tournament is not None, HOLE_COUNT.get(variant, 2), sb, bb, ante]
        if len(self) >= _STAKES_MEMO:
            self.clear()
        self[p] = value
        return value


_VALUES = _Values()


def _notes(data: np.ndarray, noted: np.ndarray, p_sb: np.ndarray, p_bb: np.ndarray,
           values: np.ndarray, row0: np.ndarray, count: int, null: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`data` with the notes of the hands whose blinds are not the header's appended, and
    each row's note span (lo -1: none; on the first row of such a hand)."""
    lo = np.full(count, -1, np.int64)
    hi = np.full(count, -1, np.int64)
    more = bytearray()
    for h in np.flatnonzero(noted).tolist():
        posted_sb = None if p_sb[h] == null else int(p_sb[h])
        note = (f";stakes=blinds as posted ({posted_sb}/{int(p_bb[h])}), the header says "
                f"{int(values[5][h])}/{int(values[6][h])}").encode()
        lo[row0[h]] = len(data) + len(more)
        more += note
        hi[row0[h]] = len(data) + len(more)
    return np.concatenate([data, np.frombuffer(more, dtype=np.uint8)]), lo, hi


@cache
def _constant() -> tuple[bytes, dict[str, Any]]:
    """The texts every file's columns take (the unknown hole cards, the kinds, the details,
    `gg:`) and where they are from the end of the file's bytes."""
    from audit.importers.ggpoker_kernel import D_TOTAL, DETAILS, KINDS

    out = bytearray(b"\n")
    at: dict[str, Any] = {}

    def put(text: str) -> tuple[int, int]:
        lo = len(out)
        out.extend(text.encode())
        return lo, len(out)

    at["unknown"] = put("?? ?? ?? ?? ?? ??")[0]
    for name, vocab in (("kind", KINDS), ("detail", (*DETAILS, "total_pot="))):
        spans = [put(v) for v in vocab]
        at[name + "_lo"] = np.array([a for a, _ in spans], np.int64)
        at[name + "_hi"] = np.array([b for _, b in spans], np.int64)
    assert len(at["detail_lo"]) == D_TOTAL + 1
    at["gg"] = put("gg:")[0]
    return bytes(out), at


def _extras(size: int, params: list[Any], use: np.ndarray, prefix: str
            ) -> tuple[bytes, dict[str, Any]]:
    """The texts the columns take beside the file's (appended after its `size` bytes) and
    where they are: the unknown hole cards, the kinds, the details, `gg:`, the source prefix,
    and per stakes text its variant, structure, currency, table id prefix, whether it is
    fixed limit, its level (`ggpoker_kernel.NULL`: none); `key`: each hand's stakes text."""
    from audit.importers.ggpoker_kernel import NULL

    const, spans = _constant()
    out = bytearray(const)
    at: dict[str, Any] = {name: value + size for name, value in spans.items()}

    def put(text: str) -> tuple[int, int]:
        lo = size + len(out)
        out.extend(text.encode())
        return lo, size + len(out)

    at["prefix"], at["prefix_end"] = put(prefix)
    keys: dict[tuple[Any, ...], int] = {}
    hand_key = np.zeros(len(params), np.int64)
    for h in np.flatnonzero(use).tolist():
        p = params[h]
        index = keys.get(p)
        if index is None:
            index = keys[p] = len(keys)
        hand_key[h] = index
    fields: dict[str, list[Any]] = {f: [] for f in (
        "variant_lo", "variant_hi", "structure_lo", "structure_hi", "currency_lo",
        "currency_hi", "table_lo", "table_hi", "fixed", "level")}
    for p in keys:
        tournament, level, variant, structure, currency = p[:5]
        for name, value in (("variant", variant), ("structure", structure),
                            ("currency", currency),
                            ("table", f"{tournament} " if tournament is not None else "")):
            lo, hi = put(value)
            fields[name + "_lo"].append(lo)
            fields[name + "_hi"].append(hi)
        fields["fixed"].append(structure == "fixed_limit")
        fields["level"].append(NULL if level is None else level)
    for name, values in fields.items():
        at[name] = np.array(values or [0], np.bool_ if name == "fixed" else np.int64)
    at["key"] = hand_key
    return bytes(out), at


# per schema field in depth-first order (`compiledtext.IpcLayout`): the masks are the ten
# string columns' -- hand_id, table_id, kind, player, cards, detail, source, variant,
# structure, currency --, then a hand's first row, seat, amount, total, fixed limit (first
# row), seat count (first row), level (first row); the int64 rows ts, amount, total, small
# and big blind, small and big bet, ante, mpu; the int32 rows seq, level; the int8 rows
# seat, button, seat count; the one boolean row tournament
_LAYOUT = IpcLayout((
    ("s", 0, 0), ("i32", None, 0), ("i64", 10, 0), ("s", 1, 1), ("s", 2, 2), ("i8", 11, 0),
    ("s", 3, 3), ("i64", 12, 1), ("i64", 13, 2), ("s", 4, 4), ("s", 5, 5), ("g", 10),
    ("s", 7, 7), ("s", 8, 8), ("i64", 10, 3), ("i64", 10, 4), ("i64", 14, 5), ("i64", 14, 6),
    ("i64", 10, 7), ("i64", -1, 0), ("i64", -1, 0), ("i64", -1, 0), ("i8", 10, 1),
    ("i8", 15, 2), ("s", 9, 9), ("i64", 10, 8), ("b", 10, 0), ("i32", 16, 1), ("b", -1, -1),
    ("s", -1, 10), ("s", -1, 10), ("s", 6, 6)),
    i64=9, i32=2, i8=3, masks=17, bools=1, texts=10)


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
