"""pytest at the repository root: `--doctest-modules` (pyproject.toml) collects only files that
have something to run, so the doctests of audit/ cost seconds, not the import of every module.

A test module (test_*.py) and a conftest.py are collected as usual; any other .py file only if it
holds a doctest (`>>>`). The rest is never imported by collection: importing all of audit/ compiles
every numba kernel (minutes), and tests/reliability/atheris_importers.py is a script, not a module.
"""

from __future__ import annotations

from pathlib import Path


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    name = collection_path.name
    if collection_path.suffix != ".py" or name.startswith("test_") or name == "conftest.py":
        return None
    if ">>>" in collection_path.read_text(encoding="utf-8", errors="replace"):
        return None
    return True
