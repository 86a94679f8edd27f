"""Hands exported from events to the interchange formats OHH (JSON) and PHH (TOML).

`to_ohh(rows)` gives one `{"ohh": {...}}` document (money as exact `Decimal`, written as
JSON numbers by `ohh_json`); `to_phh(rows)` gives one PHH hand as TOML text; `export_hands`
does a whole event table (`ohh`: one JSON object per line; `phh`: a `.phhs` with `[1]`,
`[2]`, ... tables).  Both are the inverse of their importers (`audit.importers.ohh`,
`audit.importers.phh`): importing an export gives the same events except `source`.

OHH carries what the standard has no field for in `x_poker_audit_*` extensions: the hand id
(`x_poker_audit_hand_id`), the complete game struct (`x_poker_audit_game`: small/big bet,
minor units, profile...), the hand_started / hand_ended details, an action's detail when its
OHH action name does not imply it (`x_poker_audit_detail`), an award's pot label when it is
not `main` / `side-k` by pot number (`x_poker_audit_label`: `uncalled`, `main/high`...), and
annotations (action `x_poker_audit_annotation`).  OHH `amount` is the chips ADDED (our
reading of spec 1.4, see the importer).

PHH inverts `audit.importers.phh`: p1..pN start left of the button and pN is the button
(3+ players); heads-up follows PokerKit: p1 is the big blind, p2 the button, and the
`antes` / `blinds_or_straddles` lists are written [p2, p1] (the importer reverses them).
Blinds are written at their nominal size (game small_blind / big_blind) so a short stack's
capped post re-imports the same.  ts is written as UTC (`time_zone = 'UTC'`).  The hand id
survives through `venue` / `hand` (`phh:<venue>:<hand>`) and, for other importers, in
`_poker_audit_hand_id` (PHH's user-defined fields start with `_`).  PHH has no pot labels,
rake or annotations: awards are summed per player into `winnings`, and rake / annotations are
not written.

Short deck (NS) is holdem_short only, whose ranking (a straight over three of a kind) is
PokerKit's: the button blind is the button's `blinds_or_straddles` entry. A PokerStars 6+
hand (holdem_6plus: three of a kind over a straight) has no PHH code and is an ExportError;
OHH, which names no short-deck game, writes both as Holdem with the variant in
`x_poker_audit_game`.

Split hold'em (holdem_split: two boards, each pot halved between them) has no PHH code and is
an ExportError. OHH names no such game either: it is written as Holdem with the variant in
`x_poker_audit_game` and each street's second-board cards as the extension action
`x_poker_audit_deal` (detail `board@run2`), as a run-it-twice's second board; our importer
reads it back whole, while a reader that ignores the extensions sees hold'em on the first
board alone.

Stud (F7S, F7S/8, FR) has no button: p1..pN are the seats in order, `bring_in` is written and
the bring-in post is the action `pN pb`; a completion is `cbr`; a seat's consecutive deals
(3rd street down + up) are one `d dh`, whose up/down pattern PHH fixes by the game, so a deal
against the pattern (a 7th card dealt up) cannot be written and is an ExportError, as is a
bring-in other than the posted size (or the stack).  Draw games (N2L1D, F2L3D, FB): `draw` ->
`pN sd CARDS` (`??` for unknown discards), `stand_pat` -> `pN sd`, replacements -> `d dh`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pyarrow as pa

from audit.errors import AuditInputError
from audit.poker.variants import spec_of

OHH_GAME_TYPES = {"holdem": "Holdem", "omaha": "Omaha", "omaha_hilo": "OmahaHiLo",
                  "omaha5": "Omaha5", "omaha5_hilo": "Omaha5HiLo",
                  # OHH names no short-deck game: Holdem, with the variant kept in
                  # x_poker_audit_game and the button blind as Post Extra Blind + its detail
                  "holdem_short": "Holdem", "holdem_6plus": "Holdem",
                  # nor split hold'em: Holdem, its second board the extension deal of a
                  # run-it-twice (action x_poker_audit_deal, detail board@run2)
                  "holdem_split": "Holdem"}
OHH_BET_TYPES = {"no_limit": "NL", "pot_limit": "PL", "fixed_limit": "FL"}
OHH_POSTS = {"small_blind": "Post SB", "big_blind": "Post BB", "ante": "Post Ante",
             "dead": "Post Dead", "straddle": "Straddle", "new_player": "Post Extra Blind"}
OHH_BETS = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise"}
STREETS = ("Flop", "Turn", "River")
PHH_VARIANTS = {("holdem", "no_limit"): "NT", ("holdem", "fixed_limit"): "FT",
                ("omaha", "pot_limit"): "PO", ("omaha_hilo", "fixed_limit"): "FO/8",
                ("stud", "fixed_limit"): "F7S", ("stud_hilo", "fixed_limit"): "F7S/8",
                ("razz", "fixed_limit"): "FR", ("lowball_27_single", "no_limit"): "N2L1D",
                ("lowball_27_triple", "fixed_limit"): "F2L3D", ("badugi", "fixed_limit"): "FB",
                ("holdem_short", "no_limit"): "NS"}
_PUT_IN = ("post", "call", "bet", "raise", "complete")
_DEC = re.compile(r'"\\u0000D(-?[0-9.]+)\\u0000"')


class ExportError(AuditInputError):
    """A hand that cannot be written in the requested format."""


def _start(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = sorted(rows, key=lambda r: r["seq"])
    if not rows or rows[0]["kind"] != "hand_started" or not rows[0].get("game"):
        raise ExportError("a hand must start with hand_started carrying its game config")
    return rows, dict(rows[0]["game"])


def _units(value: int, mpu: int) -> Decimal | int:
    return value if mpu == 1 else Decimal(value) / Decimal(mpu)


def _cards(text: str | None) -> list[str]:
    return text.split() if text else []


def _split_id(hand_id: str) -> tuple[str, str]:
    prefix, _, rest = hand_id.partition(":")
    return (prefix, rest) if rest else ("poker-audit", hand_id)


# --- OHH -------------------------------------------------------------------------------


def to_ohh(hand_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One hand's events as an OHH 1.4 document `{"ohh": {...}}` (amounts exact Decimal)."""
    rows, game = _start(hand_rows)
    start = rows[0]
    hand_id = start["hand_id"]
    mpu = int(game.get("minor_per_unit") or 1)
    variant = game.get("variant")
    if variant not in OHH_GAME_TYPES:
        raise ExportError(f"hand {hand_id}: variant {variant!r} has no OHH game_type here")

    def money(v: int | None) -> Decimal | int | None:
        return None if v is None else _units(v, mpu)

    site, number = _split_id(hand_id)
    ts = start.get("ts")
    ohh: dict[str, Any] = {
        "spec_version": "1.4.6",
        "internal_version": "poker-audit",
        "site_name": site,
        "game_number": number,
        "start_date_utc": ts.astimezone(dt.UTC).isoformat().replace("+00:00", "Z") if ts else None,
        "table_name": start.get("table_id"),
        "table_size": game.get("seat_count"),
        "game_type": OHH_GAME_TYPES[variant],
        "bet_limit": {"bet_type": OHH_BET_TYPES.get(game.get("structure", ""), "NL"),
                      "bet_cap": 0},
        "currency": game.get("currency") or "CHIPS",
        "small_blind_amount": money(game.get("small_blind")) or 0,
        "big_blind_amount": money(game.get("big_blind")) or 0,
        "ante_amount": money(game.get("ante")) or 0,
        "dealer_seat": game.get("button_seat"),
        "players": [],
        "rounds": [],
        "pots": [],
        "x_poker_audit_hand_id": hand_id,
        "x_poker_audit_game": {k: v for k, v in game.items() if v is not None},
    }
    if start.get("detail") is not None:
        ohh["x_poker_audit_started_detail"] = start["detail"]
    rnd: dict[str, Any] = {"id": 0, "street": "Preflop", "actions": []}
    ohh["rounds"].append(rnd)
    number_of = 0
    pots: dict[int, dict[str, Any]] = {}
    # where each event comes back on import: the players, then rounds and actions in order,
    # then the pots' wins, their rake and jackpot, and hand_ended (audit.importers.ohh)
    placed: dict[str, list[int]] = {"players": [], "stream": [], "end": []}
    won: dict[int, list[int]] = {}
    raked: dict[str, int] = {}
    round_total: dict[int, int] = {}  # each seat's chips in this round, as the importer adds
    for at, row in enumerate(rows[1:], start=1):
        kind, detail, seat = row["kind"], row.get("detail"), row.get("seat")
        if kind == "rake" and (detail not in ("rake", "jackpot") or detail in raked
                               or not row.get("amount")):
            kind = "x_event"  # a second rake row, or one OHH's pot fields cannot hold
        if kind == "seat":
            placed["players"].append(at)
            player = {"id": seat, "seat": seat, "name": row.get("player"),
                      "starting_stack": money(row.get("amount")),
                      "is_sitting_out": detail == "sitting_out"}
            if detail not in (None, "sitting_out"):
                player["x_poker_audit_detail"] = detail
            ohh["players"].append(player)
            continue
        if kind == "deal" and detail == "board":
            k = len(ohh["rounds"]) - 1
            rnd = {"id": k + 1, "street": STREETS[k] if k < 3 else f"Board {k + 1}",
                   "cards": _cards(row.get("cards")), "actions": []}
            ohh["rounds"].append(rnd)
            placed["stream"].append(at)
            round_total.clear()
            continue
        if kind == "award":
            label = detail or "main"
            base = label.split("/")[0].split("@")[0]
            num = int(base[5:]) if base.startswith("side-") and base[5:].isdigit() else 0
            pot = pots.setdefault(num, {"number": num, "amount": 0, "rake": 0, "jackpot": 0,
                                        "player_wins": []})
            win: dict[str, Any] = {"player_id": seat, "win_amount": money(row["amount"]),
                                   "cashout_amount": 0}
            if label != ("main" if num == 0 else f"side-{num}"):
                win["x_poker_audit_label"] = label
            pot["player_wins"].append(win)
            won.setdefault(num, []).append(at)
            continue
        if kind == "rake":
            pots.setdefault(0, {"number": 0, "amount": 0, "rake": 0, "jackpot": 0,
                                "player_wins": []})[detail] = money(row["amount"])
            raked[detail] = at
            continue
        if kind == "hand_ended":
            if detail is not None:
                ohh["x_poker_audit_ended_detail"] = detail
            placed["end"].append(at)
            continue
        placed["stream"].append(at)
        number_of += 1
        act: dict[str, Any] = {"action_number": number_of, "player_id": seat}
        if kind == "deal" and detail == "hole":
            act["action"] = "Dealt Cards"
            if any(c != "??" for c in _cards(row.get("cards"))):
                act["cards"] = _cards(row.get("cards"))
        elif kind == "post":
            name = OHH_POSTS.get(detail or "", "Post Extra Blind")
            act.update(action=name, amount=money(row.get("amount")) or 0)
            if detail != _inverse(OHH_POSTS).get(name):
                act["x_poker_audit_detail"] = detail
            _keep_total(act, row, None if detail in ("ante", "dead") else round_total)
        elif kind in OHH_BETS:
            act["action"] = OHH_BETS[kind]
            if row.get("cards") is not None:  # e.g. a fold showing a card
                act["cards"] = _cards(row["cards"])
            if kind not in ("fold", "check"):
                act["amount"] = money(row.get("amount")) or 0
                act["is_allin"] = detail == "all_in"
                if detail not in (None, "all_in"):
                    act["x_poker_audit_detail"] = detail
                _keep_total(act, row, round_total)
            elif detail is not None:
                act["x_poker_audit_detail"] = detail
        elif kind in ("show", "muck"):
            act["action"] = "Shows Cards" if kind == "show" else "Mucks Cards"
            if row.get("cards") is not None:
                act["cards"] = _cards(row["cards"])
            if detail is not None:
                act["x_poker_audit_detail"] = detail
        elif kind == "deal" and (detail or "").startswith("board@run"):
            # another runout's board (run it twice): OHH has none, so an extension action
            act.update(action="x_poker_audit_deal", cards=_cards(row.get("cards")),
                       x_poker_audit_detail=detail)
        elif kind == "annotation":
            act.update(action="x_poker_audit_annotation", x_poker_audit_detail=detail)
            if seat is None:
                act["x_player"] = row.get("player")
        else:  # an event OHH has no action for (a burn, the live layer's chips / declare)
            act.update(action="x_poker_audit_event", **_extension_event(row))
        rnd["actions"].append(act)
    ohh["pots"] = [pots[k] for k in pots]
    order = [0, *placed["players"], *placed["stream"], *(at for k in pots for at in won.get(k, [])),
             *(raked[k] for k in ("rake", "jackpot") if k in raked), *placed["end"]]
    if order != list(range(len(rows))):  # events OHH's layout puts elsewhere (e.g. the rake
        ohh["x_poker_audit_order"] = order  # before an award): each one's place in the hand
    if any(r.get("ts") is not None for r in rows[1:]):  # OHH times the hand, not its events
        ohh["x_poker_audit_ts"] = [_iso(r.get("ts")) for r in rows]
    return {"ohh": {k: v for k, v in ohh.items() if v is not None}}


