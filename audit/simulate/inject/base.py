"""Injectors: one or more per replay rule id. Each makes ONE hand break exactly its rule (and
declares the consequential findings it must cause) while the rest of the hand stays consistent.

Three kinds: `setup` rigs the hand before play (stacks, blinds, straddle, deck), `force`
replaces a decision during play (the engine then continues under the replay's own state
rules, so what follows stays legal), `finish` edits the finished event rows (order, cards,
awards, rake, log fields). An injector that finds no place to act leaves the hand clean and
unlabelled. Labels are (event row, rule id, seat, primary); row None means the hand's end.
"""

from __future__ import annotations

import json
import random

from audit.rules.ids import (
    ANTE_AMOUNT,
    BLIND_HEADSUP,
    BLIND_MISSED,
    BLIND_POSITIONS,
    HOUSE_RAKE,
    ORDER_BUTTON_FIRST,
    ORDER_BUTTON_LATER,
    ORDER_HEADSUP,
    POT_FOLD_FORFEIT,
    POT_HILO_SPLIT,
    POT_ODDCHIP_BUTTON,
    POT_ODDCHIP_HILO,
    POT_SIDEPOT_BUILD,
    POT_SPLIT_BY_CARDS,
    POT_TIE_SPLIT,
    STRADDLE_BIGBET,
    STRADDLE_LIMIT,
    STRADDLE_TOURN,
)
from audit.simulate.play.engine import FL, NL, PL, Hand
from audit.simulate.play.table import Script, Table

ACTIONS = frozenset({"fold", "check", "call", "bet", "raise", "complete"})
_ST = {"no_limit": NL, "pot_limit": PL, "fixed_limit": FL}


class Injector(Script):
    name = ""
    rule = ""
    structures: tuple[int, ...] = (FL, PL, NL)
    variants: tuple[str, ...] = ("holdem", "omaha", "omaha_hilo")
    tournament: bool | None = None  # None: cash or tournament
    min_players = 2
    max_players = 10

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng
        self.done = False

    @classmethod
    def applicable(cls, t: Table, n: int) -> bool:
        return (_ST[t.structure] in cls.structures and t.variant in cls.variants
                and (cls.tournament is None or cls.tournament == t.tournament)
                and cls.min_players <= n <= cls.max_players)

    def prepare(self, t: Table, order: list[int]) -> None:
        """Before the hand (order = dealt-in seats clockwise from left of the button)."""

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        return bool(self.labels)

    def once(self, act: tuple, rule: str, s: int, *more: tuple) -> tuple:
        self.done = True
        k = act[0]
        if k == "call":
            return ("call", act[1] if len(act) > 1 else None, None,
                    [(rule, s, True), *more])
        return (k, act[1], act[2] if len(act) > 2 else None, [(rule, s, True), *more])


# ----------------------------------------------------------------------------- helpers


def _order_rule(h: Hand, street: int) -> str:
    if len(h.order) == 2:
        return ORDER_HEADSUP
    return ORDER_BUTTON_FIRST if street == 0 else ORDER_BUTTON_LATER


def _pairs(ev: list[list]):
    """Consecutive in-turn action pairs (i, j=i+1) on the same street."""
    for i in range(len(ev) - 1):
        a, b = ev[i], ev[i + 1]
        if a[0] in ACTIONS and b[0] in ACTIONS:
            yield i, a, b


def _classify(h: Hand, res: dict, s: int, d: int) -> str:
    """The award rule id the replay reports for seat s paid `d` too much (mirrors _report)."""
    pots = res["pots"]
    tied = any(s in hi and len(hi) > 1 for _, _, _, hi, _ in pots) or any(
        lo is not None and s in lo and len(lo) > 1 for _, _, _, _, lo in pots)
    hilo_pot = any(lo is not None for _, _, _, _, lo in pots)
    if not h.in_hand[s] or (h.folded[s] and d > 0):
        return POT_FOLD_FORFEIT
    if (tied or (hilo_pot and any(s in hi or (lo and s in lo) for _, _, _, hi, lo in pots))) \
            and abs(d) <= len(pots):
        return POT_ODDCHIP_HILO if h.hilo else POT_ODDCHIP_BUTTON
    if res["refund_seat"] == s and res["refund"] and d == -res["refund"]:
        return POT_SIDEPOT_BUILD
    if tied:
        return POT_TIE_SPLIT
    if hilo_pot:
        return POT_HILO_SPLIT
    if len(pots) > 1:
        return POT_SIDEPOT_BUILD
    return POT_SPLIT_BY_CARDS


