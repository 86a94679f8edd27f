"""A stud hand that logs no bring-in takes the bring-in last logged at its stakes earlier in
the same file (PokerStars writes none when the lowcard completes or is all in on the ante);
the memory belongs to one read of one file, so two files read side by side in one process
(a batch ingest, a notebook) never lend each other a bring-in."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from audit.importers.pokerstars.importer import PokerStarsImporter

SAMPLE = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-sample" / "stars-7stud.txt"
BRING_IN = "MasterTrini1: brings in for $0.02\n"


def _first_hand() -> str:
    text = SAMPLE.read_text(encoding="utf-8")
    hand = text[: text.index("PokerStars Game", 10)].rstrip() + "\n"
    assert hand.count(BRING_IN) == 1
    return hand


def _hand(number: int, bring_in: str | None) -> str:
    """The sample's first hand (stakes $0.04/$0.08) with hand number `number` and its
    bring-in line `bring_in` (None: no bring-in logged)."""
    hand = _first_hand().replace("#35874004239", f"#{number}")
    return hand.replace(BRING_IN, "" if bring_in is None else bring_in)


def _bring_ins(chunks: list) -> dict[str, tuple[int, str]]:
    """hand number -> (the game's bring_in, the hand_started row's source with its note)."""
    table = pa.concat_tables([c.table for c in chunks])
    started = table.filter(pa.compute.equal(table.column("kind"), "hand_started"))
    return {h.removeprefix("ps:"): (g["bring_in"], d or "") for h, g, d in zip(
        started.column("hand_id").to_pylist(), started.column("game").to_pylist(),
        started.column("source").to_pylist(), strict=True)}


def test_a_hand_without_bring_in_takes_the_one_logged_earlier_in_its_file(tmp_path: Path):
    path = tmp_path / "a.txt"
    path.write_text(_hand(1, "MasterTrini1: brings in for $0.01\n") + "\n\n" + _hand(2, None),
                    encoding="utf-8")
    got = _bring_ins(list(PokerStarsImporter().read(path)))
    assert got["1"][0] == 1
    assert got["2"][0] == 1 and "bring_in=from an earlier hand" in got["2"][1]


def test_with_no_earlier_bring_in_half_the_small_bet_is_assumed(tmp_path: Path):
    path = tmp_path / "b.txt"
    path.write_text(_hand(2, None), encoding="utf-8")
    got = _bring_ins(list(PokerStarsImporter().read(path)))
    assert got["2"][0] == 2 and "bring_in=assumed half the small bet" in got["2"][1]


def test_two_files_read_side_by_side_keep_their_own_bring_ins(tmp_path: Path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(_hand(1, "MasterTrini1: brings in for $0.01\n") + "\n\n" + _hand(2, None),
                 encoding="utf-8")
    b.write_text(_hand(3, "MasterTrini1: brings in for $0.03\n") + "\n\n" + _hand(4, None),
                 encoding="utf-8")
    reading_a = PokerStarsImporter(chunk_hands=1).read(a)
    first_a = next(reading_a)  # file a is open, hand 1 read ...
    all_b = list(PokerStarsImporter(chunk_hands=1).read(b))  # ... while file b is read whole
    got = _bring_ins([first_a, *reading_a, *all_b])
    assert got["2"][0] == 1, "file a's hand 2 takes file a's bring-in"
    assert got["4"][0] == 3, "file b's hand 4 takes file b's bring-in"