def _iso(ts: dt.datetime | None) -> str | None:
    return None if ts is None else ts.astimezone(dt.UTC).isoformat()


def _keep_total(act: dict[str, Any], row: dict[str, Any],
                round_total: dict[int, int] | None) -> None:
    """The OHH importer derives a put-in's round total (the seat's total before + amount; none
    for dead money); an event whose total differs keeps it in `x_total` (minor units)."""
    if round_total is None:
        derived = None
    else:
        derived = round_total.get(row["seat"], 0) + (row.get("amount") or 0)
        round_total[row["seat"]] = derived
    if row.get("total") != derived:
        act["x_total"] = row.get("total")


def _extension_event(row: dict[str, Any]) -> dict[str, Any]:
    """An event the format has no word for, as extension fields (amounts in minor units)."""
    fields = {"x_kind": row["kind"], "x_amount": row.get("amount"), "x_total": row.get("total"),
              "cards": _cards(row.get("cards")) or None,
              "x_poker_audit_detail": row.get("detail"),
              "x_player": row.get("player") if row.get("seat") is None else None}
    return {k: v for k, v in fields.items() if v is not None}


def _inverse(d: dict[str, str]) -> dict[str, str]:
    return {v: k for k, v in d.items()}


def ohh_json(doc: dict[str, Any]) -> str:
    """An OHH document as one line of JSON; Decimal amounts as exact JSON numbers."""

    def default(o: Any) -> str:
        if isinstance(o, Decimal):
            return f"\x00D{o:f}\x00"
        raise TypeError(f"cannot write {type(o).__name__} to OHH")

    text = json.dumps(doc, default=default, ensure_ascii=False, separators=(",", ":"))
    return _DEC.sub(lambda m: m.group(1), text)


