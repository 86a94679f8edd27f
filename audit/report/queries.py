"""Every number in the compliance report, computed with DuckDB SQL over the store's views.

Each query is a module constant taking the run id as ``$run``, so tests (and a curious analyst)
can run the same SQL and get the same numbers. Days are UTC calendar days of the hand's start.
Money is never added across currencies: every money total is grouped by the hand's money unit
(`unit`: a currency code, tournament chips apart; audit/run/money.py).
"""

from __future__ import annotations

from typing import Any

import duckdb

from audit.run.money import MONEY_UNIT_SQL

SEVERITY_ORDER = ("critical", "violation", "warning", "info")
_SEVERITY_RANK = "CASE severity WHEN 'critical' THEN 3 WHEN 'violation' THEN 2 " \
                 "WHEN 'warning' THEN 1 ELSE 0 END"

RUN = "SELECT * FROM runs WHERE run_id = $run"

# The money unit of every stored hand (a currency code; tournament chips and play chips apart).
_UNITS = f"units AS (SELECT hand_id, any_value({MONEY_UNIT_SQL}) AS unit, " \
         "min(minor_per_unit) AS minor_per_unit FROM hands_started GROUP BY hand_id)"
# The same, for the hands of the run's wrong-award findings only (what the wrong-award
# queries join: a few hands, not every stored hand).
_WRONG_AWARD_UNITS = (
    f"units AS (SELECT hand_id, any_value({MONEY_UNIT_SQL}) AS unit, "
    "min(minor_per_unit) AS minor_per_unit FROM hands_started WHERE hand_id IN ("
    "SELECT hand_id FROM findings WHERE category = 'wrong_award' AND run_id IN ("
    "SELECT member FROM run_members WHERE run_id = $run)) GROUP BY hand_id)")
_UNIT_ORDER = "CASE unit WHEN 'tournament chips' THEN 2 WHEN 'chips' THEN 1 ELSE 0 END, unit"

# Per money unit: hands, chips put into pots, the house collection (rake, logged or implied)
# and the chips misawarded (the overpayments of wrong-award findings).
MONEY_BY_UNIT = f"""
WITH {_UNITS},
h AS (
    SELECT coalesce(u.unit, 'chips') AS unit, count(*) AS hands, sum(h.pot) AS pot,
           sum(h.rake) AS rake, count(*) FILTER (WHERE h.rake <> 0) AS raked_hands,
           min(u.minor_per_unit) AS minor_per_unit
    FROM hands h LEFT JOIN units u USING (hand_id)
    WHERE h.run_id IN (SELECT member FROM run_members WHERE run_id = $run)
    GROUP BY ALL
), w AS (
    SELECT coalesce(u.unit, 'chips') AS unit,
           coalesce(sum(f.delta) FILTER (WHERE f.delta > 0), 0) AS wrong_award_chips
    FROM findings f LEFT JOIN units u USING (hand_id)
    WHERE f.run_id IN (SELECT member FROM run_members WHERE run_id = $run)
      AND f.category = 'wrong_award'
    GROUP BY ALL
)
SELECT h.unit, h.hands, h.pot, h.rake, h.raked_hands, h.minor_per_unit,
       coalesce(w.wrong_award_chips, 0) AS wrong_award_chips
FROM h LEFT JOIN w USING (unit)
ORDER BY {_UNIT_ORDER}
"""

HANDS = """
SELECT count(*) AS hands, min(ts) AS first_ts, max(ts) AS last_ts,
       count(DISTINCT table_id) AS tables,
       count(*) FILTER (WHERE NOT awards_verified) AS unverified_awards
FROM hands WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)
"""

BY_PROFILE = """
SELECT coalesce(profile, '(not recorded)') AS profile, count(*) AS hands
FROM hands WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)
GROUP BY ALL ORDER BY hands DESC, profile
"""

FINDINGS_TOTAL = """
SELECT count(*) AS findings, count(*) FILTER (WHERE severity <> 'info') AS flagged,
       count(DISTINCT hand_id) AS hands_with_findings
FROM findings WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)
"""

# Findings per 10,000 hands audited, by category and severity.
BY_CATEGORY_SEVERITY = f"""
SELECT category, severity, count(*) AS findings,
       round(count(*) * 10000.0 / (SELECT count(*) FROM hands WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)), 2)
           AS per_10k
FROM findings WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)
GROUP BY category, severity
ORDER BY max({_SEVERITY_RANK}) DESC, findings DESC, category
"""

BY_RULE = f"""
SELECT rule_id, any_value(category) AS category, any_value(severity) AS severity,
       any_value(citation) AS citation, count(*) AS findings,
       count(DISTINCT hand_id) AS hands,
       round(count(*) * 10000.0 / (SELECT count(*) FROM hands WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)), 2)
           AS per_10k
FROM findings WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run)
GROUP BY rule_id
ORDER BY max({_SEVERITY_RANK}) DESC, findings DESC, rule_id
"""

