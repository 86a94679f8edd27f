"""The compiled NLHE simulator (audit/simulate/compiled/simulator.py): its clean hands audit
with no finding
(every replay rule and the table-sequence rules, over many seeds and table counts), the same
seed gives the same bytes, it plays like the Python engine (aggression, folds, flops,
showdowns, pots side by side), and runs it does not play take the Python engine."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.errors import AuditInputError
from audit.replay import hands_from_table, replay_hand
from audit.run.judges import settings_pair
from audit.run.runner import audit_store
from audit.simulate import accuracy_scorecard, simulate
from audit.simulate.compiled import simulator as fast
from audit.simulate.compiled.stats import play_stats
from audit.store.dataset import Store

needs_kernel = pytest.mark.skipif(fast.ready() is None, reason="numba kernel unavailable")


def _digests(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


@needs_kernel
@pytest.mark.parametrize("seed,tables", [(s, t) for s, t in zip(range(12), (1, 2, 3, 5, 8, 16) * 2,
                                                                strict=True)])
def test_clean_fast_hands_audit_without_findings(tmp_path: Path, seed: int, tables: int) -> None:
    root = tmp_path / "s"
    summary = simulate(root, hands=1500, seed=seed, tables=tables, hands_per_file=700)
    assert summary.engine == "fast" and summary.hands == 1500 and summary.batches == 3
    run = audit_store(Store(root))
    assert run.hands == 1500
    assert run.findings == 0, run.by_rule


@needs_kernel
@pytest.mark.slow
def test_clean_fast_hands_pass_the_reference_replay(tmp_path: Path) -> None:
    """The same without the replay's compiled path: every hand through the reference replay."""
    root = tmp_path / "s"
    simulate(root, hands=3000, seed=21, tables=9)
    cash, _ = settings_pair("montana", ())
    found = [(hand.hand_id, f.rule_id) for hand in hands_from_table(Store(root).read_events())
             for f in replay_hand(hand, cash).findings]
    assert found == []


@needs_kernel
@pytest.mark.slow
def test_fast_hands_cover_the_table_life(tmp_path: Path) -> None:
    """Sitting out and coming back, side pots, split pots, rake, all-ins: the paths a clean
    audit must have seen for the property test above to mean anything."""
    root = tmp_path / "s"
    simulate(root, hands=6000, seed=4, tables=6)
    ev = Store(root).read_events().to_pydict()
    details = set(ev["detail"])
    assert {"sitting_out", "uncalled", "rake", "all_in", "main", "side-1"} <= details
    kinds = set(ev["kind"])
    assert {"bet", "raise", "call", "check", "fold", "show", "burn"} <= kinds
    awards: dict[tuple[str, str], int] = {}
    for hand, kind, detail in zip(ev["hand_id"], ev["kind"], ev["detail"], strict=True):
        if kind == "award" and detail == "main":
            awards[(hand, detail)] = awards.get((hand, detail), 0) + 1
    assert max(awards.values()) >= 2  # a chopped pot
    buttons = {}
    for table, game in zip(ev["table_id"], ev["game"], strict=True):
        if game is not None:
            buttons.setdefault(table, []).append(game["button_seat"])
    assert all(len(set(b)) > 1 for b in buttons.values())  # the button moves


@needs_kernel
@pytest.mark.slow
def test_fast_same_seed_same_bytes(tmp_path: Path) -> None:
    kw = dict(hands=5000, seed=3, tables=7, hands_per_file=2000)
    simulate(tmp_path / "a", **kw)  # type: ignore[arg-type]
    simulate(tmp_path / "b", **kw)  # type: ignore[arg-type]
    a, b = _digests(tmp_path / "a"), _digests(tmp_path / "b")
    assert a == b
    assert sum(1 for k in a if k.startswith("events/")) >= 3
    simulate(tmp_path / "c", **{**kw, "seed": 4})  # type: ignore[arg-type]
    assert _digests(tmp_path / "c") != a
    assert Store(tmp_path / "a").verify().ok
    assert pq.read_table(tmp_path / "a" / "labels.parquet").num_rows == 0


