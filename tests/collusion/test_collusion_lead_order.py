"""The lead order is the same whichever way the hands were cut and summed (issue 24): q, then p,
then the pair's names. At 5,000,000 hands (a room copied 50 times side by side) ranks 51-100
were 50 copies of one planted pair, one p in exact arithmetic, and came out in another order
from run to run: their p differed in the last digits (the float sums behind it add the same
terms in another order as the hands fall in other chunks), and the sort left equal ones in
whatever order its threads did."""

from __future__ import annotations

import polars as pl
import pytest

from audit.collusion import leads_from_frames
from audit.collusion.synthetic import generate

COPIES = 4


def _copies(frame: pl.DataFrame, names: tuple[str, ...]) -> pl.DataFrame:
    """The room copied side by side: every hand, player and table renamed with `~k`."""
    return pl.concat([frame.with_columns(pl.col(c) + f"~{k}" for c in names)
                      for k in range(COPIES)])


@pytest.fixture(scope="module")
def rooms() -> tuple[pl.DataFrame, pl.DataFrame, list[tuple[str, str, str]]]:
    hands, hp, planted = generate(seed=5, players=40, days=6,
                                  teams={"chip_dump": 2, "softplay": 1})
    return (_copies(hands, ("hand_id", "table_id")),
            _copies(hp, ("hand_id", "player", "faced_bet_from")), planted)


def _order(hands: pl.DataFrame, hp: pl.DataFrame, rows: int) -> list[tuple[str, str]]:
    leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05, rows_per_chunk=rows)
    return [(x["player_a"], x["player_b"]) for x in leads.to_pylist()]


def test_copies_of_a_pair_rank_in_the_order_of_their_names_however_the_hands_are_cut(
        rooms: tuple[pl.DataFrame, pl.DataFrame, list[tuple[str, str, str]]]) -> None:
    hands, hp, planted = rooms
    whole = _order(hands, hp, hp.height + 1)
    # every copy of every planted pair found
    assert sorted(whole) == sorted((f"{a}~{k}", f"{b}~{k}") for _, a, b in planted
                                   for k in range(COPIES))
    # a planted pair's copies side by side, in the order of their names: not one order of the
    # last digits of their p
    for _, a, b in planted:
        at = [whole.index((f"{a}~{k}", f"{b}~{k}")) for k in range(COPIES)]
        assert sorted(at) == list(range(min(at), min(at) + COPIES)), (a, b, at)
        assert at == sorted(at), (a, b, at)
    # and the same order from the hands cut in chunks (their sums in another order), and again
    for rows in (hp.height // 5, hp.height // 11, hp.height + 1):
        assert _order(hands, hp, rows) == whole, rows
