"""Required-kill tables in the simulator (audit/simulate/play/killtable.py, issue 7): clean
kill tables post every required kill hand after hand and replay with no finding at all; the
cross-hand injectors (a kill owed and not posted, a kill nobody owed, a new player's kill
skipped) are found exactly, on the hand and seat they label."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.rules.ids import (
    KILL_BUTTON_NEUTRAL,
    KILL_LEG2,
    KILL_LEG_PERSIST,
    KILL_MUST_POST,
    KILL_NEW_PLAYER,
    KILL_SCOOP_5X,
    KILL_SPLIT_LEG,
    KILL_TRIGGER,
)
from audit.sequence.kill import Leg
from audit.simulate import accuracy_scorecard, simulate
from audit.simulate.play.killtable import Outcome, advance, advance_scoop, outcome


def _events(root: Path) -> pa.Table:
    files = sorted(root.glob("events/**/*.parquet"))
    return pa.concat_tables([pq.read_table(f, columns=["hand_id", "kind", "detail", "game"])
                             for f in files])


@pytest.mark.parametrize(("variant", "seed"), [
    ("lowball_27_triple", 1), ("lowball_a5", 2), ("badugi", 7), ("draw_high", 11),
    ("lowball_27_single", 5), ("omaha_hilo", 1), ("holdem", 2),
])
def test_clean_kill_tables_replay_with_zero_findings(tmp_path: Path, variant: str,
                                                     seed: int) -> None:
    root = tmp_path / "s"
    simulate(root, hands=400, seed=seed, variant=variant, structure="fixed_limit", tables=4,
             kill_tables=1.0)
    events = _events(root)
    rows = events.select(["kind", "detail"]).to_pylist()
    posts = Counter(r["detail"] for r in rows if r["kind"] == "post")
    assert posts["kill"] >= 20, posts  # the tables do kill, hand after hand
    games = [g for g in events.column("game").to_pylist() if g is not None]
    assert {json.loads(g["house_overrides"])["kill.required"] for g in games} == {True}
    card = accuracy_scorecard(root)
    assert card["labels"] == 0 and card["findings"] == 0, card["rules"]


_OWED = {KILL_TRIGGER, KILL_MUST_POST, KILL_SPLIT_LEG, KILL_LEG_PERSIST}


_NOT_OWED = {KILL_TRIGGER, KILL_LEG2, KILL_BUTTON_NEUTRAL}


@pytest.mark.parametrize(("injector", "variant", "must", "rules"), [
    ("kill_not_posted", "draw_high", KILL_TRIGGER, _OWED),
    ("kill_not_posted", "lowball_a5", KILL_TRIGGER, _OWED),
    ("kill_not_posted", "omaha_hilo", KILL_TRIGGER, _OWED),  # a scoop of 5 upper limits
    ("kill_not_owed", "badugi", KILL_TRIGGER, _NOT_OWED),
    ("kill_not_owed", "lowball_27_single", KILL_TRIGGER, _NOT_OWED),
    ("kill_not_owed", "holdem", KILL_LEG2, _NOT_OWED),
    ("kill_not_owed", "omaha_hilo", KILL_SCOOP_5X, {KILL_SCOOP_5X}),
    # new players who played a killed pot are few: more hands
    ("new_player_kill_skipped", "omaha_hilo", KILL_NEW_PLAYER, {KILL_NEW_PLAYER}),
])
@pytest.mark.slow
def test_kill_table_injector_is_found_exactly(tmp_path: Path, injector: str, variant: str,
                                             must: str, rules: set[str]) -> None:
    root = tmp_path / "s"
    hands = 2500 if injector == "new_player_kill_skipped" else 500
    summary = simulate(root, hands=hands, seed=5, variant=variant, structure="fixed_limit",
                       tables=4, violations=0.5, kill_tables=1.0, injectors=(injector,))
    card = accuracy_scorecard(root)
    assert summary.labels >= 5, summary
    assert must in card["rules"] and set(card["rules"]) <= rules, card["rules"]
    for rule, r in card["rules"].items():
        assert r["labels"] and r["precision"] == 1.0 and r["recall"] == 1.0, (rule, r)
        assert r["seq_agree"] == r["matched"], (rule, r)
    assert card["clean_hand_findings"] == 0, card["clean_by_rule"]


def test_kill_tables_only_when_asked(tmp_path: Path) -> None:
    """Without kill_tables no table plays a kill game and the kill injectors never act."""
    root = tmp_path / "s"
    summary = simulate(root, hands=200, seed=3, variant="badugi", tables=4, violations=0.5,
                       injectors=("kill_not_posted", "kill_not_owed"))
    assert summary.labels == 0
    rows = _events(root).select(["kind", "detail"]).to_pylist()
    assert not any(r["kind"] == "post" and r["detail"] == "kill" for r in rows)


def _out(dealt: str, winners: str, won: int, killer: tuple[str, int] | None = None) -> Outcome:
    return Outcome(dealt=frozenset(dealt), winners=tuple(winners), from_others=won,
                   killer=killer)


def test_advance_two_pots_in_a_row_and_the_full_bet_band() -> None:
    """The rules' holder takes the lower limit (10) as one full bet; the log proves a second leg
    only from the upper limit (20): between them the kill is posted and nothing is proven."""
    for due_from, expected in ((10, "a"), (20, None)):
        legs = dict.fromkeys("abc", Leg.NONE)
        due, not_due = advance(legs, _out("abc", "a", 30), True, due_from, 10)
        assert due is None and not_due is not None and not_due.rule_id == KILL_TRIGGER
        due, not_due = advance(legs, _out("abc", "a", 15), True, due_from, 10)
        assert (due.pid if due else None) == expected and not_due is None
    # a winner the log has not seen before may hold a leg: a kill is due, but not proven
    due, not_due = advance({}, _out("abc", "a", 30), True, 20, 10)
    assert due is not None and not due.certain and not_due is None
    legs = {}
    advance(legs, _out("abc", "a", 30), True, 20, 10)
    due, not_due = advance(legs, _out("abc", "a", 5), True, 20, 10)
    assert due is None and not_due is not None and not_due.rule_id == KILL_LEG2
    # a leg kept through a split pot makes the next win a second leg (KILL-SPLIT-LEG)
    legs = {}
    advance(legs, _out("abc", "a", 30), True, 10, 10)
    assert advance(legs, _out("abc", "ab", 0), True, 10, 10) == (None, None)
    assert legs["a"] is Leg.KEPT_SPLIT and legs["b"] is Leg.NONE_SPLIT
    due, _ = advance(legs, _out("abc", "a", 30), True, 10, 10)
    assert due is not None and due.rule_id == KILL_SPLIT_LEG and due.certain
    # a killer who wins kills again for the same amount
    due, _ = advance(legs, _out("abc", "a", 0, ("a", 40)), True, 10, 10)
    assert due is not None and (due.rule_id, due.amount) == (KILL_MUST_POST, 40)


def test_outcome_reads_blinds_and_kills_apart_from_bets() -> None:
    pid_of = {1: "a", 2: "b", 3: "c"}
    ev = [["seat", 1, 500, None, None, None], ["seat", 2, 500, None, None, None],
          ["seat", 3, 500, None, None, "sitting_out"],
          ["post", 1, 5, 5, None, "small_blind"], ["post", 2, 10, 10, None, "big_blind"],
          ["post", 1, 20, 25, None, "kill"], ["raise", 2, 30, 40, None, None],
          ["call", 1, 15, 40, None, None], ["award", 2, 80, None, None, "main"]]
    out = outcome(ev, pid_of)
    assert out.dealt == frozenset("ab") and out.winners == ("b",)
    assert out.from_others == 15 and out.killer == ("a", 20)


def test_advance_scoop_five_upper_limits_and_the_showdown() -> None:
    """High-low: a scoop of at least five upper limits (here 100) makes a kill due; the log
    proves it only at a showdown; a smaller scoop proves none is due (KILL-SCOOP-5X)."""
    big = Outcome(dealt=frozenset("abc"), winners=("a",), from_others=0, killer=None, pot=100,
                  shown_down=False)
    due, _ = advance_scoop({}, big, True, 100, False)
    assert due is not None and due.rule_id == KILL_TRIGGER and due.certain
    due, _ = advance_scoop({}, big, True, 100, True)
    assert due is not None and not due.certain
    small = Outcome(dealt=frozenset("abc"), winners=("a",), from_others=0, killer=None, pot=99)
    assert advance_scoop({}, small, True, 100, True)[1].rule_id == KILL_SCOOP_5X
    split = Outcome(dealt=frozenset("abc"), winners=("a", "b"), from_others=0, killer=None,
                    pot=500, shown_down=True)
    assert advance_scoop({}, split, True, 100, True) == (None, None)
