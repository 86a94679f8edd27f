"""An audit run's summary as one JSON-ready document (`poker-audit audit --format json`): the
same facts as the text summary (audit/run/summary.py), for a script or a CI job to read."""

from __future__ import annotations

import dataclasses
from typing import Any

# the summary's tuple-of-tuples fields, each as a list of objects with these keys
_ROWS = {
    "by_rule": ("rule_id", "category", "severity", "count"),
    "by_category": ("category", "count"),
    "by_severity": ("severity", "count"),
    "by_profile": ("profile", "count"),
}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def summary_document(summary: Any, fail_on: str) -> dict[str, Any]:
    """Every field of the run summary (a RunSummary), the grouped counts as lists of objects,
    and whether the run is flagged at `fail_on` (what the exit code says)."""
    doc: dict[str, Any] = {}
    for f in dataclasses.fields(summary):
        value = getattr(summary, f.name)
        keys = _ROWS.get(f.name)
        if keys and all(isinstance(row, tuple) and len(row) == len(keys) for row in value):
            doc[f.name] = [dict(zip(keys, _plain(row), strict=True)) for row in value]
        else:
            doc[f.name] = _plain(value)
    doc["fail_on"] = fail_on
    doc["flagged"] = summary.flagged(fail_on)
    return doc
