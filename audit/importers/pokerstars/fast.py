"""PokerStars import, vectorised: the common hand shapes read column by column.

The file is cut into pieces of whole hands (`pokerstars._pieces`); each piece is checked as
UTF-8 once and split into lines and hands. The seat lines and the body lines (actions,
dealt and board cards, collections, returns, site messages) are read by compiled passes over
the piece's bytes (kernel.py, numba, cached: one pass replaces dozens of polars
string passes), the first two lines of each hand and the summary with vectorised regexes
(polars, Rust). A file under `FAST_MIN_BYTES` is the line parser's alone (as fast there, and
no numba to load). For hold'em and Omaha hi (2-, 4-, 5- and 6-card) cash and tournament
hands made only of lines this module knows (seats, blinds, antes, straddles, hole cards,
actions, boards, uncalled returns, collections, shows and mucks, site notes, the summary's
pot, rake and mucked cards) the event columns are built column-wise, value for value as the
line parser
(`pokerstars._Hand`) builds them. Every other hand (an unknown or odd line, another game,
run it twice, a cancelled hand, a piece that is not UTF-8, a BOM, ...) and all text outside
hands go to the line parser, which stays the single source of truth for semantics and for
quarantine. Chunks are assembled in file order by the same `_ChunkBuilder`, so the chunks,
events, sources and rejections are those of the line parser alone (tests/
test_import_pokerstars_fast.py checks it on the real samples, fixtures and fuzzed files).
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from audit.compiled import CompiledModule
from audit.importers.base import Chunk, read_limits
from audit.importers.pokerstars.game import _KINDS, HOLE_COUNT, _zone, read_header
from audit.importers.pokerstars.reader import (
    _BOM,
    STARS_HEAD,
    Unread,
    _blocks_in,
    _ChunkBuilder,
    _Hand,
    _pieces,
    _table_tail,
    file_head,
)
from audit.schema import events_schema

FAST_VARIANTS = frozenset({"holdem", "omaha", "omaha5", "omaha6"})

# characters str.rstrip() removes that an ASCII strip keeps: such a line is left to the parser
_ODD_END = "[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$"
_NOTES = (
    (" leaves the table", "leaves"), (" is connected", "connected"),
    (" is disconnected", "disconnected"),
    (" has timed out while disconnected", "timed_out"),
    (" has timed out while being disconnected", "timed_out"), (" has timed out", "timed_out"),
    (" has returned", "returned"), (" is sitting out", "sits_out"),
    (" was removed from the table for failing to post", "removed"),
    (" will be allowed to play after the button", "allowed_after_button"),
)
_JOINS = " joins the table at seat #"
# in the parser's order: 'wins the tournament' before 'wins the ' (a bounty)
_MARKERS = ((" wins the tournament", "finished"), (" wins the ", "bounty"),
            (" finished the tournament", "finished"), (" cashed out the hand for ", "cash_out"),
            (" re-buys and receives ", "rebuy"),
            (" takes the add-on and receives ", "addon"))
_FIXED = {"No low hand qualified": "no_low", "Betting is capped": "betting_capped",
          "Pair on board - a double bet is allowed": "pair_on_board"}
_ROW_COLUMNS = ("h", "i", "sub", "kind", "seat", "player", "amount", "total", "cards",
                "detail", "ln")
_ROW_SCHEMA = {"h": pl.Int64, "i": pl.Int64, "sub": pl.Int64, "kind": pl.String,
               "seat": pl.Int64, "player": pl.String, "amount": pl.Int64, "total": pl.Int64,
               "cards": pl.String, "detail": pl.String, "ln": pl.Int64}
_ROW_FRAME_SCHEMA = pl.Schema(_ROW_SCHEMA)
# the row columns the event table is built from
_OUT_COLUMNS = ("kind", "seat", "player", "amount", "total", "cards", "detail")
_EPOCH = dt.datetime(1970, 1, 1)


@dataclass(frozen=True, slots=True)
class _Piece:
    """One piece read: its fast hands as rows, and every hand and block in file order."""

    table: pa.Table | None  # rows of the fast hands, in order
    lines: np.ndarray  # each row's line
    counts: np.ndarray  # rows per fast hand
    ids: list[str]  # hand id per fast hand
    # (fast hand index or -1, is_hand, first line, byte start, byte end) in file order
    items: list[tuple[int, bool, int, int, int]]


# A file smaller than this is read by the line parser alone: it reads ~1,000 hands (1 MB) in
# about the CPU time the fast path takes, and a small import then does not load numba and the
# compiled kernels (~0.25 CPU-s in a fresh process: poker-audit ingest of 100 hands took 0.63
# CPU-s with the polars-only fast path, 0.88 with the kernels, 0.55 by the parser alone).
FAST_MIN_BYTES = 1 << 20


def read_fast(path: Path, builder: _ChunkBuilder, stats: dict[str, int] | None = None,
              min_bytes: int | None = None) -> Iterator[Chunk]:
    """The chunks of `path`, the fast hands from their columns and the rest from the parser;
    `stats` (when given) counts `hands` and `fast` hands. A file of fewer than `min_bytes`
    (default `FAST_MIN_BYTES`) is all the parser's."""
    prefix = builder.prefix
    stats = {} if stats is None else stats
    stats.setdefault("hands", 0)
    stats.setdefault("fast", 0)
    small = path.stat().st_size < (FAST_MIN_BYTES if min_bytes is None else min_bytes)
    head = file_head(path)
    if head != STARS_HEAD:  # another room's PokerStars text: the parser's alone
        small = True
    for data, line0, first in _pieces(path, head):
        if isinstance(data, Unread):  # a stretch over the hand limit, not read
            builder.unread(data)
            if builder.full:
                yield builder.take()
            continue
        piece = None
        try:
            piece = None if small else _read_piece(data, line0, first, prefix)
        except UnicodeDecodeError:
            piece = None  # per-hand decoding (cp1252, latin-1) is the parser's
        except _kernel_failures() as exc:  # numba cannot build or run the kernels here: the
            KERNEL.failed(exc)             # parser reads this piece and all after it
            piece = None
        except Exception as exc:  # noqa: BLE001 - a defect here must never fail an import
            stats["failed_pieces"] = stats.get("failed_pieces", 0) + 1
            _warn_once(exc)
            piece = None
        if piece is None:
            for is_hand, start, block in _blocks_in(data, line0, first, head):
                stats["hands"] += is_hand
                builder.feed(is_hand, start, block)
                if builder.full:
                    yield builder.take()
            continue
        stats["hands"] += sum(1 for item in piece.items if item[1])
        stats["fast"] += len(piece.ids)
        yield from _assemble(piece, data, builder)
    if builder.pending:
        yield builder.take()


def warm_up(path: Path) -> None:
    """Read the first piece of `path` by the fast path whatever the file's size: loads numba,
    the compiled kernels (from numba's cache) and polars' regexes, the one-time set-up a
    benchmark measures apart."""
    for data, line0, first in _pieces(path):
        if not isinstance(data, Unread):
            _read_piece(data, line0, first, "")
            break


_warned: list[bool] = []


def _kernel_failures() -> tuple[type[BaseException], ...]:
    """numba's errors (a kernel that cannot be compiled or typed here)."""
    if KERNEL.state.get("module") is None:
        return ()
    import numba.core.errors

    return (numba.core.errors.NumbaError,)


def _warn_once(exc: Exception) -> None:
    if not _warned:
        _warned.append(True)
        warnings.warn(f"PokerStars fast path failed ({type(exc).__name__}: {exc}); those "
                      "hands are read by the line parser instead", RuntimeWarning, stacklevel=3)


