"""PartyPoker text hand histories imported as events.

PartyPoker has written two text formats; both are read, cash games and tournaments:

* the classic format (`***** Hand History for Game N *****`, often after `Game #N starts.` and
  `#Game No : N` lines): amounts in brackets, chips ADDED (`calls [$x]`, `raises [$x]`),
  `wins $x from the main pot` lines, no pot total and no rake;
* the newer format (`***** Hand History For Game ID *****`, the id may hold letters): the
  stakes and `Game Table (NL)` in the game line, amounts in parentheses, `raises x to y`, and a
  `** Summary **` with the pots (`Main Pot: $7.13 Side Pot 1: ... Rake: $0.37`) and what each
  player collected, but no `wins` lines.

A hand starts at its first preamble or header line (`Game #N starts.`, `#Game No : N`,
`***** Hand History ...`) and runs to the next one; a piece holding only preamble lines (the
next hand's `Game #N starts.` at the end of a file) is no hand and is skipped. Lines may start
with stray NUL bytes (dropped) and are padded with spaces (collapsed).

Mapping (PartyPoker line -> events; money exact):

* `***** Hand History for Game N *****` -> hand_id `party:N` (the `#Game No` of some clients
  is another counter).
* classic cash game line `<stakes> [CUR] [words] [NL|PL|FL] <game> - <Weekday>, <Month> <d>,
  <hh:mm:ss> <ZONE> <yyyy>`: `$a/$b` stakes of a fixed-limit or stud game are
  small_bet/big_bet (big_blind = small bet); the single `$X` of a NL/PL game is the table's
  buy-in cap, so the blinds come from the hand's own small/big blind posts (a NL/PL hand
  without a big blind post is quarantined); `$a/$b` of a NL/PL game are the blinds. A stud
  game without a limit word is fixed-limit. Extra words (`fastforward`) are noted.
* classic tournament line `[NL|PL|FL] <game> [<buy-in> [CUR] Buy-in] Trny:<id> Level:<n>
  Blinds|Stakes[-Antes](<a>/<b> [-<ante>]) - <date>` -> tournament, level, CHIPS/1. The same
  `Trny: .. Level: ..` and `Blinds(..)` lines inside the hand state the level actually played
  (a level change between the header and the deal): they win. Classic tournaments often do
  not log the blinds: then the small and big blind are posted by position (the first and
  second player clockwise from the button; heads-up the button posts the small blind), each
  at most the player's stack, and `source` says so.
* newer game line `<sb>/<bb> [Tourney] <game> Game Table (<NL|PL|FL>) [(<kind> Tournament
  #<id>)] [(Buyin ..)] - <Dow> <Mon> <dd> <hh:mm:ss> <ZONE> <yyyy>`.
* Games: Texas Hold'em -> holdem, Omaha (Hi) -> omaha, Omaha Hi-Lo -> omaha_hilo, Short Deck
  -> holdem_6plus (antes and a `button blind`, as PokerStars' 6+: PartyPoker ranks a flush
  over a full house and three of a kind over a straight), 7 Card Stud -> stud, 7 Card Stud
  Hi-Lo -> stud_hilo. Another game is quarantined as unsupported, naming it.
* Zones: fixed offsets (EST -5, CEST/MESZ +2, ICT +7, ...); unknown -> read as UTC, noted.
  Currency from the symbol or code (USD/EUR/GBP, minor 100); tournaments and `(Play Money)`
  -> CHIPS/1.
* `Table NAME (Real Money) [-- Seat N is the button]`, `Seat N is the button` (seat 0: no
  button, stud), `Total number of players : a[/b]` -> seat_count b.
* `Seat N: name ( $x USD )` / `seat N: name ($x)` -> seat. A seated player who neither posts
  nor acts in a cash hand was not dealt in (detail sitting_out).
* Players missing from the seat list: a player who joins and posts (`X has joined the table`,
  `X posts big blind`) sits in a free seat: the first free seat clockwise after the player
  whose turn came just before his (source notes the seat as inferred; his stack is unknown).
  Names that the seat list cuts short (`Seat 2: Hero` for `Hero Name`) are read as the seated
  name they start with.
* Posts: `small blind`, `big blind` (a second one is a new player's: new_player), `big blind
  + dead` (the table's big blind live + dead the rest), `ante`, `button blind` (short deck),
  stud `bring-ins` (bring_in).
* Actions: `folds`, `checks`, `calls|bets|raises|double bets|completes [$x]` (chips added),
  `is all-In [$x]` (bet / call / raise by the round state), newer `calls (x)`, `bets (x)`,
  `raises x to y` (to y); `is all-In.` without an amount is a note. `Forward Folds` (a
  pre-action fold; the log repeats it as `folds` on the player's turn) -> annotation.
* Stud: `** Dealing **` starts third street, `** Dealing Fourth|Fifth|Sixth street **` and
  `** Dealing River **` the later ones. The log shows only the hero's cards (`Dealt to`): every
  live seat gets deal/down + deal/up per street, from the seven cards he shows at the showdown
  (PartyPoker lists them in the order dealt) when he does, else `??`; the shown cards also
  come as a show.
* `shows [ cards ]` -> show; `doesn't show [ cards ]` -> muck with cards; `does not show
  cards` -> muck. `wins $x [from the main pot | from the side pot k]` -> award main / side-k;
  `wins Lo ($x) from ...` -> award `<pot>/low` (the high half of that hand `<pot>/high`).
  Lines the client glued together (`...cards.Player2 wins ...`) are read as two lines.
* PartyPoker logs no uncalled-bet return (its award INCLUDES the returned bet): hand_started
  detail `refunds=implicit`; the classic format logs no rake either (`rake=implicit`, cash).
* Newer summary: `Main Pot: x [Side Pot k: y ...] [Rake: r]` -> hand_ended detail
  `total_pot=<pots + rake>;pots=main:x,side-k:y` and a rake event; `name balance b, ...
  collected c ...` -> award c; shown cards in brackets there -> show. A player who `Cashed
  out` (PartyPoker's all-in cash-out: the house pays him, the pot still goes to the winner)
  -> annotation `cash_out: ...`, no award.
* Harmless lines -> annotation: chat (`name: text` -> `said: ...`, observers too), joined /
  left the table, sitting out, disconnected / reconnected, did not respond in time, time
  bank, finished in place N, opens (stud), allowed to play after the button, `Creating Main
  Pot ...`; any other status line of a seated player (`is ...`, `has ...`, `was ...`, `will
  ...` with no amount and no cards) -> annotation `note: ...`. Anything else quarantines the
  hand, naming the line.
* Files: UTF-8 or cp1252, UTF-16 (ASCII read through stray NUL bytes), BOMs.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from audit.importers.base import Chunk
from audit.importers.sitetext import (
    CHUNK_HANDS,
    ChunkWriter,
    SiteHand,
    SiteHandError,
    bad_line,
    local_to_utc,
    parse_amount,
    raw_text,
    site_cards,
    split_blocks,
    to_minor,
)

_HH = re.compile(r"^\*{5} ?Hand History [Ff]or Game (\w+) ?\*{5}$")
_START = re.compile(r"^Game #(\d+) starts\.?$")
_GAMENO = re.compile(r"^#Game No ?: ?(\d+)$")
_NUM = r"[$€£]? ?[0-9][0-9,.]*"
_CUR = r"(?:[A-Z]{3}|[$€£]|chips)"
# an amount: `[$0.10 USD]`, `[ $0,25 USD ]`, `[0,35 €]`, `[3,000]`, `(0.5)`, `(65)`
_AMT = rf"(?:\[ ?(?P<a>{_NUM}) ?{_CUR}? ?\]|\( ?(?P<b>{_NUM}) ?{_CUR}? ?\))"
_STUD_NAMES = r"7 Card Stud Hi-Lo|7 Card Stud Hi/Lo|7 Card Stud"
_GAME_NAMES = (r"Texas Hold'?em|Hold'?em|Omaha Hi-Lo|Omaha Hi/Lo|Omaha Hi|Omaha|Short Deck|"
               + _STUD_NAMES)
_GAMES = {"texas hold'em": "holdem", "texas holdem": "holdem", "hold'em": "holdem",
          "holdem": "holdem", "omaha": "omaha", "omaha hi": "omaha",
          "omaha hi-lo": "omaha_hilo", "omaha hi/lo": "omaha_hilo",
          "short deck": "holdem_6plus", "7 card stud": "stud", "7 card stud hi-lo": "stud_hilo",
          "7 card stud hi/lo": "stud_hilo"}
_STUD = frozenset({"stud", "stud_hilo"})
_HILO = frozenset({"omaha_hilo", "stud_hilo"})
_HOLES = {"holdem": 2, "holdem_6plus": 2, "omaha": 4, "omaha_hilo": 4}
_LIMITS = {"NL": "no_limit", "PL": "pot_limit", "FL": "fixed_limit", "Limit": "fixed_limit"}
_CASH = re.compile(
    rf"^(?P<stakes>{_NUM}(?:/{_NUM})?) ?(?P<cur>[A-Z]{{3}})? (?:(?P<words>.*?) )??"
    rf"(?:(?P<limit>NL|PL|FL) )?(?P<game>{_GAME_NAMES})$")
_TRNY = re.compile(
    rf"^(?:(?P<limit>NL|PL|FL) )?(?P<game>.+?) (?:(?P<buyin>{_NUM}) ?(?P<cur>[A-Z]{{3}})? "
    r"Buy-in )?Trny: ?(?P<trny>\d+) Level: ?(?P<level>\d+) (?P<stakes>(?:Blinds|Stakes)"
    r"(?:-Antes)?\(.*\))$")
_LEVEL = re.compile(r"^Trny: ?(\d+) Level: ?(\d+)$")
_STAKES = re.compile(r"^(Blinds|Stakes)(?:-Antes)?\((?P<a>[0-9][0-9,.]*) ?/ ?(?P<b>[0-9][0-9,.]*)"
                     r"(?: ?- ?(?P<ante>[0-9][0-9,.]*))?\)$")
_NEW = re.compile(
    rf"^(?P<sb>{_NUM})/(?P<bb>{_NUM}) (?P<tourney>Tourney )?(?P<game>.+?) Game Table "
    r"\((?P<limit>NL|PL|FL|Limit)\)(?: \((?P<tkind>[^()#]*?) ?Tournament #(?P<trny>\d+)\))?"
    r"(?: \(Buyin (?P<buyin>[^()]*)\))?$")
_DATE_OLD = re.compile(r"^[A-Za-z]+, ?(?P<month>[A-Za-z]+) (?P<day>\d{1,2}), "
                       r"(?P<time>\d{1,2}:\d\d:\d\d) (?P<zone>[A-Za-z]{1,6}) (?P<year>\d{4})$")
_DATE_NEW = re.compile(r"^[A-Za-z]{3} (?P<month>[A-Za-z]{3}) (?P<day>\d{1,2}) "
                       r"(?P<time>\d{1,2}:\d\d:\d\d) (?P<zone>[A-Za-z]{1,6}) (?P<year>\d{4})$")
_TABLE = re.compile(r"^Table (.+?) ?\( ?(Real|Play) Money ?\)(?: -- Seat (\d+) is the button)?$")
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_COUNT = re.compile(r"^Total number of players ?: ?(\d+)(?: ?/ ?(\d+))?$")
_SEAT = re.compile(rf"^[Ss]eat (\d+): (.+) \( ?(?P<amt>{_NUM}) ?(?:[A-Z]{{3}})? ?\)$")
_DOWN = re.compile(r"^\*\* Dealing down cards \*\*$")
_STREET = re.compile(r"^\*\* Dealing (Flop|Turn|River) \*\* ?:? ?\[([^\]]*)\]$")
_STUD_STREET = re.compile(r"^\*\* Dealing(?: (Fourth|Fifth|Sixth) street| (River))? \*\*$")
_SUMMARY = re.compile(r"^\*\* Summary \*\*$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\]$")
_POST = re.compile(rf"^posts (small blind|big blind \+ dead|big blind|ante|button blind) "
                   rf"{_AMT}\.?$")
_BRING_IN = re.compile(rf"^bring-ins {_AMT}\.?$")
_ACTION = re.compile(rf"^(folds|checks|calls|bets|double bets|raises|completes|is all-In)"
                     rf"(?: {_AMT})?\.?$")
_RAISE_TO = re.compile(rf"^(raises|bets|calls) (?P<add>{_NUM}) to (?P<to>{_NUM})\.?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\].*$")
_NOSHOW = re.compile(r"^doesn't show \[([^\]]*)\].*$")
_LOW_SHOWN = re.compile(r"^shows ?[0-9TJQKA,]+ +for low\.?$")
_WIN = re.compile(rf"^wins (?:(?P<lo>Lo) \( ?)?(?P<amt>{_NUM}) ?{_CUR}?\)?"
                  r"(?: from the (?P<pot>main pot|side pot(?: #?(?P<k>\d+))?))?(?: .*)?\.?$")
_NEW_POTS = re.compile(rf"(Main Pot|Side Pot(?: (\d+))?|Rake|[A-Z][A-Za-z ]*?): ?(?P<v>{_NUM})")
_BALANCE = re.compile(rf"^(?P<name>.+?) (?P<cashed>Cashed out +)?balance (?P<bal>{_NUM}), "
                      r"(?P<rest>.*)$")
_COLLECTED = re.compile(rf"collected (?P<c>{_NUM})")
_SEATED_NOTES = [
    (re.compile(r"^Forward Folds$"), "forward_fold"),
    (re.compile(r"^Forward Checks$"), "forward_check"),
    (re.compile(r"^(?:is sitting out|sits out)\.?$"), "sits_out"),
    (re.compile(r"^is disconnected\.?$"), "disconnected"),
    (re.compile(r"^has been reconnected\.?$"), "reconnected"),
    (re.compile(r"^(?:did not|could not) respond in time\.?(?: ?\(disconnected\))?$"),
     "timed_out"),
    (re.compile(r"^will be allowed to play after the button\.?$"), "waits_for_button"),
    (re.compile(r"^has left the table\.?$"), "left_table"),
    (re.compile(r"^has joined the table\.?$"), "joined_table"),
    (re.compile(r"^will be using (?:his|her|their) time bank for this hand\.?$"), "time_bank"),
    (re.compile(r"^finished in .*$"), "finished"),
    (re.compile(r"^opens$"), "opens"),
    (re.compile(r"^is all-In\.?$"), "all_in"),
    (re.compile(r"^(?:opted for cash-out|Cash-out Premium .*|probabi?lt?i?ty is .*|"
                r"Cashout Amount is .*)$"), "cash_out"),
]
_ANYONE_NOTES = [
    (re.compile(r"^(.+?) has joined the table\.?$"), "joined_table"),
    (re.compile(r"^(.+?) has left the table\.?$"), "left_table"),
    (re.compile(r"^(.+?) will be allowed to play after the button\.?$"), "waits_for_button"),
    (re.compile(r"^Player (.+?) finished in .*$"), "finished"),
    (re.compile(r"^(.+?) finished in .*$"), "finished"),
]
# chat by someone not seated (an observer): `name: text`
_CHAT = re.compile(r"^([^:\[\]()]+?): (.*)$")
# a player's status line the grammar does not list: words only, no amount and no cards
_STATUS = re.compile(r"^(?:is|has|was|will)\b[^0-9\[\]()$€£]*$")
_HARMLESS = re.compile(r"^(?:Connection Lost due to some reason\.?|There was no qualifying low "
                       r"hand\.?|Creating (?:Main|Side) Pot .*|Board: \[.*\])$")
# the voluntary actions that show a player was dealt in (posts and showdown lines count too)
_UNSEATED = re.compile(r"^(?P<name>\S(?:.*?\S)?) (?P<rest>(?:posts|folds|checks|calls|bets|"
                       r"double bets|raises|completes|bring-ins|is all-In|shows|doesn't show|"
                       r"does not show|wins) ?.*)$")
_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
# zones PartyPoker writes beyond the shared table: German summer time, Indochina, Moscow summer
_ZONES = {"MESZ": 2, "MEZ": 1, "ICT": 7, "MSKS": 4, "MSD": 4, "HKT": 8, "SGT": 8, "JST": 9,
          "IST": 5.5, "BRT": -3, "ART": -3, "AST": -4, "ADT": -3, "NZST": 12, "NZDT": 13}
_STUD_STREETS = {None: 3, "Fourth": 4, "Fifth": 5, "Sixth": 6, "River": 7}


def _clean(text: str) -> str:
    """A line without stray NUL bytes (and a UTF-16 byte-order mark read as cp1252), its runs
    of spaces collapsed."""
    return " ".join(text.replace("\x00", "").lstrip("\ufeffÿþ").split())


def _to_utc(month: str, day: str, time: str, zone: str, year: str, n: int, text: str
            ) -> tuple[dt.datetime, str]:
    m = _MONTHS.get(month.lower()) or next(
        (v for k, v in _MONTHS.items() if k[:3] == month.lower()[:3]), None)
    try:
        local = dt.datetime.strptime(f"{year}-{m}-{day} {time}", "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise bad_line(n, text, "invalid date") from None
    z = zone.upper()
    if z in _ZONES:
        tz = dt.timezone(dt.timedelta(hours=_ZONES[z]))
        return local.replace(tzinfo=tz).astimezone(dt.UTC), ""
    return local_to_utc(local, z)


class _Game:
    """What the game line (and the tournament lines inside the hand) say."""

    def __init__(self) -> None:
        self.variant = ""
        self.structure = ""
        self.tournament = False
        self.newer = False
        self.stakes: list[str] = []  # classic cash: the stakes words
        self.cur: str | None = None
        self.symbol = ""
        self.trny: str | None = None
        self.level: int | None = None
        # (Blinds|Stakes, a, b, ante) as written
        self.blinds: tuple[str, str, str, str | None] | None = None
        self.words = ""
        self.ts: dt.datetime | None = None
        self.note = ""


def _game_line(n: int, text: str) -> _Game:
    g = _Game()
    desc, sep, date = text.rpartition(" - ")
    d = _DATE_OLD.match(date) or _DATE_NEW.match(date)
    if not sep or d is None:
        raise bad_line(n, text, "unrecognised game line")
    g.ts, g.note = _to_utc(d.group("month"), d.group("day"), d.group("time"), d.group("zone"),
                           d.group("year"), n, text)
    desc = desc.strip()
    if (m := _NEW.match(desc)):
        g.newer = True
        g.tournament = bool(m.group("tourney") or m.group("trny"))
        g.trny = m.group("trny")
        name, limit = m.group("game"), m.group("limit")
        g.stakes = [m.group("sb"), m.group("bb")]
        if m.group("tourney") and not g.trny:
            raise bad_line(n, text, "a tournament game line without its tournament number")
    elif (m := _TRNY.match(desc)):
        g.tournament = True
        g.trny, g.level = m.group("trny"), int(m.group("level"))
        name, limit = m.group("game"), m.group("limit")
        s = _STAKES.match(m.group("stakes"))
        if s is None:
            raise bad_line(n, text, "unrecognised tournament stakes")
        g.blinds = (s.group(1), s.group("a"), s.group("b"), s.group("ante"))
        g.symbol = (m.group("buyin") or " ")[0]
    elif (m := _CASH.match(desc)):
        name, limit = m.group("game"), m.group("limit")
        g.stakes = m.group("stakes").split("/")
        g.cur = m.group("cur")
        g.symbol = g.stakes[0][0]
        g.words = m.group("words") or ""
        if g.words:
            g.note += f";table={g.words}"
    else:
        game = re.sub(r"^(?:[$€£]?[0-9][0-9,./$€£]* ?(?:[A-Z]{3} )?)?(?:NL |PL |FL )?", "",
                      desc)
        raise bad_line(n, text, f"unsupported PartyPoker game {game!r}")
    variant = _GAMES.get(" ".join(name.lower().split()))
    if variant is None:
        raise bad_line(n, text, f"unsupported PartyPoker game {name!r}")
    g.variant = variant
    if variant in _STUD:
        if limit not in (None, "FL", "Limit"):
            raise bad_line(n, text, f"unsupported PartyPoker game ({limit} stud)")
        limit = "FL"
    if limit is None:
        raise bad_line(n, text, "the game line names no betting structure (NL, PL or FL)")
    g.structure = _LIMITS[limit]
    return g


class _Party:
    """One hand being mapped."""

    def __init__(self, block: list[tuple[int, str]], file_name: str) -> None:
        self.file_name = file_name
        self.number = block[0][0]
        self.lines = [(n, _clean(t)) for n, t in block]
        self.body = [(n, t) for n, t in self.lines if t]
        self.stud_shown: dict[str, list[str]] | None = None  # stud: seven cards shown

    # --- the head: header, game, table, seats ---------------------------------------------

    def map(self) -> SiteHand | None:
        body = self.body
        i = 0
        hand_no = None
        while i < len(body) and (_START.match(body[i][1]) or _GAMENO.match(body[i][1])
                                 or _HH.match(body[i][1])):
            if (m := _HH.match(body[i][1])):
                hand_no = m.group(1)
            i += 1
        if hand_no is None:
            if i >= len(body):
                return None  # only preamble lines: the start of a hand the file does not hold
            raise bad_line(body[i][0], body[i][1], "no '***** Hand History for Game N *****' "
                           "line before the hand")
        if i >= len(body):
            raise SiteHandError(f"line {self.number}: hand ends after its header (truncated?)")
        n, text = body[i]
        g = _game_line(n, text)
        self.g = g
        self.game_line = n
        i += 1
        if i >= len(body) or not (t := _TABLE.match(body[i][1])):
            at, shown = body[i] if i < len(body) else (n, text)
            raise bad_line(at, shown, "expected 'Table NAME (Real Money)'")
        play = t.group(2) == "Play"
        button = int(t.group(3)) if t.group(3) else None
        h = SiteHand(fmt="partypoker", file_name=self.file_name, hand_id=f"party:{hand_no}",
                     table_id=t.group(1).strip())
        self.h = h
        i += 1
        seat_count = None
        while i < len(body) and (m := _BUTTON.match(body[i][1]) or _COUNT.match(body[i][1])):
            if m.re is _BUTTON:
                button = int(m.group(1))
            elif m.group(2):
                seat_count = int(m.group(2))
            i += 1
        seats: list[tuple[int, int, str, str]] = []
        while i < len(body) and (m := _SEAT.match(body[i][1])):
            seats.append((body[i][0], int(m.group(1)), m.group(2), m.group("amt")))
            i += 1
        if not seats:
            raise SiteHandError(f"line {self.number}: hand has no seats (truncated?)")
        if button is None:
            raise SiteHandError(f"line {self.number}: no 'Seat N is the button' line")
        symbol = g.symbol if g.symbol in "$€£" and g.symbol else next(
            (a.lstrip()[0] for *_, a in seats if a.lstrip()[0] in "$€£"), "")
        if play or g.tournament:
            currency = "CHIPS"
        elif g.cur:
            currency = g.cur.upper()
        elif symbol:
            currency = {"$": "USD", "€": "EUR", "£": "GBP"}[symbol]
        else:
            currency, g.note = "USD", g.note + ";currency=assumed USD (no symbol or code)"
        self.mpu = 1 if currency == "CHIPS" else 100
        self.rest = body[i:]
        self.names = {name: seat for _, seat, name, _ in seats}
        self.aliases: dict[str, str] = {}
        self._learn_aliases()
        self.balances: dict[str, int] = {}
        for n, text in self.rest:
            if (b := _BALANCE.match(text)):
                name = self.aliases.get(b.group("name"), b.group("name"))
                self.balances[name] = self.money(b.group("bal"), n)
        events = self._rename_unseated(self._tokens())
        game: dict[str, Any] = {"variant": g.variant, "structure": g.structure,
                                "currency": currency, "minor_per_unit": self.mpu,
                                "tournament": g.tournament, "ante": 0}
        if g.tournament and g.trny:
            game["tournament_id"] = g.trny
        if seat_count:
            game["seat_count"] = seat_count
        self.game = game
        self._stakes(g, events)
        dealt_in = self._dealt_in(events)
        button = self._button(button, seats, seat_count, dealt_in, events)
        if button:
            game["button_seat"] = button
        placed = self._place_unseated(events, seats, seat_count, button)
        self.started = h.emit(self.number, "hand_started", g.note, ts=g.ts, game=game,
                              detail=self._flags())
        for line, seat, name, amt in seats:
            stack = self.money(amt, line)
            # a cash player who neither posts nor acts sits out; a tournament player is dealt
            # in while he has chips (his blinds may go unlogged)
            out = name not in dealt_in and (not g.tournament or stack == 0)
            if stack == 0 and not out:  # a new player's chips are not in the seat list yet
                self._add_unseated(line, seat, name, "the seat list shows no chips for a "
                                   "player who plays; stack unknown")
            else:
                h.add_seat(line, seat, name, stack, out)
        for name, (line, seat) in placed.items():
            self._add_unseated(line, seat, name, "seat inferred: the player is not in the seat "
                               "list; stack unknown")
        self._play(events)
        return h

    def money(self, text: str, where: int) -> int:
        return to_minor(parse_amount(text.replace(" ", "").rstrip(".,")), self.mpu,
                        f"line {where} amount {text!r}")

    def _flags(self) -> str:
        # Party logs no returned bets; the classic format no rake (cash; tournaments have none)
        if self.g.tournament or self.g.newer:
            return "refunds=implicit"
        return "refunds=implicit;rake=implicit"

    def _learn_aliases(self) -> None:
        """Full names the seat list cut short: `Dealt to Hero Name [..]`, `Hero Name balance`."""
        for _, text in self.rest:
            m = _DEALT.match(text) or _BALANCE.match(text)
            if not m:
                continue
            full = m.group(1) if m.re is _DEALT else m.group("name")
            if full in self.names or full in self.aliases:
                continue
            short = [s for s in self.names if full.startswith(s) and len(s) < len(full)]
            if short:
                self.aliases[full] = max(short, key=len)
        self.order = sorted([*self.names, *self.aliases], key=len, reverse=True)

    def split_name(self, text: str) -> tuple[str, str] | None:
        for name in self.order:
            if text.startswith(name) and (len(text) == len(name) or text[len(name)] in " :"):
                return self.aliases.get(name, name), text[len(name):].lstrip(" ")
        return None

    def _unseated_note(self, text: str) -> bool:
        """A note about someone not seated (joins, leaves), whose name may begin with a seated
        player's name or with an action word."""
        for pattern, _ in _ANYONE_NOTES:
            if (a := pattern.match(text)):
                return a.group(1) not in self.names and a.group(1) not in self.aliases
        return False

    def _joined_split(self, text: str, joined: list[str]) -> tuple[str, str] | None:
        """(player, rest) of a line of a player who joined the table during the hand, when his
        name is longer than the seated name the line also starts with ("ace ace posts" with
        "ace" seated) or starts with an action word ("calls raises posts")."""
        for name in joined:  # longest first
            if text.startswith(name + " "):
                seated = self.split_name(text)
                if seated is None or len(text) - len(seated[1]) <= len(name):
                    return name, text[len(name):].lstrip(" ")
        return None

    def _unglue(self, text: str) -> list[str]:
        """`..cards.Player2 wins $1` -> two lines (the client sometimes drops the line end)."""
        said = self.split_name(text) if ":" in text else None
        if said is not None and said[1].startswith(":"):
            return [text]  # chat
        out = []
        start = 0
        for k in range(1, len(text)):
            if text[k - 1] == "." and text[k] != " " and k > start:
                tail = text[k:]
                if any(tail.startswith(nm + " ") for nm in self.order):
                    out.append(text[start:k])
                    start = k
        out.append(text[start:])
        return out

    # --- the body as tokens -----------------------------------------------------------------

    def _tokens(self) -> list[tuple[int, str, str | None, str]]:
        """(line, kind, player, text) for each body line: kind `deal`, `street`, `stud`,
        `summary`, `line` (a player's line; text = the rest after the name), `level`,
        `stakes`, `harmless`, `other`."""
        out: list[tuple[int, str, str | None, str]] = []
        summary = False
        joined = sorted({m.group(1) for _, raw in self.rest for text in self._unglue(raw)
                         if (m := _ANYONE_NOTES[0][0].match(text))
                         and self._unseated_note(text)}, key=len, reverse=True)
        for n, raw in self.rest:
            for text in self._unglue(raw):
                if summary:
                    out.append((n, "summary", None, text))
                elif _SUMMARY.match(text):
                    summary = True
                elif _DOWN.match(text):
                    out.append((n, "deal", None, text))
                elif _STREET.match(text):
                    out.append((n, "street", None, text))
                elif _STUD_STREET.match(text):
                    out.append((n, "stud", None, text))
                elif _LEVEL.match(text):
                    out.append((n, "level", None, text))
                elif _STAKES.match(text):
                    out.append((n, "stakes", None, text))
                elif _HARMLESS.match(text) or _START.match(text) or _GAMENO.match(text):
                    out.append((n, "harmless", None, text))
                elif (d := _DEALT.match(text)):
                    name = self.aliases.get(d.group(1), d.group(1))
                    out.append((n, "dealt", name, d.group(2)))
                elif self._unseated_note(text):  # "ace ace has joined", "ace" seated
                    out.append((n, "other", None, text))
                elif (j := self._joined_split(text, joined)):
                    out.append((n, "line", j[0], j[1]))
                elif (s := self.split_name(text)):
                    out.append((n, "line", s[0], s[1]))
                elif (u := _UNSEATED.match(text)) and not text.startswith("Player "):
                    out.append((n, "line", u.group("name"), u.group("rest")))
                else:
                    out.append((n, "other", None, text))
        return out

    def _rename_unseated(self, events: list[tuple[int, str, str | None, str]]
                         ) -> list[tuple[int, str, str | None, str]]:
        """Partly anonymised logs name a player one way in the seat list and another in the
        action lines. When every player who acts without a seat and without posting can be
        matched, in turn order, with a seated player who otherwise never acts (clockwise from
        the big blind), the action lines are read as that seated player's (noted)."""
        acts = (_ACTION, _RAISE_TO)
        unseated: list[str] = []
        voluntary: set[str] = set()
        posted: set[str] = set()
        joined = {m.group(1) for _, kind, _, text in events if kind == "other"
                  and (m := _ANYONE_NOTES[0][0].match(text))}
        bb = None
        for _, kind, who, text in events:
            if kind != "line" or not who:
                continue
            if _POST.match(text):
                posted.add(who)
                if "big blind" in text and bb is None:
                    bb = self.names.get(who)
            elif any(p.match(text) for p in acts):
                voluntary.add(who)
                if who not in self.names and who not in unseated:
                    unseated.append(who)
        strangers = [u for u in unseated if u not in posted and u not in joined]
        if not strangers or bb is None:
            return events
        size = max(self.names.values())
        silent = [name for name, seat in sorted(
            self.names.items(), key=lambda kv: (kv[1] - bb - 1) % size)
            if name not in voluntary and self.names[name] != bb]
        if len(silent) != len(strangers):
            return events
        rename = dict(zip(strangers, silent, strict=True))
        self.g.note += ";names=" + ",".join(f"{a} is {b}" for a, b in rename.items()) + (
            " (the action lines name players the seat list does not)")
        return [(n, kind, rename.get(who, who) if who else who, text)
                for n, kind, who, text in events]

    def _stakes(self, g: _Game, events: list[tuple[int, str, str | None, str]]) -> None:
        """Level and blinds: the tournament lines inside the hand win over the header."""
        game = self.game
        for n, kind, _, text in events:
            if kind == "deal" or kind == "stud":
                break
            if kind == "level" and (m := _LEVEL.match(text)):
                game["level"] = int(m.group(2))
            elif kind == "stakes" and (m := _STAKES.match(text)):
                g.blinds = (m.group(1), m.group("a"), m.group("b"), m.group("ante"))
                self.game_line = n
        if g.level is not None:
            game.setdefault("level", g.level)
        gl = self.game_line
        if g.blinds is not None:
            word = g.blinds[0]
            a, b, ante = (self.money(x, gl) if x else 0 for x in g.blinds[1:])
            game["ante"] = ante
            if g.structure == "fixed_limit" and (word == "Stakes" or g.variant in _STUD):
                game.update(small_bet=a, big_bet=b)  # the limits; the blinds are half
                if g.variant not in _STUD:
                    game.update(big_blind=a, small_blind=a // 2)
            elif g.structure == "fixed_limit":  # the blinds; the small bet is the big blind
                game.update(small_blind=a, big_blind=b, small_bet=b, big_bet=2 * b)
            else:
                game.update(small_blind=a, big_blind=b)
            return
        stakes = g.stakes
        if g.structure == "fixed_limit":
            if len(stakes) != 2:
                raise SiteHandError(f"line {gl}: a fixed-limit game without small/big bet "
                                    "stakes")
            game.update(small_bet=self.money(stakes[0], gl), big_bet=self.money(stakes[1], gl))
            if g.variant not in _STUD:
                game["big_blind"] = game["small_bet"]
        elif len(stakes) == 2 and g.variant != "holdem_6plus":
            game.update(small_blind=self.money(stakes[0], gl),
                        big_blind=self.money(stakes[1], gl))

    def _button(self, button: int, seats: list[tuple[int, int, str, str]],
                seat_count: int | None, dealt_in: set[str],
                events: list[tuple[int, str, str | None, str]]) -> int:
        """Some converted hands number the button from 0: `Seat 1 is the button` while the
        player clockwise before the small blind, the button, sits in seat 2 (the blinds and
        the order of play say so). Then the button is that seat, noted in `source`."""
        sb = next((self.names.get(who) for _, kind, who, text in events
                   if kind == "line" and who and text.startswith("posts small blind")), None)
        active = sorted(seat for _, seat, name, _ in seats if name in dealt_in)
        if self.g.variant in _STUD or sb is None or sb not in active or len(active) < 3:
            return button
        before = active[active.index(sb) - 1]
        following = button % max(seat_count or 0, active[-1]) + 1
        if before != button and before == following:
            self.g.note += (f";button=seat {before} (the log names seat {button}, one before "
                            "the player who precedes the small blind)")
            return before
        return button

    def _dealt_in(self, events: list[tuple[int, str, str | None, str]]) -> set[str]:
        """Players who post or act (a cash player who does neither was not dealt in)."""
        seen = set()
        for _, kind, who, text in events:
            if kind == "dealt" and who:
                seen.add(who)
            elif kind == "line" and who and not text.startswith(":") and (
                    _POST.match(text) or _BRING_IN.match(text) or _ACTION.match(text)
                    or _RAISE_TO.match(text) or _SHOW.match(text) or _NOSHOW.match(text)
                    or _WIN.match(text) or text == "Forward Folds"):
                seen.add(who)
            elif kind == "summary" and (b := _BALANCE.match(text)):
                name = self.aliases.get(b.group("name"), b.group("name"))
                if "sits out" not in b.group("rest"):
                    seen.add(name)
        return seen

    def _place_unseated(self, events: list[tuple[int, str, str | None, str]],
                        seats: list[tuple[int, int, str, str]], seat_count: int | None,
                        button: int) -> dict[str, tuple[int, int]]:
        """Players who post and play without a seat line: the first free seat clockwise after
        the player whose turn came just before theirs."""
        unseated: dict[str, int] = {}  # name -> first line
        posted: set[str] = set()
        for n, kind, who, text in events:
            if kind == "line" and who and who not in self.names:
                if not (_POST.match(text) or _ACTION.match(text) or _RAISE_TO.match(text)
                        or _SHOW.match(text) or _NOSHOW.match(text) or _WIN.match(text)
                        or text.startswith("does not show")):
                    continue
                unseated.setdefault(who, n)
                if _POST.match(text):
                    posted.add(who)
        if not unseated:
            return {}
        for who, n in unseated.items():
            if who not in posted:
                raise SiteHandError(
                    f"line {n}: {who!r} plays without a seat and without posting: the seat "
                    "list and the action lines name different players")
        size = max(seat_count or 0, max(s for _, s, _, _ in seats), 6)
        taken = {s for _, s, _, _ in seats}
        seat_of = dict(self.names)
        placed: dict[str, tuple[int, int]] = {}
        turns: list[str] = []  # posters, then the first action of each player, in order
        for _, kind, who, text in events:
            if kind == "line" and who and who not in turns and (
                    _POST.match(text) and "ante" not in text or _ACTION.match(text)
                    or _RAISE_TO.match(text)):
                turns.append(who)
        for who in unseated:
            k = turns.index(who) if who in turns else 0
            before = next((seat_of[p] for p in reversed(turns[:k]) if p in seat_of), button)
            free = [((before + j - 1) % size) + 1 for j in range(1, size + 1)]
            seat = next((s for s in free if s not in taken), None)
            if seat is None:
                raise SiteHandError(f"line {unseated[who]}: {who!r} plays without a seat and "
                                    "the table has no free seat")
            taken.add(seat)
            seat_of[who] = seat
            placed[who] = (unseated[who], seat)
        return placed

    def _add_unseated(self, line: int, seat: int, name: str, why: str) -> None:
        """A seat whose stack the log does not give (amount null: never short)."""
        h = self.h
        h.seat_of[name] = seat
        h.left[seat] = 1 << 60
        self.names[name] = seat
        self.order = sorted([*self.names, *self.aliases], key=len, reverse=True)
        h.emit(line, "seat", f";{why}", seat=seat, player=name, amount=None)

    # --- the play ---------------------------------------------------------------------------

    def _play(self, events: list[tuple[int, str, str | None, str]]) -> None:
        h, g, game = self.h, self.g, self.game
        variant = g.variant
        stud = variant in _STUD
        known: dict[str, tuple[int, str]] = {}
        for n, kind, who, text in events:
            if kind == "dealt" and who in h.seat_of and not stud and who not in known:
                known[who] = (n, site_cards(text, f"line {n}"))
        section = "pre"
        blinds: dict[str, int] = {}
        wins: list[tuple[int, str, int, str, bool]] = []
        summary: list[tuple[int, str]] = []
        street = 0
        last = self.number
        for n, kind, who, text in events:
            last = n
            if kind in ("harmless", "level", "stakes"):
                continue
            if kind == "summary":
                summary.append((n, text))
                continue
            if kind == "deal":
                if section != "pre" or stud:
                    raise bad_line(n, text, "second deal of down cards")
                self._silent_blinds(n, blinds)
                self._silent_checkers(n, events, blinds)
                section = "play"
                h.deal_holes(n, variant, known) if variant in _HOLES else None
                continue
            if kind == "stud":
                if not stud:
                    raise bad_line(n, text, "a stud street in a button game")
                m = _STUD_STREET.match(text)
                assert m is not None
                number = _STUD_STREETS[m.group(1) or m.group(2)]
                if number != street + 1 and not (number == 3 and street == 0):
                    raise bad_line(n, text, "stud street out of order")
                street = number
                section = "play"
                self._stud_deal(n, number, events)
                continue
            if kind == "street":
                if stud:
                    raise bad_line(n, text, "a board in a stud game")
                s = _STREET.match(text)
                assert s is not None
                h.board(n, site_cards(s.group(2), f"line {n}"))
                continue
            if kind == "dealt":
                if who not in h.seat_of:
                    raise bad_line(n, f"Dealt to {who} [{text}]", "cards dealt to a player "
                                   "who is not seated")
                continue
            if kind == "other":
                for pattern, label in _ANYONE_NOTES:
                    if (a := pattern.match(text)):
                        h.emit(n, "annotation", player=a.group(1), detail=label)
                        break
                else:
                    if (c := _CHAT.match(text)) is None:
                        raise bad_line(n, text)
                    # an observer (or the dealer) chatting
                    h.emit(n, "annotation", player=c.group(1), detail=f"said: {c.group(2)}")
                continue
            assert who is not None
            rest = text
            if rest.startswith(":"):
                h.emit(n, "annotation", detail=f"said: {rest[1:].strip()}", **self.who(who))
                continue
            if who not in h.seat_of:
                for pattern, label in _SEATED_NOTES:
                    if pattern.match(rest):
                        h.emit(n, "annotation", player=who, detail=label)
                        break
                else:
                    raise bad_line(n, f"{who} {rest}", "a player who is not seated")
                continue
            if (p := _POST.match(rest)):
                if section != "pre":
                    raise bad_line(n, f"{who} {rest}", "a forced bet after the deal")
                self._post(n, who, p.group(1), self.money(p.group("a") or p.group("b"), n),
                           blinds, f"{who} {rest}")
                continue
            if (bi := _BRING_IN.match(rest)):
                if not stud or street != 3:
                    raise bad_line(n, f"{who} {rest}", "a bring-in outside 3rd street")
                amt = self.money(bi.group("a") or bi.group("b"), n)
                game.setdefault("bring_in", amt)
                h.post(n, who, "bring_in", amt, live=True)
                continue
            if (rt := _RAISE_TO.match(rest)):
                if section != "play":
                    raise bad_line(n, f"{who} {rest}", "an action before the down cards")
                kind2 = {"raises": "raise", "bets": "bet", "calls": "call"}[rt.group(1)]
                h.act(n, who, kind2, to=self.money(rt.group("to"), n))
                continue
            if (a := _ACTION.match(rest)):
                if section != "play":
                    raise bad_line(n, f"{who} {rest}", "an action before the down cards")
                verb = a.group(1)
                amt_s = a.group("a") or a.group("b")
                if verb == "is all-In" and amt_s is None:
                    self._all_in(n, who)
                    continue
                kind2 = {"folds": "fold", "checks": "check", "calls": "call", "bets": "bet",
                         "double bets": "bet", "raises": "raise", "completes": "complete",
                         "is all-In": "auto"}[verb]
                if (amt_s is None) != (kind2 in ("fold", "check")):
                    raise bad_line(n, f"{who} {rest}", "amount missing or unexpected")
                if amt_s is None:
                    h.act(n, who, kind2)
                else:
                    h.act(n, who, kind2, added=self.money(amt_s, n), all_in=kind2 == "auto")
                continue
            if (sh := _SHOW.match(rest)):
                h.emit(n, "show", cards=site_cards(sh.group(1), f"line {n}"), **self.who(who))
                continue
            if (ns := _NOSHOW.match(rest)):
                h.emit(n, "muck", cards=site_cards(ns.group(1), f"line {n}"), **self.who(who))
                continue
            if rest in ("does not show cards.", "does not show cards", "mucks"):
                w = self.who(who)
                cards = h.hole.get(w["seat"])
                h.emit(n, "muck", cards=cards if cards and "??" not in cards else None, **w)
                continue
            if _LOW_SHOWN.match(rest):
                continue  # the low of the cards just shown, in words
            if (wn := _WIN.match(rest)):
                pot, side = wn.group("pot"), wn.group("k")
                label = f"side-{side or 1}" if pot and pot.startswith("side") else "main"
                wins.append((n, who, self.money(wn.group("amt"), n), label, bool(wn.group("lo"))))
                continue
            for pattern, label in _SEATED_NOTES:
                if pattern.match(rest):
                    detail = f"{label}: {rest}" if label == "cash_out" else label
                    h.emit(n, "annotation", detail=detail, **self.who(who))
                    break
            else:
                if _STATUS.match(rest):  # a status message: it names no chips and no cards
                    h.emit(n, "annotation", detail=f"note: {rest}", **self.who(who))
                    continue
                raise bad_line(n, f"{who} {rest}")
        if section == "pre":
            raise SiteHandError(f"line {last}: hand ends before the cards are dealt "
                                "(truncated?)")
        low_pots = {label for *_, label, lo in wins if lo}
        for n, who, amt, label, lo in wins:
            half = "/low" if lo else ("/high" if label in low_pots else "")
            h.award(n, who, amt, label + half)
        end = self._summary(summary) if summary else None
        if end is not None:
            self.lines_end = summary[-1][0]
            if self._uncalled():
                self.started["detail"] = None  # the newer summary: returns split off
        if not wins and end is None:
            raise SiteHandError(f"line {last}: hand ends without a 'wins' line or a summary "
                                "(truncated?)")
        if not g.tournament and g.structure != "fixed_limit" and "big_blind" not in game:
            if variant == "holdem_6plus":
                if "big_blind" not in blinds:
                    raise SiteHandError(f"line {self.number}: no button blind posted")
            elif "big_blind" not in blinds:
                raise SiteHandError(f"line {self.number}: no big blind posted, and a "
                                    f"{g.structure} PartyPoker header gives no blinds")
            game["big_blind"] = blinds["big_blind"]
            if variant != "holdem_6plus":
                game["small_blind"] = blinds.get("small_blind")
        if g.structure == "fixed_limit" and variant not in _STUD and "small_blind" in blinds:
            game["small_blind"] = blinds["small_blind"]
        self.started["game"] = game
        h.end(last, end)

    def _all_in(self, n: int, who: str) -> None:
        """`X is all-In.` after X's bet: the summary's `balance 0` confirms he put in every
        chip. The newer format may show that bet a chip short (NLHE-MTT-USD-50-5-202104.anon:
        `raises 11302166 to 11302166` from 11302167 behind, `balance 0, lost 11389667`): the
        bet is read as all his chips, noted in `source`."""
        h = self.h
        w = self.who(who)
        seat = w["seat"]
        left = h.left[seat]
        last = h.rows[-1]
        if (0 < left < 1 << 59 and self.balances.get(who) == 0 and last.get("seat") == seat
                and last["kind"] in ("bet", "raise", "call")):
            last["amount"] += left
            last["total"] += left
            last["detail"] = "all_in"
            last["source"] += (f";amount=+{left}: the log says all-in and the summary leaves "
                               "him no chips")
            h.round[seat] = last["total"]
            h.left[seat] = 0
        h.emit(n, "annotation", detail="all_in", **w)

    def _uncalled(self) -> bool:
        """The newer summary's `collected` includes the returned uncalled bet: split it off as
        an `uncalled` award (the top contributor's excess over the next one). False when the
        top contributor collected less than that (the refund stays implicit)."""
        h = self.h
        contrib: dict[int, int] = {}
        for r in h.rows:
            if r["kind"] in ("post", "call", "bet", "raise", "complete") and r.get("seat"):
                contrib[r["seat"]] = contrib.get(r["seat"], 0) + (r.get("amount") or 0)
        ranked = sorted(contrib.items(), key=lambda kv: kv[1], reverse=True)
        if not ranked:
            return True
        top, most = ranked[0]
        refund = most - (ranked[1][1] if len(ranked) > 1 else 0)
        if refund <= 0:
            return True
        row = next((r for r in h.rows if r["kind"] == "award" and r.get("seat") == top), None)
        if row is None or row["amount"] < refund:
            return False
        row["amount"] -= refund
        self.h.emit(self.lines_end, "award", amount=refund, detail="uncalled", seat=top,
                    player=row["player"])
        if row["amount"] == 0:
            k = h.rows.index(row)
            del h.rows[k], h.lines[k]
            for k, r in enumerate(h.rows):
                r["seq"] = k
        return True

    def who(self, name: str) -> dict[str, Any]:
        return self.h.who(name)

    def _post(self, n: int, who: str, what: str, amt: int, blinds: dict[str, int],
              text: str) -> None:
        h, game = self.h, self.game
        if what == "small blind":
            if "small_blind" in blinds:
                h.post(n, who, "dead", amt, live=False)
                return
            blinds["small_blind"] = amt
            h.post(n, who, "small_blind", amt, live=True)
        elif what == "big blind":
            if "big_blind" in blinds:
                h.post(n, who, "new_player", amt, live=True)
                return
            blinds["big_blind"] = amt
            h.post(n, who, "big_blind", amt, live=True)
        elif what == "button blind":
            if self.g.variant != "holdem_6plus":
                raise bad_line(n, text, "a button blind outside short deck")
            blinds.setdefault("big_blind", amt)
            h.post(n, who, "button_blind", amt, live=True)
        elif what == "ante":
            h.post(n, who, "ante", amt, live=False)
            game["ante"] = max(game["ante"], amt)
        else:
            bb = game.get("big_blind") or blinds.get("big_blind")
            if bb is None or amt <= bb:
                raise bad_line(n, text, "big blind + dead before the table's big blind is "
                               "known")
            h.post(n, who, "new_player" if "big_blind" in blinds else "big_blind", bb,
                   live=True)
            h.post(n, who, "dead", amt - bb, live=False)

    def _silent_blinds(self, n: int, blinds: dict[str, int]) -> None:
        """Classic tournaments often log no blinds: posted by position."""
        g, h, game = self.g, self.h, self.game
        if not g.tournament or blinds or g.variant in _STUD or g.blinds is None:
            return
        button = game.get("button_seat") or 0
        active = sorted(s for s, left in h.left.items() if left > 0 and s not in h.sitting_out)
        if len(active) < 2:
            return
        after = [s for s in active if s > button] + [s for s in active if s <= button]
        sb_seat, bb_seat = (button, after[0]) if len(active) == 2 and button in active else (
            after[0], after[1])
        names = {s: nm for nm, s in h.seat_of.items()}
        self.started["source"] += ";blinds=not logged, posted by position"
        for seat, what in ((sb_seat, "small_blind"), (bb_seat, "big_blind")):
            amt = min(game[what], h.left[seat])
            if amt > 0:
                blinds[what] = amt
                h.post(n, names[seat], what, amt, live=True)

    def _silent_checkers(self, n: int, events: list[tuple[int, str, str | None, str]],
                         blinds: dict[str, int]) -> None:
        """A cash player who checks before the flop facing the big blind without a logged
        post has posted without the log saying so: a returning player's post of both blinds
        (the big blind live, the small blind dead), which converted logs drop, as in
        NLHE-6max-USD-0.05-0.10-201209.silent.post.both.txt (party:14067958: the award
        holds the dead small blind). Noted in `source`."""
        h = self.h
        bb = blinds.get("big_blind")
        if self.g.tournament or self.g.variant in _STUD or not bb:
            return
        posted = {who for _, kind, who, text in events if kind == "line" and _POST.match(text)}
        seen: set[str] = set()
        after = False
        for m, kind, who, text in events:
            if kind == "deal":
                after = True
                continue
            if not after or kind == "street" or kind == "summary":
                if after:
                    break
                continue
            if kind != "line" or not who or who in seen or who not in h.seat_of:
                continue
            if not (_ACTION.match(text) or _RAISE_TO.match(text)):
                continue
            seen.add(who)
            if text.rstrip(".") == "checks" and who not in posted:
                why = (f";post=not logged: {who} checks at line {m} facing the big blind, so "
                       "he had posted both blinds (the format has no line for that post)")
                amt = min(bb, h.left[h.seat_of[who]])
                h.post(n, who, "new_player", amt, live=True)
                h.rows[-1]["source"] += why
                dead = min(blinds.get("small_blind", 0), h.left[h.seat_of[who]])
                if dead:
                    h.post(n, who, "dead", dead, live=False)
                    h.rows[-1]["source"] += why

    def _stud_deal(self, n: int, number: int,
                   events: list[tuple[int, str, str | None, str]]) -> None:
        """Every live seat gets its street's cards: the hero's from `Dealt to`, `??` else."""
        h = self.h
        h.new_round()
        if self.stud_shown is None:
            self.stud_shown = {}
            for m, kind, who, text in events:
                if kind == "line" and who and (sh := _SHOW.match(text) or _NOSHOW.match(text)):
                    got = site_cards(sh.group(1), f"line {m}").split(" ")
                    if len(got) == 7 and "??" not in got:
                        self.stud_shown[who] = got
        mine: dict[str, str] = {}
        started = False
        for m, kind, who, text in events:
            if m == n and kind == "stud":
                started = True
                continue
            if not started:
                continue
            if kind in ("stud", "summary"):
                break
            if kind == "dealt" and who:
                mine[who] = site_cards(text, f"line {m}")
        names = {s: nm for nm, s in h.seat_of.items()}
        for seat in sorted(h.left):
            if seat in h.sitting_out or seat in h.folded:
                continue
            name = names[seat]
            cards = mine.get(name)
            shown = self.stud_shown.get(name)
            if cards is None and shown:  # shown at the showdown in the order dealt
                cards = " ".join(shown[:3]) if number == 3 else shown[number - 1]
            w: dict[str, Any] = {"seat": seat, "player": name}
            if number == 3:
                got = cards.split(" ") if cards else ["??"] * 3
                if len(got) != 3:
                    raise bad_line(n, f"Dealt to {name} [{cards}]", "3rd street deals three "
                                   "cards")
                h.emit(n, "deal", cards=" ".join(got[:2]), detail="down", **w)
                h.emit(n, "deal", cards=got[2], detail="up", **w)
            else:
                got = cards.split(" ") if cards else ["??"]
                if len(got) != 1:
                    raise bad_line(n, f"Dealt to {name} [{cards}]", "a stud street deals one "
                                   "card")
                h.emit(n, "deal", cards=got[0], detail="down" if number == 7 else "up", **w)

    def _summary(self, lines: list[tuple[int, str]]) -> str | None:
        """The newer format's summary: pots and rake, shown cards, what each collected."""
        h = self.h
        pots: list[str] = []
        total = None
        end: str | None = None
        for n, text in lines:
            if text.startswith("Main Pot"):
                total = 0
                for m in _NEW_POTS.finditer(text):
                    label, amt = m.group(1), self.money(m.group("v"), n)
                    total += amt
                    if label == "Main Pot":
                        pots.append(f"main:{amt}")
                    elif label.startswith("Side Pot"):
                        pots.append(f"side-{m.group(2) or 1}:{amt}")
                    elif label == "Rake":
                        h.emit(n, "rake", amount=amt, detail="rake")
                    else:
                        raise bad_line(n, text, f"unknown pot item {label!r}")
                continue
            if _HARMLESS.match(text):
                continue
            b = _BALANCE.match(text)
            if b is None:
                raise bad_line(n, text, "unknown summary line")
            name = self.aliases.get(b.group("name"), b.group("name"))
            if name not in h.seat_of:
                raise bad_line(n, text, "a summary line for a player who is not seated")
            rest = b.group("rest")
            w = self.who(name)
            shown = re.search(r"\[([^\]]*)\]", rest)
            if shown and w["seat"] not in h.sitting_out:
                try:
                    cards = site_cards(shown.group(1), f"line {n}")
                except SiteHandError:
                    cards = None
                if cards:
                    h.emit(n, "show", cards=cards, **w)
            c = _COLLECTED.search(rest)
            if c is None:
                continue
            amt = self.money(c.group("c"), n)
            if b.group("cashed"):
                h.emit(n, "annotation", detail=f"cash_out: {text}", **w)
            elif amt:
                h.award(n, name, amt, "main")
        if total is not None:
            end = f"total_pot={total}" + (";pots=" + ",".join(pots) if pots else "")
        return end


def _map_party(block: list[tuple[int, str]], file_name: str) -> SiteHand | None:
    return _Party(block, file_name).map()


def _party_hand_id(block: list[tuple[int, str]]) -> str | None:
    for _, text in block[:6]:
        if (m := _HH.match(_clean(text))):
            return f"party:{m.group(1)}"
    for _, text in block[:4]:
        if (m := _START.match(_clean(text)) or _GAMENO.match(_clean(text))):
            return f"party:{m.group(1)}"
    return None


class PartyPokerImporter:
    """PartyPoker text files: recognised by content, read hand by hand."""

    name = "partypoker"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """`***** Hand History for Game N *****` (or `For`) at a line start near the top, NUL
        bytes (UTF-16 text too) and spaces allowed (file name ignored)."""
        del path
        text = head.replace(b"\x00", b"")  # stray NULs, or ASCII text written as UTF-16
        return re.search(rb"(?m)^[ \t\xef\xbb\xbf\xff\xfe]*\*{5} ?Hand History [Ff]or Game \w+ "
                         rb"?\*{5}", text) is not None

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        out = ChunkWriter(self.chunk_hands, str(path))
        for is_hand, block, unread in split_blocks(path, _Split()):
            significant = [(n, t) for n, t in block if _clean(t)]
            if not significant:
                continue
            hand_id = _party_hand_id(block) if is_hand else None
            if unread:
                out.reject(block, unread, hand_id)
                continue
            if not is_hand:
                out.reject_outside(block, significant[0][0], _clean(significant[0][1]))
                continue
            hand = out.map_or_reject(block, hand_id, _map_party, block, path.name)
            if hand is None:
                continue
            out.add(hand, raw_text(block))
            if out.full:
                yield out.take()
        if out.pending:
            yield out.take()


class _Split:
    """Hand boundaries: the first of a run of preamble / header lines (`Game #N starts.`,
    `#Game No : N`, `***** Hand History ...`); blank lines do not break a run."""

    def __init__(self) -> None:
        self.in_run = False

    def match(self, text: str) -> bool:
        t = _clean(text)
        if not t:
            return False
        if _START.match(t) or _GAMENO.match(t) or _HH.match(t):
            starts = not self.in_run
            self.in_run = True
            return starts
        self.in_run = False
        return False


IMPORTER = PartyPokerImporter()
