"""888poker's compiled pass (`pacific_kernel`) turned into event columns: the stakes and table
lines of each hand read once per text by the line parser's own regular expressions
(`_params`, as `pacific._fast_888` reads them), the kernel's rows made into one Arrow table
per file (numbers and string columns written by the kernel, one Arrow array per column).
`compiledtext.read_compiled` does the rest (the hands the kernel does not read, the chunks).
"""

from __future__ import annotations

import struct
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule
from audit.importers.compiledtext import CompiledRoom, KernelRows, Lines
from audit.importers.sitetext import CURRENCY_SYMBOLS, HOLE_COUNT
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.pacific_kernel", "the compiled 888poker reader",
                        "888poker files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_MEMO = 1024
_LIMIT = 1 << 63
# (stakes text, table text, dated) -> (variant, structure, currency, mpu, tournament, small
# blind, big blind, seat count or -1, table id, fixed limit) or None
_PARAMS: dict[tuple[bytes, bytes, bool], tuple[Any, ...] | None] = {}


def _params(stakes: bytes, table: bytes, full: bytes) -> tuple[Any, ...] | None:
    """What a hand's stakes line (its clock cut off; `full`: as written) and table line say,
    as `_fast_888` reads them; None when it would not read them or a value does not fit the
    schema (those hands go to the Python fast path and the line parser)."""
    from audit.importers import pacific as p

    s = p._STAKES.match(stakes.decode("utf-8"))
    tb = p._TABLE.match(table.decode("utf-8"))
    if s is None or tb is None or s.group("y") is not None:
        return None
    if full != stakes:  # the clock cut off: the rest reads as the line with it
        f = p._STAKES.match(full.decode("utf-8"))
        if f is None or f.group("y") is None or \
                f.group("sb", "bb", "game") != s.group("sb", "bb", "game"):
            return None
    tournament = tb.group("tid") is not None
    money_kind = tb.group("money").lower()
    low = s.group("game").strip().lower().removesuffix(" jackpot table").strip()
    structure = variant = None
    for lw in p._SORTED_LIMITS:
        if low.startswith(lw + " "):
            structure, variant = p._LIMITS[lw], p._GAMES.get(low[len(lw) + 1:].strip())
            break
    if structure is None or variant is None:
        return None
    symbol = p._symbol(s.group("sb") + s.group("bb"))
    if tournament:
        currency, mpu = "CHIPS", 1
    elif "practice" in money_kind or "play" in money_kind:
        currency, mpu = "CHIPS", 100
    else:
        currency = CURRENCY_SYMBOLS.get(symbol, "USD" if not symbol else symbol)
        mpu = 100
        if not symbol:
            currency = "CHIPS"
    money = p._AMOUNTS.of(mpu)
    try:
        sb, bb = money(s.group("sb"), 0), money(s.group("bb"), 0)
    except Exception:  # noqa: BLE001 - the fast path gives such a hand up
        return None
    if tournament:
        table_id = f"{tb.group('tid')} {tb.group('tno') or ''}".strip()
    else:
        table_id = tb.group("name")
    seats = int(tb.group("max")) if tb.group("max") else -1
    if not all(-_LIMIT <= v < _LIMIT for v in (sb, bb, 2 * bb)) or seats > 127:
        return None
    return (variant, structure, currency, mpu, tournament, sb, bb, seats, table_id,
            structure == "fixed_limit")


def _is_header(lines: Lines) -> np.ndarray:
    k = KERNEL.get()
    assert k is not None
    out = np.empty(len(lines.begin), np.bool_)
    k.header_lines(lines.data, lines.begin, lines.lo, lines.hi, lines.odd, out)
    return out


@cache
def _constant() -> tuple[bytes, dict[str, Any]]:
    """The texts every file's columns take (`888:`, the kinds, the details, the note of a hand
    no one collected in, the unknown hole cards), as offsets from the end of its bytes."""
    from audit.importers.pacific_kernel import DETAILS, KINDS

    out = bytearray(b"\n")
    spans = []
    for text in ("888:", *KINDS, *DETAILS, ";winnings=no 'collected' line"):
        spans.append((len(out), len(out) + len(text.encode())))
        out += text.encode()
    unknown = len(out)
    out += b"?? ?? ?? ?? ?? ?? ?? ??"
    return bytes(out), {"const": np.array(spans, np.int64).T.copy(), "unknown": unknown}


