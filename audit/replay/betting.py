"""Betting legality and application: check, call, bet, raise, complete, fold, all-in; turn order.

`act()` verifies one logged action against the structure (fixed limit, pot limit, half pot,
no limit) and the profile, records findings, then applies it to the state. Findings never stop the
replay: the logged chips are what moved, so the replay follows them.
"""

from __future__ import annotations

from audit.replay.forced import open_preflop
from audit.replay.state import FL, NL, STREETS, HandState
from audit.rules.ids import (
    BET_ALLIN_HALFBET,
    BET_CAP_NO_UNCAP,
    BET_CAP_TOURNAMENT,
    BET_HALFPOT,
    BET_LIMIT_FIXED,
    BET_NL_MIN_BET,
    BET_NL_MIN_RAISE,
    BET_NL_NO_COMPLETE,
    BET_NL_NO_REOPEN,
    BET_NL_SUBMIN_ALLIN,
    BET_PL_MAX,
    BET_PL_SB_AS_BB,
    CHIP_SHORT_CALL,
    DQ_INCONSISTENT_LOG,
    HOUSE_TABLE_STAKES,
    ORDER_BUTTON_FIRST,
    ORDER_BUTTON_LATER,
    ORDER_HEADSUP,
    TURN_OOT_BINDING,
    TURN_OOT_CALL,
    TURN_OOT_CHECK,
)

# Data-quality ids (input that contradicts itself); registered in audit/rules/catalog/own.py.
DQ_AMOUNT = DQ_INCONSISTENT_LOG
DQ_ACTION = DQ_INCONSISTENT_LOG
HALF_POT = "half_pot"  # the game's structure value: replayed as pot limit, at half the maximum


def order_rule(h: HandState) -> str:
    """The action-order rule id for the current street."""
    if h.order_ids:  # stud games (audit/replay/family/hooks.py)
        return h.order_ids[0 if h.street == 0 else 1]
    if len(h.seats) == 2:
        return ORDER_HEADSUP
    return ORDER_BUTTON_FIRST if h.street == 0 else ORDER_BUTTON_LATER


def act(h: HandState, kind: str, s: int | None, amount: int | None, total: int | None,
        seq: int) -> None:
    """Verify and apply one betting action by seat `s` (fold/check/call/bet/raise/complete)."""
    if s is None or not 0 < s < h.size or not h.in_hand[s]:
        h.flag(DQ_ACTION, seq, f"A {kind} is logged for seat {s}, which was not dealt into "
               "this hand; the action is ignored.", seat=s if s and 0 < s < h.size else None)
        return
    if h.folded[s]:
        h.flag(DQ_ACTION, seq, f"{h.who(s)} is logged to {kind} after folding; a folded hand "
               "is dead and takes no further part, so the action is ignored.", seat=s)
        return
    if h.stack[s] == 0 and kind == "fold" and h.contrib[s]:
        h.flag(DQ_ACTION, seq, f"{h.who(s)} is logged to fold but was already all-in with no "
               "chips behind; an all-in player has no further action and keeps his claim to "
               "the pots he is in, so the fold is ignored.", seat=s)
        return
    if h.stack[s] == 0 and kind != "fold":
        if kind == "check" or (amount or 0) == 0:
            return  # an all-in player 'checking' through: harmless
        h.flag(DQ_ACTION, seq, f"{h.who(s)} is logged to {kind} but is already all-in with no "
               "chips behind; the action is ignored.", seat=s)
        return
    if h.street == 0 and h.n_actions == 0 and not h.oot:
        open_preflop(h)
    flush_held(h, s)
    exp = h.to_act
    if exp != s:
        if exp == 0:
            if h.remaining() <= 1:
                h.flag(DQ_ACTION, seq, f"{h.who(s)} is logged to {kind} after everyone else "
                       "folded; the hand was already over, so the action is ignored.", seat=s)
                return
            if kind in ("check", "fold") and h.cur_bet == h.bet[s]:
                return
            h.flag(DQ_ACTION, seq, f"{h.who(s)} is logged to {kind} on the "
                   f"{STREETS[h.street]} after the betting round was already complete.",
                   seat=s)
        else:
            held = h.oot.get(s)
            if held is None:
                h.flag(order_rule(h), seq, f"{h.who(s)} acted out of turn ({kind}) on the "
                       f"{STREETS[h.street]}: it was {h.who(exp)}'s turn to act; action goes "
                       "clockwise and the out-of-turn action is held until his turn.", seat=s)
            if kind == "fold":
                _apply(h, kind, s, amount, total, seq)
                # A fold out of turn stands, but it does not move the turn: the player whose
                # turn it was still acts next.
                h.to_act = exp
                if h.remaining() <= 1:
                    h.to_act = 0
                return
            h.oot[s] = (kind, h.cur_bet, seq, h.n_actions, amount, total)  # type: ignore[assignment]
            return
    held = h.oot.pop(s, None) if h.oot else None
    if held is not None:
        _check_oot(h, s, kind, held, seq)
    _apply(h, kind, s, amount, total, seq)


