"""Coverage-guided fuzzing (issue 11: "hypothesis, and atheris if it installs"): a bounded
libFuzzer run over every importer finds no crash. Skipped where atheris is not installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris")

HARNESS = Path(__file__).with_name("atheris_importers.py")


@pytest.mark.fuzz
@pytest.mark.slow
def test_atheris_finds_no_importer_crash(tmp_path: Path):
    corpus = tmp_path / "corpus"
    # Through a small shell that forks the harness: libFuzzer's -rss_limit_mb reads the peak
    # RSS (ru_maxrss), which Linux carries from a forking process across exec, so a harness
    # forked straight from a pytest grown to 3 GB would start "out of memory".
    run = subprocess.run(
        ["/bin/sh", "-c", '"$@"; exit $?', "sh", sys.executable, str(HARNESS), "-runs=1000",
         "-max_total_time=60", "-max_len=8192", "-seed=20261122", "-rss_limit_mb=2048",
         "-timeout=20",
         f"-artifact_prefix={tmp_path}/", str(corpus)],
        capture_output=True, text=True, timeout=600, cwd=Path(__file__).parents[2],
    )
    assert run.returncode == 0, run.stderr[-3000:]  # a crash input is saved in tmp_path
    assert "Done " in run.stderr  # 1000 runs, or as many as 60 s allow
    assert len(list(corpus.iterdir())) >= 7  # the seeds, plus what coverage added
