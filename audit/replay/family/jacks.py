"""Jacks or better (RULEBOOK §4.12): split openers (JACKS-SPLIT-OPENERS), false openers
(JACKS-FALSE-OPENER) and the pot that plays in spite of them (JACKS-POT-PLAYS).

Split openers: a player may split his openers, but if his final hand plus his discards could
not have held openers, he loses the pot. Judged only where the opener's five cards were unknown
when he opened (JACKS-OPENERS judges them when they were logged) and the log gives what
rebuilds them: his shown final hand, the cards he drew and his discards. The pot he was paid is
the breach; the split of the pot by cards is left to the award checks.

False openers: an opener whose five cards were logged when he opened and hold no openers has a
dead hand (001 3.2.9.5.2). The award checks settle the hand without him (audit/replay/awards.py
asks the draw hooks for the ruled pots): he wins nothing and his opening bet stays in the pot,
carried to the next deal when nobody else is left to win it; a hand that ends before the draw
with the bets given back is a pot not played, legal only while the action before the draw was
incomplete with no raise and at most one call (001 3.2.9.5.4). What the log cannot show: who
may declare the pot open (the players who passed openers are not logged as such), when the
false openers were shown, and the carried chips on the next deal (no event carries them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from audit.poker.jokers import has_openers
from audit.replay.state import HandState
from audit.rules.ids import JACKS_FALSE_OPENER, JACKS_POT_PLAYS, JACKS_SPLIT_OPENERS


@dataclass(slots=True)
class SplitOpeners:
    """What the first draw shows of the opener's hand (mutable per-hand record)."""

    seat: int
    discards: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    unknown: bool = False  # a discard or drawn card the log does not show


def opened_hidden(h: HandState, s: int) -> SplitOpeners | None:
    """A record for an opener whose five cards are not known when he opens, else None."""
    cards = h.hole[s]
    if len(cards) == 5 and all(c >= 0 for c in cards):
        return None
    return SplitOpeners(seat=s)


def check_split_openers(h: HandState, rec: SplitOpeners, seq: int) -> None:
    """Flag an opener paid from the pot whose final hand plus discards hold no openers."""
    s = rec.seat
    shown = h.shown[s]
    if rec.unknown or shown is None or len(shown) != 5 or any(c < 0 for c in shown):
        return
    if not any(w == s and amount > 0 for w, amount, _ in h.awards):
        return
    kept = [c for c in shown if c not in rec.drawn]
    before = kept + rec.discards
    if len(kept) + len(rec.drawn) != 5 or len(before) != 5 or has_openers(before):
        return
    h.flag(JACKS_SPLIT_OPENERS, seq, f"{h.who(s)} opened and was paid from the pot, but his "
           "final hand plus his discards could not have held a pair of jacks or better; a "
           "player who split openers that could not have been there loses the pot.", seat=s,
           expected="openers in the final hand plus discards", actual="no openers")


# --- false openers (JACKS-FALSE-OPENER) and the pot that plays (JACKS-POT-PLAYS) -------------
PLAYS, CARRIED, RETURNED = "plays", "carried", "returned"


@dataclass(slots=True)
class FalseOpener:
    """An opener whose five cards were logged when he opened and hold no openers (the opening
    JACKS-OPENERS flags): his hand is dead. Mutable per-hand record; `ruling` is set at the end
    of the hand: the pot PLAYS on without him, is CARRIED to the next deal (nobody else left
    in it), or was RETURNED (the hand ended before the draw with the other bets given back)."""

    seat: int
    before: int  # his contribution before the opening bet: his ante
    opening: int  # his first bet, which stays in the pot whatever happens (001 3.2.9.5.2)
    raised: bool  # a raise before the draw (an opening of two bets is a bet and a raise)
    callers: int = 0  # players who called the opening bet before any raise
    withdrawable: int = 0  # his bets before the draw beyond the opening bet
    ruling: str = ""  # PLAYS, CARRIED or RETURNED; "" when he folded (nothing to rule)


def false_opener(h: HandState, s: int, add: int) -> FalseOpener:
    """The record of a false opener whose opening wager is `add` chips."""
    opening = min(add, h.small_bet) if h.small_bet else add
    return FalseOpener(seat=s, before=h.contrib[s], opening=opening, raised=add > opening)


def note_predraw_action(rec: FalseOpener, kind: str) -> None:
    """A betting action before the draw after the opening: raises and calls of the opening
    bet decide whether the pot must play (001 3.2.9.5.4)."""
    if kind == "raise":
        rec.raised = True
    elif kind == "call" and not rec.raised:
        rec.callers += 1


