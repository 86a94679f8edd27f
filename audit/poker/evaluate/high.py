"""Hand evaluators: high, ace-to-five low, 8-or-better, deuce-to-seven, Omaha 2+3 (RULEBOOK §5).

Every evaluator returns an int *strength* where **higher is better for that half of the
pot**, so comparing strengths with ``<``/``==`` decides who wins (equal strengths split;
suits never break a tie, ``EVAL-HIGH``). A low evaluator returns a strength that is larger
for a *better* low, and ``None`` when the hand has no qualifying low (``EVAL-LOW-8``).

Strengths of different evaluators live on different scales; only compare like with like.
High strengths are ``category << 20`` plus the deciding ranks as 4-bit digits (made part
first, then kickers), so :func:`high_class` and :func:`describe_high` read them directly.

>>> from audit.poker.cards import parse_cards as c
>>> describe_high(high_strength(c("Kh Kd 9s 9c 2d 3c 4h")))
'two pair, kings and nines'
>>> high_strength(c("As 2d 3c 4h 5s")) < high_strength(c("2s 3d 4c 5h 6s"))
True
>>> describe_low(low_a5_strength(c("8s 6d 4c 2h As Kd Kc"), qualifier=8))
'8-6-4-2-A'
>>> low_a5_strength(c("9s 6d 4c 2h As Kd Kc"), qualifier=8) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING

from audit.poker.cards import RANK_CHARS, card_str

if TYPE_CHECKING:
    pass

__all__ = [
    "HIGH_CLASSES",
    "describe_high",
    "describe_low",
    "describe_low_27",
    "high_class",
    "high_strength",
    "low_27_strength",
    "low_a5_strength",
    "omaha_high_strength",
    "omaha_low8_strength",
]

HIGH_CLASSES: tuple[str, ...] = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""High-hand categories, worst to best; ``HIGH_CLASSES[strength >> 20]`` (``EVAL-HIGH``)."""

HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

_LOW_CLASSES = (
    "no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind",
)
_LOW_BASE = 1 << 23  # low strength = _LOW_BASE - badness; badness < 6 << 20
_HIGH_BASE = 1 << 24  # 2-7 strength = _HIGH_BASE - high strength (no wheel)
_LOW_CHARS = "A23456789TJQK"  # ace-to-five rank order: ace is the lowest card
_WHEEL = (1 << 12) | 0b1111  # A-2-3-4-5 as a rank bitmask (ace high bit)
_RANK_NAMES = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack", "queen", "king", "ace")
_RANK_PLURALS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                 "tens", "jacks", "queens", "kings", "aces")


