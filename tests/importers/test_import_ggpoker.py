"""GGPoker's grammar as its real files write it (issue 22): each fixture in
fixtures/sites/gg-*.txt is an excerpt copied as it is from ../shared/data/fpdb-dev/ggpoker (the
file named in each test), and each test states what the reader makes of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from audit.importers import detect_format
from audit.importers.ggpoker import _HEADER, GGPokerImporter
from audit.importers.pokerstars.importer import IMPORTER as STARS
from tests.importers.sitecheck import (
    SITES,
    mutated,
    never_crashes_never_loses_a_hand,
    ohh_round_trip,
    phh_round_trip,
    read,
    warnings,
)

ROOT = Path(__file__).resolve().parents[2]
GG = sorted(SITES.glob("gg-*.txt"))


def _read(name: str) -> tuple[dict[str, list[dict[str, Any]]], list[Any]]:
    hands, rejected, _ = read(GGPokerImporter(), SITES / name)
    return hands, rejected


def _rows(rows: list[dict[str, Any]], kind: str, detail: str | None = None) -> list[tuple]:
    return [(r["seat"], r["amount"], r["total"], r["cards"], r["detail"]) for r in rows
            if r["kind"] == kind and (detail is None or r["detail"] == detail)]


def test_gg_files_are_ggpoker_and_not_pokerstars() -> None:
    stars = sorted((ROOT / "fixtures" / "pokerstars").glob("*.txt"))
    for path in GG:
        assert detect_format(path) == "ggpoker", path.name
        assert not STARS.sniff(path.read_bytes()[:65536], path), path.name
    for path in stars:
        assert not GGPokerImporter().sniff(path.read_bytes()[:65536], path), path.name


def test_short_deck_button_blind_and_straddles_as_round_totals() -> None:
    # cash/Flop/NL-ShortDeck-5max-USD-0.2-202103.txt: `ShortDeck No Limit ($0.02)` is the ante
    # and the button blind; `straddle $0.08` is the straddler's round total
    hands, rejected = _read("gg-shortdeck-straddles.txt")
    assert rejected == [] and list(hands) == ["gg:SD27208838", "gg:SD27208832"]
    rows = hands["gg:SD27208838"]
    game = rows[0]["game"]
    assert (game["variant"], game["structure"], game["big_blind"], game["ante"],
            game["small_blind"], game["currency"]) == ("holdem_short", "no_limit", 2, 2, 0, "USD")
    assert _rows(rows, "post", "button_blind") == [(2, 2, 2, None, "button_blind")]
    assert _rows(rows, "post", "straddle") == [(2, 2, 4, None, "straddle"),
                                              (2, 4, 8, None, "straddle")]
    three = _rows(hands["gg:SD27208832"], "post", "straddle")
    assert [t[2] for t in three] == [4, 8, 16]


def test_straddles_audit_clean_under_ggpoker_and_are_flagged_by_the_book(tmp_path: Path
                                                                        ) -> None:
    names = ("gg-shortdeck-straddles.txt", "gg-plo5-over-straddle.txt")
    assert warnings(tmp_path / "gg", *names) == []  # the room's profile, chosen by prefix
    book = warnings(tmp_path / "book", *names, profile="montana")
    assert {rule for _, rule in book} == {"STRADDLE-BIGBET"}
    assert {h for h, _ in book} == {"gg:SD27208838", "gg:SD27208832", "gg:OM1410171"}


def test_an_all_in_re_straddle_and_its_return() -> None:
    # cash/Flop/PLO5-6max-USD-0.1-0.25-202104.over.straddle.txt
    hands, _ = _read("gg-plo5-over-straddle.txt")
    rows = hands["gg:OM1410171"]
    assert rows[0]["game"]["variant"] == "omaha5"
    assert _rows(rows, "post", "straddle") == [(3, 50, 50, None, "straddle"),
                                              (3, 1485, 1535, None, "straddle")]
    assert _rows(rows, "award") == [(3, 1510, None, None, "uncalled"),
                                    (3, 60, None, None, "main")]
    assert rows[-1]["detail"] == "total_pot=60"


def test_missed_blind_is_dead_and_the_second_big_blind_a_make_up() -> None:
    # cash/Flop/PLO-6max-USD-2-5-202101.RIT.txt: `posts missed blind $2`, `posts big blind $5`
    hands, _ = _read("gg-plo-rit-missed-blind.txt")
    rows = hands["gg:OM232657303"]
    posts = [(r["seat"], r["amount"], r["detail"]) for r in rows if r["kind"] == "post"]
    assert posts == [(1, 200, "small_blind"), (2, 500, "big_blind"), (4, 200, "dead"),
                     (4, 500, "missed_big")]


def test_run_it_twice_and_three_times() -> None:
    hands, _ = _read("gg-plo-rit-missed-blind.txt")
    rows = hands["gg:OM232657303"]
    boards = [(r["cards"], r["detail"]) for r in rows if r["kind"] == "deal" and r["seat"] is None]
    assert boards == [("2d 4h Ac", "board"), ("7h", "board"), ("Qs", "board"),
                      ("Td Qc 2c", "board@run2"), ("Kc", "board@run2"), ("Ah", "board@run2")]
    assert _rows(rows, "award") == [(1, 1600, None, None, "uncalled"),
                                    (4, 4893, None, None, "main"),
                                    (1, 4892, None, None, "main@run2")]
    assert _rows(rows, "rake") == [(None, 515, None, None, "rake")]
    hands, _ = _read("gg-plo-run-thrice.txt")
    rows = hands["gg:OM260919438"]
    runs = [(r["cards"], r["detail"]) for r in rows if r["detail"] in ("board@run2", "board@run3")]
    assert runs == [("4d", "board@run2"), ("Qs", "board@run2"), ("4s", "board@run3"),
                    ("Ts", "board@run3")]
    assert [t[4] for t in _rows(rows, "award")] == ["main", "main@run2", "main@run3"]
    assert _rows(rows, "rake") == [(None, 750, None, None, "rake"),
                                   (None, 500, None, None, "jackpot")]


def test_tournament_blinds_as_posted_when_the_header_level_differs() -> None:
    # tour/Flop/NLHE-8max-MTT-USD-250-202006.txt: `Level4 (90/180)` but 80/160 posted
    hands, _ = _read("gg-mtt-header-level-blinds.txt")
    rows = hands["gg:TM247774746"]
    game = rows[0]["game"]
    assert (game["small_blind"], game["big_blind"], game["ante"], game["level"],
            game["currency"], game["minor_per_unit"], game["tournament"]) == (
        80, 160, 25, 4, "CHIPS", 1, True)
    assert "header says 90/180" in rows[0]["source"]
    assert rows[0]["table_id"] == "5259595 6"


def test_omaha_nl_postflop_and_clean(tmp_path: Path) -> None:
    # tour/Flop/PLO-NLO-6max-MTT-USD-8.40-202104.KO.txt: `Omaha (NL postflop)`
    hands, _ = _read("gg-omaha-nl-postflop.txt")
    game = hands["gg:TM2697462"][0]["game"]
    assert (game["variant"], game["structure"], game["ante"]) == ("omaha", "no_limit", 350)
    assert warnings(tmp_path, "gg-omaha-nl-postflop.txt", "gg-shortdeck-rit.txt",
                     "gg-plo-rit-missed-blind.txt", "gg-plo-run-thrice.txt",
                     "gg-mtt-header-level-blinds.txt") == []


def test_every_event_names_its_file_and_line() -> None:
    hands, _ = _read("gg-shortdeck-rit.txt")
    for row in hands["gg:1171217378123557259"]:
        assert row["source"].startswith("ggpoker:gg-shortdeck-rit.txt:")


def test_a_hand_with_an_unknown_line_is_quarantined_whole(tmp_path: Path) -> None:
    text = (SITES / "gg-plo5-over-straddle.txt").read_text().replace(
        "Hero: folds", "Hero: juggles the chips")
    path = tmp_path / "x.txt"
    path.write_text(text + "\n" + (SITES / "gg-shortdeck-rit.txt").read_text())
    hands, rejected, _ = read(GGPokerImporter(), path)
    assert list(hands) == ["gg:1171217378123557259"]
    assert [r.hand_id for r in rejected] == ["gg:OM1410171"]
    assert "juggles" in rejected[0].reason and rejected[0].raw


@pytest.mark.parametrize("path", GG, ids=lambda p: p.name)
def test_round_trip_through_ohh_and_phh(path: Path, tmp_path: Path) -> None:
    hands, _, _ = read(GGPokerImporter(), path)
    assert ohh_round_trip(hands, tmp_path) == len(hands)
    phh_round_trip(hands, tmp_path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(data=mutated(GG))
def test_fuzz_never_crashes_never_loses_a_hand(data: bytes, tmp_path: Path) -> None:
    never_crashes_never_loses_a_hand(GGPokerImporter(), data, tmp_path / "mutated.txt", _HEADER)


def test_a_bomb_pot_is_quarantined_naming_it(tmp_path: Path) -> None:
    # no corpus hand holds one: the short-deck excerpt made into a hand with antes only and no
    # preflop action, the flop dealt to players with chips
    text = (SITES / "gg-shortdeck-rit.txt").read_text()
    head, _, _ = text.partition("*** HOLE CARDS ***")
    head = "\n".join(t for t in head.splitlines() if "button blind" not in t)
    path = tmp_path / "bomb.txt"
    path.write_text(head + "\n*** HOLE CARDS ***\n*** FLOP *** [Tc 8h Ah]\n*** SUMMARY ***\n"
                    "Total pot $300 | Rake $0\n")
    hands, rejected, _ = read(GGPokerImporter(), path)
    assert hands == {} and "bomb pot" in rejected[0].reason


def test_a_seat_never_dealt_to_is_sitting_out(tmp_path: Path) -> None:
    text = (SITES / "gg-shortdeck-rit.txt").read_text().replace(
        "Seat 4: 559023", "Seat 2: idle ($50 in chips)\nSeat 4: 559023")
    path = tmp_path / "idle.txt"
    path.write_text(text)
    hands, rejected, _ = read(GGPokerImporter(), path)
    rows = hands["gg:1171217378123557259"]
    assert rejected == [] and _rows(rows, "seat")[1] == (2, 5000, None, None, "sitting_out")
    assert all(r["seat"] != 2 for r in rows if r["kind"] == "deal")


def test_six_card_omaha_deals_six_unknown_cards_to_the_others(tmp_path: Path) -> None:
    # GG's PLO-6: a player whose cards are never shown is dealt six unknown cards, not two
    text = (SITES / "gg-plo-rit-missed-blind.txt").read_text(encoding="utf-8")
    text = text.replace("PLO ($2/$5)", "PLO-6 ($2/$5)").replace(
        "[Ad Jd Jc Ks]", "[Ad Jd Jc Ks 2c 3c]").replace("[5d 2s 5c 2h]", "[5d 2s 5c 2h 8c 9c]")
    path = tmp_path / "plo6.txt"
    path.write_text(text, encoding="utf-8")
    for fast in (True, False):
        hands, rejected = [], []
        for chunk in GGPokerImporter(fast=fast).read(path):
            hands += chunk.table.to_pylist()
            rejected += chunk.rejected
        assert rejected == []
        assert [(r["player"], r["cards"]) for r in hands if r["detail"] == "hole"][:3] == [
            ("Hero", "Ad Jd Jc Ks 2c 3c"), ("21e21aa8", "?? ?? ?? ?? ?? ??"),
            ("e0cf801d", "?? ?? ?? ?? ?? ??")]
