"""The fast path of an audit: replay a whole event table at once, compiled where it can be.

Events are decoded column by column into integer arrays (no Python object per event) and
replayed by the compiled kernel (audit/replay/fast/kernel.py), which either proves a hand
clean, producing its projection rows as columns, or hands it back. Handed-back hands, and
every hand when the kernel cannot run, go through the reference replay
(`audit.replay.replay_hand`), which alone writes findings. The output is the same tables, in
the same order, as replaying every hand with the reference replay.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from audit.compiled import CompiledModule, compile_failures
from audit.poker.evaluate.high import HIGH_CLASSES
from audit.poker.evaluate.tables import (
    _card_arrays,
    _flush_tables,
    _nonflush_table,
    _strengths,
)
from audit.replay.awards import implied_rake_message
from audit.replay.events import hands_from_table
from audit.replay.hand import replay_hand
from audit.rules.findings import Finding, finding, findings_schema_for, findings_table
from audit.rules.ids import DQ_UNVERIFIABLE_AWARD
from audit.rules.settings import Settings
from audit.schema import arrow_schema

UNKNOWN_STACK = 1 << 62

DISABLE_ENV = "POKER_AUDIT_REFERENCE_REPLAY"  # =1: every hand through the reference replay
_STREETS = np.array([None, "preflop", "flop", "turn", "river", "showdown"], dtype=object)
_VARIANTS = {"holdem": 0, "omaha": 1, "omaha5": 2, "omaha_hilo": 3, "omaha5_hilo": 4,
             "omaha6": 5, "omaha6_hilo": 6, "stud": 7, "stud_hilo": 8, "razz": 9,
             "stud5": 10, "mississippi": 11, "lowball_27_triple": 12, "lowball_27_single": 13,
             "badugi": 14, "draw_high": 15, "lowball_a5": 16, "jacks_or_better": 17,
             "lowball_a5_triple": 18}
_STRUCTURES = {"fixed_limit": 0, "pot_limit": 1, "half_pot": 1, "no_limit": 2}


@dataclass(frozen=True, slots=True, kw_only=True)
class TableReplay:
    """Findings and projection tables of every hand of an event table, in table order."""

    findings: pa.Table  # schemas/findings.json, in hand order
    hands: pa.Table
    players: pa.Table
    fast_hands: int  # proven clean by the compiled kernel
    reference_hands: int  # replayed by the reference replay
    reasons: dict[int, int]  # kernel hand-back reason -> hands (see kernel.py)


def reference_only() -> bool:
    return os.environ.get(DISABLE_ENV, "") not in ("", "0")


KERNEL = CompiledModule("audit.replay.fast.kernel", "the compiled replay",
                        "every hand takes the reference replay (same findings, slower)")


def kernel() -> Any:
    """The compiled kernel module, or None when it cannot be built on this machine (then
    every hand takes the reference replay)."""
    return KERNEL.get()


def kernel_compile_pending() -> bool:
    """Whether the next process to replay here compiles the kernel first (on a first run
    after install: minutes, about 2 GB); the reference-only switch compiles nothing."""
    return not reference_only() and KERNEL.compile_pending()


def replay_table_fast(table: pa.Table, cash: Settings, tournament: Settings | None = None,
                 run_id: str | None = None, *, use_kernel: bool = True) -> TableReplay:
    """Replay every hand of `table` (hands contiguous, ordered by seq): tournament hands
    under `tournament`, the others under `cash`."""
    tournament = tournament or cash
    n_events = table.num_rows
    hands_schema = arrow_schema("hands")
    players_schema = arrow_schema("hand_players")
    if n_events == 0:
        return TableReplay(findings=findings_table([], run_id), hands=hands_schema.empty_table(),
                           players=players_schema.empty_table(), fast_hands=0,
                           reference_hands=0, reasons={})
    # the columns taken from more than once, in one piece (a take per chunk costs more)
    table = _one_chunk_columns(table, ("hand_id", "player", "seq"))
    starts = _hand_starts(table)
    fast = None
    if use_kernel and not reference_only() and _kernel_covers(hands_schema, players_schema) \
            and kernel() is not None:
        try:
            fast = _run_kernel(table, starts, cash, tournament)
        except compile_failures() as exc:  # the compiled path could not run: lose no
            KERNEL.failed(exc)             # time, no hand; the reference replay judges all
            fast = None
        if fast is not None:
            _site_totals_back(table, starts, fast)
    n_hands = len(starts) - 1
    status = fast["status"] if fast is not None else np.ones(n_hands, dtype=np.int64)
    back = np.flatnonzero(status > 0)
    ref_findings, ref_hands, ref_players = _reference(table, starts, back, cash, tournament)
    findings = _merge_findings(table, starts, status, back, ref_findings, fast,
                               fast["settings"] if fast is not None else [], run_id)
    hand_parts = []
    player_parts = []
    if fast is not None and len(back) < n_hands:
        h, p = _fast_tables(table, starts, fast, hands_schema, players_schema)
        hand_parts.append(h)
        player_parts.append(p)
    if len(back):
        hand_parts.append(_rows_table(ref_hands, hands_schema, back_index=[
            int(i) for i in back]))
        player_parts.append(_rows_table([r for rows in ref_players for r in rows],
                                        players_schema, back_index=[
                                            int(back[k]) for k, rows in enumerate(ref_players)
                                            for _ in rows]))
    hands = _in_hand_order(hand_parts, hands_schema, run_id)
    players = _in_hand_order(player_parts, players_schema, run_id)
    reasons: dict[int, int] = {}
    if fast is not None and len(back):
        codes, counts = np.unique(status[back], return_counts=True)
        reasons = {int(c): int(n) for c, n in zip(codes, counts, strict=True)}
    return TableReplay(findings=findings, hands=hands, players=players,
                       fast_hands=n_hands - len(back), reference_hands=len(back),
                       reasons=reasons)


# ---------------------------------------------------------------------------- decoding
# Columns are read from their Arrow buffers as numpy views (no Python object per row, one
# pass each); the text columns the kernel needs are matched in compiled loops.

_NO_BYTES = np.frombuffer(b"", np.uint8)  # an empty validity bitmap: no nulls


def _hand_starts(table: pa.Table) -> np.ndarray:
    """Row where each hand starts, and the row count last: a hand_id that differs from the
    row before starts a hand."""
    ids = _one_chunk(table.column("hand_id"))
    n = len(ids)
    if ids.null_count:  # not in the schema; each null row then stands alone, as before
        codes = pc.dictionary_encode(ids).indices.to_numpy(zero_copy_only=False)
        change = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    else:
        differs = pc.not_equal(ids.slice(1), ids.slice(0, n - 1))
        change = np.flatnonzero(_ints(differs, 0)) + 1
    return np.concatenate(([0], change, [n])).astype(np.int64)


def _one_chunk(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    if isinstance(col, pa.ChunkedArray):
        return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
    return col


def _one_chunk_columns(table: pa.Table, names: tuple[str, ...]) -> pa.Table:
    for name in names:
        if name in table.column_names and table.column(name).num_chunks > 1:
            i = table.column_names.index(name)
            table = table.set_column(i, table.field(i), table.column(name).combine_chunks())
    return table


def _valid(arr: pa.Array) -> np.ndarray | None:
    """Which rows of a (non-struct) array are not null; None when none is."""
    if not arr.null_count:
        return None
    bitmap = np.frombuffer(arr.buffers()[0], np.uint8)
    bits = np.unpackbits(bitmap, count=arr.offset + len(arr), bitorder="little")
    return bits[arr.offset:].astype(bool)


def _text_buffers(col: pa.ChunkedArray | pa.Array
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Offsets, bytes, validity bitmap (empty: no nulls) and bitmap offset of a text column."""
    arr = _one_chunk(col)
    if arr.type != pa.string() and arr.type != pa.large_string():
        arr = _one_chunk(arr.cast(pa.string()))
    validity, offsets_buf, data_buf = arr.buffers()
    width = np.int32 if arr.type == pa.string() else np.int64
    offsets = np.frombuffer(offsets_buf, width)[arr.offset: arr.offset + len(arr) + 1]
    data = np.frombuffer(data_buf, np.uint8) if data_buf is not None else _NO_BYTES
    bitmap = np.frombuffer(validity, np.uint8) if arr.null_count else _NO_BYTES
    return offsets, data, bitmap, arr.offset


