"""Open Hand History (OHH 1.4 JSON, the tracker-neutral standard) imported as events.

An `.ohh` file holds one `{"ohh": {...}}` object per line (JSON lines); a pretty-printed
object spread over several lines is accepted too.  The reader streams object by object,
parses numbers with `parse_float=Decimal` (never float) and yields a `Chunk` of about 5,000
whole hands.  A hand it cannot map is a `Rejected` (file, first line, reason, raw JSON).

Mapping (OHH -> events):

* hand_id: the extension `x_poker_audit_hand_id` when present (so a poker-audit export
  re-imports to the same id), else `ohh:<site slug>:<game_number>`.  table_id =
  `table_name`; ts = `start_date_utc` (ISO 8601; a naive time is UTC, noted in `source`).
* game: the extension `x_poker_audit_game` (the complete game struct of an exported hand)
  when present; otherwise game_type Holdem / Omaha / OmahaHiLo / Omaha5 / Omaha5HiLo ->
  holdem / omaha / omaha_hilo / omaha5 / omaha5_hilo (stud and draw are quarantined),
  bet_limit.bet_type NL / PL / FL -> structure, small_blind_amount / big_blind_amount /
  ante_amount, FL small_bet = big blind and big_bet = 2 big blinds (OHH has no limit
  fields; the usual structure, noted in `source`), dealer_seat -> button_seat,
  table_size -> seat_count, currency (3-letter code -> minor 100; `CHIPS` or none -> 1),
  tournament when `tournament_info` is present.
* players -> seat (amount = starting_stack, detail sitting_out for is_sitting_out).
* rounds in order; a round with `cards` (Flop, Turn, River...) first deals them as
  deal/board and starts a new betting round.  Actions: Dealt Cards -> deal/hole (no cards
  -> `??` per hole card); Post SB / Post BB / Post Ante / Post Dead / Straddle / Post Extra
  Blind -> post small_blind / big_blind / ante / dead / straddle / new_player; Fold, Check,
  Call, Bet, Raise; Shows Cards -> show; Mucks Cards -> muck; Added Chips, Sits Down,
  Stands Up, Sitting Out, Sitting In, Chat -> annotation.  `is_allin` -> detail all_in.
  Our reading of `amount` (OHH 1.4: "the amount put in with this action"): the chips ADDED
  by the action, for Raise too; total = the player's round total before + amount.  (Some
  writers put the raise-to total there; such files import as over-raises and the replay
  flags them, so the reading is visible, never silent.)  An action may carry
  `x_poker_audit_detail` (a detail OHH has no field for, e.g. `unrevealed`), and `x_total`
  (minor units, or null) when an export's round total is not the one derived here.
* pots in order: each player_wins entry -> award (win_amount) with detail `main` for pot 0
  and `side-k` for pot k, or the entry's `x_poker_audit_label` (`uncalled`, `main/high`...);
  pot `rake` -> rake, `jackpot` -> rake detail jackpot.
* hand_started / hand_ended detail: extensions `x_poker_audit_started_detail` /
  `x_poker_audit_ended_detail`, else none.
* An event OHH has no action for (a burn; the live layer's `chips` / `declare`) is the
  extension action `x_poker_audit_event` (`x_kind`, `player_id` or `x_player`, `x_amount` /
  `x_total` in minor units, `cards`, `x_poker_audit_detail`); the times of the events, when an
  export had more than the hand's start time, are the list `x_poker_audit_ts` (one ISO time or
  null per event, in order); `x_poker_audit_order` gives each event's place in the hand when
  OHH's layout puts it elsewhere (a rake before an award, an uncalled bet returned before the
  showdown): the i-th event read goes to place order[i].
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from audit.errors import AuditInputError
from audit.importers.base import (
    RAW_EXCERPT_CHARS,
    Chunk,
    KeptHand,
    Overlong,
    Rejected,
    bounded_lines,
    chunk_or_quarantine,
    not_utf8,
    over_hand_limit,
    over_line_limit,
    read_limits,
)

CHUNK_HANDS = 5000
_UTC = dt.UTC


class OhhMappingError(AuditInputError):
    """An OHH hand that cannot be mapped to events; the message is the quarantine reason."""


GAME_TYPES = {"Holdem": "holdem", "Omaha": "omaha", "OmahaHiLo": "omaha_hilo",
              "Omaha5": "omaha5", "Omaha5HiLo": "omaha5_hilo"}
BET_TYPES = {"NL": "no_limit", "PL": "pot_limit", "FL": "fixed_limit"}
POSTS = {"Post SB": "small_blind", "Post BB": "big_blind", "Post Ante": "ante",
         "Post Dead": "dead", "Straddle": "straddle", "Post Extra Blind": "new_player"}
BETS = {"Fold": "fold", "Check": "check", "Call": "call", "Bet": "bet", "Raise": "raise"}
NOTES = {"Added Chips": "adds_chips", "Sits Down": "sits_down", "Stands Up": "stands_up",
         "Sitting Out": "sits_out", "Sitting In": "sits_in", "Chat": "said"}
HOLE_COUNT = {"holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5}
_DEAD = ("ante", "dead")
_CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|\?\?|Xj)$")
# events an export writes as the extension action `x_poker_audit_event` (no OHH action says them)
_EXTENSION_KINDS = frozenset({"burn", "chips", "declare", "deal", "post", "draw", "stand_pat",
                              "rake", "complete", "pot_added"})
_GAME_INT = ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "bring_in",
             "straddle", "min_bet", "button_seat", "seat_count", "minor_per_unit", "level")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def _dec(value: Any, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise OhhMappingError(f"{what} must be a number, got {value!r}")
    return Decimal(value)


def _cards(value: Any, what: str) -> str | None:
    if value is None or value == []:
        return None
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise OhhMappingError(f"{what}: cards must be a list like ['Ah', 'Kd'], got {value!r}")
    out = []
    for c in value:
        c = c.strip()
        c = c[:1].upper() + c[1:].lower() if len(c) == 2 and c[0] != "?" else c
        if not _CARD.match(c):
            raise OhhMappingError(f"{what}: {c!r} is not a card")
        out.append(c)
    return " ".join(out)


def _game(ohh: dict[str, Any]) -> tuple[dict[str, Any], str]:
    ext = ohh.get("x_poker_audit_game")
    if isinstance(ext, dict):
        game = dict(ext)
        for k in _GAME_INT:
            v = game.get(k)
            if v is not None:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise OhhMappingError(f"x_poker_audit_game.{k} must be an integer, got {v!r}")
        return game, ""
    gt = ohh.get("game_type")
    variant = GAME_TYPES.get(str(gt))
    if variant is None:
        raise OhhMappingError(f"unsupported OHH game_type {gt!r} (supported: "
                              f"{', '.join(GAME_TYPES)})")
    limit = ohh.get("bet_limit") or {}
    bt = limit.get("bet_type") if isinstance(limit, dict) else None
    structure = BET_TYPES.get(str(bt))
    if structure is None:
        raise OhhMappingError(f"unknown bet_limit.bet_type {bt!r} (expected NL, PL or FL)")
    cur = ohh.get("currency")
    if isinstance(cur, str) and re.fullmatch(r"[A-Z]{3}", cur) and cur != "CHP":
        currency, mpu = cur, 100
    else:
        currency, mpu = "CHIPS", 1

    def minor(name: str) -> int | None:
        v = ohh.get(name)
        if v is None:
            return None
        d = _dec(v, name) * mpu
        if d != d.to_integral_value() or d < 0:
            raise OhhMappingError(f"{name} = {v} is not a whole number of minor units")
        return int(d)

    bb = minor("big_blind_amount")
    game: dict[str, Any] = {
        "variant": variant, "structure": structure,
        "small_blind": minor("small_blind_amount"), "big_blind": bb,
        "ante": minor("ante_amount") or 0,
        "button_seat": ohh.get("dealer_seat"), "seat_count": ohh.get("table_size"),
        "currency": currency, "minor_per_unit": mpu,
        "tournament": bool(ohh.get("tournament")) or ohh.get("tournament_info") is not None,
    }
    note = ""
    if structure == "fixed_limit" and bb:
        game.update(small_bet=bb, big_bet=2 * bb)
        note = ";small_bet/big_bet assumed to be 1 and 2 big blinds (OHH has no limit fields)"
    return game, note


def ohh_hand_to_events(doc: Any, *, source: str) -> list[dict[str, Any]]:
    """The event rows of one OHH hand (`{"ohh": {...}}` parsed with parse_float=Decimal)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("ohh"), dict):
        raise OhhMappingError('not an OHH hand: expected an object {"ohh": {...}}')
    ohh = doc["ohh"]
    game, note = _game(ohh)
    mpu = game.get("minor_per_unit") or 1
    hand_id = ohh.get("x_poker_audit_hand_id")
    if not isinstance(hand_id, str) or not hand_id:
        number = ohh.get("game_number")
        if number is None or number == "":
            raise OhhMappingError("missing game_number")
        hand_id = f"ohh:{_slug(str(ohh.get('site_name') or 'unknown'))}:{number}"
    ts = None
    when = ohh.get("start_date_utc")
    if isinstance(when, str) and when:
        try:
            ts = dt.datetime.fromisoformat(when.replace("Z", "+00:00"))
        except ValueError:
            raise OhhMappingError(f"start_date_utc {when!r} is not an ISO 8601 time") from None
        if ts.tzinfo is None:
            ts = ts.replace(tzinfo=_UTC)
            note += ";ts=naive start_date_utc read as UTC"
        ts = ts.astimezone(_UTC)
    table = ohh.get("table_name")
    rows: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        row = {"hand_id": hand_id, "seq": len(rows), "table_id": table, "kind": kind,
               "source": source}
        row.update(fields)
        rows.append(row)

    def minor(value: Any, what: str) -> int:
        d = _dec(value, what) * mpu
        if d != d.to_integral_value() or d < 0:
            raise OhhMappingError(f"{what} = {value} is not a whole number of minor units")
        return int(d)

    emit("hand_started", ts=ts, game=game, detail=ohh.get("x_poker_audit_started_detail"),
         source=source + note)
    players = ohh.get("players")
    if not isinstance(players, list) or not players:
        raise OhhMappingError("players must be a non-empty list")
    seat_of: dict[Any, tuple[int, str | None]] = {}
    for k, p in enumerate(players):
        if not isinstance(p, dict):
            raise OhhMappingError(f"players[{k}] is not an object")
        seat = p.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 127:
            raise OhhMappingError(f"players[{k}].seat {seat!r} is not a seat number")
        pid = p.get("id", seat)
        if pid in seat_of:
            raise OhhMappingError(f"player id {pid!r} repeats")
        name = p.get("name")
        seat_of[pid] = (seat, str(name) if name is not None else None)
        stack = p.get("starting_stack")
        emit("seat", seat=seat, player=seat_of[pid][1],
             amount=None if stack is None else minor(stack, f"players[{k}].starting_stack"),
             detail=p.get("x_poker_audit_detail") or (
                 "sitting_out" if p.get("is_sitting_out") else None))
    count = HOLE_COUNT.get(game.get("variant", ""), 2)
    round_total: dict[int, int] = {}
    rounds = ohh.get("rounds") or []
    if not isinstance(rounds, list):
        raise OhhMappingError("rounds must be a list")
    for r_i, rnd in enumerate(rounds):
        if not isinstance(rnd, dict):
            raise OhhMappingError(f"rounds[{r_i}] is not an object")
        board = _cards(rnd.get("cards"), f"rounds[{r_i}].cards")
        if board is not None:
            emit("deal", cards=board, detail="board")
            round_total = {}
        for a_i, act in enumerate(rnd.get("actions") or []):
            what = f"rounds[{r_i}].actions[{a_i}]"
            if not isinstance(act, dict):
                raise OhhMappingError(f"{what} is not an object")
            name = act.get("action")
            pid = act.get("player_id")
            if name == "x_poker_audit_deal" and pid is None:  # another run's board
                emit("deal", cards=_cards(act.get("cards"), what),
                     detail=act.get("x_poker_audit_detail"))
                continue
            if name == "x_poker_audit_annotation" and pid is None:
                emit("annotation", player=act.get("x_player"),
                     detail=act.get("x_poker_audit_detail"))
                continue
            if name == "x_poker_audit_event":  # an event OHH has no action for (a burn...)
                kind = act.get("x_kind")
                if kind not in _EXTENSION_KINDS:
                    raise OhhMappingError(f"{what}: x_kind {kind!r} is not one of "
                                          f"{', '.join(sorted(_EXTENSION_KINDS))}")
                if pid is not None and pid not in seat_of:
                    raise OhhMappingError(f"{what}: player_id {pid!r} is not in players")
                seat, player = seat_of[pid] if pid is not None else (None, act.get("x_player"))
                emit(kind, seat=seat, player=player, cards=_cards(act.get("cards"), what),
                     amount=_int_or_none(act.get("x_amount"), f"{what}.x_amount"),
                     total=_int_or_none(act.get("x_total"), f"{what}.x_total"),
                     detail=act.get("x_poker_audit_detail"))
                continue
            if pid not in seat_of:
                raise OhhMappingError(f"{what}: player_id {pid!r} is not in players")
            seat, player = seat_of[pid]
            who = {"seat": seat, "player": player}
            x_detail = act.get("x_poker_audit_detail")
            cards = _cards(act.get("cards"), what)
            if name == "Dealt Cards":
                emit("deal", cards=cards or " ".join(["??"] * count), detail="hole", **who)
            elif name in POSTS:
                detail = x_detail or POSTS[name]
                amount = minor(act.get("amount", 0), f"{what}.amount")
                total = None
                if detail not in _DEAD:
                    total = round_total.get(seat, 0) + amount
                    round_total[seat] = total
                if "x_total" in act:  # an export's total that differs from the derived one
                    total = _int_or_none(act["x_total"], f"{what}.x_total")
                emit("post", amount=amount, total=total, detail=detail, **who)
            elif name in BETS:
                kind = BETS[name]
                if kind in ("fold", "check"):
                    emit(kind, detail=x_detail, cards=cards, **who)
                    continue
                amount = minor(act.get("amount"), f"{what}.amount")
                total = round_total.get(seat, 0) + amount
                round_total[seat] = total
                if "x_total" in act:
                    total = _int_or_none(act["x_total"], f"{what}.x_total")
                emit(kind, amount=amount, total=total, cards=cards,
                     detail=x_detail or ("all_in" if act.get("is_allin") else None), **who)
            elif name == "Shows Cards":
                emit("show", cards=cards or " ".join(["??"] * count), detail=x_detail, **who)
            elif name == "Mucks Cards":
                emit("muck", cards=cards, detail=x_detail, **who)
            elif name in NOTES:
                label = NOTES[name]
                if label == "said":
                    label = f"said: {act.get('message', '')}"
                emit("annotation", detail=x_detail or label, **who)
            elif name == "x_poker_audit_annotation":
                emit("annotation", detail=x_detail, **who)
            else:
                raise OhhMappingError(f"{what}: unknown OHH action {name!r}")
    pots = ohh.get("pots") or []
    if not isinstance(pots, list):
        raise OhhMappingError("pots must be a list")
    rakes: list[tuple[int, str]] = []
    for p_i, pot in enumerate(pots):
        if not isinstance(pot, dict):
            raise OhhMappingError(f"pots[{p_i}] is not an object")
        number = pot.get("number", 0)
        for w_i, win in enumerate(pot.get("player_wins") or []):
            what = f"pots[{p_i}].player_wins[{w_i}]"
            pid = win.get("player_id") if isinstance(win, dict) else None
            if pid not in seat_of:
                raise OhhMappingError(f"{what}: player_id {pid!r} is not in players")
            seat, player = seat_of[pid]
            label = win.get("x_poker_audit_label") or (
                "main" if not number else f"side-{number}")
            emit("award", seat=seat, player=player,
                 amount=minor(win.get("win_amount"), f"{what}.win_amount"), detail=label)
        for key, detail in (("rake", "rake"), ("jackpot", "jackpot")):
            if pot.get(key):
                rakes.append((minor(pot[key], f"pots[{p_i}].{key}"), detail))
    for amount, detail in rakes:
        emit("rake", amount=amount, detail=detail)
    emit("hand_ended", detail=ohh.get("x_poker_audit_ended_detail"))
    order = ohh.get("x_poker_audit_order")
    if order is not None:
        if sorted(order) != list(range(len(rows))) if isinstance(order, list) else True:
            raise OhhMappingError(f"x_poker_audit_order must order the {len(rows)} events "
                                  f"(a permutation of 0..{len(rows) - 1})")
        placed: list[dict[str, Any]] = [{}] * len(rows)
        for row, at in zip(rows, order, strict=True):
            placed[at] = row
        for seq, row in enumerate(placed):
            row["seq"] = seq
        rows = placed
    times = ohh.get("x_poker_audit_ts")
    if times is not None:
        _event_times(rows, times)
    return rows


