"""888poker / Pacific Poker / Cassava text hand histories imported as events.

A hand starts at a `#Game No : N` line (or, in a file without it, at the `***** <room> Hand
History for Game N *****` line) and runs to the next one. The room line names the skin:
`888poker`, `Cassava`, `888.ro`, `888poker.ca-on`, `Pacific Poker`, ... The reader streams the
file line by line (UTF-8 with or without a BOM, cp1252, UTF-16), keeps one hand's lines at a
time, maps it, and yields a `Chunk` of about 5,000 whole hands. A hand with a line it does not
know is quarantined whole (file, line, the offending line, the reason, the raw text).

Mapping (888 line -> events; money exact: `Decimal` -> integer minor units):

* `<sb>/<bb> Blinds <limit> <game>[ Jackpot table] - *** DD MM YYYY HH:MM:SS` (the date may be
  missing) -> hand_started: hand_id `888:N`, ts (the time as written, read as UTC: the log
  names no zone; no date -> ts null), game: `No Limit` / `Pot Limit` / `Fix Limit` / `Limit`;
  `Holdem` -> holdem, `Omaha` -> omaha, `OmahaHL` / `Omaha Hi/Lo` -> omaha_hilo, `5 Card
  Omaha[ Hi/Lo]` -> omaha5[_hilo]; fixed limit: small bet = big blind, big bet = twice it.
  Amounts carry the symbol before or after (`$0.50`, `25 $`, `15 €`) and group digits with
  `,`, `.`, a space or a no-break space (`1.183.764 $`, `25 000`, `15 788,50 $`): a last
  separator followed by one or two digits is the decimal point, any other is grouping.
  Cash at `(Real Money)`: the symbol's currency (USD/EUR/GBP, minor 100); `(Practice Play)`
  cash: CHIPS/100 (play chips with cents); tournaments (`Tournament #N <buy-in> - Table #k`):
  CHIPS/1 whatever symbol the amounts carry, under the dead-button rule (dead_button true).
* `Table NAME[ N Max] (Real Money)` / `Tournament #N ... - Table #k[ N Max] (...)` -> table_id
  (`NAME`, `<N> <k>`), seat_count from `N Max` (else `Total number of players : a/b` -> b).
* `Seat N is the button` -> button_seat; `Seat N: name ( $x )` -> seat (detail sitting_out
  when no line of the hand names the player: a player dealt in always posts, acts or shows).
* `posts small blind [x]` -> small_blind, `posts big blind [x]` -> big_blind (a second one: a
  new player's post, new_player), `posts ante [x]` -> ante, `posts dead blind [a + b]` -> dead
  a (dead money) and new_player b (live; nothing when b is 0).
* `** Dealing down cards **` -> deal/hole for every seat, `Dealt to P [ c, c ]` for the one
  whose cards the log shows, `??` for everyone else (an observed hand has no such line: the
  first action deals `??` holes). Cards in Swedish (`Kn` knekt = J, `D` dam = Q, `E` ess = A)
  are read as such.
* `folds`, `checks`, `calls [x]`, `bets [x]`, `raises [x]` (x = chips added on the round; a
  stack spent to zero -> all_in), `All-in [x]` (bet, call or raise by the amount).
* `** Dealing flop|turn|river ** [ .. ]` -> deal/board, a new round.
* summary: `shows [ .. ]` -> show, `mucks [ .. ]` -> muck, `did not show his hand` -> muck,
  `collected [ x ]` -> award main (the log names no pot), `(Hi: ..)` / `(Lo: ..)` layout.
* The log states no total pot, no rake and no uncalled-bet return: hand_started detail
  `refunds=implicit;rake=implicit`. A hand whose pot nobody collects in the log (`no pot
  awarded`) -> hand_ended `winnings=absent`.
* `P has joined the table`, `P has left the table`, ... -> annotation.

**Compiled pass** (pacific_kernel.py, numba; pacific_compiled.py): a file of up to 8 MB is
read whole first (its text as UTF-8: UTF-8, UTF-16, byte-order marks, cp1252 bytes as the
reader decodes them), the common hands straight from the bytes into one Arrow batch
(tests/importers/test_pacific_compiled.py: the same chunks as the line parser); every hand it
does not fully read goes to the fast path and the line parser as below.

**Fast path** (`_fast_888`): the common hands -- players named by one word, the lines posts
of blinds and antes, the deal, folds, checks, calls, bets, raises, streets, shows, mucks with
cards, `did not show his hand`, `collected` -- are read straight into event columns
(`columns.EventColumns`); a hand with anything else (a note, a dead blind, an all-in line, a
name with a space, a line out of place, an amount or card that does not read) is left to the
line parser above (`_map_888`), which stays the single source of truth: the fast path makes
exactly the events the line parser makes of the hands it takes
(tests/importers/test_site_fast_paths.py).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from audit.importers.base import Chunk
from audit.importers.columns import EventColumns, read_columns
from audit.importers.fasttext import Amounts, split_seated
from audit.importers.sitetext import (
    CHUNK_HANDS,
    CURRENCY_SYMBOLS,
    HOLE_COUNT,
    SiteHand,
    SiteHandError,
    SiteTextImporter,
    bad_line,
    utf16_encoding,
)

_GAME_NO = re.compile(r"^\ufeff?#Game No ?: ?(\d+)\s*$")
_ROOM = re.compile(r"^\ufeff?\*{5} ?(?P<room>[^*]*?\S) Hand History [Ff]or Game (?P<no>\d+) ?"
                   r"\*{5}$")
_SNIFF = re.compile(r"(?m)^\ufeff?\*{5} ?(?:888|Cassava|Pacific)[^*\n]* Hand History [Ff]or Game "
                    r"\d+ ?\*{5}")
_STAKES = re.compile(r"^(?P<sb>[^/]+)/(?P<bb>.+?) Blinds (?P<game>.+?) - \*\*\*"
                     r"(?: (?P<d>\d\d) (?P<mo>\d\d) (?P<y>\d{4}) (?P<t>\d\d:\d\d:\d\d))?\s*$")
# `Table NAME[ N Max] (Real Money)`, `Tournament #N <buy-in> - Table #k[ N Max] (Real Money)`,
# or a tournament line without a table number (`Tournament #N <name> 10 Max (Real Money)`)
_TABLE = re.compile(r"^(?:Tournament #(?P<tid>\d+)(?: (?P<buyin>.*?))?(?: - Table #(?P<tno>\S+))?|"
                    r"Table (?P<name>.+?))(?: (?P<max>\d+) Max)? \((?P<money>[^)]*)\)\s*$")
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_PLAYERS = re.compile(r"^Total number of players ?: ?(\d+)(?: ?/ ?(\d+))?$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \( ?(.*?) ?\)$")
_STREET = re.compile(r"^\*\* Dealing (flop|turn|river) \*\* \[(.*)\]$")
_ACTION = re.compile(r"^(folds|checks|calls|bets|raises|All-in|all-in|posts small blind|"
                     r"posts big blind|posts ante|posts dead blind|posts bring-in|shows|mucks|"
                     r"collected|did not show his hand)(?: \[(.*)\])?(?: .*)?$")
_DEAD = re.compile(r"^(.+?) \+ (.+)$")
_LAYOUT = re.compile(r"^\((?:Hi|Lo|High|Low): [^)]*\)$")
_DEALT = re.compile(r"^Dealt to (.+?) \[(.*)\]$")
_NOTES = [
    (re.compile(r"^has joined the table$"), "table_change"),
    (re.compile(r"^has left the table$"), "table_change"),
    (re.compile(r"^(?:is sitting out|sits out|has sat out)$"), "sits_out"),
    (re.compile(r"^(?:has returned|is back)$"), "returned"),
    (re.compile(r"^has (?:been )?disconnected$"), "disconnected"),
    (re.compile(r"^has reconnected$"), "reconnected"),
    (re.compile(r"^has timed out$"), "timed_out"),
    (re.compile(r"^said, .*$"), "said"),
]
_LIMITS = {"no limit": "no_limit", "pot limit": "pot_limit", "fix limit": "fixed_limit",
           "fixed limit": "fixed_limit", "limit": "fixed_limit"}
_GAMES = {"holdem": "holdem", "hold'em": "holdem", "texas holdem": "holdem",
          "omaha": "omaha", "omaha hi": "omaha", "omahahl": "omaha_hilo",
          "omaha hi/lo": "omaha_hilo", "omaha hi-lo": "omaha_hilo", "omaha hl": "omaha_hilo",
          "5 card omaha": "omaha5", "5 card omaha hi/lo": "omaha5_hilo",
          "5 card omahahl": "omaha5_hilo"}
_HOLE = {"holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5}
# Swedish card ranks (`Kn` knekt, `D` dam, `E` ess) and 10 written out
_RANKS = {"Kn": "J", "D": "Q", "E": "A", "10": "T", "1": "A"}
_SPANISH_SUITS = {"p": "s", "t": "c", "d": "d", "c": "h"}
# a hand whose cards use the Spanish suit letters `p` (picas) or `t` (tréboles): its `c` is
# corazones (hearts), not clubs
_SPANISH = re.compile(r"\[[^\]]*\b(?:[2-9TJQKA]|10)[pt]\b")
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009]+")
_NUMBER = re.compile(r"^[0-9]+(?:[.,][0-9]+)*$")
_SYMBOLS = "$€£"
# a line `name verb[ [amount]]`, the name as short as the verbs allow (checked to be seated)
_QUICK = re.compile(r"^(.+?) (?:folds|checks|calls|bets|raises|posts|shows|mucks|collected|"
                    r"did not show)\b")
_PUT_IN = frozenset({"post", "call", "bet", "raise"})


def amount_888(text: str) -> Decimal:
    """`$1,855` -> 1855; `15 788,50 $` -> 15788.50; `1.183.764 $` -> 1183764 (exact): a last
    separator followed by one or two digits is the decimal point, any other groups digits."""
    t = _SPACES.sub("", text).strip(_SYMBOLS)
    for code in ("USD", "EUR", "GBP"):
        t = t.removesuffix(code)
    t = t.strip(_SYMBOLS)
    if not _NUMBER.match(t):
        raise SiteHandError(f"{text!r} is not an amount")
    cut = max(t.rfind("."), t.rfind(","))
    if cut >= 0 and len(t) - cut - 1 in (1, 2):
        t = t[:cut].replace(".", "").replace(",", "") + "." + t[cut + 1:]
    else:
        t = t.replace(".", "").replace(",", "")
    try:
        return Decimal(t)
    except InvalidOperation:
        raise SiteHandError(f"{text!r} is not an amount") from None


_AMOUNTS = Amounts(amount_888)
_CARDS_READ: dict[tuple[str, bool], str] = {}  # card text, Spanish suits -> cards


def cards_888(text: str, what: str, spanish: bool = False) -> str:
    """`[ 5s, Ad, 8h, 7c ]` / Swedish `[ Ec, Knd, 4c, Kh ]` -> `5s Ad 8h 7c` / `Ac Jd 4c Kh`;
    Spanish suits (`spanish`: picas p, tréboles t, diamantes d, corazones c) -> s c d h."""
    out = []
    for c in text.replace(",", " ").split():
        rank, suit = c[:-1], c[-1:].lower()
        rank = _RANKS.get(rank, rank.upper())
        if spanish:
            suit = _SPANISH_SUITS.get(suit, suit)
        if len(rank) != 1 or rank not in "23456789TJQKA" or suit not in "cdhs":
            raise SiteHandError(f"{what}: {c!r} is not a card")
        out.append(rank + suit)
    if not out:
        raise SiteHandError(f"{what}: no cards")
    return " ".join(out)


def _symbol(text: str) -> str:
    for ch in text:
        if ch in _SYMBOLS:
            return ch
    return ""


def _unit(tournament: bool, money_kind: str, symbol: str) -> tuple[str, int]:
    """(currency, minor units per unit) of a hand: tournament chips, play chips (with cents),
    or the stakes' symbol (none: chips)."""
    if tournament:
        return "CHIPS", 1
    if "practice" in money_kind or "play" in money_kind:
        return "CHIPS", 100
    if not symbol:
        return "CHIPS", 100
    return CURRENCY_SYMBOLS.get(symbol, symbol), 100


