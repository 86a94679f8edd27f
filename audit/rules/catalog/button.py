"""The button-game ids the per-hand replay (audit/replay) can emit, and their registration.

Covers hold'em, Omaha (4 and 5 cards) and Omaha high-low 8 or better, at fixed, pot and no limit,
cash and tournament: the rules of the modules deal, blinds, betting, showdown, tournament,
evaluation and own (RULEBOOK §4.2–§4.10, §4.14, §4.15, §5). Only rules checkable from one hand's
event log (levels F and P) are there; BUTTON_GAME_RULE_IDS is all of them, REPLAY_RULE_IDS the
ones some check can emit (registered here).
"""

from __future__ import annotations

from audit.rules.catalog.base import CATALOG, register_catalogued
from audit.rules.catalog.betting import (
    BET_ALLIN_HALFBET,
    BET_CAP_MULTIROUND,
    BET_CAP_NO_UNCAP,
    BET_CAP_TOURNAMENT,
    BET_LIMIT_FIXED,
    BET_LIMIT_HOLDEM_STREETS,
    BET_NL_MIN_BET,
    BET_NL_MIN_RAISE,
    BET_NL_NO_COMPLETE,
    BET_NL_NO_REOPEN,
    BET_NL_SUBMIN_ALLIN,
    BET_PL_MAX,
    BET_PL_SB_AS_BB,
    CHIP_SHORT_CALL,
    STRADDLE_BIGBET,
    STRADDLE_LIMIT,
    STRADDLE_TOURN,
    TURN_OOT_BINDING,
    TURN_OOT_CALL,
    TURN_OOT_CHECK,
)
from audit.rules.catalog.blinds import (
    BLIND_HEADSUP,
    BLIND_MISSED,
    BLIND_POSITIONS,
    ORDER_BUTTON_FIRST,
    ORDER_BUTTON_LATER,
    ORDER_HEADSUP,
)
from audit.rules.catalog.deal import (
    BOARD_FLOP_EXTRA,
    BURN_EACH_ROUND,
    DEAD_CARD_COUNT,
    DEAL_DUPLICATE_CARD,
    DEAL_PREMATURE,
)
from audit.rules.catalog.own import (
    ANTE_AMOUNT,
    DQ_INCONSISTENT_LOG,
    DQ_SITE_TOTALS,
    DQ_UNVERIFIABLE_AWARD,
)
from audit.rules.catalog.showdown import (
    POT_FOLD_FORFEIT,
    POT_HILO_SPLIT,
    POT_ODDCHIP_BUTTON,
    POT_ODDCHIP_HILO,
    POT_SIDEPOT_BUILD,
    POT_SPLIT_BY_CARDS,
    POT_TIE_SPLIT,
)
from audit.rules.catalog.tournament import HOUSE_RAKE, HOUSE_TABLE_STAKES

BUTTON_GAME_RULE_IDS: tuple[str, ...] = tuple(CATALOG)

# The ids the button-game replay (audit/replay) can emit; each has a fixture under
# fixtures/rules/<ID>.txt. Registering a rule means some check can emit it.
REPLAY_RULE_IDS: tuple[str, ...] = (
    # action order and out-of-turn actions
    ORDER_BUTTON_FIRST, ORDER_BUTTON_LATER, ORDER_HEADSUP,
    TURN_OOT_CHECK, TURN_OOT_CALL, TURN_OOT_BINDING,
    # big-bet sizing
    BET_NL_MIN_BET, BET_NL_MIN_RAISE, BET_NL_NO_REOPEN, BET_NL_NO_COMPLETE,
    BET_NL_SUBMIN_ALLIN, BET_PL_MAX, BET_PL_SB_AS_BB,
    # fixed limit
    BET_LIMIT_FIXED, BET_LIMIT_HOLDEM_STREETS, BET_CAP_MULTIROUND, BET_CAP_NO_UNCAP,
    BET_CAP_TOURNAMENT, BET_ALLIN_HALFBET,
    # chips
    CHIP_SHORT_CALL, HOUSE_TABLE_STAKES,
    # forced bets
    BLIND_POSITIONS, BLIND_HEADSUP, STRADDLE_BIGBET, STRADDLE_LIMIT, STRADDLE_TOURN,
    BLIND_MISSED, ANTE_AMOUNT,
    # dealing
    DEAL_DUPLICATE_CARD, DEAL_PREMATURE, BOARD_FLOP_EXTRA, BURN_EACH_ROUND,
    DEAD_CARD_COUNT,
    # pots and awards
    POT_SPLIT_BY_CARDS, POT_FOLD_FORFEIT, POT_SIDEPOT_BUILD, POT_TIE_SPLIT,
    POT_ODDCHIP_BUTTON, POT_ODDCHIP_HILO, POT_HILO_SPLIT, HOUSE_RAKE,
    # data quality
    DQ_INCONSISTENT_LOG, DQ_UNVERIFIABLE_AWARD, DQ_SITE_TOTALS,
)

register_catalogued(REPLAY_RULE_IDS)
