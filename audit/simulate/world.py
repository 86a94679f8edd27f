"""What every simulated store shares, whichever engine plays it (the Python engine in play/, the
compiled one in compiled/): the day play starts, the table sizes tables are drawn from, and the
batch ids, so one seed gives byte-identical files on either engine."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

SEAT_COUNTS = (2, 6, 6, 6, 8, 9, 9, 9, 10)
EPOCH = datetime(2026, 3, 2, tzinfo=UTC)
EPOCH_US = int(EPOCH.timestamp()) * 1_000_000


def batch_id(seed: int, k: int, now: datetime) -> str:
    """The id of a simulated store's k-th batch: sortable time, then a digest of the seed."""
    digest = hashlib.sha256(f"poker-audit-sim:{seed}:{k}".encode()).hexdigest()[:8]
    return now.strftime("%Y%m%dT%H%M%S%fZ") + "-" + digest
