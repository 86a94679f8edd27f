"""Merge's fast path: the common hands (hold'em, Omaha, stud, razz) read from their lines
straight into event rows (`columns.EventColumns` tuples), without an XML tree and without a
dict per row.

A Merge hand is one element per line. `fast_hand` reads a hand only when every one of its
lines is one of the element layouts the room writes (`_LINE`: the game, players, player,
round, event, chat, cards and winner lines, attributes in the room's order, values free of `&`,
`<`, control characters and what XML refuses), the elements nest as a hand's do, and it holds
nothing this path does not read: a draw game, a round other than the blinds, the betting
rounds, the stud streets and the showdown, an event other than the forced bets, folds,
checks, calls, bets, raises, completes, all-ins, shows, mucks, chat lines and the notes (a
cancelled game, say), a second big blind, a player acting from no seat line, a seat number
outside 1-127, a seat listed twice, ... Any other hand returns None and is read by the XML
reader (`merge._map_text`), the single source of truth, which alone quarantines. The game's
variant, time, stakes and raise reading are the XML reader's own functions; the rows are
those `merge._map_game` gives, value for value (tests/importers/test_import_merge_fast.py).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from audit.importers import merge as m
from audit.importers.sitetext import HOLE_COUNT, SiteHandError, pot_of

_V = r'[^"<&\x00-\x1f\ud800-\udfff\ufffe\uffff]'  # an attribute value's character
_N = r"(?:0|[1-9][0-9]*)"  # a number as the room writes it (no sign, no leading zero)
_LINE = re.compile(
    r"^[ \t]*(?:"
    rf'<event sequence="[0-9]+" type="([A-Z_]+)"(?: timestamp="([0-9]+)")?'
    rf'(?: player="({_N})")?(?: amount="({_V}+)")?[ \t]?/>'  # 1-4
    rf'|<cards type="([A-Z_]+)" cards="({_V}*)"(?: player="(-?{_N})")?'
    rf'(?: hand="{_V}*")?[ \t]?/>'  # 5-7
    rf'|<winner amount="({_V}+)" uncalled="(true|false)" potnumber="({_N})" '
    rf'player="({_N})"(?: hand="{_V}*")? pottype="([a-z]*)"(?: hand="{_V}*")?[ \t]?/>'  # 8-12
    rf'|<player seat="({_N})" nickname="({_V}*)" balance="({_V}+)" '
    rf'dealtin="(true|false)"[ \t]?/>'  # 13-16
    rf'|<round id="([A-Z_]+)" sequence="[0-9]+"[ \t]?>'  # 17
    rf'|<players dealer="(-?{_N})"[ \t]?>'  # 18
    r"|(</round>|</players>|</game>)"  # 19
    rf'|<game((?: [A-Za-z]+="{_V}*")+)[ \t]?>'  # 20
    rf'|<event sequence="[0-9]+" type="CHAT"(?: timestamp="([0-9]+)")? player="({_V}*)" '
    rf'text="({_V}*)"[ \t]?/>'  # 21-23
    r")[ \t]*$", re.MULTILINE)
_ATTR = re.compile(r'([A-Za-z]+)="([^"]*)"')
_SEAT_NUMBER = re.compile(_N)
_DATA_FIELDS = re.compile(r"[|:]")  # (the game's `data` fields, `merge._map_game`'s split)
# the game's code on its line (`merge._variant` reads the same attributes, multigametype first)
_MULTI = re.compile(r' multigametype="([0-9]+)"')
_CODE = re.compile(r' gametype="([0-9]+)"')
_NOT_READ = m._DRAW  # (a draw game's rounds are the XML reader's)
_ROUNDS = frozenset({"BLINDS", "PREFLOP", "POSTFLOP", "POSTTURN", "POSTRIVER", "SHOWDOWN",
                     "END_OF_GAME", "END_OF_FOLDED_GAME", "BRING_IN", "THIRD_STREET",
                     "FOURTH_STREET", "FIFTH_STREET", "SIXTH_STREET", "SEVENTH_STREET"})
# a betting round that starts afresh (`merge._semantics`, `merge._play`)
_NEW_ROUND = m._BETTING - {"PREFLOP", "PRE_FIRST_DRAW", "THIRD_STREET"}
_EVENTS = frozenset({"SMALL_BLIND", "BIG_BLIND", "ANTE", "BRING_IN", "FOLD", "CHECK", "CALL",
                     "BET", "RAISE", "COMPLETE", "ALL_IN", "SHOW", "MUCK", *m._NOTES})
_CARDS = frozenset({"HOLE", "COMMUNITY", "SHOWN", "MUCKED", "DRAW_DRAWN_CARDS"})
_POSTS = {"SMALL_BLIND": "small_blind", "BIG_BLIND": "big_blind", "ANTE": "ante",
          "BRING_IN": "bring_in"}
_QUIET = {"FOLD": "fold", "CHECK": "check"}
_ACTS = {t: t.lower() for t in ("CALL", "BET", "RAISE", "COMPLETE", "ALL_IN")}


class _Back(Exception):
    """The hand is the XML reader's."""


