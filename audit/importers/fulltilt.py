"""Full Tilt Poker text hand histories imported as events.

A hand starts at a `Full Tilt Poker Game #N: ...` line (older files: `FullTiltPoker Game #N:`)
and runs to the next one.  The reader streams the file line by line (UTF-8 with or without a
BOM, cp1252, or UTF-16 with or without a BOM, a stray odd last byte dropped), keeps one hand's
lines at a time, maps it, and yields a `Chunk` of about 5,000 whole hands.  Archive framing
between hands (`BEGIN`, `******** # 2 ********`) and blank lines are skipped.  A hand with any
line it does not know is quarantined whole (a `Rejected` with file, line, the offending line
and the reason, raw text); the rest of the file continues.  Quarantined with their reason:
summary-only hands (`(partial)`: no seats, no play), games the header does not name, stakes
without amounts.

Mapping (Full Tilt line -> events; money exact: `Decimal` -> integer minor units):

* header `Full Tilt Poker Game #N: [tournament (id), ]Table T|Match N [(6 max, shallow)] -
  <stakes> - <game> - <h:mm:ss> ZONE - <yyyy/mm/dd> [<h:mm:ss> ET - <yyyy/mm/dd>] [(partial)]`
  (stakes and game may come in either order; `Ante $x` after the stakes) -> hand_started:
  hand_id `ftp:N`, table_id `T` (tournaments: `<id> T`, `<id> Match N`), ts from the ET time
  (the bracketed one when given; America/New_York, DST-aware; any other zone abbreviation
  maps to its fixed offset; an unknown one is read as UTC and `source` says so). A capped
  game (`$400 Pot Limit Omaha Hi`, `$2,000 Cap ...`, `CAP NL Hold'em` with the cap read from
  the first `, and is capped` action) -> game.house_overrides `{"stakes.hand_cap": N}`.
  game: variant (Hold'em -> holdem, Omaha [Hi] -> omaha, 5 Card Omaha [Hi] -> omaha5,
  Omaha Hi/Lo | H/L -> omaha_hilo), structure (NL / No Limit,
  PL / Pot Limit, Limit / FL), no-limit and pot-limit stakes are the blinds, fixed-limit
  stakes are small_bet/big_bet with big_blind = small bet and small_blind = the posted small
  blind; `$`/`€`/`£` -> USD/EUR/GBP with minor_per_unit 100, no symbol (tournament or play
  chips) -> CHIPS/1; tournament when the header names one; seat_count from `(N max)`
  (`heads up`: 2).
  Stud games (`7 Card Stud` / `Stud Hi` -> stud, `Stud H/L` / `7 Card Stud Hi/Lo` ->
  stud_hilo, `Razz` -> razz; 5-card stud is not read) are fixed-limit with no button:
  small_bet/big_bet from the stakes, ante and bring_in from the first full posts (the
  bring-in: half the small bet when nobody brings in, and `source` says so). Draw games
  (`2-7 Triple Draw`, `2-7 Single Draw`, `A-5 Triple Draw`, `5 Card Draw`, `Badugi`) are
  button games like hold'em; a bare `Lowball` is quarantined ("unsupported Full Tilt game").
* `Seat N: name ($stack)[, is sitting out]` -> seat (detail sitting_out, also when only the
  summary says `Seat N: name is sitting out`; not when the hand deals him in: he antes,
  posts or acts). No seat lines at all (an observed hand) -> seats from the summary, stack
  null.
* posts: `posts the small blind of` -> small_blind, `posts the big blind of` -> big_blind,
  `posts a dead small blind of` -> dead (total null), `posts $x` -> new_player (live),
  `antes $x` -> ante (total null).  `, and is all in` -> detail stays the blind type.
* `*** HOLE CARDS ***` -> deal/hole for every seat not sitting out, in seat order: the
  `Dealt to` cards for the hero, `?? ??` (one `??` per hole card) for everyone else.
* `folds`, `checks`, `calls $x` (amount added), `bets $x`, `raises to $x` (total; amount =
  total - round total before); `, and is all in` or a stack spent to zero -> detail all_in.
* `*** FLOP *** [..]`, `*** TURN *** [..] [c]`, `*** RIVER *** [..] [c]` -> deal/board with
  the new cards only; a new betting round.
* draw: `*** FIRST|SECOND|THIRD DRAW ***` (or `*** DRAW ***`, or none: the first discard
  starts the draw) end a betting round. `discards N card(s) [x ..]` -> draw (amount N, the
  cards or `??` each), then deal/draw with the new cards of `Dealt to P [kept] [new]`, else
  `??` each; `stands pat` -> stand_pat. (Modelled on Full Tilt's vocabulary as fpdb reads
  it; the shared sample holds no Full Tilt draw hand.)
* stud: `*** 3RD STREET ***` .. `*** 7TH STREET ***` start betting rounds. 3rd street:
  `Dealt to P [a b] [c]` (or `[a b c]`) -> deal/down `a b` + deal/up `c`; `Dealt to P [c]` ->
  deal/down `?? ??` + deal/up `c`. 4th-6th: `Dealt to P [..] [c]` -> deal/up `c`. 7th:
  `Dealt to P [six] [c]` -> deal/down `c`, and every live player without such a line gets
  deal/down `??`. `brings in for $x` -> post bring_in (live); `completes it to $x` ->
  complete.
* `shows [cards]` -> show; `mucks` -> muck (with the dealt cards when known).
* `Uncalled bet of $x returned to name` -> award detail uncalled; chips put in beyond the
  stated total pot with no such line -> hand_started detail `refunds=implicit`.
* `wins|ties for the [high|low] [main|side #k] pot ($x)` -> award detail main / side-k
  (`/high`, `/low` when the line says so).
* run it twice: `*** TURN 2 ***`, `*** RIVER 2 ***` -> deal board@run2 (the new cards);
  `wins pot 2 ($x)` -> award main@run2; `*** SHOW DOWN 1|2 ***`, `*** SUMMARY 1|2 ***`,
  `Pot 1 $x` are layout.
* summary `Total pot $x [Main pot $m. Side pot $s.] | Rake $r` -> hand_ended detail
  `total_pot=x[;pots=main:m,side-1:s]`, rake (when r > 0). `Seat N: ... collected ($x)` /
  `... and won ($x)` -> award main when the body names no winner (a pot taken uncontested);
  the summary's `Board: [..]` adds board cards the body never dealt (an all-in hand cut
  short). A hand with no cards dealt and `Total pot 0` -> hand_started `cancelled=true`.
* Street lines may carry the pot so far: `*** FLOP *** [..] (Total Pot: $96, 2 Players)`.
  Stud `P is low|high with [c]` (who brings in) and `P shows <hand name>` after the cards are
  layout; a show naming only the hand -> show `??` cards. `P is dealt N cards` -> deal/draw
  `??` each (the discards first, then the deals).
* Known harmless lines become `annotation`s (chat `said: ...`, `sits_out`, `sits_down`,
  `adds_chips`, `disconnected`, `reconnected`, `timed_out`, `returned`, `stands_up`,
  `requested_time`, ...) or are skipped as layout only (`*** SHOW DOWN ***`, low-hand
  descriptions `(8,7,4,3,A)`, the summary's `Board:` and `Seat N:` lines).
"""
from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from audit.importers.sitetext import (
    CURRENCY_SYMBOLS,
    SiteHand,
    SiteHandError,
    SiteTextImporter,
    bad_line,
    local_to_utc,
    parse_amount,
    site_cards,
    to_minor,
)

