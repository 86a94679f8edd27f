"""The runs/ tamper suite of the reliability scorecard (audit/devtools/attacks_runs.py):
every attack on audit runs of issue 19 (items 2 and 11) is tried through the CLI and must hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.attacks import SUITES, run_attacks


@pytest.mark.slow
def test_every_runs_attack_holds(tmp_path: Path) -> None:
    assert "runs" in SUITES
    results = run_attacks(tmp_path, suites=("runs",))
    assert [a.case for a in results] == [
        "delete a findings part", "empty a findings part", "add a findings part",
        "edit run.json", "corrupt run.json", "truncated findings part",
        "forged newer run dir with a copied run.json", "forged run dir, then a new real audit",
    ]
    missed = [f"{a.case}: {a.detail}" for a in results if not a.held]
    assert not missed, missed
