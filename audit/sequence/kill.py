"""Required kill pots across a table's deals (RULEBOOK §4.13, the session-level kill rules).

In a game with a required kill (the house says so: profile or `game.house_overrides`
parameter `kill.required`), who must kill the next pot is table state carried from deal to
deal (000 §12; 001 3.6; 002 §13):

- non-split games: the winner of a pot holds the kill button (a "leg up"); winning the next
  pot too, with at least one full bet won that is no part of the blinds, makes him kill the
  next pot (KILL-TRIGGER, KILL-LEG2). A leg survives leaving the table (KILL-LEG-PERSIST) and
  splitting the next pot (KILL-SPLIT-LEG); a pot split by players without the button leaves
  it neutral (KILL-BUTTON-NEUTRAL). A killer who wins again, or splits, kills again, for the
  same amount; a required kill is posted even by a player who wants to be dealt out
  (KILL-MUST-POST).
- high-low games: a scoop of a pot of at least `kill.scoop_multiple` times the upper limit
  makes the scooper kill the next pot (KILL-TRIGGER, KILL-SCOOP-5X); only a scoop decided at a
  showdown proves it, since a pot nobody contested may not count as winning both halves.
- any killed pot: a new player who plays in it must kill the next one (KILL-NEW-PLAYER).

Only fixed-limit games are followed: the rules speak of limits and full bets, which a
big-bet game does not have. The state is followed only along deals that the log proves
consecutive (audit/sequence/table.py); a gap, another game or an outcome the log does
not record forgets everything, and a leg the log cannot prove never makes a kill required. So a
missing kill is flagged only when the log proves it was due, and a kill posted by the last
winner only when the log proves nobody required it (a `kill_voluntary` post is never questioned).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from audit.rules.findings import Finding, finding
from audit.rules.ids import (
    KILL_BUTTON_NEUTRAL,
    KILL_LEG2,
    KILL_LEG_PERSIST,
    KILL_MUST_POST,
    KILL_NEW_PLAYER,
    KILL_SCOOP_5X,
    KILL_SPLIT_LEG,
    KILL_TRIGGER,
)
from audit.rules.settings import Settings

_KILL_POSTS = ("kill", "kill_voluntary")
_VOLUNTARY = ("bet", "raise", "call", "complete")
_PUT_IN = ("post", *_VOLUNTARY)
_ORDER = ["table_id", "ts", "number", "hand"]  # as audit/sequence/table.py orders deals


class Leg(StrEnum):
    """What the log proves about one player's standing towards a kill."""

    WON = "won"  # he won the last pot: the kill button, one leg up
    KEPT_SPLIT = "kept_split"  # a leg up he kept by splitting the next pot (KILL-SPLIT-LEG)
    KEPT_AWAY = "kept_away"  # a leg up he kept while away from the table (KILL-LEG-PERSIST)
    NONE = "none"  # no leg: someone else won a pot he played
    NONE_SPLIT = "none_split"  # no leg, though he shared the last pot: the button is neutral


_UP = frozenset({Leg.WON, Leg.KEPT_SPLIT, Leg.KEPT_AWAY})


@dataclass(frozen=True, slots=True, kw_only=True)
class Due:
    """A kill the next deal must carry: who posts it, which rule requires it, and why."""

    player: str
    seat: int
    rule_id: str
    reason: str
    certain: bool  # False: it rests on a leg or a kill the log cannot prove was required
    amount: int | None = None  # a repeated kill is posted again for the same amount


@dataclass(frozen=True, slots=True, kw_only=True)
class NotDue:
    """The last winner does not owe a kill, proven by the log; the rule that says why."""

    player: str
    rule_id: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class KillDeal:
    """What the kill rules need of one deal."""

    hand_id: str
    table_id: str
    game: tuple[object, ...]  # variant, structure and limits: a change starts a new game
    required: bool  # the game has a required kill
    hilo: bool
    fixed_limit: bool
    small_bet: int
    big_bet: int
    settings: Settings
    seated: dict[str, tuple[int, bool]]  # player -> (seat, dealt in)
    kills: tuple[tuple[int, int, str, int, str], ...]  # (seq, seat, player, amount, detail)
    winners: tuple[str, ...] | None  # who took chips from the pot; None: not recorded
    voluntary_from_others: int  # what the sole winner won of other players' bets, not blinds
    pot: int  # everything put in, less what went back uncalled
    shown_down: bool  # two or more players showed: the pot was decided at a showdown


