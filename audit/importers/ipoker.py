"""iPoker XML hand histories imported as events (streamed, constant memory, no DTDs).

A file is one `<session>`: a `<general>` block (game type, table, currency, hero, tournament
facts) and one `<game gamecode="N">` per hand.  The reader feeds the file line by line to expat
(the parser under `xml.etree.ElementTree.iterparse`; used directly because iterparse does not
report line numbers), keeps only the current `<game>` in memory and yields a `Chunk` of about
5,000 whole hands.  Security: a document with a `<!DOCTYPE` (hence any `<!ENTITY`) is refused
with an `AuditInputError` before any entity could be expanded (defusedxml's approach), and
external entities are never fetched.  Encoding: a UTF-16 BOM rules; else as declared; a
"utf-8" file with bytes that are not UTF-8 (old clients wrote cp1252 `€`) is read as cp1252
for those bytes.

Mapping (iPoker -> events; money exact, `$1,855` / `€301,49` / `1,500` chips understood):

* `<game gamecode=N>` -> hand_id `ipoker:N` (a different game under a gamecode already used
  in the session -- anonymised logs reuse codes -- is `ipoker:N#2`, `#3`...); table_id =
  session `<tablename>`; ts = game `<startdate>` (`20-Apr-2012 20:42:31`, `2019-05-26
  20:10:33`, `2017/01/23 22:29:14`, `18.05.2021 18:26:13`): iPoker logs no zone, so it is
  read as UTC and `source` says so.
* session `<gametype>` `[<game>] <limit> [<cur><a>/<cur><b>]`: Holdem -> holdem, Omaha ->
  omaha, Omaha Hi-Lo -> omaha_hilo, 5 Card Omaha -> omaha5, 7 Card Stud -> stud, 7 Card Stud
  Hi-Lo -> stud_hilo, 5 Card Stud -> stud5, Razz -> razz (any case); `LH a/b` is limit
  hold'em; with no game name (as in `PL €2/€4`) the variant is read from the hole-card count
  (2 holdem, 4 omaha, 5 omaha5) and `source` says so.  Limit words as the localized clients
  write them: NL / SL (Spanish) / БЛ (Russian) / LZ -> no_limit, PL / LP / ПЛ -> pot_limit,
  L / FL -> fixed_limit.  L/FL stakes are small_bet/big_bet (big_blind = small bet,
  small_blind as posted); NL/PL stakes are the blinds.  Tournament game types state no
  stakes: NL/PL blinds are then the first small / big blind posted (not an all-in for
  less), limit hold'em's small bet the big blind; stud limits come from the betting (a
  completion on 3rd street, a bet on 4th street with no open pair, half a bet from 5th
  street on), else from another hand of the session at the same ante and bring-in (a game
  waits in the reader until one tells it, up to 200 games); `source` says which.
* money: a tournament (`<tournamentcode>`, `<tournamentname>`, `<buyin>`, `<place>` in the
  session) and play money -> CHIPS with minor_per_unit 100 (iPoker chips come in
  hundredths, `24,172.50`); otherwise the table's currency: `<tablecurrency>`,
  else the stakes' symbol, else `<currency>` (the account's, which may differ: a CAD account
  at a € table), minor_per_unit 100.
* session `<tablesize>` -> seat_count.
* `<player seat name chips dealer win bet>` -> seat (amount = chips); a player without a name
  is an empty seat (skipped); dealer="1" -> button; with no dealer flag the button is the
  seat right of the first small blind (an empty seat: a dead button; heads-up the small
  blind's seat) and `source` says so.  A player with no cards and no action or forced bet
  is detail sitting_out (in a partial export that logs only the forced bets, every player;
  `source` says so).  `bet`
  (the player's total put in, as the client counts it) is kept in hand_ended detail
  `invested=<seat>:<minor>,...` for cross-checks.
* round 0: type 1 -> post small_blind (a second one: dead), 2 -> big_blind (a second one: a
  player coming in: new_player for up to a big blind, live, the rest dead), 15 -> ante,
  8 / 9 -> annotation no_action / sits_out (9 in a betting round by a player dealt in and
  still in the hand: the client folds him, so a fold follows).
* button games: round 1 `<cards type="Pocket">` -> deal/hole (`X` -> `??`; `SA` -> `As`,
  `D10` -> `Td`); round >= 2 `<cards type="Flop|Turn|River">` -> deal/board.
* stud: round 2 is 3rd street (5-card stud: 2nd); `<cards type="Third Street"
  player=P>X X DA</cards>` -> deal/down `?? ??` + deal/up `Ad`; later streets one up card,
  7th street (`River`) one down card; type 16 -> post bring_in (live); on 3rd street the
  first wager over the bring-in (type 5, or an all-in 7) -> complete.
* actions of a round in `no` order (the file groups them per player, so document order is
  not the order of play; an export numbering no action keeps document order): 0 fold,
  4 check, 3 call (sum = chips added), 5 bet (added), 23 raise (sum = raise-to total, as
  the players' `bet` totals confirm), 7 all-in (added; bet / call / raise by the round
  state; detail all_in).  Any other type (6 "raise by" included, whose meaning varies by
  client version) quarantines the hand.  An all-in under disconnection protection (type 7,
  sum `DP`: the player stays in for what he has put in, his chips behind out of play) ->
  annotation `all_in_protection` (the replay treats the seat as all-in from there under
  profile `allin.disconnect_protection`, which the ipoker profile sets).
* A non-hero player whose cards are all known and who did not fold -> show (iPoker reveals
  shown hands only in the cards elements; stud: all his cards); `win` > 0 -> award detail
  main (iPoker does not split pots in the log).  iPoker logs no uncalled-bet returns (`win`
  may include them): hand_started detail `refunds=implicit`; the rake is implicit too
  (`rake=implicit`) unless the game states it: a game `<general>` `<rake>` -> a rake event
  and `<totalpot>` / `<pot>` -> hand_ended detail `total_pot=<minor>` (the same names as
  attributes of `<game>` or its `<general>` too).

A file may hold several `<session>` documents one after another: each is read with its own
session facts.  Bad input: a game the mapping cannot read is quarantined whole; a syntax error
(truncated file, garbage) quarantines the game it is in and every later `<game` (the parser
cannot go on), each with its line, never a silent loss.
"""

