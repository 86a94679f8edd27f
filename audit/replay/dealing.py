"""Dealing integrity: hole-card counts, board size, burns, duplicate and unknown cards."""

from __future__ import annotations

from audit.poker.cards import parse_cards
from audit.replay.betting import flush_held
from audit.replay.forced import new_round
from audit.replay.state import BOARD_AFTER, SPLIT_BOARDS, STREETS, HandState
from audit.rules.ids import (
    BOARD_FLOP_EXTRA,
    BURN_EACH_ROUND,
    DEAD_CARD_COUNT,
    DEAL_DUPLICATE_CARD,
    DEAL_PREMATURE,
    DQ_INCONSISTENT_LOG,
)

DQ_BOARD = DQ_INCONSISTENT_LOG


class Deck:
    """Cards seen so far (for DEAL-DUPLICATE-CARD): a 52-slot list of first-seen seqs."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen = [-1] * 52

    def add(self, h: HandState, cards: tuple[int, ...], seq: int, where: str) -> None:
        seen = self.seen
        for c in cards:
            if c < 0 or c >= 52:
                continue
            if seen[c] >= 0:
                if not h.void:
                    h.flag(DEAL_DUPLICATE_CARD, seq, f"The same card was dealt twice ({where} "
                           f"at event {seq} repeats a card first seen at event {seen[c]}); all "
                           "action is void and every player gets back what he put in.",
                           expected="distinct cards", actual="duplicate")
                h.void = True
            else:
                seen[c] = seq


def deal(h: HandState, deck: Deck, detail: str | None, s: int | None, text: str | None,
         seq: int) -> None:
    """A `deal` event: hole cards to a seat, or board cards (which start the next street)."""
    cards = parse_cards(text) if text else ()
    if detail and detail.startswith("board@run"):
        _run_board(h, deck, detail, cards, seq)
        return
    if detail == "board" or (s is None and detail != "hole"):
        _board(h, deck, cards, seq)
        return
    if s is None or not 0 < s < h.size or not h.in_hand[s]:
        h.flag(DQ_INCONSISTENT_LOG, seq, f"Cards were dealt to seat {s}, which is not dealt "
               "into this hand.", expected="a dealt-in seat", actual=s)
        return
    h.hole[s].extend(cards)
    if s not in h.dealt_seqs:
        h.dealt_seqs[s] = seq
    deck.add(h, cards, seq, f"{h.who(s)}'s hole cards")


def _run_board(h: HandState, deck: Deck, detail: str, cards: tuple[int, ...],
               seq: int) -> None:
    """`board@runN`: cards of another runout (run it twice). They are the cards in which that
    board differs from the first; they come from the same deck, after the betting is over."""
    try:
        run = int(detail[9:])
    except ValueError:
        run = 0
    if run < 2:
        h.flag(DQ_BOARD, seq, f"A board for run {detail[9:]!r} was dealt; runs are numbered "
               "from 2 for the extra boards of a run-it-twice.", actual=detail)
        return
    if h.variant in SPLIT_BOARDS:
        _second_board(h, deck, run, cards, seq)
        return
    if h.to_act and h.remaining() > 1:
        h.flag(DEAL_PREMATURE, seq, f"A second runout was dealt before the "
               f"{STREETS[h.street]} betting was complete ({h.who(h.to_act)} still had to act); "
               "a pot is run twice only when no betting remains.", seat=h.to_act)
    mine = h.run_cards.setdefault(run, [])
    mine.extend(cards)
    deck.add(h, cards, seq, f"the board of run {run}")


def _second_board(h: HandState, deck: Deck, run: int, cards: tuple[int, ...],
                  seq: int) -> None:
    """Split hold'em: the second board's cards of the street just dealt on the first board.
    The street's betting begins after both (the first board's deal started it), so the second
    board comes while the street's first player is still to act: not premature, and late once
    anyone has acted on the street."""
    if run != 2:
        h.flag(DQ_BOARD, seq, f"A board for run {run} was dealt; {h.variant} has two boards, "
               "the second dealt as run 2.", actual=run)
        return
    if any(h.acted[s] for s in h.seats):
        h.flag(DQ_BOARD, seq, f"The second board's {STREETS[h.street]} was dealt after that "
               f"street's betting began; {h.variant} deals both boards' cards of a street "
               "before its betting.", actual=len(cards))
    mine = h.run_cards.setdefault(2, [])
    need = len(h.board) - len(mine)
    if len(cards) != need:
        h.flag(DQ_BOARD, seq, f"The second board was dealt {len(cards)} card(s) with the "
               f"{STREETS[h.street]}; it should have {need}: the two boards are dealt street "
               f"by street, and the first has {len(h.board)}.", expected=need,
               actual=len(cards))
    mine.extend(cards)
    deck.add(h, cards, seq, "the second board")


def run_board(h: HandState, run: int) -> list[int]:
    """The full board of run `run` (1 = the first board): the first board's cards up to
    where that run's own cards begin, then its own cards (split hold'em's second board shares
    no card with the first: its own cards are the whole board)."""
    if run <= 1:
        return h.board
    own = h.run_cards.get(run, [])
    if h.variant in SPLIT_BOARDS:
        return own
    keep = 5 - len(own)
    return h.board[:keep if keep > 0 else 0] + own


def _board(h: HandState, deck: Deck, cards: tuple[int, ...], seq: int) -> None:
    nxt = h.street + 1
    if h.street >= 3:
        h.flag(DQ_BOARD, seq, f"More board cards were dealt after the river "
               f"({len(cards)} more); hold'em and Omaha boards have five cards.",
               expected=5, actual=len(h.board) + len(cards))
        h.board.extend(cards)
        deck.add(h, cards, seq, "the board")
        return
    if h.oot:
        flush_held(h)
    if h.to_act and h.remaining() > 1:
        h.flag(DEAL_PREMATURE, seq, f"The {STREETS[nxt]} was dealt before the "
               f"{STREETS[h.street]} betting was complete ({h.who(h.to_act)} still had to act); "
               "a card dealt before the betting is complete does not play.",
               seat=h.to_act)
    need = BOARD_AFTER[nxt] - BOARD_AFTER[h.street]
    if len(cards) != need:
        if nxt == 1 and len(cards) > 3:
            h.flag(BOARD_FLOP_EXTRA, seq, f"The flop was dealt with {len(cards)} cards; a "
                   "flop with too many cards must be redealt.", expected=3, actual=len(cards))
        else:
            h.flag(DQ_BOARD, seq, f"The {STREETS[nxt]} has {len(cards)} card(s); it should "
                   f"have {need}.", expected=need, actual=len(cards))
    h.board.extend(cards)
    deck.add(h, cards, seq, f"the {STREETS[nxt]}")
    new_round(h, nxt)


def burn(h: HandState, seq: int) -> None:
    """A burn card before the next street."""
    h.burns += 1
    nxt = h.street + 1
    if nxt <= 3:
        h.street_burns[nxt] += 1


def check_counts(h: HandState, board_seqs: list[int]) -> None:
    """End of hand: hole-card counts per seat and one burn per street (when burns are logged)."""
    n = h.hole_n
    for s in h.seats:
        got = len(h.hole[s]) + h.discarded.get(s, 0)  # Irish: with the two cards discarded
        if got and got != n:
            h.flag(DEAD_CARD_COUNT, h.dealt_seqs.get(s), f"{h.who(s)} was dealt {got} hole "
                   f"cards; {h.variant} deals {n}. A hand with the wrong number of cards is "
                   "dead.", seat=s, expected=n, actual=got, delta=None)
    second = h.run_cards.get(2, [])
    if h.variant in SPLIT_BOARDS and len(second) != len(h.board) and board_seqs:
        h.flag(DQ_BOARD, board_seqs[-1], f"The second board has {len(second)} card(s) and the "
               f"first {len(h.board)}; in {h.variant} both boards are dealt street by street.",
               expected=len(h.board), actual=len(second))
    if h.burns:
        for k, bseq in enumerate(board_seqs, start=1):
            b = h.street_burns[k] if k <= 3 else 1
            if b != 1:
                h.flag(BURN_EACH_ROUND, bseq, f"{b} burn cards were logged before the "
                       f"{STREETS[k]}; exactly one card is burned before each of the flop, "
                       "turn and river.", expected=1, actual=b)


def irish_discard(h: HandState, s: int | None, text: str | None, seq: int) -> None:
    """Irish: the seat discards hole cards after the flop (`??` when the log does not say
    which) and plays on with the rest as hold'em. A discard must be two of his own cards,
    once, after the flop."""
    if s is None or not 0 < s < h.size or not h.in_hand[s]:
        return
    cards = parse_cards(text) if text else ()
    hole = h.hole[s]
    if h.discarded.get(s) or len(h.board) != 3 or len(cards) != 2:
        h.flag(DQ_INCONSISTENT_LOG, seq, f"{h.who(s)} discarded {len(cards)} cards with "
               f"{len(h.board)} board cards; in Irish each player discards two, once, after "
               "the flop.", seat=s, expected=2, actual=len(cards))
    removed = 0
    for c in cards:
        if c >= 0 and c in hole:
            hole.remove(c)
        elif any(x < 0 for x in hole):
            hole.remove(next(x for x in hole if x < 0))
        else:
            h.flag(DQ_INCONSISTENT_LOG, seq, f"{h.who(s)} discarded a card he was not "
                   "dealt.", seat=s, actual=text)
            continue
        removed += 1
    h.discarded[s] = h.discarded.get(s, 0) + removed
