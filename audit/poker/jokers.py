"""Hand values with the joker for the draw games that play one (RULEBOOK §5.3, §5.6), and the
hand tests the lowball and jacks rules need: a seven-low or better (A5-SEVENS-RULE) and
openers, a pair of jacks or better (JACKS-OPENERS).

Pure functions over card indices (audit.poker.cards: rank * 4 + suit, 2c = 0 .. As = 51, Xj = 52).
"""

from __future__ import annotations

from audit.poker.cards import JOKER
from audit.poker.evaluate.high import (
    FLUSH,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TWO_PAIR,
    high_strength,
)
from audit.poker.evaluate.low import strength

# Five aces (draw high with the joker, RULEBOOK §5.6) beat every straight flush; the value stays
# in the straight-flush category so hand-class projections can still name a category.
FIVE_ACES = (STRAIGHT_FLUSH << 20) | 0xFFFFF
JOKER_GAMES = ("lowa5", "high")  # the evaluators that play a joker (A-5 lowball, draw high)
JACK = 9  # rank index of the jack (2 = 0 .. A = 12)


def joker_low(rest: list[int]) -> int:
    """The card a joker plays as in ace-to-five: the lowest rank not in the hand (§5.3)."""
    present = {((c >> 2) + 1) % 13 for c in rest}
    low = next(v for v in range(13) if v not in present)
    rank = (low - 1) % 13  # back to card ranks, 2 = 0 .. A = 12
    return next(rank * 4 + suit for suit in range(4) if rank * 4 + suit not in rest)


def game_strength(ev: str, cards: list[int]) -> tuple[int, int | None]:
    """`strength` with the joker where the game uses one (RULEBOOK §5.3, §5.6): in ace-to-five
    the lowest rank missing from the hand; in draw high an ace, or the card completing a
    straight or flush, and four aces with the joker are five aces, the best hand."""
    if JOKER not in cards:
        return strength(ev, cards)
    rest = [c for c in cards if c != JOKER]
    if ev == "lowa5":
        return strength(ev, rest + [joker_low(rest)])
    aces = [48 + suit for suit in range(4) if 48 + suit not in rest]
    if not aces:
        return FIVE_ACES, None
    best = 0
    for c in range(52):
        if c in rest:
            continue
        v = high_strength(rest + [c])
        if c in aces or v >> 20 in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            best = max(best, v)
    return best, None


def seven_or_better(cards: list[int]) -> bool:
    """Five different ranks, none above seven, aces low (the joker filling the lowest gap)."""
    if JOKER in cards:
        rest = [c for c in cards if c != JOKER]
        cards = rest + [joker_low(rest)]
    low = {((c >> 2) + 1) % 13 for c in cards}
    return len(cards) == 5 and len(low) == 5 and max(low) <= 6


def has_openers(cards: list[int]) -> bool:
    """A pair of jacks or better among five cards (the joker as an ace or to complete a
    straight or flush), JACKS-OPENERS."""
    v = game_strength("high", cards)[0]
    return v >> 20 >= TWO_PAIR or (v >> 20 == ONE_PAIR and (v >> 16) & 0xF >= JACK)
