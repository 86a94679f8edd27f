"""THE entry point: replay one hand's events under a rule profile -> findings + projections.

`replay_hand` is a pure function: no I/O, no clock, no randomness. The same events and
profile always give the same result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from audit.poker.cards import parse_cards
from audit.replay.awards import settle_hand
from audit.replay.betting import act
from audit.replay.dealing import Deck, burn, check_counts, deal, irish_discard
from audit.replay.events import HandEvents, hands_from_table
from audit.replay.family.hooks import hooks_for
from audit.replay.forced import new_round, post
from audit.replay.kill import post_kill
from audit.replay.live.tracker import LiveTable
from audit.replay.projections import project
from audit.replay.shortdeck import SHORT_VARIANTS, ShortDeck, post_button_blind
from audit.replay.site_totals import check_site_totals, stated_total_pot
from audit.replay.state import HandState
from audit.rules.findings import Finding
from audit.rules.ids import DQ_INCONSISTENT_LOG
from audit.rules.settings import Settings, as_settings

UNKNOWN_STACK = 1 << 62
_ACTIONS = frozenset({"fold", "check", "call", "bet", "raise", "complete"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayResult:
    """Findings and projection rows of one hand (timeline only when traced)."""

    findings: tuple[Finding, ...]
    hand: dict[str, Any]
    players: tuple[dict[str, Any], ...]
    timeline: tuple[dict[str, Any], ...] | None = None


def replay_hand(hand: HandEvents, profile: Any = None, *, trace: bool = False) -> ReplayResult:
    """Replay one hand; `profile` is a Profile (audit.rules.profiles), a Settings, or None
    (Montana)."""
    st = as_settings(profile)
    game = hand.game or {}
    ho = game.get("house_overrides")
    if ho:
        st = st.with_house(ho)
    h = HandState(hand.hand_id, game, st)
    vh = h.vh = hooks_for(h)  # stud and draw games (audit/replay/family/hooks.py); None otherwise
    kinds = hand.kind
    seats = hand.seat
    n = len(kinds)
    # seats first (they come right after hand_started)
    max_seat = 0
    for i in range(n):
        if kinds[i] == "seat":
            s = seats[i]
            if s is not None and s > max_seat:
                max_seat = s
    b = h.button or 0
    h.alloc(max(max_seat, b, 1))
    players = hand.player
    amounts = hand.amount
    totals = hand.total
    details = hand.detail
    cards = hand.cards
    seqs = hand.seq
    started = False
    short = h.variant in SHORT_VARIANTS  # 6+ hold'em: 36 cards, a button blind
    # a short-deck game dealt with a small and a big blind (WPN's Six Plus Hold'em) has no
    # button blind: its big blind is an ordinary big blind
    short_bb = short and "small_blind" not in details
    deck = ShortDeck() if short else Deck()
    board_seqs: list[int] = []
    timeline: list[dict[str, Any]] | None = [] if trace else None
    # The live-table layer (audit/replay/live/tracker.py) only for hands with a physical layer: the
    # two C-level scans are all an online hand pays.
    live = LiveTable(st.values) if ("chips" in kinds or "declare" in kinds) else None
    end_seq = seqs[-1] if n else 0
    stated_pot = None  # the room's own total pot (audit/replay/site_totals.py)
    for i in range(n):
        kind = kinds[i]
        seq = seqs[i]
        if kind in _ACTIONS:
            if not started:
                started = _start(h)
            if vh is not None:
                vh.before_action(h, kind, seats[i], amounts[i], totals[i], seq)
            if live is not None:
                live.before_action(h, kind, seats[i], amounts[i], totals[i], seq)
            act(h, kind, seats[i], amounts[i], totals[i], seq)
            if live is not None:
                live.after_action(h)
        elif kind == "post":
            if not started:
                started = _start(h)
            if vh is not None and vh.post(h, details[i], seats[i], amounts[i], seq):
                pass
            elif vh is None and details[i] == "kill":
                # a kill in hold'em or Omaha raises the limits as in the draw games
                post_kill(h, seats[i], amounts[i], seq, killed=bool(h.kill_seat))
                h.kill_seat = h.kill_seat or seats[i] or 0
            elif short and (details[i] == "button_blind"
                            or (short_bb and details[i] == "big_blind")):
                post_button_blind(h, seats[i], amounts[i], seq)
            else:
                post(h, details[i], seats[i], amounts[i], seq)
        elif kind == "deal":
            if not started:
                started = _start(h)
            if details[i] == "board" or seats[i] is None:
                board_seqs.append(seq)
            if vh is None or not vh.deal(h, deck, details[i], seats[i], cards[i], seq):
                deal(h, deck, details[i], seats[i], cards[i], seq)
        elif kind == "seat":
            s = seats[i]
            if s is not None and 0 < s < h.size and details[i] != "sitting_out":
                h.in_hand[s] = True
                h.player[s] = players[i]
                stack = amounts[i]
                if stack is None:  # stack not logged: never treat the seat as short
                    stack = UNKNOWN_STACK
                h.start[s] = stack
                # at a capped table no player may put more than the cap into one hand: the
                # capped player is all in for the hand while the chips behind stay his
                h.stack[s] = min(stack, st.hand_cap) if st.hand_cap > 0 else stack
        elif kind == "award":
            s = seats[i]
            d = details[i] or ""
            h.awards.append((s or 0, amounts[i] or 0, d))
            if d == "uncalled":
                h.uncalled_logged = True
        elif kind == "show" or kind == "muck":
            if not started:
                started = _start(h)
            if vh is not None:
                vh.show(h, deck, kind, seats[i], cards[i], seq)
            else:
                _show(h, deck, kind, seats[i], cards[i], seq)
        elif kind == "hand_ended":
            d = details[i] or ""
            if "winnings=unrecorded" in d or "winnings=absent" in d:
                h.awards_unrecorded = True
            stated_pot = stated_total_pot(d)
        elif kind == "draw" and vh is None and h.variant == "irish":
            irish_discard(h, seats[i], cards[i], seq)
        elif kind in ("draw", "stand_pat") and vh is not None:
            if not started:
                started = _start(h)
            vh.draw(h, deck, kind, seats[i], amounts[i], cards[i], seq)
            if live is not None:
                live.drew(h, kind, seats[i], seq)
        elif kind == "burn":
            burn(h, seq)
        elif kind == "annotation" and details[i] == "all_in_protection":
            _all_in_protection(h, seats[i])
        elif kind == "rake":
            h.rake_logged += amounts[i] or 0
        elif kind == "pot_added":
            h.room_added += amounts[i] or 0
        elif live is not None and (kind == "declare" or kind == "chips"):
            # a stud seventh-street freeze is the stud hooks' (audit/replay/family/hooks.py)
            if not (kind == "declare" and vh is not None
                    and vh.declare(h, seats[i], details[i], seq)):
                live.physical(h, kind, seats[i], amounts[i], details[i], seq, started)
        elif kind == "hand_started":
            d = details[i] or ""
            if d:
                h.refunds_implicit = "refunds=implicit" in d
                h.rake_implicit = "rake=implicit" in d
        if timeline is not None and started:
            timeline.append({
                "seq": seq, "kind": kind, "seat": seats[i], "pot": sum(h.contrib),
                "to_call": h.cur_bet, "to_act": h.to_act or None,
                "stacks": {s: h.stack[s] for s in h.seats},
            })
    if not started:
        _start(h)
    if live is not None:
        live.finish(h, end_seq)
    if vh is not None:
        vh.finish(h, end_seq)
    else:
        check_counts(h, board_seqs)
    out = settle_hand(h, end_seq)
    check_site_totals(h, out, stated_pot, end_seq)
    findings = tuple(h.findings)
    hand_row, player_rows = project(h, out, hand.ts[0] if n else None,
                                    hand.table_id[0] if n else None, len(findings))
    return ReplayResult(findings=findings, hand=hand_row, players=player_rows,
                        timeline=tuple(timeline) if timeline is not None else None)


def _all_in_protection(h: HandState, s: int | None) -> None:
    """A room's disconnection protection (profile allin.disconnect_protection): the player
    stays in the hand for what he has put in, as if all in; his chips behind stay his and out
    of play. Under a profile without it the note changes nothing (he simply failed to act)."""
    if not h.st.allin_protection or s is None or not 0 < s < h.size or not h.in_hand[s] \
            or h.folded[s] or h.stack[s] <= 0:
        return
    h.stack[s] = 0
    if h.to_act == s:
        h.to_act = h.next_to_act(s)


def _start(h: HandState) -> bool:
    if h.vh is not None:
        h.vh.start(h)
        return True
    h.seat_order()
    new_round(h, 0)
    return True


def _show(h: HandState, deck: Deck, kind: str, s: int | None, text: str | None,
          seq: int) -> None:
    if s is None or not 0 < s < h.size or not h.in_hand[s]:
        return
    cards = parse_cards(text) if text else ()
    if kind == "muck":
        h.mucked[s] = True
        return
    known_hole = [c for c in h.hole[s] if c >= 0]
    # a second show restates the first (an all-in stud hand shown on 3rd street and again at
    # the end; a run-it-twice shows the hand at each showdown): the cards already shown are
    # not dealt again
    prior = h.shown[s] or ()
    before = set(known_hole) | set(prior)
    new = tuple(c for c in cards if c >= 0 and c not in before)
    unknown = len(h.hole[s]) - len(known_hole)  # face-down cards the log did not name
    if known_hole and len(new) > unknown:
        h.flag(DQ_INCONSISTENT_LOG, seq, f"{h.who(s)} showed cards that differ from the "
               "hole cards logged for him; the shown cards are used.", seat=s,
               expected=" ".join(map(str, known_hole)), actual=text)
    deck.add(h, new, seq, f"{h.who(s)}'s shown cards")
    h.shown[s] = cards if not prior else prior + tuple(c for c in cards if c not in prior)
    h.showdown = True


def replay_table(table: pa.Table, profile: Any = None
                 ) -> tuple[list[Finding], list[dict[str, Any]], list[dict[str, Any]]]:
    """Replay every hand of an event table: (findings, hands rows, hand_players rows)."""
    st: Settings = as_settings(profile)
    findings: list[Finding] = []
    hands: list[dict[str, Any]] = []
    players: list[dict[str, Any]] = []
    for hand in hands_from_table(table):
        r = replay_hand(hand, st)
        findings.extend(r.findings)
        hands.append(r.hand)
        players.extend(r.players)
    return findings, hands, players
