"""Which money a hand is played for, so that no total ever adds one currency to another.

Money is integer minor units of the hand's currency (`game.currency`, `game.minor_per_unit` on
its hand_started event). Tournament chips are worth nothing outside their tournament and play
chips nothing at all: each is a unit of its own. Every money total of a run summary and of the
report is grouped by this unit (`money_unit`, and the same rule in SQL, `MONEY_UNIT_SQL`).
"""

from __future__ import annotations

TOURNAMENT_CHIPS = "tournament chips"
PLAY_CHIPS = "chips"  # a cash game in chips (play money, or a log that names no currency)
_CHIP_CODES = ("", "CHIPS")  # what importers write for a game not played for a currency


def money_unit(currency: str | None, tournament: bool | None) -> str:
    """`USD`, `EUR`, ... for a cash hand; TOURNAMENT_CHIPS for a tournament hand; PLAY_CHIPS
    for a cash hand not played for a currency."""
    if tournament:
        return TOURNAMENT_CHIPS
    code = (currency or "").strip().upper()
    return PLAY_CHIPS if code in _CHIP_CODES else code


def money_unit_sql(currency: str = "currency", tournament: str = "tournament") -> str:
    """`money_unit` as a DuckDB SQL expression over two columns."""
    chips = ", ".join(f"'{c}'" for c in _CHIP_CODES)
    code = f"upper(trim(coalesce({currency}, '')))"
    return (f"CASE WHEN coalesce({tournament}, false) THEN '{TOURNAMENT_CHIPS}' "
            f"WHEN {code} IN ({chips}) THEN '{PLAY_CHIPS}' ELSE {code} END")


MONEY_UNIT_SQL = money_unit_sql()


def is_currency(unit: str) -> bool:
    """True for a currency code; false for tournament and play chips."""
    return unit not in (TOURNAMENT_CHIPS, PLAY_CHIPS)


def unit_order(unit: str) -> tuple[int, str]:
    """Currencies first (by code), then play chips, then tournament chips."""
    return ({TOURNAMENT_CHIPS: 2, PLAY_CHIPS: 1}.get(unit, 0), unit)
