"""Draw-game injectors: opening without openers at jacks (settled as the dead hand it is; paid
anyway; or the pot not played although it had to play), a check-raise and a checked seven-low
at limit ace-to-five, a raise over the two-round cap, five draw cards dealt at once, a draw
that leaves a player short of a hand, and cards the dealer exposes (before the draw: kept when
the game replaces them, replaced when it keeps them; on the draw: kept), all-in opens called
short, turn order, late-completed hands, limps under a minimum open and miscalls (kill pots: in
draw_kill.py). Each breaks exactly its rule; what follows stays legal (the engine
plays on under the state the replay derives, or the injector keeps the rest of the round
passive), and the labels sit on the event the replay reports."""

from __future__ import annotations

import json
import random

from audit.poker.jokers import has_openers, joker_low, seven_or_better
from audit.rules.ids import (
    A5_CHECKRAISE,
    A5_EXPOSED_LIMIT,
    A5_SEVENS_RULE,
    BET_CAP_TWOROUND,
    D27_EXPOSED,
    DRAW_EXPOSED_ON_DRAW,
    DRAW_FIVE_CARD_HAND,
    DRAW_MAX_FOUR,
    DRAW_SHORT_PREDRAW,
    DRAWHI_ALLIN_ANTES,
    DRAWHI_EXPOSED_PREDRAW,
    JACKS_FALSE_OPENER,
    JACKS_OPENERS,
    JACKS_POT_PLAYS,
    LOWBALL_MISCALL,
    LOWBALL_OPEN,
    LOWBALL_PAIR_CALL,
    ORDER_DRAW_AFTER,
    ORDER_DRAW_PHASE,
)
from audit.simulate.inject.base import ACTIONS
from audit.simulate.inject.studdraw_base import DrawInjector, another_with_chips
from audit.simulate.play.engine import CARD, Hand
from audit.simulate.play.table import Table

TWO_ROUND = ("lowball_27_single", "draw_high", "lowball_a5", "jacks_or_better")
FIVE_CARD = ("lowball_27_single", "lowball_27_triple", "draw_high", "lowball_a5",
             "jacks_or_better")


def _passive(h: Hand, s: int) -> tuple:
    return ("call",) if h.cur > h.bet[s] else ("check",)


def _checked_this_round(h: Hand, s: int) -> bool:
    for row in reversed(h.ev):
        if row[0] in ("draw", "stand_pat", "deal"):
            return False  # the round started after the last draw (or the deal)
        if row[0] == "check" and row[1] == s:
            return True
    return False


class JacksWithoutOpeners(DrawInjector):
    """At jacks or better, a player without a pair of jacks or better opens. His hand is dead
    (JACKS-FALSE-OPENER), so the hand is settled as the ruling has it: he folds at his next
    turn, nobody calls him all-in before the draw (then he would have no next turn), and when
    everyone folds to him the antes and his opening bet stay in the pot for the next deal (he
    is paid nothing)."""

    name, rule = "jacks_without_openers", JACKS_OPENERS
    variants = ("jacks_or_better",)

    def prepare(self, t: Table, order: list[int]) -> None:
        self.seat = 0

    def open_falsely(self, h: Hand, s: int, *more: tuple) -> tuple | None:
        """The opening bet from a player without openers, with the labels it carries."""
        if self.done or h.street or h.cur or has_openers(h.hole[s]):
            return None
        lo, _ = h.raise_range(s)
        if not lo or h.stack[s] <= lo:
            return None
        self.seat = s
        self.done = True
        return ("raise", lo, None, [(JACKS_OPENERS, s, self.rule == JACKS_OPENERS), *more])

    def force(self, h: Hand, s: int) -> tuple | None:
        if not self.seat:
            return self.open_falsely(h, s)
        if s == self.seat:
            return ("fold",)
        if h.street == 0 and h.stack[s] <= h.cur - h.bet[s] + 2 * h.street_size():
            return ("fold",)  # a call or raise could put him all in
        return None

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        s = self.seat
        if not s:
            return False
        if not h.folded[s]:  # everyone folded to him: nothing is paid, the pot is carried
            ev[:] = [e for e in ev if not (e[0] == "award" and e[1] == s)]
        return True

