"""The rulebook colluder population (issue 25, audit/simulate/play/population.py): teams written
from RULEBOOK §4.17, planted and labelled as they play: the labels (colluders.parquet, the hands
each team colluded in) match what the events show."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from audit.cli.simulate import simulate_command
from audit.run.runner import audit_store
from audit.simulate.play import population
from audit.simulate.play.population import TEAM_PLAN
from audit.simulate.play.sim import simulate
from audit.store.dataset import Store

HANDS = 6_000  # 600 hands a table: about 3 s


@pytest.fixture(scope="module")
def rulebook_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rulebook") / "sim"
    simulate(root, hands=HANDS, seed=3, tables=10, players=120, colluders=11,
             family="rulebook", colluding_share=0.8)
    return root


def _teams(root: Path) -> pl.DataFrame:
    return pl.read_parquet(root / "colluders.parquet")


def _events(root: Path) -> pl.DataFrame:
    return pl.from_arrow(Store(root).read_events()).sort("hand_id", "seq")  # type: ignore[return-value]


def _colluded(root: Path, team_id: int) -> set[str]:
    hands = pl.read_parquet(root / "colluding_hands.parquet")
    return set(hands.filter(pl.col("team_id") == team_id)["hand_id"].to_list())


def _hands(ev: pl.DataFrame, ids: set[str]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for row in ev.filter(pl.col("hand_id").is_in(list(ids))).iter_rows(named=True):
        out[row["hand_id"]].append(row)
    return out


def test_the_plan_plants_every_style_and_a_team_of_three(rulebook_store: Path) -> None:
    teams = _teams(rulebook_store)
    assert teams["style"].to_list() == list(TEAM_PLAN)
    sizes = {r["style"]: len(r["players"]) for r in teams.iter_rows(named=True)}
    assert sizes["team_of_three"] == 3
    assert all(n == 2 for style, n in sizes.items() if style != "team_of_three")
    assert set(teams["strength"].to_list()) == {0.8}
    members = [p for r in teams["players"].to_list() for p in r]
    assert len(members) == len(set(members)) == 23


def test_each_team_colludes_in_about_its_share_of_the_hands_it_is_dealt_in(
        rulebook_store: Path) -> None:
    ev = _events(rulebook_store)
    dealt = ev.filter(pl.col("kind") == "seat", pl.col("detail").is_null())
    for team in _teams(rulebook_store).iter_rows(named=True):
        together = (dealt.filter(pl.col("player").is_in(team["players"]))
                    .group_by("hand_id").len().filter(pl.col("len") >= 2).height)
        colluded = len(_colluded(rulebook_store, team["team_id"]))
        assert together > 300, team
        assert 0.7 <= colluded / together <= 0.9, (team, colluded, together)


def test_the_population_plays_legally(rulebook_store: Path, tmp_path: Path) -> None:
    run = audit_store(Store(rulebook_store))
    assert run.findings == 0


def test_soft_play_partners_never_bet_into_each_other_heads_up(rulebook_store: Path) -> None:
    ev = _events(rulebook_store)
    spots = 0
    for team in _teams(rulebook_store).filter(pl.col("style") == "soft_play").iter_rows(
            named=True):
        members = set(team["players"])
        for rows in _hands(ev, _colluded(rulebook_store, team["team_id"])).values():
            live = {r["player"] for r in rows if r["kind"] == "seat" and r["detail"] is None}
            for r in rows:
                if r["kind"] == "fold":
                    live.discard(r["player"])
                elif r["kind"] in ("bet", "raise", "check", "call") and live <= members:
                    spots += 1
                    assert r["kind"] not in ("bet", "raise"), (r["hand_id"], r)
    assert spots > 100  # heads-up spots between the partners were there to play


def test_chip_dumping_moves_chips_one_way(rulebook_store: Path) -> None:
    ev = _events(rulebook_store)
    for team in _teams(rulebook_store).filter(pl.col("style") == "chip_dump").iter_rows(
            named=True):
        dumper, receiver = team["players"]
        net = {dumper: 0, receiver: 0}
        heads_up = 0
        for rows in _hands(ev, _colluded(rulebook_store, team["team_id"])).values():
            # the pots only the two of them played (others at most posted a blind)
            alone = {r["player"] for r in rows if r["kind"] in ("bet", "raise", "call")
                     and r["amount"]} == {dumper, receiver}
            if not alone:
                continue
            heads_up += 1
            for r in rows:
                if r["player"] in net and r["amount"] is not None:
                    if r["kind"] in ("post", "call", "bet", "raise"):
                        net[r["player"]] -= r["amount"]
                    elif r["kind"] == "award":
                        net[r["player"]] += r["amount"]
        assert heads_up > 10, team
        assert net[receiver] > 0 > net[dumper], (team, net)


def test_check_down_partners_never_bet_behind_a_third_players_all_in(
        rulebook_store: Path) -> None:
    ev = _events(rulebook_store)
    spots = 0
    for team in _teams(rulebook_store).filter(pl.col("style") == "check_down").iter_rows(
            named=True):
        members = set(team["players"])
        for rows in _hands(ev, _colluded(rulebook_store, team["team_id"])).values():
            live = {r["player"] for r in rows if r["kind"] == "seat" and r["detail"] is None}
            all_in: set[str] = set()
            for r in rows:
                if r["kind"] == "fold":
                    live.discard(r["player"])
                if r["player"] in members and len(live & members) >= 2 and all_in & live:
                    spots += r["kind"] in ("check", "call", "bet")
                    assert r["kind"] != "bet", (r["hand_id"], r)
                if r["detail"] == "all_in" and r["player"] not in members:
                    all_in.add(r["player"])
    assert spots > 10


def test_every_team_changed_some_of_the_decisions_its_collusion_made(
        rulebook_store: Path) -> None:
    hands = pl.read_parquet(rulebook_store / "colluding_hands.parquet")
    assert (hands["changed"] <= hands["decisions"]).all()
    per_team = hands.group_by("team_id").agg(pl.col("decisions").sum(), pl.col("changed").sum())
    assert per_team.height == 11
    # at share 0.8 every style changed play somewhere in 6,000 hands (check-down least: 6)
    assert (per_team["changed"] > 0).all(), per_team


def test_a_soft_play_team_changes_its_play_only_where_the_partners_are_left_alone(
        rulebook_store: Path) -> None:
    ev = _events(rulebook_store)
    hands = pl.read_parquet(rulebook_store / "colluding_hands.parquet")
    seen = 0
    for team in _teams(rulebook_store).filter(pl.col("style") == "soft_play").iter_rows(
            named=True):
        changed = set(hands.filter(pl.col("team_id") == team["team_id"], pl.col("changed") > 0)
                      ["hand_id"].to_list())
        for rows in _hands(ev, changed).values():
            live = {r["player"] for r in rows if r["kind"] == "seat" and r["detail"] is None}
            live -= {r["player"] for r in rows if r["kind"] == "fold"}
            assert live == set(team["players"]), rows[0]["hand_id"]
            seen += 1
    assert seen > 20


def test_looking_at_what_honest_play_would_have_done_does_not_change_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def play(root: Path) -> pl.DataFrame:
        simulate(root, hands=1_500, seed=5, tables=10, players=120, colluders=11,
                 family="rulebook", colluding_share=0.8)
        return _events(root)

    looked = play(tmp_path / "looked")
    # the same game where nobody looks (every collusive decision counted as changed)
    monkeypatch.setattr(population, "would_have_played", lambda *args: ("never",))
    blind = play(tmp_path / "blind")
    assert looked.equals(blind)
    counted = pl.read_parquet(tmp_path / "looked" / "colluding_hands.parquet")
    every = pl.read_parquet(tmp_path / "blind" / "colluding_hands.parquet")
    assert counted.select("hand_id", "team_id", "decisions").equals(
        every.select("hand_id", "team_id", "decisions"))
    assert (every["changed"] == every["decisions"]).all()
    assert 0 < counted["changed"].sum() < every["changed"].sum()


def test_a_clean_population_plants_nothing(tmp_path: Path) -> None:
    root = tmp_path / "clean"
    result = CliRunner().invoke(simulate_command, [
        "--hands", "500", "--out", str(root), "--tables", "10", "--players", "120",
        "--family", "rulebook", "--colluding-share", "0.4"])
    assert result.exit_code == 0, result.output
    assert "0 colluding team(s)" in result.stderr
    assert _teams(root).height == 0
    assert pl.read_parquet(root / "colluding_hands.parquet").height == 0


def test_bad_family_arguments_are_one_line_errors(tmp_path: Path) -> None:
    result = CliRunner().invoke(simulate_command, [
        "--hands", "10", "--out", str(tmp_path / "x"), "--tables", "2", "--colluders", "5",
        "--family", "rulebook"])
    assert result.exit_code == 2 and "at most two rulebook teams a table" in result.output
    assert "Traceback" not in result.output
    result = CliRunner().invoke(simulate_command, [
        "--hands", "10", "--out", str(tmp_path / "y"), "--variant", "stud",
        "--family", "rulebook"])
    assert result.exit_code == 2 and "--family rulebook plays hold'em" in result.output