_GAME_NO_START = ("#Game No", "\ufeff#Game No")  # what _GAME_NO and _ROOM lines start with
_ROOM_START = ("*****", "\ufeff*****")


class _Header:
    """Where a hand starts: a `#Game No :` line, or a room line not right after one."""

    def __init__(self) -> None:
        self.after_game_no = False

    def match(self, text: str) -> bool:
        if text.startswith(_GAME_NO_START) and _GAME_NO.match(text):
            self.after_game_no = True
            return True
        if not text.strip():
            return False
        if text.startswith(_ROOM_START) and _ROOM.match(text) and not self.after_game_no:
            return True
        self.after_game_no = False
        return False

    def starts(self, piece: list[tuple[int, str]]) -> list[int]:
        """The positions in `piece` where `match` is true, called on each line in turn (only
        a line starting `#`, `*` or a BOM can be a header; any other line that is not blank
        only resets the state)."""
        out = []
        after = self.after_game_no
        for k, (_, text) in enumerate(piece):
            lead = text[:1]
            if lead == "#" or lead == "*" or lead == "\ufeff":
                self.after_game_no = after
                if self.match(text):
                    out.append(k)
                after = self.after_game_no
            elif after and text.strip():
                after = False
        self.after_game_no = after
        return out


def _hand_id_of(text: str) -> str | None:
    if (g := _GAME_NO.match(text)):
        return f"888:{g.group(1)}"
    r = _ROOM.match(text)
    return f"888:{r.group('no')}" if r else None


