"""Choosing and ordering a run's findings for a reader (`poker-audit findings`).

`FindingSelection` says which findings to keep (rule id, at least a severity, category, hand) and
how many; `select_findings` applies it to a run's findings table and orders what is left worst
first (critical, violation, warning, info), then by hand (a run-wide finding such as a collusion
lead, with no hand, before the hands), then by the event's place in the hand; ties keep the
run's order (collusion leads stay in rank order).
`check_rule_id` refuses a rule id that no rule has, naming the closest ids.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from audit.errors import AuditInputError
from audit.rules.catalog import CATALOG
from audit.rules.registry import RULES, Category, Severity

CLOSEST = 3  # rule ids suggested for an unknown one


@dataclass(frozen=True, slots=True, kw_only=True)
class FindingSelection:
    """Which findings to show: every filter given must hold (None: no filter)."""

    rule: str | None = None
    severity: Severity | None = None  # at least this severe
    category: Category | None = None
    hand: str | None = None
    limit: int | None = None  # the first N after ordering


def known_rule_ids(extra: Iterable[str] = ()) -> list[str]:
    """Every registered rule id (checked and catalogued), with `extra` (ids a store holds)."""
    return sorted({*RULES, *CATALOG, *extra})


def check_rule_id(rule: str, extra: Iterable[str] = ()) -> None:
    """Raise AuditInputError (one line) when no rule has the id `rule`, naming the closest."""
    known = known_rule_ids(extra)
    if rule in known:
        return
    close = difflib.get_close_matches(rule.upper(), known, n=CLOSEST, cutoff=0.5)
    hint = (f"; did you mean {', '.join(close)}?" if close
            else "; the rule ids are listed in RULEBOOK.md and by `poker-audit findings`")
    raise AuditInputError(f"unknown rule id {rule!r}{hint}")


def select_findings(table: pa.Table, selection: FindingSelection) -> pa.Table:
    """The findings of `table` that `selection` keeps, worst first, then by hand and event."""
    keep = pa.array([True] * table.num_rows, pa.bool_())
    if selection.rule is not None:
        keep = pc.and_(keep, pc.equal(table.column("rule_id"), selection.rule))
    if selection.category is not None:
        keep = pc.and_(keep, pc.equal(table.column("category"), str(selection.category)))
    if selection.hand is not None:
        keep = pc.and_(keep, pc.equal(table.column("hand_id"), selection.hand))
    if selection.severity is not None:
        enough = [s.value for s in Severity if s.level >= selection.severity.level]
        keep = pc.and_(keep, pc.is_in(table.column("severity"), pa.array(enough)))
    table = table.filter(pc.fill_null(keep, False))
    levels = {s.value: s.level for s in Severity}
    keyed = pa.table({  # a run-wide finding (no hand, no event) sorts before the hands
        "level": pa.array([levels.get(s, -1) for s in table.column("severity").to_pylist()],
                          pa.int8()),
        "hand": pc.fill_null(table.column("hand_id"), ""),
        "seq": pc.fill_null(table.column("seq").cast(pa.int64()), -1),
    })
    # a stable sort: ties keep the run's order (collusion leads their rank, a hand its rules)
    order = pc.sort_indices(keyed, sort_keys=[
        ("level", "descending"), ("hand", "ascending"), ("seq", "ascending")])
    table = table.take(order)
    if selection.limit is not None:
        table = table.slice(0, selection.limit)
    return table
