"""Card model: encoding, parsing and printing (RULEBOOK §5.1–5.2, PHH card notation)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.poker.cards import (
    FULL_DECK,
    JOKER,
    UNKNOWN,
    Rank,
    Suit,
    card_str,
    cards_str,
    is_real_card,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_card_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("Kd") == 11 * 4 + 1
    assert parse_card("As") == 51
    assert rank_of(parse_card("Th")) == 8
    assert suit_of(parse_card("Th")) == 2


def test_full_deck_is_52_distinct_cards_that_print_and_parse_back() -> None:
    assert len(FULL_DECK) == len(set(FULL_DECK)) == 52
    texts = [card_str(c) for c in FULL_DECK]
    assert len(set(texts)) == 52
    assert [parse_card(t) for t in texts] == list(FULL_DECK)


def test_unknown_and_joker_cards() -> None:
    assert parse_cards("As ?? Xj") == (51, UNKNOWN, JOKER)
    assert cards_str((UNKNOWN, JOKER)) == "?? Xj"
    assert not is_real_card(UNKNOWN) and not is_real_card(JOKER) and is_real_card(0)
    with pytest.raises(ValueError, match="unknown card"):
        rank_of(UNKNOWN)
    with pytest.raises(ValueError, match="joker"):
        suit_of(JOKER)


def test_parse_cards_accepts_spaces_commas_and_phh_concatenation() -> None:
    expected = (parse_card("4c"), parse_card("Kd"), parse_card("7d"))
    assert parse_cards("4c Kd 7d") == expected
    assert parse_cards("4cKd7d") == expected
    assert parse_cards("4c, Kd,7d") == expected
    assert parse_cards("  ") == ()
    assert parse_cards("????") == (UNKNOWN, UNKNOWN)


def test_parse_is_case_insensitive_and_prints_canonically() -> None:
    assert cards_str(parse_cards("ah TD xj")) == "Ah Td Xj"


@pytest.mark.parametrize("text", ["Zz", "1c", "10h", "A", "Asx", "A s", "Ax", "?"])
def test_bad_card_syntax_names_the_bad_token(text: str) -> None:
    with pytest.raises(ValueError, match="bad card"):
        parse_cards(text)


def test_bad_card_error_says_what_is_expected() -> None:
    with pytest.raises(ValueError) as info:
        parse_cards("As Kx")
    assert "'Kx'" in str(info.value)
    assert "suit (c, d, h, s)" in str(info.value)


def test_card_str_rejects_out_of_range_values() -> None:
    with pytest.raises(ValueError, match="0..51"):
        card_str(53)


def test_eval_suit_order_clubs_lowest_spades_highest() -> None:
    """EVAL-SUIT-ORDER: spades > hearts > diamonds > clubs (only for card-level ties)."""
    assert [s.index for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)] == [0, 1, 2, 3]
    assert suit_of(parse_card("Ks")) > suit_of(parse_card("Kh")) > suit_of(parse_card("Kd"))
    assert suit_of(parse_card("Kd")) > suit_of(parse_card("Kc"))


def test_rank_vocabulary_deuce_low_ace_high() -> None:
    assert [r.index for r in Rank] == list(range(13))
    assert Rank.ACE.index == 12 and Rank.DEUCE.index == 0
    assert make_card(Rank.ACE, Suit.SPADES) == parse_card("As")
    with pytest.raises(ValueError, match=r"bad rank/suit index \(13, 0\)"):
        make_card(13, 0)


@given(st.lists(st.sampled_from(FULL_DECK + (UNKNOWN, JOKER)), max_size=10))
def test_cards_round_trip_spaced_and_concatenated(cards: list[int]) -> None:
    text = cards_str(cards)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(text.replace(" ", "")) == tuple(cards)
