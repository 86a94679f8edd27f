"""Six-card Omaha (PokerStars '6 Card Omaha'): six hole cards, exactly two of them with
three from the board (EVAL-SELECT), read from the site log and judged by both replays."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from audit.importers import detect_format, get_importer
from audit.replay import hands_from_table, replay_hand
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import POT_SPLIT_BY_CARDS
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars" / "omaha6-showdown.txt"
SETTINGS = Settings(load_profile("montana"))


def _events(text: str, tmp_path: Path) -> pa.Table:
    path = tmp_path / "hand.txt"
    path.write_text(text, encoding="utf-8")
    chunks = list(get_importer(detect_format(path)).read(path))
    assert not [r for c in chunks for r in c.rejected]
    return pa.concat_tables([c.table for c in chunks])


def test_six_card_omaha_showdown_is_read_and_judged(tmp_path: Path) -> None:
    table = _events(FIXTURE.read_text(encoding="utf-8"), tmp_path)
    hand = next(hands_from_table(table))
    assert hand.game["variant"] == "omaha6"
    holes = [c for k, d, c in zip(hand.kind, hand.detail, hand.cards, strict=True)
             if k == "deal" and d == "hole" and c and "?" not in c]
    assert [len(c.split()) for c in holes] == [6]
    result = replay_hand(hand, SETTINGS)
    assert result.findings == ()
    classes = {p["seat"]: p["hand_class"] for p in result.players}
    # Carol's two sevens and the board's seven make trips; Alice plays two pair, not a
    # four-card holding
    assert classes == {1: "two pair", 2: None, 3: "three of a kind"}
    fast = replay_table_fast(table, SETTINGS, SETTINGS)
    assert fast.fast_hands == 1
    assert fast.players.drop_columns(["run_id"]).to_pylist() == [
        {k: v for k, v in p.items() if k != "run_id"} for p in result.players]


def test_pot_paid_to_the_worse_six_card_hand_is_a_wrong_award(tmp_path: Path) -> None:
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "Carol collected $1.62 from pot", "Alice collected $1.62 from pot").replace(
        "and lost with two pair, Aces and Kings", "and won ($1.62) with two pair, Aces and Kings"
    ).replace("and won ($1.62) with three of a kind", "and lost with three of a kind")
    table = _events(text, tmp_path)
    result = replay_hand(next(hands_from_table(table)), SETTINGS)
    wrong = {(f.rule_id, f.seat, f.delta) for f in result.findings}
    assert wrong == {(POT_SPLIT_BY_CARDS, 1, 162), (POT_SPLIT_BY_CARDS, 3, -162)}
    fast = replay_table_fast(table, SETTINGS, SETTINGS)
    assert fast.fast_hands == 0  # a wrong award is the reference replay's to report
    assert fast.findings.num_rows == 2
