"""Synthetic hands with labelled injected violations and colluders (issue 7).

`simulate()` writes a real event store plus labels.parquet and colluders.parquet;
`accuracy_scorecard()` audits such a store and scores the findings against the labels (the
click command `poker-audit simulate` is audit.cli.simulate).
"""

from audit.simulate.play.sim import SimSummary, simulate
from audit.simulate.scorecard import (
    accuracy_scorecard,
    bench_accuracy,
    bench_simulate,
    format_scorecard,
)

__all__ = ["SimSummary", "accuracy_scorecard", "bench_accuracy", "bench_simulate",
           "format_scorecard", "simulate"]
