"""The catalogue: our own ids, not in RULEBOOK.md (data quality, money conservation, the
button-game ante).
"""

from __future__ import annotations

from audit.rules.catalog.base import DATA_QUALITY, INFO, PROCEDURE, WARNING, rule
from audit.rules.catalog.showdown import POT_CONSERVATION

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "DQ_UNVERIFIABLE_AWARD", "DQ_INCONSISTENT_LOG", "DQ_SITE_TOTALS", "ANTE_AMOUNT",
]

# --- Data quality: our own ids (see OWN_RULE_IDS) -------------------------------------------------

DQ_UNVERIFIABLE_AWARD = rule(
    "DQ-UNVERIFIABLE-AWARD", DATA_QUALITY, INFO,
    # Our own id. RULEBOOK §2: rules whose inputs are missing are reported as "not evaluable".
    "(derived) RULEBOOK §2 \"not evaluable\"; 000 §2 SD r.1; 001 3.1.8.1",
    "The award cannot be verified because cards needed to evaluate the hands were not shown or "
    "not logged; nothing is known to be wrong.",
)
DQ_INCONSISTENT_LOG = rule(
    "DQ-INCONSISTENT-LOG", DATA_QUALITY, INFO,
    # Our own id: the log contradicts itself, so the replay cannot tell what happened at the table.
    "(derived) RULEBOOK §2 assumed log vocabulary",
    "The hand's log contradicts itself (chips moved do not match the declared action, or an "
    "amount is impossible), so the affected checks could not be made.",
)

DQ_SITE_TOTALS = rule(
    "DQ-SITE-TOTALS", DATA_QUALITY, INFO,
    # Our own id: the room states its own money figures (total pot, rake, what each player
    # collected) and the replay derives the same figures from the actions; when they disagree the
    # log contradicts itself, and which side is wrong is not provable from the log alone.
    "(derived) RULEBOOK §2 assumed log vocabulary (pot, rake, awards)",
    "The room's stated total pot equals the chips the logged actions put in (less returned "
    "uncalled bets), and equals the amounts collected plus the rake.",
)

# --- Forced-bet structure: our own id (see OWN_RULE_IDS) ------------------------------------------

ANTE_AMOUNT = rule(
    "ANTE-AMOUNT", PROCEDURE, WARNING,
    # Our own id: the game's ante (per player, or one big-blind ante for the table) is in the
    # hand header; a player all-in for less plays for what he has (TOURN-SHORT-BLIND).
    "(derived) RULEBOOK §2 hand header stakes (ante); 000 §4 intro; 000 Gl. ANTE; "
    "004 §1 Sitting Out (P38); 002 §15.0 \"lacks sufficient chips\"",
    "Every player dealt into a game with an ante posts exactly the game's ante (with a "
    "big-blind ante, the big blind posts it for the table); only a player all-in for less "
    "posts less.",
)

# Our own ids, not in RULEBOOK.md. RULEBOOK §2 only says that rules needing missing fields are
# "not evaluable", and ARCHITECTURE.md requires such cases to be data_quality findings, never a
# false violation; no RULEBOOK id covers money conservation across a whole hand either.
# RULEBOOK states the ante only for stud and draw (ANTE-STUD, ANTE-DRAW); a hold'em or Omaha
# ante (incl. the big-blind ante) is a structure parameter of the hand header (RULEBOOK §2).
# POT-CONSERVATION is stated with the awards (showdown.py).
OWN_RULE_IDS: tuple[str, ...] = (DQ_UNVERIFIABLE_AWARD, DQ_INCONSISTENT_LOG, DQ_SITE_TOTALS,
                                 POT_CONSERVATION, ANTE_AMOUNT)
