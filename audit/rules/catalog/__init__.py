"""The rule catalogue, one module per rule family, and the ids each check can emit.

Every rule of RULEBOOK.md a check can cite is catalogued (CATALOG), implemented or not; the ids
some check can emit are also registered (audit.rules.registry.RULES). Importing this package
catalogues and registers every rule, in the order of the imports below: that order is the order
of CATALOG and of RULES, which the report's methodology and the simulator's injector order follow
(seeded simulated stores depend on it), so a new family module goes at the end and a module never
imports a later one.

  deal, blinds, betting, showdown, tournament, evaluation, own   button games, by RULEBOOK section
  button       the button-game ids the replay can emit (REPLAY_RULE_IDS), registered
  studdraw     stud and draw families (STUD_DRAW_RULE_IDS), registered
  collusion    conduct and collusion patterns (COLLUSION_RULE_IDS), registered
  live         the live tables' physical layer (LIVE_RULE_IDS), registered
  sequence     rules across hands: table sequence and kill pots (TABLE_SEQUENCE_RULE_IDS)
  remaining    every other RULEBOOK id, catalogued only (audit/rules/coverage.py)

Each family module names the ids it states as constants (`BET_NL_MIN_RAISE = rule(
"BET-NL-MIN-RAISE", ...)`, listed in its `__all__`); audit.rules.ids gathers them all.
"""

from __future__ import annotations

# isort: off
# The catalogue order: keep it (see above).
from audit.rules.catalog.base import CATALOG
from audit.rules.catalog import deal, blinds, betting, showdown, tournament, evaluation  # noqa: F401
from audit.rules.catalog.showdown import POT_CONSERVATION
from audit.rules.catalog.own import (
    ANTE_AMOUNT,
    DQ_INCONSISTENT_LOG,
    DQ_UNVERIFIABLE_AWARD,
    OWN_RULE_IDS,
)
from audit.rules.catalog.button import BUTTON_GAME_RULE_IDS, REPLAY_RULE_IDS
from audit.rules.catalog.studdraw import STUD_DRAW_RULE_IDS
from audit.rules.catalog.collusion import COLLUSION_RULE_IDS
from audit.rules.catalog.live import LIVE_RULE_IDS
from audit.rules.catalog.sequence import TABLE_SEQUENCE_RULE_IDS
from audit.rules.catalog import remaining  # noqa: F401
# isort: on

__all__ = [
    "ANTE_AMOUNT", "BUTTON_GAME_RULE_IDS", "CATALOG", "COLLUSION_RULE_IDS", "DQ_INCONSISTENT_LOG",
    "DQ_UNVERIFIABLE_AWARD", "LIVE_RULE_IDS", "OWN_RULE_IDS", "POT_CONSERVATION", "REPLAY_RULE_IDS",
    "STUD_DRAW_RULE_IDS", "TABLE_SEQUENCE_RULE_IDS",
]
