"""Collusion leads for an audit run: one definition, recorded once, read by every surface.

A *lead* is a player pair the statistical tests name (audit/collusion/leads.py): q-value at or
below the false discovery rate, ranked by q-value, with the hands the pair played together and
its evidence hands. A *pattern note* is one hand that shows a pattern (today
PATTERN-CHECKDOWN-ALLIN: two players checking a hand down behind a third player's all-in): a
single hand is weak evidence, so notes are listed apart from the leads, never ranked with them.

`record_collusion` (what `poker-audit collusion` runs) computes the leads of a run
(`collusion_leads`: the run's projections, runs/<run_id>/hands/, hand_players/ part files and
those of the runs an incremental run builds on, and the store's event files for the run's
hands, one file at a time, for the per-street check-down test of audit/collusion/streets.py)
and writes, each whole or not at all and committed to the store's chain with the run (a
"run_files" record, audit/store/runs.py):

- runs/<run_id>/collusion_leads.parquet: the leads (LEAD_SCHEMA), as ranked;
- runs/<run_id>/collusion.parquet: the leads as findings of category collusion, severity
  warning, hand_id NULL (a lead, never a verdict), and the pattern notes of the run's own
  hands (findings schema). `read_findings` (`poker-audit findings`) and the `findings` DuckDB
  view include it.

`collusion_story` reads them back: the same leads and notes for `poker-audit collusion`, the
report's "Collusion leads" section and the notebooks.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion import streets as S
from audit.collusion.leads import LEAD_SCHEMA, leads_from_frames, with_streets
from audit.errors import AuditInputError
from audit.rules.findings import Finding, finding, findings_table
from audit.rules.ids import PATTERN_CHECKDOWN_ALLIN
from audit.run.runner import checked_run_chain, resolve_run, run_chain, run_dir
from audit.schema import arrow_schema, check_file_version, findings_schema
from audit.store.dataset import Store
from audit.store.run_layout import COLLUSION_FINDINGS, COLLUSION_LEADS, output_files
from audit.store.runs import commit_run_files, run_file

COLLUSION_FILE = COLLUSION_FINDINGS
SEVERITY_LEVEL = {"critical": 3, "violation": 2, "warning": 1, "info": 0}


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


def run_parts(store: Store, run_id: str) -> Iterator[tuple[pl.LazyFrame, pl.LazyFrame]]:
    """A run's own projections one part at a time (hand players, hands): a part holds the
    hands of one event file, and a hand never spans event files, so each part is whole hands."""
    d = run_dir(store, run_id)
    hands = {_part_key(f): f for f in output_files(d, "hands")}
    none = pl.from_arrow(arrow_schema("hands").empty_table())
    assert isinstance(none, pl.DataFrame)
    empty = none.lazy().select(F.HAND_COLUMNS)
    for f in output_files(d, "hand_players"):
        key = _part_key(f)
        yield (pl.scan_parquet(f).select(F.HAND_PLAYER_COLUMNS),
               pl.scan_parquet(hands[key]).select(F.HAND_COLUMNS) if key in hands else empty)


def _part_key(f: Path) -> str:
    """What pairs a run's hand_players part with its hands part: the part's name
    (`part-00003.parquet` in both folders), or one key for a run written as single files
    (`hands.parquet`, `hand_players.parquet`)."""
    return f.name if f.name.startswith("part-") else "the whole run"


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
    # with the per-street bets behind all-ins (the checkdown_bets test): the events of the
    # run's hands, one event file at a time. Joined here, not in `leads_from_frames`: the
    # table without them, bound here, stayed alive beside the one with them all through the
    # scoring (a big room's pair table is most of the stage's memory: 530 MB at 5,000,000
    # hands)
    # The counts first: small once made (20 MB at 5,000,000 hands, 1.5 GB while being made),
    # the pair table is not; made after it, they were the stage's peak beside it (2.75 GB)
    streets = S.file_counts(store.event_files(), hp, hands)
    # the counts per hand kept on disk for the ranking, not in memory: 171 MB beside the pair
    # table at 5,000,000 hands, for questions about a few pairs and players
    street_hands = None if streets.hands is None else S.HandCounts(streets.hands, spill=True)
    streets = replace(streets, hands=None)
    chain = run_chain(store, run_id)
    # a run that is all its own hands, aggregated now (not loaded): the cut its aggregates were
    # made from is the one explaining away reads the lead players' hands from (the same frames,
    # `_own_frames`, in the same pieces), kept rather than made again (a pass over the store)
    cuts: list[A.Split] = []

    def partials() -> Iterator[A.Partial]:
        for member in chain:
            part, cut = _run_partial(store, member)
            if cut is not None and chain == [run_id]:
                cuts.append(cut)
            elif cut is not None:
                cut.close()
            del cut
            yield part

    try:
        agg = with_streets(A.combine(partials()), streets)
        # (the range spots are read once, by with_streets: the range model's p per pair is in
        # the table now, and the spots, a few hundred thousand rows with lists at 5,000,000
        # hands, need not ride along through the scoring)
        streets = replace(streets, range_base=None, range_spots=None)
        # (and the counts again, for their counts per hand: explaining away judges a lead
        # read from the events on the events of part of its hands, and without them the
        # re-check was undecided and no such lead was ever explained away on a store)
        return leads_from_frames(hp, hands, min_hands=min_hands, fdr=fdr, run_id=run_id, agg=agg,
                                 cut=cuts[0] if cuts else None, streets=streets,
                                 street_hands=street_hands)
    finally:
        for cut in cuts:
            cut.close()
        if street_hands is not None:
            street_hands.close()


def run_partial(store: Store, run_id: str, seat_bucket: str = "1d") -> A.Partial:
    """The pair aggregates of one run's own hands, kept in runs/<run_id>/collusion_pairs.parquet
    (a run's projections never change): an incremental run costs only its new hands."""
    part, cut = _run_partial(store, run_id, seat_bucket)
    if cut is not None:
        cut.close()
    return part


def _run_partial(store: Store, run_id: str, seat_bucket: str = "1d"
                 ) -> tuple[A.Partial, A.Split | None]:
    """`run_partial`, and the cut of the run's own hands it was made from (None: loaded, or
    made in one chunk); the caller closes it."""
    path = run_dir(store, run_id) / A.PARTIAL_FILE
    kept = A.load_partial(path, seat_bucket)
    if kept is not None:
        return kept, None
    hp, hands = _own_frames(store, run_id)
    parts = A.chunks(hp, hands)
    part = A.aggregate(parts, seat_bucket)
    A.save_partial(path, part, seat_bucket)
    commit_run_files(store, run_id, [path])  # the kept aggregates are committed with the run
    return part, parts if isinstance(parts, A.Split) else None


def checkdown_findings(hand_players: pl.LazyFrame, hands: pl.LazyFrame) -> list[Finding]:
    """PATTERN-CHECKDOWN-ALLIN per hand: two players with chips checked to showdown (neither bet
    nor raised in the hand) after a third player went all-in before the river. Severity warning
    when one of them showed three of a kind or better, else info (a single hand is weak)."""
    return _checkdown(_checkdown_rows(hand_players, hands))


def checkdown_findings_by_part(parts: Iterable[tuple[pl.LazyFrame, pl.LazyFrame]]
                               ) -> list[Finding]:
    """`checkdown_findings` of all the hands of `parts` ((hand players, hands) of whole hands,
    as `run_parts` gives them), one part at a time: the pair rows of one part's all-in hands
    are held at once, not those of the whole run (at 5M hands they took gigabytes)."""
    found = [_checkdown_rows(hp, hands) for hp, hands in parts]
    found = [f for f in found if f.height]
    return _checkdown(pl.concat(found).sort("hand_id", "player_a", "player_b") if found
                      else pl.DataFrame())


def _checkdown_rows(hand_players: pl.LazyFrame, hands: pl.LazyFrame) -> pl.DataFrame:
    """The pair-hand rows of PATTERN-CHECKDOWN-ALLIN: hand, pair, strength and pot."""
    # only hands with an early all-in can hold one: the pair rows of the rest are never built
    allin = (hand_players.filter(pl.col("all_in_street").is_in(list(F.EARLY_STREETS)))
             .select("hand_id").unique())
    ph = F.player_hands(hand_players.join(allin, on="hand_id", how="semi"),
                        hands.join(allin, on="hand_id", how="semi"))
    return (F.pair_hands(ph).filter(pl.col("cd"))
            .select("hand_id", "player_a", "player_b", "cd_strong", "pot")
            .sort("hand_id", "player_a", "player_b").collect())


def _checkdown(rows: pl.DataFrame) -> list[Finding]:
    out = []
    for r in rows.to_dicts():
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


def _write_whole(table: pa.Table, final: Path) -> None:
    tmp = final.with_name(f".{final.name}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, final)


def write_collusion_findings(store: Store, run_id: str, leads: pa.Table) -> pa.Table:
    """Write the leads (runs/<run_id>/collusion_leads.parquet) and, as findings, the leads and
    the pattern notes of the run's own hands (runs/<run_id>/collusion.parquet), replacing an
    earlier collusion pass of the same run. Returns the findings written."""
    run_id = resolve_run(store, run_id) or run_id
    run_frames(store, run_id)  # the run and its members have projections
    if leads.schema.names != LEAD_SCHEMA.names:
        raise ValueError("leads must come from collusion_leads()")
    # per-hand findings: this run's own hands, one part (event file) at a time
    found = ([_lead_finding(r) for r in leads.to_pylist()]
             + checkdown_findings_by_part(run_parts(store, run_id)))
    table = findings_table(found, run_id)
    base = run_dir(store, run_id)
    _write_whole(leads.cast(LEAD_SCHEMA), base / COLLUSION_LEADS)
    _write_whole(table, base / COLLUSION_FINDINGS)
    # a record on the chain commits both files
    commit_run_files(store, run_id, [base / COLLUSION_LEADS, base / COLLUSION_FINDINGS])
    return table


@dataclass(frozen=True, slots=True)
class CollusionStory:
    """What the collusion analytics recorded for one run, as every surface shows it.

    `leads`: the statistical leads (LEAD_SCHEMA), ranked by q-value; `hands` is the number of
    hands the pair played together (the sample its tests read), `evidence_hand_ids` the hands
    that show the pattern most. `notes`: single-hand pattern notes (findings schema), worst
    first, then by hand. `computed` is False when `poker-audit collusion` has not been run for
    this run (then both are empty)."""

    run_id: str
    leads: pa.Table
    notes: pa.Table
    computed: bool

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The leads' pairs, in rank order."""
        return list(zip(self.leads.column("player_a").to_pylist(),
                        self.leads.column("player_b").to_pylist(), strict=True))


# How every surface shows a lead and a note (the `collusion` table, the report, the notebooks).
LEAD_COLUMNS = ("rank", "player", "counterparty", "pattern", "q_value", "hands", "evidence")
NOTE_COLUMNS = ("hand_id", "rule_id", "severity", "player", "counterparty", "message")
EVIDENCE_SHOWN = 3  # evidence hand ids in a lead's row (all of them are in the lead's message)


def lead_summary(leads: pa.Table) -> pa.Table:
    """The leads as shown (LEAD_COLUMNS): rank, the pair (player and counterparty as the lead
    names them), pattern, q-value (two significant digits; 0, a tail beyond floating point,
    reads <1e-300), the hands the pair played together and the first evidence hands."""
    q = [f"{v:.2g}" if v > 0 else "<1e-300" for v in leads.column("q_value").to_pylist()]
    evidence = [", ".join(h[:EVIDENCE_SHOWN]) for h in leads.column("evidence_hand_ids")
                .to_pylist()]
    return pa.table({
        "rank": leads.column("rank"), "player": leads.column("player"),
        "counterparty": leads.column("counterparty"), "pattern": leads.column("pattern"),
        "q_value": pa.array(q, pa.string()), "hands": leads.column("hands"),
        "evidence": pa.array(evidence, pa.string()),
    })


def _read_recorded(path: Path) -> pa.Table:
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise AuditInputError(f"{path}: collusion output is unreadable ({exc}); run "
                              "`poker-audit verify`") from None


def sort_notes(notes: pa.Table) -> pa.Table:
    """Pattern notes worst first, then by hand, pair and rule."""
    level = pa.array([SEVERITY_LEVEL.get(s, 0) for s in notes.column("severity").to_pylist()],
                     pa.int8())
    keyed = notes.append_column("_level", level)
    order = pc.sort_indices(keyed, sort_keys=[
        ("_level", "descending"), ("hand_id", "ascending"), ("player", "ascending"),
        ("counterparty", "ascending"), ("rule_id", "ascending")])
    return notes.take(order)


def collusion_story(store: Store, run: str = "latest") -> CollusionStory:
    """The leads and pattern notes `poker-audit collusion` recorded for a run (with the notes
    of the runs an incremental run builds on). Not computed yet: empty, `computed` False."""
    run_id = resolve_run(store, run)
    if run_id is None:
        raise AuditInputError(
            f"no audit run in {store.root}: run \"poker-audit audit --store {store.root}\" first")
    leads_path = run_file(store, run_id, COLLUSION_LEADS)
    leads = (_read_recorded(leads_path).cast(LEAD_SCHEMA) if leads_path is not None
             else LEAD_SCHEMA.empty_table())
    notes = []
    for member in checked_run_chain(store, run_id):
        path = run_file(store, member, COLLUSION_FINDINGS)
        if path is None:
            continue
        table = _read_recorded(path)
        check_file_version(table.schema.metadata, "findings", str(path))
        notes.append(table.filter(pc.is_valid(table.column("hand_id"))).cast(findings_schema()))
    note_table = (pa.concat_tables(notes) if notes else findings_schema().empty_table())
    return CollusionStory(run_id=run_id, leads=leads, notes=sort_notes(note_table),
                          computed=leads_path is not None)


def record_collusion(store: Store, run: str = "latest", min_hands: int = 100,
                     fdr: float = 0.05) -> CollusionStory:
    """Compute the leads of a run, record them with the pattern notes (`write_collusion_findings`)
    and return what every surface will show (`collusion_story`)."""
    run_id = resolve_run(store, run)
    if run_id is None:
        raise AuditInputError(
            f"no audit run in {store.root}: run \"poker-audit audit --store {store.root}\" first")
    leads = collusion_leads(store, run_id, min_hands=min_hands, fdr=fdr)
    write_collusion_findings(store, run_id, leads)
    return collusion_story(store, run_id)
