"""A declared "pot" in a half-pot game (BET-HALFPOT, 001 3.2.5.5.1.1) binds the half-pot
maximum, the most the game allows, not the whole pot as at pot limit."""

from __future__ import annotations

from pathlib import Path

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.replay.live.rulings import LiveRules, Situation, derive
from audit.replay.live.words import parse_declaration
from audit.replay.state import PL
from audit.rules.ids import BET_HALFPOT, VERBAL_BINDING
from audit.rules.profiles import load_profile

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "rules" / "BET-HALFPOT.txt"


def _facing_three(*, half_pot: bool) -> Situation:
    # Carol opened for 3 into 6 in antes: Alice owes 3, the pot after her call is 12
    return Situation(cur=3, mine=0, stack=1000, pot=9, structure=PL, size=0, limit_to=0,
                     min_raise=3, half_pot=half_pot)


def test_pot_max_is_the_call_plus_half_the_pot_after_it_in_half_pot_and_the_whole_at_pot_limit():
    assert _facing_three(half_pot=True).pot_max == 3 + 12 // 2
    assert _facing_three(half_pot=False).pot_max == 3 + 12
    odd = Situation(cur=0, mine=0, stack=1000, pot=3, structure=PL, size=0, limit_to=0,
                    min_raise=1, half_pot=True)
    assert odd.pot_max == 2  # half of an odd pot rounds up, as BET-HALFPOT rounds it


def test_said_pot_binds_the_structures_maximum():
    said = parse_declaration("pot")
    for half_pot, total in ((True, 9), (False, 15)):
        b = derive(_facing_three(half_pot=half_pot), said, (), LiveRules())
        assert b is not None and (b.action, b.total) == ("raise", total)


def _findings(hand_suffix: str) -> set[tuple[str, int | None]]:
    [rows] = [rows for rows, _ in parse_text(FIXTURE.read_text(encoding="utf-8"), str(FIXTURE))
              if rows[0]["hand_id"] == f"fx:BET-HALFPOT.{hand_suffix}"]
    result = replay_hand(hand_from_rows(rows), load_profile("montana"))
    return {(f.rule_id, f.seat) for f in result.findings}


def test_live_pot_at_the_half_pot_maximum_is_clean_and_one_over_is_flagged():
    assert _findings("pass-pot-said") == set()
    assert _findings("fail-pot-said") == {(BET_HALFPOT, 1), (VERBAL_BINDING, 1)}
