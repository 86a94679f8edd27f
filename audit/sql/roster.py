"""The roster of a store for the pseudonymizer (audit.privacy): every player id, hand id and
table id of the store's events, read through the read-only SQL views."""

from __future__ import annotations

import pyarrow as pa

from audit.privacy import Roster, pseudonym_key, pseudonymize_table
from audit.sql.query import query
from audit.store.dataset import Store


def store_roster(store: Store) -> Roster:
    """Every player, hand and table id of the store's events (empty for an empty store)."""
    if not store.event_files():
        return Roster()

    def ids(sql: str) -> frozenset[str]:
        return frozenset(v for v in query(store, sql).column(0).to_pylist() if v)

    return Roster(
        players=ids("SELECT DISTINCT player FROM events WHERE player IS NOT NULL"),
        hands=ids("SELECT DISTINCT hand_id FROM events"),
        tables=ids("SELECT DISTINCT table_id FROM events WHERE table_id IS NOT NULL"),
    )


def pseudonymize_store_table(store: Store, table: pa.Table,
                             key: str | bytes | None = None) -> pa.Table:
    """`pseudonymize_table` with the store's whole roster (every name the table may mention)."""
    pseudonym_key(key)  # fail on a missing key before reading the store
    return pseudonymize_table(table, key, roster=store_roster(store))
