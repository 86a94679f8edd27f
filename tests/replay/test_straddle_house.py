"""House straddle rules (issue 22): `straddle.position = "any"` and `straddle.max` (0 = any
number of re-straddles, each `straddle.multiple` times the bet it straddles), as GGPoker deals
them (fixtures/sites/gg-shortdeck-straddles.txt, from ../shared/data/fpdb-dev/ggpoker/cash/Flop/
NL-ShortDeck-5max-USD-0.2-202103.txt); montana keeps one straddle, left of the big blind."""

from __future__ import annotations

import copy
from pathlib import Path

from audit.importers.ggpoker import GGPokerImporter
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import STRADDLE_BIGBET
from audit.rules.profiles import load_profile

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
FIXTURE = SITES / "gg-shortdeck-straddles.txt"


def _hands() -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for chunk in GGPokerImporter().read(FIXTURE):
        for row in chunk.table.to_pylist():
            out.setdefault(row["hand_id"], []).append(row)
    return out


def _rules(rows: list[dict], profile: str) -> list[str]:
    return [f.rule_id for f in replay_hand(hand_from_rows(rows), load_profile(profile)).findings
            if f.severity != "info"]


def test_three_straddles_from_any_seat_under_the_house_rules_and_not_by_the_book() -> None:
    rows = _hands()["gg:SD27208832"]
    assert _rules(rows, "ggpoker") == []
    assert _rules(rows, "montana") == [STRADDLE_BIGBET, STRADDLE_BIGBET]


def test_a_re_straddle_of_the_wrong_size_is_still_flagged() -> None:
    rows = copy.deepcopy(_hands()["gg:SD27208838"])
    second = [r for r in rows if r["kind"] == "post" and r["detail"] == "straddle"][1]
    second["amount"] += 2  # to 0.10: not twice the 0.04 it straddles
    second["total"] += 2
    assert STRADDLE_BIGBET in _rules(rows, "ggpoker")
