"""Ace-to-five lowball and jacks or better for the simulated draw tables (fixed limit).

Ace-to-five (California lowball): blinds as in the other draw games, aces low, straights and
flushes do not count, and half the tables play with the joker (53 cards, the joker the lowest
card missing from the hand, RULEBOOK §5.3). The two limit-only rules are played as a floor
enforces them: no check-raise (A5-CHECKRAISE), and a seven-low or better is bet after the draw,
never checked (A5-SEVENS-RULE), so a clean hand never needs the sevens ruling.

Jacks or better: antes and no blinds; before the draw a player may open only with a pair of
jacks or better (JACKS-OPENERS), after the draw the opener acts first. A deal nobody opens is
passed: it is not logged (the replay has no pot carried into the next deal), and the cards are
dealt again from a new shuffle. The joker plays in draw high on half the jacks tables as well
(an ace, or the card completing a straight or flush, RULEBOOK §5.6).

The joker-aware hand values come from audit.poker.jokers, so the simulator's showdowns and the
replay's rank a joker hand alike; everything else about the play is decided here.
"""

from __future__ import annotations

import random
import zlib

from audit.poker.cards import JOKER
from audit.poker.jokers import game_strength, has_openers, seven_or_better
from audit.simulate.play import agents
from audit.simulate.play.engine import CARD, Hand

A5_GAMES = ("lowball_a5", "jacks_or_better")
CARDS = [*CARD, "Xj"]  # card text by index, the joker (52) included
_ACES = (48, 49, 50, 51)


class DrawHand(Hand):
    """A draw hand whose showdown ranks a joker where the game plays one."""

    __slots__ = ("killed",)  # a kill blind is posted this deal (studdraw._kill)

    def strengths(self, s: int) -> tuple[int, int | None]:
        return game_strength(self.evaluator, self.hole[s])


def plays_joker(table_id: str, variant: str) -> bool:
    """Half the ace-to-five and jacks tables deal from 53 cards (a fixed property of a table,
    as a card room announces its game)."""
    return variant in A5_GAMES and zlib.crc32(table_id.encode()) % 2 == 1


def with_joker(deck: list[int], rng: random.Random) -> list[int]:
    """The shuffled 52 cards with the joker shuffled in."""
    deck.insert(rng.randrange(len(deck) + 1), JOKER)
    return deck


def _a5_rank(c: int) -> int:
    """Ace-to-five rank: A = 1 .. K = 13; the joker 0 (it fills the lowest gap)."""
    return 0 if c == JOKER else (c >> 2) + 2 if c >> 2 < 12 else 1


def a5_keep(hole: list[int]) -> list[int]:
    """The cards an ace-to-five player keeps: the joker and distinct ranks eight or lower."""
    keep: list[int] = []
    ranks: set[int] = set()
    for c in sorted(hole, key=_a5_rank):
        r = _a5_rank(c)
        if r <= 8 and (r == 0 or r not in ranks):
            keep.append(c)
            ranks.add(r)
    return keep


def a5_value(hole: list[int]) -> float:
    """The agents' 0..1 value of an ace-to-five holding (more low cards, lower ones, better)."""
    keep = a5_keep(hole)
    ranks = [_a5_rank(c) or 1 for c in keep]
    return 0.12 + 0.17 * len(keep) - 0.012 * sum(ranks) / max(1, len(ranks))


def high_value(hole: list[int]) -> float:
    """The agents' value of a draw-high holding, the joker played as an ace."""
    if JOKER not in hole:
        return agents.made_hand(hole, [])
    rest = [c for c in hole if c != JOKER]
    ace = next((a for a in _ACES if a not in rest), None)
    return 1.0 if ace is None else agents.made_hand(rest + [ace], [])


def high_keep(hole: list[int]) -> list[int]:
    """What a draw-high player keeps: pairs and better, and the joker (else his top card)."""
    counts: dict[int, int] = {}
    for c in hole:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    keep = [c for c in hole if c == JOKER or counts[c >> 2] > 1]
    return keep or [max(hole)]


def house_rules(h: Hand, s: int, act: tuple, checked: set[int], rng: random.Random) -> tuple:
    """An agent's decision adjusted to the house rules of ace-to-five and jacks (a legal play
    is never turned into an illegal one)."""
    k = act[0]
    ev = h.evaluator
    if ev == "lowa5":
        if k == "raise" and s in checked:
            return ("call",)  # no check-raise at limit ace-to-five
        if k == "check" and h.street >= 1 and seven_or_better(h.hole[s]):
            lo, _ = h.raise_range(s)
            if lo:
                return ("raise", lo)  # a seven or better is bet, never checked (sevens rule)
        return act
    if h.street == 0 and h.cur == 0:  # jacks, not yet opened
        openers = has_openers(h.hole[s])
        if k == "raise" and not openers:
            return ("check",)
        if k == "check" and openers and rng.random() < 0.85:
            lo, _ = h.raise_range(s)
            if lo:
                return ("raise", lo)
    return act


def opener_first(h: Hand, opener: int) -> None:
    """After the draw at jacks the opener acts first, or the next player if he cannot."""
    if not opener or not h.to_act:
        return
    live = not h.folded[opener] and h.stack[opener] > 0
    h.to_act = opener if live else h.next_to_act(opener)
