"""The store's read view: readers and verify see the committed batches and nothing else,
write nothing, and say in one line what is wrong with a damaged store. Issue 19 items 7, 9,
11 (event files) and 12 (verify --head)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner

import audit.store.dataset as store_module
from audit.cli.main import main
from audit.devtools.attacks_store import leave_committed_in_staging, read_only_store
from audit.devtools.faults import hands_table
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet


def _cli(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def filled(store: Store, tmp_path: Path) -> Store:
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("a", 3))], store)
    ingest([write_parquet(tmp_path / "b.parquet", many_hands("b", 2))], store)
    return store


# ----------------------------------------------------------------------------- item 7
def test_verify_while_a_batch_commits_reports_no_unlisted_file(filled: Store, tmp_path: Path,
                                                               monkeypatch):
    """Regression: a batch that committed and published while verify ran (after it read the
    manifest, before it scanned events/) was reported UNLISTED (17 of 18 runs)."""
    src = write_parquet(tmp_path / "c.parquet", many_hands("c", 2))
    real = store_module.sha256_file
    committed: list[dict] = []

    def hash_while_an_ingest_commits(path: Path) -> str:
        if not committed:
            ingest([src], filled)
            committed.append(filled.records()[-1])
        return real(path)

    monkeypatch.setattr(store_module, "sha256_file", hash_while_an_ingest_commits)
    report = filled.verify()
    assert committed and (filled.root / committed[0]["files"][0]["path"]).exists()
    assert report.ok, report.problems
    assert (report.batches, report.hands) == (2, 5)  # the snapshot verify started from


def test_verify_with_a_writer_mid_batch_and_a_committed_batch_in_staging(filled: Store,
                                                                        tmp_path: Path):
    leave_committed_in_staging(filled, write_parquet(tmp_path / "c.parquet",
                                                     many_hands("c", 2)))
    writer = filled.batch_writer()
    try:
        writer.write("2026-11-01", hands_table("w", 2))  # open, unfinished, in staging
        assert any((filled.root / "staging" / writer.batch_id).rglob("*.parquet"))
        report = filled.verify()
    finally:
        writer.abort()
    assert report.ok, report.problems
    assert (report.batches, report.hands) == (3, 7)


def test_a_file_published_while_verify_hashes_it_is_not_missing(filled: Store, tmp_path: Path,
                                                               monkeypatch):
    """A committed file verify found in staging is moved into place by a writer before
    verify opens it: verify looks again, in place."""
    leave_committed_in_staging(filled, write_parquet(tmp_path / "c.parquet",
                                                     many_hands("c", 2)))
    real = store_module.sha256_file
    published: list[bool] = []

    def publish_first(path: Path) -> str:
        if "staging" in path.parts and not published:
            published.append(True)
            with filled.locked():
                pass  # a writer's recovery publishes the staged batch now
        return real(path)

    monkeypatch.setattr(store_module, "sha256_file", publish_first)
    report = filled.verify()
    assert published and report.ok, report.problems


# ----------------------------------------------------------------------------- item 9
READERS = {
    "query": lambda s, out: ["query", "SELECT count(*) AS n FROM hands_started",
                             "--format", "csv", "--store", s],
    "findings": lambda s, out: ["findings", "--format", "csv", "--store", s],
    "report": lambda s, out: ["report", "--out", str(out / "r.html"), "--store", s],
    "export": lambda s, out: ["export", "c1", "--format", "ohh", "--store", s],
    "replay": lambda s, out: ["replay", "c1", "--store", s],
    "verify": lambda s, out: ["verify", "--store", s],
}


@pytest.fixture
def read_only_leftover(filled: Store, tmp_path: Path) -> Store:
    """A store with an audit run and a committed batch (c0, c1) still in staging."""
    audit_store(filled)
    leave_committed_in_staging(filled, write_parquet(tmp_path / "c.parquet",
                                                     many_hands("c", 2)))
    assert any((filled.root / "staging").iterdir())
    return filled


@pytest.mark.parametrize("command", sorted(READERS))
def test_readers_of_a_read_only_store_with_a_crash_leftover(read_only_leftover: Store,
                                                            tmp_path: Path, command: str):
    """Regression: query, report, export and replay crashed on a read-only store holding a
    committed batch in staging (they tried to publish it). Now they read it from staging and
    write nothing: every write under the store raises EROFS and none is attempted."""
    store = read_only_leftover
    out = tmp_path / "out"
    out.mkdir()
    with read_only_store(store.root) as attempts:
        result = CliRunner().invoke(main, READERS[command](str(store.root), out))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1), result.output
    assert attempts == []
    expected = {"query": "n\n7\n", "export": '"c1"', "replay": "c1", "verify": "7 hands"}
    assert expected.get(command, "") in result.output
    assert any((store.root / "staging").iterdir())  # still there: nothing was published


def test_quarantine_of_a_committed_batch_in_staging_is_read_from_there(filled: Store,
                                                                       tmp_path: Path):
    """Regression: the quarantine view skipped a committed batch's rejected.jsonl that was
    still in staging (it looked in place only), so its rejected input went unseen."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hand_id": "broken", "seq": 5}\n', encoding="utf-8")
    with mock.patch.object(Store, "_publish", lambda self, batch_dir, record: None):
        ingest([bad], filled, fmt="events")  # killed after its commit point, as it were
    assert filled.records()[-1]["quarantine"]
    with read_only_store(filled.root) as attempts:
        result = _cli("query", "SELECT count(*) AS n FROM quarantine", "--format", "csv",
                      "--store", str(filled.root))
    assert result.exit_code == 0 and result.output == "n\n1\n" and not attempts


