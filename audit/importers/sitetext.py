"""Helpers shared by the site-text importers (Full Tilt, PartyPoker, iPoker, ...): exact amounts,
site time zones, card text, a hand being built (`SiteHand`), and the streaming read loop that
splits a file into hands, maps each one and yields chunks of whole hands."""

from __future__ import annotations

import codecs
import datetime as dt
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from zoneinfo import ZoneInfo

import pyarrow as pa

from audit.errors import AuditInputError
from audit.importers.base import (
    _HEAD_BYTES,
    Chunk,
    Overlong,
    Rejected,
    over_hand_limit,
    over_line_limit,
    read_limits,
)
from audit.schema import events_table

CHUNK_HANDS = 5000
_UTC = dt.UTC


class SiteHandError(AuditInputError):
    """A site hand that cannot be mapped to events; the message is the quarantine reason."""


CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
FIXED_OFFSETS = {
    "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    "GMT": 0, "UTC": 0, "WET": 0, "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "EET": 2,
    "EEST": 3, "MSK": 3, "AEST": 10, "AEDT": 11,
}
NAMED_ZONES = {"ET": "America/New_York", "CT": "America/Chicago", "PT": "America/Los_Angeles"}
HOLE_COUNT = {"holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5,
              "omaha6": 6, "omaha6_hilo": 6, "lowball_27_triple": 5, "lowball_27_single": 5,
              "lowball_a5_triple": 5, "draw_high": 5, "badugi": 4, "irish": 4}
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


@lru_cache(maxsize=4096)
def _cached_minor(text: str, mpu: int, parse: Callable[[str], Decimal]) -> int:
    return to_minor(parse(text), mpu, text)


def site_money(text: str, mpu: int, n: int,
               parse: Callable[[str], Decimal] = parse_amount) -> int:
    """An amount of line `n` in minor units (memoised: a file repeats the same few amounts);
    an amount finer than the unit is an error naming the line."""
    try:
        return _cached_minor(text, mpu, parse)
    except SiteHandError:
        return to_minor(parse(text), mpu, f"line {n} amount {text!r}")


def known_cards(cards: str | None) -> str | None:
    """Hole cards when every one is known (a mucked hand is the hand dealt)."""
    return cards if cards and "??" not in cards else None


# a status line the grammar does not list: words only, no amount, no cards
STATUS_LINE = re.compile(
    r"^(?:is|has|was|will|sits|joins|leaves|returns|waits)\b[^0-9\[\]()€$£]*$")
# someone not seated (or not yet): joins / leaves
UNSEATED_NOTE = re.compile(
    r"^(?P<name>.+?) (?P<what>(?:joins|leaves|has joined|has left) the table"
    r"(?: at seat #?\d+)?|is sitting out|sits out|will be allowed to play "
    r"after the button|waits for the big blind)\.?$")


def pot_of(label: str | None) -> str:
    """The pot an award label names (`side1/high@2` -> `side1`; uncalled bets: `main`)."""
    base = (label or "main").split("/")[0].split("@")[0]
    return "main" if base in ("main", "uncalled") else base


def local_to_utc(local: dt.datetime, zone: str) -> tuple[dt.datetime, str]:
    """A wall-clock time in a named zone abbreviation as UTC, and a note when assumed."""
    z = zone.upper()
    if z in NAMED_ZONES:
        return local.replace(tzinfo=ZoneInfo(NAMED_ZONES[z])).astimezone(_UTC), ""
    if z in FIXED_OFFSETS:
        tz = dt.timezone(dt.timedelta(hours=FIXED_OFFSETS[z]))
        return local.replace(tzinfo=tz).astimezone(_UTC), ""
    return local.replace(tzinfo=_UTC), f";ts=local time read as UTC (unknown zone {zone!r})"


def header_time(stamp: str, zone: str, number: int, header: str) -> tuple[dt.datetime, str]:
    """A header's `yyyy/mm/dd hh:mm:ss` in `zone` as UTC and its note (`local_to_utc`); an
    invalid date is an error naming the header line."""
    try:
        local = _site_clock(stamp)
    except ValueError:
        raise bad_line(number, header, "invalid date") from None
    return local_to_utc(local, zone)


