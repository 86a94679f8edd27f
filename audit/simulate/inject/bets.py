"""Betting injectors: a decision replaced during play (sizes, caps, reopening, short calls)."""

from __future__ import annotations

import random

from audit.rules.ids import (
    BET_ALLIN_HALFBET,
    BET_CAP_MULTIROUND,
    BET_CAP_NO_UNCAP,
    BET_CAP_TOURNAMENT,
    BET_LIMIT_FIXED,
    BET_LIMIT_HOLDEM_STREETS,
    BET_NL_MIN_BET,
    BET_NL_MIN_RAISE,
    BET_NL_NO_COMPLETE,
    BET_NL_NO_REOPEN,
    BET_NL_SUBMIN_ALLIN,
    BET_PL_MAX,
    BET_PL_SB_AS_BB,
    CHIP_SHORT_CALL,
)
from audit.simulate.inject.base import Injector
from audit.simulate.play.engine import FL, NL, PL, Hand
from audit.simulate.play.table import Table


def _allin(h: Hand, s: int) -> int:
    return h.bet[s] + h.stack[s]


def _passive(h: Hand, s: int) -> tuple:
    return ("call",) if h.cur > h.bet[s] else ("check",)


class UnderMinBet(Injector):
    name, rule = "under_min_bet", BET_NL_MIN_BET
    structures = (PL, NL)

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.cur or not h.street or h.bb < 2 or h.stack[s] <= h.bb:
            return None
        return self.once(("raise", 1 + self.rng.randrange(h.bb - 1)), self.rule, s)


class UnderMinRaise(Injector):
    name, rule = "under_min_raise", BET_NL_MIN_RAISE
    structures = (PL, NL)

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or not h.cur or h.bet_was_short or h.last_raise < 2:
            return None
        lo, _ = h.raise_range(s)
        if not lo or lo >= _allin(h, s):
            return None
        return self.once(("raise", h.cur + 1 + self.rng.randrange(h.last_raise - 1)),
                         self.rule, s)


class CompleteInBigBet(Injector):
    name, rule = "complete_in_big_bet", BET_NL_NO_COMPLETE
    structures = (PL, NL)

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or not h.cur:
            return None
        lo, _ = h.raise_range(s)
        if not lo or lo >= _allin(h, s):
            return None
        return self.once(("raise", lo, "complete"), self.rule, s)


def _pl_alt(h: Hand, s: int) -> tuple[int, int]:
    mx = h.pl_max(s)
    alt = mx
    if h.street == 0 and h.bb_seat and not h.acted[h.bb_seat] and h.sb_seat:
        alt = mx + max(0, h.bb - h.sb)
    return mx, alt


class PotLimitOverMax(Injector):
    name, rule = "pot_limit_over_max", BET_PL_MAX
    structures = (PL,)

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done:
            return None
        lo, _ = h.raise_range(s)
        _, alt = _pl_alt(h, s)
        to = alt + 1 + self.rng.randrange(h.bb)
        if not lo or to >= _allin(h, s):
            return None
        return self.once(("raise", to), self.rule, s)


class PotLimitSmallBlindAsBig(Injector):
    name, rule = "pot_limit_sb_as_bb", BET_PL_SB_AS_BB
    structures = (PL,)
    tournament = True

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done:
            return None
        lo, _ = h.raise_range(s)
        mx, alt = _pl_alt(h, s)
        if not lo or alt <= mx or alt < lo or alt >= _allin(h, s):
            return None
        return self.once(("raise", alt), self.rule, s)


class LimitWrongSize(Injector):
    name, rule = "limit_wrong_size", BET_LIMIT_FIXED
    structures = (FL,)

    def force(self, h: Hand, s: int) -> tuple | None:
        size = h.street_size()
        lo, _ = h.raise_range(s)
        if self.done or size < 2 or not lo or lo >= _allin(h, s):
            return None
        to = lo + size // 2
        if to >= _allin(h, s):
            return None
        return self.once(("raise", to), self.rule, s)


class LimitWrongStreetSize(Injector):
    name, rule = "limit_wrong_street_size", BET_LIMIT_HOLDEM_STREETS
    structures = (FL,)

    def force(self, h: Hand, s: int) -> tuple | None:
        lo, _ = h.raise_range(s)
        if self.done or h.street >= 2 or not lo or lo >= _allin(h, s):
            return None
        to = h.last_raise + h.big_bet
        if to >= _allin(h, s):
            return None
        return self.once(("raise", to), self.rule, s)


class ShortCall(Injector):
    name, rule = "short_call", CHIP_SHORT_CALL

    def force(self, h: Hand, s: int) -> tuple | None:
        owed = h.cur - h.bet[s]
        if self.done or owed < 2 or h.stack[s] <= owed:
            return None
        return self.once(("call", owed - 1 - self.rng.randrange(owed - 1)), self.rule, s)