class A5CheckRaise(DrawInjector):
    """Limit ace-to-five after the draw: a player checks (not holding a seven-low, so the
    sevens rule stays out of it) and raises when the bet comes round to him."""

    name, rule = "a5_check_raise", A5_CHECKRAISE
    variants = ("lowball_a5",)
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.seat = 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.street == 0:
            return None
        if not self.seat and h.cur == 0 and not seven_or_better(h.hole[s]) \
                and h.stack[s] > 3 * h.big_bet:
            self.seat, self.street = s, h.street
            return ("check",)
        if s == self.seat and h.street == self.street and h.cur > h.bet[s]:
            lo, _ = h.raise_range(s)
            if lo and lo < h.bet[s] + h.stack[s]:
                return self.once(("raise", lo), self.rule, s)
        return None


class CapTwoRound(DrawInjector):
    """Single-draw games: a bet and four raises with three or more players in, then one more
    raise (the cap of a two-round game)."""

    name, rule = "raise_over_two_round_cap", BET_CAP_TWOROUND
    variants = TWO_ROUND
    min_players = 3

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.bets < 1 + h.cap_raises or h.cur <= h.bet[s] \
                or h.with_chips() < 3 or _checked_this_round(h, s):
            return None
        to = h.last_raise + h.street_size()
        if to >= h.bet[s] + h.stack[s]:
            return None
        return self.once(("raise", to), self.rule, s)


class A5SevensChecked(DrawInjector):
    """Limit ace-to-five: a seven-low or better is checked after the draw and only called; if
    it wins, the awards follow the sevens ruling (the pot as it stood before the draw, every
    post-draw bet back to its maker), as the replay rules it."""

    name, rule = "a5_seven_checked", A5_SEVENS_RULE
    variants = ("lowball_a5",)

    def prepare(self, t: Table, order: list[int]) -> None:
        self.seat = 0
        self.pre: list[int] | None = None
        self.row: list | None = None

    def force(self, h: Hand, s: int) -> tuple | None:
        if h.street == 0:
            return None
        if self.pre is None:
            self.pre = list(h.contrib)  # no chips move during the draw
        if not self.seat and h.cur == 0 and seven_or_better(h.hole[s]):
            self.seat = s
            return ("check",)
        if s == self.seat:
            return _passive(h, s)  # calls only: a raise after his check is A5-CHECKRAISE
        return None

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        s, pre = self.seat, self.pre
        pots = res["pots"]
        if not s or pre is None or res["refund"] or len(pots) != 1 or pots[0][3] != [s]:
            return False
        total, before = sum(h.contrib), sum(pre)
        if total <= before:
            return False  # nothing bet after the draw: the rule changes nothing
        paid = {x: h.contrib[x] - pre[x] for x in h.order}
        paid[s] += before
        start = next(i for i, e in enumerate(ev) if e[0] == "award")
        ev[start:-1] = [["award", x, a, None, None, "main"] for x, a in sorted(paid.items())
                        if a > 0]
        check = next(e for e in ev if e[0] == "check" and e[1] == s and e[6] >= 1)
        self.labels.append((check, self.rule, s, True))
        return True


class DrawFiveAtOnce(DrawInjector):
    """A player drawing five is dealt all five at once (four, then the fifth after the
    others)."""

    name, rule = "draw_five_at_once", DRAW_MAX_FOUR
    variants = FIVE_CARD

    def draw_for(self, h: Hand, s: int, out: list[int], left: int
                 ) -> tuple[list[int], int, str | None]:
        if self.done or len(out) < 3 or left < 5 + 4 * len(h.order) or 52 in h.hole[s]:
            # (nobody throws the joker: the replay cannot take a discarded joker yet,
            # audit/replay/family/hooks.py FamilyHooks.draw indexes its 52-card deck with it)
            return out, len(out), None
        self.done = True
        return list(h.hole[s]), 5, self.rule


