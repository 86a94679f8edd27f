"""GGPoker (GGNetwork) text hand histories imported as events.

A hand starts at a `Poker Hand #<id>: ` line and runs to the next one (PokerStars-like text,
but not PokerStars: no `PokerStars` word, player names hashed, GG's own game names). The reader
streams the file line by line (UTF-8 with or without a BOM, cp1252, UTF-16), keeps one hand's
lines at a time, maps it, and yields a `Chunk` of about 5,000 whole hands. A hand with a line
it does not know is quarantined whole (file, line, the offending line, the reason, the raw
text); the rest of the file continues. A file of 4 KB or more is read by a compiled pass first
(ggpoker_kernel.py, numba: the common hands straight from the bytes into event columns,
39 µs a hand against 189 µs; tests/importers/test_ggpoker_compiled.py: the same chunks as the
line parser), every hand it does not fully read by the Python fast path and the line parser.
The common hands are otherwise read by a fast path (`_fast_gg`:
each line read once per text, rows of values, no dict per event, one Arrow conversion per
chunk); any hand it does not follow to the end goes to the line parser (`_map_gg`), the single
source of truth (tests/importers/test_site_fast_paths.py: both give the same chunks).

Mapping (GG line -> events; money exact: `Decimal` -> integer minor units):

* header `Poker Hand #<id>: <game> (<stakes>) - yyyy/mm/dd hh:mm:ss` (cash) or `Poker Hand
  #<id>: Tournament #<t>, <name> <game> - Level<k>(<sb>/<bb>[(<ante>)]) - yyyy/mm/dd
  hh:mm:ss` -> hand_started: hand_id `gg:<id>` (the id keeps its letters: `RC`, `OM`, `SD`,
  `TM`, ...), ts (the time as written, read as UTC: the log names no zone). Games: `Hold'em`
  / `NLH` -> holdem, `PLO` / `Omaha` -> omaha, `PLO-5` / `5 Card Omaha` -> omaha5, `PLO-6` /
  `6 Card Omaha` -> omaha6, `... Hi/Lo` / `PLO8` -> the hi-lo variant, `ShortDeck` -> holdem_short
  (GG's short deck ranks a straight above three of a kind, as its hands show). Structures: `No
  Limit`, `Pot Limit` (the PLO names), `Limit`, `(NL postflop)` (Omaha: pot limit before the
  flop, no limit after) -> no_limit (the replay holds no mixed structure; the pot-limit
  cap before the flop is not judged). Currency `$` -> USD/100
  (cash), tournaments CHIPS/1. Short deck: the stake is the ante and the button blind
  (big_blind = ante = stake).
* `Table 'NAME' N-max Seat #B is the button` -> table_id (tournaments `<t> NAME`), seat_count,
  button_seat. `Seat N: name ($x in chips)` -> seat.
* posts: `posts the ante x` -> ante, `posts small blind x` -> small_blind, `posts big blind x`
  -> big_blind, `posts missed blind x` -> dead, `posts button blind x` -> button_blind,
  `straddle x` -> straddle (x is the straddler's round total: amount = x minus what he has in).
* `Dealt to P [cards]` / `Dealt to P` -> deal/hole (`??` when not shown); a seated player
  the hand neither deals to nor hears from is sitting out (seat detail sitting_out).
* `folds`, `checks`, `calls x`, `bets x`, `raises x to y` (`and is all-in` -> all_in).
* `*** FLOP|TURN|RIVER ***` -> deal/board; run it twice / three times: `*** FIRST|SECOND|THIRD
  FLOP|TURN|RIVER ***` -> the first run as the board, the others as `board@run2` /
  `board@run3` with the cards that differ from the first run.
* `shows [cards] (...)` -> show; `mucks [cards]` / `mucks` -> muck.
* `Uncalled bet (x) returned to P` -> award uncalled; `P collected x from pot` -> award main
  (`main@runN` under the N-th `*** ... SHOWDOWN ***`); the awards follow the play (GG logs an
  uncalled bet's return before the shows and the rest of an all-in board).
* summary `Total pot x | Rake r | Jackpot j | Bingo b | Fortune f | Tax t` -> hand_ended
  `total_pot=x`, rake events (rake: `rake`, Jackpot: `jackpot`, the others `fee`; only those
  above 0). `Board [..]`, `Seat N: ...`, `Hand was run two times` are layout.
* a bomb pot (no blind, no preflop action, the flop dealt to players with chips) is
  quarantined naming it (the replay has no hand that starts on the flop).
* all-in insurance / EV cash-out lines (`Chooses to EV Cashout`, `Pays Cashout Risk (x)`,
  `Receives Cashout (x)`) -> annotation `cash_out` (the pot itself is paid as logged).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from audit.importers.base import Chunk
from audit.importers.columns import FastHand, read_columns, whole_hands
from audit.importers.fasttext import Amounts, quick_cards, split_seated
from audit.importers.sitetext import (
    CHUNK_HANDS,
    CURRENCY_SYMBOLS,
    HOLE_COUNT,
    SiteHand,
    SiteHandError,
    SiteTextImporter,
    bad_line,
)

_HEADER = re.compile(r"^\ufeff?Poker Hand #([A-Za-z]*\d+): ")
_SNIFF = re.compile(r"(?m)^\ufeff?Poker Hand #[A-Za-z]*\d+: ")
_CLOCK = re.compile(r" - (\d{4})/(\d\d)/(\d\d) (\d{1,2}):(\d\d):(\d\d)(?: [A-Z]{1,5})?$")
_M = r"([$€£]?[0-9][0-9,.]*)"
_CASH_STAKES = re.compile(r"^(?P<game>.+?) \((?P<sb>[$€£]?[0-9][0-9,.]*)"
                          r"(?:/(?P<bb>[$€£]?[0-9][0-9,.]*))?(?: - [^)]*)?\)$")
_TOURNEY = re.compile(r"^Tournament #(?P<tid>\d+), (?P<name>.+) - Level ?(?P<level>\d+) ?"
                      r"\((?P<sb>[0-9][0-9,.]*)/(?P<bb>[0-9][0-9,.]*)"
                      r"(?:\((?P<ante>[0-9][0-9,.]*)\))?\)$")
_TABLE = re.compile(r"^Table '(?P<name>.*)' (?:(?P<max>\d+)-max )?Seat #(?P<button>\d+) is the "
                    r"button$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \(([$€£]?[0-9][0-9,.]*) in chips\)"
                   r"(?: is sitting out| out of hand)?$")
_SEAT_OUT = re.compile(r" (?:is sitting out|out of hand)$")
_DEALT = re.compile(r"^Dealt to (.+?)(?: \[([^\]]*)\])?$")
_STREET = re.compile(r"^\*\*\* (?:(FIRST|SECOND|THIRD) )?(FLOP|TURN|RIVER) \*\*\* +"
                     r"(\[[^\]]*\])(?: (\[[^\]]*\]))?$")
_SHOWDOWN = re.compile(r"^\*\*\* (?:(FIRST|SECOND|THIRD) )?SHOW ?DOWN \*\*\*$")
_UNCALLED = re.compile(r"^Uncalled bet \(" + _M + r"\) returned to (.+)$")
_COLLECTED = re.compile(r"^(.+?) collected " + _M + r" from (?:the )?(?:main |side )?pot"
                        r"(?:-?\d+)?$")
_TOTAL = re.compile(r"^Total pot " + _M + r"(?P<rest>(?: \| [A-Za-z ]+ [$€£]?[0-9][0-9,.]*)*)$")
_FEE = re.compile(r" \| ([A-Za-z ]+?) ([$€£]?[0-9][0-9,.]*)")
_ACTION = re.compile(r"^(folds|checks|calls|bets|raises)(?: " + _M + r")?(?: to " + _M + r")?"
                     r"( and is all-in)?$")
_POST = re.compile(r"^(posts the ante|posts small blind|posts big blind|posts missed blind|"
                   r"posts button blind|posts straddle|straddle|posts dead blind) " + _M +
                   r"( and is all-in)?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\](?: \(.*\))?$")
_MUCK = re.compile(r"^mucks(?: hand)?(?: \[([^\]]*)\])?(?: \(.*\))?$")
_LAYOUT = re.compile(r"^(?:Board \[[^\]]*\]|(?:FIRST|SECOND|THIRD)(?: Board \[[^\]]*\])?|"
                     r"Hand was run (?:two|three|\w+) times|Seat \d+: .*)$")
_NOTES = [
    (re.compile(r"^(?:Chooses to EV Cashout|Pays Cashout Risk \(.*\)|Receives Cashout \(.*\)|"
                r"Pays insurance.*|Receives insurance.*)$", re.I), "cash_out"),
    (re.compile(r"^(?:sits out|is sitting out|sitting out)$"), "sits_out"),
    (re.compile(r"^(?:is disconnected|has been disconnected)$"), "disconnected"),
    (re.compile(r"^(?:is connected|has reconnected)$"), "reconnected"),
    (re.compile(r"^has timed out(?: .*)?$"), "timed_out"),
    (re.compile(r"^(?:joins the table|leaves the table)(?: .*)?$"), "table_change"),
    (re.compile(r"^doesn't show hand$"), "no_show"),
]
_RUNS = {None: 1, "FIRST": 1, "SECOND": 2, "THIRD": 3}
# GG's game names: (words, variant, structure or None when a structure word follows/precedes)
_GAME_WORDS = [
    ("shortdeck", "holdem_short"), ("short deck", "holdem_short"),
    ("plo-6 hi/lo", "omaha6_hilo"), ("plo-5 hi/lo", "omaha5_hilo"),
    ("plo-6", "omaha6"), ("plo-5", "omaha5"), ("plo6", "omaha6"), ("plo5", "omaha5"),
    ("plo8", "omaha_hilo"), ("plo hi/lo", "omaha_hilo"), ("plo", "omaha"),
    ("6 card omaha hi/lo", "omaha6_hilo"), ("5 card omaha hi/lo", "omaha5_hilo"),
    ("6 card omaha", "omaha6"), ("5 card omaha", "omaha5"),
    ("omaha hi/lo", "omaha_hilo"), ("omaha", "omaha"),
    ("hold'em", "holdem"), ("holdem", "holdem"), ("nlh", "holdem"),
]
_STRUCTURES = [("(nl postflop)", "no_limit"), ("no limit", "no_limit"),
               ("pot limit", "pot_limit"), ("fixed limit", "fixed_limit"),
               ("limit", "fixed_limit"), ("nlh", "no_limit"), ("plo", "pot_limit")]
_HOLE = {"holdem": 2, "holdem_short": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5,
         "omaha5_hilo": 5, "omaha6": 6, "omaha6_hilo": 6}
_FEE_KINDS = {"rake": "rake", "jackpot": "jackpot"}
_GAMES_READ: dict[str, tuple[str, str]] = {}  # game words already read
_AMOUNTS = Amounts()
# the first words of a seated player's `name: ...` line, by what it can be (a cheap test
# before the pattern that decides)
_POST_START = ("posts ", "straddle ")
_ACTION_START = ("folds", "checks", "calls", "bets", "raises")


def _game(text: str, number: int, header: str) -> tuple[str, str]:
    """(variant, structure) of a header's game words (`PLO-5`, `Hold'em No Limit`, ...)."""
    known = _GAMES_READ.get(text)
    if known is not None:
        return known
    low = text.lower()
    variant = None
    for words, v in _GAME_WORDS:
        if re.search(r"(?:^|[\s$])" + re.escape(words) + r"(?:$|[\s(])", low):
            variant = v
            break
    if variant is None:
        raise bad_line(number, header, f"unsupported GGPoker game {text!r}")
    structure = next((s for w, s in _STRUCTURES if w in low), None)
    if structure is None:
        raise bad_line(number, header, f"no betting structure in the game {text!r}")
    if len(_GAMES_READ) < 1024:
        _GAMES_READ[text] = (variant, structure)
    return variant, structure


class _Header(NamedTuple):
    """What a hand's first line says."""

    hand_no: str
    ts: dt.datetime
    tournament: str | None
    level: int | None
    variant: str
    structure: str
    currency: str
    mpu: int
    small_blind: int
    big_blind: int
    ante: int


def _read_header(number: int, header: str) -> _Header:
    """The first line of a hand (`Poker Hand #...`), read; a SiteHandError when it is not
    understood."""
    m = _HEADER.match(header)
    assert m
    hand_no = m.group(1)
    rest = header[m.end():].strip()
    c = _CLOCK.search(rest)
    if not c:
        raise bad_line(number, header, "header without a date and time")
    try:
        y, mo, d, hh, mi, ss = (int(x) for x in c.groups())
        ts = dt.datetime(y, mo, d, hh, mi, ss, tzinfo=dt.UTC)
    except ValueError:
        raise bad_line(number, header, "invalid date or time") from None
    rest = rest[:c.start()]
    tournament = None
    level = None
    if (t := _TOURNEY.match(rest)):
        tournament = t.group("tid")
        level = int(t.group("level"))
        game_words = t.group("name")
        sb_s, bb_s, ante_s = t.group("sb"), t.group("bb"), t.group("ante")
    elif (k := _CASH_STAKES.match(rest)):
        game_words = k.group("game")
        sb_s, bb_s, ante_s = k.group("sb"), k.group("bb"), None
    else:
        raise bad_line(number, header, "header stakes not understood")
    variant, structure = _game(game_words, number, header)
    symbol = next((ch for ch in sb_s if ch in "$€£"), "")
    if tournament is not None or not symbol:
        currency, mpu = "CHIPS", 1 if tournament is not None else 100
    else:
        currency, mpu = CURRENCY_SYMBOLS[symbol], 100

    money = _AMOUNTS.of(mpu)
    if bb_s is None:  # `ShortDeck No Limit ($0.02)`: one stake, the ante and button blind
        if variant != "holdem_short":
            raise bad_line(number, header, "one stake for a game with two blinds")
        stake = money(sb_s, number)
        sb, bb, ante = 0, stake, stake
    else:
        sb, bb = money(sb_s, number), money(bb_s, number)
        ante = money(ante_s, number) if ante_s else 0
    return _Header(hand_no, ts, tournament, level, variant, structure, currency, mpu, sb, bb,
                   ante)


def _map_gg(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    number, header = block[0]
    hand_no, ts, tournament, level, variant, structure, currency, mpu, sb, bb, ante = \
        _read_header(number, header)
    money = _AMOUNTS.of(mpu)
    short = variant == "holdem_short"
    body = [(n, line) for n, x in block[1:] if (line := x.strip())]
    if not body or not (tb := _TABLE.match(body[0][1])):
        raise SiteHandError(f"line {number}: no \"Table 'NAME' ... is the button\" line")
    table = tb.group("name")
    h = SiteHand(fmt="ggpoker", file_name=file_name, hand_id=f"gg:{hand_no}",
                 table_id=f"{tournament} {table}" if tournament else table)
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency, "minor_per_unit": mpu,
        "tournament": tournament is not None, "level": level, "ante": ante,
        "small_blind": sb, "big_blind": bb, "button_seat": int(tb.group("button")),
        "seat_count": int(tb.group("max")) if tb.group("max") else None,
    }
    if structure == "fixed_limit":  # limit stakes are the bets, PokerStars-like: the small
        # bet is the big blind, the small blind half of it (read from the post when there is one)
        game.update(small_bet=sb, big_bet=bb, big_blind=sb, small_blind=sb // 2)
    started = h.emit(number, "hand_started", ts=ts, game=game)
    i = 1
    while i < len(body) and (s := _SEAT.match(body[i][1])):
        n, text = body[i]
        h.add_seat(n, int(s.group(1)), s.group(2), money(s.group(3), n),
                   bool(_SEAT_OUT.search(text)))
        i += 1
    if not h.seat_of:
        raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
    body = body[i:]
    known: dict[str, tuple[int, str]] = {}
    dealt_to: set[str] = set()
    active: set[str] = set()  # players with a `name: ...` line (a post, an action, a show)
    seat_of = h.seat_of
    for n, text in body:
        if text.startswith("Dealt to ") and (dm := _DEALT.match(text)) and \
                dm.group(1) in seat_of:
            dealt_to.add(dm.group(1))
            if dm.group(2):
                known[dm.group(1)] = (n, quick_cards(dm.group(2), f"line {n}"))
        elif (name := text.partition(": ")[0]) in seat_of:
            active.add(name)
    if dealt_to:  # GG names every player dealt in: a seat it never deals nor hears is out
        for name, seat in h.seat_of.items():
            if name not in dealt_to and name not in active and seat not in h.sitting_out:
                h.sitting_out.add(seat)
                seat_row = next(r for r in h.rows if r["kind"] == "seat" and r["seat"] == seat)
                seat_row["detail"] = "sitting_out"
    section = "pre"  # pre (posts) -> play -> showdown -> summary
    run = 1
    # what the house pushed, written after the play (the log returns an uncalled bet before
    # the shows and the rest of an all-in board: the order of the pushes is not play)
    awards: list[tuple[int, str, int, str]] = []
    state = _Posts()
    total_pot: int | None = None
    fees: list[tuple[int, str, int]] = []
    last = number
    for n, text in body:
        last = n
        if section == "summary":
            if (tp := _TOTAL.match(text)):
                total_pot = money(tp.group(1), n)
                for word, amt_s in _FEE.findall(tp.group("rest")):
                    amt = money(amt_s, n)
                    if amt:
                        fees.append((n, _FEE_KINDS.get(word.strip().lower(), "fee"), amt))
                continue
            if _LAYOUT.match(text):
                continue
            if text.lower().startswith("cash drop"):
                raise bad_line(n, text, "unsupported GGPoker feature: Cash Drop (house money "
                               "added to the pot)")
            raise bad_line(n, text, "unknown summary line")
        name, colon, what = text.partition(": ")
        if colon and name in seat_of:
            _player_line(h, n, text, name, what, section, money, game, short, state)
            continue
        if text.startswith("Dealt to "):
            continue
        stars = text.startswith("*** ")  # the streets, the showdown, the summary
        if stars and text == "*** HOLE CARDS ***":
            if section != "pre":
                raise bad_line(n, text, "a second deal of the hole cards")
            h.deal_holes(n, variant, known)
            section = "play"
            continue
        if stars and (st := _STREET.match(text)):
            which, street, old, new = st.groups()
            r = _RUNS[which]
            cards = quick_cards(new or old, f"line {n}")
            if street == "FLOP" and r == 1:
                _bomb_pot_check(h, n, text)
            if r == 1:
                h.board(n, cards)
            else:  # a later run: its own cards (a new flop, or the turn / river card)
                h.emit(n, "deal", cards=cards, detail=f"board@run{r}")
            section = "play"
            continue
        if stars and (sd := _SHOWDOWN.match(text)):
            run = _RUNS[sd.group(1)]
            section = "showdown"
            continue
        if stars and text == "*** SUMMARY ***":
            section = "summary"
            continue
        if text.startswith("Uncalled bet (") and (u := _UNCALLED.match(text)):
            h.who(u.group(2))
            awards.append((n, u.group(2), money(u.group(1), n), "uncalled"))
            continue
        if " collected " in text and (co := _COLLECTED.match(text)) and \
                co.group(1) in seat_of:
            awards.append((n, co.group(1), money(co.group(2), n),
                           "main" if run == 1 else f"main@run{run}"))
            continue
        split = split_seated(h, text)  # a name holding ': ' (rare): the long way
        if split is None or not split[1].startswith(":"):
            raise bad_line(n, text)
        _player_line(h, n, text, split[0], split[1][1:].strip(), section, money, game, short,
                     state)
    if section != "summary":
        raise SiteHandError(f"line {last}: hand ends without '*** SUMMARY ***' (truncated?)")
    if total_pot is None:
        raise SiteHandError(f"line {last}: the summary has no 'Total pot' line (truncated?)")
    for at, who, amt, label in awards:
        h.award(at, who, amt, label)
    for at, kind, amt in fees:
        h.emit(at, "rake", amount=amt, detail=kind)
    if short:
        _check_short_blinds(h)
    elif state.posted_bb is not None and state.posted_bb != bb and tournament is not None:
        # the header's level names other blinds than those the hand posts (GG writes the
        # level's stakes; the blinds actually posted rule the hand)
        started["source"] += (f";stakes=blinds as posted ({state.posted_sb}/"
                              f"{state.posted_bb}), the header says {sb}/{bb}")
        game["big_blind"] = state.posted_bb
        if state.posted_sb is not None:
            game["small_blind"] = state.posted_sb
    h.end(last, f"total_pot={total_pot}")
    return h



class _Posts:
    """What the forced bets of one hand showed so far."""

    __slots__ = ("big_blind_seat", "missed", "posted_bb", "posted_sb")

    def __init__(self) -> None:
        self.big_blind_seat: int | None = None
        self.posted_bb: int | None = None  # the big blind as posted (not all in)
        self.posted_sb: int | None = None
        self.missed: set[str] = set()  # players who posted a missed blind


def _player_line(h: SiteHand, n: int, text: str, name: str, what: str, section: str,
                 money: Any, game: dict[str, Any], short: bool, state: _Posts) -> None:
    """A seated player's `name: ...` line: a post, an action, a show or muck, a note."""
    if what.startswith(_POST_START) and (p := _POST.match(what)):
        if section != "pre":
            raise bad_line(n, text, "a forced bet after the deal")
        verb, amt = p.group(1), money(p.group(2), n)
        if verb == "posts the ante":
            if not short:
                game["ante"] = max(game["ante"], amt)
            h.post(n, name, "ante", amt, live=False)
        elif verb == "posts small blind":
            if state.posted_sb is None and amt < h.left[h.seat_of[name]]:
                state.posted_sb = amt
                if game["structure"] == "fixed_limit":
                    game["small_blind"] = amt
            h.post(n, name, "small_blind", amt, live=True)
        elif verb == "posts big blind":
            if state.big_blind_seat is None:
                state.big_blind_seat = h.seat_of[name]
                h.post(n, name, "big_blind", amt, live=True)
                if h.left[state.big_blind_seat] > 0:  # not all in: the blind as set
                    state.posted_bb = amt
            else:  # a second big blind: a player coming in, or making up a missed one
                h.post(n, name, "missed_big" if name in state.missed else "new_player", amt,
                       live=True)
        elif verb in ("posts missed blind", "posts dead blind"):
            state.missed.add(name)
            h.post(n, name, "dead", amt, live=False)
        elif verb == "posts button blind":
            h.post(n, name, "button_blind", amt, live=True)
        else:  # a straddle: the amount is the straddler's round total
            seat = h.seat_of[name]
            before = h.round.get(seat, 0)
            if amt < before:
                raise bad_line(n, text, "a straddle below the player's round total")
            h.post(n, name, "straddle", amt - before, live=True)
        return
    if what.startswith(_ACTION_START) and (a := _ACTION.match(what)):
        if section == "pre":
            raise bad_line(n, text, "an action before the hole cards")
        verb, x, y, all_in = a.groups()
        all_in_b = bool(all_in)
        if verb in ("folds", "checks"):
            if x is not None:
                raise bad_line(n, text, "amount unexpected")
            h.act(n, name, "fold" if verb == "folds" else "check")
        elif verb == "raises":
            if y is None:
                raise bad_line(n, text, "a raise without 'to'")
            h.act(n, name, "raise", to=money(y, n), all_in=all_in_b)
        else:
            if x is None or y is not None:
                raise bad_line(n, text, "amount missing or unexpected")
            h.act(n, name, "call" if verb == "calls" else "bet", added=money(x, n),
                  all_in=all_in_b)
        return
    if what.startswith("shows [") and (sh := _SHOW.match(what)):
        h.emit(n, "show", cards=quick_cards(sh.group(1), f"line {n}"), **h.who(name))
        return
    if what.startswith("mucks") and (mk := _MUCK.match(what)):
        w = h.who(name)
        h.emit(n, "muck", cards=quick_cards(mk.group(1), f"line {n}") if mk.group(1)
               else None, **w)
        return
    for pattern, label in _NOTES:
        if pattern.match(what):
            h.emit(n, "annotation", detail=label, **h.who(name))
            break
    else:
        raise bad_line(n, text)

