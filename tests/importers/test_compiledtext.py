"""The read loop of the compiled passes takes a file whole when it is at most `MAX_BYTES`: it
reads the file's first `MAX_BYTES` + 1 bytes (one more than it takes, so a larger file shows),
whatever the file's size, and a file that grows while it is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from audit.importers import compiledtext
from audit.importers.compiledtext import plain_bytes


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(compiledtext, "MAX_BYTES", 64)
    return 64


@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 200])
def test_the_first_bytes_read_are_the_files_up_to_one_past_the_limit(
        tmp_path: Path, small_limit: int, size: int) -> None:
    path = tmp_path / "hands.txt"
    path.write_bytes(bytes(b"abcdefgh"[i % 8] for i in range(size)))
    assert compiledtext._head_bytes(path) == path.read_bytes()[:small_limit + 1]
    assert (plain_bytes(path) is None) == (size > small_limit)


@pytest.mark.parametrize("grown", [1, 10, 64, 500])
def test_a_file_longer_than_its_size_said_is_read_on(
        tmp_path: Path, small_limit: int, grown: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The size is asked before the bytes are read: a file written to in between is read as
    far as the limit, as one read of the limit's size reads it."""
    path = tmp_path / "hands.txt"
    path.write_bytes(b"x" * 10 + b"y" * grown)
    real = os.fstat

    class Stale:
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 10

    monkeypatch.setattr(compiledtext.os, "fstat", lambda fd: Stale(real(fd)))
    assert compiledtext._head_bytes(path) == path.read_bytes()[:small_limit + 1]


def test_a_file_that_is_not_regular_is_read_with_one_read_of_the_limit(
        small_limit: int) -> None:
    assert compiledtext._head_bytes(Path("/dev/zero")) == bytes(small_limit + 1)
    assert compiledtext._head_bytes(Path("/nonexistent/hands.txt")) is None