@dataclass(slots=True)
class _Table:
    """The state carried from one proven deal to the next."""

    prev: KillDeal | None = None
    legs: dict[str, Leg] = field(default_factory=dict)  # players not here: unknown
    due: Due | None = None
    not_due: NotDue | None = None
    newcomers: dict[str, str] = field(default_factory=dict)  # player -> the killed pot
    owed: dict[str, str] = field(default_factory=dict)  # dealt out owing a kill -> since

    def forget(self) -> None:
        self.prev, self.due, self.not_due = None, None, None
        self.legs.clear()
        self.newcomers.clear()
        self.owed.clear()


def _settings(cash: Settings, tournament: Settings | None, is_tournament: bool,
              house: str | None, cache: dict[tuple[bool, str], Settings]) -> Settings:
    key = (is_tournament, house or "")
    st = cache.get(key)
    if st is None:
        base = tournament if (is_tournament and tournament is not None) else cash
        st = cache[key] = base.with_house(house)
    return st


def _house_mentions_kill(events: pa.Table) -> bool:
    started = events.filter(pc.equal(events.column("kind"), "hand_started"))
    house = pc.struct_field(started.column("game"), "house_overrides")
    return bool(pc.any(pc.match_substring(pc.fill_null(house, ""), "kill.required")).as_py())


def kill_deals(events: pa.Table, keys: pa.Array, hands: pl.DataFrame, cash: Settings,
               tournament: Settings | None) -> dict[int, KillDeal]:
    """The deals of `hands` (table_sequence's button-game hands, keyed by `hand`: `keys` has
    each row's, audit/sequence/hand_keys.py) that a kill rule can concern, by hand key: those
    of a required-kill game and those of a table where a kill was posted. Empty, and cheap,
    when no hand of the file is in a kill game and none was killed."""
    wanted_by_profile = bool(cash.values.get("kill.required")) or bool(
        tournament is not None and tournament.values.get("kill.required"))
    kind, detail = events.column("kind"), events.column("detail")
    killed = pc.is_in(detail, pa.array(_KILL_POSTS))  # a kill post: only posts say so
    if pc.any(killed).as_py():
        killed = pc.and_(pc.equal(kind, "post"), killed)
    if not (wanted_by_profile or pc.any(killed).as_py() or _house_mentions_kill(events)):
        return {}
    started = pc.equal(kind, "hand_started")
    game = events.column("game")
    games = pl.from_arrow(pa.table({
        "hand": keys,
        "variant": pc.struct_field(game, "variant"),
        "structure": pc.struct_field(game, "structure"),
        "big_blind": pc.struct_field(game, "big_blind"),
        "small_bet": pc.struct_field(game, "small_bet"),
        "big_bet": pc.struct_field(game, "big_bet"),
        "house": pc.struct_field(game, "house_overrides"),
    }).filter(started))
    assert isinstance(games, pl.DataFrame)
    games = games.unique("hand", keep="first", maintain_order=True).join(
        hands.select("hand", "hand_id", "table_id", pl.col("tournament").fill_null(False)),
        on="hand", how="inner", maintain_order="left")
    cache: dict[tuple[bool, str], Settings] = {}
    # a hand without house overrides plays its profile's kill rule; the others their house's
    plain = {is_t: bool(_settings(cash, tournament, is_t, None, cache).values.get(
        "kill.required")) for is_t in (False, True)}
    housed = games.filter(pl.col("house").is_not_null() & (pl.col("house") != ""))
    required = {h: bool(_settings(cash, tournament, t, house, cache).values.get("kill.required"))
                for h, t, house in housed.select("hand", "tournament", "house").iter_rows()}
    kill_hands = pc.unique(pc.filter(keys, killed))
    # a killed pot concerns the deal after it too (KILL-NEW-PLAYER), in any game
    kill_tables = games.filter(pl.col("hand").is_in(kill_hands.to_pylist())).get_column(
        "table_id").unique()
    by_profile = pl.when(pl.col("tournament")).then(plain[True]).otherwise(plain[False])
    games = games.filter(pl.col("table_id").is_in(kill_tables.to_list())
                         | pl.col("hand").is_in([h for h, r in required.items() if r])
                         | (~pl.col("hand").is_in(list(required)) & by_profile))
    if games.is_empty():
        return {}
    chosen = games.get_column("hand").to_list()
    required.update({h: plain[t] for h, t in games.select("hand", "tournament").iter_rows()
                     if h not in required})
    # the rows of the chosen deals only, before they become a frame
    ev = pl.from_arrow(events.select(["seq", "kind", "seat", "player", "amount", "detail"])
                       .append_column("hand", keys)
                       .filter(pc.is_in(keys, pa.array(chosen, pa.int64()))))
    assert isinstance(ev, pl.DataFrame)
    seated: dict[int, dict[str, tuple[int, bool]]] = {}
    for h, seat, player, detail in ev.filter(
            (pl.col("kind") == "seat") & pl.col("player").is_not_null()
            & pl.col("seat").is_not_null()).select("hand", "seat", "player",
                                                   "detail").iter_rows():
        seated.setdefault(h, {})[player] = (seat, detail != "sitting_out")
    kills: dict[int, list[tuple[int, int, str, int, str]]] = {}
    for h, seq, seat, player, amount, detail in ev.filter(
            (pl.col("kind") == "post") & pl.col("detail").is_in(list(_KILL_POSTS))).select(
            "hand", "seq", "seat", "player", "amount", "detail").sort(
            "hand", "seq").iter_rows():
        kills.setdefault(h, []).append((seq, seat or 0, player or "", amount or 0, detail))
    money = _money(ev)
    showdowns = set(ev.filter(pl.col("kind") == "show").group_by("hand").agg(
        pl.col("seat").n_unique().alias("shown")).filter(pl.col("shown") >= 2)
        .get_column("hand").to_list())
    unrecorded = set(ev.filter((pl.col("kind") == "hand_ended") & pl.col("detail").fill_null("")
                               .str.contains("winnings=(unrecorded|absent)"))
                     .get_column("hand").to_list())
    out: dict[int, KillDeal] = {}
    for h, hand_id, table_id, variant, structure, bb, small, big, house, is_t in games.select(
            "hand", "hand_id", "table_id", "variant", "structure", "big_blind", "small_bet",
            "big_bet", "house", "tournament").iter_rows():
        small_bet = int(small or bb or 0)
        big_bet = int(big or 2 * small_bet)
        winners, from_others, pot = money.get(h, (None, 0, 0))
        out[h] = KillDeal(
            hand_id=hand_id, table_id=table_id, game=(variant, structure, small_bet, big_bet),
            required=required[h], hilo="hilo" in (variant or ""),
            fixed_limit=structure == "fixed_limit", small_bet=small_bet, big_bet=big_bet,
            settings=_settings(cash, tournament, is_t, house, cache),
            seated=seated.get(h, {}), kills=tuple(kills.get(h, ())),
            winners=None if h in unrecorded else winners,
            voluntary_from_others=from_others, pot=pot, shown_down=h in showdowns)
    return out


