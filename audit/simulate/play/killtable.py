"""Tables that play a required kill game across hands (RULEBOOK §4.13; 000 §12, 001 3.6,
002 §13): fixed-limit lowball and draw tables, and limit hold'em and Omaha hi-lo cash tables,
whose `game.house_overrides` say `"kill.required": true`, which is what the replay reads
(audit/sequence/kill.py).

A `KillTable` carries the kill state of one simulated table from hand to hand and posts the
kills the rules require (in hold'em and Omaha hi-lo through table.play_hand, kill_post.py):

- high-low (Omaha hi-lo): a scoop of a pot of at least five upper limits makes the scooper kill
  the next pot (KILL-TRIGGER, KILL-SCOOP-5X); a killer who scoops such a pot kills again;

- the winner of a pot holds the kill button (a leg up); winning the next pot too, with at least
  one full bet of the other players' money in it (no part of the blinds), makes him kill the
  next pot for a full kill, two big blinds (KILL-TRIGGER, KILL-LEG2). The simulator takes the
  lower limit as "one full bet"; the replay proves a second leg only from the upper limit up
  and questions none from the lower limit up, so both readings agree on every hand;
- a leg survives sitting out or leaving and coming back (KILL-LEG-PERSIST) and splitting the next
  pot (KILL-SPLIT-LEG); a pot split by players without a leg leaves the button neutral
  (KILL-BUTTON-NEUTRAL); a killer who wins again, or splits, kills again for the same amount;
- a player who owes a kill posts it: he neither leaves nor sits out before he has (KILL-MUST-POST);
- a new player does not play a killed pot (KILL-NEW-PLAYER lets him only by agreeing to kill the
  next one): he sits out his first deal when it is killed, and comes back for the big blind.

Alongside what the rules require, the table follows what the log will prove, as the replay
sees it: a deal pair is proven consecutive only when every player seated in both keeps his seat
and his chips (a rebuy breaks it), and the replay forgets the kill state across an unproven pair.
The cross-hand injectors (`KILL_INJECTORS`) act only where the log proves the breach, so their
labels are the findings the replay must make. A cross-hand finding lands on the hand where the
kill was (or was not) posted, and that is the hand labelled.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from audit.rules.ids import (
    KILL_BUTTON_NEUTRAL,
    KILL_LEG2,
    KILL_LEG_PERSIST,
    KILL_MUST_POST,
    KILL_NEW_PLAYER,
    KILL_SCOOP_5X,
    KILL_SPLIT_LEG,
    KILL_TRIGGER,
)
from audit.sequence.kill import Leg
from audit.simulate.inject.base import Injector
from audit.simulate.play.engine import FL, Hand
from audit.simulate.play.table import Table, _wait_for_the_big_blind, maintain

KILL_TABLE_GAMES = ("lowball_27_single", "lowball_27_triple", "lowball_a5", "badugi",
                    "draw_high", "holdem", "omaha_hilo")  # the button games at fixed limit
KILL_HOUSE = json.dumps({"kill.required": True}, sort_keys=True)
SCOOP_MULTIPLE = 5  # kill.scoop_multiple of every shipped profile (000 §12 r.8)
HAND_START: list = ["hand_started", None, None, None, None, None]  # a label at the hand's seq 0

_UP = frozenset({Leg.WON, Leg.KEPT_SPLIT, Leg.KEPT_AWAY})
_VOLUNTARY = ("bet", "raise", "call", "complete")
_KEPT_RULE = {Leg.KEPT_SPLIT: KILL_SPLIT_LEG, Leg.KEPT_AWAY: KILL_LEG_PERSIST}


def is_kill_table(t: Table) -> bool:
    return bool(t.house) and bool(json.loads(t.house).get("kill.required"))


@dataclass(frozen=True, slots=True, kw_only=True)
class KillDue:
    """A kill the next deal must carry."""

    pid: str
    amount: int
    rule_id: str  # the id the replay files when the kill is missing
    certain: bool  # the log proves it (the replay flags it when missing)


@dataclass(frozen=True, slots=True, kw_only=True)
class NotDue:
    """The last winner owes no kill, and the log proves it: the id a kill of his would draw."""

    pid: str
    rule_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What the kill rules read from one finished deal."""

    dealt: frozenset[str]
    winners: tuple[str, ...]
    from_others: int  # a sole winner's take of the others' bets, no blinds or kills
    killer: tuple[str, int] | None  # the first kill posted: (who, how much)
    pot: int = 0  # everything put in, less what went back uncalled
    shown_down: bool = False  # two or more players showed their hands


