"""Benchmark (not a test): issue 25's collusion table, reproduced in one command.

    python bench/bench_collusion.py [--hands 60000] [--seeds 1 2] [--work /tmp/collusion-bench]

Simulates rulebook populations at colluding shares 0.4 and 0.8, clean ones and the sim family
(10 tables, 120 players each), audits them and prints per style the teams found, the false
leads (per 100,000 hands too) and the rank and q-value of every planted team
(audit/devtools/bench_collusion.py). About 3-5 minutes a 60,000-hand population on 2 cores.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from audit.devtools.bench_collusion import collusion_table, default_populations

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--work", type=Path, default=Path("/tmp/collusion-bench"))
    args = parser.parse_args()
    collusion_table(args.work, args.hands, default_populations(args.seeds))
