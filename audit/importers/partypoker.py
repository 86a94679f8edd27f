"""PartyPoker text hand histories imported as events.

A hand starts at `Game #N starts.` (or at `***** Hand History for Game N *****` when the
`starts` line is missing) and runs to the next hand.  Streaming, chunking and quarantine work
as in the Full Tilt importer (the shared helpers live in `audit.importers.fulltilt`).

Mapping (PartyPoker line -> events; money exact):

* `#Game No : N`, `***** Hand History for Game N *****` -> hand_id `party:N`.
* game line `<stakes> <CUR> <NL|PL|FL> <game> - <Weekday>, <Month> <d>, <hh:mm:ss> <ZONE>
  <yyyy>`: `$a/$b` stakes of a fixed-limit game are small_bet/big_bet (big_blind = small
  bet); the single `$X` of a NL/PL game is the table's buy-in cap, not a stake, so the blinds
  come from the hand's own small/big blind posts (a NL/PL hand without a big blind post is
  quarantined).  Texas Hold'em -> holdem, Omaha -> omaha, Omaha Hi-Lo -> omaha_hilo.
  Zone abbreviations are fixed offsets (EST -5, CEST +2, ...); unknown -> read as UTC, noted.
  Currency from the code (USD/EUR/GBP, minor 100); `(Play Money)` tables -> CHIPS/1.
* tournament game line `<NL|PL> <game> <buy-in> [CUR] Buy-in Trny:<id> Level:<n>
  Blinds-Antes(<sb>/<bb> -<ante>) - <date>` -> tournament, level, CHIPS/1, the blinds and
  ante of the level (`Blinds(sb/bb)` without antes: ante 0). Amounts are chips (`[20]`,
  `wins 1,530 chips`). Fixed-limit tournaments and stud/draw games are quarantined
  ("unsupported PartyPoker game").
* `Table NAME (Real Money)` -> table_id; `Seat N is the button` -> button_seat;
  `Total number of players : a/b` -> seat_count b.
* `Seat N: name ( $x USD )` -> seat; a player not dealt in is detail sitting_out.
* `posts small blind [$x]` -> small_blind, `posts big blind [$x]` -> big_blind,
  `posts big blind + dead [$x]` -> big_blind (the table's big blind, live) + dead (the rest),
  `posts ante [$x]` -> ante.
* `** Dealing down cards **` -> deal/hole for every seat in the hand (hero's `Dealt to`
  cards, `?? ??` otherwise); `** Dealing Flop|Turn|River ** [ .. ]` -> deal/board.
* PartyPoker amounts are chips ADDED: `calls [$x]`, `bets [$x]`, `raises [$x]` (total =
  round total + x); `is all-In [$x]` -> bet / call / raise by the round state, detail all_in.
  `Forward Folds` (a pre-action fold; the log repeats it as `folds` on the player's turn) ->
  annotation `forward_fold`.
* `shows [ cards ]` -> show; `doesn't show [ cards ]` -> muck with cards; `does not show
  cards` -> muck.  `wins $x [from the main pot | from the side pot k]` -> award main / side-k.
  PartyPoker logs neither the uncalled-bet return (its award INCLUDES the returned bet) nor
  the rake: hand_started detail `refunds=implicit;rake=implicit`.
* Harmless lines -> annotation: chat (`name: text` -> `said: ...`), joined / left the table,
  sitting out, disconnected / reconnected, did not respond in time, allowed to play after
  the button.
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
    SiteHand,
    SiteHandError,
    bad_line,
    local_to_utc,
    parse_amount,
    read_site_text,
    site_cards,
    to_minor,
)

_HEADER = re.compile(r"^(?:Game #(\d+) starts\.|\*{5} Hand History for Game (\d+) \*{5})$")
_AMT = r"\[\s*([$€£]?[0-9][0-9,.]*)\s*(?:[A-Z]{3})?\s*\]"
_GAME = re.compile(
    r"^(?P<stakes>[$€£]?[0-9][0-9,.]*(?:/[$€£]?[0-9][0-9,.]*)?)\s+(?P<cur>[A-Z]{3})?\s*"
    r"(?P<limit>NL|PL|FL)\s+(?P<game>.+?)\s+-\s+\w+, (?P<month>\w+) (?P<day>\d{1,2}), "
    r"(?P<time>\d{1,2}:\d\d:\d\d) (?P<zone>[A-Z]{2,5}) (?P<year>\d{4})$")
_TOURNAMENT = re.compile(
    r"^(?P<limit>NL|PL|FL) (?P<game>.+?) (?P<buyin>[$€£]?[0-9][0-9,.]*) ?(?P<cur>[A-Z]{3})? "
    r"Buy-in Trny: ?(?P<trny>\d+) Level: ?(?P<level>\d+) (?:Blinds|Stakes)(?:-Antes)?"
    r"\((?P<sb>[0-9][0-9,.]*) ?/ ?(?P<bb>[0-9][0-9,.]*)(?: ?- ?(?P<ante>[0-9][0-9,.]*))?\) "
    r"- \w+, (?P<month>\w+) (?P<day>\d{1,2}), (?P<time>\d{1,2}:\d\d:\d\d) "
    r"(?P<zone>[A-Z]{2,5}) (?P<year>\d{4})$")
_TABLE = re.compile(r"^Table (.+?) \((Real|Play) Money\)$")
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_COUNT = re.compile(r"^Total number of players : (\d+) ?/ ?(\d+)$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \( ?([$€£]?[0-9][0-9,.]*)\s*(?:[A-Z]{3})? ?\)$")
_STREET = re.compile(r"^\*\* Dealing (Flop|Turn|River) \*\* \[([^\]]*)\]$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\]$")
_POST = re.compile(rf"^posts (small blind|big blind \+ dead|big blind|ante) {_AMT}\.?$")
_ACTION = re.compile(rf"^(folds|checks|calls|bets|raises|is all-In)(?:\s+{_AMT})?\.?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\](?: .*)?$")
_NOSHOW = re.compile(r"^doesn't show \[([^\]]*)\](?: .*)?$")
_WIN = re.compile(r"^wins ([$€£]?[0-9][0-9,.]*)\s*(?:[A-Z]{3}|chips)?"
                  r"(?: from the (main pot|side pot(?: #?(\d+))?))?(?: .*)?\.?$")
_GAMES = {"texas hold'em": "holdem", "hold'em": "holdem", "omaha": "omaha",
          "omaha hi": "omaha", "omaha hi-lo": "omaha_hilo", "omaha hi/lo": "omaha_hilo"}
_LIMITS = {"NL": "no_limit", "PL": "pot_limit", "FL": "fixed_limit"}
_MONTHS = {m: i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"], start=1)}
_SEATED_NOTES = [
    (re.compile(r"^Forward Folds$"), "forward_fold"),
    (re.compile(r"^Forward Checks$"), "forward_check"),
    (re.compile(r"^(?:is sitting out|sits out)\.?$"), "sits_out"),
    (re.compile(r"^is disconnected\.?$"), "disconnected"),
    (re.compile(r"^has been reconnected\.?$"), "reconnected"),
    (re.compile(r"^(?:did not|could not) respond in time\.?$"), "timed_out"),
    (re.compile(r"^will be allowed to play after the button\.?$"), "waits_for_button"),
    (re.compile(r"^has left the table\.?$"), "left_table"),
]
_ANYONE_NOTES = [
    (re.compile(r"^(.+?) has joined the table\.?$"), "joined_table"),
    (re.compile(r"^(.+?) has left the table\.?$"), "left_table"),
    (re.compile(r"^(.+?) will be allowed to play after the button\.?$"), "waits_for_button"),
]
_HARMLESS = re.compile(r"^(?:#Game No : \d+|Game #\d+ starts\.|\*{5} Hand History for Game \d+ "
                       r"\*{5}|Connection Lost due to some reason\.?)$")


def _map_party(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    number = block[0][0]
    game_no = None
    for _, text in block[:4]:
        m = _HEADER.match(text) or re.match(r"^#Game No : (\d+)$", text)
        if m:
            game_no = next(g for g in m.groups() if g)
            break
    body = [(n, " ".join(t.split())) for n, t in block if t.strip()]  # Party pads with spaces
    i = 0
    while i < len(body) and _HARMLESS.match(body[i][1]):
        i += 1
    if i >= len(body):
        raise SiteHandError(f"line {number}: hand ends after its header (truncated?)")
    n, text = body[i]
    g = _GAME.match(text) or _TOURNAMENT.match(text)
    tournament = g is not None and g.re is _TOURNAMENT
    if tournament and g.group("limit") == "FL":
        raise bad_line(n, text, "unsupported PartyPoker game (fixed-limit tournament)")
    if not g:
        if re.search(r"(?i)trny|tourn|stud|razz|draw|badugi", text):
            raise bad_line(n, text, "unsupported PartyPoker game (tournament/stud/draw)")
        raise bad_line(n, text, "unrecognised game line")
    game_line = n
    name = g.group("game").lower()
    variant = _GAMES.get(name)
    if variant is None:
        raise bad_line(n, text, f"unsupported PartyPoker game {g.group('game')!r}")
    structure = _LIMITS[g.group("limit")]
    month = _MONTHS.get(g.group("month"))
    try:
        local = dt.datetime.strptime(
            f"{g.group('year')}-{month}-{g.group('day')} {g.group('time')}", "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise bad_line(n, text, "invalid date") from None
    ts, note = local_to_utc(local, g.group("zone"))
    i += 1
    if i >= len(body) or not (t := _TABLE.match(body[i][1])):
        at, shown = body[i] if i < len(body) else (n, text)
        raise bad_line(at, shown, "expected 'Table NAME (Real Money)'")
    play = t.group(2) == "Play"
    table = t.group(1).strip()
    stakes_text = g.group("buyin") if tournament else g.group("stakes")
    symbol = stakes_text[0] if stakes_text[0] in "$€£" else ""
    currency = "CHIPS" if play or tournament else (
        g.group("cur") or {"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol, "CHIPS"))
    mpu = 1 if currency == "CHIPS" else 100

    def money(text: str, where: int) -> int:
        return to_minor(parse_amount(text), mpu, f"line {where} amount {text!r}")

    if game_no is None:
        raise bad_line(number, block[0][1], "no game number")
    h = SiteHand(fmt="partypoker", file_name=file_name, hand_id=f"party:{game_no}",
                 table_id=table)
    game: dict[str, Any] = {"variant": variant, "structure": structure, "currency": currency,
                            "minor_per_unit": mpu, "tournament": tournament, "ante": 0}
    if tournament:  # the level's blinds and ante are in the game line
        game.update(level=int(g.group("level")), small_blind=money(g.group("sb"), game_line),
                    big_blind=money(g.group("bb"), game_line),
                    ante=money(g.group("ante"), game_line) if g.group("ante") else 0)
    if structure == "fixed_limit":
        stakes = g.group("stakes").split("/")
        if len(stakes) != 2:
            raise bad_line(game_line, text, "fixed-limit game without $small/$big stakes")
        game.update(small_bet=money(stakes[0], game_line), big_bet=money(stakes[1], game_line))
        game["big_blind"] = game["small_bet"]
    # Party logs neither returned bets nor (cash games) the rake; tournaments have no rake.
    started = h.emit(number, "hand_started", note, ts=ts, game=game,
                     detail="refunds=implicit" if tournament else
                     "refunds=implicit;rake=implicit")
    i += 1
    button = None
    while i < len(body) and (m := _BUTTON.match(body[i][1]) or _COUNT.match(body[i][1])):
        if m.re is _BUTTON:
            button = int(m.group(1))
        else:
            game["seat_count"] = int(m.group(2))
        i += 1
    while i < len(body) and (m := _SEAT.match(body[i][1])):
        n = body[i][0]
        h.add_seat(n, int(m.group(1)), m.group(2), money(m.group(3), n), False)
        i += 1
    if not h.seat_of:
        raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
    if button is None:
        raise SiteHandError(f"line {number}: no 'Seat N is the button' line")
    game["button_seat"] = button
    known = {}
    for n, text in body[i:]:
        if (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
            known[d.group(1)] = (n, site_cards(d.group(2), f"line {n}"))
    section = "pre"
    blinds: dict[str, int] = {}
    won = False
    last = number
    for n, text in body[i:]:
        last = n
        if _HARMLESS.match(text):
            continue
        if text == "** Dealing down cards **":
            if section != "pre":
                raise bad_line(n, text, "second deal of down cards")
            section = "play"
            h.deal_holes(n, variant, known)
            continue
        if (s := _STREET.match(text)):
            h.board(n, site_cards(s.group(2), f"line {n}"))
            continue
        if (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
            continue
        split = h.split_name(text)
        if split is None:
            for pattern, label in _ANYONE_NOTES:
                if (a := pattern.match(text)):
                    h.emit(n, "annotation", player=a.group(1), detail=label)
                    break
            else:
                raise bad_line(n, text)
            continue
        who, rest = split
        if rest.startswith(":"):
            h.emit(n, "annotation", detail=f"said: {rest[1:].strip()}", **h.who(who))
            continue
        if (p := _POST.match(rest)):
            if section != "pre":
                raise bad_line(n, text, "a forced bet after the deal")
            kind, amt = p.group(1), money(p.group(2), n)
            if kind == "small blind":
                blinds.setdefault("small_blind", amt)
                h.post(n, who, "small_blind", amt, live=True)
            elif kind == "big blind":
                blinds.setdefault("big_blind", amt)
                h.post(n, who, "big_blind", amt, live=True)
            elif kind == "ante":
                h.post(n, who, "ante", amt, live=False)
                game["ante"] = max(game["ante"], amt)
            else:
                bb = game.get("big_blind") or blinds.get("big_blind")
                if bb is None or amt <= bb:
                    raise bad_line(n, text, "big blind + dead before the table's big blind "
                                   "is known")
                h.post(n, who, "big_blind", bb, live=True)
                h.post(n, who, "dead", amt - bb, live=False)
            continue
        if (a := _ACTION.match(rest)):
            if section != "play":
                raise bad_line(n, text, "an action before the down cards")
            verb, amt_s = a.group(1), a.group(2)
            kind = {"folds": "fold", "checks": "check", "calls": "call", "bets": "bet",
                    "raises": "raise", "is all-In": "auto"}[verb]
            if (amt_s is None) != (kind in ("fold", "check")):
                raise bad_line(n, text, "amount missing or unexpected")
            if amt_s is None:
                h.act(n, who, kind)
            else:
                h.act(n, who, kind, added=money(amt_s, n), all_in=kind == "auto")
            continue
        if (sh := _SHOW.match(rest)):
            h.emit(n, "show", cards=site_cards(sh.group(1), f"line {n}"), **h.who(who))
            continue
        if (ns := _NOSHOW.match(rest)):
            h.emit(n, "muck", cards=site_cards(ns.group(1), f"line {n}"), **h.who(who))
            continue
        if rest in ("does not show cards.", "does not show cards", "mucks"):
            w = h.who(who)
            cards = h.hole.get(w["seat"])
            h.emit(n, "muck", cards=cards if cards and "??" not in cards else None, **w)
            continue
        if (wn := _WIN.match(rest)):
            amt_s, pot, side = wn.groups()
            label = f"side-{side or 1}" if pot and pot.startswith("side") else "main"
            h.award(n, who, money(amt_s, n), label)
            won = True
            continue
        for pattern, label in _SEATED_NOTES:
            if pattern.match(rest):
                h.emit(n, "annotation", detail=label, **h.who(who))
                break
        else:
            raise bad_line(n, text)
    if not won:
        raise SiteHandError(f"line {last}: hand ends without a 'wins' line (truncated?)")
    if not tournament and structure != "fixed_limit":
        if "big_blind" not in blinds:
            raise SiteHandError(f"line {number}: no big blind posted, and a {structure} "
                                "PartyPoker header gives no blinds")
        game["big_blind"] = blinds["big_blind"]
    if not tournament:
        game["small_blind"] = blinds.get("small_blind")
    started["game"] = game
    h.end(last)
    return h


def _party_hand_id(header: str) -> str | None:
    m = _HEADER.match(header)
    return f"party:{next(g for g in m.groups() if g)}" if m else None


class PartyPokerImporter:
    """PartyPoker text files: recognised by content, read hand by hand."""

    name = "partypoker"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """`***** Hand History for Game N *****` near the top (file name ignored)."""
        del path
        return re.search(rb"(?m)^\*{5} Hand History for Game \d+ \*{5}", head) is not None

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        yield from read_site_text(path, fmt="partypoker", header=_Split(),
                                  chunk_hands=self.chunk_hands, map_hand=_map_party,
                                  hand_id_of=_party_hand_id)


class _Split:
    """Hand boundaries: `Game #N starts.`, or a `Hand History` line not preceded by one."""

    def __init__(self) -> None:
        self.after_start = False

    def match(self, text: str) -> bool:
        m = _HEADER.match(text)
        if not m:
            if text.strip() and not text.startswith("#Game No"):
                self.after_start = False
            return False
        if m.group(1):
            self.after_start = True
            return True
        if self.after_start:
            self.after_start = False
            return False
        return True


IMPORTER = PartyPokerImporter()