_BLINDS = frozenset({"small_blind", "big_blind", "button_blind", "straddle"})
_BETS = frozenset({"fold", "check", "call", "bet", "raise"})


def _bomb_pot_check(h: SiteHand, n: int, text: str) -> None:
    """A flop dealt with no blind posted and no preflop action while two or more players still
    have chips is a bomb pot (everyone antes, the hand starts on the flop): a GGPoker game the
    replay does not model, so the hand is quarantined naming it."""
    if any(r["kind"] in _BETS or (r["kind"] == "post" and r["detail"] in _BLINDS)
           for r in h.rows):
        return
    if sum(1 for seat, left in h.left.items() if left > 0 and seat not in h.sitting_out) >= 2:
        raise bad_line(n, text, "unsupported GGPoker feature: bomb pot (antes only, no "
                       "preflop betting)")


def _check_short_blinds(h: SiteHand) -> None:
    """Short deck has no small or big blind: only the button blind and antes."""
    for row in h.rows:
        if row["kind"] == "post" and row["detail"] in ("small_blind", "big_blind"):
            raise SiteHandError(f"{row['source']}: a {row['detail']} in short deck")


def _gg_hand_id(header: str) -> str | None:
    m = _HEADER.match(header)
    return f"gg:{m.group(1)}" if m else None




