"""The compiled simulator's tables between hands (numba): the splitmix64 random stream,
the per-table state columns, and table.maintain for a cash table (players arriving, leaving,
sitting out, coming back on the big blind, rebuying; the button moving on)."""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_SEATS = 11  # seats 1..10
POOL_PER_TABLE = 12  # each table draws its players from its own pool (never at two tables)
# per-table state columns
T_N, T_SB, T_BB, T_RAKED, T_BUYIN, T_BUTTON, T_CLOCK, T_HANDS = range(8)
N_T = 8

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@njit(cache=True, nogil=True)
def _next(rng):
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True)
def uniform(rng):
    """Uniform in [0, 1)."""
    return np.float64(_next(rng) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def randrange(rng, n):
    return np.int64(_next(rng) % np.uint64(n))


# --------------------------------------------------------------------------- table upkeep
@njit(cache=True, nogil=True)
def _big_blind_seat(active, n, button):
    """table._big_blind_seat: who posts the big blind once the button moves on."""
    new_button = 0
    for s in range(button + 1, n + 1):
        if active[s]:
            new_button = s
            break
    if new_button == 0:
        for s in range(1, n + 1):
            if active[s]:
                new_button = s
                break
    count = 0
    first = 0
    second = 0
    for k in range(1, n + 1):
        s = (new_button + k - 1) % n + 1  # clockwise from the seat after the new button
        if active[s]:
            count += 1
            if count == 1:
                first = s
            elif count == 2:
                second = s
    if count == 2:
        return first
    return second


@njit(cache=True, nogil=True)
def _new_player(t, pool_seated, rng):
    base = t * POOL_PER_TABLE
    for _ in range(20):
        p = base + randrange(rng, POOL_PER_TABLE)
        if pool_seated[p] == 0:
            pool_seated[p] = 1
            return p
    for k in range(POOL_PER_TABLE):  # unreachable with 10 seats, kept as the safe fallback
        if pool_seated[base + k] == 0:
            pool_seated[base + k] = 1
            return base + k
    return -1


@njit(cache=True, nogil=True)
def _fill(t, T, players, stacks, out, active, pool_seated, rng, free):
    """table._fill: seat players until two can play: newcomers first, else a sitter-out."""
    n = T[t, T_N]
    while True:
        count = 0
        for s in range(1, n + 1):
            count += active[s]
        if count >= 2:
            return
        nfree = 0
        for s in range(1, n + 1):
            if players[t, s] < 0:
                free[nfree] = s
                nfree += 1
        if nfree:
            s = free[randrange(rng, nfree)]
            players[t, s] = _new_player(t, pool_seated, rng)
            stacks[t, s] = max(T[t, T_BUYIN], 25 * T[t, T_BB])
        else:
            s = 0
            for x in range(1, n + 1):
                if out[t, x]:
                    s = x
                    break
        out[t, s] = 0
        active[s] = 1


@njit(cache=True, nogil=True)
def maintain(t, T, players, stacks, out, pool_seated, rng, active, was_out, free):
    """table.maintain for a cash table: leave, arrive, sit out, come back, rebuy; move the
    button to the next dealt-in seat."""
    n = T[t, T_N]
    bb = T[t, T_BB]
    minimum = 3 * bb
    for s in range(MAX_SEATS):
        was_out[s] = out[t, s]
        active[s] = 0
    for s in range(1, n + 1):
        p = players[t, s]
        if p < 0:
            if uniform(rng) < 0.08:
                players[t, s] = _new_player(t, pool_seated, rng)
                stacks[t, s] = max(T[t, T_BUYIN] * (60 + randrange(rng, 41)) // 100, 25 * bb)
                out[t, s] = 0
            continue
        if uniform(rng) < 0.012:
            players[t, s] = -1
            pool_seated[p] = 0
            continue
        if stacks[t, s] < minimum:
            if uniform(rng) < 0.3:
                players[t, s] = -1  # busted and gone
                pool_seated[p] = 0
                continue
            stacks[t, s] = max(T[t, T_BUYIN], 25 * bb)  # rebuy
        if out[t, s]:
            out[t, s] = 1 if uniform(rng) < 0.6 else 0
        else:
            out[t, s] = 1 if uniform(rng) < 0.01 else 0
    for s in range(1, n + 1):
        active[s] = 1 if players[t, s] >= 0 and out[t, s] == 0 else 0
    for _ in range(4):  # returners wait for the big blind; a table short of two gets players
        _wait_for_the_big_blind(t, T, out, active, was_out)
        count = 0
        for s in range(1, n + 1):
            count += active[s]
        if count >= 2:
            break
        _fill(t, T, players, stacks, out, active, pool_seated, rng, free)
    _fill(t, T, players, stacks, out, active, pool_seated, rng, free)
    button = T[t, T_BUTTON]
    nb = 0
    for s in range(button + 1, n + 1):
        if active[s]:
            nb = s
            break
    if nb == 0:
        for s in range(1, n + 1):
            if active[s]:
                nb = s
                break
    T[t, T_BUTTON] = nb
    T[t, T_HANDS] += 1


@njit(cache=True, nogil=True)
def _wait_for_the_big_blind(t, T, out, active, was_out):
    n = T[t, T_N]
    for _ in range(4):
        waiting = 0
        count = 0
        for s in range(1, n + 1):
            count += active[s]
            if active[s] and was_out[s]:
                waiting += 1
        if waiting == 0 or count < 2:
            return
        bb = _big_blind_seat(active, n, T[t, T_BUTTON])
        late = 0
        for s in range(1, n + 1):
            if active[s] and was_out[s] and s != bb:
                out[t, s] = 1
                active[s] = 0
                late += 1
        if late == 0:
            return


