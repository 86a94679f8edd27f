"""Live tables for simulated hands: the physical layer (`declare`, `chips`) a dealer tablet would
log before each betting action, drawn the canonical way (the words then one motion, or the exact
chips in one motion), plus labelled live-table violations for the accuracy scorecard.

Works on finished event tables, so the simulator proper is untouched:
`add_physical_layer_table` renders an events table, `simulate_live` is `simulate` for live
tables (`poker-audit simulate --live`). A canonical physical layer agrees with the logged
actions, so the live rulings (audit/replay/live.py) must find nothing in it; each planted
violation changes only the physical layer and is labelled with the rule that must catch it.
Deterministic for a given seed.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.schema import events_schema
from audit.simulate.sim import LABEL_SCHEMA, SimSummary, simulate
from audit.store import Store

# The live violations this module can plant, each caught by the rule id of the same name.
LIVE_INJECTORS: tuple[str, ...] = (
    "STRING-RAISE", "VERBAL-BINDING", "CHIP-SINGLE-OVERSIZE-CALL", "VERBAL-BIGBET-DISCREPANCY",
    "CHIP-RELEASE-BINDING",
)
_ACTIONS = frozenset({"fold", "check", "call", "bet", "raise", "complete"})
_NO_ROUND_TOTAL = frozenset({"ante", "dead", "missed_small"})


def _facing(rows: list[dict[str, Any]]) -> dict[int, tuple[int, int]]:
    """Per betting action (row index): (the bet to match, the actor's round total) before it."""
    out: dict[int, tuple[int, int]] = {}
    bet: dict[int, int] = {}
    cur = 0
    after_action = False
    for i, r in enumerate(rows):
        kind, seat, total = r["kind"], r.get("seat"), r.get("total")
        # a new betting round: a board card, or (stud, draw) the first card or draw after betting
        if (kind == "deal" and (r.get("detail") == "board" or seat is None)) or (
                after_action and kind in ("deal", "draw", "stand_pat")):
            bet, cur = {}, 0
        if kind != "burn":
            after_action = kind in _ACTIONS
        if kind == "post" and seat is not None and total is not None \
                and r.get("detail") not in _NO_ROUND_TOTAL:
            bet[seat] = total
            cur = max(cur, total)
        elif kind in _ACTIONS and seat is not None:
            out[i] = (cur, bet.get(seat, 0))
            if total is not None and kind != "fold":
                bet[seat] = total
                cur = max(cur, total)
    return out


def _candidates(rows: list[dict[str, Any]], facing: dict[int, tuple[int, int]],
                rule: str, structure: str) -> list[int]:
    picks = []
    for i, (cur, mine) in facing.items():
        r = rows[i]
        added = r.get("amount") or 0
        if cur <= mine:
            continue
        if rule == "CHIP-RELEASE-BINDING":
            if r["kind"] == "fold":
                picks.append(i)
            continue
        if r["kind"] not in ("bet", "raise") or r.get("detail") == "all_in" or added < 2:
            continue
        if rule == "VERBAL-BIGBET-DISCREPANCY" and structure == "fixed_limit":
            continue
        picks.append(i)
    return picks


def _canonical(r: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """What a player does at the table for a logged action, the way that leaves no doubt."""
    kind, added = r["kind"], r.get("amount") or 0
    words = {"fold": "fold", "check": "check", "call": "call"}.get(kind)
    if kind in ("bet", "raise", "complete") and r.get("total") is not None:
        words = f"raise to {r['total']}" if kind != "bet" else f"bet {r['total']}"
    style = rng.choice(("words", "chips", "both", "none"))
    out = []
    if words and style in ("words", "both"):
        out.append({"kind": "declare", "detail": words})
    if added and style in ("chips", "both"):
        out.append({"kind": "chips", "amount": added, "detail": None})
    return out


def _planted(rule: str, r: dict[str, Any], cur: int, mine: int,
             rng: random.Random) -> list[dict[str, Any]]:
    """The physical events of one live violation, placed before logged action `r`."""
    added = r.get("amount") or 0
    if rule == "STRING-RAISE":
        cut = rng.randint(1, added - 1)
        return [{"kind": "chips", "amount": cut, "detail": None},
                {"kind": "chips", "amount": added - cut, "detail": None}]
    if rule == "VERBAL-BINDING":
        return [{"kind": "declare", "detail": "call"},
                {"kind": "chips", "amount": added, "detail": None}]
    if rule == "CHIP-SINGLE-OVERSIZE-CALL":
        return [{"kind": "chips", "amount": added, "detail": f"1x{added}"}]
    if rule == "VERBAL-BIGBET-DISCREPANCY":
        said = (r.get("total") or mine + added) + max(1, cur - mine)
        return [{"kind": "declare", "detail": f"raise to {said}"},
                {"kind": "chips", "amount": added, "detail": None}]
    # CHIP-RELEASE-BINDING: the full call released into the pot, then the fold
    return [{"kind": "chips", "amount": cur - mine, "detail": None}]


def _plan(rows: list[dict[str, Any]], rng: random.Random, inject: str | None
          ) -> tuple[list[tuple[int, list[dict[str, Any]]]], tuple[int, str, Any] | None]:
    """Where the physical events of one hand go: [(index of the logged action, the events
    before it)], and the planted violation as (index of its action, rule id, seat) or None."""
    facing = _facing(rows)
    structure = rows[0].get("structure") or (rows[0].get("game") or {}).get("structure") \
        or "no_limit"
    target = None
    if inject is not None:
        picks = _candidates(rows, facing, inject, structure)
        target = rng.choice(picks) if picks else None
    inserts = []
    for i in facing:  # in row order
        r = rows[i]
        if i == target:
            assert inject is not None
            cur, mine = facing[i]
            extra = _planted(inject, r, cur, mine, rng)
        else:
            extra = _canonical(r, rng)
        if extra:
            inserts.append((i, extra))
    planted = (target, inject, rows[target].get("seat")) if target is not None and inject \
        else None
    return inserts, planted


_LIGHT = ("seq", "kind", "seat", "player", "amount", "total", "detail")
_SLOTS = 4  # order-key slots per logged row: up to 3 physical events, then the row itself


def add_physical_layer_table(table: pa.Table, *, seed: int = 0, violations: float = 0.0,
                             injectors: tuple[str, ...] = LIVE_INJECTORS,
                             remap: dict[tuple[str, int], int] | None = None,
                             skip: frozenset[str] = frozenset(),
                             ) -> tuple[pa.Table, list[tuple]]:
    """An events table (hands contiguous, seq order) with a physical layer on every hand; a
    `violations` share of hands get one planted live violation. Labels are rows of the
    simulator's labels.parquet: (hand_id, seq, rule_id, seat, kind, primary). `remap`, when
    given, is filled with (hand_id, old seq) -> new seq for moving older labels along.
    Hands in `skip` (the simulator already broke a betting rule there) get no live
    violation: on an illegal raise the betting rule, not the live one, decides.

    Column-wise: the physical rows are `take`n from their action's row (hand, time, table,
    seat, player) and merged in by an order key, so no row of the input becomes a dict."""
    rng = random.Random(seed)
    n = table.num_rows
    if n == 0:
        return table, []
    hand_ids = table.column("hand_id").to_pylist()
    col = {c: table.column(c).to_pylist() for c in _LIGHT}
    structures = table.column("game").combine_chunks().field("structure").to_pylist()
    src: list[int] = []
    slot: list[int] = []
    kinds: list[str] = []
    amounts: list[int | None] = []
    details: list[str | None] = []
    counts: list[int] = []
    labels: list[tuple] = []
    start = 0
    for end in range(1, n + 1):
        if end < n and hand_ids[end] == hand_ids[start]:
            continue
        rows = [{c: col[c][i] for c in _LIGHT} for i in range(start, end)]
        rows[0]["structure"] = structures[start]
        inject = rng.choice(injectors) if injectors and rng.random() < violations else None
        hid = hand_ids[start]
        if hid in skip:
            inject = None
        inserts, planted = _plan(rows, rng, inject)
        before = dict(inserts)
        shift = 0
        for j in range(end - start):
            for k, e in enumerate(before.get(j, ())):
                src.append(start + j)
                slot.append(k)
                kinds.append(e["kind"])
                amounts.append(e.get("amount"))
                details.append(e.get("detail"))
                shift += 1
            if remap is not None:
                remap[(hid, rows[j]["seq"])] = j + shift
            if planted is not None and planted[0] == j:
                labels.append((hid, j + shift, planted[1], planted[2], f"live:{planted[1]}",
                               True))
        counts.append(end - start + shift)
        start = end
    schema = events_schema()
    table = table.cast(schema)
    phys = table.take(pa.array(src, pa.int64()))
    m = len(src)
    for name, values in (("kind", pa.array(kinds, pa.string())),
                         ("amount", pa.array(amounts, schema.field("amount").type)),
                         ("detail", pa.array(details, pa.string())),
                         ("total", None), ("cards", None), ("game", None), ("source", None)):
        f = schema.field(name)
        phys = phys.set_column(schema.get_field_index(name), f,
                               values if values is not None else pa.nulls(m, f.type))
    keys = np.concatenate([np.arange(n, dtype=np.int64) * _SLOTS + (_SLOTS - 1),
                           np.asarray(src, dtype=np.int64) * _SLOTS + np.asarray(slot, np.int64)])
    merged = pa.concat_tables([table, phys]).append_column("_k", pa.array(keys))
    merged = merged.sort_by("_k").drop_columns(["_k"])
    sizes = np.asarray(counts, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    seq = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(starts, sizes)
    i = schema.get_field_index("seq")
    merged = merged.set_column(i, schema.field("seq"), pa.array(seq, schema.field("seq").type))
    return merged, labels


def simulate_live(out: Path | str, *, live_violations: float = 0.0, **kwargs: Any) -> SimSummary:
    """`simulate` (same arguments) for live tables: the hands are simulated into a scratch
    store, then each of its batches is written to the new store at `out` with a physical
    layer on every hand (`live_violations` of them with a planted live violation), under the
    same deterministic batch ids, so the same seed still gives the same bytes. labels.parquet
    holds the simulator's labels (seqs moved along) and the live ones; colluders.parquet is
    copied. Memory is bounded by one event file, as in the simulator."""
    started = time.perf_counter()
    root = Path(out)
    dest = Store(root)
    if dest.exists():
        raise AuditInputError(f"{root} already holds an event store; simulate into a new "
                              "directory (or delete it first)")
    seed = int(kwargs.get("seed", 0))
    with tempfile.TemporaryDirectory(prefix="poker-audit-live-sim-") as tmp:
        scratch = Store(Path(tmp) / "store")
        summary = simulate(scratch.root, **kwargs)
        remap: dict[tuple[str, int], int] = {}
        labels: list[tuple] = []
        events = 0
        broken = frozenset(pq.read_table(scratch.root / "labels.parquet", columns=["hand_id"])
                           .column("hand_id").to_pylist())
        for k, record in enumerate(scratch.records()):
            with dest.locked():
                writer = dest.batch_writer(now=datetime.fromisoformat(record["created_at"]),
                                           batch_id=record["batch_id"])
                try:
                    for j, f in enumerate(record["files"]):
                        partition = f["path"].split("/")[1].removeprefix("date=")
                        live, planted = add_physical_layer_table(
                            pq.read_table(scratch.root / f["path"], schema=events_schema()),
                            seed=(seed * 1_000_003 + k) * 1_009 + j,
                            violations=live_violations, remap=remap, skip=broken)
                        labels += planted
                        events += live.num_rows
                        writer.write(partition, live)
                    writer.commit()
                except BaseException:
                    writer.abort()
                    raise
        old = pq.read_table(scratch.root / "labels.parquet").to_pylist()
        moved = [(r["hand_id"], remap.get((r["hand_id"], r["seq"]), r["seq"]), r["rule_id"],
                  r["seat"], r["kind"], r["primary"]) for r in old]
        _write_labels(root / "labels.parquet", moved + labels)
        if (scratch.root / "colluders.parquet").exists():
            shutil.copyfile(scratch.root / "colluders.parquet", root / "colluders.parquet")
    injected = {lab[0] for lab in moved + labels if lab[5]}
    return replace(summary, out=str(root), events=events, labels=len(moved) + len(labels),
                   injected_hands=len(injected), seconds=time.perf_counter() - started)


def _write_labels(path: Path, labels: list[tuple]) -> None:
    cols = list(zip(*labels, strict=True)) if labels else [[] for _ in LABEL_SCHEMA]
    table = pa.Table.from_arrays([pa.array(list(c), f.type) for c, f in
                                  zip(cols, LABEL_SCHEMA, strict=True)], schema=LABEL_SCHEMA)
    pq.write_table(table, path, compression="zstd")
