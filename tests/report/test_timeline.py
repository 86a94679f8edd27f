"""Bug 2 of issue 23: the hand timeline (`poker-audit replay`, the report's worst examples) never
cuts a number or a name, and its stacks take in what each seat is paid back (pots won and
uncalled bets returned)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from audit.replay import Settings, hands_from_table, replay_hand
from audit.report.timeline import render_timeline
from audit.rules.profiles import load_profile
from audit.schema import events_table

LONG = "Maximilian_von_Hohenzollern_der_Dritte@pokerstars"
SPACED = "Ana Beatriz dos Santos Oliveira@pokerstars"


def long_names_hand(hand_id: str = "ps:47656382023") -> list[dict[str, Any]]:
    """Three players, two with long names; five- and six-digit bets; the river bet comes back
    uncalled and the pot is pushed to the bettor."""
    rows: list[dict[str, Any]] = [
        {"kind": "hand_started", "ts": datetime(2026, 11, 1, 10, 0, tzinfo=UTC), "game": {
            "variant": "holdem", "structure": "no_limit", "small_blind": 50, "big_blind": 100,
            "button_seat": 1, "seat_count": 6, "currency": "USD", "minor_per_unit": 100}},
        {"kind": "seat", "seat": 1, "player": LONG, "amount": 1047500},
        {"kind": "seat", "seat": 2, "player": "bob", "amount": 911600},
        {"kind": "seat", "seat": 3, "player": SPACED, "amount": 20000},
        {"kind": "post", "seat": 2, "player": "bob", "detail": "small_blind", "amount": 50,
         "total": 50},
        {"kind": "post", "seat": 3, "player": SPACED, "detail": "big_blind", "amount": 100,
         "total": 100},
        {"kind": "deal", "seat": 1, "detail": "hole", "cards": "As Kd"},
        {"kind": "deal", "seat": 2, "detail": "hole", "cards": "?? ??"},
        {"kind": "deal", "seat": 3, "detail": "hole", "cards": "?? ??"},
        {"kind": "raise", "seat": 1, "player": LONG, "amount": 10475, "total": 10475},
        {"kind": "raise", "seat": 2, "player": "bob", "amount": 91110, "total": 91160},
        {"kind": "fold", "seat": 3, "player": SPACED},
        {"kind": "call", "seat": 1, "player": LONG, "amount": 80685, "total": 91160},
        {"kind": "deal", "detail": "board", "cards": "2c 7d 9h"},
        {"kind": "check", "seat": 2, "player": "bob"},
        {"kind": "bet", "seat": 1, "player": LONG, "amount": 911600, "total": 911600},
        {"kind": "fold", "seat": 2, "player": "bob"},
        {"kind": "award", "seat": 1, "player": LONG, "amount": 911600, "detail": "uncalled"},
        {"kind": "award", "seat": 1, "player": LONG, "amount": 182420, "detail": "main"},
        {"kind": "hand_ended"},
    ]
    for seq, row in enumerate(rows):
        row.update(hand_id=hand_id, seq=seq, table_id="Ceres IV (Hold'em No Limit $0.50/$1)")
    return rows


GOLDEN = """\
hand ps:47656382023  table Ceres IV (Hold'em No Limit $0.50/$1)  holdem no_limit  blinds 50/100  button seat 1

 seq  event                                                         pot  to call  stacks
   0  hand_started
   1  seat
      seat 1 (Maximilian_von_Hohenzollern_der_Dritte@pokerstars)
      amount 1047500
   2  seat seat 2 (bob) amount 911600
   3  seat seat 3 (Ana Beatriz dos Santos Oliveira@pokerstars)
      amount 20000
   4  post seat 2 (bob) small_blind amount 50 to 50                  50       50  1:1047500 2:911550 3:20000
   5  post seat 3 (Ana Beatriz dos Santos Oliveira@pokerstars)      150      100  1:1047500 2:911550 3:19900
      big_blind amount 100 to 100
   6  deal seat 1 hole [As Kd]                                      150      100  1:1047500 2:911550 3:19900
   7  deal seat 2 hole [?? ??]                                      150      100  1:1047500 2:911550 3:19900
   8  deal seat 3 hole [?? ??]                                      150      100  1:1047500 2:911550 3:19900
   9  raise                                                       10625    10475  1:1037025 2:911550 3:19900
      seat 1 (Maximilian_von_Hohenzollern_der_Dritte@pokerstars)
      amount 10475 to 10475
  10  raise seat 2 (bob) amount 91110 to 91160                   101735    91160  1:1037025 2:820440 3:19900
  11  fold seat 3 (Ana Beatriz dos Santos Oliveira@pokerstars)   101735    91160  1:1037025 2:820440 3:19900
  12  call                                                       182420    91160  1:956340 2:820440 3:19900
      seat 1 (Maximilian_von_Hohenzollern_der_Dritte@pokerstars)
      amount 80685 to 91160
  13  deal board [2c 7d 9h]                                      182420        0  1:956340 2:820440 3:19900
  14  check seat 2 (bob)                                         182420        0  1:956340 2:820440 3:19900
  15  bet                                                       1094020   911600  1:44740 2:820440 3:19900
      seat 1 (Maximilian_von_Hohenzollern_der_Dritte@pokerstars)
      amount 911600 to 911600
  16  fold seat 2 (bob)                                         1094020   911600  1:44740 2:820440 3:19900
  17  award                                                     1094020   911600  1:956340 2:820440 3:19900
      seat 1 (Maximilian_von_Hohenzollern_der_Dritte@pokerstars)
      uncalled amount 911600
  18  award                                                     1094020   911600  1:1138760 2:820440 3:19900
      seat 1 (Maximilian_von_Hohenzollern_der_Dritte@pokerstars)
      main amount 182420
  19  hand_ended                                                1094020   911600  1:1138760 2:820440 3:19900

pot 1094020  rake 0  winners 1:Maximilian_von_Hohenzollern_der_Dritte@pokerstars  findings 0  judged by pokerstars@1
"""


def timeline_of(rows: list[dict[str, Any]]) -> str:
    hand = next(hands_from_table(events_table(rows)))
    result = replay_hand(hand, Settings(load_profile("pokerstars")), trace=True)
    return render_timeline(hand, result)


def test_timeline_never_cuts_a_number_or_a_name_and_stacks_take_in_awards() -> None:
    text = timeline_of(long_names_hand())
    assert text == GOLDEN
    # the amounts the issue saw cut ("amount 1047" for 10475) stand whole
    for whole in ("amount 10475 to 10475", "amount 911600 to 911600", "amount 1047500",
                  f"({LONG})", f"({SPACED})"):
        assert whole in text, whole
    # after the hand: seat 1 has what it started with, minus its 91160 in the pot, plus the
    # 182420 pot it won (its 911600 river bet came back uncalled)
    assert text.splitlines()[-3].endswith("1:1138760 2:820440 3:19900")
    assert 1047500 - 91160 + 182420 == 1138760


def test_timeline_stacks_add_each_award_from_its_event_on() -> None:
    lines = timeline_of(long_names_hand()).splitlines()
    returned = next(i for i, line in enumerate(lines) if line.startswith("  17  award"))
    assert lines[returned].endswith("1:956340 2:820440 3:19900")  # 44740 + the 911600 back
    won = next(i for i, line in enumerate(lines) if line.startswith("  18  award"))
    assert lines[won].endswith("1:1138760 2:820440 3:19900")
