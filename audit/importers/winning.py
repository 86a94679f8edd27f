"""Winning Poker Network (WPN: Americas Cardroom, Black Chip, True Poker, ...) text hand
histories imported as events.

WPN has written two text formats; both are read, cash games and tournaments. A hand starts at
its header line and runs to the next one; the reader streams the file line by line (UTF-8,
cp1252, UTF-16 with a stray odd last byte), maps one hand at a time and yields chunks of whole
hands. A hand with a line the grammar does not know is quarantined whole, naming the line; so
is a hand the file cuts short (no summary).

**The older format** (`Game started at: yyyy/m/d h:m:s`, no time zone: read as UTC, `source`
says so):

* `Game ID: <id> <a>/<b> <description> (<game>)` -> hand_id `wpn:<id>`, table_id the
  description; games `Hold'em` -> holdem, `Six Plus Hold'em` -> holdem_6plus, `Omaha` ->
  omaha, `Omaha HiLow` -> omaha_hilo, `5 Card Omaha[ HiLow]` -> omaha5[_hilo], `Seven Cards
  Stud` -> stud, `Seven Cards Stud HiLow` -> stud_hilo, `Razz` -> razz; another game is
  quarantined naming it. A description ending `, Table N` (or none at all) is a tournament
  (CHIPS/1), else a cash game in USD cents. The line names no betting structure: a big blind
  posted at the LOWER stake is a fixed-limit game (`a/b` the small and big bet: LHE
  `2/4`, big blind 2), else `a/b` are the blinds of a no-limit (hold'em) or pot-limit
  (Omaha) game; stud is fixed-limit. `source` notes the inference.
* `Seat N is the button`, `Seat N: name (stack).` -> seat.
* `Player P has small blind (x)` / `has big blind (x)` / `posts ante (x)` / `ante (x)` / `bring
  in (x)` / `has dead blind (x)` -> posts (small_blind, big_blind, ante, bring_in, dead).
* `received card: [c]` / `received a card.` (one line per card) -> deal/hole (`??` unknown);
  stud: the first three cards are 3rd street (two down, one up), and each `*** Third|Fourth|
  Fifth|Sixth street ***` header (WPN names them one street early) deals the next street:
  up cards, the last one down.
* `calls (x)`, `bets (x)`, `raises (x)` (x = chips ADDED, as the `Bets:` totals of the
  summary confirm), `allin (x)` (added; bet / call / raise by the round state), `folds`,
  `checks`.
* `P is disconnected and ALL IN.` followed by `P allin` (no amount): WPN's disconnection
  protection: the player stays in the hand for what he has put in, without putting in more;
  -> annotation `all_in_protection` (the replay treats the seat as all-in from there).
* `Uncalled bet (x) returned to P` -> award uncalled; `*** FLOP ***: [..]` etc. -> board.
* summary `Pot: x[. Rake r][. JP fee j]` -> rake events (rake, jackpot), hand_ended detail
  `total_pot=<x + r + j>`; `[*]Player P <shows: <hand> [cards] | mucks (does not show: [cards])
  | mucks (does not show cards) | does not show cards>. Bets: b. Collects: c. Wins|Loses: w.`
  -> show / muck, and award main of c when c > 0 (WPN writes one collection per player,
  high and low halves and side pots together).
* A player whose name the log leaves out (`Player  has big blind (2)`: an empty name) is the
  one seated player the hand never names; with no such player he sits in the button's seat
  when that is free, else the first free seat (stack: what he put in when he went all-in,
  else unknown), and his collection is the pot less everyone else's when the summary omits
  him. `source` notes each inference. Summary lines for players not seated who put nothing in
  are annotations.

**The newer format** (`Hand #N - <game>(<structure>) - $a/$b - <date> UTC`, tournaments
`Game Hand #N - <name> Tournament #T - <game>(<structure>) - Level L (a/b)- <date> UTC`) is
PokerStars-like: `<table> N-max Seat #B is the button` / `Table 'T' N-max Seat #B is the
button`, `Seat N: P ($x)`, `posts the small blind $x` / `the big blind` / `ante`, `*** HOLE
CARDS ***`, `Dealt to P [..]`, `raises $x to $y`, `calls $x`, `bets $x`, `and is all-in`,
`Uncalled bet ($x) returned to P`, `collected $x from pot`, `shows [..]`, `does not show`,
`mucks`, the running `Main pot x` / `Side pot N x` lines (layout), `*** SUMMARY ***`,
`Total pot x[ | Rake y][ | JP Fee z]`, `Board [..]`, `Seat N: ... won x` (award main when the
body collected nothing).

**Fast path** (`_fast_old`): the older format's hands whose players are named by one word (an
unnamed player as the line parser names and seats him, his name read into his lines:
`_named_unnamed`) and with only the lines listed above in their places (posts, cards
received, actions, streets, uncalled returns, notes, the summary's pot and results), are read
straight into event columns (`columns.EventColumns`); so are the newer format's common hands
(`winning_new.fast_new`: players named by one word, the lines listed above in their places);
every other hand (an unseated name, a line out of place) is left to the line parser (`_Old`,
`_New`), which stays the single source of truth: the fast path makes exactly the events the
line parser makes of the hands it takes (tests/importers/test_site_fast_paths.py,
test_winning_new_fast.py).

**Compiled pass** (`winning_kernel`, `winning_compiled`): a file of the older format's hold'em,
Omaha and stud hands (plain UTF-8, UTF-16 or with byte-order marks, at most 8 MB) is read whole:
its common hands straight from its text into event columns by a numba kernel, the others
by the fast path and the line parser, in the same chunks (tests/importers/
test_winning_compiled.py). A file of the newer format goes through it too, read once and split
into hands there, though the kernel reads none of them: each is the fast path's or the line
parser's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from audit.importers.base import Chunk
from audit.importers.columns import EventColumns, read_columns
from audit.importers.fasttext import Amounts, quick_cards
from audit.importers.sitetext import (
    CHUNK_HANDS,
    CURRENCY_SYMBOLS,
    HOLE_COUNT,
    STATUS_LINE,
    RoundsHand,
    SiteHand,
    SiteHandError,
    SiteTextImporter,
    bad_line,
    first_name_end,
    header_time,
    known_cards,
    parse_amount,
    site_cards,
    site_money,
    to_minor,
)

_HEADER_LINE = re.compile(r"^\ufeff?(?:Game started at: |(?:Game )?Hand #\d+ - )")
_SNIFF = re.compile(r"(?m)^\ufeff?(?:Game started at: \d{4}/\d{1,2}/\d{1,2} [\d:]+\s*$"
                    r"|(?:Game )?Hand #\d+ - .*\((?:No Limit|Pot Limit|Fixed Limit|Limit)\) - )")
_NUM = r"[0-9][0-9,.]*"

# --- older format -------------------------------------------------------------------------
_STARTED = re.compile(r"^\ufeff?Game started at: (\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{1,2}:\d{1,2})$")
_GAME_ID = re.compile(rf"^Game ID: (?P<id>\d+) (?P<a>{_NUM})/(?P<b>{_NUM}) ?(?P<desc>.*?) ?"
                      r"\((?P<game>[^()]*)\)$")
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_SEAT = re.compile(rf"^Seat (\d+): (.*) \((?P<a>{_NUM})\)\.?$")
_OLD_GAMES = {"hold'em": "holdem", "holdem": "holdem", "six plus hold'em": "holdem_6plus",
              "omaha": "omaha", "omaha hilow": "omaha_hilo", "omaha hi/lo": "omaha_hilo",
              "5 card omaha": "omaha5", "5 card omaha hilow": "omaha5_hilo",
              "seven cards stud": "stud", "seven cards stud hilow": "stud_hilo",
              "razz": "razz"}
_OLD_POST = re.compile(rf"^(has small blind|has big blind|has dead blind|posts ante|ante|"
                       rf"bring in|posts small blind|posts big blind|has straddle|"
                       rf"posts straddle|straddle) \((?P<a>{_NUM})\)$")
_OLD_ACTION = re.compile(rf"^(calls|bets|raises|allin) \((?P<a>{_NUM})\)$")
_RECEIVED = re.compile(r"^received (?:a card\.|card: \[([^\]]*)\])$")
_OLD_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER) \*\*\*:? ((?:\[[^\]]*\] ?)+)$")
_OLD_STUD = re.compile(r"^\*\*\* (Third|Fourth|Fifth|Sixth|Seventh) street \*\*\*$",
                       re.IGNORECASE)
_UNCALLED = re.compile(rf"^Uncalled bet \(\$?(?P<a>{_NUM})\) returned to ?(?P<who>.*)$")
_POT = re.compile(rf"^Pot: (?P<p>{_NUM}?)\.?(?:\s*Rake (?P<r>{_NUM}?)\.?)?"
                  rf"(?:\s*JP fee (?P<j>{_NUM}?)\.?)?$")
_RESULT = re.compile(rf"^\*?Player (?P<rest>.*?)\.? ?Bets: (?P<b>{_NUM}?)\. Collects: "
                     rf"(?P<c>{_NUM}?)\. (?:Wins|Loses): (?P<w>{_NUM}?)\.$")
_RESULT_SHOW = re.compile(r"^shows: .*?\[([^\]]*)\].*$")
_RESULT_MUCK = re.compile(r"^mucks \(does not show: \[([^\]]*)\]\)$")
_RESULT_NONE = re.compile(r"^(?:mucks \(does not show cards\)|does not show cards)$")
_OLD_NOTES = [
    (re.compile(r"^sitting out$"), "sits_out"),
    (re.compile(r"^is timed out\.?$"), "timed_out"),
    (re.compile(r"^is disconnected\.?$"), "disconnected"),
    (re.compile(r"^is connected\.?$|^is reconnected\.?$"), "reconnected"),
    (re.compile(r"^(?:has )?(?:joined|left) the table\.?$"), "table_change"),
    (re.compile(r"^wait(?:s)? for big blind\.?$"), "waits_for_big_blind"),
]
_STUD = frozenset({"stud", "stud_hilo", "razz"})
_UNNAMED_RETURN = re.compile(r"^Uncalled bet \(.*\) returned to ?$")

# --- newer format -------------------------------------------------------------------------
_NEW_HEADER = re.compile(
    r"^\ufeff?(?:Game )?Hand #(?P<id>\d+) - (?:(?P<tname>.*?) ?Tournament #(?P<tid>\d+) - )?"
    r"(?P<game>[^()]+?) ?\((?P<limit>No Limit|Pot Limit|Fixed Limit|Limit)\) - "
    rf"(?:Level (?P<level>\d+) \((?P<ta>{_NUM})/(?P<tb>{_NUM})\)|"
    rf"(?P<ca>[$€£]?{_NUM})/(?P<cb>[$€£]?{_NUM})) ?- "
    r"(?P<date>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) (?P<zone>[A-Za-z]+)$")
_NEW_GAMES = {"holdem": "holdem", "hold'em": "holdem", "omaha": "omaha",
              "omaha h/l": "omaha_hilo", "omaha hi/lo": "omaha_hilo", "omaha5": "omaha5",
              "5 card omaha": "omaha5", "omaha5 h/l": "omaha5_hilo",
              "5 card omaha h/l": "omaha5_hilo", "6 card omaha": "omaha6",
              "omaha6": "omaha6", "six plus holdem": "holdem_6plus"}
_LIMITS = {"no limit": "no_limit", "pot limit": "pot_limit", "fixed limit": "fixed_limit",
           "limit": "fixed_limit"}
_TABLE = re.compile(r"^(?:Table '(?P<t>.*)'|(?P<t2>.*?)) (?P<max>\d+)-max"
                    r"(?: Seat #(?P<b>\d+) is the button)?$")
_AMT = rf"[$€£]?{_NUM}"
_NEW_SEAT = re.compile(rf"^Seat (\d+): (.+?) \((?P<a>{_AMT})\)(?P<out> is sitting out)?$")
_NEW_POST = re.compile(rf"^posts (the small blind|the big blind|ante|the ante|dead blind|"
                       rf"straddle|small & big blinds) (?P<a>{_AMT})(?P<allin> and is all-in)?$")
_NEW_ACTION = re.compile(rf"^(folds|checks|calls|bets|raises)(?: (?P<a>{_AMT}))?"
                         rf"(?: to (?P<to>{_AMT}))?(?P<allin> and is all-in)?$")
_NEW_STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER) \*\*\*:? ((?:\[[^\]]*\] ?)+)$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\]$")
_NEW_SHOW = re.compile(r"^shows \[([^\]]*)\](?: \(.*\))?$")
_NEW_MUCK = re.compile(r"^(?:mucks|does not show)(?: hand)?(?: \[([^\]]*)\])?$")
_COLLECT = re.compile(rf"^collected (?P<a>{_AMT}) from (?:the )?(?P<pot>pot|main pot|side pot"
                      r"(?:[- ]#?(?P<k>\d+))?)$")
_RUNNING = re.compile(rf"^(?:Main pot|Side pot(?:[- ]\d+)?) {_AMT}(?: .*)?$")
_TOTAL = re.compile(rf"^Total pot (?P<a>{_AMT})(?P<rest>.*)$")
_TOTAL_PART = re.compile(rf"(Rake|JP Fee|JP fee|Jackpot|Main pot|Side pot(?:[- ]\d+)?) "
                         rf"(?P<a>{_AMT})")
_SUMMARY_SEAT = re.compile(r"^Seat (\d+): ")
_SUMMARY_WON = re.compile(rf"\bwon \(?(?P<a>{_AMT})\)?")
_NEW_NOTES = [
    (re.compile(r"^(?:is )?sitting out$|^sits out$"), "sits_out"),
    (re.compile(r"^(?:is )?disconnected$"), "disconnected"),
    (re.compile(r"^(?:is )?(?:re)?connected$"), "reconnected"),
    (re.compile(r"^(?:has )?timed out$"), "timed_out"),
]




def _old_hand_id(block: list[tuple[int, str]]) -> str | None:
    for _, text in block[:4]:
        if (m := re.match(r"^Game ID: (\d+) ", text)):
            return f"wpn:{m.group(1)}"
    if (m := _NEW_HEADER.match(block[0][1]) or re.match(r"^\ufeff?(?:Game )?Hand #(\d+)",
                                                         block[0][1])):
        return f"wpn:{m.group(1)}"
    return None


class _Hand:
    """One hand being mapped (either format): its lines but blank ones, its money unit."""

    def __init__(self, block: list[tuple[int, str]], file_name: str) -> None:
        self.block = [line for line in block if line[1] and not line[1].isspace()]
        self.file_name = file_name
        self.mpu = 100

    def money(self, text: str, n: int) -> int:
        return site_money(text, self.mpu, n)


class _Old(_Hand):
    """One hand of the older format being mapped."""

    def __init__(self, block: list[tuple[int, str]], file_name: str) -> None:
        super().__init__(block, file_name)
        # a line of a lone replacement character (a byte no encoding reads) is blank too
        self.block = [(n, t) for n, t in self.block if t.strip() != "\ufffd"]

    def map(self) -> SiteHand:  # noqa: C901, PLR0912, PLR0915 - one pass over the grammar
        number, header = self.block[0]
        st = _STARTED.match(header)
        if st is None:
            raise bad_line(number, header, "header not understood")
        if len(self.block) < 2 or not (g := _GAME_ID.match(self.block[1][1])):
            raise bad_line(self.block[1][0] if len(self.block) > 1 else number,
                           self.block[1][1] if len(self.block) > 1 else header,
                           "no `Game ID:` line after the header")
        gn = self.block[1][0]
        variant = _OLD_GAMES.get(" ".join(g.group("game").lower().split()))
        if variant is None:
            raise bad_line(gn, self.block[1][1], f"unsupported WPN game {g.group('game')!r}")
        desc = g.group("desc").strip()
        tournament = not desc or re.search(r", Table \d+$", desc) is not None
        self.mpu = 1 if tournament else 100
        note = ";ts=local time read as UTC (the log names no time zone)"
        ts, _ = header_time(st.group(1), "UTC", number, header)
        if not desc:
            note += ";tournament=the game line names no table: read as tournament chips"
        h = SiteHand(fmt="winning", file_name=self.file_name, hand_id=f"wpn:{g.group('id')}",
                     table_id=desc or None)
        is_stud = variant in _STUD
        low, high = self.money(g.group("a"), gn), self.money(g.group("b"), gn)
        game: dict[str, Any] = {
            "variant": variant, "currency": "CHIPS" if tournament else "USD",
            "minor_per_unit": self.mpu, "tournament": tournament, "ante": 0,
        }
        body = self.block[2:]
        i = 0
        button = None
        seats: list[tuple[int, int, str, int]] = []
        while i < len(body):
            n, text = body[i]
            if (b := _BUTTON.match(text)):
                button = int(b.group(1))
            elif (s := _SEAT.match(text)):
                seats.append((n, int(s.group(1)), s.group(2), self.money(s.group("a"), n)))
            else:
                break
            i += 1
        if not seats:
            raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
        rest = body[i:]
        if not any(t == "------ Summary ------" for _, t in rest):
            raise SiteHandError(f"line {rest[-1][0] if rest else body[-1][0]}: the hand ends "
                                "without its summary (the file is cut short)")
        # the big blind as posted tells the structure (the game line names none)
        bb_post = next((self.money(p.group("a"), n) for n, t in rest
                        if t.startswith("Player ") and (p := re.search(
                            rf"has big blind \((?P<a>{_NUM})\)$", t))), None)
        if is_stud:
            structure = "fixed_limit"
            game.update(small_bet=low, big_bet=high)
        elif bb_post is not None and bb_post == low and high == 2 * low:
            structure = "fixed_limit"
            game.update(small_bet=low, big_bet=high, big_blind=low)
            note += ";structure=fixed limit (the big blind is the lower stake)"
        else:
            structure = "pot_limit" if variant.startswith("omaha") else "no_limit"
            game.update(small_blind=low, big_blind=high)
            note += (f";structure={structure.replace('_', ' ')} (the big blind is the higher "
                     "stake)")
        game["structure"] = structure
        if not is_stud:
            if button is None:
                raise SiteHandError(f"line {number}: no `Seat N is the button` line")
            game["button_seat"] = button
        started = h.emit(number, "hand_started", note, ts=ts, game=game)
        for n, seat_no, name, stack in seats:
            h.add_seat(n, seat_no, name, stack, False)
        unknown = self._unknown_player(h, rest, button, started)
        self._sitting_out(h, rest, unknown)
        sb_posted: int | None = None
        received: dict[str, list[tuple[int, str]]] = {}
        dealt = False
        stud_street = 3
        section = "play"
        total_pot: int | None = None
        results: list[tuple[int, str, int]] = []  # (line, player, collects)
        protected: set[str] = set()
        last = number
        mucked: dict[str, dict[str, Any]] = {}

        def flush_deal(n: int) -> None:
            nonlocal dealt, received
            if not received:
                return
            if is_stud:
                self._stud_deal(h, stud_street, received)
            elif not dealt:
                known = {p: (c[0][0], " ".join(x for _, x in c)) for p, c in received.items()}
                count = HOLE_COUNT.get(variant, 2)
                for p, (at, cards) in known.items():
                    if len(cards.split(" ")) != count:
                        raise bad_line(at, f"{p}: {cards}", f"{variant} deals {count} hole "
                                       "cards")
                h.deal_holes(n, variant, known)
            else:
                raise bad_line(n, "received card", "cards received after the deal")
            dealt = True
            received = {}

        for n, text in rest:
            last = n
            if section == "summary":
                if (pt := _POT.match(text)):
                    total_pot = self.money(pt.group("p"), n)
                    for key, label in (("r", "rake"), ("j", "jackpot")):
                        if pt.group(key):
                            amt = self.money(pt.group(key), n)
                            total_pot += amt
                            if amt:
                                h.emit(n, "rake", amount=amt, detail=label)
                    continue
                if text.startswith("Board: ["):
                    continue
                if text.startswith("Game ended at: "):
                    section = "ended"
                    continue
                if (r := _RESULT.match(text)):
                    self._result(h, n, text, r, unknown, results, mucked)
                    continue
                raise bad_line(n, text, "unknown summary line")
            if section == "ended":
                raise bad_line(n, text, "a line after `Game ended at:`")
            if text == "------ Summary ------":
                flush_deal(n)
                section = "summary"
                continue
            if text.startswith("Player "):
                pass  # a player's line: no return, street or summary line starts so
            elif (u := _UNCALLED.match(text)):
                flush_deal(n)
                who = self._name(u.group("who").strip(), unknown, n, text)
                h.award(n, who, self.money(u.group("a"), n), "uncalled")
                continue
            elif (sv := _OLD_STREET.match(text)):
                flush_deal(n)
                groups = re.findall(r"\[([^\]]*)\]", sv.group(2))
                h.board(n, site_cards(groups[-1], f"line {n}"))
                continue
            elif is_stud and _OLD_STUD.match(text):
                flush_deal(n)
                stud_street += 1
                h.new_round()
                continue
            else:
                raise bad_line(n, text)
            name, verb = self._split(h, text[7:], unknown, n, text)
            if (rc := _RECEIVED.match(verb)):
                card = site_cards(rc.group(1), f"line {n}") if rc.group(1) else "??"
                received.setdefault(name, []).append((n, card))
                continue
            flush_deal(n)
            if (p := _OLD_POST.match(verb)):
                what, amt = p.group(1), self.money(p.group("a"), n)
                if what in ("has small blind", "posts small blind"):
                    kind = "small_blind" if sb_posted is None else "dead"
                    sb_posted = amt if sb_posted is None else sb_posted
                    h.post(n, name, kind, amt, live=kind != "dead")
                elif what in ("has big blind", "posts big blind"):
                    kind = "big_blind" if not any(
                        r["kind"] == "post" and r["detail"] == "big_blind" for r in h.rows
                    ) else "new_player"
                    h.post(n, name, kind, amt, live=True)
                elif what == "has dead blind":
                    h.post(n, name, "dead", amt, live=False)
                elif "straddle" in what:
                    game["straddle"] = amt
                    h.post(n, name, "straddle", amt, live=True)
                elif what == "bring in":
                    game.setdefault("bring_in", amt)
                    h.post(n, name, "bring_in", amt, live=True)
                else:
                    game["ante"] = game["ante"] or amt
                    h.post(n, name, "ante", amt, live=False)
                continue
            if (a := _OLD_ACTION.match(verb)):
                amt = self.money(a.group("a"), n)
                kind = {"calls": "call", "bets": "bet", "raises": "raise", "allin": "auto"}[
                    a.group(1)]
                h.act(n, name, kind, added=amt, all_in=kind == "auto")
                continue
            if verb in ("folds", "checks"):
                h.act(n, name, "fold" if verb == "folds" else "check")
                continue
            if verb == "is disconnected and ALL IN.":
                protected.add(name)
                continue
            if verb == "allin" and name in protected:
                h.emit(n, "annotation", detail="all_in_protection", **h.who(name))
                continue
            if verb == "mucks cards":
                mucked[name] = h.emit(n, "muck",
                                      cards=known_cards(h.hole.get(h.seat_of.get(name, 0))),
                                      **h.who(name))
                continue
            if verb == "shows cards" or verb.startswith("shows "):
                continue  # the cards come in the summary
            for pattern, label in _OLD_NOTES:
                if pattern.match(verb):
                    if name in h.seat_of:
                        h.emit(n, "annotation", detail=label, **h.who(name))
                    else:
                        h.emit(n, "annotation", detail=label, player=name)
                    break
            else:
                if not STATUS_LINE.match(verb):
                    raise bad_line(n, text)
                h.emit(n, "annotation", detail=f"note: {verb}", **h.who(name))
        if section != "ended":
            raise SiteHandError(f"line {last}: hand ends without `Game ended at:` (truncated?)")
        if total_pot is None:
            raise SiteHandError(f"line {last}: the summary has no `Pot:` line")
        stated = sum(c for _, _, c in results)
        for at, who, amount in results:
            h.award(at, who, amount, "main")
        if unknown and unknown[0] not in {w for _, w, _ in results}:
            rake_total = sum(r["amount"] for r in h.rows if r["kind"] == "rake")
            left = total_pot - rake_total - stated
            if left > 0:
                h.award(last, unknown[0], left, "main")
                h.rows[-1]["source"] += (";award=the summary omits the unnamed player: the "
                                         "pot less everyone else's collections")
        if is_stud and "bring_in" not in game:
            game["bring_in"] = low // 2
            started["source"] += ";bring_in=not posted, assumed half the small bet"
        if structure == "fixed_limit" and not is_stud:
            game["small_blind"] = sb_posted if sb_posted is not None else low // 2
        h.money_last()
        h.end(last, f"total_pot={total_pot}")
        return h

    def _split(self, h: SiteHand, text: str, unknown: list[str], n: int, line: str
               ) -> tuple[str, str]:
        if text.startswith(" ") and unknown:
            return unknown[0], text[1:]
        sp = h.split_name(text)
        if sp is None:
            # an unseated name: a status line (sitting out) is kept as a note
            m = re.match(r"^(\S+) (sitting out|is timed out\.?|is disconnected\.?)$", text)
            if m:
                return m.group(1), m.group(2)
            raise bad_line(n, line, "a player who is not seated")
        return sp

    def _sitting_out(self, h: SiteHand, rest: list[tuple[int, str]], unknown: list[str]
                     ) -> None:
        """A seated player the hand deals no card and who posts and does nothing (at most a
        `sitting out` line) was not dealt in: detail sitting_out."""
        playing = set(unknown)
        for _, t in rest:
            if t == "------ Summary ------":
                break
            if t.startswith("Player "):
                sp = h.split_name(t[7:])
                if sp and sp[1] != "sitting out":
                    playing.add(sp[0])
            elif (u := _UNCALLED.match(t)):
                playing.add(u.group("who").strip())
        for row in h.rows:
            if row["kind"] == "seat" and row["player"] not in playing:
                row["detail"] = "sitting_out"
                h.sitting_out.add(row["seat"])

    def _name(self, who: str, unknown: list[str], n: int, line: str) -> str:
        if not who and unknown:
            return unknown[0]
        if who not in self.h_seat_of:
            raise bad_line(n, line, "a player who is not seated")
        return who

    def _unknown_player(self, h: SiteHand, rest: list[tuple[int, str]], button: int | None,
                        started: dict[str, Any]) -> list[str]:
        """The player the log leaves unnamed (`Player  has big blind`), as [his name]."""
        self.h_seat_of = h.seat_of
        if not any(t.startswith(("Player  ", "*Player  ")) or t == "Uncalled bet"
                   or _UNNAMED_RETURN.match(t) for _, t in rest):
            return []
        named = set()
        for _, t in rest:
            body = t[8:] if t.startswith("*Player ") else t[7:] if t.startswith("Player ") \
                else _returned_to(t) if t.startswith("Uncalled bet") else ""
            sp = h.split_name(body)
            if sp:
                named.add(sp[0])
        silent = [p for p in h.seat_of if p not in named]
        if len(silent) == 1:
            started["source"] += (f";player=the unnamed player is {silent[0]!r}, the one "
                                  "seated player the hand never names")
            return [silent[0]]
        # not seated: he sits in the button's seat when free, else the first free seat
        free = [s for s in range(1, 11) if s not in h.left]
        if not free:
            raise SiteHandError(f"line {rest[0][0]}: a player with no name acts and no seat "
                                "is free for him")
        seat = button if button in free else free[0]
        stack = None
        put = 0
        for n, t in rest:
            if t.startswith("Player  "):
                if (m := re.search(rf"\((?P<a>{_NUM})\)$", t)):
                    put += self.money(m.group("a"), n)
                if re.match(rf"^Player  allin \({_NUM}\)$", t):
                    stack = put
        name = "(unnamed)"
        h.add_seat(rest[0][0], seat, name, stack if stack is not None else 0, False)
        row = h.rows[-1]
        if stack is None:
            row["amount"] = None
        row["source"] += (f";seat=the log names neither this player nor his seat: the "
                          f"{'button' if seat == button else 'first free'} seat; stack="
                          + ("his chips when he went all-in" if stack is not None
                             else "unknown"))
        return [name]

    def _result(self, h: SiteHand, n: int, text: str, r: re.Match[str], unknown: list[str],
                results: list[tuple[int, str, int]], mucked: dict[str, dict[str, Any]]
                ) -> None:
        rest = r.group("rest")
        if rest.startswith(" ") and unknown:
            name, what = unknown[0], rest[1:]
        else:
            sp = h.split_name(rest)
            if sp is None:
                bets, coll = self.money(r.group("b"), n), self.money(r.group("c"), n)
                if bets or coll:
                    raise bad_line(n, text, "a result for a player who is not seated")
                h.emit(n, "annotation", detail=f"note: {text}")
                return
            name, what = sp
        what = what.rstrip(".").strip()
        w = h.who(name)
        if (s := _RESULT_SHOW.match(what)):
            h.emit(n, "show", cards=site_cards(s.group(1), f"line {n}"), **w)
        elif (m := _RESULT_MUCK.match(what)):
            cards = site_cards(m.group(1), f"line {n}")
            if name in mucked:
                mucked[name]["cards"] = cards
            else:
                h.emit(n, "muck", cards=cards, **w)
        elif not _RESULT_NONE.match(what):
            raise bad_line(n, text, "unknown summary result")
        coll = self.money(r.group("c"), n)
        if coll:
            results.append((n, name, coll))

    def _stud_deal(self, h: SiteHand, street: int, received: dict[str, list[tuple[int, str]]]
                   ) -> None:
        for name, cards in received.items():
            w = h.who(name)
            at = cards[0][0]
            got = [c for _, c in cards]
            if street == 3:
                if len(got) != 3:
                    raise bad_line(at, f"{name}: {got}", "3rd street deals three cards")
                h.emit(at, "deal", cards=" ".join(got[:2]), detail="down", **w)
                h.emit(cards[2][0], "deal", cards=got[2], detail="up", **w)
            else:
                if len(got) != 1:
                    raise bad_line(at, f"{name}: {got}", "a stud street deals one card")
                h.emit(at, "deal", cards=got[0], detail="down" if street == 7 else "up", **w)


class _New(_Hand):
    """One hand of the newer (PokerStars-like) format being mapped."""

    def map(self) -> SiteHand:  # noqa: C901, PLR0912, PLR0915 - one pass over the grammar
        number, header = self.block[0]
        m = _NEW_HEADER.match(header)
        if m is None:
            raise bad_line(number, header, "header not understood")
        variant = _NEW_GAMES.get(" ".join(m.group("game").lower().split()))
        if variant is None:
            raise bad_line(number, header, f"unsupported WPN game {m.group('game')!r}")
        structure = _LIMITS[m.group("limit").lower()]
        tournament = m.group("tid") is not None
        if tournament:
            currency, self.mpu = "CHIPS", 1
            a_s, b_s = m.group("ta"), m.group("tb")
        else:
            a_s, b_s = m.group("ca"), m.group("cb")
            currency = CURRENCY_SYMBOLS.get(a_s[0], "USD")
        ts, note = header_time(m.group("date"), m.group("zone"), number, header)
        if tournament:
            note += f";tournament={m.group('tid')}"
        body = self.block[1:]
        if not body or not (tb := _TABLE.match(body[0][1])):
            raise bad_line(body[0][0] if body else number, body[0][1] if body else header,
                           "no table line after the header")
        table = tb.group("t") if tb.group("t") is not None else tb.group("t2")
        if tournament:
            table = f"{m.group('tid')} {table}"
        h = RoundsHand(fmt="winning", file_name=self.file_name,
                       hand_id=f"wpn:{m.group('id')}", table_id=table)
        low, high = header_blinds(a_s, b_s, self.money, tournament, number)
        game: dict[str, Any] = {
            "variant": variant, "structure": structure, "currency": currency,
            "minor_per_unit": self.mpu, "tournament": tournament, "ante": 0,
            "level": int(m.group("level")) if m.group("level") else None,
            "seat_count": int(tb.group("max")),
        }
        if structure == "fixed_limit":
            game.update(small_bet=low, big_bet=high, big_blind=low)
        else:
            game.update(small_blind=low, big_blind=high)
        if not tb.group("b"):
            raise bad_line(body[0][0], body[0][1], "no button seat")
        game["button_seat"] = int(tb.group("b"))
        started = h.emit(number, "hand_started", note, ts=ts, game=game)
        i = 1
        while i < len(body) and (s := _NEW_SEAT.match(body[i][1])):
            n = body[i][0]
            h.add_seat(n, int(s.group(1)), s.group(2), self.money(s.group("a"), n),
                       bool(s.group("out")))
            i += 1
        if not h.seat_of:
            raise SiteHandError(f"line {number}: hand has no seats (truncated?)")
        rest = body[i:]
        known: dict[str, tuple[int, str]] = {}
        for n, text in rest:
            if (d := _DEALT.match(text)) and d.group(1) in h.seat_of and d.group(1) not in known:
                known[d.group(1)] = (n, site_cards(d.group(2), f"line {n}"))
        section = "pre"
        total_pot: int | None = None
        pots: list[str] = []
        collected = False
        summary_won: list[tuple[int, str, int]] = []
        sb_posted: int | None = None
        last = number
        for n, text in rest:
            last = n
            if section == "summary":
                if (t := _TOTAL.match(text)) and total_pot is None:
                    total_pot = self.money(t.group("a"), n)
                    for label, amount in _TOTAL_PART.findall(t.group("rest")):
                        amt = self.money(amount, n)
                        low_label = label.lower()
                        if low_label == "rake":
                            if amt:
                                h.emit(n, "rake", amount=amt, detail="rake")
                        elif low_label in ("jp fee", "jackpot"):
                            if amt:
                                h.emit(n, "rake", amount=amt, detail="jackpot")
                        elif low_label == "main pot":
                            pots.append(f"main:{amt}")
                        else:
                            k = re.sub(r"\D", "", label) or "1"
                            pots.append(f"side-{k}:{amt}")
                elif (ss := _SUMMARY_SEAT.match(text)):
                    names = [p for p, q in h.seat_of.items() if q == int(ss.group(1))]
                    for won in _SUMMARY_WON.finditer(text[ss.end():]):
                        if names:
                            summary_won.append((n, names[0], self.money(won.group("a"), n)))
                elif text.startswith(("Board [", "Board: [")):
                    pass
                else:
                    raise bad_line(n, text, "unknown summary line")
                continue
            if text == "*** SUMMARY ***":
                section = "summary"
                continue
            if text == "*** HOLE CARDS ***":
                if section != "pre":
                    raise bad_line(n, text, "second hole-cards line")
                section = "play"
                h.deal_holes(n, variant, known)
                continue
            if text in ("*** SHOW DOWN ***", "*** SHOWDOWN ***") or _RUNNING.match(text):
                continue
            if (sv := _NEW_STREET.match(text)):
                groups = re.findall(r"\[([^\]]*)\]", sv.group(2))
                h.board(n, site_cards(groups[-1], f"line {n}"))
                continue
            if (u := _UNCALLED.match(text)):
                h.award(n, u.group("who").strip(), self.money(u.group("a"), n), "uncalled")
                continue
            if (d := _DEALT.match(text)) and d.group(1) in h.seat_of:
                continue
            split = h.split_or_note(n, text)
            if split is None:
                continue
            name, verb = split
            if (p := _NEW_POST.match(verb)):
                what, amt = p.group(1), self.money(p.group("a"), n)
                if what == "the small blind":
                    kind = "small_blind" if sb_posted is None else "dead"
                    sb_posted = amt if sb_posted is None else sb_posted
                    h.post(n, name, kind, amt, live=kind != "dead")
                elif what == "the big blind":
                    kind = "big_blind" if not any(
                        r["kind"] == "post" and r["detail"] == "big_blind" for r in h.rows
                    ) else "new_player"
                    h.post(n, name, kind, amt, live=True)
                elif what in ("ante", "the ante"):
                    game["ante"] = game["ante"] or amt
                    h.post(n, name, "ante", amt, live=False)
                elif what == "dead blind":
                    h.post(n, name, "dead", amt, live=False)
                elif what == "straddle":
                    game["straddle"] = amt
                    h.post(n, name, "straddle", amt, live=True)
                else:  # small & big blinds: the big blind live, the small blind dead
                    bb = game.get("big_blind") or amt
                    h.post(n, name, "new_player", min(bb, amt), live=True)
                    if amt > bb:
                        h.post(n, name, "dead", amt - bb, live=False)
                continue
            if (a := _NEW_ACTION.match(verb)):
                if section != "play":
                    raise bad_line(n, text, "an action before the hole cards")
                kind = {"folds": "fold", "checks": "check", "calls": "call", "bets": "bet",
                        "raises": "raise"}[a.group(1)]
                all_in = bool(a.group("allin"))
                if kind in ("fold", "check"):
                    h.act(n, name, kind)
                elif kind == "raise":
                    if not a.group("to"):
                        raise bad_line(n, text, "a raise without its total")
                    h.act(n, name, kind, to=self.money(a.group("to"), n), all_in=all_in)
                else:
                    if not a.group("a"):
                        raise bad_line(n, text, "amount missing")
                    h.act(n, name, kind, added=self.money(a.group("a"), n), all_in=all_in)
                continue
            if (sh := _NEW_SHOW.match(verb)):
                h.emit(n, "show", cards=site_cards(sh.group(1), f"line {n}"), **h.who(name))
                continue
            if (mk := _NEW_MUCK.match(verb)):
                cards = site_cards(mk.group(1), f"line {n}") if mk.group(1) else known_cards(
                    h.hole.get(h.seat_of[name]))
                h.emit(n, "muck", cards=cards, **h.who(name))
                continue
            if (c := _COLLECT.match(verb)):
                label = "main" if c.group("pot") in ("pot", "main pot") else \
                    f"side-{c.group('k') or 1}"
                h.award(n, name, self.money(c.group("a"), n), label)
                collected = True
                continue
            for pattern, label in _NEW_NOTES:
                if pattern.match(verb):
                    h.emit(n, "annotation", detail=label, **h.who(name))
                    break
            else:
                if verb.startswith(":"):
                    h.emit(n, "annotation", detail=f"said: {verb[1:].strip()}", **h.who(name))
                elif STATUS_LINE.match(verb):
                    h.emit(n, "annotation", detail=f"note: {verb}", **h.who(name))
                else:
                    raise bad_line(n, text)
        if section != "summary":
            raise SiteHandError(f"line {last}: hand ends without `*** SUMMARY ***` (truncated?)")
        if total_pot is None:
            raise SiteHandError(f"line {last}: the summary has no `Total pot` line")
        if not collected:
            for at, who, amount in summary_won:
                h.award(at, who, amount, "main")
        if structure == "fixed_limit":
            game["small_blind"] = sb_posted if sb_posted is not None else low // 2
        if not any(r["kind"] == "award" and r["detail"] == "uncalled" for r in h.rows):
            # no `Uncalled bet` line (a walk): the room's total pot and the collection hold
            # the unmatched bet (NLO8-6max-USD-3-6-202104.walk.txt, wpn:779388412)
            refund = h.split_uncalled(last)
            if refund is None:
                started["detail"] = "refunds=implicit"
            elif refund:
                total_pot -= refund
                h.rows[-1]["source"] += ";uncalled=not logged: split off the collection"
        end = f"total_pot={total_pot}" + (";pots=" + ",".join(pots) if pots else "")
        h.money_last()
        h.end(last, end)
        return h


_FAST_GAMES = frozenset({"holdem", "holdem_6plus", "omaha", "omaha_hilo", "omaha5",
                         "omaha5_hilo", "stud", "stud_hilo", "razz"})
# on a hand's lines joined by line ends: a line of an unnamed player (as `_unknown_player`
# finds one), the first player line posting the big blind (`has big blind (x)` at its end)
_UNNAMED_LINES = re.compile(r"^(?:Player  |\*Player  |Uncalled bet$|Uncalled bet \(.*\) "
                            r"returned to ?$)", re.MULTILINE)
_BIG_BLIND_LINES = re.compile(rf"^Player [^\n]*?has big blind \((?P<a>{_NUM})\)$",
                              re.MULTILINE)
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_TABLE_NUMBER = re.compile(r", Table \d+$")
_OLD_ACTS = {"calls": "call", "bets": "bet", "raises": "raise", "allin": "auto"}
_AMOUNTS = Amounts(parse_amount)
_SUMMARY = "------ Summary ------"
_NOT_SHOWN = frozenset({"does not show cards", "mucks (does not show cards)"})


def header_blinds(a_s: str, b_s: str, money: Callable[[str, int], int], tournament: bool,
                  number: int) -> tuple[int, int]:
    """The newer format's header blinds (`$0.25/$0.50`, `300/600`) in minor units by `money`
    (text, line); a tournament's written with cents (`3000.00/6000.00`) are whole chips."""
    try:
        return money(a_s.lstrip("$€£"), number), money(b_s.lstrip("$€£"), number)
    except SiteHandError:
        if not tournament:
            raise
        return (to_minor(parse_amount(a_s), 1, f"line {number}"),
                to_minor(parse_amount(b_s), 1, f"line {number}"))


