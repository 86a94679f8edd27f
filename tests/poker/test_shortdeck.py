"""Short-deck (6+) hold'em: the 36-card evaluator against PokerKit's ShortDeckHoldemHand, the
replay of the button blind and the awards, PokerStars 6+ and PHH NS import, and a differential
test of random NoLimitShortDeckHoldem hands (PokerKit 0.7.7, test dependency only)."""

from __future__ import annotations

import random
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from audit.export import ExportError, to_phh
from audit.importers.phh import PhhImporter, PhhMappingError, phh_hand_to_events
from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.poker.cards import parse_cards
from audit.poker.evaluate.high import high_strength
from audit.poker.evaluate.short import short_class, short_strength
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import (
    ANTE_AMOUNT,
    BLIND_POSITIONS,
    DQ_INCONSISTENT_LOG,
    DQ_UNVERIFIABLE_AWARD,
    POT_SPLIT_BY_CARDS,
)
from audit.rules.registry import Severity
from tests.support.importing import by_hand, read_all

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PS_6PLUS = FIXTURES / "pokerstars" / "6plus-holdem.txt"
PHH_NS = FIXTURES / "phh" / "short-deck.phh"
DECK = [r + s for r in "6789TJQKA" for s in "cdhs"]


def _s(text: str, trips_beat_straight: bool = True) -> int:
    return short_strength(parse_cards(text), trips_beat_straight=trips_beat_straight)


def _rules(result) -> list[str]:
    return [f.rule_id for f in result.findings]


# --- the evaluator ---------------------------------------------------------------------------


def test_short_ranking_named_cases() -> None:
    # a flush beats a full house, in both orders
    for tbs in (True, False):
        assert _s("Ks Kd Kc 9h 9s", tbs) < _s("6s 8s Ts Qs As", tbs)
        # A-6-7-8-9 is the lowest straight, below 6-7-8-9-T, above two pair
        assert _s("Ah 6d 7c 8s 9h", tbs) < _s("6d 7c 8s 9h Th", tbs)
        assert _s("Ah Ad Kc Ks Qh", tbs) < _s("Ah 6d 7c 8s 9h", tbs)
        assert short_class(_s("Ah 6h 7h 8h 9h", tbs), trips_beat_straight=tbs) == "straight flush"
    # the parameter: three of a kind against a straight
    assert _s("6c 6d 6h Ks Qd", True) > _s("Ah Kd Qc Js Th", True)
    assert _s("6c 6d 6h Ks Qd", False) < _s("6d 7c 8s 9h Th", False)
    with pytest.raises(ValueError, match="36-card short deck"):
        _s("5h 6d 7c 8s 9h")


@pytest.mark.pokerkit
@pytest.mark.slow
def test_short_evaluator_agrees_with_pokerkit() -> None:
    """Random showdowns of two hands on one board: the same winner as PokerKit's
    ShortDeckHoldemHand (straight over trips). The PokerStars order (trips over a straight) is
    checked against PokerKit's lookup too: the best five of seven by (category in that order,
    PokerKit's rank within the category)."""
    pokerkit = pytest.importorskip("pokerkit")
    from itertools import combinations

    lookup = pokerkit.lookups.ShortDeckHoldemLookup()
    stars_order = ["High card", "One pair", "Two pair", "Straight", "Three of a kind",
                   "Full house", "Flush", "Four of a kind", "Straight flush"]

    def stars_key(seven: list[str]) -> tuple[int, int]:
        best = (-1, -1)
        for five in combinations(seven, 5):
            entry = lookup.get_entry("".join(five))
            best = max(best, (stars_order.index(entry.label.value), entry.index))
        return best

    rng = random.Random("short-eval")
    differ = 0
    for _ in range(2000):
        cards = rng.sample(DECK, 9)
        board, one, two = cards[:5], cards[5:7], cards[7:]
        pk = [pokerkit.ShortDeckHoldemHand.from_game("".join(h), "".join(board))
              for h in (one, two)]
        want = (pk[0] > pk[1]) - (pk[0] < pk[1])
        ours = [_s(" ".join(h + board), False) for h in (one, two)]
        assert (ours[0] > ours[1]) - (ours[0] < ours[1]) == want, (one, two, board)
        keys = [stars_key(h + board) for h in (one, two)]
        stars = [_s(" ".join(h + board), True) for h in (one, two)]
        got = (stars[0] > stars[1]) - (stars[0] < stars[1])
        assert got == (keys[0] > keys[1]) - (keys[0] < keys[1]), (one, two, board)
        differ += got != want
    assert differ > 10  # the two orders really decide some showdowns differently


