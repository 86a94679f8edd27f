"""Pseudonyms for player ids, so a report can leave the building.

A player id becomes ``anon-`` plus the first 16 hex digits of HMAC-SHA256(key, id). The key comes
from the environment variable POKER_AUDIT_PSEUDONYM_KEY (or is passed in); the same key always
gives the same pseudonym, so two reports made with one key can be compared, and nobody without
the key can test a guessed name against a pseudonym. audit.privacy applies it (and the hand,
table and time rules) to every output of a --pseudonymize command.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from audit.errors import AuditInputError

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