# --- the fast path -----------------------------------------------------------------------
# The common hands read straight into rows of values (`FastHand`), value for value as
# `_map_gg` reads them; a hand holding anything this path does not follow (a line it does not
# know, a name with ': ', a bomb pot, an error of any kind) is left to `_map_gg`, the single
# source of truth, which alone quarantines.

class _Fallback(Exception):
    """The fast path leaves this hand to the line parser."""


_BLIND_POSTS = frozenset({"small_blind", "big_blind", "button_blind", "straddle"})
# a line's token codes: what a line outside the summary is, read once per text and unit
(_T_FOLD, _T_CHECK, _T_CALL, _T_BET, _T_RAISE, _T_POST, _T_SHOWS, _T_MUCKS,
 _T_NOTE) = range(1, 10)
(_T_DEALT_TO, _T_HOLE_CARDS, _T_BOARD, _T_SHOW_DOWN, _T_SUMMARY, _T_RETURNED, _T_COLLECTS,
 _T_OTHER) = range(10, 18)
_TOKENS: dict[int, dict[str, tuple[Any, ...]]] = {}  # unit -> line text -> token
_TOKENS_MEMO = 8192  # texts remembered per memo (then it starts over)
_MEMO_TEXT = 256  # the longest text remembered: memory stays small whatever the lines