def _rows(lines: Lines, first: np.ndarray, last: np.ndarray, prefix: str) -> KernelRows:
    k = KERNEL.get()
    t = TEXT.get()
    assert k is not None and t is not None
    data = lines.data
    raw = data.tobytes()
    n = len(first)
    head = np.empty((6, n), np.int64)
    k.heads(data, lines.lo, lines.hi, first, last, head)
    use = np.zeros(n, np.bool_)
    values = np.zeros((3, n), np.int64)  # mpu, fixed limit, hole cards
    per = np.zeros((7, n), np.int64)
    hand_key = np.zeros(n, np.int64)
    keys: dict[tuple[Any, ...], int] = {}
    found: list[tuple[Any, ...]] = []
    st_lo, st_hi, tb_lo, tb_hi, state = head[:5].tolist()
    for h in np.flatnonzero((head[0] >= 0) & (head[4] >= 0)).tolist():
        key = (raw[st_lo[h]:st_hi[h]], raw[tb_lo[h]:tb_hi[h]], state[h])
        p = _PARAMS.get(key, False)
        if p is False:
            full = raw[st_lo[h]:st_hi[h] + 20] if state[h] else key[0]
            p = _params(key[0], key[1], full)
            if len(_PARAMS) >= _MEMO:
                _PARAMS.clear()
            _PARAMS[key] = p
        if p is None:
            continue
        index = keys.get(p)
        if index is None:
            index = keys[p] = len(found)
            found.append(p)
        use[h] = True
        hand_key[h] = index
        values[0, h] = p[3]
        values[1, h] = p[9]
        values[2, h] = HOLE_COUNT.get(p[0], 2)
        per[3, h] = p[7]
    const, at = _constant()
    size = len(raw)
    extra = bytearray(const)
    key_text = np.zeros((8, max(len(found), 1)), np.int64)
    params = np.zeros((5, max(len(found), 1)), np.int64)
    for index, p in enumerate(found):
        for c, text in enumerate((p[8], p[0], p[1], p[2])):
            key_text[2 * c, index] = size + len(extra)
            extra += text.encode()
            key_text[2 * c + 1, index] = size + len(extra)
        params[:, index] = (p[3], p[4], p[9], p[5], p[6])
    prefix_lo = size + len(extra)
    extra += prefix.encode()
    prefix_hi = size + len(extra)
    card_at = size + len(extra)
    buffer = np.empty(card_at + size + 16, np.uint8)  # the card area: cards are never longer
    buffer[:size] = data
    buffer[size:card_at] = np.frombuffer(bytes(extra), np.uint8)
    rows = np.empty((11, 2 * int((last - first).sum()) + 24 * n + 64), np.int64)
    ok = np.zeros(n, np.bool_)
    row0 = np.zeros(n + 1, np.int64)
    count, _ = k.hands(buffer, lines.lo, lines.hi, lines.odd, first, last, use, values,
                       size + at["unknown"], card_at, rows, per, ok, row0)
    if not count:
        return KernelRows(_SCHEMA.empty_table(), np.empty(0, np.int64), ok, row0)
    template, spots = _template()
    msg = k.message(buffer, rows, count, row0, ok, per, hand_key, key_text, params,
                    at["const"] + size, prefix_lo, prefix_hi, head[5], template, spots)
    batch = pa.ipc.read_record_batch(pa.py_buffer(msg), _SCHEMA)
    return KernelRows(pa.Table.from_batches([batch]), rows[10, :count].copy(), ok, row0)


@cache
def _template() -> tuple[np.ndarray, np.ndarray]:
    """An Arrow IPC record batch message's metadata of the events schema (its 8-byte prefix
    with it) and where its batch length, body length, nodes and buffers are: the kernel
    writes a batch's own there (`pacific_kernel.message`)."""
    row: dict[str, Any] = dict.fromkeys(_SCHEMA.names)
    row.update(hand_id="h", seq=1, kind="k", source="s")
    msg = pa.Table.from_pylist([row], schema=_SCHEMA).to_batches()[0].serialize().to_pybytes()
    (size,) = struct.unpack_from("<i", msg, 4)
    meta = msg[8:8 + size]

    def fields(pos: int) -> list[int]:
        vtable = pos - struct.unpack_from("<i", meta, pos)[0]
        (length,) = struct.unpack_from("<H", meta, vtable)
        return [struct.unpack_from("<H", meta, vtable + 4 + 2 * i)[0]
                for i in range((length - 4) // 2)]

    def target(pos: int) -> int:
        return pos + int(struct.unpack_from("<I", meta, pos)[0])

    root = target(0)
    header = target(root + fields(root)[2])
    batch = fields(header)
    nodes, buffers = target(header + batch[1]), target(header + batch[2])
    spots = np.array([8 + header + batch[0], 8 + root + fields(root)[3], 8 + nodes + 4,
                      8 + buffers + 4], np.int64)
    counts = struct.unpack_from("<I", meta, nodes)[0], struct.unpack_from("<I", meta, buffers)[0]
    if counts != (32, 75) or struct.unpack_from("<q", msg, int(spots[0]))[0] != 1:
        raise RuntimeError(f"the events schema's IPC layout changed: {counts}")
    return np.frombuffer(msg[:8 + size], np.uint8).copy(), spots


ROOM = CompiledRoom(is_header=_is_header, rows=_rows)
