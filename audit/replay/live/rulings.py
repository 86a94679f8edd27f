"""Live-table rulings as pure functions: the action the rulebook makes binding, from the first
in-turn declaration and the chip motions of one seat in one Situation, under the profile's
LiveRules (RULEBOOK §4.10). No replay state here: audit/replay/live/tracker.py builds the Situation
from the replay and compares the Binding with the logged action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from audit.replay.live.words import Declaration, Motion, Said
from audit.replay.state import FL, PL
from audit.rules.ids import (
    BET_NL_DENOM,
    BET_NL_UNDERMIN_FIX,
    BET_UNDERSIZE_FIX,
    CHIP_FORWARD_MOTION,
    CHIP_FULL_PLUS_HALF,
    CHIP_GROSS_MISUNDERSTANDING,
    CHIP_MIN_UNIT,
    CHIP_RAP,
    CHIP_RELEASE_BINDING,
    CHIP_SINGLE_CHIP_BET,
    CHIP_SINGLE_OVERSIZE_CALL,
    DQ_INCONSISTENT_LOG,
    DRAW_CHANGE_COUNT,
    STRING_BIGBET_MULTIMOVE,
    STRING_RAISE,
    TURN_RIGHT_TO_ACT,
    VERBAL_BIGBET_DISCREPANCY,
    VERBAL_BINDING,
)

VERBAL_DISCREPANCY = VERBAL_BIGBET_DISCREPANCY
RELEASE_BINDING = CHIP_RELEASE_BINDING
MISUNDERSTANDING = CHIP_GROSS_MISUNDERSTANDING
OVERSIZE_CALL = CHIP_SINGLE_OVERSIZE_CALL
SINGLE_CHIP_BET = CHIP_SINGLE_CHIP_BET
FULL_PLUS_HALF = CHIP_FULL_PLUS_HALF
MULTIMOVE = STRING_BIGBET_MULTIMOVE
FORWARD_MOTION = CHIP_FORWARD_MOTION
RIGHT_TO_ACT = TURN_RIGHT_TO_ACT
RAP = CHIP_RAP
UNDERMIN_FIX = BET_NL_UNDERMIN_FIX
UNDERSIZE_FIX = BET_UNDERSIZE_FIX  # the limit counterpart of BET-NL-UNDERMIN-FIX
MIN_UNIT = CHIP_MIN_UNIT
NL_DENOM = BET_NL_DENOM
DRAW_CHANGE = DRAW_CHANGE_COUNT
DQ = DQ_INCONSISTENT_LOG
# The chips alone decide (no declaration, no special chip rule): a logged fold or check then
# breaks CHIP-RELEASE-BINDING; a logged amount that differs is a log that contradicts itself.
CHIPS = ""

# House remedies and thresholds (schemas/profiles/montana.toml) and their closed vocabularies.
STRING_REMEDIES = frozenset({"call", "first_motion"})


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveRules:
    """The profile parameters the live rulings read."""

    verbal: str = "binds_overrides"  # P16: binds_overrides | must_take | bigbet_corrected
    # P10: cash_only | always | single_motion (a house rule applying the tournament practice,
    # one motion or a stated amount, to cash games too)
    multimotion: str = "cash_only"
    big_chip: str = "pot_unless_facing_bet"  # P14: pot_unless_facing_bet | pot
    oot: str = "montana"  # P15: montana | uspa | etiquette
    misunderstanding_percent: int = 80  # CHIP-GROSS-MISUNDERSTANDING rule of thumb
    string_remedy: str = "call"  # STRING-RAISE house remedy: call | first_motion
    players_behind: int = 3  # TURN-RIGHT-TO-ACT: players acting behind before the right is lost
    # CHIP-MIN-UNIT: the smallest chip that plays, in minor units (0 = not named by the house)
    min_unit: int = 0
    whole_units: bool = False  # a game staked in whole currency units: cents do not play
    # BET-NL-DENOM: the chip value the house requires big-bet wagers in; 0 = not required
    wager_denom: int = 0
    # "pot" said at no limit, where the seeds do not define it: "raise" = a raise whose size
    # the chips give (not compared), "pot_size" = a raise to the pot as at pot limit
    pot_word: str = "raise"

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
            min_unit=int(values.get("chip.min_unit", d.min_unit)),
            whole_units=bool(values.get("chip.whole_units", d.whole_units)),
            wager_denom=int(values.get("nl.wager_denom", d.wager_denom)),
            pot_word=str(values.get("nl.pot_word", d.pot_word)),
        )


_RULE_KEYS = ("verbal", "nl.multimotion", "pl.big_chip", "oot", "misunderstanding.percent",
              "string.remedy", "time.players_behind", "chip.min_unit", "chip.whole_units",
              "nl.wager_denom", "nl.pot_word")


def live_rules(values: dict[str, Any]) -> LiveRules:
    """The LiveRules of a profile's parameter values (Settings.values)."""
    return _cached_rules(*(values.get(k) for k in _RULE_KEYS))


