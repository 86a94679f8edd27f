"""Real hands are no collusion (issue 25): the hand histories in ../shared/data (fpdb-dev, every
folder, and HandHQ), ingested, audited and ranked as a user would, yield no lead. Real players
are not known colluders, and the pairs that share 100 hands there are a hero and the regulars
of his tables, or two players alone in a heads-up freezeout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.collusion.findings import collusion_leads
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.store.dataset import Store

pytestmark = pytest.mark.slow  # ingests and audits real files

FREEZEOUT = "fpdb-dev/stars/tour/Mixed/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"


def _audited(root: Path, paths: list[Path]) -> Store:
    store = Store(root)
    summary = ingest(paths, store)
    assert summary.hands > 0
    audit_store(store)
    return store


def test_a_heads_up_freezeout_is_no_chip_dump_lead(shared_dir: Path, tmp_path: Path) -> None:
    # Hero and Player0 alone for 137 hands of an 8-game shootout: the loser's chips all went
    # to the winner because the match ends when one has them all
    store = _audited(tmp_path / "store", [shared_dir / "data" / FREEZEOUT])
    assert collusion_leads(store).num_rows == 0
    tested = collusion_leads(store, fdr=1.0).to_pylist()
    assert [(x["player_a"], x["player_b"]) for x in tested] == [
        ("Hero@pokerstars", "Player0@pokerstars")]
    features = json.loads(tested[0]["features"])
    assert features["chip_dump"]["n"] == 0 and features["heavy_fold"]["observed"] == 0


def test_real_hands_yield_no_collusion_lead(shared_dir: Path, tmp_path: Path) -> None:
    data = shared_dir / "data"
    store = _audited(tmp_path / "store", [data / "fpdb-dev", data / "handhq"])
    tested = collusion_leads(store, fdr=1.0)
    assert tested.num_rows >= 10  # pairs with 100 hands together were tested
    leads = collusion_leads(store)
    assert leads.num_rows == 0, leads.select(["player_a", "player_b", "pattern", "q_value"])