def _player_token(what: str, money: Any) -> tuple[Any, ...] | None:
    """A seated player's line after `name: ` as `_player_line` reads it: (code, amount,
    detail, all in / cards / label), None when `_player_line` would refuse it (or its amount
    is not one)."""
    if what.startswith(_POST_START) and (p := _POST.match(what)):
        return (_T_POST, money(p.group(2), 0), p.group(1))
    if what.startswith(_ACTION_START) and (a := _ACTION.match(what)):
        verb, x, y, all_in = a.groups()
        if verb in ("folds", "checks"):
            return None if x is not None else ((_T_FOLD if verb == "folds" else _T_CHECK),)
        if verb == "raises":
            return None if y is None else (_T_RAISE, money(y, 0), bool(all_in))
        if x is None or y is not None:
            return None
        return (_T_CALL if verb == "calls" else _T_BET, money(x, 0), bool(all_in))
    if what.startswith("shows [") and (sh := _SHOW.match(what)):
        return (_T_SHOWS, quick_cards(sh.group(1), "cards"))
    if what.startswith("mucks") and (mk := _MUCK.match(what)):
        return (_T_MUCKS, quick_cards(mk.group(1), "cards") if mk.group(1) else None)
    for pattern, label in _NOTES:
        if pattern.match(what):
            return (_T_NOTE, label)
    return None