class _AwardInjector(Injector):
    """Rewrites the pot awards; labels every seat paid wrongly with the replay's rule id.
    The hand is played without rake, so that only the award is wrong."""

    no_rake = True

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        if res["rake"]:
            return False
        diffs = self.move(h, res, rng)
        if not diffs or not any(diffs.values()):
            return False
        start = next(i for i, e in enumerate(ev) if e[0] == "award" and e[5] != "uncalled"
                     or e[0] == "hand_ended")
        rows = [e for e in ev[start:] if e[0] == "award"]
        paid: dict[int, int] = {}
        for e in rows:
            paid[e[1]] = paid.get(e[1], 0) + e[2]
        for s, d in diffs.items():
            paid[s] = paid.get(s, 0) + d
        if any(v < 0 for v in paid.values()):
            return False
        new = [["award", s, a, None, None, "main"] for s, a in sorted(paid.items()) if a > 0]
        ev[start:-1] = new
        for s, d in diffs.items():
            if d:
                rule = _classify(h, res, s, d)
                self.labels.append((None, rule, s, rule == self.rule))
        return any(p for _, r, _, p in self.labels if r == self.rule)

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        return {}


# ----------------------------------------------------------------------------- awards


class WrongWinner(_AwardInjector):
    name, rule = "wrong_winner", POT_SPLIT_BY_CARDS
    variants = ("holdem", "omaha")

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        pots = res["pots"]
        if len(pots) != 1 or not res["showdown"]:
            return {}
        _, amount, eligible, high, _ = pots[0]
        losers = [s for s in eligible if s not in high]
        if len(high) != 1 or not losers or amount < 2:
            return {}
        return {high[0]: -amount, losers[rng.randrange(len(losers))]: amount}


class AwardToFolded(_AwardInjector):
    name, rule = "award_to_folded", POT_FOLD_FORFEIT

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        folded = [s for s in h.order if h.folded[s]]
        _, amount, _, high, low = res["pots"][0]
        if not folded or low or len(high) != 1 or amount < 2 * len(res["pots"]) + 2:
            return {}
        x = amount // 2
        return {high[0]: -x, folded[rng.randrange(len(folded))]: x}


class SidePotWrong(_AwardInjector):
    """A short stack shoves, one player raises over it, all check down; the side pot is then
    pushed to the short stack, who cannot win it."""

    name, rule = "sidepot_wrong", POT_SIDEPOT_BUILD
    variants = ("holdem", "omaha")
    structures = (NL,)
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.y = order[2 % len(order)]
        self.stacks = {self.y: (3 + self.rng.randrange(4)) * t.bb}
        self.phase = 0

    def force(self, h: Hand, s: int) -> tuple | None:
        allin = h.bet[s] + h.stack[s]
        if self.phase == 0 and s == self.y and h.street == 0:
            self.phase = 1
            return ("raise", allin)
        if self.phase == 1:
            lo, hi = h.raise_range(s)
            if lo and lo < allin:
                self.phase = 2
                return ("raise", lo)
        return ("call",) if h.cur > h.bet[s] else ("check",)

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        pots = res["pots"]
        for k in range(len(pots) - 1, 0, -1):
            _, amount, eligible, high, _ = pots[k]
            shorts = [s for s in pots[0][2] if s not in eligible]
            if len(high) == 1 and shorts and amount > len(pots) and not any(
                    len(p[3]) > 1 for p in pots):
                return {high[0]: -amount, shorts[0]: amount}
        return {}


class UncalledKept(_AwardInjector):
    name, rule = "uncalled_kept", POT_SIDEPOT_BUILD
    no_rake = True

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        if res["rake"] or not res["refund"] or res["refund"] <= len(res["pots"]):
            return False
        i = next(i for i, e in enumerate(ev) if e[0] == "award" and e[5] == "uncalled")
        del ev[i]
        s = res["refund_seat"]
        rule = _classify(h, res, s, -res["refund"])
        self.labels.append((None, rule, s, True))
        return rule == self.rule


_BROADWAY = [48, 45, 42, 39, 32]  # Ac Kd Qh Js Tc: the board plays in hold'em, a tie


class TieNotSplit(_AwardInjector):
    name, rule = "tie_not_split", POT_TIE_SPLIT
    variants = ("holdem",)
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.rig_board = list(_BROADWAY)

    def force(self, h: Hand, s: int) -> tuple | None:
        return ("call",) if h.cur > h.bet[s] else ("check",)

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        pots = res["pots"]
        _, amount, _, high, _ = pots[0]
        if len(high) < 2 or amount // len(high) <= len(pots):
            return {}
        diffs = {}
        for s, a in _split(amount, high)[1:]:
            diffs[s] = -a
        diffs[high[0]] = -sum(diffs.values())
        return diffs


class OddChipWrong(TieNotSplit):
    name, rule = "odd_chip_wrong", POT_ODDCHIP_BUTTON

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        _, amount, _, high, _ = res["pots"][0]
        if len(high) < 2 or amount < len(high):
            return {}
        return {high[0]: -1, high[-1]: 1}


class HiloOddChip(_AwardInjector):
    name, rule = "hilo_odd_chip", POT_ODDCHIP_HILO
    variants = ("omaha_hilo",)

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        _, amount, _, high, low = res["pots"][0]
        if not low or len(high) != 1 or len(low) != 1 or high[0] == low[0] or amount < 4:
            return {}
        return {high[0]: -1, low[0]: 1}


