"""Calling hands at the lowball showdown (LOWBALL-MISCALL, LOWBALL-PAIR-CALL): judged from what
the log records being said, never from silence in a log that records no speech."""

from __future__ import annotations

from pathlib import Path

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import LOWBALL_MISCALL, LOWBALL_PAIR_CALL

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rules"


def _rows(rule_id, label):
    hands = parse_text((FIXTURES / f"{rule_id}.txt").read_text(encoding="utf-8"))
    return next(rows for rows, _ in hands if rows[0]["hand_id"].endswith(label))


def _ids(rows):
    return {f.rule_id for f in replay_hand(hand_from_rows(rows)).findings
            if f.severity != "info"}


def test_an_unannounced_pair_in_a_log_without_speech_proves_nothing():
    rows = _rows(LOWBALL_PAIR_CALL, ".fail")
    assert LOWBALL_PAIR_CALL in _ids(rows)
    online = [r for r in rows if r["kind"] != "declare"]  # an online log: no speech recorded
    assert _ids(online) == set()


def test_a_miscall_at_deuce_to_seven_names_the_top_card_with_aces_high():
    rows = _rows(LOWBALL_MISCALL, ".fail")
    rows[0]["game"]["variant"] = "lowball_27_single"
    for r in rows:
        if r["kind"] == "show" and r["seat"] == 2:
            r["cards"] = "8h 7d 6c 5s 3c"  # a true eight at deuce-to-seven
        if r["kind"] == "deal" and r["seat"] == 2 and r["detail"] == "hole":
            r["cards"] = "8h 7d 6c 5s Qc"
        if r["kind"] == "deal" and r["seat"] == 2 and r["detail"] == "draw":
            r["cards"] = "3c"
    assert _ids(rows) == set()
    for r in rows:  # 8-7-6-5-4 is a straight at deuce-to-seven: no eight at all
        if r["kind"] == "show" and r["seat"] == 2:
            r["cards"] = "8h 7d 6c 5s 4d"
        if r["kind"] == "deal" and r["seat"] == 2 and r["detail"] == "draw":
            r["cards"] = "4d"
    assert _ids(rows) == {LOWBALL_MISCALL}
