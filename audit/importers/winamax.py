"""Winamax text hand histories imported as events.

A hand starts at a `Winamax Poker - ...` header line and runs to the next one. The reader
streams the file line by line (UTF-8 with or without a BOM, bytes that are not UTF-8 read as
cp1252, UTF-16), maps one hand at a time and yields chunks of whole hands. A hand with a line
the grammar does not know is quarantined whole, naming the line; an unsupported game is
quarantined naming the game. A plain UTF-8 file (held whole, up to 8 MB) is read by a
compiled pass first (winamax_kernel.py, numba: the common flop-game hands straight from the
bytes into event columns, the file's table read as one Arrow message;
tests/importers/test_winamax_compiled.py: the same chunks as the line parser), every hand it
does not fully read by the Python fast path and the line parser. The common hands (flop games,
7-card stud, the draw games) are otherwise read by a fast path (`_fast_winamax`: rows of
values, no dict per event, one Arrow conversion per chunk); any hand it does not follow to the
end goes to the line parser (`_Hand.map`), the single source of truth
(tests/importers/test_site_fast_paths.py, test_winamax_stud_draw_fast.py: both give the same
chunks).

Mapping (Winamax line -> events; money exact, `Decimal` -> integer minor units):

* header `Winamax Poker - <kind> - HandId: #<id> - <game> <structure> (<stakes>) -
  <yyyy/mm/dd hh:mm:ss> <ZONE>` with kind `CashGame`, `Go Fast "<name>"`, `Tournament "<name>"
  buyIn: <buy-in> level: <n>` (any other kind is read as a cash game) -> hand_started:
  hand_id `wmx:<id>`, table_id the table name; games `Holdem` -> holdem, `Omaha` -> omaha,
  `Omaha8` / `Omaha Hi/Lo` -> omaha_hilo, `5 Card Omaha [Hi/Lo]` -> omaha5[_hilo],
  `6 Card Omaha [Hi/Lo]` -> omaha6[_hilo], `7-Card Stud` / `7stud` -> stud, `... Hi/Lo` /
  `7stud8` -> stud_hilo, `Razz` -> razz, `Lowball27` / `2-7 Triple Draw` ->
  lowball_27_triple, `2-7 Single Draw` -> lowball_27_single, `5 Card Draw` -> draw_high;
  structures `no limit`, `pot limit`, `fixed limit`. Stakes: `sb/bb` or `ante/sb/bb` (button
  games; fixed-limit draw and hold'em: `small bet/big bet`, the blinds as posted), stud
  `ante/small bet/big bet` (the bring-in from its post). Amounts with `€` -> EUR; cash tables
  `(real money)` -> EUR, `(play money)` -> CHIPS, both in cents (minor 100); tournaments ->
  CHIPS/1. Tournament chip counts may be written `1.32k` (thousands).
* `Table[:] '<name>' <n>-max (real|play money) [Seat #<b> is the button]` -> seat_count n,
  button_seat b (seat 0 / none: no button, stud).
* `Seat N: name (stack[, X€ bounty])` -> seat.
* `*** ANTE/BLINDS ***`: `posts small blind x` -> small_blind, `posts big blind x` ->
  big_blind, `posts big blind x out of position` -> new_player (live), `posts small blind x
  out of position` -> dead, `posts ante x` -> ante, `posts straddle x` -> straddle. A `raises
  x to y` there (a player posting the blinds out of turn, who then posts the small blind: the
  corpus' `ante.raise` hands) is kept as the log writes it: a live post of y (detail
  new_player) before the small blind, and `source` says so.
* `Dealt to P [cards]` -> deal/hole (everyone else `??`); stud `Dealt to P [X X c] [d]` ->
  deal/down + deal/up per street (`X` unknown; a seat the log deals nothing gets `??`, filled
  from the seven cards it shows at the showdown, which Winamax lists in the order dealt);
  draw `Dealt to P [kept] [new]` after a discard -> deal/draw.
* `folds`, `checks`, `calls x`, `bets x`, `raises x to y` (y is the round total; `and is
  all-in` -> all_in), stud `brings in x` / `bring-in x` -> post bring_in. A raise whose
  increment is negative (`raises -6.10€ to 18.90€`: the log wrote the chips added as the
  total, an all-in for less than a raise) is read as the chips added when that is the
  player's whole stack; `source` says so.
* draw: `*** FIRST-DRAW ***` etc. end a betting round; `discard N card(s) [cards]` -> draw
  (amount N, `??` each when not shown) and deal/draw `??` each (the hero's from a later
  `Dealt to`); `discard 0 card` / `stands pat` -> stand_pat.
* `*** FLOP *** [a b c]`, `*** TURN *** [..][d]`, `*** RIVER *** [..][e]` (also with a colon)
  -> deal/board; stud `*** 3rd STREET ***` / `*** THIRD ***` ... start betting rounds.
* `shows [cards] (hand)` -> show (once per player; hi/lo hands show twice).
* `collected x from pot|main pot|side pot k [(HI)|(LO)]` -> award main / side-k [/high|/low].
  Winamax logs no uncalled-bet return: the collection holds it. The top contributor's excess
  over the next is split off as an award `uncalled` (when his collection holds it; otherwise
  hand_started detail `refunds=implicit`).
* summary `Total pot x | Rake r` / `| No rake` -> rake event, hand_ended detail
  `total_pot=<x + r - uncalled>` (Winamax's total counts the returned bet);
  `Seat N: ... won x` -> award main when the body collected nothing; `Board:` and the other
  seat lines are restatements.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from audit.importers.base import Chunk
from audit.importers.columns import FastHand, read_columns, whole_hands
from audit.importers.fasttext import Amounts, quick_cards, split_or_note, split_seated
from audit.importers.sitetext import (
    CHUNK_HANDS,
    HOLE_COUNT,
    STATUS_LINE,
    RoundsHand,
    SiteHand,
    SiteHandError,
    SiteTextImporter,
    bad_line,
    header_time,
    known_cards,
    local_to_utc,
    parse_amount,
    uncalled_split,
)

_HEADER = re.compile(
    r"^\ufeff?Winamax Poker - (?P<kind>.*?) - HandId: #(?P<id>[0-9][0-9-]*) - "
    r"(?P<game>.+?) (?P<structure>no limit|pot limit|fixed limit|half pot limit) "
    r"\((?P<stakes>[^()]*)\) - (?P<date>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d\d:\d\d) "
    r"(?P<zone>[A-Za-z]+)$", re.IGNORECASE)
_HEADER_LINE = re.compile(r"^\ufeff?Winamax Poker - ")
_SNIFF = re.compile(r"(?m)^\ufeff?Winamax Poker - .* - HandId: #")
_TOURNEY = re.compile(r'^Tournament "(?P<name>.*)" buyIn: (?P<buyin>.*?) level: (?P<level>\d+)$')
_TABLE = re.compile(r"^Table:? '(?P<name>.*)' (?P<max>\d+)-max \((?P<money>real|play) money\)"
                    r"(?: Seat #(?P<button>\d+) is the button)?$")
_AMT = r"-?[0-9][0-9,.]*k?\s?€?"
_SEAT = re.compile(rf"^Seat (\d+): (.+?) \((?P<stack>{_AMT})(?:, (?P<bounty>[^()]*) bounty)?\)$")
_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER) \*\*\*:? ((?:\[[^\]]*\] ?)+)$")
_STUD_STREET = re.compile(r"^\*\*\* (3rd|4th|5th|6th|7th|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH)"
                          r"(?: STREET)? \*\*\*$", re.IGNORECASE)
_DRAW_STREET = re.compile(r"^\*\*\* (FIRST|SECOND|THIRD|FOURTH)-(BET|DRAW) \*\*\*$")
_DEALT = re.compile(r"^Dealt to (.+?) ((?:\[[^\]]*\] ?)+)$")
_POST = re.compile(rf"^posts (small blind|big blind|ante|straddle|small blind \+ big blind|"
                   rf"small & big blinds?|small and big blinds?) (?P<a>{_AMT})"
                   r"(?P<oop> out of position)?(?P<allin> and is all-in)?$")
_BRING = re.compile(rf"^(?:brings in|bring-in|brings-in) (?P<a>{_AMT})(?P<allin> and is all-in)?$")
_ACTION = re.compile(rf"^(folds|checks|calls|bets|raises|completes)(?: (?P<a>{_AMT}))?"
                     rf"(?: to (?P<to>{_AMT}))?(?P<allin> and is all-in)?$")
_DISCARD = re.compile(r"^(?:discards?|draws?) (\d+) cards?(?: \[([^\]]*)\])?$")
_PAT = re.compile(r"^stands? pat$")
_SHOW = re.compile(r"^shows \[([^\]]*)\](?: \(.*\))?$")
_MUCK = re.compile(r"^(?:mucks|doesn't show)(?: (?:hand|cards))?(?: \[([^\]]*)\])?$")
_COLLECT = re.compile(rf"^collected (?P<a>{_AMT}) from "
                      r"(?P<pot>pot|main pot|side pot(?: (?P<k>\d+))?)(?: \((?P<half>HI|LO|hi|lo|"
                      r"high|low)\))?$")
_TOTAL = re.compile(rf"^Total pot (?P<a>{_AMT})(?P<pots>.*?) \| (?:Rake (?P<r>{_AMT})|No rake)$")
_POT_PART = re.compile(rf"(Main|Side) pot(?: (\d+))?:? (?P<a>{_AMT})")
_SUMMARY_SEAT = re.compile(r"^Seat (\d+): ")
_SUMMARY_WON = re.compile(rf" won (?P<a>{_AMT})(?: |$)")
_NOTES = [
    (re.compile(r"^(?:is )?sitting out$|^sits out$"), "sits_out"),
    (re.compile(r"^(?:is )?disconnected$"), "disconnected"),
    (re.compile(r"^(?:is )?reconnected$"), "reconnected"),
    (re.compile(r"^(?:is )?timed out$|^did not respond in time$"), "timed_out"),
    (re.compile(r"^(?:joins|has joined) the table.*$"), "joined_table"),
    (re.compile(r"^(?:leaves|has left) the table.*$"), "left_table"),
]
_GAMES = {
    "holdem": "holdem", "hold'em": "holdem", "omaha": "omaha", "omaha hi": "omaha",
    "omaha8": "omaha_hilo", "omaha hi/lo": "omaha_hilo", "omaha hi-lo": "omaha_hilo",
    "5 card omaha": "omaha5", "5 card omaha hi/lo": "omaha5_hilo", "5 card omaha8": "omaha5_hilo",
    "omaha5": "omaha5", "omaha5 hi/lo": "omaha5_hilo", "omaha 5": "omaha5",
    "6 card omaha": "omaha6", "6 card omaha hi/lo": "omaha6_hilo", "6 card omaha8": "omaha6_hilo",
    "7-card stud": "stud", "7 card stud": "stud", "7stud": "stud",
    "7-card stud hi/lo": "stud_hilo", "7 card stud hi/lo": "stud_hilo", "7stud8": "stud_hilo",
    "7-card stud8": "stud_hilo", "razz": "razz",
    "lowball27": "lowball_27_triple", "2-7 triple draw": "lowball_27_triple",
    "lowball27 triple draw": "lowball_27_triple", "2-7 single draw": "lowball_27_single",
    "lowball27 single draw": "lowball_27_single", "5 card draw": "draw_high",
}
_STRUCTURES = {"no limit": "no_limit", "pot limit": "pot_limit", "fixed limit": "fixed_limit",
               "half pot limit": "half_pot"}
_STUD = frozenset({"stud", "stud_hilo", "razz"})
_DRAW = frozenset({"lowball_27_triple", "lowball_27_single", "draw_high"})
_HOLES = {"holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5, "omaha6": 6,
          "omaha6_hilo": 6, "lowball_27_triple": 5, "lowball_27_single": 5, "draw_high": 5}
_STUD_NUMBER = {"3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "third": 3, "fourth": 4,
                "fifth": 5, "sixth": 6, "seventh": 7}


def _amount(text: str) -> Decimal:
    """`1.32k` -> 1320, `2,50€` -> 2.50, `-6.10€` -> -6.10 (exact)."""
    t = text.strip().replace("€", "").strip()
    sign = 1
    if t.startswith("-"):
        sign, t = -1, t[1:]
    thousands = t.endswith("k")
    value = parse_amount(t[:-1] if thousands else t)
    return sign * value * (1000 if thousands else 1)


_AMOUNTS = Amounts(_amount)


def _header_time(stamp: str, zone: str, number: int, header: str
                 ) -> tuple[dt.datetime, str]:
    """`sitetext.header_time` for the header's `yyyy/m/d h:mm:ss` (the header pattern holds
    it to that shape): in ASCII digits the fields are read as integers instead of by
    `strptime`, which refuses the same dates; other digits go to `strptime`."""
    if not stamp.isascii():
        return header_time(stamp, zone, number, header)
    try:
        day, clock = stamp.split(" ")
        y, mo, d = day.split("/")
        hh, mi, ss = clock.split(":")
        local = dt.datetime(int(y), int(mo), int(d), int(hh), int(mi), int(ss))
    except ValueError:
        raise bad_line(number, header, "invalid date") from None
    return local_to_utc(local, zone)


def _wmx_hand_id(header: str) -> str | None:
    m = re.search(r" - HandId: #([0-9][0-9-]*) - ", header)
    return f"wmx:{m.group(1)}" if m else None


class _Hand:
    """One Winamax hand being mapped."""

    def __init__(self, block: list[tuple[int, str]], file_name: str) -> None:
        self.block = block
        self.file_name = file_name
        self.mpu = 100
        self.h: SiteHand
        self.game: dict[str, Any] = {}

    def money(self, text: str, n: int) -> int:
        return _AMOUNTS.value(text, self.mpu, n)

    def map(self) -> SiteHand:  # noqa: C901, PLR0912, PLR0915 - one pass over the grammar
        number, header = self.block[0]
        m = _HEADER.match(header)
        if m is None:
            raise bad_line(number, header, "header not understood")
        kind = m.group("kind")
        t = _TOURNEY.match(kind)
        tournament = t is not None
        game_name = " ".join(m.group("game").lower().split())
        variant = _GAMES.get(game_name)
        if variant is None:
            raise bad_line(number, header, f"unsupported Winamax game {m.group('game')!r}")
        structure = _STRUCTURES[m.group("structure").lower()]
        body = [(n, x) for n, x in self.block[1:] if x.strip()]
        if not body:
            raise SiteHandError(f"line {number}: a header without a hand (truncated?)")
        tn, ttext = body[0]
        tb = _TABLE.match(ttext)
        if tb is None:
            raise bad_line(tn, ttext, "no table line after the header")
        play = tb.group("money") == "play"
        euro = "€" in m.group("stakes") or (not play and not tournament)
        self.mpu = 1 if tournament else 100
        currency = "CHIPS" if tournament or play else "EUR"
        if tournament and "€" in m.group("stakes"):
            currency, self.mpu = "EUR", 100
        del euro
        ts, note = _header_time(m.group("date"), m.group("zone"), number, header)
        if play:
            note += ";currency=play money"
        if tournament:
            assert t is not None
            note += f";tournament={t.group('name')};buyin={t.group('buyin')}"
        h = RoundsHand(fmt="winamax", file_name=self.file_name, hand_id=f"wmx:{m.group('id')}",
                     table_id=tb.group("name"))
        self.h = h
        stakes = [self.money(s, number) for s in m.group("stakes").split("/")]
        if not 2 <= len(stakes) <= 3:
            raise bad_line(number, header, "stakes not understood")
        game: dict[str, Any] = {
            "variant": variant, "structure": structure, "currency": currency,
            "minor_per_unit": self.mpu, "tournament": tournament,
            "level": int(t.group("level")) if t else None,
            "seat_count": int(tb.group("max")), "ante": 0,
        }
        self.game = game
        is_stud = variant in _STUD
        is_draw = variant in _DRAW
        low, high = stakes[-2], stakes[-1]
        if len(stakes) == 3:
            game["ante"] = stakes[0]
        if is_stud:
            if structure != "fixed_limit":
                raise bad_line(number, header, "a stud game that is not fixed-limit")
            game.update(small_bet=low, big_bet=high)
        elif structure == "fixed_limit":
            game.update(small_bet=low, big_bet=high, big_blind=low)
        else:
            game.update(small_blind=low, big_blind=high)
        button = int(tb.group("button")) if tb.group("button") else 0
        if not is_stud:
            if not button:
                raise bad_line(tn, ttext, "a button game without a button seat")
            game["button_seat"] = button
        started = h.emit(number, "hand_started", note, ts=ts, game=game)
        i = 1
        while i < len(body) and (s := _SEAT.match(body[i][1])):
            n, _ = body[i]
            h.add_seat(n, int(s.group(1)), s.group(2), self.money(s.group("stack"), n), False)
            i += 1
        if not h.seat_of:
            raise SiteHandError(f"line {tn}: hand has no seats (truncated?)")
        rest = body[i:]
        # the players the hand deals in: those who post, act or are dealt cards
        splits = self._mark_sitting_out(rest)
        section = "pre"
        known: dict[str, tuple[int, str]] = {}
        if not is_stud:
            for n, text in rest:
                if text.startswith("Dealt to ") and (d := _DEALT.match(text)) and \
                        d.group(1) in h.seat_of and d.group(1) not in known:
                    groups = re.findall(r"\[([^\]]*)\]", d.group(2))
                    known[d.group(1)] = (n, quick_cards(groups[0], f"line {n}"))
        stud = _Stud(self, rest) if is_stud else None
        holes_dealt = False
        draws: dict[str, list[tuple[int, int]]] = {}  # player -> [(line, count)] pending
        total_pot: int | None = None
        pots: list[str] = []
        rake = 0
        collected = False
        summary_won: list[tuple[int, str, int]] = []
        shown: set[str] = set()
        blind_raise: dict[str, tuple[int, int]] = {}
        last = number

        def deal_holes(n: int) -> None:
            nonlocal holes_dealt
            if not holes_dealt and not is_stud:
                holes_dealt = True
                h.deal_holes(n, variant, known)
                for seat, cards in h.hole.items():
                    if len(cards.split(" ")) != _HOLES[variant]:
                        raise SiteHandError(f"line {n}: seat {seat} holds {cards!r}, not "
                                            f"{_HOLES[variant]} cards")

        for n, text in rest:
            last = n
            if section == "summary":
                if (tp := _TOTAL.match(text)) and total_pot is None:
                    total_pot = self.money(tp.group("a"), n)
                    for kind_, k, amount in _POT_PART.findall(tp.group("pots")):
                        label = "main" if kind_ == "Main" else f"side-{k or 1}"
                        pots.append(f"{label}:{self.money(amount, n)}")
                    if tp.group("r"):
                        rake = self.money(tp.group("r"), n)
                        if rake:
                            h.emit(n, "rake", amount=rake, detail="rake")
                elif (ss := _SUMMARY_SEAT.match(text)):
                    listed = int(ss.group(1))
                    names = [p for p, q in h.seat_of.items() if q == listed]
                    won = _SUMMARY_WON.search(text)
                    if won and names:
                        summary_won.append((n, names[0], self.money(won.group("a"), n)))
                elif text.startswith("Board: ["):
                    pass
                else:
                    raise bad_line(n, text, "unknown summary line")
                continue
            if text == "*** SUMMARY ***":
                if stud is not None:
                    stud.flush()
                self._flush_draws(draws, known)
                section = "summary"
                continue
            if text == "*** ANTE/BLINDS ***":
                continue
            if text == "*** PRE-FLOP ***":
                self._post_both(blind_raise)
                deal_holes(n)
                section = "play"
                continue
            if text == "*** SHOW DOWN ***":
                if stud is not None:
                    stud.flush()
                self._flush_draws(draws, known)
                deal_holes(n)
                section = "showdown"
                continue
            stars = text.startswith("*** ")  # a street (the others are above)
            if stars and (st := _STREET.match(text)):
                deal_holes(n)
                groups = re.findall(r"\[([^\]]*)\]", st.group(2))
                h.board(n, quick_cards(groups[-1], f"line {n}"))
                section = "play"
                continue
            if stars and stud is not None and (ss2 := _STUD_STREET.match(text)):
                stud.street(n, _STUD_NUMBER[ss2.group(1).lower()])
                section = "play"
                continue
            if stars and is_draw and (ds := _DRAW_STREET.match(text)):
                deal_holes(n)
                self._flush_draws(draws, known)
                if ds.group(2) == "BET" and ds.group(1) != "FIRST":
                    h.new_round()
                section = "play"
                continue
            if text.startswith("Dealt to ") and (d := _DEALT.match(text)) and \
                    d.group(1) in h.seat_of:
                if stud is not None:
                    stud.dealt(n, d.group(1), d.group(2))
                elif is_draw and holes_dealt:
                    groups = re.findall(r"\[([^\]]*)\]", d.group(2))
                    if d.group(1) in draws and len(groups) == 2:
                        new = quick_cards(groups[1], f"line {n}").split(" ")
                        self._draw_cards(draws, d.group(1), new)
                continue
            if stud is not None:
                stud.flush()
            split = split_or_note(h, n, text, splits)
            if split is None:
                continue
            name, rest_ = split
            if (p := _POST.match(rest_)):
                what, amt = p.group(1), self.money(p.group("a"), n)
                if what == "small blind" and name in blind_raise:
                    self._post_both(blind_raise, name, amt)
                elif what == "small blind":
                    h.post(n, name, "dead" if p.group("oop") else "small_blind", amt,
                           live=not p.group("oop"))
                elif what == "big blind":
                    h.post(n, name, "new_player" if p.group("oop") else "big_blind", amt,
                           live=True)
                elif what.startswith("small"):  # both blinds: the big blind live, the rest dead
                    bb = game.get("big_blind") or amt
                    h.post(n, name, "new_player", min(bb, amt), live=True)
                    if amt > bb:
                        h.post(n, name, "dead", amt - bb, live=False)
                elif what == "ante":
                    h.post(n, name, "ante", amt, live=False)
                    game["ante"] = game["ante"] or amt
                else:
                    h.post(n, name, "straddle", amt, live=True)
                    game["straddle"] = amt
                if p.group("allin"):
                    h.rows[-1]["source"] += ";all_in"
                continue
            if stud is not None and (b := _BRING.match(rest_)):
                amt = self.money(b.group("a"), n)
                game.setdefault("bring_in", amt)
                h.post(n, name, "bring_in", amt, live=True)
                continue
            if (a := _ACTION.match(rest_)):
                verb = a.group(1)
                all_in = bool(a.group("allin"))
                if section == "pre" and verb == "raises" and a.group("to"):
                    # a raise among the blinds: the player posts out of turn (see _post_both)
                    blind_raise[name] = (n, self.money(a.group("to"), n))
                    continue
                self._post_both(blind_raise)
                deal_holes(n)
                if is_draw:
                    self._flush_draws(draws, known)
                if verb in ("folds", "checks"):
                    if a.group("a"):
                        raise bad_line(n, text, "an amount on a fold or check")
                    h.act(n, name, "fold" if verb == "folds" else "check")
                    continue
                if not a.group("a"):
                    raise bad_line(n, text, "amount missing")
                amt = self.money(a.group("a"), n)
                if verb == "raises":
                    if not a.group("to"):
                        raise bad_line(n, text, "a raise without its total")
                    to = self.money(a.group("to"), n)
                    seat = h.seat_of[name]
                    if amt < 0 and to == h.left[seat]:
                        h.act(n, name, "raise" if h.round.get(seat, 0) + to > max(
                            h.round.values(), default=0) else "call", added=to, all_in=True)
                        h.rows[-1]["source"] += _NEGATIVE_RAISE
                        continue
                    top = max(h.round.values(), default=0)
                    if is_stud and stud is not None and stud.number == 3 and \
                            top == game.get("bring_in") and to <= game["small_bet"]:
                        # 3rd street, over the bring-in up to the small bet: a completion
                        h.act(n, name, "complete", to=to, all_in=all_in)
                        continue
                    h.act(n, name, "raise", to=to, all_in=all_in)
                elif verb == "completes":
                    h.act(n, name, "complete", to=self.money(a.group("to") or a.group("a"), n),
                          all_in=all_in)
                else:
                    h.act(n, name, "call" if verb == "calls" else "bet", added=amt,
                          all_in=all_in)
                continue
            if is_draw and (dc := _DISCARD.match(rest_)):
                count = int(dc.group(1))
                w = h.who(name)
                if count == 0:
                    h.emit(n, "stand_pat", **w)
                    continue
                cards = quick_cards(dc.group(2), f"line {n}") if dc.group(2) else " ".join(
                    ["??"] * count)
                if len(cards.split(" ")) != count:
                    raise bad_line(n, text, "the discarded cards are not the count")
                h.emit(n, "draw", amount=count, cards=cards, **w)
                draws.setdefault(name, []).append((n, count))
                continue
            if is_draw and _PAT.match(rest_):
                h.emit(n, "stand_pat", **h.who(name))
                continue
            if (sh := _SHOW.match(rest_)):
                if name not in shown:
                    shown.add(name)
                    h.emit(n, "show", cards=quick_cards(sh.group(1), f"line {n}"), **h.who(name))
                continue
            if (mk := _MUCK.match(rest_)):
                mucked = quick_cards(mk.group(1), f"line {n}") if mk.group(1) else (
                    None if is_draw else known_cards(h.hole.get(h.seat_of[name])))
                h.emit(n, "muck", cards=mucked, **h.who(name))
                continue
            if (c := _COLLECT.match(rest_)):
                pot = c.group("pot")
                label = "main" if pot in ("pot", "main pot") else f"side-{c.group('k') or 1}"
                if c.group("half"):
                    label += "/high" if c.group("half").lower() in ("hi", "high") else "/low"
                h.award(n, name, self.money(c.group("a"), n), label)
                collected = True
                continue
            if rest_.startswith(":") or rest_.startswith("said"):
                h.emit(n, "annotation", detail=f"said: {rest_.lstrip(':').strip()}",
                       **h.who(name))
                continue
            for pattern, label in _NOTES:
                if pattern.match(rest_):
                    h.emit(n, "annotation", detail=label, **h.who(name))
                    break
            else:
                if not STATUS_LINE.match(rest_):
                    raise bad_line(n, text)
                h.emit(n, "annotation", detail=f"note: {rest_}", **h.who(name))
        if section != "summary":
            raise SiteHandError(f"line {last}: hand ends without '*** SUMMARY ***' (truncated?)")
        if total_pot is None:
            raise SiteHandError(f"line {last}: the summary has no 'Total pot' line (truncated?)")
        if not collected:
            for at, who, amount in summary_won:
                h.award(at, who, amount, "main")
        refund = h.split_uncalled(last)
        if refund is None:
            started["detail"] = "refunds=implicit"
            refund = 0
        if stud is not None and "bring_in" not in game:
            game["bring_in"] = game["small_bet"] // 2
            started["source"] += _NO_BRING_IN
        if structure == "fixed_limit" and not is_stud:
            sb = next((r["amount"] for r in h.rows if r["kind"] == "post"
                       and r["detail"] == "small_blind"), None)
            game["small_blind"] = sb if sb is not None else low // 2
        end = f"total_pot={total_pot + rake - refund}"
        if pots:
            end += ";pots=" + ",".join(pots)
        h.money_last()
        h.end(last, end)
        return h

    def _post_both(self, pending: dict[str, tuple[int, int]], name: str | None = None,
                   small: int = 0) -> None:
        """`P raises x to y` among the blinds, then `P posts small blind s`: a player posting
        out of turn, y + s in all, of which the table's big blind is live and the rest dead
        (PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt, wmx:6417287-1303-1406683540: the
        others then call the big blind and he checks). A raise among the blinds that no small
        blind follows is a live post of y."""
        h = self.h
        for who in [name] if name else list(pending):
            n, to = pending.pop(who)
            total = to + small
            bb = self.game.get("big_blind") or 0
            live = bb if small and 0 < bb < total else total
            h.post(n, who, "new_player", live, live=True)
            h.rows[-1]["source"] += ";post=written as `raises .. to ..` among the blinds"
            if total > live:
                h.post(n, who, "dead", total - live, live=False)
                h.rows[-1]["source"] += ";post=written as `raises .. to ..` and a small blind"

    def _mark_sitting_out(self, rest: list[tuple[int, str]]
                          ) -> dict[str, tuple[str, str] | None]:
        """A seated player the hand never names (no post, action, card or showdown line) was
        not dealt in: detail sitting_out. Returns the lines split on the way (text -> seated
        player and the rest, or None)."""
        h = self.h
        named: set[str] = set()
        splits: dict[str, tuple[str, str] | None] = {}
        for _, text in rest:
            if text == "*** SUMMARY ***":
                break
            if text.startswith("Dealt to ") and (d := _DEALT.match(text)):
                named.add(d.group(1))
                continue
            sp = splits[text] = split_seated(h, text)
            if sp is not None:
                named.add(sp[0])
        for row in h.rows:
            if row["kind"] == "seat" and row["player"] not in named:
                row["detail"] = "sitting_out"
                h.sitting_out.add(row["seat"])
        return splits

    def _flush_draws(self, draws: dict[str, list[tuple[int, int]]],
                     known: dict[str, tuple[int, str]]) -> None:
        """Pending draws whose new cards the log never showed: `??` each."""
        del known
        for name in list(draws):
            self._draw_cards(draws, name, None)

    def _draw_cards(self, draws: dict[str, list[tuple[int, int]]], name: str,
                    new: list[str] | None) -> None:
        for n, count in draws.pop(name, []):
            cards = new[-count:] if new and len(new) >= count else ["??"] * count
            self.h.emit(n, "deal", cards=" ".join(cards), detail="draw", **self.h.who(name))

class _Stud:
    """Stud streets: each street's `Dealt to` lines, `??` for seats the log deals nothing,
    unknown cards filled from the seven cards a player shows (in the order dealt)."""

    def __init__(self, hand: _Hand, rest: list[tuple[int, str]]) -> None:
        self.hand = hand
        self.h = hand.h
        self.shown: dict[str, list[str]] = {}
        for n, text in rest:
            sp = split_seated(self.h, text)
            if sp and (sh := _SHOW.match(sp[1])):
                cards = quick_cards(sh.group(1), f"line {n}").split(" ")
                if len(cards) == 7:
                    self.shown[sp[0]] = cards
        self.number = 0
        self.line = 0
        self.got: dict[str, list[str]] = {}
        self.pending = False

    def street(self, n: int, number: int) -> None:
        self.flush()
        if number != self.number + 1 and not (self.number == 0 and number == 3):
            raise bad_line(n, f"street {number}", "stud street out of order")
        self.number = number
        self.line = n
        self.got = {}
        self.pending = True
        self.h.new_round()

    def dealt(self, n: int, name: str, groups: str) -> None:
        if not self.pending:
            raise bad_line(n, f"Dealt to {name} {groups}", "stud cards outside a street")
        parts = re.findall(r"\[([^\]]*)\]", groups)
        new = parts[-1].split() if self.number > 3 else parts[0].split()
        self.got[name] = ["??" if c.upper() == "X" else quick_cards(c, f"line {n}") for c in new]

    def flush(self) -> None:
        if not self.pending:
            return
        self.pending = False
        h = self.h
        names = {s: nm for nm, s in h.seat_of.items()}
        count = 3 if self.number == 3 else 1
        first = 0 if self.number == 3 else self.number - 1
        for seat in sorted(h.left):
            if seat in h.sitting_out or seat in h.folded:
                continue
            name = names[seat]
            cards = self.got.get(name, ["??"] * count)
            if len(cards) != count:
                raise SiteHandError(f"line {self.line}: street {self.number} deals {count} "
                                    f"card(s) to {name}, the log {len(cards)}")
            shown = self.shown.get(name)
            if shown:
                cards = [shown[first + k] if c == "??" else c for k, c in enumerate(cards)]
            w: dict[str, Any] = {"seat": seat, "player": name}
            if self.number == 3:
                h.emit(self.line, "deal", cards=" ".join(cards[:2]), detail="down", **w)
                h.emit(self.line, "deal", cards=cards[2], detail="up", **w)
            else:
                h.emit(self.line, "deal", cards=cards[0],
                       detail="down" if self.number == 7 else "up", **w)


# --- the fast path -----------------------------------------------------------------------
# The common hands (flop games; 7-card stud, its streets dealt as `_Stud` deals them; the draw
# games, their discards as `_Hand.map` reads them) read straight into rows of values
# (`FastHand`), value for value as `_Hand.map` reads them; a hand holding anything this path
# does not follow (a line it does not know, a name with a space or a colon, blinds posted out
# of turn, a stud completion written `completes`, an implicit refund, an error of any kind) is
# left to `_Hand.map`, the single source of truth, which alone quarantines.

class _Fallback(Exception):
    """The fast path leaves this hand to the line parser."""


_CARD_GROUPS = re.compile(r"\[([^\]]*)\]")


(_T_ACT, _T_POST, _T_SHOW, _T_MUCK, _T_COLLECT, _T_NOTE, _T_OTHER, _T_BRING, _T_DISCARD,
 _T_PAT) = range(1, 11)
_MOST_DISCARDS = 64  # a discard of more cards is left to the line parser (which refuses it)
_NEGATIVE_RAISE = (";amount=the raise is negative: the total written is the chips added, the "
                   "player's whole stack")
_NO_BRING_IN = ";bring_in=not posted, assumed half the small bet"
_TOKENS: dict[int, dict[str, tuple[Any, ...]]] = {}  # unit -> a line after the name -> read
_TOKENS_MEMO = 8192  # texts remembered (then the memo starts over)
_MEMO_TEXT = 256  # the longest text remembered: memory stays small whatever the lines


def _what_token(what: str, money: Any) -> tuple[Any, ...]:
    """A seated player's line after the name, as `_Hand.map` reads it (its amounts in the
    unit of `money`): (code, ...); `_T_OTHER` when the fast path leaves it to the line parser
    (a line not known, an amount or cards not read, a completion, a chat line). A stud
    bring-in and a draw's discard or stand pat have codes of their own: the line parser
    reads them in those games only, so the fast path leaves them to it in any other."""
    try:
        return _read_what(what, money)
    except SiteHandError:
        return (_T_OTHER,)


def _read_what(what: str, money: Any) -> tuple[Any, ...]:  # noqa: PLR0911 - one per rule
    if (p := _POST.match(what)):
        return (_T_POST, p.group(1), money(p.group("a"), 0), bool(p.group("oop")),
                bool(p.group("allin")))
    if (b := _BRING.match(what)):
        return (_T_BRING, money(b.group("a"), 0))
    if (a := _ACTION.match(what)):
        verb = a.group(1)
        if verb == "completes":
            return (_T_OTHER,)
        if verb in ("folds", "checks"):
            return (_T_OTHER,) if a.group("a") else (_T_ACT, verb, None, None, False)
        if not a.group("a"):
            return (_T_OTHER,)
        amt = money(a.group("a"), 0)
        if verb == "raises":
            if not a.group("to"):
                return (_T_OTHER,)
            return (_T_ACT, verb, amt, money(a.group("to"), 0), bool(a.group("allin")))
        return (_T_ACT, verb, amt, None, bool(a.group("allin")))
    if (dc := _DISCARD.match(what)):
        count = int(dc.group(1))
        if not count:
            return (_T_PAT,)
        if count > _MOST_DISCARDS:
            return (_T_OTHER,)
        cards = quick_cards(dc.group(2), "cards") if dc.group(2) else " ".join(["??"] * count)
        return (_T_DISCARD, count, cards) if len(cards.split(" ")) == count else (_T_OTHER,)
    if _PAT.match(what):
        return (_T_PAT,)
    if (sh := _SHOW.match(what)):
        return (_T_SHOW, quick_cards(sh.group(1), "cards"))
    if (mk := _MUCK.match(what)):
        return (_T_MUCK, quick_cards(mk.group(1), "cards") if mk.group(1) else None)
    if (c := _COLLECT.match(what)):
        pot = c.group("pot")
        label = "main" if pot in ("pot", "main pot") else f"side-{c.group('k') or 1}"
        if c.group("half"):
            label += "/high" if c.group("half").lower() in ("hi", "high") else "/low"
        return (_T_COLLECT, label, money(c.group("a"), 0))
    if what.startswith(":") or what.startswith("said"):
        return (_T_OTHER,)
    for pattern, label in _NOTES:
        if pattern.match(what):
            return (_T_NOTE, label)
    if STATUS_LINE.match(what):
        return (_T_NOTE, f"note: {what}")
    return (_T_OTHER,)


def _fast_winamax(block: list[tuple[int, str]], file_name: str) -> FastHand | None:
    """`_map_winamax(block, file_name)` as a `FastHand`, or None for the line parser."""
    try:
        return _fast_hand(block, file_name)
    except Exception:  # noqa: BLE001 - the line parser reads it (and says what is wrong)
        return None


class _Head(NamedTuple):
    """What a hand's header and table line say, as the fast path reads them."""

    ts: dt.datetime
    note: str
    mpu: int
    game: dict[str, Any]
    low: int
    fixed: bool
    variant: str
    hand_id: str
    table_id: str


