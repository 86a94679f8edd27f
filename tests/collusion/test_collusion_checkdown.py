"""The check-down feature (issue 8): a chance is counted before its outcome.

A third player all-in before the river leaves the other two a side pot. A team checks it down;
an honest player with a hand bets, and the other mostly folds, so the hand never reaches
showdown. Counting as chances only the hands that reached showdown (as before) counted mostly
the checked-down ones: the honest rate looked like 25-40% and a team's eleven check-downs in
eleven chances were no evidence. The chance is now the hand in which both stayed in with chips
behind the all-in, whatever came next."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import leads_from_frames
from audit.collusion.synthetic import generate
from audit.rules.ids import PATTERN_CHECKDOWN_ALLIN
from tests.collusion.frames import HANDS, HP

_HP, _HANDS = HP, HANDS


def _player(hand: str, seat: int, name: str, *, aggr: int = 0, folded: str | None = None,
            all_in: str | None = None) -> dict:
    return {"hand_id": hand, "seat": seat, "player": name, "invested": 100, "won": 0,
            "net": -100, "vpip": True, "pfr": False, "aggressive_actions": aggr, "calls": 1,
            "folded_street": folded, "all_in_street": all_in, "showed": folded is None,
            "hole_cards": None, "hand_class": None, "faced_bet_from": None}


def _pair_row(players: list[dict], hand: str) -> dict:
    hp = pl.DataFrame(players, schema=_HP)
    hands = pl.DataFrame([{"hand_id": hand, "ts": datetime(2026, 3, 2, tzinfo=UTC),
                           "table_id": "t1", "players": len(players), "pot": 300,
                           "showdown": True, "big_blind": 2, "variant": "holdem",
                           "structure": "no_limit"}], schema=_HANDS)
    pairs = F.pair_hands(F.player_hands(hp.lazy(), hands.lazy())).collect()
    return pairs.filter((pl.col("player_a") == "a") & (pl.col("player_b") == "b")).row(
        0, named=True)


def test_a_bet_into_the_side_pot_and_a_fold_is_a_chance_not_checked_down() -> None:
    # c all-in preflop; a bets the flop and b folds: the hand was a chance to check down
    row = _pair_row([_player("h1", 1, "a", aggr=1), _player("h1", 2, "b", folded="flop"),
                     _player("h1", 3, "c", all_in="preflop")], "h1")
    assert row["cd_opp"] and not row["cd"]


def test_checked_to_showdown_behind_the_all_in_is_a_check_down() -> None:
    row = _pair_row([_player("h2", 1, "a"), _player("h2", 2, "b"),
                     _player("h2", 3, "c", all_in="flop")], "h2")
    assert row["cd_opp"] and row["cd"]


def test_a_fold_on_the_street_of_the_all_in_is_no_chance() -> None:
    # b folded on the flop, where c went all-in: he may never have been behind the all-in
    row = _pair_row([_player("h3", 1, "a"), _player("h3", 2, "b", folded="flop"),
                     _player("h3", 3, "c", all_in="flop")], "h3")
    assert not row["cd_opp"] and not row["cd"]


def test_no_chance_without_a_third_players_all_in_before_the_river() -> None:
    river = _pair_row([_player("h4", 1, "a"), _player("h4", 2, "b"),
                       _player("h4", 3, "c", all_in="river")], "h4")
    own = _pair_row([_player("h5", 1, "a", all_in="flop"), _player("h5", 2, "b"),
                     _player("h5", 3, "c")], "h5")
    assert not river["cd_opp"] and not own["cd_opp"]


def test_pair_table_counts_chances_and_check_downs() -> None:
    hp = pl.DataFrame([_player("h1", 1, "a", aggr=1), _player("h1", 2, "b", folded="turn"),
                       _player("h1", 3, "c", all_in="preflop"),
                       _player("h2", 1, "a"), _player("h2", 2, "b"),
                       _player("h2", 3, "c", all_in="turn")], schema=_HP)
    hands = pl.DataFrame([{"hand_id": h, "ts": datetime(2026, 3, 2, tzinfo=UTC),
                           "table_id": "t1", "players": 3, "pot": 300, "showdown": True,
                           "big_blind": 2, "variant": "holdem", "structure": "no_limit"}
                          for h in ("h1", "h2")], schema=_HANDS)
    table = F.pair_table(F.pair_hands(F.player_hands(hp.lazy(), hands.lazy()))).collect()
    ab = table.filter((pl.col("player_a") == "a") & (pl.col("player_b") == "b")).row(
        0, named=True)
    assert (ab["cd_n"], ab["cd_k"]) == (2, 1)


@pytest.mark.parametrize("seed", [7, 13, 21])
@pytest.mark.parametrize("strength", [0.8, 0.5])
@pytest.mark.slow
def test_planted_check_down_teams_are_found_without_false_leads(seed: int,
                                                                 strength: float) -> None:
    # before the chance was counted before its outcome, 0 or 1 of the 2 teams was found here
    hands, hp, planted = generate(seed=seed, players=90, days=8, strength=strength,
                                  teams={"checkdown": 2, "softplay": 1, "whipsaw": 1})
    leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05).to_pylist()
    truth = {frozenset((a, b)): style for style, a, b in planted}
    got = {frozenset((x["player_a"], x["player_b"])): x["pattern"] for x in leads}
    teams = [pair for pair, style in truth.items() if style == "checkdown"]
    assert all(got.get(pair) == PATTERN_CHECKDOWN_ALLIN for pair in teams), (teams, got)
    assert set(got) <= set(truth), got


@pytest.mark.parametrize("seed", [7, 13, 21])
@pytest.mark.slow
def test_no_check_down_lead_in_an_honest_population(seed: int) -> None:
    hands, hp, _ = generate(seed=seed, players=90, days=8, teams={})
    scored = leads_from_frames(hp, hands, min_hands=50, fdr=1.0).to_pylist()
    assert scored  # pairs were tested
    assert all(x["q_value"] > 0.05 for x in scored), [
        (x["player_a"], x["player_b"], x["pattern"], x["q_value"]) for x in scored[:3]]
