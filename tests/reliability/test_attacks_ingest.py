"""The ingest attack suite (issue 19, items 5, 8 and 12) holds: hostile input and special
files are quarantined or refused in one line, in bounded time and memory, nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.attacks import SUITES, run_attacks


@pytest.mark.slow
def test_every_ingest_attack_holds(tmp_path: Path):
    assert "ingest" in SUITES
    results = run_attacks(tmp_path, suites=("ingest",))
    assert len(results) == 9
    assert {r.suite for r in results} == {"ingest"}
    failed = [f"{r.case}: {r.detail}" for r in results if not r.held]
    assert not failed, failed