# --- PHH -------------------------------------------------------------------------------


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _toml_num(v: Decimal | int) -> str:
    return str(v) if isinstance(v, int) else f"{v:f}"


def to_phh(hand_rows: list[dict[str, Any]]) -> str:
    """One hand's events as a PHH hand (TOML text, no `[N]` header)."""
    rows, game = _start(hand_rows)
    start = rows[0]
    hand_id = start["hand_id"]
    code = PHH_VARIANTS.get((game.get("variant"), game.get("structure")))
    if code is None:
        raise ExportError(f"hand {hand_id}: {game.get('variant')} {game.get('structure')} "
                          f"has no PHH variant code here ({', '.join(PHH_VARIANTS.values())})")
    mpu = int(game.get("minor_per_unit") or 1)
    run_twice = next((r for r in rows if r["kind"] == "deal"
                      and (r.get("detail") or "").startswith("board@run")), None)
    if run_twice is not None:
        raise ExportError(f"hand {hand_id}: event {run_twice['seq']} deals another runout's "
                          "board (run it more than once), which this PHH writer cannot record")
    # PHH deals every listed player in: a seat sitting out (no event but his seat) is left out
    acting = {r.get("seat") for r in rows if r["kind"] not in ("seat", "hand_started")}
    seats = [r for r in rows if r["kind"] == "seat"
             and (r.get("detail") != "sitting_out" or r["seat"] in acting)]
    by_seat = {r["seat"]: r for r in seats}
    spec = spec_of(game.get("variant"))
    stud = spec is not None and spec.family == "stud"
    button = game.get("button_seat")
    if stud and game.get("bring_in") is None:
        raise ExportError(f"hand {hand_id}: a stud hand needs the game's bring_in for PHH")
    n = len(seats)
    if not stud and button not in by_seat and (n == 2 or button is None):
        raise ExportError(f"hand {hand_id}: the button seat {button} has no player")
    if n < 2:
        raise ExportError(f"hand {hand_id}: PHH needs 2 or more players")
    ordered = sorted(by_seat)
    posts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        if r["kind"] == "post":
            posts[r["seat"]][r.get("detail") or ""] += r.get("amount") or 0

    def blind(seat: int) -> int:
        p = posts.get(seat, {})
        if any(k in p for k in ("new_player", "dead", "missed_small", "missed_big")):
            # dead money: PHH's negative entry (up to a big blind live, the rest dead)
            return -sum(v for k, v in p.items() if k not in ("ante", "bring_in"))
        # a kill blind, like a straddle, is a live blind PHH lists by position
        total = sum(v for k, v in p.items() if k not in (
            "ante", "bring_in", "small_blind", "big_blind", "button_blind", "straddle"))
        if "small_blind" in p:
            total += game.get("small_blind") or p["small_blind"]
        if "big_blind" in p:
            total += game.get("big_blind") or p["big_blind"]
        if "button_blind" in p:  # short deck (NS): the button's blind, the game's big_blind
            total += game.get("big_blind") or p["button_blind"]
        return total + p.get("straddle", 0)

    def ante(seat: int) -> int:
        amount = posts.get(seat, {}).get("ante", 0)
        stack = by_seat[seat].get("amount")
        nominal = game.get("ante") or 0
        return nominal if amount and amount == stack and amount < nominal else amount

    if stud:  # no button: dealt clockwise from the dealer, p1 = the lowest seat
        order = list(ordered)
        listed = order[::-1] if n == 2 else order  # PokerKit reverses heads-up antes
    elif n == 2:
        other = next(s for s in ordered if s != button)
        order = [other, button] if blind(button) < blind(other) else [button, other]
        listed = order[::-1]  # the importer reverses heads-up antes and blinds
    else:  # clockwise from the seat left of the button (an empty seat under a dead button)
        order = [s for s in ordered if s > button] + [s for s in ordered if s <= button]
        listed = order
    p_of = {seat: k + 1 for k, seat in enumerate(order)}

    def units(v: int) -> str:
        return _toml_num(_units(v, mpu))

    out: list[str] = [f"variant = {_toml_str(code)}"]
    out.append(f"antes = [{', '.join(units(ante(s)) for s in listed)}]")
    if stud:
        out.append(f"bring_in = {units(game['bring_in'])}")
    else:
        out.append(f"blinds_or_straddles = [{', '.join(units(blind(s)) for s in listed)}]")
    for name in ("min_bet", "small_bet", "big_bet"):
        if game.get(name) is not None:
            out.append(f"{name} = {units(game[name])}")
    stacks = [by_seat[s].get("amount") for s in order]
    out.append("starting_stacks = [" + ", ".join(
        "inf" if v is None else units(v) for v in stacks) + "]")
    actions: list[str] = []
    held: dict[int, list[str]] = defaultdict(list)  # each seat's cards as the importer keeps them
    left: dict[int, int | None] = {s: by_seat[s].get("amount") for s in ordered}
    awards: dict[int, int] = defaultdict(int)
    merge_seat = None  # stud: the seat whose `d dh` the next deal to him extends
    for r in rows[1:]:
        kind, detail, seat = r["kind"], r.get("detail"), r.get("seat")
        p = f"p{p_of[seat]}" if seat in p_of else None
        if kind in _PUT_IN and seat in left and left[seat] is not None:
            left[seat] = (left[seat] or 0) - (r.get("amount") or 0)
        if not (kind == "deal" and stud and detail in ("down", "up") and seat == merge_seat):
            merge_seat = None
        if kind == "post" and detail == "bring_in" and stud and p is not None:
            stack = (left[seat] or 0) + (r.get("amount") or 0) if left.get(seat) is not None \
                else None
            due = game["bring_in"] if stack is None else min(game["bring_in"], stack)
            if r.get("amount") != due:
                raise ExportError(f"hand {hand_id}: event {r['seq']} brings in "
                                  f"{r.get('amount')} where PHH's `pb` posts {due}")
            actions.append(f"{p} pb")
            continue
        if kind in ("seat", "post", "hand_ended", "rake", "annotation", "burn", "chips",
                    "declare", "pot_added"):
            continue  # kept only in the extension _poker_audit_events
        if kind == "award":
            if detail != "uncalled":  # PHH returns an uncalled bet itself: not winnings
                awards[seat] += r["amount"]
            continue
        if kind == "deal" and (detail in ("board", "common") or (stud and seat is None)):
            actions.append(f"d db {''.join(_cards(r.get('cards')))}")
            continue
        if p is None:
            raise ExportError(f"hand {hand_id}: event {r['seq']} ({kind}) names no seated player")
        if kind == "deal" and stud and detail in ("down", "up") and spec is not None:
            cards = _cards(r.get("cards"))
            k = len(held[seat])
            faces = "".join(spec.faces[j] if j < len(spec.faces) else "d"
                            for j in range(k, k + len(cards)))
            if faces != detail[0] * len(cards):
                raise ExportError(f"hand {hand_id}: event {r['seq']} deals {len(cards)} card(s) "
                                  f"{detail} to seat {seat}, against {spec.name}'s deal "
                                  "pattern, which PHH cannot record")
            held[seat].extend(cards)
            if merge_seat == seat:
                actions[-1] += "".join(cards)
            else:
                actions.append(f"d dh {p} {''.join(cards)}")
            merge_seat = seat
        elif kind == "deal" and detail in ("hole", "draw") and not stud:
            if detail == "draw" or spec is not None:
                held[seat].extend(_cards(r.get("cards")))
            else:
                held[seat] = _cards(r.get("cards"))
            actions.append(f"d dh {p} {''.join(_cards(r.get('cards')))}")
        elif kind == "stand_pat" and spec is not None and not stud:
            actions.append(f"{p} sd")
        elif kind == "draw" and spec is not None and not stud:
            discards = _cards(r.get("cards"))
            count = r.get("amount") if r.get("amount") is not None else len(discards)
            discards += ["??"] * (count - len(discards))
            for c in discards:
                if c in held[seat]:
                    held[seat].remove(c)
                elif "??" in held[seat]:
                    held[seat].remove("??")
                elif held[seat]:
                    held[seat] = ["??"] * (len(held[seat]) - 1)
            actions.append(f"{p} sd {''.join(discards)}")
        elif kind == "fold":
            actions.append(f"{p} f")
        elif kind in ("check", "call"):
            actions.append(f"{p} cc")
        elif kind in ("bet", "raise") or (kind == "complete" and stud):
            actions.append(f"{p} cbr {units(r['total'])}")
        elif kind == "show":
            cards = r.get("cards") or ""
            actions.append(f"{p} sm {''.join(_cards(cards))}")
        elif kind == "muck":
            cards = r.get("cards")
            dealt = " ".join(held[seat]) if held[seat] else None
            if cards == dealt or (cards is None and dealt is None):
                actions.append(f"{p} sm")
            elif cards is None:
                actions.append(f"{p} sm {'??' * len(_cards(dealt))}")
            else:
                actions.append(f"{p} sm {''.join(_cards(cards))}")
        else:
            raise ExportError(f"hand {hand_id}: event {r['seq']} ({kind} {detail or ''}) "
                              "has no PHH form")
    out.append("actions = [\n" + "".join(f"  {_toml_str(a)},\n" for a in actions) + "]")
    prefix, rest = _split_id(hand_id)
    if prefix == "phh" and ":" in rest:
        venue, _, number = rest.partition(":")
    else:
        venue, number = prefix, rest
    out.append(f"venue = {_toml_str(venue)}")
    out.append(f"hand = {_toml_str(number)}")
    out.append(f"_poker_audit_hand_id = {_toml_str(hand_id)}")
    if start.get("table_id") is not None:
        out.append(f"table = {_toml_str(start['table_id'])}")
    def site_seat(seat: int) -> int:  # the phh importer renumbers seats; give back the site's
        detail = by_seat[seat].get("detail") or ""
        return int(detail[10:]) if detail.startswith("site_seat=") else seat

    out.append(f"seats = [{', '.join(str(site_seat(s)) for s in order)}]")
    if game.get("seat_count") is not None:
        out.append(f"seat_count = {game['seat_count']}")
    names = [by_seat[s].get("player") for s in order]
    if any(v is not None for v in names):
        out.append("players = [" + ", ".join(_toml_str(v or "") for v in names) + "]")
    end = rows[-1] if rows[-1]["kind"] == "hand_ended" else {}
    flags = dict(f.split("=", 1) for f in (end.get("detail") or "").split(";") if "=" in f)
    recorded = flags.get("winnings", "recorded" if awards else "absent")
    if recorded == "recorded":
        out.append(f"winnings = [{', '.join(units(awards.get(s, 0)) for s in order)}]")
    elif recorded == "unrecorded":
        out.append(f"winnings = [{', '.join('0' for _ in order)}]")
    if "finishing_stacks" in flags:
        fs = {int(k): int(v) for k, v in
              (x.split(":") for x in flags["finishing_stacks"].split(",") if x)}
        out.append(f"finishing_stacks = [{', '.join(units(fs.get(s, 0)) for s in order)}]")
    if game.get("tournament"):
        out.append("tournament = true")
    currency = game.get("currency")
    if mpu != 1 and currency and currency != "CHIPS":
        out.append(f"currency = {_toml_str(currency)}")
    ts = start.get("ts")
    if ts is not None:
        u = ts.astimezone(dt.UTC)
        out += [f"year = {u.year}", f"month = {u.month}", f"day = {u.day}",
                f"time = {u.time().isoformat()}", "time_zone = 'UTC'"]
    standard = "\n".join(out) + "\n"
    return standard + "\n".join(_phh_extension(rows, game, standard)) + "\n"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, dt.datetime):
        return _toml_str(v.astimezone(dt.UTC).isoformat())
    return _toml_str(str(v))


