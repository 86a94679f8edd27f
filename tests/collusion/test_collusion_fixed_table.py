"""Teams at fixed tables (RULEBOOK §4.17, issue 25): a stranger who sits at a team's table every
hand is drawn into what the team does (he loses the pots the dumper hands his receiver, folds
between two whipsawing partners), so he and a colluder look like a pair. Explaining away judges
each of two overlapping leads without the hands the other's third player entered: the team's
evidence stays, the stranger's goes, and the stranger is no lead."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import leads as L
from audit.collusion import leads_from_frames
from audit.collusion.synthetic import generate

TEAMS = {"chip_dump": 1, "whipsaw": 1, "softplay": 1, "card_share": 1}


@pytest.mark.parametrize("seed", [1, 3])
def test_a_stranger_who_sits_with_a_team_every_hand_is_no_lead_and_the_team_is(
        seed: int) -> None:
    hands, hp, planted = generate(seed=seed, players=60, days=8, teams=TEAMS, companions=1)
    leads = leads_from_frames(hp, hands, min_hands=100, fdr=0.05).to_pylist()
    teams = {frozenset((a, b)) for _, a, b in planted}
    named = {frozenset((x["player_a"], x["player_b"])) for x in leads}
    assert named == teams  # every team found, and no lead names its table's stranger
    assert all(frozenset(x["team"]) in teams for x in leads)  # nor joins him to the team


def test_a_lead_rechecked_on_all_its_hands_reads_the_evidence_the_first_pass_read() -> None:
    """The overlap re-check judges each lead alone (one row), where no spread can be measured
    (the chip flows' dispersion, the empirical null of co-entry): it takes the population's,
    measured by the first pass. Judged with none, a chip dump read 1e-13 alone where the first
    pass read 2e-9 among all pairs, and the re-checks of two leads were not comparable."""
    hands, hp, _ = generate(seed=3, players=90, days=8,
                            teams={"softplay": 2, "chip_dump": 2, "whipsaw": 2,
                                   "card_share": 2})
    agg = A.aggregate(A.chunks(hp.lazy(), hands.lazy()))
    cells = agg.cells.lazy()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    measured: dict[str, float] = {}
    first = L._score(agg.table, agg.table, 100, agg.rates, cells, tables,
                     pool=L._Pool(measured=measured))
    assert measured["chip_dump"] > 1.0 and measured["co_entry:scale"] > 1.0
    leads = first.filter((pl.col("q_value") <= 0.05)
                         & pl.col("top").is_in(["chip_dump", "co_entry"]))
    assert leads.height >= 3
    pairs = leads.select("player_a", "player_b").rows()
    rows = A.HandRows(hp.lazy(), hands.lazy())
    again = L._without(rows, pairs, ["nobody"] * len(pairs), agg.table,
                       L.totals_of(agg.table), 100, agg.rates, cells, tables,
                       L._Pool(lone=True, spread=tuple(sorted(measured.items()))))
    np.testing.assert_allclose(np.log10(again), np.log10(leads["p_value"].to_numpy()),
                               atol=1.0)
