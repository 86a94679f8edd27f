"""PHH (Poker Hand History, PokerKit's open standard) files imported as events.

A `.phh` file is one hand, a TOML document; a `.phhs` file is many hands, each a TOML table
`[1]`, `[2]`, ...  The reader streams: it splits the file on the `[N]` header lines, parses one
hand at a time with `tomllib.loads(..., parse_float=Decimal)`, and yields a `Chunk` of about
5,000 whole hands.  A hand it cannot map is a `Rejected` (file, header line, hand id when known,
one-line reason, raw text); one bad hand never stops the file.

Mapping (PHH construct -> events; money is exact, parsed from the TOML text as `Decimal`):

* `variant`: NT -> holdem/no_limit, FT -> holdem/fixed_limit, PO -> omaha/pot_limit,
  FO/8 -> omaha_hilo/fixed_limit; stud: F7S -> stud, F7S/8 -> stud_hilo, FR -> razz (all
  fixed_limit); draw: N2L1D -> lowball_27_single/no_limit, F2L3D -> lowball_27_triple and
  FB -> badugi (fixed_limit); NS -> holdem_short/no_limit (short deck, PokerKit's ranking:
  a straight beats three of a kind).  Any other code is rejected ("unsupported PHH variant
  X").  NS: the one positive `blinds_or_straddles` entry is the button blind (post
  button_blind, game big_blind); a card below the six rejects the hand.  Fixed-limit codes
  also need `small_bet` and `big_bet`; stud needs `bring_in` and has no
  `blinds_or_straddles` (and no button).
* Stud (PokerKit's convention): `d dh pN CARDS` deals the street's cards; whether each card
  is up or down is not written but fixed by the game (7-card stud: 2 down + 1 up, 3 up, the
  7th down; `VariantSpec.faces`), so a deal becomes `deal down` / `deal up` rows by the
  seat's card count.  `pN pb` -> post bring_in (the `bring_in` amount, capped by the
  stack); `pN cbr X` on 3rd street over a bring-in and up to the small bet -> complete.
  `d db CARDS` in stud is the common card.  A new street's first deal starts a new round.
* Draw: `pN sd` -> stand_pat; `pN sd CARDS` -> draw (cards = the discards, amount = how
  many, `??` when unknown); the `d dh` after a draw has begun is the replacement deal
  (deal draw).  The first discard after betting starts the draw phase and, after it, a new
  betting round.
* unit: a hand whose amounts have a fractional part, or that has `currency_symbol` or
  `currency`, is in cents (minor_per_unit 100; an amount finer than a cent is rejected);
  otherwise whole chips (1).  currency: `$` USD, `€` EUR, `£` GBP, else `currency` when it is
  a 3-letter code, else CHIPS.  `inf` (unknown) starting stacks give a `seat` with no amount.
* hand_id: `phh:<venue slug>:<hand>`; without venue or hand `phh:<file stem>:<table key>`.
  table_id: `table` (on every row).  ts (on hand_started): year/month/day/time in
  `time_zone` (IANA) or `time_zone_abbreviation` (ET/EST/EDT -> America/New_York, CET/CEST,
  GMT/UTC, ...) as UTC; with no usable zone the local time is read as UTC and `source` says so.
* seats: p1..pN sit in `seats` (else 1..N).  Button: pN with 3+ players.  Heads-up follows
  PokerKit: p1 posts `blinds_or_straddles[1]` (and `antes[1]`), p2 posts entry [0]; the player
  posting less is the button and acts first preflop (usually p2; p1 when written `[BB, SB]`;
  on a tie p1, as PokerKit opens with p1).  p1..pN is PHH's order of play; when `seats`
  contradicts it (not increasing clockwise, e.g. HandHQ iPoker hands where a new player's
  post was moved last), the players are numbered 1..N in order of play, each `seat` row keeps
  `site_seat=N` in detail and hand_started carries the flag `seats=renumbered`.
* `hand_started`: game {variant, structure, small_blind, big_blind, straddle, min_bet, ante
  (largest ante), small_bet, big_bet, button_seat, seat_count (`seat_count`, else null),
  currency, minor_per_unit, tournament false, profile null}; detail
  `refunds=implicit;rake=implicit` (PHH winnings exclude refunded uncalled bets, net of rake;
  HandHQ's PartyPoker hands include the refund in winnings, which the replay has to allow).
* `seat` per player in seat order: seat, player (`players`, else null), amount = stack.
* `post` antes (detail ante, total null: dead money), then blinds in blind order (detail
  small_blind / big_blind for the first two positions, straddle beyond).  A short stack posts
  what it has; total = the round total after posting.  A negative entry is PokerKit's "post"
  of a new or returning player, which PokerKit counts live in full.  We use the cardroom rule
  instead, which the site's own finishing stacks confirm (ONG: `-5` at 5/10, the player then
  calls the full 10): up to one big blind is live (post new_player), the rest is dead money
  (post dead, total null), and a post smaller than the big blind is all dead.
* `d dh pN CARDS` -> deal/hole (`????` -> `?? ??`); `d db CARDS` -> deal/board and a new
  betting round; `pN f` -> fold; `pN cc` -> check when nothing is owed, else call (amount
  added, capped by the stack; total after); `pN cbr X` -> bet when nobody has put chips into
  this round (blinds count preflop), else raise; amount = X - round total before, total = X.
  A call, bet or raise of the whole remaining stack has detail all_in.
* `pN sm CARDS` -> show; `pN sm -` -> show of the dealt hole cards; `pN sm` -> muck;
  `pN sm ????` (nothing known) -> muck, except when the same player has a later `sm` in the
  hand: then it is the exposure of an all-in runout whose cards the log gives later, and it
  maps to show `?? ??` (a muck there would kill a hand that later wins).  Text after `#` is a
  comment and ignored; an empty action is a no-op.
* `winnings` -> one `award` (detail main) per player with non-zero winnings, in seat order.
* `hand_ended` detail: `winnings=recorded|unrecorded|absent` (an all-zero array means "not
  recorded" in real data, so the replay must not read it as "nobody won"), plus
  `;finishing_stacks=<seat>:<minor units>,...` when the file has them (the only place a
  cross-check of the log's own stacks survives; nothing from the file is dropped silently).
* `source` on every row: `phh:<file name>:<header line>` (+ `;ts=...` note when guessed).

Rejected: TOML syntax errors, missing required fields (variant, starting_stacks, actions,
blinds_or_straddles for the button and draw games, bring_in for stud), a bring-in (`pb`)
outside stud or a draw (`sd`) outside the draw games, lists whose length is not the player count,
unknown action syntax (the action and its index), amounts finer than a cent, negative amounts
(other than the new-player posts above), cbr totals below the player's own round total.
Legality is not checked: an illegal action is imported as logged, for the replay to flag.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from audit.errors import AuditInputError
from audit.importers.base import (
    Chunk,
    KeptHand,
    Overlong,
    Rejected,
    bounded_lines,
    chunk_or_quarantine,
    over_hand_limit,
    over_line_limit,
    read_limits,
)
from audit.poker.variants import spec_of

CHUNK_HANDS = 5000
_UTC = dt.UTC


class PhhMappingError(AuditInputError):
    """A PHH hand that cannot be mapped to events; the message is the quarantine reason."""


@dataclass(frozen=True, slots=True)
class PhhGame:
    """The poker-audit variant, betting structure and family of a PHH variant code."""

    variant: str
    structure: str
    family: str = "button"  # "button" (blinds, board) | "stud" | "draw" | "short" (6+)


VARIANTS: dict[str, PhhGame] = {
    "NT": PhhGame("holdem", "no_limit"),
    "FT": PhhGame("holdem", "fixed_limit"),
    "PO": PhhGame("omaha", "pot_limit"),
    "FO/8": PhhGame("omaha_hilo", "fixed_limit"),
    "F7S": PhhGame("stud", "fixed_limit", "stud"),
    "F7S/8": PhhGame("stud_hilo", "fixed_limit", "stud"),
    "FR": PhhGame("razz", "fixed_limit", "stud"),
    "N2L1D": PhhGame("lowball_27_single", "no_limit", "draw"),
    "F2L3D": PhhGame("lowball_27_triple", "fixed_limit", "draw"),
    "FB": PhhGame("badugi", "fixed_limit", "draw"),
    # short deck: 36 cards, antes and a button blind (audit/replay/shortdeck.py)
    "NS": PhhGame("holdem_short", "no_limit", "short"),
}
_FIXED_LIMIT_FIELDS = ("small_bet", "big_bet")


class Blind(StrEnum):
    """The `detail` of a forced bet from `antes` / `blinds_or_straddles`."""

    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    STRADDLE = "straddle"
    NEW_PLAYER = "new_player"
    DEAD = "dead"
    BRING_IN = "bring_in"
    BUTTON_BLIND = "button_blind"


_CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "CST": "America/Chicago", "CDT": "America/Chicago",
    "PT": "America/Los_Angeles", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
    "CET": "Europe/Paris", "CEST": "Europe/Paris", "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon", "BST": "Europe/London", "GMT": "UTC", "UTC": "UTC", "Z": "UTC",
}
_HEADER = re.compile(rb"^\s*\[\s*(\"?)([^\[\]\"#]+?)\1\s*\]\s*(?:#.*)?$")
_KEY = re.compile(rb"^\s*([A-Za-z0-9_-]+)\s*=")
_CARD_TEXT = re.compile(r"^(?:[2-9TJQKA?][cdhs?])+$")
_PLAYER = re.compile(r"^p([1-9][0-9]*)$")
_NUMBER = re.compile(r"^[0-9]+(?:\.[0-9]+)?$")
_TOML_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
_SNIFF_VARIANT = re.compile(rb"^\s*variant\s*=\s*['\"]", re.MULTILINE)
_SNIFF_ACTIONS = re.compile(rb"^\s*actions\s*=\s*\[", re.MULTILINE)


# --- parsing helpers -------------------------------------------------------------------


def _cards(text: str, what: str) -> str:
    """`AcKd` -> `Ac Kd`; `????` -> `?? ??`; partly known `Ah??` -> `Ah ??`."""
    if not _CARD_TEXT.match(text):
        raise PhhMappingError(f"{what}: cards {text!r} are not PHH cards like 'AcKd' or '????'")
    pairs = [text[i : i + 2] for i in range(0, len(text), 2)]
    return " ".join("??" if "?" in p else p for p in pairs)


def _number(value: Any, what: str) -> Decimal:
    """A TOML number (int or Decimal from parse_float) as an exact Decimal; no floats."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhMappingError(f"{what} must be a number, got {value!r}")
    return Decimal(value)


