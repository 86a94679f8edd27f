"""How well the collusion leads find the simulator's planted teams (issue 8's scorecard).

`collusion_scorecard` reads a simulated store's `colluders.parquet` (the labels: team members and
style) and an audit run's projections, scores every pair (audit/collusion/leads.py) and reports:

- per style: teams planted, teams found (a lead at q <= fdr for one of its pairs: recall at that
  FDR), teams named whole (one lead, the connected lead pairs, holds all members: teams of three
  or more) and the AUC of the pair score (-log10 p) of the planted pairs against every honest
  pair tested (the probability that a planted pair outranks an honest one; ties count half);
- overall: leads, true leads, precision, false leads (and those naming two players of no
  team), false leads per 1,000 players and per 100,000 hands, and precision at k (k = the
  number of planted pairs);
- per planted team, found or not (`teams`): its members, the hands its best pair played
  together, that pair's rank among all tested pairs (by q-value, then p-value; 1 = the
  strongest), its q- and p-value and strongest test; untested teams (fewer than min_hands hands
  together) have no rank;
- and, for the rulebook population (its colluding_hands.parquet, `colluding_play`), per team the
  hands it colluded in and the decisions its collusion *changed*: differed from what the
  player's honest type would have played in the same spot with the same draw
  (audit/simulate/play/population.py), and in how many hands. A missed team that changed a
  handful of decisions left too little in the log for any detector; one that changed hundreds
  is the detector's miss.

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

from audit.collusion import streets as S
from audit.collusion.findings import run_frames
from audit.collusion.leads import lead_teams, pair_scores, rank_key
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


def colluding_play(store_dir: Path | str) -> pl.DataFrame | None:
    """Per team of a rulebook population: the hands it colluded in (`colluded`), its
    collusive decisions, those that changed the play (`changed`) and the hands with a changed
    decision (`changed_hands`); None for a store without the ledger (the simulator's own
    family, or a store simulated before the ledger)."""
    path = Path(store_dir) / "colluding_hands.parquet"
    if not path.exists():
        return None
    rows = pl.read_parquet(path)
    if "changed" not in rows.columns:
        return None
    return rows.group_by("team_id").agg(
        colluded=pl.len().cast(pl.Int64),
        decisions=pl.col("decisions").sum().cast(pl.Int64),
        changed=pl.col("changed").sum().cast(pl.Int64),
        changed_hands=(pl.col("changed") > 0).sum().cast(pl.Int64),
    ).with_columns(pl.col("team_id").cast(pl.Int64))


def score_against_labels(scored: pl.DataFrame, planted: pl.DataFrame, *, fdr: float,
                         players: int, hands: int | None = None,
                         played: pl.DataFrame | None = None) -> dict[str, Any]:
    """The scorecard of scored pairs (columns of `pair_scores`) against planted teams;
    `hands`: the hands of the population (for false leads per 100,000 hands); `played`: what
    each team's collusion changed (`colluding_play`), when the store says."""
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
    false_leads = leads.height - true_leads
    colluders = set(planted["player_a"].to_list()) | set(planted["player_b"].to_list())
    honest_pairs = leads.filter(~pl.col("player_a").is_in(list(colluders))
                                & ~pl.col("player_b").is_in(list(colluders))).height
    return {
        "pairs_tested": tested.height,
        "players": players,
        "fdr": fdr,
        "styles": styles,
        "leads": leads.height,
        "true_leads": true_leads,
        "false_leads": false_leads,
        # false leads naming two players of no team (the others name a colluder and someone
        # outside his team)
        "false_leads_honest": honest_pairs,
        "false_leads_per_1000_players": 1000 * false_leads / max(players, 1),
        "hands": hands,
        "false_leads_per_100k_hands": 100_000 * false_leads / hands if hands else None,
        "teams": team_ranks(scored, planted, fdr=fdr, played=played),
        "precision": true_leads / leads.height if leads.height else None,
        "recall": true_leads / k if k else None,  # of planted pairs
        "precision_at_k": float(top["planted"].sum()) / k if k else None,
    }