def _plain_split(text: str, seat_of: dict[str, int]) -> tuple[str, str] | None:
    """`SiteHand.split_name(text)` when no seated name holds a space or a colon."""
    end = first_name_end(text)
    name = text[:end]
    return (name, text[end:].lstrip(" ")) if name in seat_of else None


# the seat the log does not list for an unnamed player nobody seated can be: (its line, seat
# number, stack or None when unknown, its source note)
_AddedSeat = tuple[int, int, int | None, str]
_UNNAMED_NAME = "(unnamed)"


def _returned_to(line: str) -> str:
    """Who an `Uncalled bet (x) returned to P` line names; "" when it names no one (the
    unnamed player's, `returned to` and the line end), never the line's own first word: a
    player may be called "Uncalled"."""
    before, sep, who = line.rpartition(" returned to ")
    return who if sep else ""
_LAST_AMOUNT = re.compile(rf"\((?P<a>{_NUM})\)$")
_UNNAMED_ALLIN = re.compile(rf"^Player  allin \({_NUM}\)$")


def _named_unnamed(rest: list[tuple[int, str]], seat_of: dict[str, int], button: int | None,
                   money: Any) -> tuple[str, list[tuple[int, str]], _AddedSeat | None] | None:
    """As `_Old._unknown_player` finds the player the log leaves unnamed: (his name, the
    lines with his name written in, the seat the line parser adds for him or None). He is the
    one seated player the hand never names, or else `(unnamed)` in the button's seat when it
    is free (else the first free one), his stack his chips when he went all-in. Each
    `Player  `/`*Player  ` line and each `Uncalled bet (x) returned to` with no name then
    reads as the line parser reads it with his name. None when no seat is free for him, or a
    line after the gap starts with a further space (the line parser keeps that space)."""
    named = set()
    for _, t in rest:
        body = t[8:] if t.startswith("*Player ") else t[7:] if t.startswith("Player ") \
            else _returned_to(t) if t.startswith("Uncalled bet") else None
        if body:  # `_plain_split`'s name: the first word, up to a colon
            named.add(body.partition(" ")[0].partition(":")[0])
    silent = [p for p in seat_of if p not in named]
    added: _AddedSeat | None = None
    if len(silent) == 1:
        who = silent[0]
    else:
        taken = set(seat_of.values())
        free = [q for q in range(1, 11) if q not in taken]
        if not free or _UNNAMED_NAME in seat_of:
            return None
        who = _UNNAMED_NAME
        seat = button if button in free else free[0]
        stack = None
        put = 0
        for n, t in rest:
            if t.startswith("Player  "):
                if (m := _LAST_AMOUNT.search(t)):
                    put += money(m.group("a"), n)
                if _UNNAMED_ALLIN.match(t):
                    stack = put
        added = (rest[0][0], seat, stack,
                 ";seat=the log names neither this player nor his seat: the "
                 f"{'button' if seat == button else 'first free'} seat; stack="
                 + ("his chips when he went all-in" if stack is not None else "unknown"))
    out = []
    for n, t in rest:
        if t.startswith(("Player  ", "*Player  ")):
            star = t[0] == "*"
            after = t[9:] if star else t[8:]
            if after.startswith(" "):
                return None
            t = f"{'*' if star else ''}Player {who} {after}"
        elif t.startswith("Uncalled bet") and _UNNAMED_RETURN.match(t):
            t = f"{t.rstrip(' ')} {who}"
        out.append((n, t))
    return who, out, added