_HEADER = re.compile(r"^(?:Full Tilt Poker|FullTiltPoker) Game #(\d+): ")
# the clock at the end of a header: `h:mm:ss ZONE - yyyy/mm/dd`, the ET time in brackets when
# the player's zone is another (`17:00:14 CET - 2012/11/06 [11:00:14 ET - 2012/11/06]`), and
# `(partial)` on a hand logged from the middle
_HEADER_CLOCK = re.compile(
    r" - (\d{1,2}:\d\d:\d\d) ([A-Z]{1,5}) - (\d{4})/(\d\d)/(\d\d)"
    r"(?: \[(\d{1,2}:\d\d:\d\d) ([A-Z]{1,5}) - (\d{4})/(\d\d)/(\d\d)\])?"
    r"(?: \((?:partial)\))?$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \(([$€£]?[0-9][0-9,.]*)\)(, is sitting out)?$")
_BUTTON = re.compile(r"^The button is in seat #(\d+)$")
_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER)(?: ([12]))? \*\*\* (\[[^\]]*\])(?: (\[[^\]]*\]))?"
                     r"(?: \(Total Pot: [^)]*\))?$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]+)\]$")
_M = r"([$€£]?[0-9][0-9,.]*)"  # an amount
_UNCALLED = re.compile(r"^Uncalled bet of ([$€£]?[0-9][0-9,.]*) returned to (.+)$")
# `Total pot $234.55 Main pot $158.20. Side pot $76.35. | Rake $3`
_TOTAL = re.compile(r"^Total pot ([$€£]?[0-9][0-9,.]*)((?: (?:Main|Side) pot[^|]*?)?) ?"
                    r"\| Rake ([$€£]?[0-9][0-9,.]*)$")
_POT_PART = re.compile(r"(Main|Side) pot(?:(?: #|-| )(\d+))? ([$€£]?[0-9][0-9,.]*?)\.?(?= |$)")
# a summary seat line's winnings: `Seat 5: P (big blind) collected (40), mucked`,
# `Seat 2: P (big blind) showed [8c 4h] and won (27,000) with two pair, ...`
_PUT_IN = frozenset({"post", "call", "bet", "raise", "complete"})
_SUMMARY_SITTING_OUT = re.compile(r"^Seat (\d+): .+ is sitting out$")
# the seat and name of a summary line: `Seat 3: cinidy lynn (small blind) collected ($100)`
# (`_summary_name`: the name may hold one of the words after it, as "and won" does)
_SUMMARY_AFTER_NAME = re.compile(r"(?: \((?:small blind|big blind|button)\))*"
                                 r"(?: (is sitting out)$| (?:collected|showed|mucked|folded|"
                                 r"didn't|lost|won|wins|is)\b)")
_UNKNOWN_STACK = 1 << 60  # a stack the log does not give: no bet ever spends it all
_SUMMARY_SEAT = re.compile(r"^Seat (\d+): ")
_SUMMARY_WON = re.compile(r"(?:collected|and won) \(([$€£]?[0-9][0-9,.]*)\)")
_STAKES = re.compile(r"^([$€£]?)([0-9][0-9,.]*)/[$€£]?([0-9][0-9,.]*)"
                     r"(?: Ante [$€£]?([0-9][0-9,.]*))?"
                     r"(?: Cap [$€£]?[0-9][0-9,.]*)?$")
# stakes whose amounts are not numbers (a Flipout's `2B/2B Ante 2B`): the blinds are unknown
_UNREAD_STAKES = re.compile(r"^[$€£]?[0-9]\w*/[$€£]?[0-9]\w*(?: Ante [$€£]?[0-9]\w*)?$")
_CLOCK = re.compile(r"^(\d{1,2}:\d\d:\d\d) ([A-Z]{1,5})(?: \[(\d{4}/\d\d/\d\d) (\d{1,2}:\d\d:\d\d) "
                    r"([A-Z]{1,5})\])?$")
_DATE = re.compile(r"^(\d{4})/(\d\d)/(\d\d)$")
# `Table NAME (6 max, shallow)`, or a tournament's `$26 Super Turbo Matrix (244669447), Match 4`
# / `MiniFTOPS Event #1 (243423165), Table 793`; the parenthesised table options name the seat
# count (`6 max`, `heads up`) and the stack depth (`deep`, `shallow`)
_TABLE = re.compile(r"^(?:(?P<tourney>.*\((?P<tid>\d+)\)), )?(?P<kind>Table|Match) "
                    r"(?P<table>.+?)(?P<opts>(?: \([a-z0-9 ,]+\))*)$")
