"""Live-table rulings: the binding action derived from what a player said and how his chips went
in, compared with the action the log records (RULEBOOK §4.10: VERBAL-*, CHIP-*, STRING-*,
TURN-*).

A seat's physical events come before the logged action they resolve (`declare 3 raise`,
`chips 3 200`, `chips 3 100`, then `raise 3 to 300`). When the seat's logged action arrives,
`derive` works out the action the rulebook makes binding under the profile; when it differs
from the logged one, one finding names both and the rule that decides. When they agree, no
finding. Only hands with a `declare` or `chips` event build a LiveTable (audit/replay/hand.py),
so online logs never get these findings. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from audit.replay.live_words import (
    BETTING,
    Declaration,
    Motion,
    Said,
    parse_declaration,
    parse_motion,
)
from audit.replay.state import FL, PL, STREETS, HandState

VERBAL_BINDING = "VERBAL-BINDING"
VERBAL_DISCREPANCY = "VERBAL-BIGBET-DISCREPANCY"
RELEASE_BINDING = "CHIP-RELEASE-BINDING"
MISUNDERSTANDING = "CHIP-GROSS-MISUNDERSTANDING"
OVERSIZE_CALL = "CHIP-SINGLE-OVERSIZE-CALL"
SINGLE_CHIP_BET = "CHIP-SINGLE-CHIP-BET"
FULL_PLUS_HALF = "CHIP-FULL-PLUS-HALF"
STRING_RAISE = "STRING-RAISE"
MULTIMOVE = "STRING-BIGBET-MULTIMOVE"
FORWARD_MOTION = "CHIP-FORWARD-MOTION"
RIGHT_TO_ACT = "TURN-RIGHT-TO-ACT"
RAP = "CHIP-RAP"
UNDERMIN_FIX = "BET-NL-UNDERMIN-FIX"
DQ = "DQ-INCONSISTENT-LOG"
# The chips alone decide (no declaration, no special chip rule): a logged fold or check then
# breaks CHIP-RELEASE-BINDING; a logged amount that differs is a log that contradicts itself.
CHIPS = ""

# House remedies and thresholds (schemas/profiles/montana.toml) and their closed vocabularies.
STRING_REMEDIES = frozenset({"call", "first_motion"})


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveRules:
    """The profile parameters the live rulings read."""

    verbal: str = "binds_overrides"  # P16: binds_overrides | must_take | bigbet_corrected
    multimotion: str = "cash_only"  # P10: cash_only | always
    big_chip: str = "pot_unless_facing_bet"  # P14: pot_unless_facing_bet | pot
    oot: str = "montana"  # P15: montana | uspa | etiquette
    misunderstanding_percent: int = 80  # CHIP-GROSS-MISUNDERSTANDING rule of thumb
    string_remedy: str = "call"  # STRING-RAISE house remedy: call | first_motion
    players_behind: int = 3  # TURN-RIGHT-TO-ACT: players acting behind before the right is lost

    @classmethod
    def from_values(cls, values: dict[str, Any]) -> LiveRules:
        d = cls()
        return cls(
            verbal=str(values.get("verbal", d.verbal)),
            multimotion=str(values.get("nl.multimotion", d.multimotion)),
            big_chip=str(values.get("pl.big_chip", d.big_chip)),
            oot=str(values.get("oot", d.oot)),
            misunderstanding_percent=int(values.get("misunderstanding.percent",
                                                    d.misunderstanding_percent)),
            string_remedy=str(values.get("string.remedy", d.string_remedy)),
            players_behind=int(values.get("time.players_behind", d.players_behind)),
        )


_RULE_KEYS = ("verbal", "nl.multimotion", "pl.big_chip", "oot", "misunderstanding.percent",
              "string.remedy", "time.players_behind")


@lru_cache(maxsize=64)
def _rules(*values: Any) -> LiveRules:
    """LiveRules of a profile's values (cached: every live hand of a run asks again)."""
    return LiveRules.from_values({k: v for k, v in zip(_RULE_KEYS, values, strict=True)
                                  if v is not None})


