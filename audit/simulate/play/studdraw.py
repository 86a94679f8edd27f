"""Stud and draw hands for the simulator, fixed limit.

Stud (7-card stud, stud hi-lo, razz, 5-card stud, Mississippi stud): antes, cards dealt down
and up street by street, the bring-in from the lowest (razz: highest) upcard, completion to the
small bet, first to act by the best board on later streets, the big bet from the game's big
street, showdown under the game's evaluator and odd chips by card.

Draw (2-7 single and triple draw, badugi, five-card draw high, ace-to-five lowball, jacks or
better): blinds as in the button games (jacks: antes only), a kill blind where an injector
posts one, a betting round before each draw and after the last, each player in turn discarding
the cards his game wants rid of (at most three) or standing pat, cards replaced from the deck,
showdown under the game's evaluator. A draw never needs more cards than the deck has left (a player
stands pat rather), so the simulated dealer never reshuffles the discards.

The betting runs through the button-game engine's state machine (engine.Hand, fixed limit);
what is stud-specific (dealing, bring-in, turn order, strength for the agents) lives here. The
bring-in, board-order and odd-chip rulings come from audit.poker.stud (pure functions of the
cards), so those three rulings are shared with the replay rather than re-derived.
"""

from __future__ import annotations

import random

from audit.poker.stud import bring_in_seat, first_by_board
from audit.poker.variants import SPECS
from audit.simulate.play import agents, lowball
from audit.simulate.play.engine import CARD, FL, Hand, award_rows, play, settle

# The games played here are table.STUD_GAMES and table.DRAW_GAMES; ace-to-five lowball and
# jacks or better (their house rules, the joker, passed deals) are in studdraw_lowball.


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


def play_stud(t, rng: random.Random, deck: list[int],
              script=None) -> tuple[list[list], Hand, dict]:
    """Play one stud hand of table `t` (with an optional stud injector's script); returns
    (event rows after hand_started, hand, settlement) like table.play_hand."""
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
    skip = script.skip_ante if script is not None and hasattr(script, "skip_ante") else None
    for s in h.order:
        if skip is None or not skip(h, s):
            h.post(s, "ante", t.ante)
    if script is not None and hasattr(script, "rig_stud"):
        deck = script.rig_stud(h, deck)
    h.deck = deck
    up: dict[int, list[int]] = {s: [] for s in h.order}
    common: list[int] = []  # a card dealt face up for everyone (STUD-SHORT-DECK)
    faces = spec.faces
    counts = spec.counts
    styles = [p.style if p is not None else 0 for p in t.players]
    decide = agents.decide
    short_bring_in = 0  # a bring-in all-in short of its size, until someone completes
    allin_lowcard = False  # the lowcard is all in for his ante: nobody brought in
    street = 0
    while True:
        dealt_before = counts[street - 1] if street else 0
        if street == len(counts) - 1 and script is not None and hasattr(script, "common_last") \
                and script.common_last(h):
            c = deck.pop()
            common.append(c)
            for s in h.order:
                if not h.folded[s]:
                    h.hole[s] = h.hole[s] + [c]
            ev.append(["deal", None, None, None, CARD[c], "common"])
            script.labels.append((ev[-1], script.rule, None, True))
        for s in h.order:
            if h.folded[s] or common:
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
            if script is not None and hasattr(script, "lowcard"):
                script.lowcard(h, b)  # may shorten his stack (the seat row says so too)
            if h.stack[b] > 0:
                amount = t.sb
                if script is not None and hasattr(script, "bring_seat"):
                    b = script.bring_seat(h, b)
                if script is not None and hasattr(script, "bring_amount"):
                    amount = script.bring_amount(h, b, amount)
                if script is not None and hasattr(script, "bring_fold") \
                        and script.bring_fold(h, b):
                    h.fold(b)  # neither brings in nor completes (STUD-BRINGIN-OPTIONS)
                else:
                    _bring_in(h, b, amount)
                    if h.stack[b] == 0 and h.bet[b] < t.sb:
                        short_bring_in = h.bet[b]
                if script is not None and script.done and not script.labels:
                    rule = (script.bring_rule() if hasattr(script, "bring_rule")
                            else script.rule)
                    script.labels.append((ev[-1], rule, b, True))
            else:
                allin_lowcard = True
                h.to_act = h.next_to_act(b)
        elif h.to_act:
            alive = [s for s in h.order if not h.folded[s]]
            best = first_by_board({s: up[s] + common for s in alive}, h.order, low)
            live = not h.folded[best] and h.stack[best] > 0
            h.to_act = best if live else h.next_to_act(best)
        while h.to_act:
            s = h.to_act
            _value(h, s, low)
            act = script.force(h, s) if script is not None else None
            if act is None:
                act = decide(h, s, styles[s], rng)
                if act[0] == "call" and short_bring_in and h.cur == short_bring_in:
                    # facing only a short all-in bring-in, a caller still comes in for the
                    # full bring-in (STUD-BRINGIN-ALLIN); one who cannot cover it goes all in
                    # for less, a legal all-in call that the next callers answer in full
                    full = t.sb - h.bet[s]
                    act = ("call", min(full, h.stack[s]))
                elif act[0] == "check" and allin_lowcard and street == 0 and h.cur == 0:
                    # the lowcard is all in for his ante: the player who starts may fold,
                    # bring in or complete, never check (ORDER-STUD-ALLIN-STARTER): he opens
                    # for the bring-in (all in short of it, the others still owe it in full)
                    _bring_in(h, s, t.sb)
                    if h.stack[s] == 0 and h.bet[s] < t.sb:
                        short_bring_in = h.bet[s]
                    continue
            completes = street == 0 and h.bets == 0 and h.cur > 0
            facing = h.cur
            play(h, s, act, ev, script, "complete" if completes else None)
            if street == 0 and 0 < short_bring_in == facing < h.cur < t.sb:
                # an all-in call or complete above the short bring-in, still short of it: the
                # next callers still come in for the full bring-in
                short_bring_in = h.cur
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
    h.post_live(s, amount, "bring_in")
    h.acted[s] = True
    h.acted_level[s] = h.cur
    h.acted_fr[s] = h.fr_count
    h.last_raise = 0
    h.bets = 0
    h.to_act = h.next_to_act(s)


