"""The DuckDB query surface: the views of schemas/views.sql over a store, read-only.

A connection made here can open exactly the files its views read and no directory (so it can
create no file anywhere, not even DuckDB's temporary files), loads no extension, and has its
configuration locked. `query` runs exactly one plain read with bound parameters: a SELECT
whose parse tree holds no write and no effectful function, or EXPLAIN of one. (DuckDB cannot
open an allowed file read-only: SQL given to a raw `connect()` connection could still COPY onto
a file the views read; that is why SQL text from a user goes through `query`.)

`copy_query` and `stream_query` write the rows of such a read as CSV, JSON or JSON Lines with
DuckDB's own writer (COPY (read) TO target), streamed as DuckDB produces them, never held in
Python: the connection may then also open that one target (a file outside the store, or the
write end of a pipe whose other end `stream_query` copies to a stream such as stdout).
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import duckdb
import pyarrow as pa

from audit.errors import QueryError
from audit.schema import arrow_schema, schema_doc, schemas_dir
from audit.store.dataset import Store
from audit.store.run_layout import output_files
from audit.store.runs import latest_run_id, run_dirs, run_file, visible_runs


def sql_literal(text: str) -> str:
    """`text` as a DuckDB string literal: quotes doubled, and each control character (a newline
    in a store path) spelled `chr(n)`, so no literal spans lines of a multi-statement script
    (views.sql with a newline inside a path literal fails: "unterminated string literal")."""
    parts = re.split(r"([\x00-\x1f\x7f])", text)
    pieces = [f"chr({ord(p)})" if i % 2 else "'" + p.replace("'", "''") + "'"
              for i, p in enumerate(parts) if p or i == 0]
    return pieces[0] if len(pieces) == 1 else "(" + " || ".join(pieces) + ")"


def _sql_list(paths: Sequence[Path]) -> str:
    return "[" + ", ".join(sql_literal(str(p)) for p in paths) + "]"


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
    written before runs were committed (audit/store/runs.py)."""
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
    return store.quarantine_files()


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


def readable_files(store: Store) -> list[Path]:
    """Every file the views of `connect` read: the only files its connection may open."""
    return [
        *store.event_files(),
        *(f for name in ("findings", "hands", "hand_players")
          for f in run_output_files(store, name)),
        *run_files(store, "collusion.parquet"),
        *run_files(store, "run.json"),
        *quarantine_files(store),
    ]


def _lock_down(con: duckdb.DuckDBPyConnection, readable: Sequence[Path]) -> None:
    """Let `con` open exactly the files in `readable` and write nowhere: no directory is
    allowed (a directory in allowed_directories is writable too: COPY into the store root
    rewrote manifest.jsonl), no temporary directory (DuckDB's default `.tmp` in the working
    directory is allowed implicitly), no extension or secret, then lock every setting."""
    con.execute("SET allowed_paths = $paths",  # DuckDB compares canonical paths
                {"paths": sorted({str(p) for p in readable})})
    for setting in (
        "SET temp_directory = ''",
        "SET autoinstall_known_extensions = false",
        "SET autoload_known_extensions = false",
        "SET allow_community_extensions = false",
        "SET allow_persistent_secrets = false",
        "SET allowed_directories = []",
        "SET enable_external_access = false",
        "SET lock_configuration = true",
    ):
        con.execute(setting)


