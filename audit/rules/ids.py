"""Every rule id as a named constant, in one flat namespace.

    from audit.rules.ids import BET_NL_MIN_RAISE   # == "BET-NL-MIN-RAISE"

A constant's name is its id upper-cased with `-` -> `_` (MISDEAL-COND-a is MISDEAL_COND_A). An id
whose name would not be an identifier (a leading digit) or would clash with a name the catalogue
modules already use (CATALOG, the category and severity short names such as WARNING, the
*_RULE_IDS lists) gets the prefix `RULE_`; no id needs it today. Each constant is defined once,
in the catalogue module that states the rule (audit/rules/catalog/<family>.py, listed in that
module's `__all__`; an id registered without a catalogue entry is named where it is registered);
this module gathers them all. Checks, injectors and tests name rule ids through these constants,
so a mistyped id fails at import instead of matching nothing (tests/rules/test_rule_ids.py).
"""

from __future__ import annotations

from audit.rules.catalog import (
    betting,
    blinds,
    collusion,
    deal,
    evaluation,
    live,
    own,
    remaining,
    sequence,
    showdown,
    studdraw,
    tournament,
)
from audit.rules.catalog.betting import *  # noqa: F403
from audit.rules.catalog.blinds import *  # noqa: F403
from audit.rules.catalog.collusion import *  # noqa: F403
from audit.rules.catalog.deal import *  # noqa: F403
from audit.rules.catalog.evaluation import *  # noqa: F403
from audit.rules.catalog.live import *  # noqa: F403
from audit.rules.catalog.own import *  # noqa: F403
from audit.rules.catalog.remaining import *  # noqa: F403
from audit.rules.catalog.sequence import *  # noqa: F403
from audit.rules.catalog.showdown import *  # noqa: F403
from audit.rules.catalog.studdraw import *  # noqa: F403
from audit.rules.catalog.tournament import *  # noqa: F403

__all__: list[str] = []
__all__ += deal.__all__
__all__ += blinds.__all__
__all__ += betting.__all__
__all__ += showdown.__all__
__all__ += tournament.__all__
__all__ += evaluation.__all__
__all__ += own.__all__
__all__ += studdraw.__all__
__all__ += collusion.__all__
__all__ += live.__all__
__all__ += sequence.__all__
__all__ += remaining.__all__