def _money(ev: pl.DataFrame) -> dict[int, tuple[tuple[str, ...] | None, int, int]]:
    """Per hand: (the players who took chips from the pot, or None when no award is logged;
    what a sole winner won of the others' bets beyond their forced posts; the pot)."""
    moved = ev.filter(pl.col("player").is_not_null() & pl.col("kind").is_in(
        [*_PUT_IN, "award"])).group_by("hand", "player").agg(
        pl.col("amount").filter(pl.col("kind").is_in(list(_PUT_IN))).sum().alias("put_in"),
        pl.col("amount").filter(pl.col("kind").is_in(list(_VOLUNTARY))).sum().alias("bets"),
        pl.col("amount").filter((pl.col("kind") == "award")
                                & (pl.col("detail") != "uncalled")).sum().alias("won"),
        pl.col("amount").filter((pl.col("kind") == "award")
                                & (pl.col("detail") == "uncalled")).sum().alias("back"),
    ).fill_null(0)
    # when the log records no uncalled excess, it went back to the top bettor untold
    per_hand = moved.group_by("hand").agg(
        pl.col("player").filter(pl.col("won") > 0).sort().alias("winners"),
        pl.col("back").sum().alias("back_logged"),
        pl.col("put_in").sum().alias("put_total"),
        pl.col("put_in").max().alias("top"),
        pl.col("put_in").sort(descending=True).get(1, null_on_oob=True).fill_null(0)
        .alias("second"),
        pl.col("player").sort_by("put_in", descending=True).first().alias("top_player"),
    ).with_columns(
        pl.when(pl.col("back_logged") > 0).then(0).otherwise(pl.col("top") - pl.col("second"))
        .alias("excess"))
    sole = per_hand.filter(pl.col("winners").list.len() == 1).select(
        "hand", pl.col("winners").list.first().alias("winner"), "top_player", "excess")
    from_others = moved.join(sole, on="hand", how="inner").filter(
        pl.col("player") != pl.col("winner")).group_by("hand").agg(
        (pl.col("bets") - pl.col("back")
         - pl.when(pl.col("player") == pl.col("top_player")).then(pl.col("excess"))
         .otherwise(0)).clip(lower_bound=0).sum().alias("from_others"))
    table = per_hand.join(from_others, on="hand", how="left").select(
        "hand", "winners", pl.col("from_others").fill_null(0),
        pl.col("put_total") - pl.col("back_logged") - pl.col("excess"))
    return {h: (tuple(winners) or None, from_o, pot)
            for h, winners, from_o, pot in table.iter_rows()}