def _assemble(piece: _Piece, data: bytes, builder: _ChunkBuilder) -> Iterator[Chunk]:
    offsets = np.zeros(len(piece.counts) + 1, dtype=np.int64)
    np.cumsum(piece.counts, out=offsets[1:])
    run = [-1, -1]  # fast hands [a, b) waiting to be added

    def close() -> None:
        a, b = run
        if a >= 0 and b > a:
            assert piece.table is not None
            lo, hi = int(offsets[a]), int(offsets[b])
            builder.add_fast(piece.table.slice(lo, hi - lo), piece.lines[lo:hi].tolist(), b - a)
        run[0] = run[1] = -1

    seen = builder.seen
    for k, is_hand, start, lo, hi in piece.items:
        if k >= 0 and piece.ids[k] not in seen:
            seen.add(piece.ids[k])
            if run[0] < 0:
                run[0] = k
            run[1] = k + 1
            if builder.hands + (run[1] - run[0]) >= builder.chunk_hands:
                close()
                yield builder.take()
                seen = builder.seen
            continue
        close()
        builder.feed(is_hand, start, data[lo:hi])
        seen = builder.seen
        if builder.full:
            yield builder.take()
            seen = builder.seen
    close()


@dataclass(frozen=True, slots=True)
class _Lines:
    """The lines of a piece's hands, in order: hand, place in the hand and file line of each,
    and their text, taken from the piece's lines only where it is read (the compiled passes
    read the bytes)."""

    h: np.ndarray
    i: np.ndarray
    ln: np.ndarray
    stripped: pa.Array  # every line of the piece without its end whitespace
    at: np.ndarray  # each line's place in `stripped`

    def text(self, rows: np.ndarray) -> pl.Series:
        return pl.Series("s", self.stripped.take(pa.array(self.at[rows])))

    def frame(self, rows: np.ndarray) -> pl.DataFrame:
        return pl.DataFrame({"h": self.h[rows], "i": self.i[rows], "ln": self.ln[rows],
                             "s": self.text(rows)})


def _read_piece(data: bytes, line0: int, first: bool, prefix: str) -> _Piece | None:
    """The piece's hands: rows of those the fast path reads, and the file order of all."""
    empty = np.zeros(0, np.int64)
    if not data:
        return _Piece(None, empty, empty, [], [])
    if len(data) >= 2**31 or KERNEL.get() is None:
        return None
    bom = first and data.startswith(_BOM + b"PokerStars ")
    # lines without copying: an Arrow string array over the piece's bytes (each value a line
    # with its line end), validated as UTF-8 (else the parser decodes hand by hand)
    nl = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    n_lines = len(nl) + (0 if data.endswith(b"\n") else 1)
    begins = np.empty(n_lines + 1, dtype=np.int32)
    begins[0] = 0
    begins[1:n_lines] = nl[: n_lines - 1] + 1
    begins[n_lines] = len(data)
    if len(data) > read_limits().line_bytes and np.diff(begins).max() > read_limits().line_bytes:
        return None  # a line over the limit: the parser quarantines its hand unread
    raw = pa.StringArray.from_buffers(n_lines, pa.py_buffer(begins), pa.py_buffer(data))
    try:
        raw.validate(full=True)
    except pa.ArrowInvalid:
        raise UnicodeDecodeError("utf-8", data, 0, 1, "not UTF-8") from None
    stripped = pc.utf8_rtrim(raw, " \t\r\n\x0b\x0c")
    is_header = pc.starts_with(raw, "PokerStars ").to_numpy(zero_copy_only=False)
    if bom:
        is_header[0] = True
    is_blank = (pc.binary_length(stripped).to_numpy(zero_copy_only=False) == 0)
    bounds = np.flatnonzero(is_header | is_blank)
    if len(bounds) == 0 or bounds[0] != 0:
        bounds = np.concatenate([[0], bounds]).astype(np.int64)
    ends = np.append(bounds[1:], n_lines)
    heads = is_header[bounds]
    hand_lo, hand_hi = bounds[heads], ends[heads]
    out_lo = bounds[~heads] + is_blank[bounds[~heads]]
    out_hi = ends[~heads]
    keep = out_lo < out_hi
    out_lo, out_hi = out_lo[keep], out_hi[keep]
    n_hands = len(hand_lo)
    sizes = hand_hi - hand_lo
    in_hand = np.zeros(n_lines + 1, dtype=np.int64)
    np.add.at(in_hand, hand_lo, 1)
    np.add.at(in_hand, hand_hi, -1)
    in_hand = np.cumsum(in_hand[:-1]) > 0
    idx = np.flatnonzero(in_hand)
    h_of = np.repeat(np.arange(n_hands, dtype=np.int64), sizes)
    lines = _Lines(h_of, idx - np.repeat(hand_lo, sizes), idx + line0, stripped, idx)
    ok = np.ones(n_hands, dtype=bool)
    if bom and n_hands:
        ok[0] = False
    # from the bytes: a hand with a line that starts with a space is the parser's
    byte = np.frombuffer(data, np.uint8)
    ok[h_of[byte[begins[idx]] == 32]] = False
    if b"\x00" in data:  # a hand with NUL bytes: the parser's (it drops them)
        nul_line = np.searchsorted(begins, np.flatnonzero(byte == 0), side="right") - 1
        hand_of_line = np.full(n_lines + 1, -1, dtype=np.int64)
        hand_of_line[idx] = h_of
        hit = hand_of_line[nul_line]
        ok[hit[hit >= 0]] = False
    # a line whose end str.rstrip() would strip further (odd whitespace): the parser's
    lengths = pc.binary_length(stripped).to_numpy(zero_copy_only=False)
    ends_at = begins[idx] + lengths[idx] - 1
    last = np.frombuffer(data, np.uint8)[np.maximum(ends_at, 0)]
    odd = (last >= 0x80) | ((last >= 0x1c) & (last <= 0x1f))
    if odd.any():
        _bad(lines.frame(np.flatnonzero(odd)), pl.col("s").str.contains(_ODD_END), ok)
    rows, ids, ok = _hands(lines, n_hands, ok, byte, begins[idx], lengths[idx])
    # file order of hands (fast or not) and blocks outside hands
    fast_index = np.full(n_hands, -1, dtype=np.int64)
    fast_index[ok] = np.arange(int(ok.sum()))
    items = list(zip(fast_index.tolist(), [True] * n_hands, (hand_lo + line0).tolist(),
                     begins[hand_lo].tolist(), begins[hand_hi].tolist(), strict=True))
    if len(out_lo):
        items += list(zip([-1] * len(out_lo), [False] * len(out_lo), (out_lo + line0).tolist(),
                          begins[out_lo].tolist(), begins[out_hi].tolist(), strict=True))
        items.sort(key=lambda item: item[2])
    if rows is None or not ok.any():
        return _Piece(None, empty, empty, [], items)
    if not np.array_equal(ids.get_column("h").to_numpy(), np.flatnonzero(ok)):
        raise AssertionError("fast PokerStars path: hands and their values disagree")
    table, row_lines, counts = _table(rows, ids, ok, prefix)
    return _Piece(table, row_lines, counts, ids.get_column("hand_id").to_list(), items)


def _bad(frame: pl.DataFrame, where: pl.Expr, ok: np.ndarray) -> None:
    """Mark the hands of the rows where `where` holds as not for the fast path."""
    # only the hand numbers are filtered (filtering the frame would copy all its columns)
    ok[frame.select(pl.col("h").filter(where)).to_series().to_numpy()] = False


def _name_key(name: str) -> pl.Expr:
    """(hand, name) as one number (two names in a hand with one number: the hand is handed to
    the parser, as for a name seated twice)."""
    return pl.when(pl.col(name).is_not_null()).then(
        pl.col(name).hash(seed=0) ^ pl.col("h").hash(seed=1))


def _repeated(key: np.ndarray) -> np.ndarray:
    """Where `key` holds a value that occurs more than once."""
    return pl.Series(key).is_duplicated().to_numpy()


