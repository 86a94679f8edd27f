"""Issue 23, the report's rough edges: the trend chart has a real time axis, legends never cover
bars or lines, the by-table chart is left out when every bar would be equal, and the worst
examples' timelines are collapsed."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import html5lib
import pytest
from matplotlib.figure import Figure

from audit.ingest.pipeline import ingest
from audit.report import build_report, charts
from audit.run.runner import audit_store
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """The matplotlib figures the chart functions draw, kept open for inspection."""
    drawn: list[Figure] = []
    real = charts._svg

    def keep(fig: Figure, name: str) -> str:
        fig.canvas.draw()
        drawn.append(fig)
        return real(fig, name)

    monkeypatch.setattr(charts, "_svg", keep)
    return drawn


def day_rows(*days: date) -> list[dict[str, Any]]:
    return [{"day": d, "per_10k": 10.0 * (i + 1), "flagged_per_10k": 5.0 * (i + 1)}
            for i, d in enumerate(days)]


def test_trend_chart_spaces_days_by_time(figures: list[Figure]) -> None:
    # 1 and 2 November, then 10 November: the second gap is eight times the first
    charts.per_day(day_rows(date(2026, 11, 1), date(2026, 11, 2), date(2026, 11, 10)))
    ax = figures[0].axes[0]
    xs = [ax.transData.transform(xy)[0] for xy in ax.lines[0].get_xydata()]
    assert (xs[2] - xs[1]) == pytest.approx(8 * (xs[1] - xs[0]), rel=1e-6)


def test_trend_chart_leaves_a_day_of_unknown_date_to_the_table(figures: list[Figure]) -> None:
    rows = day_rows(date(2026, 11, 1), date(2026, 11, 3))
    rows.append({"day": None, "per_10k": 1.0, "flagged_per_10k": 0.0})
    assert 'data-chart="per-day"' in charts.per_day(rows)
    assert len(figures[0].axes[0].lines[0].get_xydata()) == 2


def overlaps(a: Any, b: Any) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("draw", [
    lambda: charts.category_severity([
        {"category": c, "severity": s, "per_10k": v}
        for c, s, v in (("wrong_award", "violation", 900.0), ("procedure", "warning", 650.0),
                        ("data_quality", "info", 120.0), ("irregularity", "critical", 40.0))]),
    lambda: charts.per_table([
        {"table_id": f"t{i}", "per_10k": 1000.0 - 50 * i, "flagged_per_10k": 900.0 - 60 * i}
        for i in range(8)]),
    lambda: charts.per_day(day_rows(date(2026, 11, 1), date(2026, 11, 2), date(2026, 11, 3))),
], ids=["category-severity", "per-table", "per-day"])
def test_legend_covers_no_bar_or_line(figures: list[Figure], draw: Any) -> None:
    draw()
    ax = figures[0].axes[0]
    legend = ax.get_legend().get_window_extent()
    assert not overlaps(legend, ax.get_window_extent())
    for artist in [*ax.patches, *ax.lines]:
        assert not overlaps(legend, artist.get_window_extent())


def test_by_table_chart_is_left_out_when_every_bar_is_equal() -> None:
    same = [{"table_id": f"t{i}", "per_10k": 0.0, "flagged_per_10k": 0.0} for i in range(5)]
    assert charts.per_table(same) == ""
    differ = [*same, {"table_id": "t9", "per_10k": 50.0, "flagged_per_10k": 0.0}]
    assert 'data-chart="per-table"' in charts.per_table(differ)


def test_report_of_one_table_says_why_it_has_no_by_table_chart(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    ingest([write_parquet(tmp_path / "hands.parquet", many_hands("h", 4))], store)
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    html = build_report(store)
    assert 'data-chart="per-table"' not in html
    assert 'id="by-table-no-chart"' in html and "the run has one table" in html


def test_worst_examples_timelines_are_collapsed(tmp_path: Path) -> None:
    from tests.report.test_report import make_store

    html = build_report(make_store(tmp_path / "store"))
    doc = html5lib.parse(html, namespaceHTMLElements=False)
    rules = doc.find(".//section[@id='rules']")
    assert rules is not None
    timelines = [p for p in rules.iter("pre") if p.get("class") == "timeline"]
    holders = [d for d in rules.iter("details")
               if any(p.get("class") == "timeline" for p in d.iter("pre"))]
    assert len(timelines) >= 3 and len(holders) == len(timelines)
    assert all(d.get("open") is None for d in holders)  # every one closed
    # what a reader needs without opening one: the hand and its findings
    assert "hand demo:3" in html and "!! VIOLATION POT-SPLIT-BY-CARDS" in html