from __future__ import annotations

import codecs
import datetime as dt
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from audit.errors import AuditInputError
from audit.importers.base import (
    Chunk,
    Overlong,
    Rejected,
    bounded_lines,
    over_hand_limit,
    over_line_limit,
    read_limits,
)
from audit.importers.sitetext import (
    CHUNK_HANDS,
    HOLE_COUNT,
    ChunkWriter,
    SiteHand,
    SiteHandError,
    parse_amount,
    to_minor,
)

_UTC = dt.UTC
# `<gametype>`: [game] limit [stakes]; the stakes are absent in tournaments (read from the
# posts then). Limit words as iPoker's localized clients write them: SL (Spanish "sin
# límite") and БЛ (Russian "без лимита") are no-limit, LP / ПЛ pot-limit, LZ no-limit.
_GAMETYPE = re.compile(
    r"^(?P<game>.*?)\s*(?<![^\s])(?P<limit>NL|PL|FL|L|SL|LP|LZ|БЛ|ПЛ|No Limit|Pot Limit|"
    r"Fixed Limit|Limit)(?:\s+(?P<sym>[^\d\s/]*)(?P<a>[0-9][0-9,.]*)/[^\d\s/]*"
    r"(?P<b>[0-9][0-9,.]*)(?:\s.*)?)?\s*$")
_GAMES = {"holdem": "holdem", "hold'em": "holdem", "texas hold'em": "holdem",
          "texas holdem": "holdem",
          "omaha": "omaha", "omaha hi": "omaha", "omaha hi-lo": "omaha_hilo",
          "omaha hilo": "omaha_hilo", "omaha hi/lo": "omaha_hilo", "omaha h/l": "omaha_hilo",
          "5 card omaha": "omaha5", "5 card omaha hi-lo": "omaha5_hilo",
          "5 card omaha hi/lo": "omaha5_hilo",
          "7 card stud": "stud", "7 card stud hi": "stud", "7 card stud hi-lo": "stud_hilo",
          "7 card stud hi/lo": "stud_hilo", "7 card stud hilo": "stud_hilo",
          "7 card stud h/l": "stud_hilo", "stud": "stud", "stud hi-lo": "stud_hilo",
          "razz": "razz", "5 card stud": "stud5"}
_STUD = frozenset({"stud", "stud_hilo", "razz", "stud5"})
_BY_COUNT = {2: "holdem", 4: "omaha", 5: "omaha5"}
_LIMITS = {"NL": "no_limit", "SL": "no_limit", "LZ": "no_limit", "БЛ": "no_limit",
           "NO LIMIT": "no_limit", "PL": "pot_limit", "LP": "pot_limit", "ПЛ": "pot_limit",
           "POT LIMIT": "pot_limit", "FL": "fixed_limit", "L": "fixed_limit",
           "LIMIT": "fixed_limit", "FIXED LIMIT": "fixed_limit"}
_KINDS = {"0": "fold", "4": "check", "3": "call", "5": "bet", "23": "raise", "7": "auto"}
_POSTS = {"1": "small_blind", "2": "big_blind", "15": "ante"}
_NOTES = {"8": "no_action", "9": "sits_out"}
# stud streets by round number (round 0: antes, round 1: empty); 7-card stud deals 2 down +
# 1 up, 3 up, 1 down; 5-card stud 1 down + 1 up, then 3 up.
_STUD_STREETS = {"Third Street", "Fourth Street", "Fifth Street", "Sixth Street",
                 "Seventh Street", "River", "Second Street"}
_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_TOURNAMENT_KEYS = ("tournamentcode", "tournamentname", "buyin", "totalbuyin", "place")
_GAME_OPEN = re.compile(r"<game\b[^>]*?gamecode=[\"']?([^\"'\s>]*)")
_DECL_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)[\"']")
_DATE_FORMATS = ("%d-%b-%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S",
                 "%d.%m.%Y %H:%M:%S", "%Y.%m.%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")


_NEXT_DOCUMENT = frozenset(expat.errors.codes[e] for e in (
    expat.errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT, expat.errors.XML_ERROR_MISPLACED_XML_PI))
_RECENT_CODES = 4096  # gamecodes remembered to tell a reused code from a new game
_MAX_WAITING = 200  # games held for limits a later hand of the session tells


class _LimitsUnknown(SiteHandError):
    """A tournament stud game with no bet: its limits come from another hand at its level."""


class _Elem:
    """A parsed element of the current game: tag, attributes, text, line, children."""

    __slots__ = ("tag", "attrs", "text", "line", "children", "slot", "content")
    content: str  # a finished game's content, set on games only (`_Stream.hand_id`)

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = ""
        self.line = line
        self.children: list[_Elem] = []
        self.slot = 0  # where its text goes in the game's content (`_Stream.content`)


_PAIR = "\x1e".join


def _head(tag: str, attrs: dict[str, str]) -> str:
    """An element's tag and attributes (sorted by name) as game content is compared (see
    `_Stream.hand_id`). A name\x1evalue pair sorts as its name: no name holds a character
    below \x1e."""
    return tag + "\x1d" + "\x1f".join(sorted(map(_PAIR, attrs.items()))) + "\x1c"


_KNOWN_CARDS: dict[str, str] = {}  # card by token, of the tokens read (errors never)


def _card(token: str, where: str) -> str:
    card = _KNOWN_CARDS.get(token)
    if card is None:
        card = _read_card(token, where)
        if len(_KNOWN_CARDS) < 4096:
            _KNOWN_CARDS[token] = card
    return card


def _read_card(token: str, where: str) -> str:
    if token.upper() in ("X", "XX", "?"):
        return "??"
    suit, rank = token[:1].lower(), token[1:].upper()
    rank = "T" if rank == "10" else rank
    if suit not in ("c", "d", "h", "s") or rank not in list("23456789TJQKA"):
        raise SiteHandError(f"{where}: {token!r} is not an iPoker card like 'SA' or 'D10'")
    return rank + suit


