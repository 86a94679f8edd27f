"""Pair aggregates built chunk by chunk and combined: the collusion analytics in bounded memory.

Every pair feature is a sum over pair-hands (audit/collusion/features.py `pair_table`), so the
hands can be cut into chunks — whole hands, by a hash of the hand id, or one projection file per
audit part — each chunk aggregated on its own (`partial`) and the partials added up
(`combine`): the same table as one pass over all hands (counts exactly; float sums up to
rounding). A chunk holds its pair-hand rows only while it is aggregated, so memory is bounded by
the chunk, not the store, and a new batch of hands costs one new partial.

Seating cells (player, table, time bucket) combine by union, per-player multiway counts by sum.
Pair-hand rows are still needed for a few things about the lead players only: the evidence hand
ids of the leads (`pair_rows`), the hands that leads explain away (`spoiled_table`) and the
overlapping leads judged without each other's third player. Their hands are read back once
(`HandRows`, one pass for all the players, kept in chunk-sized pieces, spilled to disk when there
are several) and every question answered from them piece by piece.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from audit.collusion import features as F

KEYS = ["player_a", "player_b"]
# bump when a pair feature changes: kept partials of another version are recomputed
PARTIAL_VERSION = 10
PARTIAL_FILE = "collusion_pairs.parquet"
# a kept partial's rows per row group: the Parquet writer encodes a whole row group at once
PARTIAL_ROW_GROUP = 20_000
ROWS_PER_CHUNK = 2_000_000  # hand_players rows per chunk (about 300,000 hands)
# ... when a run's own hands are aggregated (`chunks`' default): a chunk's player rows and its
# streamed pair sums are the aggregation's peak beside the running total; at 5,000,000 hands
# (28M rows) chunks of 1M rows took the stage's peak in aggregating from 2.5 to 2.1 GB. Each
# chunk reads only its own rows (`Split`), so more chunks cost little more (the stage 310
# CPU-s against 294, both measured at once on a loaded machine)
AGGREGATE_ROWS = 1_000_000
# rows per row group of the chunks' files (`Split`): the cut holds a row group being filled
# per chunk, so polars' default (hundreds of thousands of rows) held most of the store at
# 5,000,000 hands in 24 chunks (the cut's peak +690 MB; +370 MB with 50,000 rows)
CUT_ROW_GROUP = 50_000


@dataclass(frozen=True, slots=True)
class Partial:
    """Additive pair aggregates of some hands."""

    table: pl.DataFrame  # F.pair_table columns, one row per pair
    cells: pl.DataFrame  # F.seating cells: player, table, bucket (unique)
    rates: pl.DataFrame  # F.player_rates: player, multi_n, multi_g
    # the range model's tested pairs' spots with their fitted rates (ranges.ROW_SCHEMA), for
    # the overlap re-check of the range test; None when the events were not read
    ranged: pl.DataFrame | None = None


Chunk = tuple[pl.LazyFrame, pl.LazyFrame]


def chunks(hand_players: pl.LazyFrame, hands: pl.LazyFrame,
           rows_per_chunk: int = AGGREGATE_ROWS) -> list[Chunk] | Split:
    """Cut the projections into chunks of whole hands (by a fixed hash of the hand id): one
    chunk as it is, several as a `Split` (cut on first use, in one pass)."""
    rows = hand_players.select(pl.len()).collect().item()
    k = max(1, math.ceil(rows / rows_per_chunk))
    if k == 1:
        return [(hand_players, hands)]
    return Split(hand_players.select(F.HAND_PLAYER_COLUMNS), F.hand_columns(hands), k)


def piece_of(k: int) -> pl.Expr:
    """The chunk (0 .. k-1) of a row, by its hand id: every row of a hand in the same one."""
    return pl.col("hand_id").hash(seed=0) % k


class Split:
    """The projections (hand players, hands) cut into `k` chunks of whole hands (`piece_of`),
    in one streaming pass into Parquet files in a temporary directory the first time a chunk
    is asked for; each chunk then reads its own files only.

    Each chunk read through a filter of the hash read the whole store again (12 times over at
    5,000,000 hands): a chunk's aggregates peaked at 1.55 GB and 9.8 CPU-s that way, at 1.40 GB
    and 7.4 CPU-s from its own files, after a cut of 15 CPU-s. `close` (or dropping the
    object) removes the directory: the chunks' frames read from it, so use them before."""

    def __init__(self, hand_players: pl.LazyFrame, hands: pl.LazyFrame, k: int) -> None:
        self.hand_players, self.hands, self.k = hand_players, hands, k
        self._dir: Path | None = None
        self._cleanup: weakref.finalize | None = None

    def __len__(self) -> int:
        return self.k

    def __iter__(self) -> Iterator[Chunk]:
        return (self[i] for i in range(self.k))

    def __getitem__(self, i: int) -> Chunk:
        if not 0 <= i < self.k:
            raise IndexError(i)
        if not hasattr(pl, "PartitionBy"):  # a polars without partitioned sinks: filtered
            inside = piece_of(self.k) == i
            return self.hand_players.filter(inside), self.hands.filter(inside)
        d = self._cut()

        def part(name: str, frame: pl.LazyFrame) -> pl.LazyFrame:
            files = sorted((d / name / f"_piece={i}").glob("*.parquet"))
            return pl.scan_parquet(files) if files else frame.clear()

        return part("hand_players", self.hand_players), part("hands", self.hands)

    def _cut(self) -> Path:
        if self._dir is None:
            d = Path(tempfile.mkdtemp(prefix="poker-audit-chunks-"))
            self._cleanup = weakref.finalize(self, shutil.rmtree, d, True)
            for name, frame in (("hand_players", self.hand_players), ("hands", self.hands)):
                frame.with_columns(_piece=piece_of(self.k)).sink_parquet(
                    pl.PartitionBy(d / name, key="_piece", include_key=False),
                    compression="lz4", row_group_size=CUT_ROW_GROUP, mkdir=True)
            self._dir = d
        return self._dir

    def close(self) -> None:
        """Remove the chunks' files (cut again if a chunk is asked for after this)."""
        if self._cleanup is not None:
            self._cleanup()
        self._dir, self._cleanup = None, None


