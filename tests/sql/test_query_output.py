"""`query` output as an analyst pipes it (issue 23): csv, json and jsonl are written by DuckDB's
own writer as the rows come (a million rows never pass through Python), to stdout or `--out`;
the table is for the terminal, with numbers right-aligned; every read-only guarantee holds for
the new output paths too."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pytest
from click.testing import CliRunner

import audit.cli.query as cli_query
from audit.cli.main import main
from audit.cli.output import render
from audit.devtools.attacks_sql import SQL_WRITES
from audit.devtools.reliability import _build_store
from audit.run.runner import audit_store
from audit.sql.query import query, stream_query
from audit.store.dataset import Store

ROWS = ("SELECT hand_id, seq, kind, amount, TIMESTAMP '2026-11-21 12:00:00' AS at, "
        "[seq, seq + 1] AS pair "
        "FROM events ORDER BY hand_id, seq LIMIT 7")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Store:
    s = _build_store(tmp_path_factory.mktemp("queryout"))
    audit_store(s, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return s


@pytest.fixture
def store(pristine: Store, tmp_path_factory: pytest.TempPathFactory) -> Store:
    copy = Store(tmp_path_factory.mktemp("copy") / "store")
    shutil.copytree(pristine.root, copy.root)
    return copy


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def run(store: Store, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["query", *args, "--store", str(store.root)])
    return result.exit_code, result.output


def expected(store: Store) -> list[dict[str, object]]:
    return query(store, ROWS).to_pylist()


def test_csv_json_and_jsonl_hold_the_same_rows(pristine: Store) -> None:
    rows = expected(pristine)
    code, text = run(pristine, ROWS, "--format", "csv")
    assert code == 0, text
    from_csv = list(csv.DictReader(io.StringIO(text)))
    assert [(r["hand_id"], int(r["seq"]), r["kind"]) for r in from_csv] == [
        (r["hand_id"], r["seq"], r["kind"]) for r in rows]
    assert [r["amount"] or None for r in from_csv] == [
        None if r["amount"] is None else str(r["amount"]) for r in rows]
    code, text = run(pristine, ROWS, "--format", "json")
    assert code == 0, text
    from_json = json.loads(text)
    code, text = run(pristine, ROWS, "--format", "jsonl")
    assert code == 0, text
    from_jsonl = [json.loads(line) for line in text.splitlines()]
    assert from_json == from_jsonl
    assert [{k: v for k, v in r.items() if k != "at"} for r in from_jsonl] == [
        {k: v for k, v in r.items() if k != "at"} for r in rows]
    assert {r["at"] for r in from_jsonl} == {"2026-11-21 12:00:00"}


def test_no_row_is_an_empty_array_or_nothing(pristine: Store) -> None:
    none = "SELECT hand_id FROM events WHERE false"
    assert json.loads(run(pristine, none, "--format", "json")[1]) == []
    assert run(pristine, none, "--format", "jsonl") == (0, "")
    assert run(pristine, none, "--format", "csv") == (0, "hand_id\n")


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_rows_never_pass_through_python(pristine: Store, fmt: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: every format fetched the whole result as Python objects and rendered it (1M
    rows to CSV: 30 s and 1.8 GB). Now DuckDB's COPY writes them; Python only moves bytes."""
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("rows materialised in Python")

    monkeypatch.setattr(cli_query, "render", refuse)
    monkeypatch.setattr(cli_query, "run_query", refuse)
    code, text = run(pristine, "SELECT range AS i FROM range(200000)", "--format", fmt)
    assert code == 0, text
    assert text.count("\n") >= 200000


def test_stream_query_hands_over_bytes_as_duckdb_writes_them(pristine: Store) -> None:
    class Sink(io.RawIOBase):
        def __init__(self) -> None:
            self.writes: list[int] = []

        def write(self, data: object) -> int:
            size = len(data)  # type: ignore[arg-type]
            self.writes.append(size)
            return size

    sink = Sink()
    stream_query(pristine, "SELECT range AS i, 'x' || range AS s FROM range(300000)", None,
                 "csv", sink, chunk=1 << 16)  # type: ignore[arg-type]
    assert len(sink.writes) > 10
    assert max(sink.writes) <= 1 << 16
    assert sum(sink.writes) > 3_000_000