def fast_rows(text: str, first_line: int, desc: dict[str, str], file_name: str
              ) -> list[tuple[Any, ...]] | None:
    """`fast_hand`'s rows, or None for a hand it does not read, whatever it met there: the XML
    reader decides what a hand is."""
    try:
        return fast_hand(text, first_line, desc, file_name)
    except Exception:  # noqa: BLE001 - a hand handed back, never an error of the fast path's
        return None


def game_terms(ga: dict[str, str], desc: dict[str, str], stud: bool
               ) -> tuple[str, str | None, bool, bool]:
    """(stakes, structure, tournament, chips) of a hand's `<game>` attributes under the
    description before it, as the XML reader reads them: the game line's stakes or else the
    description's, the structure they name (a stud game that names none is fixed limit; None
    when unnamed), a tournament by the description's type or a buy-in, chips for a tournament
    or a play-money game."""
    stakes = ga.get("stakes") or desc.get("stakes", "")
    low = stakes.lower()
    structure = next((s for w, s in m._STRUCTURES if w in low), None)
    if structure is None and stud:
        structure = "fixed_limit"
    tournament = "tournament" in desc.get("type", "").lower() or "buyIn" in ga
    return stakes, structure, tournament, tournament or ga.get("realmoney") == "false"


def fast_hand(text: str, first_line: int, desc: dict[str, str], file_name: str
              ) -> list[tuple[Any, ...]] | None:
    """The rows of the hand whose text (its lines joined, the first a `<game` line) starts
    on line `first_line`, as `EventColumns` rows; None: the XML reader's hand."""
    try:
        return _rows(text, first_line, desc, file_name)
    except (_Back, SiteHandError):
        return None


