"""Stud and draw injectors: the bring-in from the wrong seat, of the wrong size or folded, a
small bet on a big-bet street (stud, and draw games after the draw), bets against the open-pair
rules of 4th street, a check out of turn on a later street, and a hand short of its seventh
card at the showdown (the draw-game injectors are in inject_draw.py). Each breaks exactly its
rule; the engine then plays on under the state the replay derives from what was logged (or the
rest of the round stays passive), so the rest of the hand stays legal."""

from __future__ import annotations

import random

from audit.replay.stud import bring_in_seat, first_by_board, has_open_pair
from audit.replay.variants import SPECS
from audit.simulate.engine import CARD, FL, Hand
from audit.simulate.inject import Injector, _pairs
from audit.simulate.inject_draw import ALL_DRAW
from audit.simulate.table import DRAW_GAMES, STUD_GAMES, Table


class _StudInjector(Injector):
    structures = (FL,)
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        self.variant = t.variant


class BringInWrongSeat(_StudInjector):
    """A player other than the one with the bring-in card brings in."""

    name, rule = "bring_in_wrong_seat", "STUD-BRINGIN-LOWCARD"  # ORDER-RAZZ etc. by game
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


class BringInWrongAmount(_StudInjector):
    """The bring-in is posted one chip over its size (still short of a full bet)."""

    name, rule = "bring_in_wrong_amount", "STUD-BRINGIN-AMOUNT"
    variants = STUD_GAMES

    def bring_amount(self, h: Hand, s: int, amount: int) -> int:
        if self.done or amount + 1 >= h.small_bet or h.stack[s] <= amount + 1:
            return amount
        self.done = True
        return amount + 1


class StudSmallBetOnBigStreet(_StudInjector):
    """An opening bet of the small bet on fifth street or later (the big bet applies)."""

    name, rule = "stud_small_bet_on_big_street", "BET-LIMIT-STUD-STREETS"
    # 5-card stud bets one size throughout; Mississippi doubles on its last two rounds
    variants = ("stud", "stud_hilo", "razz", "mississippi")

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        if t.variant == "mississippi":
            self.rule = "BET-LIMIT-MISSISSIPPI"

    def force(self, h: Hand, s: int) -> tuple | None:
        if self.done or h.street < h.big_from or h.cur or h.stack[s] <= h.small_bet:
            return None
        lo, _ = h.raise_range(s)
        if not lo:
            return None
        return self.once(("raise", h.small_bet), self.rule, s)


class FiveStudBigBet(_StudInjector):
    """An opening bet of the big bet in 5-card stud, where every round is bet at one size."""

    name, rule = "five_stud_big_bet", "BET-LIMIT-5STUD"
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

    name, rule = "draw_small_bet_on_big_round", "BET-LIMIT-DRAW-DOUBLE"
    variants = DRAW_GAMES
    min_players = 2


class BringInFolds(_StudInjector):
    """The player with the bring-in card folds instead of bringing in or completing."""

    name, rule = "bring_in_folds", "STUD-BRINGIN-OPTIONS"
    variants = STUD_GAMES

    def bring_fold(self, h: Hand, s: int) -> bool:
        self.done = True
        return True

    def bring_rule(self) -> str:
        return self.rule


def _up(h: Hand, s: int, faces: str) -> list[int]:
    return [c for c, f in zip(h.hole[s], faces, strict=False) if f == "u"]


def _open_pair(h: Hand, faces: str) -> bool:
    return any(has_open_pair(_up(h, s, faces)) for s in h.order if not h.folded[s])


class _OpenPair(_StudInjector):
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

    name, rule = "open_pair_big_bet", "RAZZ-NO-OPENPAIR"
    variants = ("razz", "stud_hilo")

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.rule = "RAZZ-NO-OPENPAIR" if t.variant == "razz" else "STUDHL-NO-OPENPAIR"

    def wrong(self, h: Hand, s: int) -> tuple | None:
        if h.cur or h.stack[s] <= h.big_bet:
            return None
        return self.once(("raise", h.big_bet), self.rule, s)


class OpenPairSmallRaise(_OpenPair):
    """7-card stud, open pair on 4th street: after a big bet the raise is a small one (once the
    upper limit is bet, raises are at the upper limit)."""

    name, rule = "open_pair_small_raise", "BET-STUD-OPENPAIR"
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


class StudCheckOutOfTurn(_StudInjector):
    """On a later street two checks are logged in the wrong order (the second player checks
    before the first, who then checks)."""

    name, rule = "stud_check_out_of_turn", "ORDER-STUD-LATER"
    variants = STUD_GAMES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] == "check" and b[0] == "check" and a[6] == b[6] >= 1:
                ev[i], ev[i + 1] = b, a
                self.labels.append((b, SPECS[self.variant].order_later, b[1], True))
                return True
        return False