def flush_held(h: HandState, actor: int = 0) -> None:
    """A held out-of-turn action takes effect at the seat's turn when the log does not
    repeat it: called when the log moves on (another seat acts, or a card is dealt) while
    the seat holding it is the one to act. It binds only if the action has not changed."""
    guard = 0
    while h.oot and guard < 20:
        guard += 1
        nxt = h.to_act
        if not nxt or nxt == actor:
            return
        held = h.oot.pop(nxt, None)
        if held is None:
            return
        kind, level, seq, _, amount, total = held  # type: ignore[misc]
        if h.cur_bet != level:
            return  # the action changed: the held action no longer binds
        _apply(h, kind, nxt, amount, total, seq)


def _check_oot(h: HandState, s: int, kind: str, held: tuple, seq: int) -> None:
    """TURN-OOT-*: compare an in-turn action with the same seat's earlier out-of-turn one."""
    okind, level, oseq, n_then = held[0], held[1], held[2], held[3]
    changed_by_bet = h.cur_bet != level
    if okind == "check" and kind in ("bet", "raise"):
        h.flag(TURN_OOT_CHECK, seq, f"{h.who(s)} checked out of turn (event {oseq}) and then "
               f"made a {kind} at his turn; a player who checks out of turn may not bet or "
               "raise at his next turn.", seat=s, expected="check, call or fold", actual=kind)
        return
    if okind == "call" and kind == "raise":
        h.flag(TURN_OOT_CALL, seq, f"{h.who(s)} called out of turn (event {oseq}) and then "
               "raised at his turn; a player who calls out of turn may not turn it into a raise.",
               seat=s, expected="call or fold", actual="raise")
        return
    if kind == okind or h.st.oot == "etiquette":
        return
    binding = not changed_by_bet
    if h.st.oot == "uspa":
        binding = binding and h.n_actions == n_then
    if binding:
        h.flag(TURN_OOT_BINDING, seq, f"{h.who(s)} acted out of turn ({okind}, event {oseq}) "
               f"and then did something else ({kind}) at his turn although the action to him "
               "had not changed; the out-of-turn action was binding.", seat=s,
               expected=okind, actual=kind)


