"""Synthetic hands with labelled injected violations and colluders (issue 7).

`simulate()` writes a real event store plus labels.parquet and colluders.parquet;
`accuracy_scorecard()` audits such a store and scores the findings against the labels;
`simulate_command` is the click command for `poker-audit simulate`.
"""

from audit.simulate.cli import simulate_command
from audit.simulate.scorecard import (
    accuracy_scorecard,
    bench_accuracy,
    bench_simulate,
    format_scorecard,
)
from audit.simulate.sim import SimSummary, simulate

__all__ = ["SimSummary", "accuracy_scorecard", "bench_accuracy", "bench_simulate",
           "format_scorecard", "simulate", "simulate_command"]
