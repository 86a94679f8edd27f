"""Compare what the house pushed (`award`, `rake` events) with what the rules give each seat."""

from __future__ import annotations

from audit.poker.evaluate.high import describe_high
from audit.poker.evaluate.short import TRIPS_BEAT_STRAIGHT, describe_short
from audit.replay.pots import build_pots
from audit.replay.showdown import PotResult, cards_of, settle
from audit.replay.state import SPLIT_BOARDS, HandState, say_money
from audit.rules.ids import (
    DQ_UNVERIFIABLE_AWARD,
    HOUSE_RAKE,
    POT_FOLD_FORFEIT,
    POT_HILO_SPLIT,
    POT_ODDCHIP_BUTTON,
    POT_ODDCHIP_HILO,
    POT_ODDCHIP_STUD,
    POT_SIDEPOT_BUILD,
    POT_SPLIT_BY_CARDS,
    POT_TIE_SPLIT,
)

DQ_UNVERIFIABLE = DQ_UNVERIFIABLE_AWARD


class Outcome:
    """Expected settlement of a hand (for the projections)."""

    __slots__ = ("pots", "refunds", "expected", "actual", "rake", "verified", "strengths",
                 "carried", "included")

    def __init__(self) -> None:
        self.pots: list[PotResult] = []
        self.refunds: list[int] = []
        self.expected: list[int] = []
        self.actual: list[int] = []
        self.rake = 0
        self.verified = True
        self.strengths: dict[int, tuple[int, int | None]] = {}
        self.carried = 0  # chips a ruling keeps in the pot for the next deal
        self.included: dict[int, int] = {}  # returns the source folded into a seat's award


def settle_hand(h: HandState, end_seq: int) -> Outcome:
    """Expected awards per seat, then one finding per seat whose award differs."""
    out = Outcome()
    n = h.size
    seats = h.seats
    actual = [0] * n
    for s, amt, _label in h.awards:
        if 0 < s < n:
            actual[s] += amt
    out.actual = actual
    expected = [0] * n
    unknown: set[int] = set()
    if h.void:
        for s in seats:
            expected[s] = h.contrib[s]
        out.refunds = [0] * n
    else:
        refunds, pots = build_pots(h.contrib, h.folded, seats, h.dead)
        if h.vh is not None:  # a ruling of the game (a false opener at jacks) may change them
            refunds, pots, out.carried = h.vh.rule_pots(h, refunds, pots)
        out.refunds = refunds
        if h.room_added:
            pots = _with_room_money(pots, h.room_added, [s for s in seats if not h.folded[s]])
        out.pots = (h.vh.settle if h.vh else settle)(h, pots, expected, out.strengths)
        for r in out.pots:
            if not r.verified:
                unknown.update(s for s in r.eligible if not h.mucked[s])
        if not h.refunds_implicit:
            for s in seats:
                expected[s] += refunds[s]
        elif h.uncalled_logged:
            for s in seats:
                expected[s] += refunds[s]
    included = 0  # refunds the source folded into its awards
    if h.refunds_implicit and not h.uncalled_logged and not h.void:
        # The source does not log returns separately; its award may include them, and when
        # rake is implicit too, the rake may already be taken out of that same award.
        for s in seats:
            r = out.refunds[s]
            extra = actual[s] - expected[s]
            if r and (extra == r or (h.rake_implicit and 0 < extra < r)):
                expected[s] += r
                out.included[s] = r
                included += r
    out.expected = expected
    if h.awards_unrecorded:
        out.verified = False
        h.flag(DQ_UNVERIFIABLE, end_seq, "The award cannot be verified: the log does not record "
               "what each player was paid; nothing is concluded about it.")
        return out
    if unknown:
        out.verified = False
        hidden = [s for s in sorted(unknown) if cards_of(h, s) is None]
        if hidden:
            names = ", ".join(h.who(s) for s in hidden)
            why = f"the cards needed to decide the pot are unknown ({names})"
        elif len(h.board) == 5 and TRIPS_BEAT_STRAIGHT.get(h.variant) is not None:
            names = ", ".join(h.who(s) for s in sorted(unknown))
            why = (f"the cards of {names} and the board include a card that is not in the "
                   "36-card short deck, so they cannot decide the pot")
        else:
            names = ", ".join(h.who(s) for s in sorted(unknown))
            why = (f"the board has {len(h.board)} cards, not 5, so the cards of {names} "
                   "cannot decide the pot")
        h.flag(DQ_UNVERIFIABLE, end_seq, f"The award cannot be verified: {why}; nothing is "
               "concluded about it.")
    diffs = [0] * n
    for s in seats:
        if s in unknown:
            continue
        diffs[s] = actual[s] - expected[s]
    for s in range(1, n):  # awards to seats not in the hand
        if not h.in_hand[s] and actual[s]:
            diffs[s] = actual[s]
    pot = sum(h.contrib) - sum(out.refunds) - out.carried + (0 if h.void else h.room_added)
    paid = sum(actual) - (included if h.refunds_implicit and not h.uncalled_logged
                          else sum(out.refunds))
    rake = h.rake_logged
    implausible = 0
    if h.rake_implicit and not h.void:
        rake = max(0, pot - paid)
        if rake * 100 > pot * h.st.rake_implied_max_percent:
            implausible, rake = rake, 0  # too much to pass as a collection: see below
    out.rake = rake
    neg = [s for s in range(1, n) if diffs[s] < 0]
    pos = [s for s in range(1, n) if diffs[s] > 0]
    shortfall = -sum(diffs[s] for s in neg)
    if implausible and not pos and shortfall == implausible:
        # The log states no rake and the house kept more than an unlogged collection is assumed
        # to be. That proves no breach: the site's rake schedule (percentage, cap, a flat jackpot
        # drop) is not in the log. It is the site's collection, reported, unless the profile names
        # the schedule the site is bound by: then the collection is checked against it.
        out.rake = implausible
        if h.st.rake_percent or h.st.rake_cap or not h.st.rake_allowed:
            _check_rake(h, implausible, pot, end_seq)
            return out
        bound = pot * h.st.rake_implied_max_percent // 100
        out.verified = False
        h.flag(DQ_UNVERIFIABLE, end_seq, implied_rake_message(
            implausible, pot, h.st.rake_implied_max_percent, h.mpu),
               expected=bound, actual=implausible, delta=implausible - bound)
        return out
    if rake and not pos and (h.rake_implicit or shortfall == rake):
        _check_rake(h, rake, pot, end_seq)
        return out
    if rake and h.rake_logged:
        _check_rake(h, rake, pot, end_seq)
        # the rake explains part of the shortfall: spread it over the short seats
        left = rake
        for s in sorted(neg, key=lambda x: diffs[x]):
            take = min(left, -diffs[s])
            diffs[s] += take
            left -= take
        neg = [s for s in neg if diffs[s] < 0]
    if not pos and not neg:
        return out
    if not h.st.oddchip_button and _odd_chips_only(out, diffs, pos, neg):
        return out
    for s in pos + neg:
        _report(h, out, s, diffs, pos, neg, end_seq)
    return out