@dataclass(frozen=True, slots=True, kw_only=True)
class Situation:
    """What the seat faces when it acts: round totals, pot and sizes, in minor units."""

    cur: int  # the bet to match this round
    mine: int  # the seat's own total this round
    stack: int  # chips behind
    pot: int  # every chip in the pot, this round's bets included
    structure: int  # FL, PL or NL (audit/replay/state.py)
    size: int  # fixed limit: the bet of this round
    limit_to: int  # fixed limit: the total a bet or raise goes to
    min_raise: int  # big bet: the smallest legal increment (the minimum bet when opening)
    tournament: bool = False
    prev_level: int = 0  # the bet before the last raise of the round (an unaware caller)
    may_raise: bool = True  # False: the round is capped, or not reopened to him since he acted

    @property
    def owed(self) -> int:
        return max(self.cur - self.mine, 0)

    @property
    def cap(self) -> int:
        """The seat's all-in total."""
        return self.mine + self.stack

    @property
    def pot_max(self) -> int:
        """Pot limit: the largest total (the pot after the call, plus the call)."""
        return self.cur + self.pot + self.owed


@dataclass(frozen=True, slots=True, kw_only=True)
class Binding:
    """The action the rulebook holds the player to; `total` None when only the kind is known."""

    action: str  # fold | check | call | raise (an opening bet is a raise from nothing)
    total: int | None
    rule: str  # the rule id that decides it (CHIPS: the chips as they went in)
    why: str


def situation(h: HandState, s: int, prev_level: int = 0) -> Situation:
    """The Situation of seat `s` in the replay state, before its action is applied."""
    size = h.small_bet if h.street < h.big_from else h.big_bet
    may_raise = not h.capped
    if may_raise and h.acted[s] and h.cur_bet > h.bet[s]:
        full = size if h.structure == FL else h.last_raise
        aggregate = h.st.allin_aggregate if h.structure == FL else h.st.nl_reopen_aggregate
        may_raise = h.fr_count > h.acted_fr[s] or (
            aggregate and h.cur_bet - h.acted_level[s] >= full)
    return Situation(cur=h.cur_bet, mine=h.bet[s], stack=h.stack[s], pot=h.pot_total(),
                     structure=h.structure, size=size, limit_to=h.last_raise + size,
                     min_raise=h.last_raise or h.min_bet, tournament=h.tournament,
                     prev_level=prev_level, may_raise=may_raise)


def _made(sit: Situation, total: int, rule: str, why: str) -> Binding:
    """A binding to `total`, capped at the seat's chips, named by what it does. A player who
    may not raise (capped round, not reopened) is held to a call: the surplus goes back."""
    total = min(total, sit.cap)
    if not sit.may_raise:
        total = min(total, sit.cur)
    if total > sit.cur:
        return Binding(action="raise", total=total, rule=rule, why=why)
    if total <= sit.mine and sit.cur <= sit.mine:
        return Binding(action="check", total=sit.mine, rule=rule, why=why)
    return Binding(action="call", total=min(sit.cur, sit.cap), rule=rule, why=why)


def derive(sit: Situation, said: Declaration | None, motions: Sequence[Motion],
           rules: LiveRules) -> Binding | None:
    """The binding action from the first in-turn declaration and the chip motions, or None
    when the physical layer does not settle it."""
    released = [m for m in motions if m.released]
    b = None
    if said is not None and (rules.verbal != "bigbet_corrected" or sit.structure != FL
                             or said.said is Said.RAP):  # a rap is no verbal statement
        b = _from_words(sit, said, released, rules)
    if b is None and released:
        b = _from_chips(sit, released, rules)
    if b is not None and sit.structure == FL and b.action == "raise":
        # At limit the size of a bet or raise is the structure's (BET-LIMIT-*): the physical
        # layer decides only that it is one.
        b = Binding(action="raise", total=None, rule=b.rule, why=b.why)
    return b


