"""The DuckDB query surface: the views of schemas/views.sql over a store, read-only.

A connection made here can read the store's files and nothing else (external access is off
outside the store and the configuration is locked), and `query` runs only SELECT statements
with bound parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from audit.errors import QueryError
from audit.run_commit import latest_run_id, run_dirs, run_file, visible_runs
from audit.run_layout import output_files
from audit.schema import arrow_schema, schema_doc, schemas_dir
from audit.store import Store

_READ_ONLY_STATEMENTS = {
    duckdb.StatementType.SELECT,
    duckdb.StatementType.EXPLAIN,
}


def _sql_list(paths: Sequence[Path]) -> str:
    return "[" + ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths) + "]"


def _read_parquet(paths: Sequence[Path]) -> str:
    return f"read_parquet({_sql_list(paths)}, union_by_name = true, hive_partitioning = false)"


_DUCKDB_TYPES = {"string": "VARCHAR", "int64": "BIGINT", "int32": "INTEGER", "bool": "BOOLEAN"}


def runs_relation(paths: Sequence[Path]) -> str:
    """run.json files with the columns of schemas/runs.json (older runs lack the newer keys)."""
    columns = ", ".join(f"'{c['name']}': '{_DUCKDB_TYPES[c['type']]}'"
                        for c in schema_doc("runs")["columns"])
    return f"read_json({_sql_list(paths)}, format = 'auto', columns = {{{columns}}})"


def _empty(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """An empty relation with the schema of schemas/<name>.json."""
    relation = f"_empty_{name}"
    try:
        schema_doc(name)
        table = arrow_schema(name).empty_table()
    except FileNotFoundError:
        table = pa.table({"run_id": pa.array([], pa.string())})
    con.register(relation, table)
    return relation


def _finished_run_dirs(store: Store) -> list[Path]:
    """`runs/<run_id>` of every finished run: the runs the chain commits, each checked against
    its run record first (a run that fails raises RunCheckError), or the runs of a store
    written before runs were committed (audit/run_commit.py)."""
    return run_dirs(store)


def run_files(store: Store, filename: str) -> list[Path]:
    """`runs/<run_id>/<filename>` of every finished run that has it (a committed run: only a
    file its records commit)."""
    _finished_run_dirs(store)  # every run checked
    found = (run_file(store, r.run_id, filename) for r in visible_runs(store))
    return [f for f in found if f is not None]


def run_output_files(store: Store, output: str) -> list[Path]:
    """The files of one audit output (findings, hands, hand_players) of every finished run."""
    return [f for d in _finished_run_dirs(store) for f in output_files(d, output)]


def latest_run_literal(store: Store) -> str:
    """The id of the run the chain committed last as a SQL literal, for the latest_* views
    (NULL when the store has no run: the views are empty)."""
    run_id = latest_run_id(store)
    return "NULL::VARCHAR" if run_id is None else "'" + run_id.replace("'", "''") + "'"


QUARANTINE_COLUMNS = {
    "source": "VARCHAR", "line": "BIGINT", "hand_id": "VARCHAR", "reason": "VARCHAR",
    "raw": "VARCHAR",
}


def quarantine_files(store: Store) -> list[Path]:
    """`quarantine/<batch>/rejected.jsonl` of every committed batch that quarantined input."""
    return [
        store.root / q["path"] for r in store.records() for q in r.get("quarantine", [])
        if (store.root / q["path"]).exists()
    ]


def quarantine_relation(con: duckdb.DuckDBPyConnection, store: Store) -> str:
    """The store's rejected input (JSON Lines), or an empty relation with the same columns."""
    files = quarantine_files(store)
    if files:
        columns = ", ".join(f"{k}: '{v}'" for k, v in QUARANTINE_COLUMNS.items())
        return (f"read_json({_sql_list(files)}, format = 'newline_delimited', "
                f"columns = {{{columns}}}, filename = true)")
    types = {"VARCHAR": pa.string(), "BIGINT": pa.int64()}
    table = pa.table({k: pa.array([], types[v]) for k, v in QUARANTINE_COLUMNS.items()}
                     | {"filename": pa.array([], pa.string())})
    con.register("_empty_quarantine", table)
    return "_empty_quarantine"


def connect(store: Store) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the store's views, locked to reading the store."""
    store.ensure_recovered()
    con = duckdb.connect(":memory:")
    relations: dict[str, str] = {}
    events = store.event_files()
    relations["events"] = (
        _read_parquet(events) if events
        else _empty(con, "events")
    )
    for name in ("findings", "hands", "hand_players"):
        files = run_output_files(store, name)
        relations[name] = (
            _read_parquet(files) if files
            else _empty(con, name)
        )
    collusion = run_files(store, "collusion.parquet")  # written by poker-audit collusion
    relations["collusion"] = _read_parquet(collusion) if collusion else _empty(con, "findings")
    runs = run_files(store, "run.json")
    relations["runs"] = runs_relation(runs) if runs else _empty(con, "runs")
    relations["quarantine"] = quarantine_relation(con, store)
    relations["latest_run"] = latest_run_literal(store)  # decided by the chain, not by names
    views = (schemas_dir() / "views.sql").read_text(encoding="utf-8")
    con.execute(views.format(**relations))
    root = str(store.root.resolve()).replace("'", "''")
    con.execute(f"SET allowed_directories = ['{root}/']")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def query(
    store: Store, sql: str, params: Mapping[str, Any] | Sequence[Any] | None = None
) -> pa.Table:
    """Run one read-only SQL statement over the store's views; parameters are bound."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryError(f"SQL does not parse: {exc}") from None
    if len(statements) != 1:
        raise QueryError(f"give exactly one SQL statement, got {len(statements)}")
    if statements[0].type not in _READ_ONLY_STATEMENTS:
        raise QueryError(
            f"only SELECT queries are allowed (got {statements[0].type.name}); the store is "
            "append-only and is changed only by poker-audit ingest and audit"
        )
    con = connect(store)
    try:
        return con.sql(sql, params=params or None).to_arrow_table()
    except duckdb.Error as exc:
        raise QueryError(f"query failed: {exc}") from None
    finally:
        con.close()