class DrawShortHand(DrawInjector):
    """A player is dealt one card fewer than he threw, so he holds four after the draw (a
    fouled hand); he folds at his next turn, so only the hand size is wrong."""

    name, rule = "draw_short_hand", DRAW_FIVE_CARD_HAND
    variants = FIVE_CARD + ("lowball_27_triple",)

    def prepare(self, t: Table, order: list[int]) -> None:
        self.seat = 0

    def draw_for(self, h: Hand, s: int, out: list[int], left: int
                 ) -> tuple[list[int], int, str | None]:
        if self.seat or len(out) < 2 or h.stack[s] == 0 or h.with_chips() < 2:
            return out, len(out), None
        self.seat = s
        return out, len(out) - 1, None

    def force(self, h: Hand, s: int) -> tuple | None:
        return ("fold",) if s == self.seat else None

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        s = self.seat
        if not s:
            return False
        # the replay checks hand sizes when the draw ends: at the first event after it
        last = max(i for i, e in enumerate(ev) if e[0] == "deal" and e[1] == s
                   and e[5] == "draw")
        after = next((e for e in ev[last + 1:] if e[0] in ACTIONS), None)
        self.labels.append((after, self.rule, s, True))
        return True


# Ranks an exposed card before the draw is kept with, at limit
# (audit/replay/family/draw_exposed.py);
# None: every exposed card is kept (draw high, jacks).
_KEPT = {"lowball_27_single": "23457", "lowball_27_triple": "23457", "lowball_a5": "A234567",
         "draw_high": None, "jacks_or_better": None}
_PREDRAW_RULE = {"lowball_27_single": D27_EXPOSED, "lowball_27_triple": D27_EXPOSED,
                 "lowball_a5": A5_EXPOSED_LIMIT, "draw_high": DRAWHI_EXPOSED_PREDRAW,
                 "jacks_or_better": DRAWHI_EXPOSED_PREDRAW}


def _hole_rows(ev: list[list]) -> list[list]:
    return [e for e in ev if e[0] == "deal" and e[5] == "hole"]


class ExposedPredrawKept(DrawInjector):
    """Lowball before the draw: the dealer exposes a card the game replaces (a 6 or above 7
    at deuce-to-seven, above 7 at ace-to-five) and the player keeps it. The log splits his deal
    into four cards and the exposed one; his hand is the one he played."""

    name, rule = "exposed_predraw_kept", D27_EXPOSED
    variants = ("lowball_27_single", "lowball_27_triple", "lowball_a5")

    def prepare(self, t: Table, order: list[int]) -> None:
        self.variant = t.variant
        self.rule = _PREDRAW_RULE[t.variant]

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        keep = _KEPT[self.variant] or ""
        for row in _hole_rows(ev):
            cards = row[4].split()
            bad = [c for c in cards if c != "Xj" and c[0] not in keep]
            if not bad:
                continue
            up = bad[rng.randrange(len(bad))]
            row[4] = " ".join(c for c in cards if c != up)
            exposed = ["deal", row[1], None, None, up, "up"]
            ev.insert(ev.index(row) + 1, exposed)
            self.labels.append((exposed, self.rule, row[1], True))
            return True
        return False


class ExposedPredrawReplaced(DrawInjector):
    """Before the draw the dealer exposes a card the game says must be kept (any card at draw
    high and jacks, a 7, 5, 4, 3 or 2 at deuce-to-seven, 7 or lower at ace-to-five) and gives
    the player another instead. The exposed card is one nobody else saw; the replacement is
    the card he played with."""

    name, rule = "exposed_predraw_replaced", D27_EXPOSED
    variants = ("lowball_27_single", "lowball_27_triple", "lowball_a5", "draw_high",
                "jacks_or_better")

    def prepare(self, t: Table, order: list[int]) -> None:
        self.variant = t.variant
        self.rule = _PREDRAW_RULE[t.variant]

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        keep = _KEPT[self.variant]
        unseen = [c for c in h.deck if c < 52 and (keep is None or CARD[c][0] in keep)]
        rows = _hole_rows(ev)
        if not unseen or not rows:
            return False
        row = rows[rng.randrange(len(rows))]
        cards = row[4].split()
        y = cards[rng.randrange(len(cards))]
        row[4] = " ".join(c for c in cards if c != y)
        at = ev.index(row) + 1
        replace = ["deal", row[1], None, None, y, "replace"]
        ev[at:at] = [["deal", row[1], None, None, CARD[unseen[rng.randrange(len(unseen))]],
                      "up"], replace]
        self.labels.append((replace, self.rule, row[1], True))
        return True


