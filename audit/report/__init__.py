"""The compliance report (HTML) and the SQL surface (a DuckDB database file of the views).

Imported lazily: the charting library costs a second to import, and whoever wants only a hand's
timeline (audit.report.timeline: `poker-audit replay`, the library API) needs none of it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build_report", "collect", "sql_init", "write_report"]


def __getattr__(name: str) -> Any:
    if name in ("build_report", "collect", "write_report"):
        # here, not at the top: the charting library costs a second; timelines need none of it
        from audit.report import build

        return getattr(build, name)
    if name == "sql_init":
        # here, not at the top: DuckDB (~0.3 s) loads only when the SQL surface is asked for
        from audit.sql.sqlinit import sql_init

        return sql_init
    raise AttributeError(name)
