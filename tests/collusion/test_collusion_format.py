"""A heads-up freezeout is no chip dumping (issue 25: the real-data false lead).

Two players alone in a tournament: whatever one loses the other wins, and the match ends when
one of them has every chip, so the chips flowing between them are the format's, whoever wins.
The same one-way flow at a heads-up cash table, between two players who play others too, is
what chip dumping looks like and stays a lead. The hand's format is what the audit run
recorded: a tournament hand is judged with the tournament overlay (its `profile`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import polars as pl
import pyarrow as pa

from audit.collusion import leads_from_frames
from audit.collusion.synthetic import generate
from audit.schema import arrow_schema

STACK, BB, MATCH = 1500, 20, 150  # chips each, big blind, hands of the match


def _match(profile: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """MATCH hands of `dumper` against `receiver` alone at a table: the dumper bets big and
    folds (heavy folds), or calls and loses, hand after hand; only the receiver's chips grow."""
    hands: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(MATCH):
        hid = f"match-{i:04d}"
        pot = 24 * BB if i % 2 else 6 * BB
        hands.append({"hand_id": hid, "ts": start + timedelta(minutes=i), "table_id": "hu 1",
                      "variant": "holdem", "structure": "no_limit", "big_blind": BB,
                      "players": 2, "pot": pot, "rake": 0, "showdown": i % 2 == 0,
                      "awards_verified": True, "findings": 0, "profile": profile})
        fold = i % 2 == 1  # the dumper folds after putting 12 big blinds in
        for seat, (player, won) in enumerate((("dumper", 0), ("receiver", pot)), start=1):
            invested = pot // 2
            rows.append({"hand_id": hid, "seat": seat, "player": player, "invested": invested,
                         "won": won, "net": won - invested, "vpip": True, "pfr": False,
                         "aggressive_actions": 1 if player == "receiver" else 0,
                         "calls": 1 if player == "dumper" else 0,
                         "folded_street": "river" if fold and player == "dumper" else None,
                         "showed": not fold, "faced_bet_from": "receiver"
                         if player == "dumper" else None})
    return (pl.from_arrow(pa.Table.from_pylist(hands, schema=arrow_schema("hands"))),
            pl.from_arrow(pa.Table.from_pylist(rows, schema=arrow_schema("hand_players"))))


def _leads(profile: str) -> list[dict[str, Any]]:
    hands, hp, _ = generate(seed=3, players=60, days=4)
    match_hands, match_hp = _match(profile)
    both_hands = pl.concat([hands, match_hands], how="vertical_relaxed")
    both_hp = pl.concat([hp, match_hp], how="vertical_relaxed")
    return leads_from_frames(both_hp, both_hands, min_hands=100, fdr=1.0).to_pylist()


def _pair(leads: list[dict[str, Any]]) -> dict[str, Any]:
    return next(x for x in leads if {x["player_a"], x["player_b"]} == {"dumper", "receiver"})


def test_a_heads_up_freezeout_is_no_chip_dumping() -> None:
    pair = _pair(_leads("pokerstars@1+tournament@1"))
    features = json.loads(pair["features"])
    # no chip-dump test is run on the format's flow: neither the flow nor the heavy folds
    assert features["chip_dump"]["n"] == 0 and features["chip_dump"]["p"] is None
    assert features["heavy_fold"]["observed"] == 0
    assert pair["q_value"] > 0.05


def test_the_same_flow_at_a_heads_up_cash_table_stays_a_lead() -> None:
    pair = _pair(_leads("pokerstars@1"))
    assert pair["q_value"] <= 0.05 and pair["pattern"] == "PATTERN-CHIP-DUMP"
    assert pair["player"] == "dumper" and pair["counterparty"] == "receiver"
