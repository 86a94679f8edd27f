"""Check-down ranges: each player's own range of continues and checks, learned from his play
without the partner, and the evidence of a pair's continues and checks beside each other
against it (PATTERN-CHECKDOWN-ALLIN: "after a short all-in, two or more players with chips
check every remaining street into the side pot"; a team "follows short stacks into pots").

A check-down team acts on its agreement, not on its cards: it calls a short stack's raise with
hands its members would fold, and checks behind an all-in with hands they would bet. Counting
continues or checks cannot show that: a loose player continues often with or without his
partner. This model asks of each such action how likely it was for this player with these cards,
and so weighs a call with 7-2 offsuit, or a check with trips, far above a call with aces.

Two kinds of spots (audit/collusion/streets.py counts them from the events):

- *follow* (preflop): a player's answer to a bet or raise of a third player X; the strength key
  his starting hand's class (169 two-card classes). The collusion-consistent action is to
  continue. Target spots: X started short or raised all-in.
- *behind* (flop, turn, river): a player's first action on a street no one has bet on yet
  (checked to); the key his made hand on that board. The collusion-consistent action is not to
  bet. Target spots: a third player went all-in on an earlier street.

The model, per kind:

1. *Strength order*: the keys ranked by the population's rate of the collusion-consistent action
   at its non-target spots, each key's place `u` in [0, 1] the mid-point of its share of the
   spots (the hands everyone continues with, or checks, at the top).
2. *Each player's curve* over `u` from his own non-target spots: a floor (the weakest hands he
   still takes the action with) and a logistic step at his threshold (`fit_curves`: a player
   continues with the hands above his threshold; a threshold curve, not a rate per key, so that
   a few hundred spots learn his range).
3. *Target spots*: the curve's rate shifted by one pooled logit (target spots are other spots:
   a short stack's raise is called wider by everyone) and, per player P, a ridge logistic with
   one term per other player present (prior sd MATE_SD: the other players at the table change
   how P plays, a stronger or a looser table), fitted on P's target spots *without* the partner
   B present, predicting P's spots with B in (`direction_rates`).
4. *A pair's evidence*: a team colludes in some of its hands, not in every spot, so each hand
   both were in at such spots counts once, as the likelihood ratio of a mixture: with
   probability PI the team acted on its agreement in that hand (each collusion-consistent
   action then certain), else each action at its honest rate r: log((1 - PI) + PI · Π 1/r)
   over the hand's collusion-consistent actions (a fold or a bet counts nothing). The statistic
   `T` is the sum over the pair's hands.
5. *p-value*: the upper tail of T under the honest rates, each hand's distribution exact (all
   outcomes of its spots enumerated), the sum's tail by the Lugannani-Rice saddlepoint
   approximation, with the fit's uncertainty added as a normal shift of each direction's logits
   (`pair_pvalues`), and never above the Chernoff bound.

Measured on the rulebook populations of issue 25 (60,000 hands, share 0.4) by the prototype this
module implements (branch s27-checkdown-model): 3 of 4 check-down teams found at q <= 0.05 among
the check-down pairs, none of the honest pairs on the clean populations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits

from audit.collusion.stats import normal_cdf

Array = NDArray[np.float64]

KINDS = ("follow", "behind")
PI = 0.3  # the share of a pair's hands a team is taken to collude in (the mixture's weight)
INTERCEPT_SD = 0.5  # prior sd of a player's own shift of his target spots from his curve
MATE_SD = 0.3  # prior sd of the effect of one other player's presence on his play
MIN_SPOTS = 5  # the fewest target spots (both directions) a pair is tested on
RATE_FLOOR = 1e-3  # no honest rate is taken as below this (nor above one less it)
STATISTIC_CAP = 50.0  # a hand's log product of 1/r is capped here (e^50 is certainty enough)
LEAVE_OUT_STEPS = 2  # Newton steps of a fit without one partner, from the fit with all
MAX_HAND_SPOTS = 14  # a pair's hand with more target spots keeps the first ones (2^14 outcomes)
_FLOOR_MAX = 0.6  # the curve's floor is the weakest hands' rate: never most of them
# the curves' grid, every player's likelihood over it at once (a product of his counts with
# the grid's log rates), then refined a coordinate at a time around each player's best point
_THRESHOLDS = np.linspace(0.0, 1.0, 41)
_SCALES = np.array([0.005, 0.01, 0.02, 0.04, 0.08])
_FLOORS = np.array([0.001, 0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6])
_REFINE = (("threshold", np.linspace(-0.025, 0.025, 21), False),
           ("scale", np.array([0.6, 0.7, 0.85, 1.0, 1.2, 1.4, 1.7]), True),
           ("floor", np.array([0.5, 0.7, 0.85, 1.0, 1.2, 1.4, 2.0]), True))
_BOUNDS = {"threshold": (-0.1, 1.1), "scale": (0.004, 0.16), "floor": (1e-4, _FLOOR_MAX)}
_PLAYER_CHUNK = 2048  # players whose likelihoods are worked out at once
# pseudo-spots of the population's own play added to each player's before his curve is fitted:
# a player of 18 spots who never continued read as one who never does (rate 0.001), and four
# continues of his in a room of 100,000 hands as p 9e-9; with thousands of spots it is nothing
CURVE_PRIOR = 50.0

SPOT_SCHEMA = {"hand_id": pl.String, "kind": pl.String, "player": pl.String, "key": pl.Int16,
               "y": pl.Boolean, "present": pl.List(pl.String), "at": pl.List(pl.String)}
BASE_SCHEMA = {"kind": pl.String, "player": pl.String, "key": pl.Int16, "n": pl.Int64,
               "k": pl.Int64}
ROW_SCHEMA = {"player_a": pl.String, "player_b": pl.String, "hand_id": pl.String,
              "slot": pl.Int64, "y": pl.Boolean, "r": pl.Float64, "shift_var": pl.Float64}
PAIR_SCHEMA = {"player_a": pl.String, "player_b": pl.String, "cdr_n": pl.Int64,
               "cdr_k": pl.Int64, "cdr_t": pl.Float64, "cdr_e": pl.Float64,
               "cdr_p": pl.Float64}


@dataclass(frozen=True, slots=True)
class Curve:
    """A player's rate of the collusion-consistent action over the strength order `u`:
    floor + (1 - floor) · logistic((u - threshold) / scale)."""

    floor: float
    threshold: float
    scale: float

    def rate(self, u: Array) -> Array:
        step = 1.0 / (1.0 + np.exp(-(np.asarray(u, float) - self.threshold) / self.scale))
        return np.clip(self.floor + (1.0 - self.floor) * step, RATE_FLOOR, 1.0 - RATE_FLOOR)


def strength_order(base: pl.DataFrame) -> pl.DataFrame:
    """Per kind and key (kind, key, u) the key's place in the population's order of the
    collusion-consistent action's rate at the non-target spots (`base`: kind, player, key, n,
    k): the mid-point of its share of the spots, ties broken by key."""
    per_key = (base.group_by("kind", "key").agg(pl.col("n", "k").sum())
               .filter(pl.col("n") > 0)
               .with_columns(rate=pl.col("k") / pl.col("n"))
               .sort("kind", "rate", "key"))
    return per_key.with_columns(
        u=((pl.col("n").cum_sum() - pl.col("n") / 2) / pl.col("n").sum()).over("kind")
    ).select("kind", "key", "u")


def _curve_rate(u: Array, floor: Array, threshold: Array, scale: Array) -> Array:
    rate: Array = floor + (1.0 - floor) / (1.0 + np.exp(-(u - threshold) / scale))
    return np.clip(rate, 1e-6, 1.0 - 1e-6)


def fit_curve_matrix(u: Array, n: Array, k: Array) -> dict[str, Array]:
    """The maximum-likelihood curve of each player (rows of `n`, his spots per key, and `k`,
    the collusion-consistent actions among them; the keys at places `u`): floor, threshold and
    scale per player. Found on a grid (the likelihood of a sharp step is flat between the
    keys' places, so no gradient method), then refined one coordinate at a time."""
    u, n, k = (np.asarray(x, float) for x in (u, n, k))
    floors, thresholds, scales = (g.ravel() for g in np.meshgrid(_FLOORS, _THRESHOLDS, _SCALES,
                                                                  indexing="ij"))
    rate = _curve_rate(u[None, :], floors[:, None], thresholds[:, None], scales[:, None])
    log_rate, log_miss = np.log(rate).T, np.log1p(-rate).T
    best = np.empty(n.shape[0], np.int64)
    for i in range(0, n.shape[0], _PLAYER_CHUNK):
        kk, nn = k[i:i + _PLAYER_CHUNK], n[i:i + _PLAYER_CHUNK]
        best[i:i + _PLAYER_CHUNK] = (kk @ log_rate + (nn - kk) @ log_miss).argmax(axis=1)
    params = {"floor": floors[best], "threshold": thresholds[best], "scale": scales[best]}
    for name, offsets, relative in _REFINE:
        for i in range(0, n.shape[0], _PLAYER_CHUNK):
            part = slice(i, i + _PLAYER_CHUNK)
            now = params[name][part]
            candidates = np.clip(now[:, None] * offsets[None, :] if relative
                                 else now[:, None] + offsets[None, :], *_BOUNDS[name])
            args = {c: params[c][part][:, None, None] for c in params}
            args[name] = candidates[:, :, None]
            r = _curve_rate(u[None, None, :], args["floor"], args["threshold"], args["scale"])
            kk, nn = k[part][:, None, :], n[part][:, None, :]
            ll = (kk * np.log(r) + (nn - kk) * np.log1p(-r)).sum(axis=2)
            params[name][part] = candidates[np.arange(candidates.shape[0]), ll.argmax(axis=1)]
    return params


def fit_curve(u: Array, n: Array, k: Array) -> Curve:
    """One player's curve (`fit_curve_matrix`)."""
    params = fit_curve_matrix(np.asarray(u, float), np.asarray(n, float)[None, :],
                              np.asarray(k, float)[None, :])
    return Curve(float(params["floor"][0]), float(params["threshold"][0]),
                 float(params["scale"][0]))


def fit_curves(base: pl.DataFrame, order: pl.DataFrame) -> pl.DataFrame:
    """Per player of `base` (one kind's) his curve over the strength order `order` (player,
    floor, threshold, scale)."""
    placed = base.join(order, on=["kind", "key"])
    keys = order.sort("u")
    players = placed["player"].unique().sort()
    if players.len() == 0:
        return pl.DataFrame(schema={"player": pl.String, "floor": pl.Float64,
                                    "threshold": pl.Float64, "scale": pl.Float64})
    at = (placed.join(pl.DataFrame({"player": players}).with_row_index("pi"), on="player")
          .join(keys.select("key").with_row_index("ki"), on="key"))
    n = np.zeros((players.len(), keys.height))
    k = np.zeros_like(n)
    cell = (at["pi"].to_numpy(), at["ki"].to_numpy())
    np.add.at(n, cell, at["n"].to_numpy())
    np.add.at(k, cell, at["k"].to_numpy())
    # (each player's spots and CURVE_PRIOR of the population's, spread over the keys as the
    # population's are, each at the population's rate there)
    pop_n, pop_k = n.sum(axis=0), k.sum(axis=0)
    share = pop_n / max(pop_n.sum(), 1.0)
    rate = np.where(pop_n > 0, pop_k / np.maximum(pop_n, 1.0), 0.0)
    params = fit_curve_matrix(keys["u"].to_numpy(), n + CURVE_PRIOR * share,
                              k + CURVE_PRIOR * share * rate)
    return pl.DataFrame({"player": players, **params})


def _logit(p: Array) -> Array:
    return np.log(p / (1.0 - p))


def _expit(z: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-z))


