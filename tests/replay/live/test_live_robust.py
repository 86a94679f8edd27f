"""The live layer never crashes and never invents a rule: arbitrary `declare` and `chips` events
(any words, amounts, denominations, seats, positions) dropped into the fixture hands replay to
findings of registered rule ids only."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.registry import RULES

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "rules"
HANDS = [rows for path in sorted(FIXTURES.glob("*.txt"))
         for rows, _ in parse_text(path.read_text(encoding="utf-8"), str(path))]
WORDS = st.one_of(
    st.sampled_from(["call", "fold", "check", "raise", "raise 200", "raise to 300", "bet 50",
                     "all in", "pot", "time", "pair", "make it 1,000", "complete", "300", ""]),
    st.text(max_size=20),
)
DETAIL = st.one_of(st.none(), st.sampled_from(["1x500", "2x100+1x25", "1x100 held", "held",
                                                "3x50", "bogus", "0x1"]), st.text(max_size=12))


@st.composite
def physical_event(draw):
    kind = draw(st.sampled_from(["declare", "chips"]))
    seat = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=12)))
    if kind == "declare":
        return {"kind": kind, "seat": seat, "detail": draw(WORDS)}
    return {"kind": kind, "seat": seat,
            "amount": draw(st.one_of(st.none(), st.integers(min_value=0, max_value=10**7))),
            "detail": draw(DETAIL)}


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.sampled_from(HANDS), data=st.data())
def test_any_physical_layer_replays_to_registered_findings_only(hand, data):
    rows = [dict(r) for r in hand]
    for event in data.draw(st.lists(physical_event(), min_size=1, max_size=8)):
        at = data.draw(st.integers(min_value=1, max_value=len(rows) - 1))
        rows.insert(at, {**event, "hand_id": rows[0]["hand_id"], "table_id": "fixture"})
    for seq, r in enumerate(rows):
        r["seq"] = seq
    result = replay_hand(hand_from_rows(rows))
    assert all(f.rule_id in RULES for f in result.findings)
    assert all(f.message for f in result.findings)