def _fast_head(number: int, header: str, table: str, *, stud_draw: bool = False) -> _Head:
    """The header (line `number`) and table line of a flop-game hand (with `stud_draw`, of a
    stud or draw hand too) as `_Hand.map` reads them; `_Fallback` (or any error) for a hand
    the fast path leaves to the line parser."""
    m = _HEADER.match(header)
    if m is None:
        raise _Fallback
    t = _TOURNEY.match(m.group("kind"))
    tournament = t is not None
    variant = _GAMES.get(" ".join(m.group("game").lower().split()))
    if variant is None or (not stud_draw and (variant in _STUD or variant in _DRAW)):
        raise _Fallback
    structure = _STRUCTURES[m.group("structure").lower()]
    stud = variant in _STUD
    if stud and structure != "fixed_limit":
        raise _Fallback
    tb = _TABLE.match(table)
    if tb is None:
        raise _Fallback
    play = tb.group("money") == "play"
    mpu = 1 if tournament else 100
    currency = "CHIPS" if tournament or play else "EUR"
    stakes_text = m.group("stakes")
    if tournament and "€" in stakes_text:
        currency, mpu = "EUR", 100
    ts, note = _header_time(m.group("date"), m.group("zone"), number, header)
    if play:
        note += ";currency=play money"
    if t is not None:
        note += f";tournament={t.group('name')};buyin={t.group('buyin')}"
    money = _AMOUNTS.of(mpu)
    stakes = [money(x, number) for x in stakes_text.split("/")]
    if not 2 <= len(stakes) <= 3:
        raise _Fallback
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency,
        "minor_per_unit": mpu, "tournament": tournament,
        "level": int(t.group("level")) if t else None,
        "seat_count": int(tb.group("max")), "ante": 0,
    }
    low, high = stakes[-2], stakes[-1]
    if len(stakes) == 3:
        game["ante"] = stakes[0]
    fixed = structure == "fixed_limit"
    if stud:  # no blinds, no button: the bring-in is read from its post
        game.update(small_bet=low, big_bet=high)
    elif fixed:
        game.update(small_bet=low, big_bet=high, big_blind=low)
    else:
        game.update(small_blind=low, big_blind=high)
    button = int(tb.group("button")) if tb.group("button") else 0
    if not stud:
        if not button:
            raise _Fallback
        game["button_seat"] = button
    return _Head(ts, note, mpu, game, low, fixed, variant, f"wmx:{m.group('id')}",
                 tb.group("name"))


