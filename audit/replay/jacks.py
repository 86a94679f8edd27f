"""Jacks or better: split openers (JACKS-SPLIT-OPENERS, RULEBOOK §4.12). A player may split his
openers, but if his final hand plus his discards could not have held openers, he loses the pot.

Judged only where the opener's five cards were unknown when he opened (JACKS-OPENERS judges
them when they were logged) and the log gives what rebuilds them: his shown final hand, the
cards he drew and his discards. The pot he was paid is the breach; the split of the pot by
cards is left to the award checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from audit.replay.jokers import has_openers
from audit.replay.state import HandState


@dataclass(slots=True)
class SplitOpeners:
    """What the first draw shows of the opener's hand (mutable per-hand record)."""

    seat: int
    discards: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    unknown: bool = False  # a discard or drawn card the log does not show


def opened_hidden(h: HandState, s: int) -> SplitOpeners | None:
    """A record for an opener whose five cards are not known when he opens, else None."""
    cards = h.hole[s]
    if len(cards) == 5 and all(c >= 0 for c in cards):
        return None
    return SplitOpeners(seat=s)


def check_split_openers(h: HandState, rec: SplitOpeners, seq: int) -> None:
    """Flag an opener paid from the pot whose final hand plus discards hold no openers."""
    s = rec.seat
    shown = h.shown[s]
    if rec.unknown or shown is None or len(shown) != 5 or any(c < 0 for c in shown):
        return
    if not any(w == s and amount > 0 for w, amount, _ in h.awards):
        return
    kept = [c for c in shown if c not in rec.drawn]
    before = kept + rec.discards
    if len(kept) + len(rec.drawn) != 5 or len(before) != 5 or has_openers(before):
        return
    h.flag("JACKS-SPLIT-OPENERS", seq, f"{h.who(s)} opened and was paid from the pot, but his "
           "final hand plus his discards could not have held a pair of jacks or better; a "
           "player who split openers that could not have been there loses the pot.", seat=s,
           expected="openers in the final hand plus discards", actual="no openers")
