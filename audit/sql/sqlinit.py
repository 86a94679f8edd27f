"""`sql_init`: a DuckDB database file holding the store's views, for DuckDB's own CLI, DBeaver or
any DuckDB client; `sql_script`: the same views as a SQL script an older DuckDB can run.

The views are those of schemas/views.sql over globs of the store layout by absolute path
(`events/date=*/*.parquet`, `runs/<run_id>/...`, `quarantine/<batch>/rejected.jsonl`), so a
database written yesterday reads the batches and runs committed since. The runs read are those
the manifest's run records name (every run directory of a store written before runs were
committed); the latest run is the last run record, never decided by names; a hidden directory
(`runs/.<id>.tmp` of an audit still writing) is never read. A glob that finds no file yet reads
an empty table of the right schema. (A committed batch or run that a crashed writer left in
staging is read once the next writer has put it in place.)

A file is ours when it holds the table `poker_audit.sql_init`, written with the views: running
`sql_init` on it again refreshes our views and that table in one transaction and never touches
a table or view the user added. Any other existing file is refused (NotOurFileError) unless
`force`, which replaces it whole. Every OS or DuckDB error is one AuditError line.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import duckdb
import pyarrow as pa

from audit.errors import AuditError, QueryError
from audit.schema import arrow_schema, schemas_dir
from audit.sql.query import QUARANTINE_COLUMNS, sql_literal
from audit.store.dataset import Store
from audit.store.outfile import check_output_path, replacing, temporary_name, write_output
from audit.store.run_layout import OUTPUTS
from audit.store.runs import run_dirs

MARKER = "poker_audit.sql_init"
SCRIPT_HEADER = "-- poker-audit sql-init --script"
DUCKDB_MAGIC = b"DUCK"  # bytes 8-11 of every DuckDB database file


class NotOurFileError(AuditError):
    """An existing file that sql-init did not write: it is never overwritten without --force."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SqlInitResult:
    """What `sql_init` wrote: the file, whether it refreshed one of ours, and the oldest DuckDB
    that opens it."""

    path: Path
    refreshed: bool
    opens_with: str


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def glob_escape(text: str) -> str:
    """`text` matched literally by DuckDB's glob (a store under `glob[1]*?`)."""
    return "".join(f"[{c}]" if c in "[]*?" else c for c in text)


def _pattern(store: Store, rel: str) -> str:
    return sql_literal(glob_escape(str(store.root.resolve())) + "/" + rel)


@cache
def _duckdb_types(name: str) -> tuple[tuple[str, str], ...]:
    """(column, DuckDB type) of schemas/<name>.json (quarantine: its JSON Lines columns)."""
    if name == "quarantine":
        return (*QUARANTINE_COLUMNS.items(), ("filename", "VARCHAR"))
    try:
        table = arrow_schema(name).empty_table()
    except FileNotFoundError:
        table = pa.table({"run_id": pa.array([], pa.string())})
    with duckdb.connect(":memory:") as con:
        con.register("_empty", table)
        return tuple((str(r[0]), str(r[1])) for r in con.execute("DESCRIBE _empty").fetchall())


def _empty(name: str, *, extra: str = "") -> str:
    """A relation with no row and the columns of `name` (plus `extra`)."""
    columns = [f'CAST(NULL AS {t}) AS "{c.replace(chr(34), chr(34) * 2)}"'
               for c, t in _duckdb_types(name)]
    return f"(SELECT {', '.join(columns + ([extra] if extra else []))} LIMIT 0)"


# The files of each view, as globs under the store root; `[!.]*` skips hidden directories.
_RUN = "runs/[!.]*/"
_GLOBS: dict[str, tuple[str, ...]] = {
    "events": ("events/date=*/*.parquet",),
    **{name: (f"{_RUN}{name}.parquet", f"{_RUN}{name}/part-*.parquet") for name in OUTPUTS},
    "collusion": (f"{_RUN}collusion.parquet",),
    "runs": (f"{_RUN}run.json",),
    "quarantine": ("quarantine/*/rejected.jsonl",),
}
_SCHEMA = {"collusion": "findings"}


def _columns(name: str) -> str:
    """The `columns` argument of read_json for the view `name`."""
    types = QUARANTINE_COLUMNS.items() if name == "quarantine" else _duckdb_types(name)
    return "{" + ", ".join(f"'{c}': '{t}'" for c, t in types) + "}"


def _reader(store: Store, name: str, *, allow_empty: bool) -> str:
    """The reader of the view `name`'s globs; without `allow_empty`, of those that match."""
    globs = _GLOBS[name] if allow_empty else [g for g in _GLOBS[name] if _matches(store, g)]
    paths = "[" + ", ".join(_pattern(store, g) for g in globs) + "]"
    empty = ", allow_empty = true" if allow_empty else ""
    if name == "runs":
        return f"read_json({paths}, format = 'auto', columns = {_columns(name)}{empty})"
    if name == "quarantine":
        return (f"read_json({paths}, format = 'newline_delimited', columns = "
                f"{_columns(name)}, filename = true{empty})")
    return f"read_parquet({paths}, union_by_name = true, hive_partitioning = false{empty})"


