"""`build_report`: one self-contained HTML compliance report for an audit run.

Numbers come from DuckDB SQL over the store's views (audit.report.queries), charts from
matplotlib as inline SVG (audit.report.charts), worst examples from the replay timeline
(audit.report.timeline). With ``pseudonymize=True`` every player id, hand id and table id,
in tables,
timelines, messages and charts, is replaced by a keyed HMAC-SHA256 pseudonym and times are cut
to the minute (audit.privacy): all of the collected data passes the redactor before anything
is drawn or printed.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from audit import __version__
from audit.collusion.findings import NOTE_COLUMNS, collusion_story, lead_summary
from audit.errors import AuditError, AuditInputError, StoreError
from audit.privacy import Redactor, Roster, pseudonym_key
from audit.replay import Settings, hands_from_table, replay_hand
from audit.report import charts
from audit.report import queries as q
from audit.report.methodology import (
    NOT_AUDITABLE,
    checked_rules,
    enforced_within_rules,
    permitted_rules,
    rulebook_aliases,
    unchecked_rules,
    why_unchecked,
)
from audit.report.timeline import house_profile, load_hand, render_timeline
from audit.rules.catalog import CATALOG
from audit.rules.profiles import AUTO_PROFILE, load_profile
from audit.rules.registry import RULES
from audit.run.money import is_currency, unit_order
from audit.run.runner import batches_after, resolve_run
from audit.sql.query import connect
from audit.sql.roster import store_roster
from audit.store.dataset import Store, VerifyReport
from audit.store.outfile import check_output_path, write_output


class IntegrityCheckFailed(StoreError):
    """The report was written, but the store failed its integrity check at generation time (the
    report opens with a banner saying so): the CLI exits 1, as `verify` does."""

    exit_code = 1


WORST_EXAMPLES = 3  # hands shown with their timeline per rule id
TABLE_ROWS = 25  # rows shown of the long tables (the rest are counted)


def _store(store: Store | str | Path) -> Store:
    return store if isinstance(store, Store) else Store(Path(store))


_OVERLAY_AT_END = re.compile(r"\+([^+@/\\]+)@\d+$")
_VERSION_AT_END = re.compile(r"@\d+$")


def _profile_names(label: str) -> tuple[str, list[str]]:
    """`montana@1+ca-lowball@1+tournament@1` -> ("montana", ["ca-lowball"]); a run of the
    default `auto(montana@1+ca-lowball@1,pokerstars@1+ca-lowball@1,...)` -> ("auto",
    ["ca-lowball"])."""
    auto = label.startswith(AUTO_PROFILE + "(")
    if auto:
        label = label[len(AUTO_PROFILE) + 1:].split(",", 1)[0].rstrip(")")
    # read from the right: overlays are plain names, the base may be a file path holding
    # '+' or '@' (`/rules/a+b/x@y/house.toml@1+tournament@1`)
    label = label.removesuffix("+house")
    overlays: list[str] = []
    while (last := _OVERLAY_AT_END.search(label)) is not None:
        overlays.insert(0, last[1])
        label = label[:last.start()]
    base = _VERSION_AT_END.sub("", label)
    return AUTO_PROFILE if auto else base, [n for n in overlays if n != "tournament"]


def _stored_hands(con: Any, hand_ids: list[Any]) -> dict[str, Any]:
    """The stored events of the hands the report shows (HandEvents by hand id), read in one
    query rather than one per hand."""
    wanted = sorted({h for h in hand_ids if h is not None})
    if not wanted:
        return {}
    table = con.sql("SELECT * FROM events WHERE hand_id IN (SELECT unnest($ids)) "
                    "ORDER BY hand_id, seq", params={"ids": wanted}).to_arrow_table()
    return {hand.hand_id: hand for hand in hands_from_table(table)}


def _timeline(store: Store, hand_id: str, profile_label: str, hand: Any = None) -> str:
    """The readable replay of one hand (as `poker-audit replay`), under the run's profile
    (under an auto run, its room's). `hand`: its events already read (else read here)."""
    try:
        if hand is None:
            hand = load_hand(store, hand_id)
        name, overlays = _profile_names(profile_label)
        if name == AUTO_PROFILE:
            name = house_profile(hand)
        if (hand.game or {}).get("tournament"):
            overlays = [*overlays, "tournament"]
        result = replay_hand(hand, Settings(load_profile(name, overlays)), trace=True)
        return render_timeline(hand, result)
    except Exception as exc:  # a report must still be produced; say why this one is missing
        return f"(timeline unavailable for {hand_id}: {exc})\n"


def _integrity(store: Store, verify: VerifyReport) -> dict[str, Any]:
    """What the report says of the store's integrity check (its banner when it failed)."""
    return {
        "path": str(store.root.resolve()),
        "verify_ok": verify.ok,
        "verify_problems": [f"{v.kind}: {v.path} {v.detail}" for v in verify.problems][:20],
        "verify_count": len(verify.problems),
        # the files the integrity check found changed, missing or unlisted
        "verify_files": sorted({str(v.path) for v in verify.problems}),
    }


def collect(store: Store | str | Path, run: str = "latest") -> dict[str, Any]:
    """Every number and row of the report (player ids raw), from SQL over the views."""
    store = _store(store)
    if not store.exists():
        raise AuditInputError(f"no store at {store.root} (no manifest.jsonl)")
    run_id = resolve_run(store, run)
    if run_id is None:
        raise AuditInputError(
            f"no finished audit run in {store.root}; run "
            f'"poker-audit audit --store {store.root}" first'
        )
    p = {"run": run_id}
    con = connect(store)
    try:
        data: dict[str, Any] = {
            "run": q.one(con, q.RUN, p),
            "hands": q.one(con, q.HANDS, p),
            "by_profile": q.rows(con, q.BY_PROFILE, p),
            "findings": q.one(con, q.FINDINGS_TOTAL, p),
            "by_category_severity": q.rows(con, q.BY_CATEGORY_SEVERITY, p),
            "by_rule": q.rows(con, q.BY_RULE, p),
            "by_day": q.rows(con, q.BY_DAY, p),
            "by_table": q.rows(con, q.BY_TABLE, p),
            "dealer_logged": bool(q.one(con, q.DEALER_LOGGED)["n"]),
            "money": q.rows(con, q.MONEY_BY_UNIT, p),
            "wrong_awards": q.one(con, q.WRONG_AWARDS_TOTAL, p),
            "wrong_awards_by_unit": q.rows(con, q.WRONG_AWARDS_BY_UNIT, p),
            "wrong_awards_by_table": q.rows(con, q.WRONG_AWARDS_BY_TABLE, p),
            "wrong_awards_by_day": q.rows(con, q.WRONG_AWARDS_BY_DAY, p),
            "quarantine": q.one(con, q.QUARANTINE_TOTAL),
            "quarantine_by_reason": q.rows(con, q.QUARANTINE_BY_REASON),
            "data_quality": q.rows(con, q.DATA_QUALITY, p),
            "anonymous_hands": q.one(con, q.ANONYMOUS_HANDS, p)["hands"],
            "players": [r["player"] for r in q.rows(con, q.PLAYERS)],
        }
        data["by_dealer"] = q.rows(con, q.BY_DEALER, p) if data["dealer_logged"] else []
        worst_of: dict[str, list[dict[str, Any]]] = {}
        for row in q.rows(con, q.WORST_HANDS_BY_RULE, {**p, "limit": WORST_EXAMPLES}):
            worst_of.setdefault(row.pop("rule_id"), []).append(row)
        for rule in data["by_rule"]:
            rule["worst"] = worst_of.get(rule["rule_id"], [])
        shown = _stored_hands(con, [w["hand_id"] for r in data["by_rule"] for w in r["worst"]])
    finally:
        con.close()
    data["collusion"] = _collusion(store, run_id)
    records = store.records()
    data["store"] = {
        **_integrity(store, store.verify()),
        "head": store.head(),
        "records": len(records),
        # batches committed after the head the run audited (run records do not count)
        "changed_since_run": batches_after(records, str(data["run"].get("store_head"))) != 0,
    }
    profile = str(data["run"].get("profile") or "")
    for rule in data["by_rule"]:
        for worst in rule["worst"]:
            worst["timeline"] = _timeline(store, worst["hand_id"], profile,
                                          shown.get(worst["hand_id"]))
        spec = RULES.get(rule["rule_id"]) or CATALOG.get(rule["rule_id"])
        rule["text"] = spec.text if spec else ""
    return data


def _printable(text: str) -> str:
    """One line of printable text (a reader's error may quote bytes of the damaged file)."""
    return " ".join("".join(c if c.isprintable() else "?" for c in text).split())


def _collusion(store: Store, run_id: str) -> dict[str, Any]:
    """The "Collusion leads" section: the leads `poker-audit collusion` recorded for the run,
    ranked by q-value as it prints them (audit.collusion.collusion_story), and apart from them
    the single-hand pattern notes."""
    story = collusion_story(store, run_id)
    leads = lead_summary(story.leads).to_pylist()
    for row, full in zip(leads, story.leads.to_pylist(), strict=True):
        row["message"] = full["message"]
    return {"computed": story.computed, "leads": leads,
            "notes": story.notes.select(list(NOTE_COLUMNS)).to_pylist()}


def _fmt_int(value: Any) -> str:
    return f"{int(value or 0):,}"


def _fmt_num(value: Any) -> str:
    return f"{float(value or 0):,.2f}"


def _fmt_money(value: Any, unit: str, minor_per_unit: Any = None) -> str:
    """Minor units as the unit's money, integers only: `USD 1,234.56`, `1,234 tournament
    chips`. A unit whose minor units are not a power of ten is given in minor units."""
    minor = int(value or 0)
    if not is_currency(unit):
        return f"{minor:,} {unit}"
    mpu = int(minor_per_unit or 1)
    digits = len(str(mpu)) - 1
    if mpu <= 1 or mpu != 10 ** digits:
        return f"{unit} {minor:,} (minor units)"
    major, cents = divmod(abs(minor), mpu)
    return f"{unit} {'-' if minor < 0 else ''}{major:,}.{cents:0{digits}d}"


def _per_unit_bars(rows: list[dict[str, Any]], key: str, name: str) -> str:
    """One bar chart of chips misawarded per money unit (bars of two currencies never share an
    axis)."""
    units = sorted({r["unit"] for r in rows}, key=unit_order)
    return "".join(
        charts.chips_bars([r for r in rows if r["unit"] == u], key,
                          name if len(units) == 1 else f"{name}-{i + 1}", unit=u)
        for i, u in enumerate(units))


def _fmt_ts(value: Any) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return str(value)


def _env(pseudo: Redactor) -> Environment:
    def finalize(value: Any) -> Any:
        # Every value printed by the template passes here: player ids never slip through.
        if isinstance(value, Markup):
            return value
        return pseudo(value)

    env = Environment(
        loader=PackageLoader("audit.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=finalize,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["int"] = _fmt_int
    env.filters["num"] = _fmt_num
    env.filters["ts"] = _fmt_ts
    env.filters["money"] = _fmt_money
    return env


def build_report(
    store: Store | str | Path,
    run: str = "latest",
    *,
    pseudonymize: bool = False,
    key: str | bytes | None = None,
    now: datetime | None = None,
    collected: dict[str, Any] | None = None,
) -> str:
    """The HTML report of one audit run (`latest` or a run id), as one self-contained string.
    `collected`, when given, receives the raw data the report was built from (`collect`)."""
    secret = pseudonym_key(key) if pseudonymize else None  # fail before any work
    data = collect(store, run)
    if collected is not None:
        collected.update(data)
    roster = Roster()
    if secret is not None:
        roster = store_roster(_store(store)).extended(players=data["players"])
    pseudo = Redactor(secret, roster)
    data = pseudo(data)  # every row, timeline and label, before any chart is drawn
    # the leads' pairs, one edge each (the chart reads a weight and a severity per edge)
    pairs = [{"player_a": r["player"], "player_b": r["counterparty"], "findings": 1,
              "severity_rank": 1} for r in data["collusion"]["leads"]]
    chart = {
        "category": charts.category_severity(data["by_category_severity"]),
        "day": charts.per_day(data["by_day"]),
        "table": charts.per_table(data["by_table"]),
        "wrong_table": _per_unit_bars(data["wrong_awards_by_table"], "table_id",
                                      "wrong-awards-table"),
        "wrong_day": _per_unit_bars(data["wrong_awards_by_day"], "day", "wrong-awards-day"),
        "network": charts.pair_network(pairs) if pairs else "",
    }
    html = _env(pseudo).get_template("report.html.j2").render(
        d=data,
        chart={k: Markup(v) for k, v in chart.items()},
        checked=checked_rules(),
        within=enforced_within_rules(),
        permitted=permitted_rules(),
        unchecked=unchecked_rules(),
        why_unchecked=why_unchecked,
        aliases=rulebook_aliases(),
        not_auditable=NOT_AUDITABLE,
        pseudonymized=pseudo.enabled,
        generated_at=(now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M:%S UTC"),
        engine=__version__,
        table_rows=TABLE_ROWS,
        severities=q.SEVERITY_ORDER,
    )
    return html


def write_report(store: Store | str | Path, out: Path, run: str = "latest", *,
                 pseudonymize: bool = False, key: str | bytes | None = None) -> Path:
    """Build the report and write it to `out` (via a temporary file, so never half-written;
    an `out` inside the store is refused before anything is built). A store that fails its
    integrity check still gets its report, opening with a banner saying so, then
    IntegrityCheckFailed (exit 1) names the files."""
    store = _store(store)
    check_output_path(store, out)
    data: dict[str, Any] = {}
    try:
        html = build_report(store, run, pseudonymize=pseudonymize, key=key, collected=data)
    except AuditError:
        raise
    except Exception as exc:  # a damaged file the views cannot read: is the store tampered?
        verify = store.verify()
        if verify.ok:
            raise
        data["store"] = _integrity(store, verify)
        html = _env(Redactor(None, Roster())).get_template("unreadable.html.j2").render(
            d=data, error=_printable(str(exc))[:300], engine=__version__,
            generated_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"))
    written = write_output(store, out, html)
    integrity = data["store"]
    if not integrity["verify_ok"]:
        files = integrity["verify_files"]
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        raise IntegrityCheckFailed(
            f"the store failed its integrity check ({integrity['verify_count']} problem(s) in "
            f"{shown}); {written} was written with a banner saying so; run "
            f"`poker-audit verify --store {store.root}`")
    return written
