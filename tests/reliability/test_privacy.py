"""Privacy (issue 11): `--pseudonymize` on findings and exports (the report has it too)
replaces every player id by a keyed HMAC pseudonym; the key is never written to disk."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.devtools.faults import hands_table
from audit.ingest.pipeline import ingest
from audit.privacy import pseudonym
from audit.rules.ids import CHIP_SHORT_CALL
from audit.run.runner import audit_store
from audit.sql.roster import store_roster
from audit.store.dataset import Store

KEY = "correct-horse-battery-staple-7f3a"
PLAYERS = ("ann", "bob", "cat")


@pytest.fixture
def audited(store: Store, tmp_path: Path) -> Store:
    src = tmp_path / "hands.parquet"
    pq.write_table(hands_table("p", 6), src)  # every third pot pushed short: findings
    ingest([src], store)
    audit_store(store)
    return store


def _names(text: str) -> set[str]:
    return {p for p in PLAYERS if re.search(rf"(?<![\w+/=]){p}(?![\w+/=])", text)}


def _run(args: list[str], key: str | None = KEY) -> tuple[int, str]:
    env = {"POKER_AUDIT_PSEUDONYM_KEY": key} if key else {"POKER_AUDIT_PSEUDONYM_KEY": ""}
    result = CliRunner().invoke(main, args, env=env)
    return result.exit_code, result.output


def test_findings_pseudonymize_replaces_every_player_id(audited: Store):
    code, plain = _run(["findings", "--store", str(audited.root), "--format", "json"])
    assert code == 0 and _names(plain)  # the findings do name players
    code, out = _run(["findings", "--store", str(audited.root), "--format", "json",
                      "--pseudonymize"])
    assert code == 0
    assert _names(out) == set()
    rows = json.loads(out)
    assert rows and len(rows) == len(json.loads(plain))
    expected = {pseudonym(p, KEY.encode()) for p in PLAYERS}
    assert {r["player"] for r in rows if r["player"]} <= expected
    # the same key gives the same pseudonyms (outputs can be joined); another key does not
    assert _run(["findings", "--store", str(audited.root), "--format", "json",
                 "--pseudonymize"])[1] == out
    other = _run(["findings", "--store", str(audited.root), "--format", "json",
                  "--pseudonymize"], key="another-key")[1]
    assert other != out and _names(other) == set()


@pytest.mark.parametrize("fmt", ["ohh", "phh"])
def test_export_pseudonymize_replaces_every_player_id(audited: Store, fmt: str):
    args = ["export", "p0", "p1", "--store", str(audited.root), "--format", fmt]
    code, plain = _run(args)
    assert code == 0 and _names(plain) == set(PLAYERS)
    code, out = _run([*args, "--pseudonymize"])
    assert code == 0 and _names(out) == set()
    assert pseudonym("ann", KEY.encode()) in out


def test_pseudonymize_without_a_key_is_a_usage_error(audited: Store):
    code, out = _run(["findings", "--store", str(audited.root), "--pseudonymize"], key=None)
    assert code == 2 and "POKER_AUDIT_PSEUDONYM_KEY" in out and "Traceback" not in out


@pytest.mark.slow
def test_the_key_is_never_written_to_disk(audited: Store, tmp_path: Path):
    report = tmp_path / "report.html"
    exported = tmp_path / "hands.ohh"
    assert _run(["report", "--store", str(audited.root), "--out", str(report),
                 "--pseudonymize"])[0] == 0
    assert _run(["export", "p0", "--store", str(audited.root), "--format", "ohh", "--out",
                 str(exported), "--pseudonymize"])[0] == 0
    assert _run(["findings", "--store", str(audited.root), "--pseudonymize"])[0] == 0
    needles = (KEY.encode(), KEY.encode().hex().encode())
    for path in [*tmp_path.rglob("*")]:
        if path.is_file():
            data = path.read_bytes()
            assert not any(n in data for n in needles), path
    assert _names(report.read_text()) == set() and _names(exported.read_text()) == set()


# --- issue 19 item 3: every text column, by construction ------------------------------------


def test_findings_text_naming_another_player_is_pseudonymized(audited: Store):
    """The leak of issue 19: a finding whose expected / actual / message names a player who is
    neither its `player` nor its `counterparty` (`before seat 2 (p3_00076)`)."""
    from audit.rules.findings import finding, findings_table
    from audit.sql.roster import pseudonymize_store_table

    table = findings_table([finding(
        CHIP_SHORT_CALL, hand_id="p0", seq=7, seat=1, player="ann",
        expected="before seat 2 (bob)", actual="cat's turn",
        message="seat 1 (ann) acted before seat 2 (bob); cat and bob waited; announce it.",
    )], "run-1")
    out = pseudonymize_store_table(audited, table, KEY).to_pylist()[0]
    text = json.dumps(out)
    assert _names(text) == set(), text
    bob, cat = pseudonym("bob", KEY.encode()), pseudonym("cat", KEY.encode())
    assert out["expected"] == f"before seat 2 ({bob})" and out["actual"] == f"{cat}'s turn"
    assert "announce it" in out["message"]  # "ann" replaced only as a whole name
    assert out["hand_id"].startswith("hand-") and "p0" not in text


def test_redactor_replaces_hostile_names_and_ids_and_cuts_seconds():
    from audit.privacy import Redactor, Roster, hand_pseudonym, table_pseudonym

    players = ("Mr. X", "Zoë", "-dash-", "ann", "ann-b", "o'Brien")
    key = KEY.encode()
    redact = Redactor(key, Roster(players=frozenset(players), hands=frozenset({"ps:123"}),
                                  tables=frozenset({"T77 Table 9"})))
    text = ("seat 1 (Mr. X), Zoë's, -dash- and ann-b then ann; announce; in the previous deal "
            "(ps:123) at T77 Table 9 on 2026-03-02 10:00:37 UTC")
    out = redact.text(text)
    for p in players[:-1]:
        assert pseudonym(p, key) in out, p
    assert "Mr. X" not in out and "Zoë" not in out and "-dash-" not in out
    assert "o'Brien" not in redact.text("(o'Brien)")
    assert "then ann;" not in out and "ann-b" not in out and "; announce;" in out
    assert hand_pseudonym("ps:123", key) in out and "ps:123" not in out
    assert table_pseudonym("T77 Table 9", key) in out and "T77" not in out
    assert out.endswith("2026-03-02 10:00 UTC")
    # id columns are mapped whatever their value, even one missing from the roster
    assert redact.field("player", "not-in-roster") == pseudonym("not-in-roster", key)
    assert redact.field("hand_id", "ps:9") == hand_pseudonym("ps:9", key)
    # a player named like a card or an event kind: replaced in text, never in those columns
    odd = Redactor(key, Roster(players=frozenset({"As", "fold"})))
    assert odd.field("cards", "As Kd") == "As Kd" and odd.field("kind", "fold") == "fold"
    assert odd.field("message", "seat 2 (As) folds") == f"seat 2 ({pseudonym('As', key)}) folds"


def test_export_pseudonymize_drops_quasi_identifiers(audited: Store):
    """Site hand numbers, table names and the seconds of a time do not leave; nor does the
    file the hand came from."""
    from audit.privacy import pseudonymize_table

    events = pq.read_table(audited.event_files()[0])
    assert set(events.column("table_id").to_pylist()) == {"bench"}
    out = pseudonymize_table(events, KEY, roster=store_roster(audited))
    assert not set(out.column("hand_id").to_pylist()) & set(events.column("hand_id").to_pylist())
    assert all(t.startswith("table-") for t in out.column("table_id").to_pylist() if t)
    assert all(t is None or (t.second, t.microsecond) == (0, 0)
               for t in out.column("ts").to_pylist())
    assert out.column("source").null_count == out.num_rows
    code, text = _run(["export", "p0", "--store", str(audited.root), "--format", "phh",
                       "--pseudonymize"])
    assert code == 0 and '"p0"' not in text and "bench" not in text
    assert 'venue = "poker-audit"' in text and 'hand = "hand-' in text


@pytest.mark.slow
def test_report_pseudonymize_hides_names_quoted_in_quarantine_reasons(audited: Store,
                                                                      tmp_path: Path):
    """A rejected row's reason quotes hostile input ("got 'Quentin Qzz'"): a name that is in
    no event. The report keeps the count by reason under a keyed `reason-` pseudonym."""
    from audit.report.build import build_report

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"hand_id": "site:99", "seq": 0, "kind": "seat", "seat": 1,
                               "player": "Quentin Qzz", "amount": "Quentin Qzz"}) + "\n")
    ingest([bad], audited, fmt="events")
    assert "Quentin Qzz" in build_report(audited)
    html = build_report(audited, pseudonymize=True, key=KEY)
    assert "Quentin" not in html and "site:99" not in html
    assert re.search(r"<td>reason-[0-9a-f]{16}</td>", html)
    assert _names(html) == set() and "bench" not in html


@pytest.mark.parametrize("args", [["collusion", "--min-hands", "1"], ["export", "p0", "--format",
                                  "ohh"], ["report", "--out", "REPORT"]])
def test_every_pseudonymize_command_without_a_key_is_a_usage_error(audited: Store,
                                                                    tmp_path: Path,
                                                                    args: list[str]):
    args = [str(tmp_path / "r.html") if a == "REPORT" else a for a in args]
    before = sorted(p.relative_to(audited.root) for p in audited.root.rglob("*"))
    code, out = _run([*args, "--store", str(audited.root), "--pseudonymize"], key=None)
    assert code == 2 and "POKER_AUDIT_PSEUDONYM_KEY" in out and "Traceback" not in out
    # refused before any work: collusion records no findings, the report writes no file
    assert sorted(p.relative_to(audited.root) for p in audited.root.rglob("*")) == before
    assert not (tmp_path / "r.html").exists()
