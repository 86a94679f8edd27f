"""Full Tilt Poker text hand histories imported as events (plus the site-text helpers).

A hand starts at a `Full Tilt Poker Game #N: ...` line and runs to the next one.  The reader
streams the file line by line, keeps one hand's lines at a time, maps it, and yields a
`Chunk` of about 5,000 whole hands.  A hand with any line it does not know is quarantined
whole (a `Rejected` with file, line, the offending line and the reason, raw text); the rest
of the file continues.

Mapping (Full Tilt line -> events; money exact: `Decimal` -> integer minor units):

* header `Full Tilt Poker Game #N: [tournament (id), ]Table T [(6 max)] - <stakes> - <game>
  - <h:mm:ss> ET - <yyyy/mm/dd>` (stakes and game may come in either order; `Ante $x` after
  the stakes) -> hand_started: hand_id `ftp:N`, table_id `T`, ts from ET
  (America/New_York, DST-aware; any other zone abbreviation maps to its fixed offset; an
  unknown one is read as UTC and `source` says so).  game: variant (Hold'em -> holdem,
  Omaha [Hi] -> omaha, Omaha Hi/Lo | H/L -> omaha_hilo), structure (NL / No Limit,
  PL / Pot Limit, Limit / FL), no-limit and pot-limit stakes are the blinds, fixed-limit
  stakes are small_bet/big_bet with big_blind = small bet and small_blind = the posted small
  blind; `$`/`€`/`£` -> USD/EUR/GBP with minor_per_unit 100, no symbol (tournament or play
  chips) -> CHIPS/1; tournament when the header names one; seat_count from `(N max)`.
  Stud, razz and draw games are quarantined ("unsupported Full Tilt game").
* `Seat N: name ($stack)[, is sitting out]` -> seat (detail sitting_out).
* posts: `posts the small blind of` -> small_blind, `posts the big blind of` -> big_blind,
  `posts a dead small blind of` -> dead (total null), `posts $x` -> new_player (live),
  `antes $x` -> ante (total null).  `, and is all in` -> detail stays the blind type.
* `*** HOLE CARDS ***` -> deal/hole for every seat not sitting out, in seat order: the
  `Dealt to` cards for the hero, `?? ??` (one `??` per hole card) for everyone else.
* `folds`, `checks`, `calls $x` (amount added), `bets $x`, `raises to $x` (total; amount =
  total - round total before); `, and is all in` or a stack spent to zero -> detail all_in.
* `*** FLOP *** [..]`, `*** TURN *** [..] [c]`, `*** RIVER *** [..] [c]` -> deal/board with
  the new cards only; a new betting round.
* `shows [cards]` -> show; `mucks` -> muck (with the dealt cards when known).
* `Uncalled bet of $x returned to name` -> award detail uncalled.
* `wins|ties for the [high|low] [main|side #k] pot ($x)` -> award detail main / side-k
  (`/high`, `/low` when the line says so).
* summary `Total pot $x ... | Rake $r` -> rake (when r > 0).  Full Tilt logs uncalled bets
  and rake explicitly, so hand_started has no implicit flags.
* Known harmless lines become `annotation`s (chat `said: ...`, `sits_out`, `sits_down`,
  `adds_chips`, `disconnected`, `reconnected`, `timed_out`, `returned`, `stands_up`,
  `requested_time`, ...) or are skipped as layout only (`*** SHOW DOWN ***`, low-hand
  descriptions `(8,7,4,3,A)`, the summary's `Board:` and `Seat N:` lines).
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from audit.errors import AuditInputError
from audit.importers.base import Chunk, Rejected
from audit.schema import events_table

CHUNK_HANDS = 5000
_UTC = dt.UTC

# --- shared by the site-text importers (fulltilt, partypoker, ipoker) -------------------


class SiteHandError(AuditInputError):
    """A site hand that cannot be mapped to events; the message is the quarantine reason."""


CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
FIXED_OFFSETS = {
    "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    "GMT": 0, "UTC": 0, "WET": 0, "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "EET": 2,
    "EEST": 3, "MSK": 3, "AEST": 10, "AEDT": 11,
}
NAMED_ZONES = {"ET": "America/New_York", "CT": "America/Chicago", "PT": "America/Los_Angeles"}
HOLE_COUNT = {"holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5}
_AMOUNT = re.compile(r"^[0-9][0-9,.]*$")


def _fallback(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)
    return err.object[err.start : err.end].decode("cp1252", errors="replace"), err.end


codecs.register_error("poker_audit_cp1252", _fallback)


def decode_line(raw: bytes) -> str:
    """A line of site text: UTF-8 (BOM stripped), bytes that are not UTF-8 read as cp1252."""
    text = raw.decode("utf-8", errors="poker_audit_cp1252")
    return text.lstrip("\ufeff").rstrip()


def parse_amount(text: str) -> Decimal:
    """`$1,855` -> 1855; `€301,49` -> 301.49; `2,048.50` -> 2048.50 (exact)."""
    t = text.strip().lstrip("$€£").strip()
    if not _AMOUNT.match(t):
        raise SiteHandError(f"{text!r} is not an amount")
    if "," in t and "." in t:
        t = t.replace(",", "") if t.rfind(",") < t.rfind(".") else t.replace(".", "").replace(
            ",", ".")
    elif "," in t:
        head, _, tail = t.rpartition(",")
        t = t.replace(",", "") if len(tail) == 3 else head.replace(",", "") + "." + tail
    try:
        value = Decimal(t)
    except InvalidOperation:
        raise SiteHandError(f"{text!r} is not an amount") from None
    return value


def to_minor(value: Decimal, mpu: int, what: str) -> int:
    scaled = value * mpu
    if scaled != scaled.to_integral_value():
        raise SiteHandError(
            f"{what} = {value} is finer than the {'cent' if mpu == 100 else 'chip'}")
    return int(scaled)


def local_to_utc(local: dt.datetime, zone: str) -> tuple[dt.datetime, str]:
    """A wall-clock time in a named zone abbreviation as UTC, and a note when assumed."""
    z = zone.upper()
    if z in NAMED_ZONES:
        return local.replace(tzinfo=ZoneInfo(NAMED_ZONES[z])).astimezone(_UTC), ""
    if z in FIXED_OFFSETS:
        tz = dt.timezone(dt.timedelta(hours=FIXED_OFFSETS[z]))
        return local.replace(tzinfo=tz).astimezone(_UTC), ""
    return local.replace(tzinfo=_UTC), f";ts=local time read as UTC (unknown zone {zone!r})"


def site_cards(text: str, what: str) -> str:
    """`[ 9c , 2s ]` / `7d Ah 6s 2h` -> `9c 2s` / `7d Ah 6s 2h` (validated)."""
    cards = text.replace(",", " ").replace("[", " ").replace("]", " ").split()
    out = []
    for c in cards:
        if c in ("?", "??", "X", "XX"):
            out.append("??")
            continue
        if len(c) == 3 and c.startswith("10"):
            c = "T" + c[2]
        if len(c) != 2 or c[0].upper() not in "23456789TJQKA" or c[1].lower() not in "cdhs":
            raise SiteHandError(f"{what}: {c!r} is not a card")
        out.append(c[0].upper() + c[1].lower())
    if not out:
        raise SiteHandError(f"{what}: no cards")
    return " ".join(out)


class SiteHand:
    """Bookkeeping while one site hand is mapped: rows, their lines, stacks, round totals."""

    def __init__(self, *, fmt: str, file_name: str, hand_id: str, table_id: str | None) -> None:
        self.fmt = fmt
        self.file_name = file_name
        self.hand_id = hand_id
        self.table_id = table_id
        self.rows: list[dict[str, Any]] = []
        self.lines: list[int] = []
        self.seat_of: dict[str, int] = {}
        self.left: dict[int, int] = {}
        self.round: dict[int, int] = {}
        self.sitting_out: set[int] = set()
        self.folded: set[int] = set()
        self.hole: dict[int, str] = {}
        self._names: list[str] = []

    def emit(self, line: int, kind: str, note: str = "", **fields: Any) -> dict[str, Any]:
        row = {"hand_id": self.hand_id, "seq": len(self.rows), "table_id": self.table_id,
               "kind": kind, "source": f"{self.fmt}:{self.file_name}:{line}{note}"}
        row.update(fields)
        self.rows.append(row)
        self.lines.append(line)
        return row

    def add_seat(self, line: int, seat: int, name: str, stack: int, sitting_out: bool) -> None:
        if not 1 <= seat <= 127:
            raise SiteHandError(f"line {line}: seat {seat} is not a seat number")
        if seat in self.left or name in self.seat_of:
            raise SiteHandError(f"line {line}: seat {seat} ({name!r}) is listed twice")
        self.seat_of[name] = seat
        self.left[seat] = stack
        self._names = sorted(self.seat_of, key=len, reverse=True)
        if sitting_out:
            self.sitting_out.add(seat)
        self.emit(line, "seat", seat=seat, player=name, amount=stack,
                  detail="sitting_out" if sitting_out else None)

    def split_name(self, text: str) -> tuple[str, str] | None:
        """(seated player, rest of the line) when the line starts with a seated player."""
        for name in self._names:
            if text.startswith(name) and (len(text) == len(name) or text[len(name)] in " :"):
                return name, text[len(name):].lstrip(" ")
        return None

    def who(self, name: str) -> dict[str, Any]:
        seat = self.seat_of.get(name)
        if seat is None:
            raise SiteHandError(f"{name!r} is not seated in this hand")
        return {"seat": seat, "player": name}

    def new_round(self) -> None:
        self.round = {}

    def post(self, line: int, name: str, detail: str, amount: int, *, live: bool) -> None:
        w = self.who(name)
        seat = w["seat"]
        self.left[seat] -= amount
        total = None
        if live:
            total = self.round.get(seat, 0) + amount
            self.round[seat] = total
        self.emit(line, "post", amount=amount, total=total, detail=detail, **w)

    def act(self, line: int, name: str, kind: str, *, added: int | None = None,
            to: int | None = None, all_in: bool = False) -> None:
        """fold / check / call / bet / raise / complete, with chips added or a raise-to."""
        w = self.who(name)
        seat = w["seat"]
        if kind == "fold":
            self.folded.add(seat)
            self.emit(line, kind, **w)
            return
        if kind == "check":
            self.emit(line, kind, **w)
            return
        before = self.round.get(seat, 0)
        if to is not None:
            added = to - before
            if added < 0:
                raise SiteHandError(
                    f"line {line}: {kind} to {to} is below the player's round total {before}")
        assert added is not None
        if kind == "auto":  # an all-in whose kind the log does not name
            top = max(self.round.values(), default=0)
            kind = "bet" if top == 0 else ("call" if before + added <= top else "raise")
        stack = self.left[seat]
        self.left[seat] = stack - added
        total = before + added
        self.round[seat] = total
        self.emit(line, kind, amount=added, total=total,
                  detail="all_in" if all_in or (added > 0 and added == stack) else None, **w)

    def board(self, line: int, cards: str) -> None:
        self.new_round()
        self.emit(line, "deal", cards=cards, detail="board")

    def deal_holes(self, line: int, variant: str, known: dict[str, tuple[int, str]]) -> None:
        count = HOLE_COUNT.get(variant, 2)
        for seat in sorted(self.left):
            if seat in self.sitting_out:
                continue
            name = next(n for n, s in self.seat_of.items() if s == seat)
            at, cards = known.get(name, (line, " ".join(["??"] * count)))
            self.hole[seat] = cards
            self.emit(at, "deal", cards=cards, detail="hole", seat=seat, player=name)

    def award(self, line: int, name: str, amount: int, label: str) -> None:
        self.emit(line, "award", amount=amount, detail=label, **self.who(name))

    def end(self, line: int, detail: str | None = None) -> None:
        self.emit(line, "hand_ended", detail=detail)


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, decoded text without line end) of a file, streamed."""
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            yield number, decode_line(raw)


