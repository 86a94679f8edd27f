"""Live tables in the replay: what each seat said and how his chips went in, gathered until his
logged action, then ruled on (audit/replay/live/rulings.py) and compared with that action
(RULEBOOK §4.10: VERBAL-*, CHIP-*, STRING-*, TURN-*).

A seat's physical events come before the logged action they resolve (`declare 3 raise`,
`chips 3 200`, `chips 3 100`, then `raise 3 to 300`). When the seat's logged action arrives,
`derive` works out the action the rulebook makes binding under the profile; when it differs
from the logged one, one finding names both and the rule that decides. When they agree, no
finding. Only hands with a `declare` or `chips` event build a LiveTable (audit/replay/hand.py),
so online logs never get these findings. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from audit.replay.betting import HALF_POT
from audit.replay.live.rulings import (
    CHIPS,
    DQ,
    DRAW_CHANGE,
    FORWARD_MOTION,
    MIN_UNIT,
    MISUNDERSTANDING,
    NL_DENOM,
    RAP,
    RELEASE_BINDING,
    RIGHT_TO_ACT,
    UNDERMIN_FIX,
    Situation,
    derive,
    describe,
    differs,
    live_rules,
    logged_as,
    made,
    misunderstood,
)
from audit.replay.live.words import (
    BETTING,
    Declaration,
    Motion,
    Said,
    parse_declaration,
    parse_motion,
)
from audit.replay.state import FL, STREETS, HandState
from audit.rules.ids import TURN_OOT_BINDING, TURN_OOT_CALL, TURN_OOT_CHECK


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
                     prev_level=prev_level, may_raise=may_raise,
                     half_pot=h.game.get("structure") == HALF_POT)


@dataclass(slots=True)
class _Seat:
    """What one seat did physically since its last logged action."""

    said: Declaration | None = None  # first in-turn betting declaration
    said_seq: int = 0
    after_chips: bool = False  # a released motion came before any declaration
    chips_seq: int = 0  # ...the seq of that motion
    motions: list[Motion] = field(default_factory=list)
    first_seq: int = 0
    timed: bool = False  # called "time"
    forward: bool = False  # a held forward motion made another player act

    def empty(self) -> bool:
        return self.said is None and not self.motions


class LiveTable:
    """Per-hand state of the physical layer, fed by audit/replay/hand.py."""

    __slots__ = ("rules", "seats", "oot_said", "skipped", "street", "prev_level", "level",
                 "last_action", "unit", "draw_said", "unplaced", "required_kill_bb")

    def __init__(self, values: dict[str, Any]) -> None:
        self.rules = live_rules(values)
        self.seats: dict[int, _Seat] = {}
        self.oot_said: dict[int, tuple[Declaration, int, int, int]] = {}
        self.skipped: dict[int, set[int]] = {}  # seat to act -> seats that acted behind him
        self.street = -1
        self.prev_level = 0
        self.level = 0
        self.last_action = -1  # seq of the last logged action
        self.unit = -1  # CHIP-MIN-UNIT: the smallest amount that plays (0: unknown), once known
        # draw games: seat -> [declared count, seq, words, others acted on it since]
        self.draw_said: dict[int, list[Any]] = {}
        # betting words said while the replay does not yet know whose turn it is (a stud or
        # draw round before its first logged action): (seat, words, bet then, seq, actions)
        self.unplaced: list[tuple[int, Declaration, int, int, int]] = []
        # the big blind of a required-kill pot, until someone raises over the kill: a call of
        # it taken back may or may not break CHIP-RELEASE-BINDING (KILL-UNAWARE, see _sync)
        self.required_kill_bb = 0

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
        self.required_kill_bb = 0
        if h.street == 0 and h.vh is not None and h.vh.kill_voluntary:
            # KILL-UNAWARE (000 §12 r.9): a player who put in the big blind, unaware that the
            # pot was killed, may take it back unless it is a required kill (the kill is to him
            # what a raise he did not see is, CHIP-RELEASE-BINDING's exception)
            self.prev_level = h.bb
        elif h.street == 0 and h.vh is not None and h.vh.killer:
            # ...and in a required kill he is bound only "with the kill button faceup" (000 §12
            # r.9; 002 §13.1), which no log records: such a withdrawal is not provably a breach
            self.required_kill_bb = h.bb

    def _unresolved(self, h: HandState, seq: int, *, final: bool = False) -> None:
        """Flag what was done physically before the round's last logged action and never
        resolved. Later events stay: in draw and stud games the replay moves to the next
        round only at its first action, so they already belong to that round."""
        for s, p in sorted(self.seats.items()):
            if not final and p.first_seq > self.last_action:
                continue
            if p.motions or (p.said is not None and p.said.said is not Said.CHECK):
                h.flag(DQ, p.first_seq, f"{h.who(s)} declared or put chips in on the "
                       f"{STREETS[min(max(self.street, 0), 4)]} but the log records no action "
                       "for him after it; the physical layer could not be checked.", seat=s)
            del self.seats[s]

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
            if m.released and p.said is None and not p.after_chips:
                p.after_chips = True
                p.chips_seq = seq
            p.motions.append(m)
            return
        d = parse_declaration(detail)
        if self._at_draw(h) and d.said in (Said.PAT, Said.DRAW, Said.RAP):
            self._said_draw(s, d, seq)
            return
        if d.said is Said.TIME:
            p.timed = True
            return
        if d.said not in BETTING:
            return
        if not h.to_act and h.vh is not None:  # in turn or not: the first action will tell
            self.unplaced.append((s, d, h.cur_bet, seq, h.n_actions))
            return
        self._place(h, p, s, d, h.cur_bet, seq, h.n_actions)

    def _place(self, h: HandState, p: _Seat, s: int, d: Declaration, level: int, seq: int,
               n_then: int) -> None:
        """A betting declaration of seat `s`, in turn or out of turn."""
        if h.to_act and s != h.to_act:
            self.oot_said.setdefault(s, (d, level, seq, n_then))
            self._behind(h.to_act, s)  # an out-of-turn declaration is an action (B&R r.11)
            return
        # a declaration placed late (self.unplaced) still counts if it came before the chips
        if p.said is None and (not p.after_chips or seq < p.chips_seq):
            p.said = d
            p.said_seq = seq

    def before_action(self, h: HandState, kind: str, s: int | None, amount: int | None,
                      total: int | None, seq: int) -> None:
        """A logged action, before the replay applies it."""
        self.draw_said.clear()  # the draw is over: a count said and never drawn is moot
        if h.street != self.street:
            self._sync(h, seq)
        if self.unplaced:  # the round's first action: now the replay knows whose turn it was
            for who, d, level, dseq, n_then in self.unplaced:
                if h.in_hand[who] and not h.folded[who]:
                    q = self.seats.get(who) or self.seats.setdefault(who, _Seat(first_seq=dseq))
                    self._place(h, q, who, d, level, dseq, n_then)
            self.unplaced.clear()
        self.level = h.cur_bet
        self.last_action = seq
        if s is None or not 0 < s < h.size or not h.in_hand[s] or h.folded[s]:
            return
        exp = h.to_act
        p = self.seats.pop(s, None)
        if exp and s != exp:  # out of turn: it acts behind the seat whose turn it is
            self._behind(exp, s)
        else:
            if self.skipped:
                self._turn(h, s, kind, seq, p)
            if self.oot_said:
                self._oot(h, s, kind, amount, total, seq)
        sit = None
        if (self._min_unit(h) > 1 or self.rules.wager_denom > 0) and (
                kind in ("bet", "raise", "complete") or (p is not None and p.motions)):
            sit = situation(h, s, self.prev_level)
            if self._chips_play(h, s, p, sit, logged_as(kind, sit, amount, total), seq):
                return
        if p is None or p.empty():
            return
        if sit is None:
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
        if short is not None and kind == "call" and amount is not None and amount < sit.owed \
                and sit.mine + amount < sit.cap:
            return  # the log itself records the short call: CHIP-SHORT-CALL names it already
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
        if b.rule == RELEASE_BINDING and self.required_kill_bb and logged[0] in ("fold", "check") \
                and sum(m.amount for m in released) == self.required_kill_bb - sit.mine:
            h.flag(DQ, seq, f"{h.who(s)} put in {h.money(self.required_kill_bb - sit.mine)}, "
                   "the call of the big blind before the kill, and took it back "
                   f"({describe(*logged)}); in a required kill the withdrawal is a breach "
                   "(CHIP-RELEASE-BINDING) only if the kill button was face up, which the log "
                   "does not record (000 §12 r.9; 002 §13.1). Not ruled.", seat=s,
                   expected=describe(b.action, b.total), actual=describe(*logged))
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
            self.required_kill_bb = 0  # raised over the kill: as in a voluntary kill, where
            # prev_level then moves off the big blind and only the kill's call may be taken back

    def finish(self, h: HandState, seq: int) -> None:
        """End of the hand: physical events nobody's logged action resolved."""
        self._unresolved(h, seq, final=True)

    def _behind(self, waiting: int, s: int) -> None:
        """Seat `s` acted while it was seat `waiting`'s turn: behind him, and on his held
        forward motion if he had one (CHIP-FORWARD-MOTION)."""
        self.skipped.setdefault(waiting, set()).add(s)
        p = self.seats.get(waiting)
        if p is not None and any(not m.released for m in p.motions):
            p.forward = True

    # --- the draw (draw games) ----------------------------------------------------------------

    @staticmethod
    def _at_draw(h: HandState) -> bool:
        """Whether the hand is at a draw: a draw game whose betting round before a draw is
        over (nobody is to act), or whose draw has begun and someone has yet to draw. A rap
        then is a pat declaration; once all have drawn, it is a check again."""
        vh = h.vh
        if vh is None or vh.stud:
            return False
        if vh.in_draw:
            return any(h.in_hand[x] and not h.folded[x] and x not in vh.drawn for x in h.seats)
        return not h.to_act and vh.phase < vh.spec.draws

    def _said_draw(self, s: int, d: Declaration, seq: int) -> None:
        """A stated draw ("pat", "draw two", a rap at the draw): other players who stated
        theirs before have now been acted on."""
        for other, said in self.draw_said.items():
            if other != s:
                said[3] = True
        if s not in self.draw_said:
            self.draw_said[s] = [d.amount or 0, seq, d.words or "rap", False, d.said is Said.RAP]

    def drew(self, h: HandState, kind: str, s: int | None, seq: int) -> None:
        """A logged `draw` or `stand_pat`, after the draw hooks applied it: compared with what
        the seat said he would draw (DRAW-CHANGE-COUNT; a rap at the draw is pat, CHIP-RAP)."""
        vh = h.vh
        if vh is None or s is None:
            return
        n = vh.drawn.get(s)
        said = self.draw_said.pop(s, None)
        for other in self.draw_said.values():
            other[3] = True  # he drew after they stated theirs: they were acted on
        if said is None or n is None or n == said[0] or not said[3]:
            return  # no statement, or as stated, or changed before anyone acted on it
        count, oseq, words, _, rap = said
        stated = "rapped pat" if rap else f"said \"{words}\""
        h.flag(RAP if rap else DRAW_CHANGE, seq, f"{h.who(s)} {stated} (event {oseq}) and then "
               f"drew {n} card{'s' if n != 1 else ''} after another player had acted on that; "
               "a player may change how many cards he draws only before anyone acts on his "
               f"statement, so he stands {'pat' if count == 0 else f'on drawing {count}'}. "
               "Review.", seat=s, expected=count, actual=n, delta=n - count)

    # --- chips that play ---------------------------------------------------------------------

    def _min_unit(self, h: HandState) -> int:
        """CHIP-MIN-UNIT's smallest amount that plays: the house's (chip.min_unit), else, where
        the house says betting is in whole units (chip.whole_units), one currency unit when
        every stake of the game is in whole units: "a fraction of a dollar does not play"
        (000 §2 B&R r.1). Else 0: the log cannot prove which chips play. Not derived by
        default: a live $1-$2 room may well deal in cents, and only the house knows."""
        if self.unit < 0:
            g = h.game
            stakes = [v for v in (g.get(k) for k in ("small_blind", "big_blind", "small_bet",
                                                     "big_bet", "ante", "bring_in", "straddle",
                                                     "min_bet")) if v]
            self.unit = self.rules.min_unit
            if self.unit <= 0 and self.rules.whole_units:
                whole = h.mpu > 1 and stakes and all(v % h.mpu == 0 for v in stakes)
                self.unit = h.mpu if whole else 0
            self.unit = max(self.unit, 0)
        return self.unit

    def _chips_play(self, h: HandState, s: int, p: _Seat | None, sit: Situation,
                    logged: tuple[str, int | None], seq: int) -> bool:
        """CHIP-MIN-UNIT and BET-NL-DENOM: a wager counted with chips that do not play.
        True when it flagged (one finding per action)."""
        released = [m for m in p.motions if m.released] if p is not None else []
        unit = self._min_unit(h)
        action, total = logged
        all_in = total is not None and total >= sit.cap
        if unit > 1:
            off = sum(m.off_unit(unit) for m in released)
            if action == "raise" and total is not None and total % unit and not all_in:
                h.flag(MIN_UNIT, seq, f"{h.who(s)} bet or raised to {h.money(total)}, which is "
                       f"no multiple of {h.money(unit)}, the smallest chip that plays in this "
                       "game; smaller amounts do not play.", seat=s,
                       expected=f"a multiple of {unit}", actual=describe(*logged))
                return True
            if off:
                h.flag(MIN_UNIT, seq, f"{h.who(s)} put in {h.money(off)} in chips smaller than "
                       f"{h.money(unit)}, the smallest chip that plays in this game; such chips "
                       "do not play even in quantity, but the log counts them in his "
                       f"{describe(*logged)}.", seat=s, expected=f"chips of {unit} or more",
                       actual=describe(*logged))
                return True
        denom = self.rules.wager_denom
        if denom > 0 and sit.structure != FL and action == "raise" and total is not None \
                and released and all(m.chips is not None for m in released):
            chips = sum(m.amount for m in released)
            loose = sum(m.smaller(denom) for m in released) % denom
            if loose and total == sit.mine + chips:
                b = made(sit, sit.mine + chips - loose, NL_DENOM, "")
                h.flag(NL_DENOM, seq, f"{h.who(s)} wagered with {h.money(loose)} in chips "
                       f"smaller than the {h.money(denom)} chip the house requires; smaller "
                       f"chips play only in quantity (a multiple of {h.money(denom)}), even "
                       f"all-in, so the wager is {describe(b.action, b.total)}, but the log "
                       f"records {describe(*logged)}.", seat=s,
                       expected=describe(b.action, b.total), actual=describe(*logged),
                       delta=total - (b.total or 0))
                return True
        return False

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
            h.flag(TURN_OOT_CHECK, seq, f"{h.who(s)} said \"{d.words}\" out of turn (event "
                   f"{oseq}) and then bet or raised at his turn; a player who checks out of turn "
                   "may not bet or raise at his next turn.", seat=s,
                   expected="check, call or fold", actual=kind)
            return
        if said == "call" and action == "raise":
            h.flag(TURN_OOT_CALL, seq, f"{h.who(s)} said \"{d.words}\" out of turn (event "
                   f"{oseq}) and then raised at his turn; a player who calls out of turn may not "
                   "turn it into a raise.", seat=s, expected="call or fold", actual=kind)
            return
        if said == action or self.rules.oot == "etiquette":
            return
        binding = h.cur_bet == level
        if self.rules.oot == "uspa":
            binding = binding and h.n_actions == n_then
        if binding:
            h.flag(TURN_OOT_BINDING, seq, f"{h.who(s)} said \"{d.words}\" out of turn (event "
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
