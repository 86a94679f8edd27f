"""Evaluators of the stud and draw families (audit/poker/evaluate/low.py): known answers, exhaustive
class counts, and a cross-check against PokerKit's evaluators (a test dependency only)."""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

import pytest

from audit.poker.cards import parse_cards
from audit.poker.evaluate.high import low_27_strength
from audit.poker.evaluate.low import badugi_strength, hilo8_strength, razz_strength, strength


def c(text: str) -> tuple[int, ...]:
    return parse_cards(text)


# --- known answers (RULEBOOK §5.3–5.5) ------------------------------------------------------


def test_razz_best_hand_is_the_wheel_and_straights_flushes_do_not_count():
    wheel = razz_strength(c("As 2s 3s 4s 5s"))
    assert wheel == max(razz_strength(c(h)) for h in (
        "As 2d 3c 4h 5s", "As 2d 3c 4h 6s", "Kd Qd Jd Td 9d"))
    assert razz_strength(c("As 2d 3c 4h 5s")) == wheel


def test_razz_picks_the_lowest_five_of_seven_and_leaves_pairing_cards_out():
    assert razz_strength(c("As Ad 2c 3h 4s 5d Kc")) == razz_strength(c("As 2c 3h 4s 5d"))
    assert razz_strength(c("8s 7d 6c 4h 3s 8d 8c")) == razz_strength(c("8s 7d 6c 4h 3s"))


def test_razz_unpaired_beats_paired_and_aces_are_the_lowest_pair():
    assert razz_strength(c("9s Td Jc Qh Ks")) > razz_strength(c("2s 2d 3c 4h 5s"))
    assert razz_strength(c("As Ad 3c 4h 5s")) > razz_strength(c("2s 2d 3c 4h 5s"))
    assert razz_strength(c("8s 6d 4c 3h 2s")) > razz_strength(c("8s 7d 4c 3h 2s"))


def test_stud_hilo_low_needs_five_ranks_eight_or_lower():
    hi, lo = hilo8_strength(c("As 2d 3c 4h 5s Kd Kc"))
    assert lo is not None and hi > 0
    assert hilo8_strength(c("8s 7d 6c 5h 4s Kd Kc"))[1] is not None  # worst qualifier
    assert hilo8_strength(c("9s 7d 6c 5h 4s Kd Kc"))[1] is None
    assert hilo8_strength(c("As Ad 2c 2h 3s 3d Kc"))[1] is None  # only three low ranks


def test_deuce_to_seven_best_and_ace_high_wheel():
    best = low_27_strength(c("7s 5d 4c 3h 2s"))
    assert best > low_27_strength(c("7s 6d 4c 3h 2s"))
    assert best > low_27_strength(c("7s 5s 4s 3s 2s"))  # a flush is bad
    assert low_27_strength(c("6s 5d 4c 3h 2s")) < low_27_strength(c("Ks Qd Jc Th 8s"))
    wheel = low_27_strength(c("As 5d 4c 3h 2s"))  # ace high, not a straight
    assert wheel > low_27_strength(c("2s 2d 4c 3h 5s"))
    assert wheel < low_27_strength(c("Ks Qd Jc Th 8s"))


def test_badugi_four_card_rainbow_beats_any_three():
    assert badugi_strength(c("As 2d 3c 4h")) > badugi_strength(c("Ks Qd Jc Th"))
    assert badugi_strength(c("Ks Qd Jc Th")) > badugi_strength(c("As 2d 3c 4c"))
    assert badugi_strength(c("As 2d 3c 4c")) > badugi_strength(c("As 2s 3s 4s"))
    assert badugi_strength(c("As 2d 3c 4c")) == badugi_strength(c("As 2d 3c 4h")[:3] + c("Kc"))


def test_dispatch_knows_every_evaluator():
    hand = c("As 2d 3c 4h 5s")
    for ev in ("high", "razz", "hilo8", "low27", "lowa5"):
        assert strength(ev, hand)[0] > 0
    with pytest.raises(ValueError, match="unknown evaluator 'nope'"):
        strength("nope", hand)


