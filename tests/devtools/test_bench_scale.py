"""`poker-audit bench --scale`: the scaled store holds exactly the hands asked for, each copy
a room of its own (fresh hands, players and tables), and the report carries time, throughput,
peak memory, scaling and capacity."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from audit.devtools.bench_scale import _tree_rss, bench_scale, build_scaled_store


def test_scaled_store_holds_the_hands_asked_for(tmp_path: Path) -> None:
    store = build_scaled_store(tmp_path, 2_500, base_hands=1_000, echo=lambda _: None)
    ids = pc.unique(pa.concat_arrays([
        pq.read_table(f, columns=["hand_id"]).column("hand_id").combine_chunks()
        for f in store.event_files()]))
    assert len(ids) == 2_500
    assert {i.as_py().rsplit("~", 1)[1] for i in ids} == {"0", "1", "2"}
    assert len(store.records()) == 3  # one committed batch per copy


def test_each_copy_of_the_scaled_store_is_new_players_at_new_tables(tmp_path: Path) -> None:
    """The same players copied would give each pair copies times one room's history: the
    collusion figures of `--scale` would be measured on histories no room has."""
    import polars as pl

    store = build_scaled_store(tmp_path, 2_000, base_hands=1_000, echo=lambda _: None)
    rows = pl.concat([pl.read_parquet(f, columns=["hand_id", "player", "table_id"])
                      for f in store.event_files()])
    copy = rows.with_columns(k=pl.col("hand_id").str.extract(r"~(\d+)$"))
    for column in ("player", "table_id"):
        named = copy.drop_nulls(column)
        assert (named[column].str.extract(r"~(\d+)$") == named["k"]).all(), column
        per_copy = named.group_by("k").agg(pl.col(column).n_unique())[column].to_list()
        assert named[column].n_unique() == sum(per_copy), column  # no name in two copies
    # the board's deal and the rake name no player in a copy either
    assert copy.filter(pl.col("k") == "0")["player"].null_count() == \
        copy.filter(pl.col("k") == "1")["player"].null_count()


@pytest.mark.slow
def test_scale_report(tmp_path: Path) -> None:
    result = bench_scale(1_500, tmp_path, echo=lambda _: None)
    assert result["hands"] == 1_500
    for n in ("in-process", "1", "2"):
        run = result["runs"][n]
        assert run["seconds"] > 0 and run["hands_per_second"] > 0
        assert run["peak_rss_bytes"] > 50_000_000  # at least this interpreter's own
    assert result["scaling_2_workers"] > 0
    # two busy loops on two cores do between one and two loops' work (noise aside)
    assert 0.8 < result["machine_ceiling_2_processes"] < 2.5
    assert result["collusion"]["hand_players_rows"] > 1_500
    capacity = result["capacity"]
    assert capacity["cores_for_1b_hands_per_day"] == round(
        1e9 / (capacity["hands_per_core_second"] * 86_400), 1)


def test_tree_memory_counts_this_process() -> None:
    assert _tree_rss(__import__("os").getpid()) > 10_000_000


@pytest.mark.slow
def test_each_audit_is_measured_in_its_own_process_and_a_failure_is_a_clean_error(
        tmp_path: Path) -> None:
    import os

    import pytest

    from audit.devtools.bench_scale import _audit_in_fresh_process
    from audit.errors import AuditInputError

    store = build_scaled_store(tmp_path, 300, base_hands=300, echo=lambda _: None)
    run = _audit_in_fresh_process(store.root, 1, False)
    assert run["hands"] == 300 and run["run_id"]
    assert run["pid"] != os.getpid()
    not_a_store = tmp_path / "file"
    not_a_store.write_text("x")
    with pytest.raises(AuditInputError, match="bench --scale"):
        _audit_in_fresh_process(not_a_store, 1, False)
