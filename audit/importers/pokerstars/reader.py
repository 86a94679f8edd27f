"""PokerStars hand history text (and PokerStars-style exports) imported as events.

Streaming: the file is read line by line in binary; a hand starts at a `PokerStars ... #N:`
header line and ends at the next blank line or header. Each hand is decoded on its own
(UTF-8, else cp1252, else latin-1: per hand, so one odd hand never changes the others; a BOM
and trailing whitespace / CR are dropped), parsed, and its rows appended to column lists; a
`Chunk` of about 5,000 whole hands is yielded at a time. Non-blank text outside any hand is
one `Rejected` (hand_id None). A hand with any line the parser does not know is quarantined
whole (file, offending line number, the line itself in the reason, the raw hand text).

Mapping (construct -> events; amounts exact integer minor units, cents for $/€/£ games, whole
chips for tournaments and play money):

* header -> `hand_started` with game {variant, structure, small_blind, big_blind (NL/PL:
  the stakes; fixed limit: big_blind = small bet, small_blind = the first full small-blind
  post), small_bet/big_bet (fixed limit: the stakes), ante (the first full ante post, else 0),
  bring_in (stud: the first full bring-in; without one in the hand, the last one seen at the
  same stakes in the file, else half the small bet -- `source` says so), button_seat,
  seat_count (`N-max`), currency, minor_per_unit, tournament, level}; hand_id `ps:<number>`;
  table_id the table name; ts = the ET time (in brackets when the header has two) as UTC;
  unknown zones are read as UTC with `;ts=...` in source. detail `cancelled=true` when the
  hand says `Hand cancelled`.
* `Seat N: P ($x in chips)` -> `seat` (`is sitting out` / `out of hand` -> detail sitting_out;
  in tournaments a sitting-out player is still dealt in, so his seat is plain and followed by
  an annotation sits_out).
* posts: small blind -> post small_blind (a second one: dead); big blind -> big_blind (any
  later big-blind post, a player coming in: new_player); `small & big blinds $x` ->
  post new_player (one big blind, live) + post dead (the rest); ante -> ante; straddle ->
  straddle; `brings in for` -> bring_in; 6+ hold'em `button blind $x` -> button_blind (live).
  total = the live round total (null for dead, ante).
* 6+ hold'em (`6+ Hold'em` / `Hold'em 6+`, variant holdem_6plus): stakes `ante/button blind`
  (big_blind = the button blind, no small_blind; ante from the posts); a card below the six
  quarantines the hand.
* folds/checks/calls/bets/raises X to Y/completes it to Y -> fold/check/call/bet/raise/complete
  (amount added, total after; ` and is all-in` -> detail all_in).
* hole cards: button games get `deal` hole per dealt-in seat in seat order (`Dealt to` cards,
  `??` for the others); stud: `deal` down + up per seat and street (3rd street down `?? ??`
  for others; the 7th-street down card `??` for every live seat not shown); draws: `discards
  N cards [x]` -> draw (cards or `??` each, amount N) + deal draw (the new cards from
  `Dealt to P [kept] [new]`, else `??`), `stands pat` -> stand_pat.
* boards: FLOP/TURN/RIVER -> deal board (new cards); run it twice `FIRST X` -> board,
  `SECOND X` -> board@run2. Split Hold'em (variant holdem_split) writes every street so, its
  betting after both: the same events, the second board's being all its own cards.
* `shows [..]` -> show; `mucks hand` / `doesn't show hand` -> muck (cards from the summary's
  `mucked [..]` when given); `collected X from pot|main pot|side pot[-N]` -> award main /
  side-N (`side pot` alone: side-1) with `@run2` after `*** SECOND SHOW DOWN ***`; hi-lo
  games: a pot paid in several lines with a low is split into /high then /low lines (the site
  lists high winners first; the split is where the two halves' sums are closest); with `No low
  hand qualified` labels stay plain. `Uncalled bet (X) returned to P` -> award uncalled.
* summary `Total pot X [Main pot ... Side pot-N ...] | Rake Y [| Jackpot Z | Fee F]` -> rake
  (detail rake/jackpot/fee); the pot sizes go to hand_ended detail `total_pot=..;pots=..`.
* site messages -> `annotation` with detail: joins, leaves, connected, disconnected,
  timed_out, returned, sits_out, removed, allowed_after_button, cash_out, betting_capped,
  pair_on_board, no_low, `said: <words>`, `bounty: <line>`, `finished: <line>`.

* other rooms writing PokerStars text (`PokerMaster Hand #`, `Run It Once Poker Hand #`,
  `Full Tilt Hand #`: game.ROOMS) and converters (a header without a time zone): hand_started
  detail `room=<pokermaster|rio|fulltilt|converted>`, hand_id prefix `pokermaster:`, `rio:`,
  `ftp:`, `converted:` (their numbers are not PokerStars'). A file's hands are cut at its
  room's header (`file_head`). Run It Once's Splash the Pot `STP added: €0.50` (money the
  room adds to the pot) -> `pot_added` detail splash; its summary states `STP €0.50` beside
  the pots (not read as a pot) and its collection lines count the STP twice: on exactly that
  signature the awards are the summary's `won` per seat (`_splash_awards`). Another room's
  anonymous table (two or more seats named `Dealer`,
  `Small Blind`, `UTGplus1`...) is flagged `players=anonymous`: seat labels are not people.
* All-in Cash Out: a pot the summary says was `won ($x) ... (pot not awarded as player cashed
  out)` -> award(s) to its winner(s), by the stated pots (tied winners share each); the
  `cashed out the hand for` line -> annotation cash_out.
* a 2007 header date `2007/10/15 - 05:34:03 (ET)`; UTF-16 files are read from a UTF-8 copy
  (importer.py); NUL bytes are dropped.

Harmless lines accepted without an event: `*** HOLE CARDS ***`, `*** DEALING HANDS ***`,
`*** SHOW DOWN ***` (and FIRST/SECOND), `*** SUMMARY ***`, `Hand was run twice`,
`Board [..]`, `FIRST/SECOND Board [..]`, summary `Seat N: ...` lines (restatements).
Nothing is recomputed: awards, rake and returns are what the site wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from audit.importers.base import (
    RAW_EXCERPT_CHARS,
    Chunk,
    Rejected,
    over_hand_limit,
    over_line_limit,
    over_text_limit,
    read_limits,
)
from audit.importers.pokerstars.game import (
    DRAW,
    HILO,
    HOLE_COUNT,
    ID_PREFIX,
    ROOMS,
    SHORT,
    STUD,
    PokerStarsError,
    money,
    read_header,
)
from audit.schema import events_schema

CHUNK_HANDS = 5000
_SNIFF = (b"PokerStars Hand #", b"PokerStars Game #", b"PokerStars Zoom Hand #",
          b"PokerStars Home Game Hand #", b"PokerStars Zoom Game #",
          b"PokerStars Home Game #", b"PokerMaster Hand #", b"Run It Once Poker Hand #",
          b"Full Tilt Hand #")
# the first words of a hand's header line, per room ('PokerStars ', 'Full Tilt ', ...)
HEADS = tuple(room.encode() + b" " for room in ROOMS)
STARS_HEAD = b"PokerStars "


def file_head(path: Path) -> bytes:
    """The header words of the room whose hands the file holds (the first found in its first
    64 KB), `PokerStars ` when none is."""
    with path.open("rb") as f:
        data = f.read(1 << 16)
    found = [(k, head) for head in HEADS for k in (data.find(b"\n" + head),
                                                   data.find(head, 0, len(head) + 3))
             if k >= 0]
    return min(found)[1] if found else STARS_HEAD
_BOM = b"\xef\xbb\xbf"
_ALL_IN = " and is all-in"
# The seat labels an anonymous table writes instead of names (converted Bovada/Ignition text).
_SEAT_LABEL = re.compile(r"^(?:Dealer|Small Blind|Big Blind|UTG(?:\+\d|plus\d)?|"
                         r"Seat \d+)(?: \[ME\])?$")

# Site messages 'P <suffix>' -> annotation detail.
_NOTES = (
    (" joins the table at seat #", "joins"), (" leaves the table", "leaves"),
    (" is connected", "connected"), (" is disconnected", "disconnected"),
    (" has timed out while disconnected", "timed_out"),
    (" has timed out while being disconnected", "timed_out"), (" has timed out", "timed_out"),
    (" has returned", "returned"), (" is sitting out", "sits_out"),
    (" was removed from the table for failing to post", "removed"),
    (" will be allowed to play after the button", "allowed_after_button"),
)
_KNOCKOUT = re.compile(r"(.+) wins \S+ for (?:eliminating|splitting the elimination of) ").match
# Site lines without a player -> annotation detail.
_SITE_LINES = {"No low hand qualified": "no_low", "Betting is capped": "betting_capped",
               "Hand cancelled": "cancelled", "Pair on board - a double bet is allowed":
               "pair_on_board", "The deck is reshuffled": "deck_reshuffled"}
# A seat line with no parentheses in the name and nothing after the stack (the common case).
_PLAIN_SEAT = re.compile(r"Seat ([1-9][0-9]?): ([^()]+) \((\$?[0-9.,]+) in chips\)$").match
_STUD_STREETS = {"3rd STREET": 3, "4th STREET": 4, "5th STREET": 5, "6th STREET": 6}
_BOARD_STREETS = ("FLOP", "TURN", "RIVER")
_DRAW_HEADERS = frozenset({"FIRST DRAW", "SECOND DRAW", "THIRD DRAW", "DRAW"})
_QUIET_HEADERS = frozenset({"HOLE CARDS", "DEALING HANDS", "SHOW DOWN", "FIRST SHOW DOWN",
                            "SHOWDOWN",
                            "PRE-FLOP"})
_PUT_IN = frozenset({"post", "call", "bet", "raise", "complete"})
# the bring-in last logged per (currency, stakes) in a file: a stud hand that logs none (its
# lowcard went all-in on the ante, or completed) takes it from there
BringIns = dict[tuple[str, tuple[int, int] | None], int]

Row = tuple[str, int | None, str | None, int | None, int | None, str | None, str | None, int]


_CARD = r"[2-9TJQKA][cdhs]"
_CARD_LIST = rf"{_CARD}(?: {_CARD})*"
# '[Ah Kd]' and '[Ah Kd] [7c]' written plainly: one regex match instead of a loop per card
_PLAIN_CARDS = re.compile(rf"\[({_CARD_LIST})\]").fullmatch
_PLAIN_BRACKETS = re.compile(rf"\[{_CARD_LIST}\](?: \[{_CARD_LIST}\])*").fullmatch


def _cards(text: str) -> str:
    """'[Ah Kd]' -> 'Ah Kd' (validated); raises ValueError."""
    plain = _PLAIN_CARDS(text)
    if plain is not None:
        return plain[1]
    if not (text.startswith("[") and text.endswith("]")):
        raise ValueError(text)
    inner = text[1:-1]
    for c in inner.split(" "):
        if len(c) != 2 or c[0] not in "23456789TJQKA" or c[1] not in "cdhs":
            raise ValueError(text)
    return inner


def _brackets(text: str) -> list[str]:
    """'[a b] [c]' -> ['a b', 'c']."""
    if _PLAIN_BRACKETS(text) is not None:
        return text[1:-1].split("] [")
    out = []
    for part in text.split("] ["):
        out.append(_cards("[" + part.strip("[]") + "]"))
    if not text.startswith("[") or not text.endswith("]"):
        raise ValueError(text)
    return out


_TABLE_TAILS: dict[str, tuple[int | None, int | None, str | None]] = {}


def _table_tail(text: str) -> tuple[int | None, int | None, str | None]:
    """(seat_count, button, the first word not understood) from what follows the table name,
    e.g. ' 6-max Seat #3 is the button'. Memoised: a file repeats a handful of these."""
    known = _TABLE_TAILS.get(text)
    if known is not None:
        return known
    tail = text.split()
    seat_count = button = None
    unknown = None
    for i, word in enumerate(tail):
        if word.endswith(("-max", "-Max")) and word[:-4].isdigit():
            seat_count = int(word[:-4])
        elif word.startswith("#") and tail[i + 1 : i + 4] == ["is", "the", "button"]:
            button = int(word[1:])
        elif word in ("is", "the", "button", "(Play", "Money)", "(Real", "Money)"):
            pass
        elif word.startswith("#") or word == "Seat":
            pass
        else:
            unknown = word
            break
    if len(_TABLE_TAILS) > 10_000:
        _TABLE_TAILS.clear()
    result = _TABLE_TAILS[text] = (seat_count, button, unknown)
    return result


class _Hand:
    """Parses one hand's lines into rows; raises PokerStarsError(reason, line)."""

    def __init__(self, lines: list[str], start: int, file_name: str, text: str = "",
                 bring_ins: BringIns | None = None) -> None:
        self.text = text
        self.lines = lines
        self.start = start
        self.file_name = file_name
        # the file's earlier bring-ins (`BringIns`), read and updated by this hand
        self.bring_ins: BringIns = {} if bring_ins is None else bring_ins

    def parse(self) -> tuple[str, str | None, Any, list[Row], dict[str, Any], str]:
        lines, start = self.lines, self.start
        h, number, ts, ts_note = read_header(lines[0])
        mpu = h.minor_per_unit
        variant = h.variant
        is_stud = variant in STUD
        is_draw = variant in DRAW
        rows: list[Row] = []
        add = rows.append
        if len(lines) < 2 or not lines[1].startswith(("Table '", "Table ID '")):
            raise PokerStarsError("second line is not \"Table '...'\"", start + 1)
        tline = lines[1]
        if tline.count("'") < 2:
            raise PokerStarsError(f"table line {tline!r} has no closing quote: the hand is cut "
                                  "short (truncated)", start + 1)
        close = tline.rfind("'")
        table = tline[tline.index("'") + 1 : close]
        seat_count, button, unknown = _table_tail(tline[close + 1 :])
        if unknown is not None:
            raise PokerStarsError(f"table line {tline!r} has unknown text {unknown!r}",
                                  start + 1)
        game: dict[str, Any] = {
            "variant": variant, "structure": h.structure, "button_seat": button,
            "seat_count": seat_count, "currency": h.currency, "minor_per_unit": mpu,
            "tournament": h.tournament, "level": h.level, "ante": 0,
        }
        add(("hand_started", None, None, None, None, None, None, start))
        seats: dict[str, int] = {}
        names: dict[int, str] = {}
        out: set[int] = set()
        first = 2
        n = len(lines)
        while first < n and lines[first].startswith("Seat ") and (
                " in chips)" in lines[first] or " in chips, " in lines[first]):
            s = lines[first]
            plain = _PLAIN_SEAT(s)
            if plain is not None:  # 'Seat 3: P ($5 in chips)', nothing odd: one regex match
                seat = int(plain[1])
                name = plain[2]
                try:
                    stack = money(plain[3], mpu)
                except ValueError:
                    raise PokerStarsError(f"seat line {s!r}: stack is not an amount",
                                          start + first) from None
                if name in seats or seat in names:
                    raise PokerStarsError(f"seat line {s!r} repeats a seat or player",
                                          start + first)
                seats[name] = seat
                names[seat] = name
                add(("seat", seat, name, stack, None, None, None, start + first))
                first += 1
                continue
            colon = s.find(": ")
            open_ = s.rfind(" (", 0, s.rfind(" in chips"))
            if colon < 0 or open_ < 0 or not s[5:colon].isdigit():
                raise PokerStarsError(f"seat line {s!r} is not 'Seat N: P ($x in chips)'",
                                      start + first)
            seat = int(s[5:colon])
            name = s[colon + 2 : open_]
            chips_end = s.find(" in chips", open_)
            rest = s[chips_end + 9 :]
            # '($x in chips)' then an optional note, or '($x in chips, $y bounty)'
            rest = rest[1:].strip() if rest.startswith(")") else rest.strip()
            try:
                stack = money(s[open_ + 2 : chips_end], mpu)
            except ValueError:
                raise PokerStarsError(f"seat line {s!r}: stack is not an amount", start + first
                                      ) from None
            detail = None
            note_out = False
            if rest:
                if rest == "[hero]":  # Run It Once marks the player whose history it is
                    pass
                elif rest == "is sitting out" and h.tournament:
                    # PokerStars tournaments deal a sitting-out player in: he is blinded
                    # and anted, and his hand is folded for him. Dealt in, with a note.
                    note_out = True
                elif rest == "is sitting out" or rest.startswith("out of hand"):
                    detail = "sitting_out"
                    out.add(seat)
                elif rest.startswith(", ") and rest.endswith(" bounty)"):
                    pass  # a progressive knockout's bounty on his head: no chips in play
                elif (rest.startswith(", ") and rest.endswith(" bounty) is sitting out")
                      and h.tournament):
                    note_out = True
                else:
                    raise PokerStarsError(f"seat line {s!r} has unknown text {rest!r}",
                                          start + first)
            if name in seats or seat in names:
                raise PokerStarsError(f"seat line {s!r} repeats a seat or player", start + first)
            seats[name] = seat
            names[seat] = name
            add(("seat", seat, name, stack, None, None, detail, start + first))
            if note_out:
                add(("annotation", seat, name, None, None, None, "sits_out", start + first))
            first += 1
        if not seats:
            raise PokerStarsError("hand has no 'Seat N: P ($x in chips)' lines", start + 2)

        rnd: dict[int, int] = {}
        folded: set[int] = set()
        hole_known: dict[int, tuple[str, int]] = {}
        pending_hole = -1  # line of the HOLE CARDS header while hole deals are pending
        stud_dealt: set[int] = set()
        stud_prev: set[int] = set()
        stud_river = -1
        pending_draw: list[tuple[int, str, int, int]] = []
        in_draw = False
        summary = False
        run_suffix = ""
        no_low = False
        cancelled = False
        award_rows: list[int] = []
        muck_row: dict[int, list[int]] = {}
        first_sb = first_bb = None
        seen_sb = seen_bb = False
        bring_in = ante = None
        total_pot = None
        pots_note = ""
        cashed_out: list[tuple[int, int, int]] = []  # (seat, amount won, line)
        hole_n = HOLE_COUNT.get(variant, 2)

        def flush() -> None:
            nonlocal pending_hole, stud_river, hole_n
            if pending_hole >= 0:
                if variant == "omaha" and h.room is not None and hole_known:
                    # another room's 5- or 6-card Omaha headed plain 'Omaha' (PokerMaster):
                    # the cards dealt say which
                    dealt = len(next(iter(hole_known.values()))[0].split(" "))
                    if dealt in (5, 6):
                        hole_n = dealt
                        game["variant"] = f"omaha{dealt}"
                for seat in sorted(names):
                    if seat in out:
                        continue
                    known = hole_known.get(seat)
                    if known:
                        add(("deal", seat, names[seat], None, None, known[0], "hole", known[1]))
                    else:
                        add(("deal", seat, names[seat], None, None,
                             " ".join(["??"] * hole_n), "hole", pending_hole))
                pending_hole = -1
            if stud_river >= 0:
                for seat in sorted(stud_prev - folded - stud_dealt):
                    add(("deal", seat, names[seat], None, None, "??", "down", stud_river))
                    stud_dealt.add(seat)
                stud_river = -1
            if pending_draw:
                for seat, name, count, ln in pending_draw:
                    add(("deal", seat, name, None, None, " ".join(["??"] * count), "draw", ln))
                pending_draw.clear()

        def new_round() -> None:
            rnd.clear()

        # Fast path for the commonest lines, 'P: <action>' of a seated player: taken only when
        # no player's name could make such a line mean something else (a name with ': ', or
        # one starting like a 'Dealt to' or '*** ' line), so it reads them as the full path.
        plain_names = not any(": " in p or p.startswith(("Dealt to ", "*** ")) for p in seats)
        summary_at = n
        for i in range(first, n):
            s = lines[i]
            ln = start + i
            fast = False
            if plain_names:
                colon = s.find(": ")
                if colon > 0:
                    name = s[:colon]
                    seat = seats.get(name)
                    if seat is not None:
                        if pending_hole >= 0 or stud_river >= 0 or pending_draw:
                            flush()
                        if colon + 7 == len(s) and s.endswith("folds"):
                            folded.add(seat)
                            add(("fold", seat, name, None, None, None, None, ln))
                            continue
                        if colon + 8 == len(s) and s.endswith("checks"):
                            add(("check", seat, name, None, None, None, None, ln))
                            continue
                        fast = True
            if not s:
                raise PokerStarsError("blank line inside a hand", ln)
            if s.startswith("# ") and h.room == "pokermaster":
                continue  # PokerMaster's export note (JSON: game, table, player ids)
            try:
                if not fast:
                    if s.startswith("Dealt to "):
                        if summary:
                            raise ValueError
                        self._dealt(s, ln, seats, names, rows, is_stud, is_draw, hole_known,
                                    pending_hole, stud_dealt, pending_draw)
                        continue
                    if s.startswith("STP added: ") and not summary:
                        # Run It Once's Splash the Pot: the room's own money into the pot, no
                        # player's (written between the hole-cards header and the cards dealt)
                        add(("pot_added", None, None, money(s[11:], mpu), None, None, "splash",
                             ln))
                        continue
                    if pending_hole >= 0 or stud_river >= 0 or pending_draw:
                        flush()
                    if s.startswith("*** "):
                        if not s.endswith(" ***") and "*** [" not in s:
                            raise ValueError
                        end = s.find(" ***", 4)
                        name = s[4:end]
                        cards = s[end + 4 :].strip()
                        if name == "SUMMARY":
                            if cards:
                                raise ValueError
                            summary = True
                            summary_at = i + 1
                            break
                        if name in _QUIET_HEADERS or name == "SECOND SHOW DOWN":
                            if cards:
                                raise ValueError
                            if name in ("HOLE CARDS", "DEALING HANDS"):
                                if is_stud:
                                    raise ValueError
                                pending_hole = ln
                            elif name == "SECOND SHOW DOWN":
                                run_suffix = "@run2"
                            continue
                        if is_stud:
                            street = _STUD_STREETS.get(name)
                            if street is None and name != "RIVER" or cards:
                                raise ValueError
                            stud_prev = stud_dealt - folded if stud_dealt else set()
                            stud_dealt = set()
                            if street is None:
                                stud_river = ln
                            new_round()
                            continue
                        if is_draw:
                            if name not in _DRAW_HEADERS or cards:
                                raise ValueError
                            new_round()
                            in_draw = True
                            continue
                        run = ""
                        base = name
                        if name.startswith("FIRST "):
                            base = name[6:]
                        elif name.startswith("SECOND "):
                            base, run = name[7:], "@run2"
                        if base not in _BOARD_STREETS:
                            raise ValueError
                        if cards.endswith(" []") and base != "FLOP":
                            # the street's card left out of the log: dealt, unknown
                            new_cards = "??"
                            _brackets(cards[:-3])
                        else:
                            new_cards = _brackets(cards)[-1]
                        add(("deal", None, None, None, None, new_cards, "board" + run, ln))
                        new_round()
                        continue
                    colon = s.find(": ")
                    name = s[:colon] if colon > 0 else None
                    if name is not None and name not in seats:
                        name = next((p for p in seats if s.startswith(p + ": ")), name)
                if name is not None and name in seats:
                    seat = seats[name]
                    act = s[colon + 2 :]
                    if act.endswith(" cap") and " and has reached the " in act:
                        raise PokerStarsError(
                            f"{s!r}: a capped no-limit game (a player who reaches the cap has "
                            "no more action) is not supported", ln)
                    all_in = act.endswith(_ALL_IN)
                    if all_in:
                        act = act[: -len(_ALL_IN)]
                    detail = "all_in" if all_in else None
                    if act == "folds (disconnect)":  # a converter's: folded for him
                        folded.add(seat)
                        add(("annotation", seat, name, None, None, None, "disconnected", ln))
                        add(("fold", seat, name, None, None, None, None, ln))
                    elif act == "folds" or act.startswith("folds ["):
                        folded.add(seat)
                        add(("fold", seat, name, None, None,
                             _cards(act[6:]) if len(act) > 5 else None, None, ln))
                    elif act == "checks":
                        add(("check", seat, name, None, None, None, None, ln))
                    elif act.startswith("calls "):
                        amt = money(act[6:], mpu)
                        tot = rnd.get(seat, 0) + amt
                        rnd[seat] = tot
                        add(("call", seat, name, amt, tot, None, detail, ln))
                        in_draw = False
                    elif act.startswith("bets "):
                        amt = money(act[5:], mpu)
                        tot = rnd.get(seat, 0) + amt
                        rnd[seat] = tot
                        add(("bet", seat, name, amt, tot, None, detail, ln))
                        in_draw = False
                    elif act.startswith("raises "):
                        k = act.index(" to ")
                        money(act[7:k], mpu)
                        tot = money(act[k + 4 :], mpu)
                        amt = tot - rnd.get(seat, 0)
                        if amt < 0:
                            raise PokerStarsError(
                                f"{s!r}: raises to less than the player's own round total", ln)
                        rnd[seat] = tot
                        add(("raise", seat, name, amt, tot, None, detail, ln))
                        in_draw = False
                    elif act.startswith("completes it to "):
                        tot = money(act[16:], mpu)
                        amt = tot - rnd.get(seat, 0)
                        if amt < 0:
                            raise ValueError
                        rnd[seat] = tot
                        add(("complete", seat, name, amt, tot, None, detail, ln))
                    elif act.startswith("posts "):
                        what = act[6:]
                        if what.startswith("small blind "):
                            amt = money(what[12:], mpu)
                            if seen_sb and h.room != "converted":
                                add(("post", seat, name, amt, None, None, "dead", ln))
                            elif seen_sb:
                                # a converter's second small blind is live: the poster's
                                # call completes it (PLO-6-max-USD-30-60-201703.converted.
                                # secondsb.txt: posts $15, calls $15 to the $30 blind)
                                tot = rnd.get(seat, 0) + amt
                                rnd[seat] = tot
                                add(("post", seat, name, amt, tot, None, "new_player", ln))
                            else:
                                seen_sb = True
                                if not all_in:
                                    first_sb = amt
                                tot = rnd.get(seat, 0) + amt
                                rnd[seat] = tot
                                add(("post", seat, name, amt, tot, None, "small_blind", ln))
                        elif what.startswith("big blind "):
                            amt = money(what[10:], mpu)
                            label = "new_player" if seen_bb else "big_blind"
                            if seen_bb and first_bb and amt > first_bb and h.room is not None:
                                # another room's straddle written as a second, bigger big
                                # blind (PokerMaster: 'posts big blind $8' after the $4 one)
                                label = "straddle"
                                game.setdefault("straddle", amt)
                            if not seen_bb and not all_in:
                                first_bb = amt
                            seen_bb = True
                            tot = rnd.get(seat, 0) + amt
                            rnd[seat] = tot
                            add(("post", seat, name, amt, tot, None, label, ln))
                        elif what.startswith("small & big blinds "):
                            amt = money(what[19:], mpu)
                            bb = h.stakes[1] if h.structure != "fixed_limit" else h.stakes[0]
                            live = min(amt, bb)
                            tot = rnd.get(seat, 0) + live
                            rnd[seat] = tot
                            add(("post", seat, name, live, tot, None, "new_player", ln))
                            if amt > live:
                                add(("post", seat, name, amt - live, None, None, "dead", ln))
                        elif what.startswith("the ante "):
                            amt = money(what[9:], mpu)
                            if ante is None and not all_in:
                                ante = amt
                            add(("post", seat, name, amt, None, None, "ante", ln))
                        elif variant in SHORT and what.startswith(("button blind ",
                                                                   "the button blind ")):
                            # 6+ hold'em: the button's live blind (audit/replay/shortdeck.py)
                            amt = money(what[what.index("blind ") + 6:], mpu)
                            tot = rnd.get(seat, 0) + amt
                            rnd[seat] = tot
                            add(("post", seat, name, amt, tot, None, "button_blind", ln))
                        elif what.startswith("straddle "):
                            amt = money(what[9:], mpu)
                            tot = rnd.get(seat, 0) + amt
                            rnd[seat] = tot
                            game.setdefault("straddle", amt)
                            add(("post", seat, name, amt, tot, None, "straddle", ln))
                        else:
                            raise ValueError
                    elif act.startswith("brings in for "):
                        amt = money(act[14:], mpu)
                        if bring_in is None and not all_in:
                            bring_in = amt
                        tot = rnd.get(seat, 0) + amt
                        rnd[seat] = tot
                        add(("post", seat, name, amt, tot, None, "bring_in", ln))
                    elif act.startswith("discards ") and is_draw:
                        if not in_draw:
                            new_round()
                            in_draw = True
                        words = act.split(" ", 3)
                        count = int(words[1])
                        if words[2] not in ("card", "cards") or count < 0:
                            raise ValueError
                        if count == 0 and words[3:] in ([], ["[]"]):
                            # 'discards 0 cards': he kept his hand (stood pat)
                            add(("stand_pat", seat, name, None, None, None, None, ln))
                            continue
                        known = _cards(words[3]) if len(words) > 3 else None
                        if known is not None and len(known.split(" ")) != count:
                            raise ValueError
                        add(("draw", seat, name, count, None,
                             known or " ".join(["??"] * count), None, ln))
                        pending_draw.append((seat, name, count, ln))
                    elif (act == "stands pat" or act.startswith("stands pat on [")) and is_draw:
                        if not in_draw:
                            new_round()
                            in_draw = True
                        add(("stand_pat", seat, name, None, None, None, None, ln))
                    elif act.startswith("shows ["):
                        k = act.index("]")
                        tail = act[k + 1 :]
                        if tail and not (tail.startswith(" (") and tail.endswith(")")):
                            raise ValueError
                        shown = act[6 : k + 1]
                        if "XX" in shown:  # a card the converter did not know: '[XX Qs]'
                            shown = " ".join("??" if c == "XX" else _cards(f"[{c}]")
                                             for c in shown[1:-1].split(" "))
                        else:
                            shown = _cards(shown)
                        add(("show", seat, name, None, None, shown, None, ln))
                    elif act in ("mucks hand", "doesn't show hand"):
                        muck_row.setdefault(seat, []).append(len(rows))
                        add(("muck", seat, name, None, None, None, None, ln))
                    elif act in ("sits out", "is sitting out"):
                        if pending_hole >= 0 and not h.tournament:
                            out.add(seat)
                        add(("annotation", seat, name, None, None, None, "sits_out", ln))
                    elif act.startswith(("Chooses to EV Cashout", "Pays Cashout Risk (",
                                         "Receives Cashout (")):
                        add(("annotation", seat, name, None, None, None, "cash_out: " + act, ln))
                    else:
                        raise ValueError
                    continue
                if name is not None and s[colon + 2 :] in ("sits out", "is sitting out"):
                    add(("annotation", None, name, None, None, None, "sits_out", ln))
                    continue
                self._other(s, ln, seats, rows, mpu, run_suffix, award_rows)
                if s == "No low hand qualified":
                    no_low = True
                elif s == "Hand cancelled":
                    cancelled = True
            except PokerStarsError:
                raise
            except (ValueError, IndexError, KeyError, StopIteration):
                raise PokerStarsError(f"cannot read line {s!r}", ln) from None
        flush()
        added = sum(r[3] or 0 for r in rows if r[0] == "pot_added")
        summary_won: list[tuple[int, int, int]] = []  # (seat, amount won, line): STP hands
        # The summary restates the hand; it adds mucked cards, the pot sizes and the rake.
        for i in range(summary_at, n):
            s = lines[i]
            ln = start + i
            if not s:
                raise PokerStarsError("blank line inside a hand", ln)
            try:
                if s.startswith("Seat "):
                    colon = s.find(": ")
                    seat = int(s[5:colon])
                    if seat not in names or not s.startswith(names[seat], colon + 2):
                        raise ValueError
                    if s.endswith(" (pot not awarded as player cashed out)"):
                        # All-in Cash Out: he won the pot, the room paid him the cash-out
                        # instead (a note); the pot is his all the same
                        k = s.find(" and won (")
                        won = s[k + 10 : s.index(")", k + 10)]
                        cashed_out.append((seat, money(won, mpu), ln))
                    elif added:
                        k = s.find(" won ", colon + 2 + len(names[seat]))  # after his name
                        if k >= 0:  # '... and won €143.84 with Two Pairs A 5 and K'
                            won = s[k + 5 :].partition(" ")[0]
                            summary_won.append((seat, money(won, mpu), ln))
                    k = s.find(" mucked [")
                    if k >= 0:
                        cards = _cards(s[k + 8 : s.index("]", k) + 1])
                        for j in muck_row.get(seat, ()):
                            r = rows[j]
                            rows[j] = r[:5] + (cards,) + r[6:]
                    continue
                if s.startswith("Total pot "):
                    total_pot, pots_note = self._total(s, ln, mpu, rows)
                    continue
                if (s.startswith(("Board [", "FIRST Board [", "SECOND Board ["))
                        or s == "Hand was run twice" or s == "*** SUMMARY ***"):
                    continue
                raise ValueError
            except PokerStarsError:
                raise
            except (ValueError, IndexError, KeyError, StopIteration):
                raise PokerStarsError(f"cannot read line {s!r}", ln) from None
        if cashed_out and not award_rows:
            self._cashed_out_awards(rows, names, cashed_out, pots_note)
        stated_stp = sum(int(p[4:]) for p in pots_note[len(";pots="):].split(",")
                         if p.startswith("stp:"))
        if stated_stp != added:
            raise PokerStarsError(f"the room added {added} (minor units) to the pot, its summary "
                                  f"states an STP of {stated_stp}", start + n - 1)
        splash_note = ""
        if added and total_pot is not None and self._splash_awards(
                rows, names, summary_won, added, total_pot):
            splash_note = (";stp=collections from the summary (the lines count the STP "
                           "twice)")
            award_rows.clear()  # one award per seat now: no lines to split high and low
        if not summary or total_pot is None and not cancelled:
            raise PokerStarsError("hand ends without '*** SUMMARY ***' and 'Total pot' "
                                  "(truncated?)", start + n - 1)
        if variant in HILO and not no_low:
            self._split_hilo(rows, award_rows)
        # game config from the stakes and the posts
        low, high = h.stakes or (None, None)
        if h.structure == "fixed_limit":
            game["small_bet"], game["big_bet"] = low, high
            if not is_stud:
                game["big_blind"] = first_bb or low
                game["small_blind"] = first_sb if first_sb is not None else (low or 0) // 2
        elif variant in SHORT:  # 6+ stakes: ante/button blind; the ante is read from the posts
            game["big_blind"] = high
        elif not is_stud:
            game["small_blind"], game["big_blind"] = low, high
        game["ante"] = ante or 0
        note = ts_note + splash_note
        if is_stud:
            key = (h.currency, h.stakes)
            if bring_in is not None:
                self.bring_ins[key] = bring_in
            elif key in self.bring_ins:
                bring_in = self.bring_ins[key]
                note += ";bring_in=from an earlier hand at these stakes"
            else:
                bring_in = (low or 0) // 2
                note += ";bring_in=assumed half the small bet"
            game["bring_in"] = bring_in
        flags = []
        if h.room is not None:
            flags.append(f"room={h.room}")
            if sum(1 for name in names.values() if _SEAT_LABEL.match(name)) >= 2:
                # another room's anonymous table (Bovada/Ignition): 'Dealer', 'Small Blind',
                # 'UTGplus1' are seats, not people (the hero may keep a name)
                flags.append("players=anonymous")
        if cancelled:
            flags.append("cancelled=true")
            if total_pot is None:  # the room gave the posts back without a line saying so
                flags.append("refunds=implicit")
        if not cancelled and total_pot is not None and "Uncalled bet (" not in self.text:
            put = sum(r[3] or 0 for r in rows if r[0] in _PUT_IN)
            if put + added > total_pot:  # the site returned chips without an 'Uncalled bet' line
                flags.append("refunds=implicit")
        started_detail = ";".join(flags) or None
        r0 = rows[0]
        rows[0] = r0[:6] + (started_detail,) + r0[7:]
        end_detail = (f"total_pot={total_pot}" + pots_note) if total_pot is not None else None
        add(("hand_ended", None, None, None, None, None, end_detail, start + n - 1))
        if variant in SHORT:
            _short_deck_cards(rows)
        return ID_PREFIX[h.room] + number, table, ts, rows, game, note

    @staticmethod
    def _dealt(s: str, ln: int, seats: dict[str, int], names: dict[int, str], rows: list[Row],
               is_stud: bool, is_draw: bool, hole_known: dict[int, tuple[str, int]],
               pending_hole: int, stud_dealt: set[int],
               pending_draw: list[tuple[int, str, int, int]]) -> None:
        body = s[9:]
        k = body.find(" [")
        name = body[:k]
        if name not in seats:
            name = next((p for p in seats if body.startswith(p + " [")), "")
            k = len(name)
        seat = seats[name]
        parts = _brackets(body[k + 1 :])
        if is_stud:
            stud_dealt.add(seat)
            if len(parts) == 1:  # 3rd street
                cards = parts[0].split(" ")
                if len(cards) == 3:
                    rows.append(("deal", seat, name, None, None, " ".join(cards[:2]), "down", ln))
                    rows.append(("deal", seat, name, None, None, cards[2], "up", ln))
                elif len(cards) == 1:
                    rows.append(("deal", seat, name, None, None, "?? ??", "down", ln))
                    rows.append(("deal", seat, name, None, None, cards[0], "up", ln))
                else:
                    raise ValueError
                return
            street_cards = len(parts[0].split(" "))
            kind = "down" if street_cards == 6 else "up"
            rows.append(("deal", seat, name, None, None, parts[-1], kind, ln))
            return
        if pending_hole >= 0:
            if len(parts) != 1 or seat in hole_known:
                raise ValueError
            hole_known[seat] = (parts[0], ln)
            return
        if not is_draw:
            raise ValueError
        for j, (pseat, _pname, count, _pln) in enumerate(pending_draw):
            if pseat == seat:
                # '[kept] [new]'; all cards drawn: '[new]' alone
                if len(parts) == 1 and len(parts[0].split(" ")) == count:
                    parts = ["", parts[0]]
                if len(parts) != 2 or len(parts[1].split(" ")) != count:
                    raise ValueError
                del pending_draw[j]
                rows.append(("deal", seat, name, None, None, parts[1], "draw", ln))
                return
        if len(parts) != 1:  # a restatement of the hand after standing pat is fine
            raise ValueError

    @staticmethod
    def _cashed_out_awards(rows: list[Row], names: dict[int, str],
                           cashed_out: list[tuple[int, int, int]], pots_note: str) -> None:
        """The awards of a pot the room did not push because its winner had cashed out: what
        the summary says he won, by pot when he alone won the stated pots."""
        pots = [(label, int(size)) for label, _, size in
                (p.partition(":") for p in pots_note[len(";pots="):].split(","))
                if label != "stp"] \
            if pots_note else []
        if pots and sum(size for _, size in pots) == sum(won for _, won, _ in cashed_out):
            # tied winners share each pot: equal parts, the odd units where the stated sums
            # say (they must come out as what each was said to win)
            owed = [won for _, won, _ in cashed_out]
            shares: list[list[int]] = []
            for _, size in pots:
                part = [size // len(cashed_out)] * len(cashed_out)
                for _ in range(size - sum(part)):  # each odd unit to the most still owed
                    left = [o - q for o, q in zip(owed, part, strict=True)]
                    part[left.index(max(left))] += 1
                owed = [o - q for o, q in zip(owed, part, strict=True)]
                shares.append(part)
            if not any(owed):
                for (label, _), part in zip(pots, shares, strict=True):
                    for (seat, _, ln), amount in zip(cashed_out, part, strict=True):
                        rows.append(("award", seat, names[seat], amount, None, None, label, ln))
                return
        for seat, amount, ln in cashed_out:
            rows.append(("award", seat, names[seat], amount, None, None, "main", ln))

    @staticmethod
    def _splash_awards(rows: list[Row], names: dict[int, str],
                       summary_won: list[tuple[int, int, int]], added: int,
                       total_pot: int) -> bool:
        """Run It Once writes the Splash the Pot once too often in its collection lines: in
        both real hands the 'collected' and 'Uncalled bet' lines add up to exactly the STP
        more than the summary's own accounting (RIO.STP.txt: a $0.21 bet returned as
        '(€0.71)'; RIO.STP.side.pot.txt: €5.00 in both the main and the side pot's line).
        Only on that exact signature the summary is taken instead: each seat's `won` as an
        award (main) and the return as what was put in and added less the total pot; any
        other mismatch is left as written, for the replay to flag. True when it was taken."""
        put = sum(r[3] or 0 for r in rows if r[0] in _PUT_IN)
        returned = put + added - total_pot
        uncalled = [j for j, r in enumerate(rows) if r[0] == "award" and r[6] == "uncalled"]
        stated = sum(won for _, won, _ in summary_won) + returned
        written = sum(r[3] or 0 for r in rows if r[0] == "award")
        if not summary_won or written - stated != added or len(uncalled) > 1 or (
                returned and not uncalled) or returned < 0:
            return False
        kept = [r for r in rows if r[0] != "award" or r[6] == "uncalled"]
        if uncalled:
            j = kept.index(rows[uncalled[0]])
            kept[j] = kept[j][:3] + (returned,) + kept[j][4:]
        rows[:] = kept
        for seat, won, ln in summary_won:
            rows.append(("award", seat, names[seat], won, None, None, "main", ln))
        return True

    @staticmethod
    def _total(s: str, ln: int, mpu: int, rows: list[Row]) -> tuple[int, str]:
        parts = s.split(" | ")
        words = parts[0].split(" ")
        total = money(words[2], mpu)
        pots = []
        j = 3
        while j < len(words):  # 'Main pot $2.35. Side pot-1 $0.88. Side pot $0.10.'
            label = words[j] + " " + words[j + 1]
            if label == "Main pot":
                key = "main"
            elif label == "Side pot":
                key = "side-1"
            elif label.startswith("Side pot-"):
                key = "side-" + str(int(label[9:]))
            else:
                raise ValueError
            pots.append(f"{key}:{money(words[j + 2].rstrip('.'), mpu)}")
            j += 3
        for part in parts[1:]:
            label, _, amount = part.rpartition(" ")
            if label in ("Main pot", "Side pot") or label.startswith(("Side pot-", "Side pot ")):
                # Run It Once: 'Total pot €146.34 | Main pot €119.52 | Side pot €21.82 | ...'
                key = "main" if label == "Main pot" else (
                    "side-" + str(int(label[9:])) if len(label) > 8 else "side-1")
                pots.append(f"{key}:{money(amount, mpu)}")
                continue
            if label == "STP":  # Run It Once: the Splash the Pot the room added, restated
                pots.append(f"stp:{money(amount, mpu)}")
                continue
            detail = {"Rake": "rake", "Jackpot": "jackpot", "Fee": "fee",
                      "Jackpot contribution": "jackpot"}.get(label)
            if detail is None:
                raise ValueError
            rows.append(("rake", None, None, money(amount, mpu), None, None, detail, ln))
        return total, (";pots=" + ",".join(pots)) if pots else ""

    @staticmethod
    def _other(s: str, ln: int, seats: dict[str, int], rows: list[Row], mpu: int,
               run_suffix: str, award_rows: list[int]) -> None:
        k = s.find(" collected ")
        if k > 0 and s[:k] in seats:
            name = s[:k]
            amount, _, pot = s[k + 11 :].partition(" from ")
            if pot in ("pot", "main pot"):
                label = "main"
            elif pot == "side pot":
                label = "side-1"
            elif pot.startswith(("side pot-", "side pot ")):  # (Run It Once: 'side pot 1')
                label = "side-" + str(int(pot[9:]))
            else:
                raise ValueError
            award_rows.append(len(rows))
            rows.append(("award", seats[name], name, money(amount, mpu), None, None,
                         label + run_suffix, ln))
            return
        if s.startswith("Uncalled bet (") and ") returned to " in s:
            k = s.index(") returned to ")
            name = s[k + 14 :]
            rows.append(("award", seats[name], name, money(s[14:k], mpu), None, None,
                         "uncalled", ln))
            return
        if s in _SITE_LINES:
            detail = _SITE_LINES[s]
            rows.append(("annotation", None, None, None, None, None, detail, ln))
            return
        k = s.find(" said, \"")
        if k > 0 and s.endswith('"'):
            name = s[:k]
            rows.append(("annotation", seats.get(name), name, None, None, None,
                         "said: " + s[k + 8 : -1], ln))
            return
        k = s.find(" shows [")
        if k > 0 and s[:k] in seats and s.endswith("]"):
            # Run It Once: 'P shows [Ad 3c As Kh] for Full House [As Ad Js Jh Jc]'
            name = s[:k]
            shown, _, best = s[k + 7 :].partition(" for ")
            if best:
                _cards(best[best.index("["):])
            rows.append(("show", seats[name], name, None, None, _cards(shown), None, ln))
            return
        if s == "Table leave user":  # a converter's: someone left, not said who
            rows.append(("annotation", None, None, None, None, None, "leaves", ln))
            return
        ko = _KNOCKOUT(s)
        if ko is not None and ko[1] in seats:
            # a progressive knockout: 'P wins $x for eliminating Q and their own bounty
            # increases by $y to $z' / '... for splitting the elimination of Q and ...'
            rows.append(("annotation", seats[ko[1]], ko[1], None, None, None, f"bounty: {s}",
                         ln))
            return
        for suffix, detail in _NOTES:
            k = s.find(suffix)
            if k > 0 and (s.endswith(suffix) or detail == "joins"):
                name = s[:k]
                rows.append(("annotation", seats.get(name), name, None, None, None, detail, ln))
                return
        # 'wins the tournament' before 'wins the ' ('wins the $x bounty for eliminating')
        for marker, detail in ((" wins the tournament", "finished"), (" wins the ", "bounty"),
                               (" finished the tournament", "finished"),
                               (" wins an entry to tournament #", "finished"),
                               (" cashed out the hand for ", "cash_out"),
                               (" re-buys and receives ", "rebuy"),
                               (" takes the add-on and receives ", "addon")):
            k = s.find(marker)
            if k > 0:
                name = s[:k]
                rows.append(("annotation", seats.get(name), name, None, None, None,
                             f"{detail}: {s}", ln))
                return
        raise ValueError

    @staticmethod
    def _split_hilo(rows: list[Row], award_rows: list[int]) -> None:
        groups: dict[str, list[int]] = {}
        for j in award_rows:
            groups.setdefault(rows[j][6] or "", []).append(j)
        for label, idx in groups.items():
            if len(idx) < 2:
                continue
            amounts = [rows[j][3] or 0 for j in idx]
            total = sum(amounts)
            best, best_k, acc = None, 1, 0
            for k in range(1, len(idx)):
                acc += amounts[k - 1]
                diff = abs(acc - (total - acc))
                if best is None or diff < best:
                    best, best_k = diff, k
            pot, at, run = label.partition("@")
            for pos, j in enumerate(idx):
                half = "/high" if pos < best_k else "/low"
                r = rows[j]
                rows[j] = r[:6] + (pot + half + at + run,) + r[7:]


# --- the reader ------------------------------------------------------------------------


# Bytes read at once: a piece. (8 MB pieces cut the fast path's fixed cost per piece but
# fault in more memory: no faster over a whole 100k-hand file, 30% more peak RSS.)
_READ_BYTES = 1 << 22
# A line that starts a hand or ends one: a header, or a blank (whitespace-only) line.
_BOUNDARIES = {head: re.compile(rb"^(?:" + re.escape(head) + rb"|[ \t\r\x0b\x0c]*$)",
                                re.MULTILINE) for head in HEADS}


def _short_deck_cards(rows: list[Row]) -> None:
    """A 6+ hold'em hand is dealt from the 36-card deck: a card below the six is a data error
    and quarantines the hand (the replay reports it too: audit/replay/shortdeck.py)."""
    for r in rows:
        text = r[5]
        if text and r[0] in ("deal", "show", "muck"):
            for card in text.split():
                if card[0] in "2345":
                    raise PokerStarsError(f"card {card} in a 6+ hold'em hand: the 36-card "
                                          "deck has no card below the six", r[7])


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return data.decode("latin-1")


_BLANK_LINE = re.compile(rb"\n[ \t\r\x0b\x0c]*\n")


@dataclass(frozen=True, slots=True)
class Unread:
    """A stretch of the file over the hand limit without a hand header in it: its first bytes
    and size (the rest was skipped unread, up to the next header)."""

    head: bytes
    size: int
    line: int

    def rejected(self, path: Path) -> Rejected:
        text = _decode(self.head)
        return Rejected(source=str(path), line=self.line, hand_id=_guess_id(text[:200]),
                        reason=over_hand_limit(self.line, self.size) if text.startswith(
                            tuple(h.decode() for h in HEADS)) else over_text_limit(
                            self.line, self.size),
                        raw=text + f"... [{self.size - len(self.head):,} more bytes not read]")


def _pieces(path: Path, head: bytes = STARS_HEAD) -> Iterator[tuple[bytes | Unread, int, bool]]:
    """(bytes, number of its first line, is the file's start) for consecutive pieces of the
    file: whole lines, each piece starting at the file's start or at a hand header and ending
    before a header or at the end of the file, so every piece splits into blocks on its own.
    About `_READ_BYTES` each (more when one hand is longer). Bytes read without a header in
    them are held as they are and joined once, so a long stretch without headers costs
    linear time; past the hand limit they are no longer held: the stretch is given as
    `Unread` (its first bytes and size) and the file read on from the next header, so memory
    follows the limit, never the file."""
    mark = b"\n" + head
    limit = read_limits().hand_bytes
    line = 1
    first = True
    held: list[bytes] = []  # bytes read since the last cut (a header only at their start)
    size = 0  # their length
    overlap = b""  # their last bytes, where a header mark cut by a read may begin
    unread: list[Any] = []  # [first bytes, size, newlines] of a stretch past the limit
    with path.open("rb") as f:
        while True:
            data = f.read(_READ_BYTES)
            if not data:
                break
            probe = overlap + data
            k = probe.rfind(mark)
            if k < 0:
                overlap = probe[-(len(mark) - 1) :]
                if unread:
                    unread[1] += len(data)
                    unread[2] += data.count(b"\n")
                    continue
                held.append(data)
                size += len(data)
                if size > limit:  # no header for longer than a hand may be: stop holding
                    whole = b"".join(held)
                    held, size = [], 0
                    # the hand it starts with ends at its first blank line: read as usual
                    end = _BLANK_LINE.search(whole, 0, limit)
                    if end is not None:
                        yield whole[: end.end()], line, first
                        line += whole.count(b"\n", 0, end.end())
                        first = False
                        whole = whole[end.end() :]
                    blank = len(whole) - len(whole.lstrip(b" \t\r\n\x0b\x0c"))
                    line += whole.count(b"\n", 0, blank)  # blank lines before the stretch
                    whole = whole[blank:]
                    unread = [whole[:RAW_EXCERPT_CHARS], len(whole), whole.count(b"\n")]
                continue
            if unread:
                # the stretch ends where the first header of this read begins (its first
                # bytes may lie in the overlap, already counted in the stretch)
                j = probe.find(mark) + 1
                back = len(overlap) - j
                if back > 0:
                    unread[1] -= back
                    rest = probe[j:]
                else:
                    unread[1] += -back
                    unread[2] += data.count(b"\n", 0, -back)
                    rest = data[-back:]
                yield Unread(unread[0], unread[1], line), line, first
                line += unread[2]
                first = False
                unread = []
                # read on as if `rest` (a header first) had just been read with nothing held
                data, held, size, overlap = rest, [], 0, b""
                k = data.rfind(mark)
                if k < 0:
                    held, size, overlap = [data], len(data), data[-(len(mark) - 1) :]
                    continue
            cut = size - len(overlap) + k + 1
            buf = b"".join([*held, data])
            piece, rest = buf[:cut], buf[cut:]
            yield piece, line, first
            line += piece.count(b"\n")
            first = False
            held, size, overlap = [rest], len(rest), rest[-(len(mark) - 1) :]
    if unread:
        yield Unread(unread[0], unread[1], line), line, first
        return
    if size or first:
        yield b"".join(held), line, first


def _blocks(path: Path) -> Iterator[tuple[bool, int, bytes]]:
    """(is_hand, first line, raw bytes) for each hand and each run of text outside hands."""
    head = file_head(path)
    for piece, line, first in _pieces(path, head):
        if not isinstance(piece, Unread):
            yield from _blocks_in(piece, line, first, head)


def _blocks_in(buf: bytes, line: int, first: bool, head: bytes = STARS_HEAD
               ) -> Iterator[tuple[bool, int, bytes]]:
    """The blocks of one piece of `_pieces` whose first line is `line`.

    A hand starts at a line beginning `head` (`PokerStars `, or another room's header words:
    `file_head`; on line 1 also after a BOM) and ends at
    the next blank line or header. The boundaries are found by one regex scan of the piece, so
    the cost per line is C, not Python."""
    parts: list[bytes] = []  # the open block's bytes
    open_ = False  # a block is open (a header seen, or text outside hands)
    start = 0  # its first line
    in_hand = False
    size = len(buf)
    pos = 0  # start of the content not yet given to a block
    at = 0  # position whose line number is `line`
    marks: list[int] = []  # boundary positions: >= 0 a header, -1 - p a blank line
    if first and buf.startswith(_BOM + head):
        marks.append(0)
    for m in _BOUNDARIES[head].finditer(buf):
        p = m.start()
        if p == size:  # the empty text after the last line end is no line
            break
        marks.append(p if buf.startswith(head, p) else -1 - p)
    for mark in marks:
        header = mark >= 0
        p = mark if header else -1 - mark
        if p > pos:  # content lines before this boundary
            if not open_:
                line += buf.count(b"\n", at, pos)
                at = pos
                start, in_hand, open_ = line, False, True
            parts.append(buf[pos:p])
        if open_:
            yield in_hand, start, b"".join(parts)
            parts, open_ = [], False
        if header:
            line += buf.count(b"\n", at, p)
            at = p
            start, in_hand, open_ = line, True, True
            pos = p
        else:
            nl = buf.find(b"\n", p)
            pos = size if nl < 0 else nl + 1
    if pos < size:
        if not open_:
            line += buf.count(b"\n", at, pos)
            start, in_hand, open_ = line, False, True
        parts.append(buf[pos:])
    if open_:
        yield in_hand, start, b"".join(parts)


# A parsed row (`Row`) as an Arrow struct: the event columns a line fills, and its line.
_ROW_TYPE = pa.struct([("kind", pa.string()), ("seat", pa.int8()), ("player", pa.string()),
                       ("amount", pa.int64()), ("total", pa.int64()), ("cards", pa.string()),
                       ("detail", pa.string()), ("line", pa.int64())])


class _Columns:
    """Whole hands collected per hand (ids, times, configs) and per row (the parsed rows),
    turned into one Arrow table per chunk with vectorised expansion of the per-hand values."""

    def __init__(self) -> None:
        self.hand_id: list[str] = []
        self.ts: list[Any] = []
        self.table_id: list[str | None] = []
        self.game: list[dict[str, Any] | None] = []
        self.note: list[str] = []
        self.counts: list[int] = []
        self.rows: list[Row] = []
        self.raw: list[tuple[int, str]] = []  # (first line, text) per hand, for quarantine
        self.hands = 0

    def add(self, hand_id: str, table: str | None, ts: Any, rows: list[Row],
            game: dict[str, Any], note: str, start: int, text: str) -> None:
        self.raw.append((start, text))
        self.hand_id.append(hand_id)
        self.ts.append(ts)
        self.table_id.append(table)
        self.game.append(game)
        self.note.append(note)
        self.counts.append(len(rows))
        self.rows.extend(rows)
        self.hands += 1

    def table(self, prefix: str) -> tuple[pa.Table, list[int]]:
        schema = events_schema()
        rows = self.rows
        n = len(rows)
        counts = np.asarray(self.counts, dtype=np.int64)
        starts = np.zeros(len(counts), dtype=np.int64)
        if len(counts):
            np.cumsum(counts[:-1], out=starts[1:])
        owner = pa.array(np.repeat(np.arange(len(counts), dtype=np.int64), counts))
        first_row = np.zeros(n, dtype=bool)
        first_row[starts[counts > 0]] = True
        # the per-hand values that only the hand's first row carries
        first_only = pa.array(np.repeat(np.arange(len(counts), dtype=np.int64), counts),
                              mask=~first_row)
        # One C pass turns the row tuples into columns (faster than transposing in Python).
        parsed = pa.array(rows, type=_ROW_TYPE).flatten()
        line_numbers = parsed[7]
        line_text = line_numbers.cast(pa.string())
        note = pc.take(pa.array(self.note, type=pa.string()), first_only).fill_null("")
        source = pc.binary_join_element_wise(prefix, line_text, note, "")
        data = {
            "hand_id": pc.take(pa.array(self.hand_id, type=pa.string()), owner),
            "seq": pa.array(np.arange(n, dtype=np.int64) - np.repeat(starts, counts)),
            "ts": pc.take(pa.array(self.ts, type=schema.field("ts").type), first_only),
            "table_id": pc.take(pa.array(self.table_id, type=pa.string()), owner),
            "kind": parsed[0], "seat": parsed[1], "player": parsed[2], "amount": parsed[3],
            "total": parsed[4], "cards": parsed[5], "detail": parsed[6],
            "game": pc.take(pa.array(self.game, type=schema.field("game").type), first_only),
            "source": source,
        }
        arrays = [data[f.name] if data[f.name].type == f.type else data[f.name].cast(f.type)
                  for f in schema]
        return pa.Table.from_arrays(arrays, schema=schema), line_numbers.to_pylist()

    def table_or_quarantine(self, prefix: str, path: Path, rejected: list[Rejected]
                            ) -> tuple[pa.Table, list[int]]:
        """The chunk's table; a hand whose values do not fit the event schema (a seat number
        past int8, an amount past int64, ...) is found by building hand by hand, and
        quarantined instead of failing the whole file."""
        try:
            return self.table(prefix)
        except (pa.ArrowException, OverflowError, ValueError, TypeError):
            pass
        good = _Columns()
        at = 0
        for k, count in enumerate(self.counts):
            args = (self.hand_id[k], self.table_id[k], self.ts[k], self.rows[at : at + count],
                    self.game[k], self.note[k], *self.raw[k])
            at += count
            one = _Columns()
            one.add(*args)
            try:
                one.table(prefix)
            except (pa.ArrowException, OverflowError, ValueError, TypeError) as exc:
                start, text = self.raw[k]
                rejected.append(Rejected(
                    source=str(path), line=start, hand_id=self.hand_id[k], raw=text,
                    reason=f"a value does not fit the event schema ({exc}); seat numbers "
                           "must be 1-127 and amounts within 64 bits"))
                continue
            good.add(*args)
        return good.table(prefix)


class _ChunkBuilder:
    """Whole hands of one file gathered into chunks of `chunk_hands` imported hands, in file
    order: hands read by the line parser (`feed`) and runs of hands already turned into rows
    by the fast path (`add_fast`). A hand id seen before in the same chunk is quarantined."""

    def __init__(self, path: Path, chunk_hands: int) -> None:
        self.path = path
        self.chunk_hands = chunk_hands
        self.prefix = f"pokerstars:{path.name}:"
        self.line_bytes = read_limits().line_bytes
        self.bring_ins: BringIns = {}  # carried over within this file only, across chunks
        self._reset()

    def _reset(self) -> None:
        self.parts: list[_Columns | tuple[pa.Table, list[int]]] = []
        self.rejected: list[Rejected] = []
        self.seen: set[str] = set()
        self.hands = 0

    @property
    def full(self) -> bool:
        return self.hands >= self.chunk_hands

    @property
    def pending(self) -> bool:
        return bool(self.hands or self.rejected)

    def unread(self, stretch: Unread) -> None:
        """A stretch of the file over the hand limit: quarantined with its size and first
        bytes, never read."""
        self.rejected.append(stretch.rejected(self.path))

    def feed(self, is_hand: bool, start: int, block: bytes) -> None:
        """Read one block of `_blocks` with the line parser: its rows, or its rejection."""
        path = self.path
        if len(block) > self.line_bytes and _longest_line(block) > self.line_bytes:
            at, size = _longest_line_at(block, start)
            text = _decode(block[:RAW_EXCERPT_CHARS])
            self.rejected.append(Rejected(
                source=str(path), line=at, hand_id=_guess_id(text[:200]) if is_hand else None,
                reason=over_line_limit(at, size),
                raw=text + f"... [{len(block) - RAW_EXCERPT_CHARS:,} more bytes]"))
            return
        text = _decode(block)
        clean = text
        if "\x00" in text:  # NUL bytes (a file padded or damaged by a tool): not text; a
            clean = text.replace("\x00", "")  # rejection keeps the bytes as they were
            if not is_hand and not clean.strip():
                return
        lines = clean.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        lines = [s.rstrip() for s in lines]
        if lines and lines[0].startswith("\ufeff"):
            lines[0] = lines[0].lstrip("\ufeff")
        if not is_hand:
            self.rejected.append(Rejected(
                source=str(path), line=start, hand_id=None, raw=text,
                reason=f"{len(lines)} line(s) of text outside any hand, first: "
                       f"{lines[0][:200]!r}"))
            return
        try:
            parsed = _Hand(lines, start, path.name, clean, self.bring_ins).parse()
            hand_id, table, ts, rows, game, note = parsed
            if hand_id in self.seen:
                raise PokerStarsError(f"hand id {hand_id} repeats a hand already read "
                                      "in this chunk", start)
        except Exception as exc:  # noqa: BLE001 - one bad hand never stops the file
            if not isinstance(exc, PokerStarsError):
                exc = PokerStarsError(f"importer error {type(exc).__name__}: {exc}", start)
            at = exc.line if exc.line is not None else start
            offending = lines[at - start] if 0 <= at - start < len(lines) else ""
            reason = str(exc)
            if offending and repr(offending) not in reason:
                reason += f" (line {at}: {offending!r})"
            self.rejected.append(Rejected(source=str(path), line=at,
                                          hand_id=_guess_id(lines[0]), reason=reason,
                                          raw=text))
            return
        self.seen.add(hand_id)
        if not self.parts or not isinstance(self.parts[-1], _Columns):
            self.parts.append(_Columns())
        cols = self.parts[-1]
        assert isinstance(cols, _Columns)
        cols.add(hand_id, table, ts, rows, game, note, start, text)
        self.hands += 1

    def add_fast(self, table: pa.Table, lines: list[int], hands: int) -> None:
        """A run of `hands` whole hands read by the fast path (ids already checked against
        `seen` by the caller, who adds them)."""
        self.parts.append((table, lines))
        self.hands += hands

    def take(self) -> Chunk:
        tables: list[pa.Table] = []
        lines: list[int] = []
        misfits: list[Rejected] = []
        for part in self.parts:
            if isinstance(part, _Columns):
                table, row_lines = part.table_or_quarantine(self.prefix, self.path, misfits)
            else:
                table, row_lines = part
            tables.append(table)
            lines += row_lines
        if not tables:
            tables.append(_Columns().table(self.prefix)[0])
        table = tables[0] if len(tables) == 1 else pa.concat_tables(tables)
        chunk = Chunk(table=table, rejected=self.rejected + misfits, lines=lines)
        self._reset()
        return chunk


def _longest_line(block: bytes) -> int:
    return max(len(line) for line in block.split(b"\n"))


def _longest_line_at(block: bytes, start: int) -> tuple[int, int]:
    """(line number, size) of the longest line of a block that begins at line `start`."""
    sizes = [len(line) for line in block.split(b"\n")]
    k = max(range(len(sizes)), key=sizes.__getitem__)
    return start + k, sizes[k]


def _guess_id(header: str) -> str | None:
    k = header.find("#")
    if k < 0:
        return None
    j = k + 1
    while j < len(header) and header[j].isdigit():
        j += 1
    prefix = next((ID_PREFIX[room] for word, room in ROOMS.items()
                   if header.lstrip("\ufeff").startswith(word + " ")), "ps:")
    return prefix + header[k + 1 : j] if j > k + 1 else None