_MAX = re.compile(r"\b(\d+) max\b")
# a capped game: `CAP NL Hold'em`, `$2,000 Cap Pot Limit Omaha Hi`, `$400 Pot Limit Omaha Hi`
_CAP = re.compile(r"^(?:cap |([$€£]?[0-9][0-9,.]*) (?:cap )?)")
_LIMITS = {"nl": "no_limit", "no limit": "no_limit", "pl": "pot_limit", "pot limit": "pot_limit",
           "fl": "fixed_limit", "limit": "fixed_limit"}
_GAMES = {"hold'em": "holdem", "holdem": "holdem", "omaha": "omaha", "omaha hi": "omaha",
          "omaha hi/lo": "omaha_hilo", "omaha h/l": "omaha_hilo", "omaha 8": "omaha_hilo",
          "5 card omaha": "omaha5", "5 card omaha hi": "omaha5",
          "5 card omaha hi/lo": "omaha5_hilo", "5 card omaha h/l": "omaha5_hilo",
          "irish": "irish"}
_STUD_GAMES = {"7 card stud": "stud", "stud": "stud", "stud hi": "stud",
               "7 card stud hi": "stud", "7 card stud hi/lo": "stud_hilo",
               "7 card stud h/l": "stud_hilo", "stud h/l": "stud_hilo", "stud hi/lo": "stud_hilo",
               "stud 8": "stud_hilo", "razz": "razz"}
_GAMES.update(_STUD_GAMES)
_STUD = frozenset(_STUD_GAMES.values())
_DRAW_GAMES = {"2-7 triple draw": "lowball_27_triple", "2-7 single draw": "lowball_27_single",
               "a-5 triple draw": "lowball_a5_triple", "5 card draw": "draw_high",
               "badugi": "badugi"}
_GAMES.update(_DRAW_GAMES)
_DRAW = frozenset(_DRAW_GAMES.values())
_UNSUPPORTED = {"lowball": "a lowball game the header does not name"}
_DRAW_HEADERS = frozenset({"*** FIRST DRAW ***", "*** SECOND DRAW ***", "*** THIRD DRAW ***",
                           "*** DRAW ***"})
_DRAW_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]+)\] \[([^\]]+)\]$")
_DISCARD = re.compile(r"^discards (\d+) cards?(?: \[([^\]]+)\])?$")
_IS_DEALT = re.compile(r"^is dealt (\d+) cards?$")  # another player's unseen replacements
_IRISH_DISCARD = re.compile(r"^discards(?: \[([^\]]+)\])?$")  # `Hero discards [9h 9c]`
_IS_DEALT_LINE = re.compile(r" is dealt \d+ cards?$")
_STAND_PAT = re.compile(r"^stands pat(?: on \[[^\]]*\])?$")
_SHOW_DOWN = re.compile(r"^\*\*\* SHOW DOWN(?: [12])? \*\*\*$")
_STUD_STREET = re.compile(r"^\*\*\* ([3-7])(?:RD|TH) STREET \*\*\*$")
_STUD_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]+)\](?: \[([^\]]+)\])?$")
_BRING_IN = re.compile(r"^brings in for " + r"([$€£]?[0-9][0-9,.]*)" + r"(, and is all in)?$")
_ACTION = re.compile(r"^(folds|checks|calls|bets|raises to|completes it to)(?: " + _M + ")?"
                     r"(, and is all in|, and is capped)?$")
_POST = re.compile(r"^(posts the small blind of|posts the big blind of|"
                   r"posts a dead small blind of|posts|antes) " + _M + "(, and is all in)?$")
_WIN = re.compile(r"^(?:wins|ties for) (?:the )?(?:(high|low) )?"
                  r"(main pot|side pot(?: #?(\d+))?|pot)(?: #?(\d+))? \(" + _M + r"\)(?: .*)?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\](?: .*)?$")
_SHOW_DESCRIPTION = re.compile(r"^shows [A-Za-z0-9].*$")  # `shows two pair, Kings and Sixes`
_POT_SO_FAR = re.compile(r" \((?:Total )?Pot: [^)]*\)$")
_BRING_IN_CARD = re.compile(r"^is (?:low|high) with \[[^\]]*\]$")  # who brings in, and why
_MUCK = re.compile(r"^mucks(?: \[([^\]]*)\])?(?: .*)?$")
_SEATED_NOTES = [
    (re.compile(r"^finished the tournament in \d+\w* place(?: and received .*)?$"), "finished"),
    (re.compile(r"^wins the tournament(?: and receives .*)?$"), "won_tournament"),
    (re.compile(r"^sits down$"), "sits_down"),
    (re.compile(r"^(?:sits out|is sitting out)$"), "sits_out"),
    (re.compile(r"^has returned$"), "returned"),
    (re.compile(r"^has timed out(?: .*)?$"), "timed_out"),
    (re.compile(r"^has been disconnected(?: .*)?$"), "disconnected"),
    (re.compile(r"^has reconnected(?: .*)?$"), "reconnected"),
    (re.compile(r"^has requested TIME$"), "requested_time"),
    (re.compile(r"^has \d+ seconds left to act$"), "time_warning"),
    (re.compile(r"^stands up$"), "stands_up"),
    (re.compile(r"^has (?:joined|left) the table$"), "table_change"),
    (re.compile(r"^(?:was|has been) removed from the table(?: .*)?$"), "removed"),
    (re.compile(r"^is feeling .*$"), "emote"),
    (re.compile(r"^adds ([$€£]?[0-9][0-9,.]*)$"), "adds_chips"),
]
_ANYONE_NOTES = [
    (re.compile(r"^(.+?) sits down$"), "sits_down"),
    (re.compile(r"^(.+?) adds ([$€£]?[0-9][0-9,.]*)$"), "adds_chips"),
    (re.compile(r"^(.+?) stands up$"), "stands_up"),
    (re.compile(r"^(.+?) has (?:joined|left) the table$"), "table_change"),
    (re.compile(r"^(.+?) finished the tournament in \d+\w* place(?: and received .*)?$"),
     "finished"),
    (re.compile(r"^(.+?) wins the tournament(?: and receives .*)?$"), "won_tournament"),
]
_TABLE_NOTES = [  # lines about the table, no player named
    (re.compile(r"^\d+ seconds left to act$"), "time_warning"),
    (re.compile(r"^No low hand qualified$"), "no_low"),
    (re.compile(r"^Players agree to Run It Twice$"), "run_it_twice"),
]
_RUN_SUMMARY = re.compile(r"^(?:\*\*\* SUMMARY \d \*\*\*|Pot \d [$€£]?[0-9][0-9,.]*)$")
_OBSERVER = re.compile(r"^(.+?) \(Observer\): (.*)$")
_LOW_DESC = re.compile(r"^\s*\([0-9AKQJT, -]*\)$")


