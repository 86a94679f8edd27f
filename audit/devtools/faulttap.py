"""The I/O tap of fault injection (audit.devtools.faults): inside a trial's child process, every
write-side call poker-audit makes is counted, and at the trial's point the process is killed
or that call and every later one fails with ENOSPC or EROFS."""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from audit.cli.main import main

KILLED = 137


class _Tap:
    """Counts write-side I/O calls under `scope` (the directories under test; calls whose
    path is unknown, such as fsync of a descriptor, count too) and at `point` kills the
    process or starts failing them. Writes elsewhere (caches beside the code) are left
    alone: a full or read-only store disk does not make the package directory read-only."""

    def __init__(self, fault: str, point: int, scope: str | None = None) -> None:
        self.fault, self.point, self.scope, self.calls = fault, point, scope, 0

    def hit(self, what: str, path: object = None, *, deleting: bool = False) -> None:
        if self.scope and isinstance(path, (str, os.PathLike)) and not os.fspath(
                path).startswith(self.scope):
            return
        self.calls += 1
        if self.fault == "count" or self.calls < self.point:
            return
        if self.fault == "kill" and self.calls == self.point:
            os._exit(KILLED)
        if deleting:
            return  # a full or read-only disk still lets cleanup run its course
        if self.fault == "enospc":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), what)
        if self.fault == "readonly":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), what)


@contextmanager
def tapped(tap: _Tap) -> Iterator[_Tap]:
    """Route the write-side calls poker-audit makes through the tap (child processes only)."""
    import pyarrow.parquet as pq

    saved: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, name: str, check: Callable[..., bool] | None = None,
             deleting: bool = False, path_arg: int | None = 0) -> None:
        original = getattr(owner, name)

        def tapped_call(*args: Any, **kwargs: Any) -> Any:
            if check is None or check(*args, **kwargs):
                path = args[path_arg] if path_arg is not None and len(args) > path_arg else None
                tap.hit(f"{name}({path if path is not None else ''})", path,
                        deleting=deleting)
            return original(*args, **kwargs)

        saved.append((owner, name, original))
        setattr(owner, name, tapped_call)

    def writing(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> bool:
        return any(c in mode for c in "wax+")

    wrap(builtins, "open", writing)
    wrap(io, "open", writing)
    for name in ("replace", "rename", "mkdir"):
        wrap(os, name)
    wrap(os, "fsync", path_arg=None)
    for name in ("unlink", "rmdir"):
        wrap(os, name, deleting=True)
    wrap(shutil, "rmtree", deleting=True)
    wrap(pq, "write_table", path_arg=1)
    wrap(pq.ParquetWriter, "__init__", path_arg=1)
    wrap(pq.ParquetWriter, "write_table", path_arg=None)
    try:
        yield tap
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


def _child(args: list[str], fault: str, point: int, result: str, scope: str) -> None:
    """Run one CLI command under the tap; write its exit code and output to `result`."""
    from click.testing import CliRunner

    tap = _Tap(fault, point, scope)
    with tapped(tap):
        outcome = CliRunner().invoke(main, args, catch_exceptions=True)
    error = outcome.exception
    unhandled = error is not None and not isinstance(error, SystemExit)
    Path(result).write_text(json.dumps({
        "exit_code": outcome.exit_code, "output": outcome.output, "calls": tap.calls,
        "traceback": repr(error) if unhandled else "",
    }))
    os._exit(0)
