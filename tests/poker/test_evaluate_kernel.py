"""The compiled ace-to-five low (audit/poker/evaluate/kernel.py) that the replay kernel ranks
razz and stud high-low showdowns with gives the Python evaluator's strength, value for value
(RULEBOOK §5.3 razz, §5.4 eight or better): on every five-card rank pattern and on random
five-, six- and seven-card hands."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import numpy as np
import pytest

from audit.poker.evaluate.high import low_a5_strength

kernel = pytest.importorskip("audit.poker.evaluate.kernel")


def _compiled(cards: list[int], qualifier: int | None) -> int | None:
    v = kernel.low_a5(np.array(cards, np.int64), len(cards), qualifier or 0)
    return None if v == kernel.NO_LOW else v


def _deal(ranks: tuple[int, ...]) -> list[int]:
    """Cards of the given ranks (2..A as 0..12), suits spread so no card repeats."""
    seen: dict[int, int] = {}
    cards = []
    for r in ranks:
        cards.append(r * 4 + seen.get(r, 0))
        seen[r] = seen.get(r, 0) + 1
    return cards


def test_every_five_card_rank_pattern_ranks_as_the_python_evaluator() -> None:
    checked = 0
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        cards = _deal(ranks)
        for qualifier in (None, 8):
            assert _compiled(cards, qualifier) == low_a5_strength(cards, qualifier), ranks
        checked += 1
    assert checked == 6175  # every distinct five-card rank multiset


@pytest.mark.parametrize("n", [5, 6, 7])
def test_random_stud_hands_rank_as_the_python_evaluator(n: int) -> None:
    rng = random.Random(n)
    lows = 0
    for _ in range(20_000):
        cards = rng.sample(range(52), n)
        assert _compiled(cards, None) == low_a5_strength(cards), cards
        low8 = low_a5_strength(cards, 8)
        assert _compiled(cards, 8) == low8, cards
        lows += low8 is not None
    assert lows > 100  # the eight-or-better branch was exercised, not only "no low"


def test_a_paired_razz_hand_keeps_its_best_five_and_loses_to_any_unpaired_one() -> None:
    paired = [0, 1, 4, 5, 8, 9, 12]  # 2c 2d 3c 3d 4c 4d 5c: four ranks, best 5-4-3-2-2
    unpaired = [44, 40, 36, 32, 29]  # K Q J T 9: the worst unpaired low
    assert _compiled(paired, None) == low_a5_strength(paired)
    assert _compiled(unpaired, None) > _compiled(paired, None)
    assert _compiled(paired, 8) is None


# --- deuce-to-seven and badugi (RULEBOOK §5.5, §5.6): the draw games' showdowns ------------


def test_every_five_card_rank_pattern_ranks_as_deuce_to_seven() -> None:
    from audit.poker.evaluate.high import low_27_strength

    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        cards = _deal(ranks)
        assert kernel.low_27(np.array(cards, np.int64)) == low_27_strength(cards), ranks
        if len(set(ranks)) == 5:  # the same ranks suited: a flush or a straight flush
            suited = [r * 4 + 2 for r in ranks]
            assert kernel.low_27(np.array(suited, np.int64)) == low_27_strength(suited)


def test_random_deuce_to_seven_and_badugi_hands_rank_as_the_python_evaluators() -> None:
    from audit.poker.evaluate.high import low_27_strength
    from audit.poker.evaluate.low import badugi_strength

    rng = random.Random(27)
    for _ in range(20_000):
        five = rng.sample(range(52), 5)
        assert kernel.low_27(np.array(five, np.int64)) == low_27_strength(five), five
        four = five[:4]
        assert kernel.badugi(np.array(four, np.int64)) == badugi_strength(four), four


def test_every_badugi_rank_and_suit_pattern_ranks_as_the_python_evaluator() -> None:
    from audit.poker.evaluate.low import badugi_strength

    checked = 0
    for ranks in combinations_with_replacement(range(13), 4):
        for suits in ((0, 1, 2, 3), (0, 0, 1, 2), (0, 0, 1, 1), (0, 0, 0, 1), (3, 2, 3, 1)):
            cards = [r * 4 + s for r, s in zip(ranks, suits, strict=True)]
            if len(set(cards)) < 4:
                continue
            assert kernel.badugi(np.array(cards, np.int64)) == badugi_strength(cards), cards
            checked += 1
    assert checked > 6000  # 6,916 hands
