"""Hand evaluators against RULEBOOK §5 (EVAL-*), the vectorised table path, and PokerKit."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.poker.cards import FULL_DECK, JOKER, UNKNOWN, card_str, parse_cards
from audit.poker.evaluate.high import (
    HIGH_CLASSES,
    describe_high,
    describe_low,
    describe_low_27,
    high_class,
    high_strength,
    low_27_strength,
    low_a5_strength,
    omaha_high_strength,
    omaha_low8_strength,
)
from audit.poker.evaluate.tables import high_strength_many, omaha_high_strength_many


def high(text: str) -> int:
    return high_strength(parse_cards(text))


def a5(text: str, qualifier: int | None = None) -> int | None:
    return low_a5_strength(parse_cards(text), qualifier)


def d27(text: str) -> int:
    return low_27_strength(parse_cards(text))


def omaha_hi(hole: str, board: str) -> int:
    return omaha_high_strength(parse_cards(hole), parse_cards(board))


def omaha_lo(hole: str, board: str) -> int | None:
    return omaha_low8_strength(parse_cards(hole), parse_cards(board))


# --- EVAL-HIGH (RULEBOOK §5.1) ----------------------------------------------------------


def test_eval_high_categories_best_to_worst() -> None:
    hands = [
        "Ah Kd 9s 7c 3h",  # high card
        "2h 2d 9s 7c 3h",  # one pair
        "2h 2d 3s 3c 4h",  # two pair
        "2h 2d 2s 7c 3h",  # three of a kind
        "As 2d 3c 4h 5s",  # straight (the wheel, the lowest one)
        "2h 3h 4h 5h 7h",  # flush
        "2h 2d 2s 3c 3h",  # full house
        "2h 2d 2s 2c 3h",  # four of a kind
        "As 2s 3s 4s 5s",  # straight flush
    ]
    strengths = [high(h) for h in hands]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    assert [high_class(s) for s in strengths] == list(HIGH_CLASSES)


def test_eval_high_royal_flush_is_best() -> None:
    royal = high("As Ks Qs Js Ts")
    assert royal > high("Ks Qs Js Ts 9s") > high("Ac Ad Ah As Ks")
    assert describe_high(royal) == "straight flush, ace high (royal flush)"


def test_eval_high_wheel_is_lowest_straight() -> None:
    wheel = high("As 2d 3c 4h 5s")
    assert high_class(wheel) == "straight"
    assert wheel < high("2s 3d 4c 5h 6s") < high("Ts Jd Qc Kh As")
    assert wheel > high("Ac Ad Ah Ks Qs")  # any straight beats three aces
    assert describe_high(wheel) == "straight, five high"


def test_eval_high_no_wrap_around_straight() -> None:
    assert high_class(high("Qs Kd Ac 2h 3s")) == "high card"


def test_eval_high_made_part_before_kickers() -> None:
    assert high("Ac Ad 7h 7s 2c") > high("Kc Kd Qh Qs Jc")
    assert high("Ac Ad 7h 7s 3c") > high("Ah As 7c 7d 2d")  # then the kicker
    assert high("9c 9d 9h 2s 3c") > high("8c 8d 8h As Kc")
    assert high("Kc Kd 5h 4s 3c") < high("Kh Ks 6c 4d 3d")


def test_eval_high_full_house_compares_trips_then_pair() -> None:
    assert high("3c 3d 3h 2s 2c") > high("2h 2d 2c Ah As")
    assert high("Kc Kd Kh 9s 9c") > high("Kc Kd Kh 8s 8c")
    assert describe_high(high("Kc Kd Kh 9s 9c 9d 2c")) == "full house, kings full of nines"


def test_eval_high_flush_compares_down_to_the_fifth_card() -> None:
    assert high("Ah Jh 9h 6h 3h") > high("As Js 9s 6s 2s")
    assert high("Ah Jh 9h 6h 3h") == high("Ad Jd 9d 6d 3d")


def test_eval_high_straights_have_no_kickers() -> None:
    board = "5c 6d 7h 8s 9c"
    assert high(board + " As Kd") == high(board + " 2h 3d")


def test_eval_high_suits_never_break_ties() -> None:
    assert high("As Kh Qd Jc 9s") == high("Ac Kd Qh Js 9d")
    assert high("As Ad Kh Kc 2s") == high("Ah Ac Ks Kd 2d")


def test_eval_high_best_five_of_seven_and_playing_the_board() -> None:
    board = "Ts Js Qs Ks As"
    assert high("2c 3d " + board) == high("Ah Ad " + board)
    assert high("2h 7h 2c 5d 9h Jh Kh") > high("2h 2c 2d 5d 9h Jh Ks")  # flush beats trips
    assert high_class(high("Kc Kd Kh 9s 9c 9d 2c")) == "full house"


def test_eval_high_describe_every_category() -> None:
    assert describe_high(high("Kh Kd 9s 9c 2d 3c 4h")) == "two pair, kings and nines"
    assert describe_high(high("Ah Kd 9s 7c 3h")) == "ace high, A-K-9-7-3"
    assert describe_high(high("7h 7d 9s 4c 3h")) == "one pair, sevens"
    assert describe_high(high("7h 7d 7s 4c 3h")) == "three of a kind, sevens"
    assert describe_high(high("7h 7d 7s 7c 3h")) == "four of a kind, sevens with a three"
    assert describe_high(high("Ah Jh 9h 6h 3h")) == "flush, A-J-9-6-3"
    assert describe_high(high("6s 7s 8s 9s Ts")) == "straight flush, ten high"


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([51, 50, 49, 48, UNKNOWN], "not a known card"),
        ([51, 50, 49, 48, JOKER], "not a known card"),
        ([51, 50, 49, 48, 48], "appears twice"),
        ([51, 50, 49, 48], "need 5 to 7"),
        (list(range(8)), "need 5 to 7"),
    ],
)
def test_evaluators_reject_unknown_joker_duplicate_and_wrong_count(
    cards: list[int], message: str
) -> None:
    for evaluator in (high_strength, low_a5_strength, low_27_strength):
        with pytest.raises(ValueError, match=message):
            evaluator(cards)


# --- EVAL-LOW-A5 (RULEBOOK §5.3) --------------------------------------------------------


def test_eval_low_a5_wheel_is_best_and_straights_flushes_do_not_count() -> None:
    wheel = a5("5s 4d 3c 2h As")
    assert wheel == a5("5s 4s 3s 2s As")
    assert describe_low(wheel) == "5-4-3-2-A"
    assert wheel > a5("6s 4d 3c 2h As")


def test_eval_low_a5_unpaired_beats_paired() -> None:
    assert a5("9s Td Jc Qh Ks") > a5("2s 2d 3c 4h 5s")


def test_eval_low_a5_pair_of_aces_beats_deuces() -> None:
    """P40: A-A beats 2-2; aces are the lowest pair."""
    assert a5("As Ad 7c 8h 9s") > a5("2s 2d 3c 4h 5s")
    assert describe_low(a5("As Ad 3c 4h 5s")) == "A-A-5-4-3 (one pair)"


def test_eval_low_a5_highest_card_first() -> None:
    assert a5("8s 6d 4c 3h 2s") > a5("8s 7d 3c 2h As")
    assert a5("8s 6d 5c 2h As") > a5("8s 6d 5c 3h 2s")


def test_eval_low_a5_derived_paired_order() -> None:
    """Derived: one pair beats two pair beats trips beats full house beats quads."""
    worst_to_best = [
        "Ks Kd Kc Kh Qs",  # four of a kind
        "2s 2d 2c 3h 3s",  # full house
        "Ks Kd Kc Qh Js",  # three of a kind
        "2s 2d 3c 3h 4s",  # two pair
        "Ks Kd Qc Jh Ts",  # one pair
        "Ks Qd Jc Th 9s",  # no pair
    ]
    values = [a5(h) for h in worst_to_best]
    assert values == sorted(values)  # type: ignore[type-var]


def test_eval_low_a5_razz_seven_cards_leave_pairing_cards_out() -> None:
    assert a5("As Ad 2c 2h 3s 4d 6c") == a5("As 2c 3s 4d 6c")
    assert a5("Ks Kd Qc Qh Js Jd Tc") == a5("Js Jd Tc Qh Ks")  # forced to pair: the lowest pair
    assert describe_low(a5("7s 7d 7c 2h 2s Ad Ac")) == "2-2-A-A-7 (two pair)"


# --- EVAL-LOW-8 (RULEBOOK §5.4) ---------------------------------------------------------


def test_eval_low_8_qualifier() -> None:
    assert a5("8s 7d 6c 5h 4s", qualifier=8) is not None  # the worst qualifying low
    assert a5("9s 4d 3c 2h As", qualifier=8) is None  # a nine disqualifies
    assert a5("As Ad 2c 3h 4s Kd Kc", qualifier=8) is None  # a pair is not a low
    assert a5("As 2s 3s 4s 5s", qualifier=8) == a5("As 2d 3c 4h 5s")  # straight flush ok
    assert a5("8s 6d 4c 2h As Kd Kc", qualifier=8) == a5("8s 6d 4c 2h As")


def test_eval_low_8_best_and_worst_qualifiers() -> None:
    best, worst = a5("5s 4d 3c 2h As", 8), a5("8s 7d 6c 5h 4s", 8)
    assert best is not None and worst is not None and best > worst
    assert describe_low(worst) == "8-7-6-5-4"


# --- EVAL-LOW-27 (RULEBOOK §5.5) --------------------------------------------------------


def test_eval_low_27_seven_five_is_best() -> None:
    best = d27("7s 5d 4c 3h 2s")
    assert best > d27("7s 6d 4c 3h 2s") > d27("8s 5d 4c 3h 2s")
    assert describe_low_27(best) == "seven high, 7-5-4-3-2"


def test_eval_low_27_ace_is_high_and_wheel_is_not_a_straight() -> None:
    wheel = d27("As 2d 3c 4h 5s")
    assert wheel < d27("Ks Qd Jc 9h 8s")  # loses to any king-high
    assert wheel > d27("2s 2d 3c 4h 5s")  # beats every pair
    assert wheel > d27("As Kd 3c 4h 5s")  # beats other ace-high hands


def test_eval_low_27_straights_and_flushes_count_against() -> None:
    assert d27("6s 5d 4c 3h 2s") < d27("Ks Qd Jc Th 8s")
    assert d27("7s 5s 4s 3s 2s") < d27("Ks Qd Jc Th 8s")


def test_eval_low_27_aces_are_the_worst_pair() -> None:
    assert d27("As Ad 2c 3h 4s") < d27("Ks Kd Qc Jh Ts")


# --- EVAL-SELECT: Omaha exactly 2 hole + 3 board (RULEBOOK §5.7) -------------------------


def test_eval_select_omaha_exactly_two_hole_cards() -> None:
    board = "Ah Kh Qh Jh 2c"
    assert high_class(high("Th 3c " + board)) == "straight flush"  # hold'em
    assert high_class(omaha_hi("Th 3c 4d 5s", board)) == "high card"  # Omaha: no flush
    assert describe_high(omaha_hi("Th 3c 4d 5s", board)) == "ace high, A-K-Q-T-5"


def test_eval_select_omaha_cannot_play_the_board() -> None:
    board = "As Kd Qc Jh Td"
    assert describe_high(omaha_hi("2c 2d 3h 4s", board)) == "one pair, deuces"


def test_eval_select_omaha5_uses_two_of_five_hole_cards() -> None:
    assert high_class(omaha_hi("9h 8h 2c 2d 3s", "Th Jh Qh 4c 5d")) == "straight flush"
    assert high_class(omaha_hi("9h 2c 2d 3s 8d", "Th Jh Qh 4c")) == "straight"


def test_eval_select_omaha_low_needs_two_hole_and_three_board_cards() -> None:
    board = "As 2d 3c Kh Qs"
    assert omaha_lo("4h Ks Kd Kc", board) is None  # only one low hole card
    assert describe_low(omaha_lo("4h 5h Kd Kc", board)) == "5-4-3-2-A"  # type: ignore[arg-type]
    assert omaha_lo("4h 5h 6d 7c", "2s 3d Kh Qs Js") is None  # board has two low ranks
    # the low five must be five distinct ranks: hole A-2 with board A-2-3 cannot make a low
    assert omaha_lo("Ah 2h Kd Kc", "As 2d 3c Qh Js") is None


def test_eval_select_omaha_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="board cards"):
        omaha_hi("As Ks Qs Js", "2c 3c")
    with pytest.raises(ValueError, match="appears twice"):
        omaha_lo("As Ks Qs Js", "As 3c 4c")


# --- vectorised table evaluator -------------------------------------------------------


def _random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k]


def _dense_hands(n: int, k: int, seed: int) -> list[list[int]]:
    """Hands drawn from a few ranks or mostly one suit: quads, full houses, straight flushes."""
    rng = random.Random(seed)
    hands = []
    for i in range(n):
        if i % 2:
            ranks = rng.sample(range(13), rng.randint(2, 4))
            pool = [r * 4 + s for r in ranks for s in range(4)]
        else:
            suit, start = rng.randrange(4), rng.randrange(9)
            pool = [r * 4 + suit for r in range(start, start + 5)] + rng.sample(FULL_DECK, 8)
            pool = list(dict.fromkeys(pool))
        hands.append(rng.sample(pool, k))
    return hands


@pytest.mark.slow
def test_high_strength_many_agrees_with_scalar_on_100k_random_hands() -> None:
    hands = _random_hands(100_000, 7, seed=7)
    many = high_strength_many(hands)
    scalar = np.array([high_strength(h) for h in hands.tolist()])
    assert many.dtype == np.int32 and many.shape == (100_000,)
    assert np.array_equal(many, scalar)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_high_strength_many_agrees_on_5_6_7_cards_and_rare_hands(k: int) -> None:
    hands = np.concatenate([_random_hands(5_000, k, seed=k), np.array(_dense_hands(5_000, k, k))])
    many = high_strength_many(hands)
    assert np.array_equal(many, [high_strength(h) for h in hands.tolist()])
    assert set(HIGH_CLASSES) == {high_class(int(s)) for s in many}
    assert np.array_equal(high_strength_many(hands, validate=False), many)


def test_high_strength_many_rejects_bad_input() -> None:
    good = _random_hands(3, 7, seed=1)
    for bad, message in [
        (good[:, :4], "shape"),
        (np.where(good == good[1, 2], UNKNOWN, good), "not a known card"),
        (np.where(good == good[2, 0], 52, good), "not a known card"),
        (good.astype(float), "integer"),
    ]:
        with pytest.raises(ValueError, match=message):
            high_strength_many(bad)
    dup = good.copy()
    dup[2, 6] = dup[2, 3]
    with pytest.raises(ValueError, match="row 2 holds the same card twice"):
        high_strength_many(dup)
    assert high_strength_many(np.empty((0, 7), dtype=np.int64)).shape == (0,)


def test_omaha_high_strength_many_agrees_with_scalar() -> None:
    for hole_size, board_size in [(4, 5), (5, 5), (4, 3)]:
        deals = _random_hands(2_000, hole_size + board_size, seed=hole_size * 10 + board_size)
        holes, boards = deals[:, :hole_size], deals[:, hole_size:]
        many = omaha_high_strength_many(holes, boards)
        pairs = zip(holes.tolist(), boards.tolist(), strict=True)
        scalar = [omaha_high_strength(h, b) for h, b in pairs]
        assert np.array_equal(many, scalar)
    with pytest.raises(ValueError, match="same card twice"):
        omaha_high_strength_many([[0, 1, 2, 3]], [[3, 4, 5, 6, 7]])
    with pytest.raises(ValueError, match="3..5 board"):
        omaha_high_strength_many([[0, 1, 2, 3]], [[4, 5]])


# --- properties -----------------------------------------------------------------------

hands7 = st.permutations(FULL_DECK).map(lambda deck: list(deck[:7]))
suit_maps = st.permutations(range(4))


@given(hands7, suit_maps, st.randoms(use_true_random=False))
def test_property_high_ignores_card_order_and_suit_names(
    cards: list[int], suits: list[int], rnd: random.Random
) -> None:
    renamed = [(c & ~3) | suits[c & 3] for c in cards]
    rnd.shuffle(renamed)
    assert high_strength(renamed) == high_strength(cards)


@given(hands7)
def test_property_more_cards_never_hurt(cards: list[int]) -> None:
    assert high_strength(cards) >= high_strength(cards[:6]) >= high_strength(cards[:5])
    assert low_a5_strength(cards) >= low_a5_strength(cards[:6])  # type: ignore[operator]
    assert low_27_strength(cards) >= low_27_strength(cards[:5])


@given(hands7)
def test_property_qualified_low_is_the_low_or_nothing(cards: list[int]) -> None:
    qualified = low_a5_strength(cards, 8)
    assert qualified is None or qualified == low_a5_strength(cards)


@settings(max_examples=60, deadline=None)
@given(st.permutations(FULL_DECK).map(lambda d: (list(d[:4]), list(d[4:9]))))
def test_property_omaha_is_best_of_explicit_two_plus_three(hands: Any) -> None:
    hole, board = hands
    fives = [list(h) + list(b) for h in combinations(hole, 2) for b in combinations(board, 3)]
    assert omaha_high_strength(hole, board) == max(high_strength(f) for f in fives)
    lows = [low_a5_strength(f, 8) for f in fives]
    assert omaha_low8_strength(hole, board) == max(
        (x for x in lows if x is not None), default=None
    )


@pytest.mark.slow
@settings(deadline=None)  # the first call builds the lookup tables
@given(st.lists(hands7, min_size=1, max_size=20))
def test_property_many_equals_scalar(hands: list[list[int]]) -> None:
    assert high_strength_many(hands).tolist() == [high_strength(h) for h in hands]


# --- differential: the order our strengths induce equals PokerKit's ------------------


def _pk(cards: Sequence[int]) -> str:
    return "".join(card_str(c) for c in cards)


def assert_same_order(
    samples: Sequence[Any], ours: Callable[..., int | None], theirs: Callable[..., Any]
) -> None:
    """Sort by our strength; every neighbouring pair must compare the same way in PokerKit.

    Both are total preorders, so agreement on neighbours (including ties and "no hand")
    means the two orders over all samples are identical.
    """
    a = [ours(*s) for s in samples]
    b = [theirs(*s) for s in samples]
    assert all((x is None) == (y is None) for x, y in zip(a, b, strict=True))
    ranked = sorted((i for i in range(len(samples)) if a[i] is not None), key=lambda i: a[i])
    for i, j in zip(ranked, ranked[1:], strict=False):
        same = a[i] == a[j]
        assert same == (b[i] == b[j]) and (not same) == (b[i] < b[j]), (samples[i], samples[j])


def _sevens(n: int, seed: int) -> list[tuple[list[int]]]:
    rng = random.Random(seed)
    return [(rng.sample(FULL_DECK, 7),) for _ in range(n)] + [
        (h,) for h in _dense_hands(n // 2, 7, seed)
    ]


def _omahas(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        # every third deal only uses ranks A-8 and a few suits: many lows and ties
        deck = [c for c in FULL_DECK if c >> 2 in (12, *range(7))] if i % 3 == 0 else FULL_DECK
        cards = rng.sample(deck, 4 + i % 2 + 3 + (i // 3) % 3)
        hole = cards[: 4 + i % 2]
        out.append((hole, cards[len(hole) :]))
    return out


@pytest.mark.pokerkit
@pytest.mark.slow
def test_pokerkit_agrees_on_high_hand_order() -> None:
    from pokerkit import StandardHighHand

    assert_same_order(_sevens(3000, 1), high_strength, lambda c: StandardHighHand.from_game(_pk(c)))


@pytest.mark.pokerkit
@pytest.mark.slow
def test_pokerkit_agrees_on_ace_to_five_low_order() -> None:
    from pokerkit import RegularLowHand

    samples = _sevens(2000, 2) + [(h,) for h in _dense_hands(1000, 5, 3)]
    assert_same_order(samples, low_a5_strength, lambda c: RegularLowHand.from_game(_pk(c)))


@pytest.mark.pokerkit
@pytest.mark.slow
def test_pokerkit_agrees_on_eight_or_better_low_order() -> None:
    from pokerkit import EightOrBetterLowHand

    rng = random.Random(4)
    low_deck = [c for c in FULL_DECK if c >> 2 in (12, *range(8))]
    samples = _sevens(1500, 4) + [(rng.sample(low_deck, 7),) for _ in range(1500)]
    assert_same_order(
        samples,
        lambda c: low_a5_strength(c, 8),
        lambda c: EightOrBetterLowHand.from_game_or_none(_pk(c)),
    )


@pytest.mark.pokerkit
def test_pokerkit_agrees_on_deuce_to_seven_order() -> None:
    from pokerkit import StandardLowHand

    rng = random.Random(5)
    samples = [(rng.sample(FULL_DECK, 5),) for _ in range(3000)]
    samples += [(h,) for h in _dense_hands(1500, 5, 6)]
    assert_same_order(samples, low_27_strength, lambda c: StandardLowHand(_pk(c)))


@pytest.mark.pokerkit
@pytest.mark.slow
def test_pokerkit_agrees_on_omaha_high_order() -> None:
    from pokerkit import OmahaHoldemHand

    assert_same_order(
        _omahas(900, 7),
        omaha_high_strength,
        lambda h, b: OmahaHoldemHand.from_game(_pk(h), _pk(b)),
    )


@pytest.mark.pokerkit
def test_pokerkit_agrees_on_omaha_eight_or_better_low_order() -> None:
    from pokerkit import OmahaEightOrBetterLowHand

    assert_same_order(
        _omahas(900, 8),
        omaha_low8_strength,
        lambda h, b: OmahaEightOrBetterLowHand.from_game_or_none(_pk(h), _pk(b)),
    )