# The worst hands of one rule: the largest chip delta first, then hand id.
WORST_HANDS = f"""
WITH {_UNITS}
SELECT f.hand_id, max(abs(coalesce(f.delta, 0))) AS worst_delta, count(*) AS findings,
       list(DISTINCT f.message ORDER BY f.message)[1:5] AS messages,
       coalesce(any_value(u.unit), 'chips') AS unit
FROM findings f LEFT JOIN units u USING (hand_id) WHERE f.run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) AND f.rule_id = $rule
GROUP BY f.hand_id
ORDER BY worst_delta DESC, f.hand_id
LIMIT $limit
"""

# The worst hands of every rule at once (WORST_HANDS for each rule_id, in one pass over the
# findings): the money unit is looked up for the hands shown only, not for every stored hand.
WORST_HANDS_BY_RULE = f"""
WITH w AS (
    SELECT f.rule_id, f.hand_id, max(abs(coalesce(f.delta, 0))) AS worst_delta,
           count(*) AS findings, list(DISTINCT f.message ORDER BY f.message)[1:5] AS messages
    FROM findings f WHERE f.run_id IN (
        SELECT member FROM run_members WHERE run_id = $run)
    GROUP BY f.rule_id, f.hand_id
), ranked AS (
    SELECT *, row_number() OVER (PARTITION BY rule_id ORDER BY worst_delta DESC, hand_id)
              AS place
    FROM w
), shown AS (SELECT * FROM ranked WHERE place <= $limit),
units AS (
    SELECT hand_id, any_value({MONEY_UNIT_SQL}) AS unit FROM hands_started
    WHERE hand_id IN (SELECT hand_id FROM shown) GROUP BY hand_id
)
SELECT s.rule_id, s.hand_id, s.worst_delta, s.findings, s.messages,
       coalesce(u.unit, 'chips') AS unit
FROM shown s LEFT JOIN units u USING (hand_id)
ORDER BY s.rule_id, s.place
"""

BY_DAY = """
WITH h AS (
    SELECT CAST(timezone('UTC', ts) AS DATE) AS day, count(*) AS hands
    FROM hands WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) GROUP BY day
), f AS (
    SELECT CAST(timezone('UTC', h.ts) AS DATE) AS day, count(*) AS findings,
           count(*) FILTER (WHERE f.severity <> 'info') AS flagged
    FROM findings f JOIN hands h ON h.run_id = f.run_id AND h.hand_id = f.hand_id
    WHERE f.run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) GROUP BY day
)
SELECT h.day, h.hands, coalesce(f.findings, 0) AS findings, coalesce(f.flagged, 0) AS flagged,
       round(coalesce(f.findings, 0) * 10000.0 / h.hands, 2) AS per_10k,
       round(coalesce(f.flagged, 0) * 10000.0 / h.hands, 2) AS flagged_per_10k
FROM h LEFT JOIN f ON h.day IS NOT DISTINCT FROM f.day
ORDER BY h.day NULLS LAST
"""

BY_TABLE = """
WITH h AS (
    SELECT table_id, count(*) AS hands FROM hands WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) GROUP BY table_id
), f AS (
    SELECT h.table_id, count(*) AS findings,
           count(*) FILTER (WHERE f.severity <> 'info') AS flagged
    FROM findings f JOIN hands h ON h.run_id = f.run_id AND h.hand_id = f.hand_id
    WHERE f.run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) GROUP BY h.table_id
)
SELECT h.table_id, h.hands, coalesce(f.findings, 0) AS findings,
       coalesce(f.flagged, 0) AS flagged,
       round(coalesce(f.findings, 0) * 10000.0 / h.hands, 2) AS per_10k,
       round(coalesce(f.flagged, 0) * 10000.0 / h.hands, 2) AS flagged_per_10k
FROM h LEFT JOIN f ON h.table_id IS NOT DISTINCT FROM f.table_id
ORDER BY flagged DESC, findings DESC, h.hands DESC, h.table_id NULLS LAST
"""

DEALER_LOGGED = """
SELECT count(*) AS n FROM information_schema.columns
WHERE table_name = 'events' AND column_name = 'dealer'
"""

