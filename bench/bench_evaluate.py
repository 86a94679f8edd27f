"""Benchmark: 7-card high-hand evaluations per second, ours (vectorised, scalar) vs PokerKit.

All three evaluate the same seeded random 7-card hands in one run (PokerKit and the scalar
evaluator take a prefix of them, since they are much slower). Table build time is measured
separately and excluded from the throughput. Results go to stdout as JSON; a readable
summary goes to stderr.

Example:
    .venv/bin/python bench/bench_evaluate.py --hands 1000000 --pokerkit-hands 3000
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable

import numpy as np

from audit.cards import card_str
from audit.evaluate import high_strength, high_strength_many


def _best_rate(run: Callable[[], object], count: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands for the vectorised run")
    parser.add_argument("--scalar-hands", type=int, default=50_000)
    parser.add_argument("--pokerkit-hands", type=int, default=3_000)
    parser.add_argument("--repeats", type=int, default=3, help="best of N timings")
    parser.add_argument("--seed", type=int, default=20240611)
    args = parser.parse_args(argv)

    from pokerkit import StandardHighHand  # benchmark/test dependency only

    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].copy()
    scalar_rows = hands[: args.scalar_hands].tolist()
    pk_rows = ["".join(card_str(c) for c in row) for row in hands[: args.pokerkit_hands].tolist()]

    start = time.perf_counter()
    warm = high_strength_many(hands[:1])  # builds the 7-card and flush tables
    build_s = time.perf_counter() - start
    assert warm[0] == high_strength(scalar_rows[0])

    many = high_strength_many(hands)
    if not np.array_equal(many[: len(scalar_rows)], [high_strength(r) for r in scalar_rows]):
        print("vectorised and scalar evaluators disagree", file=sys.stderr)
        return 1

    vec = _best_rate(lambda: high_strength_many(hands), len(hands), args.repeats)
    vec_trusted = _best_rate(
        lambda: high_strength_many(hands, validate=False), len(hands), args.repeats
    )
    scalar = _best_rate(
        lambda: [high_strength(r) for r in scalar_rows], len(scalar_rows), args.repeats
    )
    pokerkit = _best_rate(
        lambda: [StandardHighHand.from_game(r) for r in pk_rows], len(pk_rows), 1
    )

    rates = {
        "vectorised": round(vec),
        "vectorised_no_validation": round(vec_trusted),
        "scalar": round(scalar),
        "pokerkit": round(pokerkit),
    }
    ratios = {
        "vectorised_vs_pokerkit": round(vec / pokerkit, 1),
        "vectorised_no_validation_vs_pokerkit": round(vec_trusted / pokerkit, 1),
        "scalar_vs_pokerkit": round(scalar / pokerkit, 1),
        "vectorised_vs_scalar": round(vec / scalar, 1),
    }
    result = {
        "benchmark": "7-card high hand evaluation",
        "seed": args.seed,
        "hands": {"vectorised": len(hands), "scalar": len(scalar_rows), "pokerkit": len(pk_rows)},
        "table_build_seconds": round(build_s, 3),
        "evals_per_second": rates,
        "ratios": ratios,
        "target_vectorised_vs_pokerkit": 1000,
        "target_met": vec / pokerkit >= 1000,
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    for name, rate in rates.items():
        print(f"{name:>26}: {rate:>14,} evals/s", file=sys.stderr)
    for name, ratio in ratios.items():
        print(f"{name:>38}: {ratio:>10,}x", file=sys.stderr)
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
