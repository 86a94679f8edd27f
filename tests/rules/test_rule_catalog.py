"""The button-game rule catalogue: every id is from RULEBOOK.md, cited, and registered once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from audit.rules.catalog import (
    BUTTON_GAME_RULE_IDS,
    CATALOG,
    COLLUSION_RULE_IDS,
    LIVE_RULE_IDS,
    OWN_RULE_IDS,
    REPLAY_RULE_IDS,
    STUD_DRAW_RULE_IDS,
    TABLE_SEQUENCE_RULE_IDS,
)
from audit.rules.coverage import RULEBOOK_ALIASES, Coverage, coverages
from audit.rules.ids import (
    BET_CAP_MULTIROUND,
    BET_PL_MAX,
    DEAL_DUPLICATE_CARD,
    KILL_GAME_TYPE,
    META_RULING_WINDOW,
    PATTERN_SITOUT_OK,
    POT_CONSERVATION,
    POT_ODDCHIP_BUTTON,
)
from audit.rules.registry import RULES, Category, Severity, get_rule, register

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "RULEBOOK.md"
SEED_KEY = re.compile(r"\b00[0-4]\b")


@pytest.fixture(scope="module")
def rulebook_ids() -> set[str]:
    """Every rule id RULEBOOK.md defines: catalogue lines, §5 evaluator ids, misdeal sub-ids."""
    if not RULEBOOK.exists():
        pytest.skip("../shared/RULEBOOK.md is not beside the checkout")
    text = RULEBOOK.read_text(encoding="utf-8")
    ids = set(re.findall(r"^- `([A-Z0-9*-]+)`", text, flags=re.M))
    ids |= set(re.findall(r"^### 5\.\d .*\(`(EVAL-[A-Z0-9-]+)`\)", text, flags=re.M))
    # MISDEAL-COND-* is one line with a table of sub-ids `-a` … `-j`.
    assert "MISDEAL-COND-*" in ids
    ids |= {f"MISDEAL-COND-{s}" for s in re.findall(r"^\| `-([a-z])` ", text, flags=re.M)}
    return ids


def test_every_registered_id_is_in_the_rulebook_or_documented_as_our_own(rulebook_ids):
    strangers = set(BUTTON_GAME_RULE_IDS) - rulebook_ids - set(OWN_RULE_IDS)
    assert not strangers, f"not in RULEBOOK.md and not in OWN_RULE_IDS: {sorted(strangers)}"
    assert not set(OWN_RULE_IDS) & rulebook_ids, "an own id now exists in RULEBOOK: use it"


def test_button_game_ids_are_catalogued_once_each():
    assert len(BUTTON_GAME_RULE_IDS) == len(set(BUTTON_GAME_RULE_IDS))
    assert set(OWN_RULE_IDS) <= set(BUTTON_GAME_RULE_IDS)
    for rule_id in BUTTON_GAME_RULE_IDS:
        assert CATALOG[rule_id].id == rule_id


def test_only_implemented_rules_are_registered():
    # A registered rule is one some check can emit; each has fixtures (test_rules_fixtures).
    assert set(REPLAY_RULE_IDS) <= set(CATALOG)
    assert set(REPLAY_RULE_IDS) <= set(RULES)
    registered = (set(REPLAY_RULE_IDS) | set(STUD_DRAW_RULE_IDS) | set(COLLUSION_RULE_IDS)
                  | set(LIVE_RULE_IDS) | set(TABLE_SEQUENCE_RULE_IDS))
    assert not (set(CATALOG) - registered) & set(RULES)
    assert set(STUD_DRAW_RULE_IDS) <= set(RULES) and not set(STUD_DRAW_RULE_IDS) & set(
        BUTTON_GAME_RULE_IDS)
    for rule_id in REPLAY_RULE_IDS:
        assert get_rule(rule_id) == CATALOG[rule_id]


def test_importing_the_registry_populates_it():
    # audit.rules.registry imports the catalogue at its end, so get_rule works without importing it.
    assert BET_CAP_MULTIROUND in RULES


@pytest.mark.parametrize("rule_id", BUTTON_GAME_RULE_IDS)
def test_every_rule_has_citation_text_category_and_severity(rule_id):
    rule = CATALOG[rule_id]
    assert rule.text.strip() and rule.text.rstrip().endswith(".")
    assert rule.citation.strip()
    assert SEED_KEY.search(rule.citation) or rule.category is Category.DATA_QUALITY, rule.citation
    assert isinstance(rule.category, Category)
    assert isinstance(rule.severity, Severity)
    assert not rule.retired


def test_categories_follow_the_catalogue_conventions():
    for rule_id in BUTTON_GAME_RULE_IDS:
        rule = CATALOG[rule_id]
        if rule_id.startswith("STRING-"):
            assert rule.category is Category.STRING_BET
        if rule_id.startswith("DQ-"):
            assert (rule.category, rule.severity) == (Category.DATA_QUALITY, Severity.INFO)
        if rule_id.startswith(("MISDEAL-", "DEAL-DUPLICATE")):
            assert rule.category is Category.IRREGULARITY
        if rule_id.startswith("TURN-OOT-") or rule_id.startswith("ORDER-"):
            assert rule.category is Category.PROCEDURE
    assert CATALOG[DEAL_DUPLICATE_CARD].severity is Severity.CRITICAL
    assert CATALOG[POT_CONSERVATION].severity is Severity.CRITICAL
    assert CATALOG[BET_PL_MAX].category is Category.ILLEGAL_BET
    assert CATALOG[POT_ODDCHIP_BUTTON].category is Category.WRONG_AWARD


def test_no_stud_draw_kill_or_session_rules_here(rulebook_ids):
    text = RULEBOOK.read_text(encoding="utf-8")
    level = dict(re.findall(r"^- `([A-Z0-9*-]+)` \*\*\[([^\]]*)\]\*\*", text, flags=re.M))
    for rule_id in BUTTON_GAME_RULE_IDS:
        assert not rule_id.startswith(("STUD-", "RAZZ-", "KILL-", "DRAW", "A5-", "PATTERN-"))
        assert level.get(rule_id, "F") not in ("S", "X"), rule_id


def test_citations_are_copied_from_the_rulebook(rulebook_ids):
    text = RULEBOOK.read_text(encoding="utf-8")
    sources = dict(re.findall(r"^- `([A-Z0-9-]+)` .*?\*S:\* (.*)$", text, flags=re.M))
    # 111 of 130 have a `*S:*` line (not: our own ids, the misdeal conditions, EVAL-HIGH ...);
    # a pattern that stopped matching would make the check below vacuous
    assert sum(rule_id in sources for rule_id in BUTTON_GAME_RULE_IDS) >= 100
    for rule_id in BUTTON_GAME_RULE_IDS:
        if rule_id in sources:
            assert CATALOG[rule_id].citation in sources[rule_id], rule_id


def test_every_rulebook_id_has_exactly_one_status(rulebook_ids):
    # the report's methodology accounts for each id once: checked, decided within other ids, a
    # permission honoured, not checked (with the reason), or a cross-reference to other ids
    statuses = {rule_id: coverages(rule_id) for rule_id in sorted(rulebook_ids)}
    none = [k for k, v in statuses.items() if not v]
    several = {k: v for k, v in statuses.items() if len(v) > 1}
    assert not none, f"RULEBOOK ids the report would silently omit: {none}"
    assert not several, f"RULEBOOK ids with more than one status: {several}"
    assert len(rulebook_ids) > 250


def test_every_catalogued_id_has_exactly_one_status():
    for rule_id in CATALOG:
        assert len(coverages(rule_id)) == 1, rule_id


def test_a_cross_reference_points_at_rulebook_ids_with_a_status_of_their_own(rulebook_ids):
    text = RULEBOOK.read_text(encoding="utf-8")
    for alias, targets in RULEBOOK_ALIASES.items():
        assert alias not in CATALOG and alias not in RULES, alias
        line = next(ln for ln in text.splitlines() if ln.startswith(f"- `{alias}`"))
        heading = alias.endswith("*")  # MISDEAL-COND-*: the sub-ids -a … -j are the rules
        assert heading or "**[" not in line, f"{alias} is a rule of its own in RULEBOOK.md"
        for target in targets:
            assert target in rulebook_ids, target
            assert heading or target in line, (alias, target)
            assert coverages(target) and Coverage.ALIAS not in coverages(target), target


def test_the_remaining_rulebook_ids_cite_their_rulebook_line(rulebook_ids):
    # the ids catalogued last so the report can name every RULEBOOK id (meta, session, house,
    # patterns, permissions): each citation is copied from its RULEBOOK line
    text = RULEBOOK.read_text(encoding="utf-8")
    sources = dict(re.findall(r"^- `([A-Z0-9-]+)` .*?\*S(?: \([^)]*\))?:\* (.*)$", text,
                              flags=re.M))
    ids = list(CATALOG)
    later = ids[ids.index(META_RULING_WINDOW):]
    assert {META_RULING_WINDOW, KILL_GAME_TYPE, PATTERN_SITOUT_OK} <= set(later)
    # the citation check below is conditional: only the EVAL-* ids lack a `*S:*` source line
    assert [r for r in later if r not in sources and not r.startswith("EVAL-")] == []
    for rule_id in later:
        rule = CATALOG[rule_id]
        assert rule_id in rulebook_ids, rule_id
        assert rule.text.strip() and rule.text.rstrip().endswith("."), rule_id
        if rule_id in sources:
            assert rule.citation in sources[rule_id], rule_id


def test_duplicate_registration_raises():
    before = dict(RULES)
    with pytest.raises(ValueError, match=BET_PL_MAX):
        register(
            BET_PL_MAX,
            category=Category.ILLEGAL_BET,
            severity=Severity.VIOLATION,
            citation="000 §13 PL intro",
            text="Duplicate.",
        )
    assert RULES == before