def kill_sequence_findings(deals: Mapping[Any, KillDeal], hands: pl.DataFrame,
                           pairs: pl.DataFrame) -> list[Finding]:
    """The session-level kill findings of every table, deal by deal in table order: `hands`
    has each hand's `table_id`, `ts`, `number` and key (`hand`, sorting as its id does),
    `pairs` the (prev, hand) keys of the proven consecutive deals and `deals` the kill deals
    by key."""
    if not deals:
        return []
    proven = set(pairs.rows())
    out: list[Finding] = []
    state: dict[str, _Table] = {}
    # a table without a kill deal forgets at every deal and finds nothing: not followed
    tables = list({d.table_id for d in deals.values()})
    prev_key: dict[str, Any] = {}
    for table_id, key in hands.filter(pl.col("table_id").is_in(tables)).sort(
            _ORDER, nulls_last=True).select("table_id", "hand").iter_rows():
        t = state.setdefault(table_id, _Table())
        deal = deals.get(key)
        if deal is None or t.prev is None or (prev_key[table_id], key) not in proven \
                or t.prev.game != deal.game:
            t.forget()  # not a deal that follows a known one of the same game
        if deal is None:
            continue
        if t.prev is not None:
            out.extend(_check(t, deal))
        _advance(t, deal)
        prev_key[table_id] = key
    return out


def _emit(rule_id: str, deal: KillDeal, *, seq: int, seat: int | None, player: str | None,
          message: str, default: str | None = None, **kw: object) -> list[Finding]:
    st = deal.settings
    if rule_id in st.disabled:
        return []
    return [finding(rule_id, hand_id=deal.hand_id, seq=seq, seat=seat, player=player,
                    severity=st.severity.get(rule_id) or default, message=message,
                    **kw)]  # type: ignore[arg-type]


