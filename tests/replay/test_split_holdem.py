"""Split hold'em (PokerStars, 2018; variant holdem_split): two boards dealt street by street
from one deck, one betting round per street, and each pot halved, the odd chip to the first
board, each half to the best hand on its own board (tied hands share that half). The real hand
(fixtures/pokerstars/real/split-holdem.txt, the fpdb corpus' one Split hand: $33.54 / $33.53 of
a $67.07 pot after rake) replays clean; a copy paying the second board's half to the first
board's winner is flagged. PokerKit has no split hold'em: there is no cross-check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.replay.fast.table import replay_table_fast
from audit.rules.ids import DQ_INCONSISTENT_LOG, POT_SPLIT_BY_CARDS, POT_TIE_SPLIT
from audit.rules.profiles import load_profile
from audit.rules.settings import Settings
from audit.schema import arrow_schema

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars" / "real"


def _stars(name: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for chunk in PokerStarsImporter().read(REAL / name):
        assert chunk.rejected == []
        rows += chunk.table.to_pylist()
    return rows


def _found(rows: list[dict[str, Any]], profile: str = "pokerstars") -> list[tuple[str, Any]]:
    return [(f.rule_id, f.delta) for f in
            replay_hand(hand_from_rows(rows), load_profile(profile)).findings]


def _paid(rows: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    return [(r["seat"], r["amount"], r["detail"]) for r in rows if r["kind"] == "award"]


@pytest.mark.parametrize("profile", ["pokerstars", "montana"])
def test_the_real_split_hand_replays_clean_and_pays_what_the_room_collected(profile: str
                                                                            ) -> None:
    rows = _stars("split-holdem.txt")
    assert rows[0]["game"]["variant"] == "holdem_split"
    assert _found(rows, profile) == []
    # the first board's half to Player1 (two pair), the second's to Player2 (aces)
    assert _paid(rows) == [(2, 3354, "main"), (3, 3353, "main@run2")]


def test_each_street_deals_the_first_board_then_the_second() -> None:
    rows = _stars("split-holdem.txt")
    boards = [(r["detail"], r["cards"]) for r in rows if r["kind"] == "deal"
              and r["seat"] is None]
    assert boards == [("board", "Ks 4c 8c"), ("board@run2", "4s Qd 5h"), ("board", "8d"),
                      ("board@run2", "Ac"), ("board", "6h"), ("board@run2", "Ts")]


def test_the_second_board_s_half_paid_to_the_first_board_s_winner_is_flagged() -> None:
    # the real hand with Player2's $33.53 collected by Player1 (line and summary)
    rows = _stars("split-holdem-second-half-to-first-winner.txt")
    assert _paid(rows) == [(2, 3354, "main"), (2, 3353, "main@run2")]
    found = _found(rows)
    assert {rule for rule, _ in found} == {POT_SPLIT_BY_CARDS}
    # Player1 paid 6707 against his half of the pot before rake (3491); Player2 short by his
    # 3491 less the $2.75 rake, which the room took from the pot as a whole
    assert sorted(delta for _, delta in found) == [-(3491 - 275), 6707 - 3491]


def test_the_compiled_replay_leaves_split_holdem_to_the_reference_replay() -> None:
    rows = _stars("split-holdem.txt")
    settings = Settings(load_profile("pokerstars"))
    table = pa.Table.from_pylist(rows, schema=arrow_schema("events"))
    fast = replay_table_fast(table, settings, settings, run_id="r")
    assert fast.fast_hands == 0 and fast.reference_hands == 1
    assert fast.findings.num_rows == 0


# ann and bob see the flop; the second board is a straight flush both play: a tie there.
# Pot 23 (three antes, two 10s): 12 to the first board (the odd chip), 11 to the second.
TIED = """
hand fx:split-tie holdem_split no_limit sb=5 bb=10 ante=1 button=3
seat 1 ann 500
seat 2 bob 500
seat 3 cat 500
post 1 ante 1
post 2 ante 1
post 3 ante 1
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole As Ad
deal 2 hole Qc Qd
deal 3 hole 2s 3c
fold 3
call 1 5
check 2
deal board 2c 7d 9s
deal board 4h 5h 6h detail=board@run2
check 1
check 2
deal board Jd
deal board 7h detail=board@run2
check 1
check 2
deal board Kc
deal board 8h detail=board@run2
check 1
check 2
show 1 As Ad
show 2 Qc Qd
award 1 12 main
award 1 6 main@run2
award 2 5 main@run2
"""


def _tied(*changes: tuple[str, str]) -> list[dict[str, Any]]:
    """The TIED hand with lines replaced (old line, new line; '' drops it)."""
    text = TIED
    for old, new in changes:
        assert f"\n{old}\n" in text
        text = text.replace(f"\n{old}\n", f"\n{new}\n")
    (rows, _), = parse_text(text)
    return rows


def test_a_tie_on_one_board_shares_that_board_s_half() -> None:
    # ann's aces win the first board; both play the second board's straight flush: its 11
    # is shared, the odd chip to ann, first left of the button
    assert _found(_tied(), "montana") == []


def test_the_whole_pot_to_the_first_board_s_winner_is_flagged() -> None:
    rows = _tied(("award 1 6 main@run2", "award 1 11 main@run2"), ("award 2 5 main@run2", ""))
    # bob's share of the tied second board went to ann
    assert sorted(_found(rows, "montana")) == [(POT_TIE_SPLIT, -5), (POT_TIE_SPLIT, 5)]


def test_a_split_hand_without_its_second_river_is_flagged() -> None:
    rows = _tied(("deal board 8h detail=board@run2", ""))
    assert (DQ_INCONSISTENT_LOG, None) in _found(rows, "montana")


def test_a_second_board_street_of_the_wrong_size_is_flagged() -> None:
    rows = _tied(("deal board 7h detail=board@run2", "deal board 7h 3h detail=board@run2"))
    assert (DQ_INCONSISTENT_LOG, None) in _found(rows, "montana")


def test_a_second_board_street_dealt_after_the_street_s_betting_began_is_flagged() -> None:
    rows = _tied(("deal board 7h detail=board@run2\ncheck 1", "check 1\ndeal board 7h "
                  "detail=board@run2"))
    assert _found(rows, "montana") == [(DQ_INCONSISTENT_LOG, None)]


def test_the_second_board_dealt_with_each_street_is_not_premature() -> None:
    # in a run-it-twice (holdem) the same deal before the betting is done is DEAL-PREMATURE
    rows = _tied()
    assert all(rule != "DEAL-PREMATURE" for rule, _ in _found(rows, "montana"))
    rows[0]["game"] = {**rows[0]["game"], "variant": "holdem"}
    assert "DEAL-PREMATURE" in {rule for rule, _ in _found(rows, "montana")}


def _bob_wins_the_second_board(*awards: str) -> list[dict[str, Any]]:
    """TIED with bob's 9h making the higher straight flush on the second board, paid `awards`."""
    return _tied(("deal 2 hole Qc Qd", "deal 2 hole Qc 9h"), ("show 2 Qc Qd", "show 2 Qc 9h"),
                 ("award 1 12 main", ""), ("award 1 6 main@run2", ""),
                 ("award 2 5 main@run2", "\n".join(awards)))