class StudFoldOutOfTurn(_StudInjector):
    """3rd street: two folds in a row are logged in the wrong order (the second player folds
    before the first)."""

    name, rule = "stud_fold_out_of_turn", "ORDER-STUD-FIRST"
    variants = STUD_GAMES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] == b[0] == "fold" and a[6] == b[6] == 0:
                ev[i], ev[i + 1] = b, a
                self.labels.append((b, SPECS[self.variant].order_first, b[1], True))
                return True
        return False


class StudSeventhMissing(_StudInjector):
    """A player who loses at the showdown was never dealt his seventh card (he shows six)."""

    name, rule = "stud_seventh_missing", "STUD-CARD-COUNT"
    variants = ("stud", "stud_hilo", "razz")

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        if not res["showdown"] or h.street != 4:
            return False
        winners = {x for _, _, _, hi, lo in res["pots"] for x in (*hi, *(lo or ()))}
        losers = [x for x in res["contenders"] if x not in winners]
        if not losers:
            return False
        s = losers[0]
        # the seventh card is the only single card dealt down (dd uuuu d)
        sevenths = [i for i, e in enumerate(ev) if e[0] == "deal" and e[5] == "down"
                    and len(e[4].split()) == 1]
        mine = [i for i in sevenths if ev[i][1] == s]
        if len(mine) != 1 or len(sevenths) < 2:
            return False
        last = mine[0]
        seventh = ev[last][4]
        del ev[last]
        show = next(e for e in ev if e[0] == "show" and e[1] == s)
        show[4] = " ".join(c for c in show[4].split() if c != seventh)
        first = next(e for e in ev if e[0] == "deal" and e[1] == s)
        self.labels.append((first, self.rule, s, True))
        return True


_SEVEN = ("stud", "stud_hilo", "razz")


def _cards(text: str) -> list[int]:
    return [CARD.index(c) for c in text.split()]


class HoleCardUpThenUp(_StudInjector):
    """3rd street: a player's second hole card is dealt face up, and his third card face up as
    well (after an exposed hole card the third is dealt down; in a tournament an exposed hole
    card is a misdeal). Only a player who folds on 3rd street, and whose exposed card would
    not have made him the bring-in, so that the turn order stays the one that was played."""

    name, rule = "hole_card_up_then_up", "STUD-EXPOSED-START"
    variants = _SEVEN

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        bring = next((e for e in ev if e[0] == "post" and e[5] == "bring_in"), None)
        if bring is None:
            return False
        third: dict[int, list] = {}  # each seat's first up-dealt card: his 3rd street card
        for e in ev:
            if e[0] == "deal" and e[5] == "up":
                third.setdefault(e[1], e)
        ups = {x: CARD.index(e[4]) for x, e in third.items()}
        for s in [e[1] for e in ev if e[0] == "fold" and e[6] == 0 and e[1] != bring[1]]:
            down = next(e for e in ev if e[0] == "deal" and e[1] == s and e[5] == "down")
            hole = down[4].split()
            if bring_in_seat({**ups, s: CARD.index(hole[1])}, spec.bring_in) != bring[1]:
                continue
            down[4] = hole[0]
            up = third[s]
            up[4] = f"{hole[1]} {up[4]}"
            self.labels.append((up, self.rule, s, True))
            return True
        return False


_ACTED = ("fold", "check", "call", "bet", "raise", "complete")


class SeventhUpTwice(_StudInjector):
    """7th street with three or more players: two players' last cards are dealt face up (once
    one is dealt up the others get theirs down). Only where the upcards leave the player who
    acted first on 7th street the one who should."""

    name, rule = "seventh_up_twice", "STUD-7TH-UP"
    variants = _SEVEN

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        at = next((i for i, e in enumerate(ev) if e[0] in _ACTED and e[6] == 4), None)
        if at is None:
            return False
        sevenths = {e[1]: e for e in ev[:at] if e[0] == "deal" and e[5] == "down"
                    and len(e[4].split()) == 1}
        if len(sevenths) < 3:
            return False
        put_in = {x: sum(e[2] or 0 for e in ev[:at] if e[1] == x
                         and (e[0] == "post" or e[0] in _ACTED)) for x in sevenths}
        live = [x for x in h.order if x in sevenths and h.start[x] > put_in[x]]
        up = {x: _up(h, x, spec.faces) for x in sevenths}
        for i, a in enumerate(live):
            for b in live[i + 1:]:
                boards = {x: up[x] + ([h.hole[x][6]] if x in (a, b) else []) for x in up}
                if first_by_board(boards, h.order, spec.board == "low") != ev[at][1]:
                    continue
                sevenths[a][5] = sevenths[b][5] = "up"
                last = max(k for k in range(at) if ev[k][0] == "deal")
                self.labels.append((ev[last], self.rule, b, True))
                return True
        return False


