"""Issue 21, real site logs read right: every site folder of the shared corpus
(../shared/data/fpdb-dev) of the four button-game readers (PokerStars and the rooms writing its
format, Full Tilt, PartyPoker, iPoker) is imported and audited as `poker-audit bench --corpus`
does it (audit/devtools/corpus.py), and

- every file of the folder is recognised as a hand history of its site;
- at least 99% of the hands, counted at the site's hand headers, are imported (a hand the file ends
  inside of, its summary never written, is left out and must be quarantined);
- no finding of warning or worse stands on a corpus hand unless the site's reviewed allowlist
  (tests/corpus/allowlist/<site>.toml) names it with what in the hand proves the irregularity:
  real rooms enforce the rules, so anything else is a reader or replay bug;
- no money check against the room's stated totals (DQ-SITE-TOTALS) fails outside the allowlist;
- the allowlist is well formed and current: each entry still matches a finding.

A test marked xfail(strict=True) fails on today's main and names why; the mark comes off
with the fix that makes it pass (strict: a pass while marked fails, so none is forgotten).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.devtools.corpus import (
    SITE_TOTALS_RULE,
    Finding,
    SiteResult,
    load_allowlist,
    measure_site,
    stale,
    unexplained,
)
from audit.rules.registry import Severity

# one worker under `make test` (-n 2): each site is imported and audited once, in `measured`
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("site-corpus")]

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-dev"
ALLOWLISTS = Path(__file__).parent / "allowlist"
# corpus folder -> allowlist (named by the site's profile)
SITES = {"stars": "pokerstars", "ftp": "fulltilt", "partypoker": "partypoker",
         "ipoker": "ipoker", "ggpoker": "ggpoker", "winamax": "winamax", "pacific": "pacific",
         "winning": "winning", "bovada": "bovada", "merge": "merge"}
# The checks each site fails today (issue 21: the four readers; issue 22: the six new rooms),
# one line per site: a check comes off its line with the fix that makes it pass.
CHECKS = ("recognised", "imported", "clean", "totals")
FAILING: dict[str, set[str]] = {
    "stars": set(),
    "ftp": set(),
    "partypoker": set(),
    "ipoker": set(),
    "ggpoker": set(),
    "winamax": set(),
    "pacific": set(),
    "winning": set(),
    "bovada": set(),
    "merge": set(),
}
IMPORTED_AT_LEAST = 0.99


def _failing(check: str, reason: str) -> list[object]:
    """The sites as parameters, those failing `check` today (FAILING) marked so, strictly."""
    return [pytest.param(site, marks=pytest.mark.xfail(strict=True, reason=reason))
            if check in FAILING[site] else site for site in SITES]


_measured: dict[str, SiteResult] = {}


def measured(site: str, tmp_path_factory: pytest.TempPathFactory) -> SiteResult:
    """The site's folder imported and audited once for all the tests of this module."""
    if not CORPUS.exists():
        pytest.skip("../shared/data/fpdb-dev is not beside the checkout")
    if site not in _measured:
        _measured[site] = measure_site(CORPUS, site, work=tmp_path_factory.mktemp(site))
    return _measured[site]


def _shown(findings: list[Finding]) -> str:
    return "\n".join(f"{f.file} {f.hand} {f.rule_id} {f.severity}: {f.message[:160]}"
                     for f in findings)


@pytest.mark.parametrize("site", _failing(
    "recognised", "issues 21-22: the site's reader does not yet recognise every file of its "
                  "folder"))
def test_every_file_of_the_site_is_recognised(site: str, tmp_path_factory) -> None:
    result = measured(site, tmp_path_factory)
    assert result.unrecognised == []


@pytest.mark.parametrize("site", _failing(
    "imported", "issues 21-22: the site's reader quarantines whole families of real hands"))
def test_at_least_99_percent_of_the_hands_import(site: str, tmp_path_factory) -> None:
    result = measured(site, tmp_path_factory)
    reasons = "\n".join(f"{n:>5} {reason}" for reason, n in result.reasons.most_common(8))
    imported, hands = result.imported, result.whole
    assert hands > 0
    assert imported >= IMPORTED_AT_LEAST * hands, (
        f"{site}: {imported} of {hands} hands imported; quarantined:\n{reasons}")


@pytest.mark.parametrize("site", SITES)
def test_a_hand_the_file_ends_inside_is_quarantined_not_lost(site: str,
                                                            tmp_path_factory) -> None:
    # such a hand is left out of the 99% (no reader can import a hand the site did not write
    # whole; FPDB counts them as "partial"), so each one must stand in the quarantine
    result = measured(site, tmp_path_factory)
    assert result.cut_short == result.cut_short_files


@pytest.mark.parametrize("site", _failing(
    "clean", "issues 21-22: findings of warning or worse on real hands that nobody has shown "
             "to be irregular (reader or replay bugs until proven otherwise)"))
def test_no_warning_or_worse_outside_the_reviewed_allowlist(site: str,
                                                            tmp_path_factory) -> None:
    result = measured(site, tmp_path_factory)
    allowed = load_allowlist(ALLOWLISTS / f"{SITES[site]}.toml", CORPUS)
    serious = [f for f in result.findings if Severity(f.severity).level >= Severity.WARNING.level]
    assert _shown(unexplained(serious, allowed)) == ""


@pytest.mark.parametrize("site", _failing(
    "totals", "issues 21-22: the room's stated totals disagree with hands not yet reviewed"))
def test_the_room_totals_agree_outside_the_reviewed_allowlist(site: str,
                                                              tmp_path_factory) -> None:
    result = measured(site, tmp_path_factory)
    allowed = load_allowlist(ALLOWLISTS / f"{SITES[site]}.toml", CORPUS)
    totals = [f for f in result.findings if f.rule_id == SITE_TOTALS_RULE]
    assert _shown(unexplained(totals, allowed)) == ""


@pytest.mark.parametrize("site", list(SITES))
def test_every_allowlist_entry_still_matches_a_finding(site: str, tmp_path_factory) -> None:
    result = measured(site, tmp_path_factory)
    allowed = load_allowlist(ALLOWLISTS / f"{SITES[site]}.toml", CORPUS)
    assert stale(allowed, result.findings) == []