def pooled_shift(z: Array, y: Array) -> float:
    """The one logit shift of the curves' rates (logits `z`) that fits the target spots'
    actions `y` (maximum likelihood, Newton)."""
    d = 0.0
    for _ in range(50):
        p = _expit(z + d)
        h = float((p * (1 - p)).sum()) + 1e-4
        step = (float((y - p).sum()) - 1e-4 * d) / h
        d += step
        if abs(step) < 1e-10:
            break
    return d


@dataclass(frozen=True, slots=True)
class Design:
    """A binary design matrix (rows × columns): dense for its products with vectors, and as the
    pairs of nonzero columns of each row (`pair_row`; `pair_cell`: i · columns + j) for its
    Gram matrices. A Gram matrix of a few hundred rows and columns by OpenBLAS's threaded
    matrix product took 65 times as long with the two cores busy as on one thread (a player's
    fits are small: a few nonzero columns per row), and the fits without each partner were
    four fifths of the model's time."""

    x: Array
    pair_row: NDArray[np.int64]
    pair_cell: NDArray[np.int64]


def design(x: Array) -> Design:
    """The `Design` of a binary matrix."""
    row, col = np.nonzero(x)
    counts = np.bincount(row, minlength=x.shape[0])
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    repeat = counts[row]
    left = np.repeat(np.arange(row.size), repeat)
    offset = np.arange(repeat.sum()) - np.repeat(np.cumsum(repeat) - repeat, repeat)
    right = starts[row[left]] + offset
    return Design(x, row[left], col[left] * x.shape[1] + col[right])