def team_ranks(scored: pl.DataFrame, planted: pl.DataFrame, *, fdr: float,
               played: pl.DataFrame | None = None) -> list[dict[str, Any]]:
    """Every planted team, found or not: its best pair's rank among all tested pairs (in the
    leads' order, `rank_key`; 1 = strongest), q, p, strongest test and hands together (None
    when never tested); with `played` (`colluding_play`), the hands it colluded in and the
    decisions its collusion changed (in how many hands)."""
    keys = ["player_a", "player_b"]
    ranked = (scored.filter(pl.col("p_value").is_not_nan())
              .sort(rank_key())
              .with_row_index("rank", offset=1))
    cols = [c for c in ("top",) if c in scored.columns]
    mine = planted.join(ranked.select(*keys, "rank", "q_value", "p_value", *cols),
                        on=keys, how="left")
    mine = mine.join(scored.select(*keys, "hands"), on=keys, how="left")
    ledger = {} if played is None else {r["team_id"]: r for r in played.iter_rows(named=True)}
    out = []
    for team_id in sorted(set(planted["team_id"].to_list())):
        rows = mine.filter(pl.col("team_id") == team_id)
        members = sorted(set(rows["player_a"].to_list()) | set(rows["player_b"].to_list()))
        best = rows.filter(pl.col("rank").is_not_null()).sort("rank").head(1)
        hands = rows["hands"].drop_nulls()
        r = best.row(0, named=True) if best.height else None
        out.append({
            "team_id": team_id, "style": rows["style"][0], "members": members,
            "hands": int(hands.max()) if hands.len() else 0,  # type: ignore[arg-type]
            "rank": r["rank"] if r else None,
            "q_value": r["q_value"] if r else None,
            "p_value": r["p_value"] if r else None,
            "top": r.get("top") if r else None,
            "found": bool(r and r["q_value"] <= fdr),
        })
        if played is not None:
            mine_played = ledger.get(team_id, {})
            out[-1] |= {k: int(mine_played.get(k, 0))
                        for k in ("colluded", "changed", "changed_hands")}
    return out


def collusion_scorecard(store_dir: Path | str, *, run: str = "latest", min_hands: int = 100,
                        fdr: float = 0.05) -> dict[str, Any]:
    """Score the leads of an audit run of a simulated store against its planted teams.

    The pairs are scored as the leads of `poker-audit collusion` are (findings.collusion_leads),
    with the per-street counts of the store's events (audit/collusion/streets.py): without them
    the scorecard judged a detector without its per-street tests (checkdown_bets,
    softplay_streets), not the one whose leads it printed beside it."""
    store = Store(Path(store_dir))
    run_id, hp, hands = run_frames(store, run)
    scored, _ = pair_scores(hp, hands, min_hands=min_hands, fdr=fdr,
                            streets=S.file_counts(store.event_files(), hp, hands),
                            evidence=False)
    players = hp.select(pl.col("player").drop_nulls().n_unique()).collect().item()
    n_hands = hands.select(pl.len()).collect().item()
    card = score_against_labels(scored, planted_pairs(store_dir), fdr=fdr, players=players,
                                hands=n_hands, played=colluding_play(store_dir))
    return {"run_id": run_id, "min_hands": min_hands, **card}


def format_collusion_scorecard(card: dict[str, Any]) -> str:
    """The scorecard as a fixed-width table."""
    lines = [f"{'style':13} {'teams':>5} {'found':>5} {'recall':>7} {'AUC':>6} {'whole':>5}"]
    for style, r in card["styles"].items():
        auc = "-" if r["auc"] is None else f"{r['auc']:.3f}"
        rec = "-" if r["recall"] is None else f"{100 * r['recall']:.0f}%"
        lines.append(f"{style:13} {r['teams']:>5} {r['found']:>5} {rec:>7} {auc:>6} "
                     f"{r['whole']:>5}")
    prec = "-" if card["precision"] is None else f"{100 * card['precision']:.0f}%"
    lines.append(f"leads {card['leads']} at FDR {card['fdr']:g} ({card['true_leads']} true, "
                 f"{card['false_leads']} false, {card.get('false_leads_honest', 0)} of them "
                 f"between players of no team; precision {prec}; "
                 f"{card['false_leads_per_1000_players']:.2f} false per 1,000 players"
                 + ("" if card.get("false_leads_per_100k_hands") is None else
                    f", {card['false_leads_per_100k_hands']:.2f} per 100,000 hands "
                    f"({card['hands']:,} hands)")
                 + f"); {card['pairs_tested']} pairs tested")
    teams = card.get("teams") or []
    if teams:
        ledger = "changed" in teams[0]
        lines.append("planted teams (rank: the best pair among all tested pairs, by q-value"
                     + ("; colluded: the hands it colluded in; changed: its decisions that "
                        "collusion changed from honest play, and in how many hands)"
                        if ledger else ")"))
        lines.append(f"{'team':>4} {'style':13} {'found':5} {'rank':>6} {'q_value':>8} "
                     f"{'p_value':>8} {'hands':>6} "
                     + (f"{'colluded':>8} {'changed':>13} " if ledger else "")
                     + f"{'test':17} members")
        for t in teams:
            rank = "-" if t["rank"] is None else str(t["rank"])
            q = "-" if t["q_value"] is None else f"{t['q_value']:.2g}"
            p = "-" if t["p_value"] is None else f"{t['p_value']:.2g}"
            changed = f"{t['changed']} in {t['changed_hands']}" if ledger else ""
            played = f"{t['colluded']:>8} {changed:>13} " if ledger else ""
            lines.append(f"{t['team_id']:>4} {t['style']:13} {'yes' if t['found'] else 'no':5} "
                         f"{rank:>6} {q:>8} {p:>8} {t['hands']:>6} {played}"
                         f"{t['top'] or '-':17} {', '.join(t['members'])}")
    return "\n".join(lines)
