"""Shared helpers for the issue-22 site reader tests (Winamax, Winning Poker Network): read a
fixture, group rows by hand, audit fixtures, fuzz a reader with mutated real hands."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from audit.errors import AuditInputError
from audit.importers.base import Importer, Rejected
from audit.importers.sitetext import decode_line, iter_lines
from audit.ingest.pipeline import ingest
from audit.ingest.validate import validate_events
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"


def read(importer: Importer, path: Path) -> tuple[dict[str, list[dict[str, Any]]],
                                                   list[Rejected]]:
    hands: dict[str, list[dict[str, Any]]] = {}
    rejected: list[Rejected] = []
    for chunk in importer.read(path):
        checked = validate_events(chunk.table, chunk.lines, str(path), "line")
        assert checked.rejected == [], [r.reason for r in checked.rejected]
        for row in chunk.table.to_pylist():
            hands.setdefault(row["hand_id"], []).append(row)
        rejected.extend(chunk.rejected)
    return hands, rejected


def kinds(rows: list[dict[str, Any]], kind: str, detail: str | None = None) -> list[tuple]:
    return [(r["seat"], r["amount"], r["cards"], r["detail"]) for r in rows
            if r["kind"] == kind and (detail is None or r["detail"] == detail)]


def warnings(tmp_path: Path, *names: str, profile: str | None = None) -> list[tuple]:
    """(hand, rule) of every finding of warning or worse on the fixtures, audited under the
    hand's own profile (by hand-id prefix) or `profile`."""
    store = Store(tmp_path / "store")
    ingest([SITES / n for n in names], store)
    audit_store(store, **({"profile": profile} if profile else {}))
    return sorted((r["hand_id"], r["rule_id"]) for r in read_findings(store).to_pylist()
                  if r["severity"] != "info")


def mutate(data: bytes, ops: list[tuple[int, str, bytes, int]]) -> bytes:
    """Lines deleted, duplicated, truncated, given garbage or their digits reversed."""
    lines = data.split(b"\n")
    for index, op, garbage, cut in ops:
        if not lines:
            break
        i = index % len(lines)
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines[i] = lines[i][: cut % (len(lines[i]) or 1)]
        elif op == "garbage":
            lines[i] = lines[i] + garbage
        else:
            lines[i] = re.sub(rb"[0-9]+", lambda m: m.group(0)[::-1], lines[i])
    return b"\n".join(lines)


def never_loses_a_hand(importer: Importer, path: Path, header: re.Pattern[str]) -> None:
    """Every hand header of the file is either a hand imported whole (its hand_started row) or
    a quarantined entry with a reason; nothing else is imported."""
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    rejected: list[Rejected] = []
    try:
        for chunk in importer.read(path):
            checked = validate_events(chunk.table, chunk.lines, str(path), "line")
            assert checked.rejected == [], [r.reason for r in checked.rejected]
            rows += chunk.table.to_pylist()
            lines += chunk.lines
            rejected += chunk.rejected
    except AuditInputError as exc:
        assert str(exc)
        return
    headers = {n for n, text in iter_lines(path) if header.match(decode_line(text.encode()))}
    started = {line for row, line in zip(rows, lines, strict=True)
               if row["kind"] == "hand_started"}
    accounted = started | {r.line for r in rejected if r.line is not None}
    assert headers <= accounted, f"hands lost silently at lines {sorted(headers - accounted)}"
    assert started <= headers
    for r in rejected:
        assert r.reason
    by_hand: dict[str, list[str]] = {}
    for row in rows:
        by_hand.setdefault(row["hand_id"], []).append(row["kind"])
    for hand, ks in by_hand.items():  # imported whole: started first, ended last
        assert ks[0] == "hand_started" and ks[-1] == "hand_ended", hand
