"""Random legal hands driven through PokerKit (a TEST dependency only), converted to our events.

Used by tests/replay/test_replay_pokerkit.py. PokerKit decides what is legal; the hand's award
events are PokerKit's final stacks, so a replay that agrees with PokerKit reports nothing.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)
from pokerkit.games import FixedLimitPokerMixin, Holdem, OmahaHoldemMixin
from pokerkit.hands import OmahaEightOrBetterLowHand, OmahaHoldemHand


class FixedLimitOmahaHiLo(FixedLimitPokerMixin, OmahaHoldemMixin, Holdem):
    """Fixed-limit Omaha/8. PokerKit 0.7.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter
    derives from PotLimitPokerMixin (it plays pot limit); see test_pokerkit_fo8_is_pot_limit."""

    hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand)


AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    # Without it PokerKit stops at an all-in before the river, waiting for the players to
    # choose how many times to run the board, and the hand is never settled.
    Automation.RUNOUT_COUNT_SELECTION,
)
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
# code -> (our variant, our structure, hole cards)
VARIANTS = {
    "NT": ("holdem", "no_limit", 2),
    "FT": ("holdem", "fixed_limit", 2),
    "PO": ("omaha", "pot_limit", 4),
    "FO/8": ("omaha_hilo", "fixed_limit", 4),
}


def create(code: str, stacks: list[int], sb: int, bb: int) -> Any:
    n = len(stacks)
    if code == "NT":
        return NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (sb, bb), bb, stacks, n,
                                               mode=Mode.CASH_GAME)
    if code == "PO":
        return PotLimitOmahaHoldem.create_state(AUTOMATIONS, True, 0, (sb, bb), bb, stacks, n,
                                                mode=Mode.CASH_GAME)
    if code == "FT":
        return FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (sb, bb), bb, 2 * bb,
                                                  stacks, n, mode=Mode.CASH_GAME)
    return FixedLimitOmahaHiLo(AUTOMATIONS, True, 0, (sb, bb), bb, 2 * bb,
                               mode=Mode.CASH_GAME)(stacks, n)


def random_hand(rng: random.Random, code: str, hand_id: str, *, n: int | None = None,
                stacks: list[int] | None = None, script: list[str] | None = None,
                deck: list[str] | None = None, blinds: tuple[int, int] | None = None,
                ) -> tuple[list[dict[str, Any]], Any]:
    """(event rows, final pokerkit state). `script` forces actions ('f', 'cc', 'cbr:N', 'max')."""
    variant, structure, hole_n = VARIANTS[code]
    sb, bb = blinds or rng.choice([(1, 2), (5, 10), (25, 50), (50, 100)])
    if n is None:
        n = rng.randint(2, 9)
    if stacks is None:
        stacks = [rng.choice([rng.randint(bb, 20 * bb), rng.randint(20 * bb, 150 * bb)])
                  for _ in range(n)]
    warnings.simplefilter("ignore")
    cards = list(deck) if deck else rng.sample(DECK, 52)
    state = create(code, stacks, sb, bb)
    rows, behind, rnd = blind_prelude(state, variant, structure, sb, bb, stacks)
    play_out(rng, state, cards, rows, behind, rnd, bb=bb,
             limit=structure == "fixed_limit", script=script, hand_id=hand_id)
    return rows, state


def play_out(rng: random.Random, state: Any, cards: list[str], rows: list[dict[str, Any]],
             behind: list[int], rnd: list[int], *, bb: int, limit: bool,
             script: list[str] | None, hand_id: str) -> None:
    """Play a board game's PokerKit `state` from its posted forced bets to the end, appending
    our events to `rows` (`behind`: each player's chips behind, `rnd`: his total on the first
    round; `bb` the big blind, or the button blind): hole cards from `cards`, the boards,
    random or `script`ed actions, the showdown, PokerKit's final stacks as the awards."""
    n = len(behind)
    holes: list[list[str]] = [[] for _ in range(n)]
    board: list[str] = []
    pos = 0
    folded = [False] * n
    steps = 0
    g = {"bets": 1, "full": bb, "short": False, "size": bb, "restrict": script is None,
         "limit": limit}
    while state.status and steps < 500:
        steps += 1
        if state.can_deal_hole():
            op = state.deal_hole(cards[pos])
            holes[op.player_index].append(cards[pos])
            pos += 1
            if not state.can_deal_hole():
                for i in range(n):
                    rows.append({"kind": "deal", "seat": i + 1, "detail": "hole",
                                 "cards": " ".join(holes[i])})
            continue
        if state.can_deal_board():
            k = 3 if not board else 1
            new = cards[pos:pos + k]
            pos += k
            state.deal_board("".join(new))
            board += new
            rows.append({"kind": "deal", "detail": "board", "cards": " ".join(new)})
            rnd = [0] * n
            g.update(bets=0, short=False, full=bb, size=bb if len(board) <= 3 or not limit
                     else 2 * bb)
            continue
        i = state.actor_index
        if i is None:
            break
        cur = max(rnd)
        act = _choose(rng, state, script, g)
        if act == "f":
            state.fold()
            folded[i] = True
            rows.append({"kind": "fold", "seat": i + 1, "player": f"p{i + 1}"})
            continue
        if act == "cc":
            chips = state.check_or_call().amount
            kind = "call"
        else:
            chips = state.complete_bet_or_raise_to(act).amount - rnd[i]
            kind = "bet" if cur == 0 else "raise"
            inc = rnd[i] + chips - cur
            need = g["size"] if limit else g["full"]
            if inc >= need:
                g["bets"] += 1
                g["short"] = False
                g["full"] = max(inc, bb)
            else:
                g["short"] = True
        if kind == "call" and chips == 0:
            rows.append({"kind": "check", "seat": i + 1, "player": f"p{i + 1}"})
            continue
        rnd[i] += chips
        behind[i] -= chips
        rows.append({"kind": kind, "seat": i + 1, "player": f"p{i + 1}", "amount": chips,
                     "total": rnd[i]})
    live = [i for i in range(n) if not folded[i]]
    if len(live) > 1:
        for i in live:
            rows.append({"kind": "show", "seat": i + 1, "player": f"p{i + 1}",
                         "cards": " ".join(holes[i])})
    final = list(state.stacks)
    for i in range(n):
        got = final[i] - behind[i]
        if got:
            rows.append({"kind": "award", "seat": i + 1, "player": f"p{i + 1}", "amount": got,
                         "detail": "main"})
    rows.append({"kind": "hand_ended"})
    for seq, r in enumerate(rows):
        r["hand_id"] = hand_id
        r["seq"] = seq


