"""PokerStars hand headers: the game, stakes, currency, tournament level and time of a hand.

Used by `audit.importers.pokerstars.reader`; kept apart so the line parser stays small. Everything
here raises `PokerStarsError` with the quarantine reason; nothing is guessed silently (an
unknown time zone is read as UTC and the returned note says so).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from audit.errors import AuditInputError

_UTC = dt.UTC


class PokerStarsError(AuditInputError):
    """A PokerStars hand that cannot be mapped; carries the offending line number."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


# Base game names as PokerStars writes them -> our variant (None: no variant, rejected).
GAMES: dict[str, str | None] = {
    "Hold'em": "holdem",
    "Omaha": "omaha",
    "Omaha Hi/Lo": "omaha_hilo",
    "5 Card Omaha": "omaha5",
    "5 Card Omaha Hi/Lo": "omaha5_hilo",
    "6 Card Omaha": "omaha6",
    "6 Card Omaha Hi/Lo": "omaha6_hilo",
    "Courchevel": None,
    "Split Hold'em": "holdem_split",  # two boards, each half the pot
    "Split Omaha": None,
    "Split Omaha Hi/Lo": None,
    "Courchevel Hi/Lo": None,
    "6+ Hold'em": "holdem_6plus",
    "Hold'em 6+": "holdem_6plus",
    "7 Card Stud": "stud",
    "7 Card Stud Hi/Lo": "stud_hilo",
    "Razz": "razz",
    "5 Card Stud": "stud5",
    "Triple Draw 2-7 Lowball": "lowball_27_triple",
    "Single Draw 2-7 Lowball": "lowball_27_single",
    "Triple Draw A-5 Lowball": "lowball_a5_triple",
    "5 Card Draw": "draw_high",
    "Badugi": "badugi",
}
STRUCTURES = {"No Limit": "no_limit", "Pot Limit": "pot_limit", "Limit": "fixed_limit",
              "Fixed Limit": "fixed_limit"}
FULL_NAMES: dict[str, tuple[str, str | None, str]] = {
    f"{base} {label}": (base, variant, structure)
    for base, variant in GAMES.items()
    for label, structure in STRUCTURES.items()
}
STUD = frozenset({"stud", "stud_hilo", "razz", "stud5"})
DRAW = frozenset({"lowball_27_triple", "lowball_27_single", "lowball_a5_triple", "draw_high",
                  "badugi"})
HILO = frozenset({"omaha_hilo", "omaha5_hilo", "omaha6_hilo", "stud_hilo"})
# 6+ (short-deck) hold'em: the 36-card deck, antes and a button blind (audit/replay/shortdeck.py)
SHORT = frozenset({"holdem_6plus"})
HOLE_COUNT = {"holdem": 2, "holdem_6plus": 2, "holdem_split": 2, "omaha": 4, "omaha_hilo": 4,
              "omaha5": 5, "omaha5_hilo": 5,
              "omaha6": 6, "omaha6_hilo": 6,
              "lowball_27_triple": 5, "lowball_27_single": 5, "lowball_a5_triple": 5,
              "draw_high": 5, "badugi": 4}
CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "CST": "America/Chicago", "CDT": "America/Chicago",
    "MT": "America/Denver", "PT": "America/Los_Angeles", "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles", "AT": "America/Halifax", "BRT": "America/Sao_Paulo",
    "CET": "Europe/Paris", "CEST": "Europe/Paris", "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon", "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki",
    "BST": "Europe/London", "GMT": "UTC", "UTC": "UTC", "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata", "CCT": "Asia/Shanghai", "JST": "Asia/Tokyo",
    "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney", "NZT": "Pacific/Auckland",
}
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_KINDS = frozenset({"Hand", "Game", "Zoom Hand", "Zoom Game", "Home Game", "Home Game Hand",
                    "Zoom Tournament Hand"})
# The rooms whose hand histories are PokerStars text (their own header word), and the room flag
# and hand id prefix of each (PokerStars' own: no flag, `ps:`). Run It Once's numbers are
# 8-digit and PokerMaster's its own: either could be a PokerStars number, hence their own
# prefixes; Full Tilt on the PokerStars software numbers its hands apart from PokerStars.
ROOMS: dict[str, str | None] = {"PokerStars": None, "PokerMaster": "pokermaster",
                                "Run It Once Poker": "rio", "Full Tilt": "fulltilt"}
