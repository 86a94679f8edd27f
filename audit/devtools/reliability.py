"""The reliability scorecard (`poker-audit bench --reliability`): faults injected and survived
(audit.devtools.faults), tamper cases tried and detected (below), hostile inputs tried and handled
(audit.devtools.hostile), and hands lost, which must be 0.

A tamper case edits a small store the way an insider with write access could (files, events,
manifest records, inclusion proofs) and counts as detected when `verify` (or `verify-proof`)
reports it. The last case rewrites everything consistently (files, Merkle roots and the whole
chain): only a chain head published before the rewrite can expose that, so it is checked
against one, as a regulator holding a daily head would.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.devtools.attacks import SUITES, Attack, run_attacks
from audit.devtools.faults import hands_table, run_fault_injection
from audit.devtools.hostile import run_hostile
from audit.ingest.pipeline import ingest
from audit.store import merkle
from audit.store.dataset import GENESIS, Store, record_hash, sha256_file
from audit.store.proof import build_proof, check_proof, dumps


def _records(store: Store) -> list[dict[str, Any]]:
    return store.records()


def _write_records(store: Store, records: list[dict[str, Any]]) -> None:
    store.manifest_path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _rechain(store: Store, records: list[dict[str, Any]], *, roots: bool = False) -> None:
    """Re-hash files (and, with `roots`, Merkle roots) into the records and the chain."""
    prev = GENESIS
    for r in records:
        for f in r.get("files", []):
            path = store.root / f["path"]
            if path.exists():
                f["sha256"] = sha256_file(path)
        if roots and r.get("merkle"):
            leaves = store.batch_leaves(r)
            r["merkle"]["root"] = merkle.merkle_root(leaves).hex()
            r["merkle"]["hands"] = len(leaves)
        r["prev_hash"] = prev
        r["hash"] = record_hash(r)
        prev = r["hash"]
    _write_records(store, records)


def _event_file(store: Store) -> Path:
    return store.root / _records(store)[0]["files"][0]["path"]


def _edit_events(store: Store, edit: Callable[[pa.Table], pa.Table], *, rechain: bool,
                 roots: bool = False) -> None:
    path = _event_file(store)
    table = pq.read_table(path)
    pq.write_table(edit(table).cast(table.schema), path)
    if rechain:
        _rechain(store, _records(store), roots=roots)


def _amount_plus_one(t: pa.Table) -> pa.Table:
    amounts = t.column("amount").to_pylist()
    row = next(i for i, v in enumerate(amounts) if v)
    amounts[row] += 1
    return t.set_column(t.schema.get_field_index("amount"), "amount",
                        pa.array(amounts, pa.int64()))


def _first_hand_rows(t: pa.Table) -> int:
    seq = t.column("seq").to_pylist()
    return next(i for i, s in enumerate(seq[1:], start=1) if s == 0)


def _drop_first_hand(t: pa.Table) -> pa.Table:
    return t.slice(_first_hand_rows(t))


def _swap_first_hands(t: pa.Table) -> pa.Table:
    n = _first_hand_rows(t)
    return pa.concat_tables([t.slice(n, n), t.slice(0, n), t.slice(2 * n)])


def _duplicate_first_hand(t: pa.Table) -> pa.Table:
    return pa.concat_tables([t, t.slice(0, _first_hand_rows(t))])


def _swap_events(t: pa.Table) -> pa.Table:
    order = list(range(t.num_rows))
    order[3], order[4] = order[4], order[3]
    return t.take(pa.array(order))


def _flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _edit_record(store: Store, edit: Callable[[list[dict[str, Any]]], None]) -> None:
    records = _records(store)
    edit(records)
    _write_records(store, records)


def _forge_record(records: list[dict[str, Any]]) -> None:
    forged = json.loads(json.dumps(records[0]))
    forged["batch_id"] = "20260101T000000000000Z-f0f0f0f0"
    records.insert(1, forged)


def _quarantine_file(store: Store) -> Path:
    return store.root / next(q["path"] for r in _records(store) for q in r.get("quarantine", []))


TAMPERS: dict[str, Callable[[Store], None]] = {
    "event file: one byte flipped": lambda s: _flip_byte(_event_file(s)),
    "event file: truncated": lambda s: _event_file(s).write_bytes(
        _event_file(s).read_bytes()[:-100]),
    "event file: deleted": lambda s: _event_file(s).unlink(),
    "event file: unlisted file added": lambda s: shutil.copy(
        _event_file(s), _event_file(s).with_name("extra.parquet")),
    "event edited": lambda s: _edit_events(s, _amount_plus_one, rechain=False),
    "event edited, file hash and chain recomputed": lambda s: _edit_events(
        s, _amount_plus_one, rechain=True),
    "events reordered, file hash and chain recomputed": lambda s: _edit_events(
        s, _swap_events, rechain=True),
    "hand deleted, file hash and chain recomputed": lambda s: _edit_events(
        s, _drop_first_hand, rechain=True),
    "hands reordered, file hash and chain recomputed": lambda s: _edit_events(
        s, _swap_first_hands, rechain=True),
    "hand inserted, file hash and chain recomputed": lambda s: _edit_events(
        s, _duplicate_first_hand, rechain=True),
    "quarantine file edited": lambda s: _quarantine_file(s).write_text("{}\n"),
    "quarantine file deleted": lambda s: _quarantine_file(s).unlink(),
    "manifest record edited": lambda s: _edit_record(
        s, lambda rs: rs[0].update(hands=rs[0]["hands"] + 1)),
    "manifest Merkle root edited": lambda s: _edit_record(
        s, lambda rs: rs[0]["merkle"].update(root="0" * 64)),
    "manifest record deleted": lambda s: _edit_record(s, lambda rs: rs.pop(1)),
    "manifest records reordered": lambda s: _edit_record(s, lambda rs: rs.reverse()),
    "manifest record inserted": lambda s: _edit_record(s, _forge_record),
    "manifest truncated to its first record": lambda s: _edit_record(
        s, lambda rs: rs.__delitem__(slice(1, None))),
}


def _build_store(root: Path) -> Store:
    store = Store(root / "store")
    root.mkdir(parents=True, exist_ok=True)
    for i in range(3):
        src = root / f"in{i}.parquet"
        pq.write_table(hands_table(f"t{i}h", 5), src)
        ingest([src], store)
    bad = root / "bad.jsonl"
    bad.write_text('{"hand_id": "broken", "seq": 5}\n')
    ingest([bad], store, fmt="events")
    return store


def run_tamper(workdir: Path | None = None) -> list[dict[str, Any]]:
    """Each tamper case on a fresh copy of a small store; whether it was detected and how."""
    tmp = Path(tempfile.mkdtemp(prefix="poker-audit-tamper-")) if workdir is None else workdir
    results: list[dict[str, Any]] = []
    try:
        pristine = _build_store(tmp / "pristine")
        assert pristine.verify().ok
        for number, (name, tamper) in enumerate(TAMPERS.items()):
            copy = Store(tmp / f"case{number}")
            shutil.copytree(pristine.root, copy.root)
            tamper(copy)
            report = copy.verify()
            results.append({"case": name, "detected": not report.ok,
                            "by": sorted({p.kind for p in report.problems})})
        # a consistent rewrite of everything: exposed by the head published before it
        copy = Store(tmp / "rewrite")
        shutil.copytree(pristine.root, copy.root)
        published = copy.head()
        _edit_events(copy, _amount_plus_one, rechain=True, roots=True)
        results.append({"case": "everything rewritten consistently (files, roots, chain)",
                        "detected": copy.head() != published and not check_proof(
                            build_proof(copy, "t0h1"), head=published).ok,
                        "by": ["published head"] if copy.head() != published else []})
        # the newest batch removed whole (record and files): nothing inside the store
        # contradicts that, so again only a published head exposes it
        copy = Store(tmp / "tail")
        shutil.copytree(pristine.root, copy.root)
        published = copy.head()
        records = _records(copy)
        last = records.pop()
        for item in [*last.get("files", []), *last.get("quarantine", [])]:
            (copy.root / item["path"]).unlink()
        _write_records(copy, records)
        results.append({"case": "newest batch removed whole (record and files)",
                        "detected": copy.verify().ok and copy.head() != published,
                        "by": ["published head"]})

        proof = json.loads(dumps(build_proof(pristine, "t0h2")))
        for name, tamper_proof in PROOF_TAMPERS.items():
            forged = json.loads(json.dumps(proof))
            tamper_proof(forged)
            check = check_proof(forged)
            results.append({"case": f"proof: {name}", "detected": not check.ok,
                            "by": ["verify-proof"] if not check.ok else []})
    finally:
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return results


PROOF_TAMPERS: dict[str, Callable[[dict[str, Any]], None]] = {
    "event edited": lambda p: p["events"][4].update(amount=(p["events"][4]["amount"] or 0) + 1),
    "event removed": lambda p: p["events"].pop(),
    "event inserted": lambda p: p["events"].insert(3, dict(p["events"][3])),
    "events reordered": lambda p: p["events"].reverse(),
    "leaf index moved": lambda p: p["batch"].update(index=p["batch"]["index"] ^ 1),
    "path hash replaced": lambda p: p["batch"]["path"].__setitem__(0, "0" * 64),
    "path truncated": lambda p: p["batch"]["path"].pop(),
    "batch root replaced": lambda p: p["batch"].update(root="0" * 64),
    "manifest record edited": lambda p: p["record"].update(hands=99),
    "later record dropped": lambda p: p["chain"]["later"].pop(),
    "head forged": lambda p: p["chain"].update(head="f" * 64),
}


# ---------------------------------------------------------------------------- scorecard


def scorecard(*, quick: bool = False, fault_trials: int | None = None,
              echo: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the three suites and summarise them; `quick` shrinks the fault and fuzz runs."""
    trials = fault_trials if fault_trials is not None else (40 if quick else 200)
    echo(f"fault injection: {trials} trials ...")
    faults = run_fault_injection(trials, fast=quick)
    echo("tamper cases ...")
    tamper = run_tamper()
    echo("hostile input ...")
    hostile = run_hostile(rounds=1 if quick else 3)
    attacks = run_attacks(echo=echo)
    return {
        "faults": {"injected": faults.injected, "survived": faults.survived,
                   "by_fault": faults.by("fault"), "by_command": faults.by("command"),
                   "failures": [f"{t.command} {t.fault}@{t.point}: {t.problems[0]}"
                                for t in faults.trials if not t.survived][:10]},
        "tamper": {"cases": len(tamper), "detected": sum(r["detected"] for r in tamper),
                   "missed": [r["case"] for r in tamper if not r["detected"]]},
        "hostile": {"tried": hostile.tried, "handled": hostile.handled,
                    "peak_rss_mb": hostile.peak_rss_mb,
                    "slowest_seconds": round(max((c.seconds for c in hostile.cases),
                                                 default=0.0), 2),
                    "failures": [f"{c.fmt} {c.mutation}: {c.problem}"
                                 for c in hostile.cases if not c.handled]},
        "attacks": attack_summary(attacks),
        "hands_lost": faults.hands_lost,
    }


