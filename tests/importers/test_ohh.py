"""OHH import (hand-written fixtures) and the OHH / PHH exporters (round trips on real hands)."""

from __future__ import annotations

import json
import warnings
from collections import defaultdict
from decimal import Decimal
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from audit.errors import AuditInputError
from audit.export import export_hands, ohh_json, to_ohh, to_phh
from audit.importers import detect_format
from audit.importers.base import Rejected
from audit.importers.ohh import OhhImporter
from audit.importers.phh import PhhImporter
from audit.ingest.validate import validate_events
from audit.schema import events_table

ROOT = Path(__file__).resolve().parents[2]
OHH_FIXTURES = ROOT / "fixtures" / "ohh"
PHH_FIXTURES = sorted((ROOT / "fixtures" / "phh").glob("*.phh*"))
HANDHQ = ROOT.parent / "shared" / "data" / "handhq"


def _read(importer: Any, path: Path) -> tuple[list[dict[str, Any]], list[Rejected]]:
    rows: list[dict[str, Any]] = []
    rejected: list[Rejected] = []
    for chunk in importer.read(path):
        checked = validate_events(chunk.table, chunk.lines, str(path), "line")
        assert checked.rejected == [], [r.reason for r in checked.rejected]
        rows += chunk.table.to_pylist()
        rejected += chunk.rejected
    return rows, rejected


