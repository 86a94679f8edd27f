"""Short-deck (6+) hold'em hand values: the 36-card deck, six through ace (RULEBOOK §5 EVAL-HIGH
as the short-deck game changes it).

Two things differ from the 52-card ranking, and one is a parameter because the sources differ:

* a flush beats a full house (fewer flushes can be made from 9 ranks per suit);
* A-6-7-8-9 is the lowest straight (the ace plays low below the six, as A-2-3-4-5 does in the
  full deck), and 6-7-8-9-T the next;
* three of a kind against a straight: PokerStars 6+ hold'em ranks three of a kind ABOVE a
  straight (its rule since 2019), while PokerKit's ``ShortDeckHoldemHand`` (the PHH
  reference) ranks the straight above three of a kind. ``trips_beat_straight`` picks one; the
  variant of the hand picks it in the replay (``holdem_6plus``: True, ``holdem_short``: False,
  see :data:`TRIPS_BEAT_STRAIGHT`).

A strength is an int, higher is better, ``position << 20`` plus the deciding ranks as 4-bit
digits (as :mod:`audit.poker.evaluate.high`); the position is the category's place in the short-deck
order, so strengths of the two orders must not be compared with each other.

>>> from audit.poker.cards import parse_cards as c
>>> describe_short(short_strength(c("As 6d 7c 8h 9s Kd Kc")))
'straight, nine high'
>>> short_strength(c("Ks Kd Kc 9h 9s")) < short_strength(c("6s 8s Ts Qs As"))
True
>>> tbs = short_strength(c("Ts Td Tc 7h 9s"), trips_beat_straight=True)
>>> tbs > short_strength(c("6s 7d 8c 9h Ts"), trips_beat_straight=True)
True
>>> short_strength(c("Ts Td Tc 7h 9s"), trips_beat_straight=False) < short_strength(
...     c("6s 7d 8c 9h Ts"), trips_beat_straight=False)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.poker.cards import card_str
from audit.poker.evaluate.high import HIGH_CLASSES, read_high

__all__ = [
    "LOWEST_RANK",
    "SHORT_VARIANTS",
    "TRIPS_BEAT_STRAIGHT",
    "describe_short",
    "is_short_card",
    "short_class",
    "short_strength",
]

LOWEST_RANK = 4
"""Rank index of the six (``RANK_CHARS[4] == '6'``): no card below it is in the deck."""

TRIPS_BEAT_STRAIGHT: dict[str, bool] = {
    "holdem_6plus": True,  # PokerStars 6+ hold'em (three of a kind beats a straight since 2019)
    "holdem_short": False,  # PokerKit NoLimitShortDeckHoldem / PHH NS (straight beats trips)
}
"""The short-deck variants (schemas/events.json) and their answer on trips against a straight."""
SHORT_VARIANTS = frozenset(TRIPS_BEAT_STRAIGHT)

# the categories of audit.poker.evaluate.high (HIGH_CLASSES names them)
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
# worst to best
_ORDER_TRIPS_HIGH = (HIGH, PAIR, TWO_PAIR, STRAIGHT, TRIPS, FULL_HOUSE, FLUSH, QUADS,
                     STRAIGHT_FLUSH)
_ORDER_STRAIGHT_HIGH = (HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FULL_HOUSE, FLUSH, QUADS,
                        STRAIGHT_FLUSH)
_POSITION = {
    True: {cat: i for i, cat in enumerate(_ORDER_TRIPS_HIGH)},
    False: {cat: i for i, cat in enumerate(_ORDER_STRAIGHT_HIGH)},
}
_A6789 = (1 << 12) | (0b1111 << LOWEST_RANK)  # the ace plays low below the six


def is_short_card(card: int) -> bool:
    """A real card of the 36-card deck (six through ace)."""
    return 0 <= card < 52 and card >> 2 >= LOWEST_RANK


def _straight_top(mask: int) -> int | None:
    """Top rank of the best short-deck straight in a rank mask (A-6-7-8-9 tops at the nine)."""
    for top in range(12, LOWEST_RANK + 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    if mask & _A6789 == _A6789:
        return LOWEST_RANK + 3
    return None


def _digits(ranks: Sequence[int]) -> int:
    value = 0
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _candidates(cards: Sequence[int]) -> list[tuple[int, int]]:
    """(category, rank digits) of the best hand of each category the cards make."""
    counts = [0] * 13
    suits: list[int] = [0, 0, 0, 0]
    for c in cards:
        counts[c >> 2] += 1
        suits[c & 3] |= 1 << (c >> 2)
    ranks = [r for r in range(12, -1, -1) if counts[r]]
    mask = sum(1 << r for r in ranks)
    pairs = [r for r in ranks if counts[r] >= 2]
    trips = [r for r in pairs if counts[r] >= 3]
    quads = [r for r in trips if counts[r] >= 4]
    out: list[tuple[int, int]] = []
    for suit_mask in suits:
        if suit_mask.bit_count() >= 5:
            top = _straight_top(suit_mask)
            if top is not None:
                out.append((STRAIGHT_FLUSH, _digits((top,))))
            flush = [r for r in range(12, -1, -1) if suit_mask >> r & 1][:5]
            out.append((FLUSH, _digits(flush)))
    # below a made quads or full house nothing else can rank higher in either order; below
    # them a straight and three of a kind can both be there, and the order decides
    if quads:
        out.append((QUADS, _digits((quads[0], next(r for r in ranks if r != quads[0])))))
        return out
    if trips and len(pairs) >= 2:
        out.append((FULL_HOUSE, _digits((trips[0], next(r for r in pairs if r != trips[0])))))
        return out
    top = _straight_top(mask)
    if top is not None:
        out.append((STRAIGHT, _digits((top,))))
    if trips:
        out.append((TRIPS, _digits([trips[0]] + [r for r in ranks if r != trips[0]][:2])))
    elif len(pairs) >= 2:
        kicker = next(r for r in ranks if r not in pairs[:2])
        out.append((TWO_PAIR, _digits((pairs[0], pairs[1], kicker))))
    elif pairs:
        out.append((PAIR, _digits([pairs[0]] + [r for r in ranks if r != pairs[0]][:3])))
    else:
        out.append((HIGH, _digits(ranks[:5])))
    return out


def short_strength(cards: Sequence[int], *, trips_beat_straight: bool = True) -> int:
    """Strength of the best five-card short-deck hand out of 5..7 cards (higher is better).

    Raises ValueError for a card outside the 36-card deck (below the six, unknown, joker).
    """
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"need 5 to 7 cards, got {len(cards)}")
    for c in cards:
        if not is_short_card(c):
            shown = card_str(c) if -1 <= c <= 52 else repr(c)
            raise ValueError(f"{shown} is not a card of the 36-card short deck (6 through A)")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice")
    position = _POSITION[trips_beat_straight]
    return max((position[cat] << 20) | digits for cat, digits in _candidates(cards))


def short_class(strength: int, *, trips_beat_straight: bool = True) -> str:
    """The category name of a short-deck strength."""
    order = _ORDER_TRIPS_HIGH if trips_beat_straight else _ORDER_STRAIGHT_HIGH
    return HIGH_CLASSES[order[strength >> 20]]


def describe_short(strength: int, *, trips_beat_straight: bool = True) -> str:
    """A floor reading of a short-deck strength, e.g. ``"flush, A-Q-T-8-6"``."""
    order = _ORDER_TRIPS_HIGH if trips_beat_straight else _ORDER_STRAIGHT_HIGH
    return read_high(order[strength >> 20], [(strength >> shift) & 0xF
                                              for shift in (16, 12, 8, 4, 0)])
