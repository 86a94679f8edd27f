"""Structural validation of event tables, vectorised with polars (no per-row Python).

A hand is structurally sound when: every row has a hand id, a seq and a known kind; money is
non-negative; cards are well-formed; its rows are contiguous with seq 0..n-1; exactly one
`hand_started` comes first with a complete game config; `hand_ended` comes last. Poker rules
(a card dealt twice, an illegal raise) are not checked here: such a hand is ingested and the
replay flags it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import polars as pl
import pyarrow as pa

from audit.quarantine import Rejected
from audit.schema import event_kinds, events_schema, game_money_fields, structures, variants

_CARD = r"(?:[2-9TJQKA][cdhs]|\?\?|Xj)"
CARDS_PATTERN = rf"^{_CARD}(?: {_CARD})*$"
_DENOM = r"[1-9]\d*x[1-9]\d*"
CHIPS_DETAIL_PATTERN = rf"^(?:{_DENOM}(?:[+ ]{_DENOM})*(?: held)?|held)?$"
BUTTON_VARIANTS = frozenset(
    {"holdem", "omaha", "omaha5", "omaha_hilo", "omaha5_hilo", "omaha6", "omaha6_hilo",
     "holdem_6plus", "holdem_short", "holdem_split", "irish", "lowball_a5", "lowball_a5_triple",
     "lowball_27_single", "lowball_27_triple", "draw_high", "jacks_or_better", "badugi"}
)
# draw games a table may deal with an ante and no blinds: a big blind or an ante is required
ANTE_NOT_BLIND_VARIANTS = frozenset({"jacks_or_better", "draw_high"})
STUD_VARIANTS = frozenset({"stud", "stud_hilo", "razz", "stud5", "mississippi"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Validated:
    """The sound hands of a table (sorted by hand, seq) and the rejected ones."""

    table: pa.Table
    rejected: list[Rejected]
    hands: int


def _row_errors() -> pl.Expr:
    """One expression giving, per row, the first structural error or null."""
    kinds = sorted(event_kinds())
    g = pl.col("game")
    checks: list[tuple[pl.Expr, pl.Expr]] = [
        (pl.col("hand_id").is_null() | (pl.col("hand_id") == ""), pl.lit("hand_id is missing")),
        (pl.col("seq").is_null(), pl.lit("seq is missing")),
        (pl.col("kind").is_null(), pl.lit("kind is missing")),
        (
            ~pl.col("kind").is_in(kinds),
            pl.format("unknown kind '{}' (expected one of the kinds in schemas/events.json)",
                      pl.col("kind")),
        ),
        (pl.col("seq") < 0, pl.format("negative seq {}", pl.col("seq"))),
        (pl.col("amount") < 0, pl.format("negative amount {}", pl.col("amount"))),
        (pl.col("total") < 0, pl.format("negative total {}", pl.col("total"))),
        (pl.col("seat") < 1, pl.format("seat {} is not a seat number (1-based)", pl.col("seat"))),
        (
            pl.col("cards").is_not_null() & ~pl.col("cards").str.contains(CARDS_PATTERN),
            pl.format("cards '{}' are not in the form 'As Kd' ('??' unknown, 'Xj' joker)",
                      pl.col("cards")),
        ),
        # the live-table physical layer (audit/replay/live/tracker.py reads the words and
        # denominations)
        (
            pl.col("kind").is_in(["declare", "chips"]) & pl.col("seat").is_null(),
            pl.format("a '{}' event has no seat (who spoke or moved the chips)", pl.col("kind")),
        ),
        (
            (pl.col("kind") == "declare")
            & (pl.col("detail").is_null() | (pl.col("detail").str.strip_chars() == "")),
            pl.lit("a 'declare' event has no words in detail (e.g. \"raise 200\")"),
        ),
        (
            (pl.col("kind") == "chips") & pl.col("amount").is_null(),
            pl.lit("a 'chips' event has no amount (the chips moved in this motion)"),
        ),
        (
            (pl.col("kind") == "chips") & pl.col("detail").is_not_null()
            & ~pl.col("detail").str.contains(CHIPS_DETAIL_PATTERN),
            pl.format("chip denominations '{}' are not COUNTxVALUE joined by '+' or spaces "
                      "(e.g. 2x100+1x25), optionally followed by 'held'", pl.col("detail")),
        ),
        (
            (pl.col("kind") != "hand_started") & g.is_not_null(),
            pl.format("a game config on a '{}' row (only hand_started carries one)",
                      pl.col("kind")),
        ),
    ]
    started = pl.col("kind") == "hand_started"
    checks += [
        (started & g.is_null(), pl.lit("hand_started has no game config")),
        (
            started & ~g.struct.field("variant").is_in(sorted(variants())),
            pl.format("unknown variant '{}'", g.struct.field("variant")),
        ),
        (
            started & ~g.struct.field("structure").is_in(sorted(structures())),
            pl.format("unknown betting structure '{}'", g.struct.field("structure")),
        ),
        (
            started
            & g.struct.field("variant").is_in(sorted(BUTTON_VARIANTS))
            & (g.struct.field("big_blind").is_null() | (g.struct.field("big_blind") <= 0))
            # jacks or better is dealt with an ante and no blinds (RULEBOOK §4.6)
            & ~(g.struct.field("variant").is_in(sorted(ANTE_NOT_BLIND_VARIANTS))
                & (g.struct.field("ante").fill_null(0) > 0)),
            pl.lit("game config has no big_blind (button games need one)"),
        ),
        (
            started
            & g.struct.field("variant").is_in(sorted(BUTTON_VARIANTS))
            & g.struct.field("button_seat").is_null(),
            pl.lit("game config has no button_seat (button games need one)"),
        ),
        (
            started
            & g.struct.field("variant").is_in(sorted(STUD_VARIANTS))
            & g.struct.field("bring_in").is_null(),
            pl.lit("game config has no bring_in (stud games need one)"),
        ),
    ]
    for name in game_money_fields():
        checks.append(
            (
                started & (g.struct.field(name) < 0),
                pl.format(f"game.{name} is negative ({{}})", g.struct.field(name)),
            )
        )
    expr = pl.when(checks[0][0]).then(checks[0][1])
    for cond, msg in checks[1:]:
        expr = expr.when(cond.fill_null(False)).then(msg)
    return expr.otherwise(None)


def validate_events(table: pa.Table, lines: list[int], source: str, unit: str = "row") -> Validated:
    """Split a table into structurally sound hands and rejected hands (with line and reason).

    The common case (every hand sound, already in seq order) returns the input table as is;
    only tables with problems pay for filtering and reordering.
    """
    if table.num_rows == 0:
        return Validated(table=table, rejected=[], hands=0)
    line_col = pl.Series("_line", lines if lines else range(1, table.num_rows + 1), pl.Int64)
    df = pl.from_arrow(table)
    assert isinstance(df, pl.DataFrame)
    df = df.with_row_index("_row").with_columns(line_col, _row_errors().alias("_err"))
    has_id = pl.col("hand_id").is_not_null() & (pl.col("hand_id") != "")
    in_order = (pl.col("seq") == pl.col("seq").shift(1) + 1) | (pl.col("seq") == 0)

    per_hand = df.filter(has_id).group_by("hand_id", maintain_order=True).agg(
        n=pl.len(),
        first_row=pl.col("_row").min(),
        last_row=pl.col("_row").max(),
        first_line=pl.col("_line").min(),
        seq_min=pl.col("seq").min(),
        seq_max=pl.col("seq").max(),
        seq_unique=pl.col("seq").n_unique(),
        starts=(pl.col("kind") == "hand_started").sum(),
        first_kind=pl.col("kind").sort_by("seq").first(),
        last_kind=pl.col("kind").sort_by("seq").last(),
        err_line=pl.col("_line").filter(pl.col("_err").is_not_null()).first(),
        err=pl.col("_err").drop_nulls().first(),
    )
    hand_err = (
        pl.when(pl.col("err").is_not_null())
        .then(pl.format("{} {}: {}", pl.lit(unit), pl.col("err_line"), pl.col("err")))
        .when(pl.col("seq_unique") != pl.col("n"))
        .then(pl.lit("seq repeats a number: every event needs its own seq"))
        .when((pl.col("seq_min") != 0) | (pl.col("seq_max") != pl.col("n") - 1))
        .then(
            pl.format(
                "seq must run 0..{} without gaps, found {}..{} over {} rows",
                pl.col("n") - 1, pl.col("seq_min"), pl.col("seq_max"), pl.col("n"),
            )
        )
        .when(pl.col("last_row") - pl.col("first_row") + 1 != pl.col("n"))
        .then(pl.lit("the hand's rows are not contiguous (another hand's rows are in between)"))
        .when(pl.col("starts") != 1)
        .then(pl.format("expected exactly one hand_started, found {}", pl.col("starts")))
        .when(pl.col("first_kind") != "hand_started")
        .then(pl.format("seq 0 is '{}', not hand_started", pl.col("first_kind")))
        .when(pl.col("last_kind") != "hand_ended")
        .then(pl.format("the last event is '{}', not hand_ended", pl.col("last_kind")))
        .otherwise(None)
    )
    per_hand = per_hand.with_columns(_hand_err=hand_err)
    bad = per_hand.filter(pl.col("_hand_err").is_not_null())
    orphan_rows = df.filter(~has_id)
    good_hands = per_hand.height - bad.height
    if bad.height == 0 and orphan_rows.height == 0 and df.select(in_order.all()).item():
        return Validated(table=table, rejected=[], hands=good_hands)

    rejected = [
        Rejected(source=source, line=int(r["_line"]), hand_id=None,
                 reason=f"{unit} {r['_line']}: hand_id is missing", raw=_raw_rows([r]))
        for r in orphan_rows.drop("_err").to_dicts()
    ]
    good = df.filter(has_id)
    if bad.height:
        bad_rows = good.join(bad.select("hand_id", "_hand_err", "first_line"), on="hand_id")
        for (hand_id,), rows in bad_rows.sort("_row").group_by("hand_id", maintain_order=True):
            first = rows.row(0, named=True)
            rejected.append(
                Rejected(
                    source=source,
                    line=int(first["first_line"]),
                    hand_id=str(hand_id),
                    reason=str(first["_hand_err"]),
                    raw=_raw_rows(rows.drop("_err", "_hand_err", "first_line").to_dicts()),
                )
            )
        good = good.join(bad.select("hand_id"), on="hand_id", how="anti")
    # Rows of a sound hand are contiguous but may arrive out of seq order: store them ordered.
    good = good.sort(["_row"]).with_columns(
        _first=pl.col("_row").min().over("hand_id")
    ).sort(["_first", "seq"])
    out = good.drop("_row", "_line", "_err", "_first").to_arrow().cast(events_schema())
    return Validated(table=out, rejected=rejected, hands=good_hands)


def _raw_rows(rows: list[dict[str, object]]) -> str:
    clean = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    return "\n".join(json.dumps(r, default=str, ensure_ascii=False) for r in clean)
