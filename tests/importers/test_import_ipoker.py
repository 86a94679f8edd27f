"""iPoker XML as the real clients wrote it (excerpts of the fpdb regression files in
fixtures/sites/ipoker-*.xml, copied as they are): tournaments, stud, localized game types,
an account currency that is not the table's, second blinds, a dead button, a gamecode used
twice, and the order of play taken from the actions' `no`, not from the document."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from audit.importers import detect_format
from audit.importers.base import Chunk, Rejected
from audit.importers.ipoker import IPokerImporter
from audit.ingest.pipeline import ingest
from audit.ingest.validate import validate_events
from audit.replay import hand_from_rows, replay_hand
from audit.rules.profiles import load_profile
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store
from tests.support.importing import by_hand, read_all

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
FIXTURES = sorted(SITES.glob("ipoker-*.xml"))


def _read(name: str) -> tuple[dict[str, list[dict[str, Any]]], list[Rejected]]:
    path = SITES / name

    def check(chunk: Chunk) -> None:
        assert validate_events(chunk.table, chunk.lines, str(path), "line").rejected == []

    rows, _, rejected = read_all(IPokerImporter(), path, check)
    return by_hand(rows), rejected


def _acts(hand: list[dict[str, Any]], *kinds: str) -> list[tuple[Any, ...]]:
    return [(r["kind"], r["seat"], r["amount"], r["total"], r["detail"]) for r in hand
            if r["kind"] in kinds]


def test_a_tournament_reads_its_stakes_from_the_blinds_and_counts_chips_in_hundredths() -> None:
    hands, rejected = _read("ipoker-mtt-nlhe.xml")
    assert rejected == []
    # <gametype>Holdem NL</gametype> states no stakes; '24,172.50' chips are real
    hand = hands["ipoker:3869492660"]
    game = hand[0]["game"]
    assert (game["tournament"], game["currency"], game["minor_per_unit"]) == (True, "CHIPS", 100)
    assert (game["small_blind"], game["big_blind"], game["ante"]) == (10000, 20000, 2500)
    assert "stakes=read from the blinds posted" in hand[0]["source"]
    seat3 = next(r for r in hand if r["kind"] == "seat" and r["seat"] == 3)
    assert seat3["amount"] == 2417250


def test_no_dealer_flag_puts_the_button_on_the_empty_seat_right_of_the_small_blind() -> None:
    hands, _ = _read("ipoker-mtt-nlhe.xml")
    hand = hands["ipoker:3869492660"]
    # seats 7 and 9 are taken, 8 is empty; Hero (seat 9) posts the small blind
    assert hand[0]["game"]["button_seat"] == 8
    assert "read from the small blind" in hand[0]["source"]


def test_a_gamecode_used_for_two_different_games_keeps_both() -> None:
    hands, _ = _read("ipoker-mtt-nlhe.xml")
    first, second = hands["ipoker:3869401800"], hands["ipoker:3869401800#2"]
    assert first[0]["ts"] != second[0]["ts"]


def test_actions_follow_their_number_and_second_blinds_are_new_player_and_dead() -> None:
    hands, rejected = _read("ipoker-lhe-10max.xml")
    hand = hands["ipoker:2855477956"]
    # Player7 (seat 8) posts $0.15 as a big blind: a live big blind and a dead small one
    assert _acts(hand, "post") == [
        ("post", 1, 5, 5, "small_blind"), ("post", 2, 10, 10, "big_blind"),
        ("post", 8, 10, 10, "new_player"), ("post", 8, 5, None, "dead")]
    # the document lists each player's actions together; the play is by `no`
    order = [(r["kind"], r["seat"]) for r in hand if r["kind"] in ("fold", "call", "raise")]
    assert order[:4] == [("fold", 3), ("raise", 4), ("call", 5), ("fold", 6)]
    # the empty seat 6 (name "", no chips) of the first game is no player
    first = hands["ipoker:2855468557"]
    assert 6 not in {r["seat"] for r in first if r["kind"] == "seat"}
    assert rejected == []


def _replay(hand: list[dict[str, Any]], profile: str) -> tuple[list[str], dict[int, int]]:
    result = replay_hand(hand_from_rows(hand), load_profile(profile))
    paid: dict[int, int] = {}
    for r in hand:
        if r["kind"] == "award":
            paid[r["seat"]] = paid.get(r["seat"], 0) + r["amount"]
    return [f.rule_id for f in result.findings if f.severity != "info"], paid


def test_an_all_in_under_disconnection_protection_keeps_him_in_for_what_he_put_in() -> None:
    hands, _ = _read("ipoker-lhe-10max.xml")
    hand = hands["ipoker:2855472319"]
    # Player7 (seat 8) raised to $0.20, faces $0.30 and is all-in 'DP' (type 7, sum "DP"):
    # no chips move; he stays in for his $0.20, his $2.09 behind out of play
    protected = [(r["seat"], r["player"]) for r in hand
                 if r["kind"] == "annotation" and r["detail"] == "all_in_protection"]
    assert protected == [(8, "Player7")]
    assert [r for r in hand if r["seat"] == 8 and r["kind"] in ("call", "fold", "raise")][
        -1]["kind"] == "raise"
    # iPoker's house rule: his $0.75 main pot ($0.72 after rake) with a pair of jacks, the
    # others' $0.20 over it and Player4's uncalled $0.20 to Player4 ($0.39 after rake)
    found, paid = _replay(hand, "ipoker")
    assert (found, paid) == ([], {4: 39, 8: 72})


def test_a_protected_player_paid_more_than_his_pot_is_flagged() -> None:
    hands, _ = _read("ipoker-lhe-10max.xml")
    hand = [dict(r) for r in hands["ipoker:2855472319"]]
    for r in hand:  # the side pot he put nothing into, paid to him instead of Player4
        if r["kind"] == "award":
            r["amount"] = {4: 19, 8: 92}[r["seat"]]
    found, _ = _replay(hand, "ipoker")
    assert found == ["POT-SIDEPOT-BUILD", "POT-SIDEPOT-BUILD"]
    # by the book (no protection) he failed to act: the hand is not clean either
    assert _replay(hands["ipoker:2855472319"], "montana")[0] != []


def test_stud_tournament_events_and_limits_from_the_betting() -> None:
    hands, rejected = _read("ipoker-stud-tourney.xml")
    assert rejected == []
    assert len(hands) == 6
    hand = hands["ipoker:4044858766"]
    game = hand[0]["game"]
    assert (game["variant"], game["structure"], game["button_seat"]) == (
        "stud", "fixed_limit", None)
    # ante 8, bring-in 15, completed to 60: limits 60/120
    assert (game["ante"], game["bring_in"], game["small_bet"], game["big_bet"]) == (
        800, 1500, 6000, 12000)
    assert _acts(hand, "complete", "post")[-2:] == [
        ("post", 10, 1500, 1500, "bring_in"), ("complete", 1, 6000, 6000, None)]
    deals = [(r["seat"], r["cards"], r["detail"]) for r in hand
             if r["kind"] == "deal" and r["seat"] == 4]
    assert deals == [(4, "2d 4h", "down"), (4, "8h", "up")]  # the hero's 3rd street
    # nobody bets in 4044923564: its limits come from a later hand at its ante and bring-in
    later = hands["ipoker:4044923564"][0]
    assert later["game"]["small_bet"] == hands["ipoker:4044954286"][0]["game"]["small_bet"]
    assert "another hand at this ante and bring-in" in later["source"]
    # the first wager of 4044980507 is an all-in over no bring-in: a completion
    assert _acts(hands["ipoker:4044980507"], "complete") == [
        ("complete", 1, 27400, 27400, "all_in")]


def test_stud_hilo_cash_at_a_euro_table_of_a_dollar_account() -> None:
    hands, rejected = _read("ipoker-stud-hilo.xml")
    hand = hands["ipoker:5710054735"]
    game = hand[0]["game"]
    # <currency>USD</currency> is the account; <tablecurrency>EUR and the € stakes rule
    assert (game["variant"], game["currency"], game["small_bet"], game["big_bet"]) == (
        "stud_hilo", "EUR", 5, 10)
    shown = [(r["seat"], r["cards"]) for r in hand if r["kind"] == "show"]
    assert shown == [(1, "7d 4d Kd 3c 9h Ad Jc")]


def test_localized_game_types_and_a_foreign_account_currency() -> None:
    spanish, _ = _read("ipoker-nlhe-spanish.xml")
    (hand,) = spanish.values()
    assert hand[0]["game"]["structure"] == "no_limit"  # 'Holdem SL': sin límite
    russian, rejected = _read("ipoker-nlhe-russian.xml")
    (hand,) = russian.values()
    assert hand[0]["game"]["structure"] == "no_limit"  # 'Holdem БЛ': без лимита
    assert hand[0]["game"]["big_blind"] == 50
    assert "no hand is lost" in rejected[0].reason  # the file stops after its last </game>
    cad, _ = _read("ipoker-plo-cad-account.xml")
    (hand,) = cad.values()
    assert (hand[0]["game"]["currency"], hand[0]["game"]["variant"]) == ("EUR", "omaha")


def test_the_fixtures_audit_clean_under_the_ipoker_profile(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    summary = ingest(FIXTURES, store)
    # 17 games, the all-in under disconnection protection among them
    assert (summary.hands, summary.errors) == (17, 0)
    audit_store(store, profile="ipoker")
    rows = read_findings(store).to_pylist()
    assert [(r["hand_id"], r["rule_id"]) for r in rows if r["severity"] != "info"] == []


_STATED = """<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="1">
 <general>
  <mode>real</mode>
  <gametype>Holdem NL $1/$2</gametype>
  <tablename>T, 1</tablename>
  <currency>USD</currency>
  <nickname>Hero</nickname>
 </general>
 <game gamecode="7">
  <general>
   <startdate>2019-05-26 20:10:33</startdate>
   <totalpot>$4</totalpot>
   <rake>$0.20</rake>
   <players>
    <player win="$3.80" chips="$100" bet="$2" seat="1" dealer="0" name="Ann"/>
    <player win="$0" chips="$100" bet="$2" seat="5" dealer="1" name="Hero"/>
   </players>
  </general>
  <round no="0">
   <action no="1" player="Hero" type="1" sum="$1"/>
   <action no="2" player="Ann" type="2" sum="$2"/>
  </round>
  <round no="1">
   <cards player="Ann" type="Pocket">X X</cards>
   <cards player="Hero" type="Pocket">S2 DK</cards>
   <action no="3" player="Hero" type="3" sum="$1"/>
   <action no="4" player="Ann" type="4" sum="$0"/>
  </round>
 </game>
