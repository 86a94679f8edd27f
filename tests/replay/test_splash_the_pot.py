"""Money the room puts into the pot (`pot_added`: Run It Once's Splash the Pot): it goes into the
main pot, the winners are paid it and the room's total pot counts it, so the real hands replay
clean and their awards are what the room paid; a hand whose payments do not add up with it is
flagged (fixtures/pokerstars/real/rio-splash-the-pot*.txt, the fpdb corpus' two STP hands and
one with the STP altered)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.replay import hand_from_rows, replay_hand
from audit.replay.fast.table import replay_table_fast
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import arrow_schema

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars" / "real"


def _rows(name: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for chunk in PokerStarsImporter().read(REAL / name):
        assert chunk.rejected == []
        rows += chunk.table.to_pylist()
    return rows


def _paid(rows: list[dict[str, Any]]) -> dict[int, int]:
    paid: dict[int, int] = {}
    for r in rows:
        if r["kind"] == "award":
            paid[r["seat"]] = paid.get(r["seat"], 0) + r["amount"]
    return paid


@pytest.mark.parametrize(("name", "paid", "pot", "won"), [
    # €0.21 returned, the €0.25 pot and the €0.50 STP less €0.04 rake: €0.71 won
    ("rio-splash-the-pot.txt", {3: 21 + 71}, 46 + 50, 25 + 50 - 4),
    # €71.42 returned, €119.52 + €21.82 + €5.00 STP less €2.50 rake: €143.84 won
    ("rio-splash-the-pot-side-pot.txt", {4: 7142 + 14384}, 21276 + 500, 11952 + 2182 + 500 - 250),
])
@pytest.mark.parametrize("profile", ["pokerstars", "montana"])
def test_the_room_s_money_is_in_the_pot_the_winner_is_paid(name: str, paid: dict[int, int],
                                                           pot: int, won: int, profile: str
                                                           ) -> None:
    rows = _rows(name)
    result = replay_hand(hand_from_rows(rows), load_profile(profile))
    assert [(f.rule_id, f.message) for f in result.findings] == []
    assert _paid(rows) == paid
    assert result.hand["pot"] == pot
    # his winnings include the room's money: more than the players' pot less the rake
    winner, = (p for p in result.players if p["won"])
    assert winner["won"] == won


def test_payments_that_do_not_add_up_with_the_room_s_money_are_flagged() -> None:
    # the STP altered to €0.40 (line and summary): the lines' €1.42 is no longer the pot's
    # €0.40 + €0.25 and the €0.21 returned counted twice; they are kept and flagged
    rows = _rows("rio-splash-the-pot-altered.txt")
    found = [(f.rule_id, f.severity, f.delta) for f in
             replay_hand(hand_from_rows(rows), load_profile("pokerstars")).findings]
    assert ("POT-SPLIT-BY-CARDS", "violation", 142 - (21 + 25 + 40)) in found


def test_the_compiled_replay_leaves_room_money_to_the_reference_replay() -> None:
    rows = _rows("rio-splash-the-pot.txt")
    settings = Settings(load_profile("pokerstars"))
    table = pa.Table.from_pylist(rows, schema=arrow_schema("events"))
    assert replay_table_fast(table, settings, settings, run_id="r").fast_hands == 0
