"""The report's charts: matplotlib figures rendered offline to inline SVG (text kept as text).

Every function takes plain rows (already pseudonymized where they name players) and returns an
SVG element as a string, ready to be placed in the HTML; no file, font or network is needed to
view it.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from audit.run.money import is_currency  # noqa: E402

SEVERITY_COLOURS = {
    "critical": "#7f0000",
    "violation": "#d7301f",
    "warning": "#fc8d59",
    "info": "#9ecae1",
}
_STYLE = {
    "svg.fonttype": "none",  # real <text>, so it is searchable, selectable and small
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
}


def _svg(fig: Figure, name: str) -> str:
    buf = io.StringIO()
    with plt.rc_context({"svg.hashsalt": f"poker-audit-{name}"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    start = text.index("<svg")  # drop the XML declaration and DOCTYPE: this goes inline
    svg = text[start:]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    return svg.replace("<svg ", f'<svg class="chart" data-chart="{name}" role="img" ', 1)


def _legend_outside(ax: Any) -> None:
    """The legend beside the plot, right of the axes, where it never covers a bar or a line."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)


def _short(label: object, width: int = 28) -> str:
    text = "(none)" if label is None else str(label)
    return text if len(text) <= width else text[: width - 1] + "…"


def category_severity(rows: Sequence[dict[str, Any]]) -> str:
    """Stacked horizontal bars: findings per 10,000 hands by category, stacked by severity."""
    categories = sorted({r["category"] for r in rows})
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * max(len(categories), 1)))
        left = [0.0] * len(categories)
        for severity in reversed(SEVERITY_COLOURS):
            values = [
                sum(float(r["per_10k"]) for r in rows
                    if r["category"] == c and r["severity"] == severity)
                for c in categories
            ]
            if any(values):
                ax.barh(categories, values, left=left, color=SEVERITY_COLOURS[severity],
                        label=severity)
                left = [a + b for a, b in zip(left, values, strict=True)]
        ax.set_xlabel("findings per 10,000 hands")
        ax.invert_yaxis()
        if rows:
            _legend_outside(ax)
        return _svg(fig, "category-severity")


def per_day(rows: Sequence[dict[str, Any]]) -> str:
    """Findings per 10,000 hands per UTC day, all findings and those above info, on a time axis:
    days are placed by date, so a gap of a week looks like a week (hands of unknown date are in
    the table only)."""
    dated = [r for r in rows if r["day"] is not None]
    days = [_as_date(r["day"]) for r in dated]
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7, 2.6))
        ax.plot(days, [float(r["per_10k"]) for r in dated], marker="o", color="#3182bd",
                label="all findings")
        ax.plot(days, [float(r["flagged_per_10k"]) for r in dated], marker="s",
                color="#d7301f", label="warning and above")
        locator = mdates.AutoDateLocator(minticks=2, maxticks=8)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
        if len(set(days)) == 1:  # one day: a day either side, so the point is not on the edge
            ax.set_xlim(days[0] - timedelta(days=1), days[0] + timedelta(days=1))
        ax.set_ylabel("per 10,000 hands")
        top = max((float(r["per_10k"]) for r in dated), default=0.0)
        ax.set_ylim(0, top * 1.15 or 1.0)  # room above the highest point
        if dated:
            _legend_outside(ax)
        return _svg(fig, "per-day")


def _as_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def all_bars_equal(rows: Sequence[dict[str, Any]], limit: int = 15) -> bool:
    """True when the by-table chart would show nothing but bars of one length (one table, or
    every table at the same rates): the table below it says all there is."""
    top = list(rows[:limit])
    return len({(float(r["per_10k"]), float(r["flagged_per_10k"])) for r in top}) <= 1


def per_table(rows: Sequence[dict[str, Any]], limit: int = 15) -> str:
    """The tables with the most findings above info (then most findings), per 10,000 hands;
    "" when every bar would be equal (`all_bars_equal`)."""
    if all_bars_equal(rows, limit):
        return ""
    top = list(rows[:limit])
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7, 0.6 + 0.3 * max(len(top), 1)))
        labels = [_short(r["table_id"]) for r in top]
        ax.barh(labels, [float(r["per_10k"]) for r in top], color="#9ecae1",
                label="all findings")
        ax.barh(labels, [float(r["flagged_per_10k"]) for r in top], color="#d7301f",
                label="warning and above")
        ax.invert_yaxis()
        ax.set_xlabel("findings per 10,000 hands at the table")
        _legend_outside(ax)
        return _svg(fig, "per-table")


def chips_bars(rows: Sequence[dict[str, Any]], key: str, name: str, limit: int = 15,
               unit: str = "") -> str:
    """Chips misawarded per `key` (table or day), in one money `unit` (never two on one axis)."""
    top = list(rows[:limit])
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7, 0.6 + 0.3 * max(len(top), 1)))
        ax.barh([_short(r[key]) for r in top], [int(r["chips"]) for r in top], color="#d7301f")
        ax.invert_yaxis()
        ax.set_xlabel(f"{unit} misawarded (minor units)" if is_currency(unit or "chips")
                      else f"{unit or 'chips'} misawarded")
        return _svg(fig, name)


def pair_network(pairs: Sequence[dict[str, Any]], limit: int = 25) -> str:
    """Node-link picture of the linked players: a node per player on a circle, an edge per lead
    (wider for more findings, darker for higher severity)."""
    top = list(pairs[:limit])
    players = sorted({p for r in top for p in (r["player_a"], r["player_b"])})
    n = max(len(players), 1)
    pos = {p: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n))
           for i, p in enumerate(players)}
    most = max((int(r["findings"]) for r in top), default=1)
    colours = ["#9ecae1", "#fc8d59", "#d7301f", "#7f0000"]
    with plt.rc_context({**_STYLE, "axes.grid": False}):
        fig, ax = plt.subplots(figsize=(6, 5))
        for r in top:
            (x1, y1), (x2, y2) = pos[r["player_a"]], pos[r["player_b"]]
            ax.plot([x1, x2], [y1, y2], color=colours[int(r["severity_rank"])],
                    linewidth=1 + 4 * int(r["findings"]) / most, alpha=0.8, zorder=1)
        ax.scatter([pos[p][0] for p in players], [pos[p][1] for p in players], s=120,
                   color="#3182bd", edgecolors="white", zorder=2)
        for p in players:
            x, y = pos[p]
            ax.annotate(_short(p, 22), (x, y), xytext=(6 * x, 6 * y), textcoords="offset points",
                        ha="left" if x >= 0 else "right", va="center", fontsize=8)
        ax.set_xlim(-1.8, 1.8)
        ax.set_ylim(-1.3, 1.3)
        ax.set_axis_off()
        return _svg(fig, "pair-network")
