"""Vectorised tail probabilities and false-discovery control for the collusion null models.

numpy only (no scipy): binomial tails through the regularised incomplete beta function, Poisson
tails through the regularised incomplete gamma function, the Hoeffding bound for sign-flip
(randomisation) sums, and Benjamini–Hochberg q-values. Every function takes and returns arrays,
one element per pair, so a store with many pairs costs a few vector operations.

>>> round(float(binom_sf(np.array([3]), np.array([10]), np.array([0.1]))[0]), 4)
0.0702
>>> round(float(binom_cdf(np.array([0]), np.array([10]), np.array([0.1]))[0]), 4)
0.3487
>>> round(float(poisson_sf(np.array([4]), np.array([1.0]))[0]), 4)
0.019
>>> round(float(normal_cdf(np.array([-1.96]))[0]), 4)
0.025
>>> z = np.array([-2.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 30.0])
>>> round(float(empirical_null(z, np.ones(11, bool))[-1]), 3)  # MAD 1: spread 1.4826
20.235
>>> [round(float(q), 3) for q in bh_qvalues(np.array([0.01, 0.04, 0.03, 0.5]))]
[0.04, 0.053, 0.053, 0.5]
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]

_LANCZOS = (
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
)
_EPS = 1e-15
_TINY = 1e-300


def lgamma(x: Array) -> Array:
    """log Γ(x) for x > 0 (Lanczos, g=7; about 15 significant digits)."""
    x = np.asarray(x, dtype=np.float64)
    small = x < 0.5
    z = np.where(small, 1.0 - x, x) - 1.0
    a = np.full_like(z, _LANCZOS[0])
    for i, c in enumerate(_LANCZOS[1:], start=1):
        a = a + c / (z + i)
    t = z + 7.5
    big = 0.5 * np.log(2 * np.pi) + (z + 0.5) * np.log(t) - t + np.log(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        refl = np.log(np.pi / np.abs(np.sin(np.pi * x))) - big
    return np.where(small, refl, big)


def _betacf(a: Array, b: Array, x: Array) -> Array:
    """Continued fraction of the incomplete beta function (Numerical Recipes, modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = np.where(np.abs(d) < _TINY, _TINY, d)
    d = 1.0 / d
    h = d.copy()
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        h = h * d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1.0) < 3e-14):
            break
    return h