def _encode(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_top(mask: int, wheel: bool = True) -> int | None:
    """Top rank of the best straight in a 13-bit rank mask, or None (no wrap-around)."""
    for top in range(12, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    if wheel and mask & _WHEEL == _WHEEL:
        return 3  # A-2-3-4-5 is a five-high straight, the lowest one
    return None


def _flush_strength(mask: int, wheel: bool = True) -> int:
    """Best flush or straight flush from the ranks (>= 5 bits) held in one suit."""
    top = _straight_top(mask, wheel)
    if top is not None:
        return _encode(STRAIGHT_FLUSH, (top,))
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return _encode(FLUSH, ranks[:5])


def _nonflush_strength(counts: Sequence[int], wheel: bool = True) -> int:
    """Best five-card hand, ignoring flushes, from the rank counts of five or more cards."""
    ranks = [r for r in range(12, -1, -1) if counts[r]]
    pairs = [r for r in ranks if counts[r] >= 2]
    trips = [r for r in pairs if counts[r] >= 3]
    quads = [r for r in trips if counts[r] >= 4]
    if quads:  # with 7 cards a lower quad can sit beside higher trips
        return _encode(QUADS, (quads[0], next(r for r in ranks if r != quads[0])))
    if trips and len(pairs) >= 2:
        trip = trips[0]
        return _encode(FULL_HOUSE, (trip, next(r for r in pairs if r != trip)))
    top = _straight_top(sum(1 << r for r in ranks), wheel)
    if top is not None:
        return _encode(STRAIGHT, (top,))
    if trips:
        return _encode(TRIPS, [trips[0]] + [r for r in ranks if r != trips[0]][:2])
    if len(pairs) >= 2:
        kicker = next(r for r in ranks if r not in pairs[:2])
        return _encode(TWO_PAIR, (pairs[0], pairs[1], kicker))
    if pairs:
        return _encode(ONE_PAIR, [pairs[0]] + [r for r in ranks if r != pairs[0]][:3])
    return _encode(HIGH_CARD, ranks[:5])


def _checked(cards: Sequence[int], low: int = 5, high: int = 7, what: str = "cards") -> None:
    if not low <= len(cards) <= high:
        raise ValueError(f"need {low} to {high} {what}, got {len(cards)}: {_show(cards)}")
    for c in cards:
        if not 0 <= c < 52:
            raise ValueError(
                f"cannot evaluate {_show(cards)}: {_show([c])} is not a known card "
                "(unknown '??' and joker 'Xj' are not evaluated)"
            )
    if len(set(cards)) != len(cards):
        raise ValueError(f"cannot evaluate {_show(cards)}: a card appears twice")


def _show(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) if c in (-1, 52) or 0 <= c < 52 else repr(c) for c in cards)


def _high(cards: Sequence[int], wheel: bool = True) -> int:
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for c in cards:
        counts[c >> 2] += 1
        suits[c & 3] += 1
    best = _nonflush_strength(counts, wheel)
    for s in range(4):
        if suits[s] >= 5:
            mask = sum(1 << (c >> 2) for c in cards if c & 3 == s)
            best = max(best, _flush_strength(mask, wheel))
    return best


def high_strength(cards: Sequence[int]) -> int:
    """Strength of the best five-card high hand out of 5..7 cards (``EVAL-HIGH``).

    >>> from audit.poker.cards import parse_cards as c
    >>> high_class(high_strength(c("Ah Kh Qh Jh Th 2c 2d")))
    'straight flush'
    """
    _checked(cards)
    return _high(cards)


def high_class(strength: int) -> str:
    """The category of a high strength: ``"straight flush"`` … ``"high card"``."""
    return HIGH_CLASSES[strength >> 20]


def _digits(strength: int) -> list[int]:
    return [(strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]


def describe_high(strength: int) -> str:
    """A floor supervisor's reading of a high strength, e.g. ``"two pair, kings and nines"``.

    >>> from audit.poker.cards import parse_cards as c
    >>> describe_high(high_strength(c("5d 4c 3h 2s Ad")))
    'straight, five high'
    >>> describe_high(high_strength(c("Ks Kd Kc 9h 9s")))
    'full house, kings full of nines'
    """
    return read_high(strength >> 20, _digits(strength))


def read_high(category: int, d: Sequence[int]) -> str:
    """The reading of a high hand of `category` (HIGH_CARD .. STRAIGHT_FLUSH) whose ranks, most
    significant first, are `d`; shared with the short-deck ranking
    (audit/poker/evaluate/short.py)."""
    name = HIGH_CLASSES[category]
    kick = "-".join(RANK_CHARS[r] for r in d)
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        if category == STRAIGHT_FLUSH and d[0] == 12:
            return "straight flush, ace high (royal flush)"
        return f"{name}, {_RANK_NAMES[d[0]]} high"
    if category == QUADS:
        return f"{name}, {_RANK_PLURALS[d[0]]} with a {_RANK_NAMES[d[1]]}"
    if category == FULL_HOUSE:
        return f"{name}, {_RANK_PLURALS[d[0]]} full of {_RANK_PLURALS[d[1]]}"
    if category == TRIPS:
        return f"{name}, {_RANK_PLURALS[d[0]]}"
    if category == TWO_PAIR:
        return f"{name}, {_RANK_PLURALS[d[0]]} and {_RANK_PLURALS[d[1]]}"
    if category == ONE_PAIR:
        return f"{name}, {_RANK_PLURALS[d[0]]}"
    if category == FLUSH:
        return f"{name}, {kick}"
    return f"{_RANK_NAMES[d[0]]} high, {kick}"


# --- ace-to-five low (EVAL-LOW-A5, EVAL-LOW-8) ------------------------------------------


def _a5_badness(low_ranks: Sequence[int]) -> int:
    """Badness (lower is better) of five cards given as ace-low ranks 0 (ace) .. 12 (king)."""
    counts: dict[int, int] = {}
    for r in low_ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    category = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3,
                (3, 2): 4, (4, 1): 5}[shape]
    return _encode(category, [r for r, _ in groups])


def _unpaired_low(mask: int) -> int:
    """Low strength of five distinct ace-low ranks given as a bitmask (bit 0 = ace)."""
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return _LOW_BASE - _encode(0, ranks)


def low_a5_strength(cards: Sequence[int], qualifier: int | None = None) -> int | None:
    """Ace-to-five low of the best five of 5..7 cards (``EVAL-LOW-A5``; razz, A-5 lowball).

    Aces are low, straights and flushes do not count, any unpaired hand beats any paired
    one and A-A beats 2-2. With ``qualifier=8`` the result is ``None`` unless five different
    ranks of 8 or lower (ace = 1) are available (``EVAL-LOW-8``).
    """
    _checked(cards)
    lows = [((c >> 2) + 1) % 13 for c in cards]
    mask = 0
    for r in lows:
        mask |= 1 << r
    if mask.bit_count() >= 5:
        best = 0
        for r in range(13):  # the five lowest distinct ranks: pairing cards are left out
            if mask >> r & 1:
                best |= 1 << r
                if best.bit_count() == 5:
                    break
        if qualifier is not None and best >> qualifier:
            return None
        return _unpaired_low(best)
    if qualifier is not None:
        return None
    return _LOW_BASE - min(_a5_badness(five) for five in combinations(lows, 5))


def describe_low(strength: int) -> str:
    """Read an ace-to-five low strength, highest card first: ``"8-6-4-2-A"``.

    >>> from audit.poker.cards import parse_cards as c
    >>> describe_low(low_a5_strength(c("As Ad 3c 4h 5s")))
    'A-A-5-4-3 (one pair)'
    """
    badness = _LOW_BASE - strength
    category = badness >> 20
    shape = {0: (1, 1, 1, 1, 1), 1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1), 4: (3, 2),
             5: (4, 1)}[category]
    ranks = _digits(badness)
    text = "-".join(_LOW_CHARS[ranks[i]] for i, n in enumerate(shape) for _ in range(n))
    return text if category == 0 else f"{text} ({_LOW_CLASSES[category]})"


