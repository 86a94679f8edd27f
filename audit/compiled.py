"""Compiled (numba) modules loaded once per process, each with a pure-Python fallback.

The replay kernel, the simulator's NLHE engine and the Merkle leaf writer are numba modules
compiled on first use and cached. Where numba cannot build or run them, the caller falls back
to its reference path (same results, slower) after one warning. numba caches the compiled
code next to the module; when that directory is read-only (a system-wide install) the cache
goes to the user's cache directory instead. numba keys that cache on the source of the module
that defines each function only, not on the modules it calls or inlines, so before loading a
module `refresh_cache` drops the cache of every numba module it compiles in whose key (a digest
over that module and every module of its package it imports, transitively) has changed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import multiprocessing
import os
import re
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


# about how long numba takes to compile each module the first time (one core, seconds; the
# replay's 150: 146 CPU-s measured in session 25)
COMPILE_SECONDS = {"audit.replay.fast.kernel": 150, "audit.simulate.compiled.kernel": 20,
                   "audit.importers.pokerstars.kernel": 30, "audit.store.merkle_kernel": 5,
                   "audit.importers.ggpoker_kernel": 30, "audit.importers.textkernel": 5,
                   "audit.importers.winning_kernel": 30, "audit.importers.winamax_kernel": 30,
                   "audit.importers.pacific_kernel": 30, "audit.importers.bovada_kernel": 30,
                   "audit.importers.merge_kernel": 45}
_ANNOUNCED: dict[str, bool] = {}
# an import statement: `from .x import a, b` / `from x import (a,\n b)` / `import x, y`
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+([^\n]*))", re.MULTILINE)


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


def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


def _cache_outside_a_read_only_install() -> None:
    """Point numba's cache at the user's cache directory when the package's own directory
    cannot be written (a system-wide install), unless NUMBA_CACHE_DIR is set already."""
    here = Path(__file__).resolve().parent
    if "NUMBA_CACHE_DIR" not in os.environ and not os.access(here, os.W_OK):
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        os.environ["NUMBA_CACHE_DIR"] = str(base / "poker-audit" / "numba")


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
        _cache_outside_a_read_only_install()
        try:
            import numba.core.config

            numba.core.config.reload_config()  # picks up NUMBA_CACHE_DIR set above
            refresh_cache(self.name, getattr(numba.core.config, "CACHE_DIR", None))
            if not _cached(self.name):
                self.announce_compile()
            module = importlib.import_module(self.name)
        except ImportError as exc:
            self.failed(exc)
            return None
        self.state["module"] = module
        return module

    def compile_pending(self) -> bool:
        """Whether the first process here to run this module will compile it (numba is
        installed and its cache is empty or stale): minutes and a couple of GB on a first run
        after install, so a caller about to start several processes that each run it lets one
        compile it first. numba is not imported: a parent that only hands the work to worker
        processes never loads it."""
        if self.state.get("warned") or not _numba_installed():
            return False
        _cache_outside_a_read_only_install()
        refresh_cache(self.name, os.environ.get("NUMBA_CACHE_DIR") or None)
        return not _cached(self.name)

    def announce_compile(self) -> None:
        """The one line a first run says before the wait (see `_announce_compile`)."""
        _announce_compile(self.title, COMPILE_SECONDS.get(self.name, 30))

    def failed(self, exc: BaseException) -> None:
        """Say once that the compiled path is off, and keep it off for this process."""
        if not self.state.get("warned"):
            print(f"poker-audit: {self.title} is unavailable ({type(exc).__name__}: {exc}); "
                  f"{self.fallback}", file=sys.stderr)
            self.state["warned"] = True
        self.state["module"] = None


def _module_file(root: Path, name: str) -> Path | None:
    """The source of module `name` (dotted, in the package at `root`), or None."""
    path = root.parent.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(root: Path, name: str, source: bytes, is_package: bool) -> set[str]:
    """The modules of the package at `root` that module `name` imports (its import lines
    read, not run; a line in a docstring that looks like one counts too)."""
    found: set[str] = set()
    package = name.split(".") if is_package else name.split(".")[:-1]
    for match in _IMPORT.finditer(source.decode("utf-8", "replace")):
        level, module, names, plain = match.groups()
        if plain is not None:
            found.update(_names(plain))
            continue
        parts = package[:len(package) + 1 - len(level)] if level else []
        base = ".".join([*parts, *([module] if module else [])])
        found.add(base)
        found.update(f"{base}.{alias}" for alias in _names(names))
    return {m for m in found if m.split(".")[0] == root.name and _module_file(root, m)}


def _names(text: str) -> list[str]:
    """The names of an import line: `a as b, c` or `(a,  # comment\n c)` -> [a, c]."""
    text = re.sub(r"#[^\n]*", "", text).strip().strip("()\\")
    return [part.split()[0] for part in text.split(",") if part.split()]


def package_root(name: str) -> Path | None:
    """The directory of the top-level package of module `name` (found, not imported)."""
    spec = importlib.util.find_spec(name.split(".")[0])
    return None if spec is None or spec.origin is None else Path(spec.origin).parent


def compiled_in(name: str, root: Path, read: dict[str, tuple[bytes, set[str]]] | None = None
                ) -> dict[str, bytes]:
    """The source of module `name` and of every module of its package (at `root`) it imports,
    transitively, by module name: what a numba module compiles in (the functions it calls or
    inlines, the constants it freezes). `read` keeps each module's source and imports for the
    next call."""
    read = {} if read is None else read
    sources: dict[str, bytes] = {}
    todo = [name]
    while todo:
        module = todo.pop()
        if module in sources:
            continue
        if module not in read:
            path = _module_file(root, module)
            if path is None:
                continue
            text = path.read_bytes()
            read[module] = (text, _imports(root, module, text, path.name == "__init__.py"))
        sources[module] = read[module][0]
        todo.extend(read[module][1])
    return dict(sorted(sources.items()))


def cache_key(sources: dict[str, bytes]) -> str:
    """A digest over the sources a module compiles in (`compiled_in`): any edit changes it."""
    digest = hashlib.sha256()
    for module, text in sorted(sources.items()):
        digest.update(f"{module}\0{len(text)}\0".encode())
        digest.update(text)
    return digest.hexdigest()


def cache_dir(source: Path, numba_cache_dir: str | None) -> Path:
    """Where numba caches the functions of `source`: __pycache__ beside it or, under
    NUMBA_CACHE_DIR, the directory numba names after the source's directory."""
    if not numba_cache_dir:
        return source.parent / "__pycache__"
    parent = Path(os.path.abspath(source)).parent  # as numba names it
    return Path(numba_cache_dir) / f"{parent.name}_{hashlib.sha1(str(parent).encode()).hexdigest()}"


def refresh_cache(name: str, numba_cache_dir: str | None, root: Path | None = None) -> None:
    """Before module `name` is loaded: drop numba's cache of each numba module it compiles in
    (itself included) whose `cache_key` is not the one recorded beside that cache
    (`<module>.nbkey`), and record the new key; a module whose key holds keeps its cache. A
    cache that cannot be written is left as it is."""
    root = root or package_root(name)
    if root is None:
        return
    read: dict[str, tuple[bytes, set[str]]] = {}
    for module, text in compiled_in(name, root, read).items():
        source = _module_file(root, module)
        if source is None or b"numba" not in text:
            continue
        where = cache_dir(source, numba_cache_dir)
        stamp, key = where / f"{source.stem}.nbkey", cache_key(compiled_in(module, root, read))
        try:
            if stamp.is_file() and stamp.read_text() == key:
                continue
            for stale in [*where.glob(f"{source.stem}.*.nbi"), *where.glob(f"{source.stem}.*.nbc")]:
                stale.unlink(missing_ok=True)
            where.mkdir(parents=True, exist_ok=True)
            fresh = where / f"{stamp.name}.{os.getpid()}"
            fresh.write_text(key)
            fresh.replace(stamp)
        except OSError:
            continue
