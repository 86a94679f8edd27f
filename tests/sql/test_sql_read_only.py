"""The query connection reads the store and writes nothing (issue 19 item 1).

`poker-audit query` accepts exactly one plain read; every other statement type DuckDB has, and
every way found to write from inside a SELECT (EXPLAIN ANALYZE COPY, COPY or INSERT inside
WITH, effectful table functions), is refused with one line and exit code 2, leaving every file
of the store byte-identical. The connection itself (also used by the report and the notebooks)
has no writable directory and locked settings.
"""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.devtools.reliability import _build_store
from audit.errors import QueryError
from audit.run.runner import audit_store
from audit.sql.query import check_read_only, connect, query
from audit.store.dataset import Store

# One statement per StatementType DuckDB's parser produces ({S} is the store root).
STATEMENTS: dict[str, str] = {
    "SELECT": "SELECT count(*) FROM events",
    "INSERT": "INSERT INTO t VALUES (1)",
    "UPDATE": "UPDATE t SET a = 1",
    "CREATE": "CREATE TABLE t (a INT)",
    "DELETE": "DELETE FROM t",
    "PREPARE": "PREPARE p AS SELECT 1",
    "EXECUTE": "EXECUTE p",
    "ALTER": "ALTER TABLE t ADD COLUMN b INT",
    "TRANSACTION": "BEGIN TRANSACTION",
    "COPY": "COPY (SELECT 'x') TO '{S}/manifest.jsonl' (FORMAT csv)",
    "EXPLAIN": "EXPLAIN ANALYZE COPY (SELECT 'x') TO '{S}/manifest.jsonl' (FORMAT csv)",
    "DROP": "DROP VIEW events",
    "EXPORT": "EXPORT DATABASE '{S}/exported'",
    "PRAGMA": "PRAGMA enable_profiling",
    "VACUUM": "VACUUM",
    "CALL": "CALL checkpoint()",
    "SET": "SET threads = 1",
    "LOAD": "LOAD parquet",
    "ATTACH": "ATTACH '{S}/x.duckdb' AS x",
    "DETACH": "DETACH x",
    "MULTI": "PIVOT events ON kind USING count(*)",
    "MERGE_INTO": "MERGE INTO t USING (SELECT 1 AS a) s ON t.a = s.a WHEN MATCHED THEN DELETE",
}
# Members the parser never gives for SQL text: internal (INVALID, RELATION, LOGICAL_PLAN) or
# folded into another type (ANALYZE is VACUUM, SET VARIABLE is SET, CREATE MACRO is CREATE,
# INSTALL is LOAD, COPY FROM DATABASE is PRAGMA). Refused like every type but SELECT/EXPLAIN.
NOT_FROM_TEXT = {"INVALID", "RELATION", "LOGICAL_PLAN", "ANALYZE", "VARIABLE_SET",
                 "CREATE_FUNC", "EXTENSION", "COPY_DATABASE"}

# More writes and state changes, each with the StatementType it parses to.
MORE_WRITES = [
    "INSTALL httpfs",
    "FORCE INSTALL httpfs",
    "LOAD '{S}/x.duckdb_extension'",
    "ANALYZE",
    "SET VARIABLE x = 1",
    "RESET threads",
    "SET GLOBAL lock_configuration = false",
    "USE memory",
    "CREATE MACRO m(a) AS a",
    "CREATE SECRET s (TYPE s3)",
    "CREATE TEMP TABLE t AS SELECT 1",
    "CREATE OR REPLACE VIEW findings AS SELECT 1",
    "TRUNCATE t",
    "COMMENT ON VIEW events IS 'x'",
    "CHECKPOINT",
    "COPY FROM DATABASE memory TO x",
    "ATTACH OR REPLACE '{S}/manifest.jsonl' AS m",
    "COPY (SELECT 1) TO '.tmp/x.csv'",
    "EXPORT DATABASE '.tmp'",
    "UPDATE EXTENSIONS",
    # Writes hidden in a statement DuckDB types as SELECT or EXPLAIN:
    "WITH x AS (COPY (SELECT 'x') TO '{S}/manifest.jsonl' (FORMAT csv)) SELECT 1",
    "WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x",
    "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x",
    "WITH x AS (UPDATE t SET a = 2 RETURNING *) SELECT * FROM x",
    "SELECT * FROM (WITH y AS (COPY (SELECT 1) TO '{S}/y.csv') SELECT 1)",
    "SELECT (WITH y AS (COPY (SELECT 1) TO '{S}/y.csv') SELECT 1)",
    "EXPLAIN WITH x AS (COPY (SELECT 1) TO '{S}/y.csv') SELECT 1",
    "EXPLAIN ANALYZE WITH x AS (COPY (SELECT 1) TO '{S}/y.csv') SELECT 1",
    "EXPLAIN ANALYZE INSERT INTO t VALUES (1)",
    "EXPLAIN EXPLAIN ANALYZE COPY (SELECT 1) TO '{S}/y.csv'",
    "/* x */ EXPLAIN /* y */ ANALYZE COPY (SELECT 1) TO '{S}/y.csv'",
    "EXPLAIN (FORMAT json) COPY (SELECT 1) TO '{S}/y.csv'",
    "SELECT * FROM checkpoint()",
    "SELECT * FROM force_checkpoint()",
    "SELECT * FROM query('SELECT 1')",
    "SELECT * FROM enable_logging()",
    "SELECT * FROM enable_profiling()",
    "SELECT * FROM truncate_duckdb_logs()",
    "SELECT * FROM add_grammar_extension('x')",
    "SELECT * FROM register_external_resource('x')",
    "SELECT write_log('x')",
    "SELECT nextval('s')",
    "SELECT json_execute_serialized_sql('{{}}')",
    "SELECT 1; COPY (SELECT 'x') TO '{S}/manifest.jsonl'",
    "COPY (SELECT 'x') TO '{S}/manifest.jsonl'; SELECT 1",
]