def outcome(ev: list[list], pid_of: dict[int, str]) -> Outcome:
    """The deal's outcome from its event rows (read the way the replay reads the log)."""
    dealt = frozenset(pid_of[e[1]] for e in ev if e[0] == "seat" and e[5] is None)
    put: dict[str, int] = {}
    bets: dict[str, int] = {}
    won: dict[str, int] = {}
    back: dict[str, int] = {}
    killer = None
    for e in ev:
        k = e[0]
        if e[1] is None or e[1] not in pid_of:
            continue
        p = pid_of[e[1]]
        if k == "post":
            put[p] = put.get(p, 0) + e[2]
            if killer is None and e[5] in ("kill", "kill_voluntary"):
                killer = (p, e[2])
        elif k in _VOLUNTARY:
            put[p] = put.get(p, 0) + e[2]
            bets[p] = bets.get(p, 0) + e[2]
        elif k == "award":
            into = back if e[5] == "uncalled" else won
            into[p] = into.get(p, 0) + e[2]
    winners = tuple(sorted(p for p, a in won.items() if a > 0))
    from_others = 0
    excess = 0
    if not sum(back.values()) and put:  # an uncalled excess the log does not show went back
        ranked = sorted(put.values(), reverse=True)
        excess = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
    pot = sum(put.values()) - sum(back.values()) - excess
    shown = len({e[1] for e in ev if e[0] == "show"})
    if len(winners) == 1:
        top = max(put, key=lambda p: put[p]) if put else None
        for p in put:
            if p != winners[0]:
                from_others += max(0, bets.get(p, 0) - back.get(p, 0)
                                   - (excess if p == top else 0))
    return Outcome(dealt=dealt, winners=winners, from_others=from_others, killer=killer,
                   pot=pot, shown_down=shown >= 2)


def advance_scoop(legs: dict[str, Leg], out: Outcome, killer_owed: bool, least: int,
                  needs_showdown: bool) -> tuple[KillDue | None, NotDue | None]:
    """High-low games (000 §12 r.8): a scoop of a pot of at least `least` (five upper limits)
    makes the scooper kill the next pot; a killer who scoops such a pot kills again for the
    same amount. The log proves a scoop only at a showdown (`needs_showdown`)."""
    legs.clear()
    if len(out.winners) != 1:
        return None, None
    w, killer = out.winners[0], out.killer
    if out.pot >= least:
        if killer is not None and killer[0] == w and killer_owed:
            return KillDue(pid=w, amount=killer[1], rule_id=KILL_MUST_POST,
                           certain=True), None
        return KillDue(pid=w, amount=0, rule_id=KILL_TRIGGER,
                       certain=out.shown_down or not needs_showdown), None
    if killer is None or killer[0] != w:
        return None, NotDue(pid=w, rule_id=KILL_SCOOP_5X)
    return None, None


