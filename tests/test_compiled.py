"""numba's on-disk cache never serves code compiled from an older source.

numba keys a cached function on the source file that defines it, so a kernel that calls or
inlines another module's functions (the replay kernel and the hand evaluator, the GGPoker
reader and the PokerStars reader) would keep the old compiled code after an edit to that other
module. `audit.compiled` keys the cache on every source a kernel compiles in and drops it when
the key changes; an unchanged tree keeps its cache (CI's first compile costs what it did).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from audit.compiled import cache_dir, cache_key, compiled_in, package_root

ROOT = Path(__file__).resolve().parents[1]
AUDIT = ROOT / "audit"


@pytest.mark.parametrize(("kernel", "compiles_in"), [
    ("audit.replay.fast.kernel", {"audit.poker.evaluate.kernel", *(
        f"audit.replay.fast.{m}" for m in ("layout", "turns", "forced", "betting", "cards",
                                           "strength", "pots", "stud", "draw", "jokers",
                                           "decode"))}),
    ("audit.simulate.compiled.kernel", {"audit.poker.evaluate.kernel",
                                        "audit.simulate.compiled.table_state"}),
    ("audit.importers.ggpoker_kernel", {"audit.importers.textkernel",
                                        "audit.importers.pokerstars.kernel"}),
    ("audit.importers.textkernel", {"audit.importers.pokerstars.kernel"}),
    ("audit.importers.pokerstars.kernel", set()),
    ("audit.store.merkle_kernel", set()),
])
def test_a_kernels_key_covers_every_module_it_compiles_in(kernel: str,
                                                          compiles_in: set[str]) -> None:
    sources = compiled_in(kernel, AUDIT)
    assert kernel in sources
    assert compiles_in <= set(sources)
    assert "audit.compiled" not in sources and "audit.replay.hand" not in sources
    for module, text in sources.items():
        edited = {**sources, module: text + b"\n# an edit\n"}
        assert cache_key(edited) != cache_key(sources), module
    assert cache_key(compiled_in(kernel, AUDIT)) == cache_key(sources)  # same tree, same key


def test_an_edit_to_the_hand_evaluator_changes_the_replay_kernels_key(tmp_path: Path) -> None:
    copy = tmp_path / "audit"
    for module in compiled_in("audit.replay.fast.kernel", AUDIT):
        path = copy.joinpath(*module.split(".")[1:]).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(AUDIT.joinpath(*module.split(".")[1:]).with_suffix(".py").read_bytes())
    before = cache_key(compiled_in("audit.replay.fast.kernel", copy))
    assert before == cache_key(compiled_in("audit.replay.fast.kernel", AUDIT))
    evaluator = copy / "poker" / "evaluate" / "kernel.py"
    evaluator.write_text(evaluator.read_text().replace("return", "return  ", 1))
    assert cache_key(compiled_in("audit.replay.fast.kernel", copy)) != before


def test_every_form_of_import_is_followed(tmp_path: Path) -> None:
    files = {
        "__init__.py": "",
        "fast/__init__.py": "",
        "fast/kernel.py": "from toy.fast.betting import (\n    bet,  # a comment\n    call,\n)\n"
                          "from . import showdown as sd\nfrom ..cards import deck\n"
                          "import toy.rules, numpy as np\n",
        "fast/betting.py": "from toy.fast.layout import S_IN\n",
        "fast/layout.py": "S_IN = 0\n",
        "fast/showdown.py": "",
        "cards.py": "",
        "rules.py": "",
        "unrelated.py": "",
    }
    for name, text in files.items():
        (tmp_path / "toy" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "toy" / name).write_text(text)
    assert set(compiled_in("toy.fast.kernel", tmp_path / "toy")) == {
        "toy.fast", "toy.fast.kernel", "toy.fast.betting", "toy.fast.layout",
        "toy.fast.showdown", "toy.cards", "toy.rules"}


def test_the_key_is_kept_where_numba_caches(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    numba = pytest.importorskip("numba")
    from numba.core import caching

    from audit.poker.evaluate import kernel

    assert package_root("audit.poker.evaluate.kernel") == AUDIT
    source, function = Path(kernel.__file__), kernel.dense_high.py_func
    in_tree = caching.InTreeCacheLocator.from_function(function, str(source))  # type: ignore[no-untyped-call]
    assert Path(in_tree.get_cache_path()) == cache_dir(source, None)
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", str(tmp_path))
    chosen = caching.UserProvidedCacheLocator.from_function(function, str(source))  # type: ignore[no-untyped-call]
    assert Path(chosen.get_cache_path()) == cache_dir(source, str(tmp_path))


TOY = {
    "__init__.py": "",
    "rules.py": "LIMIT = 10\n",
    "evaluate.py": "from numba import njit\n\n\n@njit(cache=True)\ndef strength(x):\n"
                   "    return x + 1\n\n\n@njit(cache=True, inline='always')\ndef bonus(x):\n"
                   "    return 2 * x\n",
    "kernel.py": "from numba import njit\n\nfrom toy.evaluate import bonus, strength\n"
                 "from toy.rules import LIMIT\n\n\n@njit(cache=True)\ndef answer(x):\n"
                 "    return strength(x) + bonus(x) + LIMIT\n",
}
LOAD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from audit.compiled import CompiledModule
kernel = CompiledModule("toy.kernel", "the toy kernel", "none").get()
value = kernel.answer(1)
stats = kernel.answer.stats
print(json.dumps([value, sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]))
"""


def _load(tmp_path: Path) -> tuple[int, bool]:
    """A fresh process loads the toy kernel the way poker-audit loads its kernels: the answer,
    and whether it came from numba's cache."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", LOAD, str(tmp_path)], env=env, check=True,
                         capture_output=True, text=True).stdout
    value, hits, misses = json.loads(out.splitlines()[-1])
    assert hits + misses == 1
    return value, hits == 1


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.slow
def test_an_edit_to_a_module_the_kernel_compiles_in_rebuilds_its_cache(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    toy = tmp_path / "toy"
    toy.mkdir()
    for name, text in TOY.items():
        (toy / name).write_text(text)
    assert _load(tmp_path) == (2 + 2 + 10, False)  # first run: compiled
    assert _load(tmp_path) == (14, True)  # unchanged tree: the cache is reused
    _edit(toy / "evaluate.py", "x + 1", "x + 100")  # a function it calls
    assert _load(tmp_path) == (101 + 2 + 10, False)
    assert _load(tmp_path) == (113, True)
    _edit(toy / "evaluate.py", "2 * x", "3 * x")  # a function it inlines
    assert _load(tmp_path) == (101 + 3 + 10, False)
    _edit(toy / "rules.py", "10", "20")  # a constant it freezes
    assert _load(tmp_path) == (101 + 3 + 20, False)
    assert _load(tmp_path) == (124, True)
