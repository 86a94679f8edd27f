"""What a player does against another depends on whom he faces (issue 25).

How often a player bets on a street only the two of them were left on (softplay_streets) or
behind a third player's all-in (checkdown_bets), folds a strong hand to the other's bet
(strong_fold) or folds to his bet at all (fold_to_partner), depends on the other as much as on
him: a passive opponent checks to him, a feared bettor draws folds from everyone. Judged
against each player's rate against everyone else, regulars who never leave the table of two
such players read as colluding with each other, and each of them with those two. Each test is
judged against an actor × opponent model fitted over all pairs (leads.DIRECTED, fits.fit); a
team that checks it down or folds to each other is still far off it.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import fits
from audit.collusion import leads as L
from audit.collusion import streets as S
from audit.collusion.leads import (
    _player_index,
    combine,
    fitted_factors,
    partners_of,
    score_pairs,
    totals_of,
)
from tests.collusion.frames import counted_pair_table
from tests.collusion.test_collusion_partner_totals import first_partner_pair
from tests.collusion.test_collusion_partner_totals import table as partner_table

SPECIAL = ("t00s0", "t00s1")  # the two players at table 0 whom everyone plays differently
REGULARS = ("t00s2", "t00s3", "t00s4", "t00s5", "t00s6", "t00s7", "t00s8")

# per test: the chances (A's, B's) and counts (A's, B's) columns, the chances of each pair,
# the players' own rates, the two special players' and the regulars' own rates and their
# effect as opponents, and a planted team's rate
TESTS = {
    # bets: the two special players are passive (they draw bets), the regulars aggressive
    "softplay_streets": (("hus_n", "hus_n"), ("hus_ka", "hus_kb"), 400, (0.3, 0.6),
                         (0.3, 0.6), (1.4, 0.7), 0.05),
    "checkdown_bets": (("cdx_n", "cdx_n"), ("cdx_ka", "cdx_kb"), 400, (0.3, 0.6),
                       (0.3, 0.6), (1.4, 0.7), 0.05),
    # strong-hand folds: the two special players are feared bettors (they draw folds), the
    # regulars not
    "strong_fold": (("sfa_n", "sfb_n"), ("sfa_k", "sfb_k"), 100, (0.1, 0.3), (0.1, 0.3),
                    (2.5, 0.7), 0.9),
    # calls and raises facing the other's bets (the rest folds): the two special players are
    # feared (few continue against them), the regulars called down; a team folds to each other
    "fold_to_partner": (("fa_n", "fb_n"), ("fa_k", "fb_k"), 300, (0.4, 0.7), (0.3, 0.7),
                        (0.4, 1.3), 0.03),
}
CONTINUES = {"fold_to_partner"}  # its rates are those of not doing what it counts


def _table(columns: list[str], test: str, team_rate: float | None) -> pl.DataFrame:
    """20 tables of 9 players who never move. Against opponent y, player x does what `test`
    counts at his own rate times y's effect as an opponent: 1 but at table 0, where the two
    SPECIAL players draw it (and do it little themselves) and the seven REGULARS draw it little
    (and do it much). With `team_rate`, the two SPECIAL players do it at that rate against
    each other."""
    (na, nb), (ka, kb), chances, (lo, hi), (own_s, own_r), (opp_s, opp_r), _ = TESTS[test]
    rng = np.random.default_rng(21)
    players = [f"t{t:02d}s{i}" for t in range(20) for i in range(9)]
    own = {p: float(rng.uniform(lo, hi)) for p in players}
    own |= dict.fromkeys(SPECIAL, own_s) | dict.fromkeys(REGULARS, own_r)
    opp = dict.fromkeys(players, 1.0) | dict.fromkeys(SPECIAL, opp_s) | dict.fromkeys(REGULARS,
                                                                                      opp_r)
    rows = []
    for t in range(20):
        for i in range(9):
            for j in range(i + 1, 9):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                ra, rb = min(own[a] * opp[b], 0.99), min(own[b] * opp[a], 0.99)
                if (a, b) == SPECIAL and team_rate is not None:
                    ra = rb = team_rate
                done_a, done_b = (int(rng.binomial(chances, r)) for r in (ra, rb))
                if test in CONTINUES:
                    done_a, done_b = chances - done_a, chances - done_b
                rows.append({"player_a": a, "player_b": b}
                            | dict.fromkeys([*columns, *S.PAIR_COLUMNS], 0)
                            | {"hands": 6000, na: chances, nb: chances, ka: done_a,
                               kb: done_b})
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in [*columns, *S.PAIR_COLUMNS] if c != "hands"])


def _rates(table: pl.DataFrame) -> pl.DataFrame:
    """The players' rates: none but the street counts', each player's over his pairs (his
    streets behind all-ins also his reference spots: no table-wide shift)."""
    sides = [table.select(player=f"player_{x}", cdx_h="cdx_n", cdx_c=f"cdx_k{x}",
                          hus_h="hus_n", hus_c=f"hus_k{x}") for x in ("a", "b")]
    per = pl.concat(sides).group_by("player").sum()
    return per.with_columns(cdx_rn=pl.col("cdx_h"), cdx_rk=pl.col("cdx_c"),
                            **{c: pl.lit(0) for c in F.RATE_COLUMNS}).select(
        "player", *F.RATE_COLUMNS, *S.PLAYER_COLUMNS)


def _leads(table: pl.DataFrame) -> list[tuple[str, str, str]]:
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = totals_of(table)
    scored = combine(score_pairs(tested, totals, _rates(table),
                                 partners=partners_of(table, totals)))
    return scored.filter(pl.col("q_value") <= 0.05).select(
        "player_a", "player_b", "top").rows()


@pytest.mark.parametrize("test", sorted(TESTS))
def test_regulars_beside_players_everyone_plays_differently_are_no_lead(
        columns: list[str], test: str) -> None:
    # each regular does it far more often against the two special players than against the
    # other regulars: against his rate over everyone else, pairs of regulars, or each regular
    # with a special player, read as colluding
    assert _leads(_table(columns, test, None)) == []


@pytest.mark.parametrize("test", sorted(TESTS))
def test_a_team_far_off_what_its_players_do_against_others_is_still_a_lead(
        columns: list[str], test: str) -> None:
    leads = _leads(_table(columns, test, TESTS[test][-1]))
    assert (*SPECIAL, test) in leads
    assert [x for x in leads if x[:2] != SPECIAL] == []


def test_the_heads_up_fit_is_the_general_fit_of_its_counts() -> None:
    # the heads-up fit (soft play, heads-up aggression; leads.HEADS_UP) is fits.fit of the
    # heads-up pots, both ways, and the bets in them, the soft players far off it left out
    table = counted_pair_table(3_000, 400)
    # a few pairs far off the fit: soft players
    table = table.with_columns(pl.when(pl.int_range(pl.len()) < 5).then(0)
                               .otherwise(pl.col(c)).alias(c) for c in ("soft_ka", "soft_kb"))
    names, idx = _player_index(table)
    h = table.height
    x, y = np.concatenate([idx[:h], idx[h:]]), np.concatenate([idx[h:], idx[:h]])
    pots = table["hu_n"].to_numpy().astype(float)
    bets = np.concatenate([table[c].to_numpy().astype(float) for c in ("soft_ka", "soft_kb")])
    general = fits.fit(x, y, np.concatenate([pots, pots]), bets, len(names), "sp")
    # (the soft players were left out of it)
    factors = fitted_factors(table)
    assert factors["player"].to_list() == names.to_list()
    n = np.concatenate([pots, pots])
    assert fits._far(x, y, n, bets, general["sp_f0"], general["sp_g0"])[:5].all()
    for c, v in general.items():
        assert factors[c].to_numpy() == pytest.approx(v, rel=1e-12, abs=1e-15)


def test_a_partner_pairs_own_fitted_terms_are_added_back_only_where_it_was_in_the_fit(
        columns: list[str]) -> None:
    # a partner pair is judged against its players' pairs without the other partner pairs
    # (leads._own_totals): the fit without every partner pair, this pair's terms added back,
    # so that taking them out again (`_directed_rates`) leaves the fit without it. Its strong
    # folds are as anyone's (in the fit: added back); its continues facing each other's bets
    # are far off the fit in some entry stratum (it left that fit: nothing added)
    base = partner_table.__wrapped__(columns)  # type: ignore[attr-defined]
    rng = np.random.default_rng(8)
    strong = rng.integers(20, 60, base.height)
    table = base.with_columns(
        sfa_n=pl.Series(strong, dtype=pl.Int64), sfb_n=pl.Series(strong, dtype=pl.Int64),
        sfa_k=pl.Series(rng.binomial(strong, 0.3), dtype=pl.Int64),
        sfb_k=pl.Series(rng.binomial(strong, 0.3), dtype=pl.Int64))
    (a, b), row, got, without = first_partner_pair(table)
    kept = {}
    for d in (L.STRONG_FOLD, *(d for d in L.DIRECTED if d.continues)):
        n_ab, n_ba, k_ab, k_ba = (np.array([v]) for v in L._directed_counts(row, d))
        c = f"{d.prefix}_"
        wa, wb = ({c + x: np.array([without[p][c + x]]) for x in fits.COLUMNS} for p in (a, b))
        w = float(fits.in_fit(wa, wb, d.prefix, n_ab, n_ba, k_ab, k_ba)[0])
        kept[d.prefix] = w
        for x, y, n_xy, n_yx, k_xy, k_yx in ((a, b, n_ab, n_ba, k_ab, k_ba),
                                             (b, a, n_ba, n_ab, k_ba, k_ab)):
            assert without[x][c + "dx"] > 0
            assert got[x][c + "kx"] == pytest.approx(without[x][c + "kx"] + w * k_xy[0])
            assert got[x][c + "ky"] == pytest.approx(without[x][c + "ky"] + w * k_yx[0])
            assert got[x][c + "dx"] == pytest.approx(
                without[x][c + "dx"] + w * n_xy[0] * without[y][c + "g"], rel=1e-12)
            assert got[x][c + "dy"] == pytest.approx(
                without[x][c + "dy"] + w * n_yx[0] * without[y][c + "f"], rel=1e-12)
    # strong folds in the fit, continues of some entry stratum not
    assert kept["sf"] == 1.0
    assert 0.0 in {kept[f"fp{s}"] for s in range(len(F.ENTRY))}