ID_PREFIX = {None: "ps:", "pokermaster": "pokermaster:", "rio": "rio:", "fulltilt": "ftp:",
             "converted": "converted:"}
_HEADER = re.compile(r"(PokerStars|PokerMaster|Run It Once Poker|Full Tilt) ([A-Za-z ]+?) "
                     r"#(\d+): +(.*)$")
# (Run It Once writes no seconds: '2019/06/25 16:12 UTC')
_DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2})(?::(\d{2}))?(?: ([A-Z]{1,5}))?$")
# the date of 2007-2008 headers: '2007/10/15 - 05:34:03 (ET)' (read as '2007/10/15 05:34:03 ET')
_OLD_DATE = re.compile(r"(.* - \d{4}/\d{1,2}/\d{1,2}) - (\d{1,2}:\d{2}:\d{2}) \(([A-Z]{1,5})\)$")
# 6+ hold'em stakes of 2019: '(Button Blind $2 - Ante $2  USD)', read as the later '($2/$2 USD)'
# (ante/button blind)
_BUTTON_ANTE = re.compile(r"\(Button Blind ([^ ()]+) - Ante ([^ ()]+) *([A-Z]{3})?\)")
_LEVEL = re.compile(r"(?:Match Round [IVXLC]+, )?Level ([IVXLC]+|\d+) \(([^()]*)\)$",
                    re.IGNORECASE)
_CASH = re.compile(r"(.+?) \(([^()]*)\)$")


@dataclass(slots=True)
class Header:
    """What the first line of a hand says."""

    number: str
    variant: str
    structure: str
    tournament: bool
    level: int | None
    stakes: tuple[int, int] | None  # in minor units
    currency: str
    minor_per_unit: int
    ts: dt.datetime | None
    ts_note: str  # '' or ';ts=...' when the time was assumed
    # the room that wrote the hand when it is not PokerStars (its hand ids are that room's)
    room: str | None = None


def roman(text: str) -> int:
    if text.isdigit():
        return int(text)
    total = 0
    for i, ch in enumerate(text):
        value = _ROMAN[ch]
        nxt = _ROMAN[text[i + 1]] if i + 1 < len(text) else 0
        total += -value if value < nxt else value
    return total


_MONEY_CACHE: dict[tuple[str, int], int] = {}


def money(text: str, mpu: int) -> int:
    """'$1.23' / '€0.50' / '1,234' / '10' -> integer minor units, exactly (no floats).

    Amounts repeat a lot in hand histories, so parsed values are memoised (bounded)."""
    key = (text, mpu)
    value = _MONEY_CACHE.get(key)
    if value is None:
        if len(_MONEY_CACHE) > 200_000:
            _MONEY_CACHE.clear()
        value = _MONEY_CACHE[key] = _money(text, mpu)
    return value


def _money(text: str, mpu: int) -> int:
    s = text
    if s and s[0] in "$€£":
        s = s[1:]
    if "," in s:
        s = s.replace(",", "")
    whole, dot, frac = s.partition(".")
    if not whole.isdigit() if whole else not frac:
        raise ValueError(text)
    if not dot:
        return int(whole) * mpu
    if not frac.isdigit():
        raise ValueError(text)
    digits = len(str(mpu)) - 1  # 100 -> 2 decimals, 1 -> 0
    frac = frac.rstrip("0")
    if len(frac) > digits:
        raise ValueError(f"{text} is finer than the currency's minor unit")
    return int(whole or "0") * mpu + (int(frac.ljust(digits, "0")) if frac else 0)


@cache
def _zone(abbreviation: str) -> ZoneInfo | None:
    name = ZONES.get(abbreviation)
    if name is None:
        return None
    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError:  # pragma: no cover - tzdata missing
        return None


@cache
def _game(name: str) -> tuple[str, str]:
    entry = FULL_NAMES.get(name)
    if entry is None:
        raise PokerStarsError(f"unknown PokerStars game {name!r}")
    base, variant, structure = entry
    if variant is None:
        raise PokerStarsError(
            f"game {name!r} has no variant in schemas/events.json ({base} is not supported yet)"
        )
    return variant, structure


