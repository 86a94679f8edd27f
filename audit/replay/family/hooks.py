"""Replay hooks for the stud and draw families, called from hand.py for any variant listed in
audit/poker/variants.py: streets by card count (stud) or by draw phase (draw), the bring-in,
first to act by board, the open pair, draws and hand sizes, card counts, kill blinds, and the
showdown with each game's evaluator and odd-chip rule. Betting legality itself stays in
betting.py; kill blinds are in kill.py, stud cards dealt the wrong way in stud_deal.py, the
draw-game rules (openers, draw counts, the sevens rule) in draw_rules.py, jokers in
audit/poker/jokers.py.
"""

from __future__ import annotations

import json

from audit.poker.cards import JOKER, parse_cards
from audit.poker.jokers import JOKER_GAMES, game_strength
from audit.poker.stud import bring_in_seat, first_by_board, has_open_pair, oddchip_order
from audit.poker.variants import VariantSpec, spec_of
from audit.replay.betting import flush_held
from audit.replay.dealing import Deck
from audit.replay.family.draw_exposed import Exposed, check_held, exposed, replaced
from audit.replay.family.draw_miscall import (
    Claim,
    check_miscalls,
    check_pair_calls,
    read_claim,
    says_pair,
)
from audit.replay.family.draw_rules import (
    check_draw_deal,
    check_draw_order,
    check_openers,
    check_short_predraw,
    sevens_rule,
)
from audit.replay.family.jacks import (
    FalseOpener,
    SplitOpeners,
    award_rule,
    check_split_openers,
    false_opener,
    note_predraw_action,
    opened_hidden,
    rule_false_opener,
    rule_pots,
)
from audit.replay.family.stud_antes import ante_rule, check_antes
from audit.replay.family.stud_deal import (
    check_common,
    check_faces,
    check_round_cards,
    check_seventh,
    check_start,
    check_stud_burns,
    dead_start_played,
)
from audit.replay.forced import new_round, put_in, table_stakes
from audit.replay.kill import post_kill, voluntary_kill
from audit.replay.live.words import Said, parse_declaration
from audit.replay.pots import split
from audit.replay.showdown import PotResult, clockwise
from audit.replay.state import FL, HandState
from audit.rules.ids import (
    A5_CHECKRAISE,
    ANTE_DRAW,
    BET_CAP_TWOROUND,
    BET_STUD_OPENPAIR,
    DEAL_PREMATURE,
    DQ_INCONSISTENT_LOG,
    DQ_UNVERIFIABLE_AWARD,
    DRAW_FIVE_CARD_HAND,
    DRAWHI_ALLIN_ANTES,
    LOWBALL_OPEN,
    ORDER_BUTTON_FIRST,
    ORDER_BUTTON_LATER,
    ORDER_DRAW_AFTER,
    ORDER_HEADSUP,
    ORDER_KILL,
    ORDER_MISSISSIPPI,
    ORDER_STUD_7TH_UP,
    ORDER_STUD_ALLIN_STARTER,
    ORDER_STUD_COMMON,
    RAZZ_NO_OPENPAIR,
    STUD_BRINGIN_ALLIN,
    STUD_BRINGIN_AMOUNT,
    STUD_BRINGIN_OPTIONS,
    STUD_CARD_COUNT,
    STUD_PREMATURE,
    STUD_SHORT_DECK,
    STUD_WRONG_LOWCARD,
    STUDHL_NO_OPENPAIR,
)

