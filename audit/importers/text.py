"""The readable text fixture format: one event per line, `expect` lines for expected findings.

    hand fx:BET-NL-MIN-RAISE.fail holdem no_limit sb=50 bb=100 button=3
    seat 1 alice 10000
    post 1 small_blind 50
    deal 1 hole As Ks
    deal board 2c 7d 9h
    raise 3 to 150            # raise to a round total
    call 1 100                # chips added
    bet 2 200
    award 3 450 main
    expect BET-NL-MIN-RAISE seat=3 seq=9   # seq defaults to the previous event line
    expect POT-SPLIT-BY-CARDS seat=1 seq=end  # award findings point at the hand's last event

Stud and draw games: `deal 1 down 2c 3d`, `deal 1 up 7s`, `deal board 9h` (in stud: the
common card), `post 3 bring_in 5`, `complete 3 to 10`, `draw 2 2c 9h` (the discards;
amount= sets the number drawn), `deal 2 draw 4h 5d` (the replacements), `stand_pat 2`.

Live tables (the physical layer, before the logged action it resolves): `declare 3 raise 200`
(the spoken words), `chips 3 500 1x500` (one motion of 500 in one 500 chip; denominations are
optional, `held` marks a forward motion whose chips were not released).

Options on the `hand` line: sb= bb= button= ante= bring_in= straddle= small_bet= big_bet= min_bet=
seats= currency= mpu= level=, flags `tournament`, `dead_button`, and detail="..." for the
hand_started detail (e.g. detail="refunds=implicit rake=implicit"). Any event line may end
with key=value overrides (amount=, total=, detail=, player=). `#` starts a comment.
"""

from __future__ import annotations

import shlex
from typing import Any

from audit.errors import AuditInputError

Expectation = tuple[str, int | None, int | None]
_INT_GAME = {"sb": "small_blind", "bb": "big_blind", "button": "button_seat", "ante": "ante",
             "straddle": "straddle", "small_bet": "small_bet", "big_bet": "big_bet",
             "min_bet": "min_bet", "bring_in": "bring_in", "seats": "seat_count",
             "mpu": "minor_per_unit", "level": "level"}
_ACTIONS = {"fold", "check", "call", "bet", "raise", "complete"}


class _Hand:
    def __init__(self, hand_id: str, game: dict[str, Any], detail: str | None) -> None:
        self.rows: list[dict[str, Any]] = [
            {"hand_id": hand_id, "seq": 0, "kind": "hand_started", "game": game,
             "detail": detail, "table_id": "fixture"}]
        self.expect: list[Expectation] = []
        self.players: dict[int, str] = {}
        self.round: dict[int, int] = {}

    def add(self, row: dict[str, Any]) -> None:
        row["hand_id"] = self.rows[0]["hand_id"]
        row["seq"] = len(self.rows)
        row.setdefault("table_id", "fixture")
        self.rows.append(row)


def _kv(tokens: list[str]) -> tuple[list[str], dict[str, str]]:
    pos, kv = [], {}
    for t in tokens:
        if "=" in t:
            k, v = t.split("=", 1)
            kv[k] = v
        else:
            pos.append(t)
    return pos, kv


def parse_text(text: str, source: str = "<text>"
               ) -> list[tuple[list[dict[str, Any]], list[Expectation]]]:
    """Parse fixture text into [(event rows of one hand, expected findings)]."""
    hands: list[_Hand] = []
    cur: _Hand | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            tokens = shlex.split(line)
        except ValueError as e:
            raise AuditInputError(f"{source}:{lineno}: {e}; fix the quoting") from None
        pos, kv = _kv(tokens)
        word = pos[0]
        where = f"{source}:{lineno}"
        try:
            if word == "hand":
                game: dict[str, Any] = {"variant": pos[2], "structure": pos[3],
                                        "currency": "CHIPS", "minor_per_unit": 1}
                for k, v in kv.items():
                    if k in _INT_GAME:
                        game[_INT_GAME[k]] = int(v)
                    elif k == "currency":
                        game["currency"] = v
                    elif k == "profile":
                        game["profile"] = v
                    elif k == "house":
                        game["house_overrides"] = v
                for flag in pos[4:]:
                    game[flag] = True
                cur = _Hand(pos[1], game, kv.get("detail"))
                hands.append(cur)
                continue
            if cur is None:
                raise AuditInputError(f"{where}: '{word}' before any 'hand' line")
            _line(cur, word, pos, kv)
        except (IndexError, ValueError) as e:
            raise AuditInputError(f"{where}: cannot read {raw.strip()!r} ({e}); see the "
                                  "format in audit/importers/text.py") from None
    out = []
    for hd in hands:
        if hd.rows[-1]["kind"] != "hand_ended":
            hd.add({"kind": "hand_ended"})
        end = hd.rows[-1]["seq"]
        out.append((hd.rows, [(r, s, end if q == -1 else q) for r, s, q in hd.expect]))
    return out


