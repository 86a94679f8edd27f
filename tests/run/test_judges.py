"""Which profile judges each hand: by default (`auto`) the house rules of the room the hand was
played in, Robert's Rules (montana) where we have none; `--profile NAME` judges every hand by
one profile. The hands projection and the run record say which profile judged."""

from __future__ import annotations

import json

import pytest

import audit.rules.profiles as profiles
import audit.run.judges as judges
from audit.ingest.pipeline import ingest
from audit.rules.ids import HOUSE_RAKE
from audit.rules.profiles import AUTO_PROFILE, room_of, room_profile
from audit.run.runner import audit_store, read_findings
from audit.schema import events_table
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, write_jsonl


def _raked(hand_id: str, started: str | None = None) -> list[dict]:
    """A hand the house rakes 10 of the 250 pot (paid 240)."""
    rows = hand_rows(hand_id)
    if started:
        rows[0]["detail"] = started
    award = next(r for r in rows if r["kind"] == "award" and r["detail"] == "main")
    award["amount"] = 240
    end = rows.pop()
    rows.append({"kind": "rake", "amount": 10, "hand_id": hand_id, "table_id": "t1"})
    rows.append(end)
    for seq, row in enumerate(rows):
        row["seq"] = seq
    return rows


def test_a_hand_names_its_room_by_flag_else_by_its_source_prefix():
    assert room_of("ps:1", None) == "pokerstars"
    assert room_of("ftp:1", "refunds=implicit") == "fulltilt"
    assert room_of("party:1", None) == "partypoker"
    assert room_of("ipoker:1", None) == "ipoker"
    assert room_of("ps:1", "room=PokerMaster") == "pokermaster"  # PokerStars text, other room
    assert room_of("sim:1", None) is None and room_of("nocolon", None) is None


def test_only_a_room_with_house_rules_chooses_a_profile_a_log_cannot_choose_a_rulebook():
    rooms = ("pokerstars", "fulltilt", "partypoker", "ipoker", "ggpoker", "winamax", "pacific",
             "winning", "bovada", "merge")
    assert [room_profile(r) for r in rooms] == list(rooms)
    assert [room_profile(r) for r in ("pokermaster", "private", "montana", None)] == [
        "montana"] * 4


def test_auto_judges_each_hand_by_its_room_and_keeps_the_file_order(monkeypatch):
    # A room whose house takes no rake (the private-game profile standing in for a room's):
    # its raked hands are flagged, the same hands from elsewhere are not.
    monkeypatch.setattr(profiles, "room_profile",
                        lambda room: "private" if room == "pokerstars" else "montana")
    rows = [*_raked("fx:1"), *_raked("ps:2"), *_raked("fx:3"),
            *_raked("ps:4", "room=pokermaster"), *_raked("ps:5")]
    judged = judges.judge(events_table(rows), AUTO_PROFILE, (), "r")
    hands = judged.hands.to_pylist()
    assert [(h["hand_id"], h["profile"]) for h in hands] == [
        ("fx:1", "montana@1"), ("ps:2", "private@1"), ("fx:3", "montana@1"),
        ("ps:4", "montana@1"), ("ps:5", "private@1")]
    flagged = [r["hand_id"] for r in judged.findings.to_pylist() if r["rule_id"] == HOUSE_RAKE]
    assert flagged == ["ps:2", "ps:5"]
    assert [r["hand_id"] for r in judged.players.to_pylist()][::3] == [
        "fx:1", "ps:2", "fx:3", "ps:4", "ps:5"]
    # one profile for every hand: the room's rules are not consulted
    one = judges.judge(events_table(rows), "private", (), "r")
    assert {h["profile"] for h in one.hands.to_pylist()} == {"private@1"}
    assert len([r for r in one.findings.to_pylist() if r["rule_id"] == HOUSE_RAKE]) == 5


@pytest.fixture()
def store(tmp_path) -> Store:
    store = Store(tmp_path / "store")
    rows = [*hand_rows("ps:11"), *hand_rows("fx:12")]
    ingest([write_jsonl(tmp_path / "hands.jsonl", rows)], store)
    return store


def test_the_run_records_the_profiles_and_each_hand_its_judge(store: Store):
    summary = audit_store(store)
    assert summary.profile == ("auto(montana@1,bovada@1,fulltilt@1,ggpoker@1,ipoker@1,"
                               "merge@1,pacific@1,partypoker@1,pokerstars@1,winamax@1,"
                               "winning@1)")
    assert summary.by_profile == (("montana@1", 1), ("pokerstars@1", 1))
    rows = query(store, "SELECT hand_id, profile FROM latest_hands ORDER BY hand_id").to_pylist()
    assert [(r["hand_id"], r["profile"]) for r in rows] == [
        ("fx:12", "montana@1"), ("ps:11", "pokerstars@1")]
    run = json.loads(next(store.runs_dir.glob("*/run.json")).read_text())
    assert run["profile"] == summary.profile
    assert read_findings(store).num_rows == 0


def test_profile_montana_judges_a_rooms_hands_by_the_book(store: Store):
    summary = audit_store(store, profile="montana")
    assert summary.profile == "montana@1"
    rows = query(store, "SELECT DISTINCT profile FROM latest_hands").to_pylist()
    assert rows == [{"profile": "montana@1"}]


def test_a_hand_whose_house_declares_its_profile_is_judged_by_it():
    # game.profile: "the rule profile the house plays under" (schemas/events.json)
    rows = [*_raked("ps:1"), *_raked("fx:2")]
    rows[0]["game"]["profile"] = "private"
    judged = judges.judge(events_table(rows), AUTO_PROFILE, (), "r")
    assert [(h["hand_id"], h["profile"]) for h in judged.hands.to_pylist()] == [
        ("ps:1", "private@1"), ("fx:2", "montana@1")]
    assert [r["hand_id"] for r in judged.findings.to_pylist()
            if r["rule_id"] == HOUSE_RAKE] == ["ps:1"]
