"""Co-entry in preflop order as an additive fit over all pairs (issue 25).

Each pair's hands split by who acted first preflop (features.preflop_order, `orders`): in
each order its co-entry log odds ratio (entered or not, each player; a half added to each cell)
is about mu + f(first) + s(second), fitted over all pairs' orders by weighted least squares
(weights 1/(variance + τ²₀), τ²₀ the orders' random effect measured on the run's long pairs:
`fit`; f and s shrunk toward 0 by LAMBDA pseudo-weights; alternating weighted means, SWEEPS
sweeps). An aggressive player's raises cut the entries of whoever acts after him, so a
regular seated right after a maniac enters seldom with him: the maniac's f says so, and the
regular is not a lead. Each player's effect in one order was his
Mantel-Haenszel log odds ratio over his other pairs in that order around a context: it picked
up about half of a one-sided player effect (each player's usual weighted by the other's
weight), rested on half the data, and the long pairs' random effect τ² rose 0.0036 -> 0.006
(60,000 hands, share 0.4, seed 2: its second card-share team lost, q 0.13). The fit measures
each player against the very players he met, each of them measured in turn (q 0.031).

Robust: an order far off the first fit (|z| > FAR_Z on its sampling variance and τ²₀, τ²₀ at
most FIT_TAU2 there: `_robust`) leaves it and it is fitted again (a chip dumper follows his
receiver into the pot; a team that shares its hole cards seldom contests a pot with each
other); an order beyond ±features.CO_ENTRY_CLIP is never in it. A pair's own baseline leaves
its own rows out of its players' sums (`residual`).

The columns per player (`fit`, `COLUMNS` with the prefix `ce_`): `f`, `s` his effects acting
first and second, `wf`, `ws` the weights of his rows in the fit acting first and second, `sf`,
`ss` their sums (weight times the log odds ratio less mu and the other player's effect), `mu`
the population's, `f0`, `s0`, `mu0` the first fit's (the far rows were judged against),
`tau2` the fit's τ²₀ (the same for every player).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from audit.collusion.features import CO_ENTRY_CLIP
from audit.collusion.stats import CHI2_1_MEDIAN

LAMBDA = 1.0  # pseudo-weight toward 0 of each player's effect (a pair of ~15 hands' weight)
FAR_Z = 5.0  # an order this many standard deviations off the first fit leaves it
SWEEPS = 8  # alternating weighted means: 8 sweeps settle to 1e-4 on 60,000-hand tables
# Each order's weight in the fit is 1/(variance + τ²₀), τ²₀ the orders' random effect: a pair's
# order is its players' effects give or take a share of its own, so a player's few long pairs
# are no surer of his effect than his many short ones (weighted by 1/variance alone, a player of
# a closed table of five was measured on his three long partners, and the long pairs' τ² was
# that noise: the share 0.4 seed 2 card-share team q 0.054 there, 0.031 with τ²₀ 0.004).
# τ²₀ is measured on each run's own pairs (`fit`, `tau2_of`): a room whose pairs vary more or
# less than our simulator's gets its own weights. FIT_TAU2 is where the measure starts (the
# long pairs' τ² of issue 25's populations was 0.002 to 0.005), and the value of a run with
# fewer than MIN_LONG long orders to measure it on.
FIT_TAU2 = 0.004
# the orders τ²₀ is measured on: those of the pairs of this many hands or more together
# (leads.PAIR_VARIANCE_HANDS, where the co-entry test measures its pairs' τ²), at least MIN_LONG
LONG_HANDS = 5000
MIN_LONG = 10
READ_Z = 3.0  # ... and within this many standard deviations of their baseline (`tau2_of`)
COLUMNS = ("f", "s", "wf", "ws", "sf", "ss", "mu", "f0", "s0", "mu0", "tau2")


def orders(n: Any, va: Any, vb: Any, both: Any, n1: Any, va1: Any, vb1: Any, both1: Any
           ) -> tuple[tuple[Any, Any, Any], tuple[Any, Any, Any]]:
    """A pair's co-entry log odds ratio, its sampling variance and its hands, in the hands A
    acted first (`n1`, `va1`, `vb1`, `both1`: the pair table's `ce1_*`) and in the rest."""
    out = []
    for h, a, b, k in ((n1, va1, vb1, both1), (n - n1, va - va1, vb - vb1, both - both1)):
        h, a, b, k = (np.asarray(v, float) for v in (h, a, b, k))
        cells = (k + 0.5, a - k + 0.5, b - k + 0.5, h - a - b + k + 0.5)
        lor = np.log(cells[0] * cells[3] / (cells[1] * cells[2]))
        out.append((lor, sum(1.0 / c for c in cells), h))
    return out[0], out[1]


def weight(lor: Any, var: Any, hands: Any, tau2: Any) -> Any:
    """An order's weight in the fit before the far ones leave it: 1/(variance + `tau2`, the
    fit's τ²₀), 0 beyond ±CO_ENTRY_CLIP or without hands."""
    return np.where((hands > 0) & (np.abs(lor) <= CO_ENTRY_CLIP), 1.0 / (var + tau2), 0.0)


def directed(column: Callable[[str], Any], pairs: int) -> tuple[Any, Any, Any]:
    """Both orders of every pair of a pair table (`column`: a count column of it as floats) as
    directed rows, A first then B first (the rows of `orders`): the log odds ratio, the weight
    at FIT_TAU2 (`weight`; `fit` measures τ²₀ and weighs again) and whether its pair is long
    (LONG_HANDS hands or more). An order at a time, into two arrays: every pair's counts of
    both orders and their cells at once were half the pair table again at the scoring's
    peak."""
    lor, w = np.empty(2 * pairs), np.empty(2 * pairs)
    long = np.empty(2 * pairs, bool)
    long[:pairs] = long[pairs:] = column("hands") >= LONG_HANDS
    for at, names in ((slice(0, pairs), ("ce1_n", "ce1_va", "ce1_vb", "ce1_both")),
                      (slice(pairs, 2 * pairs), ("hands", "va", "vb", "vboth"))):
        n, va, vb, both = (column(c) for c in names)
        if at.start:  # B first: the rest of the pair's hands
            for x, c in zip((n, va, vb, both), ("ce1_n", "ce1_va", "ce1_vb", "ce1_both"),
                            strict=True):
                x -= column(c)
        hands = n > 0
        n -= va
        n -= vb
        n += both  # (neither entered)
        va -= both
        vb -= both
        cells = (both, va, vb, n)
        for x in cells:
            x += 0.5
        # (counts that do not add up, as in random test tables: NaN, out of the fit)
        with np.errstate(invalid="ignore", divide="ignore"):
            lor[at] = np.log(both * n / (va * vb))
            var = 1.0 / both
            for x in (va, vb, n):
                var += 1.0 / x
        w[at] = np.where(hands & (np.abs(lor[at]) <= CO_ENTRY_CLIP), 1.0 / (var + FIT_TAU2),
                         0.0)
        del n, va, vb, both, cells, var, hands
    return lor, w, long


def _backfit(x: Any, y: Any, lor: Any, w: Any, players: int) -> tuple[float, Any, Any]:
    mu, f, s = 0.0, np.zeros(players), np.zeros(players)
    total = float(w.sum())
    if total <= 0:
        return mu, f, s
    wf, ws = np.bincount(x, w, players) + LAMBDA, np.bincount(y, w, players) + LAMBDA
    r, buf = np.empty(len(lor)), np.empty(len(lor))
    for _ in range(SWEEPS):
        _less(lor, f, s, x, y, 0.0, r, buf)
        mu = float(np.dot(w, r) / total)
        _less(lor, None, s, x, y, mu, r, buf)
        f = np.bincount(x, np.multiply(w, r, out=r), players) / wf
        _less(lor, f, None, x, y, mu, r, buf)
        s = np.bincount(y, np.multiply(w, r, out=r), players) / ws
    return mu, f, s


def _less(lor: Any, f: Any, s: Any, x: Any, y: Any, mu: float, out: Any, buf: Any) -> Any:
    """lor - mu - f[x] - s[y] into `out` (either effect None: left in), with one buffer."""
    np.subtract(lor, mu, out=out)
    if f is not None:
        out -= np.take(f, x, out=buf)
    if s is not None:
        out -= np.take(s, y, out=buf)
    return out


def far(lor: Any, var: Any, mu0: Any, f0: Any, s0: Any, tau2: Any) -> Any:
    """Whether an order is far off the first fit (`f0` of its first actor, `s0` of its
    second): more than FAR_Z standard deviations (its sampling variance and `tau2`, the fit's
    τ²₀, at most FIT_TAU2: `_robust`)."""
    return np.abs(lor - mu0 - f0 - s0) > FAR_Z * np.sqrt(var + np.minimum(tau2, FIT_TAU2))


def _robust(x: Any, y: Any, lor: Any, w: Any, players: int, tau2: float
            ) -> tuple[tuple[float, Any, Any], tuple[float, Any, Any], Any, Any]:
    """The first fit, the fit without the far rows (their weight set to 0 in `w`, 1/(variance
    + `tau2`)), the far rows and their weights (to weigh them again).

    Far on the sampling variance and τ²₀ at most FIT_TAU2: on a wider scale a team stays in
    the fit of a room whose pairs vary much and bends its players' effects toward itself (a
    pair at 0.6 times the odds at a closed table whose orders vary with τ² 0.032: lost with
    τ²₀ 0.018 there, a lead on FIT_TAU2); the honest orders that far off are few and on
    either side."""
    first = _backfit(x, y, lor, w, players)
    r, buf = np.empty(len(lor)), np.empty(len(lor))
    _less(lor, first[1], first[2], x, y, first[0], r, buf)
    # far: r² / (variance + min(tau2, FIT_TAU2)) > FAR_Z², the variance 1/w - tau2 (`weight`):
    # r² w / (1 - gap w), gap what tau2 exceeds FIT_TAU2 by
    np.multiply(r, r, out=r)
    np.multiply(r, w, out=r)
    if (gap := tau2 - min(tau2, FIT_TAU2)) > 0:
        np.multiply(w, -gap, out=buf)
        buf += 1.0
        r /= buf
    out = np.flatnonzero(r > FAR_Z * FAR_Z)
    del r, buf
    was = w[out]
    w[out] = 0.0
    return first, _backfit(x, y, lor, w, players), out, was


def _reweigh(w: Any, old: float, new: float) -> None:
    """The weights 1/(variance + `old`) as 1/(variance + `new`), in place (0 stays 0; no copy
    of the rows: 30 MB each at 5,000,000 hands)."""
    if new == old:
        return
    inside = w > 0
    np.reciprocal(w, out=w, where=inside)
    np.add(w, new - old, out=w, where=inside)
    np.reciprocal(w, out=w, where=inside)


def tau2_of(x: Any, y: Any, lor: Any, w: Any, long: Any, effects: tuple[float, Any, Any],
            tau2: float) -> float | None:
    """The orders' random effect τ² of a fit (`effects`: mu, f, s; weights `w`, 1/(variance
    + `tau2`)): over the long pairs' orders in it (where `long`; the far ones have left it),
    each order's log odds ratio less its baseline without its own row (as `residual`), the
    median of residual²/median χ²₁ less its variance (sampling and the baseline's), at least
    0 (as leads._pair_variance). None with fewer than MIN_LONG such orders, or when fewer
    than half of them are near (below).

    Without its own row: a long order is much of its players' weight, and the fit's own
    residual of it shrinks with that weight, so the less τ² the more weight and the less τ²
    (60,000 hands, share 0.4, seed 2: 0.0003 on the fit's own residuals, settling there;
    0.0015 to 0.003 without the own rows). Only the orders within READ_Z standard deviations
    of their baseline (at `tau2`) are read: a median is robust to a few teams, not to long
    pairs that are mostly teams, and those are what a room's long pairs can be (the
    5,000,000-hand bench store's 100 pairs of 1,000 hands are its planted teams, 4 standard
    deviations above the fit: read as its long pairs, τ² 1.8); when most long orders are
    farther, they are not like honest pairs (of which 99.7% are nearer), and the few nearest
    of such teams would be read. Teams nearer than READ_Z cannot be told from honest pairs
    here and are read."""
    rows = np.flatnonzero(long & (w > 0))
    if len(rows) < MIN_LONG:
        return None
    mu, f, s = effects
    players = len(f)
    xs, ys, wr = x[rows], y[rows], w[rows]
    wf = np.bincount(x, w, players)[xs] + LAMBDA - wr
    ws = np.bincount(y, w, players)[ys] + LAMBDA - wr
    # each effect without this row's term: f = Σ w (lor - mu - s) / (Σ w + LAMBDA) over his
    # rows acting first, this row's taken out (and s so)
    r = lor[rows] - mu - f[xs] - s[ys]
    r = lor[rows] - mu - (f[xs] - wr * r / wf) - (s[ys] - wr * r / ws)
    var = 1.0 / wr + 1.0 / wf + 1.0 / ws  # (with tau2)
    near = r * r <= READ_Z * READ_Z * var
    if np.count_nonzero(near) < max(MIN_LONG, len(rows) / 2):  # (not like honest pairs)
        return None
    return max(0.0, float(np.median(r[near] ** 2 / CHI2_1_MEDIAN - var[near] + tau2)))


def fit(x: Any, y: Any, lor: Any, w: Any, long: Any, players: int,
        tau2: float | None = None) -> dict[str, Any]:
    """The fit over the directed rows (`x` acted first, `y` second; both orders of every pair:
    `directed`'s log odds ratios, weights at FIT_TAU2 and long rows), robust (the rows far off
    the first fit left out: `w` is set to 0 there), as columns per player (`COLUMNS`, prefixed
    `ce_`). Its τ²₀ is `tau2` when given (a re-check's, the first pass's value), else measured
    (`measure`)."""
    now = FIT_TAU2  # what `w` is weighted with
    if tau2 is None:
        tau2, now = measure(x, y, lor, w, long, players)
    _reweigh(w, now, tau2)
    (mu0, f0, s0), (mu, f, s), _, _ = _robust(x, y, lor, w, players, tau2)
    r, buf = np.empty(len(lor)), np.empty(len(lor))
    sf = np.bincount(x, np.multiply(w, _less(lor, None, s, x, y, mu, r, buf), out=r), players)
    ss = np.bincount(y, np.multiply(w, _less(lor, f, None, x, y, mu, r, buf), out=r), players)
    cols = (f, s, np.bincount(x, w, players), np.bincount(y, w, players), sf, ss,
            np.full(players, mu), f0, s0, np.full(players, mu0), np.full(players, tau2))
    return {f"ce_{c}": v for c, v in zip(COLUMNS, cols, strict=True)}


def measure(x: Any, y: Any, lor: Any, w: Any, long: Any, players: int,
            start: float = FIT_TAU2) -> tuple[float, float]:
    """τ²₀ of the fit over the directed rows (`fit`; `w` weighted with `start`): the τ² whose
    reading on the robust fit weighted with it (`tau2_of`) is itself, found in a bracket that
    does not depend on `start` (FIT_TAU2 first, then 0 or upward; `_root`); FIT_TAU2 with too
    few long orders, or too few near at FIT_TAU2 (`tau2_of`); and what `w` is weighted with
    after (the far rows back in).

    A reading falls steeply with the τ² the fit is weighted with: a long order's baseline
    rests on its players' other long orders, and the variance of that baseline the reading
    subtracts (1/weight of each effect) is as large as the weights' τ² says. Where the long
    orders are few per player the reading falls faster than τ² rises (a clean 60,000-hand
    store, share 0.4 seed 1, 30 long orders: 0.0025 read at 0.001, 0.0004 at 0.0015), so
    reading again on the last reading swings round the fixed point (there between 0 and
    0.0056) instead of settling on it, and the mean of two readings depended on where they
    started (0.0012 to 0.0028 from starts in [0.001, 0.02] there; 0.0018 to 0.0043 on an
    explaining-away table of share 0.4 seed 2). The fixed point does not: every start gets
    the same τ²₀ (0.0013 and 0.0041 there). Its price is 2 to 8 readings instead of two,
    each a robust fit, once per run (the re-checks and explaining away's re-scores carry
    it)."""
    if np.count_nonzero(long & (w > 0)) < MIN_LONG:  # (no fit to spend on it)
        return FIT_TAU2, start
    now = start

    def excess(at: float) -> float:
        """The reading at `at` less `at` (+inf when too few orders are near: `at` too small
        for them)."""
        nonlocal now
        _reweigh(w, now, at)
        now = at
        _, effects, out, was = _robust(x, y, lor, w, players, at)
        got = tau2_of(x, y, lor, w, long, effects, at)
        w[out] = was
        return np.inf if got is None else got - at

    first = excess(FIT_TAU2)
    if np.isinf(first):  # (at the start value not like honest pairs: `tau2_of`)
        return FIT_TAU2, now
    return _root(excess, FIT_TAU2, first), now


# The fixed point of τ²₀ (`measure`) is found to within this share of it, or MEASURE_TOL_ABS:
# its weights 1/(variance + τ²₀) move by less than that share of τ²₀
MEASURE_TOL = 0.05
MEASURE_TOL_ABS = 5e-5
MEASURE_MAX = 4.0  # no bracket beyond (a reading this large is no honest pairs')


def _root(excess: Callable[[float], float], at: float, value: float) -> float:
    """Where `excess` (a reading less the τ² it was read at, `measure`) crosses 0, from its
    `value` at `at`: bracketed between 0 (where it is a reading, at least 0) and `at`, or `at`
    and upward by fours, then narrowed by regula falsi (the Illinois variant: the end kept
    twice is halved) to MEASURE_TOL. The reading need not fall evenly (a median of a few
    dozen orders), so the crossing is where it changes sign within the tolerance."""
    if value == 0:
        return at
    if value < 0:
        lo, hi, h_hi = 0.0, at, value
        h_lo = excess(0.0)
        if h_lo == 0:
            return 0.0
    else:
        lo, h_lo = at, value
        hi, h_hi = min(4 * at, MEASURE_MAX), excess(min(4 * at, MEASURE_MAX))
        while h_hi > 0:
            if hi >= MEASURE_MAX:
                return MEASURE_MAX
            lo, h_lo = hi, h_hi
            hi = min(4 * hi, MEASURE_MAX)
            h_hi = excess(hi)
    side = 0
    for _ in range(60):
        if hi - lo <= max(MEASURE_TOL_ABS, MEASURE_TOL * lo):
            break
        if np.isinf(h_lo):
            mid = 0.5 * (lo + hi)
        else:
            mid = (lo * h_hi - hi * h_lo) / (h_hi - h_lo)
            mid = min(max(mid, lo + 0.01 * (hi - lo)), hi - 0.01 * (hi - lo))
        h = excess(mid)
        if h == 0:
            return mid
        if h > 0:
            lo, h_lo = mid, h
            if side == 1 and not np.isinf(h_hi):
                h_hi /= 2
            side = 1
        else:
            hi, h_hi = mid, h
            if side == -1 and not np.isinf(h_lo):
                h_lo /= 2
            side = -1
    if np.isinf(h_lo):
        return 0.5 * (lo + hi)
    return float((lo * h_hi - hi * h_lo) / (h_hi - h_lo))


def own_terms(x: Mapping[str, Any], y: Mapping[str, Any], lor: Any, var: Any, hands: Any
              ) -> tuple[Any, Any, Any]:
    """An order's own terms in its players' sums (first actor's columns `x`, second's `y`, as
    arrays per pair): its weight in the fit (0 where it was not), its term in the first actor's
    `sf` and in the second's `ss`. With the fit's τ²₀ (`ce_tau2`)."""
    w = weight(lor, var, hands, x["ce_tau2"])
    w = np.where(far(lor, var, x["ce_mu0"], x["ce_f0"], y["ce_s0"], x["ce_tau2"]), 0.0, w)
    return (w, w * (lor - x["ce_mu"] - y["ce_s"]), w * (lor - x["ce_mu"] - x["ce_f"]))


def residual(a: Mapping[str, Any], b: Mapping[str, Any], g: Mapping[str, Any]
             ) -> tuple[Any, Any]:
    """Per pair (A's columns `a`, B's `b`, the pair table's counts `g`): its co-entry log odds
    ratio less the fit's baseline without its own rows, and the variance (sampling and the
    baseline's, 1/weight of each effect), the two orders combined by inverse variance. Without
    its own rows: the first actor's effect from his other rows acting first, the second's from
    his other rows acting second."""
    a_first, b_first = orders(g["hands"], g["va"], g["vb"], g["vboth"],
                              g["ce1_n"], g["ce1_va"], g["ce1_vb"], g["ce1_both"])
    num = den = 0.0
    for (lor, var, hands), (one, two) in zip((a_first, b_first), ((a, b), (b, a)), strict=True):
        w, term_f, term_s = own_terms(one, two, lor, var, hands)
        wf = np.maximum(one["ce_wf"] - w + LAMBDA, 1e-9)
        ws = np.maximum(two["ce_ws"] - w + LAMBDA, 1e-9)
        f, s = (one["ce_sf"] - term_f) / wf, (two["ce_ss"] - term_s) / ws
        # the baseline known as well as its weights say (both effects without this order)
        weight_ = np.where(hands > 0, 1.0 / (var + 1.0 / wf + 1.0 / ws), 0.0)
        num = num + weight_ * (lor - one["ce_mu"] - f - s)
        den = den + weight_
    den = np.maximum(den, 1e-12)
    return num / den, 1.0 / den
