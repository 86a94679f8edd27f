"""`simulate()`: many tables of simulated hands written as a real event store (Store +
BatchWriter, one committed batch per file of `hands_per_file` hands, streamed in bounded
memory), plus `labels.parquet` (every injected violation) and `colluders.parquet` (the teams).

Deterministic per seed: one `random.Random(seed)` drives everything, timestamps start at a
fixed epoch, and batch ids and `created_at` are derived from the seed, so the same arguments
give byte-identical files.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.schema import events_schema
from audit.simulate.compiled.simulator import check_engine, fast_eligible, simulate_fast
from audit.simulate.compiled.simulator import ready as fast_ready
from audit.simulate.inject.registry import Picker
from audit.simulate.play.agents import COLLUSION_STYLES, STYLES
from audit.simulate.play.killtable import HAND_START, KILL_TABLE_GAMES, KillTable
from audit.simulate.play.population import POPULATION_FAMILIES, Population, Watch
from audit.simulate.play.studdraw import play_draw, play_stud
from audit.simulate.play.table import (
    DRAW_GAMES,
    STUD_GAMES,
    Player,
    Table,
    maintain,
    play_hand,
    stacks_after,
)
from audit.simulate.world import EPOCH, EPOCH_US, SEAT_COUNTS, batch_id
from audit.store.dataset import Store

BUTTON_VARIANTS = ("holdem", "omaha", "omaha_hilo")
VARIANTS = (*BUTTON_VARIANTS, *STUD_GAMES, *DRAW_GAMES)
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
_DAY_US = 86_400_000_000
_SUB_CHUNK = 10_000  # hands per Arrow table handed to the writer
_PROGRESS_EVERY = 500  # hands between two progress reports (and the last one)

LABEL_SCHEMA = pa.schema([
    ("hand_id", pa.string()), ("seq", pa.int32()), ("rule_id", pa.string()),
    ("seat", pa.int8()), ("kind", pa.string()), ("primary", pa.bool_()),
])
COLLUDER_SCHEMA = pa.schema([
    ("team_id", pa.int32()), ("players", pa.list_(pa.string())), ("style", pa.string()),
    ("strength", pa.float64()), ("table_id", pa.string()),
])

COLLUDING_HANDS_SCHEMA = pa.schema([("hand_id", pa.string()), ("team_id", pa.int32()),
                                    ("decisions", pa.int32()), ("changed", pa.int32())])


@dataclass(frozen=True, slots=True, kw_only=True)
class SimSummary:
    """What a simulation wrote."""

    out: str
    seed: int
    hands: int
    events: int
    batches: int
    injected_hands: int
    labels: int
    colluder_teams: int
    seconds: float
    engine: str = "python"  # "fast": the compiled engine (compiled/simulator.py) played the run

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


class _Columns:
    """Event rows of the hands not yet handed to the writer, per date partition, kept as flat
    row lists plus per-hand columns; Arrow arrays are built column-wise in `tables()` (repeated
    per-hand values by `take`, sequence numbers and timestamps in numpy), never a dict per
    event. The hand_started row of each hand is the shared `_STARTED` row."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: dict[str, _Part] = {}

    def add(self, day: str, hand_id: str, ts: int, table_id: str, game: dict,
            ev: list[list], names: list[str | None]) -> None:
        part = self.parts.get(day)
        if part is None:
            part = self.parts[day] = _Part()
        part.hand_ids.append(hand_id)
        part.starts.append(ts)
        part.sizes.append(len(ev) + 1)
        part.table_ids.append(table_id)
        part.games.append(game)
        part.names.append(names)
        part.rows.append(_STARTED)
        part.rows.extend(ev)

    def tables(self) -> list[tuple[str, pa.Table]]:
        out = [(day, self.parts[day].table()) for day in sorted(self.parts)]
        self.parts = {}
        return out


_STARTED = ["hand_started", None, None, None, None, None]
_NAME_SLOTS = 11  # seats 0..10 per hand in the flattened player-name list


