"""The live-table rendering of simulated hands (audit/simulate/play/live.py), scored against
the live
rulings: a canonical physical layer changes no finding, and every planted live violation is
found under its rule id at its seat, with no live finding that no label explains."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.replay import hands_from_table, replay_hand
from audit.rules.catalog import LIVE_RULE_IDS
from audit.rules.ids import (
    BET_NL_DENOM,
    CHIP_GROSS_MISUNDERSTANDING,
    CHIP_MIN_UNIT,
    CHIP_SHORT_CALL,
    STRING_BIGBET_MULTIMOVE,
)
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.simulate.play.live import LIVE_INJECTORS, add_physical_layer_table
from audit.simulate.play.sim import simulate
from audit.sql.query import query
from audit.store.dataset import Store

MONTANA = Settings(load_profile("montana"))


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("sim") / "store"
    simulate(out, hands=600, seed=7, tables=8, structure="mixed", variant="all",
             violations=0.05)
    table = query(Store(out), "SELECT * FROM events ORDER BY hand_id, seq")
    sim_labels: dict[str, set[str]] = defaultdict(set)
    for lab in pq.read_table(Path(out) / "labels.parquet").to_pylist():
        sim_labels[lab["hand_id"]].add(lab["rule_id"])
    return table, sim_labels


def _findings(table):
    return {h.hand_id: replay_hand(h, MONTANA).findings for h in hands_from_table(table)}


def test_every_live_rule_id_has_an_injector():
    assert sorted(LIVE_INJECTORS) == sorted(LIVE_RULE_IDS)


@pytest.mark.slow
def test_injectors_need_house_rules_only_on_the_hands_they_plant(simulated):
    import json

    table, _ = simulated
    live, labels = add_physical_layer_table(table, seed=3, violations=0.4)
    planted = {h: rule for h, _, rule, _, _, _ in labels}
    house = {h: json.loads(g["house_overrides"] or "{}")
             for h, g in zip(live.column("hand_id").to_pylist(), live.column("game").to_pylist(),
                             strict=True) if g is not None}
    keys = {"chip.min_unit": CHIP_MIN_UNIT, "nl.wager_denom": BET_NL_DENOM,
            "nl.multimotion": STRING_BIGBET_MULTIMOVE}
    # each house rule must be planted somewhere, or its half of the check below is vacuous
    assert set(keys.values()) <= {planted.get(h) for h in house}
    for hand_id, extra in house.items():
        for key, rule in keys.items():
            assert (key in extra) == (planted.get(hand_id) == rule), (hand_id, key)


@pytest.mark.slow
def test_a_canonical_physical_layer_changes_no_finding(simulated):
    table, _ = simulated
    live, labels = add_physical_layer_table(table, seed=1, violations=0.0)
    assert labels == []
    assert live.num_rows > table.num_rows  # every hand got a physical layer
    online = _findings(table)

    def key(fs):  # messages cite event seqs, which the inserted physical events move along
        return sorted((f.rule_id, f.seat, re.sub(r"event \d+", "event #", f.message))
                      for f in fs if f.rule_id != CHIP_GROSS_MISUNDERSTANDING)

    live_findings = _findings(live)
    assert live_findings.keys() == online.keys()
    assert any(online.values())  # the 5% violations leave findings to compare
    for hand_id, found in live_findings.items():
        assert key(found) == key(online[hand_id]), hand_id


@pytest.mark.slow
def test_every_planted_live_violation_is_found_and_nothing_else(simulated):
    table, sim_labels = simulated
    live, labels = add_physical_layer_table(table, seed=3, violations=0.4)
    planted = {(h, rule, seat) for h, _, rule, seat, _, _ in labels}
    assert {rule for _, rule, _ in planted} == set(LIVE_INJECTORS)
    found, unexplained = set(), []
    for hand_id, fs in _findings(live).items():
        for f in fs:
            if f.rule_id not in LIVE_RULE_IDS:
                continue
            key = (hand_id, f.rule_id, f.seat)
            if key in planted:
                found.add(key)
            elif not (f.rule_id == CHIP_GROSS_MISUNDERSTANDING
                      and CHIP_SHORT_CALL in sim_labels[hand_id]):
                unexplained.append(key)  # a short call the simulator planted is < 80% owed
    assert unexplained == []
    # A live violation planted on a raise the simulator had already made illegal (a re-raise
    # not reopened to him, a raise past the cap) is ruled by that betting rule instead.
    missed = [k for k in planted - found if not sim_labels[k[0]]]
    assert missed == []
    assert len(found) >= 0.95 * len(planted)


@pytest.mark.slow
def test_simulate_live_scores_every_live_rule_at_full_precision_and_recall(tmp_path):
    from audit.simulate.play.live import simulate_live
    from audit.simulate.scorecard import accuracy_scorecard

    out = tmp_path / "live-store"
    s = simulate_live(out, hands=800, seed=6, tables=16, structure="mixed", variant="all",
                      violations=0.05, live_violations=0.5)
    assert s.hands == 800 and s.labels > 0
    card = accuracy_scorecard(out)
    assert card["clean_hand_findings"] == 0  # the simulator's own labels moved with their seqs
    for rule in LIVE_INJECTORS:
        row = card["rules"][rule]
        assert row["labels"] > 0, rule
        assert (row["precision"], row["recall"]) == (1.0, 1.0), (rule, row)
        assert row["seq_agree"] == row["matched"], (rule, row)


def test_simulate_command_live_flag(tmp_path):
    from click.testing import CliRunner

    from audit.cli.simulate import simulate_command

    out = tmp_path / "cli-live"
    r = CliRunner().invoke(simulate_command, ["--hands", "200", "--out", str(out), "--live",
                                              "--live-violations", "0.2", "--seed", "3"])
    assert r.exit_code == 0, r.output
    kinds = query(Store(out), "SELECT DISTINCT kind FROM events").column("kind").to_pylist()
    assert {"declare", "chips"} <= set(kinds)
    labels = pq.read_table(out / "labels.parquet").to_pylist()
    assert any(lab["kind"].startswith("live:") for lab in labels)
    bad = CliRunner().invoke(simulate_command, ["--hands", "3", "--out", str(tmp_path / "x"),
                                                "--live-violations", "0.2"])
    assert bad.exit_code == 2 and "--live-violations needs --live" in bad.output


@pytest.mark.slow
def test_simulate_live_same_seed_same_bytes(tmp_path):
    from audit.simulate.play.live import simulate_live

    def run(name):
        out = tmp_path / name
        simulate_live(out, hands=150, seed=9, tables=3, structure="mixed", violations=0.1,
                      live_violations=0.3, hands_per_file=60)
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
                if p.is_file() and "runs" not in p.parts}

    a, b = run("a"), run("b")
    assert a == b
    assert sum(1 for p in a if p.startswith("events/")) >= 3  # one file per batch of 60 hands