def _bets_returned(h: HandState) -> bool:
    """Nobody was paid more than the bets he put in: no pot was won, the bets went back."""
    paid = [0] * h.size
    for w, amount, _ in h.awards:
        if 0 < w < h.size:
            paid[w] += amount
    return all(paid[x] <= h.contrib[x] - h.dead[x] for x in range(1, h.size))


def rule_false_opener(h: HandState, rec: FalseOpener, pre_draw: list[int] | None,
                      end_seq: int) -> None:
    """At the end of the hand: how the pot was ruled, and JACKS-POT-PLAYS when a pot that had
    to play was not. The log shows a pot that was not played as a hand that ends before the
    draw with the false opener and another player still in and the bets given back; it must
    play if there was a raise, two or more players called the opening bet, or all the
    action before the draw was complete (nobody left to act)."""
    s = rec.seat
    if h.folded[s]:
        rec.ruling = ""
        return
    if pre_draw is not None:
        rec.withdrawable = max(0, pre_draw[s] - rec.before - rec.opening)
    others = [x for x in h.seats if x != s and h.in_hand[x] and not h.folded[x]]
    if not others:
        rec.ruling = CARRIED
        return
    if pre_draw is not None or not _bets_returned(h):
        rec.ruling = PLAYS
        return
    rec.ruling = RETURNED
    rec.withdrawable = max(0, h.contrib[s] - rec.before - rec.opening)
    if rec.raised:
        why = "the pot was raised"
    elif rec.callers >= 2:
        why = f"{rec.callers} players called the opening bet"
    elif not h.to_act:
        why = "all the action before the draw was complete"
    else:
        return  # the action was not complete: the bets go back, the opening bet stays
    h.flag(JACKS_POT_PLAYS, end_seq, f"{h.who(s)} opened on false openers and the hand "
           f"ended before the draw with the bets given back, but {why}: then the pot plays "
           "(his hand is dead), even when the opener shows or declares a foul.", seat=s,
           expected="the pot plays", actual="bets returned")


def rule_pots(h: HandState, rec: FalseOpener, refunds: list[int],
              pots: list[tuple[int, list[int]]]
              ) -> tuple[list[int], list[tuple[int, list[int]]], int]:
    """The pots and returns under the false-opener ruling, and the chips carried to the next
    deal: his dead hand wins nothing, and his opening bet stays in the pot. A pot nobody else
    is left to win stays for the next deal; a pot that was not played gives every bet back
    but his opening bet, which stays with the antes (001 3.2.9.5.2)."""
    s = rec.seat
    if not rec.ruling:
        return refunds, pots, 0
    if rec.ruling == RETURNED:
        back = [h.contrib[x] - h.dead[x] if x != s else rec.withdrawable
                for x in range(len(refunds))]
        return back, [], sum(h.contrib) - sum(back)
    carried = 0
    refunds = list(refunds)
    if rec.ruling == CARRIED:  # his uncalled chips come back, but not his opening bet
        top = h.contrib[s] - refunds[s]
        overlap = min(rec.before + rec.opening, h.contrib[s]) - max(rec.before, top)
        if overlap > 0:
            refunds[s] -= overlap
            carried += overlap
    ruled: list[tuple[int, list[int]]] = []
    for amount, eligible in pots:
        rest = [x for x in eligible if x != s]
        if not rest:
            carried += amount
        else:
            ruled.append((amount, rest))
    return refunds, ruled, carried


def award_rule(h: HandState, rec: FalseOpener, s: int, paid_too_much: int
               ) -> tuple[str, str] | None:
    """The rule id and reason for the false opener paid too much, or None for anyone else.
    Chips given back to him (`uncalled`) beyond the uncalled ones, within his bets before
    the draw beyond the opening bet, in a pot that played on: he withdrew bets after the
    action before the draw was complete (JACKS-POT-PLAYS). Anything else: he was paid from
    the pot or got his opening bet back (JACKS-FALSE-OPENER)."""
    if s != rec.seat or paid_too_much <= 0 or not rec.ruling or h.void:
        return None  # a void hand (a card dealt twice) gives every wager back: no ruling
    from_pot = sum(a for w, a, label in h.awards if w == s and label != "uncalled")
    if (rec.ruling == PLAYS and not from_pot and paid_too_much <= rec.withdrawable):
        return (JACKS_POT_PLAYS, "once the action before the draw is complete, the opener "
                "may not withdraw any bet, whether or not his hand holds openers")
    return (JACKS_FALSE_OPENER, "he opened on false openers, so his hand is dead: it wins "
            "nothing, and his opening bet stays in the pot")
