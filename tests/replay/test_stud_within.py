"""Stud/draw permissions that hold by construction (the comment after STUD_DRAW_RULE_IDS in
audit/rules/catalog/studdraw.py): the permitted play draws no finding.

The stud/draw rules decided within other ids' checks (STUD-COMPLETE, STUD-BOARD-BEATEN-CALL,
JACKS-NO-REFUND, ORDER-LOWBALL, DRAWHI-OPEN) are in audit/rules/coverage.py, proved by
fixtures/rules/within/ and tests/rules/test_rule_coverage.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import (
    A5_CHECKRAISE,
    A5_SEVENS_RULE,
    BET_CAP_TWOROUND,
    BET_LIMIT_DRAW_DOUBLE,
    BET_LIMIT_FIXED,
    DRAWHI_ALLIN_ANTES,
    STUD_7TH_UP,
)
from audit.rules.profiles import load_profile
from audit.rules.registry import Severity

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rules"


def _findings(rows):
    game = rows[0]["game"]
    profile = load_profile(game.get("profile") or "montana")
    result = replay_hand(hand_from_rows(rows), profile)
    return {(f.rule_id, f.seat, f.seq) for f in result.findings
            if Severity(f.severity).level >= Severity.WARNING.level}


def _fixture(rule_id, label):
    path = FIXTURES / f"{rule_id}.txt"
    hands = parse_text(path.read_text(encoding="utf-8"), str(path))
    return next(rows for rows, _ in hands if rows[0]["hand_id"].endswith(label))


def _ids(rows):
    return {r for r, _, _ in _findings(rows)}


@pytest.mark.parametrize(("variant", "structure"), [
    ("draw_high", "fixed_limit"),  # DRAWHI-CHECKRAISE: allowed before and after the draw
    ("lowball_27_single", "fixed_limit"),  # D27-CHECKRAISE: allowed on any hand after the draw
    ("lowball_a5", "no_limit"),  # BBLOW-NO-SEVENS: NL/PL lowball allows check-raise
])
def test_check_raise_is_permitted_outside_limit_ace_to_five(variant, structure):
    rows = _fixture(A5_CHECKRAISE, ".fail")
    assert A5_CHECKRAISE in _ids(rows)
    rows[0]["game"].update(variant=variant, structure=structure)
    assert _ids(rows) == set()


@pytest.mark.parametrize(("variant", "structure"), [
    ("lowball_27_single", "fixed_limit"),  # D27-CHECKRAISE: no sevens rule at deuce-to-seven
    ("lowball_a5", "no_limit"),  # BBLOW-NO-SEVENS: no sevens rule at big-bet lowball
])
def test_a_checked_seven_low_wins_the_whole_pot_where_there_is_no_sevens_rule(variant,
                                                                              structure):
    rows = _fixture(A5_SEVENS_RULE, ".fail")
    assert A5_SEVENS_RULE in _ids(rows)
    rows[0]["game"].update(variant=variant, structure=structure)
    assert A5_SEVENS_RULE not in _ids(rows)


def test_an_all_in_players_seventh_card_dealt_up_is_no_irregularity():
    # STUD-ALLIN-HOLECARD-UP: he keeps it and the others get their normal card
    rows = _fixture(STUD_7TH_UP, ".pass-freeze")
    rows = [r for r in rows if r["kind"] != "declare"]
    for r in rows:  # Bob's seventh card is dealt up after Alice's: an irregularity...
        if r["kind"] == "deal" and r["seat"] == 2 and r["cards"] == "7c":
            r["detail"] = "up"
    assert STUD_7TH_UP in _ids(rows)
    for r in rows:
        if r["kind"] == "seat" and r["seat"] == 1:
            r["amount"] = 3  # ...but not when Alice is all-in (ante and bring-in call)
    assert STUD_7TH_UP not in _ids(rows)


def test_an_opening_with_a_raise_counts_as_the_bet_and_a_raise_for_the_cap():
    # DRAWHI-OPEN: two bets opened at once are the bet and the first raise, so with three
    # players in, three more raises reach the cap of a bet and four raises (BET-CAP-TWOROUND)
    rows = _fixture(DRAWHI_ALLIN_ANTES, ".pass")
    head = [r for r in rows if r["kind"] in ("hand_started", "seat", "post", "deal")]
    for r in head:
        if r["kind"] == "seat":
            r["amount"] = 1000

    def act(seq, kind, seat, total):
        return {**head[-1], "seq": seq, "kind": kind, "seat": seat, "cards": None,
                "detail": None, "amount": None, "total": total}

    seq = head[-1]["seq"]
    capped = [act(seq + 1, "bet", 1, 20), act(seq + 2, "raise", 2, 30),
              act(seq + 3, "raise", 3, 40), act(seq + 4, "raise", 1, 50)]
    betting = {BET_LIMIT_FIXED, BET_LIMIT_DRAW_DOUBLE, BET_CAP_TWOROUND}
    assert not _ids(head + capped) & betting  # (no awards logged: only the betting counts)
    over = _ids(head + capped + [act(seq + 5, "raise", 2, 60)]) & betting
    assert over == {BET_CAP_TWOROUND}


def test_a_hand_folded_with_no_wager_pending_keeps_its_cards_and_place_in_the_deal():
    # STUD-FOLD-NO-WAGER (000 §7 r.9): Alice folds on fourth street although nobody bet; the
    # dealer goes on dealing to her seat, which is neither a breach nor an inconsistent log
    rows = _fixture(STUD_7TH_UP, ".pass")
    out, folded = [], False
    for r in rows:
        if r["kind"] == "check" and r["seat"] == 1 and any(x.get("cards") == "8h" for x in out):
            if folded:
                continue  # her later checks are not logged: she is out of the betting
            r, folded = {**r, "kind": "fold"}, True
        if r["kind"] == "show" and r["seat"] == 1:
            continue
        out.append(r)
    assert folded and any(r["kind"] == "deal" and r["seat"] == 1 and r["cards"] == "6c"
                          for r in out)
    findings = replay_hand(hand_from_rows(out)).findings
    assert [(f.rule_id, f.message) for f in findings] == []