def _other_token(text: str, money: Any) -> tuple[Any, ...]:
    """A line that is not a seated player's, as `_map_gg`'s loop tells it (outside the
    summary)."""
    if text.startswith("Dealt to "):
        return (_T_DEALT_TO,)
    if text.startswith("*** "):
        if text == "*** HOLE CARDS ***":
            return (_T_HOLE_CARDS,)
        if (st := _STREET.match(text)):
            which, street, old, new = st.groups()
            return (_T_BOARD, _RUNS[which], street == "FLOP", quick_cards(new or old, "cards"))
        if (sd := _SHOWDOWN.match(text)):
            return (_T_SHOW_DOWN, _RUNS[sd.group(1)])
        if text == "*** SUMMARY ***":
            return (_T_SUMMARY,)
    if text.startswith("Uncalled bet (") and (u := _UNCALLED.match(text)):
        return (_T_RETURNED, u.group(2), money(u.group(1), 0))
    if " collected " in text and (co := _COLLECTED.match(text)):
        return (_T_COLLECTS, co.group(1), money(co.group(2), 0))
    return (_T_OTHER,)


def _token(text: str, money: Any) -> tuple[Any, ...]:
    """(the name before `: ` or None, that player's line token or None, the line's token when
    it is not a seated player's line); an amount or cards that are not read make the token
    `_T_OTHER` (the line parser says why)."""
    name, colon, what = text.partition(": ")
    try:
        mine = _player_token(what, money) if colon else None
    except SiteHandError:
        mine = None
    try:
        other = _other_token(text, money)
    except SiteHandError:
        other = (_T_OTHER,)
    return (name if colon else None, mine, other)


