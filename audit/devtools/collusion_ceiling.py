"""The check-down ceiling: which check-down teams a detector that knew every honest player's
rule could find (issue 25), on a rulebook population (audit/simulate/play/population.py).

The detectors (audit/collusion/leads.py) estimate each player's honest play from his other
hands. This bound does not: it knows each honest type's rule exactly (`honest_chance`) and how a
check-down team plays (`check_down_play`), and gives every pair the Neyman-Pearson test of "these
two play check-down in a share S of the hands they are dealt into together" against "both play
honestly". A team it cannot find, no detector can; a team it finds and the detectors miss shows
what estimating the honest play costs.

A *spot* of a pair (A, B) is a decision of A, with B in the hand and not folded, where the team
rule would act (`check_down_play`: check behind a third player's all-in, call a third player's
shove, follow a short stack's raise preflop); its *chance* is the probability that A's honest
type plays that action there. Per hand the pair's likelihood ratio is (1 - S) + S * prod(1 /
chance) when A and B played the team rule's action at every spot of the hand, else 1 - S; the
pair's statistic T is the sum of their logs, and its p-value the share of draws of the honest
actions at the same spots (each spot's action drawn with its chance) with T as high (Monte Carlo:
MC_DRAWS, MC_DRAWS_TAIL for the small ones; the smallest p it can give is 1 / (draws + 1)).
Benjamini-Hochberg over the pairs dealt in together in `min_hands` hands or more gives q.

The spots are read while the population plays (population.Watch), from its own state: a bound
for the simulator's teams, not a detector (a real log carries no rule).
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from audit.collusion.stats import bh_qvalues
from audit.simulate.play.engine import Hand
from audit.simulate.play.population import Population, check_down_play, honest_chance
from audit.simulate.play.sim import simulate
from audit.simulate.play.table import Table

MC_DRAWS = 2_000
MC_DRAWS_TAIL = 200_000  # for the pairs whose first p is below TAIL_BELOW
TAIL_BELOW = 0.01
CHANCE_FLOOR = 1e-9  # an action the honest rule never plays: found at once, not a division by 0


@dataclass(frozen=True, slots=True)
class PairBound:
    player_a: str
    player_b: str
    hands_together: int
    spots: int
    statistic: float
    p: float
    q: float
    rank: int
    team: str  # "team_id:style" of a planted pair, "" for the others


@dataclass(frozen=True, slots=True)
class Ceiling:
    pairs: list[PairBound]  # every tested pair, by p
    fdr: float

    def teams(self) -> list[PairBound]:
        return [p for p in self.pairs if p.team]

    def leads(self) -> list[PairBound]:
        return [p for p in self.pairs if p.q <= self.fdr]


class _SpotLog:
    """The population's watch: per pair and hand, each spot's (team rule matched, chance)."""

    def __init__(self) -> None:
        self.spots: dict[tuple[str, str], dict[int, list[tuple[bool, float]]]] = defaultdict(
            lambda: defaultdict(list))
        self.together: dict[tuple[str, str], int] = defaultdict(int)
        self._hand: Hand | None = None
        self._hands = 0

    def __call__(self, population: Population, t: Table, h: Hand, s: int, act: tuple) -> None:
        if h is not self._hand:
            self._hand, self._hands = h, self._hands + 1
            dealt = sorted(p.pid for x in h.order if (p := t.players[x]) is not None
                           and p.pid in population.kind)
            for i, a in enumerate(dealt):
                for b in dealt[i + 1:]:
                    self.together[(a, b)] += 1
        me = t.players[s]
        assert me is not None
        owed = h.cur - h.bet[s]
        for x in h.order:
            mate = t.players[x]
            if x == s or h.folded[x] or mate is None or mate.pid not in population.kind:
                continue
            others = [y for y in h.order if y not in (s, x) and not h.folded[y]]
            rule = check_down_play(h, s, [x], others, owed)
            if rule is None:
                continue
            chance = honest_chance(h, s, population.kind[me.pid], rule[0])
            pair = (min(me.pid, mate.pid), max(me.pid, mate.pid))
            self.spots[pair][self._hands].append((act[0] == rule[0], max(chance, CHANCE_FLOOR)))


def _statistic(matched: np.ndarray, chance: np.ndarray, ends: np.ndarray, share: float
               ) -> np.ndarray:
    """T of one pair for each row of `matched` (draws x spots), the hands' spots ending at
    `ends` (cumulative)."""
    ratio = np.where(matched, 1.0 / chance, 0.0)
    total = np.zeros(matched.shape[0])
    start = 0
    # (a team colluding in every hand, share 1: a hand off its rule is log 0, -inf: never it)
    with np.errstate(divide="ignore"):
        for end in ends:
            total += np.log((1 - share) + share * np.prod(ratio[:, start:end], axis=1))
            start = end
    return total


def _p_value(hands: dict[int, list[tuple[bool, float]]], share: float,
             rng: np.random.Generator) -> tuple[int, float, float]:
    """(spots, T, Monte Carlo p) of one pair's spots."""
    rows = [spot for spots in hands.values() for spot in spots]
    matched = np.array([m for m, _ in rows])
    chance = np.array([c for _, c in rows])
    ends = np.cumsum([len(spots) for spots in hands.values()])
    t = float(_statistic(matched[None, :], chance, ends, share)[0])
    p = 1.0
    for draws in (MC_DRAWS, MC_DRAWS_TAIL):
        null = _statistic(rng.random((draws, len(rows))) < chance, chance, ends, share)
        p = (int((null >= t - 1e-9).sum()) + 1) / (draws + 1)
        if p >= TAIL_BELOW:
            break
    return len(rows), t, p


