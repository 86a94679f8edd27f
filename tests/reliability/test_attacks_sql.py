"""The `sql` attack suite of the reliability scorecard (issue 19 items 1, 10, 11, 12): every
case is tried for real and holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.attacks import SUITES, run_attacks
from audit.devtools.attacks_sql import OUTPUT_COMMANDS, SQL_WRITES


@pytest.mark.slow
def test_every_sql_attack_holds(tmp_path: Path) -> None:
    assert "sql" in SUITES
    results = run_attacks(tmp_path, suites=("sql",))
    expected = len(SQL_WRITES) + 2 * len(OUTPUT_COMMANDS) + 3 + 4 + len(OUTPUT_COMMANDS)
    assert len(results) == expected == 83
    missed = [f"{a.case}: {a.detail}" for a in results if not a.held]
    assert not missed, missed
    assert {a.suite for a in results} == {"sql"}
