"""Ace-to-five lowball and jacks-or-better simulation (issue 7): clean hands replay with no
findings over many seeds; ace-to-five plays with and without the joker, never check-raises and
never checks a seven-low after the draw (the sevens rule); jacks or better is anted, opened only
with a pair of jacks or better (checked here independently of the replay), the opener acts
first after the draw, and passed deals are not logged; same seed, same bytes."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from audit.replay import hands_from_table, replay_hand
from audit.run.judges import settings_pair
from audit.simulate import simulate
from audit.store.dataset import Store

CASH, TOURNAMENT = settings_pair("montana", ())
RANKS = "23456789TJQKA"
BETS = ("bet", "raise", "complete")


def _hands(root: Path) -> dict[str, list[dict]]:
    by_hand: dict[str, list[dict]] = defaultdict(list)
    for e in Store(root).read_events().to_pylist():
        by_hand[e["hand_id"]].append(e)
    return by_hand


def _findings(root: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for hand in hands_from_table(Store(root).read_events()):
        r = replay_hand(hand, TOURNAMENT if hand.game.get("tournament") else CASH)
        for f in r.findings:
            out[hand.hand_id].append(f"{f.rule_id} seq {f.seq}: {f.message}")
    return dict(out)


@pytest.mark.parametrize("variant", ["lowball_a5", "jacks_or_better"])
@pytest.mark.parametrize("seed", range(4))
def test_clean_a5_and_jacks_hands_replay_without_findings(tmp_path: Path, variant: str,
                                                          seed: int) -> None:
    root = tmp_path / "s"
    simulate(root, hands=400, seed=20 + seed, variant=variant, tables=4, tournament_share=0.3)
    assert len(_hands(root)) == 400
    assert _findings(root) == {}


def _a5_low(cards: list[str]) -> bool:
    """A seven-low or better, independently of audit.poker.jokers: five distinct ranks, aces
    low, none above seven, the joker as the lowest missing rank."""
    ranks = [1 if c[0] == "A" else RANKS.index(c[0]) + 2 for c in cards if c != "Xj"]
    if "Xj" in cards:
        ranks.append(next(r for r in range(1, 14) if r not in ranks))
    return len(set(ranks)) == 5 and max(ranks) <= 7


def _rounds(rows: list[dict]):
    """The betting rounds of a draw hand: lists of action rows split at each draw."""
    rnd: list[dict] = []
    for r in rows:
        if r["kind"] in ("draw", "stand_pat"):
            if rnd:
                yield rnd
            rnd = []
        elif r["kind"] in ("fold", "check", "call", *BETS):
            rnd.append(r)
    if rnd:
        yield rnd


def test_a5_plays_the_joker_half_the_tables_no_checkraise_no_checked_seven(
        tmp_path: Path) -> None:
    root = tmp_path / "s"
    simulate(root, hands=1200, seed=5, variant="lowball_a5", tables=6)
    joker_tables, tables = set(), set()
    sevens_bet = 0
    for rows in _hands(root).values():
        game = rows[0]["game"]
        assert game["variant"] == "lowball_a5" and game["small_blind"] and game["big_blind"]
        tables.add(rows[0]["table_id"])
        held: dict[int, list[str]] = {}
        for r in rows:
            if r["cards"] and "Xj" in r["cards"].split():
                joker_tables.add(r["table_id"])
            if r["kind"] == "deal" and r["detail"] == "hole":
                held[r["seat"]] = r["cards"].split()
            elif r["kind"] == "draw":
                held[r["seat"]] = [c for c in held[r["seat"]] if c not in r["cards"].split()]
            elif r["kind"] == "deal" and r["detail"] == "draw":
                held[r["seat"]] += r["cards"].split()
        for k, rnd in enumerate(_rounds(rows)):
            checked = set()
            for r in rnd:
                if r["kind"] == "check":
                    checked.add(r["seat"])
                    # after the draw a seven-low or better is bet, never checked
                    assert not (k and _a5_low(held[r["seat"]])), r
                if r["kind"] == "raise":
                    assert r["seat"] not in checked, r  # no check-raise at limit A-5
                if k and r["kind"] == "bet" and _a5_low(held[r["seat"]]):
                    sevens_bet += 1
    assert joker_tables and joker_tables < tables  # with and without the joker
    assert sevens_bet > 20


def _has_openers(cards: list[str]) -> bool:
    """A pair of jacks or better (any two pair, trips, straight, flush...), the joker an ace
    or the card completing a straight or flush; independent of audit.poker.jokers."""
    rest = [c for c in cards if c != "Xj"]
    counts = Counter(RANKS.index(c[0]) for c in rest)
    if "Xj" in cards:
        if counts[12] or max(counts.values()) >= 2:  # the joker pairs an ace, or trips
            return True
        ranks = sorted(counts)
        suits = {c[1] for c in rest}
        straight = any(sum(1 for r in range(lo, lo + 5) if r % 13 in counts) == 4
                       for lo in range(-1, 9)) and len(ranks) == 4
        return straight or len(suits) == 1
    pairs = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
    if sum(n - 1 for n in counts.values()) >= 2 or (pairs and pairs[0] >= 9):
        return True
    ranks = sorted(counts)
    straight = len(ranks) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12])
    return straight or len({c[1] for c in rest}) == 1


@pytest.mark.slow
def test_jacks_antes_openers_and_the_opener_first_after_the_draw(tmp_path: Path) -> None:
    root = tmp_path / "s"
    simulate(root, hands=1200, seed=6, variant="jacks_or_better", tables=6,
             tournament_share=0.3)
    kinds = Counter()
    opener_first = 0
    for rows in _hands(root).values():
        game = rows[0]["game"]
        assert game["small_blind"] is None and game["big_blind"] is None and game["ante"] > 0
        posts = [r["detail"] for r in rows if r["kind"] == "post"]
        dealt_in = sum(1 for r in rows if r["kind"] == "seat" and r["detail"] is None)
        assert posts == ["ante"] * dealt_in
        hole = {r["seat"]: r["cards"].split() for r in rows
                if r["kind"] == "deal" and r["detail"] == "hole"}
        rounds = list(_rounds(rows))
        first_bet = next(r for r in rounds[0] if r["kind"] in BETS)  # no passed deal logged
        assert _has_openers(hole[first_bet["seat"]]), (rows[0]["hand_id"], first_bet)
        opener = first_bet["seat"]
        if len(rounds) > 1:  # he acts first after the draw unless folded or all-in
            out = any(r["seat"] == opener and (r["kind"] == "fold" or r["detail"] == "all_in")
                      for r in rounds[0])
            assert rounds[1][0]["seat"] == opener or out, rows[0]["hand_id"]
            opener_first += rounds[1][0]["seat"] == opener
        kinds.update(r["kind"] for r in rows)
    assert kinds["draw"] > 300 and kinds["show"] > 200 and kinds["raise"] > 100
    assert opener_first > 200


def test_same_seed_same_bytes_a5_and_jacks(tmp_path: Path) -> None:
    def digests(root: Path) -> dict[str, str]:
        return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}

    for variant in ("lowball_a5", "jacks_or_better"):
        kw = dict(hands=300, seed=11, variant=variant, tables=4, violations=0.1)
        simulate(tmp_path / f"a-{variant}", **kw)  # type: ignore[arg-type]
        simulate(tmp_path / f"b-{variant}", **kw)  # type: ignore[arg-type]
        assert digests(tmp_path / f"a-{variant}") == digests(tmp_path / f"b-{variant}")
