"""Collusion analytics (RULEBOOK §4.17, PATTERN-*): planted teams are found, honest populations
yield no leads at the set FDR, minimum samples hold, evidence is real, per-hand check-downs."""

from __future__ import annotations

import json
import warnings
import weakref
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from audit.cli.collusion import collusion_command
from audit.collusion import aggregate as A
from audit.collusion import checkdown_findings, leads_from_frames
from audit.collusion.leads import FEATURES, MAX_TEAM, combine, lead_teams, pair_scores
from audit.collusion.stats import bh_qvalues, binom_sf
from audit.collusion.synthetic import generate
from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import (
    PATTERN_CHECKDOWN_ALLIN,
    PATTERN_CHIP_DUMP,
    PATTERN_COLLUSION,
    PATTERN_SOFTPLAY,
    PATTERN_WHIPSAW,
)
from audit.rules.registry import get_rule
from audit.schema import arrow_schema
from audit.sql.query import query
from audit.store.dataset import Store

TEAMS = {"softplay": 2, "chip_dump": 2, "whipsaw": 2, "checkdown": 2}
STYLE_FEATURE = {"softplay": "softplay", "chip_dump": "chip_dump", "whipsaw": "whipsaw",
                 "checkdown": "checkdown"}


@pytest.fixture(scope="module")
def planted():
    hands, hp, teams = generate(seed=7, teams=TEAMS)
    return hands, hp, teams


@pytest.mark.slow
def test_planted_pairs_rank_top_with_q_below_fdr(planted):
    hands, hp, teams = planted
    leads = pl.from_arrow(leads_from_frames(hp, hands, min_hands=50, fdr=0.05))
    pairs = {(a, b) for _, a, b in teams}
    found = set(zip(leads["player_a"], leads["player_b"], strict=True))
    assert pairs <= found
    top = list(zip(leads["player_a"], leads["player_b"], strict=True))[: len(pairs)]
    assert len(set(top) & pairs) >= len(pairs) - 1  # at most one stray pair among the top
    assert (leads["q_value"] <= 0.05).all()
    assert leads["rank"].to_list() == list(range(1, leads.height + 1))


def test_each_style_is_detected_by_its_own_feature(planted):
    hands, hp, teams = planted
    scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50)
    for style, a, b in teams:
        row = scored.filter((pl.col("player_a") == a) & (pl.col("player_b") == b)).row(
            0, named=True)
        assert row[f"{STYLE_FEATURE[style]}_p"] < 1e-4, (style, a, b)


@pytest.mark.slow
def test_honest_populations_rarely_yield_leads():
    # Under the global null BH controls P(any lead) at the FDR level: allow ~fdr of 20 seeds.
    runs_with_leads = 0
    for seed in range(100, 120):
        hands, hp, _ = generate(seed=seed, days=6)
        leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05)
        runs_with_leads += leads.num_rows > 0
    assert runs_with_leads <= 2


@pytest.mark.slow
def test_minimum_sample_sizes_are_respected(planted):
    hands, hp, _ = planted
    assert leads_from_frames(hp, hands, min_hands=100_000, fdr=0.05).num_rows == 0
    scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50)
    assert scored["hands"].min() >= 50
    everyone, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=1)
    assert everyone["hands"].min() < 50  # the gate above had pairs to leave out
    gated = 0
    for f in FEATURES:
        small = scored.filter(pl.col(f"{f.name}_n").abs() < f.min_sample)
        if f.name != "seating":
            assert small[f"{f.name}_p"].is_nan().all(), f.name
            gated += small.height
    assert gated > 0  # some feature had too small a sample on some pair, and gave no p-value


@pytest.mark.slow
def test_evidence_hand_ids_are_hands_of_the_pair(planted):
    hands, hp, _ = planted
    leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05).to_pylist()
    by_hand = hp.group_by("hand_id").agg(pl.col("player"))
    players = dict(zip(by_hand["hand_id"], by_hand["player"], strict=True))
    for lead in leads:
        assert lead["evidence_hand_ids"], lead["message"]
        for h in lead["evidence_hand_ids"]:
            assert {lead["player_a"], lead["player_b"]} <= set(players[h])
            assert h in lead["message"]
        assert "not a verdict" in lead["message"]
        assert get_rule(lead["pattern"]).category == "collusion"
        json.loads(lead["features"])