_CLOCK = re.compile(r"(\d{4})/(\d\d?)/(\d\d?) (\d\d?):(\d\d?):(\d\d?)", re.ASCII)


def _site_clock(stamp: str) -> dt.datetime:
    """`strptime(stamp, "%Y/%m/%d %H:%M:%S")`, read directly when `stamp` is plain ASCII
    digits (each field's number is the one strptime reads; a value out of range is a
    ValueError either way), by strptime otherwise."""
    m = _CLOCK.fullmatch(stamp)
    if m is None:
        return dt.datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S")
    year, month, day, hour, minute, second = map(int, m.groups())
    return dt.datetime(year, month, day, hour, minute, second)


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


def first_name_end(text: str) -> int:
    """Where the name a player's line starts with ends, when no seated name holds a space or a
    colon: at the first colon before the first space, else at the first space, else the end."""
    end = text.find(" ")
    colon = text.find(":", 0, end if end >= 0 else len(text))
    if colon >= 0:
        return colon
    return len(text) if end < 0 else end


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
        # the names when none holds a space or a colon: a line's name is then its first word
        self._plain: frozenset[str] | None = frozenset()
        self._source = f"{fmt}:{file_name}:"

    def emit(self, line: int, kind: str, note: str = "", **fields: Any) -> dict[str, Any]:
        rows = self.rows
        row = {"hand_id": self.hand_id, "seq": len(rows), "table_id": self.table_id,
               "kind": kind, "source": f"{self._source}{line}{note}", **fields}
        rows.append(row)
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
        self._plain = None if any(" " in n or ":" in n for n in self._names) else frozenset(
            self._names)
        if sitting_out:
            self.sitting_out.add(seat)
        self.emit(line, "seat", seat=seat, player=name, amount=stack,
                  detail="sitting_out" if sitting_out else None)

    def split_name(self, text: str) -> tuple[str, str] | None:
        """(seated player, rest of the line) when the line starts with a seated player."""
        plain = self._plain
        if plain is not None:  # the longest name the line starts with is its first word
            end = first_name_end(text)
            name = text[:end]
            return (name, text[end:].lstrip(" ")) if name in plain else None
        for name in self._names:
            if text.startswith(name) and (len(text) == len(name) or text[len(name)] in " :"):
                return name, text[len(name):].lstrip(" ")
        return None

    def split_or_note(self, n: int, text: str) -> tuple[str, str] | None:
        """(seated player, rest of the line) of line `n`; None for a note on someone not
        seated (`UNSEATED_NOTE`, kept as an annotation); any other line is not understood."""
        split = self.split_name(text)
        if split is None:
            if (an := UNSEATED_NOTE.match(text)):
                self.emit(n, "annotation", player=an.group("name"),
                          detail=f"note: {an.group('what')}")
                return None
            raise bad_line(n, text)
        return split

    def settle_awards_last(self) -> None:
        """The awards after the play (grouped by pot, as the room's pots are paid), then the
        rake, then hand_ended: notes the log writes after a payout (`Leave(Auto)`, `Ranking
        2`) stay with the play. Each row keeps its source line."""
        rows, lines = self.rows, self.lines
        play: list[int] = []
        pots: dict[str, list[int]] = {}  # by pot, in the order each pot is first paid
        rake: list[int] = []
        ended: list[int] = []
        for i, r in enumerate(rows):
            kind = r["kind"]
            if kind == "award":
                pots.setdefault(pot_of(r["detail"]), []).append(i)
            elif kind == "rake":
                rake.append(i)
            elif kind == "hand_ended":
                ended.append(i)
            else:
                play.append(i)
        keyed = play + [i for paid in pots.values() for i in paid] + rake + ended
        self.rows = [rows[i] for i in keyed]
        self.lines = [lines[i] for i in keyed]
        for seq, r in enumerate(self.rows):
            r["seq"] = seq

    def who(self, name: str) -> dict[str, Any]:
        seat = self.seat_of.get(name)
        if seat is None:
            raise SiteHandError(f"{name!r} is not seated in this hand")
        return {"seat": seat, "player": name}

    def new_round(self) -> None:
        self.round = {}

    def post(self, line: int, name: str, detail: str, amount: int, *, live: bool) -> None:
        seat = self.seat_of.get(name)
        if seat is None:
            raise SiteHandError(f"{name!r} is not seated in this hand")
        self.left[seat] -= amount
        total = None
        if live:
            total = self.round.get(seat, 0) + amount
            self.round[seat] = total
        self.emit(line, "post", amount=amount, total=total, detail=detail, seat=seat,
                  player=name)

    def act(self, line: int, name: str, kind: str, *, added: int | None = None,
            to: int | None = None, all_in: bool = False) -> None:
        """fold / check / call / bet / raise / complete, with chips added or a raise-to."""
        seat = self.seat_of.get(name)
        if seat is None:
            raise SiteHandError(f"{name!r} is not seated in this hand")
        if kind == "fold":
            self.folded.add(seat)
            self.emit(line, kind, seat=seat, player=name)
            return
        if kind == "check":
            self.emit(line, kind, seat=seat, player=name)
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
                  detail="all_in" if all_in or (added > 0 and added == stack) else None,
                  seat=seat, player=name)

    def board(self, line: int, cards: str) -> None:
        self.new_round()
        self.emit(line, "deal", cards=cards, detail="board")

    def deal_holes(self, line: int, variant: str, known: dict[str, tuple[int, str]]) -> None:
        count = HOLE_COUNT.get(variant, 2)
        unknown = (line, " ".join(["??"] * count))
        name_at = {s: n for n, s in reversed(self.seat_of.items())}  # the first name listed
        for seat in sorted(self.left):
            if seat in self.sitting_out:
                continue
            name = name_at.get(seat)
            if name is None:
                name = next(n for n, s in self.seat_of.items() if s == seat)
            at, cards = known.get(name, unknown)
            self.hole[seat] = cards
            self.emit(at, "deal", cards=cards, detail="hole", seat=seat, player=name)

    def award(self, line: int, name: str, amount: int, label: str) -> None:
        self.emit(line, "award", amount=amount, detail=label, **self.who(name))

    def end(self, line: int, detail: str | None = None) -> None:
        self.emit(line, "hand_ended", detail=detail)

    def money_last(self) -> None:
        """The awards (pot by pot, each pot's in the order logged) and then the rake moved
        after the rest of the hand, as OHH carries them (`pots` after the `rounds`), so an
        OHH export reads back the same events; call before `end`."""
        money = [k for k, r in enumerate(self.rows) if r["kind"] in ("award", "rake")]
        if not money:
            return
        pot_order: dict[int, int] = {}

        def pot(k: int) -> tuple[int, int]:
            r = self.rows[k]
            if r["kind"] == "rake":
                return (1 << 30, 0 if r["detail"] != "jackpot" else 1)
            base = (r["detail"] or "main").split("/")[0].split("@")[0]
            num = int(base[5:]) if base.startswith("side-") and base[5:].isdigit() else 0
            return (pot_order.setdefault(num, len(pot_order)), 0)

        ordered = sorted(money, key=lambda k: (pot(k), k))
        moved = set(money)
        rest = [k for k in range(len(self.rows)) if k not in moved]
        order = rest + ordered
        self.rows = [self.rows[k] for k in order]
        self.lines = [self.lines[k] for k in order]
        for k, r in enumerate(self.rows):
            r["seq"] = k


