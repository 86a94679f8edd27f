"""Stud cards dealt the wrong way (RULEBOOK §4.11): a hole card dealt face up on the first
street (STUD-EXPOSED-START), a seventh card dealt face up (STUD-7TH-UP), the common card
that is only for a deck that cannot cover every player (STUD-SHORT-DECK), and the dealing
pattern of five-card and Mississippi stud (FIVESTUD-STRUCTURE, MISS-STRUCTURE), and a missed
or double burn (STUD-BURN-ERROR).

Called by the stud hooks (audit/replay/family/hooks.py), whose per-hand state they read and update.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from audit.replay.state import HandState
from audit.rules.ids import STUD_7TH_UP, STUD_BURN_ERROR, STUD_EXPOSED_START, STUD_SHORT_DECK

if TYPE_CHECKING:
    from audit.replay.family.hooks import FamilyHooks


def check_common(h: HandState, seq: int) -> None:
    """STUD-SHORT-DECK: a common card only when the deck cannot give everyone a card."""
    dealt = sum(len(h.hole[x]) for x in h.seats)
    needing = [x for x in h.seats if h.hole[x] and not h.folded[x]]
    fresh = 52 - dealt - 1  # every card not in a hand (stub, burns), less one burn
    if fresh >= len(needing):
        h.flag(STUD_SHORT_DECK, seq, f"A common card was dealt although {fresh} cards "
               f"were left for the {len(needing)} players still in; the common card is "
               "only for a deck that cannot cover every remaining player.",
               expected="a card to each player", actual="common card")

def check_start(vh: FamilyHooks, h: HandState, s: int, seq: int) -> None:
    """STUD-EXPOSED-START: a hole card dealt face up on the first street."""
    first = vh.spec.counts[0]
    want = vh.spec.faces[:first]
    got = vh.faces[s][:first]
    up_holes = got[:-1].count("u")
    if got == want or not up_holes:
        return
    vh.exposed_start.add(s)
    if h.tournament:
        h.flag(STUD_EXPOSED_START, seq, f"{h.who(s)}'s hole card was dealt face up on the "
               "first street; in a stud tournament that is a misdeal.", seat=s,
               expected=want, actual=got)
    elif up_holes == len(want) - 1:
        vh.dead_start[s] = seq  # a violation only if he plays on (see before_action)
    elif got[-1] == "u":
        h.flag(STUD_EXPOSED_START, seq, f"{h.who(s)}'s hole card was dealt face up, and "
               "then his next card face up too; after an exposed hole card the third card "
               "is dealt face down.", seat=s, expected=want.replace("u", "d"), actual=got)

def dead_start_played(vh: FamilyHooks, h: HandState, s: int, seq: int) -> None:
    at = vh.dead_start.pop(s, None)
    if at is not None:
        h.flag(STUD_EXPOSED_START, seq, f"Both of {h.who(s)}'s hole cards were dealt face "
               "up: his hand is dead and his ante goes back to him, but he played on.",
               seat=s, expected="dead hand", actual="played")

def check_seventh(vh: FamilyHooks, h: HandState, alive: list[int], seq: int | None) -> None:
    """STUD-7TH-UP: one player's last card dealt up; the others' stay down (more than two
    players), or, heads-up, the second player's is dealt up too."""
    ups = [s for s in alive if vh.faces.get(s, "")[6:7] == "u" and h.stack[s] > 0]
    if not ups:
        return
    if len(alive) > 2:
        for s in ups[1:]:
            h.flag(STUD_7TH_UP, seq, f"{h.who(s)}'s seventh card was dealt face up after "
                   f"{h.who(ups[0])}'s was; with more than two players the others get "
                   "their last card face down.", seat=s, expected="down", actual="up")
    elif len(alive) == 2 and alive[0] in ups and alive[1] not in ups:
        h.flag(STUD_7TH_UP, seq, f"{h.who(alive[0])}'s seventh card was dealt face up, "
               f"so heads-up {h.who(alive[1])}'s must be dealt face up too.",
               seat=alive[1], expected="up", actual="down")


def check_faces(vh: FamilyHooks, h: HandState, s: int, seq: int) -> None:
    """FIVESTUD-STRUCTURE / MISS-STRUCTURE: a card the structure deals face up was dealt face
    down (a hole card dealt up is STUD-EXPOSED-START). Once per seat."""
    rule = vh.spec.structure_rule
    want = vh.spec.faces
    got = vh.faces[s]
    first = vh.spec.counts[0]
    bad = next((i for i in range(first - 1, min(len(got), len(want)))
                if want[i] == "u" and got[i] == "d"), None)
    if bad is None or (rule, s) in vh.structure_flagged:
        return
    vh.structure_flagged.add((rule, s))
    h.flag(rule, seq, f"{h.who(s)}'s card number {bad + 1} was dealt face down; in "
           f"{vh.spec.name} it is dealt face up ({want.count('d')} down cards, the rest up).",
           seat=s, expected=want[:len(got)], actual=got)


def check_round_cards(vh: FamilyHooks, h: HandState, s: int, seq: int) -> None:
    """FIVESTUD-STRUCTURE / MISS-STRUCTURE: a betting action while a player still in holds
    a number of cards other than the structure's for this round. Once per round."""
    rule = vh.spec.structure_rule
    if h.street >= len(vh.spec.counts) or (rule, -h.street - 1) in vh.structure_flagged:
        return
    need = vh.spec.counts[h.street]
    for x in h.order:
        if h.folded[x] or not h.hole[x]:
            continue
        n = len(h.hole[x]) + len(vh.common)
        if n != need:
            vh.structure_flagged.add((rule, -h.street - 1))
            h.flag(rule, seq, f"The betting {vh.street_name(h)} began with {h.who(x)} "
                   f"holding {n} cards; in {vh.spec.name} every player holds {need} cards "
                   "in this round.", seat=x, expected=need, actual=n)
            return


def check_stud_burns(h: HandState, streets: dict[int, tuple[int, int]],
                     name: Callable[[HandState], str]) -> None:
    """STUD-BURN-ERROR, where the log records burns: one burn before each later street's
    cards. A missed or double burn puts cards out of their proper positions. Not judged with
    a common card or a short deck, where the burn may rightly be skipped."""
    street = h.street
    for k, (burns, seq) in sorted(streets.items()):
        if burns == 1:
            continue
        h.street = k  # name the street the burn belonged to
        where = name(h)
        h.street = street
        h.flag(STUD_BURN_ERROR, seq, f"{'No card' if burns == 0 else f'{burns} cards'} "
               f"{'was' if burns == 0 else 'were'} burned before the cards dealt {where}; "
               "the dealer burns one card before each round, and a missed or double burn is "
               "corrected so every card reaches its proper position.",
               expected=1, actual=burns)
