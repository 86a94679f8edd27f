"""The room's own money figures against the replay's (DQ-SITE-TOTALS).

A room writes its own totals at the end of a hand: the total pot, the rake, what each player
collected. Importers keep the stated total pot in the `hand_ended` detail (`total_pot=N`), the
rake as `rake` events and the collections as `award` events. The replay derives the same pot
from the actions. When the two disagree the log contradicts itself: which figure is wrong cannot
be told from the log, so it is a data-quality note with both figures, never a violation.

>>> stated_total_pot("total_pot=2350;pots=main:1800,side-1:550")
2350
>>> stated_total_pot("finishing_stacks=1:400") is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from audit.rules.ids import DQ_SITE_TOTALS

if TYPE_CHECKING:
    from audit.replay.awards import Outcome
    from audit.replay.state import HandState


def stated_total_pot(detail: str | None) -> int | None:
    """The `total_pot=N` fact of a `hand_ended` detail (None when the room states none)."""
    if not detail or "total_pot=" not in detail:
        return None
    for part in detail.split(";"):
        key, _, value = part.partition("=")
        if key.strip() == "total_pot":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def derived_pot(h: HandState, out: Outcome) -> int:
    """Chips the actions put in the pot, less the uncalled bets returned, and the room's own
    money added to it (the room's 'total pot'; the compiled replay's pot_net)."""
    put = sum(h.contrib) - sum(out.refunds) if out.refunds else sum(h.contrib)
    return put + h.room_added


def _one_player_pots(out: Outcome) -> int:
    """Chips in pots only one player can win (the unmatched part of a short all-in ante): his
    own chips back, which a room may count in its total pot or return as an uncalled bet."""
    return sum(r.amount for r in out.pots if len(r.eligible) == 1)


def _agreeing_totals(h: HandState, out: Outcome, pot: int) -> set[int]:
    """The total pots a room may state for these actions without contradicting them: the pot
    less the uncalled bets returned, with or without the one-player pots; where the log states
    the returns, the chips put in less those returns (its own account of what came back);
    where the hand logs none, everything put in (such a room counts the return in the pot and
    in the award, as converted walks do: 'Total pot 12600', 'HOOP collected 12600')."""
    own = _one_player_pots(out)
    agree = {pot, pot - own}
    put = sum(h.contrib) + h.room_added
    if h.uncalled_logged:
        agree.add(put - sum(amount for _, amount, label in h.awards
                            if label.startswith("uncalled")))
    else:
        agree.add(put)
    return agree


def check_site_totals(h: HandState, out: Outcome, stated: int | None, seq: int) -> None:
    """One DQ-SITE-TOTALS note when the room's stated figures and the replay's disagree."""
    if stated is None or h.void:
        return
    pot = derived_pot(h, out)
    if stated not in _agreeing_totals(h, out, pot):
        more = "more" if pot > stated else "less"
        h.flag(DQ_SITE_TOTALS, seq,
               f"The room states a total pot of {h.money(stated)}, but the logged actions put "
               f"{h.money(pot)} in the pot after uncalled bets were returned "
               f"({h.money(abs(pot - stated))} {more}); the log contradicts itself, so which "
               "figure is right cannot be told from it.",
               expected=stated, actual=pot, delta=pot - stated)
        return
    # the collections: only where every chip paid out is logged as what it is (returns apart,
    # the rake stated, the winnings recorded)
    if h.awards_unrecorded or h.rake_implicit or (h.refunds_implicit and not h.uncalled_logged):
        return
    collected = sum(amount for _, amount, label in h.awards
                    if not label.startswith("uncalled"))
    rake = h.rake_logged
    own = _one_player_pots(out)
    # the one-player pot, counted in the total or not, paid as a win or returned as uncalled
    if collected + rake - stated not in (0, own, -own):
        more = "more" if collected + rake > stated else "less"
        h.flag(DQ_SITE_TOTALS, seq,
               f"The room's own figures disagree: it states a total pot of {h.money(stated)} "
               f"and a rake of {h.money(rake)}, but the players collected "
               f"{h.money(collected)} ({h.money(abs(collected + rake - stated))} {more} than "
               "the pot less the rake).",
               expected=stated - rake, actual=collected, delta=collected + rake - stated)
