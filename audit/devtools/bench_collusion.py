"""Issue 25's collusion table, reproduced: simulate populations, audit them, score the leads.

Each row is one population of `hands` hands (10 tables, 120 players): the rulebook family
(an independent population written from the rule texts, audit/simulate/play/population.py) at
a colluding share, a clean rulebook population (no team), or the simulator's own colluders
(`sim`). Per row: teams found per style (a lead at q <= fdr for a pair of the team), found of
planted, false leads (and those between two players of no team), false leads per 100,000 hands,
and the rank and q-value of every planted team. Run it with bench/bench_collusion.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.collusion.scorecard import collusion_scorecard
from audit.run.runner import audit_store
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

STYLES = ("soft_play", "chip_dump", "whipsaw", "check_down", "card_share", "team_of_three")
TABLES, PLAYERS = 10, 120


@dataclass(frozen=True, slots=True)
class Population:
    """One row of the table: `family` rulebook (with `teams` teams colluding in `share` of
    their hands together; 0 teams: clean) or sim (the simulator's own colluders)."""

    family: str
    share: float
    teams: int
    seed: int

    @property
    def name(self) -> str:
        if self.family == "sim":
            return f"sim family, seed {self.seed}"
        if self.teams == 0:
            return f"clean, seed {self.seed}"
        return f"share {self.share}, seed {self.seed}"


def default_populations(seeds: Sequence[int] = (1, 2)) -> list[Population]:
    """Share 0.4 and 0.8 and clean rulebook populations per seed, and the sim family."""
    rows = [Population("rulebook", share, 11, s) for share in (0.4, 0.8) for s in seeds]
    rows += [Population("rulebook", 0.8, 0, s) for s in seeds]
    return [*rows, Population("sim", 0.8, 5, seeds[0])]


def score_population(pop: Population, work: Path, hands: int, fdr: float = 0.05
                     ) -> dict[str, Any]:
    """Simulate, audit and score one population in `work` (replaced); its scorecard."""
    root = work / f"{pop.family}-{pop.share}-{pop.teams}-{pop.seed}"
    shutil.rmtree(root, ignore_errors=True)
    simulate(root, hands=hands, seed=pop.seed, tables=TABLES, players=PLAYERS,
             colluders=pop.teams, family=pop.family, colluding_share=pop.share)
    audit_store(Store(root))
    return collusion_scorecard(root, min_hands=100, fdr=fdr)


def table_row(pop: Population, card: dict[str, Any]) -> str:
    """A markdown row: found per style, found of planted, false leads, per 100k hands."""
    styles = card["styles"]
    cells = [f"{styles[s]['found']}/{styles[s]['teams']}" if s in styles else ""
             for s in STYLES]
    found = sum(1 for t in card["teams"] if t["found"])
    return (f"| {pop.name} | " + " | ".join(cells)
            + f" | {found} of {len(card['teams'])} | {card['false_leads']} "
            f"({card['false_leads_honest']} between players of no team) | "
            f"{card['false_leads_per_100k_hands']:.1f} |")


def team_line(card: dict[str, Any]) -> str:
    """Rank and q-value of every planted team, and the decisions its collusion changed (in how
    many hands) where the store keeps that ledger (rulebook populations)."""
    return "; ".join(f"{t['style']} #{t['team_id']}: "
                     + (f"rank {t['rank']}, q {t['q_value']:.2g}" if t["rank"] is not None
                        else "untested")
                     + (f", changed {t['changed']} in {t['changed_hands']}" if "changed" in t
                        else "")
                     for t in card["teams"])


HEADER = ("| population | " + " | ".join(s.replace("_", " ") for s in STYLES)
          + " | found | false leads | false per 100k hands |\n|"
          + "---|" * (len(STYLES) + 4))


def collusion_table(work: Path, hands: int = 60_000,
                    populations: Sequence[Population] | None = None,
                    echo: Callable[[str], None] = print) -> list[str]:
    """The issue's table over `populations` (default: `default_populations`), printed row by
    row as each population is scored (`echo`), with the planted teams' ranks under it."""
    lines = [HEADER]
    echo(HEADER)
    notes = []
    for pop in populations or default_populations():
        card = score_population(pop, work, hands)
        lines.append(table_row(pop, card))
        echo(lines[-1])
        if card["teams"]:
            notes.append(f"- {pop.name}: {team_line(card)}")
    for note in notes:
        echo(note)
    return lines + notes