def _int_or_none(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise OhhMappingError(f"{what} must be an integer (minor units), got {value!r}")
    return value


def _event_times(rows: list[dict[str, Any]], times: Any) -> None:
    """The extension `x_poker_audit_ts`: each event's time (ISO 8601 or null), in order."""
    if not isinstance(times, list) or len(times) != len(rows):
        raise OhhMappingError(f"x_poker_audit_ts must list one time per event ({len(rows)})")
    for row, when in zip(rows, times, strict=True):
        if when is None:
            row["ts"] = None
            continue
        try:
            ts = dt.datetime.fromisoformat(str(when))
        except ValueError:
            raise OhhMappingError(f"x_poker_audit_ts: {when!r} is not an ISO 8601 time") from None
        row["ts"] = ts.astimezone(_UTC) if ts.tzinfo else ts.replace(tzinfo=_UTC)


def _loads(text: str) -> Any:
    """json.loads with exact decimals; JSON nested too deeply to parse is a syntax error of
    that hand, not a crash."""
    try:
        return json.loads(text, parse_float=Decimal)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply to read", text, 0) from None


class _Unread(Exception):
    """Input not parsed because it is over a read limit (the reason says which)."""


# what moves the nesting depth: brackets outside strings, quotes, and escapes inside strings
_STRUCTURE = re.compile(rb'\\.|["{}\[\]]', re.DOTALL)
_PER_LINE_COST = 64  # bytes a held line costs beyond its text (a list entry, a str header)


def _scan(line: bytes, depth: int, in_string: bool) -> tuple[int, bool, bool]:
    """(depth, in a string, came back to depth 0) after `line`: one pass over its structural
    characters, so holding an object open across lines costs linear time."""
    closed = False
    for m in _STRUCTURE.finditer(line):
        c = m.group()
        if c == b'"':
            in_string = not in_string
        elif in_string or len(c) > 1:
            continue
        elif c in b"{[":
            depth += 1
        else:
            depth -= 1
            closed = closed or depth <= 0
    return depth, in_string, closed


def _objects(path: Path) -> Iterator[tuple[int, str, Any]]:
    """(first line, raw text, parsed object, or the JSONDecodeError or _Unread) per JSON
    object. Each line is scanned once for its nesting depth and an object spread over lines
    is parsed once, when its outer bracket closes: linear time in the file (re-parsing the
    held text at every line cost quadratic time in an object never closed). An object past
    the hand limit is skipped to its end and given as _Unread; a line past the line limit
    ends the object in progress as _Unread."""
    limit = read_limits().hand_bytes
    buf: list[str] = []
    size = 0  # bytes held in buf (with a per-line cost)
    skipped = 0  # > 0: the object in progress is over the hand limit and no longer held
    depth, in_string = 0, False
    start = 0
    with path.open("rb") as f:
        for number, raw in enumerate(bounded_lines(f), start=1):
            if isinstance(raw, Overlong):
                yield (start if buf or skipped else number), "".join(buf) + raw.text(), \
                    _Unread(over_line_limit(number, raw.size))
                buf, size, skipped, depth, in_string = [], 0, 0, 0, False
                continue
            text = raw.decode("utf-8", errors="surrogateescape")
            if number == 1:
                text = text.lstrip("\ufeff")
            if not buf and not skipped:
                if not text.strip():
                    continue
                start = number
                if text.lstrip().startswith("{") and text.rstrip().endswith("}"):
                    try:  # one object per line (OHH JSON lines): parse it straight away
                        yield start, text, _loads(text)
                        continue
                    except json.JSONDecodeError:
                        pass  # maybe an object spread over lines: scanned below
            depth, in_string, closed = _scan(raw, depth, in_string)
            if skipped:
                skipped += len(raw)
            else:
                buf.append(text)
                size += len(raw) + _PER_LINE_COST
                if size > limit:
                    skipped = size
                    excerpt = "".join(buf)[:RAW_EXCERPT_CHARS]
                    buf = []
            if depth > 0 and not closed:
                continue
            if skipped:
                yield start, excerpt, _Unread(over_hand_limit(start, skipped))
            else:
                joined = "".join(buf)
                try:
                    yield start, joined, _loads(joined)
                except json.JSONDecodeError as exc:
                    yield start, joined, exc
            buf, size, skipped, depth, in_string = [], 0, 0, 0, False
    if skipped:
        yield start, excerpt, _Unread(over_hand_limit(start, skipped))
    elif buf and "".join(buf).strip():
        joined = "".join(buf)
        try:
            yield start, joined, _loads(joined)
        except json.JSONDecodeError as exc:
            yield start, joined, exc


class OhhImporter:
    """OHH JSON files: recognised by content, one hand object at a time."""

    name = "ohh"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """A JSON object whose first key is "ohh" (file name ignored)."""
        del path
        return re.match(rb'^(?:\xef\xbb\xbf)?\s*\{\s*"ohh"\s*:', head) is not None

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        rejected: list[Rejected] = []
        kept: list[KeptHand] = []
        for line, raw, obj in _objects(path):
            source = f"ohh:{path.name}:{line}"
            guess = re.search(r'"game_number"\s*:\s*"?([^",}]+)', raw)
            hand_id = f"ohh:?:{guess.group(1)}" if guess else None
            if isinstance(obj, _Unread):
                rejected.append(Rejected(source=str(path), line=line, hand_id=hand_id,
                                         raw=raw, reason=str(obj)))
                continue
            if isinstance(obj, json.JSONDecodeError):
                rejected.append(Rejected(
                    source=str(path), line=line, hand_id=hand_id, raw=raw,
                    reason=f"JSON syntax error at line {line + obj.lineno - 1}, column "
                           f"{obj.colno}: {obj.msg}"))
                continue
            if not_utf8(raw):
                rejected.append(Rejected(
                    source=str(path), line=line, hand_id=hand_id, raw=raw,
                    reason="the hand is not UTF-8 text (bytes that do not decode are not "
                           "replaced: two different names would read as one); re-export the "
                           "file as UTF-8"))
                continue
            try:
                hand_rows = ohh_hand_to_events(obj, source=source)
            except OhhMappingError as exc:
                rejected.append(Rejected(source=str(path), line=line, hand_id=hand_id,
                                         reason=str(exc), raw=raw))
                continue
            except Exception as exc:  # noqa: BLE001 - one bad hand never stops the file
                rejected.append(Rejected(source=str(path), line=line, hand_id=hand_id,
                                         reason=f"malformed OHH hand ({type(exc).__name__}: "
                                                f"{exc})", raw=raw))
                continue
            kept.append((hand_rows, [line] * len(hand_rows), line, hand_id, raw))
            if len(kept) >= self.chunk_hands:
                yield chunk_or_quarantine(kept, rejected, path)
                rejected, kept = [], []
        if kept or rejected:
            yield chunk_or_quarantine(kept, rejected, path)


IMPORTER = OhhImporter()