def _summary_name(text: str, body: list[tuple[int, str]]) -> tuple[int, str, bool] | None:
    """(seat, name, sitting out) of a summary line, for a hand logged without seat lines.
    The words after the name ("won", "is") may be in a name too ("and won"): of the places
    the name can end, the longest name that starts a line of the play wins; without one,
    the shortest (a name that never acts)."""
    seat = _SUMMARY_SEAT.match(text)
    if not seat:
        return None
    rest = text[seat.end():]
    shortest = longest = None
    for end in (i for i, c in enumerate(rest) if c == " " and i):
        if (after := _SUMMARY_AFTER_NAME.match(rest, end)):
            found = (int(seat.group(1)), rest[:end], bool(after.group(1)))
            shortest = shortest or found
            if any(t.startswith(rest[:end] + " ") for _, t in body if t != text):
                longest = found
    return longest or shortest


def _ftp_game(header: str, number: int) -> dict[str, Any]:
    """The parts of a Full Tilt header line."""
    m = _HEADER.match(header)
    assert m
    rest = header[m.end():]
    info: dict[str, Any] = {"game_no": m.group(1)}
    if (c := _HEADER_CLOCK.search(rest)):
        clock, zone, y, mo, d, et_clock, et_zone, et_y, et_mo, et_d = c.groups()
        if et_clock:  # the bracket is the ET time: read that (a named zone, DST-aware)
            clock, zone, y, mo, d = et_clock, et_zone, et_y, et_mo, et_d
        info["clock"] = (clock, zone, None, None, None)
        info["date"] = (y, mo, d)
        rest = rest[:c.start()]
    parts = rest.split(" - ")
    table = _TABLE.match(parts[0])
    if not table:
        raise bad_line(number, header, "header without 'Table NAME' or 'Match N'")
    opts = table.group("opts") or ""
    seats = _MAX.search(opts)
    name = table.group("table") if table.group("kind") == "Table" else (
        "Match " + table.group("table"))
    info.update(table=f"{table.group('tid')} {name}" if table.group("tourney") else name,
                max=seats.group(1) if seats else ("2" if "heads up" in opts else None),
                tournament=bool(table.group("tourney")))
    for part in parts[1:]:
        p = part.strip()
        low = p.lower()
        if (s := _STAKES.match(p)) and "stakes" not in info:
            info["stakes"] = s.groups()
        elif _UNREAD_STAKES.match(p) and "stakes" not in info:
            raise bad_line(number, header, f"stakes {p!r} state no amounts: the blinds and "
                           "limits are unknown")
        elif (c := _CLOCK.match(p)) and "clock" not in info:
            info["clock"] = c.groups()
        elif (d := _DATE.match(p)) and "date" not in info:
            info["date"] = d.groups()
        elif "game" not in info and any(g in low for g in (*_GAMES, *_UNSUPPORTED)):
            info["game"] = low
        elif low.startswith("level ") or low.startswith("hand #"):
            continue
        else:
            raise bad_line(number, header, f"header part {p!r} not understood")
    for need in ("stakes", "game", "clock", "date"):
        if need not in info:
            raise bad_line(number, header, f"header without {need}")
    return info


def _limit_and_game(text: str, number: int, header: str) -> tuple[str | None, str, str]:
    """(structure, variant, cap) of a header's game words; cap is the stated cap (`$2,000`,
    or `CAP` when the amount is not named) or ""."""
    for words, game in _UNSUPPORTED.items():
        if words in text:
            raise bad_line(number, header, f"unsupported Full Tilt game ({game})")
    cap = ""
    if (c := _CAP.match(text)):
        cap = c.group(1) or "CAP"
        text = text[c.end():]
    for words in sorted(_LIMITS, key=len, reverse=True):
        if text.startswith(words + " "):
            name = text[len(words) + 1:].strip()
            if name in _GAMES:
                return _LIMITS[words], _GAMES[name], cap
    if text in _GAMES:
        return None, _GAMES[text], cap
    raise bad_line(number, header, f"unknown Full Tilt game {text!r}")