def raw_text(block: list[tuple[int, str]]) -> str:
    return "\n".join(text for _, text in block) + "\n"


class ChunkWriter:
    """Collects mapped hands and rejections; `full` says when a chunk should be yielded."""

    def __init__(self, chunk_hands: int) -> None:
        self.chunk_hands = chunk_hands
        self.rows: list[dict[str, Any]] = []
        self.lines: list[int] = []
        self.rejected: list[Rejected] = []
        self.hands = 0

    def add(self, hand: SiteHand) -> None:
        self.rows.extend(hand.rows)
        self.lines.extend(hand.lines)
        self.hands += 1

    @property
    def full(self) -> bool:
        return self.hands >= self.chunk_hands

    def take(self) -> Chunk:
        chunk = Chunk(table=events_table(self.rows), rejected=self.rejected, lines=self.lines)
        self.rows, self.lines, self.rejected, self.hands = [], [], [], 0
        return chunk

    @property
    def pending(self) -> bool:
        return bool(self.rows or self.rejected)


def split_blocks(path: Path, is_header: Any) -> Iterator[tuple[bool, list[tuple[int, str]]]]:
    """(starts with a header?, lines) blocks of a text file, split where
    `is_header.match(line)` is truthy."""
    block: list[tuple[int, str]] = []
    is_hand = False
    for number, text in iter_lines(path):
        if is_header.match(text):
            if block:
                yield is_hand, block
            block = []
            is_hand = True
        block.append((number, text))
    if block:
        yield is_hand, block


