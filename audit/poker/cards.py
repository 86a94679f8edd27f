"""Cards as small ints: parsing, printing, ranks, suits and the deck (RULEBOOK §5.1–5.2).

A card is ``rank_index * 4 + suit_index``: rank index 0..12 for ``2 3 4 5 6 7 8 9 T J Q K A``
and suit index 0..3 for ``c d h s``. Two sentinels sit outside the deck: ``UNKNOWN`` (-1,
written ``??``, a card nobody saw) and ``JOKER`` (52, written ``Xj``).

The suit order c < d < h < s is used **only** for card-level ties (stud bring-in, odd chip,
drawing for the button; ``EVAL-SUIT-ORDER``). It never ranks a hand for a pot.

>>> parse_cards("As Kd ??")
(51, 45, -1)
>>> parse_cards("4cKd7d") == parse_cards("4c Kd 7d")
True
>>> cards_str(parse_cards("ah td xj"))
'Ah Td Xj'
>>> parse_card("Zz")
Traceback (most recent call last):
    ...
ValueError: bad card 'Zz': expected a rank (2-9, T, J, Q, K, A) then a suit (c, d, h, s), \
'??' for an unknown card or 'Xj' for the joker
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum, unique

__all__ = [
    "FULL_DECK",
    "JOKER",
    "RANK_CHARS",
    "SUIT_CHARS",
    "UNKNOWN",
    "Rank",
    "Suit",
    "card_str",
    "cards_str",
    "is_real_card",
    "make_card",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]

RANK_CHARS = "23456789TJQKA"
"""Rank characters in index order: ``RANK_CHARS[rank_of(card)]``."""
SUIT_CHARS = "cdhs"
"""Suit characters in index order (clubs lowest, spades highest; ``EVAL-SUIT-ORDER``)."""

UNKNOWN = -1
"""A card that was dealt but not seen (``??``)."""
JOKER = 52
"""The joker (``Xj``); only in games that announce it (RULEBOOK §5.3, §5.6)."""

FULL_DECK: tuple[int, ...] = tuple(range(52))
"""The 52 real cards, 2c (0) up to As (51)."""


@unique
class Rank(StrEnum):
    """Card ranks, lowest to highest; the value is the character written in hand histories."""

    DEUCE = "2"
    """Two."""
    TREY = "3"
    """Three."""
    FOUR = "4"
    """Four."""
    FIVE = "5"
    """Five."""
    SIX = "6"
    """Six."""
    SEVEN = "7"
    """Seven."""
    EIGHT = "8"
    """Eight."""
    NINE = "9"
    """Nine."""
    TEN = "T"
    """Ten."""
    JACK = "J"
    """Jack."""
    QUEEN = "Q"
    """Queen."""
    KING = "K"
    """King."""
    ACE = "A"
    """Ace (high, except in ace-to-five low and the wheel straight)."""

    # The member is a str, so this shadows str.index on purpose (Rank.ACE.index == 12 is the
    # public API, tests/poker/test_cards.py); no caller uses str.index on a member.
    @property
    def index(self) -> int:  # type: ignore[override]
        """Rank index 0..12 (deuce 0, ace 12)."""
        return RANK_CHARS.index(self.value)


@unique
class Suit(StrEnum):
    """Suits in tie-break order (clubs lowest); never used to rank a hand for a pot."""

    CLUBS = "c"
    """Clubs, the lowest suit for card-level ties."""
    DIAMONDS = "d"
    """Diamonds."""
    HEARTS = "h"
    """Hearts."""
    SPADES = "s"
    """Spades, the highest suit for card-level ties."""

    # The member is a str, so this shadows str.index on purpose (Suit.SPADES.index == 3 is the
    # public API, tests/poker/test_cards.py); no caller uses str.index on a member.
    @property
    def index(self) -> int:  # type: ignore[override]
        """Suit index 0..3 (clubs 0, spades 3)."""
        return SUIT_CHARS.index(self.value)


_SYNTAX = (
    "expected a rank (2-9, T, J, Q, K, A) then a suit (c, d, h, s), "
    "'??' for an unknown card or 'Xj' for the joker"
)
_SEPARATORS = re.compile(r"[\s,]+")


def make_card(rank: int | Rank, suit: int | Suit) -> int:
    """Build a card from a rank and a suit (indices or enum members).

    >>> card_str(make_card(Rank.ACE, Suit.SPADES))
    'As'
    """
    r = rank.index if isinstance(rank, Rank) else rank
    s = suit.index if isinstance(suit, Suit) else suit
    if not (0 <= r <= 12 and 0 <= s <= 3):
        raise ValueError(f"bad rank/suit index ({r}, {s}): rank must be 0..12 and suit 0..3")
    return r * 4 + s


def parse_card(text: str) -> int:
    """Parse one card such as ``As``, ``td``, ``??`` (UNKNOWN) or ``Xj`` (JOKER)."""
    token = text.strip()
    if token == "??":
        return UNKNOWN
    if token.lower() == "xj":
        return JOKER
    if len(token) == 2:
        r = RANK_CHARS.find(token[0].upper())
        s = SUIT_CHARS.find(token[1].lower())
        if r >= 0 and s >= 0:
            return r * 4 + s
    raise ValueError(f"bad card {text!r}: {_SYNTAX}")


_PARSED: dict[str, tuple[int, ...]] = {}


def parse_cards(text: str) -> tuple[int, ...]:
    """Parse cards separated by spaces or commas, or concatenated as in PHH (``4cKd7d``).

    >>> parse_cards("")
    ()
    >>> parse_cards("As, Kd")
    (51, 45)
    """
    # The replay parses the same few thousand card strings over and over: remember them.
    cached = _PARSED.get(text)
    if cached is not None:
        return cached
    parsed = _parse_cards(text)
    if len(_PARSED) < 200_000:
        _PARSED[text] = parsed
    return parsed


def _parse_cards(text: str) -> tuple[int, ...]:
    cards: list[int] = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        if len(token) % 2:
            raise ValueError(
                f"bad card text {token!r} in {text!r}: cards are two characters each; {_SYNTAX}"
            )
        for i in range(0, len(token), 2):
            try:
                cards.append(parse_card(token[i : i + 2]))
            except ValueError:
                raise ValueError(
                    f"bad card {token[i : i + 2]!r} in {text!r}: {_SYNTAX}"
                ) from None
    return tuple(cards)


def card_str(card: int) -> str:
    """Write a card the way hand histories do: ``As``, ``??`` or ``Xj``."""
    if card == UNKNOWN:
        return "??"
    if card == JOKER:
        return "Xj"
    if not 0 <= card < 52:
        raise ValueError(f"bad card value {card!r}: expected 0..51, -1 (unknown) or 52 (joker)")
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def cards_str(cards: Iterable[int]) -> str:
    """Write cards space-separated: ``As Kd``."""
    return " ".join(card_str(c) for c in cards)


def is_real_card(card: int) -> bool:
    """True for one of the 52 cards of the deck (not unknown, not the joker)."""
    return 0 <= card < 52


def _check_real(card: int) -> None:
    if not 0 <= card < 52:
        shown = {UNKNOWN: "unknown card ??", JOKER: "joker Xj"}.get(card, repr(card))
        raise ValueError(f"{shown} has no rank or suit: expected a card 0..51")


def rank_of(card: int) -> int:
    """Rank index 0..12 (deuce 0, ace 12) of a real card."""
    _check_real(card)
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0..3 (clubs 0, spades 3) of a real card."""
    _check_real(card)
    return card & 3
