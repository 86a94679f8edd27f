"""The errors attack suite of the reliability scorecard (issue 19 items 6 and 11): every case
holds: no process outlives a killed pooled audit, every malformed proof and hostile argument
is one line with the right exit code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from audit.devtools.attacks import SUITES, run_attacks


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="walks /proc")
def test_every_errors_attack_holds(tmp_path: Path):
    assert "errors" in SUITES
    results = run_attacks(tmp_path, suites=("errors",))
    assert [a for a in results if not a.held] == []
    kills = [a for a in results if a.case.startswith("SIGKILL")]
    proofs = [a for a in results if a.case.startswith("verify-proof: ")]
    assert len(kills) == 2
    assert len(proofs) == 162  # every 25th of 3,743 mutations and the special ones
    assert len(results) - len(kills) - len(proofs) == 27  # the CLI sweep
