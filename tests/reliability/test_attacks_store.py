"""The store attack suite (audit/devtools/attacks_store.py) on the reliability scorecard: every case
is really performed and holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.attacks import SUITES, run_attacks
from audit.devtools.attacks_store import FLIP_COMMANDS, READ_COMMANDS


@pytest.mark.slow
def test_every_store_attack_holds(tmp_path: Path):
    assert "store" in SUITES
    results = run_attacks(tmp_path, suites=("store",))
    expected = (4  # newline, every torn length, verify mid-commit, verify with staged files
                + len(READ_COMMANDS)  # read-only store with a committed batch in staging
                + 2 * 4 + 1  # truncated / deleted event file x 4 commands, zeroed pages
                + len(FLIP_COMMANDS)  # manifest byte flips per command
                + 3)  # rollback with --head, a held head, a malformed head
    assert len(results) == expected == 27
    assert {r.suite for r in results} == {"store"}
    assert len({r.case for r in results}) == expected
    missed = [(r.case, r.detail) for r in results if not r.held]
    assert not missed, missed