def _numbers(hand: dict[str, Any], name: str, count: int) -> list[Decimal] | None:
    value = hand.get(name)
    if value is None:
        return None
    if not isinstance(value, list):
        raise PhhMappingError(f"{name} must be a list with one entry per player, got {value!r}")
    if len(value) != count:
        raise PhhMappingError(
            f"{name} has {len(value)} entries but there are {count} players (starting_stacks)"
        )
    return [_number(v, f"{name}[{i}]") for i, v in enumerate(value)]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


@dataclass(frozen=True, slots=True)
class _Action:
    """One parsed PHH action string."""

    index: int
    text: str
    actor: int | None  # 0-based player index (the receiver for dh); None for a board deal
    verb: str  # dh, db, f, cc, cbr, sm, pb (bring-in), sd (stand pat or discard)
    arg: str | None  # cards or amount text


def _parse_action(index: int, raw: Any, players: int) -> _Action | None:
    if not isinstance(raw, str):
        raise PhhMappingError(f"action {index} is not a string: {raw!r}")
    text = raw.split("#", 1)[0].strip()
    words = text.split()
    if not words:
        return None

    def player(word: str) -> int:
        m = _PLAYER.match(word)
        if not m or int(m.group(1)) > players:
            raise PhhMappingError(
                f"action {index} {raw!r}: {word!r} is not a player p1..p{players}"
            )
        return int(m.group(1)) - 1

    match words:
        case ["d", "dh", who, cards]:
            return _Action(index, raw, player(who), "dh", cards)
        case ["d", "db", cards]:
            return _Action(index, raw, None, "db", cards)
        case [who, "f"]:
            return _Action(index, raw, player(who), "f", None)
        case [who, "cc"]:
            return _Action(index, raw, player(who), "cc", None)
        case [who, "cbr", amount]:
            if not _NUMBER.match(amount):
                raise PhhMappingError(
                    f"action {index} {raw!r}: amount {amount!r} is not a non-negative number"
                )
            return _Action(index, raw, player(who), "cbr", amount)
        case [who, "pb"]:
            return _Action(index, raw, player(who), "pb", None)
        case [who, "sd"]:
            return _Action(index, raw, player(who), "sd", None)
        case [who, "sd", cards]:
            return _Action(index, raw, player(who), "sd", cards)
        case [who, "sm"]:
            return _Action(index, raw, player(who), "sm", None)
        case [who, "sm", cards]:
            return _Action(index, raw, player(who), "sm", cards)
    raise PhhMappingError(
        f"unknown action {index} {raw!r} (expected 'd dh pN CARDS', 'd db CARDS', "
        f"'pN f', 'pN cc', 'pN cbr X', 'pN pb', 'pN sd [CARDS]' or 'pN sm [CARDS]')"
    )


