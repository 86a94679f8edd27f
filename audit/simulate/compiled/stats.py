"""How a simulated store plays: the figures that tell whether hands look like real poker
(aggression, fold rates, flops and showdowns seen, pot sizes), computed the same way for the
compiled and the Python engine so that the two can be compared side by side."""

from __future__ import annotations

from typing import Any

import polars as pl
import pyarrow as pa

ACTIONS = ("fold", "check", "call", "bet", "raise")


def play_stats(events: pa.Table) -> dict[str, Any]:
    """Per-hand and per-action shares of an events table (hold'em style button games).

    - `actions_per_hand`: voluntary actions (fold, check, call, bet, raise) per hand
    - `fold_share`, `check_share`, `call_share`, `bet_raise_share`: of those actions
    - `aggression_factor`: (bets + raises) / calls
    - `preflop_raise_share`: hands with a preflop raise
    - `flop_seen`, `showdown`: hands that reach the flop, hands with a showdown
    - `pot_bb_mean`, `pot_bb_median`, `pot_bb_p90`: the pot (awards + rake) in big blinds
    - `players_dealt`: dealt-in players per hand
    """
    df = pl.from_arrow(events.select(["hand_id", "seq", "kind", "amount", "detail", "game"]))
    assert isinstance(df, pl.DataFrame)
    bb = (df.filter(pl.col("kind") == "hand_started")
          .select("hand_id", pl.col("game").struct.field("big_blind").alias("bb")))
    hands = bb.height
    kinds = df.group_by("kind").len()
    count = {r["kind"]: r["len"] for r in kinds.iter_rows(named=True)}
    actions = sum(count.get(k, 0) for k in ACTIONS)
    per_hand = (df.group_by("hand_id").agg(
        flop=(pl.col("detail") == "board").any(),
        showdown=(pl.col("kind") == "show").any(),
        pot=pl.col("amount").filter(pl.col("kind").is_in(["award", "rake"])
                                    & (pl.col("detail") != "uncalled")).sum(),
        dealt=(pl.col("detail") == "hole").sum(),
        first_raise=pl.col("seq").filter(pl.col("kind") == "raise").min(),
        first_board=pl.col("seq").filter(pl.col("detail") == "board").min(),
    ).join(bb, on="hand_id"))
    pfr = per_hand.select(pl.col("first_raise").is_not_null() & (
        pl.col("first_board").is_null() | (pl.col("first_raise") < pl.col("first_board"))))
    per_hand = per_hand.with_columns(pfr=pfr.to_series())
    pot_bb = per_hand["pot"] / per_hand["bb"]

    def share(k: str) -> float:
        return round(count.get(k, 0) / actions, 4) if actions else 0.0

    return {
        "hands": hands,
        "actions_per_hand": round(actions / hands, 2) if hands else 0.0,
        "fold_share": share("fold"), "check_share": share("check"),
        "call_share": share("call"),
        "bet_raise_share": round((count.get("bet", 0) + count.get("raise", 0)) / actions, 4)
        if actions else 0.0,
        "aggression_factor": round((count.get("bet", 0) + count.get("raise", 0))
                                   / max(count.get("call", 0), 1), 2),
        "preflop_raise_share": round(float(per_hand["pfr"].mean() or 0), 4),
        "flop_seen": round(float(per_hand["flop"].mean() or 0), 4),
        "showdown": round(float(per_hand["showdown"].mean() or 0), 4),
        "pot_bb_mean": round(float(pot_bb.mean() or 0), 1),
        "pot_bb_median": round(float(pot_bb.median() or 0), 1),
        "pot_bb_p90": round(float(pot_bb.quantile(0.9) or 0), 1),
        "players_dealt": round(float(per_hand["dealt"].mean() or 0), 2),
    }