def _hands(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        out[r["hand_id"]].append({k: v for k, v in r.items() if k != "source"})
    return out


def test_ohh_fixtures_import() -> None:
    path = OHH_FIXTURES / "hands.ohh"
    assert detect_format(path) == "ohh"
    rows, rejected = _read(OhhImporter(), path)
    hands = _hands(rows)
    assert list(hands) == ["ohh:example-site:777", "ohh:example-site:778"]
    first = hands["ohh:example-site:777"]
    game = first[0]["game"]
    assert (game["variant"], game["structure"], game["small_blind"], game["big_blind"],
            game["button_seat"], game["currency"], game["minor_per_unit"]) == (
        "holdem", "no_limit", 50, 100, 3, "USD", 100)
    assert str(first[0]["ts"]) == "2024-03-01 12:00:00+00:00"
    compact = [(r["kind"], r["seat"], r["amount"], r["total"], r["detail"]) for r in first
               if r["kind"] in ("raise", "call", "bet", "award", "rake")]
    assert compact == [
        ("raise", 3, 300, 300, None), ("call", 1, 250, 300, None),  # Raise amount = added
        ("bet", 1, 400, 400, None), ("raise", 3, 1200, 1200, None), ("call", 1, 800, 1200, None),
        ("bet", 1, 6500, 6500, None), ("call", 3, 6500, 6500, "all_in"),
        ("award", 1, 15950, None, "main"), ("rake", None, 150, None, "rake")]
    put_in = sum(r["amount"] for r in first if r["kind"] in ("post", "call", "bet", "raise"))
    assert put_in == 15950 + 150
    second = hands["ohh:example-site:778"]
    assert second[0]["game"]["small_bet"] == 20 and second[0]["game"]["big_bet"] == 40
    assert [r["cards"] for r in second if r["kind"] == "deal" and r["detail"] == "hole"] == [
        "Ah 2h Kc Qd", "3c 4c Js Jd"]
    assert [(r.line, r.hand_id) for r in rejected] == [(3, "ohh:?:779"), (4, "ohh:?:780")]
    assert "unknown OHH action 'Dances'" in rejected[0].reason
    assert "JSON syntax error" in rejected[1].reason


def test_ohh_json_writes_exact_decimals() -> None:
    text = ohh_json({"ohh": {"a": Decimal("0.10"), "b": Decimal("1234567890123.45"), "c": 3}})
    assert text == '{"ohh":{"a":0.10,"b":1234567890123.45,"c":3}}'
    assert json.loads(text, parse_float=Decimal)["ohh"]["b"] == Decimal("1234567890123.45")


def _round_trip(rows: list[dict[str, Any]], tmp_path: Path) -> dict[str, tuple[int, int]]:
    """Export every hand to OHH and PHH, re-import, count (hands, mismatches) per format."""
    table = events_table(rows)
    original = _hands(rows)
    out: dict[str, tuple[int, int]] = {}
    for fmt, importer, suffix in (("ohh", OhhImporter(), ".ohh"), ("phh", PhhImporter(), ".phhs")):
        path = tmp_path / f"export{suffix}"
        path.write_text(export_hands(table, fmt), encoding="utf-8")
        back, rejected = _read(importer, path)
        assert rejected == []
        again = _hands(back)
        bad = [h for h in original if original[h] != again.get(h)]
        out[fmt] = (len(original), len(bad))
        assert bad == [], f"{fmt}: {bad[:3]}"
    return out


@pytest.mark.parametrize("path", PHH_FIXTURES, ids=lambda p: p.name)
def test_round_trip_phh_fixtures(path: Path, tmp_path: Path) -> None:
    rows, _ = _read(PhhImporter(), path)
    counts = _round_trip(rows, tmp_path)
    assert counts["ohh"][0] >= 1


@pytest.mark.skipif(not HANDHQ.exists(), reason="../shared/data/handhq missing")
@pytest.mark.parametrize("name", sorted(p.name for p in HANDHQ.glob("*.phhs"))
                         if HANDHQ.exists() else [])
def test_round_trip_handhq(name: str, tmp_path: Path) -> None:
    rows, _ = _read(PhhImporter(), HANDHQ / name)
    if name == "ps-50nl-1231.phhs":  # at least its first 120 hands (all are fast enough)
        assert len(_hands(rows)) >= 120
    counts = _round_trip(rows, tmp_path)
    assert counts["ohh"] == counts["phh"] == (len(_hands(rows)), 0)


def test_phh_export_heads_up_and_hand_id(tmp_path: Path) -> None:
    path = HANDHQ / "ps-50nl-1231.phhs"
    if not path.exists():
        pytest.skip("handhq missing")
    rows, _ = _read(PhhImporter(), path)
    hands = list(_hands(rows).values())
    heads_up = next(h for h in islice(hands, 2000) if sum(r["kind"] == "seat" for r in h) == 2)
    text = to_phh(heads_up)
    # PHH's user-defined fields start with an underscore (PokerKit warns on any other name)
    assert "\n_poker_audit_hand_id = " in text and "x_poker_audit" not in text
    assert "time_zone = 'UTC'" in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pokerkit = pytest.importorskip("pokerkit")
        pokerkit.HandHistory.loads(text)
    older = text.replace("\n_poker_audit_hand_id = ", "\nx_poker_audit_hand_id = ")
    older_path = tmp_path / "older.phh"
    older_path.write_text(older, encoding="utf-8")
    reread, _ = _read(PhhImporter(), older_path)
    assert reread[0]["hand_id"] == heads_up[0]["hand_id"]  # exports of earlier versions still read
    doc = to_ohh(heads_up)["ohh"]
    assert doc["x_poker_audit_hand_id"] == heads_up[0]["hand_id"]
    assert doc["dealer_seat"] == heads_up[0]["game"]["button_seat"]


def test_export_refuses_what_the_format_cannot_hold() -> None:
    rows = [{"hand_id": "x:1", "seq": 0, "kind": "hand_started",
             "game": {"variant": "stud5", "structure": "fixed_limit"}}]
    with pytest.raises(AuditInputError, match="no OHH game_type"):
        to_ohh(rows)
    with pytest.raises(AuditInputError, match="no PHH variant"):
        to_phh(rows)
    with pytest.raises(AuditInputError, match="unknown export format"):
        export_hands(events_table(rows), "xml")


def test_amount_past_64_bits_quarantines_that_hand_only(tmp_path: Path) -> None:
    # An amount no int64 holds used to fail the whole file with a traceback.
    source = Path(__file__).resolve().parents[2] / "fixtures" / "ohh" / "hands.ohh"
    lines = source.read_text(encoding="utf-8").splitlines()
    hand = json.loads(lines[0])
    hand["ohh"]["players"][0]["starting_stack"] = 99999999999999999999
    path = tmp_path / "big.ohh"
    path.write_text("\n".join([json.dumps(hand), *lines[1:]]) + "\n", encoding="utf-8")
    chunks = list(OhhImporter().read(path))
    fit = [r for r in chunks[0].rejected if "does not fit the event schema" in r.reason]
    assert [(r.line, bool(r.raw)) for r in fit] == [(1, True)]
    ids = set(chunks[0].table.column("hand_id").to_pylist())
    assert ids and not any(i.endswith(":777") for i in ids)
