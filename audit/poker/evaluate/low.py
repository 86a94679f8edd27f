"""Evaluators for the stud and draw families beyond audit.poker.evaluate.high: razz, stud
high-low 8 or
better, badugi, and the per-game dispatch the stud/draw replay uses. Higher strength is better.

Razz is ace-to-five low with no qualifier (RULEBOOK §5.3); stud high-low is the best high five
and, independently, the best qualifying 8-or-better low five of the seven cards (§5.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from audit.poker.evaluate.high import high_strength, low_27_strength, low_a5_strength


def razz_strength(cards: Sequence[int]) -> int:
    """Razz: the lowest five of 5..7 cards, aces low, straights and flushes ignored."""
    s = low_a5_strength(cards, None)
    assert s is not None  # no qualifier: always a hand
    return s


def hilo8_strength(cards: Sequence[int]) -> tuple[int, int | None]:
    """Stud high-low: (high strength, 8-or-better low strength or None when no low)."""
    return high_strength(cards), low_a5_strength(cards, 8)


def badugi_strength(cards: Sequence[int]) -> int:
    """Badugi: the largest subset of the four cards with distinct ranks and suits wins; among
    equal sizes the lower highest card (aces low), then the next."""
    if len(cards) != 4 or any(c < 0 or c > 51 for c in cards):
        raise ValueError(f"badugi needs 4 known cards, got {list(cards)}")
    best = 0
    for k in range(4, 0, -1):
        for sub in combinations(cards, k):
            ranks = {((c >> 2) + 1) % 13 for c in sub}
            suits = {c & 3 for c in sub}
            if len(ranks) == k and len(suits) == k:
                desc = sorted(ranks, reverse=True)
                code = 0
                for i, r in enumerate(desc):
                    code |= r << (4 * (3 - i))
                v = (k << 16) | (0xFFFF - code)
                if v > best:
                    best = v
        if best:
            return best
    return best


def strength(evaluator: str, cards: Sequence[int]) -> tuple[int, int | None]:
    """(main strength, low strength or None) of a hand under a game's evaluator."""
    if evaluator == "high":
        return high_strength(cards), None
    if evaluator == "razz":
        return razz_strength(cards), None
    if evaluator == "hilo8":
        return hilo8_strength(cards)
    if evaluator == "low27":
        return low_27_strength(cards), None
    if evaluator == "lowa5":
        return razz_strength(cards), None
    if evaluator == "badugi":
        return badugi_strength(cards), None
    raise ValueError(f"unknown evaluator {evaluator!r}")