def read_site_text(path: Path, *, fmt: str, header: Any, chunk_hands: int,
                   map_hand: Any, hand_id_of: Any) -> Iterator[Chunk]:
    """The shared read loop: split into hands, map each, quarantine what fails."""
    out = ChunkWriter(chunk_hands)
    for is_hand, block in split_blocks(path, header):
        significant = [(n, t) for n, t in block if t.strip()]
        if not significant:
            continue
        if not is_hand:
            out.rejected.append(Rejected(
                source=str(path), line=significant[0][0], hand_id=None, raw=raw_text(block),
                reason=f"line {significant[0][0]}: text outside any hand: "
                       f"{significant[0][1][:120]!r}"))
            continue
        try:
            hand = map_hand(block, path.name)
        except SiteHandError as exc:
            out.rejected.append(Rejected(source=str(path), line=block[0][0],
                                         hand_id=hand_id_of(block[0][1]), reason=str(exc),
                                         raw=raw_text(block)))
            continue
        out.add(hand)
        if out.full:
            yield out.take()
    if out.pending:
        yield out.take()


def bad_line(number: int, text: str, why: str = "unknown line") -> SiteHandError:
    return SiteHandError(f"line {number}: {why}: {text[:200]!r}")


# --- Full Tilt --------------------------------------------------------------------------