def _with_room_money(pots: list[tuple[int, list[int]]], added: int, alive: list[int]
                     ) -> list[tuple[int, list[int]]]:
    """The room's own money (`pot_added`, a Splash the Pot) goes into the main pot: every player
    still in the hand can win it, as the room pays it with the pot it splashed."""
    if not pots:
        return [(added, alive)]
    amount, eligible = pots[0]
    return [(amount + added, eligible), *pots[1:]]


def _odd_chips_only(out: Outcome, diffs: list[int], pos: list[int], neg: list[int]) -> bool:
    tied: set[int] = set()
    for r in out.pots:
        if len(r.high) > 1:
            tied.update(r.high)
        if r.low and len(r.low) > 1:
            tied.update(r.low)
    return all(s in tied and abs(diffs[s]) <= len(out.pots) for s in pos + neg) and \
        sum(diffs[s] for s in pos + neg) == 0


def implied_rake_message(kept: int, pot: int, max_percent: int, mpu: int) -> str:
    """The data-quality note for an unlogged collection beyond `max_percent` of the pot
    (also written by the fast path, audit/replay/fast/table.py)."""
    permille = kept * 1000 // max(pot, 1)
    return (f"The amount paid cannot be verified: the log does not state the rake, and the "
            f"house kept {say_money(kept, mpu)} of the {say_money(pot, mpu)} pot "
            f"({permille // 10}.{permille % 10}%), more than the {max_percent}% an unlogged "
            "collection is taken to be; without the site's rake schedule in the profile "
            "(rake.percent, rake.cap) it is counted as the site's collection, not as a short "
            "payment.")


def _check_rake(h: HandState, rake: int, pot: int, seq: int) -> None:
    st = h.st
    if not st.rake_allowed:
        h.flag(HOUSE_RAKE, seq, f"{h.money(rake)} was taken from the pot as rake, but this "
               "profile allows no rake (private games may not rake).", expected=0, actual=rake,
               delta=rake)
        return
    if st.rake_percent or st.rake_cap:
        mx = pot * st.rake_percent // 100 if st.rake_percent else st.rake_cap
        if st.rake_cap and mx > st.rake_cap:
            mx = st.rake_cap
        if st.rake_percent:
            rate = f"{st.rake_percent}%" + (
                f" capped at {h.money(st.rake_cap)}" if st.rake_cap else ", no cap")
        else:
            rate = f"a cap of {h.money(st.rake_cap)}"
        if rake > mx:
            h.flag(HOUSE_RAKE, seq, f"The rake taken was {h.money(rake)} but the house rate "
                   f"({rate}) allows at most {h.money(mx)} from a pot of {h.money(pot)}.",
                   expected=mx, actual=rake, delta=rake - mx)


