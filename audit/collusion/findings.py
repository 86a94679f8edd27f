"""Collusion leads for an audit run, and writing them as `collusion` findings.

`collusion_leads` reads a run's projections (runs/<run_id>/hands/, hand_players/ part files,
and those of the runs an incremental run builds on) and ranks the pairs
(audit/collusion/leads.py). `write_collusion_findings` stores the leads as
findings of category collusion, severity warning (a lead, never a verdict), together with the
per-hand PATTERN-CHECKDOWN-ALLIN findings, in runs/<run_id>/collusion.parquet (findings schema),
written whole or not at all and committed to the store's chain with the run (a "run_files"
record, audit/store/runs.py). The `findings` DuckDB view includes that file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion.leads import LEAD_SCHEMA, leads_from_frames
from audit.errors import AuditInputError
from audit.rules.findings import Finding, finding, findings_table
from audit.rules.ids import PATTERN_CHECKDOWN_ALLIN
from audit.run.runner import checked_run_chain, resolve_run, run_chain, run_dir
from audit.schema import arrow_schema
from audit.store.dataset import Store
from audit.store.run_layout import output_files
from audit.store.runs import commit_run_files

COLLUSION_FILE = "collusion.parquet"


def run_frames(store: Store, run: str) -> tuple[str, pl.LazyFrame, pl.LazyFrame]:
    """The run's projections: with the runs an incremental run (`audit --since`) builds on,
    which together cover the store as of the run (each member holds other batches' hands)."""
    run_id = resolve_run(store, run)
    if run_id is None:
        raise AuditInputError(
            f"no audit run in {store.root}: run \"poker-audit audit --store {store.root}\" first")
    hps, hands = [], []
    for member in checked_run_chain(store, run_id):  # committed runs that pass their check
        hp, hd = _own_frames(store, member)
        hps.append(hp)
        hands.append(hd)
    return (run_id, pl.concat(hps, how="vertical_relaxed"),
            pl.concat(hands, how="vertical_relaxed"))


def _own_frames(store: Store, run_id: str) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    d = run_dir(store, run_id)
    return (_projection(d, "hand_players", F.HAND_PLAYER_COLUMNS),
            _projection(d, "hands", F.HAND_COLUMNS))


def _projection(run_path: Path, output: str, columns: Sequence[str]) -> pl.LazyFrame:
    """One projection of a run (its part files; an empty frame when the run had no hands)."""
    files = output_files(run_path, output)
    if not files:
        return pl.from_arrow(arrow_schema(output).empty_table()).lazy().select(columns)
    return pl.scan_parquet(files).select(columns)


def collusion_leads(store: Store, run: str = "latest", min_hands: int = 100,
                    fdr: float = 0.05) -> pa.Table:
    """Ranked collusion leads of a run (columns: audit.collusion.leads.LEAD_SCHEMA)."""
    run_id, hp, hands = run_frames(store, run)
    agg = A.combine(run_partial(store, member) for member in run_chain(store, run_id))
    return leads_from_frames(hp, hands, min_hands=min_hands, fdr=fdr, run_id=run_id, agg=agg)


def run_partial(store: Store, run_id: str, seat_bucket: str = "1d") -> A.Partial:
    """The pair aggregates of one run's own hands, kept in runs/<run_id>/collusion_pairs.parquet
    (a run's projections never change): an incremental run costs only its new hands."""
    path = run_dir(store, run_id) / A.PARTIAL_FILE
    kept = A.load_partial(path, seat_bucket)
    if kept is not None:
        return kept
    hp, hands = _own_frames(store, run_id)
    part = A.aggregate(A.chunks(hp, hands), seat_bucket)
    A.save_partial(path, part, seat_bucket)
    commit_run_files(store, run_id, [path])  # the kept aggregates are committed with the run
    return part


def checkdown_findings(hand_players: pl.LazyFrame, hands: pl.LazyFrame) -> list[Finding]:
    """PATTERN-CHECKDOWN-ALLIN per hand: two players with chips checked to showdown (neither bet
    nor raised in the hand) after a third player went all-in before the river. Severity warning
    when one of them showed three of a kind or better, else info (a single hand is weak)."""
    # only hands with an early all-in can hold one: the pair rows of the rest are never built
    allin = (hand_players.filter(pl.col("all_in_street").is_in(list(F.EARLY_STREETS)))
             .select("hand_id").unique())
    ph = F.player_hands(hand_players.join(allin, on="hand_id", how="semi"),
                        hands.join(allin, on="hand_id", how="semi"))
    rows = (F.pair_hands(ph).filter(pl.col("cd"))
            .select("hand_id", "player_a", "player_b", "cd_strong", "pot")
            .sort("hand_id", "player_a", "player_b").collect().to_dicts())
    out = []
    for r in rows:
        strong = " while one of them held three of a kind or better" if r["cd_strong"] else ""
        out.append(finding(
            PATTERN_CHECKDOWN_ALLIN, hand_id=r["hand_id"], seq=None,
            player=r["player_a"], counterparty=r["player_b"],
            severity="warning" if r["cd_strong"] else "info",
            expected="a bet on some street after the all-in", actual="checked down",
            message=(f"{r['player_a']} and {r['player_b']} kept chips but checked every "
                     f"remaining street to showdown after a third player went all-in{strong}; "
                     "agreeing to check a hand down against an all-in player is improper "
                     "(a pattern to review, not a verdict)."),
        ))
    return out


def _lead_finding(r: dict[str, Any]) -> Finding:
    feats = json.loads(r["features"])
    top = next(v for v in feats.values() if v["p"] is not None and v["p"] == min(
        x["p"] for x in feats.values() if x["p"] is not None))
    return finding(
        r["pattern"], hand_id=None, seq=None, player=r["player"],
        counterparty=r["counterparty"], severity="warning",
        expected=f"{top['expected']} (baseline)", actual=f"{top['observed']} of n={top['n']}",
        delta=r["delta"], message=r["message"],
    )


def write_collusion_findings(store: Store, run_id: str, leads: pa.Table) -> pa.Table:
    """Write the leads and the per-hand check-down findings of the run's own hands to
    runs/<run_id>/collusion.parquet (replacing an earlier collusion pass of the same run)."""
    run_id = resolve_run(store, run_id) or run_id
    run_frames(store, run_id)  # the run and its members have projections
    hp, hands = _own_frames(store, run_id)  # per-hand findings: this run's own hands
    if leads.schema.names != LEAD_SCHEMA.names:
        raise ValueError("leads must come from collusion_leads()")
    found = [_lead_finding(r) for r in leads.to_pylist()] + checkdown_findings(hp, hands)
    table = findings_table(found, run_id)
    final = run_dir(store, run_id) / COLLUSION_FILE
    tmp = final.with_name(f".{COLLUSION_FILE}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, final)
    commit_run_files(store, run_id, [final])  # a record on the chain commits the file
    return table