def _old_game(g: re.Match[str]) -> tuple[str | None, str, bool, int]:
    """What a `Game ID:` line (`_GAME_ID`) says of the game as the fast paths read it: the
    variant (None: a game the reader does not know), the table description, whether it is a
    tournament and the minor units per unit."""
    variant = _OLD_GAMES.get(" ".join(g.group("game").lower().split()))
    desc = g.group("desc").strip()
    tournament = not desc or _TABLE_NUMBER.search(desc) is not None
    return variant, desc, tournament, 1 if tournament else 100


def _fast_old(block: list[tuple[int, str]], file_name: str,  # noqa: C901, PLR0911, PLR0912, PLR0915
              cols: EventColumns) -> bool:
    """The hand of `block` (older format) added to `cols` as `_Old.map` maps it, when it is a
    hand of the common lines (every player named by one word, an unnamed player as the line
    parser names him, no line out of place); False for any other hand, which the line parser
    then reads."""
    lines = [(n, t) for n, t in block
             if t and not t.isspace() and ("\ufffd" not in t or t.strip() != "\ufffd")]
    if len(lines) < 2:
        return False
    number, header = lines[0]
    st = _STARTED.match(header)
    g = _GAME_ID.match(lines[1][1])
    if st is None or g is None:
        return False
    gn = lines[1][0]
    variant, desc, tournament, mpu = _old_game(g)
    if variant not in _FAST_GAMES:
        return False
    money = _AMOUNTS.of(mpu)
    known_amounts = _AMOUNTS.memo[mpu]  # what `money` remembers: read without a call
    note = ";ts=local time read as UTC (the log names no time zone)"
    ts, _ = header_time(st.group(1), "UTC", number, header)
    if not desc:
        note += ";tournament=the game line names no table: read as tournament chips"
    low, high = money(g.group("a"), gn), money(g.group("b"), gn)
    game: dict[str, Any] = {
        "variant": variant, "currency": "CHIPS" if tournament else "USD",
        "minor_per_unit": mpu, "tournament": tournament, "ante": 0,
    }
    i = 2
    button = None
    seats: list[tuple[int, int, str, int]] = []
    seat_of: dict[str, int] = {}
    while i < len(lines):
        n, text = lines[i]
        if (b := _BUTTON.match(text)):
            button = int(b.group(1))
        elif (m := _SEAT.match(text)):
            seat, name = int(m.group(1)), m.group(2)
            stack = money(m.group("a"), n)
            if not 1 <= seat <= 127 or seat in seat_of.values() or name in seat_of:
                return False
            if not name or " " in name or ":" in name or name != name.strip():
                return False
            seat_of[name] = seat
            seats.append((n, seat, name, stack))
        else:
            break
        i += 1
    rest = lines[i:]
    texts = [t for _, t in rest]
    is_stud = variant in _STUD
    if not seats or (button is None and not is_stud) or _SUMMARY not in texts:
        return False
    joined = "\n".join(texts)
    unnamed = None
    extra_seat: _AddedSeat | None = None
    if _UNNAMED_LINES.search(joined):  # an unnamed player: his name read into his lines
        named = _named_unnamed(rest, seat_of, button, money)
        if named is None:
            return False  # no seat for him, or a line read otherwise: the line parser's
        unnamed, rest, extra_seat = named
        if extra_seat is not None:
            seat_of[unnamed] = extra_seat[1]
            seats.append((extra_seat[0], extra_seat[1], unnamed, extra_seat[2] or 0))
        texts = [t for _, t in rest]
        joined = "\n".join(texts)
        if _UNNAMED_LINES.search(joined):
            return False
    bb_post = None
    if (bp := _BIG_BLIND_LINES.search(joined)):
        at = joined.count("\n", 0, bp.start())
        bb_post = money(bp.group("a"), rest[at][0])
    if is_stud:
        structure = "fixed_limit"
        game.update(small_bet=low, big_bet=high)
    elif bb_post is not None and bb_post == low and high == 2 * low:
        structure = "fixed_limit"
        game.update(small_bet=low, big_bet=high, big_blind=low)
        note += ";structure=fixed limit (the big blind is the lower stake)"
    else:
        structure = "pot_limit" if variant.startswith("omaha") else "no_limit"
        game.update(small_blind=low, big_blind=high)
        note += (f";structure={structure.replace('_', ' ')} (the big blind is the higher "
                 "stake)")
    game["structure"] = structure
    if not is_stud:
        game["button_seat"] = button
    # who plays: a player line (not `sitting out`) before the summary, or an uncalled return
    playing = set()
    splits: dict[str, tuple[str, str] | None] = {}  # the player lines, split
    for t in texts:
        if t == _SUMMARY:
            break
        if t.startswith("Player "):
            word, _, after = t[7:].partition(" ")
            if ":" in word:
                sp = _plain_split(t[7:], seat_of)
            else:  # `_plain_split` of a line whose first word holds no colon
                sp = (word, after.lstrip(" ")) if word in seat_of else None
            splits[t] = sp
            if sp and sp[1] != "sitting out":
                playing.add(sp[0])
        elif (u := _UNCALLED.match(t)):
            playing.add(u.group("who").strip())
    if unnamed is not None:  # as `_Old._sitting_out`: the unnamed player plays
        playing.add(unnamed)
        if extra_seat is None:
            note += (f";player=the unnamed player is {unnamed!r}, the one seated player the "
                     "hand never names")

    prefix = f"winning:{file_name}:"
    # the hand's rows before money_last orders them: kind, seat, player, amount, total, cards,
    # detail, source, line
    out: list[list[Any]] = [["hand_started", None, None, None, None, None, None,
                             f"{prefix}{number}{note}", number]]
    left: dict[int, int] = {}
    sitting_out: set[int] = set()
    for n, seat, name, stack in seats:
        left[seat] = stack
        idle = name not in playing
        if idle:
            sitting_out.add(seat)
        out.append(["seat", seat, name, stack, None, None, "sitting_out" if idle else None,
                    f"{prefix}{n}", n])
    if extra_seat is not None:  # the seat the line parser adds for the unnamed player
        out[-1][3] = extra_seat[2]
        out[-1][7] += extra_seat[3]
    rnd: dict[int, int] = {}
    hole: dict[int, str] = {}
    name_at = {q: p for p, q in seat_of.items()}
    count = HOLE_COUNT.get(variant, 2)
    received: dict[str, list[tuple[int, str]]] = {}
    dealt = big_posted = False
    sb_posted: int | None = None
    section = "play"
    total_pot: int | None = None
    results: list[tuple[int, str, int]] = []
    mucked: dict[str, list[Any]] = {}
    protected: set[str] = set()
    stud_street = 3
    last = number

    for n, text in rest:
        last = n
        if section == "summary":
            if (pt := _POT.match(text)):
                total_pot = money(pt.group("p"), n)
                for key, label in (("r", "rake"), ("j", "jackpot")):
                    if pt.group(key):
                        amt = money(pt.group(key), n)
                        total_pot += amt
                        if amt:
                            out.append(["rake", None, None, amt, None, None, label,
                                        f"{prefix}{n}", n])
                continue
            if text.startswith("Board: ["):
                continue
            if text.startswith("Game ended at: "):
                section = "ended"
                continue
            r = _RESULT.match(text)
            if r is None:
                return False
            sp = _plain_split(r.group("rest"), seat_of)
            if sp is None:  # someone not seated: a note when he put nothing in
                if money(r.group("b"), n) or money(r.group("c"), n):
                    return False
                out.append(["annotation", None, None, None, None, None, f"note: {text}",
                            f"{prefix}{n}", n])
                continue
            name, what = sp
            what = what.rstrip(".").strip()
            if what in _NOT_SHOWN:  # as `_RESULT_NONE` reads them
                pass
            elif (sh := _RESULT_SHOW.match(what)):
                out.append(["show", seat_of[name], name, None, None,
                            quick_cards(sh.group(1), "cards"), None, f"{prefix}{n}", n])
            elif (mk := _RESULT_MUCK.match(what)):
                cards = quick_cards(mk.group(1), "cards")
                if name in mucked:
                    mucked[name][5] = cards
                else:
                    out.append(["muck", seat_of[name], name, None, None, cards, None,
                                f"{prefix}{n}", n])
            elif not _RESULT_NONE.match(what):
                return False
            coll = money(r.group("c"), n)
            if coll:
                results.append((n, name, coll))
            continue
        if section == "ended":
            return False
        if text.startswith("Player "):
            sp = splits[text]
            if sp is None:
                return False
            name, verb = sp
            if verb == "received a card.":  # an unseen card (`_RECEIVED`, no group)
                received.setdefault(name, []).append((n, "??"))
                continue
            if verb.startswith("received ") and (rc := _RECEIVED.match(verb)):
                card = quick_cards(rc.group(1), "cards") if rc.group(1) else "??"
                received.setdefault(name, []).append((n, card))
                continue
        elif text != _SUMMARY and not text.startswith("Uncalled bet") and \
                not text.startswith("*** "):
            return False
        if received and is_stud:  # the cards received so far: a stud street
            for who, got in received.items():
                at = got[0][0]
                if stud_street == 3:
                    if len(got) != 3:
                        return False
                    out.append(["deal", seat_of[who], who, None, None,
                                f"{got[0][1]} {got[1][1]}", "down", f"{prefix}{at}", at])
                    out.append(["deal", seat_of[who], who, None, None, got[2][1], "up",
                                f"{prefix}{got[2][0]}", got[2][0]])
                else:
                    if len(got) != 1:
                        return False
                    out.append(["deal", seat_of[who], who, None, None, got[0][1],
                                "down" if stud_street == 7 else "up", f"{prefix}{at}", at])
            dealt = True
            received = {}
        elif received:  # the cards received so far: the deal
            if dealt:
                return False
            known = {p: (c[0][0], " ".join(x for _, x in c)) for p, c in received.items()}
            if any(len(cards.split(" ")) != count for _, cards in known.values()):
                return False
            unknown = (n, " ".join(["??"] * count))
            for q in sorted(left):
                if q in sitting_out:
                    continue
                who = name_at[q]
                at, got_cards = known.get(who, unknown)
                hole[q] = got_cards
                out.append(["deal", q, who, None, None, got_cards, "hole", f"{prefix}{at}", at])
            dealt = True
            received = {}
        if text == _SUMMARY:
            section = "summary"
            continue
        if not text.startswith("Player "):
            if (u := _UNCALLED.match(text)):
                who = u.group("who").strip()
                if who not in seat_of:
                    return False
                out.append(["award", seat_of[who], who, money(u.group("a"), n), None, None,
                            "uncalled", f"{prefix}{n}", n])
                continue
            if (sv := _OLD_STREET.match(text)):
                groups = _BRACKETS.findall(sv.group(2))
                rnd = {}
                out.append(["deal", None, None, None, None, quick_cards(groups[-1], "cards"),
                            "board", f"{prefix}{n}", n])
                continue
            if is_stud and _OLD_STUD.match(text):
                stud_street += 1
                rnd = {}
                continue
            return False
        seat = seat_of[name]
        if verb == "folds" or verb == "checks":
            out.append(["fold" if verb == "folds" else "check", seat, name, None, None, None,
                        None, f"{prefix}{n}", n])
            continue
        if (a := _OLD_ACTION.match(verb)):
            text_amount = a.group("a")
            added = known_amounts.get(text_amount)
            if added is None:
                added = money(text_amount, n)
            kind = _OLD_ACTS[a.group(1)]
            before = rnd.get(seat, 0)
            if kind == "auto":
                top = max(rnd.values(), default=0)
                kind = "bet" if top == 0 else ("call" if before + added <= top else "raise")
                all_in = True
            else:
                all_in = False
            stack = left[seat]
            left[seat] = stack - added
            total = before + added
            rnd[seat] = total
            out.append([kind, seat, name, added, total, None,
                        "all_in" if all_in or (added > 0 and added == stack) else None,
                        f"{prefix}{n}", n])
            continue
        if (p := _OLD_POST.match(verb)):
            what, amt = p.group(1), money(p.group("a"), n)
            if what in ("has small blind", "posts small blind"):
                detail = "small_blind" if sb_posted is None else "dead"
                sb_posted = amt if sb_posted is None else sb_posted
                live = detail != "dead"
            elif what in ("has big blind", "posts big blind"):
                detail = "new_player" if big_posted else "big_blind"
                big_posted = True
                live = True
            elif what == "has dead blind":
                detail, live = "dead", False
            elif "straddle" in what:
                game["straddle"] = amt
                detail, live = "straddle", True
            elif what == "bring in":
                game.setdefault("bring_in", amt)
                detail, live = "bring_in", True
            else:
                game["ante"] = game["ante"] or amt
                detail, live = "ante", False
            left[seat] -= amt
            total = None
            if live:
                total = rnd.get(seat, 0) + amt
                rnd[seat] = total
            out.append(["post", seat, name, amt, total, None, detail, f"{prefix}{n}", n])
            continue
        if verb == "is disconnected and ALL IN.":
            protected.add(name)
            continue
        if verb == "allin" and name in protected:
            out.append(["annotation", seat, name, None, None, None, "all_in_protection",
                        f"{prefix}{n}", n])
            continue
        if verb == "mucks cards":
            got = hole.get(seat)
            row = ["muck", seat, name, None, None, got if got and "??" not in got else None,
                   None, f"{prefix}{n}", n]
            mucked[name] = row
            out.append(row)
            continue
        if verb == "shows cards" or verb.startswith("shows "):
            continue  # the cards come in the summary
        label = next((known for pattern, known in _OLD_NOTES if pattern.match(verb)), None)
        if label is None:
            if not STATUS_LINE.match(verb):
                return False
            label = f"note: {verb}"
        out.append(["annotation", seat, name, None, None, None, label, f"{prefix}{n}", n])
    if section != "ended" or total_pot is None:
        return False
    for at, who, amount in results:
        out.append(["award", seat_of[who], who, amount, None, None, "main", f"{prefix}{at}",
                    at])
    if unnamed is not None and unnamed not in {w for _, w, _ in results}:
        raked = sum(r[3] for r in out if r[0] == "rake")
        unpaid = total_pot - raked - sum(c for _, _, c in results)
        if unpaid > 0:  # as `_Old.map`: he takes what the summary leaves of the pot
            out.append(["award", seat_of[unnamed], unnamed, unpaid, None, None, "main",
                        f"{prefix}{last};award=the summary omits the unnamed player: the pot "
                        "less everyone else's collections", last])
    if is_stud and "bring_in" not in game:
        game["bring_in"] = low // 2
        out[0][7] += ";bring_in=not posted, assumed half the small bet"
    if structure == "fixed_limit" and not is_stud:
        game["small_blind"] = sb_posted if sb_posted is not None else low // 2
    # money_last: the play, then the awards as logged, then the rake before the jackpot
    play = [r for r in out if r[0] != "award" and r[0] != "rake"]
    paid = [r for r in out if r[0] == "award"]
    raked = [r for r in out if r[0] == "rake" and r[6] != "jackpot"]
    jackpot = [r for r in out if r[0] == "rake" and r[6] == "jackpot"]
    hand_id, table_id = f"wpn:{g.group('id')}", desc or None
    rows = cols.rows
    base = len(rows)
    seq = 0
    for kind, seat, name, amount, total, cards, detail, source, line in (
            *play, *paid, *raked, *jackpot):
        rows.append((hand_id, seq, None, table_id, kind, seat, name, amount, total, cards,
                     detail, None, source, line))
        seq += 1
    rows.append((hand_id, seq, None, table_id, "hand_ended", None, None, None, None, None,
                 f"total_pot={total_pot}", None, f"{prefix}{last}", last))
    started = rows[base]  # the hand's first row: its time and game
    rows[base] = (*started[:2], ts, *started[3:11], game, *started[12:])
    return True


