"""What the auditor checks and what it cannot check, for the report's methodology section.

Every RULEBOOK.md id has one status (audit/rules/coverage.py): checked (a registered rule id,
audit.rules.registry.RULES), checked within other ids, a permission the replay honours, not
checked (with
the reason), or a cross-reference to other ids. Not checkable at all: RULEBOOK.md §7 ("Not
auditable from logs"), summarised here with its citations so the report does not depend on the
rulebook file being present.
"""

from __future__ import annotations

from dataclasses import dataclass

from audit.rules.catalog import CATALOG
from audit.rules.coverage import (
    ENFORCED_WITHIN,
    NOT_CHECKED,
    PERMISSIONS,
    RULEBOOK_ALIASES,
    EnforcedWithin,
    Permission,
)
from audit.rules.registry import RULES, Rule


@dataclass(frozen=True, slots=True)
class NotAuditable:
    """One RULEBOOK §7 area: what it covers and where the seeds say it."""

    area: str
    what: str
    citation: str


NOT_AUDITABLE: tuple[NotAuditable, ...] = (
    NotAuditable(
        "Behaviour and etiquette",
        "threats, profanity, arguing, noise; throwing, bending or tearing cards; damaging "
        "property; illegal substances; weapons; phone use; tobacco",
        "000 §1; 001 1.3.1, 1.3.3; 003 (1); 004 §1",
    ),
    NotAuditable(
        "Physical chip and card handling",
        "splashing the pot; stacking chips so they hide cards; discarding away from the muck or "
        "releasing cards too high or fast; keeping cards in view; protecting your hand; changing "
        "the order of stud upcards; dropping cards on the floor. Invisible in an action log "
        "unless video is analysed",
        "000 §1, §2 Irreg r.2, r.14, §7 intro; 001 1.3.2.2, 1.3.2.7–8, 3.1.6.2, 3.1.6.14; "
        "003 (1), (2)Procedures r.15",
    ),
    NotAuditable(
        "Showdown etiquette",
        "reading another player's hand before it is tabled; telling anyone to turn a hand face "
        "up; reading and enforcing dealer announcements (lowcard, pairs; no straights or flushes)",
        "000 §1, §7 r.12; 001 1.3.2.3–4, 3.2.3.5.12; 002 §9.1",
    ),
    NotAuditable(
        "Management discretion",
        "overriding the rules for fairness; judging intent and experience; retrieving mucked "
        "hands; ruling a stud hand missing its 7th card live; protection for gross "
        "misunderstanding; letting an oversized PL bet stand; refusing a freerolling player's "
        "refund; impounding pots; penalties and bans. The auditor can only flag these",
        "004 §2 House Policies; 001 App III §2; 003 (2)Decision-Making; 000 §2 DH r.2, "
        "§13 NL r.12, PL r.3",
    ),
    NotAuditable(
        "Agreements the log cannot see",
        "insurance and side bets, private deals over tournament prize pools, tournament "
        "cancellation or alteration",
        "000 §13 NL r.17; 001 3.3.2.30–33; 002 §15.0",
    ),
    NotAuditable(
        "Floor administration",
        "waiting lists, lock-ups, must-move games, seat reservations, guests, playover boxes, "
        "cash on the table, chips from other casinos, disqualified players' chips",
        "001 App III §3–4; 003 (2); 000 §14 #3; 001 App II #5; 002 §16.0 #5",
    ),
    NotAuditable(
        "Responsible gaming, minors, alcohol and advertising policy", "", "001 App I",
    ),
    NotAuditable(
        "Online account administration",
        "refunds for tournaments a player forgot to unregister from; the house's community "
        "votes on sanctions",
        "004 §2",
    ),
)


def checked_rules() -> list[Rule]:
    """Every rule id a check can emit, sorted by id."""
    return [RULES[k] for k in sorted(RULES) if not RULES[k].retired]


def enforced_within_rules() -> list[tuple[Rule, EnforcedWithin]]:
    """Catalogued rules decided by other ids' checks (audit/rules/coverage.py), sorted by id."""
    return [(CATALOG[k], ENFORCED_WITHIN[k]) for k in sorted(ENFORCED_WITHIN)
            if k in CATALOG and k not in RULES]


def permitted_rules() -> list[tuple[Rule, Permission]]:
    """Catalogued permissions the replay honours (never flagged), sorted by id."""
    return [(CATALOG[k], PERMISSIONS[k]) for k in sorted(PERMISSIONS)]


def unchecked_rules() -> list[Rule]:
    """Catalogued rules that no registered check emits or decides, and no permission; sorted."""
    return [CATALOG[k] for k in sorted(CATALOG)
            if k not in RULES and k not in ENFORCED_WITHIN and k not in PERMISSIONS]


def why_unchecked(rule_id: str) -> str:
    """The one-phrase reason a catalogued rule is not checked (audit/rules/coverage.py)."""
    return NOT_CHECKED[rule_id]


def rulebook_aliases() -> list[tuple[str, tuple[str, ...]]]:
    """RULEBOOK cross-reference ids and the ids they point at, sorted."""
    return sorted(RULEBOOK_ALIASES.items())
