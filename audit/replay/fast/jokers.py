"""Hands holding the joker in the compiled replay (audit/poker/jokers.py): the high hand with the
joker as an ace or the card making a straight or flush, the joker low, jacks-or-better
openers and the seven-or-better of ace-to-five's sevens rule."""

from __future__ import annotations

import numpy as np
from numba import njit

from audit.replay.fast.layout import JOKER
from audit.replay.fast.strength import _bits, _strength


@njit(cache=True)
def _openers(cards, n):
    """jokers.py has_openers, the joker (one) playing as an ace or as the card completing a
    straight or flush: False also for cards not all known."""
    if n != 5:
        return False
    jokers = 0
    five = np.empty(5, np.int64)
    for j in range(5):
        five[j] = cards[j]
        if cards[j] < 0:
            return False
        if cards[j] == JOKER:
            jokers += 1
            at = j
    if jokers == 0:
        return _has_openers(five, 5)
    if jokers > 1:
        return False
    no_ace = True
    for c in range(JOKER):
        if _holds(cards, 5, c):
            continue
        five[at] = c
        if c >> 2 == 12:
            no_ace = False
            if _has_openers(five, 5):
                return True
        elif _straight_or_flush(five):
            return True
    return no_ace  # four aces and the joker: five aces


@njit(cache=True, inline="always")
def _holds(cards, n, c):
    for j in range(n):
        if cards[j] == c:
            return True
    return False


@njit(cache=True)
def _straight_or_flush(five):
    suits = 0
    mask = 0
    for j in range(5):
        suits |= 1 << (five[j] & 3)
        mask |= 1 << (five[j] >> 2)
    if suits & (suits - 1) == 0:
        return True
    if _bits(mask) != 5:
        return False
    low = 0
    while not mask >> low & 1:
        low += 1
    return mask >> low == 0b11111 or mask == 0b1000000001111


@njit(cache=True)
def _joker_high(cards, table5, table6, table7, flush_suit, by_mask, strengths, card_value):
    """jokers.py game_strength("high") of five known cards holding one joker: the best of
    the joker as any ace not held, or as any card making a straight or flush; five aces when
    every ace is held."""
    at = 0
    for j in range(5):
        if cards[j] == JOKER:
            at = j
    best = 0
    no_ace = True
    five = cards.copy()
    for c in range(JOKER):
        if _holds(cards, 5, c):
            continue
        five[at] = c
        v = _strength(five, 5, table5, table6, table7, flush_suit, by_mask, strengths,
                      card_value)
        cat = v >> 20
        if c >> 2 == 12:
            no_ace = False
        if c >> 2 == 12 or cat == 4 or cat == 5 or cat == 8:  # STRAIGHT, FLUSH, S. FLUSH
            if v > best:
                best = v
    if no_ace:
        return (8 << 20) | 0xFFFFF  # FIVE_ACES
    return best


@njit(cache=True)
def _has_openers(cards, n):
    """jokers.py has_openers for five known cards without the joker (anything else: False):
    a pair of jacks or better, two pair, trips, a straight, a flush or better."""
    if n != 5:
        return False
    counts = np.zeros(13, np.int64)
    suits = 0
    for j in range(5):
        c = cards[j]
        if c < 0 or c >= JOKER:
            return False
        counts[c >> 2] += 1
        suits |= 1 << (c & 3)
    pairs = 0
    high_pair = False
    mask = 0
    for r in range(13):
        if counts[r]:
            mask |= 1 << r
        if counts[r] >= 3:
            return True
        if counts[r] == 2:
            pairs += 1
            if r >= 9:  # jacks (2 = 0 .. A = 12)
                high_pair = True
    if pairs >= 2 or high_pair:
        return True
    if suits & (suits - 1) == 0:
        return True  # a flush
    if pairs == 0:
        low = 0
        while not mask >> low & 1:
            low += 1
        if mask >> low == 0b11111 or mask == 0b1000000001111:  # a straight, or the wheel
            return True
    return False


@njit(cache=True)
def _joker_low(cards, n):
    """jokers.py joker_low: a card of the lowest ace-low rank missing from the other cards
    (the rank alone decides an ace-to-five low)."""
    mask = 0
    for j in range(n):
        if 0 <= cards[j] < JOKER:
            mask |= 1 << (((cards[j] >> 2) + 1) % 13)
    low = 0
    while mask >> low & 1:
        low += 1
    return ((low - 1) % 13) * 4


@njit(cache=True)
def _seven_or_better(cards, n):
    """jokers.py seven_or_better: five known cards of different ranks, none above seven,
    aces low (the joker filling the lowest gap)."""
    if n != 5:
        return False
    mask = 0
    jokers = 0
    for j in range(n):
        if cards[j] < 0:
            return False
        if cards[j] == JOKER:
            jokers += 1
        else:
            mask |= 1 << (((cards[j] >> 2) + 1) % 13)
    if jokers > 1:
        return True  # not rankable; the reference decides (the caller goes back)
    if jokers:
        mask |= 1 << ((_joker_low(cards, n) >> 2) + 1) % 13
    return mask < (1 << 7) and _bits(mask) == 5
