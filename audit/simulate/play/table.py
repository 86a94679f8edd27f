"""Simulated tables: seats, players arriving, leaving, sitting out and rebuying, the button and
blinds moving hand to hand, stacks carried between hands, tournament blind levels.

`play_hand` plays one hand of a table through the engine (agents, colluders and an optional
injector's script) and returns its event rows; the table's stacks are updated from the
events' awards, so the next hand starts where this one ended.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from audit.rules.ids import ANTE_AMOUNT, BLIND_HEADSUP, BLIND_MISSED, BLIND_POSITIONS
from audit.simulate.play import agents
from audit.simulate.play.engine import (
    CARD,
    FL,
    NL,
    PL,
    STRUCTURE_CODE,
    Hand,
    award_rows,
    play,
    settle,
)
from audit.simulate.play.kill_post import post_kill

HOLE_N = {"holdem": 2, "omaha": 4, "omaha_hilo": 4}
CASH_STAKES = ((5, 10), (25, 50), (50, 100), (100, 200), (200, 400))
TOURNEY_LEVELS = ((25, 50, 0), (50, 100, 0), (100, 200, 25), (200, 400, 50), (400, 800, 100),
                  (800, 1600, 200))
HANDS_PER_LEVEL = 40
STUD_GAMES = ("stud", "stud_hilo", "razz", "stud5", "mississippi")
DRAW_GAMES = ("lowball_27_single", "lowball_27_triple", "badugi", "draw_high", "lowball_a5",
              "jacks_or_better")  # the last two: audit/simulate/play/lowball.py


class Player:
    __slots__ = ("pid", "style", "team", "role")

    def __init__(self, pid: str, style: int, team: int = -1, role: int = 0) -> None:
        self.pid = pid
        self.style = style
        self.team = team
        self.role = role


class Table:
    """One table's persistent state across hands."""

    __slots__ = ("tid", "seat_count", "variant", "structure", "tournament", "sb", "bb", "level",
                 "raked", "house", "players", "stacks", "out", "button", "hands", "buyin",
                 "clock", "team_style", "team_strength", "last_seated", "sat_out_before",
                 "policy")

    def __init__(self, tid: str, seat_count: int, variant: str, structure: str,
                 tournament: bool, rng: random.Random) -> None:
        self.tid = tid
        self.seat_count = seat_count
        self.variant = variant
        self.structure = structure
        self.tournament = tournament
        self.level = 0
        if tournament:
            self.sb, self.bb, _ = TOURNEY_LEVELS[0]
        else:
            self.sb, self.bb = CASH_STAKES[rng.randrange(len(CASH_STAKES))]
        self.raked = not tournament and rng.random() < 0.6
        if variant in STUD_GAMES or variant in DRAW_GAMES:
            self.raked = False  # stud and draw tables are simulated without rake
        self.house = (json.dumps({"rake.percent": 5, "rake.cap": 3 * self.bb}, sort_keys=True)
                      if self.raked else None)
        self.players: list[Player | None] = [None] * (seat_count + 1)
        self.stacks = [0] * (seat_count + 1)
        self.out = [False] * (seat_count + 1)
        self.button = 0
        self.hands = 0
        self.buyin = self.bb * (20 if structure == "fixed_limit" else 100)
        if tournament:
            self.buyin = 1500
        self.clock = 0
        self.team_style = ""
        self.team_strength = 0.0
        # the players seated in the table's previous deal (draw tables: a kill injector keeps
        # off a killed pot with a newcomer, who would owe KILL-NEW-PLAYER on the next deal)
        self.last_seated: frozenset[str] = frozenset()
        # the seats sitting out in the table's previous deal (set by maintain): one dealt in
        # now has just come back, and the replay expects him to post (BLIND-MISSED-UNPOSTED)
        self.sat_out_before: frozenset[int] = frozenset()
        # a population's decisions (population.py): (table, hand, seat, rng) -> decision, or
        # None to leave the seat to the default agents
        self.policy: Callable[[Table, Hand, int, random.Random], tuple | None] | None = None

    @property
    def ante(self) -> int:
        level = TOURNEY_LEVELS[self.level][2] if self.tournament else 0
        if self.variant in STUD_GAMES:  # stud: an ante from every seat, about a fifth of a bet
            return max(level, self.bb // 5, 1)
        if self.variant == "jacks_or_better":  # antes and no blinds
            return max(level, self.bb // 2, 1)
        return level

    def game(self, house: str | None = None) -> dict:
        fl = self.structure == "fixed_limit"
        if self.variant in STUD_GAMES:  # sb is the bring-in, bb the small bet; no blinds
            return {**self._game(True, house), "small_blind": None, "big_blind": None,
                    "bring_in": self.sb}
        if self.variant == "jacks_or_better":  # antes only; sb and bb only size the bets
            return {**self._game(fl, house), "small_blind": None, "big_blind": None}
        return self._game(fl, house)

    def _game(self, fl: bool, house: str | None) -> dict:
        return {
            "variant": self.variant, "structure": self.structure, "small_blind": self.sb,
            "big_blind": self.bb, "small_bet": self.bb if fl else None,
            "big_bet": 2 * self.bb if fl else None, "ante": self.ante, "bring_in": None,
            "straddle": None, "min_bet": None, "button_seat": self.button,
            "seat_count": self.seat_count, "currency": "CHIPS" if self.tournament else "USD",
            "minor_per_unit": 1 if self.tournament else 100, "tournament": self.tournament,
            "level": self.level + 1 if self.tournament else None, "dead_button": False,
            "profile": "montana", "house_overrides": house if house is not None else self.house,
        }


def _big_blind_seat(active: list[int], button: int) -> int:
    """The seat that posts the big blind when the button moves on from `button`."""
    after = [s for s in active if s > button]
    new_button = after[0] if after else active[0]
    order = [s for s in active if s > new_button] + [s for s in active if s <= new_button]
    return order[0] if len(order) == 2 else order[1]


def _wait_for_the_big_blind(t: Table, active: list[int], was_out: list[bool]) -> list[int]:
    """A cash player coming back from sitting out waits for the big blind (000 §3 r.10-11):
    he is dealt in again only on the deal where the big blind is his (the blind he missed is
    then the one he posts), so the simulated log never owes BLIND-MISSED-UNPOSTED."""
    for _ in range(4):
        waiting = [s for s in active if was_out[s]]
        if not waiting or len(active) < 2:
            return active
        bb = _big_blind_seat(active, t.button)
        late = [s for s in waiting if s != bb]
        if not late:
            return active
        for s in late:
            t.out[s] = True
        active = [s for s in active if s not in late]
    return active


def maintain(t: Table, rng: random.Random, new_player, leave) -> None:
    """Between hands: leave, arrive, sit out, come back, rebuy; move the button."""
    if t.tournament and t.hands and t.hands % HANDS_PER_LEVEL == 0 \
            and t.level + 1 < len(TOURNEY_LEVELS):
        t.level += 1
        t.sb, t.bb, _ = TOURNEY_LEVELS[t.level]
    n = t.seat_count
    minimum = 3 * t.bb + t.ante
    was_out = list(t.out)
    t.sat_out_before = frozenset(s for s in range(1, n + 1)
                                 if t.players[s] is not None and was_out[s])
    for s in range(1, n + 1):
        p = t.players[s]
        if p is None:
            if rng.random() < 0.08:
                t.players[s] = new_player(t)
                t.stacks[s] = max(t.buyin * (60 + rng.randrange(41)) // 100, 25 * t.bb)
                t.out[s] = False
            continue
        colluder = p.team >= 0
        if not colluder and rng.random() < 0.012:
            t.players[s] = None
            leave(p.pid)
            continue
        if t.stacks[s] < minimum:
            if not colluder and rng.random() < 0.3:
                t.players[s] = None  # busted and gone
                leave(p.pid)
                continue
            t.stacks[s] = max(t.buyin, 25 * t.bb)  # rebuy / re-entry
        if not colluder:
            if t.out[s]:
                t.out[s] = rng.random() < 0.6
            else:
                t.out[s] = rng.random() < 0.01
    active = [s for s in range(1, n + 1) if t.players[s] is not None and not t.out[s]]
    for _ in range(4):  # returners wait for the big blind; a table short of two gets players
        if not t.tournament:
            active = _wait_for_the_big_blind(t, active, was_out)
        if len(active) >= 2:
            break
        active = _fill(t, rng, new_player, active)
    active = _fill(t, rng, new_player, active)
    after = [s for s in active if s > t.button]
    t.button = after[0] if after else active[0]
    t.hands += 1


def _fill(t: Table, rng: random.Random, new_player, active: list[int]) -> list[int]:
    """Seat players until two can play: newcomers first, else someone sitting out."""
    n = t.seat_count
    while len(active) < 2:
        free = [s for s in range(1, n + 1) if t.players[s] is None]
        if free:
            s = free[rng.randrange(len(free))]
            t.players[s] = new_player(t)
            t.stacks[s] = max(t.buyin, 25 * t.bb)
        else:
            s = next(s for s in range(1, n + 1) if t.out[s])
        t.out[s] = False
        active = sorted(set(active) | {s})
    return active


class Script:
    """What an injector adds to one hand: forced decisions, rigged stacks/deck/posts, and the
    labels it produced. The orchestrator calls `force` before each agent decision."""

    blind_mode = ""  # "" | "bb_skip" | "headsup_swap"
    straddle = 0  # straddle amount to post (0 = none)
    short_ante: tuple[int, int] | None = None  # (seat, amount) posting a wrong ante
    dead_post: tuple[int, int] | None = None  # (seat, amount) posted dead as a missed blind
    rig_board: list[int] | None = None
    stacks: dict[int, int] | None = None
    rule = ""
    no_rake = False
    labels: list  # (event row, rule, seat, primary)

    def __init__(self) -> None:
        self.labels = []

    def setup(self, h: Hand, t: Table) -> bool:
        return True

    def force(self, h: Hand, s: int) -> tuple | None:
        return None


def play_hand(t: Table, rng: random.Random, script: Script | None,
              deck: list[int] | None = None, straddle_rate: float = 0.05,
              kills: list[tuple[int, int, str]] | None = None
              ) -> tuple[list[list], Hand, dict]:
    """Play one hand; returns (event rows after hand_started, the hand, the settlement).
    `kills`: the kill blinds a required-kill table owes this deal (killtable.py)."""
    size = t.seat_count + 1
    structure = STRUCTURE_CODE[t.structure]
    h = Hand(size, structure, t.sb, t.bb, t.tournament, t.variant == "omaha_hilo",
             HOLE_N[t.variant], t.button)
    ev = h.ev
    players = t.players
    for s in range(1, size):
        p = players[s]
        if p is None:
            continue
        if t.out[s]:
            ev.append(["seat", s, t.stacks[s], None, None, "sitting_out"])
        else:
            ev.append(["seat", s, t.stacks[s], None, None, None])
            h.seat(s, t.stacks[s])
    if script is not None and script.stacks:
        for s, v in script.stacks.items():
            h.stack[s] = h.start[s] = v
        for e in ev:
            if e[1] in script.stacks:
                e[2] = script.stacks[e[1]]
    h.begin()
    order = h.order
    if t.ante:
        short = script.short_ante if script is not None else None
        for s in order:
            if short is not None and short[0] == s:
                h.post(s, "ante", short[1])
                script.labels.append((ev[-1], ANTE_AMOUNT, s, True))
            else:
                h.post(s, "ante", t.ante)
    headsup = len(order) == 2
    mode = script.blind_mode if script is not None else ""
    if headsup:
        sbs, bbs = (order[0], order[1]) if mode == "headsup_swap" else (order[1], order[0])
    else:
        sbs, bbs = order[0], order[1]
    post_sb = h.post
    post_sb(sbs, "small_blind", t.sb)
    if mode == "bb_skip":
        bbs = order[2]
    h.post(bbs, "big_blind", t.bb)
    if mode:
        script.labels.append((ev[-1], BLIND_HEADSUP if headsup else BLIND_POSITIONS,
                              bbs, True))
        if headsup:
            script.labels.append((ev[-2], BLIND_HEADSUP, sbs, True))
    for s, amount, detail in kills or ():
        post_kill(h, s, amount, detail)
    st = script.straddle if script is not None else 0
    if script is None and not t.tournament and structure != FL and len(order) >= 4 \
            and rng.random() < straddle_rate:
        st = 2 * t.bb
    if st and len(order) >= 4:
        s3 = order[2]
        if h.stack[s3] > st + 2 * t.bb:
            h.post(s3, "straddle", st)
            if script is not None and script.straddle:
                script.labels.append((ev[-1], script.rule, s3, True))
    if script is not None and script.dead_post is not None:
        s, amount = script.dead_post
        h.post(s, "missed_small", amount)
        script.labels.append((ev[-1], BLIND_MISSED, s, True))
    if deck is None:
        deck = list(range(52))
        rng.shuffle(deck)
    rig = script.rig_board if script is not None else None
    if rig:
        deck = [c for c in deck if c not in rig]
    h.deck = deck
    h.deal_holes()
    if rig:
        # popped from the end: burn, flop (3), burn, turn, burn, river
        burns = [deck.pop(0) for _ in range(3)]
        deck.extend([rig[4], burns[0], rig[3], burns[1], rig[2], rig[1], rig[0], burns[2]])
    styles = [players[s].style if players[s] is not None else 0 for s in range(size)]
    teams = _teams(t, h)
    force = script.force if script is not None else None
    decide = agents.decide
    policy = t.policy
    while True:
        while h.to_act:
            s = h.to_act
            act = force(h, s) if force is not None else None
            if act is None and policy is not None:
                act = policy(t, h, s, rng)
            if act is None and teams:
                partner, role = teams.get(s, (0, 0))
                if partner:
                    act = agents.collude(h, s, partner, t.team_style, t.team_strength, role, rng)
            if act is None:
                act = decide(h, s, styles[s], rng)
            play(h, s, act, ev, script, act[2] if len(act) > 2 else None)
        if h.remaining() <= 1 or h.street == 3:
            break
        h.deal_board()
    raked = t.raked and not (script is not None and script.no_rake)
    res = settle(h, 5 if raked else 0, 3 * t.bb)
    if res["refund"]:
        ev.append(["award", res["refund_seat"], res["refund"], None, None, "uncalled"])
    if res["showdown"]:
        for s in res["contenders"]:
            ev.append(["show", s, None, None, " ".join([CARD[c] for c in h.hole[s]]), None])
    if res["rake"]:
        ev.append(["rake", None, res["rake"], None, None, "rake"])
    ev.extend(award_rows(res))
    ev.append(["hand_ended", None, None, None, None, None])
    return ev, h, res


def _teams(t: Table, h: Hand) -> dict[int, tuple[int | tuple[int, ...], int]]:
    """seat -> (partner seat, role) for dealt-in colluders whose partner is dealt in; with three
    or more of a team dealt in, the partner is the tuple of the others' seats."""
    if not t.team_style:
        return {}
    seats: dict[int, list[tuple[int, int]]] = {}
    for s in h.order:
        p = t.players[s]
        if p is not None and p.team >= 0:
            seats.setdefault(p.team, []).append((s, p.role))
    out = {}
    for members in seats.values():
        if len(members) == 2:
            (a, ra), (b, rb) = members
            out[a] = (b, ra)
            out[b] = (a, rb)
        elif len(members) > 2:
            for s, role in members:
                out[s] = (tuple(m for m, _ in members if m != s), role)
    return out


def stacks_after(t: Table, h: Hand, ev: list[list]) -> None:
    """Carry stacks to the next hand: start - put in + awarded."""
    for s in h.order:
        t.stacks[s] = h.start[s] - h.contrib[s]
    for e in ev:
        if e[0] == "award" and e[1]:
            t.stacks[e[1]] += e[2]
    for s in h.order:
        if t.stacks[s] < 0:
            t.stacks[s] = 0


__all__ = ["FL", "NL", "PL", "Player", "Script", "Table", "maintain", "play_hand",
           "stacks_after"]
