"""The one injector registry: every injector the simulator can plant, and the Picker that
chooses an applicable one for a hand.

The order of `ALL` is the order injectors were added over time; a seed's picks depend on it
(the Picker draws by index among those that fit), so a new injector goes at the end of its
family's tuple or of `ALL`, never in between, or seeded stores change.
"""

from __future__ import annotations

import random

from audit.simulate.inject import base, log
from audit.simulate.inject.base import Injector
from audit.simulate.inject.bets import (
    CapMultiRound,
    CapNoUncap,
    CapTournament,
    CompleteInBigBet,
    HalfBetReraise,
    LimitWrongSize,
    LimitWrongStreetSize,
    PotLimitOverMax,
    PotLimitSmallBlindAsBig,
    ReraiseShortAllIn,
    ShortCall,
    SubMinAllInRaise,
    UnderMinBet,
    UnderMinRaise,
)
from audit.simulate.inject.draw import DRAW_INJECTORS, LATER_DRAW_INJECTORS
from audit.simulate.inject.draw_kill import KILL_INJECTORS
from audit.simulate.inject.stud import STUD_INJECTORS
from audit.simulate.play.table import Table

ALL: tuple[type[Injector], ...] = (
    *STUD_INJECTORS, *DRAW_INJECTORS, *KILL_INJECTORS, *LATER_DRAW_INJECTORS,
    base.WrongWinner, base.AwardToFolded, base.SidePotWrong, base.UncalledKept,
    base.TieNotSplit, base.OddChipWrong, base.HiloOddChip, base.HiloScoop, base.RakeOverCap,
    log.OrderSwap, log.OotCheckThenBet, log.OotCallThenRaise, log.OotBinding,
    log.PrematureBoard, log.ExtraBurn, log.FlopExtra, log.ExtraHoleCard,
    log.DuplicateCard, log.UnknownCards, log.TotalMismatch, log.OverStack,
    base.BigBlindWrongSeat, base.HeadsUpBlindsSwapped, base.StraddleWrongSize,
    base.StraddleLimit, base.StraddleTournament, base.ShortAnte, base.MissedBlindsAllDead,
    UnderMinBet, UnderMinRaise, CompleteInBigBet, PotLimitOverMax, PotLimitSmallBlindAsBig,
    LimitWrongSize, LimitWrongStreetSize, ShortCall, CapMultiRound, CapNoUncap, CapTournament,
    ReraiseShortAllIn, HalfBetReraise, SubMinAllInRaise, log.SiteTotalsMismatch,
)
BY_NAME = {c.name: c for c in ALL}


class Picker:
    """Chooses an applicable injector for a hand (uniformly among those that fit the table)."""

    def __init__(self, rng: random.Random, names: tuple[str, ...] | None = None) -> None:
        self.rng = rng
        if names:
            unknown = [n for n in names if n not in BY_NAME]
            if unknown:
                raise ValueError(f"unknown injector(s) {unknown}; known: {sorted(BY_NAME)}")
        self.classes = [BY_NAME[n] for n in names] if names else list(ALL)

    def pick(self, t: Table) -> Injector | None:
        active = [s for s in range(1, t.seat_count + 1)
                  if t.players[s] is not None and not t.out[s]]
        fits = [c for c in self.classes if c.applicable(t, len(active))]
        if not fits:
            return None
        inj = fits[self.rng.randrange(len(fits))](self.rng)
        b = t.button
        order = [s for s in active if s > b] + [s for s in active if s <= b]
        inj.prepare(t, order)
        return inj
