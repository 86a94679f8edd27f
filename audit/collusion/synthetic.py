"""Synthetic replay projections with planted colluding pairs, for the tests and the benchmark.

Not a poker simulator (audit/simulate/ is): each hand is drawn from a few per-player
propensities (voluntarily playing, betting, folding to a bet, skill) so that the `hands` and
`hand_players` frames look like replay output, and planted pairs behave as RULEBOOK §4.17
describes: soft play (no bets against each other heads-up), chip dumping (one loses big pots to
the other), whipsaw (both raise around a caught third player) and check-downs with a third
player all-in, and hole-card sharing (the weaker of the two hands folds when both would play).
`strength` is the share of eligible hands in which a pair acts as a team.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import polars as pl
import pyarrow as pa

from audit.schema import arrow_schema

STYLES = ("softplay", "chip_dump", "whipsaw", "checkdown", "card_share")
_CLASSES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush")
_CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
_STREETS = ("flop", "turn", "river")


def generate(*, seed: int, players: int = 120, days: int = 10, hands_per_sitting: int = 40,
             seats: int = 6, teams: dict[str, int] | None = None, strength: float = 0.8,
             bb: int = 100, companions: int = 0
             ) -> tuple[pl.DataFrame, pl.DataFrame, list[tuple[str, str, str]]]:
    """(hands, hand_players, planted [(style, player_a, player_b)]) for one population;
    `companions`: honest players who sit at each team's table every hand (a fixed table's
    regulars: the team's play shapes theirs, and they are no team)."""
    rng = random.Random(seed)
    names = [f"p{i:04d}" for i in range(players)]
    prop = {p: (rng.uniform(0.2, 0.45), rng.uniform(0.25, 0.6), rng.uniform(0.3, 0.6),
                rng.gauss(0, 0.15)) for p in names}
    planted: list[tuple[str, str, str]] = []
    pool = names[:]
    rng.shuffle(pool)
    for style, k in (teams or {}).items():
        for _ in range(k):
            a, b = pool.pop(), pool.pop()
            planted.append((style, *sorted((a, b))))
    team_of = {}
    for style, a, b in planted:
        team_of[a] = (style, a, b)
        team_of[b] = (style, a, b)
    glued = {(a, b): [pool.pop() for _ in range(companions)] for _, a, b in planted}
    seated = set(team_of) | {p for ps in glued.values() for p in ps}
    hands: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for day in range(days):
        units: list[list[str]] = [[a, b, *glued[(a, b)]] for _, a, b in planted]
        units += [[p] for p in names if p not in seated]
        rng.shuffle(units)
        tables: list[list[str]] = [[]]
        for u in units:
            if len(tables[-1]) + len(u) > seats:
                tables.append([])
            tables[-1].extend(u)
        for t, roster in enumerate(tables):
            if len(roster) < 3:
                continue
            for i in range(hands_per_sitting):
                hid = f"syn:{seed}:{day}:{t}:{i}"
                ts = start + timedelta(days=day, minutes=i)
                _hand(rng, hid, ts, f"T{t}", roster, prop, planted, strength, bb, hands, rows)
    return (_frame(hands, "hands"), _frame(rows, "hand_players"), planted)


def _frame(rows: list[dict[str, Any]], name: str) -> pl.DataFrame:
    frame = pl.from_arrow(pa.Table.from_pylist(rows, schema=arrow_schema(name)))
    assert isinstance(frame, pl.DataFrame)
    return frame


