"""The "rulebook" colluder population (issue 25): honest players and colluding teams designed
from the rule texts (RULEBOOK §4.17 and the seeds it cites), not from the detectors or the
simulator's own colluders (agents.collude), so the detectors can be measured on play they were
not built against.

- Six honest types of its own (not agents.STYLES): tight-passive, tight-aggressive,
  loose-passive, loose-aggressive, loose-aggressive *regulars* (a group who sit at one table
  and never leave: thousands of hands together, honest) and maniacs.
- Teams (`TEAM_PLAN`, one style each, cycled): soft play, chip dumping, whipsaw, check-down
  against a third player's all-in, card sharing, and a team of three. A team colludes in a share
  `colluding_share` of the hands where two or more of its members are dealt in (one coin per
  team per hand); in the other hands its members play their honest type. Every hand a team
  colluded in is listed in colluding_hands.parquet, with the decisions the team's collusion made
  in it and how many of them *changed* the play: differed from what the player's honest type
  would have done in the same spot, with the same cards and the same random draw. A team that
  changed few decisions left little to find, whatever the detector (the scorecard prints both).

What each style does, from the rule text it is written from:

- soft_play (PATTERN-SOFTPLAY, "always checking through whenever heads-up against one particular
  opponent, i.e. not betting good hands and not bluffing against him"): with only teammates
  left, never bet or raise, check or call.
- chip_dump (PATTERN-CHIP-DUMP, "large bets or calls with hopeless hands into one account, folds
  after heavy investment, one-directional transfers"): the receiver enters cheap pots, the
  dumper follows him in; heads-up after the flop he bets the pot whatever he holds, the
  receiver raises, the dumper folds.
- whipsaw (PATTERN-WHIPSAW, "two players repeatedly re-raising each other while a third player
  is caught calling in between"): after the flop, with a third player still in with chips, a
  partner bets and the other raises his partner's bets (up to three team raises a street); no
  soft play: heads-up against each other they play honestly.
- check_down (PATTERN-CHECKDOWN-ALLIN, "agreeing to check a hand down when a third player is
  all-in"): behind a third player's all-in they never bet, whatever they hold; they call a third
  player's shove together (a wide range: ganging up on the shover) and follow short stacks
  into pots preflop.
- card_share (PATTERN-BOT-RTA "play as if with knowledge of others' hole cards", PATTERN-
  COLLUSION): the partner who holds the weaker hand gives way (checks, folds to a bet) to the
  stronger one; the stronger plays as if the partner's cards were dead (a little boost).
- team_of_three (PATTERN-COLLUSION): three players; soft play among themselves, whipsaw when a
  third player is in.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from audit.errors import AuditInputError
from audit.simulate.play.agents import strength
from audit.simulate.play.engine import NL, PL, Hand
from audit.simulate.play.table import Player, Table

POPULATION_FAMILIES = ("sim", "rulebook")

# name: (enter threshold, preflop raise share, postflop aggression, bluff, call threshold)
HONEST_TYPES: dict[str, tuple[float, float, float, float, float]] = {
    "tight_passive": (0.58, 0.25, 0.25, 0.02, 0.55),
    "tight_aggressive": (0.54, 0.70, 0.55, 0.07, 0.50),
    "loose_passive": (0.36, 0.15, 0.20, 0.03, 0.36),
    "loose_aggressive": (0.37, 0.60, 0.60, 0.18, 0.45),
    "lag_regular": (0.36, 0.65, 0.62, 0.20, 0.45),
    "maniac": (0.30, 0.80, 0.75, 0.30, 0.40),
}
_TYPE_NAMES = tuple(HONEST_TYPES)
TEAM_PLAN = ("soft_play", "chip_dump", "whipsaw", "check_down", "card_share",
             "soft_play", "chip_dump", "whipsaw", "check_down", "card_share", "team_of_three")
REGULAR_GROUP = 10_000  # Player.team of a regulars' group: maintain() keeps team >= 0 seated
_REGULARS_PER_TABLE = 3
_TEAM_RAISES = 3  # team raises per street when whipsawing
NOISE = 0.12  # the width of the uniform noise on an honest player's hand strength


# sees every decision of the population's players, before it is played (the population, table,
# hand, seat, decision): audit/devtools/collusion_ceiling.py reads the spots off it
Watch = Callable[["Population", Table, Hand, int, tuple], None]


@dataclass(frozen=True, slots=True)
class Team:
    team_id: int
    style: str
    members: tuple[str, ...]
    table_id: str


class Population:
    """The rulebook population of one run: player types, teams, and the table policies that
    play them (Table.policy); `hand_done` lists the teams that colluded in the hand just
    played."""

    def __init__(self, share: float, watch: Watch | None = None) -> None:
        if not 0 <= share <= 1:
            raise AuditInputError(f"colluding share {share}: give 0..1")
        self.share = share
        self.watch = watch
        self.kind: dict[str, str] = {}  # pid -> honest type
        self.team_of: dict[str, Team] = {}
        self.role: dict[str, int] = {}
        self.teams: list[Team] = []
        # (hand_id, team_id, collusive decisions, of them changed from honest play)
        self.colluded: list[tuple[str, int, int, int]] = []
        self._on: set[int] = set()  # the teams colluding in the hand being played
        self._hand: Hand | None = None
        self._raises: dict[tuple[int, int], int] = {}
        self._moves: dict[int, list[int]] = {}  # team -> [decisions, changed] this hand

    # ------------------------------------------------------------------ setup
    def setup(self, tabs: list[Table], pool_size: int, k: int, rng: random.Random,
              seed: int, seated: set[str]) -> list[Player]:
        """The player pool (six honest types), `k` teams seated (cycling TEAM_PLAN, spread over
        the tables) and a group of loose-aggressive regulars at every other table."""
        if k > len(tabs) * 2:
            raise AuditInputError(f"--colluders {k}: at most two rulebook teams a table; use "
                                  f"--tables {(k + 1) // 2} or more")
        pool: list[Player] = []
        for i in range(pool_size):
            p = Player(f"p{seed}_{i:05d}", 0)
            self.kind[p.pid] = _TYPE_NAMES[rng.randrange(4)] if i % 6 else "maniac"
            pool.append(p)
        for t in tabs:
            if t.seat_count < 6:
                _resize(t, 9)
            t.policy = self.decide
        nxt = 0
        for team in range(k):
            style = TEAM_PLAN[team % len(TEAM_PLAN)]
            size = 3 if style == "team_of_three" else 2
            t = tabs[team % len(tabs)]
            members = pool[nxt:nxt + size]
            nxt += size
            free = [s for s in range(1, t.seat_count + 1) if t.players[s] is None]
            seats = rng.sample(free, size)
            tm = Team(team, style, tuple(p.pid for p in members), t.tid)
            for i, (p, s) in enumerate(zip(members, seats, strict=True)):
                p.team = team
                self.team_of[p.pid] = tm
                self.role[p.pid] = min(i, 1)
                t.players[s] = p
                t.stacks[s] = t.buyin
                seated.add(p.pid)
            self.teams.append(tm)
        for j, t in enumerate(tabs):  # loose-aggressive regulars: honest, always together
            if j % 2:
                continue
            free = [s for s in range(1, t.seat_count + 1) if t.players[s] is None]
            for s in rng.sample(free, min(_REGULARS_PER_TABLE, len(free) - 1)):
                p = pool[nxt]
                nxt += 1
                p.team = REGULAR_GROUP + j
                self.kind[p.pid] = "lag_regular"
                t.players[s] = p
                t.stacks[s] = t.buyin
                seated.add(p.pid)
        return pool

    def team_rows(self) -> list[dict]:
        return [{"team_id": tm.team_id, "players": list(tm.members), "style": tm.style,
                 "strength": self.share, "table_id": tm.table_id} for tm in self.teams]

    def hand_done(self, hand_id: str) -> None:
        self.colluded.extend((hand_id, team, *self._moves.get(team, (0, 0)))
                             for team in sorted(self._on))
        self._on = set()
        self._moves = {}
        self._hand = None

    # ------------------------------------------------------------------ play
    def decide(self, t: Table, h: Hand, s: int, rng: random.Random) -> tuple | None:
        """Seat s's decision (None: a player the population does not know)."""
        if h is not self._hand:
            self._start(t, h, rng)
        p = t.players[s]
        if p is None or p.pid not in self.kind:
            return None
        act = self._decide(t, h, s, p.pid, rng)
        if self.watch is not None:
            self.watch(self, t, h, s, act)
        return act

    def _decide(self, t: Table, h: Hand, s: int, pid: str, rng: random.Random) -> tuple:
        tm = self.team_of.get(pid)
        if tm is not None and tm.team_id in self._on:
            before = rng.getstate()
            act = self._collude(t, h, s, tm, self.role[pid], rng)
            if act is not None:
                moves = self._moves.setdefault(tm.team_id, [0, 0])
                moves[0] += 1
                moves[1] += act != would_have_played(h, s, self.kind[pid], rng, before)
                return act
        return honest(h, s, self.kind[pid], rng)

    def _start(self, t: Table, h: Hand, rng: random.Random) -> None:
        self._hand = h
        self._raises = {}
        dealt: dict[int, int] = {}
        for x in h.order:
            p = t.players[x]
            tm = self.team_of.get(p.pid) if p is not None else None
            if tm is not None:
                dealt[tm.team_id] = dealt.get(tm.team_id, 0) + 1
        self._on = {team for team, n in sorted(dealt.items())
                    if n >= 2 and rng.random() < self.share}

    def _collude(self, t: Table, h: Hand, s: int, tm: Team, role: int,
                 rng: random.Random) -> tuple | None:
        mates = [x for x in h.order if x != s and not h.folded[x] and t.players[x] is not None
                 and t.players[x].pid in tm.members]
        if not mates:
            return None
        others = [x for x in h.order if x != s and x not in mates and not h.folded[x]]
        owed = h.cur - h.bet[s]
        style = tm.style
        if style in ("soft_play", "team_of_three") and not others:
            return ("call",) if owed > 0 else ("check",)
        if style == "chip_dump":
            return _chip_dump(h, s, mates[0], role, others, owed, rng)
        if style in ("whipsaw", "team_of_three"):
            return self._whipsaw(h, s, mates, others, owed)
        if style == "check_down":
            return check_down_play(h, s, mates, others, owed)
        if style == "card_share" and others:
            mine = strength(h, s)
            if max(strength(h, m) for m in mates) > mine + 0.05:
                return ("fold",) if owed > 0 else ("check",)
            return honest(h, s, "tight_aggressive", rng, boost=0.08)
        return None

    def _whipsaw(self, h: Hand, s: int, mates: list[int], others: list[int],
                 owed: int) -> tuple | None:
        if h.street == 0 or not any(h.stack[x] > 0 for x in others):
            return None
        key = (h.street, 0)
        done = self._raises.get(key, 0)
        lo, hi = h.raise_range(s)
        if not lo or done >= _TEAM_RAISES or h.stack[s] < 6 * h.bb:
            return None
        if owed == 0 and h.cur == 0:
            self._raises[key] = done + 1
            return ("raise", _sized(h, lo, hi, 0.5))
        if owed > 0 and h.last_aggr in mates:
            self._raises[key] = done + 1
            return ("raise", lo)  # raise around the third player, caught between the two
        return None


