"""Real stud and draw hands (PokerStars samples from fpdb): seven-card stud, stud high-low,
razz, 2-7 single and triple draw, five-card draw. They import without quarantine and audit
without a single finding at warning or above: real sites enforce the rules, so any such
finding is an importer or replay bug until shown otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.ingest.pipeline import ingest
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import ORDER_RAZZ
from audit.run.runner import audit_store, read_findings
from audit.sql.query import query
from audit.store.dataset import Store

SAMPLES = ("stars-7stud.txt", "stars-7stud-hilo.txt", "stars-razz.txt",
           "stars-27-single-draw-allin.txt", "stars-27-triple-draw.txt",
           "stars-5card-draw-sidepot.txt")


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> tuple[Store, object]:
    data = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-sample"
    if not data.exists():
        pytest.skip("../shared/data/fpdb-sample is not beside the checkout")
    store = Store(tmp_path_factory.mktemp("studdraw") / "store")
    summary = ingest([data / name for name in SAMPLES], store)
    assert (summary.quarantined, summary.errors) == (0, 0)
    assert summary.hands == 30
    return store, audit_store(store)


def test_stud_and_draw_samples_audit_without_warnings(audited):
    store, run = audited
    assert run.hands == 30
    rows = read_findings(store).to_pylist()
    bad = [(r["hand_id"], r["rule_id"], r["message"]) for r in rows
           if r["severity"] in ("warning", "violation", "critical")]
    assert bad == []


def test_every_stud_and_draw_variant_is_replayed(audited):
    store, _ = audited
    rows = query(store, "SELECT variant, count(*) AS n FROM hands GROUP BY 1 ORDER BY 1"
                 ).to_pylist()
    assert {r["variant"] for r in rows} == {
        "stud", "stud_hilo", "razz", "lowball_27_single", "lowball_27_triple", "draw_high"}


def test_a_wrong_bring_in_on_a_real_razz_hand_is_caught(audited):
    # The check is live on real data: move the bring-in of a real razz hand to another seat.
    store, _ = audited
    hand_id = query(store, "SELECT min(hand_id) AS h FROM hands WHERE variant = 'razz'"
                    ).to_pylist()[0]["h"]
    rows = query(store, "SELECT * FROM events WHERE hand_id = $h ORDER BY seq",
                 {"h": hand_id}).to_pylist()
    clean = replay_hand(hand_from_rows(rows))
    assert [f for f in clean.findings if f.severity != "info"] == []
    post = next(r for r in rows if r["kind"] == "post" and r["detail"] == "bring_in")
    other = next(r["seat"] for r in rows if r["kind"] == "seat" and r["seat"] != post["seat"])
    post["seat"] = other
    broken = replay_hand(hand_from_rows(rows))
    assert ORDER_RAZZ in {f.rule_id for f in broken.findings}
