"""`honest_chance` is the honest rule's own frequency: at real spots of a rulebook population,
each action's chance matches how often `honest` plays it over many draws, and the chances of the
actions sum to one. And watching the population play changes nothing in the game."""

from __future__ import annotations

import math
import random
from pathlib import Path

import polars as pl

from audit.simulate.play.engine import Hand
from audit.simulate.play.population import Population, honest, honest_chance
from audit.simulate.play.sim import simulate
from audit.simulate.play.table import Table

KINDS = ("fold", "check", "call", "raise")
DRAWS = 400


def test_each_action_s_chance_is_how_often_the_honest_rule_plays_it(tmp_path: Path) -> None:
    checked: list[tuple[float, float]] = []
    by_kind: dict[str, list[tuple[float, float]]] = {}
    pick = random.Random(11)  # a fifth of the decisions, up to 300

    def watch(population: Population, t: Table, h: Hand, s: int, act: tuple) -> None:
        if len(checked) >= 4 * 300 or pick.random() > 0.2:
            return
        player = t.players[s]
        assert player is not None
        kind = population.kind[player.pid]
        draws = random.Random(len(checked))
        seen = [honest(h, s, kind, draws)[0] for _ in range(DRAWS)]
        chances = {k: honest_chance(h, s, kind, k) for k in KINDS}
        assert math.isclose(sum(chances.values()), 1.0, abs_tol=1e-9), chances
        for k in KINDS:
            checked.append((chances[k], seen.count(k) / DRAWS))
            by_kind.setdefault(k, []).append((chances[k], seen.count(k) / DRAWS))

    simulate(tmp_path / "s", hands=400, seed=3, tables=4, players=40, colluders=4,
             family="rulebook", colluding_share=0.5, watch=watch)
    assert len(checked) >= 4 * 200
    for chance, freq in checked:
        assert abs(freq - chance) <= 4.5 * math.sqrt(max(0.0, chance * (1 - chance)) / DRAWS) + 1e-9
    # and over all the spots, per action: a small error at many spots adds up
    for k, pairs in by_kind.items():
        spread = math.sqrt(sum(max(0.0, c * (1 - c)) for c, _ in pairs) / DRAWS)
        assert abs(sum(f for _, f in pairs) - sum(c for c, _ in pairs)) <= 4.5 * spread + 1e-9, k
    # the spots are not all certain ones: the rule's draws matter at many of them
    assert sum(1 for chance, _ in checked if 0.05 < chance < 0.95) >= 100


def test_watching_the_population_play_changes_nothing(tmp_path: Path) -> None:
    seen = []
    kwargs = dict(hands=300, seed=5, tables=4, players=40, colluders=4, family="rulebook",
                  colluding_share=0.6)
    simulate(tmp_path / "plain", **kwargs)  # type: ignore[arg-type]
    simulate(tmp_path / "watched", watch=lambda *a: seen.append(a[-1]), **kwargs)  # type: ignore[arg-type]

    def events(store: Path) -> pl.DataFrame:
        return pl.read_parquet(sorted((store / "events").rglob("*.parquet"))).sort("hand_id", "seq")

    assert len(seen) > 1000
    assert events(tmp_path / "plain").equals(events(tmp_path / "watched"))
    assert pl.read_parquet(tmp_path / "plain" / "colluding_hands.parquet").equals(
        pl.read_parquet(tmp_path / "watched" / "colluding_hands.parquet"))