def _first_per_hand(h: np.ndarray, where: np.ndarray, values: np.ndarray, n_hands: int,
                    missing: int) -> np.ndarray:
    """Per hand, `values` at the first line (lines in hand order) where `where` holds."""
    out = np.full(n_hands, missing, dtype=np.int64)
    at = np.flatnonzero(where)
    hs = h[at]
    if len(hs) and (hs[1:] < hs[:-1]).any():
        raise AssertionError("fast PokerStars path: lines out of hand order")
    # the lines are in hand order: a hand's first line is where the hand number changes
    first = np.flatnonzero(np.r_[True, hs[1:] != hs[:-1]]) if len(hs) else at
    out[hs[first]] = values[at[first]]
    return out


def _hands(lines: _Lines, n_hands: int, ok: np.ndarray, data: np.ndarray, begin: np.ndarray,
           length: np.ndarray) -> tuple[pl.DataFrame | None, pl.DataFrame, np.ndarray]:
    """The event rows of every hand (columns of `_ROW_COLUMNS`), the per-hand values, and
    which hands the fast path read exactly (`ok`); each line's bytes are data[begin:begin +
    length] (without its end whitespace)."""
    h, i = lines.h, lines.i
    n = np.bincount(h, minlength=n_hands)
    # (a hand of 2**20 lines or more is the parser's: the rows are ordered by keys with 20
    # bits for the line in the hand)
    ok &= (n >= 3) & (n < 1 << 20)
    header = _header(lines.frame(np.flatnonzero(i == 0)), n_hands, ok)
    table = _table_line(lines.frame(np.flatnonzero(i == 1)), n_hands, ok)
    per_hand = (pl.DataFrame({"h": np.arange(n_hands, dtype=np.int64), "n": n})
                .join(header, on="h", how="left", maintain_order="left")
                .join(table, on="h", how="left", maintain_order="left"))
    mpu = per_hand.get_column("mpu").fill_null(100).to_numpy()
    tournament = per_hand.get_column("tournament").fill_null(False).to_numpy()

    # seats: the lines from the third while they look like seat lines; the summary starts at
    # '*** SUMMARY ***' (both told, and the seat lines read, by one compiled pass)
    K = KERNEL.get()  # noqa: N806 - the kernel module, its codes K.*
    assert K is not None  # _read_piece reads no piece without it
    seat_like, is_summary, seat_no, n0, n1, stack, tail, seat_good, has_uncalled = (
        K.hand_lines(data, begin, length, mpu[h]))
    # which hands hold 'Uncalled bet (' (it holds no line end, and no end whitespace that the
    # stripped lines lose)
    uncalled = np.zeros(n_hands, dtype=bool)
    uncalled[h[has_uncalled]] = True
    per_hand = per_hand.with_columns(uncalled_text=uncalled)
    body_at = _first_per_hand(h, (i >= 2) & ~seat_like, i, n_hands, 0)
    body_at = np.where(body_at == 0, n, body_at)
    body_of = body_at[h]
    summary_at = _first_per_hand(h, is_summary & (i >= body_of), i, n_hands, -1)
    ok &= summary_at >= 0
    summary_of = summary_at[h]
    seat_mask = (i >= 2) & (i < body_of)
    body_mask = (i >= body_of) & (i < summary_of)
    summary_mask = (summary_of >= 0) & (i > summary_of)

    at = np.flatnonzero(seat_mask)
    seat_tail = tail[at]
    in_tournament = tournament[h[at]]
    # a sitting-out player: not dealt in; in tournaments (dealt in) only a note
    seats = pl.DataFrame({
        "h": h[at], "i": i[at], "ln": lines.ln[at],
        "seat": pl.Series(seat_no[at]).set(pl.Series(seat_no[at] < 0), None),
        "player": _texts(K, data, begin[at], n0[at], n1[at]), "stack": stack[at],
        "out": (seat_tail == K.TAIL_OUT_OF_HAND)
        | ((seat_tail == K.TAIL_SITTING_OUT) & ~in_tournament),
        "note_out": (seat_tail == K.TAIL_SITTING_OUT) & in_tournament})
    ok[h[at][~seat_good[at]]] = False
    # a seat or a name twice in a hand (names compared by hash: a collision only hands the
    # hand to the parser)
    seat_h = seats.get_column("h").to_numpy()
    seat_key = (seat_h << 8) | seats.get_column("seat").fill_null(0).to_numpy()
    name_key = seats.select(_name_key("player").fill_null(0)).to_series().to_numpy()
    ok[seat_h[_repeated(seat_key) | _repeated(name_key)]] = False
    ok[np.bincount(seat_h, minlength=n_hands) == 0] = False
    names = seats.select("h", "seat", "player", "out")
    rows: list[pl.DataFrame] = [
        _row(seats, "seat", seat="seat", player="player", amount="stack",
             detail=pl.when(pl.col("out")).then(pl.lit("sitting_out"))),
        _row(seats.filter(pl.col("note_out")), "annotation", seat="seat", player="player",
             detail=pl.lit("sits_out"), sub=1)]
    out_seats = seats.filter(pl.col("out")).select("h", "seat")
    in_body = np.flatnonzero(body_mask)
    in_summary = np.flatnonzero(summary_mask)
    summary_at = pl.DataFrame({"h": np.arange(n_hands, dtype=np.int64), "summary": summary_at})

    # the seat of a name in its hand: compared byte for byte with the hand's seat names
    seat_rows = h[at]
    first = np.searchsorted(seat_rows, np.arange(n_hands))
    count = np.bincount(seat_rows, minlength=n_hands)
    name_begin, name_lo, name_hi, name_seat = begin[at], n0[at], n1[at], seat_no[at]

    def seat_of(hands: np.ndarray, begins: np.ndarray, lo: np.ndarray, hi: np.ndarray
                ) -> np.ndarray:
        return K.seats_of(data, begins, lo, hi, hands, first, count, name_begin, name_lo,
                          name_hi, name_seat)

    body_rows, posts, hole, dealt = _body(lines, in_body, mpu[h[in_body]], seat_of, ok, data,
                                          begin[in_body], length[in_body])
    rows += body_rows
    summary_rows, pots, mucked = _summary(
        lines, in_summary, mpu[h[in_summary]],
        (K, data, begin, length, first, count, name_begin, name_lo, name_hi, name_seat),
        n_hands, ok)
    rows += summary_rows
    # hole cards: one deal per dealt-in seat, before the first line after the Dealt-to lines
    hole = hole.join(summary_at, on="h").with_columns(
        pl.col("flush_i").fill_null(pl.col("summary")))
    unknown = per_hand.select("h", unknown=pl.col("variant").replace_strict(
        {v: " ".join(["??"] * HOLE_COUNT[v]) for v in FAST_VARIANTS}, default=None,
        return_dtype=pl.String))
    deals = (hole.join(names, on="h").join(out_seats.with_columns(gone=pl.lit(True)),
                                           on=["h", "seat"], how="left", maintain_order="left")
             .filter(pl.col("gone").is_null())
             .join(dealt, on=["h", "seat"], how="left", maintain_order="left")
             .join(unknown, on="h"))
    rows.append(deals.select(
        "h", i="flush_i", sub=pl.col("seat") - 1000, kind=pl.lit("deal"), seat="seat",
        player="player", amount=pl.lit(None, pl.Int64), total=pl.lit(None, pl.Int64),
        cards=pl.col("known").fill_null(pl.col("unknown")), detail=pl.lit("hole"),
        ln=pl.col("known_ln").fill_null(pl.col("hole_ln"))))
    frame = pl.concat([r if r.schema == _ROW_FRAME_SCHEMA else
                       r.select(_ROW_COLUMNS).cast(_ROW_SCHEMA) for r in rows])
    # mucked cards from the summary
    if mucked.height:
        is_muck = frame.get_column("kind") == "muck"
        mucks = frame.filter(is_muck).drop("cards").join(
            mucked.rename({"mucked": "cards"}), on=["h", "seat"], how="left")
        frame = pl.concat([frame.filter(~is_muck), mucks.select(_ROW_COLUMNS)])
    per_hand = (per_hand.join(pots, on="h", how="left", maintain_order="left")
                .join(posts, on="h", how="left", maintain_order="left"))
    # an All-in Cash Out hand: its pot may be paid by the summary only, the parser's to read
    _bad(frame, (pl.col("kind") == "annotation")
         & pl.col("detail").str.starts_with("cash_out: ")
         & pl.col("detail").str.contains(" cashed out the hand for ", literal=True), ok)
    frame, per_hand = _finish(frame, per_hand, ok)
    return frame, per_hand, ok


