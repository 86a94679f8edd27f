"""Rules decided within other rules' checks (audit/rules/coverage.py): each claim is proved by
fixtures/rules/within/<ID>.txt, a hand that breaks the rule and must draw the enforcing ids'
findings, and a nearby legal hand that must draw none."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.catalog import CATALOG
from audit.rules.coverage import ENFORCED_WITHIN, PERMISSIONS
from audit.rules.ids import (
    BET_CAP_TOURNAMENT,
    JACKS_PASSED_OUT,
    META_RECONSTRUCT,
    STRADDLE_TOURN,
    TOURN_STUD_MISDEAL,
)
from audit.rules.profiles import load_profile
from audit.rules.registry import RULES, Severity

WITHIN = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "within"


def _hands(rule_id: str) -> list[tuple[str, list, set]]:
    path = WITHIN / f"{rule_id}.txt"
    return [(rows[0]["hand_id"], rows, {(r, s, q) for r, s, q in expect})
            for rows, expect in parse_text(path.read_text(encoding="utf-8"), str(path))]


def _findings(rows: list) -> set[tuple[str, int | None, int | None]]:
    game = rows[0]["game"]
    profile = load_profile(game.get("profile") or "montana",
                           ["tournament"] if game.get("tournament") else [])
    result = replay_hand(hand_from_rows(rows), profile)
    return {(f.rule_id, f.seat, f.seq) for f in result.findings
            if Severity(f.severity).level >= Severity.WARNING.level}


@pytest.mark.parametrize("rule_id", sorted(ENFORCED_WITHIN))
def test_a_rule_decided_within_others_is_catalogued_and_its_deciders_registered(rule_id):
    entry = ENFORCED_WITHIN[rule_id]
    assert rule_id in CATALOG, "only a RULEBOOK rule (or our own catalogued id) is covered"
    assert rule_id not in RULES, f"{rule_id} has its own check now: drop it from rule_coverage"
    assert entry.enforced_by and all(r in RULES for r in entry.enforced_by)
    assert (WITHIN / f"{rule_id}.txt").exists()


@pytest.mark.parametrize("rule_id", sorted(ENFORCED_WITHIN))
def test_breaking_the_rule_draws_the_enforcing_findings_and_the_legal_hand_none(rule_id):
    hands = _hands(rule_id)
    failing = [h for h in hands if ".fail" in h[0]]
    legal = [h for h in hands if ".pass" in h[0]]
    assert failing and legal, "a hand that breaks the rule and a nearby legal hand"
    enforcing = set(ENFORCED_WITHIN[rule_id].enforced_by)
    for hand_id, rows, expected in failing:
        # an enforcing id decides the hand; a consequence (the rightful winner underpaid)
        # may add another id, and the fixture names it too
        assert {r for r, _, _ in expected} & enforcing, hand_id
        assert _findings(rows) == expected, hand_id
    for hand_id, rows, expected in legal:
        assert not expected and not _findings(rows), hand_id


def test_every_within_fixture_names_a_covered_rule():
    assert sorted(p.stem for p in WITHIN.glob("*.txt")) == sorted(ENFORCED_WITHIN)


# --- permissions the replay honours (PERMISSIONS) ------------------------------------------------

PERMITTED = WITHIN.parent / "permitted"


def _permitted_hands(rule_id: str) -> list[tuple[str, list, set]]:
    path = PERMITTED / f"{rule_id}.txt"
    return [(rows[0]["hand_id"], rows, {(r, s, q) for r, s, q in expect})
            for rows, expect in parse_text(path.read_text(encoding="utf-8"), str(path))]


@pytest.mark.parametrize("rule_id", sorted(PERMISSIONS))
def test_a_permission_is_catalogued_never_registered_and_bounds_registered_bans(rule_id):
    assert rule_id in CATALOG and rule_id not in RULES
    assert rule_id not in ENFORCED_WITHIN
    assert all(r in RULES for r in PERMISSIONS[rule_id].bounds)


@pytest.mark.parametrize("rule_id", sorted(PERMISSIONS))
def test_the_permitted_play_draws_no_finding_and_the_bounded_ban_still_does(rule_id):
    hands = _permitted_hands(rule_id)
    legal = [h for h in hands if ".pass" in h[0]]
    banned = [h for h in hands if ".banned" in h[0]]
    assert legal and len(legal) + len(banned) == len(hands)
    for hand_id, rows, expected in legal:
        assert not expected and not _findings(rows), hand_id
    bounds = set(PERMISSIONS[rule_id].bounds)
    # where the permission ends a ban applies: the nearby hand outside it is flagged
    assert bool(banned) == bool(bounds)
    for hand_id, rows, expected in banned:
        assert expected and {r for r, _, _ in expected} <= bounds, hand_id
        assert _findings(rows) == expected, hand_id


def test_every_permitted_fixture_names_a_permission():
    assert sorted(p.stem for p in PERMITTED.glob("*.txt")) == sorted(PERMISSIONS)


# RULEBOOK lines that only point to another id ("see X"): each is named here with the id it
# points to, and that id has a status of its own, so the report accounts for the rule once.
CROSS_REFERENCES = {
    "ANTE-JACKS-REANTE": JACKS_PASSED_OUT,
    "MISDEAL-STUD-TOURN": TOURN_STUD_MISDEAL,
    "POT-RECONSTRUCT": META_RECONSTRUCT,
    "TOURN-CAP-HEADSUP": BET_CAP_TOURNAMENT,
    "TOURN-NO-STRADDLE": STRADDLE_TOURN,
}


@pytest.mark.parametrize(("alias", "target"), sorted(CROSS_REFERENCES.items()))
def test_a_cross_reference_points_to_an_id_with_a_status_of_its_own(alias: str, target: str):
    from audit.rules.coverage import RULEBOOK_ALIASES, Coverage, coverages

    assert RULEBOOK_ALIASES[alias] == (target,)
    assert coverages(alias) == [Coverage.ALIAS]
    (status,) = coverages(target)
    assert status is not Coverage.ALIAS
