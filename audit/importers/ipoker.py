"""iPoker XML hand histories imported as events (streamed, constant memory, no DTDs).

A file is one `<session>`: a `<general>` block (game type, table, currency, hero) and one
`<game gamecode="N">` per hand.  The reader feeds the file line by line to expat (the parser
under `xml.etree.ElementTree.iterparse`; used directly because iterparse does not report
line numbers), keeps only the current `<game>` in memory and yields a `Chunk` of about 5,000
whole hands.  Security: a document with a `<!DOCTYPE` (hence any `<!ENTITY`) is refused with
an `AuditInputError` before any entity could be expanded (defusedxml's approach), and
external entities are never fetched.  Encoding: as declared; a "utf-8" file with bytes that
are not UTF-8 (old clients wrote cp1252 `€`) is read as cp1252 for those bytes.

Mapping (iPoker -> events; money exact, `$1,855` / `€301,49` both understood):

* `<game gamecode=N>` -> hand_id `ipoker:N`; table_id = session `<tablename>`; ts = game
  `<startdate>` (`20-Apr-2012 20:42:31` or `2019-05-26 20:10:33`): iPoker logs no zone, so it
  is read as UTC and `source` says so.
* session `<gametype>` `[<game>] <L|FL|NL|PL> <cur><a>/<cur><b>`: Holdem -> holdem, Omaha ->
  omaha, Omaha Hi-Lo -> omaha_hilo, 5 Card Omaha -> omaha5; with no game name (as in
  `PL €2/€4`) the variant is read from the hole-card count (2 holdem, 4 omaha, 5 omaha5) and
  `source` says so.  L/FL stakes are small_bet/big_bet (big_blind = small bet, small_blind as
  posted); NL/PL stakes are the blinds.  `<currency>` USD/EUR/GBP -> minor 100; `<mode>` play
  -> CHIPS/1; `<tournamentcode>` -> tournament.
* `<player seat name chips dealer win bet>` -> seat (amount = chips); dealer="1" -> button;
  a player with no `Pocket` cards is detail sitting_out.  `bet` (the player's total put in)
  is kept in hand_ended detail `invested=<seat>:<minor>,...` for cross-checks.
* round 0 actions: type 1 -> post small_blind, 2 -> big_blind, 15 -> ante.
* round 1 `<cards type="Pocket">` -> deal/hole (`X` -> `??`; `SA` -> `As`, `D10` -> `Td`);
  round >= 2 `<cards type="Flop|Turn|River">` -> deal/board.  Actions of a round in `no`
  order (the file does not keep them in order): 0 fold, 4 check, 3 call (sum = chips
  added), 5 bet (added), 23 raise (sum = raise-to total, as the players' `bet` totals
  confirm), 7 all-in (added; bet / call / raise by the round state; detail all_in),
  8 / 9 -> annotation no_action / sits_out.  Any other type (6 "raise by" included, whose
  meaning varies by client version) quarantines the hand.
* A non-hero player whose pocket cards are known and who did not fold -> show (iPoker
  reveals shown hands only in the Pocket element); `win` > 0 -> award detail main (iPoker
  does not split pots in the log).  iPoker logs neither uncalled-bet returns (its win
  excludes them) nor rake: hand_started detail `refunds=implicit;rake=implicit`.

Bad input: a game the mapping cannot read is quarantined whole; a syntax error (truncated
file, garbage) quarantines the game it is in and every later `<game` (the parser cannot go
on), each with its line, never a silent loss.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from audit.errors import AuditInputError
from audit.importers.base import (
    Chunk,
    Overlong,
    Rejected,
    bounded_lines,
    over_hand_limit,
    over_line_limit,
    read_limits,
)
from audit.importers.sitetext import (
    CHUNK_HANDS,
    ChunkWriter,
    SiteHand,
    SiteHandError,
    parse_amount,
    to_minor,
)

_UTC = dt.UTC
_GAMETYPE = re.compile(r"^(?:(?P<game>.*?)\s+)?(?P<limit>NL|PL|FL|L)\s+(?P<sym>[$€£]?)"
                       r"(?P<a>[0-9][0-9,.]*)/[$€£]?(?P<b>[0-9][0-9,.]*)(?:\s.*)?$")
_GAMES = {"holdem": "holdem", "hold'em": "holdem", "texas hold'em": "holdem",
          "omaha": "omaha", "omaha hi": "omaha", "omaha hi-lo": "omaha_hilo",
          "omaha hilo": "omaha_hilo", "omaha hi/lo": "omaha_hilo", "5 card omaha": "omaha5",
          "5 card omaha hi-lo": "omaha5_hilo"}
_BY_COUNT = {2: "holdem", 4: "omaha", 5: "omaha5"}
_LIMITS = {"NL": "no_limit", "PL": "pot_limit", "FL": "fixed_limit", "L": "fixed_limit"}
_KINDS = {"0": "fold", "4": "check", "3": "call", "5": "bet", "23": "raise", "7": "auto"}
_POSTS = {"1": "small_blind", "2": "big_blind", "15": "ante"}
_NOTES = {"8": "no_action", "9": "sits_out"}
_GAME_OPEN = re.compile(r"<game\b[^>]*?gamecode=[\"']?([^\"'\s>]*)")
_DECL_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)[\"']")


class _Elem:
    """A parsed element of the current game: tag, attributes, text, line, children."""

    __slots__ = ("tag", "attrs", "text", "line", "children")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = ""
        self.line = line
        self.children: list[_Elem] = []


def _card(token: str, where: str) -> str:
    if token.upper() in ("X", "XX", "?"):
        return "??"
    suit, rank = token[:1].lower(), token[1:].upper()
    rank = "T" if rank == "10" else rank
    if suit not in ("c", "d", "h", "s") or rank not in list("23456789TJQKA"):
        raise SiteHandError(f"{where}: {token!r} is not an iPoker card like 'SA' or 'D10'")
    return rank + suit


def _cards(text: str, where: str) -> str:
    tokens = text.split()
    if not tokens:
        raise SiteHandError(f"{where}: empty cards element")
    return " ".join(_card(t, where) for t in tokens)


def _timestamp(text: str) -> tuple[dt.datetime | None, str]:
    for fmt in ("%d-%b-%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S"):
        try:
            local = dt.datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
        return local.replace(tzinfo=_UTC), ";ts=local time read as UTC (iPoker logs no zone)"
    return None, f";ts=unreadable start date {text.strip()[:40]!r}"


def _map_game(game: _Elem, session: dict[str, str], file_name: str) -> SiteHand:
    code = game.attrs.get("gamecode", "")
    if not code:
        raise SiteHandError(f"line {game.line}: <game> without a gamecode")
    general = [c for c in game.children if c.tag == "general"]
    rounds = [c for c in game.children if c.tag == "round"]
    others = [c.tag for c in game.children if c.tag not in ("general", "round")]
    if others:
        raise SiteHandError(f"line {game.line}: unknown element(s) in <game>: {others}")
    if len(general) != 1:
        raise SiteHandError(f"line {game.line}: <game> needs exactly one <general>")
    gen = general[0]
    startdate = next((c.text for c in gen.children if c.tag == "startdate"), "")
    players_el = [c for c in gen.children if c.tag == "players"]
    unknown = [c.tag for c in gen.children if c.tag not in ("startdate", "players")]
    if unknown:
        raise SiteHandError(f"line {gen.line}: unknown element(s) in game <general>: {unknown}")
    if len(players_el) != 1:
        raise SiteHandError(f"line {gen.line}: game <general> needs one <players>")
    players = [p for p in players_el[0].children if p.tag == "player"]
    if not players:
        raise SiteHandError(f"line {players_el[0].line}: no <player> in the game")

    gametype = session.get("gametype", "").strip()
    gt = _GAMETYPE.match(gametype)
    if not gt:
        raise SiteHandError(f"line {game.line}: session gametype {gametype!r} not understood "
                            "(expected e.g. 'Holdem NL $0.02/$0.04')")
    cur = session.get("currency", "").strip().upper()
    mode = session.get("mode", "real").strip().lower()
    if mode == "play" or not cur:
        currency, mpu = "CHIPS", 1
    elif cur in ("USD", "EUR", "GBP"):
        currency, mpu = cur, 100
    else:
        raise SiteHandError(f"line {game.line}: unknown currency {cur!r}")

    def money(text: str, where: int) -> int:
        try:
            return to_minor(parse_amount(text.replace("€", "").strip()), mpu,
                            f"line {where} amount {text!r}")
        except SiteHandError as exc:
            raise SiteHandError(f"line {where}: {exc}") from None

    pockets: dict[str, tuple[int, str]] = {}
    for r in rounds:
        for c in r.children:
            if c.tag == "cards" and c.attrs.get("type") == "Pocket":
                pockets[c.attrs.get("player", "")] = (c.line, _cards(c.text, f"line {c.line}"))
    note = ""
    game_name = (gt.group("game") or "").strip().lower()
    if game_name:
        variant = _GAMES.get(game_name)
        if variant is None:
            raise SiteHandError(f"line {game.line}: unsupported iPoker game {game_name!r}")
    else:
        counts = {len(cards.split()) for _, cards in pockets.values()}
        if len(counts) != 1 or next(iter(counts)) not in _BY_COUNT:
            raise SiteHandError(f"line {game.line}: gametype {gametype!r} names no game and the "
                                f"hole-card counts {sorted(counts)} do not tell it")
        variant = _BY_COUNT[counts.pop()]
        note = f";variant={variant} read from the hole-card count (gametype {gametype!r})"
    structure = _LIMITS[gt.group("limit")]
    ts, ts_note = _timestamp(startdate)
    h = SiteHand(fmt="ipoker", file_name=file_name, hand_id=f"ipoker:{code}",
                 table_id=session.get("tablename", "").strip() or None)
    a, b = money(gt.group("a"), game.line), money(gt.group("b"), game.line)
    g: dict[str, Any] = {"variant": variant, "structure": structure, "currency": currency,
                         "minor_per_unit": mpu, "ante": 0,
                         "tournament": "tournamentcode" in session}
    if structure == "fixed_limit":
        g.update(small_bet=a, big_bet=b, big_blind=a)
    else:
        g.update(small_blind=a, big_blind=b)
    started = h.emit(game.line, "hand_started", ts_note + note, ts=ts, game=g,
                     detail="refunds=implicit;rake=implicit")
    button = None
    invested: list[str] = []
    wins: list[tuple[int, str, int]] = []
    for p in sorted(players, key=lambda p: int(p.attrs.get("seat", "0") or 0)):
        at = p.line
        try:
            seat = int(p.attrs.get("seat", ""))
        except ValueError:
            raise SiteHandError(f"line {at}: player without a seat number") from None
        name = p.attrs.get("name", "")
        if not name:
            raise SiteHandError(f"line {at}: player without a name")
        h.add_seat(at, seat, name, money(p.attrs.get("chips", ""), at), name not in pockets)
        if p.attrs.get("dealer") == "1":
            button = seat
        if p.attrs.get("bet"):
            invested.append(f"{seat}:{money(p.attrs['bet'], at)}")
        win = money(p.attrs.get("win", "0") or "0", at)
        if win:
            wins.append((at, name, win))
    if button is None:
        raise SiteHandError(f"line {game.line}: no player has dealer=\"1\" (button unknown)")
    g["button_seat"] = button
    hero = session.get("nickname", "").strip()
    sb = None
    for r in sorted(rounds, key=lambda r: int(r.attrs.get("no", "-1"))
                    if r.attrs.get("no", "").isdigit() else -1):
        no = r.attrs.get("no", "")
        if not no.isdigit():
            raise SiteHandError(f"line {r.line}: <round> without a number")
        if no not in ("0", "1"):  # preflop (round 1) goes on from the blinds of round 0
            h.new_round()
        unknown = [c.tag for c in r.children if c.tag not in ("cards", "action")]
        if unknown:
            raise SiteHandError(f"line {r.line}: unknown element(s) in <round>: {unknown}")
        if no == "1":
            h.deal_holes(r.line, variant, {n: v for n, v in pockets.items() if n in h.seat_of})
        for c in r.children:
            if c.tag == "cards" and c.attrs.get("type") != "Pocket":
                if no in ("0", "1"):
                    raise SiteHandError(f"line {c.line}: board cards in round {no}")
                h.board(c.line, _cards(c.text, f"line {c.line}"))
        actions = [c for c in r.children if c.tag == "action"]
        try:
            actions.sort(key=lambda c: int(c.attrs.get("no", "")))
        except ValueError:
            raise SiteHandError(f"line {r.line}: an action without a number") from None
        for act in actions:
            at, kind_code = act.line, act.attrs.get("type", "")
            name = act.attrs.get("player", "")
            amount = money(act.attrs.get("sum", "0") or "0", at)
            if kind_code in _POSTS:
                if no != "0":
                    raise SiteHandError(f"line {at}: a forced bet in round {no}")
                detail = _POSTS[kind_code]
                if detail == "small_blind":
                    sb = amount if sb is None else sb
                if detail == "ante":
                    g["ante"] = max(g["ante"], amount)
                h.post(at, name, detail, amount, live=detail != "ante")
            elif kind_code in _NOTES:
                h.emit(at, "annotation", detail=_NOTES[kind_code], **h.who(name))
            elif kind_code in _KINDS:
                if no == "0":
                    raise SiteHandError(f"line {at}: action type {kind_code} among the posts")
                kind = _KINDS[kind_code]
                if kind in ("fold", "check"):
                    h.act(at, name, kind)
                elif kind == "raise":
                    h.act(at, name, kind, to=amount)
                else:
                    h.act(at, name, kind, added=amount, all_in=kind == "auto")
            else:
                raise SiteHandError(f"line {at}: unknown iPoker action type {kind_code!r} "
                                    f"(player {name!r}, sum {act.attrs.get('sum')!r})")
    for name, (at, cards) in sorted(pockets.items(), key=lambda kv: kv[1][0]):
        seat = h.seat_of.get(name)
        if seat is None:
            raise SiteHandError(f"line {at}: pocket cards for {name!r}, who is not seated")
        if name != hero and "??" not in cards and seat not in h.folded:
            h.emit(at, "show", cards=cards, **h.who(name))
    for at, name, win in wins:
        h.award(at, name, win, "main")
    if structure == "fixed_limit":
        g["small_blind"] = sb
    started["game"] = g
    h.end(max(h.lines), "invested=" + ",".join(invested) if invested else None)
    return h


class _Stream:
    """Expat handlers: session metadata, the current game as a small tree, finished games."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.parser = expat.ParserCreate()
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.parser.StartDoctypeDeclHandler = self._doctype
        self.parser.EntityDeclHandler = self._entity
        self.parser.ExternalEntityRefHandler = self._external
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._text
        self.stack: list[str] = []
        self.session: dict[str, str] = {}
        self.meta: str | None = None
        self.game: _Elem | None = None
        self.path_in_game: list[_Elem] = []
        self.done: list[_Elem] = []
        self.last_game_line = 0

    def _doctype(self, *args: Any) -> None:
        raise AuditInputError(
            f"{self.path}: line {self.parser.CurrentLineNumber}: the XML declares a DOCTYPE; "
            "iPoker files have none, and DTDs/entities are refused (entity-expansion "
            "protection). Remove the <!DOCTYPE ...> prolog if the file is genuine.")

    def _entity(self, *args: Any) -> None:
        raise AuditInputError(
            f"{self.path}: line {self.parser.CurrentLineNumber}: the XML declares an ENTITY; "
            "refused (entity-expansion protection)")

    def _external(self, *args: Any) -> int:
        raise AuditInputError(f"{self.path}: line {self.parser.CurrentLineNumber}: external "
                              "entity reference refused")

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber
        if self.game is not None:
            el = _Elem(tag, attrs, line)
            self.path_in_game[-1].children.append(el)
            self.path_in_game.append(el)
        elif tag == "game":
            self.last_game_line = line
            self.game = _Elem(tag, attrs, line)
            self.path_in_game = [self.game]
        elif len(self.stack) == 2 and self.stack[-1] == "general":
            self.meta = tag
            self.session[tag] = ""
        self.stack.append(tag)

    def _end(self, tag: str) -> None:
        self.stack.pop()
        if self.game is not None:
            self.path_in_game.pop()
            if not self.path_in_game:
                self.done.append(self.game)
                self.game = None
        elif self.meta == tag:
            self.meta = None

    def _text(self, data: str) -> None:
        if self.game is not None:
            self.path_in_game[-1].text += data
        elif self.meta is not None:
            self.session[self.meta] += data


