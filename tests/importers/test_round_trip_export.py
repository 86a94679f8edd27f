"""Issue 23 bug 5 (and issue 22's promise): `export --format ohh|phh` and back gives the same
events for every hand the simulator and the site readers produce, and a hand a format cannot
hold is skipped with its reason, never aborting the export.

"Identical" means every column of every event but `source` (where the re-import read it:
the export file and line) -- the hand id, seq, times, kinds, seats, names, amounts, totals,
cards, details and the game struct.  OHH says what its fields cannot in `x_poker_audit_*`
extensions; PHH in its user-defined `_poker_audit_*` fields, which our importer uses while the
standard fields carry the digest written with them.  Another PHH tool reads the standard
fields only: they say the play of the hand (`audit.importers.phh.phh_play`) for every hand
without an injected illegal amount."""

from __future__ import annotations

import tempfile
import tomllib
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.cli.main import main
from audit.export import export_each, to_phh
from audit.importers import detect_format, get_importer
from audit.importers.ohh import OhhImporter
from audit.importers.phh import PhhImporter, _map_hand, phh_play
from audit.schema import events_table
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

FPDB = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-dev"
REAL_STARS = Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars" / "real"
ROOMS = sorted(p.name for p in FPDB.iterdir() if p.is_dir()) if FPDB.exists() else []

Hands = dict[str, list[dict[str, Any]]]


def _same(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A hand's events as the round trip must keep them: every column but `source`."""
    return [{k: v for k, v in r.items() if k != "source"}
            for r in sorted(rows, key=lambda r: r["seq"])]


def _by_hand(rows: list[dict[str, Any]]) -> Hands:
    hands: Hands = defaultdict(list)
    for r in rows:
        hands[r["hand_id"]].append(r)
    return dict(hands)


def round_trip(hands: Hands, tmp: Path) -> dict[str, tuple[int, list[str]]]:
    """Export every hand in both formats and read the files back: per format, how many hands
    were written and the ids of those that came back different (must be none)."""
    table = events_table([r for rows in hands.values() for r in rows])
    out: dict[str, tuple[int, list[str]]] = {}
    for fmt, importer in (("ohh", OhhImporter()), ("phh", PhhImporter())):
        done = export_each(table, fmt)
        assert all(s.reason for s in done.skipped)
        path = tmp / f"export.{fmt}"
        path.write_text(done.text, encoding="utf-8")
        back: list[dict[str, Any]] = []
        for chunk in importer.read(path):
            assert chunk.rejected == [], [r.reason for r in chunk.rejected]
            back += chunk.table.to_pylist()
        again = _by_hand(back)
        written = set(hands) - {s.hand_id for s in done.skipped}
        assert set(again) == written
        out[fmt] = (done.written, [h for h in written if _same(hands[h]) != _same(again[h])])
    return out


def _simulated(tmp: Path, **kwargs: Any) -> tuple[Hands, set[str]]:
    out = tmp / "sim"
    simulate(out, **kwargs)
    store = Store(out)
    injected = set(pq.read_table(out / "labels.parquet").column("hand_id").to_pylist())
    return _by_hand(store.read_events().to_pylist()), injected


def test_thirty_simulated_tables_of_every_game_come_back_identical(tmp_path: Path) -> None:
    # Before the fix: 2,064 of 30,000 hold'em hands came back quarantined (a seat sitting out
    # written as a player, so the next small blind read as the big blind), and the first burn
    # aborted the whole export.
    hands, _ = _simulated(tmp_path, hands=600, seed=5, variant="all", structure="mixed",
                          tables=30, violations=0.2, tournament_share=0.4)
    result = round_trip(hands, tmp_path)
    assert result["ohh"][1] == [] and result["phh"][1] == []
    assert result["ohh"][0] >= 100 and result["phh"][0] >= 200


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000),
       variant=st.sampled_from(["holdem", "omaha", "omaha_hilo", "mixed", "all", "stud",
                                "razz", "badugi", "lowball_27_triple"]),
       structure=st.sampled_from(["no_limit", "pot_limit", "fixed_limit", "mixed"]),
       violations=st.sampled_from([0.0, 0.5]), tournament_share=st.sampled_from([0.0, 1.0]))