</session>
"""


def test_a_stated_pot_total_and_rake_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "stated.xml"
    path.write_text(_STATED, encoding="utf-8")
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    assert [(r["kind"], r["amount"], r["detail"]) for r in rows
            if r["kind"] in ("rake", "award", "hand_ended")] == [
        ("award", 380, "main"), ("rake", 20, "rake"),
        ("hand_ended", None, "total_pot=400;invested=1:200,5:200")]
    assert rows[0]["detail"] == "refunds=implicit"  # the rake is stated, not implicit


def test_utf16_files_and_the_short_limit_holdem_gametype(tmp_path: Path) -> None:
    path = tmp_path / "utf16.xml"
    text = _STATED.replace('encoding="utf-8"', 'encoding="utf-16"').replace(
        "Holdem NL $1/$2", "LH $1/$2")
    path.write_bytes(text.encode("utf-16"))
    assert detect_format(path) == "ipoker"
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    assert (rows[0]["game"]["variant"], rows[0]["game"]["structure"],
            rows[0]["game"]["small_bet"]) == ("holdem", "fixed_limit", 100)


def test_a_player_dealt_in_who_sits_out_is_folded(tmp_path: Path) -> None:
    path = tmp_path / "sitout.xml"
    path.write_text(_STATED.replace(
        '<action no="4" player="Ann" type="4" sum="$0"/>',
        '<action no="4" player="Ann" type="9" sum="$0"/>'), encoding="utf-8")
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    assert [(r["kind"], r["seat"], r["detail"]) for r in rows
            if r["kind"] in ("annotation", "fold")] == [
        ("annotation", 1, "sits_out"), ("fold", 1, None)]


def test_actions_without_numbers_keep_document_order(tmp_path: Path) -> None:
    path = tmp_path / "unnumbered.xml"
    path.write_text(re.sub(r' no="\d+"(?= player)', "", _STATED), encoding="utf-8")
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    assert [(r["kind"], r["seat"]) for r in rows if r["kind"] in ("post", "call", "check")] == [
        ("post", 5), ("post", 1), ("call", 5), ("check", 1)]
    # some numbered and some not: the order of play is unknown
    path.write_text(_STATED.replace(' no="3" player="Hero"', ' player="Hero"'),
                    encoding="utf-8")
    _, _, rejected = read_all(IPokerImporter(), path)
    assert "an action without a number" in rejected[0].reason


def test_an_action_numbered_with_a_superscript_digit_is_named(tmp_path: Path) -> None:
    # '²'.isdigit() is true but int('²') fails: the reason names the action, not StopIteration
    path = tmp_path / "superscript.xml"
    path.write_text(_STATED.replace(' no="3" player="Hero"', ' no="\u00b2" player="Hero"'),
                    encoding="utf-8")
    _, _, rejected = read_all(IPokerImporter(), path)
    assert len(rejected) == 1
    assert "an action without a number" in rejected[0].reason


def test_a_stated_pot_total_and_rake_as_attributes(tmp_path: Path) -> None:
    path = tmp_path / "attrs.xml"
    text = _STATED.replace("   <totalpot>$4</totalpot>\n   <rake>$0.20</rake>\n", "")
    text = text.replace('<game gamecode="7">', '<game gamecode="7" totalpot="$4" rake="$0.20">')
    path.write_text(text, encoding="utf-8")
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    assert [(r["kind"], r["amount"]) for r in rows if r["kind"] == "rake"] == [("rake", 20)]
    assert rows[-1]["detail"].startswith("total_pot=400;")


def test_a_player_who_acts_without_listed_cards_was_dealt_in(tmp_path: Path) -> None:
    path = tmp_path / "nocards.xml"
    path.write_text(_STATED.replace('   <cards player="Ann" type="Pocket">X X</cards>\n', ""),
                    encoding="utf-8")
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    assert [(r["seat"], r["detail"]) for r in rows if r["kind"] == "seat"] == [
        (1, None), (5, None)]
    assert [(r["seat"], r["cards"]) for r in rows if r["kind"] == "deal"] == [
        (1, "?? ??"), (5, "2s Kd")]


def test_a_file_of_several_sessions_reads_each(tmp_path: Path) -> None:
    first = (SITES / "ipoker-nlhe-spanish.xml").read_text(encoding="utf-8")
    second = (SITES / "ipoker-plo-cad-account.xml").read_text(encoding="utf-8")
    path = tmp_path / "two-sessions.xml"
    path.write_text(first + second, encoding="utf-8")
    rows, _, rejected = read_all(IPokerImporter(), path)
    assert rejected == []
    started = [r for r in rows if r["kind"] == "hand_started"]
    # each game with its own session's game type and currency, at its own file line
    assert [(r["hand_id"], r["game"]["variant"], r["game"]["currency"]) for r in started] == [
        ("ipoker:3013573623", "holdem", "USD"), ("ipoker:7054739065", "omaha", "EUR")]
    line = first.count("\n") + second.split("\n").index(' <game gamecode="7054739065">') + 1
    assert started[1]["source"].split(";")[0] == f"ipoker:two-sessions.xml:{line}"
