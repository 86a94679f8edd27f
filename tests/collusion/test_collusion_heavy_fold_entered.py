"""The heavy-fold test (PATTERN-CHIP-DUMP) judges the folds that could give up a heavy investment:
those after the folder put chips into the pot of his own will (session 24).

A fold preflop without entering the pot gives up a blind at most, and how many of a player's
folds to another are such folds is a matter of seating: a raiser who acts before him preflop
draws them, one seated after him raises over the pots he entered. On the rulebook population of
issue 25 (60,000 hands, share 0.4, seed 2) a loose-passive player folded 420 times to the
aggressive regular seated after him, 71 of them after a heavy investment (17%), and 7.5% of his
folds to the others at his table were heavy, most of those folds being of hands he never
entered. Among all folds the pair read as chip dumping (104 heavy folds where 66.9 were
expected, q 0.022, the one false lead there). Of his folds after putting chips in, 25% to the
regular and 24% to the others were heavy.

Here one table of ten who always sit together, seat 0 acting first preflop. Of each player's
folds to another's bets, four in five come after he put chips in when the bettor acts after
him preflop, one in five when the bettor acts before him; a quarter of those are heavy, for
every folder and bettor alike. The loose player folds three times as often to the aggressive
one seated right after him as to anyone else, who seldom folds to the loose player's bets.
"""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl

from audit.collusion import features as F
from audit.collusion import leads as L
from tests.collusion.frames import HANDS, HP

SEATS = 10
LOOSE, AGGRESSIVE = "s4", "s5"  # the aggressive player acts right after the loose one
DUMPER, RECEIVER = "s1", "s8"
FOLDS = 300  # a player's folds to another's bets (three times that to AGGRESSIVE)
ENTERED_AFTER, ENTERED_BEFORE = 0.8, 0.2  # the share of them after putting chips in
HEAVY = 0.25  # the share of those after a heavy investment, every folder and bettor alike


def _folds(folder: str, bettor: str) -> int:
    if bettor == AGGRESSIVE:
        return 3 * FOLDS
    if bettor == LOOSE:
        return FOLDS // 3  # a passive player seldom bets
    return FOLDS


def _directed(folder: str, bettor: str, dumper_extra: int) -> tuple[int, int, int]:
    """(folds, folds after putting chips in, heavy folds) of `folder` to `bettor`'s bets."""
    folds = _folds(folder, bettor)
    after = int(bettor[1:]) > int(folder[1:])
    entered = round(folds * (ENTERED_AFTER if after else ENTERED_BEFORE))
    heavy = round(entered * HEAVY)
    if (folder, bettor) == (DUMPER, RECEIVER):
        heavy += dumper_extra
    return folds, entered, heavy


def _table(dumper_extra: int) -> pl.DataFrame:
    schema = F.pair_table(F.pair_hands(F.player_hands(
        pl.LazyFrame(schema=HP), pl.LazyFrame(schema=HANDS)))).collect_schema()
    players = [f"s{i}" for i in range(SEATS)]
    rows = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            fa, ia, ha = _directed(a, b, dumper_extra)
            fb, ib, hb = _directed(b, a, dumper_extra)
            rows.append({c: 0 for c in schema.names()}
                        | {"player_a": a, "player_b": b, "hands": 6000, "fa_n": 2 * fa,
                           "fb_n": 2 * fb, "fa_k": fa, "fb_k": fb, "ifa_k": ia, "ifb_k": ib,
                           "hfa_k": ha, "hfb_k": hb})
    return pl.DataFrame(rows, schema=schema).with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))


def _heavy_fold_p(table: pl.DataFrame) -> dict[tuple[str, str], float]:
    rates = pl.DataFrame({"player": sorted(set(table["player_a"]) | set(table["player_b"]))}
                         ).with_columns(*[pl.lit(0, dtype=pl.UInt32).alias(c)
                                          for c in F.RATE_COLUMNS])
    scored = L.score_pairs(table, L.totals_of(table), rates)
    return dict(zip(scored.select("player_a", "player_b").rows(),
                    scored["heavy_fold_p"].to_list(), strict=True))


def test_a_loose_player_folding_to_the_raiser_seated_after_him_is_no_chip_dumper() -> None:
    p = _heavy_fold_p(_table(dumper_extra=0))
    assert p[(LOOSE, AGGRESSIVE)] > 0.05
    assert min(p.values()) > 0.01


def test_a_dumper_giving_up_heavy_investments_to_his_receiver_is_still_found() -> None:
    # 60 more heavy folds in the 240 after putting chips in: a quarter more than his share
    p = _heavy_fold_p(_table(dumper_extra=60))
    assert p[(DUMPER, RECEIVER)] < 1e-6
    assert min(v for pair, v in p.items() if pair != (DUMPER, RECEIVER)) > 0.01


def _player(hand: str, seat: int, player: str, *, invested: int, vpip: bool,
            folded: str | None, faced: str | None, won: int = 0) -> dict[str, object]:
    return {"hand_id": hand, "seat": seat, "player": player, "position": None,
            "invested": invested, "won": won, "net": won - invested, "vpip": vpip,
            "pfr": False, "aggressive_actions": 0 if faced else 1, "calls": 0,
            "folded_street": folded, "all_in_street": None, "showed": False,
            "hole_cards": None, "hand_class": None, "faced_bet_from": faced}


def test_only_folds_after_putting_chips_in_can_be_heavy_folds() -> None:
    # A folds to B's raise three times: from the big blind without entering (a blind given up),
    # after limping (he entered), and on the flop after checking his big blind (he played on)
    folds = [("h1", 10, False, "preflop"), ("h2", 10, True, "preflop"),
             ("h3", 10, False, "flop")]
    rows = []
    for hand, invested, vpip, street in folds:
        rows += [_player(hand, 1, "A", invested=invested, vpip=vpip, folded=street, faced="B"),
                 _player(hand, 2, "B", invested=30, vpip=True, folded=None, faced=None,
                         won=30 + invested)]
    hands = pl.DataFrame([{"hand_id": h, "ts": datetime(2026, 1, 1, tzinfo=UTC),
                           "table_id": "t", "players": 2, "pot": 40, "showdown": False,
                           "big_blind": 10, "variant": "holdem", "structure": "no_limit"}
                          for h, *_ in folds], schema=HANDS)
    table = F.pair_table(F.pair_hands(F.player_hands(
        pl.DataFrame(rows, schema=HP).lazy(), hands.lazy()))).collect()
    assert table.select("fa_k", "ifa_k").row(0) == (3, 2)
