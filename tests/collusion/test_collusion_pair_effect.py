"""Long honest pairs are no lead for playing each other a little unlike anyone else (issue 25).

No baseline of a pair is exact: two regulars who sit together all day play each other a
little unlike their model says, and over thousands of hands a few percent is many binomial
standard deviations. The dispersion of a test measured over all pairs is the median pair's, a
short one's, and left the long honest pairs far off. The heavy-fold and card-sharing tests
allow each pair a share of its own (a pair random effect, leads._pair_effect, measured on the
long pairs): a team far beyond that share is still a lead.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from tests.collusion.frames import table_leads

TEAM = ("t00s0", "t00s1")


def _table(columns: list[str], team_share: float | None) -> pl.DataFrame:
    """20 tables of 9 players who never move; at table 0 they sit together all day (4,000
    folds to each other's bets a pair, 150 elsewhere). Of a pair's folds, a share 0.15 give up
    a heavy investment, each pair's share its own (0.15 times e to a normal of sd 0.25); with
    `team_share`, the two of TEAM fold heavily at that share."""
    rng = np.random.default_rng(5)
    rows = []
    for t in range(20):
        for i in range(9):
            for j in range(i + 1, 9):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                folds = 4000 if t == 0 else 150
                share = 0.15 * float(np.exp(rng.normal(0, 0.25)))
                if (a, b) == TEAM and team_share is not None:
                    share = team_share
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                            | {"hands": 40 * folds, "fa_n": 2 * folds, "fb_n": 2 * folds,
                               "fa_k": folds, "fb_k": folds, "ifa_k": folds, "ifb_k": folds,
                               "hfa_k": int(rng.binomial(folds, share)),
                               "hfb_k": int(rng.binomial(folds, share))})
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"])


def test_long_honest_pairs_with_a_share_of_their_own_are_no_lead(columns: list[str]) -> None:
    # each pair's heavy-fold share 15% give or take a quarter of it: over 8,000 folds that is
    # 4 to 8 binomial standard deviations at table 0, none over the 300 of a short pair
    assert table_leads(_table(columns, None)) == []


def test_a_team_far_beyond_that_share_is_still_a_lead(columns: list[str]) -> None:
    leads = table_leads(_table(columns, 0.45))
    assert (*TEAM, "heavy_fold") in leads
    assert [x for x in leads if x[:2] != TEAM] == []


def _co_entry_table(columns: list[str], team_lor: float | None) -> pl.DataFrame:
    """As `_table`, the players entering hands voluntarily: A enters 30% of the pair's hands,
    B 30% of those A stayed out of and, of those A entered, at odds e^lor times that (lor the
    pair's own, a normal of sd 0.15; with `team_lor`, TEAM's is that), in each preflop order
    alike. At table 0 a pair shares 30,000 hands, 600 elsewhere."""
    rng = np.random.default_rng(9)
    rows = []
    for t in range(20):
        for i in range(9):
            for j in range(i + 1, 9):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                hands = 30_000 if t == 0 else 600
                lor = float(rng.normal(0, 0.15))
                if (a, b) == TEAM and team_lor is not None:
                    lor = team_lor
                q0 = 0.3
                q1 = 1 / (1 + np.exp(-(np.log(q0 / (1 - q0)) + lor)))
                # half the hands each order preflop (the button goes round)
                counts = []
                for n in (hands // 2, hands - hands // 2):
                    va = int(rng.binomial(n, 0.3))
                    both = int(rng.binomial(va, q1))
                    counts.append((n, va, both + int(rng.binomial(n - va, q0)), both))
                (n1, va1, vb1, both1), rest = counts
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0)
                            | {"hands": hands, "va": va1 + rest[1], "vb": vb1 + rest[2],
                               "vboth": both1 + rest[3], "ce1_n": n1, "ce1_va": va1,
                               "ce1_vb": vb1, "ce1_both": both1})
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands"])


def test_long_honest_pairs_with_a_co_entry_of_their_own_are_no_lead(columns: list[str]) -> None:
    # a pair's log odds ratio of entering together 0 give or take 0.15: over 30,000 hands its
    # sampling error is 0.03, and the table's pairs read 5 standard deviations off and more
    assert table_leads(_co_entry_table(columns, None)) == []


def test_a_team_that_seldom_enters_together_is_still_a_lead(columns: list[str]) -> None:
    leads = table_leads(_co_entry_table(columns, -1.0))
    assert (*TEAM, "co_entry") in leads
    assert [x for x in leads if x[:2] != TEAM] == []
