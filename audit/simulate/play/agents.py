"""Simulated players: four hand-strength-driven styles (tight/loose x passive/aggressive) and
the collusive behaviours of colluding teams (soft play, chip dumping, whipsaw, check-down,
hole-card sharing).

A decision is a tuple: ("fold",), ("check",), ("call",) or ("raise", to). Agents only pick
among the legal options the engine offers, so clean play never breaks a rule.
"""

from __future__ import annotations

import random

from audit.simulate.play.engine import NL, PL, Hand

# style: (name, play threshold, aggression, bluff)
STYLES = (
    ("tight_passive", 0.58, 0.25, 0.03),
    ("tight_aggressive", 0.55, 0.65, 0.08),
    ("loose_passive", 0.38, 0.20, 0.04),
    ("loose_aggressive", 0.35, 0.60, 0.15),
)
_CATEGORY_VALUE = (0.18, 0.45, 0.66, 0.76, 0.84, 0.88, 0.93, 0.98, 1.0)


def preflop_score(hole: list[int]) -> float:
    """A cheap 0..1 preflop hand value (pairs, high cards, suited, connected)."""
    if len(hole) == 2:
        return _PAIR_SCORE[hole[0] * 52 + hole[1]]
    best = 0.0
    n = len(hole)
    for i in range(n):
        row = hole[i] * 52
        for j in range(i + 1, n):
            v = _PAIR_SCORE[row + hole[j]]
            if v > best:
                best = v
    ranks = {c >> 2 for c in hole}
    return best * 0.85 + 0.04 * (n - len(ranks) == 0) + 0.02 * sum(1 for r in ranks if r >= 8)


def _pair_score(a: int, b: int) -> float:
    ra, rb = a >> 2, b >> 2
    if ra < rb:
        ra, rb = rb, ra
    if ra == rb:
        return 0.55 + ra * 0.035
    v = (ra + rb) / 24 * 0.62
    if a & 3 == b & 3:
        v += 0.06
    gap = ra - rb
    if gap == 1:
        v += 0.05
    elif gap == 2:
        v += 0.02
    return v


# every two-card score, precomputed: the preflop value is looked up, not recomputed
_PAIR_SCORE = [_pair_score(a, b) for a in range(52) for b in range(52)]


def strength(h: Hand, s: int) -> float:
    """Current hand value of seat s (cached per street)."""
    cache = h.strength_cache
    v = cache.get(s)
    if v is not None:
        return v
    hole = h.hole[s]
    v = preflop_score(hole) if h.street == 0 else made_hand(hole, h.board)
    cache[s] = v
    return v


def made_hand(hole: list[int], board: list[int]) -> float:
    """A quick 0..1 value of the made hand (pairs, trips, flushes; straights ignored). Agents
    decide on it; showdowns use the real evaluator."""
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for c in board:
        counts[c >> 2] += 1
    board_suits = suits[:]
    for c in board:
        board_suits[c & 3] += 1
    best_pair = -1
    pairs = trips = quads = 0
    for c in hole:
        r = c >> 2
        counts[r] += 1
    for r in range(13):
        n = counts[r]
        if n == 2:
            pairs += 1
            best_pair = r
        elif n == 3:
            trips += 1
        elif n >= 4:
            quads += 1
    flush = 0
    for c in hole:
        if board_suits[c & 3] >= 3:
            flush = max(flush, board_suits[c & 3] + sum(1 for x in hole if x & 3 == c & 3))
    if quads:
        return _CATEGORY_VALUE[7]
    if trips and (pairs or trips > 1):
        return _CATEGORY_VALUE[6]
    if flush >= 5:
        return _CATEGORY_VALUE[5]
    if trips:
        return _CATEGORY_VALUE[3]
    if pairs >= 2:
        return _CATEGORY_VALUE[2]
    if pairs:
        return _CATEGORY_VALUE[1] + best_pair / 100
    return _CATEGORY_VALUE[0] + max(c >> 2 for c in hole) / 100


def decide(h: Hand, s: int, style: int, rng: random.Random,
           boost: float = 0.0) -> tuple:
    """A legal decision for seat s (the engine's to_act)."""
    _name, play, aggr, bluff = STYLES[style]
    v = strength(h, s) + boost + (rng.random() - 0.5) * 0.16
    owed = h.cur - h.bet[s]
    r = rng.random()
    if h.street == 0:
        facing_raise = h.cur > h.bb
        if owed > 0 and (v < play or facing_raise and v < play + 0.1) and not r < bluff:
            return ("fold",)  # most decisions: decided before the raise range is worked out
        lo, hi = h.raise_range(s)
        pot = h.pot
        if lo and (v > play + 0.08 and r < aggr + 0.3 or r < bluff):
            return ("raise", _size(h, s, lo, hi, pot, rng))
        return ("call",) if owed > 0 else ("check",)
    lo, hi = h.raise_range(s)
    pot = h.pot
    if owed == 0:
        if lo and (v > 0.44 and r < aggr + 0.2 or r < bluff + 0.15 * aggr):
            return ("raise", _size(h, s, lo, hi, pot, rng))
        return ("check",)
    odds = owed / (pot + owed)
    if lo and v > 0.7 and r < aggr:
        return ("raise", _size(h, s, lo, hi, pot, rng))
    if v > 0.36 + odds * 0.9 or r < bluff * 0.3:
        return ("call",)
    return ("fold",)


