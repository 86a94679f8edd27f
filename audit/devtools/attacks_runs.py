"""Tamper cases for audit runs (runs/): an insider with write access edits a finished run the
way issue 19's attack did, and the case holds when `verify` names the damage and `findings`
and `report` refuse the run (one line naming it, "run `poker-audit verify`", exit 1) or
ignore what was forged (the chain, not a directory name, says which run is latest).

Every case runs on its own copy of one small store: two batches (the demo's hands), one
audit, through the CLI (click's CliRunner) as a user would.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from audit.cli.demo import DEMO_DATA
from audit.cli.main import main
from audit.devtools.attacks import Attack

SUITE = "runs"
FORGED_ID = "29991231T235959999999Z-deadbeef"


def _cli(*args: str) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def _build(root: Path) -> Path:
    """A store of two batches and one audit run with findings in more than one part."""
    store = root / "store"
    for name in ("sample-events.jsonl", "handhq-ps-50nl-excerpt.phhs"):
        done = _cli("ingest", DEMO_DATA / name, "--store", store)
        if done.exit_code not in (0, 1):
            raise RuntimeError(f"ingest {name} failed: {done.output}")
    done = _cli("audit", "--store", store, "--fail-on", "critical")
    if done.exit_code not in (0, 1):
        raise RuntimeError(f"audit failed: {done.output}")
    return store


def _run(store: Path) -> Path:
    return next(d for d in sorted((store / "runs").iterdir()) if not d.name.startswith("."))


def _parts(store: Path) -> list[Path]:
    return sorted((_run(store) / "findings").glob("part-*.parquet"))


def _findings(store: Path) -> Result:
    return _cli("findings", "--store", store, "--format", "json")


def _delete_part(store: Path) -> None:
    _parts(store)[0].unlink()


def _empty_part(store: Path) -> None:
    _parts(store)[0].write_bytes(b"")


def _add_part(store: Path) -> None:
    first = _parts(store)[0]
    shutil.copy(first, first.with_name("part-9999999.parquet"))


def _edit_run_json(store: Path) -> None:
    path = _run(store) / "run.json"
    meta = json.loads(path.read_text())
    meta["findings"] = 0
    meta["profile"] = "private@1"
    path.write_text(json.dumps(meta, indent=2) + "\n")


def _corrupt_run_json(store: Path) -> None:
    (_run(store) / "run.json").write_text('{"run_id": "')


def _truncate_part(store: Path) -> None:
    part = _parts(store)[0]
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])


def _forge_newer_run(store: Path) -> None:
    """A copy of the real run under a newer id, its findings cut to nothing, its run.json
    copied and renamed: by directory name it would be the latest run."""
    forged = store / "runs" / FORGED_ID
    shutil.copytree(_run(store), forged)
    for part in (forged / "findings").glob("part-*.parquet"):
        part.unlink()
    meta = json.loads((forged / "run.json").read_text())
    meta["run_id"] = FORGED_ID
    meta["findings"] = 0
    (forged / "run.json").write_text(json.dumps(meta, indent=2) + "\n")


def _one_line_refusal(result: Result, what: str) -> tuple[bool, str]:
    lines = [line for line in result.output.strip().splitlines() if line.strip()]
    clean = result.exception is None or isinstance(result.exception, SystemExit)
    ok = (clean and result.exit_code == 1 and len(lines) == 1
          and "poker-audit verify" in lines[0])
    return ok, f"{what}: exit {result.exit_code}, {lines[-1][:160] if lines else 'no output'}"


def _tamper_case(case: str, root: Path, base: Path,
                 tamper: Callable[[Path], None]) -> Attack:
    """Tamper with a copy of the store; verify must fail naming runs/, and findings and
    report must refuse the run in one line."""
    store = root / case.replace(" ", "-")
    shutil.copytree(base, store)
    tamper(store)
    verified = _cli("verify", "--store", store)
    detected = verified.exit_code == 1 and "runs/" in verified.output
    findings_ok, findings_detail = _one_line_refusal(_findings(store), "findings")
    report = _cli("report", "--store", store, "--out", root / f"{store.name}.html")
    report_ok, report_detail = _one_line_refusal(report, "report")
    held = detected and findings_ok and report_ok
    return Attack(suite=SUITE, case=case, held=held,
                  detail=f"verify exit {verified.exit_code}; {findings_detail}; "
                         f"{report_detail}")


def _rows(result: Result) -> list[dict[str, object]]:
    return json.loads(result.stdout) if result.exit_code == 0 else []


def _forged_case(root: Path, base: Path, *, audit_after: bool) -> Attack:
    """A forged newer run directory: verify names it, findings and report keep reading the
    run the chain committed last (and, after a new real audit, that new run)."""
    case = ("forged run dir, then a new real audit" if audit_after
            else "forged newer run dir with a copied run.json")
    store = root / case.replace(" ", "-").replace(",", "").replace(".", "")
    shutil.copytree(base, store)
    real = _rows(_findings(store))
    _forge_newer_run(store)
    expected_run = _run(store).name
    if audit_after:
        _cli("audit", "--store", store, "--fail-on", "critical")
        expected_run = max(d.name for d in (store / "runs").iterdir()
                           if not d.name.startswith(".") and d.name != FORGED_ID)
    shown = _rows(_findings(store))
    runs_shown = {r["run_id"] for r in shown}
    verified = _cli("verify", "--store", store)
    detected = verified.exit_code == 1 and f"runs/{FORGED_ID}" in verified.output
    report = _cli("report", "--store", store, "--out", root / f"{store.name}.html")
    # the report is of the committed run, under a banner naming verify's problem (the forged
    # dir), and exits 1 as a report on a store that fails its integrity check does
    page = root / f"{store.name}.html"
    text = page.read_text() if page.exists() else ""
    report_ok = (report.exit_code == 1 and f"run {expected_run}</title>" in text
                 and 'id="integrity-banner"' in text and FORGED_ID in text)
    held = (detected and runs_shown == {expected_run} and len(shown) == len(real) > 0
            and report_ok)
    return Attack(suite=SUITE, case=case, held=held,
                  detail=f"verify exit {verified.exit_code}; findings {len(shown)} rows of "
                         f"run(s) {sorted(runs_shown)} (expected {len(real)} of "
                         f"{expected_run}); report exit {report.exit_code}")


def attacks(workdir: Path) -> list[Attack]:
    """Every runs/ tamper case of issue 19 (items 2 and 11), each on a fresh copy."""
    base = _build(workdir / "base")
    cases: list[tuple[str, Callable[[Path], None]]] = [
        ("delete a findings part", _delete_part),
        ("empty a findings part", _empty_part),
        ("add a findings part", _add_part),
        ("edit run.json", _edit_run_json),
        ("corrupt run.json", _corrupt_run_json),
        ("truncated findings part", _truncate_part),
    ]
    results = [_tamper_case(case, workdir, base, tamper) for case, tamper in cases]
    results.append(_forged_case(workdir, base, audit_after=False))
    results.append(_forged_case(workdir, base, audit_after=True))
    return results
