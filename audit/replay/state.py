"""Mutable state of one hand during replay: seats, stacks, street, round totals, pots, findings.

Internal only: a __slots__ class with plain ints and lists (indexed by seat number) so the
replay loop stays fast. Nothing here is shared between hands.
"""

from __future__ import annotations

from typing import Any

from audit.rules.findings import Finding, finding
from audit.rules.ids import BET_CAP_MULTIROUND, BET_LIMIT_HOLDEM_STREETS
from audit.rules.settings import Settings

FL, PL, NL = 0, 1, 2
STRUCTURES = {"fixed_limit": FL, "pot_limit": PL, "no_limit": NL, "half_pot": PL}
HOLE_COUNT = {"holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5,
              "omaha6": 6, "omaha6_hilo": 6, "irish": 4}
HILO = frozenset({"omaha_hilo", "omaha5_hilo", "omaha6_hilo"})
# games dealt with two boards street by street, each pot halved between them (the second
# board's cards are `board@run2`, as a run-it-twice's: audit/replay/dealing.py)
SPLIT_BOARDS = frozenset({"holdem_split"})
STREETS = ("preflop", "flop", "turn", "river", "showdown")
BOARD_AFTER = (0, 3, 4, 5)  # board size once street n has been dealt


def say_money(amount: int, mpu: int) -> str:
    """An amount in minor units as the floor would say it (`mpu` minor units per unit)."""
    neg = "-" if amount < 0 else ""
    a = -amount if amount < 0 else amount
    if mpu == 100:
        return f"{neg}{a // 100}.{a % 100:02d}"
    if mpu > 1:
        return f"{neg}{a} minor units"
    return f"{neg}{a}"