def connect(store: Store, *, output: Path | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the store's views: it can read the files the
    views read and write nothing anywhere (but `output`, given by copy_query: a file outside
    the store or a pipe), and its settings are locked."""
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
    if output is not None:  # times written as text read the same on every machine
        con.execute("SET TimeZone = 'UTC'")
    _lock_down(con, [*readable_files(store), *([output] if output is not None else [])])
    return con


# What a read may contain. A statement whose type is SELECT can still write: DuckDB accepts
# `WITH x AS (COPY ... TO 'file') SELECT 1` and INSERT/UPDATE/DELETE inside WITH, so the
# parsed tree (json_serialize_sql) is checked: every query node a plain read, every table
# function one that only reads.
_READ_QUERY_NODES = frozenset({
    "SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE",
})
_READ_TABLE_FUNCTIONS = frozenset({
    "generate_series", "range", "unnest", "repeat", "repeat_row", "summary", "json_each",
    "json_tree", "histogram", "histogram_values", "glob", "sniff_csv", "query_table",
    "pg_timezone_names", "icu_calendar_names", "parquet_scan", "test_all_types",
    "test_vector_types",
})
# Catalog and file readers (file access is limited to the store's files by the connection).
_READ_TABLE_FUNCTION_PREFIXES = ("duckdb_", "pragma_", "read_", "parquet_")
# Scalar functions with an effect beyond their result (sequences, the log, running SQL text).
_EFFECT_FUNCTIONS = frozenset({
    "json_execute_serialized_sql", "write_log", "nextval", "setval", "query",
})
_ONLY_READS = (
    "only SELECT queries are allowed (got {got}); a query may be SELECT, WITH ... SELECT, "
    "VALUES, DESCRIBE, SHOW, SUMMARIZE or EXPLAIN of a SELECT: the store is append-only and "
    "is changed only by poker-audit ingest and audit"
)


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _nodes(tree: Any) -> Iterator[dict[str, Any]]:
    if isinstance(tree, dict):
        yield tree
        for value in tree.values():
            yield from _nodes(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _nodes(value)


_parser_lock = threading.Lock()


@functools.cache
def _parser() -> duckdb.DuckDBPyConnection:
    """A connection that only parses (opening one costs ~150 ms; a cursor on it ~1 ms)."""
    con = duckdb.connect(":memory:")
    _lock_down(con, [])
    return con


def _check_read_tree(sql: str) -> None:
    """Refuse a SELECT statement whose parsed tree holds a write or an effectful function."""
    with _parser_lock:
        cursor = _parser().cursor()
    try:
        row = cursor.execute("SELECT json_serialize_sql($sql)", {"sql": sql}).fetchone()
    finally:
        cursor.close()
    tree = json.loads(row[0]) if row else {"error": True}
    if tree.get("error"):
        raise QueryError(_ONLY_READS.format(
            got=f"a statement that is not a plain read: {tree.get('error_message', '?')}"))
    for node in _nodes(tree.get("statements", [])):
        kind = node.get("type")
        if isinstance(kind, str) and kind.endswith("_NODE") and kind not in _READ_QUERY_NODES:
            what = kind.removesuffix("_NODE").removesuffix("_QUERY")
            raise QueryError(_ONLY_READS.format(got=f"{what} inside WITH"))
        if kind == "TABLE_FUNCTION":
            name = str((node.get("function") or {}).get("function_name", "")).lower()
            if name not in _READ_TABLE_FUNCTIONS and not name.startswith(
                    _READ_TABLE_FUNCTION_PREFIXES):
                raise QueryError(_ONLY_READS.format(got=f"table function {name}()"))
        name = node.get("function_name")
        if isinstance(name, str) and name.lower() in _EFFECT_FUNCTIONS:
            raise QueryError(_ONLY_READS.format(got=f"function {name.lower()}()"))


def _explained(sql: str) -> str | None:
    """The statement after `EXPLAIN [ANALYZE]`, or None when `sql` is no EXPLAIN of that form
    (EXPLAIN with options in parentheses is refused rather than guessed at)."""
    tokens = duckdb.tokenize(sql)
    ends = [offset for offset, _ in tokens[1:]] + [len(sql)]
    words = [(offset, sql[offset:end].strip()) for (offset, kind), end in zip(tokens, ends,
                                                                               strict=True)
             if kind != duckdb.token_type.comment]
    if not words or words[0][1].upper() != "EXPLAIN":
        return None
    rest = words[1:]
    if rest and rest[0][1].upper() in ("ANALYZE", "ANALYSE"):
        rest = rest[1:]
    return sql[rest[0][0]:] if rest else None


def check_read_only(sql: str) -> None:
    """Raise QueryError unless `sql` is exactly one plain read: a SELECT (WITH ... SELECT,
    VALUES, DESCRIBE, SHOW, SUMMARIZE, PIVOT) that writes nothing, or EXPLAIN of one."""
    try:
        statements = duckdb.extract_statements(sql)
        kinds = [s.type for s in statements]
    except duckdb.Error as exc:
        raise QueryError(f"SQL does not parse: {_one_line(exc)}") from None
    except ValueError as exc:  # a statement type the Python module has no member for
        raise QueryError(_ONLY_READS.format(got=f"a statement type without a name: {exc}")
                         ) from None
    if len(kinds) != 1:
        raise QueryError(f"give exactly one SQL statement, got {len(kinds)}")
    kind = kinds[0]
    if kind is duckdb.StatementType.EXPLAIN:
        inner = _explained(sql)
        try:
            inner_kinds = [s.type for s in duckdb.extract_statements(inner)] if inner else []
        except (duckdb.Error, ValueError):
            inner_kinds = []
        if inner_kinds != [duckdb.StatementType.SELECT]:
            got = ", ".join(k.name for k in inner_kinds) or "a form other than EXPLAIN [ANALYZE]"
            raise QueryError(_ONLY_READS.format(got=f"EXPLAIN of {got}"))
        _check_read_tree(inner or "")
        return
    if kind is not duckdb.StatementType.SELECT:
        raise QueryError(_ONLY_READS.format(got=kind.name))
    _check_read_tree(sql)


def query(
    store: Store, sql: str, params: Mapping[str, Any] | Sequence[Any] | None = None
) -> pa.Table:
    """Run one read-only SQL statement over the store's views; parameters are bound."""
    check_read_only(sql)
    con = connect(store)
    try:
        return con.sql(sql, params=params or None).to_arrow_table()
    except duckdb.Error as exc:
        raise QueryError(damaged_store_note(store, exc) or f"query failed: {_one_line(exc)}"
                         ) from None
    finally:
        con.close()


# DuckDB's COPY options for each format a query can be written in.
COPY_FORMATS: dict[str, str] = {
    "csv": "FORMAT csv, HEADER true",
    "json": "FORMAT json, ARRAY true",  # one JSON array of objects
    "jsonl": "FORMAT json",  # JSON Lines: one object per line
}


def _statement_text(sql: str) -> str:
    """`sql` (one statement, checked) without its closing semicolons, to sit inside COPY (...)."""
    tokens = duckdb.tokenize(sql)
    while tokens and tokens[-1][1] == duckdb.token_type.comment:
        tokens = tokens[:-1]
    while tokens and sql[tokens[-1][0]] == ";" and tokens[-1][1] == duckdb.token_type.operator:
        sql = sql[: tokens[-1][0]]
        tokens = tokens[:-1]
    return sql


_NESTED = frozenset({"struct", "list", "map", "union", "array"})


def _nested_as_json(body: str, relation: duckdb.DuckDBPyRelation) -> str:
    """`body` with each list, struct or map column as JSON text, for a CSV cell (DuckDB's CSV
    writer would print its own literal form, which no CSV reader parses); as it is when no
    column is nested or two columns share a name."""
    names = list(relation.columns)
    nested = [str(t.id) in _NESTED for t in relation.types]
    if not any(nested) or len(set(names)) != len(names):
        return body
    columns = ", ".join(
        (f"to_json({q}) AS {q}" if is_nested else q)
        for q, is_nested in zip(('"' + n.replace('"', '""') + '"' for n in names), nested,
                                strict=True))
    return f"SELECT {columns} FROM ({body}\n) AS _rows"


def copy_query(
    store: Store, sql: str, params: Mapping[str, Any] | Sequence[Any] | None, fmt: str,
    target: Path,
) -> None:
    """Run one read-only SQL statement over the store's views and write its rows to `target`
    in `fmt` (csv, json or jsonl) with DuckDB's COPY, streamed. `target` is written as given
    (callers write a temporary file outside the store, or a pipe)."""
    if fmt not in COPY_FORMATS:
        raise QueryError(f"unknown format {fmt!r}: give one of {', '.join(COPY_FORMATS)}")
    check_read_only(sql)
    con = connect(store, output=target)
    try:
        body = _statement_text(sql)
        relation = con.sql(body, params=params or None)  # bound here: errors name its lines
        if _explained(sql) is not None:  # EXPLAIN cannot stand inside COPY: its plan is small
            con.register("_explained", relation.to_arrow_table())
            body, params = "SELECT * FROM _explained", None
        elif fmt == "csv":
            body = _nested_as_json(body, relation)
        copy = (f"COPY ({body}\n) TO {sql_literal(str(target))} "
                f"({COPY_FORMATS[fmt]}, USE_TMP_FILE false)")
        statements = duckdb.extract_statements(copy)  # the user's text stays inside (...)
        if [s.type for s in statements] != [duckdb.StatementType.COPY]:
            raise QueryError(_ONLY_READS.format(got="a statement that does not stay a read"))
        con.execute(copy, params or None)
    except duckdb.Error as exc:
        raise QueryError(damaged_store_note(store, exc) or f"query failed: {_one_line(exc)}"
                         ) from None
    finally:
        con.close()


def stream_query(
    store: Store, sql: str, params: Mapping[str, Any] | Sequence[Any] | None, fmt: str,
    sink: BinaryIO, *, chunk: int = 1 << 20,
) -> None:
    """`copy_query` into `sink` (stdout): DuckDB writes into a pipe, this thread copies the
    pipe to `sink` as the bytes come. A sink that closes early (`| head`) stops the query."""
    read_end, write_end = os.pipe()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            copy_query(store, sql, params, fmt, Path(f"/dev/fd/{write_end}"))
        except BaseException as exc:  # re-raised in the caller's thread
            failed.append(exc)
        finally:
            os.close(write_end)

    worker = threading.Thread(target=run, name="poker-audit-copy", daemon=True)
    worker.start()
    try:
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            while data := pipe.read(chunk):
                sink.write(data)
    finally:
        worker.join()
    if failed:
        if isinstance(failed[0], QueryError) and "Broken pipe" in str(failed[0]):
            raise BrokenPipeError(str(failed[0]))
        raise failed[0]


# what DuckDB raises when a file it reads is damaged (its bare Error: "Out of buffer"); a
# mistake in the SQL (parser, binder, catalog, conversion) never makes the store suspect
_READ_FAILURES = (duckdb.InvalidInputException, duckdb.IOException, duckdb.InternalException)


def damaged_store_note(store: Store, exc: duckdb.Error) -> str:
    """When a read failed because an event file changed since it was committed: one line
    naming it (DuckDB names none, or only the byte it choked on) and pointing at verify;
    otherwise ""."""
    if type(exc) is not duckdb.Error and not isinstance(exc, _READ_FAILURES):
        return ""
    changed = store.changed_event_files()
    if not changed:
        return ""
    more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
    return (f"{changed[0]}{more}: committed event file differs from what the store committed "
            f"(sha256 differs from the manifest), so the query failed ({_one_line(exc)}); "
            f"run `poker-audit verify --store {store.root}`")
