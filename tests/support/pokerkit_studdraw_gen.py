"""Random legal stud and draw hands driven through PokerKit (a TEST dependency only), converted
to our events (stud: `deal` down/up per seat per street, `post` bring_in, `complete`; draw:
`draw` discards, `deal` draw, `stand_pat`). The awards are PokerKit's final stacks.

Used by tests/replay/test_replay_pokerkit_studdraw.py. PokerKit deals from its own shuffled deck
(seeded through `random`), so burns and the reshuffle of discards in triple draw are its own.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
)

from tests.support.pokerkit_gen import blind_prelude, seats_and_antes

AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)
# code -> (our variant, structure, PokerKit class)
STUD = {
    "F7S": ("stud", FixedLimitSevenCardStud),
    "F7S/8": ("stud_hilo", FixedLimitSevenCardStudHighLowSplitEightOrBetter),
    "FR": ("razz", FixedLimitRazz),
}
DRAW = {
    "F2L3D": ("lowball_27_triple", "fixed_limit", FixedLimitDeuceToSevenLowballTripleDraw),
    "N2L1D": ("lowball_27_single", "no_limit", NoLimitDeuceToSevenLowballSingleDraw),
    "FB": ("badugi", "fixed_limit", FixedLimitBadugi),
}


def card_text(c: Any) -> str:
    return f"{c.rank}{c.suit}"


def _stacks(rng: random.Random, n: int, unit: int) -> list[int]:
    return [rng.choice([rng.randint(3 * unit, 20 * unit), rng.randint(20 * unit, 150 * unit)])
            for _ in range(n)]


def random_stud_hand(rng: random.Random, code: str, hand_id: str
                     ) -> tuple[list[dict], Any, Any]:
    """A random legal stud hand: (event rows, final PokerKit state, PokerKit game)."""
    variant, cls = STUD[code]
    ante, bring, small, big = rng.choice([(1, 2, 5, 10), (5, 10, 20, 40), (2, 5, 10, 20)])
    n = rng.randint(2, 6)  # 7 players would need a common card now and then
    stacks = _stacks(rng, n, small)
    warnings.simplefilter("ignore")
    random.seed(rng.random())  # PokerKit shuffles with the global generator
    game_ = cls(AUTOMATIONS, True, ante, bring, small, big, mode=Mode.CASH_GAME)
    state = game_(stacks, n)
    game = {"variant": variant, "structure": "fixed_limit", "ante": ante, "bring_in": bring,
            "small_bet": small, "big_bet": big, "seat_count": 9, "currency": "CHIPS",
            "minor_per_unit": 1}
    rows, behind = seats_and_antes(game, stacks, ante)
    g = {"bets": 0, "short": False, "size": small, "limit": True}
    rnd = [0] * n
    street = -1
    dealt: dict[int, list[str]] = {}
    steps = 0
    while state.status and steps < 800:
        steps += 1
        if state.can_deal_hole():
            if state.street_index != street:
                street = state.street_index
                rnd = [0] * n
                g.update(bets=0, short=False, size=small if street < 2 else big)
            op = state.deal_hole()
            dealt.setdefault(op.player_index, []).extend(card_text(c) for c in op.cards)
            if not state.can_deal_hole():
                for i in sorted(dealt):
                    cs = dealt[i]
                    if street == 0:
                        rows.append({"kind": "deal", "seat": i + 1, "detail": "down",
                                     "cards": " ".join(cs[:2])})
                        rows.append({"kind": "deal", "seat": i + 1, "detail": "up",
                                     "cards": " ".join(cs[2:])})
                    else:
                        rows.append({"kind": "deal", "seat": i + 1,
                                     "detail": "down" if street == 4 else "up",
                                     "cards": " ".join(cs)})
                dealt = {}
            continue
        i = state.actor_index
        if i is None:
            break
        if state.can_post_bring_in() and rng.random() < 0.75:
            amt = state.post_bring_in().amount
            rows.append({"kind": "post", "seat": i + 1, "detail": "bring_in", "amount": amt,
                         "total": amt})
            rnd[i] += amt
            behind[i] -= amt
            continue
        _act(rng, state, rows, rnd, behind, i, g, stud_small=small)
    _finish(state, rows, behind, n, hand_id)
    return rows, state, game_


def _act(rng: random.Random, state: Any, rows: list[dict], rnd: list[int], behind: list[int],
         i: int, g: dict[str, Any], stud_small: int = 0) -> None:
    cur = max(rnd)
    facing = state.checking_or_calling_amount
    r = rng.random()
    must_open = state.can_post_bring_in()  # the bring-in seat completes instead
    if must_open:
        r = 0.0
    elif facing and r < 0.1 and state.can_fold():
        state.fold()
        rows.append({"kind": "fold", "seat": i + 1})
        return
    # Stay inside the rulebook where PokerKit departs from it: no raise over an incomplete
    # all-in, and at most a bet (or completion) and 3 raises at fixed limit.
    blocked = g["short"] or (g["limit"] and g["bets"] >= 4)
    if must_open or (r < 0.5 and not blocked and state.can_complete_bet_or_raise_to()):
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        x = rng.random()
        to = lo if (x < 0.3 or lo == hi or must_open) else hi if x < 0.55 else rng.randint(
            lo, hi)
        chips = state.complete_bet_or_raise_to(to).amount - rnd[i]
        if (stud_small and g["bets"] == 0 and rnd[i] + chips <= stud_small
                and state.street_index == 0):
            kind = "complete" if cur else "bet"
        else:
            kind = "bet" if cur == 0 else "raise"
        inc = rnd[i] + chips - cur
        need = g["size"] if g["limit"] else max(g["size"], g.get("full", 0))
        if kind == "complete" or inc >= need:
            g["bets"] += 1
            g["short"] = False
            g["full"] = inc
        else:
            g["short"] = True
        rnd[i] += chips
        behind[i] -= chips
        rows.append({"kind": kind, "seat": i + 1, "amount": chips, "total": rnd[i]})
        return
    chips = state.check_or_call().amount
    if chips == 0:
        rows.append({"kind": "check", "seat": i + 1})
        return
    rnd[i] += chips
    behind[i] -= chips
    rows.append({"kind": "call", "seat": i + 1, "amount": chips, "total": rnd[i]})


def _finish(state: Any, rows: list[dict], behind: list[int], n: int, hand_id: str) -> None:
    live = [i for i in range(n) if state.statuses[i]]
    if len(live) > 1:
        for i in live:
            rows.append({"kind": "show", "seat": i + 1,
                         "cards": " ".join(card_text(c) for c in state.hole_cards[i])})
    final = list(state.stacks)
    for i in range(n):
        got = final[i] - behind[i]
        if got:
            rows.append({"kind": "award", "seat": i + 1, "amount": got, "detail": "main"})
    rows.append({"kind": "hand_ended"})
    for seq, r in enumerate(rows):
        r["hand_id"] = hand_id
        r["seq"] = seq
        if "seat" in r and "player" not in r:
            r["player"] = f"p{r['seat']}"


def random_draw_hand(rng: random.Random, code: str, hand_id: str
                     ) -> tuple[list[dict], Any, Any]:
    """A random legal draw hand: (event rows, final PokerKit state, PokerKit game)."""
    variant, structure, cls = DRAW[code]
    sb, bb = rng.choice([(1, 2), (5, 10), (25, 50)])
    n = rng.randint(2, 6)
    stacks = _stacks(rng, n, bb)
    warnings.simplefilter("ignore")
    random.seed(rng.random())
    if structure == "no_limit":
        game_ = cls(AUTOMATIONS, True, 0, (sb, bb), bb, mode=Mode.CASH_GAME)
    else:
        game_ = cls(AUTOMATIONS, True, 0, (sb, bb), bb, 2 * bb, mode=Mode.CASH_GAME)
    state = game_(stacks, n)
    rows, behind, rnd = blind_prelude(state, variant, structure, sb, bb, stacks)
    limit = structure == "fixed_limit"
    g = {"bets": 1, "short": False, "size": bb, "full": bb, "limit": limit}
    street = 0
    dealt: dict[int, list[str]] = {}
    first_deal = True
    steps = 0
    while state.status and steps < 800:
        steps += 1
        if state.can_deal_hole():
            op = state.deal_hole()
            dealt.setdefault(op.player_index, []).extend(card_text(c) for c in op.cards)
            if not state.can_deal_hole():
                for i in sorted(dealt):
                    rows.append({"kind": "deal", "seat": i + 1,
                                 "detail": "hole" if first_deal else "draw",
                                 "cards": " ".join(dealt[i])})
                dealt = {}
                first_deal = False
            continue
        if state.stand_patter_or_discarder_index is not None:
            i = state.stand_patter_or_discarder_index
            hole = list(state.hole_cards[i])
            k = rng.choice([0, 0, 1, 1, 2, 3])
            out = rng.sample(hole, min(k, len(hole)))
            state.stand_pat_or_discard(out)
            if out:
                rows.append({"kind": "draw", "seat": i + 1, "amount": len(out),
                             "cards": " ".join(card_text(c) for c in out)})
            else:
                rows.append({"kind": "stand_pat", "seat": i + 1})
            continue
        i = state.actor_index
        if i is None:
            break
        if state.street_index != street:
            street = state.street_index
            rnd = [0] * n
            g.update(bets=0, short=False, full=bb,
                     size=bb if (street < 2 or not limit) else 2 * bb)
        _act(rng, state, rows, rnd, behind, i, g)
    _finish(state, rows, behind, n, hand_id)
    return rows, state, game_
