"""The fast path of an audit: replay a whole event table at once, compiled where it can be.

Events are decoded column by column into integer arrays (no Python object per event) and
replayed by the compiled kernel (audit/replay/fast_kernel.py), which either proves a hand
clean, producing its projection rows as columns, or hands it back. Handed-back hands, and
every hand when the kernel cannot run, go through the reference replay
(`audit.replay.replay_hand`), which alone writes findings. The output is the same tables, in
the same order, as replaying every hand with the reference replay.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from audit.compiled import CompiledModule, compile_failures
from audit.evaluate import HIGH_CLASSES
from audit.findings import Finding, finding, findings_table
from audit.replay.events import hands_from_table
from audit.replay.hand import replay_hand
from audit.replay.settings import Settings
from audit.schema import arrow_schema, findings_schema

UNKNOWN_STACK = 1 << 62

DISABLE_ENV = "POKER_AUDIT_REFERENCE_REPLAY"  # =1: every hand through the reference replay
_STREETS = np.array([None, "preflop", "flop", "turn", "river", "showdown"], dtype=object)
_VARIANTS = {"holdem": 0, "omaha": 1, "omaha5": 2, "omaha_hilo": 3, "omaha5_hilo": 4,
             "omaha6": 5, "omaha6_hilo": 6}
_STRUCTURES = {"fixed_limit": 0, "pot_limit": 1, "half_pot": 1, "no_limit": 2}


@dataclass(frozen=True, slots=True, kw_only=True)
class TableReplay:
    """Findings and projection tables of every hand of an event table, in table order."""

    findings: pa.Table  # schemas/findings.json, in hand order
    hands: pa.Table
    players: pa.Table
    fast_hands: int  # proven clean by the compiled kernel
    reference_hands: int  # replayed by the reference replay
    reasons: dict[int, int]  # kernel hand-back reason -> hands (see fast_kernel.py)


def reference_only() -> bool:
    return os.environ.get(DISABLE_ENV, "") not in ("", "0")


KERNEL = CompiledModule("audit.replay.fast_kernel", "the compiled replay",
                        "every hand takes the reference replay (same findings, slower)")


def kernel() -> Any:
    """The compiled kernel module, or None when it cannot be built on this machine (then
    every hand takes the reference replay)."""
    return KERNEL.get()


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
    table = table.combine_chunks()  # one chunk: every take and cast below is a plain one
    starts = _hand_starts(table)
    n_hands = len(starts) - 1
    status = np.ones(n_hands, dtype=np.int64)
    fast = None
    if use_kernel and not reference_only() and _kernel_covers(hands_schema, players_schema) \
            and kernel() is not None:
        try:
            fast = _run_kernel(table, starts, cash, tournament)
            status = fast["status"]
        except compile_failures() as exc:  # the compiled path could not run: lose no
            KERNEL.failed(exc)             # time, no hand; the reference replay judges all
            fast = None
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
    if fast is not None:
        codes, counts = np.unique(status[status > 0], return_counts=True)
        reasons = {int(c): int(n) for c, n in zip(codes, counts, strict=True)}
    return TableReplay(findings=findings, hands=hands, players=players,
                       fast_hands=n_hands - len(back), reference_hands=len(back),
                       reasons=reasons)


# ---------------------------------------------------------------------------- decoding


def _hand_starts(table: pa.Table) -> np.ndarray:
    codes = pc.dictionary_encode(table.column("hand_id").combine_chunks()).indices
    ids = codes.to_numpy(zero_copy_only=False)
    change = np.flatnonzero(ids[1:] != ids[:-1]) + 1
    return np.concatenate(([0], change, [len(ids)])).astype(np.int64)


def _ints(col: pa.ChunkedArray | pa.Array, missing: int) -> np.ndarray:
    arr = pc.fill_null(pc.cast(col, pa.int64()), missing)
    return np.ascontiguousarray(arr.to_numpy(), dtype=np.int64)


def _codes(col: pa.ChunkedArray, values: tuple[str, ...], null: int) -> np.ndarray:
    idx = pc.index_in(col, value_set=pa.array(values, pa.string()))
    out = np.asarray(pc.fill_null(idx, -1).to_numpy(), dtype=np.int64).copy()
    blank = pc.fill_null(pc.equal(col, ""), True).to_numpy(zero_copy_only=False)
    out[np.asarray(blank, dtype=bool)] = null
    return out


def _string_buffers(col: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    arr = pc.fill_null(col, "").cast(pa.large_string()).combine_chunks()
    if isinstance(arr, pa.ChunkedArray):  # pragma: no cover - combine_chunks on an Array
        arr = arr.combine_chunks()
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], dtype=np.int64)[arr.offset: arr.offset + len(arr) + 1]
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(
        1, np.uint8)
    return np.ascontiguousarray(offsets), data


def _column(table: pa.Table, name: str, type_: pa.DataType) -> pa.ChunkedArray:
    if name in table.column_names:
        return table.column(name)
    return pa.chunked_array([pa.nulls(table.num_rows, type_)])


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
    game = game_col.combine_chunks()
    valid = np.asarray(game.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    big = np.int64(1 << 62)
    idx = np.where(valid, np.arange(len(valid), dtype=np.int64), big)
    first = np.minimum.reduceat(idx, starts[:-1])
    has_game = first < big
    rows = pa.array(np.where(has_game, first, 0))
    g = game.take(rows)
    fields = {f.name: g.field(f.name) for f in g.type}

    def ints(name: str) -> np.ndarray:
        if name not in fields:
            return np.zeros(n_hands, np.int64)
        return np.asarray(pc.fill_null(pc.cast(fields[name], pa.int64()), 0).to_numpy(),
                          dtype=np.int64)

    def text(name: str) -> pa.Array:
        return fields[name] if name in fields else pa.nulls(n_hands, pa.string())

    def truth(name: str) -> tuple[np.ndarray, np.ndarray]:
        if name not in fields:
            return np.zeros(n_hands, bool), np.zeros(n_hands, bool)
        col = fields[name]
        known = np.asarray(col.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        value = np.asarray(pc.fill_null(pc.cast(col, pa.bool_()), False).to_numpy(
            zero_copy_only=False), dtype=bool)
        return known, value

    variant = pc.fill_null(text("variant"), "holdem")
    variant = pc.if_else(pc.equal(variant, ""), "holdem", variant)
    v_code = np.asarray(pc.fill_null(pc.index_in(variant, value_set=pa.array(
        list(_VARIANTS))), -1).to_numpy(), dtype=np.int64)
    structure = pc.fill_null(text("structure"), "no_limit")
    structure = pc.if_else(pc.equal(structure, ""), "no_limit", structure)
    s_idx = np.asarray(pc.fill_null(pc.index_in(structure, value_set=pa.array(
        list(_STRUCTURES))), -1).to_numpy(), dtype=np.int64)
    s_code = np.where(s_idx < 0, 2, np.array(list(_STRUCTURES.values()))[np.maximum(s_idx, 0)])
    bb = ints("big_blind")
    sb = ints("small_blind")
    sb = np.where(sb != 0, sb, bb // 2)
    small_bet = ints("small_bet")
    small_bet = np.where(small_bet != 0, small_bet, bb)
    big_bet = ints("big_bet")
    big_bet = np.where(big_bet != 0, big_bet, 2 * small_bet)
    t_known, t_value = truth("tournament")
    use_tourn = t_value  # run.py: tournament settings when game.tournament is truthy
    # one pair of settings rows per distinct house_overrides text (none = rows 0 and 1)
    house = pc.fill_null(text("house_overrides"), "")
    encoded = pc.dictionary_encode(house)
    overrides = encoded.dictionary.to_pylist()
    house_code = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    rows = [cash, tournament]
    pair = []
    for text_ in overrides:
        if text_:
            pair.append(len(rows) // 2)
            rows.extend((cash.with_house(text_), tournament.with_house(text_)))
        else:
            pair.append(0)
    which = 2 * np.asarray(pair, dtype=np.int64)[house_code] + use_tourn
    tourn_default = np.array([st.tournament for st in rows], dtype=bool)[which]
    tourn = np.where(t_known, t_value, tourn_default)
    mb = ints("min_bet")
    min_bet = np.empty(n_hands, np.int64)
    for k, st in enumerate(rows):
        sel = which == k
        if not sel.any():
            continue
        m = mb.copy()
        if st.nl_min_house and st.min_bet_amount:
            m[:] = st.min_bet_amount
        ok = (m != 0) & (st.nl_min_house | (m > bb))
        chosen = np.where(ok, m, bb)
        chosen = np.where(chosen <= 0, 1, chosen)
        min_bet[sel] = chosen[sel]
    button = ints("button_seat")
    _, dead_button = truth("dead_button")
    # half-pot (BET-HALFPOT) is judged by the reference replay only; the kernel knows pot limit
    half_pot = s_idx == list(_STRUCTURES).index("half_pot")
    supported = (has_game & (v_code >= 0) & (ints("bring_in") == 0) & ~dead_button & ~half_pot
                 & (ints("ante") >= 0) & (button >= 0) & (button < K.MAX_SEATS))
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
    out[:, K.G_ANTE] = ints("ante")
    mpu = ints("minor_per_unit")
    return out, {"variant": variant, "structure": text("structure"), "big_blind": bb,
                 "mpu": np.where(mpu > 0, mpu, 1)}, rows


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
    return rows


@cache
def _tables() -> tuple[np.ndarray, ...]:
    from audit.evaluate_tables import (
        _card_arrays,
        _flush_tables,
        _nonflush_table,
        _strengths,
    )

    flush_suit, by_mask = _flush_tables()
    return (_nonflush_table(5), _nonflush_table(6), _nonflush_table(7), flush_suit, by_mask,
            _strengths(), _card_arrays()[0])


def _run_kernel(table: pa.Table, starts: np.ndarray, cash: Settings,
                tournament: Settings) -> dict[str, Any]:
    K = kernel()

    n = table.num_rows
    n_hands = len(starts) - 1
    kind = _codes(table.column("kind"), K.KINDS, -1)
    detail_col = _column(table, "detail", pa.string())
    detail = _codes(detail_col, K.DETAILS, K.D_NULL)
    flags = np.zeros(n, dtype=np.int64)
    # source flags live only on hand_started and hand_ended rows: search those texts alone
    rows = np.flatnonzero((kind == K.K_HAND_STARTED) | (kind == K.K_HAND_ENDED))
    texts = detail_col.take(pa.array(rows))
    for needle, bit in (("refunds=implicit", K.F_REFUNDS_IMPLICIT),
                        ("rake=implicit", K.F_RAKE_IMPLICIT),
                        ("winnings=unrecorded", K.F_UNRECORDED),
                        ("winnings=absent", K.F_UNRECORDED)):
        hit = pc.fill_null(pc.match_substring(texts, needle), False)
        flags[rows] |= np.where(np.asarray(hit.to_numpy(zero_copy_only=False), dtype=bool),
                                bit, 0)
    seat = _ints(_column(table, "seat", pa.int8()), K.MISSING)
    amount = _ints(_column(table, "amount", pa.int64()), K.MISSING)
    total = _ints(_column(table, "total", pa.int64()), K.MISSING)
    cards_off, cards_data = _string_buffers(_column(table, "cards", pa.string()))
    game, game_cols, settings_list = _game_columns(table, starts, cash, tournament)
    settings = _settings_rows(settings_list)
    out: dict[str, Any] = {
        "status": np.zeros(n_hands, np.int64),
        "pot": np.zeros(n_hands, np.int64),
        "rake": np.zeros(n_hands, np.int64),
        "players": np.zeros(n_hands, np.int64),
        "showdown": np.zeros(n_hands, np.bool_),
        "board_off": np.zeros(n_hands + 1, np.int64),
        "board_buf": np.zeros(n_hands * 24 + 1, np.uint8),
        "row_start": np.zeros(n_hands + 1, np.int64),
        "pot_net": np.zeros(n_hands, np.int64),
    }
    rows = {name: np.zeros(n + 1, np.int64) for name in (
        "seat", "event", "position", "start", "invested", "won", "vpip", "pfr", "aggr",
        "calls", "folded", "allin", "showed", "strength", "faced_event", "hole_off")}
    rows["hole_valid"] = np.zeros(n + 1, np.bool_)
    rows["hole_buf"] = np.zeros(n * 24 + 1, np.uint8)
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
    out["game"] = game_cols
    out["game_rows"] = game
    out["settings"] = settings_list
    out["findings"] = _unrecorded_counts(out["status"], game, settings_list)
    return out


# ---------------------------------------------------------------------------- assembly


def _strings(offsets: np.ndarray, data: np.ndarray, valid: np.ndarray) -> pa.Array:
    """A string array from offsets into a byte buffer (zero-length and invalid -> null)."""
    n = len(offsets) - 1
    mask = pa.array(~valid)
    arr = pa.LargeStringArray.from_buffers(
        n, pa.py_buffer(np.ascontiguousarray(offsets, dtype=np.int64)),
        pa.py_buffer(data[: max(int(offsets[-1]), 0)].tobytes() or b"\0"))
    return pc.if_else(mask, pa.scalar(None, pa.large_string()), arr).cast(pa.string())


def _fast_tables(table: pa.Table, starts: np.ndarray, fast: dict[str, Any],
                 hands_schema: pa.Schema, players_schema: pa.Schema
                 ) -> tuple[pa.Table, pa.Table]:
    from audit.replay.fast_kernel import POSITION_NAMES

    status = fast["status"]
    clean = np.flatnonzero(status <= 0)
    first = pa.array(starts[:-1][clean])
    game = fast["game"]
    board_off = fast["board_off"]
    board_valid = board_off[1:] > board_off[:-1]
    boards = _strings(board_off, fast["board_buf"], board_valid).take(pa.array(clean))
    rows = fast["rows"]
    n_rows = fast["n_rows"]
    row_start = fast["row_start"]
    hand_of_row = np.repeat(np.arange(len(status)), np.diff(row_start))
    player = table.column("player").take(pa.array(rows["event"][:n_rows]))
    hand_ids = table.column("hand_id").take(pa.array(starts[:-1][hand_of_row]))
    names = np.array(list(POSITION_NAMES) + [f"UTG+{i}" for i in range(1, 24)], dtype=object)
    faced = rows["faced_event"][:n_rows]
    faced_player = table.column("player").take(pa.array(np.maximum(faced, 0)))
    faced_player = pc.if_else(pa.array(faced < 0), pa.scalar(None, pa.string()),
                              faced_player)
    strength = rows["strength"][:n_rows]
    classes = np.array(list(HIGH_CLASSES) + [None], dtype=object)
    hand_class = classes[np.where(strength >= 0, strength >> 20, len(HIGH_CLASSES))]
    hole_off = rows["hole_off"][: n_rows + 1]
    invested = rows["invested"][:n_rows]
    won = rows["won"][:n_rows]
    seats = rows["seat"][:n_rows]
    players = pa.table({
        "run_id": pa.nulls(n_rows, pa.string()),
        "hand_id": hand_ids,
        "seat": pa.array(seats, pa.int8()),
        "player": player,
        "position": pa.array(names[rows["position"][:n_rows]], pa.string()),
        "starting_stack": pa.array(rows["start"][:n_rows], pa.int64(),
                                   mask=rows["start"][:n_rows] >= UNKNOWN_STACK),
        "invested": pa.array(invested, pa.int64()),
        "won": pa.array(won, pa.int64()),
        "net": pa.array(won - invested, pa.int64()),
        "vpip": pa.array(rows["vpip"][:n_rows].astype(bool)),
        "pfr": pa.array(rows["pfr"][:n_rows].astype(bool)),
        "aggressive_actions": pa.array(rows["aggr"][:n_rows], pa.int32()),
        "calls": pa.array(rows["calls"][:n_rows], pa.int32()),
        "folded_street": pa.array(_STREETS[rows["folded"][:n_rows] + 1], pa.string()),
        "all_in_street": pa.array(_STREETS[rows["allin"][:n_rows] + 1], pa.string()),
        "showed": pa.array(rows["showed"][:n_rows].astype(bool)),
        "hole_cards": _strings(hole_off, rows["hole_buf"], rows["hole_valid"][:n_rows]),
        "hand_class": pa.array(hand_class, pa.string()),
        "faced_bet_from": faced_player,
    })
    missing = [f.name for f in players_schema if f.name not in players.column_names]
    if missing:  # a projection column the kernel does not produce: all hands go back
        raise KernelGap(f"the fast path does not produce hand_players columns {missing}")
    winners = _winners(hand_of_row, seats, player, won, len(status))
    hands = pa.table({
        "run_id": pa.nulls(len(clean), pa.string()),
        "hand_id": table.column("hand_id").take(first),
        "ts": _column(table, "ts", pa.timestamp("us", tz="UTC")).take(first),
        "table_id": _column(table, "table_id", pa.string()).take(first),
        "variant": game["variant"].take(pa.array(clean)),
        "structure": game["structure"].take(pa.array(clean)),
        "big_blind": pa.array(game["big_blind"][clean], pa.int64()),
        "players": pa.array(fast["players"][clean], pa.int8()),
        "pot": pa.array(fast["pot"][clean], pa.int64()),
        "rake": pa.array(fast["rake"][clean], pa.int64()),
        "board": boards,
        "winners": winners.take(pa.array(clean)),
        "showdown": pa.array(fast["showdown"][clean]),
        "awards_verified": pa.array(status[clean] == 0),
        "findings": pa.array(fast["findings"][clean], pa.int32()),
    })
    missing = [f.name for f in hands_schema if f.name not in hands.column_names]
    if missing:
        raise KernelGap(f"the fast path does not produce hands columns {missing}")
    hands = hands.append_column("_hand", pa.array(clean, pa.int64()))
    players = players.append_column("_hand", pa.array(hand_of_row, pa.int64()))
    return hands, players


class KernelGap(RuntimeError):
    """The projection schema grew a column the compiled kernel does not produce yet."""


_HANDS_COLUMNS = frozenset((
    "run_id", "hand_id", "ts", "table_id", "variant", "structure", "big_blind", "players",
    "pot", "rake", "board", "winners", "showdown", "awards_verified", "findings"))
_PLAYERS_COLUMNS = frozenset((
    "run_id", "hand_id", "seat", "player", "position", "starting_stack", "invested", "won",
    "net", "vpip", "pfr", "aggressive_actions", "calls", "folded_street", "all_in_street",
    "showed", "hole_cards", "hand_class", "faced_bet_from"))


def _kernel_covers(hands_schema: pa.Schema, players_schema: pa.Schema) -> bool:
    """The kernel produces every projection column (else the reference replay does all)."""
    return (set(hands_schema.names) <= _HANDS_COLUMNS
            and set(players_schema.names) <= _PLAYERS_COLUMNS)


def _winners(hand_of_row: np.ndarray, seats: np.ndarray, player: pa.ChunkedArray,
             won: np.ndarray, n_hands: int) -> pa.Array:
    """'seat:player,...' of the seats that won chips, per hand (null when none). Arrow only:
    this runs in forked workers, where polars' thread pool is not safe."""
    rows = np.flatnonzero(won > 0)
    seat_text = pc.cast(pa.array(seats[rows], pa.int64()), pa.string())
    names = pc.fill_null(player.take(pa.array(rows)), "")
    labels = pc.binary_join_element_wise(seat_text, names, ":")
    counts = np.bincount(hand_of_row[rows], minlength=n_hands)
    offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int32)
    if isinstance(labels, pa.ChunkedArray):
        labels = labels.combine_chunks()
    lists = pa.ListArray.from_arrays(pa.array(offsets), labels)
    joined = pc.binary_join(lists, ",")
    return pc.if_else(pa.array(counts > 0), joined, pa.scalar(None, pa.string()))