def _matches(store: Store, glob: str) -> bool:
    return any(p.is_file() for p in store.root.resolve().glob(glob))


def _committed(relation: str) -> str:
    """Only the rows of runs the chain commits (all runs of a store without run records)."""
    return (f"(SELECT * FROM {relation} WHERE run_id IN (SELECT run_id FROM "
            "poker_audit.chain_runs) OR NOT EXISTS (SELECT 1 FROM poker_audit.chain_runs))")


def _latest_run() -> str:
    return ("coalesce((SELECT run_id FROM poker_audit.chain_runs ORDER BY line DESC LIMIT 1), "
            "(SELECT max(run_id) FROM runs))")


def _relation(con: duckdb.DuckDBPyConnection | None, store: Store, name: str) -> str:
    """The SQL relation that fills `{name}` in views.sql of the database file: the globs of
    `name`, read as an empty relation of the right schema while they find no file (DuckDB's
    allow_empty; its placeholder column `empty` is dropped)."""
    del con  # kept in the signature: tests simulate a full disk while the views are built
    if name == "latest_run":
        return _latest_run()
    base = _empty(_SCHEMA.get(name, name), extra="CAST(NULL AS BOOLEAN) AS empty")
    relation = (f"(SELECT * EXCLUDE (empty) FROM ({base} UNION ALL BY NAME "
                f"SELECT * FROM {_reader(store, name, allow_empty=True)}))")
    return relation if name in ("events", "quarantine") else _committed(relation)


def _script_relation(store: Store, name: str) -> str:
    """`{name}` for the SQL script, in SQL an older DuckDB runs (no allow_empty): the globs of
    `name`, or an empty relation while the store has no such file (until the script is
    written again)."""
    if name == "latest_run":
        return _latest_run()
    found = any(_matches(store, g) for g in _GLOBS[name])
    relation = (_reader(store, name, allow_empty=False) if found
                else _empty(_SCHEMA.get(name, name)))
    return relation if name in ("events", "quarantine") else _committed(relation)


def _chain_runs(store: Store) -> str:
    """`poker_audit.chain_runs`: the run records of manifest.jsonl with their line numbers (a
    torn last line is no JSON, so it is never a record)."""
    manifest = sql_literal(str(store.manifest_path.resolve()))
    return (
        "CREATE OR REPLACE VIEW poker_audit.chain_runs AS\n"
        "SELECT line, json_extract_string(record, '$.run_id') AS run_id\n"
        "FROM (SELECT unnest(lines) AS record, generate_subscripts(lines, 1) AS line\n"
        f"      FROM (SELECT string_split(content, chr(10)) AS lines FROM read_text({manifest})))\n"
        "WHERE json_valid(record) AND json_extract_string(record, '$.kind') = 'run';\n"
    )


def _views(con: duckdb.DuckDBPyConnection | None, store: Store, *, script: bool) -> str:
    """The SQL that makes the views: the helper schema, then schemas/views.sql filled for
    `store` (for the database file, or for the SQL script)."""
    views = (schemas_dir() / "views.sql").read_text(encoding="utf-8")
    names = sorted({field for _, field, _, _ in string.Formatter().parse(views) if field})
    relations = {name: _script_relation(store, name) if script else _relation(con, store, name)
                 for name in names}
    if script and not store.manifest_path.exists():
        chain = ("CREATE OR REPLACE VIEW poker_audit.chain_runs AS "
                 "SELECT CAST(NULL AS BIGINT) AS line, CAST(NULL AS VARCHAR) AS run_id LIMIT 0;\n")
    else:
        chain = _chain_runs(store)
    return "CREATE SCHEMA IF NOT EXISTS poker_audit;\n" + chain + views.format(**relations)


def sql_script(store: Store | str | Path) -> str:
    """The views over `store` as a SQL script for any DuckDB client (`duckdb -init FILE`, or
    `.read FILE`): globs by absolute path, no feature of a recent DuckDB. A view over a kind of
    file the store has none of yet stays empty until the script is written again."""
    store = _open(store)
    run_dirs(store)  # every committed run checked first (RunCheckError)
    return (f"{SCRIPT_HEADER}: the views over {_comment(store.root)}\n"
            "-- Run it in any DuckDB client: duckdb -init THIS_FILE, or .read THIS_FILE\n"
            + _views(None, store, script=True))


def _comment(path: Path) -> str:
    return " ".join(str(path.resolve()).split())


def _open(store: Store | str | Path) -> Store:
    store = Store((store.root if isinstance(store, Store) else Path(store)).resolve())
    store.ensure_recovered()
    return store


