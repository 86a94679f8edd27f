"""Checks every site reader gets (issue 22 and the older Full Tilt / Party / iPoker readers):
the hands of a file, a round trip through the OHH and PHH exports, the audit of fixtures, and
the fuzz harness (real files mutated line by line, read without a crash or a lost hand)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from audit.errors import AuditInputError
from audit.export import export_hands
from audit.importers.base import Importer, Rejected
from audit.importers.ohh import OhhImporter
from audit.importers.phh import PhhImporter
from audit.importers.sitetext import decode_line, iter_lines
from audit.ingest.pipeline import ingest
from audit.ingest.validate import validate_events
from audit.run.runner import audit_store, read_findings
from audit.schema import events_table
from audit.store.dataset import Store

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"

Hands = dict[str, list[dict[str, Any]]]


def read_rows(importer: Importer, path: Path, *, validate: bool = True
              ) -> tuple[list[dict[str, Any]], list[int], list[Rejected]]:
    """(rows, the line of each row, rejected) of a file, every chunk validated (unless not
    `validate`)."""
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    rejected: list[Rejected] = []
    for chunk in importer.read(path):
        if validate:
            checked = validate_events(chunk.table, chunk.lines, str(path), "line")
            assert checked.rejected == [], [r.reason for r in checked.rejected]
        rows += chunk.table.to_pylist()
        lines += chunk.lines
        rejected += chunk.rejected
    return rows, lines, rejected


def read(importer: Importer, path: Path, *, validate: bool = True
         ) -> tuple[Hands, list[Rejected], list[int]]:
    """(hand_id -> rows, rejected, the line of each row) of a file, every chunk validated
    (unless not `validate`)."""
    rows, lines, rejected = read_rows(importer, path, validate=validate)
    hands: Hands = {}
    for row in rows:
        hands.setdefault(row["hand_id"], []).append(row)
    return hands, rejected, lines


def kinds(rows: list[dict[str, Any]], kind: str, detail: str | None = None) -> list[tuple]:
    return [(r["seat"], r["amount"], r["cards"], r["detail"]) for r in rows
            if r["kind"] == kind and (detail is None or r["detail"] == detail)]


def rows_of(rows: list[dict[str, Any]], *kinds: str) -> list[tuple]:
    """(kind, seat, amount, total, cards, detail) of the rows of these kinds."""
    return [(r["kind"], r["seat"], r["amount"], r["total"], r["cards"], r["detail"])
            for r in rows if r["kind"] in kinds]


def findings(tmp_path: Path, *names: str, profile: str | None = None) -> list[tuple]:
    """(hand, rule, severity) of every finding on the fixtures, audited under the hand's own
    profile (by hand-id prefix) or `profile`."""
    store = Store(tmp_path / "store")
    ingest([SITES / n for n in names], store)
    audit_store(store, **({"profile": profile} if profile else {}))
    return [(r["hand_id"], r["rule_id"], r["severity"])
            for r in read_findings(store).to_pylist()]


def warnings(tmp_path: Path, *names: str, profile: str | None = None) -> list[tuple]:
    """(hand, rule) of every finding of warning or worse, sorted (see `findings`)."""
    return sorted((hand, rule) for hand, rule, severity
                  in findings(tmp_path, *names, profile=profile) if severity != "info")


# --- round trips through the exports ------------------------------------------------------

def _bare(hands: Hands) -> Hands:
    return {h: [{k: v for k, v in r.items() if k != "source"} for r in rows]
            for h, rows in hands.items()}


def ohh_round_trip(hands: Hands, tmp_path: Path, *, validate: bool = True) -> int:
    """Export to OHH, read back (`validate`d): the same events (all but `source`); the hand
    count."""
    rows = [r for h in hands.values() for r in h]
    path = tmp_path / "export.ohh"
    path.write_text(export_hands(events_table(rows), "ohh"), encoding="utf-8")
    back, rejected, _ = read(OhhImporter(), path, validate=validate)
    assert rejected == []
    assert _bare(back) == _bare(hands)
    return len(back)


_PLAY = ("fold", "check", "call", "bet", "raise", "complete")


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


def exportable(hands: Hands, fmt: str) -> Hands:
    """The hands the format has a form for (the ExportError of the others says why not)."""
    kept: Hands = {}
    for hand_id, hand in hands.items():
        try:
            export_hands(events_table(hand), fmt)
        except AuditInputError:
            continue
        kept[hand_id] = hand
    return kept


def phh_round_trip(hands: Hands, tmp_path: Path, *, validate: bool = True) -> int:
    """Export the hands PHH can hold to PHH, read back (`validate`d): the same hand ids,
    players, forced bets, actions and boards (PHH keeps no rake, pot labels or site flags;
    the hands count)."""
    kept = exportable(hands, "phh")
    if not kept:
        return 0
    path = tmp_path / "export.phhs"
    path.write_text(export_hands(events_table([r for h in kept.values() for r in h]), "phh"),
                    encoding="utf-8")
    back, rejected, _ = read(PhhImporter(), path, validate=validate)
    assert rejected == []
    back = {h.removeprefix("phh:"): rows for h, rows in back.items()}
    assert sorted(back) == sorted(kept)
    for hand_id, hand in kept.items():
        assert _play(back[hand_id]) == _play(hand), hand_id
    return len(kept)


def round_trip(hands: Hands, tmp_path: Path) -> tuple[int, int]:
    """Each hand the format can hold through OHH (the same events but `source`) and through
    PHH (the same play), read back unvalidated: (hands through OHH, through PHH)."""
    through_ohh = exportable(hands, "ohh")
    if through_ohh:
        ohh_round_trip(through_ohh, tmp_path, validate=False)
    return len(through_ohh), phh_round_trip(hands, tmp_path, validate=False)


# --- fuzz: mutated real hands never crash the reader, never lose a hand -------------------

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


# what `mutate` is given: 1-4 (line index, operation, garbage, cut)
MUTATIONS = st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(
    ["delete", "duplicate", "truncate", "garbage", "swap"]), st.binary(max_size=12),
    st.integers(0, 200)), min_size=1, max_size=4)
_GARBAGE = st.binary(min_size=1, max_size=12)


@st.composite
def mutated_lines(draw: st.DrawFn, data: bytes) -> bytes:
    """`data` with 1-4 lines deleted, duplicated, cut, garbled or digit-swapped."""
    lines = data.split(b"\n")
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


@st.composite
def mutated(draw: st.DrawFn, sources: list[Path]) -> bytes:
    """A real file with 1-4 lines deleted, duplicated, cut, garbled or digit-swapped."""
    path = draw(st.sampled_from(sources))
    return draw(mutated_lines(path.read_bytes()))


def header_lines(data: bytes, header: re.Pattern[str], *, strip: bool = True) -> set[int]:
    """The lines of `data` where a hand starts (as the readers decode a line; `strip`: less a
    byte-order mark and trailing space)."""
    return {n for n, raw in enumerate(data.split(b"\n"), start=1)
            if header.match(decode_line(raw).lstrip("\ufeff").rstrip() if strip
                            else decode_line(raw))}


def loses_no_hand(importer: Importer, path: Path, headers: Callable[[], Iterable[int]], *,
                  exact: bool = False, seq: bool = True) -> None:
    """Read `path`: no exception but a whole-file refusal that says why, every hand header
    (the lines `headers()` gives, asked once the file is read) either imported (a
    hand_started on that line) or quarantined whole with a reason, and no hand half-imported
    (each imported hand starts with hand_started, ends with hand_ended; with `seq` its seq
    contiguous). With `exact` no hand starts on a
    line outside them."""
    try:
        rows, lines, rejected = read_rows(importer, path)
    except AuditInputError as exc:
        assert str(exc)
        return
    started = {line for row, line in zip(rows, lines, strict=True)
               if row["kind"] == "hand_started"}
    accounted = started | {r.line for r in rejected if r.line is not None}
    heads = set(headers())
    assert heads <= accounted, f"hands lost silently at lines {sorted(heads - accounted)}"
    if exact:
        assert started <= heads
    for r in rejected:
        assert r.reason
    by_hand: Hands = {}
    for row in rows:
        by_hand.setdefault(row["hand_id"], []).append(row)
    for hand_id, hand in by_hand.items():
        assert hand[0]["kind"] == "hand_started" and hand[-1]["kind"] == "hand_ended", hand_id
        if seq:
            assert [r["seq"] for r in hand] == list(range(len(hand))), hand_id


def never_crashes_never_loses_a_hand(importer: Importer, data: bytes, path: Path,
                                     header: re.Pattern[str], *, strip: bool = True,
                                     exact: bool = False) -> None:
    """Write mutated bytes to `path` and read them: see `loses_no_hand` (the hand headers by
    `header_lines`)."""
    path.write_bytes(data)
    loses_no_hand(importer, path, lambda: header_lines(data, header, strip=strip), exact=exact)


def never_loses_a_hand(importer: Importer, path: Path, header: re.Pattern[str]) -> None:
    """Every hand header of the file (its lines as the readers split them) is either a hand
    imported whole (its hand_started row) or a quarantined entry with a reason; nothing else
    is imported."""
    loses_no_hand(importer, path,
                  lambda: [n for n, text in iter_lines(path)
                           if header.match(decode_line(text.encode()))],
                  exact=True, seq=False)