class ExposedOnDrawKept(DrawInjector):
    """A card dealt face up on the draw is kept (it is replaced once everyone has drawn)."""

    name, rule = "exposed_on_draw_kept", DRAW_EXPOSED_ON_DRAW
    variants = FIVE_CARD + ("lowball_27_triple", "badugi")

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        # a card he throws at a later draw with no bet between is never ruled on: not that one
        thrown = {(e[1], c) for e in ev if e[0] == "draw" for c in e[4].split()}
        draws = [e for e in ev if e[0] == "deal" and e[5] == "draw"
                 and (e[1], e[4].split()[-1]) not in thrown]
        if not draws:
            return False
        row = draws[rng.randrange(len(draws))]
        cards = row[4].split()
        up = ["deal", row[1], None, None, cards[-1], "up"]
        if len(cards) == 1:
            ev[ev.index(row)] = up
        else:
            row[4] = " ".join(cards[:-1])
            ev.insert(ev.index(row) + 1, up)
        self.labels.append((up, self.rule, row[1], True))
        return True


# The draw injectors in two groups, as they were added: the registry (registry.py) puts the kill
# injectors between them, and the order of the registry is the order a seed picks from.
DRAW_INJECTORS = (JacksWithoutOpeners, A5CheckRaise, CapTwoRound, A5SevensChecked, DrawFiveAtOnce,
            DrawShortHand, ExposedPredrawKept, ExposedPredrawReplaced, ExposedOnDrawKept)


class JacksAllInOpenShortCall(DrawInjector):
    """Jacks or better: the opener (with openers) has less than the bet after his ante and
    opens all-in for it, playing for the antes; the next player calls only that amount where
    every caller puts in the full opening bet. The rest fold."""

    name, rule = "jacks_allin_open_short_call", DRAWHI_ALLIN_ANTES
    variants = ("jacks_or_better",)

    def prepare(self, t: Table, order: list[int]) -> None:
        self.opener = 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if h.street:
            return None
        if not self.opener:
            short = h.small_bet // 2
            if h.cur or short < 1 or not has_openers(h.hole[s]) or h.stack[s] <= short:
                return None
            h.stack[s], h.start[s] = short, h.contrib[s] + short
            next(e for e in h.ev if e[0] == "seat" and e[1] == s)[2] = h.start[s]
            self.opener = s
            return ("raise", h.bet[s] + short)
        if not self.done:
            if not another_with_chips(h, s):
                # nobody else could put in more: the full bet would come straight back, so the
                # short call breaks nothing (tests/replay/test_short_bring_in_nobody_left.py)
                self.done = True
                return None
            return self.once(("call",), self.rule, s)
        return ("fold",)


class JacksFalseOpenerPaid(JacksWithoutOpeners):
    """At jacks or better, a player without openers opens (JACKS-OPENERS) and everyone folds
    to him; the house pays him the antes and gives his opening bet back, where his hand is
    dead and the antes and his bet stay for the next deal."""

    name, rule = "jacks_false_opener_paid", JACKS_FALSE_OPENER

    def force(self, h: Hand, s: int) -> tuple | None:
        if not self.seat:
            return self.open_falsely(h, s)
        return None if s == self.seat else ("fold",)

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        s = self.seat
        if not s or not any(e[0] == "award" and e[1] == s and e[2] for e in ev):
            return bool(s)  # nothing was paid to him (cannot happen: all fold to him)
        self.labels.append((None, self.rule, s, True))
        return True


class JacksPotNotPlayed(JacksWithoutOpeners):
    """At jacks or better, a player without openers opens (JACKS-OPENERS); the next players
    call, the others fold, and the action before the draw is complete. The house then ends the
    hand before the draw and gives the calls back, where the pot plays without the false
    opener's dead hand; his opening bet and the antes stay for the next deal."""

    name, rule = "jacks_pot_not_played", JACKS_POT_PLAYS
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.seat = 0
        self.callers = 0
        self.pre: list[int] | None = None

    def force(self, h: Hand, s: int) -> tuple | None:
        if not self.seat:
            return self.open_falsely(h, s)
        if h.street:
            if self.pre is None:
                self.pre = list(h.contrib)  # no chips move during the draw
            return ("fold",) if s == self.seat else None
        if s == self.seat or self.callers == 2 or h.stack[s] <= h.cur - h.bet[s]:
            return ("fold",)
        self.callers += 1
        return ("call",)

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        s = self.seat
        if not s:
            return False
        if not self.callers or self.pre is None:
            return super().finish(h, res, ev, t, rng, game)  # all folded to him: carried
        cut = next(i for i, e in enumerate(ev) if e[0] in ("draw", "stand_pat"))
        back: dict[int, int] = {}  # every bet but the opener's goes back
        for e in ev[:cut]:
            if e[0] in ("call", "bet", "raise") and e[1] != s:
                back[e[1]] = back.get(e[1], 0) + e[2]
        ev[cut:] = [*(["award", x, a, None, None, "uncalled"] for x, a in sorted(back.items())),
                    ["hand_ended", None, None, None, None, None]]
        for x in h.order:  # what each player put in by the end of the log (stacks_after)
            h.contrib[x] = self.pre[x]
        self.labels.append((None, self.rule, s, True))
        return True