def _header(first: pl.DataFrame, n_hands: int, ok: np.ndarray) -> pl.DataFrame:
    """hand id, time and game of each hand from its first line."""
    # 'PokerStars KIND #N: +REST' with REST = 'GAME - DATE' (split at the last ' - ', which
    # the date text cannot hold): string splits checked by DFA matches, no capturing regex
    by_hash = pl.col("s").str.splitn(" #", 2)
    after = by_hash.struct.field("field_1").str.splitn(":", 2)
    head = first.with_columns(
        kind=by_hash.struct.field("field_0").str.strip_prefix("PokerStars "),
        number=after.struct.field("field_0"),
        rest=after.struct.field("field_1"),
        shape=pl.col("s").str.contains(r"^PokerStars [A-Za-z ]+ #[0-9]+: +[^ ]"))
    head = head.with_columns(rest=pl.col("rest").str.strip_chars_start(" ")).with_columns(
        game=pl.col("rest").str.replace(r" - [0-9]{4}/[0-9/: A-Z\[\]]*$", ""))
    head = head.with_columns(
        game=pl.when(pl.col("game") != pl.col("rest")).then(pl.col("game")),
        date=pl.col("rest").str.slice(pl.col("game").str.len_chars() + 3))
    head = head.with_columns(
        date=pl.when(pl.col("date").str.ends_with("]"))
        .then(pl.col("date").str.extract(r"\[([^\[]*)\]$", 1)).otherwise(pl.col("date")))
    date_re = (r"^(?<y>[0-9]{4})/(?<mo>[0-9]{1,2})/(?<d>[0-9]{1,2}) (?<hh>[0-9]{1,2}):"
               r"(?<mi>[0-9]{2}):(?<ss>[0-9]{2}) (?<zone>[A-Z]{1,5})$")
    head = head.with_columns(g=pl.col("date").str.extract_groups(date_re)).unnest("g")
    head = head.with_columns(pl.col("y", "mo", "d", "hh", "mi", "ss").cast(pl.Int64,
                                                                           strict=False))
    bad = (~pl.col("shape") | pl.col("kind").is_null() | ~pl.col("kind").is_in(list(_KINDS))
           | pl.col("game").is_null() | pl.col("y").is_null() | (pl.col("y") < 1970)
           | (pl.col("mi") > 59) | (pl.col("ss") > 59))
    _bad(head, bad, ok)
    head = head.filter(~bad)
    # the game of each distinct description, read once by the parser's own header reader
    games = []
    for line, game in head.unique("game", keep="first").select("s", "game").iter_rows():
        try:
            h = read_header(line)[0]
        except Exception:  # noqa: BLE001 - the parser will say why
            continue
        if h.variant not in FAST_VARIANTS or h.stakes is None or h.level is not None and not (
                0 <= h.level < 2**31):
            continue
        if not all(0 <= v < 2**63 for v in h.stakes):  # (else the frame below cannot hold
            continue                                    # them: the piece would fail)
        games.append({"game": game, "variant": h.variant, "structure": h.structure,
                      "tournament": h.tournament, "level": h.level, "low": h.stakes[0],
                      "high": h.stakes[1], "currency": h.currency, "mpu": h.minor_per_unit})
    game_frame = pl.DataFrame(games, schema={
        "game": pl.String, "variant": pl.String, "structure": pl.String,
        "tournament": pl.Boolean, "level": pl.Int64, "low": pl.Int64, "high": pl.Int64,
        "currency": pl.String, "mpu": pl.Int64})
    # the UTC start of each distinct local hour, as the parser computes it
    hours = []
    for zone_name, y, mo, d, hh in head.select("zone", "y", "mo", "d", "hh").unique().iter_rows():
        zone = _zone(zone_name)
        if zone is None:
            continue
        try:
            hour = dt.datetime(y, mo, d, hh)
            offset = hour.replace(tzinfo=zone).utcoffset()
            if offset is None:
                continue
            # (OverflowError: an hour of 9999/12/31 west of UTC is past datetime's range)
            micros = (hour - offset - _EPOCH) // dt.timedelta(microseconds=1)
        except (ValueError, OverflowError):
            continue
        hours.append((zone_name, y, mo, d, hh, micros))
    hour_frame = pl.DataFrame(hours, schema={"zone": pl.String, "y": pl.Int64, "mo": pl.Int64,
                                             "d": pl.Int64, "hh": pl.Int64, "hour_us": pl.Int64},
                              orient="row")
    head = head.join(game_frame, on="game", how="left", maintain_order="left").join(
        hour_frame, on=["zone", "y", "mo", "d", "hh"], how="left", maintain_order="left")
    _bad(head, pl.col("variant").is_null() | pl.col("hour_us").is_null(), ok)
    return head.select(
        "h", ln0="ln", hand_id=pl.lit("ps:") + pl.col("number"),
        ts_us=pl.col("hour_us") + (pl.col("mi") * 60 + pl.col("ss")) * 1_000_000,
        variant="variant", structure="structure", tournament="tournament", level="level",
        low="low", high="high", currency="currency", mpu="mpu")


def _table_line(second: pl.DataFrame, n_hands: int, ok: np.ndarray) -> pl.DataFrame:
    """table name, seat count and button of each hand from its second line."""
    # a table's line repeats hand after hand: each distinct one is read once, as the parser does
    known = []
    for (line,) in second.select("s").unique().iter_rows():
        if not line.startswith("Table '"):
            continue
        close = line.rfind("'")
        if close < 7:
            continue
        try:
            seat_count, button, unknown = _table_tail(line[close + 1 :])
        except Exception:  # noqa: BLE001 - the parser will say why
            continue
        if unknown is not None or any(v is not None and not 0 <= v <= 127
                                      for v in (seat_count, button)):
            continue
        known.append((line, line[7:close], seat_count, button))
    known_frame = pl.DataFrame(known, schema={"s": pl.String, "table": pl.String,
                                              "seat_count": pl.Int64, "button": pl.Int64},
                               orient="row")
    table = second.join(known_frame, on="s", how="left", maintain_order="left")
    _bad(table, pl.col("table").is_null(), ok)
    return table.select("h", "table", "seat_count", "button")


def _row(frame: pl.DataFrame, kind: Any, *, seat: Any = None, player: Any = None,
         amount: Any = None, total: Any = None, cards: Any = None, detail: Any = None,
         sub: int = 0) -> pl.DataFrame:
    """Event rows (columns of `_ROW_COLUMNS`) from the lines of `frame`; a str names a
    column, None is null, an Expr is itself, anything else a literal."""

    def expr(value: Any, dtype: Any) -> pl.Expr:
        if value is None:
            return pl.lit(None, dtype)
        if isinstance(value, str):
            return pl.col(value).cast(dtype)
        if isinstance(value, pl.Expr):
            return value.cast(dtype)
        return pl.lit(value, dtype)

    return frame.select(
        "h", "i", pl.lit(sub, pl.Int64).alias("sub"),
        (pl.lit(kind) if isinstance(kind, str) else kind).cast(pl.String).alias("kind"),
        expr(seat, pl.Int64).alias("seat"), expr(player, pl.String).alias("player"),
        expr(amount, pl.Int64).alias("amount"), expr(total, pl.Int64).alias("total"),
        expr(cards, pl.String).alias("cards"), expr(detail, pl.String).alias("detail"),
        pl.col("ln").cast(pl.Int64))


