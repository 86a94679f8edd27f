"""Attacks on the SQL surface and the output files (issue 19 items 1, 10, 11 and 12).

Each case runs the real command (click's CliRunner) on a fresh copy of a small audited store:
- SQL writes through `poker-audit query`: every statement type DuckDB has, writes hidden in a
  SELECT (COPY or INSERT inside WITH, EXPLAIN ANALYZE COPY, effectful table functions), and
  the issue's attack on a findings part and on manifest.jsonl. Held: exit code 2, one line,
  every store file byte-identical, nothing created in the working directory.
- Output paths into the store (`sql-init`, `report --out`, `export --out`, `prove --out`, plain
  or through a symlink). Held: exit code 2, one line, the store byte-identical.
- Hostile output and store paths: a BLOB inside a list in every --format; `query` and
  `sql-init` on a store whose path holds `[1]*?` or a newline. Held: exit code 0, no traceback.
- A full disk (ENOSPC while the output is written) for report, export, prove and sql-init.
  Held: exit code 2, one line, no `.tmp` file and no half-written output.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import shutil
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import audit.sql.sqlinit as sqlinit
from audit.cli.main import main
from audit.devtools.attacks import Attack
from audit.devtools.reliability import _build_store
from audit.run.runner import audit_store
from audit.sql.query import query
from audit.store.dataset import Store

SUITE = "sql"

# Statements `query` must refuse ({S}: the store root, {P}: a findings part).
SQL_WRITES: dict[str, str] = {
    "INSERT": "INSERT INTO t VALUES (1)",
    "UPDATE": "UPDATE t SET a = 1",
    "CREATE": "CREATE TABLE t (a INT)",
    "CREATE OR REPLACE VIEW": "CREATE OR REPLACE VIEW findings AS SELECT 1",
    "CREATE MACRO": "CREATE MACRO m(a) AS a",
    "CREATE SECRET": "CREATE SECRET s (TYPE s3)",
    "DELETE": "DELETE FROM t",
    "TRUNCATE": "TRUNCATE t",
    "PREPARE": "PREPARE p AS SELECT 1",
    "EXECUTE": "EXECUTE p",
    "ALTER": "ALTER TABLE t ADD COLUMN b INT",
    "COMMENT ON": "COMMENT ON VIEW events IS 'x'",
    "TRANSACTION": "BEGIN TRANSACTION",
    "COPY onto manifest.jsonl": "COPY (SELECT 'x') TO '{S}/manifest.jsonl' (FORMAT csv)",
    "COPY into the working directory's .tmp": "COPY (SELECT 1) TO '.tmp/x.csv'",
    "COPY FROM DATABASE": "COPY FROM DATABASE memory TO x",
    "ANALYZE": "ANALYZE",
    "DROP": "DROP VIEW events",
    "EXPORT DATABASE": "EXPORT DATABASE '{S}/exported'",
    "PRAGMA": "PRAGMA enable_profiling",
    "VACUUM": "VACUUM",
    "CHECKPOINT": "CHECKPOINT",
    "CALL": "CALL checkpoint()",
    "SET": "SET threads = 1",
    "SET GLOBAL lock_configuration": "SET GLOBAL lock_configuration = false",
    "RESET": "RESET threads",
    "SET VARIABLE": "SET VARIABLE x = 1",
    "USE": "USE memory",
    "INSTALL": "INSTALL httpfs",
    "LOAD": "LOAD parquet",
    "LOAD a file": "LOAD '{S}/x.duckdb_extension'",
    "UPDATE EXTENSIONS": "UPDATE EXTENSIONS",
    "ATTACH": "ATTACH '{S}/x.duckdb' AS x",
    "ATTACH OR REPLACE the manifest": "ATTACH OR REPLACE '{S}/manifest.jsonl' AS m",
    "DETACH": "DETACH x",
    "PIVOT without IN (MULTI)": "PIVOT events ON kind USING count(*)",
    "MERGE INTO": "MERGE INTO t USING (SELECT 1 AS a) s ON t.a = s.a WHEN MATCHED THEN DELETE",
    "EXPLAIN ANALYZE COPY onto manifest.jsonl (the issue)":
        "EXPLAIN ANALYZE COPY (SELECT 'x') TO '{S}/manifest.jsonl'",
    "EXPLAIN ANALYZE COPY a findings part without violations (the issue)":
        "EXPLAIN ANALYZE COPY (SELECT * FROM read_parquet('{P}') WHERE severity NOT IN "
        "('violation', 'critical')) TO '{S}/x.parquet' (FORMAT parquet)",
    "EXPLAIN ANALYZE COPY back onto the findings part (the issue)":
        "EXPLAIN ANALYZE COPY (SELECT * FROM read_parquet('{P}') LIMIT 0) TO '{P}' "
        "(FORMAT parquet)",
    "EXPLAIN ANALYZE INSERT": "EXPLAIN ANALYZE INSERT INTO t VALUES (1)",
    "EXPLAIN EXPLAIN ANALYZE COPY": "EXPLAIN EXPLAIN ANALYZE COPY (SELECT 1) TO '{S}/y.csv'",
    "EXPLAIN with comments": "/* x */ EXPLAIN /* y */ ANALYZE COPY (SELECT 1) TO '{S}/y.csv'",
    "EXPLAIN (options) COPY": "EXPLAIN (FORMAT json) COPY (SELECT 1) TO '{S}/y.csv'",
    "COPY inside WITH onto manifest.jsonl":
        "WITH x AS (COPY (SELECT 'x') TO '{S}/manifest.jsonl' (FORMAT csv)) SELECT 1",
    "COPY inside WITH onto a findings part":
        "WITH x AS (COPY (SELECT * FROM read_parquet('{P}') LIMIT 0) TO '{P}' "
        "(FORMAT parquet, USE_TMP_FILE false)) SELECT 1",
    "COPY inside a subquery's WITH":
        "SELECT (WITH y AS (COPY (SELECT 1) TO '{S}/y.csv') SELECT 1)",
    "EXPLAIN ANALYZE of COPY inside WITH":
        "EXPLAIN ANALYZE WITH x AS (COPY (SELECT 1) TO '{S}/y.csv') SELECT 1",
    "INSERT inside WITH": "WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x",
    "DELETE inside WITH": "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x",
    "UPDATE inside WITH": "WITH x AS (UPDATE t SET a = 2 RETURNING *) SELECT * FROM x",
    "checkpoint()": "SELECT * FROM checkpoint()",
    "force_checkpoint()": "SELECT * FROM force_checkpoint()",
    "query() running a string": "SELECT * FROM query('SELECT 1')",
    "enable_logging()": "SELECT * FROM enable_logging()",
    "enable_profiling()": "SELECT * FROM enable_profiling()",
    "truncate_duckdb_logs()": "SELECT * FROM truncate_duckdb_logs()",
    "add_grammar_extension()": "SELECT * FROM add_grammar_extension('x')",
    "write_log()": "SELECT write_log('x')",
    "nextval()": "SELECT nextval('s')",
    "json_execute_serialized_sql()": "SELECT json_execute_serialized_sql('{{}}')",
    "a write after a read": "SELECT 1; COPY (SELECT 'x') TO '{S}/manifest.jsonl'",
    "a write before a read": "COPY (SELECT 'x') TO '{S}/manifest.jsonl'; SELECT 1",
    "reading a file outside the store": "SELECT * FROM read_text('/etc/passwd')",
}

OUTPUT_COMMANDS = ("sql-init", "report", "export", "prove")


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _build(root: Path) -> Any:
    store = _build_store(root)
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return store


def _invoke(args: list[str]) -> Any:
    from click.testing import CliRunner

    return CliRunner().invoke(main, args)


def _one_line_error(result: Any) -> str:
    """'' when the command failed as it should (exit 2, one line, no traceback), else why not."""
    lines = result.output.strip().splitlines()
    if result.exit_code != 2:
        return f"exit {result.exit_code}: {result.output.strip()[:200]}"
    if len(lines) != 1 or "Traceback" in result.output:
        return f"{len(lines)} lines: {result.output.strip()[:200]}"
    return ""


class _Cases:
    """Runs cases on fresh copies of one pristine store and collects what held."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.pristine = _build(workdir / "pristine")
        self.count = 0
        self.results: list[Attack] = []

    @contextlib.contextmanager
    def fresh(self) -> Iterator[tuple[Any, Path]]:
        """A copy of the store and an empty working directory (the process's, meanwhile)."""
        self.count += 1
        case_dir = self.workdir / f"case-{self.count}"
        store = Store(case_dir / "store")
        shutil.copytree(self.pristine.root, store.root)
        cwd = case_dir / "cwd"
        cwd.mkdir()
        with contextlib.chdir(cwd):
            yield store, cwd
        shutil.rmtree(case_dir, ignore_errors=True)

    def record(self, case: str, attempt: Callable[[], str]) -> None:
        try:
            why = attempt()
        except Exception as exc:  # an attack that crashes the harness did not hold
            why = f"{type(exc).__name__}: {exc}"
        self.results.append(Attack(suite=SUITE, case=case, held=not why, detail=why))