def _resize(t: Table, seats: int) -> None:
    t.seat_count = seats
    t.players = [None] * (seats + 1)
    t.stacks = [0] * (seats + 1)
    t.out = [False] * (seats + 1)


def _sized(h: Hand, lo: int, hi: int, frac: float) -> int:
    if lo >= hi or h.structure not in (NL, PL):
        return hi if lo > hi else lo
    return min(max(h.cur + int(h.pot * frac), lo), hi)


def _chip_dump(h: Hand, s: int, mate: int, role: int, others: list[int], owed: int,
               rng: random.Random) -> tuple | None:
    lo, hi = h.raise_range(s)
    if h.street == 0:
        if owed <= 0 or owed > 15 * h.bb:
            return None
        if role == 1 and owed <= 3 * h.bb:
            return ("call",)  # the receiver takes the pots the dumper can lose to him
        if role == 0 and (h.bet[mate] > h.bb or h.bet[mate] == h.bb and mate != h.bb_seat):
            return ("call",)  # the dumper follows the receiver into the pot
        return None
    if others:
        return None
    if role == 0:  # the dumper: a pot-sized bet with whatever he holds, then he gives up
        if owed == 0:
            return ("raise", _sized(h, lo, hi, 0.9 + 0.2 * rng.random())) if lo else ("check",)
        return ("fold",)
    if owed > 0:  # the receiver raises the dumper's bet: the dumper folds to it
        return ("raise", lo) if lo and h.stack[s] > owed else ("call",)
    return ("check",)


