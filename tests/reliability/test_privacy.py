"""Privacy (issue 11): `--pseudonymize` on findings and exports (the report has it too)
replaces every player id by a keyed HMAC pseudonym; the key is never written to disk."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.faults import hands_table
from audit.ingest import ingest
from audit.report.pseudonym import pseudonym
from audit.run import audit_store
from audit.store import Store

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
