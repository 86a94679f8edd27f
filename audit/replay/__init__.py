"""Replay validator for button games (hold'em, Omaha, Omaha-5, Omaha hi-lo; limit, pot limit,
no limit; cash and tournament) and the stud and draw families (audit/replay/family/): events
of one hand + rule profile -> findings + projections."""

from __future__ import annotations

from audit.replay.events import HandEvents, hand_from_rows, hands_from_table
from audit.replay.hand import ReplayResult, replay_hand, replay_table
from audit.rules.catalog import REPLAY_RULE_IDS, STUD_DRAW_RULE_IDS
from audit.rules.settings import Settings

# Every rule id this replay can emit (each has a fixture file fixtures/rules/<ID>.txt); the
# list lives with the catalogue so that only implemented rules are registered.
IMPLEMENTED_RULE_IDS: tuple[str, ...] = REPLAY_RULE_IDS + STUD_DRAW_RULE_IDS

__all__ = ["HandEvents", "ReplayResult", "Settings", "IMPLEMENTED_RULE_IDS", "hand_from_rows",
           "hands_from_table", "replay_hand", "replay_table"]