def ridge_fit(d: Design, z: Array, y: Array, precision: Array,
              rows: NDArray[np.bool_] | None = None, start: Array | None = None,
              steps: int = 50) -> tuple[Array, Array]:
    """A ridge logistic fit on the design `d`'s `rows` (all when None; offsets `z`, outcomes
    `y` of all rows; prior precisions `precision` about 0), Newton from `start` for at most
    `steps` steps: the weights and the Hessian at them (the posterior precision). A column no
    row used keeps its start."""
    n, m = d.x.shape
    use = np.ones(n, bool) if rows is None else rows
    x, zz, yy = d.x[use], z[use], y[use]
    kept = use[d.pair_row]
    pair_row, pair_cell = d.pair_row[kept], d.pair_cell[kept]
    weight = np.zeros(n)
    w = np.zeros(m) if start is None else start.copy()

    def hessian(p: Array) -> Array:
        weight[use] = p * (1 - p)
        gram = np.bincount(pair_cell, weight[pair_row], m * m).reshape(m, m)
        out: Array = gram + np.diag(precision)
        return out

    for i in range(steps + 1):
        p = _expit(zz + x @ w)
        hess = hessian(p)
        if i == steps:
            break
        step = np.linalg.solve(hess, x.T @ (yy - p) - precision * w)
        w += step
        if np.abs(step).max() < 1e-8:
            hess = hessian(_expit(zz + x @ w))
            break
    return w, hess


@dataclass(frozen=True, slots=True)
class Direction:
    """Player P's target spots with B in, and their honest rates from P's fit without B:
    hand ids, the action (y: collusion-consistent), the rate r of y, and the variance of the
    fit's logit common to these spots (`shift_var`: x̄' Σ x̄, x̄ their mean design row)."""

    kind: str
    player: str
    partner: str
    hand_id: list[str]
    y: NDArray[np.bool_]
    r: Array
    shift_var: float