def check_down_play(h: Hand, s: int, mates: list[int], others: list[int], owed: int
                ) -> tuple | None:
    allin = [x for x in others if h.stack[x] == 0]
    shover = h.last_aggr if h.last_aggr in others else 0
    if allin:
        if owed == 0:
            return ("check",)  # check it down behind the all-in player, whatever we hold
        if shover and h.stack[shover] == 0:
            # gang up on the shove: call it together with a wide range
            return ("call",) if strength(h, s) > 0.30 else None
        return None
    if h.street == 0 and owed > 0 and shover and h.start[shover] < 25 * h.bb \
            and owed <= h.stack[s] // 4 and strength(h, s) > 0.30:
        return ("call",)  # follow a short stack into the pot
    return None


def would_have_played(h: Hand, s: int, kind: str, rng: random.Random, drawn_from: tuple
                      ) -> tuple:
    """The decision seat s's honest type would have made here, with the draw it would have made
    (`drawn_from`: the random state before the team decided; a card-sharing partner draws too).
    The random state is put back, so looking does not change the game."""
    now = rng.getstate()
    rng.setstate(drawn_from)
    try:
        return honest(h, s, kind, rng)
    finally:
        rng.setstate(now)


def honest(h: Hand, s: int, kind: str, rng: random.Random, boost: float = 0.0) -> tuple:
    """A legal decision of an honest player of type `kind`."""
    enter, pfr, aggr, bluff, call_at = HONEST_TYPES[kind]
    v = strength(h, s) + boost + (rng.random() - 0.5) * NOISE
    owed = h.cur - h.bet[s]
    r = rng.random()
    lo, hi = h.raise_range(s)
    if h.street == 0:
        raised = h.cur > h.bb
        if owed > 0 and v < enter + (0.08 if raised else 0.0) and r >= bluff:
            return ("fold",)
        if lo and (v > enter + (0.18 if raised else 0.0) and r < pfr or r < bluff * 0.5):
            want = h.cur + h.bb * (2 + rng.randrange(2)) if not raised else 3 * h.cur
            return ("raise", _clamp(want, lo, hi, h))
        return ("call",) if owed > 0 else ("check",)
    if owed == 0:
        if lo and (v > 0.6 and r < aggr + 0.2 or r < bluff):
            return ("raise", _sized(h, lo, hi, 0.4 + 0.5 * rng.random()))
        return ("check",)
    odds = owed / (h.pot + owed)
    if lo and v > 0.78 and r < aggr:
        return ("raise", _sized(h, lo, hi, 0.8))
    if v > call_at + odds * 0.6 or r < bluff * 0.25:
        return ("call",)
    return ("fold",)


