"""A run-it-twice hand shows the hands at each showdown: a player whose hole cards were not
logged (`??`) shows the same two cards at the FIRST and the SECOND SHOW DOWN (and may leave the
table in between). The second show restates his hand; it deals no card, so it is no
DEAL-DUPLICATE-CARD and voids nothing. (The PokerStars run-it-twice hand of the fpdb corpus,
NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt, with Player1 showing instead of mucking.)"""

from __future__ import annotations

from pathlib import Path

from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import DEAL_DUPLICATE_CARD
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings

HAND = (Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars"
        / "run-it-twice-shown-twice.txt")


def _replays(text: str, tmp_path: Path) -> list[list[dict]]:
    path = tmp_path / "hand.txt"
    path.write_text(text)
    table = next(iter(PokerStarsImporter().read(path))).table
    cash = Settings(load_profile("montana"))
    return [replay_table_fast(table, cash, run_id="r", use_kernel=k).findings.to_pylist()
            for k in (True, False)]


def test_a_hand_shown_at_both_showdowns_is_not_a_duplicate_card(tmp_path: Path) -> None:
    fast, ref = _replays(HAND.read_text(), tmp_path)
    assert fast == ref
    assert [r["rule_id"] for r in ref if r["severity"] != "info"] == []


def test_a_different_card_at_the_second_showdown_still_is(tmp_path: Path) -> None:
    # the second show names the queen of spades, already on the board
    text = HAND.read_text()
    k = text.rindex("Player1: shows [9s Ah]")
    text = text[:k] + text[k:].replace("[9s Ah]", "[9s Qs]", 1)
    fast, ref = _replays(text, tmp_path)
    assert fast == ref
    assert DEAL_DUPLICATE_CARD in [r["rule_id"] for r in ref]
