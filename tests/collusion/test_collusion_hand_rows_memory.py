"""The lead players' hands (aggregate.HandRows) in bounded memory (issue 24: explaining away was
the collusion stage's peak at 5,000,000 hands, 1.80-1.86 GB sampled, beside the 1.65 GB that
the pair table and the scoring held). The projections are cut into pieces in one streaming pass
that fills a row group per piece at a time, not hundreds of thousands of rows per piece; and the
players' rows are read from a piece through a filter of their hands, the piece's rows never held
whole (the players of the leads sit in a twentieth of the hands); and the cut is made before the
scoring, not beside what it leaves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest

from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion import leads as L
from audit.collusion.synthetic import generate

from .memory_growth import measured

# a room of 200 copies of a synthetic one (1.3M player rows), the copies' players renamed but
# for the first's: three players of the first copy sit in a few hundred hands of it
_MEASURE = r"""
import json, shutil, tempfile
from pathlib import Path
import polars as pl
from audit.collusion import aggregate as A
from audit.collusion import features as F
from audit.collusion.synthetic import generate

hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1})
copies, pieces = 200, 4
def tiled(frame, players):
    return pl.concat([frame.with_columns(pl.col("hand_id") + f"~{j}", *(
        [pl.col("player") + f"~{j}"] if players and j else [])) for j in range(copies)])
d = Path(tempfile.mkdtemp())
tiled(hp, True).write_parquet(d / "hp.parquet")
tiled(hands, False).write_parquet(d / "hands.parquet")
hp, hands = pl.scan_parquet(d / "hp.parquet"), pl.scan_parquet(d / "hands.parquet")
size = hp.select(F.HAND_PLAYER_COLUMNS).collect().estimated_size()
got = {}
rows = A.HandRows(hp, hands, pieces)
rows.cut()
players = sorted(hp.select("player").unique().filter(~pl.col("player").str.contains("~"))
                 .collect()["player"])[:3]
got["cover"] = growth(lambda: rows.cover(players)) * pieces  # (of a piece's size)
got["kept"] = sum(pl.read_parquet(p).height for piece in rows._rows for p in piece)
got["rows"] = hp.select(pl.len()).collect().item()
rows.close()
shutil.rmtree(d)
print(json.dumps(got))
"""


@pytest.fixture(scope="module")
def growth() -> dict[str, float]:
    return measured(_MEASURE)


def test_the_pieces_files_are_written_a_row_group_of_a_piece_at_a_time(tmp_path: Path) -> None:
    # the cut fills a row group per piece before it writes it: polars' default row groups
    # (hundreds of thousands of rows) held most of the store at 5,000,000 hands in 24 pieces
    # (the cut's own peak +690 MB; +370 to +510 MB in row groups of 50,000 rows, measured
    # alone on the store: a sampled RSS too noisy at a test's size to be held to it here)
    n = 3 * A.CUT_ROW_GROUP
    hp = pl.DataFrame({"hand_id": [f"h{i}" for i in range(n)], "player": "p"})
    hp.write_parquet(tmp_path / "hp.parquet")
    hands = pl.DataFrame({"hand_id": [f"h{i}" for i in range(n)]})
    split = A.Split(pl.scan_parquet(tmp_path / "hp.parquet"), hands.lazy(), 2)
    files = sorted(split._cut().glob("hand_players/*/*.parquet"))
    assert len(files) == 2
    groups = [pq.ParquetFile(f).metadata for f in files]
    assert sum(m.num_rows for m in groups) == n
    assert max(m.row_group(g).num_rows for m in groups for g in range(m.num_row_groups)) \
        <= A.CUT_ROW_GROUP
    split.close()


def test_pair_scores_cuts_the_projections_before_the_scoring(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the cut's buffers beside what the scoring leaves were explaining away's peak at
    # 5,000,000 hands (1.86 GB sampled; 1.34 GB cut before the scoring)
    hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1})
    happened: list[str] = []
    cut, score = A.HandRows.cut, L._score

    def cutting(self: A.HandRows) -> A.Split | None:
        happened.append("cut")
        return cut(self)

    def scoring(*args: Any, **kwargs: Any) -> pl.DataFrame:
        happened.append("score")
        return score(*args, **kwargs)

    monkeypatch.setattr(A.HandRows, "cut", cutting)
    monkeypatch.setattr(L, "_score", scoring)
    L.pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05,
                  rows_per_chunk=hp.height // 3 + 1)
    assert happened[0] == "cut" and "score" in happened


@pytest.mark.slow
def test_the_players_rows_are_read_from_a_piece_never_held_whole(
        growth: dict[str, float]) -> None:
    assert 0 < growth["kept"] < growth["rows"] / 100  # a few players' hands of many
    # the piece's player rows read and held: 5.30 of a piece's size (twice); now 0.73
    assert growth["cover"] < 2


def test_the_rows_kept_are_those_of_the_players_hands_whatever_the_pieces() -> None:
    hands, hp, _ = generate(seed=5, players=40, days=4, teams={"softplay": 1})
    players = sorted(hp["player"].unique())
    want = (F.player_hands(hp.lazy(), hands.lazy()).select(F.PAIR_INPUT).collect())
    for pieces, spill in ((1, False), (5, False), (5, True)):
        with A.HandRows(hp.lazy(), hands.lazy(), pieces, spill=spill) as rows:
            rows.cover(players[:2])
            rows.cover(players[1:4])  # (one new player, one kept: his hands not kept twice)
            got = pl.concat([r for r in rows.player_hands(players[:4], others=True)])
            ids = hp.filter(pl.col("player").is_in(players[:4]))["hand_id"].unique()
            assert got.sort("hand_id", "player").equals(
                want.filter(pl.col("hand_id").is_in(ids.implode())).sort("hand_id", "player"))
