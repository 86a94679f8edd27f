"""A call need not go beyond what any other player in the hand has in: when every other player
is all in, calling the largest all-in is a whole call, and the betting round is over (more
could not be called). No-limit, blinds 300/600: the big blind is all in for 360, the next
player calls all in for 480, the small blind `calls 180` to 480 -- no CHIP-SHORT-CALL, no
DEAL-PREMATURE. With a player left who could call more, the same call is short."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import CHIP_SHORT_CALL
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings

HAND = (Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars"
        / "call-to-the-largest-allin.txt")


def _findings(path: Path) -> list[tuple[str, str]]:
    table = next(iter(PokerStarsImporter().read(path))).table
    cash = Settings(load_profile("montana"))
    tournament = Settings(load_profile("montana", ("tournament",)))
    fast = replay_table_fast(table, cash, tournament, run_id="r")
    ref = replay_table_fast(table, cash, tournament, run_id="r", use_kernel=False)
    assert fast.findings.to_pylist() == ref.findings.to_pylist()
    return [(r["rule_id"], r["severity"]) for r in ref.findings.to_pylist()
            if r["severity"] != "info"]


def test_calling_the_largest_allin_when_everyone_else_is_all_in_is_whole() -> None:
    assert _findings(HAND) == []


@pytest.mark.parametrize("player1", ["Player1: calls 600", "Player1: raises 600 to 1200"])
def test_the_same_call_is_short_while_another_player_could_call_more(
        tmp_path: Path, player1: str) -> None:
    text = HAND.read_text().replace("Player1: folds", player1)
    path = tmp_path / "hand.txt"
    path.write_text(text)
    assert (CHIP_SHORT_CALL, "violation") in _findings(path)