_HEADER = re.compile(r"^Full Tilt Poker Game #(\d+): ")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \(([$€£]?[0-9][0-9,.]*)\)(, is sitting out)?$")
_BUTTON = re.compile(r"^The button is in seat #(\d+)$")
_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER) \*\*\* (\[[^\]]*\])(?: (\[[^\]]*\]))?"
                     r"(?: \(Total Pot: [^)]*\))?$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]+)\]$")
_M = r"([$€£]?[0-9][0-9,.]*)"  # an amount
_UNCALLED = re.compile(r"^Uncalled bet of ([$€£]?[0-9][0-9,.]*) returned to (.+)$")
_TOTAL = re.compile(r"^Total pot ([$€£]?[0-9][0-9,.]*)(?: .*?)? ?\| Rake ([$€£]?[0-9][0-9,.]*)$")
_STAKES = re.compile(r"^([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)"
                     r"(?: Ante [$€£]?([0-9][0-9,.]*))?"
                     r"(?: Cap [$€£]?[0-9][0-9,.]*)?$")
_CLOCK = re.compile(r"^(\d{1,2}:\d\d:\d\d) ([A-Z]{1,5})(?: \[(\d{4}/\d\d/\d\d) (\d{1,2}:\d\d:\d\d) "
                    r"([A-Z]{1,5})\])?$")
_DATE = re.compile(r"^(\d{4})/(\d\d)/(\d\d)$")
_TABLE = re.compile(r"^(?:(?P<tourney>.*\((?P<tid>\d+)\)), )?Table (?P<table>.+?)"
                    r"(?: \((?P<max>\d+) max\))?(?: \((?:partial|deep|shallow|[a-z ,]+)\))*$")
_LIMITS = {"nl": "no_limit", "no limit": "no_limit", "pl": "pot_limit", "pot limit": "pot_limit",
           "fl": "fixed_limit", "limit": "fixed_limit"}