def advance(legs: dict[str, Leg], out: Outcome, killer_owed: bool, due_from: int,
            short_below: int) -> tuple[KillDue | None, NotDue | None]:
    """Carry `legs` past a deal; the kill the next deal owes, or the proof that the last winner
    owes none. A second leg takes at least `due_from` of the others' bets and fails below
    `short_below` (the rules say one full bet: the rules' holder uses the lower limit for both,
    the log proves a second leg only from the upper limit up). `killer_owed`: the deal's kill
    was a required one."""
    for p, leg in list(legs.items()):
        if p not in out.dealt and leg in _UP:
            legs[p] = Leg.KEPT_AWAY  # 000 §12 r.5
    for p in out.dealt - set(out.winners):
        legs[p] = Leg.NONE
    killer = out.killer
    if len(out.winners) > 1:  # a split pot (000 §12 r.1, r.4)
        due = None
        for p in out.winners:
            if killer is not None and killer[0] == p:
                due = KillDue(pid=p, amount=killer[1], rule_id=KILL_SPLIT_LEG,
                              certain=killer_owed)
                legs.pop(p, None)
            elif legs.get(p) in _UP:
                legs[p] = Leg.KEPT_SPLIT
            elif p in legs:
                legs[p] = Leg.NONE_SPLIT
        return due, None
    if not out.winners:
        return None, None
    w = out.winners[0]
    before = legs.get(w)
    legs[w] = Leg.WON
    killed = killer is not None and killer[0] == w
    if killed and killer_owed:
        return KillDue(pid=w, amount=killer[1], rule_id=KILL_MUST_POST, certain=True), None
    won = out.from_others
    if before is None or before in _UP:
        if won >= due_from:
            return KillDue(pid=w, amount=0, rule_id=_KEPT_RULE.get(before, KILL_TRIGGER),
                           certain=before is not None), None
        if won < short_below and before is not None and not killed:
            return None, NotDue(pid=w, rule_id=KILL_LEG2)
        return None, None
    if killed:
        return None, None
    if before is Leg.NONE_SPLIT:
        return None, NotDue(pid=w, rule_id=KILL_BUTTON_NEUTRAL)
    return None, NotDue(pid=w, rule_id=KILL_TRIGGER)