def _check(t: _Table, deal: KillDeal) -> list[Finding]:
    """The findings of `deal`, judged from what the previous deal left owing."""
    out: list[Finding] = []
    kills = {player: (seq, seat, amount, detail)
             for seq, seat, player, amount, detail in reversed(deal.kills)}
    due, prev = t.due, t.prev
    assert prev is not None
    if deal.required and due is not None and due.certain:
        posted = kills.get(due.player)
        seat, dealt = deal.seated.get(due.player, (0, False))
        who = f"seat {due.seat} ({due.player})"
        if posted is None:
            other = next(iter(kills), None)
            instead = f"; the kill was posted by {other} instead" if other else \
                "; no kill was posted"
            if dealt:
                out += _emit(due.rule_id, deal, seq=0, seat=seat, player=due.player,
                             expected="kill", actual="none",
                             message=f"In the previous deal ({prev.hand_id}) {who} "
                                     f"{due.reason}, so he must kill this pot{instead}.")
            else:
                where = "sits out" if seat else "has left the table"
                out += _emit(KILL_MUST_POST, deal, seq=0, seat=seat or due.seat,
                             player=due.player, expected="kill", actual="none",
                             message=f"In the previous deal ({prev.hand_id}) {who} "
                                     f"{due.reason}, and he {where} here without posting the "
                                     f"kill{instead}: a required kill is posted on that very "
                                     "hand, even by a player who wants to quit or be dealt "
                                     "out.")
                t.owed[due.player] = deal.hand_id
            t.legs.pop(due.player, None)  # past a missed kill the log proves no more
        elif due.amount is not None and posted[2] != due.amount:
            out += _emit(KILL_MUST_POST, deal, seq=posted[0], seat=posted[1],
                         player=due.player, default="warning", expected=due.amount,
                         actual=posted[2], delta=posted[2] - due.amount,
                         message=f"In the previous deal ({prev.hand_id}) {who} "
                                 f"{due.reason}; he kills again for the same amount, "
                                 f"{due.amount}, but posted {posted[2]}.")
    for player, since in list(t.owed.items()):
        seat, dealt = deal.seated.get(player, (0, False))
        if not dealt:
            continue  # still away: he owes it until he plays again
        del t.owed[player]
        if player not in kills and deal.required:
            out += _emit(KILL_MUST_POST, deal, seq=0, seat=seat, player=player,
                         expected="kill", actual="none",
                         message=f"seat {seat} ({player}) did not post the kill he owed in "
                                 f"{since} and is dealt in here without posting it: he may not "
                                 "play until the kill money is posted.")
    not_due = t.not_due
    # a new player who played the killed pot before owes this kill, whatever he won there
    # (KILL-NEW-PLAYER): his kill is no unrequired one
    if deal.required and not_due is not None and (due is None or due.player != not_due.player) \
            and not_due.player not in t.newcomers:
        posted = kills.get(not_due.player)
        if posted is not None and posted[3] == "kill":
            out += _emit(not_due.rule_id, deal, seq=posted[0], seat=posted[1],
                         player=not_due.player, default="warning", expected="no kill",
                         actual=posted[2],
                         message=f"seat {posted[1]} ({not_due.player}) posted a kill of "
                                 f"{posted[2]}, but no kill was required of him: in the "
                                 f"previous deal ({prev.hand_id}) {not_due.reason}.")
    if t.newcomers and not deal.kills and due is None:
        for player, killed in sorted(t.newcomers.items()):
            seat, dealt = deal.seated.get(player, (0, False))
            if dealt:
                out += _emit(KILL_NEW_PLAYER, deal, seq=0, seat=seat, player=player,
                             expected="kill", actual="none",
                             message=f"seat {seat} ({player}) took a seat at the table in "
                                     f"the killed pot {killed}; a new player may play a killed "
                                     "pot only by agreeing to kill the next one, and he did "
                                     "not kill this pot.")
    return out


def _advance(t: _Table, deal: KillDeal) -> None:
    """Carry the table's kill state past `deal`."""
    due = t.due
    first = deal.kills[0] if deal.kills else None
    killer = None  # (who killed this pot, for how much, whether the log proves he owed it)
    if first is not None:
        _seq, _seat, player, amount, detail = first
        proven = (t.prev is not None and due is not None and due.certain
                  and due.player == player and detail == "kill")
        killer = (player, amount, proven)
    # a new player in a killed pot owes the next kill (not the one who killed it). New: no
    # seat at the table in the deal before, not even sitting out; a player back from a break
    # keeps his seat, one who gave it up and comes back takes a new one
    t.newcomers = {}
    if t.prev is not None and first is not None:
        t.newcomers = {p: deal.hand_id for p, (_s, dealt) in deal.seated.items()
                       if dealt and p not in t.prev.seated and p != first[2]}
    t.prev = deal
    t.due, t.not_due = None, None
    if not (deal.required and deal.fixed_limit) or deal.winners is None:
        t.legs.clear()
        return
    present = {p for p, (_s, dealt) in deal.seated.items() if dealt}
    for p, leg in list(t.legs.items()):
        if p not in present and leg in _UP:
            t.legs[p] = Leg.KEPT_AWAY  # 000 §12 r.5
    if deal.hilo:
        _advance_scoop(t, deal, killer)
    else:
        _advance_legs(t, deal, present, killer)


def _seat(deal: KillDeal, player: str) -> int:
    return deal.seated.get(player, (0, False))[0]


def _advance_scoop(t: _Table, deal: KillDeal, killer: tuple[str, int, bool] | None) -> None:
    """High-low: a scoop of at least `kill.scoop_multiple` upper limits makes the next pot a
    kill pot (000 §12 r.8). A smaller scoop requires none, even of a killer: only a big pot
    proves one."""
    assert deal.winners is not None
    t.legs.clear()
    if len(deal.winners) != 1:
        return
    w = deal.winners[0]
    multiple = int(deal.settings.values.get("kill.scoop_multiple", 5))
    least = multiple * deal.big_bet
    if deal.pot >= least:
        if killer is not None and killer[0] == w and killer[2]:
            t.due = Due(player=w, seat=_seat(deal, w), rule_id=KILL_MUST_POST,
                        reason=f"killed the pot for {killer[1]} and scooped it (a pot of "
                               f"{deal.pot})",
                        certain=True, amount=killer[1])
        else:
            # a scoop is winning both the high and the low pot: a pot nobody contested may not
            # count as one, so only a scoop at a showdown proves the kill due
            t.due = Due(player=w, seat=_seat(deal, w), rule_id=KILL_TRIGGER,
                        reason=f"scooped a pot of {deal.pot} at the showdown, at least "
                               f"{multiple} times the upper limit ({least})",
                        certain=deal.shown_down)
    elif killer is None or killer[0] != w:
        t.not_due = NotDue(player=w, rule_id=KILL_SCOOP_5X,
                           reason=f"the pot he scooped was {deal.pot}, less than {multiple} "
                                  f"times the upper limit ({least})")


