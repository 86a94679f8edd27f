"""Cross-hand checks over the hands of one table in order: the button moves by the profile's
method from one deal to the next (BUTTON-MOVE), and a player who sat out while the big blind
passed him is not dealt back in without posting (BLIND-MISSED-UNPOSTED). Who must kill a pot
in a kill game is followed along the same proven deals in audit/sequence/kill.py.

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
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from audit.rules.findings import Finding, finding
from audit.rules.ids import BLIND_MISSED_UNPOSTED, BUTTON_MOVE
from audit.rules.settings import Settings
from audit.sequence.kill import kill_findings

_PUT_IN = ["post", "bet", "raise", "call", "complete"]
_KINDS = [*_PUT_IN, "hand_started", "hand_ended", "seat", "award", "fold"]
_SEAT = re.compile(r"\{seat (\d+)\}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """What the button check needs of one hand: where the button and the big blind were, and
    which seats were dealt in (clockwise order is seat order)."""

    hand_id: str
    button: int
    big_blind_seat: int  # 0 when no big blind was posted
    dealt: tuple[int, ...]


def _frames(events: pa.Table) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(one row per button-game hand with a table, one row per seated player of those hands)."""
    ev = pl.from_arrow(events.select(["hand_id", "ts", "table_id", "kind", "seat", "player",
                                      "amount", "detail"])).filter(pl.col("kind").is_in(_KINDS))
    game = events.column("game")
    buttons = pl.from_arrow(pa.table({
        "hand_id": events.column("hand_id"),
        "button": pc.struct_field(game, "button_seat"),
        "tournament": pc.struct_field(game, "tournament"),
        "bring_in": pc.struct_field(game, "bring_in"),
    }))
    assert isinstance(ev, pl.DataFrame) and isinstance(buttons, pl.DataFrame)
    flags = pl.col("detail").fill_null("")
    hands = ev.filter(pl.col("kind") == "hand_started").select(
        "hand_id", "ts", "table_id",
        (~flags.str.contains("seats=renumbered|cancelled=true")).alias("comparable"),
        flags.str.contains("refunds=implicit").alias("refunds_implicit"),
        pl.col("hand_id").str.extract_all(r"\d+").list.last().cast(pl.Int64, strict=False)
        .fill_null(0).alias("number"),
    ).join(buttons.filter(pl.col("button").is_not_null()).unique("hand_id", keep="first"),
           on="hand_id", how="inner").filter(
        pl.col("table_id").is_not_null() & (pl.col("bring_in").fill_null(0) == 0))
    per_hand = ev.group_by("hand_id").agg(
        ((pl.col("kind") == "hand_ended")
         & flags.str.contains("winnings=(unrecorded|absent)")).any().alias("unrecorded"),
        ((pl.col("kind") == "award") & (pl.col("detail") == "uncalled")).any()
        .alias("uncalled_logged"),
        pl.col("seat").filter((pl.col("kind") == "post") & (pl.col("detail") == "big_blind"))
        .first().fill_null(0).alias("big_blind_seat"),
    )
    hands = hands.join(per_hand, on="hand_id", how="left")
    seated = ev.filter((pl.col("kind") == "seat") & pl.col("player").is_not_null()
                       & pl.col("seat").is_not_null()).select(
        "hand_id", "seat", "player", pl.col("amount").alias("start"),
        (flags != "sitting_out").alias("dealt"))
    moves = ev.filter(pl.col("seat").is_not_null()).group_by("hand_id", "seat").agg(
        pl.col("amount").filter(pl.col("kind").is_in(_PUT_IN)).sum().alias("put_in"),
        pl.col("amount").filter(pl.col("kind") == "award").sum().alias("awards"),
        (pl.col("kind") == "fold").any().alias("folded"),
        (pl.col("kind") == "post").any().alias("posted"),
    )
    seats = seated.join(moves, on=["hand_id", "seat"], how="left").with_columns(
        pl.col("put_in").fill_null(0), pl.col("awards").fill_null(0),
        pl.col("folded").fill_null(False), pl.col("posted").fill_null(False))
    # the uncalled excess: the top contribution above the second, back to its owner
    top = seats.sort(["hand_id", "put_in", "seat"], descending=[False, True, False]).group_by(
        "hand_id", maintain_order=True).agg(
        pl.col("seat").first().alias("refund_seat"),
        (pl.col("put_in").first() - pl.col("put_in").slice(1, 1).first().fill_null(0))
        .alias("refund"))
    seats = seats.join(hands.select("hand_id", "unrecorded", "uncalled_logged",
                                    "refunds_implicit"), on="hand_id", how="inner").join(
        top, on="hand_id", how="left")
    base = pl.col("start") - pl.col("put_in") + pl.col("awards")
    known = pl.col("start").is_not_null() & (
        ~pl.col("unrecorded").fill_null(False) | pl.col("folded") | ~pl.col("dealt"))
    implicit = pl.col("refunds_implicit") & ~pl.col("uncalled_logged").fill_null(False) & (
        pl.col("seat") == pl.col("refund_seat"))
    seats = seats.select(
        "hand_id", "seat", "player", "start", "dealt", "posted",
        pl.when(known).then(base).alias("finish"),
        pl.when(known & implicit).then(base + pl.col("refund")).alias("finish_with_refund"))
    return hands, seats