def _fast_hand(block: list[tuple[int, str]], file_name: str) -> FastHand:  # noqa: C901, PLR0912, PLR0915
    number, header = block[0]
    body = [(n, x) for n, x in block[1:] if x.strip()]
    head = _fast_head(number, header, body[0][1], stud_draw=True)
    ts, note, mpu, game, low, fixed, variant = head[:7]
    is_stud = variant in _STUD
    is_draw = variant in _DRAW
    money = _AMOUNTS.of(mpu)
    rows: list[tuple[Any, ...]] = [("hand_started", None, None, None, None, None, None,
                                    number, note)]
    append = rows.append
    seat_of: dict[str, int] = {}
    left: dict[int, int] = {}
    seat_row: dict[int, int] = {}
    i = 1
    size = len(body)
    while i < size and (s := _SEAT.match(body[i][1])):
        n = body[i][0]
        seat, name = int(s.group(1)), s.group(2)
        if not 1 <= seat <= 127 or seat in left or name in seat_of:
            raise _Fallback
        stack = money(s.group("stack"), n)
        seat_of[name] = seat
        left[seat] = stack
        seat_row[seat] = len(rows)
        append(("seat", seat, name, stack, None, None, None, n, ""))
        i += 1
    if not seat_of:
        raise _Fallback
    rest = body[i:]
    # the players the hand deals in (`_mark_sitting_out`), and the lines split on the way
    named: set[str] = set()
    splits: dict[str, tuple[str, str] | None] = {}
    simple = not any(" " in name or ":" in name for name in seat_of)
    by_word: dict[str, list[str]] = {}
    if not simple:
        for name in sorted(seat_of, key=len, reverse=True):
            word = name.partition(" ")[0]
            by_word.setdefault(word.partition(":")[0] if ":" in word else word, []).append(
                name)

    def seated(text: str) -> tuple[str, str] | None:
        """`split_seated`: the longest seated name the line starts with, then its end, a
        space or a colon; None when no seated name starts it."""
        word = text.partition(" ")[0]
        if ":" in word:
            word = word.partition(":")[0]
        if simple:
            return (word, text[len(word):].lstrip(" ")) if word in seat_of else None
        for name in by_word.get(word, ()):
            length = len(name)
            if text.startswith(name) and (length == len(text) or text[length] in " :"):
                return (name, text[length:].lstrip(" "))
        return None

    for _, text in rest:
        if text == "*** SUMMARY ***":
            break
        if text.startswith("Dealt to ") and (d := _DEALT.match(text)):
            named.add(d.group(1))
            continue
        split = splits[text] = seated(text)
        if split is not None:
            named.add(split[0])
    sitting_out: set[int] = set()
    for seat_name, seat in seat_of.items():
        if seat_name not in named:
            k = seat_row[seat]
            rows[k] = rows[k][:6] + ("sitting_out", rows[k][7], "")
            sitting_out.add(seat)
    known: dict[str, tuple[int, str]] = {}
    # stud (`_Stud`): the seven cards each player shows, in the order dealt
    stud_shown: dict[str, list[str]] = {}
    for n, text in rest:
        if is_stud:
            # (a line that does not hold `shows [` cannot be a show once its name is split)
            sp = None if "shows [" not in text else splits[text] if text in splits else \
                seated(text)
            if sp and (sh := _SHOW.match(sp[1])):
                seven = quick_cards(sh.group(1), f"line {n}").split(" ")
                if len(seven) == 7:
                    stud_shown[sp[0]] = seven
        elif text.startswith("Dealt to ") and (d := _DEALT.match(text)) and \
                d.group(1) in seat_of and d.group(1) not in known:
            known[d.group(1)] = (n, quick_cards(_CARD_GROUPS.findall(d.group(2))[0],
                                                f"line {n}"))
    section = "pre"
    holes_dealt = False
    hole: dict[int, str] = {}
    total_pot: int | None = None
    pots: list[str] = []
    rake = 0
    collected = False
    summary_won: list[tuple[int, str, int]] = []
    shown: set[str] = set()
    last = number
    rnd: dict[int, int] = {}
    last_round: dict[int, int] | None = None
    holes = _HOLES.get(variant, 0)
    name_at = {s: nm for nm, s in seat_of.items()}
    folded: set[int] = set()
    street = 0  # stud: the street being dealt (`_Stud`)
    street_line = 0
    street_got: dict[str, list[str]] = {}
    street_pending = False
    draws: dict[str, list[tuple[int, int]]] = {}  # draw: player -> [(line, count)] pending

    def new_round() -> None:
        nonlocal rnd, last_round
        if rnd:
            last_round = dict(rnd)
        rnd = {}

    def deal_street() -> None:
        """`_Stud.flush`: the street's cards to each player still in, `??` when the log
        deals him nothing, filled from the seven cards he shows."""
        nonlocal street_pending
        if not street_pending:
            return
        street_pending = False
        count = 3 if street == 3 else 1
        first = 0 if street == 3 else street - 1
        for seat in sorted(left):
            if seat in sitting_out or seat in folded:
                continue
            who = name_at[seat]
            cards = street_got.get(who, ["??"] * count)
            if len(cards) != count:
                raise _Fallback
            seven = stud_shown.get(who)
            if seven:
                cards = [seven[first + k] if c == "??" else c for k, c in enumerate(cards)]
            if street == 3:
                append(("deal", seat, who, None, None, " ".join(cards[:2]), "down",
                        street_line, ""))
                append(("deal", seat, who, None, None, cards[2], "up", street_line, ""))
            else:
                append(("deal", seat, who, None, None, cards[0],
                        "down" if street == 7 else "up", street_line, ""))

    def draw_cards(who: str, new: list[str] | None) -> None:
        """`_Hand._draw_cards`: a player's pending draws dealt, `??` when not shown."""
        for at, count in draws.pop(who, []):
            cards = new[-count:] if new and len(new) >= count else ["??"] * count
            append(("deal", seat_of[who], who, None, None, " ".join(cards), "draw", at, ""))

    def flush_draws() -> None:
        for who in list(draws):
            draw_cards(who, None)

    def deal_holes(n: int) -> None:
        nonlocal holes_dealt
        if holes_dealt or is_stud:
            return
        holes_dealt = True
        unknown = (n, " ".join(["??"] * HOLE_COUNT.get(variant, 2)))
        for seat in sorted(left):
            if seat in sitting_out:
                continue
            who = name_at[seat]
            at, cards = known.get(who, unknown)
            hole[seat] = cards
            append(("deal", seat, who, None, None, cards, "hole", at, ""))
        for cards in hole.values():
            if len(cards.split(" ")) != holes:
                raise _Fallback

    def post(n: int, name: str, seat: int, detail: str, amount: int, live: bool) -> None:
        left[seat] -= amount
        total = None
        if live:
            total = rnd.get(seat, 0) + amount
            rnd[seat] = total
        append(("post", seat, name, amount, total, None, detail, n, ""))

    tokens = _TOKENS.get(mpu)
    if tokens is None:
        tokens = _TOKENS[mpu] = {}
    for n, text in rest:
        last = n
        if section == "summary":
            if (tp := _TOTAL.match(text)) and total_pot is None:
                total_pot = money(tp.group("a"), n)
                for kind_, k, amount in _POT_PART.findall(tp.group("pots")):
                    label = "main" if kind_ == "Main" else f"side-{k or 1}"
                    pots.append(f"{label}:{money(amount, n)}")
                if tp.group("r"):
                    rake = money(tp.group("r"), n)
                    if rake:
                        append(("rake", None, None, rake, None, None, "rake", n, ""))
            elif (ss := _SUMMARY_SEAT.match(text)):
                listed = int(ss.group(1))
                names = [p for p, q in seat_of.items() if q == listed]
                won = _SUMMARY_WON.search(text)
                if won and names:
                    summary_won.append((n, names[0], money(won.group("a"), n)))
            elif not text.startswith("Board: ["):
                raise _Fallback
            continue
        if text == "*** SUMMARY ***":
            deal_street()
            flush_draws()
            section = "summary"
            continue
        if text == "*** ANTE/BLINDS ***":
            continue
        if text == "*** PRE-FLOP ***":
            deal_holes(n)
            section = "play"
            continue
        if text == "*** SHOW DOWN ***":
            deal_street()
            flush_draws()
            deal_holes(n)
            section = "showdown"
            continue
        stars = text.startswith("*** ")
        if stars and (st := _STREET.match(text)):
            deal_holes(n)
            cards = quick_cards(_CARD_GROUPS.findall(st.group(2))[-1], f"line {n}")
            new_round()
            append(("deal", None, None, None, None, cards, "board", n, ""))
            section = "play"
            continue
        if stars and is_stud and (ss2 := _STUD_STREET.match(text)):
            deal_street()
            number = _STUD_NUMBER[ss2.group(1).lower()]
            if number != street + 1 and not (street == 0 and number == 3):
                raise _Fallback  # a street out of order: the line parser refuses the hand
            street, street_line, street_got, street_pending = number, n, {}, True
            new_round()
            section = "play"
            continue
        if stars and is_draw and (ds := _DRAW_STREET.match(text)):
            deal_holes(n)
            flush_draws()
            if ds.group(2) == "BET" and ds.group(1) != "FIRST":
                new_round()
            section = "play"
            continue
        if text.startswith("Dealt to ") and (d := _DEALT.match(text)) and \
                d.group(1) in seat_of:
            if is_stud:
                if not street_pending:
                    raise _Fallback  # stud cards outside a street
                parts = _CARD_GROUPS.findall(d.group(2))
                new = parts[-1].split() if street > 3 else parts[0].split()
                street_got[d.group(1)] = ["??" if c.upper() == "X" else
                                          quick_cards(c, f"line {n}") for c in new]
            elif is_draw and holes_dealt:
                groups = _CARD_GROUPS.findall(d.group(2))
                if d.group(1) in draws and len(groups) == 2:
                    draw_cards(d.group(1), quick_cards(groups[1], f"line {n}").split(" "))
            continue
        if street_pending:
            deal_street()
        split = splits[text] if text in splits else None
        if split is None:
            raise _Fallback  # a note on someone not seated, or a line not known
        name, what = split
        seat = seat_of[name]
        tok = tokens.get(what)
        if tok is None:
            tok = _what_token(what, money)
            if len(what) <= _MEMO_TEXT:
                if len(tokens) >= _TOKENS_MEMO:
                    tokens.clear()
                tokens[what] = tok
        code = tok[0]
        if code == _T_ACT:
            _, verb, amt, to, all_in = tok
            if section == "pre" and verb == "raises":
                raise _Fallback  # blinds posted out of turn: the line parser reads them
            deal_holes(n)
            if is_draw:
                flush_draws()
            if verb == "folds" or verb == "checks":
                if verb == "folds":
                    folded.add(seat)
                append(("fold" if verb == "folds" else "check", seat, name, None, None, None,
                        None, n, ""))
                continue
            before = rnd.get(seat, 0)
            if verb == "raises":
                stack = left[seat]
                if amt < 0 and to == stack:  # the chips added written as the total
                    total = before + to
                    left[seat] = stack - to
                    append(("raise" if total > max(rnd.values(), default=0) else "call",
                            seat, name, to, total, None, "all_in", n, _NEGATIVE_RAISE))
                    rnd[seat] = total
                    continue
                added = to - before
                if added < 0:
                    raise _Fallback
                kind = "raise"
                if is_stud and street == 3 and to <= game["small_bet"] and \
                        max(rnd.values(), default=0) == game.get("bring_in"):
                    kind = "complete"  # 3rd street, over the bring-in up to the small bet
            else:
                added = amt
                kind = "call" if verb == "calls" else "bet"
            stack = left[seat]
            left[seat] = stack - added
            total = before + added
            rnd[seat] = total
            append((kind, seat, name, added, total, None,
                    "all_in" if all_in or (added > 0 and added == stack) else None, n, ""))
            continue
        if code == _T_POST:
            _, verb, amt, oop, all_in = tok
            if verb == "small blind":
                post(n, name, seat, "dead" if oop else "small_blind", amt, not oop)
            elif verb == "big blind":
                post(n, name, seat, "new_player" if oop else "big_blind", amt, True)
            elif verb.startswith("small"):  # both blinds: the big blind live, the rest dead
                bb = game.get("big_blind") or amt
                post(n, name, seat, "new_player", min(bb, amt), True)
                if amt > bb:
                    post(n, name, seat, "dead", amt - bb, False)
            elif verb == "ante":
                post(n, name, seat, "ante", amt, False)
                game["ante"] = game["ante"] or amt
            else:
                post(n, name, seat, "straddle", amt, True)
                game["straddle"] = amt
            if all_in:
                rows[-1] = rows[-1][:8] + (rows[-1][8] + ";all_in",)
            continue
        if code == _T_BRING and is_stud:
            game.setdefault("bring_in", tok[1])
            post(n, name, seat, "bring_in", tok[1], True)
            continue
        if code == _T_DISCARD and is_draw:
            append(("draw", seat, name, tok[1], None, tok[2], None, n, ""))
            draws.setdefault(name, []).append((n, tok[1]))
            continue
        if code == _T_PAT and is_draw:
            append(("stand_pat", seat, name, None, None, None, None, n, ""))
            continue
        if code == _T_SHOW:
            if name not in shown:
                shown.add(name)
                append(("show", seat, name, None, None, tok[1], None, n, ""))
            continue
        if code == _T_MUCK:
            append(("muck", seat, name, None, None, tok[1] if tok[1] is not None else
                    None if is_draw else known_cards(hole.get(seat)), None, n, ""))
            continue
        if code == _T_COLLECT:
            append(("award", seat, name, tok[2], None, None, tok[1], n, ""))
            collected = True
            continue
        if code == _T_NOTE:
            append(("annotation", seat, name, None, None, None, tok[1], n, ""))
            continue
        raise _Fallback
    if section != "summary" or total_pot is None:
        raise _Fallback
    if not collected:
        for at, who, amount in summary_won:
            append(("award", seat_of[who], who, amount, None, None, "main", at, ""))
    rows, refund = _split_uncalled(rows, dict(rnd) if rnd else dict(last_round or {}), last)
    if is_stud and "bring_in" not in game:
        game["bring_in"] = game["small_bet"] // 2
        rows[0] = rows[0][:8] + (rows[0][8] + _NO_BRING_IN,)
    elif fixed and not is_stud:
        sb = next((r[3] for r in rows if r[0] == "post" and r[6] == "small_blind"), None)
        game["small_blind"] = sb if sb is not None else low // 2
    end = f"total_pot={total_pot + rake - refund}"
    if pots:
        end += ";pots=" + ",".join(pots)
    rows = _money_last(rows)
    rows.append(("hand_ended", None, None, None, None, None, end, last, ""))
    return FastHand(head.hand_id, head.table_id, ts, game, rows, f"winamax:{file_name}:")


