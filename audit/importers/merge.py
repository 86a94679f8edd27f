"""Merge Gaming Network XML hand histories imported as events (streamed, no DTDs).

A Merge file is a run of XML pieces without a root element: a `<description type=.. stakes=..>`
(the game of the hands that follow, repeated when it changes) and one `<game id="T-N">` per
hand.  The reader streams the file line by line, cuts it at each `<game ` line, and parses
each hand on its own with expat (line numbers kept), so memory follows one hand, never the
file.  Security: a piece holding `<!DOCTYPE` or `<!ENTITY` is refused (no entity is ever
expanded, nothing external fetched).  A hand that is not well-formed XML, or holds an event
or round this reader does not know, is quarantined whole with the reason; text between hands
that is neither a description nor blank is rejected as outside any hand.

Mapping (Merge -> events; money exact, `$1,855.50` / `1500.00` understood):

* `<game id="T-N">` -> hand_id `merge:T-N`; `data="date|table|tournament or table id|id|..."`
  (`|` or `:` between fields) -> table_id: the table name (cash), `<tournament id> <T>`
  (tournaments); ts: the first event's `timestamp` (epoch milliseconds, UTC), else
  `starttime` (`20130818125834` read as UTC, or `2012/08/14 21:50:08 +0400` with its offset).
* the game: `gametype` (in mixed games `multigametype`) 2/23 hold'em, 9 Omaha, 35/37 Omaha
  H/L8, 39/41 stud, 43/45 stud H/L8, 47/49 razz, 63 A-5 triple draw, 67 2-7 triple draw, 71
  badugi; else the description's name (`Holdem`, `Omaha`, `Omaha H/L8`, `7-Stud`, `7-Stud
  H/L8`, `Razz`, `Badugi`, `2-7 Lowball`, `A-5 Lowball`; five or six hole cards make Omaha
  omaha5 / omaha6).  Structure from the stakes words (`No Limit`, `Pot Limit`, `Half Pot
  Limit`, `Limit`); stakes `($sb/$bb)`, `Limit $sb/$bb` (fixed limit: small/big bet), stud
  `($ante/$bring-in/$x)`, tournaments `Level L [Ante A, ]Blinds sb/bb` or none (then the
  posted blinds; stud limits from the betting).  Tournament when the description says so:
  chips (CHIPS, minor 1; 100 when a hand writes a fraction of a chip); cash: USD (minor 100);
  `realmoney="false"` play chips (CHIPS).
* `<players dealer=D>` `<player seat nickname balance dealtin>` -> seat (dealtin false:
  sitting_out); the button is D.  Seats numbered from 0 are shifted to 1.. (`source` says
  so).  A player acting from a seat the list lacks (he joined as the hand began) is seated
  with his stack unknown (null), named `seat N`.
* Clients differ in two ways, read per hand from the hand itself: newer ones write a RAISE /
  COMPLETE amount as the round total, older ones as the chips added (the reading whose calls
  match the bets they face, then whose chips pay the winners with the smallest rake, wins;
  `source` says when chips added); and some log each balance after the forced bets (a
  player puts in more than his balance, or acts after putting all of it in): the forced
  bets are then added back to the starting stack (`source` says so).
* events in order: SMALL_BLIND / BIG_BLIND (a second one: a player coming in, new_player) /
  ANTE / BRING_IN -> post; FOLD, CHECK, CALL (added), BET (added), RAISE and COMPLETE
  (round total, or added: above), ALL_IN with an amount (added; bet, call or raise by the
  round; without one it is a note); a stud showdown logged before the last street is
  written once every card is dealt; SHOW / MUCK with the round's SHOWN / MUCKED cards; DRAW
  (`text` = cards thrown) -> draw with `??` each, the replacements deal/draw (the hero's from
  his new hand); CHAT -> annotation said; DISCONNECTED, RECONNECTED, PLAYER_OUT -> annotation;
  GAME_CANCELLED -> hand_started detail cancelled=true.
* cards: HOLE (the hero's) -> deal/hole at the first betting round (others `??`);
  COMMUNITY (the whole board so far) -> deal/board with the new cards at the start of its
  round; stud DRAW_DRAWN_CARDS (each player's cards so far, `null` unseen) -> deal/down and
  up per street.
* `<winner amount uncalled potnumber pottype>` -> award: uncalled true -> `uncalled`, else
  `main` (pot 1) / `side-k` (pot k+1), pottype h / l -> `/high` / `/low`; the awards come
  after the play (grouped by pot).  Merge states no total pot and no rake: hand_started
  detail `rake=implicit`.  A description naming other blinds than the hand posts (a file's
  description is written once) yields to the posts (`source` says so).

**Compiled pass** (merge_kernel.py, numba; merge_compiled.py): a plain file (UTF-8, at most
8 MB, nothing but descriptions and blank lines between hands) is read whole from its bytes;
the hands whose every line is one of the room's element layouts (`merge_fast._LINE`, and a
draw's DRAW event) are read straight into one Arrow table, check for check as the fast path
reads them (the XML reader for draws), the others by the fast path or the XML reader, which
alone quarantines (tests/importers/test_merge_compiled.py: the same chunks as the Python
paths). `MergeImporter(compiled=False)` leaves it out.
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.parsers import expat

import pyarrow as pa

from audit.importers.base import Chunk
from audit.importers.columns import EventColumns
from audit.importers.sitetext import (
    CHUNK_HANDS,
    HOLE_COUNT,
    ChunkWriter,
    SiteHand,
    SiteHandError,
    sniff_text,
    split_blocks,
)

_GAME_LINE = re.compile(r"^\ufeff?\s*<game[\s>]")


class _GameLines:
    """The lines that start a hand (`_GAME_LINE`), a piece of lines at once: only a line
    holding `<game` is matched (`split_blocks` calls `starts` per piece)."""

    match = _GAME_LINE.match

    @staticmethod
    def starts(piece: list[tuple[int, str]]) -> list[int]:
        match = _GAME_LINE.match
        return [k for k, (_, text) in enumerate(piece) if "<game" in text and match(text)]


_GAME_LINES = _GameLines()
_SNIFF = re.compile(r"(?m)^\ufeff?\s*<game id=\"[^\"]*\" starttime=")
_SNIFF_DESC = re.compile(r"(?m)^\ufeff?\s*<description type=\"[^\"]*\" stakes=")
_GAME_ID = re.compile(r"<game id=\"([^\"]*)\"")
_DESC = re.compile(r"<description\b([^>]*)/?>")
_ATTR = re.compile(r"(\w+)=\"([^\"]*)\"")
_CODES = {"2": "holdem", "23": "holdem", "9": "omaha", "11": "omaha", "35": "omaha_hilo",
          "37": "omaha_hilo", "39": "stud", "41": "stud", "43": "stud_hilo",
          "45": "stud_hilo", "47": "razz", "49": "razz", "63": "lowball_a5_triple",
          "67": "lowball_27_triple", "71": "badugi"}
_NAMES = {"holdem": "holdem", "omaha": "omaha", "omaha h/l8": "omaha_hilo",
          "omaha h/l": "omaha_hilo", "7-stud": "stud", "7-stud h/l8": "stud_hilo",
          "7-stud h/l": "stud_hilo", "razz": "razz", "badugi": "badugi",
          "2-7 lowball": "lowball_27_triple", "a-5 lowball": "lowball_a5_triple"}
_STUD = frozenset({"stud", "stud_hilo", "razz"})
_DRAW = frozenset({"lowball_27_triple", "lowball_a5_triple", "badugi", "draw_high",
                   "lowball_27_single"})
_STRUCTURES = (("half pot limit", "half_pot"), ("no limit", "no_limit"),
               ("pot limit", "pot_limit"), ("limit", "fixed_limit"))
_AMT = r"\$?([0-9][0-9,]*(?:\.[0-9]+)?)"
_PAREN = re.compile(r"\(" + _AMT + "/" + _AMT + r"(?:/" + _AMT + r")?\)")
_LIMIT_STAKES = re.compile(r"Limit " + _AMT + "/" + _AMT)
_BLINDS = re.compile(r"Blinds " + _AMT + "/" + _AMT)
_ANTE = re.compile(r"Ante " + _AMT)
_BETTING = frozenset({"PREFLOP", "POSTFLOP", "POSTTURN", "POSTRIVER", "PRE_FIRST_DRAW",
                      "POST_FIRST_DRAW", "POST_SECOND_DRAW", "POST_THIRD_DRAW", "THIRD_STREET",
                      "FOURTH_STREET", "FIFTH_STREET", "SIXTH_STREET", "SEVENTH_STREET"})
_DRAW_ROUNDS = frozenset({"FIRST_DRAW", "SECOND_DRAW", "THIRD_DRAW"})
_STUD_STREETS = {"BRING_IN": 3, "THIRD_STREET": 3, "FOURTH_STREET": 4, "FIFTH_STREET": 5,
                 "SIXTH_STREET": 6, "SEVENTH_STREET": 7}
_LAYOUT_ROUNDS = frozenset({"BLINDS", "SHOWDOWN", "END_OF_GAME", "END_OF_FOLDED_GAME",
                            "GAME_CANCELLED", "BRING_IN"})
_NOTES = {"DISCONNECTED": "disconnected", "RECONNECTED": "reconnected",
          "PLAYER_OUT": "player_out", "SITTING_OUT": "sits_out", "TIMEOUT": "timed_out"}
_PUT_IN = frozenset({"post", "call", "bet", "raise", "complete"})
_UNKNOWN_STACK = 1 << 60
_FRACTION = re.compile(r"\.[0-9]*[1-9]")  # an amount with a fraction (`12.50`)


class _E:
    """An XML element with the line it starts on."""

    __slots__ = ("tag", "a", "line", "kids")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.a = attrs
        self.line = line
        self.kids: list[_E] = []


def _parse(text: str, first_line: int) -> _E:
    """The `<game>` element of a hand's text (the lines from its `<game` to its `</game>`)."""
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise SiteHandError(f"line {first_line}: a DOCTYPE or ENTITY declaration: refused "
                            "(entities are never expanded)")
    parser = expat.ParserCreate()
    base = first_line - 1
    root: list[_E] = []
    open_kids = [root]  # the children list of each open element, the document's first
    new = _E

    # (the handlers run once per element: the work per element kept to the least)
    def start(tag: str, attrs: dict[str, str]) -> None:
        el = new(tag, attrs, base + parser.CurrentLineNumber)
        open_kids[-1].append(el)
        open_kids.append(el.kids)

    def end(tag: str) -> None:
        open_kids.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise SiteHandError(f"line {first_line + exc.lineno - 1}: not well-formed XML "
                            f"({expat.errors.messages[exc.code]})") from None
    if not root or root[0].tag != "game":
        raise SiteHandError(f"line {first_line}: no <game> element")
    # (a document has one root: every element parsed is in the game)
    return root[0]


