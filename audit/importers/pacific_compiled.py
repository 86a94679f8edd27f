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
from audit.importers.sitetext import HOLE_COUNT
from audit.schema import events_schema

KERNEL = CompiledModule("audit.importers.pacific_kernel", "the compiled 888poker reader",
                        "888poker files are read by the Python fast path")
TEXT = CompiledModule("audit.importers.textkernel", "the compiled site-text reader",
                      "site text files are read by the Python fast paths")

_SCHEMA = events_schema()
_MEMO = 1024
_LIMIT = 1 << 63
# (stakes text, table text, dated) -> (table id, variant, structure, currency (UTF-8), mpu,
# tournament, fixed limit, small blind, big blind, hole cards, seat count or -1) or None
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
    currency, mpu = p._unit(tournament, money_kind, p._symbol(s.group("sb") + s.group("bb")))
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
    return (table_id.encode(), variant.encode(), structure.encode(), currency.encode(), mpu,
            tournament, structure == "fixed_limit", sb, bb, HOLE_COUNT.get(variant, 2), seats)


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
    assert k is not None and TEXT.get() is not None
    data = lines.data
    raw = data.tobytes()
    n = len(first)
    head = np.empty((6, n), np.int64)
    k.heads(data, lines.lo, lines.hi, first, last, head)
    use = np.zeros(n, np.bool_)
    hand_key = np.zeros(n, np.int64)
    keys: dict[tuple[Any, ...], int] = {}
    st_lo, st_hi, tb_lo, tb_hi, state = head[:5].tolist()
    for h in np.flatnonzero((head[0] >= 0) & (head[4] >= 0)).tolist():
        key = (raw[st_lo[h]:st_hi[h]], raw[tb_lo[h]:tb_hi[h]], state[h])
        if key in _PARAMS:
            p = _PARAMS[key]
        else:
            full = raw[st_lo[h]:st_hi[h] + 20] if state[h] else key[0]
            p = _params(key[0], key[1], full)
            if len(_PARAMS) >= _MEMO:
                _PARAMS.clear()
            _PARAMS[key] = p
        if p is None:
            continue
        index = keys.get(p)
        if index is None:
            index = keys[p] = len(keys)
        use[h] = True
        hand_key[h] = index
    const, at = _constant()
    size = len(raw)
    blob, rel, params = _stakes_texts(tuple(keys))
    key_text = rel + size
    prefix_lo = size + len(blob)
    tail = prefix.encode()
    card_at = prefix_lo + len(tail)
    # the card area: cards are never longer than the file
    buffer = np.frombuffer(bytearray(b"".join((raw, blob, tail, bytes(size + 16)))), np.uint8)
    template, spots = _template()
    msg, row_lines, ok, row0 = k.read(buffer, lines.lo, lines.hi, lines.odd, first, last,
                                      use, hand_key, key_text, params, at["const"] + size,
                                      prefix_lo, card_at, head, size + at["unknown"], card_at,
                                      template, spots)
    if not len(row_lines):
        return KernelRows(_SCHEMA.empty_table(), row_lines, ok, row0)
    batch = pa.ipc.read_record_batch(pa.py_buffer(msg), _SCHEMA)
    return KernelRows(pa.Table.from_batches([batch]), row_lines, ok, row0)


_TEXTS: dict[tuple[Any, ...], tuple[bytes, np.ndarray, np.ndarray]] = {}


def _stakes_texts(found: tuple[Any, ...]) -> tuple[bytes, np.ndarray, np.ndarray]:
    """The texts a file's columns take beside its bytes (the constant ones, then each of its
    stakes' table id, variant, structure and currency), their spans from the file's end
    (key_text[:, k]) and the stakes' numbers (params[:, k]: `_params`' from the mpu on);
    remembered per file's stakes."""
    got = _TEXTS.get(found)
    if got is None:
        const, _ = _constant()
        parts = [const]
        at = len(const)
        spans = []
        for p in found:
            for text in p[:4]:
                parts.append(text)
                spans.append((at, at + len(text)))
                at += len(text)
        rel = np.array(spans or [(0, 0)] * 4, np.int64).reshape(-1, 8).T.copy()
        params = np.array([p[4:] for p in found] or [(0,) * 7], np.int64).T.copy()
        got = (b"".join(parts), rel, params)
        if len(_TEXTS) >= _MEMO:
            _TEXTS.clear()
        _TEXTS[found] = got
    return got


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
