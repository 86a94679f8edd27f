"""Collusion leads: per-pair p-values from explicit null models, Benjamini–Hochberg, evidence.

Null model per feature (`FEATURES`; baselines are leave-pair-out: the player's behaviour against
everyone except this partner, shrunk toward the population rate with ALPHA pseudo-observations):

- softplay (PATTERN-SOFTPLAY): bets/raises of A and B in heads-up pots against each other;
  binomial lower tail against the mean of the rates an actor × opponent model fitted over all
  pairs gives A against B and B against A (`fitted_factors`, without this pair; the pairs far
  off the model left out of it, `HEADS_UP`, fits.fit): each one's heads-up aggression and how
  much the other draws from his opponents, both measured against others.
- hu_aggression (PATTERN-CHIP-DUMP): the same counts, upper tail: a pair that bets and raises
  into each other heads-up far more than they do heads-up against others (the dumper's large
  bets into his receiver, the receiver's raises he folds to).
- fold_to_partner (PATTERN-COLLUSION): folds to the partner's bet or raise; binomial upper tail
  against the sum over the folder's entry strata (features.ENTRY: not entered, entered calling,
  raised preflop: the range he folds from) of one less the rate a folder × bettor fit of
  continues (calls and raises facing the other's bets) over all pairs gives (`DIRECTED`).
- strong_fold (PATTERN-COLLUSION): folds of known strong hole cards to the partner's bets;
  binomial upper tail against a folder × bettor fit of such folds over all pairs (`DIRECTED`).
- chip_dump (PATTERN-CHIP-DUMP): net flow between the pair in big blinds (blinds lost without
  entering the pot left out); randomisation (sign-flip) null after removing the flow expected
  from the players' skill (each player's net big blinds per big blind of pot in his flowing
  hands against everyone but this partner, times the pair's pots); two-sided Hoeffding bound
  2·exp(-z²/2), valid whatever the pot sizes.
- heavy_fold (PATTERN-CHIP-DUMP): folds to the partner's bet after investing HEAVY_BB big blinds
  or more, among the folds to the partner after putting chips in of one's own will (a preflop
  fold without entering gives up a blind at most, and how many of those a bettor draws is his
  seat: features.pair_hands, `ifold_a`); binomial upper tail with rate f_A·g_B: the folder's and
  the bettor's factors in a folder × bettor model fitted over all pairs (`fitted_factors`,
  without this pair's folds); quasi-binomial with a pair random effect (`_pair_effect`).
- whipsaw (PATTERN-WHIPSAW): hands where both raised and a third player called in between;
  binomial upper tail with rate u_A·u_B·t_A·t_B: each player's rate of betting or raising in
  the pair's multiway hands (the double raises independent raising makes), times each one's
  factor fitted over all pairs (`fitted_factors`, without this pair): how often his double
  raises with the others he met caught a third player. Also against u_A·u_B·c, c the
  population share of double raises that catch a third player (excess of joint raising over
  independent raising). And the raises around a third player: of the multiway hands both bet
  or raised in, those in which both did on a street after the flop while a third player was
  still in with chips (whether he called or folded; read from the events, audit/collusion/
  streets.py; without them, the hands both did after the preflop round), binomial upper tail
  against a robust fit over all pairs of each one's such share with the others he met
  (`WHIPSAW_STREETS`, `WHIPSAW_RAISES`, fits.fit; the pair and the pairs far off the fit left
  out of it), over the fit's uncertainty and with a pair random effect (the larger p of
  the two). The smallest p of the three, times 3 (Bonferroni).
- checkdown (PATTERN-CHECKDOWN-ALLIN): check-downs among the hands in which both stayed in with
  chips behind a third player's all-in (counted whatever happened next); binomial upper tail
  with rate R·(q_A/Q)·(q_B/Q): the population's rate R without this pair, times each player's
  share of hands checked down among his own hands behind an all-in (per hand, without this
  pair's chances) over everyone's share Q.
- checkdown_bets (PATTERN-CHECKDOWN-ALLIN; tested only when the events were read,
  audit/collusion/streets.py): the streets after a third player's all-in on which both players
  had chips, and their bets and raises there (per player-street); binomial lower tail against
  the mean of the rates an actor × opponent model fitted over all pairs' such streets gives A
  against B and B against A (`DIRECTED`, robust: pairs far off it leave it, fits.fit), without
  this pair's streets.
- checkdown_follow (PATTERN-CHECKDOWN-ALLIN; tested only when the events were read,
  audit/collusion/streets.py): preflop, a player's answers to a third player's bet or raise
  when that player started the hand short (under streets.SHORT_STACK_BB big blinds) or raised
  all-in, with his own hole cards known and the partner still in; per direction, his continues
  (calls and raises) there, binomial upper tail (quasi-binomial) against the sum over those
  spots of his own continue rate at the same starting-hand strength in his spots without the
  partner in (counted with the events); the two directions combined by Fisher's method (one
  member following the short stacks beside the other is evidence).
- checkdown_range (PATTERN-CHECKDOWN-ALLIN; tested only when the events were read,
  audit/collusion/streets.py): each player's continues facing a short stack's or all-in
  preflop raise and his checks when checked to behind a third player's all-in, with the partner
  in, weighed against his own range (the rate of the action with those cards in his spots
  without the partner in, a threshold curve over the population's strength order), each hand
  one mixture term; saddlepoint upper tail over the fit's uncertainty, a strong pair beside a
  stronger one judged again without its third player's hands (audit/collusion/ranges.py).
- softplay_streets (PATTERN-SOFTPLAY; tested only when the events were read,
  audit/collusion/streets.py): the streets on which only A and B were left, both with chips, of
  pots three or more saw the flop of, and their bets and raises there (per player-street);
  binomial lower tail against the actor × opponent fit's rates, as checkdown_bets.
- card_share (PATTERN-COLLUSION): where both starting hands are known (button games; Chen
  points of the best two hole cards) and the stronger one entered voluntarily: how often the
  weaker entered too; binomial lower tail with rate weak·pull: the weaker player's entry rate
  when another player entered with a better hand than his, times the stronger player's pull
  (how often others joined his stronger hands over what their own such entry rates predict).
  Hole-card sharing: the weaker of the two hands folds so that only the stronger plays.
  Quasi-binomial with a pair random effect (`_pair_effect`).
- co_entry (PATTERN-COLLUSION): hands both entered voluntarily, as a log odds ratio against
  independent entry at each one's rate in the pair's hands, in the hands A acted first preflop
  and in those B did apart, each less the baseline of an additive fit over all pairs' orders
  (order_fit: the first actor's effect acting first plus the second's acting second, each
  without the pair's own hands; an aggressive player's raises cut the entries of whoever acts
  after him; a partner far off it left out; each order weighted 1/(variance + τ²₀), τ²₀ the
  orders' random effect measured on the run's long pairs, the re-checks' the first pass's),
  the two combined by inverse variance (`_co_entry_residual`), standardised (z) against its
  sampling and baseline variance plus a pair random effect τ² measured on the long pairs
  (`_pair_variance`), then centred and scaled by the median and MAD of all tested pairs' z
  (empirical null); lower normal tail. Hole-card sharing and team play show as partners who
  seldom contest the same pot with each other only, in either order.
- seating (PATTERN-COLLUSION): table-days shared; Poisson upper tail with the mean expected if
  each sitting picked any table open that day at random. Reported as evidence only, not combined
  (SEATING_NOTE).

Every baseline of a pair leaves out the players' partners (`partners_of`: the pairs in which one
player almost never folds to the other's bets), unless the pair is one of them.

A pair is tested when it shares at least `min_hands` hands; a feature is tested when its own
minimum sample (MIN_SAMPLE) is met. The pair's p-value is Bonferroni over its tested features
(m · min p), and Benjamini–Hochberg over all tested pairs, weighted by the hands each pair
played together (`pair_qvalues`), gives the q-values; a lead is a pair
with q <= fdr. A lead is a suspicion with evidence, never a verdict (RULEBOOK §4.17, level X).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion import fits as FT
from audit.collusion import order_fit as OF
from audit.collusion import ranges as RG
from audit.collusion import streets as S
from audit.collusion.stats import (
    CHI2_1_MEDIAN,
    bh_qvalues,
    binom_cdf,
    binom_sf,
    empirical_null_params,
    normal_cdf,
    poisson_sf,
    signflip_p,
    weighted_bh_qvalues,
)
from audit.rules.ids import (
    PATTERN_CHECKDOWN_ALLIN,
    PATTERN_CHIP_DUMP,
    PATTERN_COLLUSION,
    PATTERN_SOFTPLAY,
    PATTERN_WHIPSAW,
)

SEATING_NOTE = (
    "seating is reported but not combined into the pair p-value: pairs are selected for testing "
    "because they shared min_hands hands, which conditions on having sat together")
ALPHA = 20.0  # pseudo-observations of the population rate in each player's baseline
EVIDENCE = 10  # hand ids per lead


@dataclass(frozen=True, slots=True)
class Feature:
    """A pair feature: the rule id it points to and its minimum sample size."""

    name: str
    rule_id: str
    title: str
    min_sample: int


# On a tie for the smallest p (tails beyond 1e-308 all read 0) the first listed names the lead:
# a transfer of chips before the betting patterns that come with it (a dumper never bets into
# his receiver, which also reads as soft play).
FEATURES = (
    Feature("chip_dump", PATTERN_CHIP_DUMP, "chip dumping", 10),
    Feature("heavy_fold", PATTERN_CHIP_DUMP, "folding to the partner after heavy investment",
            10),
    Feature("hu_aggression", PATTERN_CHIP_DUMP, "betting into each other heads-up", 10),
    Feature("softplay", PATTERN_SOFTPLAY, "soft play", 10),
    Feature("softplay_streets", PATTERN_SOFTPLAY,
            "soft play on the streets two were left in a multiway pot", 10),
    Feature("whipsaw", PATTERN_WHIPSAW, "whipsawing", 20),
    Feature("checkdown", PATTERN_CHECKDOWN_ALLIN, "check-downs with a third player all-in", 3),
    Feature("checkdown_bets", PATTERN_CHECKDOWN_ALLIN,
            "no bets into the side pot behind a third player's all-in", 5),
    Feature("checkdown_follow", PATTERN_CHECKDOWN_ALLIN,
            "following a short stack into the pot beside the partner", S.FOLLOW_MIN_SPOTS),
    Feature("checkdown_range", PATTERN_CHECKDOWN_ALLIN,
            "continuing and checking beside the partner beyond his own range", RG.MIN_SPOTS),
    Feature("co_entry", PATTERN_COLLUSION, "seldom entering the same pot", 20),
    Feature("fold_to_partner", PATTERN_COLLUSION, "folding to the partner", 10),
    Feature("strong_fold", PATTERN_COLLUSION, "folding strong hands to the partner", 5),
    Feature("card_share", PATTERN_COLLUSION, "the weaker of the two hands folding", 20),
    Feature("seating", PATTERN_COLLUSION, "sitting together beyond chance", 3),
)
MIN_SAMPLE = {f.name: f.min_sample for f in FEATURES}

LEAD_SCHEMA = pa.schema([
    ("rank", pa.int32()), ("run_id", pa.string()), ("player_a", pa.string()),
    ("player_b", pa.string()), ("player", pa.string()), ("counterparty", pa.string()),
    ("pattern", pa.string()), ("score", pa.float64()), ("p_value", pa.float64()),
    ("q_value", pa.float64()), ("hands", pa.int64()), ("delta", pa.int64()),
    ("features", pa.string()), ("evidence_hand_ids", pa.list_(pa.string())),
    ("message", pa.string()), ("team", pa.list_(pa.string())),
])


def _shrunk(k: Any, n: Any, prior: float) -> Any:
    return (np.asarray(k, float) + ALPHA * prior) / (np.asarray(n, float) + ALPHA)


def _ratio(k: Any, n: Any) -> float:
    total = float(np.sum(n))
    return float(np.sum(k)) / total if total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class _Pool:
    """What the population-wide parts of the null models (rates over all pairs, dispersion,
    empirical null) are taken over: all the pairs scored together, or, `lone`, each pair on its
    own — the overlap re-check judges each pair as if it were the only one (one-row tables),
    and scores many such pairs in one call without letting them see each other.

    `spread`: per test, the population's spread (dispersion φ, the empirical null's centre and
    scale) measured over all the pairs (`measure`), for a lone pair, which has too few pairs to
    measure it, to be judged with it: judged with φ = 1 and no empirical null, a pair re-checked
    on part of its hands read as far stronger evidence than the first pass had found on all of
    them (a stranger's 407 folds in 421 to a colluder where 373 were expected: p 1e-7 alone,
    where the first pass, with the population's φ, read 1266 such folds as 1e-17), and the
    overlap re-check compares leads on those p-values. `measured`: where a pass over all the
    pairs writes the spreads it measured (`spread_of`)."""

    lone: bool = False
    spread: tuple[tuple[str, float], ...] = ()
    measured: dict[str, float] | None = None

    def dispersion(self, name: str | None, k: Any, n: Any, p0: Any, use: Any) -> float:
        """φ of the test `name` (`_dispersion`): measured over the pairs, or the population's
        (`spread`) for a lone pair, 1 when unknown."""
        known = dict(self.spread)
        if name is not None and name in known:
            return known[name]
        if self.lone:
            return 1.0
        phi = _dispersion(k, n, p0, use)
        if self.measured is not None and name is not None:
            self.measured[name] = phi
        return phi

    def _carried(self, key: str, measure: Callable[[], float]) -> float:
        """A parameter measured over the population of pairs: the population's (`spread`) if
        known, 0 for a lone pair that does not know it, else `measure()`, kept in `measured`."""
        known = dict(self.spread)
        if key in known:
            return known[key]
        if self.lone:
            return 0.0
        value = measure()
        if self.measured is not None:
            self.measured[key] = value
        return value

    def known(self, key: str) -> float | None:
        """The population's value of `key` (`spread`), None when not carried."""
        return dict(self.spread).get(key)

    def record(self, key: str, value: float) -> None:
        """Keep `value`, measured over all the pairs, in `measured` (for the re-checks)."""
        if not self.lone and self.measured is not None and key not in dict(self.spread):
            self.measured[key] = value

    def pair_effect(self, name: str, k: Any, n: Any, p0: Any, use: Any) -> float:
        """ρ of the test `name` (`_pair_effect`): measured over the long pairs, or the
        population's (`spread`) for a lone pair, 0 when unknown."""
        return self._carried(f"{name}:rho", lambda: _pair_effect(k, n, p0, use))

    def pair_variance(self, name: str, resid: Any, var: Any, use: Any) -> float:
        """τ² of the test `name` (`_pair_variance`): measured over the long pairs, or the
        population's (`spread`) for a lone pair, 0 when unknown."""
        return self._carried(f"{name}:tau2", lambda: _pair_variance(resid, var, use))

    def z_dispersion(self, name: str, z: Any, use: Any) -> float:
        """As `dispersion`, of a z statistic (`_z_dispersion`)."""
        known = dict(self.spread)
        if name in known:
            return known[name]
        if self.lone:
            return 1.0
        phi = _z_dispersion(z, use)
        if self.measured is not None:
            self.measured[name] = phi
        return phi

    def null(self, name: str, z: Any, use: Any) -> Any:
        """z on the empirical null (`stats.empirical_null`) of the pairs, or the population's
        for a lone pair (z as it is when unknown)."""
        known = dict(self.spread)
        if f"{name}:centre" in known:
            return (np.asarray(z, float) - known[f"{name}:centre"]) / known[f"{name}:scale"]
        if self.lone:
            return z
        centre, scale = empirical_null_params(z, use)
        if self.measured is not None:
            self.measured.update({f"{name}:centre": centre, f"{name}:scale": scale})
        return (np.asarray(z, float) - centre) / scale

    def ratio(self, k: Any, n: Any) -> Any:
        if not self.lone:
            return _ratio(k, n)
        k, n = np.asarray(k, float), np.asarray(n, float)
        return np.divide(k, n, out=np.zeros_like(k), where=n > 0)

    def total(self, x: Any) -> Any:
        return np.asarray(x, float) if self.lone else np.sum(x)

    def floor(self, x: Any, low: float) -> Any:
        return np.maximum(x, low) if self.lone else max(x, low)


WHOLE, LONE = _Pool(), _Pool(lone=True)


def _dispersion(k: Any, n: Any, p0: Any, use: Any) -> float:
    """Overdispersion φ of a binomial feature across the tested pairs: the median Pearson χ²
    over its median under the binomial (robust to the few planted pairs), at least 1. Hands are
    not independent draws at one rate (tables, stacks and moods vary), and honest pairs show it."""
    k, n, p0 = (np.asarray(v, float) for v in (k, n, p0))
    e = n * p0
    ok = np.asarray(use, bool) & (e >= 3) & (n - e >= 3)
    if ok.sum() < 20:
        return 1.0
    chi = (k[ok] - e[ok]) ** 2 / (e[ok] * (1 - p0[ok]))
    return max(1.0, float(np.median(chi)) / CHI2_1_MEDIAN)


# A pair with this many trials of a test is long enough to show its own pair effect
# (`_pair_effect`): on issue 25's populations the pairs of regulars who sat together all day
# had 2,000 to 30,000, the pairs of a 60,000-hand population fewer than 2,000 but a few.
PAIR_EFFECT_N = 2000


def _pair_effect(k: Any, n: Any, p0: Any, use: Any) -> float:
    """The pair random effect ρ of a binomial test: each pair's rate is its baseline's give or
    take a share of its own, so that its count varies n·p·(1-p)·(1 + ρ·n) (beta-binomial), not
    n·p·(1-p). Measured on the long pairs (PAIR_EFFECT_N trials or more) as the median of
    (χ²/median χ²₁ - 1)/n (robust to the few planted pairs); 0 with fewer than 10 such pairs.

    No model of a pair's rate is exact: two regulars who sit together all day play each other
    a little unlike anyone else, and over 30,000 hands a difference of a few percent is many
    binomial standard deviations. One dispersion for all pairs (the median pair's, a short
    one) left the long honest pairs far off (issue 25, 500,000 hands, share 0.4, seed 1:
    heavy_fold and card_share 9 honest pairs below p 1e-4 against the fits; none with the pair
    effect: helper B2's measure)."""
    k, n, p0 = (np.asarray(v, float) for v in (k, n, p0))
    e = n * p0
    ok = np.asarray(use, bool) & (n >= PAIR_EFFECT_N) & (e >= 3) & (n - e >= 3)
    if ok.sum() < 10:
        return 0.0
    chi = (k[ok] - e[ok]) ** 2 / (e[ok] * (1 - p0[ok]))
    return max(0.0, float(np.median((chi / CHI2_1_MEDIAN - 1) / n[ok])))


# A pair with this many hands together is long enough to show its own co-entry
# (`_pair_variance`)
PAIR_VARIANCE_HANDS = 5000


def _pair_variance(resid: Any, var: Any, use: Any) -> float:
    """The pair random effect τ² of a normal test (a residual `resid` of sampling variance
    `var` per pair): each pair's true value its baseline's give or take a normal of variance τ²,
    measured on the pairs `use` (the long ones) as the median of resid²/median χ²₁ - var
    (robust to the few planted pairs), at least 0; 0 with fewer than 10 such pairs (as
    `_pair_effect`)."""
    resid, var = np.asarray(resid, float), np.asarray(var, float)
    ok = np.asarray(use, bool) & np.isfinite(resid)
    if ok.sum() < 10:
        return 0.0
    return max(0.0, float(np.median(resid[ok] ** 2 / CHI2_1_MEDIAN - var[ok])))


def _phi(k: Any, n: Any, p0: Any, use: Any, pool: _Pool, name: str | None,
         pair_effect: bool) -> Any:
    """φ of the test `name` (`_Pool.dispersion`); with `pair_effect`, per pair: the larger of
    the short pairs' φ and 1 + ρ·n (`_Pool.pair_effect`)."""
    if not pair_effect or name is None:
        return pool.dispersion(name, k, n, p0, use)
    n = np.asarray(n, float)
    short = np.asarray(use, bool) & (n < PAIR_EFFECT_N)
    return np.maximum(pool.dispersion(name, k, n, p0, short),
                      1 + pool.pair_effect(name, k, n, p0, use) * n)


def _quasi_sf(k: Any, n: Any, p0: Any, use: Any, pool: _Pool = WHOLE,
              name: str | None = None, pair_effect: bool = False) -> Any:
    """Quasi-binomial upper tail: the binomial tail of k/φ successes in n/φ trials (φ of the
    test `name`: `_Pool.dispersion`; with `pair_effect`, per pair: `_phi`)."""
    phi = _phi(k, n, p0, use, pool, name, pair_effect)
    return binom_sf(np.asarray(k, float) / phi, np.asarray(n, float) / phi, p0)


def _quasi_cdf(k: Any, n: Any, p0: Any, use: Any, pool: _Pool = WHOLE,
               name: str | None = None, pair_effect: bool = False) -> Any:
    """Quasi-binomial lower tail (as `_quasi_sf`)."""
    phi = _phi(k, n, p0, use, pool, name, pair_effect)
    return binom_cdf(np.asarray(k, float) / phi, np.asarray(n, float) / phi, p0)


def _z_dispersion(z: Any, use: Any) -> float:
    """Overdispersion of a z statistic across the tested pairs (median z² over its median)."""
    z = np.asarray(z, float)[np.asarray(use, bool)]
    z = z[np.isfinite(z)]
    if z.size < 20:
        return 1.0
    return max(1.0, float(np.median(z * z)) / CHI2_1_MEDIAN)


def _odds_product(p1: Any, p2: Any, base: Any) -> Any:
    """The rate whose odds are odds(p1)·odds(p2)/odds(base): two players' tendencies, each
    measured against the rate `base` of where they were measured, combined."""
    p1, p2, base = (np.clip(x, 1e-6, 1 - 1e-6) for x in (p1, p2, base))
    odds = (p1 / (1 - p1)) * (p2 / (1 - p2)) / (base / (1 - base))
    return np.clip(odds / (1 + odds), 1e-6, 1 - 1e-6)


def _symmetric_fit(x: Any, y: Any, n: Any, k: Any, players: int, prior: float,
                   rounds: int = 30) -> tuple[Any, Any]:
    """Fit k ~ n · f(x) · f(y) over the rows (x, y) of a pair table, one factor per player, by
    iterative proportional fitting (a Poisson log-linear model), each factor shrunk toward
    `prior` by ALPHA pseudo-observations. Returns (f, d): the factors and their denominators
    (Σ n · f(other) over each player's rows), from which one row's own counts are taken out for
    a leave-pair-out factor."""
    kk = np.bincount(x, k, players) + np.bincount(y, k, players)
    f = np.full(players, prior)
    for _ in range(rounds):
        f = (kk + ALPHA * prior) / (np.bincount(x, n * f[y], players)
                                    + np.bincount(y, n * f[x], players) + ALPHA)
    return f, np.bincount(x, n * f[y], players) + np.bincount(y, n * f[x], players)


def _whipsaw_exposure(raised_a: Any, raised_b: Any, multiway: Any) -> Any:
    """The hands in which both players of a pair bet or raised that their own rates in their
    multiway hands together predict by chance: n · (ga / n) · (gb / n)."""
    return raised_a * raised_b / np.maximum(multiway, 1.0)


@dataclass(frozen=True, slots=True)
class Directed:
    """A directed test's counts, fitted actor × opponent (fits.fit, `fitted_factors`'
    `{prefix}_` columns): per pair, A's chances against B (column `n[0]`) and what he did with
    them (`k[0]`), B's against A (`n[1]`, `k[1]`); of entry stratum `stratum` only
    (features.ENTRY, `_entry_stratum`) when given; `continues`: the chances he did not take
    (a fold test fits the calls and raises: `_fold_to_partner`)."""

    prefix: str
    n: tuple[str, str]
    k: tuple[str, str]
    stratum: int | None = None
    continues: bool = False


# Heads-up aggression (softplay, hu_aggression), actor × opponent: in their heads-up pots
# against each other A bets or raises (beyond one preflop raise) in about `sp_f`(A) ·
# `sp_g`(B) of them. Not each one's rate against everyone else: how often a player bets depends
# on whom he faces (a passive opponent checks to him, an aggressive one bets first and leaves
# him a call or a raise). A loose-aggressive regular bet in 62% of his heads-up pots against a
# passive whipsaw player and in 46-55% against the other regulars at his table: on the rulebook
# population of issue 25 (500,000 hands, share 0.4, seed 1) two regulars who never left the
# whipsaw team's table read as soft play (3,059 bets where 3,412 were expected, p = 0), each
# regular with the passive team member as betting into each other (p 4e-15); over all pairs 21
# honest pairs read below 1e-4 one way and 9 the other. Against the fit (partners left out,
# `partners_of`) 3,117 were expected (p 0.07), no honest pair read below p 0.01, and every
# planted soft-play and chip-dump pair stayed below 1e-8.
# Robust (fits.fit): a team the fold deficit does not make partners bent its own players'
# factors while it was in the fit (at 200,000 hands, seed 1, a soft player's factor, lowered by
# his 0.08 rate against his partner, 0.22 against the others, made his pots with the regulars
# at his table read as betting into each other: 287 bets where 227 were expected). Such a pair
# is far off a first fit and leaves it: on issue 25's populations (share 0.4) the pairs left
# out of the fit without partners were the soft-play teams that are no partners and nothing
# else (two at 200,000 hands seeds 1 and 2, one at 500,000 hands seed 1, none on the clean
# 500,000 hands); at seed 2 the first fit also had an honest pair far off it, and the next one,
# without the teams, took it back.
HEADS_UP = Directed("sp", ("hu_n", "hu_n"), ("soft_ka", "soft_kb"))
# The directed tests judged against robust actor × opponent fits (`_directed_rates`): bets on
# streets only the pair was left on (softplay_streets), bets behind a third player's all-in
# (checkdown_bets), strong-hand folds (strong_fold), and continues facing the other's bets per
# entry stratum (fold_to_partner). Each player's rate against everyone else mixed the
# opponents he met: honest pairs who sit together all day read as leads (issue 25).
DIRECTED = (Directed("ss", ("hus_n", "hus_n"), ("hus_ka", "hus_kb")),
            Directed("cb", ("cdx_n", "cdx_n"), ("cdx_ka", "cdx_kb")),
            Directed("sf", ("sfa_n", "sfb_n"), ("sfa_k", "sfb_k")),
            *(Directed(f"fp{s}", ("fa_n", "fb_n"), ("fa_k", "fb_k"), s, continues=True)
              for s in range(len(F.ENTRY))))
STRONG_FOLD, CHECKDOWN_BETS, SOFTPLAY_STREETS = DIRECTED[2], DIRECTED[1], DIRECTED[0]
# Whipsaw raises: of the multiway hands in which both bet or raised (`ws_both`), those in which
# both did after the preflop round (`ws_post`), a whipsaw's bets and raises around the third
# player; about ws_both · t(A) · t(B), fitted over all pairs (fits.fit, both directions of each
# pair alike: the rate is the mean of the two), pairs far off it left out of it. Honest double
# raises in a multiway pot are mostly a raise and a re-raise before the flop, after which one
# bets and the other calls or folds: 16% of them go on with both betting after the flop on
# issue 25's populations, 49-71% of a whipsaw team's. Counted against the pair's own double
# raises, not against the hands the pair's raising rates predict: a whipsaw team's raises are
# its own rates, and a team whose table emptied (share 0.8, seed 2: heads-up from its 600th
# hand on, 583 multiway hands in 6,000) has few hands to be measured in.
WHIPSAW_RAISES = Directed("wr", ("ws_both", "ws_both"), ("ws_post", "ws_post"))
# ... and, where the events were read (audit/collusion/streets.py), the hands in which both bet
# or raised on a street after the flop while a third player who started it with chips was still
# in (`wss_k`) in place of those both did after the preflop round (`ws_post`): a chip dumper bets
# and his receiver raises after the flop once the pot is heads-up (or the third player has
# folded to the dumper's bet), which the hand's counts cannot tell from raising around a third
# player, and every chip-dump team of issue 25's populations led on whipsaw (PATTERN-WHIPSAW;
# on their own tests now, 60,000 hands, session 20). The same fit (prefix `wr`), over all pairs.
WHIPSAW_STREETS = Directed("wr", ("ws_both", "ws_both"), ("wss_k", "wss_k"))
# every robust fit `fitted_factors` makes (fits.fit; the whipsaw raises' per `fitted_models`)
FITTED = (HEADS_UP, *DIRECTED, WHIPSAW_RAISES)


def whipsaw_raises(columns: Iterable[str]) -> Directed:
    """The whipsaw raises' counts of a pair table with `columns`: the events' streets when read
    (`WHIPSAW_STREETS`), else the hands' (`WHIPSAW_RAISES`)."""
    return WHIPSAW_STREETS if "wss_k" in columns else WHIPSAW_RAISES


def fitted_models(columns: Iterable[str]) -> tuple[Directed, ...]:
    """The robust fits made of a pair table with `columns` (`FITTED`, the whipsaw raises' of
    `whipsaw_raises`)."""
    return (*FITTED[:-1], whipsaw_raises(columns))


# the pair-table columns they read (those of the entry strata too; and the whipsaw streets')
DIRECTED_INPUT = tuple(dict.fromkeys(
    c for d in (*DIRECTED, WHIPSAW_STREETS) for c0 in (*d.n, *d.k)
    for c in ((c0,) if d.stratum is None else
              (c0, *(f"{c0[:2]}{s}{c0[2:]}" for s in range(1, len(F.ENTRY)))))))


def _directed_column(g: Mapping[str, Any], d: Directed, c: str, whole: bool = False) -> Any:
    """Column `c` of `d` (of its entry stratum, if any) from the columns `g` of a pair table;
    with `whole`, over all the pair's hands where the table holds part of them (`all_`
    columns, `_with_street_hands`)."""
    if whole and f"all_{c}" in g:
        return np.asarray(g[f"all_{c}"], float)
    return np.asarray(g[c] if d.stratum is None else _entry_stratum(g, c, d.stratum), float)


def _directed_counts(g: Mapping[str, Any], d: Directed,
                     whole: bool = False) -> tuple[Any, Any, Any, Any]:
    """A's chances against B, B's against A, and what each did with them (`Directed`, as
    `_directed_column`)."""
    n_ab, n_ba, k_ab, k_ba = (_directed_column(g, d, c, whole) for c in (*d.n, *d.k))
    if d.continues:
        k_ab, k_ba = n_ab - k_ab, n_ba - k_ba
    return n_ab, n_ba, k_ab, k_ba


def _directed_rates(g: Mapping[str, Any], d: Directed) -> tuple[Any, Any]:
    """The rates the fit of `d` (`fitted_factors`) gives A against B and B against A, each
    without the pair's own counts where it was in the fit (fits.lpo_rate); a pair far off the
    fit had left it (fits.in_fit), and taking its counts out again took them out of its
    players' factors twice."""
    a, b = ({f"{d.prefix}_{c}": g[f"{d.prefix}_{c}__{x}"] for c in FT.COLUMNS}
            for x in ("a", "b"))
    n_ab, n_ba, k_ab, k_ba = _directed_counts(g, d, whole=True)
    fitted = FT.in_fit(a, b, d.prefix, n_ab, n_ba, k_ab, k_ba)
    return (FT.lpo_rate(a, b, d.prefix, n_ab, k_ab, fitted)[0],
            FT.lpo_rate(b, a, d.prefix, n_ba, k_ba, fitted)[0])


FIT_SCHEMA = {"player": pl.String, "ws_t": pl.Float64, "ws_d": pl.Float64, "ws_r": pl.Float64,
              "hf_a": pl.Float64, "hf_b": pl.Float64, "hf_nb": pl.Float64,
              "ind_na": pl.Float64, "hf_r": pl.Float64,
              "sp_f": pl.Float64, "sp_g": pl.Float64, "sp_dx": pl.Float64, "sp_dy": pl.Float64,
              "sp_kx": pl.Float64, "sp_ky": pl.Float64, "sp_r": pl.Float64,
              "sp_f0": pl.Float64, "sp_g0": pl.Float64} | {
                  f"{d.prefix}_{c}": pl.Float64 for d in (*DIRECTED, WHIPSAW_RAISES)
                  for c in FT.COLUMNS} | {f"ce_{c}": pl.Float64 for c in OF.COLUMNS}


def fitted_factors(table: pl.DataFrame, keep: pl.Series | None = None,
                   fit_tau2: float | None = None) -> pl.DataFrame:
    """Per player, his factors in models fitted over all pairs of the pair table `table`, the
    baselines of tests whose rate depends on both players' styles at once.

    - whipsaw (`_symmetric_fit`): the multiway hands of A and B in which both raised around a
      caught third player number about E · `ws_t`(A) · `ws_t`(B), where E = `_whipsaw_exposure`
      is the double raises their own raising rates in those hands make by chance (`ws_r`: the
      population's whipsaws per such double raise; `ws_d`: the player's exposure weighted by
      his partners' `ws_t`). A player's factor says how much more often than by chance his
      double raises with others catch a third player between them. And `wr_*`
      (`WHIPSAW_RAISES`, fits.fit, the columns of fits.COLUMNS): of the multiway hands both
      bet or raised in, the share both did after the preflop round, about `wr_f`(A) · `wr_g`(B)
      (both directions of each pair alike).
    - heavy folds (`_folder_bettor_fit`), folder × bettor: among X's folds to Y's bets after
      putting chips in of his own will (`ifa_k`), the share after a heavy investment is about
      `hf_a`(X) · `hf_b`(Y) (`hf_r`: the population share; `hf_nb`: X's folds weighted by
      his bettors' `hf_b`; `ind_na`: the folds Y drew weighted by the folders' `hf_a`).
    - heads-up aggression (`_folder_bettor_fit`), actor × opponent: in their heads-up pots
      against each other, A bets or raises (beyond one preflop raise) in about `sp_f`(A) ·
      `sp_g`(B) of them (`sp_r`: the population rate; `sp_dx`: A's pots weighted by his
      opponents' `sp_g`; `sp_dy`: the pots against B weighted by the actors' `sp_f`; `sp_kx`:
      A's bets, `sp_ky`: the bets against B; all over the pairs in the fit, those far off it,
      judged against `sp_f0` · `sp_g0`, left out: `HEADS_UP`, fits.fit). How often a player
      bets depends on whom he faces: a passive opponent checks to him, an aggressive one bets
      first and leaves him a call or a raise.
    - the other directed tests (`DIRECTED`: bets on streets only the pair was left on, bets
      behind a third player's all-in, strong-hand folds, continues facing bets per entry
      stratum), each a robust actor × opponent fit of its own (fits.fit, the same model and
      leave-out rule as the heads-up one): columns `{prefix}_f`, `_g`, `_dx`, `_dy`, `_kx`,
      `_ky`, `_r`, `_f0`, `_g0` (fits.COLUMNS), zero where the table has no such counts (no
      street counts read).
    - co-entry in preflop order (order_fit): the log odds ratio of entering together in the
      hands X acted before Y is about `ce_mu` + `ce_f`(X) + `ce_s`(Y), a robust weighted
      additive fit over both orders of every pair (columns order_fit.COLUMNS, prefixed `ce_`),
      its τ²₀ `fit_tau2` when given (a re-check's: the first pass's), else measured on these
      pairs (order_fit.fit).

    Each player's factor is measured against the very opponents he met, and theirs against
    theirs. The whipsaw baseline was E times the population's `ws_r` for every pair: loose-
    aggressive players seldom raise in the same hand (one raise is enough to take the pot), so
    it expected more whipsaws of two of them than they played, and a whipsawing team of two
    such players read as honest (p near 1 where the fitted factors give 2e-7). The heavy-fold
    baseline multiplied the folder's share of heavy folds against others by the bettor's share
    of heavy folds drawn from others, over the population's share: at a table of heavy bettors
    both shares are the table's, counted twice, and a chip dumper's 252 heavy folds to his
    partner in 2,386 hands read as no more than expected (p 0.9, 2e-12 fitted)."""
    if table.height == 0:
        return pl.DataFrame(schema=FIT_SCHEMA)
    names, idx = _player_index(table)
    m, h = len(names), table.height
    # the rows kept (all, or those where `keep` is true) a column at a time: a filtered copy of
    # the columns the fits read was the scoring's peak at 5,000,000 hands. A player of no row
    # kept gets the priors, and the caller's join on the kept rows' players drops him.
    rows = None if keep is None else np.flatnonzero(keep.to_numpy())
    a_, b_ = (idx[:h], idx[h:]) if rows is None else (idx[:h][rows], idx[h:][rows])
    g = _Floats(table, rows)
    num = g.__getitem__

    n, k = _whipsaw_exposure(num("ws_ga"), num("ws_gb"), num("ws_n")), num("ws_k")
    ws_r = float(k.sum() / n.sum()) if n.sum() > 0 else 0.0
    ws_t, ws_d = _symmetric_fit(a_, b_, n, k, m, float(np.sqrt(ws_r)))
    # heavy folds in both directions of each pair: A folding to B's bets, B to A's (among the
    # folds after putting chips in of one's own will: features.pair_hands, `ifold_a`)
    x, y = np.concatenate([a_, b_]), np.concatenate([b_, a_])
    n = np.concatenate([num("ifa_k"), num("ifb_k")])
    k = np.concatenate([num("hfa_k"), num("hfb_k")])
    hf_r = float(k.sum() / n.sum()) if n.sum() > 0 else 0.0
    hf_a, hf_b, hf_nb, ind_na = FT.ipf(x, y, n, k, m, hf_r)
    del n, k  # (the directed fits' arrays are the most at once: not these beside them)
    hu: dict[str, Any] = {}
    for d in fitted_models(table.columns):
        if all(c in table.columns for c in (*d.n, *d.k)):
            # both directions' rows, a column at a time: the four arrays and their copies
            # beside the fit's were its peak
            n = np.concatenate([_directed_column(g, d, c) for c in d.n])
            k = np.concatenate([_directed_column(g, d, c) for c in d.k])
            if d.continues:
                np.subtract(n, k, out=k)
            hu |= FT.fit(x, y, n, k, m, d.prefix)
            del n, k
        else:  # (no street counts read: their tests are not made)
            hu |= {f"{d.prefix}_{c}": np.zeros(m) for c in FT.COLUMNS}
    # co-entry in preflop order (order_fit): both orders of every pair as directed rows
    hu |= OF.fit(x, y, *OF.directed(num, len(a_)), m, fit_tau2)
    return pl.DataFrame({"player": names, "ws_t": ws_t, "ws_d": ws_d,
                         "ws_r": np.full(m, ws_r), "hf_a": hf_a, "hf_b": hf_b, "hf_nb": hf_nb,
                         "ind_na": ind_na, "hf_r": np.full(m, hf_r)} | hu, schema=FIT_SCHEMA)


def _player_index(table: pl.DataFrame) -> tuple[pl.Series, Any]:
    """The players of a pair table in sorted order, and each row's player_a then player_b as
    an index into them (np.unique's return_inverse, in polars: numpy made a Python string
    of every name of both columns and sorted those, 480 MB and 5 CPU-s on the 1.9M pairs of
    5,000,000 hands). Each name's place found by a binary search of the sorted names: a join
    of both columns with them built a copy of both and a hash table (+190 MB there, most of
    `fitted_factors`' peak)."""
    names = pl.concat([table["player_a"].unique(), table["player_b"].unique()]).unique().sort()
    idx = np.concatenate([names.search_sorted(table[f"player_{x}"]).to_numpy()
                          for x in ("a", "b")]).astype(np.int64)
    return names.rename("player"), idx


# The pair-table columns the fitted models read (`fitted_factors`)
FIT_INPUT = ("player_a", "player_b", "ws_ga", "ws_gb", "ws_n", "ws_k", "ws_both", "ws_post",
             "fa_k", "fb_k", "ifa_k", "ifb_k", "hfa_k", "hfb_k", "hu_n", "soft_ka", "soft_kb",
             "hands", "va", "vb", "vboth", "ce1_n", "ce1_va", "ce1_vb", "ce1_both")


def totals_of(baseline: pl.DataFrame, keep: pl.Series | None = None,
              fit_tau2: float | None = None) -> pl.DataFrame:
    """Per player, the totals over all his pairs of the pair table `baseline` (over its rows
    where the boolean series `keep` is true, when given: features.player_totals, a slice of
    pairs at a time) and his factors in the fitted models (`fitted_factors`, of the columns
    they read only, of the rows kept a column at a time: the rows kept of the whole table were
    a copy of it, 526 MB at 5,000,000 hands, and those of the columns the fits read were 1.0 of
    the table's size)."""
    fit = baseline.select(*FIT_INPUT, *(c for c in DIRECTED_INPUT if c in baseline.columns
                                        and c not in FIT_INPUT))
    return (F.player_totals_in_slices(baseline, keep)
            .join(fitted_factors(fit, keep, fit_tau2), on="player", how="left"))


# A bettor a player folds to so much less often than his own rates (entry stratum by stratum)
# say that the binomial lower tail is below this is his partner for the baselines
# (`partners_of`): a few honest directed pairs in a million are that far off, a partner whose
# bets the player raises or calls down is far further (a chip-dump receiver to his dumper 10 to
# 24 standard deviations below, a team of three's members to each other 5 to 13, on the
# rulebook populations of issue 25).
PARTNER_P = 3e-6
# ... and by this much: his folds at most this share of those his rates expect. Significance
# alone grows with the history: a regular's fold rate 3% off his model (a misfit, not a partner)
# is 5 standard deviations below it over 5,000 bets, and long-sitting honest pairs became
# partners (bending their players' baselines). Every partner the rulebook populations of
# issue 25 flagged folded at most 0.91 of his expected folds (chip-dump receivers 0.59 to 0.83,
# teams of three 0.61 to 0.91, soft players 0.62 to 0.79, whipsaw 0.86), their pairs' other
# direction included; the honest pairs flagged there 0.77 to 0.92.
PARTNER_FOLD_SHARE = 0.93


def _fold_deficit(k: list[Any], n: list[Any], rate: list[Any]) -> Any:
    """Per directed pair (a folder facing a bettor's bets), whether he folded far less often
    than his own rates (per entry stratum: folds `k` of `n`, the folder's rate `rate`) say:
    the binomial lower tail at their mean below PARTNER_P (a normal approximation flagged
    honest pairs: at a 99% fold rate two calls in 30 read as four standard deviations), and
    his folds at most PARTNER_FOLD_SHARE of the expected (however long the history, a small
    misfit is no partner)."""
    e = sum(np.asarray(nn, float) * rr for nn, rr in zip(n, rate, strict=True))
    total = sum(np.asarray(nn, float) for nn in n)
    folds = sum(np.asarray(kk, float) for kk in k)
    p0 = np.clip(np.divide(e, total, out=np.zeros_like(e), where=total > 0), 1e-9, 1 - 1e-9)
    return ((total > 0) & (folds <= PARTNER_FOLD_SHARE * e)
            & (binom_cdf(folds, total, p0) < PARTNER_P))


def _stratum_rate(k: Any, n: Any) -> Any:
    k, n = np.asarray(k, float), np.asarray(n, float)
    return np.divide(k, n, out=np.zeros_like(k), where=n > 0)


@dataclass(frozen=True, slots=True)
class Partners:
    """The pairs of a pair table whose players treat each other unlike anyone else (`pairs`:
    player_a, player_b), the players' totals without them (`totals`, as `totals_of`) and, per
    partner pair that shares a player with another (`own`: `pair_a`, `pair_b`, then as
    `totals`), its players' totals without the other partner pairs."""

    pairs: pl.DataFrame
    totals: pl.DataFrame
    own: pl.DataFrame | None = None


class _Floats(Mapping[str, Any]):
    """The numeric columns of a frame as float arrays, each made when asked for and not kept
    (all of them kept at once are 8 bytes a pair each, for columns read once or twice)."""

    def __init__(self, frame: pl.DataFrame, rows: Any = None) -> None:
        self.frame, self.rows = frame, rows  # (`rows`: of these row numbers only, when given)
        self.names = [c for c in frame.columns if frame[c].dtype.is_numeric()]

    def __getitem__(self, name: str) -> Any:
        if name not in self.names:
            raise KeyError(name)
        column = self.frame[name].to_numpy()
        return (column if self.rows is None else column[self.rows]).astype(float)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def partners_of(baseline: pl.DataFrame, totals: pl.DataFrame, kept: pl.Series | None = None
                ) -> Partners | None:
    """The partners of the pair table `baseline` (of its rows where the boolean series `kept` is
    true, when given: `_cleaned`) (None when there are none): pairs in which
    one player folds to the other's bets far less often than his own rates say
    (`_fold_deficit`, entry stratum by stratum, against his rates over all his pairs).

    A team member plays his partner unlike anyone else: a chip-dump receiver raises his dumper's
    bets and enters the pots the dumper follows him into, a team of three never folds to each
    other. Counted in his baselines, the partner bends them: the receiver's fold rate against
    "everyone else" (67% where it is 76% without the dumper), his heads-up aggression (93%
    against the dumper, about 50% against the others), the pull of his stronger hands on the
    others' weaker ones (the dumper joins 94% of them), and every stranger at their table
    looked like his partner (folds, soft play, card sharing: issue 25). Every other pair is
    judged against baselines without the partners (`score_pairs`); a partner pair itself
    against all its players' other pairs, as before."""
    if baseline.height == 0:
        return None
    strata = range(len(F.ENTRY))
    own = [f"f{s or ''}_{n}" for s in strata for n in ("k", "n")]
    sums = totals.select("player", *[c for c in own if c in totals.columns])
    flagged = np.zeros(baseline.height, bool)
    # a slice of pairs at a time (features.PAIRS_PER_SLICE), each pair judged on its own row:
    # the twenty-odd float arrays of the test over all 1.9M pairs of 5,000,000 hands at once
    # were 300 MB
    for start in range(0, baseline.height, F.PAIRS_PER_SLICE):
        part = baseline.slice(start, F.PAIRS_PER_SLICE)
        for x in ("a", "b"):
            # the fold counts only (per stratum), one folder's side at a time, as floats: the
            # pair table of a big room is most of the collusion stage's memory, and both sides
            # joined with every total and copied to floats at once took 1.7 GB over it
            # (5,000,000 hands, 1.9M pairs)
            mine = [c for c in (f"f{x}{s or ''}_{n}" for s in strata for n in ("k", "n"))
                    if c in part.columns]
            t = part.select(f"player_{x}", *mine).join(
                sums.rename({c: f"{c}__{x}" for c in sums.columns if c != "player"}),
                left_on=f"player_{x}", right_on="player", how="left", maintain_order="left")
            g = _Floats(t)
            flagged[start:start + part.height] |= _fold_deficit(
                [_entry_stratum(g, f"f{x}_k", s) for s in strata],
                [_entry_stratum(g, f"f{x}_n", s) for s in strata],
                [_stratum_rate(_entry_stratum(g, f"f_k__{x}", s),
                               _entry_stratum(g, f"f_n__{x}", s)) for s in strata])
            del g, t
    if kept is not None:
        flagged &= kept.to_numpy()
    if not flagged.any():
        return None
    keys = ["player_a", "player_b"]
    pairs = baseline.select(keys).filter(pl.Series(flagged))
    # a partner pair is judged against its players' other pairs, other partners left out too
    # (a chip dumper folds to the strangers at his table less than to others as well: his
    # soft play with one of them read against his heads-up aggression with his receiver)
    rows = pairs.rows()
    seen: dict[str, int] = {}
    for a, b in rows:
        seen[a], seen[b] = seen.get(a, 0) + 1, seen.get(b, 0) + 1
    others = pl.Series(~flagged) if kept is None else kept & pl.Series(~flagged)
    without = totals_of(baseline, keep=others, fit_tau2=fit_tau2_of(totals))
    shared = [(a, b) for a, b in rows if seen[a] > 1 or seen[b] > 1]
    return Partners(pairs=pairs, totals=without,
                    own=_own_totals(baseline, shared, pairs, without, kept))


def _own_totals(baseline: pl.DataFrame, shared: list[tuple[str, str]], pairs: pl.DataFrame,
                without: pl.DataFrame, kept: pl.Series | None = None) -> pl.DataFrame:
    """For each partner pair of `shared`, the totals of its two players over their pairs
    without the other partner pairs (`pairs`): the totals `without` every partner pair
    (`totals_of`), this pair's own row added back. One frame for all: `pair_a`, `pair_b` (the
    partner pair) and the columns of `without`, a row per player of each pair.

    Sums are added; each player's weaker-hand entry rate is made again from his sums, and the
    company's pull on his stronger hands (`sg{g}_e`) gains this row's term. The fitted factors
    are those of the fit without the partner pairs, and this row's terms are added to their
    denominators, so that taking the pair's own counts out (the leave-pair-out baselines of
    `score_pairs`) gives the fit without it. One fit in all: refitting the whole pair table
    once per partner pair took 1,016 CPU-s on the 1,000,000 hands of `bench --pipeline` (2,446
    partner pairs among its copied hands), against 36 without partners. And column by column
    for all pairs at once, not pair by pair: `partners_of` runs again for every re-check of
    `resolve_overlaps` (one per player left out), and a frame built per partner pair there was
    most of the collusion stage at 5,000,000 copied hands. With `kept`, of the rows of
    `baseline` where it is true only (as `partners_of`)."""
    keys = ["player_a", "player_b"]
    schema = {"pair_a": pl.String, "pair_b": pl.String, **without.schema}
    if not shared:
        return pl.DataFrame(schema=schema)
    tag = pl.DataFrame({"player_a": [a for a, _ in shared], "player_b": [b for _, b in shared],
                        "_i": list(range(len(shared)))}, schema_overrides={"_i": pl.Int64})
    # each row's own sums: its players named apart per row, so no two rows add up
    rows = (baseline.join(tag, on=keys, how="inner") if kept is None else
            baseline.with_columns(_kept=kept).join(tag, on=keys, how="inner")
            .filter("_kept").drop("_kept"))
    apart = rows.with_columns(player_a=pl.col("player_a") + "\x1f" + pl.col("_i").cast(pl.String),
                              player_b=pl.col("player_b") + "\x1f" + pl.col("_i").cast(pl.String))
    parts = pl.col("player").str.split_exact("\x1f", 1)
    single = (F.player_totals(apart.drop("_i").lazy()).collect()
              .with_columns(player=parts.struct.field("field_0"),
                            _i=parts.struct.field("field_1").cast(pl.Int64)))
    known = without["player"].implode()
    # a player whose every pair is a partner pair: no fit to add his row to
    ok = rows.filter(pl.col("player_a").is_in(known) & pl.col("player_b").is_in(known))
    out = [_own_rows(ok, single, without)] if ok.height else []
    for i, a, b in tag.join(ok.select(keys), on=keys, how="anti").select("_i", *keys).rows():
        others = pairs.filter((pl.col("player_a") != a) | (pl.col("player_b") != b))
        these = baseline.select(keys).join(others.with_columns(_o=pl.lit(True)), on=keys,
                                           how="left", maintain_order="left")["_o"].is_null()
        if kept is not None:
            these &= kept
        out.append(totals_of(baseline, keep=these, fit_tau2=fit_tau2_of(without))
                   .filter(pl.col("player").is_in([a, b]))
                   .with_columns(_i=pl.lit(i), _s=pl.col("player") == b, pair_a=pl.lit(a),
                                 pair_b=pl.lit(b)))
    # in the order of `shared`, each pair's a then b
    order = {"_i": pl.Int64, "_s": pl.Int64}
    return pl.concat([f.select(*order, *schema).cast(order | schema) for f in out]).sort(
        *order).drop(*order)


def _own_rows(rows: pl.DataFrame, single: pl.DataFrame, without: pl.DataFrame) -> pl.DataFrame:
    """`_own_totals` of the partner pairs whose `rows` (of the pair table, `_i` their number)
    have both players in `without`: `single`, each row's own sums per player and `_i`."""
    groups = range(len(F.GAME_GROUPS))
    made = {f"w{g}" for g in groups} | {f"sg{g}_e" for g in groups} | set(FIT_SCHEMA)
    summed = [c for c in without.columns if c != "player" and c not in made]
    mine = single.select("player", "_i", *summed)

    def side(x: str) -> dict[str, Any]:
        """Player `x`'s (a or b) columns, one per row of `rows`: `base.` his totals without the
        partner pairs, `tot.` those with this row's sums added."""
        p = rows.select("_i", player=pl.col(f"player_{x}"))
        base = p.join(without, on="player", how="left", maintain_order="left")
        own = p.join(mine, on=["player", "_i"], how="left", maintain_order="left")
        col: dict[str, Any] = {f"base.{c}": base[c] for c in without.columns if c != "player"}
        for c in summed:
            col[f"tot.{c}"] = base[c].fill_null(0) + own[c].fill_null(0)
        for g in groups:
            col[f"tot.w{g}"] = F.weak_rate(col[f"tot.wk{g}_k"], col[f"tot.wk{g}_n"])
        return col

    a, b = side("a"), side("b")
    r = {c: rows[c] for c in rows.columns}
    for g in groups:
        a[f"tot.sg{g}_e"] = a[f"base.sg{g}_e"].fill_null(0) + r[f"cs{g}_nb"] * b[f"tot.w{g}"]
        b[f"tot.sg{g}_e"] = b[f"base.sg{g}_e"].fill_null(0) + r[f"cs{g}_na"] * a[f"tot.w{g}"]
    for x in (a, b):
        for c in FIT_SCHEMA:
            if c != "player":
                x[f"tot.{c}"] = x[f"base.{c}"]
    exposure = pl.Series(_whipsaw_exposure(r["ws_ga"].to_numpy().astype(float),
                                           r["ws_gb"].to_numpy().astype(float),
                                           r["ws_n"].to_numpy().astype(float)))
    a["tot.ws_d"] = a["base.ws_d"] + exposure * b["base.ws_t"]
    b["tot.ws_d"] = b["base.ws_d"] + exposure * a["base.ws_t"]
    a["tot.hf_nb"] = a["base.hf_nb"] + r["ifa_k"] * b["base.hf_b"]
    b["tot.hf_nb"] = b["base.hf_nb"] + r["ifb_k"] * a["base.hf_b"]
    b["tot.ind_na"] = b["base.ind_na"] + r["ifa_k"] * a["base.hf_a"]
    a["tot.ind_na"] = a["base.ind_na"] + r["ifb_k"] * b["base.hf_a"]
    # the directed fits' terms only where the pair was in that fit: one far off it would have
    # left it (fits.fit), and `score_pairs` takes nothing out for it

    def fit(x: dict[str, Any], c: str) -> Any:
        return x[f"base.{c}"].to_numpy().astype(float)

    counts = _Floats(rows)
    for d in fitted_models(rows.columns):
        if not all(c in rows.columns for c in (*d.n, *d.k)):
            continue
        n_ab, n_ba, k_ab, k_ba = _directed_counts(counts, d)
        fa, fb = ({f"{d.prefix}_{c}": fit(x, f"{d.prefix}_{c}") for c in FT.COLUMNS}
                  for x in (a, b))
        w = FT.in_fit(fa, fb, d.prefix, n_ab, n_ba, k_ab, k_ba)
        for x, fx, fy, n_xy, n_yx, k_xy, k_yx in ((a, fa, fb, n_ab, n_ba, k_ab, k_ba),
                                                  (b, fb, fa, n_ba, n_ab, k_ba, k_ab)):
            c = f"{d.prefix}_"
            x[f"tot.{c}kx"] = pl.Series(fx[c + "kx"] + w * k_xy)
            x[f"tot.{c}ky"] = pl.Series(fx[c + "ky"] + w * k_yx)
            x[f"tot.{c}dx"] = pl.Series(fx[c + "dx"] + w * n_xy * fy[c + "g"])
            x[f"tot.{c}dy"] = pl.Series(fx[c + "dy"] + w * n_yx * fy[c + "f"])
    # co-entry in preflop order: the pair's own orders added where they were in the fit
    ca, cb = ({f"ce_{c}": fit(x, f"ce_{c}") for c in OF.COLUMNS} for x in (a, b))
    a_first, b_first = OF.orders(*(counts[c] for c in ("hands", "va", "vb", "vboth", "ce1_n",
                                                       "ce1_va", "ce1_vb", "ce1_both")))
    for (lor, var, hands), (fx, fy) in zip((a_first, b_first), ((ca, cb), (cb, ca)),
                                           strict=True):
        w, term_f, term_s = OF.own_terms(fx, fy, lor, var, hands)
        fx["ce_wf"] = fx["ce_wf"] + w
        fx["ce_sf"] = fx["ce_sf"] + term_f
        fy["ce_ws"] = fy["ce_ws"] + w
        fy["ce_ss"] = fy["ce_ss"] + term_s
    for x, fx in ((a, ca), (b, cb)):
        for c in ("wf", "sf", "ws", "ss"):
            x[f"tot.ce_{c}"] = pl.Series(fx[f"ce_{c}"])
    cols = [c for c in without.columns if c != "player"]
    # a row per player (`_s`: 0 for a, 1 for b)
    return pl.concat([pl.DataFrame({"_i": rows["_i"], "_s": pl.repeat(s, rows.height, eager=True),
                                    "pair_a": rows["player_a"], "pair_b": rows["player_b"],
                                    "player": rows[f"player_{x}"],
                                    **{c: t[f"tot.{c}"] for c in cols}})
                      for s, (x, t) in enumerate((("a", a), ("b", b)))])


def _heavy_fold_rate(g: Mapping[str, Any], x: str, y: str, folds: Any, heavy: Any) -> Any:
    """The share of heavy folds expected among player `x`'s `folds` to player `y`'s bets (of
    which `heavy` were heavy): x's fitted folder factor times y's bettor factor, each without
    these folds (`fitted_factors`)."""
    r = g[f"hf_r__{x}"]
    fa = (g[f"hf_k__{x}"] - heavy + ALPHA * r) / np.maximum(
        g[f"hf_nb__{x}"] - folds * g[f"hf_b__{y}"] + ALPHA, 1e-9)
    fb = (g[f"ind_k__{y}"] - heavy + ALPHA) / np.maximum(
        g[f"ind_na__{y}"] - folds * g[f"hf_a__{x}"] + ALPHA, 1e-9)
    return np.clip(fa * fb, 1e-9, 0.95)


# Gauss–Hermite nodes and weights over which `_tail_over_baseline` averages
_HERMITE = np.polynomial.hermite.hermgauss(20)


def _tail_over_baseline(k: Any, n: Any, p0: Any, spread: Any, use: Any, pool: _Pool,
                        name: str, *, lower: bool) -> Any:
    """The quasi-binomial tail (`_quasi_cdf` when `lower`, else `_quasi_sf`) of `k` in `n` at
    a rate known only up to a factor: `p0` times a log-normal of sd `spread`, averaged over it
    (Gauss–Hermite; NaN where not `use`). A rate taken at its estimate as if known read an
    honest pair whose baseline rested on a few pots as far off it: the uncertainty is large
    there, and small where each player has played hundreds of pots with others. Far off a
    well-measured rate the tail stays tiny: a pair that bet once where 55 bets were expected is
    as far below the rate's low end as below the rate."""
    out = np.full(np.shape(k), np.nan)
    at = np.flatnonzero(np.asarray(use, bool))
    if at.size == 0:
        return out
    k, n, p0, spread = (np.asarray(v, float)[at] for v in (k, n, p0, spread))
    phi = pool.dispersion(name, k, n, p0, np.ones(at.size, bool))
    tail = binom_cdf if lower else binom_sf
    total = np.zeros(at.size)
    for x, w in zip(*_HERMITE, strict=True):
        rate = np.clip(p0 * np.exp(np.sqrt(2) * spread * x), 1e-9, 1 - 1e-9)
        total += w * tail(k / phi, n / phi, rate)
    out[at] = np.clip(total / np.sqrt(np.pi), 0.0, 1.0)
    return out


def _entry_stratum(g: Mapping[str, Any], col: str, s: int) -> Any:
    """Column `col` (`fa_n`, `f_k__a`, ...) of entry stratum `s` (features.ENTRY): its
    `{prefix}{s}{rest}` column, or for stratum 0 the total less the others (zero where a table
    built by hand has no strata: all its folds count as stratum 0)."""
    head, _, rest = col.partition("_")
    if s > 0:
        return g.get(f"{head}{s}_{rest}", np.zeros_like(g[col]))
    return g[col] - sum(g.get(f"{head}{t}_{rest}", 0.0) for t in range(1, len(F.ENTRY)))


def _fold_to_partner(g: Mapping[str, Any], pool: _Pool) -> dict[str, Any]:
    """The `fold_to_partner` columns: folds to the partner's bets or raises against the rate
    of each folder's entry stratum (features.ENTRY), summed over the strata.

    Within a stratum the rate is one less the rate at which the folder continues (calls or
    raises) facing the bettor's bets in a folder × bettor fit over all pairs (`DIRECTED`,
    `_directed_rates`): his continuing against the bettors he met, the bettor's drawing of
    continues (his sizing, his image: folding to a feared bettor is no sign of a team) from the
    folders he met, the pair's own bets out of both. Continues, not folds: fold rates run close
    to 1, where a product of rates passes 1. Each one's rate against everyone else, combined
    around the rate of the pair's context, mixed the opponents he met: two regulars who never
    left a team's table read as folding to each other (on the rulebook population of issue 25,
    500,000 hands, share 0.4, seed 1: 5 honest pairs below p 1e-4; none against the fit, the
    best 2e-3: helper B2's measure).

    By stratum: how a player came into the hand is the range he folds from. Who faces an
    aggressive preflop raiser is mostly a player who never entered (he folds 99% of the time to
    anyone), who faces a passive player's bet has mostly entered (he folds half the time), so
    a folder's one rate against everyone expected too few folds to an aggressive stranger; and
    a chip-dump receiver who enters every cheap pot with junk when his team colludes folds more
    to everyone's bets, his rate against others lowered by his partner, to whom he never folds
    (he raises the partner's bets): his folds to an aggressive stranger at his table read as
    folding to a partner (p 1e-17, issue 25), where stratum by stratum, and against his rate
    without his partner (`partners_of`), they are his own."""
    k = g["fa_k"] + g["fb_k"]
    n = g["fa_n"] + g["fb_n"]
    r_all = pool.ratio(k, n)
    e = np.zeros_like(np.asarray(k, float))
    for d in DIRECTED:
        if d.continues:
            n_ab, n_ba, _, _ = _directed_counts(g, d)
            go_ab, go_ba = _directed_rates(g, d)
            e = e + n_ab * (1 - go_ab) + n_ba * (1 - go_ba)
    p0 = np.where(n > 0, e / np.maximum(n, 1), r_all)
    ok = n >= MIN_SAMPLE["fold_to_partner"]
    return {"fold_to_partner_n": n, "fold_to_partner_k": k, "fold_to_partner_e": e,
            "fold_to_partner_p": np.where(ok, _quasi_sf(k, n, p0, ok, pool, "fold_to_partner"),
                                          np.nan)}


def _with_totals(table: pl.DataFrame, totals: pl.DataFrame, rates: pl.DataFrame,
                 on: str | None = None) -> pl.DataFrame:
    """`table` with each player's totals and rates joined (columns `{name}__a`, `{name}__b`);
    with `on`, the totals of each row's players are those whose column `on` matches the
    row's."""
    totals = _totals_with_rates(totals, rates)
    keep = {"player"} | ({on} if on else set())
    ta = totals.rename({c: f"{c}__a" for c in totals.columns if c not in keep})
    tb = totals.rename({c: f"{c}__b" for c in totals.columns if c not in keep})
    by = [on] if on else []
    return (table.join(ta, left_on=["player_a", *by], right_on=["player", *by], how="left")
            .join(tb, left_on=["player_b", *by], right_on=["player", *by], how="left"))


def _totals_with_rates(totals: pl.DataFrame, rates: pl.DataFrame) -> pl.DataFrame:
    rates = rates.rename({"player": "player_r"})
    return totals.join(rates, left_on="player", right_on="player_r", how="left").fill_null(0)


def _rows_of(players: pl.Series, totals: pl.DataFrame) -> pl.Series:
    """Per entry of `players`, its row in `totals` (by column `player`; null: none)."""
    return players.rename("player").to_frame().join(
        totals.select("player").with_row_index("_row"), on="player", how="left",
        maintain_order="left")["_row"]


class _PairTotals(Mapping[str, Any]):
    """The numeric columns of a pair table and of its players' totals and rates (`{name}__a`,
    `{name}__b`, as `_with_totals` names them) as float arrays, each made when asked for and
    not kept; with `partners` (`score_pairs`), a partner pair's players' totals and those of
    every other pair's apart.

    The table joined with every total (some 270 columns) and all of it turned into float
    arrays at once held about twice the tested pairs' table in floats, and the partners'
    totals joined once more beside it (56,000 tested pairs at 5,000,000 hands: +480 MB and a
    102 MB join, the scoring's peak): each total is gathered by its player's row instead."""

    def __init__(self, table: pl.DataFrame, totals: pl.DataFrame, rates: pl.DataFrame,
                 partners: Partners | None = None) -> None:
        self.table = table
        self.totals = _totals_with_rates(totals, rates)
        self.at = {x: _rows_of(table[f"player_{x}"], self.totals) for x in ("a", "b")}
        own = [c for c in table.columns if table[c].dtype.is_numeric()]
        summed = [c for c in self.totals.columns
                  if c != "player" and self.totals[c].dtype.is_numeric()]
        self.names = {**dict.fromkeys(own, ""), **{f"{c}__a": "a" for c in summed},
                      **{f"{c}__b": "b" for c in summed}}
        self.mine: Any = None
        self.other: pl.DataFrame | None = None
        self.own: pl.DataFrame | None = None
        if partners is None:
            return
        keys = ["player_a", "player_b"]
        self.mine = table.select(keys).join(
            partners.pairs.with_columns(_partner=pl.lit(True)), on=keys, how="left",
            maintain_order="left")["_partner"].fill_null(False).to_numpy()
        self.other = _totals_with_rates(partners.totals, rates)
        self.other_at = {x: _rows_of(table[f"player_{x}"], self.other) for x in ("a", "b")}
        if partners.own is not None and partners.own.height:
            # each such pair with its own totals, all in one join (`_i`: its row of the table)
            want = table.select(keys).with_row_index("_i").with_columns(
                pl.col("_i").cast(pl.Int64)).join(
                partners.own.select(player_a="pair_a", player_b="pair_b").unique(),
                on=keys, how="inner")
            keyed = partners.own.join(want.rename({"player_a": "pair_a", "player_b": "pair_b"}),
                                      on=["pair_a", "pair_b"], how="inner").drop("pair_a",
                                                                                 "pair_b")
            self.own = _with_totals(want, keyed, rates, on="_i")

    def __getitem__(self, name: str) -> Any:
        side = self.names.get(name)
        if side is None:
            raise KeyError(name)
        if not side:
            return self.table[name].to_numpy().astype(float)
        column = name[:-3]
        out = self.totals[column].gather(self.at[side]).to_numpy().astype(float)
        if self.other is not None and column in self.other.columns:
            theirs = self.other[column].gather(self.other_at[side]).fill_null(0)
            out = np.where(self.mine, out, theirs.to_numpy().astype(float))
        if self.own is not None and name in self.own.columns:
            out[self.own["_i"].to_numpy()] = self.own[name].fill_null(0).to_numpy().astype(float)
        return out

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


# The key under which a pass over all the pairs carries the co-entry fit's τ²₀ it measured
# (order_fit.fit) to the re-checks (`_Pool.known`), as ρ and τ² are carried
FIT_TAU2_KEY = "co_entry:fit_tau2"


def fit_tau2_of(totals: pl.DataFrame) -> float | None:
    """The co-entry fit's τ²₀ (`ce_tau2`) of players' totals (`totals_of`), None without one:
    a fit of part of the same pairs (without partners) is weighted as the whole one was."""
    known = totals["ce_tau2"].drop_nulls() if "ce_tau2" in totals.columns else None
    return None if known is None or known.is_empty() else float(known[0])


def _co_entry_residual(g: Mapping[str, Any]) -> tuple[Any, Any]:
    """Per pair: its co-entry log odds ratio less the baseline of the additive fit of the pair
    orders (order_fit: the first actor's effect acting first, the second's acting second, each
    without the pair's own hands) and the sampling variance, the two orders combined by
    inverse variance. An aggressive player's raises cut the entries of whoever acts after him,
    so two loose-aggressive regulars who sit together for thousands of hands each cut the
    other's entries as they cut everyone's; a team that splits the pots between them shows it
    with each other only, in either order."""
    a, b = ({f"ce_{c}": g[f"ce_{c}__{x}"] for c in OF.COLUMNS} for x in ("a", "b"))
    return OF.residual(a, b, g)


def score_pairs(table: pl.DataFrame, totals: pl.DataFrame, rates: pl.DataFrame,
                pool: _Pool = WHOLE, keep: tuple[str, ...] = (),
                partners: Partners | None = None) -> pl.DataFrame:
    """Per pair: each feature's observed, expected and p-value (NaN when not tested); `pool`:
    population rates over all the pairs of `table`, or each pair's own (`LONE`); `keep`: more
    columns of `table` to carry over; `partners` (`partners_of` the table `totals` were made
    from): every pair but a partner pair is judged against its players' totals without the
    partners."""
    g = _PairTotals(table, totals, rates, partners)
    out: dict[str, Any] = {}

    # soft play: aggression in heads-up pots against each other vs. what each one's aggression
    # and the other's as an opponent, both measured against others, predict. Leave-pair-out
    # only for a pair that was in the fit: one far off it was not (`HEADS_UP`, fits.fit;
    # judged against the factors the far pairs were found with, `sp_f0` and `sp_g0`), and
    # taking its pots out again took them out of its players' factors twice
    a, b = ({f"sp_{c}": g[f"sp_{c}__{x}"] for c in FT.COLUMNS} for x in ("a", "b"))
    fitted = FT.in_fit(a, b, "sp", g["hu_n"], g["hu_n"], g["soft_ka"], g["soft_kb"])
    pa_, va = FT.lpo_rate(a, b, "sp", g["hu_n"], g["soft_ka"], fitted)
    pb_, vb = FT.lpo_rate(b, a, "sp", g["hu_n"], g["soft_kb"], fitted)
    n, k = 2 * g["hu_n"], g["soft_ka"] + g["soft_kb"]
    p0 = (pa_ + pb_) / 2
    # the bets expected are as uncertain as the factors they come from: each tail is taken
    # over that uncertainty (`_tail_over_baseline`). A player who plays almost only this pair
    # has no rate of his own: on the real hands of ../shared/data a hero and the one opponent
    # of his heads-up matches (2 and 10 heads-up pots against anyone else) bet into each other
    # in 133 of 212 chances where the population's prior expected 103 (p 3e-5 at the prior, a
    # lead), and 38 of 66 where 24 were expected.
    e = g["hu_n"] * (pa_ + pb_)
    spread = np.sqrt(((g["hu_n"] * pa_) ** 2 * va + (g["hu_n"] * pb_) ** 2 * vb)
                     / np.maximum(e * e, 1e-9))
    ok = g["hu_n"] >= MIN_SAMPLE["softplay"]
    out |= {"softplay_n": g["hu_n"], "softplay_k": k, "softplay_e": e,
            "softplay_p": _tail_over_baseline(k, n, p0, spread, ok, pool, "softplay",
                                              lower=True)}
    # ... and the other tail: far more aggression against each other than against others. A
    # chip dumper bets the pot into his receiver whatever he holds and folds to the receiver's
    # raise: on the rulebook population of issue 25 (share 0.4, seed 2) a team that did so in 109
    # heads-up pots bet or raised 356 times in 203 heads-up pots where 136 were expected (p 1e-114),
    # while its folds after heavy investment (most of its pots were small) read p 9e-4 and it was
    # missed; the honest pairs there and in seed 1 read p 0.004 at the least.
    ok = g["hu_n"] >= MIN_SAMPLE["hu_aggression"]
    out |= {"hu_aggression_n": g["hu_n"], "hu_aggression_k": k, "hu_aggression_e": e,
            "hu_aggression_p": _tail_over_baseline(k, n, p0, spread, ok, pool,
                                                   "hu_aggression", lower=False)}

    out |= _fold_to_partner(g, pool)

    # strong folds: against the folder's strong folds and the bettor's drawing of them, each
    # measured against the others they met (an actor × opponent fit, `_directed_rates`)
    k_pair, n_pair = g["sfa_k"] + g["sfb_k"], g["sfa_n"] + g["sfb_n"]
    r = pool.ratio(k_pair, n_pair)
    pa_, pb_ = _directed_rates(g, STRONG_FOLD)
    e = g["sfa_n"] * pa_ + g["sfb_n"] * pb_
    p0 = np.where(n_pair > 0, e / np.maximum(n_pair, 1), r)
    ok = n_pair >= MIN_SAMPLE["strong_fold"]
    out |= {"strong_fold_n": n_pair, "strong_fold_k": k_pair, "strong_fold_e": e,
            "strong_fold_p": np.where(ok, _quasi_sf(k_pair, n_pair, p0, ok, pool, "strong_fold"),
                                      np.nan)}

    # chip flow A -> B (big blinds), centred on the flow expected from results against others.
    # Skill: each player's net big blinds per big blind of pot in his flowing hands against
    # everyone but this partner (shrunk toward zero by ALPHA average pots), so a dumping partner
    # never sets his own baseline, and a win rate earned in deep pots at one table is not
    # transported as big blinds per hand to the small pots this pair played (a loose player's
    # heavy losses at a deep table once made an honest pair look like chip dumping).
    flowing, pot = g["flow_nz"], g["flow_w"]
    mean_pot = (np.maximum(pot / np.maximum(flowing, 1.0), 1.0) if pool.lone
                else max(float(np.sum(pot)) / max(float(np.sum(flowing)), 1.0), 1.0))
    skill_a = (g["gain__a"] + g["flow"]) / (g["pot_nz__a"] - pot + ALPHA * mean_pot)
    skill_b = (g["gain__b"] - g["flow"]) / (g["pot_nz__b"] - pot + ALPHA * mean_pot)
    c = skill_b - skill_a
    e = c * pot
    s = g["flow"] - e
    sq = np.maximum(g["flow_sq"] - 2 * c * g["flow_dw"] + c * c * g["flow_w2"], 1e-9)
    z = s / np.sqrt(sq)
    z = z / np.sqrt(pool.z_dispersion("chip_dump", z, g["flow_nz"] >= MIN_SAMPLE["chip_dump"]))
    out |= {"chip_dump_n": g["flow_nz"], "chip_dump_k": g["flow"], "chip_dump_e": e,
            "chip_dump_z": z,
            "chip_dump_p": np.where(g["flow_nz"] >= MIN_SAMPLE["chip_dump"], signflip_p(z),
                                    np.nan)}

    # heavy folds: among A's folds to B's bets, the share after a heavy investment, against
    # the folder × bettor model fitted over all pairs (`fitted_factors`), each factor without
    # this pair's folds: A's propensity to give up heavy investments and B's to draw such
    # folds, each measured against the other players they met (a pair whose players the fit has
    # not seen, no heavy fold anywhere: its own share)
    n = g["ifa_k"] + g["ifb_k"]
    k = g["hfa_k"] + g["hfb_k"]
    e = (g["ifa_k"] * _heavy_fold_rate(g, "a", "b", g["ifa_k"], g["hfa_k"])
         + g["ifb_k"] * _heavy_fold_rate(g, "b", "a", g["ifb_k"], g["hfb_k"]))
    p0 = np.where((n > 0) & (g["hf_r__a"] > 0), e / np.maximum(n, 1), pool.ratio(k, n))
    out |= {"heavy_fold_n": n, "heavy_fold_k": k, "heavy_fold_e": e,
            "heavy_fold_p": np.where(n >= MIN_SAMPLE["heavy_fold"],
                                     _quasi_sf(k, n, p0, n >= MIN_SAMPLE["heavy_fold"], pool,
                                               "heavy_fold", pair_effect=True),
                                     np.nan)}

    # whipsaw: of the pair's multiway hands, those in which both raised around a caught third
    # player, against the double raises their own raising rates there make by chance times
    # ws_t(A) · ws_t(B), each player's factor fitted over all pairs (`fitted_factors`) and
    # taken without this pair's hands: how often his double raises with the partners he met
    # caught a third player, measured against how often theirs did with theirs (a team that
    # always sits together still has the other players at its table to be measured against)
    n, k = g["ws_n"], g["ws_k"]
    expo = _whipsaw_exposure(g["ws_ga"], g["ws_gb"], n)
    prior = np.sqrt(g["ws_r__a"])
    ta = (g["ws_k__a"] - k + ALPHA * prior) / np.maximum(
        g["ws_d__a"] - expo * g["ws_t__b"] + ALPHA, 1e-9)
    tb = (g["ws_k__b"] - k + ALPHA * prior) / np.maximum(
        g["ws_d__b"] - expo * g["ws_t__a"] + ALPHA, 1e-9)
    # (a pair whose players the fit has not seen, no whipsaw anywhere: its own rate)
    fitted = np.where(g["ws_r__a"] > 0, np.clip(expo / np.maximum(n, 1) * ta * tb, 1e-9, 0.95),
                      pool.ratio(k, n))
    # and against the same double raises times the population's share of them that catch a
    # third player, for every pair alike: a team whose whipsaws also catch its partner between
    # one of them and a stranger raises each one's fitted factor with the others he met (the
    # partner is the caught third player there). The pair is judged on the baseline it
    # contradicts more, Bonferroni for the two.
    u = pool.ratio(g["multi_g__a"], g["multi_n__a"])
    common = np.clip(_shrunk(g["ws_ga"], n, u) * _shrunk(g["ws_gb"], n, u)
                     * pool.ratio(k, g["ws_both"]), 1e-9, 0.95)
    ok = n >= MIN_SAMPLE["whipsaw"]
    p_fit = _quasi_sf(k, n, fitted, ok, pool, "whipsaw:fit")
    p_common = _quasi_sf(k, n, common, ok, pool, "whipsaw:common")
    # and the raises around a third player: of the hands both bet or raised in, those both did
    # on a street after the flop while a third player was still in with chips (both after the
    # preflop round where the events were not read: `whipsaw_raises`), against the robust fit
    # of that share over all pairs (`WHIPSAW_STREETS`; a team far off it left it, so its raises
    # set no player's factor)
    raises = whipsaw_raises(g)
    if all(c in g for c in (*raises.n, *raises.k)):
        n_r, k_r = g[raises.n[0]], g[raises.k[0]]
        a, b = ({f"wr_{c}": g[f"wr_{c}__{x}"] for c in FT.COLUMNS} for x in ("a", "b"))
        fitted_r = FT.in_fit(a, b, "wr", n_r, n_r, k_r, k_r)
        ra, va = FT.lpo_rate(a, b, "wr", n_r, k_r, fitted_r)
        rb, vb = FT.lpo_rate(b, a, "wr", n_r, k_r, fitted_r)
        raised = np.clip((ra + rb) / 2, 1e-9, 0.95)
        # (as many double raises as multiway hands the calls caught need; no pair of the table
        # both raised after the flop: nothing to measure a share by)
        use = (n_r >= MIN_SAMPLE["whipsaw"]) & ok & (g["wr_r__a"] > 0)
        # as uncertain as the factors it comes from (`_tail_over_baseline`), and each long
        # pair a share of its own (`_pair_effect`): the larger p of the two. (A spread of 10,
        # a factor of e^10 either way, is no rate known at all: more only overflows.)
        spread = np.minimum(np.sqrt((ra * ra * va + rb * rb * vb)
                                    / np.maximum((ra + rb) ** 2, 1e-18)), 10.0)
        p_raise = np.where(use, np.maximum(
            _quasi_sf(k_r, n_r, raised, use, pool, "whipsaw:raises", pair_effect=True),
            _tail_over_baseline(k_r, n_r, raised, spread, use, pool, "whipsaw:raises",
                                lower=False)), 1.0)
    else:  # (a pair table without the raise counts)
        n_r, k_r, raised, p_raise = n, k, fitted, np.ones_like(n)
    best = np.minimum(p_fit, p_common)
    by_raises = p_raise < best
    out |= {"whipsaw_n": np.where(by_raises, n_r, n), "whipsaw_k": np.where(by_raises, k_r, k),
            "whipsaw_e": np.where(by_raises, n_r * raised,
                                  n * np.where(p_fit <= p_common, fitted, common)),
            # (2: counted on the events' streets, `whipsaw_c` of them with a third player
            # calling; 1: on the hands' counts)
            "whipsaw_raises": by_raises * (2.0 if raises is WHIPSAW_STREETS else 1.0),
            "whipsaw_c": np.where(by_raises & (raises is WHIPSAW_STREETS),
                                  g.get("wss_c", np.zeros_like(n)), np.nan),
            "whipsaw_p": np.where(ok, np.minimum(1.0, 3 * np.minimum(best, p_raise)), np.nan)}

    # check-downs: the pairs' rate among such chances without this pair (chances are rare, and
    # a team's own check-downs would otherwise set the rate it is judged against), times each
    # player's tendency relative to everyone's: his share of hands checked down among his hands
    # behind an all-in, per hand and without the hands that were this pair's chances (a team
    # that checks it down with a stranger still in would otherwise credit each partner with a
    # check-down against the stranger, and a few such hands set a partner's rate). A pair
    # judged alone, or the only one with chances, has no population rate: then it is the rate
    # of two players at everyone's share q deciding each on his own, q², and the baseline each
    # one's own share, qa·qb.
    n, k = g["cd_n"], g["cd_k"]
    q = pool.floor(pool.ratio(g["cd_c__a"] + g["cd_c__b"], g["cd_h__a"] + g["cd_h__b"]), 1e-6)
    rest_n = pool.total(n) - n
    r = np.clip(np.where(rest_n > 0, (pool.total(k) - k) / np.maximum(rest_n, 1), q * q),
                1e-6, 1.0)
    qa = _shrunk(g["cd_c__a"] - g["cd_ka"], g["cd_h__a"] - n, q)
    qb = _shrunk(g["cd_c__b"] - g["cd_kb"], g["cd_h__b"] - n, q)
    p0 = np.clip(r * (qa / q) * (qb / q), 1e-9, 0.95)
    out |= {"checkdown_n": n, "checkdown_k": k, "checkdown_e": n * p0,
            "checkdown_p": np.where(n >= MIN_SAMPLE["checkdown"],
                                    _quasi_sf(k, n, p0, n >= MIN_SAMPLE["checkdown"], pool,
                                              "checkdown"),
                                    np.nan)}

    out |= _checkdown_bets(g, table.height, pool)
    out |= _checkdown_follow(g, table.height, pool)
    out |= _checkdown_range(g, table.height)
    out |= _softplay_streets(g, table.height, pool)

    # co-entry: hands both entered voluntarily, against the product of their entry rates in the
    # pair's own hands (a log odds ratio), centred and scaled by the population of pairs (an
    # empirical null: honest neighbours' entries are not independent either)
    n, va, vb, both = g["hands"], g["va"], g["vb"], g["vboth"]
    ok = np.minimum(va, vb) >= MIN_SAMPLE["co_entry"]
    resid, var = _co_entry_residual(g)
    # the fit's τ²₀ as this pass measured it (order_fit.fit): the re-checks fit with it
    if len(g["ce_tau2__a"]) and np.isfinite(g["ce_tau2__a"]).any():
        pool.record(FIT_TAU2_KEY, float(np.nanmax(g["ce_tau2__a"])))
    # each pair's co-entry its baseline's give or take a share of its own (`_pair_variance`,
    # measured on the pairs of PAIR_VARIANCE_HANDS hands or more): two loose-aggressive
    # regulars who sat together for 30,000 hands read q 5e-7 against the sampling variance
    # alone (issue 25). Helper B2's measure (500,000 hands, share 0.4, seed 1): 4 honest pairs
    # below p 1e-4 (the best 2e-15), none with τ² (the best 3e-4), both planted pairs below
    # 1e-6 kept
    tau2 = pool.pair_variance("co_entry", resid, var, ok & (n >= PAIR_VARIANCE_HANDS))
    z = resid / np.sqrt(var + tau2)
    zc = pool.null("co_entry", z, ok)  # (fewer than 10: as is)
    out |= {"co_entry_n": n, "co_entry_k": both, "co_entry_e": va * vb / np.maximum(n, 1),
            "co_entry_z": zc, "co_entry_p": np.where(ok, normal_cdf(zc), np.nan)}

    # hole-card sharing: when the stronger of the two known starting hands entered the pot, how
    # often the weaker entered too, against the weaker player's rate when someone else entered
    # with a better hand than his and the stronger player's pull on weaker hands of others:
    # tight and loose players are honest reasons, a look at the partner's cards is not
    # game by game (GAME_GROUPS): how often the weaker hand plays along differs by game
    n = k = e = 0.0
    for i in range(len(F.GAME_GROUPS)):
        na, ka, nb, kb = (g[f"cs{i}_{x}"] for x in ("na", "ka", "nb", "kb"))
        r = np.clip(pool.ratio(ka + kb, na + nb), 0.01, 0.99)
        weak_a = _shrunk(g[f"wk{i}_k__a"] - ka, g[f"wk{i}_n__a"] - na, r)
        weak_b = _shrunk(g[f"wk{i}_k__b"] - kb, g[f"wk{i}_n__b"] - nb, r)
        # the stronger player's effect on those who hold the weaker hand: how often the others
        # joined his stronger hands over how often their own entry rates predict (without this
        # pair), shrunk toward no effect. Against the population's rate instead, a player at a
        # loose table (a chip-dumping team joining every pot) looked like one who draws callers,
        # and two honest regulars of that table like card sharers.
        pull_b = ((g[f"sg{i}_k__b"] - ka + ALPHA * r)
                  / np.maximum(g[f"sg{i}_e__b"] - na * g[f"w{i}__a"] + ALPHA * r, 1e-9))
        pull_a = ((g[f"sg{i}_k__a"] - kb + ALPHA * r)
                  / np.maximum(g[f"sg{i}_e__a"] - nb * g[f"w{i}__b"] + ALPHA * r, 1e-9))
        e = e + (na * np.clip(weak_a * pull_b, 1e-6, 0.99)
                 + nb * np.clip(weak_b * pull_a, 1e-6, 0.99))
        n, k = n + na + nb, k + ka + kb
    r = pool.ratio(k, n)
    ok = n >= MIN_SAMPLE["card_share"]
    out |= {"card_share_n": n, "card_share_k": k, "card_share_e": e,
            "card_share_p": np.where(ok, _quasi_cdf(k, n, np.where(n > 0, e / np.maximum(n, 1),
                                                                    r), ok, pool,
                                                    "card_share", pair_effect=True), np.nan)}

    k, e = g["seat_k"], g["seat_e"]
    out |= {"seating_n": k, "seating_k": k, "seating_e": e,
            "seating_p": np.where((k >= MIN_SAMPLE["seating"]) & (e > 0), poisson_sf(k, e),
                                  np.nan)}
    cols = {c: pl.Series(c, v, dtype=pl.Float64) for c, v in out.items()}
    return table.select(*keep, "player_a", "player_b", "hands", "fa_k", "fb_k", "hfa_k",
                        "hfb_k", "flow_chips").with_columns(**cols)


def _checkdown_bets(g: Mapping[str, Any], height: int, pool: _Pool) -> dict[str, Any]:
    """The `checkdown_bets` columns: NaN unless the pair table carries the street counts
    (audit/collusion/streets.py; in the overlap re-check's tables, built from the projections,
    only when the counts per hand were kept: `_with_street_hands`)."""
    if not all(c in g for c in (*S.PAIR_COLUMNS, *(f"{c}__a" for c in S.PLAYER_COLUMNS))):
        nan = np.full(height, np.nan)
        return {"checkdown_bets_n": nan, "checkdown_bets_k": nan, "checkdown_bets_e": nan,
                "checkdown_bets_p": nan}
    n = g["cdx_n"]
    # each one's rate against the other from an actor × opponent fit over all pairs (each
    # player's aggression behind an all-in against the opponents he met there, without this
    # pair's streets: all of them, `all_` columns, when the table holds part of its hands)
    pa_, pb_ = _directed_rates(g, CHECKDOWN_BETS)
    k, p0 = g["cdx_ka"] + g["cdx_kb"], np.clip((pa_ + pb_) / 2, 1e-6, 1 - 1e-6)
    ok = n >= MIN_SAMPLE["checkdown_bets"]
    return {"checkdown_bets_n": n, "checkdown_bets_k": k, "checkdown_bets_e": 2 * n * p0,
            "checkdown_bets_p": np.where(ok, _quasi_cdf(k, 2 * n, p0, ok, pool, "checkdown_bets"),
                                         np.nan)}


# The follow counts per pair (streets.FOLLOW_COUNTS and FOLLOW_EXPECTED): A's spots facing a
# short stack's preflop raise with B in (`cdf_na`), his continues there (`cdf_ka`) and the
# continues his own rate without B in expects there (`cdf_ea`, a float: a sum of rates); `_b` the
# same of B with A in. Kept apart from streets.PAIR_COLUMNS: the pair table casts those to
# UInt32, which would cut the expected continues to whole numbers.
FOLLOW_COUNTS = S.FOLLOW_COUNTS
FOLLOW_EXPECTED = S.FOLLOW_EXPECTED
FOLLOW_COLUMNS = (*FOLLOW_COUNTS, *FOLLOW_EXPECTED)


def _fisher(pa: Any, pb: Any) -> Any:
    """Fisher's combination of two independent p-values: the chi-square (4 df) upper tail of
    -2·ln(pa·pb), x·(1 - ln x) with x = pa·pb (0 where x is)."""
    x = np.asarray(pa, float) * np.asarray(pb, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > 0, np.minimum(1.0, x * (1 - np.log(np.where(x > 0, x, 1.0)))), 0.0)


def _checkdown_follow(g: Mapping[str, Any], height: int, pool: _Pool) -> dict[str, Any]:
    """The `checkdown_follow` columns (NaN unless the pair table carries the follow counts,
    `FOLLOW_COLUMNS`): per direction, A's continues facing a third player's short-stack or
    all-in preflop raise with B in, upper tail against what his own continue rate at the same
    starting-hand strength without B in expects (quasi-binomial at the mean rate e/n: the
    spots' rates differ, and a binomial at their mean is conservative against their
    Poisson-binomial); the pair's p Fisher's combination of the directions tested (one member
    following the short stacks beside his partner is evidence), the one tested alone.

    A check-down team gangs up on short stacks: one or both call or raise a short stack's
    raise far more often than each does with the same cards when the partner is out (issue
    25: at a colluding share of 0.4 a team shares 3-5 hands behind a third player's all-in,
    too few for `checkdown_bets`, but 18 to 68 such preflop spots). Each player's baseline is
    his own rate without the partner in, not over all his spots: a team sits together most of
    the time, and a baseline with the partner in takes the team's following as his own."""
    if not all(c in g for c in FOLLOW_COLUMNS):
        nan = np.full(height, np.nan)
        return {f"checkdown_follow_{c}": nan
                for c in ("n", "k", "e", "p", "na", "ka", "ea", "nb", "kb", "eb")}
    na, ka, ea = g["cdf_na"], g["cdf_ka"], g["cdf_ea"]
    nb, kb, eb = g["cdf_nb"], g["cdf_kb"], g["cdf_eb"]
    # both directions as one test: one dispersion measured over every tested direction
    n, k, e = np.concatenate([na, nb]), np.concatenate([ka, kb]), np.concatenate([ea, eb])
    p0 = np.clip(e / np.maximum(n, 1), 1e-6, 1 - 1e-6)
    ok = n >= MIN_SAMPLE["checkdown_follow"]
    p = np.where(ok, _quasi_sf(k, n, p0, ok, pool, "checkdown_follow"), np.nan)
    pa_, pb_ = p[:height], p[height:]
    both = _fisher(np.nan_to_num(pa_, nan=1.0), np.nan_to_num(pb_, nan=1.0))
    pair = np.where(np.isnan(pa_), pb_, np.where(np.isnan(pb_), pa_, both))
    return {"checkdown_follow_n": na + nb, "checkdown_follow_k": ka + kb,
            "checkdown_follow_e": ea + eb, "checkdown_follow_p": pair,
            "checkdown_follow_na": na, "checkdown_follow_ka": ka, "checkdown_follow_ea": ea,
            "checkdown_follow_nb": nb, "checkdown_follow_kb": kb, "checkdown_follow_eb": eb}


# The range model's columns per pair (ranges.PAIR_SCHEMA), joined by `with_streets`
RANGE_COLUMNS = ("cdr_n", "cdr_k", "cdr_t", "cdr_e", "cdr_p")


def _checkdown_range(g: Mapping[str, Any], height: int) -> dict[str, Any]:
    """The `checkdown_range` columns (NaN unless the pair table carries the range model's,
    `RANGE_COLUMNS`): the pair's target spots (n), its continues and checks there (k), the
    statistic T and its honest mean (reported as e) and the model's p-value (NaN where fewer
    than ranges.MIN_SPOTS spots; audit/collusion/ranges.py).

    A check-down team acts on its agreement, not its cards: a call of a short stack's raise
    with a hand the caller folds without his partner in, a check behind an all-in with a hand
    he bets without him, weigh far more than the same action with aces. On the rulebook
    populations of issue 25 (60,000 hands, share 0.4) the counts of `checkdown_follow` and
    `checkdown_bets` found 2 of 4 check-down teams; weighed against each player's range, 3."""
    if not all(c in g for c in RANGE_COLUMNS):
        nan = np.full(height, np.nan)
        return {f"checkdown_range_{c}": nan for c in ("n", "k", "e", "t", "p")}
    n = g["cdr_n"]
    p = np.where(n >= MIN_SAMPLE["checkdown_range"], g["cdr_p"], np.nan)
    return {"checkdown_range_n": n, "checkdown_range_k": g["cdr_k"],
            "checkdown_range_e": g["cdr_e"], "checkdown_range_t": g["cdr_t"],
            "checkdown_range_p": p}


def _softplay_streets(g: Mapping[str, Any], height: int, pool: _Pool) -> dict[str, Any]:
    """The `softplay_streets` columns (NaN unless the pair table carries the street counts, as
    `_checkdown_bets`): bets and raises on the streets only A and B were left in a pot three or
    more saw the flop of, against the rates an actor × opponent fit of such streets over all
    pairs gives A against B and B against A (`_directed_rates`).

    The heads-up pots of `softplay` are those only the two entered; a team that lets a multiway
    pot go heads-up and then checks it through is not in them. On the rulebook population of
    issue 25 (share 0.4, seed 1) a team of three whose heads-up pots between two of its members
    read 25 bets where 38 were expected (p 0.01: missed) bet 7 times on 62 such streets where 46
    were expected (p 2e-9); the honest pairs read p 0.03 at the least."""
    if not all(c in g for c in ("hus_n", "hus_ka", "hus_kb", "hus_h__a", "hus_c__a")):
        nan = np.full(height, np.nan)
        return {"softplay_streets_n": nan, "softplay_streets_k": nan, "softplay_streets_e": nan,
                "softplay_streets_p": nan}
    n, k = g["hus_n"], g["hus_ka"] + g["hus_kb"]
    # (an actor × opponent fit, as `_checkdown_bets`)
    pa_, pb_ = _directed_rates(g, SOFTPLAY_STREETS)
    p0 = np.clip((pa_ + pb_) / 2, 1e-6, 1 - 1e-6)
    ok = n >= MIN_SAMPLE["softplay_streets"]
    return {"softplay_streets_n": n, "softplay_streets_k": k, "softplay_streets_e": 2 * n * p0,
            "softplay_streets_p": np.where(ok, _quasi_cdf(k, 2 * n, p0, ok, pool,
                                                          "softplay_streets"), np.nan)}


def with_streets(agg: A.Partial, streets: S.StreetCounts) -> A.Partial:
    """The aggregates with the street counts joined: per pair into the pair table, per player
    into the player rates (zero where a pair or player had none)."""
    keys = ["player_a", "player_b"]
    # the counts lined up with the table's rows and set beside its columns: the table joined
    # whole was a second copy of it (530 MB at 5,000,000 hands)
    counts = agg.table.select(keys).join(streets.pairs, on=keys, how="left",
                                         maintain_order="left").drop(keys)
    # as the table's own counts, UInt32 (streets counts them in Int64: six columns of 8 bytes
    # a pair held all through the scoring, 92 MB at 5,000,000 hands); the follow test's
    # expected continues stay floats (a sum of rates, a few a pair: cast to a count, the 1.87
    # a check-down team's member was expected to make read 1)
    table = agg.table.hstack(counts.with_columns(
        pl.col(*S.PAIR_COLUMNS).fill_null(0).cast(pl.UInt32),
        *(pl.col(c).fill_null(0).cast(pl.UInt32) for c in FOLLOW_COUNTS if c in counts.columns),
        *(pl.col(c).fill_null(0.0).cast(pl.Float64) for c in FOLLOW_EXPECTED
          if c in counts.columns)))
    range_rows = None
    if streets.range_spots is not None and streets.range_base is not None:
        # (the range model's p per pair, worked out once over all the hands: its baselines
        # are each player's own spots, not the pair table's; its rows kept for the overlap
        # re-check, `_range_without`)
        ranged, range_rows = RG.evidence_and_rows(streets.range_spots, streets.range_base)
        table = table.hstack(
            agg.table.select(keys).join(ranged, on=keys, how="left", maintain_order="left")
            .drop(keys).with_columns(pl.col("cdr_n", "cdr_k").fill_null(0).cast(pl.UInt32),
                                     pl.col("cdr_t", "cdr_e", "cdr_p").fill_null(np.nan)))
    rates = agg.rates.join(streets.players, on="player", how="left").with_columns(
        pl.col(*S.PLAYER_COLUMNS).fill_null(0))
    return A.Partial(table=table, cells=agg.cells, rates=rates, ranged=range_rows)


def pair_qvalues(p: Any, hands: Any) -> Any:
    """The pairs' q-values: Benjamini–Hochberg weighted by the hands each pair played together
    (`stats.weighted_bh_qvalues`, weights hands / mean hands over the tested pairs).

    A pair that shared a hundred hands cannot show any style with much evidence, a pair that
    shared thousands can: the correction spends its error budget where evidence can be. The
    hands are known before any test is run and under the null each p-value is uniform whatever
    they are, so the false-discovery rate holds. On the rulebook populations (issue 25, 60,000
    hands, 3,181-3,322 pairs, median 199 hands together, a team 6,000) the weak teams at a
    colluding share of 0.4 had p 4e-5 to 7e-4 and q 0.16-0.5 among all pairs: unweighted, a
    team's p had to be below 1e-5; weighted, 9 of 11 teams were found instead of 4 (seed 2),
    and still no lead on the clean populations nor on the real hands."""
    return weighted_bh_qvalues(p, np.asarray(hands, float))


def combine(scored: pl.DataFrame) -> pl.DataFrame:
    """Pair p-value (Bonferroni over tested features), q-value (`pair_qvalues`), top feature.

    One family of pairs, each pair on its strongest evidence. Measured on the rulebook
    population (issue 25; 60,000 hands, 3,322 pairs, share 0.4): testing each feature within
    its own family of pairs (Benjamini–Hochberg per feature, Bonferroni over the nine families,
    which keeps the false-discovery rate) found fewer planted teams, 7 of 11 where this finds 8:
    most families hold nearly every pair (whipsaw all 3,322), and within one a team ranks near
    the top where among all pairs' strongest evidence it ranks after the other leads, which BH
    rewards; only the check-down family is small (83 pairs) and it held no signal. Simes' test
    per pair (valid under the positive dependence of a team's features) ranked the pairs as
    Bonferroni does: a planted team's evidence is one feature, the others near 1."""
    names = [f.name for f in FEATURES]
    pm = np.column_stack([scored[f"{n}_p"].to_numpy() for n in names])
    pm[:, names.index("seating")] = np.nan  # descriptive only: see SEATING_NOTE
    tested = ~np.isnan(pm)
    m = tested.sum(axis=1)
    filled = np.where(tested, pm, np.inf)
    top = filled.argmin(axis=1)
    pmin = filled.min(axis=1)
    # Bonferroni only where a feature was tested: a pair with none has pmin = inf, and 0 * inf
    # would print a RuntimeWarning to the user (np.where computes both branches)
    p = np.full(m.shape, np.nan)
    has = m > 0
    p[has] = np.minimum(1.0, m[has] * pmin[has])
    q = pair_qvalues(p, scored["hands"].to_numpy())
    return scored.with_columns(
        p_value=pl.Series(p), q_value=pl.Series(q), n_features=pl.Series(m),
        top=pl.Series([names[i] for i in top]),
    )


def pair_scores(hand_players: pl.LazyFrame, hands: pl.LazyFrame, *, min_hands: int,
                seat_bucket: str = "1d", fdr: float | None = None, rounds: int = 3,
                rows_per_chunk: int = A.ROWS_PER_CHUNK, evidence_q: float | None = None,
                agg: A.Partial | None = None, streets: S.StreetCounts | None = None,
                cut: A.Split | None = None,
                street_hands: S.HandCounts | None = None,
                evidence: bool = True) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(scored pairs with p and q, the pair-hand rows that can be the evidence (`evidence_rows`)
    of the pairs with q <= `evidence_q`, all tested pairs when None or >= 1; none, an empty
    frame, without `evidence`: for callers that read the scores only).

    The hands are aggregated chunk by chunk (audit/collusion/aggregate.py), so memory is
    bounded by `rows_per_chunk`; `agg`, when given, are these hands' aggregates already (kept
    per run, see audit/collusion/findings.py). With `fdr`, leads explain away what they cause
    (`explain_away`). `cut`: these hands cut into pieces already (the `A.Split` that `agg` was
    made from): the lead players' hands are read from its pieces, not from a cut of their own;
    it is closed (its files removed) before this returns. `street_hands`: the counts per hand
    of `streets` when not in it (`S.HandCounts`, spilled: findings.collusion_leads).
    """
    if street_hands is None and streets is not None:
        street_hands = S.hand_counts(streets.hands)
    parts = A.chunks(hand_players, hands, rows_per_chunk)
    # the lead players' hands, built once for all that follows, in pieces of half a chunk's
    # hands: a piece's rows, built beside the pair table, were the collusion stage's peak at
    # 5,000,000 hands (1.88 GB in 12 pieces, 1.73 GB in 24, the same CPU within the noise)
    # (and so in a store of one chunk of more than half a chunk's rows: in one piece, a dense
    # population's were explaining away's peak, 1.0 GB at 200,000 hands where 120 players share
    # ~20,000 hands with each tablemate and the lead players sit in nearly every hand)
    pieces = (2 * len(parts) if len(parts) > 1
              else math.ceil(2 * hand_players.select(pl.len()).collect().item() / rows_per_chunk)
              or 1)
    if agg is None and cut is None and len(parts) > 1:
        # aggregated from those pieces, the projections cut once for both (a pass over them)
        cut = A.Split(hand_players.select(F.HAND_PLAYER_COLUMNS), F.hand_columns(hands), pieces)
    if agg is None:
        agg = A.aggregate(parts if cut is None else cut, seat_bucket)
    # the per-street counts read from the events (checkdown_bets, ...), unless `agg` carries
    # them already (findings.collusion_leads joins them to its aggregates, and passes them
    # here for their counts per hand, which the overlap re-check reads)
    if streets is not None and not all(c in agg.table.columns for c in S.PAIR_COLUMNS):
        agg = with_streets(agg, streets)
    rows = (A.HandRows(hand_players, hands, pieces) if cut is None
            else A.HandRows(hand_players, hands, split=cut))
    rows.cut()  # (before the scoring: the cut beside what it leaves took explaining away's peak)
    cells = agg.cells.lazy()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    measured: dict[str, float] = {}
    scored = _score(agg.table, agg.table, min_hands, agg.rates, cells, tables,
                    pool=_Pool(measured=measured))
    if fdr is not None:
        scored = explain_away(scored, agg, rows, min_hands, cells, tables, fdr, rounds,
                              lone=_Pool(lone=True, spread=tuple(sorted(measured.items()))),
                              street_hands=street_hands)
    if not evidence:
        # (the scorecard's: every tested pair's rows, a piece at a time and cut down to their
        # evidence, were its peak on a dense population, 2.7 GB at 200,000 hands where 120
        # players share ~20,000 hands with each tablemate; and it never read them)
        rows.close()
        return scored, pl.DataFrame()
    wanted = scored.filter(pl.col("p_value").is_not_nan())
    if evidence_q is not None and evidence_q < 1:
        wanted = wanted.filter(pl.col("q_value") <= evidence_q)
    # chunk by chunk, only the rows that can be evidence (all of them can be store-sized),
    # each marked where the follow test's continues happened (`followed`)
    follow = followed(street_hands, wanted)
    pairs = A.pair_rows(rows, wanted.select("player_a", "player_b"),
                        reduce=lambda piece: evidence_rows(with_followed(piece, follow),
                                                           wanted))
    rows.close()
    return scored, pairs


def _score(table: pl.DataFrame, baseline: pl.DataFrame, min_hands: int, rates: pl.DataFrame,
           cells: pl.LazyFrame, tables: pl.LazyFrame,
           totals: pl.DataFrame | None = None,
           seats: pl.DataFrame | None = None, pool: _Pool = WHOLE,
           keep: tuple[str, ...] = (), kept: pl.Series | None = None) -> pl.DataFrame:
    """Score the pairs of `table` with `min_hands` hands; baselines (player totals) from the
    pair table `baseline` (of its rows where `kept` is true, when given: `_cleaned`; or
    `totals` already made from it); co-sittings from all hands' `cells` (or `seats` already
    made for these pairs); population rates per `pool`."""
    if totals is None:
        totals = totals_of(baseline, kept, pool.known(FIT_TAU2_KEY))
    table = table.filter(pl.col("hands") >= min_hands)
    if seats is None:
        seats = F.co_sittings(cells, tables, table.lazy().select("player_a", "player_b")).collect()
    table = table.join(seats, on=["player_a", "player_b"], how="left")
    return combine(score_pairs(table, totals, rates, pool, keep,
                               partners_of(baseline, totals, kept)))


def _with_street_hands(table: pl.DataFrame, rows: A.HandRows, jobs: pl.DataFrame,
                       street_hands: S.HandCounts) -> pl.DataFrame:
    """The re-check's `table` (`A.without_table`, by job) with each job's street counts
    (streets.PAIR_COLUMNS, and the follow counts `FOLLOW_COLUMNS` where counted) over the same
    hands: its pair's per-hand counts (`street_hands`,
    streets.StreetCounts.hands) without the hands the job's absent player entered voluntarily;
    and (`all_{column}`) the pair's counts over all its hands, which its players' baselines
    leave out (`_checkdown_bets`, `_softplay_streets`).

    The baselines (each player's rates on such streets, the population's) stay those of all
    hands: the rates are counted per player-street, and the absent player's hands cannot be
    taken out of them without the events again. Leaving the pair's own streets out of them
    whole, not only those kept, keeps the lead's removed streets from counting as its players'
    play against others."""
    keys = ["player_a", "player_b"]
    cols = list(S.PAIR_COLUMNS)
    # the follow counts too, where counted (`FOLLOW_COLUMNS`): each hand's expected continues
    # are its spots' rates over the whole store, so a part of the hands sums to that part's
    # expectation; its players' rates need no `all_` columns
    follow = [c for c in FOLLOW_COLUMNS if c in street_hands.columns]
    entered = _entered(rows, jobs["absent"].unique().to_list()).rename({"player": "absent"})
    mine = street_hands.of_pairs(jobs)
    kept = (mine.join(jobs, on=keys)
            .join(entered, on=["hand_id", "absent"], how="anti")
            .group_by("job").agg(pl.col(*cols, *follow).sum()))
    whole = mine.group_by(keys).agg(pl.col(c).sum().alias(f"all_{c}") for c in cols)
    counted = [*cols, *(c for c in follow if c in FOLLOW_COUNTS)]
    expected = [c for c in follow if c in FOLLOW_EXPECTED]
    return (table.drop([c for c in (*cols, *follow, *(f"all_{c}" for c in cols))
                        if c in table.columns])
            .join(kept, on="job", how="left").join(whole, on=keys, how="left")
            .with_columns(pl.col(*counted, *(f"all_{c}" for c in cols)).fill_null(0)
                          .cast(pl.Int64),
                          *(pl.col(c).fill_null(0.0).cast(pl.Float64) for c in expected)))


# The tests that read counts from the events (audit/collusion/streets.py, joined by
# `with_streets`), and the pair-table columns they read.
FROM_EVENTS = {"checkdown_bets": ("cdx_n", "cdx_ka", "cdx_kb"),
               "softplay_streets": ("hus_n", "hus_ka", "hus_kb"),
               "checkdown_follow": FOLLOW_COLUMNS,
               "checkdown_range": RANGE_COLUMNS}


def _without(rows: A.HandRows, pairs: list[tuple[str, str]], absent: list[str],
             baseline: pl.DataFrame, totals: pl.DataFrame, min_hands: int, rates: pl.DataFrame,
             cells: pl.LazyFrame, tables: pl.LazyFrame, lone: _Pool = LONE,
             tests: list[tuple[str, int]] | None = None,
             street_hands: pl.DataFrame | S.HandCounts | None = None,
             ranged: pl.DataFrame | None = None) -> list[float]:
    """p-value of each pair of `pairs` on its hands that the matching player of `absent` did
    not enter (`A.without_table`; baselines from `baseline`; 1 when too few hands are left);
    `tests`: per job, the one test (feature, and the number of tests its Bonferroni counted)
    to judge it on, rather than its strongest evidence among all.

    The tests that read the events' street counts (`FROM_EVENTS`) are judged on the streets of
    the same hands (`street_hands`, streets.StreetCounts.hands: `_with_street_hands`), which
    the projections' hand rows behind `A.without_table` do not carry; without them such a job
    is NaN (undecided): reading it as p = 1 (cannot stand) let any overlapping lead that stood
    explain away a lead the events had found (issue 25).

    Each (pair, absent player) job is judged as if its pair were the only one scored (`LONE`:
    no population-wide rate across the jobs; the population's spread when `lone` carries it),
    all jobs in one table: one row per job, the pair's hands without the absent player's."""
    if not pairs:
        return []
    jobs = pl.DataFrame({
        "job": pl.Series(range(len(pairs)), dtype=pl.UInt32),
        "player_a": pl.Series([a for a, _ in pairs], dtype=pl.String),
        "player_b": pl.Series([b for _, b in pairs], dtype=pl.String),
        "absent": pl.Series(absent, dtype=pl.String)})
    wanted = jobs.select("player_a", "player_b").unique()
    table = A.without_table(rows, jobs)
    if table.height == 0:
        return [1.0] * len(pairs)
    if (per_hand := S.hand_counts(street_hands)) is not None:
        table = _with_street_hands(table, rows, jobs, per_hand)
    # seating is counted over all hands whichever are left out: once for all the pairs
    seats = F.co_sittings(cells, tables, wanted.lazy()).collect()
    scored = _score(table, baseline, min_hands, rates, cells, tables, totals, seats, lone,
                    keep=("job",))
    got = {r["job"]: (r["p_value"] if tests is None else
                      min(1.0, tests[r["job"]][1] * r[f"{tests[r['job']][0]}_p"]))
           for r in scored.iter_rows(named=True)}
    unread = {name for name, cols in FROM_EVENTS.items()
              if not all(c in table.columns for c in cols)}
    # the range test judged again from its own rows (`ranged`: the model's spots with their
    # fitted rates), on the hands the absent player did not enter
    ranges_again = ([] if ranged is None or tests is None else
                    [i for i in range(len(pairs)) if tests[i][0] == "checkdown_range"])
    if ranges_again:
        again = _range_without(rows, ranged, [pairs[i] for i in ranges_again],
                               [absent[i] for i in ranges_again])
        got |= {i: min(1.0, tests[i][1] * p) for i, p in zip(ranges_again, again, strict=True)}
        unread.discard("checkdown_range")
    return [np.nan if tests is not None and tests[i][0] in unread and i in got
            else 1.0 if (p := got.get(i)) is None or np.isnan(p) else float(p)
            for i in range(len(pairs))]


def _range_without(rows: A.HandRows, ranged: pl.DataFrame | None,
                   pairs: list[tuple[str, str]], absent: list[str]) -> list[float]:
    """The range model's p of each pair of `pairs` on its hands that the matching player of
    `absent` did not enter (ranges.without_hands: each spot at the rate fitted on all the
    hands; 1 when too few spots are left). Without it the range test's re-check was undecided,
    and a chip-dump team's play beside a stranger at its table (the stranger present at the
    team's spots) read as the stranger's range lead with a member, kept beside the team's own
    lead as one team of three (tests/collusion/test_collusion_simulated.py, seed 2)."""
    if ranged is None:
        return [1.0] * len(pairs)
    entered = _entered(rows, absent).rename({"player": "absent"})
    jobs = pl.DataFrame({"group": pl.Series(range(len(pairs)), dtype=pl.Int64),
                         "player_a": [a for a, _ in pairs], "player_b": [b for _, b in pairs],
                         "absent": absent},
                        schema={"group": pl.Int64, "player_a": pl.String,
                                "player_b": pl.String, "absent": pl.String})
    got = RG.without_hands(ranged, jobs, entered).sort("group")
    return [float(p) for p in got["cdr_p"]]


def resolve_overlaps(leads: pl.DataFrame, rows: A.HandRows, baseline: pl.DataFrame,
                     min_hands: int, rates: pl.DataFrame, cells: pl.LazyFrame,
                     tables: pl.LazyFrame,
                     memo: dict[tuple[tuple[str, str], str], float] | None = None,
                     lone: _Pool = LONE, fdr: float = 0.05,
                     street_hands: pl.DataFrame | S.HandCounts | None = None,
                     ranged: pl.DataFrame | None = None) -> pl.DataFrame:
    """The leads (player_a, player_b, p_value, top, n_features) less those another lead
    explains.

    Two leads sharing a player, (A, B) and (A, C), are each judged again without the hands the
    other's third player entered: (A, B) without those C entered, (A, C) without those B
    entered. When one stands (its re-check a discovery at the FDR among all the re-checks,
    Benjamini–Hochberg) and the other does not, the one that stands explains the other: a
    whipsawing partner A and a stranger C at his table look like folding to each other, because
    A's raises trap C between A and B, but without B's hands the pattern goes, while A and B
    without C's remain a team. When both stand, or neither (a team of three that always sits
    together), both are kept: they are one team (`lead_teams`).

    Entered, not sat: at a fixed table, where a team and a stranger sit together every hand,
    no hand is left without the other (both re-checks read p = 1 and every such lead stood).
    But a hand kept because B did not enter it is picked by B's choice, which depends on how
    A and C played before him (a chip dumper follows his receiver into the pot): the kept hands
    are no random part of the pair's, and tests of who enters with whom read them as new
    evidence (a chip dumper's receiver and a stranger read as card sharers, beyond any lead's
    p, on the hands the dumper stayed out of: the receiver enters almost only with him). So
    each re-check judges the lead on the test that made it a lead (its `top` feature,
    Bonferroni over its `n_features` as before), and against baselines from the same kind of
    hands: every pair's hands without those the absent player entered. A re-check is one test
    among the re-checks, not a pair among all pairs: judged against the weakest lead's p
    instead, a chip-dumping team re-checked without a loose stranger's hands (half its heavy
    folds gone, p 6e-6) fell short and was explained away by the stranger's own lead.

    A lead whose test reads the events' counts (`FROM_EVENTS`: `checkdown_bets`,
    `softplay_streets`, `checkdown_follow`) is judged on the streets of the hands kept, from
    the counts per hand (`street_hands`, `_with_street_hands`): the projections' rows the
    other tests are judged on carry no streets. Without the counts per hand its re-check is
    undecided, and an overlap with an undecided re-check explains neither lead (both kept:
    one team, as when both stand). Read
    as p = 1 it could never stand, and a dumper's chip-dump lead explained away his check-down
    lead with a stranger (no bet on 60 streets behind all-ins, in hands the receiver stayed out
    of, where 48 were expected).

    `memo` keeps each (pair, left-out player) p-value for the next call with the same
    `baseline` (explain_away's rounds judge mostly the same overlaps again).
    """
    keys = leads.select("player_a", "player_b").rows()
    overlap = [(i, j) for i in range(len(keys)) for j in range(i + 1, len(keys))
               if len(set(keys[i]) & set(keys[j])) == 1]
    if not overlap:
        return leads
    jobs: dict[tuple[tuple[str, str], str], float] = {}
    for i, j in overlap:
        third_j = next(x for x in keys[j] if x not in keys[i])
        third_i = next(x for x in keys[i] if x not in keys[j])
        jobs[(keys[i], third_j)] = jobs[(keys[j], third_i)] = 1.0
    memo = {} if memo is None else memo
    todo = [job for job in jobs if job not in memo]
    tests = {(r["player_a"], r["player_b"]): (r["top"], int(r["n_features"]))
             for r in leads.select("player_a", "player_b", "top", "n_features")
             .iter_rows(named=True)}
    for absent in sorted({x for _, x in todo}):
        mine = [job for job in todo if job[1] == absent]
        none = pl.DataFrame(schema={"player_a": pl.String, "player_b": pl.String})
        clean = A.subtract(baseline, A.spoiled_table(rows, pl.Series([absent]), none))
        ps = _without(rows, [k[0] for k in mine], [absent] * len(mine), clean,
                      totals_of(clean, fit_tau2=lone.known(FIT_TAU2_KEY)), min_hands, rates,
                      cells, tables, lone,
                      [tests[k[0]] for k in mine], street_hands, ranged)
        memo.update(zip(mine, ps, strict=True))
    order = list(jobs)
    # an undecided re-check (NaN, `_without`) is no test among the re-checks (bh_qvalues
    # leaves it out) and decides no overlap it is in: neither lead explains the other
    q = bh_qvalues(np.array([memo[job] for job in order]))
    stands = {job: None if np.isnan(qj) else bool(qj <= fdr)
              for job, qj in zip(order, q, strict=True)}
    explained: set[tuple[str, str]] = set()
    for i, j in overlap:
        third_j = next(x for x in keys[j] if x not in keys[i])
        third_i = next(x for x in keys[i] if x not in keys[j])
        i_stands, j_stands = stands[(keys[i], third_j)], stands[(keys[j], third_i)]
        if i_stands is None or j_stands is None:
            continue
        if i_stands and not j_stands:
            explained.add(keys[j])
        elif j_stands and not i_stands:
            explained.add(keys[i])
    if not explained:
        return leads
    gone = pl.DataFrame(sorted(explained), schema={"player_a": pl.String, "player_b": pl.String},
                        orient="row")
    return leads.join(gone, on=["player_a", "player_b"], how="anti")


# The most players joined into one team. Lead pairs that share players are one team (a ring
# that sits together makes every pair of it a lead), but a chain of leads longer than this is
# pairs that happen to share a player, not evidence of one ring: a regular who sits with
# everyone joined 113 players into one "team" on a store that repeats one population 500
# times. Past it each pair of the chain is reported as its own lead.
MAX_TEAM = 6


def lead_teams(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """Per lead pair, the members of its team: the players connected through lead pairs, or
    the pair alone when more than MAX_TEAM players are connected so."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), []).append(x)
    return {(a, b): tuple(sorted(members[root(a)])) if len(members[root(a)]) <= MAX_TEAM
            else (a, b) for a, b in pairs}


def explain_away(scored: pl.DataFrame, agg: A.Partial, rows: A.HandRows, min_hands: int,
                 cells: pl.LazyFrame, tables: pl.LazyFrame, fdr: float,
                 rounds: int, lone: _Pool = LONE,
                 street_hands: pl.DataFrame | S.HandCounts | None = None) -> pl.DataFrame:
    """Re-score the pairs that are not core leads with the core leads' influence removed, until
    the core is stable (at most `rounds` times).

    A team distorts what happens at its table: a soft-playing partner who never folds to his
    teammate lowers that teammate's "folds drawn" baseline, a dumper's losses raise his
    partner's skill, a partner caught calling between his teammate and a stranger looks like a
    whipsaw, and two strangers squeezed by a whipsawing team fold big pots to each other's re-
    raises. So the other pairs are judged on the hands that no player of a core lead (other
    than themselves) entered voluntarily, with baselines from those hands (entered, not sat: at
    a fixed table where a lead's player sits every hand, nothing was left, and every pair of
    the table, a real team among them, read p = 1). The core leads (every lead but those
    another lead sharing a player explains, `resolve_overlaps`) stand; every other pair, an
    explained lead included, is re-scored that way. A pair that lost hands to it, or has a
    lead's player in it, keeps the larger of its two p-values (1 once no longer testable): for
    it explaining away only removes evidence. A pair whose own hands are untouched takes its new
    p-value, judged on baselines free of the leads. Benjamini–Hochberg runs over the same tested
    pairs as the first pass. The pairs of a team of three that always sits together all stay
    core leads, reported as one lead with all members (`lead_teams`).
    """
    keys = ["player_a", "player_b"]
    street_hands = S.hand_counts(street_hands)
    first = scored
    lead_keys: set[tuple[str, str]] = set()
    memo: dict[tuple[tuple[str, str], str], float] = {}
    entered: dict[frozenset[str], pl.DataFrame] = {}  # (`_spoiled`)
    # the hands of every player who may be in a lead this round, at once (later rounds seldom
    # add one)
    candidates = scored.filter(pl.col("q_value") <= fdr)
    rows.cover(pl.concat([candidates["player_a"], candidates["player_b"]]).unique().to_list())
    for _ in range(rounds):
        leads = resolve_overlaps(scored.filter(pl.col("q_value") <= fdr)
                                 .sort("p_value", *keys),
                                 rows, agg.table, min_hands, agg.rates, cells, tables, memo,
                                 lone, fdr, street_hands, agg.ranged)
        leads = leads.select("player_a", "player_b")
        now = set(leads.iter_rows())
        if now == lead_keys:
            break
        lead_keys = now
        members = pl.concat([leads["player_a"], leads["player_b"]]).unique()
        # the pair table less the leads, less their hands: the rows they change beside it,
        # not a copy of it (a big room's pair table is most of the stage's memory)
        clean, kept = _cleaned(agg.table, leads,
                               _spoiled(rows, members, leads, street_hands, entered)
                               if len(members) else None)
        clean = _range_cleaned(clean, agg.ranged, rows, members, entered)
        tested = clean.filter(pl.lit(kept) & (pl.col("hands") >= min_hands))
        # weighted as the first pass was (its co-entry order fit's τ²₀, carried in `lone`): a
        # lead's q moved with a τ²₀ measured again on each cleaned table
        again = _score(tested, clean, min_hands, agg.rates, cells, tables, kept=kept,
                       totals=totals_of(clean, kept, lone.known(FIT_TAU2_KEY))).select(
            *keys, p_again=pl.col("p_value").fill_nan(1.0), hands_again=pl.col("hands"))
        core = leads.with_columns(core=pl.lit(True))
        merged = (first.join(again, on=keys, how="left").join(core, on=keys, how="left")
                  .with_columns(pl.col("p_again").fill_null(1.0), pl.col("core").fill_null(False),
                                intact=(pl.col("hands_again") == pl.col("hands")).fill_null(False)
                                & ~pl.col("player_a").is_in(members.implode())
                                & ~pl.col("player_b").is_in(members.implode())))
        p = merged["p_value"].to_numpy()
        again_p = merged["p_again"].to_numpy()
        # a pair whose own hands are untouched is judged afresh on the cleaner baselines; one
        # that lost hands, or has a lead's player in it, can only lose evidence
        p = np.where(merged["core"].to_numpy() | np.isnan(p), p,
                     np.where(merged["intact"].to_numpy(), again_p, np.fmax(p, again_p)))
        del clean, kept, tested
        scored = merged.drop("p_again", "hands_again", "core", "intact").with_columns(
            p_value=pl.Series(p), q_value=pl.Series(pair_qvalues(p, scored["hands"].to_numpy())))
    return scored


def _range_cleaned(table: pl.DataFrame, ranged: pl.DataFrame | None, rows: A.HandRows,
                   members: pl.Series,
                   memo: dict[frozenset[str], pl.DataFrame] | None = None) -> pl.DataFrame:
    """`table` with the range test's p (cdr_p) of each pair worked out again without the hands
    a player of `members` other than the pair's own entered (`_entered`, `memo` as `_spoiled`'s;
    ranges.without_hands: each spot at the rate fitted on all the hands), where it lost any.
    The range p cannot be taken apart as the counts are (`_spoiled`), and kept whole a
    chip-dump team's play beside a stranger at its table stayed the stranger's range lead with
    a member after the overlap re-check had explained it (tests/collusion/
    test_collusion_simulated.py, seed 2)."""
    if ranged is None or ranged.height == 0 or not len(members) or "cdr_p" not in table.columns:
        return table
    entered = _entered(rows, members.to_list(), memo)
    keys = ["player_a", "player_b"]
    lost = (ranged.select(*keys, "hand_id").unique().join(entered, on="hand_id")
            .filter((pl.col("player") != pl.col("player_a"))
                    & (pl.col("player") != pl.col("player_b")))
            .select(*keys, "hand_id").unique())
    if lost.height == 0:
        return table
    # (each pair its own label as the absent one: the hands it lost are its own)
    label = pl.concat_str("player_a", pl.lit("\x00"), "player_b").alias("absent")
    jobs = (lost.select(keys).unique().sort(keys).with_row_index("group")
            .with_columns(pl.col("group").cast(pl.Int64), label))
    again = RG.without_hands(ranged, jobs, lost.select("hand_id", label))
    again = jobs.join(again, on="group").select(*keys, "cdr_p")
    # the rows of those pairs (`_t`, each of `table`'s rows of them: a pair its hands took
    # away from is in `_cleaned`'s table twice) found by joining the few pairs with the table's
    # names, and only the one column set anew beside the others: the table joined whole was a
    # copy of it (620 MB at 5,000,000 hands), on top of the scoring's peak
    at = table.select(keys).with_row_index("_t").join(again, on=keys, how="inner")
    return table.with_columns(table["cdr_p"].scatter(at["_t"], at["cdr_p"]))


def _entered(rows: A.HandRows, players: Iterable[str],
             memo: dict[frozenset[str], pl.DataFrame] | None = None) -> pl.DataFrame:
    """(hand_id, player) of each hand a player of `players` entered voluntarily (vpip), from
    `rows` piece by piece; kept in `memo` by the set of players when given (explaining away
    asks for the same leads' players' hands in `_spoiled` and `_range_cleaned`)."""
    key = frozenset(p for p in players if p is not None)
    if memo is not None and key in memo:
        return memo[key]
    them = pl.Series(sorted(key), dtype=pl.String).implode()
    got = pl.concat(
        [ph.filter(pl.col("player").is_in(them) & pl.col("vpip").fill_null(False))
         .select("hand_id", "player").unique() for ph in rows.player_hands(sorted(key))]
        or [pl.DataFrame(schema={"hand_id": pl.String, "player": pl.String})]).unique()
    if memo is not None:
        memo[key] = got
    return got


def _spoiled(rows: A.HandRows, members: pl.Series, skip: pl.DataFrame,
             street_hands: S.HandCounts | None,
             memo: dict[frozenset[str], pl.DataFrame] | None = None) -> pl.DataFrame:
    """`A.spoiled_table` (what each pair loses when the hands a player of `members` who is not
    one of the pair entered voluntarily are set aside; the pairs of `skip` left out), with the
    events' counts of those hands (the street counts `S.PAIR_COLUMNS` and the follow counts
    `FOLLOW_COLUMNS`, from the counts per hand, `street_hands`, where counted).

    A pair's follow spots are another pair's too whenever a third player was in: an honest
    tablemate of a team shares the follower's spots with the partner in (issue 25, seed 1:
    p1_00016's follows beside his partner p1_00017 read as following beside p1_00035 too, BH
    q 0.018 on this test alone; p 0.007 over all tests, 0.46 on the hands p1_00017 did not
    enter). Judged again on the hands the team did not enter, with its follow counts over all
    its hands, such a pair kept its lead after the overlap re-check had explained it away.
    The street counts likewise (`checkdown_bets`, `softplay_streets`, the whipsaw streets): a
    check-down's streets without a bet behind an all-in, with a stranger in beside the partner,
    are the stranger's pair's streets too; left in, explaining away judged that pair on the
    hands the team did not enter with the team's streets still in them.
    `memo`: the hands each set of members entered, for explaining away's next round."""
    spoiled = A.spoiled_table(rows, members, skip)
    follow = [] if street_hands is None else [c for c in (*S.PAIR_COLUMNS, *FOLLOW_COLUMNS)
                                              if c in street_hands.columns]
    if not follow or street_hands is None:
        return spoiled
    keys = ["player_a", "player_b"]
    entered = _entered(rows, members.to_list(), memo)
    n_lead = entered.group_by("hand_id").agg(n_lead=pl.len().cast(pl.Int64))
    mark = entered.with_columns(_in=pl.lit(1, pl.Int64))
    # (as `A.spoiled_table`: a hand counts when a member other than the pair's own entered it)
    lost = (street_hands.of_hands(n_lead["hand_id"]).select("hand_id", *keys, *follow)
            .join(n_lead, on="hand_id", how="inner")
            .join(mark.rename({"player": "player_a", "_in": "_ia"}), on=["hand_id", "player_a"],
                  how="left")
            .join(mark.rename({"player": "player_b", "_in": "_ib"}), on=["hand_id", "player_b"],
                  how="left")
            .filter(pl.col("n_lead") - pl.col("_ia").fill_null(0) - pl.col("_ib").fill_null(0)
                    > 0)
            .join(skip.select(keys), on=keys, how="anti")
            .group_by(keys).agg(pl.col(*follow).sum()))
    if lost.height == 0:
        return spoiled
    if spoiled.width == 0:
        return lost
    both = spoiled.join(lost, on=keys, how="full", coalesce=True)
    return both.with_columns(pl.col(c).fill_null(0) for c in both.columns if c not in keys)


def _cleaned(table: pl.DataFrame, leads: pl.DataFrame, minus: pl.DataFrame | None
             ) -> tuple[pl.DataFrame, pl.Series]:
    """The pair table `table` without the pairs of `leads`, less the counts of `minus` (the
    leads' hands, `A.spoiled_table`; as `A.subtract`), as its rows where the second element,
    a boolean series, is true: the rows of `table` that neither is in, then those `minus` is
    in, less it (after `table`'s rows, their buffers shared, not copied).

    A copy of the table less the leads' pairs and hands, however few rows they change, was the
    collusion stage's peak at 5,000,000 hands beside the table (1.9M pairs, 620 MB; the leads'
    hands changed 44,650 of them): the scoring reads the rows kept (`_score`'s `kept`)."""
    keys = ["player_a", "player_b"]
    # the rows of `table` a few pairs are in, found by joining the few pairs with the table's
    # names (the table's names joined with them were a copy of its two largest columns)
    index = table.select(keys).with_row_index("_t")
    lead = leads.select(keys).unique().join(index, on=keys, how="inner")["_t"]
    kept = pl.Series("kept", np.ones(table.height, bool)).scatter(lead, False)
    if minus is None or minus.width == 0 or minus.height == 0:
        return table, kept
    # each changed row's place in `table` (`_t`) and in `minus` (`_m`), in the table's order
    at = (minus.select(keys).with_row_index("_m").join(index, on=keys, how="inner")
          .filter(~pl.col("_t").is_in(lead.implode())).sort("_t"))
    rows, of = at["_t"], at["_m"]
    changed = pl.DataFrame([
        (table[c].gather(rows) - minus[c].gather(of)).cast(table.schema[c]).alias(c)
        if c in minus.columns and c not in keys else table[c].gather(rows)
        for c in table.columns])
    kept = kept.scatter(rows, False)
    return (pl.concat([table, changed], rechunk=False),
            pl.concat([kept, pl.Series("kept", np.ones(changed.height, bool))], rechunk=False))


def followed(street_hands: pl.DataFrame | S.HandCounts | None, wanted: pl.DataFrame
             ) -> pl.DataFrame:
    """The hands (hand_id, player_a, player_b) of the `wanted` pairs in which one of the two
    called or raised a short stack's preflop raise with the other in (the follow test's
    continues, `FOLLOW_COLUMNS`, per hand: streets.StreetCounts.hands); none when not
    counted."""
    keys = ["hand_id", "player_a", "player_b"]
    counts = S.hand_counts(street_hands)
    if counts is None or not all(c in counts.columns for c in ("cdf_ka", "cdf_kb")):
        return pl.DataFrame(schema={c: pl.String for c in keys})
    return (counts.of_pairs(wanted)
            .filter((pl.col("cdf_ka") > 0) | (pl.col("cdf_kb") > 0)).select(keys).unique())


def with_followed(pairs: pl.DataFrame, follow: pl.DataFrame | None = None) -> pl.DataFrame:
    """Pair-hand rows with `cdf`: the hand is one of `follow` (`followed`; False for all when
    None). The projections' rows do not tell a short stack's raise apart, the events' counts
    per hand do."""
    if "cdf" in pairs.columns:
        return pairs
    if follow is None or follow.height == 0 or pairs.height == 0:
        return pairs.with_columns(cdf=pl.lit(False))
    return pairs.join(follow.with_columns(cdf=pl.lit(True)),
                      on=["hand_id", "player_a", "player_b"], how="left",
                      maintain_order="left").with_columns(pl.col("cdf").fill_null(False))


_EVIDENCE_FILTER = {
    "softplay": pl.col("hu") & ~pl.col("post_a") & ~pl.col("post_b"),
    "hu_aggression": pl.col("hu") & (pl.col("post_a") | pl.col("post_b")),
    "co_entry": pl.col("vpip_a") != pl.col("vpip_b"),
    "fold_to_partner": pl.col("fold_a") | pl.col("fold_b"),
    "strong_fold": pl.col("sfold_a") | pl.col("sfold_b"),
    "card_share": (pl.col("cs_a") & ~pl.col("cs_ea")) | (pl.col("cs_b") & ~pl.col("cs_eb")),
    # (a third player caught calling, or both raising after the flop around him: the two
    # counts the whipsaw test reads; the streets a third player was in are not in the
    # pair-hand rows, the hands both raised after the flop hold them)
    "whipsaw": pl.col("ws") | (pl.col("multi") & pl.col("post_a") & pl.col("post_b")),
    "checkdown": pl.col("cd"),
    "checkdown_bets": pl.col("cd_opp"),
    # (the hands one of the two followed a short stack's raise with the other in, marked from
    # the events' counts per hand, `with_followed`)
    "checkdown_follow": pl.col("cdf"),
    # (the range model's spots are not in the pair-hand rows: the hands one followed a short
    # stack beside the other, or both were in behind a third player's all-in)
    "checkdown_range": pl.col("cdf") | pl.col("cd_opp"),
    # (the streets are not in the pair-hand rows: the multiway hands both entered and neither
    # bet into beyond one preflop raise)
    "softplay_streets": pl.col("multi") & pl.col("vpip_a") & pl.col("vpip_b") & ~pl.col("hu")
    & ~pl.col("post_a") & ~pl.col("post_b"),
    "heavy_fold": pl.col("hfold_a") | pl.col("hfold_b"),
    "seating": pl.lit(True),
}


def _evidence_ranks() -> dict[str, tuple[pl.Expr, pl.Expr]]:
    """Per feature: which pair-hand rows can be its evidence (`sign`: the sign of the lead's
    chip flow) and the measure that ranks them, largest first."""
    ranks = {name: (cond, pl.col("pot") if name != "seating"
                    else -pl.col("ts").cast(pl.Int64).fill_null(0))
             for name, cond in _EVIDENCE_FILTER.items()}
    ranks["chip_dump"] = (pl.col("d") * pl.col("sign") > 0, pl.col("d") * pl.col("sign"))
    return ranks


def _ranked(sub: pl.DataFrame, cond: pl.Expr, key: pl.Expr) -> pl.DataFrame:
    return sub.filter(cond).sort(key, "hand_id", descending=[True, False])


def evidence(pairs: pl.DataFrame, leads: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Per feature, the hand ids that contributed most to each lead pair (lists, best first;
    hands tied on the measure in hand id order, so that a run's evidence never depends on the
    order the pair-hand rows were built in)."""
    keys = ["player_a", "player_b"]
    sub = with_followed(pairs).join(leads.select(*keys, sign=pl.col("chip_dump_z").sign()),
                                    on=keys)
    return {name: _ranked(sub, cond, key).group_by(keys, maintain_order=True)
            .agg(pl.col("hand_id").head(EVIDENCE))
            for name, (cond, key) in _evidence_ranks().items()}


def evidence_rows(pairs: pl.DataFrame, leads: pl.DataFrame) -> pl.DataFrame:
    """The rows of `pairs` (pair-hand rows) that `evidence` can pick for these leads: each
    feature's first EVIDENCE per pair. The evidence of a union of such rows is the evidence of
    all the rows (each feature's order is total: measure, then hand id), so pair-hand rows are
    cut down chunk by chunk."""
    keys = ["player_a", "player_b"]
    pairs = with_followed(pairs)
    sub = pairs.join(leads.select(*keys, sign=pl.col("chip_dump_z").sign()), on=keys)
    first = pl.int_range(pl.len()).over(keys) < EVIDENCE
    picked = [_ranked(sub, cond, key).filter(first) for cond, key in _evidence_ranks().values()]
    return (pl.concat(picked).unique(subset=["hand_id", *keys], maintain_order=True)
            .select(pairs.columns))


def _describe(name: str, r: dict[str, Any]) -> str:
    n, k, e = r[f"{name}_n"], r[f"{name}_k"], r[f"{name}_e"]
    a, b = r["player_a"], r["player_b"]
    if name == "softplay":
        return (f"in {n:.0f} heads-up pots against each other {a} and {b} bet or raised "
                f"{k:.0f} times where {e:.1f} were expected from their heads-up play "
                "against others and others' against them")
    if name == "hu_aggression":
        return (f"in {n:.0f} heads-up pots against each other {a} and {b} bet or raised "
                f"{k:.0f} times where {e:.1f} were expected from their heads-up play "
                "against others and others' against them: large bets into one account")
    if name == "fold_to_partner":
        return (f"they folded to each other's bets {k:.0f} of {n:.0f} times where {e:.1f} "
                "folds were expected from how often each folds to other players' bets and the "
                "other's bets draw folds from other players")
    if name == "strong_fold":
        return (f"they folded strong hole cards (TT+, AK, AQ) to each other's bets {k:.0f} of "
                f"{n:.0f} times where {e:.1f} were expected from each one's such folds to "
                "others and others' such folds to the other")
    if name == "card_share":
        return (f"in {n:.0f} hands where the stronger of their two known starting hands entered "
                f"the pot, the weaker entered too {k:.0f} times where {e:.1f} were expected from "
                "each one's play against others' hands: the weaker hand folds as if each knew "
                "the other's cards")
    if name == "co_entry":
        return (f"in {n:.0f} hands together both entered the pot voluntarily {k:.0f} times "
                f"where {e:.1f} were expected from each one's entry rate in those hands "
                f"({abs(r['co_entry_z']):.1f} standard deviations below the population of "
                "pairs): one folds when the other plays, as when hole cards are shared")
    if name == "chip_dump":
        src, dst = (a, b) if k >= 0 else (b, a)
        return (f"{src} lost a net {abs(k):,.0f} big blinds ({abs(r['flow_chips']):,.0f} in "
                f"chips) to {dst} over {r['hands']} hands together where {e:+,.0f} ({a}->{b}) "
                "was expected from their results against others "
                f"({abs(r['chip_dump_z']):.1f} standard deviations given the pot sizes)")
    if name == "heavy_fold":
        return (f"they folded to each other's bets after putting {F.HEAVY_BB} big blinds or "
                f"more into the pot {k:.0f} of {n:.0f} times where {e:.1f} were expected from "
                "each one's such folds against others and the other's against everyone else")
    if name == "whipsaw" and r.get("whipsaw_raises") == 2:
        return (f"both bet or raised on a street after the flop while a third player was still "
                f"in with chips in {k:.0f} of the {n:.0f} multiway hands together both bet or "
                f"raised in (a third player calling in between in {r['whipsaw_c']:.0f} of them), "
                f"where {e:.1f} were expected from each player's such hands with other partners")
    if name == "whipsaw" and r.get("whipsaw_raises"):
        return (f"both bet or raised after the preflop round in {k:.0f} of the {n:.0f} "
                f"multiway hands together both bet or raised in, where {e:.1f} were expected "
                "from each player's such hands with other partners")
    if name == "whipsaw":
        return (f"both bet or raised with a third player calling in between in {k:.0f} of "
                f"{n:.0f} multiway hands together where {e:.1f} were expected from each "
                "player's rate with other partners")
    if name == "checkdown":
        return (f"in {n:.0f} hands in which both stayed in with chips behind a third player's "
                f"all-in they checked it down {k:.0f} times where {e:.1f} were expected from "
                "the population's rate and each one's check-downs without the other")
    if name == "softplay_streets":
        return (f"on {n:.0f} streets on which only {a} and {b} were left in a pot three or more "
                f"saw the flop of, they bet or raised {k:.0f} times where {e:.1f} were expected "
                "from each one's play on such streets against others and others' against the "
                "other")
    if name == "checkdown_bets":
        return (f"on {n:.0f} streets after a third player's all-in on which both had chips "
                f"they bet or raised {k:.0f} times where {e:.1f} were expected from each one's "
                "betting behind all-ins against others and others' against the other")
    if name == "checkdown_follow":
        sides = [f"{x} called or raised {r[f'{name}_k{s}']:.0f} of "
                 f"{r[f'{name}_n{s}']:.0f} times with {y} still in where "
                 f"{r[f'{name}_e{s}']:.1f} were expected"
                 for x, y, s in ((a, b, "a"), (b, a, "b")) if r[f"{name}_n{s}"] > 0]
        return ("facing a third player's preflop raise from a short stack or all-in, "
                f"{'; '.join(sides) or 'no such spot'} (from each one's play of starting hands "
                "of the same strength without the other in): following short stacks into the "
                "pot beside the partner")
    if name == "checkdown_range":
        return (f"at {n:.0f} spots with the other in (facing a short stack's or all-in preflop "
                f"raise, or checked to behind a third player's all-in) {a} and {b} continued "
                f"or checked {k:.0f} times, with hands each of them folds or bets without the "
                f"other far more often: a likelihood ratio score of {r[f'{name}_t']:.1f} "
                f"where {e:.1f} was expected from each one's own range")
    return (f"they sat at the same table on {k:.0f} table-days where {e:.1f} were expected by "
            "chance given the tables open those days")


# Significant digits of q and p that rank the pairs (past them, the pair's names): p and q
# made from the same counts come out different in their last digits (1e-14 relative) whenever
# the float sums behind them add the same terms in another order (another chunking, polars'
# threads), and the 50 copies of one planted pair at 5,000,000 hands (one p in exact arithmetic)
# came out in another order from run to run
RANK_DIGITS = 10


def rank_key() -> list[pl.Expr]:
    """The lead order: q, then p (both to RANK_DIGITS significant digits), then the pair's
    names."""
    return [pl.col("q_value").round_sig_figs(RANK_DIGITS),
            pl.col("p_value").round_sig_figs(RANK_DIGITS), pl.col("player_a"),
            pl.col("player_b")]


def lead_rows(scored: pl.DataFrame, pairs: pl.DataFrame, run_id: str | None,
              fdr: float) -> pa.Table:
    """Rank the pairs by q then p; rows of LEAD_SCHEMA with evidence and message. Lead pairs
    that share players are one team (`lead_teams`): one row, under its strongest pair, names
    all its members and the other pairs."""
    ranked = scored.sort(*rank_key(), nulls_last=True)
    ranked = ranked.filter(pl.col("q_value") <= fdr) if fdr < 1 else ranked
    if ranked.height == 0:
        return LEAD_SCHEMA.empty_table()
    keys = ranked.select("player_a", "player_b").rows()
    teams = lead_teams(keys) if fdr < 1 else {k: k for k in keys}
    members: dict[tuple[str, ...], list[int]] = {}
    for i, key in enumerate(keys):
        members.setdefault(teams[key], []).append(i)
    keep = sorted(rows[0] for rows in members.values())
    others = {team: [(keys[j], ranked.row(j, named=True)) for j in rows[1:]]
              for team, rows in members.items()}
    ranked = ranked.with_row_index("_i").filter(pl.col("_i").is_in(keep)).drop("_i")
    ev = evidence(pairs, ranked)
    ev_maps = {n: {(x["player_a"], x["player_b"]): x["hand_id"] for x in df.to_dicts()}
               for n, df in ev.items()}
    specs = {f.name: f for f in FEATURES}
    rows = []
    tested = int(scored["p_value"].is_not_nan().sum())
    for i, r in enumerate(ranked.to_dicts(), start=1):
        pair = (r["player_a"], r["player_b"])
        top = specs[r["top"]]
        feats = {f.name: {"n": r[f"{f.name}_n"], "observed": r[f"{f.name}_k"],
                          "expected": round(r[f"{f.name}_e"], 3),
                          "p": None if np.isnan(r[f"{f.name}_p"]) else r[f"{f.name}_p"]}
                 for f in FEATURES}
        hands = list(ev_maps[top.name].get(pair, []))
        for f in FEATURES:
            p = r[f"{f.name}_p"]
            if f.name != top.name and not np.isnan(p) and p < 0.01:
                hands += [h for h in ev_maps[f.name].get(pair, [])[:3] if h not in hands]
        player, counterparty = pair
        delta = None
        if top.name in ("chip_dump", "hu_aggression"):
            delta = int(round(abs(r["flow_chips"])))
            if r["chip_dump_k"] < 0:
                player, counterparty = counterparty, player
        elif top.name == "heavy_fold":
            delta = int(round(abs(r["flow_chips"])))
            if r["hfb_k"] > r["hfa_k"]:
                player, counterparty = counterparty, player
        elif top.name == "fold_to_partner" and r["fb_k"] > r["fa_k"]:
            player, counterparty = counterparty, player
        also = [f"{specs[f.name].title} p={r[f'{f.name}_p']:.2g}" for f in FEATURES
                  if f.name != top.name and not np.isnan(r[f"{f.name}_p"])
                  and r[f"{f.name}_p"] < 0.01]
        team = teams[pair]
        mates = [f"{a}-{b} ({specs[x['top']].title}, q={x['q_value']:.2g})"
                 for (a, b), x in others[team]]
        message = (f"Lead, not a verdict ({top.rule_id}, {top.title}): "
                   + (f"team of {len(team)}: {', '.join(team)}; pairs also {'; '.join(mates)}; "
                      if len(team) > 2 else "")
                   + f"{_describe(top.name, r)}; p={r[f'{top.name}_p']:.2g}, pair q="
                   f"{r['q_value']:.2g} among {tested} pairs tested"
                   + (f"; also {', '.join(also)}" if also else "")
                   + f"; evidence hands: {', '.join(hands) or 'none'}.")
        rows.append({
            "rank": i, "run_id": run_id, "player_a": pair[0], "player_b": pair[1],
            "player": player, "counterparty": counterparty, "pattern": top.rule_id,
            "score": float(-np.log10(max(r["p_value"], 1e-300))), "p_value": r["p_value"],
            "q_value": r["q_value"], "hands": r["hands"], "delta": delta,
            "features": json.dumps(feats, default=float), "evidence_hand_ids": hands,
            "message": message, "team": list(team),
        })
    return pa.Table.from_pylist(rows, schema=LEAD_SCHEMA)


def leads_from_frames(hand_players: pl.DataFrame | pl.LazyFrame,
                      hands: pl.DataFrame | pl.LazyFrame, *, min_hands: int = 100,
                      fdr: float = 0.05, run_id: str | None = None,
                      seat_bucket: str = "1d", rows_per_chunk: int = A.ROWS_PER_CHUNK,
                      agg: A.Partial | None = None,
                      streets: S.StreetCounts | None = None,
                      cut: A.Split | None = None,
                      street_hands: S.HandCounts | None = None) -> pa.Table:
    """Ranked leads (q <= fdr; fdr >= 1 returns every tested pair) from projection frames
    (and the events' street counts, `streets`, when read: audit/collusion/streets.py; `cut`:
    see `pair_scores`)."""
    scored, pairs = pair_scores(hand_players.lazy(), hands.lazy(), min_hands=min_hands,
                                seat_bucket=seat_bucket, fdr=min(fdr, 0.999), evidence_q=fdr,
                                rows_per_chunk=rows_per_chunk, agg=agg, streets=streets,
                                cut=cut, street_hands=street_hands)
    scored = scored.filter(pl.col("p_value").is_not_nan())
    return lead_rows(scored, pairs, run_id, fdr)