def _hand(rng: random.Random, hid: str, ts: datetime, table: str, roster: list[str],
          prop: dict[str, tuple[float, float, float, float]],
          planted: list[tuple[str, str, str]], strength: float, bb: int,
          hands: list[dict[str, Any]], rows: list[dict[str, Any]]) -> None:
    seated = roster[:]
    rng.shuffle(seated)
    here = set(seated)
    contest = {p: rng.random() < prop[p][0] for p in seated}
    aggr = {p: (rng.random() < prop[p][1]) + (rng.random() < prop[p][1] / 3) if contest[p]
            else 0 for p in seated}
    allin: str | None = None
    forced: dict[str, str] = {}  # player -> "win" / "lose" / "survive"
    teams = [(s, a, b) for s, a, b in planted if a in here and b in here]
    # a card-sharing team sees both hands before it decides (dealt first only then, so that
    # populations without such a team keep their random stream)
    deck = (rng.sample(_CARDS, 2 * len(seated)) if any(s == "card_share" for s, _, _ in teams)
            else None)
    for style, a, b in teams:
        if rng.random() >= strength:
            continue
        if style == "softplay" and rng.random() < 0.3:
            for p in seated:  # heads-up together, checked through
                contest[p] = p in (a, b)
            aggr[a] = aggr[b] = 0
        elif style == "chip_dump" and rng.random() < 0.3:
            contest[a] = contest[b] = True
            aggr[a] = 2
            forced[a], forced[b] = "lose", "win"
        elif style == "whipsaw" and contest[a] and contest[b]:
            others = [p for p in seated if p not in (a, b)]
            third = rng.choice(others)
            contest[third] = True
            aggr[a], aggr[b], aggr[third] = 2, 2, 0
            forced[third] = "survive"
        elif style == "checkdown" and rng.random() < 0.1:
            others = [p for p in seated if p not in (a, b)]
            allin = rng.choice(others)
            contest[a] = contest[b] = contest[allin] = True
            aggr[a] = aggr[b] = 0
            forced[a] = forced[b] = "survive"
        elif style == "card_share" and deck is not None and contest[a] and contest[b]:
            cards = {p: deck[2 * j:2 * j + 2] for j, p in enumerate(seated)}
            weaker = a if _rough_strength(cards[a]) < _rough_strength(cards[b]) else b
            contest[weaker], aggr[weaker] = False, 0
    if sum(contest.values()) == 0:
        contest[seated[-1]] = True
    ins = [p for p in seated if contest[p]]
    if allin is None and len(ins) >= 3 and rng.random() < 0.05:
        allin = rng.choice(ins)
    aggressors = [p for p in ins if aggr[p] > 0]
    faced: dict[str, str | None] = {}
    folded: dict[str, str | None] = {}
    calls: dict[str, int] = {}
    for p in seated:
        others = [q for q in aggressors if q != p]
        faced[p] = max(others, key=lambda q: aggr[q]) if others and contest[p] else None
        if not contest[p]:
            folded[p] = "preflop"
        elif faced[p] and p != allin and forced.get(p) is None and rng.random() < prop[p][2]:
            folded[p] = rng.choice(_STREETS)
        else:
            folded[p] = None
        calls[p] = (1 + (rng.random() < 0.5)) if contest[p] and faced[p] else 0
    if all(folded[p] for p in ins):
        folded[ins[0]] = None
    inv = {}
    for j, p in enumerate(seated):
        blind = bb // 2 if j == 0 else (bb if j == 1 else 0)
        size = bb * (1 + 2 * aggr[p] + calls[p]) * rng.uniform(0.5, 2.0) if contest[p] else 0
        if forced.get(p) == "lose":
            size = bb * rng.uniform(20, 60)
        inv[p] = max(blind, int(size))
    live = [p for p in ins if folded[p] is None]
    win = [p for p in live if forced.get(p) == "win"]
    if win:
        winner = win[0]
    else:
        weights = [2.718 ** prop[p][3] for p in live]
        winner = rng.choices(live, weights)[0]
    pot = sum(inv.values())
    showdown = len(live) >= 2
    if deck is None:
        deck = rng.sample(_CARDS, 2 * len(seated))
    for j, p in enumerate(seated):
        won = pot if p == winner else 0
        at_sd = showdown and p in live
        rows.append({
            "run_id": None, "hand_id": hid, "seat": j + 1, "player": p,
            "position": None, "starting_stack": None, "invested": inv[p], "won": won,
            "net": won - inv[p], "vpip": contest[p],
            "pfr": aggr[p] > 0 and rng.random() < 0.3,  # some of the aggression preflop
            "aggressive_actions": aggr[p], "calls": calls[p], "folded_street": folded[p],
            "all_in_street": "preflop" if p == allin else None, "showed": at_sd,
            "hole_cards": f"{deck[2 * j]} {deck[2 * j + 1]}",
            "hand_class": rng.choice(_CLASSES) if at_sd else None,
            "faced_bet_from": faced[p],
        })
    hands.append({"run_id": None, "hand_id": hid, "ts": ts, "table_id": table,
                  "variant": "holdem", "structure": "no_limit", "big_blind": bb,
                  "players": len(seated), "pot": pot, "rake": 0, "board": None,
                  "winners": None, "showdown": showdown, "awards_verified": True,
                  "findings": 0})


def _rough_strength(cards: list[str]) -> int:
    """A colluder's quick ranking of two hole cards: pairs first, then the high and low card."""
    hi, lo = sorted(("23456789TJQKA".index(c[0]) for c in cards), reverse=True)
    return 200 + hi if hi == lo else hi * 13 + lo


def street_spots(hand_players: pl.DataFrame, planted: list[tuple[str, str, str]], *, seed: int,
                 share: float, allin_rate: float = 0.25) -> pl.DataFrame:
    """Per-street spots (audit/collusion/streets.py `spots` rows: hand_id, player, street,
    behind, aggr) for the hands of `hand_players`: in a hand where three or more entered the
    pot, one of them goes all-in on the flop in a share `allin_rate` of such hands, and those
    who entered with him stay in with chips on the turn and the river (behind spots); otherwise
    each of them has a reference spot on the flop. Every player bets a street at his own rate
    (drawn once per player), a little more often behind an all-in than in the multiway
    reference spots, as honest players do; a planted "checkdown" pair, both behind the all-in,
    never bets there in a share `share` of such hands (the team's agreement). Its own random
    stream: the projections of `generate` are the same with or without it."""
    rng = random.Random(seed)
    teams = {frozenset((a, b)) for style, a, b in planted if style == "checkdown"}
    entered = (hand_players.filter(pl.col("vpip")).group_by("hand_id", maintain_order=True)
               .agg(pl.col("player")))
    rate: dict[str, float] = {}
    out: dict[str, list[Any]] = {"hand_id": [], "player": [], "street": [], "behind": [],
                                 "aggr": []}

    def spot(hid: str, p: str, street: int, behind: bool, quiet: bool) -> None:
        r = rate.setdefault(p, rng.uniform(0.1, 0.45))
        out["hand_id"].append(hid)
        out["player"].append(p)
        out["street"].append(street)
        out["behind"].append(behind)
        out["aggr"].append(not quiet and rng.random() < (r if behind else r / 1.4))

    for hid, ins in entered.iter_rows():
        if len(ins) < 3:
            continue
        if rng.random() >= allin_rate:
            for p in ins:
                spot(hid, p, 1, False, False)
            continue
        allin = rng.choice(ins)
        behind = [p for p in ins if p != allin]
        agreed: set[str] = set()
        for pair in teams:
            if pair <= set(behind) and rng.random() < share:
                agreed |= pair
        for street in (2, 3):
            for p in behind:
                spot(hid, p, street, True, p in agreed)
    return pl.DataFrame(out, schema={"hand_id": pl.String, "player": pl.String,
                                     "street": pl.Int8, "behind": pl.Boolean,
                                     "aggr": pl.Boolean})