_GAMES = {"hold'em": "holdem", "holdem": "holdem", "omaha": "omaha", "omaha hi": "omaha",
          "omaha hi/lo": "omaha_hilo", "omaha h/l": "omaha_hilo", "omaha 8": "omaha_hilo",
          "5 card omaha": "omaha5", "5 card omaha hi/lo": "omaha5_hilo"}
_UNSUPPORTED = ("stud", "razz", "draw", "badugi", "2-7", "lowball")
_ACTION = re.compile(r"^(folds|checks|calls|bets|raises to|completes it to)(?: " + _M + ")?"
                     r"(, and is all in)?$")
_POST = re.compile(r"^(posts the small blind of|posts the big blind of|"
                   r"posts a dead small blind of|posts|antes) " + _M + "(, and is all in)?$")
_WIN = re.compile(r"^(?:wins|ties for) (?:the )?(?:(high|low) )?"
                  r"(main pot|side pot(?: #?(\d+))?|pot)(?: #?(\d+))? \(" + _M + r"\)(?: .*)?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\](?: .*)?$")
_MUCK = re.compile(r"^mucks(?: \[([^\]]*)\])?(?: .*)?$")
_SEATED_NOTES = [
    (re.compile(r"^(?:sits out|is sitting out)$"), "sits_out"),
    (re.compile(r"^has returned$"), "returned"),
    (re.compile(r"^has timed out(?: .*)?$"), "timed_out"),
    (re.compile(r"^has been disconnected(?: .*)?$"), "disconnected"),
    (re.compile(r"^has reconnected(?: .*)?$"), "reconnected"),
    (re.compile(r"^has requested TIME$"), "requested_time"),
    (re.compile(r"^has \d+ seconds left to act$"), "time_warning"),
    (re.compile(r"^stands up$"), "stands_up"),
    (re.compile(r"^is feeling .*$"), "emote"),
    (re.compile(r"^adds ([$€£]?[0-9][0-9,.]*)$"), "adds_chips"),
]
_ANYONE_NOTES = [
    (re.compile(r"^(.+?) sits down$"), "sits_down"),
    (re.compile(r"^(.+?) adds ([$€£]?[0-9][0-9,.]*)$"), "adds_chips"),
    (re.compile(r"^(.+?) stands up$"), "stands_up"),
    (re.compile(r"^(.+?) has (?:joined|left) the table$"), "table_change"),
]
_OBSERVER = re.compile(r"^(.+?) \(Observer\): (.*)$")
_LOW_DESC = re.compile(r"^\s*\([0-9AKQJT, -]*\)$")


def _ftp_game(header: str, number: int) -> dict[str, Any]:
    """The parts of a Full Tilt header line."""
    m = _HEADER.match(header)
    assert m
    parts = header[m.end():].split(" - ")
    table = _TABLE.match(parts[0])
    if not table:
        raise bad_line(number, header, "header without 'Table NAME'")
    info: dict[str, Any] = {"game_no": m.group(1), "table": table.group("table"),
                            "max": table.group("max"), "tournament": bool(table.group("tourney"))}
    for part in parts[1:]:
        p = part.strip()
        low = p.lower()
        if (s := _STAKES.match(p)) and "stakes" not in info:
            info["stakes"] = s.groups()
        elif (c := _CLOCK.match(p)) and "clock" not in info:
            info["clock"] = c.groups()
        elif (d := _DATE.match(p)) and "date" not in info:
            info["date"] = d.groups()
        elif "game" not in info and any(g in low for g in (*_GAMES, *_UNSUPPORTED)):
            info["game"] = low
        elif low.startswith("level ") or low.startswith("hand #"):
            continue
        else:
            raise bad_line(number, header, f"header part {p!r} not understood")
    for need in ("stakes", "game", "clock", "date"):
        if need not in info:
            raise bad_line(number, header, f"header without {need}")
    return info


