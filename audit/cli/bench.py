"""`poker-audit bench`: throughput against PokerKit, accuracy, reliability and scale, measured by
audit.devtools (named by string: nothing imports the development tools)."""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from audit.cli.common import CONTEXT_SETTINGS, InputProblem, err, user_errors
from audit.simulate.scorecard import bench_accuracy, format_scorecard


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option(
    "--phh", "phh_files", multiple=True, type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
    help="Real hands (PHH) to replay; default: the embedded HandHQ excerpt. Repeatable.",
)
@click.option("--quick", is_flag=True, help="Small inputs: a first look in seconds.")
@click.option("--accuracy", is_flag=True,
              help="Instead: simulate hands with labelled violations, audit them, and print "
              "precision and recall per rule id.")
@click.option("--reliability", is_flag=True,
              help="Instead: inject faults, tamper with a store and feed every importer hostile "
              "input; print faults survived, tampering detected, inputs handled, hands lost.")
@click.option("--scale", type=click.IntRange(min=1), default=None, metavar="HANDS",
              help="Instead: build a store of HANDS simulated hands, audit it end to end with 1 "
              "and 2 workers (time, hands/s, peak RSS) and print the capacity model.")
@click.option("--pipeline", type=click.IntRange(min=1), default=None, metavar="HANDS",
              help="Instead: a room's day of HANDS simulated mixed-game hands end to end "
              "(simulate, ingest, verify, audit with 2 workers, collusion, report), each stage "
              "in a fresh process: wall time, CPU-seconds and peak memory per stage, hands/s "
              "of the whole and the capacity model.")
@click.option("--simulate-at-most", type=click.IntRange(min=1), default=None, metavar="HANDS",
              help="With --pipeline: simulate at most this many hands (measured) and copy "
              "them under fresh hand, player and table ids up to HANDS (more rooms side by side) "
              "[default: simulate them all].")
@click.option("--corpus", "corpus", is_flag=False, flag_value="", default=None, metavar="[DIR]",
              help="Instead: import and audit a corpus of real site logs (a folder of site "
              "folders; default ../shared/data/fpdb-dev beside the checkout), each site into "
              "its own temporary store, and print per site: files, hands counted at the hand "
              "headers, hands imported (and % of those), quarantined (top reasons), files not "
              "recognised, findings by severity under --profile, DQ-SITE-TOTALS money-check "
              "notes, and import speed in hands per CPU-second (process CPU time of the ingest "
              "alone: sniffing, decoding, parsing, validation and the store's Parquet writes; "
              "not the audit). With --quick only the four sites of issue 21 (stars, ftp, "
              "partypoker, ipoker).")
@click.option("--profile", default=None, metavar="NAME",
              help="The rule profile --corpus audits with (default: auto, each room by its "
              "house rules; montana: by the book).")
@click.option("--work", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where --scale and --pipeline build their stores (default: a temporary "
              "directory).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the JSON result here.")
def bench(phh_files: tuple[Path, ...], quick: bool, accuracy: bool, reliability: bool,
          scale: int | None, pipeline: int | None, simulate_at_most: int | None,
          corpus: str | None, profile: str | None, work: Path | None,
          out: Path | None) -> None:
    """Measure throughput side by side with PokerKit on the same hands, as ratios.

    Replay (hands/s) against PokerKit's HandHistory replay, the 7-card evaluator against
    PokerKit's, and native ingest against the raw Parquet read + write floor. The JSON
    result goes to stdout (and --out); the readable summary to stderr.

    \b
    Example:
        poker-audit bench --phh ../shared/data/handhq/ps-50nl-1231.phhs --out bench.json
        poker-audit bench --accuracy
        poker-audit bench --reliability --quick
        poker-audit bench --scale 10000000 --work /data/scale
        poker-audit bench --pipeline 100000 --work /tmp --out pipeline.json
        poker-audit bench --corpus ../shared/data/fpdb-dev --out corpus.json
    """
    # devtools is the top layer: the CLI names it by string and never imports it at load time
    def devtool(name: str) -> Any:
        return importlib.import_module(f"audit.devtools.{name}")

    if simulate_at_most is not None and not pipeline:
        raise InputProblem("--simulate-at-most goes with --pipeline")
    flagged = False
    with user_errors():
        if reliability:
            scorecard = devtool("reliability")
            result = scorecard.scorecard(quick=quick, echo=err)
            err(scorecard.format_scorecard(result))
            flagged = scorecard.flagged(result)
        elif corpus is not None:
            tool = devtool("corpus")
            result = tool.bench_corpus(
                Path(corpus) if corpus else None, profile=profile or tool.AUTO_PROFILE,
                sites=tool.ISSUE_21_SITES if quick else None, echo=err)
            err(tool.format_corpus(result))
        elif pipeline:
            if work is not None:
                work.mkdir(parents=True, exist_ok=True)
            tool = devtool("bench_pipeline")
            with tempfile.TemporaryDirectory(dir=work) as tmp:
                result = tool.bench_pipeline(pipeline, Path(tmp),
                                             simulate_at_most=simulate_at_most, echo=err)
            err(tool.format_pipeline(result))
        elif scale:
            if work is not None:
                work.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=work) as tmp:
                result = devtool("bench_scale").bench_scale(scale, Path(tmp), echo=err)
        elif accuracy:
            result = bench_accuracy(hands=1_000 if quick else 5_000)
            err(format_scorecard(result))
        else:
            result = devtool("bench").run_bench(list(phh_files), quick=quick, echo=err)
    text = json.dumps(result, indent=2, default=str)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
    click.echo(text)
    if flagged:
        sys.exit(1)