def _has_fraction(game: _E) -> bool:
    """Whether an amount or balance in the game (any element of it) has a fraction."""
    todo = [game]
    search = _FRACTION.search
    while todo:
        e = todo.pop()
        a = e.a
        if ("amount" in a or "balance" in a) and (
                search(a.get("amount", "")) or search(a.get("balance", ""))):
            return True
        todo += e.kids
    return False


_KNOWN_AMOUNTS: dict[int, dict[str, int]] = {}  # minor units by amount text, per unit
_KNOWN_MAX = 8192  # amounts remembered per unit (a file repeats a few hundred)


class _Money:
    """Amounts in minor units; the amounts read are remembered (a file repeats the same
    few), errors never."""

    __slots__ = ("mpu", "known")

    def __init__(self, mpu: int) -> None:
        self.mpu = mpu
        self.known = _KNOWN_AMOUNTS.setdefault(mpu, {})

    def __call__(self, text: str | None, line: int) -> int:
        value = self.known.get(text) if text is not None else None
        if value is None:
            value = self._read(text, line)
            if len(self.known) >= _KNOWN_MAX:
                self.known.clear()
            self.known[text] = value  # type: ignore[index]
        return value

    def _read(self, text: str | None, line: int) -> int:
        if text is None:
            raise SiteHandError(f"line {line}: an amount is missing")
        t = text.strip().lstrip("$€£").replace(",", "")
        try:
            value = Decimal(t) * self.mpu
        except ArithmeticError:
            raise SiteHandError(f"line {line}: {text!r} is not an amount") from None
        if value != value.to_integral_value():
            raise SiteHandError(f"line {line}: amount {text!r} is finer than the cent")
        return int(value)


