"""The read loop of the compiled passes takes a file whole when it is at most `MAX_BYTES`: it
reads the file's first `MAX_BYTES` + 1 bytes (one more than it takes, so a larger file shows),
whatever the file's size, and a file that grows while it is read."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

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


class _NoKernel:
    """A compiled module that cannot load here (no numba, or it failed to build)."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error, self.failures = error, []

    def get(self) -> object | None:
        if self.error is not None:
            return object()  # loads, then fails when the kernel runs
        return None

    def failed(self, exc: BaseException) -> None:
        self.failures.append(exc)


@pytest.mark.parametrize("room, reader", [("ggpoker", "GGPokerImporter"),
                                          ("winamax", "WinamaxImporter")])
def test_a_room_without_its_kernel_reads_through_the_python_path(
        monkeypatch: pytest.MonkeyPatch, room: str, reader: str) -> None:
    import importlib

    from tests.importers.compiled_pass import chunk_values
    from tests.importers.test_site_fast_paths import FIXTURES

    glue = importlib.import_module(f"audit.importers.{room}_compiled")
    module = importlib.import_module(f"audit.importers.{room}")
    path = FIXTURES[room][0]
    want = chunk_values(getattr(module, reader)(fast=False).read(path))
    monkeypatch.setattr(glue, "KERNEL", _NoKernel())
    assert compiledtext.read_room(path, glue.__name__, fmt=room, chunk_hands=5000,
                                  fast=None, map_hand=None, hand_id_of=None) is None
    assert chunk_values(getattr(module, reader)(compiled_min_bytes=0).read(path)) == want
    # a kernel that loads but cannot run: the failure is said once and the file still read
    broken = _NoKernel(RuntimeError("cannot compile"))
    text = SimpleNamespace(lines_of=None)
    monkeypatch.setattr(glue, "TEXT", SimpleNamespace(get=lambda: text))
    monkeypatch.setattr(glue, "KERNEL", broken)
    monkeypatch.setattr(compiledtext, "read_compiled_text",
                        lambda *a, **k: (_ for _ in ()).throw(broken.error))
    assert chunk_values(getattr(module, reader)(compiled_min_bytes=0).read(path)) == want
    assert broken.failures == [broken.error]