class KillTable:
    """One simulated table's required-kill state across hands."""

    __slots__ = ("legs", "due", "known", "known_due", "known_not_due", "ends", "proven",
                 "owed_kill", "small_bet", "big_bet", "newcomers", "newcomer_owes", "hilo",
                 "newcomers_proven")

    @property
    def seated_before(self) -> frozenset[str] | dict[str, tuple[int, int]]:
        """The players seated in the table's previous deal (sitting out or not)."""
        return self.ends or frozenset()

    def __init__(self, t: Table) -> None:
        house = json.loads(t.house) if t.house else {}  # a raked table keeps its rake
        t.house = json.dumps({**house, "kill.required": True}, sort_keys=True)
        self.hilo = t.variant == "omaha_hilo"
        self.legs: dict[str, Leg] = {}  # what the rules hold
        self.due: KillDue | None = None
        self.known: dict[str, Leg] = {}  # what the log proves, as the replay follows it
        self.known_due: KillDue | None = None
        self.known_not_due: NotDue | None = None
        self.ends: dict[str, tuple[int, int]] | None = None  # pid -> (seat, chips) at the end
        self.proven = False  # this deal follows the last one provably (same seats and chips)
        self.owed_kill = False  # this deal's kill is the one the last deal made due
        self.small_bet, self.big_bet = t.bb, 2 * t.bb
        self.newcomers: list[str] = []  # new players dealt into a killed pot: one kills the next
        self.newcomer_owes: list[str] = []
        self.newcomers_proven = False

    # ----------------------------------------------------------------- between hands

    def maintain(self, t: Table, rng: random.Random, new_player, leave, rejoin) -> None:
        """table.maintain, then the kill rules on who plays: the player who owes a kill stays
        and is dealt in; a newcomer sits out a killed deal."""
        old_button, was_out = t.button, list(t.out)
        before = list(zip(t.players, t.stacks, strict=True))
        maintain(t, rng, new_player, leave)
        changed = False
        due = self.due
        if due is not None:
            s = next((s for s, (p, _c) in enumerate(before) if p is not None and p.pid == due.pid),
                     0)
            taken = t.players[s] if s else None
            if taken is not None and taken.pid != due.pid and taken.pid not in self.seated_before:
                leave(taken.pid)  # a newcomer took the seat he left: he takes another deal
                t.players[s] = None
            if s and t.players[s] is None:  # he would leave: a required kill is posted first
                p, chips = before[s]
                t.players[s] = p
                t.stacks[s] = chips if chips >= 3 * t.bb + t.ante else max(t.buyin, 25 * t.bb)
                t.out[s] = False
                rejoin(p.pid)
                changed = True
            if s and t.players[s] is not None and t.players[s].pid == due.pid and t.out[s]:
                t.out[s] = False
                changed = True
        if due is not None or self.newcomer_owes:  # a killed deal ahead
            newcomers = [n for n in range(1, t.seat_count + 1)
                         if t.players[n] is not None and not t.out[n]
                         and t.players[n].pid not in self.seated_before
                         and (due is None or t.players[n].pid != due.pid)]
            playing = sum(1 for n in range(1, t.seat_count + 1)
                          if t.players[n] is not None and not t.out[n])
            if newcomers and playing - len(newcomers) >= 2 and rng.random() < 0.5:
                for n in newcomers:
                    t.out[n] = True  # a new player sits out a killed pot
                changed = True
            else:  # or plays it, agreeing to kill the next pot (KILL-NEW-PLAYER)
                self.newcomers = [t.players[n].pid for n in newcomers]
        if changed:
            t.button = old_button
            active = [s for s in range(1, t.seat_count + 1)
                      if t.players[s] is not None and not t.out[s]]
            if not t.tournament:
                active = _wait_for_the_big_blind(t, active, was_out)
            after = [s for s in active if s > old_button]
            t.button = after[0] if after else active[0]
        ends = self.ends
        self.proven = ends is not None and all(
            ends.get(p.pid, (s, t.stacks[s])) == (s, t.stacks[s])
            for s, p in enumerate(t.players) if p is not None)
        if not self.proven:  # the replay forgets the kill state across an unproven pair
            self.known.clear()
            self.known_due, self.known_not_due = None, None

    # ------------------------------------------------------------------ this hand's kill

    def seat_of(self, t: Table, pid: str) -> int:
        return next((s for s, p in enumerate(t.players) if p is not None and p.pid == pid), 0)

    def kills(self, t: Table, script: object | None) -> list[tuple[int, int, str]]:
        """The kill posts of this deal (after the blinds): the one the rules require, as a
        cross-hand injector may change it."""
        due = self.due
        posts: list[tuple[int, int, str]] = []
        if due is not None:
            s = self.seat_of(t, due.pid)
            if s and not t.out[s]:
                posts = [(s, due.amount or 2 * t.bb, "kill")]
        else:  # a new player who played a killed pot kills this one (KILL-NEW-PLAYER)
            seats = [self.seat_of(t, p) for p in self.newcomer_owes]
            posts = [(s, 2 * t.bb, "kill") for s in seats if s and not t.out[s]][:1]
        for s, amount, _d in posts:
            if t.stacks[s] < amount + t.bb:
                # he buys chips before the deal, to post his blind and the full kill; a rebuy
                # breaks the log's proof that this deal follows the last one
                t.stacks[s] = max(t.buyin, 25 * t.bb)
                self.proven = False
                self.known.clear()
                self.known_due, self.known_not_due = None, None
        self.owed_kill = bool(posts)
        if isinstance(script, KillTableInjector):
            posts = script.alter(self, t, posts)
            self.owed_kill = bool(posts) and self.owed_kill
        return posts

    def after(self, t: Table, ev: list[list]) -> None:
        """Carry the state past the deal just played (its rows `ev`; stacks already settled)."""
        pid_of = {s: p.pid for s, p in enumerate(t.players) if p is not None}
        out = outcome(ev, pid_of)
        self.newcomer_owes = self.newcomers if out.killer is not None else []
        self.newcomers = []
        # the log shows them new only when this deal provably follows the one before
        self.newcomers_proven = self.proven
        posted = out.killer is not None
        due, known_due = self.due, self.known_due
        if due is not None and not posted:
            self.legs.pop(due.pid, None)  # a kill owed and not posted: past it, nothing is owed
        if known_due is not None and known_due.certain and not posted and self.proven:
            self.known.pop(known_due.pid, None)
        killer_known = (posted and self.proven and known_due is not None and known_due.certain
                        and out.killer is not None and known_due.pid == out.killer[0]
                        and self.owed_kill)
        # a killer who wins again kills again, even one whose kill nobody required (an
        # injected one): winning it is what the replay then reads as a second leg
        if self.hilo:
            least = SCOOP_MULTIPLE * self.big_bet
            self.due, _ = advance_scoop(self.legs, out, True, least, False)
            self.known_due, self.known_not_due = advance_scoop(self.known, out, killer_known,
                                                               least, True)
        else:
            for p in out.dealt:  # the rules' holder knows everyone: a player new here has no leg
                self.legs.setdefault(p, Leg.NONE)
            self.due, _ = advance(self.legs, out, True, self.small_bet, self.small_bet)
            self.known_due, self.known_not_due = advance(self.known, out, killer_known,
                                                         self.big_bet, self.small_bet)
        self.ends = {p.pid: (s, t.stacks[s]) for s, p in enumerate(t.players) if p is not None}