def _timestamp(hand: dict[str, Any]) -> tuple[dt.datetime | None, str]:
    """UTC time of the hand and a provenance note ('' when nothing was assumed)."""
    year, month, day, time = (hand.get(k) for k in ("year", "month", "day", "time"))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (year, month, day)):
        return None, ""
    if isinstance(time, str):
        try:
            time = dt.time.fromisoformat(time)
        except ValueError:
            time = None
    if not isinstance(time, dt.time):
        time = dt.time(0, 0)
        note = ";ts=date only"
    else:
        note = ""
    try:
        local = dt.datetime.combine(dt.date(year, month, day), time.replace(tzinfo=None))
    except ValueError:
        return None, f";ts=invalid date {year}-{month}-{day}"
    zone_name = hand.get("time_zone")
    abbreviation = hand.get("time_zone_abbreviation")
    zone = None
    if isinstance(zone_name, str):
        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            zone = None
    if zone is None and isinstance(abbreviation, str) and abbreviation.upper() in _ZONES:
        zone = ZoneInfo(_ZONES[abbreviation.upper()])
    if zone is None:
        given = zone_name if isinstance(zone_name, str) else abbreviation
        why = f"unknown time zone {given!r}" if isinstance(given, str) else "no time zone"
        return local.replace(tzinfo=_UTC), f"{note};ts=local time read as UTC ({why})"
    return local.replace(tzinfo=zone).astimezone(_UTC), note


# --- the mapping -----------------------------------------------------------------------


class _Hand:
    """Bookkeeping while one hand is mapped: rows, stacks and the betting round."""

    def __init__(self, hand_id: str, table_id: str | None, source: str) -> None:
        self.hand_id = hand_id
        self.table_id = table_id
        self.source = source
        self.rows: list[dict[str, Any]] = []
        self.anchors: list[str] = []

    def emit(self, anchor: str, kind: str, **fields: Any) -> None:
        row = {
            "hand_id": self.hand_id,
            "seq": len(self.rows),
            "table_id": self.table_id,
            "kind": kind,
            "source": self.source,
        }
        row.update(fields)
        self.rows.append(row)
        self.anchors.append(anchor)


