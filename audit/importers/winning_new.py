"""Winning Poker Network's newer format (`[Game ]Hand #N - ...`): the fast path of its common
hands, read from their lines straight into event rows (`columns.EventColumns` tuples) without
a dict per event.

`fast_new` reads a hand when its players are named by one word (no space, no colon) and every
line is one `winning._New.map` reads, in its place: the header, the table line with its
button, the seats, the posts, `*** HOLE CARDS ***`, the dealt cards, the actions, the streets,
uncalled returns, shows, mucks, collections, notes, the running pots and the summary (`Total
pot`, `Board`, `Seat N: ...`). Any other hand (a name with a space, a second hole-cards line,
an action before the hole cards, a line it does not know, a second `Total pot` line, ...) gives
False and is read by the line parser (`winning._New`), the single source of truth, which alone
quarantines. The rows are those `_New.map` gives, value for value, with the same patterns and
money readings (tests/importers/test_site_fast_paths_888_winning.py,
tests/importers/test_winning_compiled.py).
"""

from __future__ import annotations

import re
from typing import Any

from audit.importers.columns import EventColumns
from audit.importers.fasttext import quick_cards
from audit.importers.sitetext import (
    CURRENCY_SYMBOLS,
    HOLE_COUNT,
    STATUS_LINE,
    UNSEATED_NOTE,
    SiteHandError,
    first_name_end,
    header_time,
    uncalled_split,
)
from audit.importers.winning import (
    _AMOUNTS,
    _COLLECT,
    _DEALT,
    _LIMITS,
    _NEW_ACTION,
    _NEW_GAMES,
    _NEW_HEADER,
    _NEW_MUCK,
    _NEW_NOTES,
    _NEW_POST,
    _NEW_SEAT,
    _NEW_SHOW,
    _NEW_STREET,
    _RUNNING,
    _SUMMARY_SEAT,
    _SUMMARY_WON,
    _TABLE,
    _TOTAL,
    _TOTAL_PART,
    _UNCALLED,
    header_blinds,
)

_BRACKETS = re.compile(r"\[([^\]]*)\]")
_ACTS = {"folds": "fold", "checks": "check", "calls": "call", "bets": "bet", "raises": "raise"}
_SHOWDOWN = frozenset({"*** SHOW DOWN ***", "*** SHOWDOWN ***"})
_POTS = ("Main pot", "Side pot")  # how a running pot line (`_RUNNING`) starts
_MARKS = frozenset("*MSUD")  # how the lines read before a player's line start
_JACKPOT = frozenset({"jp fee", "jackpot"})
_MONEY_KINDS = frozenset({"award", "rake"})
_NOT_DIGIT = re.compile(r"\D")
_SPLIT_NOTE = ";uncalled=not logged: split off the collection"


class _GiveUp(Exception):
    """The hand is the line parser's."""


def fast_new(block: list[tuple[int, str]], file_name: str, cols: EventColumns) -> bool:
    """The hand of `block` (newer format) added to `cols` as `_New.map` maps it, when it is a
    hand of the common lines; False for any other hand, which the line parser then reads."""
    try:
        rows = _rows(block, file_name)
    except (_GiveUp, SiteHandError):
        return False
    cols.rows += rows
    return True