# ------------------------------------------------------------------------ the injectors


class KillTableInjector(Injector):
    """A cross-hand kill injector: it changes the kill posts of one deal at a kill table (the
    finding lands on that deal, the one labelled)."""

    structures = (FL,)
    variants = KILL_TABLE_GAMES
    min_players = 3

    @classmethod
    def applicable(cls, t: Table, n: int) -> bool:
        return is_kill_table(t) and super().applicable(t, n)

    def alter(self, kt: KillTable, t: Table, posts: list[tuple[int, int, str]]
              ) -> list[tuple[int, int, str]]:
        return posts

    def label_start(self, rule: str, seat: int) -> None:
        self.done = True
        self.labels.append((HAND_START, rule, seat, True))


class KillNotPosted(KillTableInjector):
    """The player who owes the kill is dealt in and does not post it: the replay files the id
    that made the kill due (KILL-TRIGGER, KILL-SPLIT-LEG, KILL-LEG-PERSIST, KILL-MUST-POST)."""

    name, rule = "kill_not_posted", KILL_TRIGGER

    def alter(self, kt: KillTable, t: Table, posts: list[tuple[int, int, str]]
              ) -> list[tuple[int, int, str]]:
        due = kt.known_due
        if not posts or not kt.proven or due is None or not due.certain \
                or kt.due is None or kt.due.pid != due.pid:
            return posts
        self.label_start(due.rule_id, posts[0][0])
        return []


class KillNotOwed(KillTableInjector):
    """The last winner kills a pot the log proves he did not owe: his first pot in a row
    (KILL-TRIGGER), a second pot without a full bet won (KILL-LEG2), a first leg after a
    neutral button (KILL-BUTTON-NEUTRAL)."""

    name, rule = "kill_not_owed", KILL_TRIGGER

    def alter(self, kt: KillTable, t: Table, posts: list[tuple[int, int, str]]
              ) -> list[tuple[int, int, str]]:
        nd = kt.known_not_due
        if posts or not kt.proven or nd is None or kt.due is not None:
            return posts
        s = kt.seat_of(t, nd.pid)
        newcomers = any(p is not None and not t.out[n] and p.pid not in kt.seated_before
                        for n, p in enumerate(t.players))
        if not s or t.out[s] or newcomers or t.stacks[s] < 6 * t.bb:
            return posts  # a killed pot with a newcomer would owe the next kill too
        self.done = True
        self.labels.append((None, nd.rule_id, s, True))  # the row is the kill (finish)
        return [(s, 2 * t.bb, "kill")]

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        if not self.labels:
            return False
        post = next((e for e in ev if e[0] == "post" and e[5] == "kill"), None)
        if post is None:
            self.labels.clear()
            return False
        _, rule, seat, primary = self.labels[0]
        self.labels[0] = (post, rule, seat, primary)
        return True


class NewPlayerKillSkipped(KillTableInjector):
    """New players played a killed pot, agreeing to kill the next one, and nobody kills it:
    the replay files KILL-NEW-PLAYER for each of them dealt in here."""

    name, rule = "new_player_kill_skipped", KILL_NEW_PLAYER

    def alter(self, kt: KillTable, t: Table, posts: list[tuple[int, int, str]]
              ) -> list[tuple[int, int, str]]:
        if not posts or kt.due is not None or kt.known_due is not None or not kt.proven \
                or not kt.newcomers_proven or not kt.newcomer_owes:
            return posts
        for pid in kt.newcomer_owes:
            s = kt.seat_of(t, pid)
            if s and not t.out[s]:
                self.label_start(self.rule, s)
        return []


KILL_INJECTORS = (KillNotPosted, KillNotOwed, NewPlayerKillSkipped)
