"""Bug 2 of issue 23: the hand timeline (`poker-audit replay`, the report's worst examples) never
cuts a number or a name, and its stacks take in what each seat is paid back (pots won and
uncalled bets returned)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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


# What `poker-audit replay ps:47656382023` prints for that hand (checked by hand: seat 1 ends with
# 1047500 - 91160 + 182420; its 911600 river bet came back uncalled).
GOLDEN = Path(__file__).with_name("golden") / "timeline_long_names.txt"


def timeline_of(rows: list[dict[str, Any]]) -> str:
    hand = next(hands_from_table(events_table(rows)))
    result = replay_hand(hand, Settings(load_profile("pokerstars")), trace=True)
    return render_timeline(hand, result)


def test_timeline_never_cuts_a_number_or_a_name_and_stacks_take_in_awards() -> None:
    text = timeline_of(long_names_hand())
    assert text == GOLDEN.read_text(encoding="utf-8")
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


def test_report_timeline_is_the_terminal_timeline_whole(tmp_path: Path) -> None:
    """The HTML report shows the same timeline, every number and name whole, in a block that
    scrolls sideways rather than breaking a word."""
    import html5lib

    from audit.ingest.pipeline import ingest
    from audit.report import build_report
    from audit.report.timeline import replay_stored_hand
    from audit.run.runner import audit_store
    from audit.store.dataset import Store
    from tests.support.eventrows import write_parquet

    rows = long_names_hand()
    main = next(r for r in rows if r["kind"] == "award" and r["detail"] == "main")
    main.update(seat=2, player="bob")  # the pot pushed to bob, who folded: a wrong award
    store = Store(tmp_path / "store")
    ingest([write_parquet(tmp_path / "hand.parquet", rows)], store)
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    html = build_report(store)
    doc = html5lib.parse(html, namespaceHTMLElements=False)
    shown = ["".join(p.itertext()) for p in doc.iter("pre") if p.get("class") == "timeline"]
    hand, result = replay_stored_hand(store, "ps:47656382023")
    assert shown and shown[0] == render_timeline(hand, result)
    for whole in ("amount 10475 to 10475", "amount 911600 to 911600", f"({LONG})",
                  f"({SPACED})"):
        assert whole in shown[0], whole
    style = html[html.index("pre.timeline {"):]
    style = style[:style.index("}")]
    assert "white-space: pre;" in style and "anywhere" not in style


def implicit_returns_hand(*, folded_into_award: bool) -> list[dict[str, Any]]:
    """The same hand from a room that never logs an uncalled bet coming back (PHH's winnings
    leave it out): no `uncalled` award, `refunds=implicit` on the hand. Some rooms fold the
    returned bet into the award instead."""
    rows = [r for r in long_names_hand() if r.get("detail") != "uncalled"]
    rows[0]["detail"] = "refunds=implicit"
    if folded_into_award:
        next(r for r in rows if r.get("detail") == "main")["amount"] = 182420 + 911600
    for seq, row in enumerate(rows):
        row["seq"] = seq
    return rows


def test_timeline_stacks_take_in_a_return_the_room_did_not_log() -> None:
    lines = timeline_of(implicit_returns_hand(folded_into_award=False)).splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("  18  hand_ended"))
    assert lines[end].endswith("1:1138760 2:820440 3:19900")  # as when the return is logged
    assert lines[end + 1] == "      returned, not logged by the room (uncalled): seat 1 911600"
    won = next(i for i, line in enumerate(lines) if line.startswith("  17  award"))
    assert lines[won].endswith("1:227160 2:820440 3:19900")  # 44740 behind + the 182420 pot


def test_timeline_counts_a_return_folded_into_the_award_once() -> None:
    text = timeline_of(implicit_returns_hand(folded_into_award=True))
    assert "not logged by the room" not in text
    end = next(line for line in text.splitlines() if line.startswith("  18  hand_ended"))
    assert end.endswith("1:1138760 2:820440 3:19900")
