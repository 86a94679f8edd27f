"""Lowball miscalls (LOWBALL-MISCALL, LOWBALL-PAIR-CALL, RULEBOOK §4.12): cards speak, but a
player may not claim a better hand than he holds, and one who spreads a pair must say "pair".

A player who calls "eight" must show an eight-low or better (a wrong second card, "eight-six"
for 8-7, carries no penalty). A miscall that makes another player foul (muck) his hand makes
the miscaller's hand dead, and in a multiway showdown a miscalled hand is dead; otherwise the
best hand wins.

Read from `declare` events at the showdown: the first card word of the claim names the top card
("eight", "8-6", "seven five"). The breach is a dead miscalled hand that was paid. A pair spread
without saying "pair" is judged only in hands with spoken words (a live table): an online log
that records no speech proves nothing about what was said.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from audit.poker.jokers import game_strength
from audit.replay.state import HandState
from audit.rules.ids import LOWBALL_MISCALL, LOWBALL_PAIR_CALL

# rank index (audit.poker.cards: 2 = 0 .. A = 12) of a claimed top card, from the spoken word
_WORDS = {"five": 3, "5": 3, "six": 4, "6": 4, "seven": 5, "7": 5, "eight": 6, "8": 6,
          "nine": 7, "9": 7, "ten": 8, "10": 8, "jack": 9, "queen": 10, "king": 11}


@dataclass(frozen=True, slots=True)
class Claim:
    """A spoken low: who said it, the top card's rank, and where."""

    seat: int
    top: int
    seq: int


def read_claim(words: str | None, s: int, seq: int) -> Claim | None:
    """The claim in spoken words, or None when they name no low ("pair" is no claim)."""
    toks = (words or "").lower().replace("-", " ").split()
    for t in toks:
        if t in _WORDS:
            return Claim(seat=s, top=_WORDS[t], seq=seq)
        if t not in ("an", "a", "low", "i", "have", "got"):
            return None  # the first word that matters names no card: no claim
    return None


def _worst_with_top(evaluator: str, top: int) -> int:
    """The strength of the worst low whose highest card is `top` (no pair, straight or flush
    makes it worse than the claim: the claim is a low of that card)."""
    worst: int | None = None
    below = list(range(top)) if evaluator == "low27" else [12, *range(top)]
    for rest in combinations(below, 4):
        ranks = (top,) + rest
        cards = [r * 4 + i % 4 for i, r in enumerate(ranks)]  # mixed suits: never a flush
        if evaluator == "low27" and max(ranks) - min(ranks) == 4:
            continue  # deuce-to-seven: a straight is no low of that card
        v = game_strength(evaluator, cards)[0]
        worst = v if worst is None else min(worst, v)
    return worst if worst is not None else 0


def check_miscalls(h: HandState, evaluator: str, claims: list[Claim],
                   mucks: dict[int, int], hand_cards, seq: int) -> None:
    """Flag a paid miscaller whose hand was dead: his miscall was followed by another
    player's muck, or three or more players went to the showdown."""
    shown = [x for x in h.seats if not h.folded[x] and (h.shown[x] is not None or x in mucks)]
    for c in claims:
        s = c.seat
        if not any(w == s and amount > 0 for w, amount, _ in h.awards):
            continue
        cards = hand_cards(h, s)
        if cards is None:
            continue
        if game_strength(evaluator, cards)[0] >= _worst_with_top(evaluator, c.top):
            continue  # the claim was true (or better): no miscall
        fouled = [x for x, at in mucks.items() if x != s and at > c.seq]
        if not fouled and len(shown) < 3:
            continue  # both hands intact heads-up: the best hand wins
        why = (f"{h.who(fouled[0])} mucked after it" if fouled else
               "in a multiway showdown a miscalled hand is dead")
        h.flag(LOWBALL_MISCALL, seq, f"{h.who(s)} called his hand better than it was "
               f"(event {c.seq}) and was paid; {why}, so his hand was dead.", seat=s,
               expected="dead hand", actual="paid")


def says_pair(words: str | None) -> bool:
    """The words announce a pair."""
    return "pair" in (words or "").lower()


def check_pair_calls(h: HandState, evaluator: str, announced: set[int], mucks: dict[int, int],
                     shows: dict[int, int], seq: int) -> None:
    """LOWBALL-PAIR-CALL: a player who spread a paired hand without saying "pair", after
    which another player mucked, was paid: he should have lost the pot."""
    for s, at in shows.items():
        shown = h.shown[s]
        if s in announced or shown is None or any(c < 0 for c in shown):
            continue
        ranks = [c >> 2 for c in shown if c < 52]
        if len(ranks) == len(set(ranks)):
            continue
        if not any(w == s and amount > 0 for w, amount, _ in h.awards):
            continue
        fouled = [x for x, m in mucks.items() if x != s and m > at]
        if not fouled:
            continue  # both hands intact: the best hand wins
        h.flag(LOWBALL_PAIR_CALL, seq, f"{h.who(s)} spread a hand with a pair without "
               f"saying \"pair\" (event {at}), {h.who(fouled[0])} then mucked, and he was "
               "paid; a player who spreads a pair must announce it or lose the pot when that "
               "makes another player foul his hand.", seat=s, expected="lose the pot",
               actual="paid")
