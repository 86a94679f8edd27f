"""Issue 23 progress: the ingest bar counts bytes inside a large file (not files), `simulate`
shows progress, a first run's compile says one line; bars and that line go to stderr only
when it is a terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit import compiled
from audit.cli import common
from audit.cli.main import main
from audit.export import export_each
from audit.importers import get_importer
from audit.ingest.pipeline import ingest, input_bytes
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _phh_file(tmp_path: Path, hands: int) -> Path:
    simulate(tmp_path / "sim", hands=hands, seed=4, tables=4)
    path = tmp_path / "big.phhs"
    path.write_text(export_each(Store(tmp_path / "sim").read_events(), "phh").text,
                    encoding="utf-8")
    return path


def test_ingest_progress_counts_bytes_inside_one_large_file(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    # Before: one call per file, so a single large file showed no progress until its end.
    path = _phh_file(tmp_path, 160)
    monkeypatch.setattr(get_importer("phh"), "chunk_hands", 20)
    steps: list[int] = []
    summary = ingest([path], Store(tmp_path / "store"), progress=steps.append)
    assert summary.hands == 160
    assert sum(steps) == input_bytes([path]) == path.stat().st_size
    assert len(steps) >= 8 and max(steps) < path.stat().st_size // 4


def test_simulate_reports_progress_to_the_last_hand(tmp_path: Path) -> None:
    # Before: a report every 10,000 hands only, never the rest: 1,234 hands said nothing.
    steps: list[int] = []
    simulate(tmp_path / "sim", hands=1234, seed=1, tables=4, variant="omaha",
             structure="pot_limit", progress=steps.append)
    assert sum(steps) == 1234 and len(steps) >= 3


def test_simulate_draws_a_bar_on_a_terminal_only(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(main, ["simulate", "--hands", "30", "--out",
                                       str(tmp_path / "a")])
    assert result.exit_code == 0 and "simulating" not in result.stderr
    assert result.stdout == ""
    terminal = _Terminal()
    monkeypatch.setattr(common, "sys", type("S", (), {"stderr": terminal}))
    monkeypatch.setattr("click._termui_impl.isatty", lambda f: True, raising=False)
    with common.progress_bar(30, "simulating") as advance:
        assert advance is not None
        advance(30)
    assert "simulating" in terminal.getvalue()
    monkeypatch.setattr(common, "sys", sys)
    with common.progress_bar(30, "simulating") as advance:  # pytest's stderr: no terminal
        assert advance is None


def test_a_first_compile_says_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(compiled.sys, "stderr", terminal)
    monkeypatch.setattr(compiled, "_cached", lambda name: False)
    monkeypatch.setattr(compiled, "_ANNOUNCED", {})
    for name in ("audit.store.merkle_kernel", "audit.replay.fast.kernel"):
        compiled.CompiledModule(name, f"the {name}", "slower").get()
    lines = terminal.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("poker-audit: compiling the fast path once (")
    assert "about 5 s" in lines[0]


def test_no_compile_line_off_a_terminal_or_when_cached(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    cached = compiled._cached
    piped = io.StringIO()
    monkeypatch.setattr(compiled.sys, "stderr", piped)
    monkeypatch.setattr(compiled, "_ANNOUNCED", {})
    monkeypatch.setattr(compiled, "_cached", lambda name: False)
    compiled.CompiledModule("audit.store.merkle_kernel", "merkle", "slower").get()
    assert piped.getvalue() == ""
    module = tmp_path / "fresh_kernel.py"
    module.write_text("X = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert not cached("fresh_kernel")
    (tmp_path / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "__pycache__" / "fresh_kernel.f-3.py311.nbi").write_bytes(b"")
    assert cached("fresh_kernel")
