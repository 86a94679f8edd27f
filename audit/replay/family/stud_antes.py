"""Antes in the games played with one (RULEBOOK §4.6): every dealt-in player antes before the
deal in stud (ANTE-STUD), and in draw high and jacks or better (ANTE-DRAW).

Judged once, when the betting starts (the bring-in or the first action): by then every ante is
due. A game is an ante game when the hand header states an ante or two or more players posted
one; a draw-high table played with blinds and no ante (as online sites deal it) owes none. A
player with no chips behind cannot ante and is not flagged; one who posts his whole stack is
all-in for less (ANTE-AMOUNT judges the size).
"""

from __future__ import annotations

from audit.replay.state import HandState
from audit.rules.ids import ANTE_DRAW, ANTE_STUD

ANTE_GAMES = {"stud": ANTE_STUD, "draw_high": ANTE_DRAW, "jacks_or_better": ANTE_DRAW}


def ante_rule(family: str, variant: str) -> str | None:
    """The ante rule of a stud or draw game, or None when the game is played with blinds."""
    return ANTE_STUD if family == "stud" else ANTE_GAMES.get(variant)


def check_antes(h: HandState, rule: str, anted: set[int], seq: int) -> None:
    """Flag each player dealt cards who had chips and posted no ante."""
    if not h.ante and len(anted) < 2:
        return  # no ante in this structure (or only one posted: not provably an ante game)
    for s in h.seats:
        if s in anted or not h.hole[s] or h.start[s] <= 0:
            continue
        h.flag(rule, seq, f"{h.who(s)} was dealt in without posting an ante; every player "
               "dealt into this game antes before the deal.", seat=s,
               expected=h.ante or "an ante", actual=0)
