"""Stud hands for the simulator (7-card stud, stud hi-lo, razz, 5-card stud; fixed limit): antes,
cards dealt down and up street by street, the bring-in from the lowest (razz: highest) upcard,
completion to the small bet, first to act by the best board on later streets, the big bet from
the game's big street, showdown under the game's evaluator and odd chips by card.

The betting runs through the button-game engine's state machine (engine.Hand, fixed limit);
what is stud-specific (dealing, bring-in, turn order, strength for the agents) lives here. The
bring-in, board-order and odd-chip rulings come from audit.replay.stud (pure functions of the
cards), so those three rulings are shared with the replay rather than re-derived.
"""

from __future__ import annotations

import random

from audit.replay.stud import bring_in_seat, first_by_board
from audit.replay.variants import SPECS
from audit.simulate import agents
from audit.simulate.engine import CARD, FL, Hand, award_rows, settle

STUD_VARIANTS = tuple(n for n, s in SPECS.items() if s.family == "stud")


def stud_spec_counts(variant: str) -> tuple[int, ...]:
    return SPECS[variant].counts


def _low_value(cards: list[int]) -> float:
    """Agents' 0..1 value of a low (razz) holding: distinct low cards, aces low."""
    ranks = {((c >> 2) + 1) % 13 for c in cards}  # A=0 .. K=12
    good = sorted(r for r in ranks if r <= 7)
    return min(1.0, 0.15 + 0.16 * len(good) - 0.02 * sum(good) / max(1, len(good))
               - 0.08 * (len(cards) - len(ranks)))


def _value(h: Hand, s: int, low: bool) -> float:
    """Put the seat's value for this street into the agents' cache (they read it first)."""
    cache = h.strength_cache
    v = cache.get(s)
    if v is None:
        hole = h.hole[s]
        if low:
            v = _low_value(hole)
        else:
            v = agents.preflop_score(hole[:3]) if h.street == 0 else agents.made_hand(hole, [])
        cache[s] = v
    return v


def play_stud(t, rng: random.Random, deck: list[int]) -> tuple[list[list], Hand, dict]:
    """Play one stud hand of table `t`; returns (event rows after hand_started, hand,
    settlement) like table.play_hand."""
    spec = SPECS[t.variant]
    size = t.seat_count + 1
    h = Hand(size, FL, t.sb, t.bb, t.tournament, spec.evaluator == "hilo8", spec.max_cards,
             t.button)
    h.small_bet, h.big_bet = t.bb, 2 * t.bb
    h.big_from = spec.big_from
    h.evaluator = spec.evaluator
    h.stud = True
    low = spec.board == "low"
    ev = h.ev
    for s in range(1, size):
        if t.players[s] is None:
            continue
        if t.out[s]:
            ev.append(["seat", s, t.stacks[s], None, None, "sitting_out"])
        else:
            ev.append(["seat", s, t.stacks[s], None, None, None])
            h.seat(s, t.stacks[s])
    h.begin()
    for s in h.order:
        h.post(s, "ante", t.ante)
    h.deck = deck
    up: dict[int, list[int]] = {s: [] for s in h.order}
    faces = spec.faces
    counts = spec.counts
    styles = [p.style if p is not None else 0 for p in t.players]
    decide = agents.decide
    street = 0
    while True:
        dealt_before = counts[street - 1] if street else 0
        for s in h.order:
            if h.folded[s]:
                continue
            cards = h.hole[s] = h.hole[s] + [deck.pop() for _ in range(counts[street]
                                                                      - dealt_before)]
            new = cards[dealt_before:]
            for face in ("d", "u"):
                mine = [c for c, f in zip(new, faces[dealt_before:counts[street]], strict=True)
                        if f == face]
                if mine:
                    ev.append(["deal", s, None, None, " ".join([CARD[c] for c in mine]),
                               "down" if face == "d" else "up"])
                    if face == "u":
                        up[s].extend(mine)
        h.strength_cache.clear()
        if street:
            h.new_round(street)
        if street == 0:
            b = bring_in_seat({s: up[s][-1] for s in h.order}, spec.bring_in)
            if h.stack[b] > 0:
                _bring_in(h, b, t.sb)
            else:
                h.to_act = h.next_to_act(b)
        elif h.to_act:
            alive = [s for s in h.order if not h.folded[s]]
            best = first_by_board({s: up[s] for s in alive}, h.order, low)
            live = not h.folded[best] and h.stack[best] > 0
            h.to_act = best if live else h.next_to_act(best)
        while h.to_act:
            s = h.to_act
            _value(h, s, low)
            act = decide(h, s, styles[s], rng)
            k = act[0]
            if k == "fold":
                h.fold(s)
            elif k == "check":
                h.check(s)
            elif k == "call":
                h.call(s)
            else:
                completes = street == 0 and h.bets == 0 and h.cur > 0
                h.raise_to(s, act[1], "complete" if completes else None)
        if h.remaining() <= 1 or street == len(counts) - 1:
            break
        street += 1
    res = settle(h, 0, 0)
    if res["refund"]:
        ev.append(["award", res["refund_seat"], res["refund"], None, None, "uncalled"])
    if res["showdown"]:
        for s in res["contenders"]:
            ev.append(["show", s, None, None, " ".join([CARD[c] for c in h.hole[s]]), None])
    ev.extend(award_rows(res))
    ev.append(["hand_ended", None, None, None, None, None])
    return ev, h, res


def _bring_in(h: Hand, s: int, amount: int) -> None:
    """The forced bring-in: a live bet that is not a full bet (the next bet completes it)."""
    add = min(amount, h.stack[s])
    h.stack[s] -= add
    h.contrib[s] += add
    h.pot += add
    h.bet[s] += add
    if h.bet[s] > h.cur:
        h.cur = h.bet[s]
    h.ev.append(["post", s, add, h.bet[s], None, "bring_in"])
    h.acted[s] = True
    h.acted_level[s] = h.cur
    h.acted_fr[s] = h.fr_count
    h.last_raise = 0
    h.bets = 0
    h.to_act = h.next_to_act(s)
