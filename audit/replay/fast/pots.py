"""A pot split among its winners in the compiled replay (audit/replay/pots.py split):
clockwise from the button, or by card for stud's odd chips (POT-ODDCHIP-STUD)."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import S_EXPECTED


@njit(cache=True)
def _split(amount, winners, n_win, order, n_order, S):
    """pots.split: equal shares clockwise from the button, one odd chip each to the first
    winners; False when a winner is not in the seating order."""
    q_share = amount // n_win
    r_odd = amount - q_share * n_win
    given = 0
    for ix in range(n_order):
        s = order[ix]
        for w in range(n_win):
            if winners[w] == s:
                S[S_EXPECTED, s] += q_share + (1 if given < r_odd else 0)
                given += 1
                break
    return given == n_win


@njit(cache=True)
def _oddchip_sort(winners, n, S, row):
    """audit/poker/stud.py oddchip_order: the winners by their S[row] key, smallest first."""
    for a in range(1, n):
        w = winners[a]
        b = a - 1
        while b >= 0 and S[row, winners[b]] > S[row, w]:
            winners[b + 1] = winners[b]
            b -= 1
        winners[b + 1] = w


@njit(cache=True)
def _split_listed(amount, winners, n, S):
    """pots.split: equal shares, one odd chip each to the first winners as listed."""
    q = amount // n
    r = amount - q * n
    for i in range(n):
        S[S_EXPECTED, winners[i]] += q + (1 if i < r else 0)