def attack_summary(attacks: list[Attack]) -> dict[str, Any]:
    """Per suite: cases tried and held, and every case that did not hold."""
    suites: dict[str, dict[str, Any]] = {}
    for a in attacks:
        row = suites.setdefault(a.suite, {"tried": 0, "held": 0, "missed": []})
        row["tried"] += 1
        row["held"] += a.held
        if not a.held:
            row["missed"].append(f"{a.case}: {a.detail}" if a.detail else a.case)
    return suites


def flagged(result: dict[str, Any]) -> bool:
    """Anything not survived, not detected, not handled, or a hand lost."""
    f, t, h = result["faults"], result["tamper"], result["hostile"]
    attacks = result.get("attacks", {}).values()
    return (f["survived"] < f["injected"] or t["detected"] < t["cases"]
            or h["handled"] < h["tried"] or result["hands_lost"] > 0
            or any(a["held"] < a["tried"] for a in attacks))


def format_scorecard(result: dict[str, Any]) -> str:
    f, t, h = result["faults"], result["tamper"], result["hostile"]
    lines = [
        "| suite | tried | survived / detected / handled |",
        "|---|---:|---:|",
        f"| faults injected (kill, disk full, read-only, corrupt leftovers, concurrent) "
        f"| {f['injected']} | {f['survived']} |",
        f"| tamper cases (files, events, manifest, proofs) | {t['cases']} | {t['detected']} |",
        f"| hostile inputs (7 formats x {h['tried'] // 7 if h['tried'] else 0} mutations) "
        f"| {h['tried']} | {h['handled']} |",
    ]
    attacks = result.get("attacks", {})
    lines += [f"| attacks: {SUITES.get(suite, suite)} | {a['tried']} | {a['held']} |"
              for suite, a in attacks.items()]
    lines.append(f"| hands lost | | {result['hands_lost']} |")
    for key, label in (("failures", "fault not survived"),):
        lines += [f"{label}: {x}" for x in f.get(key, [])]
    lines += [f"tamper not detected: {x}" for x in t["missed"]]
    lines += [f"hostile input not handled: {x}" for x in h["failures"]]
    lines += [f"attack not held ({suite}): {x}" for suite, a in attacks.items()
              for x in a["missed"]]
    return "\n".join(lines)
