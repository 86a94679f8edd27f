"""Every real hand of the shared corpus reads the same with its players renamed.

Each file of each site folder of ../shared/data/fpdb-dev is rewritten with every player
renamed, consistently, to awkward names the room could have written (audit/devtools/renames.py),
as many times as it takes to give out every name, and read again with the site's normal
importer: the same events (names mapped back), the same quarantine, and for the first two
rounds of rewrites the same audit findings. Any difference is a reader bug (or a rewrite the
room could not have written: the harness is fixed then, never the comparison).

The files whose amounts the harness can rescale (cash files of the rooms of `MONEY_STYLES`,
tournament chips of the formats of `CHIP_PATTERNS`, every iPoker and Merge game) are also read
with every amount multiplied by 1001 ("$0.05" -> "$50.05", "$4,584.58", "1,500 in chips" ->
"1,501,500 in chips"): the same events with the money divided back (an amount that does not
divide is a difference), the same quarantine, the same findings by rule and severity (a hand
whose pot the room split unevenly is left out: its odd chip would scale to 1001 chips).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.corpus import site_files
from audit.devtools.renames import SITE_NAMES, check_scaled, check_site

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


@pytest.mark.parametrize("site", sorted(SITE_NAMES))
def test_every_hand_of_the_site_reads_the_same_with_its_amounts_scaled(
        site: str, tmp_path: Path) -> None:
    if not (CORPUS / site).is_dir():
        pytest.skip(f"../shared/data/fpdb-dev/{site} is not beside the checkout")
    differences = []
    for number, path in enumerate(site_files(CORPUS / site)):
        differences += check_scaled(path, site, tmp_path / str(number),
                                    label=path.relative_to(CORPUS).as_posix())
    assert [f"{d.file} {d.what}: {d.detail}" for d in differences] == []