class CapMultiRound(Injector):
    """Everyone raises to the cap with three or more players in, then one more raise."""

    name, rule = "raise_over_cap", BET_CAP_MULTIROUND
    structures = (FL,)
    min_players = 3

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done:
            return None
        if h.bets >= 4 and h.cur > h.bet[s] and h.with_chips() >= 3:
            to = h.last_raise + h.street_size()
            if to < _allin(h, s):
                return self.once(("raise", to), self.rule, s)
        lo, _ = h.raise_range(s)
        if lo and lo < _allin(h, s):
            return ("raise", lo)
        return _passive(h, s)


class CapNoUncap(Injector):
    """Capped three-way, one player folds, the next raises the capped pot."""

    name, rule = "raise_after_cap_fold", BET_CAP_NO_UNCAP
    structures = (FL,)
    min_players = 3
    tournament = False

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.phase = 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done:
            return None
        owed = h.cur - h.bet[s]
        if self.phase == 0:
            if h.remaining() > 3 and owed > 0:
                return ("fold",)
            if h.capped:
                self.phase = 1
            else:
                lo, _ = h.raise_range(s)
                if lo and lo < _allin(h, s):
                    return ("raise", lo)
                return _passive(h, s)
        if owed <= 0:
            return None
        if self.phase == 1:
            self.phase = 2
            return ("fold",)
        to = h.last_raise + h.street_size()
        if to >= _allin(h, s):
            return None
        return self.once(("raise", to), self.rule, s)


class CapTournament(Injector):
    name, rule = "raise_over_cap_headsup_tournament", BET_CAP_TOURNAMENT
    structures = (FL,)
    tournament = True

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done:
            return None
        owed = h.cur - h.bet[s]
        if h.remaining() > 2 and owed > 0:
            return ("fold",)
        if h.remaining() > 2:
            return None
        if h.bets >= 4 and owed > 0:
            to = h.last_raise + h.street_size()
            if to < _allin(h, s):
                return self.once(("raise", to), self.rule, s)
            return None
        lo, _ = h.raise_range(s)
        if lo and lo < _allin(h, s):
            return ("raise", lo)
        return _passive(h, s)


class ReraiseShortAllIn(Injector):
    """R raises, Y goes all-in for less than a full raise, R re-raises (not reopened)."""

    name, rule = "reraise_after_short_allin", BET_NL_NO_REOPEN
    structures = (PL, NL)

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.r = self.y = 0
        self.phase = 0

    def prepare(self, t: Table, order: list[int]) -> None:
        n = len(order)
        if t.ante or not self.short_ok(t):
            return
        self.r, self.y = (order[1], order[0]) if n == 2 else (order[2 % n], order[3 % n])
        self.stacks = {self.y: self.short_stack(t)}

    def short_ok(self, t: Table) -> bool:
        return t.bb >= 2

    def short_stack(self, t: Table) -> int:
        return 2 * t.bb + t.bb // 2

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or not self.r or h.street:
            return None
        if self.phase == 0 and s == self.r:
            lo, _ = h.raise_range(s)
            if lo != 2 * h.bb:
                self.done = True
                return None
            self.phase = 1
            return ("raise", lo)
        if self.phase == 1 and s == self.y:
            self.phase = 2
            return ("raise", _allin(h, s))
        if self.phase == 2 and s == self.r:
            if h.structure == FL:
                to = h.last_raise + h.street_size()
            else:
                to = h.cur + h.last_raise
            if to >= _allin(h, s) or h.reopened(s):
                self.done = True
                return None
            return self.once(("raise", to), self.rule, s)
        return _passive(h, s)


class HalfBetReraise(ReraiseShortAllIn):
    name, rule = "reraise_after_half_bet_allin", BET_ALLIN_HALFBET
    structures = (FL,)

    def short_ok(self, t: Table) -> bool:
        return t.bb >= 3

    def short_stack(self, t: Table) -> int:
        return 2 * t.bb + max(1, (t.bb - 1) // 2)


class SubMinAllInRaise(Injector):
    """Y opens all-in for less than the minimum bet; Z raises by less than a full bet."""

    name, rule = "raise_under_short_allin_bet", BET_NL_SUBMIN_ALLIN
    structures = (PL, NL)

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.y = 0
        self.shoved = False

    def prepare(self, t: Table, order: list[int]) -> None:
        if t.ante or t.bb < 3:
            return
        self.y = order[0]
        self.stacks = {self.y: t.bb + 1 + self.rng.randrange(t.bb - 2)}

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or not self.y:
            return None
        if h.street == 0:
            return _passive(h, s)
        if h.street > 1:
            self.done = True
            return None
        if not self.shoved:
            if s != self.y or h.cur:
                self.done = True
                return None
            self.shoved = True
            return ("raise", _allin(h, s))
        to = h.cur + 1 + self.rng.randrange(h.bb - 1)
        if to >= _allin(h, s) or not h.bet_was_short:
            self.done = True
            return None
        return self.once(("raise", to), self.rule, s)