@pytest.mark.slow
def test_any_simulated_hand_comes_back_identical(seed: int, variant: str, structure: str,
                                                 violations: float,
                                                 tournament_share: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            hands, injected = _simulated(Path(tmp), hands=60, seed=seed, variant=variant,
                                         structure=structure, tables=6, violations=violations,
                                         tournament_share=tournament_share)
        except Exception as exc:  # a game the structure does not exist in (stud pot limit)
            if "structure" in str(exc) or "variant" in str(exc):
                return
            raise
        result = round_trip(hands, Path(tmp))
        assert result["ohh"][1] == [] and result["phh"][1] == []
        for hand_id, rows in hands.items():
            if hand_id not in injected:
                _standard_fields_say_the_play(rows)


def _short_bring_in(rows: list[dict[str, Any]]) -> bool:
    """A bring-in posted all in for less than the game's: PHH's calls carry no amount, and
    the level the next players call (the short post, or the full bring-in, as our simulator
    deals it) is not in the standard fields (a known limit; the exact events ride
    in the `_poker_audit_*` fields)."""
    full = (rows[0].get("game") or {}).get("bring_in") or 0
    return any(r["kind"] == "post" and r.get("detail") == "bring_in" and r["amount"] < full
               for r in rows)


def _standard_fields_say_the_play(rows: list[dict[str, Any]]) -> None:
    """What another PHH tool reads: the standard fields alone give the same play."""
    if _short_bring_in(rows):
        return
    try:
        text = to_phh(rows)
    except Exception:  # noqa: BLE001 - skipped by the export, with its reason
        return
    fields = {k: v for k, v in tomllib.loads(text, parse_float=Decimal).items()
              if not k.startswith("_")}
    standard, _ = _map_hand(fields, hand_key="k", source="s")
    assert phh_play(standard) == phh_play(rows), rows[0]["hand_id"]


def test_a_clean_hand_is_said_by_phh_standard_fields_alone(tmp_path: Path) -> None:
    hands, injected = _simulated(tmp_path, hands=300, seed=9, variant="mixed",
                                 structure="mixed", tables=6)
    assert not injected
    for rows in hands.values():
        _standard_fields_say_the_play(rows)


def test_a_phh_hand_edited_by_hand_is_read_from_its_standard_fields(tmp_path: Path) -> None:
    hands, _ = _simulated(tmp_path, hands=20, seed=1, tables=1)
    rows = next(iter(hands.values()))
    text = to_phh(rows)
    edited = text.replace('variant = "NT"', 'variant = "NT"\nplayers_note = "edited"', 1)
    path = tmp_path / "edited.phh"
    path.write_text(edited, encoding="utf-8")
    back = [r for chunk in PhhImporter().read(path) for r in chunk.table.to_pylist()]
    assert all("_poker_audit_events ignored" in r["source"] for r in back)
    assert phh_play(back) == phh_play(rows)
    path.write_text(text, encoding="utf-8")
    again = [r for chunk in PhhImporter().read(path) for r in chunk.table.to_pylist()]
    assert _same(again) == _same(rows)
    assert {r["source"] for r in again} != {r["source"] for r in rows}  # source is not kept


def _room_hands(room: str) -> Hands:
    """Every hand of a room's files (a hand in two overlapping files: its first file's)."""
    hands: Hands = {}
    for path in sorted((FPDB / room).rglob("*")):
        if not path.is_file():
            continue
        try:
            importer = get_importer(detect_format(path))
        except Exception:  # noqa: BLE001 - a file no reader takes (the README lists them)
            continue
        rows = [r for chunk in importer.read(path) for r in chunk.table.to_pylist()]
        for hand_id, hand in _by_hand(rows).items():
            hands.setdefault(hand_id, hand)
    return hands


@pytest.mark.slow
@pytest.mark.skipif(not ROOMS, reason="../shared/data/fpdb-dev missing")
@pytest.mark.parametrize("room", ROOMS)
def test_every_real_hand_of_a_room_comes_back_identical(room: str, tmp_path: Path) -> None:
    hands = _room_hands(room)
    assert hands
    result = round_trip(hands, tmp_path)
    assert result["ohh"][1] == [] and result["phh"][1] == []
    assert result["ohh"][0] + result["phh"][0] > 0


def test_export_skips_what_the_format_cannot_hold_and_says_why(tmp_path: Path) -> None:
    # Before: one hand with no PHH code aborted the export, nothing written, exit 2.
    store = tmp_path / "store"
    simulate(store, hands=24, seed=2, variant="all", tables=8)
    hands = _by_hand(Store(store).read_events().to_pylist())
    ids = list(hands)[:8]
    out = tmp_path / "x.phhs"
    result = CliRunner().invoke(main, ["export", *ids, "--store", str(store), "--format", "phh",
                                      "--out", str(out)])
    assert result.exit_code == 1, result.output
    skipped = [line for line in result.stderr.splitlines() if line.startswith("skipped ")]
    variants = {h: hands[h][0]["game"]["variant"] for h in ids}
    no_code = [h for h in ids if variants[h] in ("stud5", "draw_high", "lowball_a5",
                                                  "jacks_or_better", "mississippi")]
    assert no_code and len(skipped) >= len(no_code)
    assert all(any(line.startswith(f"skipped {h}: ") and "no PHH variant code" in line
                   for line in skipped) for h in no_code)
    back = [r for chunk in PhhImporter().read(out) for r in chunk.table.to_pylist()]
    assert len(_by_hand(back)) == len(ids) - len(skipped) > 0


@pytest.mark.parametrize("name", ["rio-splash-the-pot.txt", "rio-splash-the-pot-side-pot.txt"])
def test_money_the_room_adds_comes_back_identical(tmp_path: Path, name: str) -> None:
    # a `pot_added` (Run It Once's Splash the Pot) has no action in OHH or PHH: it travels as
    # the formats' poker-audit extension event and comes back where it was
    rows: list[dict[str, Any]] = []
    for chunk in get_importer("pokerstars").read(REAL_STARS / name):
        rows += chunk.table.to_pylist()
    assert any(r["kind"] == "pot_added" for r in rows)
    assert round_trip(_by_hand(rows), tmp_path) == {"ohh": (1, []), "phh": (1, [])}


def test_split_hold_em_comes_back_from_ohh_and_phh_says_it_cannot_hold_it(tmp_path: Path
                                                                          ) -> None:
    # OHH names no split hold'em: Holdem with the variant in x_poker_audit_game and the second
    # board as the extension deal of a run-it-twice; PHH has no code for it and skips it
    rows: list[dict[str, Any]] = []
    for chunk in get_importer("pokerstars").read(REAL_STARS / "split-holdem.txt"):
        rows += chunk.table.to_pylist()
    assert round_trip(_by_hand(rows), tmp_path) == {"ohh": (1, []), "phh": (0, [])}
    skipped = export_each(events_table(rows), "phh").skipped
    assert [s.reason for s in skipped] == [
        "holdem_split no_limit has no PHH variant code here (NT, FT, PO, FO/8, F7S, F7S/8, FR, "
        "N2L1D, F2L3D, FB, NS)"]
