"""The simulator's settlement of players all-in for their ante (issue 7): a player with no live
chips still in the hand wins the dead money he matched, as the replay's pot construction
(audit/replay/pots.build_pots, POT-SIDEPOT-BUILD) has it. engine.settle builds its pots on its
own; these tests hold the two to the same pots and eligibility, case by case (antes only, ante
and a partial bring-in, several players all-in for different ante amounts, a short ante), over
random contributions, and over simulated stud hands dealt with such stacks, which replay
without findings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from audit.replay import replay_hand
from audit.replay.events import hand_from_rows
from audit.replay.pots import build_pots
from audit.run.judges import settings_pair
from audit.simulate.play.engine import FL, Hand, settle
from audit.simulate.play.studdraw import play_stud
from audit.simulate.play.table import STUD_GAMES, Player, Table

CASH, TOURNAMENT = settings_pair("montana", ())


def _hand(contrib: dict[int, int], dead: dict[int, int], folded: set[int],
          seats: int = 7) -> Hand:
    """A stud hand at its settlement: `contrib` per seat (antes included), `dead` the antes,
    `folded` the seats out of the hand; seven distinct cards each so a showdown can run."""
    h = Hand(seats + 1, FL, 2, 4, False, False, 7, 1)
    for s in contrib:
        h.seat(s, 1000)
    h.begin()
    h.evaluator, h.stud = "high", True
    deck = list(range(52))
    random.Random(len(contrib)).shuffle(deck)
    for s, c in contrib.items():
        h.contrib[s] = c
        h.dead[s] = dead.get(s, 0)
        h.folded[s] = s in folded
        h.hole[s] = [deck.pop() for _ in range(7)]
    h.alive = sum(1 for s in contrib if s not in folded)
    return h


def _engine_pots(h: Hand) -> tuple[dict[int, int], list[tuple[int, list[int]]]]:
    res = settle(h, 0, 0)
    refunds = {res["refund_seat"]: res["refund"]} if res["refund"] else {}
    return refunds, [(amount, sorted(eligible)) for _, amount, eligible, _, _ in res["pots"]]


def _replay_pots(h: Hand) -> tuple[dict[int, int], list[tuple[int, list[int]]]]:
    refunds, pots = build_pots(h.contrib, h.folded, sorted(h.order), h.dead)
    return ({s: r for s, r in enumerate(refunds) if r},
            [(amount, sorted(eligible)) for amount, eligible in pots])


# (name, contrib, dead, folded, the pots both must build: [(amount, eligible)], refunds)
CASES = [
    ("antes only: seat 2 all-in for his ante of 2; 3 and 4 bet 10 more, 1 folds",
     {1: 2, 2: 2, 3: 12, 4: 12}, {1: 2, 2: 2, 3: 2, 4: 2}, {1},
     [(8, [2, 3, 4]), (20, [3, 4])], {}),
    ("ante and a partial bring-in: seat 2 antes 2 and brings in 1 all-in, seat 4 is all-in "
     "for his ante, seats 1 and 3 call and complete",
     {1: 6, 2: 3, 3: 6, 4: 2}, {1: 2, 2: 2, 3: 2, 4: 2}, set(),
     [(8, [1, 2, 3, 4]), (3, [1, 2, 3]), (6, [1, 3])], {}),
    ("several players all-in for different ante amounts (1, 3 and the full 5), one folded "
     "after betting, two playing on",
     {1: 1, 2: 3, 3: 5, 4: 25, 5: 25, 6: 9}, {1: 1, 2: 3, 3: 5, 4: 5, 5: 5, 6: 5}, {6},
     [(6, [1, 2, 3, 4, 5]), (10, [2, 3, 4, 5]), (8, [3, 4, 5]), (44, [4, 5])], {}),
    ("a short ante: seat 3 posts 1 of the 2 ante all-in; seat 1's uncalled bring-in comes "
     "back and the rest of the antes go to seat 1 alone",
     {1: 5, 2: 2, 3: 1, 4: 2}, {1: 2, 2: 2, 3: 1, 4: 2}, {2, 4},
     [(4, [1, 3]), (3, [1])], {1: 3}),
    ("everyone left is all-in for the ante, the folded players anted too",
     {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}, {1, 5},
     [(10, [2, 3, 4])], {}),
    ("no one all-in on the ante (the usual hand): the antes join the main pot",
     {1: 12, 2: 7, 3: 12, 4: 2}, {1: 2, 2: 2, 3: 2, 4: 2}, {4},
     [(23, [1, 2, 3]), (10, [1, 3])], {}),
]


@pytest.mark.parametrize(("name", "contrib", "dead", "folded", "pots", "refunds"), CASES,
                         ids=[c[0].split(":")[0] for c in CASES])
def test_settle_builds_the_replays_pots_for_players_allin_on_the_ante(
        name: str, contrib: dict[int, int], dead: dict[int, int], folded: set[int],
        pots: list[tuple[int, list[int]]], refunds: dict[int, int]) -> None:
    h = _hand(contrib, dead, folded)
    assert _replay_pots(h) == (refunds, pots), name
    assert _engine_pots(h) == (refunds, pots), name


def test_settle_agrees_with_the_replay_over_random_contributions() -> None:
    rng = random.Random(7)
    allin_on_ante = 0
    for _ in range(2000):
        n = rng.randint(2, 7)
        ante = rng.randint(1, 10)
        contrib, dead = {}, {}
        for s in range(1, n + 1):
            d = rng.randint(1, ante) if rng.random() < 0.3 else ante  # a short ante now and then
            dead[s] = d
            contrib[s] = d + (0 if rng.random() < 0.35 else rng.randint(1, 60))
        folded = {s for s in contrib if rng.random() < 0.3}
        if len(folded) == n:
            folded.discard(1)
        h = _hand(contrib, dead, folded)
        if len(h.order) - len(folded) < 2:
            continue  # one player left: the engine pays him everything without pots
        allin_on_ante += any(contrib[s] == dead[s] for s in contrib if s not in folded)
        assert _engine_pots(h) == _replay_pots(h), (contrib, dead, folded)
    assert allin_on_ante > 500


def _stud_hand(seed: int) -> tuple[list[dict], Hand, dict, bool]:
    """One simulated stud hand where about a third of the seats hold no more than the ante and
    a few the ante and part of the bring-in; returns (event rows, hand, settlement, tournament)."""
    rng = random.Random(seed)
    variant = STUD_GAMES[rng.randrange(len(STUD_GAMES))]
    n = rng.randint(3, 7)
    t = Table(f"t{seed}", n, variant, "fixed_limit", rng.random() < 0.3, rng)
    for s in range(1, n + 1):
        t.players[s] = Player(f"p{seed}-{s}", rng.randrange(4))
        r = rng.random()
        if r < 0.3:
            t.stacks[s] = rng.randint(1, t.ante)  # all-in for the ante, or short of it
        elif r < 0.45:
            t.stacks[s] = t.ante + rng.randint(1, max(1, t.sb - 1))  # part of the bring-in
        else:
            t.stacks[s] = rng.randint(3, 40) * t.bb
    t.button = rng.randint(1, n)
    deck = list(range(52))
    rng.shuffle(deck)
    ev, h, res = play_stud(t, rng, deck)
    game = t.game()
    rows = [{"hand_id": f"h{seed}", "seq": 0, "kind": "hand_started", "game": game}]
    for i, e in enumerate(ev, 1):
        rows.append({"hand_id": f"h{seed}", "seq": i, "kind": e[0], "seat": e[1],
                     "amount": e[2], "total": e[3], "cards": e[4], "detail": e[5],
                     "player": t.players[e[1]].pid if e[1] else None})
    return rows, h, res, t.tournament


@pytest.mark.parametrize("first", range(0, 1200, 300))
def test_stud_hands_with_players_allin_on_the_ante_replay_clean(first: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(first, first + 300):
        rows, h, res, tournament = _stud_hand(seed)
        result = replay_hand(hand_from_rows(rows), TOURNAMENT if tournament else CASH)
        assert [(f.rule_id, f.seq, f.message) for f in result.findings] == [], seed
        no_live = [s for s in res["contenders"] if h.contrib[s] == h.dead[s]]
        if res["showdown"] and no_live:
            seen["showdown"] += 1
            if any(s in pot[3] for pot in res["pots"] for s in no_live):
                seen["won"] += 1
            if len({h.dead[s] for s in no_live}) > 1:
                seen["different antes"] += 1
    # the hands really hold the case: players with no live chips at showdown, winning pots
    assert seen["showdown"] > 150 and seen["won"] > 50 and seen["different antes"] > 10, seen
