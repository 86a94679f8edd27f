"""Pair aggregates built chunk by chunk and combined: the collusion analytics in bounded memory.

Every pair feature is a sum over pair-hands (audit/collusion/features.py `pair_table`), so the
hands can be cut into chunks — whole hands, by a hash of the hand id, or one projection file per
audit part — each chunk aggregated on its own (`partial`) and the partials added up
(`combine`): the same table as one pass over all hands (counts exactly; float sums up to
rounding). A chunk holds its pair-hand rows only while it is aggregated, so memory is bounded by
the chunk, not the store, and a new batch of hands costs one new partial.

Seating cells (player, table, time bucket) combine by union, per-player multiway counts by sum.
Pair-hand rows are still needed for two small things, and are read back chunk by chunk for
just the pairs or hands concerned: the evidence hand ids of the leads (`pair_rows`), and the
hands that leads explain away (`spoiled_table`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from audit.collusion import features as F

KEYS = ["player_a", "player_b"]
# bump when a pair feature changes: kept partials of another version are recomputed
PARTIAL_VERSION = 2
PARTIAL_FILE = "collusion_pairs.parquet"
ROWS_PER_CHUNK = 2_000_000  # hand_players rows per chunk (about 300,000 hands)


@dataclass(frozen=True, slots=True)
class Partial:
    """Additive pair aggregates of some hands."""

    table: pl.DataFrame  # F.pair_table columns, one row per pair
    cells: pl.DataFrame  # F.seating cells: player, table, bucket (unique)
    rates: pl.DataFrame  # F.player_rates: player, multi_n, multi_g


Chunk = tuple[pl.LazyFrame, pl.LazyFrame]


def chunks(hand_players: pl.LazyFrame, hands: pl.LazyFrame,
           rows_per_chunk: int = ROWS_PER_CHUNK) -> list[Chunk]:
    """Cut the projections into chunks of whole hands (by a fixed hash of the hand id)."""
    rows = hand_players.select(pl.len()).collect().item()
    k = max(1, math.ceil(rows / rows_per_chunk))
    if k == 1:
        return [(hand_players, hands)]
    part = pl.col("hand_id").hash(seed=0) % k
    return [(hand_players.filter(part == i), hands.filter(part == i)) for i in range(k)]


def partial(hand_players: pl.LazyFrame, hands: pl.LazyFrame, seat_bucket: str = "1d") -> Partial:
    """The pair aggregates of one chunk of whole hands."""
    ph = F.player_hands(hand_players, hands).collect().lazy()
    cells, _ = F.seating(ph, seat_bucket)
    return Partial(table=F.pair_table(F.pair_hands(ph)).collect(), cells=cells.collect(),
                   rates=F.player_rates(ph).collect())


def combine(parts: Iterable[Partial]) -> Partial:
    """The aggregates of all the partials' hands together."""
    parts = list(parts)
    return Partial(
        table=sum_tables([p.table for p in parts]),
        cells=pl.concat([p.cells for p in parts]).unique(maintain_order=True),
        rates=pl.concat([p.rates for p in parts]).group_by("player", maintain_order=True)
        .agg(pl.all().sum()),
    )


def sum_tables(tables: list[pl.DataFrame]) -> pl.DataFrame:
    """Pair tables added up pair by pair."""
    return (pl.concat(tables).group_by(KEYS, maintain_order=True).agg(pl.all().sum())
            .sort(KEYS))


def subtract(table: pl.DataFrame, minus: pl.DataFrame) -> pl.DataFrame:
    """`table` less the counts of `minus` (pairs absent from `minus` unchanged)."""
    cols = [c for c in table.columns if c not in KEYS]
    joined = table.join(minus, on=KEYS, how="left", suffix="__minus")
    return joined.select(*KEYS, *[
        (pl.col(c) - pl.col(f"{c}__minus").fill_null(0)).cast(table.schema[c]).alias(c)
        for c in cols])


def aggregate(parts: Iterable[Chunk], seat_bucket: str = "1d") -> Partial:
    """Aggregate chunk by chunk and combine."""
    return combine(partial(hp, h, seat_bucket) for hp, h in parts)


def _pair_rows(chunk: Chunk, players: pl.Series | None) -> pl.LazyFrame:
    hp, hands = chunk
    if players is not None:
        # only the hands in which one of these players sat
        with_them = hp.filter(pl.col("player").is_in(players.implode())).select("hand_id")
        hp = hp.join(with_them.unique(), on="hand_id", how="semi")
    return F.pair_hands(F.player_hands(hp, hands))


def pair_rows(parts: Iterable[Chunk], wanted: pl.DataFrame) -> pl.DataFrame:
    """The pair-hand rows of the `wanted` pairs (columns player_a, player_b), chunk by chunk."""
    wanted = wanted.select(KEYS).unique()
    players = pl.concat([wanted["player_a"], wanted["player_b"]]).unique()
    out = [_pair_rows(c, players).join(wanted.lazy(), on=KEYS, how="semi").collect()
           for c in parts]
    return pl.concat(out) if out else pl.DataFrame()


def spoiled_table(parts: Iterable[Chunk], members: pl.Series,
                  skip: pl.DataFrame) -> pl.DataFrame:
    """Pair aggregates over the hands in which a player of `members` sat who is not one of the
    pair (pairs in `skip` left out): what `table` loses when those hands are set aside."""
    tables = []
    for hp, hands in parts:
        lead_here = (hp.filter(pl.col("player").is_in(members.implode()))
                     .group_by("hand_id").agg(n_lead=pl.len()))
        rows = (_pair_rows((hp, hands), members).join(skip.lazy(), on=KEYS, how="anti")
                .join(lead_here, on="hand_id", how="left")
                .filter(pl.col("n_lead").fill_null(0)
                        - pl.col("player_a").is_in(members.implode()).cast(pl.UInt32)
                        - pl.col("player_b").is_in(members.implode()).cast(pl.UInt32) > 0)
                .drop("n_lead"))
        tables.append(F.pair_table(rows).collect())
    return sum_tables(tables) if tables else pl.DataFrame()


def iter_partials(parts: Iterable[Chunk], seat_bucket: str = "1d") -> Iterator[Partial]:
    """One partial per chunk (for callers that keep partials across runs)."""
    for hp, h in parts:
        yield partial(hp, h, seat_bucket)


def _stamp(seat_bucket: str) -> str:
    return json.dumps({"version": PARTIAL_VERSION, "seat_bucket": seat_bucket}, sort_keys=True)


def save_partial(path: Path, part: Partial, seat_bucket: str) -> None:
    """Write a partial (three tables in one Parquet file, one row group each kind) atomically,
    stamped with PARTIAL_VERSION and the seating bucket."""
    frame = pl.concat([
        part.table.with_columns(kind=pl.lit("pairs")),
        part.cells.with_columns(kind=pl.lit("cells")),
        part.rates.with_columns(kind=pl.lit("rates")),
    ], how="diagonal_relaxed")
    table = frame.to_arrow()
    table = table.replace_schema_metadata({"poker_audit_partial": _stamp(seat_bucket)})
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp, compression="zstd")
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
                                                        "multi_n", "multi_g")]
    return Partial(table=kind("pairs", pair_cols),
                   cells=kind("cells", ["player", "table", "bucket"]),
                   rates=kind("rates", ["player", "multi_n", "multi_g"]))