class RoundsHand(SiteHand):
    """A SiteHand for rooms that log no uncalled-bet return (their collection holds it): it
    remembers the last betting round chips went into, to split the uncalled part off."""

    _last: dict[int, int] | None = None

    def new_round(self) -> None:
        if self.round:
            self._last = dict(self.round)
        super().new_round()

    def last_round(self) -> dict[int, int]:
        return dict(self.round) if self.round else dict(self._last or {})

    def split_uncalled(self, line: int) -> int | None:
        """The uncalled part of the last bet split off the bettor's collections as an
        `uncalled` award (`uncalled_split`); 0 when nothing was uncalled, None when his
        collections hold less than that (the return stays implicit)."""
        at = [k for k, r in enumerate(self.rows) if r["kind"] == "award"]
        split = uncalled_split(self.last_round(),
                               [(self.rows[k].get("seat"), self.rows[k]["amount"]) for k in at])
        if split is None or not split.refund:
            return None if split is None else 0
        for k, amount in zip(at, split.amounts, strict=True):
            self.rows[k]["amount"] = amount
        player = self.rows[at[split.first]]["player"]
        keep = [k for k, r in enumerate(self.rows)
                if not (r["kind"] == "award" and r["amount"] == 0)]
        self.rows = [self.rows[k] for k in keep]
        self.lines = [self.lines[k] for k in keep]
        for k, r in enumerate(self.rows):
            r["seq"] = k
        self.emit(line, "award", amount=split.refund, detail="uncalled", seat=split.seat,
                  player=player)
        return split.refund


