"""Output files and odd store paths (issue 19 items 10, 11 and 12).

`sql-init`, `report --out`, `export --out` and `prove --out` refuse any output path inside the
store (resolved, symlinks followed) with one line and exit code 2, leaving the store
byte-identical; a write that fails (a full disk) leaves no `.tmp` file and no half-written
output. `query` prints a BLOB at any depth in every format, and `query` and `sql-init` work on
a store whose path holds glob characters, quotes or a newline.
"""

from __future__ import annotations

import errno
import hashlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from click.testing import CliRunner

import audit.sql.sqlinit as sqlinit
from audit.cli.main import main
from audit.cli.output import render
from audit.devtools.attacks_sql import output_command
from audit.devtools.reliability import _build_store
from audit.run.runner import audit_store
from audit.sql.query import query
from audit.store.dataset import Store


def build(root: Path) -> Store:
    store = _build_store(root)
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return store


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return build(tmp_path_factory.mktemp("outputs"))


@pytest.fixture
def store(pristine: Store, tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A fresh copy per test: a write that got through cannot hide the next one's result."""
    copy = Store(tmp_path_factory.mktemp("copy") / "store")
    shutil.copytree(pristine.root, copy.root)
    return copy


@pytest.fixture(scope="module")
def hand_id(pristine: Store) -> str:
    return query(pristine, "SELECT min(hand_id) AS h FROM events").column("h")[0].as_py()


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


command = output_command  # the attack suite's own command lines


COMMANDS = ("sql-init", "report", "export", "prove")


def inside(store: Store, tmp_path: Path) -> dict[str, Path]:
    """Paths that lead into the store, plainly or through a symlink."""
    link_dir = tmp_path / "link-to-store"
    link_dir.symlink_to(store.root, target_is_directory=True)
    link_file = tmp_path / "link-to-manifest"
    link_file.symlink_to(store.root / "manifest.jsonl")
    dangling = tmp_path / "link-to-new-store-file"
    dangling.symlink_to(store.root / "new.html")
    return {
        "manifest": store.root / "manifest.jsonl",
        "new file": store.root / "new.html",
        "run file": next(store.root.glob("runs/*/run.json")),
        "dotted": store.root / "events" / ".." / "manifest.jsonl",
        "through a linked dir": link_dir / "manifest.jsonl",
        "a symlink to the manifest": link_file,
        "a dangling symlink into the store": dangling,
    }


@pytest.mark.parametrize("name", COMMANDS)
def test_output_inside_the_store_is_refused(store: Store, hand_id: str, name: str,
                                            tmp_path: Path) -> None:
    before = snapshot(store.root)
    for what, out in inside(store, tmp_path).items():
        result = CliRunner().invoke(main, command(name, store, out, hand_id))
        assert result.exit_code == 2, (what, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "inside the store" in lines[0], (what, result.output)
        assert snapshot(store.root) == before, what
    assert store.verify().ok


@pytest.mark.parametrize("name", COMMANDS)
def test_output_outside_the_store_is_written(store: Store, hand_id: str, name: str,
                                             tmp_path: Path) -> None:
    out = tmp_path / f"out-{name}"
    result = CliRunner().invoke(main, command(name, store, out, hand_id))
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 0
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.parametrize("name", COMMANDS)
def test_a_hard_link_to_a_store_file_is_replaced_not_written_through(
        store: Store, hand_id: str, name: str, tmp_path: Path) -> None:
    run_json = next(store.root.glob("runs/*/run.json"))
    before = snapshot(store.root)
    out = tmp_path / "hard-link"
    out.hardlink_to(run_json)
    force = ["--force"] if name == "sql-init" else []  # sql-init never replaces a foreign file
    result = CliRunner().invoke(main, [*command(name, store, out, hand_id), *force])
    assert result.exit_code == 0, result.output
    assert snapshot(store.root) == before


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text writes of output files write half their bytes, then the disk is full."""

    def write_text(self: Path, data: str, *args: Any, **kwargs: Any) -> int:
        with open(self, "w", encoding="utf-8") as f:
            f.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", write_text)


@pytest.mark.parametrize("name", ("report", "export", "prove"))
@pytest.mark.slow
def test_a_full_disk_leaves_no_tmp_and_no_half_file(store: Store, hand_id: str, name: str,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    full_disk(monkeypatch)
    out = tmp_path / f"out-{name}"
    result = CliRunner().invoke(main, command(name, store, out, hand_id))
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_during_sql_init_leaves_no_tmp(store: Store, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB has created the database file when the disk fills (simulated after the last
    view's relation is built): neither it nor its write-ahead log is left behind."""
    relation = sqlinit._relation
    calls = []

    def filling(con: duckdb.DuckDBPyConnection, s: Store, name: str) -> str:
        calls.append(name)
        if name == "runs":
            con.execute("CREATE TABLE ballast AS SELECT range AS i FROM range(100000)")
            raise OSError(errno.ENOSPC, "No space left on device")
        return relation(con, s, name)

    monkeypatch.setattr(sqlinit, "_relation", filling)
    out = tmp_path / "audit.duckdb"
    result = CliRunner().invoke(main, ["sql-init", str(out), "--store", str(store.root)])
    assert "runs" in calls
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_blob_inside_a_list_prints_in_every_format() -> None:
    table = pa.table({
        "blobs": pa.array([[b"a\x00b\\", b"\xff"], None], pa.list_(pa.binary())),
        "nested": pa.array([{"b": b"z"}, {"b": None}], pa.struct([("b", pa.binary())])),
        "blob": pa.array([b"\x01x", b""], pa.binary()),
    })
    as_json = json.loads(render(table, "json"))
    assert as_json[0] == {"blobs": ["a\\x00b\\x5C", "\\xFF"], "nested": {"b": "z"},
                          "blob": "\\x01x"}
    assert as_json[1] == {"blobs": None, "nested": {"b": None}, "blob": ""}
    assert '"[""a\\\\x00b\\\\x5C"",""\\\\xFF""]"' in render(table, "csv")
    assert '["a\\\\x00b\\\\x5C","\\\\xFF"]' in render(table, "table")


@pytest.mark.parametrize("fmt", ("table", "csv", "json", "jsonl"))
def test_query_prints_blobs_and_times_in_lists(store: Store, fmt: str) -> None:
    sql = ("SELECT [blob 'a\\x00b'] AS l, {'b': blob '\\xFF'} AS s, MAP {'k': blob 'v'} AS m, "
           "[TIME '01:02:03'] AS t, [INTERVAL 1 DAY] AS i, [uuid()] AS u")
    result = CliRunner().invoke(main, ["query", sql, "--store", str(store.root),
                                       "--format", fmt])
    assert result.exit_code == 0, result.output
    assert "a\\x00b" in result.output.replace("\\\\", "\\")
    assert "01:02:03" in result.output


@pytest.mark.parametrize("folder", ["glob[1]*?", "quote'it", "new\nline", "both[1]*?\n'"])
@pytest.mark.slow
def test_query_and_sql_init_on_a_store_path_with_odd_characters(tmp_path: Path,
                                                                folder: str) -> None:
    store = build(tmp_path / folder)
    counts = ("SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM findings) "
              "AS findings, (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM "
              "quarantine) AS quarantine")
    result = CliRunner().invoke(main, ["query", counts, "--store", str(store.root),
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["events"] > 0 and row["runs"] == 1 and row["quarantine"] == 1
    out = tmp_path / "audit.duckdb"
    result = CliRunner().invoke(main, ["sql-init", str(out), "--store", str(store.root)])
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(out), read_only=True) as con:
        assert con.execute(counts).fetchone() == tuple(row.values())