def candidate_pairs(spots: pl.DataFrame) -> set[tuple[str, str]]:
    """The pairs (A < B) with MIN_SPOTS target spots or more at which one was at the other's
    (`spots`: SPOT_SCHEMA): the others are never tested, so never fitted."""
    at = (spots.select("player", mate="at").explode("mate").drop_nulls()
          .select(a=pl.min_horizontal("player", "mate"), b=pl.max_horizontal("player", "mate"))
          .group_by("a", "b").len().filter(pl.col("len") >= MIN_SPOTS))
    return set(at.select("a", "b").iter_rows())


def direction_rates(spots: pl.DataFrame, base: pl.DataFrame, kind: str,
                    pairs: set[tuple[str, str]] | None = None) -> list[Direction]:
    """The `Direction`s of one kind of spot (`spots`: SPOT_SCHEMA, target spots; `base`:
    BASE_SCHEMA), each player's spots against each other player at some of them (of `pairs`
    only, A < B; None: `candidate_pairs`)."""
    if pairs is None:
        pairs = candidate_pairs(spots)
    base = base.filter(pl.col("kind") == kind)
    order = strength_order(base)
    target = (spots.filter(pl.col("kind") == kind)
              .join(order, on=["kind", "key"])
              .join(fit_curves(base, order), on="player")
              .sort("player", "hand_id"))
    if target.height == 0:
        return []
    rate = np.clip(_curve_rate(*(target[c].to_numpy() for c in ("u", "floor", "threshold",
                                                                  "scale"))),
                   RATE_FLOOR, 1 - RATE_FLOOR)
    idx_by_player = target.with_row_index("_i").group_by("player", maintain_order=True).agg(
        pl.col("_i"))
    z = _logit(np.clip(rate, RATE_FLOOR, 1 - RATE_FLOOR))
    y_all = target["y"].to_numpy().astype(float)
    shift = pooled_shift(z, y_all)
    z = z + shift
    out: list[Direction] = []
    present, at = target["present"].to_list(), target["at"].to_list()
    hands = target["hand_id"].to_list()
    for player, rows in idx_by_player.iter_rows():
        out.extend(_player_directions(kind, player, np.asarray(rows), present, at, hands, z,
                                      y_all, pairs))
    return out


def _player_directions(kind: str, player: str, rows: NDArray[np.int64],
                       present: list[list[str] | None], at: list[list[str] | None],
                       hands: list[str], z: Array, y: Array,
                       pairs: set[tuple[str, str]]) -> list[Direction]:
    """One player's `Direction`s: his ridge fit without each partner, predicting his spots
    with that partner in (the partners of `pairs`, A < B, only)."""
    mine_present = [present[i] or [] for i in rows]
    mine_at = [at[i] or [] for i in rows]
    mates = sorted({q for lst in mine_present for q in lst} | {q for lst in mine_at for q in lst})
    if not mates:
        return []
    column = {q: i + 1 for i, q in enumerate(mates)}
    x = np.zeros((rows.size, len(mates) + 1))
    x[:, 0] = 1.0
    in_at = np.zeros_like(x, dtype=bool)
    for i, lst in enumerate(mine_present):
        for q in lst:
            x[i, column[q]] = 1.0
    for i, lst in enumerate(mine_at):
        for q in lst:
            x[i, column[q]] = 1.0
            in_at[i, column[q]] = True
    zp, yp = z[rows], y[rows]
    precision = np.r_[1 / INTERCEPT_SD**2, np.full(len(mates), 1 / MATE_SD**2)]
    d = design(x)
    full, _ = ridge_fit(d, zp, yp, precision)
    # (each fit without one partner starts from the fit with all, his term at 0, where it
    # stays: no spot of the fit has him in. A partner's spots are a part of the player's,
    # and two Newton steps from there reach the fit without them to 1e-4 or better)
    out = []
    for q in mates:
        c = column[q]
        tested = in_at[:, c]
        if not tested.any() or (min(player, q), max(player, q)) not in pairs:
            continue
        start = full.copy()
        start[c] = 0.0
        w, hess = ridge_fit(d, zp, yp, precision, rows=x[:, c] == 0.0, start=start,
                            steps=LEAVE_OUT_STEPS)
        xt = x[tested]
        r = np.clip(_expit(zp[tested] + xt @ w), RATE_FLOOR, 1 - RATE_FLOOR)
        y_ok = yp[tested] > 0
        # (the variance of the common part of the spots' logits: each other player's own
        # term moves only his spots, and over many spots those parts average out; B's own
        # term is no part of the fit)
        mean_row = xt.mean(axis=0)
        mean_row[c] = 0.0
        shift_var = float(mean_row @ np.linalg.solve(hess, mean_row))
        out.append(Direction(kind, player, q, [hands[i] for i in rows[tested]], y_ok,
                             r, shift_var))
    return out


def hand_value(log_inverse_rates: Array) -> Array:
    """A hand's term of T: log((1 - PI) + PI · Π 1/r) from the sum of log 1/r over its
    collusion-consistent actions."""
    s = np.minimum(log_inverse_rates, STATISTIC_CAP)
    out: Array = np.log((1 - PI) + PI * np.exp(s))
    return out


