"""The simulator's hand engine: one button-game hand (hold'em, Omaha, Omaha hi-lo; fixed limit,
pot limit, no limit) played from forced bets to the award, logged as event rows.

The betting state machine mirrors the replay's bookkeeping (round totals, last full raise,
full-raise counter, reopening, caps, turn order) so that every action an agent or an injector
chooses is judged by the replay exactly as the engine meant it. Pots and awards are computed
here independently of the replay (main/side pots, uncalled returns, the antes a player all-in
on his ante can win, ties, odd chips clockwise from the button, hi-lo halves with the
8-qualifier, rake), so a clean simulated hand is an independent check of the replay. Plain
ints and lists only: this is the hot path.

An event row is a list `[kind, seat, amount, total, cards, detail]`.
"""

from __future__ import annotations

from typing import Any

from audit.poker.cards import card_str
from audit.poker.evaluate.high import high_strength, omaha_high_strength, omaha_low8_strength
from audit.poker.evaluate.low import strength as game_strength
from audit.poker.stud import oddchip_order

FL, PL, NL = 0, 1, 2
STRUCTURE_CODE = {"fixed_limit": FL, "pot_limit": PL, "no_limit": NL}
CAP_RAISES = 3  # montana cap.multi_round: a bet and three raises
CARD = [card_str(c) for c in range(52)]
BOARD_AFTER = (0, 3, 4, 5)
_NO_CARDS: list[int] = []


