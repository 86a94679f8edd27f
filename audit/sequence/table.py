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

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from audit.rules.findings import Finding, finding
from audit.rules.ids import BLIND_MISSED_UNPOSTED, BUTTON_MOVE
from audit.rules.settings import Settings
from audit.sequence.hand_keys import hand_keys
from audit.sequence.kill import kill_findings

_PUT_IN = ["post", "bet", "raise", "call", "complete"]
_KINDS = [*_PUT_IN, "hand_started", "hand_ended", "seat", "award", "fold"]
_CODE = {kind: code for code, kind in enumerate(_KINDS)}
_SEAT = re.compile(r"\{seat (\d+)\}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """What the button check needs of one hand: where the button and the big blind were, and
    which seats were dealt in (clockwise order is seat order)."""

    hand_id: str
    button: int
    big_blind_seat: int  # 0 when no big blind was posted
    dealt: tuple[int, ...]


def _frames(events: pa.Table, keys: pa.Array) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(one row per button-game hand with a table, one row per seated player of those hands),
    keyed by `hand`, the hand's integer key (`keys`, per row: audit/sequence/hand_keys.py);
    `hand_id` is on the hands frame only."""
    kind, game = events.column("kind"), events.column("game")
    started = pc.equal(kind, "hand_started")
    first = pl.from_arrow(pa.table({
        "hand": keys, "hand_id": events.column("hand_id"), "ts": events.column("ts"),
        "table_id": events.column("table_id"), "detail": events.column("detail")})
        .filter(started))
    buttons = pl.from_arrow(pa.table({
        "hand": keys,
        "button": pc.struct_field(game, "button_seat"),
        "tournament": pc.struct_field(game, "tournament"),
        "bring_in": pc.struct_field(game, "bring_in"),
    }).filter(pc.is_valid(pc.struct_field(game, "button_seat"))))
    assert isinstance(first, pl.DataFrame) and isinstance(buttons, pl.DataFrame)
    flags = pl.col("detail").fill_null("")
    hands = first.select(
        "hand", "hand_id", "ts", "table_id",
        (~flags.str.contains("seats=renumbered|cancelled=true")).alias("comparable"),
        flags.str.contains("refunds=implicit").alias("refunds_implicit"),
        pl.col("hand_id").str.extract_all(r"\d+").list.last().cast(pl.Int64, strict=False)
        .fill_null(0).alias("number"),
    ).join(buttons.unique("hand", keep="first", maintain_order=True), on="hand",
           how="inner", maintain_order="left").filter(
        pl.col("table_id").is_not_null() & (pl.col("bring_in").fill_null(0) == 0))
    # only the rows of those hands count below: the others are no button-game hands
    wanted = np.zeros(len(keys) + 1, dtype=bool)
    wanted[hands.get_column("hand").to_numpy()] = True
    in_hands = pa.array(wanted[pc.fill_null(keys, len(keys)).to_numpy()])  # null: no hand
    code = pc.index_in(kind, pa.array(_KINDS))  # the kinds below as their index in _KINDS
    ev = pl.from_arrow(pa.table({
        "hand": keys, "kind": pc.cast(code, pa.int8()), "seat": events.column("seat"),
        "amount": events.column("amount"), "detail": events.column("detail"),
    }).filter(pc.and_(in_hands, pc.is_valid(code))))
    seat_rows = pc.and_(pc.and_(in_hands, pc.equal(code, _CODE["seat"])), pc.and_(
        pc.is_valid(events.column("player")), pc.is_valid(events.column("seat"))))
    seated = pl.from_arrow(pa.table({
        "hand": keys, "seat": events.column("seat"), "player": events.column("player"),
        "start": events.column("amount"), "detail": events.column("detail"),
    }).filter(seat_rows))
    assert isinstance(ev, pl.DataFrame) and isinstance(seated, pl.DataFrame)
    seated = seated.select("hand", "seat", "player", "start",
                           (flags != "sitting_out").alias("dealt"))
    k = pl.col("kind")
    per_hand = ev.with_columns(
        ((k == _CODE["hand_ended"]) & flags.str.contains("winnings=(unrecorded|absent)"))
        .alias("unrecorded"),
        ((k == _CODE["award"]) & (pl.col("detail") == "uncalled")).alias("uncalled_logged"),
        ((k == _CODE["post"]) & (pl.col("detail") == "big_blind")).fill_null(False)
        .alias("big"),
    ).group_by("hand").agg(
        pl.col("unrecorded").any(), pl.col("uncalled_logged").any(),
        pl.col("seat").filter(pl.col("big")).first().fill_null(0).alias("big_blind_seat"))
    hands = hands.join(per_hand, on="hand", how="left", maintain_order="left")
    amount = pl.col("amount")
    moves = ev.filter(pl.col("seat").is_not_null()).select(
        "hand", "seat",
        pl.when(k.is_in([_CODE[c] for c in _PUT_IN])).then(amount).otherwise(0)
        .alias("put_in"),
        pl.when(k == _CODE["award"]).then(amount).otherwise(0).alias("awards"),
        (k == _CODE["fold"]).alias("folded"), (k == _CODE["post"]).alias("posted"),
    ).group_by("hand", "seat").agg(
        pl.col("put_in").sum(), pl.col("awards").sum(), pl.col("folded").any(),
        pl.col("posted").any())
    seats = seated.join(moves, on=["hand", "seat"], how="left",
                        maintain_order="left").with_columns(
        pl.col("put_in").fill_null(0), pl.col("awards").fill_null(0),
        pl.col("folded").fill_null(False), pl.col("posted").fill_null(False))
    # the uncalled excess: the top contribution above the second, back to its owner
    top = seats.sort(["hand", "put_in", "seat"], descending=[False, True, False]).group_by(
        "hand", maintain_order=True).agg(
        pl.col("seat").first().alias("refund_seat"),
        (pl.col("put_in").first() - pl.col("put_in").slice(1, 1).first().fill_null(0))
        .alias("refund"))
    seats = seats.join(hands.select("hand", "unrecorded", "uncalled_logged",
                                    "refunds_implicit"), on="hand", how="inner",
                       maintain_order="left").join(top, on="hand", how="left",
                                                   maintain_order="left")
    base = pl.col("start") - pl.col("put_in") + pl.col("awards")
    known = pl.col("start").is_not_null() & (
        ~pl.col("unrecorded").fill_null(False) | pl.col("folded") | ~pl.col("dealt"))
    implicit = pl.col("refunds_implicit") & ~pl.col("uncalled_logged").fill_null(False) & (
        pl.col("seat") == pl.col("refund_seat"))
    seats = seats.select(
        "hand", "seat", "player", "start", "dealt", "posted",
        pl.when(known).then(base).alias("finish"),
        pl.when(known & implicit).then(base + pl.col("refund")).alias("finish_with_refund"))
    return hands, seats


def consecutive_pairs(events: pa.Table) -> pl.DataFrame:
    """(previous hand, hand) pairs of the same table that the log proves are consecutive deals:
    every player seated in both keeps his seat and starts with exactly what he finished with,
    and at least two players are."""
    if events.num_rows == 0:
        return pl.DataFrame(schema={"prev_id": pl.String, "hand_id": pl.String})
    hands, seats = _frames(events, hand_keys(events))
    ids = hands.select("hand", "hand_id").unique("hand", keep="first")
    return _pairs(hands, seats).join(
        ids.rename({"hand": "prev", "hand_id": "prev_id"}), on="prev", how="left",
        maintain_order="left").join(ids, on="hand", how="left", maintain_order="left").select(
        "prev_id", "hand_id")


# the order of a table's deals: by time, then by the number in the hand id, then by the id
# (its key sorts as the id does)
_ORDER = ["table_id", "ts", "number", "hand"]


def _pairs(hands: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """(prev, hand): the keys of the proven consecutive deals, in the table order."""
    ordered = hands.sort(_ORDER, nulls_last=True)
    pairs = ordered.with_columns(
        pl.col("hand").shift(1).over("table_id").alias("prev"),
        pl.col("comparable").shift(1).over("table_id").alias("prev_comparable"),
    ).filter(pl.col("prev").is_not_null() & pl.col("comparable")
             & pl.col("prev_comparable"))
    now = seats.join(pairs.select("hand", "prev"), on="hand", how="inner")
    before = seats.select(pl.col("hand").alias("prev"), "player",
                          pl.col("seat").alias("prev_seat"), pl.col("finish").alias("ended"),
                          pl.col("finish_with_refund").alias("ended_with_refund"))
    common = now.join(before, on=["prev", "player"], how="inner").with_columns(
        ((pl.col("seat") == pl.col("prev_seat")) & pl.col("ended").is_not_null()
         & ((pl.col("start") == pl.col("ended"))
            | (pl.col("start") == pl.col("ended_with_refund")).fill_null(False)))
        .fill_null(False).alias("ok"))
    proven = common.group_by("hand").agg(
        pl.len().alias("common"), pl.col("ok").all().alias("ok")).filter(
        (pl.col("common") >= 2) & pl.col("ok"))
    return pairs.join(proven.select("hand"), on="hand", how="semi", maintain_order="left"
                      ).select("prev", "hand")


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
    followed = _blind_runs(hands, sat_out, pairs)
    watched = sat_out.get_column("player").unique()
    rows = seats.filter(pl.col("player").is_in(watched.implode())
                        & pl.col("hand").is_in(followed.get_column("hand").implode())).select(
        "hand", "player", "seat", "dealt", "posted").rows()
    at: dict[int, dict[str, tuple[int, bool, bool]]] = {}
    for hand, player, seat, dealt, posted in rows:
        at.setdefault(hand, {})[player] = (seat, dealt, posted)
    proven = set(pairs.rows())
    out: list[Finding] = []
    owed: dict[str, str] = {}  # player -> the deal whose big blind he missed
    played: set[str] = set()
    prev: tuple[str, int, int] | None = None
    for table_id, hand, hand_id, big_blind, is_tournament in followed.iter_rows():
        here = at.get(hand, {})
        st = tournament if (is_tournament and tournament is not None) else cash
        if prev is None or (prev[1], hand) not in proven or is_tournament:
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
        prev = (table_id, hand, big_blind)
    return out


def _blind_runs(hands: pl.DataFrame, sat_out: pl.DataFrame, pairs: pl.DataFrame
                ) -> pl.DataFrame:
    """The deals _missed_big_blinds must follow, in table order: the runs of proven
    consecutive cash deals (a gap or a tournament deal forgets what was owed and starts a
    run) in which the big blind passed someone sitting out, from the seat before him to a
    seat after him. In any other run nobody comes to owe a blind."""
    ordered = hands.sort(_ORDER, nulls_last=True).select(
        "table_id", "hand", "hand_id", "big_blind_seat", pl.col("tournament").fill_null(False))
    bb = pl.col("big_blind_seat").fill_null(0).cast(pl.Int64)
    runs = ordered.with_columns(pl.col("hand").shift(1).alias("prev"),
                                bb.shift(1).alias("prev_bb"), bb.alias("bb")).join(
        pairs.with_columns(pl.lit(True).alias("proven")), on=["prev", "hand"], how="left",
        maintain_order="left").with_columns(
        (~pl.col("proven").fill_null(False) | pl.col("tournament")).cum_sum().alias("run"))
    seat, after, before = pl.col("seat").cast(pl.Int64), pl.col("prev_bb"), pl.col("bb")
    passed = runs.filter(pl.col("proven").fill_null(False) & ~pl.col("tournament")
                         & (after != 0) & (before != 0)).join(
        sat_out.select("hand", "seat"), on="hand", how="inner").filter(
        ((seat - after) % 256 + 256) % 256 > 0,
        ((seat - after) % 256 + 256) % 256 < ((before - after) % 256 + 256) % 256)
    return runs.filter(pl.col("run").is_in(passed.get_column("run").unique().implode())
                       ).select("table_id", "hand", "hand_id", "big_blind_seat", "tournament")


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
    keys = hand_keys(events)
    hands, seats = _frames(events, keys)
    pairs = _pairs(hands, seats)
    if pairs.is_empty():
        return []
    out = _button_moves(hands, seats, pairs, cash, tournament)
    out.extend(_missed_big_blinds(hands, seats, pairs, cash, tournament))
    out.extend(kill_findings(events, keys, hands, pairs, cash, tournament))
    return out


def _button_moves(hands: pl.DataFrame, seats: pl.DataFrame, pairs: pl.DataFrame,
                  cash: Settings, tournament: Settings | None) -> list[Finding]:
    dealt = seats.filter(pl.col("dealt")).group_by("hand").agg(
        pl.col("seat").sort().alias("dealt"))
    per_hand = hands.select("hand", "hand_id", "button", "big_blind_seat",
                            pl.col("tournament").fill_null(False)).join(
        dealt, on="hand", how="left", maintain_order="left")
    if per_hand.get_column("hand").n_unique() == per_hand.height:
        pairs = _button_questions(pairs, per_hand, cash, tournament)
    deals = {h: Deal(hand_id=hand_id, button=btn, big_blind_seat=bb, dealt=tuple(d or ()))
             for h, hand_id, btn, bb, d in per_hand.filter(
                 pl.col("hand").is_in(pairs.get_column("prev").implode())
                 | pl.col("hand").is_in(pairs.get_column("hand").implode())).select(
                 "hand", "hand_id", "button", "big_blind_seat", "dealt").iter_rows()}
    tournaments = dict(per_hand.select("hand", "tournament").iter_rows())
    out: list[Finding] = []
    for prev, hand in pairs.iter_rows():
        st = tournament if (tournaments[hand] and tournament is not None) else cash
        if BUTTON_MOVE in st.disabled:
            continue
        a, b = deals[prev], deals[hand]
        why = check_button(a, b, st.button_method)
        if why is None:
            continue
        players = dict(seats.filter(pl.col("hand") == hand).select("seat", "player")
                       .iter_rows())
        why = _name_seats(why, players)
        out.append(finding(
            BUTTON_MOVE, hand_id=b.hand_id, seq=0, seat=b.button,
            player=players.get(b.button), severity=st.severity.get(BUTTON_MOVE),
            actual=b.button,
            message=f"The button is on seat {b.button} in this hand, after seat {a.button} in "
                    f"the previous deal at this table ({a.hand_id}): {why}. Each round every "
                    "player must get the button once."))
    return out


def _button_questions(pairs: pl.DataFrame, per_hand: pl.DataFrame, cash: Settings,
                      tournament: Settings | None) -> pl.DataFrame:
    """The pairs whose button check_button must judge (in their order): not those it passes
    at sight, where fewer than two are dealt in, or where neither deal is heads-up and a
    moving button (the profile allows one) went to the next player clockwise, nor those
    whose profile does not check BUTTON-MOVE."""
    def allows(st: Settings) -> tuple[bool, bool]:  # (checked, a moving button is allowed)
        return BUTTON_MOVE not in st.disabled, st.button_method != "dead"

    cash_rule, tournament_rule = allows(cash), allows(tournament or cash)
    b = per_hand.select("hand", "button", "tournament", "dealt")
    a = per_hand.select(pl.col("hand").alias("prev"), pl.col("button").alias("prev_button"),
                        pl.col("dealt").alias("prev_dealt"))
    both = pairs.with_row_index("pair").join(b, on="hand", how="left", maintain_order="left"
                                             ).join(a, on="prev", how="left",
                                                    maintain_order="left")
    seat = pl.col("dealt")
    clockwise = both.select("pair", "prev_button", "dealt").explode("dealt").group_by(
        "pair").agg(pl.coalesce(seat.filter(seat > pl.col("prev_button")).min(), seat.min())
                    .alias("clockwise"))
    checked = pl.when(pl.col("tournament")).then(tournament_rule[0]).otherwise(cash_rule[0])
    moving = pl.when(pl.col("tournament")).then(tournament_rule[1]).otherwise(cash_rule[1])
    n, n_prev = seat.list.len().fill_null(0), pl.col("prev_dealt").list.len().fill_null(0)
    passed = (n < 2) | ((n > 2) & (n_prev > 2) & moving
                        & (pl.col("button") == pl.col("clockwise")).fill_null(False))
    return both.join(clockwise, on="pair", how="left", maintain_order="left").filter(
        checked & ~passed).select("prev", "hand")
