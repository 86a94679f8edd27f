"""Checks every site reader of issue 22 gets: the hands of a file, a round trip through the
OHH and PHH exports, and a hypothesis strategy of mutated real hands for the fuzz tests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from audit.errors import AuditInputError
from audit.export import export_hands
from audit.importers.base import Importer, Rejected
from audit.importers.ohh import OhhImporter
from audit.importers.phh import PhhImporter
from audit.importers.sitetext import decode_line
from audit.ingest.validate import validate_events
from audit.schema import events_table

Hands = dict[str, list[dict[str, Any]]]


def read(importer: Importer, path: Path) -> tuple[Hands, list[Rejected], list[int]]:
    """(hand_id -> rows, rejected, the line of each row) of a file, every chunk validated."""
    hands: Hands = {}
    rejected: list[Rejected] = []
    lines: list[int] = []
    for chunk in importer.read(path):
        checked = validate_events(chunk.table, chunk.lines, str(path), "line")
        assert checked.rejected == [], [r.reason for r in checked.rejected]
        for row in chunk.table.to_pylist():
            hands.setdefault(row["hand_id"], []).append(row)
        rejected.extend(chunk.rejected)
        lines.extend(chunk.lines)
    return hands, rejected, lines


def _bare(hands: Hands) -> Hands:
    return {h: [{k: v for k, v in r.items() if k != "source"} for r in rows]
            for h, rows in hands.items()}


def ohh_round_trip(hands: Hands, tmp_path: Path) -> int:
    """Export to OHH, read back: the same events (all but `source`); the hand count."""
    rows = [r for h in hands.values() for r in h]
    path = tmp_path / "export.ohh"
    path.write_text(export_hands(events_table(rows), "ohh"), encoding="utf-8")
    back, rejected, _ = read(OhhImporter(), path)
    assert rejected == []
    assert _bare(back) == _bare(hands)
    return len(back)


_PLAY = ("fold", "check", "call", "bet", "raise")


def _play(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The play PHH keeps: each player's forced bets in all (PHH writes one blind or straddle
    per seat), the actions in order, the boards."""
    posted: dict[str, int] = {}
    for r in rows:
        if r["kind"] == "post":
            posted[r["player"]] = posted.get(r["player"], 0) + (r["amount"] or 0)
    return [("posted", p, a) for p, a in sorted(posted.items())] + [
        (r["kind"], r["player"], r["amount"]) for r in rows if r["kind"] in _PLAY] + [
        ("board", r["cards"]) for r in rows if r["kind"] == "deal" and r["detail"] == "board"]


def phh_round_trip(hands: Hands, tmp_path: Path) -> int:
    """Export the hands PHH can hold to PHH, read back: the same hand ids, players, forced
    bets, actions and boards (PHH keeps no rake, pot labels or site flags; the hands count)."""
    rows = [r for h in hands.values() for r in h]
    kept: Hands = {}
    for hand_id, hand in hands.items():
        try:
            export_hands(events_table(hand), "phh")
        except AuditInputError:
            continue  # a game or event PHH has no form for (ExportError says which)
        kept[hand_id] = hand
    del rows
    if not kept:
        return 0
    path = tmp_path / "export.phhs"
    path.write_text(export_hands(events_table([r for h in kept.values() for r in h]), "phh"),
                    encoding="utf-8")
    back, rejected, _ = read(PhhImporter(), path)
    assert rejected == []
    assert sorted(back) == sorted(kept)
    for hand_id, hand in kept.items():
        assert _play(back[hand_id]) == _play(hand), hand_id
    return len(kept)


def header_lines(data: bytes, header: re.Pattern[str]) -> set[int]:
    """The lines of `data` where a hand starts (as the readers decode a line)."""
    return {n for n, raw in enumerate(data.split(b"\n"), start=1)
            if header.match(decode_line(raw).lstrip("\ufeff").rstrip())}


_GARBAGE = st.binary(min_size=1, max_size=12)


@st.composite
def mutated(draw: st.DrawFn, sources: list[Path]) -> bytes:
    """A real file with 1-4 lines deleted, duplicated, cut, garbled or digit-swapped."""
    path = draw(st.sampled_from(sources))
    lines = path.read_bytes().split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "truncate", "garbage", "swap"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]) - 1)))]
        elif op == "garbage":
            lines[i] = lines[i] + draw(_GARBAGE)
        else:
            lines[i] = re.sub(rb"[0-9]+", lambda m: m.group(0)[::-1], lines[i])
    return b"\n".join(lines)


def never_crashes_never_loses_a_hand(importer: Importer, data: bytes, path: Path,
                                     header: re.Pattern[str]) -> None:
    """Read mutated bytes: no exception but a whole-file refusal that says why, every hand
    header either imported (a hand_started on that line) or quarantined whole with a reason,
    and no hand half-imported (each imported hand starts with hand_started, ends with
    hand_ended, its seq contiguous)."""
    path.write_bytes(data)
    try:
        hands, rejected, lines = read(importer, path)
    except AuditInputError as exc:
        assert str(exc)
        return
    rows = [r for h in hands.values() for r in h]
    started = {line for row, line in zip(rows, lines, strict=True)
               if row["kind"] == "hand_started"}
    accounted = started | {r.line for r in rejected if r.line is not None}
    heads = header_lines(data, header)
    assert heads <= accounted, f"hands lost silently at lines {sorted(heads - accounted)}"
    for r in rejected:
        assert r.reason
    for hand in hands.values():
        assert hand[0]["kind"] == "hand_started" and hand[-1]["kind"] == "hand_ended"
        assert [r["seq"] for r in hand] == list(range(len(hand)))
