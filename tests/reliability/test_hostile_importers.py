"""Hostile input for every importer (issue 11): each format's sample mutated (huge lines, deep
nesting, 10^6 seats, negative and astronomic amounts, NaN/inf, invalid UTF-8, path-like hand
ids, zip-bomb-like repetition, truncation, byte flips, NUL bytes) never crashes ingest, never
hangs, never writes outside the store, and every file is stored or quarantined with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.hostile import TIME_LIMIT_S, run_hostile, seeds
from audit.importers import IMPORTERS

# Found by this suite, in importers this change does not own (reported to the lead): an
# exception escapes ingest instead of the file being quarantined. Strict: once fixed, the
# entry must go.
KNOWN_ESCAPES: dict[tuple[str, str], str] = {}


def test_every_importer_has_a_hostile_sample():
    assert set(seeds()) == set(IMPORTERS)


@pytest.mark.parametrize("fmt", sorted(IMPORTERS))
@pytest.mark.slow
def test_hostile_input_is_stored_or_quarantined_never_a_crash(fmt: str, tmp_path: Path):
    report = run_hostile(formats=(fmt,), workdir=tmp_path)
    assert report.tried >= 13
    unexpected = [f"{c.mutation}: {c.problem}" for c in report.cases
                  if not c.handled and (fmt, c.mutation) not in KNOWN_ESCAPES]
    assert not unexpected, unexpected
    fixed = [m for (f, m) in KNOWN_ESCAPES if f == fmt and all(
        c.handled for c in report.cases if c.mutation == m)]
    assert not fixed, f"fixed now, drop from KNOWN_ESCAPES: {fixed}"
    assert all(c.seconds < TIME_LIMIT_S for c in report.cases)
    # nothing was silently dropped: each handled case stored or quarantined something, or
    # found its hands already stored by an earlier case (the same events)
    assert all(c.hands + c.quarantined + c.already_stored > 0 or c.skipped
               for c in report.cases if c.handled)


def test_a_phh_file_holding_only_a_comment_is_quarantined(tmp_path: Path):
    from audit.ingest.pipeline import ingest
    from audit.store.dataset import Store

    src = tmp_path / "comment-only.phh"
    src.write_bytes(b"# One hand-written hand in a single .phh file (no [N] header): integer\n")
    result = ingest([src], Store(tmp_path / "store"), fmt="phh").files[0]
    assert result.hands == 0 and result.quarantined == 1 and "no hand in the file" in result.error
