"""The `declare` and `chips` event kinds end to end: documented with examples in
schemas/events.json, ingested, malformed ones quarantined with file, line and reason, ruled on
by the replay, and shown inline by `poker-audit replay HAND_ID`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from audit.cli.main import main
from audit.ingest.pipeline import ingest
from audit.replay.live.words import Said, parse_declaration, parse_motion
from audit.rules.ids import STRING_RAISE
from audit.schema import event_kinds, schema_doc
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, quarantined, write_jsonl


def live_hand(hand_id: str) -> list[dict]:
    """hand_rows' hand with a string raise: two motions, no declaration, logged as a raise."""
    rows = hand_rows(hand_id)
    raise_at = next(i for i, r in enumerate(rows) if r["kind"] == "raise")
    physical = [
        {"kind": "declare", "seat": 2, "player": "bob", "detail": "time"},
        {"kind": "chips", "seat": 1, "player": "ann", "amount": 100, "detail": "1x100"},
        {"kind": "chips", "seat": 1, "player": "ann", "amount": 200, "detail": "2x100"},
    ]
    rows[raise_at:raise_at] = [{**r, "hand_id": hand_id, "table_id": "t1"} for r in physical]
    for seq, r in enumerate(rows):
        r["seq"] = seq
    return rows


def test_events_json_documents_both_kinds_with_examples_that_parse():
    doc = schema_doc("events")
    assert {"declare", "chips"} <= event_kinds()
    assert "detail" in doc["kinds"]["declare"] and "1x500" in doc["kinds"]["chips"]
    examples = {k: v for k, v in doc["examples"].items() if k != "doc"}
    assert examples
    kinds_seen = set()
    for rows in examples.values():
        for r in rows:
            assert r["kind"] in event_kinds()
            kinds_seen.add(r["kind"])
            if r["kind"] == "chips":
                assert parse_motion(r["amount"], r.get("detail")) is not None, r
            if r["kind"] == "declare":
                assert parse_declaration(r["detail"]).said is not Said.OTHER, r
    assert {"declare", "chips"} <= kinds_seen


def test_a_live_hand_is_ingested_and_audited_with_its_string_raise(store: Store, tmp_path: Path):
    summary = ingest([write_jsonl(tmp_path / "live.jsonl", live_hand("live1"))], store)
    assert summary.quarantined == 0
    result = CliRunner().invoke(main, ["audit", "--store", str(store.root)])
    assert result.exit_code in (0, 1), result.output
    out = CliRunner().invoke(main, ["findings", "--store", str(store.root), "--rule",
                                    STRING_RAISE, "--format", "json"])
    [f] = json.loads(out.output)
    assert (f["hand_id"], f["seat"], f["rule_id"]) == ("live1", 1, STRING_RAISE)
    assert "2 motions (100, 200)" in f["message"] and f["expected"] == "call to 100"


def test_replay_shows_who_said_what_and_each_chip_motion(store: Store, tmp_path: Path):
    ingest([write_jsonl(tmp_path / "live.jsonl", live_hand("live2"))], store)
    out = CliRunner().invoke(main, ["replay", "live2", "--store", str(store.root)])
    assert out.exit_code in (0, 1), out.output
    lines = out.output.splitlines()
    assert any("declare seat 2 (bob) time" in line for line in lines)
    assert any("chips seat 1 (ann) 1x100 amount 100" in line for line in lines)
    assert any("chips seat 1 (ann) 2x100 amount 200" in line for line in lines)
    assert any(STRING_RAISE in line for line in lines)



def test_malformed_physical_events_are_quarantined_with_line_and_reason(store: Store,
                                                                        tmp_path: Path):
    bad_chips = live_hand("bad1")
    next(r for r in bad_chips if r["kind"] == "chips")["detail"] = "a handful"
    no_words = live_hand("bad2")
    next(r for r in no_words if r["kind"] == "declare")["detail"] = "  "
    no_seat = live_hand("bad3")
    next(r for r in no_seat if r["kind"] == "chips")["seat"] = None
    good = live_hand("ok1")
    path = write_jsonl(tmp_path / "mixed.jsonl", bad_chips + no_words + no_seat + good)
    summary = ingest([path], store)
    assert summary.quarantined == 3
    reasons = {q["hand_id"]: q for q in quarantined(store)}
    assert "chip denominations 'a handful'" in reasons["bad1"]["reason"]
    assert "has no words in detail" in reasons["bad2"]["reason"]
    assert "a 'chips' event has no seat" in reasons["bad3"]["reason"]
    assert reasons["bad1"]["line"] == 1 and reasons["bad2"]["line"] == len(bad_chips) + 1
    assert all(q["source"].endswith("mixed.jsonl") for q in reasons.values())