def _apply(h: HandState, kind: str, s: int, amount: int | None, total: int | None,
           seq: int) -> None:
    bet = h.bet
    stack = h.stack[s]
    cur = h.cur_bet
    owed = cur - bet[s]
    street = h.street
    if kind == "fold":
        h.folded[s] = True
        h.folded_street[s] = STREETS[street]
        if owed > 0 and h.aggressor:
            h.faced_from[s] = h.player[h.aggressor]
        h.acted[s] = True
        h.last_actor = s
        h.n_actions += 1
        h.to_act = 0 if h.remaining() <= 1 else h.next_to_act(s)
        return
    # chips added by this action
    if amount is not None:
        add = amount
        if total is not None and total != bet[s] + amount and kind != "check":
            h.flag(DQ_AMOUNT, seq, f"{h.who(s)}'s {kind} moves {h.money(amount)} but says the "
                   f"round total is {h.money(total)}; with {h.money(bet[s])} already in, the "
                   f"chips make it {h.money(bet[s] + amount)}. The replay follows the chips.",
                   seat=s, expected=bet[s] + amount, actual=total,
                   delta=total - bet[s] - amount)
    elif total is not None:
        add = total - bet[s]
    elif kind == "call":
        add = owed if owed < stack else stack
    else:
        add = 0
    if add < 0:
        add = 0
    if add > stack:
        h.flag(HOUSE_TABLE_STAKES, seq, f"{h.who(s)}'s {kind} puts in {h.money(add)} but he "
               f"had only {h.money(stack)} in front of him; only the chips on the table at the "
               "start of the hand play (table stakes), so the excess is ignored.", seat=s,
               expected=stack, actual=add, delta=add - stack)
        add = stack
    new_total = bet[s] + add
    all_in = add == stack and add > 0
    if kind == "check":
        if owed > 0:
            h.flag(DQ_ACTION, seq, f"{h.who(s)} is logged to check while facing a bet of "
                   f"{h.money(owed)} to call; a player facing a bet must call, raise or fold.",
                   seat=s, expected="call, raise or fold", actual="check")
        add = 0
        new_total = bet[s]
    elif kind == "call" or new_total <= cur:
        if kind != "call" and not all_in:
            h.flag(DQ_ACTION, seq, f"{h.who(s)}'s {kind} to {h.money(new_total)} does not go "
                   f"above the current bet of {h.money(cur)}; it is treated as a call.",
                   seat=s, expected=f"more than {cur}", actual=new_total)
        if owed <= 0:
            if add > 0:
                h.flag(DQ_AMOUNT, seq, f"{h.who(s)} is logged to call {h.money(add)} with "
                       "nothing to call; the chips are counted as put in.", seat=s,
                       expected=0, actual=add, delta=add)
        elif add < owed and not all_in and not h.covers_all_ins(s, new_total):
            h.flag(CHIP_SHORT_CALL, seq, f"{h.who(s)} called {h.money(add)} but owed "
                   f"{h.money(owed)} and had chips to cover it; a short call must be made up "
                   f"(short by {h.money(owed - add)}).", seat=s, expected=owed, actual=add,
                   delta=add - owed)
        elif add > owed:
            h.flag(DQ_AMOUNT, seq, f"{h.who(s)} called with {h.money(add)} but only "
                   f"{h.money(owed)} was owed; the extra {h.money(add - owed)} is treated as "
                   "returned.", seat=s, expected=owed, actual=add, delta=add - owed)
            add = owed
            new_total = cur
        if add > 0:
            h.calls[s] += 1
            if street == 0:
                h.vpip[s] = True
        if owed > 0 and h.aggressor:
            h.faced_from[s] = h.player[h.aggressor]
    else:
        _raise(h, kind, s, cur, owed, new_total, all_in, seq)
    # apply chips
    if add:
        h.stack[s] = stack - add
        h.contrib[s] += add
        bet[s] = new_total
        if new_total > h.cur_bet:
            h.cur_bet = new_total
        if stack == add:
            h.allin_street[s] = STREETS[street]
    h.acted[s] = True
    h.acted_level[s] = h.cur_bet
    h.acted_fr[s] = h.fr_count
    h.last_actor = s
    h.n_actions += 1
    h.to_act = h.next_to_act(s)