def _from_words(sit: Situation, said: Declaration, released: Sequence[Motion],
                rules: LiveRules) -> Binding | None:
    w = f'said "{said.words}"'
    chips = sum(m.amount for m in released)
    s = said.said
    if s is Said.FOLD:
        return Binding(action="fold", total=None, rule=VERBAL_BINDING, why=w)
    if s is Said.CHECK or s is Said.RAP:
        if sit.owed > 0:
            return None  # a check facing a bet is no action at all: the chips decide
        if s is Said.RAP:
            return Binding(action="check", total=sit.mine, rule=RAP, why="rapped the table")
        return Binding(action="check", total=sit.mine, rule=VERBAL_BINDING, why=w)
    if s is Said.CALL:
        return _made(sit, sit.cur, VERBAL_BINDING, w)
    if s is Said.ALL_IN:
        return _made(sit, sit.cap, VERBAL_BINDING, w)
    if sit.structure == FL:  # "bet", "raise", "pot" at limit: the round's one bet or raise
        return _made(sit, sit.limit_to, VERBAL_BINDING, w)
    if s is Said.POT:
        if sit.structure == PL:
            return _made(sit, sit.pot_max, VERBAL_BINDING, w)
        return Binding(action="raise", total=None, rule=VERBAL_BINDING, why=w)
    minimum = sit.cur + sit.min_raise
    if said.amount is not None:  # a stated amount binds; the chips are corrected to it
        total = said.amount if said.to else sit.cur + said.amount
        if sit.cur < total < minimum and total < sit.cap:  # ...but not below the minimum
            return _made(sit, minimum, UNDERMIN_FIX,
                         f"{w}, less than the minimum {'raise' if sit.cur else 'bet'} to "
                         f"{minimum}")
        rule = VERBAL_DISCREPANCY if released and sit.mine + chips != min(total, sit.cap) \
            else VERBAL_BINDING
        return _made(sit, total, rule, w)
    # "raise" or "bet" without an amount: the chips say how much
    if not released:
        return Binding(action="raise", total=None, rule=VERBAL_BINDING, why=w)
    if len(released) > 1 and rules.multimotion == "cash_only" and sit.tournament:
        first = sit.mine + released[0].amount
        return _made(sit, max(first, minimum), MULTIMOVE,
                     f"{w} and then put the chips in {len(released)} motions in a tournament")
    total = sit.mine + chips
    if total < minimum and total < sit.cap:
        return _made(sit, minimum, UNDERMIN_FIX if total > sit.cur else VERBAL_BINDING,
                     f"{w} with chips to {total}, less than the minimum raise to {minimum}")
    return _made(sit, total, VERBAL_BINDING, w)


def _from_chips(sit: Situation, released: Sequence[Motion], rules: LiveRules) -> Binding | None:
    chips = sum(m.amount for m in released)
    total = sit.mine + chips
    owed = sit.owed
    n = len(released)
    single = n == 1 and released[0].chips == 1
    if single and chips > owed:
        chip = f"put in a single {chips} chip without a word"
        if owed > 0:
            if sit.structure == PL and rules.big_chip == "pot" and chips > sit.pot:
                return _made(sit, sit.pot_max, SINGLE_CHIP_BET, chip + ", larger than the pot")
            return _made(sit, sit.cur, OVERSIZE_CALL, chip + " while facing a bet")
        if sit.cur > 0:  # a big blind whose bet is matched: the seeds do not say; not ruled
            return None
        if chips < sit.min_raise and total < sit.cap:
            return _made(sit, sit.min_raise, UNDERMIN_FIX,
                         f"{chip}, less than the minimum bet of {sit.min_raise}")
        if sit.structure == PL and chips > sit.pot:
            return _made(sit, sit.pot_max, SINGLE_CHIP_BET, chip + ", larger than the pot")
        if sit.structure != FL:
            return _made(sit, total, SINGLE_CHIP_BET, chip + " when not facing a bet")
        return _made(sit, sit.limit_to, CHIPS, chip)
    if n > 1 and total > sit.cur:
        first = sit.mine + released[0].amount
        why = (f"put chips in {n} motions ({', '.join(str(m.amount) for m in released)}) "
               "without first saying raise")
        if rules.string_remedy == "first_motion" and first > sit.cur:
            if sit.structure == FL:
                return _made(sit, sit.limit_to if first - sit.cur >= (sit.size + 1) // 2
                             else sit.cur, STRING_RAISE, why)
            return _made(sit, max(first, sit.cur + sit.min_raise), STRING_RAISE, why)
        if sit.cur > 0:  # only a call stands (a check for a big blind already matched)
            return _made(sit, sit.cur, STRING_RAISE, why)
        if sit.structure == FL:
            return _made(sit, sit.limit_to, CHIPS, why)
        return _made(sit, max(first, sit.min_raise), STRING_RAISE, why)
    moved = f"put in {chips}"
    if sit.structure == FL:
        if owed > 0 and total > sit.cur:
            half = (sit.size + 1) // 2
            extra = chips - owed
            if extra >= sit.size:
                return _made(sit, sit.limit_to, CHIPS, moved)
            if extra >= half:
                return _made(sit, sit.limit_to, FULL_PLUS_HALF,
                             f"{moved}: a full call plus {extra}, half a bet ({half}) or more")
            return _made(sit, sit.cur, FULL_PLUS_HALF,
                         f"{moved}: a call plus {extra}, less than half a bet ({half})")
        if total > sit.cur:
            return _made(sit, sit.limit_to, CHIPS, moved)
    elif total > sit.cur and total < sit.cap:
        if sit.cur == 0 and chips < sit.min_raise:
            return _made(sit, sit.min_raise, UNDERMIN_FIX,
                         f"{moved}, less than the minimum bet of {sit.min_raise}")
        if owed > 0 and total - sit.cur < sit.min_raise:
            return None  # a raise short of the minimum, or a call with too much: not provable
    if total >= sit.cur or total >= sit.cap:
        return _made(sit, total, CHIPS, moved)
    # a short call: the released chips bind and must be made up
    if owed > 0 and chips == sit.prev_level - sit.mine:
        return None  # he called the bet before the raise, unaware of it: he may take it back
    return _made(sit, sit.cur, RELEASE_BINDING, f"released {chips} of the {owed} owed")


