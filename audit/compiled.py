"""Compiled (numba) modules loaded once per process, each with a pure-Python fallback.

The replay kernel, the simulator's NLHE engine and the Merkle leaf writer are numba modules
compiled on first use and cached. Where numba cannot build or run them, the caller falls back
to its reference path (same results, slower) after one warning. numba caches the compiled
code next to the module; when that directory is read-only (a system-wide install) the cache
goes to the user's cache directory instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import multiprocessing
import os
import sys
from pathlib import Path
from types import ModuleType

_BASE_FAILURES: tuple[type[BaseException], ...] = (OSError, RuntimeError, ImportError)


def compile_failures() -> tuple[type[BaseException], ...]:
    """The exceptions that mean a compiled module cannot build or run here."""
    try:
        import numba.core.errors
    except ImportError:
        return _BASE_FAILURES
    return (*_BASE_FAILURES, numba.core.errors.NumbaError)


# about how long numba takes to compile each module the first time (one core, seconds)
COMPILE_SECONDS = {"audit.replay.fast.kernel": 60, "audit.simulate.compiled.kernel": 20,
                   "audit.importers.pokerstars.kernel": 30, "audit.store.merkle_kernel": 5,
                   "audit.importers.ggpoker_kernel": 30, "audit.importers.textkernel": 5,
                   "audit.importers.winamax_kernel": 30}
_ANNOUNCED: dict[str, bool] = {}


def _cached(name: str) -> bool:
    """Whether numba's cache holds compiled code of module `name` (its index files, next to
    the module in __pycache__ or under NUMBA_CACHE_DIR); stale entries count as cached."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return True
    source = Path(spec.origin)
    pattern = f"{source.stem}.*.nbi"
    if any((source.parent / "__pycache__").glob(pattern)):
        return True
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if not cache_dir:
        return False
    return any(Path(cache_dir).glob(f"{source.parent.name}_*/{pattern}"))


def _announce_compile(title: str, seconds: int) -> None:
    """One line, once per run, before numba compiles on a first run: where the wait goes.
    Only on a terminal and only in the main process (workers compile silently)."""
    if _ANNOUNCED or not sys.stderr.isatty() or multiprocessing.parent_process() is not None:
        return
    _ANNOUNCED["done"] = True
    print(f"poker-audit: compiling the fast path once ({title}), about {seconds} s; later "
          "runs start at once", file=sys.stderr, flush=True)


class CompiledModule:
    """One numba module (`name`, dotted), loaded on first `get()`; None once it fails.
    `title` and `fallback` make the warning: what is unavailable and what happens instead."""

    def __init__(self, name: str, title: str, fallback: str) -> None:
        self.name = name
        self.title = title
        self.fallback = fallback
        self.state: dict[str, object] = {}

    def get(self) -> ModuleType | None:
        if "module" in self.state:
            return self.state["module"]  # type: ignore[return-value]
        here = Path(__file__).resolve().parent
        if "NUMBA_CACHE_DIR" not in os.environ and not os.access(here, os.W_OK):
            base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
            os.environ["NUMBA_CACHE_DIR"] = str(base / "poker-audit" / "numba")
        try:
            import numba.core.config

            numba.core.config.reload_config()  # picks up NUMBA_CACHE_DIR set above
            if not _cached(self.name):
                _announce_compile(self.title, COMPILE_SECONDS.get(self.name, 30))
            module = importlib.import_module(self.name)
        except ImportError as exc:
            self.failed(exc)
            return None
        self.state["module"] = module
        return module

    def failed(self, exc: BaseException) -> None:
        """Say once that the compiled path is off, and keep it off for this process."""
        if not self.state.get("warned"):
            print(f"poker-audit: {self.title} is unavailable ({type(exc).__name__}: {exc}); "
                  f"{self.fallback}", file=sys.stderr)
            self.state["warned"] = True
        self.state["module"] = None
