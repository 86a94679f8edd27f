"""Bovada, Bodog and Ignition text hand histories imported as events.

A hand starts at a `<room> Hand #N` line (`Bovada`, `Bodog`, `Bodog.com`, `Ignition`, ...)
and runs to the next one.  The reader streams the file line by line (UTF-8 with or without a
BOM, cp1252, UTF-16), keeps one hand's lines at a time, maps it, and yields a `Chunk` of about
5,000 whole hands.  A hand with any line it does not know is quarantined whole (file, line,
the offending line, raw text); the rest of the file continues.  Text after a hand's summary
that is not a summary line (a piece of another hand whose header was lost, as archives that
concatenate partial files hold) is rejected on its own as text outside any hand.
`_map_bovada` below is the reader's single source of truth; the common button-game hands are
read by a fast path (bovada_fast.py) that builds the same events column-wise and hands every
other hand to it, so the chunks are the same either way.  Before both, a compiled pass
(bovada_kernel.py, numba; bovada_compiled.py) reads a plain file of up to 8 MB whole and
takes the hold'em and Omaha hands it fully understands straight from its bytes
(tests/importers/test_bovada_compiled.py: the same chunks as the line parser); every other
hand goes to the fast path and the parser as before.

These rooms deal at anonymous tables: a player is named by his position on this hand
(`Dealer`, `Small Blind`, `UTG+2`, stud `Seat+3`), `[ME]` marking the hero.  The reader
stores the label as the log gives it (`UTG+2 [ME]`, spacing normalised) and marks the hand
`players=anonymous` in the hand_started detail: a label is not a person, so the same label in
two hands says nothing about who sat there.

Mapping (Bovada line -> events; money exact: `Decimal` -> integer minor units):

* header `<room> Hand #N[:] <table and game> - yyyy-mm-dd hh:mm:ss [ZONE]` -> hand_id `bov:N`;
  the clock is Eastern time when no zone is written (`source` says so), else the zone given.
  Table and game words: `TBL#T` (table_id `T`), `Zone Poker ID#Z` (fast-fold: table_id
  `zone:Z`), `Tournament #I` (tournament: table_id `I T`, chips, `Level L (sb/bb)` the blinds),
  the game `HOLDEM` -> holdem, `OMAHA` -> omaha (five or six hole cards dealt -> omaha5 /
  omaha6), `OMAHA HiLo` -> omaha_hilo, `7CARD` -> stud, `7CARD HiLo` -> stud_hilo, glued
  `ZonePoker` dropped; the structure `No Limit`, `Pot Limit`, `Fixed Limit`; a tournament
  header may name its speed instead (`Normal-`, `Turbo-`): hold'em is then no-limit and Omaha
  pot-limit (`source` says so); `[MVS]` is layout.  `Table Info: ... Stakes: $1-$2` gives the
  blinds of a cash table.
* `Seat N: LABEL [[ME]] ($x in chips)` / stud `Seat+N [[ME]]: $x in chips` -> seat.  The
  numbers are the table's seats when they rise down the list (cash tables); a tournament lists
  players by an id (`Seat 1243: UTG+3`, or a shuffled `Seat 7`, `Seat 1`, ...) in table order:
  the seats are then numbered 1.. in list order (`source` says so).  A seat that is dealt no
  cards and neither posts nor acts sits out.
* The button is the seat labelled `Dealer` (else the seat of `Set dealer [k]`).
* posts: `Small Blind|Small blind|Ante/Small Blind $x` -> small_blind, `Big blind|Big Blind|
  Big blind/Bring in $x` -> big_blind (stud: bring_in), `Ante chip $x` -> ante,
  `Bring_in chip $x` -> bring_in, `Posts chip $x` -> new_player, `Posts dead chip $x` -> the
  big blind live (new_player) and the rest dead.  Blinds of a cash hand are the posted ones;
  fixed limit: small bet = big blind, big bet = twice it.
* `Card dealt to a spot [..]` -> the player's cards (Bovada writes every player's): deal/hole
  at `*** HOLE CARDS ***`; stud: the first three cards down, down, up, then one card a street
  (up, the seventh down), new betting rounds by the cards each player holds (the older files
  have no street lines).  Stud limits are not written: the small bet is the 3rd-street
  completion or 4th-street bet, the big bet the first 5th-street-or-later bet, each twice or
  half the other when only one is seen, else twice the bring-in (`source` says so).
* `Folds`, `Checks`, `Call|Calls $x` (added), `Bets|D bets|Double bets $x` (added),
  `Raises $x to $y` (to y), older `Raises $y` (to y), `All-in(raise) $x to $y` (to y),
  `All-in $x` (added; bet, call or raise by the round), any `(timeout)`-like suffix ignored;
  all in when the stack is spent.
* `*** FLOP|TURN|RIVER *** [..] [c]`, older `Card dealt to table [..]` -> deal/board.
* `Return uncalled portion of bet $x` -> award uncalled; `Hand result $x` -> award main,
  `Hand result-Side pot $x` -> award side-1.
* `Showdown [..]` / `Mucks [..]` -> show / muck with the player's dealt cards (the bracket is
  his best five, board cards included); `Does not show [..]` -> annotation when he is the
  last player in (a pot taken uncontested), else muck.
* summary `Total Pot($x)[ | Rake ($r)]` -> hand_ended detail `total_pot=x` and a rake event
  (no rake part: hand_started detail `rake=implicit`); `Board [..]` adds board cards the
  body never dealt, street by street; seat result lines are restatements.  The awards come
  after the play (grouped by pot).  Chips nobody matched with no `Return uncalled` line (a
  walk: the big blind's excess is paid inside his `Hand result` and counted in the total
  pot) -> hand_started detail `refunds=implicit`.
* The older files write no street lines (neither `*** FLOP ***` nor `Card dealt to table`):
  a street then starts when the betting round before it is over (every player still in
  with chips has acted since the last bet and matched it), its cards taken from the
  summary's board (`??` when the summary names none, `source` says so).
* All in before the hole cards is a forced bet: the ante (when the hand has antes and he has
  not anted), else the blind of his position (`Small Blind`, `Big Blind`, heads-up `Dealer`);
  in stud before any bet on 3rd street, the bring-in.  A blind all in for less keeps the
  table's blinds from the level or the stakes (cash: as posted).
* A line the log repeats verbatim that cannot happen twice in a row (a second post, bet,
  call, raise, return or payout by the same player with nobody acting between) -> annotation
  `repeated_line: ...` (the corrupted files), not a second action.
* Harmless lines -> annotation (`Leave(Auto)`, `Enter(Auto)`, `Seat sit out`, `Sit out`,
  `Re-join`, `Table enter|leave user`, `Table deposit $x`, `Seat stand`, `Draw for dealer`,
  `Ranking N`, `Prize ...`, `Folds & shows [..]` after the fold); `Seating Info:` and
  `Player Info:` lines are layout.
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from audit.importers.base import Chunk, Rejected
from audit.importers.sitetext import (
    CHUNK_HANDS,
    SiteHand,
    SiteHandError,
    SiteTextImporter,
    bad_line,
    local_to_utc,
    pot_of,
    raw_text,
    site_cards,
)

_ROOMS = r"(?:Bovada|Bodog(?:\.com|\.eu| UK| Canada|88)?|Ignition(?: Casino)?)"
_HEADER_LINE = re.compile(r"^\ufeff?" + _ROOMS + r" Hand #\d+")
_SNIFF = re.compile(r"(?m)^\ufeff?" + _ROOMS + r" Hand #\d+:? ")
_HEADER = re.compile(r"^\ufeff?(" + _ROOMS + r") Hand #(\d+):?\s+(.*?) - "
                     r"(\d{4}-\d\d-\d\d \d\d?:\d\d:\d\d)(?: ([A-Z]{2,5}))?$")
_HAND_ID = re.compile(r"Hand #(\d+)")
_TBL = re.compile(r"TBL#(\d+)")
_ZONE = re.compile(r"Zone Poker ID#(\d+)")
_TOURNEY = re.compile(r"Tournament #([\w-]+)")
_LEVEL = re.compile(r"Level (\d+) \(([0-9][0-9,.]*)/([0-9][0-9,.]*)\)")
_GAME = re.compile(r"\b(HOLDEM|OMAHA|7CARD|5CARD|2-7|RAZZ)(?:ZonePoker)?(?: (HiLo))?"
                   r"(?:ZonePoker)?\b")
_LIMIT = re.compile(r"(No Limit|Pot Limit|Fixed Limit|Limit)")
_SPEED = re.compile(r"\b(Normal|Turbo|Super Turbo|Hyper Turbo|Hyper|Deep)\b-?")
_STAKES_INFO = re.compile(r"Stakes: (\$?[0-9][0-9,.]*)-(\$?[0-9][0-9,.]*)")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \((\$?)([0-9][0-9,.]*) in chips\)$")
_SEAT_PLUS = re.compile(r"^Seat\+(\d+)( +\[ME\])?: (\$?)([0-9][0-9,.]*) in chips$")
_AMT = r"\$?[0-9][0-9,.]*"
# `Raises(timeout) $1 to $2`, `All-in(raise) $9.89 to $10.14`, `Folds (timeout)`, `Ranking 5`
_ACT = re.compile(r"^([A-Za-z][A-Za-z_/ +-]*?) ?(?:\(([^)]*)\))?(?: (" + _AMT + r")(?: to (" + _AMT
                  + r"))?)?$")
_SUMMARY_TOTAL = re.compile(r"^Total Pot\((" + _AMT + r")\)(?: \| Rake \((" + _AMT + r")\))?$")
_SUMMARY_SEAT = re.compile(r"^Seat[ +]\d+(?: \[ME\])?:")
_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER) \*\*\*(?: (\[[^\]]*\]))?(?: (\[[^\]]*\]))?$")
_STUD_STREET = re.compile(r"^\*\*\* (?:[3-6](?:RD|TH)|3rd|4th|5th|6th|7TH|7th) STREET \*\*\*$")
_STUD = frozenset({"stud", "stud_hilo", "razz"})
_GAMES = {("HOLDEM", ""): "holdem", ("OMAHA", ""): "omaha", ("OMAHA", "HiLo"): "omaha_hilo",
          ("7CARD", ""): "stud", ("7CARD", "HiLo"): "stud_hilo", ("RAZZ", ""): "razz"}
_LIMITS = {"No Limit": "no_limit", "Pot Limit": "pot_limit", "Fixed Limit": "fixed_limit",
           "Limit": "fixed_limit"}
_NOTES = {
    "leave": "leaves", "enter": "enters", "seat sit out": "sits_out", "sit out": "sits_out",
    "sitout": "sits_out", "seat re-join": "returned", "re-join": "returned",
    "table enter user": "table_change", "table leave user": "table_change",
    "seat stand": "stands_up", "stand": "stands_up", "seat sit down": "sits_down",
    "table deposit": "adds_chips", "ranking": "ranking",
}
_FOLDS = frozenset({"folds", "fold"})
_CALLS = frozenset({"call", "calls"})
_BETS = frozenset({"bets", "d bets", "double bets", "bets chip info"})
_POSTS = {"small blind": "small_blind", "ante/small blind": "small_blind",
          "big blind": "big_blind", "big blind/bring in": "big_blind",
          "ante chip": "ante", "bring_in chip": "bring_in", "posts chip": "new_player",
          "posts dead chip": "dead_chip"}
_BLIND_OF = {"Small Blind": "small_blind", "Big Blind": "big_blind", "Dealer": "dealer"}
_ACTIONS = frozenset({"folds", "fold", "checks", "check", "call", "calls", "bets", "d bets",
                      "double bets", "bets chip info", "raises", "raise", "all-in"})
_NEVER_TWICE = ("Small", "Big", "Ante", "Bring_in", "Posts", "Call", "Bets", "D bets", "Double",
                "Raises", "All-in", "Return uncalled", "Hand result", "Hand Result", "Ranking",
                "Prize")
_REPEATED = "\x00repeated"
_PUT_IN = frozenset({"post", "call", "bet", "raise", "complete"})
_ME = re.compile(r"\s+\[ME\]")
_TEXT = itemgetter(1)  # the text of a (line number, text) pair


def _label(text: str) -> str:
    """A seat label as stored: spacing collapsed, `[ME]` after one space."""
    if "[ME]" in text:
        text = _ME.sub(" [ME]", text)
    return " ".join(text.split()) if "  " in text else text.strip()


_KNOWN_AMOUNTS: dict[bool, dict[str, int]] = {True: {}, False: {}}


class _Money:
    __slots__ = ("mpu", "dollars", "known")

    def __init__(self, dollars: bool) -> None:
        self.dollars = dollars
        self.mpu = 100 if dollars else 1
        self.known = _KNOWN_AMOUNTS[dollars]  # the amounts read so far (a file repeats them)

    def __call__(self, text: str, line: int) -> int:
        got = self.known.get(text)
        if got is not None:
            return got
        value = self._read(text, line)
        if len(self.known) >= 4096:
            self.known.clear()
        self.known[text] = value
        return value

    def _read(self, text: str, line: int) -> int:
        t = text.lstrip("$").replace(",", "")
        try:
            value = Decimal(t) * self.mpu
        except ArithmeticError:
            raise SiteHandError(f"line {line}: {text!r} is not an amount") from None
        if value != value.to_integral_value():
            raise SiteHandError(f"line {line}: amount {text!r} is finer than the "
                                f"{'cent' if self.dollars else 'chip'}")
        return int(value)


def _header(number: int, text: str) -> dict[str, Any]:
    m = _HEADER.match(text)
    if not m:
        raise bad_line(number, text, "hand header not understood")
    room, hand_no, rest, stamp, zone = m.groups()
    words = _table_and_game(rest)
    if isinstance(words, str):
        raise bad_line(number, text, words)
    info: dict[str, Any] = {"room": room, "no": hand_no, "zone": zone, **words}
    try:
        local = _local_time(stamp)
    except ValueError:
        raise bad_line(number, text, "invalid date or time") from None
    info["local"] = local
    return info


@lru_cache(maxsize=1024)
def _table_and_game(rest: str) -> dict[str, Any] | str:
    """What a header's table and game words say (a file repeats them hand after hand), or
    why they are not understood. The caller copies the dict; nobody changes it."""
    g = _GAME.search(rest)
    if not g:
        return "no game (HOLDEM, OMAHA, 7CARD, ...) in the header"
    game = _GAMES.get((g.group(1), g.group(2) or ""))
    if game is None:
        return f"unsupported Bovada game {g.group(0)!r}"
    info: dict[str, Any] = {"variant": game}
    lim = _LIMIT.search(rest[g.end():])
    info["structure"] = _LIMITS[lim.group(1)] if lim else None
    info["speed"] = None
    if lim is None:
        sp = _SPEED.search(rest)
        if sp is None:
            return "no betting structure in the header"
        info["speed"] = sp.group(1)
        info["structure"] = "fixed_limit" if game in _STUD else (
            "no_limit" if game == "holdem" else "pot_limit")
    t = _TBL.search(rest)
    z = _ZONE.search(rest)
    tour = _TOURNEY.search(rest)
    table = t.group(1) if t else (f"zone:{z.group(1)}" if z else None)
    info["tournament"] = tour is not None
    info["table"] = f"{tour.group(1)} {table}" if tour else table
    lv = _LEVEL.search(rest)
    info["level"] = (int(lv.group(1)), lv.group(2), lv.group(3)) if lv else None
    return info


def _local_time(stamp: str) -> dt.datetime:
    """`yyyy-mm-dd h:mm:ss` (as `_HEADER` matched it) as a datetime, as
    `strptime(stamp, "%Y-%m-%d %H:%M:%S")` reads it (ValueError when it is no date)."""
    if not stamp.isascii():  # digits of another script: strptime's own reading
        return dt.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S")
    day, _, clock = stamp.partition(" ")
    hour, minute, second = clock.split(":")
    if len(minute) != 2 or len(second) != 2:
        raise ValueError(stamp)
    return dt.datetime(int(day[:4]), int(day[5:7]), int(day[8:10]), int(hour), int(minute),
                       int(second))


SeatRow = tuple[int, int, str, str, str]  # (line, written seat, label, $, amount)


def _seat_line(text: str) -> tuple[int, str, str, str] | None:
    """A `Seat N: label ($amount in chips)` line: (written seat, label, $, amount)."""
    s = _SEAT.match(text)
    return None if s is None else (int(s.group(1)), _label(s.group(2)), s.group(3), s.group(4))


def seat_lines(block: list[tuple[int, str]],
               seat_line: Callable[[str], tuple[int, str, str, str] | None]
               ) -> tuple[int, list[SeatRow], tuple[str, str] | None]:
    """The seat lines after the header (with `Table Info:` stakes and blank lines among them):
    (the index of the first line after them, the seats, the stakes written); `seat_line` reads
    a `Seat N:` line (the fast path passes a memoised one)."""
    i, n_block = 1, len(block)
    seats: list[SeatRow] = []
    stakes: tuple[str, str] | None = None
    while i < n_block:
        n, text = block[i]
        if text.startswith("Seat"):
            seat = seat_line(text)
            if seat is not None:
                seats.append((n, *seat))
                i += 1
                continue
            s = _SEAT_PLUS.match(text)
            if s:
                label = f"Seat+{s.group(1)}" + (" [ME]" if s.group(2) else "")
                seats.append((n, int(s.group(1)), label, s.group(3), s.group(4)))
                i += 1
                continue
            break
        if text.startswith("Table Info:"):
            si = _STAKES_INFO.search(text)
            if si:
                stakes = (si.group(1), si.group(2))
            i += 1
            continue
        if not text.strip():
            i += 1
            continue
        break
    return i, seats, stakes


def _map_bovada(block: list[tuple[int, str]], file_name: str
                ) -> tuple[SiteHand, int | None]:
    """The hand of `block`, and the index in `block` where text that is no part of it begins
    (None when the block is all this hand)."""
    number, header = block[0]
    info = _header(number, header)
    variant: str = info["variant"]
    structure: str = info["structure"]
    is_stud = variant in _STUD
    h = SiteHand(fmt="bovada", file_name=file_name, hand_id=f"bov:{info['no']}",
                 table_id=info["table"])
    notes = []
    if info["zone"]:
        ts, note = local_to_utc(info["local"], info["zone"])
    else:
        ts, note = local_to_utc(info["local"], "ET")
        note = ";ts=Eastern time (no zone written)"
    notes.append(note)
    if info["speed"]:
        notes.append(f";structure={structure} (the header names only the speed "
                     f"{info['speed']!r})")
    # --- seats -------------------------------------------------------------------------------
    n_block = len(block)
    i, seats, stakes = seat_lines(block, _seat_line)
    if not seats:
        raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
    dollars = seats[0][3] == "$"
    money = _Money(dollars)
    written = [s[1] for s in seats]
    renumbered = not (all(a < b for a, b in zip(written, written[1:], strict=False))
                      and written[-1] <= 10)
    if renumbered:
        notes.append(";seats=numbered in list order (the log lists player ids)")
    seat_no: dict[str, int] = {}
    for k, (_, listed_no, label, _, _) in enumerate(seats, start=1):
        seat_no[label] = k if renumbered else listed_no
    bare = {lab[:-5]: lab for lab in seat_no if lab.endswith(" [ME]")}

    known_as: dict[str, str] = {}

    def who(raw: str, line: int) -> str:
        got = known_as.get(raw)
        if got is not None:
            return got
        known_as[raw] = name = _who(raw, line)
        return name

    def _who(raw: str, line: int) -> str:
        lab = _label(raw)
        if lab in seat_no:
            return lab
        if lab in bare:
            return bare[lab]
        if lab.endswith(" [ME]") and lab[:-5] in seat_no:
            return lab[:-5]
        raise SiteHandError(f"line {line}: {raw.strip()!r} is not seated in this hand")

    # --- the body: split each line once; find who is dealt in ---------------------------------
    body: list[tuple[int, str, str | None, str]] = []  # (line, text, player or None, rest)
    end = None
    dealt: dict[str, list[tuple[int, str]]] = {}
    plays: set[str] = set()
    k = i
    summary_at = None
    prev = ""
    while k < n_block:
        n, text = block[k]
        if summary_at is not None:
            if (text.startswith("Seat") and (_SEAT.match(text) or _SEAT_PLUS.match(text))) or \
                    " : " in text:
                end = k  # a piece of another hand, its header lost
                break
            body.append((n, text, None, text))
            k += 1
            continue
        if not text:
            k += 1
            continue
        p, sep, rest = text.partition(" : ")
        if sep and not p.startswith("*"):
            name = who(p, n)
            if text == prev and rest.startswith(_NEVER_TWICE):
                # the same chips moved twice in a row by one player cannot happen (a second
                # bet, call, post or payout needs someone else to act first): the log repeats
                # the line (a corrupted file); kept as a note, not as a second action
                body.append((n, text, None, _REPEATED))
                k += 1
                continue
            prev = text
            body.append((n, text, name, rest))
            if rest.startswith("Card dealt to a spot ["):
                dealt.setdefault(name, []).append((n, rest[21:]))
            elif not rest.startswith(("Leave", "Enter", "Seat ", "Sit", "Re-join", "Table ",
                                      "Stand", "Draw for", "Set dealer", "Ranking", "Prize")):
                plays.add(name)
        else:
            if text == "*** SUMMARY ***":
                summary_at = len(body)
            body.append((n, text, None, text))
        k += 1
    if summary_at is None:
        raise SiteHandError(f"line {block[-1][0]}: hand ends without '*** SUMMARY ***' "
                            "(truncated?)")
    # --- game ----------------------------------------------------------------------------------
    if variant in ("omaha", "omaha_hilo") and dealt:
        count = len(_cards(next(iter(dealt.values()))[0][1], f"line {number}").split())
        if count in (5, 6):
            variant = f"omaha{count}" + ("_hilo" if variant == "omaha_hilo" else "")
    game: dict[str, Any] = {
        "variant": variant, "structure": structure,
        "currency": "USD" if dollars else "CHIPS", "minor_per_unit": money.mpu,
        "tournament": info["tournament"], "ante": 0, "seat_count": None,
    }
    if info["level"]:
        game["level"] = info["level"][0]
    started = h.emit(number, "hand_started", "".join(notes), ts=ts, game=game,
                     detail="players=anonymous")
    for n, _, label, _, amount in seats:
        out = label not in dealt and label not in plays
        h.add_seat(n, seat_no[label], label, money(amount, n), out)
    # blinds: the level's, the table's stakes, else the posted ones
    sb = bb = None
    if info["level"] and not is_stud:
        sb, bb = money(info["level"][1], number), money(info["level"][2], number)
        if bb == 0:
            sb = bb = None
    elif stakes and not is_stud:
        sb, bb = money(stakes[0], number), money(stakes[1], number)
    posted_sb = posted_bb = None
    dead_chips: list[int] = []
    for n, _, name, rest in body:
        if name is None:
            continue
        if rest.startswith("Posts dead chip "):
            dead_chips.append(money(rest.rsplit(" ", 1)[1], n))
        if rest.startswith(("Small Blind ", "Small blind ", "Ante/Small")) and posted_sb is None:
            posted_sb = money(rest.rsplit(" ", 1)[1], n)
        elif rest.startswith(("Big blind", "Big Blind")) and posted_bb is None:
            posted_bb = money(rest.rsplit(" ", 1)[1], n)
        elif rest.startswith("All-in ") and posted_bb is None and name.startswith("Big Blind"):
            posted_bb = money(rest.rsplit(" ", 1)[1], n)  # all in on the big blind
        elif rest.startswith("Card dealt") or rest.startswith(("Fold", "Call", "Raise", "Bet")):
            break
    big = bb if bb is not None else posted_bb
    dead_sb = next((d - big for d in dead_chips if big and big < d < 2 * big), None)
    stud_limits = None
    if is_stud:
        stud_limits = _stud_limits(body, money, started)
        game.update(small_bet=stud_limits[0], big_bet=stud_limits[1])
    else:
        if bb is None:
            bb = posted_bb
            sb = posted_sb
            if bb is None:
                raise SiteHandError(f"line {number}: no big blind posted: the blinds of the "
                                    "table are unknown")
            if sb is None and dead_sb is not None:
                sb = dead_sb  # a missed small blind made up with the big blind
            if sb is None:
                sb = bb // 2
                started["source"] += ";small_blind=assumed half the big blind (none posted)"
        if structure == "fixed_limit":
            game.update(small_bet=bb, big_bet=2 * bb, big_blind=bb,
                        small_blind=posted_sb if posted_sb is not None else sb)
        else:
            game.update(small_blind=sb, big_blind=bb)
    # --- play ----------------------------------------------------------------------------------
    section = "pre"
    dealer_k = None
    board: list[str] = []
    total_pot = None
    rake_stated = False
    stud = _Stud(h) if is_stud else None
    live_count = len(h.seat_of) - len(h.sitting_out)
    # the older files write no street lines: a street starts when the betting round before it
    # is over, its cards taken from the summary's board
    implicit = not is_stud and not any(
        p is None and (t.startswith(("*** FLOP", "*** TURN", "*** RIVER", "Card dealt to table")))
        for _, t, p, _ in body)
    summary_board: list[str] = []
    if implicit:
        for n, t, p, _ in body[summary_at:]:
            if p is None and t.startswith("Board [") and t[6:].strip("[] "):
                summary_board = _cards(t[6:], f"line {n}").split(" ")
                break
    need: set[int] | None = None  # seats still to act this round (implicit streets)
    has_antes = any(r.startswith("Ante chip") for _, _, p, r in body if p is not None)
    anted: set[str] = set()
    positions = {p.split(" [")[0] for p in h.seat_of}
    for n, text, name, rest in body:
        if name is None:
            if section == "summary":
                if (tp := _SUMMARY_TOTAL.match(text)) and total_pot is None:
                    total_pot = money(tp.group(1), n)
                    if tp.group(2) is not None:
                        rake_stated = True
                        r = money(tp.group(2), n)
                        if r:
                            h.emit(n, "rake", amount=r, detail="rake")
                elif text.startswith("Board [") and not is_stud:
                    stated = _cards(text[6:], f"line {n}").split(" ") if text[6:].strip(
                        "[] ") else []
                    if stated[:len(board)] != board:
                        raise bad_line(n, text, "the summary's board is not the board dealt")
                    while len(stated) > len(board):  # street by street
                        more = stated[len(board):3] if len(board) < 3 else stated[len(board):
                                                                                  len(board) + 1]
                        h.board(n, " ".join(more))
                        board.extend(more)
                elif _SUMMARY_SEAT.match(text) or not text.strip():
                    pass
                else:
                    raise bad_line(n, text, "unknown summary line")
                continue
            if text == "*** SUMMARY ***":
                section = "summary"
                continue
            if text == "*** HOLE CARDS ***" or (is_stud and _STUD_STREET.match(text)):
                if section == "pre" and not is_stud:
                    need = {x for x in h.left if x not in h.sitting_out and h.left[x] > 0}
                    h.deal_holes(n, variant, {p: (c[0][0], _cards(c[0][1], f"line {n}"))
                                              for p, c in dealt.items()})
                section = "play"
                continue
            if (st := _STREET.match(text)):
                if is_stud:
                    if st.group(1) == "RIVER" and st.group(2) is None:
                        continue  # stud's 7th street; cards follow per player
                    raise bad_line(n, text, "a board in a stud game")
                cards = st.group(3) or st.group(2)
                if cards is None:
                    raise bad_line(n, text, "a street without cards")
                new = _cards(cards, f"line {n}")
                h.board(n, new)
                board.extend(new.split(" "))
                section = "play"
                continue
            if text.startswith("Card dealt to table ["):
                new = _cards(text[20:], f"line {n}")
                h.board(n, new)
                board.extend(new.split(" "))
                continue
            if rest is _REPEATED:
                h.emit(n, "annotation", detail=f"repeated_line: {text}")
                if ";repeated" not in started["source"]:
                    started["source"] += ";repeated=lines the log repeats are notes"
                continue
            if text.startswith(("Seating Info:", "Player Info:", "Table Info:",
                                "Set dealer")):
                continue
            a = _ACT.match(text)
            if a and a.group(1).strip().lower() in _NOTES:
                h.emit(n, "annotation", detail=_NOTES[a.group(1).strip().lower()])
                continue
            raise bad_line(n, text)
        # a player's line
        if rest.startswith("Card dealt to a spot ["):
            if stud is not None:
                stud.dealt(n, text, name, _cards(rest[21:], f"line {n}"))
                section = "play"
            continue  # button games: dealt at *** HOLE CARDS ***
        if rest.startswith("Set dealer"):
            sd = rest.rfind("[")
            if sd >= 0:
                try:
                    dealer_k = int(rest[sd + 1:].rstrip("]"))
                except ValueError:
                    raise bad_line(n, text, "dealer seat not a number") from None
            continue
        if rest.startswith(("Showdown", "Mucks", "Does not show", "Folds & ", "Draw for dealer",
                            "Prize ")):
            w = h.who(name)
            cards = h.hole.get(w["seat"]) if stud is None else stud.cards_of(w["seat"])
            if rest.startswith("Showdown"):
                h.emit(n, "show", cards=cards or "?? ??", **w)
            elif rest.startswith("Mucks"):
                h.emit(n, "muck", cards=cards, **w)
            elif rest.startswith("Does not show"):
                alive = live_count - len(h.folded)
                if alive <= 1:
                    h.emit(n, "annotation", detail="does_not_show", **w)
                else:
                    h.emit(n, "muck", cards=cards, **w)
            elif rest.startswith("Folds & "):
                if w["seat"] not in h.folded:
                    h.act(n, name, "fold")
                h.emit(n, "annotation", detail="shows_folded_hand", **w)
            else:
                h.emit(n, "annotation", detail=_first_words(rest), **w)
            continue
        act = _action(rest)
        if act is None:
            raise bad_line(n, text)
        v, paren, x, y = act
        if implicit and need is not None and v in _ACTIONS:
            if not need and len(board) < 5:  # the round is over: the next street's cards
                k = 3 if not board else 1
                more = summary_board[len(board):len(board) + k]
                if len(more) < k:
                    more = ["??"] * k
                    started["source"] += ";board=not logged"
                h.board(n, " ".join(more))
                board.extend(more)
                need = {x for x in h.left if x not in h.sitting_out and x not in h.folded
                        and h.left[x] > 0}
            rows_before = len(h.rows)
        if v in _FOLDS:
            h.act(n, name, "fold")
            if need is not None:
                need.discard(h.seat_of[name])
            continue
        if v == "checks" or v == "check":
            h.act(n, name, "check")
            if need is not None:
                need.discard(h.seat_of[name])
            continue
        if v in _POSTS:
            if x is None:
                raise bad_line(n, text, "a post without an amount")
            amt = money(x, n)
            kind = _POSTS[v]
            if is_stud and kind == "big_blind":
                kind = "bring_in"
            if kind == "ante":
                anted.add(name)
                if not game["ante"]:
                    game["ante"] = amt
                h.post(n, name, "ante", amt, live=False)
            elif kind == "bring_in":
                game.setdefault("bring_in", amt)
                h.post(n, name, "bring_in", amt, live=True)
            elif kind == "dead_chip":
                live = min(amt, game.get("big_blind") or amt)
                h.post(n, name, "new_player", live, live=True)
                if amt > live:
                    h.post(n, name, "dead", amt - live, live=False)
            else:
                h.post(n, name, kind, amt, live=True)
            continue
        if v in _NOTES:
            h.emit(n, "annotation", detail=_NOTES[v], **h.who(name))
            continue
        if x is None:
            raise bad_line(n, text)
        if v in _CALLS:
            h.act(n, name, "call", added=money(x, n))
        elif v in _BETS:
            amt = money(x, n)
            kind = "bet"
            if stud is not None and stud.number == 3:  # opens 3rd street for the full bet
                kind = _raise_kind(h, stud, h.round.get(h.seat_of[name], 0) + amt)
                kind = "bet" if kind == "raise" else kind
            h.act(n, name, kind, added=amt)
        elif v == "raises" or v == "raise":
            to = money(y if y is not None else x, n)
            h.act(n, name, _raise_kind(h, stud, to), to=to)
        elif v == "all-in" and (section == "pre" or (
                stud is not None and "bring_in" not in game and stud.number == 3
                and not any(r["kind"] in _PUT_IN and r["detail"] != "ante"
                            for r in h.rows))):
            # all in on a forced bet: the ante, the blind of his position, stud's bring-in
            amt = money(x, n)
            if stud is not None and section != "pre":
                game.setdefault("bring_in", amt)
                h.post(n, name, "bring_in", amt, live=True)
            elif has_antes and name not in anted:
                h.post(n, name, "ante", amt, live=False)
            else:
                kind = _BLIND_OF.get(name.split(" [")[0])
                if kind is None or (kind == "dealer" and "Small Blind" in positions):
                    kind = "new_player"
                elif kind == "dealer":
                    kind = "small_blind"
                h.post(n, name, kind, amt, live=True)
        elif v == "all-in":
            seat = h.seat_of[name]
            left, before = h.left[seat], h.round.get(seat, 0)
            amt = money(x, n)
            if y is not None or (paren and paren.startswith("raise")):
                to = money(y, n) if y is not None else (amt if amt == before + left
                                                        or amt != left else before + amt)
                kind = _raise_kind(h, stud, to)
                if kind == "complete":
                    h.act(n, name, kind, to=to, all_in=to - before == left)
                else:  # a bet when nobody has bet, a call when it does not raise
                    h.act(n, name, "auto", added=to - before, all_in=to - before == left)
            else:
                h.act(n, name, "auto", added=amt, all_in=amt == left)
        elif v.startswith("return uncalled"):
            h.award(n, name, money(x, n), "uncalled")
        elif v == "hand result":
            h.award(n, name, money(x, n), "main")
        elif v.startswith("hand result-side pot"):
            h.award(n, name, money(x, n), "side-1")
        else:
            raise bad_line(n, text)
        if implicit and need is not None and v in _ACTIONS and len(h.rows) > rows_before:
            row = h.rows[-1]
            seat = row["seat"]
            if row["kind"] in ("bet", "raise", "complete"):
                need = {x for x in h.left if x not in h.sitting_out and x not in h.folded
                        and h.left[x] > 0 and x != seat}
            elif row["kind"] == "post":
                pass
            else:
                need.discard(seat)
            if h.left[seat] == 0:
                need.discard(seat)
    if stud is not None:
        stud.flush()
    if not any(r["kind"] == "award" and r["detail"] == "uncalled" for r in h.rows):
        put: dict[int, int] = {}
        for r in h.rows:
            if r["kind"] in _PUT_IN:
                put[r["seat"]] = put.get(r["seat"], 0) + (r["amount"] or 0)
        top = sorted(put.values(), reverse=True)
        if len(top) > 1 and top[0] > top[1]:
            # chips nobody matched and no `Return uncalled` line (a walk): the room pays them
            # back inside the winner's `Hand result`
            started["detail"] += ";refunds=implicit"
    if total_pot is not None:
        if not rake_stated:
            started["detail"] += ";rake=implicit"
    else:
        started["detail"] += ";rake=implicit"
    if not is_stud:
        dealer = next((s for p, s in h.seat_of.items() if p.split(" [")[0] == "Dealer"), None)
        if dealer is None and "Small Blind" in positions:
            # nobody on the button (its player left): the button is the seat before the small
            # blind's, empty
            dealer = next(s for p, s in h.seat_of.items()
                          if p.split(" [")[0] == "Small Blind") - 1
            started["source"] += ";button=the empty seat before the small blind"
        if dealer is None and dealer_k is not None:
            dealer = dealer_k if not renumbered or dealer_k <= len(seats) else None
        if dealer is None:
            raise SiteHandError(f"line {number}: no Dealer seat and no 'Set dealer [N]' line")
        game["button_seat"] = dealer
    elif "bring_in" not in game:
        game["bring_in"] = stud_limits[0] // 2 if stud_limits else 0
        started["source"] += ";bring_in=assumed half the small bet"
    last = block[end - 1][0] if end is not None else block[-1][0]
    h.end(last, f"total_pot={total_pot}" if total_pot is not None else None)
    _settle_last(h)
    return h, end


def _settle_last(h: SiteHand) -> None:
    """`SiteHand.settle_awards_last` unless the hand is already in that order (the play, the
    main pot's awards, the rake)."""
    rows = h.rows
    kinds = [r["kind"] for r in rows]
    tail = len(rows) - 1
    while tail > 0 and kinds[tail - 1] in ("award", "rake"):
        tail -= 1
    play = kinds[:tail]
    if "award" not in play and "rake" not in play and all(
            pot_of(r["detail"]) == "main" for r in rows[tail:-1] if r["kind"] == "award") and (
            all(k == "award" for k in kinds[tail:-1]) or kinds[-2] == "rake"):
        return  # already in order: the play, the main pot's awards, the rake
    h.settle_awards_last()


_CARD_SET = frozenset(r + u for r in "23456789TJQKA" for u in "cdhs")


def _cards(text: str, what: str) -> str:
    """`[4s Qh]` -> `4s Qh` (validated); anything unusual goes to the shared reader."""
    inner = text.strip().strip("[]").split()
    if inner and _CARD_SET.issuperset(inner):
        return " ".join(inner)
    return site_cards(text, what)


@lru_cache(maxsize=4096)
def _action(rest: str) -> tuple[str, str | None, str | None, str | None] | None:
    """(verb lower-cased, parenthesis, amount, raise-to) of a player's line (`_ACT`; a file
    repeats the same few), None when it is not one."""
    a = _ACT.match(rest)
    if a is None:
        return None
    verb, paren, x, y = a.groups()
    return verb.strip().lower(), paren, x, y


def _first_words(text: str) -> str:
    return text.split(" [", 1)[0].strip().lower().replace(" ", "_")


def _raise_kind(h: SiteHand, stud: _Stud | None, to: int) -> str:
    """`complete` for a stud raise that brings the bring-in up to the small bet."""
    if stud is not None and stud.number == 3 and not stud.completed:
        stud.completed = True
        top = max(h.round.values(), default=0)
        if top < to <= stud.small_bet:
            return "complete"
    return "raise"


def _stud_limits(body: list[tuple[int, str, str | None, str]], money: _Money,
                 started: dict[str, Any]) -> tuple[int, int]:
    """(small bet, big bet) of a stud hand, from the bets it shows."""
    held: dict[str, int] = {}
    street = 0
    small = big = double = None
    bring = None
    for n, _, name, rest in body:
        if name is None:
            continue
        if rest.startswith("Card dealt to a spot ["):
            held[name] = held.get(name, 0) + len(rest[21:].split())
            street = max(street, held[name])
            continue
        a = _ACT.match(rest)
        if a is None or a.group(3) is None:
            continue
        v = a.group(1).strip().lower()
        if v in ("bring_in chip", "big blind/bring in", "big blind"):
            bring = money(a.group(3), n)
        elif street == 3 and v == "bets" and small is None:
            small = money(a.group(3), n)  # the bring-in's seat completes at once
        elif street == 3 and v in ("raises", "raise") and small is None:
            small = money(a.group(4) or a.group(3), n)
        elif street == 4 and v == "bets" and small is None:
            small = money(a.group(3), n)
        elif street == 4 and v in ("d bets", "double bets") and double is None:
            double = money(a.group(3), n)
        elif street >= 5 and v == "bets" and big is None:
            big = money(a.group(3), n)
    if small is not None and big is not None:
        return small, big
    if small is not None:
        return small, 2 * small
    if big is not None:
        return big // 2, big
    if double is not None:
        return double // 2, double
    small = 2 * (bring or 0)
    started["source"] += ";limits=not logged (small bet assumed twice the bring-in)"
    return small, 2 * small


class _Stud:
    """The stud deal: each player's cards in the order dealt; a new betting round when the
    first card of a new street is dealt."""

    def __init__(self, hand: SiteHand) -> None:
        self.hand = hand
        self.number = 0
        self.held: dict[int, list[str]] = {}
        self.completed = False
        self.small_bet = 0

    def dealt(self, line: int, text: str, name: str, cards: str) -> None:
        h = self.hand
        w = h.who(name)
        seat = w["seat"]
        got = cards.split(" ")
        have = self.held.setdefault(seat, [])
        if not have:
            if len(got) != 3:
                raise bad_line(line, text, "3rd street deals three cards")
            street = 3
        elif len(got) == 1 and 3 <= len(have) < 7:
            street = len(have) + 1
        else:
            raise bad_line(line, text, "a stud street deals one card")
        if street > self.number:
            if street != self.number + 1 and self.number:
                raise bad_line(line, text, "stud street out of order")
            self.number = street
            if street > 3:
                h.new_round()
            else:
                self.small_bet = h.rows[0]["game"]["small_bet"]
        elif street < self.number:
            raise bad_line(line, text, "a card for an earlier street")
        have.extend(got)
        if street == 3:
            h.emit(line, "deal", cards=" ".join(got[:2]), detail="down", **w)
            h.emit(line, "deal", cards=got[2], detail="up", **w)
        else:
            h.emit(line, "deal", cards=got[0], detail="down" if street == 7 else "up", **w)

    def cards_of(self, seat: int) -> str | None:
        have = self.held.get(seat)
        return " ".join(have) if have else None

    def flush(self) -> None:
        return None


def _hand_id(header: str) -> str | None:
    m = _HAND_ID.search(header)
    return f"bov:{m.group(1)}" if m else None


class BovadaImporter(SiteTextImporter):
    """Bovada / Bodog / Ignition text files: recognised by a line starting `Bovada Hand #`,
    `Bodog Hand #`, `Ignition Hand #` (and the room's other names) near the top, read hand by
    hand."""

    name = "bovada"
    sniff_re = _SNIFF

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True,
                 compiled: bool = True) -> None:
        super().__init__(chunk_hands)
        self.fast = fast
        self.compiled = compiled

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each: the common hands
        by the compiled pass (bovada_kernel.py, a file read whole when it is plain) or the
        fast path (bovada_fast.py), every other one by the line parser `_map_bovada`
        (`fast=False`: the parser alone; `compiled=False`: no compiled pass)."""
        if self.fast and self.compiled:
            from audit.importers.bovada_compiled import read_compiled

            chunks = read_compiled(path, self.chunk_hands)
            if chunks is not None:
                yield from chunks
                return
        from audit.importers.bovada_fast import read_bovada  # it builds on this module
        yield from read_bovada(path, self.chunk_hands, fast=self.fast)


def _outside(src: str, block: list[tuple[int, str]]) -> Rejected:
    return Rejected(source=src, line=block[0][0], hand_id=None, raw=raw_text(block),
                    reason=f"line {block[0][0]}: text outside any hand (a piece of a hand "
                           f"whose header is missing): {block[0][1][:120]!r}")


IMPORTER = BovadaImporter()