def consecutive_pairs(events: pa.Table) -> pl.DataFrame:
    """(previous hand, hand) pairs of the same table that the log proves are consecutive deals:
    every player seated in both keeps his seat and starts with exactly what he finished with,
    and at least two players are."""
    if events.num_rows == 0:
        return pl.DataFrame(schema={"prev_id": pl.String, "hand_id": pl.String})
    return _pairs(*_frames(events))


def _pairs(hands: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    ordered = hands.sort(["table_id", "ts", "number", "hand_id"], nulls_last=True)
    pairs = ordered.with_columns(
        pl.col("hand_id").shift(1).over("table_id").alias("prev_id"),
        pl.col("comparable").shift(1).over("table_id").alias("prev_comparable"),
    ).filter(pl.col("prev_id").is_not_null() & pl.col("comparable")
             & pl.col("prev_comparable"))
    now = seats.join(pairs.select("hand_id", "prev_id"), on="hand_id", how="inner")
    before = seats.select(pl.col("hand_id").alias("prev_id"), "player",
                          pl.col("seat").alias("prev_seat"), pl.col("finish").alias("ended"),
                          pl.col("finish_with_refund").alias("ended_with_refund"))
    common = now.join(before, on=["prev_id", "player"], how="inner").with_columns(
        ((pl.col("seat") == pl.col("prev_seat")) & pl.col("ended").is_not_null()
         & ((pl.col("start") == pl.col("ended"))
            | (pl.col("start") == pl.col("ended_with_refund")).fill_null(False)))
        .fill_null(False).alias("ok"))
    proven = common.group_by("hand_id").agg(
        pl.len().alias("common"), pl.col("ok").all().alias("ok")).filter(
        (pl.col("common") >= 2) & pl.col("ok"))
    return pairs.join(proven.select("hand_id"), on="hand_id", how="semi").select(
        "prev_id", "hand_id")


def _next_clockwise(seat: int, dealt: Sequence[int]) -> int:
    return next((c for c in dealt if c > seat), dealt[0] if dealt else 0)


def check_button(a: Deal, b: Deal, method: str) -> str | None:
    """Why b's button breaks the button method after a (None when it does not); seat names in
    the reason come back as {seat N} placeholders."""
    if len(b.dealt) < 2:
        return None
    if len(b.dealt) == 2 or len(a.dealt) == 2:
        if a.dealt != b.dealt:
            return None  # play just became heads-up, or stopped being: P18 places the button
        other = next(s for s in b.dealt if s != a.button)
        if b.button == other:
            return None
        return (f"heads-up the button passes to the other player, {{seat {other}}}, every "
                f"deal; it stayed on seat {b.button}")
    methods = {"either": ("moving", "dead"), "dead": ("dead",)}.get(method, ("moving",))
    reasons = []
    if "moving" in methods:
        moving = _next_clockwise(a.button, b.dealt)
        if b.button == moving:
            return None
        reasons.append(f"with a moving button it goes to the next player clockwise from seat "
                       f"{a.button}, {{seat {moving}}}")
    if "dead" in methods:
        if not (a.big_blind_seat and b.big_blind_seat):
            return None  # who posted the big blind is not logged: nothing to judge
        due = _next_clockwise(a.big_blind_seat, b.dealt)
        if b.big_blind_seat == due:
            return None
        reasons.append(f"with a dead button the big blind moves to the next player clockwise "
                       f"from seat {a.big_blind_seat}, {{seat {due}}}, but "
                       f"{{seat {b.big_blind_seat}}} posted it")
    if len(reasons) > 1:
        return "neither button method puts it there: " + "; ".join(reasons)
    return reasons[0]


def _between(after: int, seat: int, before: int) -> bool:
    """True when `seat` lies strictly between two seats, going clockwise from `after`."""
    return 0 < (seat - after) % 256 < (before - after) % 256


def _missed_big_blinds(hands: pl.DataFrame, seats: pl.DataFrame, pairs: pl.DataFrame,
                       cash: Settings, tournament: Settings | None) -> list[Finding]:
    """BLIND-MISSED-UNPOSTED: a player who played at the table, sat out while the big blind
    passed his seat (it went from the seat before him to a seat after him), and is later dealt
    in without posting anything: he owed the missed blind (000 §3 r.10-11). Followed only along
    proven consecutive deals; any gap forgets what was owed. Tournament hands post every blind
    (TOURN-ABSENT), so they are not followed."""
    sat_out = seats.filter(~pl.col("dealt"))
    if sat_out.is_empty():
        return []
    watched = set(sat_out.get_column("player").to_list())
    rows = seats.filter(pl.col("player").is_in(list(watched))).select(
        "hand_id", "player", "seat", "dealt", "posted").rows()
    at: dict[str, dict[str, tuple[int, bool, bool]]] = {}
    for hand_id, player, seat, dealt, posted in rows:
        at.setdefault(hand_id, {})[player] = (seat, dealt, posted)
    proven = set(pairs.rows())
    out: list[Finding] = []
    owed: dict[str, str] = {}  # player -> the deal whose big blind he missed
    played: set[str] = set()
    prev: tuple[str, str, int] | None = None
    for table_id, hand_id, big_blind, is_tournament in hands.sort(
            ["table_id", "ts", "number", "hand_id"], nulls_last=True).select(
            "table_id", "hand_id", "big_blind_seat",
            pl.col("tournament").fill_null(False)).iter_rows():
        here = at.get(hand_id, {})
        st = tournament if (is_tournament and tournament is not None) else cash
        if prev is None or (prev[1], hand_id) not in proven or is_tournament:
            owed.clear()
            played.clear()
        for player in list(owed):
            seat, dealt, posted = here.get(player, (0, False, False))
            if not seat:
                del owed[player]  # he left the table
            elif dealt:
                if not posted and BLIND_MISSED_UNPOSTED not in st.disabled:
                    out.append(finding(
                        BLIND_MISSED_UNPOSTED, hand_id=hand_id, seq=0, seat=seat,
                        player=player, severity=st.severity.get(BLIND_MISSED_UNPOSTED),
                        message=f"seat {seat} ({player}) sat out while the big blind passed his "
                                f"seat ({owed[player]}) and is dealt in here without posting: "
                                "a player who missed a blind posts it (the big blind live) or "
                                "waits for the big blind."))
                del owed[player]
        if prev is not None and prev[0] == table_id and prev[2] and big_blind \
                and not is_tournament:
            for player, (seat, dealt, _posted) in here.items():
                if not dealt and player in played and _between(prev[2], seat, big_blind):
                    owed.setdefault(player, hand_id)
        played.update(p for p, (_s, dealt, _p) in here.items() if dealt)
        prev = (table_id, hand_id, big_blind)
    return out


def _name_seats(text: str, players: dict[int, str]) -> str:
    """'{seat 3}' -> 'seat 3 (carol)' (just 'seat 3' when nobody sits there)."""
    def name(m: re.Match[str]) -> str:
        seat = int(m[1])
        return f"seat {seat} ({players[seat]})" if seat in players else f"seat {seat}"
    return _SEAT.sub(name, text)


def table_sequence_findings(events: pa.Table, cash: Settings,
                            tournament: Settings | None = None) -> list[Finding]:
    """BUTTON-MOVE, BLIND-MISSED-UNPOSTED and the required-kill findings
    (audit/sequence/kill.py) for every table of an event table (one audit unit of
    work)."""
    if events.num_rows == 0:
        return []
    hands, seats = _frames(events)
    pairs = _pairs(hands, seats)
    if pairs.is_empty():
        return []
    out = _button_moves(hands, seats, pairs, cash, tournament)
    out.extend(_missed_big_blinds(hands, seats, pairs, cash, tournament))
    out.extend(kill_findings(events, hands, pairs, cash, tournament))
    return out


def _button_moves(hands: pl.DataFrame, seats: pl.DataFrame, pairs: pl.DataFrame,
                  cash: Settings, tournament: Settings | None) -> list[Finding]:
    dealt = seats.filter(pl.col("dealt")).group_by("hand_id").agg(
        pl.col("seat").sort().alias("dealt"))
    deals = {h: Deal(hand_id=h, button=btn, big_blind_seat=bb, dealt=tuple(d or ()))
             for h, btn, bb, d in hands.join(dealt, on="hand_id", how="left").select(
                 "hand_id", "button", "big_blind_seat", "dealt").iter_rows()}
    tournaments = dict(hands.select("hand_id", pl.col("tournament").fill_null(False))
                       .iter_rows())
    out: list[Finding] = []
    for prev_id, hand_id in pairs.iter_rows():
        st = tournament if (tournaments[hand_id] and tournament is not None) else cash
        if BUTTON_MOVE in st.disabled:
            continue
        a, b = deals[prev_id], deals[hand_id]
        why = check_button(a, b, st.button_method)
        if why is None:
            continue
        players = dict(seats.filter(pl.col("hand_id") == hand_id).select("seat", "player")
                       .iter_rows())
        why = _name_seats(why, players)
        out.append(finding(
            BUTTON_MOVE, hand_id=hand_id, seq=0, seat=b.button,
            player=players.get(b.button), severity=st.severity.get(BUTTON_MOVE),
            actual=b.button,
            message=f"The button is on seat {b.button} in this hand, after seat {a.button} in "
                    f"the previous deal at this table ({prev_id}): {why}. Each round every "
                    "player must get the button once."))
    return out
