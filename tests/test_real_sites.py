"""Real site logs of button games (PokerStars, Full Tilt, PartyPoker, iPoker samples from the
fpdb regression files in ../shared/data/fpdb-sample): they import and audit without a single
finding at warning or above. Real sites enforce the betting rules, so any such finding is an
importer or replay bug until shown otherwise. Stud and draw samples are not button games and
are left to their own tests.

The info findings that remain are listed one by one, each with why the log cannot prove more.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from audit.ingest import ingest
from audit.run import audit_store, read_findings
from audit.sql import query
from audit.store import Store

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "data" / "fpdb-sample"

STARS = ("stars-nlhe-6max-0.05-0.10.txt", "stars-plo-sidepots.txt", "stars-plo8-6max.txt",
         "stars-lhe-10max-1-2.txt", "stars-mtt-nlhe-knockout.txt",
         "stars-nlhe-run-it-twice.txt")
STARS_HANDS = 309

# Other sites' button-game samples, by the importer module that reads them. The iPoker
# samples are truncated in the fpdb repository (the files stop inside a <game>): the
# importer quarantines the incomplete hand, which is right, so only quarantine is allowed.
OTHER_SITES = {
    "fulltilt": ("ftp-nlhe-6max.txt", "ftp-lo8-observed.txt"),
    "partypoker": ("party-nlhe-6max.txt", "party-lo8.txt"),
    "ipoker": ("ipoker-lhe.xml", "ipoker-5card-plo.xml"),
}

# Info findings the logs cannot settle, each checked true by hand:
# ps:47656382023 - titasands is all-in on a 10 ante and sitting out; the site still logs
# "titasands: folds" (he has no action left, and the site then pays a separate main pot he
# is eligible for), and his cards are never shown, so the 90 main pot cannot be verified.
KNOWN_INFO = {
    ("ps:47656382023", "DQ-INCONSISTENT-LOG"),
    ("ps:47656382023", "DQ-UNVERIFIABLE-AWARD"),
}


def _have(module: str) -> bool:
    return importlib.util.find_spec(f"audit.importers.{module}") is not None


@pytest.fixture(scope="module")
def stars(tmp_path_factory) -> tuple[Store, object]:
    if not SAMPLES.exists():
        pytest.skip("../shared/data/fpdb-sample is not beside the checkout")
    store = Store(tmp_path_factory.mktemp("stars") / "store")
    summary = ingest([SAMPLES / f for f in STARS], store)
    assert (summary.hands, summary.quarantined, summary.errors) == (STARS_HANDS, 0, 0)
    return store, audit_store(store)


def test_pokerstars_button_games_audit_with_no_warning(stars):
    store, run = stars
    assert run.hands == STARS_HANDS
    rows = read_findings(store).to_pylist()
    bad = [(r["hand_id"], r["rule_id"], r["message"]) for r in rows
           if r["severity"] != "info"]
    assert bad == []
    assert {(r["hand_id"], r["rule_id"]) for r in rows} == KNOWN_INFO


def test_pokerstars_run_it_twice_pays_each_board_its_half(stars):
    store, _ = stars
    rows = query(store, """
        SELECT detail, amount FROM events
        WHERE hand_id = 'ps:90721705235' AND kind IN ('award', 'rake') ORDER BY seq
    """).to_pylist()
    assert [(r["detail"], r["amount"]) for r in rows] == [
        ("main", 11159), ("main@run2", 11158), ("rake", 215)]


def test_pokerstars_tournament_sitting_out_players_are_dealt_in(stars):
    # '#47653087764 ... Seat 7: Gibsons66 (2000 in chips) is sitting out', then
    # 'Gibsons66: folds': in a tournament the site deals him in and folds for him. (A player
    # 'out of hand (moved from another table into small blind)' is really not dealt in.)
    store, _ = stars
    rows = query(store, """
        SELECT kind, detail FROM events
        WHERE hand_id = 'ps:47653087764' AND seat = 7 AND kind <> 'annotation' ORDER BY seq
    """).to_pylist()
    assert [(r["kind"], r["detail"]) for r in rows] == [
        ("seat", None), ("deal", "hole"), ("fold", None)]


@pytest.mark.parametrize("module", sorted(OTHER_SITES))
def test_other_sites_button_games_audit_with_no_warning(module, tmp_path):
    if not _have(module):
        pytest.skip(f"audit.importers.{module} does not exist yet")
    files = [SAMPLES / f for f in OTHER_SITES[module] if (SAMPLES / f).exists()]
    if not files:
        pytest.skip(f"no {module} samples in ../shared/data/fpdb-sample")
    store = Store(tmp_path / "store")
    summary = ingest(files, store)
    assert summary.errors == 0
    if module != "ipoker":
        assert summary.quarantined == 0
    audit_store(store)
    rows = read_findings(store).to_pylist()
    assert [(r["hand_id"], r["rule_id"], r["message"]) for r in rows
            if r["severity"] != "info"] == []