def partial(hand_players: pl.LazyFrame, hands: pl.LazyFrame, seat_bucket: str = "1d") -> Partial:
    """The pair aggregates of one chunk of whole hands."""
    # the columns the pair features, seating and rates read, not the hole cards and the
    # rest: the chunk's player rows are most of what a chunk holds besides its pairs
    ph = F.player_hands(hand_players, hands).select(F.PAIR_INPUT).collect().lazy()
    cells, _ = F.seating(ph, seat_bucket)
    # streamed: the pair-hand rows (a chunk's ~20 per hand, ~50 columns) are summed batch by
    # batch, never held whole (a chunk of 2M player rows at 5,000,000 hands peaked at 1.4 to
    # 3.3 GB in memory, 7.4-12.2 CPU-s; streamed at 1.4 GB, 6.2-6.7 CPU-s). Counts the same;
    # float sums in another order, equal up to rounding.
    return Partial(table=F.pair_table(F.pair_hands(ph)).collect(engine="streaming"),
                   cells=cells.collect(), rates=F.player_rates(ph).collect())


def combine(parts: Iterable[Partial]) -> Partial:
    """The aggregates of all the partials' hands together, added up as they arrive.

    Each chunk of a big room holds most of the room's pairs (a pair's hands fall in every
    chunk), so the chunks' tables kept until the end and concatenated took 10 GB at 5,000,000
    hands of 50 rooms (1.9M pairs, a chunk ~300,000 hands); a running total keeps one table and
    the chunk at hand. Float columns are the same terms added in another grouping: they differ
    in the last bits, as they already did from one run to the next (polars sums in parallel).
    The running total keeps its counts as narrow as their sums (`_add_into`); the table
    returned has the partials' column types."""
    total: Partial | None = None
    schema: pl.Schema | None = None
    for part in parts:
        if total is None:
            total, schema = part, part.table.schema
        else:
            # the running table handed over as its columns, and nothing else holding it: each
            # column is let go as its sum is made (`_add_into`)
            columns, cells, rates = total.table.get_columns(), total.cells, total.rates
            del total
            total = Partial(
                table=_add_into(columns, part.table, narrow=True),
                cells=pl.concat([cells, part.cells]).unique(maintain_order=True),
                rates=pl.concat([rates, part.rates]).group_by("player", maintain_order=True)
                .agg(pl.all().sum()),
            )
        # added: let it go before the next chunk is aggregated (bound here, it was a chunk's
        # pair table more while the next chunk's pair-hand rows were built)
        del part
    if total is None or schema is None:
        raise ValueError("combine needs at least one partial")
    columns, cells, rates = total.table.get_columns(), total.cells, total.rates
    del total
    return Partial(table=_sorted_into(columns, schema), cells=cells, rates=rates)