def _rows(block: list[tuple[int, str]], file_name: str  # noqa: C901, PLR0912, PLR0915
          ) -> list[tuple[Any, ...]]:
    """The hand's rows (`EventColumns` tuples), or `_GiveUp`."""
    lines = [line for line in block if line[1] and not line[1].isspace()]
    number, header = lines[0]
    m = _NEW_HEADER.match(header)
    if m is None:
        raise _GiveUp
    variant = _NEW_GAMES.get(" ".join(m.group("game").lower().split()))
    if variant is None:
        raise _GiveUp
    structure = _LIMITS[m.group("limit").lower()]
    tid = m.group("tid")
    tournament = tid is not None
    if tournament:
        currency, mpu = "CHIPS", 1
        a_s, b_s = m.group("ta"), m.group("tb")
    else:
        mpu = 100
        a_s, b_s = m.group("ca"), m.group("cb")
        currency = CURRENCY_SYMBOLS.get(a_s[0], "USD")
    money = _AMOUNTS.of(mpu)
    ts, note = header_time(m.group("date"), m.group("zone"), number, header)
    if tournament:
        note += f";tournament={tid}"
    if len(lines) < 2 or not (tb := _TABLE.match(lines[1][1])) or not tb.group("b"):
        raise _GiveUp
    table = tb.group("t") if tb.group("t") is not None else tb.group("t2")
    if tournament:
        table = f"{tid} {table}"
    low, high = header_blinds(a_s, b_s, money, tournament, number)
    game: dict[str, Any] = {
        "variant": variant, "structure": structure, "currency": currency,
        "minor_per_unit": mpu, "tournament": tournament, "ante": 0,
        "level": int(m.group("level")) if m.group("level") else None,
        "seat_count": int(tb.group("max")),
    }
    if structure == "fixed_limit":
        game.update(small_bet=low, big_bet=high, big_blind=low)
    else:
        game.update(small_blind=low, big_blind=high)
    game["button_seat"] = int(tb.group("b"))

    # rows before money_last orders them: [kind, seat, player, amount, total, cards, detail,
    # line, note]
    out: list[list[Any]] = [["hand_started", None, None, None, None, None, None, number, note]]
    seat_of: dict[str, int] = {}
    left: dict[int, int] = {}
    sitting_out: set[int] = set()
    i = 2
    while i < len(lines) and (s := _NEW_SEAT.match(lines[i][1])):
        n = lines[i][0]
        seat, name = int(s.group(1)), s.group(2)
        if not 1 <= seat <= 127 or seat in left or name in seat_of:
            raise _GiveUp
        if " " in name or ":" in name:  # `split_name` reads such names otherwise
            raise _GiveUp
        stack = money(s.group("a"), n)
        seat_of[name] = seat
        left[seat] = stack
        idle = bool(s.group("out"))
        if idle:
            sitting_out.add(seat)
        out.append(["seat", seat, name, stack, None, None, "sitting_out" if idle else None,
                    n, ""])
        i += 1
    if not seat_of:
        raise _GiveUp
    rest = lines[i:]
    known: dict[str, tuple[int, str]] = {}
    for n, text in rest:
        if text.startswith("Dealt to ") and (d := _DEALT.match(text)) and \
                d.group(1) in seat_of and d.group(1) not in known:
            known[d.group(1)] = (n, quick_cards(d.group(2), f"line {n}"))

    name_at = {q: p for p, q in seat_of.items()}
    rnd: dict[int, int] = {}
    last_rnd: dict[int, int] | None = None
    hole: dict[int, str] = {}
    section = "pre"
    total_pot: int | None = None
    pots: list[str] = []
    collected = big_posted = uncalled = False
    summary_won: list[tuple[int, str, int]] = []
    sb_posted: int | None = None
    last = number
    for n, text in rest:
        last = n
        if section == "summary":
            if total_pot is None and (t := _TOTAL.match(text)):
                total_pot = money(t.group("a"), n)
                for label, amount in _TOTAL_PART.findall(t.group("rest")):
                    amt = money(amount, n)
                    low_label = label.lower()
                    if low_label == "rake":
                        if amt:
                            out.append(["rake", None, None, amt, None, None, "rake", n, ""])
                    elif low_label in _JACKPOT:
                        if amt:
                            out.append(["rake", None, None, amt, None, None, "jackpot", n, ""])
                    elif low_label == "main pot":
                        pots.append(f"main:{amt}")
                    else:
                        pots.append(f"side-{_NOT_DIGIT.sub('', label) or '1'}:{amt}")
            elif (ss := _SUMMARY_SEAT.match(text)):
                who = name_at.get(int(ss.group(1)))  # (one name a seat)
                for won in _SUMMARY_WON.finditer(text[ss.end():]):
                    if who is not None:
                        summary_won.append((n, who, money(won.group("a"), n)))
            elif not text.startswith(("Board [", "Board: [")):
                raise _GiveUp
            continue
        if text[0] in _MARKS:  # (a player's line, the commonest, starts otherwise)
            if text == "*** SUMMARY ***":
                section = "summary"
                continue
            if text == "*** HOLE CARDS ***":
                if section != "pre":
                    raise _GiveUp
                section = "play"
                count = HOLE_COUNT.get(variant, 2)
                unknown = (n, " ".join(["??"] * count))
                for q in sorted(left):
                    if q in sitting_out:
                        continue
                    who = name_at[q]
                    at, cards = known.get(who, unknown)
                    hole[q] = cards
                    out.append(["deal", q, who, None, None, cards, "hole", at, ""])
                continue
            if text in _SHOWDOWN or text.startswith(_POTS) and _RUNNING.match(text):
                continue
            if text.startswith("*** ") and (sv := _NEW_STREET.match(text)):
                groups = _BRACKETS.findall(sv.group(2))
                if rnd:  # `RoundsHand.new_round`: the last round chips went into
                    last_rnd = rnd
                rnd = {}
                out.append(["deal", None, None, None, None, quick_cards(groups[-1], f"line {n}"),
                            "board", n, ""])
                continue
            if text.startswith("Uncalled bet") and (u := _UNCALLED.match(text)):
                who = u.group("who").strip()
                if who not in seat_of:
                    raise _GiveUp
                out.append(["award", seat_of[who], who, money(u.group("a"), n), None, None,
                            "uncalled", n, ""])
                uncalled = True
                continue
            if text.startswith("Dealt to ") and (d := _DEALT.match(text)) and d.group(1) in seat_of:
                continue
        # `SiteHand.split_name` of names without a space or a colon: the first word
        end = first_name_end(text)
        name = text[:end]
        if name not in seat_of:
            if (an := UNSEATED_NOTE.match(text)):
                out.append(["annotation", None, an.group("name"), None, None, None,
                            f"note: {an.group('what')}", n, ""])
                continue
            raise _GiveUp
        verb = text[end:].lstrip(" ")
        seat = seat_of[name]
        if verb == "folds" or verb == "checks":  # (`_NEW_ACTION`'s commonest lines)
            if section != "play":
                raise _GiveUp
            out.append([_ACTS[verb], seat, name, None, None, None, None, n, ""])
            continue
        if (a := _NEW_ACTION.match(verb)):
            if section != "play":
                raise _GiveUp
            kind = _ACTS[a.group(1)]
            if kind == "fold" or kind == "check":
                out.append([kind, seat, name, None, None, None, None, n, ""])
                continue
            before = rnd.get(seat, 0)
            if kind == "raise":
                if not a.group("to"):
                    raise _GiveUp
                added = money(a.group("to"), n) - before
                if added < 0:
                    raise _GiveUp
            else:
                if not a.group("a"):
                    raise _GiveUp
                added = money(a.group("a"), n)
            stack = left[seat]
            left[seat] = stack - added
            total = before + added
            rnd[seat] = total
            out.append([kind, seat, name, added, total, None,
                        "all_in" if a.group("allin") or (added > 0 and added == stack)
                        else None, n, ""])
            continue
        if (p := _NEW_POST.match(verb)):
            what, amt = p.group(1), money(p.group("a"), n)
            posts: list[tuple[str, int, bool]]
            if what == "the small blind":
                detail = "small_blind" if sb_posted is None else "dead"
                if sb_posted is None:
                    sb_posted = amt
                posts = [(detail, amt, detail != "dead")]
            elif what == "the big blind":
                posts = [("new_player" if big_posted else "big_blind", amt, True)]
                big_posted = True
            elif what in ("ante", "the ante"):
                game["ante"] = game["ante"] or amt
                posts = [("ante", amt, False)]
            elif what == "dead blind":
                posts = [("dead", amt, False)]
            elif what == "straddle":
                game["straddle"] = amt
                posts = [("straddle", amt, True)]
            else:  # small & big blinds: the big blind live, the small blind dead
                bb = game.get("big_blind") or amt
                posts = [("new_player", min(bb, amt), True)]
                if amt > bb:
                    posts.append(("dead", amt - bb, False))
            for detail, paid, live in posts:
                left[seat] -= paid
                total = None
                if live:
                    total = rnd.get(seat, 0) + paid
                    rnd[seat] = total
                out.append(["post", seat, name, paid, total, None, detail, n, ""])
            continue
        if (sh := _NEW_SHOW.match(verb)):
            out.append(["show", seat, name, None, None, quick_cards(sh.group(1), f"line {n}"),
                        None, n, ""])
            continue
        if (mk := _NEW_MUCK.match(verb)):
            if mk.group(1):
                cards = quick_cards(mk.group(1), f"line {n}")
            else:  # `known_cards` of the hole cards
                got = hole.get(seat)
                cards = got if got and "??" not in got else None
            out.append(["muck", seat, name, None, None, cards, None, n, ""])
            continue
        if (c := _COLLECT.match(verb)):
            label = "main" if c.group("pot") in ("pot", "main pot") else \
                f"side-{c.group('k') or 1}"
            out.append(["award", seat, name, money(c.group("a"), n), None, None, label, n, ""])
            collected = True
            continue
        label = next((known_label for pattern, known_label in _NEW_NOTES
                      if pattern.match(verb)), None)
        if label is None:
            if verb.startswith(":"):
                label = f"said: {verb[1:].strip()}"
            elif STATUS_LINE.match(verb):
                label = f"note: {verb}"
            else:
                raise _GiveUp
        out.append(["annotation", seat, name, None, None, None, label, n, ""])
    if section != "summary" or total_pot is None:
        raise _GiveUp
    if not collected:
        for at, who, amount in summary_won:
            out.append(["award", seat_of[who], who, amount, None, None, "main", at, ""])
    if structure == "fixed_limit":
        game["small_blind"] = sb_posted if sb_posted is not None else low // 2
    if not uncalled:
        # no `Uncalled bet` line (a walk): the room's total pot and the collection hold the
        # unmatched bet (`RoundsHand.split_uncalled`)
        refund = _split_uncalled(out, rnd if rnd else (last_rnd or {}), last)
        if refund is None:
            out[0][6] = "refunds=implicit"
        elif refund:
            total_pot -= refund
    end = f"total_pot={total_pot}" + (";pots=" + ",".join(pots) if pots else "")
    return _ordered(out, game, ts, f"wpn:{m.group('id')}", table,
                    f"winning:{file_name}:", end, last)