def test_stats_binomial_tail_and_bh():
    assert binom_sf(np.array([0]), np.array([5]), np.array([0.5]))[0] == 1.0
    q = bh_qvalues(np.array([0.001, np.nan, 0.5]))
    assert q[0] == pytest.approx(0.002) and np.isnan(q[1])


CHECKDOWN = """hand fx:checkdown holdem no_limit sb=50 bb=100 button=3
seat 1 alice 10000
seat 2 bob 10000
seat 3 carol 300
post 1 small_blind 50
post 2 big_blind 100
deal 1 hole Qd Qc
deal 2 hole As Ks
deal 3 hole 8h 4c
raise 3 to 300
call 1 250
call 2 200
deal board 2d 7d 9h
check 1
check 2
deal board Jc
check 1
check 2
deal board 3s
check 1
check 2
show 1 Qd Qc
show 2 As Ks
show 3 8h 4c
award 1 900 main
"""


def _projections(text: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    rows, _ = parse_text(text)[0]
    r = replay_hand(hand_from_rows(rows))
    hands = pl.from_arrow(pa.Table.from_pylist([r.hand], schema=arrow_schema("hands")))
    hp = pl.from_arrow(pa.Table.from_pylist(list(r.players), schema=arrow_schema("hand_players")))
    return hands, hp


def test_pattern_checkdown_allin_per_hand_finding():
    hands, hp = _projections(CHECKDOWN)
    found = checkdown_findings(hp.lazy(), hands.lazy())
    assert [(f.rule_id, f.hand_id, f.player, f.counterparty) for f in found] == [
        (PATTERN_CHECKDOWN_ALLIN, "fx:checkdown", "alice", "bob")]
    assert found[0].category == "collusion" and found[0].severity == "info"


def test_pattern_checkdown_allin_not_when_a_survivor_bets():
    text = CHECKDOWN.replace("deal board Jc\ncheck 1\ncheck 2",
                             "deal board Jc\nbet 1 100\ncall 2 100")
    text = text.replace("award 1 900 main", "award 1 1100 main")
    hands, hp = _projections(text)
    assert checkdown_findings(hp.lazy(), hands.lazy()) == []


def _fake_store(tmp_path: Path, hands: pl.DataFrame, hp: pl.DataFrame) -> Store:
    (tmp_path / "manifest.jsonl").write_text("", encoding="utf-8")
    run = tmp_path / "runs" / "20260101T000000000000Z-00000000"
    run.mkdir(parents=True)
    run_id = run.name
    pq.write_table(hands.with_columns(run_id=pl.lit(run_id)).to_arrow()
                   .cast(arrow_schema("hands")), run / "hands.parquet")
    pq.write_table(hp.with_columns(run_id=pl.lit(run_id)).to_arrow()
                   .cast(arrow_schema("hand_players")), run / "hand_players.parquet")
    pq.write_table(arrow_schema("findings").empty_table(), run / "findings.parquet")
    (run / "run.json").write_text(json.dumps({"run_id": run_id}), encoding="utf-8")
    return Store(tmp_path)


@pytest.mark.slow
def test_cli_prints_leads_and_writes_collusion_findings(planted, tmp_path):
    hands, hp, teams = planted
    store = _fake_store(tmp_path, hands, hp)
    result = CliRunner().invoke(collusion_command, ["--store", str(tmp_path), "--min-hands",
                                                    "50", "--format", "json"])
    assert result.exit_code == 0, result.output
    leads = json.loads(result.stdout)
    assert {(x["player_a"], x["player_b"]) for x in leads} >= {(a, b) for _, a, b in teams}
    got = query(store, "SELECT rule_id, count(*) AS n FROM collusion_leads GROUP BY rule_id")
    assert sum(got.column("n").to_pylist()) == len(leads)
    per_hand = query(store, "SELECT count(*) AS n FROM findings "
                     "WHERE rule_id = 'PATTERN-CHECKDOWN-ALLIN' AND hand_id IS NOT NULL")
    assert per_hand.column("n")[0].as_py() > 0
    table = CliRunner().invoke(collusion_command, ["--store", str(tmp_path), "--min-hands", "50"])
    assert table.exit_code == 0 and "PATTERN-" in table.stdout


STYLE_PATTERN = {"softplay": PATTERN_SOFTPLAY, "chip_dump": PATTERN_CHIP_DUMP,
                 "whipsaw": PATTERN_WHIPSAW, "checkdown": PATTERN_CHECKDOWN_ALLIN}


def test_each_planted_team_is_reported_under_its_rulebook_pattern(planted):
    hands, hp, teams = planted
    leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05).to_pylist()
    pattern = {frozenset((lead["player_a"], lead["player_b"])): lead["pattern"]
               for lead in leads}
    for style, a, b in teams:
        assert pattern[frozenset((a, b))] == STYLE_PATTERN[style], (style, a, b)