# ----------------------------------------------------------------------------- miscalls
LOWBALL = ("lowball_27_single", "lowball_27_triple", "lowball_a5")


def _showdown(h: Hand, res: dict, ev: list[list]) -> tuple[int, list[int]] | None:
    """(the sole winner, the losers) of a one-pot lowball showdown, or None."""
    if not res["showdown"] or len(res["pots"]) != 1 or len(res["pots"][0][3]) != 1:
        return None
    last_draw = max((i for i, e in enumerate(ev) if e[0] in ("draw", "stand_pat")), default=-1)
    if not any(e[0] in ACTIONS for e in ev[last_draw + 1:]):
        return None  # all-in before the last draw: the words would be read as a draw request
    w = res["pots"][0][3][0]
    return w, [x for x in res["contenders"] if x != w]


def _muck_after(ev: list[list], w: int, losers: list[int], before: list | None) -> None:
    """Heads-up, the loser mucks instead of showing, after the winner's show (and `before`,
    a row to put just ahead of the winner's show)."""
    shows = [e for e in ev if e[0] == "show"]
    at = ev.index(shows[0])
    for e in shows:
        ev.remove(e)
    rows = [] if before is None else [before]
    rows += [e for e in shows if e[1] == w]
    rows += [["muck", x, None, None, None, None] for x in losers]
    ev[at:at] = rows


def _best_low(evaluator: str, hole: list[int]) -> bool:
    """Does the hand make the game's best low class, the one called here: a five-low (the
    wheel) at ace-to-five, a seven-low (no straight, no flush) at deuce-to-seven?"""
    cards = [c for c in hole if c != 52]
    if len(cards) < len(hole):
        cards.append(joker_low(cards))
    if evaluator == "lowa5":
        return {((c >> 2) + 1) % 13 for c in cards} == {0, 1, 2, 3, 4}  # A 2 3 4 5
    ranks = sorted({c >> 2 for c in cards})  # 2 = 0 .. 7 = 5
    flush = len({c & 3 for c in cards}) == 1
    return len(ranks) == 5 and ranks[-1] <= 5 and ranks != [1, 2, 3, 4, 5] and not flush


class LowballMiscall(DrawInjector):
    """Lowball heads-up showdown: the winner calls a better low than he holds ("five" at
    ace-to-five, "seven" at deuce-to-seven) and the other player mucks; the miscaller was paid
    where his miscalled hand was dead."""

    name, rule = "lowball_miscall", LOWBALL_MISCALL
    variants = LOWBALL

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        sd = _showdown(h, res, ev)
        if sd is None or len(sd[1]) != 1:
            return False
        w, losers = sd
        ranks = [c >> 2 for c in h.hole[w] if c < 52]
        if len(ranks) != len(set(ranks)):
            return False  # a pair spread without saying so is LOWBALL-PAIR-CALL's
        word = "five" if h.evaluator == "lowa5" else "seven"
        if _best_low(h.evaluator, h.hole[w]):
            return False  # he holds what he would call: no miscall
        _muck_after(ev, w, losers, ["declare", w, None, None, None, word])
        self.labels.append((None, self.rule, w, True))
        return True


class LowballPairNotAnnounced(DrawInjector):
    """Lowball at a live table (a spoken call is logged): the winner spreads a hand with a pair
    without saying "pair", and the other player mucks; he should have lost the pot."""

    name, rule = "lowball_pair_not_announced", LOWBALL_PAIR_CALL
    variants = LOWBALL

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        sd = _showdown(h, res, ev)
        if sd is None or len(sd[1]) != 1:
            return False
        w, losers = sd
        ranks = [c >> 2 for c in h.hole[w] if c < 52]
        if len(ranks) == len(set(ranks)):
            return False
        said = next((e for e in reversed(ev) if e[0] in ("call", "check")), None)
        if said is None:
            return False
        ev.insert(ev.index(said), ["declare", said[1], None, None, None, said[0]])
        _muck_after(ev, w, losers, None)
        self.labels.append((None, self.rule, w, True))
        return True


