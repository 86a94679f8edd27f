"""Forced bets in button games: blinds from the button, heads-up blinds, antes, straddle,
missed and dead blinds; plus the start of each betting round."""

from __future__ import annotations

from audit.replay.state import FL, NL, HandState
from audit.rules.ids import (
    ANTE_AMOUNT,
    BLIND_HEADSUP,
    BLIND_MISSED,
    BLIND_POSITIONS,
    DQ_INCONSISTENT_LOG,
    HOUSE_TABLE_STAKES,
    STRADDLE_BIGBET,
    STRADDLE_LIMIT,
    STRADDLE_TOURN,
)

DQ_ACTION = DQ_INCONSISTENT_LOG


def new_round(h: HandState, street: int) -> None:
    """Reset the round totals for `street` (0 = preflop)."""
    h.street = street
    h.cur_bet = 0
    bet = h.bet
    acted = h.acted
    for s in h.seats:
        bet[s] = 0
        acted[s] = False
    h.last_raise = 0 if h.structure == FL else h.min_bet
    h.fr_count = 0
    h.bets = 0
    h.capped = False
    h.bet_was_short = False
    h.aggressor = 0
    h.oot.clear()
    h.anchor = h.button
    h.to_act = 0 if h.remaining() <= 1 else h.next_to_act(h.button)


def open_preflop(h: HandState) -> None:
    """Before the first preflop action of a blind game: a big blind that was posted short
    all-in, or not posted at all because the player due for it went all-in on the ante, does
    not lower the bet the others must call: it stays the full big blind (BLIND-SHORT-STRUCTURE,
    RULEBOOK §4.6); action starts left of the big blind's seat."""
    check_antes(h, h.last_seq)
    bb = h.bb
    if bb <= 0 or h.cur_bet >= bb or h.game.get("bring_in") or h.straddle_seat:
        return
    due = h.bb_seat
    order = h.order
    if not due:
        if len(order) == 2:
            due = next((x for x in order if x != h.button), 0)
        elif h.sb_seat in order:
            due = order[(order.index(h.sb_seat) + 1) % len(order)]
        elif len(order) > 1:
            due = order[1]
        if not due or h.bet[due] or not h.contrib[due]:
            return
    if h.stack[due] != 0:
        return
    h.cur_bet = bb
    h.anchor = due
    h.to_act = h.next_to_act(due)


def table_stakes(h: HandState, s: int, add: int, seq: int, verb: str = "posts") -> int:
    """The part of a forced bet that seat `s`'s stack covers: only the chips on the table play
    (HOUSE-TABLE-STAKES when the log has him put in more than he had)."""
    stack = h.stack[s]
    if add <= stack:
        return add
    h.flag(HOUSE_TABLE_STAKES, seq, f"{h.who(s)} {verb} {h.money(add)} but had only "
           f"{h.money(stack)}; only the chips on the table play.", seat=s,
           expected=stack, actual=add, delta=add - stack)
    return stack


def dealt_in(h: HandState, s: int | None, seq: int, forced_bet: str) -> bool:
    """Whether seat `s` was dealt into the hand; if not, the `forced_bet` posted for it is
    reported (DQ-INCONSISTENT-LOG) and ignored."""
    if s is not None and 0 < s < h.size and h.in_hand[s]:
        return True
    h.flag(DQ_ACTION, seq, f"A {forced_bet} is posted for seat {s}, which was not dealt into "
           "this hand; it is ignored.")
    return False


def put_in(h: HandState, s: int, add: int, live: int | None = None) -> None:
    """Seat `s` puts `add` chips of his stack (already capped by `table_stakes`) in the pot
    before the betting: `live` of them (all by default) count toward his bet in the round,
    the rest are dead; his last chips make him all in preflop."""
    if live is None:
        live = add
    stack = h.stack[s]
    h.stack[s] = stack - add
    h.contrib[s] += add
    if add > live:
        h.dead[s] += add - live
    if live:
        h.bet[s] += live
        if h.bet[s] > h.cur_bet:
            h.cur_bet = h.bet[s]
    if add and add == stack:
        h.allin_street[s] = "preflop"


