"""The same hands give the same ranking, to the last digit: every float the null models sum
(the flows in big blinds, a player's totals over his pairs, the company's expected entries) is
summed in fixed point (features.FIXED), so the order polars happens to hand the rows over in --
different from run to run and between thread counts -- changes nothing. Before, two runs of
`poker-audit collusion --format json` on one store differed in the chip-dump and card-sharing
p-values' last digits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion.synthetic import generate

ROOT = Path(__file__).resolve().parents[2]
FLOWS = ("flow", "flow_sq", "flow_w", "flow_dw", "flow_w2", "flow_chips")


def _shuffled(frame: pl.DataFrame, seed: int) -> pl.DataFrame:
    return frame[np.random.default_rng(seed).permutation(frame.height)]


@pytest.fixture(scope="module")
def population() -> tuple[pl.DataFrame, pl.DataFrame]:
    hands, hp, _ = generate(seed=3, players=40, days=3)
    return hands, hp


def test_a_pair_s_flows_are_the_same_in_any_order_of_its_hands(
        population: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    hands, hp = population
    rows = F.pair_hands(F.player_hands(hp.lazy(), hands.lazy())).collect()
    assert rows.filter(pl.col("d") != 0).height > 500
    tables = [F.pair_table(_shuffled(rows, seed).lazy()).collect().sort("player_a", "player_b")
              for seed in range(4)]
    for table in tables[1:]:
        for column in FLOWS:
            assert table[column].equals(tables[0][column]), column


def test_a_player_s_totals_are_the_same_in_any_order_of_his_pairs(
        population: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    hands, hp = population
    table = A.aggregate(A.chunks(hp.lazy(), hands.lazy())).table
    totals = [F.player_totals_in_slices(_shuffled(table, seed), pairs=pairs).sort("player")
              for seed, pairs in ((0, None), (1, None), (2, 97), (3, 13))]
    totals.append(F.player_totals(_shuffled(table, 4).lazy()).collect().sort("player"))
    for other in totals[1:]:
        assert other.equals(totals[0])
    assert totals[0]["sg0_e"].sum() > 0 and totals[0]["pot_nz"].sum() > 0


@pytest.mark.slow
def test_two_runs_and_two_thread_counts_rank_the_same_to_the_last_digit(tmp_path: Path) -> None:
    script = tmp_path / "rank.py"
    script.write_text(
        "import sys, polars as pl\n"
        "from audit.collusion.leads import leads_from_frames\n"
        "from audit.collusion.synthetic import generate\n"
        "hands, hp, _ = generate(seed=3, players=40, days=3)\n"
        "t = pl.from_arrow(leads_from_frames(hp.lazy(), hands.lazy(), min_hands=20, fdr=1.0))\n"
        "t.sort('player', 'counterparty').write_parquet(sys.argv[1])\n")
    outputs = []
    for i, threads in enumerate(("1", "2", "2")):
        out = tmp_path / f"run{i}.parquet"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "POLARS_MAX_THREADS": threads}
        subprocess.run([sys.executable, str(script), str(out)], check=True, env=env, cwd=ROOT)
        outputs.append(pl.read_parquet(out))
    assert outputs[0].height > 200
    for other in outputs[1:]:
        assert other.equals(outputs[0])