# Only when the events carry a dealer column (none of today's importers log one).
BY_DEALER = """
WITH d AS (SELECT DISTINCT hand_id, dealer FROM events WHERE kind = 'hand_started'),
h AS (SELECT d.dealer, count(*) AS hands FROM hands JOIN d USING (hand_id)
      WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) GROUP BY d.dealer),
f AS (SELECT d.dealer, count(*) AS findings,
             count(*) FILTER (WHERE f.severity <> 'info') AS flagged
      FROM findings f JOIN d USING (hand_id) WHERE f.run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) GROUP BY d.dealer)
SELECT h.dealer, h.hands, coalesce(f.findings, 0) AS findings,
       coalesce(f.flagged, 0) AS flagged,
       round(coalesce(f.findings, 0) * 10000.0 / h.hands, 2) AS per_10k
FROM h LEFT JOIN f ON h.dealer IS NOT DISTINCT FROM f.dealer
ORDER BY flagged DESC, findings DESC, h.dealer
"""

# Chips misawarded: the sum of the positive deltas of wrong_award findings (what was overpaid;
# the matching underpayments are the negative deltas of the same pots), per money unit.
WRONG_AWARDS_TOTAL = """
SELECT count(*) AS findings, count(DISTINCT hand_id) AS hands
FROM findings WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) AND category = 'wrong_award'
"""

WRONG_AWARDS_BY_UNIT = f"""
WITH {_WRONG_AWARD_UNITS}, w AS (
    SELECT coalesce(u.unit, 'chips') AS unit,
           coalesce(sum(f.delta) FILTER (WHERE f.delta > 0), 0) AS chips,
           count(*) AS findings, count(DISTINCT f.hand_id) AS hands
    FROM findings f LEFT JOIN units u USING (hand_id)
    WHERE f.run_id IN (
        SELECT member FROM run_members WHERE run_id = $run) AND f.category = 'wrong_award'
    GROUP BY ALL
)
SELECT * FROM w ORDER BY {_UNIT_ORDER}
"""

WRONG_AWARDS_BY_TABLE = f"""
WITH {_WRONG_AWARD_UNITS}
SELECT h.table_id, coalesce(u.unit, 'chips') AS unit,
       coalesce(sum(f.delta) FILTER (WHERE f.delta > 0), 0) AS chips,
       count(DISTINCT f.hand_id) AS hands
FROM findings f JOIN hands h ON h.run_id = f.run_id AND h.hand_id = f.hand_id
LEFT JOIN units u ON u.hand_id = f.hand_id
WHERE f.run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) AND f.category = 'wrong_award'
GROUP BY ALL ORDER BY chips DESC, h.table_id NULLS LAST, unit
"""

WRONG_AWARDS_BY_DAY = f"""
WITH {_WRONG_AWARD_UNITS}
SELECT CAST(timezone('UTC', h.ts) AS DATE) AS day, coalesce(u.unit, 'chips') AS unit,
       coalesce(sum(f.delta) FILTER (WHERE f.delta > 0), 0) AS chips,
       count(DISTINCT f.hand_id) AS hands
FROM findings f JOIN hands h ON h.run_id = f.run_id AND h.hand_id = f.hand_id
LEFT JOIN units u ON u.hand_id = f.hand_id
WHERE f.run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) AND f.category = 'wrong_award'
GROUP BY ALL ORDER BY day NULLS LAST, unit
"""

QUARANTINE_BY_REASON = """
SELECT reason, count(*) AS rejected, count(DISTINCT source) AS files
FROM quarantine GROUP BY reason ORDER BY rejected DESC, reason
"""

QUARANTINE_TOTAL = "SELECT count(*) AS rejected, count(DISTINCT source) AS files FROM quarantine"

DATA_QUALITY = """
SELECT rule_id, message, count(*) AS findings, count(DISTINCT hand_id) AS hands
FROM findings WHERE run_id IN (
    SELECT member FROM run_members WHERE run_id = $run) AND category = 'data_quality'
GROUP BY rule_id, message ORDER BY findings DESC, rule_id, message
"""

ANONYMOUS_HANDS = """
SELECT count(DISTINCT hand_id) AS hands FROM events
WHERE kind = 'hand_started' AND detail LIKE '%players=anonymous%'
  AND hand_id IN (SELECT hand_id FROM hands WHERE run_id IN (
      SELECT member FROM run_members WHERE run_id = $run))
"""

PLAYERS = """
SELECT player FROM events WHERE player IS NOT NULL
UNION SELECT player FROM hand_players WHERE player IS NOT NULL
UNION SELECT player FROM findings WHERE player IS NOT NULL
UNION SELECT counterparty FROM findings WHERE counterparty IS NOT NULL
"""


def rows(
    con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Run one query; rows as dicts (only the parameters the SQL uses are bound)."""
    used = {k: v for k, v in (params or {}).items() if f"${k}" in sql}
    return con.sql(sql, params=used or None).to_arrow_table().to_pylist()


def one(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None
        ) -> dict[str, Any]:
    found = rows(con, sql, params)
    return found[0] if found else {}


def view_exists(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    found = one(con, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = $n",
                {"n": name})
    return bool(found.get("n"))
