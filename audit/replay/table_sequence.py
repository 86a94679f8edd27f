"""Cross-hand checks over the hands of one table in order: the button moves by the profile's
method from one deal to the next (BUTTON-MOVE).

The per-hand replay stays a pure function of one hand; this is a separate pure function over
the hands of a table. It only judges two hands that the log proves are consecutive deals:
same table, every player seated in both keeps his seat, and every such player starts the
second hand with exactly the chips he finished the first with. A hand missing in between
(blinds posted, pots won) or a rebuy breaks that proof, and then nothing is concluded: the
sample files are often excerpts, and a button that "jumped" over a hand nobody logged is no
breach.

Hands of a table are read from one event file at a time (an audit's unit of work): when a
table's hands span files, the two hands on either side of a file boundary are not compared.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from audit.findings import Finding, finding
from audit.replay.settings import Settings

_PUT_IN = frozenset({"post", "bet", "raise", "call", "complete"})
_NUMBER = re.compile(r"(\d+)")


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRecord:
    """One player's seat in one hand: chips at the start and the possible chips at the end
    (two when the source folds an uncalled return into its awards or not; empty = unknown)."""

    player: str
    dealt: bool
    start: int | None
    finish: frozenset[int]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableHand:
    """What the sequence checks need of one hand."""

    hand_id: str
    table_id: str
    sort_key: tuple[Any, ...]
    button: int
    big_blind_seat: int
    tournament: bool
    comparable: bool  # seat numbers are the physical seats (not renumbered, not cancelled)
    seats: dict[int, SeatRecord]


def table_hands(events: pa.Table) -> list[TableHand]:
    """The seats, stacks and button of every button-game hand of an event table.

    Vectorised (polars) down to one row per hand and seat: the audit's fast path never turns
    events into Python objects, and this check must not either."""
    if events.num_rows == 0:
        return []
    cols = ["hand_id", "ts", "table_id", "kind", "seat", "player", "amount", "detail"]
    ev = pl.from_arrow(events.select(cols))
    assert isinstance(ev, pl.DataFrame)
    game = pl.from_arrow(pa.table({
        "hand_id": events.column("hand_id"),
        "button": pc.struct_field(events.column("game"), "button_seat"),
        "tournament": pc.struct_field(events.column("game"), "tournament"),
        "bring_in": pc.struct_field(events.column("game"), "bring_in"),
    }))
    assert isinstance(game, pl.DataFrame)
    starts = ev.filter(pl.col("kind") == "hand_started").select(
        "hand_id", "ts", "table_id", pl.col("detail").fill_null("").alias("flags"))
    starts = starts.join(game.filter(pl.col("button").is_not_null()).unique("hand_id"),
                         on="hand_id", how="inner")
    starts = starts.filter(pl.col("table_id").is_not_null() & pl.col("button").is_not_null()
                           & (pl.col("bring_in").fill_null(0) == 0))
    ended = ev.filter(pl.col("kind") == "hand_ended").select(
        "hand_id", pl.col("detail").fill_null("").str.contains("winnings=(unrecorded|absent)")
        .alias("unrecorded"))
    seated = ev.filter((pl.col("kind") == "seat") & pl.col("player").is_not_null()
                       & pl.col("seat").is_not_null()).select(
        "hand_id", "seat", "player", pl.col("amount").alias("start"),
        (pl.col("detail").fill_null("") != "sitting_out").alias("dealt"))
    per_seat = ev.filter(pl.col("seat").is_not_null()).group_by("hand_id", "seat").agg(
        pl.col("amount").filter(pl.col("kind").is_in(list(_PUT_IN))).sum().alias("put_in"),
        pl.col("amount").filter(pl.col("kind") == "award").sum().alias("awards"),
        (pl.col("kind") == "fold").any().alias("folded"),
        ((pl.col("kind") == "award") & (pl.col("detail") == "uncalled")).any()
        .alias("uncalled_logged"),
        ((pl.col("kind") == "post") & (pl.col("detail") == "big_blind")).any().alias("bb"),
    )
    seats = seated.join(per_seat, on=["hand_id", "seat"], how="left").join(
        ended, on="hand_id", how="left")
    by_hand: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in seats.iter_rows(named=True):
        by_hand[r["hand_id"]].append(r)
    hands = []
    for h in starts.iter_rows(named=True):
        hands.append(_table_hand(h, by_hand.get(h["hand_id"], [])))
    return hands


def _table_hand(h: dict[str, Any], rows: list[dict[str, Any]]) -> TableHand:
    put_in = {r["seat"]: r["put_in"] or 0 for r in rows}
    refund_seat, refund = _uncalled(put_in)
    implicit = "refunds=implicit" in h["flags"] and not any(r["uncalled_logged"] for r in rows)
    seats = {}
    big_blind = 0
    for r in rows:
        seat, start = r["seat"], r["start"]
        if r["bb"] and not big_blind:
            big_blind = seat
        finish: frozenset[int] = frozenset()
        if start is not None and (not r["unrecorded"] or r["folded"] or not r["dealt"]):
            base = start - put_in[seat] + (r["awards"] or 0)
            finish = frozenset({base, base + refund}) if implicit and seat == refund_seat \
                else frozenset({base})
        seats[seat] = SeatRecord(player=r["player"], dealt=r["dealt"], start=start,
                                 finish=finish)
    number = _NUMBER.findall(h["hand_id"])
    ts = h["ts"]
    return TableHand(
        hand_id=h["hand_id"], table_id=h["table_id"],
        sort_key=(ts is None, ts.timestamp() if ts is not None else 0,
                  int(number[-1]) if number else 0, h["hand_id"]),
        button=h["button"], big_blind_seat=big_blind, tournament=bool(h["tournament"]),
        comparable="seats=renumbered" not in h["flags"] and "cancelled=true" not in h["flags"],
        seats=seats,
    )


def _uncalled(put_in: dict[int, int]) -> tuple[int, int]:
    """The seat whose top contribution nobody matched, and by how much."""
    ranked = sorted(put_in.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ranked:
        return 0, 0
    second = ranked[1][1] if len(ranked) > 1 else 0
    return ranked[0][0], ranked[0][1] - second


def consecutive(a: TableHand, b: TableHand) -> bool:
    """True when the log proves b is the deal right after a at the same table."""
    if a.table_id != b.table_id or not (a.comparable and b.comparable):
        return False
    players_a = {r.player: (s, r) for s, r in a.seats.items()}
    common = 0
    for s, r in b.seats.items():
        if r.player not in players_a:
            continue
        seat_a, ra = players_a[r.player]
        if seat_a != s or r.start is None or r.start not in ra.finish:
            return False
        common += 1
    return common >= 2


def _clockwise_after(seat: int, candidates: Iterable[int]) -> int:
    ordered = sorted(candidates)
    return next((c for c in ordered if c > seat), ordered[0] if ordered else 0)


def check_button(a: TableHand, b: TableHand, method: str) -> str | None:
    """Why b's button breaks the button method after a (None when it does not)."""
    dealt_b = [s for s, r in b.seats.items() if r.dealt]
    if len(dealt_b) < 2:
        return None
    dealt_a = [s for s, r in a.seats.items() if r.dealt]
    if len(dealt_b) == 2 or len(dealt_a) == 2:
        if set(dealt_a) != set(dealt_b):
            return None  # play just became heads-up, or stopped being: P18 places the button
        other = next(s for s in dealt_b if s != a.button)
        if b.button == other:
            return None
        return (f"heads-up the button passes to the other player, {_who(b, other)}, every "
                f"deal; it stayed on seat {b.button}")
    moving = _clockwise_after(a.button, dealt_b)
    methods = {"either": ("moving", "dead"), "dead": ("dead",)}.get(method, ("moving",))
    reasons = []
    if "moving" in methods:
        if b.button == moving:
            return None
        reasons.append(f"with a moving button it goes to the next player clockwise from seat "
                       f"{a.button}, {_who(b, moving)}")
    if "dead" in methods:
        if not (a.big_blind_seat and b.big_blind_seat):
            return None  # who posted the big blind is not logged: nothing to judge
        due = _clockwise_after(a.big_blind_seat, dealt_b)
        if b.big_blind_seat == due:
            return None
        reasons.append(f"with a dead button the big blind moves to the next player clockwise "
                       f"from seat {a.big_blind_seat}, {_who(b, due)}, but "
                       f"{_who(b, b.big_blind_seat)} posted it")
    if len(reasons) > 1:
        return "neither button method puts it there: " + "; ".join(reasons)
    return reasons[0]


