"""Injectors that edit the finished log: actions out of turn (held, binding, check-then-bet,
call-then-raise), premature boards, burns, extra and duplicate cards, unknown cards, log
fields that contradict the chips, and table-stakes overruns."""

from __future__ import annotations

import random

from audit.rules.ids import (
    BOARD_FLOP_EXTRA,
    BURN_EACH_ROUND,
    DEAD_CARD_COUNT,
    DEAL_DUPLICATE_CARD,
    DEAL_PREMATURE,
    DQ_INCONSISTENT_LOG,
    DQ_SITE_TOTALS,
    DQ_UNVERIFIABLE_AWARD,
    HOUSE_TABLE_STAKES,
    TURN_OOT_BINDING,
    TURN_OOT_CALL,
    TURN_OOT_CHECK,
)
from audit.simulate.inject.base import Injector, _order_rule, _pairs
from audit.simulate.play.engine import CARD, NL, PL, Hand
from audit.simulate.play.table import Table

# ----------------------------------------------------------------------------- log order


class OrderSwap(Injector):
    name, rule = "out_of_turn_check", "ORDER"

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] in ("check", "call") and b[0] == "check" and a[6] == b[6]:
                ev[i], ev[i + 1] = b, a
                self.labels.append((b, _order_rule(h, b[6]), b[1], True))
                return True
        return False


class OotCheckThenBet(Injector):
    name, rule = "oot_check_then_bet", TURN_OOT_CHECK

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] == "check" and b[0] == "bet" and a[6] == b[6]:
                row = ["check", b[1], None, None, None, None, b[6], b[7]]
                ev.insert(i, row)
                self.labels.append((row, _order_rule(h, b[6]), b[1], False))
                self.labels.append((b, self.rule, b[1], True))
                return True
        return False


class OotCallThenRaise(Injector):
    name, rule = "oot_call_then_raise", TURN_OOT_CALL

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] in ("check", "call") and b[0] == "raise" and a[6] == b[6]:
                owed = b[7] - (b[3] - b[2])
                if owed <= 0:
                    continue
                row = ["call", b[1], owed, b[7], None, None, b[6], b[7]]
                ev.insert(i, row)
                self.labels.append((row, _order_rule(h, b[6]), b[1], False))
                self.labels.append((b, self.rule, b[1], True))
                return True
        return False


class OotBinding(Injector):
    name, rule = "oot_bet_then_check", TURN_OOT_BINDING
    structures = (PL, NL)

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i, a, b in _pairs(ev):
            if a[0] == "check" and b[0] == "check" and a[6] == b[6] and b[7] == 0:
                row = ["bet", b[1], t.bb, t.bb, None, None, b[6], 0]
                ev.insert(i, row)
                self.labels.append((row, _order_rule(h, b[6]), b[1], False))
                self.labels.append((b, self.rule, b[1], True))
                return True
        return False


# ----------------------------------------------------------------------------- dealing


class PrematureBoard(Injector):
    name, rule = "premature_board", DEAL_PREMATURE

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        for i in range(len(ev) - 2):
            a, burn, deal = ev[i], ev[i + 1], ev[i + 2]
            if a[0] == "check" and burn[0] == "burn" and deal[5] == "board":
                del ev[i]
                self.labels.append((deal, self.rule, a[1], True))
                return True
        return False


class ExtraBurn(Injector):
    name, rule = "extra_burn", BURN_EACH_ROUND

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        idx = [i for i, e in enumerate(ev) if e[0] == "burn"]
        if not idx:
            return False
        i = idx[rng.randrange(len(idx))]
        ev.insert(i, ["burn", None, None, None, None, None])
        self.labels.append((ev[i + 2], self.rule, None, True))
        return True


