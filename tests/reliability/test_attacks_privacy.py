"""Issue 19, item 3: every output of every `--pseudonymize` command (findings in each format,
report, collusion, export in OHH and PHH), on a simulated store with injected violations and
colluders and on a store of hostile names, holds no player id, hand id or table id of the
store and no time with seconds (audit.devtools.attacks_privacy, also run by bench --reliability)."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.cli.main import main
from audit.devtools.attacks import SUITES
from audit.devtools.attacks_privacy import attacks, pseudonymize_commands


@pytest.mark.slow
def test_every_pseudonymize_output_holds_no_real_id(tmp_path: Path):
    results = attacks(tmp_path)
    failed = [f"{a.case}: {a.detail}" for a in results if not a.held]
    assert failed == []
    # 2 stores x (3 findings formats, report, 2 collusion formats, 4 exports) + coverage
    assert len(results) == 21
    assert {a.suite for a in results} == {"privacy"} and "privacy" in SUITES


def test_the_commands_with_pseudonymize_are_the_attacked_ones():
    assert pseudonymize_commands(main) == ["collusion", "export", "findings", "report"]