def post(h: HandState, detail: str | None, s: int | None, amount: int | None,
         seq: int) -> None:
    """A `post` event: verify who posts what, then put the chips in (live or dead)."""
    if not dealt_in(h, s, seq, detail or "forced bet"):
        return
    add = table_stakes(h, s, amount or 0, seq)
    stack = h.stack[s]
    kind = detail or "dead"
    h.last_seq = seq  # the last forced bet: where a missing ante is reported (check_antes)
    if h.vh is None:  # stud and draw forced bets are judged by audit/replay/family/hooks.py
        _check_amount(h, kind, s, add, stack, seq)
    order = h.order
    headsup = len(order) == 2
    live = 0
    if kind == "small_blind":
        live = add
        expected = h.button if headsup else (order[0] if order else 0)
        if not h.game.get("dead_button") and expected and s != expected:
            rid = BLIND_HEADSUP if headsup else BLIND_POSITIONS
            why = ("heads-up the button posts the small blind" if headsup else
                   "the small blind is posted by the first player clockwise from the button")
            h.flag(rid, seq, f"{h.who(s)} posted the small blind but {why} ({h.who(expected)}).",
                   seat=s, expected=expected, actual=s)
        h.sb_seat = s
    elif kind == "big_blind":
        live = add
        if headsup:
            expected = next((x for x in order if x != h.button), 0)
        else:
            expected = order[1] if len(order) > 1 else 0
            if h.sb_seat and h.sb_seat in order:
                i = order.index(h.sb_seat)
                expected = order[(i + 1) % len(order)]
        # No small blind posted (its seat left, or it is dead under the moving-button rule):
        # the log cannot tell which, so either of the first two seats may owe the big blind.
        no_small = not headsup and not h.sb_seat and s in order[:2]
        if not h.game.get("dead_button") and expected and s != expected and not no_small:
            rid = BLIND_HEADSUP if headsup else BLIND_POSITIONS
            h.flag(rid, seq, f"{h.who(s)} posted the big blind but it is due from "
                   f"{h.who(expected)}, the next player clockwise after the small blind.",
                   seat=s, expected=expected, actual=s)
        h.bb_seat = s
        h.anchor = s
        if h.structure == FL:
            h.last_raise = h.bb if h.bb > h.last_raise else h.last_raise
        h.bets = 1
    elif kind == "straddle":
        live = add
        _straddle(h, s, add, seq)
    elif kind in ("missed_big", "new_player"):
        live = min(add, h.bb)
    elif kind == "ante" or kind in ("dead", "missed_small"):
        live = 0
    elif kind in ("bring_in", "kill"):
        live = add
    else:
        live = 0
    put_in(h, s, add, live)
    h.to_act = h.next_to_act(h.anchor) if h.anchor else 0


def _check_amount(h: HandState, kind: str, s: int, add: int, stack: int, seq: int) -> None:
    """An ante or a made-up blind of the wrong size. A player who posts his whole stack is
    all-in for less and plays for what he has (TOURN-SHORT-BLIND), never a breach."""
    short = add < stack
    if kind == "ante":
        ante = h.ante
        if ante and add != ante and (short or add > ante):
            h.flag(ANTE_AMOUNT, seq, f"{h.who(s)} posted an ante of {h.money(add)}, but the "
                   f"ante in this game is {h.money(ante)}.", seat=s, expected=ante, actual=add,
                   delta=add - ante)
    elif kind in ("missed_big", "new_player"):
        bb = h.bb
        if bb and add < bb and short:
            h.flag(BLIND_MISSED, seq, f"{h.who(s)} posted {h.money(add)} to be dealt in, but a "
                   "player coming in or making up a missed big blind posts the full big blind, "
                   f"{h.money(bb)}.", seat=s, expected=bb, actual=add, delta=add - bb)
    elif kind in ("dead", "missed_small"):
        sb = h.sb
        if sb and add != sb and (short or add > sb):
            why = ("only the missed small blind goes in dead; the big blind he makes up is live "
                   "and counts toward his call" if add > sb else
                   "a missed small blind is made up in full")
            h.flag(BLIND_MISSED, seq, f"{h.who(s)} posted {h.money(add)} dead, but the missed "
                   f"small blind is {h.money(sb)}: {why}.", seat=s, expected=sb, actual=add,
                   delta=add - sb)


