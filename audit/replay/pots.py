"""Pot building from contributions: uncalled excess returned, main pot and side pots, dead money."""

from __future__ import annotations


def build_pots(contrib: list[int], folded: list[bool], seats: list[int],
               dead: list[int] | None = None) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """Split the contributions into (refunds per seat, [(pot amount, eligible seats)...]).

    The highest contribution above everyone else's is uncalled and goes back to its owner.
    Each distinct contribution level of a player still in the hand closes a pot that only
    players who put in at least that much can win; chips from folded players above the top
    level (dead money) stay in the last pot. Antes and dead blinds are never uncalled and go
    to the main pot, except that a player all-in on them alone (a short ante) wins from each
    player only as much as he put in: that layer is then the main pot. Pots are listed main
    pot first.
    """
    refunds = [0] * len(contrib)
    top = 0
    second = 0
    top_seat = 0
    for s in seats:
        c = contrib[s] - (dead[s] if dead else 0)  # antes and dead blinds are never uncalled
        if c > top:
            second = top
            top = c
            top_seat = s
        elif c > second:
            second = c
    d = dead if dead else [0] * len(contrib)
    # live contributions decide the pot levels; antes and dead blinds go to the main pot
    c = [contrib[i] - d[i] for i in range(len(contrib))]
    if top_seat and top > second:
        refunds[top_seat] = top - second
        c[top_seat] -= top - second
    # A player all-in on dead money alone (an ante he could not cover beyond) can win, from
    # each player, only as much of the dead money as he put in himself: those layers come
    # first, as the main pot (POT-SIDEPOT-BUILD); the rest of the dead money joins the pot
    # built from the live bets.
    pots: list[tuple[int, list[int]]] = []
    shorts = sorted({d[s] for s in seats if not folded[s] and c[s] <= 0 and d[s] > 0})
    if shorts:
        prev = 0
        for level in shorts:
            amount = 0
            for s in seats:
                if d[s] > prev:
                    amount += (d[s] if d[s] < level else level) - prev
            eligible = [s for s in seats if not folded[s] and (d[s] >= level or c[s] > 0)]
            pots.append((amount, eligible))
            prev = level
        d = [x - prev if x > prev else 0 for x in d]
    n_dead = len(pots)
    levels = sorted({c[s] for s in seats if not folded[s] and c[s] > 0})
    prev = 0
    for level in levels:
        amount = 0
        for s in seats:
            x = c[s]
            if x > prev:
                amount += (x if x < level else level) - prev
        eligible = [s for s in seats if not folded[s] and c[s] >= level]
        if amount:
            pots.append((amount, eligible))
        prev = level
    dead_total = sum(d[s] for s in seats)
    rest = 0
    for s in seats:
        if c[s] > prev:
            rest += c[s] - prev
    alive = [s for s in seats if not folded[s]]
    if len(pots) == n_dead and (rest or dead_total):
        pots.append((0, pots[-1][1] if n_dead else alive))
    if rest:  # folded chips above the top live level stay in the last pot
        amount, eligible = pots[-1]
        pots[-1] = (amount + rest, eligible)
    if dead_total:  # the rest of the antes and dead blinds belong to the main live pot
        amount, eligible = pots[n_dead]
        pots[n_dead] = (amount + dead_total, eligible)
    return refunds, pots


def split(amount: int, winners: list[int], shares: list[int]) -> None:
    """Divide `amount` among `winners` (already in clockwise order from the button): equal
    shares, one odd chip each to the first winners."""
    n = len(winners)
    q, r = divmod(amount, n)
    for i, s in enumerate(winners):
        shares[s] += q + (1 if i < r else 0)
