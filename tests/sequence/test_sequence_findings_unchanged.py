"""The cross-hand checks say exactly what they said before they were keyed on integer hand
keys (audit/sequence/hand_keys.py) instead of string hand ids: every finding, in order, with
its seat, player, severity and message, over the fixtures of the cross-hand rules
(fixtures/rules/<ID>.txt, each one table's deals), and over every rule fixture as one file of
many tables, under a profile that allows either button method, one that plays a moving button only,
and both as kill games. The findings were recorded by the string-keyed checks
(sequence_findings_before.json); speed work on audit/sequence keeps them."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa

from audit.importers.text import parse_text
from audit.rules.catalog import TABLE_SEQUENCE_RULE_IDS
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import arrow_schema
from audit.sequence.table import table_sequence_findings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rules"
BEFORE = Path(__file__).with_name("sequence_findings_before.json")
KILL_GAME = {"kill.required": True}


def _events(paths: list[Path]) -> pa.Table:
    rows = [r for path in paths
            for hand_rows, _ in parse_text(path.read_text(encoding="utf-8"), str(path))
            for r in hand_rows]
    return pa.Table.from_pylist(rows, schema=arrow_schema("events"))


def sequence_findings() -> dict[str, list[dict[str, object]]]:
    """Every case's findings, as plain JSON values."""
    cases = {rule_id: _events([FIXTURES / f"{rule_id}.txt"])
             for rule_id in TABLE_SEQUENCE_RULE_IDS}
    cases["all fixtures, one file"] = _events(sorted(FIXTURES.glob("*.txt")))
    out: dict[str, list[dict[str, object]]] = {}
    for name, events in cases.items():
        for profile in ("montana", "rrv11-online"):
            for kill in (False, True):
                cash = Settings(load_profile(profile), KILL_GAME if kill else None)
                tournament = Settings(load_profile(profile, ("tournament",)),
                                      KILL_GAME if kill else None)
                found = table_sequence_findings(events, cash, tournament)
                out[f"{name} | {profile}{' kill game' if kill else ''}"] = [
                    json.loads(json.dumps(asdict(f), default=str)) for f in found]
    return out


def test_cross_hand_findings_are_those_of_the_string_keyed_checks():
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    now = sequence_findings()
    assert sum(len(v) for v in before.values()) > 50  # the cases do find breaches
    assert now.keys() == before.keys()
    changed = [case for case in before if now[case] != before[case]]
    assert changed == []