_KNOWN_CARDS: dict[str, str] = {}  # card by token, of the tokens read (errors never)


def _card(token: str, where: str) -> str:
    card = _KNOWN_CARDS.get(token)
    if card is None:
        card = _read_card(token, where)
        if len(_KNOWN_CARDS) < 4096:
            _KNOWN_CARDS[token] = card
    return card


def _read_card(token: str, where: str) -> str:
    t = token.strip()
    if t in ("null", "", "?", "??", "X", "xx"):
        return "??"
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2]
    if len(t) != 2 or t[0].upper() not in "23456789TJQKA" or t[1].lower() not in "cdhs":
        raise SiteHandError(f"{where}: {token!r} is not a card")
    return t[0].upper() + t[1].lower()


_KNOWN_HANDS: dict[str, tuple[str, ...]] = {}  # cards by the text of a cards element


def _cards(text: str, where: str) -> list[str]:
    cards = _KNOWN_HANDS.get(text)
    if cards is None:
        tokens = text.split(",")
        cards = tuple(_card(c, where) for c in tokens if c.strip() or len(tokens) > 1)
        if len(_KNOWN_HANDS) >= 8192:
            _KNOWN_HANDS.clear()
        _KNOWN_HANDS[text] = cards
    return list(cards)


def _variant(game: _E, desc: dict[str, str]) -> str:
    code = game.a.get("multigametype") or game.a.get("gametype", "")
    variant = _CODES.get(code)
    if variant is None:
        name = desc.get("type", "").lower().replace(" tournament", "").strip()
        variant = _NAMES.get(name)
    if variant is None:
        raise SiteHandError(f"line {game.line}: unsupported Merge game (gametype {code!r}, "
                            f"{desc.get('type', 'no description')!r})")
    holes = game.a.get("numholecards", "")
    if variant in ("omaha", "omaha_hilo") and holes in ("5", "6"):
        variant = f"omaha{holes}" + ("_hilo" if variant == "omaha_hilo" else "")
    return variant


def _ts(game: _E) -> tuple[dt.datetime, str]:
    for r in game.kids:
        for e in r.kids:
            stamp = e.a.get("timestamp")
            if stamp and stamp.isdigit():
                return dt.datetime.fromtimestamp(int(stamp) / 1000, dt.UTC), ""
    start = game.a.get("starttime", "")
    for fmt in ("%Y%m%d%H%M%S", "%Y/%m/%d %H:%M:%S %z"):
        try:
            t = dt.datetime.strptime(start, fmt)
        except ValueError:
            continue
        if t.tzinfo is None:
            return t.replace(tzinfo=dt.UTC), ";ts=starttime read as UTC (no zone)"
        return t.astimezone(dt.UTC), ""
    raise SiteHandError(f"line {game.line}: no time (starttime {start!r})")


def _map_text(text: str, first_line: int, desc: dict[str, str], file_name: str) -> SiteHand:
    """The hand of a `<game>` piece's text (its lines joined), whose first line is
    `first_line`."""
    return _map_game(_parse(text, first_line), desc, file_name)


