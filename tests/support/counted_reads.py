"""A lazy frame that counts its reads: how many times the collusion stage reads an event file."""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl
from polars.io.plugins import register_io_source


def counted_reads(frame: pl.DataFrame) -> tuple[pl.LazyFrame, list[int]]:
    """`frame` as a lazy source that notes each time it is read (as an event file is)."""
    reads: list[int] = []

    def source(with_columns: list[str] | None, predicate: pl.Expr | None, n_rows: int | None,
               batch_size: int | None) -> Iterator[pl.DataFrame]:
        reads.append(1)
        yield frame if with_columns is None else frame.select(with_columns)

    return register_io_source(source, schema=frame.schema), reads
