"""Every rule id the replay emits has a fixture file with a breaking hand and a legal hand;
each hand must produce exactly its expected findings (severity warning and above, plus any
expected info findings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers.text import parse_text
from audit.replay import IMPLEMENTED_RULE_IDS, hand_from_rows, replay_hand
from audit.rules.catalog import TABLE_SEQUENCE_RULE_IDS
from audit.rules.profiles import load_profile
from audit.rules.registry import RULES, Severity

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rules"


def _profile(game):
    overlays = ["tournament"] if game.get("tournament") else []
    return load_profile(game.get("profile") or "montana", overlays)


def _cases():
    for path in sorted(FIXTURES.glob("*.txt")):
        for rows, expect in parse_text(path.read_text(encoding="utf-8"), str(path)):
            hand_id = rows[0]["hand_id"]
            label = hand_id.split(":", 1)[-1].replace(".", "-")
            yield pytest.param(rows, expect, id=label)


@pytest.mark.parametrize(("rows", "expect"), list(_cases()))
def test_rule(rows, expect):
    game = rows[0]["game"]
    result = replay_hand(hand_from_rows(rows), _profile(game))
    # cross-hand ids are checked over the file's hands as one table
    # (tests/sequence/test_table_sequence.py)
    expected = {(r, s, q) for r, s, q in expect if r not in TABLE_SEQUENCE_RULE_IDS}
    info_expected = {e for e in expected if RULES[e[0]].severity == Severity.INFO}
    got = {(f.rule_id, f.seat, f.seq) for f in result.findings
           if Severity(f.severity).level >= Severity.WARNING.level}
    got_info = {(f.rule_id, f.seat, f.seq) for f in result.findings
                if Severity(f.severity) == Severity.INFO}
    detail = [(f.rule_id, f.seat, f.seq, f.message) for f in result.findings]
    assert got == expected - info_expected, detail
    assert info_expected <= got_info, detail


def test_every_implemented_rule_has_a_fixture():
    missing = [r for r in IMPLEMENTED_RULE_IDS if not (FIXTURES / f"{r}.txt").exists()]
    assert not missing, f"rule ids without fixtures/rules/<ID>.txt: {missing}"


def test_every_implemented_rule_is_registered():
    unknown = [r for r in IMPLEMENTED_RULE_IDS if r not in RULES]
    assert not unknown, f"rule ids missing from audit/rules/catalog/: {unknown}"


def test_every_fixture_breaks_its_rule():
    for rid in IMPLEMENTED_RULE_IDS:
        path = FIXTURES / f"{rid}.txt"
        hands = parse_text(path.read_text(encoding="utf-8"), str(path))
        assert any(any(e[0] == rid for e in expect) for _, expect in hands), rid
        assert any(not any(e[0] == rid for e in expect) for _, expect in hands), rid


def _own_rule_cases():
    for path in sorted(FIXTURES.glob("*.txt")):
        rule_id = path.stem.split(".", 1)[0]
        if rule_id in TABLE_SEQUENCE_RULE_IDS:
            continue  # cross-hand: tests/sequence/test_table_sequence.py compares every finding
        for rows, expect in parse_text(path.read_text(encoding="utf-8"), str(path)):
            label = rows[0]["hand_id"].split(":", 1)[-1].replace(".", "-")
            yield pytest.param(rule_id, rows, expect, id=label)


@pytest.mark.parametrize(("rule_id", "rows", "expect"), list(_own_rule_cases()))
def test_the_file_rule_is_found_exactly_where_expected_at_any_severity(rule_id, rows, expect):
    # test_rule compares info findings only as a subset, so an INFO rule (DQ-*) could fire on
    # its own legal neighbour unnoticed: each hand draws exactly its file's rule findings.
    assert rule_id in RULES, rule_id
    result = replay_hand(hand_from_rows(rows), _profile(rows[0]["game"]))
    got = {(f.rule_id, f.seat, f.seq) for f in result.findings if f.rule_id == rule_id}
    assert got == {e for e in expect if e[0] == rule_id}, [
        (f.rule_id, f.seat, f.seq, f.message) for f in result.findings]


def test_every_info_rule_fixture_has_a_legal_neighbour_checked_at_info_severity():
    info_rules = [r for r in IMPLEMENTED_RULE_IDS if RULES[r].severity == Severity.INFO]
    assert info_rules, "no INFO rule: the any-severity check above has nothing to add"
    for rule_id in info_rules:
        path = FIXTURES / f"{rule_id}.txt"
        hands = parse_text(path.read_text(encoding="utf-8"), str(path))
        legal = [rows[0]["hand_id"] for rows, expect in hands
                 if not any(e[0] == rule_id for e in expect)]
        assert legal, rule_id  # ... each one drawing no finding of it, at info too