# ----------------------------------------------------------------------------- turn order
class DrawServedOutOfOrder(DrawInjector):
    """Two players' draws are served in the wrong order (the later seat draws first)."""

    name, rule = "draw_served_out_of_order", ORDER_DRAW_PHASE
    variants = FIVE_CARD + ("lowball_27_triple", "badugi")

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        for i in range(len(ev) - 3):
            a, da, b, db = ev[i:i + 4]
            if a[0] == b[0] == "draw" and da[0] == db[0] == "deal" and da[5] == db[5] == "draw" \
                    and da[1] == a[1] and db[1] == b[1]:
                ev[i:i + 4] = [b, db, a, da]
                self.labels.append((a, self.rule, a[1], True))
                return True
        return False


class JacksOpenerNotFirst(DrawInjector):
    """After the draw at jacks the opener checks first, but the log has the next player check
    before him."""

    name, rule = "jacks_opener_not_first", ORDER_DRAW_AFTER
    variants = ("jacks_or_better",)

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        opener = next((e[1] for e in ev if e[0] in ("bet", "raise") and e[6] == 0), 0)
        first = next((i for i, e in enumerate(ev) if e[0] in ACTIONS and e[6] == 1), None)
        if not opener or first is None:
            return False
        a, b = ev[first], ev[first + 1]
        if a[1] != opener or a[0] != "check" or b[0] != "check" or b[6] != 1:
            return False
        ev[first], ev[first + 1] = b, a
        self.labels.append((b, self.rule, b[1], True))
        return True


class HandCompletedLate(DrawInjector):
    """Lowball: a player is dealt four cards and his fifth only after the first player has
    acted (a short hand is completed before the action, else he draws to five; the dealer's
    seat may still get its last card)."""

    name, rule = "hand_completed_late", DRAW_SHORT_PREDRAW
    variants = ("lowball_27_single", "lowball_27_triple", "lowball_a5")

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        first = next((i for i, e in enumerate(ev) if e[0] in ACTIONS), None)
        if first is None:
            return False
        actor = ev[first][1]
        rows = [e for e in _hole_rows(ev) if e[1] not in (actor, h.button)]
        if not rows:
            return False
        row = rows[rng.randrange(len(rows))]
        cards = row[4].split()
        row[4] = " ".join(cards[:-1])
        late = ["deal", row[1], None, None, cards[-1], "hole"]
        ev.insert(first + 1, late)
        self.labels.append((late, self.rule, row[1], True))
        return True


class LowballLimpUnderMinOpen(DrawInjector):
    """A lowball table whose minimum open is twice the big blind (house lowball.min_open =
    2bb): players come in by calling the big blind."""

    name, rule = "lowball_limp_under_min_open", LOWBALL_OPEN
    variants = ("lowball_27_single", "lowball_27_triple", "lowball_a5")

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table, rng: random.Random,
               game: dict) -> bool:
        bb = next((e for e in ev if e[0] == "post" and e[5] == "big_blind"), None)
        if bb is None or any(e[0] == "post" and e[5] in ("kill", "kill_voluntary")
                             for e in ev):
            return False
        for e in ev:
            if e[0] in ("bet", "raise", "complete") or e[0] in ACTIONS and e[6] > 0:
                break
            if e[0] == "call" and e[6] == 0 and e[7] == t.bb and e[1] != bb[1] \
                    and e[5] != "all_in":
                self.labels.append((e, self.rule, e[1], True))
        if not self.labels:
            return False
        house = json.loads(game["house_overrides"]) if game["house_overrides"] else {}
        game["house_overrides"] = json.dumps({**house, "lowball.min_open": "2bb"},
                                             sort_keys=True)
        return True


LATER_DRAW_INJECTORS = (JacksAllInOpenShortCall, DrawServedOutOfOrder,
            JacksOpenerNotFirst, HandCompletedLate, LowballLimpUnderMinOpen, LowballMiscall,
            LowballPairNotAnnounced, JacksFalseOpenerPaid, JacksPotNotPlayed)
