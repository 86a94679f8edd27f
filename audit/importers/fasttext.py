"""Quick helpers for the GGPoker, 888poker and Winamax readers' line loops: a seated player's
name split off a line by dictionary look-ups, and a file's amounts and card texts memoised by
their text.

Each gives exactly what the slower general helper of `sitetext` gives (`SiteHand.split_name`,
`split_or_note`, `site_money`, `site_cards`): they only spare the per-line work (a scan over
every seated name, a cache keyed by the parsing function, the cards read again)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from audit.importers.sitetext import (
    UNSEATED_NOTE,
    SiteHand,
    bad_line,
    parse_amount,
    site_cards,
    site_money,
)

_BOUNDARY = " :"
_MONEY_MEMO = 4096  # distinct (unit, text) amounts remembered per parser; a file repeats few
_CARDS_MEMO = 4096  # distinct card texts remembered
_CARDS: dict[str, str] = {}


def split_seated(h: SiteHand, text: str) -> tuple[str, str] | None:
    """`h.split_name(text)`: (the longest seated name `text` starts with, followed by the end,
    a space or a colon; the rest without leading spaces), or None. Such a name starts with
    the text's first word (up to its first space or colon): only the seated names starting
    with that word are tried, longest first (nearly always one, and when no seated name holds
    a space or a colon, that word is the name)."""
    word = text.partition(" ")[0]
    if ":" in word:
        word = word.partition(":")[0]
    simple, by_word = _names(h)
    if simple:
        if word in h.seat_of:
            return word, text[len(word):].lstrip(" ")
        return None
    size = len(text)
    for name in by_word.get(word, ()):
        length = len(name)
        if text.startswith(name) and (length == size or text[length] in _BOUNDARY):
            return name, text[length:].lstrip(" ")
    return None


def split_or_note(h: SiteHand, n: int, text: str,
                  known: dict[str, tuple[str, str] | None] | None = None
                  ) -> tuple[str, str] | None:
    """`h.split_or_note(n, text)`: (seated player, rest of the line) of line `n`; None for a
    note on someone not seated (kept as an annotation); any other line is not understood.
    `known` holds lines already split (by `split_seated`, with the same seats)."""
    split = known[text] if known is not None and text in known else split_seated(h, text)
    if split is None:
        if (an := UNSEATED_NOTE.match(text)):
            h.emit(n, "annotation", player=an.group("name"), detail=f"note: {an.group('what')}")
            return None
        raise bad_line(n, text)
    return split


def _first_word(name: str) -> str:
    word = name.partition(" ")[0]
    return word.partition(":")[0] if ":" in word else word


def _names(h: SiteHand) -> tuple[bool, dict[str, list[str]]]:
    """(no seated name holds a space or a colon, the seated names by their first word, longest
    first), kept on the hand (when it takes attributes) and rebuilt when a seat was added
    since."""
    cached: tuple[int, bool, dict[str, list[str]]] | None = getattr(h, "_fast_names", None)
    if cached is not None and cached[0] == len(h.seat_of):
        return cached[1], cached[2]
    simple = not any(" " in name or ":" in name for name in h.seat_of)
    by_word: dict[str, list[str]] = {}
    for name in sorted(h.seat_of, key=len, reverse=True):
        by_word.setdefault(_first_word(name), []).append(name)
    try:
        h._fast_names = (len(h.seat_of), simple, by_word)  # type: ignore[attr-defined]
    except AttributeError:  # a hand class with slots: worked out again next time
        pass
    return simple, by_word


def quick_cards(text: str, what: str) -> str:
    """`site_cards(text, what)` memoised on `text` (a card text that is refused is not
    remembered: its error names `what` each time)."""
    cards = _CARDS.get(text)
    if cards is None:
        cards = site_cards(text, what)
        if len(_CARDS) >= _CARDS_MEMO:
            _CARDS.clear()
        _CARDS[text] = cards
    return cards


class Amounts:
    """`site_money(text, mpu, line, parse)` memoised on (mpu, text); an amount that fails is
    not remembered, so its error (naming its line) is raised each time as before."""

    __slots__ = ("memo", "parse")

    def __init__(self, parse: Callable[[str], Decimal] = parse_amount) -> None:
        self.parse = parse
        self.memo: dict[int, dict[str, int]] = {}

    def value(self, text: str, mpu: int, where: int) -> int:
        """`site_money(text, mpu, where, parse)`."""
        memo = self.memo.get(mpu)
        if memo is None:
            memo = self.memo[mpu] = {}
        value = memo.get(text)
        if value is None:
            value = site_money(text, mpu, where, self.parse)
            if len(memo) >= _MONEY_MEMO:
                memo.clear()
            memo[text] = value
        return value

    def of(self, mpu: int) -> Callable[[str, int], int]:
        """The memoised `money(text, line)` of one unit."""
        memo = self.memo.get(mpu)
        if memo is None:
            memo = self.memo[mpu] = {}
        parse = self.parse

        def money(text: str, where: int) -> int:
            value = memo.get(text)
            if value is None:
                value = site_money(text, mpu, where, parse)
                if len(memo) >= _MONEY_MEMO:
                    memo.clear()
                memo[text] = value
            return value

        return money