@needs_kernel
@pytest.mark.slow
def test_fast_engine_plays_like_the_python_engine(tmp_path: Path) -> None:
    """The two engines' styles give comparable play: measured side by side on one seed."""
    simulate(tmp_path / "py", hands=8000, seed=9, tables=8, engine="python")
    simulate(tmp_path / "fast", hands=8000, seed=9, tables=8, engine="fast")
    py = play_stats(Store(tmp_path / "py").read_events())
    fa = play_stats(Store(tmp_path / "fast").read_events())
    for key, tolerance in (("fold_share", 0.06), ("check_share", 0.04), ("call_share", 0.04),
                           ("bet_raise_share", 0.05), ("preflop_raise_share", 0.1),
                           ("flop_seen", 0.1), ("showdown", 0.04)):
        assert abs(py[key] - fa[key]) <= tolerance, (key, py, fa)
    assert 0.6 <= fa["pot_bb_mean"] / py["pot_bb_mean"] <= 1.6, (py, fa)
    assert 0.5 <= fa["aggression_factor"] / py["aggression_factor"] <= 2, (py, fa)
    assert 0.8 <= fa["players_dealt"] / py["players_dealt"] <= 1.25, (py, fa)


def test_runs_the_fast_engine_does_not_play_take_the_python_engine(tmp_path: Path) -> None:
    for i, kw in enumerate((dict(violations=0.1), dict(colluders=1),
                            dict(tournament_share=0.5), dict(structure="pot_limit"),
                            dict(variant="omaha"), dict(players=30))):
        s = simulate(tmp_path / f"s{i}", hands=60, seed=1, tables=3, **kw)  # type: ignore
        assert s.engine == "python", kw
    with pytest.raises(AuditInputError, match="fast engine cannot play"):
        simulate(tmp_path / "x", hands=10, violations=0.1, engine="fast")
    with pytest.raises(AuditInputError, match="unknown engine"):
        simulate(tmp_path / "y", hands=10, engine="turbo")


def test_without_the_kernel_the_python_engine_plays(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fast._state, "ready", None)
    s = simulate(tmp_path / "s", hands=200, seed=1, tables=3)
    assert s.engine == "python" and s.hands == 200


@pytest.mark.slow
def test_nlhe_with_violations_keeps_a_perfect_scorecard(tmp_path: Path) -> None:
    """The default `simulate --variant holdem` with violations stays on the Python engine,
    whose labels are exact: 100% precision and recall."""
    root = tmp_path / "s"
    s = simulate(root, hands=3000, seed=2, tables=8, violations=0.05)
    assert s.engine == "python"
    card = accuracy_scorecard(root)
    assert card["labelled_hands"] > 50
    assert card["clean_hand_findings"] == 0
    for rule, r in card["rules"].items():
        assert r["precision"] == 1.0 and r["recall"] == 1.0, (rule, r)


@needs_kernel
@pytest.mark.slow
def test_bench_reports_both_engines_and_the_stages() -> None:
    from audit.devtools.fast_bench import bench_engines, format_engines

    b = bench_engines(python_hands=300, fast_hands=3000, tables=4)
    assert b["python"]["hands"] == 300 and b["fast"]["hands"] == 3000
    assert b["fast"]["hands_per_cpu_second"] > 0 and b["speedup_cpu"] > 0
    # the fast engine is timed twice (a process's first run also grows its heap): the best
    # is reported, the first kept beside it
    assert b["fast"]["runs"] == 2 and b["fast"]["first_run_hands_per_cpu_second"] > 0
    stages = b["stages"]["hands_per_cpu_second"]
    assert set(stages) == {"kernel", "arrow", "parquet", "merkle", "engine", "all"}
    assert min(stages.values()) > 0
    assert b["python"]["play"]["hands"] == 300 and b["fast"]["play"]["hands"] == 3000
    text = "\n".join(format_engines(b))
    assert "fast engine" in text and "python engine" in text and "Merkle" in text
    assert "best of 2, the process's first run" in text


@needs_kernel
@pytest.mark.slow
def test_live_tables_over_fast_hands_audit_clean(tmp_path: Path) -> None:
    """`simulate --live` on a clean NLHE run: the physical layer goes onto fast-engine hands."""
    from audit.simulate.play.live import simulate_live

    s = simulate_live(tmp_path / "s", hands=800, seed=3, tables=4)
    assert s.engine == "fast"
    run = audit_store(Store(tmp_path / "s"))
    assert run.hands == 800 and run.findings == 0, run.by_rule
