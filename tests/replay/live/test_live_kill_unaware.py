"""KILL-UNAWARE in a required kill (000 §12 r.9; 002 §13.1): a player who put in the big
blind and took it back is bound only if the kill button was face up, which no log records
(schemas/events.json has no event for it). The replay cannot prove the breach, so it notes
data quality instead of flagging CHIP-RELEASE-BINDING; any other amount still binds."""

from __future__ import annotations

from pathlib import Path

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.ids import CHIP_RELEASE_BINDING, DQ_INCONSISTENT_LOG
from audit.rules.profiles import load_profile
from audit.rules.registry import RULES, Category

RULES_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "rules"
PERMITTED = RULES_DIR / "permitted" / "KILL-UNAWARE.txt"
TEXT = PERMITTED.read_text(encoding="utf-8")


def _replay(text: str, hand_id: str):
    [rows] = [rows for rows, _ in parse_text(text, "kill") if rows[0]["hand_id"] == hand_id]
    return replay_hand(hand_from_rows(rows), load_profile("montana")).findings


def test_required_kill_withdrawal_of_the_blind_is_a_data_quality_note_not_a_violation():
    [f] = _replay(TEXT, "fx:KILL-UNAWARE.pass-required-kill")
    assert (f.rule_id, f.seat) == (DQ_INCONSISTENT_LOG, 4)
    assert RULES[f.rule_id].category == Category.DATA_QUALITY
    assert "face up" in f.message and "does not record" in f.message


def test_required_kill_withdrawal_of_another_amount_still_binds():
    hand = "fx:KILL-UNAWARE.banned-required-not-the-blind"
    got = [(f.rule_id, f.seat) for f in _replay(TEXT, hand)]
    assert got == [(CHIP_RELEASE_BINDING, 4)]


def test_a_raise_over_the_required_kill_ends_the_benefit_of_the_doubt():
    # Carol, the killer, raises to 40 (the doubled limit) before Dave acts; he puts in only
    # the big blind and folds. As in a voluntary kill, once the kill is raised only the call
    # of the kill may be taken back (the unseen-raise exception): his 10 binds.
    text = TEXT.replace("hand fx:KILL-UNAWARE.pass-required-kill ", "hand fx:raised ", 1)
    text = text.replace("check 3\nchips 4 10 1x10\nfold 4\nfold 1\nfold 2\naward 3 35\n",
                        "raise 3 to 40\nchips 4 10 1x10\nfold 4\nfold 1\nfold 2\n"
                        "award 3 55\n", 1)
    got = {(f.rule_id, f.seat) for f in _replay(text, "fx:raised")}
    assert (CHIP_RELEASE_BINDING, 4) in got and (DQ_INCONSISTENT_LOG, 4) not in got


def test_voluntary_kill_withdrawal_of_the_blind_draws_nothing():
    assert not _replay(TEXT, "fx:KILL-UNAWARE.pass")
