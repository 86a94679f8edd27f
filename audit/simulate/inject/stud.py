"""Stud injectors: the bring-in from the wrong seat, of the wrong size, folded or all-in and
called short, a small bet on a big-bet street (stud, and draw games after the draw), bets
against the open-pair rules of 4th street, checks and folds out of turn (also when the lowcard
is all-in for his ante), a tied pot's odd chip misplaced, a missing ante. Cards dealt the wrong
way are in stud_cards.py, the draw games' injectors in draw.py; registry.py
gathers them all. Each breaks exactly its rule; the engine then plays on under the state the
replay derives from what was logged (or the rest of the round stays passive), so the rest of
the hand stays legal."""

from __future__ import annotations

import random

from audit.poker.stud import has_open_pair
from audit.poker.variants import SPECS
from audit.rules.ids import (
    ANTE_DRAW,
    ANTE_STUD,
    BBLOW_EXPOSED,
    BET_HALFPOT,
    BET_LIMIT_5STUD,
    BET_LIMIT_DRAW_DOUBLE,
    BET_LIMIT_MISSISSIPPI,
    BET_LIMIT_STUD_STREETS,
    BET_STUD_OPENPAIR,
    JACKS_SPLIT_OPENERS,
    ORDER_STUD_ALLIN_STARTER,
    ORDER_STUD_COMMON,
    ORDER_STUD_FIRST,
    ORDER_STUD_LATER,
    POT_ODDCHIP_STUD,
    RAZZ_NO_OPENPAIR,
    STUD_BRINGIN_ALLIN,
    STUD_BRINGIN_AMOUNT,
    STUD_BRINGIN_LOWCARD,
    STUD_BRINGIN_OPTIONS,
    STUD_PREMATURE,
    STUD_WRONG_LOWCARD,
    STUDHL_NO_OPENPAIR,
)
from audit.simulate.inject.base import _pairs
from audit.simulate.inject.stud_cards import (
    CommonCardNotShort,
    HoleCardUpThenUp,
    SeventhUpOrder,
    SeventhUpTwice,
    StudDoubleBurn,
    StudSeventhMissing,
    UpcardDealtDown,
)
from audit.simulate.inject.studdraw_base import ACTED, StudInjector, another_with_chips, upcards
from audit.simulate.play.engine import Hand
from audit.simulate.play.table import DRAW_GAMES, STUD_GAMES, Table


class BringInWrongSeat(StudInjector):
    """A player other than the one with the bring-in card brings in."""

    name, rule = "bring_in_wrong_seat", STUD_BRINGIN_LOWCARD  # ORDER-RAZZ etc. by game
    variants = STUD_GAMES

    def bring_seat(self, h: Hand, due: int) -> int:
        """The seat that posts the bring-in instead of `due` (labelled), or `due`."""
        others = [s for s in h.order if s != due and h.stack[s] > h.sb]
        if not others or self.done:
            return due
        self.done = True
        return others[self.rng.randrange(len(others))]

    def bring_rule(self) -> str:
        return SPECS[self.variant].bringin_rule


class BringInWrongAmount(StudInjector):
    """The bring-in is posted one chip over its size (still short of a full bet)."""

    name, rule = "bring_in_wrong_amount", STUD_BRINGIN_AMOUNT
    variants = STUD_GAMES

    def bring_amount(self, h: Hand, s: int, amount: int) -> int:
        if self.done or amount + 1 >= h.small_bet or h.stack[s] <= amount + 1:
            return amount
        self.done = True
        return amount + 1


class StudSmallBetOnBigStreet(StudInjector):
    """An opening bet of the small bet on fifth street or later (the big bet applies)."""

    name, rule = "stud_small_bet_on_big_street", BET_LIMIT_STUD_STREETS
    # 5-card stud bets one size throughout; Mississippi doubles on its last two rounds
    variants = ("stud", "stud_hilo", "razz", "mississippi")

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        if t.variant == "mississippi":
            self.rule = BET_LIMIT_MISSISSIPPI

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.street < h.big_from or h.cur or h.stack[s] <= h.small_bet:
            return None
        lo, _ = h.raise_range(s)
        if not lo:
            return None
        return self.once(("raise", h.small_bet), self.rule, s)