# details of money rows by the code `_body` gives them (0: null)
_MONEY_DETAILS = {1: "small_blind", 2: "dead", 3: "big_blind", 4: "new_player", 5: "ante",
                  6: "straddle", 7: "all_in"}
_COLLECT = 100  # a line of no seated player that is a collection (beside the kernel's kinds)


def _texts_arrays(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """`texts` as (bytes, offsets) for the kernel."""
    encoded = [t.encode() for t in texts]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    return np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), offsets


_JOINS_BYTES = np.frombuffer(_JOINS.encode(), dtype=np.uint8).copy()
_FIXED_TEXTS = _texts_arrays(list(_FIXED))
_NOTE_TEXTS = _texts_arrays([suffix for suffix, _ in _NOTES])
_MARKER_TEXTS = _texts_arrays([marker for marker, _ in _MARKERS])
# the detail of a site message: label `_NOTE_LABEL_AT[code] + which` (a marker's is followed
# by the line, a said line's is 'said: ' and the words instead)
_NOTE_LABELS = [*_FIXED.values(), "", "joins", *[kind for _, kind in _NOTES],
                *[kind + ": " for _, kind in _MARKERS], "sits_out"]
# by the kernel's NOTE_* codes: bad, fixed, said, joins, suffix, marker
_NOTE_LABEL_AT = np.array([0, 0, len(_FIXED), len(_FIXED) + 1, len(_FIXED) + 2,
                           len(_FIXED) + 2 + len(_NOTES)], dtype=np.int64)
_SITS_OUT_LABEL = len(_NOTE_LABELS) - 1

KERNEL = CompiledModule("audit.importers.pokerstars.kernel",
                        "the compiled PokerStars line reader",
                        "PokerStars hands are read by the line parser alone (same result, slower)")


def _texts(kernel: Any, data: np.ndarray, begin: np.ndarray, lo: np.ndarray, hi: np.ndarray
           ) -> pl.Series:
    """The line bytes begin + lo .. begin + hi (null where lo < 0) as a string Series (the
    spans start and end at ASCII bytes, so they are UTF-8 as the lines are)."""
    offsets, out, bits, nulls = kernel.spans(data, begin, lo, hi)
    array = pa.StringArray.from_buffers(len(begin), pa.py_buffer(offsets), pa.py_buffer(out),
                                        pa.py_buffer(bits) if nulls else None, nulls)
    return pl.from_arrow(array)  # type: ignore[return-value]


