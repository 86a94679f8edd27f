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