def misunderstood(sit: Situation, said: Declaration | None, released: Sequence[Motion],
                  rules: LiveRules) -> int | None:
    """Big bet: the chips of a call under the rule-of-thumb share of the amount owed (a gross
    misunderstanding the floor may release), or None."""
    if sit.structure == FL or sit.owed <= 0 or not released:
        return None
    if said is not None and said.said is not Said.CALL:
        return None
    chips = sum(m.amount for m in released)
    if chips >= sit.owed or sit.mine + chips >= sit.cap:
        return None
    if chips * 100 >= rules.misunderstanding_percent * sit.owed:
        return None
    return chips


def logged_as(kind: str, sit: Situation, amount: int | None, total: int | None
              ) -> tuple[str, int | None]:
    """A logged action in the terms of a Binding: (fold|check|call|raise, round total)."""
    if kind in ("bet", "raise", "complete"):
        t = total if total is not None else (sit.mine + amount if amount is not None else None)
        return "raise", t
    if kind == "call" and sit.owed == 0:
        return "check", sit.mine
    if kind == "call":
        return "call", None
    return kind, sit.mine if kind == "check" else None


def differs(b: Binding, logged: tuple[str, int | None]) -> bool:
    action, total = logged
    if action != b.action:
        return True
    return action == "raise" and b.total is not None and total is not None and total != b.total


def describe(action: str, total: int | None) -> str:
    if action == "raise":
        return f"bet or raise to {total}" if total is not None else "a bet or raise"
    if action == "call" and total is not None:
        return f"call to {total}"
    return action


@dataclass(slots=True)
class _Seat:
    """What one seat did physically since its last logged action."""

    said: Declaration | None = None  # first in-turn betting declaration
    said_seq: int = 0
    after_chips: bool = False  # a released motion came before any declaration
    motions: list[Motion] = field(default_factory=list)
    first_seq: int = 0
    timed: bool = False  # called "time"
    forward: bool = False  # a held forward motion made another player act

    def empty(self) -> bool:
        return self.said is None and not self.motions


