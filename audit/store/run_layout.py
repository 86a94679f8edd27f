"""Where an audit run keeps its outputs: `runs/<run_id>/<output>/part-NNNNNNN.parquet`.

Each worker writes the findings and projections of one event file as that output's part
number N (the file's place in the run), compressed and final: no process merges parts after
the workers, so the run scales with the workers, and the parts are the same bytes for any
number of workers. Readers take an output's parts in order. Runs written before parts
existed keep one `runs/<run_id>/<output>.parquet` file, which readers still accept.
"""

from __future__ import annotations

from pathlib import Path

OUTPUTS = ("findings", "hands", "hand_players")


def part_path(run_path: Path, output: str, index: int) -> Path:
    """The part file of `output` for the run's event file number `index`."""
    return run_path / output / f"part-{index:07d}.parquet"


def output_files(run_path: Path, output: str) -> list[Path]:
    """The Parquet files holding one output of one run, in event-file order (none when the
    run found nothing of that kind)."""
    single = run_path / f"{output}.parquet"
    if single.is_file():
        return [single]
    return sorted((run_path / output).glob("part-*.parquet"))


# Files `poker-audit collusion` adds to a run (audit/collusion/findings.py): the leads and the
# single-hand pattern notes as findings rows (read with the run's findings), and the leads with
# their statistics (q-value, hands together, evidence hands) for every surface that ranks them.
COLLUSION_FINDINGS = "collusion.parquet"
COLLUSION_LEADS = "collusion_leads.parquet"
