"""The manifest's one torn-line rule (audit.store.dataset.read_manifest), shared by readers,
verify and
the append path: a whole last record whose newline is missing is committed and kept, a
proper prefix of one is a torn append and is cut, anything else is damage that stops the
command with one line pointing at verify. Issue 19 items 4 and 11."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.devtools.attacks_store import manifest_byte_flips
from audit.errors import StoreError
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store, read_manifest, record_hash
from tests.support.eventrows import many_hands, write_parquet


@pytest.fixture
def two_batches(store: Store, tmp_path: Path) -> Store:
    ingest([write_parquet(tmp_path / "a.parquet", many_hands("a", 3))], store)
    ingest([write_parquet(tmp_path / "b.parquet", many_hands("b", 4))], store)
    assert store.verify().ok
    return store


def _split_last(store: Store) -> tuple[bytes, bytes]:
    raw = store.manifest_path.read_bytes()
    first, last = raw.rstrip(b"\n").rsplit(b"\n", 1)
    return first + b"\n", last


def test_missing_final_newline_keeps_the_last_batch_through_verify_and_ingest(
        two_batches: Store, tmp_path: Path):
    """Regression: verify said OK (7 hands), the next ingest cut the last record as torn
    (3 hands left) and the chain broke."""
    store = two_batches
    store.manifest_path.write_bytes(store.manifest_path.read_bytes().rstrip(b"\n"))
    seen = CliRunner().invoke(main, ["verify", "--store", str(store.root)])
    assert seen.exit_code == 0 and "7 hands" in seen.output
    src = write_parquet(tmp_path / "c.parquet", many_hands("c", 2))
    added = CliRunner().invoke(main, ["ingest", str(src), "--store", str(store.root)])
    assert added.exit_code == 0, added.output
    report = store.verify()
    assert report.ok, report.problems
    assert (report.batches, report.hands) == (3, 9)
    assert store.manifest_path.read_bytes().count(b"\n") == 3  # the newline came back first


def test_every_byte_length_of_the_last_line(two_batches: Store, monkeypatch):
    """The last line cut after 0, 1, ..., all its bytes, then whole with its newline: the
    record counts as committed exactly when all its bytes are there, and an append after
    it leaves a whole chain (a prefix cut off, a whole record given its newline)."""
    import audit.store.dataset as store_module

    monkeypatch.setattr(store_module.os, "fsync", lambda fd: None)  # speed: logic only
    store = two_batches
    first, last = _split_last(store)
    for cut in range(len(last) + 2):
        raw = first + last[:cut] + (b"\n" if cut > len(last) else b"")
        store.manifest_path.write_bytes(raw)
        whole = cut >= len(last)
        contents = read_manifest(raw)
        assert len(contents.records) == (2 if whole else 1), cut
        assert contents.committed_bytes == (len(raw) if whole else len(first)), cut
        assert contents.needs_newline == (cut == len(last)), cut
        assert len(store.records()) == len(contents.records)
        probe = {"batch_id": f"probe{cut}", "files": [], "chain": 2,
                 "prev_hash": store.head()}
        probe["hash"] = record_hash(probe)
        store._append_record(probe)
        after = store.records()
        assert [r["batch_id"] for r in after[:-1]] == [r["batch_id"]
                                                       for r in contents.records], cut
        assert after[-1] == probe
        assert all(b["prev_hash"] == a["hash"] for a, b in zip(after, after[1:], strict=False))
        assert store.manifest_path.read_bytes().endswith(b"\n")


def test_a_torn_line_after_a_crash_is_cut_and_the_batch_dropped(two_batches: Store,
                                                                tmp_path: Path):
    """The crash the rule is for: the append died one byte short, the files are in staging.
    Verify sees the earlier batches only; the next ingest drops the staged batch."""
    store = two_batches
    first, last = _split_last(store)
    batch = store.records()[-1]
    staging = store.root / "staging" / batch["batch_id"]
    for item in batch["files"]:
        staged = staging / item["path"]
        staged.parent.mkdir(parents=True, exist_ok=True)
        (store.root / item["path"]).rename(staged)
    store.manifest_path.write_bytes(first + last[:-1])
    report = store.verify()
    assert report.ok and report.hands == 3
    ingest([write_parquet(tmp_path / "c.parquet", many_hands("c", 2))], store)
    report = store.verify()
    assert report.ok and report.hands == 5
    assert not (store.root / "staging").exists()


def test_nul_bytes_after_the_last_record_are_not_a_record(two_batches: Store, tmp_path: Path):
    store = two_batches
    store.manifest_path.write_bytes(store.manifest_path.read_bytes() + b"\0" * 40)
    assert len(store.records()) == 2 and store.verify().ok
    ingest([write_parquet(tmp_path / "c.parquet", many_hands("c", 2))], store)
    assert b"\0" not in store.manifest_path.read_bytes()
    assert store.verify().ok and len(store.records()) == 3


@pytest.mark.parametrize("tail", [b"\x0b", b"*", b"\xff"])
def test_bytes_after_a_whole_last_record_are_damage_not_a_torn_line(
        two_batches: Store, tmp_path: Path, tail: bytes):
    """The last newline replaced by another byte: the record is not cut silently (that
    would lose a committed batch); every command stops and points at verify."""
    store = two_batches
    store.manifest_path.write_bytes(store.manifest_path.read_bytes()[:-1] + tail)
    with pytest.raises(StoreError, match="poker-audit verify"):
        store.records()
    src = write_parquet(tmp_path / "c.parquet", many_hands("c", 2))
    added = CliRunner().invoke(main, ["ingest", str(src), "--store", str(store.root)])
    assert added.exit_code == 2 and "manifest.jsonl:2" in added.output
    assert len(added.output.strip().splitlines()) == 1
    seen = CliRunner().invoke(main, ["verify", "--store", str(store.root)])
    assert seen.exit_code == 1 and seen.output.startswith("MANIFEST: ")
    assert store.manifest_path.read_bytes().endswith(tail)  # nothing was cut


def test_invalid_utf8_and_wrong_shapes_are_a_store_error_naming_the_line(two_batches: Store):
    store = two_batches
    first, last = _split_last(store)
    for bad in (b"\xff\xfe" + first[2:], b'{"hash": 1}\n', b'{"hash": "x", "files": [1]}\n',
                b'[1, 2]\n'):
        store.manifest_path.write_bytes(bad + last + b"\n")
        with pytest.raises(StoreError, match=r"manifest.jsonl:1: .*run `poker-audit verify"):
            store.records()


@pytest.mark.slow
def test_manifest_byte_flips_give_one_line_never_a_traceback(tmp_path: Path):
    """30 seeded single-byte changes of manifest.jsonl: verify fails (exit 1); ingest,
    query, findings and report work or stop with one line pointing at verify. Regression:
    17 of 30 gave UnicodeDecodeError tracebacks."""
    results = manifest_byte_flips(tmp_path, positions=30)
    assert len(results) == 5
    assert all(r.held for r in results), [(r.case, r.detail) for r in results if not r.held]


@pytest.mark.slow
def test_every_byte_of_a_run_record_changed_is_one_line_never_a_traceback(tmp_path: Path):
    """A run record (audit/store/runs.py) shares the chain with the batches: a flip in its
    `outputs`, `run` or `run_id` is a damaged manifest or a failed check, not a KeyError.
    Regression: "path" flipped to "pbth" in a run's outputs crashed verify and every reader."""
    from click.testing import CliRunner

    from audit.cli.main import main
    from audit.devtools.attacks_store import build_store
    from audit.run.runner import audit_store

    store = build_store(tmp_path, batches=1)
    audit_store(store)
    raw = store.manifest_path.read_bytes()
    start = raw.rstrip(b"\n").rfind(b"\n") + 1
    assert b'"kind":"run"' in raw[start:].replace(b" ", b"")
    for spot in range(start, len(raw) - 1):
        flipped = bytearray(raw)
        flipped[spot] = (flipped[spot] + 1) % 256
        store.manifest_path.write_bytes(bytes(flipped))
        for args in (["verify"], ["findings"]):
            result = CliRunner().invoke(main, [*args, "--store", str(store.root)])
            crashed = result.exception is not None and not isinstance(result.exception,
                                                                       SystemExit)
            assert not crashed, (spot, args, repr(result.exception))
            if args == ["verify"]:
                assert result.exit_code == 1, (spot, result.output)


def test_a_run_record_edited_in_place_is_refused_by_readers(tmp_path: Path):
    """A run record whose content no longer matches its own hash cannot vouch for its files:
    findings refuses the run with one line, as for a tampered part."""
    import json

    from click.testing import CliRunner

    from audit.cli.main import main
    from audit.devtools.attacks_store import build_store
    from audit.run.runner import audit_store

    store = build_store(tmp_path, batches=1)
    audit_store(store)
    lines = store.manifest_path.read_text().splitlines()
    record = json.loads(lines[-1])
    assert record["kind"] == "run"
    record["run"]["profile"] = "forged@1"
    store.manifest_path.write_text("\n".join([*lines[:-1], json.dumps(record)]) + "\n")
    result = CliRunner().invoke(main, ["findings", "--store", str(store.root)])
    assert result.exit_code == 1
    assert "was edited" in result.output and "poker-audit verify" in result.output
    assert len(result.output.strip().splitlines()) == 1
