"""The kill blind a required-kill table posts in a button game (limit hold'em and Omaha hi-lo
kill pots; audit/replay/kill.py): a live overblind after the blinds that scales the deal's
limits by its size. Apart from table.py so that it imports nothing of the simulator but the
engine (killtable.py, which keeps the state, imports table.py)."""

from __future__ import annotations

from audit.simulate.play.engine import Hand


def post_kill(h: Hand, s: int, amount: int, detail: str) -> None:
    """The deal's one kill blind: its chips in as a live bet, the limits scaled by it, the
    action still from the big blind's left (a required killer acts in turn, ORDER-KILL)."""
    add = h.post_live(s, amount, detail)
    percent = add * 100 // h.bb
    h.small_bet = h.small_bet * percent // 100
    h.big_bet = h.big_bet * percent // 100
    h.last_raise = max(h.last_raise, h.bb * percent // 100)
    h.to_act = h.next_to_act(h.anchor)