def _map_game(game: _E, desc: dict[str, str], file_name: str) -> SiteHand:
    gid = game.a.get("id")
    if not gid:
        raise SiteHandError(f"line {game.line}: <game> without an id")
    variant = _variant(game, desc)
    is_stud = variant in _STUD
    is_draw = variant in _DRAW
    stakes = game.a.get("stakes") or desc.get("stakes", "")
    low = stakes.lower()
    structure = next((s for w, s in _STRUCTURES if w in low), None)
    if structure is None:
        structure = "fixed_limit" if is_stud else None
    if structure is None:
        raise SiteHandError(f"line {game.line}: no betting structure in the stakes "
                            f"{stakes!r}")
    tournament = "tournament" in desc.get("type", "").lower() or "buyIn" in game.a
    play = game.a.get("realmoney") == "false"
    chips = tournament or play
    # chips are whole (`1500.00`) unless a hand writes a fraction of one: then hundredths
    money = _Money(100 if not chips or _has_fraction(game) else 1)
    data = re.split(r"[|:]", game.a.get("data", ""))
    table = gid.split("-")[0]
    if tournament:
        table_id = f"{data[2] if len(data) > 2 else '?'} {table}"
    else:
        table_id = data[1] if len(data) > 1 and data[1] else table
    h = SiteHand(fmt="merge", file_name=file_name, hand_id=f"merge:{gid}", table_id=table_id)
    ts, note = _ts(game)
    gm: dict[str, Any] = {
        "variant": variant, "structure": structure,
        "currency": "CHIPS" if chips else "USD", "minor_per_unit": money.mpu,
        "tournament": tournament, "ante": 0,
        "seat_count": int(game.a["seats"]) if game.a.get("seats", "").isdigit() else None,
    }
    rounds = [r for r in game.kids if r.tag == "round"]
    players = next((k for k in game.kids if k.tag == "players"), None)
    if players is None:
        raise SiteHandError(f"line {game.line}: no <players>")
    listed = [p for p in players.kids if p.tag == "player"]
    acting = {e.a["player"] for r in rounds for e in r.kids
              if e.tag in ("event", "winner") and e.a.get("player", "").isdigit()}
    numbers = {int(p.a.get("seat", "-1")) for p in listed} | {int(x) for x in acting}
    if min(numbers, default=1) < 0:
        raise SiteHandError(f"line {players.line}: a seat number below 0")
    shift = 1 if 0 in numbers else 0
    notes = [note]
    if shift:
        notes.append(";seats=numbered from 0 in the log, shifted to 1..")
    started = h.emit(game.line, "hand_started", "".join(notes), ts=ts, game=gm,
                     detail="rake=implicit")
    raise_to, put, posted_by = _semantics(rounds, money)
    if not raise_to:
        started["source"] += ";raise=chips added (this client's RAISE amounts)"
    balance = {p.a["seat"]: money(p.a.get("balance", "0"), p.line) for p in listed}
    after_posts = any(put.get(x, 0) > b for x, b in balance.items()) or _acts_past_balance(
        rounds, balance, money, raise_to)
    if after_posts:  # the balances are what is left after the forced bets
        started["source"] += ";stacks=balance plus the forced bets (logged after them)"
        for x in balance:
            balance[x] += posted_by.get(x, 0)
    name_of: dict[str, str] = {}
    for p in listed:
        seat = int(p.a["seat"]) + shift
        name = p.a.get("nickname") or f"seat {seat}"
        name_of[p.a["seat"]] = name
        h.add_seat(p.line, seat, name, balance[p.a["seat"]], p.a.get("dealtin") == "false")
    for x in sorted(acting - set(name_of), key=int):
        seat = int(x) + shift
        name = f"seat {seat}"
        first = next(e.line for r in rounds for e in r.kids if e.a.get("player") == x)
        h.add_seat(first, seat, name, _UNKNOWN_STACK, False)
        h.rows[-1]["amount"] = None
        name_of[x] = name
        started["source"] += f";seat {seat}=acts without a seat line (stack unknown)"
    if not is_stud:
        dealer = players.a.get("dealer", "")
        if not dealer.lstrip("-").isdigit():
            raise SiteHandError(f"line {players.line}: no dealer seat")
        gm["button_seat"] = int(dealer) + shift
    # the first amount posted of each forced bet (one pass over the events)
    posted: dict[str, int | None] = dict.fromkeys(("SMALL_BLIND", "BIG_BLIND", "ANTE",
                                                   "BRING_IN"))
    for r in rounds:
        for e in r.kids:
            if e.tag == "event" and (t := e.a.get("type", "")) in posted and posted[t] is None \
                    and e.a.get("amount"):
                posted[t] = money(e.a.get("amount"), e.line)
    started["source"] += _stakes(gm, stakes, bool(game.a.get("stakes")), is_stud, structure,
                                 posted, money, game.line, lambda: _stud_limits(rounds, money))
    _play(h, game, rounds, name_of, money, gm, started, is_stud, is_draw, variant, raise_to)
    h.settle_awards_last()
    return h


