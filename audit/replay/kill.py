"""Kill pots (RULEBOOK §4.13): a kill blind is a live overblind that raises the betting limits
for the hand. A full kill is twice the big blind and doubles the limits; a half kill is one and a
half big blinds and raises them by half (`kill.full_percent`, `kill.half_percent`). Only one
kill is allowed per deal.

Called for a `post` with detail `kill`; the chips go in through forced.post like any live
blind (the killer acts in his proper turn, ORDER-KILL, so the action anchor stays on the big
blind). `kill_voluntary` is lowball's optional voluntary kill (KILL-VOLUNTARY-LOWBALL): the
killer needs four kill blinds in his stack and acts last on the first round. Which hands must
be killed (two pots in a row, a big scoop) is table state across hands and is not decided here.
"""

from __future__ import annotations

from audit.replay.forced import post
from audit.replay.state import FL, HandState
from audit.rules.ids import (
    DQ_INCONSISTENT_LOG,
    KILL_ONE_PER_DEAL,
    KILL_SIZE,
    KILL_VOLUNTARY_LOWBALL,
)


def post_kill(h: HandState, s: int | None, amount: int | None, seq: int,
              killed: bool) -> None:
    """A kill blind: check its size and that it is the only one (`killed`: a kill was already
    posted this deal), post it, raise the limits."""
    stack = h.stack[s] if s is not None and 0 < s < h.size else 0
    add = amount or 0
    post(h, "kill", s, amount, seq)
    if s is None or not 0 < s < h.size or not h.in_hand[s]:
        return
    bb = h.bb
    if bb <= 0:
        h.flag(DQ_INCONSISTENT_LOG, seq, f"{h.who(s)} posted a kill, but the game has no big "
               "blind to size it from; the limits are left as logged.", seat=s)
        return
    if killed:
        h.flag(KILL_ONE_PER_DEAL, seq, f"{h.who(s)} posted a second kill blind in the same "
               "deal; only one kill is allowed per deal.", seat=s, expected=1, actual=2)
        return
    values = h.st.values
    full = int(values.get("kill.full_percent", 200))
    half = int(values.get("kill.half_percent", 150))
    percent = 0
    for p in (full, half):
        if add * 100 == bb * p:
            percent = p
    if not percent:
        short_allin = add >= stack and add * 100 < bb * half
        if not short_allin:
            h.flag(KILL_SIZE, seq, f"{h.who(s)} posted a kill of {h.money(add)}; a full kill "
                   f"is {h.money(bb * full // 100)} ({full}% of the big blind) and a half kill "
                   f"{h.money(bb * half // 100)} ({half}%).", seat=s,
                   expected=bb * full // 100, actual=add, delta=add - bb * full // 100)
        # the table played the limits this kill set: scale them by the kill as posted (a short
        # all-in kill still stands for a full one)
        percent = full if short_allin else add * 100 // bb
    h.small_bet = h.small_bet * percent // 100
    h.big_bet = h.big_bet * percent // 100
    if h.structure == FL:
        h.last_raise = max(h.last_raise, bb * percent // 100)
    else:  # big-bet: the kill is the new minimum bring-in for the hand
        h.min_bet = max(h.min_bet, bb * percent // 100)
        h.last_raise = max(h.last_raise, h.min_bet)


def voluntary_kill(h: HandState, s: int, amount: int, stack: int, seq: int, *,
                   lowball: bool) -> None:
    """A voluntary kill: lowball only, at least four times the kill in the stack before
    posting; the killer then acts last on the first round."""
    if not lowball:
        h.flag(KILL_VOLUNTARY_LOWBALL, seq, f"{h.who(s)} killed the pot voluntarily; the "
               "optional voluntary kill is a lowball rule.", seat=s, expected="lowball",
               actual=h.variant)
    elif stack < 4 * amount:
        h.flag(KILL_VOLUNTARY_LOWBALL, seq, f"{h.who(s)} killed the pot voluntarily for "
               f"{h.money(amount)} with {h.money(stack)} in front of him; a voluntary killer "
               f"needs at least four times the kill, {h.money(4 * amount)}.", seat=s,
               expected=4 * amount, actual=stack, delta=stack - 4 * amount)
    h.anchor = s  # he acts last on the first round, like a straddle
    h.to_act = h.next_to_act(s)