def _sorted_into(columns: list[pl.Series], schema: pl.Schema | None = None) -> pl.DataFrame:
    """The table of `columns` sorted by KEYS, column by column (the list is emptied), each
    column cast to its type in `schema` when given; as it is when it is sorted already.
    `DataFrame.sort` made the sorted table beside the unsorted one, and `combine` sorted once
    per run and once more for the run chain's total (already sorted): a second running table
    (526 MB at 5,000,000 hands) at the aggregation's end, its peak (1.90 GB RSS, 1.31 GB
    column by column)."""
    table = pl.DataFrame(columns)
    order = table.select(pl.arg_sort_by(KEYS))[:, 0]
    in_order = order.is_sorted()  # a permutation in order: the identity
    del table
    out = []
    for i, column in enumerate(columns):
        columns[i] = pl.Series()  # let go as its sorted copy is made
        if not in_order:
            column = column.gather(order)
        if schema is not None and column.dtype != schema[column.name]:
            column = column.cast(schema[column.name])
        out.append(column)
        del column
    columns.clear()
    return pl.DataFrame(out)


def _add(total: pl.DataFrame, part: pl.DataFrame) -> pl.DataFrame:
    """`_added([total, part])` of two tables of unique pairs (`_add_into` of total's columns)."""
    return _add_into(total.get_columns(), part)


# The narrowest unsigned type a count is kept in while it is summed (`_add_into`)
_NARROW = (pl.UInt16, pl.UInt32, pl.UInt64)


def _add_into(columns: list[pl.Series], part: pl.DataFrame, narrow: bool = False
              ) -> pl.DataFrame:
    """`_added([total, part])` of two tables of unique pairs, total given as its `columns`
    (the list is emptied): the same rows in the same order (total's pairs, then those new in
    part, in part's order), and the same sums (each one the two terms added, as the group-by
    added them), column by column. The group-by over both held the two tables, their
    concatenation and its groups: the peak of aggregating 5,000,000 hands (1.9M pairs; 3.9 GB
    with a 300,000-hand chunk). Each of total's columns is let go as its sum is made (when
    nothing else holds it): made beside the whole of total, the sums were a second running
    table at the end (560 MB).

    Each of part's pairs is found in total by a number per pair (the two players' places
    among the names, `_pair_codes`) looked up in total's sorted: a join on the two names
    built its own copy of both tables' keys and a hash table over total's (the aggregation's
    peak at 5,000,000 hands, 2.26 GB RSS, 0.17 GB over the sums made after it).

    `narrow`: an unsigned count column comes back in the narrowest of `_NARROW` that holds its
    largest sum (most of a big room's pairs share fewer than 65,536 hands: UInt16, half the
    bytes; a column of total that may not hold its sums with part's, by the two maxima, is
    widened first). The caller casts the result back (`combine`)."""
    total = pl.DataFrame(columns)
    cols = [c for c in total.columns if c not in KEYS]
    if (total.columns != part.columns
            or any(not _same_kind(total.schema[c], part.schema[c]) for c in total.columns)
            or any(total[c].null_count() or part[c].null_count() for c in cols)):
        columns.clear()
        return _added([total.cast(part.schema), part])
    del total  # from here on total's columns are held by the list only
    at = _rows_in(columns, part)
    known = at >= 0
    rows = at[known]
    new = pl.Series(~known)
    del at
    summed = []
    for i, column in enumerate(columns):
        c = column.name
        if c in KEYS:
            summed.append(column)
            continue
        columns[i] = pl.Series()  # total's column let go (once copied below)
        add = part[c].filter(~new).to_numpy()
        values = column.to_numpy()
        if (values.dtype.kind == "u" and add.dtype.kind == "u"
                and values.dtype.itemsize < add.dtype.itemsize
                and int(column.max() or 0) + int(add.max(initial=0)) > np.iinfo(values.dtype).max):
            values = values.astype(add.dtype)  # the sums may not fit: widened first
        else:
            values = values.copy()
        del column
        values[rows] += add
        del add
        out = pl.Series(c, values)
        del values
        dtype = part.schema[c]
        if narrow and dtype in _NARROW:  # (its new pairs' counts too: the tail below)
            top = max(int(out.max() or 0), int(part[c].max() or 0))  # type: ignore[arg-type]
            dtype = next(t for t in _NARROW if top <= _MAX[t])
        summed.append(out.cast(dtype) if out.dtype != dtype else out)
        del out
    columns.clear()
    head = pl.DataFrame(summed)
    del summed
    tail = part.filter(new).cast(head.schema)
    return pl.concat([head, tail])