_DEALT_LINES: dict[str, tuple[str | None, str | None]] = {}  # `Dealt to` line -> read
_LAYOUT_LINES: set[str] = set()  # summary lines `_LAYOUT` matches
_OUT_ENDS = (" is sitting out", " out of hand")
_STAKES: dict[str, tuple[Any, ...]] = {}  # a header's text between `: ` and the clock, read


def _dealt_line(text: str) -> tuple[str | None, str | None]:
    """(name, cards) of a `Dealt to` line as `_DEALT` reads it (name None when it does not
    match; cards None when not shown); an error reading the cards is raised."""
    dm = _DEALT.match(text)
    if dm is None:
        return None, None
    return dm.group(1), quick_cards(dm.group(2), "cards") if dm.group(2) else None


def _quick_header(number: int, header: str) -> _Header:
    """`_read_header`, the stakes and game of a header text read once (the clock each time);
    any header it does not read as `_read_header` would raises."""
    m = _HEADER.match(header)
    assert m
    rest = header[m.end():].strip()
    c = _CLOCK.search(rest)
    stakes = rest[:c.start()] if c else None
    known = _STAKES.get(stakes) if stakes is not None else None
    if known is None:
        read = _read_header(number, header)
        if stakes is not None and len(stakes) <= _MEMO_TEXT:
            if len(_STAKES) >= _TOKENS_MEMO:
                _STAKES.clear()
            _STAKES[stakes] = read[2:]
        return read
    assert c
    y, mo, d, hh, mi, ss = (int(x) for x in c.groups())
    return _Header(m.group(1), dt.datetime(y, mo, d, hh, mi, ss, tzinfo=dt.UTC), *known)


def _fast_gg(block: list[tuple[int, str]], file_name: str) -> FastHand | None:
    """`_map_gg(block, file_name)` as a `FastHand`, or None for the line parser to read."""
    try:
        return _fast_hand(block, file_name)
    except Exception:  # noqa: BLE001 - the line parser reads it (and says what is wrong)
        return None


