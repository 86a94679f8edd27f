"""The batched overlap re-check and the cached hand rows give exactly the statistics of the
one-pair-at-a-time code they replaced (issue 8: analytics that scale).

`_without_one_by_one` is the former per-pair implementation, kept here as the reference: each
(pair, absent player) job scored alone by `_score` on its own one-row pair table. The recorded
leads (fixtures/collusion/leads_recorded.json) were written by the code before the batching on
the same seeded synthetic populations (with the evidence's tie-break by hand id applied to it:
before, hands tied on the pot came in whatever order the joins produced). Re-recorded for
issue 25 (fold-to-partner by entry stratum, partners left out of the baselines, q-values
weighted by hands together): the same leads at seeds 7 and 5 with smaller q-values, one false
lead fewer at seed 11 (11 leads, 10 true, before; 10 of 10 now) and one planted team more at
seed 3 (7 of 8 before, 8 of 8 now). Re-recorded for issue 25 again (soft play and heads-up
aggression against an actor × opponent fit without the pairs far off it, each tail taken over
the fitted rate's uncertainty): the same leads at every seed, all true; the soft-play teams'
p from 0 to 1e-12 .. 1e-8 (a pair that bet once where 55 bets were expected is still far below
the rate's low end, and the rate of a player with few pots against others is uncertain), so
they rank below the strongest whipsaw and chip-dump leads, whose q rose 1.2 to 3 times;
the soft-play messages' expected bets higher (52.3 to 55.5, 50.6 to 59.2, 56.6 to 64.7: each
one's rate against others times the other's effect on his opponents). Re-recorded in session 25
(the flows and player totals summed in fixed point, features.FIXED, so that a run is
reproducible to the last digit): p and q of 15 of the 36 leads moved by at most 3.2e-7
relative; the leads, their order, evidence and messages are unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion import leads_from_frames
from audit.collusion.synthetic import generate

RECORDED = Path(__file__).resolve().parents[2] / "fixtures" / "collusion" / "leads_recorded.json"


def _without_one_by_one(hp: pl.DataFrame, hands: pl.DataFrame, pairs: list[tuple[str, str]],
                        absent: list[str], baseline: pl.DataFrame, min_hands: int,
                        rates: pl.DataFrame, cells: pl.LazyFrame,
                        tables: pl.LazyFrame) -> list[float]:
    """The former `_without`: one `_score` call per pair on the pair's hands that `absent` did
    not enter (the re-check sets aside the hands the other lead's player entered, not every hand
    he sat in: at a fixed table that left nothing)."""
    totals = L.totals_of(baseline)
    wanted = pl.DataFrame(pairs, schema={"player_a": pl.String, "player_b": pl.String},
                          orient="row")
    rows = (F.pair_hands(F.player_hands(hp.lazy(), hands.lazy()))
            .join(wanted.unique().lazy(), on=["player_a", "player_b"], how="semi").collect())
    seats = F.co_sittings(cells, tables, wanted.unique().lazy()).collect()
    out = []
    for (a, b), x in zip(pairs, absent, strict=True):
        own = rows.filter((pl.col("player_a") == a) & (pl.col("player_b") == b))
        away = hp.filter((pl.col("player") == x) & pl.col("vpip")).select("hand_id")
        left = own.join(away, on="hand_id", how="anti")
        table = F.pair_table(left.lazy()).collect() if left.height else None
        if table is None or table.height == 0:
            out.append(1.0)
            continue
        scored = L._score(table, baseline, min_hands, rates, cells, tables, totals, seats)
        p = scored["p_value"].to_list()
        out.append(1.0 if not p or p[0] is None or np.isnan(p[0]) else float(p[0]))
    return out


@pytest.mark.parametrize("seed", [3, 5, 11])
@pytest.mark.slow
def test_batched_overlap_rescoring_equals_scoring_each_pair_alone(seed: int) -> None:
    hands, hp, _ = generate(seed=seed, players=60, days=8,
                            teams={"softplay": 2, "chip_dump": 2, "whipsaw": 2, "card_share": 2,
                                   "checkdown": 1})
    parts = A.chunks(hp.lazy(), hands.lazy(), hp.height // 3)
    agg = A.aggregate(parts)
    cells = agg.cells.lazy()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    # every pair with hands together, judged without each of a few other players (and without
    # nobody at all, and with too few hands left): far more jobs than overlaps ever ask for
    table = agg.table.sort("hands", descending=True)
    players = sorted(set(table["player_a"]) | set(table["player_b"]))
    pairs, absent = [], []
    for i, (a, b) in enumerate(table.select("player_a", "player_b").iter_rows()):
        for x in (players[i % len(players)], players[(7 * i + 3) % len(players)], "nobody"):
            if x not in (a, b):
                pairs.append((a, b))
                absent.append(x)
    for min_hands in (30, 100):
        want = _without_one_by_one(hp, hands, pairs, absent, agg.table, min_hands, agg.rates,
                                   cells, tables)
        totals = L.totals_of(agg.table)
        rows = A.HandRows(hp.lazy(), hands.lazy(), len(parts))
        got = L._without(rows, pairs, absent, agg.table, totals, min_hands, agg.rates, cells,
                         tables)
        assert len(got) == len(want)
        assert sum(p < 1.0 for p in want) > 50  # most jobs are tested pairs
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=0)


@pytest.mark.parametrize("case", range(4))
@pytest.mark.slow
def test_leads_equal_those_recorded_before_the_batching(case: int) -> None:
    rec = json.loads(RECORDED.read_text(encoding="utf-8"))[case]
    hands, hp, _ = generate(seed=rec["seed"], teams=rec["teams"], players=90, days=8)
    for rows_per_chunk in (A.ROWS_PER_CHUNK, hp.height // 4):
        got = leads_from_frames(hp, hands, min_hands=rec["min_hands"], fdr=rec["fdr"],
                                rows_per_chunk=rows_per_chunk).to_pylist()
        want = rec["leads"]
        assert [(x["player_a"], x["player_b"], x["pattern"], x["team"], x["hands"])
                for x in got] == [(x["player_a"], x["player_b"], x["pattern"], x["team"],
                                   x["hands"]) for x in want]
        for x, y in zip(got, want, strict=True):
            assert x["p_value"] == pytest.approx(y["p_value"], rel=1e-9, abs=1e-300)
            assert x["q_value"] == pytest.approx(y["q_value"], rel=1e-9, abs=1e-300)
            # hands tied on the evidence measure come in hand id order: the same evidence
            # however the rows were chunked or joined
            assert x["evidence_hand_ids"] == y["evidence_hand_ids"]
            assert x["message"] == y["message"]


@pytest.fixture(scope="module")
def population() -> tuple[pl.DataFrame, pl.DataFrame, A.Partial]:
    hands, hp, _ = generate(seed=5, players=60, days=8,
                            teams={"softplay": 2, "chip_dump": 2, "whipsaw": 2, "checkdown": 1})
    return hands, hp, A.aggregate(A.chunks(hp.lazy(), hands.lazy()))


def _sorted(frame: pl.DataFrame, *keys: str) -> pl.DataFrame:
    return frame.sort(*keys) if frame.height else frame


@pytest.mark.parametrize(("pieces", "spill"), [(7, True), (7, False), (1, True)])
@pytest.mark.slow
def test_hand_rows_in_pieces_spilled_or_not_answer_as_kept_whole_in_memory(
        population: tuple[pl.DataFrame, pl.DataFrame, A.Partial], pieces: int,
        spill: bool) -> None:
    """Issue 8, bounded memory: the lead players' rows cut into pieces of whole hands (and kept
    in Parquet files, `spill`) give the same pair rows, spoiled tables and tables without a
    player as all of them in memory at once."""
    hands, hp, agg = population
    top = agg.table.sort("hands", "player_a", "player_b", descending=[True, False, False])
    wanted = top.head(6).select(A.KEYS)
    members = pl.concat([wanted["player_a"], wanted["player_b"]]).unique().sort()
    players = sorted(set(top["player_a"]) | set(top["player_b"]))
    absent = [next(x for x in players[3 * i:] if x not in pair)
              for i, pair in enumerate(wanted.iter_rows())]
    jobs = wanted.with_columns(job=pl.int_range(pl.len(), dtype=pl.UInt32),
                               absent=pl.Series(absent))
    whole = A.HandRows(hp.lazy(), hands.lazy(), 1, spill=False)
    cut = A.HandRows(hp.lazy(), hands.lazy(), pieces, spill=spill)
    with cut:
        # the hands of some players first, more players later (the anti-join of kept hands)
        cut.cover(members.head(3).to_list())
        assert cut.pieces == pieces and cut.spill == spill
        got = _sorted(A.pair_rows(cut, wanted), "hand_id", *A.KEYS)
        want = _sorted(A.pair_rows(whole, wanted), "hand_id", *A.KEYS)
        assert got.height > 1000
        assert got.equals(want)
        spilled = sorted(cut._dir.glob("*.parquet")) if cut._dir is not None else []
        assert len(spilled) >= (pieces if spill else 0)
        assert len(spilled) == 0 or spill
        # some of the players whose hands are kept: their hands picked piece by piece
        got = A.spoiled_table(cut, members.head(4), wanted)
        want = A.spoiled_table(whole, members.head(4), wanted)
        assert got.height > 100
        assert got.select(A.KEYS).equals(want.select(A.KEYS))
        for column in got.columns[2:]:
            np.testing.assert_allclose(got[column].to_numpy(), want[column].to_numpy(),
                                       rtol=1e-12, err_msg=column)
        got, want = A.without_table(cut, jobs), A.without_table(whole, jobs)
        assert got.height == 6 and got.select("job", *A.KEYS).equals(
            want.select("job", *A.KEYS))
        assert (got["hands"] < top.head(6)["hands"]).any()  # some hands were left out
        for column in got.columns[3:]:
            np.testing.assert_allclose(got[column].to_numpy(), want[column].to_numpy(),
                                       rtol=1e-12, err_msg=column)
        kept = cut._dir
    assert kept is None or not kept.exists()  # the spilled pieces are removed


def test_evidence_from_rows_cut_down_chunk_by_chunk_is_the_evidence_of_all_rows(
        population: tuple[pl.DataFrame, pl.DataFrame, A.Partial]) -> None:
    hands, hp, agg = population
    scored = L._score(agg.table, agg.table, 50, agg.rates, agg.cells.lazy(),
                      agg.cells.lazy().group_by("bucket").agg(
                          n_tables=pl.col("table").n_unique()))
    leads = scored.sort("p_value").head(8)
    rows = A.HandRows(hp.lazy(), hands.lazy(), 2, spill=False)
    every = A.pair_rows(rows, leads.select(A.KEYS))
    cut = A.pair_rows(rows, leads.select(A.KEYS),
                      reduce=lambda piece: L.evidence_rows(piece, leads))
    # at most EVIDENCE rows per pair, feature and piece, and fewer than all
    assert cut.height <= 2 * len(L._evidence_ranks()) * L.EVIDENCE * leads.height
    assert cut.height < every.height
    want, got = L.evidence(every, leads), L.evidence(cut, leads)
    assert sum(frame["hand_id"].list.len().sum() for frame in want.values()) > 200
    for name in want:
        assert got[name].sort(A.KEYS).equals(want[name].sort(A.KEYS)), name


@pytest.mark.slow
def test_ranking_removes_its_spilled_hand_rows(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    hands, hp, _ = generate(seed=3, players=40, days=4, teams={"chip_dump": 1})
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    made: list[str] = []
    mkdtemp = A.tempfile.mkdtemp

    def spy(*args: object, **kwargs: object) -> str:
        made.append(mkdtemp(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(A.tempfile, "mkdtemp", spy)
    leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05, rows_per_chunk=hp.height // 3)
    assert leads.num_rows >= 1  # the planted team: its hands were read back, and spilled
    assert made and all(Path(d).parent == tmp_path for d in made)
    assert list(tmp_path.iterdir()) == []