# --- the replay ------------------------------------------------------------------------------


def _hand(*, variant: str = "holdem_6plus", blind_seat: int = 3, blind: int = 2,
          hole1: str = "Qh Jh", hole2: str = "Ks Kd", board: str = "Ah Kh 9h 9c 9d",
          paid: int = 1, preflop: tuple[int, ...] = (1, 2, 3)) -> list[dict]:
    """Three players, button seat 3, ante 1, button blind 2; everyone calls and checks down."""
    game = {"variant": variant, "structure": "no_limit", "big_blind": 2, "ante": 1,
            "button_seat": 3, "seat_count": 6, "currency": "CHIPS", "minor_per_unit": 1}
    rows: list[dict] = [{"kind": "hand_started", "game": game}]
    rows += [{"kind": "seat", "seat": s, "player": f"p{s}", "amount": 100} for s in (1, 2, 3)]
    rows += [{"kind": "post", "seat": s, "amount": 1, "detail": "ante"} for s in (1, 2, 3)]
    rows.append({"kind": "post", "seat": blind_seat, "amount": blind, "total": blind,
                 "detail": "button_blind"})
    for s, cards in ((1, hole1), (2, hole2), (3, "6c 7d")):
        rows.append({"kind": "deal", "seat": s, "detail": "hole", "cards": cards})
    for s in preflop:
        rows.append({"kind": "check", "seat": s} if s == 3 else
                    {"kind": "call", "seat": s, "amount": 2, "total": 2})
    cards = board.split()
    for new in (cards[:3], cards[3:4], cards[4:]):
        rows.append({"kind": "deal", "detail": "board", "cards": " ".join(new)})
        rows += [{"kind": "check", "seat": s} for s in (1, 2, 3)]
    rows += [{"kind": "show", "seat": 1, "cards": hole1}, {"kind": "show", "seat": 2,
             "cards": hole2}, {"kind": "muck", "seat": 3}]
    rows += [{"kind": "award", "seat": paid, "amount": 9, "detail": "main"},
             {"kind": "hand_ended"}]
    for seq, r in enumerate(rows):
        r.update(hand_id="sd", seq=seq)
    return rows


def test_replay_flush_beats_full_house_and_the_wrong_award() -> None:
    assert _rules(replay_hand(hand_from_rows(_hand()))) == []
    wrong = replay_hand(hand_from_rows(_hand(paid=2)))  # the full house paid over the flush
    assert _rules(wrong) == [POT_SPLIT_BY_CARDS, POT_SPLIT_BY_CARDS]
    assert {(f.seat, f.delta) for f in wrong.findings} == {(1, -9), (2, 9)}
    assert "seat 1 (p1) has flush, A-K-Q-J-9; seat 2 (p2) only full house" in \
        wrong.findings[0].message
    # with the same cards 52-card hold'em pays the full house
    assert high_strength(parse_cards("Ks Kd Ah Kh 9h 9c 9d")) > high_strength(
        parse_cards("Qh Jh Ah Kh 9h 9c 9d"))


def test_replay_trips_against_straight_follows_the_variant() -> None:
    straight, trips = "9c 6d", "Td Kc"
    board = "Ts Tc 8d 7h Ac"
    stars = _hand(hole1=trips, hole2=straight, board=board, paid=1)
    assert _rules(replay_hand(hand_from_rows(stars))) == []
    pk = _hand(variant="holdem_short", hole1=trips, hole2=straight, board=board, paid=1)
    assert _rules(replay_hand(hand_from_rows(pk))) == [POT_SPLIT_BY_CARDS] * 2
    pk = _hand(variant="holdem_short", hole1=trips, hole2=straight, board=board, paid=2)
    assert _rules(replay_hand(hand_from_rows(pk))) == []


def test_replay_button_blind_position_size_and_order() -> None:
    wrong_seat = replay_hand(hand_from_rows(_hand(blind_seat=2)))
    assert BLIND_POSITIONS in _rules(wrong_seat)
    wrong_size = replay_hand(hand_from_rows(_hand(blind=3)))
    assert _rules(wrong_size)[0] == ANTE_AMOUNT
    assert (wrong_size.findings[0].expected, wrong_size.findings[0].actual) == ("2", "3")
    # the button acts last preflop: the button checking first is out of turn
    order = _rules(replay_hand(hand_from_rows(_hand(preflop=(3, 1, 2)))))
    assert any(r.startswith("ORDER-") for r in order), order