_MAX = {pl.UInt16: 2**16 - 1, pl.UInt32: 2**32 - 1, pl.UInt64: 2**64 - 1}


def _same_kind(a: pl.DataType, b: pl.DataType) -> bool:
    return a == b or (a in _NARROW and b in _NARROW)


def _pair_codes(a: pl.Series, b: pl.Series, names: pl.Series) -> np.ndarray:
    """A number per pair: the two players' places among the sorted `names`, in one uint64."""
    code_a = names.search_sorted(a).to_numpy().astype(np.uint64)
    code_b = names.search_sorted(b).to_numpy().astype(np.uint64)
    return (code_a << np.uint64(32)) | code_b


def _rows_in(columns: list[pl.Series], part: pl.DataFrame) -> np.ndarray:
    """Per row of part, the row of its pair in the table of `columns` (-1: none)."""
    by = {c.name: c for c in columns if c.name in KEYS}
    names = pl.concat([by["player_a"], by["player_b"], part["player_a"], part["player_b"]]
                      ).unique().sort()
    have = _pair_codes(by["player_a"], by["player_b"], names)
    want = _pair_codes(part["player_a"], part["player_b"], names)
    del by, names
    if have.size == 0:
        return np.full(want.size, -1, dtype=np.int64)
    order = np.argsort(have, kind="stable")
    have = have[order]
    at = np.minimum(np.searchsorted(have, want), have.size - 1)
    found = have[at] == want
    return np.where(found, order[at], -1)