def _showdown_reason(h: HandState, out: Outcome, s: int) -> str:
    """Whose hand beat whose, in words, for a single high pot decided at showdown."""
    if h.vh is not None or h.hilo or len(out.pots) != 1:
        return ""
    winners = out.pots[0].high
    known = out.strengths
    if not winners or s not in known or any(w not in known for w in winners):
        return ""
    best = known[winners[0]][0]
    trips_high = TRIPS_BEAT_STRAIGHT.get(h.variant)
    describe = describe_high if trips_high is None else (  # short deck: its own order
        lambda strength: describe_short(strength, trips_beat_straight=trips_high))
    if s in winners:
        return f"{h.who(s)} has the best hand, {describe(best)}"
    return (f"{h.who(winners[0])} has {describe(best)}; {h.who(s)} only "
            f"{describe(known[s][0])}")


def _report(h: HandState, out: Outcome, s: int, diffs: list[int], pos: list[int],
            neg: list[int], seq: int) -> None:
    d = diffs[s]
    other_side = neg if d > 0 else pos
    cp = None
    if other_side:
        o = max(other_side, key=lambda x: abs(diffs[x]))
        cp = h.player[o] or f"seat {o}"
    in_hand = 0 < s < h.size and h.in_hand[s]
    tied = any(s in r.high and len(r.high) > 1 for r in out.pots) or any(
        r.low is not None and s in r.low and len(r.low) > 1 for r in out.pots)
    hilo_pot = any(r.low is not None for r in out.pots)
    n_pots = len({r.label.split("@", 1)[0] for r in out.pots})  # runs of one pot count once
    runs = len(out.pots) > n_pots
    ruled = h.vh.award_rule(h, s, d) if h.vh is not None else None
    if ruled is not None:
        rid, why = ruled
    elif not in_hand or (h.folded[s] and d > 0):
        rid = POT_FOLD_FORFEIT
        why = "a player who folded (or was not in the hand) cannot win any pot"
    elif h.void:
        rid = POT_SPLIT_BY_CARDS
        why = ("a card was dealt twice, so all action is void and each player gets back "
               "exactly what he put in")
    elif (tied or (hilo_pot and any(s in r.high or (r.low and s in r.low) for r in out.pots))
          ) and abs(d) <= len(out.pots):
        rid = POT_ODDCHIP_HILO if h.hilo else (
            POT_ODDCHIP_STUD if h.vh is not None and h.vh.stud else POT_ODDCHIP_BUTTON)
        why = ("the odd chip goes to the high half, and within a half to the first tied hand "
               "clockwise from the button" if h.hilo else
               "the odd chip goes to the first tied hand clockwise from the button")
    elif out.refunds and out.refunds[s] and d == -out.refunds[s]:
        rid = POT_SIDEPOT_BUILD
        why = f"his uncalled {h.money(out.refunds[s])} should have been returned to him"
    elif tied:
        rid = POT_TIE_SPLIT
        why = "tied hands share the pot equally"
    elif hilo_pot:
        rid = POT_HILO_SPLIT
        why = "the pot is split between the best high hand and the best qualifying low"
    elif runs and h.variant in SPLIT_BOARDS:
        rid = POT_SPLIT_BY_CARDS
        why = (f"in {h.variant} each pot is halved, the odd chip to the first board, and each "
               "half goes to the best hand on its own board (tied hands share that half)")
    elif runs and n_pots == 1:
        rid = POT_SPLIT_BY_CARDS
        why = ("the pot was run more than once: it is divided into equal parts, the odd chip "
               "to the first run, and each board decides its own part")
    elif n_pots > 1:
        rid = POT_SIDEPOT_BUILD
        why = ("each side pot can be won only by the players who contributed to it, and each "
               "pot goes to the best hand among them")
    else:
        rid = POT_SPLIT_BY_CARDS
        why = "the pot goes to the best hand (cards speak) or to the last player left"
        shown = _showdown_reason(h, out, s)
        if shown:
            why += f": {shown}"
    exp = out.expected[s] if s < len(out.expected) else 0
    act = out.actual[s] if s < len(out.actual) else 0
    verb = "too much" if d > 0 else "too little"
    h.flag(rid, seq, f"{h.who(s)} was paid {h.money(act)} but should have received "
           f"{h.money(exp)} ({verb} by {h.money(abs(d))}): {why}.", seat=s, expected=exp,
           actual=act, delta=d, counterparty=cp)
