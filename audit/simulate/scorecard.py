"""The accuracy scorecard: audit a simulated store, join the findings with the injection labels,
and report per rule id precision and recall, plus the findings on clean (uninjected) hands.

A finding matches a label when hand, rule id and seat agree (a label without a seat matches
any seat). Precision = matched findings / findings of the rule; recall = labels with at
least one matching finding / labels of the rule. `seq_agree` counts matched findings whose
event seq is also the label's.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from audit.rules.registry import Severity
from audit.run.runner import audit_store, read_findings
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

WARNING = Severity("warning").level


def accuracy_scorecard(store_dir: Path | str, *, profile: str = "montana") -> dict[str, Any]:
    """Audit the simulated store at `store_dir` and score the findings against its labels."""
    root = Path(store_dir)
    store = Store(root)
    run = audit_store(store, profile=profile)
    findings = read_findings(store, run.run_id).select(
        ["hand_id", "rule_id", "seat", "severity", "seq"]).to_pylist()
    labels = pq.read_table(root / "labels.parquet").to_pylist()
    by_key: dict[tuple[str, str], list[dict]] = defaultdict(list)
    labelled: set[str] = set()
    for lab in labels:
        by_key[(lab["hand_id"], lab["rule_id"])].append(lab)
        labelled.add(lab["hand_id"])
    rules: dict[str, dict[str, Any]] = {}

    def row(rule: str) -> dict[str, Any]:
        r = rules.get(rule)
        if r is None:
            r = rules[rule] = {"labels": 0, "found": 0, "findings": 0, "matched": 0,
                               "seq_agree": 0, "injectors": set()}
        return r

    for lab in labels:
        r = row(lab["rule_id"])
        r["labels"] += 1
        r["injectors"].add(lab["kind"])
    found: set[int] = set()
    clean = Counter()
    clean_info = 0
    for f in findings:
        r = row(f["rule_id"])
        r["findings"] += 1
        cands = by_key.get((f["hand_id"], f["rule_id"]), [])
        hit = [lab for lab in cands if lab["seat"] is None or lab["seat"] == f["seat"]]
        if hit:
            r["matched"] += 1
            if any(lab["seq"] == f["seq"] for lab in hit):
                r["seq_agree"] += 1
            for lab in hit:
                found.add(id(lab))
        if f["hand_id"] not in labelled:
            if Severity(f["severity"]).level >= WARNING:
                clean[f["rule_id"]] += 1
            else:
                clean_info += 1
    for lab in labels:
        if id(lab) in found:
            rules[lab["rule_id"]]["found"] += 1
    for r in rules.values():
        r["precision"] = r["matched"] / r["findings"] if r["findings"] else None
        r["recall"] = r["found"] / r["labels"] if r["labels"] else None
        r["injectors"] = sorted(r["injectors"])
    return {
        "store": str(root),
        "run_id": run.run_id,
        "hands": run.hands,
        "labelled_hands": len(labelled),
        "labels": len(labels),
        "findings": len(findings),
        "rules": dict(sorted(rules.items())),
        "clean_hand_findings": sum(clean.values()),
        "clean_by_rule": dict(sorted(clean.items())),
        "clean_info_findings": clean_info,
    }


def format_scorecard(card: dict[str, Any]) -> str:
    """The scorecard as a fixed-width table."""
    lines = [f"{'rule id':28} {'labels':>6} {'findings':>8} {'precision':>9} {'recall':>7} "
             f"{'same seq':>8}"]
    for rule, r in card["rules"].items():
        p = "-" if r["precision"] is None else f"{100 * r['precision']:.1f}%"
        c = "-" if r["recall"] is None else f"{100 * r['recall']:.1f}%"
        lines.append(f"{rule:28} {r['labels']:>6} {r['findings']:>8} {p:>9} {c:>7} "
                     f"{r['seq_agree']:>8}")
    lines.append(f"hands {card['hands']}, injected {card['labelled_hands']}, findings on clean "
                 f"hands (warning+) {card['clean_hand_findings']} {card['clean_by_rule'] or ''}")
    return "\n".join(lines)


def bench_accuracy(*, hands: int = 5_000, violations: float = 0.1, seed: int = 0,
                   variant: str = "all", structure: str = "mixed",
                   kill_tables: float = 0.5) -> dict[str, Any]:
    """Simulate into a temporary store, audit it, return the scorecard (for `bench --accuracy`):
    every game the simulator plays (button, stud and draw games, `kill_tables` of the cash
    lowball and draw tables playing a required kill), so every injector counts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sim"
        simulate(out, hands=hands, seed=seed, variant=variant, structure=structure, tables=12,
                 violations=violations, tournament_share=0.3, kill_tables=kill_tables)
        return accuracy_scorecard(out)


def bench_simulate(*, hands: int = 20_000, seed: int = 0, variant: str = "holdem",
                   structure: str = "no_limit") -> dict[str, Any]:
    """Simulation speed in hands/s (one core, writing the store included)."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        c0 = time.process_time()
        s = simulate(Path(tmp) / "sim", hands=hands, seed=seed, variant=variant,
                     structure=structure, tables=16)
        secs = time.perf_counter() - t0
        cpu = time.process_time() - c0
    return {"hands": hands, "events": s.events, "seconds": secs, "cpu_seconds": cpu,
            "hands_per_second": hands / secs, "hands_per_cpu_second": hands / cpu,
            "variant": variant, "structure": structure}