class HandState:
    """Everything the replay knows about one hand at the current event."""

    __slots__ = (
        "hand_id", "st", "findings", "game", "variant", "structure", "hole_n", "hilo",
        "tournament", "sb", "bb", "small_bet", "big_bet", "min_bet", "ante", "mpu", "currency",
        "button", "seats", "order", "size", "player", "start", "stack", "bet", "contrib",
        "dead", "in_hand", "folded", "acted", "acted_level", "acted_fr", "hole", "shown",
        "mucked", "street", "board", "cur_bet", "last_raise", "fr_count", "bets", "capped",
        "aggressor", "last_actor", "anchor", "to_act", "sb_seat", "bb_seat", "straddle_seat",
        "straddles",
        "oot", "n_actions", "void", "burns", "vpip", "pfr", "aggr", "calls", "folded_street",
        "allin_street", "faced_from", "actions_seen", "refunds_implicit", "rake_implicit",
        "rake_logged", "room_added", "awards", "award_seqs", "uncalled_logged", "timeline",
        "round_open",
        "street_burns", "bet_was_short", "awards_unrecorded", "dealt_seqs", "showdown", "last_seq",
        "run_cards", "kill_seat", "discarded",
        # stud/draw hooks (audit/replay/family/hooks.py); defaults keep button games unchanged
        "vh", "big_from", "street_rule", "order_ids", "cap_rule",
    )

    def __init__(self, hand_id: str, game: dict[str, Any], st: Settings) -> None:
        self.hand_id = hand_id
        self.st = st
        self.findings: list[Finding] = []
        self.game = game
        self.variant = game.get("variant") or "holdem"
        self.structure = STRUCTURES.get(game.get("structure") or "no_limit", NL)
        self.hole_n = HOLE_COUNT.get(self.variant, 2)
        self.discarded: dict[int, int] = {}  # Irish: hole cards each seat discarded
        self.hilo = self.variant in HILO
        t = game.get("tournament")
        self.tournament = bool(t) if t is not None else st.tournament
        bb = game.get("big_blind") or 0
        self.bb = bb
        self.sb = game.get("small_blind") or (bb // 2)
        self.small_bet = game.get("small_bet") or bb
        self.big_bet = game.get("big_bet") or 2 * self.small_bet
        mb = game.get("min_bet")
        if st.nl_min_house and st.min_bet_amount:
            mb = st.min_bet_amount
        self.min_bet = mb if (mb and (st.nl_min_house or mb > bb)) else bb
        if self.min_bet <= 0:
            self.min_bet = 1
        self.ante = game.get("ante") or 0
        self.mpu = game.get("minor_per_unit") or 1
        self.currency = game.get("currency") or ""
        self.button = game.get("button_seat") or 0
        self.seats: list[int] = []
        self.order: list[int] = []
        self.size = 0
        self.street = 0
        self.board: list[int] = []
        self.cur_bet = 0
        self.last_raise = self.min_bet
        self.fr_count = 0
        self.bets = 0
        self.capped = False
        self.aggressor = 0
        self.last_actor = 0
        self.anchor = 0
        self.to_act = 0
        self.sb_seat = 0
        self.bb_seat = 0
        self.straddle_seat = 0
        self.straddles = 0  # straddles posted this hand
        self.oot: dict[int, tuple[str, int, int, int]] = {}
        self.n_actions = 0
        self.void = False
        self.burns = 0
        self.refunds_implicit = False
        self.rake_implicit = False
        self.rake_logged = 0
        self.room_added = 0  # the room's own money in the pot (`pot_added`): no seat's
        self.awards: list[tuple[int, int, str]] = []
        self.award_seqs: dict[int, int] = {}
        self.uncalled_logged = False
        self.awards_unrecorded = False
        self.timeline: list[dict[str, Any]] | None = None
        self.round_open = False
        self.street_burns = [0, 0, 0, 0]
        self.bet_was_short = False
        self.dealt_seqs: dict[int, int] = {}
        self.run_cards: dict[int, list[int]] = {}  # run-it-twice: run number -> its own cards
        self.kill_seat = 0  # a button game's kill blind this deal (audit/replay/kill.py)
        self.showdown = False
        self.last_seq = 0
        self.actions_seen = 0
        self.vh: Any = None  # FamilyHooks of a stud/draw hand (audit/replay/family/hooks.py)
        self.big_from = 2  # first betting round played at the big bet (fixed limit)
        self.street_rule: str | None = (
            BET_LIMIT_HOLDEM_STREETS if self.variant.startswith(("holdem", "omaha")) else None)
        self.order_ids: tuple[str, str] | None = None  # (first round, later rounds) order ids
        self.cap_rule = BET_CAP_MULTIROUND

    def alloc(self, max_seat: int) -> None:
        """Size the per-seat lists for seats 1..max_seat."""
        n = max_seat + 1
        self.size = n
        self.player: list[str | None] = [None] * n
        self.start = [0] * n
        self.stack = [0] * n
        self.bet = [0] * n
        self.contrib = [0] * n
        self.dead = [0] * n
        self.in_hand = [False] * n
        self.folded = [False] * n
        self.acted = [False] * n
        self.acted_level = [0] * n
        self.acted_fr = [0] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.shown: list[tuple[int, ...] | None] = [None] * n
        self.mucked = [False] * n
        self.vpip = [False] * n
        self.pfr = [False] * n
        self.aggr = [0] * n
        self.calls = [0] * n
        self.folded_street: list[str | None] = [None] * n
        self.allin_street: list[str | None] = [None] * n
        self.faced_from: list[str | None] = [None] * n

    def seat_order(self) -> None:
        """Clockwise order of the dealt-in seats, starting left of the button."""
        seats = sorted(s for s in range(1, self.size) if self.in_hand[s])
        self.seats = seats
        b = self.button
        self.order = [s for s in seats if s > b] + [s for s in seats if s <= b]

    # --- findings -------------------------------------------------------------------------

    def flag(self, rule_id: str, seq: int | None, message: str, *, seat: int | None = None,
             expected: object = None, actual: object = None, delta: int | None = None,
             counterparty: str | None = None, severity: str | None = None) -> None:
        """Record a finding unless the profile disables the rule. `severity` lowers a rule's
        default for a finding that is a lead rather than a proven breach; a profile override
        still wins."""
        st = self.st
        if rule_id in st.disabled:
            return
        self.findings.append(finding(
            rule_id, hand_id=self.hand_id, seq=seq, message=message, seat=seat,
            player=self.player[seat] if seat is not None and 0 < seat < self.size else None,
            counterparty=counterparty, expected=expected, actual=actual, delta=delta,
            severity=st.severity.get(rule_id) or severity,
        ))

    def who(self, seat: int) -> str:
        """'seat 3 (carol)' for messages."""
        p = self.player[seat] if 0 < seat < self.size else None
        return f"seat {seat} ({p})" if p else f"seat {seat}"

    def money(self, amount: int) -> str:
        """An amount in minor units as the floor would say it."""
        return say_money(amount, self.mpu)

    # --- turn order -----------------------------------------------------------------------

    def live(self, s: int) -> bool:
        """In the hand, not folded, chips behind (can still act)."""
        return self.in_hand[s] and not self.folded[s] and self.stack[s] > 0

    def next_to_act(self, after: int) -> int:
        """First seat clockwise after `after` that still owes an action this round (0 = none)."""
        order = self.order
        n = len(order)
        if n == 0:
            return 0
        start = -1
        for i in range(n):
            if order[i] == after:
                start = i + 1
                break
        if start < 0:
            start = self._index_after(after)
        cur = self.cur_bet
        in_hand, folded, stack, acted, bet = (self.in_hand, self.folded, self.stack,
                                              self.acted, self.bet)
        # if only one player can act and owes nothing, the round is over: he owes nothing once
        # he has the current bet in, or as much as any other player in the hand (the others
        # are all in: more from him could not be called)
        can_act = 0
        for s in order:
            if in_hand[s] and not folded[s] and stack[s] > 0:
                can_act += 1
        for k in range(n):
            s = order[(start + k) % n]
            if in_hand[s] and not folded[s] and stack[s] > 0 and (
                    not acted[s] or bet[s] < cur):
                if can_act == 1 and (bet[s] >= cur or bet[s] >= self.top_other_bet(s)):
                    return 0
                return s
        return 0

    def top_other_bet(self, seat: int) -> int:
        """The most any other player still in the hand has in on this round."""
        top = 0
        for s in self.seats:
            if s != seat and self.in_hand[s] and not self.folded[s] and self.bet[s] > top:
                top = self.bet[s]
        return top

    def _index_after(self, seat: int) -> int:
        """Index in `order` of the first seat clockwise after `seat` (seat may be empty)."""
        order = self.order
        n = len(order)
        # clockwise distance from the button
        b = self.button
        size = self.size + 1
        d = (seat - b - 1) % size
        for i in range(n):
            if (order[i] - b - 1) % size > d:
                return i
        return 0

    def remaining(self) -> int:
        """Players still in the hand (not folded)."""
        c = 0
        for s in self.seats:
            if not self.folded[s]:
                c += 1
        return c

    def contestants_with_chips(self) -> int:
        c = 0
        for s in self.seats:
            if not self.folded[s] and self.stack[s] > 0:
                c += 1
        return c

    def pot_total(self) -> int:
        return sum(self.contrib)