@dataclass(frozen=True, slots=True)
class UncalledSplit:
    """The uncalled part of a hand's last bet (`refund`, 0: none) and the awards once it is
    taken off the bettor's (`seat`) collections: each award's amount in the order given
    (an award taken to 0 is dropped by the caller), `first` the place of his first award."""

    seat: int
    refund: int
    amounts: tuple[int, ...]
    first: int


def uncalled_split(last_round: dict[int, int], awards: list[tuple[int | None, int]]
                   ) -> UncalledSplit | None:
    """For rooms that log no uncalled-bet return (the collection holds it): the top round
    total's excess over the next one on the last round chips went in (`last_round`: seat ->
    total), taken off the bettor's awards (`awards`: every award's seat and amount, in the
    hand's order) first to last. None when his awards hold less than that: the return stays
    implicit. Rows of dicts (`RoundsHand`) and of lists (Winning's fast path) share it."""
    ranked = sorted(last_round.items(), key=lambda kv: kv[1], reverse=True)
    amounts = tuple(amount for _, amount in awards)
    if not ranked:
        return UncalledSplit(-1, 0, amounts, -1)
    top, most = ranked[0]
    refund = most - (ranked[1][1] if len(ranked) > 1 else 0)
    if refund <= 0:
        return UncalledSplit(top, 0, amounts, -1)
    his = [k for k, (seat, _) in enumerate(awards) if seat == top]
    if sum(amounts[k] for k in his) < refund:
        return None
    left = refund
    after = list(amounts)
    for k in his:
        take = min(left, after[k])
        after[k] -= take
        left -= take
    return UncalledSplit(top, refund, tuple(after), his[0])


class UnreadLine(str):
    """An excerpt standing for a line over the line limit; `reason` says so."""

    reason: str


