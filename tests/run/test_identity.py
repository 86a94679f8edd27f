"""Player ids in an audit run are qualified by room: `Hero` at PokerStars and `Hero` at
Winamax are different people. A hand whose room writes seat labels instead of names
(`players=anonymous`) keeps its labels in the events and findings but names nobody in
`hand_players`, so a seat label never enters player statistics or collusion pairing."""

from __future__ import annotations

import polars as pl

from audit.collusion.features import player_hands
from audit.ingest.pipeline import ingest
from audit.report.build import build_report
from audit.rules.profiles import AUTO_PROFILE
from audit.run.judges import judge
from audit.run.runner import audit_store
from audit.schema import events_table
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, write_jsonl


def _hand(hand_id: str, detail: str | None = None, *, short_pay: bool = False) -> list[dict]:
    rows = hand_rows(hand_id)
    if detail:
        rows[0]["detail"] = detail
    if short_pay:  # the house pays 240 of a 250 pot: a wrong award names the winner
        next(r for r in rows if r["kind"] == "award" and r["detail"] == "main")["amount"] = 240
    return rows


def test_a_rooms_players_are_named_with_their_room_others_as_they_are():
    events = events_table([*_hand("ps:1", short_pay=True), *_hand("sim:2", short_pay=True),
                           *_hand("ps:3", "room=PokerMaster")])
    judged = judge(events, AUTO_PROFILE, (), "r")
    players = [(r["hand_id"], r["player"]) for r in judged.players.to_pylist()]
    assert players == [
        ("ps:1", "ann@pokerstars"), ("ps:1", "bob@pokerstars"), ("ps:1", "cat@pokerstars"),
        ("sim:2", "ann"), ("sim:2", "bob"), ("sim:2", "cat"),
        ("ps:3", "ann@pokermaster"), ("ps:3", "bob@pokermaster"), ("ps:3", "cat@pokermaster")]
    winners = [(r["hand_id"], r["winners"]) for r in judged.hands.to_pylist()]
    assert winners == [("ps:1", "1:ann@pokerstars"), ("sim:2", "1:ann"),
                       ("ps:3", "1:ann@pokermaster")]
    named = {(r["hand_id"], r["player"]) for r in judged.findings.to_pylist() if r["player"]}
    assert named == {("ps:1", "ann@pokerstars"), ("sim:2", "ann")}


def test_anonymous_hands_name_nobody_in_hand_players(tmp_path):
    store = Store(tmp_path / "store")
    rows = [*_hand("bov:1", "players=anonymous"), *_hand("ps:2")]
    ingest([write_jsonl(tmp_path / "hands.jsonl", rows)], store)
    audit_store(store)
    got = query(store, "SELECT hand_id, player, faced_bet_from FROM latest_hand_players "
                       "ORDER BY hand_id, seat").to_pylist()
    assert [(r["hand_id"], r["player"]) for r in got] == [
        ("bov:1", None), ("bov:1", None), ("bov:1", None),
        ("ps:2", "ann@pokerstars"), ("ps:2", "bob@pokerstars"), ("ps:2", "cat@pokerstars")]
    assert {r["faced_bet_from"] for r in got if r["hand_id"] == "bov:1"} == {None}
    # the events keep what the log gives
    labels = query(store, "SELECT DISTINCT player FROM events WHERE hand_id = 'bov:1' "
                          "AND player IS NOT NULL ORDER BY 1").to_pylist()
    assert [r["player"] for r in labels] == ["ann", "bob", "cat"]
    # the collusion analytics pair players, never seat labels
    hp = pl.from_arrow(query(store, "SELECT * FROM latest_hand_players")).lazy()
    hands = pl.from_arrow(query(store, "SELECT * FROM latest_hands")).lazy()
    paired = player_hands(hp, hands).collect()
    assert set(paired["hand_id"].to_list()) == {"ps:2"}
    # and the report says so in its data-quality section
    html = build_report(store)
    assert 'data-kpi="anonymous_hands" data-value="1"' in html
    assert "kept out of player statistics and collusion pairing" in html