READS = [
    "SELECT count(*) FROM findings",
    "WITH x AS (SELECT hand_id FROM events) SELECT count(*) FROM x",
    "VALUES (1, 'a')",
    "FROM runs",
    "DESCRIBE findings",
    "SHOW TABLES",
    "SUMMARIZE runs",
    "EXPLAIN SELECT count(*) FROM events",
    "EXPLAIN ANALYZE SELECT count(*) FROM events",
    "/* why */ EXPLAIN -- the plan\n SELECT 1",
    "PIVOT (SELECT kind, seq FROM events) ON kind IN ('post') USING count(*)",
    "SELECT * FROM generate_series(1, 3)",
    "SELECT count(*) FROM duckdb_views()",
    "SELECT 1 UNION ALL SELECT 2",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) FROM r",
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Store:
    s = _build_store(tmp_path_factory.mktemp("readonly"))
    audit_store(s, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return s


@pytest.fixture
def store(pristine: Store, tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A fresh copy per test: an attack that got through cannot hide the next one's result."""
    copy = Store(tmp_path_factory.mktemp("copy") / "store")
    shutil.copytree(pristine.root, copy.root)
    return copy


def snapshot(root: Path) -> dict[str, str]:
    """Every file under `root` with its SHA-256: nothing added, removed or changed."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def refused_by_cli(store: Store, sql: str, monkeypatch: pytest.MonkeyPatch,
                   cwd: Path) -> None:
    monkeypatch.chdir(cwd)  # a refused statement must not create $PWD/.tmp either
    before = snapshot(store.root)
    result = CliRunner().invoke(main, ["query", sql, "--store", str(store.root)])
    assert result.exit_code == 2, (sql, result.output)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), (sql, result.output)
    assert "Traceback" not in result.output
    assert snapshot(store.root) == before, sql
    assert not (cwd / ".tmp").exists()
    assert list(cwd.iterdir()) == []


def test_the_examples_cover_every_statement_type() -> None:
    produced = {}
    for name, sql in STATEMENTS.items():
        (statement,) = duckdb.extract_statements(sql.format(S="/s"))
        produced[name] = statement.type.name
    assert produced == {name: name for name in STATEMENTS}
    assert set(STATEMENTS) | NOT_FROM_TEXT == set(duckdb.StatementType.__members__)


@pytest.mark.parametrize("name", [n for n in STATEMENTS if n != "SELECT"])
def test_every_statement_type_but_select_is_refused_and_changes_nothing(
        store: Store, name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    refused_by_cli(store, STATEMENTS[name].format(S=store.root), monkeypatch, tmp_path)


@pytest.mark.parametrize("sql", MORE_WRITES)
def test_writes_hidden_in_reads_and_state_changes_are_refused(
        store: Store, sql: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    refused_by_cli(store, sql.format(S=store.root), monkeypatch, tmp_path)


@pytest.mark.parametrize("sql", READS)
def test_plain_reads_run(store: Store, sql: str, monkeypatch: pytest.MonkeyPatch,
                         tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    before = snapshot(store.root)
    result = CliRunner().invoke(main, ["query", sql, "--store", str(store.root)])
    assert result.exit_code == 0, result.output
    assert snapshot(store.root) == before
    assert list(tmp_path.iterdir()) == []


def test_the_issue_attack_cannot_erase_violations(store: Store) -> None:
    """Issue 19: EXPLAIN ANALYZE COPY of a findings part without its violations, then a
    second COPY back onto the part, erased every violation while verify said OK."""
    part = next(store.root.glob("runs/*/findings/part-*.parquet"))
    kept = store.root / "x.parquet"
    before = snapshot(store.root)
    findings = query(store, "SELECT count(*) AS n FROM findings").column("n")[0].as_py()
    for sql in (
        f"EXPLAIN ANALYZE COPY (SELECT * FROM read_parquet('{part}') WHERE severity NOT IN "
        f"('violation', 'critical')) TO '{kept}' (FORMAT parquet)",
        f"EXPLAIN ANALYZE COPY (SELECT * FROM read_parquet('{kept}')) TO '{part}' "
        "(FORMAT parquet)",
        f"EXPLAIN ANALYZE COPY (SELECT 'x') TO '{store.root / 'manifest.jsonl'}'",
    ):
        with pytest.raises(QueryError, match="only SELECT queries are allowed"):
            query(store, sql)
    assert snapshot(store.root) == before
    assert query(store, "SELECT count(*) AS n FROM findings").column("n")[0].as_py() == findings
    assert store.verify().ok


def test_check_read_only_names_what_it_refused() -> None:
    with pytest.raises(QueryError, match=r"got COPY inside WITH"):
        check_read_only("WITH x AS (COPY (SELECT 1) TO 'y.csv') SELECT 1")
    with pytest.raises(QueryError, match=r"got EXPLAIN of COPY"):
        check_read_only("EXPLAIN ANALYZE COPY (SELECT 1) TO 'y.csv'")
    with pytest.raises(QueryError, match=r"got table function checkpoint\(\)"):
        check_read_only("FROM checkpoint()")
    with pytest.raises(QueryError, match="statement type without a name"):
        check_read_only("UPDATE EXTENSIONS")  # a statement type the Python enum lacks


def test_the_connection_has_no_writable_directory_and_locked_settings(
        store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What the report and the notebooks get from `connect`: even a raw COPY, EXPORT or
    ATTACH on it cannot write into the store, the working directory or anywhere else."""
    monkeypatch.chdir(tmp_path)
    before = snapshot(store.root)
    con = connect(store)
    try:
        settings = dict(con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('allowed_directories', "
            "'temp_directory', 'enable_external_access', 'lock_configuration', "
            "'autoinstall_known_extensions', 'autoload_known_extensions')").fetchall())
        assert settings == {
            "allowed_directories": "[]", "temp_directory": "",
            "enable_external_access": "false", "lock_configuration": "true",
            "autoinstall_known_extensions": "false", "autoload_known_extensions": "false",
        }
        root = store.root
        for sql in (
            f"COPY (SELECT 'x') TO '{root}/manifest.jsonl' (FORMAT csv)",
            f"COPY (SELECT 'x') TO '{root}/manifest.jsonl' (FORMAT csv, USE_TMP_FILE false)",
            f"COPY (SELECT 'x') TO '{root}/new.csv' (FORMAT csv)",
            f"COPY (SELECT 'x') TO '{root}/runs/new.parquet' (FORMAT parquet)",
            "COPY (SELECT 'x') TO '.tmp/x.csv' (FORMAT csv)",
            "COPY (SELECT 'x') TO '/tmp/poker-audit-should-not-exist.csv' (FORMAT csv)",
            f"EXPORT DATABASE '{root}/exported'",
            f"ATTACH '{root}/new.duckdb' AS x",
            "INSTALL httpfs",
            "LOAD httpfs",
            "SET lock_configuration = false",
            "SET temp_directory = '.tmp'",
            f"SET allowed_directories = ['{root}/']",
            "RESET enable_external_access",
            "SELECT * FROM read_text('/etc/hostname')",
        ):
            with pytest.raises(duckdb.Error):
                con.execute(sql)
        # the views still read the whole store
        assert con.execute("SELECT count(*) FROM events").fetchone()[0] > 0
        assert con.execute("SELECT count(*) FROM latest_findings").fetchone()[0] > 0
        assert con.execute("SELECT count(*) FROM quarantine").fetchone()[0] == 1
    finally:
        con.close()
    assert snapshot(store.root) == before
    assert list(tmp_path.iterdir()) == []
    assert not Path("/tmp/poker-audit-should-not-exist.csv").exists()