def _fallback_decoder(head: bytes) -> codecs.IncrementalDecoder:
    m = _DECL_ENCODING.match(head)
    name = m.group(1).decode("ascii").lower() if m else "utf-8"
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise AuditInputError(f"unknown XML encoding {name!r}") from None
    errors = "poker_audit_cp1252" if info.name == "utf-8" else "replace"
    return info.incrementaldecoder(errors=errors)


class IPokerImporter:
    """iPoker XML files: recognised by content, streamed game by game."""

    name = "ipoker"

    def __init__(self, chunk_hands: int = CHUNK_HANDS) -> None:
        self.chunk_hands = chunk_hands

    def sniff(self, head: bytes, path: Path) -> bool:
        """An XML `<session` with `<game gamecode=` or `<gametype>` (file name ignored)."""
        del path
        return b"<session" in head and (b"gamecode=" in head or b"<gametype>" in head)

    def read(self, path: Path) -> Iterator[Chunk]:
        """Stream `path` as chunks of about `chunk_hands` whole hands each."""
        out = ChunkWriter(self.chunk_hands, str(path))
        stream = _Stream(path)
        game_lines: list[tuple[int, str]] = []  # raw lines of the game in progress
        with path.open("rb") as f:
            decoder = _fallback_decoder(f.read(200))
            f.seek(0)
            failure: str | None = None
            fail_line = 0
            limit = read_limits().hand_bytes
            held = 0  # characters in game_lines
            for number, raw in enumerate(bounded_lines(f), start=1):
                if isinstance(raw, Overlong):  # not parsed: the game and the rest rejected
                    failure, fail_line = over_line_limit(number, raw.size), number
                    break
                if held > limit:  # a game past the hand limit: it and the rest rejected
                    failure, fail_line = over_hand_limit(game_lines[0][0], held), \
                        game_lines[0][0]
                    break
                # expat counts a lone CR as a line break; keep its line numbers = file lines
                text = decoder.decode(raw).replace("\r\n", "\n").replace("\r", " ")
                if number == 1:
                    text = text.lstrip("\ufeff")
                game_lines.append((number, text))
                held += len(text)
                try:
                    stream.parser.Parse(text, False)
                except expat.ExpatError as exc:
                    failure = f"XML syntax error at line {exc.lineno}, column {exc.offset}: " \
                              f"{expat.ErrorString(exc.code)}"
                    fail_line = exc.lineno
                    break
                before = len(game_lines)
                yield from self._flush(stream, out, path, game_lines)
                if len(game_lines) != before:  # trimmed to the game in progress
                    held = sum(len(t) for _, t in game_lines)
            else:
                try:
                    stream.parser.Parse(decoder.decode(b"", True), True)
                except expat.ExpatError as exc:
                    failure = f"XML syntax error at line {exc.lineno}, column {exc.offset}: " \
                              f"{expat.ErrorString(exc.code)} (file truncated?)"
                    fail_line = exc.lineno
                yield from self._flush(stream, out, path, game_lines)
            if failure is not None:
                yield from self._flush(stream, out, path, game_lines)
                self._reject_rest(stream, out, path, failure, fail_line)
        if out.pending:
            yield out.take()

    def _flush(self, stream: _Stream, out: ChunkWriter, path: Path,
               game_lines: list[tuple[int, str]]) -> Iterator[Chunk]:
        for game in stream.done:
            raw = "".join(t for n, t in game_lines if n >= game.line)
            try:
                hand = _map_game(game, stream.session, path.name)
            except SiteHandError as exc:
                out.rejected.append(Rejected(source=str(path), line=game.line,
                                             hand_id=f"ipoker:{game.attrs.get('gamecode')}",
                                             reason=str(exc), raw=raw))
            except Exception as exc:  # noqa: BLE001 - one bad game never stops the file
                out.rejected.append(Rejected(source=str(path), line=game.line,
                                             hand_id=f"ipoker:{game.attrs.get('gamecode')}",
                                             reason=f"importer error {type(exc).__name__}: "
                                                    f"{exc}", raw=raw))
            else:
                out.add(hand, raw)
            if out.full:
                yield out.take()
        stream.done.clear()
        start = stream.game.line if stream.game is not None else None
        last = game_lines[-1][0] if game_lines else 0
        keep_from = start if start is not None else last
        if game_lines and game_lines[0][0] < keep_from:  # (a long game: not at every line)
            game_lines[:] = [(n, t) for n, t in game_lines if n >= keep_from]

    def _reject_rest(self, stream: _Stream, out: ChunkWriter, path: Path,
                     failure: str, fail_line: int) -> None:
        """After a syntax error: the game in progress and every later game are rejected.

        The file is scanned again from disk (streamed) for `<game gamecode=` lines the parser
        never reached; each rejected game keeps up to 1 MiB of its raw text."""
        limit = 1 << 20
        found: list[list[Any]] = []  # [line, code, raw parts, size]
        if stream.game is not None:
            found.append([stream.game.line, stream.game.attrs.get("gamecode"), [], 0])
        first = stream.game.line if stream.game is not None else stream.last_game_line + 1
        tail: list[str] = []
        with path.open("rb") as f:
            decoder = _fallback_decoder(f.read(200))
            f.seek(0)
            for n, raw in enumerate(bounded_lines(f), start=1):
                if n < first:
                    continue
                text = raw.text() if isinstance(raw, Overlong) else decoder.decode(raw)
                tail = (tail + [text])[-5:]
                if n > stream.last_game_line:
                    for m in _GAME_OPEN.finditer(text):
                        found.append([n, m.group(1), [], 0])
                if found and found[-1][3] < limit:
                    found[-1][2].append(text)
                    found[-1][3] += len(text)
        if not found:
            out.rejected.append(Rejected(source=str(path), line=fail_line, hand_id=None,
                                         reason=f"{failure}; no hand is lost (every <game> "
                                                "before it was complete)",
                                         raw="".join(tail)))
            return
        for k, (line, code, parts, _) in enumerate(found):
            where = "this <game> is incomplete" if k == 0 and stream.game is not None \
                else "this <game> comes after it and cannot be parsed"
            out.rejected.append(Rejected(source=str(path), line=line,
                                         hand_id=f"ipoker:{code}" if code else None,
                                         reason=f"{failure}; {where}", raw="".join(parts)))


IMPORTER = IPokerImporter()
