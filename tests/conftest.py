"""Shared pytest fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.store import Store

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "store")


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.skip("../shared is not beside the checkout")
    return SHARED
