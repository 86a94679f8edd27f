"""The bases the stud and draw injectors share (stud.py, draw.py and the
studdraw_inject_*.py modules): fixed-limit stud and draw injectors, upcards of a seat, the
action kinds of an event row."""

from __future__ import annotations

from audit.simulate.inject.base import Injector
from audit.simulate.play.engine import FL, Hand
from audit.simulate.play.table import Table

ACTED = ("fold", "check", "call", "bet", "raise", "complete")


class StudInjector(Injector):
    structures = (FL,)
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.variant = t.variant


class DrawInjector(Injector):
    structures = (FL,)
    min_players = 2


def upcards(h: Hand, s: int, faces: str) -> list[int]:
    """Seat s's cards dealt face up, by the game's dealing pattern."""
    return [c for c, f in zip(h.hole[s], faces, strict=False) if f == "u"]


def another_with_chips(h: Hand, s: int) -> bool:
    """A player other than `s` still in the hand with chips left: one who could match more
    than a short all-in forced wager (where none is, a short call of it breaks nothing)."""
    return any(x != s and not h.folded[x] and h.stack[x] > 0 for x in h.order)
