"""What every module of the catalogue uses: the CATALOG, `rule()` to state a rule in it,
`register_catalogued()` to register catalogued ids, and short names for categories and severities.
"""

from __future__ import annotations

from collections.abc import Iterable

from audit.rules.registry import Category, Rule, Severity, register

# Every rule of RULEBOOK.md (and our own ids), implemented or not. Only the ids some check can
# emit are registered (the *_RULE_IDS of the family modules); the rest is the catalogue of what a
# later check will cite, and of what is not yet checked (the report's methodology section).
CATALOG: dict[str, Rule] = {}


def rule(rule_id: str, category: Category, severity: Severity, citation: str, text: str) -> str:
    """Catalogue a rule; raises ValueError on a duplicate id. Returns the id."""
    if rule_id in CATALOG:
        raise ValueError(f"rule id {rule_id} catalogued twice")
    CATALOG[rule_id] = Rule(
        id=rule_id, category=category, severity=severity, citation=citation, text=text
    )
    return rule_id


def register_catalogued(rule_ids: Iterable[str]) -> None:
    """Register catalogued rules, in the order given: some check can emit them."""
    for rule_id in rule_ids:
        spec = CATALOG[rule_id]
        register(rule_id, category=spec.category, severity=spec.severity,
                 citation=spec.citation, text=spec.text)

ILLEGAL_BET = Category.ILLEGAL_BET
WRONG_AWARD = Category.WRONG_AWARD
STRING_BET = Category.STRING_BET
PROCEDURE = Category.PROCEDURE
IRREGULARITY = Category.IRREGULARITY
DATA_QUALITY = Category.DATA_QUALITY
COLLUSION = Category.COLLUSION
INFO, WARNING, VIOLATION, CRITICAL = (
    Severity.INFO,
    Severity.WARNING,
    Severity.VIOLATION,
    Severity.CRITICAL,
)