UNRECORDED_RULE = "DQ-UNVERIFIABLE-AWARD"
UNRECORDED_MESSAGE = ("The award cannot be verified: the log does not record what each player "
                      "was paid; nothing is concluded about it.")


def _unrecorded_counts(status: np.ndarray, game: np.ndarray, settings: list[Settings]
                       ) -> np.ndarray:
    """Findings per kernel hand: one DQ-UNVERIFIABLE-AWARD per unrecorded-winnings hand,
    unless the hand's profile disables the rule."""
    from audit.replay.fast_kernel import G_SETTINGS

    on = np.array([UNRECORDED_RULE not in st.disabled for st in settings])
    return (((status == -1) | (status == -2)) & on[game[:, G_SETTINGS]]).astype(np.int32)


def _merge_findings(table: pa.Table, starts: np.ndarray, status: np.ndarray,
                    back: np.ndarray, ref_findings: list[list[Finding]],
                    fast: dict[str, Any] | None, settings: list[Settings],
                    run_id: str | None) -> pa.Table:
    """All findings in hand order: the reference replay's, and the data-quality note the
    kernel leaves for a hand whose winnings were not recorded or whose unlogged collection
    is beyond the implied bound (the messages awards.py writes), built as columns."""
    from audit.replay.awards import implied_rake_message
    from audit.replay.fast_kernel import G_SETTINGS

    reference = findings_table([f for fs in ref_findings for f in fs], run_id)
    unrecorded = (np.flatnonzero((status == -1) | (status == -2)) if fast is not None
                  else np.zeros(0, np.int64))
    if len(unrecorded):
        game = fast["game_rows"]
        which = game[unrecorded, G_SETTINGS]
        on = np.array([UNRECORDED_RULE not in st.disabled for st in settings])[which]
        unrecorded, which = unrecorded[on], which[on]
    if not len(unrecorded):
        return reference
    templates = [finding(UNRECORDED_RULE, hand_id=None, seq=None, message=UNRECORDED_MESSAGE,
                         severity=st.severity.get(UNRECORDED_RULE)) for st in settings]
    last = pa.array(starts[1:][unrecorded] - 1)
    schema = findings_schema()
    n = len(unrecorded)
    columns: dict[str, Any] = {
        "run_id": pa.array([run_id] * n, pa.string()),
        "hand_id": table.column("hand_id").take(last),
        "seq": table.column("seq").take(last),
    }
    values = {name: np.array([getattr(t, name) for t in templates], dtype=object)[which]
              for name in schema.names if name not in columns}
    # an unlogged collection beyond the implied bound: the note carries its numbers
    for k in np.flatnonzero(status[unrecorded] == -2):
        h, st = int(unrecorded[k]), settings[int(which[k])]
        kept, pot = int(fast["rake"][h]), int(fast["pot_net"][h])
        bound = pot * st.rake_implied_max_percent // 100
        values["message"][k] = implied_rake_message(kept, pot, st.rake_implied_max_percent,
                                                    int(fast["game"]["mpu"][h]))
        values["expected"][k], values["actual"][k] = str(bound), str(kept)
        values["delta"][k] = kept - bound
    for name, vals in values.items():
        columns[name] = pa.array(vals, schema.field(name).type)
    made = pa.table({name: columns[name] for name in schema.names}, schema=schema)
    ref_hand = np.repeat(back, [len(fs) for fs in ref_findings]).astype(np.int64)
    merged = pa.concat_tables([
        reference.append_column("_hand", pa.array(ref_hand, pa.int64())),
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
    else:
        merged = pa.concat_tables([p.cast(schema.append(pa.field("_hand", pa.int64())))
                                   for p in parts])
        if len(parts) > 1:
            merged = merged.take(pc.sort_indices(merged, [("_hand", "ascending")]))
        table = merged.drop_columns(["_hand"])
    if run_id is not None and "run_id" in table.column_names:
        i = table.column_names.index("run_id")
        table = table.set_column(i, schema.field("run_id"),
                                 pa.array([run_id] * table.num_rows, pa.string()))
    return table
