"""Cross-hand checks over one table's deals (audit/sequence/table.py): every
TABLE_SEQUENCE_RULE_IDS id has fixtures/rules/<ID>.txt whose hands are one table's deals in
order, with breaking and legal hands; the check runs inside `poker-audit audit`."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.importers.text import parse_text
from audit.ingest.pipeline import ingest
from audit.replay import Settings, hand_from_rows, replay_hand
from audit.rules.catalog import TABLE_SEQUENCE_RULE_IDS
from audit.rules.ids import BUTTON_MOVE
from audit.rules.profiles import load_profile
from audit.rules.registry import RULES, Severity
from audit.run.runner import audit_store, read_findings
from audit.schema import arrow_schema
from audit.sequence.table import (
    Deal,
    check_button,
    consecutive_pairs,
    table_sequence_findings,
)
from audit.simulate import simulate
from audit.store.dataset import Store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rules"


def _fixture(rule_id):
    path = FIXTURES / f"{rule_id}.txt"
    return parse_text(path.read_text(encoding="utf-8"), str(path))


def _events(hands):
    rows = [r for hand_rows, _ in hands for r in hand_rows]
    return pa.Table.from_pylist(rows, schema=arrow_schema("events"))


def _sequence_findings(hands, profile="montana"):
    return table_sequence_findings(_events(hands), Settings(load_profile(profile)))


@pytest.mark.parametrize("rule_id", TABLE_SEQUENCE_RULE_IDS)
def test_table_sequence_rule(rule_id):
    assert rule_id in RULES
    hands = _fixture(rule_id)
    expected = {(r, rows[0]["hand_id"], s, q) for rows, expect in hands for r, s, q in expect
                if r == rule_id}
    assert expected, "the fixture has no breaking hand"
    assert any(not any(e[0] == rule_id for e in expect) for _, expect in hands)
    got = {(f.rule_id, f.hand_id, f.seat, f.seq) for f in _sequence_findings(hands)}
    assert got == expected
    for rows, _ in hands:  # each deal is legal on its own: the breach is only across hands
        result = replay_hand(hand_from_rows(rows), load_profile())
        assert [f for f in result.findings
                if Severity(f.severity).level >= Severity.WARNING.level] == []


def test_button_move_moving_button_profile_rejects_the_dead_button():
    """rrv11-online plays a moving button only (P17, 004 HE/Blinds): the dead button left in
    front of alice's empty seat is then a breach; montana (either method) accepts it."""
    hands = _fixture(BUTTON_MOVE)
    moving = {f.hand_id for f in _sequence_findings(hands, "rrv11-online")}
    assert moving == {"fx:BUTTON-MOVE.3-fail", "fx:BUTTON-MOVE.6-pass-dead-button"}


def test_button_move_needs_proof_that_the_deals_are_consecutive():
    pairs = consecutive_pairs(_events(_fixture(BUTTON_MOVE))).rows()
    short = [(a.split(".", 1)[1], b.split(".", 1)[1]) for a, b in pairs]
    # alice starts hand 5 with 0.50 less than she finished hand 4 with: a deal is missing
    assert short == [("1-pass", "2-pass"), ("2-pass", "3-fail"), ("3-fail", "4-pass"),
                     ("5-pass-gap", "6-pass-dead-button")]


def test_button_move_heads_up_alternates():
    a = Deal(hand_id="a", button=3, big_blind_seat=5, dealt=(3, 5))
    assert check_button(a, Deal(hand_id="b", button=5, big_blind_seat=3, dealt=(3, 5)),
                        "either") is None
    assert "heads-up the button passes" in check_button(
        a, Deal(hand_id="b", button=3, big_blind_seat=5, dealt=(3, 5)), "either")
    # play just became heads-up: P18 gives the button to the last big blind; not judged here
    assert check_button(Deal(hand_id="a", button=1, big_blind_seat=5, dealt=(1, 3, 5)),
                        Deal(hand_id="b", button=5, big_blind_seat=3, dealt=(3, 5)),
                        "moving") is None


def test_button_move_is_checked_by_the_audit_run(tmp_path):
    """`poker-audit audit` runs the sequence check per event file, after the per-hand replay."""
    src = tmp_path / "button-move.jsonl"
    with src.open("w", encoding="utf-8") as f:
        for rows, _ in _fixture(BUTTON_MOVE):
            for r in rows:
                f.write(json.dumps(r) + "\n")
    store = Store(tmp_path / "store")
    summary = ingest([src], store)
    assert summary.quarantined == 0
    run = audit_store(store)
    rows = [r for r in read_findings(store).to_pylist() if r["rule_id"] == BUTTON_MOVE]
    assert [(r["hand_id"], r["seat"], r["severity"]) for r in rows] == [
        ("fx:BUTTON-MOVE.3-fail", 1, "warning")]
    assert (BUTTON_MOVE, "procedure", "warning", 1) in run.by_rule


@pytest.mark.slow
def test_button_move_on_simulated_tables_finds_exactly_the_moved_buttons(tmp_path):
    """The simulator's tables rotate a moving button: no finding, and most deals are proven
    consecutive. Moving the button of some proven deals to another dealt-in seat is found at
    each moved deal (and possibly the deal after it, judged from the moved button), never
    elsewhere."""
    simulate(tmp_path / "sim", hands=1200, seed=11, tables=4, violations=0.0)
    files = sorted((tmp_path / "sim").glob("events/**/*.parquet"))
    events = pa.concat_tables([pq.read_table(f).cast(arrow_schema("events")) for f in files])
    moving = Settings(load_profile("rrv11-online"))
    assert table_sequence_findings(events, moving) == []
    assert table_sequence_findings(events, Settings(load_profile())) == []
    pairs = consecutive_pairs(events).rows()
    assert len(pairs) > 1000
    rng = random.Random(3)
    moved = {b for _, b in rng.sample(pairs, 25)}
    rows = events.to_pylist()
    dealt: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        if r["kind"] == "seat" and r["detail"] != "sitting_out":
            dealt[r["hand_id"]].append(r["seat"])
    for r in rows:
        if r["kind"] == "hand_started" and r["hand_id"] in moved:
            game = dict(r["game"])
            game["button_seat"] = rng.choice(
                [s for s in dealt[r["hand_id"]] if s != game["button_seat"]])
            r["game"] = game
    tampered = pa.Table.from_pylist(rows, schema=arrow_schema("events"))
    after = {b: c for (a, b), (b2, c) in zip(pairs, pairs[1:], strict=False) if b == b2}
    found = {f.hand_id for f in table_sequence_findings(tampered, moving)}
    assert moved <= found
    assert found <= moved | {after[h] for h in moved if h in after}