def _split_uncalled(out: list[list[Any]], last_round: dict[int, int], line: int
                    ) -> int | None:
    """`RoundsHand.split_uncalled` on the rows `out` (`uncalled_split`): the uncalled part of
    the last bet split off the bettor's collections as an `uncalled` award (its note on it);
    0 when nothing was uncalled, None when his collections hold less."""
    at = [k for k, r in enumerate(out) if r[0] == "award"]
    split = uncalled_split(last_round, [(out[k][1], out[k][3]) for k in at])
    if split is None or not split.refund:
        return None if split is None else 0
    for k, amount in zip(at, split.amounts, strict=True):
        out[k][3] = amount
    player = out[at[split.first]][2]
    out[:] = [r for r in out if not (r[0] == "award" and r[3] == 0)]
    out.append(["award", split.seat, player, split.refund, None, None, "uncalled", line,
                _SPLIT_NOTE])
    return split.refund


def _ordered(out: list[list[Any]], game: dict[str, Any], ts: Any, hand_id: str,
             table_id: str, prefix: str, end: str, last: int) -> list[tuple[Any, ...]]:
    """The rows as `SiteHand.money_last` and `end` leave them: the awards pot by pot (each
    pot's in the order logged), then the rake, then hand_ended; as `EventColumns` tuples."""
    money = [r for r in out if r[0] in _MONEY_KINDS]
    if money:
        pot_order: dict[int, int] = {}

        def pot(r: list[Any]) -> tuple[int, int]:
            if r[0] == "rake":
                return (1 << 30, 0 if r[6] != "jackpot" else 1)
            base = (r[6] or "main").split("/")[0].split("@")[0]
            num = int(base[5:]) if base.startswith("side-") and base[5:].isdigit() else 0
            return (pot_order.setdefault(num, len(pot_order)), 0)

        keyed = [(pot(r), k, r) for k, r in enumerate(money)]
        keyed.sort(key=lambda x: (x[0], x[1]))
        out = [r for r in out if r[0] not in _MONEY_KINDS] + [r for _, _, r in keyed]
    rows = [(hand_id, seq, None, table_id, kind, seat, player, amount, total, cards, detail,
             None, f"{prefix}{line}{note}", line)
            for seq, (kind, seat, player, amount, total, cards, detail, line, note)
            in enumerate(out)]
    rows.append((hand_id, len(rows), None, table_id, "hand_ended", None, None, None, None,
                 None, end, None, f"{prefix}{last}", last))
    first = rows[0]
    rows[0] = (*first[:2], ts, *first[3:11], game, *first[12:])
    return rows
