"""The SQL surface (issue 9): the README's example queries run against a demo store, through
`poker-audit query`'s connection and through a `sql-init` DuckDB file; the quarantine view."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from audit.cli.demo import demo_inputs
from audit.cli.report import sql_init_command
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.sql.query import query
from audit.sql.sqlinit import sql_init
from audit.store.dataset import Store

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "### SQL: the views and ten example queries"
VIEWS = ("events", "hands_started", "runs", "hands", "hand_players", "findings",
         "latest_findings", "quarantine")


def readme_queries() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(HEADING):]
    section = section[: section.index("\n## ")]
    return re.findall(r"```sql\n(.*?)```", section, flags=re.S)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    s = Store(tmp_path_factory.mktemp("sql") / "store")
    ingest(demo_inputs(), s)
    audit_store(s, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return s


@pytest.fixture(scope="module")
def database(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sql_init(store, tmp_path_factory.mktemp("db") / "audit.duckdb")


def test_readme_has_ten_example_queries() -> None:
    assert len(readme_queries()) == 10


@pytest.mark.parametrize("number", range(1, 11))
def test_readme_query_runs_on_the_demo_store(store: Store, database: Path, number: int) -> None:
    sql = readme_queries()[number - 1]
    rows = query(store, sql)
    assert rows.num_rows > 0, sql
    with duckdb.connect(str(database), read_only=True) as con:
        same = con.sql(sql).to_arrow_table()
    assert same.num_rows == rows.num_rows


def test_sql_init_file_has_every_view_with_the_store_counts(store: Store, database: Path) -> None:
    with duckdb.connect(str(database), read_only=True) as con:
        names = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables"
                                           ).fetchall()}
        for view in VIEWS:
            assert view in names
            n = con.execute(f"SELECT count(*) FROM {view}").fetchone()
            assert n is not None
            assert n[0] == query(store, f"SELECT count(*) AS n FROM {view}").column(0)[0].as_py()


def test_sql_init_opens_from_another_directory(store: Store, database: Path,
                                               tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere.duckdb"
    moved.write_bytes(database.read_bytes())  # absolute paths: the file works from anywhere
    with duckdb.connect(str(moved), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM latest_findings").fetchone() == (105,)


def test_sql_init_on_an_empty_store_gives_empty_views(tmp_path: Path) -> None:
    empty = Store(tmp_path / "empty")
    path = sql_init(empty, tmp_path / "empty.duckdb")
    with duckdb.connect(str(path), read_only=True) as con:
        for view in VIEWS:
            assert con.execute(f"SELECT count(*) FROM {view}").fetchone() == (0,)


def test_sql_init_replaces_an_existing_file_when_forced(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "a.duckdb"
    path.write_text("not a database")
    sql_init(store, path, force=True)
    with duckdb.connect(str(path), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands_started").fetchone() == (123,)


def test_quarantine_view_names_file_line_and_reason(store: Store) -> None:
    rows = query(store, "SELECT batch_id, source, line, hand_id, reason FROM quarantine"
                 ).to_pylist()
    assert len(rows) == 1
    row = rows[0]
    assert row["hand_id"] == "demo:4"
    assert row["line"] == 69
    assert row["source"].endswith("sample-events.jsonl")
    assert "seq must run" in row["reason"]
    assert (store.root / "quarantine" / row["batch_id"] / "rejected.jsonl").exists()


def test_sql_init_command(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "cli.duckdb"
    result = CliRunner().invoke(sql_init_command, [str(out), "--store", str(store.root)])
    assert result.exit_code == 0, result.output
    assert out.exists()
    missing = CliRunner().invoke(sql_init_command, [str(out), "--store", str(tmp_path / "no")])
    assert missing.exit_code == 2
    assert "no store" in missing.output
