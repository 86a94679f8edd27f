"""Findings: one row per departure from the rules, collected as an Arrow table per audit run."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

import pyarrow as pa

from audit.rules.registry import get_rule
from audit.schema import findings_schema


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """A single finding before it is stamped with a run id."""

    hand_id: str | None
    seq: int | None
    rule_id: str
    category: str
    severity: str
    seat: int | None = None
    player: str | None = None
    counterparty: str | None = None
    expected: str | None = None
    actual: str | None = None
    delta: int | None = None
    message: str
    citation: str


def finding(
    rule_id: str,
    *,
    hand_id: str | None,
    seq: int | None,
    message: str,
    seat: int | None = None,
    player: str | None = None,
    counterparty: str | None = None,
    expected: object = None,
    actual: object = None,
    delta: int | None = None,
    severity: str | None = None,
) -> Finding:
    """Build a finding for a registered rule; category, default severity and citation come
    from the registry (a profile may pass a different severity)."""
    rule = get_rule(rule_id)
    return Finding(
        hand_id=hand_id,
        seq=seq,
        rule_id=rule_id,
        category=str(rule.category),
        severity=str(severity or rule.severity),
        seat=seat,
        player=player,
        counterparty=counterparty,
        expected=None if expected is None else str(expected),
        actual=None if actual is None else str(actual),
        delta=delta,
        message=message,
        citation=f"{rule.id}: {rule.citation}",
    )


FIELDS = tuple(f.name for f in fields(Finding))


def findings_schema_for(run_id: str | None) -> pa.Schema:
    """schemas/findings.json for findings of run `run_id`. Outside a run (a replay called from
    a notebook: `run_id` None) no run produced them, so `run_id` is declared nullable there:
    the table is then what it says and can be written to Parquet."""
    schema = findings_schema()
    if run_id is not None:
        return schema
    i = schema.get_field_index("run_id")
    return schema.set(i, schema.field(i).with_nullable(True))


def findings_table(findings: Iterable[Finding], run_id: str | None) -> pa.Table:
    """The findings of a run (or of no run: `findings_schema_for`) as an Arrow table with the
    schema of schemas/findings.json."""
    items = list(findings)
    schema = findings_schema_for(run_id)
    columns = {name: [getattr(f, name) for f in items] for name in FIELDS}
    columns["run_id"] = [run_id] * len(items)
    return pa.table({name: pa.array(columns[name], schema.field(name).type)
                     for name in schema.names}, schema=schema)
