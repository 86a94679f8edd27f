"""A store whose hands are played for three kinds of money: US dollars, euros and tournament
chips (issue 23: money is never added across currencies)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from audit.ingest.pipeline import ingest
from audit.run.runner import RunSummary, audit_store
from audit.store.dataset import Store
from tests.support.eventrows import hand_rows, write_parquet


def money_hand(hand_id: str, *, currency: str, tournament: bool = False, rake: int = 0,
               wrong_award: bool = False, day: int = 1) -> list[dict[str, Any]]:
    """`hand_rows`' hand (ann raises, both blinds fold, 200 uncalled, a 250 pot) played for
    `currency`; the house takes `rake` from the pot; with `wrong_award` the pot is pushed to
    bob, who folded (a 250 wrong award)."""
    rows = hand_rows(hand_id, ts=f"2026-11-{day:02d}T10:00:00+00:00",
                     table_id=f"{currency.lower()}-{'tourney' if tournament else 'cash'}")
    rows[0]["game"].update(currency=currency, tournament=tournament,
                           minor_per_unit=1 if currency == "CHIPS" else 100)
    main = next(r for r in rows if r["kind"] == "award" and r["detail"] == "main")
    main["amount"] = 250 - rake
    if wrong_award:
        main.update(seat=2, player="bob")
    if rake:
        end = rows.pop()
        rows.append({"kind": "rake", "amount": rake, "hand_id": hand_id, "table_id":
                     rows[0]["table_id"]})
        rows.append(end)
        for seq, row in enumerate(rows):
            row["seq"] = seq
    return rows


# unit -> (hands, rake per hand, wrong awards)
USD_HANDS, USD_RAKE = 3, 10  # one of them a wrong award
EUR_HANDS, EUR_RAKE = 2, 15
TOURNEY_HANDS = 2  # one of them a wrong award; no rake in a tournament


def money_rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i in range(USD_HANDS):
        rows += money_hand(f"usd-{i}", currency="USD", rake=USD_RAKE, wrong_award=i == 0, day=1)
    for i in range(EUR_HANDS):
        rows += money_hand(f"eur-{i}", currency="EUR", rake=EUR_RAKE, day=2)
    for i in range(TOURNEY_HANDS):
        rows += money_hand(f"mtt-{i}", currency="CHIPS", tournament=True, wrong_award=i == 0,
                           day=2)
    return rows


def make_money_store(root: Path) -> tuple[Store, RunSummary]:
    store = Store(root)
    ingest([write_parquet(root.parent / f"{root.name}-hands.parquet", money_rows())], store)
    summary = audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return store, summary