def _sql_write(cases: _Cases, sql: str) -> str:
    with cases.fresh() as (store, cwd):
        part = next(store.root.glob("runs/*/findings/part-*.parquet"))
        before = _snapshot(store.root)
        result = _invoke(["query", sql.format(S=store.root, P=part), "--store",
                          str(store.root)])
        why = _one_line_error(result)
        if _snapshot(store.root) != before:
            why = f"the store changed ({why or 'exit 2'})"
        elif any(cwd.iterdir()):
            why = f"wrote into the working directory: {sorted(p.name for p in cwd.iterdir())}"
        elif not why and not store.verify().ok:
            why = "verify fails after the attempt"
        return why


def output_command(name: str, store: Any, out: Path, hand_id: str) -> list[str]:
    """The arguments of the command `name` that writes `out` (sql-init, report, export, prove)."""
    tail = ["--store", str(store.root)]
    return {
        "sql-init": ["sql-init", str(out), *tail],
        "report": ["report", "--out", str(out), *tail],
        "export": ["export", hand_id, "--format", "ohh", "--out", str(out), *tail],
        "prove": ["prove", hand_id, "--out", str(out), *tail],
    }[name]


def _hand_id(store: Any) -> str:
    return str(query(store, "SELECT min(hand_id) AS h FROM events").column("h")[0].as_py())


