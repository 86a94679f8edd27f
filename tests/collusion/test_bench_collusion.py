"""The collusion table of issue 25 (audit/devtools/bench_collusion.py): one row per population,
found per style, false leads and the planted teams' ranks, as the scorecard reports them."""

from __future__ import annotations

from audit.devtools.bench_collusion import (
    HEADER,
    Population,
    default_populations,
    table_row,
    team_line,
)

CARD = {
    "styles": {"soft_play": {"teams": 2, "found": 2}, "check_down": {"teams": 2, "found": 0}},
    "teams": [
        {"team_id": 0, "style": "soft_play", "rank": 1, "q_value": 0.0, "found": True},
        {"team_id": 1, "style": "soft_play", "rank": 3, "q_value": 2e-5, "found": True},
        {"team_id": 2, "style": "check_down", "rank": 40, "q_value": 0.31, "found": False},
        {"team_id": 3, "style": "check_down", "rank": None, "q_value": None, "found": False},
    ],
    "false_leads": 3, "false_leads_honest": 1, "false_leads_per_100k_hands": 5.0,
}


def test_a_row_says_found_per_style_false_leads_and_their_rate() -> None:
    row = table_row(Population("rulebook", 0.4, 11, 1), CARD)
    assert row == ("| share 0.4, seed 1 | 2/2 |  |  | 0/2 |  |  | 2 of 4 | 3 (1 between players "
                   "of no team) | 5.0 |")
    assert row.count("|") == HEADER.splitlines()[0].count("|")


def test_every_planted_team_has_its_rank_and_q_value() -> None:
    assert team_line(CARD) == ("soft_play #0: rank 1, q 0; soft_play #1: rank 3, q 2e-05; "
                               "check_down #2: rank 40, q 0.31; check_down #3: untested")


def test_a_teams_changed_decisions_follow_its_rank_where_the_store_has_the_ledger() -> None:
    teams = [dict(CARD["teams"][2], changed=15, changed_hands=7),
             dict(CARD["teams"][3], changed=0, changed_hands=0)]
    assert team_line({"teams": teams}) == ("check_down #2: rank 40, q 0.31, changed 15 in 7; "
                                           "check_down #3: untested, changed 0 in 0")


def test_the_default_table_is_the_issues() -> None:
    names = [p.name for p in default_populations((1, 2))]
    assert names == ["share 0.4, seed 1", "share 0.4, seed 2", "share 0.8, seed 1",
                     "share 0.8, seed 2", "clean, seed 1", "clean, seed 2", "sim family, seed 1"]