def test_replay_card_below_six_is_a_data_error() -> None:
    result = replay_hand(hand_from_rows(_hand(hole1="Qh 5h")))
    assert _rules(result) == [DQ_INCONSISTENT_LOG, DQ_UNVERIFIABLE_AWARD]
    assert "36-card short deck" in result.findings[0].message


# --- PokerStars 6+ -----------------------------------------------------------------------------


def _ps(path: Path, fast: bool = True):
    rows, _, rejected = read_all(PokerStarsImporter(fast=fast), path)
    return by_hand(rows), rejected


def test_pokerstars_6plus_fixture_imports_and_replays_clean() -> None:
    hands, rejected = _ps(PS_6PLUS)
    assert rejected == [] and len(hands) == 4
    for rows in hands.values():
        game = rows[0]["game"]
        assert (game["variant"], game["structure"], game["big_blind"], game["ante"]) == (
            "holdem_6plus", "no_limit", 50, 25)
        blinds = [r for r in rows if r["kind"] == "post" and r["detail"] == "button_blind"]
        assert [r["seat"] for r in blinds] == [game["button_seat"]]
        assert replay_hand(hand_from_rows(rows)).findings == ()
    first = replay_hand(hand_from_rows(hands["ps:400000000001"]))
    assert {p["seat"]: p["hand_class"] for p in first.players if p["showed"]} == {
        1: "flush", 2: "full house"}
    # PHH's NS ranks a straight over three of a kind: a PokerStars 6+ hand is not written as NS
    with pytest.raises(ExportError, match="holdem_6plus no_limit has no PHH variant code"):
        to_phh(hands["ps:400000000001"])
    # the vectorised fast path leaves 6+ hands to the line parser: the same events
    assert _ps(PS_6PLUS, fast=False)[0] == hands


def test_pokerstars_6plus_full_house_paid_over_flush(tmp_path: Path) -> None:
    text = PS_6PLUS.read_text(encoding="utf-8")
    wrong = text.replace("Alice collected $14.50 from pot", "Bob collected $14.50 from pot", 1)
    path = tmp_path / "wrong.txt"
    path.write_text(wrong, encoding="utf-8")
    hands, rejected = _ps(path)
    assert rejected == []
    result = replay_hand(hand_from_rows(hands["ps:400000000001"]))
    assert sorted((f.rule_id, f.seat, f.delta) for f in result.findings) == [
        (POT_SPLIT_BY_CARDS, 1, -1450), (POT_SPLIT_BY_CARDS, 2, 1450)]
    for hand_id in ("ps:400000000002", "ps:400000000003", "ps:400000000004"):
        assert replay_hand(hand_from_rows(hands[hand_id])).findings == ()


def test_pokerstars_6plus_card_below_six_quarantines(tmp_path: Path) -> None:
    text = PS_6PLUS.read_text(encoding="utf-8")
    path = tmp_path / "low.txt"
    path.write_text(text.replace("Dealt to Alice [7c 6s]", "Dealt to Alice [7c 5s]"),
                    encoding="utf-8")
    hands, rejected = _ps(path)
    assert len(hands) == 3 and len(rejected) == 1
    assert rejected[0].hand_id == "ps:400000000002"
    assert "card 5s in a 6+ hold'em hand" in rejected[0].reason


# --- PHH NS ----------------------------------------------------------------------------------


def test_phh_ns_imports_replays_clean_and_round_trips(tmp_path: Path) -> None:
    rows, _, rejected = read_all(PhhImporter(), PHH_NS)
    assert rejected == []
    game = rows[0]["game"]
    assert (game["variant"], game["big_blind"], game["ante"], game["button_seat"]) == (
        "holdem_short", 3000, 3000, 6)
    assert [(r["seat"], r["detail"]) for r in rows if r["kind"] == "post"][-1] == (
        6, "button_blind")
    assert replay_hand(hand_from_rows(rows)).findings == ()
    # the same hand ranked as PokerStars ranks it: Phua's set of kings beats Xuan's straight
    as_stars = [dict(r) for r in rows]
    as_stars[0]["game"] = {**game, "variant": "holdem_6plus"}
    assert {f.rule_id for f in replay_hand(hand_from_rows(as_stars)).findings} == {
        POT_SPLIT_BY_CARDS}
    out = tmp_path / "again.phh"
    out.write_text(to_phh(rows), encoding="utf-8")
    again, _, rejected = read_all(PhhImporter(), out)
    assert rejected == []
    strip = [{k: v for k, v in r.items() if k not in ("source", "hand_id")} for r in rows]
    assert [{k: v for k, v in r.items() if k not in ("source", "hand_id")} for r in again] \
        == strip