_KNOWN_HANDS: dict[str, str] = {}  # cards by the text of a cards element, of those read


def _cards(text: str, where: str) -> str:
    cards = _KNOWN_HANDS.get(text)
    if cards is None:
        tokens = text.split()
        if not tokens:
            raise SiteHandError(f"{where}: empty cards element")
        cards = " ".join(_card(t, where) for t in tokens)
        if len(_KNOWN_HANDS) >= 8192:
            _KNOWN_HANDS.clear()
        _KNOWN_HANDS[text] = cards
    return cards


# `2019-05-26 20:10:33`, the usual start date, read without strptime (the same result: a
# text this matches whose date is no date goes the strptime way, as any other)
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})")
_UTC_NOTE = ";ts=local time read as UTC (iPoker logs no zone)"


def _timestamp(text: str) -> tuple[dt.datetime | None, str]:
    if (m := _ISO_DATE.fullmatch(text.strip())) is not None:
        try:
            return dt.datetime(*map(int, m.groups()), tzinfo=_UTC), _UTC_NOTE
        except ValueError:
            pass
    for fmt in _DATE_FORMATS:
        try:
            local = dt.datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
        return local.replace(tzinfo=_UTC), _UTC_NOTE
    return None, f";ts=unreadable start date {text.strip()[:40]!r}"


def _currency(session: dict[str, str], sym: str, tournament: bool) -> tuple[str, int]:
    """Table money: the table's currency (`<tablecurrency>`, else the stakes' symbol, else
    the account `<currency>`, which may differ: a CAD account at a € table); tournament and
    play-money chips are CHIPS."""
    if tournament:  # iPoker tournament chips come in hundredths ('3,252.50')
        return "CHIPS", 100
    if session.get("mode", "real").strip().lower() == "play":
        return "CHIPS", 100
    cur = (session.get("tablecurrency", "").strip().upper() or _SYMBOLS.get(sym, "")
           or session.get("currency", "").strip().upper())
    if not cur:
        return "CHIPS", 1
    if not re.fullmatch(r"[A-Z]{3}", cur):
        raise SiteHandError(f"unknown currency {cur!r}")
    return cur, 100


_KNOWN_AMOUNTS: dict[int, dict[str, int]] = {}  # minor units by amount text, per unit
_KNOWN_MAX = 8192  # amounts remembered per unit (a file repeats a few hundred)


class _Money:
    """Amounts of one game in minor units (`$1,855`, `€301,49`, `1,500` chips); the amounts
    read are remembered (a file repeats the same few), errors never."""

    def __init__(self, mpu: int) -> None:
        self.mpu = mpu
        self.known = _KNOWN_AMOUNTS.setdefault(mpu, {})

    def __call__(self, text: str, where: int) -> int:
        value = self.known.get(text)
        if value is None:
            value = self._read(text, where)
            if len(self.known) >= _KNOWN_MAX:
                self.known.clear()
            self.known[text] = value
        return value

    def _read(self, text: str, where: int) -> int:
        t = text.strip()
        t = re.sub(r"^[^\d]+|[^\d]+$", "", t) if t else t
        try:
            return to_minor(parse_amount(t), self.mpu, f"line {where} amount {text!r}")
        except SiteHandError as exc:
            raise SiteHandError(f"line {where}: {exc}") from None


def _children(el: _Elem, tag: str) -> list[_Elem]:
    return [c for c in el.children if c.tag == tag]


_ROUND_NUMBERS: dict[str, int] = {}  # round number by its `no` text, of the numbers read


def _round_no(r: _Elem) -> int:
    no = r.attrs.get("no", "")
    number = _ROUND_NUMBERS.get(no)
    if number is None:
        if not no.isdigit():
            raise SiteHandError(f"line {r.line}: <round> without a number")
        number = int(no)
        if len(_ROUND_NUMBERS) < 1024:
            _ROUND_NUMBERS[no] = number
    return number


def _in_play_order(actions: list[_Elem]) -> list[_Elem]:
    """Actions in the order of play: by their `no` (the clients group a round's actions per
    player, so document order is not the play); an export that numbers none of them keeps
    document order; some numbered and some not is unreadable."""
    numbers = [a.attrs.get("no", "") for a in actions]
    if not any(numbers):
        return list(actions)
    keys = []
    for action, number in zip(actions, numbers, strict=True):
        try:
            keys.append(int(number))
        except ValueError:  # '' and digits int() refuses ('²' passes str.isdigit())
            raise SiteHandError(f"line {action.line}: an action without a number") from None
    return [a for _, a in sorted(zip(keys, actions, strict=True), key=lambda ka: ka[0])]


def _forced_stakes(rounds: list[_Elem], chips: dict[str, int], money: _Money
                   ) -> tuple[int | None, int | None]:
    """(small blind, big blind) as posted: the first small / big blind post that is not an
    all-in for less (a tournament gametype states no stakes)."""
    found: dict[str, list[tuple[bool, int]]] = {"1": [], "2": []}
    for r in rounds:
        if _round_no(r) != 0:
            continue
        for act in _in_play_order(_children(r, "action")):
            code = act.attrs.get("type", "")
            if code in found:
                amount = money(act.attrs.get("sum", "0") or "0", act.line)
                found[code].append((amount >= chips.get(act.attrs.get("player", ""), 0), amount))
    out: list[int | None] = []
    for code in ("1", "2"):
        full = [a for all_in, a in found[code] if not all_in]
        out.append(full[0] if full else max((a for _, a in found[code]), default=None))
    return out[0], out[1]


