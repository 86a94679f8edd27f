"""The investigation notebooks (issue 9) run top to bottom against a small store built here, are
committed without outputs, and import only the library API (`audit`, never `audit.x.y`) and the
data/plotting libraries. An analyst opens them with `make notebooks` (issue 23): JupyterLab from
the dev extra, on the store of $POKER_AUDIT_STORE, as the README says."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

import audit
from audit.cli.demo import demo_inputs
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.store.dataset import Store

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
ALLOWED_IMPORTS = {"audit", "os", "pathlib", "polars", "matplotlib"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The demo hands: the sample events and the HandHQ excerpt, audited once."""
    s = Store(tmp_path_factory.mktemp("nb") / "store")
    ingest(demo_inputs(), s)
    audit_store(s, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return s


def test_the_three_notebooks_exist() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_quickstart.ipynb", "02_pair_investigation.ipynb", "03_compliance_kpis.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_imports_only_audit_and_data_libraries(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.module == "audit":  # the library API (audit/__init__.py) only
                    assert {a.name for a in node.names} <= set(audit.__all__), path.name
            else:
                continue
            for name in names:
                assert name.split(".")[0] in ALLOWED_IMPORTS, (path.name, name)
                assert not name.startswith("audit."), (path.name, name)  # no audit.rules etc.


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
@pytest.mark.notebooks
def test_notebook_runs_top_to_bottom(
    path: Path, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POKER_AUDIT_STORE", str(store.root))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.delenv("PAIR", raising=False)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(env=dict(os.environ))
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert errors == []
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.outputs)
    if path.stem.startswith("01"):
        assert "hand demo:3" in text  # the replayed timeline of the worst finding
    if path.stem.startswith("02"):
        assert "hands together" in text
    if path.stem.startswith("03"):
        assert "dealer not logged" in text


# ------------------------------------------------------------------ opening them (issue 23)

ROOT = Path(__file__).resolve().parents[2]


def _notebook_imports() -> set[str]:
    names = set()
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                for node in ast.walk(ast.parse(cell.source)):
                    if isinstance(node, ast.Import):
                        names |= {a.name.split(".")[0] for a in node.names}
                    elif isinstance(node, ast.ImportFrom) and node.module:
                        names.add(node.module.split(".")[0])
    return names


def _requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_dev_extra_installs_what_the_notebooks_need() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = _requirement_names(project["dependencies"])
    third_party = _notebook_imports() - {"audit", "os", "pathlib"}
    assert third_party and third_party <= core  # polars, matplotlib: installed with poker-audit
    for extra in ("dev", "notebooks"):  # JupyterLab to open them and the kernel to run them
        assert {"jupyterlab", "ipykernel"} <= _requirement_names(
            project["optional-dependencies"][extra]), extra


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_notebooks_installs_jupyterlab_and_opens_the_notebooks_on_the_store() -> None:
    stamp = ROOT / ".venv" / ".installed-stamp"
    env = {**os.environ, "POKER_AUDIT_STORE": "my-store"}
    # -n: print the commands only; -o: take the venv as installed (no pip run from a test)
    result = subprocess.run(["make", "-n", "-o", str(stamp.relative_to(ROOT)), "notebooks"],
                            cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    assert any("jupyter-lab --version" in x for x in lines)
    assert any("pip install --quiet -e '.[notebooks]'" in x for x in lines)
    store = ROOT / "my-store"  # a relative store made absolute: the kernel runs in notebooks/
    command = " ".join(result.stdout.replace("\\\n", " ").split())  # continued lines joined
    assert (f'POKER_AUDIT_STORE="{store}" .venv/bin/jupyter lab notebooks/ '
            '$([ "$(id -u)" = 0 ] && echo --allow-root)') in command  # Jupyter refuses root


def test_readme_says_how_to_open_the_notebooks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Notebooks", 1)[1].split("\n### ", 1)[0]
    assert "make notebooks" in section and "POKER_AUDIT_STORE" in section
    assert "poker-audit demo --store audit-store" in section
    for path in NOTEBOOKS:
        assert path.stem in section