def _fast_hand(block: list[tuple[int, str]], file_name: str) -> FastHand:  # noqa: C901, PLR0912, PLR0915
    number, header = block[0]
    hand_no, ts, tournament, level, variant, structure, currency, mpu, sb, bb, ante = \
        _quick_header(number, header)
    money = _AMOUNTS.of(mpu)
    short = variant == "holdem_short"
    body = [(n, line) for n, x in block[1:] if (line := x.strip())]
    tb = _TABLE.match(body[0][1])
    if tb is None:
        raise _Fallback
    table = tb.group("name")
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency, "minor_per_unit": mpu,
        "tournament": tournament is not None, "level": level, "ante": ante,
        "small_blind": sb, "big_blind": bb, "button_seat": int(tb.group("button")),
        "seat_count": int(tb.group("max")) if tb.group("max") else None,
    }
    fixed = structure == "fixed_limit"
    if fixed:
        game.update(small_bet=sb, big_bet=bb, big_blind=sb, small_blind=sb // 2)
    rows: list[tuple[Any, ...]] = [("hand_started", None, None, None, None, None, None,
                                    number, "")]
    seat_of: dict[str, int] = {}
    left: dict[int, int] = {}
    sitting_out: set[int] = set()
    seat_row: dict[int, int] = {}
    i = 1
    size = len(body)
    while i < size and (s := _SEAT.match(body[i][1])):
        n, text = body[i]
        seat, name = int(s.group(1)), s.group(2)
        if not 1 <= seat <= 127 or seat in left or name in seat_of:
            raise _Fallback
        stack = money(s.group(3), n)
        seat_of[name] = seat
        left[seat] = stack
        out = text.endswith(_OUT_ENDS)  # `_SEAT_OUT`
        if out:
            sitting_out.add(seat)
        seat_row[seat] = len(rows)
        rows.append(("seat", seat, name, stack, None, None, "sitting_out" if out else None, n,
                     ""))
        i += 1
    if not seat_of:
        raise _Fallback
    body = body[i:]
    known: dict[str, tuple[int, str]] = {}
    dealt_to: set[str] = set()
    dealt_lines: set[str] = set()
    for n, text in [line for line in body if line[1].startswith("Dealt to ")]:
        dealt = _DEALT_LINES.get(text)
        if dealt is None:
            dealt = _dealt_line(text)
            if len(text) <= _MEMO_TEXT:
                if len(_DEALT_LINES) >= _TOKENS_MEMO:
                    _DEALT_LINES.clear()
                _DEALT_LINES[text] = dealt
        if dealt[0] is not None and dealt[0] in seat_of:
            dealt_to.add(dealt[0])
            dealt_lines.add(text)
            if dealt[1] is not None:
                known[dealt[0]] = (n, dealt[1])
    if dealt_to and len(dealt_to) < len(seat_of):
        # the text before the first ': ' of the other lines: a player who has one is in
        firsts = {text.partition(": ")[0] for _, text in body if text not in dealt_lines}
        for name, seat in seat_of.items():
            if name not in dealt_to and name not in firsts and seat not in sitting_out:
                sitting_out.add(seat)
                k = seat_row[seat]
                rows[k] = rows[k][:6] + ("sitting_out", rows[k][7], "")
    section = 0  # 0 posts, 1 play, 2 showdown, 3 summary
    run = 1
    awards: list[tuple[int, str, int, str]] = []
    fees: list[tuple[int, str, int]] = []
    total_pot: int | None = None
    last = number
    rnd: dict[int, int] = {}
    forced = False  # a bet or a blind so far (a flop without one may be a bomb pot)
    big_blind_seat: int | None = None
    posted_bb: int | None = None
    posted_sb: int | None = None
    missed: set[str] = set()
    append = rows.append
    tokens = _TOKENS.get(mpu)
    if tokens is None:
        tokens = _TOKENS[mpu] = {}
    for n, text in body:
        last = n
        if section == 3:
            if text in _LAYOUT_LINES:
                continue
            if (tp := _TOTAL.match(text)):
                total_pot = money(tp.group(1), n)
                for word, amt_s in _FEE.findall(tp.group("rest")):
                    amt = money(amt_s, n)
                    if amt:
                        fees.append((n, _FEE_KINDS.get(word.strip().lower(), "fee"), amt))
                continue
            if _LAYOUT.match(text):
                if len(text) <= _MEMO_TEXT:
                    if len(_LAYOUT_LINES) >= _TOKENS_MEMO:
                        _LAYOUT_LINES.clear()
                    _LAYOUT_LINES.add(text)
                continue
            raise _Fallback
        tok = tokens.get(text)
        if tok is None:
            tok = _token(text, money)
            if len(text) <= _MEMO_TEXT:
                if len(tokens) >= _TOKENS_MEMO:
                    tokens.clear()
                tokens[text] = tok
        name = tok[0]
        if name is not None and name in seat_of:
            mine = tok[1]
            if mine is None:
                raise _Fallback
            seat = seat_of[name]
            code = mine[0]
            if code <= _T_CHECK:
                if section == 0:
                    raise _Fallback
                append(("fold" if code == _T_FOLD else "check", seat, name, None, None, None,
                        None, n, ""))
                forced = True
                continue
            if code <= _T_RAISE:
                if section == 0:
                    raise _Fallback
                before = rnd.get(seat, 0)
                if code == _T_RAISE:
                    added = mine[1] - before
                    if added < 0:
                        raise _Fallback
                    kind = "raise"
                else:
                    added = mine[1]
                    kind = "call" if code == _T_CALL else "bet"
                stack = left[seat]
                left[seat] = stack - added
                total = before + added
                rnd[seat] = total
                append((kind, seat, name, added, total, None,
                        "all_in" if mine[2] or (added > 0 and added == stack) else None, n, ""))
                forced = True
                continue
            if code == _T_POST:
                if section != 0:
                    raise _Fallback
                amt, verb = mine[1], mine[2]
                if verb == "posts the ante":
                    if not short:
                        game["ante"] = max(game["ante"], amt)
                    left[seat] -= amt
                    append(("post", seat, name, amt, None, None, "ante", n, ""))
                    continue
                if verb == "posts small blind":
                    if short:
                        raise _Fallback
                    if posted_sb is None and amt < left[seat]:
                        posted_sb = amt
                        if fixed:
                            game["small_blind"] = amt
                    detail = "small_blind"
                elif verb == "posts big blind":
                    if short:
                        raise _Fallback
                    if big_blind_seat is None:
                        big_blind_seat = seat
                        detail = "big_blind"
                    else:
                        detail = "missed_big" if name in missed else "new_player"
                elif verb in ("posts missed blind", "posts dead blind"):
                    missed.add(name)
                    left[seat] -= amt
                    append(("post", seat, name, amt, None, None, "dead", n, ""))
                    continue
                elif verb == "posts button blind":
                    detail = "button_blind"
                else:  # a straddle: the amount is the straddler's round total
                    before = rnd.get(seat, 0)
                    if amt < before:
                        raise _Fallback
                    amt -= before
                    detail = "straddle"
                left[seat] -= amt
                total = rnd.get(seat, 0) + amt
                rnd[seat] = total
                append(("post", seat, name, amt, total, None, detail, n, ""))
                if detail in _BLIND_POSTS:
                    forced = True
                if detail == "big_blind" and left[seat] > 0:
                    posted_bb = amt
                continue
            if code == _T_SHOWS:
                append(("show", seat, name, None, None, mine[1], None, n, ""))
            elif code == _T_MUCKS:
                append(("muck", seat, name, None, None, mine[1], None, n, ""))
            else:
                append(("annotation", seat, name, None, None, None, mine[1], n, ""))
            continue
        other = tok[2]
        code = other[0]
        if code == _T_DEALT_TO:
            continue
        if code == _T_BOARD:
            r = other[1]
            if r == 1:
                if other[2] and not forced and sum(
                        1 for seat, chips in left.items()
                        if chips > 0 and seat not in sitting_out) >= 2:
                    raise _Fallback  # a bomb pot: the line parser says so
                rnd = {}
                append(("deal", None, None, None, None, other[3], "board", n, ""))
            else:
                append(("deal", None, None, None, None, other[3], f"board@run{r}", n, ""))
            section = 1
            continue
        if code == _T_COLLECTS:
            if other[1] not in seat_of:
                raise _Fallback
            awards.append((n, other[1], other[2], "main" if run == 1 else f"main@run{run}"))
            continue
        if code == _T_RETURNED:
            if other[1] not in seat_of:
                raise _Fallback
            awards.append((n, other[1], other[2], "uncalled"))
            continue
        if code == _T_HOLE_CARDS:
            if section != 0:
                raise _Fallback
            unknown = (n, " ".join(["??"] * HOLE_COUNT.get(variant, 2)))
            name_at = {s: nm for nm, s in seat_of.items()}
            for seat in sorted(left):
                if seat in sitting_out:
                    continue
                name = name_at[seat]
                at, cards = known.get(name, unknown)
                append(("deal", seat, name, None, None, cards, "hole", at, ""))
            section = 1
            continue
        if code == _T_SHOW_DOWN:
            run = other[1]
            section = 2
            continue
        if code == _T_SUMMARY:
            section = 3
            continue
        raise _Fallback
    if section != 3 or total_pot is None:
        raise _Fallback
    for at, who, amt, label in awards:
        append(("award", seat_of[who], who, amt, None, None, label, at, ""))
    for at, kind, amt in fees:
        append(("rake", None, None, amt, None, None, kind, at, ""))
    if not short and posted_bb is not None and posted_bb != bb and tournament is not None:
        rows[0] = rows[0][:8] + (f";stakes=blinds as posted ({posted_sb}/{posted_bb}), the "
                                 f"header says {sb}/{bb}",)
        game["big_blind"] = posted_bb
        if posted_sb is not None:
            game["small_blind"] = posted_sb
    append(("hand_ended", None, None, None, None, None, f"total_pot={total_pot}", last, ""))
    return FastHand(f"gg:{hand_no}", f"{tournament} {table}" if tournament else table, ts,
                    game, rows, f"ggpoker:{file_name}:")


# A file smaller than this is read by the Python fast path alone: the compiled pass costs
# more per file (its Arrow columns: ~0.6 ms against ~0.37 ms for a one-hand file) and less
# per hand (59 hands: 2.3 ms against 11.1 ms), so it pays from about three hands (4 KB) on.
COMPILED_MIN_BYTES = 4 << 10


class GGPokerImporter(SiteTextImporter):
    """GGPoker text files: recognised by a line starting `Poker Hand #<id>: ` near the top
    (PokerStars writes `PokerStars Hand #`, never a bare `Poker Hand #` at a line start), read
    hand by hand."""

    name = "ggpoker"
    sniff_re = _SNIFF
    header_line = _HEADER
    map_hand = staticmethod(_map_gg)
    hand_id_of = staticmethod(_gg_hand_id)

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True,
                 compiled: bool = True, compiled_min_bytes: int = COMPILED_MIN_BYTES) -> None:
        super().__init__(chunk_hands)
        self.fast = fast
        self.compiled = compiled
        self.compiled_min_bytes = compiled_min_bytes

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each: the common hands
        by the compiled pass (`ggpoker_kernel`, a file read whole when it is plain) or the
        Python fast path (`_fast_gg`), the others by the line parser (`_map_gg`)."""
        fast = whole_hands(_fast_gg if self.fast else None)
        if self.fast and self.compiled:
            from audit.importers.compiledtext import read_room  # numba's, loaded on first use

            chunks = read_room(path, "audit.importers.ggpoker_compiled", fmt="ggpoker",
                               chunk_hands=self.chunk_hands, fast=fast, map_hand=_map_gg,
                               hand_id_of=_gg_hand_id, min_bytes=self.compiled_min_bytes)
            if chunks is not None:
                yield from chunks
                return
        yield from read_columns(path, header=_HEADER, chunk_hands=self.chunk_hands,
                                map_hand=_map_gg, hand_id_of=_gg_hand_id, fast=fast)


IMPORTER = GGPokerImporter()
