"""Audit runs are committed to the store's hash chain (audit/store/runs.py): verify checks them,
readers use only committed runs that pass their check, "latest" is the last run record, a
crash before the commit point shows no run and one after it is rolled forward, and stores
written before runs were committed still read."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from audit.cli.demo import DEMO_DATA
from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.store.dataset import Store

FORGED = "29991231T235959999999Z-deadbeef"


def _cli(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two batches and one audit run (findings in two parts)."""
    root = tmp_path_factory.mktemp("audited") / "store"
    ingest([DEMO_DATA / "sample-events.jsonl"], Store(root))
    ingest([DEMO_DATA / "handhq-ps-50nl-excerpt.phhs"], Store(root))
    assert _cli("audit", "--store", root, "--fail-on", "critical").exit_code in (0, 1)
    return root


@pytest.fixture
def store(audited: Path, tmp_path: Path) -> Store:
    shutil.copytree(audited, tmp_path / "store")
    return Store(tmp_path / "store")


def _run_dir(store: Store) -> Path:
    return next(d for d in sorted(store.runs_dir.iterdir()) if not d.name.startswith("."))


def _findings_rows(store: Store) -> list[dict]:
    result = _cli("findings", "--store", store.root, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _manifest(store: Store) -> list[dict]:
    return [json.loads(line) for line in store.manifest_path.read_text().splitlines()]


def test_an_audit_commits_its_run_as_a_chain_record(store: Store) -> None:
    run = _run_dir(store)
    last = _manifest(store)[-1]
    assert last.get("kind") == "run" and last.get("run_id") == run.name
    listed = {f["path"] for f in last["outputs"]}
    on_disk = {p.relative_to(run).as_posix() for p in run.rglob("*") if p.is_file()}
    assert listed == on_disk and "run.json" in listed
    assert len([p for p in listed if p.startswith("findings/")]) >= 2
    result = _cli("verify", "--store", store.root)
    assert result.exit_code == 0 and "OK: 2 batches" in result.output


@pytest.mark.parametrize("tamper", ["delete", "empty", "add", "edit-run-json", "corrupt-run-json",
                                    "truncate"])
def test_a_tampered_run_fails_verify_and_is_refused_by_every_reader(store: Store, tamper: str
                                                                     ) -> None:
    run = _run_dir(store)
    part = sorted((run / "findings").glob("part-*.parquet"))[0]
    if tamper == "delete":
        part.unlink()
    elif tamper == "empty":
        part.write_bytes(b"")
    elif tamper == "add":
        shutil.copy(part, part.with_name("part-0000099.parquet"))
    elif tamper == "edit-run-json":
        meta = json.loads((run / "run.json").read_text())
        (run / "run.json").write_text(json.dumps({**meta, "findings": 1}))
    elif tamper == "corrupt-run-json":
        (run / "run.json").write_text('{"run_id": ')
    else:
        part.write_bytes(part.read_bytes()[:100])
    verified = _cli("verify", "--store", store.root)
    assert verified.exit_code == 1 and f"runs/{run.name}" in verified.output
    for args in (["findings"], ["query", "SELECT count(*) FROM latest_findings"],
                 ["report", "--out", store.root.parent / "r.html"],
                 ["sql-init", store.root.parent / "v.duckdb"], ["collusion"]):
        result = _cli(*args, "--store", store.root)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 1, (args, result.output)
        assert len(lines) == 1 and run.name in lines[0], (args, result.output)
        assert "poker-audit verify" in lines[0]


def test_latest_is_the_last_committed_run_not_the_newest_directory(store: Store) -> None:
    real = _findings_rows(store)
    forged = store.runs_dir / FORGED
    shutil.copytree(_run_dir(store), forged)
    for part in (forged / "findings").glob("*.parquet"):
        part.unlink()
    meta = json.loads((forged / "run.json").read_text())
    (forged / "run.json").write_text(json.dumps({**meta, "run_id": FORGED, "findings": 0}))
    assert _findings_rows(store) == real
    latest = _cli("query", "SELECT DISTINCT run_id FROM latest_findings", "--store", store.root,
                  "--format", "json")
    assert json.loads(latest.stdout) == [{"run_id": real[0]["run_id"]}]
    verified = _cli("verify", "--store", store.root)
    assert verified.exit_code == 1 and f"UNLISTED: runs/{FORGED}" in verified.output
    # a new real audit becomes the latest; the forged directory never does
    assert _cli("audit", "--store", store.root, "--fail-on", "critical").exit_code in (0, 1)
    newest = _manifest(store)[-1]["run_id"]
    assert {r["run_id"] for r in _findings_rows(store)} == {newest} != {FORGED}
    assert _cli("findings", "--store", store.root, "--run", FORGED).exit_code == 2


@pytest.mark.slow
def test_a_run_committed_before_a_crash_is_rolled_forward(store: Store) -> None:
    code = ("import sys; from audit.run.runner import audit_store; "
            "from audit.store.dataset import Store; "
            "audit_store(Store(sys.argv[1]), _crash_at='committed')")
    died = subprocess.run([sys.executable, "-c", code, str(store.root)], check=False)
    assert died.returncode == 137
    run_id = _manifest(store)[-1]["run_id"]
    assert (store.runs_dir / f".{run_id}.tmp").is_dir()  # committed, not yet renamed
    assert {r["run_id"] for r in _findings_rows(store)} == {run_id}  # recovered on open
    assert (store.runs_dir / run_id).is_dir()
    assert _cli("verify", "--store", store.root).exit_code == 0


def test_ingest_and_proofs_continue_the_chain_through_run_records(store: Store) -> None:
    from audit.store.proof import build_proof, check_proof

    run_record = _manifest(store)[-1]
    ingest([Path(__file__).parents[2] / "fixtures" / "ohh" / "hands.ohh"], store)
    assert _manifest(store)[-1]["prev_hash"] == run_record["hash"]
    assert store.verify().ok and store.verify().batches == 3
    hand = json.loads(_cli("query", "SELECT hand_id FROM hands_started LIMIT 1", "--store",
                           store.root, "--format", "json").stdout)[0]["hand_id"]
    assert check_proof(build_proof(store, hand), head=store.head()).ok


def test_a_store_audited_before_runs_were_committed_still_reads(store: Store) -> None:
    lines = store.manifest_path.read_text().splitlines(keepends=True)
    store.manifest_path.write_text("".join(x for x in lines if '"kind":"run"' not in x))
    result = _cli("findings", "--store", store.root, "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)
    assert "not protected" in result.stderr
    verified = _cli("verify", "--store", store.root)
    assert verified.exit_code == 0 and f"UNPROTECTED: runs/{_run_dir(store).name}" in \
        verified.output
    # once a run is committed, the old directory is no longer read and verify names it
    old = _run_dir(store).name
    assert _cli("audit", "--store", store.root, "--fail-on", "critical").exit_code in (0, 1)
    assert old not in {r["run_id"] for r in _findings_rows(store)}
    verified = _cli("verify", "--store", store.root)
    assert verified.exit_code == 1 and f"UNLISTED: runs/{old}" in verified.output


def test_collusion_outputs_are_committed_with_the_run(store: Store) -> None:
    assert _cli("collusion", "--store", store.root, "--min-hands", "5").exit_code == 0
    assert _cli("verify", "--store", store.root).exit_code == 0
    kinds = [r.get("kind") for r in _manifest(store)]
    assert kinds[-1] == "run_files"
    (_run_dir(store) / "collusion.parquet").write_bytes(b"PAR1")
    verified = _cli("verify", "--store", store.root)
    assert verified.exit_code == 1 and "collusion.parquet" in verified.output
    assert _cli("query", "SELECT count(*) FROM findings", "--store", store.root).exit_code == 1


@pytest.mark.slow
def test_the_report_knows_the_store_did_not_grow_since_the_run(store: Store) -> None:
    from audit.report.build import collect

    assert collect(store)["store"]["changed_since_run"] is False
    assert collect(store)["run"]["batches"] == 2


def test_a_run_checked_once_is_checked_again_after_a_same_size_edit(store: Store) -> None:
    """A command checks each run once (audit/store/runs.py keeps what it found intact); an
    edit that keeps the size and mtime still shows, in the same process."""
    import os

    from audit.errors import RunCheckError
    from audit.run.runner import read_findings

    assert read_findings(store).num_rows > 0
    part = sorted((_run_dir(store) / "findings").glob("part-*.parquet"))[0]
    before = part.stat()
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))
    os.utime(part, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(RunCheckError, match="poker-audit verify"):
        read_findings(store)
