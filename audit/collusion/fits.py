"""Robust actor × opponent fits of directed counts (issue 25).

A directed test counts, for each pair and each direction, the chances `n` one player had
against the other and what he did with them `k` (bets on a street only the two were left on,
folds of strong hands to the other's bets, ...). How often a player does it depends on whom he
faces, so each pair is judged against k ~ n · f(actor) · g(opponent), fitted over all pairs
(a Poisson log-linear model by iterative proportional fitting, f shrunk toward the
population's rate and g toward 1 by `ALPHA` pseudo-observations), not against each player's
rate against everyone else: regulars who never leave the table of a team or of a passive
player are measured against the very opponents they met.

Robust: the pairs far off the fit (either binomial tail of the pair's counts, both ways,
below FAR_P) leave it and it is fitted again, until the pairs left out are those far off the
fit without them (at most FITS fits). A team the partner test does not flag would otherwise
bend its own players' factors, and their pots with everyone else at their table would read
as collusion. No truth label: the far pairs are found by the fit itself.

A pair's own baseline is the fit without its own counts (`lpo_rate`) where it was in the fit,
the fit itself where it was far off (it had left it). The columns a fit gives per player
(`fit`) carry what `lpo_rate` takes the pair out of: `{prefix}_kx` his counts as actor,
`_ky` those against him, `_dx` his chances weighted by his opponents' `_g`, `_dy` the chances
against him weighted by the actors' `_f`; `_r` the population's rate, `_f0`/`_g0` the factors
of the fit the far pairs were judged against (`far_off`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from audit.collusion.stats import binom_cdf, binom_sf

ALPHA = 20.0  # pseudo-observations of the population's rate in each factor (as leads.ALPHA)
# A pair this far off the fit (either binomial tail) leaves it: over a long history a team is
# hundreds of counts off, while honest pairs against a fit without the teams read p 1e-3 at
# the least on issue 25's populations (200,000 and 500,000 hands; helper B2's measure)
FAR_P = 1e-6
FITS = 5  # the most fits before the pairs left out by the last but one are kept
SLICE = 4096  # pairs judged far or not at a time (their tails are some twenty arrays a pair)
COLUMNS = ("f", "g", "dx", "dy", "kx", "ky", "r", "f0", "g0")


def ipf(x: Any, y: Any, n: Any, k: Any, players: int, prior: float,
        rounds: int = 30) -> tuple[Any, Any, Any, Any]:
    """Fit k ~ n · f(x) · g(y) over directed rows (x, y) by iterative proportional fitting, f
    shrunk toward `prior` and g toward 1 by ALPHA pseudo-observations. Returns (f, g, dx, dy):
    the factors and their denominators (Σ n · g(y) over each player's rows as x, Σ n · f(x)
    over his rows as y)."""
    kx, ky = np.bincount(x, k, players), np.bincount(y, k, players)
    f, g = np.full(players, prior), np.ones(players)
    for _ in range(rounds):
        f = (kx + ALPHA * prior) / (np.bincount(x, n * g[y], players) + ALPHA)
        g = (ky + ALPHA) / (np.bincount(y, n * f[x], players) + ALPHA)
    return f, g, np.bincount(x, n * g[y], players), np.bincount(y, n * f[x], players)


def far_off(n_ab: Any, n_ba: Any, k_ab: Any, k_ba: Any, rate_ab: Any, rate_ba: Any) -> Any:
    """Per pair, whether its counts both ways (`k_ab` of `n_ab` A's against B, `k_ba` of
    `n_ba` B's against A) are far off the rates `rate_ab`, `rate_ba` (either binomial tail of
    the sums below FAR_P)."""
    n_ab, n_ba = np.asarray(n_ab, float), np.asarray(n_ba, float)
    n = n_ab + n_ba
    k = np.asarray(k_ab, float) + np.asarray(k_ba, float)
    e = n_ab * np.asarray(rate_ab, float) + n_ba * np.asarray(rate_ba, float)
    p0 = np.clip(np.divide(e, n, out=np.zeros_like(e), where=n > 0), 1e-6, 1 - 1e-6)
    # the exact tails only beyond 3 standard deviations (within them no binomial tail is below
    # 1e-4: the lightest, none where 9 were expected at a tiny rate, is e^-9)
    z = np.abs(k - n * p0) / np.sqrt(np.maximum(n * p0 * (1 - p0), 1e-300))
    at = np.flatnonzero((n > 0) & (z > 3))
    far = np.zeros(n.shape, bool)
    k, n, p0 = k[at], n[at], p0[at]
    far[at] = np.minimum(binom_cdf(k, n, p0), binom_sf(k, n, p0)) < FAR_P
    return far


def _far(x: Any, y: Any, n: Any, k: Any, f: Any, g: Any) -> Any:
    h = len(x) // 2
    far = np.zeros(h, bool)
    for i in range(0, h, SLICE):
        s, t = slice(i, min(i + SLICE, h)), slice(h + i, h + min(i + SLICE, h))
        a, b = x[s], y[s]
        far[s] = far_off(n[s], n[t], k[s], k[t], f[a] * g[b], f[b] * g[a])
    return far


def fit(x: Any, y: Any, n: Any, k: Any, players: int, prefix: str) -> dict[str, Any]:
    """The robust actor × opponent fit (module doc) of directed rows: both directions of each
    pair, A's rows then B's (`x` the actor, `y` the opponent, as player indexes; `n` chances,
    `k` counts, floats; changed during the fit, restored at the end). Per player the columns
    `{prefix}_{COLUMNS}`."""
    h = len(x) // 2
    far = np.zeros(h, bool)
    f0 = g0 = np.ones(players)  # the fit `far` was judged against (none yet: none far)
    for i in range(FITS):
        # the far pairs' rows set to no chances in place, their counts kept aside: copies of
        # both arrays per fit were more than the fits themselves held
        out = np.flatnonzero(np.concatenate([far, far]))
        held = n[out], k[out]
        n[out], k[out] = 0.0, 0.0
        r = float(k.sum() / n.sum()) if n.sum() > 0 else 0.0
        f, g, dx, dy = ipf(x, y, n, k, players, r)
        kx, ky = np.bincount(x, k, players), np.bincount(y, k, players)
        n[out], k[out] = held
        if i == FITS - 1:
            break
        now = _far(x, y, n, k, f, g)
        f0, g0 = f, g
        if np.array_equal(now, far):
            break
        far = now
    return {f"{prefix}_{c}": v for c, v in zip(
        COLUMNS, (f, g, dx, dy, kx, ky, np.full(players, r), f0, g0), strict=True)}


def lpo_rate(x: Mapping[str, Any], y: Mapping[str, Any], prefix: str, n: Any, k: Any,
             fitted: Any) -> tuple[Any, Any]:
    """The rate at which the actor (factors `x`, his `{prefix}_*` columns as arrays per pair)
    does it against the opponent (`y`) in his `n` chances (of which `k`): the actor's factor
    times the opponent's, each without these chances where the pair was in the fit
    (`fitted`; a pair far off it has nothing of its own to take out). And the rate's relative
    variance: each factor a count over an exposure, known as well as its count (pseudo-counts
    included) says."""
    w = np.asarray(fitted, float)
    c = f"{prefix}_"
    kf = np.maximum(x[c + "kx"] - w * k, 0) + ALPHA * x[c + "r"]
    ko = np.maximum(y[c + "ky"] - w * k, 0) + ALPHA
    f = kf / np.maximum(x[c + "dx"] - w * n * y[c + "g"] + ALPHA, 1e-9)
    o = ko / np.maximum(y[c + "dy"] - w * n * x[c + "f"] + ALPHA, 1e-9)
    return np.clip(f * o, 1e-6, 1 - 1e-6), 1 / np.maximum(kf, 1e-9) + 1 / np.maximum(ko, 1e-9)


def in_fit(x: Mapping[str, Any], y: Mapping[str, Any], prefix: str, n_ab: Any, n_ba: Any, k_ab: Any,
           k_ba: Any) -> Any:
    """Per pair (A with columns `x`, B with `y`), whether it was in the fit: not far off the
    fit the far pairs were judged against (`{prefix}_f0`, `_g0`)."""
    c = f"{prefix}_"
    return ~far_off(n_ab, n_ba, k_ab, k_ba, x[c + "f0"] * y[c + "g0"],
                    y[c + "f0"] * x[c + "g0"])