def _advance_legs(t: _Table, deal: KillDeal, present: set[str],
                  killer: tuple[str, int, bool] | None) -> None:
    """Non-split games: two pots in a row (000 §12 intro, r.1, r.3-4, r.7)."""
    assert deal.winners is not None
    winners = deal.winners
    for p in present - set(winners):
        t.legs[p] = Leg.NONE
    if len(winners) > 1:  # a split pot
        for p in winners:
            if killer is not None and killer[0] == p:
                t.due = Due(player=p, seat=_seat(deal, p), rule_id=KILL_SPLIT_LEG,
                            reason=f"killed the pot for {killer[1]} and split it",
                            certain=killer[2], amount=killer[1])
                t.legs.pop(p, None)
            elif t.legs.get(p) in _UP:
                t.legs[p] = Leg.KEPT_SPLIT  # r.4: the leg stays
            elif p in t.legs:
                t.legs[p] = Leg.NONE_SPLIT  # r.1(c): nobody gets the button
        return
    w = winners[0]
    before = t.legs.get(w)
    t.legs[w] = Leg.WON
    killed = killer is not None and killer[0] == w
    if killer is not None and killed and killer[2]:
        t.due = Due(player=w, seat=_seat(deal, w), rule_id=KILL_MUST_POST,
                    reason=f"killed the pot for {killer[1]} and won it", certain=True,
                    amount=killer[1])
        return
    # a kill the log cannot prove was required: winning it may still be a second pot in a row
    won, full = deal.voluntary_from_others, deal.small_bet
    if before is None or before in _UP:
        # the second leg: a full bet won, no part of the blinds; a "full bet" is at least the
        # lower limit and at most the upper one, so only amounts outside that band decide
        if won >= deal.big_bet:
            rule, kept = _KEPT.get(before, (KILL_TRIGGER, "")) if before else (
                KILL_TRIGGER, "")
            t.due = Due(player=w, seat=_seat(deal, w), rule_id=rule,
                        reason=f"won a second pot in a row{kept}, with {won} of the other "
                               "players' bets in it beyond the blinds",
                        certain=before is not None)
        elif won < full and before is not None and not killed:
            t.not_due = NotDue(player=w, rule_id=KILL_LEG2,
                               reason=f"the second pot he won in a row held only {won} of "
                                      f"the other players' bets beyond the blinds, less "
                                      f"than a full bet ({full})")
    elif killed:
        return  # he killed a pot he did not owe: what winning it commits him to is unproven
    elif before is Leg.NONE_SPLIT:
        t.not_due = NotDue(player=w, rule_id=KILL_BUTTON_NEUTRAL,
                           reason="he won his first leg: the pot before it was split by "
                                  "players who did not hold the kill button, which left the "
                                  "button neutral")
    else:
        t.not_due = NotDue(player=w, rule_id=KILL_TRIGGER,
                           reason="he won his first pot in a row")


# the rule that kept a leg up, and how the message says so
_KEPT: dict[Leg, tuple[str, str]] = {
    Leg.KEPT_SPLIT: (KILL_SPLIT_LEG, " (his leg survived the split pot before)"),
    Leg.KEPT_AWAY: (KILL_LEG_PERSIST, " (his leg survived his time away from the table)"),
}


def kill_findings(events: pa.Table, keys: pa.Array, hands: pl.DataFrame, pairs: pl.DataFrame,
                  cash: Settings, tournament: Settings | None) -> list[Finding]:
    """Every session-level kill finding of one event file (see the module docstring); `keys`
    has each row's hand key, `hands` and `pairs` are audit/sequence/table.py's."""
    return kill_sequence_findings(kill_deals(events, keys, hands, cash, tournament), hands,
                                  pairs)