def is_ours(path: Path) -> bool:
    """True when `path` is a DuckDB database holding sql-init's marker table."""
    try:
        with path.open("rb") as f:
            if f.read(12)[8:12] != DUCKDB_MAGIC:
                return False
    except OSError:
        return False
    try:
        with duckdb.connect(str(path), read_only=True) as con:
            found = con.execute(
                "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'poker_audit' "
                "AND table_name = 'sql_init'").fetchone()
    except duckdb.Error as exc:
        if "lock" in str(exc).lower():
            raise QueryError(f"cannot write {path}: another program has it open ("
                             f"{_one_line(exc)}); close it there and run sql-init again"
                             ) from None
        return False
    return bool(found and found[0])


def _write(con: duckdb.DuckDBPyConnection, store: Store) -> None:
    con.execute(_views(con, store, script=False))
    con.execute(f"CREATE OR REPLACE TABLE {MARKER} (key VARCHAR, value VARCHAR)")
    con.execute(f"INSERT INTO {MARKER} VALUES ('written_by', 'poker-audit sql-init'), "
                "('store', $store), ('duckdb_version', $version), ('written_at', $at)",
                {"store": str(store.root), "version": duckdb.__version__,
                 "at": datetime.now(UTC).isoformat(timespec="seconds")})


def _opens_with(con: duckdb.DuckDBPyConnection) -> str:
    row = con.execute("SELECT tags['storage_version'] FROM duckdb_databases() "
                      "WHERE database_name = current_database()").fetchone()
    return str(row[0]).removesuffix("+") if row and row[0] else duckdb.__version__


def sql_init(store: Store | str | Path, path: str | Path, *, force: bool = False) -> Path:
    """Write a DuckDB database file at `path` holding the views over `store`; returns the path
    (write_database says more)."""
    return write_database(store, path, force=force).path


def write_database(store: Store | str | Path, path: str | Path, *, force: bool = False
                   ) -> SqlInitResult:
    """Write a DuckDB database file at `path` holding the views over `store`.

    A file sql-init wrote before is refreshed in place (our views and marker only, in one
    transaction: the user's tables stay); any other existing file is refused (NotOurFileError)
    unless `force`, which replaces it whole. A new file is written beside `path` first and
    removed if writing fails; a `path` inside the store is refused (OutputPathError); an OS or
    DuckDB error is one line (QueryError).
    """
    store = _open(store)
    path = check_output_path(store, path)
    run_dirs(store)  # every committed run checked first (RunCheckError)
    try:
        exists = path.exists() or path.is_symlink()
        if exists and not force and is_ours(path):
            return _refresh(store, path)
        if exists and not force:
            raise NotOurFileError(
                f"refusing to overwrite {path}: it is not a database poker-audit sql-init "
                "wrote (nothing was changed); give a new file name, or --force to replace it")
        return _create(store, path)
    except OSError as exc:
        raise QueryError(f"could not write {path}: {exc.strerror or _one_line(exc)}"
                         ) from None


def _create(store: Store, path: Path) -> SqlInitResult:
    with replacing(store, path) as tmp:
        try:
            con = duckdb.connect(str(tmp))
        except duckdb.Error as exc:
            raise QueryError(f"could not write {path}: {_one_line(exc)}") from None
        try:
            _write(con, store)
            con.execute("CHECKPOINT")
            opens_with = _opens_with(con)
        except duckdb.Error as exc:
            raise QueryError(f"could not write {path}: {_one_line(exc)}") from None
        finally:
            con.close()
    return SqlInitResult(path=path, refreshed=False, opens_with=opens_with)


def _refresh(store: Store, path: Path) -> SqlInitResult:
    try:
        con = duckdb.connect(str(path))
    except duckdb.Error as exc:
        raise QueryError(f"could not refresh {path}: {_one_line(exc)}") from None
    try:
        con.execute("BEGIN TRANSACTION")
        try:
            _write(con, store)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("CHECKPOINT")
        opens_with = _opens_with(con)
    except duckdb.Error as exc:
        raise QueryError(f"could not refresh {path} (it is unchanged): {_one_line(exc)}"
                         ) from None
    finally:
        con.close()
    temporary_name(path).unlink(missing_ok=True)
    return SqlInitResult(path=path, refreshed=True, opens_with=opens_with)


def write_sql_script(store: Store | str | Path, path: str | Path, *, force: bool = False
                     ) -> Path:
    """Write `sql_script(store)` to `path` (whole or not at all). An existing file that is
    not a script sql-init wrote is refused (NotOurFileError) unless `force`."""
    store = _open(store)
    path = check_output_path(store, path)
    text = sql_script(store)
    try:
        if (path.exists() or path.is_symlink()) and not force:
            with path.open("rb") as f:
                ours = f.read(len(SCRIPT_HEADER)) == SCRIPT_HEADER.encode()
            if not ours:
                raise NotOurFileError(
                    f"refusing to overwrite {path}: it is not a script poker-audit sql-init "
                    "wrote (nothing was changed); give a new file name, or --force to "
                    "replace it")
        return write_output(store, path, text)
    except OSError as exc:
        raise QueryError(f"could not write {path}: {exc.strerror or _one_line(exc)}"
                         ) from None
