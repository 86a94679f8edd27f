"""The catalogue (RULEBOOK §5): hand evaluation for the button games.
"""

from __future__ import annotations

from audit.rules.catalog.base import VIOLATION, WRONG_AWARD, rule

# The ids stated in this module, as constants (audit.rules.ids has them all).
__all__ = [
    "EVAL_HIGH", "EVAL_LOW_8", "EVAL_SELECT",
]

# --- §5 Hand evaluation --------------------------------------------------------------------------

EVAL_HIGH = rule(
    "EVAL-HIGH", WRONG_AWARD, VIOLATION,
    "001 3.1.1.1–10; 004 HE/Ranks; 000 Gl. FLUSH, FULL HOUSE, STRAIGHT, STRAIGHT FLUSH; "
    "000 Gl. KICKER; 001 §2.2 KICKER; 000 §2 Ties r.1; 001 3.1.9.1",
    "High hands rank straight flush, quads, full house, flush, straight, trips, two pair, pair, "
    "high card, with kickers breaking ties; suits never break a tie for a pot.",
)
EVAL_LOW_8 = rule(
    "EVAL-LOW-8", WRONG_AWARD, VIOLATION,
    "000 §6 r.2–3, §9 intro, r.2–5; 001 3.2.2.5.2.1–2, 3.2.7.1, 3.2.7.5.2–6; 002 §10.0, §10.1; "
    "004 OM/Hi-Lo, ST/Hi-Lo",
    "A qualifying low is five cards of different ranks, all 8 or lower (ace low), ranked "
    "ace-to-five; straights and flushes do not hurt it.",
)
EVAL_SELECT = rule(
    "EVAL-SELECT", WRONG_AWARD, VIOLATION,
    "004 HE/Play, OM/Omaha, OM/Omaha-5, OM/5Hi-Lo; 000 §4 intro, §5 intro & r.1, §6 intro, "
    "§7 intro; 001 3.2.1.4, 3.2.2.2, 3.2.2.4, 3.2.3.4, 3.2.4.4, 3.2.5.4, 3.2.7.4; 000 §10 r.12; "
    "001 3.2.8.5.1.11",
    "Hold'em plays the best five of the seven cards; Omaha must use exactly two hole cards and "
    "three board cards, for high and for low alike.",
)