def test_the_read_only_guard_refuses_writes(read_only_leftover: Store):
    """The guard the read-only tests rely on really stops a writer (tests run as root, so
    chmod alone would not)."""
    with read_only_store(read_only_leftover.root) as attempts, pytest.raises(OSError) as exc:
        with read_only_leftover.locked():
            pass
    assert exc.value.errno == errno.EROFS and attempts


def test_audit_reads_a_committed_batch_left_in_staging(read_only_leftover: Store):
    summary = audit_store(read_only_leftover)
    assert summary.hands == 7


# ----------------------------------------------------------------------------- item 11
@pytest.mark.parametrize("damage", ["truncated", "deleted"])
@pytest.mark.parametrize("command", ["query", "report", "audit", "replay", "export"])
def test_a_damaged_event_file_is_one_line_naming_it_and_verify(filled: Store, tmp_path: Path,
                                                               damage: str, command: str):
    """Regression: a truncated or deleted event file gave DuckDB and Arrow tracebacks, or
    the advice to free disk space."""
    audit_store(filled)  # report needs a run
    victim = filled.root / filled.records()[0]["files"][0]["path"]
    if damage == "deleted":
        victim.unlink()
    else:
        victim.write_bytes(victim.read_bytes()[:100])
    args = {"query": ["query", "SELECT count(*) FROM events"],
            "report": ["report", "--out", str(tmp_path / "r.html")], "audit": ["audit"],
            "replay": ["replay", "a1"], "export": ["export", "a1", "--format", "ohh"]}[command]
    result = CliRunner().invoke(main, [*args, "--store", str(filled.root)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    assert victim.name in lines[0] and "poker-audit verify" in lines[0]
    assert "disk space" not in lines[0]


def test_an_event_file_damaged_inside_is_a_store_error_for_the_audit(filled: Store):
    victim = filled.root / filled.records()[0]["files"][0]["path"]
    data = bytearray(victim.read_bytes())
    data[4:60] = b"\0" * 56  # the footer stays: only reading the pages finds it
    victim.write_bytes(bytes(data))
    result = _cli("audit", "--store", str(filled.root))
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and victim.name in lines[0] and "poker-audit verify" in lines[0]


def test_an_os_error_that_is_not_space_or_permissions_points_at_verify(filled: Store,
                                                                      monkeypatch):
    def gone(*args: object, **kwargs: object) -> object:
        raise OSError(errno.EIO, os.strerror(errno.EIO), "events/x.parquet")

    monkeypatch.setattr(store_module.Store, "verify", gone)
    result = _cli("verify", "--store", str(filled.root))
    assert result.exit_code == 2
    assert "run `poker-audit verify`" in result.output and "disk space" not in result.output


def test_disk_full_still_says_free_disk_space(filled: Store, monkeypatch):
    def full(*args: object, **kwargs: object) -> object:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "x")

    monkeypatch.setattr(store_module.Store, "verify", full)
    result = _cli("verify", "--store", str(filled.root))
    assert result.exit_code == 2 and "free disk space" in result.output


# ----------------------------------------------------------------------------- item 12
def test_verify_head_exposes_a_rollback_of_the_newest_batch(filled: Store):
    published = filled.head()
    first_head = filled.records()[0]["hash"]
    last = filled.records()[-1]
    for item in last["files"]:
        (filled.root / item["path"]).unlink()
    lines = filled.manifest_path.read_bytes().splitlines(keepends=True)
    filled.manifest_path.write_bytes(b"".join(lines[:-1]))
    assert _cli("verify", "--store", str(filled.root)).exit_code == 0  # nothing contradicts
    rolled = _cli("verify", "--store", str(filled.root), "--head", published)
    assert rolled.exit_code == 1
    problems = [line for line in rolled.output.splitlines() if not line.startswith("FAILED")]
    assert len(problems) == 1 and problems[0].startswith("HEAD: ") and published in problems[0]
    assert filled.verify(head=published).problems[0].kind == "head"
    held = _cli("verify", "--store", str(filled.root), "--head", first_head.upper())
    assert held.exit_code == 0 and "holds the published head" in held.output


def test_verify_prints_the_head_to_publish_and_refuses_a_malformed_head(filled: Store):
    result = _cli("verify", "--store", str(filled.root))
    assert result.exit_code == 0
    assert f"verify --head {filled.head()}" in result.output
    bad = _cli("verify", "--store", str(filled.root), "--head", "not-a-hash")
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
