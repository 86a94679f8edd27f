"""How PokerKit 0.7.7 settles a showdown, next to how the rulebook does, as one small oracle.

The PokerKit differential (tests/replay/test_replay_pokerkit.py) must show that every hand where our
replay and PokerKit disagree is explained, not merely counted. PokerKit departs from the
rulebook in exactly three settlement conventions (read from pokerkit/state.py: `State.pots`,
`_begin_chips_pushing`, `push_chips`); `settle` applies any subset of them to a generated hand
(our event rows plus PokerKit's end-of-hand statuses). With none applied it is the rulebook;
with all three it must reproduce PokerKit's final stacks exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum, unique
from typing import Any

from audit.poker.cards import parse_cards
from audit.poker.evaluate.high import high_strength, omaha_high_strength, omaha_low8_strength

_CHIPS_IN = frozenset({"post", "bet", "raise", "call", "complete"})


@unique
class Convention(StrEnum):
    """A PokerKit settlement convention that the rulebook does not share."""

    MUCKED_HANDS_LEAVE_POTS = "mucked_hands_leave_pots"
    """PokerKit builds the pots after the losing hands are mucked at showdown, so a mucked
    all-in player no longer separates his main pot from the side pot above it: the two merge
    and their odd chips are computed once. Rulebook: POT-SIDEPOT-SEPARATE (000 §2 Ties
    r.5(d)) - the main pot and each side pot are split as separate pots, never mixed."""

    REMAINDER_TO_FIRST = "remainder_to_first"
    """PokerKit gives the whole remainder of a split to the first winner. Rulebook:
    POT-ODDCHIP-MAX1 (000 §2 Ties r.4) - no player receives more than one odd chip."""

    LOW_HALF_FROM_ANY_POT = "low_half_from_any_pot"
    """PokerKit splits every pot into high and low halves when anyone at the showdown has a
    qualifying low, and a pot whose own contenders have none gives its low half to all of them
    as a tie. Rulebook: POT-HILO-SPLIT (000 §6 r.2) and POT-SIDEPOT-SEPARATE - each pot is
    split on its own, and with no qualifying low among its contenders the high hand scoops."""


ALL = frozenset(Convention)


def settle(rows: Sequence[dict[str, Any]], statuses: Sequence[bool], *, hole_n: int,
           hilo: bool, conventions: Iterable[Convention] = ()) -> dict[int, int]:
    """Final stack per seat of a generated button-game hand (seat 1 first left of the button,
    the button last), settled by the rulebook except for the given PokerKit conventions.
    `statuses` are PokerKit's per-player statuses at the end (False once folded or mucked)."""
    conv = frozenset(conventions)
    stack: dict[int, int] = {}
    contrib: dict[int, int] = {}
    folded: set[int] = set()
    holes: dict[int, tuple[int, ...]] = {}
    board: list[int] = []
    for r in rows:
        kind, seat = r["kind"], r.get("seat")
        if kind == "seat":
            stack[seat] = r["amount"]
            contrib[seat] = 0
        elif kind in _CHIPS_IN:
            contrib[seat] += r.get("amount") or 0
        elif kind == "fold":
            folded.add(seat)
        elif kind == "deal" and r.get("detail") == "hole":
            holes[seat] = parse_cards(r["cards"])
        elif kind == "deal":
            board.extend(parse_cards(r["cards"]))
    seats = sorted(stack)
    top = max(seats, key=lambda s: contrib[s])
    second = max(contrib[s] for s in seats if s != top)
    if contrib[top] > second:  # the uncalled excess goes back to its owner (both agree)
        contrib[top] = second
    final = {s: stack[s] - contrib[s] for s in seats}
    alive = [s for s in seats if s not in folded]
    if Convention.MUCKED_HANDS_LEAVE_POTS in conv:
        alive = [s for s in alive if statuses[s - 1]]
    strength = {s: _strength(holes[s], board, hole_n, hilo) for s in alive} \
        if len(alive) > 1 else {}
    any_low = any(lo is not None for _, lo in strength.values())
    for amount, eligible in _pots(contrib, seats, alive):
        if len(eligible) == 1:
            final[eligible[0]] += amount
            continue
        best = max(strength[s][0] for s in eligible)
        high = [s for s in eligible if strength[s][0] == best]
        lows = [strength[s][1] for s in eligible if strength[s][1] is not None]
        low: list[int] = []
        if lows:
            low = [s for s in eligible if strength[s][1] == max(lows)]
        elif any_low and Convention.LOW_HALF_FROM_ANY_POT in conv:
            low = list(eligible)  # PokerKit: no low in this pot is a tie of "no hand"
        low_half = amount // 2 if low else 0
        _split(amount - low_half, high, final, conv)
        if low:
            _split(low_half, low, final, conv)
    return final


def _strength(hole: tuple[int, ...], board: list[int], hole_n: int,
              hilo: bool) -> tuple[int, int | None]:
    if hole_n == 2:
        return high_strength(list(hole) + board), None
    return (omaha_high_strength(hole, board),
            omaha_low8_strength(hole, board) if hilo else None)


def _pots(contrib: dict[int, int], seats: list[int],
          alive: list[int]) -> list[tuple[int, list[int]]]:
    """Layers of contributions; consecutive layers with the same contenders are one pot."""
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in sorted({c for c in contrib.values() if c > 0}):
        amount = sum(min(contrib[s], level) - prev for s in seats if contrib[s] > prev)
        eligible = [s for s in alive if contrib[s] >= level]
        if not eligible:  # chips of folded players above every live level: the last pot's
            eligible = pots[-1][1]
        if pots and pots[-1][1] == eligible:
            amount += pots.pop()[0]
        pots.append((amount, eligible))
        prev = level
    return pots


def _split(amount: int, winners: list[int], final: dict[int, int],
           conv: frozenset[Convention]) -> None:
    """Winners are in seat order, i.e. clockwise from the button."""
    q, r = divmod(amount, len(winners))
    for i, s in enumerate(winners):
        if Convention.REMAINDER_TO_FIRST in conv:
            final[s] += q + (r if i == 0 else 0)
        else:
            final[s] += q + (1 if i < r else 0)
