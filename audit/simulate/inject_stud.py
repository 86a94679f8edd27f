"""Stud and draw injectors: the bring-in from the wrong seat or of the wrong size, and a small
bet on a big-bet street (stud, and draw games after the draw). Each breaks exactly its rule;
the engine then plays on under the state the replay derives from what was logged, so the
rest of the hand stays legal."""

from __future__ import annotations

from audit.replay.variants import SPECS
from audit.simulate.engine import FL, Hand
from audit.simulate.inject import Injector
from audit.simulate.table import DRAW_GAMES, STUD_GAMES, Table


class _StudInjector(Injector):
    structures = (FL,)
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.variant = t.variant


class BringInWrongSeat(_StudInjector):
    """A player other than the one with the bring-in card brings in."""

    name, rule = "bring_in_wrong_seat", "STUD-BRINGIN-LOWCARD"  # ORDER-RAZZ etc. by game
    variants = STUD_GAMES

    def bring_seat(self, h: Hand, due: int) -> int:
        """The seat that posts the bring-in instead of `due` (labelled), or `due`."""
        others = [s for s in h.order if s != due and h.stack[s] > h.sb]
        if not others or self.done:
            return due
        self.done = True
        return others[self.rng.randrange(len(others))]

    def bring_rule(self) -> str:
        return SPECS[self.variant].bringin_rule


class BringInWrongAmount(_StudInjector):
    """The bring-in is posted one chip over its size (still short of a full bet)."""

    name, rule = "bring_in_wrong_amount", "STUD-BRINGIN-AMOUNT"
    variants = STUD_GAMES

    def bring_amount(self, h: Hand, s: int, amount: int) -> int:
        if self.done or amount + 1 >= h.small_bet or h.stack[s] <= amount + 1:
            return amount
        self.done = True
        return amount + 1


class StudSmallBetOnBigStreet(_StudInjector):
    """An opening bet of the small bet on fifth street or later (the big bet applies)."""

    name, rule = "stud_small_bet_on_big_street", "BET-LIMIT-STUD-STREETS"
    variants = ("stud", "stud_hilo", "razz")  # 5-card stud bets one size throughout

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.street < h.big_from or h.cur or h.stack[s] <= h.small_bet:
            return None
        lo, _ = h.raise_range(s)
        if not lo:
            return None
        return self.once(("raise", h.small_bet), self.rule, s)


class FiveStudBigBet(_StudInjector):
    """An opening bet of the big bet in 5-card stud, where every round is bet at one size."""

    name, rule = "five_stud_big_bet", "BET-LIMIT-5STUD"
    variants = ("stud5",)

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.cur or h.stack[s] <= h.big_bet:
            return None
        lo, _ = h.raise_range(s)
        if not lo:
            return None
        return self.once(("raise", h.big_bet), self.rule, s)


class DrawSmallBetOnBigRound(StudSmallBetOnBigStreet):
    """An opening bet of the small bet in a round played at the big bet (after the draw in
    single-draw games, after the second draw in triple draw)."""

    name, rule = "draw_small_bet_on_big_round", "BET-LIMIT-DRAW-DOUBLE"
    variants = DRAW_GAMES
    min_players = 2


ALL_STUD = (BringInWrongSeat, BringInWrongAmount, StudSmallBetOnBigStreet, FiveStudBigBet,
            DrawSmallBetOnBigRound)
