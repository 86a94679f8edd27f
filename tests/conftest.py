"""Shared pytest fixtures."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from audit.store.dataset import Store

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "store")


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.skip("../shared is not beside the checkout")
    return SHARED


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every hypothesis test (@given) carries the `fuzz` marker, so `-m fuzz` selects them all."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.fuzz)


# `make test` runs on both cores: pytest -n 2 --dist loadgroup (pytest-xdist). A module whose
# tests share a fixture built once for the module or a class (a simulated store, an audited
# run), or that names an xdist_group, runs whole on one worker: split, each worker would build
# the fixture again. Every other test is scheduled alone, so both cores stay busy to the end.
# xdist's own loadgroup reads the groups from a suffix it writes into each test's id, which
# pytest 9.2 no longer lets it write (the groups were silently ignored); this scheduler reads
# the test files instead.
_SHARES_FIXTURES = re.compile(r"""scope\s*=\s*["'](?:module|class|package)["']|xdist_group""")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, which a plain pytest may lack
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    shares: dict[str, bool] = {}

    def module_shares_fixtures(path: str) -> bool:
        if path not in shares:
            file = config.rootpath / path
            shares[path] = file.suffix == ".py" and file.is_file() and bool(
                _SHARES_FIXTURES.search(file.read_text(encoding="utf-8", errors="replace")))
        return shares[path]

    class SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        """A module that shares fixtures is one unit of work; any other test is its own."""

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if module_shares_fixtures(path) else nodeid

    return SharedFixtureScheduling(config, log)


# CI (`CI=true bash .ci/run`) has ../shared beside a clean checkout and every dev dependency
# installed, so a skip there means a test quietly stopped testing. Only these two may skip:
# the Makefile's chromium install can fail on a runner without apt, and atheris ships a wheel
# for Linux x86_64 CPython 3.11 only.
CI_ALLOWED_SKIPS = ("chromium is not installed", "could not import 'atheris'")


def _running_in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _running_in_ci():
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    reasons = [_skip_reason(r) for r in reporter.stats.get("skipped", [])]
    unexpected = [r for r in reasons if not any(a in r for a in CI_ALLOWED_SKIPS)]
    if unexpected:
        reporter.write("\n")
        reporter.write_line(f"CI: {len(unexpected)} test(s) skipped that CI must run:", red=True)
        for reason in sorted(set(unexpected)):
            reporter.write_line(f"  {reason}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
