"""Stud and draw simulation (issue 7): simulated stud, stud hi-lo, razz, 5-card stud,
Mississippi stud, 2-7 single and triple draw, badugi, draw high, ace-to-five and jacks or better
hands replay with no findings; they look like stud (antes, a bring-in every hand, completions,
later streets, showdowns with hi-lo halves) and like draw (discards and replacements, standing
pat, complete hands at showdown); same seed, same bytes with every game mixed in."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.simulate import simulate_command
from audit.replay import hands_from_table, replay_hand
from audit.run.judges import settings_pair
from audit.simulate import simulate
from audit.simulate.play.table import DRAW_GAMES, STUD_GAMES
from audit.store.dataset import Store

CASH, TOURNAMENT = settings_pair("montana", ())


def _replayed(root: Path) -> tuple[list, dict[str, list[str]]]:
    hands = list(hands_from_table(Store(root).read_events()))
    findings: dict[str, list[str]] = defaultdict(list)
    for hand in hands:
        r = replay_hand(hand, TOURNAMENT if hand.game.get("tournament") else CASH)
        for f in r.findings:
            findings[hand.hand_id].append(f"{f.rule_id} seq {f.seq}: {f.message}")
    return hands, dict(findings)


@pytest.mark.parametrize("variant", STUD_GAMES + DRAW_GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_clean_stud_and_draw_hands_replay_without_findings(tmp_path: Path, variant: str,
                                                  seed: int) -> None:
    root = tmp_path / "s"
    simulate(root, hands=500, seed=seed, variant=variant, tables=4, tournament_share=0.3)
    hands, findings = _replayed(root)
    assert len(hands) == 500
    assert findings == {}


def test_stud_hands_look_like_stud(tmp_path: Path) -> None:
    root = tmp_path / "s"
    simulate(root, hands=600, seed=4, variant="stud_hilo", tables=4)
    events = Store(root).read_events().to_pylist()
    by_hand: dict[str, list[dict]] = defaultdict(list)
    for e in events:
        by_hand[e["hand_id"]].append(e)
    kinds = Counter()
    streets_seen = Counter()
    for rows in by_hand.values():
        game = rows[0]["game"]
        assert game["variant"] == "stud_hilo" and game["structure"] == "fixed_limit"
        assert game["small_blind"] is None and game["bring_in"] < game["small_bet"]
        posts = [r["detail"] for r in rows if r["kind"] == "post"]
        dealt_in = sum(1 for r in rows if r["kind"] == "seat" and r["detail"] is None)
        assert posts.count("ante") == dealt_in
        assert posts.count("bring_in") <= 1
        kinds.update(r["kind"] for r in rows)
        kinds.update(r["detail"] for r in rows if r["kind"] == "award")
        # cards per seat reached: 3 .. 7
        per_seat = Counter()
        for r in rows:
            if r["kind"] == "deal":
                per_seat[r["seat"]] += len(r["cards"].split())
        streets_seen[max(per_seat.values())] += 1
    assert kinds["complete"] > 20 and kinds["raise"] > 20 and kinds["show"] > 50
    assert kinds["main/low"] > 10 and kinds["main/high"] > 10
    assert set(streets_seen) == {3, 4, 5, 6, 7}
    assert streets_seen[7] > 60  # a good share of hands reach seventh street
    assert sum(1 for rows in by_hand.values()
               if any(r["detail"] == "bring_in" for r in rows)) > 550


@pytest.mark.slow
def test_same_seed_same_bytes_all_games(tmp_path: Path) -> None:
    kw = dict(hands=800, seed=9, variant="all", structure="mixed", tables=10,
              tournament_share=0.3, violations=0.05)

    def digests(root: Path) -> dict[str, str]:
        return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}

    simulate(tmp_path / "a", **kw)  # type: ignore[arg-type]
    simulate(tmp_path / "b", **kw)  # type: ignore[arg-type]
    assert digests(tmp_path / "a") == digests(tmp_path / "b")
    hands, findings = _replayed(tmp_path / "a")
    variants = {h.game["variant"] for h in hands}
    assert variants & set(STUD_GAMES) and variants - set(STUD_GAMES)


def test_simulate_command_stud(tmp_path: Path) -> None:
    out = tmp_path / "s"
    r = CliRunner().invoke(simulate_command, ["--hands", "200", "--out", str(out),
                                              "--variant", "razz", "--seed", "3"])
    assert r.exit_code == 0, r.output
    assert "simulated 200 hands" in r.output
    hands, findings = _replayed(out)
    assert {h.game["variant"] for h in hands} == {"razz"}
    assert findings == {}


@pytest.mark.parametrize("variant", DRAW_GAMES)
def test_draw_hands_look_like_draw(tmp_path: Path, variant: str) -> None:
    root = tmp_path / "s"
    simulate(root, hands=400, seed=6, variant=variant, tables=4)
    rows = Store(root).read_events().to_pylist()
    kinds = Counter(r["kind"] for r in rows)
    size = 4 if variant == "badugi" else 5
    held: dict[tuple[str, int], list[str]] = {}
    for r in rows:
        key = (r["hand_id"], r["seat"])
        if r["kind"] == "deal" and r["detail"] == "hole":
            held[key] = r["cards"].split()
            assert len(held[key]) == size
        elif r["kind"] == "draw":
            thrown = r["cards"].split()
            assert 1 <= r["amount"] == len(thrown) <= 3 and set(thrown) <= set(held[key])
            held[key] = [c for c in held[key] if c not in thrown]
        elif r["kind"] == "deal" and r["detail"] == "draw":
            held[key] += r["cards"].split()
        elif r["kind"] == "show":
            assert sorted(r["cards"].split()) == sorted(held[key])  # he shows what he holds
    game = rows[0]["game"]
    assert game["structure"] == "fixed_limit"
    if variant == "jacks_or_better":  # antes only (tests/simulate/test_simulate_lowball_draw.py)
        assert game["small_blind"] is None and game["ante"] > 0
    else:
        assert game["small_blind"]
    assert kinds["draw"] > 200 and kinds["show"] > 100 and kinds["fold"] > 200
    assert kinds["raise"] > 100
    if variant in ("lowball_27_triple", "badugi"):
        assert kinds["stand_pat"] > 50


@pytest.mark.slow
def test_stud_injectors_scored_perfectly_with_every_game(tmp_path: Path) -> None:
    """Stud and draw injections (bring-in seat and size, small bet on a big street or round)
    beside the button ones: every label found, every finding labelled, no finding on a
    clean hand."""
    from audit.simulate import accuracy_scorecard

    root = tmp_path / "s"
    simulate(root, hands=3000, seed=8, variant="all", structure="mixed", tables=16,
             violations=0.1, tournament_share=0.3)
    card = accuracy_scorecard(root)
    assert card["clean_hand_findings"] == 0
    from audit.rules.catalog import STUD_DRAW_RULE_IDS

    # every stud/draw injector is in the mix (tests/simulate/test_simulate_injectors_studdraw.py
    # scores each alone); with 3,000 hands most of their ids come up beside the button ones
    assert len(set(card["rules"]) & set(STUD_DRAW_RULE_IDS)) >= 20, sorted(card["rules"])
    for rule, r in card["rules"].items():
        assert r["precision"] == 1.0 and r["recall"] == 1.0, (rule, r)
        assert r["seq_agree"] == r["matched"], (rule, r)


def test_live_stud_and_draw_hands_audit_clean(tmp_path: Path) -> None:
    """--live adds the physical layer to stud and draw hands too; clean hands stay clean."""
    out = tmp_path / "s"
    r = CliRunner().invoke(simulate_command, ["--hands", "400", "--out", str(out), "--seed", "2",
                                              "--variant", "all", "--tables", "12", "--live"])
    assert r.exit_code == 0, r.output
    hands, findings = _replayed(out)
    assert {h.game["variant"] for h in hands} & set(DRAW_GAMES)
    assert findings == {}


@pytest.mark.parametrize("seed", range(6))
def test_clean_hands_property_every_game(tmp_path: Path, seed: int) -> None:
    root = tmp_path / "s"
    simulate(root, hands=300, seed=100 + seed, variant="all", structure="mixed", tables=10,
             tournament_share=0.3, colluders=1)
    hands, findings = _replayed(root)
    assert len(hands) == 300
    assert findings == {}


def test_colluders_sit_at_button_tables(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    root = tmp_path / "s"
    simulate(root, hands=400, seed=3, variant="all", tables=8, colluders=3)
    teams = pq.read_table(root / "colluders.parquet").to_pylist()
    variant_of = {r["table_id"]: r["game"]["variant"]
                  for r in Store(root).read_events().to_pylist() if r["kind"] == "hand_started"}
    assert len(teams) == 3
    for t in teams:
        assert variant_of[t["table_id"]] in ("holdem", "omaha", "omaha_hilo")
    r = CliRunner().invoke(simulate_command, ["--hands", "10", "--out", str(tmp_path / "x"),
                                              "--variant", "razz", "--colluders", "1"])
    assert r.exit_code == 2 and "colluding teams play button games only" in r.output