def _map_hand(
    hand: dict[str, Any], *, hand_key: str, source: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows of one hand and, per row, the PHH field (or `actions:<i>`) it came from."""
    variant_code = hand.get("variant")
    if variant_code is None:
        raise PhhMappingError("missing required field 'variant'")
    game = VARIANTS.get(str(variant_code))
    if game is None:
        raise PhhMappingError(f"unsupported PHH variant {variant_code}")
    stud = game.family == "stud"
    required = ["starting_stacks", "actions", "bring_in" if stud else "blinds_or_straddles"]
    if game.structure == "fixed_limit":
        required += list(_FIXED_LIMIT_FIELDS)
    missing = [name for name in required if name not in hand]
    if missing:
        raise PhhMappingError(f"missing required field(s) {', '.join(map(repr, missing))}")
    raw_stacks = hand["starting_stacks"]
    if not isinstance(raw_stacks, list) or len(raw_stacks) < 2:
        raise PhhMappingError(f"starting_stacks must list 2 or more players, got {raw_stacks!r}")
    n = len(raw_stacks)
    stacks_in = _numbers(hand, "starting_stacks", n) or []
    antes_in = _numbers(hand, "antes", n) or [Decimal(0)] * n
    blinds_in = _numbers(hand, "blinds_or_straddles", n) or [Decimal(0)] * n
    winnings_in = _numbers(hand, "winnings", n)
    finishing_in = _numbers(hand, "finishing_stacks", n)
    scalars = {
        name: _number(hand[name], name)
        for name in ("min_bet", "small_bet", "big_bet", "bring_in")
        if hand.get(name) is not None
    }
    for name in ("seats", "players"):
        value = hand.get(name)
        if value is not None and (not isinstance(value, list) or len(value) != n):
            raise PhhMappingError(
                f"{name} has {len(value) if isinstance(value, list) else 'no list of'} "
                f"entries but there are {n} players (starting_stacks)"
            )
    seats = hand.get("seats") or list(range(1, n + 1))
    if not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 127 for s in seats):
        raise PhhMappingError(f"seats must be seat numbers 1..127, got {seats!r}")
    if len(set(seats)) != n:
        raise PhhMappingError(f"seats repeat a seat number: {seats!r}")
    # In PHH the player order p1..pN IS the order of play (p1 first after the button). When
    # `seats` contradicts it (not increasing clockwise), the site's seat numbers cannot place
    # the players: number them in the order of play and keep the site's numbers in `detail`.
    site_seats: list[int] | None = None
    if sum(1 for i in range(n) if seats[(i + 1) % n] < seats[i]) > 1:
        site_seats, seats = list(seats), list(range(1, n + 1))
    names = hand.get("players")
    players = [str(p) for p in names] if names else [None] * n

    raw_actions = hand["actions"]
    if not isinstance(raw_actions, list):
        raise PhhMappingError(f"actions must be a list of strings, got {raw_actions!r}")
    actions = [a for i, raw in enumerate(raw_actions) if (a := _parse_action(i, raw, n))]

    # Unit: cents when anything has a fractional part or a currency is named.
    amounts: list[tuple[str, Decimal]] = [
        *((f"starting_stacks[{i}]", v) for i, v in enumerate(stacks_in) if v.is_finite()),
        *((f"antes[{i}]", v) for i, v in enumerate(antes_in)),
        *((f"blinds_or_straddles[{i}]", v) for i, v in enumerate(blinds_in)),
        *((f"winnings[{i}]", v) for i, v in enumerate(winnings_in or [])),
        *((f"finishing_stacks[{i}]", v) for i, v in enumerate(finishing_in or [])),
        *scalars.items(),
        *((f"action {a.index} {a.text!r}", Decimal(a.arg)) for a in actions
          if a.verb == "cbr" and a.arg),
    ]
    for what, value in amounts:
        if not value.is_finite():
            raise PhhMappingError(f"{what} is {value}, not an amount")
        if value < 0 and not what.startswith("blinds_or_straddles"):
            raise PhhMappingError(f"{what} is negative ({value})")
    for i, v in enumerate(stacks_in):
        if v.is_nan() or (v.is_infinite() and v < 0):
            raise PhhMappingError(f"starting_stacks[{i}] is {v}, not a stack")
    symbol = hand.get("currency_symbol")
    code = hand.get("currency")
    fractional = any(v != v.to_integral_value() for _, v in amounts)
    mpu = 100 if fractional or symbol or code else 1
    for what, value in amounts:
        if value * mpu != (value * mpu).to_integral_value():
            raise PhhMappingError(
                f"{what} = {value} has more than {2 if mpu == 100 else 0} decimals "
                f"(finer than the {'cent' if mpu == 100 else 'chip'})"
            )
    if isinstance(symbol, str) and symbol in _CURRENCY_SYMBOLS:
        currency = _CURRENCY_SYMBOLS[symbol]
    elif isinstance(code, str) and re.fullmatch(r"[A-Z]{3}", code):
        currency = code
    elif symbol or code:
        raise PhhMappingError(f"unknown currency {symbol or code!r} (expected $, €, £ or ISO)")
    else:
        currency = "CHIPS"

    def minor(value: Decimal) -> int:
        return int(value * mpu)

    stacks: list[int | None] = [minor(v) if v.is_finite() else None for v in stacks_in]
    antes = [minor(v) for v in antes_in]
    blinds = [minor(v) for v in blinds_in]

    # Seats, blind order and the button (PokerKit's heads-up convention, see docstring).
    # Stud has no button: p1..pN are dealt clockwise from the dealer (PokerKit still reverses
    # a heads-up `antes` list).
    button: int | None
    if n == 2:
        antes = antes[::-1]
        blinds = blinds[::-1]
        button = 0 if abs(blinds[0]) <= abs(blinds[1]) else 1
        order = [button, 1 - button]
    else:
        button = n - 1
        order = list(range(n))
    if stud:
        button, order = None, list(range(n))
    bb_value = max((blinds[i] for i in order[:2] if blinds[i] > 0), default=0)
    sb_value = next((blinds[i] for i in order[:2] if 0 < blinds[i] < bb_value), None)
    straddles = [blinds[i] for i in order[2:] if blinds[i] > 0]
    short = game.family == "short"
    if short:  # the button blind is the game's one blind (its big_blind)
        bb_value, sb_value, straddles = max(blinds), None, []

    # our own export of another importer's hand (`x_...`: exports before the PHH-conformant name)
    exported_id = hand.get("_poker_audit_hand_id", hand.get("x_poker_audit_hand_id"))
    hand_id = (
        exported_id if isinstance(exported_id, str) and exported_id
        else f"phh:{_slug(str(hand['venue']))}:{hand['hand']}"
        if hand.get("venue") is not None and hand.get("hand") is not None
        else f"phh:{hand_key}"
    )
    table = hand.get("table")
    ts, note = _timestamp(hand)
    seat_count = hand.get("seat_count")
    h = _Hand(hand_id, str(table) if table is not None else None, source + note)
    h.emit(
        "header", "hand_started",
        ts=ts,
        detail="refunds=implicit;rake=implicit" + (";seats=renumbered" if site_seats else ""),
        game={
            "variant": game.variant,
            "structure": game.structure,
            "small_blind": sb_value,
            "big_blind": bb_value or None,
            "small_bet": minor(scalars["small_bet"]) if "small_bet" in scalars else None,
            "big_bet": minor(scalars["big_bet"]) if "big_bet" in scalars else None,
            "ante": max(antes),
            "straddle": max(straddles) if straddles else None,
            "min_bet": minor(scalars["min_bet"]) if "min_bet" in scalars else None,
            "button_seat": seats[button] if button is not None else None,
            "seat_count": seat_count if isinstance(seat_count, int) else None,
            "currency": currency,
            "minor_per_unit": mpu,
            "tournament": bool(hand.get("tournament", False)),
            "profile": None,
            **({"bring_in": minor(scalars["bring_in"])} if stud else {}),
        },
    )
    for i in sorted(range(n), key=lambda i: seats[i]):
        h.emit("starting_stacks", "seat", seat=seats[i], player=players[i], amount=stacks[i],
               detail=f"site_seat={site_seats[i]}" if site_seats else None)

    left: list[int | None] = list(stacks)
    round_total = [0] * n

    def pay(i: int, want: int) -> int:
        """Chips player i can put in (capped by a known stack); books them."""
        stack = left[i]
        amount = want if stack is None else max(0, min(want, stack))
        if stack is not None:
            left[i] = stack - amount
        return amount

    for i in range(n):
        if antes[i] > 0:
            amount = pay(i, antes[i])
            h.emit("antes", "post", seat=seats[i], player=players[i], amount=amount,
                   detail=Blind.ANTE.value)
    for k, i in enumerate(order):
        if blinds[i] == 0:
            continue
        if blinds[i] < 0:
            label = Blind.NEW_PLAYER
        elif short:
            label = Blind.BUTTON_BLIND
        elif k >= 2:
            label = Blind.STRADDLE
        elif blinds[i] == bb_value:
            label = Blind.BIG_BLIND
        else:
            label = Blind.SMALL_BLIND
        posted = abs(blinds[i])
        live = posted
        if label is Blind.NEW_PLAYER:
            live = bb_value if posted >= bb_value else 0
        if live:
            amount = pay(i, live)
            round_total[i] += amount
            h.emit("blinds_or_straddles", "post", seat=seats[i], player=players[i],
                   amount=amount, total=round_total[i], detail=label.value)
        if posted > live:
            h.emit("blinds_or_straddles", "post", seat=seats[i], player=players[i],
                   amount=pay(i, posted - live), detail=Blind.DEAD.value)

    held: list[list[str]] = [[] for _ in range(n)]  # each player's cards, in PHH text

    def hole(i: int) -> str | None:
        return " ".join(held[i]) if held[i] else None

    shows_left = [0] * n
    for a in actions:
        if a.verb == "sm" and a.actor is not None:
            shows_left[a.actor] += 1
        if game.family != "stud" and a.verb == "pb":
            raise PhhMappingError(f"action {a.index} {a.text!r}: a bring-in, but {variant_code} "
                                  "is not a stud game")
        if game.family != "draw" and a.verb == "sd":
            raise PhhMappingError(f"action {a.index} {a.text!r}: a draw, but {variant_code} "
                                  "is not a draw game")
    spec = spec_of(game.variant)
    street = 0  # stud: the street of the latest deal (0 = 3rd street)
    drawing = False  # draw: a draw phase is under way (a discard since the last bet action)
    drew: set[int] = set()  # draw: who has drawn in the current phase
    drawn_any = False
    small_bet = minor(scalars["small_bet"]) if "small_bet" in scalars else 0
    for a in actions:
        anchor = f"actions:{a.index}"
        what = f"action {a.index} {a.text!r}"
        if a.verb == "db":
            h.emit(anchor, "deal", cards=_cards(a.arg or "", what), detail="board")
            round_total = [0] * n
            if spec is not None:
                street = len(spec.counts) - 1
            continue
        i = a.actor
        assert i is not None
        who_fields = {"seat": seats[i], "player": players[i]}
        if a.verb in ("f", "cc", "cbr", "pb"):
            drawing = False
        if a.verb == "dh":
            tokens = _cards(a.arg or "", what).split()
            if stud and spec is not None:
                first = len(held[i])
                faces = [spec.faces[k] if k < len(spec.faces) else "d"
                         for k in range(first, first + len(tokens))]
                k = 0
                while k < len(tokens):
                    j = k
                    while j < len(tokens) and faces[j] == faces[k]:
                        j += 1
                    h.emit(anchor, "deal", cards=" ".join(tokens[k:j]),
                           detail="up" if faces[k] == "u" else "down", **who_fields)
                    k = j
                held[i].extend(tokens)
                now = next((s for s, c in enumerate(spec.counts) if c >= len(held[i])),
                           len(spec.counts) - 1)
                if now > street:
                    street, round_total = now, [0] * n
            elif game.family == "draw":
                held[i].extend(tokens)
                h.emit(anchor, "deal", cards=" ".join(tokens),
                       detail="draw" if drawn_any else "hole", **who_fields)
            else:
                held[i] = tokens
                h.emit(anchor, "deal", cards=hole(i), detail="hole", **who_fields)
        elif a.verb == "pb":
            amount = pay(i, minor(scalars["bring_in"]))
            round_total[i] += amount
            h.emit(anchor, "post", amount=amount, total=round_total[i],
                   detail=Blind.BRING_IN.value, **who_fields)
        elif a.verb == "sd":
            if not drawing or i in drew:
                drawing, drew, round_total = True, set(), [0] * n
            drew.add(i)
            drawn_any = True
            if a.arg is None:
                h.emit(anchor, "stand_pat", **who_fields)
                continue
            out = _cards(a.arg, what).split()
            for c in out:
                if c in held[i]:
                    held[i].remove(c)
                elif "??" in held[i]:
                    held[i].remove("??")
                elif held[i]:  # which card went is unknown: so is the rest of the hand
                    held[i] = ["??"] * (len(held[i]) - 1)
            h.emit(anchor, "draw", cards=" ".join(out), amount=len(out), **who_fields)
        elif a.verb == "f":
            h.emit(anchor, "fold", **who_fields)
        elif a.verb == "cc":
            owed = max(round_total) - round_total[i]
            if owed <= 0:
                h.emit(anchor, "check", **who_fields)
            else:
                before = left[i]
                amount = pay(i, owed)
                round_total[i] += amount
                h.emit(anchor, "call", amount=amount, total=round_total[i],
                       detail="all_in" if before is not None and amount == before else None,
                       **who_fields)
        elif a.verb == "cbr":
            to = minor(Decimal(a.arg or "0"))
            amount = to - round_total[i]
            if amount < 0:
                raise PhhMappingError(
                    f"{what}: raises to {to} minor units, below the player's own round "
                    f"total {round_total[i]}"
                )
            top = max(round_total)
            if stud and street == 0 and 0 < top < small_bet and to <= small_bet:
                kind = "complete"  # raising the bring-in to the small bet (STUD-COMPLETE)
            else:
                kind = "raise" if top > 0 else "bet"
            before = left[i]
            if before is not None:
                left[i] = before - amount
            round_total[i] = to
            h.emit(anchor, kind, amount=amount, total=to,
                   detail="all_in" if before is not None and amount == before else None,
                   **who_fields)
        elif a.verb == "sm":
            shows_left[i] -= 1
            arg = a.arg
            if arg is None:
                h.emit(anchor, "muck", cards=hole(i), **who_fields)
            elif arg == "-":
                h.emit(anchor, "show", cards=hole(i) or "?? ??", **who_fields)
            else:
                cards = _cards(arg, what)
                if set(cards) <= {"?", " "}:
                    if shows_left[i] > 0:
                        h.emit(anchor, "show", cards=cards, detail="unrevealed", **who_fields)
                    else:
                        h.emit(anchor, "muck", cards=hole(i) if hole(i) != cards else None,
                               **who_fields)
                else:
                    h.emit(anchor, "show", cards=cards, **who_fields)

    if winnings_in is None:
        recorded = "absent"
    elif not any(winnings_in):
        recorded = "unrecorded"
    else:
        recorded = "recorded"
        for i in sorted(range(n), key=lambda i: seats[i]):
            if winnings_in[i]:
                h.emit("winnings", "award", seat=seats[i], player=players[i],
                       amount=minor(winnings_in[i]), detail="main")
    detail = f"winnings={recorded}"
    if finishing_in is not None:
        detail += ";finishing_stacks=" + ",".join(
            f"{seats[i]}:{minor(finishing_in[i])}" for i in sorted(range(n), key=lambda i: seats[i])
        )
    h.emit("end", "hand_ended", detail=detail)
    if short:
        for row in h.rows:
            for card in (row.get("cards") or "").split():
                if card[0] in "2345":
                    raise PhhMappingError(f"card {card} in a short-deck ({variant_code}) hand: "
                                          "the 36-card deck has no card below the six")
    if "_poker_audit_events" in hand:
        if hand.get("_poker_audit_digest") == phh_digest(hand):
            exact = _exact_events(hand, h)
            return exact, ["_poker_audit_events"] * len(exact)
        for row in h.rows:
            row["source"] += ";_poker_audit_events ignored: the PHH fields were changed"
    return h.rows, h.anchors


def phh_digest(fields: dict[str, Any]) -> str:
    """The digest of a PHH hand's standard fields (parsed; user-defined `_` fields aside), as
    poker-audit's exporter writes it in `_poker_audit_digest` (audit.export.phh_digest)."""
    standard = {k: v for k, v in fields.items() if not k.startswith("_")}
    text = json.dumps(standard, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_EXACT_FIELDS = {"kind": str, "seat": int, "player": str, "amount": int, "total": int,
                 "cards": str, "detail": str, "ts": str}
_GAME_FIELDS = {"variant": str, "structure": str, "currency": str, "profile": str,
                "house_overrides": str, "tournament": bool, "dead_button": bool}


def _exact_events(hand: dict[str, Any], h: _Hand) -> list[dict[str, Any]]:
    """The events of a poker-audit export's `_poker_audit_events` (with `_poker_audit_game`):
    the hand exactly as stored, where the standard fields say only its play (`phh_play`)."""
    events, game = hand.get("_poker_audit_events"), hand.get("_poker_audit_game")
    if not isinstance(events, list) or not events or not isinstance(game, dict):
        raise PhhMappingError("_poker_audit_events must list the events and _poker_audit_game "
                              "must be the game table")
    for key, value in game.items():
        want = _GAME_FIELDS.get(key, int)
        if type(value) is not want:
            raise PhhMappingError(f"_poker_audit_game.{key} = {value!r} is not a {want.__name__}")
    rows: list[dict[str, Any]] = []
    for i, event in enumerate(events):
        if not isinstance(event, dict) or set(event) - set(_EXACT_FIELDS):
            raise PhhMappingError(f"_poker_audit_events[{i}] is not an event table")
        for key, value in event.items():
            if type(value) is not _EXACT_FIELDS[key]:
                raise PhhMappingError(f"_poker_audit_events[{i}].{key} = {value!r} is not a "
                                      f"{_EXACT_FIELDS[key].__name__}")
        row = {"hand_id": h.hand_id, "seq": i, "table_id": h.table_id,
               **{k: event.get(k) for k in _EXACT_FIELDS}, "source": h.source}
        if row["ts"] is not None:
            try:
                row["ts"] = dt.datetime.fromisoformat(row["ts"]).astimezone(_UTC)
            except ValueError:
                raise PhhMappingError(f"_poker_audit_events[{i}].ts {row['ts']!r} is not an "
                                      "ISO 8601 time") from None
        rows.append(row)
    if rows[0]["kind"] != "hand_started":
        raise PhhMappingError("_poker_audit_events must start with hand_started")
    rows[0]["game"] = {k: game.get(k) for k in h.rows[0]["game"]} | game
    return rows


_PLAY = ("fold", "check", "call", "bet", "raise", "complete")


def phh_play(rows: list[dict[str, Any]]) -> tuple[Any, ...]:
    """What the standard PHH fields say of a hand, and so what a PHH round trip keeps when
    another tool drops our `_poker_audit_*` fields: the players dealt in (seat, name, stack; a
    seat sitting out is not listed), what each seat posted before the cards (antes, blinds,
    bring-in: one sum per seat), the cards each seat was dealt and the board, in order, the
    betting (kind, seat, amount, total), draws (seat, how many) and stand-pats, shows (with
    cards) and mucks, and each seat's winnings (its awards but an uncalled bet returned).
    Not said: event times but the start, details (all-in, dead / live blind labels, pot
    labels), burns, rake, annotations, the live layer, and the hand's started / ended notes."""
    rows = sorted(rows, key=lambda r: r["seq"])
    acting = {r.get("seat") for r in rows if r["kind"] not in ("seat", "hand_started")}
    seats = sorted((r["seat"], r.get("player"), r.get("amount")) for r in rows
                   if r["kind"] == "seat" and (r.get("detail") != "sitting_out"
                                               or r["seat"] in acting))
    posted: dict[int, int] = {}
    dealt: dict[int, list[str]] = {}
    won: dict[int, int] = {}
    play: list[tuple[Any, ...]] = []
    for r in rows:
        kind, seat = r["kind"], r.get("seat")
        if kind == "post":
            posted[seat] = posted.get(seat, 0) + (r.get("amount") or 0)
        elif kind == "deal":
            dealt.setdefault(-1 if seat is None else seat, []).extend(
                (r.get("cards") or "").split())
        elif kind in _PLAY:
            play.append((kind, seat, r.get("amount"), r.get("total")))
        elif kind == "draw":
            play.append((kind, seat, r.get("amount")))
        elif kind in ("stand_pat", "muck"):
            play.append((kind, seat))
        elif kind == "show":
            play.append((kind, seat, r.get("cards")))
        elif kind == "award" and r.get("detail") != "uncalled":
            won[seat] = won.get(seat, 0) + (r.get("amount") or 0)
    return (seats, sorted(posted.items()), sorted(dealt.items()), play,
            sorted((k, v) for k, v in won.items() if v))


def phh_hand_to_events(
    hand: dict[str, Any], *, hand_key: str, source: str, line: int
) -> list[dict[str, Any]]:
    """The event rows of one parsed PHH hand (a dict from tomllib with parse_float=Decimal).

    `hand_key` names the hand when it has no venue and hand number (`<file stem>:<key>`);
    `source` is the provenance put on every row; `line` is the hand's header line (kept for
    the signature shared with the reader). Raises PhhMappingError with the reason.
    """
    del line
    rows, _ = _map_hand(hand, hand_key=hand_key, source=source)
    return rows


# --- the reader ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _RawHand:
    """The text of one hand: its table key (None for a single .phh), header line, lines;
    `unread` says why it is not parsed (a line or the hand over a read limit)."""

    key: str | None
    line: int
    first_body_line: int
    body: list[bytes]
    unread: str = ""

    def raw(self) -> str:
        head = f"[{self.key}]\n" if self.key is not None else ""
        return head + b"".join(self.body).decode("utf-8", errors="backslashreplace")


_PER_LINE_COST = 64  # bytes a held line costs beyond its text (a list entry, a bytes header)


def _split_hands(path: Path) -> Iterator[_RawHand]:
    """Hands of a file, one TOML table at a time, found by their `[N]` header lines. A hand
    with a line over the line limit, or over the hand limit, keeps only its first lines (an
    excerpt) and says so in `unread`: memory follows the limits, never the file."""
    limit = read_limits().hand_bytes
    key: str | None = None
    start = 1
    body: list[bytes] = []
    size = 0
    unread = ""

    def hand() -> _RawHand:
        why = unread or (over_hand_limit(start, size) if size > limit else "")
        return _RawHand(key, start, start + (key is not None), body, why)

    with path.open("rb") as f:
        for number, line in enumerate(bounded_lines(f), start=1):
            if isinstance(line, Overlong):
                unread = unread or over_line_limit(number, line.size)
                if size <= limit:
                    body.append(line.text().encode("utf-8", "backslashreplace") + b"\n")
                size += line.size
                continue
            m = _HEADER.match(line)
            if m:
                if key is not None or unread or any(_significant(b) for b in body):
                    yield hand()
                key = m.group(2).decode("utf-8", errors="backslashreplace").strip()
                start = number
                body, size, unread = [], 0, ""
            else:
                size += len(line) + _PER_LINE_COST
                if size <= limit:
                    body.append(line)
    if key is not None or unread or any(_significant(b) for b in body):
        yield hand()


def _significant(line: bytes) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith(b"#")


def _field_lines(raw: _RawHand, actions: list[Any]) -> dict[str, int]:
    """Line of each top-level key of a hand, and of each action (`actions:<i>`)."""
    lines: dict[str, int] = {"header": raw.line}
    last = raw.line
    for offset, text in enumerate(raw.body):
        number = raw.first_body_line + offset
        if _significant(text):
            last = number
        m = _KEY.match(text)
        if m:
            lines.setdefault(m.group(1).decode(), number)
    lines["end"] = last
    at = lines.get("actions")
    if at is not None:
        offset = at - raw.first_body_line
        for i, action in enumerate(actions):
            needle = str(action).encode()
            j = offset
            while j < len(raw.body) and needle not in raw.body[j]:
                j += 1
            if j < len(raw.body):
                offset = j
            lines[f"actions:{i}"] = raw.first_body_line + offset
    return lines


def _guess_id(raw: _RawHand, stem: str) -> str | None:
    """The hand id of an unparseable hand, from its `venue` / `hand` lines when readable."""
    found: dict[str, str] = {}
    for text in raw.body:
        m = re.match(rb"^\s*(venue|hand)\s*=\s*['\"]?([^'\"\r\n#]*?)['\"]?\s*(?:#.*)?$", text)
        if m:
            found[m.group(1).decode()] = m.group(2).decode("utf-8", errors="replace").strip()
    if "venue" in found and "hand" in found:
        return f"phh:{_slug(found['venue'])}:{found['hand']}"
    return f"phh:{stem}:{raw.key}" if raw.key is not None else None


class PhhImporter:
    """PHH / PHHS files: recognised by content, read hand by hand, chunks of whole hands."""

    name = "phh"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """TOML with a `variant = '...'` line and an `actions = [` line (file name ignored)."""
        del path
        return bool(_SNIFF_VARIANT.search(head) and _SNIFF_ACTIONS.search(head))

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        stem = path.stem
        rejected: list[Rejected] = []
        kept: list[KeptHand] = []
        for raw in _split_hands(path):
            source = f"phh:{path.name}:{raw.line}"
            hand_key = f"{stem}:{raw.key}" if raw.key is not None else stem
            if raw.unread:
                rejected.append(Rejected(source=str(path), line=raw.line,
                                         hand_id=_guess_id(raw, stem), raw=raw.raw(),
                                         reason=raw.unread))
                continue
            try:
                text = b"".join(raw.body).decode("utf-8")
            except UnicodeDecodeError as exc:
                rejected.append(Rejected(source=str(path), line=raw.line,
                                         hand_id=_guess_id(raw, stem), raw=raw.raw(),
                                         reason=f"hand is not UTF-8 text ({exc.reason})"))
                continue
            try:
                try:
                    hand = tomllib.loads(text, parse_float=Decimal)
                except RecursionError:  # tomllib recurses once per nested array
                    raise PhhMappingError("TOML nested too deeply to read (arrays or tables "
                                          "inside each other past Python's recursion "
                                          "limit); no hand is nested like this") from None
                except tomllib.TOMLDecodeError as exc:
                    message = str(exc)
                    pos = _TOML_POS.search(message)
                    if pos:
                        absolute = raw.first_body_line + int(pos.group(1)) - 1
                        message = _TOML_POS.sub(
                            f"(at line {absolute}, column {pos.group(2)})", message
                        )
                    raise PhhMappingError(f"TOML syntax error: {message}") from None
                hand_rows, anchors = _map_hand(hand, hand_key=hand_key, source=source)
            except PhhMappingError as exc:
                rejected.append(Rejected(source=str(path), line=raw.line,
                                         hand_id=_guess_id(raw, stem), reason=str(exc),
                                         raw=raw.raw()))
                continue
            except Exception as exc:  # noqa: BLE001 - one bad hand never stops the file
                rejected.append(Rejected(source=str(path), line=raw.line,
                                         hand_id=_guess_id(raw, stem), raw=raw.raw(),
                                         reason=f"malformed PHH hand ({type(exc).__name__}: "
                                                f"{exc})"))
                continue
            where = _field_lines(raw, hand.get("actions") or [])
            kept.append((hand_rows, [where.get(a, raw.line) for a in anchors], raw.line,
                         _guess_id(raw, stem), raw.raw()))
            if len(kept) >= self.chunk_hands:
                yield chunk_or_quarantine(kept, rejected, path)
                rejected, kept = [], []
        if kept or rejected:
            yield chunk_or_quarantine(kept, rejected, path)


IMPORTER = PhhImporter()