class HiloScoop(_AwardInjector):
    name, rule = "hilo_scoop", POT_HILO_SPLIT
    variants = ("omaha_hilo",)

    def move(self, h: Hand, res: dict, rng: random.Random) -> dict[int, int]:
        pots = res["pots"]
        _, amount, _, high, low = pots[0]
        if not low or len(high) != 1 or len(low) != 1 or high[0] == low[0]:
            return {}
        half = amount // 2
        if half <= len(pots) or any(len(p[3]) > 1 or (p[4] and len(p[4]) > 1) for p in pots):
            return {}
        return {low[0]: -half, high[0]: half}


def _split(amount: int, winners: list[int]) -> list[tuple[int, int]]:
    q, r = divmod(amount, len(winners))
    return [(s, q + (1 if i < r else 0)) for i, s in enumerate(winners)]


class RakeOverCap(Injector):
    name, rule = "rake_over_cap", HOUSE_RAKE
    tournament = False

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        pot = res["pot_total"]
        if pot < 40:
            return False
        house = json.loads(game["house_overrides"]) if game["house_overrides"] else \
            {"rake.percent": 5, "rake.cap": 3 * t.bb}
        mx = min(pot * house["rake.percent"] // 100, house["rake.cap"])
        want = mx + 1 + rng.randrange(max(1, pot // 20))
        extra = want - res["rake"]
        awards = [e for e in ev if e[0] == "award" and e[5] != "uncalled"]
        if sum(e[2] for e in awards) <= extra:
            return False
        game["house_overrides"] = json.dumps(house, sort_keys=True)
        for e in reversed(awards):
            take = min(extra, e[2] - 1)
            e[2] -= take
            extra -= take
        if extra:
            return False
        ri = next((i for i, e in enumerate(ev) if e[0] == "rake"), None)
        if ri is None:
            first = next(i for i, e in enumerate(ev) if e[0] == "award" and e[5] != "uncalled")
            ev.insert(first, ["rake", None, want, None, None, "rake"])
        else:
            ev[ri][2] = want
        self.labels.append((None, self.rule, None, True))
        return True


# ----------------------------------------------------------------------------- forced bets


class BigBlindWrongSeat(Injector):
    """The big blind is posted by the seat after the one whose blind it is, who is dealt in
    without posting. Not when that seat has just come back from sitting out: he returned on
    his big blind, and dealt in without posting he also owes the blind he missed
    (BLIND-MISSED-UNPOSTED, which the replay then rightly reports on the same hand)."""

    name, rule = "big_blind_wrong_seat", BLIND_POSITIONS
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        if order[1] not in t.sat_out_before:
            self.blind_mode = "bb_skip"


class ShortAnte(Injector):
    """A player with chips posts less than the ante (tournament levels with an ante)."""

    name, rule = "short_ante", ANTE_AMOUNT
    tournament = True

    @classmethod
    def applicable(cls, t: Table, n: int) -> bool:
        return super().applicable(t, n) and t.ante > 1

    def prepare(self, t: Table, order: list[int]) -> None:
        s = order[self.rng.randrange(len(order))]
        if t.stacks[s] > t.ante:
            self.short_ante = (s, 1 + self.rng.randrange(t.ante - 1))


class MissedBlindsAllDead(Injector):
    """A player making up missed blinds posts small and big blind both dead (only the small
    blind goes in dead; the big blind is live)."""

    name, rule = "missed_blinds_all_dead", BLIND_MISSED
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        s = order[2 + self.rng.randrange(len(order) - 2)] if len(order) > 2 else 0
        if s and t.stacks[s] > 3 * (t.sb + t.bb):
            self.dead_post = (s, t.sb + t.bb)


class HeadsUpBlindsSwapped(Injector):
    name, rule = "headsup_blinds_swapped", BLIND_HEADSUP
    max_players = 2

    def prepare(self, t: Table, order: list[int]) -> None:
        self.blind_mode = "headsup_swap"


class StraddleWrongSize(Injector):
    name, rule = "straddle_wrong_size", STRADDLE_BIGBET
    structures = (PL, NL)
    tournament = False
    min_players = 4

    def prepare(self, t: Table, order: list[int]) -> None:
        self.straddle = 2 * t.bb + 1 + self.rng.randrange(t.bb)


class StraddleLimit(Injector):
    name, rule = "straddle_at_limit", STRADDLE_LIMIT
    structures = (FL,)
    tournament = False
    min_players = 4

    def prepare(self, t: Table, order: list[int]) -> None:
        self.straddle = 2 * t.bb


class StraddleTournament(Injector):
    name, rule = "straddle_in_tournament", STRADDLE_TOURN
    tournament = True
    min_players = 4

    def prepare(self, t: Table, order: list[int]) -> None:
        self.straddle = 2 * t.bb