def _who(h: TableHand, seat: int) -> str:
    r = h.seats.get(seat)
    return f"seat {seat} ({r.player})" if r else f"seat {seat}"


def check_table(hands: Sequence[TableHand], cash: Settings,
                tournament: Settings | None = None) -> list[Finding]:
    """BUTTON-MOVE findings over the hands of one table (any order: sorted here)."""
    out: list[Finding] = []
    ordered = sorted(hands, key=lambda h: h.sort_key)
    for a, b in zip(ordered, ordered[1:], strict=False):
        st = tournament if (b.tournament and tournament is not None) else cash
        if "BUTTON-MOVE" in st.disabled or not consecutive(a, b):
            continue
        why = check_button(a, b, st.button_method)
        if why is None:
            continue
        r = b.seats.get(b.button)
        out.append(finding(
            "BUTTON-MOVE", hand_id=b.hand_id, seq=0, seat=b.button,
            player=r.player if r else None, severity=st.severity.get("BUTTON-MOVE"),
            expected=None, actual=b.button,
            message=f"The button is on seat {b.button} in this hand, after seat {a.button} in "
                    f"the previous deal at this table ({a.hand_id}): {why}. Each round every "
                    "player must get the button once."))
    return out


def table_sequence_findings(events: pa.Table, cash: Settings,
                            tournament: Settings | None = None) -> list[Finding]:
    """BUTTON-MOVE findings for every table in an event table (one audit unit of work)."""
    by_table: dict[str, list[TableHand]] = defaultdict(list)
    for th in table_hands(events):
        by_table[th.table_id].append(th)
    out: list[Finding] = []
    for table_id in sorted(by_table):
        out.extend(check_table(by_table[table_id], cash, tournament))
    return out