def _map_888(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    lines = [(n, t) for n, x in block if (t := x.strip())]
    number, first = lines[0]
    i = 0
    game_no = None
    if (g := _GAME_NO.match(first)):
        game_no = g.group(1)
        i = 1
    if i >= len(lines) or not (r := _ROOM.match(lines[i][1])):
        raise SiteHandError(f"line {number}: no '***** <room> Hand History for Game N *****' "
                            "line (truncated?)")
    game_no = game_no or r.group("no")
    if r.group("no") != game_no:
        raise bad_line(lines[i][0], lines[i][1], "the game number differs from '#Game No'")
    i += 1
    if i >= len(lines) or not (s := _STAKES.match(lines[i][1])):
        raise bad_line(*(lines[i] if i < len(lines) else lines[-1]), "no stakes line")
    st_line, st_text = lines[i]
    i += 1
    if i >= len(lines) or not (tb := _TABLE.match(lines[i][1])):
        raise bad_line(*(lines[i] if i < len(lines) else lines[-1]), "no table line")
    i += 1
    tournament = tb.group("tid") is not None
    money_kind = tb.group("money").lower()
    words = s.group("game").strip()
    low = words.lower().removesuffix(" jackpot table").strip()
    structure = variant = None
    for lw in sorted(_LIMITS, key=len, reverse=True):
        if low.startswith(lw + " "):
            structure, name = _LIMITS[lw], low[len(lw) + 1:].strip()
            variant = _GAMES.get(name)
            break
    if structure is None or variant is None:
        raise bad_line(st_line, st_text, f"unsupported 888 game {words!r}")
    currency, mpu = _unit(tournament, money_kind, _symbol(s.group("sb") + s.group("bb")))

    money = _AMOUNTS.of(mpu)
    sb, bb = money(s.group("sb"), st_line), money(s.group("bb"), st_line)
    ts = None
    if s.group("y"):
        try:
            hh, mm, ss = s.group("t").split(":")
            ts = dt.datetime(int(s.group("y")), int(s.group("mo")), int(s.group("d")), int(hh),
                             int(mm), int(ss), tzinfo=dt.UTC)
        except ValueError:
            raise bad_line(st_line, st_text, "invalid date or time") from None
    if tournament:
        table_id = f"{tb.group('tid')} {tb.group('tno') or ''}".strip()
    else:
        table_id = tb.group("name")
    h = SiteHand(fmt="pacific", file_name=file_name, hand_id=f"888:{game_no}", table_id=table_id)
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency, "minor_per_unit": mpu,
        "tournament": tournament, "ante": 0,
        "seat_count": int(tb.group("max")) if tb.group("max") else None,
    }
    if tournament:
        # 888 tournaments move the big blind one player a deal and the small blind to the last
        # big blind, the button left behind (NLHE-PM-MTT-10-20120221.txt hands 143941885,
        # 143944112: a player moved in between the button and the blinds posts nothing)
        game["dead_button"] = True
    if structure == "fixed_limit":
        game.update(small_blind=sb, big_blind=bb, small_bet=bb, big_bet=2 * bb)
    else:
        game.update(small_blind=sb, big_blind=bb)
    started = h.emit(number, "hand_started", ts=ts, game=game,
                     detail="refunds=implicit;rake=implicit")
    button = None
    while i < len(lines):
        n, text = lines[i]
        if (b := _BUTTON.match(text)):
            button = int(b.group(1))
        elif (p := _PLAYERS.match(text)):
            if p.group(2) and game["seat_count"] is None:
                game["seat_count"] = int(p.group(2))
        else:
            break
        i += 1
    while i < len(lines) and (m := _SEAT.match(lines[i][1])):
        n, text = lines[i]
        h.add_seat(n, int(m.group(1)), m.group(2), money(m.group(3), n), False)
        i += 1
    if not h.seat_of:
        raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
    if button is None:
        raise SiteHandError(f"line {number}: no 'Seat N is the button' line")
    game["button_seat"] = button
    body = lines[i:]
    spanish = any("[" in t and _SPANISH.search(t) for _, t in body)
    # a seated player dealt in always has a line (a post, an action, his cards): one without
    # any sits out
    heard = {t[9:].partition(" [")[0] if t.startswith("Dealt to ") else
             (sp[0] if (sp := split_seated(h, t)) else "") for _, t in body}
    for name, seat in h.seat_of.items():
        if name not in heard:
            h.sitting_out.add(seat)
            next(r for r in h.rows if r["kind"] == "seat" and r["seat"] == seat)[
                "detail"] = "sitting_out"

    def cards(text: str, where: int) -> str:
        got = _CARDS_READ.get((text, spanish))
        if got is None:  # read once (a refused text is not kept: its error names the line)
            got = cards_888(text, f"line {where}", spanish)
            if len(_CARDS_READ) >= 4096:
                _CARDS_READ.clear()
            _CARDS_READ[(text, spanish)] = got
        return got

    known: dict[str, tuple[int, str]] = {}
    for n, text in body:
        if text.startswith("Dealt to ") and (d := _DEALT.match(text)):
            if d.group(1) not in h.seat_of:
                raise bad_line(n, text, "cards dealt to a player who is not seated")
            known[d.group(1)] = (n, cards(d.group(2), n))
    section = "pre"
    dealt = False
    big_posted = False
    awards = 0
    ended = False
    last = number
    for n, text in body:
        last = n
        if text == "** Dealing down cards **":
            if section != "pre":
                raise bad_line(n, text, "a second deal of the hole cards")
            h.deal_holes(n, variant, known)
            dealt = True
            section = "play"
            continue
        if text.startswith("Dealt to ") and _DEALT.match(text):
            continue
        if text.startswith("** Dealing ") and (st := _STREET.match(text)):
            if section == "pre":  # an observed hand: the hole cards are dealt unseen
                h.deal_holes(n, variant, known)
                dealt = True
            section = "play"
            h.board(n, cards(st.group(2), n))
            continue
        if text == "** Summary **":
            section = "summary"
            ended = True
            continue
        if text.startswith("(") and _LAYOUT.match(text):
            continue
        q = _QUICK.match(text)  # `name verb [amount]` with a seated name: most lines
        if q is not None and q.group(1) in h.seat_of:
            name, rest = q.group(1), text[q.end(1) + 1:]
        else:
            split = split_seated(h, text)
            if split is None:
                raise bad_line(n, text)
            name, rest = split
        a = _ACTION.match(rest)
        if a is None:
            for pattern, label in _NOTES:
                if pattern.match(rest):
                    h.emit(n, "annotation", detail=label, **h.who(name))
                    break
            else:
                raise bad_line(n, text)
            continue
        verb, amt_s = a.group(1), a.group(2)
        if verb.startswith("posts"):
            if section != "pre":
                raise bad_line(n, text, "a forced bet after the deal")
            if amt_s is None:
                raise bad_line(n, text, "a post without an amount")
            if verb == "posts small blind":
                h.post(n, name, "small_blind", money(amt_s, n), live=True)
            elif verb == "posts big blind":
                h.post(n, name, "new_player" if big_posted else "big_blind", money(amt_s, n),
                       live=True)
                big_posted = True
            elif verb == "posts ante":
                amt = money(amt_s, n)
                game["ante"] = max(game["ante"], amt)
                h.post(n, name, "ante", amt, live=False)
            elif verb == "posts bring-in":
                raise bad_line(n, text, "unsupported 888 game (stud)")
            else:
                dm = _DEAD.match(amt_s)
                if not dm:
                    raise bad_line(n, text, "a dead blind without 'a + b'")
                dead, live = money(dm.group(1), n), money(dm.group(2), n)
                if dead:
                    h.post(n, name, "dead", dead, live=False)
                if live:
                    h.post(n, name, "new_player", live, live=True)
            continue
        if verb in ("folds", "checks", "calls", "bets", "raises", "All-in", "all-in"):
            if section == "summary":
                raise bad_line(n, text, "an action in the summary")
            if not dealt:  # an observed hand: no `Dealing down cards` line
                h.deal_holes(n, variant, known)
                dealt = True
                section = "play"
            if (amt_s is None) != (verb in ("folds", "checks")):
                raise bad_line(n, text, "amount missing or unexpected")
            if verb == "folds":
                h.act(n, name, "fold")
            elif verb == "checks":
                h.act(n, name, "check")
            elif verb == "calls":
                h.act(n, name, "call", added=money(amt_s, n))
            elif verb == "bets":
                h.act(n, name, "bet", added=money(amt_s, n))
            elif verb == "raises":
                h.act(n, name, "raise", added=money(amt_s, n))
            else:
                h.act(n, name, "auto", added=money(amt_s, n), all_in=True)
            continue
        if verb == "shows":
            if amt_s is None:
                raise bad_line(n, text, "shows without cards")
            h.emit(n, "show", cards=cards(amt_s, n), **h.who(name))
            continue
        if verb == "mucks":
            w = h.who(name)
            h.emit(n, "muck", cards=cards(amt_s, n) if amt_s else None, **w)
            continue
        if verb == "did not show his hand":
            w = h.who(name)
            hole = h.hole.get(w["seat"])
            h.emit(n, "muck", cards=hole if hole and "??" not in hole else None, **w)
            continue
        if verb == "collected":
            if amt_s is None:
                raise bad_line(n, text, "collected without an amount")
            h.award(n, name, money(amt_s, n), "main")
            awards += 1
            continue
        raise bad_line(n, text)
    if not ended:
        raise SiteHandError(f"line {last}: hand ends without '** Summary **' (truncated?)")
    end = None
    if not awards:
        put = sum(r["amount"] or 0 for r in h.rows if r["kind"] in _PUT_IN)
        if put:
            end = "winnings=absent"
            started["source"] += ";winnings=no 'collected' line"
    h.end(last, end)
    return h