def betainc(a: Array, b: Array, x: Array) -> Array:
    """Regularised incomplete beta I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    a, b, x = (np.asarray(v, dtype=np.float64) for v in (a, b, x))
    a, b, x = np.broadcast_arrays(a, b, x)
    xc = np.clip(x, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lbt = (lgamma(a + b) - lgamma(a) - lgamma(b)
               + a * np.log(np.maximum(xc, _TINY)) + b * np.log(np.maximum(1.0 - xc, _TINY)))
    front = np.exp(lbt)
    direct = xc < (a + 1.0) / (a + b + 2.0)
    # evaluate the continued fraction where it converges fast, by symmetry elsewhere
    aa = np.where(direct, a, b)
    bb = np.where(direct, b, a)
    xx = np.where(direct, xc, 1.0 - xc)
    cf = _betacf(aa, bb, xx)
    val = front * cf / aa
    out = np.where(direct, val, 1.0 - val)
    out = np.where(xc <= 0.0, 0.0, out)
    out = np.where(xc >= 1.0, 1.0, out)
    return np.clip(out, 0.0, 1.0)


def binom_sf(k: Array, n: Array, p: Array) -> Array:
    """P(X >= k) for X ~ Binomial(n, p); 1 where k <= 0, 0 where k > n."""
    k, n, p = (np.asarray(v, dtype=np.float64) for v in (k, n, p))
    k, n, p = np.broadcast_arrays(k, n, p)
    kk = np.clip(k, 1.0, np.maximum(n, 1.0))
    val = betainc(kk, np.maximum(n - kk + 1.0, _EPS), np.clip(p, 0.0, 1.0))
    return np.where(k <= 0, 1.0, np.where(k > n, 0.0, val))


def binom_cdf(k: Array, n: Array, p: Array) -> Array:
    """P(X <= k) for X ~ Binomial(n, p); 1 where k >= n, 0 where k < 0."""
    k, n, p = (np.asarray(v, dtype=np.float64) for v in (k, n, p))
    return 1.0 - binom_sf(k + 1.0, n, p)


def _gammp_series(a: Array, x: Array) -> Array:
    ap = a.copy()
    total = 1.0 / a
    delta = total.copy()
    for _ in range(500):
        ap = ap + 1.0
        delta = delta * x / ap
        total = total + delta
        if np.all(np.abs(delta) < np.abs(total) * 3e-15):
            break
    return total * np.exp(-x + a * np.log(np.maximum(x, _TINY)) - lgamma(a))


def _gammq_cf(a: Array, x: Array) -> Array:
    b = x + 1.0 - a
    c = np.full_like(x, 1.0 / _TINY)
    d = 1.0 / np.where(np.abs(b) < _TINY, _TINY, b)
    h = d.copy()
    for i in range(1, 500):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        c = b + an / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1.0) < 3e-15):
            break
    return np.exp(-x + a * np.log(np.maximum(x, _TINY)) - lgamma(a)) * h


def poisson_sf(k: Array, lam: Array) -> Array:
    """P(X >= k) for X ~ Poisson(lam) (= regularised lower incomplete gamma P(k, lam))."""
    k, lam = (np.asarray(v, dtype=np.float64) for v in (k, lam))
    k, lam = np.broadcast_arrays(k, lam)
    a = np.maximum(k, 1.0)
    x = np.maximum(lam, _TINY)
    series = x < a + 1.0
    p_series = _gammp_series(a, np.where(series, x, 0.0))
    q_cf = _gammq_cf(a, np.where(series, a + 2.0, x))
    out = np.where(series, p_series, 1.0 - q_cf)
    return np.clip(np.where(k <= 0, 1.0, out), 0.0, 1.0)


def signflip_p(z: Array) -> Array:
    """Two-sided p-value bound for a randomisation (sign-flip) sum S = Σ ε_i d_i standardised as
    z = S / sqrt(Σ d_i²): by Hoeffding, P(|S| >= |s|) <= 2 exp(-z²/2) whatever the d_i."""
    z = np.asarray(z, dtype=np.float64)
    return np.minimum(1.0, 2.0 * np.exp(-0.5 * z * z))


def bh_qvalues(p: Array) -> Array:
    """Benjamini–Hochberg adjusted p-values (q-values); NaN stays NaN and is not counted."""
    p = np.asarray(p, dtype=np.float64)
    q = np.full_like(p, np.nan)
    ok = ~np.isnan(p)
    m = int(ok.sum())
    if m == 0:
        return q
    pv = p[ok]
    order = np.argsort(pv, kind="stable")
    ranked = pv[order] * m / np.arange(1, m + 1)
    ranked = np.minimum.accumulate(ranked[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(ranked, 1.0)
    q[ok] = out
    return q


def weighted_bh_qvalues(p: Array, w: Array) -> Array:
    """Weighted Benjamini–Hochberg q-values (Genovese, Roeder & Wasserman 2006): the q-values of
    p / w, the weights w > 0 scaled to average 1 over the tested (non-NaN) p. With weights fixed
    before the p-values are seen, the false-discovery rate holds at the level, and the error
    budget goes where the weights put it."""
    p, w = np.asarray(p, dtype=np.float64), np.asarray(w, dtype=np.float64)
    ok = ~np.isnan(p)
    if not ok.any():
        return bh_qvalues(p)
    w = np.where(ok, np.maximum(w, 1e-12), 1.0)
    w = w / w[ok].mean()
    return bh_qvalues(np.where(ok, p / w, np.nan))


_ERFC = np.frompyfunc(math.erfc, 1, 1)
CHI2_1_MEDIAN = 0.454936  # median of a chi-square with one degree of freedom


def normal_cdf(z: Array) -> Array:
    """P(Z <= z) for a standard normal Z (accurate far into the lower tail)."""
    z = np.asarray(z, dtype=np.float64)
    return (0.5 * _ERFC(-z / math.sqrt(2.0))).astype(np.float64)


def empirical_null(z: Array, use: NDArray[np.bool_]) -> Array:
    """z centred on the median and scaled by the MAD (as a normal sd, at least 1) of z[use].

    Efron's empirical null: when every unit shares a dependence the theoretical null ignores
    (honest neighbours at a table), the bulk of the z-scores estimates the null's centre and
    spread; a few planted outliers move neither the median nor the MAD.
    """
    z = np.asarray(z, dtype=np.float64)
    centre, spread = empirical_null_params(z, use)
    return (z - centre) / spread


def empirical_null_params(z: Array, use: NDArray[np.bool_]) -> tuple[float, float]:
    """The centre and scale `empirical_null` takes from z[use] ((0, 1) for fewer than 10)."""
    z = np.asarray(z, dtype=np.float64)
    bulk = z[np.asarray(use, bool) & np.isfinite(z)]
    if bulk.size < 10:
        return 0.0, 1.0
    centre = float(np.median(bulk))
    return centre, max(1.0, 1.4826 * float(np.median(np.abs(bulk - centre))))
