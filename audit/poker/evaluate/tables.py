"""Lookup tables and the numpy-vectorised high-hand evaluator behind ``high_strength_many``.

Each rank has an additive key chosen so that the sum of the keys of any 5, 6 or 7 cards
identifies their rank multiset (checked when a table is built; the keys are the greedy
minimum sequence also used by SKPokerEval). One array indexed by that sum gives the best
non-flush hand. Flushes are found from per-suit card counts packed 3 bits per suit into a
12-bit number; for the few hands holding five or more cards of a suit, an 8192-entry
table indexed by that suit's rank bitmask gives the best flush or straight flush.

Tables hold a dense ``int16`` index into the sorted list of distinct high strengths, so
the 7-card table is about 16 MB; each table is built once per process on first use (well
under 2 s) and never written to disk. Results equal :func:`audit.poker.evaluate.high.high_strength`.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from audit.poker.evaluate.high import _flush_strength, _nonflush_strength

__all__ = ["RANK_KEYS", "high_strength_many", "omaha_high_strength_many"]

RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
"""Additive rank keys, deuce to ace: sums over 5..7 cards are unique per card count."""

_CHUNK = 1 << 14  # rows per block: keeps the temporaries in cache
_SUIT_SHIFT = 23  # a card's value is its rank key plus its suit count bit shifted this far
_KEY_MASK = (1 << _SUIT_SHIFT) - 1  # rank-key sums stay below 7 * 1479181 < 2**23


@cache
def _strengths() -> np.ndarray:
    """Every distinct five-card high strength, ascending (the dense index space)."""
    values: set[int] = set()
    for ranks in combinations_with_replacement(range(13), 5):
        counts = [0] * 13
        for r in ranks:
            counts[r] += 1
        if max(counts) <= 4:
            values.add(_nonflush_strength(counts))
    for ranks in combinations(range(13), 5):
        values.add(_flush_strength(sum(1 << r for r in ranks)))
    return np.array(sorted(values), dtype=np.int32)


def _dense(strength: int | np.ndarray) -> np.ndarray:
    return np.searchsorted(_strengths(), strength).astype(np.int16)


@cache
def _nonflush_table(n_cards: int) -> np.ndarray:
    """Dense strength of the best non-flush hand, indexed by the sum of rank keys."""
    keys: list[int] = []
    values: list[int] = []
    for ranks in combinations_with_replacement(range(13), n_cards):
        counts = [0] * 13
        for r in ranks:
            counts[r] += 1
        if max(counts) <= 4:
            keys.append(sum(RANK_KEYS[r] for r in ranks))
            values.append(_nonflush_strength(counts))
    key_arr = np.array(keys, dtype=np.int64)
    if np.unique(key_arr).size != key_arr.size:  # pragma: no cover - guards RANK_KEYS
        raise RuntimeError(f"RANK_KEYS collide for {n_cards}-card rank multisets")
    table = np.full(int(key_arr.max()) + 1, -1, dtype=np.int16)
    table[key_arr] = _dense(np.array(values, dtype=np.int32))
    return table


@cache
def _flush_tables() -> tuple[np.ndarray, np.ndarray]:
    """(flush suit by packed suit counts, dense best flush by 13-bit rank mask)."""
    flush_suit = np.full(1 << 12, -1, dtype=np.int8)
    for packed in range(1 << 12):
        for suit in range(4):
            if (packed >> (3 * suit)) & 7 >= 5:
                flush_suit[packed] = suit
    by_mask = np.full(1 << 13, -1, dtype=np.int16)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            by_mask[mask] = _dense(_flush_strength(mask))
    return flush_suit, by_mask


@cache
def _card_arrays() -> tuple[np.ndarray, ...]:
    """Per-card lookups: value (rank key plus packed suit count), suit, rank bit, card bit."""
    cards = np.arange(52, dtype=np.int64)
    rank_key = np.array(RANK_KEYS, dtype=np.int64)[cards >> 2]
    value = rank_key | (1 << (3 * (cards & 3))) << _SUIT_SHIFT
    suit = (cards & 3).astype(np.int8)
    rank_bit = (1 << (cards >> 2)).astype(np.int32)
    card_bit = np.left_shift(np.uint64(1), cards.astype(np.uint64))
    return value, suit, rank_bit, card_bit


def _check_shape_and_range(hands: np.ndarray) -> None:
    if hands.ndim != 2 or hands.shape[1] not in (5, 6, 7):
        raise ValueError(
            f"high_strength_many needs an (n, 5), (n, 6) or (n, 7) int array, got shape "
            f"{hands.shape}; stack one row of cards per hand"
        )
    _check_cards(hands)


def _check_cards(hands: np.ndarray) -> None:
    if not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(f"high_strength_many needs integer cards, got dtype {hands.dtype}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        bad = np.argwhere((hands < 0) | (hands > 51))[0]
        raise ValueError(
            f"row {bad[0]} holds {int(hands[tuple(bad)])}, not a known card 0..51 "
            "(unknown '??' and joker 'Xj' are not evaluated)"
        )


def high_strength_many(hands: npt.ArrayLike, *, validate: bool = True) -> np.ndarray:
    """High strengths (``int32``, shape ``(n,)``) of an ``(n, 5|6|7)`` array of cards.

    ``validate=False`` skips the range and duplicate-card checks for trusted input.

    >>> from audit.poker.cards import parse_cards as c
    >>> from audit.poker.evaluate.high import describe_high
    >>> out = high_strength_many([c("As Ks Qs Js Ts 2d 3c"), c("2c 2d 5h 7s 9c Jd Kh")])
    >>> [describe_high(int(s)) for s in out]
    ['straight flush, ace high (royal flush)', 'one pair, deuces']
    """
    arr = np.asarray(hands)
    if arr.ndim == 2 and arr.shape[0] == 0:
        return np.empty(0, dtype=np.int32)
    _check_shape_and_range(arr)  # also keeps negative cards from wrapping around in gathers
    n_cards = arr.shape[1]
    table = _nonflush_table(n_cards)
    flush_suit, by_mask = _flush_tables()
    card_value, suit_of, rank_bit, card_bit = _card_arrays()
    strengths = _strengths()
    out = np.empty(arr.shape[0], dtype=np.int32)
    for start in range(0, arr.shape[0], _CHUNK):
        cols = arr[start : start + _CHUNK].T  # strided column views, no copy
        value = card_value[cols[0]]
        for j in range(1, n_cards):
            value += card_value[cols[j]]
        if validate:
            _check_distinct(cols, card_bit, start, arr)
        dense = table[value & _KEY_MASK]
        suit = flush_suit[value >> _SUIT_SHIFT]
        rows = np.flatnonzero(suit >= 0)
        if rows.size:
            sub = cols[:, rows]
            in_suit = suit_of[sub] == suit[rows]
            mask = np.where(in_suit, rank_bit[sub], 0).sum(axis=0)
            dense[rows] = np.maximum(dense[rows], by_mask[mask])
        out[start : start + dense.size] = strengths[dense]
    return out


def _check_distinct(cols: np.ndarray, card_bit: np.ndarray, start: int, arr: np.ndarray) -> None:
    """Raise if a row holds a card twice (the sum of one-hot card bits then differs from the OR)."""
    seen = card_bit[cols[0]]
    total = seen.copy()
    for j in range(1, cols.shape[0]):
        bit = card_bit[cols[j]]
        seen |= bit
        total += bit
    if not np.array_equal(seen, total):
        row = start + int(np.argmax(seen != total))
        raise ValueError(f"row {row} holds the same card twice: {arr[row].tolist()}")


def omaha_high_strength_many(holes: npt.ArrayLike, boards: npt.ArrayLike) -> np.ndarray:
    """Vectorised :func:`audit.poker.evaluate.high.omaha_high_strength`: rows of hole and
    board cards.

    ``holes`` is ``(n, 2..6)`` and ``boards`` ``(n, 3..5)``; every row uses exactly two hole
    cards and three board cards (``EVAL-SELECT``). Each of the C(h,2) x C(b,3) five-card
    combinations goes through the five-card tables and the best one is kept.

    >>> from audit.poker.cards import parse_cards as c
    >>> from audit.poker.evaluate.high import describe_high
    >>> s = omaha_high_strength_many([c("2c 2d 3h 4s")], [c("As Kd Qc Jh Td")])
    >>> describe_high(int(s[0]))
    'one pair, deuces'
    """
    hole = np.asarray(holes)
    board = np.asarray(boards)
    if hole.ndim != 2 or board.ndim != 2 or hole.shape[0] != board.shape[0]:
        raise ValueError(
            f"need (n, h) hole and (n, b) board arrays with the same n, got {hole.shape} "
            f"and {board.shape}"
        )
    if not (2 <= hole.shape[1] <= 6 and 3 <= board.shape[1] <= 5):
        raise ValueError(
            f"Omaha needs 2..6 hole and 3..5 board cards per row, got {hole.shape[1]} and "
            f"{board.shape[1]}"
        )
    if hole.shape[0] == 0:
        return np.empty(0, dtype=np.int32)
    cards = np.concatenate([hole, board], axis=1)
    _check_cards(cards)
    _check_distinct(cards.T, _card_arrays()[3], 0, cards)
    pairs = list(combinations(range(hole.shape[1]), 2))
    triples = list(combinations(range(board.shape[1]), 3))
    fives = np.concatenate(
        [
            np.concatenate([hole[:, list(p)], board[:, list(t)]], axis=1)[:, None, :]
            for p in pairs
            for t in triples
        ],
        axis=1,
    )  # (n, combos, 5)
    flat = high_strength_many(fives.reshape(-1, 5), validate=False)
    best: np.ndarray = flat.reshape(hole.shape[0], -1).max(axis=1)
    return best