def _stakes(gm: dict[str, Any], stakes: str, own: bool, is_stud: bool, structure: str,
            posted: dict[str, int | None], money: _Money, line: int,
            limits: Callable[[], tuple[int, int]]) -> str:
    """The game's stakes (`gm` updated) from the stakes text (`own`: the hand's, else the
    file's description) and the first amount posted of each forced bet; the `source` notes
    said of them.  (`limits()`: a stud game's small and big bet read from its betting, when
    the stakes name none.)"""
    notes = ""
    sb = bb = None
    if (m := _PAREN.search(stakes)):
        a, b, c = m.groups()
        if is_stud:
            gm["ante"] = money(a, line)
            gm["bring_in"] = money(b, line)
            if c:
                gm["min_bet"] = money(c, line)
        else:
            sb, bb = money(a, line), money(b, line)
    elif (m := _LIMIT_STAKES.search(stakes)):  # fixed limit: the small and big bet
        gm.update(small_bet=money(m.group(1), line), big_bet=money(m.group(2), line))
    elif (m := _BLINDS.search(stakes)):
        sb, bb = money(m.group(1), line), money(m.group(2), line)
        if (an := _ANTE.search(stakes)):
            gm["ante"] = money(an.group(1), line)
    if (bb is not None and not own and posted["BIG_BLIND"]
            and posted["BIG_BLIND"] != bb and posted["SMALL_BLIND"] != sb):
        # the description (the file's, written once) names other blinds than this hand posts
        sb, bb = posted["SMALL_BLIND"], posted["BIG_BLIND"]
        notes += f";blinds=as posted (the description says {stakes!r})"
    if posted["ANTE"] and not gm["ante"]:
        gm["ante"] = posted["ANTE"]
    if is_stud:
        if structure == "fixed_limit":
            if "small_bet" in gm:
                pass
            elif sb is not None:
                gm.update(small_bet=sb, big_bet=bb)
            else:
                small, big = limits()
                gm.update(small_bet=small, big_bet=big)
                notes += ";limits=from the betting (the stakes name none)"
        if "bring_in" not in gm:
            gm["bring_in"] = posted["BRING_IN"] or (gm.get("small_bet") or 0) // 2
    elif "small_bet" in gm:  # fixed-limit button game: the blinds as posted
        bb = posted["BIG_BLIND"] or gm["small_bet"]
        gm.update(big_blind=bb, small_blind=posted["SMALL_BLIND"] or bb // 2)
    else:
        if bb is None:
            sb, bb = posted["SMALL_BLIND"], posted["BIG_BLIND"]
            if bb is None:
                raise SiteHandError(f"line {line}: no big blind posted and no stakes: "
                                    "the blinds are unknown")
            notes += ";blinds=as posted (the stakes name none)"
        if structure == "fixed_limit":
            gm.update(small_bet=bb, big_bet=2 * bb, big_blind=bb,
                      small_blind=posted["SMALL_BLIND"] or bb // 2)
        else:
            gm.update(small_blind=sb if sb is not None else bb // 2, big_blind=bb)
    return notes


_VOLUNTARY = frozenset({"FOLD", "CHECK", "CALL", "BET", "RAISE", "COMPLETE", "ALL_IN"})


def _acts_past_balance(rounds: list[_E], balance: dict[str, int], money: _Money,
                       raise_to: bool) -> bool:
    """Whether a player acts after putting in his whole logged balance: then the balance is
    what he had left after the forced bets (an all-in player never acts again)."""
    put: dict[str, int] = {}
    round_total: dict[str, int] = {}
    for r in rounds:
        rid = r.a.get("id", "")
        if rid in _DRAW_ROUNDS or (rid in _BETTING and rid not in (
                "PREFLOP", "PRE_FIRST_DRAW", "THIRD_STREET")):
            round_total = {}
        for e in r.kids:
            if e.tag != "event":
                continue
            t, p = e.a.get("type"), e.a.get("player", "")
            if t in _VOLUNTARY and p in balance and put.get(p, 0) >= balance[p] > 0:
                return True
            if e.a.get("amount") is None:
                continue
            amt = money(e.a["amount"], e.line)
            add = max(0, amt - round_total.get(p, 0)) if (
                t in ("RAISE", "COMPLETE") and raise_to) else amt
            if t != "ANTE":
                round_total[p] = round_total.get(p, 0) + add
            put[p] = put.get(p, 0) + add
    return False


def _semantics(rounds: list[_E], money: _Money
               ) -> tuple[bool, dict[str, int], dict[str, int]]:
    """(RAISE and COMPLETE amounts are round totals?, chips each player put in, the forced
    bets each posted).  Clients differ: the newer write the raise-to total, the older the
    chips added; the one whose chips match what the winners were paid (plus a rake) wins."""
    won = sum(money(e.a.get("amount"), e.line) for r in rounds for e in r.kids
              if e.tag == "winner" and e.a.get("amount"))
    # each round: (does a new betting round start?, its events with an amount), read once
    plays: list[tuple[bool, list[tuple[str | None, str, int]]]] = []
    for r in rounds:
        rid = r.a.get("id", "")
        new = (rid in _BETTING and rid not in ("PREFLOP", "PRE_FIRST_DRAW", "THIRD_STREET")
               ) or rid in _DRAW_ROUNDS
        plays.append((new, [(e.a.get("type"), e.a.get("player", ""), money(e.a["amount"], e.line))
                            for e in r.kids
                            if e.tag == "event" and e.a.get("amount") is not None]))
    return _reading(won, plays)


def _reading(won: int, plays: list[tuple[bool, list[tuple[str | None, str, int]]]]
             ) -> tuple[bool, dict[str, int], dict[str, int]]:
    """`_semantics` of the chips the winners were paid and each round's (does a new betting
    round start?, its events with an amount: type, player, amount)."""
    results = []
    # without a RAISE or COMPLETE amount both readings are the same: the first is taken
    readings = (True, False) if any(t in ("RAISE", "COMPLETE") for _, events in plays
                                    for t, _, _ in events) else (True,)
    for to in readings:
        put: dict[str, int] = {}
        posted: dict[str, int] = {}
        round_total: dict[str, int] = {}
        miscalls = 0
        for new, events in plays:
            if new:
                round_total = {}
            for t, p, amt in events:
                if t in ("RAISE", "COMPLETE") and to:
                    add = max(0, amt - round_total.get(p, 0))
                else:
                    add = amt
                if t == "CALL" and add != max(round_total.values(), default=0) - \
                        round_total.get(p, 0):
                    miscalls += 1  # a call that does not match the bet it faces
                if t in ("SMALL_BLIND", "BIG_BLIND", "ANTE", "BRING_IN"):
                    posted[p] = posted.get(p, 0) + amt
                if t != "ANTE":
                    round_total[p] = round_total.get(p, 0) + add
                put[p] = put.get(p, 0) + add
        results.append((to, put, posted, sum(put.values()) - won, miscalls))
    # fewest calls that do not match their bet, then the smallest rake that pays the winners
    fits = [r for r in results if r[3] >= 0] or results
    to, put, posted, _, _ = min(fits, key=lambda r: (r[4], r[3]))
    return to, put, posted


def _stud_limits(rounds: list[_E], money: _Money) -> tuple[int, int]:
    small = big = None
    for r in rounds:
        street = _STUD_STREETS.get(r.a.get("id", ""))
        for e in r.kids:
            t = e.a.get("type")
            if e.tag != "event" or not e.a.get("amount"):
                continue
            if street == 3 and t == "COMPLETE" and small is None:
                small = money(e.a["amount"], e.line)
            elif street == 4 and t == "BET" and small is None:
                small = money(e.a["amount"], e.line)
            elif street is not None and street >= 5 and t == "BET" and big is None:
                big = money(e.a["amount"], e.line)
    if small is None and big is not None:
        small = big // 2
    if small is None:
        small = 0
    return small, big if big is not None else 2 * small


def _play(h: SiteHand, game: _E, rounds: list[_E], name_of: dict[str, str], money: _Money,
          gm: dict[str, Any], started: dict[str, Any], is_stud: bool, is_draw: bool,
          variant: str, raise_to: bool) -> None:
    count = HOLE_COUNT.get(variant, 2)
    try:
        count = int(game.a.get("numholecards", count))
    except ValueError:
        pass
    hole: dict[str, list[str]] = {}  # the hero's cards by the log's player number
    for r in rounds:
        for c in r.kids:
            if c.tag == "cards" and c.a.get("type") == "HOLE" and c.a.get("player") in name_of:
                hole.setdefault(c.a["player"], _cards(c.a.get("cards", ""), f"line {c.line}"))
    dealt = False
    board: list[str] = []
    stud_held: dict[str, list[str]] = {}
    street = 0
    bb_posted = False
    last = game.line
    hand_now: dict[str, list[str]] = {}  # draw games: the hero's current hand
    for p, cards in hole.items():
        hand_now[p] = list(cards)

    def who(p: str | None, line: int) -> dict[str, Any]:
        if p is None or p not in name_of:
            raise SiteHandError(f"line {line}: player {p!r} is not seated in this hand")
        return h.who(name_of[p])

    pending: list[tuple[int, str, str | None, _E | None]] = []
    for r in rounds:
        rid = r.a.get("id", "")
        last = r.line
        if pending and rid not in _STUD_STREETS:
            for line, t, p, c in pending:
                w = who(p, line)
                full = stud_held.get(p or "")
                cards = " ".join(full) if full and "??" not in full else (
                    " ".join(_cards(c.a.get("cards", ""), f"line {c.line}")) if c is not None
                    else None)
                h.emit(line, "show" if t == "SHOW" else "muck", cards=cards, **w)
            pending = []
        if rid not in _BETTING and rid not in _DRAW_ROUNDS and rid not in _LAYOUT_ROUNDS:
            raise SiteHandError(f"line {r.line}: unknown round {rid!r}")
        shown = {c.a.get("player"): c for c in r.kids
                 if c.tag == "cards" and c.a.get("type") in ("SHOWN", "MUCKED")}
        # deals of the round first
        if not is_stud and not dealt and (rid in _BETTING or rid in _DRAW_ROUNDS):
            known = {name_of[p]: " ".join(c[:count]) for p, c in hole.items()}
            names = {seat: name for name, seat in h.seat_of.items()}
            for seat in sorted(h.left):
                if seat in h.sitting_out:
                    continue
                cards = known.get(names[seat]) or " ".join(["??"] * count)
                h.hole[seat] = cards
                h.emit(r.line, "deal", cards=cards, detail="hole", seat=seat,
                       player=names[seat])
            dealt = True
        if rid in _BETTING and rid not in ("PREFLOP", "PRE_FIRST_DRAW", "THIRD_STREET"):
            h.new_round()
        if is_stud and rid in _STUD_STREETS:
            number = _STUD_STREETS[rid]
            if number > street:
                street = number
                _stud_deals(h, r, name_of, stud_held, number, hole)
        for c in r.kids:
            if c.tag == "cards" and c.a.get("type") == "COMMUNITY":
                now = _cards(c.a.get("cards", ""), f"line {c.line}")
                if now[:len(board)] != board:
                    raise SiteHandError(f"line {c.line}: the board {now} is not the board "
                                        f"dealt {board}")
                while len(now) > len(board):  # street by street
                    k = 3 if not board else 1
                    h.board(c.line, " ".join(now[len(board):len(board) + k]))
                    board = now[:len(board) + k]
        if rid in _DRAW_ROUNDS:
            h.new_round()
            _draw_round(h, r, name_of, hand_now, who)
            continue
        for e in r.kids:
            last = e.line
            if e.tag == "winner":
                amt = money(e.a.get("amount"), e.line)
                if e.a.get("uncalled") == "true":
                    label = "uncalled"
                else:
                    k = int(e.a.get("potnumber", "1") or 1)
                    label = "main" if k <= 1 else f"side-{k - 1}"
                    half = {"h": "/high", "l": "/low"}.get(e.a.get("pottype", ""), "")
                    label += half
                h.emit(e.line, "award", amount=amt, detail=label, **who(e.a.get("player"),
                                                                        e.line))
                continue
            if e.tag == "cards":
                t = e.a.get("type")
                if t in ("SHOWN", "MUCKED") and not _has_event(r, e.a.get("player"), t):
                    cards = " ".join(_cards(e.a.get("cards", ""), f"line {e.line}"))
                    h.emit(e.line, "show" if t == "SHOWN" else "muck", cards=cards,
                           **who(e.a.get("player"), e.line))
                continue
            if e.tag != "event":
                raise SiteHandError(f"line {e.line}: unknown element <{e.tag}>")
            t = e.a.get("type", "")
            p = e.a.get("player")
            amount = e.a.get("amount")
            if t == "GAME_CANCELLED":
                started["detail"] = "cancelled=true;" + started["detail"]
                continue
            if t == "CHAT":
                w = who(p, e.line) if p in name_of else {}
                h.emit(e.line, "annotation", detail=f"said: {e.a.get('text', '')}", **w)
                continue
            if t in _NOTES:
                w = who(p, e.line) if p in name_of else {}
                h.emit(e.line, "annotation", detail=_NOTES[t], **w)
                continue
            w = who(p, e.line)
            name = w["player"]
            if t in ("SMALL_BLIND", "BIG_BLIND", "ANTE", "BRING_IN"):
                amt = money(amount, e.line)
                if t == "ANTE":
                    h.post(e.line, name, "ante", amt, live=False)
                elif t == "BRING_IN":
                    h.post(e.line, name, "bring_in", amt, live=True)
                elif t == "SMALL_BLIND":
                    h.post(e.line, name, "small_blind", amt, live=True)
                elif not bb_posted:
                    bb_posted = True
                    h.post(e.line, name, "big_blind", amt, live=True)
                else:  # a second big blind: a player coming in
                    live = min(amt, gm.get("big_blind") or amt)
                    h.post(e.line, name, "new_player", live, live=True)
                    if amt > live:
                        h.post(e.line, name, "dead", amt - live, live=False)
                continue
            if t == "FOLD":
                h.act(e.line, name, "fold")
            elif t == "CHECK":
                h.act(e.line, name, "check")
            elif t == "CALL":
                h.act(e.line, name, "call", added=money(amount, e.line))
            elif t == "BET":
                h.act(e.line, name, "bet", added=money(amount, e.line))
            elif t in ("RAISE", "COMPLETE"):
                kind = "complete" if t == "COMPLETE" else "raise"
                if raise_to:
                    h.act(e.line, name, kind, to=money(amount, e.line))
                else:
                    h.act(e.line, name, kind, added=money(amount, e.line))
            elif t == "ALL_IN":
                if amount is None:
                    h.emit(e.line, "annotation", detail="all_in", **w)
                else:
                    h.act(e.line, name, "auto", added=money(amount, e.line), all_in=True)
            elif t in ("SHOW", "MUCK") and is_stud and street < 7 and _more_streets(
                    rounds, r):
                # an all-in showdown before the last street: shown once every card is dealt
                pending.append((e.line, t, p, shown.get(p)))
            elif t == "SHOW":
                c = shown.get(p)
                cards = " ".join(_cards(c.a.get("cards", ""), f"line {c.line}")) if (
                    c is not None and c.a.get("type") == "SHOWN") else None
                h.emit(e.line, "show", cards=cards or h.hole.get(w["seat"]) or "?? ??", **w)
            elif t == "MUCK":
                c = shown.get(p)
                cards = " ".join(_cards(c.a.get("cards", ""), f"line {c.line}")) if (
                    c is not None) else None
                h.emit(e.line, "muck", cards=cards, **w)
            else:
                raise SiteHandError(f"line {e.line}: unknown Merge event {t!r}")
    h.end(last)


def _more_streets(rounds: list[_E], r: _E) -> bool:
    """Whether a stud street round follows `r`."""
    return any(x.a.get("id") in _STUD_STREETS for x in rounds[rounds.index(r) + 1:])


def _has_event(r: _E, player: str | None, card_type: str) -> bool:
    want = "SHOW" if card_type == "SHOWN" else "MUCK"
    return any(e.tag == "event" and e.a.get("type") == want and e.a.get("player") == player
               for e in r.kids)


def _stud_deals(h: SiteHand, r: _E, name_of: dict[str, str], held: dict[str, list[str]],
                number: int, hole: dict[str, list[str]]) -> None:
    """The cards of a stud street: each player's cards so far (DRAW_DRAWN_CARDS, the hero's
    HOLE), the new ones dealt down or up."""
    for c in r.kids:
        if c.tag != "cards" or c.a.get("type") not in ("DRAW_DRAWN_CARDS", "HOLE"):
            continue
        p = c.a.get("player")
        if p not in name_of:
            raise SiteHandError(f"line {c.line}: cards for player {p!r}, not seated")
        now = _cards(c.a.get("cards", ""), f"line {c.line}")
        have = held.get(p, [])
        if len(now) < number:
            now = now + ["??"] * (number - len(now))
        new = now[len(have):number]
        held[p] = now[:number]
        w = h.who(name_of[p])
        if number == 3:
            if len(new) != 3:
                raise SiteHandError(f"line {c.line}: 3rd street deals three cards")
            h.emit(c.line, "deal", cards=" ".join(new[:2]), detail="down", **w)
            h.emit(c.line, "deal", cards=new[2], detail="up", **w)
        elif len(new) == 1:
            h.emit(c.line, "deal", cards=new[0], detail="down" if number == 7 else "up", **w)
        elif new:
            raise SiteHandError(f"line {c.line}: a stud street deals one card")
    del hole


def _draw_round(h: SiteHand, r: _E, name_of: dict[str, str], hand_now: dict[str, list[str]],
                who: Any) -> None:
    """A draw: each DRAW (`text` = cards thrown) -> draw + the replacements."""
    after = {c.a.get("player"): _cards(c.a.get("cards", ""), f"line {c.line}")
             for c in r.kids if c.tag == "cards" and c.a.get("type") == "DRAW_DRAWN_CARDS"}
    for e in r.kids:
        if e.tag != "event":
            continue
        t = e.a.get("type")
        p = e.a.get("player")
        if t in _NOTES or t == "CHAT":
            w = who(p, e.line) if p in name_of else {}
            h.emit(e.line, "annotation", detail=_NOTES.get(t, "said"), **w)
            continue
        if t == "FOLD":
            h.act(e.line, who(p, e.line)["player"], "fold")
            continue
        if t != "DRAW":
            raise SiteHandError(f"line {e.line}: {t!r} in a draw round")
        w = who(p, e.line)
        text = e.a.get("text", "")
        if not text.isdigit():
            raise SiteHandError(f"line {e.line}: a draw without its card count")
        n = int(text)
        if n == 0:
            h.emit(e.line, "stand_pat", **w)
            continue
        before, now = hand_now.get(p), after.get(p)
        if before is not None and now is not None and "??" not in now:
            thrown = [c for c in before if c not in now]
            got = [c for c in now if c not in before]
            if len(thrown) != n or len(got) != n:
                thrown, got = ["??"] * n, ["??"] * n
            hand_now[p] = now
        else:
            thrown, got = ["??"] * n, ["??"] * n
        h.emit(e.line, "draw", amount=n, cards=" ".join(thrown), **w)
        h.emit(e.line, "deal", cards=" ".join(got), detail="draw", **w)


def _hand_id(text: str) -> str | None:
    m = _GAME_ID.search(text)
    return f"merge:{m.group(1)}" if m else None


class MergeImporter:
    """Merge Gaming Network XML pieces: recognised by content, read hand by hand (each by the
    fast path `merge_fast` when it reads it whole, else by the XML reader; `fast=False`: the
    XML reader alone)."""

    name = "merge"

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True,
                 compiled: bool = True) -> None:
        self.chunk_hands = chunk_hands
        self.fast = fast
        self.compiled = compiled

    def sniff(self, head: bytes, path: Path) -> bool:
        """A `<game id=".." starttime=` line (or a `<description type=.. stakes=..>` line)
        at the start of a line near the top: Merge's pieces (file name ignored)."""
        del path
        text = sniff_text(head)
        return _SNIFF.search(text) is not None or _SNIFF_DESC.search(text) is not None

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each: the common hands
        of a plain file by the compiled pass (`merge_compiled`), the others by the fast path
        or the XML reader."""
        if self.fast and self.compiled:
            from audit.importers.merge_compiled import read_file  # numba's, loaded on first use

            chunks = read_file(path, self.chunk_hands)
            if chunks is not None:
                yield from chunks
                return
        from audit.importers.merge_fast import fast_rows

        out = ChunkWriter(self.chunk_hands, str(path))
        cols = EventColumns()
        kept: list[_Kept] = []  # the chunk's hands, should its table need the XML reader's
        desc: dict[str, str] = {}
        name = path.name
        for is_hand, block, unread in split_blocks(path, _GAME_LINES):
            if unread:
                out.reject(block, unread, _hand_id(block[0][1]) if is_hand else None)
                continue
            body = block
            tail: list[tuple[int, str]] = []
            text = ""  # the lines of `body` joined
            if is_hand:
                text = "\n".join([t for _, t in block])
                at = text.find("</game>")  # (a line holds no line break)
                if at >= 0:  # the game ends on the line of its first `</game>`
                    end = text.count("\n", 0, at)
                    body, tail = block[:end + 1], block[end + 1:]
                    stop = text.find("\n", at)
                    if stop >= 0:
                        text = text[:stop]
            else:
                body, tail = [], block
            if body:
                rows = fast_rows(text, body[0][0], desc, name) if self.fast else None
                if rows is not None:
                    cols.rows += rows
                    kept.append((body, text, desc))
                else:
                    hand = out.map_or_reject(body, _hand_id(body[0][1]), _map_text, text,
                                             body[0][0], desc, name)
                    if hand is not None:
                        cols.add_rows(hand.rows, hand.lines)
                        kept.append((body, text, desc))
            # after the hand: a description there is the next hands' game
            outside = []
            for n, t in tail:
                s = t.strip()
                if not s or s.startswith("<?xml"):
                    continue
                if (d := _DESC.search(s)) and s.startswith("<description"):
                    desc = dict(_ATTR.findall(d.group(1)))
                    continue
                outside.append((n, t))
            if outside:
                out.reject_outside(outside, *outside[0])
            if len(kept) >= self.chunk_hands:
                yield _take(out, cols, kept, name)
                cols, kept = EventColumns(), []
        if kept or out.rejected:
            yield _take(out, cols, kept, name)


# a hand of a chunk: its lines (to its `</game>`), their text joined, the description then
_Kept = tuple[list[tuple[int, str]], str, dict[str, str]]


def _table(cols: EventColumns) -> pa.Table:
    return cols.table()


def _take(out: ChunkWriter, cols: EventColumns, kept: list[_Kept], name: str) -> Chunk:
    """The chunk of `cols` (one Arrow conversion of its rows as tuples) and the rejections so
    far; when a value does not fit the schema, the chunk `ChunkWriter.take` makes of the same
    hands read by the XML reader (the unfit hands quarantined after the others)."""
    try:
        table = _table(cols)
    except (pa.ArrowException, OverflowError, ValueError, TypeError):
        for body, text, desc in kept:
            hand = out.map_or_reject(body, _hand_id(body[0][1]), _map_text, text, body[0][0],
                                     desc, name)
            if hand is not None:
                out.add(hand, text + "\n")  # (`raw_text(body)`)
        return out.take()
    chunk = Chunk(table=table, rejected=out.rejected, lines=cols.lines)
    out.rejected = []
    return chunk


IMPORTER = MergeImporter()