def check_down_ceiling(*, hands: int, share: float, seed: int, colluders: int = 11,
                       tables: int = 10, players: int = 120, min_hands: int = 100,
                       fdr: float = 0.05, work: Path | None = None) -> Ceiling:
    """Play a rulebook population (as `poker-audit simulate --family rulebook`) and bound what
    a detector of check-down could find in it."""
    log = _SpotLog()
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        out = Path(tmp) / "store"
        simulate(out, hands=hands, seed=seed, tables=tables, players=players,
                 colluders=colluders, family="rulebook", colluding_share=share, watch=log)
        planted = pl.read_parquet(out / "colluders.parquet").to_dicts()
    team = {(a, b): f"{t['team_id']}:{t['style']}" for t in planted
            for i, a in enumerate(sorted(t["players"])) for b in sorted(t["players"])[i + 1:]}
    rng = np.random.default_rng(seed)
    rows = []
    for pair, n in sorted(log.together.items()):
        if n < min_hands:
            continue
        spots, t, p = (_p_value(log.spots[pair], share, rng) if pair in log.spots
                       else (0, 0.0, 1.0))
        rows.append((pair, n, spots, t, p))
    q = bh_qvalues(np.array([r[4] for r in rows])) if rows else np.array([])
    order = sorted(range(len(rows)), key=lambda i: (rows[i][4], -rows[i][3], rows[i][0]))
    pairs = [PairBound(*rows[i][0], rows[i][1], rows[i][2], rows[i][3], rows[i][4],
                       float(q[i]), rank, team.get(rows[i][0], ""))
             for rank, i in enumerate(order, start=1)]
    return Ceiling(pairs, fdr)


def ceiling_table(ceiling: Ceiling, planted_only: bool = False) -> str:
    """The planted pairs (and the other leads unless `planted_only`), one line each."""
    lines = [f"{'rank':>5} {'pair':<22} {'team':<18} {'together':>8} {'spots':>6} "
             f"{'T':>8} {'p':>9} {'q':>9}"]
    shown: Sequence[PairBound] = [p for p in ceiling.pairs
                                  if p.team or (not planted_only and p.q <= ceiling.fdr)]
    for p in shown:
        lines.append(f"{p.rank:>5} {p.player_a + '-' + p.player_b:<22} {p.team or '-':<18} "
                     f"{p.hands_together:>8} {p.spots:>6} {p.statistic:>8.2f} {p.p:>9.2e} "
                     f"{p.q:>9.2e}")
    found = [p for p in ceiling.teams() if p.q <= ceiling.fdr and "check_down" in p.team]
    planted = [p for p in ceiling.teams() if "check_down" in p.team]
    others = [p for p in ceiling.leads() if not p.team]
    lines.append(f"check-down teams found: {len(found)}/{len(planted)}; other pairs with "
                 f"q <= {ceiling.fdr}: {len(others)} (of them sharing a player with a team: "
                 f"{sum(1 for p in others if _touches_team(p, ceiling))})")
    return "\n".join(lines)


def _touches_team(pair: PairBound, ceiling: Ceiling) -> bool:
    members = {x for p in ceiling.teams() for x in (p.player_a, p.player_b)}
    return pair.player_a in members or pair.player_b in members


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=60_000)
    parser.add_argument("--share", type=float, default=0.4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--colluders", type=int, default=11)
    parser.add_argument("--all", action="store_true", help="print every lead, not only teams")
    args = parser.parse_args(argv)
    ceiling = check_down_ceiling(hands=args.hands, share=args.share, seed=args.seed,
                                 colluders=args.colluders)
    print(ceiling_table(ceiling, planted_only=not args.all))


if __name__ == "__main__":
    main()
