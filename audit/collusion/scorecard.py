"""How well the collusion leads find the simulator's planted teams (issue 8's scorecard).

`collusion_scorecard` reads a simulated store's `colluders.parquet` (the labels: team members and
style) and an audit run's projections, scores every pair (audit/collusion/leads.py) and reports:

- per style: teams planted, teams found (a lead at q <= fdr for one of its pairs: recall at that
  FDR), teams named whole (one lead, the connected lead pairs, holds all members: teams of three
  or more) and the AUC of the pair score (-log10 p) of the planted pairs against every honest
  pair tested (the probability that a planted pair outranks an honest one; ties count half);
- overall: leads, true leads, precision, false leads and false leads per 1,000 players, and
  precision at k (k = the number of planted pairs).

A pair is honest unless both players are members of one planted team: a lead naming one colluder
and an innocent player is a false lead.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from audit.collusion.findings import run_frames
from audit.collusion.leads import lead_teams, pair_scores
from audit.store.dataset import Store


def planted_pairs(store_dir: Path | str) -> pl.DataFrame:
    """The simulator's teams as (player_a, player_b, style, strength, team_id), player_a <
    player_b: every pair of a team of three or more."""
    teams = pq.read_table(Path(store_dir) / "colluders.parquet").to_pylist()
    rows = [{"player_a": a, "player_b": b, "style": t["style"], "strength": t["strength"],
             "team_id": t["team_id"]}
            for t in teams for a, b in combinations(sorted(t["players"]), 2)]
    schema = {"player_a": pl.String, "player_b": pl.String, "style": pl.String,
              "strength": pl.Float64, "team_id": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def score_against_labels(scored: pl.DataFrame, planted: pl.DataFrame, *, fdr: float,
                         players: int) -> dict[str, Any]:
    """The scorecard of scored pairs (columns of `pair_scores`) against planted teams."""
    keys = ["player_a", "player_b"]
    tested = scored.filter(pl.col("p_value").is_not_nan())
    tested = tested.join(planted, on=keys, how="left").with_columns(
        planted=pl.col("style").is_not_null(),
        score=-pl.col("p_value").clip(lower_bound=1e-300).log10(),
        lead=pl.col("q_value") <= fdr,
    )
    honest = tested.filter(~pl.col("planted"))["score"].to_numpy()
    styles: dict[str, dict[str, Any]] = {}
    lead_pairs = tested.filter(pl.col("lead")).select("player_a", "player_b").rows()
    named = lead_teams(lead_pairs)
    for style in sorted(set(planted["style"].to_list())):
        teams = planted.filter(pl.col("style") == style)
        rows = tested.filter(pl.col("style") == style)
        n_teams = teams["team_id"].n_unique()
        found_ids = set(rows.filter(pl.col("lead"))["team_id"].to_list())
        found = len(found_ids)
        # a team is named whole when one lead (a team of lead pairs) holds all its members
        whole = 0
        for t in found_ids:
            mine = teams.filter(pl.col("team_id") == t)
            members = set(mine["player_a"].to_list()) | set(mine["player_b"].to_list())
            whole += any(members <= set(m) for m in named.values())
        auc = None
        if honest.size:
            wins = [float(np.mean(honest < s) + 0.5 * np.mean(honest == s))
                    for s in rows["score"].to_list()]
            # a planted team that was not tested at all (too few hands) ranks below everyone
            wins += [0.0] * (teams.height - rows.height)
            auc = float(np.mean(wins)) if wins else None
        styles[style] = {"teams": n_teams, "pairs": teams.height, "tested": rows.height,
                         "found": found, "whole": whole,
                         "recall": found / n_teams if n_teams else None, "auc": auc}
    leads = tested.filter(pl.col("lead"))
    true_leads = int(leads["planted"].sum())
    k = planted.height  # planted pairs
    top = tested.sort("p_value").head(k)
    return {
        "pairs_tested": tested.height,
        "players": players,
        "fdr": fdr,
        "styles": styles,
        "leads": leads.height,
        "true_leads": true_leads,
        "false_leads": leads.height - true_leads,
        "false_leads_per_1000_players": 1000 * (leads.height - true_leads) / max(players, 1),
        "precision": true_leads / leads.height if leads.height else None,
        "recall": true_leads / k if k else None,  # of planted pairs
        "precision_at_k": float(top["planted"].sum()) / k if k else None,
    }


def collusion_scorecard(store_dir: Path | str, *, run: str = "latest", min_hands: int = 100,
                        fdr: float = 0.05) -> dict[str, Any]:
    """Score the leads of an audit run of a simulated store against its planted teams."""
    run_id, hp, hands = run_frames(Store(Path(store_dir)), run)
    scored, _ = pair_scores(hp, hands, min_hands=min_hands, fdr=fdr)
    players = hp.select(pl.col("player").drop_nulls().n_unique()).collect().item()
    card = score_against_labels(scored, planted_pairs(store_dir), fdr=fdr, players=players)
    return {"run_id": run_id, "min_hands": min_hands, **card}


def format_collusion_scorecard(card: dict[str, Any]) -> str:
    """The scorecard as a fixed-width table."""
    lines = [f"{'style':12} {'teams':>5} {'found':>5} {'recall':>7} {'AUC':>6} {'whole':>5}"]
    for style, r in card["styles"].items():
        auc = "-" if r["auc"] is None else f"{r['auc']:.3f}"
        rec = "-" if r["recall"] is None else f"{100 * r['recall']:.0f}%"
        lines.append(f"{style:12} {r['teams']:>5} {r['found']:>5} {rec:>7} {auc:>6} "
                     f"{r['whole']:>5}")
    prec = "-" if card["precision"] is None else f"{100 * card['precision']:.0f}%"
    lines.append(f"leads {card['leads']} at FDR {card['fdr']:g} ({card['true_leads']} true, "
                 f"{card['false_leads']} false; precision {prec}; "
                 f"{card['false_leads_per_1000_players']:.2f} false per 1,000 players); "
                 f"{card['pairs_tested']} pairs tested")
    return "\n".join(lines)
