"""Random legal short-deck hold'em hands driven through PokerKit's NoLimitShortDeckHoldem (a TEST
dependency only), converted to our events as variant `holdem_short` (PokerKit's ranking).

As tests/pokerkit_gen.py does for NLHE, with the short-deck forced bets: every player antes and
the button (the last player) posts the button blind; PokerKit's final stacks are the awards.
Only 3+ players: heads-up PokerKit swaps the blinds of the two players (its SB/BB convention),
which puts the button blind on the player who is not on the button (see test_shortdeck.py).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from pokerkit import Mode, NoLimitShortDeckHoldem

from tests.pokerkit_gen import AUTOMATIONS, _choose

SHORT_DECK = [r + s for r in "6789TJQKA" for s in "cdhs"]


def random_short_hand(rng: random.Random, hand_id: str, *, n: int | None = None,
                      stacks: list[int] | None = None, script: list[str] | None = None,
                      deck: list[str] | None = None, ante: int | None = None,
                      button_blind: int | None = None) -> tuple[list[dict[str, Any]], Any]:
    """(event rows, final PokerKit state). `script` forces actions as in pokerkit_gen."""
    if ante is None or button_blind is None:
        ante, button_blind = rng.choice([(1, 1), (1, 2), (5, 10), (10, 10), (25, 50)])
    if n is None:
        n = rng.randint(3, 8)
    if stacks is None:
        low = ante + button_blind
        stacks = [rng.choice([rng.randint(low, 20 * low), rng.randint(20 * low, 150 * low)])
                  for _ in range(n)]
    warnings.simplefilter("ignore")
    cards = list(deck) if deck else rng.sample(SHORT_DECK, 36)
    state = NoLimitShortDeckHoldem.create_state(AUTOMATIONS, True, ante, {-1: button_blind},
                                                button_blind, stacks, n, mode=Mode.CASH_GAME)
    game = {"variant": "holdem_short", "structure": "no_limit", "big_blind": button_blind,
            "ante": ante, "button_seat": n, "seat_count": 9, "currency": "CHIPS",
            "minor_per_unit": 1}
    rows: list[dict[str, Any]] = [{"kind": "hand_started", "game": game, "table_id": "pk"}]
    for i in range(n):
        rows.append({"kind": "seat", "seat": i + 1, "player": f"p{i + 1}", "amount": stacks[i]})
    behind = list(stacks)
    for i in range(n):
        paid = min(ante, stacks[i])
        rows.append({"kind": "post", "seat": i + 1, "player": f"p{i + 1}", "detail": "ante",
                     "amount": paid})
        behind[i] -= paid
    rnd = [0] * n
    posted = state.bets[n - 1]
    rows.append({"kind": "post", "seat": n, "player": f"p{n}", "detail": "button_blind",
                 "amount": posted, "total": posted})
    behind[n - 1] -= posted
    rnd[n - 1] = posted
    holes: list[list[str]] = [[] for _ in range(n)]
    board: list[str] = []
    pos = 0
    folded = [False] * n
    g = {"bets": 1, "full": button_blind, "short": False, "size": button_blind,
         "restrict": script is None, "limit": False}
    steps = 0
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
            g.update(bets=0, short=False, full=button_blind, size=button_blind)
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
            if inc >= g["full"]:
                g["bets"] += 1
                g["short"] = False
                g["full"] = max(inc, button_blind)
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
    for i in range(n):
        got = state.stacks[i] - behind[i]
        if got:
            rows.append({"kind": "award", "seat": i + 1, "player": f"p{i + 1}", "amount": got,
                         "detail": "main"})
    rows.append({"kind": "hand_ended"})
    for seq, r in enumerate(rows):
        r["hand_id"] = hand_id
        r["seq"] = seq
    return rows, state