def _inline(fields: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in fields.items()
                           if v is not None) + "}"


_EVENT_FIELDS = ("kind", "seat", "player", "amount", "total", "cards", "detail", "ts")


def phh_digest(fields: dict[str, Any]) -> str:
    """The digest of a PHH hand's standard fields (parsed; user-defined `_` fields aside)."""
    standard = {k: v for k, v in fields.items() if not k.startswith("_")}
    text = json.dumps(standard, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _phh_extension(rows: list[dict[str, Any]], game: dict[str, Any], standard: str) -> list[str]:
    """The user-defined fields (PHH: names starting with `_`) that give poker-audit the hand's
    exact events: the game struct and every event in order (amounts in minor units, times in
    ISO 8601), with the digest of the standard fields they go with: the importer uses them
    only while the standard fields are unchanged.  Another PHH reader ignores them."""
    events = "".join(f"  {_inline({k: r.get(k) for k in _EVENT_FIELDS})},\n" for r in rows)
    digest = phh_digest(tomllib.loads(standard, parse_float=Decimal))
    return [f"_poker_audit_digest = {_toml_str(digest)}",
            f"_poker_audit_game = {_inline(game)}", f"_poker_audit_events = [\n{events}]"]


# --- whole tables ----------------------------------------------------------------------


def _hands(table: pa.Table) -> list[list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in table.to_pylist():
        grouped.setdefault(row["hand_id"], []).append(row)
    return list(grouped.values())


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand the format cannot hold, and why (the exporter's one-line reason)."""

    hand_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Exported:
    """An export: the text of the hands written, how many, and the hands skipped."""

    text: str
    written: int
    skipped: tuple[Skipped, ...]


def export_each(events_table: pa.Table, fmt: str) -> Exported:
    """Every hand the format can hold, as OHH JSON lines (`ohh`) or a `.phhs` text (`phh`); a
    hand it cannot hold (a game with no code in it, a deal it cannot record) is skipped, with
    the reason, and the rest are written."""
    if fmt not in ("ohh", "phh"):
        raise ExportError(f"unknown export format {fmt!r}; use ohh or phh")
    texts: list[str] = []
    skipped: list[Skipped] = []
    for hand in _hands(events_table):
        try:
            texts.append(ohh_json(to_ohh(hand)) + "\n" if fmt == "ohh" else to_phh(hand))
        except ExportError as exc:
            hand_id = str(hand[0]["hand_id"])
            skipped.append(Skipped(hand_id, str(exc).removeprefix(f"hand {hand_id}: ")))
    if fmt == "ohh":
        text = "".join(texts)
    else:
        text = "\n".join(f"[{k}]\n{t}" for k, t in enumerate(texts, start=1))
    return Exported(text, len(texts), tuple(skipped))


def export_hands(events_table: pa.Table, fmt: str) -> str:
    """Every hand of an event table as OHH JSON lines (`ohh`) or a `.phhs` text (`phh`);
    ExportError on the first hand the format cannot hold (`export_each` skips it instead)."""
    done = export_each(events_table, fmt)
    if done.skipped:
        first = done.skipped[0]
        raise ExportError(f"hand {first.hand_id}: {first.reason}")
    return done.text
