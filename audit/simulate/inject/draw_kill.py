"""Kill-pot injectors for the draw games: a kill of the wrong size, two kills in a deal, a
voluntary kill outside lowball, folds out of the kill order. The kill is posted after the
blinds (studdraw._kill) and the table plays the limits it sets."""

from __future__ import annotations

import random

from audit.rules.ids import KILL_ONE_PER_DEAL, KILL_SIZE, KILL_VOLUNTARY_LOWBALL, ORDER_KILL
from audit.simulate.inject.base import Injector
from audit.simulate.inject.studdraw_base import DrawInjector
from audit.simulate.play.engine import Hand
from audit.simulate.play.killtable import KILL_INJECTORS as CROSS_HAND_KILL_INJECTORS
from audit.simulate.play.killtable import is_kill_table
from audit.simulate.play.table import Table

KILL_GAMES = ("lowball_27_single", "lowball_27_triple", "lowball_a5", "badugi", "draw_high")


class _KillInjector(DrawInjector):
    """Posts kill blinds after the blinds (studdraw._kill) from seats with deep stacks."""

    variants = KILL_GAMES
    min_players = 3

    @classmethod
    def applicable(cls, t: Table, n: int) -> bool:
        # a required-kill table posts its own kills (audit/simulate/play/killtable.py): one more
        # would be a second kill in the deal, and its winner would owe the next
        return not is_kill_table(t) and super().applicable(t, n)

    def killers(self, h: Hand, t: Table, n: int, depth: int) -> list[int]:
        """n seats to kill from, or none when a newcomer sits here: a new player in a killed
        pot must kill the next deal (KILL-NEW-PLAYER), which the next deal would not do."""
        seated = {p.pid for p in t.players if p is not None}
        if not t.last_seated or not seated <= t.last_seated:
            return []
        deep = [s for s in h.order if h.stack[s] > depth]
        return self.rng.sample(deep, n) if len(deep) >= n else []


class KillWrongSize(_KillInjector):
    """A kill of three big blinds (a full kill is two, a half kill one and a half); the table
    plays the limits that kill set, as the replay does."""

    name, rule = "kill_wrong_size", KILL_SIZE

    def kills(self, h: Hand, t: Table) -> list[tuple[int, int, str]]:
        seats = self.killers(h, t, 1, 20 * h.bb)
        if not seats:
            return []
        self.done = True
        self.labels.append((None, self.rule, seats[0], True))  # row set in finish
        return [(seats[0], 3 * h.bb, "kill")]

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        return _label_posts(self, ev, "kill", 0)


class KillTwice(_KillInjector):
    """Two full kills in one deal (only one is allowed)."""

    name, rule = "kill_twice", KILL_ONE_PER_DEAL

    def kills(self, h: Hand, t: Table) -> list[tuple[int, int, str]]:
        seats = self.killers(h, t, 2, 20 * h.bb)
        if not seats:
            return []
        self.labels.append((None, self.rule, seats[1], True))
        return [(s, 2 * h.bb, "kill") for s in seats]

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        return _label_posts(self, ev, "kill", 1)


class VoluntaryKillNotLowball(_KillInjector):
    """A voluntary kill in badugi or draw high; the optional voluntary kill is a lowball rule
    (the killer acts last on the first round, as a voluntary killer does)."""

    name, rule = "voluntary_kill_not_lowball", KILL_VOLUNTARY_LOWBALL
    variants = ("badugi", "draw_high")

    def kills(self, h: Hand, t: Table) -> list[tuple[int, int, str]]:
        seats = self.killers(h, t, 1, 20 * h.bb)
        if not seats:
            return []
        self.labels.append((None, self.rule, seats[0], True))
        return [(seats[0], 2 * h.bb, "kill_voluntary")]

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        return _label_posts(self, ev, "kill_voluntary", 0)


class KillFoldOutOfTurn(_KillInjector):
    """A killed pot (a legal full kill) with two folds of the first round logged in the wrong
    order: the kill order decides that round's turns."""

    name, rule = "kill_fold_out_of_turn", ORDER_KILL

    def kills(self, h: Hand, t: Table) -> list[tuple[int, int, str]]:
        seats = self.killers(h, t, 1, 20 * h.bb)
        return [(seats[0], 2 * h.bb, "kill")] if seats else []

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        if not any(e[0] == "post" and e[5] == "kill" for e in ev):
            return False
        for i in range(len(ev) - 1):
            a, b = ev[i], ev[i + 1]
            if a[0] == b[0] == "fold" and a[6] == b[6] == 0:
                ev[i], ev[i + 1] = b, a
                self.labels.append((b, self.rule, b[1], True))
                return True
        return False


def _label_posts(inj: Injector, ev: list[list], detail: str, k: int) -> bool:
    """Put the label kills() filed on the k-th post of `detail` (the kill the replay flags)."""
    if not inj.labels:
        return False
    posts = [e for e in ev if e[0] == "post" and e[5] == detail]
    if len(posts) <= k:
        inj.labels.clear()
        return False
    _, rule, seat, primary = inj.labels[0]
    inj.labels[0] = (posts[k], rule, seat, primary)
    return True


KILL_INJECTORS = (KillWrongSize, KillTwice, VoluntaryKillNotLowball, KillFoldOutOfTurn,
            *CROSS_HAND_KILL_INJECTORS)
