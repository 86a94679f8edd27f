"""Every real hand of the shared corpus reads the same with its players renamed.

Each file of each site folder of ../shared/data/fpdb-dev is rewritten with every player
renamed, consistently, to awkward names the room could have written (audit/devtools/renames.py),
as many times as it takes to give out every name, and read again with the site's normal
importer: the same events (names mapped back), the same quarantine, and for the first two
rounds of rewrites the same audit findings. Any difference is a reader bug (or a rewrite the
room could not have written: the harness is fixed then, never the comparison).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.corpus import site_files
from audit.devtools.renames import SITE_NAMES, check_site

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-dev"


@pytest.mark.parametrize("site", sorted(SITE_NAMES))
def test_every_hand_of_the_site_reads_the_same_with_its_players_renamed(
        site: str, tmp_path: Path) -> None:
    if not (CORPUS / site).is_dir():
        pytest.skip(f"../shared/data/fpdb-dev/{site} is not beside the checkout")
    result = check_site(site, site_files(CORPUS / site), tmp_path, root=CORPUS)
    if SITE_NAMES[site].anonymous:
        assert result.files == 0  # seat labels, not names: nothing to rename
        return
    assert result.files > 0
    assert [f"{d.file} {d.what}: {d.detail}" for d in result.differences] == []