def _split_uncalled(rows: list[tuple[Any, ...]], last_round: dict[int, int], line: int
                    ) -> tuple[list[tuple[Any, ...]], int]:
    """`RoundsHand.split_uncalled` on row tuples (`uncalled_split`): (rows, the refund); an
    implicit refund (the collections hold less) is left to the line parser."""
    at = [k for k, r in enumerate(rows) if r[0] == "award"]
    split = uncalled_split(last_round, [(rows[k][1], rows[k][3]) for k in at])
    if split is None:
        raise _Fallback
    if not split.refund:
        return rows, 0
    for k, amount in zip(at, split.amounts, strict=True):
        r = rows[k]
        rows[k] = r[:3] + (amount,) + r[4:]
    player = rows[at[split.first]][2]
    rows = [r for r in rows if not (r[0] == "award" and r[3] == 0)]
    rows.append(("award", split.seat, player, split.refund, None, None, "uncalled", line, ""))
    return rows, split.refund


def _money_last(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """`SiteHand.money_last` on row tuples: the awards (pot by pot) and then the rake after
    the rest of the hand."""
    money = [k for k, r in enumerate(rows) if r[0] in ("award", "rake")]
    if not money:
        return rows
    pot_order: dict[int, int] = {}

    def pot(k: int) -> tuple[int, int]:
        r = rows[k]
        if r[0] == "rake":
            return (1 << 30, 0 if r[6] != "jackpot" else 1)
        base = (r[6] or "main").split("/")[0].split("@")[0]
        num = int(base[5:]) if base.startswith("side-") and base[5:].isdigit() else 0
        return (pot_order.setdefault(num, len(pot_order)), 0)

    ordered = sorted(money, key=lambda k: (pot(k), k))
    moved = set(money)
    return [r for k, r in enumerate(rows) if k not in moved] + [rows[k] for k in ordered]


def _map_winamax(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    return _Hand(block, file_name).map()


# A file smaller than this is read by the Python fast path alone. A Winamax file of one hand
# is already read faster by the compiled pass (~0.39 ms against ~0.44 ms), so every plain file
# takes it.
COMPILED_MIN_BYTES = 0


class WinamaxImporter(SiteTextImporter):
    """Winamax text files: recognised by a `Winamax Poker - ... - HandId: #` line near the top,
    read hand by hand."""

    name = "winamax"
    sniff_re = _SNIFF
    header_line = _HEADER_LINE
    map_hand = staticmethod(_map_winamax)
    hand_id_of = staticmethod(_wmx_hand_id)

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True,
                 compiled: bool = True, compiled_min_bytes: int = COMPILED_MIN_BYTES) -> None:
        super().__init__(chunk_hands)
        self.fast = fast
        self.compiled = compiled
        self.compiled_min_bytes = compiled_min_bytes

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each: the common hands
        by the compiled pass (`winamax_kernel`, a file read whole when it is plain) or the
        fast path (`_fast_winamax`), the others by the line parser (`_Hand.map`)."""
        fast = whole_hands(_fast_winamax if self.fast else None)
        if self.fast and self.compiled:
            from audit.importers.compiledtext import read_room  # numba's, loaded on first use

            chunks = read_room(path, "audit.importers.winamax_compiled", fmt="winamax",
                               chunk_hands=self.chunk_hands, fast=fast, map_hand=_map_winamax,
                               hand_id_of=_wmx_hand_id, min_bytes=self.compiled_min_bytes)
            if chunks is not None:
                yield from chunks
                return
        yield from read_columns(path, header=_HEADER_LINE, chunk_hands=self.chunk_hands,
                                map_hand=_map_winamax, hand_id_of=_wmx_hand_id, fast=fast)


IMPORTER = WinamaxImporter()