# --- deuce-to-seven low (EVAL-LOW-27) ---------------------------------------------------


def low_27_strength(cards: Sequence[int]) -> int:
    """Deuce-to-seven low of five cards (``EVAL-LOW-27``; Kansas City lowball).

    The worst conventional high hand wins: aces are high only (A-2-3-4-5 is ace-high, not a
    straight) and straights and flushes count against the hand. With six or seven cards the
    best five are used.
    """
    _checked(cards)
    if len(cards) == 5:
        return _HIGH_BASE - _high(cards, wheel=False)
    return _HIGH_BASE - min(_high(five, wheel=False) for five in combinations(cards, 5))


def describe_low_27(strength: int) -> str:
    """Read a deuce-to-seven strength as the high hand it is, e.g. ``"seven high, 7-5-4-3-2"``."""
    return describe_high(_HIGH_BASE - strength)


# --- Omaha: exactly two hole cards and three board cards (EVAL-SELECT) -------------------

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


@cache
def _five_card_tables() -> tuple[dict[int, int], dict[int, int]]:
    """Five-card high strength by prime product of ranks, and by rank mask for flushes."""
    by_product: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        counts = [0] * 13
        product = 1
        for r in ranks:
            counts[r] += 1
            product *= _PRIMES[r]
        if max(counts) <= 4:
            by_product[product] = _nonflush_strength(counts)
    flush_by_mask = {}
    for ranks in combinations(range(13), 5):
        mask = sum(1 << r for r in ranks)
        flush_by_mask[mask] = _flush_strength(mask)
    return by_product, flush_by_mask


def _omaha_checked(hole: Sequence[int], board: Sequence[int]) -> None:
    _checked(hole, 2, 6, "Omaha hole cards")
    _checked(board, 3, 5, "board cards")
    _checked(list(hole) + list(board), 5, 11)


def omaha_high_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """Best high hand using exactly two hole cards and exactly three board cards.

    Works for 4- and 5-card Omaha (``EVAL-SELECT``): the board cannot be played alone.
    """
    _omaha_checked(hole, board)
    by_product, flush_by_mask = _five_card_tables()
    pairs = [(_PRIMES[a >> 2] * _PRIMES[b >> 2], a & 3 if a & 3 == b & 3 else -1,
              (1 << (a >> 2)) | (1 << (b >> 2))) for a, b in combinations(hole, 2)]
    best = 0
    for x, y, z in combinations(board, 3):
        product = _PRIMES[x >> 2] * _PRIMES[y >> 2] * _PRIMES[z >> 2]
        suit = x & 3 if x & 3 == y & 3 == z & 3 else -2
        for hole_product, hole_suit, hole_mask in pairs:
            if hole_suit == suit:
                mask = hole_mask | (1 << (x >> 2)) | (1 << (y >> 2)) | (1 << (z >> 2))
                value = flush_by_mask[mask]
            else:
                value = by_product[product * hole_product]
            if value > best:
                best = value
    return best


def omaha_low8_strength(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Best 8-or-better ace-to-five low using exactly two hole and three board cards.

    ``None`` when no such five distinct ranks of 8 or lower exist (``EVAL-LOW-8``); the
    strength is on the same scale as :func:`low_a5_strength`.
    """
    _omaha_checked(hole, board)
    hole_masks = {(1 << ((a >> 2) + 1) % 13) | (1 << ((b >> 2) + 1) % 13)
                  for a, b in combinations(hole, 2)}
    board_masks = {(1 << ((x >> 2) + 1) % 13) | (1 << ((y >> 2) + 1) % 13)
                   | (1 << ((z >> 2) + 1) % 13) for x, y, z in combinations(board, 3)}
    hole_masks = {m for m in hole_masks if m.bit_count() == 2 and m < 1 << 8}
    board_masks = {m for m in board_masks if m.bit_count() == 3 and m < 1 << 8}
    best = min((h | b for h in hole_masks for b in board_masks if not h & b), default=None)
    return None if best is None else _unpaired_low(best)
