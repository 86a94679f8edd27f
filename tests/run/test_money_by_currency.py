"""Issue 23: the run summary never adds money across currencies. A store holding US dollar,
euro and tournament hands shows the house collection once per currency, tournament chips
apart."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from audit.cli.main import main
from audit.run.money import PLAY_CHIPS, TOURNAMENT_CHIPS, money_unit, money_unit_sql
from audit.sql.query import query
from tests.support.money_store import (
    EUR_HANDS,
    EUR_RAKE,
    TOURNEY_HANDS,
    USD_HANDS,
    USD_RAKE,
    make_money_store,
)


def test_money_unit_keeps_tournament_and_play_chips_apart() -> None:
    assert money_unit("USD", False) == "USD"
    assert money_unit("eur", None) == "EUR"
    assert money_unit("USD", True) == TOURNAMENT_CHIPS  # a tournament's chips are not its buy-in
    assert money_unit("CHIPS", True) == TOURNAMENT_CHIPS
    assert money_unit("CHIPS", False) == money_unit(None, False) == PLAY_CHIPS


def test_money_unit_sql_says_what_money_unit_says(tmp_path: Path) -> None:
    store, _ = make_money_store(tmp_path / "store")
    rows = query(store, f"SELECT hand_id, currency, tournament, {money_unit_sql()} AS unit "
                        "FROM hands_started ORDER BY hand_id").to_pylist()
    assert len(rows) == USD_HANDS + EUR_HANDS + TOURNEY_HANDS
    for r in rows:
        assert r["unit"] == money_unit(r["currency"], r["tournament"]), r


def test_audit_summary_gives_the_house_collection_per_currency(tmp_path: Path) -> None:
    store, summary = make_money_store(tmp_path / "store")
    assert summary.money == (
        ("EUR", EUR_HANDS, EUR_HANDS * EUR_RAKE, EUR_HANDS),
        ("USD", USD_HANDS, USD_HANDS * USD_RAKE, USD_HANDS),
        (TOURNAMENT_CHIPS, TOURNEY_HANDS, 0, 0),
    )
    result = CliRunner().invoke(main, ["audit", "--store", str(store.root)])
    lines = result.output.splitlines()
    start = lines.index("  house collection (rake, logged or implied by pot minus awards):")
    assert lines[start + 1:start + 4] == [
        f"    EUR: {EUR_HANDS * EUR_RAKE} minor units over {EUR_HANDS} of {EUR_HANDS} hands",
        f"    USD: {USD_HANDS * USD_RAKE} minor units over {USD_HANDS} of {USD_HANDS} hands",
        f"    tournament chips: 0 chips over 0 of {TOURNEY_HANDS} hands",
    ]
    # no line adds dollars to euros
    both = USD_HANDS * USD_RAKE + EUR_HANDS * EUR_RAKE
    assert not [line for line in lines if f": {both} minor units" in line]
