"""Pseudonymised outputs: findings and exported hands with every player id replaced by its
keyed HMAC-SHA256 pseudonym (the scheme of the report, audit.report.pseudonym).

The key comes from $POKER_AUDIT_PSEUDONYM_KEY (or the caller) and lives only in memory: no
output, store file or log written by poker-audit contains it. The same key gives the same
pseudonyms in the report, the findings and the exports, so they can be joined with each other
but not with a guessed name by anyone without the key.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa
import pyarrow.compute as pc

from audit.report.pseudonym import Pseudonymizer, pseudonym_key

# Columns that hold a player id, and free-text columns that may mention one.
ID_COLUMNS = ("player", "counterparty")
TEXT_COLUMNS = ("message", "detail", "winners", "evidence")


def pseudonymize_table(table: pa.Table, key: str | bytes | None = None, *,
                       players: Sequence[str] = ()) -> pa.Table:
    """The table with player ids replaced in id columns and in free text. `players` adds ids
    known from elsewhere (e.g. the events of the hands a finding names)."""
    secret = pseudonym_key(key)
    known = set(players)
    for name in ID_COLUMNS:
        if name in table.column_names:
            known.update(v for v in pc.unique(table.column(name)).to_pylist() if v)
    pseudo = Pseudonymizer(known, secret)
    for name in (*ID_COLUMNS, *TEXT_COLUMNS):
        if name not in table.column_names:
            continue
        column = table.column(name)
        if not pa.types.is_string(column.type):
            continue
        replace = pseudo.player if name in ID_COLUMNS else pseudo
        values = [None if v is None else replace(v) for v in column.to_pylist()]
        table = table.set_column(table.schema.get_field_index(name),
                                 table.schema.field(name), pa.array(values, column.type))
    return table
