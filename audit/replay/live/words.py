"""The physical layer's vocabulary: what a `declare` event says and what a `chips` motion holds.

A `declare` event carries the spoken words in `detail` (in draw games also "pat" and the
number of cards drawn: "draw two", "3 cards"); a `chips` event is one motion of chips
into the pot (`amount`) with the denominations in `detail` when the table knows them (`1x500`,
`2x100+1x25`) and the word `held` when the chips moved forward but were not let go. Numbers in
spoken words are minor units, like every amount in the log: "raise 200" adds 200 to the bet,
"raise to 300", "bet 300", "make it 300" and a bare "300" give the round total.

>>> parse_declaration("Raise to 1,200")
Declaration(said=<Said.RAISE: 'raise'>, amount=1200, to=True, words='raise to 1,200')
>>> parse_motion(500, "1x500").chips
1
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum, unique
from functools import lru_cache


@unique
class Said(StrEnum):
    """What a declaration means for the betting."""

    FOLD = "fold"
    """Folds."""
    CHECK = "check"
    """Checks ("pass")."""
    RAP = "rap"
    """Raps or knocks the table: a pass, i.e. a check (CHIP-RAP), though nothing is said."""
    CALL = "call"
    """Calls the amount owed."""
    BET = "bet"
    """Bets (or raises) to a stated total, or bets without an amount."""
    RAISE = "raise"
    """Raises: by a stated amount, to a stated total, or without an amount."""
    ALL_IN = "all_in"
    """Puts in every chip."""
    POT = "pot"
    """Bets or raises the size of the pot."""
    TIME = "time"
    """Stops the action to keep the right to act (TURN-RIGHT-TO-ACT)."""
    PAT = "pat"
    """Draw games: stands pat, draws no card."""
    DRAW = "draw"
    """Draw games: states how many cards he draws (`amount`)."""
    OTHER = "other"
    """Anything else ("pair", "8-low", "playing the board"): not a betting action."""


BETTING = frozenset({Said.FOLD, Said.CHECK, Said.RAP, Said.CALL, Said.BET, Said.RAISE,
                     Said.ALL_IN, Said.POT})


@dataclass(frozen=True, slots=True, kw_only=True)
class Declaration:
    """One spoken declaration, read."""

    said: Said
    amount: int | None = None  # the stated amount in minor units, when one was stated
    to: bool = True  # the amount is the round total ("raise to 300"), else the raise increment
    words: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Motion:
    """One motion of chips toward the pot."""

    amount: int
    chips: int | None = None  # how many chips, when the denominations are known
    released: bool = True  # False: a forward motion whose chips were not let go ("held")
    denoms: tuple[tuple[int, int], ...] = ()  # (count, chip value) when known

    def smaller(self, value: int) -> int:
        """What this motion's chips worth less than `value` each add up to."""
        return sum(n * v for n, v in self.denoms if v < value)

    def off_unit(self, unit: int) -> int:
        """What this motion's chips whose value is no multiple of `unit` add up to."""
        return sum(n * v for n, v in self.denoms if v % unit)


_WORDS = {
    "fold": Said.FOLD, "check": Said.CHECK, "pass": Said.CHECK, "knock": Said.RAP,
    "rap": Said.RAP, "call": Said.CALL, "bet": Said.BET, "raise": Said.RAISE,
    "complete": Said.RAISE,  # limit: completing a bring-in or a short all-in to a full bet
    "pot": Said.POT, "time": Said.TIME, "allin": Said.ALL_IN,
}
_NUMBER = re.compile(r"^\d[\d,]*$")
_COUNTS = {"none": 0, "zero": 0, "one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_DRAW_VERBS = frozenset({"draw", "draws", "drawing", "take", "takes", "taking"})
_DENOM = re.compile(r"^(\d+)x(\d+)$")


def _number(token: str) -> int | None:
    return int(token.replace(",", "")) if _NUMBER.match(token) else None


@lru_cache(maxsize=4096)  # a table says the same few things over and over
def parse_declaration(words: str | None) -> Declaration:
    """Read spoken words; anything not about the betting is Said.OTHER (never an error)."""
    text = " ".join((words or "").lower().replace("-", " ").split())
    toks = text.split()
    if not toks:
        return Declaration(said=Said.OTHER, words=text)
    if toks[:2] == ["all", "in"] or toks[0] == "allin":
        return Declaration(said=Said.ALL_IN, words=text)
    if "pot" in toks and toks[0] in ("pot", "bet", "raise"):
        return Declaration(said=Said.POT, words=text)
    if toks[0] == "pat" or toks[:2] in (["stand", "pat"], ["stands", "pat"],
                                         ["standing", "pat"]):
        return Declaration(said=Said.PAT, amount=0, words=text)
    if toks[0] in _DRAW_VERBS or toks[-1] in ("card", "cards"):  # "draw two", "3 cards"
        counts = [_COUNTS.get(t, _number(t)) for t in toks]
        count = next((c for c in counts if c is not None), None)
        if count is not None and count <= 5:
            return Declaration(said=Said.DRAW, amount=count, words=text)
        return Declaration(said=Said.OTHER, words=text)
    nums = [n for n in (_number(t) for t in toks) if n is not None]
    amount = nums[0] if nums else None
    if toks[:2] == ["make", "it"] and amount is not None:
        return Declaration(said=Said.RAISE, amount=amount, to=True, words=text)
    if len(toks) == 1 and amount is not None:  # a bare number: a bet or raise to that total
        return Declaration(said=Said.BET, amount=amount, to=True, words=text)
    said = _WORDS.get(toks[0], Said.OTHER)
    if said is Said.RAISE:
        return Declaration(said=said, amount=amount, to="to" in toks[1:2], words=text)
    if said is Said.BET:
        return Declaration(said=said, amount=amount, to=True, words=text)
    if said is not Said.OTHER and len(toks) > 1 and amount is None and said is not Said.CALL:
        return Declaration(said=Said.OTHER, words=text)  # e.g. "check the board", "time bank"
    return Declaration(said=said, words=text)


def parse_motion(amount: int | None, detail: str | None) -> Motion | None:
    """A chips event as a Motion; None when the denominations cannot be read or do not add up
    to the amount (the replay reports that as data quality, never guesses)."""
    chips: int | None = None
    released = True
    value = 0
    denoms: list[tuple[int, int]] = []
    for tok in (detail or "").replace("+", " ").replace(",", " ").split():
        if tok == "held":
            released = False
            continue
        m = _DENOM.match(tok)
        if m is None:
            return None
        n, d = int(m.group(1)), int(m.group(2))
        if n <= 0 or d <= 0:
            return None
        chips = (chips or 0) + n
        value += n * d
        denoms.append((n, d))
    if amount is None:
        if chips is None:
            return None
        amount = value
    if chips is not None and value != amount:
        return None
    return Motion(amount=amount, chips=chips, released=released, denoms=tuple(denoms))