_SORTED_LIMITS = sorted(_LIMITS, key=len, reverse=True)
# `_SPANISH` found on any line of a hand's text joined by line ends
_SPANISH_LINES = re.compile(r"\[[^\]\n]*\b(?:[2-9TJQKA]|10)[pt]\b")
_PLAIN_NAME = re.compile(r"[^\s:*()\[\]#]+")  # a one-word name no body line can start with
_FAST_SKIP = frozenset({"Dealt"})  # a first word the fast path cannot tell from a name
_HOLE_POSTS = {"posts small blind": "small_blind", "posts big blind": "big_blind",
               "posts ante": "ante"}  # and `posts dead blind`, read apart
_FAST_ACTS = {"calls": "call", "bets": "bet", "raises": "raise"}


def _fast_888(block: list[tuple[int, str]], file_name: str,  # noqa: C901, PLR0911, PLR0912, PLR0915
              cols: EventColumns) -> bool:
    """The hand of `block` added to `cols` as `_map_888` maps it, when it has only the common
    lines (module doc); False (with `cols` possibly part-written: the caller truncates) for any
    other hand, which the line parser then reads."""
    lines = [(n, t) for n, x in block if (t := x.strip())]
    number, first = lines[0]
    i = 0
    game_no = None
    if (g := _GAME_NO.match(first)):
        game_no = g.group(1)
        i = 1
    if i >= len(lines) or not (r := _ROOM.match(lines[i][1])):
        return False
    game_no = game_no or r.group("no")
    if r.group("no") != game_no:
        return False
    i += 1
    if i >= len(lines) or not (s := _STAKES.match(lines[i][1])):
        return False
    i += 1
    if i >= len(lines) or not (tb := _TABLE.match(lines[i][1])):
        return False
    i += 1
    tournament = tb.group("tid") is not None
    money_kind = tb.group("money").lower()
    low = s.group("game").strip().lower().removesuffix(" jackpot table").strip()
    structure = variant = None
    for lw in _SORTED_LIMITS:
        if low.startswith(lw + " "):
            structure, variant = _LIMITS[lw], _GAMES.get(low[len(lw) + 1:].strip())
            break
    if structure is None or variant is None:
        return False
    currency, mpu = _unit(tournament, money_kind, _symbol(s.group("sb") + s.group("bb")))
    money = _AMOUNTS.of(mpu)
    known_amounts = _AMOUNTS.memo[mpu]  # what `money` remembers: read without a call
    sb, bb = money(s.group("sb"), number), money(s.group("bb"), number)
    ts = None
    if s.group("y"):
        hh, mm, ss = s.group("t").split(":")
        ts = dt.datetime(int(s.group("y")), int(s.group("mo")), int(s.group("d")), int(hh),
                         int(mm), int(ss), tzinfo=dt.UTC)
    if tournament:
        table_id = f"{tb.group('tid')} {tb.group('tno') or ''}".strip()
    else:
        table_id = tb.group("name")
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency, "minor_per_unit": mpu,
        "tournament": tournament, "ante": 0,
        "seat_count": int(tb.group("max")) if tb.group("max") else None,
    }
    if tournament:
        game["dead_button"] = True
    if structure == "fixed_limit":
        game.update(small_blind=sb, big_blind=bb, small_bet=bb, big_bet=2 * bb)
    else:
        game.update(small_blind=sb, big_blind=bb)
    button = None
    while i < len(lines):
        text = lines[i][1]
        if (b := _BUTTON.match(text)):
            button = int(b.group(1))
        elif (p := _PLAYERS.match(text)):
            if p.group(2) and game["seat_count"] is None:
                game["seat_count"] = int(p.group(2))
        else:
            break
        i += 1
    seated: list[tuple[int, int, str, int]] = []
    seat_of: dict[str, int] = {}
    left: dict[int, int] = {}
    while i < len(lines) and (m := _SEAT.match(lines[i][1])):
        n = lines[i][0]
        seat, name = int(m.group(1)), m.group(2)
        if not 1 <= seat <= 127 or seat in left or name in seat_of:
            return False
        if not _PLAIN_NAME.fullmatch(name) or name in _FAST_SKIP:
            return False
        stack = money(m.group(3), n)
        seat_of[name] = seat
        left[seat] = stack
        seated.append((n, seat, name, stack))
        i += 1
    if not seated or button is None:
        return False
    game["button_seat"] = button
    body = lines[i:]
    texts = [t for _, t in body]
    joined = "\n".join(texts)
    spanish = _SPANISH_LINES.search(joined) is not None
    # the first words (up to a colon): a seated name among them is heard, as `split_seated`
    # finds it (a one-word name has no colon; `Dealt` is no seated name here)
    heard = {t.partition(" ")[0] for t in texts}
    if ":" in joined:
        heard.update([w.partition(":")[0] for w in heard if ":" in w])
    known: dict[str, tuple[int, str]] = {}
    if "Dealt to " in joined:
        for n, text in body:
            if text.startswith("Dealt to "):
                heard.add(text[9:].partition(" [")[0])
                if (d := _DEALT.match(text)):
                    if d.group(1) not in seat_of:
                        return False
                    known[d.group(1)] = (n, _fast_cards(d.group(2), spanish))

    hand_id = f"888:{game_no}"
    prefix = f"pacific:{file_name}:"
    rows = cols.rows
    add = rows.append
    base = len(rows)
    add((hand_id, 0, ts, table_id, "hand_started", None, None, None, None, None,
         "refunds=implicit;rake=implicit", game, f"{prefix}{number}", number))
    seq = 1
    sitting_out: set[int] = set()
    for n, seat, name, stack in seated:
        out = name not in heard
        if out:
            sitting_out.add(seat)
        add((hand_id, seq, None, table_id, "seat", seat, name, stack, None, None,
             "sitting_out" if out else None, None, f"{prefix}{n}", n))
        seq += 1

    rnd: dict[int, int] = {}
    hole: dict[int, str] = {}
    hole_count = HOLE_COUNT.get(variant, 2)
    name_at = {q: p for p, q in seat_of.items()}
    dealt = big_posted = ended = False

    def deal(line: int) -> None:
        nonlocal seq, dealt
        dealt = True
        unknown = (line, " ".join(["??"] * hole_count))
        for q in sorted(left):
            if q in sitting_out:
                continue
            who = name_at[q]
            at, got = known.get(who, unknown)
            hole[q] = got
            add((hand_id, seq, None, table_id, "deal", q, who, None, None, got, "hole", None,
                 f"{prefix}{at}", at))
            seq += 1

    section = "pre"
    awards = put = 0
    last = number
    for n, text in body:
        last = n
        name, _, rest = text.partition(" ")
        if name not in seat_of:  # no seated name starts the deal, street, summary or layouts
            if text == "** Dealing down cards **":
                if section != "pre":
                    return False
                deal(n)
                section = "play"
            elif text.startswith("Dealt to "):
                if not _DEALT.match(text):
                    return False  # read above
            elif text.startswith("** Dealing ") and (st := _STREET.match(text)):
                if section == "pre":
                    deal(n)
                section = "play"
                rnd = {}
                add((hand_id, seq, None, table_id, "deal", None, None, None, None,
                     _fast_cards(st.group(2), spanish), "board", None, f"{prefix}{n}", n))
                seq += 1
            elif text == "** Summary **":
                section = "summary"
                ended = True
            elif not (text.startswith("(") and _LAYOUT.match(text)):
                return False
            continue
        seat = seat_of[name]
        if rest == "folds" or rest == "checks":
            if section == "summary":
                return False
            if not dealt:
                deal(n)
                section = "play"
            add((hand_id, seq, None, table_id, "fold" if rest == "folds" else "check", seat, name,
                 None, None, None, None, None, f"{prefix}{n}", n))
            seq += 1
            continue
        if rest == "did not show his hand":
            got = hole.get(seat)
            add((hand_id, seq, None, table_id, "muck", seat, name, None, None,
                 got if got and "??" not in got else None, None, None, f"{prefix}{n}", n))
            seq += 1
            continue
        verb, _, amt_s = rest.partition(" [")
        if not amt_s.endswith("]") or "]" in amt_s[:-1]:
            return False
        amt_s = amt_s[:-1]
        if (act := _FAST_ACTS.get(verb)) is not None:
            if section == "summary":
                return False
            if not dealt:
                deal(n)
                section = "play"
            added = known_amounts.get(amt_s)
            if added is None:
                added = money(amt_s, n)
            before = rnd.get(seat, 0)
            stack = left[seat]
            left[seat] = stack - added
            total = before + added
            rnd[seat] = total
            put += added
            add((hand_id, seq, None, table_id, act, seat, name, added, total, None,
                 "all_in" if added > 0 and added == stack else None, None, f"{prefix}{n}", n))
            seq += 1
            continue
        if verb.startswith("posts "):
            if section != "pre":
                return False
            if verb == "posts dead blind":
                dm = _DEAD.match(amt_s)
                if not dm:
                    return False
                dead, live = money(dm.group(1), n), money(dm.group(2), n)
                if dead:
                    left[seat] -= dead
                    put += dead
                    add((hand_id, seq, None, table_id, "post", seat, name, dead, None, None,
                         "dead", None, f"{prefix}{n}", n))
                    seq += 1
                if live:
                    left[seat] -= live
                    put += live
                    total = rnd.get(seat, 0) + live
                    rnd[seat] = total
                    add((hand_id, seq, None, table_id, "post", seat, name, live, total, None,
                         "new_player", None, f"{prefix}{n}", n))
                    seq += 1
                continue
            post = _HOLE_POSTS.get(verb)
            if post is None:
                return False
            amt = known_amounts.get(amt_s)
            if amt is None:
                amt = money(amt_s, n)
            left[seat] -= amt
            put += amt
            if post == "ante":
                game["ante"] = max(game["ante"], amt)
                add((hand_id, seq, None, table_id, "post", seat, name, amt, None, None, "ante",
                     None, f"{prefix}{n}", n))
                seq += 1
                continue
            if post == "big_blind":
                if big_posted:
                    post = "new_player"
                big_posted = True
            total = rnd.get(seat, 0) + amt
            rnd[seat] = total
            add((hand_id, seq, None, table_id, "post", seat, name, amt, total, None, post,
                 None, f"{prefix}{n}", n))
            seq += 1
            continue
        if verb == "shows" or verb == "mucks":
            add((hand_id, seq, None, table_id, "show" if verb == "shows" else "muck", seat, name,
                 None, None, _fast_cards(amt_s, spanish), None, None, f"{prefix}{n}", n))
            seq += 1
            continue
        if verb == "collected":
            add((hand_id, seq, None, table_id, "award", seat, name, money(amt_s, n), None, None,
                 "main", None, f"{prefix}{n}", n))
            seq += 1
            awards += 1
            continue
        return False
    if not ended:
        return False
    end = None
    if not awards and put:
        end = "winnings=absent"
        started = rows[base]
        rows[base] = (*started[:12], started[12] + ";winnings=no 'collected' line",
                      started[13])
    add((hand_id, seq, None, table_id, "hand_ended", None, None, None, None, None, end,
         None, f"{prefix}{last}", last))
    return True


