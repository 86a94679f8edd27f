"""Co-entry in preflop order as an additive fit over all pairs (issue 25).

Each pair's hands split by who acted first preflop (features.preflop_order, `orders`): in
each order its co-entry log odds ratio (entered or not, each player; a half added to each cell)
is about mu + f(first) + s(second), fitted over all pairs' orders by weighted least squares
(weights 1/(variance + FIT_TAU2); f and s shrunk toward 0 by LAMBDA pseudo-weights; alternating
weighted means, SWEEPS sweeps). An aggressive player's raises cut the entries of whoever acts
after him, so a regular seated right after a maniac enters seldom with him: the maniac's f
says so, and the regular is not a lead. Each player's effect in one order was his
Mantel-Haenszel log odds ratio over his other pairs in that order around a context: it picked
up about half of a one-sided player effect (each player's usual weighted by the other's
weight), rested on half the data, and the long pairs' random effect τ² rose 0.0036 -> 0.006
(60,000 hands, share 0.4, seed 2: its second card-share team lost, q 0.13). The fit measures
each player against the very players he met, each of them measured in turn (q 0.031).

Robust: an order far off the first fit (|z| > FAR_Z on its sampling variance) leaves it and it
is fitted again (a chip dumper follows his receiver into the pot; a team that shares its hole
cards seldom contests a pot with each other); an order beyond ±features.CO_ENTRY_CLIP is never
in it. A pair's own baseline leaves its own rows out of its players' sums (`residual`).

The columns per player (`fit`, `COLUMNS` with the prefix `ce_`): `f`, `s` his effects acting
first and second, `wf`, `ws` the weights of his rows in the fit acting first and second, `sf`,
`ss` their sums (weight times the log odds ratio less mu and the other player's effect), `mu`
the population's, `f0`, `s0`, `mu0` the first fit's (the far rows were judged against).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from audit.collusion.features import CO_ENTRY_CLIP

LAMBDA = 1.0  # pseudo-weight toward 0 of each player's effect (a pair of ~15 hands' weight)
FAR_Z = 5.0  # an order this many standard deviations off the first fit leaves it
SWEEPS = 8  # alternating weighted means: 8 sweeps settle to 1e-4 on 60,000-hand tables
# each order's weight in the fit 1/(variance + FIT_TAU2): the pairs' random effect (τ² of the
# long pairs, 0.002 to 0.005 on issue 25's populations) makes a player's few long pairs no
# surer of his effect than his many short ones (weighted by 1/variance alone, a player of a
# closed table of five was measured on his three long partners, and the long pairs' τ² was
# that noise: the share 0.4 seed 2 card-share team q 0.054 there, 0.031 with it)
FIT_TAU2 = 0.004
COLUMNS = ("f", "s", "wf", "ws", "sf", "ss", "mu", "f0", "s0", "mu0")


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


def weight(lor: Any, var: Any, hands: Any) -> Any:
    """An order's weight in the fit before the far ones leave it: 1/(variance + FIT_TAU2), 0
    beyond ±CO_ENTRY_CLIP or without hands."""
    return np.where((hands > 0) & (np.abs(lor) <= CO_ENTRY_CLIP), 1.0 / (var + FIT_TAU2), 0.0)


def directed(column: Callable[[str], Any], pairs: int) -> tuple[Any, Any]:
    """Both orders of every pair of a pair table (`column`: a count column of it as floats) as
    directed rows, A first then B first (the rows of `orders`): the log odds ratio and the
    weight (`weight`). An order at a time, into two arrays: every pair's counts of both orders
    and their cells at once were half the pair table again at the scoring's peak."""
    lor, w = np.empty(2 * pairs), np.empty(2 * pairs)
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
    return lor, w


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


def far(lor: Any, var: Any, mu0: Any, f0: Any, s0: Any) -> Any:
    """Whether an order is far off the first fit (`f0` of its first actor, `s0` of its
    second): more than FAR_Z standard deviations (its sampling variance and FIT_TAU2)."""
    return np.abs(lor - mu0 - f0 - s0) > FAR_Z * np.sqrt(var + FIT_TAU2)


def fit(x: Any, y: Any, lor: Any, w: Any, players: int) -> dict[str, Any]:
    """The fit over the directed rows (`x` acted first, `y` second; both orders of every pair:
    `directed`'s log odds ratios and weights), robust (the rows far off the first fit left
    out: `w` is set to 0 there), as columns per player (`COLUMNS`, prefixed `ce_`)."""
    mu0, f0, s0 = _backfit(x, y, lor, w, players)
    r, buf = np.empty(len(lor)), np.empty(len(lor))
    _less(lor, f0, s0, x, y, mu0, r, buf)
    # far: |r| > FAR_Z standard deviations, the variance 1/w (`weight`)
    np.multiply(r, r, out=r)
    np.multiply(r, w, out=r)
    w[r > FAR_Z * FAR_Z] = 0.0
    del r, buf
    mu, f, s = _backfit(x, y, lor, w, players)
    r, buf = np.empty(len(lor)), np.empty(len(lor))
    sf = np.bincount(x, np.multiply(w, _less(lor, None, s, x, y, mu, r, buf), out=r), players)
    ss = np.bincount(y, np.multiply(w, _less(lor, f, None, x, y, mu, r, buf), out=r), players)
    cols = (f, s, np.bincount(x, w, players), np.bincount(y, w, players), sf, ss,
            np.full(players, mu), f0, s0, np.full(players, mu0))
    return {f"ce_{c}": v for c, v in zip(COLUMNS, cols, strict=True)}


def own_terms(x: Mapping[str, Any], y: Mapping[str, Any], lor: Any, var: Any, hands: Any
              ) -> tuple[Any, Any, Any]:
    """An order's own terms in its players' sums (first actor's columns `x`, second's `y`, as
    arrays per pair): its weight in the fit (0 where it was not), its term in the first actor's
    `sf` and in the second's `ss`."""
    w = weight(lor, var, hands)
    w = np.where(far(lor, var, x["ce_mu0"], x["ce_f0"], y["ce_s0"]), 0.0, w)
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