class LiveTable:
    """Per-hand state of the physical layer, fed by audit/replay/hand.py."""

    __slots__ = ("rules", "seats", "oot_said", "skipped", "street", "prev_level", "level")

    def __init__(self, values: dict[str, Any]) -> None:
        self.rules = _rules(*(values.get(k) for k in _RULE_KEYS))
        self.seats: dict[int, _Seat] = {}
        self.oot_said: dict[int, tuple[Declaration, int, int, int]] = {}
        self.skipped: dict[int, set[int]] = {}  # seat to act -> seats that acted behind him
        self.street = -1
        self.prev_level = 0
        self.level = 0

    def _sync(self, h: HandState, seq: int) -> None:
        """A new betting round: what a seat did physically without a logged action is a gap."""
        if h.street == self.street:
            return
        self._unresolved(h, seq)
        self.street = h.street
        self.oot_said.clear()
        self.skipped.clear()
        self.prev_level = 0
        self.level = h.cur_bet

    def _unresolved(self, h: HandState, seq: int) -> None:
        for s, p in sorted(self.seats.items()):
            if p.motions or (p.said is not None and p.said.said is not Said.CHECK):
                h.flag(DQ, p.first_seq, f"{h.who(s)} declared or put chips in on the "
                       f"{STREETS[min(self.street, 4)]} but the log records no action for him "
                       "after it; the physical layer could not be checked.", seat=s)
        self.seats.clear()

    def physical(self, h: HandState, kind: str, s: int | None, amount: int | None,
                 detail: str | None, seq: int, started: bool = True) -> None:
        """A `declare` or `chips` event (`started`: the forced bets or the deal have begun)."""
        if not started:
            h.flag(DQ, seq, f"A {kind} event comes before any forced bet or card of the hand; "
                   "there is no betting to rule on yet, so it is ignored.")
            return
        if h.street != self.street:
            self._sync(h, seq)
        if s is None or not 0 < s < h.size or not h.in_hand[s]:
            h.flag(DQ, seq, f"A {kind} event names seat {s}, which was not dealt into this "
                   "hand; it is ignored.")
            return
        p = self.seats.get(s)
        if p is None:
            p = self.seats[s] = _Seat(first_seq=seq)
        if kind == "chips":
            m = parse_motion(amount, detail)
            if m is None:
                h.flag(DQ, seq, f"{h.who(s)}'s chip motion of {amount} has denominations "
                       f"{detail!r} that cannot be read or do not add up; write them as "
                       "COUNTxVALUE (e.g. 2x100+1x25).", seat=s)
                return
            if m.released and p.said is None:
                p.after_chips = True
            p.motions.append(m)
            return
        d = parse_declaration(detail)
        if d.said is Said.TIME:
            p.timed = True
            return
        if d.said not in BETTING:
            return
        if h.to_act and s != h.to_act:
            self.oot_said.setdefault(s, (d, h.cur_bet, seq, h.n_actions))
            self.skipped.setdefault(h.to_act, set()).add(s)
            return
        if p.said is None and not p.after_chips:
            p.said = d
            p.said_seq = seq

    def before_action(self, h: HandState, kind: str, s: int | None, amount: int | None,
                      total: int | None, seq: int) -> None:
        """A logged action, before the replay applies it."""
        if h.street != self.street:
            self._sync(h, seq)
        self.level = h.cur_bet
        if s is None or not 0 < s < h.size or not h.in_hand[s] or h.folded[s]:
            return
        exp = h.to_act
        p = self.seats.pop(s, None)
        if exp and s != exp:  # out of turn: it acts behind the seat whose turn it is
            self.skipped.setdefault(exp, set()).add(s)
            waiting = self.seats.get(exp)
            if waiting is not None and any(not m.released for m in waiting.motions):
                waiting.forward = True
        else:
            if self.skipped:
                self._turn(h, s, kind, seq, p)
            if self.oot_said:
                self._oot(h, s, kind, amount, total, seq)
        if p is None or p.empty():
            return
        sit = situation(h, s, self.prev_level)
        logged = logged_as(kind, sit, amount, total)
        if logged[0] == "raise" and not sit.may_raise:
            return  # an illegal raise: BET-CAP-*, BET-ALLIN-HALFBET or BET-NL-NO-REOPEN say so
        if logged[1] is not None and logged[1] > sit.cap:
            return  # more than he had: HOUSE-TABLE-STAKES says so
        released = [m for m in p.motions if m.released]
        short = misunderstood(sit, p.said, released, self.rules)
        if short is not None and logged[0] == "fold" and short == sit.prev_level - sit.mine:
            return  # he called the bet before the raise, unaware of it, and took it back
        if short is not None:
            h.flag(MISUNDERSTANDING, seq, f"{h.who(s)} called with {h.money(short)} of the "
                   f"{h.money(sit.owed)} owed (under {self.rules.misunderstanding_percent}%); "
                   "the floor may release a call made on a gross misunderstanding of the bet. "
                   f"The log records {describe(*logged)}. Review.", seat=s,
                   expected=f"call to {sit.cur}", actual=describe(*logged))
            return
        b = derive(sit, p.said, p.motions, self.rules)
        if b is None:
            self._forward(h, s, p, sit, logged, seq)
            return
        if not differs(b, logged):
            return
        rule = b.rule
        if rule == CHIPS:
            rule = RELEASE_BINDING if logged[0] in ("fold", "check") else DQ
        if rule == UNDERMIN_FIX and logged[0] == "raise" and logged[1] is not None \
                and b.total is not None and logged[1] < b.total:
            return  # the short wager stands in the log: BET-NL-MIN-BET/-MIN-RAISE say so already
        delta = None
        if logged[0] == "raise" == b.action and logged[1] is not None and b.total is not None:
            delta = logged[1] - b.total
        h.flag(rule, seq, f"{h.who(s)} {b.why}; the binding action is "
               f"{describe(b.action, b.total)}, but the log records {describe(*logged)}.",
               seat=s, expected=describe(b.action, b.total), actual=describe(*logged),
               delta=delta)

    def after_action(self, h: HandState) -> None:
        """After the replay applied a logged action: remember the bet before a raise."""
        if h.cur_bet > self.level:
            self.prev_level = self.level
            self.level = h.cur_bet

    def finish(self, h: HandState, seq: int) -> None:
        """End of the hand: physical events nobody's logged action resolved."""
        self._unresolved(h, seq)

    # --- the seat's turn -------------------------------------------------------------------

    def _turn(self, h: HandState, s: int, kind: str, seq: int, p: _Seat | None) -> None:
        """TURN-RIGHT-TO-ACT: several players acted behind him before he acted."""
        behind = self.skipped.pop(s, set())
        if len(behind) >= self.rules.players_behind and not (p is not None and p.timed):
            h.flag(RIGHT_TO_ACT, seq, f"{len(behind)} players (seats "
                   f"{', '.join(map(str, sorted(behind)))}) acted behind {h.who(s)} before he "
                   f"acted ({kind}) and he had not called time; he may have lost his right to "
                   "act. Review.", seat=s, expected="time called", actual=kind)

    def _oot(self, h: HandState, s: int, kind: str, amount: int | None, total: int | None,
             seq: int) -> None:
        """TURN-OOT-*: a declaration out of turn, then a different action in turn."""
        held = self.oot_said.pop(s, None)
        if held is None or s in h.oot:  # a logged out-of-turn action: betting.py rules on it
            return
        sit = situation(h, s, self.prev_level)
        d, level, oseq, n_then = held
        action = logged_as(kind, sit, amount, total)[0]
        said = {Said.BET: "raise", Said.RAISE: "raise", Said.POT: "raise", Said.RAP: "check",
                Said.ALL_IN: "raise" if sit.cap > sit.cur else "call"}.get(d.said, str(d.said))
        if said == "check" and action == "raise":
            h.flag("TURN-OOT-CHECK", seq, f"{h.who(s)} said \"{d.words}\" out of turn (event "
                   f"{oseq}) and then bet or raised at his turn; a player who checks out of turn "
                   "may not bet or raise at his next turn.", seat=s,
                   expected="check, call or fold", actual=kind)
            return
        if said == "call" and action == "raise":
            h.flag("TURN-OOT-CALL", seq, f"{h.who(s)} said \"{d.words}\" out of turn (event "
                   f"{oseq}) and then raised at his turn; a player who calls out of turn may not "
                   "turn it into a raise.", seat=s, expected="call or fold", actual=kind)
            return
        if said == action or self.rules.oot == "etiquette":
            return
        binding = h.cur_bet == level
        if self.rules.oot == "uspa":
            binding = binding and h.n_actions == n_then
        if binding:
            h.flag("TURN-OOT-BINDING", seq, f"{h.who(s)} said \"{d.words}\" out of turn (event "
                   f"{oseq}) and then did something else ({kind}) at his turn although the "
                   "action to him had not changed; the out-of-turn declaration was binding.",
                   seat=s, expected=said, actual=kind)

    def _forward(self, h: HandState, s: int, p: _Seat, sit: Situation,
                 logged: tuple[str, int | None], seq: int) -> None:
        """CHIP-FORWARD-MOTION: at limit, chips moved forward (not released) made another
        player act, and then the player did not complete the action."""
        if sit.structure != FL or not p.forward or logged[0] not in ("fold", "check"):
            return
        held = max(m.amount for m in p.motions if not m.released)
        intended = "bet" if sit.owed == 0 else ("call" if held <= sit.owed else "raise")
        h.flag(FORWARD_MOTION, seq, f"{h.who(s)} moved {h.money(held)} forward without "
               "releasing it, another player acted on that motion, and then he "
               f"{'checked' if logged[0] == 'check' else 'folded'}; at limit a forward motion "
               f"that makes another player act may oblige him to complete the {intended}. "
               "Review.", seat=s, expected=intended, actual=logged[0])