@pytest.mark.slow
def test_a_million_rows_stream_in_little_memory(pristine: Store, tmp_path: Path) -> None:
    """Before: 1M rows to CSV peaked at 1.8 GB (JSON 4.2 GB); DuckDB's writer needs a fraction."""
    sql = ("SELECT range AS i, 'hand-' || range AS hand_id, range * 7 AS amount, "
           "[range, range + 1] AS l FROM range(1000000)")
    out = tmp_path / "rows.jsonl"
    # a fresh parent whose only child is the query: RUSAGE_CHILDREN of this test's own process
    # would be the largest child any earlier test started
    measure = ("import resource, subprocess, sys; "
               "subprocess.run(sys.argv[1:], check=True); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
    with out.open("wb") as sink:
        done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "audit.cli",
                               "query", sql, "--store", str(pristine.root), "--format", "jsonl"],
                              stdout=sink, stderr=subprocess.PIPE, check=True, cwd=REPO,
                              env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    peak_mb = int(done.stderr.decode().split()[-1]) / 1024
    assert sum(1 for _ in out.open("rb")) == 1_000_000
    assert peak_mb < 600, f"peak RSS {peak_mb:.0f} MB"


def test_out_writes_a_file_and_never_into_the_store(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    code, text = run(store, ROWS, "--format", "jsonl", "--out", str(out))
    assert code == 0, text
    assert text == f"wrote {out}\n"
    assert len(out.read_text().splitlines()) == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.jsonl"]
    before = snapshot(store.root)
    code, text = run(store, ROWS, "--format", "csv", "--out", str(store.root / "manifest.jsonl"))
    assert code == 2
    assert "inside the store" in text
    assert snapshot(store.root) == before
    code, text = run(store, ROWS, "--out", str(out))
    assert code == 2
    assert text.startswith("Error: --out writes csv, json or jsonl")


def test_a_failing_query_is_one_line_and_leaves_no_file(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    code, text = run(store, "SELECT * FROM no_such_view", "--format", "csv", "--out", str(out))
    assert code == 2
    assert len(text.strip().splitlines()) == 1 and text.startswith("Error: query failed: ")
    assert list(tmp_path.iterdir()) == []


def test_a_closing_semicolon_and_a_trailing_comment_are_fine(pristine: Store) -> None:
    assert run(pristine, "SELECT 1 AS a; -- done", "--format", "csv") == (0, "a\n1\n")
    assert run(pristine, "SELECT 1 AS a -- done", "--format", "jsonl") == (0, '{"a":1}\n')
    assert run(pristine, "SELECT $n AS n", "-p", "n", "5", "--format", "jsonl") == (
        0, '{"n":"5"}\n')


def test_explain_prints_in_every_format(pristine: Store) -> None:
    code, text = run(pristine, "EXPLAIN SELECT count(*) FROM events", "--format", "jsonl")
    assert code == 0, text
    assert json.loads(text.splitlines()[0])["explain_key"] == "physical_plan"


def test_a_reader_that_stops_early_is_not_an_error(pristine: Store) -> None:
    proc = subprocess.run(
        f"{sys.executable} -m audit.cli query 'SELECT range AS i FROM range(50000000)' "
        f"--store '{pristine.root}' --format csv | head -3",
        shell=True, capture_output=True, text=True, cwd=REPO, timeout=120,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert proc.stdout == "i\n0\n1\n"
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(SQL_WRITES))
def test_writes_are_refused_on_the_streamed_paths_too(store: Store, case: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    part = next(store.root.glob("runs/*/findings/part-*.parquet"))
    sql = SQL_WRITES[case].format(S=store.root, P=part)
    before = snapshot(store.root)
    for args in (("--format", "csv", "--out", str(tmp_path / "o.csv")), ("--format", "jsonl")):
        code, text = run(store, sql, *args)
        assert code == 2, (sql, text)
        assert text.startswith("Error: ") and "Traceback" not in text
        assert snapshot(store.root) == before, sql
        assert list(tmp_path.iterdir()) == []


def test_numbers_are_right_aligned_in_the_terminal_table() -> None:
    table = pa.table({"player": ["alice", "bob"], "hands": [7, 12345],
                      "net": [-250, 1_000_000], "note": ["x", None]})
    assert render(table, "table") == (
        "player  hands      net  note\n"
        "------  -----  -------  ----\n"
        "alice       7     -250  x\n"
        "bob     12345  1000000\n"
        "(2 rows)\n")


def test_a_nested_column_is_json_in_a_csv_cell(pristine: Store) -> None:
    code, text = run(pristine, "SELECT {'big_blind': 400, 'currency': 'USD'} AS game, "
                     "[1, 2] AS seats, 'x' AS note", "--format", "csv")
    assert code == 0, text
    (row,) = csv.DictReader(io.StringIO(text))
    assert json.loads(row["game"]) == {"big_blind": 400, "currency": "USD"}
    assert json.loads(row["seats"]) == [1, 2]
    assert row["note"] == "x"