def _added(tables: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(tables).group_by(KEYS, maintain_order=True).agg(pl.all().sum())


def sum_tables(tables: list[pl.DataFrame]) -> pl.DataFrame:
    """Pair tables added up pair by pair."""
    return _added(tables).sort(KEYS)


def subtract(table: pl.DataFrame, minus: pl.DataFrame) -> pl.DataFrame:
    """`table` less the counts of `minus` (pairs absent from `minus` unchanged, and so are the
    columns `minus` does not have: counts joined from elsewhere, leads.with_streets)."""
    if minus.width == 0:
        return table
    # each pair's row of `minus` (null: none), then column by column: the table joined with
    # `minus` whole was twice a big room's pair table at once
    at = table.select(KEYS).join(minus.select(KEYS).with_row_index("_m"), on=KEYS, how="left",
                                 maintain_order="left")["_m"]
    return table.select(*KEYS, *[
        (table[c] - minus[c].gather(at).fill_null(0)).cast(table.schema[c]).alias(c)
        if c in minus.columns else table[c] for c in table.columns if c not in KEYS])


def aggregate(parts: Iterable[Chunk], seat_bucket: str = "1d") -> Partial:
    """Aggregate chunk by chunk and combine."""
    return combine(partial(hp, h, seat_bucket) for hp, h in parts)


class HandRows:
    """The `player_hands` rows of the hands in which given players sat, built chunk by chunk
    once and kept for one ranking.

    Explaining away (its rounds), the overlap re-check and the evidence all go back to the hands
    of the same few lead players, and building these rows (reading the projections, per-hand
    flags, starting-hand strength) is most of what going back costs: built once per player, not
    once per question. The rows are kept in `pieces` of whole hands (by the hash of the hand id
    that `chunks` cuts by) and every question is answered piece by piece, so memory is bounded
    by a piece, not the store: the lead candidates may sit in most of a store's hands (in all
    of them on the 10M-hand scaled store, copies of one population), and their rows built and
    kept together (in the pair-hand input columns only, features.PAIR_INPUT) took over 12 GB.

    `spill` (default: when there is more than one piece) keeps the pieces in Parquet files in a
    temporary directory instead of in memory, and cuts the projections into pieces there in one
    streaming pass first (rather than one filtered read of the whole store per piece). `close`
    (or leaving a `with` block, or dropping the object) removes the directory.

    `split`: these projections cut already (the `Split` their aggregates were made from, `chunks`),
    its chunks the pieces (spilled): the store is not cut a second time into the same pieces
    (at 5,000,000 hands a pass of 15-17 CPU-s and its buffers, +370 to +510 MB). It is the
    rows' own from then on: `close` removes its files.
    """

    def __init__(self, hand_players: pl.LazyFrame, hands: pl.LazyFrame, pieces: int = 1,
                 spill: bool | None = None, split: Split | None = None) -> None:
        if split is not None:
            pieces, spill = len(split), True
        self.hand_players, self.hands, self.pieces = hand_players, hands, max(1, pieces)
        self.spill = self.pieces > 1 if spill is None else spill
        self._covered: set[str] = set()
        self._rows: list[list[pl.DataFrame | Path]] = [[] for _ in range(self.pieces)]
        self._dir: Path | None = None
        self._split = split  # the projections cut into pieces (when spilling)
        self._cleanup: weakref.finalize | None = None
        self.spoiled: dict[frozenset[str], pl.DataFrame] = {}  # spoiled_table's, by members

    def __enter__(self) -> HandRows:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the spilled pieces (the rows are built again if asked for after this)."""
        if self._cleanup is not None:
            self._cleanup()
        if self._split is not None:
            self._split.close()
        self._dir, self._split, self._cleanup = None, None, None
        self._covered.clear()
        self._rows = [[] for _ in range(self.pieces)]

    def _workdir(self) -> Path:
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix="poker-audit-handrows-"))
            self._cleanup = weakref.finalize(self, shutil.rmtree, self._dir, True)
        return self._dir

    def _source(self, i: int) -> tuple[pl.LazyFrame, pl.LazyFrame]:
        """The projections' rows of piece `i` (hand players, hands), as scans."""
        hp = self.hand_players.select(F.HAND_PLAYER_COLUMNS)
        hands = F.hand_columns(self.hands)
        if self.pieces == 1:
            return hp, hands
        if self.spill:
            split = self.cut()
            assert split is not None
            return split[i]
        inside = piece_of(self.pieces) == i
        return hp.filter(inside), hands.filter(inside)

    def cut(self) -> Split | None:
        """When spilling, the projections cut into the pieces (the first time: one streaming
        pass, whose buffers take hundreds of MB for a while: `pair_scores` cuts before the
        scoring, not beside what the scoring leaves)."""
        if not self.spill:
            return None
        if self._split is None:
            self._split = Split(self.hand_players.select(F.HAND_PLAYER_COLUMNS),
                                F.hand_columns(self.hands), self.pieces)
        self._split._cut()
        return self._split

    def cover(self, players: Iterable[str]) -> None:
        """Build the rows of these players' hands now: one pass over the projections for all of
        them (rather than one per question that adds a player), piece by piece."""
        wanted = {p for p in players if p is not None}
        new = wanted - self._covered
        if not new:
            return
        fresh = pl.Series(sorted(new), dtype=pl.String).implode()
        known = pl.Series(sorted(self._covered), dtype=pl.String).implode()
        for i in range(self.pieces):
            hp, hands = self._source(i)
            # the hands of the new players not kept already for another player, then their
            # rows: a piece's player rows read twice, never held (held, a piece's 1.2M rows were
            # explaining away's peak at 5,000,000 hands; the rows kept are a twentieth of them)
            ids = (hp.filter(pl.col("player").is_in(fresh) | pl.col("player").is_in(known))
                   .group_by("hand_id").agg(new=pl.col("player").is_in(fresh).any(),
                                            old=pl.col("player").is_in(known).any())
                   .filter(pl.col("new") & ~pl.col("old")).select("hand_id").collect())
            if ids.height == 0:
                continue
            inside = pl.col("hand_id").is_in(ids["hand_id"].implode())  # (read with the scan)
            rows = (F.player_hands(hp.filter(inside), hands.filter(inside))
                    .select(F.PAIR_INPUT).collect())
            if rows.height == 0:
                continue
            if self.spill:
                path = self._workdir() / f"rows-{i}-{len(self._rows[i])}.parquet"
                rows.write_parquet(path, compression="lz4")
                self._rows[i].append(path)
            else:
                self._rows[i].append(rows)
        self._covered |= new

    def _piece(self, i: int) -> pl.DataFrame | None:
        kept = self._rows[i]
        if not kept:
            return None
        frames = [pl.read_parquet(x) if isinstance(x, Path) else x for x in kept]
        return frames[0] if len(frames) == 1 else pl.concat(frames)

    def player_hands(self, players: Iterable[str], *,
                     others: bool = False) -> Iterator[pl.DataFrame]:
        """Piece by piece, the rows of the hands in which one of `players` sat (one piece in
        memory at a time: reduce each before asking for the next); `others`: and the other
        hands kept, for callers that pick their players' rows themselves (picking the hands
        first costs more than the pair rows of a few pairs)."""
        wanted = {p for p in players if p is not None}
        self.cover(wanted)
        everyone = others or wanted >= self._covered  # every hand kept is one of theirs
        them = pl.Series(sorted(wanted), dtype=pl.String).implode()
        for i in range(self.pieces):
            rows = self._piece(i)
            if rows is None:
                continue
            if not everyone:
                ids = rows.filter(pl.col("player").is_in(them)).select("hand_id").unique()
                rows = rows.join(ids, on="hand_id", how="semi")
            yield rows


def pair_rows(rows: HandRows, wanted: pl.DataFrame,
              reduce: Callable[[pl.DataFrame], pl.DataFrame] | None = None) -> pl.DataFrame:
    """The pair-hand rows of the `wanted` pairs (columns player_a, player_b), chunk by chunk;
    with `reduce`, only what it keeps of each chunk's rows (the rows of all the chunks together
    can be store-sized: a lead pair of a 10M-hand store shares hundreds of thousands of hands)."""
    wanted = wanted.select(KEYS).unique()
    players = pl.concat([wanted["player_a"], wanted["player_b"]]).unique()
    out = []
    for ph in rows.player_hands(players.to_list(), others=True):
        piece = F.pair_hands(ph.lazy(), wanted).collect()
        out.append(piece if reduce is None else reduce(piece))
    return pl.concat(out) if out else pl.DataFrame()


def spoiled_table(rows: HandRows, members: pl.Series, skip: pl.DataFrame) -> pl.DataFrame:
    """Pair aggregates over the hands that a player of `members` who is not one of the pair
    entered voluntarily (put money in the pot of his own choice, `vpip`; pairs in `skip` left
    out): what `table` loses when those hands are set aside.

    Entered, not merely sat: a team acts on a hand by playing it, and at a fixed table where
    the team sits every hand, setting aside every hand it sat in left its neighbours nothing to
    be judged on (p = 1 for all of them, a real team among them included).

    Which hands a pair loses depends on the members only, so the table of all pairs is kept
    per set of members (explaining away's rounds often keep the same players) and `skip` taken
    out of it."""
    key = frozenset(members.to_list())
    if key not in rows.spoiled:
        tables = []
        them = members.implode()
        for ph in rows.player_hands(key):
            # members who entered the hand, counted on the player rows (not the many more pair
            # rows)
            counted = ph.lazy().with_columns(
                n_lead=(pl.col("player").is_in(them) & pl.col("vpip").fill_null(False))
                .cast(pl.UInt32).sum().over("hand_id"))
            spoiled = (F.pair_hands(counted, carry=("n_lead",))
                       .filter(pl.col("n_lead")
                               - (pl.col("player_a").is_in(them) & pl.col("vpip_a")
                                  .fill_null(False)).cast(pl.UInt32)
                               - (pl.col("player_b").is_in(them) & pl.col("vpip_b")
                                  .fill_null(False)).cast(pl.UInt32) > 0)
                       .drop("n_lead"))
            tables.append(F.pair_table(spoiled).collect())
        rows.spoiled[key] = sum_tables(tables) if tables else pl.DataFrame()
    table = rows.spoiled[key]
    if table.width == 0:
        return table
    return table.join(skip.select(KEYS), on=KEYS, how="anti").sort(KEYS)


def without_table(rows: HandRows, jobs: pl.DataFrame) -> pl.DataFrame:
    """Per job (columns job, player_a, player_b, absent): the pair aggregates (`pair_table`,
    by job) of the pair's hands that the job's `absent` player did not enter voluntarily
    (`vpip`; see `spoiled_table`), added up chunk by chunk (a hand and everyone in it are in one
    chunk)."""
    wanted = jobs.select(KEYS).unique()
    inside = pl.concat([wanted["player_a"], wanted["player_b"]]).unique().to_list()
    away = jobs["absent"].unique().implode()
    tables = []
    for ph in rows.player_hands(inside, others=True):
        own = F.pair_hands(ph.lazy(), wanted)
        entered = (ph.lazy().filter(pl.col("player").is_in(away) & pl.col("vpip"))
                   .select("hand_id", absent=pl.col("player")).unique())
        left = (own.join(jobs.lazy(), on=KEYS)
                .join(entered, on=["hand_id", "absent"], how="anti"))
        tables.append(F.pair_table(left, by=("job",)).collect())
    tables = [t for t in tables if t.height]
    if not tables:
        return pl.DataFrame()
    return (pl.concat(tables).group_by("job", *KEYS, maintain_order=True).agg(pl.all().sum())
            .sort("job"))


def iter_partials(parts: Iterable[Chunk], seat_bucket: str = "1d") -> Iterator[Partial]:
    """One partial per chunk (for callers that keep partials across runs)."""
    for hp, h in parts:
        yield partial(hp, h, seat_bucket)


def _stamp(seat_bucket: str) -> str:
    return json.dumps({"version": PARTIAL_VERSION, "seat_bucket": seat_bucket}, sort_keys=True)


def save_partial(path: Path, part: Partial, seat_bucket: str) -> None:
    """Write a partial (three tables in one Parquet file, in row groups of PARTIAL_ROW_GROUP
    rows) atomically, stamped with PARTIAL_VERSION and the seating bucket.

    Written kind by kind into one schema: the three concatenated first were a copy of the pair
    table (5,000,000 hands: 1.9M pairs, ~600 MB) beside it, right after the aggregation."""
    kinds = (("pairs", part.table), ("cells", part.cells), ("rates", part.rates))
    schema = (pl.concat([frame.clear().with_columns(kind=pl.lit(name)) for name, frame in kinds],
                        how="diagonal_relaxed").to_arrow().schema
              .with_metadata({"poker_audit_partial": _stamp(seat_bucket)}))
    tmp = path.with_name(f".{path.name}.tmp")
    with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
        for name, frame in kinds:
            table = frame.with_columns(kind=pl.lit(name)).to_arrow()
            writer.write_table(pa.table(
                [table[f.name].cast(f.type) if f.name in table.column_names
                 else pa.nulls(table.num_rows, f.type) for f in schema],
                schema=schema), row_group_size=PARTIAL_ROW_GROUP)
            del table
    os.replace(tmp, path)


def load_partial(path: Path, seat_bucket: str) -> Partial | None:
    """The partial kept at `path`, or None when absent, unreadable or of another version."""
    try:
        table = pq.read_table(path)
    except (OSError, ValueError):
        return None
    meta = table.schema.metadata or {}
    if meta.get(b"poker_audit_partial", b"").decode() != _stamp(seat_bucket):
        return None
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)

    def kind(name: str, columns: list[str]) -> pl.DataFrame:
        return frame.filter(pl.col("kind") == name).select(columns)

    pair_cols = [c for c in frame.columns if c not in ("kind", "player", "table", "bucket",
                                                        *F.RATE_COLUMNS)]
    return Partial(table=kind("pairs", pair_cols),
                   cells=kind("cells", ["player", "table", "bucket"]),
                   rates=kind("rates", ["player", *F.RATE_COLUMNS]))