def check_antes(h: HandState, seq: int) -> None:
    """Once the forced bets are in (before the first preflop action): when every player antes
    (more than one ante posted), a player dealt in with chips who posted none owes it. With a
    big-blind ante (one player posts it for the table) nobody else owes one."""
    if not h.ante or h.vh is not None:
        return
    dead = h.dead
    seats = h.seats
    if sum(1 for s in seats if dead[s]) < 2:
        return
    for s in seats:
        if not dead[s] and h.start[s] > 0 and h.contrib[s] < h.start[s]:
            h.flag(ANTE_AMOUNT, seq, f"{h.who(s)} was dealt in without posting the ante of "
                   f"{h.money(h.ante)} that every other player posted.", seat=s,
                   expected=h.ante, actual=0, delta=-h.ante)


def _straddle(h: HandState, s: int, add: int, seq: int) -> None:
    """A live straddle: cash only, and (montana) one, left of the big blind, twice the blind.
    A house may allow re-straddles (`straddle.max`: how many, 0 = any number; each is
    `straddle.multiple` times the bet it straddles) and a straddle from any seat
    (`straddle.position = "any"`: the action then starts left of the last straddler)."""
    st = h.st
    allowed = int(st.values.get("straddle.max", 1) or 0)
    anywhere = st.values.get("straddle.position", "left_of_big_blind") == "any"
    multiple = int(st.values.get("straddle.multiple", 2) or 2)
    before = h.straddles
    h.straddles = before + 1
    if before and (allowed == 1 or (allowed and before >= allowed)):
        h.flag(STRADDLE_BIGBET, seq, f"{h.who(s)} posted a second straddle; only one "
               "live straddle is allowed." if allowed == 1 else
               f"{h.who(s)} posted straddle {before + 1}; at most {allowed} are allowed.",
               seat=s)
    elif h.tournament:
        h.flag(STRADDLE_TOURN, seq, f"{h.who(s)} straddled in a tournament; the straddle "
               "is allowed in cash games only.", seat=s)
    elif h.structure == FL and not st.straddle_limit:
        h.flag(STRADDLE_LIMIT, seq, f"{h.who(s)} straddled in a fixed-limit game; a live "
               "straddle is not allowed at limit here.", seat=s)
    elif h.structure != FL and not st.straddle_bigbet:
        h.flag(STRADDLE_BIGBET, seq, f"{h.who(s)} straddled but this profile allows no "
               "straddle.", seat=s)
    else:
        order = h.order
        expected = 0
        after = h.straddle_seat or h.bb_seat
        if after in order and not anywhere:
            expected = order[(order.index(after) + 1) % len(order)]
        base = h.cur_bet if before else h.bb
        total = h.bet[s] + add
        if expected and s != expected:
            h.flag(STRADDLE_BIGBET, seq, f"{h.who(s)} straddled but only the player "
                   f"immediately left of the {'last straddle' if before else 'big blind'} "
                   f"({h.who(expected)}) may straddle.", seat=s, expected=expected, actual=s)
        elif total != multiple * base and add < h.stack[s]:
            what = "the bet it straddles" if before else "the big blind"
            h.flag(STRADDLE_BIGBET, seq, f"{h.who(s)} straddled {h.money(total)}; the straddle "
                   f"is exactly {multiple} times {what}, {h.money(multiple * base)}.", seat=s,
                   expected=multiple * base, actual=total, delta=total - multiple * base)
    h.straddle_seat = s
    h.anchor = s
    if h.structure == NL or h.structure != FL:
        h.last_raise = add if st.values.get("straddle.new_bring_in", True) else add - h.bb
        if h.last_raise < h.min_bet:
            h.last_raise = h.min_bet
    else:
        h.last_raise = add