class FiveStudBigBet(StudInjector):
    """An opening bet of the big bet in 5-card stud, where every round is bet at one size."""

    name, rule = "five_stud_big_bet", BET_LIMIT_5STUD
    variants = ("stud5",)

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.cur or h.stack[s] <= h.big_bet:
            return None
        lo, _ = h.raise_range(s)
        if not lo:
            return None
        return self.once(("raise", h.big_bet), self.rule, s)


class DrawSmallBetOnBigRound(StudSmallBetOnBigStreet):
    """An opening bet of the small bet in a round played at the big bet (after the draw in
    single-draw games, after the second draw in triple draw)."""

    name, rule = "draw_small_bet_on_big_round", BET_LIMIT_DRAW_DOUBLE
    variants = DRAW_GAMES
    min_players = 2


class BringInFolds(StudInjector):
    """The player with the bring-in card folds instead of bringing in or completing."""

    name, rule = "bring_in_folds", STUD_BRINGIN_OPTIONS
    variants = STUD_GAMES

    def bring_fold(self, h: Hand, s: int) -> bool:
        self.done = True
        return True

    def bring_rule(self) -> str:
        return self.rule


def _open_pair(h: Hand, faces: str) -> bool:
    return any(has_open_pair(upcards(h, s, faces)) for s in h.order if not h.folded[s])


class _OpenPair(StudInjector):
    """4th street with an open pair showing: a bet the game's open-pair rule forbids; the rest
    of the round is called or checked (the state after a wrong size is the replay's to judge,
    not the agents')."""

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.faces = SPECS[t.variant].faces

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done:
            return ("call",) if h.cur > h.bet[s] else ("check",) if h.street == 1 else None
        if h.street != 1 or not _open_pair(h, self.faces):
            return None
        return self.wrong(h, s)

    def wrong(self, h: Hand, s: int) -> tuple | None:
        return None


class OpenPairBigBetRazzHilo(_OpenPair):
    """Razz and stud hi-lo: the big bet on 4th street because of an open pair (which changes
    nothing in these games)."""

    name, rule = "open_pair_big_bet", RAZZ_NO_OPENPAIR
    variants = ("razz", "stud_hilo")

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.rule = RAZZ_NO_OPENPAIR if t.variant == "razz" else STUDHL_NO_OPENPAIR

    def wrong(self, h: Hand, s: int) -> tuple | None:
        if h.cur or h.stack[s] <= h.big_bet:
            return None
        return self.once(("raise", h.big_bet), self.rule, s)


class OpenPairSmallRaise(_OpenPair):
    """7-card stud, open pair on 4th street: after a big bet the raise is a small one (once the
    upper limit is bet, raises are at the upper limit)."""

    name, rule = "open_pair_small_raise", BET_STUD_OPENPAIR
    variants = ("stud",)

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.opened = 0

    def wrong(self, h: Hand, s: int) -> tuple | None:
        if not self.opened:
            if h.cur or h.stack[s] <= h.big_bet:
                return None
            self.opened = s
            return ("raise", h.big_bet)  # legal: either limit with an open pair
        if h.cur != h.big_bet or h.stack[s] <= h.big_bet + h.small_bet:
            return None
        return self.once(("raise", h.cur + h.small_bet), self.rule, s)


class StudCheckOutOfTurn(StudInjector):
    """On a later street two checks are logged in the wrong order (the second player checks
    before the first, who then checks)."""

    name, rule = "stud_check_out_of_turn", ORDER_STUD_LATER
    variants = STUD_GAMES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] == "check" and b[0] == "check" and a[6] == b[6] >= 1:
                ev[i], ev[i + 1] = b, a
                self.labels.append((b, SPECS[self.variant].order_later, b[1], True))
                return True
        return False


class StudFoldOutOfTurn(StudInjector):
    """3rd street: two folds in a row are logged in the wrong order (the second player folds
    before the first)."""

    name, rule = "stud_fold_out_of_turn", ORDER_STUD_FIRST
    variants = STUD_GAMES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] == b[0] == "fold" and a[6] == b[6] == 0:
                ev[i], ev[i + 1] = b, a
                self.labels.append((b, SPECS[self.variant].order_first, b[1], True))
                return True
        return False