@lru_cache(maxsize=64)
def _cached_rules(*values: Any) -> LiveRules:
    # cached: every live hand of a run asks again, with the same few profiles
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
    half_pot: bool = False  # a half-pot game (BET-HALFPOT): replayed as PL, at half the maximum

    @property
    def owed(self) -> int:
        return max(self.cur - self.mine, 0)

    @property
    def cap(self) -> int:
        """The seat's all-in total."""
        return self.mine + self.stack

    @property
    def pot_max(self) -> int:
        """Pot limit: the largest total (the pot after the call, plus the call). Half pot: the
        call plus half the pot after it, an odd half rounded up as BET-HALFPOT rounds it (001
        3.2.5.5.1.1), so "pot" there means the half-pot maximum, the most the game allows."""
        if self.half_pot:
            return self.cur + (self.pot + self.owed + 1) // 2
        return self.cur + self.pot + self.owed


@dataclass(frozen=True, slots=True, kw_only=True)
class Binding:
    """The action the rulebook holds the player to; `total` None when only the kind is known."""

    action: str  # fold | check | call | raise (an opening bet is a raise from nothing)
    total: int | None
    rule: str  # the rule id that decides it (CHIPS: the chips as they went in)
    why: str


def made(sit: Situation, total: int, rule: str, why: str) -> Binding:
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
        return made(sit, sit.cur, VERBAL_BINDING, w)
    if s is Said.ALL_IN:
        return made(sit, sit.cap, VERBAL_BINDING, w)
    if sit.structure == FL:  # "bet", "raise", "pot" at limit: the round's one bet or raise
        if sit.cur == 0 and said.amount is not None and said.to \
                and said.amount < min(sit.limit_to, sit.cap):
            return made(sit, sit.limit_to, UNDERSIZE_FIX,
                        f"{w}, less than the full bet of {sit.limit_to}, which it is brought "
                        "up to")
        return made(sit, sit.limit_to, VERBAL_BINDING, w)
    if s is Said.POT:
        if sit.structure == PL or rules.pot_word == "pot_size":
            return made(sit, sit.pot_max, VERBAL_BINDING, w)
        return Binding(action="raise", total=None, rule=VERBAL_BINDING, why=w)
    minimum = sit.cur + sit.min_raise
    if said.amount is not None:  # a stated amount binds; the chips are corrected to it
        total = said.amount if said.to else sit.cur + said.amount
        if sit.cur < total < minimum and total < sit.cap:  # ...but not below the minimum
            return made(sit, minimum, UNDERMIN_FIX,
                        f"{w}, less than the minimum {'raise' if sit.cur else 'bet'} to "
                        f"{minimum}")
        rule = VERBAL_DISCREPANCY if released and sit.mine + chips != min(total, sit.cap) \
            else VERBAL_BINDING
        return made(sit, total, rule, w)
    # "raise" or "bet" without an amount: the chips say how much
    if not released:
        return Binding(action="raise", total=None, rule=VERBAL_BINDING, why=w)
    if len(released) > 1 and (rules.multimotion == "single_motion" or (
            rules.multimotion == "cash_only" and sit.tournament)):
        first = sit.mine + released[0].amount
        where = "in a tournament" if sit.tournament else "where the house wants one motion"
        return made(sit, max(first, minimum), MULTIMOVE,
                    f"{w} and then put the chips in {len(released)} motions {where}")
    total = sit.mine + chips
    if total < minimum and total < sit.cap:
        return made(sit, minimum, UNDERMIN_FIX if total > sit.cur else VERBAL_BINDING,
                    f"{w} with chips to {total}, less than the minimum raise to {minimum}")
    return made(sit, total, VERBAL_BINDING, w)