def test_folding_to_the_partner_and_sitting_together_are_pattern_collusion():
    # RULEBOOK §4.17: the general collusion pattern covers the evidence that is not soft play,
    # chip dumping, whipsawing or a check-down.
    by_name = {f.name: f for f in FEATURES}
    for name in ("fold_to_partner", "strong_fold", "seating"):
        assert by_name[name].rule_id == PATTERN_COLLUSION


def _same_table(x: pl.DataFrame, y: pl.DataFrame) -> None:
    keys = ["player_a", "player_b"]
    x, y = x.sort(keys), y.sort(keys)
    assert x.columns == y.columns and x.height == y.height
    for c in x.columns:
        if x[c].dtype.is_float():
            assert np.allclose(x[c].to_numpy(), y[c].to_numpy(), rtol=1e-9, atol=1e-6), c
        else:
            assert x[c].to_list() == y[c].to_list(), c


def test_partials_are_added_up_as_they_arrive_not_kept_to_the_end():
    # a chunk of a big room holds most of its pairs: kept until the end, the chunks' tables
    # took 10 GB at 5M hands; a running total keeps only itself and the chunk at hand, and lets
    # the chunk go once added, before the next one is aggregated (from the third chunk on, no
    # chunk's table is alive when the next is asked for: the first is the total until the
    # second is added to it)
    seen: list[weakref.ref[pl.DataFrame]] = []
    alive_when_asked: list[int] = []

    def partials():
        for day in range(6):
            alive_when_asked.append(sum(ref() is not None for ref in seen))
            table = pl.DataFrame({"player_a": ["a", "a", "b"], "player_b": ["b", "c", "c"],
                                  "n": [1, day, 2], "flow": [0.5, 0.25, day * 1.0]})
            seen.append(weakref.ref(table))
            yield A.Partial(table=table,
                            cells=pl.DataFrame({"player": ["a"], "table": [f"t{day}"],
                                                "bucket": [day]}),
                            rates=pl.DataFrame({"player": ["a", "b"], "multi_n": [1, day]}))
            del table

    total = A.combine(partials())
    assert alive_when_asked == [0, 1, 0, 0, 0, 0]
    assert total.table.to_dicts() == [
        {"player_a": "a", "player_b": "b", "n": 6, "flow": 3.0},
        {"player_a": "a", "player_b": "c", "n": 15, "flow": 1.5},
        {"player_a": "b", "player_b": "c", "n": 12, "flow": 15.0}]
    assert total.cells.height == 6
    assert total.rates.sort("player").to_dicts() == [{"player": "a", "multi_n": 6},
                                                      {"player": "b", "multi_n": 15}]