class SeventhUpOrder(_StudInjector):
    """One player's last card is dealt face up (legal), but 7th street is still opened by the
    player who was high on the board without it: the first to act counts that upcard."""

    name, rule = "seventh_up_wrong_first", "ORDER-STUD-7TH-UP"
    variants = _SEVEN

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        at = next((i for i, e in enumerate(ev) if e[0] in _ACTED and e[6] == 4), None)
        if at is None or ev[at][0] != "check" or ev[at + 1][0] not in _ACTED:
            return False
        sevenths = {e[1]: e for e in ev[:at] if e[0] == "deal" and e[5] == "down"
                    and len(e[4].split()) == 1}
        put_in = {x: sum(e[2] or 0 for e in ev[:at] if e[1] == x
                         and (e[0] == "post" or e[0] in _ACTED)) for x in sevenths}
        live = [x for x in h.order if x in sevenths and h.start[x] > put_in[x]]
        if len(live) != len(sevenths):
            return False  # nobody all-in: every player still acts on 7th street
        alive = [x for x in h.order if x in sevenths]
        up = {x: _up(h, x, spec.faces) for x in sevenths}
        for x in alive[1:] if len(alive) == 2 else alive:
            boards = {y: up[y] + ([h.hole[y][6]] if y == x else []) for y in up}
            best = first_by_board(boards, h.order, spec.board == "low")
            if best == ev[at][1] or best != ev[at + 1][1]:
                continue
            sevenths[x][5] = "up"
            self.labels.append((ev[at], self.rule, ev[at][1], True))
            return True
        return False


class CommonCardNotShort(_StudInjector):
    """7th street is dealt as one common card face up although the deck holds a card for every
    player still in (the common card is only for a deck that runs short). The hands are played
    and settled with the common card."""

    name, rule = "common_card_not_short", "STUD-SHORT-DECK"
    variants = _SEVEN

    def common_last(self, h: Hand) -> bool:
        self.done = True
        return True


class StudTieOddChip(_StudInjector):
    """Two players hold the same ranks (other suits) and everyone checks and calls to the
    showdown; the tied pot is split with one chip moved from the player the odd chip is due to
    (by the cards, in stud) to the other."""

    name, rule = "stud_tie_odd_chip", "POT-ODDCHIP-STUD"
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


class AnteSkipped(_StudInjector):
    """A player is dealt in without posting his ante (stud, and jacks or better, which is
    anted too); the rule is judged when the betting starts."""

    name, rule = "ante_skipped", "ANTE-STUD"
    variants = (*STUD_GAMES, "jacks_or_better")
    min_players = 3

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.rule = "ANTE-DRAW" if t.variant == "jacks_or_better" else "ANTE-STUD"
        self.seat = order[self.rng.randrange(len(order))]

    def skip_ante(self, h: Hand, s: int) -> bool:
        return s == self.seat and h.stack[s] > 0

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        start = next((e for e in ev if e[0] in _ACTED
                      or e[0] == "post" and e[5] == "bring_in"), None)
        if start is None:
            return False
        self.labels.append((start, self.rule, self.seat, True))
        return True


class UpcardDealtDown(_StudInjector):
    """Five-card and Mississippi stud: a card the structure deals face up is dealt face down,
    to a player who folds in that round; only where the missing upcard leaves the round's
    first player the one who acted first."""

    name, rule = "upcard_dealt_down", "FIVESTUD-STRUCTURE"
    variants = ("stud5", "mississippi")

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.rule = "FIVESTUD-STRUCTURE" if t.variant == "stud5" else "MISS-STRUCTURE"

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        counts, faces = spec.counts, spec.faces
        for k in range(1, len(counts)):
            first = next((e for e in ev if e[0] in _ACTED and e[6] == k), None)
            if first is None:
                break
            alive = [x for x in h.order if len(h.hole[x]) >= counts[k]]
            boards = {x: [c for c, f in zip(h.hole[x][:counts[k]], faces, strict=False)
                          if f == "u"] for x in alive}
            best = first_by_board(boards, h.order, spec.board == "low")
            for e in ev:
                if e[0] != "fold" or e[6] != k or e[1] == best:
                    continue
                s = e[1]
                new = [CARD.index(c) for c in _deal_rows(ev, s)[k][4].split()]
                seen = {**boards, s: [c for c in boards[s] if c not in new]}
                if first_by_board(seen, h.order, spec.board == "low") != best:
                    continue
                row = _deal_rows(ev, s)[k]
                row[5] = "down"
                self.labels.append((row, self.rule, s, True))
                return True
        return False