def _raise(h: HandState, kind: str, s: int, cur: int, owed: int, new_total: int,
           all_in: bool, seq: int) -> None:
    """Sizing, cap and reopening checks for a bet/raise/complete to `new_total`."""
    increment = new_total - cur
    opening = cur == 0
    st = h.st
    if owed > 0 and h.aggressor:
        h.faced_from[s] = h.player[h.aggressor]
    if h.street == 0:
        h.vpip[s] = True
        h.pfr[s] = True
    h.aggr[s] += 1
    if h.structure == FL:
        _raise_fixed(h, kind, s, cur, new_total, all_in, seq)
        h.aggressor = s
        return
    what = "bet" if opening else "raise"
    if kind == "complete":
        h.flag(BET_NL_NO_COMPLETE, seq, f"{h.who(s)} is logged to 'complete' the bet in a "
               "big-bet game; completing exists only at fixed limit, so this is a raise.",
               seat=s)
    if h.acted[s] and not opening:
        reopened = h.fr_count > h.acted_fr[s] or (
            st.nl_reopen_aggregate and cur - h.acted_level[s] >= h.last_raise)
        if not reopened:
            h.flag(BET_NL_NO_REOPEN, seq, f"{h.who(s)} re-raised to {h.money(new_total)} "
                   f"after already acting, facing only an incomplete all-in raise (to "
                   f"{h.money(cur)}, short of a full raise of {h.money(h.last_raise)}); he may "
                   "only call or fold.", seat=s, expected="call or fold", actual=new_total)
    if not all_in and increment < h.last_raise:
        need = cur + h.last_raise
        if opening:
            h.flag(BET_NL_MIN_BET, seq, f"{h.who(s)} bet {h.money(new_total)}, below the "
                   f"minimum bet of {h.money(h.last_raise)}, with chips to bet more; every bet "
                   f"must be at least the minimum (short by {h.money(need - new_total)}).",
                   seat=s, expected=need, actual=new_total, delta=new_total - need)
        elif h.bet_was_short:
            h.flag(BET_NL_SUBMIN_ALLIN, seq, f"{h.who(s)} raised to {h.money(new_total)} "
                   f"over an all-in of {h.money(cur)} that was less than the minimum bet; a "
                   f"raise must add at least the full minimum bet, i.e. to {h.money(need)}.",
                   seat=s, expected=need, actual=new_total, delta=new_total - need)
        else:
            h.flag(BET_NL_MIN_RAISE, seq, f"{h.who(s)} raised to {h.money(new_total)} but "
                   f"the minimum raise was to {h.money(need)} (the last full bet or raise was "
                   f"{h.money(h.last_raise)}); short by {h.money(need - new_total)}.", seat=s,
                   expected=need, actual=new_total, delta=new_total - need)
    if h.structure != NL and h.game.get("structure") == HALF_POT:
        _half_pot_max(h, s, what, cur, owed, new_total, seq)
    elif h.structure != NL:
        pot = 0
        for c in h.contrib:
            pot += c
        mx = cur + pot + owed
        alt = mx
        if h.street == 0 and h.bb_seat and not h.acted[h.bb_seat] and h.sb_seat:
            alt = mx + max(0, h.bb - h.sb)
        if new_total > mx:
            allowed_alt = st.pl_sb_as_bb_tourn if h.tournament else st.pl_sb_as_bb
            if new_total <= alt and allowed_alt:
                pass
            elif new_total <= alt:
                h.flag(BET_PL_SB_AS_BB, seq, f"{h.who(s)} made it {h.money(new_total)}, "
                       "which is only legal when the small blind is counted as a full big "
                       f"blind; this game uses strict pot limit, maximum {h.money(mx)}.",
                       seat=s, expected=mx, actual=new_total, delta=new_total - mx)
            else:
                lim = alt if allowed_alt else mx
                h.flag(BET_PL_MAX, seq, f"{h.who(s)} {what} to {h.money(new_total)} but the "
                       f"pot-limit maximum was {h.money(lim)} (current bet plus the pot after "
                       f"his call); over by {h.money(new_total - lim)}.", seat=s,
                       expected=lim, actual=new_total, delta=new_total - lim)
    if increment >= h.last_raise:
        h.last_raise = increment
        h.fr_count += 1
        h.bet_was_short = False
    elif opening:
        h.bet_was_short = True
    h.aggressor = s


def _half_pot_max(h: HandState, s: int, what: str, cur: int, owed: int, new_total: int,
                  seq: int) -> None:
    """BET-HALFPOT (001 3.2.5.5.1.1): a half-pot wager goes at most half the pot. The opening
    bet of round 1 may be up to half the total antes; a raise, like a pot-limit one, counts the
    pot after his call, so the largest total is the current bet plus half of that. Half of an
    odd pot is rounded up: the seed does not say which way, so the larger maximum is the one
    a log can be held to."""
    pot = owed
    for c in h.contrib:
        pot += c
    lim = cur + (pot + 1) // 2
    if new_total > lim:
        h.flag(BET_HALFPOT, seq, f"{h.who(s)}'s {what} to {h.money(new_total)} is over the "
               f"half-pot maximum of {h.money(lim)}, the current bet plus half the pot after "
               f"his call ({h.money(pot)}); over by {h.money(new_total - lim)}.", seat=s,
               expected=lim, actual=new_total, delta=new_total - lim)