def utf16_encoding(head: bytes) -> str | None:
    """`utf-16` when `head` (a file's first bytes) starts with a UTF-16 byte-order mark,
    `utf-16-le` / `utf-16-be` when it has none but every other byte is NUL (ASCII text
    written as UTF-16), else None."""
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    sample = head[: min(len(head), 512) // 2 * 2]
    if len(sample) < 8:
        return None
    even, odd = sample[0::2], sample[1::2]
    if not any(odd) and all(even):
        return "utf-16-le"
    if not any(even) and all(odd):
        return "utf-16-be"
    return None


def sniff_text(head: bytes) -> str:
    """A file's first bytes as text for format sniffing: UTF-16 decoded (a stray odd byte
    dropped), anything else read as UTF-8 with cp1252 for bytes that are not UTF-8."""
    encoding = utf16_encoding(head)
    if encoding:
        return codecs.getincrementaldecoder(encoding)(errors="replace").decode(head)
    return head.decode("utf-8", errors="poker_audit_cp1252")


class _Utf16AsUtf8(io.RawIOBase):
    """A UTF-16 file read as UTF-8 bytes, streamed (so the line limits still apply). A
    trailing odd byte, which cannot hold a character, is dropped; a broken surrogate in the
    middle becomes U+FFFD."""

    def __init__(self, raw: BinaryIO, encoding: str) -> None:
        self.raw = raw
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.buffer = b""

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while not self.buffer:
            data = self.raw.read(1 << 16)
            if not data:
                return 0
            self.buffer = self.decoder.decode(data).encode("utf-8", errors="surrogatepass")
        n = min(len(b), len(self.buffer))
        b[:n] = self.buffer[:n]
        self.buffer = self.buffer[n:]
        return n


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, decoded text without line end) of a file, streamed; a line over the line
    limit comes as an `UnreadLine` excerpt (its hand is quarantined, the line never held).
    UTF-16 files (with or without a byte-order mark) are decoded as such."""
    for piece in line_pieces(path):
        yield from piece


_PIECE_BYTES = 1 << 20  # bytes read at once: whole lines are decoded a piece at a time


def line_pieces(path: Path) -> Iterator[list[tuple[int, str]]]:
    """The lines of `iter_lines`, a piece (about a MiB of whole lines) at a time: each piece is
    decoded and split at once, not line by line, with exactly the text `decode_line` gives
    each line (a UTF-8 byte sequence never spans a line end, so decoding the piece decodes
    each of its lines alike). Memory follows the piece and the line limit, never the file."""
    for piece, _ in _flagged_pieces(path):
        yield piece


def _flagged_pieces(path: Path) -> Iterator[tuple[list[tuple[int, str]], bool]]:
    """(piece, whether it holds an `UnreadLine`) of `line_pieces`."""
    with path.open("rb") as raw_file:
        encoding = utf16_encoding(raw_file.read(512))
        raw_file.seek(0)
        f: BinaryIO = raw_file
        if encoding:
            f = io.BufferedReader(_Utf16AsUtf8(raw_file, encoding))  # type: ignore[assignment]
        yield from _pieces_of(f, read_limits().line_bytes)


def _pieces_of(f: BinaryIO, limit: int) -> Iterator[tuple[list[tuple[int, str]], bool]]:
    """`_flagged_pieces` of an open binary file; a line whose text (line end aside) runs over
    `limit` bytes is an `UnreadLine` of its first bytes (as `bounded_lines` reads it), skipped
    without being held."""
    number = 0
    tail = b""
    while True:
        data = f.read(_PIECE_BYTES)
        if not data:
            break
        buf = tail + data if tail else data
        while True:
            cut = buf.rfind(b"\n") + 1
            if cut:
                piece, number, odd = _decode_piece(buf[:cut], number, limit)
                yield piece, odd
            tail = buf[cut:]
            if len(tail) <= limit:
                break
            # a line over the limit: skip to its end, keeping its head
            head, size = tail[:min(limit + 1, _HEAD_BYTES)], len(tail)
            tail = buf = b""
            while more := f.read(_PIECE_BYTES):
                end = more.find(b"\n")
                if end >= 0:
                    size += end + 1
                    buf = more[end + 1:]
                    break
                size += len(more)
            number += 1
            yield [(number, _unread(number, head, size))], True
    if tail:  # the last line, with no line end
        piece, number, odd = _decode_piece(tail + b"\n", number, limit, last=True)
        yield piece, odd


def _unread(number: int, head: bytes, size: int) -> UnreadLine:
    line = UnreadLine(Overlong(size, head).text())
    line.reason = over_line_limit(number, size)
    return line


def _decode_piece(raw: bytes, number: int, limit: int, *, last: bool = False
                  ) -> tuple[list[tuple[int, str]], int, bool]:
    """The lines of `raw` (whole lines, each ending in a line end; `last`: the line end was
    added to the file's last line, which has none) numbered from `number + 1`, the last
    number, and whether a line is over the limit (an `UnreadLine`)."""
    if len(raw) > limit:  # a line may be over the limit
        raws = raw.split(b"\n")
        raws.pop()
        if max(map(len, raws)) > limit:
            out = []
            for k, one in enumerate(raws, start=number + 1):
                if len(one) > limit:
                    size = len(one) + (0 if last and k == number + len(raws) else 1)
                    out.append((k, _unread(k, one[:min(limit + 1, _HEAD_BYTES)], size)))
                else:
                    out.append((k, decode_line(one)))
            return out, number + len(raws), True
    text = raw.decode("utf-8", errors="poker_audit_cp1252")
    if "\ufeff" in text:
        lines = [t.lstrip("\ufeff").rstrip() for t in text.split("\n")]
    else:
        lines = [t.rstrip() for t in text.split("\n")]
    lines.pop()
    end = number + len(lines)
    return list(zip(range(number + 1, end + 1), lines, strict=True)), end, False


_TEXT = itemgetter(1)  # the text of a (line number, text) pair


def raw_text(block: list[tuple[int, str]]) -> str:
    return "\n".join(map(_TEXT, block)) + "\n"


_T = TypeVar("_T")


class ChunkWriter:
    """Collects mapped hands and rejections; `full` says when a chunk should be yielded."""

    def __init__(self, chunk_hands: int, source: str = "") -> None:
        self.chunk_hands = chunk_hands
        self.source = source
        self.rows: list[dict[str, Any]] = []
        self.lines: list[int] = []
        self.rejected: list[Rejected] = []
        self.kept: list[tuple[SiteHand, str]] = []  # (hand, raw text) for quarantine
        self.hands = 0

    def add(self, hand: SiteHand, raw: str = "") -> None:
        self.rows.extend(hand.rows)
        self.lines.extend(hand.lines)
        self.kept.append((hand, raw))
        self.hands += 1

    def map_or_reject(self, block: list[tuple[int, str]], hand_id: str | None,
                      mapper: Callable[..., _T], *args: Any) -> _T | None:
        """`mapper(*args)`, or None with the hand of `block` quarantined: a `SiteHandError`
        says why, any other exception is an importer error (one bad hand never stops the
        file)."""
        try:
            return mapper(*args)
        except SiteHandError as exc:
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - one bad hand never stops the file
            reason = f"importer error {type(exc).__name__}: {exc}"
        self.reject(block, reason, hand_id)
        return None

    def reject(self, block: list[tuple[int, str]], reason: str, hand_id: str | None) -> None:
        """Quarantine the lines of `block` (from its first line) for `reason`."""
        self.rejected.append(Rejected(source=self.source, line=block[0][0], hand_id=hand_id,
                                      reason=reason, raw=raw_text(block)))

    def reject_outside(self, block: list[tuple[int, str]], line: int, text: str) -> None:
        """Quarantine `block`, text outside any hand, named by its first significant line
        (number `line`, `text`)."""
        self.rejected.append(Rejected(
            source=self.source, line=line, hand_id=None, raw=raw_text(block),
            reason=f"line {line}: text outside any hand: {text[:120]!r}"))

    @property
    def full(self) -> bool:
        return self.hands >= self.chunk_hands

    def take(self) -> Chunk:
        try:
            table = events_table(self.rows)
        except (pa.ArrowException, OverflowError, ValueError, TypeError):
            table = self._without_unfit_hands()
        chunk = Chunk(table=table, rejected=self.rejected, lines=self.lines)
        self.rows, self.lines, self.rejected, self.kept, self.hands = [], [], [], [], 0
        return chunk

    def _without_unfit_hands(self) -> pa.Table:
        """The chunk without the hands whose values do not fit the event schema (an amount
        past 64 bits, ...): those are quarantined instead of failing the whole file."""
        self.rows, self.lines = [], []
        for hand, raw in self.kept:
            try:
                events_table(hand.rows)
            except (pa.ArrowException, OverflowError, ValueError, TypeError) as exc:
                self.rejected.append(Rejected(
                    source=self.source, line=hand.lines[0] if hand.lines else None,
                    hand_id=hand.hand_id, raw=raw,
                    reason=f"a value does not fit the event schema ({exc}); amounts must be "
                           "within 64 bits"))
                continue
            self.rows.extend(hand.rows)
            self.lines.extend(hand.lines)
        return events_table(self.rows)

    @property
    def pending(self) -> bool:
        return bool(self.rows or self.rejected)


_PER_LINE_COST = 64  # bytes a held line costs beyond its text (a tuple, a str header)


def split_blocks(path: Path, is_header: Any, skip: Any = None
                 ) -> Iterator[tuple[bool, list[tuple[int, str]], str]]:
    """(starts with a header?, lines, why it is not read or "") blocks of a text file, split
    where `is_header.match(line)` is truthy; lines where `skip.match(line)` is truthy (a
    site's file framing) are left out. A block over the hand limit keeps only its first
    lines (an excerpt), so memory follows the limit, never the file. `is_header.match` is
    called once per line not skipped, in file order (it may keep state); an `is_header` with a
    `starts(piece)` method gives the header positions of a whole piece of lines at once
    instead (the same positions, its state kept alike)."""
    limit = read_limits().hand_bytes
    block: list[tuple[int, str]] = []
    is_hand = False
    size = 0
    unread = ""
    header = is_header.match
    header_starts = getattr(is_header, "starts", None)
    for piece, odd in _flagged_pieces(path):
        if skip is not None:
            piece = [line for line in piece if not skip.match(line[1])]
        if header_starts is not None:
            starts = header_starts(piece)
        else:
            starts = [k for k, line in enumerate(piece) if header(line[1])]
        starts.append(len(piece))
        sizes = [len(line[1]) for line in piece]
        at = 0
        for k in starts:
            if k > at:  # lines of the block under way
                part = piece[at:k]
                grown = size + sum(sizes[at:k]) + _PER_LINE_COST * (k - at)
                if grown <= limit:
                    block.extend(part)
                elif size <= limit:
                    for line in part:
                        size += len(line[1]) + _PER_LINE_COST
                        if size <= limit:
                            block.append(line)
                size = grown
                if odd and not unread:
                    unread = next((t.reason for _, t in part if isinstance(t, UnreadLine)), "")
            if k < len(piece):  # a header: the next block starts
                if block:
                    yield is_hand, block, unread or _too_big(block, size, limit)
                block, size, unread = [], 0, ""
                is_hand = True
                at = k
    if block:
        yield is_hand, block, unread or _too_big(block, size, limit)


def _too_big(block: list[tuple[int, str]], size: int, limit: int) -> str:
    return over_hand_limit(block[0][0], size) if size > limit else ""


def read_site_text(path: Path, *, fmt: str, header: Any, chunk_hands: int,
                   map_hand: Any, hand_id_of: Any, skip: Any = None) -> Iterator[Chunk]:
    """The shared read loop: split into hands, map each, quarantine what fails."""
    out = ChunkWriter(chunk_hands, str(path))
    for is_hand, block, unread in split_blocks(path, header, skip):
        first = next(((n, t) for n, t in block if t.strip()), None)
        if first is None:  # blank lines only
            continue
        if unread:
            out.reject(block, unread, hand_id_of(block[0][1]) if is_hand else None)
            continue
        if not is_hand:
            out.reject_outside(block, *first)
            continue
        hand = out.map_or_reject(block, hand_id_of(block[0][1]), map_hand, block, path.name)
        if hand is None:
            continue
        out.add(hand, raw_text(block))
        if out.full:
            yield out.take()
    if out.pending:
        yield out.take()


class SiteTextImporter:
    """A site's text files: recognised by `sniff_re` matching near the top (the file name
    ignored), read hand by hand by `read_site_text` with the subclass's hooks (`header_line`
    or a fresh `header()` per file, `map_hand`, `hand_id_of`, `skip`)."""

    name: str
    sniff_re: re.Pattern[str]
    header_line: Any = None
    skip: Any = None

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        del path
        return self.sniff_re.search(sniff_text(head)) is not None

    def header(self) -> Any:
        """What tells a hand's first line, for one file."""
        return self.header_line

    def map_hand(self, block: list[tuple[int, str]], file_name: str) -> Any:
        raise NotImplementedError

    def hand_id_of(self, header: str) -> str | None:
        raise NotImplementedError

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        yield from read_site_text(path, fmt=self.name, header=self.header(),
                                  chunk_hands=self.chunk_hands, map_hand=self.map_hand,
                                  hand_id_of=self.hand_id_of, skip=self.skip)


def bad_line(number: int, text: str, why: str = "unknown line") -> SiteHandError:
    return SiteHandError(f"line {number}: {why}: {text[:200]!r}")


# --- Full Tilt --------------------------------------------------------------------------