def _find_game(text: str) -> tuple[str, str, str]:
    """(variant, structure, text before the game name) for '<prefix> GAME' or '... MIX (GAME)'."""
    m = _CASH.match(text)
    if m and m.group(2) in FULL_NAMES:  # mixed game in a tournament: 'HORSE (Razz Limit)'
        variant, structure = _game(m.group(2))
        return variant, structure, m.group(1)
    upper = text.upper()  # (exports write the game in capitals: '7 CARD STUD HI/LO LIMIT')
    for name in sorted(FULL_NAMES, key=len, reverse=True):
        if text == name or text.endswith(" " + name) or upper.endswith(" " + name.upper()):
            variant, structure = _game(name)
            return variant, structure, text[: -len(name)].strip()
    raise PokerStarsError(f"unknown PokerStars game in {text!r}")


def _stakes(text: str, tournament: bool) -> tuple[tuple[int, int], str, int]:
    parts = text.split()
    amounts = parts[0].split("/") if parts else []
    if len(amounts) != 2:
        raise PokerStarsError(f"stakes {text!r} are not like '$0.05/$0.10 USD' or '10/20'")
    symbol = amounts[0][:1]
    code = parts[1] if len(parts) > 1 and parts[1].isalpha() and len(parts[1]) == 3 else None
    if tournament:
        currency, mpu = "CHIPS", 1
    elif symbol in CURRENCY_SYMBOLS:
        currency, mpu = code or CURRENCY_SYMBOLS[symbol], 100
    elif code:
        currency, mpu = code, 100
    else:
        currency, mpu = "CHIPS", 1
    try:
        return (money(amounts[0], mpu), money(amounts[1], mpu)), currency, mpu
    except ValueError:
        raise PokerStarsError(f"stakes {text!r} are not amounts") from None


def _time(text: str) -> tuple[dt.datetime | None, str]:
    """The ET time in brackets when present (the reference clock), else the local time."""
    if text.endswith("]") and "[" in text:
        text = text[text.rindex("[") + 1 : -1]
    m = _DATE.match(text.strip())
    if not m:
        raise PokerStarsError(f"date {text!r} is not like '2010/08/03 10:57:43 ET'")
    y, mo, d, h, mi, s = (int(g or 0) for g in m.groups()[:6])
    zone_name = m.group(7) or ""
    try:
        local = dt.datetime(y, mo, d, h, mi, s)
    except ValueError:
        raise PokerStarsError(f"date {text!r} is not a valid date and time") from None
    zone = _zone(zone_name)
    if zone is None:
        return local.replace(tzinfo=_UTC), f";ts=local time read as UTC (zone {zone_name!r})"
    if y < 1970:  # old zone rules change offsets at odd minutes: no per-hour shortcut
        return local.replace(tzinfo=zone).astimezone(_UTC), ""
    # The zones in ZONES change offset only on the hour, so one local hour has one offset
    # (for a repeated or skipped hour, the one zoneinfo gives with fold=0): look it up once.
    key = (zone_name, y, mo, d, h)
    offset = _HOUR_OFFSETS.get(key)
    if offset is None:
        if len(_HOUR_OFFSETS) > 100_000:
            _HOUR_OFFSETS.clear()
        hour = dt.datetime(y, mo, d, h)
        offset = _HOUR_OFFSETS[key] = hour.replace(tzinfo=zone).utcoffset()
    return (local - offset).replace(tzinfo=_UTC), ""


_HOUR_OFFSETS: dict[tuple[str, int, int, int, int], dt.timedelta | None] = {}


# Game descriptions already read (the header text between the number and the date): in a
# real file thousands of hands share one, so only the number and the time are parsed anew.
_KNOWN_GAMES: dict[str, Header] = {}


def parse_header(line: str) -> Header:
    """The game configuration of a hand from its first line."""
    game, number, ts, note = read_header(line)
    return replace(game, number=number, ts=ts, ts_note=note)