def _fast_winning(block: list[tuple[int, str]], file_name: str, cols: EventColumns) -> bool:
    """The fast path of the common hands: the older format's (`_fast_old`), the newer
    format's (`winning_new.fast_new`)."""
    if block[0][1].lstrip("\ufeff").startswith("Game started at: "):
        return _fast_old(block, file_name, cols)
    from audit.importers.winning_new import fast_new  # it reads this module's patterns

    return fast_new(block, file_name, cols)


def _map_winning(block: list[tuple[int, str]], file_name: str) -> SiteHand:
    if block[0][1].lstrip("\ufeff").startswith("Game started at: "):
        return _Old(block, file_name).map()
    return _New(block, file_name).map()


# A file of fewer hands than this is read by the Python fast path and line parser alone. Every
# file of the older format goes to the compiled pass: since its table is one IPC message a
# one-hand file costs it ~0.2 ms against the fast path's ~0.3 ms. A hand with an unnamed player
# but no seated player it never names is not given to the kernel (`winning_compiled._heads`):
# the kernel would leave it to the fast path, having read it in vain; its file is still read
# once, by the compiled pass.
COMPILED_MIN_HANDS = 1
_UNNAMED = (b"\nPlayer  ", b"\n*Player  ")
_SEAT_NAME = re.compile(rb"^Seat \d+: (\S+) \(", re.MULTILINE)
_NAMED = re.compile(rb"^\*?Player ([^ :\r\n]+)", re.MULTILINE)