def test_the_odd_chip_of_the_halves_goes_to_the_first_board() -> None:
    # pot 23: 12 to ann's first board, 11 to bob's second (the real hand: $33.54 / $33.53)
    assert _found(_bob_wins_the_second_board("award 1 12 main", "award 2 11 main@run2"),
                  "montana") == []
    swapped = _bob_wins_the_second_board("award 1 11 main", "award 2 12 main@run2")
    assert sorted(_found(swapped, "montana")) == [(POT_SPLIT_BY_CARDS, -1),
                                                  (POT_SPLIT_BY_CARDS, 1)]


def test_a_pot_won_by_a_fold_after_the_flops_is_paid_whole() -> None:
    # bob folds to ann's flop bet: both flops were dealt, nothing is shown, and the room pays
    # the pot in one collection
    (rows, _), = parse_text("""
hand fx:split-fold holdem_split no_limit sb=5 bb=10 button=3
seat 1 ann 500
seat 2 bob 500
seat 3 cat 500
post 1 small_blind 5
post 2 big_blind 10
deal 1 hole As Ad
deal 2 hole Qc Qd
deal 3 hole 2s 3c
fold 3
call 1 5
check 2
deal board 2c 7d 9s
deal board 4h 5h 6h detail=board@run2
bet 1 20
fold 2
award 1 20 uncalled
award 1 20 main
""")
    assert _found(rows, "montana") == []
