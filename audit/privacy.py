"""Pseudonymised outputs: findings, exported hands, collusion leads and the report with every
player id, hand id and table id replaced by a keyed HMAC-SHA256 pseudonym, and times cut to
the minute (``anon-`` for players, ``hand-`` for hands,
``table-`` for tables).

Why it cannot leak (issue 19): stored findings keep their text as the replay wrote it (old and
new readers read the same Parquet), and the pseudonymizer does not trust any one column or any
one finding to say which names its text holds. It substitutes from the *store's roster*
(`audit.sql.roster.store_roster`: every player id, hand id and table id of the store's events,
plus those of the table being written), which is every name a finding, a timeline or an export
can contain, because each of them is built from the store's events. It goes over *every* string
value of the output, whatever its column (lists and structs included), not a list of known text
columns; id columns are mapped by HMAC whatever their value, so an id missing from the roster
cannot pass through either. What remains in a pseudonymised output: rule ids, categories,
severities, seats, amounts, cards, citations, the messages with names replaced, variants and
stakes (the game struct), run ids (the time of the audit, not of play), the store path in the
report, and times to the minute. Export drops `source` (the file an event came from, often named
after a table or tournament). Text that did not come from the events, and so may name someone no
roster knows, is replaced whole by a keyed pseudonym: the report's quarantine reasons
(``reason-``, so rejections still group and count by reason) and dealer ids (``dealer-``).

The key comes from $POKER_AUDIT_PSEUDONYM_KEY (or the caller) and lives only in memory: no
output, store file or log written by poker-audit contains it. The same key gives the same
pseudonyms in the report, the findings and the exports, so they can be joined with each other
but not with a guessed name by anyone without the key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from audit.errors import AuditInputError

# Pseudonyms. A player id becomes ``anon-`` plus the first 16 hex digits of HMAC-SHA256(key,
# id); the same key always gives the same pseudonym, so two reports made with one key can be
# compared, and nobody without the key can test a guessed name against a pseudonym.
KEY_ENV = "POKER_AUDIT_PSEUDONYM_KEY"
PREFIX = "anon-"

# Shared by every command with --pseudonymize (findings, export, report, collusion).
PSEUDONYMIZE_HELP = (
    "Replace every player id, hand id (site hand number) and table id (table name, "
    "tournament id) by a keyed HMAC pseudonym, in id columns and in every message, and cut "
    "times to the minute (key: $POKER_AUDIT_PSEUDONYM_KEY; never written anywhere). Left "
    "as they are: rule ids, seats, amounts, cards, stakes and variants, run ids."
)


def pseudonym_key(key: str | bytes | None = None) -> bytes:
    """The HMAC key: `key` when given, else $POKER_AUDIT_PSEUDONYM_KEY; an error when neither."""
    if key is None:
        key = os.environ.get(KEY_ENV)
    if not key:
        raise AuditInputError(
            f"--pseudonymize needs a secret key: set {KEY_ENV} (keep it safe; the same key "
            "gives the same pseudonyms, and anyone holding it can re-identify players)"
        )
    return key.encode("utf-8") if isinstance(key, str) else key


def pseudonym(player: str, key: bytes) -> str:
    """The keyed pseudonym of one player id."""
    digest = hmac.new(key, player.encode("utf-8"), hashlib.sha256).hexdigest()
    return PREFIX + digest[:16]


# Columns holding one player id, one hand id, one table id (or a list of hand ids).
PLAYER_COLUMNS = frozenset({"player", "counterparty", "player_a", "player_b"})
HAND_COLUMNS = frozenset({"hand_id", "evidence_hand_ids"})
TABLE_COLUMNS = frozenset({"table_id"})
# Columns whose values are replaced whole by a keyed pseudonym of their own kind: a dealer's
# name, and a quarantine reason (written from hostile input that never reached the events, so
# it may name anyone; its pseudonym still groups and counts the rejections by reason).
OPAQUE_COLUMNS = {"dealer": "dealer", "reason": "reason"}
# Columns of a closed vocabulary, written by poker-audit and never holding a name: left as
# they are (a player named "fold" or "As" must not turn an event kind or a card into a
# pseudonym; in messages such a word is replaced, the safe side).
VERBATIM_COLUMNS = frozenset({"kind", "cards", "rule_id", "category", "severity", "citation",
                              "run_id", "variant", "structure", "currency"})
# Columns dropped under --pseudonymize: provenance (file names, lines) a regulator does not need.
DROPPED_COLUMNS = frozenset({"source"})

# Characters that may continue an id: an id only matches as a whole token, so "ann" is
# replaced in "seat 1 (ann)" but not inside "announce". Base64 ids use + / = as well.
_ID_CHARS = r"\w+/="
_ID = f"[{_ID_CHARS}]"
_IS_ID = re.compile(_ID)
# Where a name may start in a text: the start of a run of id characters (not inside one), or
# any other character (names like "Mr. X" or "-x-" start with one).
_START = re.compile(rf"(?<!{_ID}){_ID}+|[^{_ID_CHARS}]", re.S)
# A time with seconds ("2026-03-02 00:00:37", "2026-03-02T00:00:37.5+00:00") in free text.
_SECONDS = re.compile(r"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d):\d\d(?:\.\d+)?")


_MEMO = 100_000  # texts remembered by a Redactor (then it starts over)


def keyed_pseudonym(kind: str, value: str, key: bytes) -> str:
    """`kind-` and 16 hex digits of HMAC-SHA256(key, kind NUL value)."""
    digest = hmac.new(key, kind.encode() + b"\x00" + value.encode("utf-8"), hashlib.sha256)
    return f"{kind}-{digest.hexdigest()[:16]}"


def hand_pseudonym(hand_id: str, key: bytes) -> str:
    """The keyed pseudonym of a hand id (site hand numbers do not leave the building)."""
    return keyed_pseudonym("hand", hand_id, key)


def table_pseudonym(table_id: str, key: bytes) -> str:
    """The keyed pseudonym of a table id (table names carry tournament ids)."""
    return keyed_pseudonym("table", table_id, key)


def to_the_minute(value: dt.datetime) -> dt.datetime:
    """A time without its seconds: enough to order and date play, not to single out a hand."""
    return value.replace(second=0, microsecond=0)


@dataclass(frozen=True, slots=True)
class Roster:
    """Every id a text may name: the players, hands and tables of a store."""

    players: frozenset[str] = frozenset()
    hands: frozenset[str] = frozenset()
    tables: frozenset[str] = frozenset()

    def extended(self, *, players: Iterable[str] = (), hands: Iterable[str] = (),
                 tables: Iterable[str] = ()) -> Roster:
        return Roster(self.players | {p for p in players if p},
                      self.hands | {h for h in hands if h},
                      self.tables | {t for t in tables if t})


class Redactor:
    """Replaces every id of a roster in any value (identity when `key` is None).

    A name matches as a whole token, as in `pseudonym`: "ann" is replaced in
    "seat 1 (ann)" but not inside "announce". Matching looks up the token at each place a
    name may start, so it costs the same for ten names or a million (a store's hand ids).
    """

    def __init__(self, key: bytes | None, roster: Roster = Roster()) -> None:
        self.key = key
        self.enabled = key is not None
        # name -> how to replace it (the HMAC is computed when a text names it).
        self._kind: dict[str, Callable[[str | None], str | None]] = {}
        if key is not None:
            # Players last: an id that is both a table name and a player's is a player's.
            self._kind.update(dict.fromkeys(roster.tables, self.table))
            self._kind.update(dict.fromkeys(roster.hands, self.hand))
            self._kind.update(dict.fromkeys(roster.players, self.player))
        # Texts already redacted: rule ids, citations, severities repeat on every row.
        self._memo: dict[str, str] = {}
        # Where a name may start, the lengths of the names that start with that token there,
        # longest first ("ann-b" before "ann"): a few set look-ups per place, however many
        # names share a first token (a million hand ids all start "ps").
        lengths: dict[str, set[int]] = {}
        for name in self._kind:
            lengths.setdefault(_START.match(name).group(0), set()).add(len(name))  # type: ignore[union-attr]
        self._lengths = {k: sorted(v, reverse=True) for k, v in lengths.items()}
        # The places to look: id-character runs, and the other characters some name starts with.
        odd = "".join(re.escape(k) for k in self._lengths if not _IS_ID.match(k))
        self._starts = re.compile(_START.pattern.split("|")[0] + (f"|[{odd}]" if odd else ""),
                                  re.S)

    def player(self, value: str | None) -> str | None:
        if value is None or self.key is None:
            return value
        return pseudonym(value, self.key)

    def hand(self, value: str | None) -> str | None:
        if value is None or self.key is None:
            return value
        return hand_pseudonym(value, self.key)

    def table(self, value: str | None) -> str | None:
        if value is None or self.key is None:
            return value
        return table_pseudonym(value, self.key)

    def text(self, text: str) -> str:
        """Free text with every roster id replaced and times cut to the minute."""
        if self.key is None:
            return text
        known = self._memo.get(text)
        if known is None:
            if len(self._memo) >= _MEMO:
                self._memo.clear()
            known = self._memo[text] = self._text(text)
        return known

    def _text(self, text: str) -> str:
        out: list[str] = []
        done = 0
        for m in self._starts.finditer(text):
            start = m.start()
            sizes = self._lengths.get(m.group(0)) if start >= done else None
            if sizes is None:
                continue
            hit = next((name for size in sizes if (name := text[start:start + size]) in self._kind
                        and self._ends(text, start, name)), None)
            if hit is not None:
                out += (text[done:start], self._kind[hit](hit))
                done = start + len(hit)
        out.append(text[done:])
        return _SECONDS.sub(r"\1", "".join(out))

    @staticmethod
    def _ends(text: str, start: int, name: str) -> bool:
        end = start + len(name)
        return end == len(text) or not (_IS_ID.match(name[-1]) and _IS_ID.match(text[end]))

    def __call__(self, value: object) -> Any:
        """Any value: strings as text, times to the minute, lists, tuples and dicts deeply."""
        if self.key is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dt.datetime):
            return to_the_minute(value)
        if isinstance(value, dict):
            return {k: self.field(k, v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(self(v) for v in value)
        return value

    def field(self, name: str, value: object) -> Any:
        """A value of a named column or key: ids by their column, anything else as `self`."""
        if name in VERBATIM_COLUMNS:
            return value
        if isinstance(value, str):
            if name in PLAYER_COLUMNS:
                return self.player(value)
            if name in HAND_COLUMNS:
                return self.hand(value)
            if name in TABLE_COLUMNS:
                return self.table(value)
            if name in OPAQUE_COLUMNS and self.key is not None:
                return keyed_pseudonym(OPAQUE_COLUMNS[name], value, self.key)
        if isinstance(value, list) and name in HAND_COLUMNS:
            return [self.hand(v) if isinstance(v, str) else self(v) for v in value]
        return self(value)


def _redact_column(redactor: Redactor, name: str, column: pa.ChunkedArray) -> pa.Array:
    values = [redactor.field(name, v) for v in column.to_pylist()]
    return pa.array(values, column.type)


def pseudonymize_table(table: pa.Table, key: str | bytes | None = None, *,
                       roster: Roster = Roster(), players: Iterable[str] = ()) -> pa.Table:
    """The table with every id of `roster` (plus the ids in the table's own id columns and
    `players`) replaced in every column, times to the minute, provenance columns dropped."""
    secret = pseudonym_key(key)
    def ids(columns: frozenset[str]) -> list[str]:
        found = []
        for c in columns & set(table.column_names):
            for v in table.column(c).to_pylist():
                found += [x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]
        return found

    roster = roster.extended(players=[*players, *ids(PLAYER_COLUMNS)],
                             hands=ids(HAND_COLUMNS), tables=ids(TABLE_COLUMNS))
    redactor = Redactor(secret, roster)
    for i, name in enumerate(table.column_names):
        field = table.schema.field(i)
        if name in DROPPED_COLUMNS:
            table = table.set_column(i, field.with_nullable(True),
                                     pa.nulls(table.num_rows, field.type))
        elif not _plain(field.type) and name not in VERBATIM_COLUMNS:
            table = table.set_column(i, field, _redact_column(redactor, name, table.column(i)))
    return table


def _plain(kind: pa.DataType) -> bool:
    """A type that can hold neither text nor a time (ints, floats, booleans)."""
    return (pa.types.is_integer(kind) or pa.types.is_floating(kind)
            or pa.types.is_boolean(kind) or pa.types.is_decimal(kind))