def _raise_fixed(h: HandState, kind: str, s: int, cur: int, new_total: int, all_in: bool,
                 seq: int) -> None:
    st = h.st
    size = h.small_bet if h.street < h.big_from else h.big_bet
    other = h.big_bet if h.street < h.big_from else h.small_bet
    expected = h.last_raise + size  # in fixed limit, last_raise holds the last full level
    what = "bet" if cur == 0 else "raise"
    if new_total != expected and not (all_in and new_total < expected):
        rid = BET_LIMIT_FIXED
        if new_total == h.last_raise + other and h.street_rule:
            rid = h.street_rule
        h.flag(rid, seq, f"{h.who(s)} made a {what} to {h.money(new_total)} on the "
               f"{STREETS[h.street]}; at fixed limit every bet and raise this round is exactly "
               f"{h.money(size)}, so it should have been to {h.money(expected)}.", seat=s,
               expected=expected, actual=new_total, delta=new_total - expected)
    if h.acted[s] and cur > 0:
        reopened = h.fr_count > h.acted_fr[s] or (
            st.allin_aggregate and cur - h.acted_level[s] >= size)
        if not reopened:
            h.flag(BET_ALLIN_HALFBET, seq, f"{h.who(s)} raised after already acting, facing "
                   f"only an all-in of less than half a bet ({h.money(cur - h.acted_level[s])} "
                   f"more, half a bet is {h.money((size + 1) // 2)}); the betting was not "
                   "reopened for him, so he could only call or fold.", seat=s,
                   expected="call or fold", actual=new_total)
    increment = new_total - cur
    # a stud completion (bring-in to a full bet) counts as the bet, not as a raise
    counts = (increment >= size or ((kind == "complete" or h.vh is not None)
                                     and new_total - h.last_raise >= size)
              or (all_in and 2 * (new_total - h.last_raise) >= size))
    if counts and cur > 0 and h.bets >= 1 + st.cap_multi:
        live = h.contestants_with_chips()
        if live >= 3:
            h.flag(h.cap_rule, seq, f"{h.who(s)} made raise number {h.bets} on the "
                   f"{STREETS[h.street]} with {live} players still in with chips; fixed limit "
                   f"allows a bet and {st.cap_multi} raises per round.", seat=s,
                   expected=1 + st.cap_multi, actual=h.bets + 1)
        elif h.capped and not st.fold_uncaps:
            h.flag(BET_CAP_NO_UNCAP, seq, f"{h.who(s)} raised after the betting was capped "
                   f"at a bet and {st.cap_multi} raises; a later fold leaving two players does "
                   "not reopen the raising.", seat=s, expected=1 + st.cap_multi,
                   actual=h.bets + 1)
        elif live <= 2 and not h.tournament and st.cap_headsup:
            pass
        elif live <= 2 and h.tournament and st.cap_headsup_tourn:
            pass
        elif live <= 2 and h.tournament:
            h.flag(BET_CAP_TOURNAMENT, seq, f"{h.who(s)} made raise number {h.bets} heads-up "
                   f"in a limit tournament; the cap of a bet and {st.cap_multi} raises stays "
                   "until the event is down to two players.", seat=s,
                   expected=1 + st.cap_multi, actual=h.bets + 1)
        else:
            h.flag(h.cap_rule, seq, f"{h.who(s)} made raise number {h.bets} on the "
                   f"{STREETS[h.street]} with {live} players still in with chips; fixed limit "
                   f"allows a bet and {st.cap_multi} raises per round.", seat=s,
                   expected=1 + st.cap_multi, actual=h.bets + 1)
    if counts:
        # an all-in of half a bet or more counts as a full bet; under allin.limit_full_level
        # the next raise goes on top of that full bet, not on top of the all-in
        h.last_raise = expected if (st.allin_full_level and all_in
                                    and new_total < expected) else new_total
        h.bets += 1
        h.fr_count += 1
        if h.bets >= 1 + st.cap_multi and h.contestants_with_chips() >= 3:
            h.capped = True