def _line(h: _Hand, word: str, pos: list[str], kv: dict[str, str]) -> None:
    row: dict[str, Any] = {"kind": word}
    if word == "expect":
        seat = int(kv["seat"]) if "seat" in kv else None
        seq = -1 if kv.get("seq") == "end" else (
            int(kv["seq"]) if "seq" in kv else h.rows[-1]["seq"])
        h.expect.append((pos[1], seat, seq))
        return
    if word == "seat":
        s = int(pos[1])
        h.players[s] = pos[2]
        row.update(seat=s, player=pos[2], amount=int(pos[3]))
        if len(pos) > 4:
            row["detail"] = pos[4]
    elif word == "post":
        s = int(pos[1])
        amt = int(pos[3])
        row.update(seat=s, player=h.players.get(s), detail=pos[2], amount=amt)
        if pos[2] not in ("ante", "dead", "missed_small"):
            h.round[s] = h.round.get(s, 0) + amt
            row["total"] = h.round[s]
    elif word == "deal":
        if pos[1] == "board":
            row.update(detail="board", cards=" ".join(pos[2:]))
            h.round.clear()
        else:
            s = int(pos[1])
            row.update(seat=s, detail=pos[2], cards=" ".join(pos[3:]))
            if pos[2] in ("up", "down") and h.rows[-1]["kind"] in _ACTIONS:
                h.round.clear()  # a stud street starts a new betting round
    elif word in ("draw", "stand_pat"):  # draw SEAT CARDS... (the discards) / stand_pat SEAT
        s = int(pos[1])
        row.update(seat=s, player=h.players.get(s))
        if word == "draw":
            row.update(cards=" ".join(pos[2:]) or None, amount=len(pos[2:]))
        if h.rows[-1]["kind"] in _ACTIONS:
            h.round.clear()  # the draw ends the betting round
    elif word == "burn":
        row["cards"] = " ".join(pos[1:]) or "??"
    elif word in _ACTIONS:
        s = int(pos[1])
        row.update(seat=s, player=h.players.get(s))
        before = h.round.get(s, 0)
        if len(pos) > 2:
            if pos[2] == "to":
                total = int(pos[3])
                row.update(amount=total - before, total=total)
            else:
                amt = int(pos[2])
                row.update(amount=amt, total=before + amt)
            h.round[s] = row["total"]
    elif word in ("show", "muck"):
        s = int(pos[1])
        row.update(seat=s, player=h.players.get(s), cards=" ".join(pos[2:]) or None)
    elif word == "award":
        s = int(pos[1])
        row.update(seat=s, player=h.players.get(s), amount=int(pos[2]),
                   detail=pos[3] if len(pos) > 3 else "main")
    elif word == "rake":
        row["amount"] = int(pos[1])
    elif word == "declare":  # declare SEAT WORDS...
        s = int(pos[1])
        row.update(seat=s, player=h.players.get(s), detail=" ".join(pos[2:]))
    elif word == "chips":  # chips SEAT AMOUNT [DENOMINATIONS] [held]
        s = int(pos[1])
        row.update(seat=s, player=h.players.get(s), amount=int(pos[2]),
                   detail=" ".join(pos[3:]) or None)
    elif word in ("end", "hand_ended"):
        row["kind"] = "hand_ended"
    elif word == "annotation":
        row["detail"] = " ".join(pos[1:])
    else:
        raise ValueError(f"unknown line kind {word!r}")
    for k in ("amount", "total"):
        if k in kv:
            row[k] = None if kv[k] == "none" else int(kv[k])
    for k in ("detail", "player", "cards"):
        if k in kv:
            row[k] = kv[k]
    h.add(row)