def _shorten(h: Hand, s: int, behind: int) -> bool:
    """Leave seat s `behind` chips after what he has put in (the log's seat row agrees)."""
    if h.stack[s] <= behind:
        return False
    start = h.contrib[s] + behind
    h.stack[s], h.start[s] = behind, start
    row = next(e for e in h.ev if e[0] == "seat" and e[1] == s)
    row[2] = start
    return True


class BringInAllInShortCall(_StudInjector):
    """The player with the bring-in card has one chip after his ante: he brings in all-in for
    it, and the next player calls that one chip instead of the full bring-in; the rest fold."""

    name, rule = "bring_in_allin_short_call", "STUD-BRINGIN-ALLIN"
    variants = STUD_GAMES

    def lowcard(self, h: Hand, b: int) -> None:
        self.seat = b if h.sb > 1 and _shorten(h, b, 1) else 0

    def force(self, h: Hand, s: int) -> tuple | None:
        if not getattr(self, "seat", 0) or h.street:
            return None
        if not self.done:
            return self.once(("call",), self.rule, s)
        return ("fold",)


class StudDoubleBurn(_StudInjector):
    """The log records the burns: one before each later street's cards, and two before one
    street's (a double burn)."""

    name, rule = "stud_double_burn", "STUD-BURN-ERROR"
    variants = STUD_GAMES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        starts = [i for i in range(1, len(ev)) if ev[i][0] == "deal"
                  and ev[i - 1][0] in _ACTED]  # a later street's first card
        if not starts or len(starts) != h.street:
            return False  # streets dealt back to back (all-in): the burns are not placed
        double = rng.randrange(len(starts))
        for k in reversed(range(len(starts))):
            burns = [["burn", None, None, None, None, None]] * (2 if k == double else 1)
            ev[starts[k]:starts[k]] = [list(b) for b in burns]
        at = starts[double] + double + 2  # the street's first card, after the burns before it
        self.labels.append((ev[at], self.rule, None, True))
        return True


def _deal_rows(ev: list[list], s: int) -> list[list]:
    """Seat s's deal rows, index k the row of street k (the first street's down row dropped,
    so index 0 is its upcard)."""
    rows = [e for e in ev if e[0] == "deal" and e[1] == s]
    return rows[1:]  # rows[0] is the first street's down cards, rows[1] its upcard


ALL_STUD = (BringInWrongSeat, BringInWrongAmount, StudSmallBetOnBigStreet, FiveStudBigBet,
            DrawSmallBetOnBigRound, BringInFolds, OpenPairBigBetRazzHilo, OpenPairSmallRaise,
            StudCheckOutOfTurn, StudFoldOutOfTurn, StudSeventhMissing, HoleCardUpThenUp,
            SeventhUpTwice, SeventhUpOrder, CommonCardNotShort, StudTieOddChip,
            AnteSkipped, UpcardDealtDown, BringInAllInShortCall, StudDoubleBurn, *ALL_DRAW)

# Registered stud/draw ids the simulator does not inject, and why (tests/test_simulate_
# injectors_studdraw.py fails on a registered id that has neither an injector nor a line here).
NOT_INJECTED: dict[str, str] = {
    "STUD-PREMATURE": "the replay moves on to the next street at a premature card, so the "
                      "unfinished round's remaining actions cannot be logged without further "
                      "findings; the rule's redeal of removed cards is not simulated",
    "ORDER-STUD-COMMON": "needs a legal common card, i.e. eight players reaching 7th street; "
                         "simulated stud tables deal at most 7 (49 cards), so the only common "
                         "card is the one STUD-SHORT-DECK's injector deals, which that rule "
                         "already flags",
    "ORDER-STUD-ALLIN-STARTER": "needs a lowcard all-in for his ante, and the simulator "
                                "engine's settlement (engine.settle, not this module's) leaves "
                                "a player with no live chips out of every pot, antes included, "
                                "where the replay lets him win the antes",
    "STUD-WRONG-LOWCARD": "needs a second bring-in posted in the middle of 3rd street's "
                          "betting, a forced post the engine has no place for",
    "JACKS-SPLIT-OPENERS": "judges an opener whose cards were not logged when he opened; the "
                           "simulator logs every hand, and hiding the opener's cards makes an "
                           "unverifiable award of the pot he won",
    "BBLOW-EXPOSED": "no-limit and pot-limit lowball are not simulated (draw tables are fixed "
                     "limit)",
}