def _limit_and_game(text: str, number: int, header: str) -> tuple[str | None, str]:
    if any(u in text for u in _UNSUPPORTED):
        raise bad_line(number, header, "unsupported Full Tilt game (stud/razz/draw)")
    for words in sorted(_LIMITS, key=len, reverse=True):
        if text.startswith(words + " "):
            name = text[len(words) + 1:].strip()
            if name in _GAMES:
                return _LIMITS[words], _GAMES[name]
    if text in _GAMES:
        return None, _GAMES[text]
    raise bad_line(number, header, f"unknown Full Tilt game {text!r}")


def _map_ftp(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    number, header = block[0]
    info = _ftp_game(header, number)
    structure, variant = _limit_and_game(info["game"], number, header)
    if structure is None:
        raise bad_line(number, header, "no betting structure (NL/PL/Limit) in the header")
    symbol, low_s, high_s, ante_s = info["stakes"]
    currency = CURRENCY_SYMBOLS.get(symbol, "CHIPS")
    mpu = 100 if symbol else 1

    def money(text: str, where: int) -> int:
        return to_minor(parse_amount(text), mpu, f"line {where} amount {text!r}")

    clock, zone, alt_date, alt_clock, alt_zone = info["clock"]
    year, month, day = info["date"]
    try:
        local = dt.datetime.strptime(f"{year}/{month}/{day} {clock}", "%Y/%m/%d %H:%M:%S")
        if alt_date:  # "2:33:51 CET [2010/12/20 20:33:51 ET]": the bracket is the ET time
            local = dt.datetime.strptime(f"{alt_date} {alt_clock}", "%Y/%m/%d %H:%M:%S")
            zone = alt_zone
    except ValueError:
        raise bad_line(number, header, "invalid date or time") from None
    ts, note = local_to_utc(local, zone)
    h = SiteHand(fmt="fulltilt", file_name=file_name, hand_id=f"ftp:{info['game_no']}",
                 table_id=info["table"])
    low, high = money(low_s, number), money(high_s, number)
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency,
        "minor_per_unit": mpu, "tournament": info["tournament"],
        "ante": money(ante_s, number) if ante_s else 0,
        "seat_count": int(info["max"]) if info["max"] else None,
    }
    if structure == "fixed_limit":
        game.update(small_bet=low, big_bet=high, big_blind=low)
    else:
        game.update(small_blind=low, big_blind=high)
    started = h.emit(number, "hand_started", note, ts=ts, game=game)

    body = block[1:]
    i = 0
    # seats
    while i < len(body) and (m := _SEAT.match(body[i][1])):
        n, _ = body[i]
        h.add_seat(n, int(m.group(1)), m.group(2), money(m.group(3), n), bool(m.group(4)))
        i += 1
    if not h.seat_of:
        raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
    known: dict[str, tuple[int, str]] = {}
    for n, text in body:
        if (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
            known[d.group(1)] = (n, site_cards(d.group(2), f"line {n}"))
    section = "pre"  # pre (posts) -> play -> summary
    button = None
    sb_posted = None
    ended = False
    last = number
    for n, text in body[i:]:
        last = n
        if not text.strip():
            continue
        if section == "summary":
            if (t := _TOTAL.match(text)):
                rake = money(t.group(2), n)
                if rake:
                    h.emit(n, "rake", amount=rake, detail="rake")
            elif text.startswith("Board: [") or text.startswith("Seat "):
                pass
            else:
                raise bad_line(n, text, "unknown summary line")
            continue
        if (b := _BUTTON.match(text)):
            button = int(b.group(1))
            continue
        if text == "*** HOLE CARDS ***":
            if section != "pre":
                raise bad_line(n, text, "second hole-cards line")
            section = "play"
            h.deal_holes(n, variant, known)
            continue
        if text == "*** SHOW DOWN ***" or _LOW_DESC.match(text):
            continue
        if text == "*** SUMMARY ***":
            section = "summary"
            ended = True
            continue
        if (s := _STREET.match(text)):
            cards = s.group(3) or s.group(2)
            h.board(n, site_cards(cards, f"line {n}"))
            continue
        if (u := _UNCALLED.match(text)):
            h.award(n, u.group(2), money(u.group(1), n), "uncalled")
            continue
        if (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
            continue  # dealt with at *** HOLE CARDS ***
        split = h.split_name(text)
        if split is None:
            if (o := _OBSERVER.match(text)):
                h.emit(n, "annotation", player=o.group(1), detail=f"said: {o.group(2)}")
                continue
            for pattern, label in _ANYONE_NOTES:
                if (a := pattern.match(text)):
                    h.emit(n, "annotation", player=a.group(1), detail=label)
                    break
            else:
                raise bad_line(n, text)
            continue
        name, rest = split
        if rest.startswith(":"):
            h.emit(n, "annotation", detail=f"said: {rest[1:].strip()}", **h.who(name))
            continue
        if (p := _POST.match(rest)):
            verb, amt = p.group(1), money(p.group(2), n)
            if section != "pre":
                raise bad_line(n, text, "a forced bet after the deal")
            if verb == "antes":
                h.post(n, name, "ante", amt, live=False)
            elif verb == "posts a dead small blind of":
                h.post(n, name, "dead", amt, live=False)
            elif verb == "posts the small blind of":
                sb_posted = amt if sb_posted is None else sb_posted
                h.post(n, name, "small_blind", amt, live=True)
            elif verb == "posts the big blind of":
                h.post(n, name, "big_blind", amt, live=True)
            else:
                h.post(n, name, "new_player", amt, live=True)
            continue
        if (a := _ACTION.match(rest)):
            if section != "play":
                raise bad_line(n, text, "an action before the hole cards")
            verb, amt_s, all_in = a.group(1), a.group(2), bool(a.group(3))
            kind = {"folds": "fold", "checks": "check", "calls": "call", "bets": "bet",
                    "raises to": "raise", "completes it to": "complete"}[verb]
            if (amt_s is None) != (kind in ("fold", "check")):
                raise bad_line(n, text, "amount missing or unexpected")
            if kind in ("raise", "complete"):
                h.act(n, name, kind, to=money(amt_s, n), all_in=all_in)
            elif kind in ("call", "bet"):
                h.act(n, name, kind, added=money(amt_s, n), all_in=all_in)
            else:
                h.act(n, name, kind)
            continue
        if (s2 := _SHOW.match(rest)):
            h.emit(n, "show", cards=site_cards(s2.group(1), f"line {n}"), **h.who(name))
            continue
        if (mk := _MUCK.match(rest)):
            w = h.who(name)
            cards = site_cards(mk.group(1), f"line {n}") if mk.group(1) else h.hole.get(w["seat"])
            h.emit(n, "muck", cards=cards if cards and "??" not in cards else None, **w)
            continue
        if (wn := _WIN.match(rest)):
            half, pot, side_a, side_b, amt_s = wn.groups()
            if pot.startswith("side"):
                label = f"side-{side_a or side_b or 1}"
            else:
                label = "main"
            if half:
                label += f"/{half}"
            h.award(n, name, money(amt_s, n), label)
            continue
        for pattern, label in _SEATED_NOTES:
            if pattern.match(rest):
                h.emit(n, "annotation", detail=label, **h.who(name))
                break
        else:
            raise bad_line(n, text)
    if not ended:
        raise SiteHandError(f"line {last}: hand ends without '*** SUMMARY ***' (truncated?)")
    if button is None:
        raise SiteHandError(f"line {number}: no 'The button is in seat #N' line")
    started["game"]["button_seat"] = button
    if structure == "fixed_limit":
        started["game"]["small_blind"] = sb_posted
    h.end(last)
    return h


def _ftp_hand_id(header: str) -> str | None:
    m = _HEADER.match(header)
    return f"ftp:{m.group(1)}" if m else None


class FullTiltImporter:
    """Full Tilt Poker text files: recognised by content, read hand by hand."""

    name = "fulltilt"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """A line starting `Full Tilt Poker Game #` near the top (file name ignored)."""
        del path
        return re.search(rb"(?m)^(?:\xef\xbb\xbf)?Full Tilt Poker Game #\d+: ", head) is not None

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        yield from read_site_text(path, fmt="fulltilt", header=_HEADER_LINE,
                                  chunk_hands=self.chunk_hands, map_hand=_map_ftp,
                                  hand_id_of=_ftp_hand_id)


_HEADER_LINE = re.compile(r"^\ufeff?Full Tilt Poker Game #\d+: ")
IMPORTER = FullTiltImporter()