def _output_into_store(cases: _Cases, name: str, how: str) -> str:
    with cases.fresh() as (store, cwd):
        if how == "plain":
            out = store.root / "manifest.jsonl"
        else:
            out = cwd / "looks-outside.html"
            out.symlink_to(store.root / "manifest.jsonl")
        before = _snapshot(store.root)
        result = _invoke(output_command(name, store, out, _hand_id(store)))
        why = _one_line_error(result)
        if _snapshot(store.root) != before:
            why = f"the store changed ({why or 'exit 2'})"
        return why


def _full_disk(cases: _Cases, name: str) -> str:
    import duckdb

    def write_text(self: Path, data: str, *args: Any, **kwargs: Any) -> int:
        with open(self, "w", encoding="utf-8") as f:
            f.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    relation = sqlinit._relation

    def filling(con: duckdb.DuckDBPyConnection, store: Any, view: str) -> str:
        if view == "runs":  # the database file exists by now; then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return relation(con, store, view)

    with cases.fresh() as (store, cwd):
        hand_id = _hand_id(store)
        out = cwd / f"out-{name}"
        patch = (mock.patch.object(sqlinit, "_relation", filling) if name == "sql-init"
                 else mock.patch.object(Path, "write_text", write_text))
        with patch:
            result = _invoke(output_command(name, store, out, hand_id))
        why = _one_line_error(result)
        left = sorted(p.name for p in cwd.iterdir())
        if left:
            why = f"left behind: {left} ({why or 'exit 2'})"
        return why


def _blob_in_list(cases: _Cases, fmt: str) -> str:
    with cases.fresh() as (store, _):
        result = _invoke(["query", "SELECT [blob 'a\\x00b', blob '\\xFF'] AS blobs, "
                          "{'b': blob 'z'} AS s, [TIME '01:02:03'] AS t", "--store",
                          str(store.root), "--format", fmt])
        if result.exit_code != 0 or "Traceback" in result.output:
            return f"exit {result.exit_code}: {result.output.strip()[-200:]}"
        return "" if "a\\x00b" in result.output.replace("\\\\", "\\") else result.output[:200]


def _odd_store_path(cases: _Cases, folder: str, command: str) -> str:
    with cases.fresh() as (_, cwd):
        store = _build(cwd / folder)
        if command == "query":
            result = _invoke(["query", "SELECT (SELECT count(*) FROM events) + (SELECT count(*) "
                              "FROM findings) + (SELECT count(*) FROM quarantine) AS n",
                              "--store", str(store.root), "--format", "csv"])
        else:
            result = _invoke(["sql-init", str(cwd / "audit.duckdb"), "--store",
                              str(store.root)])
        if result.exit_code != 0 or "Traceback" in result.output:
            return f"exit {result.exit_code}: {result.output.strip()[-200:]}"
        return ""


def attacks(workdir: Path) -> list[Attack]:
    """Every case of this suite, each on a fresh copy of a small audited store."""
    cases = _Cases(workdir)
    for case, sql in SQL_WRITES.items():
        cases.record(f"query: {case}", lambda sql=sql: _sql_write(cases, sql))
    for name in OUTPUT_COMMANDS:
        for how in ("plain", "symlink"):
            cases.record(f"{name} output onto STORE/manifest.jsonl ({how})",
                         lambda name=name, how=how: _output_into_store(cases, name, how))
    for fmt in ("table", "csv", "json"):
        cases.record(f"query: a BLOB inside a list, --format {fmt}",
                     lambda fmt=fmt: _blob_in_list(cases, fmt))
    for folder in ("glob[1]*?", "new\nline"):
        for command in ("query", "sql-init"):
            cases.record(f"{command} on a store path with {folder!r}",
                         lambda folder=folder, command=command:
                         _odd_store_path(cases, folder, command))
    for name in OUTPUT_COMMANDS:
        cases.record(f"{name}: disk full while writing the output",
                     lambda name=name: _full_disk(cases, name))
    return cases.results
