"""Draw-game rules checked outside the betting (RULEBOOK §4.12): openers at jacks or better
(JACKS-OPENERS), at most four cards at once on the draw (DRAW-MAX-FOUR), the order of the
draw requests (ORDER-DRAW-PHASE), a lowball hand short before the draw
(DRAW-SHORT-PREDRAW), and the ace-to-five sevens rule at the showdown (A5-SEVENS-RULE).

Called by the draw hooks (audit/replay/family/hooks.py), whose per-hand state they read and update.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from audit.poker.cards import JOKER
from audit.poker.jokers import has_openers, seven_or_better
from audit.replay.showdown import PotResult
from audit.replay.state import HandState
from audit.rules.ids import (
    A5_SEVENS_RULE,
    DRAW_MAX_FOUR,
    DRAW_SHORT_PREDRAW,
    JACKS_OPENERS,
    ORDER_DRAW_PHASE,
)

if TYPE_CHECKING:
    from audit.replay.family.hooks import FamilyHooks


def check_openers(h: HandState, s: int, seq: int) -> bool:
    """JACKS-OPENERS: the opener holds a pair of jacks or better (the joker as an ace),
    judged when his five cards before the draw are known. True when he opened without them
    (a false opener, whose hand is dead: audit/replay/family/jacks.py)."""
    cards = h.hole[s]
    if len(cards) != 5 or any(c < 0 for c in cards) or cards.count(JOKER) > 1:
        return False
    if has_openers(list(cards)):
        return False
    h.flag(JACKS_OPENERS, seq, f"{h.who(s)} opened without openers: his five cards before "
           "the draw hold no pair of jacks or better, which jacks-or-better requires to "
           "open.", seat=s, expected="a pair of jacks or better", actual="no openers")
    return True


def check_draw_deal(vh: FamilyHooks, h: HandState, s: int, n: int, seq: int) -> None:
    """DRAW-MAX-FOUR: at most four cards at once; a fifth only after everyone drew. A house
    that deals a whole draw at once (`draw.max_at_once` 5: an online room) departs from it."""
    if int(h.st.values.get("draw.max_at_once", 4)) >= 5:
        return
    if n > 4:
        h.flag(DRAW_MAX_FOUR, seq, f"{h.who(s)} was dealt {n} draw cards at once; at most "
               "four consecutive cards go to one player, and the fifth comes after everyone "
               "else has drawn.", seat=s, expected=4, actual=n)
    elif vh.got.get(s) and vh.got[s] + n > 4:  # beyond four cards in a row to him
        waiting = [x for x in h.seats if x != s and h.in_hand[x] and not h.folded[x]
                   and (x not in vh.drawn or vh.drawn[x] > 0)]
        if waiting:
            h.flag(DRAW_MAX_FOUR, seq, f"{h.who(s)} was dealt more draw cards before "
                   f"{h.who(waiting[0])} had drawn; a player drawing five gets four, and "
                   "the fifth only after everyone else has drawn.", seat=s,
                   expected="after the other draws", actual="before")
    vh.got[s] = vh.got.get(s, 0) + n


def check_draw_order(vh: FamilyHooks, h: HandState, s: int, seq: int) -> None:
    """ORDER-DRAW-PHASE: draw requests are served clockwise from the first active player left
    of the button. Proven by two logged draws: a player drawing after someone who sits after
    him. Once per draw; not judged when the button is not logged. A spoken draw ("pat",
    "two") serves the player as his request does."""
    if not h.button or s not in h.order or s in vh.draw_served:
        return
    vh.draw_served.add(s)  # a player who stated his draw was served: a change is not order
    i = h.order.index(s)
    last = vh.draw_pos
    vh.draw_pos = max(i, last)
    if i < last and not vh.draw_order_flagged:
        vh.draw_order_flagged = True
        ahead = h.order[last]
        h.flag(ORDER_DRAW_PHASE, seq, f"{h.who(s)} drew after {h.who(ahead)}, who sits "
               "after him; the draw is served to each player in order, clockwise from the "
               "first active player left of the button.", seat=s,
               expected=f"before {h.who(ahead)}", actual=f"after {h.who(ahead)}")


def check_short_predraw(vh: FamilyHooks, h: HandState, s: int, before: int, seq: int) -> None:
    """DRAW-SHORT-PREDRAW (lowball): a hand short of cards before the draw is completed only if
    the first player to act has not acted, unless that action came before the deal was
    complete; the dealer's seat may still get its missing last card. Otherwise the player
    draws up to a full hand, so a card dealt to complete it is flagged."""
    if vh.first_action_seq is None or vh.acted_before_deal or s == h.button:
        return
    if not 0 < before < vh.spec.max_cards:
        return
    h.flag(DRAW_SHORT_PREDRAW, seq, f"{h.who(s)} was dealt a missing card before the draw "
           f"after the betting had begun (event {vh.first_action_seq}); a hand short before "
           "the draw is completed only before the first player acts, otherwise he draws up "
           f"to {vh.spec.max_cards}.", seat=s, expected="draws the missing card",
           actual="dealt it before the draw")


def sevens_rule(vh: FamilyHooks, h: HandState, results: list[PotResult],
                shares: list[int]) -> None:
    """A5-SEVENS-RULE: a seven-low or better checked after the draw that is the best hand
    wins only the pot as it stood before the draw; the post-draw bets go back."""
    pre = vh.pre_draw
    if pre is None or len(results) != 1 or not results[0].verified:
        return
    pot = results[0]
    total = sum(h.contrib)
    if len(pot.high) != 1:
        return
    s = pot.high[0]
    seq = vh.sevens_checks.get(s)
    cards = vh.hand_cards(h, s)
    if seq is None or cards is None or not seven_or_better(cards):
        return
    before = sum(pre)
    if total <= before or pot.amount != total:
        return  # no bet after the draw (or an uncalled one): the rule changes nothing
    h.flag(A5_SEVENS_RULE, seq, f"{h.who(s)} checked a seven-low or better after the "
           f"draw and holds the best hand: under the sevens rule he wins only the "
           f"{h.money(before)} that was in the pot before the draw, and every post-draw "
           "bet goes back to the player who made it.", seat=s,
           expected=before, actual=pot.amount, delta=pot.amount - before)
    shares[s] += before - pot.amount
    for x in h.seats:
        shares[x] += h.contrib[x] - pre[x]
