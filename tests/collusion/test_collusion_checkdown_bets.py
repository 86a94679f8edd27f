"""PATTERN-CHECKDOWN-ALLIN per street, from the events (issue 25): "after a short all-in, two or
more players with chips check every remaining street into the side pot".

The projections count a player's bets per hand, not per street, so the check-down test counted
hands (a chance, a check-down) and a team met too few chances to stand out. The events tell each
street after the all-in apart: on how many streets both partners had chips behind a third
player's all-in, and how often either bet into the side pot there, against what each one's
betting behind all-ins against other players and theirs against the other predict (an actor ×
opponent fit over all pairs, leads.DIRECTED)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import polars.selectors as cs
import pytest

from audit.collusion import collusion_leads
from audit.collusion import streets as S
from audit.collusion.leads import pair_scores
from audit.collusion.synthetic import generate, street_spots
from audit.run.runner import audit_store
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store
from tests.collusion.frames import events


def _cdx(counts: pl.DataFrame) -> pl.DataFrame:
    """The check-down columns of street counts (the heads-up streets' apart:
    test_collusion_softplay_streets.py; the follow spots':
    test_collusion_checkdown_follow_counts.py)."""
    return counts.select(~cs.starts_with("hus_", "wss_", "cdf_"))


# carol shoves the flop, alice and bob call; both check the turn; alice bets the river, bob folds
SHOVE = events("h1", [
    ("post", "alice", "small_blind"), ("post", "bob", "big_blind"),
    ("call", "carol", None), ("call", "alice", None), ("check", "bob", None),
    ("board", None, None),
    ("check", "alice", None), ("check", "bob", None), ("bet", "carol", "all_in"),
    ("call", "alice", None), ("call", "bob", None),
    ("board", None, None),
    ("check", "alice", None), ("check", "bob", None),
    ("board", None, None),
    ("bet", "alice", None), ("fold", "bob", None),
])


def test_the_streets_after_an_all_in_are_the_spots_behind_it() -> None:
    spots = S.spots(SHOVE.lazy()).collect().sort("street", "player")
    # the flop: nobody all-in yet, three with chips: a reference spot for each (carol's
    # all-in bet is aggression there); the turn and river: alice and bob behind carol's all-in
    assert spots.select("player", "street", "behind", "aggr").rows() == [
        ("alice", 1, False, False), ("bob", 1, False, False), ("carol", 1, False, True),
        ("alice", 2, True, False), ("bob", 2, True, False),
        ("alice", 3, True, True), ("bob", 3, True, False)]
    got = S.street_counts(SHOVE.lazy())
    assert _cdx(got.pairs).rows() == [("alice", "bob", 2, 1, 0)]
    assert _cdx(got.players).sort("player").rows() == [
        ("alice", 2, 1, 1, 0), ("bob", 2, 0, 1, 0), ("carol", 0, 0, 1, 1)]


def test_a_hand_without_an_all_in_has_no_spot_behind_one_and_heads_up_none_at_all() -> None:
    hu = events("h2", [("call", "alice", None), ("check", "bob", None), ("board", None, None),
                        ("bet", "alice", None), ("call", "bob", None)])
    assert S.spots(hu.lazy()).collect().height == 0  # two with chips, no all-in: no spot


def test_the_counts_name_players_as_the_run_does_and_skip_anonymous_tables() -> None:
    # the events keep the log's names; the run's hand_players name `alice@pokerstars`, and no
    # one at an anonymous table (h9: the same play, seat labels): the pair tests join on the
    # run's names, so the counts must use them (before: the log's, so a real room's pairs
    # were never tested per street and Bovada's seat labels would have been counted)
    seat_of = {"alice": 1, "bob": 2, "carol": 3}
    shove = SHOVE.with_columns(seat=pl.col("player").replace_strict(seat_of, default=None))
    anonymous = shove.with_columns(hand_id=pl.lit("h9"))
    seats = pl.DataFrame(
        [("h1", s, f"{p}@pokerstars") for p, s in seat_of.items()]
        + [("h9", s, None) for s in seat_of.values()],
        schema={"hand_id": pl.String, "seat": pl.Int64, "player": pl.String}, orient="row")
    got = S.street_counts(pl.concat([shove, anonymous]).lazy(), seats.lazy())
    assert _cdx(got.pairs).rows() == [("alice@pokerstars", "bob@pokerstars", 2, 1, 0)]
    assert _cdx(got.players).sort("player").rows() == [
        ("alice@pokerstars", 2, 1, 1, 0), ("bob@pokerstars", 2, 0, 1, 0),
        ("carol@pokerstars", 0, 0, 1, 1)]


def test_counts_of_parts_add_up() -> None:
    one = S.street_counts(SHOVE.lazy())
    two = S.combine([one, one])
    assert _cdx(two.pairs).rows() == [("alice", "bob", 4, 2, 0)]
    assert S.combine([]).pairs.height == 0


@pytest.mark.parametrize("seat_rows", [S.SEAT_ROWS, 2])
def test_each_event_file_is_counted_with_its_own_hands_seats(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seat_rows: int) -> None:
    # a run's seats (hand_players) span all its event files; each file is counted with the
    # seats of its own hands (before: with all of them, hashed again per file), the same counts;
    # and the same when the seats are picked a few hands at a time (a big room's, in bounded
    # memory)
    monkeypatch.setattr(S, "SEAT_ROWS", seat_rows)
    seat_of = {"alice": 1, "bob": 2, "carol": 3}
    shove = SHOVE.with_columns(seat=pl.col("player").replace_strict(seat_of, default=None))
    files = []
    for i, hand in enumerate(("h1", "h2", "h3")):
        path = tmp_path / f"events{i}.parquet"
        shove.with_columns(hand_id=pl.lit(hand)).write_parquet(path)
        files.append(path)
    seats = pl.DataFrame(
        [(h, s, f"{p}@pokerstars", None) for h in ("h1", "h2", "h3") for p, s in seat_of.items()]
        + [("h4", 1, "dave@pokerstars", None)],  # a hand in no file
        schema={"hand_id": pl.String, "seat": pl.Int64, "player": pl.String,
                "folded_street": pl.String}, orient="row")
    got = S.file_counts(files, seats.lazy())
    assert _cdx(got.pairs).rows() == [("alice@pokerstars", "bob@pokerstars", 6, 3, 0)]
    assert _cdx(got.players).rows() == [
        ("alice@pokerstars", 6, 3, 3, 0), ("bob@pokerstars", 6, 0, 3, 0),
        ("carol@pokerstars", 0, 0, 3, 3)]
    # a store without event files (projections only) has nothing to count
    assert S.file_counts([], seats.lazy()).pairs.height == 0


def _population(seed: int, share: float, teams: dict[str, int]
                ) -> tuple[pl.DataFrame, pl.DataFrame, list[tuple[str, str, str]], S.StreetCounts]:
    # a short-stacked game: a third of the multiway pots see an all-in on the flop
    hands, hp, planted = generate(seed=seed, players=60, days=16, teams=teams)
    spots = street_spots(hp, planted, seed=seed, share=share, allin_rate=0.35)
    return hands, hp, planted, S.counts(spots)


@pytest.mark.parametrize("seed", [7, 13])
@pytest.mark.slow
def test_a_pair_that_never_bets_behind_all_ins_is_found_per_street(seed: int) -> None:
    # the team checks it down in 90% of the hands both stay behind an all-in; in the others,
    # and honest pairs always, each bets a street at his own rate
    hands, hp, planted, streets = _population(seed, 0.9, {"checkdown": 2, "softplay": 1})
    scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50, streets=streets)
    team = {(a, b) for style, a, b in planted if style == "checkdown"}
    rows = {(r["player_a"], r["player_b"]): r for r in scored.select(
        "player_a", "player_b", "checkdown_bets_n", "checkdown_bets_p").to_dicts()}
    tested = sum(r["checkdown_bets_p"] == r["checkdown_bets_p"] for r in rows.values())
    # a team that met enough all-ins together (20 streets or more) stands out beyond a
    # Bonferroni cut over all the pairs tested; a team seated among short stacks less often
    # may not, as in the rulebook populations (few chances: a finding, not a defect)
    seen = [pair for pair in team if rows[pair]["checkdown_bets_n"] >= 20]
    assert seen, {pair: rows[pair] for pair in team}
    assert all(rows[pair]["checkdown_bets_p"] < 0.05 / tested for pair in seen), (
        {pair: rows[pair] for pair in team}, tested)
    honest = [r["checkdown_bets_p"] for pair, r in rows.items()
              if pair not in team and r["checkdown_bets_p"] == r["checkdown_bets_p"]]
    assert min(honest) > 0.05 / tested


@pytest.mark.parametrize("seed", [7, 13, 21])
@pytest.mark.slow
def test_honest_pairs_checking_down_at_the_honest_rate_are_no_lead(seed: int) -> None:
    hands, hp, _, streets = _population(seed, 0.0, {})
    scored, _ = pair_scores(hp.lazy(), hands.lazy(), min_hands=50, fdr=0.05, streets=streets)
    tested = scored.filter(pl.col("checkdown_bets_p").is_not_nan())
    assert tested.height > 50  # pairs were tested per street
    assert tested["checkdown_bets_p"].min() > 0.05 / tested.height
    assert scored.filter(pl.col("q_value") <= 0.05).height == 0


@pytest.mark.slow
def test_the_leads_of_a_store_read_its_events_per_street(tmp_path: Path) -> None:
    # a simulated rulebook population (check-down teams among others), audited: the leads of
    # the run test every pair's streets behind all-ins as its events count them
    root = tmp_path / "pop"
    simulate(root, hands=8000, seed=3, tables=4, players=40, colluders=4, family="rulebook",
             colluding_share=1.0)
    store = Store(root)
    audit_store(store)
    every = collusion_leads(store, min_hands=50, fdr=1.0).to_pylist()
    counted = S.file_counts(store.event_files())
    behind = {(r["player_a"], r["player_b"]): r["cdx_n"] for r in counted.pairs.to_dicts()}
    tested = 0
    for row in every:
        f = json.loads(row["features"])["checkdown_bets"]
        assert f["n"] == behind.get((row["player_a"], row["player_b"]), 0)
        tested += f["p"] is not None
    assert tested > 0  # some pair met enough streets behind all-ins to be tested
