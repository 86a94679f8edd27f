"""Cards the dealer exposes in the draw games (RULEBOOK §4.12): which an exposed card before
the draw must be kept and which replaced, and that a card exposed on the draw is never taken
but replaced once everyone has drawn.

Log vocabulary (draw games only): `deal S up X` is card X dealt face up to seat S (exposed
by the dealer; it is in his hand); `deal S replace Y` takes back S's exposed card and gives
him Y instead. Before the draw the replaced card becomes the burn card.

  draw high, jacks       DRAWHI-EXPOSED-PREDRAW  every exposed card is kept
  ace-to-five, limit     A5-EXPOSED-LIMIT        7 or lower kept, anything higher replaced
  deuce-to-seven, limit  D27-EXPOSED             7, 5, 4, 3, 2 kept, anything else (a 6) replaced
  lowball, big-bet       BBLOW-EXPOSED           A-5: A, 2, 3, 4, 5 kept; 2-7: 2, 3, 4, 5, 7 kept
  on the draw (any)      DRAW-EXPOSED-ON-DRAW    never kept; replaced after everyone has drawn
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from audit.replay.state import FL, HandState
from audit.rules.ids import (
    A5_EXPOSED_LIMIT,
    BBLOW_EXPOSED,
    D27_EXPOSED,
    DQ_INCONSISTENT_LOG,
    DRAW_EXPOSED_ON_DRAW,
    DRAWHI_EXPOSED_PREDRAW,
)

if TYPE_CHECKING:
    from audit.replay.family.hooks import FamilyHooks

ON_DRAW = DRAW_EXPOSED_ON_DRAW
_A5_LIMIT = frozenset("A234567")
_A5_BIG = frozenset("A2345")
_D27 = frozenset("23457")
_RANKS = "23456789TJQKA"


@dataclass(frozen=True, slots=True)
class Exposed:
    """A card dealt face up to a draw-game seat: which, when, and in which draw (0 = before)."""

    card: int
    seq: int
    phase: int


def predraw_rule(vh: FamilyHooks, h: HandState) -> tuple[str, frozenset[str] | None] | None:
    """(rule id, ranks that are kept; None = every card is kept) before the draw, or None
    when the game has no such rule (badugi)."""
    ev = vh.spec.evaluator
    limit = h.structure == FL
    if vh.spec.name in ("draw_high", "jacks_or_better"):
        return DRAWHI_EXPOSED_PREDRAW, None
    if ev == "lowa5":
        return (A5_EXPOSED_LIMIT, _A5_LIMIT) if limit else (BBLOW_EXPOSED, _A5_BIG)
    if ev == "low27":
        return (D27_EXPOSED, _D27) if limit else (BBLOW_EXPOSED, _D27)
    return None


def _kept(keep: frozenset[str] | None, card: int) -> bool:
    return keep is None or (0 <= card < 52 and _RANKS[card >> 2] in keep)


def exposed(vh: FamilyHooks, h: HandState, s: int, cards: tuple[int, ...], seq: int) -> None:
    """`deal S up X`: the cards join his hand and are remembered until checked."""
    phase = vh.phase if vh.in_draw else 0
    vh.exposed.setdefault(s, []).extend(Exposed(card=c, seq=seq, phase=phase) for c in cards)


def replaced(vh: FamilyHooks, h: HandState, s: int, new: tuple[int, ...], seq: int) -> None:
    """`deal S replace Y`: his latest exposed card goes, Y comes; a card that had to be kept,
    or a draw card replaced before everyone has drawn, is flagged."""
    mine = vh.exposed.get(s) or []
    gone = next((e for e in reversed(mine) if e.card in h.hole[s]), None)
    if gone is None:
        h.flag(DQ_INCONSISTENT_LOG, seq, f"{h.who(s)} is given a replacement for an exposed "
               "card, but no card was logged as exposed to him.", seat=s)
        h.hole[s].extend(new)
        return
    mine.remove(gone)
    h.hole[s].remove(gone.card)
    h.hole[s].extend(new)
    if gone.phase == 0:
        rule = predraw_rule(vh, h)
        if rule is not None and _kept(rule[1], gone.card):
            h.flag(rule[0], seq, f"{h.who(s)}'s exposed card was replaced, but before the draw "
                   f"this game's rule is that such a card must be kept.", seat=s,
                   expected="kept", actual="replaced")
        return
    waiting = [x for x in h.seats if x != s and h.in_hand[x] and not h.folded[x]
               and (x not in vh.drawn or vh.drawn[x] > 0)]
    if waiting:
        h.flag(ON_DRAW, seq, f"{h.who(s)}'s card exposed on the draw was replaced before "
               f"{h.who(waiting[0])} had drawn; the draw is completed to everyone first, then "
               "the exposed card is replaced.", seat=s, expected="after the other draws",
               actual="before")


def check_held(vh: FamilyHooks, h: HandState) -> None:
    """At the first bet after a deal or a draw: exposed cards still held that had to go."""
    for s, mine in vh.exposed.items():
        for e in list(mine):
            if e.card not in h.hole[s] or h.folded[s]:
                mine.remove(e)
                continue
            if e.phase == 0:
                rule = predraw_rule(vh, h)
                if rule is not None and not _kept(rule[1], e.card):
                    h.flag(rule[0], e.seq, f"{h.who(s)} kept a card the dealer exposed before "
                           "the draw; in this game that card is replaced once the deal is "
                           "complete.", seat=s, expected="replaced", actual="kept")
            else:
                h.flag(ON_DRAW, e.seq, f"{h.who(s)} kept a card exposed on the draw; such a card "
                       "may not be taken: it is replaced after everyone has drawn.", seat=s,
                       expected="replaced", actual="kept")
            mine.remove(e)