class Hand:
    """State of one hand being played (indexed by seat number 1..seat_count)."""

    __slots__ = ("size", "structure", "sb", "bb", "small_bet", "big_bet", "tournament", "hilo",
                 "hole_n", "button", "in_hand", "folded", "stack", "start", "bet", "contrib",
                 "dead", "acted", "acted_level", "acted_fr", "order", "street", "cur",
                 "last_raise", "fr_count", "bets", "capped", "bet_was_short", "anchor", "to_act",
                 "sb_seat", "bb_seat", "straddle_seat", "ev", "hole", "board", "deck", "last_aggr",
                 "strength_cache", "aggr_street", "alive", "pot", "pos", "ring",
                 "big_from", "evaluator", "stud", "cap_raises")

    def __init__(self, size: int, structure: int, sb: int, bb: int, tournament: bool,
                 hilo: bool, hole_n: int, button: int) -> None:
        self.size = size
        self.structure = structure
        self.sb = sb
        self.bb = bb
        self.small_bet = bb
        self.big_bet = 2 * bb
        self.tournament = tournament
        self.hilo = hilo
        self.hole_n = hole_n
        self.button = button
        self.in_hand = [False] * size
        self.folded = [False] * size
        self.stack = [0] * size
        self.start = [0] * size
        self.bet = [0] * size
        self.contrib = [0] * size
        self.dead = [0] * size
        self.acted = [False] * size
        self.acted_level = [0] * size
        self.acted_fr = [0] * size
        self.hole: list[list[int]] = [_NO_CARDS] * size  # replaced, never mutated
        self.order: list[int] = []
        self.board: list[int] = []
        self.deck: list[int] = []
        self.ev: list[list] = []
        self.street = 0
        self.cur = 0
        self.last_raise = 0
        self.fr_count = 0
        self.bets = 0
        self.capped = False
        self.bet_was_short = False
        self.anchor = 0
        self.to_act = 0
        self.sb_seat = 0
        self.bb_seat = 0
        self.straddle_seat = 0
        self.last_aggr = 0
        self.aggr_street = 0
        self.alive = 0
        self.big_from = 2  # first round played at the big bet (fixed limit)
        self.cap_raises = CAP_RAISES  # raises after the bet (4 in two-round draw games)
        self.evaluator = ""  # stud/draw: the evaluate_low evaluator; "" for button games
        self.stud = False  # stud: hole holds every card of the seat, odd chips go by card
        self.pot = 0  # sum(contrib), kept as chips go in
        self.pos: list[int] = []  # seat -> index in order (-1: not dealt in)
        self.ring: list[int] = []  # order twice, so a scan from any index is one slice
        self.strength_cache: dict[int, float] = {}

    # ------------------------------------------------------------------ seating and order
    def seat(self, s: int, stack: int) -> None:
        self.in_hand[s] = True
        self.stack[s] = stack
        self.start[s] = stack

    def begin(self) -> None:
        """Order the dealt-in seats clockwise from the button and open the preflop round."""
        seats = [s for s in range(1, self.size) if self.in_hand[s]]
        b = self.button
        order = self.order = [s for s in seats if s > b] + [s for s in seats if s <= b]
        pos = self.pos = [-1] * self.size
        for i, s in enumerate(order):
            pos[s] = i
        self.ring = order + order
        self.alive = len(order)
        self.new_round(0)

    def remaining(self) -> int:
        """Players not folded."""
        return self.alive

    def with_chips(self) -> int:
        folded, stack = self.folded, self.stack
        return sum(1 for s in self.order if not folded[s] and stack[s] > 0)

    def next_to_act(self, after: int) -> int:
        """The next seat clockwise after `after` that still has to act, or 0."""
        order = self.order
        n = len(order)
        start = self.pos[after] + 1
        if not start:  # `after` is not dealt in: start at the first dealt-in seat after it
            d = (after - self.button - 1) % (self.size + 1)
            for i in range(n):
                if (order[i] - self.button - 1) % (self.size + 1) > d:
                    start = i
                    break
        cur = self.cur
        folded, stack, acted, bet = self.folded, self.stack, self.acted, self.bet
        for s in self.ring[start:start + n]:
            if not folded[s] and stack[s] > 0 and (not acted[s] or bet[s] < cur):
                if bet[s] >= cur:  # owes nothing: still to act unless alone with chips
                    for x in order:
                        if x != s and not folded[x] and stack[x] > 0:
                            return s
                    return 0
                return s
        return 0

    def new_round(self, street: int) -> None:
        self.street = street
        self.cur = 0
        for s in self.order:
            self.bet[s] = 0
            self.acted[s] = False
        self.last_raise = 0 if self.structure == FL else self.bb
        self.fr_count = 0
        self.bets = 0
        self.capped = False
        self.bet_was_short = False
        self.anchor = self.button
        self.aggr_street = 0
        self.to_act = 0 if self.alive <= 1 else self.next_to_act(self.button)

    # ------------------------------------------------------------------ forced bets
    def post(self, s: int, detail: str, amount: int) -> None:
        add = min(amount, self.stack[s])
        live = add
        if detail == "small_blind":
            self.sb_seat = s
        elif detail == "big_blind":
            self.bb_seat = s
            self.anchor = s
            if self.structure == FL and self.bb > self.last_raise:
                self.last_raise = self.bb
            self.bets = 1
        elif detail == "straddle":
            self.straddle_seat = s
            self.anchor = s
            if self.structure == FL:
                self.last_raise = add
            else:
                self.last_raise = max(add, self.bb)
        else:  # ante: dead money
            live = 0
        self.stack[s] -= add
        self.contrib[s] += add
        self.pot += add
        if add > live:
            self.dead[s] += add - live
        total = None
        if live:
            self.bet[s] += live
            if self.bet[s] > self.cur:
                self.cur = self.bet[s]
            total = self.bet[s]
        self.ev.append(["post", s, add, total, None, detail])
        self.to_act = self.next_to_act(self.anchor) if self.anchor else 0

    # ------------------------------------------------------------------ legal actions
    def reopened(self, s: int) -> bool:
        """May seat `s` raise (mirrors the replay's reopening rule)?"""
        if not self.acted[s] or self.cur == 0:
            return True
        if self.fr_count > self.acted_fr[s]:
            return True
        size = self.last_raise if self.structure != FL else self.street_size()
        return self.cur - self.acted_level[s] >= size

    def street_size(self) -> int:
        return self.small_bet if self.street < self.big_from else self.big_bet

    def pl_max(self, s: int) -> int:
        owed = self.cur - self.bet[s]
        return self.cur + self.pot + owed

    def raise_range(self, s: int) -> tuple[int, int]:
        """(min, max) legal raise-to for seat s, or (0, 0) when it may not raise.
        A min above the max means only the all-in (== max) is possible."""
        cur = self.cur
        allin = self.bet[s] + self.stack[s]
        if allin <= cur or not self.reopened(s):
            return 0, 0
        if self.structure == FL:
            target = self.last_raise + self.street_size()
            if target <= cur:
                return 0, 0
            to = target if allin > target else allin
            if not self.fl_cap_ok(s, to, to == allin):
                return 0, 0
            return to, to
        lo = cur + self.last_raise
        hi = allin
        if self.structure == PL:
            mx = self.pl_max(s)
            if hi > mx:
                hi = mx
        if lo > hi:
            if hi == allin:
                return allin, allin  # short all-in only
            return 0, 0
        return lo, hi

    def fl_counts(self, to: int, all_in: bool, kind: str | None) -> bool:
        """Does a fixed-limit bet/raise to `to` count toward the cap (mirrors the replay)? In
        stud and draw games a completion, or any raise reaching the next full level over the
        last one (after a short all-in), counts as well."""
        size = self.street_size()
        return (to - self.cur >= size
                or ((kind == "complete" or bool(self.evaluator))
                    and to - self.last_raise >= size)
                or (all_in and 2 * (to - self.last_raise) >= size))

    def fl_cap_ok(self, s: int, to: int, all_in: bool) -> bool:
        counts = self.fl_counts(to, all_in, None)
        if not counts or self.cur == 0 or self.bets < 1 + self.cap_raises:
            return True
        live = self.with_chips()
        if live >= 3 or self.capped:
            return False
        return not self.tournament

    # ------------------------------------------------------------------ applying actions
    def fold(self, s: int) -> None:
        self.folded[s] = True
        self.alive -= 1
        self.acted[s] = True
        self.ev.append(["fold", s, None, None, None, None, self.street, self.cur])
        self.to_act = 0 if self.alive <= 1 else self.next_to_act(s)

    def check(self, s: int) -> None:
        self.acted[s] = True
        self.acted_level[s] = self.cur
        self.acted_fr[s] = self.fr_count
        self.ev.append(["check", s, None, None, None, None, self.street, self.cur])
        self.to_act = self.next_to_act(s)

    def call(self, s: int, add: int | None = None) -> None:
        cur = self.cur
        owed = cur - self.bet[s]
        stack = self.stack[s]
        if add is None:
            add = owed if owed < stack else stack
        self._chips(s, add)
        self.ev.append(["call", s, add, self.bet[s], None,
                        "all_in" if self.stack[s] == 0 else None, self.street, cur])
        self._acted(s)

    def raise_to(self, s: int, to: int, kind: str | None = None) -> None:
        """A bet (when nothing is bet) or raise to `to` (state as the replay sees it)."""
        cur = self.cur
        add = to - self.bet[s]
        all_in = add == self.stack[s]
        inc = to - cur
        if self.structure == FL:
            if self.fl_counts(to, all_in, kind):
                self.last_raise = to
                self.bets += 1
                self.fr_count += 1
                if self.bets >= 1 + self.cap_raises and self.with_chips() >= 3:
                    self.capped = True
        elif inc >= self.last_raise:
            self.last_raise = inc
            self.fr_count += 1
            self.bet_was_short = False
        elif cur == 0:
            self.bet_was_short = True
        self._chips(s, add)
        if kind is None:
            kind = "bet" if cur == 0 else "raise"
        self.ev.append([kind, s, add, to, None, "all_in" if all_in else None, self.street, cur])
        self.last_aggr = s
        self.aggr_street += 1
        self._acted(s)

    def post_live(self, s: int, amount: int, detail: str) -> int:
        """A forced live bet beyond the blinds (a stud bring-in, a kill blind): as much of
        `amount` as the stack holds goes in as a bet; returns what went in."""
        add = min(amount, self.stack[s])
        self._chips(s, add)
        self.ev.append(["post", s, add, self.bet[s], None, detail])
        return add

    def _chips(self, s: int, add: int) -> None:
        self.stack[s] -= add
        self.contrib[s] += add
        self.pot += add
        b = self.bet[s] + add
        self.bet[s] = b
        if b > self.cur:
            self.cur = b

    def _acted(self, s: int) -> None:
        self.acted[s] = True
        self.acted_level[s] = self.cur
        self.acted_fr[s] = self.fr_count
        self.to_act = self.next_to_act(s)

    # ------------------------------------------------------------------ cards
    def deal_holes(self) -> None:
        deck = self.deck
        n = self.hole_n
        hole, ev = self.hole, self.ev
        for s in self.order:
            cards = deck[-1:-n - 1:-1]  # popped from the end, one at a time
            del deck[-n:]
            hole[s] = cards
            ev.append(["deal", s, None, None, " ".join([CARD[c] for c in cards]), "hole"])

    def deal_board(self) -> None:
        deck = self.deck
        nxt = self.street + 1
        need = BOARD_AFTER[nxt] - BOARD_AFTER[self.street]
        self.ev.append(["burn", None, None, None, None, None])
        deck.pop()
        cards = [deck.pop() for _ in range(need)]
        self.board.extend(cards)
        self.ev.append(["deal", None, None, None, " ".join([CARD[c] for c in cards]), "board"])
        self.strength_cache.clear()
        self.new_round(nxt)

    # ------------------------------------------------------------------ settlement
    def strengths(self, s: int) -> tuple[int, int | None]:
        hole = self.hole[s]
        if self.evaluator:
            return game_strength(self.evaluator, hole)
        board = self.board
        if self.hole_n == 2:
            return high_strength(hole + board), None
        lo = omaha_low8_strength(hole, board) if self.hilo else None
        return omaha_high_strength(hole, board), lo