@cache
def _candidates(values: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Texts to match as offsets into one byte buffer."""
    encoded = [v.encode("utf-8") for v in values]
    offsets = np.concatenate(([0], np.cumsum([len(e) for e in encoded]))).astype(np.int64)
    return offsets, np.frombuffer(b"".join(encoded) or b"\0", np.uint8)


@cache
def _slots(values: tuple[str, ...]) -> np.ndarray:
    """The candidate of each text hash (fast_kernel.text_slot); empty when two candidates'
    hashes collide (then string_codes compares a text with every candidate)."""
    K = kernel()

    offsets, data = _candidates(values)
    slots = np.full(K.TEXT_SLOTS, -1, np.int64)
    for c, value in enumerate(values):
        if not value:
            continue
        slot = K.text_slot(data, offsets[c], offsets[c + 1])
        if slots[slot] >= 0:
            return np.zeros(0, np.int64)
        slots[slot] = c
    return slots


def _codes(col: pa.ChunkedArray | pa.Array, values: tuple[str, ...], blank: int
           ) -> np.ndarray:
    """Index of each row's text in `values`, -1 for another text, `blank` for null or ''."""
    offsets, data, bitmap, bit_offset = _text_buffers(col)
    cand_off, cand_data = _candidates(values)
    return kernel().string_codes(offsets, data, bitmap, bit_offset, cand_off, cand_data,
                                 _slots(values), blank)


def _ints(col: pa.ChunkedArray | pa.Array, missing: int) -> np.ndarray:
    """An integer (or boolean) column as int64, nulls as `missing`."""
    arr = _one_chunk(col)
    n = len(arr)
    if arr.null_count == n:
        return np.full(n, missing, np.int64)
    if pa.types.is_boolean(arr.type):
        bits = np.unpackbits(np.frombuffer(arr.buffers()[1], np.uint8),
                             count=arr.offset + n, bitorder="little")
        values = bits[arr.offset:].astype(np.int64)
    elif pa.types.is_integer(arr.type):
        values = np.frombuffer(arr.buffers()[1], arr.type.to_pandas_dtype())[
            arr.offset: arr.offset + n]
        if not arr.null_count:
            return values.astype(np.int64)
        K = kernel()
        if K is not None and arr.type.bit_width in (8, 64):  # seat and amounts: one pass
            bitmap = np.frombuffer(arr.buffers()[0], np.uint8)
            return K.int_column(values, bitmap, arr.offset, missing)
        values = values.astype(np.int64)
    else:
        values = np.array(pc.cast(arr, pa.int64()).fill_null(0).to_numpy(), np.int64)
    valid = _valid(arr)
    if valid is not None:
        values[~valid] = missing
    return values


def _bits_at(buffer: pa.Buffer, positions: np.ndarray) -> np.ndarray:
    bitmap = np.frombuffer(buffer, np.uint8)
    return (bitmap[positions >> 3] >> (positions & 7)) & 1 == 1


def _ints_at(arr: pa.Array, rows: np.ndarray, missing: int) -> tuple[np.ndarray, np.ndarray]:
    """An integer (or boolean) column at `rows` as int64 (nulls as `missing`), and which of
    those are not null."""
    if arr.null_count == len(arr):
        return np.full(len(rows), missing, np.int64), np.zeros(len(rows), bool)
    at = rows + arr.offset if arr.offset else rows
    if pa.types.is_boolean(arr.type):
        values = _bits_at(arr.buffers()[1], at).astype(np.int64)
    elif pa.types.is_integer(arr.type):  # a take (a new array): no second copy for int64
        values = np.frombuffer(arr.buffers()[1], arr.type.to_pandas_dtype())[at].astype(
            np.int64, copy=False)
    else:
        values = _ints(arr, missing)[rows]
    if not arr.null_count:
        return values, np.ones(len(rows), bool)
    known = _bits_at(arr.buffers()[0], at)
    values[~known] = missing
    return values, known


def _column(table: pa.Table, name: str, type_: pa.DataType) -> pa.ChunkedArray:
    if name in table.column_names:
        return table.column(name)
    return pa.chunked_array([pa.nulls(table.num_rows, type_)])


def _chunked_valid(col: pa.ChunkedArray) -> np.ndarray | None:
    """Which rows of a (struct) column are not null; None when none is."""
    if not col.null_count:
        return None
    parts = []
    for chunk in col.chunks:
        if chunk.null_count:
            bitmap = np.frombuffer(chunk.buffers()[0], np.uint8)
            bits = np.unpackbits(bitmap, count=chunk.offset + len(chunk), bitorder="little")
            parts.append(bits[chunk.offset:].astype(bool))
        else:
            parts.append(np.ones(len(chunk), bool))
    return np.concatenate(parts)


def _text_lookup(col: pa.Array, default: str) -> tuple[pa.Array, list[str]]:
    """Per-row index into the distinct texts of `col` (null and '' as `default`), and those
    texts (dictionary order)."""
    if col.null_count == len(col):  # as below, without encoding: no text, every row `default`
        return np.zeros(len(col), np.int64), [default]
    encoded = pc.dictionary_encode(col)
    texts = [t or default for t in encoded.dictionary.to_pylist()]
    texts.append(default)  # the code of a null
    return _ints(encoded.indices, len(texts) - 1), texts


def _game_columns(table: pa.Table, starts: np.ndarray, cash: Settings,
                  tournament: Settings
                  ) -> tuple[np.ndarray, dict[str, Any], list[Settings]]:
    """Per-hand game columns for the kernel (see fast_kernel G_*), from each hand's first
    non-null `game` (as audit/replay/events.py does), and the Settings each G_SETTINGS row
    stands for: cash, tournament, then both again under each distinct `house_overrides`."""
    K = kernel()

    n_hands = len(starts) - 1
    game_col = table.column("game") if "game" in table.column_names else None
    out = np.zeros((n_hands, K.N_GAME), dtype=np.int64)
    if game_col is None:
        return out, {}, [cash, tournament]
    first = starts[:-1]
    # each hand's game on its first row (the usual case): checked at those rows alone
    if not game_col.null_count or pc.sum(pc.is_valid(game_col).take(pa.array(first))
                                         ).as_py() == n_hands:
        has_game = np.ones(n_hands, bool)
    else:
        valid = _chunked_valid(game_col)
        big = np.int64(1 << 62)
        idx = np.where(valid, np.arange(len(valid), dtype=np.int64), big)
        first = np.minimum.reduceat(idx, starts[:-1])
        has_game = first < big
        first = np.where(has_game, first, 0)
    # each game field read at those rows alone (a take of the whole struct copies every field)
    fields = {f.name: f.type for f in game_col.type}

    chunks = game_col.chunks

    def child(name: str) -> pa.Array:
        """A game field in one piece: of the struct's 19 fields, only those read are joined
        (joining only those costs less than joining the whole struct's chunks)."""
        parts = [chunk.field(name) for chunk in chunks]
        return parts[0] if len(parts) == 1 else pa.concat_arrays(parts)

    def ints(name: str) -> np.ndarray:
        return truth(name)[1]

    def text(name: str) -> pa.Array:
        return _take_text(child(name), first) if name in fields else pa.nulls(n_hands,
                                                                               pa.string())

    def truth(name: str) -> tuple[np.ndarray, np.ndarray]:
        """Which hands have a value, and the values (0 where none)."""
        if name not in fields:
            return np.zeros(n_hands, bool), np.zeros(n_hands, np.int64)
        values, known = _ints_at(child(name), first, 0)
        return known, values

    # a variant the kernel does not know is not supported: the hand goes back, and its text
    # is never projected from here
    variants = tuple(_VARIANTS)  # in code order; matched at the hands' game rows alone
    v_code = (_codes(text("variant"), variants, _VARIANTS["holdem"])
              if "variant" in fields else np.zeros(n_hands, np.int64))
    variant = _lookup(variants, np.maximum(v_code, 0))
    structure = text("structure")
    structures = tuple(_STRUCTURES)
    s_index = _codes(structure, structures, structures.index("no_limit"))
    s_code = np.where(s_index < 0, _STRUCTURES["no_limit"],
                      np.array(list(_STRUCTURES.values()))[s_index])
    bb = ints("big_blind")
    sb = ints("small_blind")
    sb = np.where(sb != 0, sb, bb // 2)
    small_bet = ints("small_bet")
    small_bet = np.where(small_bet != 0, small_bet, bb)
    big_bet = ints("big_bet")
    big_bet = np.where(big_bet != 0, big_bet, 2 * small_bet)
    t_known, t_value = truth("tournament")
    t_value = t_value.astype(bool)
    use_tourn = t_value  # audit/run/runner.py: tournament settings when game.tournament is truthy
    # one pair of settings rows per distinct house_overrides text (none = rows 0 and 1)
    house_code, overrides = _text_lookup(text("house_overrides"), "")
    settings = [cash, tournament]
    pair = []
    for text_ in overrides:
        if text_:
            pair.append(len(settings) // 2)
            settings.extend((cash.with_house(text_), tournament.with_house(text_)))
        else:
            pair.append(0)
    which = 2 * np.asarray(pair, dtype=np.int64)[house_code] + use_tourn
    tourn_default = np.array([st.tournament for st in settings], dtype=bool)[which]
    tourn = np.where(t_known, t_value, tourn_default)
    # the minimum bet under each hand's settings row, all rows at once: a house minimum
    # (nl.min_bet = house) is its amount where one is set, else the game's min_bet
    house_min = np.array([st.nl_min_house for st in settings], bool)[which]
    house_amount = np.array([st.min_bet_amount if st.nl_min_house else 0 for st in settings],
                            np.int64)[which]
    mb = ints("min_bet")
    mb = np.where(house_amount != 0, house_amount, mb)
    min_bet = np.where((mb != 0) & (house_min | (mb > bb)), mb, bb)
    min_bet = np.where(min_bet <= 0, 1, min_bet)
    button = ints("button_seat")
    dead_button = truth("dead_button")[1].astype(bool)
    # half-pot (BET-HALFPOT) is judged by the reference replay only; the kernel knows pot limit
    half_pot = s_index == structures.index("half_pot")
    ante = ints("ante")
    # a capped table (stakes.hand_cap) is judged by the reference replay only
    capped = np.array([st.hand_cap > 0 for st in settings], bool)[which]
    # stud (a bring-in game) at fixed limit; a stud game stating a big blind and no bring-in
    # is left to the reference replay (its blind-game opening would apply)
    bring_in = ints("bring_in")
    stud = (v_code >= K.V_FIRST_STUD) & (v_code < K.V_FIRST_DRAW)
    limit = s_code == _STRUCTURES["fixed_limit"]
    stud_ok = stud & limit & ((bring_in > 0) | (bb == 0))
    # the draw games dealt with blinds
    # (draw high and jacks also dealt with antes and no blinds: ANTE-DRAW)
    ante_draw = np.isin(v_code, (_VARIANTS["draw_high"], _VARIANTS["jacks_or_better"]))
    # at any limit: pot and no limit bet as hold'em does (the half-pot games go back above)
    draw_ok = (v_code < K.V_FIRST_DRAW) | ((bring_in == 0) & ((bb > 0) | ante_draw))
    supported = (has_game & (v_code >= 0) & ((bring_in == 0) | stud) & (~stud | stud_ok)
                 & draw_ok
                 & ~dead_button & ~half_pot
                 & ~capped
                 & (ante >= 0) & (button >= 0) & (button < K.MAX_SEATS))
    # the single-draw games at fixed limit play under the two-round cap (cap.two_round), as
    # the stud/draw hooks set it: their own settings rows, after all the others
    two_round = limit & np.isin(v_code, (_VARIANTS["lowball_27_single"],
                                         _VARIANTS["draw_high"], _VARIANTS["lowball_a5"],
                                         _VARIANTS["jacks_or_better"]))
    if two_round.any():
        n_rows = len(settings)
        settings.extend(_two_round(st) for st in settings[:n_rows])
        which = np.where(two_round, which + n_rows, which)
    out[:, K.G_VARIANT] = v_code
    out[:, K.G_STRUCTURE] = s_code
    out[:, K.G_BB] = bb
    out[:, K.G_SB] = sb
    out[:, K.G_SMALL_BET] = small_bet
    out[:, K.G_BIG_BET] = big_bet
    out[:, K.G_MIN_BET] = min_bet
    out[:, K.G_BUTTON] = button
    out[:, K.G_TOURNAMENT] = tourn
    out[:, K.G_SETTINGS] = which
    out[:, K.G_SUPPORTED] = supported
    out[:, K.G_ANTE] = ante
    out[:, K.G_BRING_IN] = bring_in
    mpu = ints("minor_per_unit")
    return out, {"variant": variant, "structure": structure, "big_blind": bb,
                 "mpu": np.where(mpu > 0, mpu, 1)}, settings


def _two_round(st: Settings) -> Settings:
    """audit/replay/family/hooks.py: a two-round game's settings at fixed limit."""
    two = st.values.get("cap.two_round", st.cap_multi)
    return st.with_house(json.dumps({"cap.multi_round": two}))


# A hand the kernel proved clean whose room-stated total pot differs from the pot it derived:
# the reference replay states the DQ-SITE-TOTALS note (audit/replay/site_totals.py).
BACK_SITE_TOTALS = 100
_TOTAL_POT = r"(?:^|;)total_pot=(?P<v>-?[0-9]{1,18})(?:;|$)"


def _site_totals_back(table: pa.Table, starts: np.ndarray, fast: dict[str, Any]) -> None:
    """Send back to the reference replay the clean hands whose `hand_ended` states a total pot
    other than the kernel's pot (less returned bets): rare, and worded there."""
    if "detail" not in table.column_names:
        return
    ended = np.flatnonzero(fast["kind"] == kernel().K_HAND_ENDED)
    if not len(ended):
        return
    texts = table.column("detail").take(pa.array(ended))
    found = pc.extract_regex(texts, _TOTAL_POT)
    valid = _valid_mask(found)
    if not valid.any():
        return
    stated = _one_chunk(pc.fill_null(pc.cast(pc.struct_field(found, [0]), pa.int64()), 0)
                        ).to_numpy()[valid]  # int64 throughout (money)
    rows = ended[valid]
    hands = np.searchsorted(starts, rows, side="right") - 1
    status = fast["status"]
    differs = (status[hands] <= 0) & (fast["pot_net"][hands] != stated)
    status[hands[differs]] = BACK_SITE_TOTALS


def _valid_mask(arr: pa.ChunkedArray | pa.Array) -> np.ndarray:
    arr = _one_chunk(arr)
    valid = _valid(arr)
    return np.ones(len(arr), bool) if valid is None else valid


def _settings_rows(settings: list[Settings]) -> np.ndarray:
    K = kernel()

    rows = np.zeros((len(settings), K.N_SETTINGS), dtype=np.int64)
    for i, st in enumerate(settings):
        rows[i, K.P_CAP_MULTI] = st.cap_multi
        rows[i, K.P_CAP_HEADSUP] = st.cap_headsup
        rows[i, K.P_CAP_HEADSUP_TOURN] = st.cap_headsup_tourn
        rows[i, K.P_FOLD_UNCAPS] = st.fold_uncaps
        rows[i, K.P_ALLIN_AGGREGATE] = st.allin_aggregate
        rows[i, K.P_NL_REOPEN_AGGREGATE] = st.nl_reopen_aggregate
        rows[i, K.P_PL_SB_AS_BB] = st.pl_sb_as_bb
        rows[i, K.P_PL_SB_AS_BB_TOURN] = st.pl_sb_as_bb_tourn
        rows[i, K.P_RAKE_ALLOWED] = st.rake_allowed
        rows[i, K.P_RAKE_PERCENT] = st.rake_percent
        rows[i, K.P_RAKE_CAP] = st.rake_cap
        rows[i, K.P_RAKE_IMPLIED_MAX] = st.rake_implied_max_percent
        rows[i, K.P_STRADDLE_BIGBET] = st.straddle_bigbet
        rows[i, K.P_STRADDLE_LIMIT] = st.straddle_limit
        rows[i, K.P_STRADDLE_NEW_BRING_IN] = bool(st.values.get("straddle.new_bring_in", True))
        rows[i, K.P_ALLIN_FULL_LEVEL] = st.allin_full_level
        rows[i, K.P_ALLIN_HALF_LEVEL] = st.allin_half_level
        rows[i, K.P_MIN_OPEN_2BB] = str(st.values.get("lowball.min_open", "bb")).lower() == "2bb"
    return rows


@cache
def _tables() -> tuple[np.ndarray, ...]:
    flush_suit, by_mask = _flush_tables()
    return (_nonflush_table(5), _nonflush_table(6), _nonflush_table(7), flush_suit, by_mask,
            _strengths(), _card_arrays()[0])


_NEEDLES = ("refunds=implicit", "rake=implicit", "winnings=unrecorded", "winnings=absent")
_ROW_COLUMNS = ("seat", "event", "position", "start", "invested", "won", "vpip", "pfr", "aggr",
                "calls", "folded", "allin", "showed", "strength", "faced_event", "hole_off")


def _run_kernel(table: pa.Table, starts: np.ndarray, cash: Settings,
                tournament: Settings) -> dict[str, Any]:
    K = kernel()

    n = table.num_rows
    n_hands = len(starts) - 1
    kind = _codes(table.column("kind"), K.KINDS, -1)
    if "detail" in table.column_names:
        detail_col = table.column("detail")
        detail = _codes(detail_col, K.DETAILS, K.D_NULL)
        # source flags live only on hand_started and hand_ended rows: search those texts alone
        offsets, data, bitmap, bit_offset = _text_buffers(detail_col)
        needle_off, needle_data = _candidates(_NEEDLES)
        needle_bit = np.array([K.F_REFUNDS_IMPLICIT, K.F_RAKE_IMPLICIT, K.F_UNRECORDED,
                               K.F_UNRECORDED], np.int64)
        flags = K.source_flags(kind, offsets, data, bitmap, bit_offset, needle_off,
                               needle_data, needle_bit)
    else:
        detail = np.full(n, K.D_NULL, np.int64)
        flags = np.zeros(n, np.int64)
    seat = _ints(_column(table, "seat", pa.int8()), K.MISSING)
    amount = _ints(_column(table, "amount", pa.int64()), K.MISSING)
    total = _ints(_column(table, "total", pa.int64()), K.MISSING)
    cards_off, cards_data = _string_buffers(_column(table, "cards", pa.string()))
    game, game_cols, settings_list = _game_columns(table, starts, cash, tournament)
    if "detail" in table.column_names:
        # an all-in under disconnection protection (allin.disconnect_protection) is judged
        # by the reference replay only
        marked = pc.fill_null(pc.equal(table.column("detail"), "all_in_protection"), False)
        rows_at = np.flatnonzero(marked.to_numpy(zero_copy_only=False) & (kind == K.K_ANNOTATION))
        if len(rows_at):
            game[np.searchsorted(starts, rows_at, side="right") - 1, K.G_SUPPORTED] = 0
    if (kind == -1).any():
        # so is money the room adds to the pot (pot_added): the kernel's pots are the players'
        added = pc.fill_null(pc.equal(table.column("kind"), "pot_added"), False)
        rows_at = np.flatnonzero(added.to_numpy(zero_copy_only=False))
        if len(rows_at):
            game[np.searchsorted(starts, rows_at, side="right") - 1, K.G_SUPPORTED] = 0
    settings = _settings_rows(settings_list)
    out: dict[str, Any] = {
        "status": np.zeros(n_hands, np.int64),
        "pot": np.zeros(n_hands, np.int64),
        "rake": np.zeros(n_hands, np.int64),
        "players": np.zeros(n_hands, np.int64),
        "showdown": np.zeros(n_hands, np.bool_),
        "board_off": np.zeros(n_hands + 1, np.int64),
        "board_buf": np.empty(n_hands * 24 + 1, np.uint8),
        "row_start": np.zeros(n_hands + 1, np.int64),
        "pot_net": np.zeros(n_hands, np.int64),
    }
    # the kernel writes every field of each row it makes (and only those rows are read)
    block = np.empty((len(_ROW_COLUMNS), n + 1), np.int64)
    rows = dict(zip(_ROW_COLUMNS, block, strict=True))
    rows["hole_valid"] = np.empty(n + 1, np.bool_)
    rows["hole_buf"] = np.empty(n * 24 + 1, np.uint8)
    n_rows = K.replay_batch(
        starts, kind, seat, amount, total, detail, flags, cards_data, cards_off, game,
        settings, *_tables(),
        out["status"], out["pot"], out["rake"], out["players"], out["showdown"],
        out["board_off"], out["board_buf"], out["row_start"], out["pot_net"],
        rows["seat"], rows["event"], rows["position"], rows["start"], rows["invested"],
        rows["won"], rows["vpip"], rows["pfr"], rows["aggr"], rows["calls"], rows["folded"],
        rows["allin"], rows["showed"], rows["strength"], rows["faced_event"],
        rows["hole_off"], rows["hole_valid"], rows["hole_buf"])
    out["rows"] = rows
    out["n_rows"] = int(n_rows)
    out["kind"] = kind
    out["game"] = game_cols
    out["game_rows"] = game
    out["settings"] = settings_list
    out["findings"] = _unrecorded_counts(out["status"], game, settings_list)
    return out


def _string_buffers(col: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """int64 offsets and bytes of a text column, a null read as ''."""
    offsets, data, bitmap, bit_offset = _text_buffers(col)
    if len(bitmap) and kernel().null_with_bytes(offsets, bitmap, bit_offset):
        return _string_buffers(pc.fill_null(_one_chunk(col), ""))
    return offsets.astype(np.int64), data


# ---------------------------------------------------------------------------- assembly


def _strings(offsets: np.ndarray, data: np.ndarray, valid: np.ndarray) -> pa.Array:
    """A string array on offsets into a byte buffer (invalid -> null)."""
    n = len(offsets) - 1
    end = max(int(offsets[n]), 0)
    wide = end >= 1 << 31
    offsets_buf = pa.py_buffer(np.ascontiguousarray(offsets, np.int64 if wide else np.int32))
    validity = None if valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    arr = pa.Array.from_buffers(pa.large_string() if wide else pa.string(), n,
                                [validity, offsets_buf, pa.py_buffer(data[:end])])
    return arr.cast(pa.string()) if wide else arr


def _take_text(col: pa.Array | pa.ChunkedArray, rows: np.ndarray) -> pa.Array:
    """A text column at `rows` (a negative row: null)."""
    null = rows < 0
    return _one_chunk(col).take(pa.array(rows, mask=null if null.any() else None))


@cache
def _texts(values: tuple[str, ...]) -> pa.Array:
    return pa.array(values, pa.string())


def _lookup(values: tuple[str, ...], codes: np.ndarray, null: np.ndarray | None = None
            ) -> pa.Array:
    """values[code] per row as a string column (null where `null`)."""
    return _take_text(_texts(values), codes if null is None else np.where(null, -1, codes))


_STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown")  # street codes 0..4


def _fast_tables(table: pa.Table, starts: np.ndarray, fast: dict[str, Any],
                 hands_schema: pa.Schema, players_schema: pa.Schema
                 ) -> tuple[pa.Table, pa.Table]:
    K = kernel()

    status = fast["status"]
    n_hands = len(status)
    clean = np.flatnonzero(status <= 0)
    every = len(clean) == n_hands  # the common case: no column needs picking

    def pick(values: np.ndarray) -> np.ndarray:
        return values if every else values[clean]

    clean_rows = None if every else pa.array(clean)

    def pick_arrow(values: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
        return values if every else values.take(clean_rows)

    first_rows = pick(starts[:-1])
    first = pa.array(first_rows)
    game = fast["game"]
    board_off = fast["board_off"]
    board_valid = board_off[1:] > board_off[:-1]
    boards = pick_arrow(_strings(board_off, fast["board_buf"], board_valid))
    rows = fast["rows"]
    n_rows = fast["n_rows"]
    row_start = fast["row_start"]
    hand_of_row = np.repeat(np.arange(n_hands), np.diff(row_start))
    player_col = table.column("player")
    player = _take_text(player_col, rows["event"][:n_rows])
    hand_ids = _take_text(table.column("hand_id"), starts[:-1][hand_of_row])
    positions = (*K.POSITION_NAMES, *(f"UTG+{i}" for i in range(1, 24)))
    faced = rows["faced_event"][:n_rows]
    faced_player = _take_text(player_col, faced)
    strength = rows["strength"][:n_rows]
    folded = rows["folded"][:n_rows]
    allin = rows["allin"][:n_rows]
    hole_off = rows["hole_off"][: n_rows + 1]
    invested = rows["invested"][:n_rows]
    won = rows["won"][:n_rows]
    seats = rows["seat"][:n_rows]
    start = rows["start"][:n_rows]
    players = pa.table({
        "run_id": pa.nulls(n_rows, pa.string()),
        "hand_id": hand_ids,
        "seat": pa.array(seats.astype(np.int8)),
        "player": player,
        "position": _lookup(positions, rows["position"][:n_rows]),
        "starting_stack": pa.array(start, pa.int64(), mask=start >= UNKNOWN_STACK),
        "invested": pa.array(invested),
        "won": pa.array(won),
        "net": pa.array(won - invested),
        "vpip": pa.array(rows["vpip"][:n_rows].astype(bool)),
        "pfr": pa.array(rows["pfr"][:n_rows].astype(bool)),
        "aggressive_actions": pa.array(rows["aggr"][:n_rows].astype(np.int32)),
        "calls": pa.array(rows["calls"][:n_rows].astype(np.int32)),
        "folded_street": _lookup(_STREET_NAMES, folded, folded < 0),
        "all_in_street": _lookup(_STREET_NAMES, allin, allin < 0),
        "showed": pa.array(rows["showed"][:n_rows].astype(bool)),
        "hole_cards": _strings(hole_off, rows["hole_buf"], rows["hole_valid"][:n_rows]),
        "hand_class": _lookup(HIGH_CLASSES, strength >> 20, strength < 0),
        "faced_bet_from": faced_player,
    })
    missing = set(players_schema.names) - set(players.column_names)
    if missing:  # a projection column the kernel does not produce: all hands go back
        raise KernelGap(f"the fast path does not produce hand_players columns "
                        f"{sorted(missing)}")
    winners = _winners(row_start, seats, player, won)
    hands = pa.table({
        "run_id": pa.nulls(len(clean), pa.string()),
        "hand_id": _take_text(table.column("hand_id"), first_rows),
        "ts": _column(table, "ts", pa.timestamp("us", tz="UTC")).take(first),
        "table_id": _take_text(_column(table, "table_id", pa.string()), first_rows),
        "variant": pick_arrow(game["variant"]),
        "structure": pick_arrow(game["structure"]),
        "big_blind": pa.array(pick(game["big_blind"])),
        "players": pa.array(pick(fast["players"]).astype(np.int8)),
        "pot": pa.array(pick(fast["pot"])),
        "rake": pa.array(pick(fast["rake"])),
        "board": boards,
        "winners": pick_arrow(winners),
        "showdown": pa.array(pick(fast["showdown"])),
        "awards_verified": pa.array(pick(status) == 0),
        "findings": pa.array(pick(fast["findings"]).astype(np.int32)),
        "profile": _lookup(tuple(st.label for st in fast["settings"]),
                           pick(fast["game_rows"][:, K.G_SETTINGS])),
    })
    missing = set(hands_schema.names) - set(hands.column_names)
    if missing:
        raise KernelGap(f"the fast path does not produce hands columns {sorted(missing)}")
    hands = hands.append_column("_hand", pa.array(clean, pa.int64()))
    players = players.append_column("_hand", pa.array(hand_of_row, pa.int64()))
    kept = status[hand_of_row] <= 0  # the kernel's rows of hands sent back after it ran
    if not kept.all():
        players = players.filter(pa.array(kept))
    return hands, players


class KernelGap(RuntimeError):
    """The projection schema grew a column the compiled kernel does not produce yet."""


_HANDS_COLUMNS = frozenset((
    "run_id", "hand_id", "ts", "table_id", "variant", "structure", "big_blind", "players",
    "pot", "rake", "board", "winners", "showdown", "awards_verified", "findings", "profile"))
_PLAYERS_COLUMNS = frozenset((
    "run_id", "hand_id", "seat", "player", "position", "starting_stack", "invested", "won",
    "net", "vpip", "pfr", "aggressive_actions", "calls", "folded_street", "all_in_street",
    "showed", "hole_cards", "hand_class", "faced_bet_from"))


def _kernel_covers(hands_schema: pa.Schema, players_schema: pa.Schema) -> bool:
    """The kernel produces every projection column (else the reference replay does all)."""
    return (set(hands_schema.names) <= _HANDS_COLUMNS
            and set(players_schema.names) <= _PLAYERS_COLUMNS)


def _winners(row_start: np.ndarray, seats: np.ndarray, player: pa.Array, won: np.ndarray
             ) -> pa.Array:
    """'seat:player,...' of the seats that won chips, per hand (null when none)."""
    offsets, data, bitmap, bit_offset = _text_buffers(player)
    out_off, buf, valid = kernel().winners_text(row_start, seats, won, offsets, data, bitmap,
                                                bit_offset)
    return _strings(out_off, buf, valid)


UNRECORDED_RULE = DQ_UNVERIFIABLE_AWARD
UNRECORDED_MESSAGE = ("The award cannot be verified: the log does not record what each player "
                      "was paid; nothing is concluded about it.")


def _unrecorded_counts(status: np.ndarray, game: np.ndarray, settings: list[Settings]
                       ) -> np.ndarray:
    """Findings per kernel hand: one DQ-UNVERIFIABLE-AWARD per unrecorded-winnings hand,
    unless the hand's profile disables the rule."""
    on = np.array([UNRECORDED_RULE not in st.disabled for st in settings])
    return (((status == -1) | (status == -2)) & on[game[:, kernel().G_SETTINGS]]).astype(
        np.int32)


def _merge_findings(table: pa.Table, starts: np.ndarray, status: np.ndarray,
                    back: np.ndarray, ref_findings: list[list[Finding]],
                    fast: dict[str, Any] | None, settings: list[Settings],
                    run_id: str | None) -> pa.Table:
    """All findings in hand order: the reference replay's, and the data-quality note the
    kernel leaves for a hand whose winnings were not recorded or whose unlogged collection
    is beyond the implied bound (the messages awards.py writes), built as columns."""
    # here, not at the top: the compiled kernel (numba) loads only when the fast path runs
    from audit.replay.fast.kernel import G_SETTINGS

    reference = [f for fs in ref_findings for f in fs]
    unrecorded = (np.flatnonzero((status == -1) | (status == -2)) if fast is not None
                  else np.zeros(0, np.int64))
    if len(unrecorded):
        game = fast["game_rows"]
        which = game[unrecorded, G_SETTINGS]
        on = np.array([UNRECORDED_RULE not in st.disabled for st in settings])[which]
        unrecorded, which = unrecorded[on], which[on]
    if not len(unrecorded):
        return findings_table(reference, run_id)
    # one template row per settings row, and one per note with numbers (an unlogged
    # collection beyond the implied bound); each finding is a take of its template
    templates = [finding(UNRECORDED_RULE, hand_id=None, seq=None, message=UNRECORDED_MESSAGE,
                         severity=st.severity.get(UNRECORDED_RULE)) for st in settings]
    template = which.copy()
    for k in np.flatnonzero(status[unrecorded] == -2):
        h, st = int(unrecorded[k]), settings[int(which[k])]
        kept, pot = int(fast["rake"][h]), int(fast["pot_net"][h])
        bound = pot * st.rake_implied_max_percent // 100
        template[k] = len(templates)
        templates.append(finding(
            UNRECORDED_RULE, hand_id=None, seq=None, severity=st.severity.get(UNRECORDED_RULE),
            message=implied_rake_message(kept, pot, st.rake_implied_max_percent,
                                         int(fast["game"]["mpu"][h])),
            expected=bound, actual=kept, delta=kept - bound))
    schema = findings_schema_for(run_id)
    used = np.unique(template)
    indices = None
    columns: dict[str, Any] = {"run_id": pa.repeat(pa.scalar(run_id, pa.string()),
                                                   len(template))}
    for name in schema.names:
        if name in ("run_id", "hand_id", "seq"):
            continue
        values = [getattr(templates[i], name) for i in used]
        if all(v == values[0] for v in values):  # the same in every note
            columns[name] = pa.repeat(pa.scalar(values[0], schema.field(name).type),
                                      len(template))
        else:
            indices = pa.array(template) if indices is None else indices
            columns[name] = pa.array([getattr(t, name) for t in templates],
                                     schema.field(name).type).take(indices)
    last_rows = starts[1:][unrecorded] - 1
    columns["hand_id"] = _take_text(table.column("hand_id"), last_rows)
    columns["seq"] = table.column("seq").take(pa.array(last_rows))
    made = pa.table({name: columns[name] for name in schema.names}, schema=schema)
    if not reference:  # the kernel's notes alone, already in hand order
        return made
    ref_hand = np.repeat(back, [len(fs) for fs in ref_findings]).astype(np.int64)
    merged = pa.concat_tables([
        findings_table(reference, run_id).append_column("_hand", pa.array(ref_hand, pa.int64())),
        made.append_column("_hand", pa.array(unrecorded, pa.int64())),
    ])
    order = pc.sort_indices(merged, [("_hand", "ascending")])  # stable: keeps seq order
    return merged.take(order).drop_columns(["_hand"])


def _reference(table: pa.Table, starts: np.ndarray, back: np.ndarray, cash: Settings,
               tournament: Settings
               ) -> tuple[list[list[Finding]], list[dict[str, Any]],
                          list[tuple[dict[str, Any], ...]]]:
    findings: list[list[Finding]] = []
    hands: list[dict[str, Any]] = []
    players: list[tuple[dict[str, Any], ...]] = []
    if not len(back):
        return findings, hands, players
    if len(back) == len(starts) - 1:
        sub = table
    else:
        idx = np.concatenate([np.arange(starts[h], starts[h + 1]) for h in back])
        sub = table.take(pa.array(idx))
    for hand in hands_from_table(sub):
        settings = tournament if (hand.game or {}).get("tournament") else cash
        result = replay_hand(hand, settings)
        findings.append(list(result.findings))
        hands.append(result.hand)
        players.append(result.players)
    return findings, hands, players


def _rows_table(rows: list[dict[str, Any]], schema: pa.Schema, back_index: list[int]
                ) -> pa.Table:
    table = pa.Table.from_pylist(rows, schema=schema)
    return table.append_column("_hand", pa.array(back_index, pa.int64()))


def _in_hand_order(parts: list[pa.Table], schema: pa.Schema, run_id: str | None) -> pa.Table:
    if not parts:
        table = schema.empty_table()
    elif len(parts) == 1:  # one source of rows: already in hand order
        table = parts[0].drop_columns(["_hand"])
        same_types = table.column_names == schema.names and all(
            c.type == f.type for c, f in zip(table.columns, schema, strict=True))
        # the columns as they are, under the schema (a cast when one must be converted)
        table = (pa.Table.from_arrays(table.columns, schema=schema) if same_types
                 else table.cast(schema))
    else:
        merged = pa.concat_tables([p.cast(schema.append(pa.field("_hand", pa.int64())))
                                   for p in parts])
        merged = merged.take(pc.sort_indices(merged, [("_hand", "ascending")]))
        table = merged.drop_columns(["_hand"])
    if run_id is not None and "run_id" in table.column_names:
        i = table.column_names.index("run_id")
        table = table.set_column(i, schema.field("run_id"),
                                 pa.repeat(pa.scalar(run_id, pa.string()), table.num_rows))
    return table