class StudTieOddChip(StudInjector):
    """Two players hold the same ranks (other suits) and everyone checks and calls to the
    showdown; the tied pot is split with one chip moved from the player the odd chip is due to
    (by the cards, in stud) to the other."""

    name, rule = "stud_tie_odd_chip", POT_ODDCHIP_STUD
    variants = ("stud", "razz")

    def rig_stud(self, h: Hand, deck: list[int]) -> list[int]:
        """Deal the first two seats the same seven ranks: 2..8 in razz, 3..9 in stud (both
        play their five best; suits alternate so no flush)."""
        a, b = h.order[0], h.order[1]
        low = 0 if self.variant == "razz" else 1
        ranks = list(range(low, low + 7))
        self.rng.shuffle(ranks)
        mine = {a: [r * 4 + (i % 2) for i, r in enumerate(ranks)],
                b: [r * 4 + 2 + (i % 2) for i, r in enumerate(ranks)]}
        rest = [c for c in deck if c not in mine[a] and c not in mine[b]]
        counts = SPECS[self.variant].counts
        pops: list[int] = []  # cards in the order they are dealt (nobody folds)
        for street, n in enumerate(counts):
            k = n - (counts[street - 1] if street else 0)
            for s in h.order:
                dealt = len([x for x in pops if x in mine.get(s, ())])
                pops.extend(mine[s][dealt:dealt + k] if s in mine else
                            [rest.pop() for _ in range(k)])
        return rest + pops[::-1]

    def force(self, h: Hand, s: int) -> tuple | None:
        return ("call",) if h.cur > h.bet[s] else ("check",)

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        if res["refund"] or len(res["pots"]) != 1:
            return False
        _, amount, _, high, _ = res["pots"][0]
        if len(high) < 2 or amount % len(high) == 0:
            return False  # no odd chip to misplace
        due, other = high[0], high[1]
        row = next((e for e in ev if e[0] == "award" and e[1] == due), None)
        if row is None or row[2] < 2:
            return False
        row[2] -= 1
        mate = next(e for e in ev if e[0] == "award" and e[1] == other)
        mate[2] += 1
        self.labels.append((None, self.rule, due, True))
        self.labels.append((None, self.rule, other, True))
        return True


class AnteSkipped(StudInjector):
    """A player is dealt in without posting his ante (stud, and jacks or better, which is
    anted too); the rule is judged when the betting starts."""

    name, rule = "ante_skipped", ANTE_STUD
    variants = (*STUD_GAMES, "jacks_or_better")
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.rule = ANTE_DRAW if t.variant == "jacks_or_better" else ANTE_STUD
        self.seat = order[self.rng.randrange(len(order))]

    def skip_ante(self, h: Hand, s: int) -> bool:
        return s == self.seat and h.stack[s] > 0

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        start = next((e for e in ev if e[0] in ACTED
                      or e[0] == "post" and e[5] == "bring_in"), None)
        if start is None:
            return False
        self.labels.append((start, self.rule, self.seat, True))
        return True


def _shorten(h: Hand, s: int, behind: int) -> bool:
    """Leave seat s `behind` chips after what he has put in (the log's seat row agrees)."""
    if h.stack[s] <= behind:
        return False
    start = h.contrib[s] + behind
    h.stack[s], h.start[s] = behind, start
    row = next(e for e in h.ev if e[0] == "seat" and e[1] == s)
    row[2] = start
    return True


class BringInAllInShortCall(StudInjector):
    """The player with the bring-in card has one chip after his ante: he brings in all-in for
    it, and the next player calls that one chip instead of the full bring-in; the rest fold."""

    name, rule = "bring_in_allin_short_call", STUD_BRINGIN_ALLIN
    variants = STUD_GAMES

    def lowcard(self, h: Hand, b: int) -> None:
        self.seat = b if h.sb > 1 and _shorten(h, b, 1) else 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if not getattr(self, "seat", 0) or h.street:
            return None
        if not self.done:
            return self.once(("call",), self.rule, s)
        return ("fold",)


class BringInAllInCalledBetween(StudInjector):
    """The player with the bring-in card brings in all-in for one chip; the next player, two
    chips behind, goes all in for them when he calls (the engine's own play: an all-in call
    short of the full bring-in is legal); the player after him has chips and calls only those
    two instead of the full bring-in; the rest fold."""

    name, rule = "bring_in_allin_called_between", STUD_BRINGIN_ALLIN
    variants = STUD_GAMES

    def lowcard(self, h: Hand, b: int) -> None:
        self.seat = 0
        if h.sb <= 2 or not _shorten(h, b, 1):
            return  # a bring-in of two leaves no amount between one chip and the full one
        nxt = h.next_to_act(b)
        self.seat = nxt if nxt and nxt != b and _shorten(h, nxt, 2) else 0

    def force(self, h: Hand, s: int) -> tuple | None:
        seat = getattr(self, "seat", 0)
        if not seat or h.street or s == seat:
            return None
        if not self.done:
            his = next((e for e in reversed(h.ev) if e[1] == seat and e[0] in ACTED), None)
            if (his is None or his[0] != "call" or h.bet[seat] != h.cur or h.stack[seat]
                    or not another_with_chips(h, s)):
                # he did not call all in between the two, or nobody else could put in more
                # (the full bring-in would come straight back): a clean hand
                self.done = True
                self.seat = 0
                return None
            return self.once(("call",), self.rule, s)
        return ("fold",)