DQ = DQ_INCONSISTENT_LOG
_ORDINALS = {2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


class FamilyHooks:
    """Per-hand state and event handlers for one stud or draw hand."""

    __slots__ = ("spec", "stud", "up", "common", "pending", "bring_seat", "bring_done",
                 "allin_lowcard",
                 "open_pair", "big_seen", "phase", "in_draw", "drawn", "checked",
                 "bringin_fold", "a5_checkraise", "deck", "killer", "kill_voluntary", "sevens",
                 "pre_draw", "sevens_checks", "got", "faces", "exposed_start", "dead_start",
                 "short_flagged", "last_deal_seq", "opener", "exposed", "short_wager",
                 "base_order", "anted", "ante_rule", "ante_rule_id", "wrong_bring",
                 "structure_flagged", "opened", "min_open_2bb", "frozen", "high_card",
                 "draw_pos", "draw_order_flagged", "draw_served", "first_action_seq",
                 "acted_before_deal", "split", "burn_mark", "street_burns", "claims",
                 "mucks", "spoken", "pair_said", "shows", "false_open", "order_unknown",
                 "unlogged_noted")

    def __init__(self, h: HandState, spec: VariantSpec) -> None:
        self.spec = spec
        self.stud = spec.family == "stud"
        self.up: dict[int, list[int]] = {}
        self.common: list[int] = []
        self.pending = False
        self.bring_seat = 0
        self.bring_done = False
        self.allin_lowcard = 0  # stud: the lowcard, all in for his ante (no bring-in owed)
        self.open_pair = False
        self.big_seen = False
        self.phase = 0
        self.in_draw = False
        self.drawn: dict[int, int] = {}
        self.got: dict[int, int] = {}  # draw: replacement cards each seat got this draw
        self.faces: dict[int, str] = {}  # stud: how each seat's cards came, "d"own / "u"p
        self.exposed_start: set[int] = set()  # stud: a hole card dealt up on the first street
        self.dead_start: dict[int, int] = {}  # stud: both hole cards dealt up (dead hand)
        self.short_flagged = False
        self.last_deal_seq: int | None = None
        self.opener = 0  # draw: who made the first bet before the draw
        self.exposed: dict[int, list[Exposed]] = {}  # draw: cards dealt face up, unchecked
        self.checked: set[int] = set()
        self.deck: Deck | None = None
        self.killer = 0  # the seat that posted this deal's kill blind
        self.kill_voluntary = False  # that kill was optional (lowball), not required
        self.pre_draw: list[int] | None = None  # each seat's chips in before the first draw
        self.sevens_checks: dict[int, int] = {}  # seat -> seq of his first check after the draw
        # an all-in forced wager short of the normal amount: (its level, the normal amount,
        # the rule id); the others still come in for the normal amount (STUD-BRINGIN-ALLIN)
        self.short_wager: tuple[int, int, str] | None = None
        # a bring-in by the wrong seat: (his seat, his wager, the action count right after it)
        self.wrong_bring: tuple[int, int, int] | None = None
        self.structure_flagged: set[tuple[str, int]] = set()  # (rule, seat or -round-1)
        self.opened = False  # lowball: someone has opened (bet or raised) before the draw
        self.frozen: dict[int, int] = {}  # stud: seat -> chips kept back by a 7th-street freeze
        self.draw_pos = -1  # draw: the furthest seat (index in h.order) served this draw
        self.draw_order_flagged = False
        self.draw_served: set[int] = set()  # draw: seats served (or who stated a draw)
        self.first_action_seq: int | None = None  # the first betting action of the hand
        self.acted_before_deal = False  # someone's first cards came after the first action
        self.split: SplitOpeners | None = None  # jacks: an opener whose hand was not logged
        self.false_open: FalseOpener | None = None  # jacks: an opener logged without openers
        self.burn_mark = 0  # stud: burns logged before the current street
        self.claims: list[Claim] = []  # lowball: hands called at the showdown
        self.mucks: dict[int, int] = {}  # seat -> seq of his muck
        self.spoken = False  # the log records speech (declare events): a live table
        self.pair_said: set[int] = set()  # lowball: seats that announced "pair"
        self.shows: dict[int, int] = {}  # seat -> seq of his show
        self.street_burns: dict[int, tuple[int, int]] = {}  # stud street -> (burns, its seq)
        # stud: upcards the log does not show decide who starts this round: the log's first
        # actor starts it (noted once per hand as data quality)
        self.order_unknown = False
        self.unlogged_noted = False
        # big-bet Mississippi: no bring-in; the high card opens round 1 and may not check
        self.high_card = 0 if spec.name != "mississippi" or h.structure == FL else -1
        # LOWBALL-OPEN: the minimum open is the big blind (a call) or twice it (a raise)
        self.min_open_2bb = str(h.st.values.get("lowball.min_open", "bb")).lower() == "2bb"
        st = h.st
        self.sevens = (spec.a5_book_rules and h.structure == FL
                       and bool(st.values.get("a5.sevens_rule", True)))
        self.bringin_fold = bool(st.values.get("stud.bringin_fold", False))
        self.a5_checkraise = bool(st.values.get("a5.checkraise", False))
        h.big_from = spec.big_from
        h.street_rule = spec.street_rule
        h.order_ids = (spec.order_first, spec.order_later) if spec.order_first else None
        self.base_order = h.order_ids
        self.anted: set[int] = set()  # seats that posted an ante
        self.ante_rule_id = ante_rule(spec.family, spec.name)
        self.ante_rule = self.ante_rule_id  # judged once, at the first wager (then None)
        h.hole_n = spec.max_cards
        if spec.evaluator == "hilo8":
            h.hilo = True
        if spec.two_round and h.structure == FL:
            two = st.values.get("cap.two_round", st.cap_multi)
            h.st = st.with_house(json.dumps({"cap.multi_round": two}))
            h.cap_rule = BET_CAP_TWOROUND

    # --- streets ------------------------------------------------------------------------

    def start(self, h: HandState) -> None:
        h.seat_order()
        new_round(h, 0)
        if self.stud:
            h.to_act = 0
            self.pending = True

    def street_name(self, h: HandState) -> str:
        if self.spec.name == "mississippi":
            return f"in round {h.street + 1}"
        if self.stud:
            counts = self.spec.counts
            n = counts[h.street] if h.street < len(counts) else 0
            return f"on {_ORDINALS.get(n, str(n) + 'th')} street"
        return "before the draw" if h.street == 0 else f"after draw {h.street}"

    def _next_street(self, h: HandState, k: int, seq: int) -> None:
        if h.oot:
            flush_held(h)
        if h.to_act and h.remaining() > 1 and not self.pending:
            h.flag(STUD_PREMATURE if self.stud else DEAL_PREMATURE, seq,
                   f"Cards for the next round were dealt before the betting {self.street_name(h)}"
                   f" was complete ({h.who(h.to_act)} still had to act); cards dealt early "
                   "are taken out of play and the betting finishes first.", seat=h.to_act)
        new_round(h, k)
        if self.opener and h.to_act and self._opener_first(h):
            # after the draw the opener acts first, or the next player if he folded
            o = self.opener
            h.to_act = o if h.live(o) else h.next_to_act(o)
            first = h.order_ids[0] if h.order_ids else ORDER_BUTTON_FIRST
            h.order_ids = (first, ORDER_DRAW_AFTER)
        h.big_from = self.spec.big_from
        h.street_rule = self.spec.street_rule
        self.draw_pos = -1  # the next draw's order starts afresh
        self.draw_order_flagged = False
        self.draw_served.clear()
        self.checked.clear()
        self.big_seen = False
        self.open_pair = False
        self.short_wager = None
        if self.stud:
            self.street_burns[k] = (h.burns - self.burn_mark, seq)
            self.burn_mark = h.burns
            h.order_ids = self.base_order  # an all-in starter's id holds for one round only
            h.to_act = 0
            self.pending = True

    def _allin_starter(self, h: HandState, starter: int) -> None:
        """ORDER-STUD-ALLIN-STARTER: the player who should start the round is all-in, so the
        next active player to his left starts it; order findings this round cite the rule."""
        h.to_act = h.next_to_act(starter)
        h.order_ids = (ORDER_STUD_ALLIN_STARTER, ORDER_STUD_ALLIN_STARTER)

    def _opener_first(self, h: HandState) -> bool:
        """ORDER-DRAW-AFTER: jacks, and draw high dealt with an ante and no blinds (a table
        with blinds, as online sites deal draw high, keeps the button order after the draw)."""
        if self.spec.needs_openers:
            return True
        return self.ante_rule_id == ANTE_DRAW and not h.bb_seat and not h.sb_seat

    def _resolve(self, h: HandState) -> None:
        """First to act once a stud street's cards are all out."""
        self.pending = False
        alive = [s for s in h.order if not h.folded[s]]
        if h.street == 0 and self.high_card:
            # big-bet Mississippi (001 3.2.5.5.1.1): the high card speaks first and must bet
            # or fold (ORDER-MISSISSIPPI)
            boards = {s: self.up.get(s, []) for s in alive if s not in self.dead_start}
            best = first_by_board(boards, h.order, False)
            self.high_card = best
            if best and not h.live(best):
                self._allin_starter(h, best)
            else:
                h.to_act = best
            return
        if h.street == 0:
            # an exposed hole card is his first up-dealt card; a dead hand brings in nothing
            up = {s: self.up[s][0 if s in self.exposed_start else -1] for s in alive
                  if self.up.get(s) and s not in self.dead_start}
            if any(c < 0 for c in up.values()):
                self._unlogged_upcards(h, "who brings in")
                return
            b = bring_in_seat(up, self.spec.bring_in)
            if b in self.exposed_start:
                # STUD-EXPOSED-START: the next player may fold, bring in or complete
                self.bring_seat = 0
                h.to_act = h.next_to_act(b)
                return
            self.bring_seat = b
            if b and h.stack[b] > 0:
                h.to_act = b
            elif b:
                # all-in for the ante: the next player to his left may fold, bring in or
                # complete (USPA), so nobody owes the bring-in
                self.bring_seat = 0
                self.allin_lowcard = b
                self._allin_starter(h, b)
            return
        if h.next_to_act(0) == 0:
            h.to_act = 0
            return
        if h.street == len(self.spec.counts) - 1 and self.spec.faces[6:7] == "d":
            check_seventh(self, h, alive, self.last_deal_seq)
            # the last round's first player counts the common card (ORDER-STUD-COMMON) or a
            # seventh card dealt face up (ORDER-STUD-7TH-UP) with the upcards
            later = (ORDER_STUD_COMMON if self.common else ORDER_STUD_7TH_UP
                     if any(self.faces.get(s, "")[6:7] == "u" for s in alive) else None)
            if later and h.order_ids:
                h.order_ids = (h.order_ids[0], later)
        boards = {s: self.up.get(s, []) + self.common for s in alive}
        if any(c < 0 for b in boards.values() for c in b):
            self._unlogged_upcards(h, f"who starts the betting {self.street_name(h)}")
            if h.street == 1 and self.spec.open_pair:  # an open pair cannot be ruled out
                self.open_pair = True
                h.street_rule = BET_STUD_OPENPAIR
            return
        best = first_by_board(boards, h.order, self.spec.board == "low")
        if best and not h.live(best) and not h.folded[best]:
            self._allin_starter(h, best)
        else:
            h.to_act = best if best and h.live(best) else h.next_to_act(best)
        if h.street == 1 and any(has_open_pair(self.up.get(s, [])) for s in alive):
            if self.spec.open_pair:  # either limit may be bet (BET-STUD-OPENPAIR)
                self.open_pair = True
                h.street_rule = BET_STUD_OPENPAIR
            elif self.spec.name == "razz":
                h.street_rule = RAZZ_NO_OPENPAIR
            elif self.spec.name == "stud_hilo":
                h.street_rule = STUDHL_NO_OPENPAIR

    def _unlogged_upcards(self, h: HandState, what: str) -> None:
        """Upcards the log does not show (sites that log only the hero's cards): the round's
        first actor is taken from the log, and the hand says once that it was not checked."""
        self.bring_seat = 0
        self.order_unknown = True
        h.to_act = 0
        if not self.unlogged_noted:
            self.unlogged_noted = True
            h.flag(DQ_UNVERIFIABLE_AWARD, self.last_deal_seq or 0, f"The log does not show "
                   f"every upcard, so {what} (and the order of play on the streets whose "
                   "upcards are unknown) cannot be verified; the log's order is followed.")

    # --- events -------------------------------------------------------------------------

    def deal(self, h: HandState, deck: Deck, detail: str | None, s: int | None,
             text: str | None, seq: int) -> bool:
        """A deal event; returns False to let dealing.deal handle a plain draw-game deal."""
        cards = parse_cards(text) if text else ()
        self.deck = deck
        self.last_deal_seq = seq
        if not self.stud:
            if (detail in (None, "hole") and s is not None and 0 < s < h.size
                    and self.phase == 0 and not self.in_draw):
                before = len(h.hole[s])
                if before == 0 and self.first_action_seq is not None:
                    self.acted_before_deal = True
                elif self.spec.evaluator in ("lowa5", "low27"):
                    check_short_predraw(self, h, s, before, seq)
            if detail == "replace" and s is not None and 0 < s < h.size and h.in_hand[s]:
                deck.add(h, cards, seq, f"{h.who(s)}'s replacement card")
                replaced(self, h, s, cards, seq)
                return True
            if detail == "up" and s is not None and 0 < s < h.size and h.in_hand[s]:
                exposed(self, h, s, cards, seq)
                if not self.in_draw:
                    return False  # before the draw: part of his hand like any dealt card
            if detail in ("draw", "up") and s is not None and 0 < s < h.size and h.in_hand[s]:
                check_draw_deal(self, h, s, len(cards), seq)
                if self.split is not None and s == self.split.seat and self.phase == 1:
                    self.split.drawn.extend(cards)
                    self.split.unknown |= any(c < 0 for c in cards)
                h.hole[s].extend(cards)
                deck.add(h, cards, seq, f"{h.who(s)}'s draw")
                got = self.drawn.get(s)
                if got is not None:
                    self.drawn[s] = got - len(cards)
                return True
            return False
        if s is None or detail in ("board", "common"):
            check_common(h, seq)
            self.common.extend(cards)
            deck.add(h, cards, seq, "the common card")
            last = len(self.spec.counts) - 1
            if h.street < last:
                self._next_street(h, last, seq)
            return True
        if not 0 < s < h.size or not h.in_hand[s]:
            h.flag(DQ, seq, f"Cards were dealt to seat {s}, which is not dealt into this hand.",
                   expected="a dealt-in seat", actual=s)
            return True
        before = len(h.hole[s])
        h.hole[s].extend(cards)
        if detail == "up":
            self.up.setdefault(s, []).extend(cards)
        self.faces[s] = self.faces.get(s, "") + ("u" if detail == "up" else "d") * len(cards)
        first = self.spec.counts[0]
        if before < first <= len(h.hole[s]):
            check_start(self, h, s, seq)
        if self.spec.structure_rule:
            check_faces(self, h, s, seq)
        if not self.short_flagged and sum(len(h.hole[x]) for x in h.seats) > 52:
            self.short_flagged = True
            h.flag(STUD_SHORT_DECK, seq, f"{h.who(s)} was dealt his own card although the "
                   "players already hold more than the 52 cards of the deck; when the deck "
                   "cannot cover every player, the last card is dealt face up as a common card.",
                   seat=s, expected="a common card", actual="own card")
        if s not in h.dealt_seqs:
            h.dealt_seqs[s] = seq
        deck.add(h, cards, seq, f"{h.who(s)}'s cards")
        n = len(h.hole[s]) + len(self.common)
        counts = self.spec.counts
        k = next((i for i, c in enumerate(counts) if c >= n), len(counts) - 1)
        if k > h.street:
            self._next_street(h, k, seq)
        return True

    def post(self, h: HandState, detail: str | None, s: int | None, amount: int | None,
             seq: int) -> bool:
        """A bring-in post (stud) or a kill blind; other posts go to forced.post (False)."""
        if detail in ("kill", "kill_voluntary") and not self.stud:
            killed = bool(self.killer)
            stack = h.stack[s] if s is not None and 0 < s < h.size else 0
            post_kill(h, s, amount, seq, killed=killed)
            if s is not None and 0 < s < h.size and h.in_hand[s] and not killed:
                self.killer = s
                # the first round of a killed pot goes by the kill order (ORDER-KILL)
                h.order_ids = (ORDER_KILL, ORDER_HEADSUP if len(h.seats) == 2
                               else ORDER_BUTTON_LATER)
                if detail == "kill_voluntary":
                    self.kill_voluntary = True  # KILL-UNAWARE: the live layer lets a call
                    # of the blind made unaware of the kill be taken back
                    voluntary_kill(h, s, amount or 0, stack, seq,
                                   lowball=self.spec.evaluator in ("lowa5", "low27"))
            return True
        if detail == "ante" and s is not None:
            self.anted.add(s)
        if detail != "bring_in" or not self.stud:
            return False
        self._antes_due(h, seq)
        if s is None or not 0 < s < h.size or not h.in_hand[s]:
            return False
        if self.pending:
            self._resolve(h)
        if self.spec.structure_rule:
            check_round_cards(self, h, s, seq)
        dead_start_played(self, h, s, seq)
        b = self.bring_seat
        wrong = bool(b and s != b and h.street == 0)
        if wrong:
            h.flag(self.spec.bringin_rule, seq, f"{h.who(s)} brought in, but the bring-in is "
                   f"due from {h.who(b)}, who has the "
                   f"{'highest' if self.spec.bring_in == 'high_ace_low' else 'lowest'} upcard.",
                   seat=s, expected=b, actual=s)
        elif b and s == b and self.wrong_bring is not None:
            self._true_lowcard_posts(h, s, seq)
        add = table_stakes(h, s, amount or 0, seq, "brings in")
        stack = h.stack[s]
        bi = h.game.get("bring_in")
        if bi and add != bi and add < stack and add != h.small_bet:
            h.flag(STUD_BRINGIN_AMOUNT, seq, f"{h.who(s)} brought in for {h.money(add)}; the "
                   f"bring-in in this structure is {h.money(bi)} (or a completion to "
                   f"{h.money(h.small_bet)}).", seat=s, expected=bi, actual=add,
                   delta=add - bi)
        put_in(h, s, add)
        if add and add == stack:
            if bi and add < bi:
                self.short_wager = (h.bet[s], bi, STUD_BRINGIN_ALLIN)
        h.acted[s] = True
        h.acted_level[s] = h.cur_bet
        h.acted_fr[s] = h.fr_count
        h.last_actor = s
        h.n_actions += 1
        h.last_raise = 0
        h.bets = 0
        self.bring_done = True
        self.order_unknown = False
        if wrong and self.wrong_bring is None:
            self.wrong_bring = (s, add, h.n_actions)
        h.to_act = h.next_to_act(s)
        return True

    def _true_lowcard_posts(self, h: HandState, s: int, seq: int) -> None:
        """STUD-WRONG-LOWCARD: the true lowcard brings in after a wrong player did. Before the
        next player acted that is the correction (the wrong player takes his wager back);
        after it the wrong wager stands and the true lowcard owes nothing."""
        w, wager, n_then = self.wrong_bring  # type: ignore[misc]
        self.wrong_bring = None
        if h.n_actions == n_then:
            h.stack[w] += wager
            h.contrib[w] -= wager
            h.bet[w] -= wager
            h.acted[w] = False
            h.allin_street[w] = None
            h.cur_bet = max(h.bet[x] for x in h.seats)
            return
        h.flag(STUD_WRONG_LOWCARD, seq, f"{h.who(s)} was made to bring in after "
               f"{h.who(w)} had been named low and bet and the next player had acted; then "
               f"the wrong player's wager stands and the true lowcard owes nothing.", seat=s,
               expected="no bring-in", actual="bring-in")

    def before_action(self, h: HandState, kind: str, s: int | None, amount: int | None,
                      total: int | None, seq: int) -> None:
        """Resolve pending street state, then the stud/draw-only checks of one action."""
        if self.first_action_seq is None:
            self.first_action_seq = seq
        if self.ante_rule is not None:
            self._antes_due(h, seq)
        if self.in_draw:
            self._end_draw(h, seq)
        if self.pending:
            self._resolve(h)
        if self.order_unknown and s is not None and 0 < s < h.size and h.in_hand[s]:
            self.order_unknown = False  # the upcards are unknown: the log's actor starts
            h.to_act = s
        if self.exposed:
            check_held(self, h)
        if s is None or not 0 < s < h.size:
            return
        if self.spec.structure_rule:
            check_round_cards(self, h, s, seq)
        if self.dead_start and kind != "fold":
            dead_start_played(self, h, s, seq)
        if self.short_wager is not None and kind == "call":
            self._call_short_wager(h, s, amount, total, seq)
        if self.allin_lowcard and kind == "check" and h.street == 0 and not h.cur_bet:
            # 000 §7 r.4: all other players enter for at least the normal amount; 001
            # 3.2.3.5.8: the player to his left may fold, bring in or complete. No check.
            h.flag(ORDER_STUD_ALLIN_STARTER, seq, f"{h.who(s)} checked on 3rd street with "
                   f"the lowcard, {h.who(self.allin_lowcard)}, all in for his ante: the player "
                   "who starts the action may fold, bring in or complete, and everyone else "
                   "enters for at least the normal amount; nobody may check.", seat=s,
                   expected="fold, bring-in or complete", actual="check")
        if self.false_open is not None and h.street == 0:
            note_predraw_action(self.false_open, kind)
        if not self.stud and h.street == 0 and not self.opener and kind in ("bet", "raise"):
            self._short_open(h, s, amount, total)
            self.opener = s
            if self.spec.needs_openers:
                if check_openers(h, s, seq):
                    add = amount if amount is not None else (
                        h.small_bet if total is None else total - h.bet[s])
                    self.false_open = false_opener(h, s, add)
                self.split = opened_hidden(h, s)
        if kind == "fold" and not self.stud and self.deck is not None:
            for c in h.hole[s]:  # a folded hand goes to the muck, which may be reshuffled
                if 0 <= c < 52:
                    self.deck.seen[c] = -1
        if (self.high_card > 0 and h.street == 0 and s == self.high_card and kind == "check"
                and h.cur_bet == 0):
            h.flag(ORDER_MISSISSIPPI, seq, f"{h.who(s)} holds the high card and checked in "
                   "round 1; at big-bet Mississippi stud the high card must bet or fold.",
                   seat=s, expected="bet or fold", actual="check")
        if self.stud and h.street == 0 and not self.bring_done and s == self.bring_seat:
            self.bring_done = True
            if kind in ("fold", "check") and not self.bringin_fold:
                h.flag(STUD_BRINGIN_OPTIONS, seq, f"{h.who(s)} has the bring-in card and "
                       f"was logged to {kind}; the bring-in player must post the bring-in or "
                       "complete to a full bet.", seat=s, expected="bring in or complete",
                       actual=kind)
        if self.open_pair and kind in ("bet", "raise", "complete"):
            new_total = total if total is not None else h.bet[s] + (amount or 0)
            if self.big_seen or new_total - h.last_raise == h.big_bet:
                h.big_from = h.street  # the upper limit from now on this round
                self.big_seen = True
            else:
                h.big_from = self.spec.big_from
        if h.street == 0 and self.spec.evaluator in ("lowa5", "low27") and not self.opened:
            self._lowball_open(h, kind, s, seq)
        if self.sevens and kind == "check" and h.street >= 1 and s not in self.sevens_checks:
            self.sevens_checks[s] = seq
        if self.spec.a5_book_rules and h.structure == FL and not self.a5_checkraise:
            if kind == "check":
                self.checked.add(s)
            elif kind == "raise" and s in self.checked:
                h.flag(A5_CHECKRAISE, seq, f"{h.who(s)} checked and then raised in the same "
                       "round; check-raise is not allowed in limit ace-to-five lowball.",
                       seat=s, expected="call or fold", actual="raise")

    def _antes_due(self, h: HandState, seq: int) -> None:
        """ANTE-STUD / ANTE-DRAW, once: the betting starts, so every ante is due."""
        rule = self.ante_rule
        if rule is not None:
            self.ante_rule = None
            check_antes(h, rule, self.anted, seq)

    def _lowball_open(self, h: HandState, kind: str, s: int, seq: int) -> None:
        """LOWBALL-OPEN: before the draw a player opens with a bet or folds: no check (the
        big blind's option apart), and no call of the big blind where the minimum open is
        twice the blind (profile lowball.min_open = 2bb)."""
        if kind in ("bet", "raise", "complete"):
            self.opened = True
            return
        if kind == "check" and h.cur_bet == 0:
            h.flag(LOWBALL_OPEN, seq, f"{h.who(s)} checked before the draw; in lowball a "
                   "player opens with a bet or folds (only the big blind has an option).",
                   seat=s, expected="bet or fold", actual="check")
        elif (kind == "call" and self.min_open_2bb and h.bb_seat and s != h.bb_seat
              and h.cur_bet == h.bb and h.bet[s] < h.bb and h.stack[s] > h.bb - h.bet[s]):
            h.flag(LOWBALL_OPEN, seq, f"{h.who(s)} came in by calling the big blind; in "
                   f"this game the minimum open is twice the blind, {h.money(2 * h.bb)}.",
                   seat=s, expected=2 * h.bb, actual=h.bb)

    def _short_open(self, h: HandState, s: int, amount: int | None, total: int | None) -> None:
        """Draw high and jacks at fixed limit: an all-in opener short of the opening bet
        (playing for the antes); every caller still puts in the full bet (DRAWHI-ALLIN-ANTES).
        An opener may also open with a raise (DRAWHI-OPEN, 000 §11 intro): an opening of two
        bets counts as the opening bet and a raise."""
        if self.ante_rule_id != ANTE_DRAW or h.structure != FL or h.cur_bet:
            return
        add = amount if amount is not None else (None if total is None else total - h.bet[s])
        stack = h.stack[s]
        if add is not None and h.bet[s] + add == 2 * h.small_bet and not h.bb_seat:
            h.cur_bet = h.last_raise = h.small_bet  # the opening bet, then his raise
            h.bets = 1
            h.fr_count += 1
            return
        if add is not None and 0 < add == stack and h.bet[s] + add < h.small_bet:
            self.short_wager = (h.bet[s] + add, h.small_bet, DRAWHI_ALLIN_ANTES)

    def _call_short_wager(self, h: HandState, s: int, amount: int | None, total: int | None,
                          seq: int) -> None:
        """A call facing only an all-in forced wager short of the normal amount: the caller
        still comes in for the normal amount (STUD-BRINGIN-ALLIN, DRAWHI-ALLIN-ANTES)."""
        level, full, rule = self.short_wager  # type: ignore[misc]
        if h.cur_bet != level:
            if h.cur_bet >= full:
                self.short_wager = None  # completed or raised: an ordinary round from here
                return
            # an all-in complete, bet or raise still short of the normal amount changes
            # nothing for the others: they still come in for at least the normal amount
            level = h.cur_bet
            self.short_wager = (level, full, rule)
        if h.folded[s] or not h.in_hand[s] or h.stack[s] == 0:
            return
        add = amount if amount is not None else (None if total is None else total - h.bet[s])
        if add is None or h.bet[s] + add >= full:
            h.cur_bet = full  # the call is for the normal amount
            return
        if add >= h.stack[s]:
            # all in for less than the normal amount: a legal all-in call, which the others
            # still answer with the normal amount (he only caps what he can win)
            if h.bet[s] + add > level:
                h.cur_bet = h.bet[s] + add
                self.short_wager = (h.cur_bet, full, rule)
            return
        if not any(x != s and h.in_hand[x] and not h.folded[x] and h.stack[x] > 0
                   for x in h.seats):
            return  # nobody left could match more: the normal amount would come straight back
        if add < h.stack[s]:
            h.flag(rule, seq, f"{h.who(s)} called {h.money(h.bet[s] + add)}, the short all-in "
                   f"wager, with chips to cover more; everyone else must still come in for "
                   f"at least the normal {h.money(full)}.", seat=s, expected=full,
                   actual=h.bet[s] + add, delta=h.bet[s] + add - full)

    def draw(self, h: HandState, deck: Deck, kind: str, s: int | None, amount: int | None,
             text: str | None, seq: int) -> None:
        """A `draw` (discard) or `stand_pat` event."""
        if self.stud:
            h.flag(DQ, seq, f"A {kind} is logged in {self.spec.name}, which has no draw.")
            return
        if self.in_draw and s in self.drawn:
            self._end_draw(h, seq)  # he draws again: the next draw, with no betting between
        if not self.in_draw:
            if h.oot:
                flush_held(h)
            if h.to_act and h.remaining() > 1:
                h.flag(DEAL_PREMATURE, seq, f"The draw began before the betting "
                       f"{self.street_name(h)} was complete ({h.who(h.to_act)} still had to "
                       "act); the draw comes only after the betting round ends.",
                       seat=h.to_act)
            if self.phase == 0:
                self.pre_draw = list(h.contrib)
            self.phase += 1
            self.in_draw = True
            self.drawn = {}
            self.got = {}
            if self.phase > self.spec.draws:
                h.flag(DQ, seq, f"Draw number {self.phase} is logged; {self.spec.name} has "
                       f"{self.spec.draws} draw(s).", expected=self.spec.draws,
                       actual=self.phase)
        if s is None or not 0 < s < h.size or not h.in_hand[s] or h.folded[s]:
            h.flag(DQ, seq, f"A {kind} is logged for seat {s}, which is not in the hand.")
            return
        check_draw_order(self, h, s, seq)
        if kind == "stand_pat":
            self.drawn[s] = 0
            return
        discards = parse_cards(text) if text else ()
        n = amount if amount is not None else len(discards)
        if self.split is not None and s == self.split.seat and self.phase == 1:
            self.split.discards.extend(discards)
            self.split.unknown |= len(discards) != n or any(c < 0 for c in discards)
        hole = h.hole[s]
        for c in discards[:n] if discards else ():
            if c >= 0 and c in hole:
                hole.remove(c)
                if c < 52:  # not the joker: a discard may come back after a reshuffle
                    deck.seen[c] = -1
            elif -1 in hole:
                hole.remove(-1)
            elif c >= 0:
                h.flag(DQ, seq, f"{h.who(s)} discards a card he does not hold.", seat=s)
        for _ in range(n - len(discards)):
            if -1 in hole:
                hole.remove(-1)
            elif hole:
                hole.pop()
                hole[:] = [-1] * len(hole)  # which card went is unknown
        self.drawn[s] = n

    def _end_draw(self, h: HandState, seq: int) -> None:
        self.in_draw = False
        self._check_hand_sizes(h, seq)
        self._next_street(h, self.phase, seq)

    def _check_hand_sizes(self, h: HandState, seq: int) -> None:
        need = self.spec.max_cards
        for s in h.seats:
            if h.folded[s] or not h.hole[s]:
                continue
            got = len(h.hole[s])
            if got != need:
                h.flag(DRAW_FIVE_CARD_HAND, seq, f"{h.who(s)} holds {got} cards after the "
                       f"draw; a playing hand has exactly {need}, so his hand is fouled (dead).",
                       seat=s, expected=need, actual=got)

    def show(self, h: HandState, deck: Deck, kind: str, s: int | None, text: str | None,
             seq: int) -> None:
        if s is None or not 0 < s < h.size or not h.in_hand[s]:
            return
        if kind == "muck":
            h.mucked[s] = True
            self.mucks.setdefault(s, seq)
            return
        self.shows.setdefault(s, seq)
        cards = parse_cards(text) if text else ()
        own = [c for c in cards if c not in self.common]
        known = [c for c in h.hole[s] if c >= 0]
        if known and any(c not in own for c in known):
            h.flag(DQ, seq, f"{h.who(s)} showed cards that differ from the cards logged for "
                   "him; the shown cards are used.", seat=s,
                   expected=" ".join(map(str, known)), actual=text)
        # a second show restates the first (an all-in stud hand turned up on 3rd street and
        # shown again whole at the end): the cards already shown are not dealt again
        before = set(known) | set(h.shown[s] or ())
        new = tuple(c for c in own if c >= 0 and c not in before)
        deck.add(h, new, seq, f"{h.who(s)}'s shown cards")
        h.shown[s] = tuple(own)
        h.showdown = True

    def declare(self, h: HandState, s: int | None, words: str | None, seq: int) -> bool:
        """A spoken declaration. True when it is a seventh-street freeze (STUD-7TH-UP, 000 §7
        r.17): the player whose last card was dealt face up declares all-in before the
        betting and puts in no more; the others bet into a side pot although he still has
        chips, which is legal. Anything else goes to the live layer (False)."""
        if s is None or not 0 < s < h.size or not h.in_hand[s]:
            return False
        if not self.stud:
            self.spoken = True
            if says_pair(words):
                self.pair_said.add(s)
            if self.in_draw or (not h.to_act and self.phase < self.spec.draws):
                check_draw_order(self, h, s, seq)  # a spoken draw is his draw request
            elif (not h.to_act and self.phase >= self.spec.draws
                  and self.spec.evaluator in ("lowa5", "low27")):
                claim = read_claim(words, s, seq)  # LOWBALL-MISCALL at the showdown
                if claim is not None:
                    self.claims.append(claim)
            return False
        last = len(self.spec.counts) - 1
        if (h.street != last or h.folded[s] or h.stack[s] == 0 or s in self.frozen
                or self.faces.get(s, "")[6:7] != "u" or h.acted[s]
                or parse_declaration(words or "").said != Said.ALL_IN):
            return False
        self.frozen[s] = h.stack[s]
        h.stack[s] = 0  # acts no more this hand: the betting goes on around him
        if h.to_act == s:
            h.to_act = h.next_to_act(s)
        return True

    def finish(self, h: HandState, end_seq: int) -> None:
        """End of hand: stud card counts, or the draw hand sizes."""
        for s, kept in self.frozen.items():
            h.stack[s] += kept  # a frozen player keeps the chips he did not put in
        if not self.stud:
            if self.in_draw:
                self.in_draw = False
                self._check_hand_sizes(h, end_seq)
            if self.split is not None:
                check_split_openers(h, self.split, end_seq)
            if self.false_open is not None:
                rule_false_opener(h, self.false_open, self.pre_draw, end_seq)
            if self.claims:
                check_miscalls(h, self.spec.evaluator, self.claims, self.mucks,
                               self.hand_cards, end_seq)
            if self.spoken and self.spec.evaluator in ("lowa5", "low27"):
                check_pair_calls(h, self.spec.evaluator, self.pair_said, self.mucks,
                                 self.shows, end_seq)
            if self.exposed:
                check_held(self, h)
            return
        if h.burns and not self.common and not self.short_flagged:
            check_stud_burns(h, self.street_burns, self.street_name)
        mx = self.spec.max_cards
        last = len(self.spec.counts) - 1
        for s in h.seats:
            n = len(h.hole[s]) + len(self.common)
            if not h.hole[s]:
                continue
            if n > mx:
                h.flag(STUD_CARD_COUNT, h.dealt_seqs.get(s), f"{h.who(s)} received {n} "
                       f"cards; a stud hand with more than {mx} cards is dead.", seat=s,
                       expected=mx, actual=n)
            elif n < mx and not h.folded[s] and h.street == last and h.remaining() > 1:
                h.flag(STUD_CARD_COUNT, h.dealt_seqs.get(s), f"{h.who(s)} reached the "
                       f"showdown with {n} cards; a stud hand needs {mx} (a hand missing only "
                       "its last card may be ruled live by the floor).", seat=s,
                       expected=mx, actual=n,
                       severity="warning" if n == mx - 1 else None)

    # --- showdown -----------------------------------------------------------------------

    def hand_cards(self, h: HandState, s: int) -> list[int] | None:
        shown = h.shown[s]
        cards = list(shown) if shown is not None and all(c >= 0 for c in shown) else h.hole[s]
        cards = list(cards) + self.common
        if any(c < 0 for c in cards) or not 4 <= len(cards) <= 7:
            return None
        if self.spec.evaluator == "badugi" and len(cards) != 4:
            return None
        if self.spec.evaluator != "badugi" and len(cards) < 5:
            return None
        if not self.stud and len(cards) != self.spec.max_cards:
            return None
        if JOKER in cards and (self.stud or self.spec.evaluator not in JOKER_GAMES
                               or cards.count(JOKER) > 1):
            return None  # a joker where the game plays none: the hand cannot be ranked
        return cards

    def _dead(self, h: HandState, s: int) -> bool:
        """A fouled draw hand (not exactly its hand size) or a stud hand with too many cards."""
        n = len(h.hole[s])
        if self.stud:
            return n + len(self.common) > self.spec.max_cards
        return bool(n) and n != self.spec.max_cards

    def rule_pots(self, h: HandState, refunds: list[int], pots: list[tuple[int, list[int]]]
                  ) -> tuple[list[int], list[tuple[int, list[int]]], int]:
        """The returns and pots under a ruling that changes them, and the chips carried to
        the next deal: at jacks, a false opener's dead hand (JACKS-FALSE-OPENER)."""
        if self.false_open is None:
            return refunds, pots, 0
        return rule_pots(h, self.false_open, refunds, pots)

    def award_rule(self, h: HandState, s: int, paid_too_much: int) -> tuple[str, str] | None:
        """The rule id and reason for a seat paid wrongly that a ruling explains, else None."""
        if self.false_open is None:
            return None
        return award_rule(h, self.false_open, s, paid_too_much)

    def settle(self, h: HandState, pots: list[tuple[int, list[int]]], shares: list[int],
               strengths: dict[int, tuple[int, int | None]]) -> list[PotResult]:
        """Award every pot into `shares` under the game's evaluator and odd-chip rule."""
        results: list[PotResult] = []
        ev = self.spec.evaluator
        low_game = ev in ("razz", "lowa5", "low27", "badugi")
        hands: dict[int, list[int]] = {}
        for k, (amount, eligible) in enumerate(pots):
            res = PotResult(amount, eligible, "main" if k == 0 else f"side-{k}")
            results.append(res)
            contenders = [s for s in eligible if not h.mucked[s] and not self._dead(h, s)]
            if len(eligible) == 1:  # everyone else folded: shown or not, he wins
                contenders = eligible
            if len(contenders) == 1:
                res.high = contenders
                shares[contenders[0]] += amount
                continue
            if not contenders:
                res.verified = False
                continue
            ok = True
            for s in contenders:
                if s not in strengths:
                    cards = self.hand_cards(h, s)
                    if cards is None:
                        ok = False
                        break
                    hands[s] = cards
                    strengths[s] = game_strength(ev, cards)
            if not ok:
                res.verified = False
                continue
            best = max(strengths[s][0] for s in contenders)
            high = [s for s in contenders if strengths[s][0] == best]
            lows = [s for s in contenders if strengths[s][1] is not None]
            low: list[int] = []
            if lows:
                bl = max(strengths[s][1] or 0 for s in lows)
                low = [s for s in lows if strengths[s][1] == bl]
            if self.stud:
                for s in contenders:
                    if s not in hands:
                        hands[s] = self.hand_cards(h, s) or []
                res.high = oddchip_order(high, hands, low_game)
                res.low = oddchip_order(low, hands, True) if low else None
            else:
                res.high = clockwise(h, high)
                res.low = clockwise(h, low) if low else None
            if res.low:
                low_half = amount // 2
                split(amount - low_half, res.high, shares)
                split(low_half, res.low, shares)
            else:
                split(amount, res.high, shares)
        if self.sevens_checks and self.sevens:
            sevens_rule(self, h, results, shares)
        return results

def hooks_for(h: HandState) -> FamilyHooks | None:
    """The stud/draw hooks for this hand's variant, or None for a button game."""
    spec = spec_of(h.variant)
    return FamilyHooks(h, spec) if spec is not None else None