def _choose(rng: random.Random, state: Any, script: list[str] | None,
            g: dict[str, Any] | None = None) -> Any:
    if script:
        a = script.pop(0)
        if a.startswith("cbr:"):
            return int(a[4:])
        if a == "max":
            return state.max_completion_betting_or_raising_to_amount
        if a == "min":
            return state.min_completion_betting_or_raising_to_amount
        return a
    r = rng.random()
    facing = state.checking_or_calling_amount
    if facing and r < 0.2 and state.can_fold():
        return "f"
    # Stay inside the rulebook where PokerKit departs from it (see the named tests):
    # no raise over an incomplete all-in, and at most a bet and 3 raises at fixed limit.
    blocked = bool(g and g["restrict"] and (g["short"] or (g["size"] and g["bets"] >= 4
                                                            and g.get("limit"))))
    if r < 0.55 and not blocked and state.can_complete_bet_or_raise_to():
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        x = rng.random()
        if x < 0.3 or lo == hi:
            return lo
        if x < 0.55:
            return hi
        return rng.randint(lo, hi)
    return "cc"


def seats_and_antes(game: dict[str, Any], stacks: list[int], ante: int
                    ) -> tuple[list[dict[str, Any]], list[int]]:
    """Our events for a PokerKit game up to its antes (`game` the hand_started game; players
    p1..pn in seats 1..n): the seats and every player's ante (his whole stack when less);
    and each player's chips behind after it."""
    rows: list[dict[str, Any]] = [{"kind": "hand_started", "game": game, "table_id": "pk"}]
    for i, stack in enumerate(stacks):
        rows.append({"kind": "seat", "seat": i + 1, "player": f"p{i + 1}", "amount": stack})
    behind = list(stacks)
    for i, stack in enumerate(stacks if ante else ()):
        paid = min(ante, stack)
        rows.append({"kind": "post", "seat": i + 1, "player": f"p{i + 1}", "detail": "ante",
                     "amount": paid})
        behind[i] -= paid
    return rows, behind


def blind_prelude(state: Any, variant: str, structure: str, sb: int, bb: int,
                  stacks: list[int]) -> tuple[list[dict[str, Any]], list[int], list[int]]:
    """Our events for a PokerKit blind game up to the posted blinds (the button is the last
    player; heads-up PokerKit's player 2 posts the small blind): rows, chips behind, and
    each player's total on the first round."""
    n = len(stacks)
    game = {"variant": variant, "structure": structure, "small_blind": sb, "big_blind": bb,
            "button_seat": n, "seat_count": 9, "currency": "CHIPS", "minor_per_unit": 1}
    if structure == "fixed_limit":
        game.update(small_bet=bb, big_bet=2 * bb)
    rows, behind = seats_and_antes(game, stacks, 0)
    rnd = [0] * n
    posts = list(state.bets)
    sb_i, bb_i = (1, 0) if n == 2 else (0, 1)
    for i, kind in ((sb_i, "small_blind"), (bb_i, "big_blind")):
        amt = posts[i]
        rows.append({"kind": "post", "seat": i + 1, "player": f"p{i + 1}", "detail": kind,
                     "amount": amt, "total": amt})
        behind[i] -= amt
        rnd[i] = amt
    return rows, behind, rnd
