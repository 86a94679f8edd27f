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
    a space or a colon; the rest without leading spaces), or None. When no seated name holds
    a space or a colon (nearly always), that name can only be the text up to its first space
    or colon: one look-up. Otherwise each distinct name length is looked up once, longest
    first, instead of trying every name."""
    seat_of = h.seat_of
    simple, lengths = _names(h)
    if simple:
        word = text.partition(" ")[0]
        if ":" in word:
            word = word.partition(":")[0]
        if word in seat_of:
            return word, text[len(word):].lstrip(" ")
        return None
    size = len(text)
    for length in lengths:
        if length < size:
            if text[length] in _BOUNDARY and text[:length] in seat_of:
                return text[:length], text[length:].lstrip(" ")
        elif length == size and text in seat_of:
            return text, ""
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


def _names(h: SiteHand) -> tuple[bool, list[int]]:
    """(no seated name holds a space or a colon, the distinct lengths of the seated names
    longest first), kept on the hand and rebuilt when a seat was added since."""
    cached: tuple[int, bool, list[int]] | None = getattr(h, "_fast_names", None)
    if cached is not None and cached[0] == len(h.seat_of):
        return cached[1], cached[2]
    simple = not any(" " in name or ":" in name for name in h.seat_of)
    lengths = sorted({len(name) for name in h.seat_of}, reverse=True)
    h._fast_names = (len(h.seat_of), simple, lengths)  # type: ignore[attr-defined]
    return simple, lengths


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
