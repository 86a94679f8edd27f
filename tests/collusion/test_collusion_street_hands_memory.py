"""The events' counts per hand (streets.StreetCounts.hands) kept on disk for a run's ranking, not
in memory (issue 24: under 2 GB a stage). At 5,000,000 hands they were 1.71M rows, 171 MB held
all through the scoring beside the pair table for three kinds of question about a few pairs
and players: the overlap re-check's pairs, the hands the lead players entered (explaining
away), the pairs wanted as evidence. Spilled to a Parquet file (streets.HandCounts), each
question reads back the rows it asks for, a row group at a time, and gets the rows the frame
held would have given."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from audit.collusion import collusion_leads
from audit.collusion import findings as FN
from audit.collusion import streets as S
from audit.store.dataset import Store

from .memory_growth import measured

# counts per hand of 1,000,000 pair-hands of 2,000 players (the columns a run's have)
_ROWS = r"""
import gc, json
import numpy as np
import polars as pl
from audit.collusion import streets as S

def frame():
    rng = np.random.default_rng(1)
    n = 1_000_000
    a, b = rng.integers(0, 1_000, n), rng.integers(1_000, 2_000, n)
    # (the names made by polars, not by Python: its strings' arenas are not handed back)
    def named(prefix, x, width):
        return pl.format(prefix + "{}", pl.lit(x).cast(pl.String).str.zfill(width))
    return pl.select(
        hand_id=named("h", np.arange(n) // 3, 9), player_a=named("p", a, 5),
        player_b=named("p", b, 5),
        **{c: pl.lit(rng.integers(0, 3, n)).cast(pl.UInt32)
           for c in (*S.PAIR_COLUMNS, *S.FOLLOW_COUNTS)},
        **{c: pl.lit(rng.random(n)) for c in S.FOLLOW_EXPECTED})

size = frame().estimated_size()
gc.collect()

def kept(spill):
    # what the counts hold once the frame they were made from is gone
    gc.collect()
    base = rss()
    counts = S.HandCounts(frame(), spill=spill)
    gc.collect()
    return counts, (rss() - base) / size

held, in_memory = kept(False)
del held
spilled, on_disk = kept(True)
pairs = pl.DataFrame({"player_a": ["p00001", "p00002"], "player_b": ["p01001", "p01002"]})
hands = pl.Series([f"h{i:09d}" for i in range(0, 300_000, 10)])
print(json.dumps({"in_memory": in_memory, "on_disk": on_disk,
                  "of_pairs": growth(lambda: spilled.of_pairs(pairs)),
                  "of_hands": growth(lambda: spilled.of_hands(hands))}))
"""


@pytest.fixture(scope="module")
def growth() -> dict[str, float]:
    """Each step's most memory held at once, as a share of the counts per hand's size."""
    return measured(_ROWS)


@pytest.mark.slow  # (1,000,000 rows made twice and spilled once: ~20 s)
def test_the_counts_per_hand_spilled_hold_nothing_of_the_rows(
        growth: dict[str, float]) -> None:
    # held in memory, the whole frame and more (1.4 to 2.7 of its size: the measure sees it);
    # spilled, none of it (0.11 to 0.17: what the allocator and the Parquet writer kept)
    assert growth["in_memory"] > 0.8
    assert growth["on_disk"] < 0.25


@pytest.mark.slow
def test_a_question_reads_the_rows_asked_for_not_the_whole_file(
        growth: dict[str, float]) -> None:
    # the file read a row group at a time, each filtered as it is read (0.12 to 0.18)
    assert growth["of_pairs"] < 0.3
    assert growth["of_hands"] < 0.3


def _counts() -> pl.DataFrame:
    rows = [(f"h{i}", f"p{i % 3}", f"p{3 + i % 4}", i % 5, i % 7 / 7) for i in range(200)]
    return pl.DataFrame(rows, schema={"hand_id": pl.String, "player_a": pl.String,
                                      "player_b": pl.String, "cdf_ka": pl.UInt32,
                                      "cdf_ea": pl.Float64}, orient="row")


@pytest.mark.parametrize("spill", [False, True])
def test_the_counts_per_hand_answer_with_the_rows_of_the_frame(spill: bool) -> None:
    frame = _counts()
    counts = S.HandCounts(frame, spill=spill)
    assert counts.spilled is spill
    assert (counts.columns, counts.height) == (frame.columns, frame.height)
    pairs = pl.DataFrame({"player_a": ["p0", "p1", "p0"], "player_b": ["p3", "p4", "p3"]})
    # the rows of the pairs asked for, in the frame's order (p0-p4 is no pair asked for)
    assert counts.of_pairs(pairs).equals(frame.join(pairs.unique(), on=["player_a", "player_b"],
                                                    how="semi"))
    assert counts.of_pairs(pairs).height > 0
    hands = pl.Series(["h7", "h3", "h150", "h7", "nowhere"])
    assert counts.of_hands(hands).equals(frame.filter(pl.col("hand_id").is_in(hands.implode())))
    counts.close()


@pytest.mark.slow  # a simulated store of 3,000 hands, audited (`audited_team_store`)
def test_a_runs_ranking_holds_the_counts_per_hand_on_disk(
        audited_team_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # the counts per hand were held in memory beside the pair table all through the scoring
    store = audited_team_store
    seen: list[dict[str, Any]] = []
    rank = FN.leads_from_frames

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw)
        return rank(*args, **kw)

    monkeypatch.setattr(FN, "leads_from_frames", spy)
    collusion_leads(store)
    assert len(seen) == 1
    streets, street_hands = seen[0]["streets"], seen[0].get("street_hands")
    assert streets.hands is None  # (none in memory beside them)
    assert isinstance(street_hands, S.HandCounts) and street_hands.spilled
    assert street_hands.height > 0


def test_spilled_counts_closed_say_so_when_asked_again() -> None:
    counts = S.HandCounts(_counts(), spill=True)
    counts.close()
    with pytest.raises(RuntimeError, match="closed"):
        counts.of_hands(pl.Series(["h7"]))
    counts.close()  # (twice is harmless)
