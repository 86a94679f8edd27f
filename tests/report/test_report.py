"""The compliance report (issue 9): its numbers against SQL over the same run, pseudonymization,
HTML validity, the CLI commands, and a real headless Chromium rendering it."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import html5lib
import pyarrow as pa
import pytest
from click.testing import CliRunner

from audit.cli.demo import demo_inputs
from audit.cli.report import report_command
from audit.collusion import LEAD_SCHEMA, collusion_story, write_collusion_findings
from audit.errors import AuditInputError
from audit.ingest.pipeline import ingest
from audit.privacy import KEY_ENV, pseudonym
from audit.report import build_report
from audit.rules.catalog import CATALOG
from audit.rules.coverage import ENFORCED_WITHIN, PERMISSIONS
from audit.rules.registry import RULES
from audit.run.money import MONEY_UNIT_SQL, TOURNAMENT_CHIPS
from audit.run.runner import audit_store, resolve_run
from audit.sql.query import query
from audit.store.dataset import Store
from tests.support.money_store import EUR_HANDS, EUR_RAKE, USD_HANDS, USD_RAKE, make_money_store

CHROMIUM = Path("/usr/bin/chromium")
SECTIONS = ("cover", "summary", "rules", "wrong-awards", "collusion", "data-quality",
            "methodology")


def make_store(root: Path) -> Store:
    """The demo hands (samples + the HandHQ excerpt, one hand quarantined), audited once."""
    store = Store(root)
    ingest(demo_inputs(), store)
    audit_store(store, now=datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    return store


def add_collusion_findings(store: Store) -> None:
    """Record collusion leads for the run through the writer `poker-audit collusion` uses (its
    collusion_leads.parquet and collusion.parquet, committed to the chain with the run). The
    demo's pairs share too few hands for the tests to name any, so three leads are given."""
    run_id = str(resolve_run(store))
    pairs = query(store, """
        SELECT a.player AS p, b.player AS q, count(*) AS n, list(a.hand_id ORDER BY a.hand_id)
               AS hands FROM hand_players a
        JOIN hand_players b ON a.hand_id = b.hand_id AND a.player < b.player
        GROUP BY ALL ORDER BY n DESC, p, q LIMIT 3""").to_pylist()
    leads = [{
        "rank": i + 1, "run_id": run_id, "player_a": r["p"], "player_b": r["q"],
        "player": r["p"], "counterparty": r["q"], "pattern": "PATTERN-SOFTPLAY",
        "score": 10.0 - i, "p_value": 10.0 ** (i - 10), "q_value": 10.0 ** (i - 9),
        "hands": r["n"], "delta": None,
        "features": json.dumps({"softplay": {"n": r["n"], "observed": 0, "expected": 5.0,
                                             "p": 10.0 ** (i - 10)}}),
        "evidence_hand_ids": r["hands"][:3],
        "message": f"Lead, not a verdict: {r['p']} and {r['q']} never bet into each other",
        "team": [r["p"], r["q"]],
    } for i, r in enumerate(pairs)]
    write_collusion_findings(store, run_id, pa.Table.from_pylist(leads, schema=LEAD_SCHEMA))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return make_store(tmp_path_factory.mktemp("report") / "store")


