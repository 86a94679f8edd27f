"""The check-down ceiling (audit/devtools/collusion_ceiling.py): the test that knows every
honest player's rule finds a check-down team that colludes in every hand it can, and finds no
pair at all in a population without teams (its p-values are those of the honest rule's own
draws)."""

from __future__ import annotations

import pytest

from audit.devtools.collusion_ceiling import ceiling_table, check_down_ceiling

pytestmark = pytest.mark.slow

POPULATION = dict(hands=6_000, seed=2, tables=4, players=48)


def test_a_check_down_team_is_found_and_the_other_teams_are_not_check_down() -> None:
    ceiling = check_down_ceiling(share=1.0, colluders=4, **POPULATION)  # type: ignore[arg-type]
    teams = {p.team: p for p in ceiling.teams()}
    assert sorted(teams) == ["0:soft_play", "1:chip_dump", "2:whipsaw", "3:check_down"]
    assert teams["3:check_down"].q <= ceiling.fdr and teams["3:check_down"].rank == 1
    assert teams["3:check_down"].spots > 0
    # the table names it and counts it
    assert "check-down teams found: 1/1" in ceiling_table(ceiling)


def test_a_population_without_teams_gives_no_lead() -> None:
    ceiling = check_down_ceiling(share=1.0, colluders=0, **POPULATION)  # type: ignore[arg-type]
    assert not ceiling.teams()
    assert len(ceiling.pairs) > 100
    assert ceiling.leads() == []
    # and the spots are there to judge: many pairs have some
    assert sum(1 for p in ceiling.pairs if p.spots) > 50