def _stud_stakes(rounds: list[_Elem], money: _Money) -> tuple[int | None, tuple[int, int]]:
    """The small bet of a stud game whose gametype states none (tournaments), from the
    betting: a completion on the first street by a player who did not bring in, else a bet
    on the second street (when no pair shows there: an open pair may bet the big bet), else
    half the first bet on the big-bet streets; and the level's (ante, bring-in) as posted."""
    ordered = sorted(rounds, key=_round_no)
    antes = [money(a.attrs.get("sum", "0") or "0", a.line) for r in ordered
             for a in _children(r, "action") if a.attrs.get("type") == "15"]
    ins = [money(a.attrs.get("sum", "0") or "0", a.line) for r in ordered
           for a in _children(r, "action") if a.attrs.get("type") == "16"]
    level = (max(antes, default=0), max(ins, default=0))
    up: dict[str, list[str]] = {}
    for r in ordered:
        no = _round_no(r)
        for c in _children(r, "cards"):
            tokens = c.text.split()
            if tokens and no in (2, 3):
                up.setdefault(c.attrs.get("player", ""), []).append(tokens[-1][1:])
        if no == 3 and any(len(ranks) == 2 and ranks[0] == ranks[1] for ranks in up.values()):
            continue
        if no < 2:
            continue
        acts = _in_play_order(_children(r, "action"))
        brought = {a.attrs.get("player") for a in acts if a.attrs.get("type") == "16"}
        for act in acts:
            if act.attrs.get("type") == "5" and act.attrs.get("player") not in brought:
                amount = money(act.attrs.get("sum", "0") or "0", act.line)
                if amount > 0:
                    return (amount if no <= 3 else amount // 2), level
    return None, level


def _button_from_blind(rounds: list[_Elem], h: SiteHand, listed: list[_Elem],
                       seats: int | None) -> int | None:
    """The button when no player holds it (dealer="1"): heads-up it is the small blind's
    seat; otherwise the seat right of the small blind, an empty seat (a dead button)."""
    posts = [a for r in rounds if _round_no(r) == 0 for a in _children(r, "action")
             if a.attrs.get("type") == "1"]
    if not posts:
        return None
    seat = h.seat_of.get(_in_play_order(posts)[0].attrs.get("player", ""))
    if seat is None:
        return None
    if len(set(h.left) - h.sitting_out) == 2:
        return seat
    numbers = [int(p.attrs["seat"]) for p in listed if p.attrs.get("seat", "").isdigit()]
    return seat - 1 if seat > 1 else (seats or max([10, *numbers]))


class _Hand(SiteHand):
    """A SiteHand whose hole cards are dealt with the player of each seat looked up once
    (seats and names are one to one: `add_seat` refuses either twice)."""

    def deal_holes(self, line: int, variant: str, known: dict[str, tuple[int, str]]) -> None:
        count = HOLE_COUNT.get(variant, 2)
        unknown = " ".join(["??"] * count)
        name_at = {s: n for n, s in self.seat_of.items()}
        for seat in sorted(self.left):
            if seat in self.sitting_out:
                continue
            name = name_at[seat]
            at, cards = known.get(name, (line, unknown))
            self.hole[seat] = cards
            self.emit(at, "deal", cards=cards, detail="hole", seat=seat, player=name)


def _map_game(game: _Elem, session: dict[str, str], file_name: str,
              memory: dict[Any, Any], hand_id: str) -> SiteHand:
    code = game.attrs.get("gamecode", "")
    if not code:
        raise SiteHandError(f"line {game.line}: <game> without a gamecode")
    general = _children(game, "general")
    rounds = _children(game, "round")
    others = [c.tag for c in game.children if c.tag not in ("general", "round")]
    if others:
        raise SiteHandError(f"line {game.line}: unknown element(s) in <game>: {others}")
    if len(general) != 1:
        raise SiteHandError(f"line {game.line}: <game> needs exactly one <general>")
    gen = general[0]
    startdate = next((c.text for c in gen.children if c.tag == "startdate"), "")
    # a stated pot total and rake, when the client writes them: elements of the game's
    # <general> (`<totalpot>` / `<pot>`, `<rake>`) or attributes of <game> / <general>
    stated = {k.lower(): v.strip() for el in (game, gen) for k, v in el.attrs.items()
              if k.lower() in ("totalpot", "pot", "rake") and v.strip()}
    stated.update({c.tag.lower(): c.text.strip() for c in gen.children if c.text.strip()})
    players_el = _children(gen, "players")
    if len(players_el) != 1:
        raise SiteHandError(f"line {gen.line}: game <general> needs one <players>")
    # an empty seat is listed as a player without a name and without chips
    listed = _children(players_el[0], "player")
    players = [p for p in listed if p.attrs.get("name", "")]
    if not players:
        raise SiteHandError(f"line {players_el[0].line}: no <player> in the game")

    gametype = session.get("gametype", "").strip()
    # `LH 0.04/0.08 ...`: limit hold'em written the short way
    gt = _GAMETYPE.match(re.sub(r"^LH\s+(?=\S*\d/)", "Holdem L ", gametype))
    if not gt:
        raise SiteHandError(f"line {game.line}: session gametype {gametype!r} not understood "
                            "(expected e.g. 'Holdem NL $0.02/$0.04')")
    tournament = any(k in session for k in _TOURNAMENT_KEYS)
    try:
        currency, mpu = _currency(session, gt.group("sym") or "", tournament)
    except SiteHandError as exc:
        raise SiteHandError(f"line {game.line}: {exc}") from None
    money = _Money(mpu)

    game_name = " ".join((gt.group("game") or "").lower().split())
    variant = _GAMES.get(game_name) if game_name else None
    if game_name and variant is None:
        raise SiteHandError(f"line {game.line}: unsupported iPoker game {game_name!r}")
    is_stud = variant in _STUD
    pockets: dict[str, tuple[int, str]] = {}
    for r in rounds:
        for c in _children(r, "cards"):
            if c.attrs.get("type") == "Pocket":
                pockets[c.attrs.get("player", "")] = (c.line, _cards(c.text, f"line {c.line}"))
    note = ""
    if variant is None:
        counts = {len(cards.split()) for _, cards in pockets.values()}
        if len(counts) != 1 or next(iter(counts)) not in _BY_COUNT:
            raise SiteHandError(f"line {game.line}: gametype {gametype!r} names no game and the "
                                f"hole-card counts {sorted(counts)} do not tell it")
        variant = _BY_COUNT[counts.pop()]
        note = f";variant={variant} read from the hole-card count (gametype {gametype!r})"
    structure = _LIMITS[gt.group("limit").upper()]
    if is_stud and structure != "fixed_limit":
        raise SiteHandError(f"line {game.line}: a stud game that is not fixed-limit "
                            f"({gametype!r})")
    # who was dealt in: cards of his own, or (button games: a client that lists only known
    # cards) actions in a betting round, or a forced bet in a game that goes past them
    partial = bool(rounds) and all(_round_no(r) == 0 for r in rounds)
    acting: set[str] = set()
    for r in rounds:
        number: int | None = None  # (read at the round's first action that is not a note)
        for a in r.children:
            if a.tag == "action" and a.attrs.get("type") not in _NOTES:
                if number is None:
                    number = _round_no(r)
                if number > 0 or not partial:
                    acting.add(a.attrs.get("player", ""))
    if partial:
        note += (";partial=the game logs only its forced bets (no cards, no action, no "
                 "result): who was dealt in is unknown, so no seat is")
    ts, ts_note = _timestamp(startdate)
    h = _Hand(fmt="ipoker", file_name=file_name, hand_id=hand_id,
                 table_id=session.get("tablename", "").strip() or None)
    chips = {p.attrs["name"]: money(p.attrs.get("chips", "0") or "0", p.line) for p in players}
    g: dict[str, Any] = {"variant": variant, "structure": structure, "currency": currency,
                         "minor_per_unit": mpu, "ante": 0, "tournament": tournament}
    size = session.get("tablesize", "").strip()
    if size.isdigit() and 2 <= int(size) <= 127:
        g["seat_count"] = int(size)
    if gt.group("a") is not None:
        a, b = money(gt.group("a"), game.line), money(gt.group("b"), game.line)
    elif is_stud:
        small, level = _stud_stakes(rounds, money)
        key = ("stud", variant, currency, level)
        if small is None:
            small = memory.get(key)
            if small is None:
                raise _LimitsUnknown(
                    f"line {game.line}: gametype {gametype!r} states no stakes, nobody bets in "
                    "the hand and no other hand of the session at this ante and bring-in does, "
                    "so the limits are unknown")
            note += ";stakes=from another hand at this ante and bring-in (gametype states none)"
        else:
            note += ";stakes=read from the bets (gametype states none)"
        memory[key] = a = small
        b = 2 * a
    else:
        sb_posted, bb_posted = _forced_stakes(rounds, chips, money)
        if bb_posted is None:
            raise SiteHandError(f"line {game.line}: gametype {gametype!r} states no stakes "
                                "and no big blind is posted")
        note += ";stakes=read from the blinds posted (gametype states none)"
        a, b = (bb_posted, 2 * bb_posted) if structure == "fixed_limit" else (
            sb_posted if sb_posted is not None else bb_posted // 2, bb_posted)
    if structure == "fixed_limit":
        g.update(small_bet=a, big_bet=b)
        if not is_stud:
            g["big_blind"] = a
    else:
        g.update(small_blind=a, big_blind=b)
    live_bb = g.get("big_blind", 0)
    total_pot = next((money(stated[k], gen.line) for k in ("totalpot", "pot") if k in stated),
                     None)
    rake = money(stated["rake"], gen.line) if "rake" in stated else None
    started = h.emit(game.line, "hand_started", ts_note + note, ts=ts, game=g,
                     detail="refunds=implicit" + (";rake=implicit" if rake is None else ""))
    button = None
    invested: list[str] = []
    wins: list[tuple[int, str, int]] = []
    stud_cards: dict[str, list[str]] = {}
    if is_stud:
        for r in rounds:
            if _round_no(r) == 2:
                for c in _children(r, "cards"):
                    stud_cards[c.attrs.get("player", "")] = []
    for p in sorted(players, key=lambda p: int(p.attrs.get("seat", "0") or 0)
                    if p.attrs.get("seat", "").isdigit() else 0):
        at = p.line
        try:
            seat = int(p.attrs.get("seat", ""))
        except ValueError:
            raise SiteHandError(f"line {at}: player without a seat number") from None
        name = p.attrs["name"]
        dealt = name in stud_cards if is_stud else (name in pockets or name in acting)
        h.add_seat(at, seat, name, chips[name], not dealt)
        if p.attrs.get("dealer") == "1":
            button = seat
        if p.attrs.get("bet"):
            invested.append(f"{seat}:{money(p.attrs['bet'], at)}")
        win = money(p.attrs.get("win", "0") or "0", at)
        if win:
            wins.append((at, name, win))
    if not is_stud:
        if button is None:
            button = _button_from_blind(rounds, h, listed, g.get("seat_count"))
            if button is None:
                raise SiteHandError(f"line {game.line}: no player has dealer=\"1\" and no "
                                    "small blind is posted (button unknown)")
            started["source"] += (f";button=seat {button}, read from the small blind (no "
                                  "player has dealer=\"1\": the button is on an empty seat)")
        g["button_seat"] = button
    hero = session.get("nickname", "").strip()
    sb = bring_in = None
    seen = {"small_blind": False, "big_blind": False}
    for r in sorted(rounds, key=_round_no):
        no = _round_no(r)
        if no not in (0, 1):  # preflop (round 1) goes on from the blinds of round 0
            h.new_round()
        unknown = [c.tag for c in r.children if c.tag not in ("cards", "action")]
        if unknown:
            raise SiteHandError(f"line {r.line}: unknown element(s) in <round>: {unknown}")
        if no == 1 and not is_stud:
            h.deal_holes(r.line, variant, {n: v for n, v in pockets.items() if n in h.seat_of})
        for c in _children(r, "cards"):
            kind = c.attrs.get("type", "")
            if kind == "Pocket":
                if is_stud:
                    raise SiteHandError(f"line {c.line}: Pocket cards in a stud game")
                continue
            if is_stud:
                _stud_deal(h, c, no, variant, stud_cards)
            else:
                if no in (0, 1):
                    raise SiteHandError(f"line {c.line}: board cards in round {no}")
                h.board(c.line, _cards(c.text, f"line {c.line}"))
        for act in _in_play_order(_children(r, "action")):
            at, kind_code = act.line, act.attrs.get("type", "")
            name = act.attrs.get("player", "")
            if kind_code == "7" and act.attrs.get("sum", "").strip().upper() == "DP":
                # disconnection protection: he stays in for what he has put in, his chips
                # behind out of play (the replay: profile allin.disconnect_protection)
                if no == 0:
                    raise SiteHandError(f"line {at}: an all-in under disconnection "
                                        "protection among the posts")
                h.emit(at, "annotation", detail="all_in_protection", **h.who(name))
                continue
            amount = money(act.attrs.get("sum", "0") or "0", at)
            if kind_code in _POSTS:
                if no != 0:
                    raise SiteHandError(f"line {at}: a forced bet in round {no}")
                detail = _POSTS[kind_code]
                if detail == "ante":
                    g["ante"] = max(g["ante"], amount)
                    h.post(at, name, "ante", amount, live=False)
                    continue
                if seen[detail]:  # a second blind: a player coming in, or a missed blind
                    if detail == "small_blind":
                        h.post(at, name, "dead", amount, live=False)
                    else:
                        live = min(amount, live_bb) if live_bb else amount
                        h.post(at, name, "new_player", live, live=True)
                        if amount > live:
                            h.post(at, name, "dead", amount - live, live=False)
                    continue
                seen[detail] = True
                if detail == "small_blind":
                    sb = amount
                h.post(at, name, detail, amount, live=True)
            elif kind_code == "16":
                if not is_stud or no != 2:
                    raise SiteHandError(f"line {at}: a bring-in (type 16) in round {no}")
                bring_in = amount if bring_in is None else bring_in
                h.post(at, name, "bring_in", amount, live=True)
            elif kind_code in _NOTES:
                w = h.who(name)
                h.emit(at, "annotation", detail=_NOTES[kind_code], **w)
                if (kind_code == "9" and no > 0 and w["seat"] not in h.sitting_out
                        and w["seat"] not in h.folded):
                    h.act(at, name, "fold")  # dealt in, he sits out: the client folds him
            elif kind_code in _KINDS:
                if no == 0:
                    raise SiteHandError(f"line {at}: action type {kind_code} among the posts")
                kind = _KINDS[kind_code]
                if kind in ("fold", "check"):
                    h.act(at, name, kind)
                elif kind == "raise":
                    h.act(at, name, kind, to=amount)
                elif (is_stud and no == 2 and kind in ("bet", "auto")
                      and max(h.round.values(), default=0) <= (bring_in or 0)):
                    # the first street: the first wager over the bring-in completes it (or
                    # opens for the full bet), all-in or not
                    h.act(at, name, "complete", added=amount, all_in=kind == "auto")
                else:
                    h.act(at, name, kind, added=amount, all_in=kind == "auto")
            else:
                raise SiteHandError(f"line {at}: unknown iPoker action type {kind_code!r} "
                                    f"(player {name!r}, sum {act.attrs.get('sum')!r})")
    if is_stud:
        for who, held in stud_cards.items():
            at_seat = h.seat_of.get(who)
            if (at_seat is not None and who != hero and held and "??" not in held
                    and at_seat not in h.folded):
                h.emit(max(h.lines), "show", cards=" ".join(held), **h.who(who))
    for name, (at, cards) in sorted(pockets.items(), key=lambda kv: kv[1][0]):
        holder = h.seat_of.get(name)
        if holder is None:
            raise SiteHandError(f"line {at}: pocket cards for {name!r}, who is not seated")
        if name != hero and "??" not in cards and holder not in h.folded:
            h.emit(at, "show", cards=cards, **h.who(name))
    for at, name, win in wins:
        h.award(at, name, win, "main")
    if structure == "fixed_limit" and not is_stud:
        g["small_blind"] = sb
    if is_stud:
        key = ("bring_in", variant, currency, g["small_bet"])
        if bring_in is not None:
            memory[key] = bring_in
        elif key in memory:
            bring_in = memory[key]
            started["source"] += ";bring_in=from an earlier hand at these stakes"
        else:
            bring_in = g["small_bet"] // 2
            started["source"] += ";bring_in=assumed half the small bet"
        g["bring_in"] = bring_in
    started["game"] = g
    if rake:
        h.emit(gen.line, "rake", amount=rake, detail="rake")
    facts = [f"total_pot={total_pot}"] if total_pot is not None else []
    if invested:
        facts.append("invested=" + ",".join(invested))
    h.end(max(h.lines), ";".join(facts) or None)
    return h


def _stud_deal(h: SiteHand, c: _Elem, no: int, variant: str,
               dealt: dict[str, list[str]]) -> None:
    """One player's cards of a stud street: round 2 is the first street (two down and one
    up; 5-card stud one and one), the last street of 7-card stud is dealt down."""
    name = c.attrs.get("player", "")
    if c.attrs.get("type", "") not in _STUD_STREETS:
        raise SiteHandError(f"line {c.line}: {c.attrs.get('type')!r} cards in a stud game")
    cards = _cards(c.text, f"line {c.line}").split()
    w = h.who(name)
    last = 5 if variant == "stud5" else 7
    first = 2 if variant == "stud5" else 3
    street = no + 1 if variant != "stud5" else no
    if no == 2:
        if len(cards) != first:
            raise SiteHandError(f"line {c.line}: the first stud street deals {first} cards")
        h.emit(c.line, "deal", cards=" ".join(cards[:-1]), detail="down", **w)
        h.emit(c.line, "deal", cards=cards[-1], detail="up", **w)
    elif 2 < no and street <= last:
        if len(cards) != 1:
            raise SiteHandError(f"line {c.line}: a stud street deals one card")
        h.emit(c.line, "deal", cards=cards[0],
               detail="down" if street == 7 else "up", **w)
    else:
        raise SiteHandError(f"line {c.line}: stud cards in round {no}")
    dealt.setdefault(name, []).extend(cards)


class _Stream:
    """Expat handlers: session metadata, the current game as a small tree, finished games."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done: list[_Elem] = []
        self.last_game_line = 0
        self.waiting: list[tuple[_Elem, str, str]] = []  # games whose limits come later
        self.codes: dict[str, list[str]] = {}  # recent gamecode -> digests of its games
        self.new_session(0)

    def new_session(self, offset: int) -> None:
        """A fresh parser for a `<session>` whose first line is file line `offset + 1` (a file
        may hold several documents one after the other)."""
        self.offset = offset
        self.parser = expat.ParserCreate()
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.parser.StartDoctypeDeclHandler = self._doctype
        self.parser.EntityDeclHandler = self._entity
        self.parser.ExternalEntityRefHandler = self._external
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._text
        self.parser.buffer_text = True  # a text run in one call, not one per line or entity
        self.stack: list[str] = []
        self.session: dict[str, str] = {}
        self.meta: str | None = None
        self.game: _Elem | None = None
        self.path_in_game: list[_Elem] = []
        self.content: list[str] = []  # the current game's content, element by element
        self.memory: dict[Any, Any] = {}  # stakes / bring-in seen earlier in the session
        self.closed = False  # the root element has ended

    def at_next_document(self, exc: expat.ExpatError) -> bool:
        """True when `exc` is the start of another document after a complete one."""
        return self.closed and self.game is None and exc.code in _NEXT_DOCUMENT

    def hand_id(self, game: _Elem) -> str:
        """`ipoker:<gamecode>`; a different game under a gamecode already used in the session
        (anonymised logs reuse codes) is `ipoker:<gamecode>#2`, `#3`, ...; the very same game
        logged twice keeps its id (a duplicate, which ingest quarantines).

        Games are compared by content (`game.content`, made as the game is parsed: each element's
        tag, attributes sorted by name, text stripped, then its children, in document order;
        not their lines). Fields are parted by control characters, which XML 1.0 text and
        attribute values cannot hold (expat refuses them), so no content can pass for
        another."""
        code = game.attrs.get("gamecode", "")
        digest = hashlib.sha1(game.content.encode("utf-8", "replace")).hexdigest()
        seen = self.codes.setdefault(code, [])
        if digest not in seen:
            seen.append(digest)
        if len(self.codes) > _RECENT_CODES:
            del self.codes[next(iter(self.codes))]
        k = seen.index(digest)
        return f"ipoker:{code}" if k == 0 else f"ipoker:{code}#{k + 1}"

    def _line(self) -> int:
        return self.parser.CurrentLineNumber + self.offset

    def _doctype(self, *args: Any) -> None:
        raise AuditInputError(
            f"{self.path}: line {self._line()}: the XML declares a DOCTYPE; "
            "iPoker files have none, and DTDs/entities are refused (entity-expansion "
            "protection). Remove the <!DOCTYPE ...> prolog if the file is genuine.")

    def _entity(self, *args: Any) -> None:
        raise AuditInputError(
            f"{self.path}: line {self._line()}: the XML declares an ENTITY; "
            "refused (entity-expansion protection)")

    def _external(self, *args: Any) -> int:
        raise AuditInputError(f"{self.path}: line {self._line()}: external "
                              "entity reference refused")

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber + self.offset
        if self.game is not None:  # (inside a game `stack` stays at the game: `path_in_game`)
            el = _Elem(tag, attrs, line)
            path = self.path_in_game
            path[-1].children.append(el)
            path.append(el)
            content = self.content
            content.append(_head(tag, attrs))
            el.slot = len(content)
            content.append("")
            return
        if tag == "game":
            self.last_game_line = line
            self.game = _Elem(tag, attrs, line)
            self.path_in_game = [self.game]
            self.content = [_head(tag, attrs), ""]
            self.game.slot = 1
        elif len(self.stack) == 2 and self.stack[-1] == "general":
            self.meta = tag
            self.session[tag] = ""
        self.stack.append(tag)

    def _end(self, tag: str) -> None:
        if self.game is not None:
            el = self.path_in_game.pop()
            content = self.content
            content[el.slot] = el.text.strip()
            content.append("\x1b")
            if self.path_in_game:
                return
            el.content = "".join(content)
            self.done.append(el)
            self.game = None
            self.stack.pop()
            self.closed = not self.stack
            return
        self.stack.pop()
        self.closed = not self.stack
        if self.meta == tag:
            self.meta = None

    def _text(self, data: str) -> None:
        if self.game is not None:
            self.path_in_game[-1].text += data
        elif self.meta is not None:
            self.session[self.meta] += data


def _fallback_decoder(head: bytes) -> codecs.IncrementalDecoder:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # the BOM rules
        return codecs.getincrementaldecoder("utf-16")(errors="replace")
    m = _DECL_ENCODING.match(head.removeprefix(codecs.BOM_UTF8))
    name = m.group(1).decode("ascii").lower() if m else "utf-8"
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise AuditInputError(f"unknown XML encoding {name!r}") from None
    errors = "poker_audit_cp1252" if info.name == "utf-8" else "replace"
    return info.incrementaldecoder(errors=errors)


class IPokerImporter:
    """iPoker XML files: recognised by content, streamed game by game."""

    name = "ipoker"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """An XML `<session` with `<game gamecode=` or `<gametype>` (file name ignored)."""
        del path
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            head = head.decode("utf-16", errors="replace").encode("utf-8")
        return b"<session" in head and (b"gamecode=" in head or b"<gametype>" in head)

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        out = ChunkWriter(self.chunk_hands, str(path))
        stream = _Stream(path)
        game_lines: list[tuple[int, str]] = []  # raw lines of the game in progress
        with path.open("rb") as f:
            decoder = _fallback_decoder(f.read(200))
            f.seek(0)
            failure: str | None = None
            fail_line = 0
            limit = read_limits().hand_bytes
            held = 0  # characters in game_lines
            for number, raw in enumerate(bounded_lines(f), start=1):
                if isinstance(raw, Overlong):  # not parsed: the game and the rest rejected
                    failure, fail_line = over_line_limit(number, raw.size), number
                    break
                if held > limit:  # a game past the hand limit: it and the rest rejected
                    failure, fail_line = over_hand_limit(game_lines[0][0], held), \
                        game_lines[0][0]
                    break
                # expat counts a lone CR as a line break; keep its line numbers = file lines
                text = decoder.decode(raw)
                if "\r" in text:
                    text = text.replace("\r\n", "\n").replace("\r", " ")
                if number == 1:
                    text = text.lstrip("\ufeff")
                game_lines.append((number, text))
                held += len(text)
                try:
                    try:
                        stream.parser.Parse(text, False)
                    except expat.ExpatError as exc:
                        if not stream.at_next_document(exc):
                            raise
                        # another <session> follows the finished one: a new document
                        for waiting in stream.waiting:
                            self._map(stream, out, path, *waiting, last_try=True)
                        stream.waiting = []
                        end = text.rfind("</session>")
                        stream.new_session(number - 1)
                        stream.parser.Parse(text[end + 10:] if end >= 0 else text, False)
                except expat.ExpatError as exc:
                    fail_line = exc.lineno + stream.offset
                    failure = f"XML syntax error at line {fail_line}, column {exc.offset}: " \
                              f"{expat.ErrorString(exc.code)}"
                    break
                # (`_flush` has work when a game ended or lines before the game in progress,
                # or before this line between games, can go)
                keep_from = stream.game.line if stream.game is not None else number
                if stream.done or game_lines[0][0] < keep_from:
                    before = len(game_lines)
                    yield from self._flush(stream, out, path, game_lines)
                    if len(game_lines) != before:  # trimmed to the game in progress
                        held = sum(len(t) for _, t in game_lines)
            else:
                try:
                    stream.parser.Parse(decoder.decode(b"", True), True)
                except expat.ExpatError as exc:
                    fail_line = exc.lineno + stream.offset
                    failure = f"XML syntax error at line {fail_line}, column {exc.offset}: " \
                              f"{expat.ErrorString(exc.code)} (file truncated?)"
                yield from self._flush(stream, out, path, game_lines)
            if failure is not None:
                yield from self._flush(stream, out, path, game_lines)
                self._reject_rest(stream, out, path, failure, fail_line)
        for waiting in stream.waiting:  # no later hand told their limits
            self._map(stream, out, path, *waiting, last_try=True)
        if out.pending:
            yield out.take()

    def _flush(self, stream: _Stream, out: ChunkWriter, path: Path,
               game_lines: list[tuple[int, str]]) -> Iterator[Chunk]:
        for game in stream.done:
            raw = "".join(t for n, t in game_lines if n >= game.line)
            hand_id = stream.hand_id(game)
            if self._map(stream, out, path, game, raw, hand_id) and stream.waiting:
                # a hand read: it may tell the limits a waiting hand lacked
                waiting, stream.waiting = stream.waiting, []
                for old in waiting:
                    self._map(stream, out, path, *old)
            if len(stream.waiting) > _MAX_WAITING:
                self._map(stream, out, path, *stream.waiting.pop(0), last_try=True)
            if out.full:
                yield out.take()
        stream.done.clear()
        start = stream.game.line if stream.game is not None else None
        last = game_lines[-1][0] if game_lines else 0
        keep_from = start if start is not None else last
        if game_lines and game_lines[0][0] < keep_from:  # (a long game: not at every line)
            game_lines[:] = [(n, t) for n, t in game_lines if n >= keep_from]

    def _map(self, stream: _Stream, out: ChunkWriter, path: Path, game: _Elem, raw: str,
             hand_id: str, last_try: bool = False) -> bool:
        """Map one game into `out` (or quarantine it); a game whose limits only a later hand
        can tell waits in `stream.waiting` unless this is its last try. True when stored."""
        try:
            hand = _map_game(game, stream.session, path.name, stream.memory, hand_id)
        except _LimitsUnknown as exc:
            if not last_try:
                stream.waiting.append((game, raw, hand_id))
                return False
            reason = str(exc)
        except SiteHandError as exc:
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - one bad game never stops the file
            reason = f"importer error {type(exc).__name__}: {exc}"
        else:
            out.add(hand, raw)
            return True
        out.rejected.append(Rejected(source=str(path), line=game.line, hand_id=hand_id,
                                     reason=reason, raw=raw))
        return False

    def _reject_rest(self, stream: _Stream, out: ChunkWriter, path: Path,
                     failure: str, fail_line: int) -> None:
        """After a syntax error: the game in progress and every later game are rejected.

        The file is scanned again from disk (streamed) for `<game gamecode=` lines the parser
        never reached; each rejected game keeps up to 1 MiB of its raw text."""
        limit = 1 << 20
        found: list[list[Any]] = []  # [line, code, raw parts, size]
        if stream.game is not None:
            found.append([stream.game.line, stream.game.attrs.get("gamecode"), [], 0])
        first = stream.game.line if stream.game is not None else stream.last_game_line + 1
        tail: list[str] = []
        with path.open("rb") as f:
            decoder = _fallback_decoder(f.read(200))
            f.seek(0)
            for n, raw in enumerate(bounded_lines(f), start=1):
                if n < first:
                    continue
                text = raw.text() if isinstance(raw, Overlong) else decoder.decode(raw)
                tail = (tail + [text])[-5:]
                if n > stream.last_game_line:
                    for m in _GAME_OPEN.finditer(text):
                        found.append([n, m.group(1), [], 0])
                if found and found[-1][3] < limit:
                    found[-1][2].append(text)
                    found[-1][3] += len(text)
        if not found:
            out.rejected.append(Rejected(source=str(path), line=fail_line, hand_id=None,
                                         reason=f"{failure}; no hand is lost (every <game> "
                                                "before it was complete)",
                                         raw="".join(tail)))
            return
        for k, (line, code, parts, _) in enumerate(found):
            where = "this <game> is incomplete" if k == 0 and stream.game is not None \
                else "this <game> comes after it and cannot be parsed"
            out.rejected.append(Rejected(source=str(path), line=line,
                                         hand_id=f"ipoker:{code}" if code else None,
                                         reason=f"{failure}; {where}", raw="".join(parts)))


IMPORTER = IPokerImporter()
