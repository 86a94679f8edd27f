"""The Makefile's install stamp compiles the replay kernel once, before anything runs.

On a fresh machine `make demo` compiles it anyway, and `make test` (CI) would have both test
workers compile it at the same time (minutes of CPU and about 2 GB each). Measured in session
25 from a fresh clone: `make demo` 224.6 s wall, 143 CPU-s, 1.90 GB before; the stamp's
warm-up 175.6 s, 126 CPU-s, 1.78 GB, then the demo 10.4 s, 6.6 CPU-s, 0.53 GB."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _stamp_recipe() -> list[str]:
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = lines.index("$(STAMP): pyproject.toml") + 1
    recipe = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def test_the_stamp_runs_the_warm_up_after_installing_and_before_it_is_touched() -> None:
    recipe = _stamp_recipe()
    warm = recipe.index("$(PY) -m audit.devtools.faults_warmup")
    install = next(i for i, line in enumerate(recipe) if "pip install" in line and "-e" in line)
    assert install < warm < recipe.index("touch $(STAMP)")  # a failed warm-up: no stamp