def test_phh_ns_card_below_six_rejected() -> None:
    hand = tomllib.loads(PHH_NS.read_text(encoding="utf-8"), parse_float=Decimal)
    hand["actions"][0] = "d dh p1 Th5h"
    with pytest.raises(PhhMappingError, match="card 5h in a short-deck"):
        phh_hand_to_events(hand, hand_key="x:1", source="s", line=1)


# --- PokerKit differential -------------------------------------------------------------------

HANDS = 1500


@pytest.mark.pokerkit
@pytest.mark.slow
def test_pokerkit_short_deck_differential(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random legal NoLimitShortDeckHoldem hands (3-8 players, ante + button blind): our replay
    gives PokerKit's final stacks, or a wrong-award finding that PokerKit's own settlement
    conventions (tests/support/pokerkit_settlement.py, with the short-deck ranking) explain."""
    pytest.importorskip("pokerkit")
    import tests.support.pokerkit_settlement as oracle
    from tests.support.pokerkit_short_gen import random_short_hand

    monkeypatch.setattr(oracle, "high_strength",
                        lambda cards: short_strength(cards, trips_beat_straight=False))
    rng = random.Random("poker-audit-NS")
    showdowns = allins = 0
    for k in range(HANDS):
        rows, state = random_short_hand(rng, f"pk-NS-{k}")
        start = [r["amount"] for r in rows if r["kind"] == "seat"]
        assert sum(state.stacks) == sum(start)
        result = replay_hand(hand_from_rows(rows))
        serious = [f for f in result.findings
                   if Severity(f.severity).level >= Severity.WARNING.level]
        pokerkit = {i + 1: x for i, x in enumerate(state.stacks)}
        ours = dict(pokerkit)
        for f in serious:
            ours[f.seat] += int(f.expected) - int(f.actual)
        context = (k, [(f.rule_id, f.message) for f in serious], rows)
        assert oracle.settle(rows, state.statuses, hole_n=2, hilo=False) == ours, context
        assert oracle.settle(rows, state.statuses, hole_n=2, hilo=False,
                             conventions=oracle.ALL) == pokerkit, context
        if not serious:
            start_by_seat = dict(enumerate(start, 1))
            assert {p["seat"]: start_by_seat[p["seat"]] - p["invested"] + p["won"]
                    for p in result.players} == pokerkit
        showdowns += sum(r["kind"] == "show" for r in rows) > 1
        allins += any(p["all_in_street"] for p in result.players)
    assert showdowns > HANDS // 5 and allins > HANDS // 10


def test_phh_ns_heads_up_follows_pokerkits_blind_swap() -> None:
    """Departure, documented: heads-up PokerKit swaps the two players' blinds (its SB/BB
    convention), so in a heads-up NS hand the button blind is posted by p1, who is not on the
    button, and p1 acts last preflop but first after the flop. PokerStars' button blind is the
    button's. The hand imports as PokerKit plays it (p2 the button, acting first preflop, as
    PokerKit lets it); the replay then reports the blind's seat (BLIND-POSITIONS) and
    nothing else: order and award agree with PokerKit."""
    text = """
variant = 'NS'
antes = [1, 1]
blinds_or_straddles = [0, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QsQd', 'p2 cc', 'p1 cc', 'd db 6c7d8h', 'p1 cc', 'p2 cc',
           'd db 9s', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm QsQd']
winnings = [6, 0]  # p1: A-6-7-8-9, the lowest straight
"""
    hand = tomllib.loads(text, parse_float=Decimal)
    rows = phh_hand_to_events(hand, hand_key="x:1", source="s", line=1)
    assert rows[0]["game"]["button_seat"] == 2
    assert [(r["seat"], r["detail"]) for r in rows if r["kind"] == "post"] == [
        (1, "ante"), (2, "ante"), (1, "button_blind")]
    assert _rules(replay_hand(hand_from_rows(rows))) == [BLIND_POSITIONS]