def _kill(h: lowball.DrawHand, s: int, amount: int, detail: str) -> None:
    """A kill blind (audit/replay/kill.py): a live overblind that scales the limits by its size
    (the first kill of the deal only); a voluntary killer acts last on the first round."""
    first = not h.killed
    h.killed = True
    add = h.post_live(s, amount, detail)
    if first:
        percent = add * 100 // h.bb
        h.small_bet = h.small_bet * percent // 100
        h.big_bet = h.big_bet * percent // 100
        h.last_raise = max(h.last_raise, h.bb * percent // 100)
    if detail == "kill_voluntary":
        h.anchor = s
    h.to_act = h.next_to_act(h.anchor)


def _draw_value(h: Hand, s: int) -> float:
    """The agents' 0..1 value of a draw hand (cached per round, as agents.strength does)."""
    cache = h.strength_cache
    v = cache.get(s)
    if v is None:
        hole = h.hole[s]
        ev = h.evaluator
        if ev == "high":
            v = lowball.high_value(hole)
        elif ev == "lowa5":
            v = lowball.a5_value(hole)
        elif ev == "badugi":
            v = 0.05 + 0.2 * len(_badugi_keep(hole))
        else:  # 2-7 lowball: distinct cards seven or lower, aces high
            keep = _low27_keep(hole)
            v = 0.12 + 0.17 * len(keep) - 0.01 * sum(c >> 2 for c in keep) / max(1, len(keep))
        cache[s] = v
    return v


def _low27_keep(hole: list[int]) -> list[int]:
    keep: list[int] = []
    ranks: set[int] = set()
    for c in sorted(hole):
        r = c >> 2
        if r <= 6 and r not in ranks:  # 2..8 (rank index 0 is the deuce)
            keep.append(c)
            ranks.add(r)
    return keep


def _badugi_keep(hole: list[int]) -> list[int]:
    keep: list[int] = []
    for c in sorted(hole, key=lambda c: ((c >> 2) + 1) % 13):  # aces low
        if all(c >> 2 != k >> 2 and c & 3 != k & 3 for k in keep):
            keep.append(c)
    return keep


def _discards(h: Hand, s: int) -> list[int]:
    """The cards seat s throws (at most three; in hand order)."""
    hole = h.hole[s]
    ev = h.evaluator
    if ev == "high":
        keep = lowball.high_keep(hole)
    elif ev == "lowa5":
        keep = lowball.a5_keep(hole)
    elif ev == "badugi":
        keep = _badugi_keep(hole)
    else:
        keep = _low27_keep(hole)
    out = [c for c in hole if c not in keep]
    return out[:3]


def play_draw(t, rng: random.Random, deck: list[int], script=None,
              kills: list[tuple[int, int, str]] | None = None) -> tuple[list[list], Hand, dict]:
    """Play one draw hand of table `t` (with an optional injector's script); returns (event
    rows after hand_started, hand, settlement) like table.play_hand. At jacks or better a deal
    nobody opens is passed and dealt again (see studdraw_lowball). `kills`: the kill posts a
    required-kill table owes this deal, (seat, amount, detail) (killtable.py)."""
    joker = lowball.plays_joker(t.tid, t.variant)
    while True:
        if joker:
            deck = lowball.with_joker(deck, rng)
        out = _play_draw(t, rng, deck, script, kills)
        if out is not None:
            t.last_seated = frozenset(p.pid for p in t.players if p is not None)
            return out
        deck = list(range(52))
        rng.shuffle(deck)
        if script is not None:  # what an injector did in a passed deal is not in the log
            script.labels.clear()
            script.done = False


def _play_draw(t, rng: random.Random, deck: list[int], script=None,
               kills: list[tuple[int, int, str]] | None = None
               ) -> tuple[list[list], Hand, dict] | None:
    spec = SPECS[t.variant]
    size = t.seat_count + 1
    h = lowball.DrawHand(size, FL, t.sb, t.bb, t.tournament, False, spec.max_cards, t.button)
    h.killed = False
    h.big_from = spec.big_from
    h.evaluator = spec.evaluator
    if spec.two_round:
        h.cap_raises = 4  # montana cap.two_round: a bet and four raises
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
    order = h.order
    if spec.needs_openers:  # jacks or better: antes, no blinds
        skip = script.skip_ante if script is not None and hasattr(script, "skip_ante") else None
        for s in order:
            if skip is None or not skip(h, s):
                h.post(s, "ante", t.ante)  # table.Table.ante
        h.to_act = h.next_to_act(h.button)
    else:
        if t.ante:
            for s in order:
                h.post(s, "ante", t.ante)
        if len(order) == 2:
            sbs, bbs = order[1], order[0]  # heads-up: the button posts the small blind
        else:
            sbs, bbs = order[0], order[1]
        h.post(sbs, "small_blind", t.sb)
        h.post(bbs, "big_blind", t.bb)
        for s, amount, detail in kills or ():
            _kill(h, s, amount, detail)
        if script is not None and hasattr(script, "kills"):
            for s, amount, detail in script.kills(h, t):
                _kill(h, s, amount, detail)
    h.deck = deck
    n = spec.max_cards
    cards_of = lowball.CARDS
    for s in order:
        cards = h.hole[s] = [deck.pop() for _ in range(n)]
        ev.append(["deal", s, None, None, " ".join([cards_of[c] for c in cards]), "hole"])
    styles = [p.style if p is not None else 0 for p in t.players]
    decide = agents.decide
    house = spec.evaluator == "lowa5" or spec.needs_openers
    checked: set[int] = set()
    opener = 0
    while True:
        while h.to_act:
            s = h.to_act
            _draw_value(h, s)
            act = script.force(h, s) if script is not None else None
            if act is None:
                act = decide(h, s, styles[s], rng)
                if house:
                    act = lowball.house_rules(h, s, act, checked, rng)
            if act[0] == "check":
                checked.add(s)
            elif act[0] == "raise" and h.street == 0 and not opener:
                opener = s
            play(h, s, act, ev, script)
        if spec.needs_openers and not opener:
            return None  # passed deal: nobody opened
        if h.remaining() <= 1 or h.street == spec.draws:
            break
        for s in order:
            if h.folded[s]:
                continue
            out = _discards(h, s)
            dealt, rule = len(out), None
            if script is not None and hasattr(script, "draw_for"):
                out, dealt, rule = script.draw_for(h, s, out, len(deck))
            if max(len(out), dealt) > len(deck):
                out, dealt = [], 0
            if not out:
                ev.append(["stand_pat", s, None, None, None, None])
                continue
            ev.append(["draw", s, len(out), None, " ".join([cards_of[c] for c in out]), None])
            new = [deck.pop() for _ in range(dealt)]
            h.hole[s] = [c for c in h.hole[s] if c not in out] + new
            ev.append(["deal", s, None, None, " ".join([cards_of[c] for c in new]), "draw"])
            if rule:
                script.labels.append((ev[-1], rule, s, True))
        h.strength_cache.clear()
        h.new_round(h.street + 1)
        checked.clear()
        if spec.needs_openers:
            lowball.opener_first(h, opener)
    res = settle(h, 0, 0)
    if res["refund"]:
        ev.append(["award", res["refund_seat"], res["refund"], None, None, "uncalled"])
    if res["showdown"]:
        for s in res["contenders"]:
            ev.append(["show", s, None, None, " ".join([cards_of[c] for c in h.hole[s]]), None])
    ev.extend(award_rows(res))
    ev.append(["hand_ended", None, None, None, None, None])
    return ev, h, res
