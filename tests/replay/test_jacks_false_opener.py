"""Jacks or better: a false opener's dead hand (JACKS-FALSE-OPENER) and the pot that plays in
spite of it (JACKS-POT-PLAYS), around the fixtures in fixtures/rules/: what the log proves
and what it does not (cards not logged, a pot not played while the action was incomplete),
and returns logged inside the awards."""

from __future__ import annotations

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import (
    DEAL_DUPLICATE_CARD,
    DQ_UNVERIFIABLE_AWARD,
    JACKS_FALSE_OPENER,
    JACKS_OPENERS,
    JACKS_POT_PLAYS,
    POT_SPLIT_BY_CARDS,
)

HEAD = """hand fx:t jacks_or_better fixed_limit ante=5 small_bet=10 big_bet=20 button=3{opts}
seat 1 alice 1000
seat 2 bob 1000
seat 3 carol 1000
post 1 ante 5
post 2 ante 5
post 3 ante 5
deal 1 hole {alice}
deal 2 hole Ah Kh Qd 8s 7s
deal 3 hole 3h 4h 6c 8d Jc
"""
TENS = "Tc Td 2h 5s 9c"  # no openers
JACKS = "Js Jd 2h 5s 9c"


def _findings(body: str, alice: str = TENS, opts: str = "") -> list[tuple[str, int | None]]:
    rows, _ = parse_text(HEAD.format(alice=alice, opts=opts) + body)[0]
    result = replay_hand(hand_from_rows(rows))
    return [(f.rule_id, f.seat) for f in result.findings if f.severity != "info"]


def _infos(body: str, opts: str = "") -> list[str]:
    rows, _ = parse_text(HEAD.format(alice=TENS, opts=opts) + body)[0]
    return [f.rule_id for f in replay_hand(hand_from_rows(rows)).findings
            if f.severity == "info"]


FOLDED_TO_HER = "bet 1 10\nfold 2\nfold 3\n"


def test_false_opener_paid_the_antes_is_flagged_and_carried_pot_is_not():
    paid = FOLDED_TO_HER + "award 1 10 uncalled\naward 1 15\n"
    assert (JACKS_FALSE_OPENER, 1) in _findings(paid)
    # his opening bet alone given back is already a breach: it stays in the pot
    assert (JACKS_FALSE_OPENER, 1) in _findings(FOLDED_TO_HER + "award 1 10 uncalled\n")
    # the antes and his bet stay for the next deal: nothing paid, nothing flagged but openers
    assert _findings(FOLDED_TO_HER) == [(JACKS_OPENERS, 1)]
    # a true opener takes the antes and his uncalled bet as usual
    assert _findings(paid, alice=JACKS) == []


def test_returns_inside_the_awards_are_judged_as_the_awards():
    # a source that does not log returns apart (refunds=implicit): one award of 25
    implicit = ' detail="refunds=implicit"'
    assert (JACKS_FALSE_OPENER, 1) in _findings(FOLDED_TO_HER + "award 1 25\n",
                                                   opts=implicit)
    assert _findings(FOLDED_TO_HER + "award 1 25\n", alice=JACKS, opts=implicit) == []


def test_carried_chips_are_not_taken_for_an_unlogged_rake():
    implicit = ' detail="refunds=implicit;rake=implicit"'
    assert _findings(FOLDED_TO_HER, opts=implicit) == [(JACKS_OPENERS, 1)]
    assert DQ_UNVERIFIABLE_AWARD not in _infos(FOLDED_TO_HER, opts=implicit)


def test_cards_not_logged_when_he_opened_prove_no_false_opener():
    body = FOLDED_TO_HER + "award 1 10 uncalled\naward 1 15\n"
    assert _findings(body, alice="?? ?? ?? ?? ??") == []


def test_the_pot_must_play_after_a_raise_two_calls_or_complete_action():
    called_once = "bet 1 10\ncall 2 10\n"
    back = "award 2 10 uncalled\n"
    # Bob's call only, Carol still to act: the pot is not played, legal
    assert _findings(called_once + back) == [(JACKS_OPENERS, 1)]
    # Carol folded: all the action before the draw was complete, so the pot plays
    assert (JACKS_POT_PLAYS, 1) in _findings(called_once + "fold 3\n" + back)
    # a raise
    raised = "bet 1 10\nraise 2 to 20\n"
    assert (JACKS_POT_PLAYS, 1) in _findings(raised + "award 2 20 uncalled\n")
    # an opening of two bets is the opening bet and a raise
    two_bets = "raise 1 to 20\ncall 2 20\n"
    assert (JACKS_POT_PLAYS, 1) in _findings(two_bets + "award 2 20 uncalled\n"
                                                "award 1 10 uncalled\n")


def test_a_pot_not_played_keeps_the_opening_bet_in_it():
    # Bob called, Carol still to act: Bob's call goes back; Alice's opening bet may not
    body = "bet 1 10\ncall 2 10\n"
    assert _findings(body + "award 2 10 uncalled\naward 1 10 uncalled\n") == [
        (JACKS_OPENERS, 1), (JACKS_FALSE_OPENER, 1)]


def test_a_true_opener_is_never_ruled_a_false_one():
    body = "bet 1 10\ncall 2 10\nfold 3\naward 2 10 uncalled\naward 1 25\n"
    assert JACKS_POT_PLAYS not in [r for r, _ in _findings(body, alice=JACKS)]
    assert JACKS_FALSE_OPENER not in [r for r, _ in _findings(body, alice=JACKS)]


def test_a_void_hand_is_no_false_opener_ruling():
    # a card dealt twice voids all action: every wager goes back, the opener's first bet too
    rows, _ = parse_text(HEAD.format(alice="Tc Td 2h 5s Ah", opts="")
                         + FOLDED_TO_HER + "award 1 20\naward 2 5\naward 3 5\n")[0]
    ids = [f.rule_id for f in replay_hand(hand_from_rows(rows)).findings]
    assert DEAL_DUPLICATE_CARD in ids
    assert JACKS_FALSE_OPENER not in ids
    paid = next(r for r in rows if r["kind"] == "award" and r["seat"] == 1)
    paid["amount"] = 40  # Alice paid more than her wagers: the void rule's award finding
    ids = [f.rule_id for f in replay_hand(hand_from_rows(rows)).findings]
    assert JACKS_FALSE_OPENER not in ids and POT_SPLIT_BY_CARDS in ids