def _map_ftp(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    number, header = block[0]
    info = _ftp_game(header, number)
    structure, variant, cap = _limit_and_game(info["game"], number, header)
    if structure is None:
        raise bad_line(number, header, "no betting structure (NL/PL/Limit) in the header")
    is_stud = variant in _STUD
    if is_stud and structure != "fixed_limit":
        raise bad_line(number, header, "a stud game that is not fixed-limit")
    symbol, low_s, high_s, ante_s = info["stakes"]
    currency = CURRENCY_SYMBOLS.get(symbol, "CHIPS")
    mpu = 100 if symbol else 1

    def money(text: str, where: int) -> int:
        return to_minor(parse_amount(text), mpu, f"line {where} amount {text!r}")

    clock, zone, alt_date, alt_clock, alt_zone = info["clock"]
    year, month, day = info["date"]
    try:
        local = dt.datetime.strptime(f"{year}/{month}/{day} {clock}", "%Y/%m/%d %H:%M:%S")
        if alt_date:  # "2:33:51 CET [2010/12/20 20:33:51 ET]": the bracket is the ET time
            local = dt.datetime.strptime(f"{alt_date} {alt_clock}", "%Y/%m/%d %H:%M:%S")
            zone = alt_zone
    except ValueError:
        raise bad_line(number, header, "invalid date or time") from None
    ts, note = local_to_utc(local, zone)
    cap_amount = money(cap, number) if cap and cap != "CAP" else 0
    h = SiteHand(fmt="fulltilt", file_name=file_name, hand_id=f"ftp:{info['game_no']}",
                 table_id=info["table"])
    low, high = money(low_s, number), money(high_s, number)
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency,
        "minor_per_unit": mpu, "tournament": info["tournament"],
        "ante": money(ante_s, number) if ante_s else 0,
        "seat_count": int(info["max"]) if info["max"] else None,
    }
    if is_stud:
        game.update(small_bet=low, big_bet=high)
    elif structure == "fixed_limit":
        game.update(small_bet=low, big_bet=high, big_blind=low)
    else:
        game.update(small_blind=low, big_blind=high)
    started = h.emit(number, "hand_started", note, ts=ts, game=game)

    body = [(n, t) for n, t in block[1:] if t.strip()]
    i = 0
    # seats
    # a seat dealt out is often named only in the summary: `Seat 2: Player2 is sitting out`
    out_in_summary: set[int] = set()
    in_summary = False
    for _, text in body:
        in_summary = in_summary or text == "*** SUMMARY ***"
        if in_summary and (so := _SUMMARY_SITTING_OUT.match(text)):
            out_in_summary.add(int(so.group(1)))
    while i < len(body) and (m := _SEAT.match(body[i][1])):
        n, _ = body[i]
        seat_no = int(m.group(1))
        out = bool(m.group(4)) or seat_no in out_in_summary
        if out and _plays(m.group(2), body):
            out = False  # a tournament deals a player who sits out in: he antes, posts, folds
        h.add_seat(n, seat_no, m.group(2), money(m.group(3), n), out)
        i += 1
    if not h.seat_of:
        first = body[0][1] if body else ""
        if first == "*** SUMMARY ***":
            raise SiteHandError(f"line {number}: a summary-only hand (the log holds no seats "
                                "and no play, e.g. a `(partial)` hand): nothing to replay")
        # an observed hand logged without the seat lines: the summary names the seats, and
        # the stacks are unknown (null: the replay never takes such a seat for short)
        in_summary = False
        for n, text in body:
            in_summary = in_summary or text == "*** SUMMARY ***"
            if in_summary and (named := _summary_name(text, body)):
                seat_no, name, sitting_out = named
                h.add_seat(n, seat_no, name, _UNKNOWN_STACK,
                           sitting_out and not _plays(name, body))
                h.rows[-1]["amount"] = None
        if not h.seat_of:
            raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
        started["source"] += ";stacks=not logged (seats from the summary)"
    known: dict[str, tuple[int, str]] = {}
    is_draw = variant in _DRAW
    for n, text in body:
        if not is_stud and (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
            if is_draw and d.group(1) in known:
                continue  # a draw game restates the hand later: the first is the deal
            known[d.group(1)] = (n, site_cards(d.group(2), f"line {n}"))
    section = "pre"  # pre (posts) -> play -> summary
    button = None
    sb_posted = None
    sb_seat: int | None = None
    ended = False
    last = number
    stud = _StudDeal(h) if is_stud else None
    draw = _Draws(h) if is_draw else None
    if draw is not None:  # without `P is dealt N cards` lines a draw's deal follows its discard
        draw.eager = not any(_IS_DEALT_LINE.search(t) for _, t in body)
    shown: set[str] = set()
    total_pot: int | None = None
    pots: list[str] = []
    summary_won: list[tuple[int, str, int]] = []  # (line, player, amount) of the summary
    body_won = False  # the body names the winners (`wins the pot (X)`)
    runs = 1  # boards dealt (run it twice: 2)
    board_cards: list[str] = []  # the first board as dealt in the body
    board_summary_seen = False
    for n, text in body[i:]:
        last = n
        if not text.strip():
            continue
        if text.startswith("*** ") and (pt := _POT_SO_FAR.search(text)):
            text = text[:pt.start()]  # `*** FLOP *** [..] (Total Pot: $96, 2 Players)`
        if draw is not None and section == "play":
            if (dd := _DRAW_DEALT.match(text)) and dd.group(1) in h.seat_of:
                draw.dealt(n, text, dd.group(1), dd.group(3))
                continue
            if text.startswith("*** "):
                draw.flush()
            elif draw.eager and not ((d := _DEALT.match(text)) and d.group(1) in h.seat_of):
                draw.flush(keep=set(known))  # the hero's new cards are shown, maybe later
            if text in _DRAW_HEADERS:
                draw.start()
                continue
        if stud is not None and section != "summary":
            if (st := _STUD_STREET.match(text)):
                street = int(st.group(1))
                if (street == 3) != (section == "pre"):
                    raise bad_line(n, text, "stud street out of order")
                section = "play"
                stud.street(n, street)
                continue
            if (d := _STUD_DEALT.match(text)) and d.group(1) in h.seat_of:
                stud.dealt(n, text, d.group(1), d.group(2), d.group(3))
                continue
            stud.flush()
            if text.startswith("*** ") and not _SHOW_DOWN.match(text) and text != "*** SUMMARY ***":
                raise bad_line(n, text, "not a stud street")
        if section == "summary":
            if (t := _TOTAL.match(text)) and total_pot is None:
                total_pot = money(t.group(1), n)
                for kind, k, amount in _POT_PART.findall(t.group(2)):
                    label = "main" if kind == "Main" else f"side-{k or 1}"
                    pots.append(f"{label}:{money(amount, n)}")
                if t.group(2).strip() and not pots:
                    raise bad_line(n, text, "pot sizes not understood")
                rake = money(t.group(3), n)
                if rake:
                    h.emit(n, "rake", amount=rake, detail="rake")
            elif (ss := _SUMMARY_SEAT.match(text)):
                names = [p for p, q in h.seat_of.items() if q == int(ss.group(1))]
                for won in _SUMMARY_WON.findall(text[ss.end():]):
                    if names:
                        summary_won.append((n, names[0], money(won, n)))
            elif text.startswith("Board: [") and not board_summary_seen:
                board_summary_seen = True
                stated = site_cards(text[7:], f"line {n}").split(" ")
                if stated[:len(board_cards)] != board_cards:
                    raise bad_line(n, text, "the summary's board is not the board dealt")
                if len(stated) > len(board_cards) and not is_stud:
                    # the body stops before the last cards (all in): the summary names them
                    h.board(n, " ".join(stated[len(board_cards):]))
            elif (text.startswith(("Board: [", "Duration ")) or _RUN_SUMMARY.match(text)):
                pass  # restatements: the boards, the seats' results, run-it-twice pots
            else:
                raise bad_line(n, text, "unknown summary line")
            continue
        if (b := _BUTTON.match(text)):
            button = int(b.group(1))
            continue
        if text == "*** HOLE CARDS ***":
            if section != "pre":
                raise bad_line(n, text, "second hole-cards line")
            section = "play"
            h.deal_holes(n, variant, known)
            continue
        if _SHOW_DOWN.match(text) or _LOW_DESC.match(text) or (
                variant == "irish" and text == "*** DISCARD ROUND ***"):
            continue
        if text == "*** SUMMARY ***":
            section = "summary"
            ended = True
            continue
        if (s := _STREET.match(text)):
            cards = s.group(4) or s.group(3)
            if s.group(2) == "2":  # run it twice: the second board's own cards
                runs = 2
                h.emit(n, "deal", cards=site_cards(cards, f"line {n}"), detail="board@run2")
            else:
                h.board(n, site_cards(cards, f"line {n}"))
                board_cards.extend(site_cards(cards, f"line {n}").split(" "))
            continue
        if (u := _UNCALLED.match(text)):
            h.award(n, u.group(2), money(u.group(1), n), "uncalled")
            continue
        if (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
            continue  # dealt with at *** HOLE CARDS ***
        split = h.split_name(text)
        if split is None:
            if (o := _OBSERVER.match(text)):
                h.emit(n, "annotation", player=o.group(1), detail=f"said: {o.group(2)}")
                continue
            for pattern, label in _ANYONE_NOTES:
                if (a := pattern.match(text)):
                    h.emit(n, "annotation", player=a.group(1), detail=label)
                    break
            else:
                for pattern, label in _TABLE_NOTES:
                    if pattern.match(text):
                        h.emit(n, "annotation", detail=label)
                        break
                else:
                    raise bad_line(n, text)
            continue
        name, rest = split
        if rest.startswith(":"):
            h.emit(n, "annotation", detail=f"said: {rest[1:].strip()}", **h.who(name))
            continue
        if (p := _POST.match(rest)):
            verb, amt = p.group(1), money(p.group(2), n)
            if section != "pre":
                raise bad_line(n, text, "a forced bet after the deal")
            if verb == "antes":
                if is_stud and not game["ante"] and not p.group(3):
                    game["ante"] = amt  # a stud header names no ante: the first full one
                h.post(n, name, "ante", amt, live=False)
            elif verb == "posts a dead small blind of":
                h.post(n, name, "dead", amt, live=False)
            elif verb == "posts the small blind of":
                sb_posted = amt if sb_posted is None else sb_posted
                sb_seat = h.seat_of[name] if sb_seat is None else sb_seat
                h.post(n, name, "small_blind", amt, live=True)
            elif verb == "posts the big blind of":
                h.post(n, name, "big_blind", amt, live=True)
            else:
                h.post(n, name, "new_player", amt, live=True)
            continue
        if stud is not None and (bi := _BRING_IN.match(rest)):
            if section != "play":
                raise bad_line(n, text, "a bring-in before 3rd street")
            amt = money(bi.group(1), n)
            if "bring_in" not in game and not bi.group(2):
                game["bring_in"] = amt
            h.post(n, name, "bring_in", amt, live=True)
            continue
        if draw is not None and section == "play" and (dc := _DISCARD.match(rest)):
            draw.discard(n, text, name, int(dc.group(1)), dc.group(2))
            continue
        if variant == "irish" and section == "play" and (ir := _IRISH_DISCARD.match(rest)):
            # Irish: two hole cards thrown away after the flop, none drawn
            cards = site_cards(ir.group(1), f"line {n}") if ir.group(1) else "?? ??"
            h.emit(n, "draw", amount=0, cards=cards, **h.who(name))
            continue
        if draw is not None and section == "play" and (dn := _IS_DEALT.match(rest)):
            draw.dealt_unseen(n, text, name, int(dn.group(1)))
            continue
        if draw is not None and section == "play" and _STAND_PAT.match(rest):
            draw.start_if_betting()
            h.emit(n, "stand_pat", **h.who(name))
            continue
        if (a := _ACTION.match(rest)):
            if section == "pre" and rest == "checks" and h.left[h.seat_of[name]] == 0:
                # all in on the ante, the blind he owes is logged as a check before the deal
                h.emit(n, "annotation", detail="checks_all_in_before_the_deal", **h.who(name))
                continue
            if section != "play":
                raise bad_line(n, text, "an action before the hole cards")
            verb, amt_s = a.group(1), a.group(2)
            all_in, capped = a.group(3) == ", and is all in", a.group(3) == ", and is capped"
            kind = {"folds": "fold", "checks": "check", "calls": "call", "bets": "bet",
                    "raises to": "raise", "completes it to": "complete"}[verb]
            if (amt_s is None) != (kind in ("fold", "check")):
                raise bad_line(n, text, "amount missing or unexpected")
            if draw is not None:
                draw.flush()  # the draw is over: replacements the log never showed are `??`
            if draw is not None and kind in ("call", "bet", "raise", "complete"):
                draw.betting = True  # chips went in: a later discard starts a new draw
            if kind in ("raise", "complete"):
                h.act(n, name, kind, to=money(amt_s, n), all_in=all_in)
            elif kind in ("call", "bet"):
                h.act(n, name, kind, added=money(amt_s, n), all_in=all_in)
            else:
                h.act(n, name, kind)
            if capped and not cap_amount:  # his chips in the hand so far are the cap
                seat_no = h.seat_of[name]
                cap_amount = sum(r["amount"] or 0 for r in h.rows
                                 if r["kind"] in _PUT_IN and r.get("seat") == seat_no) - sum(
                    r["amount"] or 0 for r in h.rows
                    if r["kind"] == "award" and r.get("seat") == seat_no)
            continue
        if (s2 := _SHOW.match(rest)):
            h.emit(n, "show", cards=site_cards(s2.group(1), f"line {n}"), **h.who(name))
            shown.add(name)
            continue
        if _SHOW_DESCRIPTION.match(rest):
            if name not in shown:  # shown, but the log names the hand, not the cards
                h.emit(n, "show", cards=" ".join(["??"] * len(h.hole.get(
                    h.seat_of[name], "?? ??").split(" "))), **h.who(name))
                shown.add(name)
            continue  # the shown hand's name, after its cards
        if stud is not None and _BRING_IN_CARD.match(rest):
            continue
        if (mk := _MUCK.match(rest)):
            w = h.who(name)
            # the dealt cards are the mucked hand, except after a draw changed it
            cards = site_cards(mk.group(1), f"line {n}") if mk.group(1) else (
                None if is_draw or variant == "irish" else h.hole.get(w["seat"]))
            h.emit(n, "muck", cards=cards if cards and "??" not in cards else None, **w)
            continue
        if (wn := _WIN.match(rest)):
            half, pot, side_a, side_b, amt_s = wn.groups()
            if pot.startswith("side"):
                label = f"side-{side_a or side_b or 1}"
            elif pot == "pot" and side_b and runs > 1:  # `wins pot 2`: the second run's half
                label = "main" + (f"@run{side_b}" if side_b != "1" else "")
            else:
                label = "main"
            if half:
                label += f"/{half}"
            h.award(n, name, money(amt_s, n), label)
            body_won = True
            continue
        for pattern, label in _SEATED_NOTES:
            if pattern.match(rest):
                h.emit(n, "annotation", detail=label, **h.who(name))
                break
        else:
            # a seated name may be the start of an unseated one's: "ace" seated, "ace ace
            # sits down"
            for pattern, label in _ANYONE_NOTES:
                if (a := pattern.match(text)) and a.group(1) not in h.seat_of:
                    h.emit(n, "annotation", player=a.group(1), detail=label)
                    break
            else:
                raise bad_line(n, text)
    if not ended:
        raise SiteHandError(f"line {last}: hand ends without '*** SUMMARY ***' (truncated?)")
    if total_pot is None:
        raise SiteHandError(f"line {last}: the summary has no 'Total pot' line (truncated?)")
    if not body_won:  # a pot taken uncontested is written in the summary only
        for at, who, amount in summary_won:
            h.award(at, who, amount, "main")
    if cap_amount:  # a capped table: no player puts more than the cap into one hand
        game["house_overrides"] = json.dumps({"stakes.hand_cap": cap_amount})
    elif cap:
        started["source"] += ";cap=not stated (nobody reached it)"
    end_detail = f"total_pot={total_pot}" + (";pots=" + ",".join(pots) if pots else "")
    if not any(r["kind"] == "award" and r["detail"] == "uncalled" for r in h.rows):
        put = sum(r["amount"] or 0 for r in h.rows if r["kind"] in _PUT_IN)
        if put > total_pot:  # chips came back without an 'Uncalled bet' line (a walk)
            started["detail"] = "refunds=implicit"
    if stud is not None:
        if "bring_in" not in game:
            game["bring_in"] = low // 2
            started["source"] += ";bring_in=assumed half the small bet"
        h.end(last, end_detail)
        return h
    if total_pot == 0 and not any(r["kind"] == "deal" for r in h.rows):
        # no card dealt, nothing in the pot: the room called the hand off (the posts go back)
        started["detail"] = ";".join(filter(None, ("cancelled=true", started.get("detail"))))
        if button is None and len(h.seat_of) == 2 and sb_seat is not None:
            button = sb_seat  # heads-up, the button posts the small blind
            started["source"] += ";button=the small blind's seat (heads-up, no button line)"
    if button is None:
        raise SiteHandError(f"line {number}: no 'The button is in seat #N' line")
    started["game"]["button_seat"] = button
    if structure == "fixed_limit":
        started["game"]["small_blind"] = sb_posted
    h.end(last, end_detail)
    return h


_PLAYS = ("antes ", "posts ", "brings in ", "calls ", "bets ", "raises ", "completes ",
          "checks", "folds", "discards ", "stands pat")


def _plays(name: str, body: list[tuple[int, str]]) -> bool:
    """Whether a seated player is dealt in: the log deals him cards or he antes, posts or
    acts before the summary."""
    for _, text in body:
        if text == "*** SUMMARY ***":
            return False
        if text.startswith(f"Dealt to {name} ["):
            return True
        if text.startswith(name + " ") and text[len(name) + 1:].startswith(_PLAYS):
            return True
    return False


class _Draws:
    """The draws of one draw-game hand: discards, the replacement cards the log shows (the
    hero's), and `??` replacements for everyone else."""

    def __init__(self, hand: SiteHand) -> None:
        self.hand = hand
        self.betting = True  # in a betting round (a discard then starts a draw)
        self.pending: list[tuple[int, str, int, int]] = []  # (seat, name, count, line)
        # whether unseen replacements are dealt at the next line (the log has no `is dealt`
        # lines) or when the draw is over (all discards first, then `P is dealt N cards`)
        self.eager = True

    def start(self) -> None:
        self.betting = False
        self.hand.new_round()

    def start_if_betting(self) -> None:
        if self.betting:  # no '*** DRAW ***' line: the first discard ends the betting round
            self.start()

    def discard(self, line: int, text: str, name: str, count: int, cards: str | None) -> None:
        self.start_if_betting()
        w = self.hand.who(name)
        shown = site_cards(cards, f"line {line}") if cards else None
        if count < 1 or (shown is not None and len(shown.split(" ")) != count):
            raise bad_line(line, text, "the discarded cards do not match their count")
        self.hand.emit(line, "draw", amount=count, cards=shown or " ".join(["??"] * count), **w)
        self.pending.append((w["seat"], name, count, line))

    def dealt(self, line: int, text: str, name: str, new: str) -> None:
        seat = self.hand.who(name)["seat"]
        for k, (pseat, _, count, _) in enumerate(self.pending):
            if pseat == seat:
                cards = site_cards(new, f"line {line}")
                if len(cards.split(" ")) != count:
                    raise bad_line(line, text, "a draw replaces as many cards as discarded")
                del self.pending[k]
                self.hand.emit(line, "deal", cards=cards, detail="draw", seat=seat, player=name)
                return
        raise bad_line(line, text, "new cards for a player who did not discard")

    def dealt_unseen(self, line: int, text: str, name: str, count: int) -> None:
        seat = self.hand.who(name)["seat"]
        for k, (pseat, _, pcount, _) in enumerate(self.pending):
            if pseat == seat:
                if pcount != count:
                    raise bad_line(line, text, "a draw replaces as many cards as discarded")
                del self.pending[k]
                self.hand.emit(line, "deal", cards=" ".join(["??"] * count), detail="draw",
                               seat=seat, player=name)
                return
        raise bad_line(line, text, "new cards for a player who did not discard")

    def flush(self, keep: set[str] | None = None) -> None:
        """Deal `??` for the pending replacements, except those of the players in `keep`."""
        kept = []
        for seat, name, count, line in self.pending:
            if keep and name in keep:
                kept.append((seat, name, count, line))
                continue
            self.hand.emit(line, "deal", cards=" ".join(["??"] * count), detail="draw",
                           seat=seat, player=name)
        self.pending = kept


class _StudDeal:
    """The stud deal of one hand: down and up cards per street, as the log shows them, and
    the 7th-street down card (`??`) of every live player the log does not show it for."""

    def __init__(self, hand: SiteHand) -> None:
        self.hand = hand
        self.number = 0  # the current street, 3..7
        self.seen: set[int] = set()  # seats dealt on the current street
        self.live: set[int] = set()  # seats dealt on the previous street, not folded
        self.river_line = -1  # 7th street header line while its unseen cards are pending

    def street(self, line: int, number: int) -> None:
        if number != self.number + 1 and not (number == 3 and self.number == 0):
            raise bad_line(line, f"*** {number} STREET ***", "stud street out of order")
        self.flush()
        self.live = self.seen - self.hand.folded
        self.seen = set()
        self.number = number
        if number == 7:
            self.river_line = line
        self.hand.new_round()

    def dealt_cards(self, old: str | None, new: str | None, line: int) -> tuple[list[str], str]:
        if new is None:
            return [], site_cards(old or "", f"line {line}")
        return site_cards(old or "", f"line {line}").split(" "), site_cards(new, f"line {line}")

    def dealt(self, line: int, text: str, name: str, first: str, second: str | None) -> None:
        h = self.hand
        if self.number == 0:
            raise bad_line(line, text, "cards dealt before 3rd street")
        w = h.who(name)
        if w["seat"] in self.seen:
            raise bad_line(line, text, "a second deal to the same player on one street")
        self.seen.add(w["seat"])
        old, new = self.dealt_cards(first, second, line)
        if self.number == 3:
            cards = old + new.split(" ")
            if len(cards) == 3:
                h.emit(line, "deal", cards=" ".join(cards[:2]), detail="down", **w)
                h.emit(line, "deal", cards=cards[2], detail="up", **w)
            elif len(cards) == 1:
                h.emit(line, "deal", cards="?? ??", detail="down", **w)
                h.emit(line, "deal", cards=cards[0], detail="up", **w)
            else:
                raise bad_line(line, text, "3rd street deals one up card (and two down)")
            return
        if len(new.split(" ")) != 1:
            raise bad_line(line, text, "a stud street deals one card")
        h.emit(line, "deal", cards=new, detail="down" if self.number == 7 else "up", **w)

    def flush(self) -> None:
        if self.river_line < 0:
            return
        h = self.hand
        names = {seat: name for name, seat in h.seat_of.items()}
        for seat in sorted(self.live - h.folded - self.seen):
            h.emit(self.river_line, "deal", cards="??", detail="down", seat=seat,
                   player=names[seat])
            self.seen.add(seat)
        self.river_line = -1


def _ftp_hand_id(header: str) -> str | None:
    m = _HEADER.match(header)
    return f"ftp:{m.group(1)}" if m else None


_SNIFF = re.compile(r"(?m)^\ufeff?(?:Full Tilt Poker|FullTiltPoker) Game #\d+: ")
_HEADER_LINE = re.compile(r"^\ufeff?(?:Full Tilt Poker|FullTiltPoker) Game #\d+: ")
# file framing written by archive tools around the hands (HM2 archives start with `BEGIN`)
_FRAMING = re.compile(r"^(?:BEGIN|END|\*{5,} # \d+ \*{5,})$")


class FullTiltImporter(SiteTextImporter):
    """Full Tilt Poker text files: recognised by a line starting `Full Tilt Poker Game #` (older
    files: `FullTiltPoker Game #`) near the top, in UTF-8, cp1252 or UTF-16; read hand by
    hand."""

    name = "fulltilt"
    sniff_re = _SNIFF
    header_line = _HEADER_LINE
    skip = _FRAMING
    map_hand = staticmethod(_map_ftp)
    hand_id_of = staticmethod(_ftp_hand_id)


IMPORTER = FullTiltImporter()