@dataclass(frozen=True, slots=True)
class _Outcomes:
    """Every outcome of every tested pair's hands: per row its pair, its pair-hand, its log
    probability under the honest rates, its value (`hand_value`), and per direction slot (0-3)
    the sum over the hand's spots of that direction of (outcome - rate)."""

    pair: NDArray[np.int64]
    hand: NDArray[np.int64]
    log_p: Array
    value: Array
    centred: Array  # rows × 4


def _outcomes(spot_pair: NDArray[np.int64], spot_hand: NDArray[np.int64],
              spot_slot: NDArray[np.int64], r: Array) -> _Outcomes:
    """`_Outcomes` of spots sorted by (pair, hand): per spot its pair, pair-hand (consecutive
    ids), direction slot and honest rate."""
    starts = np.flatnonzero(np.r_[True, spot_hand[1:] != spot_hand[:-1]])
    sizes = np.diff(np.r_[starts, spot_hand.size])
    parts = []
    for m in np.unique(sizes):
        m = int(m)
        first = starts[sizes == m]
        kept = min(m, MAX_HAND_SPOTS)
        idx = first[:, None] + np.arange(kept)[None, :]  # hands × spots
        bits = ((np.arange(2**kept)[:, None] >> np.arange(kept)[None, :]) & 1).astype(float)
        rr = r[idx]
        lp = np.log(rr) @ bits.T + np.log1p(-rr) @ (1 - bits).T  # hands × outcomes
        value = hand_value((-np.log(rr)) @ bits.T)
        centred = np.zeros((first.size, bits.shape[0], 4))
        slots = spot_slot[idx]
        for s in range(4):
            mask = (slots == s).astype(float)  # hands × spots
            centred[:, :, s] = (mask[:, None, :] * (bits[None, :, :] - rr[:, None, :])).sum(2)
        n_out = bits.shape[0]
        parts.append((np.repeat(spot_pair[first], n_out), np.repeat(spot_hand[first], n_out),
                      lp.ravel(), value.ravel(), centred.reshape(-1, 4)))
    pair, hand, lp, value, centred = (np.concatenate([p[i] for p in parts]) for i in range(5))
    order = np.lexsort((hand, pair))
    return _Outcomes(pair[order], hand[order], lp[order], value[order], centred[order])


def _segment_logsumexp(a: Array, starts: NDArray[np.int64]) -> Array:
    top = np.maximum.reduceat(a, starts)
    sizes = np.diff(np.r_[starts, a.size])
    out: Array = top + np.log(np.add.reduceat(np.exp(a - np.repeat(top, sizes)), starts))
    return out


def _hand_starts(o: _Outcomes) -> NDArray[np.int64]:
    return np.flatnonzero(np.r_[True, (o.hand[1:] != o.hand[:-1]) | (o.pair[1:] != o.pair[:-1])])


@dataclass(frozen=True, slots=True)
class _Tail:
    """P(T >= t) per pair (`p`), the saddlepoint θ, and per direction slot the centred counts'
    expectation under the tilted measure (`lean`: how the tail's log-probability moves with a
    shift of that slot's logits)."""

    p: Array
    theta: Array
    lean: Array  # pairs × 4


def _cgf(o: _Outcomes, hand_starts: NDArray[np.int64], hand_pair: NDArray[np.int64],
         theta: Array, tilt: Array, n_pairs: int, lean: bool = False
         ) -> tuple[Array, Array, Array, Array | None]:
    """Per pair K(θ), K'(θ), K''(θ) of T with the honest rates' logits shifted per direction
    slot (`tilt`: per outcome row, Σ shift · centred count; zero for the rates as fitted), the
    hands independent; and with `lean` the centred counts' expectation at θ per slot."""
    sizes = np.diff(np.r_[hand_starts, o.log_p.size])
    base = o.log_p + tilt
    norm = _segment_logsumexp(base, hand_starts)
    a = base + theta[o.pair] * o.value
    k_h = _segment_logsumexp(a, hand_starts)
    w = np.exp(a - np.repeat(k_h, sizes))
    m1 = np.add.reduceat(w * o.value, hand_starts)
    m2 = np.add.reduceat(w * o.value**2, hand_starts)
    k = np.bincount(hand_pair, k_h - norm, n_pairs)
    k1 = np.bincount(hand_pair, m1, n_pairs)
    k2 = np.bincount(hand_pair, np.maximum(m2 - m1**2, 0.0), n_pairs)
    leaning = None
    if lean:
        leaning = np.column_stack([np.bincount(o.pair, w * o.centred[:, s], n_pairs)
                                   for s in range(4)])
    return k, k1, k2, leaning