def _from_chips(sit: Situation, released: Sequence[Motion], rules: LiveRules) -> Binding | None:
    chips = sum(m.amount for m in released)
    total = sit.mine + chips
    owed = sit.owed
    n = len(released)
    single = n == 1 and released[0].chips == 1
    if sit.structure == FL and sit.cur == 0 and 0 < total < min(sit.limit_to, sit.cap):
        # an opening bet short of the round's bet, not all-in: brought up to the full bet
        return made(sit, sit.limit_to, UNDERSIZE_FIX,
                    f"put in {chips}, less than the full bet of {sit.limit_to}, which it is "
                    "brought up to")
    if single and chips > owed:
        chip = f"put in a single {chips} chip without a word"
        if owed > 0:
            if sit.structure == PL and rules.big_chip == "pot" and chips > sit.pot:
                return made(sit, sit.pot_max, SINGLE_CHIP_BET, chip + ", larger than the pot")
            return made(sit, sit.cur, OVERSIZE_CALL, chip + " while facing a bet")
        if sit.cur > 0:  # a big blind whose bet is matched: the seeds do not say; not ruled
            return None
        if chips < sit.min_raise and total < sit.cap:
            return made(sit, sit.min_raise, UNDERMIN_FIX,
                        f"{chip}, less than the minimum bet of {sit.min_raise}")
        if sit.structure == PL and total > sit.pot_max:  # (not facing a bet: pot_max is the
            # pot at pot limit, half of it in a half-pot game, the most the chip can bet)
            return made(sit, sit.pot_max, SINGLE_CHIP_BET, chip + (
                ", larger than the half-pot maximum" if sit.half_pot else ", larger than the pot"))
        if sit.structure != FL:
            return made(sit, total, SINGLE_CHIP_BET, chip + " when not facing a bet")
        return made(sit, sit.limit_to, CHIPS, chip)
    if n > 1 and total > sit.cur:
        first = sit.mine + released[0].amount
        why = (f"put chips in {n} motions ({', '.join(str(m.amount) for m in released)}) "
               "without first saying raise")
        if rules.string_remedy == "first_motion" and first > sit.cur:
            if sit.structure == FL:
                return made(sit, sit.limit_to if first - sit.cur >= (sit.size + 1) // 2
                            else sit.cur, STRING_RAISE, why)
            return made(sit, max(first, sit.cur + sit.min_raise), STRING_RAISE, why)
        if sit.cur > 0:  # only a call stands (a check for a big blind already matched)
            return made(sit, sit.cur, STRING_RAISE, why)
        if sit.structure == FL:
            return made(sit, sit.limit_to, CHIPS, why)
        return made(sit, max(first, sit.min_raise), STRING_RAISE, why)
    moved = f"put in {chips}"
    if sit.structure == FL:
        if owed > 0 and total > sit.cur and total < sit.cap:  # (all-in: every chip plays)
            half = (sit.size + 1) // 2
            extra = chips - owed
            if extra >= sit.size or total >= sit.limit_to:  # (a stud completion too)
                return made(sit, sit.limit_to, CHIPS, moved)
            if extra >= half:
                return made(sit, sit.limit_to, FULL_PLUS_HALF,
                            f"{moved}: a full call plus {extra}, half a bet ({half}) or more")
            return made(sit, sit.cur, FULL_PLUS_HALF,
                        f"{moved}: a call plus {extra}, less than half a bet ({half})")
        if total > sit.cur:
            return made(sit, sit.limit_to, CHIPS, moved)
    elif total > sit.cur and total < sit.cap:
        if sit.cur == 0 and chips < sit.min_raise:
            return made(sit, sit.min_raise, UNDERMIN_FIX,
                        f"{moved}, less than the minimum bet of {sit.min_raise}")
        if owed > 0 and total - sit.cur < sit.min_raise:
            return None  # a raise short of the minimum, or a call with too much: not provable
    if total >= sit.cur or total >= sit.cap:
        return made(sit, total, CHIPS, moved)
    # a short call: the released chips bind and must be made up
    if owed > 0 and chips == sit.prev_level - sit.mine:
        return None  # he called the bet before the raise, unaware of it: he may take it back
    return made(sit, sit.cur, RELEASE_BINDING, f"released {chips} of the {owed} owed")


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
