"""`sql_init`: a DuckDB database file holding the store's views, for DuckDB's own CLI, DBeaver or
any DuckDB client.

The views are those of schemas/views.sql, over the store's committed files by absolute path (the
file list is fixed when the database is written: run it again after `ingest` or `audit`). A view
over a kind of file the store does not have yet reads an empty table of the right schema. Any
placeholder views.sql gains later (`{name}`) is filled from `runs/<run_id>/<name>.parquet`
(an audit output from its part files, audit/store/run_layout.py).
"""

from __future__ import annotations

import string
from pathlib import Path

import duckdb
import pyarrow as pa

from audit.errors import QueryError
from audit.schema import arrow_schema, schemas_dir
from audit.sql.query import (
    latest_run_literal,
    quarantine_relation,
    run_files,
    run_output_files,
    runs_relation,
    sql_literal,
)
from audit.store.dataset import Store
from audit.store.outfile import check_output_path, replacing
from audit.store.run_layout import OUTPUTS


def _sql_list(paths: list[Path]) -> str:
    return "[" + ", ".join(sql_literal(str(p.resolve())) for p in paths) + "]"


def _empty_table(con: duckdb.DuckDBPyConnection, name: str, table: pa.Table) -> str:
    relation = f"_empty_{name}"
    con.register("_arrow_empty", table)
    con.execute(f'CREATE OR REPLACE TABLE "{relation}" AS SELECT * FROM _arrow_empty')
    con.unregister("_arrow_empty")
    return relation


def _schema_empty(name: str) -> pa.Table:
    try:
        return arrow_schema(name).empty_table()
    except FileNotFoundError:
        return pa.table({"run_id": pa.array([], pa.string())})


def _relation(con: duckdb.DuckDBPyConnection, store: Store, name: str) -> str:
    if name == "events":
        files = store.event_files()
        if files:
            return (f"read_parquet({_sql_list(files)}, union_by_name = true, "
                    "hive_partitioning = false)")
        return _empty_table(con, name, _schema_empty("events"))
    if name == "runs":
        files = run_files(store, "run.json")
        return (runs_relation(files) if files
                else _empty_table(con, name, _schema_empty("runs")))
    if name == "latest_run":
        return latest_run_literal(store)
    if name == "quarantine":
        relation = quarantine_relation(con, store)
        if relation.startswith("read_json"):
            return relation
        # An in-memory registration does not outlive the connection: keep a real empty table.
        con.execute("CREATE OR REPLACE TABLE _empty_quarantine_rows AS "
                    f"SELECT * FROM {relation}")
        con.unregister(relation)
        return "_empty_quarantine_rows"
    files = (run_output_files(store, name) if name in OUTPUTS
             else run_files(store, f"{name}.parquet"))
    if files:
        return f"read_parquet({_sql_list(files)}, union_by_name = true, hive_partitioning = false)"
    return _empty_table(con, name, _schema_empty(name))


def sql_init(store: Store | str | Path, path: str | Path) -> Path:
    """Write a DuckDB database file at `path` holding the views over `store`; returns the path.

    An existing file at `path` is replaced whole (the new file is written beside it first and
    removed if writing fails); a `path` inside the store is refused (OutputPathError).
    """
    store = Store((store.root if isinstance(store, Store) else Path(store)).resolve())
    path = check_output_path(store, path)
    store.ensure_recovered()  # an absolute root: the views name every file by absolute path
    views = (schemas_dir() / "views.sql").read_text(encoding="utf-8")
    names = {field for _, field, _, _ in string.Formatter().parse(views) if field}
    with replacing(store, path) as tmp:
        con = duckdb.connect(str(tmp))
        try:
            relations = {name: _relation(con, store, name) for name in sorted(names)}
            con.execute(views.format(**relations))
            con.execute("CHECKPOINT")
        except duckdb.Error as exc:
            raise QueryError(f"could not write {path}: {' '.join(str(exc).split())}") from None
        finally:
            con.close()
    return path
