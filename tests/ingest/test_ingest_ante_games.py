"""Jacks or better is dealt with antes and no blinds (RULEBOOK §4.6, ANTE-DRAW): its hands are
stored as they come, whereas a button game with neither a big blind nor an ante is refused."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.ingest.pipeline import ingest
from audit.simulate import simulate
from audit.store.dataset import Store


def _dealt(tmp_path: Path, variant: str, hands: int = 60) -> list[Path]:
    simulate(tmp_path / "room", hands=hands, variant=variant, structure="fixed_limit",
             tables=2, tournament_share=0.5)
    return sorted(Store(tmp_path / "room").event_files())


def test_a_room_dealing_jacks_or_better_gets_every_hand_stored(tmp_path: Path) -> None:
    files = _dealt(tmp_path, "jacks_or_better")
    games = pq.read_table(files[0], columns=["game"]).column("game").drop_null()
    assert not any(g["big_blind"] for g in games.to_pylist())  # antes, no blinds
    summary = ingest(files, Store(tmp_path / "store"), fmt="events")
    assert (summary.hands, summary.quarantined) == (60, 0)


def test_jacks_or_better_with_neither_ante_nor_big_blind_is_refused(tmp_path: Path) -> None:
    [path] = _dealt(tmp_path, "jacks_or_better", hands=5)
    table = pq.read_table(path)
    games = table.column("game").combine_chunks()
    fields = [games.field(i) for i in range(games.type.num_fields)]
    ante = games.type.get_field_index("ante")
    fields[ante] = pc.if_else(fields[ante].is_null(), fields[ante],
                              pa.array([0] * len(games), fields[ante].type))
    no_ante = pa.StructArray.from_arrays(fields, fields=list(games.type),
                                         mask=games.is_null())
    table = table.set_column(table.schema.get_field_index("game"), "game", no_ante)
    pq.write_table(table, tmp_path / "no-ante.parquet")
    summary = ingest([tmp_path / "no-ante.parquet"], Store(tmp_path / "store"), fmt="events")
    assert (summary.hands, summary.quarantined) == (0, 5)
    assert all("no big_blind" in r for f in summary.files for r in f.reasons)
