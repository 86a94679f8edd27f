"""Issue 23, bug 6: after one flipped byte in an events file, a command reading the store
names the file and says "run `poker-audit verify`", never "free disk space or fix
permissions" naming no file."""

from __future__ import annotations

from pathlib import Path

import click
import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.sql.query import damaged_store_note
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet


@pytest.fixture
def stored(store: Store, tmp_path: Path) -> Path:
    """A store of 40 hands in one committed event file; that file's path."""
    ingest([write_parquet(tmp_path / "in.parquet", many_hands("f", 40))], store)
    (event_file,) = store.event_files()
    return event_file


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_audit_names_the_flipped_file_even_when_its_bytes_still_decode(store: Store,
                                                                      stored: Path):
    """A flip inside a value decodes into another value without any read error: the audit
    compares the file with the manifest's sha256 before replaying it."""
    original = stored.read_bytes()
    for at in range(4, len(original) - 8, 7):  # the first flip Arrow reads past silently
        _flip(stored, at)
        try:
            pq.read_table(stored)
        except (OSError, pa.ArrowException):
            _flip(stored, at)
            continue
        break
    assert stored.read_bytes() != original
    code, out = _run("audit", "--store", str(store.root))
    assert code == 2, out
    assert str(stored) in out
    assert "run `poker-audit verify`" in out
    assert "disk space" not in out and "permissions" not in out
    assert "Traceback" not in out


def _duckdb_fails(path: Path) -> bool:
    try:
        duckdb.sql(f"SELECT * FROM read_parquet('{path}')").fetchall()
    except duckdb.Error:
        return True
    return False


def test_query_that_fails_on_a_flipped_byte_names_the_file(store: Store, stored: Path,
                                                           tmp_path: Path):
    original = stored.read_bytes()
    probe = tmp_path / "probe.parquet"
    for at in range(4, len(original) - 8, 7):  # the first flip DuckDB cannot read past
        damaged = bytearray(original)
        damaged[at] ^= 0x01
        probe.write_bytes(bytes(damaged))
        if _duckdb_fails(probe):
            break
    else:
        pytest.fail("no single flipped byte breaks the read")
    stored.write_bytes(bytes(damaged))
    code, out = _run("query", "SELECT * FROM events", "--store", str(store.root))
    assert code == 2, out
    assert str(stored) in out and "run `poker-audit verify --store" in out
    assert "committed event file differs" in out
    # a mistake in the SQL never blames the store
    code, out = _run("query", "SELECT * FROM eventz", "--store", str(store.root))
    assert code == 2 and "committed event file" not in out


def test_only_read_failures_make_the_store_suspect(store: Store, stored: Path):
    _flip(stored, 8)
    note = damaged_store_note(store, duckdb.Error("Out of buffer"))
    assert note.startswith(f"{stored}: committed event file differs")
    assert "(Out of buffer)" in note
    assert damaged_store_note(store, duckdb.BinderException("no column x")) == ""
    _flip(stored, 8)  # the byte back: nothing to name
    assert store.changed_event_files() == []
    assert damaged_store_note(store, duckdb.Error("Out of buffer")) == ""


def test_a_decoder_error_naming_no_file_points_at_verify_not_at_the_disk():
    """Arrow raises OSError without an errno for bytes it cannot decode ("ZSTD
    decompression failed"); the CLI's last resort says verify, not disk space."""

    @click.command()
    def decode() -> None:
        raise OSError("ZSTD decompression failed: Data corruption detected")

    main.commands["zz-decode"] = decode
    try:
        code, out = _run("zz-decode")
    finally:
        del main.commands["zz-decode"]
    assert code == 2
    assert "ZSTD decompression failed" in out
    assert "run `poker-audit verify`, which names each damaged store file" in out
    assert "disk space" not in out and "permissions" not in out
