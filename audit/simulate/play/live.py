"""Live tables for simulated hands: the physical layer (`declare`, `chips`) a dealer tablet would
log before each betting action, drawn the canonical way (the words then one motion, or the exact
chips in one motion), plus labelled live-table violations for the accuracy scorecard.

Works on finished event tables, so the simulator proper is untouched:
`add_physical_layer_table` renders an events table, `simulate_live` is `simulate` for live
tables (`poker-audit simulate --live`). A canonical physical layer agrees with the logged
actions, so the live rulings (audit/replay/live/tracker.py) must find nothing in it; each planted
violation changes only the physical layer and is labelled with the rule that must catch it.
Deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime
from math import gcd
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.rules.ids import (
    BET_NL_DENOM,
    BET_NL_UNDERMIN_FIX,
    BET_UNDERSIZE_FIX,
    CHIP_FORWARD_MOTION,
    CHIP_FULL_PLUS_HALF,
    CHIP_GROSS_MISUNDERSTANDING,
    CHIP_MIN_UNIT,
    CHIP_RAP,
    CHIP_RELEASE_BINDING,
    CHIP_SINGLE_CHIP_BET,
    CHIP_SINGLE_OVERSIZE_CALL,
    DRAW_CHANGE_COUNT,
    STRING_BIGBET_MULTIMOVE,
    STRING_RAISE,
    TURN_RIGHT_TO_ACT,
    VERBAL_BIGBET_DISCREPANCY,
    VERBAL_BINDING,
)
from audit.schema import events_schema
from audit.simulate.play.sim import LABEL_SCHEMA, SimSummary, simulate
from audit.store.dataset import Store

# The live violations this module can plant, each caught by the rule id of the same name.
LIVE_INJECTORS: tuple[str, ...] = (
    STRING_RAISE, VERBAL_BINDING, CHIP_SINGLE_OVERSIZE_CALL, VERBAL_BIGBET_DISCREPANCY,
    CHIP_RELEASE_BINDING, CHIP_SINGLE_CHIP_BET, CHIP_FULL_PLUS_HALF,
    STRING_BIGBET_MULTIMOVE, BET_NL_UNDERMIN_FIX, CHIP_GROSS_MISUNDERSTANDING,
    CHIP_FORWARD_MOTION, TURN_RIGHT_TO_ACT, CHIP_RAP, BET_UNDERSIZE_FIX,
    CHIP_MIN_UNIT, BET_NL_DENOM, DRAW_CHANGE_COUNT,
)
_ACTIONS = frozenset({"fold", "check", "call", "bet", "raise", "complete"})
_WAGERS = frozenset({"bet", "raise", "complete"})
_NO_ROUND_TOTAL = frozenset({"ante", "dead", "missed_small"})
_BIG_BET = frozenset({"no_limit", "pot_limit"})
_SAID = {"fold": "fold", "check": "check", "call": "call"}


@dataclass(frozen=True, slots=True)
class _Facing:
    """What a logged betting action faced, as the log shows it."""

    cur: int  # the bet to match this round
    mine: int  # the actor's round total before it
    stack: int  # the actor's chips behind before it (huge when the log has no stacks)
    round: int  # betting round number within the hand
    wagers: int  # bets and raises already made this round (a big blind counts as the bet)
    inc: int  # the last full increment of the round (big bet: the minimum raise)
    first: bool  # the actor's first action this round


def _facing(rows: list[dict[str, Any]]) -> dict[int, _Facing]:
    """Per betting action (row index): what it faced."""
    out: dict[int, _Facing] = {}
    bet: dict[int, int] = {}
    stack: dict[int, int] = {}
    acted: set[int] = set()
    cur = wagers = inc = rnd = 0
    after_action = False
    for i, r in enumerate(rows):
        kind, seat, total = r["kind"], r.get("seat"), r.get("total")
        # a new betting round: a board card, or (stud, draw) the first card or draw after betting
        if (kind == "deal" and (r.get("detail") == "board" or seat is None)) or (
                after_action and kind in ("deal", "draw", "stand_pat")):
            if bet or after_action:
                rnd += 1
            bet, cur, wagers, inc, acted = {}, 0, 0, 0, set()
        if kind != "burn":
            after_action = kind in _ACTIONS
        if kind == "seat" and seat is not None:
            stack[seat] = r.get("amount") or (1 << 40)
        elif kind == "post" and seat is not None:
            stack[seat] = stack.get(seat, 1 << 40) - (r.get("amount") or 0)
            if total is not None and r.get("detail") not in _NO_ROUND_TOTAL:
                bet[seat] = total
                if total > cur:  # a blind is a bet from nothing: the big blind sets the size
                    inc, cur = max(inc, total), total
                    wagers = 1
        elif kind in _ACTIONS and seat is not None:
            out[i] = _Facing(cur, bet.get(seat, 0), stack.get(seat, 1 << 40), rnd, wagers, inc,
                             seat not in acted)
            acted.add(seat)
            stack[seat] = stack.get(seat, 1 << 40) - (r.get("amount") or 0)
            if total is not None and kind != "fold":
                bet[seat] = total
                if total > cur:
                    if kind in _WAGERS and r.get("detail") != "all_in":
                        inc = max(inc, total - cur)
                        wagers += 1
                    cur = total
    return out


def _next_actors(rows: list[dict[str, Any]], facing: dict[int, _Facing], i: int
                 ) -> list[int]:
    """The rows of the first later action of each other seat in the same round as row i."""
    seen = {rows[i].get("seat")}
    out = []
    for j in sorted(k for k in facing if k > i and facing[k].round == facing[i].round):
        if rows[j].get("seat") not in seen:
            seen.add(rows[j].get("seat"))
            out.append(j)
    return out


def _words(r: dict[str, Any]) -> str | None:
    """The words that say logged action `r` exactly."""
    if r["kind"] in _WAGERS and r.get("total") is not None:
        return f"raise to {r['total']}" if r["kind"] != "bet" else f"bet {r['total']}"
    return _SAID.get(r["kind"])


def _fits(rule: str, rows: list[dict[str, Any]], facing: dict[int, _Facing], i: int,
          game: dict[str, Any]) -> bool:
    """Whether live violation `rule` can be planted before logged action i so that the live
    rulings must find exactly it (sizes the log shows, chips he has, raising still open)."""
    r, f = rows[i], facing[i]
    kind, added, total = r["kind"], r.get("amount") or 0, r.get("total")
    allin = r.get("detail") == "all_in"
    structure = game.get("structure") or "no_limit"
    big_bet = structure in _BIG_BET
    owed = f.cur - f.mine
    bb = max(game.get("big_blind") or 0, game.get("min_bet") or 0)
    small = game.get("small_bet") or game.get("big_blind") or 0
    wager = kind in _WAGERS and total is not None and not allin and added >= 2
    if rule in (STRING_RAISE, VERBAL_BINDING, CHIP_SINGLE_OVERSIZE_CALL):
        return owed > 0 and wager
    if rule == VERBAL_BIGBET_DISCREPANCY:
        return owed > 0 and wager and structure != "fixed_limit"
    if rule == CHIP_RELEASE_BINDING:
        return owed > 0 and kind == "fold"
    if rule == CHIP_SINGLE_CHIP_BET:  # a silent chip bigger than the logged bet
        return structure == "no_limit" and f.cur == 0 and wager and f.stack > added + bb > 0
    if rule == CHIP_FULL_PLUS_HALF:  # a call plus half a bet in several chips
        return (structure == "fixed_limit" and bool(game.get("big_blind")) and kind == "call"
                and not allin and f.first and owed > 0 and 2 <= f.inc and f.wagers < 3
                and f.stack > owed + f.inc)
    if rule == STRING_BIGBET_MULTIMOVE:  # not a minimum raise: the first motion is less
        return big_bet and wager and total is not None and total - f.cur > max(f.inc, bb)
    if rule == BET_NL_UNDERMIN_FIX:  # chips under the minimum bet, the log bets more
        return big_bet and f.cur == 0 and wager and bb >= 2 and total is not None \
            and total > bb and f.first
    if rule == CHIP_GROSS_MISUNDERSTANDING:
        return big_bet and kind == "call" and not allin and owed >= 2 and f.stack > owed
    if rule == CHIP_FORWARD_MOTION:  # held chips, the next player acts on them, a check
        nxt = _next_actors(rows, facing, i)
        return (structure == "fixed_limit" and kind in ("check", "fold")
                and f.stack > small
                and bool(nxt) and nxt[0] == min(k for k in facing if k > i)
                and rows[nxt[0]]["kind"] in _SAID)
    if rule == TURN_RIGHT_TO_ACT:  # three players declare their actions out of turn
        return len(_next_actors(rows, facing, i)) >= 3
    if rule == CHIP_RAP:
        return owed == 0 and wager
    if rule == BET_UNDERSIZE_FIX:  # chips short of the bet released, then a check
        return (structure == "fixed_limit" and kind == "check" and f.cur == 0 and small >= 2
                and f.stack > small)
    if rule == CHIP_MIN_UNIT:  # a chip the house's smallest unit does not divide
        return wager and _unit(rows) >= 2
    if rule == BET_NL_DENOM:  # a chip smaller than the house's wager chip, not in quantity
        return big_bet and wager and added >= 3
    return False


def _draw_count(r: dict[str, Any]) -> int:
    """The number of cards a logged `draw` or `stand_pat` takes."""
    if r["kind"] == "stand_pat":
        return 0
    return r["amount"] if r.get("amount") is not None else len((r.get("cards") or "").split())


def _draw_changes(rows: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Draw games: (row of a seat's draw, row of the next player's draw in the same draw).
    A count the first states before his draw is acted on when the next player states his."""
    out = []
    prev = None
    for i, r in enumerate(rows):
        if r["kind"] in ("draw", "stand_pat"):
            if prev is not None and rows[prev].get("seat") != r.get("seat"):
                out.append((prev, i))
            prev = i
        elif r["kind"] in _ACTIONS:
            prev = None  # betting between: the next draw starts afresh
    return out