class _Part:
    __slots__ = ("hand_ids", "starts", "sizes", "table_ids", "games", "names", "rows")

    def __init__(self) -> None:
        self.hand_ids: list[str] = []
        self.starts: list[int] = []
        self.sizes: list[int] = []
        self.table_ids: list[str] = []
        self.games: list[dict] = []
        self.names: list[list[str | None]] = []
        self.rows: list[list] = []

    def table(self) -> pa.Table:
        schema = events_schema()
        rows = self.rows
        n = len(rows)
        sizes = np.array(self.sizes, dtype=np.int64)
        hand_of = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        first = np.zeros(len(sizes), dtype=np.int64)
        np.cumsum(sizes[:-1], out=first[1:])
        seq = np.arange(n, dtype=np.int64) - first[hand_of]
        ts = np.array(self.starts, dtype=np.int64)[hand_of] + seq * 1_000_000
        seat = pa.array([r[1] for r in rows], pa.int8())
        seat_np = seat.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        flat_names: list[str | None] = []
        for names in self.names:
            flat_names.append(None)  # seat 0: the rows without a seat
            flat_names.extend(names[1:])
            flat_names.extend([None] * (_NAME_SLOTS - len(names)))
        # slot 0 of every hand's names is None (there is no seat 0), so no null indices are
        # needed: `take` with null indices is many times slower than without
        player_idx = pa.array(hand_of * _NAME_SLOTS + seat_np)
        not_first = seq != 0
        hand_idx = pa.array(hand_of)
        columns = {
            "hand_id": pa.array(self.hand_ids, pa.string()).take(hand_idx),
            "seq": pa.array(seq, pa.int32()),
            "ts": pa.array(ts, pa.int64()),
            "table_id": pa.array(self.table_ids, pa.string()).take(hand_idx),
            "kind": pa.array([r[0] for r in rows], pa.string()),
            "seat": seat,
            "player": pa.array(flat_names, pa.string()).take(player_idx),
            "amount": pa.array([r[2] for r in rows], pa.int64()),
            "total": pa.array([r[3] for r in rows], pa.int64()),
            "cards": pa.array([r[4] for r in rows], pa.string()),
            "detail": pa.array([r[5] for r in rows], pa.string()),
            "source": pa.nulls(n, pa.string()),
        }
        arrays = []
        for f in schema:
            if f.name == "game":
                # field by field (a `take` on a whole struct array is several times slower);
                # the struct's own validity makes every row but the hand's first null
                games = pa.array(self.games, f.type)
                arrays.append(pa.StructArray.from_arrays(
                    [games.field(i).take(hand_idx) for i in range(f.type.num_fields)],
                    fields=list(f.type), mask=pa.array(not_first)))
            else:
                arrays.append(columns[f.name].cast(f.type))
        return pa.Table.from_arrays(arrays, schema=schema)