def _fast_cards(text: str, spanish: bool) -> str:
    """The cards of `text` as `_map_888` reads them (memoised alike); a text that does not read
    raises (the hand goes to the line parser, whose error names the line)."""
    got = _CARDS_READ.get((text, spanish))
    if got is None:
        got = cards_888(text, "cards", spanish)
        if len(_CARDS_READ) >= 4096:
            _CARDS_READ.clear()
        _CARDS_READ[(text, spanish)] = got
    return got


class PacificImporter(SiteTextImporter):
    """888poker / Pacific / Cassava text files: recognised by a `***** 888poker|Cassava|888.xx|
    Pacific... Hand History for Game N *****` line near the top (PartyPoker's own `***** Hand
    History for Game` names no room), read hand by hand."""

    name = "pacific"
    sniff_re = _SNIFF
    map_hand = staticmethod(_map_888)
    hand_id_of = staticmethod(_hand_id_of)

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True,
                 compiled: bool = True) -> None:
        super().__init__(chunk_hands)
        self.fast = fast
        self.compiled = compiled

    def header(self) -> _Header:
        return _Header()  # a fresh matcher per file

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each: the common hands
        by the compiled pass (`pacific_kernel`, a file read whole when it is plain) or the
        fast path (`_fast_888`), the others by the line parser (`_map_888`)."""
        fast = _fast_888 if self.fast else _no_fast
        if self.fast and self.compiled:
            from audit.importers.compiledtext import read_room  # numba's, loaded on first use

            chunks = read_room(path, "audit.importers.pacific_compiled", fmt="pacific",
                               chunk_hands=self.chunk_hands, fast=_fast_888,
                               map_hand=_map_888, hand_id_of=_hand_id_of, text_of=_utf8_text)
            if chunks is not None:
                yield from chunks
                return
        yield from read_columns(path, header=self.header(), chunk_hands=self.chunk_hands,
                                fast=fast, map_hand=_map_888, hand_id_of=_hand_id_of)


def _no_fast(block: list[tuple[int, str]], file_name: str, cols: EventColumns) -> bool:
    return False


def _utf8_text(path: Path) -> bytes | None:
    """The file's text as the UTF-8 bytes the reader reads it as: `plain_text_bytes` (UTF-8,
    UTF-16, byte-order marks), or a file that is not UTF-8 read as the reader decodes it line
    by line (a byte that is not UTF-8 read as cp1252: 888 writes cp1252 files too); None for a
    file the compiled pass leaves alone."""
    from audit.importers.compiledtext import _BOM, MAX_BYTES, plain_of, plain_text_bytes

    raw = plain_text_bytes(path)
    if raw is not None:
        return raw
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) > MAX_BYTES or _BOM in data or utf16_encoding(data[:512]):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return plain_of(data.decode("utf-8", errors="poker_audit_cp1252").encode("utf-8"))
    return None  # UTF-8, yet not plain


IMPORTER = PacificImporter()
