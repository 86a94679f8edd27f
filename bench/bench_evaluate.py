"""Benchmark (not a test): 7-card evaluations/s, ours vs PokerKit (see audit.devtools.bench).

    python bench/bench_evaluate.py
"""

from __future__ import annotations

import json

from audit.devtools.bench import bench_evaluator

if __name__ == "__main__":
    print(json.dumps(bench_evaluator(), indent=2))