def _rows(text: str, first: int, desc: dict[str, str], file_name: str
          ) -> list[tuple[Any, ...]]:
    end = text.find("\n")
    code = _MULTI.search(text, 0, end) or _CODE.search(text, 0, end)
    if code is not None and m._CODES.get(code.group(1)) in _NOT_READ:
        raise _Back  # a draw game: spare the lines' reading
    found = _LINE.findall(text)
    if len(found) != text.count("\n") + 1 or len(found) < 4:
        raise _Back
    # the elements: game, players (player lines), rounds (their events, cards, winners)
    head = found[0][19]
    if not head or found[1][17] == "" or found[-1][18] != "</game>":
        raise _Back
    ga = dict(_ATTR.findall(head))
    if len(ga) != head.count("="):
        raise _Back  # an attribute twice (not well-formed)
    dealer = found[1][17]
    listed: list[tuple[str, str, str, str, int]] = []
    k = 2
    while found[k][12]:
        f = found[k]
        listed.append((f[12], f[13], f[14], f[15], first + k))
        k += 1
    if found[k][18] != "</players>":
        raise _Back
    k += 1
    rounds: list[tuple[str, int, list[tuple[Any, ...]]]] = []
    # what each round's cards are, read on the way (`_play` looks for nothing else):
    # COMMUNITY (1), SHOWN or MUCKED (2); and the HOLE cards of the hand, in order
    marks: list[int] = []
    holes: list[tuple[Any, ...]] = []
    last = len(found) - 1
    # read on the way: the first event's timestamp, the players acting, an amount's fraction
    stamp: str | None = None
    acting: set[str] = set()
    fraction = m._FRACTION.search
    fractions = any(fraction(v) for key, v in ga.items() if key in ("amount", "balance")) \
        or any(fraction(p[2]) for p in listed)
    while k < last:
        rid = found[k][16]
        if rid not in _ROUNDS:
            raise _Back
        items: list[tuple[Any, ...]] = []
        rounds.append((rid, first + k, items))
        cards = 0
        k += 1
        while k < last and not found[k][18]:
            f = found[k]
            if f[0]:
                if f[0] not in _EVENTS:
                    raise _Back
                items.append(("e", f[0], f[1], f[2], f[3] or None, first + k))
                if f[1] and stamp is None:
                    stamp = f[1]
                if f[2]:
                    acting.add(f[2])
                if not fractions and "." in f[3] and fraction(f[3]):
                    fractions = True
            elif f[4]:
                c = f[4]
                if c not in _CARDS:
                    raise _Back
                x = ("c", c, f[5], f[6] or None, first + k)
                items.append(x)
                if c == "COMMUNITY":
                    cards |= 1
                elif c == "HOLE":
                    holes.append(x)
                elif c != "DRAW_DRAWN_CARDS":
                    cards |= 2
            elif f[7]:
                items.append(("w", f[7], f[8], f[9], f[10], f[11], first + k))
                acting.add(f[10])
                if not fractions and "." in f[7] and fraction(f[7]):
                    fractions = True
            elif f[12] or f[16] or f[17] or f[19]:
                raise _Back  # a players, player, round or game line in a round
            else:
                # a chat line (the one layout whose values may all be empty): said by a seat
                # number (acting, as the XML reader counts its players) or by a name (no
                # one's seat)
                p = f[21]
                items.append(("t", f[22], f[20], p, first + k))
                if f[20] and stamp is None:
                    stamp = f[20]
                if p.isdigit():
                    if not _SEAT_NUMBER.fullmatch(p):
                        raise _Back
                    acting.add(p)
            k += 1
        if k >= last or found[k][18] != "</round>":
            raise _Back
        marks.append(cards)
        k += 1
    return _map(ga, first, dealer, listed, rounds, desc, file_name, stamp, acting, fractions,
                marks, holes)


