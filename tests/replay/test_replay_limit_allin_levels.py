"""Fixed limit, a raise after a short all-in raise (RULEBOOK P7, `allin.limit`): the book
(montana, half a bet or more is a full bet) puts the next raise one bet above the all-in; at
PokerStars (`full_bet_levels`) the all-in makes no new level and the next raise goes to the
last full level plus one bet. A real PokerStars Badugi hand: bets 100, raises 100 to 200,
raises 70 to 270 and is all-in, then `raises 30 to 300`."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.ingest.pipeline import ingest
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import BET_LIMIT_FIXED
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store

HAND = (Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars" / "real"
        / "limit-allin-full-bet-levels.txt")


def _findings(tmp_path: Path, profile: str) -> list[dict]:
    store = Store(tmp_path / profile)
    summary = ingest([HAND], store)
    assert (summary.hands, summary.quarantined) == (1, 0)
    audit_store(store, profile=profile)
    return [r for r in read_findings(store).to_pylist() if r["severity"] != "info"]


def test_pokerstars_completes_a_short_allin_to_the_next_full_level(tmp_path: Path) -> None:
    assert _findings(tmp_path, "pokerstars") == []


def test_the_book_puts_the_raise_one_bet_above_a_half_bet_allin(tmp_path: Path) -> None:
    found = _findings(tmp_path, "montana")
    assert [(f["rule_id"], f["expected"], f["actual"]) for f in found] == [
        (BET_LIMIT_FIXED, "370", "300")]


HOLDEM = HAND.parents[1] / "limit-holdem-allin-levels.txt"


@pytest.mark.parametrize("profile,expected", [("pokerstars", []), ("montana", [370])])
def test_the_compiled_and_reference_replays_agree_on_the_level(profile: str,
                                                               expected: list[int]) -> None:
    # limit hold'em ($1/$2): Cy all-in for $2.70 (of $4.70) over Bob's raise to $2, Di raises to $3
    table = next(iter(PokerStarsImporter().read(HOLDEM))).table
    cash = Settings(load_profile(profile))
    fast = replay_table_fast(table, cash, run_id="r")
    ref = replay_table_fast(table, cash, run_id="r", use_kernel=False)
    # the kernel judges the hand clean itself under pokerstars; a finding hands it back
    assert fast.fast_hands == (0 if expected else 1)
    assert fast.findings.to_pylist() == ref.findings.to_pylist()
    rows = [r for r in ref.findings.to_pylist() if r["severity"] != "info"]
    assert [(r["rule_id"], int(r["expected"]) if r["expected"].isdigit() else r["expected"])
            for r in rows] == [(BET_LIMIT_FIXED, e) for e in expected]
