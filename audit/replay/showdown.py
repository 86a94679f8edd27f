"""Who wins each pot: high hands, 8-or-better low halves, ties, cards speak, run it twice."""

from __future__ import annotations

from audit.poker.evaluate.high import high_strength, omaha_high_strength, omaha_low8_strength
from audit.replay.dealing import run_board
from audit.replay.pots import split
from audit.replay.shortdeck import SHORT_VARIANTS, short_high
from audit.replay.state import HandState


class PotResult:
    """One pot's outcome: amount, contenders, high winners, low winners (None = no low),
    or unverifiable when a needed hand is unknown."""

    __slots__ = ("amount", "eligible", "high", "low", "verified", "label")

    def __init__(self, amount: int, eligible: list[int], label: str) -> None:
        self.amount = amount
        self.eligible = eligible
        self.high: list[int] = []
        self.low: list[int] | None = None
        self.verified = True
        self.label = label


def cards_of(h: HandState, s: int) -> list[int] | None:
    """The seat's known hole cards, or None when any is unknown."""
    shown = h.shown[s]
    cards = list(shown) if shown is not None and all(c >= 0 for c in shown) else h.hole[s]
    # unknown (??) and, outside the joker games, the joker: the hand cannot be evaluated
    need = 2 if h.variant == "irish" else h.hole_n  # Irish plays the two cards kept
    if len(cards) != need or any(not 0 <= c < 52 for c in cards):
        return None
    return cards


def clockwise(h: HandState, seats: list[int]) -> list[int]:
    """Seats in clockwise order starting left of the button (for odd chips)."""
    pos = {s: i for i, s in enumerate(h.order)}
    return sorted(seats, key=lambda s: pos.get(s, 99))


def settle(h: HandState, pots: list[tuple[int, list[int]]], shares: list[int],
           strengths: dict[int, tuple[int, int | None]]) -> list[PotResult]:
    """Award every pot into `shares`; return the per-pot results (main pot first).

    Run it twice (`h.run_cards`): each pot is divided into equal parts, one per board, the
    odd chip to the first run; each part is decided by its own board (POT-DEAL-TWICE).
    """
    runs = 1 + len(h.run_cards)
    results: list[PotResult] = []
    for k, (amount, eligible) in enumerate(pots):
        label = "main" if k == 0 else f"side-{k}"
        q, r = divmod(amount, runs)
        for run in range(1, runs + 1):
            part = q + (1 if run <= r else 0)
            res = PotResult(part, eligible, label if run == 1 else f"{label}@run{run}")
            results.append(res)
            board = run_board(h, run)
            # strengths of the first board are kept for the projections
            cache = strengths if run == 1 else {}
            _settle_pot(h, res, board, shares, cache)
    return results


def _settle_pot(h: HandState, res: PotResult, board: list[int], shares: list[int],
                strengths: dict[int, tuple[int, int | None]]) -> None:
    amount, eligible = res.amount, res.eligible
    omaha = h.hole_n != 2 and h.variant != "irish"  # Irish plays its two kept cards as hold'em
    # Declining to show ("doesn't show hand") forfeits nothing when no one else is left
    # in the pot: the last live hand wins uncontested (RULEBOOK §4.14).
    contenders = eligible if len(eligible) == 1 else [
        s for s in eligible if not h.mucked[s]]
    if len(contenders) == 1:
        res.high = contenders
        shares[contenders[0]] += amount
        return
    if not contenders or len(board) != 5 or any(not 0 <= c < 52 for c in board):
        res.verified = False
        return
    best = -1
    high: list[int] = []
    best_low = -1
    low: list[int] = []
    for s in contenders:
        sv = strengths.get(s)
        if sv is None:
            cards = cards_of(h, s)
            if cards is None:
                res.verified = False
                return
            if omaha:
                hi = omaha_high_strength(cards, board)
                lo = omaha_low8_strength(cards, board) if h.hilo else None
            elif h.variant in SHORT_VARIANTS:  # 6+ hold'em ranks (audit/poker/evaluate/short.py)
                short = short_high(h, cards + board)
                if short is None:  # a card outside the 36-card deck: nothing to decide on
                    res.verified = False
                    return
                hi, lo = short, None
            else:
                hi = high_strength(cards + board)
                lo = None
            sv = (hi, lo)
            strengths[s] = sv
        hi, lo = sv
        if hi > best:
            best = hi
            high = [s]
        elif hi == best:
            high.append(s)
        if lo is not None:
            if lo > best_low:
                best_low = lo
                low = [s]
            elif lo == best_low:
                low.append(s)
    res.high = clockwise(h, high)
    if low:
        res.low = clockwise(h, low)
        low_half = amount // 2
        split(amount - low_half, res.high, shares)
        split(low_half, res.low, shares)
    else:
        split(amount, res.high, shares)