def _map(ga: dict[str, str], line: int, dealer: str, listed: list[tuple[str, str, str, str, int]],
         rounds: list[tuple[str, int, list[tuple[Any, ...]]]], desc: dict[str, str],
         file_name: str, stamp: str | None, acting: set[str], fractions: bool,
         marks: list[int], holes: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    gid = ga.get("id")
    if not gid:
        raise _Back
    game = m._E("game", ga, line)
    variant = m._variant(game, desc)
    if variant in m._DRAW:
        raise _Back
    is_stud = variant in m._STUD
    stakes, structure, tournament, chips = game_terms(ga, desc, is_stud)
    if structure is None:
        raise _Back
    money = m._Money(100 if not chips or fractions else 1)
    data = _DATA_FIELDS.split(ga.get("data", ""))
    table = gid.split("-")[0]
    if tournament:
        table_id = f"{data[2] if len(data) > 2 else '?'} {table}"
    else:
        table_id = data[1] if len(data) > 1 and data[1] else table
    hand_id = f"merge:{gid}"
    if stamp is not None:
        ts, note = dt.datetime.fromtimestamp(int(stamp) / 1000, dt.UTC), ""
    else:
        ts, note = m._ts(game)
    gm: dict[str, Any] = {
        "variant": variant, "structure": structure,
        "currency": "CHIPS" if chips else "USD", "minor_per_unit": money.mpu,
        "tournament": tournament, "ante": 0,
        "seat_count": int(ga["seats"]) if ga.get("seats", "").isdigit() else None,
    }
    numbers = {int(p[0]) for p in listed} | {int(x) for x in acting}
    shift = 1 if 0 in numbers else 0
    source = f"merge:{file_name}:"
    head = f"{source}{line}{note}"
    if shift:
        head += ";seats=numbered from 0 in the log, shifted to 1.."
    # the raise reading and the forced bets (the XML reader's own choice)
    # (one pass: the chips won, each round's events with an amount, the first of each
    # forced bet)
    won = 0
    plays: list[tuple[bool, list[tuple[str | None, str, int]]]] = []
    posted: dict[str, int | None] = dict.fromkeys(("SMALL_BLIND", "BIG_BLIND", "ANTE",
                                                   "BRING_IN"))
    known = money.known  # (`money`'s own memory of the amounts read)
    for rid, _, items in rounds:
        events: list[tuple[str | None, str, int]] = []
        for x in items:
            kind = x[0]
            if kind == "e":
                text = x[4]
                if text is not None:
                    amt = known.get(text)
                    if amt is None:
                        amt = money(text, x[5])
                    t = x[1]
                    events.append((t, x[3], amt))
                    if t in posted and posted[t] is None:
                        posted[t] = amt
            elif kind == "w":
                won += money(x[1], x[6])
        plays.append((rid in _NEW_ROUND, events))
    raise_to, put, posted_by = m._reading(won, plays)
    if not raise_to:
        head += ";raise=chips added (this client's RAISE amounts)"
    balance = {p[0]: money(p[2], p[4]) for p in listed}
    if any(put.get(x, 0) > b for x, b in balance.items()) or _past_balance(
            plays, rounds, balance, raise_to):
        head += ";stacks=balance plus the forced bets (logged after them)"
        for s_seat in balance:
            balance[s_seat] += posted_by.get(s_seat, 0)
    # the seats (the rows as `EventColumns` rows, seq their place: the hand's start made last)
    hid, tid, src = hand_id, table_id, source
    rows: list[Any] = [None]
    name_of: dict[str, str] = {}
    seat_of: dict[str, int] = {}
    left: dict[int, int] = {}
    out: set[int] = set()
    for p_seat, nick, _, dealtin, p_line in listed:
        seat = int(p_seat) + shift
        name = nick or f"seat {seat}"
        if not 1 <= seat <= 127 or seat in left or name in seat_of:
            raise _Back
        name_of[p_seat] = name
        seat_of[name] = seat
        left[seat] = balance[p_seat]
        sitting_out = dealtin == "false"
        if sitting_out:
            out.add(seat)
        rows.append((hid, len(rows), None, tid, "seat", seat, name, balance[p_seat], None, None,
                     "sitting_out" if sitting_out else None, None, f"{src}{p_line}", p_line))
    if acting - set(name_of):
        raise _Back  # a player acting from no seat line
    if not is_stud:
        if not dealer.lstrip("-").isdigit():
            raise _Back
        gm["button_seat"] = int(dealer) + shift
    head += m._stakes(gm, stakes, bool(ga.get("stakes")), is_stud, structure, posted, money,
                      line, lambda: _stud_limits(rounds, money))
    awards = _play(rows, ga, rounds, name_of, seat_of, left, out, money, variant, raise_to,
                   line, is_stud, marks, holes, (hid, tid, src))
    rows[0] = (hid, 0, ts, tid, "hand_started", None, None, None, None, None, "rake=implicit",
               gm, head, line)
    return _settled(rows, awards)


def _past_balance(plays: list[tuple[bool, list[tuple[str | None, str, int]]]],
                  rounds: list[tuple[str, int, list[tuple[Any, ...]]]],
                  balance: dict[str, int], raise_to: bool) -> bool:
    """`merge._acts_past_balance` of the rounds read (`plays`: their events with an amount)."""
    put: dict[str, int] = {}
    round_total: dict[str, int] = {}
    for (new, events), (_, _, items) in zip(plays, rounds, strict=True):
        if new:
            round_total = {}
        amounts = iter(events)
        for x in items:
            if x[0] != "e":
                continue
            t, p = x[1], x[3]
            if t in m._VOLUNTARY and p in balance and put.get(p, 0) >= balance[p] > 0:
                return True
            if x[4] is None:
                continue
            amt = next(amounts)[2]
            add = max(0, amt - round_total.get(p, 0)) if (
                t in ("RAISE", "COMPLETE") and raise_to) else amt
            if t != "ANTE":
                round_total[p] = round_total.get(p, 0) + add
            put[p] = put.get(p, 0) + add
    return False


def _stud_limits(rounds: list[tuple[str, int, list[tuple[Any, ...]]]], money: m._Money
                 ) -> tuple[int, int]:
    """`merge._stud_limits` of the rounds read."""
    small = big = None
    for rid, _, items in rounds:
        street = m._STUD_STREETS.get(rid)
        for x in items:
            if x[0] != "e" or not x[4]:
                continue
            t = x[1]
            if street == 3 and t == "COMPLETE" and small is None:
                small = money(x[4], x[5])
            elif street == 4 and t == "BET" and small is None:
                small = money(x[4], x[5])
            elif street is not None and street >= 5 and t == "BET" and big is None:
                big = money(x[4], x[5])
    if small is None and big is not None:
        small = big // 2
    if small is None:
        small = 0
    return small, big if big is not None else 2 * small


def _stud_deals(rows: list[Any], items: list[tuple[Any, ...]], name_of: dict[str, str],
                seat_of: dict[str, int], held: dict[str, list[str]], number: int,
                ctx: tuple[str, str, str]) -> None:
    """`merge._stud_deals` of a street's cards read (`ctx`: hand id, table id, source)."""
    hid, tid, src = ctx
    for x in items:
        if x[0] != "c" or x[1] not in ("DRAW_DRAWN_CARDS", "HOLE"):
            continue
        p = x[3]
        if p not in name_of:
            raise _Back
        now = m._cards(x[2], f"line {x[4]}")
        have = held.get(p, [])
        if len(now) < number:
            now = now + ["??"] * (number - len(now))
        new = now[len(have):number]
        held[p] = now[:number]
        name = name_of[p]
        seat = seat_of[name]
        if number == 3:
            if len(new) != 3:
                raise _Back
            rows.append((hid, len(rows), None, tid, "deal", seat, name, None, None,
                         " ".join(new[:2]), "down", None, f"{src}{x[4]}", x[4]))
            rows.append((hid, len(rows), None, tid, "deal", seat, name, None, None, new[2], "up",
                         None, f"{src}{x[4]}", x[4]))
        elif len(new) == 1:
            rows.append((hid, len(rows), None, tid, "deal", seat, name, None, None, new[0],
                         "down" if number == 7 else "up", None, f"{src}{x[4]}", x[4]))
        elif new:
            raise _Back


def _play(rows: list[Any], ga: dict[str, str],
          rounds: list[tuple[str, int, list[tuple[Any, ...]]]], name_of: dict[str, str],
          seat_of: dict[str, int], left: dict[int, int], out: set[int], money: m._Money,
          variant: str, raise_to: bool, line: int, is_stud: bool, marks: list[int],
          holes: list[tuple[Any, ...]], ctx: tuple[str, str, str]) -> int:
    """The rows of the play, as `merge._play` emits them, as `EventColumns` rows whose seq is
    their place in `rows` (`ctx`: hand id, table id, source); the awards among them.
    (`marks`: each round's cards, `_rows`' bits; `holes`: the HOLE cards in order.)"""
    hid, tid, src = ctx
    awards = 0
    count = HOLE_COUNT.get(variant, 2)
    try:
        count = int(ga.get("numholecards", count))
    except ValueError:
        pass
    cards_of = m._cards
    notes = m._NOTES
    stud_streets = m._STUD_STREETS
    known_amounts = money.known
    hole: dict[str, list[str]] = {}
    for x in holes:
        if x[3] in name_of:
            hole.setdefault(x[3], cards_of(x[2], f"line {x[4]}"))
    dealt = is_stud  # (stud deals by street, never the button games' hole cards)
    board: list[str] = []
    held: dict[int, str] = {}  # the hole cards dealt by seat
    bets: dict[int, int] = {}  # the round's totals by seat
    bb_posted = False
    last = line
    stud_held: dict[str, list[str]] = {}
    street = 0
    pending: list[tuple[int, str, str, tuple[Any, ...] | None]] = []
    # whether a stud street round follows each round (`merge._more_streets`)
    streets = [rid in stud_streets for rid, _, _ in rounds]
    append = rows.append
    for index, (rid, r_line, items) in enumerate(rounds):
        # (every item's line is its last value: the round's last line read is its last's)
        last = items[-1][-1] if items else r_line
        if pending and rid not in stud_streets:
            for e_line, t, p, c in pending:
                name = name_of[p]
                full = stud_held.get(p or "")
                shows = " ".join(full) if full and "??" not in full else (
                    " ".join(cards_of(c[2], f"line {c[4]}")) if c is not None else None)
                append((hid, len(rows), None, tid, "show" if t == "SHOW" else "muck", seat_of[name],
                        name, None, None, shows, None, None, f"{src}{e_line}", e_line))
            pending = []
        mark = marks[index]
        shown = {x[3]: x for x in items if x[0] == "c" and x[1] in ("SHOWN", "MUCKED")} \
            if mark & 2 else {}
        if not dealt and rid in m._BETTING:
            known = {name_of[p]: " ".join(c[:count]) for p, c in hole.items()}
            names = {seat: name for name, seat in seat_of.items()}
            for seat in sorted(left):
                if seat in out:
                    continue
                cards = known.get(names[seat]) or " ".join(["??"] * count)
                held[seat] = cards
                append((hid, len(rows), None, tid, "deal", seat, names[seat], None, None, cards,
                        "hole", None, f"{src}{r_line}", r_line))
            dealt = True
        if rid in _NEW_ROUND:
            bets = {}
        if is_stud and rid in stud_streets:
            number = stud_streets[rid]
            if number > street:
                street = number
                _stud_deals(rows, items, name_of, seat_of, stud_held, number, ctx)
        if mark & 1:
            for x in items:
                if x[0] == "c" and x[1] == "COMMUNITY":
                    now = cards_of(x[2], f"line {x[4]}")
                    if now[:len(board)] != board:
                        raise _Back
                    while len(now) > len(board):
                        k = 3 if not board else 1
                        bets = {}
                        append((hid, len(rows), None, tid, "deal", None, None, None, None,
                                " ".join(now[len(board):len(board) + k]), "board", None,
                                f"{src}{x[4]}", x[4]))
                        board = now[:len(board) + k]
        for x in items:
            kind = x[0]
            if kind == "e":
                _, t, _, p, amount, e_line = x
                if t == "FOLD" or t == "CHECK":  # (the most common: no note, no amount)
                    quiet = name_of.get(p)
                    if quiet is None:
                        raise _Back
                    append((hid, len(rows), None, tid, _QUIET[t], seat_of[quiet], quiet, None,
                            None, None, None, None, f"{src}{e_line}", e_line))
                    continue
            elif kind == "t":  # (said by someone not seated: by no one)
                p = x[3]
                if p in name_of:
                    append((hid, len(rows), None, tid, "annotation", seat_of[name_of[p]],
                            name_of[p], None, None, None, f"said: {x[1]}", None, f"{src}{x[4]}",
                            x[4]))
                else:
                    append((hid, len(rows), None, tid, "annotation", None, None, None, None, None,
                            f"said: {x[1]}", None, f"{src}{x[4]}", x[4]))
                continue
            elif kind == "w":
                seat = seat_of[name_of[x[4]]]
                if x[2] == "true":
                    label = "uncalled"
                else:
                    pot = int(x[3] or 1)
                    label = "main" if pot <= 1 else f"side-{pot - 1}"
                    label += {"h": "/high", "l": "/low"}.get(x[5], "")
                awards += 1
                append((hid, len(rows), None, tid, "award", seat, name_of[x[4]], money(x[1], x[6]),
                        None, None, label, None, f"{src}{x[6]}", x[6]))
                continue
            else:
                t = x[1]
                if (t == "SHOWN" or t == "MUCKED") and not any(
                        y[0] == "e" and y[1] == ("SHOW" if t == "SHOWN" else "MUCK")
                        and y[3] == x[3] for y in items):
                    p = x[3]
                    if p is None or p not in name_of:
                        raise _Back
                    append((hid, len(rows), None, tid, "show" if t == "SHOWN" else "muck",
                            seat_of[name_of[p]], name_of[p], None, None,
                            " ".join(cards_of(x[2], f"line {x[4]}")), None, None, f"{src}{x[4]}",
                            x[4]))
                continue
            if t in notes:  # (a note on someone not seated names no one)
                if p in name_of:
                    append((hid, len(rows), None, tid, "annotation", seat_of[name_of[p]],
                            name_of[p], None, None, None, notes[t], None, f"{src}{e_line}", e_line))
                else:
                    append((hid, len(rows), None, tid, "annotation", None, None, None, None, None,
                            notes[t], None, f"{src}{e_line}", e_line))
                continue
            if p not in name_of:
                raise _Back
            name = name_of[p]
            seat = seat_of[name]
            if t in _POSTS:
                amt = known_amounts.get(amount) if amount is not None else None
                if amt is None:
                    amt = money(amount, e_line)
                detail = _POSTS[t]
                total = None
                if t == "BIG_BLIND":
                    if bb_posted:
                        raise _Back  # a second big blind: a player coming in
                    bb_posted = True
                left[seat] -= amt
                if t != "ANTE":
                    total = bets.get(seat, 0) + amt
                    bets[seat] = total
                append((hid, len(rows), None, tid, "post", seat, name, amt, total, None, detail,
                        None, f"{src}{e_line}", e_line))
            elif t in ("SHOW", "MUCK") and is_stud and street < 7 and any(
                    streets[index + 1:]):
                # an all-in showdown before the last street: shown once every card is dealt
                pending.append((e_line, t, p, shown.get(p)))
            elif t == "SHOW":
                c = shown.get(p)
                shows = " ".join(cards_of(c[2], f"line {c[4]}")) if (
                    c is not None and c[1] == "SHOWN") else None
                append((hid, len(rows), None, tid, "show", seat, name, None, None,
                        shows or held.get(seat) or "?? ??", None, None, f"{src}{e_line}", e_line))
            elif t == "MUCK":
                c = shown.get(p)
                mucks = " ".join(cards_of(c[2], f"line {c[4]}")) if c is not None else None
                append((hid, len(rows), None, tid, "muck", seat, name, None, None, mucks, None,
                        None, f"{src}{e_line}", e_line))
            elif t == "ALL_IN" and amount is None:
                append((hid, len(rows), None, tid, "annotation", seat, name, None, None, None,
                        "all_in", None, f"{src}{e_line}", e_line))
            else:
                amt = known_amounts.get(amount) if amount is not None else None
                if amt is None:
                    amt = money(amount, e_line)
                before = bets.get(seat, 0)
                if (t == "RAISE" or t == "COMPLETE") and raise_to:
                    added = amt - before
                    if added < 0:
                        raise _Back
                else:
                    added = amt
                act = _ACTS[t]
                if t == "ALL_IN":
                    top = max(bets.values(), default=0)
                    act = "bet" if top == 0 else ("call" if before + added <= top else "raise")
                stack = left[seat]
                left[seat] = stack - added
                total = before + added
                bets[seat] = total
                append((hid, len(rows), None, tid, act, seat, name, added, total, None,
                        "all_in" if t == "ALL_IN" or (added > 0 and added == stack) else None, None,
                        f"{src}{e_line}", e_line))
    rows.append((hid, len(rows), None, tid, "hand_ended", None, None, None, None, None, None, None,
                 f"{src}{last}", last))
    return awards


def _settled(rows: list[tuple[Any, ...]], awards: int) -> list[tuple[Any, ...]]:
    """The rows with the awards after the play grouped by pot and the hand's end last
    (`SiteHand.settle_awards_last`), seq renumbered when they moved; the play writes them so
    (its last awards, one pot after the other) but for an award paid before the end."""
    paid = rows[len(rows) - 1 - awards:-1]
    if all(r[4] == "award" for r in paid):
        pots = [pot_of(r[10]) for r in paid]
        if all(pots[k] == pots[k - 1] or pots[k] not in pots[:k] for k in range(1, len(pots))):
            return rows
    play: list[tuple[Any, ...]] = []
    by_pot: dict[str, list[tuple[Any, ...]]] = {}
    for r in rows[1:-1]:
        if r[4] == "award":
            by_pot.setdefault(pot_of(r[10]), []).append(r)
        else:
            play.append(r)
    ordered = [rows[0], *play, *(r for group in by_pot.values() for r in group), rows[-1]]
    return [r if r[1] == seq else (*r[:1], seq, *r[2:]) for seq, r in enumerate(ordered)]