def play(h: Hand, s: int, act: tuple, ev: list, script: Any, raise_kind: str | None = None
         ) -> None:
    """Play a decided action (fold, check, call, or a bet/raise to act[1]) for seat `s` and
    file the injection labels a script attached to it (act[3]) against its event."""
    k = act[0]
    if k == "fold":
        h.fold(s)
    elif k == "check":
        h.check(s)
    elif k == "call":
        h.call(s, act[1] if len(act) > 1 else None)
    else:
        h.raise_to(s, act[1], raise_kind)
    if script is not None and len(act) > 3:
        for rule, seat, primary in act[3]:
            script.labels.append((ev[-1], rule, seat, primary))


def clockwise(h: Hand, seats: list[int]) -> list[int]:
    pos = {s: i for i, s in enumerate(h.order)}
    return sorted(seats, key=lambda s: pos[s])


_LOW_GAMES = ("razz", "lowa5", "low27", "badugi")


def odd_chip_order(h: Hand, seats: list[int], low_half: bool) -> list[int]:
    """Winners in the order odd chips go: clockwise from the button, or in stud by card."""
    if not h.stud:
        return clockwise(h, seats)
    hands = {s: h.hole[s] for s in seats}
    return oddchip_order(seats, hands, low_half or h.evaluator in _LOW_GAMES)