def _body(lines: _Lines, at: np.ndarray, mpu: np.ndarray, seat_of: Any,
          ok: np.ndarray, data: np.ndarray, begin: np.ndarray, length: np.ndarray
          ) -> tuple[list[pl.DataFrame], pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Rows of the lines between the seats and the summary (rows `at` of `lines`; their
    bytes data[begin:begin + length], `mpu` their hands' minor units); the per-hand values
    of the posts; where the hole cards go; the known hole cards. `seat_of(hands, begins, lo,
    hi)`: the seats of the names at the lines' bytes lo:hi in those hands, or -1."""
    K = KERNEL.get()  # noqa: N806 - the kernel module, its codes K.*
    assert K is not None  # _read_piece reads no piece without it
    h, i, ln = lines.h[at], lines.i[at], lines.ln[at]
    (colon, act, all_in, amt, to, line, valid, x0, x1, y0, y1, u0, u1, back
     ) = K.body_lines(data, begin, length, mpu)
    n_hands = len(ok)

    def frame(where: np.ndarray, **columns: Any) -> pl.DataFrame:
        """h, i, ln and `columns` at lines `where` (a numpy column is one per body line)."""
        return pl.DataFrame({"h": h[where], "i": i[where], "ln": ln[where], **{
            name: value[where] if isinstance(value, np.ndarray) else value
            for name, value in columns.items()}})

    def texts(where: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> pl.Series:
        return _texts(K, data, begin[where], lo[where], hi[where])

    def seats(where: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The seat of the name at lo:hi of lines `where` in their hands, or -1."""
        return seat_of(h[where], begin[where], lo[where], hi[where])

    def nullable(values: np.ndarray) -> pl.Series:
        return pl.Series(values).set(pl.Series(values < 0), None)  # type: ignore[arg-type]

    # 'P: <action>' of a seated player (the text up to the first ': ' is the name)
    has_colon = np.flatnonzero(colon >= 0)
    zero = np.zeros(len(h), dtype=np.int32)
    seat1 = np.full(len(h), -1, dtype=np.int64)
    seat1[has_colon] = seats(has_colon, zero, colon)
    is_act = seat1 >= 0
    # a line of a seated player that is no action read here is the parser's
    ok[h[is_act & (act == K.ACT_NONE)]] = False
    rows: list[pl.DataFrame] = []

    simple = np.flatnonzero(is_act & (act >= K.ACT_FOLD) & (act <= K.ACT_IS_SITTING_OUT))
    simple_kinds = {K.ACT_FOLD: "fold", K.ACT_CHECK: "check", K.ACT_MUCKS: "muck",
                    K.ACT_NO_SHOW: "muck", K.ACT_SITS_OUT: "annotation",
                    K.ACT_IS_SITTING_OUT: "annotation"}
    away = act[simple] >= K.ACT_SITS_OUT
    rows.append(frame(simple, seat=seat1, player=texts(simple, zero, colon),
                      kind=pl.Series(act[simple]).replace_strict(simple_kinds,
                                                                 return_dtype=pl.String),
                      detail=pl.Series(away).replace_strict({True: "sits_out"}, default=None,
                                                             return_dtype=pl.String)
                      ).with_columns(
        sub=pl.lit(0, pl.Int64), amount=pl.lit(None, pl.Int64), total=pl.lit(None, pl.Int64),
        cards=pl.lit(None, pl.String)))
    shows = np.flatnonzero(is_act & (act == K.ACT_SHOW))
    rows.append(frame(shows, seat=seat1, player=texts(shows, zero, colon),
                      cards=texts(shows, x0, x1)).with_columns(
        sub=pl.lit(0, pl.Int64), kind=pl.lit("show"), amount=pl.lit(None, pl.Int64),
        total=pl.lit(None, pl.Int64), detail=pl.lit(None, pl.String)))

    # round totals: a raise sets the player's total on the street, other live chips add to it
    money = np.flatnonzero(is_act & (act >= K.ACT_CALLS))
    verb = act[money]
    board = np.flatnonzero((line == K.LINE_BOARD) & valid)
    sb_rank, bb_rank, live, is_raise, tot, prev = _round_totals(
        K, h[money], i[money], seat1[money], verb, amt[money], to[money], h[board], i[board])
    ok[h[money][is_raise & (to[money] < prev)]] = False
    # a hand whose money lines add up past 64 bits (each amount fits; a hundred do not): the
    # int64 sums here would wrap, the parser's Python sums quarantine the hand or compare
    # them right (its round totals and chips put in are never more than this sum)
    sums = np.bincount(h[money], weights=amt[money].astype(np.float64)
                       + to[money].astype(np.float64), minlength=n_hands)
    ok[sums >= 2.0**62] = False
    put = np.where(is_raise, to[money] - prev, amt[money])
    money_all_in = all_in[money]
    detail = np.select(
        [verb == K.ACT_SB, verb == K.ACT_BB, verb == K.ACT_ANTE, verb == K.ACT_STRADDLE,
         money_all_in],
        [np.where(sb_rank == 1, 1, 2), np.where(bb_rank == 1, 3, 4), 5, 6, 7], 0)
    rows.append(frame(money, seat=seat1, player=texts(money, zero, colon),
                      kind=pl.Series(verb).replace_strict(
                          {K.ACT_CALLS: "call", K.ACT_BETS: "bet", K.ACT_RAISES: "raise",
                           K.ACT_SB: "post", K.ACT_BB: "post", K.ACT_ANTE: "post",
                           K.ACT_STRADDLE: "post"}, return_dtype=pl.String),
                      amount=pl.Series(put),
                      total=pl.Series(tot).set(pl.Series(~live), None),  # type: ignore[arg-type]
                      detail=pl.Series(detail).replace_strict(
                          _MONEY_DETAILS, default=None, return_dtype=pl.String)).with_columns(
        sub=pl.lit(0, pl.Int64), cards=pl.lit(None, pl.String)))
    posts = _posts(K, h[money], verb, amt[money], put, sb_rank, bb_rank, money_all_in)

    # lines of no seated player, in the parser's order of checks: the kernel's line kinds up
    # to AWAY, then a collection (the name before ' collected ' seated), then the rest
    other = ~is_act
    cls = np.where(other, line, -1)
    # (the kernel's second pass reads only these lines: collections and site messages)
    rest = np.flatnonzero((cls == K.LINE_OTHER) | (cls == K.LINE_UNCALLED))
    collected = np.full(len(h), -1, dtype=np.int32)
    (collected[rest], pot, won, won_ok, n0, n1, note, which, w0, w1, s0, s1
     ) = K.other_lines(data, begin[rest], length[rest], mpu[rest], _JOINS_BYTES,
                       *_FIXED_TEXTS, *_NOTE_TEXTS, *_MARKER_TEXTS)
    maybe = rest[collected[rest] >= 0]
    seat_c = seats(maybe, zero, collected)
    is_collect = seat_c >= 0
    cls[maybe[is_collect]] = _COLLECT
    ok[h[cls == K.LINE_STAR]] = False

    # where the hole cards go: before the first line after HOLE CARDS that is no 'Dealt to';
    # a Dealt-to line is read only between the two (and at most once per seat)
    hole = np.flatnonzero(cls == K.LINE_HOLE)
    hole_count = np.bincount(h[hole], minlength=n_hands)
    ok &= hole_count == 1
    hole_at = np.full(n_hands, -1, dtype=np.int64)
    hole_ln = np.zeros(n_hands, dtype=np.int64)
    hole_at[h[hole]] = i[hole]
    hole_ln[h[hole]] = ln[hole]
    after_hole = (hole_at[h] >= 0) & (i > hole_at[h])
    flush_at = _first_per_hand(h, after_hole & (line != K.LINE_DEALT), i, n_hands, -1)
    dealt_at = np.flatnonzero(cls == K.LINE_DEALT)
    dh, di = h[dealt_at], i[dealt_at]
    before = (hole_at[dh] >= 0) & (di > hole_at[dh]) & ((di < flush_at[dh]) | (flush_at[dh] < 0))
    seat_d = seats(dealt_at, y0, y1)
    ok[dh[(seat_d < 0) | ~valid[dealt_at] | ~before
          | _repeated(dh * 256 + np.where(seat_d >= 0, seat_d, 255))]] = False
    known_at = dealt_at[seat_d >= 0]
    known = frame(known_at, seat=pl.Series(seat_d[seat_d >= 0]),
                  known=texts(known_at, x0, x1)).select(
        "h", "seat", "known", known_ln="ln")

    boards = np.flatnonzero(cls == K.LINE_BOARD)
    ok[h[boards[~valid[boards]]]] = False
    rows.append(frame(boards, cards=texts(boards, x0, x1)).with_columns(
        sub=pl.lit(0, pl.Int64), kind=pl.lit("deal"), seat=pl.lit(None, pl.Int64),
        player=pl.lit(None, pl.String), amount=pl.lit(None, pl.Int64),
        total=pl.lit(None, pl.Int64), detail=pl.lit("board")))

    collect_rows = maybe[is_collect]
    at_rest = np.searchsorted(rest, collect_rows)  # their places among `rest`
    ok[h[collect_rows[(pot[at_rest] == K.POT_NONE) | ~won_ok[at_rest]]]] = False
    rows.append(frame(
        collect_rows, name_c=texts(collect_rows, zero, collected),
        seat_c=pl.Series(seat_c[is_collect]), won=pl.Series(won[at_rest]),
        side=_texts(K, data, begin[collect_rows], n0[at_rest], n1[at_rest]),
        pot_detail=pl.Series(pot[at_rest]).replace_strict(
            {K.POT_MAIN: "main", K.POT_SIDE_ONE: "side-1"}, default=None,
            return_dtype=pl.String)
    ).select("h", "i", sub=pl.lit(0, pl.Int64), kind=pl.lit("award"), seat="seat_c",
             player="name_c", amount="won", total=pl.lit(None, pl.Int64),
             cards=pl.lit(None, pl.String),
             detail=pl.col("pot_detail").fill_null(pl.lit("side-") + pl.col("side")), ln="ln"))
    uncalled = np.flatnonzero(cls == K.LINE_UNCALLED)
    seat_u = seats(uncalled, u0, u1)
    ok[h[uncalled][(seat_u < 0) | ~valid[uncalled]]] = False
    returned = frame(uncalled, name=texts(uncalled, u0, u1), back=back,
                     seat_u=nullable(seat_u))
    rows.append(_row(returned, "award", seat="seat_u", player="name", amount="back",
                     detail=pl.lit("uncalled")))

    # site messages: annotations, with the seat when the name is seated
    messages = np.flatnonzero(cls[rest] == K.LINE_OTHER)  # places among `rest`
    ok[h[rest[messages[note[messages] == K.NOTE_BAD]]]] = False
    messages = messages[note[messages] != K.NOTE_BAD]
    away = np.flatnonzero(cls == K.LINE_AWAY)
    if len(messages) or len(away):
        at_line = rest[messages]
        label = _NOTE_LABEL_AT[note[messages]] + which[messages]
        notes = pl.concat([
            frame(at_line, s=lines.text(at[at_line]),
                  who=_texts(K, data, begin[at_line], w0[messages], w1[messages]),
                  who_seat=nullable(seat_of(h[at_line], begin[at_line], w0[messages],
                                            w1[messages])),
                  words=_texts(K, data, begin[at_line], s0[messages], s1[messages]),
                  code=pl.Series(note[messages].astype(np.int64)),
                  label=pl.Series(label.astype(np.int64))),
            # (the name of an away line is not seated: else the line is a seated action)
            frame(away, s=lines.text(at[away]), who=texts(away, zero, colon),
                  who_seat=pl.Series([None] * len(away), dtype=pl.Int64),
                  words=pl.Series([None] * len(away), dtype=pl.String),
                  code=np.full(len(h), -1, dtype=np.int64),
                  label=np.full(len(h), _SITS_OUT_LABEL, dtype=np.int64))])
        code, label_text = pl.col("code"), pl.col("label").replace_strict(
            dict(enumerate(_NOTE_LABELS)), return_dtype=pl.String)
        rows.append(_row(notes, "annotation", seat="who_seat", player="who",
                         detail=pl.when(code == K.NOTE_SAID).then(pl.lit("said: ")
                                                                  + pl.col("words"))
                         .when(code == K.NOTE_MARKER).then(label_text + pl.col("s"))
                         .otherwise(label_text)))

    has_hole = np.flatnonzero(hole_at >= 0)
    hole_frame = pl.DataFrame({"h": has_hole, "hole_i": hole_at[has_hole],
                               "hole_ln": hole_ln[has_hole], "flush_i": flush_at[has_hole]}
                              ).with_columns(flush_i=pl.when(pl.col("flush_i") >= 0)
                                             .then(pl.col("flush_i")))
    return rows, posts, hole_frame, known


def _posts(K: Any, h: np.ndarray, verb: np.ndarray, amt: np.ndarray, put: np.ndarray,
           sb_rank: np.ndarray, bb_rank: np.ndarray, all_in: np.ndarray) -> pl.DataFrame:
    """Per hand with money lines: the first small and big blind posted whole (the largest
    when one hand posts more: there is one), the first whole ante, the first straddle, and
    the chips put in (the amounts of the post, call, bet and raise rows)."""
    frame = pl.DataFrame({"h": h, "verb": verb, "amt": amt, "put": put, "sb_rank": sb_rank,
                          "bb_rank": bb_rank, "all_in": all_in})
    v = pl.col("verb")
    return frame.group_by("h").agg(
        first_sb=pl.when((v == K.ACT_SB) & (pl.col("sb_rank") == 1) & ~pl.col("all_in"))
        .then(pl.col("amt")).max(),
        first_bb=pl.when((v == K.ACT_BB) & (pl.col("bb_rank") == 1) & ~pl.col("all_in"))
        .then(pl.col("amt")).max(),
        ante=pl.when((v == K.ACT_ANTE) & ~pl.col("all_in")).then(pl.col("amt"))
        .drop_nulls().first(),
        straddle=pl.when(v == K.ACT_STRADDLE).then(pl.col("amt")).drop_nulls().first(),
        put=pl.col("put").sum())


def _round_totals(K: Any, h: np.ndarray, i: np.ndarray, seat: np.ndarray, verb: np.ndarray,
                  amt: np.ndarray, to: np.ndarray, board_h: np.ndarray, board_i: np.ndarray
                  ) -> tuple[np.ndarray, ...]:
    """Per money line (in hand order; verb: the kernel's code): sb_rank, bb_rank (which
    small / big blind post of the hand), live (counts to the round total), is_raise, tot (the
    player's round total after it), prev (before it). A board line (board_h, board_i) starts
    a new round."""
    is_sb = verb == K.ACT_SB
    is_bb = verb == K.ACT_BB
    is_raise = verb == K.ACT_RAISES
    n = len(h)
    hand_start = np.r_[True, h[1:] != h[:-1]] if n else np.zeros(0, dtype=bool)

    def rank(flag: np.ndarray) -> np.ndarray:
        cs = np.cumsum(flag)
        return cs - np.maximum.accumulate(np.where(hand_start, cs - flag, 0))

    sb_rank, bb_rank = rank(is_sb), rank(is_bb)
    live = (np.isin(verb, (K.ACT_CALLS, K.ACT_BETS, K.ACT_RAISES, K.ACT_BB, K.ACT_STRADDLE))
            | (is_sb & (sb_rank == 1)))
    # (hand, line) keys with 32 bits for the line: a hand of more than 2**20 lines (the
    # parser's) must not move another hand's streets or round totals
    board_key = np.sort((board_h << 32) | board_i)
    street = (np.searchsorted(board_key, (h << 32) | i)
              - np.searchsorted(board_key, h << 32))
    add = np.where(live & ~is_raise, amt, 0)
    key = (h << 32) | (np.minimum(street, (1 << 24) - 1) << 8) | seat
    order = np.lexsort((i, key))
    k, r, a, t = key[order], is_raise[order], add[order], to[order]
    group_start = np.r_[True, k[1:] != k[:-1]] if n else np.zeros(0, dtype=bool)
    seg_start = group_start | r
    seg = np.cumsum(seg_start) - 1
    base = np.where(r, t, 0)[seg_start]
    cs = np.cumsum(a)
    before = (cs - a)[seg_start]
    tot_sorted = base[seg] + cs - before[seg]
    prev_sorted = np.r_[0, tot_sorted[:-1]] if n else tot_sorted
    prev_sorted = np.where(group_start, 0, prev_sorted)
    tot = np.empty(n, dtype=np.int64)
    prev = np.empty(n, dtype=np.int64)
    tot[order] = tot_sorted
    prev[order] = prev_sorted
    return sb_rank, bb_rank, live, is_raise, tot, prev


def _summary(lines: _Lines, at: np.ndarray, mpu: np.ndarray, kernel_args: tuple[Any, ...],
             n_hands: int, ok: np.ndarray) -> tuple[list[pl.DataFrame], pl.DataFrame,
                                                    pl.DataFrame]:
    """Rake rows, the pot note per hand and mucked cards from the summary (rows `at` of
    `lines`, `mpu` their hands' minor units; `kernel_args`: the kernel, the piece's bytes,
    each line's begin and length and the hands' seat names as for `seats_of`)."""
    K, data, begin, length, first, count, name_begin, name_lo, name_hi, name_seat = (  # noqa: N806
        kernel_args)
    h, i, ln = lines.h[at], lines.i[at], lines.ln[at]
    kind, seat, seated, muck, x0, x1, pot, rake, simple = K.summary_lines(
        data, begin[at], length[at], mpu, h, first, count, name_begin, name_lo, name_hi,
        name_seat)
    is_seat = kind == K.SUMMARY_SEAT
    ok[h[(kind == K.SUMMARY_OTHER) | (is_seat & (~seated | (muck == 2)))]] = False
    totals = np.flatnonzero(kind == K.SUMMARY_TOTAL)
    ok[np.bincount(h[totals], minlength=n_hands) != 1] = False
    fine = totals[simple[totals]]
    rake_rows = [pl.DataFrame({"h": h[fine], "i": i[fine], "amount": rake[fine],
                               "ln": ln[fine]}).select(
        "h", "i", sub=pl.lit(0, pl.Int64), kind=pl.lit("rake"), seat=pl.lit(None, pl.Int64),
        player=pl.lit(None, pl.String), amount="amount", total=pl.lit(None, pl.Int64),
        cards=pl.lit(None, pl.String), detail=pl.lit("rake"), ln="ln")]
    pots = [pl.DataFrame({"h": h[fine], "total_pot": pot[fine]}).with_columns(
        pots_note=pl.lit(""))]
    # the other forms ('Main pot ... Side pot-1 ...', jackpots, fees): the parser's reader
    other_rakes = []
    other_pots = []
    others = totals[~simple[totals]]
    for k, line in zip(others.tolist(), lines.text(at[others]).to_list(), strict=True):
        rows: list[Any] = []
        hand, place, number = int(h[k]), int(i[k]), int(ln[k])
        try:
            total, note = _Hand._total(line, number, int(mpu[k]), rows)
        except Exception:  # noqa: BLE001 - the parser will say why
            ok[hand] = False
            continue
        # (its rows are ordered by keys with 12 bits for sub + 2048: more than 2047 parts
        # ('| Rake .. | Fee ..') would sort among the next lines' rows)
        if total >= 2**63 or any(r[3] >= 2**63 for r in rows) or len(rows) > 2047:
            ok[hand] = False
            continue
        other_pots.append((hand, total, note))
        other_rakes += [(hand, place, sub, r[3], r[6], number) for sub, r in enumerate(rows)]
    if other_rakes:
        rake_rows.append(pl.DataFrame(
            other_rakes, schema={"h": pl.Int64, "i": pl.Int64, "sub": pl.Int64,
                                 "amount": pl.Int64, "detail": pl.String, "ln": pl.Int64},
            orient="row").with_columns(
            kind=pl.lit("rake"), seat=pl.lit(None, pl.Int64), player=pl.lit(None, pl.String),
            total=pl.lit(None, pl.Int64), cards=pl.lit(None, pl.String)))
    if other_pots:
        pots.append(pl.DataFrame(other_pots, schema={"h": pl.Int64, "total_pot": pl.Int64,
                                                     "pots_note": pl.String}, orient="row"))
    # mucked cards (' mucked [CARDS]' on a seat line): the last per seat
    shown = np.flatnonzero(is_seat & (muck == 1) & (seat >= 0))
    mucked = (pl.DataFrame({"h": h[shown], "seat": seat[shown],
                            "mucked": _texts(K, data, begin[at][shown], x0[shown], x1[shown])})
              .group_by("h", "seat").agg(pl.col("mucked").last()))
    return rake_rows, pl.concat([p.cast({"h": pl.Int64, "total_pot": pl.Int64})
                                 for p in pots]), mucked


def _finish(frame: pl.DataFrame, per_hand: pl.DataFrame, ok: np.ndarray
            ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The fast hands' rows in order, with hand_started and hand_ended, and their games."""
    good = pl.Series("h", np.flatnonzero(ok), dtype=pl.Int64)
    per_hand = per_hand.filter(pl.col("h").is_in(good.implode()))
    # the rows of the fast hands are picked out by the one gather below (not by a filter,
    # which would copy every column once more)
    keep = ok[frame.get_column("h").to_numpy()]
    per_hand = per_hand.with_columns(pl.col("put").fill_null(0))
    fixed = pl.col("structure") == "fixed_limit"
    per_hand = per_hand.with_columns(
        started_detail=pl.when(~pl.col("uncalled_text") & (pl.col("put") > pl.col("total_pot")))
        .then(pl.lit("refunds=implicit")),
        small_blind=pl.when(fixed).then(pl.col("first_sb").fill_null(pl.col("low") // 2))
        .otherwise(pl.col("low")),
        big_blind=pl.when(fixed).then(
            pl.when(pl.col("first_bb").fill_null(0) != 0).then(pl.col("first_bb"))
            .otherwise(pl.col("low"))).otherwise(pl.col("high")),
        small_bet=pl.when(fixed).then(pl.col("low")),
        big_bet=pl.when(fixed).then(pl.col("high")),
        ante=pl.col("ante").fill_null(0))
    ends = per_hand.select(
        "h", i=pl.col("n"), sub=pl.lit(0, pl.Int64), kind=pl.lit("hand_ended"),
        seat=pl.lit(None, pl.Int64), player=pl.lit(None, pl.String),
        amount=pl.lit(None, pl.Int64), total=pl.lit(None, pl.Int64),
        cards=pl.lit(None, pl.String),
        detail=pl.lit("total_pot=") + pl.col("total_pot").cast(pl.String)
        + pl.col("pots_note"), ln=pl.col("ln0") + pl.col("n") - 1)
    starts = per_hand.select(
        "h", i=pl.lit(0, pl.Int64), sub=pl.lit(0, pl.Int64), kind=pl.lit("hand_started"),
        seat=pl.lit(None, pl.Int64), player=pl.lit(None, pl.String),
        amount=pl.lit(None, pl.Int64), total=pl.lit(None, pl.Int64),
        cards=pl.lit(None, pl.String), detail="started_detail", ln="ln0")
    frame = pl.concat([starts.cast(_ROW_SCHEMA), frame, ends.cast(_ROW_SCHEMA)])
    kept = np.flatnonzero(np.r_[np.ones(starts.height, dtype=bool), keep,
                                np.ones(ends.height, dtype=bool)])
    # (rows of the other hands may have no line number: they are left out here)
    h, i, sub = (frame.get_column(name).fill_null(-1).to_numpy()[kept]
                 for name in ("h", "i", "sub"))
    if (i < 0).any():
        raise AssertionError("fast PokerStars path: a row of a fast hand has no line")
    key = (h << 32) | (i << 12) | (sub + 2048)
    sorting = np.argsort(key, kind="stable")
    order = kept[sorting]
    ln = frame.get_column("ln").fill_null(-1).to_numpy()[order]
    if (ln < 0).any():
        raise AssertionError("fast PokerStars path: a row of a fast hand has no line")
    # the hand and line numbers are ordered in numpy; only the event columns are gathered
    frame = frame.select(_OUT_COLUMNS)[order].with_columns(h=h[sorting], ln=ln)
    return frame, per_hand.sort("h")


def _table(rows: pl.DataFrame, per_hand: pl.DataFrame, ok: np.ndarray, prefix: str
           ) -> tuple[pa.Table, np.ndarray, np.ndarray]:
    """The event table of the fast hands (schemas/events.json), each row's line, and the
    number of rows per hand."""
    schema = events_schema()
    h = rows.get_column("h").to_numpy()
    hands = per_hand.get_column("h").to_numpy()
    position = np.full(len(ok), -1, dtype=np.int64)
    position[hands] = np.arange(len(hands))
    owner = position[h]
    counts = np.bincount(owner, minlength=len(hands)).astype(np.int64)
    starts = np.zeros(len(hands), dtype=np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    n = len(h)
    first_row = np.zeros(n, dtype=bool)
    first_row[starts] = True
    # per-hand values taken for every row by one take; the time and the game are on each
    # hand's first row only (the game's children under its null rows are never read)
    game_type = schema.field("game").type
    game_fields = {f.name: f.type for f in game_type
                   if _GAME_COLUMNS.get(f.name, f.name) in per_hand.columns}
    per_row = per_hand.select(
        "hand_id", "table", *[pl.col(_GAME_COLUMNS.get(name, name)).alias(name)
                              for name in game_fields]).to_arrow().cast(pa.schema(
        [("hand_id", pa.string()), ("table", pa.string()), *game_fields.items()])).take(
        pa.array(owner))
    ts = per_hand.get_column("ts_us").to_arrow().take(pa.array(owner, mask=~first_row))
    game = pa.StructArray.from_arrays(
        [per_row.column(f.name).chunk(0) if f.name in game_fields else pa.nulls(n, f.type)
         for f in game_type], fields=list(game_type), mask=pa.array(~first_row))
    ln = rows.get_column("ln").to_arrow()
    data = {
        "hand_id": per_row.column("hand_id"),
        "seq": pa.array((np.arange(n, dtype=np.int64) - np.repeat(starts, counts))
                        .astype(np.int32)),
        "ts": ts.cast(schema.field("ts").type),
        "table_id": per_row.column("table"),
        "game": game,
        "source": _sources(prefix, ln.cast(pa.string())),
    }
    names = ("kind", "seat", "player", "amount", "total", "cards", "detail")
    row_table = rows.select(names).to_arrow(compat_level=pl.CompatLevel.newest())
    for name in names:
        data[name] = row_table.column(name)
    arrays = [data[f.name] if data[f.name].type == f.type else data[f.name].cast(f.type)
              for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema), rows.get_column("ln").to_numpy(), counts


def _sources(prefix: str, numbers: pa.Array) -> pa.Array:
    """`prefix` + each of the line numbers (as text): when all have as many digits, written
    as the rows of one byte matrix."""
    offsets = np.frombuffer(numbers.buffers()[1], np.int32)[
        numbers.offset : numbers.offset + len(numbers) + 1]
    digits = np.diff(offsets)
    if numbers.null_count or not len(numbers) or (digits != digits[0]).any():
        return pc.binary_join_element_wise(prefix, numbers, "")
    head = np.frombuffer(prefix.encode(), np.uint8)
    n, width = len(numbers), int(digits[0])
    out = np.empty((n, len(head) + width), dtype=np.uint8)
    out[:, : len(head)] = head
    out[:, len(head) :] = np.frombuffer(numbers.buffers()[2], np.uint8)[
        offsets[0] : offsets[0] + n * width].reshape(n, width)
    return pa.StringArray.from_buffers(
        n, pa.py_buffer(np.arange(0, (n + 1) * out.shape[1], out.shape[1], dtype=np.int32)),
        pa.py_buffer(out))


# game fields -> per-hand columns (fields absent here are null: bring_in, min_bet, ...)
_GAME_COLUMNS = {"button_seat": "button", "minor_per_unit": "mpu", "bring_in": "-",
                 "min_bet": "-", "dead_button": "-", "profile": "-", "house_overrides": "-"}
