"""The audit runs of a store as rows (`poker-audit runs`): id, time, profile, hands, findings,
newest first. Read from the hash chain's run records (or a legacy store's run.json files),
never from directory names."""

from __future__ import annotations

import pyarrow as pa

from audit.store.dataset import Store
from audit.store.runs import visible_runs

RUN_COLUMNS = pa.schema([
    pa.field("run_id", pa.string()),
    pa.field("created_at", pa.string()),
    pa.field("profile", pa.string()),
    pa.field("hands", pa.int64()),
    pa.field("findings", pa.int64()),
    pa.field("since", pa.string()),  # an incremental run: the run it builds on
    pa.field("protected", pa.bool_()),  # committed to the hash chain (false: a legacy run)
])


def list_runs(store: Store) -> pa.Table:
    """One row per audit run the readers see, newest first (the first row is `latest`)."""
    rows = [{"run_id": r.run_id, "created_at": r.meta.get("created_at"),
             "profile": r.meta.get("profile"), "hands": r.meta.get("hands"),
             "findings": r.meta.get("findings"), "since": r.meta.get("since"),
             "protected": r.committed}
            for r in reversed(visible_runs(store))]
    return pa.Table.from_pylist(rows, schema=RUN_COLUMNS)