class _Decks:
    """Shuffled decks, drawn in numpy batches from a generator seeded with the seed."""

    __slots__ = ("gen", "batch")

    def __init__(self, seed: int) -> None:
        self.gen = np.random.Generator(np.random.PCG64(seed))
        self.batch: list[list[int]] = []

    def next(self) -> list[int]:
        if not self.batch:
            base = np.tile(np.arange(52, dtype=np.int64), (4096, 1))
            self.batch = self.gen.permuted(base, axis=1).tolist()
            self.batch.reverse()
        return self.batch.pop()


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while hands are played: the buffered event rows are
    hundreds of thousands of small lists that every full collection would rescan, while the
    simulator's garbage has no reference cycles (reference counting frees it)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def simulate(out: Path | str, *, hands: int, seed: int = 0, variant: str = "holdem",
             structure: str = "no_limit", tables: int = 8, players: int | None = None,
             violations: float = 0.0, colluders: int = 0, tournament_share: float = 0.0,
             collusion_strength: float = 0.8, hands_per_file: int = 50_000,
             colluder_team_size: int = 2, kill_tables: float = 0.0,
             injectors: tuple[str, ...] | None = None,
             progress: Callable[[int], None] | None = None,
             engine: str = "auto", family: str = "sim",
             colluding_share: float = 0.8, watch: Watch | None = None) -> SimSummary:
    """Simulate `hands` hands on `tables` tables into a new event store at `out`.

    `engine`: "auto" plays clean no-limit hold'em cash runs on the compiled engine
    (audit/simulate/compiled/simulator.py says which runs those are) and everything else on the
    Python
    engine; "python" forces the Python engine; "fast" refuses a run the compiled one does
    not play.

    `kill_tables`: the share of fixed-limit cash lowball, draw, hold'em and Omaha hi-lo tables
    (KILL_TABLE_GAMES) that play a required kill game across hands (killtable.py).

    `family`: "sim" (the simulator's own players and colluders, agents.py) or "rulebook" (the
    independently designed population of population.py: six honest types, `colluders` teams
    cycling soft play, chip dumping, whipsaw, check-down, card sharing and a team of three, each
    colluding in a share `colluding_share` of the hands where two of its members are dealt in;
    those hands are listed in colluding_hands.parquet, every player's honest type in
    players.parquet); `watch` sees each of its decisions (population.Watch)."""
    if family not in POPULATION_FAMILIES:
        raise AuditInputError(f"unknown colluder family {family!r}: use one of "
                              f"{', '.join(POPULATION_FAMILIES)}")
    population = Population(colluding_share, watch) if family == "rulebook" else None
    _check_args(variant, structure, tables, hands, violations,
                colluders if population is None else 0)
    if population is not None and (variant not in BUTTON_VARIANTS or kill_tables):
        raise AuditInputError("--family rulebook plays hold'em or Omaha tables without kill "
                              "games: give --variant holdem, omaha or omaha_hilo")
    if not 0 <= kill_tables <= 1:
        raise AuditInputError(f"kill_tables {kill_tables} is a share: give 0..1")
    check_engine(engine)
    started = time.perf_counter()
    root = Path(out)
    store = Store(root)
    if store.exists():
        raise AuditInputError(f"{root} already holds an event store; simulate into a new "
                              "directory (or delete it first)")
    why_not = fast_eligible(variant=variant, structure=structure, violations=violations,
                            colluders=colluders, tournament_share=tournament_share,
                            players=players, injectors=injectors)
    if engine == "fast" and why_not:
        raise AuditInputError(f"the fast engine cannot play this run: {why_not}; use the "
                              "python engine (engine='python' or 'auto')")
    if engine != "python" and not why_not and population is None and fast_ready() is not None:
        events, batches = simulate_fast(store, hands=hands, seed=seed, tables=tables,
                                        hands_per_file=hands_per_file, progress=progress)
        _write_labels(root, [])
        _write_colluders(root, [])
        return SimSummary(out=str(root), seed=seed, hands=hands, events=events,
                          batches=batches, injected_hands=0, labels=0, colluder_teams=0,
                          seconds=time.perf_counter() - started, engine="fast")
    rng = random.Random(seed)
    pool_size = players or tables * 12
    pool = [Player(f"p{seed}_{i:05d}", rng.randrange(len(STYLES))) for i in range(pool_size)]
    seated: set[str] = set()

    def new_player(t: Table) -> Player:
        for _ in range(20):
            p = pool[rng.randrange(len(pool))]
            if p.pid not in seated and p.team < 0:
                seated.add(p.pid)
                return p
        p = Player(f"p{seed}_{len(pool):05d}", rng.randrange(len(STYLES)))
        pool.append(p)
        seated.add(p.pid)
        return p

    tabs: list[Table] = []
    kill_state: dict[str, KillTable] = {}
    for k in range(tables):
        v = VARIANTS[rng.randrange(3)] if variant == "mixed" else variant
        if variant == "all":  # colluding teams sit at button-game tables (the first ones)
            v = (BUTTON_VARIANTS[rng.randrange(3)] if k < colluders
                 else VARIANTS[rng.randrange(len(VARIANTS))])
        st = STRUCTURES[rng.randrange(3)] if structure == "mixed" else structure
        seats = SEAT_COUNTS[rng.randrange(len(SEAT_COUNTS))]
        if v in STUD_GAMES:  # fixed limit; at most 7 dealt in, so the deck never runs out
            st, seats = "fixed_limit", min(seats, 7)
        elif v in DRAW_GAMES:  # fixed limit, six-handed at most as draw games are played
            st, seats = "fixed_limit", min(seats, 6)
        t = Table(f"t{seed}_{k:03d}", seats, v, st, rng.random() < tournament_share, rng)
        t.clock = k * 37_000_000
        tabs.append(t)
        if kill_tables and v in KILL_TABLE_GAMES and st == "fixed_limit" and not t.tournament \
                and rng.random() < kill_tables:
            t.seat_count = max(seats, 3)  # kill games are ring games
            t.players, t.stacks, t.out = ([None] * (t.seat_count + 1), [0] * (t.seat_count + 1),
                                          [False] * (t.seat_count + 1))
            kill_state[t.tid] = KillTable(t)
    if population is None:
        teams = _seat_colluders(tabs, pool, colluders, collusion_strength, rng, seated,
                                colluder_team_size)
    else:
        pool[:] = population.setup(tabs, pool_size, colluders, rng, seed, seated)
        teams = population.team_rows()
    picker = Picker(rng, injectors)
    decks = _Decks(seed)
    days: dict[int, str] = {}
    events = injected = batches = 0
    labels: list[tuple] = []
    buf = _Columns()
    with _no_cyclic_gc():
        for lo in range(0, hands, hands_per_file):
            hi = min(hands, lo + hands_per_file)
            now = EPOCH + timedelta(seconds=batches)
            with store.locked():
                # a deterministic batch id (the store's default has a random suffix)
                writer = store.batch_writer(now=now, batch_id=batch_id(seed, batches, now))
                try:
                    for i in range(lo, hi):
                        t = tabs[i % tables]
                        kt = kill_state.get(t.tid)
                        if kt is None:
                            maintain(t, rng, new_player, seated.discard)
                        else:
                            kt.maintain(t, rng, new_player, seated.discard, seated.add)
                        script = picker.pick(t) if violations and rng.random() < violations \
                            else None
                        if t.variant in STUD_GAMES:
                            ev, h, res = play_stud(t, rng, decks.next(), script)
                        elif t.variant in DRAW_GAMES:
                            kills = kt.kills(t, script) if kt is not None else None
                            ev, h, res = play_draw(t, rng, decks.next(), script, kills)
                        else:
                            kills = kt.kills(t, script) if kt is not None else None
                            if kills and script is not None and script.stacks \
                                    and any(s in script.stacks for s, _a, _d in kills):
                                script = None  # a rigged stack could not cover the kill owed
                            ev, h, res = play_hand(t, rng, script, decks.next(), kills=kills)
                        hand_id = f"sim{seed}-{i:09d}"
                        game = t.game()
                        if script is not None and script.finish(h, res, ev, t, rng, game) \
                                and script.labels:
                            injected += 1
                            for row, rule, seat, primary in script.labels:
                                labels.append((hand_id, _seq_of(ev, row), rule, seat, script.name,
                                               primary))
                        stacks_after(t, h, ev)
                        if population is not None:
                            population.hand_done(hand_id)
                        if kt is not None:
                            kt.after(t, ev)
                        ts = EPOCH_US + t.clock
                        t.clock += 45_000_000 + rng.randrange(120) * 1_000_000
                        day_no = (ts - EPOCH_US) // _DAY_US
                        day = days.get(day_no)
                        if day is None:
                            day = days[day_no] = (EPOCH + timedelta(days=day_no)).strftime(
                                "%Y-%m-%d")
                        buf.add(day, hand_id, ts, t.tid, game, ev,
                                [p.pid if p is not None else None for p in t.players])
                        events += len(ev) + 1
                        if (i + 1 - lo) % _SUB_CHUNK == 0 or i == hi - 1:
                            for partition, table in buf.tables():
                                writer.write(partition, table)
                        if progress is not None and ((i + 1) % _PROGRESS_EVERY == 0
                                                     or i + 1 == hands):
                            progress((i + 1) - (i // _PROGRESS_EVERY) * _PROGRESS_EVERY)
                    writer.commit()
                except BaseException:
                    writer.abort()
                    raise
            batches += 1
    _write_labels(root, labels)
    _write_colluders(root, teams)
    if population is not None:
        _write_colluding_hands(root, population.colluded)
        pq.write_table(pa.table({"player": list(population.kind),
                                 "type": list(population.kind.values())}),
                       root / "players.parquet", compression="zstd")
    return SimSummary(out=str(root), seed=seed, hands=hands, events=events, batches=batches,
                      injected_hands=injected, labels=len(labels), colluder_teams=len(teams),
                      seconds=time.perf_counter() - started)


def _seq_of(ev: list[list], row: list | None) -> int:
    if row is HAND_START:
        return 0  # a finding about the deal as a whole (a kill that was not posted)
    if row is None:
        return len(ev)  # the hand_ended event (award findings are reported there)
    for i, e in enumerate(ev):
        if e is row:
            return i + 1
    return len(ev)


def _check_args(variant: str, structure: str, tables: int, hands: int, violations: float,
                colluders: int) -> None:
    if variant not in (*VARIANTS, "mixed", "all"):
        raise AuditInputError(f"unknown variant {variant!r}: use one of "
                              f"{', '.join(VARIANTS)}, mixed (button games) or all (any game "
                              "per table)")
    if structure not in (*STRUCTURES, "mixed"):
        raise AuditInputError(f"unknown structure {structure!r}: use one of "
                              f"{', '.join(STRUCTURES)} or mixed")
    if tables < 1 or hands < 1:
        raise AuditInputError("--hands and --tables must be at least 1")
    if not 0 <= violations <= 1:
        raise AuditInputError(f"--violations {violations} is a rate: give 0..1, e.g. 0.05")
    if colluders and variant not in (*BUTTON_VARIANTS, "mixed", "all"):
        raise AuditInputError(f"--colluders: colluding teams play button games only; use "
                              f"--variant mixed or all instead of {variant}")
    if colluders > tables:
        raise AuditInputError(f"--colluders {colluders}: each team needs its own table; use "
                              f"--tables {colluders} or more")


def _seat_colluders(tabs: list[Table], pool: list[Player], k: int, strength: float,
                    rng: random.Random, seated: set[str], size: int = 2) -> list[dict]:
    """Seat `k` teams of `size` players, one team per table (the first member dumps chips in
    the chip_dump style, the others receive)."""
    if k and not 2 <= size <= 4:
        raise AuditInputError(f"colluder_team_size {size}: teams have 2 to 4 players")
    teams = []
    for team in range(k):
        t = tabs[team]
        if t.seat_count < 3:
            t.seat_count = 6
            t.players = [None] * 7
            t.stacks = [0] * 7
            t.out = [False] * 7
        style = COLLUSION_STYLES[team % len(COLLUSION_STYLES)]
        members = pool[size * team:size * (team + 1)]
        for i, p in enumerate(members):
            p.team, p.role = team, min(i, 1)
        seats = rng.sample(range(1, t.seat_count + 1), size)
        for p, s in zip(members, seats, strict=True):
            t.players[s] = p
            t.stacks[s] = t.buyin
            seated.add(p.pid)
        t.team_style = style
        t.team_strength = strength
        teams.append({"team_id": team, "players": [p.pid for p in members], "style": style,
                      "strength": strength, "table_id": t.tid})
    return teams


def _write_labels(root: Path, labels: list[tuple]) -> None:
    cols = list(zip(*labels, strict=True)) if labels else [[] for _ in LABEL_SCHEMA]
    table = pa.Table.from_arrays([pa.array(list(c), f.type) for c, f in
                                  zip(cols, LABEL_SCHEMA, strict=True)], schema=LABEL_SCHEMA)
    pq.write_table(table, root / "labels.parquet", compression="zstd")


def _write_colluding_hands(root: Path, rows: list[tuple[str, int, int, int]]) -> None:
    """The hands each rulebook team colluded in (hand_id, team_id), the decisions its collusion
    made there and how many of them changed the play (population.py)."""
    table = pa.Table.from_arrays([pa.array([r[i] for r in rows], f.type)
                                  for i, f in enumerate(COLLUDING_HANDS_SCHEMA)],
                                 schema=COLLUDING_HANDS_SCHEMA)
    pq.write_table(table, root / "colluding_hands.parquet", compression="zstd")


def _write_colluders(root: Path, teams: list[dict]) -> None:
    table = pa.Table.from_pylist(teams, schema=COLLUDER_SCHEMA)
    pq.write_table(table, root / "colluders.parquet", compression="zstd")
