"""Stud family rules: the bring-in card (lowest upcard by suit, razz highest with aces low), the
board ranking that decides who acts first on later streets (RULEBOOK §5.8), and the odd-chip
order by card (highest card by suit in high games, lowest in low games; all cards count).

Pure functions over card indices (audit.poker.cards: rank * 4 + suit, suits c < d < h < s).
"""

from __future__ import annotations

from collections.abc import Sequence

# A board's rank, compared only with boards ranked the same way: (shape, ranks) high, or
# (paired cards, shape, ranks) negated for razz.
BoardKey = tuple[int | tuple[int, ...], ...]


def _ace_low(card: int) -> int:
    """Sort key of a card with the ace lowest: rank (A=0 .. K=12) then suit."""
    return (((card >> 2) + 1) % 13) * 4 + (card & 3)


def bring_in_seat(up: dict[int, int], rule: str) -> int:
    """The seat that must bring in, from each seat's 3rd-street upcard (0 when none known).

    ``low_ace_high``: the lowest upcard, ace high, suits c < d < h < s (ORDER-STUD-FIRST,
    STUD-BRINGIN-LOWCARD, ORDER-STUDHL). ``high_ace_low``: razz, the highest upcard with aces
    low (K♠ highest, A♣ lowest; ORDER-RAZZ).
    """
    known = {s: c for s, c in up.items() if c >= 0}
    if not known:
        return 0
    if rule == "high_ace_low":
        return max(known, key=lambda s: _ace_low(known[s]))
    return min(known, key=lambda s: known[s])


def board_key(cards: Sequence[int], low: bool) -> BoardKey:
    """Rank of a partial stud board (1–4 upcards, plus a common card), larger is better.

    High: by quads, trips, pairs, then high cards; straights and flushes are ignored
    (EVAL-BOARD). Low (razz): unpaired beats paired, then the lowest cards, aces low.
    """
    counts: dict[int, int] = {}
    for c in cards:
        if c < 0:
            continue
        r = ((c >> 2) + 1) % 13 if low else c >> 2
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    # only the groups of two or more make the category, so boards of different sizes (a
    # seventh card dealt face up) compare by category first: (2,) one pair, (2, 2) two pair,
    # (3,) trips, (3, 2) a full house, (4,) quads; then the ranks, highest group first
    shape = tuple(n for _, n in groups if n > 1)
    ranks = tuple(r for r, _ in groups)
    if not low:
        return (shape, ranks)
    # fewer paired cards, then lower ranks, are better: negate for "larger is better"
    return (-sum(shape) + len(shape), tuple(-n for n in shape), tuple(-r for r in ranks))


def first_by_board(boards: dict[int, list[int]], order: list[int], low: bool) -> int:
    """The seat with the best board; ties go to the first tied seat in `order` (clockwise
    from the dealer), ORDER-STUD-LATER / ORDER-RAZZ / ORDER-STUDHL."""
    best = 0
    best_key: BoardKey | None = None
    for s in order:
        if s not in boards:
            continue
        k = board_key(boards[s], low)
        if best_key is None or k > best_key:
            best, best_key = s, k
    return best


def has_open_pair(cards: Sequence[int]) -> bool:
    """True when the upcards hold a pair (BET-STUD-OPENPAIR on 4th street)."""
    ranks = [c >> 2 for c in cards if c >= 0]
    return len(ranks) != len(set(ranks))


def oddchip_order(seats: list[int], cards: dict[int, list[int]], low: bool) -> list[int]:
    """Winners ordered for odd chips (POT-ODDCHIP-STUD): the highest card by suit first in
    high games; the lowest card by suit first in low games (aces low)."""
    if low:
        return sorted(seats, key=lambda s: min((_ace_low(c) for c in cards[s] if c >= 0),
                                               default=99))
    return sorted(seats, key=lambda s: -max((c for c in cards[s] if c >= 0), default=-1))