def test_a_chunk_is_added_to_the_running_total_as_the_group_by_adds_them():
    # the running total grows column by column rather than by a group-by over both tables (its
    # peak at 5M hands): the same pairs in the same order (the total's, then the new ones in
    # the chunk's order), counts exactly, floats to the last bit (each the two terms added)
    rng = np.random.default_rng(4)

    def table(n: int) -> pl.DataFrame:
        a, b = rng.integers(0, 300, n), rng.integers(0, 300, n)
        t = pl.DataFrame({"player_a": [f"p{x:03d}" for x in np.minimum(a, b)],
                          "player_b": [f"p{x:03d}" for x in np.maximum(a, b) + 1]})
        t = t.unique(maintain_order=True)
        return t.with_columns(hands=pl.Series(rng.integers(1, 500, t.height), dtype=pl.UInt32),
                              flow=pl.Series(rng.normal(0, 1e3, t.height)))

    total, part = table(3_000), table(2_000)
    assert 0 < part.join(total, on=["player_a", "player_b"]).height < part.height
    added = A._add(total, part)
    assert added.equals(A._added([total, part]))
    assert added.height == pl.concat([total, part]).select("player_a", "player_b").n_unique()


@pytest.mark.slow
def test_partials_per_file_combine_to_the_one_pass_aggregates(planted):
    # incremental: each batch of hands (here: each day, as one event file would be) gives a
    # partial; adding the partials up gives exactly the one-pass pair table
    hands, hp, _ = planted
    whole = A.aggregate([(hp.lazy(), hands.lazy())])
    days = hands.with_columns(day=pl.col("ts").dt.date())
    partials = []
    for _day, part in days.group_by("day", maintain_order=True):
        ids = part.select("hand_id")
        partials.append(A.partial(hp.lazy().join(ids.lazy(), on="hand_id", how="semi"),
                                  part.drop("day").lazy()))
    assert len(partials) >= 5
    combined = A.combine(partials)
    _same_table(whole.table, combined.table)
    assert combined.cells.sort(pl.all()).equals(whole.cells.sort(pl.all()))
    assert combined.rates.sort("player").equals(whole.rates.sort("player"))