def unseated_unnamed(hand: bytes) -> bool:
    """Whether the hand `hand` (its bytes) has an unnamed player and not exactly one seated
    player its player lines never name (as near as the bytes tell: the hand goes to the
    kernel or not, it reads the same)."""
    if _UNNAMED[0] in hand or _UNNAMED[1] in hand:
        return len(set(_SEAT_NAME.findall(hand)) - set(_NAMED.findall(hand))) != 1
    return False


class WinningImporter(SiteTextImporter):
    """Winning Poker Network text files (both formats): recognised by `Game started at:
    yyyy/m/d h:m:s` alone on a line, or a `[Game ]Hand #N - <game>(No Limit|Pot Limit|Fixed
    Limit) - ` header, near the top."""

    name = "winning"
    sniff_re = _SNIFF
    header_line = _HEADER_LINE
    map_hand = staticmethod(_map_winning)

    def __init__(self, chunk_hands: int = CHUNK_HANDS, *, fast: bool = True,
                 compiled: bool = True, compiled_min_hands: int = COMPILED_MIN_HANDS) -> None:
        super().__init__(chunk_hands)
        self.fast = fast
        self.compiled = compiled
        self.compiled_min_hands = compiled_min_hands

    def hand_id_of(self, header: str) -> str | None:
        return _old_hand_id([(0, header)])

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each: the older format's
        common hands by the compiled pass (`winning_kernel`, a file read whole when it is
        plain UTF-8 or UTF-16) or the Python fast path (`_fast_old`), the others by the line
        parser."""
        fast = _fast_winning if self.fast else _no_fast
        if self.fast and self.compiled:
            from audit.importers.compiledtext import read_room  # numba's, loaded on first use

            min_hands = self.compiled_min_hands
            chunks = read_room(path, "audit.importers.winning_compiled", fmt="winning",
                               chunk_hands=self.chunk_hands, fast=fast, map_hand=_map_winning,
                               hand_id_of=self.hand_id_of,
                               text_of=lambda p: _kernel_text(p, min_hands))
            if chunks is not None:
                yield from chunks
                return
        yield from read_columns(path, header=self.header(), chunk_hands=self.chunk_hands,
                                fast=fast, map_hand=_map_winning, hand_id_of=self.hand_id_of)


# the start of a file of the older format (the kernel's), of the newer format (the fast path's)
_KERNEL_FILE = re.compile(rb"\s*Game started at: [^\n]*\s*Game ID: ")
_NEW_FILE = re.compile(rb"\s*(?:Game )?Hand #[0-9]+ - ")


def _no_fast(block: list[tuple[int, str]], file_name: str, cols: EventColumns) -> bool:
    return False


def _kernel_text(path: Path, min_hands: int) -> bytes | None:
    """The text of a file the compiled pass reads (`plain_text_bytes`: UTF-8 or UTF-16), or
    None: a file of neither format at its start, or too few hands. A file of the newer format
    goes through it too, though the kernel reads none of its hands: its text read once and
    split into hands by the compiled pass costs less than the line reader reading it again
    (`winning_compiled._rows` calls no kernel for it)."""
    from audit.importers.compiledtext import plain_text_bytes

    raw = plain_text_bytes(path)
    if raw is None:
        return None
    # (a file that starts with a hand has one: no count of its hands for a minimum of one)
    if not _KERNEL_FILE.match(raw, 0, 2048):
        if _NEW_FILE.match(raw, 0, 2048) and (
                min_hands <= 1 or raw.count(b"Hand #") >= min_hands):
            return raw
        return None
    if min_hands > 1 and raw.count(b"Game started at: ") < min_hands:
        return None  # not worth it (`COMPILED_MIN_HANDS`)
    return raw


IMPORTER = WinningImporter()
