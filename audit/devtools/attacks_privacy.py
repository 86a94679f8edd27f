"""Privacy attacks (issue 19, item 3): every `--pseudonymize` output searched for a real name.

Two stores: a simulated one with injected violations and colluding teams (findings whose
messages name players other than the finding's own), and one whose players have hostile names
(spaces, dots, non-ASCII letters, names starting or ending in punctuation, a name that is the
prefix of another, a name only quoted in a quarantine reason), site-style hand numbers, a table
named after a tournament and times with seconds. Every command that has `--pseudonymize`
(findings in each format, report, collusion, export in OHH and PHH) is run on both, and
everything it printed or wrote is searched for every player id, hand id and table id of the
store, and for a time with seconds.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import click
from click.testing import CliRunner
from markupsafe import escape

from audit.cli.main import main
from audit.devtools.attacks import Attack
from audit.devtools.faults import hands_table
from audit.ingest.pipeline import ingest
from audit.run.runner import audit_store
from audit.sql.query import query
from audit.store.dataset import Store

SUITE = "privacy"
KEY = "attack-key-9d1c"
# A time with its seconds: pseudonymised outputs carry times to the minute only (a format with
# seconds may still write ":00", which says nothing).
SECONDS = re.compile(r"\b\d\d:\d\d:(?!00\b)\d\d(?:\.\d+)?\b|\b\d\d:\d\d:\d\d\.\d*[1-9]")
# Hostile names: none is a whole token of the old matcher's kind on every side, and each is
# distinctive enough to be searched for as a plain substring.
HOSTILE_PLAYERS = ("Mr. Xyzzy", "Zoë Qwx", "-Dash_Qq-", "Ann_Qq", "Ann_Qq-b", "o'Brien Kz")
HOSTILE_TABLE = "T77123456 Table 9"
# A name only in quarantined input (a rejected row's reason quotes it): in no event, so in no
# roster taken from the events.
QUARANTINED_NAME = "Quentin Qzz"
HOSTILE_HAND_PREFIX = "site:8812345"


@dataclass(frozen=True, slots=True)
class Output:
    """What one command printed (stdout and stderr) and wrote (files), with its exit code."""

    label: str
    exit_code: int
    text: str


def pseudonymize_commands(main: click.Group) -> list[str]:
    """The names of every command (and subcommand) that takes --pseudonymize."""
    found = []
    for name, command in sorted(main.commands.items()):
        if isinstance(command, click.Group):
            found += [f"{name} {sub}" for sub in pseudonymize_commands(command)]
        elif any(p.name == "pseudonymize" for p in command.params):
            found.append(name)
    return found


def store_ids(store_root: Path) -> dict[str, set[str]]:
    """Every player, hand and table id of a store (what no pseudonymised output may show)."""
    store = Store(store_root)

    def ids(sql: str) -> set[str]:
        return {v for v in query(store, sql).column(0).to_pylist() if v}

    return {
        "player": ids("SELECT DISTINCT player FROM events WHERE player IS NOT NULL"),
        "hand": ids("SELECT DISTINCT hand_id FROM events"),
        "table": ids("SELECT DISTINCT table_id FROM events WHERE table_id IS NOT NULL"),
    }


def _written_forms(value: str) -> set[str]:
    """How an id may be written out: as is, HTML-escaped, JSON-escaped (ASCII or not)."""
    return {value, html.escape(value), html.escape(value, quote=False), str(escape(value)),
            json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}


def leaks(text: str, ids: dict[str, set[str]]) -> list[str]:
    """Each id found in `text` (as a plain substring: no token rule to slip past), and each
    time with seconds."""
    found = [f"{kind} {v!r}" for kind, values in ids.items() for v in sorted(values)
             if any(form in text for form in _written_forms(v))]
    return found + [f"time {m.group(0)}" for m in SECONDS.finditer(text)][:3]


def pseudonymized_outputs(store_root: Path, workdir: Path, *, export_hands: Iterable[str],
                          key: str = KEY, pseudonymize: bool = True) -> list[Output]:
    """Run every --pseudonymize command on the store (each findings format, report, collusion,
    export in OHH and PHH to stdout and to a file); what each printed and wrote. With
    `pseudonymize=False` the same commands without the flag (the outputs that do name)."""
    runner = CliRunner()
    env = {"POKER_AUDIT_PSEUDONYM_KEY": key}
    flag = ["--pseudonymize"] if pseudonymize else []
    store = ["--store", str(store_root)]
    workdir.mkdir(parents=True, exist_ok=True)
    report = workdir / "report.html"
    hands = list(export_hands)
    runs: list[tuple[str, list[str], Path | None]] = [
        *((f"findings --format {fmt}", ["findings", *store, "--format", fmt, *flag], None)
          for fmt in ("table", "csv", "json")),
        ("report", ["report", *store, "--out", str(report), *flag], report),
        *((f"collusion --format {fmt}", ["collusion", *store, "--min-hands", "1",
                                         "--format", fmt, *flag], None)
          for fmt in ("table", "json")),
    ]
    for fmt in ("ohh", "phh"):
        out = workdir / f"hands.{fmt}"
        runs += [(f"export --format {fmt}", ["export", *hands, *store, "--format", fmt, *flag],
                  None),
                 (f"export --format {fmt} --out", ["export", *hands, *store, "--format", fmt,
                                                   "--out", str(out), *flag], out)]
    outputs = []
    for label, args, written in runs:
        if written is not None and written.exists():
            written.unlink()
        result = runner.invoke(main, args, env=env)
        text = result.stdout + "\n" + result.stderr
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            text += f"\n{type(result.exception).__name__}: {result.exception}"
        if written is not None and written.exists():
            text += "\n" + written.read_text(encoding="utf-8")
        outputs.append(Output(label, result.exit_code, text))
    return outputs


def simulated_store(workdir: Path, hands: int = 240) -> Path:
    """A simulated store with injected violations and two colluding teams, audited, with its
    collusion findings recorded."""
    root = workdir / "sim-store"
    runner = CliRunner()
    for args in (["simulate", "--hands", str(hands), "--out", str(root), "--seed", "3",
                  "--variant", "mixed", "--structure", "mixed", "--violations", "0.3",
                  "--colluders", "2", "--tournament-share", "0.3", "--tables", "4"],
                 ["audit", "--store", str(root)],
                 ["collusion", "--store", str(root), "--min-hands", "1"]):
        result = runner.invoke(main, args)
        if result.exit_code not in (0, 1):
            raise RuntimeError(f"{' '.join(args[:1])} failed: {result.output[-500:]}")
    return root


def hostile_store(workdir: Path, hands: int = 12) -> Path:
    """A store of hold'em hands whose players, hand ids and table carry hostile names, with
    times that have seconds; every third pot short (findings), audited."""
    import datetime as dt

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = hands_table(HOSTILE_HAND_PREFIX, hands)
    hand_ids = table.column("hand_id").to_pylist()
    numbers = {h: i for i, h in enumerate(dict.fromkeys(hand_ids))}
    base = {"ann": 0, "bob": 1, "cat": 2}
    players = [None if p is None else HOSTILE_PLAYERS[(base[p] + numbers[h] * 3)
                                                      % len(HOSTILE_PLAYERS)]
               for p, h in zip(table.column("player").to_pylist(), hand_ids, strict=True)]
    start = dt.datetime(2026, 11, 1, 10, 0, 37, tzinfo=dt.UTC)
    times = [None if t is None else start + dt.timedelta(minutes=numbers[h], seconds=numbers[h])
             for t, h in zip(table.column("ts").to_pylist(), hand_ids, strict=True)]

    def put(t: pa.Table, name: str, values: pa.Array) -> pa.Table:
        i = t.schema.get_field_index(name)
        return t.set_column(i, t.schema.field(i), values)

    table = put(table, "player", pa.array(players, pa.string()))
    table = put(table, "ts", pa.array(times, table.schema.field("ts").type))
    table = put(table, "table_id", pc.if_else(pc.is_null(table.column("table_id")),
                                              pa.scalar(None, pa.string()), HOSTILE_TABLE))
    root = workdir / "hostile-store"
    src = workdir / "hostile.parquet"
    pq.write_table(table, src)
    store = Store(root)
    ingest([src], store)
    bad = workdir / "rejected.jsonl"
    bad.write_text(json.dumps({"hand_id": "site:99999", "seq": 0, "kind": "seat", "seat": 1,
                               "player": QUARANTINED_NAME, "amount": QUARANTINED_NAME}) + "\n",
                   encoding="utf-8")
    ingest([bad], store, fmt="events")
    audit_store(store)
    return root


def _summary(found: list[str]) -> str:
    """'2 player (e.g. 'ann'), 14 hand (e.g. 'ps:1')' from the leaks found."""
    by_kind: dict[str, list[str]] = {}
    for item in found:
        kind, _, value = item.partition(" ")
        by_kind.setdefault(kind, []).append(value)
    return ", ".join(f"{len(v)} {k} (e.g. {v[0]})" for k, v in by_kind.items())


def _case(name: str, store_root: Path, workdir: Path, hands: list[str],
          more_players: Iterable[str] = ()) -> list[Attack]:
    ids = store_ids(store_root)
    ids["player"] |= set(more_players)
    plain = pseudonymized_outputs(store_root, workdir / "plain", export_hands=hands,
                                  pseudonymize=False)
    named = sum(1 for o in plain if leaks(o.text, ids))
    attacks = []
    for output in pseudonymized_outputs(store_root, workdir / "pseudo", export_hands=hands):
        found = leaks(output.text, ids)
        crashed = output.exit_code not in (0, 1, 2) or "Traceback" in output.text
        missing = "No such option" in output.text  # not tried is not held
        attacks.append(Attack(
            suite=SUITE, case=f"{name}: {output.label} --pseudonymize",
            held=not found and not crashed and not missing,
            detail=(f"leaked {_summary(found)}" if found else
                    f"exit {output.exit_code}" if crashed else
                    "the command has no --pseudonymize" if missing else
                    f"no id of {sum(map(len, ids.values()))} ({named} of {len(plain)} outputs "
                    "name some without the flag)"),
        ))
    return attacks


def attacks(workdir: Path) -> list[Attack]:
    """Each --pseudonymize output of each store searched for real ids and times with seconds."""
    results = []
    sim = simulated_store(workdir)
    results += _case("simulated store", sim, workdir / "sim-out",
                     sorted(store_ids(sim)["hand"])[:3])
    hostile = hostile_store(workdir)
    results += _case("hostile names", hostile, workdir / "hostile-out",
                     sorted(store_ids(hostile)["hand"]), more_players=[QUARANTINED_NAME])
    covered = {"findings", "report", "collusion", "export"}
    missing = sorted(set(pseudonymize_commands(main)) - covered)
    results.append(Attack(suite=SUITE, case="every command with --pseudonymize is attacked",
                          held=not missing,
                          detail=f"not attacked: {', '.join(missing)}" if missing else
                          ", ".join(sorted(covered))))
    return results