# --- exhaustive class counts ----------------------------------------------------------------


def _rank_multisets():
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            yield ranks


def _hand(ranks, flush=False):
    used: dict[int, int] = {}
    out = []
    for r in ranks:
        s = 0 if flush else used.get(r, 0)
        used[r] = used.get(r, 0) + 1
        if not flush and len(set(ranks)) == 5:
            s = len(out) % 4 if len(out) < 4 else (out[0] & 3) ^ 1  # never five of a suit
        out.append(r * 4 + s)
    return out


def test_a5_low_has_6175_classes():
    # every multiset of 5 ranks (at most four of a kind) is its own ace-to-five class
    strengths = {razz_strength(_hand(r)) for r in _rank_multisets()}
    assert len(strengths) == 6175


def test_deuce_to_seven_has_7462_classes():
    strengths = {low_27_strength(_hand(r)) for r in _rank_multisets()}
    strengths |= {low_27_strength(_hand(r, flush=True)) for r in combinations(range(13), 5)}
    assert len(strengths) == 7462


# --- PokerKit cross-check ---------------------------------------------------------------------


pk = pytest.importorskip("pokerkit")


def _pk(text_cards):
    return "".join(text_cards)


def _texts(cards):
    return ["23456789TJQKA"[x >> 2] + "cdhs"[x & 3] for x in cards]


def _same_order(ours, theirs, pairs):
    for a, b in pairs:
        assert (ours(a) > ours(b)) == (theirs(a) > theirs(b)), (_texts(a), _texts(b))
        assert (ours(a) == ours(b)) == (theirs(a) == theirs(b)), (_texts(a), _texts(b))


def _pairs(n_cards, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        deal = rng.sample(range(52), 2 * n_cards)
        yield deal[:n_cards], deal[n_cards:]


@pytest.mark.pokerkit
@pytest.mark.slow
def test_razz_agrees_with_pokerkit_regular_low():
    from pokerkit.hands import RegularLowHand

    def theirs(cards):
        return RegularLowHand.from_game(_pk(_texts(cards)))

    _same_order(razz_strength, theirs, _pairs(7, 2000, "razz"))


@pytest.mark.pokerkit
def test_deuce_to_seven_agrees_with_pokerkit():
    from pokerkit.hands import StandardLowHand as DeuceToSevenLowHand

    def theirs(cards):
        return DeuceToSevenLowHand.from_game(_pk(_texts(cards)))

    _same_order(low_27_strength, theirs, _pairs(5, 3000, "27"))


@pytest.mark.pokerkit
@pytest.mark.slow
def test_eight_or_better_agrees_with_pokerkit():
    from pokerkit.hands import EightOrBetterLowHand

    def theirs(cards):
        try:
            return (1, EightOrBetterLowHand.from_game(_pk(_texts(cards))))
        except ValueError:
            return (0, None)

    rng = random.Random("8ob")
    for _ in range(3000):
        deal = rng.sample(range(52), 14)
        a, b = deal[:7], deal[7:]
        la, lb = hilo8_strength(a)[1], hilo8_strength(b)[1]
        ta, tb = theirs(a), theirs(b)
        assert (la is None) == (ta[0] == 0), _texts(a)
        if la is not None and lb is not None:
            assert (la > lb) == (ta[1] > tb[1]) and (la == lb) == (ta[1] == tb[1])


@pytest.mark.pokerkit
@pytest.mark.slow
def test_badugi_agrees_with_pokerkit():
    # FixedLimitBadugi uses BadugiHand (aces low). PokerKit's StandardBadugiHand ranks the
    # ace high, which is not badugi as dealt in cardrooms: not used here.
    from pokerkit.hands import BadugiHand

    def theirs(cards):
        return BadugiHand.from_game(_pk(_texts(cards)))

    _same_order(badugi_strength, theirs, _pairs(4, 3000, "badugi"))
