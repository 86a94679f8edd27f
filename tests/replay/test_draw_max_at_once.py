"""DRAW-MAX-FOUR and `draw.max_at_once`: the book deals at most four draw cards in a row to
one player (a five-card draw gets the fifth after the others); an online room deals the whole
draw at once. A real PokerStars triple-draw hand: Hero discards five and is dealt five."""

from __future__ import annotations

from pathlib import Path

from audit.ingest.pipeline import ingest
from audit.rules.ids import DRAW_MAX_FOUR
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store

HANDS = (Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars" / "real"
         / "home-game-hand.txt")


def _rules(tmp_path: Path, profile: str) -> list[tuple[str, str]]:
    store = Store(tmp_path / profile)
    assert ingest([HANDS], store).hands == 2
    audit_store(store, profile=profile)
    return [(r["hand_id"], r["rule_id"]) for r in read_findings(store).to_pylist()
            if r["severity"] != "info"]


def test_the_book_deals_four_draw_cards_then_the_fifth_after_the_others(tmp_path: Path) -> None:
    assert _rules(tmp_path, "montana") == [("ps:99631903994", DRAW_MAX_FOUR)]


def test_pokerstars_deals_a_five_card_draw_at_once(tmp_path: Path) -> None:
    assert _rules(tmp_path, "pokerstars") == []