def _unit(rows: list[dict[str, Any]]) -> int:
    """The largest unit every bet and raise total of the hand is a multiple of."""
    unit = 0
    for r in rows:
        if r["kind"] in _WAGERS and r.get("total"):
            unit = gcd(unit, r["total"])
    return unit


def _canonical(r: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """What a player does at the table for a logged action, the way that leaves no doubt."""
    added = r.get("amount") or 0
    words = _words(r)
    style = rng.choice(("words", "chips", "both", "none"))
    out = []
    if words and style in ("words", "both"):
        out.append({"kind": "declare", "detail": words})
    if added and style in ("chips", "both"):
        out.append({"kind": "chips", "amount": added, "detail": None})
    return out


def _planted(rule: str, rows: list[dict[str, Any]], facing: dict[int, _Facing], i: int,
             game: dict[str, Any], rng: random.Random
             ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The physical events of one live violation, placed before logged action i, and the
    house settings the hand needs for it (game.house_overrides)."""
    r, f = rows[i], facing[i]
    cur, mine = f.cur, f.mine
    added = r.get("amount") or 0
    if rule == STRING_RAISE:
        cut = rng.randint(1, added - 1)
        return [{"kind": "chips", "amount": cut, "detail": None},
                {"kind": "chips", "amount": added - cut, "detail": None}], {}
    if rule == VERBAL_BINDING:
        return [{"kind": "declare", "detail": "call"},
                {"kind": "chips", "amount": added, "detail": None}], {}
    if rule == CHIP_SINGLE_OVERSIZE_CALL:
        return [{"kind": "chips", "amount": added, "detail": f"1x{added}"}], {}
    if rule == VERBAL_BIGBET_DISCREPANCY:
        said = (r.get("total") or mine + added) + max(1, cur - mine)
        return [{"kind": "declare", "detail": f"raise to {said}"},
                {"kind": "chips", "amount": added, "detail": None}], {}
    if rule == CHIP_RELEASE_BINDING:  # the full call released into the pot, then the fold
        return [{"kind": "chips", "amount": cur - mine, "detail": None}], {}
    if rule == CHIP_SINGLE_CHIP_BET:
        bb = max(game.get("big_blind") or 0, game.get("min_bet") or 0)
        chip = added + bb
        return [{"kind": "chips", "amount": chip, "detail": f"1x{chip}"}], {}
    if rule == CHIP_FULL_PLUS_HALF:
        extra = rng.randint((f.inc + 1) // 2, f.inc - 1) if f.inc > 2 else 1
        return [{"kind": "chips", "amount": cur - mine + extra, "detail": None}], {}
    if rule == STRING_BIGBET_MULTIMOVE:
        cut = rng.randint(1, added - 1)
        return [{"kind": "declare", "detail": "raise"},
                {"kind": "chips", "amount": cut, "detail": None},
                {"kind": "chips", "amount": added - cut, "detail": None}], \
            {"nl.multimotion": "single_motion"}
    if rule == BET_NL_UNDERMIN_FIX:
        bb = game.get("big_blind") or 2
        return [{"kind": "chips", "amount": rng.randint(1, bb - 1), "detail": None}], {}
    if rule == CHIP_GROSS_MISUNDERSTANDING:
        owed = cur - mine
        return [{"kind": "declare", "detail": "call"},
                {"kind": "chips", "amount": rng.randint(1, max(1, owed * 3 // 4 - 1)),
                 "detail": None}], {}
    if rule == CHIP_FORWARD_MOTION:
        j = _next_actors(rows, facing, i)[0]
        held = game.get("small_bet") or game.get("big_blind") or 1
        return [{"kind": "chips", "amount": held, "detail": f"1x{held} held"},
                {"kind": "declare", "detail": _words(rows[j]), "from": j}], {}
    if rule == TURN_RIGHT_TO_ACT:
        return [{"kind": "declare", "detail": _words(rows[j]), "from": j}
                for j in _next_actors(rows, facing, i)[:3]], {}
    if rule == CHIP_RAP:
        return [{"kind": "declare", "detail": "rap"}], {}
    if rule == BET_UNDERSIZE_FIX:
        small = game.get("small_bet") or game.get("big_blind") or 2
        return [{"kind": "chips", "amount": rng.randint(1, small - 1), "detail": None}], {}
    if rule == CHIP_MIN_UNIT:
        return [{"kind": "chips", "amount": added, "detail": f"1x{added - 1}+1x1"}], \
            {"chip.min_unit": _unit(rows)}
    # BET-NL-DENOM: one chip of the house's wager chip less one, and a 1 that does not play
    return [{"kind": "chips", "amount": added, "detail": f"1x{added - 1}+1x1"}], \
        {"nl.wager_denom": added - 1}


def _plan(rows: list[dict[str, Any]], rng: random.Random, injectors: tuple[str, ...],
          planted_so_far: Counter[str] | None = None,
          ) -> tuple[list[tuple[int, list[dict[str, Any]]]], tuple[int, str, Any] | None,
                     dict[str, Any]]:
    """Where the physical events of one hand go: [(index of the logged action, the events
    before it)], the planted violation as (index of its action, rule id, seat) or None, and
    the house settings the planted violation needs. Of the `injectors` that fit the hand,
    the one planted least so far goes in (rare situations, such as a held forward motion,
    still get planted), ties broken by the seeded rng."""
    facing = _facing(rows)
    game = rows[0]["game"]
    target = inject = None
    fitting: dict[str, list[int]] = {}
    changes = {d[0]: d for d in _draw_changes(rows)} if DRAW_CHANGE_COUNT in injectors \
        else {}
    for rule in injectors:
        picks = list(changes) if rule == DRAW_CHANGE_COUNT else \
            [i for i in facing if _fits(rule, rows, facing, i, game)]
        if picks:
            fitting[rule] = picks
    if fitting:
        counts = planted_so_far if planted_so_far is not None else Counter()
        least = min(counts[r] for r in fitting)
        inject = rng.choice([r for r in fitting if counts[r] == least])
        target = rng.choice(fitting[inject])
        counts[inject] += 1
    inserts = []
    house: dict[str, Any] = {}
    if inject == DRAW_CHANGE_COUNT and target is not None:
        # he states another count, the next player states his on it, then he draws
        nxt = changes[target][1]
        said = "pat" if _draw_count(rows[target]) else "draw one"
        n = _draw_count(rows[nxt])
        inserts.append((target, [{"kind": "declare", "detail": said},
                                 {"kind": "declare", "detail": f"draw {n}" if n else "pat",
                                  "from": nxt}]))
    for i in facing:  # in row order
        r = rows[i]
        if i == target:
            assert inject is not None
            extra, house = _planted(inject, rows, facing, i, game, rng)
        else:
            extra = _canonical(r, rng)
        if extra:
            inserts.append((i, extra))
    planted = (target, inject, rows[target].get("seat")) if target is not None and inject \
        else None
    return inserts, planted, house


_LIGHT = ("seq", "kind", "seat", "player", "amount", "total", "detail", "cards")
_GAME = ("structure", "big_blind", "min_bet", "small_bet")
_SLOTS = 4  # order-key slots per logged row: up to 3 physical events, then the row itself


def add_physical_layer_table(table: pa.Table, *, seed: int = 0, violations: float = 0.0,
                             injectors: tuple[str, ...] = LIVE_INJECTORS,
                             remap: dict[tuple[str, int], int] | None = None,
                             skip: frozenset[str] = frozenset(),
                             ) -> tuple[pa.Table, list[tuple]]:
    """An events table (hands contiguous, seq order) with a physical layer on every hand; a
    `violations` share of hands get one planted live violation. Labels are rows of the
    simulator's labels.parquet: (hand_id, seq, rule_id, seat, kind, primary). `remap`, when
    given, is filled with (hand_id, old seq) -> new seq for moving older labels along.
    Hands in `skip` (the simulator already broke a betting rule there) get no live
    violation: on an illegal raise the betting rule, not the live one, decides.

    Column-wise: the physical rows are `take`n from their action's row (hand, time, table,
    seat, player) and merged in by an order key, so no row of the input becomes a dict."""
    rng = random.Random(seed)
    n = table.num_rows
    if n == 0:
        return table, []
    hand_ids = table.column("hand_id").to_pylist()
    col = {c: table.column(c).to_pylist() for c in _LIGHT}
    games = table.column("game").combine_chunks()
    game_col = {k: games.field(k).to_pylist() for k in _GAME}
    house_at: dict[int, dict[str, Any]] = {}
    so_far: Counter[str] = Counter()
    src: list[int] = []
    slot: list[int] = []
    kinds: list[str] = []
    seats: list[int | None] = []
    names: list[str | None] = []
    amounts: list[int | None] = []
    details: list[str | None] = []
    counts: list[int] = []
    labels: list[tuple] = []
    start = 0
    for end in range(1, n + 1):
        if end < n and hand_ids[end] == hand_ids[start]:
            continue
        rows = [{c: col[c][i] for c in _LIGHT} for i in range(start, end)]
        rows[0]["game"] = {k: game_col[k][start] for k in _GAME}
        violate = bool(injectors) and rng.random() < violations
        hid = hand_ids[start]
        if hid in skip:
            violate = False
        inserts, planted, house = _plan(rows, rng, injectors if violate else (), so_far)
        if house:
            house_at[start] = house
        before = dict(inserts)
        shift = 0
        for j in range(end - start):
            for k, e in enumerate(before.get(j, ())):
                src.append(start + j)
                slot.append(k)
                who = start + e.get("from", j)  # another seat's declaration: his seat, name
                seats.append(col["seat"][who])
                names.append(col["player"][who])
                kinds.append(e["kind"])
                amounts.append(e.get("amount"))
                details.append(e.get("detail"))
                shift += 1
            if remap is not None:
                remap[(hid, rows[j]["seq"])] = j + shift
            if planted is not None and planted[0] == j:
                labels.append((hid, j + shift, planted[1], planted[2], f"live:{planted[1]}",
                               True))
        counts.append(end - start + shift)
        start = end
    schema = events_schema()
    table = table.cast(schema)
    if house_at:
        table = _with_house(table, house_at)
    phys = table.take(pa.array(src, pa.int64()))
    m = len(src)
    for name, values in (("kind", pa.array(kinds, pa.string())),
                         ("seat", pa.array(seats, schema.field("seat").type)),
                         ("player", pa.array(names, schema.field("player").type)),
                         ("amount", pa.array(amounts, schema.field("amount").type)),
                         ("detail", pa.array(details, pa.string())),
                         ("total", None), ("cards", None), ("game", None), ("source", None)):
        f = schema.field(name)
        phys = phys.set_column(schema.get_field_index(name), f,
                               values if values is not None else pa.nulls(m, f.type))
    keys = np.concatenate([np.arange(n, dtype=np.int64) * _SLOTS + (_SLOTS - 1),
                           np.asarray(src, dtype=np.int64) * _SLOTS + np.asarray(slot, np.int64)])
    merged = pa.concat_tables([table, phys]).append_column("_k", pa.array(keys))
    merged = merged.sort_by("_k").drop_columns(["_k"])
    sizes = np.asarray(counts, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    seq = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(starts, sizes)
    i = schema.get_field_index("seq")
    merged = merged.set_column(i, schema.field("seq"), pa.array(seq, schema.field("seq").type))
    return merged, labels


def _with_house(table: pa.Table, house_at: dict[int, dict[str, Any]]) -> pa.Table:
    """`table` with house settings merged into the game.house_overrides of the given rows
    (hand_started rows): a planted violation that exists only under a house rule."""
    i = table.schema.get_field_index("game")
    games = table.column(i).combine_chunks()
    overrides = games.field("house_overrides").to_pylist()
    for row, extra in house_at.items():
        merged = {**json.loads(overrides[row] or "{}"), **extra}
        overrides[row] = json.dumps(merged, sort_keys=True)
    gtype = games.type
    arrays = [pa.array(overrides, pa.string()) if gtype.field(k).name == "house_overrides"
              else games.field(k) for k in range(gtype.num_fields)]
    rebuilt = pa.StructArray.from_arrays(arrays, fields=list(gtype), mask=games.is_null())
    return table.set_column(i, table.schema.field(i), rebuilt)


def simulate_live(out: Path | str, *, live_violations: float = 0.0, **kwargs: Any) -> SimSummary:
    """`simulate` (same arguments) for live tables: the hands are simulated into a scratch
    store, then each of its batches is written to the new store at `out` with a physical
    layer on every hand (`live_violations` of them with a planted live violation), under the
    same deterministic batch ids, so the same seed still gives the same bytes. labels.parquet
    holds the simulator's labels (seqs moved along) and the live ones; colluders.parquet is
    copied. Memory is bounded by one event file, as in the simulator."""
    started = time.perf_counter()
    root = Path(out)
    dest = Store(root)
    if dest.exists():
        raise AuditInputError(f"{root} already holds an event store; simulate into a new "
                              "directory (or delete it first)")
    seed = int(kwargs.get("seed", 0))
    with tempfile.TemporaryDirectory(prefix="poker-audit-live-sim-") as tmp:
        scratch = Store(Path(tmp) / "store")
        summary = simulate(scratch.root, **kwargs)
        remap: dict[tuple[str, int], int] = {}
        labels: list[tuple] = []
        events = 0
        broken = frozenset(pq.read_table(scratch.root / "labels.parquet", columns=["hand_id"])
                           .column("hand_id").to_pylist())
        for k, record in enumerate(scratch.records()):
            with dest.locked():
                writer = dest.batch_writer(now=datetime.fromisoformat(record["created_at"]),
                                           batch_id=record["batch_id"])
                try:
                    for j, f in enumerate(record["files"]):
                        partition = f["path"].split("/")[1].removeprefix("date=")
                        live, planted = add_physical_layer_table(
                            pq.read_table(scratch.root / f["path"], schema=events_schema()),
                            seed=(seed * 1_000_003 + k) * 1_009 + j,
                            violations=live_violations, remap=remap, skip=broken)
                        labels += planted
                        events += live.num_rows
                        writer.write(partition, live)
                    writer.commit()
                except BaseException:
                    writer.abort()
                    raise
        old = pq.read_table(scratch.root / "labels.parquet").to_pylist()
        moved = [(r["hand_id"], remap.get((r["hand_id"], r["seq"]), r["seq"]), r["rule_id"],
                  r["seat"], r["kind"], r["primary"]) for r in old]
        _write_labels(root / "labels.parquet", moved + labels)
        if (scratch.root / "colluders.parquet").exists():
            shutil.copyfile(scratch.root / "colluders.parquet", root / "colluders.parquet")
    injected = {lab[0] for lab in moved + labels if lab[5]}
    return replace(summary, out=str(root), events=events, labels=len(moved) + len(labels),
                   injected_hands=len(injected), seconds=time.perf_counter() - started)


def _write_labels(path: Path, labels: list[tuple]) -> None:
    cols = list(zip(*labels, strict=True)) if labels else [[] for _ in LABEL_SCHEMA]
    table = pa.Table.from_arrays([pa.array(list(c), f.type) for c, f in
                                  zip(cols, LABEL_SCHEMA, strict=True)], schema=LABEL_SCHEMA)
    pq.write_table(table, path, compression="zstd")
