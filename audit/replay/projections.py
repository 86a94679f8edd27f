"""Projection rows of a replayed hand: one `hands` row and one `hand_players` row per seat."""

from __future__ import annotations

from typing import Any

from audit.poker.cards import card_str
from audit.poker.evaluate.high import high_class
from audit.poker.evaluate.short import TRIPS_BEAT_STRAIGHT, short_class
from audit.replay.awards import Outcome
from audit.replay.state import HandState

_LATE = ("CO", "HJ", "LJ")


def positions(h: HandState) -> dict[int, str]:
    """BTN/SB/BB/UTG.../CO by seat (heads-up: the button is BTN and posts the small blind)."""
    order = h.order
    n = len(order)
    out: dict[int, str] = {}
    if n < 2:  # a hand dealt to one seat (a damaged log) has no positions to name
        return out
    if n == 2:
        for s in order:
            out[s] = "BTN" if s == h.button else "BB"
        return out
    out[order[-1]] = "BTN"
    out[order[0]] = "SB"
    out[order[1]] = "BB"
    rest = order[2:-1]
    m = len(rest)
    for i, s in enumerate(rest):
        back = m - 1 - i
        if back < len(_LATE) and m - back > 1:
            out[s] = _LATE[back]
        else:
            out[s] = "UTG" if i == 0 else f"UTG+{i}"
    return out


def _cards(cards: Any) -> str | None:
    if not cards:
        return None
    return " ".join("??" if c < 0 else card_str(c) for c in cards)  # jokers print as Xj


def project(h: HandState, out: Outcome, ts: Any, table_id: str | None,
            n_findings: int) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The `hands` row and the `hand_players` rows (see schemas/hands.json, hand_players.json)."""
    refunds = out.refunds or [0] * h.size
    refunds_in_awards = not h.refunds_implicit or h.uncalled_logged
    showdown = h.remaining() >= 2 and not h.void
    winners = []
    pos = positions(h)
    rows = []
    trips_high = TRIPS_BEAT_STRAIGHT.get(h.variant)
    classify = high_class if trips_high is None else (  # short deck: its own category order
        lambda strength: short_class(strength, trips_beat_straight=trips_high))
    for s in h.seats:
        invested = h.contrib[s] - refunds[s]
        got = out.actual[s] if s < len(out.actual) else 0
        # a return the source folded into the award is the player's own money, not a win
        won = got - (refunds[s] if refunds_in_awards else out.included.get(s, 0))
        if won > 0:
            winners.append(f"{s}:{h.player[s] or ''}")
        sv = out.strengths.get(s)
        shown = h.shown[s]
        hole = shown if shown is not None else h.hole[s]
        rows.append({
            "hand_id": h.hand_id,
            "seat": s,
            "player": h.player[s],
            "position": pos.get(s),
            "starting_stack": h.start[s] if h.start[s] < 1 << 62 else None,
            "invested": invested,
            "won": won,
            "net": won - invested,
            "vpip": h.vpip[s],
            "pfr": h.pfr[s],
            "aggressive_actions": h.aggr[s],
            "calls": h.calls[s],
            "folded_street": h.folded_street[s],
            "all_in_street": h.allin_street[s],
            "showed": shown is not None,
            "hole_cards": _cards(hole) if hole and any(c >= 0 for c in hole) else None,
            "hand_class": classify(sv[0]) if (sv is not None and showdown and (
                h.vh is None or h.vh.spec.evaluator in ("high", "hilo8"))) else None,
            "faced_bet_from": h.faced_from[s],
        })
    pot = sum(h.contrib) + h.room_added  # the room's own money too: the winners are paid it
    hand = {
        "hand_id": h.hand_id,
        "ts": ts,
        "table_id": table_id,
        "variant": h.variant,
        "structure": h.game.get("structure"),
        "big_blind": h.bb,
        "players": len(h.seats),
        "pot": pot,
        "rake": out.rake,
        "board": _cards(h.board),
        "winners": ",".join(winners) or None,
        "showdown": showdown,
        "awards_verified": out.verified,
        "findings": n_findings,
        "profile": h.st.label,
    }
    return hand, tuple(rows)