def read_header(line: str) -> tuple[Header, str, dt.datetime | None, str]:
    """(the game, the hand number, the time, the time note) of a header line. The returned
    `Header` may be shared by every hand of the same game: its own number, ts and ts_note are
    those of the first such hand, so use the returned ones."""
    if line.endswith(")"):
        old = _OLD_DATE.match(line)
        if old is not None:
            line = f"{old[1]} {old[2]} {old[3]}"
    if "(Button Blind " in line:
        line = _BUTTON_ANTE.sub(lambda m: f"({m[2]}/{m[1]} {m[3] or ''})".replace(" )", ")"),
                                line, count=1)
    m = _HEADER.match(line)
    if not m or m.group(2) not in _KINDS:
        raise PokerStarsError(f"hand header {line!r} is not like 'PokerStars Hand #N: ...'")
    number, rest = m.group(3), m.group(4)
    game, sep, date = rest.rpartition(" - ")
    game = m.group(1) + "|" + game  # (the same game text of two rooms: two headers)
    known = _KNOWN_GAMES.get(game) if sep else None
    if known is not None:
        ts, note = _time(date)
    else:
        known = _parse_header(line, number, rest)
        if len(_KNOWN_GAMES) > 10_000:
            _KNOWN_GAMES.clear()
        _KNOWN_GAMES[game] = known
        ts, note = known.ts, known.ts_note
    # another room's text, or (PokerStars always writes the time zone) a header without a zone:
    # a converter's, from another room's history (its hand number is that room's)
    room = ROOMS[m.group(1)]
    if room is None and note and note.endswith("(zone '')"):
        room = "converted"
    if room != known.room:
        known = replace(known, room=room)
    return known, number, ts, note


def _parse_header(line: str, number: str, rest: str) -> Header:
    parts = rest.split(" - ")
    if len(parts) < 2:
        raise PokerStarsError(f"hand header {line!r} has no ' - ' before the date")
    ts, note = _time(parts[-1])
    desc = parts[0]
    if desc.startswith("{"):  # home game club name
        close = desc.find("} ")
        if close < 0:
            raise PokerStarsError(f"hand header {line!r}: unclosed club name")
        desc = desc[close + 2 :]
    level: int | None = None
    if desc.startswith(("Tournament #", "Zoom Tournament #", "TOURNAMENT #")):
        cm = _CASH.match(desc) if len(parts) == 2 else None
        if cm and "/" in cm[2]:
            # Run It Once: 'Tournament #N, €4.69+€0.31 NAME, Hold'em No Limit (10/20) - DATE'
            variant, structure, _ = _find_game(cm[1])
            stakes, currency, mpu = _stakes(cm[2], True)
            return Header(number, variant, structure, True, None, stakes, currency, mpu, ts,
                          note)
        if len(parts) != 3:
            raise PokerStarsError(
                f"tournament header {line!r} is not 'GAME - Level L (SB/BB) - DATE'")
        lm = _LEVEL.match(parts[1])
        old = _CASH.match(parts[1]) if not lm else None
        if old and "/" in old[2]:
            # a converter's 'Tournament #N, $125+$10 - Hold'em No Limit (3000/6000) - DATE':
            # the game and its blinds, no level
            variant, structure = _game(old[1])
            stakes, currency, mpu = _stakes(old[2], True)
            return Header(number, variant, structure, True, None, stakes, currency, mpu, ts,
                          note)
        if not lm:
            raise PokerStarsError(f"tournament level {parts[1]!r} is not like 'Level IV (50/100)'")
        level = roman(lm.group(1))
        variant, structure, _ = _find_game(desc)
        stakes, currency, mpu = _stakes(lm.group(2), True)
        return Header(number, variant, structure, True, level, stakes, currency, mpu, ts, note)
    if len(parts) != 2:
        raise PokerStarsError(f"hand header {line!r} is not 'GAME (STAKES) - DATE'")
    cm = _CASH.match(desc)
    if not cm:
        raise PokerStarsError(f"hand header {line!r} has no stakes in parentheses")
    game, stakes_text = cm.group(1), cm.group(2)
    if ", " in stakes_text:  # mixed game: 'HORSE (Razz Limit, $0.10/$0.20 USD)'
        game, stakes_text = stakes_text.split(", ", 1)
    variant, structure = _game(game)
    stakes, currency, mpu = _stakes(stakes_text, False)
    return Header(number, variant, structure, False, None, stakes, currency, mpu, ts, note)
