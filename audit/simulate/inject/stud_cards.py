"""Stud injectors for cards dealt the wrong way: a hand short of its seventh card at the
showdown, a hole card dealt up, seventh cards dealt up, a common card the deck did not need, an
upcard dealt down in five-card and Mississippi stud, and a double burn. Each breaks exactly its
rule, and only where the changed cards leave the turn order and the awards the hand had."""

from __future__ import annotations

import random

from audit.poker.stud import bring_in_seat, first_by_board
from audit.poker.variants import SPECS
from audit.rules.ids import (
    FIVESTUD_STRUCTURE,
    MISS_STRUCTURE,
    ORDER_STUD_7TH_UP,
    STUD_7TH_UP,
    STUD_BURN_ERROR,
    STUD_CARD_COUNT,
    STUD_EXPOSED_START,
    STUD_SHORT_DECK,
)
from audit.simulate.inject.studdraw_base import ACTED, StudInjector, upcards
from audit.simulate.play.engine import CARD, Hand
from audit.simulate.play.table import STUD_GAMES, Table


class StudSeventhMissing(StudInjector):
    """A player who loses at the showdown was never dealt his seventh card (he shows six)."""

    name, rule = "stud_seventh_missing", STUD_CARD_COUNT
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


class HoleCardUpThenUp(StudInjector):
    """3rd street: a player's second hole card is dealt face up, and his third card face up as
    well (after an exposed hole card the third is dealt down; in a tournament an exposed hole
    card is a misdeal). Only a player who folds on 3rd street, and whose exposed card would
    not have made him the bring-in, so that the turn order stays the one that was played."""

    name, rule = "hole_card_up_then_up", STUD_EXPOSED_START
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


class SeventhUpTwice(StudInjector):
    """7th street with three or more players: two players' last cards are dealt face up (once
    one is dealt up the others get theirs down). Only where the upcards leave the player who
    acted first on 7th street the one who should."""

    name, rule = "seventh_up_twice", STUD_7TH_UP
    variants = _SEVEN

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        at = next((i for i, e in enumerate(ev) if e[0] in ACTED and e[6] == 4), None)
        if at is None:
            return False
        sevenths = {e[1]: e for e in ev[:at] if e[0] == "deal" and e[5] == "down"
                    and len(e[4].split()) == 1}
        if len(sevenths) < 3:
            return False
        put_in = {x: sum(e[2] or 0 for e in ev[:at] if e[1] == x
                         and (e[0] == "post" or e[0] in ACTED)) for x in sevenths}
        live = [x for x in h.order if x in sevenths and h.start[x] > put_in[x]]
        up = {x: upcards(h, x, spec.faces) for x in sevenths}
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


class SeventhUpOrder(StudInjector):
    """One player's last card is dealt face up (legal), but 7th street is still opened by the
    player who was high on the board without it: the first to act counts that upcard."""

    name, rule = "seventh_up_wrong_first", ORDER_STUD_7TH_UP
    variants = _SEVEN

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        at = next((i for i, e in enumerate(ev) if e[0] in ACTED and e[6] == 4), None)
        if at is None or ev[at][0] != "check" or ev[at + 1][0] not in ACTED:
            return False
        sevenths = {e[1]: e for e in ev[:at] if e[0] == "deal" and e[5] == "down"
                    and len(e[4].split()) == 1}
        put_in = {x: sum(e[2] or 0 for e in ev[:at] if e[1] == x
                         and (e[0] == "post" or e[0] in ACTED)) for x in sevenths}
        live = [x for x in h.order if x in sevenths and h.start[x] > put_in[x]]
        if len(live) != len(sevenths):
            return False  # nobody all-in: every player still acts on 7th street
        alive = [x for x in h.order if x in sevenths]
        up = {x: upcards(h, x, spec.faces) for x in sevenths}
        for x in alive[1:] if len(alive) == 2 else alive:
            boards = {y: up[y] + ([h.hole[y][6]] if y == x else []) for y in up}
            best = first_by_board(boards, h.order, spec.board == "low")
            if best == ev[at][1] or best != ev[at + 1][1]:
                continue
            sevenths[x][5] = "up"
            self.labels.append((ev[at], self.rule, ev[at][1], True))
            return True
        return False


class CommonCardNotShort(StudInjector):
    """7th street is dealt as one common card face up although the deck holds a card for every
    player still in (the common card is only for a deck that runs short). The hands are played
    and settled with the common card."""

    name, rule = "common_card_not_short", STUD_SHORT_DECK
    variants = _SEVEN

    def common_last(self, h: Hand) -> bool:
        self.done = True
        return True


class UpcardDealtDown(StudInjector):
    """Five-card and Mississippi stud: a card the structure deals face up is dealt face down,
    to a player who folds in that round; only where the missing upcard leaves the round's
    first player the one who acted first."""

    name, rule = "upcard_dealt_down", FIVESTUD_STRUCTURE
    variants = ("stud5", "mississippi")

    def prepare(self, t: Table, order: list[int]) -> None:
        super().prepare(t, order)
        self.rule = FIVESTUD_STRUCTURE if t.variant == "stud5" else MISS_STRUCTURE

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        spec = SPECS[self.variant]
        counts, faces = spec.counts, spec.faces
        for k in range(1, len(counts)):
            first = next((e for e in ev if e[0] in ACTED and e[6] == k), None)
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


class StudDoubleBurn(StudInjector):
    """The log records the burns: one before each later street's cards, and two before one
    street's (a double burn)."""

    name, rule = "stud_double_burn", STUD_BURN_ERROR
    variants = STUD_GAMES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        starts = [i for i in range(1, len(ev)) if ev[i][0] == "deal"
                  and ev[i - 1][0] in ACTED]  # a later street's first card
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


ALL_CARDS = (StudSeventhMissing, HoleCardUpThenUp, SeventhUpTwice, SeventhUpOrder,
             CommonCardNotShort, UpcardDealtDown, StudDoubleBurn)
