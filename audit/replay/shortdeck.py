"""Short-deck (6+) hold'em in the button-game replay: the 36-card deck, the button blind and the
short-deck hand values (audit/poker/evaluate/short.py).

The game (PokerStars 6+ hold'em; PokerKit's NoLimitShortDeckHoldem): every player antes, the
button alone posts a live blind (the `button blind`, the game's `big_blind`), so the first
player left of the button acts first preflop and the button last; after the flop play is as in
hold'em. The button blind is the opening bet (BLIND-BB-IS-BET): minimum bets and raises are
counted from it, as from a big blind. Everything else (betting, pots, odd chips) is the
hold'em replay unchanged. Rule ids are RULEBOOK's (and our own ANTE-AMOUNT): a button blind
from another seat is BLIND-POSITIONS, one of the wrong size ANTE-AMOUNT (the forced bets of
the hand header), a card below the six DQ-INCONSISTENT-LOG (no such card is in the deck).
"""

from __future__ import annotations

from audit.poker.cards import card_str
from audit.poker.evaluate.short import (
    SHORT_VARIANTS,
    TRIPS_BEAT_STRAIGHT,
    is_short_card,
    short_strength,
)
from audit.replay.dealing import Deck
from audit.replay.forced import dealt_in, put_in, table_stakes
from audit.replay.state import FL, HandState
from audit.rules.ids import ANTE_AMOUNT, BLIND_POSITIONS, DQ_INCONSISTENT_LOG

__all__ = ["SHORT_VARIANTS", "ShortDeck", "post_button_blind", "short_high"]

DQ_CARD = DQ_INCONSISTENT_LOG


class ShortDeck(Deck):
    """The 36-card deck: a real card below the six is a data error, reported once per card."""

    __slots__ = ("reported",)

    def __init__(self) -> None:
        super().__init__()
        self.reported: set[int] = set()

    def add(self, h: HandState, cards: tuple[int, ...], seq: int, where: str) -> None:
        for c in cards:
            if 0 <= c < 52 and not is_short_card(c) and c not in self.reported:
                self.reported.add(c)
                h.flag(DQ_CARD, seq, f"{where} include {card_str(c)}, a card that is not in "
                       "the 36-card short deck (six through ace) this game is dealt from.",
                       expected="6 through A", actual=card_str(c))
        Deck.add(self, h, cards, seq, where)


def post_button_blind(h: HandState, s: int | None, amount: int | None, seq: int) -> None:
    """The button blind: posted live by the button; the first preflop turn is the next seat."""
    if not dealt_in(h, s, seq, "button blind"):
        return
    add = table_stakes(h, s, amount or 0, seq)
    stack = h.stack[s]
    h.last_seq = seq
    if h.button and s != h.button and not h.game.get("dead_button"):
        h.flag(BLIND_POSITIONS, seq, f"{h.who(s)} posted the button blind, but in short-deck "
               f"hold'em the player on the button ({h.who(h.button)}) posts it.", seat=s,
               expected=h.button, actual=s)
    bb = h.bb
    if bb and add != bb and (add < stack or add > bb):
        h.flag(ANTE_AMOUNT, seq, f"{h.who(s)} posted a button blind of {h.money(add)}, but "
               f"the button blind in this game is {h.money(bb)}.", seat=s, expected=bb,
               actual=add, delta=add - bb)
    h.bb_seat = s
    h.anchor = s
    if h.structure == FL and h.bb > h.last_raise:
        h.last_raise = h.bb
    h.bets = 1
    put_in(h, s, add)
    h.to_act = h.next_to_act(s)


def short_high(h: HandState, cards: list[int]) -> int | None:
    """The short-deck strength of a seat's cards plus the board under the hand's variant, or
    None when a card is not in the 36-card deck (the pot cannot be decided on it)."""
    try:
        return short_strength(cards, trips_beat_straight=TRIPS_BEAT_STRAIGHT[h.variant])
    except ValueError:
        return None

