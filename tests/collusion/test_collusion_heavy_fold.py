"""The heavy-fold test (PATTERN-CHIP-DUMP, issue 25): a chip dumper's folds to his partner's bets
after a heavy investment, judged against a folder × bettor model fitted over all pairs.

Two tables of twelve who always sit together. At one every player bets big and gives up big
pots (a heavy table), at the other pots stay small. At the heavy table a dumper folds to his
partner's raise after a heavy investment in 100 more of his 1,000 folds to him than an honest
player there does. The former baseline multiplied the dumper's share of heavy folds against
others (the heavy table's) by the partner's share of heavy folds drawn from others (the heavy
table's again) over the population's share: it counted the table twice, expected of every
folder at the heavy table about as many heavy folds as the dumper made, and read him as honest
(p 0.75).
Each player's factor measured against the very opponents he met finds the dumper, and no
honest pair at either table."""

from __future__ import annotations

from itertools import combinations

import polars as pl

from audit.collusion import features as F
from audit.collusion import leads as L
from tests.collusion.frames import HANDS, HP

_HP, _HANDS = HP, HANDS

FOLDS = 1000  # each player's folds to each other player's bets at his table
FOLDER = {"heavy": 0.30, "light": 0.10}  # how often a player's fold gives up a heavy investment
BETTOR = {"heavy": 0.60, "light": 0.50}  # how far a player's bets push folders to do so
DUMPER, RECEIVER = "h00", "h01"
EXTRA = 100  # the dumper's heavy folds to the receiver beyond an honest folder's there


def _table() -> pl.DataFrame:
    schema = F.pair_table(F.pair_hands(F.player_hands(
        pl.LazyFrame(schema=_HP), pl.LazyFrame(schema=_HANDS)))).collect_schema()
    rows = []
    for kind in ("heavy", "light"):
        players = [f"{kind[0]}{i:02d}" for i in range(12)]
        share = FOLDER[kind] * BETTOR[kind]
        for a, b in combinations(players, 2):
            extra = EXTRA if (a, b) == (DUMPER, RECEIVER) else 0
            row = {c: 0 for c in schema.names()}
            row |= {"player_a": a, "player_b": b, "hands": 3 * FOLDS, "fa_n": FOLDS,
                    "fb_n": FOLDS, "fa_k": FOLDS, "fb_k": FOLDS, "ifa_k": FOLDS, "ifb_k": FOLDS,
                    "hfa_k": round(FOLDS * share) + extra, "hfb_k": round(FOLDS * share)}
            rows.append(row)
    return pl.DataFrame(rows, schema=schema).with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))


def test_a_dumper_at_a_table_of_heavy_bettors_stands_out_against_its_table() -> None:
    table = _table()
    rates = pl.DataFrame({"player": sorted(set(table["player_a"]) | set(table["player_b"]))}
                         ).with_columns(*[pl.lit(0, dtype=pl.UInt32).alias(c)
                                          for c in F.RATE_COLUMNS])
    scored = L.score_pairs(table, L.totals_of(table), rates)
    p = dict(zip(scored.select("player_a", "player_b").rows(), scored["heavy_fold_p"].to_list(),
                 strict=True))
    assert p[(DUMPER, RECEIVER)] < 1e-6
    assert min(v for pair, v in p.items() if pair != (DUMPER, RECEIVER)) > 0.01


def test_the_folder_and_bettor_factors_separate_the_two_tables() -> None:
    fit = L.fitted_factors(_table())
    hf = {r["player"]: r for r in fit.to_dicts()}
    # the heavy table's folders give up heavy investments more often whoever bets
    assert min(hf[f"h{i:02d}"]["hf_a"] for i in range(2, 12)) > 2 * max(
        hf[f"l{i:02d}"]["hf_a"] for i in range(12))
    assert all(0 < r["hf_r"] < 1 for r in hf.values())
