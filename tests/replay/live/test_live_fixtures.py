"""Every live-table rule id (LIVE_RULE_IDS) has fixtures/rules/<ID>.txt with a hand that breaks it
and a nearby legal hand, every hand of those files carries a physical layer, and the same hands
with the physical layer stripped (what an online log would hold) get none of the live findings.
tests/rules/test_rules_fixtures.py replays every fixture file and checks its expected findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.catalog import LIVE_RULE_IDS
from audit.rules.profiles import load_profile
from audit.rules.registry import RULES

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "rules"
PHYSICAL = {"declare", "chips"}


def _hands(rule_id):
    path = FIXTURES / f"{rule_id}.txt"
    return parse_text(path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize("rule_id", LIVE_RULE_IDS)
def test_every_live_rule_is_registered_with_a_breaking_and_a_legal_hand(rule_id):
    assert rule_id in RULES
    hands = _hands(rule_id)
    assert any(any(e[0] == rule_id for e in expect) for _, expect in hands), rule_id
    assert any(not any(e[0] == rule_id for e in expect) for _, expect in hands), rule_id


@pytest.mark.parametrize("rule_id", LIVE_RULE_IDS)
def test_live_fixtures_have_a_physical_layer_and_online_logs_get_no_live_finding(rule_id):
    for rows, _ in _hands(rule_id):
        assert PHYSICAL & {r["kind"] for r in rows}, rows[0]["hand_id"]
        online = [dict(r) for r in rows if r["kind"] not in PHYSICAL]
        for seq, r in enumerate(online):
            r["seq"] = seq
        game = rows[0]["game"]
        profile = load_profile(game.get("profile") or "montana",
                               ["tournament"] if game.get("tournament") else [])
        result = replay_hand(hand_from_rows(online), profile)
        assert not {f.rule_id for f in result.findings} & set(LIVE_RULE_IDS), rows[0]["hand_id"]