def _tail(t: Array, o: _Outcomes, n_pairs: int, shift: Array | None = None,
          start: Array | None = None) -> _Tail:
    """P(T >= t) per pair: Lugannani-Rice on the exact per-hand distributions (`o`), the honest
    rates' logits shifted per pair and direction slot by `shift` (pairs × 4; None: as fitted),
    never above the Chernoff bound exp(K(θ) - θt). A pair whose T is at or below its mean
    reads the normal tail (a half or more): the test is one-sided. `start`: a guess of θ."""
    hand_starts = _hand_starts(o)
    hand_pair = o.pair[hand_starts]
    tilt = (np.zeros(o.log_p.size) if shift is None
            else (shift[o.pair] * o.centred).sum(axis=1))
    # a T at the top of its support (every spot of every hand the collusion-consistent
    # action) has no saddlepoint (θ runs off to infinity): its tail is that outcome's
    # probability, exactly
    sizes = np.diff(np.r_[hand_starts, o.log_p.size])
    top_value = np.maximum.reduceat(o.value, hand_starts)
    at_top = o.value >= np.repeat(top_value, sizes) - 1e-12
    log_norm = _segment_logsumexp(o.log_p + tilt, hand_starts)
    top_p = np.add.reduceat(np.where(at_top, np.exp(o.log_p + tilt
                                                     - np.repeat(log_norm, sizes)), 0.0),
                            hand_starts)
    top = np.bincount(hand_pair, top_value, n_pairs)
    edge = t >= top - 1e-9 * np.maximum(1.0, top)
    edge_p = np.exp(np.bincount(hand_pair, np.log(np.maximum(top_p, 1e-300)), n_pairs))
    t = np.where(edge, 0.0, t)  # (solved at θ = 0, then replaced)
    theta = np.zeros(n_pairs) if start is None else np.where(edge, 0.0, start)
    lo, hi = np.zeros(n_pairs), np.full(n_pairs, np.inf)
    for _ in range(100):
        _, k1, k2, _ = _cgf(o, hand_starts, hand_pair, theta, tilt, n_pairs)
        below = k1 < t
        lo = np.where(below, theta, lo)
        hi = np.where(below, hi, theta)
        new = theta + (t - k1) / np.maximum(k2, 1e-12)
        outside = (new <= lo) | (new >= hi)
        new = np.where(outside, np.where(np.isfinite(hi), (lo + hi) / 2, lo * 2 + 1), new)
        done = np.abs(new - theta) <= 1e-7 * np.maximum(1.0, np.abs(theta))
        theta = new
        if done.all():
            break
    k, k1, k2, lean = _cgf(o, hand_starts, hand_pair, theta, tilt, n_pairs, lean=True)
    assert lean is not None
    exponent = np.maximum(theta * t - k, 0.0)
    w = np.sqrt(2 * exponent)
    u = theta * np.sqrt(np.maximum(k2, 1e-300))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        density = np.exp(-w**2 / 2) / math.sqrt(2 * math.pi)
        lr = normal_cdf(-w) + density * (1 / u - 1 / w)
        # (θ at 0 or near it: T at or about its mean, where K' is the mean and K'' the variance)
        normal = normal_cdf(-(t - k1) / np.sqrt(np.maximum(k2, 1e-300)))
    p = np.where((w < 1e-3) | ~np.isfinite(lr), normal, lr)
    chernoff = np.exp(-exponent)
    p = np.where(edge, edge_p, np.minimum(p, chernoff))
    # the lean: the centred counts' mean under the tilted measure less the untilted (zero),
    # and at the edge their mean over the top outcomes (how that outcome's log-probability
    # moves with each slot's shift)
    prob = np.exp(o.log_p + tilt - np.repeat(log_norm, sizes))
    top_share = np.where(at_top, prob / np.repeat(np.maximum(top_p, 1e-300), sizes), 0.0)
    untilted = np.column_stack([np.bincount(o.pair, prob * o.centred[:, s], n_pairs)
                                for s in range(4)])
    on_top = np.column_stack([np.bincount(o.pair, top_share * o.centred[:, s], n_pairs)
                              for s in range(4)])
    return _Tail(np.clip(p, 0.0, 1.0), theta,
                 np.where(edge[:, None], on_top, lean - untilted))


_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(16)


INTEGRATE_P = 0.05  # a pair whose p as fitted is above this is not averaged over the fit


def _subset(o: _Outcomes, pairs: NDArray[np.bool_]) -> tuple[_Outcomes, NDArray[np.int64]]:
    """The outcomes of the `pairs` marked, their pairs numbered again from 0, and the old
    number of each new one."""
    old = np.flatnonzero(pairs)
    new = np.full(pairs.size, -1)
    new[old] = np.arange(old.size)
    rows = pairs[o.pair]
    return _Outcomes(new[o.pair[rows]], o.hand[rows], o.log_p[rows], o.value[rows],
                     o.centred[rows]), old


