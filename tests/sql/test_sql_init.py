"""`sql-init` as an analyst meets it (issue 23, bug 4): it never overwrites a file it did not
write, refreshes its own file without touching the analyst's tables, says what went wrong in
one line, and writes views that see the batches and runs committed after it ran; a SQL script
of the same views for a DuckDB client too old to open the database file."""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.devtools.faults import hands_table
from audit.devtools.reliability import _build_store
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.sql.query import query
from audit.sql.sqlinit import NotOurFileError, sql_init, sql_script, write_sql_script
from audit.store.dataset import Store

COUNTS = ("SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM findings) "
          "AS findings, (SELECT count(*) FROM latest_findings) AS latest, (SELECT count(*) "
          "FROM runs) AS runs, (SELECT count(*) FROM hands) AS hands, (SELECT count(*) FROM "
          "quarantine) AS quarantine, (SELECT run_id FROM latest_run) AS latest_run")


def counts_in_store(store: Store) -> tuple[object, ...]:
    return tuple(query(store, COUNTS).to_pylist()[0].values())


def counts_in_file(path: Path) -> tuple[object, ...]:
    with duckdb.connect(str(path), read_only=True) as con:
        row = con.execute(COUNTS).fetchone()
    assert row is not None
    return tuple(row)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Three ingested batches and one quarantined line, not audited yet."""
    return _build_store(tmp_path_factory.mktemp("sqlinit"))


@pytest.fixture
def store(pristine: Store, tmp_path_factory: pytest.TempPathFactory) -> Store:
    copy = Store(tmp_path_factory.mktemp("copy") / "store")
    shutil.copytree(pristine.root, copy.root)
    return copy


def sql_init_cli(path: Path, store: Store, *more: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["sql-init", str(path), "--store", str(store.root), *more])
    return result.exit_code, result.output


def test_an_html_report_is_never_turned_into_a_database(store: Store, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text("<html><body>the regulator's copy</body></html>")
    before = sha256(report)
    code, output = sql_init_cli(report, store)
    assert code == 2
    assert output.splitlines() == [
        f"Error: refusing to overwrite {report}: it is not a database poker-audit sql-init "
        "wrote (nothing was changed); give a new file name, or --force to replace it"]
    assert sha256(report) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    code, output = sql_init_cli(report, store, "--force")
    assert code == 0, output
    assert counts_in_file(report) == counts_in_store(store)


def test_a_duckdb_file_of_someone_else_is_refused(store: Store, tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.duckdb"
    with duckdb.connect(str(theirs)) as con:
        con.execute("CREATE TABLE notes AS SELECT 'keep me' AS note")
    before = sha256(theirs)
    with pytest.raises(NotOurFileError, match="refusing to overwrite"):
        sql_init(store, theirs)
    assert sha256(theirs) == before


def test_running_it_again_refreshes_our_views_and_keeps_the_analysts_tables(
        store: Store, tmp_path: Path) -> None:
    path = tmp_path / "audit.duckdb"
    code, output = sql_init_cli(path, store)
    assert code == 0, output
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE my_cases AS SELECT 'case 7' AS name, 3 AS hands")
        con.execute("CREATE VIEW my_busy_tables AS SELECT table_id, count(*) AS n "
                    "FROM hands_started GROUP BY 1")
    code, output = sql_init_cli(path, store)
    assert code == 0, output
    assert output.startswith(f"refreshed the views in {path}: views over ")
    with duckdb.connect(str(path), read_only=True) as con:
        assert con.execute("SELECT * FROM my_cases").fetchall() == [("case 7", 3)]
        assert con.execute("SELECT sum(n) FROM my_busy_tables").fetchone() == (15,)


@pytest.mark.parametrize("where", ["missing-dir/audit.duckdb", "a-file/audit.duckdb",
                                   "/proc/audit.duckdb"])
def test_an_unwritable_path_is_one_line_and_exit_2(store: Store, tmp_path: Path,
                                                   where: str) -> None:
    (tmp_path / "a-file").write_text("x")
    path = tmp_path / where
    for more in ((), ("--script",)):
        code, output = sql_init_cli(path, store, *more)
        assert code == 2, output
        assert "Traceback" not in output
        assert len(output.strip().splitlines()) == 1
        assert output.startswith(f"Error: could not write {path}: "), output


def test_a_database_written_yesterday_sees_todays_batch_and_audit(
        store: Store, tmp_path: Path) -> None:
    path = sql_init(store, tmp_path / "audit.duckdb")
    assert counts_in_file(path) == counts_in_store(store)
    assert counts_in_file(path)[1:5] == (0, 0, 0, 0)  # no audit yet
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    src = tmp_path / "today.parquet"
    pq.write_table(hands_table("today", 4), src)
    ingest([src], store)
    second = audit_store(store, now=datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    now = counts_in_file(path)
    assert now == counts_in_store(store)
    assert now[3] == 2 and now[4] > 0
    assert now[6] == second.run_id


def test_a_run_still_being_written_or_never_committed_is_not_read(
        store: Store, tmp_path: Path) -> None:
    other = Store(tmp_path / "other")
    shutil.copytree(store.root, other.root)
    foreign = audit_store(other, now=datetime(2026, 11, 20, 12, 0, tzinfo=UTC))
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    (run,) = [d for d in (store.root / "runs").iterdir() if not d.name.startswith(".")]
    shutil.copytree(run, store.root / "runs" / f".{run.name}x.tmp")  # an audit writing
    shutil.copytree(other.root / "runs" / foreign.run_id,  # no run record names it
                    store.root / "runs" / foreign.run_id)
    path = sql_init(store, tmp_path / "audit.duckdb")
    assert counts_in_file(path) == counts_in_store(store)
    assert counts_in_file(path)[3] == 1


def test_the_script_gives_the_same_views_to_any_duckdb(store: Store, tmp_path: Path) -> None:
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    script = tmp_path / "views.sql"
    code, output = sql_init_cli(script, store, "--script")
    assert code == 0, output
    text = script.read_text(encoding="utf-8")
    assert text == sql_script(store)
    assert "allow_empty" not in text  # an option of recent DuckDB only
    with duckdb.connect(":memory:") as con:
        con.execute(text)
        row = con.execute(COUNTS).fetchone()
    assert row == counts_in_store(store)
    write_sql_script(store, script)  # ours: written again without --force
    notes = tmp_path / "notes.sql"
    notes.write_text("SELECT 'my own script';\n")
    with pytest.raises(NotOurFileError):
        write_sql_script(store, notes)
    assert notes.read_text() == "SELECT 'my own script';\n"


def test_the_command_says_which_duckdb_opens_the_file(store: Store, tmp_path: Path) -> None:
    code, output = sql_init_cli(tmp_path / "audit.duckdb", store)
    assert code == 0, output
    assert output.startswith(f"wrote {tmp_path / 'audit.duckdb'}: views over ")
    assert "for DuckDB v" in output and "or newer" in output
    assert "an older client cannot open it: use sql-init --script" in output