def honest_chance(h: Hand, s: int, kind: str, action: str) -> float:
    """The probability that `honest` plays an action of this kind ("fold", "check", "call" or
    "raise", a bet included) for seat s here: exact, over its two draws (the strength's noise,
    uniform over +-NOISE/2, and the uniform r). A detector that knew every player's honest rule
    would weigh each decision by it (audit/devtools/collusion_ceiling.py)."""
    enter, pfr, aggr, bluff, call_at = HONEST_TYPES[kind]
    value = strength(h, s)
    owed = h.cur - h.bet[s]
    can_raise = bool(h.raise_range(s)[0])

    def given(v: float) -> dict[str, float]:
        """The action's chances over r, the strength's draw being v."""
        if h.street == 0:
            raised = h.cur > h.bb
            fold = (1 - bluff) if owed > 0 and v < enter + (0.08 if raised else 0.0) else 0.0
            high = v > enter + (0.18 if raised else 0.0)
            # (a fold takes r >= bluff, a raise r < pfr with a strong v or r < bluff/2: apart)
            raise_ = max(pfr if high else 0.0, bluff * 0.5) if can_raise else 0.0
            passive = "call" if owed > 0 else "check"
            return {"fold": fold, "raise": raise_, passive: 1 - fold - raise_}
        if owed == 0:
            raise_ = min(1.0, max(aggr + 0.2 if v > 0.6 else 0.0, bluff)) if can_raise else 0.0
            return {"raise": raise_, "check": 1 - raise_}
        raise_ = aggr if can_raise and v > 0.78 else 0.0
        call = 1 - raise_ if v > call_at + owed / (h.pot + owed) * 0.6 else max(
            0.0, bluff * 0.25 - raise_)
        return {"raise": raise_, "call": call, "fold": 1 - raise_ - call}

    # v is uniform on [value - NOISE/2, value + NOISE/2]; each action's chance is constant
    # between the thresholds v is compared with
    low, high = value - NOISE / 2, value + NOISE / 2
    edges = sorted({low, high, *(e for e in _thresholds(h, kind, owed) if low < e < high)})
    return sum((b - a) / NOISE * given((a + b) / 2).get(action, 0.0)
               for a, b in zip(edges, edges[1:], strict=False))


def _thresholds(h: Hand, kind: str, owed: int) -> tuple[float, ...]:
    """The values `honest` compares its drawn strength with at this spot."""
    enter, _, _, _, call_at = HONEST_TYPES[kind]
    if h.street == 0:
        return (enter, enter + 0.08, enter + 0.18)
    if owed == 0:
        return (0.6,)
    return (0.78, call_at + owed / (h.pot + owed) * 0.6)


def _clamp(want: int, lo: int, hi: int, h: Hand) -> int:
    if h.structure not in (NL, PL) or lo >= hi:
        return hi if lo > hi else lo
    return min(max(want, lo), hi)
