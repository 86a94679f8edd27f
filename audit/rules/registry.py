"""The rule registry: every rule id the auditor can emit, with category, severity and citation.

Rule ids, statements and citations come from ../shared/RULEBOOK.md. A rule is registered once;
a duplicate id fails at import. Ids are never reused: a retired rule stays registered with
``retired=True``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique


@unique
class Category(StrEnum):
    """What kind of departure a finding reports."""

    ILLEGAL_BET = "illegal_bet"
    WRONG_AWARD = "wrong_award"
    STRING_BET = "string_bet"
    PROCEDURE = "procedure"
    IRREGULARITY = "irregularity"
    DATA_QUALITY = "data_quality"
    COLLUSION = "collusion"


@unique
class Severity(StrEnum):
    """How serious a finding is; ordered info < warning < violation < critical."""

    INFO = "info"
    WARNING = "warning"
    VIOLATION = "violation"
    CRITICAL = "critical"

    @property
    def level(self) -> int:
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = [Severity.INFO, Severity.WARNING, Severity.VIOLATION, Severity.CRITICAL]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """A checkable rule: stable id, what it says, and where the seeds say it."""

    id: str
    category: Category
    severity: Severity
    citation: str
    text: str
    retired: bool = False


RULES: dict[str, Rule] = {}


def register(
    id: str,
    *,
    category: Category,
    severity: Severity,
    citation: str,
    text: str,
    retired: bool = False,
) -> Rule:
    """Register a rule; raises ValueError on a duplicate id."""
    if id in RULES:
        raise ValueError(f"rule id {id} registered twice")
    rule = Rule(
        id=id, category=category, severity=severity, citation=citation, text=text, retired=retired
    )
    RULES[id] = rule
    return rule


def get_rule(rule_id: str) -> Rule:
    """The registered rule for an id; KeyError names the id when it is unknown."""
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(
            f"unknown rule id {rule_id!r}: register it in audit/rules/catalog/") from None

