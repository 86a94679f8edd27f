"""A partner pair that shares a player with another is judged against its players' other pairs
without the other partner pairs (leads.partners_of). Its totals are those made without every
partner pair with its own row added back: the same sums, the same entry rates, as a whole new
table's totals, at the cost of one fit for all partner pairs instead of one each (2,446 fits of
the whole pair table took 1,016 CPU-s on the million hands of `bench --pipeline`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.collusion import features as F
from audit.collusion import leads as L
from tests.collusion.test_collusion_fold_strata import (
    DUMPER,
    RECEIVER,
    STRANGER,
    TO_PARTNER,
    _receiver,
    _table,
)


def _own(partners: L.Partners) -> list[tuple[tuple[str, str], pl.DataFrame]]:
    """Each partner pair of `partners.own` with its players' own totals."""
    assert partners.own is not None
    return [((a, b), own) for (a, b), own in
            partners.own.partition_by("pair_a", "pair_b", as_dict=True, include_key=False,
                                      maintain_order=True).items()]


def first_partner_pair(table: pl.DataFrame) -> tuple[
        tuple[str, str], dict[str, Any], dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The first partner pair of `table` (`partners_of`): its players, its row of the table,
    each player's own totals with the pair (`got`) and without any partner pair (`without`)."""
    partners = L.partners_of(table, L.totals_of(table))
    assert partners is not None
    (a, b), own = _own(partners)[0]
    row = table.filter((pl.col("player_a") == a) & (pl.col("player_b") == b)).row(0, named=True)
    got = {p: own.row(by_predicate=pl.col("player") == p, named=True) for p in (a, b)}
    without = {p: partners.totals.row(by_predicate=pl.col("player") == p, named=True)
               for p in (a, b)}
    return (a, b), row, got, without


def _rates(folder: str, bettor: str) -> tuple[float, float, float]:
    # the dumper never folds to the stranger either: two partner pairs share the dumper
    if (folder, bettor) == (DUMPER, STRANGER):
        return TO_PARTNER
    return _receiver(folder, bettor)


@pytest.fixture(scope="module")
def table(columns: list[str]) -> pl.DataFrame:  # noqa: F811
    """The fold table, with heavy folds and double raises in it so that the fitted models
    (`fitted_factors`) are not flat."""
    base = _table(columns, _rates)
    rng = np.random.default_rng(5)
    n = base.height
    fa, fb = base["fa_k"].to_numpy(), base["fb_k"].to_numpy()
    multiway = rng.integers(200, 800, n)
    pots = rng.integers(20, 200, n)
    return base.with_columns(
        hu_n=pl.Series(pots, dtype=pl.Int64),
        soft_ka=pl.Series(rng.binomial(pots, rng.uniform(0.2, 0.6, n)), dtype=pl.Int64),
        soft_kb=pl.Series(rng.binomial(pots, rng.uniform(0.2, 0.6, n)), dtype=pl.Int64),
        # (all their folds after putting chips in: the folds the heavy-fold model counts)
        ifa_k=pl.Series(fa, dtype=pl.Int64), ifb_k=pl.Series(fb, dtype=pl.Int64),
        hfa_k=pl.Series(rng.binomial(fa, rng.uniform(0.05, 0.3, n)), dtype=pl.Int64),
        hfb_k=pl.Series(rng.binomial(fb, rng.uniform(0.05, 0.3, n)), dtype=pl.Int64),
        ws_n=pl.Series(multiway, dtype=pl.Int64),
        ws_ga=pl.Series(rng.binomial(multiway, 0.3), dtype=pl.Int64),
        ws_gb=pl.Series(rng.binomial(multiway, 0.3), dtype=pl.Int64),
        ws_k=pl.Series(rng.poisson(8, n), dtype=pl.Int64))


def test_a_partner_pairs_totals_are_its_players_pairs_without_the_other_partners(
        table: pl.DataFrame) -> None:
    partners = L.partners_of(table, L.totals_of(table))
    assert partners is not None
    assert {(RECEIVER, DUMPER), (DUMPER, STRANGER)} <= set(partners.pairs.rows())
    assert len(_own(partners)) >= 2
    keys = ["player_a", "player_b"]
    groups = range(len(F.GAME_GROUPS))
    fitted = set(L.FIT_SCHEMA) - {"player"}
    for (a, b), own in _own(partners):
        others = partners.pairs.filter((pl.col("player_a") != a) | (pl.col("player_b") != b))
        whole = L.totals_of(table.join(others, on=keys, how="anti")).filter(
            pl.col("player").is_in([a, b]))
        assert own.columns == whole.columns
        for player in (a, b):
            got = own.row(by_predicate=pl.col("player") == player, named=True)
            want = whole.row(by_predicate=pl.col("player") == player, named=True)
            for c in want:
                if c == "player" or c in fitted:
                    continue
                assert got[c] == pytest.approx(want[c], rel=1e-9, abs=1e-9), (a, b, player, c)
            for g in groups:
                assert got[f"sg{g}_e"] == pytest.approx(want[f"sg{g}_e"], rel=1e-9, abs=1e-9)


def test_the_leave_pair_out_fitted_baselines_are_the_fit_without_the_pair(
        table: pl.DataFrame) -> None:
    # taking the pair's own folds out of the folder's denominator (`_heavy_fold_rate`) leaves
    # what the fit without any partner pair has
    (a, b), row, got, without = first_partner_pair(table)
    assert got[a]["hf_nb"] - row["ifa_k"] * without[b]["hf_b"] == pytest.approx(
        without[a]["hf_nb"], rel=1e-12)
    assert got[b]["ind_na"] - row["ifa_k"] * without[a]["hf_a"] == pytest.approx(
        without[b]["ind_na"], rel=1e-12)
    # ... and so for heads-up aggression (fits.lpo_rate), both ways (the pair is not
    # far off the fit, fits.in_fit: it is in it)
    for x, y, bets in ((a, b, row["soft_ka"]), (b, a, row["soft_kb"])):
        assert without[x]["sp_dx"] > 0
        assert got[x]["sp_dx"] - row["hu_n"] * without[y]["sp_g"] == pytest.approx(
            without[x]["sp_dx"], rel=1e-12)
        assert got[y]["sp_dy"] - row["hu_n"] * without[x]["sp_f"] == pytest.approx(
            without[y]["sp_dy"], rel=1e-12)
        assert got[y]["sp_ky"] - bets == pytest.approx(without[y]["sp_ky"], rel=1e-12)
        assert got[x]["sp_kx"] - bets == pytest.approx(without[x]["sp_kx"], rel=1e-12)


def test_partner_pairs_cost_one_fit_not_one_each(table: pl.DataFrame,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fits = []
    real = L.totals_of

    def counted(baseline: pl.DataFrame, keep: pl.Series | None = None,
                fit_tau2: float | None = None) -> pl.DataFrame:
        fits.append(baseline.height)
        return real(baseline, keep, fit_tau2)

    monkeypatch.setattr(L, "totals_of", counted)
    partners = L.partners_of(table, real(table))
    assert partners is not None and len(_own(partners)) >= 2
    assert len(fits) == 1, fits


def test_a_player_missing_from_the_fit_without_partners_gets_his_pairs_refitted(
        table: pl.DataFrame) -> None:
    # a player whose every pair is a partner pair is not in the totals without the partners:
    # his pair's totals are those of a fit of its own, in their place among the others
    partners = L.partners_of(table, L.totals_of(table))
    assert partners is not None
    shared = [pair for pair, _ in _own(partners)]
    # the player of one pair only among them
    (a, b), gone = next((pair, p) for pair in shared for p in pair
                        if sum(p in other for other in shared) == 1)
    without = partners.totals.filter(pl.col("player") != gone)
    own = L._own_totals(table, shared, partners.pairs, without)
    assert own.schema == {"pair_a": pl.String, "pair_b": pl.String, **without.schema}
    assert own.select("pair_a", "pair_b", "player").rows() == [
        (x, y, p) for x, y in shared for p in (x, y)]
    keys = ["player_a", "player_b"]
    others = partners.pairs.filter((pl.col("player_a") != a) | (pl.col("player_b") != b))
    whole = L.totals_of(table.join(others, on=keys, how="anti")).filter(
        pl.col("player").is_in([a, b]))
    mine = own.filter((pl.col("pair_a") == a) & (pl.col("pair_b") == b)).drop("pair_a", "pair_b")
    assert mine.sort("player").equals(whole.sort("player"))
    # the other pairs as with every player in the fit
    rest = partners.own.filter((pl.col("pair_a") != a) | (pl.col("pair_b") != b))
    assert own.filter((pl.col("pair_a") != a) | (pl.col("pair_b") != b)).equals(rest)


def test_a_partner_pair_far_off_the_heads_up_fit_adds_nothing_to_it(
        table: pl.DataFrame) -> None:
    # a pair that never bets into each other in 400 heads-up pots is far off the fit
    # without it (fits.in_fit) and would have left it: its players' heads-up fit stays
    # the one without the partner pairs, and `score_pairs` takes nothing of its own out
    partners = L.partners_of(table, L.totals_of(table))
    assert partners is not None
    (a, b), _ = _own(partners)[0]
    keys = ["player_a", "player_b"]
    mine = (pl.col("player_a") == a) & (pl.col("player_b") == b)
    soft = table.with_columns(
        **{c: pl.when(mine).then(v).otherwise(pl.col(c)).cast(pl.Int64)
           for c, v in (("hu_n", 400), ("soft_ka", 0), ("soft_kb", 0))})
    partners = L.partners_of(soft, L.totals_of(soft))
    assert partners is not None and (a, b) in partners.pairs.select(keys).rows()
    own = dict(_own(partners))[(a, b)]
    for p in (a, b):
        got = own.row(by_predicate=pl.col("player") == p, named=True)
        want = partners.totals.row(by_predicate=pl.col("player") == p, named=True)
        for c in ("sp_kx", "sp_ky", "sp_dx", "sp_dy"):
            assert got[c] == want[c]