def _size(h: Hand, s: int, lo: int, hi: int, pot: int, rng: random.Random) -> int:
    """A bet/raise-to between lo and hi: about half to a full pot in big-bet games."""
    if lo >= hi or h.structure not in (NL, PL):
        return hi if lo > hi else lo
    want = h.cur + int(pot * (0.45 + rng.random() * 0.6))
    if h.street == 0 and h.cur <= h.bb * 2:
        want = h.cur + h.bb * (1 + rng.randrange(3))
    if rng.random() < 0.03:
        want = hi  # a shove
    if want < lo:
        want = lo
    if want > hi:
        want = hi
    allin = h.bet[s] + h.stack[s]
    if allin - want < h.bb * 2 and hi == allin:
        want = allin
    return want


COLLUSION_STYLES = ("soft_play", "chip_dump", "whipsaw", "check_down", "card_share")


def collude(h: Hand, s: int, partner: int | tuple[int, ...], style: str, strength_knob: float,
            role: int, rng: random.Random) -> tuple | None:
    """A collusive decision for seat s with `partner` in the hand, or None (play normally).
    A team of three or more dealt in passes its other members' seats (`partner` a tuple): the
    seat acts with the teammate that matters now (`_teammate`).

    What real teams do (RULEBOOK §4.17), in a share `strength_knob` of their hands together:
    soft play (never bet or raise into the partner heads-up, never re-raise him), chip dumping
    (the dumper, role 0, follows the receiver into pots and, heads-up, calls his big bets down
    to the river and then folds: a large one-directional transfer), whipsaw (raise around a
    third player caught between the partners), check-down (check it through once a third player
    is all-in), hole-card sharing (the weaker of the two hands folds to let the stronger play).
    """
    if isinstance(partner, tuple):
        partner = _teammate(h, s, partner, style)
    if not partner or h.folded[partner] or not _team_hand(h, s, partner, strength_knob):
        return None
    others = [x for x in h.order if not h.folded[x] and x not in (s, partner)]
    owed = h.cur - h.bet[s]
    lo, hi = h.raise_range(s)
    if style == "soft_play":
        if not others or (owed > 0 and h.last_aggr == partner):
            return ("call",) if owed > 0 else ("check",)
        return None
    if style == "chip_dump":
        return _chip_dump(h, s, partner, role, others, owed, lo, hi, rng)
    if style == "whipsaw" and owed > 0 and lo and h.last_aggr and h.aggr_street < 4 \
            and h.stack[s] > 4 * h.bb and any(h.stack[x] > 0 for x in others):
        return ("raise", lo)  # re-raise to trap the third player between the two partners
    if style == "check_down" and any(h.stack[x] == 0 for x in others):
        return ("call",) if owed > 0 else ("check",)
    if style == "card_share" and h.street == 0 and owed > 0:
        mine = preflop_score(h.hole[s])
        theirs = preflop_score(h.hole[partner])
        if theirs > mine:
            return ("fold",)  # only the better of the two shared hands plays
    return None


def _teammate(h: Hand, s: int, mates: tuple[int, ...], style: str) -> int:
    """The teammate seat s acts with (0: none still in the hand): the last bettor or raiser if
    he is one (never raise into him, dump into him, trap the third player with him), else when
    sharing cards the best starting hand among them (only the team's best hand plays), else the
    first still in."""
    live = [m for m in mates if not h.folded[m]]
    if not live:
        return 0
    if h.last_aggr in live:
        return h.last_aggr
    if style == "card_share":
        return max(live, key=lambda m: preflop_score(h.hole[m]))
    return live[0]


def _team_hand(h: Hand, s: int, partner: int, knob: float) -> bool:
    """Does the team act in concert this hand? One coin per hand, the same for both partners
    (a hash of their hole cards, so no state is kept and the seed still decides everything):
    a plan like checking a hand down needs every decision of both, not each on its own."""
    x = 0
    for c in sorted(h.hole[s] + h.hole[partner]):
        x = (x * 53 + c + 1) % 2_147_483_647
    return (x * 2_654_435_761) % 4_294_967_296 < knob * 4_294_967_296


def _chip_dump(h: Hand, s: int, partner: int, role: int, others: list[int], owed: int,
               lo: int, hi: int, rng: random.Random) -> tuple | None:
    """Chip dumping: the dumper (role 0) loses big pots to the receiver (role 1)."""
    if h.street == 0:
        if owed > 0 and h.last_aggr == partner and owed <= 10 * h.bb:
            return ("call",)  # both follow the partner into the pot
        return None
    if others:
        return None
    if role == 1:  # the receiver bets into the dumper every street and never folds to him
        if owed == 0:
            if not lo:
                return ("check",)
            # half to three quarters of the pot, keeping chips to bet the river
            want = h.cur + int(sum(h.contrib) * (0.5 + 0.25 * rng.random()))
            return ("raise", min(max(want, lo), hi))
        return ("call",)
    if owed == 0:
        return ("check",)
    # the dumper calls the receiver's bets while a later bet can still take the pot from him,
    # then folds: a showdown would hand the chips back half the time
    if h.street == 3 or h.stack[partner] == 0 or owed >= h.stack[s]:
        return ("fold",)
    return ("call",)