@pytest.fixture(scope="module")
def collusion_store(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("collusion") / "store"
    shutil.copytree(store.root, root)
    copy = Store(root)
    add_collusion_findings(copy)
    return copy


@pytest.fixture(scope="module")
def html(store: Store) -> str:
    return build_report(store)


def kpis(html: str) -> dict[str, str]:
    """data-kpi -> data-value (or text) of every element the report marks as a number."""
    doc = html5lib.parse(html, namespaceHTMLElements=False)
    return {
        e.get("data-kpi"): (e.get("data-value") if e.get("data-value") is not None
                            else "".join(e.itertext()))
        for e in doc.iter() if e.get("data-kpi") is not None
    }


def sql(store: Store, text: str, **params: Any) -> list[dict[str, Any]]:
    return query(store, text, params or None).to_pylist()


def per10k(n: int, hands: int) -> float:
    return round(n * 10000 / hands, 2)


# ------------------------------------------------------------------------------- golden numbers


@pytest.mark.slow
def test_report_cover_numbers_match_the_store(store: Store, html: str) -> None:
    k = kpis(html)
    run = resolve_run(store)
    assert int(k["hands"]) == sql(store, "SELECT count(*) AS n FROM hands WHERE run_id = $r",
                                  r=run)[0]["n"] == 123
    assert int(k["manifest_records"]) == len(store.records())
    assert k["store_head"] == store.head()
    assert run in html
    assert "montana@1" in html
    tables = sql(store, "SELECT count(DISTINCT table_id) AS n FROM hands WHERE run_id = $r", r=run)
    assert int(k["tables"]) == tables[0]["n"]


def test_report_findings_per_10k_by_category_and_severity(store: Store, html: str) -> None:
    k = kpis(html)
    run = resolve_run(store)
    hands = sql(store, "SELECT count(*) AS n FROM hands WHERE run_id = $r", r=run)[0]["n"]
    expected = sql(store, """SELECT category, severity, count(*) AS n FROM findings
                             WHERE run_id = $r GROUP BY ALL""", r=run)
    assert expected
    for row in expected:
        key = f"{row['category']}:{row['severity']}"
        assert int(k[f"count:{key}"]) == row["n"]
        assert float(k[f"per10k:{key}"]) == per10k(row["n"], hands)
    total = sql(store, "SELECT count(*) AS n FROM findings WHERE run_id = $r", r=run)[0]["n"]
    assert int(k["findings"]) == total == 105
    flagged = sql(store, "SELECT count(*) AS n FROM findings WHERE run_id = $r "
                         "AND severity <> 'info'", r=run)[0]["n"]
    assert int(k["flagged"]) == flagged


def test_report_per_rule_day_and_table_counts(store: Store, html: str) -> None:
    k = kpis(html)
    run = resolve_run(store)
    by_rule = sql(store, "SELECT rule_id, count(*) AS n FROM findings WHERE run_id = $r "
                         "GROUP BY rule_id", r=run)
    # the same rules both ways: none missing from the report, none it made up
    assert {f"rule:{row['rule_id']}" for row in by_rule} == {x for x in k if x.startswith("rule:")}
    for row in by_rule:
        assert int(k[f"rule:{row['rule_id']}"]) == row["n"]
    by_day = sql(store, """SELECT strftime(timezone('UTC', h.ts), '%Y-%m-%d') AS day,
                                  count(f.rule_id) AS n
                           FROM hands h LEFT JOIN findings f USING (run_id, hand_id)
                           WHERE h.run_id = $r GROUP BY day""", r=run)
    assert {f"day:{row['day']}" for row in by_day} == {x for x in k if x.startswith("day:")}
    for row in by_day:
        assert int(k[f"day:{row['day']}"]) == row["n"]
    by_table = sql(store, """SELECT h.table_id, count(f.rule_id) AS n
                             FROM hands h LEFT JOIN findings f USING (run_id, hand_id)
                             WHERE h.run_id = $r GROUP BY h.table_id
                             ORDER BY n DESC LIMIT 5""", r=run)
    for row in by_table:
        assert int(k[f"table:{row['table_id']}"]) == row["n"]


@pytest.mark.slow
def test_report_wrong_awards_total_per_table_and_day(store: Store, html: str) -> None:
    k = kpis(html)
    run = resolve_run(store)
    deltas = [r["delta"] for r in sql(store, "SELECT delta FROM findings WHERE run_id = $r AND "
                                             "category = 'wrong_award'", r=run)]
    total = sum(d for d in deltas if d and d > 0)
    assert total == 700  # demo:3: bob was paid 7.00 that belonged to ann
    assert int(k["wrong_award_total:USD"]) == int(k["wrong_award_chips:USD"]) == total
    rows = sql(store, """SELECT h.table_id, strftime(timezone('UTC', h.ts), '%Y-%m-%d') AS day,
                                f.delta FROM findings f JOIN hands h USING (run_id, hand_id)
                         WHERE f.run_id = $r AND f.category = 'wrong_award'""", r=run)
    for key, field in (("wrong_table", "table_id"), ("wrong_day", "day")):
        sums: dict[str, int] = {}
        for r in rows:
            sums[r[field]] = sums.get(r[field], 0) + max(r["delta"] or 0, 0)
        for name, chips in sums.items():
            assert int(k[f"{key}:{name}:USD"]) == chips  # the demo's hands are all in dollars


def test_report_data_quality_numbers(store: Store, html: str) -> None:
    k = kpis(html)
    run = resolve_run(store)
    lines = [
        line for path in store.root.glob("quarantine/*/rejected.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    assert int(k["quarantined"]) == len(lines) == 1
    assert int(k["quarantine:1"]) == 1
    assert json.loads(lines[0])["reason"] in html
    unverified = sql(store, "SELECT count(*) AS n FROM hands WHERE run_id = $r "
                            "AND NOT awards_verified", r=run)[0]["n"]
    assert int(k["unverified_awards"]) == unverified


def test_report_sections_methodology_and_examples(store: Store, html: str) -> None:
    for section in SECTIONS:
        assert f'id="{section}"' in html
    assert "Not logged" in html  # no dealer column in the events
    assert 'id="collusion-none"' in html  # collusion was not computed for this store
    for rule_id in RULES:
        assert f'data-rule="{rule_id}"' in html
    for rule_id in set(CATALOG) - set(RULES) - set(ENFORCED_WITHIN) - set(PERMISSIONS):
        assert f'data-unchecked="{rule_id}"' in html
    for rule_id in PERMISSIONS:
        assert f'data-permitted="{rule_id}"' in html and f'data-unchecked="{rule_id}"' not in html
    assert "no hand log records deck changes" in html  # each unchecked rule's reason
    for rule_id in set(ENFORCED_WITHIN) - set(RULES):
        assert f'data-within="{rule_id}"' in html and f'data-unchecked="{rule_id}"' not in html
    assert "splashing the pot" in html  # RULEBOOK §7
    assert "hand demo:3" in html  # the worst wrong award, as its replay timeline
    assert "!! VIOLATION POT-SPLIT-BY-CARDS" in html
    assert html.count("<svg") >= 3


@pytest.mark.slow
def test_report_is_valid_html(html: str, collusion_store: Store) -> None:
    parser = html5lib.HTMLParser(strict=True)
    parser.parse(html)
    parser.parse(build_report(collusion_store))
    assert "http://" not in html.replace("http://www.w3.org/", "")  # nothing to fetch
    assert "https://" not in html


@pytest.mark.slow
def test_report_collusion_leads_ranked_with_network(collusion_store: Store) -> None:
    html = build_report(collusion_store)
    k = kpis(html)
    assert 'data-chart="pair-network"' in html
    leads = collusion_story(collusion_store).leads.to_pylist()
    assert len(leads) == 3
    for lead in leads:  # each lead's hands: the hands the pair played together
        assert int(k[f"lead:{lead['rank']}"]) == lead["hands"] > 0
    assert leads[0]["player"] in html


# ------------------------------------------------------------------------------- pseudonymization


@pytest.mark.slow
def test_report_pseudonymized_contains_no_raw_player_id(
    collusion_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "test-secret")
    html = build_report(collusion_store, pseudonymize=True)
    ids = {r["player"] for r in sql(collusion_store, "SELECT DISTINCT player FROM hand_players")}
    ids |= {r["p"] for r in sql(collusion_store, """SELECT player AS p FROM findings
            WHERE player IS NOT NULL UNION SELECT counterparty FROM findings
            WHERE counterparty IS NOT NULL""")}
    assert len(ids) > 100
    for player in ids:
        # As a whole token: "ann" must not appear as a name, but "announcements" is fine.
        assert not re.search(rf"(?<![\w+/=]){re.escape(player)}(?![\w+/=])", html), player
        if len(player) >= 8:
            assert player not in html, player
        assert pseudonym(player, b"test-secret") in html or player not in {"ann", "bob"}
    assert pseudonym("bob", b"test-secret") in html  # the overpaid seat of demo:3
    assert 'data-chart="pair-network"' in html


def test_report_pseudonymize_without_key_is_a_clear_error(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with pytest.raises(AuditInputError, match=KEY_ENV):
        build_report(store, pseudonymize=True)
    out = store.root.parent / "x.html"  # outside the store: an --out inside it is refused
    result = CliRunner().invoke(report_command, ["--store", str(store.root), "--out", str(out),
                                                 "--pseudonymize"])
    assert result.exit_code == 2
    assert KEY_ENV in result.output


@pytest.mark.slow
def test_report_command_writes_the_file(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(report_command, ["--store", str(store.root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = CliRunner().invoke(report_command, ["--store", str(store.root), "--run", "nope",
                                              "--out", str(out)])
    assert bad.exit_code == 2
    assert "no finished audit run" in bad.output


# ------------------------------------------------------------------------------- real browser


@pytest.mark.browser
@pytest.mark.slow
def test_report_in_headless_chromium(collusion_store: Store, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    out = tmp_path / "report.html"
    out.write_text(build_report(collusion_store), encoding="utf-8")
    problems: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("request", lambda r: problems.append(f"request {r.url}")
                    if not r.url.startswith(("file:", "data:")) else None)
            page.goto(out.as_uri(), wait_until="load")
            for section in SECTIONS:
                assert page.locator(f"#{section}").is_visible(), section
            charts = page.locator("svg.chart")
            assert charts.count() >= 5
            for i in range(charts.count()):
                chart = charts.nth(i)
                box = chart.bounding_box()
                assert box and box["width"] > 100 and box["height"] > 50
                assert chart.locator("path, text, use").count() > 5
            shot = tmp_path / "report.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            print(f"screenshot: {shot}")
        finally:
            browser.close()
    assert problems == []


# ------------------------------------------------------------------------------- tampered store


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def append_a_line(path: Path) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"reason": "added after the fact"}\n')


@pytest.mark.parametrize(("tamper", "pattern"), [
    (flip_a_byte, "events/*/*.parquet"),  # one flipped byte in an events file
    (append_a_line, "quarantine/*/rejected.jsonl"),  # a changed file the manifest lists
])
def test_report_on_a_tampered_store_opens_with_a_banner_and_exits_1(
    store: Store, tmp_path: Path, tamper: Any, pattern: str
) -> None:
    root = tmp_path / "store"
    shutil.copytree(store.root, root)
    victim = sorted(root.glob(pattern))[0]
    tamper(victim)
    name = victim.relative_to(root).as_posix()
    out = tmp_path / "report.html"
    result = CliRunner().invoke(report_command, ["--store", str(root), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "integrity check" in result.output and name in result.output
    assert "poker-audit verify" in result.output
    assert len(result.output.strip().splitlines()) == 1  # one line, no traceback
    html = out.read_text(encoding="utf-8")  # the report is still written, banner first
    html5lib.HTMLParser(strict=True).parse(html)
    doc = html5lib.parse(html, namespaceHTMLElements=False)
    main = doc.find(".//main")
    assert main is not None
    banner = main[0]
    assert banner.get("id") == "integrity-banner" and banner.get("role") == "alert"
    text = " ".join("".join(banner.itertext()).split())
    assert "Integrity check FAILED" in text and name in text
    assert f"poker-audit verify --store {root.resolve()}" in text


def test_report_on_an_intact_store_has_no_banner(html: str) -> None:
    assert 'id="integrity-banner"' not in html


# ------------------------------------------------------------------------------- money


@pytest.fixture(scope="module")
def money_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return make_money_store(tmp_path_factory.mktemp("money") / "store")[0]


def test_report_never_adds_money_across_currencies(money_store: Store) -> None:
    html = build_report(money_store)
    k = kpis(html)
    run = resolve_run(money_store)
    expected = sql(money_store, f"""
        SELECT {MONEY_UNIT_SQL} AS unit, count(*) AS hands, sum(h.pot) AS pot,
               sum(h.rake) AS rake
        FROM hands h JOIN hands_started s USING (hand_id) WHERE h.run_id = $r
        GROUP BY ALL""", r=run)
    assert {r["unit"] for r in expected} == {"USD", "EUR", TOURNAMENT_CHIPS}
    for r in expected:
        assert int(k[f"money:{r['unit']}:hands"]) == r["hands"]
        assert int(k[f"money:{r['unit']}:pot"]) == r["pot"]
        assert int(k[f"money:{r['unit']}:rake"]) == r["rake"]
    assert int(k["money:USD:rake"]) == USD_HANDS * USD_RAKE
    assert int(k["money:EUR:rake"]) == EUR_HANDS * EUR_RAKE
    # one wrong award of 240 cents (a 250 pot less 10 rake) and one of 250 tournament chips:
    # two totals, never "490"
    assert int(k["wrong_award_chips:USD"]) == int(k["wrong_award_total:USD"]) == 240
    assert int(k[f"wrong_award_chips:{TOURNAMENT_CHIPS}"]) == 250
    assert int(k[f"wrong_award_total:{TOURNAMENT_CHIPS}"]) == 250
    assert int(k["wrong_award_chips:EUR"]) == 0
    assert "490" not in {v for key, v in k.items() if "wrong" in key}
    assert "USD 2.40" in html and "250 tournament chips" in html
    # the misawards per table and per day carry their currency, and each unit has its chart
    assert int(k["wrong_table:usd-cash:USD"]) == 240
    assert int(k[f"wrong_day:2026-11-02:{TOURNAMENT_CHIPS}"]) == 250
    assert 'data-chart="wrong-awards-table-1"' in html
    assert 'data-chart="wrong-awards-table-2"' in html


@pytest.mark.browser
@pytest.mark.slow
def test_report_in_headless_chromium_collapsed_banner_and_currencies(
    store: Store, money_store: Store, tmp_path: Path
) -> None:
    """Issue 23 in a real browser: the worst examples' timelines are closed until clicked,
    a tampered store's report opens with the integrity banner, and money KPIs are per currency."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    plain = tmp_path / "plain.html"
    plain.write_text(build_report(store), encoding="utf-8")
    tampered_root = tmp_path / "tampered"
    shutil.copytree(store.root, tampered_root)
    append_a_line(sorted(tampered_root.glob("quarantine/*/rejected.jsonl"))[0])
    tampered = tmp_path / "tampered.html"
    assert CliRunner().invoke(report_command, ["--store", str(tampered_root), "--out",
                                               str(tampered)]).exit_code == 1
    money = tmp_path / "money.html"
    money.write_text(build_report(money_store), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})

            # collapsed timelines: none shown until its summary is clicked
            page.goto(plain.as_uri(), wait_until="load")
            timelines = page.locator("#rules pre.timeline")
            assert timelines.count() >= 3
            assert not any(timelines.nth(i).is_visible() for i in range(timelines.count()))
            assert page.locator("#integrity-banner").count() == 0
            collapsed = page.evaluate("document.body.scrollHeight")
            page.locator("#rules details.timeline summary").first.click()
            assert timelines.first.is_visible()
            assert "!! VIOLATION" in page.locator("#rules").inner_text()
            page.evaluate("document.querySelectorAll('#rules details')"
                          ".forEach(d => d.open = true)")
            assert page.evaluate("document.body.scrollHeight") > collapsed + 1000

            # a tampered store: the banner comes first, above the cover, and names the file
            page.goto(tampered.as_uri(), wait_until="load")
            banner = page.locator("#integrity-banner")
            assert banner.is_visible()
            box, cover = banner.bounding_box(), page.locator("#cover").bounding_box()
            assert box and cover and box["y"] < cover["y"] and box["height"] > 40
            text = banner.inner_text()
            assert "Integrity check FAILED" in text and "rejected.jsonl" in text
            assert "poker-audit verify" in text
            colour = page.evaluate("getComputedStyle(document.getElementById("
                                   "'integrity-banner')).backgroundColor")
            assert colour == "rgb(253, 232, 230)"

            # per-currency KPIs: a row and a card per currency, tournament chips apart
            page.goto(money.as_uri(), wait_until="load")
            units = page.locator("#summary tr[data-unit]")
            assert [units.nth(i).get_attribute("data-unit") for i in range(units.count())] == [
                "EUR", "USD", TOURNAMENT_CHIPS]
            for i in range(units.count()):
                assert units.nth(i).is_visible()
            assert "USD 0.30" in units.nth(1).inner_text()  # 3 hands x 10 cents of rake
            assert "EUR 0.30" in units.nth(0).inner_text()  # 2 hands x 15 cents
            cards = page.locator("#summary .kpi").all_inner_texts()
            assert any("USD 2.40" in c for c in cards)
            assert any("250 tournament chips" in c for c in cards)
        finally:
            browser.close()