def settle(h: Hand, rake_percent: int, rake_cap: int) -> dict:
    """Compute refunds, pots, winners and the rake; return the settlement (no events)."""
    order = h.order
    contrib, dead, folded = h.contrib, h.dead, h.folded
    live = [contrib[s] - dead[s] for s in range(h.size)]
    top, best, second = 0, -1, 0  # the first seat with the most live money, and the runner-up
    for s in order:
        v = live[s]
        if v > best:
            if top:
                second = best
            top, best = s, v
        elif v > second:
            second = v
    refund_seat, refund = 0, 0
    if live[top] > second:
        refund_seat, refund = top, live[top] - second
        live[top] = second
    contenders = [s for s in order if not folded[s]]
    if len(contenders) == 1:  # everyone else folded (most hands): one pot, no showdown
        pot_total = sum(contrib) - refund
        rake = 0
        if rake_percent and h.street >= 1:
            rake = min(pot_total * rake_percent // 100, rake_cap or pot_total)
        return {"refund_seat": refund_seat, "refund": refund,
                "pots": [("main", pot_total - rake, contenders, contenders, None)],
                "rake": rake, "pot_total": pot_total, "contenders": contenders,
                "showdown": False, "strength": {}}
    pots: list[list] = []  # [amount, eligible]
    # A player all-in on his ante alone (no live chips) can win, from each player, only as
    # much of the dead money as he put in himself: those layers are the first pots (the
    # rulebook's POT-SIDEPOT-BUILD, as the replay's build_pots has it); the rest of the dead
    # money joins the first pot built from the live bets.
    shorts = sorted({dead[s] for s in contenders if not live[s] and dead[s]})
    prev = 0
    for level in shorts:
        amount = sum(min(dead[s], level) - prev for s in order if dead[s] > prev)
        pots.append([amount, [s for s in contenders if dead[s] >= level or live[s]]])
        prev = level
    n_dead = len(pots)
    dead_total = sum(dead[s] - prev for s in order if dead[s] > prev)
    levels = sorted({live[s] for s in contenders if live[s] > 0})
    prev = 0
    for level in levels:
        amount = sum(min(live[s], level) - prev for s in order if live[s] > prev)
        if amount:
            pots.append([amount, [s for s in contenders if live[s] >= level]])
        prev = level
    rest = sum(live[s] - prev for s in order if live[s] > prev)
    if len(pots) == n_dead and (rest or dead_total):
        pots.append([0, pots[-1][1] if n_dead else contenders])
    if rest:  # folded chips above the top live level stay in the last pot
        pots[-1][0] += rest
    if dead_total:
        pots[n_dead][0] += dead_total
    pot_total = sum(p[0] for p in pots)
    rake = 0
    if rake_percent and h.street >= 1:
        rake = pot_total * rake_percent // 100
        if rake_cap and rake > rake_cap:
            rake = rake_cap
    left = rake
    for p in reversed(pots):
        take = min(left, p[0])
        p[0] -= take
        left -= take
    showdown = len(contenders) > 1
    strength: dict[int, tuple[int, int | None]] = {}
    if showdown:
        for s in contenders:
            strength[s] = h.strengths(s)
    results = []  # (label, amount, eligible, high winners, low winners or None)
    for k, (amount, eligible) in enumerate(pots):
        label = "main" if k == 0 else f"side-{k}"
        if len(eligible) == 1:
            results.append((label, amount, eligible, eligible, None))
            continue
        best = max(strength[s][0] for s in eligible)
        high = odd_chip_order(h, [s for s in eligible if strength[s][0] == best], False)
        low = None
        if h.hilo:
            lows = [strength[s][1] for s in eligible if strength[s][1] is not None]
            if lows:
                bl = max(lows)  # type: ignore[type-var]
                low = odd_chip_order(h, [s for s in eligible if strength[s][1] == bl], True)
        results.append((label, amount, eligible, high, low))
    return {"refund_seat": refund_seat, "refund": refund, "pots": results, "rake": rake,
            "pot_total": pot_total, "contenders": contenders, "showdown": showdown,
            "strength": strength}


def split(amount: int, winners: list[int]) -> list[tuple[int, int]]:
    q, r = divmod(amount, len(winners))
    return [(s, q + (1 if i < r else 0)) for i, s in enumerate(winners)]


def award_rows(res: dict) -> list[list]:
    """The award events of a settlement: one per seat per pot (and half)."""
    rows: list[list] = []
    for label, amount, _eligible, high, low in res["pots"]:
        if low:
            lo = amount // 2
            for s, a in split(amount - lo, high):
                if a:
                    rows.append(["award", s, a, None, None, label + "/high"])
            for s, a in split(lo, low):
                if a:
                    rows.append(["award", s, a, None, None, label + "/low"])
        else:
            for s, a in split(amount, high):
                if a:
                    rows.append(["award", s, a, None, None, label])
    return rows