class FlopExtra(Injector):
    name, rule = "flop_extra_card", BOARD_FLOP_EXTRA

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        flop = next((e for e in ev if e[5] == "board"), None)
        if flop is None or not h.deck:
            return False
        flop[4] += " " + CARD[h.deck[0]]
        self.labels.append((flop, self.rule, None, True))
        if any(len(p[2]) > 1 for p in res["pots"]):
            self.labels.append((None, DQ_UNVERIFIABLE_AWARD, None, False))
        return True


class ExtraHoleCard(Injector):
    name, rule = "extra_hole_card", DEAD_CARD_COUNT

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        folded = [s for s in h.order if h.folded[s]]
        if not folded or not h.deck:
            return False
        s = folded[rng.randrange(len(folded))]
        row = next(e for e in ev if e[0] == "deal" and e[1] == s)
        row[4] += " " + CARD[h.deck[0]]
        self.labels.append((row, self.rule, s, True))
        return True


class DuplicateCard(Injector):
    name, rule = "duplicate_card", DEAL_DUPLICATE_CARD

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        holes = [e for e in ev if e[0] == "deal" and e[5] == "hole"]
        a, b = holes[0], holes[1]
        first = a[4].split(" ")[0]
        old = b[4].split(" ")
        b[4] = " ".join([first, *old[1:]])
        for e in ev:
            if e[0] == "show" and e[1] == b[1]:
                e[4] = b[4]
        # the house voided the hand: everybody gets back what he put in
        start = next(i for i, e in enumerate(ev) if e[0] in ("award", "rake", "show"))
        tail = [e for e in ev[start:-1] if e[0] == "show"]
        refunds = [["award", s, h.contrib[s], None, None, "main"] for s in h.order
                   if h.contrib[s]]
        ev[start:-1] = tail + refunds
        self.labels.append((b, self.rule, None, True))
        return True


class UnknownCards(Injector):
    name, rule = "unknown_cards", DQ_UNVERIFIABLE_AWARD

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        if not res["showdown"]:
            return False
        s = res["contenders"][-1]
        unknown = " ".join(["??"] * h.hole_n)
        for e in ev:
            if e[1] == s and (e[0] == "show" or (e[0] == "deal" and e[5] == "hole")):
                e[4] = unknown
        self.labels.append((None, self.rule, None, True))
        return True


# ----------------------------------------------------------------------------- log fields


class TotalMismatch(Injector):
    name, rule = "total_mismatch", DQ_INCONSISTENT_LOG

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        rows = [e for e in ev if e[0] in ("call", "bet", "raise") and e[3] is not None]
        if not rows:
            return False
        e = rows[rng.randrange(len(rows))]
        e[3] += 1 + rng.randrange(t.bb)
        self.labels.append((e, self.rule, e[1], True))
        return True


class SiteTotalsMismatch(Injector):
    """The room's stated total pot (hand_ended `total_pot=`) is off from the pot the actions
    made, as a site's export or a converter gets it wrong."""

    name, rule = "site_totals_mismatch", DQ_SITE_TOTALS

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        end = ev[-1]
        if end[0] != "hand_ended" or end[5]:
            return False
        pot = sum(e[2] or 0 for e in ev
                  if (e[0] == "award" and e[5] != "uncalled") or e[0] == "rake")
        wrong = pot + (1 + rng.randrange(t.bb)) * (1 if pot < t.bb or rng.random() < 0.5 else -1)
        end[5] = f"total_pot={wrong}"
        self.labels.append((None, self.rule, None, True))
        return True


class OverStack(Injector):
    name, rule = "over_stack", HOUSE_TABLE_STAKES

    def finish(self, h: Hand, res: dict, ev: list[list], t: Table,
               rng: random.Random, game: dict) -> bool:
        rows = [e for e in ev if e[0] in ("call", "bet", "raise") and e[5] == "all_in"]
        if not rows:
            return False
        e = rows[0]
        k = 1 + rng.randrange(t.bb)
        e[2] += k
        e[3] += k
        self.labels.append((e, self.rule, e[1], True))
        return True
