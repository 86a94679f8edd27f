"""The quarantine record: one hand (or piece of input) an importer or the validator rejected.
A leaf module, so the store can write quarantine without loading any importer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Rejected:
    """One hand (or unreadable piece of input) that goes to quarantine, never silently lost."""

    source: str
    line: int | None
    hand_id: str | None
    reason: str
    raw: str = ""
