"""The fast simulator: clean no-limit hold'em cash tables played by the compiled engine
(kernel.py) and written to the store as Arrow columns built in bulk.

Which runs take it (`engine="auto"`, see `fast_eligible`): hold'em, no limit, no injected
violations, no colluders, no tournament tables, the default player pool. Everything else
(other games and structures, injections, colluders, tournaments) takes the Python engine,
whose labels stay exact. `engine="python"` forces the Python engine; `engine="fast"` refuses
a run the fast engine does not play. When numba cannot build or run the kernel, the run
takes the Python engine with one warning (as the replay's fast path does).

Deterministic per seed: table setup from `random.Random(seed)`, hands from the kernel's
splitmix64 stream seeded from the seed, timestamps from the simulator's fixed epoch, batch
ids as audit/simulate/play/sim.py derives them; the same arguments give byte-identical files. The
Parquet writer runs on a background thread (its encoding releases the GIL, and so does the kernel),
one chunk behind the engine, so memory stays bounded by two chunks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from audit.compiled import CompiledModule, compile_failures
from audit.errors import AuditInputError
from audit.poker.cards import card_str
from audit.poker.evaluate.tables import (
    _card_arrays,
    _flush_tables,
    _nonflush_table,
    _strengths,
)
from audit.schema import events_schema
from audit.simulate.play.agents import _CATEGORY_VALUE, _PAIR_SCORE
from audit.simulate.play.table import CASH_STAKES
from audit.simulate.world import EPOCH, EPOCH_US, SEAT_COUNTS, batch_id

FAST_ENGINES = ("auto", "fast", "python")
CHUNK_HANDS = 32_768  # at most this many hands per kernel call and per Arrow table written
_EVENTS_PER_HAND = 40  # buffer rows per hand (a hand averages ~25; the kernel stops early)
_state: dict[str, Any] = {}


def fast_eligible(*, variant: str, structure: str, violations: float, colluders: int,
                  tournament_share: float, players: int | None,
                  injectors: tuple[str, ...] | None) -> str:
    """"" when the fast engine plays this run, else why it does not."""
    if variant != "holdem" or structure != "no_limit":
        return f"it plays no-limit hold'em only, not {structure} {variant}"
    if violations or injectors:
        return "injected violations are planted by the Python engine (exact labels)"
    if colluders:
        return "colluding teams are played by the Python engine"
    if tournament_share:
        return "tournament tables are played by the Python engine"
    if players is not None:
        return "--players (a shared player pool) is played by the Python engine"
    return ""


KERNEL = CompiledModule("audit.simulate.compiled.kernel", "the compiled simulator",
                        "the Python engine plays (same kind of hands, slower)")


def kernel() -> Any:
    """The compiled simulator module, or None (then the Python engine plays, one warning)."""
    return KERNEL.get()


def ready() -> Any:
    """The kernel, compiled (or loaded from numba's cache) before any file is written, or
    None when it cannot be built or run here (one warning; the Python engine plays)."""
    if "ready" in _state:
        return _state["ready"]
    fk = kernel()
    if fk is not None:
        try:
            # one hand played and made into a table: the kernel and the column writer
            # (columns.py) are built or loaded now, not inside the first batch
            setup = _tables_setup(0, 1, fk)
            seats = np.full((1, fk.MAX_SEATS), -1, dtype=np.int64)
            per_hand = np.zeros((4, 1), dtype=np.int64)
            E = np.zeros((fk.N_E, _EVENTS_PER_HAND + fk.EVENT_RESERVE), dtype=np.int64)
            done, n_ev = fk.play_hands(1, 0, setup["T"], seats, np.zeros_like(seats),
                                       np.zeros_like(seats),
                                       np.zeros(len(setup["names"]), dtype=np.int64),
                                       setup["styles"], setup["rng"], E, per_hand[0],
                                       per_hand[1], per_hand[2], per_hand[3], *_lookups())
            _Static(setup, fk, 0).tables(E[:, :n_ev], per_hand[:, :done], 0, 0)
        except compile_failures() as exc:
            KERNEL.failed(exc)
            fk = None
    _state["ready"] = fk
    return fk


@cache
def _lookups() -> tuple[np.ndarray, ...]:
    """The kernel's read-only tables: preflop scores, the evaluator's LUTs, and the 0..1
    postflop value of every dense high strength (the agents' made-hand categories)."""
    flush_suit, by_mask = _flush_tables()
    strengths = _strengths().astype(np.int64)
    category = strengths >> 20
    top_rank = (strengths >> 16) & 15
    value = np.array(_CATEGORY_VALUE, dtype=np.float64)[category]
    value += np.where(category <= 1, top_rank / 100, 0.0)  # high card / pair: by its rank
    return (np.array(_PAIR_SCORE, dtype=np.float64), _nonflush_table(5), _nonflush_table(6),
            _nonflush_table(7), flush_suit, by_mask, _card_arrays()[0].astype(np.int64),
            value)


@cache
def _card_strings() -> pa.Array:
    """Every card string the kernel writes, indexed by its code (0 is null)."""
    names = [card_str(c) for c in range(52)]
    out: list[str | None] = [None, *names]
    pairs = [f"{a} {b}" for a in names for b in names]
    out += pairs
    out += [f"{p} {c}" for p in pairs for c in names]
    return pa.array(out, pa.string())


def _tables_setup(seed: int, tables: int, fk: Any) -> dict[str, np.ndarray | list]:
    """Tables as play/sim.py draws them for NLHE cash: seat counts, stakes, rake, player
    styles."""
    rng = random.Random(seed)
    # drawn in play/sim.py's order (player styles, then per table: seats, the tournament coin,
    # stakes, rake), so a seed seats the same tables and styles as on the Python engine
    pool = tables * fk.POOL_PER_TABLE
    styles = np.array([rng.randrange(4) for _ in range(pool)], dtype=np.int64)
    T = np.zeros((tables, fk.N_T), dtype=np.int64)
    house: list[str | None] = []
    for k in range(tables):
        seats = SEAT_COUNTS[rng.randrange(len(SEAT_COUNTS))]
        rng.random()  # the tournament coin (tournament_share is 0 here)
        sb, bb = CASH_STAKES[rng.randrange(len(CASH_STAKES))]
        raked = rng.random() < 0.6
        T[k, fk.T_N] = seats
        T[k, fk.T_SB], T[k, fk.T_BB] = sb, bb
        T[k, fk.T_RAKED] = int(raked)
        T[k, fk.T_BUYIN] = 100 * bb
        T[k, fk.T_CLOCK] = k * 37_000_000
        house.append(f'{{"rake.cap": {3 * bb}, "rake.percent": {fk.RAKE_PERCENT}}}'
                     if raked else None)
    names = [f"p{seed}_{i:05d}" for i in range(pool)]
    return {"T": T, "house": house, "styles": styles, "names": names,
            "rng": np.array([(seed * 0x9E3779B97F4A7C15 + 1) % (1 << 64)], dtype=np.uint64)}


def simulate_fast(store: Any, *, hands: int, seed: int, tables: int,
                  hands_per_file: int, progress: Callable[[int], None] | None = None
                  ) -> tuple[int, int]:
    """Play `hands` clean NLHE cash hands on `tables` tables into `store` (new); returns
    (events, batches). Raises what the kernel raises (the caller falls back)."""
    fk = ready()
    if fk is None:
        raise RuntimeError("the compiled simulator is unavailable")
    setup = _tables_setup(seed, tables, fk)
    T = setup["T"]
    players = np.full((tables, fk.MAX_SEATS), -1, dtype=np.int64)
    stacks = np.zeros((tables, fk.MAX_SEATS), dtype=np.int64)
    out = np.zeros((tables, fk.MAX_SEATS), dtype=np.int64)
    pool_seated = np.zeros(len(setup["names"]), dtype=np.int64)
    lookups = _lookups()
    static = _Static(setup, fk, seed)
    # the kernel's buffers, reused chunk after chunk: the tables made from a chunk copy out
    # of them (columns.py), so the writer thread never reads what the next chunk
    # overwrites, and no chunk pays for faulting in fresh pages
    chunk = _chunk_hands(min(hands, hands_per_file))
    E_all = np.empty((fk.N_E, chunk * _EVENTS_PER_HAND + fk.EVENT_RESERVE), dtype=np.int64)
    per_hand_all = np.empty((4, chunk), dtype=np.int64)
    events = batches = 0
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sim-writer") as pool:
        for lo in range(0, hands, hands_per_file):
            hi = min(hands, lo + hands_per_file)
            now = EPOCH + timedelta(seconds=batches)
            with store.locked():
                writer = store.batch_writer(now=now, batch_id=batch_id(seed, batches, now))
                pending: Future | None = None
                try:
                    i = lo
                    while i < hi:
                        want = min(chunk, hi - i)
                        E, per_hand = E_all, per_hand_all  # C-contiguous, as compiled
                        done, n_ev = fk.play_hands(
                            want, i, T, players, stacks, out, pool_seated, setup["styles"],
                            setup["rng"], E, per_hand[0], per_hand[1], per_hand[2],
                            per_hand[3], *lookups)
                        if done <= 0:  # never loop without progress
                            raise RuntimeError("the compiled simulator played no hand into "
                                               f"its buffer (status {done})")
                        parts = static.tables(E[:, :n_ev], per_hand[:, :done], i, EPOCH_US)
                        if pending is not None:
                            pending.result()  # one chunk in flight: bounded memory
                        pending = pool.submit(_write_all, writer, parts)
                        events += n_ev
                        if progress is not None:
                            progress(done)
                        i += done
                    if pending is not None:
                        pending.result()
                    writer.commit()
                except BaseException:
                    if pending is not None:
                        pending.exception()  # let the writer thread finish before aborting
                    writer.abort()
                    raise
            batches += 1
    return events, batches


def _chunk_hands(per_batch: int) -> int:
    """Hands per chunk: a batch in equal chunks of at most CHUNK_HANDS (50,000 hands: two of
    25,000). Each chunk is a Parquet row group, and each row group costs the writer a fixed
    amount per column (a zstd context, pages): large ones are cheaper per hand, and no batch
    ends in a small one."""
    pieces = -(-per_batch // CHUNK_HANDS)
    return -(-per_batch // pieces)


def _write_all(writer: Any, parts: list[tuple[str, pa.Table]]) -> None:
    for partition, table in parts:
        writer.write(partition, table)


_DAY_US = 86_400_000_000
_MISSING = np.iinfo(np.int64).min  # fast_kernel.MISSING: a null amount


class _Static:
    """Per-run Arrow pieces (names, per-table game fields) and the chunk -> table step."""

    def __init__(self, setup: dict, fk: Any, seed: int) -> None:
        # here, not at the top: numba compiles the column step on import (about a second)
        from audit.simulate.compiled import columns as fast_columns

        self.fk = fk
        self.fc = fast_columns
        self.seed = seed
        self.schema = events_schema()
        # the string columns' dictionaries, indexed by the kernel's codes
        self.kinds = _Coded(pa.array(fk.KINDS, pa.string()))
        self.details = _Coded(pa.array(fk.DETAILS, pa.string()))
        self.cards = _Coded(_card_strings())
        self.players = _Coded(pa.array([None, *setup["names"]], pa.string()))
        T = setup["T"]
        n = T.shape[0]
        self.table_ids = _Coded(pa.array([f"t{seed}_{k:03d}" for k in range(n)], pa.string()))
        # The tables handed to the store: the events schema, but the string columns the
        # kernel writes as codes are Arrow dictionary arrays (the store writes their entries
        # once and the indices as they are, instead of hashing every row's string; readers
        # see the same string columns)
        self.table_schema = pa.schema(
            [pa.field(f.name, pa.dictionary(pa.int32(), f.type), f.nullable, f.metadata)
             if f.name in CODED_COLUMNS else f for f in self.schema],
            metadata=self.schema.metadata)
        self._null_strings = pa.nulls(0, pa.string())
        self.game_by_table = {
            "variant": pa.array(["holdem"] * n), "structure": pa.array(["no_limit"] * n),
            "small_blind": pa.array(T[:, fk.T_SB]), "big_blind": pa.array(T[:, fk.T_BB]),
            "small_bet": pa.nulls(n, pa.int64()), "big_bet": pa.nulls(n, pa.int64()),
            "ante": pa.array(np.zeros(n, dtype=np.int64)), "bring_in": pa.nulls(n, pa.int64()),
            "straddle": pa.nulls(n, pa.int64()), "min_bet": pa.nulls(n, pa.int64()),
            "seat_count": pa.array(T[:, fk.T_N], pa.int8()),
            "currency": pa.array(["USD"] * n), "minor_per_unit": pa.array([100] * n, pa.int64()),
            "tournament": pa.array([False] * n), "level": pa.nulls(n, pa.int32()),
            "dead_button": pa.array([False] * n), "profile": pa.array(["montana"] * n),
            "house_overrides": pa.array(setup["house"], pa.string()),
        }
        # the game struct's children, each as (numpy per-table values, arrow type) when
        # the field varies by table, a scalar when every table has the same value, or None
        # when it is null on every table (see _game)
        game_type = self.schema.field("game").type
        self.game_type = game_type
        self.game_fields: list[tuple[str, Any]] = []
        self._fixed: dict[int, pa.Array] = {}  # game field -> its null or constant column
        for f in game_type:
            if f.name == "button_seat":
                self.game_fields.append(("button", None))
                continue
            per = self.game_by_table[f.name].cast(f.type)
            if per.null_count == len(per):
                self.game_fields.append(("null", None))
            elif per.null_count == 0 and len(set(per.to_pylist())) == 1:
                self.game_fields.append(("constant", per[0]))
            elif pa.types.is_string(f.type) or per.null_count:
                self.game_fields.append(("spread", per))
            else:
                self.game_fields.append(("table", np.asarray(per)))

    def tables(self, E: np.ndarray, per_hand: np.ndarray, hand0: int, epoch_us: int
               ) -> list[tuple[str, pa.Table]]:
        """The chunk's event columns (E[column, event]) as one Arrow table per date
        partition, hands in order."""
        hand_clock, hand_first = per_hand[2], per_hand[3]
        sizes = np.diff(np.append(hand_first, E.shape[1]))
        day_no = hand_clock // _DAY_US
        out = []
        for day in np.unique(day_no):
            name = (EPOCH + timedelta(days=int(day))).strftime("%Y-%m-%d")
            hands = np.flatnonzero(day_no == day)
            out.append((name, self._table(E, per_hand, sizes, hands, hand0, epoch_us)))
        return out

    def _table(self, E: np.ndarray, per_hand: np.ndarray, sizes: np.ndarray,
               hands: np.ndarray, hand0: int, epoch_us: int) -> pa.Table:
        """The rows of the chosen hands (indices into the chunk, in order) as one table."""
        fk, fc = self.fk, self.fc
        hand_table, hand_button, hand_clock, hand_first = per_hand
        row_src, row_hand, row_local, first = fc.row_layout(hands, hand_first, sizes)
        n = len(row_src)
        seq, ts = fc.seq_ts(row_src, row_hand, hand_first, hand_clock, epoch_us)
        ids = pa.Array.from_buffers(pa.int32(), n, [None, pa.py_buffer(row_local)])
        columns = {
            "hand_id": pa.DictionaryArray.from_arrays(
                ids, _numbered(f"sim{self.seed}-", hand0 + hands), safe=False),
            "seq": pa.array(seq),
            "ts": pa.Array.from_buffers(self.schema.field("ts").type, n,
                                        [None, pa.py_buffer(ts)], null_count=0),
            "table_id": self.table_ids.column(fc, hand_table, row_hand),
            "kind": self.kinds.column(fc, E[fk.E_KIND], row_src),
            "seat": _ints(fc, E[fk.E_SEAT], row_src, 0, pa.int8()),  # -1: no seat
            "player": self.players.column(fc, E[fk.E_PLAYER], row_src),
            "amount": _ints(fc, E[fk.E_AMOUNT], row_src, fk.MISSING, pa.int64()),
            "total": _ints(fc, E[fk.E_TOTAL], row_src, fk.MISSING, pa.int64()),
            "cards": self.cards.column(fc, E[fk.E_CARDS], row_src),
            "detail": self.details.column(fc, E[fk.E_DETAIL], row_src),
            "source": self._nulls(n),
            "game": self._game(hand_table[hands], hand_button[hands], first, n),
        }
        arrays = [columns[f.name].cast(f.type) for f in self.table_schema]
        return pa.Table.from_arrays(arrays, schema=self.table_schema)

    def _nulls(self, n: int) -> pa.Array:
        if len(self._null_strings) < n:
            self._null_strings = pa.nulls(n, pa.string())
        return self._null_strings.slice(0, n)

    def _game(self, hand_table: np.ndarray, hand_button: np.ndarray, first: np.ndarray,
              n: int) -> pa.StructArray:
        """The game config on each hand's first row, null on every other row. The struct's
        validity makes those rows null, so a child's values there are never read (Parquet
        writes no value under a null struct, the Merkle leaves take the valid rows): a
        field every table shares is one repeated value, a per-table number is scattered
        onto the first rows; only strings that vary by table are spread row by row."""
        fc = self.fc
        fields = []
        for i, (f, (how, per)) in enumerate(zip(self.game_type, self.game_fields,
                                                strict=True)):
            if how in ("null", "constant"):  # the same every chunk: built once, sliced
                fixed = self._fixed.get(i)
                if fixed is None or len(fixed) < n:
                    fixed = pa.nulls(n, f.type) if how == "null" else pa.repeat(per, n)
                    self._fixed[i] = fixed
                fields.append(fixed.slice(0, n))
            elif how in ("button", "table"):
                values = hand_button if how == "button" else per[hand_table]
                dtype = f.type.to_pandas_dtype()
                out = fc.scatter(values.astype(dtype), first, n, np.zeros(n, dtype=dtype))
                fields.append(pa.array(out, f.type))
            else:
                fields.append(_spread(per.take(pa.array(hand_table)), first, n))
        bits, nulls = fc.first_rows_bitmap(first, n)
        return pa.Array.from_buffers(self.game_type, n, [pa.py_buffer(bits)],
                                     null_count=nulls, children=fields)


CODED_COLUMNS = ("hand_id", "table_id", "kind", "player", "cards", "detail")


class _Coded:
    """A string column the kernel writes as codes into a fixed dictionary (null where the
    entry is null), made into Arrow dictionary arrays of the entries each table uses."""

    def __init__(self, entries: pa.Array) -> None:
        self.entries = entries
        self.valid = np.asarray(entries.is_valid()).astype(np.uint8)
        self.remap = np.full(len(entries), -1, dtype=np.int32)  # dictionary_indices' scratch

    def column(self, fc: Any, codes: np.ndarray, rows: np.ndarray) -> pa.DictionaryArray:
        """Row r holds entry codes[rows[r]]."""
        indices, bits, nulls, used = fc.dictionary_indices(codes, rows, self.valid,
                                                           self.remap)
        arr = pa.Array.from_buffers(pa.int32(), len(rows), [
            pa.py_buffer(bits) if nulls else None, pa.py_buffer(indices)], null_count=nulls)
        return pa.DictionaryArray.from_arrays(arr, self.entries.take(pa.array(used)),
                                              safe=False)


def _ints(fc: Any, values: np.ndarray, rows: np.ndarray, lowest: int,
          type_: pa.DataType) -> pa.Array:
    """values[rows] as an Arrow integer array, null where a value is below `lowest` or is
    the kernel's MISSING."""
    out = np.empty(len(rows), dtype=type_.to_pandas_dtype())
    bits, nulls = fc.ints(values, rows, lowest, _MISSING, out)
    return pa.Array.from_buffers(type_, len(rows), [
        pa.py_buffer(bits) if nulls else None, pa.py_buffer(out)], null_count=nulls)


def _numbered(prefix: str, numbers: np.ndarray, repeats: np.ndarray | None = None
              ) -> pa.Array:
    """f"{prefix}{number:09d}" for every number (repeats[k] times for number k when
    given: one per event of the hand), built as Arrow buffers."""
    if len(numbers) and int(numbers.max()) >= 10**9:  # wider numbers: the plain way
        plain = pa.array([f"{prefix}{int(x):09d}" for x in numbers], pa.string())
        return plain if repeats is None else plain.take(
            pa.array(np.repeat(np.arange(len(numbers)), repeats)))
    head = np.frombuffer(prefix.encode(), dtype=np.uint8)
    width = len(head) + 9
    buf = np.empty((len(numbers), width), dtype=np.uint8)
    buf[:, :len(head)] = head
    powers = 10 ** np.arange(8, -1, -1, dtype=np.int64)
    buf[:, len(head):] = (numbers[:, None] // powers) % 10 + 48
    if repeats is not None:
        buf = np.repeat(buf, repeats, axis=0)
    offsets = np.arange(len(buf) + 1, dtype=np.int32) * width
    return pa.StringArray.from_buffers(len(buf), pa.py_buffer(offsets), pa.py_buffer(buf))


def _spread(per_hand: pa.Array, first: np.ndarray, n: int) -> pa.Array:
    """An n-row array holding per_hand[k] at row first[k] and null on every other row."""
    valid = np.zeros(n, dtype=bool)
    per_valid = np.asarray(per_hand.is_valid())
    valid[first] = per_valid
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
    if pa.types.is_string(per_hand.type):
        per_off = np.frombuffer(per_hand.buffers()[1], dtype=np.int32)[
            per_hand.offset: per_hand.offset + len(per_hand) + 1]
        lens = np.zeros(n, dtype=np.int32)
        lens[first] = np.diff(per_off)
        offsets = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(lens, out=offsets[1:])
        data = per_hand.buffers()[2]
        if per_off[0]:
            data = pa.py_buffer(np.frombuffer(data, dtype=np.uint8)[per_off[0]:])
        return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), data or pa.py_buffer(b""),
                                           bitmap)
    if pa.types.is_boolean(per_hand.type):
        values = np.zeros(n, dtype=bool)
        values[first] = np.asarray(per_hand.fill_null(False))
        return pa.array(values, mask=~valid)
    dtype = per_hand.type.to_pandas_dtype()
    values = np.zeros(n, dtype=dtype)
    values[first] = np.asarray(per_hand.fill_null(0))
    return pa.array(values, type=per_hand.type, mask=~valid)


def check_engine(engine: str) -> None:
    if engine not in FAST_ENGINES:
        raise AuditInputError(f"unknown engine {engine!r}: use auto, fast or python")