class AllInStarterChecks(StudInjector):
    """The player with the bring-in card is all-in for his ante; the next player to his left
    starts 3rd street with a check, where he may only fold, bring in or complete (the players
    after him open for the bring-in rather than check, as the engine plays it)."""

    name, rule = "allin_starter_checks", ORDER_STUD_ALLIN_STARTER
    variants = STUD_GAMES

    def lowcard(self, h: Hand, b: int) -> None:
        self.seat = b if _shorten(h, b, 0) else 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if not getattr(self, "seat", 0) or h.street or self.done or h.cur:
            return None
        return self.once(("check", None), self.rule, s)


class AllInStarterOutOfTurn(StudInjector):
    """The player with the bring-in card is all-in for his ante, so the next player to his
    left starts 3rd street; the player after that folds first, then the starter folds (the
    rest play on, and the all-in lowcard plays for the antes he matched)."""

    name, rule = "allin_starter_out_of_turn", ORDER_STUD_ALLIN_STARTER
    variants = STUD_GAMES
    min_players = 4  # the lowcard and a player still betting stay in after the two folds

    def lowcard(self, h: Hand, b: int) -> None:
        self.seat = b if _shorten(h, b, 0) else 0
        self.folds = 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if not getattr(self, "seat", 0) or h.street or self.folds == 2:
            return None
        self.folds += 1
        return ("fold",)

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        if not getattr(self, "seat", 0) or self.folds < 2:
            return False
        i = next(i for i, e in enumerate(ev) if e[0] in ACTED)
        a, b = ev[i], ev[i + 1]
        if not (a[0] == b[0] == "fold" and a[6] == b[6] == 0):
            return False
        ev[i], ev[i + 1] = b, a
        self.labels.append((b, self.rule, b[1], True))
        return True


STUD_INJECTORS = (BringInWrongSeat, BringInWrongAmount, StudSmallBetOnBigStreet, FiveStudBigBet,
            DrawSmallBetOnBigRound, BringInFolds, OpenPairBigBetRazzHilo, OpenPairSmallRaise,
            StudCheckOutOfTurn, StudFoldOutOfTurn, StudSeventhMissing, HoleCardUpThenUp,
            SeventhUpTwice, SeventhUpOrder, CommonCardNotShort, StudTieOddChip,
            AnteSkipped, UpcardDealtDown, BringInAllInShortCall, BringInAllInCalledBetween,
            StudDoubleBurn,
            AllInStarterOutOfTurn, AllInStarterChecks)

# Registered stud/draw ids the simulator does not inject, and why (tests/simulate/test_simulate_
# injectors_studdraw.py fails on a registered id that has neither an injector nor a line here).
NOT_INJECTED: dict[str, str] = {
    STUD_PREMATURE: "the replay moves on to the next street at a premature card, so the "
                      "unfinished round's remaining actions cannot be logged without further "
                      "findings; the rule's redeal of removed cards is not simulated",
    ORDER_STUD_COMMON: "needs a legal common card, i.e. eight players reaching 7th street; "
                         "simulated stud tables deal at most 7 (49 cards), so the only common "
                         "card is the one STUD-SHORT-DECK's injector deals, which that rule "
                         "already flags",
    STUD_WRONG_LOWCARD: "needs a second bring-in posted in the middle of 3rd street's "
                          "betting, a forced post the engine has no place for",
    JACKS_SPLIT_OPENERS: "judges an opener whose cards were not logged when he opened; the "
                           "simulator logs every hand, and hiding the opener's cards makes an "
                           "unverifiable award of the pot he won",
    BBLOW_EXPOSED: "no-limit and pot-limit lowball are not simulated (draw tables are fixed "
                     "limit)",
    BET_HALFPOT: "half-pot Mississippi is not simulated (stud tables are fixed limit)",
}
