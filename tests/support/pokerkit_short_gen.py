"""Random legal short-deck hold'em hands driven through PokerKit's NoLimitShortDeckHoldem (a TEST
dependency only), converted to our events as variant `holdem_short` (PokerKit's ranking).

As tests/support/pokerkit_gen.py does for NLHE, with the short-deck forced bets: every player antes
and the button (the last player) posts the button blind; PokerKit's final stacks are the awards.
Only 3+ players: heads-up PokerKit swaps the blinds of the two players (its SB/BB convention),
which puts the button blind on the player who is not on the button (see test_shortdeck.py).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from pokerkit import Mode, NoLimitShortDeckHoldem

from tests.support.pokerkit_gen import AUTOMATIONS, play_out, seats_and_antes

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
    rows, behind = seats_and_antes(game, stacks, ante)
    rnd = [0] * n
    posted = state.bets[n - 1]
    rows.append({"kind": "post", "seat": n, "player": f"p{n}", "detail": "button_blind",
                 "amount": posted, "total": posted})
    behind[n - 1] -= posted
    rnd[n - 1] = posted
    play_out(rng, state, cards, rows, behind, rnd, bb=button_blind, limit=False,
             script=script, hand_id=hand_id)
    return rows, state