def pair_pvalues(t: Array, o: _Outcomes, n_pairs: int, shift_var: Array) -> Array:
    """P(T >= t) per pair over the fit's uncertainty: each direction slot's logits shifted by
    an independent normal of variance `shift_var` (pairs × 4). The tail's log-probability
    moves with the shifts almost along one line, its gradient (`_Tail.lean`) weighed by the
    variances; the p-value is averaged over that line by Gauss-Hermite (16 nodes), each node's
    tail worked out again exactly (the tail of a sum of rare events moves by orders of
    magnitude with its rates: a linear variance term, tried first, put a team's p at 3e-6
    where drawing the fit's weights put it at 1.3e-4).

    Only the pairs whose p as fitted is INTEGRATE_P or less are averaged: the average is the
    larger (the tail's probability is convex in the shift), and a pair above it, Bonferroni
    over its tests, is never a lead; at 1,000,000 hands the 16 nodes over all 8,610 pairs
    were half the model's time."""
    first = _tail(t, o, n_pairs)
    spread = shift_var * first.lean  # S·c
    scale = np.sqrt(np.maximum((first.lean * spread).sum(axis=1), 0.0))  # sqrt(c'Sc)
    unit = np.where(scale[:, None] > 0, spread / np.maximum(scale, 1e-300)[:, None], 0.0)
    out: Array = first.p.copy()
    averaged = (scale > 0) & (first.p <= INTEGRATE_P)
    if not averaged.any():
        return out
    few, old = _subset(o, averaged)
    p = np.zeros(old.size)
    for node, weight in zip(_NODES, _WEIGHTS / _WEIGHTS.sum(), strict=True):
        p += weight * _tail(t[old], few, old.size, unit[old] * node,
                            start=first.theta[old]).p
    out[old] = np.clip(p, 0.0, 1.0)
    return out


RECHECK_P = 0.01  # a pair this strong or stronger is judged again beside a stronger one


def _group_evidence(s: pl.DataFrame) -> pl.DataFrame:
    """Per group (`group`: 0..n-1) of spot rows (group, hand_id, slot, y, r, shift_var): its
    spots (cdr_n), collusion-consistent actions (cdr_k), T (cdr_t), T's mean (cdr_e) and
    p-value (cdr_p)."""
    # (a hand of more target spots than MAX_HAND_SPOTS keeps its first ones: 2^14 outcomes)
    s = (s.sort("group", "hand_id", "slot", "r")
         .filter(pl.int_range(pl.len()).over("group", "hand_id") < MAX_HAND_SPOTS)
         .with_columns(hand=pl.struct("group", "hand_id").rank("dense").cast(pl.Int64) - 1)
         .sort("group", "hand", "slot"))
    n = int(s["group"].max()) + 1  # type: ignore[arg-type]
    group, hand = s["group"].to_numpy(), s["hand"].to_numpy()
    slot, y, r = s["slot"].to_numpy(), s["y"].to_numpy(), s["r"].to_numpy()
    o = _outcomes(group, hand, slot, r)
    # the observed statistic: each hand's value at its observed actions
    log_inverse = np.bincount(hand, np.where(y, -np.log(r), 0.0))
    hand_group = np.zeros(log_inverse.size, np.int64)
    hand_group[hand] = group
    t = np.bincount(hand_group, hand_value(log_inverse), n)
    mean = np.bincount(o.pair, np.exp(o.log_p) * o.value, n)
    by_slot = s.group_by("group", "slot").agg(pl.col("shift_var").first())
    shift_var = np.zeros((n, 4))
    shift_var[by_slot["group"].to_numpy(), by_slot["slot"].to_numpy()] = (
        by_slot["shift_var"].to_numpy())
    counts = (pl.DataFrame({"group": np.arange(n)})
              .join(s.group_by("group").agg(cdr_n=pl.len().cast(pl.Int64),
                                            cdr_k=pl.col("y").sum().cast(pl.Int64)),
                    on="group", how="left")
              .with_columns(pl.col("cdr_n", "cdr_k").fill_null(0)))
    # (a group left without spots, all its hands taken away, shows nothing: p 1)
    p = np.where(counts["cdr_n"].to_numpy() > 0, pair_pvalues(t, o, n, shift_var), 1.0)
    return counts.with_columns(cdr_t=pl.Series(t), cdr_e=pl.Series(mean), cdr_p=pl.Series(p))


def _present_in_hands(spots: pl.DataFrame) -> pl.DataFrame:
    """(hand_id, absent) of every player at or acting at a target spot of each hand."""
    return pl.concat([spots.select("hand_id", absent="player"),
                      spots.select("hand_id", absent="at").explode("absent")
                      .filter(pl.col("absent").is_not_null())]).unique()


def without_hands(rows: pl.DataFrame, jobs: pl.DataFrame, hands: pl.DataFrame) -> pl.DataFrame:
    """Per job (`jobs`: group 0..n-1, player_a, player_b, absent) the p-value of its pair on
    the pair's hands other than those of `hands` (hand_id, absent) for its absent player
    (group, cdr_p), from the pair's rows of the first pass (`rows`: player_a, player_b,
    hand_id, slot, y, r, shift_var: `evidence_and_rows`), each spot at the rate fitted then;
    1 where fewer than MIN_SPOTS spots are left (it cannot stand)."""
    kept = (rows.join(jobs, on=["player_a", "player_b"])
            .join(hands, on=["hand_id", "absent"], how="anti"))
    out = jobs.select("group")
    if kept.height == 0:
        return out.with_columns(cdr_p=pl.lit(1.0))
    judged = _group_evidence(kept.select("group", "hand_id", "slot", "y", "r", "shift_var"))
    return (out.join(judged.select("group", "cdr_p", "cdr_n"), on="group", how="left")
            .select("group", cdr_p=pl.when(pl.col("cdr_n") >= MIN_SPOTS).then("cdr_p")
                    .otherwise(1.0).fill_null(1.0)))


