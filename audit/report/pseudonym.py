"""Pseudonyms for player ids, so a report can leave the building.

A player id becomes ``anon-`` plus the first 16 hex digits of HMAC-SHA256(key, id). The key comes
from the environment variable POKER_AUDIT_PSEUDONYM_KEY (or is passed in); the same key always
gives the same pseudonym, so two reports made with one key can be compared, and nobody without
the key can test a guessed name against a pseudonym.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Iterable

from audit.errors import AuditInputError

KEY_ENV = "POKER_AUDIT_PSEUDONYM_KEY"
PREFIX = "anon-"
# Characters that may continue a player id: an id only matches as a whole token, so "ann" is
# replaced in "seat 1 (ann)" but not inside "announce". Base64 ids use + / = as well.
_ID_CHARS = r"\w+/="

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


class Pseudonymizer:
    """Replaces every known player id in a text with its pseudonym (identity when key is None)."""

    def __init__(self, players: Iterable[str], key: bytes | None) -> None:
        self.enabled = key is not None
        ids = sorted({p for p in players if p}, key=lambda p: (-len(p), p))
        self.mapping = {p: pseudonym(p, key) for p in ids} if key is not None else {}
        self._pattern = (
            re.compile(
                rf"(?<![{_ID_CHARS}])(?:" + "|".join(re.escape(p) for p in ids)
                + rf")(?![{_ID_CHARS}])"
            )
            if self.enabled and ids else None
        )

    def player(self, player: str | None) -> str | None:
        """One player id field."""
        if player is None or not self.enabled:
            return player
        return self.mapping.get(player, player)

    def text(self, text: str) -> str:
        """Free text (messages, timelines, winners lists) with every player id replaced."""
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self.mapping[m.group(0)], text)

    def __call__(self, value: object) -> object:
        return self.text(value) if isinstance(value, str) else value