@pytest.mark.slow
def test_chunked_leads_equal_one_pass_leads(planted):
    hands, hp, _ = planted
    one = leads_from_frames(hp, hands, min_hands=50, fdr=0.05).to_pylist()
    many = leads_from_frames(hp, hands, min_hands=50, fdr=0.05,
                             rows_per_chunk=hp.height // 7).to_pylist()
    assert len(A.chunks(hp.lazy(), hands.lazy(), hp.height // 7)) >= 7
    assert [(x["player_a"], x["player_b"], x["pattern"]) for x in one] == [
        (x["player_a"], x["player_b"], x["pattern"]) for x in many]
    for x, y in zip(one, many, strict=True):
        assert x["p_value"] == pytest.approx(y["p_value"], rel=1e-6, abs=1e-300)
        assert sorted(x["evidence_hand_ids"]) == sorted(y["evidence_hand_ids"])


def test_pattern_checkdown_allin_after_a_preflop_raise_over_the_all_in():
    # the all-in was preflop, so the remaining streets are flop to river: a raise over the
    # all-in before the flop is not betting into the side pot, checking every later street is
    text = CHECKDOWN.replace("call 1 250\ncall 2 200", "raise 1 to 900\ncall 2 800")
    text = text.replace("award 1 900 main", "award 1 900 main\naward 1 1200 side-1")
    hands, hp = _projections(text)
    assert hp.filter(pl.col("player") == "alice")["aggressive_actions"].to_list() == [1]
    found = checkdown_findings(hp.lazy(), hands.lazy())
    assert [(f.player, f.counterparty) for f in found] == [("alice", "bob")]
    flop_bet = text.replace("deal board 2d 7d 9h\ncheck 1\ncheck 2",
                            "deal board 2d 7d 9h\nbet 1 100\ncall 2 100")
    flop_bet = flop_bet.replace("award 1 1200 side-1", "award 1 1400 side-1")
    hands, hp = _projections(flop_bet)
    assert checkdown_findings(hp.lazy(), hands.lazy()) == []


@pytest.mark.slow
def test_incremental_run_is_ranked_with_the_runs_it_builds_on(planted, tmp_path):
    # audit --since: the newer run holds only the newer hands; the leads of that run cover the
    # whole chain, the per-hand check-downs written with it only its own hands
    from audit.collusion import collusion_leads, write_collusion_findings

    hands, hp, _ = planted
    cut = hands["ts"].sort()[hands.height // 2]
    old_ids = hands.filter(pl.col("ts") < cut).select("hand_id")
    store = _fake_store(tmp_path, hands.join(old_ids, on="hand_id", how="semi"),
                        hp.join(old_ids, on="hand_id", how="semi"))
    base = "20260101T000000000000Z-00000000"
    run = tmp_path / "runs" / "20260102T000000000000Z-00000001"
    run.mkdir()
    new_hands = hands.join(old_ids, on="hand_id", how="anti")
    new_hp = hp.join(old_ids, on="hand_id", how="anti")
    pq.write_table(new_hands.with_columns(run_id=pl.lit(run.name)).to_arrow()
                   .cast(arrow_schema("hands")), run / "hands.parquet")
    pq.write_table(new_hp.with_columns(run_id=pl.lit(run.name)).to_arrow()
                   .cast(arrow_schema("hand_players")), run / "hand_players.parquet")
    pq.write_table(arrow_schema("findings").empty_table(), run / "findings.parquet")
    (run / "run.json").write_text(json.dumps({"run_id": run.name, "since": base}),
                                  encoding="utf-8")
    chained = collusion_leads(store, "latest", min_hands=50).to_pylist()
    whole = leads_from_frames(hp, hands, min_hands=50, fdr=0.05).to_pylist()
    assert [(x["player_a"], x["player_b"], x["pattern"]) for x in chained] == [
        (x["player_a"], x["player_b"], x["pattern"]) for x in whole]
    # the base run alone ranks only its own (older) hands: fewer hands behind its leads (with
    # half the hands it may find every team already, so the count of leads proves nothing)
    alone = collusion_leads(store, base, min_hands=50).to_pylist()
    assert sum(x["hands"] for x in alone) < sum(x["hands"] for x in chained)
    written = write_collusion_findings(store, run.name, collusion_leads(store, run.name, 50))
    per_hand = [h for h in written.column("hand_id").to_pylist() if h is not None]
    assert per_hand and set(per_hand) <= set(new_hands["hand_id"].to_list())


@pytest.mark.slow
def test_each_run_keeps_its_pair_aggregates_and_reuses_them(planted, tmp_path):
    from audit.collusion import collusion_leads
    from audit.collusion.findings import run_partial

    hands, hp, _ = planted
    store = _fake_store(tmp_path, hands, hp)
    run = next((tmp_path / "runs").iterdir())
    kept = run / A.PARTIAL_FILE
    def same(x: list[dict], y: list[dict]) -> None:  # float sums may differ in the last bits
        assert [(r["player_a"], r["player_b"], r["pattern"]) for r in x] == [
            (r["player_a"], r["player_b"], r["pattern"]) for r in y]
        for r, t in zip(x, y, strict=True):
            assert r["p_value"] == pytest.approx(t["p_value"], rel=1e-6, abs=1e-300)

    first = collusion_leads(store, min_hands=50).to_pylist()
    assert kept.exists()
    fresh = A.aggregate([(hp.lazy(), hands.lazy())])
    _same_table(run_partial(store, run.name).table, fresh.table)
    same(collusion_leads(store, min_hands=50).to_pylist(), first)  # from the kept file
    # a kept file of another version (or garbage) is recomputed, never trusted
    kept.write_bytes(b"not parquet")
    assert A.load_partial(kept, "1d") is None
    same(collusion_leads(store, min_hands=50).to_pylist(), first)
    assert A.load_partial(kept, "1d") is not None
    assert A.load_partial(kept, "1h") is None


def test_preflop_strength_is_chen_points_of_known_button_game_hands():
    from audit.collusion.features import preflop_strength

    cases = {("As Ad", "holdem"): 40, ("2c 2d", "holdem"): 10, ("Ah Kh", "holdem"): 24,
             ("Ah Kd", "holdem"): 20, ("7s 2d", "holdem"): -3, ("Jh Th", "holdem"): 18,
             ("5s 3h", "holdem"): 5, ("As Kd 7h 2c", "omaha"): 20,
             ("Ks Qs 2d 3c 4h 9s", "omaha6"): 20, ("As ?", "holdem"): None,
             ("Qs Jd", "stud"): None}
    frame = pl.DataFrame({"hole": [h for h, _ in cases], "variant": [v for _, v in cases]})
    got = frame.select(preflop_strength(pl.col("hole"), pl.col("variant")))
    assert got.to_series().to_list() == list(cases.values())



def test_preflop_strength_expression_stays_small_enough_to_plan():
    # written out as nested polars expressions per pair of hole cards (each card's rank
    # repeated dozens of times, over 15 pairs) it was ~105,000 characters, and every query
    # using it took 5-7 s to plan whatever its rows: the per-run aggregates never finished
    from audit.collusion.features import preflop_strength

    assert len(str(preflop_strength(pl.col("hole"), pl.col("variant")))) < 20_000


def test_lead_pairs_sharing_players_are_one_team():
    teams = lead_teams([("a", "b"), ("d", "e"), ("b", "c"), ("c", "f")])
    assert teams == {("a", "b"): ("a", "b", "c", "f"), ("b", "c"): ("a", "b", "c", "f"),
                     ("c", "f"): ("a", "b", "c", "f"), ("d", "e"): ("d", "e")}
    assert lead_teams([]) == {}


def test_a_chain_of_leads_longer_than_a_team_is_pairs():
    # a ring of MAX_TEAM players is one team however its leads link it; one more player
    # linked by a chain of pair leads is no evidence of one ring: each pair stands alone
    ring = [f"p{k}" for k in range(MAX_TEAM)]
    chain = list(zip(ring, ring[1:], strict=False))
    assert set(lead_teams(chain).values()) == {tuple(sorted(ring))}
    longer = [*chain, (ring[-1], "stranger")]
    assert lead_teams(longer) == {pair: pair for pair in longer}

@pytest.mark.slow
def test_card_share_the_weaker_hand_folding_is_its_own_feature():
    # the planted pairs fold the weaker of their two hands when both would play: the card_share
    # feature names them, and on honest pairs its p-values are uniform (about 5% below 0.05)
    hands, hp, teams = generate(seed=11, teams={"card_share": 2})
    scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05)
    for _, a, b in teams:
        row = scored.filter((pl.col("player_a") == a) & (pl.col("player_b") == b)).row(
            0, named=True)
        assert row["card_share_p"] < 1e-6 and row["card_share_k"] < row["card_share_e"] / 3
        assert row["top"] == "card_share" and row["q_value"] <= 0.05
    planted = pl.DataFrame([(a, b) for _, a, b in teams], schema=["player_a", "player_b"],
                           orient="row")
    honest = scored.join(planted, on=["player_a", "player_b"], how="anti").filter(
        pl.col("card_share_p").is_not_nan())
    assert honest.height > 300
    assert (honest["card_share_p"] < 0.05).mean() < 0.1
    assert honest.filter(pl.col("q_value") <= 0.05).height == 0
    leads = leads_from_frames(hp, hands, min_hands=50, fdr=0.05).to_pylist()
    assert {(x["player_a"], x["player_b"]) for x in leads} == {(a, b) for _, a, b in teams}
    assert all("the weaker of the two hands folding" in x["message"] for x in leads)


def _deep_and_small_games(seed: int, deep: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two honest populations that share one player, p0000: in the first every chip is `deep`
    times larger (pots of hundreds of big blinds), the second plays small pots."""
    h1, hp1, _ = generate(seed=seed, players=40, days=5)
    h2, hp2, _ = generate(seed=seed + 100, players=40, days=5)
    hp1 = hp1.with_columns([pl.col(c) * deep for c in ("invested", "won", "net")])
    h1 = h1.with_columns(pl.col("pot") * deep)

    def rename(col: str) -> pl.Expr:
        return pl.when(pl.col(col) == "p0000").then(pl.col(col)).otherwise(
            pl.col(col).str.replace("p", "q"))

    hp2 = hp2.with_columns(player=rename("player"), faced_bet_from=rename("faced_bet_from"),
                           hand_id=pl.col("hand_id") + "b")
    h2 = h2.with_columns(hand_id=pl.col("hand_id") + "b", table_id=pl.col("table_id") + "b")
    return pl.concat([h1, h2]), pl.concat([hp1, hp2])


@pytest.mark.slow
def test_chip_flow_skill_is_measured_per_big_blind_of_pot():
    # p0000's results in deep games are no expectation of the big blinds that flow in the small
    # pots he plays with others: measured per big blind of pot, the flow expected in his small
    # game pairs barely moves when the deep game's chips grow thirtyfold (per hand it grew
    # fiftyfold, and an honest pair once read as chip dumping on a mixed-stakes population)
    for seed in range(3):
        expected = []
        for deep in (1, 30):
            hands, hp = _deep_and_small_games(seed, deep)
            scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50)
            mine = scored.filter((pl.col("player_a") == "p0000")
                                 & pl.col("player_b").str.starts_with("q"))
            assert mine.height >= 3
            expected.append(mine["chip_dump_e"].abs().max())
        assert expected[1] < 3 * expected[0], (seed, expected)


def test_pairs_with_no_tested_feature_have_no_p_value_and_raise_no_numpy_warning():
    # a few hands per sitting: every pair has min_hands but no feature its minimum sample, so
    # the Bonferroni p is over no feature (NaN); computing m * min p there (0 * inf) printed
    # "RuntimeWarning: invalid value encountered in multiply" to users of bench --scale
    hands, hp, _ = generate(seed=3, players=20, days=1, hands_per_sitting=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=1)
        assert scored.height > 0
        assert (scored["n_features"] == 0).all() and scored["p_value"].is_nan().all()
        # one pair tested on two features next to the untested ones: Bonferroni 2 * min p
        one = np.full(scored.height, np.nan)
        one[0] = 0.01
        other = one.copy()
        other[0] = 0.3
        mixed = combine(scored.with_columns(whipsaw_p=pl.Series(one),
                                            softplay_p=pl.Series(other)))
    assert mixed["n_features"].to_list()[:2] == [2, 0]
    assert mixed["p_value"][0] == pytest.approx(0.02) and mixed["top"][0] == "whipsaw"
    assert mixed["p_value"][1:].is_nan().all()


def test_seating_expectation_does_not_depend_on_row_order():
    """The seating null model's expected co-sittings are the same float, bit for bit, however
    the rows come (a float sum in join order differed in its last bits from run to run)."""
    from audit.collusion import features as F

    rng = np.random.default_rng(5)
    n = 4_000
    cells = pl.DataFrame({
        "player": [f"p{i}" for i in rng.integers(0, 12, n)],
        "table": [f"t{i}" for i in rng.integers(0, 7, n)],
        "bucket": rng.integers(0, 300, n),
    }).unique()
    tables = cells.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    pairs = pl.DataFrame({"player_a": ["p1", "p2", "p3"], "player_b": ["p7", "p8", "p9"]})

    def expected(seed: int) -> list[float]:
        shuffled = cells.sample(fraction=1.0, shuffle=True, seed=seed)
        out = F.co_sittings(shuffled.lazy(), tables.sample(fraction=1.0, shuffle=True,
                                                           seed=seed).lazy(),
                            pairs.lazy()).collect().sort("player_a")
        return out["seat_e"].to_list()

    first = expected(0)
    assert all(expected(seed) == first for seed in range(1, 12))
    # and it is the expectation: sum over buckets of s_a * s_b / tables, counted directly
    rows = cells.to_dicts()
    n_tables = dict(zip(tables["bucket"], tables["n_tables"], strict=True))
    for (a, b), got in zip(pairs.iter_rows(), first, strict=True):
        sits = {p: np.bincount([r["bucket"] for r in rows if r["player"] == p], minlength=300)
                for p in (a, b)}
        direct = sum(sits[a][k] * sits[b][k] / n_tables[k] for k in n_tables)
        assert direct > 1 and abs(got - direct) < 1e-6