def _rechecked(evidence: pl.DataFrame, rows: pl.DataFrame, spots: pl.DataFrame) -> pl.DataFrame:
    """`evidence` (per pair, cdr_p) with each strong pair (cdr_p <= RECHECK_P) judged again
    without the hands of the third player of each stronger pair it shares a player with: its
    p the largest of them all. A team's strong evidence spills onto a stranger at its table
    (the stranger is present at the team's check-downs), and without the partner's hands the
    stranger's evidence goes; the team's does not go without the stranger's, and the weaker
    pair is judged beside the stronger, never the other way round. A larger p than the pair's
    own stays a valid p-value."""
    strong = evidence.filter(pl.col("cdr_p") <= RECHECK_P).select("player_a", "player_b",
                                                                  "cdr_p")
    # each strong pair from both its players' side (player, other), joined on the player with
    # the stronger pairs he is in: the stronger pair's other player is the one left out
    sides = pl.concat([strong.select("player_a", "player_b", "cdr_p", player="player_a",
                                     other="player_b"),
                       strong.select("player_a", "player_b", "cdr_p", player="player_b",
                                     other="player_a")])
    job = (sides.join(sides.select("player", absent="other", stronger="cdr_p"), on="player")
           .filter((pl.col("stronger") < pl.col("cdr_p")) & (pl.col("absent") != pl.col("other")))
           .select("player_a", "player_b", "absent").unique()
           .sort("player_a", "player_b", "absent").with_row_index("group")
           .with_columns(pl.col("group").cast(pl.Int64)))
    if job.height == 0:
        return evidence
    again = job.join(without_hands(rows, job, _present_in_hands(spots)), on="group")
    worst = again.group_by("player_a", "player_b").agg(recheck=pl.col("cdr_p").max())
    return (evidence.join(worst, on=["player_a", "player_b"], how="left")
            .with_columns(cdr_p=pl.max_horizontal("cdr_p", pl.col("recheck").fill_null(0.0)))
            .drop("recheck"))


def pair_evidence(spots: pl.DataFrame, base: pl.DataFrame) -> pl.DataFrame:
    """Per pair (PAIR_SCHEMA, player_a < player_b) tested (MIN_SPOTS target spots or more over
    both directions and both kinds): its spots (cdr_n), collusion-consistent actions (cdr_k),
    statistic T (cdr_t), T's mean under the honest rates (cdr_e) and p-value (cdr_p), a strong
    pair beside a stronger one judged again without its third player's hands (`_rechecked`)."""
    return evidence_and_rows(spots, base)[0]


def evidence_and_rows(spots: pl.DataFrame, base: pl.DataFrame
                      ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`pair_evidence`, and the tested pairs' spots with their fitted rates (player_a,
    player_b, hand_id, slot, y, r, shift_var): what `without_hands` judges a pair again on."""
    # (one BLAS thread: the fits are small, and OpenBLAS's threads spinning on them with both
    # cores busy made them 65 times slower, `Design`)
    with threadpool_limits(limits=1, user_api="blas"):
        return _pair_evidence(spots, base)


def _pair_evidence(spots: pl.DataFrame, base: pl.DataFrame
                   ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`evidence_and_rows`."""
    pairs = candidate_pairs(spots)
    directions = [d for kind in KINDS for d in direction_rates(spots, base, kind, pairs)]
    if not directions:
        return pl.DataFrame(schema=PAIR_SCHEMA), pl.DataFrame(schema=ROW_SCHEMA)
    sizes = [len(d.hand_id) for d in directions]
    firsts = [min(d.player, d.partner) for d in directions]
    all_rows = pl.DataFrame({
        "player_a": np.repeat(firsts, sizes),
        "player_b": np.repeat([max(d.player, d.partner) for d in directions], sizes),
        "hand_id": [h for d in directions for h in d.hand_id],
        "slot": np.repeat([KINDS.index(d.kind) * 2 + (d.player != a)
                           for d, a in zip(directions, firsts, strict=True)], sizes),
        "y": np.concatenate([d.y for d in directions]),
        "r": np.concatenate([d.r for d in directions]),
        "shift_var": np.repeat([d.shift_var for d in directions], sizes)},
        schema=ROW_SCHEMA)
    tested = (all_rows.group_by("player_a", "player_b").len()
              .filter(pl.col("len") >= MIN_SPOTS).select("player_a", "player_b")
              .sort("player_a", "player_b").with_row_index("group")
              .with_columns(pl.col("group").cast(pl.Int64)))
    if tested.height == 0:
        return pl.DataFrame(schema=PAIR_SCHEMA), pl.DataFrame(schema=ROW_SCHEMA)
    mine = all_rows.join(tested, on=["player_a", "player_b"])
    evidence = tested.join(_group_evidence(mine.drop("player_a", "player_b")), on="group")
    mine = mine.drop("group")
    return _rechecked(evidence, mine, spots).select(*PAIR_SCHEMA), mine
